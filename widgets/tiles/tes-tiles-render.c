/* tes-tiles-render.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "tes-bsp-section.h"
#include "tes-painter.h"
#include "tes-tiles-render.h"

/* Tile Balance's picture, drawn alike in the window and by `tessera-cli
 * render --view tile-balance`: per IPU (or device) a bar by state, a
 * chart of every tile and the least and most busy tiles. */

#define FONT    "Sans 9"
#define MARGIN  16.0
#define INK     0x241f31
#define DIM_INK 0x77767b
#define GRID    0xdeddda
/* units few enough to name each one under its bar */
#define MAX_NAMED 32

/* What the balances cover: the selection, else what is in view. */
void
tes_tiles_balance_range (TesWorkspace *workspace,
               gint64       *t0,
               gint64       *t1)
{
  if (!tes_workspace_get_selection (workspace, t0, t1))
    tes_workspace_get_visible (workspace, t0, t1);
}

/* A tile of an IPU, or a vendor's unit by its track's name ("Core 3"). */
char *
tes_tiles_unit_name (TesReport             *report,
           const TesTileActivity *tile)
{
  const TesTrack *track = tile->track_id != 0 ? tes_report_get_track (report, tile->track_id) : NULL;

  if (track != NULL && track->name != NULL)
    return g_strdup (track->name);

  return g_strdup_printf (_("tile %d"), tile->tile);
}

/* A vendor's units (cores, engines) rather than Poplar's tiles: they
 * only work or wait, so their share is "busy" and idle, no exchange or
 * sync. */
static gboolean
balance_is_units (const TesTileBalance *balance)
{
  return balance->least->len > 0 && g_array_index (balance->least, TesTileActivity, 0).track_id != 0;
}

/* What a balance's bar shows: a device's own busy and idle time when it
 * has them (overlapping units count once), else its tiles' sums. */
const gint64 *
tes_tiles_balance_cycles (const TesTileBalance *balance)
{
  return balance->has_union ? balance->union_cycles : balance->cycles;
}

/* The states a balance's legend lists, in order (compute, exchange, sync,
 * then idle); FALSE past the last. */
gboolean
tes_tiles_legend_state (const TesTileBalance *balance,
              guint                 nth,
              TesTileState         *state,
              const char          **label)
{
  static const TesTileState tiles[] = {
    TES_TILE_STATE_COMPUTE, TES_TILE_STATE_EXCHANGE, TES_TILE_STATE_SYNC, TES_TILE_STATE_IDLE,
  };
  static const TesTileState units[] = { TES_TILE_STATE_COMPUTE, TES_TILE_STATE_IDLE };
  gboolean is_units = balance_is_units (balance);

  if (nth >= (is_units ? G_N_ELEMENTS (units) : G_N_ELEMENTS (tiles)))
    return FALSE;
  *state = is_units ? units[nth] : tiles[nth];
  /* Translators: the share of a core's or engine's time it worked */
  *label = is_units && *state == TES_TILE_STATE_COMPUTE ? _("Busy") : tes_tile_state_name (*state);
  if (balance->has_union && *state == TES_TILE_STATE_COMPUTE)
    /* Translators: a device's busy share: the time any of its units (streams, cores) worked */
    *label = _("Busy (union of its units)");
  return TRUE;
}

/* Whether every unit listed is named as a core ("Core 0": qaic,
 * SigmaStar) or as a stream ("stream 7": a PyTorch trace's GPU), as
 * prefix says, not as an engine (Torq's "DMA In", "Slice 0", "CSS"). */
static gboolean
units_are_named (TesReport            *report,
                 const TesTileBalance *balance,
                 const char           *prefix)
{
  GArray *lists[] = { balance->least, balance->most };

  for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
    for (guint i = 0; i < lists[l]->len; i++)
      {
        const TesTrack *unit = tes_report_get_track (report, g_array_index (lists[l], TesTileActivity, i).track_id);

        if (unit == NULL || unit->name == NULL || g_ascii_strncasecmp (unit->name, prefix, strlen (prefix)) != 0)
          return FALSE;
      }

  return TRUE;
}

/* An IPU and its tiles, or a device (the units' parent track) and its
 * cores or engines. */
char *
tes_tiles_balance_title (TesReport            *report,
               const TesTileBalance *balance)
{
  const TesTileActivity *any = balance->least->len > 0 ? &g_array_index (balance->least, TesTileActivity, 0) : NULL;
  const TesTrack *unit = any != NULL && any->track_id != 0 ? tes_report_get_track (report, any->track_id) : NULL;
  g_autofree char *device_name = unit != NULL ? tes_report_dup_unit_device_name (report, unit->id) : g_strdup ("");
  g_autofree char *n = tes_format_grouped (balance->n_tiles);

  if (unit != NULL && units_are_named (report, balance, "core"))
    /* Translators: a device (by its name) and its cores */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s · %s core", "%s · %s cores", balance->n_tiles),
                            device_name, n);
  if (unit != NULL && units_are_named (report, balance, "stream "))
    /* Translators: a GPU (by its name) and its streams (CUDA or HIP streams) */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s · %s stream", "%s · %s streams", balance->n_tiles),
                            device_name, n);
  if (unit != NULL)
    /* Translators: a device (by its name) and its engines (DMA, slices, …) */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s · %s engine", "%s · %s engines", balance->n_tiles),
                            device_name, n);

  /* Translators: an IPU (by its number) and its tiles */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "IPU %d · %s tile", "IPU %d · %s tiles", balance->n_tiles),
                          balance->ipu, n);
}

/* The cycles a vendor's unit's ns make on the clock the view counts
 * cycles with (0 without one). */
static double
cycles_per_ns (TesWorkspace *workspace)
{
  gint64 clock_id = tes_workspace_get_cycles_clock (workspace);
  const TesClock *clock = clock_id != 0 ? tes_report_get_clock (tes_workspace_get_report (workspace), clock_id) : NULL;

  return clock != NULL ? (double)clock->ticks_per_second / 1e9 : 0;
}

/* A unit's busy time with its unit, in the one its balance's lists use
 * (tes_tile_balance_unit()): for what screen readers say of a line. */
char *
tes_tiles_busy_text (TesWorkspace          *workspace,
                     const TesTileBalance  *balance,
                     const TesTileActivity *tile)
{
  TesTimeUnit unit = tes_tile_balance_unit (balance, tes_workspace_get_time_unit (workspace));
  g_autofree char *busy = tes_tile_format_busy (tile, unit, cycles_per_ns (workspace));

  return g_strdup_printf ("%s %s", busy, tes_time_unit_to_string (unit));
}

/* A tile (or a core), the time it worked (in @balance's unit), and its
 * share of the range: a line of the lists, and the chart's selection. */
static char *
tile_line (TesWorkspace          *workspace,
           const TesTileBalance  *balance,
           const TesTileActivity *tile)
{
  TesTimeUnit unit = tes_tile_balance_unit (balance, tes_workspace_get_time_unit (workspace));
  gint64 busy = tes_tile_activity_busy (tile);
  gint64 all = busy + tile->cycles[TES_TILE_STATE_IDLE];
  g_autofree char *cycles = tes_tile_format_busy (tile, unit, cycles_per_ns (workspace));
  g_autofree char *name = tes_tiles_unit_name (tes_workspace_get_report (workspace), tile);

  /* Translators: a tile (or a core), the time it worked (in the unit its list's heading names), and its share of the range */
  return g_strdup_printf (_("%s: %s (%.0f %%)"), name, cycles, all > 0 ? 100.0 * busy / all : 0);
}

/* @selected: the line to mark, or -1 */
static double
draw_tile_list (TesPainter           *p,
                TesWorkspace         *workspace,
                const TesTileBalance *balance,
                GArray               *tiles,
                const char           *title,
                double                x,
                double                y,
                double                width,
                int                   selected)
{
  TesTimeUnit unit = tes_tile_balance_unit (balance, tes_workspace_get_time_unit (workspace));
  /* Translators: a list of tiles (or cores) and the unit their busy times are in: "Least busy (µs)" */
  g_autofree char *heading = g_strdup_printf (_("%s (%s)"), title, tes_time_unit_to_string (unit));

  y += tes_painter_text (p, heading, x, y, width, PANGO_ALIGN_LEFT, TRUE, INK) + 2;
  for (guint i = 0; i < tiles->len; i++)
    {
      const TesTileActivity *tile = &g_array_index (tiles, TesTileActivity, i);
      g_autofree char *line = tile_line (workspace, balance, tile);

      if ((int)i == selected)
        {
          /* the keys' selection, behind the line */
          int line_height;

          pango_layout_set_text (p->layout, line, -1);
          pango_layout_get_pixel_size (p->layout, NULL, &line_height);
          tes_painter_set_rgb (p->cr, 0x99c1f1);
          cairo_rectangle (p->cr, x - 4, y, width, line_height);
          cairo_fill (p->cr);
        }
      y += tes_painter_text (p, line, x, y, width, PANGO_ALIGN_LEFT, FALSE, INK);
    }

  return y;
}

/* The chart's heading: what a bar is, and the mean its dashed line marks. */
static char *
chart_heading (TesReport            *report,
               const TesTileBalance *balance,
               const TesTileChart   *chart)
{
  double mean = 100 * chart->mean;
  gboolean merged = chart->columns->len < balance->n_tiles;

  if (balance_is_units (balance) && units_are_named (report, balance, "core"))
    /* Translators: the chart of every core of a device; the mean of their busy shares */
    return g_strdup_printf (_("Busy share of each core, in order  ·  dashed: mean %.1f %%"), mean);
  if (balance_is_units (balance) && units_are_named (report, balance, "stream "))
    /* Translators: the chart of every stream of a GPU; the mean of their busy shares */
    return g_strdup_printf (_("Busy share of each stream, in order  ·  dashed: mean %.1f %%"), mean);
  if (balance_is_units (balance))
    /* Translators: the chart of every engine (DMA, slices, …) of a device */
    return g_strdup_printf (_("Busy share of each engine, in order  ·  dashed: mean %.1f %%"), mean);
  if (merged)
    /* Translators: more tiles than pixels: a column shows the least busy of its tiles, ticked at the most busy's share */
    return g_strdup_printf (_("Busy share of each tile, in tile order  ·  dashed: mean %.1f %%  ·  "
                              "a column of several tiles: its least busy, ticked at its most busy"), mean);
  /* Translators: the chart of every tile of an IPU */
  return g_strdup_printf (_("Busy share of each tile, in tile order  ·  dashed: mean %.1f %%"), mean);
}

/* Every tile of @balance (or unit), its busy share stacked by state, a
 * 0 to 100 % axis and the mean dashed; a few units are named under their
 * bars, many tiles by the first and last. Returns the y below it. */
static double
draw_chart (TesPainter           *p,
            TesWorkspace         *workspace,
            const TesTileBalance *balance,
            double                y,
            double                width,
            int                   selected,
            TesTileChartRect     *rect)
{
  TesReport *report = tes_workspace_get_report (workspace);
  static const TesTileState stack[] = { TES_TILE_STATE_COMPUTE, TES_TILE_STATE_EXCHANGE, TES_TILE_STATE_SYNC };
  static const double dash[] = { 5, 3 };
  cairo_t *cr = p->cr;
  g_autoptr(TesTileChart) chart = NULL;
  g_autofree char *heading = NULL;
  double plot_x, plot_w, base;

  if (balance->tiles == NULL || balance->tiles->len == 0)
    return y;

  tes_tile_chart_plot (width, &plot_x, &plot_w);
  chart = tes_tile_chart_new (balance, plot_x, y, plot_w, 1);   /* for the heading's mean */
  heading = chart_heading (report, balance, chart);
  y += tes_painter_text (p, heading, plot_x, y, plot_w, PANGO_ALIGN_LEFT, FALSE, DIM_INK) + 6;
  g_clear_pointer (&chart, tes_tile_chart_free);
  chart = tes_tile_chart_new (balance, plot_x, y, plot_w, TES_TILE_CHART_HEIGHT);
  base = y + TES_TILE_CHART_HEIGHT;
  if (rect != NULL)
    *rect = (TesTileChartRect) { plot_x, y, plot_w, TES_TILE_CHART_HEIGHT, 0 };

  /* the axis: 100 % and 0 % lines, light */
  tes_painter_set_rgb (cr, GRID);
  cairo_rectangle (cr, plot_x, y, plot_w, 1);
  cairo_rectangle (cr, plot_x, base, plot_w, 1);
  cairo_fill (cr);
  tes_painter_text (p, "100 %", plot_x - 48, y - 7, 44, PANGO_ALIGN_RIGHT, FALSE, DIM_INK);
  tes_painter_text (p, "0 %", plot_x - 48, base - 7, 44, PANGO_ALIGN_RIGHT, FALSE, DIM_INK);

  for (guint c = 0; c < chart->columns->len; c++)
    {
      const TesTileColumn *column = &g_array_index (chart->columns, TesTileColumn, c);
      double below = base;

      for (guint k = 0; k < G_N_ELEMENTS (stack); k++)
        {
          below -= column->heights[stack[k]];
          if (column->heights[stack[k]] <= 0)
            continue;
          tes_painter_set_rgb (cr, tes_tile_state_color (stack[k]));
          cairo_rectangle (cr, column->x, below, column->width, column->heights[stack[k]]);
          cairo_fill (cr);
        }

      /* the most busy of a column's tiles: a whisker up to a tick */
      if (column->most_top < column->top)
        {
          tes_painter_set_rgb (cr, DIM_INK);
          cairo_rectangle (cr, column->x + floor (column->width / 2), column->most_top, 1,
                           column->top - column->most_top);
          cairo_rectangle (cr, column->x, column->most_top, column->width, 1);
          cairo_fill (cr);
        }
    }

  /* the mean, over the bars */
  cairo_save (cr);
  tes_painter_set_rgb (cr, INK);
  cairo_set_line_width (cr, 1);
  cairo_set_dash (cr, dash, G_N_ELEMENTS (dash), 0);
  cairo_move_to (cr, plot_x, chart->mean_y + 0.5);
  cairo_line_to (cr, plot_x + plot_w, chart->mean_y + 0.5);
  cairo_stroke (cr);
  cairo_restore (cr);

  /* the selected tile's bar: outlined from 0 to 100 %, however thin */
  if (selected >= 0 && tes_tile_chart_column_of (chart, (guint)selected) >= 0)
    {
      const TesTileColumn *column = &g_array_index (chart->columns, TesTileColumn,
                                                    tes_tile_chart_column_of (chart, (guint)selected));

      cairo_save (cr);
      tes_painter_set_rgb (cr, INK);
      cairo_set_line_width (cr, 2);
      cairo_rectangle (cr, column->x - 2, y - 3, column->width + 4, TES_TILE_CHART_HEIGHT + 6);
      cairo_stroke (cr);
      cairo_restore (cr);
    }
  y = base + 3;

  if (balance->n_tiles <= MAX_NAMED)
    {
      double line = 0;

      for (guint c = 0; c < chart->columns->len; c++)
        {
          const TesTileColumn *column = &g_array_index (chart->columns, TesTileColumn, c);
          const TesTileActivity *tile = &g_array_index (balance->tiles, TesTileActivity, column->least);
          double slot = plot_w / chart->columns->len;
          double left = plot_x + slot * c;
          g_autofree char *name = tile->track_id != 0 ? tes_tiles_unit_name (report, tile) : g_strdup_printf ("%d", tile->tile);

          line = MAX (line, tes_painter_text (p, name, left + 1, y, MAX (slot - 2, 1), PANGO_ALIGN_CENTER, FALSE,
                                              INK));
        }
      y += line;
    }
  else
    {
      g_autofree char *first = tes_tiles_unit_name (report, &g_array_index (balance->tiles, TesTileActivity, 0));
      g_autofree char *last = tes_tiles_unit_name (report, &g_array_index (balance->tiles, TesTileActivity,
                                                                 balance->tiles->len - 1));

      tes_painter_text (p, first, plot_x, y, plot_w / 2, PANGO_ALIGN_LEFT, FALSE, DIM_INK);
      if (selected >= 0 && selected < (int)balance->tiles->len)
        {
          g_autofree char *line = tile_line (workspace, balance, &g_array_index (balance->tiles, TesTileActivity,
                                                                                 selected));
          /* Translators: the tile selected in the chart of every tile (as "tile 5: 1.2 ms (95 %)") */
          g_autofree char *label = g_strdup_printf (_("Selected: %s"), line);

          tes_painter_text (p, label, plot_x + plot_w / 6, y, plot_w * 2 / 3, PANGO_ALIGN_CENTER, TRUE, INK);
        }
      y += tes_painter_text (p, last, plot_x + plot_w / 2, y, plot_w / 2, PANGO_ALIGN_RIGHT, FALSE, DIM_INK);
    }

  return y;
}

/* Returns the height drawn. @selected: a tile of the lists to mark
 * (counted across them all), or -1; @selected_tile of @selected_ipu:
 * the tile whose bar to mark (-1: none). Where the charts went goes
 * into @charts (TesTileChartRect; may be NULL). */
double
tes_tiles_render_balances (cairo_t      *cr,
                           TesWorkspace *workspace,
                           GPtrArray    *balances,
                           double        width,
                           int           selected,
                           int           selected_ipu,
                           int           selected_tile,
                           gboolean      updating,
                           GArray       *charts)
{
  TesReport *report = tes_workspace_get_report (workspace);
  TesPainter p;
  double y = MARGIN;

  tes_painter_init (&p, cr, FONT);

  if (balances == NULL && updating)
    y += tes_painter_text (&p, _("Working out each tile\u2019s balance\u2026"), MARGIN, y, width - 2 * MARGIN,
                           PANGO_ALIGN_LEFT, FALSE, DIM_INK);
  else if (balances == NULL || balances->len == 0)
    y += tes_painter_text (&p, _("No BSP steps in this range"), MARGIN, y, width - 2 * MARGIN,
                           PANGO_ALIGN_LEFT, FALSE, DIM_INK);

  for (guint i = 0; balances != NULL && i < balances->len; i++)
    {
      const TesTileBalance *balance = g_ptr_array_index (balances, i);
      const gint64 *cycles = tes_tiles_balance_cycles (balance);
      gint64 all = 0;
      double x = MARGIN, bar = width - 2 * MARGIN;
      g_autofree char *title = tes_tiles_balance_title (report, balance);
      g_autoptr(GString) legend = g_string_new (NULL);
      TesTileState state;
      const char *label;

      for (guint s = 0; s < 4; s++)
        all += cycles[s];

      y += tes_painter_text (&p, title, MARGIN, y, bar, PANGO_ALIGN_LEFT, TRUE, INK) + 4;
      for (guint s = 0; all > 0 && tes_tiles_legend_state (balance, s, &state, &label); s++)
        {
          double w = bar * cycles[state] / all;

          tes_painter_set_rgb (cr, tes_tile_state_color (state));
          cairo_rectangle (cr, x, y, w, 16);
          cairo_fill (cr);
          x += w;
          g_string_append_printf (legend, "%s%s %.1f %%", legend->len ? "  ·  " : "", label,
                                  100.0 * cycles[state] / all);
        }
      y += 18;
      y += tes_painter_text (&p, legend->str, MARGIN, y, bar, PANGO_ALIGN_LEFT, FALSE, DIM_INK) + 8;
      {
        TesTileChartRect rect = { 0 };
        int tile = selected_ipu < 0 || balance->ipu == selected_ipu ? tes_tile_balance_find_tile (balance, selected_tile)
                                                                    : -1;

        y = draw_chart (&p, workspace, balance, y, width, tile, &rect) + 12;
        rect.balance = i;
        if (charts != NULL && rect.width > 0)
          g_array_append_val (charts, rect);
      }

      {
        double half = (width - 3 * MARGIN) / 2;
        double left = draw_tile_list (&p, workspace, balance, balance->least, _("Least busy"), MARGIN, y, half, selected);
        double right = draw_tile_list (&p, workspace, balance, balance->most, _("Most busy"), 2 * MARGIN + half, y, half,
                                       selected - (int)balance->least->len);

        y = MAX (left, right) + 16;
        selected -= balance->least->len + balance->most->len;
      }
    }

  tes_painter_clear (&p);

  return y;
}

gboolean
tes_tiles_render (TesWorkspace  *workspace,
                  cairo_t       *cr,
                  int            width,
                  int            height,
                  GError       **error)
{
  g_autoptr(GPtrArray) balances = NULL;
  gint64 t0, t1;

  tes_tiles_balance_range (workspace, &t0, &t1);
  if (!(balances = tes_tile_balances_new (tes_workspace_get_report (workspace),
                                          tes_bsp_peek_ipus (tes_workspace_get_report (workspace)), t0, t1, error)))
    return FALSE;

  cairo_save (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  tes_tiles_render_balances (cr, workspace, balances, width, -1, -1, -1, FALSE, NULL);
  cairo_restore (cr);

  return cairo_status (cr) == CAIRO_STATUS_SUCCESS;
}

/* How tall tes_tiles_render_balances() draws at @width: the same layout,
 * drawn nowhere, for the section's measure(). */
int
tes_tiles_render_height (TesWorkspace *workspace,
                         GPtrArray    *balances,
                         double        width,
                         gboolean      updating)
{
  cairo_surface_t *nowhere = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 1, 1);
  cairo_t *cr = cairo_create (nowhere);
  double height = tes_tiles_render_balances (cr, workspace, balances, width, -1, -1, -1, updating, NULL);

  cairo_destroy (cr);
  cairo_surface_destroy (nowhere);

  return (int)ceil (height);
}
