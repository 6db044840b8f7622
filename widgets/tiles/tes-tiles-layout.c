/* tes-tiles-layout.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "tes-tiles-layout.h"
#include "tes-workspace.h"

#include <string.h>

void
tes_tile_balance_free (TesTileBalance *balance)
{
  if (balance == NULL)
    return;

  g_clear_pointer (&balance->least, g_array_unref);
  g_clear_pointer (&balance->most, g_array_unref);
  g_clear_pointer (&balance->tiles, g_array_unref);
  g_free (balance);
}

/* The cycles a tile worked: all but those it waited. */
gint64
tes_tile_activity_busy (const TesTileActivity *activity)
{
  return activity->cycles[TES_TILE_STATE_COMPUTE] + activity->cycles[TES_TILE_STATE_EXCHANGE] +
         activity->cycles[TES_TILE_STATE_SYNC];
}

static int
compare_busy (gconstpointer a,
              gconstpointer b)
{
  const TesTileActivity *x = a, *y = b;
  gint64 bx = tes_tile_activity_busy (x), by = tes_tile_activity_busy (y);

  if (bx != by)
    return bx < by ? -1 : 1;

  return x->tile < y->tile ? -1 : x->tile > y->tile;
}

/* @activity: what tes_report_get_tile_activity() gives, by IPU then tile.
 * Returns: (transfer full): TesTileBalance per IPU */
GPtrArray *
tes_tile_balance_compute (GArray *activity,
                          guint   n_extremes)
{
  GPtrArray *balances = g_ptr_array_new_with_free_func ((GDestroyNotify)tes_tile_balance_free);
  guint start = 0;

  while (start < activity->len)
    {
      gint ipu = g_array_index (activity, TesTileActivity, start).ipu;
      g_autoptr(GArray) sorted = g_array_new (FALSE, FALSE, sizeof (TesTileActivity));
      TesTileBalance *balance = g_new0 (TesTileBalance, 1);
      guint end = start;

      for (; end < activity->len && g_array_index (activity, TesTileActivity, end).ipu == ipu; end++)
        {
          const TesTileActivity *tile = &g_array_index (activity, TesTileActivity, end);

          for (guint s = 0; s < 4; s++)
            balance->cycles[s] += tile->cycles[s];
          g_array_append_val (sorted, *tile);
        }

      balance->ipu = ipu;
      balance->n_tiles = end - start;
      balance->tiles = g_array_sized_new (FALSE, FALSE, sizeof (TesTileActivity), balance->n_tiles);
      g_array_append_vals (balance->tiles, &g_array_index (activity, TesTileActivity, start), balance->n_tiles);
      g_array_sort (sorted, compare_busy);
      balance->least = g_array_new (FALSE, FALSE, sizeof (TesTileActivity));
      balance->most = g_array_new (FALSE, FALSE, sizeof (TesTileActivity));
      for (guint i = 0; i < MIN (n_extremes, sorted->len); i++)
        {
          g_array_append_val (balance->least, g_array_index (sorted, TesTileActivity, i));
          g_array_append_val (balance->most, g_array_index (sorted, TesTileActivity, sorted->len - 1 - i));
        }
      g_ptr_array_add (balances, balance);
      start = end;
    }

  return balances;
}

/* The share of its time in the range a tile spent in @state, 0 to 1. */
double
tes_tile_activity_share (const TesTileActivity *activity,
                         TesTileState           state)
{
  gint64 all = tes_tile_activity_busy (activity) + activity->cycles[TES_TILE_STATE_IDLE];

  return all > 0 ? (double)activity->cycles[MIN ((guint)state, TES_TILE_STATE_SYNC)] / all : 0;
}

/* The share of its time in the range a tile worked, 0 to 1 (0 with no
 * time in the range). */
double
tes_tile_activity_busy_share (const TesTileActivity *activity)
{
  gint64 all = tes_tile_activity_busy (activity) + activity->cycles[TES_TILE_STATE_IDLE];

  return all > 0 ? (double)tes_tile_activity_busy (activity) / all : 0;
}

/* The chart's plot across a section @width wide: the page's margins, and
 * room on the left for the axis' "100 %". */
void
tes_tile_chart_plot (double  width,
                     double *x,
                     double *plot_width)
{
  *x = 16 + 44;
  *plot_width = MAX (width - 2 * 16 - 44, 1);
}

void
tes_tile_chart_free (TesTileChart *chart)
{
  if (chart == NULL)
    return;

  g_clear_pointer (&chart->columns, g_array_unref);
  g_free (chart);
}

/* The index in @balance's tiles of @tile, or -1. */
int
tes_tile_balance_find_tile (const TesTileBalance *balance,
                            int                   tile)
{
  for (guint i = 0; tile >= 0 && balance->tiles != NULL && i < balance->tiles->len; i++)
    if (g_array_index (balance->tiles, TesTileActivity, i).tile == tile)
      return (int)i;

  return -1;
}

/* The balance (of @balances) holding @tile of @ipu (any IPU when
 * @ipu < 0), its index in the balance's tiles in @index; -1: none. */
int
tes_tile_balances_find (GPtrArray *balances,
                        int        ipu,
                        int        tile,
                        int       *index)
{
  for (guint b = 0; balances != NULL && b < balances->len; b++)
    {
      const TesTileBalance *balance = g_ptr_array_index (balances, b);

      if ((ipu < 0 || balance->ipu == ipu) && (*index = tes_tile_balance_find_tile (balance, tile)) >= 0)
        return (int)b;
    }
  *index = -1;

  return -1;
}

/* Where @tile of @ipu is in the lists of least and most busy tiles,
 * counted across every balance's lists (least, then most), or -1. */
int
tes_tile_balances_listed (GPtrArray *balances,
                          int        ipu,
                          int        tile)
{
  int n = 0;

  for (guint b = 0; balances != NULL && b < balances->len; b++)
    {
      const TesTileBalance *balance = g_ptr_array_index (balances, b);
      GArray *lists[] = { balance->least, balance->most };

      for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
        for (guint i = 0; i < lists[l]->len; i++, n++)
          {
            const TesTileActivity *listed = &g_array_index (lists[l], TesTileActivity, i);

            if (listed->tile == tile && (ipu < 0 || listed->ipu == ipu))
              return n;
          }
    }

  return -1;
}

/* The column of @chart that draws the tile at @index of its tiles, or -1. */
int
tes_tile_chart_column_of (const TesTileChart *chart,
                          guint               index)
{
  guint lo = 0, hi = chart->columns->len;

  /* columns cover the tiles in order */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const TesTileColumn *column = &g_array_index (chart->columns, TesTileColumn, mid);

      if (index >= column->last)
        lo = mid + 1;
      else if (index < column->first)
        hi = mid;
      else
        return (int)mid;
    }

  return -1;
}

/* The tile a click at @x selects: the one its column draws (its least
 * busy), an index of the balance's tiles, or -1 beside the bars. */
int
tes_tile_chart_tile_at (const TesTileChart *chart,
                        double              x)
{
  for (guint c = 0; c < chart->columns->len; c++)
    {
      const TesTileColumn *column = &g_array_index (chart->columns, TesTileColumn, c);
      double next = c + 1 < chart->columns->len ? g_array_index (chart->columns, TesTileColumn, c + 1).x
                                                : column->x + column->width + 1;

      /* the gap between bars counts as the bar's */
      if (x >= column->x && x < MAX (next, column->x + column->width))
        return (int)column->least;
    }

  return -1;
}

static double
snap (double v)
{
  return floor (v + 0.5);
}

/* Every tile of @balance as a column of the plot at (@x, @y), @width by
 * @height, in tile order, whole pixels. More tiles than pixels share a
 * column: it draws the least busy of them and ticks the most busy one's
 * share above it, so an idle tile is not hidden by a busy neighbour (as
 * the heaviest would hide it) nor a busy one by an idle one. A column
 * three pixels wide or more keeps a pixel of gap; one unit of a few (a
 * Torq engine) is at most 48 pixels wide, centred in its share. */
TesTileChart *
tes_tile_chart_new (const TesTileBalance *balance,
                    double                x,
                    double                y,
                    double                width,
                    double                height)
{
  static const TesTileState stack[] = { TES_TILE_STATE_COMPUTE, TES_TILE_STATE_EXCHANGE, TES_TILE_STATE_SYNC };
  TesTileChart *chart = g_new0 (TesTileChart, 1);
  guint n = balance->tiles != NULL ? balance->tiles->len : 0;
  guint columns = MIN (n, (guint)MAX (width, 1));
  double base = y + height;

  chart->columns = g_array_sized_new (FALSE, TRUE, sizeof (TesTileColumn), columns);
  for (guint t = 0; t < n; t++)
    chart->mean += tes_tile_activity_busy_share (&g_array_index (balance->tiles, TesTileActivity, t)) / n;
  chart->mean_y = CLAMP (snap (base - height * chart->mean), y, base - 1);

  for (guint c = 0; c < columns; c++)
    {
      TesTileColumn column = { .first = c * n / columns, .last = (c + 1) * n / columns };
      double left = snap (x + width * c / columns), right = snap (x + width * (c + 1) / columns);
      const TesTileActivity *least;
      double below = base, share = 0;

      column.least = column.most = column.first;
      for (guint t = column.first; t < column.last; t++)
        {
          double busy = tes_tile_activity_busy_share (&g_array_index (balance->tiles, TesTileActivity, t));

          if (busy < tes_tile_activity_busy_share (&g_array_index (balance->tiles, TesTileActivity, column.least)))
            column.least = t;
          if (busy > tes_tile_activity_busy_share (&g_array_index (balance->tiles, TesTileActivity, column.most)))
            column.most = t;
        }

      column.width = MAX (right - left - (right - left >= 3 ? 1 : 0), 1);
      column.x = left;
      if (column.width > 48)
        {
          column.x = snap (left + (right - left - 48) / 2);
          column.width = 48;
        }

      /* stacked from the bottom, each edge rounded from the running
       * share so the stack's top is its busy share's */
      least = &g_array_index (balance->tiles, TesTileActivity, column.least);
      for (guint k = 0; k < G_N_ELEMENTS (stack); k++)
        {
          double edge;

          share += tes_tile_activity_share (least, stack[k]);
          edge = snap (base - height * share);
          column.heights[stack[k]] = below - edge;
          below = edge;
        }
      column.top = below;
      column.most_top = snap (base - height * tes_tile_activity_busy_share (&g_array_index (balance->tiles, TesTileActivity,
                                                                           column.most)));
      g_array_append_val (chart->columns, column);
    }

  return chart;
}

/* PopVision's state colours: compute green, exchange blue, sync orange,
 * idle grey. */
guint32
tes_tile_state_color (TesTileState state)
{
  static const guint32 colors[4] = {
    [TES_TILE_STATE_IDLE] = 0xc0bfbc,
    [TES_TILE_STATE_COMPUTE] = 0x26a269,
    [TES_TILE_STATE_EXCHANGE] = 0x3584e4,
    [TES_TILE_STATE_SYNC] = 0xe66100,
  };

  return colors[MIN ((guint)state, TES_TILE_STATE_SYNC)];
}

const char *
tes_tile_state_name (TesTileState state)
{
  switch (state)
    {
    case TES_TILE_STATE_COMPUTE: return _("Compute");
    case TES_TILE_STATE_EXCHANGE: return _("Exchange");
    case TES_TILE_STATE_SYNC: return _("Sync");
    case TES_TILE_STATE_IDLE:
    default: return _("Idle");
    }
}

/**
 * tes_tile_balances_new:
 * @ipus: (nullable): the BSP steps with their pyramid when loaded (the
 *   same figures, faster), or NULL
 *
 * Tile Balance over [@t0, @t1): tes_report_get_balance_activity()'s rows,
 * which `tessera-cli tiles` prints, per IPU or device, with a device's
 * own busy time (the union of its units' work). Any thread: it reads the
 * report and what is immutable.
 *
 * Returns: (transfer full): TesTileBalance per IPU or device
 */
GPtrArray *
tes_tile_balances_new (TesReport  *report,
                       GPtrArray  *ipus,
                       gint64      t0,
                       gint64      t1,
                       GError    **error)
{
  g_autoptr(GArray) activity = NULL;
  g_autoptr(GArray) devices = NULL;
  GPtrArray *balances;

  if (!(activity = tes_report_get_balance_activity (report, ipus, t0, t1, &devices, error)))
    return NULL;

  balances = tes_tile_balance_compute (activity, 10);
  /* a device's bar: its own busy time, the union of its units' work */
  for (guint i = 0; devices != NULL && i < balances->len; i++)
    {
      TesTileBalance *balance = g_ptr_array_index (balances, i);

      if ((guint)balance->ipu >= devices->len)
        continue;
      balance->has_union = TRUE;
      memcpy (balance->union_cycles, g_array_index (devices, TesTileActivity, balance->ipu).cycles,
              sizeof balance->union_cycles);
    }

  return balances;
}

/**
 * tes_tile_balance_unit:
 * @view_unit: the workspace's (a Torq timeline shows cycles)
 *
 * The one unit a balance's lists give busy times in, named in their
 * heading: a Poplar tile's cycles; a vendor's unit's time (ns) in cycles
 * when the view counts cycles, else the largest of ns, µs and ms in which
 * the busiest unit listed still shows 100 or more: whole numbers of three
 * to five digits, grouped ("149 µs" rather than "0.149 ms", "52,341 µs"
 * rather than "52341.000 µs").
 */
TesTimeUnit
tes_tile_balance_unit (const TesTileBalance *balance,
                       TesTimeUnit           view_unit)
{
  GArray *lists[] = { balance->least, balance->most };
  gint64 most = 0;

  for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
    for (guint i = 0; lists[l] != NULL && i < lists[l]->len; i++)
      {
        const TesTileActivity *tile = &g_array_index (lists[l], TesTileActivity, i);

        if (tile->track_id == 0)
          return TES_TIME_UNIT_CYCLES;
        most = MAX (most, tes_tile_activity_busy (tile));
      }

  if (view_unit == TES_TIME_UNIT_CYCLES)
    return TES_TIME_UNIT_CYCLES;
  if (most < G_GINT64_CONSTANT (100000))
    return TES_TIME_UNIT_NS;
  if (most < G_GINT64_CONSTANT (100000000))
    return TES_TIME_UNIT_US;
  return TES_TIME_UNIT_MS;
}

/**
 * tes_tile_format_busy:
 * @cycles_per_ns: the view's clock, for a vendor's unit in cycles
 *
 * @tile's busy time in @unit (tes_tile_balance_unit()), whole and grouped
 * as the locale groups, without the unit.
 */
char *
tes_tile_format_busy (const TesTileActivity *tile,
                      TesTimeUnit            unit,
                      double                 cycles_per_ns)
{
  double busy = (double)tes_tile_activity_busy (tile);

  /* a tile's figures are cycles already; a unit's are ns */
  if (tile->track_id != 0)
    switch (unit)
      {
      case TES_TIME_UNIT_CYCLES: busy *= cycles_per_ns; break;
      case TES_TIME_UNIT_US:     busy /= 1e3; break;
      case TES_TIME_UNIT_MS:     busy /= 1e6; break;
      case TES_TIME_UNIT_NS:
      default:                   break;
      }

  return tes_format_grouped (busy);
}
