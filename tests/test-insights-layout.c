/* test-insights-layout.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "tes-insights-layout.h"
#include "tes-insights-render.h"
#include "tes-report-loader.h"
#include "tes-sections.h"
#include "tes-test-pixels.h"
#include "tes-test-util.h"
#include "test-insights-util.h"

/* The Insights section's pure half: its rows against `tessera-cli insights
 * --json` on the same files (rank order, kind, sentence, cost and share
 * as the JSON's numbers give them, evidence and target naming the JSON's
 * figures), on a Poplar run from gen-poplar-tiles.py with tiles over the
 * limit and hot tiles planted, and on a real PyTorch profiler trace
 * (tests/data/kineto); the page it renders, in process and through
 * `tessera-cli render --view insights`. */

static TesReport *
open_files (const char * const *paths)
{
  g_autoptr(TesReportLoader) loader = tes_report_loader_new ();
  g_autoptr(GError) error = NULL;
  TesReport *report;

  for (guint i = 0; paths[i] != NULL; i++)
    tes_report_loader_add_file (loader, paths[i]);
  report = tes_report_loader_load (loader, NULL, &error);
  g_assert_no_error (error);

  return report;
}

static JsonArray *
cli_findings (const char * const *paths,
              JsonParser         *parser)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_auto(TesCliResult) r = { 0 };

  g_ptr_array_add (argv, (gpointer)g_getenv ("TESSERA_CLI"));
  g_ptr_array_add (argv, (gpointer)"insights");
  g_ptr_array_add (argv, (gpointer)"--json");
  for (guint i = 0; paths[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer)paths[i]);
  g_ptr_array_add (argv, NULL);
  tes_test_run ((const char * const *)argv->pdata, &r.out, &r.err, &r.status);
  g_assert_cmpint (r.status, ==, 0);
  json_parser_load_from_data (parser, r.out, -1, &error);
  g_assert_no_error (error);

  return json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "findings");
}

/* 1234567 → "1,234,567", written here apart from tes_format_grouped() */
static char *
grouped (gint64 value)
{
  g_autofree char *digits = g_strdup_printf ("%" G_GINT64_FORMAT, value < 0 ? -value : value);
  GString *out = g_string_new (value < 0 ? "-" : "");
  gsize n = strlen (digits);

  for (gsize i = 0; i < n; i++)
    {
      if (i > 0 && (n - i) % 3 == 0)
        g_string_append_c (out, ',');
      g_string_append_c (out, digits[i]);
    }

  return g_string_free (out, FALSE);
}

/* The cost as the JSON's number and unit say it is printed. */
static char *
expected_cost (double      cost,
               const char *unit)
{
  g_autofree char *number = NULL;

  if (g_str_equal (unit, "ns"))
    return fabs (cost) >= 1e6 ? g_strdup_printf ("%.3f ms", cost / 1e6)
         : fabs (cost) >= 1e3 ? g_strdup_printf ("%.3f µs", cost / 1e3)
         : g_strdup_printf ("%.0f ns", cost);
  if (g_str_equal (unit, "percent"))
    return g_strdup_printf ("%.1f %%", cost);
  number = grouped ((gint64)llround (cost));
  if (g_str_equal (unit, "bytes"))
    return g_strdup_printf ("%s %s", number, cost == 1 ? "byte" : "bytes");
  if (g_str_equal (unit, "cycles"))
    return g_strdup_printf ("%s %s", number, cost == 1 ? "cycle" : "cycles");
  return g_strdup_printf ("%s %s", number, cost == 1 ? "tile" : "tiles");
}

/* Every row against the JSON finding of its rank. Returns the kinds seen,
 * space-separated. */
static char *
assert_rows_match (GPtrArray *rows,
                   JsonArray *findings)
{
  g_autoptr(GString) kinds = g_string_new (NULL);

  g_assert_cmpuint (rows->len, ==, json_array_get_length (findings));
  g_assert_cmpuint (rows->len, >, 0);
  for (guint i = 0; i < rows->len; i++)
    {
      const TesInsightRow *row = g_ptr_array_index (rows, i);
      JsonObject *f = json_array_get_object_element (findings, i);
      JsonObject *target = json_object_get_object_member (f, "target");
      JsonObject *evidence = json_object_get_object_member (f, "evidence");
      g_autofree char *cost = expected_cost (json_object_get_double_member (f, "cost"),
                                             json_object_get_string_member (f, "cost_unit"));
      g_autofree char *share = g_strdup_printf ("%.1f %% share", json_object_get_double_member (f, "share_percent"));
      g_autofree char *rank = g_strdup_printf ("Finding %u, ", i + 1);
      GType section = tes_sections_lookup (json_object_get_string_member (target, "view"), NULL);
      g_autofree char *show = NULL;
      g_autoptr(GList) keys = json_object_get_members (evidence);

      /* in rank order, the CLI's findings one for one */
      g_assert_cmpuint (row->rank, ==, i + 1);
      g_assert_cmpint (json_object_get_int_member (f, "rank"), ==, i + 1);
      g_assert_cmpstr (tes_insight_kind_get_name (row->insight->kind), ==, json_object_get_string_member (f, "kind"));
      g_assert_cmpstr (row->sentence, ==, json_object_get_string_member (f, "sentence"));
      g_assert_cmpstr (row->cost, ==, cost);
      g_assert_cmpstr (row->share, ==, share);

      /* every whole top-level figure of the evidence, grouped */
      for (GList *k = keys; k != NULL; k = k->next)
        {
          JsonNode *node = json_object_get_member (evidence, k->data);

          if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64 &&
              !g_str_has_suffix (k->data, "_ns"))
            {
              g_autofree char *figure = grouped (json_node_get_int (node));
              g_autofree char *key = g_strdelimit (g_strdup (k->data), "_", ' ');
              g_autofree char *pair = g_strdup_printf ("%s %s", key, figure);

              tes_test_assert_contains (row->evidence, pair);
            }
        }

      /* where it is seen: the section's title and what is selected */
      g_assert_true (section != G_TYPE_INVALID);
      show = g_strdup_printf ("Show in %s", tes_section_type_get_title (section));
      g_assert_cmpstr (row->show_label, ==, show);
      g_assert_true (g_str_has_prefix (row->target, tes_section_type_get_title (section)));
      if (!json_object_get_null_member (target, "ipu"))
        {
          g_autofree char *ipu = g_strdup_printf ("IPU %" G_GINT64_FORMAT, json_object_get_int_member (target, "ipu"));

          tes_test_assert_contains (row->target, ipu);
        }
      if (!json_object_get_null_member (target, "tile"))
        {
          g_autofree char *tile = g_strdup_printf ("tile %" G_GINT64_FORMAT, json_object_get_int_member (target, "tile"));

          tes_test_assert_contains (row->target, tile);
        }
      if (!json_object_get_null_member (target, "step"))
        {
          g_autofree char *step = g_strdup_printf ("step %" G_GINT64_FORMAT, json_object_get_int_member (target, "step"));

          tes_test_assert_contains (row->target, step);
        }
      if (!json_object_get_null_member (target, "lane"))
        tes_test_assert_contains (row->target, json_object_get_string_member (target, "lane"));

      /* what screen readers hear: all of it */
      g_assert_true (g_str_has_prefix (row->accessible, rank));
      tes_test_assert_contains (row->accessible, row->cost);
      tes_test_assert_contains (row->accessible, row->sentence);
      tes_test_assert_contains (row->accessible, row->target);

      g_string_append_printf (kinds, "%s%s", i ? " " : "", json_object_get_string_member (f, "kind"));
    }

  return g_string_free (g_steal_pointer (&kinds), FALSE);
}

/* "N findings, costliest first: a in Memory, b in BSP and tiles…" as the
 * JSON's areas count them. */
static void
assert_headline (GPtrArray *insights,
                 JsonArray *findings)
{
  static const char * const areas[] = { "memory", "bsp", "execution", "compare" };
  g_autofree char *headline = tes_insights_layout_headline (insights);
  g_autoptr(GString) expected = g_string_new (NULL);
  guint n = json_array_get_length (findings);

  g_string_printf (expected, "%u %s, costliest first: ", n, n == 1 ? "finding" : "findings");
  for (guint a = 0, listed = 0; a < G_N_ELEMENTS (areas); a++)
    {
      guint count = 0;

      for (guint i = 0; i < n; i++)
        count += g_str_equal (json_object_get_string_member (json_array_get_object_element (findings, i), "area"),
                              areas[a]);
      if (count > 0)
        g_string_append_printf (expected, "%s%u in %s", listed++ ? ", " : "", count, tes_insights_area_title (areas[a]));
    }
  g_assert_cmpstr (headline, ==, expected->str);
}

static GPtrArray *
compute (TesReport *report)
{
  TesInsightThresholds thresholds;
  g_autoptr(GError) error = NULL;
  GPtrArray *insights;

  tes_insight_thresholds_init (&thresholds);
  insights = tes_insights_compute (report, NULL, &thresholds, NULL, &error);
  g_assert_no_error (error);

  return insights;
}

static void
test_insights_layout_poplar (void)
{
  g_auto(GStrv) paths = generate_insights_run ("insights-poplar", TRUE);
  g_autoptr(TesReport) report = open_files ((const char * const *)paths);
  g_autoptr(GPtrArray) insights = compute (report);
  g_autoptr(GPtrArray) rows = tes_insights_layout_rows (insights);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonArray *findings = cli_findings ((const char * const *)paths, parser);
  g_autofree char *kinds = assert_rows_match (rows, findings);
  const TesInsightRow *first = g_ptr_array_index (rows, 0);
  gboolean hot = FALSE;

  /* the planted tiles over the limit come first (share 100: it does not fit) */
  g_assert_cmpstr (tes_insight_kind_get_name (first->insight->kind), ==, "tiles-over-limit");
  g_assert_cmpstr (first->area, ==, "Memory");
  {
    g_autofree char *head = g_strdup_printf ("%s · %s · Memory", first->cost, first->share);

    g_assert_cmpstr (first->head, ==, head);
  }
  g_assert_true (g_str_has_prefix (first->target, "Memory: IPU "));
  /* and the planted busy tiles are the hot ones, named in the evidence */
  for (guint i = 0; i < rows->len; i++)
    {
      const TesInsightRow *row = g_ptr_array_index (rows, i);

      if (row->insight->kind != TES_INSIGHT_HOT_TILES)
        continue;
      hot = TRUE;
      g_assert_cmpstr (row->area, ==, "BSP and tiles");
      tes_test_assert_contains (row->evidence, "\nhot tiles:\n  • ipu ");
      g_assert_true (strstr (row->evidence, "tile 5, busy cycles") != NULL ||
                     strstr (row->evidence, "tile 17, busy cycles") != NULL);
      tes_test_assert_contains (row->target, "Tile Balance: IPU ");
    }
  g_assert_true (hot);
  assert_headline (insights, findings);
  g_test_message ("poplar: %s", kinds);
}

static void
test_insights_layout_kineto (void)
{
  g_autofree char *src = tes_test_data_path ("kineto/mi250_minitoy_train_ROCm6_2_kineto.json.gz");
  g_autofree char *path = tes_test_copy_to_tmp (src, "mi250_minitoy_train_ROCm6_2_kineto.json.gz");
  const char *paths[] = { path, NULL };
  g_autoptr(TesReport) report = open_files (paths);
  g_autoptr(GPtrArray) insights = compute (report);
  g_autoptr(GPtrArray) rows = tes_insights_layout_rows (insights);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonArray *findings = cli_findings (paths, parser);
  g_autofree char *kinds = assert_rows_match (rows, findings);

  assert_headline (insights, findings);
  g_test_message ("kineto: %s", kinds);
}

/* A finding's evidence, every kind of value: figures grouped, times and
 * shares with units, lists' first items then how many more. */
static void
test_insights_layout_evidence (void)
{
  g_autoptr(GVariantBuilder) list = g_variant_builder_new (G_VARIANT_TYPE ("aa{sv}"));
  g_auto(GVariantBuilder) ev = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE_VARDICT);
  g_autoptr(GVariant) evidence = NULL;
  g_autofree char *text = NULL;

  for (int i = 0; i < 5; i++)
    {
      g_auto(GVariantBuilder) item = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE_VARDICT);

      g_variant_builder_add (&item, "{sv}", "start_ns", g_variant_new_int64 (2000000 + i));
      g_variant_builder_add (&item, "{sv}", "dur_ns", g_variant_new_int64 (400000));
      g_variant_builder_add (list, "a{sv}", &item);
    }
  g_variant_builder_add (&ev, "{sv}", "unit", g_variant_new_string ("stream 7"));
  g_variant_builder_add (&ev, "{sv}", "idle_ns", g_variant_new_int64 (1250000));
  g_variant_builder_add (&ev, "{sv}", "gaps", g_variant_new_int64 (12345));
  g_variant_builder_add (&ev, "{sv}", "share_percent", g_variant_new_double (12.34));
  g_variant_builder_add (&ev, "{sv}", "ratio", g_variant_new_double (1.8333));
  g_variant_builder_add (&ev, "{sv}", "largest", g_variant_builder_end (list));
  evidence = g_variant_ref_sink (g_variant_builder_end (&ev));

  text = tes_insights_evidence_text (evidence);
  g_assert_cmpstr (text, ==,
                   "unit stream 7, idle 1.250 ms, gaps 12,345, share 12.3 %, ratio 1.83\n"
                   "largest:\n"
                   "  • start 2.000 ms, dur 400.000 µs\n"
                   "  • start 2.000 ms, dur 400.000 µs\n"
                   "  • start 2.000 ms, dur 400.000 µs\n"
                   "  (+2 more)");
}

/* `tessera-cli render --view insights` draws with the section's own code:
 * its PNG is the in-process render row for row; the first finding's bar
 * is as long as its share. */
static void
test_insights_render (void)
{
  g_auto(GStrv) paths = generate_insights_run ("insights-poplar", TRUE);
  g_autoptr(TesReport) report = open_files ((const char * const *)paths);
  g_autoptr(TesWorkspace) workspace = tes_workspace_new (report);
  g_autoptr(GPtrArray) insights = compute (report);
  const TesInsight *first = g_ptr_array_index (insights, 0);
  g_autofree char *png = tes_test_tmp_path ("insights.png");
  g_autoptr(GError) error = NULL;
  g_auto(TesCliResult) r = { 0 };
  cairo_surface_t *expected, *got;
  cairo_t *cr;
  guint bar;

  expected = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 900, 700);
  cr = cairo_create (expected);
  g_assert_true (tes_section_type_render (tes_sections_lookup ("insights", NULL), workspace, NULL, cr, 900, 700, &error));
  g_assert_no_error (error);
  cairo_destroy (cr);

  tes_test_run_cli (&r, "render", "--view", "insights", "--width", "900", "--height", "700", "-o", png,
                    paths[0], paths[1], paths[2], NULL);
  g_assert_cmpint (r.status, ==, 0);
  got = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (got), ==, CAIRO_STATUS_SUCCESS);
  g_assert_true (tes_test_same_rows (expected, 0, got, 0, 700));

  /* the first finding's bar (Memory's purple, 8 px high) over its share
   * of 120 px; no other row is a memory finding above the second row */
  g_assert_cmpstr (tes_insight_kind_get_area (first->kind), ==, "memory");
  bar = tes_test_count_pixels (expected, 0, 110, TES_TEST_PIXEL_EQUAL, tes_insights_area_color ("memory"));
  g_assert_cmpuint (bar, ==, 8 * (guint)llround (120 * CLAMP (first->share, 0, 100) / 100));

  cairo_surface_destroy (expected);
  cairo_surface_destroy (got);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  tes_test_add (TES_TEST_OWN_DATA, "/tes/insights-layout/poplar", test_insights_layout_poplar);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/insights-layout/kineto", test_insights_layout_kineto);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/insights-layout/evidence", test_insights_layout_evidence);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/insights-layout/render", test_insights_render);

  return g_test_run ();
}
