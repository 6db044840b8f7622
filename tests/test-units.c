/* test-units.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "tes-importer-registry.h"
#include "tes-report.h"
#include "tes-test-util.h"
#include "tes-workspace.h"
#include "test-units-util.h"

/* Every vendor's parallel units, as Tile Balance and tessera-cli tiles
 * count them (tes_report_get_unit_activity ()): a Torq compile-time
 * timeline's engines and a SigmaStar timeline's cores, each busy for the
 * union of its rows (worked out by test-units-util.c from the file) and
 * idle for the rest of the range, over the whole run and over a part. */

/* What the report says of each unit in [start, end), against the file. */
static void
check_report (TesReport          *report,
              const TesTestUnits *expected,
              gint64              start,
              gint64              end)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) activity = tes_report_get_unit_activity (report, start, end, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (activity->len, ==, expected->units->len);
  for (guint i = 0; i < activity->len; i++)
    {
      const TesTileActivity *row = &g_array_index (activity, TesTileActivity, i);
      const TesTrack *track = tes_report_get_track (report, row->track_id);
      const TesTrack *device = tes_report_get_track (report, track->parent_id);
      const TesTestUnit *unit = tes_test_units_find (expected, track->name);
      gint64 busy;

      g_assert_nonnull (unit);
      g_assert_cmpstr (device->name, ==, unit->device);
      g_assert_cmpint (row->ipu, ==, 0);
      g_assert_cmpint (row->tile, ==, (gint)i);
      busy = tes_test_unit_busy (unit, start, end);
      g_assert_cmpint (row->cycles[TES_TILE_STATE_COMPUTE], ==, busy);
      g_assert_cmpint (row->cycles[TES_TILE_STATE_EXCHANGE], ==, 0);
      g_assert_cmpint (row->cycles[TES_TILE_STATE_SYNC], ==, 0);
      g_assert_cmpint (row->cycles[TES_TILE_STATE_IDLE], ==, end - start - busy);
    }
}

/* tessera-cli tiles --csv [--range], line by line, against the file. */
static void
check_cli (const char         *path,
           const TesTestUnits *expected,
           const char         *range,
           gint64              start,
           gint64              end)
{
  g_auto(TesCliResult) cli = { 0 };
  g_auto(GStrv) lines = NULL;
  guint n_units = 0, n_devices = 0;

  if (range != NULL)
    tes_test_run_cli (&cli, "tiles", "--csv", "--range", range, path, NULL);
  else
    tes_test_run_cli (&cli, "tiles", "--csv", path, NULL);
  g_assert_cmpint (cli.status, ==, 0);

  lines = g_strsplit (cli.out, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "device,unit,busy_ns,idle_ns");
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_auto(GStrv) f = g_strsplit (lines[i], ",", -1);
      const TesTestUnit *unit;
      gint64 busy;

      g_assert_cmpuint (g_strv_length (f), ==, 4);
      if (f[1][0] == '\0')
        {
          /* the device as a whole (test-kineto checks its union): no
           * more than the range */
          g_assert_cmpint (g_ascii_strtoll (f[2], NULL, 10) + g_ascii_strtoll (f[3], NULL, 10), ==, end - start);
          n_devices++;
          continue;
        }
      n_units++;
      unit = tes_test_units_find (expected, f[1]);
      g_assert_nonnull (unit);
      g_assert_cmpstr (f[0], ==, unit->device);
      busy = tes_test_unit_busy (unit, start, end);
      g_assert_cmpint (g_ascii_strtoll (f[2], NULL, 10), ==, busy);
      g_assert_cmpint (g_ascii_strtoll (f[3], NULL, 10), ==, end - start - busy);
    }
  g_assert_cmpuint (n_units, ==, expected->units->len);
  g_assert_cmpuint (n_devices, >=, 1);
}

/* The whole run, then from..to ns after its start (range: the same for
 * the command line), in the report and on the command line. */
static void
check_file (const char         *path,
            const char         *importer,
            const TesTestUnits *expected,
            const char         *range,
            gint64              from,
            gint64              to)
{
  g_autoptr(TesReport) report = tes_test_import (path, tes_importer_registry_lookup (importer));
  g_autoptr(TesWorkspace) workspace = tes_workspace_new (report);
  gint64 span[2];

  /* the run the command line counts by default is the file's */
  g_assert_true (tes_workspace_get_span (workspace, &span[0], &span[1]));
  g_assert_cmpint (span[0], ==, expected->start);
  g_assert_cmpint (span[1], ==, expected->end);

  check_report (report, expected, expected->start, expected->end);
  check_report (report, expected, expected->start + from, expected->start + to);
  check_cli (path, expected, NULL, expected->start, expected->end);
  check_cli (path, expected, range, expected->start + from, expected->start + to);
}

static void
check_torq_timeline (const char *name)
{
  g_autofree char *path = tes_test_copy_fixture (TES_TEST_OWN_DATA, name);
  g_auto(TesTestUnits) expected = { 0 };

  tes_test_units_read_torq_timeline (&expected, path);
  g_assert_cmpuint (expected.units->len, >=, 3);
  check_file (path, "torq-timeline", &expected, "20us:45us", 20000, 45000);
}

static void
test_torq_timeline_v1 (void)
{
  check_torq_timeline ("torq/timeline_v1.csv");
}

static void
test_torq_timeline_v2 (void)
{
  check_torq_timeline ("torq/timeline_v2.csv");
}

/* The old layout does not say which slice ran an op: overlapping slice
 * rows go onto a lane below "Slices", and the unit "Slices" is busy
 * while any of them runs, counted once. */
static void
test_torq_timeline_v1_overlap (void)
{
  g_autofree char *path = tes_test_copy_fixture (TES_TEST_OWN_DATA, "torq/timeline_v1.csv");
  g_autoptr(TesReport) report = tes_test_import (path, tes_importer_registry_lookup ("torq-timeline"));
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) activity = tes_report_get_unit_activity (report, 0, 60000, &error);
  const TesTrack *slices = tes_test_find_track (report, "Compile-time timeline", "Slices");
  guint n_overflow = 0;

  g_assert_no_error (error);
  g_assert_cmpuint (activity->len, ==, 3);
  for (gint64 id = 1; id <= (gint64)tes_report_get_n_tracks (report); id++)
    n_overflow += tes_report_get_track (report, id)->parent_id == slices->id;
  g_assert_cmpuint (n_overflow, ==, 1);
}

/* Rows of one engine that overlap without nesting (a DMA In starting
 * while the last one runs and ending after it) count once, whole: the
 * union, not the outer row. */
static void
test_torq_timeline_overlap (void)
{
  g_autofree char *path = tes_test_tmp_path ("overlap.csv");
  g_auto(TesTestUnits) expected = { 0 };

  tes_test_write_file (path,
                       "taskId, elapsed_time(us), timestamp(us), event, location, bytes\n"
                       "0,100,0,DMA In,loc(unknown),800\n"
                       "1,150,50,DMA In,loc(unknown),1200\n"
                       "2,30,300,DMA In,loc(unknown),240\n"
                       "0,200,100,Slice 0,loc(unknown),\n"
                       "1,100,250,Slice 0,loc(unknown),\n", -1);
  tes_test_units_read_torq_timeline (&expected, path);
  g_assert_cmpint (tes_test_unit_busy (tes_test_units_find (&expected, "DMA In"), 0, G_MAXINT64), ==, 2300);
  g_assert_cmpint (tes_test_unit_busy (tes_test_units_find (&expected, "Slice 0"), 0, G_MAXINT64), ==, 2500);
  check_file (path, "torq-timeline", &expected, "1us:3.1us", 1000, 3100);
}

/* name NULL: the generated two-core run */
static void
check_sigmastar (const char *name)
{
  g_autofree char *path = name != NULL ? tes_test_copy_fixture (TES_TEST_OWN_DATA, name)
                                       : tes_test_write_sigmastar_two_cores ();
  g_auto(TesTestUnits) expected = { 0 };

  tes_test_units_read_sigmastar (&expected, path);
  if (name == NULL)
    {
      /* the generated run: both cores, core 1 idle the longer */
      g_assert_cmpuint (expected.units->len, ==, 2);
      g_assert_cmpint (tes_test_unit_busy (tes_test_units_find (&expected, "Core 0"), 0, G_MAXINT64), ==, 250000);
      g_assert_cmpint (tes_test_unit_busy (tes_test_units_find (&expected, "Core 1"), 0, G_MAXINT64), ==, 130000);
      check_file (path, "chrome-json", &expected, "40us:220us", 40000, 220000);
    }
  else
    check_file (path, "chrome-json", &expected, "0.2ms:0.7ms", 200000, 700000);
}

static void
test_sigmastar_two_cores (void)
{
  check_sigmastar (NULL);
}

static void
test_sigmastar_mini (void)
{
  check_sigmastar ("sigmastar/performance_timeline_mini.json");
}

/* The text table names the device, as a whole and each unit, with its busy share. */
static void
test_cli_text (void)
{
  g_autofree char *path = tes_test_write_sigmastar_two_cores ();
  g_auto(TesCliResult) cli = { 0 };

  tes_test_run_cli (&cli, "tiles", path, NULL);
  g_assert_cmpint (cli.status, ==, 0);
  tes_test_assert_contains (cli.out, "device        unit           busy ns        idle ns  busy %\n");
  /* the device: 0-150 and 200-340 µs, the union of its cores' layers */
  tes_test_assert_contains (cli.out, "SigmaStar IPU (union)         290000          50000   85.3%\n");
  /* 250 of 340 µs, 130 of 340 µs */
  tes_test_assert_contains (cli.out, "SigmaStar IPU Core 0          250000          90000   73.5%\n");
  tes_test_assert_contains (cli.out, "SigmaStar IPU Core 1          130000         210000   38.2%\n");
}

/* A host-side runtime CSV has no units: the command says so. */
static void
test_none (void)
{
  g_autofree char *path = tes_test_copy_fixture (TES_TEST_OWN_DATA, "torq/runtime_v2.csv");
  g_autoptr(TesReport) report = tes_test_import (path, tes_importer_registry_lookup ("torq-runtime"));
  g_autoptr(GArray) activity = tes_report_get_unit_activity (report, 0, G_MAXINT64 / 2, NULL);
  g_auto(TesCliResult) cli = { 0 };

  g_assert_cmpuint (activity->len, ==, 0);
  tes_test_run_cli (&cli, "tiles", path, NULL);
  g_assert_cmpint (cli.status, !=, 0);
  tes_test_assert_contains (cli.err, "no parallel units (cores, engines)");
}

/* The vendors' reference files: Torq's two layouts, SigmaStar's yolov8s
 * run (one core; its layers' starts are rounded to the ns, so each may be
 * up to 1 ns off the end before it, which the importer closes). */
static void
test_fixtures (void)
{
  static const char * const torq[] = { "fixtures/torq/timeline_v1.csv", "fixtures/torq/timeline_v2.csv" };
  static const char * const sigmastar[] = { "fixtures/sigmastar/performance_timeline_yolov8s.json", "fixtures/sigmastar/log_ctrl0.json" };

  for (guint i = 0; i < G_N_ELEMENTS (torq); i++)
    {
      g_autofree char *path = tes_test_copy_fixture (TES_TEST_SHARED_DATA, torq[i]);
      g_auto(TesTestUnits) expected = { 0 };

      tes_test_units_read_torq_timeline (&expected, path);
      check_file (path, "torq-timeline", &expected, "50us:150us", 50000, 150000);
    }

  for (guint i = 0; i < G_N_ELEMENTS (sigmastar); i++)
    {
      g_autofree char *path = tes_test_copy_fixture (TES_TEST_SHARED_DATA, sigmastar[i]);
      g_autoptr(TesReport) report = tes_test_import (path, tes_importer_registry_lookup ("chrome-json"));
      g_auto(TesTestUnits) expected = { 0 };
      g_autoptr(GArray) activity = NULL;
      const TesTestUnit *core;
      gint64 busy;
      guint n_layers;

      tes_test_units_read_sigmastar (&expected, path);
      g_assert_cmpuint (expected.units->len, ==, 1);
      core = g_ptr_array_index (expected.units, 0);
      n_layers = core->spans->len;
      busy = tes_test_unit_busy (core, G_MININT64, G_MAXINT64);
      activity = tes_report_get_unit_activity (report, expected.start, expected.end + n_layers, NULL);
      g_assert_cmpuint (activity->len, ==, 1);
      g_assert_cmpint (ABS (g_array_index (activity, TesTileActivity, 0).cycles[TES_TILE_STATE_COMPUTE] - busy),
                       <=, n_layers);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tes_test_add (TES_TEST_OWN_DATA, "/tes/units/torq-timeline-v1", test_torq_timeline_v1);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/units/torq-timeline-v2", test_torq_timeline_v2);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/units/torq-timeline-v1-overlap", test_torq_timeline_v1_overlap);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/units/torq-timeline-overlap", test_torq_timeline_overlap);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/units/sigmastar-two-cores", test_sigmastar_two_cores);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/units/sigmastar-mini", test_sigmastar_mini);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/units/cli-text", test_cli_text);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/units/none", test_none);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/units/fixtures", test_fixtures);

  return g_test_run ();
}
