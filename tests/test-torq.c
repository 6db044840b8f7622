/* test-torq.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <json-glib/json-glib.h>

#include "perfetto_trace.pb-c.h"
#include "tes-importer-registry.h"
#include "tes-report.h"
#include "tes-test-util.h"
#include "tes-torq-util.h"

/* The Synaptics Torq importers: the compile-time timeline (both layouts),
 * the runtime CSV (both layouts), the annotated CSV, the Perfetto trace and
 * the pytest Host Profile Overview, each alone and all files of a run as
 * one report; the command line; sniffing by content; bad input of every
 * kind. Every behaviour is checked on the project's own files
 * (tests/data/torq, written by hand for these tests, and a Perfetto trace
 * this test encodes with the importer's own compiled proto, so that its
 * slices are known by construction); the conformance suite checks the same
 * on ../shared/fixtures/torq (every slice of host_trace.expected.json). */

#define SHARED_DIR "fixtures/torq/"
#define OWN_DIR "torq/"

/* The files of one run, in this order wherever a test lists them. */
static const char * const run_files[] = {
  "timeline_v1.csv", "timeline_v2.csv", "runtime_v1.csv", "runtime_v2.csv",
  "annotated_runtime.csv", "host_trace.pb", "host_profile_overview.txt",
};

static char *write_own_trace (void);

/* A scratch copy of one of our files (tests/data/torq) or, for the
 * conformance suite, of a shared fixture. */
static char *
copy_file (TesTestData  data,
           const char  *name)
{
  g_autofree char *rel = g_strconcat (data == TES_TEST_OWN_DATA ? OWN_DIR : SHARED_DIR, name, NULL);

  return tes_test_copy_fixture (data, rel);
}

/* The files of our run (the trace written by this test) or of the shared
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

static TesReport *
open_file (TesTestData  data,
           const char  *name,
           const char  *importer_name)
{
  g_autofree char *path = copy_file (data, name);

  return tes_test_import (path, tes_importer_registry_lookup (importer_name));
}

static TesReport *
open_fixture (const char *name,
              const char *importer_name)
{
  return open_file (TES_TEST_SHARED_DATA, name, importer_name);
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

static GArray *
slices_of (TesReport      *report,
           const TesTrack *track)
{
  return tes_test_get_slices (report, track->id);
}

static const TesSlice *
slice_at (GArray *slices,
          guint   i)
{
  g_assert_cmpuint (i, <, slices->len);
  return &g_array_index (slices, TesSlice, i);
}

static void
assert_slice (TesReport      *report,
              const TesSlice *slice,
              const char     *name,
              const char     *category,
              gint64          start,
              gint64          dur)
{
  g_assert_cmpstr (tes_report_get_string (report, slice->name), ==, name);
  if (category != NULL)
    g_assert_cmpstr (tes_report_get_string (report, slice->category), ==, category);
  g_assert_cmpint (slice->start, ==, start);
  g_assert_cmpint (slice->dur, ==, dur);
}

typedef struct
{
  const char *name;
  const char *category;
  gint64      start;
  gint64      dur;
} LaneSlice;

/* Every slice of the lane, in time order, is the one expected. */
static const TesTrack *
assert_lane (TesReport       *report,
             const char      *parent,
             const char      *lane,
             const LaneSlice *expected,
             guint            n_expected)
{
  const TesTrack *track = tes_test_find_track (report, parent, lane);
  g_autoptr(GArray) slices = slices_of (report, track);

  g_assert_cmpuint (slices->len, ==, n_expected);
  for (guint i = 0; i < n_expected; i++)
    assert_slice (report, slice_at (slices, i), expected[i].name, expected[i].category,
                  expected[i].start, expected[i].dur);

  return track;
}

static char *
args_of (TesReport      *report,
         const TesTrack *track,
         const TesSlice *slice)
{
  g_autoptr(GError) error = NULL;
  char *args = tes_report_get_slice_args (report, track->id, slice->index, &error);

  g_assert_no_error (error);
  g_assert_nonnull (args);
  return args;
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

typedef struct
{
  const char *label;
  double      share;
  gint64      total;
} MetricRow;

/* The summary by category has n_rows rows, the first being expected[0],
 * and the expected rows with their printed shares and their totals; with
 * all_in_order, expected lists every row, in order. */
static void
assert_summary (TesReport       *report,
                guint            n_rows,
                const MetricRow *expected,
                guint            n_expected,
                gboolean         all_in_order)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) rows = tes_report_summarize (report, TES_SUMMARY_TOTAL, TES_GROUP_BY_CATEGORY, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, n_rows);
  g_assert_cmpstr (((TesSummaryRow *)g_ptr_array_index (rows, 0))->label, ==, expected[0].label);
  for (guint i = 0; i < n_expected; i++)
    {
      const TesSummaryRow *row = all_in_order ? g_ptr_array_index (rows, i)
                                              : tes_test_find_summary_row (rows, expected[i].label);

      g_assert_cmpstr (row->label, ==, expected[i].label);
      g_assert_cmpfloat_with_epsilon (row->share, expected[i].share, 1e-9);
      g_assert_cmpint (row->total, ==, expected[i].total);
    }
}

static const TesClock *
clock_of (TesReport      *report,
          const TesTrack *track)
{
  const TesClock *clock = tes_report_get_clock (report, track->clock_id);

  g_assert_nonnull (clock);
  return clock;
}

/* ------------------------------------------------------------------------
 * Source locations
 * ------------------------------------------------------------------------ */

static char *
locs_json (const char *text,
           gboolean    short_form,
           gboolean   *ok)
{
  g_autoptr(GArray) locs = tes_torq_loc_array_new ();
  g_autoptr(GString) json = g_string_new ("{");

  *ok = short_form ? tes_torq_parse_short_loc (text, strlen (text), locs)
                   : tes_torq_parse_mlir_loc (text, strlen (text), locs);
  tes_torq_append_locs_json (json, locs);
  g_string_append_c (json, '}');
  return g_string_free (g_steal_pointer (&json), FALSE);
}

static void
test_locations (void)
{
  static const struct { const char *text; gboolean short_form; const char *json; } good[] = {
    { "loc(\"m.mlir\":10:10)", FALSE, "{\"loc\":[{\"file\":\"m.mlir\",\"line\":10,\"col\":10}]}" },
    { "loc(unknown)", FALSE, "{\"loc\":[]}" },
    { "loc(fused[\"a.mlir\":1:2, \"b.mlir\":3:4])", FALSE,
      "{\"loc\":[{\"file\":\"a.mlir\",\"line\":1,\"col\":2},{\"file\":\"b.mlir\",\"line\":3,\"col\":4}]}" },
    { "loc(fused<\"CSE\">[\"a.mlir\":1:2])", FALSE, "{\"loc\":[{\"file\":\"a.mlir\",\"line\":1,\"col\":2}]}" },
    { "loc(\"Mobilenet/x;y,z\")", FALSE, "{\"loc\":[{\"name\":\"Mobilenet/x;y,z\"}]}" },
    { "loc(\"conv\"(\"a.mlir\":5:6))", FALSE, "{\"loc\":[{\"name\":\"conv\",\"file\":\"a.mlir\",\"line\":5,\"col\":6}]}" },
    { "loc(callsite(\"f.py\":1:2 at \"g.py\":3:4))", FALSE,
      "{\"loc\":[{\"file\":\"f.py\",\"line\":1,\"col\":2},{\"file\":\"g.py\",\"line\":3,\"col\":4}]}" },
    { "loc(#loc12)", FALSE, "{\"loc\":[{\"alias\":\"#loc12\"}]}" },
    { "loc(\"a.mlir\":1:2 to :9)", FALSE, "{\"loc\":[{\"file\":\"a.mlir\",\"line\":1,\"col\":2}]}" },
    { "loc(\"we\\\"ird\\\\.mlir\":7:8)", FALSE, "{\"loc\":[{\"file\":\"we\\\"ird\\\\.mlir\",\"line\":7,\"col\":8}]}" },
    { "@L10C10+@L11C10+@L12C11", TRUE,
      "{\"loc\":[{\"line\":10,\"col\":10},{\"line\":11,\"col\":10},{\"line\":12,\"col\":11}]}" },
    { "@L9C10", TRUE, "{\"loc\":[{\"line\":9,\"col\":10}]}" },
  };
  static const struct { const char *text; gboolean short_form; } bad[] = {
    { "loc(", FALSE }, { "loc(\"a\":1)", FALSE }, { "loc(fused[\"a\":1:2)", FALSE },
    { "loc(\"a\":1:2) extra", FALSE }, { "HAL_QUEUE_WAIT", FALSE }, { "", FALSE },
    { "@L10", TRUE }, { "@L10C10+", TRUE }, { "@L10C10+x", TRUE }, { "L10C10", TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      gboolean ok;
      g_autofree char *json = locs_json (good[i].text, good[i].short_form, &ok);

      if (!ok)
        g_error ("'%s' did not parse", good[i].text);
      g_assert_cmpstr (json, ==, good[i].json);
    }

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      gboolean ok;
      g_autofree char *json = locs_json (bad[i].text, bad[i].short_form, &ok);

      if (ok)
        g_error ("'%s' parsed", bad[i].text);
      g_assert_cmpstr (json, ==, "{\"loc\":[]}");
    }

  {
    const char *row = "loc(fused[\"a(\":1:2, \"b\":3:4]),DMA_IN";
    const char *cut = "loc(\"a\":1:2";

    g_assert_cmpuint (tes_torq_loc_extent (row, strlen (row)), ==, strlen (row) - strlen (",DMA_IN"));
    g_assert_cmpuint (tes_torq_loc_extent (cut, strlen (cut)), ==, 0);
    g_assert_cmpuint (tes_torq_loc_extent ("DMA_IN", 6), ==, 0);
  }
}

static void
test_durations (void)
{
  static const struct { const char *text; gint64 ns; } good[] = {
    { "0ns", 0 }, { "453.000\xc2\xb5s", 453000 }, { "12.386ms", 12386000 }, { "207.000ms", 207000000 },
    { "1.234s", 1234000000 }, { "6.000us", 6000 }, { "1.5ns", 2 },
  };
  static const char * const bad[] = { "", "ms", "1.2.3ms", "12 ms", "-1ns", "1e3ns", "5 parsecs", "1.ms" };
  double pct;

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      gint64 ns = -1;

      g_assert_true (tes_torq_parse_duration (good[i].text, strlen (good[i].text), &ns));
      g_assert_cmpint (ns, ==, good[i].ns);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      gint64 ns;

      if (tes_torq_parse_duration (bad[i], strlen (bad[i]), &ns))
        g_error ("'%s' parsed as a duration", bad[i]);
    }

  g_assert_true (tes_torq_parse_percent ("96.43%", 6, &pct));
  g_assert_cmpfloat (pct, ==, 96.43);
  g_assert_false (tes_torq_parse_percent ("-1%", 3, &pct));
  g_assert_false (tes_torq_parse_percent ("nan%", 4, &pct));
}

/* ------------------------------------------------------------------------
 * Compile-time timeline
 * ------------------------------------------------------------------------ */

static void
test_timeline_v1 (void)
{
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GArray) dma_in = NULL;
  g_autoptr(GArray) dma_out = NULL;
  g_autoptr(GArray) slices = NULL;
  g_autofree char *args = NULL;
  const TesTrack *process, *in, *out, *lane;
  const TesClock *clock;
  TesReportCounts counts;

  report = open_fixture ("timeline_v1.csv", "torq-timeline");
  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_tracks, ==, 4);
  g_assert_cmpint (counts.n_slices, ==, 11);
  g_assert_cmpint (counts.n_operators, ==, 0);
  tes_test_assert_info (report, "timeline.rows", "11");
  tes_test_assert_info (report, "timeline.end_cycle", "26289");
  tes_test_assert_info (report, "timeline.clock_mhz", "100");

  process = tes_test_find_track (report, NULL, "Compile-time timeline");
  g_assert_cmpint (process->kind, ==, TES_TRACK_PROCESS);
  clock = clock_of (report, process);
  g_assert_cmpint (clock->unit, ==, TES_TIME_UNIT_CYCLES);
  g_assert_cmpint (clock->ticks_per_second, ==, 100000000);

  in = tes_test_find_track (report, "Compile-time timeline", "DMA In");
  out = tes_test_find_track (report, "Compile-time timeline", "DMA Out");
  lane = tes_test_find_track (report, "Compile-time timeline", "Slices");
  g_assert_cmpint (in->sort_index, <, out->sort_index);
  g_assert_cmpint (out->sort_index, <, lane->sort_index);

  /* DI and DO share one index space: DI0 DI1 DI3 DI5 / DO2 DO4 DO6 */
  dma_in = slices_of (report, in);
  dma_out = slices_of (report, out);
  g_assert_cmpuint (dma_in->len, ==, 4);
  g_assert_cmpuint (dma_out->len, ==, 3);
  assert_slice (report, slice_at (dma_in, 0), "DMA_IN", "dma", 0, 1200);
  assert_slice (report, slice_at (dma_in, 3), "DMA_IN", "dma", 26178, 7);
  assert_slice (report, slice_at (dma_out, 0), "DMA_OUT", "dma", 9776, 2304);
  assert_slice (report, slice_at (dma_out, 2), "DMA_OUT", "dma", 26289, 0);   /* a 2-byte transfer */

  slices = slices_of (report, lane);
  g_assert_cmpuint (slices->len, ==, 4);
  assert_slice (report, slice_at (slices, 0), "conv2d", "slice", 1200, 5120);
  assert_slice (report, slice_at (slices, 1), "depthwise_conv2d", "slice", 6320, 3456);
  assert_slice (report, slice_at (slices, 2), "conv2d_avgpool2d", "slice", 14400, 11776);
  assert_slice (report, slice_at (slices, 3), "fully_connected", "slice", 26185, 104);

  /* the fused location, commas and all, is one field and is parsed */
  args = args_of (report, lane, slice_at (slices, 2));
  tes_test_assert_contains (args, "\"id\":\"S2\"");
  tes_test_assert_contains (args, "\"location\":\"loc(fused[\\\"models/person_detect_int8.tosa.mlir\\\":16:11, ");
  tes_test_assert_contains (args, "\"loc\":[{\"file\":\"models/person_detect_int8.tosa.mlir\",\"line\":16,\"col\":11},"
                         "{\"file\":\"models/person_detect_int8.tosa.mlir\",\"line\":17,\"col\":11},"
                         "{\"file\":\"models/person_detect_int8.tosa.mlir\",\"line\":18,\"col\":11},"
                         "{\"file\":\"models/person_detect_int8.tosa.mlir\",\"line\":19,\"col\":11}]");
}

static void
test_timeline_v2 (void)
{
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GArray) s0 = NULL;
  g_autoptr(GArray) cdma = NULL;
  g_autoptr(GArray) css = NULL;
  g_autoptr(GArray) in = NULL;
  g_autofree char *args = NULL;
  g_autofree char *unknown = NULL;
  static const char * const lanes[] = { "DMA In", "DMA Out", "CDMA", "Slice 0", "Slice 1", "CSS" };
  const TesTrack *lane;
  TesReportCounts counts;
  gint64 last_sort = G_MININT64;

  report = open_fixture ("timeline_v2.csv", "torq-timeline");
  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_tracks, ==, 7);
  g_assert_cmpint (counts.n_slices, ==, 12);
  tes_test_assert_info (report, "timeline.rows", "12");
  tes_test_assert_info (report, "timeline.tasks", "6");
  tes_test_assert_info (report, "timeline.end_cycle", "31081");
  tes_test_assert_info (report, "timeline.bytes.dma_in", "28268");
  tes_test_assert_info (report, "timeline.bytes.dma_out", "18448");
  tes_test_assert_info (report, "timeline.bytes.cdma", "8464");

  /* the lanes, in the shared order */
  for (guint i = 0; i < G_N_ELEMENTS (lanes); i++)
    {
      lane = tes_test_find_track (report, "Compile-time timeline", lanes[i]);
      g_assert_cmpint (lane->sort_index, >, last_sort);
      last_sort = lane->sort_index;
      g_assert_cmpint (clock_of (report, lane)->unit, ==, TES_TIME_UNIT_CYCLES);
    }

  /* elapsed_time(us) is the duration in cycles, timestamp(us) the start */
  in = slices_of (report, tes_test_find_track (report, "Compile-time timeline", "DMA In"));
  g_assert_cmpuint (in->len, ==, 3);
  assert_slice (report, slice_at (in, 0), "DMA In", "dma", 0, 1314);

  lane = tes_test_find_track (report, "Compile-time timeline", "Slice 0");
  s0 = slices_of (report, lane);
  g_assert_cmpuint (s0->len, ==, 2);
  assert_slice (report, slice_at (s0, 0), "Slice 0", "slice", 1314, 4608);
  assert_slice (report, slice_at (s0, 1), "Slice 0", "slice", 13860, 9216);
  args = args_of (report, lane, slice_at (s0, 1));
  tes_test_assert_contains (args, "\"task\":4");
  g_assert_null (strstr (args, "\"bytes\""));   /* the empty trailing field */
  tes_test_assert_contains (args, "{\"file\":\"models/person_detect_int8.tosa.mlir\",\"line\":18,\"col\":11}]");

  css = slices_of (report, tes_test_find_track (report, "Compile-time timeline", "CSS"));
  g_assert_cmpuint (css->len, ==, 1);
  assert_slice (report, slice_at (css, 0), "CSS", "css", 23076, 8000);

  lane = tes_test_find_track (report, "Compile-time timeline", "CDMA");
  cdma = slices_of (report, lane);
  g_assert_cmpuint (cdma->len, ==, 3);
  assert_slice (report, slice_at (cdma, 0), "CDMA LRAM to ITCM", "cdma", 11322, 480);
  assert_slice (report, slice_at (cdma, 2), "CDMA DTCM to LRAM", "cdma", 31076, 2);
  unknown = args_of (report, lane, slice_at (cdma, 0));
  g_assert_cmpstr (unknown, ==, "{\"task\":3,\"bytes\":6144,\"location\":\"loc(unknown)\",\"loc\":[]}");
}

/* ------------------------------------------------------------------------
 * Runtime
 * ------------------------------------------------------------------------ */

static void
test_runtime_v1 (void)
{
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GArray) slices = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *copy_args = NULL;
  g_autofree char *program_args = NULL;
  const TesTrack *host;
  TesReportCounts counts;

  report = open_fixture ("runtime_v1.csv", "torq-runtime");
  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_tracks, ==, 2);
  g_assert_cmpint (counts.n_slices, ==, 6);   /* action 5 (WaitHost) logs nothing */
  tes_test_assert_info (report, "runtime.events", "12");

  host = tes_test_find_track (report, "Host runtime", "Host");
  g_assert_cmpint (clock_of (report, host)->unit, ==, TES_TIME_UNIT_US);
  slices = slices_of (report, host);
  g_assert_cmpuint (slices->len, ==, 6);
  assert_slice (report, slice_at (slices, 0), "ALLOC", "ALLOC", 1893207114, 2);
  assert_slice (report, slice_at (slices, 1), "HOST_COPY", NULL, 1893207127, 1874);
  assert_slice (report, slice_at (slices, 2), "NSS_START", NULL, 1893209017, 61);   /* NSS_START ... NSS_START_END */
  assert_slice (report, slice_at (slices, 3), "NSS_WAIT", NULL, 1893209081, 48303);
  assert_slice (report, slice_at (slices, 4), "HOST_PROGRAM", NULL, 1893257406, 3517);
  assert_slice (report, slice_at (slices, 5), "DEALLOC", NULL, 1893260932, 0);
  g_assert_cmpint (slice_at (slices, 3)->depth, ==, 0);

  /* a NameLoc with ';' and ',' in it, unquoted */
  copy_args = args_of (report, host, slice_at (slices, 1));
  tes_test_assert_contains (copy_args, "\"action\":1");
  tes_test_assert_contains (copy_args, "\"loc\":[{\"name\":\"MobilenetV1/Logits/SpatialSqueeze;MobilenetV1/Logits/"
                              "Conv2d_1c_1x1/BiasAdd,MobilenetV1/Logits/Conv2d_1c_1x1/Conv2D\"}]");
  program_args = args_of (report, host, slice_at (slices, 4));
  tes_test_assert_contains (program_args, "{\"file\":\"models/person_detect_int8.tosa.mlir\",\"line\":29,\"col\":11}]");

  rows = tes_report_summarize (report, TES_SUMMARY_TOTAL, TES_GROUP_BY_NAME, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (((TesSummaryRow *)g_ptr_array_index (rows, 0))->label, ==, "NSS_WAIT");
  g_assert_cmpint (((TesSummaryRow *)g_ptr_array_index (rows, 0))->total, ==, 48303);
}

static void
test_runtime_v2 (void)
{
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GArray) slices = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *args = NULL;
  const TesTrack *host;
  const TesSlice *dispatch = NULL;
  const TesSlice *wait = NULL;
  TesReportCounts counts;
  const TesSummaryRow *row;

  report = open_fixture ("runtime_v2.csv", "torq-runtime");
  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_tracks, ==, 2);
  g_assert_cmpint (counts.n_slices, ==, 46);
  tes_test_assert_info (report, "runtime.events", "92");
  tes_test_assert_info (report, "runtime.actions", "16");
  tes_test_assert_info (report, "runtime.invocations", "7");
  tes_test_assert_info (report, "runtime.dispatch.0", "main_dispatch_0_conv_2d_nhwc_hwcf_1x48x48x8x3x3x1_i8xi8xi32");
  tes_test_assert_info (report, "runtime.dispatch.1", "main_dispatch_1_matmul_transpose_b_1x2x16_i8xi8xi32");

  /* one lane, nested: HAL_CALL > APPLY_DEFERRED > HAL_CALL > DISPATCH >
   * EXECUTE_ACTIONS > action */
  host = tes_test_find_track (report, "Host runtime", "Host");
  g_assert_cmpuint (host->max_depth, ==, 5);
  slices = slices_of (report, host);
  g_assert_cmpuint (slices->len, ==, 46);
  for (guint i = 0; i < slices->len; i++)
    {
      const TesSlice *s = slice_at (slices, i);
      const char *name = tes_report_get_string (report, s->name);

      if (g_str_equal (name, "DISPATCH main_dispatch_0_conv_2d_nhwc_hwcf_1x48x48x8x3x3x1_i8xi8xi32"))
        dispatch = s;
      if (g_str_equal (name, "NSS_WAIT") && s->start == 6093470862)
        wait = s;
    }
  g_assert_nonnull (dispatch);
  g_assert_nonnull (wait);
  assert_slice (report, dispatch, "DISPATCH main_dispatch_0_conv_2d_nhwc_hwcf_1x48x48x8x3x3x1_i8xi8xi32",
                "DISPATCH", 6093470641, 378);
  g_assert_cmpint (dispatch->depth, ==, 3);
  g_assert_cmpstr (tes_report_get_string (report, slice_at (slices, dispatch->parent)->name), ==,
                   "__HAL_COMMAND_BUFFER_DISPATCH__.HAL_CALL");
  assert_slice (report, wait, "NSS_WAIT", "NSS_WAIT", 6093470862, 141);
  g_assert_cmpint (wait->depth, ==, 5);
  args = args_of (report, host, wait);
  g_assert_cmpstr (args, ==, "{\"dispatch\":\"main_dispatch_0_conv_2d_nhwc_hwcf_1x48x48x8x3x3x1_i8xi8xi32\","
                             "\"invocation\":4,\"action\":6}");

  /* the summary groups by event type, on self time */
  rows = tes_report_summarize (report, TES_SUMMARY_TOTAL, TES_GROUP_BY_CATEGORY, &error);
  g_assert_no_error (error);
  row = g_ptr_array_index (rows, 0);
  g_assert_cmpstr (row->label, ==, "INIT_HW_OPEN");
  g_assert_cmpint (row->total, ==, 1734 + 1102);
  g_assert_cmpint (row->count, ==, 2);
  row = tes_test_find_summary_row (rows, "NSS_WAIT");
  g_assert_cmpint (row->total, ==, 98 + 141 + 24);
  g_assert_cmpint (row->count, ==, 3);
}

/* ------------------------------------------------------------------------
 * Annotated CSV
 * ------------------------------------------------------------------------ */

static void
test_annotated (void)
{
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GArray) actions = NULL;
  g_autoptr(GArray) hal = NULL;
  g_autofree char *pad_args = NULL;
  g_autofree char *copy_args = NULL;
  static const struct { const char *lane; guint n; } used[] = {
    { "DMA In Used", 6 }, { "DMA Out Used", 6 }, { "CDMA Used", 2 },
    { "Slice 0 Used", 6 }, { "Slice 1 Used", 2 }, { "CSS Used", 2 },
  };
  const TesTrack *lane;
  const TesSlice *copy = NULL;
  TesReportCounts counts;

  report = open_fixture ("annotated_runtime.csv", "torq-annotated");
  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_tracks, ==, 9);
  g_assert_cmpint (counts.n_slices, ==, 45);
  tes_test_assert_info (report, "annotated.rows", "37");
  tes_test_assert_info (report, "annotated.timed_rows", "21");
  tes_test_assert_info (report, "annotated.untimed_rows", "16");
  tes_test_assert_info (report, "annotated.hal_rows", "5");
  tes_test_assert_info (report, "annotated.invocations", "4");

  for (guint i = 0; i < G_N_ELEMENTS (used); i++)
    {
      g_autoptr(GArray) slices = NULL;

      lane = tes_test_find_track (report, "Annotated runtime", used[i].lane);
      slices = slices_of (report, lane);
      g_assert_cmpuint (slices->len, ==, used[i].n);
    }
  {
    g_autoptr(GArray) css = slices_of (report, tes_test_find_track (report, "Annotated runtime", "CSS Used"));

    assert_slice (report, slice_at (css, 0), "conv2d_2", "CSS Used", 6093470852, 9);
    assert_slice (report, slice_at (css, 1), "conv2d_2", "CSS Used", 6093470862, 141);
  }

  /* actions are named by their original operators */
  lane = tes_test_find_track (report, "Annotated runtime", "Actions");
  actions = slices_of (report, lane);
  g_assert_cmpuint (actions->len, ==, 16);
  assert_slice (report, slice_at (actions, 2), "tosa.pad@L9", "torq_hl.host_copy", 6093470695, 41);
  assert_slice (report, slice_at (actions, 3),
                "tosa.conv2d@L10 tosa.rescale@L11 tosa.clamp@L12 tosa.depthwise_conv2d@L13 tosa.rescale@L14 tosa.clamp@L15",
                "torq_hl.start_program", 6093470739, 12);
  pad_args = args_of (report, lane, slice_at (actions, 2));
  g_assert_cmpstr (pad_args, ==,
                   "{\"block\":3,\"action\":2,\"operation\":\"torq_hl.host_copy\","
                   "\"original_operators\":[{\"op\":\"tosa.pad\",\"line\":9}],\"total_time_us\":41.0,"
                   "\"location\":\"@L9C10\",\"loc\":[{\"line\":9,\"col\":10}]}");
  for (guint i = 0; i < actions->len; i++)
    if (slice_at (actions, i)->start == 6093471050)
      copy = slice_at (actions, i);
  g_assert_nonnull (copy);
  assert_slice (report, copy, "torq_hl.host_copy", "torq_hl.host_copy", 6093471050, 19);
  /* the quoted location with ';' and ',' */
  copy_args = args_of (report, lane, copy);
  tes_test_assert_contains (copy_args, "\"loc\":[{\"name\":\"MobilenetV1/Logits/SpatialSqueeze;MobilenetV1/Logits/"
                              "Conv2d_1c_1x1/BiasAdd,MobilenetV1/Logits/Conv2d_1c_1x1/Conv2D\"}]");

  hal = slices_of (report, tes_test_find_track (report, "Annotated runtime", "HAL"));
  g_assert_cmpuint (hal->len, ==, 5);
  assert_slice (report, slice_at (hal, 0), "HAL_QUEUE_WAIT", "__HAL_QUEUE_EXECUTE__.HAL_QUEUE_WAIT", 6093470617, 3);
  assert_slice (report, slice_at (hal, 1), "HAL_QUEUE_APPLY_DEFERRED", NULL, 6093470621, 717);
  g_assert_cmpint (slice_at (hal, 2)->depth, ==, 1);   /* the command buffer dispatches nest */
}

/* ------------------------------------------------------------------------
 * Perfetto
 * ------------------------------------------------------------------------ */

typedef struct
{
  gint64  track_uuid;
  char   *name;
  char   *category;
  gint64  start;
  gint64  end;
} ExpectedSlice;

static void
expected_slice_free (gpointer data)
{
  ExpectedSlice *s = data;

  g_free (s->name);
  g_free (s->category);
  g_free (s);
}

static int
compare_expected (gconstpointer a,
                  gconstpointer b)
{
  const ExpectedSlice *sa = *(ExpectedSlice * const *)a;
  const ExpectedSlice *sb = *(ExpectedSlice * const *)b;
  int c;

  if (sa->track_uuid != sb->track_uuid)
    return sa->track_uuid < sb->track_uuid ? -1 : 1;
  if (sa->start != sb->start)
    return sa->start < sb->start ? -1 : 1;
  if (sa->end != sb->end)
    return sa->end < sb->end ? -1 : 1;
  if ((c = strcmp (sa->name, sb->name)) != 0)
    return c;
  return g_strcmp0 (sa->category, sb->category);
}

static ExpectedSlice *
expected_slice_new (gint64      track_uuid,
                    const char *name,
                    const char *category,
                    gint64      start,
                    gint64      end)
{
  ExpectedSlice *e = g_new0 (ExpectedSlice, 1);

  e->track_uuid = track_uuid;
  e->name = g_strdup (name);
  e->category = g_strdup (category);
  e->start = start;
  e->end = end;
  return e;
}

/* Every slice of the tracks in track_of_uuid (uuid -> TesTrack), none of
 * them unclosed. */
static GPtrArray *
report_slices (TesReport  *report,
               GHashTable *track_of_uuid)
{
  GPtrArray *got = g_ptr_array_new_with_free_func (expected_slice_free);
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, track_of_uuid);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      g_autoptr(GArray) list = slices_of (report, value);

      for (guint i = 0; i < list->len; i++)
        {
          const TesSlice *s = slice_at (list, i);

          g_assert_cmpint (s->flags, ==, 0);
          g_ptr_array_add (got, expected_slice_new (*(gint64 *)key, tes_report_get_string (report, s->name),
                                                    s->category ? tes_report_get_string (report, s->category) : NULL,
                                                    s->start, s->start + s->dur));
        }
    }

  return got;
}

/* The same slices, in any order. */
static void
assert_same_slices (GPtrArray *got,
                    GPtrArray *expected)
{
  g_ptr_array_sort (expected, compare_expected);
  g_ptr_array_sort (got, compare_expected);
  g_assert_cmpuint (got->len, ==, expected->len);
  for (guint i = 0; i < got->len; i++)
    if (compare_expected (&got->pdata[i], &expected->pdata[i]) != 0)
      {
        const ExpectedSlice *g = got->pdata[i];
        const ExpectedSlice *e = expected->pdata[i];

        g_error ("slice %u: got %" G_GINT64_FORMAT " '%s' %" G_GINT64_FORMAT "..%" G_GINT64_FORMAT
                 ", expected %" G_GINT64_FORMAT " '%s' %" G_GINT64_FORMAT "..%" G_GINT64_FORMAT,
                 i, g->track_uuid, g->name, g->start, g->end, e->track_uuid, e->name, e->start, e->end);
      }
}

static void
test_perfetto (void)
{
  g_autoptr(TesReport) report = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) expected = g_ptr_array_new_with_free_func (expected_slice_free);
  g_autoptr(GPtrArray) got = NULL;
  g_autoptr(GHashTable) track_of_uuid = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  static const MetricRow metrics[] = {
    { "HAL total", 99.86, 726000 }, { "DMA total", 40.44, 294000 }, { "IDLE", 0.14, 1000 },
    { "DMA/CDMA ONLY (no compute)", 0.0, 0 },
  };
  g_autofree char *json_path = tes_test_shared_path ("fixtures/torq/host_trace.expected.json");
  g_autofree char *copy_args = NULL;
  JsonObject *root;
  JsonArray *tracks;
  JsonArray *slices;
  TesReportCounts counts;
  const TesTrack *copy_track;

  report = open_fixture ("host_trace.pb", "torq-perfetto");
  json_parser_load_from_file (parser, json_path, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  tracks = json_object_get_array_member (root, "tracks");
  slices = json_object_get_array_member (root, "slices");

  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_tracks, ==, json_array_get_length (tracks));
  g_assert_cmpint (counts.n_tracks, ==, 62);
  g_assert_cmpint (counts.n_slices, ==, json_array_get_length (slices));
  g_assert_cmpint (counts.n_slices, ==, 90);
  tes_test_assert_info (report, "trace.packets", "242");
  tes_test_assert_info (report, "trace.track_descriptors", "62");
  tes_test_assert_info (report, "trace.track_events", "180");
  tes_test_assert_info (report, "trace.sequences", "1");

  /* every track descriptor, in packet order: name and parent */
  for (guint i = 0; i < json_array_get_length (tracks); i++)
    {
      JsonObject *t = json_array_get_object_element (tracks, i);
      const TesTrack *track = tes_report_get_track (report, i + 1);
      JsonNode *parent = json_object_get_member (t, "parent_uuid");
      gint64 *uuid = g_new (gint64, 1);

      *uuid = json_object_get_int_member (t, "uuid");
      g_hash_table_insert (track_of_uuid, uuid, (gpointer)track);
      g_assert_nonnull (track);
      g_assert_cmpstr (track->name, ==, json_object_get_string_member (t, "name"));
      g_assert_cmpint (clock_of (report, track)->unit, ==, TES_TIME_UNIT_NS);
      if (JSON_NODE_HOLDS_NULL (parent))
        {
          g_assert_cmpint (track->parent_id, ==, 0);
          g_assert_cmpint (track->kind, ==, TES_TRACK_PROCESS);
        }
      else
        {
          gint64 parent_uuid = json_node_get_int (parent);
          const TesTrack *up = g_hash_table_lookup (track_of_uuid, &parent_uuid);

          g_assert_nonnull (up);
          g_assert_cmpint (track->parent_id, ==, up->id);
        }
    }

  /* every slice: track, name, category, start and end in ns */
  for (guint i = 0; i < json_array_get_length (slices); i++)
    {
      JsonObject *s = json_array_get_object_element (slices, i);
      JsonNode *cat = json_object_get_member (s, "category");

      g_ptr_array_add (expected, expected_slice_new (json_object_get_int_member (s, "track_uuid"),
                                                     json_object_get_string_member (s, "name"),
                                                     JSON_NODE_HOLDS_NULL (cat) ? NULL : json_node_get_string (cat),
                                                     json_object_get_int_member (s, "start_ns"),
                                                     json_object_get_int_member (s, "end_ns")));
    }
  got = report_slices (report, track_of_uuid);
  assert_same_slices (got, expected);

  /* source locations in the slice names */
  copy_track = tes_test_find_track (report, "Host", "Host Copy");
  {
    g_autoptr(GArray) copies = slices_of (report, copy_track);

    assert_slice (report, slice_at (copies, 0), "Host Copy | @L9C10", NULL, 6093470695000, 41000);
    copy_args = args_of (report, copy_track, slice_at (copies, 0));
    g_assert_cmpstr (copy_args, ==, "{\"loc\":[{\"line\":9,\"col\":10}]}");
  }

  /* the overview metrics: operators with the printed shares */
  g_assert_cmpint (counts.n_operators, ==, 15);
  tes_test_assert_info (report, "trace.overview.overall", "727.000\xc2\xb5s");
  assert_summary (report, 15, metrics, G_N_ELEMENTS (metrics), FALSE);
}

/* ------------------------------------------------------------------------
 * Host Profile Overview
 * ------------------------------------------------------------------------ */

/* The overview gives operators only: every metric with a percentage, by
 * share, the file's order kept among equal shares (a stable sort); and
 * the info rows. */
static void
check_overview (TesTestData        data,
                const TesTestInfo *info,
                guint              n_info,
                const MetricRow   *metrics,
                guint              n_metrics)
{
  g_autoptr(TesReport) report = open_file (data, "host_profile_overview.txt", "torq-host-overview");
  TesReportCounts counts;

  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_operators, ==, n_metrics);
  g_assert_cmpint (counts.n_slices, ==, 0);
  tes_test_assert_info_rows (report, info, n_info);
  assert_summary (report, n_metrics, metrics, n_metrics, TRUE);
}

static void
test_host_overview (void)
{
  static const TesTestInfo info[] = {
    { "overview.model", "conv2d_f4_s4_64x64x16_i16" },
    { "overview.wall_time", "207.000ms" },
    { "overview.overall", "12.845ms" },
  };
  static const MetricRow vendor[] = {
    { "Host Copy", 96.43, 12386000 }, { "Dma", 3.53, 453000 }, { "Dma Total", 3.53, 453000 },
    { "Compute", 3.17, 407000 }, { "Slice", 3.17, 407000 }, { "Slice 0", 3.17, 407000 },
    { "Slice 1", 3.17, 407000 }, { "Overlap", 3.17, 407000 }, { "Dma Only", 0.36, 46000 },
    { "Idle", 0.05, 6000 }, { "Cdma", 0.0, 0 }, { "Compute Only", 0.0, 0 }, { "Css", 0.0, 0 },
    { "Host", 0.0, 0 },
  };

  check_overview (TES_TEST_SHARED_DATA, info, G_N_ELEMENTS (info), vendor, G_N_ELEMENTS (vendor));
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

/* ------------------------------------------------------------------------
 * Our own files: tests/data/torq, and a Perfetto trace encoded here
 *
 * One made-up run of a small model (models/tiny.mlir): two dispatches on
 * the host from 5 000 000 µs, the first's host copy at 5 000 070 µs for
 * 30 µs in the runtime CSV, the annotated CSV and the trace; its task 0
 * DMA in takes 1000 cycles in timeline_v2.csv, 10 µs at 100 MHz, as the
 * trace's "Nss Cfg | Task: 0". The values below are worked out by hand
 * from those files.
 * ------------------------------------------------------------------------ */

static void
test_timeline_v1_own (void)
{
  static const LaneSlice dma_in[] = {
    { "DMA_IN", "dma", 0, 1000 }, { "DMA_IN", "dma", 4000, 200 }, { "DMA_IN", "dma", 6002, 8 },
  };
  static const LaneSlice dma_out[] = { { "DMA_OUT", "dma", 4000, 500 }, { "DMA_OUT", "dma", 6000, 2 } };
  static const LaneSlice ops[] = { { "conv2d", "slice", 1000, 3000 }, { "depthwise_conv2d", "slice", 4200, 1800 } };
  /* S5 starts while S4 runs: a second lane, since v1 does not say which
   * slice ran it */
  static const LaneSlice more[] = { { "add", "slice", 5000, 600 } };
  g_autoptr(TesReport) report = open_file (TES_TEST_OWN_DATA, "timeline_v1.csv", "torq-timeline");
  g_autoptr(GArray) lane_slices = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *fused = NULL;
  g_autofree char *named = NULL;
  const TesTrack *process, *in, *out, *lane, *lane2;
  const TesClock *clock;
  TesReportCounts counts;

  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_tracks, ==, 5);
  g_assert_cmpint (counts.n_slices, ==, 8);
  g_assert_cmpint (counts.n_operators, ==, 0);
  tes_test_assert_info (report, "timeline.layout", "v1: ID, Start, End, Location, Op Type (cycles, no header)");
  tes_test_assert_info (report, "timeline.rows", "8");
  tes_test_assert_info (report, "timeline.end_cycle", "6010");
  tes_test_assert_info (report, "timeline.clock_mhz", "100");
  tes_test_assert_info (report, "timeline.tasks", NULL);

  process = tes_test_find_track (report, NULL, "Compile-time timeline");
  g_assert_cmpint (process->kind, ==, TES_TRACK_PROCESS);
  clock = clock_of (report, process);
  g_assert_cmpint (clock->unit, ==, TES_TIME_UNIT_CYCLES);
  g_assert_cmpint (clock->ticks_per_second, ==, 100000000);

  /* DI and DO share one index space: DI0 DI3 DI7 / DO2 DO6 */
  in = assert_lane (report, "Compile-time timeline", "DMA In", dma_in, G_N_ELEMENTS (dma_in));
  out = assert_lane (report, "Compile-time timeline", "DMA Out", dma_out, G_N_ELEMENTS (dma_out));
  lane = assert_lane (report, "Compile-time timeline", "Slices", ops, G_N_ELEMENTS (ops));
  lane2 = assert_lane (report, "Compile-time timeline", "Slices #2", more, G_N_ELEMENTS (more));
  g_assert_cmpint (in->sort_index, <, out->sort_index);
  g_assert_cmpint (out->sort_index, <, lane->sort_index);
  g_assert_cmpint (lane->sort_index, <, lane2->sort_index);

  /* the fused location, with its comma, is one field, and is parsed */
  lane_slices = slices_of (report, lane);
  fused = args_of (report, lane, slice_at (lane_slices, 1));
  g_assert_cmpstr (fused, ==,
                   "{\"id\":\"S4\",\"location\":\"loc(fused[\\\"models/tiny.mlir\\\":5:7, \\\"models/tiny.mlir\\\":6:7])\","
                   "\"loc\":[{\"file\":\"models/tiny.mlir\",\"line\":5,\"col\":7},"
                   "{\"file\":\"models/tiny.mlir\",\"line\":6,\"col\":7}]}");
  g_clear_pointer (&lane_slices, g_array_unref);
  lane_slices = slices_of (report, lane2);
  named = args_of (report, lane2, slice_at (lane_slices, 0));
  tes_test_assert_contains (named, "\"loc\":[{\"name\":\"add\",\"file\":\"models/tiny.mlir\",\"line\":7,\"col\":9}]");

  /* the summary: time by category, 3000 + 1800 + 600 and 1000 + 200 + 8 + 500 + 2 */
  rows = tes_report_summarize (report, TES_SUMMARY_TOTAL, TES_GROUP_BY_CATEGORY, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, 2);
  g_assert_cmpstr (((TesSummaryRow *)g_ptr_array_index (rows, 0))->label, ==, "slice");
  g_assert_cmpint (tes_test_find_summary_row (rows, "slice")->total, ==, 5400);
  g_assert_cmpint (tes_test_find_summary_row (rows, "slice")->count, ==, 3);
  g_assert_cmpint (tes_test_find_summary_row (rows, "dma")->total, ==, 1710);
  g_assert_cmpint (tes_test_find_summary_row (rows, "dma")->count, ==, 5);
}

static void
test_timeline_v2_own (void)
{
  static const LaneSlice dma_in[] = { { "DMA In", "dma", 0, 1000 }, { "DMA In", "dma", 4100, 200 } };
  static const LaneSlice dma_out[] = { { "DMA Out", "dma", 4000, 500 } };
  static const LaneSlice cdma[] = { { "CDMA LRAM to ITCM", "cdma", 900, 300 }, { "CDMA DTCM to LRAM", "cdma", 6200, 2 } };
  static const LaneSlice slice0[] = { { "Slice 0", "slice", 1000, 3000 } };
  static const LaneSlice slice1[] = { { "Slice 1", "slice", 4300, 1500 } };
  static const LaneSlice css[] = { { "CSS", "css", 5800, 400 } };
  /* the lanes, in the shared order */
  static const struct { const char *name; const LaneSlice *slices; guint n; } lanes[] = {
    { "DMA In", dma_in, G_N_ELEMENTS (dma_in) }, { "DMA Out", dma_out, G_N_ELEMENTS (dma_out) },
    { "CDMA", cdma, G_N_ELEMENTS (cdma) }, { "Slice 0", slice0, G_N_ELEMENTS (slice0) },
    { "Slice 1", slice1, G_N_ELEMENTS (slice1) }, { "CSS", css, G_N_ELEMENTS (css) },
  };
  g_autoptr(TesReport) report = open_file (TES_TEST_OWN_DATA, "timeline_v2.csv", "torq-timeline");
  g_autofree char *args = NULL;
  g_autofree char *unknown = NULL;
  gint64 last_sort = G_MININT64;
  TesReportCounts counts;

  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_tracks, ==, 1 + 6);
  g_assert_cmpint (counts.n_slices, ==, 8);
  tes_test_assert_info (report, "timeline.rows", "8");
  tes_test_assert_info (report, "timeline.tasks", "4");
  /* the latest end: the last CDMA, 6200 + 2 */
  tes_test_assert_info (report, "timeline.end_cycle", "6202");
  tes_test_assert_info (report, "timeline.bytes.dma_in", "4608");
  tes_test_assert_info (report, "timeline.bytes.dma_out", "1024");
  tes_test_assert_info (report, "timeline.bytes.cdma", "2064");

  /* elapsed_time(us) is the duration in cycles, timestamp(us) the start */
  for (guint i = 0; i < G_N_ELEMENTS (lanes); i++)
    {
      const TesTrack *lane = assert_lane (report, "Compile-time timeline", lanes[i].name, lanes[i].slices, lanes[i].n);

      g_assert_cmpint (lane->sort_index, >, last_sort);
      last_sort = lane->sort_index;
      g_assert_cmpint (clock_of (report, lane)->unit, ==, TES_TIME_UNIT_CYCLES);
    }

  {
    const TesTrack *lane = tes_test_find_track (report, "Compile-time timeline", "Slice 1");
    g_autoptr(GArray) slices = slices_of (report, lane);

    /* the empty trailing bytes field gives no "bytes" */
    args = args_of (report, lane, slice_at (slices, 0));
    g_assert_cmpstr (args, ==,
                     "{\"task\":2,\"location\":\"loc(fused[\\\"models/tiny.mlir\\\":5:7, \\\"models/tiny.mlir\\\":6:7])\","
                     "\"loc\":[{\"file\":\"models/tiny.mlir\",\"line\":5,\"col\":7},"
                     "{\"file\":\"models/tiny.mlir\",\"line\":6,\"col\":7}]}");
  }
  {
    const TesTrack *lane = tes_test_find_track (report, "Compile-time timeline", "CDMA");
    g_autoptr(GArray) slices = slices_of (report, lane);

    unknown = args_of (report, lane, slice_at (slices, 0));
    g_assert_cmpstr (unknown, ==, "{\"task\":1,\"bytes\":2048,\"location\":\"loc(unknown)\",\"loc\":[]}");
  }
}

static void
test_runtime_v1_own (void)
{
  /* v1 pairs <TYPE>_START (or <TYPE>, as NSS_START ... NSS_START_END) with
   * <TYPE>_END of the same action */
  static const LaneSlice host[] = {
    { "ALLOC", "ALLOC", 2000000, 2 }, { "HOST_COPY", "HOST_COPY", 2000010, 150 },
    { "NSS_START", "NSS_START", 2000165, 20 }, { "NSS_WAIT", "NSS_WAIT", 2000186, 700 },
    { "HOST_PROGRAM", "HOST_PROGRAM", 2000890, 60 }, { "DEALLOC", "DEALLOC", 2000953, 0 },
  };
  g_autoptr(TesReport) report = open_file (TES_TEST_OWN_DATA, "runtime_v1.csv", "torq-runtime");
  g_autoptr(GArray) slices = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *copy_args = NULL;
  g_autofree char *wait_args = NULL;
  const TesTrack *lane;
  TesReportCounts counts;

  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_tracks, ==, 2);
  g_assert_cmpint (counts.n_slices, ==, 6);
  tes_test_assert_info (report, "runtime.events", "12");
  tes_test_assert_info (report, "runtime.spans", "6");
  tes_test_assert_info (report, "runtime.actions", "6");
  tes_test_assert_info (report, "runtime.invocations", NULL);

  lane = assert_lane (report, "Host runtime", "Host", host, G_N_ELEMENTS (host));
  g_assert_cmpint (clock_of (report, lane)->unit, ==, TES_TIME_UNIT_US);
  g_assert_cmpuint (lane->max_depth, ==, 0);

  /* a NameLoc with ';' and ',' in it, in an unquoted CSV field */
  slices = slices_of (report, lane);
  copy_args = args_of (report, lane, slice_at (slices, 1));
  tes_test_assert_contains (copy_args, "\"action\":1");
  tes_test_assert_contains (copy_args, "\"loc\":[{\"name\":\"tiny/logits;tiny/dense/BiasAdd,tiny/dense/MatMul\"}]");
  wait_args = args_of (report, lane, slice_at (slices, 3));
  tes_test_assert_contains (wait_args, "\"loc\":[{\"file\":\"models/tiny.mlir\",\"line\":4,\"col\":5},"
                                       "{\"file\":\"models/tiny.mlir\",\"line\":5,\"col\":7}]");

  rows = tes_report_summarize (report, TES_SUMMARY_TOTAL, TES_GROUP_BY_NAME, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (((TesSummaryRow *)g_ptr_array_index (rows, 0))->label, ==, "NSS_WAIT");
  g_assert_cmpint (((TesSummaryRow *)g_ptr_array_index (rows, 0))->total, ==, 700);
}

static void
test_runtime_v2_own (void)
{
  /* one lane, nested by time: HAL_CALL > DISPATCH > action */
  static const LaneSlice host[] = {
    { "INIT tiny_dispatch_0", "INIT", 5000000, 40 },
    { "INIT_HW_OPEN", "INIT_HW_OPEN", 5000001, 30 },
    { "__HAL_QUEUE_EXECUTE__.HAL_CALL", "HAL_CALL", 5000050, 260 },
    { "DISPATCH tiny_dispatch_0", "DISPATCH", 5000060, 240 },
    { "ALLOC", "ALLOC", 5000061, 2 },
    { "HOST_COPY", "HOST_COPY", 5000070, 30 },
    { "NSS_START", "NSS_START", 5000100, 10 },
    { "NSS_WAIT", "NSS_WAIT", 5000110, 180 },
    { "__HAL_QUEUE_EXECUTE__.HAL_CALL", "HAL_CALL", 5000400, 95 },
    { "DISPATCH tiny_dispatch_1", "DISPATCH", 5000405, 85 },
    { "NSS_START", "NSS_START", 5000410, 5 },
    { "NSS_WAIT", "NSS_WAIT", 5000415, 40 },
    { "HOST_COPY", "HOST_COPY", 5000460, 20 },
  };
  /* self time by event type: a HAL call less its dispatch, a dispatch
   * less its actions */
  static const struct { const char *type; gint64 total; gint64 count; } self[] = {
    { "NSS_WAIT", 180 + 40, 2 }, { "HOST_COPY", 30 + 20, 2 },
    { "DISPATCH", (240 - 2 - 30 - 10 - 180) + (85 - 5 - 40 - 20), 2 },
    { "HAL_CALL", (260 - 240) + (95 - 85), 2 }, { "INIT_HW_OPEN", 30, 1 }, { "NSS_START", 10 + 5, 2 },
    { "INIT", 40 - 30, 1 }, { "ALLOC", 2, 1 },
  };
  g_autoptr(TesReport) report = open_file (TES_TEST_OWN_DATA, "runtime_v2.csv", "torq-runtime");
  g_autoptr(GArray) slices = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *args = NULL;
  const TesTrack *lane;
  const TesSlice *wait;
  TesReportCounts counts;

  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_tracks, ==, 2);
  g_assert_cmpint (counts.n_slices, ==, 13);
  tes_test_assert_info (report, "runtime.events", "26");
  tes_test_assert_info (report, "runtime.spans", "13");
  tes_test_assert_info (report, "runtime.actions", "7");
  /* (dispatch, invocation): tiny_dispatch_0 0 and 2, tiny_dispatch_1 5,
   * the HAL queue's 1 and 4 */
  tes_test_assert_info (report, "runtime.invocations", "5");
  tes_test_assert_info (report, "runtime.dispatch.0", "tiny_dispatch_0");
  tes_test_assert_info (report, "runtime.dispatch.1", "tiny_dispatch_1");
  tes_test_assert_info (report, "runtime.dispatch.2", NULL);

  lane = assert_lane (report, "Host runtime", "Host", host, G_N_ELEMENTS (host));
  g_assert_cmpuint (lane->max_depth, ==, 2);
  slices = slices_of (report, lane);
  wait = slice_at (slices, 7);
  g_assert_cmpint (wait->depth, ==, 2);
  g_assert_cmpstr (tes_report_get_string (report, slice_at (slices, wait->parent)->name), ==,
                   "DISPATCH tiny_dispatch_0");
  args = args_of (report, lane, wait);
  g_assert_cmpstr (args, ==, "{\"dispatch\":\"tiny_dispatch_0\",\"invocation\":2,\"action\":3}");

  rows = tes_report_summarize (report, TES_SUMMARY_TOTAL, TES_GROUP_BY_CATEGORY, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, G_N_ELEMENTS (self));
  g_assert_cmpstr (((TesSummaryRow *)g_ptr_array_index (rows, 0))->label, ==, "NSS_WAIT");
  for (guint i = 0; i < G_N_ELEMENTS (self); i++)
    {
      const TesSummaryRow *row = tes_test_find_summary_row (rows, self[i].type);

      g_assert_cmpint (row->total, ==, self[i].total);
      g_assert_cmpint (row->count, ==, self[i].count);
    }
}

static void
test_annotated_own (void)
{
  /* timed actions, named by their original operators, else the operation */
  static const LaneSlice actions[] = {
    { "memref.alloc", "memref.alloc", 5000061, 2 },
    { "tosa.pad@L9", "torq_hl.host_copy", 5000070, 30 },
    { "tosa.conv2d@L10 tosa.depthwise_conv2d@L13", "torq_hl.start_program", 5000100, 10 },
    { "torq_hl.wait_program", "torq_hl.wait_program", 5000110, 180 },
    { "tosa.matmul@L20", "torq_hl.start_program", 5000410, 5 },
    { "torq_hl.wait_program", "torq_hl.wait_program", 5000415, 40 },
    { "torq_hl.host_copy", "torq_hl.host_copy", 5000460, 20 },
  };
  /* HAL rows: named by the event in their location column */
  static const LaneSlice hal[] = {
    { "HAL_QUEUE_WAIT", "__HAL_QUEUE_EXECUTE__.HAL_QUEUE_WAIT", 5000045, 3 },
    { "HAL_CALL", "__HAL_QUEUE_EXECUTE__.HAL_CALL", 5000050, 260 },
    { "HAL_COMMAND_BUFFER_DISPATCH", "__HAL_COMMAND_BUFFER_DISPATCH__.HAL_CALL", 5000060, 240 },
  };
  /* the rows with slice_used_0_in_program True, named by their invocations */
  static const LaneSlice slice0[] = {
    { "conv2d_0,depthwise_conv2d_1", "Slice 0 Used", 5000100, 10 },
    { "torq_hl.wait_program", "Slice 0 Used", 5000110, 180 },
    { "matmul_0", "Slice 0 Used", 5000410, 5 },
  };
  static const LaneSlice css[] = { { "torq_hl.wait_program", "CSS Used", 5000110, 180 } };
  static const struct { const char *lane; guint n; } used[] = {
    { "DMA In Used", 2 }, { "DMA Out Used", 2 }, { "CDMA Used", 1 }, { "Slice 1 Used", 2 },
  };
  g_autoptr(TesReport) report = open_file (TES_TEST_OWN_DATA, "annotated_runtime.csv", "torq-annotated");
  g_autoptr(GArray) rows = NULL;
  g_autoptr(GArray) hal_rows = NULL;
  g_autofree char *pad_args = NULL;
  g_autofree char *start_args = NULL;
  g_autofree char *copy_args = NULL;
  const TesTrack *lane;
  TesReportCounts counts;

  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_tracks, ==, 1 + 2 + 6);
  g_assert_cmpint (counts.n_slices, ==, 7 + 3 + 3 + 1 + 2 + 2 + 1 + 2);
  tes_test_assert_info (report, "annotated.rows", "12");
  tes_test_assert_info (report, "annotated.timed_rows", "10");
  tes_test_assert_info (report, "annotated.untimed_rows", "2");
  tes_test_assert_info (report, "annotated.hal_rows", "3");
  /* action ids restart twice: INIT, dispatch 0, dispatch 1 */
  tes_test_assert_info (report, "annotated.invocations", "3");

  lane = assert_lane (report, "Annotated runtime", "Actions", actions, G_N_ELEMENTS (actions));
  g_assert_cmpint (clock_of (report, lane)->unit, ==, TES_TIME_UNIT_US);
  assert_lane (report, "Annotated runtime", "Slice 0 Used", slice0, G_N_ELEMENTS (slice0));
  assert_lane (report, "Annotated runtime", "CSS Used", css, G_N_ELEMENTS (css));
  for (guint i = 0; i < G_N_ELEMENTS (used); i++)
    {
      g_autoptr(GArray) slices = slices_of (report, tes_test_find_track (report, "Annotated runtime", used[i].lane));

      g_assert_cmpuint (slices->len, ==, used[i].n);
    }

  rows = slices_of (report, lane);
  pad_args = args_of (report, lane, slice_at (rows, 1));
  g_assert_cmpstr (pad_args, ==,
                   "{\"block\":2,\"action\":1,\"operation\":\"torq_hl.host_copy\","
                   "\"original_operators\":[{\"op\":\"tosa.pad\",\"line\":9}],\"total_time_us\":30.0,"
                   "\"location\":\"@L9C10\",\"loc\":[{\"line\":9,\"col\":10}]}");
  start_args = args_of (report, lane, slice_at (rows, 2));
  tes_test_assert_contains (start_args, "\"job\":0");
  tes_test_assert_contains (start_args, "\"invocation_names\":[\"conv2d_0\",\"depthwise_conv2d_1\"]");
  tes_test_assert_contains (start_args, "\"original_operators\":[{\"op\":\"tosa.conv2d\",\"line\":10},"
                                        "{\"op\":\"tosa.depthwise_conv2d\",\"line\":13}]");
  tes_test_assert_contains (start_args, "\"slice_used_1_in_program\":true,\"dma_in_used_in_program\":true,"
                                        "\"dma_out_used_in_program\":false");
  tes_test_assert_contains (start_args, "\"loc\":[{\"line\":10,\"col\":10},{\"line\":13,\"col\":10}]");
  /* the quoted location with ';' and ',' */
  copy_args = args_of (report, lane, slice_at (rows, 6));
  tes_test_assert_contains (copy_args, "\"block\":3,\"action\":2,");
  tes_test_assert_contains (copy_args, "\"loc\":[{\"name\":\"tiny/logits;tiny/dense/BiasAdd,tiny/dense/MatMul\"}]");

  lane = assert_lane (report, "Annotated runtime", "HAL", hal, G_N_ELEMENTS (hal));
  hal_rows = slices_of (report, lane);
  g_assert_cmpint (slice_at (hal_rows, 2)->depth, ==, 1);   /* the command buffer dispatch nests */
}

static void
test_host_overview_own (void)
{
  static const TesTestInfo info[] = {
    { "overview.model", "tiny_conv_i8" },
    { "overview.wall_time", "1.500s" },
    { "overview.overall", "2.000ms" },
  };
  /* "Css 6.000us": the ASCII spelling of µs */
  static const MetricRow metrics[] = {
    { "Compute", 60.0, 1200000 }, { "Slice 0", 60.0, 1200000 }, { "Dma", 25.0, 500000 },
    { "Slice 1", 20.0, 400000 }, { "Overlap", 20.0, 400000 }, { "Idle", 15.0, 300000 },
    { "Host Copy", 7.5, 150000 }, { "Dma Only", 5.0, 100000 }, { "Css", 0.3, 6000 }, { "Cdma", 0.0, 0 },
  };

  check_overview (TES_TEST_OWN_DATA, info, G_N_ELEMENTS (info), metrics, G_N_ELEMENTS (metrics));
}

/* The trace: tracks and slices in tables, encoded as Perfetto packets
 * (TrackDescriptor, TrackEvent BEGIN/END/INSTANT) with protobuf-c, so that
 * what the importer must find is known by construction. */

typedef struct
{
  guint64     uuid;
  guint64     parent_uuid;   /* 0: a top-level (process) track */
  const char *name;
} OwnTrack;

typedef struct
{
  guint64     track_uuid;
  const char *name;
  const char *category;      /* NULL: none */
  gint64      start;         /* ns */
  gint64      end;
} OwnSlice;

static const OwnTrack own_tracks[] = {
  { 1, 0, "Host" },
  { 2, 1, "Host Copy" },
  { 3, 1, "Host Program" },
  { 10, 0, "NPU Task Breakdown" },
  { 11, 10, "NSS CFG Tasks (Compile)" },
  { 12, 10, "Slice 0 Tasks" },
  { 20, 0, "Host Profile Overview" },
  { 21, 20, "Metrics" },
};

static const OwnSlice own_slices[] = {
  { 2, "Host Copy | @L9C10", NULL, 5000070000, 5000100000 },
  { 2, "Host Copy | tiny/logits", NULL, 5000460000, 5000480000 },
  { 3, "Host Program | @L20C3", "host", 5000400000, 5000495000 },
  { 3, "Nss Start | @L20C3", "host", 5000410000, 5000415000 },
  { 11, "Nss Cfg | Task: 0 | @L3C5", NULL, 5000100000, 5000110000 },
  { 12, "Nss Program | conv2d_0 | @L10C10+@L13C10", "npu", 5000100000, 5000290000 },
  { 12, "WAITING", NULL, 5000290000, 5000290000 },
  { 21, "OVERALL: 380.000\xc2\xb5s", "overview", 5000500000, 5000500000 },
  { 21, "HAL total: 300.000\xc2\xb5s (78.95%)", "overview", 5000500000, 5000500000 },
  { 21, "DMA total: 90.000\xc2\xb5s (23.68%)", "overview", 5000500000, 5000500000 },
  { 21, "HOST COPY total: 50.000\xc2\xb5s (13.16%)", "overview", 5000500000, 5000500000 },
  { 21, "IDLE: 0ns (0.00%)", "overview", 5000500000, 5000500000 },
};

/* sent as interned strings (InternedData of the one packet sequence) */
#define OWN_INTERNED_NAME "WAITING"
#define OWN_INTERNED_CATEGORY "npu"
#define OWN_SEQUENCE 1

/* one instant on the Host track */
#define OWN_INSTANT_TS G_GINT64_CONSTANT (5000050000)

typedef struct
{
  gint64 ts;
  gint   phase;      /* 0 an end, 1 a zero-length slice or the instant, 2 a begin */
  gint64 order;      /* within a phase: ends inner first, begins outer first */
  gint   slice;      /* index in own_slices, -1: the instant */
} OwnEvent;

static int
compare_own_events (gconstpointer a,
                    gconstpointer b)
{
  const OwnEvent *ea = a;
  const OwnEvent *eb = b;

  if (ea->ts != eb->ts)
    return ea->ts < eb->ts ? -1 : 1;
  if (ea->phase != eb->phase)
    return ea->phase - eb->phase;
  if (ea->order != eb->order)
    return ea->order < eb->order ? -1 : 1;
  return ea->slice - eb->slice;
}

/* Appends one Trace.packet field (tag 0x0a, varint length, bytes). */
static void
append_packet (GByteArray                          *trace,
               const Perfetto__Protos__TracePacket *packet)
{
  gsize len = perfetto__protos__trace_packet__get_packed_size (packet);
  g_autofree guint8 *bytes = g_malloc (MAX (len, 1));
  guint8 tag = 0x0a;
  guint64 v = len;

  perfetto__protos__trace_packet__pack (packet, bytes);
  g_byte_array_append (trace, &tag, 1);
  do
    {
      guint8 b = (v & 0x7f) | (v > 0x7f ? 0x80 : 0);

      g_byte_array_append (trace, &b, 1);
      v >>= 7;
    }
  while (v != 0);
  g_byte_array_append (trace, bytes, len);
}

static void
append_event (GByteArray *trace,
              gint64      ts,
              guint64     track_uuid,
              int         type,
              const char *name,
              const char *category)
{
  Perfetto__Protos__TracePacket packet = PERFETTO__PROTOS__TRACE_PACKET__INIT;
  Perfetto__Protos__TrackEvent event = PERFETTO__PROTOS__TRACK_EVENT__INIT;
  Perfetto__Protos__DebugAnnotation task = PERFETTO__PROTOS__DEBUG_ANNOTATION__INIT;
  Perfetto__Protos__DebugAnnotation kernel = PERFETTO__PROTOS__DEBUG_ANNOTATION__INIT;
  Perfetto__Protos__DebugAnnotation *annotations[] = { &task, &kernel };
  uint64_t category_iid = 1;
  char *categories[] = { (char *)category };

  packet.has_timestamp = TRUE;
  packet.timestamp = (uint64_t)ts;
  packet.has_trusted_packet_sequence_id = TRUE;
  packet.trusted_packet_sequence_id = OWN_SEQUENCE;
  packet.track_event = &event;
  event.has_type = TRUE;
  event.type = type;
  event.has_track_uuid = TRUE;
  event.track_uuid = track_uuid;

  if (g_strcmp0 (name, OWN_INTERNED_NAME) == 0)
    {
      event.has_name_iid = TRUE;
      event.name_iid = 1;
    }
  else
    event.name = (char *)name;
  if (g_strcmp0 (category, OWN_INTERNED_CATEGORY) == 0)
    {
      event.n_category_iids = 1;
      event.category_iids = &category_iid;
    }
  else if (category != NULL)
    {
      event.n_categories = 1;
      event.categories = categories;
    }

  /* the NPU program carries debug annotations */
  if (name != NULL && g_str_has_prefix (name, "Nss Program"))
    {
      task.name = (char *)"task";
      task.has_int_value = TRUE;
      task.int_value = 4;
      kernel.name = (char *)"kernel";
      kernel.string_value = (char *)"conv2d_0";
      event.n_debug_annotations = G_N_ELEMENTS (annotations);
      event.debug_annotations = annotations;
    }

  append_packet (trace, &packet);
}

/* Writes our trace to a scratch file host_trace.pb and returns its path. */
static char *
write_own_trace (void)
{
  g_autoptr(GByteArray) trace = g_byte_array_new ();
  g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (OwnEvent));
  char *path = tes_test_tmp_path ("host_trace.pb");

  for (guint i = 0; i < G_N_ELEMENTS (own_tracks); i++)
    {
      Perfetto__Protos__TracePacket packet = PERFETTO__PROTOS__TRACE_PACKET__INIT;
      Perfetto__Protos__TrackDescriptor td = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
      Perfetto__Protos__InternedData interned = PERFETTO__PROTOS__INTERNED_DATA__INIT;
      Perfetto__Protos__EventName name = PERFETTO__PROTOS__EVENT_NAME__INIT;
      Perfetto__Protos__EventCategory category = PERFETTO__PROTOS__EVENT_CATEGORY__INIT;
      Perfetto__Protos__EventName *names[] = { &name };
      Perfetto__Protos__EventCategory *categories[] = { &category };

      packet.has_trusted_packet_sequence_id = TRUE;
      packet.trusted_packet_sequence_id = OWN_SEQUENCE;
      packet.track_descriptor = &td;
      td.has_uuid = TRUE;
      td.uuid = own_tracks[i].uuid;
      td.name = (char *)own_tracks[i].name;
      if (own_tracks[i].parent_uuid != 0)
        {
          td.has_parent_uuid = TRUE;
          td.parent_uuid = own_tracks[i].parent_uuid;
        }

      /* the first packet starts the sequence and interns its strings */
      if (i == 0)
        {
          packet.has_incremental_state_cleared = TRUE;
          packet.incremental_state_cleared = TRUE;
          packet.interned_data = &interned;
          name.has_iid = TRUE;
          name.iid = 1;
          name.name = (char *)OWN_INTERNED_NAME;
          category.has_iid = TRUE;
          category.iid = 1;
          category.name = (char *)OWN_INTERNED_CATEGORY;
          interned.n_event_names = 1;
          interned.event_names = names;
          interned.n_event_categories = 1;
          interned.event_categories = categories;
        }
      append_packet (trace, &packet);
    }

  /* begins and ends in time order, nesting kept */
  for (guint i = 0; i < G_N_ELEMENTS (own_slices); i++)
    {
      const OwnSlice *s = &own_slices[i];

      if (s->start == s->end)
        g_array_append_val (events, ((OwnEvent) { s->start, 1, 0, (gint)i }));
      else
        {
          g_array_append_val (events, ((OwnEvent) { s->start, 2, -s->end, (gint)i }));
          g_array_append_val (events, ((OwnEvent) { s->end, 0, -s->start, (gint)i }));
        }
    }
  g_array_append_val (events, ((OwnEvent) { OWN_INSTANT_TS, 1, 0, -1 }));
  g_array_sort (events, compare_own_events);

  for (guint i = 0; i < events->len; i++)
    {
      const OwnEvent *e = &g_array_index (events, OwnEvent, i);
      const OwnSlice *s = e->slice >= 0 ? &own_slices[e->slice] : NULL;

      if (s == NULL)
        append_event (trace, e->ts, 1, PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT, "inference start", NULL);
      else if (e->phase == 1 || e->phase == 2)
        append_event (trace, s->start, s->track_uuid, PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN,
                      s->name, s->category);
      if (s != NULL && (e->phase == 0 || e->phase == 1))
        append_event (trace, s->end, s->track_uuid, PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END, NULL, NULL);
    }

  tes_test_write_file (path, (const char *)trace->data, trace->len);
  return path;
}

static void
test_perfetto_own (void)
{
  /* the overview slices' metrics, by share */
  static const MetricRow metrics[] = {
    { "HAL total", 78.95, 300000 }, { "DMA total", 23.68, 90000 }, { "HOST COPY total", 13.16, 50000 },
    { "IDLE", 0.0, 0 },
  };
  g_autofree char *path = write_own_trace ();
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GPtrArray) expected = g_ptr_array_new_with_free_func (expected_slice_free);
  g_autoptr(GPtrArray) got = NULL;
  g_autoptr(GHashTable) track_of_uuid = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) program = NULL;
  g_autoptr(GArray) copies = NULL;
  g_autoptr(GArray) nss = NULL;
  g_autofree char *n_packets = NULL;
  g_autofree char *n_events = NULL;
  g_autofree char *program_args = NULL;
  g_autofree char *copy_args = NULL;
  const TesTrack *track;
  TesImporter *importer;
  TesReportCounts counts;

  importer = tes_importer_registry_choose (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tes_importer_get_name (importer), ==, "torq-perfetto");
  report = tes_test_import (path, importer);

  /* a packet per descriptor, two per slice (zero-length ones too), one
   * for the instant */
  n_packets = g_strdup_printf ("%" G_GSIZE_FORMAT, G_N_ELEMENTS (own_tracks) + 2 * G_N_ELEMENTS (own_slices) + 1);
  n_events = g_strdup_printf ("%" G_GSIZE_FORMAT, 2 * G_N_ELEMENTS (own_slices) + 1);
  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_tracks, ==, G_N_ELEMENTS (own_tracks));
  g_assert_cmpint (counts.n_slices, ==, G_N_ELEMENTS (own_slices));
  g_assert_cmpint (counts.n_instants, ==, 1);
  tes_test_assert_info (report, "trace.packets", n_packets);
  tes_test_assert_info (report, "trace.track_descriptors", "8");
  tes_test_assert_info (report, "trace.track_events", n_events);
  tes_test_assert_info (report, "trace.sequences", "1");
  tes_test_assert_info (report, "trace.instants", "1");
  tes_test_assert_info (report, "warning.1", NULL);

  /* every descriptor, in packet order: name, parent, kind, the ns clock */
  for (guint i = 0; i < G_N_ELEMENTS (own_tracks); i++)
    {
      const OwnTrack *t = &own_tracks[i];
      gint64 *uuid = g_new (gint64, 1);

      track = tes_report_get_track (report, i + 1);
      g_assert_nonnull (track);
      *uuid = (gint64)t->uuid;
      g_hash_table_insert (track_of_uuid, uuid, (gpointer)track);
      g_assert_cmpstr (track->name, ==, t->name);
      g_assert_cmpint (clock_of (report, track)->unit, ==, TES_TIME_UNIT_NS);
      if (t->parent_uuid == 0)
        {
          g_assert_cmpint (track->parent_id, ==, 0);
          g_assert_cmpint (track->kind, ==, TES_TRACK_PROCESS);
        }
      else
        {
          const TesTrack *up = g_hash_table_lookup (track_of_uuid, &(gint64) { (gint64)t->parent_uuid });

          g_assert_nonnull (up);
          g_assert_cmpint (track->parent_id, ==, up->id);
          g_assert_cmpint (track->kind, ==, TES_TRACK_THREAD);
        }
    }

  /* every slice: track, name (interned ones resolved), category, start, end */
  for (guint i = 0; i < G_N_ELEMENTS (own_slices); i++)
    {
      const OwnSlice *s = &own_slices[i];

      g_ptr_array_add (expected, expected_slice_new ((gint64)s->track_uuid, s->name, s->category, s->start, s->end));
    }
  got = report_slices (report, track_of_uuid);
  assert_same_slices (got, expected);

  /* nesting by time on one track; debug annotations and the locations
   * in the names become args */
  track = tes_test_find_track (report, "Host", "Host Program");
  program = slices_of (report, track);
  g_assert_cmpint (slice_at (program, 1)->depth, ==, 1);
  g_assert_cmpuint (track->max_depth, ==, 1);
  track = tes_test_find_track (report, "NPU Task Breakdown", "Slice 0 Tasks");
  nss = slices_of (report, track);
  program_args = args_of (report, track, slice_at (nss, 0));
  g_assert_cmpstr (program_args, ==, "{\"task\":4,\"kernel\":\"conv2d_0\",\"loc\":[{\"line\":10,\"col\":10},"
                                     "{\"line\":13,\"col\":10}]}");
  track = tes_test_find_track (report, "Host", "Host Copy");
  copies = slices_of (report, track);
  copy_args = args_of (report, track, slice_at (copies, 0));
  g_assert_cmpstr (copy_args, ==, "{\"loc\":[{\"line\":9,\"col\":10}]}");

  /* the overview metrics: operators with the printed shares; OVERALL,
   * which prints none, is info */
  g_assert_cmpint (counts.n_operators, ==, G_N_ELEMENTS (metrics));
  tes_test_assert_info (report, "trace.overview.metrics", "4");
  tes_test_assert_info (report, "trace.overview.overall", "380.000\xc2\xb5s");
  assert_summary (report, G_N_ELEMENTS (metrics), metrics, G_N_ELEMENTS (metrics), TRUE);
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
      TES_IMPORT_ERROR_TRUNCATED, ":2: Location is not an MLIR location" },
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
      TES_IMPORT_ERROR_TRUNCATED, ":2: location is not an MLIR location" },
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
      TES_IMPORT_ERROR_TRUNCATED, ":3: expected 5 columns" },
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
      TES_IMPORT_ERROR_TRUNCATED, ":2: 10 columns, the header has 11" },
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
      TES_IMPORT_ERROR_TRUNCATED, ":2: expected '<metric> <duration>'" },
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

  tes_test_add (TES_TEST_OWN_DATA, "/tes/torq/locations", test_locations);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/torq/durations", test_durations);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/torq/timeline-v1", test_timeline_v1_own);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/torq/timeline-v2", test_timeline_v2_own);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/torq/runtime-v1", test_runtime_v1_own);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/torq/runtime-v2", test_runtime_v2_own);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/torq/annotated", test_annotated_own);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/torq/perfetto", test_perfetto_own);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/torq/host-overview", test_host_overview_own);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/torq/combined", test_combined_own);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/torq/cli", test_cli_own);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/torq/sniff-content", test_sniff_content);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/torq/bad-input", test_bad_input);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/torq/recoveries", test_recoveries);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/torq/timeline-v1-fixture", test_timeline_v1);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/torq/timeline-v2-fixture", test_timeline_v2);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/torq/runtime-v1-fixture", test_runtime_v1);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/torq/runtime-v2-fixture", test_runtime_v2);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/torq/annotated-fixture", test_annotated);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/torq/perfetto-fixture", test_perfetto);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/torq/host-overview-fixture", test_host_overview);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/torq/combined-fixture", test_combined);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/torq/cli-fixture", test_cli);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/torq/sniff-content-fixture", test_sniff_content_fixture);

  return g_test_run ();
}
