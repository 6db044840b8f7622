/* tes-summary-render.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-summary-render"

#include "config.h"

#include "tes-summary-render.h"

#include "tes-painter.h"
#include "tes-share-chart-layout.h"
#include "tes-summary-layout.h"

#include <glib/gi18n.h>
#include <math.h>
#include <pango/pangocairo.h>

/* The Summary as a page: what `tessera-cli render --view summary`
 * writes and what the window exports. It reads the same facts, rows and
 * chart geometry as the section widget, and draws with cairo only, so it
 * runs without a display. */

#define MARGIN       24.0
#define GAP          24.0
#define FONT         "Sans 10"
#define CHART_ROWS   16

/* Draws facts from *@next on, while they fit above @bottom; *@next is
 * left at the first not drawn. Returns the y reached. */
static double
draw_facts (TesPainter *p,
            GPtrArray  *facts,
            guint      *next,
            double      x,
            double      y,
            double      width,
            double      bottom)
{
  const char *heading = NULL;
  double key_width = width * 0.35;
  guint i;

  for (i = *next; i < facts->len && y + 18 <= bottom; i++)
    {
      const TesSummaryFact *fact = g_ptr_array_index (facts, i);
      double h;

      if (g_strcmp0 (heading, fact->heading) != 0)
        {
          /* a heading only with its first fact under it */
          if (y + (i > *next ? 8 : 0) + 2 * 18 > bottom)
            break;
          heading = fact->heading;
          y += i > *next ? 8 : 0;
          y += tes_painter_text (p, fact->heading, x, y, width, PANGO_ALIGN_LEFT, TRUE, 0x241f31) + 2;
        }

      tes_painter_text (p, fact->key, x, y, key_width, PANGO_ALIGN_RIGHT, FALSE, 0x77767b);
      h = tes_painter_text (p, fact->value, x + key_width + 12, y, width - key_width - 12, PANGO_ALIGN_LEFT, FALSE,
                     fact->kind == TES_SUMMARY_FACT_MISSING_PATH ? 0xc01c28 : 0x241f31);
      y += h + 2;
    }
  *next = i;

  return y;
}

static double
draw_chart (TesPainter *p,
            GPtrArray  *rows,
            double      x,
            double      y,
            double      width)
{
  guint n_shown = tes_summary_chart_rows (rows, G_MAXUINT);
  guint n = MIN (n_shown, CHART_ROWS);
  g_autofree TesShareChartItem *items = g_new0 (TesShareChartItem, n);
  g_autofree const char **types = g_new0 (const char *, n);
  g_autofree double *shares = g_new0 (double, n);
  g_autofree guint *slots = g_new0 (guint, n);
  g_autoptr(TesShareChartLayout) layout = NULL;
  TesShareChartMetrics metrics = { 0 };
  g_autofree char *title = NULL;

  title = n < n_shown
    ? g_strdup_printf (_("Time by operator type (the %u largest of %u)"), n, n_shown)
    : g_strdup (_("Time by operator type"));
  y += tes_painter_text (p, title, x, y, width, PANGO_ALIGN_LEFT, TRUE, 0x241f31) + 4;

  for (guint i = 0; i < n; i++)
    {
      const TesSummaryRow *row = g_ptr_array_index (rows, i);
      g_autofree char *value = g_strdup_printf ("%.3f %%", row->share);

      items[i].share = row->share;
      items[i].label_width = tes_painter_text_width (p, row->label);
      items[i].value_width = tes_painter_text_width (p, value);
      types[i] = row->type;
      shares[i] = row->share;
    }
  tes_share_chart_assign_colors (types, shares, n, slots);

  metrics.row_height = 20;
  metrics.row_spacing = 2;
  metrics.padding = 0;
  metrics.column_spacing = 12;
  metrics.min_bar_area = 48;
  metrics.max_label_fraction = 0.4;
  layout = tes_share_chart_layout_new (items, n, &metrics, width);

  for (guint i = 0; i < layout->n_rows; i++)
    {
      const TesShareChartRow *geom = &layout->rows[i];
      const TesSummaryRow *row = g_ptr_array_index (rows, i);
      g_autofree char *value = g_strdup_printf ("%.3f %%", row->share);

      tes_painter_text (p, row->label, x + geom->label_x, y + geom->y + 2, geom->label_width,
                 PANGO_ALIGN_LEFT, FALSE, 0x241f31);
      tes_painter_set_rgb (p->cr, tes_share_chart_palette[slots[i]]);
      cairo_rectangle (p->cr, x + geom->bar_x, y + geom->y + 3, geom->bar_width, geom->height - 6);
      cairo_fill (p->cr);
      tes_painter_text (p, value, x + geom->value_x, y + geom->y + 2, -1, PANGO_ALIGN_LEFT, FALSE, 0x5e5c64);
    }

  return y + layout->height;
}

static void
draw_table (TesPainter *p,
            TesReport  *report,
            GPtrArray  *rows,
            double      x,
            double      y,
            double      width,
            double      bottom)
{
  static const double weights[TES_OPERATOR_N_COLUMNS] = { 0.07, 0.35, 0.22, 0.12, 0.14, 0.10, 0.50 };
  TesSummaryTotalShown total = tes_summary_total_shown (report, (const TesSummaryRow * const *)rows->pdata, rows->len);
  guint known = tes_summary_known_columns (rows);
  double row_height = 18;
  double sum = 0;
  guint shown = 0;

  for (guint c = 0; c < TES_OPERATOR_N_COLUMNS; c++)
    if (known & (1 << c))
      sum += weights[c];

  for (int line = -1; line < (int)rows->len; line++)
    {
      double cx = x;

      if (y + row_height > bottom)
        break;

      if (line >= 0 && line % 2 == 1)
        {
          cairo_set_source_rgb (p->cr, 0.96, 0.96, 0.96);
          cairo_rectangle (p->cr, x, y, width, row_height);
          cairo_fill (p->cr);
        }

      for (guint c = 0; c < TES_OPERATOR_N_COLUMNS; c++)
        {
          double w = width * weights[c] / sum;
          gboolean numeric = c != TES_OPERATOR_COLUMN_NAME && c != TES_OPERATOR_COLUMN_TYPE &&
                             c != TES_OPERATOR_COLUMN_DETAILS;
          g_autofree char *text = NULL;

          if (!(known & (1 << c)))
            continue;

          if (line < 0)
            text = c == TES_OPERATOR_COLUMN_TOTAL
              ? g_strdup_printf ("%s (%s)", tes_summary_column_title (c), tes_time_unit_to_string (total.unit))
              : g_strdup (tes_summary_column_title (c));
          else
            text = tes_summary_format_cell (g_ptr_array_index (rows, line), c, &total);

          tes_painter_text (p, text, cx + 4, y + 1, w - 8, numeric ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_LEFT,
                     line < 0, 0x241f31);
          cx += w;
        }

      y += row_height;
      if (line >= 0)
        shown++;
    }

  if (shown < rows->len && y + row_height <= bottom + row_height)
    {
      g_autofree char *more = g_strdup_printf (_("… and %u more rows"), rows->len - shown);

      tes_painter_text (p, more, x + 4, y, width, PANGO_ALIGN_LEFT, FALSE, 0x77767b);
    }
}

gboolean
tes_summary_render (TesWorkspace  *workspace,
                    cairo_t       *cr,
                    int            width,
                    int            height,
                    GError       **error)
{
  TesReport *report = tes_workspace_get_report (workspace);
  g_autoptr(GPtrArray) facts = tes_summary_collect_facts (workspace);
  g_autoptr(GPtrArray) chart_rows = NULL;
  g_autoptr(GPtrArray) table_rows = NULL;
  g_autoptr(GError) chart_error = NULL;
  g_autoptr(GError) table_error = NULL;
  g_autofree char *title = NULL;
  TesPainter p;
  double column = (width - 2 * MARGIN - GAP) / 2;
  double y, facts_bottom, chart_bottom;
  guint next_fact = 0;

  tes_painter_init (&p, cr, FONT);

  cairo_save (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);

  title = tes_summary_report_title (report);
  /* the run shown, as the section's run list names it */
  if (tes_workspace_get_run (workspace) > 0)
    {
      g_autoptr(GArray) runs = tes_report_get_runs (report, NULL);

      for (guint i = 0; runs != NULL && i < runs->len; i++)
        if (g_array_index (runs, TesRun, i).id == tes_workspace_get_run (workspace))
          {
            char *with_run = g_strdup_printf ("%s · %s", title, g_array_index (runs, TesRun, i).name);

            g_free (title);
            title = with_run;
          }
    }
  y = MARGIN + tes_painter_text (&p, title, MARGIN, MARGIN, width - 2 * MARGIN, PANGO_ALIGN_LEFT, TRUE, 0x241f31) + 12;

  facts_bottom = draw_facts (&p, facts, &next_fact, MARGIN, y, column, height * 0.6);

  chart_bottom = y;
  /* the workspace's run, as the section shows it */
  if ((chart_rows = tes_report_summarize_run (report, tes_workspace_get_run (workspace), TES_SUMMARY_TOTAL,
                                              TES_GROUP_BY_CATEGORY, &chart_error)))
    chart_bottom = draw_chart (&p, chart_rows, MARGIN + column + GAP, y, column);

  /* facts the left column has no room for go on under the chart, and
   * those that fit nowhere are counted, not dropped unsaid */
  if (next_fact < facts->len)
    chart_bottom = draw_facts (&p, facts, &next_fact, MARGIN + column + GAP,
                               chart_bottom > y ? chart_bottom + GAP : y, column, height * 0.6);
  if (next_fact < facts->len)
    {
      g_autofree char *more = NULL;
      guint n_more = facts->len - next_fact;

      /* Translators: facts of the report that a picture of the Summary had no room for */
      more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "… and %u more fact", "… and %u more facts", n_more),
                              n_more);
      facts_bottom += tes_painter_text (&p, more, MARGIN, facts_bottom + 4, column, PANGO_ALIGN_LEFT, FALSE,
                                        0x77767b) + 4;
    }

  y = MAX (facts_bottom, chart_bottom) + GAP;
  if ((table_rows = tes_summary_load_run_rows (report, tes_workspace_get_run (workspace), NULL, &table_error)))
    draw_table (&p, report, table_rows, MARGIN, y, width - 2 * MARGIN, height - MARGIN);

  cairo_restore (cr);
  tes_painter_clear (&p);

  if (cairo_status (cr) != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "Drawing the summary failed: %s", cairo_status_to_string (cairo_status (cr)));
      return FALSE;
    }

  return TRUE;
}
