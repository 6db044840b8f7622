/* tes-bench-tiles.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Times the tile sections, headless, with their own code:
 *
 *  - bsp frame: one BSP heatmap frame (tes_bsp_render_frame, offscreen
 *    1920×1080, each frame using the last one's buffers as the section
 *    does) of IPUS × TILES tiles over STEPS steps, zoomed out and zoomed
 *    in, against the same cells computed from every step in view;
 *  - bsp load: reading the steps and building the sums frames read,
 *    against reading the steps alone;
 *  - memory open: what opening the Memory section does (the model, then
 *    its first drawing) on a report tests/gen-poplar-tiles.py wrote,
 *    against reading the tile memory rows with plain SQL.
 *
 * The BSP steps are generated here, shaped like gen-poplar-tiles.py's
 * (its phases, busy shares and cycles; that script's trace of 2 × 1,472
 * tiles × 100,000 steps would be some 20 GB of JSON), and written to a
 * cache with TesCacheWriter as the Poplar importer writes them.
 *
 *   tes-bench-tiles --ipus 2 --tiles 1472 --steps 100000 --out DIR --memory DIR/poplar
 */

#define G_LOG_DOMAIN "tes-bench-tiles"

#include "config.h"

#include <cairo.h>
#include <glib/gstdio.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "tes-huge-pages.h"
#include "tes-malloc.h"
#include "tes-bench-util.h"
#include "tes-bsp-section.h"
#include "tes-importer-registry.h"
#include "tes-memory-render.h"
#include "tes-report-loader.h"

#define WIDTH  1920
#define HEIGHT 1080

/* --frames-only: no baselines (to profile the frames) */
static gboolean frames_only;
/* --frames: frames per zoom; --zoom: only the zoom of that name */
static gint n_frames = 15;
static char *only_zoom;

/* gen-poplar-tiles.py's PHASES: the state of each step in turn */
static const struct
{
  const char   *name;
  TesTileState  state;
} phases[] = {
  { "OnTileExecute", TES_TILE_STATE_COMPUTE },
  { "DoExchange", TES_TILE_STATE_EXCHANGE },
  { "OnTileExecute", TES_TILE_STATE_COMPUTE },
  { "Sync", TES_TILE_STATE_SYNC },
  { "StreamCopy", TES_TILE_STATE_EXCHANGE },
  { "OnTileExecute", TES_TILE_STATE_COMPUTE },
  { "GlobalExchange", TES_TILE_STATE_EXCHANGE },
};

/* The steps of every IPU, as make_steps() draws them: a step's tiles start
 * together; the next step starts after the slowest IPU and a gap. */
static gboolean
write_steps (const char  *path,
             guint        n_ipus,
             guint        n_tiles,
             guint        n_steps,
             GError     **error)
{
  g_autoptr(TesCacheWriter) writer = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (1);
  g_autofree char *stamp_path = g_strdup (path);
  g_autofree char *fingerprint = g_strdup ("0000000000000000");
  TesSourceStamp stamp = { stamp_path, 0, 0, fingerprint };
  g_autofree guint32 *cycles = g_new (guint32, (gsize)n_ipus * n_tiles);
  g_autofree guint8 *states = g_new (guint8, (gsize)n_ipus * n_tiles);
  g_autofree gint64 *durs = g_new (gint64, n_ipus);
  g_autofree gint64 *runs = g_new (gint64, n_ipus);
  gint64 clock, cycle = 0;

  if (!(writer = tes_cache_writer_new (path, error)))
    return FALSE;
  tes_cache_writer_add_source (writer, &stamp, "tes-bench-tiles", 1, "synthetic");
  clock = tes_cache_writer_add_clock (writer, "IPU", TES_TIME_UNIT_CYCLES, G_GINT64_CONSTANT (1330000000));
  /* the heatmap reads the runs' IPU numbers only */
  for (guint i = 0; i < n_ipus; i++)
    {
      g_autofree char *name = g_strdup_printf ("IPU %u", i);

      runs[i] = tes_cache_writer_add_run (writer, name, clock, 0, 0);
      tes_cache_writer_set_run_ipu (writer, runs[i], (gint)i);
    }

  for (guint s = 0; s < n_steps; s++)
    {
      guint phase = s % G_N_ELEMENTS (phases);
      double busy_share = phases[phase].state == TES_TILE_STATE_COMPUTE ? g_rand_double_range (rand, 0.3, 0.9) : 1.0;
      gint64 base = g_rand_int_range (rand, 300, 6001), longest_all = 0;

      for (guint i = 0; i < n_ipus; i++)
        {
          guint32 *c = cycles + (gsize)i * n_tiles;
          guint8 *st = states + (gsize)i * n_tiles;
          gboolean any = FALSE;

          durs[i] = 0;
          for (guint t = 0; t < n_tiles; t++)
            {
              gboolean busy = g_rand_double (rand) < busy_share;

              c[t] = busy ? (guint32)g_rand_int_range (rand, base / 2, base + 1) : 0;
              st[t] = busy ? phases[phase].state : TES_TILE_STATE_IDLE;
              any |= busy;
              durs[i] = MAX (durs[i], c[t]);
            }
          if (!any)
            {
              c[0] = (guint32)base;
              st[0] = phases[phase].state;
              durs[i] = base;
            }
          longest_all = MAX (longest_all, durs[i]);
        }

      for (guint i = 0; i < n_ipus; i++)
        tes_cache_writer_add_bsp_step (writer, runs[i], s, clock, cycle, durs[i], phases[phase].name, n_tiles,
                                       cycles + (gsize)i * n_tiles, states + (gsize)i * n_tiles);
      cycle += longest_all + g_rand_int_range (rand, 10, 41);
    }

  return tes_cache_writer_commit (writer, NULL, error);
}

static gboolean
load_ipus (TesReport  *report,
           GPtrArray **ipus,
           GError    **error)
{
  return (*ipus = tes_report_get_bsp_ipus (report, TRUE, error)) != NULL;
}

/* The cells of every IPU from the sums: the part of a frame that is not
 * drawing. */
static void
pyramid_cells (TesWorkspace *workspace,
               GPtrArray    *ipus,
               GPtrArray    *grids)
{
  gint64 t0, t1;

  tes_workspace_get_visible (workspace, &t0, &t1);
  g_ptr_array_set_size (grids, ipus->len);
  for (guint i = 0; i < ipus->len; i++)
    {
      const TesBspIpu *ipu = g_ptr_array_index (ipus, i);
      graphene_rect_t rect = tes_bsp_heat_rect (i, ipus->len, WIDTH, HEIGHT);

      g_ptr_array_index (grids, i) = tes_bsp_pyramid_grid_reuse (ipu->pyramid, g_ptr_array_index (grids, i), t0, t1,
                                                                 (guint)rect.size.width, (guint)rect.size.height, TRUE);
    }
}

/* The cells of every IPU from each step in view: what a frame cost before
 * the sums. */
static void
direct_cells (TesWorkspace *workspace,
              GPtrArray    *ipus)
{
  gint64 t0, t1;

  tes_workspace_get_visible (workspace, &t0, &t1);
  for (guint i = 0; i < ipus->len; i++)
    {
      const TesBspIpu *ipu = g_ptr_array_index (ipus, i);
      graphene_rect_t rect = tes_bsp_heat_rect (i, ipus->len, WIDTH, HEIGHT);
      g_autoptr(TesBspGrid) grid = tes_bsp_grid_build ((const TesBspSpan *)(gpointer)ipu->spans->data, ipu->spans->len,
                                                       ipu->n_tiles, t0, t1, (guint)rect.size.width,
                                                       (guint)rect.size.height, 0);
    }
}

static void
bench_frames (TesWorkspace    *workspace,
              GPtrArray       *ipus,
              cairo_surface_t *surface,
              const char      *zoom,
              double           fraction,
              guint64          n)
{
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) direct = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) cells = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) cells_cpu = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) cpu = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) direct_cpu = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(TesBspFrame) frame = tes_bsp_frame_new ();
  g_autoptr(GPtrArray) grids = g_ptr_array_new_with_free_func ((GDestroyNotify)tes_bsp_grid_free);
  g_autofree char *note = NULL;
  const TesBspIpu *ipu0 = g_ptr_array_index (ipus, 0);
  gint64 span_t0, span_t1, width, mid;
  guint level = 0;

  /* the steps' span (the bench's cache has no tracks to give the workspace one) */
  span_t0 = g_array_index (ipu0->spans, TesBspSpan, 0).start;
  span_t1 = g_array_index (ipu0->spans, TesBspSpan, ipu0->spans->len - 1).end;
  width = MAX ((gint64)((span_t1 - span_t0) * fraction), 1000);
  mid = span_t0 + (span_t1 - span_t0) / 2;

  if (only_zoom != NULL && strcmp (only_zoom, zoom) != 0)
    return;

  /* 15 frames, the range moving by 1 % each time, as while panning (more
   * frames pan those 15 again) */
  for (guint i = 0; i < (guint)MAX (n_frames, 1); i++)
    {
      gint64 t0 = fraction >= 1 ? span_t0 : mid - width / 2 + (gint64)(i % 15) * width / 100;
      gint64 start;
      cairo_t *cr;
      double ms;

      tes_workspace_set_visible (workspace, t0, t0 + width);
      start = g_get_monotonic_time ();
      ms = tes_bench_cpu_ms ();
      cr = cairo_create (surface);
      tes_bsp_render_frame (frame, workspace, ipus, TES_BSP_COLOR_STATE, cr, WIDTH, HEIGHT);
      cairo_destroy (cr);
      cairo_surface_flush (surface);
      ms = tes_bench_cpu_ms () - ms;
      g_array_append_val (cpu, ms);
      ms = tes_bench_ms_since (start);
      g_array_append_val (frames, ms);
      start = g_get_monotonic_time ();
      ms = tes_bench_cpu_ms ();
      pyramid_cells (workspace, ipus, grids);
      ms = tes_bench_cpu_ms () - ms;
      g_array_append_val (cells_cpu, ms);
      ms = tes_bench_ms_since (start);
      g_array_append_val (cells, ms);
      level = tes_bsp_pyramid_level_for (ipu0->pyramid, (double)width / tes_bsp_heat_rect (0, ipus->len, WIDTH,
                                                                                           HEIGHT).size.width);
    }

  for (guint i = 0; !frames_only && i < 5; i++)
    {
      gint64 t0 = fraction >= 1 ? span_t0 : mid - width / 2 + (gint64)i * width / 100;
      gint64 start;
      double ms;

      tes_workspace_set_visible (workspace, t0, t0 + width);
      start = g_get_monotonic_time ();
      ms = tes_bench_cpu_ms ();
      direct_cells (workspace, ipus);
      ms = tes_bench_cpu_ms () - ms;
      g_array_append_val (direct_cpu, ms);
      tes_bench_add_since (direct, start);
      if (tes_bench_worst (direct) > 5000)
        break;
    }

  note = g_strdup_printf ("zoom: %s (%.3g of the run's steps in view, groups of %u steps); frames of cells + drawing "
                          "(%d×%d), the range moving by 1 %% each, the cells alone median %.3g ms (CPU time %.3g ms); "
                          "baseline computes the same cells from every step and tile in view, without drawing",
                          zoom, fraction, 1u << (2 * level), WIDTH, HEIGHT, tes_bench_median (cells),
                          tes_bench_median (cells_cpu));
  tes_bench_emit_runs ("bsp frame", frames, "ms", direct, "cells from every step in view", n, note);
  g_free (note);
  note = g_strdup_printf ("zoom: %s; the process's CPU time (CLOCK_PROCESS_CPUTIME_ID) of the frames above and of "
                          "their baseline: what they cost apart from waiting for a core", zoom);
  tes_bench_emit_runs ("bsp frame CPU time", cpu, "ms", direct_cpu, "cells from every step in view", n, note);
}

static gboolean
bench_bsp (const char  *out_dir,
           guint        n_ipus,
           guint        n_tiles,
           guint        n_steps,
           gboolean     keep,
           GError     **error)
{
  g_autofree char *name = g_strdup_printf ("tes-bench-bsp-%ux%ux%u.tessera", n_ipus, n_tiles, n_steps);
  g_autofree char *path = g_build_filename (out_dir, name, NULL);
  g_autoptr(TesReport) report = NULL;
  g_autoptr(TesWorkspace) workspace = NULL;
  g_autoptr(GPtrArray) ipus = NULL;
  g_autofree char *note = NULL;
  guint64 n = (guint64)n_ipus * n_tiles * n_steps;
  gsize sums = 0;
  gint64 start;
  double load_ms, steps_ms;
  cairo_surface_t *surface;
  gboolean ok = TRUE;

  /* a kept cache (--keep) is reused, unless this build cannot read it */
  if (g_file_test (path, G_FILE_TEST_EXISTS) && !(report = tes_report_open_cache (path, NULL)))
    g_unlink (path);
  if (report == NULL &&
      (!write_steps (path, n_ipus, n_tiles, n_steps, error) || !(report = tes_report_open_cache (path, error))))
    return FALSE;

  /* the steps alone: the least a view of them reads */
  start = g_get_monotonic_time ();
  {
    g_autoptr(GPtrArray) steps = tes_report_get_bsp_steps (report, 0, error);

    if (steps == NULL)
      return FALSE;
  }
  steps_ms = tes_bench_ms_since (start);

  start = g_get_monotonic_time ();
  if (!load_ipus (report, &ipus, error))
    return FALSE;
  load_ms = tes_bench_ms_since (start);
  for (guint i = 0; i < ipus->len; i++)
    sums += tes_bsp_pyramid_get_size (((const TesBspIpu *)g_ptr_array_index (ipus, i))->pyramid);
  note = g_strdup_printf ("%u IPUs × %u tiles × %u steps; the sums take %.0f MB beside the steps' %.0f MB",
                          n_ipus, n_tiles, n_steps, sums / 1048576.0, n * 5 / 1048576.0);
  tes_bench_emit ("bsp load", load_ms, "ms", steps_ms, "reading the steps alone", n, note);

  workspace = tes_workspace_new (report);
  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, WIDTH, HEIGHT);
  bench_frames (workspace, ipus, surface, "whole run", 1, n);
  bench_frames (workspace, ipus, surface, "10×", 0.1, n);
  bench_frames (workspace, ipus, surface, "100×", 0.01, n);
  cairo_surface_destroy (surface);

  if (!keep && g_unlink (path) != 0)
    ok = FALSE;

  return ok;
}

/* The baseline of the Memory section: every tile memory row, stepped. */
static gboolean
read_rows (const char  *cache,
           guint64     *n_rows,
           GError     **error)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gboolean ok;

  *n_rows = 0;
  ok = sqlite3_open_v2 (cache, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
       sqlite3_prepare_v2 (db, "SELECT t.ipu, t.tile, m.category, m.bytes FROM tile_memory m "
                               "JOIN tiles t ON t.id = m.tile_id ORDER BY t.ipu, t.tile", -1, &stmt, NULL) == SQLITE_OK;
  while (ok && sqlite3_step (stmt) == SQLITE_ROW)
    (*n_rows)++;
  if (!ok)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s", cache, sqlite3_errmsg (db));
  sqlite3_finalize (stmt);
  sqlite3_close (db);

  return ok;
}

static gboolean
bench_memory (const char  *dir,
              GError     **error)
{
  g_autofree char *compile = g_build_filename (dir, "compile_report.txt", NULL);
  g_autofree char *listing = g_build_filename (dir, "archive_size.txt", NULL);
  const char *paths[] = { compile, listing };
  TesImporter *importers[] = { tes_importer_registry_lookup ("poplar-report"),
                               tes_importer_registry_lookup ("poplar-size-listing") };
  g_autoptr(TesReport) imported = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(TesWorkspace) workspace = NULL;
  g_autoptr(GArray) opens = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) plain = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char *note = NULL;
  g_autofree char *cache = NULL;
  cairo_surface_t *surface;
  guint64 n_rows = 0;
  guint n_tiles = 0;

  if (!(imported = tes_report_import_files (paths, importers, 2, 0, NULL, NULL, error)))
    return FALSE;
  cache = g_strdup (tes_report_get_cache_path (imported));
  if (!(report = tes_report_open_cache (cache, error)))
    return FALSE;
  workspace = tes_workspace_new (report);
  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, WIDTH, HEIGHT);

  /* the model, then the page's first drawing, as the section does */
  for (guint i = 0; i < 5; i++)
    {
      gint64 start = g_get_monotonic_time ();
      g_autoptr(TesMemoryModel) model = tes_memory_model_new (report, error);
      cairo_t *cr;
      double ms;

      if (model == NULL)
        {
          cairo_surface_destroy (surface);
          return FALSE;
        }
      cr = cairo_create (surface);
      tes_memory_render_model (cr, model, TES_MEMORY_VIEW_ALL, WIDTH, NULL);
      cairo_destroy (cr);
      cairo_surface_flush (surface);
      ms = tes_bench_ms_since (start);
      g_array_append_val (opens, ms);
      n_tiles = model->tiles->len;
    }
  cairo_surface_destroy (surface);

  for (guint i = 0; i < 5; i++)
    {
      gint64 start = g_get_monotonic_time ();
      double ms;

      if (!read_rows (cache, &n_rows, error))
        return FALSE;
      ms = tes_bench_ms_since (start);
      g_array_append_val (plain, ms);
    }

  note = g_strdup_printf ("%u tiles of a generated compile report and size -A listing; the memory model and the "
                          "page's first drawing (%d wide); baseline steps the %" G_GUINT64_FORMAT
                          " tile memory rows", n_tiles, WIDTH, n_rows);
  tes_bench_emit_runs ("memory open", opens, "ms", plain, "SQL: every tile memory row", n_tiles, note);

  return TRUE;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out_dir = NULL;
  g_autofree char *memory_dir = NULL;
  gint n_ipus = 2, n_tiles = 1472, n_steps = 100000;
  gboolean keep = FALSE;
  GOptionEntry entries[] = {
    { "ipus", 0, 0, G_OPTION_ARG_INT, &n_ipus, "IPUs (default 2)", "N" },
    { "tiles", 0, 0, G_OPTION_ARG_INT, &n_tiles, "Tiles per IPU (default 1472)", "N" },
    { "steps", 0, 0, G_OPTION_ARG_INT, &n_steps, "BSP steps (default 100000); 0: no BSP figures", "N" },
    { "out", 'o', 0, G_OPTION_ARG_FILENAME, &out_dir, "Folder for the scratch cache", "DIR" },
    { "memory", 0, 0, G_OPTION_ARG_FILENAME, &memory_dir,
      "Folder gen-poplar-tiles.py wrote (compile_report.txt, archive_size.txt)", "DIR" },
    { "keep", 0, 0, G_OPTION_ARG_NONE, &keep, "Keep the BSP cache afterwards", NULL },
    { "frames-only", 0, 0, G_OPTION_ARG_NONE, &frames_only, "Time the frames without their baselines", NULL },
    { "frames", 0, 0, G_OPTION_ARG_INT, &n_frames, "Frames per zoom (default 15)", "N" },
    { "zoom", 0, 0, G_OPTION_ARG_FILENAME, &only_zoom, "Only this zoom: 'whole run', '10×' or '100×'", "NAME" },
    { NULL }
  };

  /* as the programs do, so that what it measures is what they run */
  tes_huge_pages_enable (argv);
  /* as the window does */
  tes_malloc_keep_freed ();
  context = g_option_context_new ("- time the BSP heatmap's frames and the Memory section's opening");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("tes-bench-tiles: %s\n", error->message);
      return 2;
    }
  if (n_ipus < 1 || n_tiles < 1 || n_steps < 0)
    {
      g_printerr ("tes-bench-tiles: --ipus and --tiles must be at least 1\n");
      return 2;
    }
  if (out_dir == NULL)
    out_dir = g_strdup (".");

  if ((n_steps > 0 && !bench_bsp (out_dir, n_ipus, n_tiles, n_steps, keep, &error)) ||
      (memory_dir != NULL && !bench_memory (memory_dir, &error)))
    {
      g_printerr ("tes-bench-tiles: %s\n", error->message);
      return 1;
    }

  return 0;
}
