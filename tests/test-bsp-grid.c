/* test-bsp-grid.c: the BSP heatmap's cells (the grid, the pyramid of
 * sums it reads, the steps read once over their columns), against their
 * definition written out here and against the steps read directly
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "tes-bsp-pyramid-private.h"
#include "tes-bsp-section.h"
#include "tes-importer-registry.h"
#include "tes-test-util.h"

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

/* Steps whose busy tiles are all in one state, none past the step's end,
 * are read for their cycles alone, into that state's sums (the pyramid's
 * sole[], step_spread_sole () in tes-bsp-grid.c); the others for their
 * cycles and states. Steps made here of every kind, in turn and of
 * lengths from a tenth of a column to many, so that columns take steps
 * of both kinds, and each kind spans columns: one state (tiles not busy
 * in any state), several, one state but a busy tile left idle or past
 * sync (neither counts), no tile busy, fewer tiles listed, a tile busy
 * past the step's end.
 * Zoomed in to steps alone, the cells are reference_column ()'s,
 * written from their definition, and those of the steps read without
 * the pyramid (tes_bsp_grid_build ()); with one grid kept through frames
 * panned by 1 % (and not), as the section keeps it, every frame's cells
 * are a new grid's. */
static guint
kind_of (guint step)
{
  /* each kind of several states after one of one state */
  static const guint order[] = { 0, 1, 4, 2, 5, 3, 6 };

  return order[step % G_N_ELEMENTS (order)];
}

static gboolean
kind_is_sole (guint kind)
{
  return kind == 0 || kind == 4 || kind == 5;
}

static void
test_bsp_sole (void)
{
  enum { N_TILES = 134, N_SPANS = 420 };
  g_autofree guint32 *cycles = g_new0 (guint32, N_TILES * N_SPANS);
  g_autofree guint8 *states = g_new0 (guint8, N_TILES * N_SPANS);
  g_autofree TesBspSpan *spans = g_new (TesBspSpan, N_SPANS);
  guint8 made[N_SPANS];
  g_autoptr(GRand) rand = g_rand_new_with_seed (27);
  g_autoptr(TesBspPyramid) pyramid = NULL;
  const TesBspPyramid *p;
  /* rows of 1 to 32 tiles, the last short */
  static const guint heights[] = { 134, 67, 34, 17, 9, 5 };
  static const guint widths[] = { 1900, 333 };
  static const double zooms[] = { 30, 120, 1000 };
  static const int moves[] = { 0, 1, 1, 0, 2, -1, 1 };
  guint sole_kinds[4] = { 0, 0, 0, 0 }, mixed = 0, checked = 0, both = 0;
  gint64 t = 0;

  for (guint s = 0; s < N_SPANS; s++)
    {
      guint32 *c = cycles + s * N_TILES;
      guint8 *st = states + s * N_TILES;
      guint kind = kind_of (s), state = 1 + (guint)g_rand_int_range (rand, 0, 3);
      /* most steps a few columns wide at the middle zoom, many far
       * narrower (columns take several steps), some wider */
      gint64 dur = g_rand_int_range (rand, 0, 3) == 0 ? g_rand_int_range (rand, 20, 200)
                   : g_rand_int_range (rand, 0, 9) == 0 ? g_rand_int_range (rand, 20000, 60000)
                   : g_rand_int_range (rand, 500, 6000);

      for (guint i = 0; i < N_TILES; i++)
        {
          gboolean busy = g_rand_double (rand) < 0.7;

          c[i] = busy ? (guint32)g_rand_int_range (rand, 1, (gint32)dur + 1) : 0;
          /* a tile not busy: any state */
          st[i] = busy ? state : (guint)g_rand_int_range (rand, 0, 4);
          if (kind == 1 && busy)
            st[i] = 1 + (guint)g_rand_int_range (rand, 0, 3);
          if (kind == 4)
            c[i] = 0;
        }
      if (kind == 2)
        c[5] = (guint32)dur / 2, st[5] = TES_TILE_STATE_IDLE;
      if (kind == 3)
        c[77] = (guint32)dur, st[77] = 5;
      if (kind == 6)
        c[100] = (guint32)dur * 3, st[100] = state;
      made[s] = kind == 4 ? TES_TILE_STATE_COMPUTE : state;
      spans[s] = (TesBspSpan) { .start = t, .end = t + dur * 3 / 4, .dur_cycles = dur,
                                .n_tiles = kind == 5 ? 101 : N_TILES, .tile_cycles = c, .tile_states = st };
      t += dur * 3 / 4 + g_rand_int_range (rand, 5, 30);
    }
  pyramid = tes_bsp_pyramid_new (spans, N_SPANS, N_TILES);
  p = pyramid;

  /* the steps' own states, as made */
  g_assert_nonnull (p->levels[0].sole);
  for (guint s = 0; s < N_SPANS; s++)
    {
      guint kind = kind_of (s);
      guint8 sole = p->levels[0].sole[s];

      if (!kind_is_sole (kind))
        {
          /* several states (kind 1 by chance one in a step of 134
           * tiles), or a tile busy past the step's end */
          g_assert_cmpuint (sole, ==, TES_BSP_NO_STATE);
          mixed++;
        }
      else
        {
          /* no tile busy: compute, none to add */
          g_assert_cmpuint (sole, ==, made[s]);
          sole_kinds[sole]++;
        }
    }
  g_assert_cmpuint (mixed, ==, 4 * N_SPANS / 7);
  g_assert_cmpuint (sole_kinds[TES_TILE_STATE_COMPUTE], >, 0);
  g_assert_cmpuint (sole_kinds[TES_TILE_STATE_EXCHANGE], >, 0);
  g_assert_cmpuint (sole_kinds[TES_TILE_STATE_SYNC], >, 0);

  for (guint z = 0; z < G_N_ELEMENTS (zooms); z++)
    for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
      for (guint h = 0; h < G_N_ELEMENTS (heights); h++)
        {
          gint64 span = MAX (t / (gint64)zooms[z], 1);
          gint64 t0 = t / 3 + 17;
          g_autoptr(TesBspGrid) reused = NULL;

          for (guint f = 0; f < G_N_ELEMENTS (moves); f++)
            {
              g_autoptr(TesBspGrid) fresh = NULL;
              g_autoptr(TesBspGrid) direct = NULL;
              gboolean with_cycles = f % 3 != 2;
              gsize n;

              t0 += moves[f] * span / 100;
              fresh = tes_bsp_pyramid_grid_reuse (pyramid, NULL, t0, t0 + span, widths[w], heights[h], TRUE);
              g_assert_cmpuint (fresh->level, ==, 0);
              direct = tes_bsp_grid_build (spans, N_SPANS, N_TILES, t0, t0 + span, widths[w], heights[h], 0);
              n = (gsize)fresh->width * fresh->n_rows;
              g_assert_cmpmem (fresh->states, n, direct->states, n);
              g_assert_cmpmem (fresh->cycles, n * sizeof (float), direct->cycles, n * sizeof (float));
              g_assert_cmpfloat (fresh->max_cycles, ==, direct->max_cycles);
              if (f == 0)
                {
                  guint u = 0;

                  assert_grid_is_reference (fresh, spans, N_SPANS, t0, t0 + span);
                  /* columns taking steps of both kinds, one state first */
                  for (guint c = 0; c < fresh->width; c++)
                    {
                      gint64 from = t0 + (gint64)((double)span * c / fresh->width);
                      gint64 to = t0 + (gint64)((double)span * (c + 1) / fresh->width);
                      gboolean sole_seen = FALSE;

                      for (; u < N_SPANS && spans[u].start < to; u++)
                        if (spans[u].start >= from)
                          {
                            both += sole_seen && !kind_is_sole (kind_of (u));
                            sole_seen = kind_is_sole (kind_of (u));
                          }
                    }
                }

              reused = tes_bsp_pyramid_grid_reuse (pyramid, g_steal_pointer (&reused), t0, t0 + span, widths[w],
                                                   heights[h], with_cycles);
              g_assert_cmpmem (reused->states, n, fresh->states, n);
              if (with_cycles)
                {
                  g_assert_cmpmem (reused->cycles, n * sizeof (float), fresh->cycles, n * sizeof (float));
                  g_assert_cmpfloat (reused->max_cycles, ==, fresh->max_cycles);
                }
              checked++;
            }
        }
  g_assert_cmpuint (checked, ==, G_N_ELEMENTS (zooms) * G_N_ELEMENTS (widths) * G_N_ELEMENTS (heights) *
                                 G_N_ELEMENTS (moves));
  g_assert_cmpuint (both, >, 0);
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

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tes_test_add (TES_TEST_OWN_DATA, "/tes/bsp/grid", test_bsp_grid);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/bsp/pyramid", test_bsp_pyramid);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/bsp/step-time", test_bsp_step_time);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/bsp/spread", test_bsp_spread);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/bsp/pan", test_bsp_pan);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/bsp/sole", test_bsp_sole);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/bsp/large", test_bsp_large);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/bsp/wrap", test_bsp_wrap);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/bsp/activity", test_bsp_activity);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/bsp/cycles-color", test_bsp_cycles_color);

  return g_test_run ();
}
