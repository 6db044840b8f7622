/* test-torq.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "tes-cache.h"
#include "tes-importer-registry.h"
#include "tes-report.h"
#include "tes-test-util.h"
#include "tes-torq-util.h"

/* The Synaptics Torq importers against ../shared/fixtures/torq: the
 * compile-time timeline (both layouts), the runtime CSV (both layouts),
 * the annotated CSV, the Perfetto trace (every slice of
 * host_trace.expected.json) and the pytest Host Profile Overview; all six
 * files of the run opened as one report; bad input of every kind. */

static const char * const fixtures[] = {
  "timeline_v1.csv", "timeline_v2.csv", "runtime_v1.csv", "runtime_v2.csv",
  "annotated_runtime.csv", "host_trace.pb", "host_profile_overview.txt",
};

static char *
fixture_copy (const char *name)
{
  g_autofree char *rel = g_build_filename ("fixtures", "torq", name, NULL);
  g_autofree char *src = tes_test_shared_path (rel);

  return tes_test_copy_to_tmp (src, name);
}

static TesReport *
open_fixture (const char *name,
              const char *importer_name)
{
  g_autofree char *path = fixture_copy (name);
  g_autoptr(GError) error = NULL;
  TesImporter *importer = tes_importer_registry_lookup (importer_name);
  TesReport *report;

  g_assert_nonnull (importer);
  report = tes_report_open (path, importer, 0, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (report);

  return report;
}

static gboolean
have_fixtures (void)
{
  g_autofree char *dir = tes_test_shared_path ("fixtures/torq");

  if (g_file_test (dir, G_FILE_TEST_IS_DIR))
    return TRUE;

  g_test_skip ("../shared/fixtures/torq not found");
  return FALSE;
}

/* The track named name whose parent is named parent (NULL: top level). */
static const TesTrack *
find_track (TesReport  *report,
            const char *parent,
            const char *name)
{
  for (guint id = 1; id <= tes_report_get_n_tracks (report); id++)
    {
      const TesTrack *track = tes_report_get_track (report, id);
      const TesTrack *up;

      if (track == NULL || g_strcmp0 (track->name, name) != 0)
        continue;
      up = track->parent_id ? tes_report_get_track (report, track->parent_id) : NULL;
      if (g_strcmp0 (up ? up->name : NULL, parent) == 0)
        return track;
    }

  g_error ("no track '%s' under '%s'", name, parent ? parent : "(top)");
  return NULL;
}

/* The same, among several of that name: the one holding n slices. */
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
  g_autoptr(GError) error = NULL;
  GArray *slices = tes_report_get_slices (report, track->id, G_MININT64, G_MAXINT64, &error);

  g_assert_no_error (error);
  return slices;
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

static const TesClock *
clock_of (TesReport      *report,
          const TesTrack *track)
{
  const TesClock *clock = tes_report_get_clock (report, track->clock_id);

  g_assert_nonnull (clock);
  return clock;
}

static const TesSummaryRow *
summary_row (GPtrArray  *rows,
             const char *label)
{
  for (guint i = 0; i < rows->len; i++)
    {
      const TesSummaryRow *row = g_ptr_array_index (rows, i);

      if (g_strcmp0 (row->label, label) == 0)
        return row;
    }

  g_error ("no summary row '%s'", label);
  return NULL;
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

  if (!have_fixtures ())
    return;

  report = open_fixture ("timeline_v1.csv", "torq-timeline");
  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_tracks, ==, 4);
  g_assert_cmpint (counts.n_slices, ==, 11);
  g_assert_cmpint (counts.n_operators, ==, 0);
  tes_test_assert_info (report, "timeline.rows", "11");
  tes_test_assert_info (report, "timeline.end_cycle", "26289");
  tes_test_assert_info (report, "timeline.clock_mhz", "100");

  process = find_track (report, NULL, "Compile-time timeline");
  g_assert_cmpint (process->kind, ==, TES_TRACK_PROCESS);
  clock = clock_of (report, process);
  g_assert_cmpint (clock->unit, ==, TES_TIME_UNIT_CYCLES);
  g_assert_cmpint (clock->ticks_per_second, ==, 100000000);

  in = find_track (report, "Compile-time timeline", "DMA In");
  out = find_track (report, "Compile-time timeline", "DMA Out");
  lane = find_track (report, "Compile-time timeline", "Slices");
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

  if (!have_fixtures ())
    return;

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
      lane = find_track (report, "Compile-time timeline", lanes[i]);
      g_assert_cmpint (lane->sort_index, >, last_sort);
      last_sort = lane->sort_index;
      g_assert_cmpint (clock_of (report, lane)->unit, ==, TES_TIME_UNIT_CYCLES);
    }

  /* elapsed_time(us) is the duration in cycles, timestamp(us) the start */
  in = slices_of (report, find_track (report, "Compile-time timeline", "DMA In"));
  g_assert_cmpuint (in->len, ==, 3);
  assert_slice (report, slice_at (in, 0), "DMA In", "dma", 0, 1314);

  lane = find_track (report, "Compile-time timeline", "Slice 0");
  s0 = slices_of (report, lane);
  g_assert_cmpuint (s0->len, ==, 2);
  assert_slice (report, slice_at (s0, 0), "Slice 0", "slice", 1314, 4608);
  assert_slice (report, slice_at (s0, 1), "Slice 0", "slice", 13860, 9216);
  args = args_of (report, lane, slice_at (s0, 1));
  tes_test_assert_contains (args, "\"task\":4");
  g_assert_null (strstr (args, "\"bytes\""));   /* the empty trailing field */
  tes_test_assert_contains (args, "{\"file\":\"models/person_detect_int8.tosa.mlir\",\"line\":18,\"col\":11}]");

  css = slices_of (report, find_track (report, "Compile-time timeline", "CSS"));
  g_assert_cmpuint (css->len, ==, 1);
  assert_slice (report, slice_at (css, 0), "CSS", "css", 23076, 8000);

  lane = find_track (report, "Compile-time timeline", "CDMA");
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

  if (!have_fixtures ())
    return;

  report = open_fixture ("runtime_v1.csv", "torq-runtime");
  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_tracks, ==, 2);
  g_assert_cmpint (counts.n_slices, ==, 6);   /* action 5 (WaitHost) logs nothing */
  tes_test_assert_info (report, "runtime.events", "12");

  host = find_track (report, "Host runtime", "Host");
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

  if (!have_fixtures ())
    return;

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
  host = find_track (report, "Host runtime", "Host");
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
  row = summary_row (rows, "NSS_WAIT");
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

  if (!have_fixtures ())
    return;

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

      lane = find_track (report, "Annotated runtime", used[i].lane);
      slices = slices_of (report, lane);
      g_assert_cmpuint (slices->len, ==, used[i].n);
    }
  {
    g_autoptr(GArray) css = slices_of (report, find_track (report, "Annotated runtime", "CSS Used"));

    assert_slice (report, slice_at (css, 0), "conv2d_2", "CSS Used", 6093470852, 9);
    assert_slice (report, slice_at (css, 1), "conv2d_2", "CSS Used", 6093470862, 141);
  }

  /* actions are named by their original operators */
  lane = find_track (report, "Annotated runtime", "Actions");
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

  hal = slices_of (report, find_track (report, "Annotated runtime", "HAL"));
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

static void
test_perfetto (void)
{
  g_autoptr(TesReport) report = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) expected = g_ptr_array_new_with_free_func (expected_slice_free);
  g_autoptr(GPtrArray) got = g_ptr_array_new_with_free_func (expected_slice_free);
  g_autoptr(GHashTable) track_of_uuid = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr(GPtrArray) rows = NULL;
  g_autofree char *json_path = tes_test_shared_path ("fixtures/torq/host_trace.expected.json");
  g_autofree char *copy_args = NULL;
  JsonObject *root;
  JsonArray *tracks;
  JsonArray *slices;
  TesReportCounts counts;
  const TesSummaryRow *row;
  const TesTrack *copy_track;

  if (!have_fixtures ())
    return;

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
      ExpectedSlice *e = g_new0 (ExpectedSlice, 1);
      JsonNode *cat = json_object_get_member (s, "category");

      e->track_uuid = json_object_get_int_member (s, "track_uuid");
      e->name = g_strdup (json_object_get_string_member (s, "name"));
      e->category = JSON_NODE_HOLDS_NULL (cat) ? NULL : g_strdup (json_node_get_string (cat));
      e->start = json_object_get_int_member (s, "start_ns");
      e->end = json_object_get_int_member (s, "end_ns");
      g_ptr_array_add (expected, e);
    }
  {
    GHashTableIter iter;
    gpointer key, value;

    g_hash_table_iter_init (&iter, track_of_uuid);
    while (g_hash_table_iter_next (&iter, &key, &value))
      {
        g_autoptr(GArray) list = slices_of (report, value);

        for (guint i = 0; i < list->len; i++)
          {
            const TesSlice *s = slice_at (list, i);
            ExpectedSlice *e = g_new0 (ExpectedSlice, 1);

            e->track_uuid = *(gint64 *)key;
            e->name = g_strdup (tes_report_get_string (report, s->name));
            e->category = s->category ? g_strdup (tes_report_get_string (report, s->category)) : NULL;
            e->start = s->start;
            e->end = s->start + s->dur;
            g_assert_cmpint (s->flags, ==, 0);
            g_ptr_array_add (got, e);
          }
      }
  }
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

  /* source locations in the slice names */
  copy_track = find_track (report, "Host", "Host Copy");
  {
    g_autoptr(GArray) copies = slices_of (report, copy_track);

    assert_slice (report, slice_at (copies, 0), "Host Copy | @L9C10", NULL, 6093470695000, 41000);
    copy_args = args_of (report, copy_track, slice_at (copies, 0));
    g_assert_cmpstr (copy_args, ==, "{\"loc\":[{\"line\":9,\"col\":10}]}");
  }

  /* the overview metrics: operators with the printed shares */
  g_assert_cmpint (counts.n_operators, ==, 15);
  tes_test_assert_info (report, "trace.overview.overall", "727.000\xc2\xb5s");
  rows = tes_report_summarize (report, TES_SUMMARY_TOTAL, TES_GROUP_BY_CATEGORY, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, 15);
  row = g_ptr_array_index (rows, 0);
  g_assert_cmpstr (row->label, ==, "HAL total");
  g_assert_cmpfloat (row->share, ==, 99.86);
  g_assert_cmpint (row->total, ==, 726000);
  row = summary_row (rows, "DMA total");
  g_assert_cmpfloat (row->share, ==, 40.44);
  g_assert_cmpint (row->total, ==, 294000);
  row = summary_row (rows, "IDLE");
  g_assert_cmpfloat (row->share, ==, 0.14);
  g_assert_cmpint (row->total, ==, 1000);
  row = summary_row (rows, "DMA/CDMA ONLY (no compute)");
  g_assert_cmpfloat (row->share, ==, 0.0);
  g_assert_cmpint (row->total, ==, 0);
}

/* ------------------------------------------------------------------------
 * Host Profile Overview
 * ------------------------------------------------------------------------ */

static void
test_host_overview (void)
{
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GError) error = NULL;
  static const struct { const char *label; double share; gint64 ns; } vendor[] = {
    { "Host Copy", 96.43, 12386000 }, { "Dma", 3.53, 453000 }, { "Dma Total", 3.53, 453000 },
    { "Compute", 3.17, 407000 }, { "Slice", 3.17, 407000 }, { "Slice 0", 3.17, 407000 },
    { "Slice 1", 3.17, 407000 }, { "Overlap", 3.17, 407000 }, { "Dma Only", 0.36, 46000 },
    { "Idle", 0.05, 6000 }, { "Cdma", 0.0, 0 }, { "Compute Only", 0.0, 0 }, { "Css", 0.0, 0 },
    { "Host", 0.0, 0 },
  };
  TesReportCounts counts;

  if (!have_fixtures ())
    return;

  report = open_fixture ("host_profile_overview.txt", "torq-host-overview");
  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_operators, ==, 14);
  g_assert_cmpint (counts.n_slices, ==, 0);
  tes_test_assert_info (report, "overview.model", "conv2d_f4_s4_64x64x16_i16");
  tes_test_assert_info (report, "overview.wall_time", "207.000ms");
  tes_test_assert_info (report, "overview.overall", "12.845ms");

  /* the vendor's order for equal shares is kept (a stable sort) */
  rows = tes_report_summarize (report, TES_SUMMARY_TOTAL, TES_GROUP_BY_CATEGORY, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, G_N_ELEMENTS (vendor));
  for (guint i = 0; i < rows->len; i++)
    {
      const TesSummaryRow *row = g_ptr_array_index (rows, i);

      g_assert_cmpstr (row->label, ==, vendor[i].label);
      g_assert_cmpfloat (row->share, ==, vendor[i].share);
      g_assert_cmpint (row->total, ==, vendor[i].ns);
    }
}

/* ------------------------------------------------------------------------
 * One run, six files (and the overview): one report
 * ------------------------------------------------------------------------ */

static TesReport *
open_all (const char * const *names,
          guint               n,
          TesReportOpenFlags  flags)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) importers = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  TesReport *report;

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *rel = g_build_filename ("fixtures", "torq", names[i], NULL);
      g_autofree char *src = tes_test_shared_path (rel);
      char *path = tes_test_tmp_path (names[i]);

      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        g_free (tes_test_copy_to_tmp (src, names[i]));
      g_ptr_array_add (paths, path);
      g_ptr_array_add (importers, tes_importer_registry_choose (path, NULL, &error));
      g_assert_no_error (error);
    }

  report = tes_report_open_files ((const char * const *)paths->pdata, (TesImporter * const *)importers->pdata,
                                  n, flags, NULL, NULL, &error);
  g_assert_no_error (error);
  return report;
}

static void
assert_combined (TesReport *report)
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
  guint n_cycles = 0, n_us = 0, n_ns = 0;

  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_sources, ==, 7);
  g_assert_cmpuint (tes_report_get_n_sources (report), ==, 7);
  g_assert_cmpint (counts.n_tracks, ==, 4 + 7 + 2 + 2 + 9 + 62);
  g_assert_cmpint (counts.n_slices, ==, 11 + 12 + 6 + 46 + 45 + 90);
  g_assert_cmpint (counts.n_operators, ==, 15 + 14);

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
  g_assert_cmpuint (count_info (report, "timeline.end_cycle", "26289"), ==, 1);
  g_assert_cmpuint (count_info (report, "timeline.end_cycle", "31081"), ==, 1);
  tes_test_assert_info (report, "runtime.invocations", "7");
  tes_test_assert_info (report, "annotated.untimed_rows", "16");
  tes_test_assert_info (report, "trace.packets", "242");
  tes_test_assert_info (report, "overview.wall_time", "207.000ms");

  /* the same host copy in the runtime CSV (µs), the annotated CSV (µs)
   * and the trace (ns) lands on one time axis */
  pb_copy = find_track (report, "Host", "Host Copy");
  csv_actions = find_track (report, "Annotated runtime", "Actions");
  rt_host = find_track_with (report, "Host runtime", "Host", 46);   /* runtime_v2.csv's */
  pb_copies = slices_of (report, pb_copy);
  csv_rows = slices_of (report, csv_actions);
  rt = slices_of (report, rt_host);
  for (guint i = 0; i < csv_rows->len; i++)
    if (g_str_equal (tes_report_get_string (report, slice_at (csv_rows, i)->name), "tosa.pad@L9"))
      csv_pad = slice_at (csv_rows, i);
  for (guint i = 0; i < rt->len; i++)
    if (slice_at (rt, i)->start == 6093470695)
      rt_copy = slice_at (rt, i);
  g_assert_nonnull (csv_pad);
  g_assert_nonnull (rt_copy);
  g_assert_cmpstr (tes_report_get_string (report, rt_copy->name), ==, "HOST_COPY");
  g_assert_cmpint (csv_actions->clock_id, ==, rt_host->clock_id);
  g_assert_cmpint (tes_report_convert_time (report, csv_actions->clock_id, 0, csv_pad->start), ==,
                   slice_at (pb_copies, 0)->start);
  g_assert_cmpint (tes_report_convert_time (report, rt_host->clock_id, 0, rt_copy->start + rt_copy->dur), ==,
                   slice_at (pb_copies, 0)->start + slice_at (pb_copies, 0)->dur);

  /* compile-time cycles at 100 MHz: task 0's DMA In, 1314 cycles in
   * timeline_v2.csv, is the trace's 13.14 µs "Nss Cfg | Task: 0" */
  pb_cfg = find_track (report, "NPU Task Breakdown", "NSS CFG Tasks (Compile)");
  cfg = slices_of (report, pb_cfg);
  assert_slice (report, slice_at (cfg, 0), "Nss Cfg | Task: 0 | @L10C10", NULL, 6093470739000, 13140);
  tl_in = find_track_with (report, "Compile-time timeline", "DMA In", 3);   /* timeline_v2.csv's */
  in = slices_of (report, tl_in);
  g_assert_cmpint (tes_report_convert_time (report, tl_in->clock_id, 0, slice_at (in, 0)->dur), ==,
                   slice_at (cfg, 0)->dur);
}

static void
test_combined (void)
{
  const char *reversed[G_N_ELEMENTS (fixtures)];

  if (!have_fixtures ())
    return;

  for (guint i = 0; i < G_N_ELEMENTS (fixtures); i++)
    reversed[i] = fixtures[G_N_ELEMENTS (fixtures) - 1 - i];

  {
    g_autoptr(TesReport) report = open_all (fixtures, G_N_ELEMENTS (fixtures), 0);

    assert_combined (report);
  }

  /* any order: imported again the other way round */
  {
    g_autoptr(TesReport) report = open_all (reversed, G_N_ELEMENTS (reversed), TES_REPORT_OPEN_REIMPORT);

    g_assert_false (tes_report_get_cache_reused (report));
    assert_combined (report);
  }
}

/* ------------------------------------------------------------------------
 * tessera-cli
 * ------------------------------------------------------------------------ */

static char *
run_cli (int         expected_status,
         char      **err,
         ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  const char *cli = g_getenv ("TESSERA_CLI");
  const char *arg;
  char *out = NULL;
  g_autofree char *err_text = NULL;
  int status = -1;
  va_list args;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (gpointer)cli);
  va_start (args, err);
  while ((arg = va_arg (args, const char *)))
    g_ptr_array_add (argv, (gpointer)arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  tes_test_run ((const char * const *)argv->pdata, &out, &err_text, &status);
  if (status != expected_status)
    g_error ("tessera-cli exited with %d, expected %d: %s", status, expected_status, err_text);
  if (err != NULL)
    *err = g_steal_pointer (&err_text);

  return out;
}

static void
test_cli (void)
{
  g_autofree char *timeline = NULL;
  g_autofree char *runtime = NULL;
  g_autofree char *annotated = NULL;
  g_autofree char *trace = NULL;
  g_autofree char *overview = NULL;
  g_autofree char *out = NULL;

  if (!have_fixtures ())
    return;

  timeline = fixture_copy ("timeline_v2.csv");
  runtime = fixture_copy ("runtime_v2.csv");
  annotated = fixture_copy ("annotated_runtime.csv");
  trace = fixture_copy ("host_trace.pb");
  overview = fixture_copy ("host_profile_overview.txt");

  out = run_cli (0, NULL, "info", timeline, NULL);
  tes_test_assert_contains (out, "Importer:       torq-timeline (version 1)\n");
  tes_test_assert_contains (out, "Slices:         12\n");
  tes_test_assert_contains (out, "Time span:      0 .. 31081 cycles (clock Torq compile-time cycles (100 MHz)), 0 .. 310810 ns\n");
  tes_test_assert_contains (out, "Info:           timeline.end_cycle = 31081\n");
  g_clear_pointer (&out, g_free);

  out = run_cli (0, NULL, "summary", overview, NULL);
  g_assert_true (g_str_has_prefix (out, "Host Copy 96.430%\nDma 3.530%\nDma Total 3.530%\n"));
  tes_test_assert_contains (out, "Idle 0.050%\n");
  g_clear_pointer (&out, g_free);

  out = run_cli (0, NULL, "info", overview, NULL);
  tes_test_assert_contains (out, "Operators:      14\n");
  tes_test_assert_contains (out, "Info:           overview.wall_time = 207.000ms\n");
  g_clear_pointer (&out, g_free);

  out = run_cli (0, NULL, "summary", trace, NULL);
  g_assert_true (g_str_has_prefix (out, "HAL total 99.860%\n"));
  tes_test_assert_contains (out, "HOST COPY total 8.250%\n");
  g_clear_pointer (&out, g_free);

  out = run_cli (0, NULL, "summary", "--by", "name", runtime, NULL);
  tes_test_assert_contains (out, "NSS_WAIT ");
  g_clear_pointer (&out, g_free);

  /* the files of one run, one report */
  out = run_cli (0, NULL, "info", timeline, runtime, annotated, trace, overview, NULL);
  tes_test_assert_contains (out, "Source:         ");
  tes_test_assert_contains (out, "torq-perfetto, version 1)\n");
  tes_test_assert_contains (out, "Tracks:         80\n");
  tes_test_assert_contains (out, "Slices:         193\n");
  tes_test_assert_contains (out, "Operators:      29\n");
  /* one clock per kind of time */
  tes_test_assert_contains (out, "(clock Torq compile-time cycles (100 MHz))");
  tes_test_assert_contains (out, "(clock Torq host time (µs))");
  tes_test_assert_contains (out, "(clock Torq host time (ns))");
  tes_test_assert_contains (out, "Info:           annotated.invocations = 4\n");
  tes_test_assert_contains (out, "Info:           trace.overview.overall = 727.000µs\n");
}

/* ------------------------------------------------------------------------
 * Sniffing by content
 * ------------------------------------------------------------------------ */

static void
test_sniff_content (void)
{
  static const struct { const char *fixture; const char *importer; } cases[] = {
    { "timeline_v1.csv", "torq-timeline" }, { "timeline_v2.csv", "torq-timeline" },
    { "runtime_v1.csv", "torq-runtime" }, { "runtime_v2.csv", "torq-runtime" },
    { "annotated_runtime.csv", "torq-annotated" }, { "host_trace.pb", "torq-perfetto" },
    { "host_profile_overview.txt", "torq-host-overview" },
  };

  if (!have_fixtures ())
    return;

  /* renamed to something that says nothing: still found */
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *rel = g_build_filename ("fixtures", "torq", cases[i].fixture, NULL);
      g_autofree char *src = tes_test_shared_path (rel);
      g_autofree char *name = g_strdup_printf ("renamed-%u.dat", i);
      g_autofree char *path = tes_test_copy_to_tmp (src, name);
      g_autoptr(GError) error = NULL;
      TesImporter *importer = tes_importer_registry_choose (path, NULL, &error);

      g_assert_no_error (error);
      g_assert_cmpstr (tes_importer_get_name (importer), ==, cases[i].importer);
    }

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
    report = tes_report_open (log, importer, 0, NULL, NULL, &error);
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

static void
check_bad (const BadCase *c)
{
  g_autofree char *path = tes_test_tmp_path (c->name);
  g_autofree char *cache = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = NULL;

  tes_test_write_file (path, c->contents, c->len);
  cache = tes_cache_path_for_source (path);

  report = tes_report_open (path, tes_importer_registry_lookup (c->importer), 0, NULL, NULL, &error);
  g_assert_null (report);
  if (error == NULL || error->domain != TES_IMPORT_ERROR || error->code != c->code)
    g_error ("case %s: expected import error %d, got %s (%d)", c->name, c->code,
             error ? error->message : "none", error ? error->code : 0);
  expected = g_strconcat (path, c->message, NULL);
  if (strstr (error->message, expected) == NULL)
    g_error ("case %s: '%s' does not contain '%s'", c->name, error->message, expected);
  g_assert_false (g_file_test (cache, G_FILE_TEST_EXISTS));
}

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
    check_bad (&cases[i]);
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
    report = tes_report_open (path, tes_importer_registry_lookup ("torq-timeline"), 0, NULL, NULL, &error);
    g_assert_no_error (error);
    tes_test_assert_info (report, "warning.1", "unknown-event.csv: unknown event 'Vector Unit' kept on a lane of its own");
    slices = slices_of (report, find_track (report, "Compile-time timeline", "Vector Unit"));
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
    report = tes_report_open (path, tes_importer_registry_lookup ("torq-runtime"), 0, NULL, NULL, &error);
    g_assert_no_error (error);
    tes_test_assert_info (report, "warning.1", "unclosed.csv: 3 event(s) begun but never ended (the first on line 2), "
                                      "closed at the last timestamp");
    slices = slices_of (report, find_track (report, "Host runtime", "Host"));
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
    report = tes_report_open (path, tes_importer_registry_lookup ("torq-runtime"), 0, NULL, NULL, &error);
    g_assert_no_error (error);
    tes_report_get_counts (report, &counts);
    g_assert_cmpint (counts.n_tracks, ==, 3);
    find_track (report, "Host runtime", "a #0");
    find_track (report, "Host runtime", "b #1");
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
    report = tes_report_open (path, importer, 0, NULL, NULL, &error);
    g_assert_no_error (error);
    tes_report_get_counts (report, &counts);
    g_assert_cmpint (counts.n_tracks, ==, 3);
    g_assert_cmpint (counts.n_slices, ==, 2);
    g_assert_cmpint (counts.n_instants, ==, 1);

    child = find_track (report, "proc", "child");
    work = slices_of (report, child);
    g_assert_cmpuint (work->len, ==, 1);
    assert_slice (report, slice_at (work, 0), "work", NULL, 100, 50);

    lost = find_track (report, NULL, "Track 9");
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

  g_test_add_func ("/tes/torq/locations", test_locations);
  g_test_add_func ("/tes/torq/durations", test_durations);
  g_test_add_func ("/tes/torq/timeline-v1", test_timeline_v1);
  g_test_add_func ("/tes/torq/timeline-v2", test_timeline_v2);
  g_test_add_func ("/tes/torq/runtime-v1", test_runtime_v1);
  g_test_add_func ("/tes/torq/runtime-v2", test_runtime_v2);
  g_test_add_func ("/tes/torq/annotated", test_annotated);
  g_test_add_func ("/tes/torq/perfetto", test_perfetto);
  g_test_add_func ("/tes/torq/host-overview", test_host_overview);
  g_test_add_func ("/tes/torq/combined", test_combined);
  g_test_add_func ("/tes/torq/cli", test_cli);
  g_test_add_func ("/tes/torq/sniff-content", test_sniff_content);
  g_test_add_func ("/tes/torq/bad-input", test_bad_input);
  g_test_add_func ("/tes/torq/recoveries", test_recoveries);

  return g_test_run ();
}
