/* tes-insights-render.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-insights-render"

#include "config.h"

#include "tes-insights-render.h"

#include "tes-insights-layout.h"
#include "tes-painter.h"
#include "tes-summary-layout.h"

#include <glib/gi18n.h>
#include <math.h>
#include <pango/pangocairo.h>

/* The Insights as a page: what `tessera-cli render --view insights`
 * writes and what the window exports. The same rows as the section's
 * list (tes-insights-layout.c), costliest first, each with a bar of its
 * share, drawn with cairo only so that it runs without a display. */

#define MARGIN     24.0
#define FONT       "Sans 10"
#define RANK_WIDTH 36.0
#define BAR_WIDTH  120.0
#define INK        0x241f31
#define DIM        0x5e5c64
/* below the last row shown: the gap, then "… and 2 more findings" */
#define MORE_HEIGHT 28.0

/* Wrapped text (the painter ellipsizes one line); returns its height. */
static double
draw_wrapped (PangoLayout *layout,
              cairo_t     *cr,
              const char  *text,
              double       x,
              double       y,
              double       width,
              guint32      rgb)
{
  int h;

  pango_layout_set_text (layout, text, -1);
  pango_layout_set_width (layout, (int)(width * PANGO_SCALE));
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_get_pixel_size (layout, NULL, &h);
  tes_painter_set_rgb (cr, rgb);
  cairo_move_to (cr, x, y);
  pango_cairo_show_layout (cr, layout);

  return h;
}

/* One finding: its rank, its share's bar, cost and area on the first line,
 * then the sentence, the evidence and where it is shown. Returns the
 * height it took. */
static double
draw_row (TesPainter          *p,
          PangoLayout         *wrapped,
          PangoLayout         *small,
          const TesInsightRow *row,
          double               x,
          double               y,
          double               width)
{
  const char *area = tes_insight_kind_get_area (row->insight->kind);
  g_autofree char *rank = g_strdup_printf ("%u", row->rank);
  g_autofree char *target = g_strdup_printf ("→ %s", row->target);
  double text_x = x + RANK_WIDTH;
  double text_width = width - RANK_WIDTH;
  double share = CLAMP (row->insight->share, 0.0, 100.0);
  double top = y;
  double h;

  tes_painter_text (p, rank, x, y, RANK_WIDTH - 8, PANGO_ALIGN_RIGHT, TRUE, DIM);

  /* the share's bar, in the area's colour, on a grey track */
  cairo_set_source_rgb (p->cr, 0.92, 0.92, 0.92);
  cairo_rectangle (p->cr, text_x, y + 4, BAR_WIDTH, 8);
  cairo_fill (p->cr);
  tes_painter_set_rgb (p->cr, tes_insights_area_color (area));
  cairo_rectangle (p->cr, text_x, y + 4, BAR_WIDTH * share / 100.0, 8);
  cairo_fill (p->cr);

  h = tes_painter_text (p, row->head, text_x + BAR_WIDTH + 10, y, text_width - BAR_WIDTH - 10, PANGO_ALIGN_LEFT, TRUE, INK);
  y += h + 2;
  y += draw_wrapped (wrapped, p->cr, row->sentence, text_x, y, text_width, INK) + 2;
  y += draw_wrapped (small, p->cr, row->evidence, text_x, y, text_width, DIM) + 2;
  y += draw_wrapped (small, p->cr, target, text_x, y, text_width, 0x1a5fb4);

  return y - top;
}

/* Fonts of the rows: the sentence's, and the smaller one of the evidence. */
static void
init_layouts (cairo_t      *cr,
              PangoLayout **wrapped,
              PangoLayout **small)
{
  PangoFontDescription *font = pango_font_description_from_string (FONT);

  *wrapped = pango_cairo_create_layout (cr);
  *small = pango_cairo_create_layout (cr);
  pango_layout_set_font_description (*wrapped, font);
  pango_font_description_set_size (font, 9 * PANGO_SCALE);
  pango_layout_set_font_description (*small, font);
  pango_font_description_free (font);
}

/**
 * tes_insights_render_rows:
 * @insights: (element-type TesInsight): ranked findings
 *
 * Draws the findings as the section lists them from @y down, in the
 * @width from @x, as many whole ones as @height holds (at least one), then
 * how many more there are. The Insights page and the Compare section's
 * findings both draw their rows here.
 */
void
tes_insights_render_rows (GPtrArray *insights,
                          cairo_t   *cr,
                          double     x,
                          double     y,
                          double     width,
                          double     height)
{
  g_autoptr(GPtrArray) rows = tes_insights_layout_rows (insights);
  g_autoptr(PangoLayout) wrapped = NULL;
  g_autoptr(PangoLayout) small = NULL;
  double bottom = y + height;
  TesPainter p;
  guint shown = 0;

  tes_painter_init (&p, cr, FONT);
  init_layouts (cr, &wrapped, &small);
  cairo_save (cr);

  for (guint i = 0; i < rows->len; i++)
    {
      const TesInsightRow *row = g_ptr_array_index (rows, i);
      double h;

      /* a row drawn whole or not at all: measure it on a group first
       * (with room below for the gap and the line that counts the rest,
       * if any) */
      cairo_push_group (cr);
      h = draw_row (&p, wrapped, small, row, x, y, width);
      if (y + h > bottom - (i + 1 < rows->len ? MORE_HEIGHT : 0) && shown > 0)
        {
          cairo_pattern_destroy (cairo_pop_group (cr));
          break;
        }
      cairo_pop_group_to_source (cr);
      cairo_paint (cr);
      shown++;
      y += h + 10;
      cairo_set_source_rgb (cr, 0.87, 0.87, 0.87);
      cairo_rectangle (cr, x + RANK_WIDTH, y - 5, width - RANK_WIDTH, 1);
      cairo_fill (cr);
    }

  if (shown < rows->len)
    {
      g_autofree char *more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "… and %u more finding",
                                                            "… and %u more findings", rows->len - shown),
                                               rows->len - shown);

      tes_painter_text (&p, more, x + RANK_WIDTH, y, width - RANK_WIDTH, PANGO_ALIGN_LEFT, FALSE, DIM);
    }

  cairo_restore (cr);
  tes_painter_clear (&p);
}

/**
 * tes_insights_render_findings:
 * @insights: (element-type TesInsight): ranked findings
 * @title: the page's title (the report's name)
 *
 * Draws the findings as the section lists them, as many as the height
 * holds, then how many more there are.
 */
void
tes_insights_render_findings (GPtrArray  *insights,
                              const char *title,
                              cairo_t    *cr,
                              int         width,
                              int         height)
{
  g_autofree char *headline = tes_insights_layout_headline (insights);
  double inner = width - 2 * MARGIN;
  TesPainter p;
  double y;

  tes_painter_init (&p, cr, FONT);
  cairo_save (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);

  y = MARGIN + tes_painter_text (&p, title, MARGIN, MARGIN, inner, PANGO_ALIGN_LEFT, TRUE, INK) + 4;
  y += tes_painter_text (&p, headline, MARGIN, y, inner, PANGO_ALIGN_LEFT, FALSE, DIM) + 14;
  tes_insights_render_rows (insights, cr, MARGIN, y, inner, height - MARGIN - y);

  cairo_restore (cr);
  tes_painter_clear (&p);
}

/**
 * tes_insights_render_report:
 * @insights: (element-type TesInsight): @report's findings
 *
 * The Insights page of @report: its title, then the findings.
 */
gboolean
tes_insights_render_report (TesReport  *report,
                            GPtrArray  *insights,
                            cairo_t    *cr,
                            int         width,
                            int         height,
                            GError    **error)
{
  g_autofree char *name = tes_summary_report_title (report);
  /* Translators: the Insights page's title; %s is the report's name */
  g_autofree char *title = g_strdup_printf (_("Insights — %s"), name);

  tes_insights_render_findings (insights, title, cr, width, height);

  if (cairo_status (cr) != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "Drawing the insights failed: %s", cairo_status_to_string (cairo_status (cr)));
      return FALSE;
    }

  return TRUE;
}

/* The section's render: the run's own findings computed here, with the
 * default thresholds (those the window uses). A linked run is not
 * compared: each run of `render --compare` shows its own findings, and
 * `tessera-cli insights --compare` the two runs'. */
gboolean
tes_insights_render (TesWorkspace  *workspace,
                     const char    *view,
                     cairo_t       *cr,
                     int            width,
                     int            height,
                     GError       **error)
{
  TesReport *report = tes_workspace_get_report (workspace);
  g_autoptr(GPtrArray) insights = NULL;
  TesInsightThresholds thresholds;

  tes_insight_thresholds_init (&thresholds);
  insights = tes_insights_compute (report, NULL, &thresholds, NULL, error);
  if (insights == NULL)
    return FALSE;

  return tes_insights_render_report (report, insights, cr, width, height, error);
}
