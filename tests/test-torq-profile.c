/* test-torq-profile.c
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
#include "test-torq-own-trace.h"
#include "test-torq-util.h"

/* The Synaptics Torq importers, part two: the annotated runtime CSV, the
 * Perfetto trace and the pytest Host Profile Overview. Every behaviour is
 * checked on the project's own files (tests/data/torq, written by hand for
 * these tests, and a Perfetto trace test-torq-own-trace.c encodes with the
 * importer's own compiled proto, so that its slices are known by
 * construction); the conformance suite checks the same on
 * ../shared/fixtures/torq (every slice of host_trace.expected.json). */

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
 * Our own files: tests/data/torq, and the Perfetto trace of test-torq-own-trace.c
 *
 * One made-up run of a small model (models/tiny.mlir): two dispatches on
 * the host from 5 000 000 µs, the first's host copy at 5 000 070 µs for
 * 30 µs in the runtime CSV, the annotated CSV and the trace; its task 0
 * DMA in takes 1000 cycles in timeline_v2.csv, 10 µs at 100 MHz, as the
 * trace's "Nss Cfg | Task: 0". The values below are worked out by hand
 * from those files.
 * ------------------------------------------------------------------------ */

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

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tes_test_add (TES_TEST_OWN_DATA, "/tes/torq/annotated", test_annotated_own);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/torq/perfetto", test_perfetto_own);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/torq/host-overview", test_host_overview_own);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/torq/annotated-fixture", test_annotated);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/torq/perfetto-fixture", test_perfetto);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/torq/host-overview-fixture", test_host_overview);

  return g_test_run ();
}
