/* test-poplar-trace.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>
#include <sqlite3.h>

#include "tes-cache.h"
#include "tes-chrome-importer.h"
#include "tes-importer-registry.h"
#include "tes-report.h"
#include "tes-test-util.h"
#include "test-poplar-util.h"

/* Graphcore Poplar execution: the tile execution trace (Chrome JSON, one
 * thread per tile) with its BSP steps, alone and with the compile report
 * and the size -A listing of the same run; and profile.pop, which this
 * version of Tessera recognises but cannot read. */

/* ---- profile.pop ---------------------------------------------------------- */

static void
make_sqlite (const char *path,
             const char *sql)
{
  sqlite3 *db = NULL;
  char *message = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s: %s", sql, message);
  sqlite3_close (db);
}

static void
test_pop (void)
{
  g_autofree char *pop = tes_test_tmp_path ("profile.pop");
  g_autofree char *renamed = tes_test_tmp_path ("profile.sqlite");
  g_autofree char *other = tes_test_tmp_path ("people.db");
  g_autofree char *broken = tes_test_tmp_path ("broken.pop");
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = NULL;
  g_auto(TesCliResult) cli = { 0 };
  TesImporter *importer;
  gsize len;

  make_sqlite (pop,
               "CREATE TABLE ipu_tiles (ipu INTEGER, tile INTEGER);"
               "CREATE TABLE compute_sets (id INTEGER, name TEXT);"
               "CREATE TABLE vertex_types (id INTEGER, name TEXT);"
               "CREATE TABLE program_steps (id INTEGER, cycles INTEGER);"
               "INSERT INTO compute_sets VALUES (1, 'cs');");

  importer = tes_importer_registry_choose (pop, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tes_importer_get_name (importer), ==, "poplar-pop");

  report = tes_report_import (pop, importer, 0, NULL, NULL, &error);
  g_assert_null (report);
  g_assert_error (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_UNSUPPORTED);
  tes_test_assert_contains (error->message, pop);
  tes_test_assert_contains (error->message, "this version of Tessera cannot read the profile.pop schema");
  tes_test_assert_contains (error->message, "Its 4 tables: compute_sets, ipu_tiles, program_steps, vertex_types.");
  /* the command that exports it where the Poplar SDK is */
  {
    g_autofree char *dir = g_path_get_dirname (pop);
    g_autofree char *out = g_build_filename (dir, "profile.tessera-pop.jsonl", NULL);
    g_autofree char *command = g_strdup_printf ("run: tessera-pop-export %s -o %s,", pop, out);

    tes_test_assert_contains (error->message, command);
  }
  {
    g_autofree char *cache = tes_cache_path_for_source (pop);

    g_assert_false (g_file_test (cache, G_FILE_TEST_EXISTS));
  }
  g_clear_error (&error);

  /* the content decides, the name only helps */
  g_assert_true (g_file_get_contents (pop, &contents, &len, NULL));
  tes_test_write_file (renamed, contents, len);
  importer = tes_importer_registry_choose (renamed, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tes_importer_get_name (importer), ==, "poplar-pop");

  make_sqlite (other, "CREATE TABLE people (name TEXT, age INTEGER);");
  g_assert_null (tes_importer_registry_choose (other, NULL, &error));
  g_assert_error (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_UNKNOWN_FORMAT);
  g_clear_error (&error);

  /* damaged: an SQLite header and nothing readable after it */
  {
    g_autofree char *junk = g_malloc0 (4096);

    memcpy (junk, "SQLite format 3", 16);
    memset (junk + 16, 0xee, 4096 - 16);
    tes_test_write_file (broken, junk, 4096);
  }
  report = tes_report_import (broken, tes_importer_registry_lookup ("poplar-pop"), 0, NULL, NULL, &error);
  g_assert_null (report);
  g_assert_error (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_INVALID);
  tes_test_assert_contains (error->message, "not a readable SQLite database");
  g_clear_error (&error);

  /* what tessera-cli says */
  tes_test_run_cli (&cli, "info", pop, NULL);
  g_assert_cmpint (cli.status, ==, 1);
  tes_test_assert_contains (cli.err, "cannot read the profile.pop schema");
  tes_test_assert_contains (cli.err, "compute_sets, ipu_tiles, program_steps, vertex_types");
  tes_test_assert_contains (cli.err, "tessera-pop-export ");
}

/* ---- tile execution trace (Chrome JSON, one thread per tile) -------------- */

typedef struct
{
  const char *name;
  double      ts;       /* µs */
  gint64      cycles;
} TraceEvent;

static gint
compare_events (gconstpointer a,
                gconstpointer b)
{
  const TraceEvent *ea = a;
  const TraceEvent *eb = b;

  return (ea->ts > eb->ts) - (ea->ts < eb->ts);
}

/* The trace's X events per "ipu/tile", read with json-glib, apart from the
 * importer's streaming parser. */
static GHashTable *
read_tile_events (const char *path)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  GHashTable *by_tile = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify)g_array_unref);
  JsonArray *events;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  events = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "traceEvents");

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *ev = json_array_get_object_element (events, i);
      g_autofree char *key = NULL;
      TraceEvent te;
      GArray *list;

      /* a tile's events are the X events that count cycles */
      if (!g_str_equal (json_object_get_string_member (ev, "ph"), "X") ||
          !json_object_has_member (ev, "args") ||
          !json_object_has_member (json_object_get_object_member (ev, "args"), "cycles"))
        continue;

      key = g_strdup_printf ("%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT,
                             json_object_get_int_member (ev, "pid"), json_object_get_int_member (ev, "tid"));
      te.name = g_intern_string (json_object_get_string_member (ev, "name"));
      te.ts = json_object_get_double_member (ev, "ts");
      te.cycles = json_object_get_int_member (json_object_get_object_member (ev, "args"), "cycles");

      if (!(list = g_hash_table_lookup (by_tile, key)))
        {
          list = g_array_new (FALSE, FALSE, sizeof (TraceEvent));
          g_hash_table_insert (by_tile, g_steal_pointer (&key), list);
        }
      g_array_append_val (list, te);
    }

  return by_tile;
}

static void
assert_tile_lanes (TesReport  *report,
                   JsonObject *truth,
                   GHashTable *events)
{
  JsonArray *tiles = json_object_get_array_member (truth, "tiles");
  double mhz = json_object_get_double_member (truth, "clock_mhz");
  gint64 compute_total = 0;
  sqlite3 *db = open_cache (report);

  for (guint i = 0; i < json_array_get_length (tiles); i++)
    {
      JsonObject *t = json_array_get_object_element (tiles, i);
      int ipu = (int)json_object_get_int_member (t, "ipu");
      int tile = (int)json_object_get_int_member (t, "tile");
      g_autofree char *key = g_strdup_printf ("%d/%d", ipu, tile);
      g_autofree char *tile_name = g_strdup_printf ("Tile %d", tile);
      g_autofree char *ipu_name = g_strdup_printf ("IPU %d", ipu);
      GArray *expected = g_hash_table_lookup (events, key);
      g_autoptr(GArray) slices = NULL;
      g_autoptr(GError) error = NULL;
      const TesTrack *track, *parent;
      const TesClock *clock;
      gint64 track_id;

      track_id = query_int (db, "SELECT track_id FROM tiles WHERE ipu = %d AND tile = %d", ipu, tile);
      g_assert_cmpint (track_id, >, 0);
      track = tes_report_get_track (report, track_id);
      g_assert_nonnull (track);
      g_assert_cmpint (track->kind, ==, TES_TRACK_TILE);
      g_assert_cmpstr (track->name, ==, tile_name);
      parent = tes_report_get_track (report, track->parent_id);
      g_assert_cmpint (parent->kind, ==, TES_TRACK_IPU);
      g_assert_cmpstr (parent->name, ==, ipu_name);
      /* its IPU as a number, what ties it to its run */
      g_assert_cmpint (parent->ipu, ==, ipu);
      clock = tes_report_get_clock (report, track->clock_id);
      g_assert_cmpint (clock->unit, ==, TES_TIME_UNIT_CYCLES);
      g_assert_cmpint (clock->ticks_per_second, ==, (gint64)(mhz * 1e6));

      slices = tes_report_get_slices (report, track_id, G_MININT64, G_MAXINT64, &error);
      g_assert_no_error (error);
      g_assert_nonnull (expected);
      g_assert_cmpuint (slices->len, ==, expected->len);
      g_array_sort (expected, compare_events);

      /* durations are the tool's cycles exactly; starts within a cycle of
       * ts × MHz (ts is printed in µs to 4 decimals) */
      for (guint k = 0; k < slices->len; k++)
        {
          const TesSlice *sl = &g_array_index (slices, TesSlice, k);
          const TraceEvent *te = &g_array_index (expected, TraceEvent, k);
          gint64 start = (gint64)llround (te->ts * mhz);

          g_assert_cmpstr (tes_report_get_string (report, sl->name), ==, te->name);
          g_assert_cmpint (sl->dur, ==, te->cycles);
          g_assert_cmpint (ABS (sl->start - start), <=, 1);
          if (g_str_equal (te->name, "OnTileExecute"))
            compute_total += sl->dur;
        }
    }

  g_assert_cmpint (compute_total, >, 0);
  sqlite3_close (db);
}

/* BSP steps as PopVision's BSP view needs them, checked against the trace
 * read with json-glib (the shared generator's truth has no steps): for
 * each step, every tile's cycles (0 when it has no event: idle). */
static void
assert_bsp_trace (TesReport  *report,
                  const char *trace,
                  guint       n_tiles)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) steps = NULL;
  g_autoptr(GArray) runs = NULL;
  g_autoptr(GHashTable) expected = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  g_autoptr(GHashTable) programs = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  JsonArray *events;
  gint64 busy = 0;

  json_parser_load_from_file (parser, trace, &error);
  g_assert_no_error (error);
  events = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "traceEvents");
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *ev = json_array_get_object_element (events, i);
      JsonObject *args;
      gint64 step, *cycles;

      if (!g_str_equal (json_object_get_string_member (ev, "ph"), "X"))
        continue;
      args = json_object_get_object_member (ev, "args");
      step = json_object_get_int_member (args, "step");
      if (!(cycles = g_hash_table_lookup (expected, &step)))
        {
          cycles = g_new0 (gint64, n_tiles);
          g_hash_table_insert (expected, g_memdup2 (&step, sizeof step), cycles);
        }
      cycles[json_object_get_int_member (ev, "tid")] += json_object_get_int_member (args, "cycles");
      if (!g_hash_table_contains (programs, &step))
        g_hash_table_insert (programs, g_memdup2 (&step, sizeof step),
                             g_strdup (json_object_get_string_member (args, "program")));
    }

  runs = tes_report_get_runs (report, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (runs->len, ==, 1);
  g_assert_cmpstr (g_array_index (runs, TesRun, 0).name, ==, "IPU 0");

  steps = tes_report_get_bsp_steps (report, g_array_index (runs, TesRun, 0).id, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (steps->len, ==, g_hash_table_size (expected));

  for (guint i = 0; i < steps->len; i++)
    {
      const TesBspStep *step = g_ptr_array_index (steps, i);
      const gint64 *cycles = g_hash_table_lookup (expected, &step->step);
      const char *program = g_hash_table_lookup (programs, &step->step);
      gint64 longest = 0;

      g_assert_cmpint (step->step, ==, i);
      g_assert_nonnull (cycles);
      g_assert_cmpuint (step->n_tiles, ==, n_tiles);
      g_assert_cmpstr (tes_report_get_string (report, step->name), ==, program);
      for (guint t = 0; t < n_tiles; t++)
        {
          g_assert_cmpint (step->tile_cycles[t], ==, cycles[t]);
          if (cycles[t] == 0)
            g_assert_cmpint (step->tile_states[t], ==, TES_TILE_STATE_IDLE);
          else
            g_assert_cmpint (step->tile_states[t], !=, TES_TILE_STATE_IDLE);
          longest = MAX (longest, cycles[t]);
          busy += cycles[t];
        }
      /* all tiles of a step start together: the step lasts its longest tile */
      g_assert_cmpint (step->dur, ==, longest);
    }

  g_assert_cmpint (busy, >, 0);
}

static TesTileState
state_of (const char *name)
{
  static const struct { const char *name; TesTileState state; } states[] = {
    { "compute", TES_TILE_STATE_COMPUTE },
    { "exchange", TES_TILE_STATE_EXCHANGE },
    { "sync", TES_TILE_STATE_SYNC },
  };

  for (guint i = 0; i < G_N_ELEMENTS (states); i++)
    if (g_str_equal (states[i].name, name))
      return states[i].state;

  g_error ("the truth names an unknown tile state '%s'", name);
}

/* Runs and BSP steps against our generator's truth: one run per IPU, and
 * per step every tile's cycles and state (idle without an event). Starts
 * are within a cycle (ts is printed in µs to four decimals); durations and
 * cycles are exact. */
static void
assert_bsp_truth (TesReport *report,
                  Generated *g)
{
  JsonArray *truth_runs = json_object_get_array_member (g->truth, "runs");
  JsonArray *truth_steps = json_object_get_array_member (g->truth, "steps");
  guint tiles_per_ipu = (guint)json_object_get_int_member (g->truth, "tiles_per_ipu");
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) runs = tes_report_get_runs (report, &error);
  guint n_steps = 0;

  g_assert_no_error (error);
  g_assert_cmpuint (runs->len, ==, json_array_get_length (truth_runs));
  g_assert_cmpuint (runs->len, ==, g->n_ipus);

  for (guint r = 0; r < runs->len; r++)
    {
      const TesRun *run = &g_array_index (runs, TesRun, r);
      JsonObject *want = json_array_get_object_element (truth_runs, r);
      gint64 ipu = json_object_get_int_member (want, "ipu");
      g_autoptr(GPtrArray) steps = NULL;
      guint k = 0;

      g_assert_cmpstr (run->name, ==, json_object_get_string_member (want, "name"));
      g_assert_cmpint (ABS (run->start - json_object_get_int_member (want, "start")), <=, 1);
      g_assert_cmpint (ABS (run->end - json_object_get_int_member (want, "end")), <=, 1);

      steps = tes_report_get_bsp_steps (report, run->id, &error);
      g_assert_no_error (error);

      for (guint i = 0; i < json_array_get_length (truth_steps); i++)
        {
          JsonObject *ts = json_array_get_object_element (truth_steps, i);
          JsonArray *cycles = json_object_get_array_member (ts, "cycles");
          TesTileState busy = state_of (json_object_get_string_member (ts, "state"));
          const TesBspStep *step;

          if (json_object_get_int_member (ts, "ipu") != ipu)
            continue;

          g_assert_cmpuint (k, <, steps->len);
          step = g_ptr_array_index (steps, k++);
          g_assert_cmpint (step->step, ==, json_object_get_int_member (ts, "step"));
          g_assert_cmpstr (tes_report_get_string (report, step->name), ==, json_object_get_string_member (ts, "program"));
          g_assert_cmpint (ABS (step->start - json_object_get_int_member (ts, "start")), <=, 1);
          g_assert_cmpint (step->dur, ==, json_object_get_int_member (ts, "dur"));
          g_assert_cmpuint (step->n_tiles, ==, tiles_per_ipu);
          for (guint t = 0; t < tiles_per_ipu; t++)
            {
              gint64 c = json_array_get_int_element (cycles, t);

              g_assert_cmpint (step->tile_cycles[t], ==, c);
              g_assert_cmpint (step->tile_states[t], ==, c == 0 ? TES_TILE_STATE_IDLE : busy);
            }
        }
      g_assert_cmpuint (k, ==, steps->len);
      n_steps += k;
    }

  g_assert_cmpuint (n_steps, ==, json_array_get_length (truth_steps));
}

/* The Summary's rows: per IPU and step type, the cycles its tiles spent in
 * steps of that type and how many tile slices did (PopVision's cycle
 * proportions per IPU, counted tile by tile as its New BSP statistics
 * do), as the truth's steps add up; grouped by type, the run's. */
static void
assert_summary_truth (TesReport *report,
                      Generated *g)
{
  JsonArray *truth_steps = json_object_get_array_member (g->truth, "steps");
  g_autoptr(GHashTable) want = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) want_types = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GPtrArray) types = NULL;
  g_autoptr(GError) error = NULL;
  guint n_ipu_rows = 0;

  for (guint i = 0; i < json_array_get_length (truth_steps); i++)
    {
      JsonObject *step = json_array_get_object_element (truth_steps, i);
      JsonArray *cycles = json_object_get_array_member (step, "cycles");
      const char *type = json_object_get_string_member (step, "name");
      g_autofree char *key = g_strdup_printf ("IPU %" G_GINT64_FORMAT "/%s",
                                              json_object_get_int_member (step, "ipu"), type);
      gint64 *sums = g_hash_table_lookup (want, key);
      gint64 *type_sum = g_hash_table_lookup (want_types, type);

      if (sums == NULL)
        g_hash_table_insert (want, g_strdup (key), (sums = g_new0 (gint64, 2)));
      if (type_sum == NULL)
        g_hash_table_insert (want_types, g_strdup (type), (type_sum = g_new0 (gint64, 1)));
      for (guint t = 0; t < json_array_get_length (cycles); t++)
        {
          gint64 c = json_array_get_int_element (cycles, t);

          sums[0] += c;
          sums[1] += c > 0;
          *type_sum += c;
        }
    }

  rows = tes_report_summarize (report, TES_SUMMARY_EACH, TES_GROUP_BY_CATEGORY, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < rows->len; i++)
    {
      const TesSummaryRow *row = g_ptr_array_index (rows, i);
      g_autofree char *key = g_strdup_printf ("%s/%s", row->name, row->type);
      const gint64 *sums = g_hash_table_lookup (want, key);

      if (!g_str_has_prefix (row->name, "IPU "))
        continue;
      g_assert_nonnull (sums);
      g_assert_cmpint (row->total, ==, sums[0]);
      g_assert_cmpint (row->count, ==, sums[1]);
      n_ipu_rows++;
    }
  g_assert_cmpuint (n_ipu_rows, ==, g_hash_table_size (want));

  types = tes_report_summarize (report, TES_SUMMARY_TOTAL, TES_GROUP_BY_CATEGORY, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < types->len; i++)
    {
      const TesSummaryRow *row = g_ptr_array_index (types, i);
      const gint64 *sum = g_hash_table_lookup (want_types, row->type);

      if (sum != NULL)
        g_assert_cmpint (row->total, ==, *sum);
      else
        g_assert_cmpstr (row->type, ==, "host");
    }
  g_assert_cmpuint (types->len, ==, g_hash_table_size (want_types) + 1);
}

/* Each step as PopVision's Details give it, found from a tile's lane at a
 * time inside it, against the truth's cycles worked out here: the step
 * lasts its longest tile, its tile balance is the tiles' mean over that
 * longest (over the active tiles only for the active balance). */
static void
assert_step_details_truth (TesReport *report,
                           Generated *g)
{
  JsonArray *truth_steps = json_object_get_array_member (g->truth, "steps");
  guint mhz = (guint)json_object_get_int_member (g->truth, "clock_mhz");
  g_autoptr(GArray) tiles = NULL;
  g_autoptr(GError) error = NULL;

  tiles = tes_report_get_tiles (report, &error);
  g_assert_no_error (error);

  for (guint i = 0; i < json_array_get_length (truth_steps); i++)
    {
      JsonObject *want = json_array_get_object_element (truth_steps, i);
      JsonArray *cycles = json_object_get_array_member (want, "cycles");
      gint64 ipu = json_object_get_int_member (want, "ipu");
      gint64 start = json_object_get_int_member (want, "start");
      gint64 dur = json_object_get_int_member (want, "dur");
      guint n = json_array_get_length (cycles);
      gint64 sum = 0, max = 0, min = G_MAXINT64;
      guint active = 0;
      gint64 track_id = 0;
      g_autoptr(TesBspStep) step = NULL;
      TesBspStepStats stats;

      for (guint t = 0; t < n; t++)
        {
          gint64 c = json_array_get_int_element (cycles, t);

          sum += c;
          max = MAX (max, c);
          min = MIN (min, c);
          active += c > 0;
        }

      /* the lane of the IPU's last tile */
      for (guint t = 0; t < tiles->len; t++)
        {
          const TesTile *tile = &g_array_index (tiles, TesTile, t);

          if (tile->ipu == ipu && tile->tile == (gint)n - 1)
            track_id = tile->track_id;
        }
      g_assert_cmpint (track_id, >, 0);

      /* the middle of the step, in ns from the trace's start */
      step = tes_report_get_bsp_step_at (report, track_id, (start + dur / 2) * 1000 / mhz, &error);
      g_assert_no_error (error);
      g_assert_nonnull (step);
      g_assert_cmpint (step->step, ==, json_object_get_int_member (want, "step"));

      tes_bsp_step_get_stats (step, &stats);
      g_assert_cmpint (stats.cycles, ==, dur);
      g_assert_cmpint (stats.max_cycles, ==, max);
      g_assert_cmpint (stats.min_cycles, ==, min);
      g_assert_cmpint (stats.all_cycles, ==, sum);
      g_assert_cmpuint (stats.n_tiles, ==, n);
      g_assert_cmpuint (stats.active_tiles, ==, active);
      g_assert_cmpfloat_with_epsilon (stats.mean_cycles, (double)sum / n, 1e-9);
      g_assert_cmpfloat_with_epsilon (stats.tile_balance, 100.0 * sum / ((double)n * max), 1e-9);
      g_assert_cmpfloat_with_epsilon (stats.active_tile_balance, 100.0 * sum / ((double)active * max), 1e-9);
    }

  /* a host lane is no tile's: no step */
  for (gint64 id = 1; id <= tes_report_get_n_tracks (report); id++)
    if (tes_report_get_track (report, id)->kind == TES_TRACK_THREAD)
      {
        g_assert_null (tes_report_get_bsp_step_at (report, id, 0, &error));
        g_assert_no_error (error);
      }
}

/* Our generator's host process stays a plain process and thread, in the
 * same cycles clock: one span per run. */
static void
assert_host_lane (TesReport *report,
                  Generated *g)
{
  for (guint id = 1; id <= tes_report_get_n_tracks (report); id++)
    {
      const TesTrack *track = tes_report_get_track (report, id);

      if (g_str_equal (track->name, "Engine::run"))
        {
          g_assert_cmpint (track->kind, ==, TES_TRACK_THREAD);
          g_assert_cmpint (tes_report_get_track (report, track->parent_id)->kind, ==, TES_TRACK_PROCESS);
          g_assert_cmpstr (tes_report_get_track (report, track->parent_id)->name, ==, "Host");
          g_assert_cmpint (track->n_slices, ==, g->n_ipus);
          return;
        }
    }

  g_error ("no host thread 'Engine::run' among the tracks");
}

static void
check_chrome_tiles (TesTestData data)
{
  g_auto(Generated) g = { 0 };
  g_auto(TesCliResult) cli = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GHashTable) events = NULL;
  g_autofree char *trace = NULL;
  g_autofree char *mhz = NULL;
  g_autofree char *tiles_line = NULL;
  TesReportCounts counts;
  guint n_tiles;

  generate (&g, data);
  n_tiles = json_array_get_length (truth_tiles (&g));
  trace = generated_path (&g, "execution.json");
  events = read_tile_events (trace);
  g_assert_cmpuint (g_hash_table_size (events), ==, n_tiles);

  report = tes_report_import (trace, tes_importer_registry_lookup ("chrome-json"), 0, NULL, NULL, &error);
  g_assert_no_error (error);
  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_tiles, ==, n_tiles);
  g_assert_cmpint (counts.n_tracks, ==, g.n_ipus + n_tiles + g.host_tracks);
  tes_test_assert_info (report, "flavour", "Graphcore Poplar tile execution trace");
  mhz = g_strdup_printf ("%.0f", json_object_get_double_member (g.truth, "clock_mhz"));
  tes_test_assert_info (report, "clock_mhz", mhz);
  assert_tile_lanes (report, g.truth, events);
  if (data == TES_TEST_OWN_DATA)
    {
      assert_bsp_truth (report, &g);
      assert_summary_truth (report, &g);
      assert_step_details_truth (report, &g);
      assert_host_lane (report, &g);
    }
  else
    assert_bsp_trace (report, trace, n_tiles);

  tiles_line = g_strdup_printf ("Tiles:          %u", n_tiles);
  tes_test_run_cli (&cli, "info", trace, NULL);
  g_assert_cmpint (cli.status, ==, 0);
  {
    g_autoptr(GTypeClass) klass = g_type_class_ref (TES_TYPE_CHROME_IMPORTER);
    g_autofree char *importer_line = g_strdup_printf ("Importer:       chrome-json (version %u)",
                                                      TES_IMPORTER_CLASS (klass)->version);

    tes_test_assert_contains (cli.out, importer_line);
  }
  tes_test_assert_contains (cli.out, tiles_line);
  tes_test_assert_contains (cli.out, "(clock IPU cycles)");
}

static void
test_chrome_tiles (void)
{
  check_chrome_tiles (TES_TEST_OWN_DATA);
}

static void
test_chrome_tiles_shared (void)
{
  check_chrome_tiles (TES_TEST_SHARED_DATA);
}

/* A report, its archive listing and its execution trace as one report:
 * every tile has its limit, its sections and its lane, in any order. */
static void
check_three_files (TesTestData data)
{
  g_auto(Generated) g = { 0 };
  g_auto(TesCliResult) cli = { 0 };
  g_autoptr(GHashTable) events = NULL;
  g_autofree char *tiles_line = NULL;
  g_autofree char *tracks_line = NULL;
  g_autofree char *members_line = NULL;
  char *files[3] = { NULL, NULL, NULL };
  static const char *const names[3] = { "execution.json", "compile_report.txt", "archive_size.txt" };
  static const char *const importer_names[3] = { "chrome-json", "poplar-report", "poplar-size-listing" };
  guint n_tiles;

  generate (&g, data);
  n_tiles = json_array_get_length (truth_tiles (&g));
  for (guint i = 0; i < 3; i++)
    files[i] = generated_path (&g, names[i]);
  events = read_tile_events (files[0]);

  for (guint rot = 0; rot < 3; rot++)
    {
      const char *paths[3];
      TesImporter *importers[3];
      g_autoptr(GError) error = NULL;
      g_autoptr(TesReport) report = NULL;
      TesReportCounts counts;
      sqlite3 *db;

      for (guint i = 0; i < 3; i++)
        {
          paths[i] = files[(i + rot) % 3];
          importers[i] = tes_importer_registry_lookup (importer_names[(i + rot) % 3]);
        }

      report = tes_report_import_files (paths, importers, 3, TES_REPORT_OPEN_REIMPORT, NULL, NULL, &error);
      g_assert_no_error (error);
      tes_report_get_counts (report, &counts);
      g_assert_cmpint (counts.n_sources, ==, 3);
      g_assert_cmpint (counts.n_tiles, ==, n_tiles);
      assert_tile_lanes (report, g.truth, events);
      /* the report's clock comes first in some orders: the cycles stay exact */
      if (data == TES_TEST_OWN_DATA)
        assert_summary_truth (report, &g);

      db = open_cache (report);
      assert_listing_tiles (&g, db);
      sqlite3_close (db);
    }

  tiles_line = g_strdup_printf ("Tiles:          %u", n_tiles);
  tracks_line = g_strdup_printf ("Tracks:         %u", g.n_ipus + n_tiles + g.host_tracks);
  members_line = g_strdup_printf ("Info:           archive.members = %u", n_tiles);
  tes_test_run_cli (&cli, "info", files[1], files[2], files[0], NULL);
  g_assert_cmpint (cli.status, ==, 0);
  tes_test_assert_contains (cli.out, tiles_line);
  tes_test_assert_contains (cli.out, tracks_line);
  tes_test_assert_contains (cli.out, "Info:           flavour = Graphcore Poplar tile execution trace");
  tes_test_assert_contains (cli.out, members_line);

  for (guint i = 0; i < 3; i++)
    g_free (files[i]);
}

static void
test_three_files (void)
{
  check_three_files (TES_TEST_OWN_DATA);
}

static void
test_three_files_shared (void)
{
  check_three_files (TES_TEST_SHARED_DATA);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tes_test_add (TES_TEST_OWN_DATA, "/tes/poplar/pop", test_pop);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/poplar/chrome/tiles", test_chrome_tiles);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/poplar/chrome/three-files", test_three_files);

  tes_test_add (TES_TEST_SHARED_DATA, "/tes/poplar/chrome/tiles", test_chrome_tiles_shared);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/poplar/chrome/three-files", test_three_files_shared);

  return g_test_run ();
}
