/* test-torq-run.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tes-importer-registry.h"
#include "tes-report.h"
#include "tes-test-util.h"
#include "test-torq-own-trace.h"
#include "test-torq-util.h"

/* The Synaptics Torq importers, part three: the files of one run (the
 * compile-time timeline in both layouts, the runtime CSV in both layouts,
 * the annotated CSV, the Perfetto trace and the Host Profile Overview) as
 * one report; the command line; sniffing by content; bad input of every
 * kind and the documented recoveries. Every behaviour is checked on the
 * project's own files (tests/data/torq, and the Perfetto trace
 * test-torq-own-trace.c encodes); the conformance suite checks the same on
 * ../shared/fixtures/torq. */

/* The files of one run, in this order wherever a test lists them. */
static const char * const run_files[] = {
  "timeline_v1.csv", "timeline_v2.csv", "runtime_v1.csv", "runtime_v2.csv",
  "annotated_runtime.csv", "host_trace.pb", "host_profile_overview.txt",
};

/* The files of our run (the trace write_own_trace() writes) or of the shared
 * one, as scratch copies in the order of run_files[]. */
static GPtrArray *
run_paths (TesTestData data)
{
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < G_N_ELEMENTS (run_files); i++)
    if (data == TES_TEST_OWN_DATA && g_str_equal (run_files[i], "host_trace.pb"))
      g_ptr_array_add (paths, write_own_trace ());
    else
      g_ptr_array_add (paths, copy_file (data, run_files[i]));

  return paths;
}

/* The track called name under parent, among several such: the one
 * holding n_slices slices. */
static const TesTrack *
find_track_with (TesReport  *report,
                 const char *parent,
                 const char *name,
                 gint64      n_slices)
{
  for (guint id = 1; id <= tes_report_get_n_tracks (report); id++)
    {
      const TesTrack *track = tes_report_get_track (report, id);
      const TesTrack *up = track->parent_id ? tes_report_get_track (report, track->parent_id) : NULL;

      if (g_strcmp0 (track->name, name) == 0 && g_strcmp0 (up ? up->name : NULL, parent) == 0 &&
          track->n_slices == n_slices)
        return track;
    }

  g_error ("no track '%s' with %" G_GINT64_FORMAT " slices under '%s'", name, n_slices, parent ? parent : "(top)");
  return NULL;
}

static guint
count_info (TesReport  *report,
            const char *key,
            const char *value)
{
  g_autoptr(GPtrArray) info = tes_report_get_info (report);
  guint n = 0;

  for (guint i = 0; i < info->len; i++)
    {
      const TesInfoEntry *entry = g_ptr_array_index (info, i);

      n += g_str_equal (entry->key, key) && g_str_equal (entry->value, value);
    }

  return n;
}

/* ------------------------------------------------------------------------
 * One run, six files (and the overview): one report
 * ------------------------------------------------------------------------ */

/* The files as one report, each with the importer its content calls for. */
static TesReport *
open_all (const char * const *paths,
          guint               n,
          TesReportOpenFlags  flags)
{
  g_autoptr(GPtrArray) importers = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < n; i++)
    {
      g_ptr_array_add (importers, tes_importer_registry_choose (paths[i], NULL, &error));
      g_assert_no_error (error);
    }

  return tes_test_import_files (paths, (TesImporter * const *)importers->pdata, n, flags);
}

/* What the files of one run give as one report, by hand from the files. */
typedef struct
{
  gint64             n_tracks;
  gint64             n_slices;
  gint64             n_operators;
  const char        *end_cycles[2];    /* of timeline_v1.csv and timeline_v2.csv */
  const TesTestInfo *info;
  guint              n_info;
  gint64             n_runtime;        /* slices on runtime_v2.csv's Host lane */
  gint64             n_dma_in;         /* slices on timeline_v2.csv's DMA In lane */
  gint64             copy_start_ns;    /* the trace's first host copy */
  gint64             copy_dur_ns;
  const char        *cfg_name;         /* the trace's first NSS CFG task, task 0 */
  gint64             cfg_start_ns;
} RunFigures;

static void
assert_combined (TesReport        *report,
                 const RunFigures *f)
{
  TesReportCounts counts;
  const TesTrack *pb_copy, *csv_actions, *rt_host, *pb_cfg, *tl_in;
  g_autoptr(GArray) pb_copies = NULL;
  g_autoptr(GArray) csv_rows = NULL;
  g_autoptr(GArray) rt = NULL;
  g_autoptr(GArray) cfg = NULL;
  g_autoptr(GArray) in = NULL;
  const TesSlice *csv_pad = NULL;
  const TesSlice *rt_copy = NULL;
  gint64 copy_start_us = f->copy_start_ns / 1000;
  guint n_cycles = 0, n_us = 0, n_ns = 0;

  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_sources, ==, 7);
  g_assert_cmpuint (tes_report_get_n_sources (report), ==, 7);
  g_assert_cmpint (counts.n_tracks, ==, f->n_tracks);
  g_assert_cmpint (counts.n_slices, ==, f->n_slices);
  g_assert_cmpint (counts.n_operators, ==, f->n_operators);

  /* one clock per kind of time */
  g_assert_cmpuint (tes_report_get_n_clocks (report), ==, 3);
  for (guint c = 1; c <= 3; c++)
    {
      const TesClock *clock = tes_report_get_clock (report, c);

      n_cycles += clock->unit == TES_TIME_UNIT_CYCLES && clock->ticks_per_second == 100000000;
      n_us += clock->unit == TES_TIME_UNIT_US;
      n_ns += clock->unit == TES_TIME_UNIT_NS;
    }
  g_assert_cmpuint (n_cycles + n_us + n_ns, ==, 3);
  g_assert_cmpuint (n_cycles * n_us * n_ns, ==, 1);

  /* info of every file, each timeline its own rows */
  g_assert_cmpuint (count_info (report, "timeline.end_cycle", f->end_cycles[0]), ==, 1);
  g_assert_cmpuint (count_info (report, "timeline.end_cycle", f->end_cycles[1]), ==, 1);
  tes_test_assert_info_rows (report, f->info, f->n_info);

  /* the same host copy in the runtime CSV (µs), the annotated CSV (µs)
   * and the trace (ns) lands on one time axis */
  pb_copy = tes_test_find_track (report, "Host", "Host Copy");
  csv_actions = tes_test_find_track (report, "Annotated runtime", "Actions");
  rt_host = find_track_with (report, "Host runtime", "Host", f->n_runtime);
  pb_copies = slices_of (report, pb_copy);
  csv_rows = slices_of (report, csv_actions);
  rt = slices_of (report, rt_host);
  assert_slice (report, slice_at (pb_copies, 0), "Host Copy | @L9C10", NULL, f->copy_start_ns, f->copy_dur_ns);
  for (guint i = 0; i < csv_rows->len; i++)
    if (g_str_equal (tes_report_get_string (report, slice_at (csv_rows, i)->name), "tosa.pad@L9"))
      csv_pad = slice_at (csv_rows, i);
  for (guint i = 0; i < rt->len; i++)
    if (slice_at (rt, i)->start == copy_start_us)
      rt_copy = slice_at (rt, i);
  g_assert_nonnull (csv_pad);
  g_assert_nonnull (rt_copy);
  g_assert_cmpstr (tes_report_get_string (report, rt_copy->name), ==, "HOST_COPY");
  g_assert_cmpint (csv_actions->clock_id, ==, rt_host->clock_id);
  g_assert_cmpint (tes_report_convert_time (report, csv_actions->clock_id, 0, csv_pad->start), ==,
                   slice_at (pb_copies, 0)->start);
  g_assert_cmpint (tes_report_convert_time (report, rt_host->clock_id, 0, rt_copy->start + rt_copy->dur), ==,
                   slice_at (pb_copies, 0)->start + slice_at (pb_copies, 0)->dur);

  /* compile-time cycles at 100 MHz: task 0's DMA In in timeline_v2.csv
   * is the trace's "Nss Cfg | Task: 0", 10 ns a cycle */
  pb_cfg = tes_test_find_track (report, "NPU Task Breakdown", "NSS CFG Tasks (Compile)");
  cfg = slices_of (report, pb_cfg);
  tl_in = find_track_with (report, "Compile-time timeline", "DMA In", f->n_dma_in);
  in = slices_of (report, tl_in);
  assert_slice (report, slice_at (cfg, 0), f->cfg_name, NULL, f->cfg_start_ns, slice_at (in, 0)->dur * 10);
  g_assert_cmpint (tes_report_convert_time (report, tl_in->clock_id, 0, slice_at (in, 0)->dur), ==,
                   slice_at (cfg, 0)->dur);
}

/* The files (in the order of run_files[]) as one report, then imported
 * again the other way round: the same report. */
static void
check_combined (GPtrArray        *paths,
                const RunFigures *f)
{
  const char *reversed[G_N_ELEMENTS (run_files)];

  g_assert_cmpuint (paths->len, ==, G_N_ELEMENTS (run_files));
  for (guint i = 0; i < paths->len; i++)
    reversed[i] = g_ptr_array_index (paths, paths->len - 1 - i);

  {
    g_autoptr(TesReport) report = open_all ((const char * const *)paths->pdata, paths->len, 0);

    assert_combined (report, f);
  }
  {
    g_autoptr(TesReport) report = open_all (reversed, G_N_ELEMENTS (reversed), TES_REPORT_OPEN_REIMPORT);

    g_assert_false (tes_report_get_cache_reused (report));
    assert_combined (report, f);
  }
}

static void
test_combined (void)
{
  static const TesTestInfo info[] = {
    { "runtime.invocations", "7" },
    { "annotated.untimed_rows", "16" },
    { "trace.packets", "242" },
    { "overview.wall_time", "207.000ms" },
  };
  static const RunFigures figures = {
    .n_tracks = 4 + 7 + 2 + 2 + 9 + 62,
    .n_slices = 11 + 12 + 6 + 46 + 45 + 90,
    .n_operators = 15 + 14,
    .end_cycles = { "26289", "31081" },
    .info = info,
    .n_info = G_N_ELEMENTS (info),
    .n_runtime = 46,
    .n_dma_in = 3,
    .copy_start_ns = 6093470695000,
    .copy_dur_ns = 41000,
    .cfg_name = "Nss Cfg | Task: 0 | @L10C10",
    .cfg_start_ns = 6093470739000,
  };
  g_autoptr(GPtrArray) paths = run_paths (TES_TEST_SHARED_DATA);

  check_combined (paths, &figures);
}

/* The six files and the trace of our run, as one report: the first
 * dispatch's host copy at 5 000 070 µs for 30 µs in the runtime CSV, the
 * annotated CSV and the trace; task 0's 1000-cycle DMA in is the trace's
 * 10 µs NSS CFG task. */
static void
test_combined_own (void)
{
  static const TesTestInfo info[] = {
    { "runtime.invocations", "5" },
    { "annotated.untimed_rows", "2" },
    { "trace.track_descriptors", "8" },
    { "overview.wall_time", "1.500s" },
  };
  static const RunFigures figures = {
    /* timeline v1, v2, runtime v1, v2, annotated, the trace */
    .n_tracks = 5 + 7 + 2 + 2 + 9 + G_N_ELEMENTS (own_tracks),
    .n_slices = 8 + 8 + 6 + 13 + 21 + G_N_ELEMENTS (own_slices),
    /* the overview's ten metrics and the trace's four */
    .n_operators = 10 + 4,
    .end_cycles = { "6010", "6202" },
    .info = info,
    .n_info = G_N_ELEMENTS (info),
    .n_runtime = 13,
    .n_dma_in = 2,    /* timeline_v1.csv's has 3 */
    .copy_start_ns = 5000070000,
    .copy_dur_ns = 30000,
    .cfg_name = "Nss Cfg | Task: 0 | @L3C5",
    .cfg_start_ns = 5000100000,
  };
  g_autoptr(GPtrArray) paths = run_paths (TES_TEST_OWN_DATA);

  check_combined (paths, &figures);
}

/* ------------------------------------------------------------------------
 * tessera-cli
 * ------------------------------------------------------------------------ */

/* What tessera-cli prints for the files of a run: for each file, `info`
 * names its importer and gives its slice count and every info row, and
 * `summary` prints the summary rows with their shares; for all of them
 * together, `info` gives the report's totals and its three clocks. */
static void
check_cli (const char * const *paths,
           guint               n_paths)
{
  g_auto(TesCliResult) r = { 0 };
  TesReportCounts counts;

  for (guint i = 0; i < n_paths; i++)
    {
      g_autoptr(TesReport) report = open_all (&paths[i], 1, 0);
      g_autoptr(GPtrArray) rows = NULL;
      g_autoptr(GString) summary = g_string_new (NULL);
      g_autoptr(GError) error = NULL;

      tes_test_assert_cli_info (report, paths[i]);
      rows = tes_report_summarize (report, TES_SUMMARY_TOTAL, TES_GROUP_BY_CATEGORY, &error);
      g_assert_no_error (error);
      for (guint j = 0; j < rows->len; j++)
        {
          const TesSummaryRow *row = g_ptr_array_index (rows, j);

          g_string_append_printf (summary, "%s %.3f%%\n", row->label, row->share);
        }
      tes_test_run_cli (&r, "summary", paths[i], NULL);
      g_assert_cmpint (r.status, ==, 0);
      g_assert_cmpstr (r.out, ==, summary->str);
    }

  {
    g_autoptr(TesReport) report = open_all (paths, n_paths, 0);
    g_autoptr(GPtrArray) argv = g_ptr_array_new ();
    g_autofree char *tracks = NULL;
    g_autofree char *slices = NULL;
    g_autofree char *operators = NULL;
    int status;

    tes_report_get_counts (report, &counts);
    tracks = g_strdup_printf ("Tracks:         %" G_GINT64_FORMAT "\n", counts.n_tracks);
    slices = g_strdup_printf ("Slices:         %" G_GINT64_FORMAT "\n", counts.n_slices);
    operators = g_strdup_printf ("Operators:      %" G_GINT64_FORMAT "\n", counts.n_operators);

    g_ptr_array_add (argv, (gpointer)g_getenv ("TESSERA_CLI"));
    g_ptr_array_add (argv, (gpointer)"info");
    for (guint i = 0; i < n_paths; i++)
      g_ptr_array_add (argv, (gpointer)paths[i]);
    g_ptr_array_add (argv, NULL);
    tes_cli_result_clear (&r);
    tes_test_run ((const char * const *)argv->pdata, &r.out, &r.err, &status);
    g_assert_cmpint (status, ==, 0);
    tes_test_assert_contains (r.out, "torq-perfetto, version 1)\n");
    tes_test_assert_contains (r.out, tracks);
    tes_test_assert_contains (r.out, slices);
    tes_test_assert_contains (r.out, operators);
    tes_test_assert_contains (r.out, "(clock Torq compile-time cycles (100 MHz))");
    tes_test_assert_contains (r.out, "(clock Torq host time (µs))");
    tes_test_assert_contains (r.out, "(clock Torq host time (ns))");
  }
}

static void
test_cli_own (void)
{
  g_autoptr(GPtrArray) paths = run_paths (TES_TEST_OWN_DATA);
  const char *timeline = g_ptr_array_index (paths, 1);
  const char *overview = g_ptr_array_index (paths, 6);
  const char *trace = g_ptr_array_index (paths, 5);
  g_auto(TesCliResult) r = { 0 };

  check_cli ((const char * const *)paths->pdata, paths->len);

  /* by hand */
  tes_test_run_cli (&r, "info", timeline, NULL);
  tes_test_assert_contains (r.out, "Time span:      0 .. 6202 cycles (clock Torq compile-time cycles (100 MHz)), "
                                   "0 .. 62020 ns\n");
  tes_test_run_cli (&r, "summary", overview, NULL);
  g_assert_true (g_str_has_prefix (r.out, "Compute 60.000%\nSlice 0 60.000%\nDma 25.000%\n"));
  tes_test_assert_contains (r.out, "\nCss 0.300%\nCdma 0.000%\n");
  tes_test_run_cli (&r, "summary", trace, NULL);
  g_assert_cmpstr (r.out, ==, "HAL total 78.950%\nDMA total 23.680%\nHOST COPY total 13.160%\nIDLE 0.000%\n");
  tes_test_run_cli (&r, "info", g_ptr_array_index (paths, 0), g_ptr_array_index (paths, 1),
                    g_ptr_array_index (paths, 2), g_ptr_array_index (paths, 3), g_ptr_array_index (paths, 4),
                    trace, overview, NULL);
  g_assert_cmpint (r.status, ==, 0);
  tes_test_assert_contains (r.out, "Tracks:         33\n");
  tes_test_assert_contains (r.out, "Slices:         68\n");
  tes_test_assert_contains (r.out, "Operators:      14\n");
}

static void
test_cli (void)
{
  g_autoptr(GPtrArray) paths = run_paths (TES_TEST_SHARED_DATA);
  const char *timeline, *runtime, *annotated, *trace, *overview;
  g_auto(TesCliResult) r = { 0 };

  timeline = g_ptr_array_index (paths, 1);
  runtime = g_ptr_array_index (paths, 3);
  annotated = g_ptr_array_index (paths, 4);
  trace = g_ptr_array_index (paths, 5);
  overview = g_ptr_array_index (paths, 6);

  check_cli ((const char * const *)paths->pdata, paths->len);

  tes_test_run_cli (&r, "info", timeline, NULL);
  tes_test_assert_contains (r.out, "Slices:         12\n");
  tes_test_assert_contains (r.out, "Time span:      0 .. 31081 cycles (clock Torq compile-time cycles (100 MHz)), 0 .. 310810 ns\n");

  tes_test_run_cli (&r, "summary", overview, NULL);
  g_assert_true (g_str_has_prefix (r.out, "Host Copy 96.430%\nDma 3.530%\nDma Total 3.530%\n"));
  tes_test_assert_contains (r.out, "Idle 0.050%\n");

  tes_test_run_cli (&r, "info", overview, NULL);
  tes_test_assert_contains (r.out, "Operators:      14\n");
  tes_test_assert_contains (r.out, "Info:           overview.wall_time = 207.000ms\n");

  tes_test_run_cli (&r, "summary", trace, NULL);
  g_assert_true (g_str_has_prefix (r.out, "HAL total 99.860%\n"));
  tes_test_assert_contains (r.out, "HOST COPY total 8.250%\n");

  tes_test_run_cli (&r, "summary", "--by", "name", runtime, NULL);
  g_assert_cmpint (r.status, ==, 0);
  tes_test_assert_contains (r.out, "NSS_WAIT ");

  /* the files of one run, one report */
  tes_test_run_cli (&r, "info", timeline, runtime, annotated, trace, overview, NULL);
  g_assert_cmpint (r.status, ==, 0);
  tes_test_assert_contains (r.out, "Tracks:         80\n");
  tes_test_assert_contains (r.out, "Slices:         193\n");
  tes_test_assert_contains (r.out, "Operators:      29\n");
  tes_test_assert_contains (r.out, "Info:           annotated.invocations = 4\n");
  tes_test_assert_contains (r.out, "Info:           trace.overview.overall = 727.000µs\n");
}

/* ------------------------------------------------------------------------
 * Sniffing by content
 * ------------------------------------------------------------------------ */

/* Each file of a run, renamed to something that says nothing, is still
 * found by its content (paths in the order of run_files[]). */
static void
check_sniff_renamed (const char * const *paths)
{
  static const char * const importers[] = {
    "torq-timeline", "torq-timeline", "torq-runtime", "torq-runtime",
    "torq-annotated", "torq-perfetto", "torq-host-overview",
  };

  G_STATIC_ASSERT (G_N_ELEMENTS (importers) == G_N_ELEMENTS (run_files));
  for (guint i = 0; i < G_N_ELEMENTS (importers); i++)
    {
      g_autofree char *name = g_strdup_printf ("renamed-%u.dat", i);
      g_autofree char *path = tes_test_copy_to_tmp (paths[i], name);
      g_autoptr(GError) error = NULL;
      TesImporter *importer = tes_importer_registry_choose (path, NULL, &error);

      g_assert_no_error (error);
      g_assert_cmpstr (tes_importer_get_name (importer), ==, importers[i]);
    }
}

static void
test_sniff_content_fixture (void)
{
  g_autoptr(GPtrArray) paths = run_paths (TES_TEST_SHARED_DATA);
  check_sniff_renamed ((const char * const *)paths->pdata);
}

static void
test_sniff_content (void)
{
  g_autoptr(GPtrArray) paths = run_paths (TES_TEST_OWN_DATA);

  check_sniff_renamed ((const char * const *)paths->pdata);

  /* a pytest log with the block at its end */
  {
    g_autofree char *log = tes_test_tmp_path ("pytest.log");
    g_autoptr(GError) error = NULL;
    g_autoptr(TesReport) report = NULL;
    TesImporter *importer;
    TesReportCounts counts;

    tes_test_write_file (log,
                         "============================= test session starts ==============================\n"
                         "collected 1 item\n\n"
                         "tests/test_onnx_model.py .                                               [100%]\n\n"
                         "====================== Host Profile Overview =======================\n"
                         "Model: example-matmul_layer\n"
                         "WALL_TIME 1.234s\n"
                         "OVERALL 2.000ms\n"
                         "Dma 1.000ms (50.00%)\n"
                         "Host Copy 1.000ms (50.00%)\n"
                         "====================================================================\n"
                         "Not a metric line\n"
                         "============================== 1 passed in 3.21s ===============================\n", -1);
    importer = tes_importer_registry_choose (log, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (tes_importer_get_name (importer), ==, "torq-host-overview");
    report = tes_report_import (log, importer, 0, NULL, NULL, &error);
    g_assert_no_error (error);
    tes_test_assert_info (report, "overview.wall_time", "1.234s");
    tes_test_assert_info (report, "overview.model", "example-matmul_layer");
    tes_report_get_counts (report, &counts);
    g_assert_cmpint (counts.n_operators, ==, 2);
  }
}

/* ------------------------------------------------------------------------
 * Bad input
 * ------------------------------------------------------------------------ */

typedef struct
{
  const char *importer;
  const char *name;
  const char *contents;
  gssize      len;
  int         code;
  const char *message;   /* after the path */
} BadCase;

#define V2_HEADER "taskId, elapsed_time(us), timestamp(us), event, location, bytes\n"
#define RT1_HEADER "actionIndex, elapsed_time(us), timestamp(us), event, location\n"
#define RT2_HEADER "dispatch_name,invocation_id,action_id,timestamp_us,event\n"
#define ANN_HEADER "action_id;job_id;operation;invocation_names;original_operators;total_time;" \
                   "slice_used_0_in_program;dma_in_used_in_program;timestamp_start;timestamp_end;location\n"
#define GARBAGE "\x7f" "ELF\x02\x01\x01\0\0\0\0\0\x03\x00\x3e\x00"

static void
test_bad_input (void)
{
  static const BadCase cases[] = {
    /* timeline */
    { "torq-timeline", "t-empty.csv", "", 0, TES_IMPORT_ERROR_EMPTY, ": no timeline rows" },
    { "torq-timeline", "t-header-only.csv", V2_HEADER, -1, TES_IMPORT_ERROR_EMPTY, ": no timeline rows" },
    { "torq-timeline", "t-garbage.csv", GARBAGE, 16, TES_IMPORT_ERROR_INVALID, ":1: neither the header" },
    { "torq-timeline", "t-text.csv", "hello, world\n", -1, TES_IMPORT_ERROR_INVALID, ":1: neither the header" },
    { "torq-timeline", "t-truncated.csv", "DI0,0,1200,loc(\"a\":1:2),DMA_IN\nDI1,1201,1214,loc(\"a\":1", -1,
      TES_IMPORT_ERROR_TRUNCATED, ":2: the file is cut short inside its last line: Location is not an MLIR location" },
    { "torq-timeline", "t-columns.csv", "DI0,0,1200,loc(\"a\":1:2),DMA_IN,extra\n", -1,
      TES_IMPORT_ERROR_INVALID, ":1: expected 5 columns" },
    { "torq-timeline", "t-few.csv", "DI0,0,1200,DMA_IN\n", -1,
      TES_IMPORT_ERROR_INVALID, ":1: Location is not an MLIR location" },
    { "torq-timeline", "t-number.csv", "DI0,0,12x0,loc(\"a\":1:2),DMA_IN\n", -1,
      TES_IMPORT_ERROR_INVALID, ":1: End is not a cycle count" },
    { "torq-timeline", "t-utf8.csv", "DI0,0,1200,loc(\"\xff\":1:2),DMA_IN\n", -1,
      TES_IMPORT_ERROR_INVALID, ":1: Location is not UTF-8 text" },
    { "torq-timeline", "t-backwards.csv", "S0,50,10,loc(unknown),conv2d\n", -1,
      TES_IMPORT_ERROR_INVALID, ":1: End is before Start" },
    { "torq-timeline", "t-v2-columns.csv", V2_HEADER "0,1314,0,DMA In,loc(unknown)\n", -1,
      TES_IMPORT_ERROR_INVALID, ":2: expected 6 columns" },
    { "torq-timeline", "t-v2-cut.csv", V2_HEADER "0,1314,0,DMA In,loc(\"models/a.mlir\":1", -1,
      TES_IMPORT_ERROR_TRUNCATED, ":2: the file is cut short inside its last line: location is not an MLIR location" },
    { "torq-timeline", "t-v2-bytes.csv", V2_HEADER "0,1314,0,DMA In,loc(unknown),lots\n", -1,
      TES_IMPORT_ERROR_INVALID, ":2: bytes is not a byte count" },
    { "torq-timeline", "t-v2-mixed.csv", V2_HEADER "DI0,0,1200,loc(\"a\":1:2),DMA_IN\n", -1,
      TES_IMPORT_ERROR_INVALID, ":2: taskId is not a number" },
    /* runtime */
    { "torq-runtime", "r-empty.csv", "", 0, TES_IMPORT_ERROR_EMPTY, ": no header and no events" },
    { "torq-runtime", "r-header-only.csv", RT2_HEADER, -1, TES_IMPORT_ERROR_EMPTY, ": a header but no events" },
    { "torq-runtime", "r-garbage.csv", GARBAGE, 16, TES_IMPORT_ERROR_INVALID, ":1: expected the header" },
    { "torq-runtime", "r-v1-columns.csv", RT1_HEADER "0,0,1893207114,ALLOC_START\n", -1,
      TES_IMPORT_ERROR_INVALID, ":2: expected 5 columns" },
    { "torq-runtime", "r-v1-number.csv", RT1_HEADER "0,0,18932o7114,ALLOC_START,loc(unknown)\n", -1,
      TES_IMPORT_ERROR_INVALID, ":2: timestamp is not a number of µs" },
    { "torq-runtime", "r-v1-utf8.csv", RT1_HEADER "0,0,1893207114,ALLOC_START,loc(\"\xfe\")\n", -1,
      TES_IMPORT_ERROR_INVALID, ":2: location is not UTF-8 text" },
    { "torq-runtime", "r-v1-unstarted.csv", RT1_HEADER "0,0,1893207114,ALLOC_END,loc(unknown)\n", -1,
      TES_IMPORT_ERROR_INVALID, ":2: ALLOC_END of action 0 was not started" },
    { "torq-runtime", "r-v1-mismatch.csv",
      RT1_HEADER "0,0,10,ALLOC_START,loc(unknown)\n0,1,11,DEALLOC_END,loc(unknown)\n", -1,
      TES_IMPORT_ERROR_INVALID, ":3: DEALLOC_END does not end ALLOC_START of action 0 (line 2)" },
    { "torq-runtime", "r-v2-columns.csv", RT2_HEADER "d,0,-1,6093418771\n", -1,
      TES_IMPORT_ERROR_INVALID, ":2: expected 5 columns" },
    { "torq-runtime", "r-v2-cut.csv", RT2_HEADER "d,0,-1,6093418771,INIT_BEGIN\nd,0,-1,6093418", -1,
      TES_IMPORT_ERROR_TRUNCATED, ":3: the file is cut short inside its last line: expected 5 columns" },
    { "torq-runtime", "r-v2-event.csv", RT2_HEADER "d,0,-1,6093418771,INIT_START\n", -1,
      TES_IMPORT_ERROR_INVALID, ":2: event is neither <TYPE>_BEGIN nor <TYPE>_END" },
    { "torq-runtime", "r-v2-action.csv", RT2_HEADER "d,0,-7,6093418771,INIT_BEGIN\n", -1,
      TES_IMPORT_ERROR_INVALID, ":2: action_id is not a number (or -1)" },
    { "torq-runtime", "r-v2-nesting.csv",
      RT2_HEADER "d,0,-1,10,INIT_BEGIN\nd,0,-1,11,INIT_HW_OPEN_BEGIN\nd,0,-1,12,INIT_END\n", -1,
      TES_IMPORT_ERROR_INVALID, ":4: INIT_END (action -1) does not end INIT_HW_OPEN_BEGIN (action -1, line 3)" },
    { "torq-runtime", "r-v2-backwards.csv", RT2_HEADER "d,0,-1,10,INIT_BEGIN\nd,0,-1,9,INIT_END\n", -1,
      TES_IMPORT_ERROR_INVALID, ":3: INIT_END at 9 µs is before its begin at 10 µs" },
    /* annotated */
    { "torq-annotated", "a-empty.csv", "", 0, TES_IMPORT_ERROR_EMPTY, ": empty file" },
    { "torq-annotated", "a-header-only.csv", ANN_HEADER, -1, TES_IMPORT_ERROR_EMPTY, ": a header but no rows" },
    { "torq-annotated", "a-garbage.csv", GARBAGE, 16, TES_IMPORT_ERROR_INVALID, ":1: not UTF-8 text" },
    { "torq-annotated", "a-not-header.csv", "a;b;c\n1;2;3\n", -1, TES_IMPORT_ERROR_INVALID, ":1: expected the header" },
    { "torq-annotated", "a-columns.csv", ANN_HEADER "0;;memref.alloc;;;1.0;;;6093470691.0;6093470692.0\n", -1,
      TES_IMPORT_ERROR_INVALID, ":2: 10 columns, the header has 11" },
    { "torq-annotated", "a-truncated.csv", ANN_HEADER "0;;memref.alloc;;;1.0;;;6093470691.0;60934", -1,
      TES_IMPORT_ERROR_TRUNCATED, ":2: the file is cut short inside its last line: 10 columns, the header has 11" },
    { "torq-annotated", "a-number.csv", ANN_HEADER "0;;memref.alloc;;;1.0;;;6093470691.0;soon;loc(unknown)\n", -1,
      TES_IMPORT_ERROR_INVALID, ":2: column timestamp_end: expected µs, got 'soon'" },
    { "torq-annotated", "a-hex.csv", ANN_HEADER "0;;memref.alloc;;;0x10;;;6093470691.0;6093470692.0;x\n", -1,
      TES_IMPORT_ERROR_INVALID, ":2: column total_time: expected µs, got '0x10'" },
    { "torq-annotated", "a-flag.csv", ANN_HEADER "0;;memref.alloc;;;1.0;Yes;;6093470691.0;6093470692.0;x\n", -1,
      TES_IMPORT_ERROR_INVALID, ":2: column slice_used_0_in_program: expected True, False or nothing, got 'Yes'" },
    { "torq-annotated", "a-half-timed.csv", ANN_HEADER "0;;memref.alloc;;;1.0;;;6093470691.0;;x\n", -1,
      TES_IMPORT_ERROR_INVALID, ":2: column timestamp_end: empty while the other timestamp is given" },
    { "torq-annotated", "a-open-quote.csv", ANN_HEADER "0;;memref.alloc;;;1.0;;;1.0;2.0;\"Mobilenet;x\n", -1,
      TES_IMPORT_ERROR_TRUNCATED, ":2: the file ends inside a quoted field" },
    { "torq-annotated", "a-bad-quote.csv", ANN_HEADER "0;;memref.alloc;;;1.0;;;1.0;2.0;\"a\"b\n", -1,
      TES_IMPORT_ERROR_INVALID, ":2: text after the closing quote of a field" },
    /* Perfetto */
    { "torq-perfetto", "p-empty.pb", "", 0, TES_IMPORT_ERROR_EMPTY, ": empty file" },
    { "torq-perfetto", "p-garbage.pb", GARBAGE, 16, TES_IMPORT_ERROR_INVALID, ": byte 0: not a Perfetto trace" },
    { "torq-perfetto", "p-text.pb", "hello\n", -1, TES_IMPORT_ERROR_INVALID, ": byte 0: not a Perfetto trace" },
    { "torq-perfetto", "p-short.pb", "\x0a\x10\x40\x01", 4, TES_IMPORT_ERROR_TRUNCATED,
      ": packet 1 (byte 0): the file ends inside it" },
    { "torq-perfetto", "p-bad-packet.pb", "\x0a\x02\xff\xff", 4, TES_IMPORT_ERROR_INVALID,
      ": packet 1 (byte 0, 2 bytes): not a valid TracePacket" },
    { "torq-perfetto", "p-nothing.pb", "\x0a\x02\x40\x01\x0a\x02\x40\x02", 8, TES_IMPORT_ERROR_EMPTY,
      ": 2 packet(s), but no tracks and no track events" },
    /* timestamp_clock_id 64 (a sequence clock) on a track event */
    { "torq-perfetto", "p-clock.pb", "\x0a\x09\x40\x05\xd0\x03\x40\x5a\x02\x48\x01", 11, TES_IMPORT_ERROR_UNSUPPORTED,
      ": packet 1 (byte 0): timestamps in sequence clock 64" },
    /* host overview */
    { "torq-host-overview", "o-empty.txt", "", 0, TES_IMPORT_ERROR_EMPTY, ": no 'Host Profile Overview' block" },
    { "torq-host-overview", "o-no-block.txt", "collected 1 item\nDma 1.000ms (50.00%)\n", -1,
      TES_IMPORT_ERROR_EMPTY, ": no 'Host Profile Overview' block" },
    { "torq-host-overview", "o-garbage.txt", GARBAGE, 16, TES_IMPORT_ERROR_INVALID, ":1: not UTF-8 text" },
    { "torq-host-overview", "o-bad-line.txt", "=== Host Profile Overview ===\nModel: m\nDma lots (3.53%)\n", -1,
      TES_IMPORT_ERROR_INVALID, ":3: expected '<metric> <duration>'" },
    { "torq-host-overview", "o-bad-percent.txt", "=== Host Profile Overview ===\nDma 1.000ms (3.5x%)\n", -1,
      TES_IMPORT_ERROR_INVALID, ":2: expected '<metric> <duration>'" },
    { "torq-host-overview", "o-over.txt", "=== Host Profile Overview ===\nDma 1.000ms (103.53%)\n", -1,
      TES_IMPORT_ERROR_INVALID, ":2: Dma is 103.53%, above 100%" },
    { "torq-host-overview", "o-truncated.txt", "=== Host Profile Overview ===\nDma 1.000ms (3.5", -1,
      TES_IMPORT_ERROR_TRUNCATED, ":2: the file is cut short inside its last line: expected '<metric> <duration>'" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    tes_test_assert_import_fails (tes_importer_registry_lookup (cases[i].importer), cases[i].name,
                                  cases[i].contents, cases[i].len, cases[i].code, cases[i].message);
}

/* Documented recoveries, each recorded as a "warning.N" info row. */
static void
test_recoveries (void)
{
  g_autoptr(GError) error = NULL;

  /* an event kind newer than the importer: its own lane */
  {
    g_autofree char *path = tes_test_tmp_path ("unknown-event.csv");
    g_autoptr(TesReport) report = NULL;
    g_autoptr(GArray) slices = NULL;

    tes_test_write_file (path, V2_HEADER "0,10,0,DMA In,loc(unknown),80\n0,5,3,Vector Unit,loc(unknown),\n"
                                         "1,5,20,Vector Unit,loc(unknown),\n", -1);
    report = tes_report_import (path, tes_importer_registry_lookup ("torq-timeline"), 0, NULL, NULL, &error);
    g_assert_no_error (error);
    tes_test_assert_info (report, "warning.1", "unknown-event.csv: unknown event 'Vector Unit' kept on a lane of its own");
    slices = slices_of (report, tes_test_find_track (report, "Compile-time timeline", "Vector Unit"));
    g_assert_cmpuint (slices->len, ==, 2);
    assert_slice (report, slice_at (slices, 1), "Vector Unit", "other", 20, 5);
  }

  /* a run that stopped: events begun and not ended are closed at the end */
  {
    g_autofree char *path = tes_test_tmp_path ("unclosed.csv");
    g_autoptr(TesReport) report = NULL;
    g_autoptr(GArray) slices = NULL;

    tes_test_write_file (path, RT2_HEADER "d,0,-1,10,DISPATCH_BEGIN\nd,0,0,11,ALLOC_BEGIN\nd,0,0,12,ALLOC_END\n"
                                          "d,0,1,13,NSS_WAIT_BEGIN\nd,0,1,20,HOST_COPY_BEGIN\n", -1);
    report = tes_report_import (path, tes_importer_registry_lookup ("torq-runtime"), 0, NULL, NULL, &error);
    g_assert_no_error (error);
    tes_test_assert_info (report, "warning.1", "unclosed.csv: 3 event(s) begun but never ended (the first on line 2), "
                                      "closed at the last timestamp");
    slices = slices_of (report, tes_test_find_track (report, "Host runtime", "Host"));
    g_assert_cmpuint (slices->len, ==, 4);
    assert_slice (report, slice_at (slices, 0), "DISPATCH d", "DISPATCH", 10, 10);
    g_assert_cmpint (slice_at (slices, 0)->flags, ==, TES_SLICE_FLAG_UNCLOSED);
    g_assert_cmpint (slice_at (slices, 1)->flags, ==, 0);
    assert_slice (report, slice_at (slices, 2), "NSS_WAIT", "NSS_WAIT", 13, 7);
  }

  /* invocations that overlap without nesting: a lane each */
  {
    g_autofree char *path = tes_test_tmp_path ("overlap.csv");
    g_autofree char *warning = NULL;
    g_autoptr(TesReport) report = NULL;
    TesReportCounts counts;

    tes_test_write_file (path, RT2_HEADER "a,0,-1,10,DISPATCH_BEGIN\nb,1,-1,12,DISPATCH_BEGIN\n"
                                          "a,0,-1,15,DISPATCH_END\nb,1,-1,18,DISPATCH_END\n", -1);
    report = tes_report_import (path, tes_importer_registry_lookup ("torq-runtime"), 0, NULL, NULL, &error);
    g_assert_no_error (error);
    tes_report_get_counts (report, &counts);
    g_assert_cmpint (counts.n_tracks, ==, 3);
    tes_test_find_track (report, "Host runtime", "a #0");
    tes_test_find_track (report, "Host runtime", "b #1");
    warning = tes_report_lookup_info (report, "warning.1");
    tes_test_assert_contains (warning, "one lane per invocation");
  }

  /* Perfetto: a slice left open, an end without a begin, an undescribed
   * track, a child before its parent, interned names */
  {
    /* hand-encoded packets (field numbers as in perfetto_trace.proto) */
    static const guint8 trace[] = {
      /* track_descriptor { uuid 2 name "child" parent_uuid 1 } */
      0x0a, 0x0e, 0xe2, 0x03, 0x0b, 0x08, 0x02, 0x12, 0x05, 'c', 'h', 'i', 'l', 'd', 0x28, 0x01,
      /* track_descriptor { uuid 1 name "proc" } */
      0x0a, 0x0b, 0xe2, 0x03, 0x08, 0x08, 0x01, 0x12, 0x04, 'p', 'r', 'o', 'c',
      /* interned_data { event_names { iid 7 name "work" } }, seq 3 */
      0x0a, 0x0e, 0x50, 0x03, 0x62, 0x0a, 0x12, 0x08, 0x08, 0x07, 0x12, 0x04, 'w', 'o', 'r', 'k',
      /* ts 100 seq 3 track_event { type BEGIN track_uuid 2 name_iid 7 } */
      0x0a, 0x0c, 0x40, 0x64, 0x50, 0x03, 0x5a, 0x06, 0x48, 0x01, 0x58, 0x02, 0x50, 0x07,
      /* ts 150 seq 3 track_event { type END track_uuid 2 } */
      0x0a, 0x0b, 0x40, 0x96, 0x01, 0x50, 0x03, 0x5a, 0x04, 0x48, 0x02, 0x58, 0x02,
      /* ts 160 track_event { type END track_uuid 2 } (no begin) */
      0x0a, 0x09, 0x40, 0xa0, 0x01, 0x5a, 0x04, 0x48, 0x02, 0x58, 0x02,
      /* ts 170 track_event { type BEGIN track_uuid 9 name "open" categories "c" } */
      0x0a, 0x14, 0x40, 0xaa, 0x01, 0x5a, 0x0f, 0x48, 0x01, 0x58, 0x09, 0xb2, 0x01, 0x01, 'c',
      0xba, 0x01, 0x04, 'o', 'p', 'e', 'n',
      /* ts 200 track_event { type INSTANT track_uuid 1 name "hi" } */
      0x0a, 0x0e, 0x40, 0xc8, 0x01, 0x5a, 0x09, 0x48, 0x03, 0x58, 0x01, 0xba, 0x01, 0x02, 'h', 'i',
    };
    g_autofree char *path = tes_test_tmp_path ("hand.pb");
    g_autoptr(TesReport) report = NULL;
    g_autoptr(GArray) work = NULL;
    g_autoptr(GArray) open = NULL;
    const TesTrack *child;
    const TesTrack *lost;
    TesReportCounts counts;
    TesImporter *importer;

    tes_test_write_file (path, (const char *)trace, sizeof trace);
    importer = tes_importer_registry_choose (path, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (tes_importer_get_name (importer), ==, "torq-perfetto");
    report = tes_report_import (path, importer, 0, NULL, NULL, &error);
    g_assert_no_error (error);
    tes_report_get_counts (report, &counts);
    g_assert_cmpint (counts.n_tracks, ==, 3);
    g_assert_cmpint (counts.n_slices, ==, 2);
    g_assert_cmpint (counts.n_instants, ==, 1);

    child = tes_test_find_track (report, "proc", "child");
    work = slices_of (report, child);
    g_assert_cmpuint (work->len, ==, 1);
    assert_slice (report, slice_at (work, 0), "work", NULL, 100, 50);

    lost = tes_test_find_track (report, NULL, "Track 9");
    open = slices_of (report, lost);
    assert_slice (report, slice_at (open, 0), "open", "c", 170, 30);
    g_assert_cmpint (slice_at (open, 0)->flags, ==, TES_SLICE_FLAG_UNCLOSED);

    tes_test_assert_info (report, "warning.1", "hand.pb: events on track uuid 9, which no descriptor defines");
    tes_test_assert_info (report, "warning.2", "hand.pb: 1 slice(s) begun but never ended, closed at the end of the trace");
    tes_test_assert_info (report, "warning.3", "hand.pb: 1 slice end(s) without a begin on their track, skipped");
    tes_test_assert_info (report, "trace.sequences", "1");
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tes_test_add (TES_TEST_OWN_DATA, "/tes/torq/combined", test_combined_own);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/torq/cli", test_cli_own);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/torq/sniff-content", test_sniff_content);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/torq/bad-input", test_bad_input);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/torq/recoveries", test_recoveries);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/torq/combined-fixture", test_combined);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/torq/cli-fixture", test_cli);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/torq/sniff-content-fixture", test_sniff_content_fixture);

  return g_test_run ();
}
