/* test-compare-cli.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <cairo.h>

#include "tes-compare-render.h"
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

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tes_test_add (TES_TEST_OWN_DATA, "/tes/compare-cli/summary", test_compare_cli_summary);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/compare-cli/memory", test_compare_cli_memory);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/compare-cli/render", test_compare_cli_render);

  return g_test_run ();
}
