/* test-memory-view.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "tes-importer-registry.h"
#include "tes-memory-render.h"
#include "tes-test-pixels.h"
#include "tes-test-util.h"
#include "test-poplar-util.h"

/* The Memory section's pure half, on a generated Poplar run (its report
 * and `size -A` listing): the tiles, their stacks, the histogram as the
 * report prints it, the tiles over the limit and the heaviest, and the
 * page it draws. */

static TesReport *
open_generated_seeded (Generated *g,
                       guint      seed)
{
  g_autofree char *compile = NULL;
  g_autofree char *listing = NULL;
  g_autoptr(GError) error = NULL;
  TesReport *report;

  generate_seeded (g, TES_TEST_OWN_DATA, seed);
  compile = generated_path (g, "compile_report.txt");
  listing = generated_path (g, "archive_size.txt");
  {
    const char *paths[] = { compile, listing };
    TesImporter *importers[] = { tes_importer_registry_lookup ("poplar-report"),
                                 tes_importer_registry_lookup ("poplar-size-listing") };

    report = tes_report_import_files (paths, importers, 2, 0, NULL, NULL, &error);
  }
  g_assert_no_error (error);

  return report;
}

static TesReport *
open_generated (Generated *g)
{
  return open_generated_seeded (g, 7);
}

static void
test_memory_model (void)
{
  g_auto(Generated) g = { 0 };
  g_autoptr(TesReport) report = open_generated (&g);
  g_autoptr(TesMemoryModel) model = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *tiles = truth_tiles (&g);
  JsonObject *histogram = json_object_get_object_member (g.truth, "histogram");
  JsonArray *counts = json_object_get_array_member (histogram, "counts");
  JsonArray *shown = json_object_get_array_member (histogram, "shown");
  JsonArray *top = json_object_get_array_member (g.truth, "top_tiles");
  gint64 width_kb = json_object_get_int_member (histogram, "width_kb");
  gint64 start_kb = json_object_get_int_member (histogram, "start_kb");

  model = tes_memory_model_new (report, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (model->tiles->len, ==, json_array_get_length (tiles));
  g_assert_cmpint (model->limit, ==, json_object_get_int_member (g.truth, "tile_memory_bytes"));
  g_assert_cmpuint (model->n_over, ==, json_object_get_int_member (g.truth, "out_of_memory"));

  /* every tile's stack adds up to its bytes, and to the truth's */
  for (guint t = 0; t < model->tiles->len; t++)
    {
      const TesTile *tile = &g_array_index (model->tiles, TesTile, t);
      JsonObject *truth = json_array_get_object_element (tiles, tile->ipu * (guint)json_object_get_int_member (g.truth, "tiles_per_ipu") + tile->tile);
      gint64 sum = 0;

      for (guint k = 0; k < model->categories->len; k++)
        sum += tes_memory_model_get_bytes (model, t, k);
      g_assert_cmpint (sum, ==, tile->total_bytes);
      g_assert_cmpint (tile->total_bytes, ==, json_object_get_int_member (truth, "total"));
    }

  /* the report's histogram, bin for bin, and the tiles agree with it */
  g_assert_true (model->printed);
  g_assert_cmpuint (model->mismatches->len, ==, 0);
  g_assert_cmpuint (model->histogram->len, ==, json_array_get_length (shown));
  for (guint i = 0; i < model->histogram->len; i++)
    {
      const TesTileHistogramBin *bin = &g_array_index (model->histogram, TesTileHistogramBin, i);
      gint64 index = json_array_get_int_element (shown, i);
      g_autoptr(GArray) in_bin = tes_memory_model_tiles_in (model, bin);

      g_assert_cmpint (bin->lower, ==, (start_kb + index * width_kb) * 1024);
      g_assert_cmpint (bin->tiles, ==, json_array_get_int_element (counts, index));
      g_assert_cmpuint (in_bin->len, ==, bin->tiles);
    }

  /* the heaviest, as the truth ranks them */
  g_assert_cmpuint (model->heaviest->len, ==, 5);
  for (guint i = 0; i < json_array_get_length (top) && i < 5; i++)
    {
      JsonObject *truth = json_array_get_object_element (tiles, json_array_get_int_element (top, i));
      const TesTile *tile = &g_array_index (model->heaviest, TesTile, i);

      g_assert_cmpint (tile->ipu, ==, json_object_get_int_member (truth, "ipu"));
      g_assert_cmpint (tile->tile, ==, json_object_get_int_member (truth, "tile"));
    }
}

/* The page: a click on a bin's row finds that bin; the tiles over the
 * limit are marked in red above their bars. */
/* A text report alone (the SDK 2.x PopART summary of two IPUs): every
 * tile of its Target at its memory limit, no tile's bytes, so its printed
 * histogram is shown unchecked (no "disagrees" warning for want of bytes)
 * with its Maximum and out-of-memory lines as they stand in the file. */
static void
test_memory_report_alone (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = open_copy (TES_TEST_OWN_DATA, "poplar/summary_report_sdk2_popart_2ipus.txt",
                                           "poplar-report", &error);
  g_autoptr(TesMemoryModel) model = NULL;
  g_autofree char *source = tes_test_data_path ("poplar/summary_report_sdk2_popart_2ipus.txt");
  g_autofree char *text = NULL;
  guint n_notes;

  g_assert_no_error (error);
  model = tes_memory_model_new (report, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (model->tiles->len, ==, 0);
  g_assert_cmpuint (model->n_all, ==, 2 * 1472);
  g_assert_cmpint (model->limit, ==, 624 * 1024);
  g_assert_true (model->printed);
  g_assert_cmpuint (model->mismatches->len, ==, 0);

  /* the first histogram's three lines under its rows, each a line of the
   * file but for its indentation */
  g_assert_true (g_file_get_contents (source, &text, NULL, NULL));
  g_assert_nonnull (model->printed_notes);
  n_notes = g_strv_length (model->printed_notes);
  g_assert_cmpuint (n_notes, ==, 3);
  g_assert_true (g_str_has_prefix (model->printed_notes[0], "Maximum (Including Gaps): "));
  g_assert_true (g_str_has_prefix (model->printed_notes[1], "Maximum (Excluding Gaps): "));
  g_assert_true (g_str_has_suffix (model->printed_notes[2], " tile(s) out of memory"));
  for (guint i = 0; i < n_notes; i++)
    {
      g_autofree char *line = g_strdup_printf ("    %s\n", model->printed_notes[i]);

      tes_test_assert_contains (text, line);
    }
}

static void
test_memory_render (void)
{
  g_auto(Generated) g = { 0 };
  g_autoptr(TesReport) report = open_generated (&g);
  g_autoptr(TesMemoryModel) model = tes_memory_model_new (report, NULL);
  g_autoptr(GArray) rects = g_array_new (FALSE, FALSE, sizeof (TesMemoryBinRect));
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 1200, 800);
  cairo_t *cr = cairo_create (surface);
  double used;

  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  used = tes_memory_render_model (cr, model, TES_MEMORY_VIEW_ALL, 1200, rects);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  g_assert_cmpfloat (used, >, 300);

  g_assert_cmpuint (rects->len, ==, model->histogram->len);
  for (guint i = 0; i < rects->len; i++)
    {
      const TesMemoryBinRect *rect = &g_array_index (rects, TesMemoryBinRect, i);

      g_assert_cmpint (tes_memory_bin_at (rects, rect->x + rect->width / 2, rect->y + rect->height / 2), ==, (int)i);
    }
  g_assert_cmpint (tes_memory_bin_at (rects, -5, -5), ==, -1);

  /* red (0xc01c28) is what is over the limit: some is drawn */
  g_assert_cmpuint (tes_test_count_pixels (surface, 0, 800, TES_TEST_PIXEL_EQUAL, 0xc01c28), >, 50);

  cairo_surface_destroy (surface);
}


/* The workspace's tile in the chart of every tile: found by IPU and
 * number (the truth's tiles), drawn in the column whose tiles hold it,
 * outlined there; a click on its column selects the tile drawn there. */
static void
test_memory_selected_tile (void)
{
  g_auto(Generated) g = { 0 };
  g_autoptr(TesReport) report = open_generated (&g);
  g_autoptr(TesMemoryModel) model = tes_memory_model_new (report, NULL);
  JsonArray *tiles = truth_tiles (&g);
  cairo_surface_t *plain = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 1200, 800);
  cairo_surface_t *marked = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 1200, 800);
  cairo_surface_t *surfaces[] = { plain, marked };
  TesMemoryPlot plot = { 0 };
  const TesTile *heaviest;
  int selected;
  guint column, first, last;

  /* the columns cover the tiles in order, each tile in one */
  for (guint n = 1; n < 40; n++)
    for (guint columns = 1; columns <= n; columns++)
      for (guint i = 0, next = 0; i < n; i++)
        {
          guint c = tes_memory_tile_column (n, columns, i);

          tes_memory_column_tiles (n, columns, c, &first, &last);
          g_assert_cmpuint (first, <=, i);
          g_assert_cmpuint (i, <, last);
          g_assert_cmpuint (c, >=, next);
          next = c;
        }

  for (guint i = 0; i < json_array_get_length (tiles); i++)
    {
      JsonObject *tile = json_array_get_object_element (tiles, i);
      int ipu = (int)json_object_get_int_member (tile, "ipu"), number = (int)json_object_get_int_member (tile, "tile");
      int at = tes_memory_model_find_tile (model, ipu, number);

      g_assert_cmpint (at, >=, 0);
      g_assert_cmpint (g_array_index (model->tiles, TesTile, at).ipu, ==, ipu);
      g_assert_cmpint (g_array_index (model->tiles, TesTile, at).tile, ==, number);
    }
  g_assert_cmpint (tes_memory_model_find_tile (model, 0, -1), ==, -1);
  g_assert_cmpint (tes_memory_model_find_tile (model, 99, 0), ==, -1);

  /* the heaviest tile marked: its name on the title's line, its column
   * outlined (ink where the unmarked page has none) */
  heaviest = &g_array_index (model->heaviest, TesTile, 0);
  selected = tes_memory_model_find_tile (model, heaviest->ipu, heaviest->tile);
  for (guint s = 0; s < G_N_ELEMENTS (surfaces); s++)
    {
      cairo_t *cr = cairo_create (surfaces[s]);

      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_paint (cr);
      tes_memory_render_model_selected (cr, model, TES_MEMORY_VIEW_ALL, 1200, NULL, s == 0 ? -1 : selected, &plot);
      cairo_destroy (cr);
      cairo_surface_flush (surfaces[s]);
    }
  g_assert_cmpuint (plot.n_columns, ==, MIN (model->tiles->len, (guint)plot.width));
  column = tes_memory_tile_column (model->tiles->len, plot.n_columns, (guint)selected);
  {
    double x = plot.x + plot.width * (column + 0.5) / plot.n_columns;
    int clicked = tes_memory_model_tile_at (model, &plot, x, plot.y + plot.height / 2);

    g_assert_cmpint (clicked, >=, 0);
    g_assert_cmpuint (tes_memory_tile_column (model->tiles->len, plot.n_columns, (guint)clicked), ==, column);
    /* the heaviest is what its column draws */
    g_assert_cmpint (clicked, ==, selected);
    g_assert_cmpint (tes_memory_model_tile_at (model, &plot, plot.x - 1, plot.y + 1), ==, -1);
    g_assert_cmpint (tes_memory_model_tile_at (model, &plot, x, plot.y + plot.height + 1), ==, -1);
  }
  /* the outline's two sides run the plot's height in ink */
  g_assert_cmpuint (tes_test_count_pixels (marked, 0, 800, TES_TEST_PIXEL_EQUAL, 0x241f31),
                    >, tes_test_count_pixels (plain, 0, 800, TES_TEST_PIXEL_EQUAL, 0x241f31) + 2 * (guint)plot.height);

  cairo_surface_destroy (plain);
  cairo_surface_destroy (marked);
}

static cairo_surface_t *
render_tiles (TesWorkspace *workspace)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 900, 500);
  cairo_t *cr = cairo_create (surface);
  g_autoptr(GError) error = NULL;

  g_assert_true (tes_memory_render (workspace, TES_MEMORY_VIEW_ALL, cr, 900, 500, &error));
  g_assert_no_error (error);
  cairo_destroy (cr);

  return surface;
}

/* Two runs compared share their axes: the one with the heavier tile (or
 * the longer histogram bar) sets the top for both, so that equal bars
 * mean equal bytes; its own drawing does not change. */
static void
test_memory_shared_scales (void)
{
  g_auto(Generated) ga = { 0 };
  g_auto(Generated) gb = { 0 };
  g_autoptr(TesReport) ra = open_generated_seeded (&ga, 7);
  g_autoptr(TesReport) rb = open_generated_seeded (&gb, 8);
  g_autoptr(TesMemoryModel) a = tes_memory_model_new (ra, NULL);
  g_autoptr(TesMemoryModel) b = tes_memory_model_new (rb, NULL);
  g_autoptr(TesWorkspace) wa = tes_workspace_new (ra);
  g_autoptr(TesWorkspace) wb = tes_workspace_new (rb);
  gint64 top_a = tes_memory_model_bytes_top (a), top_b = tes_memory_model_bytes_top (b);
  gint64 count_a = tes_memory_model_count_top (a), count_b = tes_memory_model_count_top (b);
  TesWorkspace *lower, *higher;
  cairo_surface_t *lower_alone, *higher_alone, *lower_linked, *higher_linked;

  /* the two runs' heaviest tiles differ, so sharing means something */
  g_assert_cmpint (top_a, >, 0);
  g_assert_cmpint (top_a, !=, top_b);
  g_assert_cmpint (top_a, ==, MAX (a->max_bytes, a->limit));

  tes_memory_model_share_scales (a, b);
  g_assert_cmpint (tes_memory_model_bytes_top (a), ==, MAX (top_a, top_b));
  g_assert_cmpint (tes_memory_model_bytes_top (b), ==, MAX (top_a, top_b));
  g_assert_cmpint (tes_memory_model_count_top (a), ==, MAX (count_a, count_b));
  g_assert_cmpint (tes_memory_model_count_top (b), ==, MAX (count_a, count_b));

  /* drawn: the lower run's bars shrink to the shared top, the higher's stay */
  lower = top_a < top_b ? wa : wb;
  higher = top_a < top_b ? wb : wa;
  lower_alone = render_tiles (lower);
  higher_alone = render_tiles (higher);
  tes_workspace_link (wa, wb);
  lower_linked = render_tiles (lower);
  higher_linked = render_tiles (higher);
  g_assert_cmpuint (tes_test_count_differing (lower_alone, lower_linked, 0, 0, 900, 500), >, 100);
  g_assert_cmpuint (tes_test_count_pixels (lower_linked, 0, 500, TES_TEST_PIXEL_COLOURED, 0), <,
                    tes_test_count_pixels (lower_alone, 0, 500, TES_TEST_PIXEL_COLOURED, 0));
  if ((top_a < top_b ? count_b : count_a) == MAX (count_a, count_b))
    g_assert_true (tes_test_same_rows (higher_alone, 0, higher_linked, 0, 500));

  cairo_surface_destroy (lower_alone);
  cairo_surface_destroy (higher_alone);
  cairo_surface_destroy (lower_linked);
  cairo_surface_destroy (higher_linked);
}

/* Bytes as a user reads them, written here apart from the page's code:
 * KB of 1,024 grouped by commas, what is under 1 KB in bytes. */
static char *
expected_kb (gint64 bytes)
{
  g_autofree char *digits = g_strdup_printf ("%" G_GINT64_FORMAT, bytes / 1024);
  GString *out = g_string_new (NULL);
  gsize len = strlen (digits);

  if (bytes > 0 && bytes < 1024)
    return g_strdup_printf ("%" G_GINT64_FORMAT " B", bytes);
  for (gsize i = 0; i < len; i++)
    {
      if (i > 0 && (len - i) % 3 == 0)
        g_string_append_c (out, ',');
      g_string_append_c (out, digits[i]);
    }
  g_string_append (out, " KB");

  return g_string_free (out, FALSE);
}

/* Every tile in words names each of its sections with the bytes the
 * generator gave it; a section under 1 KB (the generator's .rodata of a
 * few hundred bytes) reads as its bytes, never as "0 KB". */
static void
test_memory_tile_text (void)
{
  g_auto(Generated) g = { 0 };
  g_autoptr(TesReport) report = open_generated (&g);
  g_autoptr(TesMemoryModel) model = tes_memory_model_new (report, NULL);
  JsonArray *tiles = truth_tiles (&g);
  guint under_1kb = 0;

  g_assert_nonnull (model);
  for (guint i = 0; i < json_array_get_length (tiles); i++)
    {
      JsonObject *tile = json_array_get_object_element (tiles, i);
      JsonObject *sections = json_object_get_object_member (tile, "sections");
      int at = tes_memory_model_find_tile (model, (int)json_object_get_int_member (tile, "ipu"),
                                           (int)json_object_get_int_member (tile, "tile"));
      g_autofree char *text = NULL;
      g_autofree char *total = expected_kb (json_object_get_int_member (tile, "total"));
      g_autoptr(GList) names = json_object_get_members (sections);

      g_assert_cmpint (at, >=, 0);
      text = tes_memory_model_tile_text (model, (guint)at, G_MAXUINT);
      tes_test_assert_contains (text, total);
      g_assert_null (strstr (text, " 0 KB"));
      for (GList *l = names; l != NULL; l = l->next)
        {
          gint64 bytes = json_object_get_int_member (sections, l->data);
          g_autofree char *kb = expected_kb (bytes);
          g_autofree char *fragment = g_strdup_printf (" %s %s", (const char *)l->data, kb);

          if (bytes <= 0)
            continue;
          tes_test_assert_contains (text, fragment);
          under_1kb += bytes < 1024;
        }
    }
  /* the case this is about was there to read */
  g_assert_cmpuint (under_1kb, >, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tes_test_add (TES_TEST_OWN_DATA, "/tes/memory-view/model", test_memory_model);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/memory-view/render", test_memory_render);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/memory-view/selected-tile", test_memory_selected_tile);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/memory-view/report-alone", test_memory_report_alone);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/memory-view/tile-text", test_memory_tile_text);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/memory-view/shared-scales", test_memory_shared_scales);

  return g_test_run ();
}
