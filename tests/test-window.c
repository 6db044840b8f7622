/* test-window.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <locale.h>

#include <gtk/gtk.h>

#include <glib/gstdio.h>
#include <sqlite3.h>

#include "tes-row-item.h"
#include "tes-recent.h"
#include "tes-share-chart.h"
#include "tes-summary-section.h"
#include "tes-test-util.h"
#include "tes-ui-test-util.h"
#include "tes-window.h"

/* How many pixels of the bar colour run from the start of the bar, along
 * the middle of the row. */
static int
measure_bar (const TesPixels           *pixels,
             const TesShareChartRow *row,
             const GdkRGBA          *color)
{
  int y = row->y + row->height / 2;
  int n = 0;

  for (int x = row->bar_x; x < pixels->width && tes_ui_test_pixel_is_color (tes_ui_test_pixel_at (pixels, x, y), color); x++)
    n++;

  return n;
}

static TesSummarySection *
summary_section (TesWindow *window)
{
  GtkWidget *page = gtk_stack_get_child_by_name (tes_window_get_sections (window), "TesSummarySection");

  g_assert_true (TES_IS_SUMMARY_SECTION (page));
  /* its tables come from a worker */
  tes_ui_test_wait_for_summary (TES_SUMMARY_SECTION (page));

  return TES_SUMMARY_SECTION (page);
}

static const TesSummaryRow *
table_row (TesSummarySection *section,
           guint              i)
{
  g_autoptr(TesRowItem) item = g_list_model_get_item (tes_summary_section_get_rows (section), i);

  g_assert_nonnull (item);

  /* the store keeps the row alive */
  return tes_row_item_get (item);
}

static TesShareChart *
share_chart (TesWindow *window)
{
  g_autoptr(GPtrArray) charts = tes_ui_test_find_widgets (window, TES_TYPE_SHARE_CHART);

  g_assert_cmpuint (charts->len, ==, 1);

  return g_ptr_array_index (charts, 0);
}

/* The vendor's per-operator listing, read here independently of the
 * importer: "INDEX TYPE SHARE%" per line. */
typedef struct
{
  guint  n;
  double shares[256];
  char  *types[256];
} Listing;

static void
listing_clear (Listing *listing)
{
  for (guint i = 0; i < listing->n; i++)
    g_free (listing->types[i]);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Listing, listing_clear)

static void
read_listing (const char *path,
              Listing    *listing)
{
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) fields = g_strsplit (lines[i], " ", -1);

      if (g_strv_length (fields) != 3)
        continue;
      g_assert_cmpuint (listing->n, <, G_N_ELEMENTS (listing->shares));
      listing->types[listing->n] = g_strdup (fields[1]);
      listing->shares[listing->n] = g_ascii_strtod (fields[2], NULL);
      listing->n++;
    }
}

static guint
listing_count_type (const Listing *listing,
                    const char    *prefix)
{
  guint n = 0;

  for (guint i = 0; i < listing->n; i++)
    n += g_str_has_prefix (listing->types[i], prefix);

  return n;
}

static void
test_window_report (void)
{
  g_autofree char *src = tes_test_data_path ("yolov8s_op_time_each.txt");
  g_autofree char *path = tes_test_copy_to_tmp (src, "yolov8s_op_time_each.txt");
  g_autofree char *tmp_dir = g_path_get_dirname (path);
  g_autofree char *csv_path = tes_test_tmp_path ("operators.csv");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) csv_file = g_file_new_for_path (csv_path);
  g_autoptr(GError) error = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *copied = NULL;
  g_auto(GStrv) csv_lines = NULL;
  g_auto(TesPixels) pixels = { 0 };
  g_auto(Listing) listing = { 0 };
  const TesShareChartLayout *layout;
  const TesSummaryRow *first, *second;
  TesSummarySection *section;
  GtkColumnView *view;
  GListModel *columns;
  TesShareChart *total;
  TesWindow *window;
  GdkRGBA color;
  double max_share = 0;
  int bar0, bar1;

  read_listing (src, &listing);
  g_assert_cmpuint (listing.n, ==, 96);

  window = tes_ui_test_open_window (path, NULL);
  g_assert_cmpstr (tes_window_get_page (window), ==, "loading");
  g_assert_nonnull (tes_window_get_progress (window));

  tes_ui_test_wait_for_page (window, "report");

  /* Header and facts */
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "yolov8s_op_time_each.txt");
  g_assert_true (g_file_equal (tes_window_get_file (window), file));
  g_assert_nonnull (tes_window_get_report (window));
  g_assert_nonnull (tes_window_get_workspace (window));
  g_assert_null (tes_window_get_progress (window));
  g_assert_cmpstr (tes_ui_test_find_value_for_key (window, "Operators"), ==, "96");
  g_assert_cmpstr (tes_ui_test_find_value_for_key (window, "SigmaStar get_op_time_cost.py"), ==, path);
  g_assert_cmpstr (tes_ui_test_find_value_for_key (window, "State"), ==, "Written by this import");
  g_assert_null (tes_ui_test_find_value_for_key (window, "Slices"));

  /* The cache went beside the copy, not into the source tree */
  g_assert_true (g_str_has_prefix (tes_ui_test_find_value_for_key (window, "Path"), tmp_dir));

  /* One section page per view with data, the summary shown */
  g_assert_cmpstr (gtk_stack_get_visible_child_name (tes_window_get_sections (window)), ==, "TesSummarySection");
  section = summary_section (window);

  /* The chart: per type, largest first, the vendor's figures */
  total = share_chart (window);
  g_assert_cmpuint (tes_share_chart_get_rows (total)->len, ==, 12);
  first = g_ptr_array_index (tes_share_chart_get_rows (total), 0);
  second = g_ptr_array_index (tes_share_chart_get_rows (total), 1);
  g_assert_cmpstr (first->label, ==, "CONV_2D");
  g_assert_cmpfloat_with_epsilon (first->share, 80.742, 0.001);
  g_assert_cmpstr (second->label, ==, "SOFTMAX");

  /* Real pixels: wait for the chart to be laid out and drawn */
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (total)));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (total));
  layout = tes_share_chart_get_layout (total);
  g_assert_nonnull (layout);
  g_assert_cmpuint (layout->n_rows, ==, 12);

  tes_ui_test_render (GTK_WIDGET (total), &pixels);

  tes_share_chart_get_row_color (total, 0, &color);
  bar0 = measure_bar (&pixels, &layout->rows[0], &color);
  tes_share_chart_get_row_color (total, 1, &color);
  bar1 = measure_bar (&pixels, &layout->rows[1], &color);

  g_test_message ("CONV_2D bar: %d px (layout %g), SOFTMAX bar: %d px (layout %g)",
                  bar0, layout->rows[0].bar_width, bar1, layout->rows[1].bar_width);
  g_assert_cmpint (ABS (bar0 - (int)layout->rows[0].bar_width), <=, 1);
  g_assert_cmpint (ABS (bar1 - (int)layout->rows[1].bar_width), <=, 1);
  g_assert_cmpint (bar0, >, 5 * bar1);
  g_assert_cmpint (bar1, >, 0);
  g_assert_cmpuint (tes_ui_test_count_inked (&pixels,
                                 layout->rows[0].label_x, layout->rows[0].y,
                                 layout->rows[0].label_x + layout->rows[0].label_width,
                                 layout->rows[0].y + layout->rows[0].height), >, 20);

  /* The operator table: every operator of the listing, in execution order */
  g_assert_cmpuint (g_list_model_get_n_items (tes_summary_section_get_rows (section)), ==, listing.n);
  for (guint i = 0; i < listing.n; i++)
    {
      const TesSummaryRow *row = table_row (section, i);

      g_assert_cmpint (row->op_index, ==, i);
      g_assert_cmpstr (row->type, ==, listing.types[i]);
      g_assert_cmpfloat_with_epsilon (row->share, listing.shares[i], 1e-9);
      max_share = MAX (max_share, listing.shares[i]);
    }

  /* Sorting by a column: share, largest first */
  view = tes_summary_section_get_column_view (section);
  columns = gtk_column_view_get_columns (view);
  gtk_column_view_sort_by_column (view, g_list_model_get_item (columns, 3), GTK_SORT_DESCENDING);
  g_object_unref (g_list_model_get_item (columns, 3));
  g_assert_cmpfloat_with_epsilon (table_row (section, 0)->share, max_share, 1e-9);
  for (guint i = 1; i < listing.n; i++)
    g_assert_cmpfloat (table_row (section, i - 1)->share, >=, table_row (section, i)->share);

  /* ... and by name, ascending */
  gtk_column_view_sort_by_column (view, g_list_model_get_item (columns, 2), GTK_SORT_ASCENDING);
  g_object_unref (g_list_model_get_item (columns, 2));
  for (guint i = 1; i < listing.n; i++)
    g_assert_cmpint (g_utf8_collate (table_row (section, i - 1)->type, table_row (section, i)->type), <=, 0);

  /* Filtering: a substring, case-insensitive, then a /regex/ */
  tes_summary_section_set_filter (section, "softmax");
  g_assert_cmpuint (g_list_model_get_n_items (tes_summary_section_get_rows (section)), ==,
                    listing_count_type (&listing, "SOFTMAX"));
  tes_summary_section_set_filter (section, "/^conc/");
  g_assert_cmpuint (g_list_model_get_n_items (tes_summary_section_get_rows (section)), ==,
                    listing_count_type (&listing, "CONCAT"));
  g_assert_true (tes_ui_test_has_label_containing (window, "of 96 rows"));

  /* A broken regex keeps the last good filter */
  tes_summary_section_set_filter (section, "/[/");
  g_assert_cmpuint (g_list_model_get_n_items (tes_summary_section_get_rows (section)), ==,
                    listing_count_type (&listing, "CONCAT"));

  /* Copy of the selected rows: a header and one line per row */
  gtk_selection_model_select_range (GTK_SELECTION_MODEL (tes_summary_section_get_rows (section)), 0, 3, TRUE);
  copied = tes_summary_section_dup_selected_text (section);
  g_assert_nonnull (copied);
  g_assert_cmpuint (g_strv_length (csv_lines = g_strsplit (g_strchomp (copied), "\n", -1)), ==, 4);
  g_assert_true (g_str_has_prefix (csv_lines[0], "#\tName\tType\tShare"));
  g_assert_nonnull (strstr (csv_lines[1], "CONCATENATION"));
  g_clear_pointer (&csv_lines, g_strfreev);

  /* Export CSV writes what the table shows */
  tes_summary_section_set_filter (section, "");
  g_assert_true (tes_summary_section_write_csv (section, csv_file, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (csv_path, &csv, NULL, NULL));
  csv_lines = g_strsplit (csv, "\r\n", -1);
  g_assert_cmpuint (g_strv_length (csv_lines), ==, listing.n + 2);   /* header, rows, empty tail */
  g_assert_cmpstr (csv_lines[0], ==, "index,name,type,share_percent,total_ns,count");

  /* Opening the same file again reuses its cache */
  tes_window_open (window, file, NULL);
  tes_ui_test_wait_for_page (window, "report");
  g_assert_cmpstr (tes_ui_test_find_value_for_key (window, "State"), ==, "Reused from an earlier import");

  tes_ui_test_close_window (window);
}

static void
test_window_total_only (void)
{
  g_autofree char *src = tes_test_data_path ("yolov8s_op_time_total.txt");
  g_autofree char *path = tes_test_copy_to_tmp (src, "yolov8s_op_time_total.txt");
  TesSummarySection *section;
  GtkColumnView *view;
  g_autoptr(GtkColumnViewColumn) index_column = NULL;
  TesWindow *window;

  window = tes_ui_test_open_window (path, NULL);
  tes_ui_test_wait_for_page (window, "report");

  g_assert_cmpstr (tes_ui_test_find_value_for_key (window, "Operators"), ==, "12");
  section = summary_section (window);

  /* Per-type totals: the table lists types, largest first, no index */
  g_assert_true (tes_ui_test_has_label_containing (window, "Operator types"));
  g_assert_cmpuint (g_list_model_get_n_items (tes_summary_section_get_rows (section)), ==, 12);
  g_assert_cmpstr (table_row (section, 0)->type, ==, "CONV_2D");
  view = tes_summary_section_get_column_view (section);
  index_column = g_list_model_get_item (gtk_column_view_get_columns (view), 0);
  g_assert_false (gtk_column_view_column_get_visible (index_column));

  tes_ui_test_close_window (window);
}

/* The table holds @rows (tes_report_summarize_run's): names and totals. */
static void
assert_table_rows (TesSummarySection *section,
                   GPtrArray         *rows)
{
  GListModel *table = tes_summary_section_get_rows (section);

  g_assert_cmpuint (g_list_model_get_n_items (table), ==, rows->len);
  for (guint i = 0; i < rows->len; i++)
    {
      const TesSummaryRow *want = g_ptr_array_index (rows, i);
      gboolean found = FALSE;

      for (guint j = 0; j < g_list_model_get_n_items (table) && !found; j++)
        found = g_str_equal (table_row (section, j)->name, want->name) && table_row (section, j)->total == want->total;
      g_assert_true (found);
    }
}

/* A PyTorch profiler trace's steps are runs: the Summary's run list sets
 * the workspace's run, and the table follows the workspace's run, showing
 * that step's own operators (figures: test-kineto.py, from Python's json). */
static void
test_window_summary_per_step (void)
{
  g_autofree char *src = tes_test_data_path ("kineto/written_old_names.json");
  g_autofree char *path = tes_test_copy_to_tmp (src, "written_old_names.json");
  g_autoptr(GPtrArray) dropdowns = NULL;
  g_autoptr(GPtrArray) whole = NULL;
  g_autoptr(GPtrArray) step = NULL;
  g_autoptr(GArray) runs = NULL;
  g_autoptr(GError) error = NULL;
  TesSummarySection *section;
  TesWorkspace *workspace;
  TesReport *report;
  GtkDropDown *dropdown = NULL;
  TesWindow *window;
  gint64 run_id;

  window = tes_ui_test_open_window (path, NULL);
  tes_ui_test_wait_for_page (window, "report");
  section = summary_section (window);
  workspace = tes_window_get_workspace (window);
  report = tes_workspace_get_report (workspace);

  runs = tes_report_get_runs (report, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (runs->len, ==, 2);
  run_id = tes_report_find_run (report, "ProfilerStep#8", &error);
  g_assert_no_error (error);
  whole = tes_report_summarize_run (report, 0, TES_SUMMARY_TOTAL, TES_GROUP_BY_CATEGORY, &error);
  g_assert_no_error (error);
  step = tes_report_summarize_run (report, run_id, TES_SUMMARY_TOTAL, TES_GROUP_BY_CATEGORY, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (step->len, <, whole->len);
  assert_table_rows (section, whole);

  /* the run list: the whole report, then each step */
  dropdowns = tes_ui_test_find_widgets (window, GTK_TYPE_DROP_DOWN);
  for (guint i = 0; i < dropdowns->len; i++)
    if (gtk_widget_is_ancestor (g_ptr_array_index (dropdowns, i), GTK_WIDGET (section)))
      dropdown = g_ptr_array_index (dropdowns, i);
  g_assert_nonnull (dropdown);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dropdown)));
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (dropdown)), ==, runs->len + 1);
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 0);

  /* the workspace's run: the table follows, the list shows it */
  tes_workspace_set_run (workspace, run_id);
  tes_ui_test_wait_for_summary (section);
  assert_table_rows (section, step);
  g_assert_cmpstr (gtk_string_object_get_string (gtk_drop_down_get_selected_item (dropdown)), ==, "ProfilerStep#8");

  /* the list sets the workspace's run */
  gtk_drop_down_set_selected (dropdown, 0);
  g_assert_cmpint (tes_workspace_get_run (workspace), ==, 0);
  tes_ui_test_wait_for_summary (section);
  assert_table_rows (section, whole);

  tes_ui_test_close_window (window);
}

/* Two listings of one run open as one report: both sources shown, the
 * title counts the extra file, and the per-type chart holds the vendor's
 * own per-type figures, not the two listings added up. */
static void
test_window_several_files (void)
{
  g_autofree char *each_src = tes_test_data_path ("yolov8s_op_time_each.txt");
  g_autofree char *total_src = tes_test_data_path ("yolov8s_op_time_total.txt");
  g_autofree char *each = tes_test_copy_to_tmp (each_src, "yolov8s_op_time_each.txt");
  g_autofree char *total = tes_test_copy_to_tmp (total_src, "yolov8s_op_time_total.txt");
  g_autoptr(GFile) each_file = g_file_new_for_path (each);
  g_autoptr(GFile) total_file = g_file_new_for_path (total);
  GFile *files[2] = { each_file, total_file };
  g_autoptr(GPtrArray) labels = NULL;
  GPtrArray *rows;
  TesWindow *window;
  guint n_sources = 0;

  window = g_object_ref (tes_window_new (NULL));
  gtk_window_present (GTK_WINDOW (window));
  tes_window_open_files (window, files, 2, NULL);
  tes_ui_test_wait_for_page (window, "report");
  summary_section (window);

  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "yolov8s_op_time_each.txt (+1)");
  g_assert_cmpstr (tes_ui_test_find_value_for_key (window, "Operators"), ==, "108");

  labels = tes_ui_test_find_widgets (window, GTK_TYPE_LABEL);
  for (guint i = 0; i < labels->len; i++)
    {
      GtkWidget *label = g_ptr_array_index (labels, i);
      const char *text = gtk_label_get_text (GTK_LABEL (label));

      /* the sources listed by the Summary (a tooltip may show one too) */
      if (gtk_widget_get_ancestor (label, TES_TYPE_SUMMARY_SECTION))
        n_sources += g_str_equal (text, each) || g_str_equal (text, total);
    }
  g_assert_cmpuint (n_sources, ==, 2);

  rows = tes_share_chart_get_rows (share_chart (window));
  g_assert_cmpuint (rows->len, ==, 12);
  g_assert_cmpstr (((TesSummaryRow *)g_ptr_array_index (rows, 0))->label, ==, "CONV_2D");
  g_assert_cmpfloat_with_epsilon (((TesSummaryRow *)g_ptr_array_index (rows, 0))->share, 80.743, 1e-9);

  tes_ui_test_close_window (window);
}

/* A folder holding the traces of a job's ranks (HTA's sampled_rank-0
 * and -1) opens as one report whose Summary sets each step's time on
 * both ranks side by side, the slowest named (figures: test-ranks.py,
 * from Python's json). */
static void
test_window_folder_of_ranks (void)
{
  g_autofree char *src0 = tes_test_data_path ("kineto/sampled_rank-0.json.gz");
  g_autofree char *src1 = tes_test_data_path ("kineto/sampled_rank-1.json.gz");
  g_autofree char *rank0 = tes_test_copy_to_tmp (src0, "sampled_rank-0.json.gz");
  g_autofree char *rank1 = tes_test_copy_to_tmp (src1, "sampled_rank-1.json.gz");
  g_autofree char *folder = g_path_get_dirname (rank0);
  g_autoptr(GFile) file = g_file_new_for_path (folder);
  TesWindow *window;

  window = g_object_ref (tes_window_new (NULL));
  gtk_window_present (GTK_WINDOW (window));
  tes_window_open_files (window, &file, 1, NULL);
  tes_ui_test_wait_for_page (window, "report");
  summary_section (window);

  g_assert_true (tes_ui_test_has_label_containing (window, "rank 0 622.928 ms, rank 1 630.639 ms; slowest rank 1"));
  g_assert_true (tes_ui_test_has_label_containing (window, "rank 0 607.312 ms, rank 1 607.904 ms; slowest rank 1"));

  tes_ui_test_close_window (window);
}

/* A report shared as its cache alone: it opens, and says its source is
 * not here. */
static void
test_window_cache_without_source (void)
{
  g_autofree char *src = tes_test_data_path ("yolov8s_op_time_each.txt");
  g_autofree char *path = tes_test_copy_to_tmp (src, "shared_each.txt");
  g_autofree char *cache = NULL;
  g_autoptr(GFile) cache_file = NULL;
  TesSummarySection *section;
  TesWindow *window;
  const char *value;

  window = tes_ui_test_open_window (path, NULL);
  tes_ui_test_wait_for_page (window, "report");
  cache = g_strdup (tes_report_get_cache_path (tes_window_get_report (window)));
  g_assert_cmpint (g_unlink (path), ==, 0);

  cache_file = g_file_new_for_path (cache);
  tes_window_open (window, cache_file, NULL);
  tes_ui_test_wait_for_page (window, "report");
  section = summary_section (window);

  value = tes_ui_test_find_value_for_key (window, "SigmaStar get_op_time_cost.py");
  g_assert_nonnull (value);
  g_assert_true (g_str_has_prefix (value, path));
  g_assert_nonnull (strstr (value, "not found"));
  g_assert_cmpstr (tes_ui_test_find_value_for_key (window, "Operators"), ==, "96");
  g_assert_cmpuint (g_list_model_get_n_items (tes_summary_section_get_rows (section)), ==, 96);

  tes_ui_test_close_window (window);
}

static void
test_window_error_unknown (void)
{
  g_autofree char *path = tes_test_tmp_path ("garbage.bin");
  g_autofree char *contents = g_malloc (4096);
  TesWindow *window;

  for (guint i = 0; i < 4096; i++)
    contents[i] = (char)(g_test_rand_int () & 0xff);
  tes_test_write_file (path, contents, 4096);

  /* Sniffing runs in the loader's thread too: the window waits for it */
  g_test_expect_message ("tes-window", G_LOG_LEVEL_WARNING, "*garbage.bin*");
  window = tes_ui_test_open_window (path, NULL);
  tes_ui_test_wait_for_page (window, "error");
  g_test_assert_expected_messages ();

  g_assert_null (tes_window_get_report (window));
  g_assert_true (tes_ui_test_has_label_containing (window, "Could Not Open “garbage.bin”"));
  g_assert_true (tes_ui_test_has_label_containing (window, "not a format Tessera recognises"));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "garbage.bin");

  tes_ui_test_close_window (window);
}

/* A profile.pop cannot be read here: the window names the command that
 * exports it where the Poplar SDK is. */
static void
test_window_error_pop (void)
{
  g_autofree char *path = tes_test_tmp_path ("profile.pop");
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *out = g_build_filename (dir, "profile.tessera-pop.jsonl", NULL);
  g_autofree char *command = g_strdup_printf ("tessera-pop-export %s -o %s", path, out);
  sqlite3 *db = NULL;
  TesWindow *window;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "CREATE TABLE ipu_tiles (ipu INTEGER, tile INTEGER);", NULL, NULL, NULL),
                   ==, SQLITE_OK);
  sqlite3_close (db);

  g_test_expect_message ("tes-window", G_LOG_LEVEL_WARNING, "*profile.pop*");
  window = tes_ui_test_open_window (path, NULL);
  tes_ui_test_wait_for_page (window, "error");
  g_test_assert_expected_messages ();

  g_assert_null (tes_window_get_report (window));
  g_assert_true (tes_ui_test_has_label_containing (window, "a PopVision profile.pop"));
  g_assert_true (tes_ui_test_has_label_containing (window, command));

  tes_ui_test_close_window (window);
}

static void
test_window_error_import (void)
{
  g_autofree char *path = tes_test_tmp_path ("broken.txt");
  TesWindow *window;

  tes_test_write_file (path, "0 CONV_2D 7.880%\n1 CONV_2D 0.000%\nthis line is broken\n", -1);

  /* The importer fails in its thread; the window reports it when done */
  g_test_expect_message ("tes-window", G_LOG_LEVEL_WARNING, "*broken.txt*");
  window = tes_ui_test_open_window (path, "sigmastar-op-time");
  tes_ui_test_wait_for_page (window, "error");
  g_test_assert_expected_messages ();

  g_assert_true (tes_ui_test_has_label_containing (window, "Could Not Open “broken.txt”"));
  g_assert_true (tes_ui_test_has_label_containing (window, "broken.txt:3:"));
  g_assert_null (tes_window_get_progress (window));

  tes_ui_test_close_window (window);
}

static void
test_window_unknown_format (void)
{
  g_autofree char *src = tes_test_data_path ("yolov8s_op_time_total.txt");
  g_autofree char *path = tes_test_copy_to_tmp (src, "yolov8s_op_time_total.txt");
  TesWindow *window;

  g_test_expect_message ("tes-window", G_LOG_LEVEL_WARNING, "*Unknown format 'no-such-format'*");
  window = tes_ui_test_open_window (path, "no-such-format");
  tes_ui_test_wait_for_page (window, "error");
  g_test_assert_expected_messages ();

  g_assert_true (tes_ui_test_has_label_containing (window, "no-such-format"));

  tes_ui_test_close_window (window);
}

/* A Chrome trace large enough to take a while to import. */
static char *
write_large_trace (guint n_events)
{
  g_autofree char *path = tes_test_tmp_path ("large_trace.json");
  GString *json = g_string_new ("[\n");

  for (guint i = 0; i < n_events; i++)
    g_string_append_printf (json,
                            "{\"name\":\"op%u\",\"cat\":\"compute\",\"ph\":\"X\",\"ts\":%u,\"dur\":3,"
                            "\"pid\":1,\"tid\":%u,\"args\":{\"layer\":%u}}%s\n",
                            i % 97, i * 4, i % 8, i, i + 1 < n_events ? "," : "");
  g_string_append (json, "]\n");
  tes_test_write_file (path, json->str, json->len);
  g_string_free (json, TRUE);

  return g_steal_pointer (&path);
}

static guint
count_files_with_prefix (const char *dir_path,
                         const char *prefix)
{
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;
  guint n = 0;

  while (dir != NULL && (name = g_dir_read_name (dir)))
    n += g_str_has_prefix (name, prefix);

  return n;
}

/* Cancelling an import leaves no cache, an empty window, and a window
 * that opens the next report as usual. */
static void
test_window_cancel (void)
{
  g_autofree char *large = write_large_trace (400000);
  g_autofree char *dir = g_path_get_dirname (large);
  g_autofree char *src = tes_test_data_path ("yolov8s_op_time_each.txt");
  g_autofree char *path = tes_test_copy_to_tmp (src, "yolov8s_op_time_each.txt");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  TesProgress *progress;
  TesWindow *window;
  gint64 deadline;

  window = tes_ui_test_open_window (large, NULL);
  g_assert_cmpstr (tes_window_get_page (window), ==, "loading");

  /* Cancel once the import is under way, not before it started */
  progress = tes_window_get_progress (window);
  g_assert_nonnull (progress);
  deadline = g_get_monotonic_time () + TES_UI_TEST_WAIT_SECONDS * G_USEC_PER_SEC;
  while (tes_progress_get_fraction (progress) <= 0.0)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_assert_cmpstr (tes_window_get_page (window), ==, "loading");
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  {
    g_autofree char *message = tes_progress_dup_message (progress);

    g_test_message ("cancelled at %.3f: %s", tes_progress_get_fraction (progress), message);
  }

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.cancel", NULL));
  g_assert_cmpstr (tes_window_get_page (window), ==, "empty");
  g_assert_null (tes_window_get_file (window));
  g_assert_null (tes_window_get_progress (window));

  /* Whatever the cancelled job still delivers changes nothing */
  tes_ui_test_spin (500);
  g_assert_cmpstr (tes_window_get_page (window), ==, "empty");
  g_assert_null (tes_window_get_report (window));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "Tessera");

  /* ... and leaves no cache, not even a temporary one */
  g_assert_cmpuint (count_files_with_prefix (dir, "large_trace.json."), ==, 0);

  /* The window goes on working */
  tes_window_open (window, file, NULL);
  tes_ui_test_wait_for_page (window, "report");
  g_assert_cmpstr (tes_ui_test_find_value_for_key (window, "Operators"), ==, "96");

  tes_ui_test_close_window (window);
}

static void
test_window_close_while_loading (void)
{
  g_autofree char *src = tes_test_data_path ("yolov8s_op_time_each.txt");
  g_autofree char *path = tes_test_copy_to_tmp (src, "yolov8s_op_time_each.txt");
  TesWindow *window;

  window = tes_ui_test_open_window (path, NULL);
  g_assert_cmpstr (tes_window_get_page (window), ==, "loading");

  /* The job holds the window until its callback has run */
  gtk_window_destroy (GTK_WINDOW (window));
  tes_ui_test_spin (300);
  g_assert_finalize_object (window);
}

static void
test_window_supersede (void)
{
  g_autofree char *src_each = tes_test_data_path ("yolov8s_op_time_each.txt");
  g_autofree char *src_total = tes_test_data_path ("yolov8s_op_time_total.txt");
  g_autofree char *each = tes_test_copy_to_tmp (src_each, "yolov8s_op_time_each.txt");
  g_autofree char *total = tes_test_copy_to_tmp (src_total, "yolov8s_op_time_total.txt");
  g_autoptr(GFile) file = g_file_new_for_path (total);
  TesWindow *window;

  /* A second open while the first is running: only the second shows */
  window = tes_ui_test_open_window (each, NULL);
  tes_window_open (window, file, NULL);
  tes_ui_test_wait_for_page (window, "report");
  tes_ui_test_spin (200);

  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "yolov8s_op_time_total.txt");
  g_assert_cmpstr (tes_ui_test_find_value_for_key (window, "Operators"), ==, "12");
  g_assert_cmpuint (g_list_model_get_n_items (tes_summary_section_get_rows (summary_section (window))), ==, 12);

  tes_ui_test_close_window (window);
}

/* Opened reports go to the Open Recent menu, newest first, each once,
 * and open again from there. */
static void
test_window_recent (void)
{
  g_autofree char *src_each = tes_test_data_path ("yolov8s_op_time_each.txt");
  g_autofree char *src_total = tes_test_data_path ("yolov8s_op_time_total.txt");
  g_autofree char *each = tes_test_copy_to_tmp (src_each, "yolov8s_op_time_each.txt");
  g_autofree char *total = tes_test_copy_to_tmp (src_total, "yolov8s_op_time_total.txt");
  g_autoptr(GFile) each_file = g_file_new_for_path (each);
  g_autoptr(GFile) total_file = g_file_new_for_path (total);
  g_autoptr(GVariant) recent = NULL;
  g_autoptr(GPtrArray) buttons = NULL;
  g_autofree const char **first = NULL;
  GMenuModel *menu;
  TesWindow *window;

  window = tes_ui_test_open_window (each, NULL);
  tes_ui_test_wait_for_page (window, "report");
  tes_window_open (window, total_file, NULL);
  tes_ui_test_wait_for_page (window, "report");
  tes_window_open (window, each_file, NULL);
  tes_ui_test_wait_for_page (window, "report");

  recent = g_settings_get_value (tes_recent_get_settings (), "recent-reports");
  g_assert_cmpuint (g_variant_n_children (recent), ==, 2);
  g_variant_get_child (recent, 0, "^a&s", &first);
  g_assert_cmpstr (first[0], ==, each);

  /* the header bar's Open Recent button, not the main menu's submenu */
  buttons = tes_ui_test_find_widgets (window, GTK_TYPE_MENU_BUTTON);
  menu = NULL;
  for (guint i = 0; i < buttons->len; i++)
    if (g_strcmp0 (gtk_menu_button_get_icon_name (g_ptr_array_index (buttons, i)), "document-open-recent-symbolic") == 0)
      menu = gtk_menu_button_get_menu_model (g_ptr_array_index (buttons, i));
  g_assert_nonnull (menu);
  g_assert_cmpint (g_menu_model_get_n_items (menu), ==, 2);

  /* The second entry, the per-type listing, opens from the menu */
  {
    g_autoptr(GVariant) target = g_menu_model_get_item_attribute_value (menu, 1, G_MENU_ATTRIBUTE_TARGET, NULL);

    g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (window), "win.open-recent", target));
  }
  tes_ui_test_wait_for_page (window, "report");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "yolov8s_op_time_total.txt");

  tes_ui_test_close_window (window);
}

/* Files dropped on the window open as one report, as the Open dialog's
 * several files do. The drop is the drop target's own signal, with the
 * file list a file manager hands over. */
static void
test_window_drop (void)
{
  g_autofree char *each_src = tes_test_data_path ("yolov8s_op_time_each.txt");
  g_autofree char *total_src = tes_test_data_path ("yolov8s_op_time_total.txt");
  g_autofree char *each = tes_test_copy_to_tmp (each_src, "dropped_each.txt");
  g_autofree char *total = tes_test_copy_to_tmp (total_src, "dropped_total.txt");
  g_autoptr(GListModel) controllers = NULL;
  g_auto(GValue) value = G_VALUE_INIT;
  GtkDropTarget *target = NULL;
  GSList *files = NULL;
  TesWindow *window;
  gboolean accepted = FALSE;

  window = g_object_ref (tes_window_new (NULL));
  gtk_window_present (GTK_WINDOW (window));

  controllers = gtk_widget_observe_controllers (GTK_WIDGET (window));
  for (guint i = 0; i < g_list_model_get_n_items (controllers) && target == NULL; i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_DROP_TARGET (controller))
        target = GTK_DROP_TARGET (controller);
    }
  g_assert_nonnull (target);
  g_assert_true (gtk_drop_target_get_actions (target) & GDK_ACTION_COPY);

  files = g_slist_append (files, g_file_new_for_path (each));
  files = g_slist_append (files, g_file_new_for_path (total));
  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&value, gdk_file_list_new_from_list (files));
  g_slist_free_full (files, g_object_unref);

  g_signal_emit_by_name (target, "drop", &value, 10.0, 10.0, &accepted);
  g_assert_true (accepted);
  tes_ui_test_wait_for_page (window, "report");
  summary_section (window);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "dropped_each.txt (+1)");
  g_assert_cmpstr (tes_ui_test_find_value_for_key (window, "Operators"), ==, "108");

  tes_ui_test_close_window (window);
}

int
main (int    argc,
      char **argv)
{
  tes_ui_test_init (&argc, &argv);

  tes_ui_test_add ("/tes/window/report", test_window_report);
  tes_ui_test_add ("/tes/window/total-only", test_window_total_only);
  tes_ui_test_add ("/tes/window/several-files", test_window_several_files);
  tes_ui_test_add ("/tes/window/folder-of-ranks", test_window_folder_of_ranks);
  tes_ui_test_add ("/tes/window/summary-per-step", test_window_summary_per_step);
  tes_ui_test_add ("/tes/window/cache-without-source", test_window_cache_without_source);
  tes_ui_test_add ("/tes/window/recent", test_window_recent);
  tes_ui_test_add ("/tes/window/error-unknown", test_window_error_unknown);
  tes_ui_test_add ("/tes/window/error-import", test_window_error_import);
  tes_ui_test_add ("/tes/window/error-pop", test_window_error_pop);
  tes_ui_test_add ("/tes/window/unknown-format", test_window_unknown_format);
  tes_ui_test_add ("/tes/window/drop", test_window_drop);
  tes_ui_test_add ("/tes/window/cancel", test_window_cancel);
  tes_ui_test_add ("/tes/window/close-while-loading", test_window_close_while_loading);
  tes_ui_test_add ("/tes/window/supersede", test_window_supersede);

  return tes_ui_test_run ();
}
