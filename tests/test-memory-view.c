/* test-memory-view.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "tes-bsp-section.h"
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

/* The BSP heatmap's cells: each the state that took most of its stretch
 * of its tiles, steps split across columns by time, tiles merged when
 * there are more than rows. */
static void
test_bsp_grid (void)
{
  /* two steps of 4 tiles, 100 cycles each: compute-heavy, then a sync */
  static const guint32 cycles_a[] = { 90, 10, 0, 60 };
  static const guint8 states_a[] = { TES_TILE_STATE_COMPUTE, TES_TILE_STATE_COMPUTE, TES_TILE_STATE_IDLE,
                                     TES_TILE_STATE_EXCHANGE };
  static const guint32 cycles_b[] = { 100, 100, 100, 100 };
  static const guint8 states_b[] = { TES_TILE_STATE_SYNC, TES_TILE_STATE_SYNC, TES_TILE_STATE_SYNC,
                                     TES_TILE_STATE_SYNC };
  const TesBspSpan spans[] = {
    { .start = 1000, .end = 2000, .dur_cycles = 100, .n_tiles = 4, .tile_cycles = cycles_a, .tile_states = states_a },
    { .start = 3000, .end = 3500, .dur_cycles = 100, .n_tiles = 4, .tile_cycles = cycles_b, .tile_states = states_b },
  };
  g_autoptr(TesBspGrid) grid = NULL;

  /* one column per 500 ns over 1000..4000: A, A, gap, gap, B, gap; A's
   * halves are its cycles 0-49 and 50-99, each tile busy from its start */
  grid = tes_bsp_grid_build (spans, G_N_ELEMENTS (spans), 4, 1000, 4000, 6, 100, 0);
  g_assert_cmpuint (grid->n_rows, ==, 4);
  for (guint c = 0; c < 2; c++)
    {
      g_assert_cmpuint (tes_bsp_grid_get (grid, c, 0), ==, TES_TILE_STATE_COMPUTE);   /* 50, then 40 of 50 */
      g_assert_cmpuint (tes_bsp_grid_get (grid, c, 1), ==, TES_TILE_STATE_IDLE);      /* 10 of 50, then none */
      g_assert_cmpuint (tes_bsp_grid_get (grid, c, 2), ==, TES_TILE_STATE_IDLE);
      g_assert_cmpfloat (tes_bsp_grid_get_cycles (grid, c, 0), ==, c == 0 ? 50 : 40);
    }
  /* 60 cycles of exchange: all of the first half, 10 of the second */
  g_assert_cmpuint (tes_bsp_grid_get (grid, 0, 3), ==, TES_TILE_STATE_EXCHANGE);
  g_assert_cmpuint (tes_bsp_grid_get (grid, 1, 3), ==, TES_TILE_STATE_IDLE);
  for (guint r = 0; r < 4; r++)
    {
      g_assert_cmpuint (tes_bsp_grid_get (grid, 2, r), ==, TES_BSP_NO_STATE);
      g_assert_cmpuint (tes_bsp_grid_get (grid, 3, r), ==, TES_BSP_NO_STATE);
      g_assert_cmpuint (tes_bsp_grid_get (grid, 4, r), ==, TES_TILE_STATE_SYNC);
      g_assert_cmpuint (tes_bsp_grid_get (grid, 5, r), ==, TES_BSP_NO_STATE);
    }
  g_clear_pointer (&grid, tes_bsp_grid_free);

  /* two rows: tiles 2 and 3 share one, where 60 exchange cycles lose to
   * 100 + 40 idle ones */
  grid = tes_bsp_grid_build (spans, G_N_ELEMENTS (spans), 4, 1000, 2000, 1, 2, 0);
  g_assert_cmpuint (grid->n_rows, ==, 2);
  g_assert_cmpuint (tes_bsp_grid_row_of (grid, 3), ==, 1);
  g_assert_cmpuint (tes_bsp_grid_get (grid, 0, 1), ==, TES_TILE_STATE_IDLE);
  g_clear_pointer (&grid, tes_bsp_grid_free);

  /* a column wider than both steps: the sync's 400 tile-cycles against
   * the first step's idle 240 and compute 100 */
  grid = tes_bsp_grid_build (spans, G_N_ELEMENTS (spans), 4, 0, 4000, 1, 1, 0);
  g_assert_cmpuint (tes_bsp_grid_get (grid, 0, 0), ==, TES_TILE_STATE_SYNC);
  g_clear_pointer (&grid, tes_bsp_grid_free);

  /* rows hold a power of two of tiles, as few as the height allows */
  g_assert_cmpuint (tes_bsp_tiles_per_row (1472, 487), ==, 4);
  g_assert_cmpuint (tes_bsp_tiles_per_row (1472, 368), ==, 4);
  g_assert_cmpuint (tes_bsp_tiles_per_row (1472, 367), ==, 8);
  g_assert_cmpuint (tes_bsp_tiles_per_row (20, 40), ==, 1);
  g_assert_cmpuint (tes_bsp_tiles_per_row (5, 1), ==, 8);

  g_assert_cmpint (tes_bsp_span_at (spans, G_N_ELEMENTS (spans), 999), ==, -1);
  g_assert_cmpint (tes_bsp_span_at (spans, G_N_ELEMENTS (spans), 1000), ==, 0);
  g_assert_cmpint (tes_bsp_span_at (spans, G_N_ELEMENTS (spans), 2500), ==, -1);
  g_assert_cmpint (tes_bsp_span_at (spans, G_N_ELEMENTS (spans), 3499), ==, 1);
  g_assert_cmpint (tes_bsp_span_at (spans, G_N_ELEMENTS (spans), 3500), ==, -1);
}

/* The cells of column @c by their definition, straight from the steps,
 * written independently of tes-bsp-layout.c: groups of @group steps, the
 * column takes those starting in it (else the one in progress), a row
 * sums its tiles' busy cycles by state (at most the step's length each)
 * and its idle rest; the state of most cycles wins, idle on a tie. Steps
 * alone (@group 1) count the cycles of theirs the column covers: a tile
 * busy c cycles is busy over cycles [0, c) of the step, the column's
 * part of the step's ns scaled to its cycles (floored, at least one);
 * the busy cycles are then put on the scale of the part's exact cycles
 * (the column's edges unrounded). */
static void
reference_column (const TesBspSpan *spans,
                  guint             n_spans,
                  guint             n_tiles,
                  guint             group,
                  gint64            t0,
                  gint64            t1,
                  guint             width,
                  guint             tiles_per_row,
                  guint             c,
                  guint8           *states,
                  float            *cycles)
{
  gint64 from = t0 + (gint64)((double)(t1 - t0) * c / width);
  gint64 to = c + 1 == width ? t1 : t0 + (gint64)((double)(t1 - t0) * (c + 1) / width);
  guint n_groups = (n_spans + group - 1) / group, first = G_MAXUINT, last = 0;
  guint n_rows = (n_tiles + tiles_per_row - 1) / tiles_per_row;
  guint64 dur = 0;
  double exact = 0;
  gboolean part = FALSE;
  g_autofree gint64 *lo = g_new0 (gint64, MAX (n_spans, 1));
  g_autofree gint64 *hi = g_new0 (gint64, MAX (n_spans, 1));

  for (guint g = 0; g < n_groups && from < to; g++)
    {
      gint64 start = spans[g * group].start;

      /* the first column takes what starts from t0 on */
      if (start >= MAX (from, c == 0 ? t0 : from) && start < to)
        {
          first = MIN (first, g);
          last = g + 1;
        }
    }
  if (first == G_MAXUINT && from < to)
    for (guint g = n_groups; g-- > 0;)
      if (spans[g * group].start < from)
        {
          gint64 end = 0;

          for (guint s = g * group; s < MIN ((g + 1) * group, n_spans); s++)
            end = MAX (end, spans[s].end);
          if (end > from)
            first = g, last = g + 1;
          break;
        }

  for (guint r = 0; r < n_rows; r++)
    {
      states[r] = TES_BSP_NO_STATE;
      cycles[r] = 0;
    }
  if (first == G_MAXUINT)
    return;

  for (guint s = first * group; s < MIN (last * group, n_spans); s++)
    {
      gint64 d = MAX (spans[s].dur_cycles, 0), len = spans[s].end - spans[s].start;

      lo[s] = 0;
      hi[s] = d;
      if (group == 1 && len > 0 && (spans[s].start < from || spans[s].end > to))
        {
          /* the column's edges unrounded */
          double from_x = t0 + (double)(t1 - t0) * c / width;
          double to_x = c + 1 == width ? (double)t1 : t0 + (double)(t1 - t0) * (c + 1) / width;

          lo[s] = (gint64)((__int128)(MAX (spans[s].start, from) - spans[s].start) * d / len);
          hi[s] = MAX ((gint64)((__int128)(MIN (spans[s].end, to) - spans[s].start) * d / len),
                   MIN (lo[s] + 1, d));
          exact += (MIN (to_x, (double)spans[s].end) - MAX (from_x, (double)spans[s].start)) * (double)d / (double)len;
          part = TRUE;
        }
      else
        exact += (double)d;
      dur += hi[s] - lo[s];
    }
  for (guint r = 0; r < n_rows; r++)
    {
      guint tiles = MIN ((r + 1) * tiles_per_row, n_tiles) - r * tiles_per_row;
      guint64 busy[4] = { 0, 0, 0, 0 }, all = (guint64)tiles * dur, total;
      guint best = TES_TILE_STATE_IDLE;

      for (guint s = first * group; s < MIN (last * group, n_spans); s++)
        for (guint t = r * tiles_per_row; t < MIN ((r + 1) * tiles_per_row, spans[s].n_tiles); t++)
          if (spans[s].tile_states[t] >= TES_TILE_STATE_COMPUTE && spans[s].tile_states[t] <= TES_TILE_STATE_SYNC)
            {
              /* [0, c) of the step against the column's [lo, hi) */
              gint64 busy_to = MIN ((gint64)spans[s].tile_cycles[t], MAX (spans[s].dur_cycles, 0));

              busy[spans[s].tile_states[t]] += MAX (MIN (busy_to, hi[s]) - lo[s], 0);
            }
      total = busy[1] + busy[2] + busy[3];
      busy[TES_TILE_STATE_IDLE] = all - MIN (total, all);
      for (guint k = TES_TILE_STATE_COMPUTE; k <= TES_TILE_STATE_SYNC; k++)
        if (busy[k] > busy[best])
          best = k;
      states[r] = (guint8)best;
      cycles[r] = (float)total * (1.0f / tiles);
      if (part && dur > 0)
        cycles[r] *= (float)(exact / dur);
    }
}

/* @grid against reference_column (), cell for cell. */
static void
assert_grid_is_reference (const TesBspGrid *grid,
                          const TesBspSpan *spans,
                          guint             n_spans,
                          gint64            t0,
                          gint64            t1)
{
  g_autofree guint8 *states = g_new (guint8, grid->n_rows);
  g_autofree float *cycles = g_new (float, grid->n_rows);
  guint group = 1;

  for (guint l = 0; l < grid->level; l++)
    group *= 4;
  for (guint c = 0; c < grid->width; c++)
    {
      reference_column (spans, n_spans, grid->n_tiles, group, t0, t1, grid->width, grid->tiles_per_row, c, states,
                        cycles);
      for (guint r = 0; r < grid->n_rows; r++)
        {
          g_assert_cmpuint (tes_bsp_grid_get (grid, c, r), ==, states[r]);
          g_assert_cmpfloat (tes_bsp_grid_get_cycles (grid, c, r), ==, cycles[r]);
        }
    }
}

/* Sums past 32 bits: steps of billions of cycles, so that a column's
 * sums take 64 (and the pyramid stops where a group's would), cell for
 * cell as their definition gives them. */
static void
test_bsp_large (void)
{
  enum { N_TILES = 12, N_SPANS = 40 };
  g_autofree guint32 *cycles = g_new (guint32, N_TILES * N_SPANS);
  g_autofree guint8 *states = g_new (guint8, N_TILES * N_SPANS);
  TesBspSpan spans[N_SPANS];
  g_autoptr(TesBspPyramid) pyramid = NULL;
  static const guint widths[] = { 1, 7, 40, 90 };
  static const guint heights[] = { 12, 6, 3, 1 };

  for (guint s = 0; s < N_SPANS; s++)
    {
      for (guint t = 0; t < N_TILES; t++)
        {
          cycles[s * N_TILES + t] = 3000000000u - (s * 7919u + t * 104729u) % 2000000000u;
          states[s * N_TILES + t] = (s + t) % 4;
        }
      spans[s] = (TesBspSpan) { .start = s * 1000, .end = s * 1000 + 900, .dur_cycles = 3500000000,
                                .n_tiles = s % 5 == 4 ? N_TILES - 3 : N_TILES, .tile_cycles = cycles + s * N_TILES,
                                .tile_states = states + s * N_TILES };
    }
  pyramid = tes_bsp_pyramid_new (spans, N_SPANS, N_TILES);
  /* a tile's state turns every step: groups of 4 steps hold one of each
   * per tile, which fits (their blocks of tiles do not), groups of 16 not */
  g_assert_cmpuint (tes_bsp_pyramid_get_n_levels (pyramid), ==, 2);
  for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
    for (guint h = 0; h < G_N_ELEMENTS (heights); h++)
      {
        g_autoptr(TesBspGrid) grid = tes_bsp_pyramid_grid (pyramid, -500, N_SPANS * 1000, widths[w], heights[h]);

        assert_grid_is_reference (grid, spans, N_SPANS, -500, N_SPANS * 1000);
      }
}

/* Running sums past 2^32: steps of 100 million cycles, whose running sums
 * wrap around 32 bits many times while a group's fit, and a column's in
 * some frames but not others; cells and tile activity as their
 * definition gives them. */
static void
test_bsp_wrap (void)
{
  enum { N_TILES = 8, N_SPANS = 4096 };
  g_autofree guint32 *cycles = g_new (guint32, N_TILES * N_SPANS);
  g_autofree guint8 *states = g_new (guint8, N_TILES * N_SPANS);
  g_autofree TesBspSpan *spans = g_new (TesBspSpan, N_SPANS);
  g_autoptr(TesBspPyramid) pyramid = NULL;
  static const guint widths[] = { 3, 50, 301, 700, 1500 };
  static const guint heights[] = { 8, 4, 2, 1 };
  TesTileActivity summed[N_TILES] = { { 0 } }, expected[N_TILES] = { { 0 } };

  for (guint s = 0; s < N_SPANS; s++)
    {
      for (guint t = 0; t < N_TILES; t++)
        {
          cycles[s * N_TILES + t] = 100000000 - (s * 7919u + t * 104729u) % 40000000;
          states[s * N_TILES + t] = 1 + (s + t / 3) % 3;
          expected[t].cycles[states[s * N_TILES + t]] += cycles[s * N_TILES + t];
          expected[t].cycles[TES_TILE_STATE_IDLE] += 100000000 - cycles[s * N_TILES + t];
        }
      spans[s] = (TesBspSpan) { .start = s * 1000, .end = s * 1000 + 900, .dur_cycles = 100000000, .n_tiles = N_TILES,
                                .tile_cycles = cycles + s * N_TILES, .tile_states = states + s * N_TILES };
    }
  g_assert_cmpint (expected[0].cycles[TES_TILE_STATE_COMPUTE], >, 10 * (gint64)G_MAXUINT32);
  pyramid = tes_bsp_pyramid_new (spans, N_SPANS, N_TILES);
  /* groups of 4, 16 and 64 steps: a tile's 256 pass 32 bits */
  g_assert_cmpuint (tes_bsp_pyramid_get_n_levels (pyramid), ==, 4);
  for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
    for (guint h = 0; h < G_N_ELEMENTS (heights); h++)
      {
        g_autoptr(TesBspGrid) grid = tes_bsp_pyramid_grid (pyramid, 123456, N_SPANS * 1000 - 77777, widths[w],
                                                           heights[h]);

        g_assert_cmpuint (grid->level, ==, w < 2 ? 3 : w < 4 ? 1 : 0);
        assert_grid_is_reference (grid, spans, N_SPANS, 123456, N_SPANS * 1000 - 77777);
      }

  /* the whole run, from groups of 64 */
  g_assert_cmpuint (tes_bsp_pyramid_add_activity (pyramid, 0, N_SPANS * 1000, summed), ==, 0);
  for (guint t = 0; t < N_TILES; t++)
    for (guint k = 0; k < 4; k++)
      g_assert_cmpint (summed[t].cycles[k], ==, expected[t].cycles[k]);
}

/* Tile activity from the sums where steps do not all count alike: a
 * step listing fewer tiles, a state past sync, a tile busy longer than
 * its step and a negative length are counted as the report counts them
 * (tes_report_get_tile_activity()), written out here step by step. */
static void
test_bsp_activity (void)
{
  enum { N_TILES = 6, N_SPANS = 200 };
  g_autofree guint32 *cycles = g_new (guint32, N_TILES * N_SPANS);
  g_autofree guint8 *states = g_new (guint8, N_TILES * N_SPANS);
  TesBspSpan spans[N_SPANS];
  g_autoptr(TesBspPyramid) pyramid = NULL;
  static const guint odd[] = { 37, 70, 71, 150 };
  const gint64 ranges[][2] = { { 0, N_SPANS * 100 }, { 250, 19050 }, { 3200, 6400 }, { 7100, 7200 } };

  for (guint s = 0; s < N_SPANS; s++)
    {
      for (guint t = 0; t < N_TILES; t++)
        {
          cycles[s * N_TILES + t] = (s * 31 + t * 17) % 90;
          states[s * N_TILES + t] = (s / 3 + t) % 4;
        }
      spans[s] = (TesBspSpan) { .start = s * 100, .end = s * 100 + 90, .dur_cycles = 90, .n_tiles = N_TILES,
                                .tile_cycles = cycles + s * N_TILES, .tile_states = states + s * N_TILES };
    }
  spans[odd[0]].n_tiles = N_TILES - 2;
  states[odd[1] * N_TILES + 1] = 9;
  cycles[odd[2] * N_TILES + 4] = 500;
  states[odd[2] * N_TILES + 4] = TES_TILE_STATE_COMPUTE;
  spans[odd[3]].dur_cycles = -5;
  pyramid = tes_bsp_pyramid_new (spans, N_SPANS, N_TILES);
  /* groups of 4, 16, 64 and 256 steps */
  g_assert_cmpuint (tes_bsp_pyramid_get_n_levels (pyramid), ==, 5);

  for (guint i = 0; i < G_N_ELEMENTS (ranges); i++)
    {
      TesTileActivity summed[N_TILES] = { { 0 } }, expected[N_TILES] = { { 0 } };
      guint read = tes_bsp_pyramid_add_activity (pyramid, ranges[i][0], ranges[i][1], summed);
      guint in_range = 0;

      for (guint s = 0; s < N_SPANS; s++)
        {
          if (spans[s].start < ranges[i][0] || spans[s].start >= ranges[i][1])
            continue;
          in_range++;
          for (guint t = 0; t < spans[s].n_tiles; t++)
            {
              guint state = MIN (spans[s].tile_states[t], TES_TILE_STATE_SYNC);
              gint64 busy = state == TES_TILE_STATE_IDLE ? 0 : spans[s].tile_cycles[t];

              expected[t].n_steps++;
              expected[t].cycles[state] += busy;
              expected[t].cycles[TES_TILE_STATE_IDLE] += MAX (spans[s].dur_cycles - busy, 0);
            }
        }
      for (guint t = 0; t < N_TILES; t++)
        {
          g_assert_cmpuint (summed[t].n_steps, ==, expected[t].n_steps);
          for (guint k = 0; k < 4; k++)
            g_assert_cmpint (summed[t].cycles[k], ==, expected[t].cycles[k]);
        }
      /* the odd steps' groups are read step by step, the others not */
      if (in_range >= 64)
        g_assert_cmpuint (read, <, in_range / 2);
    }
}

static void
ipus_loaded (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  *(GPtrArray **)user_data = tes_bsp_load_ipus_finish (TES_REPORT (object), result, &error);
  g_assert_no_error (error);
}

/* gen-poplar-tiles.py run with @args into a directory of its own named
 * @name, and its execution trace imported (chrome-json); the directory
 * in @dir (nullable). */
static TesReport *
import_generated_execution (const char        *name,
                            const char *const *args,
                            char             **dir)
{
  g_autofree char *own = g_test_build_filename (G_TEST_DIST, "gen-poplar-tiles.py", NULL);
  g_autofree char *outdir = tes_test_tmp_path (name);
  g_autofree char *execution = g_build_filename (outdir, "execution.json", NULL);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(GError) error = NULL;
  const char *paths[] = { execution };
  TesImporter *importers[] = { tes_importer_registry_lookup ("chrome-json") };
  TesReport *report;
  int status;

  g_assert_nonnull (g_getenv ("PYTHON3"));
  g_ptr_array_add (argv, (gpointer)g_getenv ("PYTHON3"));
  g_ptr_array_add (argv, own);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer)args[i]);
  g_ptr_array_add (argv, (gpointer)"--outdir");
  g_ptr_array_add (argv, outdir);
  g_ptr_array_add (argv, NULL);
  if (!tes_test_run ((const char *const *)argv->pdata, &out, &err, &status))
    g_error ("gen-poplar-tiles.py failed (%d): %s", status, err);
  report = tes_report_import_files (paths, importers, 1, 0, NULL, NULL, &error);
  g_assert_no_error (error);
  if (dir != NULL)
    *dir = g_steal_pointer (&outdir);

  return report;
}

/* The pyramid gives the cells the steps give, on a generated run long
 * enough for several levels: at zooms from the whole run to a few steps,
 * ranges off any group's edge, rows for every tile and rows merging
 * blocks of tiles; and the coarse frames do read the coarse levels. */
static void
test_bsp_pyramid (void)
{
  static const char *const args[] = { "--seed", "11", "--ipus", "2", "--tiles", "20", "--steps", "700", NULL };
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GPtrArray) ipus = NULL;
  g_autoptr(GError) error = NULL;
  static const double zooms[] = { 1, 1.7, 6, 31, 150 };
  static const guint widths[] = { 1, 97, 640, 1900 };
  /* a row per tile; rows of 2, 4, 8 and all 20 tiles (blocks of 32) */
  static const guint heights[] = { 40, 10, 7, 3, 1 };
  guint max_level = 0, checked = 0;
  /* one grid through every frame, as a section keeps it */
  TesBspGrid *reused = NULL;

  report = import_generated_execution ("gen-poplar-long", args, NULL);
  /* two sections asking while it loads share one load; one asking later
   * gets it at once */
  {
    g_autoptr(GPtrArray) first = NULL, second = NULL, later = NULL;

    tes_bsp_load_ipus_async (report, NULL, ipus_loaded, &first);
    tes_bsp_load_ipus_async (report, NULL, ipus_loaded, &second);
    g_assert_null (tes_bsp_peek_ipus (report));
    while (first == NULL || second == NULL)
      g_main_context_iteration (NULL, TRUE);
    g_assert_true (first == second);
    g_assert_true (tes_bsp_peek_ipus (report) == first);
    tes_bsp_load_ipus_async (report, NULL, ipus_loaded, &later);
    while (later == NULL)
      g_main_context_iteration (NULL, TRUE);
    g_assert_true (later == first);
    ipus = g_ptr_array_ref (first);
  }
  g_assert_cmpuint (ipus->len, ==, 2);

  for (guint i = 0; i < ipus->len; i++)
    {
      const TesBspIpu *ipu = g_ptr_array_index (ipus, i);
      const TesBspSpan *spans = (const TesBspSpan *)(gpointer)ipu->spans->data;
      gint64 first = spans[0].start, last = spans[ipu->spans->len - 1].end;

      g_assert_cmpuint (ipu->spans->len, ==, 700);
      g_assert_cmpuint (ipu->n_tiles, ==, 20);
      /* 700 steps: groups of 4, 16, 64, 256 and the whole */
      g_assert_cmpuint (tes_bsp_pyramid_get_n_levels (ipu->pyramid), ==, 6);

      for (guint z = 0; z < G_N_ELEMENTS (zooms); z++)
        for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
          for (guint h = 0; h < G_N_ELEMENTS (heights); h++)
            {
              guint height = heights[h];
              /* a window of 1/zoom of the run, a third of the way in */
              gint64 span = (gint64)((last - first) / zooms[z]);
              gint64 t0 = first + (gint64)((last - first - span) / 3.0) - 1;
              g_autoptr(TesBspGrid) fast = tes_bsp_pyramid_grid (ipu->pyramid, t0, t0 + span, widths[w], height);
              g_autoptr(TesBspGrid) direct = tes_bsp_grid_build (spans, ipu->spans->len, ipu->n_tiles, t0, t0 + span,
                                                                 widths[w], height, fast->level);
              guint painted = 0;

              g_assert_cmpuint (fast->n_rows, <=, height);
              g_assert_cmpuint (fast->n_rows, ==, (20 + fast->tiles_per_row - 1) / fast->tiles_per_row);
              g_assert_cmpuint (fast->width, ==, direct->width);
              for (guint r = 0; r < fast->n_rows; r++)
                for (guint c = 0; c < fast->width; c++)
                  {
                    g_assert_cmpuint (tes_bsp_grid_get (fast, c, r), ==, tes_bsp_grid_get (direct, c, r));
                    g_assert_cmpfloat (tes_bsp_grid_get_cycles (fast, c, r), ==, tes_bsp_grid_get_cycles (direct, c, r));
                    painted += tes_bsp_grid_get (fast, c, r) != TES_BSP_NO_STATE;
                  }
              assert_grid_is_reference (fast, spans, ipu->spans->len, t0, t0 + span);
              /* every other frame by state only: no cycles */
              reused = tes_bsp_pyramid_grid_reuse (ipu->pyramid, reused, t0, t0 + span, widths[w], height, checked % 2);
              g_assert_cmpuint (reused->n_rows, ==, fast->n_rows);
              g_assert_cmpuint (reused->level, ==, fast->level);
              g_assert_cmpmem (reused->states, fast->width * fast->n_rows, fast->states, fast->width * fast->n_rows);
              if (checked % 2)
                {
                  g_assert_cmpfloat (reused->max_cycles, ==, fast->max_cycles);
                  g_assert_cmpmem (reused->cycles, fast->width * fast->n_rows * sizeof (float), fast->cycles,
                                   fast->width * fast->n_rows * sizeof (float));
                }
              else
                g_assert_cmpfloat (reused->max_cycles, ==, 0);
              /* steps cover most of a run: most cells are painted */
              g_assert_cmpuint (painted * 2, >, fast->n_rows * fast->width);
              max_level = MAX (max_level, fast->level);
              checked++;
            }
    }
  g_assert_cmpuint (checked, ==, 2 * G_N_ELEMENTS (zooms) * G_N_ELEMENTS (widths) * G_N_ELEMENTS (heights));

  /* Tile Balance from the sums: the report's figures, row for row, over
   * the whole run, ranges off any group's edge, one step and none; a long
   * range reads few steps one by one */
  {
    const TesBspIpu *ipu0 = g_ptr_array_index (ipus, 0);
    const TesBspSpan *spans = (const TesBspSpan *)(gpointer)ipu0->spans->data;
    const gint64 ranges[][2] = {
      { G_MININT64, G_MAXINT64 },
      { spans[3].start, spans[650].start },
      { spans[17].start - 1, spans[530].start + 1 },
      { spans[64].start, spans[320].start },
      { spans[100].start, spans[101].start },
      { spans[5].end, spans[5].end },
    };

    for (guint i = 0; i < G_N_ELEMENTS (ranges); i++)
      {
        g_autoptr(GArray) direct = tes_report_get_tile_activity (report, ranges[i][0], ranges[i][1], &error);
        g_autoptr(GArray) summed = tes_bsp_ipus_get_tile_activity (ipus, ranges[i][0], ranges[i][1]);

        g_assert_no_error (error);
        g_assert_cmpuint (summed->len, ==, direct->len);
        g_assert_cmpuint (direct->len, ==, 40);
        g_assert_cmpmem (summed->data, summed->len * sizeof (TesTileActivity), direct->data,
                         direct->len * sizeof (TesTileActivity));
      }
    {
      g_autofree TesTileActivity *tiles = g_new0 (TesTileActivity, ipu0->n_tiles);

      /* steps 3 to 649: 13 before the first group of 16, 9 after the last */
      g_assert_cmpuint (tes_bsp_pyramid_add_activity (ipu0->pyramid, spans[3].start, spans[650].start, tiles), ==, 13 + 10);
      g_assert_cmpuint (tiles[0].n_steps, ==, 647);
    }
  }
  tes_bsp_grid_free (reused);
  g_assert_cmpuint (max_level, >=, 3);
}

/* Panning: one grid through frames of a range moving by 1 % of its width
 * (and staying put), as the section keeps it, takes from the last frame
 * the columns that take the same groups: every frame's cells, cycles and
 * most cycles are a new grid's, at every level, by cycles or by state
 * only in any order. */
static void
test_bsp_pan (void)
{
  static const char *const args[] = { "--seed", "13", "--ipus", "1", "--tiles", "40", "--steps", "2000", NULL };
  static const double zooms[] = { 1, 3, 12, 50, 300 };
  static const guint widths[] = { 600, 30 };
  static const guint heights[] = { 40, 10, 3 };
  static const gboolean with_cycles[] = { TRUE, TRUE, FALSE, FALSE, TRUE, TRUE, TRUE, FALSE, TRUE };
  /* steps of the range: 0 stays put */
  static const int moves[] = { 0, 1, 1, 0, 1, -1, 2, 1, 0 };
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GPtrArray) ipus = NULL;
  g_autoptr(GError) error = NULL;
  const TesBspIpu *ipu;
  const TesBspSpan *spans;
  guint levels = 0;

  report = import_generated_execution ("gen-poplar-pan", args, NULL);
  ipus = tes_report_get_bsp_ipus (report, TRUE, &error);
  g_assert_no_error (error);
  ipu = g_ptr_array_index (ipus, 0);
  spans = (const TesBspSpan *)(gpointer)ipu->spans->data;

  for (guint z = 0; z < G_N_ELEMENTS (zooms) * G_N_ELEMENTS (widths); z++)
    for (guint h = 0; h < G_N_ELEMENTS (heights); h++)
      {
        gint64 first = spans[0].start, last = spans[ipu->spans->len - 1].end;
        gint64 span = (gint64)((last - first) / zooms[z % G_N_ELEMENTS (zooms)]);
        guint width = widths[z / G_N_ELEMENTS (zooms)];
        gint64 t0 = first + (gint64)((last - first - span) / 2.3);
        g_autoptr(TesBspGrid) reused = NULL;

        for (guint f = 0; f < G_N_ELEMENTS (moves); f++)
          {
            g_autoptr(TesBspGrid) fresh = NULL;
            gsize n;

            t0 += moves[f] * span / 100;
            fresh = tes_bsp_pyramid_grid_reuse (ipu->pyramid, NULL, t0, t0 + span, width, heights[h], with_cycles[f]);
            reused = tes_bsp_pyramid_grid_reuse (ipu->pyramid, g_steal_pointer (&reused), t0, t0 + span, width,
                                                 heights[h], with_cycles[f]);
            n = (gsize)fresh->width * fresh->n_rows;
            g_assert_cmpuint (reused->level, ==, fresh->level);
            g_assert_cmpmem (reused->states, n, fresh->states, n);
            g_assert_cmpfloat (reused->max_cycles, ==, fresh->max_cycles);
            if (with_cycles[f])
              g_assert_cmpmem (reused->cycles, n * sizeof (float), fresh->cycles, n * sizeof (float));
            levels |= 1u << fresh->level;
          }
      }
  /* steps alone, groups of 4, 16, 64 */
  g_assert_cmpuint (levels & 0xf, ==, 0xf);
}

/* Zoomed in to steps alone, a frame reads each step once for the columns
 * that take it (tes-bsp-pyramid.c, grid_fill_spread ()): its cells, cell
 * for cell, against reference_column ()'s, written from their definition,
 * on a generated run of 62 tiles (rows of 1 to 32 tiles, the last row
 * short), at zooms where a column takes several steps, one, or a part of
 * a step that covers more than the 16 columns a reading serves, over
 * ranges starting anywhere. */
static void
test_bsp_spread (void)
{
  static const char *const args[] = { "--seed", "5", "--ipus", "1", "--tiles", "134", "--steps", "240", NULL };
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GPtrArray) ipus = NULL;
  g_autoptr(GError) error = NULL;
  /* steps in view: 240, 24, 6 and part of one */
  static const double zooms[] = { 1, 10, 40, 700 };
  static const double offsets[] = { 0, 0.37, 0.91 };
  static const guint widths[] = { 61, 640, 1900 };
  /* rows of 1 to 64 tiles, the last short; eight rows of four tiles or
   * more, the AVX2 build's blocks */
  static const guint heights[] = { 134, 62, 31, 16, 8, 2 };
  TesBspGrid *reused = NULL;
  guint spread = 0, several = 0, long_steps = 0;
  const TesBspIpu *ipu;
  const TesBspSpan *spans;

  report = import_generated_execution ("gen-poplar-spread", args, NULL);
  ipus = tes_report_get_bsp_ipus (report, TRUE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ipus->len, ==, 1);
  ipu = g_ptr_array_index (ipus, 0);
  spans = (const TesBspSpan *)(gpointer)ipu->spans->data;
  g_assert_cmpuint (ipu->spans->len, ==, 240);
  g_assert_cmpuint (ipu->n_tiles, ==, 134);

  for (guint z = 0; z < G_N_ELEMENTS (zooms); z++)
    for (guint o = 0; o < G_N_ELEMENTS (offsets); o++)
      for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
        for (guint h = 0; h < G_N_ELEMENTS (heights); h++)
          {
            gint64 first = spans[0].start, last = spans[ipu->spans->len - 1].end;
            gint64 span = MAX ((gint64)((last - first) / zooms[z]), 1);
            gint64 t0 = first + (gint64)((last - first - span) * offsets[o]) - 1;
            double ns_per_column = (double)span / widths[w];
            g_autoptr(TesBspGrid) grid = tes_bsp_pyramid_grid (ipu->pyramid, t0, t0 + span, widths[w], heights[h]);

            if (grid->level != 0)
              continue;
            assert_grid_is_reference (grid, spans, ipu->spans->len, t0, t0 + span);
            /* by state only, in a grid used again: the same states */
            reused = tes_bsp_pyramid_grid_reuse (ipu->pyramid, reused, t0, t0 + span, widths[w], heights[h], FALSE);
            g_assert_cmpmem (reused->states, grid->width * grid->n_rows, grid->states, grid->width * grid->n_rows);
            spread++;
            /* what the frames held: columns taking two steps or more,
             * steps over more than 16 columns */
            for (guint s = 1; s < ipu->spans->len; s++)
              if (spans[s].start >= t0 && spans[s].start < t0 + span &&
                  (gint64)((spans[s].start - t0) / ns_per_column) == (gint64)((spans[s - 1].start - t0) / ns_per_column) &&
                  spans[s - 1].start >= t0)
                several++;
            for (guint s = 0; s < ipu->spans->len; s++)
              if (spans[s].end > t0 && spans[s].start < t0 + span && (spans[s].end - spans[s].start) / ns_per_column > 17)
                long_steps++;
          }
  tes_bsp_grid_free (reused);
  g_assert_cmpuint (spread, >=, 100);
  g_assert_cmpuint (several, >, 0);
  g_assert_cmpuint (long_steps, >, 0);
}

/* Time within a step, against the generator's truth.json: all tiles start
 * together after the sync, so zoomed into one step (200 columns over it,
 * a row per tile) a tile busy c of the step's D cycles is in its state in
 * every column entirely within the first c/D of the step, busy for all
 * the column's cycles of the step, and idle, with none, in every column
 * entirely after: what
 * PopVision's BSP trace draws at each cycle. Every step of both IPUs,
 * the pyramid's cells and the steps' alike. (Before this rule, every
 * column showed the whole step's state: tiles busy under half the step
 * idle throughout, the others busy throughout.) */
static void
test_bsp_step_time (void)
{
  static const char *const args[] = { "--seed", "3", "--ipus", "2", "--tiles", "24", "--steps", "21",
                                      "--hot-tiles", "2", "--busy-tiles", "5", "17", NULL };
  g_autofree char *dir = NULL;
  g_autofree char *truth_path = NULL;
  static const char *const state_names[] = { "idle", "compute", "exchange", "sync" };
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GPtrArray) ipus = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonArray *steps;
  guint width = 200, n_before = 0, n_after = 0, n_split = 0;

  report = import_generated_execution ("gen-poplar-step-time", args, &dir);
  truth_path = g_build_filename (dir, "truth.json", NULL);
  ipus = tes_report_get_bsp_ipus (report, TRUE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ipus->len, ==, 2);
  json_parser_load_from_file (parser, truth_path, &error);
  g_assert_no_error (error);
  steps = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "steps");
  g_assert_cmpuint (json_array_get_length (steps), ==, 2 * 21);

  for (guint i = 0; i < json_array_get_length (steps); i++)
    {
      JsonObject *step = json_array_get_object_element (steps, i);
      JsonArray *tile_cycles = json_object_get_array_member (step, "cycles");
      const TesBspIpu *ipu = g_ptr_array_index (ipus, json_object_get_int_member (step, "ipu"));
      const TesBspSpan *spans = (const TesBspSpan *)(gpointer)ipu->spans->data;
      const TesBspSpan *span = &spans[json_object_get_int_member (step, "step")];
      gint64 d = json_object_get_int_member (step, "dur"), t0 = span->start, t1 = span->end;
      guint state = TES_TILE_STATE_IDLE;
      g_autoptr(TesBspGrid) fast = NULL, direct = NULL;

      for (guint k = 0; k < G_N_ELEMENTS (state_names); k++)
        if (g_str_equal (json_object_get_string_member (step, "state"), state_names[k]))
          state = k;
      g_assert_cmpuint (state, !=, TES_TILE_STATE_IDLE);
      g_assert_cmpint (ipu->ipu, ==, json_object_get_int_member (step, "ipu"));
      g_assert_cmpuint (ipu->spans->len, ==, 21);
      g_assert_cmpint (span->dur_cycles, ==, d);
      g_assert_cmpint (t1 - t0, >, width);

      fast = tes_bsp_pyramid_grid (ipu->pyramid, t0, t1, width, 24);
      direct = tes_bsp_grid_build (spans, ipu->spans->len, ipu->n_tiles, t0, t1, width, 24, 0);
      g_assert_cmpuint (fast->level, ==, 0);
      g_assert_cmpuint (fast->n_rows, ==, 24);
      g_assert_cmpmem (fast->states, width * 24, direct->states, width * 24);
      g_assert_cmpmem (fast->cycles, width * 24 * sizeof (float), direct->cycles, width * 24 * sizeof (float));
      for (guint t = 0; t < 24; t++)
        {
          gint64 c = json_array_get_int_element (tile_cycles, t);

          n_split += c > 0 && c < d;
          for (guint x = 0; x < width; x++)
            {
              /* the column's ns as the grid divides [t0, t1) */
              gint64 from = t0 + (gint64)((double)(t1 - t0) * x / width);
              gint64 to = x + 1 == width ? t1 : t0 + (gint64)((double)(t1 - t0) * (x + 1) / width);

              /* to − t0 ≤ c/D of the step: entirely before the tile stops */
              if (c > 0 && (to - t0) * d <= c * (t1 - t0))
                {
                  g_assert_cmpuint (tes_bsp_grid_get (fast, x, t), ==, state);
                  /* busy all the column: its cycles of the step, D / 200 */
                  g_assert_cmpfloat_with_epsilon (tes_bsp_grid_get_cycles (fast, x, t), (double)d / width, 1e-3);
                  n_before++;
                }
              else if ((from - t0) * d >= c * (t1 - t0))
                {
                  g_assert_cmpuint (tes_bsp_grid_get (fast, x, t), ==, TES_TILE_STATE_IDLE);
                  g_assert_cmpfloat (tes_bsp_grid_get_cycles (fast, x, t), ==, 0);
                  n_after++;
                }
            }
        }
    }
  /* most tiles stop partway through their steps: both sides checked */
  g_assert_cmpuint (n_split, >, 2 * 21 * 24 / 2);
  g_assert_cmpuint (n_before, >, 50000);
  g_assert_cmpuint (n_after, >, 20000);
}

/* Colouring by cycles: from the scale's dark end to its light end, each
 * step lighter than the last; nothing and too much clamp to the ends. */
static void
test_bsp_cycles_color (void)
{
  double last = -1;

  g_assert_cmphex (tes_bsp_cycles_color (0, 1000), ==, 0x440154);
  g_assert_cmphex (tes_bsp_cycles_color (1000, 1000), ==, 0xfde725);
  g_assert_cmphex (tes_bsp_cycles_color (5000, 1000), ==, 0xfde725);
  g_assert_cmphex (tes_bsp_cycles_color (-3, 1000), ==, 0x440154);
  g_assert_cmphex (tes_bsp_cycles_color (10, 0), ==, 0x440154);
  g_assert_cmphex (tes_bsp_cycles_color (NAN, 1000), ==, 0x440154);
  for (int i = 0; i <= 100; i++)
    {
      guint32 rgb = tes_bsp_cycles_color (i * 10, 1000);
      double luma = 0.2126 * (rgb >> 16) + 0.7152 * ((rgb >> 8) & 0xff) + 0.0722 * (rgb & 0xff);

      g_assert_cmpfloat (luma, >, last);
      last = luma;
    }
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
  tes_test_add (TES_TEST_OWN_DATA, "/tes/bsp/grid", test_bsp_grid);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/bsp/pyramid", test_bsp_pyramid);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/bsp/step-time", test_bsp_step_time);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/bsp/spread", test_bsp_spread);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/bsp/pan", test_bsp_pan);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/bsp/large", test_bsp_large);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/bsp/wrap", test_bsp_wrap);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/bsp/activity", test_bsp_activity);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/bsp/cycles-color", test_bsp_cycles_color);

  return g_test_run ();
}
