/* test-summary.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "tes-importer-registry.h"
#include "tes-report-loader.h"
#include "tes-share-chart-layout.h"
#include "tes-summary-layout.h"
#include "tes-summary-render.h"
#include "tes-test-pixels.h"
#include "tes-test-util.h"

/* The Summary section's pure half: facts, operator rows, filter, export
 * and the page it renders, on the SigmaStar listings in tests/data. */

static TesReport *
open_listing_at (const char *path)
{
  g_autoptr(TesReportLoader) loader = tes_report_loader_new ();
  g_autoptr(GError) error = NULL;
  TesReport *report;

  tes_report_loader_add_file (loader, path);
  report = tes_report_loader_load (loader, NULL, &error);
  g_assert_no_error (error);

  return report;
}

static TesReport *
open_listing (const char *name,
              char      **copy_path)
{
  g_autofree char *src = tes_test_data_path (name);
  g_autofree char *path = tes_test_copy_to_tmp (src, name);
  TesReport *report = open_listing_at (path);

  if (copy_path)
    *copy_path = g_steal_pointer (&path);

  return report;
}

static const TesSummaryFact *
find_fact (GPtrArray  *facts,
           const char *heading,
           const char *key)
{
  for (guint i = 0; i < facts->len; i++)
    {
      const TesSummaryFact *fact = g_ptr_array_index (facts, i);

      if (g_str_equal (fact->heading, heading) && g_str_equal (fact->key, key))
        return fact;
    }

  return NULL;
}

static void
test_summary_facts (void)
{
  g_autofree char *path = NULL;
  g_autoptr(TesReport) report = open_listing ("yolov8s_op_time_each.txt", &path);
  g_autoptr(TesWorkspace) workspace = tes_workspace_new (report);
  g_autoptr(GPtrArray) facts = tes_summary_collect_facts (workspace);
  g_autoptr(TesReport) shared = NULL;
  g_autoptr(TesWorkspace) shared_workspace = NULL;
  g_autoptr(GPtrArray) shared_facts = NULL;
  g_autoptr(TesReportLoader) loader = NULL;
  g_autoptr(GError) error = NULL;
  const TesSummaryFact *fact;

  fact = find_fact (facts, "Files", "SigmaStar get_op_time_cost.py");
  g_assert_nonnull (fact);
  g_assert_cmpstr (fact->value, ==, path);
  g_assert_cmpint (fact->kind, ==, TES_SUMMARY_FACT_PATH);

  fact = find_fact (facts, "Totals", "Operators");
  g_assert_nonnull (fact);
  g_assert_cmpstr (fact->value, ==, "96");
  g_assert_null (find_fact (facts, "Totals", "Slices"));
  g_assert_null (find_fact (facts, "Totals", "Duration"));

  /* The cache alone, its source gone: it still opens, and says so */
  g_assert_cmpint (g_unlink (path), ==, 0);
  loader = tes_report_loader_new ();
  tes_report_loader_add_file (loader, tes_report_get_cache_path (report));
  shared = tes_report_loader_load (loader, NULL, &error);
  g_assert_no_error (error);
  shared_workspace = tes_workspace_new (shared);
  shared_facts = tes_summary_collect_facts (shared_workspace);
  fact = find_fact (shared_facts, "Files", "SigmaStar get_op_time_cost.py");
  g_assert_nonnull (fact);
  g_assert_cmpint (fact->kind, ==, TES_SUMMARY_FACT_MISSING_PATH);
  g_assert_true (g_str_has_prefix (fact->value, path));
  g_assert_cmpstr (find_fact (shared_facts, "Totals", "Operators")->value, ==, "96");
}

/* The Summary's facts are the report's, not the importer's bookkeeping:
 * a Chrome trace's parse_pieces stays for `tessera-cli info` (scripts
 * and tests read it) and is not listed; its counts are grouped. */
static void
test_summary_internal_facts (void)
{
  g_autofree char *path = tes_test_copy_fixture (TES_TEST_OWN_DATA, "qaic/opstats_trace_mini.json");
  g_autoptr(TesReport) report = open_listing_at (path);
  g_autoptr(TesWorkspace) workspace = tes_workspace_new (report);
  g_autoptr(GPtrArray) facts = tes_summary_collect_facts (workspace);
  g_autofree char *pieces = tes_report_lookup_info (report, "parse_pieces");

  g_assert_cmpstr (pieces, ==, "1 of 1");
  g_assert_nonnull (find_fact (facts, "Report", "Flavour"));
  for (guint i = 0; i < facts->len; i++)
    {
      const TesSummaryFact *fact = g_ptr_array_index (facts, i);

      g_assert_cmpstr (fact->key, !=, "Parse pieces");
      g_assert_cmpstr (fact->value, !=, pieces);
    }
}

/* Info keys are labelled in the vendor's words: acronyms stay acronyms
 * ("target.tiles_per_ipu" is "Tiles per IPU", "target.ipus" "IPUs"). */
static void
test_summary_fact_labels (void)
{
  g_autofree char *src = tes_test_data_path ("poplar/compile_report_small.txt");
  g_autofree char *path = tes_test_copy_to_tmp (src, "compile_report_small.txt");
  g_autoptr(TesReport) report = open_listing_at (path);
  g_autoptr(TesWorkspace) workspace = tes_workspace_new (report);
  g_autoptr(GPtrArray) facts = tes_summary_collect_facts (workspace);

  g_assert_nonnull (find_fact (facts, "Target", "IPUs"));
  g_assert_nonnull (find_fact (facts, "Target", "Tiles per IPU"));
  g_assert_null (find_fact (facts, "Target", "Ipus"));
  for (guint i = 0; i < facts->len; i++)
    {
      const TesSummaryFact *fact = g_ptr_array_index (facts, i);

      g_assert_null (strstr (fact->key, "ipu"));
      g_assert_null (strstr (fact->key, "Ipu"));
    }
}

/* A Poplar text report's facts read as the tool printed them: the figure
 * kept as printed (key.printed) in place of its number, and neither the
 * .printed row nor the parts read out of it (approx µs, share) listed
 * apart. tests/poplar-report-figures.py reads all of them in
 * test-poplar-report; here the Summary's side of a few. */
static void
test_summary_printed_facts (void)
{
  g_autofree char *src = tes_test_data_path ("poplar/profile_summary_sdk3_stdout.txt");
  g_autofree char *path = tes_test_copy_to_tmp (src, "profile_summary_sdk3_stdout.txt");
  g_autoptr(TesReport) report = open_listing_at (path);
  g_autoptr(TesWorkspace) workspace = tes_workspace_new (report);
  g_autoptr(GPtrArray) facts = tes_summary_collect_facts (workspace);
  static const struct {
    const char *heading;
    const char *key;
    const char *value;
  } printed[] = {
    { "Target", "Tiles per IPU", "1,472" },
    { "Target", "Memory per tile", "624.0 kB" },
    { "Target", "Clock", "1,850.0 MHz" },
    { "Graph", "Edges", "16,256" },
    { "Memory", "Including gaps", "20,971,520 B" },
    { "Memory · data type", "Total after overlapping", "104,448 B" },
    { "Memory", "Vertex code", "612,352 B" },
    { "Memory · data type · not overlapped", "Variables", "1,082,880 B" },
    { "Memory · vertex code · type", "poplin::ConvPartial1x1Out<float,float,true,false> (asm)", "142,336 B" },
    { "Memory · region", "Non-interleaved", "4,828,032 B" },
    { "Memory · by tile", "Maximum including gaps", "22,796 (22.3 K) on tile 0" },
    { "Execution", "Total cycles", "1,206,442 (approx 652.1 microseconds)" },
    { "Execution", "Tile average host exchange cycles", "977,218.0 (81.0% of total)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (printed); i++)
    {
      const TesSummaryFact *fact = find_fact (facts, printed[i].heading, printed[i].key);

      g_assert_nonnull (fact);
      g_assert_cmpstr (fact->value, ==, printed[i].value);
    }

  g_assert_null (find_fact (facts, "Execution · total cycles", "Printed"));
  g_assert_null (find_fact (facts, "Execution · total cycles", "Approx us"));
  g_assert_null (find_fact (facts, "Execution · tile average host exchange cycles", "Share"));
  g_assert_null (find_fact (facts, "Memory · by tile · maximum including gaps", "K"));
  g_assert_null (find_fact (facts, "Memory · vertex code · type · poplin::ConvPartial1x1Out<float,float,true,false> (asm)",
                            "Language"));
  /* the run's length in cycles, as many as the report's total (not read
   * back through ns, which lost two) */
  g_assert_cmpstr (find_fact (facts, "Totals", "Duration")->value, ==, "1,206,442 cycles");
  /* a figure printed as stored is listed once, as it is */
  g_assert_cmpstr (find_fact (facts, "Target", "IPUs")->value, ==, "1");
}

static void
test_summary_rows_and_filter (void)
{
  g_autoptr(TesReport) report = open_listing ("yolov8s_op_time_each.txt", NULL);
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TesOperatorFilter) conv = NULL;
  g_autoptr(TesOperatorFilter) regex = NULL;
  g_autoptr(TesOperatorFilter) all = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *unit = NULL;
  TesSummaryMode mode;
  guint n_conv = 0, n_regex = 0, expected_conv = 0;

  rows = tes_summary_load_rows (report, &mode, &error);
  g_assert_no_error (error);
  g_assert_cmpint (mode, ==, TES_SUMMARY_EACH);
  g_assert_cmpuint (rows->len, ==, 96);

  /* count the lines naming CONV_2D in the listing itself */
  {
    g_autofree char *src = tes_test_data_path ("yolov8s_op_time_each.txt");
    g_auto(GStrv) lines = NULL;

    g_assert_true (g_file_get_contents (src, &contents, NULL, NULL));
    lines = g_strsplit (contents, "\n", -1);
    for (guint i = 0; lines[i]; i++)
      expected_conv += strstr (lines[i], " CONV_2D ") != NULL;
  }

  conv = tes_operator_filter_new ("conv_2d", &error);
  g_assert_no_error (error);
  regex = tes_operator_filter_new ("/^(SOFTMAX|TRANSPOSE)$/", &error);
  g_assert_no_error (error);
  all = tes_operator_filter_new ("", &error);
  for (guint i = 0; i < rows->len; i++)
    {
      const TesSummaryRow *row = g_ptr_array_index (rows, i);

      n_conv += tes_operator_filter_match (conv, row);
      n_regex += tes_operator_filter_match (regex, row);
      g_assert_true (tes_operator_filter_match (all, row));
    }
  g_assert_cmpuint (n_conv, ==, expected_conv);
  g_assert_cmpuint (n_regex, ==, 6);   /* 1 SOFTMAX, 5 TRANSPOSE */

  g_assert_null (tes_operator_filter_new ("/(unclosed/", &error));
  g_assert_error (error, G_REGEX_ERROR, G_REGEX_ERROR_UNMATCHED_PARENTHESIS);

  /* the listing gives shares, no times: the unit is the base one */
  unit = tes_summary_total_unit (report, g_ptr_array_index (rows, 0));
  g_assert_cmpstr (unit, ==, "ns");
}

static void
test_summary_sort (void)
{
  TesSummaryRow a = { .op_index = 3, .name = (char *)"b", .type = (char *)"CONV", .share = 10.0, .total = 5, .count = -1 };
  TesSummaryRow b = { .op_index = 7, .name = (char *)"a", .type = (char *)"ADD", .share = NAN, .total = -1, .count = 2 };

  g_assert_cmpint (tes_summary_compare_rows (&a, &b, TES_OPERATOR_COLUMN_INDEX), <, 0);
  g_assert_cmpint (tes_summary_compare_rows (&a, &b, TES_OPERATOR_COLUMN_NAME), >, 0);
  g_assert_cmpint (tes_summary_compare_rows (&a, &b, TES_OPERATOR_COLUMN_TYPE), >, 0);
  /* unknown values sort first */
  g_assert_cmpint (tes_summary_compare_rows (&a, &b, TES_OPERATOR_COLUMN_SHARE), >, 0);
  g_assert_cmpint (tes_summary_compare_rows (&b, &a, TES_OPERATOR_COLUMN_SHARE), <, 0);
  g_assert_cmpint (tes_summary_compare_rows (&a, &b, TES_OPERATOR_COLUMN_TOTAL), >, 0);
  g_assert_cmpint (tes_summary_compare_rows (&a, &b, TES_OPERATOR_COLUMN_COUNT), <, 0);
  g_assert_cmpint (tes_summary_compare_rows (&a, &a, TES_OPERATOR_COLUMN_SHARE), ==, 0);
}

static void
test_summary_export (void)
{
  TesSummaryRow quoted = { .op_index = 0, .name = (char *)"conv, \"fused\"", .type = (char *)"CONV_2D",
                           .label = (char *)"0 CONV_2D", .share = 12.5, .total = 1200, .count = 3 };
  TesSummaryRow unknown = { .op_index = -1, .name = (char *)"ADD", .type = (char *)"ADD",
                            .label = (char *)"ADD", .share = NAN, .total = -1, .count = -1 };
  const TesSummaryRow *rows[] = { &quoted, &unknown };
  TesSummaryTotalShown cycles = { TES_TIME_UNIT_CYCLES, 1 };
  g_autofree char *csv = tes_summary_rows_to_csv (rows, 2, "cycles");
  g_autofree char *text = tes_summary_rows_to_text (rows, 2, &cycles);

  g_assert_cmpstr (csv, ==,
                   "index,name,type,share_percent,total_cycles,count\r\n"
                   "0,\"conv, \"\"fused\"\"\",CONV_2D,12.500,1200,3\r\n"
                   ",ADD,ADD,,,\r\n");
  g_assert_cmpstr (text, ==,
                   "#\tName\tType\tShare\tTotal (cycles)\tCount\n"
                   "0\tconv, \"fused\"\tCONV_2D\t12.500 %\t1,200\t3\n"
                   "\tADD\tADD\t\t\t\n");
}

/* The Total column shows a readable unit, named in its header, and every
 * figure grouped as Tile Balance groups them: a PyTorch trace's totals
 * (ns) in ms, with the figures read back against the rows' own ns. */
/* The share chart leaves out what prints as 0.000 %: ops of a PyTorch
 * trace that launched no kernel of their own (aten::linear, aten::empty). */
static void
test_summary_chart_rows (void)
{
  g_autofree char *path = tes_test_copy_fixture (TES_TEST_OWN_DATA, "kineto/written_old_names.json");
  g_autoptr(TesReport) report = open_listing_at (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) rows = tes_report_summarize_run (report, 0, TES_SUMMARY_TOTAL, TES_GROUP_BY_CATEGORY, &error);
  guint printed_zero = 0;
  guint n;

  g_assert_no_error (error);
  g_assert_nonnull (rows);
  n = tes_summary_chart_rows (rows, G_MAXUINT);

  for (guint i = 0; i < rows->len; i++)
    {
      const TesSummaryRow *row = g_ptr_array_index (rows, i);
      g_autofree char *shown = g_strdup_printf ("%.3f", row->share);
      gboolean zero = g_str_equal (shown, "0.000");

      printed_zero += zero;
      /* the chart's rows are the leading ones, none of them printed as zero */
      g_assert_true (zero == (i >= n));
    }
  g_assert_cmpuint (printed_zero, >=, 1);
  g_assert_cmpuint (n, ==, rows->len - printed_zero);
  g_assert_cmpuint (tes_summary_chart_rows (rows, 2), ==, 2);
  g_assert_cmpuint (tes_summary_chart_rows (NULL, 8), ==, 0);
}

static void
test_summary_total_unit (void)
{
  g_autofree char *path = tes_test_copy_fixture (TES_TEST_OWN_DATA, "kineto/nccl_data.json.gz");
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = open_listing_at (path);
  g_autoptr(GPtrArray) rows = NULL;
  TesSummaryTotalShown shown;
  gint64 largest = 0;
  guint checked = 0;

  rows = tes_summary_load_rows (report, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, >, 10);

  shown = tes_summary_total_shown (report, (const TesSummaryRow * const *)rows->pdata, rows->len);
  for (guint i = 0; i < rows->len; i++)
    largest = MAX (largest, ((const TesSummaryRow *)g_ptr_array_index (rows, i))->total);
  /* 46,876,493 ns of record_param_comms: milliseconds */
  g_assert_cmpint (largest, >=, 1000000);
  g_assert_cmpint (shown.unit, ==, TES_TIME_UNIT_MS);

  for (guint i = 0; i < rows->len; i++)
    {
      const TesSummaryRow *row = g_ptr_array_index (rows, i);
      g_autofree char *cell = tes_summary_format_cell (row, TES_OPERATOR_COLUMN_TOTAL, &shown);
      g_autofree char *count = tes_summary_format_cell (row, TES_OPERATOR_COLUMN_COUNT, &shown);
      g_autofree char *digits = NULL;
      char *point;

      if (row->total < 0)
        continue;
      /* "46,876.493" is 46876.493 ms, the row's ns to the microsecond */
      point = strchr (cell, '.');
      g_assert_nonnull (point);
      g_assert_cmpint (strlen (point), ==, 4);
      for (const char *c = cell; *c; c++)
        g_assert_true (g_ascii_isdigit (*c) || *c == '.' || *c == ',');
      digits = g_strdup (cell);
      g_strdelimit (digits, ",", ' ');
      {
        g_autoptr(GString) plain = g_string_new (NULL);

        for (const char *c = digits; *c; c++)
          if (*c != ' ')
            g_string_append_c (plain, *c);
        g_assert_cmpfloat_with_epsilon (g_ascii_strtod (plain->str, NULL), row->total / 1e6, 0.0005 + 1e-9);
      }
      /* groups of three: no run of four digits before the point */
      for (const char *c = cell; c + 3 < point; c++)
        g_assert_false (g_ascii_isdigit (c[0]) && g_ascii_isdigit (c[1]) && g_ascii_isdigit (c[2]) &&
                        g_ascii_isdigit (c[3]));
      if (row->count >= 1000)
        g_assert_nonnull (strchr (count, ','));
      checked++;
    }
  g_assert_cmpuint (checked, >, 10);

  /* the column's header names the unit */
  {
    g_autofree char *text = tes_summary_rows_to_text ((const TesSummaryRow * const *)rows->pdata, 1, &shown);

    tes_test_assert_contains (text, "\tTotal (ms)\t");
  }
}

static void
test_summary_render (void)
{
  g_autoptr(TesReport) report = open_listing ("yolov8s_op_time_each.txt", NULL);
  g_autoptr(TesWorkspace) workspace = tes_workspace_new (report);
  g_autoptr(GPtrArray) types = NULL;
  g_autoptr(GError) error = NULL;
  cairo_surface_t *surface;
  const TesSummaryRow *first, *second;
  const char *names[2];
  double shares[2];
  guint slots[2];
  guint first_px, second_px;
  cairo_t *cr;

  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 1200, 900);
  cr = cairo_create (surface);
  g_assert_true (tes_summary_render (workspace, cr, 1200, 900, &error));
  g_assert_no_error (error);
  cairo_destroy (cr);
  cairo_surface_flush (surface);

  types = tes_report_summarize (report, TES_SUMMARY_TOTAL, TES_GROUP_BY_CATEGORY, &error);
  g_assert_no_error (error);
  first = g_ptr_array_index (types, 0);
  second = g_ptr_array_index (types, 1);
  names[0] = first->type;
  names[1] = second->type;
  shares[0] = first->share;
  shares[1] = second->share;
  tes_share_chart_assign_colors (names, shares, 2, slots);

  first_px = tes_test_count_pixels (surface, 0, 900, TES_TEST_PIXEL_EQUAL, tes_share_chart_palette[slots[0]]);
  second_px = tes_test_count_pixels (surface, 0, 900, TES_TEST_PIXEL_EQUAL, tes_share_chart_palette[slots[1]]);
  g_test_message ("%s: %u px, %s: %u px", first->type, first_px, second->type, second_px);
  g_assert_cmpuint (second_px, >, 0);
  /* bars of one height: their areas go as their shares (80.7 vs 8.0) */
  g_assert_cmpfloat (fabs ((double)first_px / second_px - first->share / second->share), <,
                     0.15 * first->share / second->share);

  cairo_surface_destroy (surface);
}

/* `tessera-cli render` draws with the section's own code: its PNG is the
 * in-process render pixel for pixel; SVG and PDF come out as vectors. */
static void
test_summary_cli_render (void)
{
  g_autofree char *path = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(TesWorkspace) workspace = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *png = tes_test_tmp_path ("summary.png");
  g_autofree char *svg = tes_test_tmp_path ("summary.svg");
  g_autofree char *pdf = tes_test_tmp_path ("summary.pdf");
  g_autofree char *bad = tes_test_tmp_path ("summary.bmp");
  g_autofree char *head = NULL;
  g_auto(TesCliResult) r = { 0 };
  cairo_surface_t *expected, *got;
  cairo_t *cr;
  gsize len;

  /* both renders see a reused cache, so both say so */
  report = open_listing ("yolov8s_op_time_each.txt", &path);
  g_clear_object (&report);
  report = open_listing_at (path);
  workspace = tes_workspace_new (report);

  tes_test_run_cli (&r, "render", "--width", "900", "--height", "700", "-o", png, path, NULL);
  g_assert_cmpint (r.status, ==, 0);
  got = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (got), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (got), ==, 900);
  g_assert_cmpint (cairo_image_surface_get_height (got), ==, 700);

  expected = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 900, 700);
  cr = cairo_create (expected);
  g_assert_true (tes_summary_render (workspace, cr, 900, 700, &error));
  g_assert_no_error (error);
  cairo_destroy (cr);
  cairo_surface_flush (expected);

  g_assert_true (tes_test_same_rows (expected, 0, got, 0, 700));
  cairo_surface_destroy (expected);
  cairo_surface_destroy (got);

  tes_test_run_cli (&r, "render", "--view", "Summary", "--out", svg, path, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_file_get_contents (svg, &head, &len, NULL));
  g_assert_nonnull (strstr (head, "<svg"));
  g_assert_nonnull (strstr (head, "width=\"1200\""));
  g_clear_pointer (&head, g_free);

  tes_test_run_cli (&r, "render", "-o", pdf, path, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_file_get_contents (pdf, &head, &len, NULL));
  g_assert_true (g_str_has_prefix (head, "%PDF-"));
  g_assert_cmpuint (len, >, 2000);

  /* what the user got wrong is named */
  tes_test_run_cli (&r, "render", "--view", "flames", "-o", png, path, NULL);
  g_assert_cmpint (r.status, ==, 2);
  tes_test_assert_contains (r.err, "no view 'flames'; views: insights, summary");
  tes_test_run_cli (&r, "render", "-o", bad, path, NULL);
  g_assert_cmpint (r.status, ==, 2);
  tes_test_assert_contains (r.err, "must end in .png, .svg or .pdf");
  tes_test_run_cli (&r, "render", path, NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_false (g_file_test (bad, G_FILE_TEST_EXISTS));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tes_test_add (TES_TEST_OWN_DATA, "/tes/summary/facts", test_summary_facts);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/summary/fact-labels", test_summary_fact_labels);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/summary/printed-facts", test_summary_printed_facts);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/summary/rows-and-filter", test_summary_rows_and_filter);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/summary/sort", test_summary_sort);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/summary/export", test_summary_export);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/summary/total-unit", test_summary_total_unit);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/summary/chart-rows", test_summary_chart_rows);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/summary/internal-facts", test_summary_internal_facts);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/summary/render", test_summary_render);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/summary/cli-render", test_summary_cli_render);

  return g_test_run ();
}
