/* test-torq-timeline.c
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
#include "tes-torq-util.h"
#include "test-torq-util.h"

/* The Synaptics Torq importers, part one: the source locations and
 * durations they parse, the compile-time timeline (both layouts) and the
 * runtime CSV (both layouts). test-torq-profile.c covers the annotated
 * CSV, the Perfetto trace and the pytest Host Profile Overview,
 * test-torq-run.c all files of a run as one report, the command line,
 * sniffing by content, bad input and recoveries. Every behaviour is
 * checked on the project's own files (tests/data/torq, written by hand for
 * these tests); the conformance suite checks the same on
 * ../shared/fixtures/torq. */

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

  /* the NPU, its engines its units (Tile Balance) */
  process = tes_test_find_track (report, NULL, "Compile-time timeline");
  g_assert_cmpint (process->kind, ==, TES_TRACK_DEVICE);
  clock = clock_of (report, process);
  g_assert_cmpint (clock->unit, ==, TES_TIME_UNIT_CYCLES);
  g_assert_cmpint (clock->ticks_per_second, ==, 100000000);

  in = tes_test_find_track (report, "Compile-time timeline", "DMA In");
  out = tes_test_find_track (report, "Compile-time timeline", "DMA Out");
  lane = tes_test_find_track (report, "Compile-time timeline", "Slices");
  g_assert_cmpint (in->kind, ==, TES_TRACK_CORE);
  g_assert_cmpint (out->kind, ==, TES_TRACK_CORE);
  g_assert_cmpint (lane->kind, ==, TES_TRACK_CORE);
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
 * Our own files: tests/data/torq
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
  g_assert_cmpint (process->kind, ==, TES_TRACK_DEVICE);
  clock = clock_of (report, process);
  g_assert_cmpint (clock->unit, ==, TES_TIME_UNIT_CYCLES);
  g_assert_cmpint (clock->ticks_per_second, ==, 100000000);

  /* DI and DO share one index space: DI0 DI3 DI7 / DO2 DO6; the
   * overflow lane is the "Slices" unit's, not a unit of its own */
  in = assert_lane (report, "Compile-time timeline", "DMA In", dma_in, G_N_ELEMENTS (dma_in));
  out = assert_lane (report, "Compile-time timeline", "DMA Out", dma_out, G_N_ELEMENTS (dma_out));
  lane = assert_lane (report, "Compile-time timeline", "Slices", ops, G_N_ELEMENTS (ops));
  lane2 = assert_lane (report, "Slices", "Slices #2", more, G_N_ELEMENTS (more));
  g_assert_cmpint (lane->kind, ==, TES_TRACK_CORE);
  g_assert_cmpint (lane2->kind, ==, TES_TRACK_LANE);
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
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/torq/timeline-v1-fixture", test_timeline_v1);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/torq/timeline-v2-fixture", test_timeline_v2);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/torq/runtime-v1-fixture", test_runtime_v1);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/torq/runtime-v2-fixture", test_runtime_v2);

  return g_test_run ();
}
