/* tes-compare-render.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-compare-render"

#include "config.h"

#include <glib/gi18n.h>

#include "tes-compare-render.h"
#include "tes-insights.h"
#include "tes-insights-render.h"
#include "tes-painter.h"
#include "tes-report.h"
#include "tes-section.h"
#include "tes-trace-section.h"

/* Two runs drawn as the Compare section shows them: their traces one
 * above the other, each under a strip naming it and drawn by the trace
 * section's own render, below them the two runs' findings (drawn as the
 * Insights page draws its rows), and the tab shown, the operators' diff
 * or the runs as a whole. Any other section's view can be drawn for
 * both runs the same way (tes_compare_render()). */

#define FONT        "Sans 10"
#define STRIP       0xe8e8e8
#define STRIP_TEXT  0x202020
#define TEXT        0x241f31
#define DIM         0x77767b
#define COST        0xc01c28
#define SAVING      0x26a269
#define STRIPE      0xf4f4f4
#define TAB         0xd8d8d8
#define MARGIN      8.0

static void
draw_strip (TesPainter   *p,
            TesWorkspace *workspace,
            guint         side,
            double        top,
            double        width)
{
  g_autofree char *title = tes_compare_run_title (tes_workspace_get_report (workspace), side);

  cairo_save (p->cr);
  cairo_rectangle (p->cr, 0, top, width, TES_COMPARE_RENDER_LABEL_HEIGHT);
  cairo_clip (p->cr);
  tes_painter_set_rgb (p->cr, STRIP);
  cairo_paint (p->cr);
  tes_painter_text (p, title, MARGIN, top + 4, width - 2 * MARGIN, PANGO_ALIGN_LEFT, TRUE, STRIP_TEXT);
  cairo_restore (p->cr);
}

/* Both runs in @height, one above the other, each in @section_type's
 * @view; a run without data for it says so where its drawing would be. */
static gboolean
draw_sides (TesPainter    *p,
            GType          section_type,
            const char    *view,
            TesWorkspace  *a,
            TesWorkspace  *b,
            int            width,
            int            height,
            GError       **error)
{
  TesWorkspace *sides[2] = { a, b };
  int half = height / 2;

  if (half <= TES_COMPARE_RENDER_LABEL_HEIGHT)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "%d pixels are too few for two runs one above the other", height);
      return FALSE;
    }

  for (guint side = 0; side < 2; side++)
    {
      int top = side * half;
      int body = (side == 0 ? half : height - half) - TES_COMPARE_RENDER_LABEL_HEIGHT;
      gboolean drawn = TRUE;

      draw_strip (p, sides[side], side, top, width);

      cairo_save (p->cr);
      cairo_translate (p->cr, 0, top + TES_COMPARE_RENDER_LABEL_HEIGHT);
      cairo_rectangle (p->cr, 0, 0, width, body);
      cairo_clip (p->cr);
      if (tes_section_type_has_data (section_type, sides[side]))
        drawn = tes_section_type_render (section_type, sides[side], view, p->cr, width, body, error);
      else
        {
          /* where a compared run's trace would be (the CLI checks the other views' data first) */
          const char *text = _("This run has no timeline.");

          tes_painter_set_rgb (p->cr, 0xffffff);
          cairo_paint (p->cr);
          tes_painter_text (p, text, MARGIN, body / 2.0 - 8, width - 2 * MARGIN, PANGO_ALIGN_CENTER, FALSE, DIM);
        }
      cairo_restore (p->cr);
      if (!drawn)
        return FALSE;
    }

  return TRUE;
}

/* @a above @b in a @width × @height area at the origin of @cr, each in
 * @section_type's @view (see tes_section_type_render()). Link the two
 * workspaces first for their times to line up. */
gboolean
tes_compare_render (GType          section_type,
                    const char    *view,
                    TesWorkspace  *a,
                    TesWorkspace  *b,
                    cairo_t       *cr,
                    int            width,
                    int            height,
                    GError       **error)
{
  TesPainter p;
  gboolean drawn;

  g_return_val_if_fail (TES_IS_WORKSPACE (a) && TES_IS_WORKSPACE (b), FALSE);
  g_return_val_if_fail (cr != NULL, FALSE);

  tes_painter_init (&p, cr, FONT);
  drawn = draw_sides (&p, section_type, view, a, b, width, height, error);
  tes_painter_clear (&p);

  return drawn;
}

/* Column widths as parts of the table's */
static const double weights[TES_COMPARE_N_COLUMNS] = { 0.40, 0.15, 0.15, 0.15, 0.15 };

/* One line of a table: @texts in its columns, the name left, numbers right. */
static void
draw_cells (TesPainter         *p,
            char * const       *texts,
            double              y,
            double              width,
            gboolean            bold,
            guint32             rgb,
            int                 cost)
{
  double x = MARGIN;

  for (guint c = 0; c < TES_COMPARE_N_COLUMNS; c++)
    {
      double w = (width - 2 * MARGIN) * weights[c];
      guint32 color = rgb;

      if (c >= TES_COMPARE_COLUMN_DELTA && cost != 0)
        color = cost > 0 ? COST : SAVING;
      if (texts[c] != NULL)
        tes_painter_text (p, texts[c], x + 4, y + 2, w - 8,
                          c == TES_COMPARE_COLUMN_OPERATOR ? PANGO_ALIGN_LEFT : PANGO_ALIGN_RIGHT, bold, color);
      x += w;
    }
}

static void
draw_stripe (TesPainter *p,
             double      y,
             double      width)
{
  tes_painter_set_rgb (p->cr, STRIPE);
  cairo_rectangle (p->cr, MARGIN, y, width - 2 * MARGIN, TES_COMPARE_ROW_HEIGHT);
  cairo_fill (p->cr);
}

/* "… and 12 more rows" below a table cut short. */
static void
draw_more (TesPainter *p,
           guint       n_more,
           double      y,
           double      width)
{
  /* Translators: below a table cut short in an exported picture */
  g_autofree char *more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "… and %u more row", "… and %u more rows", n_more),
                                           n_more);

  tes_painter_text (p, more, MARGIN + 4, y + 2, width - 2 * MARGIN, PANGO_ALIGN_LEFT, FALSE, DIM);
}

static void
draw_operators (TesPainter               *p,
                const TesCompareModel    *model,
                const TesCompareGeometry *geometry,
                double                    width)
{
  char *titles[TES_COMPARE_N_COLUMNS];
  double y = geometry->table_y;
  guint n = model->comparison->rows->len;
  guint shown = MIN (n, geometry->n_rows);

  if (n > shown && shown > 0)
    shown--;   /* room for the line that says how many more */

  for (guint c = 0; c < TES_COMPARE_N_COLUMNS; c++)
    titles[c] = tes_compare_column_title (model, c);
  draw_cells (p, titles, y, width, TRUE, TEXT, 0);
  for (guint c = 0; c < TES_COMPARE_N_COLUMNS; c++)
    g_free (titles[c]);
  y += geometry->row_height;

  for (guint i = 0; i < shown; i++, y += geometry->row_height)
    {
      const TesCompareRow *row = &g_array_index (model->comparison->rows, TesCompareRow, i);
      char *texts[TES_COMPARE_N_COLUMNS];

      if (i % 2 == 1)
        draw_stripe (p, y, width);
      for (guint c = 0; c < TES_COMPARE_N_COLUMNS; c++)
        texts[c] = tes_compare_cell_text (model, row, c);
      draw_cells (p, texts, y, width, FALSE, TEXT, 0);
      for (guint c = 0; c < TES_COMPARE_N_COLUMNS; c++)
        g_free (texts[c]);
    }
  if (shown < n)
    draw_more (p, n - shown, y, width);
  if (n == 0)
    tes_painter_text (p, _("Neither run lists operators."), MARGIN + 4, y + 2, width - 2 * MARGIN,
                      PANGO_ALIGN_LEFT, FALSE, DIM);
}

static void
draw_overview (TesPainter               *p,
               const TesCompareModel    *model,
               const TesCompareGeometry *geometry,
               double                    width,
               double                    height)
{
  g_autoptr(GPtrArray) lines = tes_compare_overview_lines (model);
  double y = geometry->table_y;
  guint stripe = 0;

  for (guint i = 0; i < lines->len; i++)
    {
      const TesCompareLine *line = g_ptr_array_index (lines, i);

      if (y + 2 * geometry->row_height > height && i + 1 < lines->len)
        {
          guint n_more = 0;

          for (guint j = i; j < lines->len; j++)
            n_more += ((const TesCompareLine *)g_ptr_array_index (lines, j))->kind == TES_COMPARE_LINE_ROW;
          draw_more (p, n_more, y, width);
          return;
        }

      switch (line->kind)
        {
        case TES_COMPARE_LINE_HEADER:
          y += i > 0 ? geometry->row_height / 2 : 0;
          draw_cells (p, line->cells, y, width, TRUE, TEXT, 0);
          stripe = 0;
          break;
        case TES_COMPARE_LINE_ROW:
          if (stripe++ % 2 == 1)
            draw_stripe (p, y, width);
          draw_cells (p, line->cells, y, width, FALSE, TEXT, line->cost);
          break;
        case TES_COMPARE_LINE_HEADING:
        case TES_COMPARE_LINE_SUBHEADING:
        case TES_COMPARE_LINE_NOTE:
        default:
          tes_painter_text (p, line->cells[0], MARGIN + 4, y + 2, width - 2 * MARGIN - 8, PANGO_ALIGN_LEFT,
                            line->kind == TES_COMPARE_LINE_HEADING, line->kind == TES_COMPARE_LINE_HEADING ? TEXT : DIM);
          break;
        }
      y += geometry->row_height;
    }
}

/* The two runs' findings: their line, then as many as their room holds. */
static void
draw_findings (TesPainter               *p,
               GPtrArray                *insights,
               const TesCompareGeometry *geometry,
               double                    width)
{
  g_autofree char *headline = tes_compare_findings_headline (insights);
  double y = geometry->findings_y;

  cairo_save (p->cr);
  cairo_rectangle (p->cr, 0, y, width, geometry->findings_height);
  cairo_clip (p->cr);
  tes_painter_text (p, headline, MARGIN + 4, y + 6, width - 2 * MARGIN - 8, PANGO_ALIGN_LEFT,
                    insights->len > 0, insights->len > 0 ? TEXT : DIM);
  if (insights->len > 0)
    tes_insights_render_rows (insights, p->cr, MARGIN, y + TES_COMPARE_FINDINGS_LINE, width - 2 * MARGIN,
                              geometry->findings_height - TES_COMPARE_FINDINGS_LINE);
  cairo_restore (p->cr);
}

/* The tabs' row: which of the two the picture shows. */
static void
draw_tabs (TesPainter               *p,
           const TesCompareGeometry *geometry,
           gboolean                  summary,
           double                    width)
{
  const char *names[] = { _("Operators"), _("Summary") };
  double x = MARGIN;

  tes_painter_set_rgb (p->cr, STRIP);
  cairo_rectangle (p->cr, 0, geometry->bar_y, width, TES_COMPARE_BAR_HEIGHT);
  cairo_fill (p->cr);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      double w = tes_painter_text_width (p, names[i]) + 24;

      if ((i == 1) == summary)
        {
          tes_painter_set_rgb (p->cr, TAB);
          cairo_rectangle (p->cr, x, geometry->bar_y + 4, w, TES_COMPARE_BAR_HEIGHT - 8);
          cairo_fill (p->cr);
        }
      tes_painter_text (p, names[i], x + 12, geometry->bar_y + 8, w, PANGO_ALIGN_LEFT, (i == 1) == summary, TEXT);
      x += w + 4;
    }
}

/**
 * tes_compare_render_model:
 * @model: both runs loaded (tes_compare_model_new())
 * @insights: (element-type TesInsight): the two runs' findings
 *   (tes_insights_compute_two_runs())
 * @a: run A's workspace, linked to @b
 * @summary: the Summary tab rather than the operators
 *
 * Draws the Compare section in a @width × @height area at the origin of
 * @cr: the traces, the findings, the tabs and the table of the tab shown.
 */
gboolean
tes_compare_render_model (cairo_t                *cr,
                          const TesCompareModel  *model,
                          GPtrArray              *insights,
                          TesWorkspace           *a,
                          TesWorkspace           *b,
                          gboolean                summary,
                          int                     width,
                          int                     height,
                          GError                **error)
{
  TesCompareGeometry geometry;
  TesPainter p;
  gboolean drawn;

  g_return_val_if_fail (cr != NULL && model != NULL && insights != NULL, FALSE);
  g_return_val_if_fail (TES_IS_WORKSPACE (a) && TES_IS_WORKSPACE (b), FALSE);

  tes_compare_layout_geometry (height,
                               tes_section_type_has_data (TES_TYPE_TRACE_SECTION, a) ||
                               tes_section_type_has_data (TES_TYPE_TRACE_SECTION, b),
                               insights, &geometry);
  tes_painter_init (&p, cr, FONT);
  cairo_save (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);

  drawn = geometry.traces_height == 0 ||
          draw_sides (&p, TES_TYPE_TRACE_SECTION, "trace", a, b, width, (int)geometry.traces_height, error);
  if (drawn)
    {
      draw_findings (&p, insights, &geometry, width);
      draw_tabs (&p, &geometry, summary, width);
      if (summary)
        draw_overview (&p, model, &geometry, width, height);
      else
        draw_operators (&p, model, &geometry, width);
    }

  cairo_restore (cr);
  tes_painter_clear (&p);

  if (drawn && cairo_status (cr) != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "Drawing the comparison failed: %s", cairo_status_to_string (cairo_status (cr)));
      return FALSE;
    }

  return drawn;
}

/* The Compare section's render: @workspace is run A, the run it is linked
 * to run B; both are read and their findings computed here, as the window
 * does in a thread (with the default thresholds). */
gboolean
tes_compare_render_workspace (TesWorkspace  *workspace,
                              const char    *view,
                              cairo_t       *cr,
                              int            width,
                              int            height,
                              GError       **error)
{
  TesWorkspace *b = tes_workspace_get_linked (workspace);
  g_autoptr(TesCompareModel) model = NULL;
  g_autoptr(GPtrArray) insights = NULL;

  if (b == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "The %s view compares two runs: give the second with --compare", view ? view : "compare");
      return FALSE;
    }

  if (!(model = tes_compare_model_new (tes_workspace_get_report (workspace), tes_workspace_get_report (b),
                                       NULL, error)) ||
      !(insights = tes_insights_compute_two_runs (tes_workspace_get_report (workspace), tes_workspace_get_report (b),
                                                  NULL, NULL, error)))
    return FALSE;

  return tes_compare_render_model (cr, model, insights, workspace, b, g_strcmp0 (view, "compare-summary") == 0,
                                   width, height, error);
}
