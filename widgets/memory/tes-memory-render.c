/* tes-memory-render.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-memory-render"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "tes-memory-render.h"
#include "tes-painter.h"
#include "tes-share-chart-layout.h"

/* The Memory section as a page, drawn with cairo alone: what the window
 * shows and `tessera-cli render --view memory…` writes. Over the limit
 * is red; categories keep the colour their name has everywhere. */

#define FONT       "Sans 9"
#define MARGIN     16.0
#define INK        0x241f31
#define DIM_INK    0x77767b
#define OVER       0xc01c28
#define BAR_INK    0x3584e4
#define ROW        16.0
#define CHART      280.0

static double
draw_header (TesPainter           *p,
             const TesMemoryModel *model,
             double                y,
             double                width)
{
  g_autofree char *limit = model->limit > 0 ? tes_memory_format_kb (model->limit) : g_strdup (_("unknown"));
  g_autofree char *n_tiles = tes_format_grouped (MAX (model->n_all, model->tiles->len));
  /* Translators: the tiles' count (grouped, "1,472") and each one's memory */
  g_autofree char *line = g_strdup_printf (_("%s tiles · %s per tile"), n_tiles, limit);
  double h;

  h = tes_painter_text (p, line, MARGIN, y, width - 2 * MARGIN, PANGO_ALIGN_LEFT, TRUE, INK);
  if (model->n_over > 0)
    {
      /* Translators: as Poplar says it */
      g_autofree char *over = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u tile out of memory",
                                                            "%u tiles out of memory", model->n_over),
                                               model->n_over);

      tes_painter_text (p, over, MARGIN + tes_painter_text_width (p, line) + 18, y, 0, PANGO_ALIGN_LEFT, TRUE, OVER);
    }
  y += h + 4;

  /* a printed histogram the tiles disagree with says so */
  if (model->mismatches != NULL && model->mismatches->len > 0)
    {
      g_autofree char *warning = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                               "The report's histogram disagrees with the tiles' bytes in %u bin",
                                                               "The report's histogram disagrees with the tiles' bytes in %u bins",
                                                               model->mismatches->len),
                                                  model->mismatches->len);

      y += tes_painter_text (p, warning, MARGIN, y, width - 2 * MARGIN, PANGO_ALIGN_LEFT, FALSE, OVER) + 4;
    }

  return y + 8;
}

static double
draw_histogram (TesPainter           *p,
                const TesMemoryModel *model,
                double                x,
                double                y,
                double                width,
                GArray               *bin_rects)
{
  cairo_t *cr = p->cr;
  double label_width = 120, count_width = 50;
  double bar_width = MAX (width - label_width - count_width - 12, 20);
  gint64 most = tes_memory_model_count_top (model);
  guint first = model->histogram->len ? g_array_index (model->histogram, TesTileHistogramBin, 0).histogram : 0;


  y += tes_painter_text (p, model->printed ? _("By tile, as the report prints it") : _("By tile"),
                         x, y, width, PANGO_ALIGN_LEFT, TRUE, INK) + 2;
  y += tes_painter_text (p, _("Range (KB)                                   Count (tiles)"),
                         x, y, width, PANGO_ALIGN_LEFT, FALSE, DIM_INK) + 2;

  for (guint i = 0; i < model->histogram->len; i++)
    {
      const TesTileHistogramBin *bin = &g_array_index (model->histogram, TesTileHistogramBin, i);
      g_autofree char *lower = tes_format_grouped ((double)(bin->lower / 1024));
      g_autofree char *upper = tes_format_grouped ((double)(bin->upper / 1024));
      g_autofree char *range = g_strdup_printf ("%6s - %s", lower, upper);
      /* grouped, as Poplar prints a count (2,503) */
      g_autofree char *count = tes_format_grouped ((double)bin->tiles);
      double w = bar_width * bin->tiles / most;
      gboolean over = model->limit > 0 && bin->upper > model->limit;

      /* one printed histogram: the first (a report may print one per IPU) */
      if (bin->histogram != first)
        break;

      tes_painter_text (p, range, x, y, label_width, PANGO_ALIGN_LEFT, FALSE, INK);
      tes_painter_set_rgb (cr, over ? OVER : BAR_INK);
      cairo_rectangle (cr, x + label_width, y + 2, bin->tiles > 0 ? MAX (w, 1) : 0, ROW - 4);
      cairo_fill (cr);
      tes_painter_text (p, count, x + label_width + bar_width + 6, y, count_width, PANGO_ALIGN_RIGHT, FALSE, INK);

      if (bin_rects != NULL)
        {
          TesMemoryBinRect rect = { x, y, width, ROW, i };

          g_array_append_val (bin_rects, rect);
        }
      y += ROW;
    }

  /* its Maximum and out-of-memory lines, as printed: a line too wide for
   * the column goes on two at its ': ' rather than lose its figure */
  y += model->printed_notes != NULL ? 6 : 0;
  for (guint i = 0; model->printed_notes != NULL && model->printed_notes[i] != NULL; i++)
    {
      const char *note = model->printed_notes[i];
      const char *colon = strstr (note, ": ");

      if (colon != NULL && tes_painter_text_width (p, note) > width)
        {
          g_autofree char *label = g_strndup (note, colon + 1 - note);

          y += tes_painter_text (p, label, x, y, width, PANGO_ALIGN_LEFT, FALSE, INK);
          note = colon + 2;
          y += tes_painter_text (p, note, x + 12, y, width - 12, PANGO_ALIGN_LEFT, FALSE, INK);
        }
      else
        y += tes_painter_text (p, note, x, y, width, PANGO_ALIGN_LEFT, FALSE, INK);
    }

  return y + 12;
}

/* Every tile's bytes stacked by category, one pixel column per tile or
 * per run of tiles (the heaviest of them drawn), the limit a red line. */
static double
draw_tiles (TesPainter           *p,
            const TesMemoryModel *model,
            double                x,
            double                y,
            double                width,
            int                   selected,
            TesMemoryPlot        *plot)
{
  cairo_t *cr = p->cr;
  guint n = model->tiles->len;
  guint n_categories = model->categories->len;
  double top = tes_memory_model_bytes_top (model);
  double plot_x = x + 56, plot_w = width - 56, plot_h = CHART;
  guint columns;
  g_autofree char *scale = NULL;

  double title = tes_painter_text (p, _("Memory by tile"), x, y, width, PANGO_ALIGN_LEFT, TRUE, INK);

  /* the selected tile, named on the title's line */
  if (selected >= 0 && selected < (int)n)
    {
      g_autofree char *name = tes_memory_model_tile_text (model, (guint)selected, 0);
      /* Translators: the tile selected in the chart of every tile (as "IPU 0 tile 5: 640 KB") */
      g_autofree char *label = g_strdup_printf (_("Selected: %s"), name);

      tes_painter_text (p, label, plot_x, y, plot_w, PANGO_ALIGN_RIGHT, TRUE, INK);
    }
  /* room above the bars for the selection's triangle */
  y += title + 14;
  if (n == 0 || top <= 0)
    return y + tes_painter_paragraph (p, _("The report gives no tile’s bytes: open it with the run’s archive listing "
                                           "(size -A) or its profile."),
                                      x, y, width, INK) + 6;

  columns = MIN (n, (guint)MAX (plot_w, 1));
  if (plot != NULL)
    *plot = (TesMemoryPlot) { plot_x, y, plot_w, plot_h, columns };
  for (guint c = 0; c < columns; c++)
    {
      guint heaviest = tes_memory_model_column_tile (model, columns, c);
      double cx = plot_x + plot_w * c / columns, cw = MAX (plot_w / columns - (columns < plot_w / 3 ? 1 : 0), 1);
      double base = y + plot_h;

      for (guint k = 0; k < n_categories; k++)
        {
          double h = plot_h * tes_memory_model_get_bytes (model, heaviest, k) / top;

          if (h <= 0)
            continue;
          tes_painter_set_rgb (cr, tes_share_chart_palette[model->colors[k]]);
          cairo_rectangle (cr, cx, base - h, cw, h);
          cairo_fill (cr);
          base -= h;
        }

      /* a tile over the limit: a red mark above its bar */
      if (model->limit > 0 && g_array_index (model->tiles, TesTile, heaviest).total_bytes > model->limit)
        {
          tes_painter_set_rgb (cr, OVER);
          cairo_rectangle (cr, cx, y - 4, cw, 3);
          cairo_fill (cr);
        }
    }

  /* the selected tile's column: outlined over the whole height, a
   * triangle above it, legible however thin the column */
  if (selected >= 0 && selected < (int)n)
    {
      guint c = tes_memory_tile_column (n, columns, (guint)selected);
      double cx = plot_x + plot_w * c / columns, cw = MAX (plot_w / columns - (columns < plot_w / 3 ? 1 : 0), 1);
      double mid = floor (cx + cw / 2) + 0.5;

      cairo_save (cr);
      tes_painter_set_rgb (cr, INK);
      cairo_set_line_width (cr, 2);
      cairo_rectangle (cr, floor (cx) - 1.5, y - 5.5, ceil (cw) + 3, plot_h + 7);
      cairo_stroke (cr);
      cairo_move_to (cr, mid - 5, y - 15);
      cairo_line_to (cr, mid + 5, y - 15);
      cairo_line_to (cr, mid, y - 8);
      cairo_close_path (cr);
      cairo_fill (cr);
      cairo_restore (cr);
    }

  /* the axis: 0 and the top, the limit as a dashed red line */
  scale = tes_memory_format_kb ((gint64)top);
  tes_painter_text (p, scale, x, y - 6, 52, PANGO_ALIGN_RIGHT, FALSE, DIM_INK);
  tes_painter_text (p, "0", x, y + plot_h - 12, 52, PANGO_ALIGN_RIGHT, FALSE, DIM_INK);
  if (model->limit > 0)
    {
      static const double dash[] = { 5, 3 };
      double ly = floor (y + plot_h - plot_h * model->limit / top) + 0.5;

      cairo_save (cr);
      tes_painter_set_rgb (cr, OVER);
      cairo_set_line_width (cr, 1);
      cairo_set_dash (cr, dash, G_N_ELEMENTS (dash), 0);
      cairo_move_to (cr, plot_x, ly);
      cairo_line_to (cr, plot_x + plot_w, ly);
      cairo_stroke (cr);
      cairo_restore (cr);
    }
  y += plot_h + 8;

  /* the legend */
  {
    double lx = plot_x;

    for (guint k = 0; k < n_categories; k++)
      {
        const char *name = g_ptr_array_index (model->categories, k);
        double w = tes_painter_text_width (p, name) + 26;

        if (lx + w > x + width)
          {
            lx = plot_x;
            y += ROW;
          }
        tes_painter_set_rgb (cr, tes_share_chart_palette[model->colors[k]]);
        cairo_rectangle (cr, lx, y + 4, 10, 10);
        cairo_fill (cr);
        tes_painter_text (p, name, lx + 14, y, 0, PANGO_ALIGN_LEFT, FALSE, INK);
        lx += w;
      }
    y += ROW + 12;
  }

  return y;
}

/* The five most subscribed tiles and what their bytes are. */
static double
draw_heaviest (TesPainter           *p,
               const TesMemoryModel *model,
               double                x,
               double                y,
               double                width)
{
  if (model->heaviest->len == 0)
    return y;
  y += tes_painter_text (p, _("Most subscribed tiles"), x, y, width, PANGO_ALIGN_LEFT, TRUE, INK) + 4;

  for (guint i = 0; i < model->heaviest->len; i++)
    {
      const TesTile *tile = &g_array_index (model->heaviest, TesTile, i);
      g_autofree char *line = NULL;
      guint index = 0;

      for (guint t = 0; t < model->tiles->len; t++)
        if (g_array_index (model->tiles, TesTile, t).id == tile->id)
          index = t;
      line = tes_memory_model_tile_text (model, index, 4);

      y += tes_painter_text (p, line, x, y, width, PANGO_ALIGN_LEFT, FALSE,
                             model->limit > 0 && tile->total_bytes > model->limit ? OVER : INK) + 2;
    }

  return y + 8;
}

/* Draws @view of @model at the top of @cr, @width wide; returns the
 * height used. Histogram bins drawn go into @bin_rects (may be NULL). */
double
tes_memory_render_model (cairo_t              *cr,
                         const TesMemoryModel *model,
                         TesMemoryView         view,
                         double                width,
                         GArray               *bin_rects)
{
  return tes_memory_render_model_selected (cr, model, view, width, bin_rects, -1, NULL);
}

/* The same, the tile at @selected of model->tiles marked (-1: none);
 * where the chart of every tile went into @plot (may be NULL). */
double
tes_memory_render_model_selected (cairo_t              *cr,
                                  const TesMemoryModel *model,
                                  TesMemoryView         view,
                                  double                width,
                                  GArray               *bin_rects,
                                  int                   selected,
                                  TesMemoryPlot        *plot)
{
  TesPainter p;
  double y = MARGIN;

  if (plot != NULL)
    *plot = (TesMemoryPlot) { 0 };
  tes_painter_init (&p, cr, FONT);
  y = draw_header (&p, model, y, width);

  switch (view)
    {
    case TES_MEMORY_VIEW_HISTOGRAM:
      y = draw_histogram (&p, model, MARGIN, y, width - 2 * MARGIN, bin_rects);
      break;

    case TES_MEMORY_VIEW_TILES:
      y = draw_tiles (&p, model, MARGIN, y, width - 2 * MARGIN, selected, plot);
      y = draw_heaviest (&p, model, MARGIN, y, width - 2 * MARGIN);
      break;

    case TES_MEMORY_VIEW_ALL:
    default:
      {
        double left = MIN (420, (width - 3 * MARGIN) * 0.4);
        double right_x = 2 * MARGIN + left;
        double y_left = draw_histogram (&p, model, MARGIN, y, left, bin_rects);
        double y_right = draw_tiles (&p, model, right_x, y, width - right_x - MARGIN, selected, plot);

        y_right = draw_heaviest (&p, model, right_x, y_right, width - right_x - MARGIN);
        y = MAX (y_left, y_right);
      }
      break;
    }

  tes_painter_clear (&p);

  return y;
}

int
tes_memory_bin_at (GArray *bin_rects,
                   double  x,
                   double  y)
{
  for (guint i = 0; bin_rects != NULL && i < bin_rects->len; i++)
    {
      const TesMemoryBinRect *rect = &g_array_index (bin_rects, TesMemoryBinRect, i);

      if (x >= rect->x && x < rect->x + rect->width && y >= rect->y && y < rect->y + rect->height)
        return (int)rect->bin;
    }

  return -1;
}

/* The section's page for `tessera-cli render --view memory…`. */
gboolean
tes_memory_render (TesWorkspace  *workspace,
                   TesMemoryView  view,
                   cairo_t       *cr,
                   int            width,
                   int            height,
                   GError       **error)
{
  g_autoptr(TesMemoryModel) model = NULL;
  TesWorkspace *linked = tes_workspace_get_linked (workspace);

  if (!(model = tes_memory_model_new (tes_workspace_get_report (workspace), error)))
    return FALSE;

  /* compared with another run: the same axes as its drawing */
  if (linked != NULL && tes_memory_report_has_data (tes_workspace_get_report (linked)))
    {
      g_autoptr(TesMemoryModel) other = tes_memory_model_new (tes_workspace_get_report (linked), NULL);

      if (other != NULL)
        tes_memory_model_share_scales (model, other);
    }

  cairo_save (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  tes_memory_render_model (cr, model, view, width, NULL);
  cairo_restore (cr);

  if (cairo_status (cr) != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "Drawing the memory failed: %s", cairo_status_to_string (cairo_status (cr)));
      return FALSE;
    }

  return TRUE;
}
