/* test-memory.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <json-glib/json-glib.h>

#include "tes-importer-registry.h"
#include "tes-report.h"
#include "tes-test-util.h"
#include "tes-workspace.h"
#include "test-poplar-util.h"

/* Memory and cycles per tile: the Poplar histogram as cache rows, the
 * pure binning and checks, the cycles per tile over BSP steps, and
 * tessera-cli memory and tiles, all against a generator's truth. */

/* ---- the printed histogram as rows ----------------------------------------- */

static void
assert_bins (GArray                    *bins,
             const TesTileHistogramBin *expected,
             guint                      n_expected)
{
  g_assert_cmpuint (bins->len, ==, n_expected);
  for (guint i = 0; i < n_expected; i++)
    {
      const TesTileHistogramBin *bin = &g_array_index (bins, TesTileHistogramBin, i);

      g_assert_cmpuint (bin->histogram, ==, expected[i].histogram);
      g_assert_cmpint (bin->ipu, ==, expected[i].ipu);
      g_assert_cmpint (bin->lower, ==, expected[i].lower);
      g_assert_cmpint (bin->upper, ==, expected[i].upper);
      g_assert_cmpint (bin->tiles, ==, expected[i].tiles);
    }
}

#define KB(n) ((gint64)(n) * 1024)

static void
test_histogram_rows (void)
{
  static const TesTileHistogramBin small[] = {
    { 1, -1, KB (0), KB (4), 2 }, { 1, -1, KB (4), KB (8), 3 }, { 1, -1, KB (8), KB (12), 1 },
    { 1, -1, KB (12), KB (16), 1 }, { 1, -1, KB (16), KB (20), 1 },
  };
  /* two histograms, the second with elided rows (which are not bins) */
  static const TesTileHistogramBin elided[] = {
    { 1, -1, KB (0), KB (8), 30 }, { 1, -1, KB (8), KB (16), 2 },
    { 2, -1, KB (0), KB (8), 28 }, { 2, -1, KB (8), KB (16), 2 }, { 2, -1, KB (16), KB (24), 0 },
    { 2, -1, KB (112), KB (120), 0 }, { 2, -1, KB (120), KB (128), 1 }, { 2, -1, KB (248), KB (256), 0 },
    { 2, -1, KB (256), KB (264), 1 },
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = open_copy (TES_TEST_OWN_DATA, "poplar/compile_report_small.txt", "poplar-report", &error);
  g_autoptr(TesReport) two = NULL;
  g_autoptr(GArray) bins = NULL;
  g_autoptr(GArray) none = NULL;
  g_autoptr(TesReport) listing = NULL;

  g_assert_no_error (error);
  bins = tes_report_get_tile_histogram (report, &error);
  g_assert_no_error (error);
  assert_bins (bins, small, G_N_ELEMENTS (small));
  g_clear_pointer (&bins, g_array_unref);

  two = open_copy (TES_TEST_OWN_DATA, "poplar/histograms_elided.txt", "poplar-report", &error);
  g_assert_no_error (error);
  bins = tes_report_get_tile_histogram (two, &error);
  g_assert_no_error (error);
  assert_bins (bins, elided, G_N_ELEMENTS (elided));

  /* a report without one has none */
  listing = open_copy (TES_TEST_OWN_DATA, "poplar/archive_size_small.txt", "poplar-size-listing", &error);
  g_assert_no_error (error);
  none = tes_report_get_tile_histogram (listing, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (none->len, ==, 0);
}

/* ---- pure: binning, checking, the heaviest tiles --------------------------- */

static TesTile
tile_of (int    ipu,
         int    tile,
         gint64 bytes,
         gint64 limit)
{
  TesTile t = { .ipu = ipu, .tile = tile, .memory_limit = limit, .total_bytes = bytes, .has_memory = bytes >= 0 };

  if (bytes < 0)
    t.total_bytes = 0;
  return t;
}

static void
test_pure (void)
{
  /* 3.0, 4.99, 5.0 KB, a tile without bytes, 9.5 KB on IPU 1; 70 KB */
  const TesTile tiles[] = {
    tile_of (0, 0, 3072, 8192), tile_of (0, 1, 5119, 8192), tile_of (0, 2, 5120, 8192),
    tile_of (0, 3, -1, 8192), tile_of (1, 0, 9728, 8192),
  };
  const TesTile wide[] = { tile_of (0, 0, 1024, 0), tile_of (0, 1, KB (70), 0), tile_of (0, 2, KB (33) + 5, 0) };
  static const TesTileHistogramBin one_kb[] = {
    { 0, -1, KB (3), KB (4), 1 }, { 0, -1, KB (4), KB (5), 1 }, { 0, -1, KB (5), KB (6), 1 },
    { 0, -1, KB (6), KB (7), 0 }, { 0, -1, KB (7), KB (8), 0 }, { 0, -1, KB (8), KB (9), 0 },
    { 0, -1, KB (9), KB (10), 1 },
  };
  static const TesTileHistogramBin ipu0[] = {
    { 0, 0, KB (3), KB (4), 1 }, { 0, 0, KB (4), KB (5), 1 }, { 0, 0, KB (5), KB (6), 1 },
  };
  /* 1 .. 70 KB: 2 KB bins would be 35, 1 KB bins 70 */
  static const TesTileHistogramBin two_kb[] = {
    { 0, -1, KB (0), KB (2), 1 }, { 0, -1, KB (32), KB (34), 1 }, { 0, -1, KB (70), KB (72), 1 },
  };
  /* as a report might print them: one count off, the 9.5 KB tile left out */
  static const TesTileHistogramBin printed[] = {
    { 1, -1, KB (3), KB (4), 1 }, { 1, -1, KB (4), KB (5), 2 }, { 1, -1, KB (5), KB (6), 1 },
    { 2, -1, KB (0), KB (8), 3 }, { 2, -1, KB (8), KB (16), 1 },
  };
  g_autoptr(GArray) bins = tes_tile_histogram_from_tiles (tiles, G_N_ELEMENTS (tiles), -1);
  g_autoptr(GArray) bins0 = tes_tile_histogram_from_tiles (tiles, G_N_ELEMENTS (tiles), 0);
  g_autoptr(GArray) wide_bins = tes_tile_histogram_from_tiles (wide, G_N_ELEMENTS (wide), -1);
  g_autoptr(GArray) empty = tes_tile_histogram_from_tiles (tiles, 0, -1);
  g_autoptr(GArray) mismatches = tes_tile_histogram_check (printed, G_N_ELEMENTS (printed), tiles, G_N_ELEMENTS (tiles));
  g_autoptr(GArray) heaviest = tes_tiles_heaviest (tiles, G_N_ELEMENTS (tiles), 3);
  const TesTileHistogramMismatch *m;

  assert_bins (bins, one_kb, G_N_ELEMENTS (one_kb));
  assert_bins (bins0, ipu0, G_N_ELEMENTS (ipu0));
  g_assert_cmpuint (empty->len, ==, 0);

  /* every bin between the two ends is listed: check the ends and widths */
  g_assert_cmpuint (wide_bins->len, ==, 36);
  for (guint i = 0; i < wide_bins->len; i++)
    {
      const TesTileHistogramBin *bin = &g_array_index (wide_bins, TesTileHistogramBin, i);

      g_assert_cmpint (bin->upper - bin->lower, ==, KB (2));
      g_assert_cmpint (bin->lower, ==, KB (2 * i));
      if (bin->tiles > 0)
        {
          gboolean found = FALSE;

          for (guint j = 0; j < G_N_ELEMENTS (two_kb); j++)
            found |= two_kb[j].lower == bin->lower && two_kb[j].tiles == bin->tiles;
          g_assert_true (found);
        }
    }

  /* histogram 1: 4-5 KB off by one, the 9.5 KB tile in no bin; 2 agrees */
  g_assert_cmpuint (mismatches->len, ==, 2);
  m = &g_array_index (mismatches, TesTileHistogramMismatch, 0);
  g_assert_cmpuint (m->histogram, ==, 1);
  g_assert_cmpint (m->lower, ==, KB (4));
  g_assert_cmpint (m->upper, ==, KB (5));
  g_assert_cmpint (m->printed, ==, 2);
  g_assert_cmpint (m->binned, ==, 1);
  m = &g_array_index (mismatches, TesTileHistogramMismatch, 1);
  g_assert_cmpuint (m->histogram, ==, 1);
  g_assert_cmpint (m->lower, ==, -1);
  g_assert_cmpint (m->binned, ==, 1);

  /* the heaviest: 9.5 KB, then 5.0 and 4.99 KB; no tile without bytes */
  g_assert_cmpuint (heaviest->len, ==, 3);
  g_assert_cmpint (g_array_index (heaviest, TesTile, 0).ipu, ==, 1);
  g_assert_cmpint (g_array_index (heaviest, TesTile, 1).tile, ==, 2);
  g_assert_cmpint (g_array_index (heaviest, TesTile, 2).tile, ==, 1);

  /* only the 9.5 KB tile is over its 8 KB; tiles without a limit never are */
  g_assert_cmpuint (tes_tiles_count_out_of_memory (tiles, G_N_ELEMENTS (tiles)), ==, 1);
  g_assert_cmpuint (tes_tiles_count_out_of_memory (wide, G_N_ELEMENTS (wide)), ==, 0);
}

/* ---- a generator's run ---------------------------------------------------- */

static TesImporter *
importer_for (const char *name)
{
  if (g_str_has_suffix (name, ".json"))
    return tes_importer_registry_lookup ("chrome-json");
  if (g_str_has_prefix (name, "archive"))
    return tes_importer_registry_lookup ("poplar-size-listing");
  return tes_importer_registry_lookup ("poplar-report");
}

static TesReport *
open_generated (Generated  *g,
                const char *first,
                const char *second)
{
  g_autofree char *first_path = generated_path (g, first);
  g_autofree char *second_path = second ? generated_path (g, second) : NULL;
  const char *paths[] = { first_path, second_path };
  TesImporter *importers[] = { importer_for (first), second ? importer_for (second) : NULL };

  return tes_test_import_files (paths, importers, second ? 2 : 1, TES_REPORT_OPEN_REIMPORT);
}

static gint64
truth_int (JsonObject *object,
           const char *member)
{
  return json_object_get_int_member (object, member);
}

/* The truth's tiles, heaviest first (ties in tile order, as Python's
 * stable sort leaves them). */
static gint
compare_truth_heavier (gconstpointer a,
                       gconstpointer b)
{
  JsonObject *x = *(JsonObject * const *)a;
  JsonObject *y = *(JsonObject * const *)b;
  gint64 tx = truth_int (x, "total"), ty = truth_int (y, "total");

  if (tx != ty)
    return tx > ty ? -1 : 1;
  if (truth_int (x, "ipu") != truth_int (y, "ipu"))
    return truth_int (x, "ipu") < truth_int (y, "ipu") ? -1 : 1;
  return truth_int (x, "tile") < truth_int (y, "tile") ? -1 : 1;
}

static GPtrArray *
truth_heaviest (Generated *g)
{
  JsonArray *tiles = truth_tiles (g);
  g_autoptr(GPtrArray) sorted = g_ptr_array_new ();

  for (guint i = 0; i < json_array_get_length (tiles); i++)
    g_ptr_array_add (sorted, json_array_get_object_element (tiles, i));
  g_ptr_array_sort (sorted, compare_truth_heavier);

  return g_steal_pointer (&sorted);
}

/* The truth's histogram bins: those printed (the shown ones, or every
 * non-empty bin and its neighbours, as the shared generator prints them)
 * or all. */
static GArray *
truth_histogram (Generated *g,
                 gboolean   printed,
                 guint      histogram)
{
  JsonObject *hist = json_object_get_object_member (g->truth, "histogram");
  JsonArray *counts = json_object_get_array_member (hist, "counts");
  gint64 width = truth_int (hist, "width_kb");
  gint64 start = truth_int (hist, "start_kb");
  guint n = json_array_get_length (counts);
  g_autoptr(GArray) bins = g_array_new (FALSE, TRUE, sizeof (TesTileHistogramBin));

  for (guint i = 0; i < n; i++)
    {
      gint64 count = json_array_get_int_element (counts, i);
      gboolean near = count > 0 ||
                      (i > 0 && json_array_get_int_element (counts, i - 1) > 0) ||
                      (i + 1 < n && json_array_get_int_element (counts, i + 1) > 0);
      TesTileHistogramBin bin = { histogram, -1, KB (start + i * width), KB (start + (i + 1) * width), count };

      if (!printed || near)
        g_array_append_val (bins, bin);
    }

  return g_steal_pointer (&bins);
}

/* The printed histogram as rows equals the truth's, bin for bin; binned
 * from the listing's per-tile totals into the printed bins it is the
 * same; the tiles out of memory and the heaviest agree with the truth;
 * each tile's total is its listing's, also for the tiles the report
 * details too. */
static void
check_memory_generated (TesTestData data)
{
  g_auto(Generated) g = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GArray) printed = NULL;
  g_autoptr(GArray) expected = NULL;
  g_autoptr(GArray) tiles = NULL;
  g_autoptr(GArray) mismatches = NULL;
  g_autoptr(GArray) heaviest = NULL;
  g_autoptr(GPtrArray) truth_top = NULL;
  JsonArray *truth = NULL;

  generate (&g, data);
  truth = truth_tiles (&g);
  report = open_generated (&g, "compile_report.txt", "archive_size.txt");

  printed = tes_report_get_tile_histogram (report, &error);
  g_assert_no_error (error);
  expected = truth_histogram (&g, TRUE, 1);
  assert_bins (printed, (const TesTileHistogramBin *)(gpointer)expected->data, expected->len);

  tiles = tes_report_get_tiles (report, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tiles->len, ==, json_array_get_length (truth));
  for (guint i = 0; i < tiles->len; i++)
    {
      const TesTile *tile = &g_array_index (tiles, TesTile, i);
      JsonObject *t = json_array_get_object_element (truth, i);

      g_assert_cmpint (tile->ipu, ==, truth_int (t, "ipu"));
      g_assert_cmpint (tile->tile, ==, truth_int (t, "tile"));
      g_assert_true (tile->has_memory);
      g_assert_cmpint (tile->total_bytes, ==, truth_int (t, "total"));
    }

  mismatches = tes_tile_histogram_check ((const TesTileHistogramBin *)(gpointer)printed->data, printed->len,
                                         (const TesTile *)(gpointer)tiles->data, tiles->len);
  g_assert_cmpuint (mismatches->len, ==, 0);

  g_assert_cmpuint (tes_tiles_count_out_of_memory ((const TesTile *)(gpointer)tiles->data, tiles->len), ==,
                    truth_int (g.truth, "out_of_memory"));

  heaviest = tes_tiles_heaviest ((const TesTile *)(gpointer)tiles->data, tiles->len, 5);
  truth_top = truth_heaviest (&g);
  g_assert_cmpuint (heaviest->len, ==, 5);
  for (guint i = 0; i < heaviest->len; i++)
    {
      const TesTile *tile = &g_array_index (heaviest, TesTile, i);
      JsonObject *t = g_ptr_array_index (truth_top, i);

      g_assert_cmpint (tile->ipu, ==, truth_int (t, "ipu"));
      g_assert_cmpint (tile->tile, ==, truth_int (t, "tile"));
      g_assert_cmpint (tile->total_bytes, ==, truth_int (t, "total"));
    }

  /* the generators' own list of the heaviest is a prefix of ours */
  {
    JsonArray *top = json_object_get_array_member (g.truth, "top_tiles");

    for (guint i = 0; i < json_array_get_length (top); i++)
      {
        JsonObject *t = json_array_get_object_element (truth, json_array_get_int_element (top, i));

        g_assert_cmpint (g_array_index (heaviest, TesTile, i).total_bytes, ==, truth_int (t, "total"));
      }
  }

  /* our generator bins as Tessera does: binned from the listing alone,
   * the histogram is the truth's, every bin */
  if (data == TES_TEST_OWN_DATA)
    {
      g_autoptr(GArray) all = truth_histogram (&g, FALSE, 0);
      g_autoptr(GArray) binned = tes_tile_histogram_from_tiles ((const TesTile *)(gpointer)tiles->data, tiles->len, -1);

      assert_bins (binned, (const TesTileHistogramBin *)(gpointer)all->data, all->len);
    }
}

static void
test_memory_generated (void)
{
  check_memory_generated (TES_TEST_OWN_DATA);
}

static void
test_memory_generated_shared (void)
{
  check_memory_generated (TES_TEST_SHARED_DATA);
}

/* ---- cycles per tile -------------------------------------------------------- */

typedef struct
{
  gint64 cycles[4];   /* by TesTileState */
} Expected;

static TesTileState
state_of (const char *name)
{
  if (g_str_equal (name, "compute"))
    return TES_TILE_STATE_COMPUTE;
  if (g_str_equal (name, "exchange"))
    return TES_TILE_STATE_EXCHANGE;
  g_assert_cmpstr (name, ==, "sync");
  return TES_TILE_STATE_SYNC;
}

/* Per tile (IPU-major), what the truth's steps that start in [from, to)
 * cycles add up to. */
static Expected *
truth_activity (Generated *g,
                gint64     from,
                gint64     to)
{
  JsonArray *steps = json_object_get_array_member (g->truth, "steps");
  guint tiles_per_ipu = (guint)truth_int (g->truth, "tiles_per_ipu");
  Expected *expected = g_new0 (Expected, g->n_ipus * tiles_per_ipu);

  for (guint s = 0; s < json_array_get_length (steps); s++)
    {
      JsonObject *step = json_array_get_object_element (steps, s);
      JsonArray *cycles = json_object_get_array_member (step, "cycles");
      TesTileState state = state_of (json_object_get_string_member (step, "state"));
      gint64 start = truth_int (step, "start");
      gint64 dur = truth_int (step, "dur");
      guint ipu = (guint)truth_int (step, "ipu");

      if (start < from || start >= to)
        continue;
      for (guint t = 0; t < tiles_per_ipu; t++)
        {
          Expected *e = &expected[ipu * tiles_per_ipu + t];
          gint64 c = json_array_get_int_element (cycles, t);

          e->cycles[c > 0 ? state : TES_TILE_STATE_IDLE] += c;
          e->cycles[TES_TILE_STATE_IDLE] += dur - c;
        }
    }

  return expected;
}

/* Halfway through the gap before a step (the generator leaves 10 to 40
 * cycles between steps): a bound no rounding moves across a step. */
static gint64
before_step (Generated *g,
             gint64     index)
{
  JsonArray *steps = json_object_get_array_member (g->truth, "steps");
  gint64 start = -1, prev_end = 0;

  for (guint s = 0; s < json_array_get_length (steps); s++)
    {
      JsonObject *step = json_array_get_object_element (steps, s);

      if (truth_int (step, "step") == index - 1)
        prev_end = MAX (prev_end, truth_int (step, "start") + truth_int (step, "dur"));
      if (truth_int (step, "step") == index)
        start = truth_int (step, "start");
    }
  g_assert_cmpint (start, >, prev_end);

  return (prev_end + start) / 2;
}

static void
assert_activity (GArray         *activity,
                 Generated      *g,
                 const Expected *expected)
{
  guint tiles_per_ipu = (guint)truth_int (g->truth, "tiles_per_ipu");

  g_assert_cmpuint (activity->len, ==, g->n_ipus * tiles_per_ipu);
  for (guint i = 0; i < activity->len; i++)
    {
      const TesTileActivity *row = &g_array_index (activity, TesTileActivity, i);

      g_assert_cmpint (row->ipu, ==, i / tiles_per_ipu);
      g_assert_cmpint (row->tile, ==, i % tiles_per_ipu);
      for (guint s = 0; s < 4; s++)
        g_assert_cmpint (row->cycles[s], ==, expected[i].cycles[s]);
    }
}

static void
test_activity_generated (void)
{
  g_auto(Generated) g = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(TesWorkspace) workspace = NULL;
  g_autoptr(GArray) all = NULL;
  g_autoptr(GArray) part = NULL;
  g_autofree Expected *expected_all = NULL;
  g_autofree Expected *expected_part = NULL;
  g_autofree char *range = NULL;
  JsonArray *steps;
  gint64 from, to, t0, t1;
  guint tiles_per_ipu;

  generate (&g, TES_TEST_OWN_DATA);
  report = open_generated (&g, "execution.json", NULL);
  steps = json_object_get_array_member (g.truth, "steps");
  tiles_per_ipu = (guint)truth_int (g.truth, "tiles_per_ipu");

  /* the whole run: active cycles are the trace's cycles, tile by tile */
  all = tes_report_get_tile_activity (report, G_MININT64, G_MAXINT64, &error);
  g_assert_no_error (error);
  expected_all = truth_activity (&g, G_MININT64, G_MAXINT64);
  assert_activity (all, &g, expected_all);
  for (guint i = 0; i < all->len; i++)
    {
      const TesTileActivity *row = &g_array_index (all, TesTileActivity, i);
      gint64 active = 0, busy = 0;

      for (guint s = 0; s < json_array_get_length (steps); s++)
        {
          JsonObject *step = json_array_get_object_element (steps, s);

          if (truth_int (step, "ipu") == row->ipu)
            busy += json_array_get_int_element (json_object_get_array_member (step, "cycles"), (guint)row->tile);
        }
      active = row->cycles[TES_TILE_STATE_COMPUTE] + row->cycles[TES_TILE_STATE_EXCHANGE] +
               row->cycles[TES_TILE_STATE_SYNC];
      g_assert_cmpint (active, ==, busy);
      g_assert_cmpuint (row->n_steps, ==, json_array_get_length (steps) / g.n_ipus);
    }

  /* steps 3 to 9, the range given as the CLI takes it */
  from = before_step (&g, 3);
  to = before_step (&g, 10);
  range = g_strdup_printf ("%" G_GINT64_FORMAT "cycles:%" G_GINT64_FORMAT "cycles", from, to);
  workspace = tes_workspace_new (report);
  g_assert_true (tes_workspace_parse_range (workspace, range, &t0, &t1, &error));
  g_assert_no_error (error);
  part = tes_report_get_tile_activity (report, t0, t1, &error);
  g_assert_no_error (error);
  expected_part = truth_activity (&g, from, to);
  assert_activity (part, &g, expected_part);
  g_assert_cmpuint (g_array_index (part, TesTileActivity, tiles_per_ipu).n_steps, ==, 7);

  /* a report without BSP steps has no rows */
  {
    g_autoptr(TesReport) listing = open_generated (&g, "archive_size.txt", NULL);
    g_autoptr(GArray) none = tes_report_get_tile_activity (listing, G_MININT64, G_MAXINT64, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (none->len, ==, 0);
  }
}

/* ---- tessera-cli memory and tiles ---------------------------------------- */

static char *
expected_memory_csv (Generated *g,
                     GArray    *bins,
                     gboolean   with_report)
{
  g_autoptr(GString) csv = g_string_new ("record,source,ipu,tile,lower_kb,upper_kb,tiles,bytes\n");
  g_autoptr(GPtrArray) top = truth_heaviest (g);

  for (guint i = 0; i < bins->len; i++)
    {
      const TesTileHistogramBin *bin = &g_array_index (bins, TesTileHistogramBin, i);

      g_string_append_printf (csv, "bin,%s,,,%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",\n",
                              with_report ? "report" : "per-tile", bin->lower / 1024, bin->upper / 1024, bin->tiles);
    }
  if (with_report)
    for (guint i = 0; i < 2; i++)
      g_string_append_printf (csv, "out_of_memory,%s,,,,,%" G_GINT64_FORMAT ",\n",
                              i == 0 ? "report" : "per-tile", truth_int (g->truth, "out_of_memory"));
  for (guint i = 0; i < 5; i++)
    {
      JsonObject *t = g_ptr_array_index (top, i);

      g_string_append_printf (csv, "top,per-tile,%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",,,,%" G_GINT64_FORMAT "\n",
                              truth_int (t, "ipu"), truth_int (t, "tile"), truth_int (t, "total"));
    }

  return g_string_free (g_steal_pointer (&csv), FALSE);
}

static void
test_cli_memory (void)
{
  g_auto(Generated) g = { 0 };
  g_auto(TesCliResult) cli = { 0 };
  g_autofree char *report = NULL;
  g_autofree char *listing = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *listing_csv = NULL;
  g_autofree char *oom = NULL;
  g_autofree char *heaviest = NULL;
  g_autoptr(GArray) printed = NULL;
  g_autoptr(GArray) all = NULL;
  g_autoptr(GPtrArray) top = NULL;
  JsonObject *t;

  generate (&g, TES_TEST_OWN_DATA);
  report = generated_path (&g, "compile_report.txt");
  listing = generated_path (&g, "archive_size.txt");
  printed = truth_histogram (&g, TRUE, 1);
  all = truth_histogram (&g, FALSE, 0);
  top = truth_heaviest (&g);

  /* the report's histogram, checked against the listing */
  csv = expected_memory_csv (&g, printed, TRUE);
  tes_test_run_cli (&cli, "memory", "--csv", report, listing, NULL);
  g_assert_cmpint (cli.status, ==, 0);
  g_assert_cmpstr (cli.out, ==, csv);

  tes_test_run_cli (&cli, "memory", report, listing, NULL);
  g_assert_cmpint (cli.status, ==, 0);
  tes_test_assert_contains (cli.out, "Histogram (printed by the report):\n");
  tes_test_assert_contains (cli.out, "The per-tile totals of all 48 tiles agree with the printed histogram.\n");
  g_assert_null (strstr (cli.out, "Mismatch"));
  oom = g_strdup_printf ("Tiles out of memory: %" G_GINT64_FORMAT " of 48\n", truth_int (g.truth, "out_of_memory"));
  tes_test_assert_contains (cli.out, oom);
  t = g_ptr_array_index (top, 0);
  heaviest = g_strdup_printf ("Heaviest tiles:\n    IPU   tile        bytes\n  %5" G_GINT64_FORMAT " %6" G_GINT64_FORMAT " %12" G_GINT64_FORMAT "\n",
                              truth_int (t, "ipu"), truth_int (t, "tile"), truth_int (t, "total"));
  tes_test_assert_contains (cli.out, heaviest);
  for (guint i = 0; i < printed->len; i++)
    {
      const TesTileHistogramBin *bin = &g_array_index (printed, TesTileHistogramBin, i);
      g_autofree char *line = g_strdup_printf ("\n  %10" G_GINT64_FORMAT " %10" G_GINT64_FORMAT " %10" G_GINT64_FORMAT "\n",
                                               bin->lower / 1024, bin->upper / 1024, bin->tiles);

      tes_test_assert_contains (cli.out, line);
    }

  /* the report alone details only its heaviest tiles: nothing to check */
  tes_test_run_cli (&cli, "memory", report, NULL);
  g_assert_cmpint (cli.status, ==, 0);
  tes_test_assert_contains (cli.out, "Not checked against the tiles: 4 of 48 have their bytes");
  tes_test_assert_contains (cli.out, "Heaviest tiles (of those whose bytes the report details):\n");

  /* the listing alone: binned by Tessera, the truth's bins */
  listing_csv = expected_memory_csv (&g, all, FALSE);
  tes_test_run_cli (&cli, "memory", "--csv", listing, NULL);
  g_assert_cmpint (cli.status, ==, 0);
  g_assert_cmpstr (cli.out, ==, listing_csv);
  tes_test_run_cli (&cli, "memory", listing, NULL);
  g_assert_cmpint (cli.status, ==, 0);
  tes_test_assert_contains (cli.out, "Histogram (binned from the per-tile totals, 32 KB bins):\n");
  tes_test_assert_contains (cli.out, "Tiles out of memory: unknown");
}

/* A report whose histogram and count of tiles out of memory the listing
 * does not bear out: the CLI says where, rather than hiding it. */
static void
test_cli_memory_mismatch (void)
{
  g_auto(Generated) g = { 0 };
  g_auto(TesCliResult) cli = { 0 };
  g_autofree char *report = NULL;
  g_autofree char *listing = NULL;
  g_autofree char *text = NULL;
  g_autofree char *tampered = NULL;
  g_autofree char *first_line = NULL;
  g_autofree char *first_csv = NULL;
  g_autofree char *outside_line = NULL;
  g_autofree char *outside_csv = NULL;
  g_autofree char *oom_line = NULL;
  g_autofree char *oom_csv = NULL;
  g_autoptr(GArray) printed = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  const TesTileHistogramBin *first, *last;
  guint header = 0, last_row = 0;
  gint64 oom;

  generate (&g, TES_TEST_OWN_DATA);
  oom = truth_int (g.truth, "out_of_memory");
  report = generated_path (&g, "compile_report.txt");
  listing = generated_path (&g, "archive_size.txt");
  printed = truth_histogram (&g, TRUE, 1);
  first = &g_array_index (printed, TesTileHistogramBin, 0);
  last = &g_array_index (printed, TesTileHistogramBin, printed->len - 1);
  g_assert_cmpint (last->tiles, >, 0);

  /* one more tile in the first bin, the last bin left out */
  g_file_get_contents (report, &text, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  while (lines[header] && !strstr (lines[header], "Range (KB)"))
    header++;
  g_assert_nonnull (lines[header]);
  last_row = header + printed->len;
  {
    char *row = lines[header + 1];
    char *count = strrchr (row, ' ') + 1;
    g_autofree char *bumped = g_strdup_printf ("%.*s%" G_GINT64_FORMAT, (int)(count - row), row, first->tiles + 1);

    g_free (lines[header + 1]);
    lines[header + 1] = g_steal_pointer (&bumped);
    lines[last_row][0] = '\0';
  }
  /* and one tile more out of memory */
  for (guint i = last_row; lines[i] != NULL; i++)
    if (g_str_has_suffix (lines[i], " tile(s) out of memory"))
      {
        g_free (lines[i]);
        lines[i] = g_strdup_printf ("    %" G_GINT64_FORMAT " tile(s) out of memory", oom + 1);
        break;
      }
  tampered = g_strjoinv ("\n", lines);
  tes_test_write_file (report, tampered, -1);

  first_line = g_strdup_printf ("Mismatch: %" G_GINT64_FORMAT " - %" G_GINT64_FORMAT " KB: the report prints %" G_GINT64_FORMAT
                                " tiles, the per-tile totals put %" G_GINT64_FORMAT " there\n",
                                first->lower / 1024, first->upper / 1024, first->tiles + 1, first->tiles);
  outside_line = g_strdup_printf ("Mismatch: the per-tile totals of %" G_GINT64_FORMAT " tiles fall in no printed bin\n",
                                  last->tiles);
  first_csv = g_strdup_printf ("\nmismatch,per-tile,,,%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",\n",
                               first->lower / 1024, first->upper / 1024, first->tiles);
  outside_csv = g_strdup_printf ("\nmismatch,per-tile,,,,,%" G_GINT64_FORMAT ",\n", last->tiles);
  oom_line = g_strdup_printf ("Tiles out of memory: %" G_GINT64_FORMAT " of 48\n"
                              "Mismatch: the report prints %" G_GINT64_FORMAT " tiles out of memory, "
                              "the per-tile totals give %" G_GINT64_FORMAT "\n", oom, oom + 1, oom);
  oom_csv = g_strdup_printf ("\nout_of_memory,report,,,,,%" G_GINT64_FORMAT ",\nout_of_memory,per-tile,,,,,%" G_GINT64_FORMAT ",\n",
                             oom + 1, oom);

  tes_test_run_cli (&cli, "memory", report, listing, NULL);
  g_assert_cmpint (cli.status, ==, 0);
  tes_test_assert_contains (cli.out, first_line);
  tes_test_assert_contains (cli.out, outside_line);
  tes_test_assert_contains (cli.out, oom_line);
  g_assert_null (strstr (cli.out, "agree"));

  tes_test_run_cli (&cli, "memory", "--csv", report, listing, NULL);
  g_assert_cmpint (cli.status, ==, 0);
  tes_test_assert_contains (cli.out, first_csv);
  tes_test_assert_contains (cli.out, outside_csv);
  tes_test_assert_contains (cli.out, oom_csv);
}

static void
test_cli_memory_tiles (void)
{
  g_auto(Generated) g = { 0 };
  g_auto(TesCliResult) cli = { 0 };
  g_autofree char *report = NULL;
  g_autofree char *listing = NULL;
  g_auto(GStrv) rows = NULL;
  JsonArray *truth;
  /* the generator's order, in which the files list them */
  static const char *sections[] = { ".data", ".rodata", ".bss", ".data.vertex", ".text", ".text.vertex", ".text.exchange" };
  static const char *data_types[] = {
    "Variables", "Constants", "Stack", "Vertex Instances", "Vertex Field Data", "Control Code", "Vertex Code",
    "Internal Exchange Code", "Host Exchange Code",
  };

  generate (&g, TES_TEST_OWN_DATA);
  report = generated_path (&g, "compile_report.txt");
  listing = generated_path (&g, "archive_size.txt");
  truth = truth_tiles (&g);

  /* sections first (the listing's), then the report's data types, in
   * whichever order the files come */
  for (guint order = 0; order < 2; order++)
    {
      tes_test_run_cli (&cli, "memory", "--tiles", "--csv", "--reimport",
                        order ? listing : report, order ? report : listing, NULL);
      g_assert_cmpint (cli.status, ==, 0);
      g_clear_pointer (&rows, g_strfreev);
      rows = g_strsplit (cli.out, "\n", -1);
      g_assert_cmpstr (rows[0], ==, "ipu,tile,total_bytes,.data,.rodata,.bss,.data.vertex,.text,.text.vertex,.text.exchange,"
                                    "Variables,Constants,Stack,Vertex Instances,Vertex Field Data,Control Code,Vertex Code,"
                                    "Internal Exchange Code,Host Exchange Code");
      g_assert_cmpuint (g_strv_length (rows), ==, json_array_get_length (truth) + 2);
      g_assert_cmpstr (rows[json_array_get_length (truth) + 1], ==, "");
    }

  for (guint i = 0; i < json_array_get_length (truth); i++)
    {
      JsonObject *t = json_array_get_object_element (truth, i);
      JsonObject *by_section = json_object_get_object_member (t, "sections");
      JsonObject *types = json_object_get_object_member (t, "data_types");
      JsonArray *top = json_object_get_array_member (g.truth, "top_tiles");
      g_autoptr(GString) expected = g_string_new (NULL);
      gboolean detailed = FALSE;

      for (guint k = 0; k < json_array_get_length (top); k++)
        detailed |= json_array_get_int_element (top, k) == truth_int (t, "index");

      g_string_printf (expected, "%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT,
                       truth_int (t, "ipu"), truth_int (t, "tile"), truth_int (t, "total"));
      for (guint s = 0; s < G_N_ELEMENTS (sections); s++)
        g_string_append_printf (expected, ",%" G_GINT64_FORMAT, truth_int (by_section, sections[s]));
      for (guint d = 0; d < G_N_ELEMENTS (data_types); d++)
        if (detailed)
          g_string_append_printf (expected, ",%" G_GINT64_FORMAT, truth_int (types, data_types[d]));
        else
          g_string_append_c (expected, ',');
      g_assert_cmpstr (rows[i + 1], ==, expected->str);
    }

  /* text: a row per tile under a header */
  tes_test_run_cli (&cli, "memory", "--tiles", listing, NULL);
  g_assert_cmpint (cli.status, ==, 0);
  g_clear_pointer (&rows, g_strfreev);
  rows = g_strsplit (cli.out, "\n", -1);
  g_assert_true (g_str_has_prefix (rows[0], "  IPU   tile  total bytes      .data"));
  g_assert_cmpuint (g_strv_length (rows), ==, json_array_get_length (truth) + 2);
  {
    JsonObject *t = json_array_get_object_element (truth, 0);
    g_autofree char *start = g_strdup_printf ("    0      0 %12" G_GINT64_FORMAT " %10" G_GINT64_FORMAT,
                                              truth_int (t, "total"),
                                              truth_int (json_object_get_object_member (t, "sections"), ".data"));

    g_assert_true (g_str_has_prefix (rows[1], start));
  }
}

static void
test_cli_tiles (void)
{
  g_auto(Generated) g = { 0 };
  g_auto(TesCliResult) cli = { 0 };
  g_autofree char *trace = NULL;
  g_autofree char *range = NULL;
  g_autofree Expected *all = NULL;
  g_autofree Expected *part = NULL;
  guint tiles_per_ipu;
  gint64 from, to;

  generate (&g, TES_TEST_OWN_DATA);
  trace = generated_path (&g, "execution.json");
  tiles_per_ipu = (guint)truth_int (g.truth, "tiles_per_ipu");
  from = before_step (&g, 3);
  to = before_step (&g, 10);
  range = g_strdup_printf ("%" G_GINT64_FORMAT "cycles:%" G_GINT64_FORMAT "cycles", from, to);
  all = truth_activity (&g, G_MININT64, G_MAXINT64);
  part = truth_activity (&g, from, to);

  for (guint with_range = 0; with_range < 2; with_range++)
    {
      const Expected *expected = with_range ? part : all;
      g_autoptr(GString) csv = g_string_new ("ipu,tile,compute,exchange,sync,idle\n");
      g_autoptr(GString) text = g_string_new ("  IPU   tile      compute     exchange         sync         idle\n");

      for (guint i = 0; i < g.n_ipus * tiles_per_ipu; i++)
        {
          const gint64 *c = expected[i].cycles;

          g_string_append_printf (csv, "%u,%u,%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "\n",
                                  i / tiles_per_ipu, i % tiles_per_ipu, c[TES_TILE_STATE_COMPUTE],
                                  c[TES_TILE_STATE_EXCHANGE], c[TES_TILE_STATE_SYNC], c[TES_TILE_STATE_IDLE]);
          g_string_append_printf (text, "%5u %6u %12" G_GINT64_FORMAT " %12" G_GINT64_FORMAT " %12" G_GINT64_FORMAT " %12" G_GINT64_FORMAT "\n",
                                  i / tiles_per_ipu, i % tiles_per_ipu, c[TES_TILE_STATE_COMPUTE],
                                  c[TES_TILE_STATE_EXCHANGE], c[TES_TILE_STATE_SYNC], c[TES_TILE_STATE_IDLE]);
        }

      if (with_range)
        tes_test_run_cli (&cli, "tiles", "--csv", "--range", range, trace, NULL);
      else
        tes_test_run_cli (&cli, "tiles", "--csv", trace, NULL);
      g_assert_cmpint (cli.status, ==, 0);
      g_assert_cmpstr (cli.out, ==, csv->str);

      if (with_range)
        tes_test_run_cli (&cli, "tiles", "--range", range, trace, NULL);
      else
        tes_test_run_cli (&cli, "tiles", trace, NULL);
      g_assert_cmpint (cli.status, ==, 0);
      g_assert_cmpstr (cli.out, ==, text->str);
    }
}

/* Bad input: exit 1 naming the file; usage slips: exit 2. */
static void
test_cli_errors (void)
{
  g_auto(Generated) g = { 0 };
  g_auto(TesCliResult) cli = { 0 };
  g_autofree char *missing = NULL;
  g_autofree char *trace = NULL;
  g_autofree char *report = NULL;
  g_autofree char *garbage = NULL;
  static const char * const commands[][2] = { { "memory", NULL }, { "memory", "--tiles" }, { "tiles", NULL } };

  generate (&g, TES_TEST_OWN_DATA);
  missing = generated_path (&g, "no-such-file.txt");
  trace = generated_path (&g, "execution.json");
  report = generated_path (&g, "compile_report.txt");
  garbage = generated_path (&g, "garbage.txt");
  tes_test_write_file (garbage, "\x01\x02 not a report at all\n", -1);

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      const char *what = commands[i][0];
      const char *option = commands[i][1] ? commands[i][1] : "--csv";

      tes_test_run_cli (&cli, what, option, missing, NULL);
      g_assert_cmpint (cli.status, ==, 1);
      tes_test_assert_contains (cli.err, missing);
      g_assert_cmpstr (cli.out, ==, "");

      tes_test_run_cli (&cli, what, option, garbage, NULL);
      g_assert_cmpint (cli.status, ==, 1);
      tes_test_assert_contains (cli.err, garbage);

      tes_test_run_cli (&cli, what, NULL);
      g_assert_cmpint (cli.status, ==, 2);
      tes_test_run_cli (&cli, what, "--no-such-option", report, NULL);
      g_assert_cmpint (cli.status, ==, 2);
    }

  /* a report without what the command shows */
  tes_test_run_cli (&cli, "memory", trace, NULL);
  g_assert_cmpint (cli.status, ==, 1);
  tes_test_assert_contains (cli.err, trace);
  tes_test_assert_contains (cli.err, "no memory per tile");
  tes_test_run_cli (&cli, "tiles", report, NULL);
  g_assert_cmpint (cli.status, ==, 1);
  tes_test_assert_contains (cli.err, report);
  tes_test_assert_contains (cli.err, "no BSP steps");

  /* a range that is not one */
  tes_test_run_cli (&cli, "tiles", "--range", "5:1", trace, NULL);
  g_assert_cmpint (cli.status, ==, 2);
  tes_test_assert_contains (cli.err, "ends before it starts");
  tes_test_run_cli (&cli, "tiles", "--range", "soon", trace, NULL);
  g_assert_cmpint (cli.status, ==, 2);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tes_test_add (TES_TEST_OWN_DATA, "/tes/memory/histogram-rows", test_histogram_rows);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/memory/pure", test_pure);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/memory/generated", test_memory_generated);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/memory/activity", test_activity_generated);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/memory/cli/memory", test_cli_memory);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/memory/cli/memory-mismatch", test_cli_memory_mismatch);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/memory/cli/memory-tiles", test_cli_memory_tiles);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/memory/cli/tiles", test_cli_tiles);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/memory/cli/errors", test_cli_errors);

  tes_test_add (TES_TEST_SHARED_DATA, "/tes/memory/generated", test_memory_generated_shared);

  return g_test_run ();
}
