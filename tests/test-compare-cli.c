/* test-compare-cli.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <cairo.h>

#include "tes-compare-render.h"
#include "tes-compare-section.h"
#include "tes-importer-registry.h"
#include "tes-insights.h"
#include "tes-test-pixels.h"
#include "tes-test-util.h"
#include "test-poplar-util.h"

/* tessera-cli compare --summary: two runs as a whole, as text between the
 * header and the operators, or as CSV records; tessera-cli render
 * --compare: two runs drawn one above the other. */

/* The line of @text that starts with @prefix. */
static char *
line_starting (const char *text,
               const char *prefix)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], prefix))
      return g_strdup (lines[i]);

  g_error ("No line starting with '%s' in:\n%s", prefix, text);
}

/* A Torq timeline and a copy with its depthwise_conv2d (1800 cycles)
 * 50 % slower: both count cycles of one clock, so the summary does too,
 * and the extra 900 cycles show in the total and the type's share; the
 * operator table and the gate work as without --summary. */
static void
test_compare_cli_summary (void)
{
  g_autofree char *src = tes_test_data_path ("torq/timeline_v1.csv");
  g_autofree char *a = tes_test_copy_to_tmp (src, "timeline_a.csv");
  g_autofree char *b = tes_test_tmp_path ("timeline_b.csv");
  g_autofree char *text = NULL;
  g_autofree char *total = NULL;
  g_autofree char *slice = NULL;
  g_autofree char *operator = NULL;
  g_autoptr(GString) slower = NULL;
  g_auto(TesCliResult) r = { 0 };
  g_auto(GStrv) csv = NULL;

  g_assert_true (g_file_get_contents (a, &text, NULL, NULL));
  slower = g_string_new (text);
  g_assert_cmpuint (g_string_replace (slower, "S4,4200,6000,", "S4,4200,6900,", 1), ==, 1);
  tes_test_write_file (b, slower->str, slower->len);

  tes_test_run_cli (&r, "compare", "--summary", "--fail-if-slower", "20", a, b, NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_cmpstr (r.err, ==, "tessera-cli: depthwise_conv2d got slower by 50.0 %\n");
  tes_test_assert_contains (r.out, "In cycles at 100 MHz");
  total = line_starting (r.out, "Operators' time");
  tes_test_assert_contains (total, "+900 cycles");
  slice = line_starting (r.out, "slice ");
  tes_test_assert_contains (slice, " %");
  /* the summary comes before the operators, which follow as ever */
  g_assert_true (strstr (r.out, "Share by type") < strstr (r.out, "Operator "));
  operator = line_starting (r.out, "depthwise_conv2d");
  tes_test_assert_contains (operator, "900 cycles");
  tes_test_assert_contains (operator, "+50.0");

  tes_test_run_cli (&r, "compare", "--summary", "--csv", a, b, NULL);
  g_assert_cmpint (r.status, ==, 0);
  csv = g_strsplit (r.out, "\n", -1);
  g_assert_cmpstr (csv[0], ==, "record,name,unit,a,b,delta,delta_percent");
  g_assert_true (g_str_has_prefix (csv[1], "total,,cycles,"));
  tes_test_assert_contains (csv[1], ",900.000,");
  /* a share's Δ is in points, without a percent of it */
  tes_test_assert_contains (r.out, "\nshare,slice,percent,");
  g_assert_null (strstr (r.out, "CONV"));
}

/* Two generated Poplar compile reports with their listings (no
 * operators): the tiles that went over their limit and came back are
 * the truths'. */
static void
test_compare_cli_memory (void)
{
  g_auto(Generated) ga = { 0 };
  g_auto(Generated) gb = { 0 };
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  g_auto(TesCliResult) r = { 0 };
  JsonArray *tiles;
  gint64 limit_a, limit_b;
  guint newly = 0, no_longer = 0;

  generate_seeded (&ga, TES_TEST_OWN_DATA, 7);
  generate_seeded (&gb, TES_TEST_OWN_DATA, 8);
  a = g_strdup_printf ("%s/compile_report.txt,%s/archive_size.txt", ga.dir, ga.dir);
  b = g_strdup_printf ("%s/compile_report.txt,%s/archive_size.txt", gb.dir, gb.dir);
  limit_a = json_object_get_int_member (ga.truth, "tile_memory_bytes");
  limit_b = json_object_get_int_member (gb.truth, "tile_memory_bytes");

  /* without --summary, runs without operators cannot compare */
  tes_test_run_cli (&r, "compare", a, b, NULL);
  g_assert_cmpint (r.status, ==, 2);
  tes_test_assert_contains (r.err, "no operators");

  tes_test_run_cli (&r, "compare", "--summary", "--csv", a, b, NULL);
  g_assert_cmpint (r.status, ==, 0);
  tiles = truth_tiles (&ga);
  for (guint i = 0; i < json_array_get_length (tiles); i++)
    {
      JsonObject *ta = json_array_get_object_element (tiles, i);
      JsonObject *tb = json_array_get_object_element (truth_tiles (&gb), i);
      gint64 bytes_a = json_object_get_int_member (ta, "total");
      gint64 bytes_b = json_object_get_int_member (tb, "total");
      g_autofree char *record = NULL;

      g_assert_cmpint (json_object_get_int_member (ta, "ipu"), ==, json_object_get_int_member (tb, "ipu"));
      g_assert_cmpint (json_object_get_int_member (ta, "tile"), ==, json_object_get_int_member (tb, "tile"));
      record = g_strdup_printf ("%s,%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT ",bytes,%" G_GINT64_FORMAT ".000,%"
                                G_GINT64_FORMAT ".000,",
                                bytes_b > limit_b && bytes_a <= limit_a ? "newly_out" : "no_longer_out",
                                json_object_get_int_member (ta, "ipu"), json_object_get_int_member (ta, "tile"),
                                bytes_a, bytes_b);
      if (bytes_b > limit_b && bytes_a <= limit_a)
        newly++;
      else if (bytes_a > limit_a && bytes_b <= limit_b)
        no_longer++;
      else
        {
          g_assert_null (strstr (r.out, record));
          continue;
        }
      tes_test_assert_contains (r.out, record);
    }
  g_assert_cmpuint (newly, >, 0);
  g_assert_cmpuint (no_longer, >, 0);

  tes_test_run_cli (&r, "compare", "--summary", a, b, NULL);
  g_assert_cmpint (r.status, ==, 0);
  tes_test_assert_contains (r.out, "Newly out of memory:");
  tes_test_assert_contains (r.out, "No longer out of memory:");
  g_assert_null (strstr (r.out, "Share by type"));
}

static cairo_surface_t *
render_png (const char *name,
            ...)
{
  g_autofree char *out = tes_test_tmp_path (name);
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_auto(TesCliResult) r = { 0 };
  const char *arg;
  cairo_surface_t *surface;
  va_list ap;

  g_ptr_array_add (args, (gpointer)g_getenv ("TESSERA_CLI"));
  va_start (ap, name);
  while ((arg = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (args, (gpointer)arg);
  va_end (ap);
  g_ptr_array_add (args, (gpointer)"--out");
  g_ptr_array_add (args, out);
  g_ptr_array_add (args, NULL);

  tes_test_run ((const char * const *)args->pdata, &r.out, &r.err, &r.status);
  if (r.status != 0)
    g_error ("render failed (%d): %s", r.status, r.err);
  surface = cairo_image_surface_create_from_png (out);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);

  return surface;
}

/* Two generated runs' traces one above the other: each half under a strip
 * with its name, A's half the very pixels of A drawn alone at that size,
 * B's with slices of its own; SVG and PDF too. The same for the memory
 * of two compile reports with their listings. */
static void
test_compare_cli_render (void)
{
  g_auto(Generated) ga = { 0 };
  g_auto(Generated) gb = { 0 };
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  g_autofree char *b_memory = NULL;
  g_autofree char *svg = tes_test_tmp_path ("compare.svg");
  g_autofree char *pdf = tes_test_tmp_path ("compare.pdf");
  g_autofree char *text = NULL;
  g_autofree char *half_text = NULL;
  gsize len = 0;
  g_auto(TesCliResult) r = { 0 };
  const int width = 900, height = 700, half = height / 2, body = half - TES_COMPARE_RENDER_LABEL_HEIGHT;
  cairo_surface_t *both, *alone, *memory;

  generate_seeded (&ga, TES_TEST_OWN_DATA, 7);
  generate_seeded (&gb, TES_TEST_OWN_DATA, 8);
  a = generated_path (&ga, "execution.json");
  b = generated_path (&gb, "execution.json");
  half_text = g_strdup_printf ("%d", body);

  both = render_png ("compare.png", "render", "--view", "trace", "--width", "900", "--height", "700",
                     a, "--compare", b, NULL);
  g_assert_cmpint (cairo_image_surface_get_height (both), ==, height);
  alone = render_png ("alone.png", "render", "--view", "trace", "--width", "900", "--height", half_text, a, NULL);

  /* the strips hold their names' text */
  for (int top = 0; top <= half; top += half)
    {
      g_assert_cmpuint (tes_test_count_pixels (both, top + 2, top + TES_COMPARE_RENDER_LABEL_HEIGHT - 2,
                                               TES_TEST_PIXEL_UNLIKE, 0xe8e8e8), >, 100);
      g_assert_cmpuint (tes_test_count_pixels (both, top + TES_COMPARE_RENDER_LABEL_HEIGHT, top + half,
                                               TES_TEST_PIXEL_COLOURED, 0), >,
                        (guint)(width * body / 20));
    }
  g_assert_true (tes_test_same_rows (both, TES_COMPARE_RENDER_LABEL_HEIGHT, alone, 0, body));
  /* and B is not A again */
  g_assert_false (tes_test_same_rows (both, half + TES_COMPARE_RENDER_LABEL_HEIGHT, alone, 0, body));
  cairo_surface_destroy (both);
  cairo_surface_destroy (alone);

  tes_test_run_cli (&r, "render", "--view", "trace", "--out", svg, a, "--compare", b, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_file_get_contents (svg, &text, &len, NULL));
  g_assert_true (g_str_has_prefix (text, "<?xml"));
  tes_test_assert_contains (text, "<svg");
  g_clear_pointer (&text, g_free);
  tes_test_run_cli (&r, "render", "--view", "trace", "--out", pdf, a, "--compare", b, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_file_get_contents (pdf, &text, &len, NULL));
  g_assert_cmpuint (len, >, 1000);
  g_assert_true (g_str_has_prefix (text, "%PDF-"));
  g_assert_nonnull (g_strrstr_len (text + len - MIN (len, 32), MIN (len, 32), "%%EOF"));

  /* memory: both runs' tiles drawn */
  b_memory = g_strdup_printf ("%s/compile_report.txt,%s/archive_size.txt", gb.dir, gb.dir);
  {
    g_autofree char *report = generated_path (&ga, "compile_report.txt");
    g_autofree char *listing = generated_path (&ga, "archive_size.txt");

    memory = render_png ("memory.png", "render", "--view", "memory-tiles", "--width", "900", "--height", "700",
                         report, listing, "--compare", b_memory, NULL);
  }
  for (int top = 0; top <= half; top += half)
    {
      g_assert_cmpuint (tes_test_count_pixels (memory, top + 2, top + TES_COMPARE_RENDER_LABEL_HEIGHT - 2,
                                               TES_TEST_PIXEL_UNLIKE, 0xe8e8e8), >, 100);
      g_assert_cmpuint (tes_test_count_pixels (memory, top + TES_COMPARE_RENDER_LABEL_HEIGHT, top + half,
                                               TES_TEST_PIXEL_COLOURED, 0), >,
                        (guint)(width * body / 20));
    }
  cairo_surface_destroy (memory);

  /* a run without the view's data, or that cannot be read, says which */
  {
    g_autofree char *report = generated_path (&ga, "compile_report.txt");

    tes_test_run_cli (&r, "render", "--view", "trace", "--out", svg, a, "--compare", report, NULL);
    g_assert_cmpint (r.status, ==, 1);
    tes_test_assert_contains (r.err, report);
    tes_test_run_cli (&r, "render", "--view", "trace", "--out", svg, a, "--compare", "/nonexistent/b.json", NULL);
    g_assert_cmpint (r.status, ==, 1);
    tes_test_assert_contains (r.err, "/nonexistent/b.json");
  }
}

/* The Compare section's numbers: one unit per table, the one that keeps
 * the largest readable, the digits grouped (the C locale's ','), no
 * "-0". */
static void
test_compare_layout_scale (void)
{
  TesCompareScale scale;
  g_autofree char *ns = NULL;
  g_autofree char *us = NULL;
  g_autofree char *ms = NULL;
  g_autofree char *zero = NULL;
  g_autofree char *cycles = NULL;
  g_autofree char *gain = NULL;

  g_assert_cmpstr (tes_compare_scale_choose (FALSE, TES_TIME_UNIT_NS, 9999).unit, ==, "ns");
  g_assert_cmpstr (tes_compare_scale_choose (FALSE, TES_TIME_UNIT_NS, 10000).unit, ==, "µs");
  g_assert_cmpstr (tes_compare_scale_choose (FALSE, TES_TIME_UNIT_NS, 1e7).unit, ==, "ms");
  g_assert_cmpstr (tes_compare_scale_choose (FALSE, TES_TIME_UNIT_NS, 1e10).unit, ==, "s");
  g_assert_cmpstr (tes_compare_scale_choose (TRUE, TES_TIME_UNIT_NS, 1e10).unit, ==, "%");
  g_assert_cmpstr (tes_compare_scale_choose (FALSE, TES_TIME_UNIT_CYCLES, 1e10).unit, ==, "cycles");

  scale = tes_compare_scale_choose (FALSE, TES_TIME_UNIT_NS, 1234);
  ns = tes_compare_scale_format (&scale, 1234, FALSE);
  g_assert_cmpstr (ns, ==, "1,234");
  scale = tes_compare_scale_choose (FALSE, TES_TIME_UNIT_NS, 1234567);
  us = tes_compare_scale_format (&scale, 1234567, FALSE);
  g_assert_cmpstr (us, ==, "1,234.567");
  scale = tes_compare_scale_choose (FALSE, TES_TIME_UNIT_NS, 98765432109.0);
  ms = tes_compare_scale_format (&scale, -98765432109.0, TRUE);
  g_assert_cmpstr (ms, ==, "-98.765");
  zero = tes_compare_scale_format (&scale, -4e5, TRUE);
  g_assert_cmpstr (zero, ==, "0.000");
  gain = tes_compare_scale_format (&scale, 1.5e9, TRUE);
  g_assert_cmpstr (gain, ==, "+1.500");
  scale = tes_compare_scale_choose (FALSE, TES_TIME_UNIT_CYCLES, 1e7);
  cycles = tes_compare_scale_format (&scale, 12345678, FALSE);
  g_assert_cmpstr (cycles, ==, "12,345,678");
}

/* A layer's average in ms, as trtexec wrote it in @path. */
static double
layer_ms (const char *path,
          const char *name)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonArray *layers;

  g_assert_true (json_parser_load_from_file (parser, path, &error));
  g_assert_no_error (error);
  layers = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 1; i < json_array_get_length (layers); i++)
    {
      JsonObject *layer = json_array_get_object_element (layers, i);

      if (g_str_equal (json_object_get_string_member (layer, "name"), name))
        return json_object_get_double_member (layer, "averageMs");
    }

  return NAN;
}

/* Two TensorRT profiles trtexec wrote (ResNet-18 in FP16 and FP32): every
 * layer of both shows the profile's own average, in µs as the header says,
 * and the runs' totals are the sums of their layers. */
static void
test_compare_layout_tensorrt (void)
{
  g_autofree char *a_path = tes_test_data_path ("tensorrt/resnet.fp16.profile.json");
  g_autofree char *b_path = tes_test_data_path ("tensorrt/resnet.fp32.profile.json");
  TesImporter *importer = tes_importer_registry_lookup ("tensorrt-profile");
  g_autoptr(TesReport) a = tes_test_import (a_path, importer);
  g_autoptr(TesReport) b = tes_test_import (b_path, importer);
  g_autoptr(TesCompareModel) model = NULL;
  g_autoptr(GPtrArray) lines = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *title = NULL;
  double a_sum = 0, b_sum = 0;
  guint both = 0;
  gboolean total_seen = FALSE;

  model = tes_compare_model_new (a, b, NULL, &error);
  g_assert_no_error (error);
  title = tes_compare_column_title (model, TES_COMPARE_COLUMN_B);
  g_assert_cmpstr (title, ==, "B (µs)");

  for (guint i = 0; i < model->comparison->rows->len; i++)
    {
      const TesCompareRow *row = &g_array_index (model->comparison->rows, TesCompareRow, i);
      const char *name = (row->a ? row->a : row->b)->name;
      double ms[2] = { layer_ms (a_path, name), layer_ms (b_path, name) };

      for (guint side = 0; side < 2; side++)
        {
          g_autofree char *text = tes_compare_cell_text (model, row, side == 0 ? TES_COMPARE_COLUMN_A
                                                                              : TES_COMPARE_COLUMN_B);
          g_autofree char *expected = isnan (ms[side]) ? g_strdup ("—") : g_strdup_printf ("%.3f", ms[side] * 1000);

          g_assert_cmpstr (text, ==, expected);
        }
      a_sum += isnan (ms[0]) ? 0 : ms[0];
      b_sum += isnan (ms[1]) ? 0 : ms[1];
      both += !isnan (ms[0]) && !isnan (ms[1]);
    }
  g_assert_cmpuint (both, >, 20);

  /* the totals, grouped: 1,016.832 µs and 2,123.776 µs */
  lines = tes_compare_overview_lines (model);
  for (guint i = 0; i < lines->len; i++)
    {
      const TesCompareLine *line = g_ptr_array_index (lines, i);
      g_autofree char *a_total = NULL;
      g_autofree char *b_total = NULL;

      if (line->kind != TES_COMPARE_LINE_ROW || !g_str_equal (line->cells[0], "Operators’ time"))
        continue;
      a_total = tes_format_grouped_fixed (a_sum * 1000, 3);
      b_total = tes_format_grouped_fixed (b_sum * 1000, 3);
      g_assert_cmpstr (line->cells[TES_COMPARE_COLUMN_A], ==, a_total);
      g_assert_cmpstr (line->cells[TES_COMPARE_COLUMN_B], ==, b_total);
      g_assert_nonnull (strchr (a_total, ','));
      g_assert_cmpint (line->cost, >, 0);
      total_seen = TRUE;
    }
  g_assert_true (total_seen);
}

/* A Poplar report's trace (PopART, two IPUs) names its rows after their
 * IPU: the Operator column adds each row's type, so that no two rows read
 * alike and each says its IPU and its step type. */
static void
test_compare_layout_names (void)
{
  g_autofree char *path = tes_test_data_path ("poplar/summary_report_sdk2_popart_2ipus.txt");
  g_autoptr(TesReport) report = tes_test_import (path, tes_importer_registry_lookup ("poplar-report"));
  g_autoptr(TesCompareModel) model = NULL;
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GError) error = NULL;

  model = tes_compare_model_new (report, report, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (model->comparison->rows->len, >, 2);
  for (guint i = 0; i < model->comparison->rows->len; i++)
    {
      const TesCompareRow *row = &g_array_index (model->comparison->rows, TesCompareRow, i);
      char *name = tes_compare_cell_text (model, row, TES_COMPARE_COLUMN_OPERATOR);
      g_autofree char *expected = g_strdup_printf ("%s · %s", row->a->name, row->a->type);

      g_assert_true (g_str_has_prefix (row->a->name, "IPU "));
      g_assert_cmpstr (name, ==, expected);
      g_assert_true (g_hash_table_add (seen, name));
    }
}

/* The two runs' findings (the render's room for them depends on them). */
static GPtrArray *
findings_of (const char *a,
             const char *b)
{
  TesImporter *importer = tes_importer_registry_lookup ("chrome-json");
  g_autoptr(TesReport) a_report = tes_test_import (a, importer);
  g_autoptr(TesReport) b_report = tes_test_import (b, importer);
  g_autoptr(GError) error = NULL;
  GPtrArray *insights = tes_insights_compute_two_runs (a_report, b_report, NULL, NULL, &error);

  g_assert_no_error (error);
  return insights;
}

/* `render A --compare B` draws the Compare section as the compare window
 * shows it: both traces in the upper half (A's the very pixels of its
 * trace drawn alone), the tabs' strip, the operators' table below; the
 * compare view needs a second run. */
static void
test_compare_cli_render_section (void)
{
  g_auto(Generated) ga = { 0 };
  g_auto(Generated) gb = { 0 };
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  g_autofree char *body_text = NULL;
  g_auto(TesCliResult) r = { 0 };
  g_autoptr(GPtrArray) insights = NULL;
  const int width = 900, height = 700;
  TesCompareGeometry geometry;
  cairo_surface_t *section, *alone;
  int body;

  generate_seeded (&ga, TES_TEST_OWN_DATA, 7);
  generate_seeded (&gb, TES_TEST_OWN_DATA, 8);
  a = generated_path (&ga, "execution.json");
  b = generated_path (&gb, "execution.json");
  insights = findings_of (a, b);
  tes_compare_layout_geometry (height, TRUE, insights, &geometry);
  g_assert_cmpfloat (geometry.traces_height, ==, height / 2);
  body = (int)geometry.traces_height / 2 - TES_COMPARE_RENDER_LABEL_HEIGHT;
  body_text = g_strdup_printf ("%d", body);

  section = render_png ("section.png", "render", "--width", "900", "--height", "700", a, "--compare", b, NULL);
  alone = render_png ("alone.png", "render", "--view", "trace", "--width", "900", "--height", body_text, a, NULL);
  g_assert_true (tes_test_same_rows (section, TES_COMPARE_RENDER_LABEL_HEIGHT, alone, 0, body));
  g_assert_cmpuint (tes_test_count_pixels (section, (int)geometry.traces_height / 2 + TES_COMPARE_RENDER_LABEL_HEIGHT,
                                           (int)geometry.traces_height, TES_TEST_PIXEL_COLOURED, 0), >,
                    (guint)(width * body / 20));
  /* the tabs' strip right below the traces, then the table's header and rows */
  g_assert_cmpuint (tes_test_count_pixels (section, (int)geometry.bar_y, (int)geometry.bar_y + 2,
                                           TES_TEST_PIXEL_EQUAL, 0xe8e8e8), >, (guint)(2 * width * 9 / 10));
  /* the Operators tab shown: its darker box, a tab's width and height */
  g_assert_cmpuint (tes_test_count_pixels (section, (int)geometry.bar_y + 4, (int)geometry.bar_y + TES_COMPARE_BAR_HEIGHT - 4,
                                           TES_TEST_PIXEL_EQUAL, 0xd8d8d8), >, 50 * (TES_COMPARE_BAR_HEIGHT - 8));
  for (guint line = 0; line < 3; line++)
    {
      int top = (int)(geometry.table_y + line * geometry.row_height);

      g_assert_cmpuint (tes_test_count_pixels (section, top, top + (int)geometry.row_height,
                                               TES_TEST_PIXEL_UNLIKE, 0xffffff), >, 100);
    }
  /* the very pixels the section's own render draws in-process */
  {
    TesImporter *importer = tes_importer_registry_lookup ("chrome-json");
    g_autoptr(TesReport) a_report = tes_test_import (a, importer);
    g_autoptr(TesReport) b_report = tes_test_import (b, importer);
    g_autoptr(TesWorkspace) wa = tes_workspace_new (a_report);
    g_autoptr(TesWorkspace) wb = tes_workspace_new (b_report);
    cairo_surface_t *in_process = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
    cairo_t *cr = cairo_create (in_process);
    g_autoptr(GError) error = NULL;

    tes_workspace_set_time_unit (wb, tes_workspace_get_time_unit (wa));
    tes_workspace_link (wa, wb);
    g_assert_true (tes_section_type_has_data (TES_TYPE_COMPARE_SECTION, wa));
    g_assert_true (tes_section_type_render (TES_TYPE_COMPARE_SECTION, wa, NULL, cr, width, height, &error));
    g_assert_no_error (error);
    cairo_destroy (cr);
    cairo_surface_flush (in_process);
    g_assert_true (tes_test_same_rows (section, 0, in_process, 0, height));
    cairo_surface_destroy (in_process);
  }
  cairo_surface_destroy (section);
  cairo_surface_destroy (alone);

  tes_test_run_cli (&r, "render", "--view", "compare", "--out", "x.png", a, NULL);
  g_assert_cmpint (r.status, ==, 2);
  tes_test_assert_contains (r.err, "--compare");
}

/* The findings' line and rows of `render A --compare B`: between the
 * traces and the tabs, the first finding's share drawn as a bar of the
 * two-runs colour as long as its share; a run against itself: the one
 * quiet line, nothing else in the findings' room, no bar. */
static void
test_compare_cli_render_findings (void)
{
  g_autofree char *gen = g_test_build_filename (G_TEST_DIST, "gen-compare-runs.py", NULL);
  g_autofree char *src = tes_test_data_path ("kineto/nccl_data.json.gz");
  g_autofree char *a = tes_test_tmp_path ("render-findings-a.json");
  g_autofree char *b = tes_test_tmp_path ("render-findings-b.json");
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *argv[] = { g_getenv ("PYTHON3"), gen, "kineto", src, a, b, NULL };
  const int width = 1000, height = 1000;
  TesImporter *importer = tes_importer_registry_lookup ("chrome-json");
  g_autoptr(TesReport) a_report = NULL;
  g_autoptr(TesReport) b_report = NULL;
  g_autoptr(GPtrArray) insights = NULL;
  g_autoptr(GError) error = NULL;
  const TesInsight *first;
  TesCompareGeometry geometry;
  cairo_surface_t *section, *same;
  int status = -1, bar_top, bar_width;
  guint red;

  if (!tes_test_run (argv, &out, &err, &status) || status != 0)
    g_error ("gen-compare-runs.py failed (%d): %s", status, err);
  a_report = tes_test_import (a, importer);
  b_report = tes_test_import (b, importer);
  insights = tes_insights_compute_two_runs (a_report, b_report, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (insights->len, >=, 3);
  first = g_ptr_array_index (insights, 0);
  tes_compare_layout_geometry (height, TRUE, insights, &geometry);
  g_assert_cmpfloat (geometry.findings_y, ==, geometry.traces_height);
  g_assert_cmpfloat (geometry.bar_y, ==, geometry.findings_y + geometry.findings_height);
  /* their line, two of them (a line of evidence each), the line that counts the rest */
  g_assert_cmpfloat (geometry.findings_height, ==, 2 * TES_COMPARE_FINDINGS_LINE + 2 * TES_COMPARE_FINDING_HEIGHT);

  section = render_png ("findings.png", "render", "--view", "compare", "--width", "1000", "--height", "1000",
                        a, "--compare", b, NULL);
  /* the line: text */
  g_assert_cmpuint (tes_test_count_pixels (section, (int)geometry.findings_y + 4,
                                           (int)geometry.findings_y + TES_COMPARE_FINDINGS_LINE - 4,
                                           TES_TEST_PIXEL_UNLIKE, 0xffffff), >, 300);
  /* the first finding's bar (8 pixels high, 120 wide at 100 %), red as the
   * Insights page draws the two runs' findings, nowhere else in the picture */
  bar_top = (int)geometry.findings_y + TES_COMPARE_FINDINGS_LINE + 4;
  bar_width = (int)floor (120 * first->share / 100);
  red = tes_test_count_pixels (section, bar_top, bar_top + 8, TES_TEST_PIXEL_EQUAL, 0xe01b24);
  g_assert_cmpuint (red, >=, (guint)(8 * bar_width));
  g_assert_cmpuint (red, <=, (guint)(8 * (bar_width + 1)));
  /* the second's bar below it, in the findings' room */
  g_assert_cmpuint (tes_test_count_pixels (section, bar_top + 16, (int)geometry.bar_y,
                                           TES_TEST_PIXEL_EQUAL, 0xe01b24), >=, 8);
  /* then the tabs' strip, below the findings */
  g_assert_cmpuint (tes_test_count_pixels (section, (int)geometry.bar_y, (int)geometry.bar_y + 2,
                                           TES_TEST_PIXEL_EQUAL, 0xe8e8e8), >, (guint)(2 * width * 9 / 10));

  /* A against itself: the quiet line alone */
  same = render_png ("same.png", "render", "--view", "compare", "--width", "1000", "--height", "1000",
                     a, "--compare", a, NULL);
  tes_compare_layout_geometry (height, TRUE, NULL, &geometry);
  g_assert_cmpfloat (geometry.findings_height, ==, TES_COMPARE_FINDINGS_LINE);
  g_assert_cmpuint (tes_test_count_pixels (same, (int)geometry.findings_y + 4,
                                           (int)geometry.findings_y + TES_COMPARE_FINDINGS_LINE - 4,
                                           TES_TEST_PIXEL_UNLIKE, 0xffffff), >, 300);
  g_assert_cmpuint (tes_test_count_pixels (same, (int)geometry.findings_y, (int)geometry.bar_y,
                                           TES_TEST_PIXEL_EQUAL, 0xe01b24), ==, 0);
  g_assert_cmpuint (tes_test_count_pixels (same, (int)geometry.bar_y, (int)geometry.bar_y + 2,
                                           TES_TEST_PIXEL_EQUAL, 0xe8e8e8), >, (guint)(2 * width * 9 / 10));

  cairo_surface_destroy (section);
  cairo_surface_destroy (same);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tes_test_add (TES_TEST_OWN_DATA, "/tes/compare-cli/summary", test_compare_cli_summary);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/compare-cli/memory", test_compare_cli_memory);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/compare-cli/render", test_compare_cli_render);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/compare-cli/render-section", test_compare_cli_render_section);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/compare-cli/render-findings", test_compare_cli_render_findings);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/compare-cli/layout-scale", test_compare_layout_scale);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/compare-cli/layout-tensorrt", test_compare_layout_tensorrt);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/compare-cli/layout-names", test_compare_layout_names);

  return g_test_run ();
}
