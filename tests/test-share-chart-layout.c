/* test-share-chart-layout.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "tes-importer-registry.h"
#include "tes-report.h"
#include "tes-share-chart-layout.h"
#include "tes-test-util.h"

/* What a 10 pt sans font gives the widget, more or less */
static const TesShareChartMetrics metrics = {
  .row_height = 27,
  .row_spacing = 2,
  .padding = 12,
  .column_spacing = 12,
  .min_bar_area = 48,
  .max_label_fraction = 0.4,
};

#define GLYPH_WIDTH 8.0

static GPtrArray *
summarize_fixture (const char     *name,
                   TesSummaryMode  mode)
{
  g_autofree char *src = tes_test_data_path (name);
  g_autofree char *path = tes_test_copy_to_tmp (src, name);
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *rows;
  TesImporter *importer;

  importer = tes_importer_registry_choose (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (importer);

  report = tes_report_import (path, importer, TES_REPORT_OPEN_NONE, NULL, NULL, &error);
  g_assert_no_error (error);

  rows = tes_report_summarize (report, mode, TES_GROUP_BY_CATEGORY, &error);
  g_assert_no_error (error);
  g_assert_nonnull (rows);

  g_assert_finalize_object (g_steal_pointer (&report));

  return rows;
}

/* Stands in for Pango: a fixed advance per character. */
static TesShareChartItem *
items_for_rows (GPtrArray *rows)
{
  TesShareChartItem *items = g_new0 (TesShareChartItem, rows->len);

  for (guint i = 0; i < rows->len; i++)
    {
      const TesSummaryRow *row = g_ptr_array_index (rows, i);
      g_autofree char *value = g_strdup_printf ("%.3f %%", row->share);

      items[i].share = row->share;
      items[i].label_width = GLYPH_WIDTH * g_utf8_strlen (row->label, -1);
      items[i].value_width = GLYPH_WIDTH * strlen (value);
    }

  return items;
}

static double
row_center (const TesShareChartRow *row)
{
  return row->y + row->height / 2;
}

static void
assert_bars_proportional (const TesShareChartLayout *layout,
                          const TesShareChartItem   *items)
{
  for (guint i = 0; i < layout->n_rows; i++)
    {
      const TesShareChartRow *row = &layout->rows[i];
      double exact = layout->bar_area * items[i].share / layout->max_share;

      g_assert_cmpfloat (row->bar_x, ==, layout->bar_x);

      if (items[i].share <= 0)
        {
          g_assert_cmpfloat (row->bar_width, ==, 0);
          continue;
        }

      /* Whole pixels, and never less than one for a share above zero */
      g_assert_cmpfloat (row->bar_width, ==, round (row->bar_width));
      g_assert_cmpfloat (row->bar_width, >=, 1);
      g_assert_cmpfloat (fabs (row->bar_width - MAX (exact, 1)), <=, 0.5);

      /* The value follows its bar and stays inside the chart */
      g_assert_cmpfloat (row->value_x, ==, row->bar_x + row->bar_width + metrics.column_spacing);
      g_assert_cmpfloat (row->value_x + items[i].value_width, <=, layout->width - metrics.padding + 1);
    }
}

static void
test_layout_total (void)
{
  g_autoptr(GPtrArray) rows = summarize_fixture ("yolov8s_op_time_total.txt", TES_SUMMARY_TOTAL);
  g_autofree TesShareChartItem *items = items_for_rows (rows);
  g_autoptr(TesShareChartLayout) layout = NULL;
  const TesSummaryRow *first;

  g_assert_cmpuint (rows->len, ==, 12);

  first = g_ptr_array_index (rows, 0);
  g_assert_cmpstr (first->label, ==, "CONV_2D");
  g_assert_cmpfloat_with_epsilon (first->share, 80.743, 1e-9);

  layout = tes_share_chart_layout_new (items, rows->len, &metrics, 900);
  g_assert_cmpuint (layout->n_rows, ==, 12);
  g_assert_cmpfloat (layout->height, ==, tes_share_chart_layout_measure_height (12, &metrics));
  g_assert_cmpfloat (layout->height, ==, 2 * 12 + 12 * 27 + 11 * 2);
  g_assert_cmpfloat_with_epsilon (layout->max_share, 80.743, 1e-9);

  /* Descending shares give descending bars; the largest spans the area */
  for (guint i = 1; i < rows->len; i++)
    {
      const TesSummaryRow *prev = g_ptr_array_index (rows, i - 1);
      const TesSummaryRow *row = g_ptr_array_index (rows, i);

      g_assert_cmpfloat (prev->share, >=, row->share);
      g_assert_cmpfloat (layout->rows[i - 1].bar_width, >=, layout->rows[i].bar_width);
      g_assert_cmpfloat (layout->rows[i].y, ==,
                         layout->rows[i - 1].y + metrics.row_height + metrics.row_spacing);
    }
  g_assert_cmpfloat (layout->rows[0].bar_width, ==, layout->bar_area);
  g_assert_cmpfloat (layout->rows[0].y, ==, metrics.padding);
  assert_bars_proportional (layout, items);

  /* CONV_2D is ten times SOFTMAX, and so is its bar */
  g_assert_cmpfloat (fabs (layout->rows[0].bar_width / layout->rows[1].bar_width - 80.743 / 8.033), <, 0.05);

  /* SUB (0.013 %) is far below a pixel and still drawn */
  g_assert_cmpfloat (layout->rows[11].bar_width, ==, 1);

  /* Wide enough: no label is cut */
  g_assert_cmpfloat (layout->label_column, ==, GLYPH_WIDTH * strlen ("RESIZE_NEAREST_NEIGHBOR"));
  for (guint i = 0; i < layout->n_rows; i++)
    g_assert_false (layout->rows[i].label_truncated);

  /* The natural width fits everything */
  g_assert_cmpfloat (tes_share_chart_layout_measure_width (items, rows->len, &metrics, 320), ==,
                     2 * 12 + GLYPH_WIDTH * 23 + 2 * 12 + 320 + GLYPH_WIDTH * strlen ("80.743 %"));
}

static void
test_layout_truncation (void)
{
  g_autoptr(GPtrArray) rows = summarize_fixture ("yolov8s_op_time_total.txt", TES_SUMMARY_TOTAL);
  g_autofree TesShareChartItem *items = items_for_rows (rows);
  g_autoptr(TesShareChartLayout) narrow = NULL;
  g_autoptr(TesShareChartLayout) tiny = NULL;
  double inner = 400 - 2 * metrics.padding;

  /* Labels may take 40 % of the width: the longest is cut, short ones not */
  narrow = tes_share_chart_layout_new (items, rows->len, &metrics, 400);
  g_assert_cmpfloat (narrow->label_column, ==, floor (inner * 0.4));

  for (guint i = 0; i < rows->len; i++)
    {
      const TesSummaryRow *row = g_ptr_array_index (rows, i);
      gboolean long_label = GLYPH_WIDTH * strlen (row->label) > narrow->label_column;

      g_assert_cmpint (narrow->rows[i].label_truncated, ==, long_label);
      g_assert_cmpfloat (narrow->rows[i].label_width, ==, narrow->label_column);
    }
  g_assert_true (narrow->rows[6].label_truncated);    /* RESIZE_NEAREST_NEIGHBOR */
  g_assert_false (narrow->rows[0].label_truncated);   /* CONV_2D */
  assert_bars_proportional (narrow, items);

  /* Very narrow: labels give way until the bars keep their minimum */
  tiny = tes_share_chart_layout_new (items, rows->len, &metrics, 200);
  g_assert_cmpfloat (tiny->bar_area, >=, metrics.min_bar_area);
  g_assert_true (tiny->rows[0].label_truncated);
  assert_bars_proportional (tiny, items);

  /* Nothing left: no negative sizes */
  g_clear_pointer (&tiny, tes_share_chart_layout_free);
  tiny = tes_share_chart_layout_new (items, rows->len, &metrics, 10);
  g_assert_cmpfloat (tiny->label_column, ==, 0);
  g_assert_cmpfloat (tiny->bar_area, ==, 0);
  for (guint i = 0; i < tiny->n_rows; i++)
    g_assert_cmpfloat (tiny->rows[i].bar_width, ==, 0);
}

static void
test_layout_hit_test (void)
{
  g_autoptr(GPtrArray) rows = summarize_fixture ("yolov8s_op_time_total.txt", TES_SUMMARY_TOTAL);
  g_autofree TesShareChartItem *items = items_for_rows (rows);
  g_autoptr(TesShareChartLayout) layout = tes_share_chart_layout_new (items, rows->len, &metrics, 900);
  const TesShareChartRow *last = &layout->rows[layout->n_rows - 1];

  for (guint i = 0; i < layout->n_rows; i++)
    {
      const TesShareChartRow *row = &layout->rows[i];

      g_assert_cmpint (tes_share_chart_layout_hit_test (layout, row_center (row)), ==, i);
      g_assert_cmpint (tes_share_chart_layout_hit_test (layout, row->y), ==, i);
      g_assert_cmpint (tes_share_chart_layout_hit_test (layout, row->y + row->height - 0.5), ==, i);
    }

  /* The spacing between two rows belongs half to each */
  g_assert_cmpint (tes_share_chart_layout_hit_test (layout, layout->rows[1].y - 0.5), ==, 1);
  g_assert_cmpint (tes_share_chart_layout_hit_test (layout, layout->rows[0].y + layout->rows[0].height + 0.5), ==, 0);

  /* Padding and outside */
  g_assert_cmpint (tes_share_chart_layout_hit_test (layout, -1), ==, -1);
  g_assert_cmpint (tes_share_chart_layout_hit_test (layout, 0), ==, -1);
  g_assert_cmpint (tes_share_chart_layout_hit_test (layout, metrics.padding - 2), ==, -1);
  g_assert_cmpint (tes_share_chart_layout_hit_test (layout, last->y + last->height + 2), ==, -1);
  g_assert_cmpint (tes_share_chart_layout_hit_test (layout, layout->height + 100), ==, -1);
  g_assert_cmpint (tes_share_chart_layout_hit_test (layout, NAN), ==, -1);
}

static void
test_layout_each (void)
{
  g_autoptr(GPtrArray) rows = summarize_fixture ("yolov8s_op_time_each.txt", TES_SUMMARY_EACH);
  g_autofree TesShareChartItem *items = items_for_rows (rows);
  g_autoptr(TesShareChartLayout) layout = tes_share_chart_layout_new (items, rows->len, &metrics, 700);
  double max_share = 0;
  guint n_zero = 0;

  /* Execution order, not share order */
  g_assert_cmpuint (rows->len, ==, 96);
  for (guint i = 0; i < rows->len; i++)
    {
      const TesSummaryRow *row = g_ptr_array_index (rows, i);

      g_assert_cmpint (row->op_index, ==, i);
      max_share = MAX (max_share, row->share);
      n_zero += row->share <= 0;
    }

  g_assert_cmpuint (layout->n_rows, ==, 96);
  g_assert_cmpfloat (layout->max_share, ==, max_share);
  g_assert_cmpuint (n_zero, >, 0);
  assert_bars_proportional (layout, items);

  for (guint i = 0; i < layout->n_rows; i++)
    g_assert_cmpint (tes_share_chart_layout_hit_test (layout, row_center (&layout->rows[i])), ==, i);
}

static void
test_layout_empty (void)
{
  g_autoptr(TesShareChartLayout) layout = tes_share_chart_layout_new (NULL, 0, &metrics, 500);

  g_assert_cmpuint (layout->n_rows, ==, 0);
  g_assert_cmpfloat (layout->height, ==, 2 * metrics.padding);
  g_assert_cmpfloat (layout->max_share, ==, 0);
  g_assert_cmpint (tes_share_chart_layout_hit_test (layout, 12), ==, -1);
  g_assert_cmpfloat (tes_share_chart_layout_measure_width (NULL, 0, &metrics, 0), ==,
                     2 * metrics.padding + 2 * metrics.column_spacing + metrics.min_bar_area);
}

static void
test_layout_no_shares (void)
{
  TesShareChartItem items[] = {
    { .share = 0, .label_width = 40, .value_width = 40 },
    { .share = NAN, .label_width = 40, .value_width = 40 },
  };
  g_autoptr(TesShareChartLayout) layout = tes_share_chart_layout_new (items, G_N_ELEMENTS (items), &metrics, 500);

  g_assert_cmpfloat (layout->max_share, ==, 0);
  g_assert_cmpfloat (layout->rows[0].bar_width, ==, 0);
  g_assert_cmpfloat (layout->rows[1].bar_width, ==, 0);
}

static void
test_color_index (void)
{
  /* FNV-1a: pinned, so a type keeps its colour across releases */
  g_assert_cmpuint (tes_share_chart_color_index ("CONV_2D"), ==, 10);
  g_assert_cmpuint (tes_share_chart_color_index ("SOFTMAX"), ==, 1);
  g_assert_cmpuint (tes_share_chart_color_index ("CONV_2D"), ==, tes_share_chart_color_index ("CONV_2D"));
  g_assert_cmpuint (tes_share_chart_color_index (""), <, TES_SHARE_CHART_N_COLORS);
  g_assert_cmpuint (tes_share_chart_color_index (NULL), ==, 0);
}

static void
rows_to_types (GPtrArray    *rows,
               const char ***types,
               double      **shares)
{
  *types = g_new0 (const char *, rows->len);
  *shares = g_new0 (double, rows->len);

  for (guint i = 0; i < rows->len; i++)
    {
      const TesSummaryRow *row = g_ptr_array_index (rows, i);

      (*types)[i] = row->type;
      (*shares)[i] = row->share;
    }
}

static void
test_assign_colors (void)
{
  g_autoptr(GPtrArray) total = summarize_fixture ("yolov8s_op_time_each.txt", TES_SUMMARY_TOTAL);
  g_autoptr(GPtrArray) each = summarize_fixture ("yolov8s_op_time_each.txt", TES_SUMMARY_EACH);
  g_autofree const char **total_types = NULL;
  g_autofree const char **each_types = NULL;
  g_autofree double *total_shares = NULL;
  g_autofree double *each_shares = NULL;
  g_autofree guint *total_slots = NULL;
  g_autofree guint *each_slots = NULL;
  g_autoptr(GHashTable) slot_of_type = g_hash_table_new (g_str_hash, g_str_equal);
  gboolean used[TES_SHARE_CHART_N_COLORS] = { FALSE };
  static const char *many[TES_SHARE_CHART_N_COLORS + 2] = {
    "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n",
  };
  guint many_slots[G_N_ELEMENTS (many)];

  /* Twelve types, twelve colours: no two types share one, and the
   * largest keeps the colour of its name */
  g_assert_cmpuint (total->len, ==, TES_SHARE_CHART_N_COLORS);
  rows_to_types (total, &total_types, &total_shares);
  total_slots = g_new0 (guint, total->len);
  tes_share_chart_assign_colors (total_types, total_shares, total->len, total_slots);

  g_assert_cmpstr (total_types[0], ==, "CONV_2D");
  g_assert_cmpuint (total_slots[0], ==, tes_share_chart_color_index ("CONV_2D"));

  for (guint i = 0; i < total->len; i++)
    {
      g_assert_cmpuint (total_slots[i], <, TES_SHARE_CHART_N_COLORS);
      g_assert_false (used[total_slots[i]]);
      used[total_slots[i]] = TRUE;
      g_hash_table_insert (slot_of_type, (gpointer)total_types[i], GUINT_TO_POINTER (total_slots[i]));
    }

  /* The per-operator chart colours each operator as its type */
  rows_to_types (each, &each_types, &each_shares);
  each_slots = g_new0 (guint, each->len);
  tes_share_chart_assign_colors (each_types, each_shares, each->len, each_slots);

  for (guint i = 0; i < each->len; i++)
    g_assert_cmpuint (each_slots[i], ==, GPOINTER_TO_UINT (g_hash_table_lookup (slot_of_type, each_types[i])));

  /* Same input, same colours */
  tes_share_chart_assign_colors (total_types, total_shares, total->len, each_slots);
  for (guint i = 0; i < total->len; i++)
    g_assert_cmpuint (each_slots[i], ==, total_slots[i]);

  /* More types than colours: the first twelve still differ, the rest
   * fall back to the colour of their name */
  memset (used, 0, sizeof used);
  tes_share_chart_assign_colors (many, NULL, G_N_ELEMENTS (many), many_slots);
  for (guint i = 0; i < G_N_ELEMENTS (many); i++)
    {
      if (i < TES_SHARE_CHART_N_COLORS)
        {
          g_assert_false (used[many_slots[i]]);
          used[many_slots[i]] = TRUE;
        }
      else
        {
          g_assert_cmpuint (many_slots[i], ==, tes_share_chart_color_index (many[i]));
        }
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tes/share-chart-layout/total", test_layout_total);
  g_test_add_func ("/tes/share-chart-layout/truncation", test_layout_truncation);
  g_test_add_func ("/tes/share-chart-layout/hit-test", test_layout_hit_test);
  g_test_add_func ("/tes/share-chart-layout/each", test_layout_each);
  g_test_add_func ("/tes/share-chart-layout/empty", test_layout_empty);
  g_test_add_func ("/tes/share-chart-layout/no-shares", test_layout_no_shares);
  g_test_add_func ("/tes/share-chart-layout/color-index", test_color_index);
  g_test_add_func ("/tes/share-chart-layout/assign-colors", test_assign_colors);

  return g_test_run ();
}
