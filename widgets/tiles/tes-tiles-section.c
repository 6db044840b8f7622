/* tes-tiles-section.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-tiles-section"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "tes-bsp-section.h"
#include "tes-painter.h"
#include "tes-tiles-layout.h"
#include "tes-tiles-section.h"

#include <string.h>

/* Tile Balance: over the trace's visible range (or its selected span),
 * how each IPU's tile-cycles split between computing, exchanging,
 * syncing and waiting, and which tiles worked least and most. It follows
 * the workspace, so zooming the trace zooms it. Once the BSP steps and
 * their sums are loaded (shared with the BSP heatmap), a range costs the
 * tiles, not the steps: whole groups of steps count from their sums. */

#define FONT    "Sans 9"
#define MARGIN  16.0
#define INK     0x241f31
#define DIM_INK 0x77767b
#define GRID    0xdeddda
/* units few enough to name each one under its bar */
#define MAX_NAMED 32

struct _TesTilesSection
{
  TesSection      parent_instance;

  GtkWidget      *scrolled;
  GtkDrawingArea *area;       /* in scrolled */
  GPtrArray      *balances;   /* TesTileBalance */
  int             selected;   /* a tile of the lists, counted across them all; -1: none */
  gboolean        stale;      /* the range changed while the section was hidden */
  GCancellable   *cancellable;   /* the BSP steps' loading */
  gboolean        steps_loading;
  GCancellable   *balance_cancellable;   /* working out the range's balances */
  gboolean        updating;   /* balances for the range asked for are not in yet */
};

G_DEFINE_FINAL_TYPE (TesTilesSection, tes_tiles_section, TES_TYPE_SECTION)

static const char * const tiles_views[] = { "tile-balance", NULL };

/* What the balances cover: the selection, else what is in view. */
static void
balance_range (TesWorkspace *workspace,
               gint64       *t0,
               gint64       *t1)
{
  if (!tes_workspace_get_selection (workspace, t0, t1))
    tes_workspace_get_visible (workspace, t0, t1);
}

/* @ipus: the BSP steps' sums when loaded (the same figures, faster), or
 * NULL. Any thread: it reads the report and what is immutable. */
static GPtrArray *
compute_balances (TesReport  *report,
                  GPtrArray  *ipus,
                  gint64      t0,
                  gint64      t1,
                  GError    **error)
{
  g_autoptr(GArray) activity = NULL;
  g_autoptr(GArray) devices = NULL;
  GPtrArray *balances;
  TesReportCounts counts;

  tes_report_get_counts (report, &counts);
  /* a Poplar run's tiles over its BSP steps, else any vendor's units */
  if (counts.n_bsp_steps > 0 && ipus != NULL)
    activity = tes_bsp_get_tile_activity (ipus, t0, t1 + 1);
  else if (counts.n_bsp_steps > 0)
    activity = tes_report_get_tile_activity (report, t0, t1 + 1, error);
  else
    devices = tes_report_get_device_activity (report, t0, t1 + 1, &activity, error);
  if (activity == NULL)
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

typedef struct
{
  TesReport *report;
  GPtrArray *ipus;
  gint64     t0;
  gint64     t1;
} BalanceJob;

static void
balance_job_free (gpointer data)
{
  BalanceJob *job = data;

  g_clear_object (&job->report);
  g_clear_pointer (&job->ipus, g_ptr_array_unref);
  g_free (job);
}

static void
balance_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  BalanceJob *job = task_data;
  GError *error = NULL;
  GPtrArray *balances = compute_balances (job->report, job->ipus, job->t0, job->t1, &error);

  if (balances == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, balances, (GDestroyNotify)g_ptr_array_unref);
}

/* A tile of an IPU, or a vendor's unit by its track's name ("Core 3"). */
static char *
unit_name (TesReport             *report,
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
static const gint64 *
balance_cycles (const TesTileBalance *balance)
{
  return balance->has_union ? balance->union_cycles : balance->cycles;
}

/* The states a balance's legend lists, in order (compute, exchange, sync,
 * then idle); FALSE past the last. */
static gboolean
legend_state (const TesTileBalance *balance,
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
static char *
balance_title (TesReport            *report,
               const TesTileBalance *balance)
{
  const TesTileActivity *any = balance->least->len > 0 ? &g_array_index (balance->least, TesTileActivity, 0) : NULL;
  const TesTrack *unit = any != NULL && any->track_id != 0 ? tes_report_get_track (report, any->track_id) : NULL;
  g_autofree char *device_name = unit != NULL ? tes_report_dup_unit_device_name (report, unit->id) : g_strdup ("");

  if (unit != NULL && units_are_named (report, balance, "core"))
    /* Translators: a device (by its name) and its cores */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s · %u core", "%s · %u cores", balance->n_tiles),
                            device_name, balance->n_tiles);
  if (unit != NULL && units_are_named (report, balance, "stream "))
    /* Translators: a GPU (by its name) and its streams (CUDA or HIP streams) */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s · %u stream", "%s · %u streams", balance->n_tiles),
                            device_name, balance->n_tiles);
  if (unit != NULL)
    /* Translators: a device (by its name) and its engines (DMA, slices, …) */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s · %u engine", "%s · %u engines", balance->n_tiles),
                            device_name, balance->n_tiles);

  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "IPU %d · %u tile", "IPU %d · %u tiles", balance->n_tiles),
                          balance->ipu, balance->n_tiles);
}

/* A unit's busy time: a tile's in cycles, a vendor's unit's (ns) in the
 * unit the trace shows (a Torq timeline's or SigmaStar run's cycles). */
static char *
busy_text (TesWorkspace          *workspace,
           const TesTileActivity *tile)
{
  if (tile->track_id != 0)
    return tes_workspace_format_duration (workspace, tes_tile_activity_busy (tile));

  return tes_format_duration ((double)tes_tile_activity_busy (tile), TES_TIME_UNIT_CYCLES);
}

/* @selected: the line to mark, or -1 */
static double
draw_tile_list (TesPainter   *p,
                TesWorkspace *workspace,
                GArray       *tiles,
                const char   *title,
                double        x,
                double        y,
                double        width,
                int           selected)
{
  TesReport *report = tes_workspace_get_report (workspace);

  y += tes_painter_text (p, title, x, y, width, PANGO_ALIGN_LEFT, TRUE, INK) + 2;
  for (guint i = 0; i < tiles->len; i++)
    {
      const TesTileActivity *tile = &g_array_index (tiles, TesTileActivity, i);
      gint64 busy = tes_tile_activity_busy (tile);
      gint64 all = busy + tile->cycles[TES_TILE_STATE_IDLE];
      g_autofree char *cycles = busy_text (workspace, tile);
      g_autofree char *name = unit_name (report, tile);
      /* Translators: a tile (or a core), the time it worked, and its share of the range */
      g_autofree char *line = g_strdup_printf (_("%s: %s busy (%.0f %%)"), name, cycles,
                                               all > 0 ? 100.0 * busy / all : 0);

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
            TesReport            *report,
            const TesTileBalance *balance,
            double                y,
            double                width)
{
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
          g_autofree char *name = tile->track_id != 0 ? unit_name (report, tile) : g_strdup_printf ("%d", tile->tile);

          line = MAX (line, tes_painter_text (p, name, left + 1, y, MAX (slot - 2, 1), PANGO_ALIGN_CENTER, FALSE,
                                              INK));
        }
      y += line;
    }
  else
    {
      g_autofree char *first = unit_name (report, &g_array_index (balance->tiles, TesTileActivity, 0));
      g_autofree char *last = unit_name (report, &g_array_index (balance->tiles, TesTileActivity,
                                                                 balance->tiles->len - 1));

      tes_painter_text (p, first, plot_x, y, plot_w / 2, PANGO_ALIGN_LEFT, FALSE, DIM_INK);
      y += tes_painter_text (p, last, plot_x + plot_w / 2, y, plot_w / 2, PANGO_ALIGN_RIGHT, FALSE, DIM_INK);
    }

  return y;
}

/* Returns the height drawn. */
/* @selected: a tile of the lists to mark (counted across them all), or -1 */
static double
draw_balances (cairo_t      *cr,
               TesWorkspace *workspace,
               GPtrArray    *balances,
               double        width,
               int           selected,
               gboolean      updating)
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
      const gint64 *cycles = balance_cycles (balance);
      gint64 all = 0;
      double x = MARGIN, bar = width - 2 * MARGIN;
      g_autofree char *title = balance_title (report, balance);
      g_autoptr(GString) legend = g_string_new (NULL);
      TesTileState state;
      const char *label;

      for (guint s = 0; s < 4; s++)
        all += cycles[s];

      y += tes_painter_text (&p, title, MARGIN, y, bar, PANGO_ALIGN_LEFT, TRUE, INK) + 4;
      for (guint s = 0; all > 0 && legend_state (balance, s, &state, &label); s++)
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
      y = draw_chart (&p, report, balance, y, width) + 12;

      {
        double half = (width - 3 * MARGIN) / 2;
        double left = draw_tile_list (&p, workspace, balance->least, _("Least busy"), MARGIN, y, half, selected);
        double right = draw_tile_list (&p, workspace, balance->most, _("Most busy"), 2 * MARGIN + half, y, half,
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

  balance_range (workspace, &t0, &t1);
  if (!(balances = compute_balances (tes_workspace_get_report (workspace),
                                     tes_bsp_peek_ipus (tes_workspace_get_report (workspace)), t0, t1, error)))
    return FALSE;

  cairo_save (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  draw_balances (cr, workspace, balances, width, -1, FALSE);
  cairo_restore (cr);

  return cairo_status (cr) == CAIRO_STATUS_SUCCESS;
}

static gboolean
tes_tiles_section_render (TesWorkspace  *workspace,
                          const char    *view,
                          cairo_t       *cr,
                          int            width,
                          int            height,
                          GError       **error)
{
  return tes_tiles_render (workspace, cr, width, height, error);
}

static void
draw_cb (GtkDrawingArea *area,
         cairo_t        *cr,
         int             width,
         int             height,
         gpointer        user_data)
{
  TesTilesSection *self = user_data;

  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));

  if (workspace == NULL)
    return;
  gtk_drawing_area_set_content_height (area, (int)draw_balances (cr, workspace, self->balances, width,
                                                                 self->selected, self->updating));
}

/* The listed tile @index (counted across every IPU's lists), and the list
 * it is in. */
static const TesTileActivity *
listed_tile (GPtrArray  *balances,
             int         index,
             gboolean   *most)
{
  for (guint i = 0; balances != NULL && index >= 0 && i < balances->len; i++)
    {
      const TesTileBalance *balance = g_ptr_array_index (balances, i);

      if (index < (int)balance->least->len)
        {
          *most = FALSE;
          return &g_array_index (balance->least, TesTileActivity, index);
        }
      index -= balance->least->len;
      if (index < (int)balance->most->len)
        {
          *most = TRUE;
          return &g_array_index (balance->most, TesTileActivity, index);
        }
      index -= balance->most->len;
    }

  return NULL;
}

static guint
n_listed (GPtrArray *balances)
{
  guint n = 0;

  for (guint i = 0; balances != NULL && i < balances->len; i++)
    n += ((TesTileBalance *)g_ptr_array_index (balances, i))->least->len +
         ((TesTileBalance *)g_ptr_array_index (balances, i))->most->len;

  return n;
}

/**
 * tes_tiles_section_describe:
 *
 * The balances in words, for screen readers: per IPU the share of each
 * state, its least and most busy tile, what its chart of every tile
 * shows (the mean, lowest and highest busy share), then the tile
 * selected.
 *
 * Returns: (transfer full): the text
 */
char *
tes_tiles_section_describe (TesTilesSection *self)
{
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));
  g_autoptr(GString) text = g_string_new (NULL);
  const TesTileActivity *tile;
  gboolean most = FALSE;
  TesReport *report;

  g_return_val_if_fail (TES_IS_TILES_SECTION (self), NULL);

  if (workspace == NULL || self->balances == NULL || self->balances->len == 0)
    return g_strdup (_("No BSP steps in this range"));
  report = tes_workspace_get_report (workspace);

  for (guint i = 0; i < self->balances->len; i++)
    {
      const TesTileBalance *balance = g_ptr_array_index (self->balances, i);
      const gint64 *cycles = balance_cycles (balance);
      TesTileState state;
      const char *label;
      gint64 all = 0;

      for (guint s = 0; s < 4; s++)
        all += cycles[s];
      if (text->len > 0)
        g_string_append (text, "; ");
      {
        g_autofree char *title = balance_title (report, balance);

        g_string_append_printf (text, "%s:", title);
      }
      for (guint s = 0; legend_state (balance, s, &state, &label); s++)
        g_string_append_printf (text, "%s %s %.1f %%", s > 0 ? "," : "", label,
                                all > 0 ? 100.0 * cycles[state] / all : 0);
      if (balance->least->len > 0 && balance->most->len > 0)
        {
          g_autofree char *least = unit_name (report, &g_array_index (balance->least, TesTileActivity, 0));
          g_autofree char *busiest = unit_name (report, &g_array_index (balance->most, TesTileActivity, 0));

          /* Translators: the least and the most busy tile (or core) of an IPU (or device) */
          g_string_append_printf (text, _(", least busy %s, most busy %s"), least, busiest);
        }
      if (balance->tiles != NULL && balance->tiles->len > 0)
        {
          g_autoptr(TesTileChart) chart = tes_tile_chart_new (balance, 0, 0, balance->tiles->len, 1);
          double lowest = 1, highest = 0;

          for (guint t = 0; t < balance->tiles->len; t++)
            {
              double share = tes_tile_activity_busy_share (&g_array_index (balance->tiles, TesTileActivity, t));

              lowest = MIN (lowest, share);
              highest = MAX (highest, share);
            }
          /* Translators: the chart of every tile (or core, engine) of an IPU (or device) by the share of the range it worked */
          g_string_append_printf (text, _(", a chart of each one's busy share in order: mean %.1f %%, lowest %.1f %%, "
                                          "highest %.1f %%"), 100 * chart->mean, 100 * lowest, 100 * highest);
        }
    }

  if ((tile = listed_tile (self->balances, self->selected, &most)) != NULL)
    {
      g_autofree char *busy = busy_text (workspace, tile);
      g_autofree char *name = unit_name (report, tile);
      const TesTrack *unit = tile->track_id != 0 ? tes_report_get_track (report, tile->track_id) : NULL;
      g_autofree char *group = unit != NULL && unit->parent_id != 0 ? tes_report_dup_unit_device_name (report, unit->id)
                                                                    : g_strdup_printf (_("IPU %d"), tile->ipu);

      /* Translators: the tile the keys selected: its IPU (or device), the tile (or core) and its busy time */
      g_string_append_printf (text, _(". Selected: %s, %s, %s busy"), group, name, busy);
    }
  g_string_append_c (text, '.');

  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
update_description (TesTilesSection *self)
{
  g_autofree char *text = tes_tiles_section_describe (self);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self->area), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}

/* tiles.move(by): Up and Down through the listed tiles */
static void
move_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  TesTilesSection *self = TES_TILES_SECTION (widget);
  guint n = n_listed (self->balances);

  if (n == 0)
    return;
  self->selected = self->selected < 0 ? 0 : CLAMP (self->selected + g_variant_get_int32 (param), 0, (int)n - 1);
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
}

/* tiles.activate: Enter makes the selected tile the workspace's */
static void
activate_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *param)
{
  TesTilesSection *self = TES_TILES_SECTION (widget);
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));
  const TesTileActivity *tile;
  gboolean most;

  if (workspace == NULL || (tile = listed_tile (self->balances, self->selected, &most)) == NULL)
    return;
  tes_workspace_set_ipu (workspace, tile->ipu);
  tes_workspace_set_tile (workspace, tile->tile);
}

static void
tes_tiles_section_show_balances (TesTilesSection *self)
{
  self->selected = MIN (self->selected, (int)n_listed (self->balances) - 1);
  if (self->area != NULL)
    {
      update_description (self);
      gtk_widget_queue_draw (GTK_WIDGET (self->area));
    }
}

static void
balances_ready (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  TesTilesSection *self = TES_TILES_SECTION (object);
  g_autoptr(GError) error = NULL;
  GPtrArray *balances = g_task_propagate_pointer (G_TASK (result), &error);

  /* a later range's is on its way */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self->updating = FALSE;
  g_clear_pointer (&self->balances, g_ptr_array_unref);
  self->balances = balances;
  if (balances == NULL)
    g_warning ("Cannot read the tiles' steps: %s", error->message);
  tes_tiles_section_show_balances (self);
}

/* Works out the range's balances in a thread (a vendor's units read every
 * slice in the range; a Poplar run's steps, once loaded, their sums); the
 * last ones stay drawn until then. */
static void
tes_tiles_section_update (TesTilesSection *self)
{
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));
  g_autoptr(GTask) task = NULL;
  BalanceJob *job;

  /* not while the trace zooms with this section hidden, but when it shows */
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      self->stale = TRUE;
      return;
    }
  self->stale = FALSE;
  g_cancellable_cancel (self->balance_cancellable);
  g_clear_object (&self->balance_cancellable);

  if (workspace == NULL)
    {
      self->updating = FALSE;
      g_clear_pointer (&self->balances, g_ptr_array_unref);
      tes_tiles_section_show_balances (self);
      return;
    }

  self->updating = TRUE;
  /* the steps' sums are on their way: ipus_loaded () updates again */
  if (self->steps_loading)
    {
      tes_tiles_section_show_balances (self);
      return;
    }

  job = g_new0 (BalanceJob, 1);
  job->report = g_object_ref (tes_workspace_get_report (workspace));
  if ((job->ipus = tes_bsp_peek_ipus (job->report)) != NULL)
    g_ptr_array_ref (job->ipus);
  balance_range (workspace, &job->t0, &job->t1);

  self->balance_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->balance_cancellable, balances_ready, NULL);
  g_task_set_source_tag (task, tes_tiles_section_update);
  g_task_set_task_data (task, job, balance_job_free);
  g_task_run_in_thread (task, balance_thread);
  tes_tiles_section_show_balances (self);
}

static void
tes_tiles_section_map (GtkWidget *widget)
{
  TesTilesSection *self = TES_TILES_SECTION (widget);

  GTK_WIDGET_CLASS (tes_tiles_section_parent_class)->map (widget);
  if (self->stale)
    tes_tiles_section_update (self);
}

static gboolean
tes_tiles_section_has_data (TesWorkspace *workspace)
{
  TesReport *report = tes_workspace_get_report (workspace);
  TesReportCounts counts;

  tes_report_get_counts (report, &counts);
  if (counts.n_bsp_steps > 0)
    return TRUE;

  /* a vendor's cores with slices on them or their threads */
  for (gint64 id = 1; id <= counts.n_tracks; id++)
    {
      const TesTrack *track = tes_report_get_track (report, id);

      for (const TesTrack *up = track; up != NULL && track->n_slices > 0;
           up = up->parent_id != 0 ? tes_report_get_track (report, up->parent_id) : NULL)
        if (up->kind == TES_TRACK_CORE)
          return TRUE;
    }

  return FALSE;
}

/* The steps' sums are there (tes_bsp_peek_ipus ()): the balances from
 * them. Failed, the balances come from the steps through SQL. */
static void
ipus_loaded (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(TesTilesSection) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) ipus = tes_bsp_load_ipus_finish (TES_REPORT (object), result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self->steps_loading = FALSE;
  if (self->updating || self->stale)
    tes_tiles_section_update (self);
}

static void
tes_tiles_section_workspace_changed (TesSection   *section,
                                     TesWorkspace *old_workspace)
{
  TesTilesSection *self = (TesTilesSection *)section;
  TesWorkspace *workspace = tes_section_get_workspace (section);

  if (old_workspace != NULL)
    g_signal_handlers_disconnect_by_data (old_workspace, self);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->steps_loading = FALSE;
  g_clear_pointer (&self->balances, g_ptr_array_unref);

  if (workspace != NULL)
    {
      TesReportCounts counts;

      tes_report_get_counts (tes_workspace_get_report (workspace), &counts);
      if (counts.n_bsp_steps > 0 && tes_bsp_peek_ipus (tes_workspace_get_report (workspace)) == NULL)
        {
          self->cancellable = g_cancellable_new ();
          self->steps_loading = TRUE;
          tes_bsp_load_ipus_async (tes_workspace_get_report (workspace), self->cancellable, ipus_loaded,
                                   g_object_ref (self));
        }
    }

  if (workspace != NULL)
    for (guint i = 0; i < 5; i++)
      {
        static const char * const props[] = { "visible-start", "visible-end", "has-selection",
                                              "selection-start", "selection-end" };
        g_autofree char *signal = g_strdup_printf ("notify::%s", props[i]);

        g_signal_connect_object (workspace, signal, G_CALLBACK (tes_tiles_section_update),
                                 self, G_CONNECT_SWAPPED);
      }

  tes_tiles_section_update (self);
}

static void
tes_tiles_section_dispose (GObject *object)
{
  TesTilesSection *self = (TesTilesSection *)object;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_cancellable_cancel (self->balance_cancellable);
  g_clear_object (&self->balance_cancellable);
  g_clear_pointer (&self->balances, g_ptr_array_unref);
  self->area = NULL;
  g_clear_pointer (&self->scrolled, gtk_widget_unparent);

  G_OBJECT_CLASS (tes_tiles_section_parent_class)->dispose (object);
}

static void
tes_tiles_section_class_init (TesTilesSectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  TesSectionClass *section_class = TES_SECTION_CLASS (klass);

  object_class->dispose = tes_tiles_section_dispose;
  widget_class->map = tes_tiles_section_map;

  section_class->title = _("Tile Balance");
  section_class->icon_name = "view-grid-symbolic";
  section_class->views = tiles_views;
  section_class->has_data = tes_tiles_section_has_data;
  section_class->workspace_changed = tes_tiles_section_workspace_changed;
  section_class->render = tes_tiles_section_render;

  gtk_widget_class_install_action (widget_class, "tiles.move", "i", move_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, 0, "tiles.move", "i", -1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, 0, "tiles.move", "i", 1);
  gtk_widget_class_install_action (widget_class, "tiles.activate", NULL, activate_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, 0, "tiles.activate", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, 0, "tiles.activate", NULL);
}

static void
tes_tiles_section_init (TesTilesSection *self)
{
  self->selected = -1;
  self->scrolled = gtk_scrolled_window_new ();
  /* a picture to assistive technologies, described in words */
  self->area = g_object_new (GTK_TYPE_DRAWING_AREA, "accessible-role", GTK_ACCESSIBLE_ROLE_IMG, NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->area), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Tile balance"), -1);
  gtk_widget_set_focusable (GTK_WIDGET (self->area), TRUE);
  gtk_widget_set_focus_on_click (GTK_WIDGET (self->area), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self->area), TRUE);
  gtk_drawing_area_set_draw_func (self->area, draw_cb, self, NULL);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scrolled), GTK_WIDGET (self->area));
  gtk_widget_set_parent (self->scrolled, GTK_WIDGET (self));
  update_description (self);
}

/* The balances shown, per IPU (NULL while the section has not shown the
 * range). */
GPtrArray *
tes_tiles_section_get_balances (TesTilesSection *self)
{
  g_return_val_if_fail (TES_IS_TILES_SECTION (self), NULL);

  return self->balances;
}

/* Whether the balances for the range asked for are still being worked
 * out (those shown are the last range's, or none). */
gboolean
tes_tiles_section_get_updating (TesTilesSection *self)
{
  g_return_val_if_fail (TES_IS_TILES_SECTION (self), FALSE);

  return self->updating;
}
