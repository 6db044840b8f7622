/* test-trace.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tes-importer-registry.h"
#include "test-poplar-util.h"
#include "tes-share-chart-layout.h"
#include "tes-test-pixels.h"
#include "tes-test-util.h"
#include "tes-trace-details.h"
#include "tes-trace-frame.h"
#include "tes-trace-render.h"
#include "tes-trace-summary.h"
#include "tes-tiles-layout.h"
#include "tes-tiles-section.h"

/* The Execution Trace's pure half: the time axis and its navigation, the
 * ruler, lanes, merging slices per pixel column, hit-testing and the
 * picture itself, on a trace written here with known slices. */

static TesReport *
open_trace (void)
{
  g_autofree char *path = tes_test_write_trace ("trace.json");
  g_autoptr(GError) error = NULL;
  TesReport *report;

  report = tes_report_import (path, tes_importer_registry_lookup ("chrome-json"),
                              TES_REPORT_OPEN_NONE, NULL, NULL, &error);
  g_assert_no_error (error);

  return report;
}

/* The generated Poplar run (two IPUs), its three files imported as one
 * report. */
static TesReport *
import_generated (Generated *g)
{
  g_autofree char *execution = NULL;
  g_autofree char *compile = NULL;
  g_autofree char *listing = NULL;
  g_autoptr(GError) error = NULL;
  TesReport *report;

  generate (g, TES_TEST_OWN_DATA);
  execution = generated_path (g, "execution.json");
  compile = generated_path (g, "compile_report.txt");
  listing = generated_path (g, "archive_size.txt");
  {
    const char *paths[] = { execution, compile, listing };
    TesImporter *importers[] = { tes_importer_registry_lookup ("chrome-json"),
                                 tes_importer_registry_lookup ("poplar-report"),
                                 tes_importer_registry_lookup ("poplar-size-listing") };

    report = tes_report_import_files (paths, importers, 3, 0, NULL, NULL, &error);
    g_assert_no_error (error);
  }

  return report;
}

static TesTraceFrame *
build_frame (TesReport           *report,
             const TesTraceScale *scale,
             TesTraceMode         mode,
             double               view_height)
{
  TesTraceRequest request = { .scale = *scale, .mode = mode, .view_height = view_height };
  g_autoptr(GError) error = NULL;
  TesTraceFrame *frame = tes_trace_frame_build (report, &request, NULL, &error);

  g_assert_no_error (error);

  return frame;
}

static const TesTraceLane *
find_lane (GArray     *lanes,
           TesReport  *report,
           const char *parent,
           const char *name)
{
  for (guint i = 0; i < lanes->len; i++)
    {
      const TesTraceLane *lane = &g_array_index (lanes, TesTraceLane, i);
      const TesTrack *track = tes_report_get_track (report, lane->track_id);
      const TesTrack *up = track->parent_id ? tes_report_get_track (report, track->parent_id) : NULL;

      if (g_str_equal (track->name, name) &&
          (parent == NULL ? up == NULL : (up != NULL && g_str_equal (up->name, parent))))
        return lane;
    }

  return NULL;
}

static void
test_trace_scale_and_navigation (void)
{
  TesTraceScale scale;
  gint64 t0 = 1000, t1 = 2000;
  double x_before;

  tes_trace_scale_init (&scale, 1000, 2000, TES_TRACE_LABEL_WIDTH + 1000);
  g_assert_cmpfloat (tes_trace_scale_x (&scale, 1000), ==, TES_TRACE_LABEL_WIDTH);
  g_assert_cmpfloat (tes_trace_scale_x (&scale, 1500), ==, TES_TRACE_LABEL_WIDTH + 500);
  g_assert_cmpint (tes_trace_scale_time (&scale, TES_TRACE_LABEL_WIDTH + 250), ==, 1250);

  /* W: zooms in around the anchor, which stays where it was on screen */
  x_before = tes_trace_scale_x (&scale, 1200);
  tes_trace_zoom (&t0, &t1, 0.5, 1200, 0, 10000);
  g_assert_cmpint (t1 - t0, ==, 500);
  tes_trace_scale_init (&scale, t0, t1, TES_TRACE_LABEL_WIDTH + 1000);
  g_assert_cmpfloat (fabs (tes_trace_scale_x (&scale, 1200) - x_before), <, 1.0);

  /* never narrower than the minimum, never wider than the run */
  tes_trace_zoom (&t0, &t1, 1e-9, 1200, 0, 10000);
  g_assert_cmpint (t1 - t0, ==, TES_TRACE_MIN_SPAN);
  tes_trace_zoom (&t0, &t1, 1e9, 1200, 0, 10000);
  g_assert_cmpint (t0, ==, 0);
  g_assert_cmpint (t1, ==, 10000);

  /* A/D: the range moves, keeping its width, and stops at the ends */
  t0 = 1000, t1 = 2000;
  tes_trace_pan (&t0, &t1, 100, 0, 10000);
  g_assert_cmpint (t0, ==, 1100);
  g_assert_cmpint (t1, ==, 2100);
  tes_trace_pan (&t0, &t1, -5000, 0, 10000);
  g_assert_cmpint (t0, ==, 0);
  g_assert_cmpint (t1, ==, 1000);
  tes_trace_pan (&t0, &t1, 50000, 0, 10000);
  g_assert_cmpint (t0, ==, 9000);
  g_assert_cmpint (t1, ==, 10000);

  /* double-click and F: the span with 5 % each side */
  tes_trace_zoom_to (&t0, &t1, 4000, 6000, 0, 10000);
  g_assert_cmpint (t0, ==, 3900);
  g_assert_cmpint (t1, ==, 6100);
}

static void
assert_labels (GArray             *ticks,
               const char * const *expected)
{
  guint n = 0;

  for (guint i = 0; i < ticks->len; i++)
    {
      const TesTraceTick *tick = &g_array_index (ticks, TesTraceTick, i);

      if (!tick->major)
        continue;
      g_assert_nonnull (expected[n]);
      g_assert_cmpstr (tick->label, ==, expected[n]);
      n++;
    }
  g_assert_null (expected[n]);
}

static void
test_trace_ruler (void)
{
  TesTraceScale scale;
  g_autoptr(GArray) ns = NULL;
  g_autoptr(GArray) us = NULL;
  g_autoptr(GArray) cycles = NULL;
  const char * const ns_labels[] = { "0 ns", "100 ns", "200 ns", "300 ns", "400 ns", "500 ns", "600 ns",
                                     "700 ns", "800 ns", "900 ns", "1,000 ns", NULL };
  const char * const us_labels[] = { "0.5 µs", "1.0 µs", "1.5 µs", "2.0 µs", NULL };
  const char * const cycle_labels[] = { "0 cyc", "1,000 cyc", "2,000 cyc", "3,000 cyc", "4,000 cyc", "5,000 cyc",
                                        NULL };
  guint minor = 0;

  /* 1000 ns over 1000 px, labels at least 90 px apart: every 100 ns,
   * counted from the run's start */
  tes_trace_scale_init (&scale, 5000, 6000, TES_TRACE_LABEL_WIDTH + 1000);
  ns = tes_trace_ruler_ticks (&scale, 5000, TES_TIME_UNIT_NS, 0, 90);
  assert_labels (ns, ns_labels);
  for (guint i = 0; i < ns->len; i++)
    minor += !g_array_index (ns, TesTraceTick, i).major;
  g_assert_cmpuint (minor, ==, 40);
  g_assert_cmpfloat (g_array_index (ns, TesTraceTick, 0).x, ==, TES_TRACE_LABEL_WIDTH);

  /* 2 µs over 400 px in µs: a label every 0.5 µs, one decimal */
  tes_trace_scale_init (&scale, 5400, 7400, TES_TRACE_LABEL_WIDTH + 400);
  us = tes_trace_ruler_ticks (&scale, 5000, TES_TIME_UNIT_US, 0, 90);
  assert_labels (us, us_labels);

  /* cycles of a 1 GHz clock: 5000 cycles over 500 px */
  tes_trace_scale_init (&scale, 0, 5000, TES_TRACE_LABEL_WIDTH + 500);
  cycles = tes_trace_ruler_ticks (&scale, 0, TES_TIME_UNIT_CYCLES, 1000000000, 90);
  assert_labels (cycles, cycle_labels);
}

/* Run names never lie on one another: labels in order, each ending
 * before the next begins. */
static void
assert_run_labels_apart (GArray *labels)
{
  for (guint i = 0; i + 1 < labels->len; i++)
    {
      const TesTraceRunLabel *label = &g_array_index (labels, TesTraceRunLabel, i);

      g_assert_cmpfloat (label->width, >, 0);
      g_assert_cmpfloat (label->x + label->width, <, g_array_index (labels, TesTraceRunLabel, i + 1).x);
    }
}

/* A hundred steps seen whole are marked in the ruler, not drawn across
 * the lanes; zoomed in on a few, they are. */
static void
test_trace_runs_dense (void)
{
  TesRun runs[100];
  TesTraceScale scale;

  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    runs[i] = (TesRun) { .name = (char *)"ProfilerStep", .start = i * 10, .end = (i + 1) * 10 };

  /* 1,000 ns over 1,000 px: 10 px a run */
  tes_trace_scale_init (&scale, 0, 1000, TES_TRACE_LABEL_WIDTH + 1000);
  g_assert_true (tes_trace_runs_dense (&scale, runs, G_N_ELEMENTS (runs)));
  /* 100 ns of it: 12 runs meet the view (two at its edges), 83 px apart */
  tes_trace_scale_init (&scale, 500, 600, TES_TRACE_LABEL_WIDTH + 1000);
  g_assert_false (tes_trace_runs_dense (&scale, runs, G_N_ELEMENTS (runs)));
  /* 24 px a run is where lines start */
  tes_trace_scale_init (&scale, 0, 1000, TES_TRACE_LABEL_WIDTH + 2400);
  g_assert_false (tes_trace_runs_dense (&scale, runs, G_N_ELEMENTS (runs)));
  tes_trace_scale_init (&scale, 0, 1000, TES_TRACE_LABEL_WIDTH + 2390);
  g_assert_true (tes_trace_runs_dense (&scale, runs, G_N_ELEMENTS (runs)));
  g_assert_false (tes_trace_runs_dense (&scale, runs, 0));
}

static void
test_trace_run_labels (void)
{
  /* 1 ns per pixel, the lanes from x = 200 */
  const TesRun runs[] = {
    { .name = (char *)"late", .start = 800, .end = 1000 },
    { .name = (char *)"IPU 1", .start = 0, .end = 950 },
    { .name = (char *)"IPU 0", .start = 0, .end = 900 },
    { .name = (char *)"main", .start = 500, .end = 520 },
    { .name = (char *)"main", .start = 530, .end = 700 },   /* starts 30 px after the last */
    { .name = (char *)"before", .start = -100, .end = 300 },
    { .name = NULL, .start = 100, .end = 200 },
  };
  g_auto(Generated) g = { 0 };
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GArray) labels = NULL;
  g_autoptr(GArray) poplar = NULL;
  TesTraceScale scale;
  const TesTraceRunLabel *label;

  tes_trace_scale_init (&scale, 0, 1000, TES_TRACE_LABEL_WIDTH + 1000);
  labels = tes_trace_run_labels (&scale, runs, G_N_ELEMENTS (runs));
  g_assert_cmpuint (labels->len, ==, 3);

  /* the two IPUs start together: one label, in start then given order,
   * its room ending 6 px before the next label's run */
  label = &g_array_index (labels, TesTraceRunLabel, 0);
  g_assert_cmpstr (label->text, ==, "IPU 1, IPU 0");
  g_assert_cmpuint (label->n_runs, ==, 2);
  g_assert_cmpfloat (label->x, ==, 203);
  g_assert_cmpfloat (label->width, ==, 500 - 6);

  /* less than TES_TRACE_RUN_LABEL_ROOM apart: one label, one name; as
   * long as the runs together */
  label = &g_array_index (labels, TesTraceRunLabel, 1);
  g_assert_cmpstr (label->text, ==, "main");
  g_assert_cmpuint (label->n_runs, ==, 2);
  g_assert_cmpfloat (label->x, ==, 703);
  g_assert_cmpfloat (label->width, ==, 200 - 6);

  label = &g_array_index (labels, TesTraceRunLabel, 2);
  g_assert_cmpstr (label->text, ==, "late");
  g_assert_cmpfloat (label->x, ==, 1003);
  assert_run_labels_apart (labels);

  /* the generated run's two IPUs start at the same cycle: shown whole,
   * and zoomed in on their start, one label names both */
  report = import_generated (&g);
  for (guint zoom = 0; zoom < 2; zoom++)
    {
      g_autoptr(TesTraceFrame) frame = NULL;
      g_autoptr(GError) error = NULL;
      TesTraceRequest request = { .mode = TES_TRACE_FLAT, .view_height = 600, .show_runs = TRUE };
      gint64 t0, t1;

      g_assert_true (tes_report_get_span (report, 0, &t0, &t1));
      tes_trace_scale_init (&request.scale, t0, zoom ? t0 + (t1 - t0) / 50 : t1, 1200);
      frame = tes_trace_frame_build (report, &request, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (frame->runs->len, ==, g.n_ipus);

      g_clear_pointer (&poplar, g_array_unref);
      poplar = tes_trace_run_labels (&frame->scale, (const TesRun *)(gpointer)frame->runs->data, frame->runs->len);
      g_assert_cmpuint (poplar->len, ==, 1);
      label = &g_array_index (poplar, TesTraceRunLabel, 0);
      g_assert_cmpuint (label->n_runs, ==, 2);
      g_assert_nonnull (strstr (label->text, "IPU 0"));
      g_assert_nonnull (strstr (label->text, "IPU 1"));
    }
}

/* A hundred profiler steps seen whole: labels give the steps' range, a
 * range per TES_TRACE_RUN_SERIES_ROOM, never "ProfilerStep#4, Prof…". Runs
 * that overlap, or whose names are no series, keep their names. */
static void
test_trace_run_labels_series (void)
{
  g_autofree TesRun *runs = g_new0 (TesRun, 100);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) labels = NULL;
  const TesRun ranks[] = {
    { .name = (char *)"Rank 0 ProfilerStep#7", .start = 0, .end = 500 },
    { .name = (char *)"Rank 1 ProfilerStep#7", .start = 10, .end = 520 },
  };
  const TesRun mixed[] = {
    { .name = (char *)"step 3", .start = 0, .end = 10 },
    { .name = (char *)"step 2", .start = 10, .end = 20 },    /* falling */
    { .name = (char *)"warmup", .start = 20, .end = 30 },
  };
  TesTraceScale scale;
  guint covered = 0;

  for (guint i = 0; i < 100; i++)
    {
      g_ptr_array_add (names, g_strdup_printf ("ProfilerStep#%u", i + 4));
      runs[i] = (TesRun) { .name = g_ptr_array_index (names, i), .start = i * 10, .end = (i + 1) * 10 };
    }

  /* 10 px a step: sixteen steps a label, started less than 160 px apart */
  tes_trace_scale_init (&scale, 0, 1000, TES_TRACE_LABEL_WIDTH + 1000);
  labels = tes_trace_run_labels (&scale, runs, 100);
  g_assert_cmpuint (labels->len, ==, 7);
  assert_run_labels_apart (labels);
  for (guint i = 0; i < labels->len; i++)
    {
      const TesTraceRunLabel *label = &g_array_index (labels, TesTraceRunLabel, i);
      g_autofree char *want = g_strdup_printf ("ProfilerStep#%u–%u", covered + 4, covered + label->n_runs - 1 + 4);

      g_assert_cmpstr (label->text, ==, want);
      g_assert_cmpfloat (label->x, ==, TES_TRACE_LABEL_WIDTH + covered * 10 + 3);
      covered += label->n_runs;
    }
  g_assert_cmpuint (g_array_index (labels, TesTraceRunLabel, 0).n_runs, ==, 16);
  g_assert_cmpuint (covered, ==, 100);

  /* zoomed in, each step has room for its own name */
  g_clear_pointer (&labels, g_array_unref);
  tes_trace_scale_init (&scale, 0, 100, TES_TRACE_LABEL_WIDTH + 1000);
  labels = tes_trace_run_labels (&scale, runs, 100);
  g_assert_cmpuint (labels->len, ==, 11);
  g_assert_cmpstr (g_array_index (labels, TesTraceRunLabel, 0).text, ==, "ProfilerStep#4");
  g_assert_cmpstr (g_array_index (labels, TesTraceRunLabel, 10).text, ==, "ProfilerStep#14");

  /* two ranks' steps overlap: named both, as IPUs starting together are */
  g_clear_pointer (&labels, g_array_unref);
  tes_trace_scale_init (&scale, 0, 1000, TES_TRACE_LABEL_WIDTH + 1000);
  labels = tes_trace_run_labels (&scale, ranks, G_N_ELEMENTS (ranks));
  g_assert_cmpuint (labels->len, ==, 1);
  g_assert_cmpstr (g_array_index (labels, TesTraceRunLabel, 0).text, ==, "Rank 0 ProfilerStep#7, Rank 1 ProfilerStep#7");

  /* numbers that fall, or a name without one: no range */
  g_clear_pointer (&labels, g_array_unref);
  labels = tes_trace_run_labels (&scale, mixed, G_N_ELEMENTS (mixed));
  g_assert_cmpuint (labels->len, ==, 1);
  g_assert_cmpstr (g_array_index (labels, TesTraceRunLabel, 0).text, ==, "step 3, step 2, warmup");
}

static void
test_trace_format_time (void)
{
  g_autofree char *a = tes_trace_format_time (1500, 500, TES_TIME_UNIT_US, 0);
  g_autofree char *b = tes_trace_format_time (2500000, 1000000, TES_TIME_UNIT_MS, 0);
  g_autofree char *c = tes_trace_format_time (1e9, 1e8, TES_TIME_UNIT_CYCLES, 900000000);
  g_autofree char *d = tes_trace_format_time (-0.0001, 1, TES_TIME_UNIT_NS, 0);
  g_autofree char *e = tes_trace_format_time (250e9, 50e9, TES_TIME_UNIT_MS, 0);
  g_autofree char *f = tes_trace_format_time (-12345500, 500, TES_TIME_UNIT_US, 0);

  g_assert_cmpstr (a, ==, "1.5 µs");
  g_assert_cmpstr (b, ==, "2 ms");
  g_assert_cmpstr (c, ==, "900,000,000 cyc");
  g_assert_cmpstr (d, ==, "0 ns");
  /* grouped like every other figure */
  g_assert_cmpstr (e, ==, "250,000 ms");
  g_assert_cmpstr (f, ==, "-12,345.5 µs");
}

static void
test_trace_lanes (void)
{
  g_autoptr(TesReport) report = open_trace ();
  g_autoptr(GArray) flat = NULL;
  g_autoptr(GArray) flame = NULL;
  g_autoptr(GArray) folded = NULL;
  g_autoptr(GHashTable) collapsed = g_hash_table_new (NULL, NULL);
  TesTraceLaneState state = { 0 };
  const TesTraceLane *a, *a0, *a1, *b, *b0;
  double height, folded_height;

  flat = tes_trace_layout_lanes (report, TES_TRACE_FLAT, NULL, &height);
  g_assert_cmpuint (flat->len, ==, 5);
  a = find_lane (flat, report, NULL, "Device A");
  a0 = find_lane (flat, report, "Device A", "core 0");
  a1 = find_lane (flat, report, "Device A", "core 1");
  b = find_lane (flat, report, NULL, "Device B");
  b0 = find_lane (flat, report, "Device B", "core 0");
  g_assert_true (a && a0 && a1 && b && b0);

  /* a tree in order: groups above their lanes, one row each when flat */
  g_assert_true (a->is_group && a->expanded && a->level == 0);
  g_assert_true (!a0->is_group && a0->level == 1 && a0->n_rows == 1);
  g_assert_cmpfloat (a->y, <, a0->y);
  g_assert_cmpfloat (a0->y, <, a1->y);
  g_assert_cmpfloat (a1->y, <, b->y);
  g_assert_cmpfloat (b->y, <, b0->y);
  g_assert_cmpfloat (b0->y + b0->height, ==, height);
  g_assert_cmpint (tes_trace_lane_at (flat, a0->y + 1), ==, 1);
  g_assert_cmpint (tes_trace_lane_at (flat, height + 1), ==, -1);

  /* flame: one row per depth (conv holds dma) */
  flame = tes_trace_layout_lanes (report, TES_TRACE_FLAME, NULL, NULL);
  g_assert_cmpuint (find_lane (flame, report, "Device A", "core 0")->n_rows, ==, 2);
  g_assert_cmpuint (find_lane (flame, report, "Device A", "core 1")->n_rows, ==, 1);

  /* a folded group keeps its header, its lanes go */
  g_hash_table_add (collapsed, GSIZE_TO_POINTER (a->track_id));
  state.collapsed = collapsed;
  folded = tes_trace_layout_lanes (report, TES_TRACE_FLAT, &state, &folded_height);
  g_assert_cmpuint (folded->len, ==, 3);
  g_assert_false (find_lane (folded, report, NULL, "Device A")->expanded);
  g_assert_null (find_lane (folded, report, "Device A", "core 0"));
  g_assert_cmpfloat (folded_height, ==, height - a0->height - a1->height);

  /* Device B's core pinned: it comes first, marked, and leaves the tree;
   * Device A hidden: it goes with its lanes */
  {
    g_autoptr(GArray) pinned = g_array_new (FALSE, FALSE, sizeof (gint64));
    g_autoptr(GHashTable) hidden = g_hash_table_new (NULL, NULL);
    g_autoptr(GArray) lanes = NULL;
    TesTraceLaneState edited = { NULL, pinned, hidden };
    gint64 b0_id = b0->track_id;
    const TesTraceLane *first;

    g_array_append_val (pinned, b0_id);
    g_hash_table_add (hidden, GSIZE_TO_POINTER (a->track_id));
    lanes = tes_trace_layout_lanes (report, TES_TRACE_FLAT, &edited, NULL);
    first = &g_array_index (lanes, TesTraceLane, 0);
    g_assert_cmpint (first->track_id, ==, b0_id);
    g_assert_true (first->pinned);
    g_assert_cmpuint (first->level, ==, 0);
    g_assert_null (find_lane (lanes, report, NULL, "Device A"));
    g_assert_null (find_lane (lanes, report, "Device A", "core 1"));
    /* core 0 of Device B is laid out once, on top */
    for (guint i = 1; i < lanes->len; i++)
      g_assert_cmpint (g_array_index (lanes, TesTraceLane, i).track_id, !=, b0_id);
  }
}

static void
test_trace_merge (void)
{
  g_autoptr(TesReport) report = open_trace ();
  g_autoptr(GArray) lanes = tes_trace_layout_lanes (report, TES_TRACE_FLAT, NULL, NULL);
  const TesTraceLane *a1 = find_lane (lanes, report, "Device A", "core 1");
  const TesTrack *track = tes_report_get_track (report, a1->track_id);
  g_autoptr(GArray) slices = tes_report_get_slices (report, track->id, G_MININT64, G_MAXINT64, NULL);
  g_autoptr(GArray) wide = g_array_new (FALSE, TRUE, sizeof (TesTraceBox));
  g_autoptr(GArray) narrow = g_array_new (FALSE, TRUE, sizeof (TesTraceBox));
  TesTraceMerge flat = { TES_TRACE_FLAT };
  TesTraceScale scale;
  guint64 total = 0;

  g_assert_cmpuint (slices->len, ==, 1000);

  /* 200 µs of slices over 1000 px: 5 ns a pixel, each slice 20 px wide,
   * a box each, where they are */
  tes_trace_scale_init (&scale, 2000000, 2000000 + 5000, TES_TRACE_LABEL_WIDTH + 1000);
  tes_trace_merge_slices (&scale, (const TesSlice *)(gpointer)slices->data, slices->len, report,
                          track, &flat, wide);
  g_assert_cmpuint (wide->len, ==, 25);
  for (guint i = 0; i < wide->len; i++)
    {
      const TesTraceBox *box = &g_array_index (wide, TesTraceBox, i);

      g_assert_cmpuint (box->n_slices, ==, 1);
      g_assert_cmpfloat (fabs (box->x0 - (TES_TRACE_LABEL_WIDTH + i * 40)), <, 1e-6);
      g_assert_cmpfloat (fabs (box->x1 - box->x0 - 20), <, 1e-6);
      g_assert_cmpint (box->dur, ==, 100);
      g_assert_cmpstr (tes_report_get_string (report, box->name), ==, "tiny");
    }

  /* the whole 200 µs over 100 px: 2000 ns a pixel, ten slices each;
   * every slice is in one box and no box is wider than its columns */
  tes_trace_scale_init (&scale, 2000000, 2200000, TES_TRACE_LABEL_WIDTH + 100);
  tes_trace_merge_slices (&scale, (const TesSlice *)(gpointer)slices->data, slices->len, report,
                          track, &flat, narrow);
  g_assert_cmpuint (narrow->len, <=, 101);
  for (guint i = 0; i < narrow->len; i++)
    {
      const TesTraceBox *box = &g_array_index (narrow, TesTraceBox, i);

      total += box->n_slices;
      g_assert_cmpfloat (box->x1 - box->x0, <=, 2.0 + 1e-9);
      if (i > 0)
        g_assert_cmpfloat (box->x0, >=, g_array_index (narrow, TesTraceBox, i - 1).x0);
    }
  g_assert_cmpuint (total, ==, 1000);

  /* Group Syncs: three syncs back to back, each 100 px wide, are one box
   * named after them; without it, three */
  {
    const TesTrack *b0 = tes_test_find_track (report, "Device B", "core 0");
    g_autoptr(GArray) found = tes_report_get_slices (report, b0->id, G_MININT64, G_MAXINT64, NULL);
    g_autofree guint8 *syncs = tes_trace_sync_names (report);
    g_autoptr(GArray) grouped = g_array_new (FALSE, TRUE, sizeof (TesTraceBox));
    g_autoptr(GArray) apart = g_array_new (FALSE, TRUE, sizeof (TesTraceBox));
    TesTraceMerge with = { TES_TRACE_FLAT, NULL, syncs, tes_report_get_n_strings (report) };
    TesSlice three[3];

    for (guint i = 0; i < 3; i++)
      {
        three[i] = g_array_index (found, TesSlice, 0);
        three[i].start = tes_report_convert_time (report, 0, b0->clock_id, 3000000 + i * 100000);
        three[i].dur = 100000;
        three[i].index = i;
      }
    tes_trace_scale_init (&scale, 3000000, 3300000, TES_TRACE_LABEL_WIDTH + 300);
    tes_trace_merge_slices (&scale, three, 3, report, b0, &with, grouped);
    tes_trace_merge_slices (&scale, three, 3, report, b0, &flat, apart);
    g_assert_cmpuint (grouped->len, ==, 1);
    g_assert_cmpuint (g_array_index (grouped, TesTraceBox, 0).n_slices, ==, 3);
    g_assert_cmpstr (tes_report_get_string (report, g_array_index (grouped, TesTraceBox, 0).name), ==, "sync");
    g_assert_cmpint (g_array_index (grouped, TesTraceBox, 0).dur, ==, 300000);
    g_assert_cmpuint (apart->len, ==, 3);
  }

  /* a long step right after a very short one (Poplar's StreamCopyMid of
   * 488,320 cycles after a StreamCopyBegin of 1,024) keeps its own box,
   * its name and colour, however thin the one before */
  {
    const TesTrack *b0 = tes_test_find_track (report, "Device B", "core 0");
    g_autoptr(GArray) found = tes_report_get_slices (report, b0->id, G_MININT64, G_MAXINT64, NULL);
    g_autoptr(GArray) boxes = g_array_new (FALSE, TRUE, sizeof (TesTraceBox));
    TesSlice two[2];

    two[0] = g_array_index (found, TesSlice, 0);
    two[0].start = tes_report_convert_time (report, 0, b0->clock_id, 3000000);
    two[0].dur = tes_report_convert_time (report, 0, b0->clock_id, 100);
    two[0].index = 0;
    two[1] = two[0];
    two[1].start = two[0].start + two[0].dur;
    two[1].dur = tes_report_convert_time (report, 0, b0->clock_id, 200000);
    two[1].index = 1;
    /* 1,000 ns a pixel: 0.1 px, then 200 px */
    tes_trace_scale_init (&scale, 3000000, 3300000, TES_TRACE_LABEL_WIDTH + 300);
    tes_trace_merge_slices (&scale, two, 2, report, b0, &flat, boxes);
    g_assert_cmpuint (boxes->len, ==, 2);
    g_assert_cmpuint (g_array_index (boxes, TesTraceBox, 1).n_slices, ==, 1);
    g_assert_cmpuint (g_array_index (boxes, TesTraceBox, 1).name, ==, two[1].name);
    g_assert_cmpuint (g_array_index (boxes, TesTraceBox, 1).index, ==, 1);
  }
}

static void
test_trace_frame_and_hit (void)
{
  g_autoptr(TesReport) report = open_trace ();
  g_autoptr(TesTraceFrame) frame = NULL;
  g_autoptr(TesTraceFrame) far = NULL;
  const TesTraceLane *a0;
  const TesTraceBox *box;
  TesTraceScale scale;
  gboolean in_label;
  int lane, hit;
  guint lane_index;
  double y;

  /* 1000 to 1600 µs over 1200 px of slices: conv and dma at their places */
  tes_trace_scale_init (&scale, 1000000, 1600000, TES_TRACE_LABEL_WIDTH + 1200);
  frame = build_frame (report, &scale, TES_TRACE_FLAME, 600);
  g_assert_nonnull (frame);
  g_assert_cmpint (frame->origin, ==, TES_TEST_TRACE_ORIGIN_NS);
  a0 = find_lane (frame->lanes, report, "Device A", "core 0");
  lane_index = (guint)(a0 - (const TesTraceLane *)(gpointer)frame->lanes->data);

  y = TES_TRACE_RULER_HEIGHT + a0->y + 2 + 0.5 * TES_TRACE_ROW_HEIGHT;
  g_assert_true (tes_trace_frame_hit (frame, tes_trace_scale_x (&scale, 1050000), y, &lane, &hit, &in_label));
  g_assert_cmpint (lane, ==, (int)lane_index);
  g_assert_cmpint (hit, >=, 0);
  box = &g_array_index ((GArray *)g_ptr_array_index (frame->boxes, lane), TesTraceBox, hit);
  g_assert_cmpstr (tes_report_get_string (report, box->name), ==, "conv");
  g_assert_cmpint (box->start, ==, 1000000);
  g_assert_cmpint (box->dur, ==, 100000);
  g_assert_cmpfloat (fabs (box->x0 - TES_TRACE_LABEL_WIDTH), <, 1e-6);
  g_assert_cmpfloat (fabs (box->x1 - (TES_TRACE_LABEL_WIDTH + 200)), <, 1e-6);

  /* one row down: dma, nested */
  y += TES_TRACE_ROW_HEIGHT;
  g_assert_true (tes_trace_frame_hit (frame, tes_trace_scale_x (&scale, 1030000), y, &lane, &hit, &in_label));
  box = &g_array_index ((GArray *)g_ptr_array_index (frame->boxes, lane), TesTraceBox, hit);
  g_assert_cmpstr (tes_report_get_string (report, box->name), ==, "dma");
  g_assert_cmpuint (box->row, ==, 1);

  /* between conv and add: nothing; in the names: the lane, no box */
  g_assert_true (tes_trace_frame_hit (frame, tes_trace_scale_x (&scale, 1150000), y - TES_TRACE_ROW_HEIGHT,
                                      &lane, &hit, &in_label));
  g_assert_cmpint (hit, ==, -1);
  g_assert_true (tes_trace_frame_hit (frame, 20, y, &lane, &hit, &in_label));
  g_assert_true (in_label);
  g_assert_cmpint (hit, ==, -1);
  g_assert_false (tes_trace_frame_hit (frame, 600, 5, &lane, &hit, &in_label));

  /* the whole run over 100 px: core 1's 1000 slices come from the lane
   * summaries, the others' few slices are read */
  tes_trace_scale_init (&scale, TES_TEST_TRACE_ORIGIN_NS, 2200000, TES_TRACE_LABEL_WIDTH + 100);
  far = build_frame (report, &scale, TES_TRACE_FLAT, 600);
  g_assert_cmpuint (far->n_slices_read, ==, 3 + 1);
  {
    const TesTraceLane *a1 = find_lane (far->lanes, report, "Device A", "core 1");
    GArray *boxes = g_ptr_array_index (far->boxes, a1 - (const TesTraceLane *)(gpointer)far->lanes->data);
    const TesTraceBox *last;

    g_assert_cmpuint (boxes->len, >=, 1);
    box = &g_array_index (boxes, TesTraceBox, 0);
    last = &g_array_index (boxes, TesTraceBox, boxes->len - 1);
    /* 2000 to 2200 µs of 1000 to 2200 µs: the last sixth of the pixels */
    g_assert_cmpfloat (fabs (box->x0 - (TES_TRACE_LABEL_WIDTH + 100.0 * 1000 / 1200)), <=, 1.0);
    g_assert_cmpfloat (fabs (last->x1 - (TES_TRACE_LABEL_WIDTH + 100)), <=, 1.0);
    g_assert_cmpstr (tes_report_get_string (report, box->name), ==, "tiny");
  }
}

/* The whole run in miniature: per column, the share of lanes busy. */
static void
test_trace_overview (void)
{
  g_autoptr(TesReport) report = open_trace ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) overview = tes_trace_overview (report, 12, &error);
  /* 1000 to 2199.9 µs in columns of about 100 µs (a column's edges miss
   * the slices' by a few ns), over three lanes: Device A's core 0 (conv,
   * then add), core 1 (tiny, half busy) and Device B's sync */
  const double expected[12] = { 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0.5, 0.5 };

  g_assert_no_error (error);
  g_assert_cmpuint (overview->len, ==, 12);
  for (guint i = 0; i < 12; i++)
    g_assert_cmpfloat_with_epsilon (g_array_index (overview, double, i), expected[i] / 3, 1e-3);
}

/* Counters as step functions per column, and flows, on the Chrome file
 * with every phase. */
static void
test_trace_counters_and_flows (void)
{
  g_autofree char *src = tes_test_data_path ("chrome/phases_array.json");
  g_autofree char *path = tes_test_copy_to_tmp (src, "phases_array.json");
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GArray) values = NULL;
  g_autoptr(GArray) flows = NULL;
  g_autoptr(GArray) early = NULL;
  g_autoptr(GArray) lanes = NULL;
  g_autoptr(GError) error = NULL;
  const TesCounterBucket *b;
  const TesTrack *used;
  gint64 origin, t0, t1;
  gboolean counter_lane = FALSE;

  report = tes_report_import (path, tes_importer_registry_lookup ("chrome-json"), 0, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (tes_report_get_span (report, 0, &origin, NULL));

  /* memory.used: 1024 at 80 µs, 2048 at 110 µs; four columns over
   * [80, 120) µs */
  used = tes_test_find_track (report, "NPU", "memory.used");
  t0 = tes_report_convert_time (report, 0, used->clock_id, 80000);
  t1 = tes_report_convert_time (report, 0, used->clock_id, 120000);
  values = tes_report_get_counter (report, used->id, t0, t1, 4, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (values->len, ==, 4);
  b = &g_array_index (values, TesCounterBucket, 0);
  g_assert_true (b->has_value);
  g_assert_cmpfloat (b->min, ==, 1024);
  g_assert_cmpfloat (b->max, ==, 1024);
  /* carried over the columns without samples */
  b = &g_array_index (values, TesCounterBucket, 2);
  g_assert_true (b->has_value);
  g_assert_cmpfloat (b->last, ==, 1024);
  /* the step inside the last column */
  b = &g_array_index (values, TesCounterBucket, 3);
  g_assert_cmpfloat (b->min, ==, 1024);
  g_assert_cmpfloat (b->max, ==, 2048);
  g_assert_cmpfloat (b->last, ==, 2048);

  /* before its first sample a counter has no value */
  g_clear_pointer (&values, g_array_unref);
  values = tes_report_get_counter (report, used->id, t0 - 40000, t0, 2, &error);
  g_assert_false (g_array_index (values, TesCounterBucket, 0).has_value);

  /* the counters have lanes of their own */
  lanes = tes_trace_layout_lanes (report, TES_TRACE_FLAT, NULL, NULL);
  for (guint i = 0; i < lanes->len; i++)
    if (g_array_index (lanes, TesTraceLane, i).track_id == used->id)
      counter_lane = g_array_index (lanes, TesTraceLane, i).is_counter;
  g_assert_true (counter_lane);

  /* in start order: submit's flow_out (25 µs) to its flow_in (80 µs),
   * then job: 35 µs → 85 µs → 120 µs, one arrow per link */
  flows = tes_report_get_flows (report, G_MININT64 / 2, G_MAXINT64 / 2, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (flows->len, ==, 3);
  g_assert_cmpint (g_array_index (flows, TesFlow, 0).from_ts, ==, 25000);
  g_assert_cmpint (g_array_index (flows, TesFlow, 0).to_ts, ==, 80000);
  g_assert_cmpint (g_array_index (flows, TesFlow, 1).from_ts, ==, 35000);
  g_assert_cmpint (g_array_index (flows, TesFlow, 1).to_ts, ==, 85000);
  g_assert_cmpint (g_array_index (flows, TesFlow, 2).to_ts, ==, 120000);
  g_assert_cmpstr (tes_report_get_string (report, g_array_index (flows, TesFlow, 1).name), ==, "job");
  /* only those with an end in the range */
  early = tes_report_get_flows (report, 90000, 130000, &error);
  g_assert_cmpuint (early->len, ==, 1);
  g_assert_cmpint (g_array_index (early, TesFlow, 0).to_ts, ==, 120000);
}

/* Tile balance on a generated Poplar run: each BSP step's share of its
 * IPU's tiles at work is the truth's share of tiles with cycles in it,
 * and it belongs to the lane that groups that IPU's tiles. */
static void
test_trace_tile_balance (void)
{
  g_auto(Generated) g = { 0 };
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GPtrArray) balances = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *steps;
  gint64 tiles_per_ipu;
  double mhz;
  guint checked = 0;

  report = import_generated (&g);
  balances = tes_trace_balance (report, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (balances->len, ==, g.n_ipus);

  steps = json_object_get_array_member (g.truth, "steps");
  tiles_per_ipu = json_object_get_int_member (g.truth, "tiles_per_ipu");
  mhz = json_object_get_double_member (g.truth, "clock_mhz");
  for (guint b = 0; b < balances->len; b++)
    {
      const TesTraceBalance *balance = g_ptr_array_index (balances, b);
      const TesTrack *group = tes_report_get_track (report, balance->group_track);
      int ipu = -1;

      g_assert_cmpint (sscanf (group->name, "IPU %d", &ipu), ==, 1);
      for (guint s = 0, k = 0; s < json_array_get_length (steps); s++)
        {
          JsonObject *step = json_array_get_object_element (steps, s);
          JsonArray *cycles = json_object_get_array_member (step, "cycles");
          const TesTraceStepBalance *got;
          guint busy = 0;

          if (json_object_get_int_member (step, "ipu") != ipu)
            continue;
          for (guint t = 0; t < json_array_get_length (cycles); t++)
            busy += json_array_get_int_element (cycles, t) > 0;

          got = &g_array_index (balance->steps, TesTraceStepBalance, k++);
          g_assert_cmpfloat_with_epsilon (got->active, (double)busy / tiles_per_ipu, 1e-9);
          /* cycles of the truth's clock, in ns: within a cycle */
          g_assert_cmpint (ABS (got->start - (gint64)(json_object_get_int_member (step, "start") * 1000 / mhz)), <=, 1);
          checked++;
        }
    }
  g_assert_cmpuint (checked, ==, json_array_get_length (steps));
}

/* Tile Balance over the whole run: each IPU's least and most busy tiles
 * are the truth's, and its tile-cycles by state add up to its tiles
 * times the steps' cycles. */
static void
test_tiles_balance (void)
{
  g_auto(Generated) g = { 0 };
  g_autofree char *execution = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GArray) activity = NULL;
  g_autoptr(GPtrArray) balances = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *steps;
  gint64 tiles_per_ipu;

  generate (&g, TES_TEST_OWN_DATA);
  execution = generated_path (&g, "execution.json");
  report = tes_report_import (execution, tes_importer_registry_lookup ("chrome-json"), 0, NULL, NULL, &error);
  g_assert_no_error (error);

  activity = tes_report_get_tile_activity (report, G_MININT64 / 2, G_MAXINT64 / 2, &error);
  g_assert_no_error (error);
  balances = tes_tile_balance_compute (activity, 10);
  g_assert_cmpuint (balances->len, ==, g.n_ipus);

  steps = json_object_get_array_member (g.truth, "steps");
  tiles_per_ipu = json_object_get_int_member (g.truth, "tiles_per_ipu");
  for (guint b = 0; b < balances->len; b++)
    {
      const TesTileBalance *balance = g_ptr_array_index (balances, b);
      g_autofree gint64 *busy = g_new0 (gint64, tiles_per_ipu);
      gint64 step_cycles = 0, all = 0;
      gint64 most = 0, least = 0;

      g_assert_cmpuint (balance->n_tiles, ==, tiles_per_ipu);
      for (guint s = 0; s < json_array_get_length (steps); s++)
        {
          JsonObject *step = json_array_get_object_element (steps, s);
          JsonArray *cycles = json_object_get_array_member (step, "cycles");

          if (json_object_get_int_member (step, "ipu") != balance->ipu)
            continue;
          step_cycles += json_object_get_int_member (step, "dur");
          for (guint t = 0; t < json_array_get_length (cycles); t++)
            busy[t] += json_array_get_int_element (cycles, t);
        }
      for (guint t = 1; t < tiles_per_ipu; t++)
        {
          most = busy[t] > busy[most] ? t : most;
          least = busy[t] < busy[least] ? t : least;
        }

      g_assert_cmpint (g_array_index (balance->most, TesTileActivity, 0).tile, ==, most);
      g_assert_cmpint (tes_tile_activity_busy (&g_array_index (balance->most, TesTileActivity, 0)), ==, busy[most]);
      g_assert_cmpint (g_array_index (balance->least, TesTileActivity, 0).tile, ==, least);
      g_assert_cmpuint (balance->most->len, ==, 10);
      for (guint s = 0; s < 4; s++)
        all += balance->cycles[s];
      g_assert_cmpint (all, ==, step_cycles * tiles_per_ipu);
    }
}

/* Each tile's busy share over the whole run, from the truth. */
static double *
truth_busy_shares (Generated *g,
                   int        ipu,
                   guint      n_tiles)
{
  JsonArray *steps = json_object_get_array_member (g->truth, "steps");
  double *shares = g_new0 (double, n_tiles);
  gint64 step_cycles = 0;

  for (guint s = 0; s < json_array_get_length (steps); s++)
    {
      JsonObject *step = json_array_get_object_element (steps, s);
      JsonArray *cycles = json_object_get_array_member (step, "cycles");

      if (json_object_get_int_member (step, "ipu") != ipu)
        continue;
      step_cycles += json_object_get_int_member (step, "dur");
      for (guint t = 0; t < json_array_get_length (cycles) && t < n_tiles; t++)
        shares[t] += json_array_get_int_element (cycles, t);
    }
  for (guint t = 0; t < n_tiles; t++)
    shares[t] /= step_cycles;

  return shares;
}

static GPtrArray *
generated_balances (Generated  *g,
                    TesReport **report)
{
  g_autofree char *execution = generated_path (g, "execution.json");
  g_autoptr(GArray) activity = NULL;
  g_autoptr(GError) error = NULL;

  *report = tes_report_import (execution, tes_importer_registry_lookup ("chrome-json"), 0, NULL, NULL, &error);
  g_assert_no_error (error);
  activity = tes_report_get_tile_activity (*report, G_MININT64 / 2, G_MAXINT64 / 2, &error);
  g_assert_no_error (error);

  return tes_tile_balance_compute (activity, 10);
}

/* The chart of every tile, wide (a column each) and narrow (several
 * tiles a column): the columns take every tile once in order, draw the
 * least busy of theirs stacked to its busy share, tick the most busy's,
 * and the dashed line sits at the truth's mean share. */
static void
test_tiles_chart (void)
{
  g_auto(Generated) g = { 0 };
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GPtrArray) balances = NULL;
  const double widths[] = { 1000, 10 };
  const double y = 40, height = 100;

  generate_seeded (&g, TES_TEST_OWN_DATA, 11);
  balances = generated_balances (&g, &report);
  g_assert_cmpuint (balances->len, ==, g.n_ipus);

  for (guint b = 0; b < balances->len; b++)
    for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
      {
        const TesTileBalance *balance = g_ptr_array_index (balances, b);
        g_autofree double *share = truth_busy_shares (&g, balance->ipu, balance->n_tiles);
        g_autoptr(TesTileChart) chart = tes_tile_chart_new (balance, 60, y, widths[w], height);
        double mean = 0, right = 60;
        guint next = 0;

        g_assert_cmpuint (balance->tiles->len, ==, balance->n_tiles);
        g_assert_cmpuint (chart->columns->len, ==, MIN (balance->n_tiles, (guint)widths[w]));
        for (guint t = 0; t < balance->n_tiles; t++)
          mean += share[t] / balance->n_tiles;
        g_assert_cmpfloat_with_epsilon (chart->mean, mean, 1e-9);
        g_assert_cmpfloat (chart->mean_y, ==, floor (y + height - height * mean + 0.5));

        for (guint c = 0; c < chart->columns->len; c++)
          {
            const TesTileColumn *column = &g_array_index (chart->columns, TesTileColumn, c);
            guint least = column->first, most = column->first;
            double stacked = 0;

            /* every tile once, in order, left to right inside the plot */
            g_assert_cmpuint (column->first, ==, next);
            g_assert_cmpuint (column->last, >, column->first);
            next = column->last;
            g_assert_cmpfloat (column->x, >=, right);
            g_assert_cmpfloat (column->width, >=, 1);
            right = column->x + column->width;
            g_assert_cmpfloat (right, <=, 60 + widths[w]);

            for (guint t = column->first; t < column->last; t++)
              {
                least = share[t] < share[least] ? t : least;
                most = share[t] > share[most] ? t : most;
              }
            g_assert_cmpuint (column->least, ==, least);
            g_assert_cmpuint (column->most, ==, most);
            g_assert_cmpfloat (column->top, ==, floor (y + height - height * share[least] + 0.5));
            g_assert_cmpfloat (column->most_top, ==, floor (y + height - height * share[most] + 0.5));
            for (guint s = 0; s < 4; s++)
              stacked += column->heights[s];
            g_assert_cmpfloat (column->heights[TES_TILE_STATE_IDLE], ==, 0);
            g_assert_cmpfloat (stacked, ==, y + height - column->top);
          }
        g_assert_cmpuint (next, ==, balance->n_tiles);
        /* narrow: tiles share columns, and some column spans a spread */
        if (widths[w] < balance->n_tiles)
          {
            gboolean spread = FALSE;

            for (guint c = 0; c < chart->columns->len; c++)
              spread |= g_array_index (chart->columns, TesTileColumn, c).most_top <
                        g_array_index (chart->columns, TesTileColumn, c).top;
            g_assert_true (spread);
          }
      }
}

static guint
count_in_row (cairo_surface_t *surface,
              int              y,
              int              x0,
              int              x1,
              guint32          rgb)
{
  guint n = 0;

  for (int x = x0; x < x1; x++)
    n += tes_test_pixel (surface, x, y) == rgb;

  return n;
}

static gboolean
is_state_color (guint32 rgb)
{
  for (guint s = TES_TILE_STATE_COMPUTE; s <= TES_TILE_STATE_SYNC; s++)
    if (rgb == tes_tile_state_color (s))
      return TRUE;

  return FALSE;
}

/* The Tile Balance page of a generated run: IPU 0's chart, found by its
 * 100 % and 0 % lines, has each tile's column as the layout says, the
 * busiest tile's taller than the least busy's, and the dashed mean
 * where the mean puts it. */
static void
test_tiles_chart_render (void)
{
  g_auto(Generated) g = { 0 };
  g_autoptr(TesReport) report = NULL;
  g_autoptr(TesWorkspace) workspace = NULL;
  g_autoptr(GPtrArray) balances = NULL;
  g_autoptr(TesTileChart) chart = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree double *share = NULL;
  const TesTileBalance *balance;
  const TesTileColumn *first, *busiest = NULL, *idlest = NULL;
  cairo_surface_t *surface;
  cairo_t *cr;
  double plot_x, plot_w;
  int top = -1, gap_x, busiest_px = 0, idlest_px = 0;
  guint dashes;

  generate_seeded (&g, TES_TEST_OWN_DATA, 11);
  balances = generated_balances (&g, &report);
  balance = g_ptr_array_index (balances, 0);
  share = truth_busy_shares (&g, balance->ipu, balance->n_tiles);
  workspace = tes_workspace_new (report);

  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 1200, 900);
  cr = cairo_create (surface);
  g_assert_true (tes_tiles_render (workspace, cr, 1200, 900, &error));
  g_assert_no_error (error);
  cairo_destroy (cr);
  cairo_surface_flush (surface);

  /* the gap right of the first column: light at 100 % and at 0 % */
  tes_tile_chart_plot (1200, &plot_x, &plot_w);
  chart = tes_tile_chart_new (balance, plot_x, 0, plot_w, TES_TILE_CHART_HEIGHT);
  first = &g_array_index (chart->columns, TesTileColumn, 0);
  gap_x = (int)(first->x + first->width);
  for (int y = 0; y < 900 - TES_TILE_CHART_HEIGHT && top < 0; y++)
    if (tes_test_pixel (surface, gap_x, y) == 0xdeddda)
      top = y;
  g_assert_cmpint (top, >, 0);
  g_assert_cmphex (tes_test_pixel (surface, gap_x, top + (int)TES_TILE_CHART_HEIGHT), ==, 0xdeddda);
  g_clear_pointer (&chart, tes_tile_chart_free);
  chart = tes_tile_chart_new (balance, plot_x, top, plot_w, TES_TILE_CHART_HEIGHT);

  for (guint c = 0; c < chart->columns->len; c++)
    {
      const TesTileColumn *column = &g_array_index (chart->columns, TesTileColumn, c);
      int mid = (int)(column->x + column->width / 2);

      /* coloured from its top to the 0 % line, white above (a tick or
       * the dashed mean aside) */
      g_assert_true (is_state_color (tes_test_pixel (surface, mid, (int)column->top)) ||
                     (int)column->top == (int)chart->mean_y);
      g_assert_true (is_state_color (tes_test_pixel (surface, mid, top + (int)TES_TILE_CHART_HEIGHT - 1)));
      if ((int)column->top - 1 > top && (int)column->top - 1 != (int)chart->mean_y)
        g_assert_false (is_state_color (tes_test_pixel (surface, mid, (int)column->top - 1)));
      if (busiest == NULL || share[column->least] > share[busiest->least])
        busiest = column;
      if (idlest == NULL || share[column->least] < share[idlest->least])
        idlest = column;
    }

  /* the busiest tile's column is taller than the least busy's, by what
   * their shares say */
  for (int y = top; y < top + (int)TES_TILE_CHART_HEIGHT; y++)
    {
      busiest_px += is_state_color (tes_test_pixel (surface, (int)(busiest->x + 1), y));
      idlest_px += is_state_color (tes_test_pixel (surface, (int)(idlest->x + 1), y));
    }
  g_assert_cmpint (busiest_px, >, idlest_px);
  g_assert_cmpint (ABS (busiest_px - (int)(TES_TILE_CHART_HEIGHT * share[busiest->least])), <=, 2);
  g_assert_cmpint (ABS (idlest_px - (int)(TES_TILE_CHART_HEIGHT * share[idlest->least])), <=, 2);

  /* the dashed mean: its row mostly ink (five on, three off), not the
   * rows beside it */
  dashes = count_in_row (surface, (int)chart->mean_y, (int)plot_x, (int)(plot_x + plot_w), 0x241f31);
  g_assert_cmpuint (dashes, >, plot_w / 2);
  g_assert_cmpuint (dashes, <, plot_w * 0.7);
  g_assert_cmpuint (count_in_row (surface, (int)chart->mean_y - 1, (int)plot_x, (int)(plot_x + plot_w), 0x241f31),
                    <, plot_w / 8);
  g_assert_cmpuint (count_in_row (surface, (int)chart->mean_y + 1, (int)plot_x, (int)(plot_x + plot_w), 0x241f31),
                    <, plot_w / 8);

  cairo_surface_destroy (surface);
}

/* The picture: each slice in its name's colour where the frame put it,
 * nothing between them, the names column and the ruler inked. */
static void
test_trace_render (void)
{
  g_autoptr(TesReport) report = open_trace ();
  g_autoptr(TesWorkspace) workspace = tes_workspace_new (report);
  g_autoptr(TesTraceFrame) frame = NULL;
  g_autoptr(GError) error = NULL;
  cairo_surface_t *surface;
  const TesTraceLane *a0, *b0;
  TesTraceScale scale;
  cairo_t *cr;
  double row_y;
  guint32 conv_rgb = tes_share_chart_palette[tes_trace_color_index ("conv")];
  guint32 sync_rgb = tes_share_chart_palette[tes_trace_color_index ("sync")];
  guint inked = 0;

  tes_workspace_set_visible (workspace, 1000000, 2000000);
  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 1200, 400);
  cr = cairo_create (surface);
  g_assert_true (tes_trace_render (workspace, TES_TRACE_FLAT, cr, 1200, 400, &error));
  g_assert_no_error (error);
  cairo_destroy (cr);
  cairo_surface_flush (surface);

  tes_trace_scale_init (&scale, 1000000, 2000000, 1200);
  frame = build_frame (report, &scale, TES_TRACE_FLAT, 400);
  a0 = find_lane (frame->lanes, report, "Device A", "core 0");
  b0 = find_lane (frame->lanes, report, "Device B", "core 0");

  /* conv [1000, 1100) µs: 1000 px for 1000 µs, so x 200..300; its top
   * row keeps its colour on the right, where no text is */
  row_y = TES_TRACE_RULER_HEIGHT + a0->y + 2 + TES_TRACE_ROW_HEIGHT - 4;
  g_assert_cmphex (tes_test_pixel (surface, 295, (int)row_y), ==, conv_rgb);
  /* between conv and add (1100 to 1200 µs): the lane's background */
  g_assert_cmphex (tes_test_pixel (surface, 350, (int)row_y), !=, conv_rgb);
  /* sync [1500, 2000) on Device B's core 0: x 700..1200 */
  row_y = TES_TRACE_RULER_HEIGHT + b0->y + 2 + TES_TRACE_ROW_HEIGHT - 4;
  g_assert_cmphex (tes_test_pixel (surface, 1150, (int)row_y), ==, sync_rgb);
  g_assert_cmphex (tes_test_pixel (surface, 650, (int)row_y), !=, sync_rgb);

  /* names and ruler labels are drawn */
  for (int y = 0; y < 400; y++)
    for (int x = 0; x < (int)TES_TRACE_LABEL_WIDTH; x++)
      inked += tes_test_pixel (surface, x, y) < 0x808080;
  g_assert_cmpuint (inked, >, 100);

  cairo_surface_destroy (surface);
}

static guint
count_matches (TesReport  *report,
               const char *pattern,
               gboolean    is_regex)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) matches = tes_report_search (report, pattern, is_regex, NULL, &error);

  g_assert_no_error (error);

  return matches->len;
}

/* Search: names, categories and argument texts, in any ASCII case, or a
 * regular expression; matches in start order per track. */
static void
test_trace_search (void)
{
  g_autoptr(TesReport) report = open_trace ();
  g_autoptr(GArray) matches = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpuint (count_matches (report, "conv", FALSE), ==, 1);
  g_assert_cmpuint (count_matches (report, "CONV", FALSE), ==, 1);
  /* the category "op": conv, add and the thousand tiny ones */
  g_assert_cmpuint (count_matches (report, "op", FALSE), ==, 1002);
  g_assert_cmpuint (count_matches (report, "/^s/", FALSE), ==, 0);
  g_assert_cmpuint (count_matches (report, "^s", TRUE), ==, 1);
  g_assert_cmpuint (count_matches (report, "^(dma|sync)$", TRUE), ==, 2);
  /* argument texts: a value, and a key in another case */
  g_assert_cmpuint (count_matches (report, "1216", FALSE), ==, 1);
  g_assert_cmpuint (count_matches (report, "TILES", FALSE), ==, 1);
  g_assert_cmpuint (count_matches (report, "tiles\\W+1216", TRUE), ==, 1);
  g_assert_cmpuint (count_matches (report, "", FALSE), ==, 0);
  g_assert_cmpuint (count_matches (report, "no such thing", FALSE), ==, 0);

  matches = tes_report_search (report, "tiny", FALSE, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (matches->len, ==, 1000);
  for (guint i = 0; i < matches->len; i++)
    {
      const TesSearchMatch *match = &g_array_index (matches, TesSearchMatch, i);

      g_assert_cmpuint (match->index, ==, i);
      g_assert_cmpint (match->start, ==, 2000000 + i * 200);
    }
  g_clear_pointer (&matches, g_array_unref);

  g_assert_null (tes_report_search (report, "(unclosed", TRUE, NULL, &error));
  g_assert_error (error, G_REGEX_ERROR, G_REGEX_ERROR_UNMATCHED_PARENTHESIS);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *)a, *(const char * const *)b);
}

/* The search against Python's own scan of a generated trace
 * (tests/search_expected.py reads the JSON): names, categories and
 * argument texts, patterns that hit a name, a category, only an argument
 * text, nothing, a value of no letters, regular expressions; every match,
 * in track then start order, as the chunks' search summaries let the
 * search skip blocks. */
static void
test_trace_search_python (void)
{
  static const char * const patterns[] = {
    "softmax", "SOFTMAX", "conv", "op", "dma", "OnTile", "exchange", "ftmax\",\"by",
    "Softmax\"", "\"bytes\":1234", "99999", "xyzzy", "gelu\",\"bytes\":1", "\":\"",
    "re:^(sync|gelu)$", "re:bytes.:1[0-9]{6}\\}", "re:^$",
  };
  g_autofree char *trace = tes_test_tmp_path ("search-python.json");
  g_autofree char *gen = g_test_build_filename (G_TEST_DIST, "..", "bench", "gen-chrome-trace.py", NULL);
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "search_expected.py", NULL);
  g_autofree char *python = g_strdup (g_getenv ("PYTHON3"));
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GHashTable) names = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify)g_array_unref);
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  TesReportCounts counts;
  JsonObject *expected;
  int status;

  if (python == NULL)
    python = g_find_program_in_path ("python3");
  g_assert_nonnull (python);
  {
    const char *gen_argv[] = { python, gen, "--events", "120000", "--seed", "5", "--out", trace, NULL };

    if (!tes_test_run (gen_argv, NULL, &err, &status))
      g_error ("gen-chrome-trace.py failed (%d): %s", status, err);
    g_clear_pointer (&err, g_free);
  }
  g_ptr_array_add (argv, python);
  g_ptr_array_add (argv, script);
  g_ptr_array_add (argv, trace);
  for (guint i = 0; i < G_N_ELEMENTS (patterns); i++)
    g_ptr_array_add (argv, (gpointer)patterns[i]);
  g_ptr_array_add (argv, NULL);
  if (!tes_test_run ((const char * const *)argv->pdata, &out, &err, &status))
    g_error ("search_expected.py failed (%d): %s", status, err);
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  expected = json_node_get_object (json_parser_get_root (parser));

  report = tes_report_import (trace, tes_importer_registry_lookup ("chrome-json"),
                              TES_REPORT_OPEN_NONE, NULL, NULL, &error);
  g_assert_no_error (error);
  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_slices, ==, 120000);

  for (guint i = 0; i < G_N_ELEMENTS (patterns); i++)
    {
      gboolean is_regex = g_str_has_prefix (patterns[i], "re:");
      g_autoptr(GArray) matches = tes_report_search (report, patterns[i] + (is_regex ? 3 : 0), is_regex, NULL, &error);
      JsonArray *want = json_object_get_array_member (expected, patterns[i]);
      g_autoptr(GPtrArray) got = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GPtrArray) wanted = g_ptr_array_new_with_free_func (g_free);

      g_assert_no_error (error);
      g_test_message ("%s: %u matches, Python finds %u", patterns[i], matches->len, json_array_get_length (want));

      for (guint m = 0; m < matches->len; m++)
        {
          const TesSearchMatch *match = &g_array_index (matches, TesSearchMatch, m);
          GArray *slices = g_hash_table_lookup (names, GSIZE_TO_POINTER ((gsize)match->track_id));
          const TesSlice *slice;

          if (m > 0)
            {
              const TesSearchMatch *before = &g_array_index (matches, TesSearchMatch, m - 1);

              g_assert_true (before->track_id < match->track_id ||
                             (before->track_id == match->track_id && before->index < match->index));
            }
          if (slices == NULL)
            {
              slices = tes_report_get_slices (report, match->track_id, G_MININT64, G_MAXINT64, &error);
              g_assert_no_error (error);
              g_hash_table_insert (names, GSIZE_TO_POINTER ((gsize)match->track_id), slices);
            }
          g_assert_cmpuint (match->index, <, slices->len);
          slice = &g_array_index (slices, TesSlice, match->index);
          g_assert_cmpuint (slice->index, ==, match->index);
          g_assert_cmpint (slice->start, ==, match->start);
          g_ptr_array_add (got, g_strdup_printf ("%020" G_GINT64_FORMAT " %s", match->start,
                                                 tes_report_get_string (report, slice->name)));
        }
      for (guint m = 0; m < json_array_get_length (want); m++)
        {
          JsonArray *row = json_array_get_array_element (want, m);

          g_ptr_array_add (wanted, g_strdup_printf ("%020" G_GINT64_FORMAT " %s", json_array_get_int_element (row, 0),
                                                    json_array_get_string_element (row, 1)));
        }
      g_ptr_array_sort (got, compare_strings);
      g_ptr_array_sort (wanted, compare_strings);
      g_assert_cmpuint (got->len, ==, wanted->len);
      for (guint m = 0; m < got->len; m++)
        g_assert_cmpstr (g_ptr_array_index (got, m), ==, g_ptr_array_index (wanted, m));
    }

  /* the patterns cover every kind of outcome */
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (expected, "xyzzy")), ==, 0);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (expected, "op")), ==, 120000);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (expected, "ftmax\",\"by")), >, 0);
}

/* The matches as the trace steps through and greys them. */
static void
test_trace_matches (void)
{
  g_autoptr(TesReport) report = open_trace ();
  g_autoptr(GArray) found = tes_report_search (report, "^(conv|sync|tiny)$", TRUE, NULL, NULL);
  g_autoptr(TesTraceMatches) matches = tes_trace_matches_new (report, found);
  g_autofree char *pattern = NULL;
  const TesTraceMatch *first, *last;
  gint64 tiny_track;
  gboolean is_regex;

  g_assert_cmpuint (tes_trace_matches_get_n (matches), ==, 1002);

  /* in time order across lanes: conv at 1000 µs, sync at 1500, tiny from 2000 */
  first = tes_trace_matches_get (matches, 0);
  g_assert_cmpint (first->start, ==, 1000000);
  g_assert_cmpint (tes_trace_matches_get (matches, 1)->start, ==, 1500000);
  last = tes_trace_matches_get (matches, 1001);
  g_assert_cmpint (last->start, ==, 2000000 + 999 * 200);
  g_assert_cmpuint (last->index, ==, 999);
  tiny_track = last->track_id;

  g_assert_true (tes_trace_matches_has_slice (matches, first->track_id, first->index));
  g_assert_false (tes_trace_matches_has_slice (matches, first->track_id, first->index + 1));  /* dma */
  g_assert_true (tes_trace_matches_any_between (matches, tiny_track, 2000150, 2000250));
  g_assert_false (tes_trace_matches_any_between (matches, tiny_track, 2000201, 2000399));
  g_assert_false (tes_trace_matches_any_between (matches, tiny_track, 0, 2000000));

  g_assert_cmpuint (tes_trace_matches_first_after (matches, 1200000), ==, 1);
  g_assert_cmpuint (tes_trace_matches_first_after (matches, 3000000), ==, 1002);

  /* stepping: from none, +1 is the first and -1 the last; wraps */
  g_assert_cmpuint (tes_trace_matches_step (matches, -1, 1), ==, 0);
  g_assert_cmpuint (tes_trace_matches_step (matches, -1, -1), ==, 1001);
  g_assert_cmpuint (tes_trace_matches_step (matches, -1, 10), ==, 9);
  g_assert_cmpuint (tes_trace_matches_step (matches, 1001, 1), ==, 0);
  g_assert_cmpuint (tes_trace_matches_step (matches, 3, -10), ==, 995);

  g_assert_true (tes_trace_parse_search ("/^a+$/", &pattern, &is_regex));
  g_assert_true (is_regex);
  g_assert_cmpstr (pattern, ==, "^a+$");
  g_clear_pointer (&pattern, g_free);
  g_assert_true (tes_trace_parse_search ("a/b", &pattern, &is_regex));
  g_assert_false (is_regex);
  g_clear_pointer (&pattern, g_free);
  g_assert_false (tes_trace_parse_search ("//", &pattern, &is_regex));
}

static const TesTraceStat *
find_stat (GPtrArray  *stats,
           const char *name)
{
  for (guint i = 0; i < stats->len; i++)
    if (g_str_equal (((TesTraceStat *)g_ptr_array_index (stats, i))->name, name))
      return g_ptr_array_index (stats, i);

  return NULL;
}

static char *
format_ns (gint64   ns,
           gpointer data)
{
  return g_strdup_printf ("%" G_GINT64_FORMAT, ns);
}

/* The Summary tab: per name over a range, each device's time by
 * category, one operator's durations in bins. */
static void
test_trace_summary (void)
{
  g_autoptr(TesReport) report = open_trace ();
  g_autoptr(GPtrArray) stats = NULL;
  g_autoptr(GPtrArray) half = NULL;
  g_autoptr(GPtrArray) proportions = NULL;
  g_autoptr(GArray) durations = NULL;
  g_autoptr(GArray) spread = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) bins = NULL;
  g_autofree char *text = NULL;
  const TesTraceStat *conv, *add;
  const TesTraceProportion *a, *b;
  g_autoptr(GError) error = NULL;
  guint total = 0;

  stats = tes_trace_summary_stats (report, 1000000, 1999999, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (stats->len, ==, 4);
  /* largest total first: sync 500 µs, add 300, conv 100, dma 50 */
  g_assert_cmpstr (((TesTraceStat *)g_ptr_array_index (stats, 0))->name, ==, "sync");
  conv = find_stat (stats, "conv");
  g_assert_cmpint (conv->count, ==, 1);
  g_assert_cmpint (conv->total, ==, 100000);
  g_assert_cmpint (conv->self, ==, 50000);
  g_assert_cmpint (conv->mean, ==, 100000);
  g_assert_cmpint (conv->min, ==, 100000);
  g_assert_cmpint (conv->max, ==, 100000);

  /* a range that cuts add in two: its total is what lies inside, its
   * mean, min and max are of the whole slice */
  half = tes_trace_summary_stats (report, 1000000, 1350000, NULL, &error);
  add = find_stat (half, "add");
  g_assert_cmpint (add->total, ==, 150000);
  g_assert_cmpint (add->max, ==, 300000);
  g_assert_null (find_stat (half, "sync"));

  /* Device A: op 350 µs (conv's self and add), dma 50 µs; Device B has
   * one category, so its names stand in */
  proportions = tes_trace_summary_proportions (report, 1000000, 1999999, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (proportions->len, ==, 2);
  a = g_ptr_array_index (proportions, 0);
  b = g_ptr_array_index (proportions, 1);
  g_assert_cmpstr (a->device, ==, "Device A");
  g_assert_cmpint (a->busy, ==, 400000);
  g_assert_cmpuint (a->shares->len, ==, 2);
  g_assert_cmpstr (g_array_index (a->shares, TesTraceShare, 0).category, ==, "op");
  g_assert_cmpfloat_with_epsilon (g_array_index (a->shares, TesTraceShare, 0).share, 87.5, 1e-9);
  g_assert_cmpfloat_with_epsilon (g_array_index (a->shares, TesTraceShare, 1).share, 12.5, 1e-9);
  g_assert_cmpstr (b->device, ==, "Device B");
  g_assert_cmpstr (g_array_index (b->shares, TesTraceShare, 0).category, ==, "sync");

  text = tes_trace_summary_to_text (stats, proportions, format_ns, NULL);
  tes_test_assert_contains (text, "conv\t1\t100000\t50000\t100000\t100000\t100000\n");
  tes_test_assert_contains (text, "Device A: op 87.5% dma 12.5%\n");
  /* counts grouped, as every figure the window shows */
  {
    TesTraceStat many = { (char *)"kernel", 0, 1234567, 0, 0, 0, 0, 0 };
    g_autoptr(GPtrArray) one = g_ptr_array_new ();
    g_autofree char *many_text = NULL;

    g_ptr_array_add (one, &many);
    many_text = tes_trace_summary_to_text (one, NULL, format_ns, NULL);
    tes_test_assert_contains (many_text, "kernel\t1,234,567\t0\t");
  }

  /* every conv of the run, whatever the range */
  durations = tes_report_get_durations (report, find_stat (stats, "conv")->name_id, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (durations->len, ==, 1);
  g_assert_cmpint (g_array_index (durations, gint64, 0), ==, 100000);

  /* 1 ns to 1000 ns: three decades, binned on a log scale */
  for (gint64 d = 1; d <= 1000; d++)
    g_array_append_val (spread, d);
  bins = tes_trace_histogram (spread, 3);
  g_assert_cmpuint (bins->len, ==, 3);
  g_assert_cmpint (g_array_index (bins, TesTraceBin, 0).lo, ==, 1);
  g_assert_cmpint (g_array_index (bins, TesTraceBin, 1).lo, ==, 10);
  g_assert_cmpint (g_array_index (bins, TesTraceBin, 2).lo, ==, 100);
  g_assert_cmpuint (g_array_index (bins, TesTraceBin, 0).count, ==, 9);
  g_assert_cmpuint (g_array_index (bins, TesTraceBin, 1).count, ==, 90);
  for (guint i = 0; i < bins->len; i++)
    total += g_array_index (bins, TesTraceBin, i).count;
  g_assert_cmpuint (total, ==, 1000);
}

/* `tessera-cli render --view flame --range … --unit …` is the section's
 * own picture, pixel for pixel; what cannot be drawn is refused. */
static void
test_trace_cli_render (void)
{
  g_autofree char *path = tes_test_write_trace ("cli-trace.json");
  g_autofree char *png = tes_test_tmp_path ("flame.png");
  g_autoptr(TesReport) report = NULL;
  g_autoptr(TesWorkspace) workspace = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(TesCliResult) r = { 0 };
  cairo_surface_t *expected, *got;
  cairo_t *cr;

  tes_test_run_cli (&r, "render", "--view", "flame", "--range", "0:600us", "--unit", "ns",
                    "--width", "800", "--height", "300", "--out", png, path, NULL);
  g_assert_cmpint (r.status, ==, 0);
  got = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (got), ==, CAIRO_STATUS_SUCCESS);

  report = tes_report_import (path, tes_importer_registry_lookup ("chrome-json"),
                              TES_REPORT_OPEN_NONE, NULL, NULL, &error);
  g_assert_no_error (error);
  workspace = tes_workspace_new (report);
  tes_workspace_set_time_unit (workspace, TES_TIME_UNIT_NS);
  tes_workspace_set_visible (workspace, TES_TEST_TRACE_ORIGIN_NS, TES_TEST_TRACE_ORIGIN_NS + 600000);
  expected = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 800, 300);
  cr = cairo_create (expected);
  g_assert_true (tes_trace_render (workspace, TES_TRACE_FLAME, cr, 800, 300, &error));
  cairo_destroy (cr);
  cairo_surface_flush (expected);

  g_assert_true (tes_test_same_rows (expected, 0, got, 0, 300));
  cairo_surface_destroy (expected);
  cairo_surface_destroy (got);

  tes_test_run_cli (&r, "render", "--view", "trace", "--range", "5ms", "--out", png, path, NULL);
  g_assert_cmpint (r.status, ==, 2);
  tes_test_assert_contains (r.err, "a range is START:END");
  tes_test_run_cli (&r, "render", "--view", "trace", "--unit", "cycles", "--out", png, path, NULL);
  g_assert_cmpint (r.status, ==, 1);
  tes_test_assert_contains (r.err, "no clock frequency");
}

/* Poplar-like steps written here: a repeating sequence with call paths,
 * External Syncs and SyncAns in the three spellings PopVision's steps
 * take, each 1 µs back to back, then a long stretch of External Syncs so
 * that, zoomed out, they dominate columns of the lane summary. */
static const char *const option_steps[] = {
  "OnTileExecute: layer1/conv/Conv2D",
  "DoExchange: layer1/conv/Exchange",
  "OnTileExecute: layer1/relu/Relu",
  "Sync",
  "OnTileExecute: layer2/dense/MatMul",
  "External Sync",
  "SyncAns",
  "ExternalSync",
};
#define OPTION_REPEATS 500
#define OPTION_TAIL    2000

static TesReport *
open_option_steps (void)
{
  g_autofree char *path = tes_test_tmp_path ("options.json");
  g_autoptr(GString) json = g_string_new ("{\"traceEvents\":[\n"
                                          "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"IPU 0\"}},\n"
                                          "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":2,\"args\":{\"name\":\"IPU 1\"}}");
  g_autoptr(GError) error = NULL;
  TesReport *report;
  guint n = 0;

  for (guint r = 0; r < OPTION_REPEATS; r++)
    for (guint i = 0; i < G_N_ELEMENTS (option_steps); i++, n++)
      g_string_append_printf (json, ",\n{\"ph\":\"X\",\"name\":\"%s\",\"pid\":1,\"tid\":0,\"ts\":%u,\"dur\":1}",
                              option_steps[i], n);
  for (guint i = 0; i < OPTION_TAIL; i++, n++)
    g_string_append_printf (json, ",\n{\"ph\":\"X\",\"name\":\"External Sync\",\"pid\":1,\"tid\":0,\"ts\":%u,\"dur\":1}", n);
  /* IPU 1 ends first: its terminal is its own */
  g_string_append (json, ",\n{\"ph\":\"X\",\"name\":\"Sync\",\"pid\":2,\"tid\":0,\"ts\":0,\"dur\":700}\n]}\n");
  tes_test_write_file (path, json->str, json->len);

  report = tes_report_import (path, tes_importer_registry_lookup ("chrome-json"),
                              TES_REPORT_OPEN_NONE, NULL, NULL, &error);
  g_assert_no_error (error);

  return report;
}

static gboolean
is_external_or_ans (const char *name)
{
  return g_str_equal (name, "External Sync") || g_str_equal (name, "ExternalSync") || g_str_equal (name, "SyncAns");
}

/* The boxes' names on the IPU 0 lane, and how many steps they hold. */
static guint
count_boxes (TesReport           *report,
             const TesTraceFrame *frame,
             guint               *n_hidden,
             guint64             *n_steps)
{
  const TesTraceLane *lane = find_lane (frame->lanes, report, "IPU 0", "Thread 0");
  GArray *boxes;

  if (lane == NULL)
    lane = find_lane (frame->lanes, report, NULL, "IPU 0");
  g_assert_nonnull (lane);
  boxes = g_ptr_array_index (frame->boxes, lane - &g_array_index (frame->lanes, TesTraceLane, 0));
  g_assert_nonnull (boxes);
  *n_hidden = 0;
  *n_steps = 0;
  for (guint i = 0; i < boxes->len; i++)
    {
      const TesTraceBox *box = &g_array_index (boxes, TesTraceBox, i);

      if (box->label != NULL)
        continue;
      *n_steps += box->n_slices;
      if (box->name != 0 && is_external_or_ans (tes_report_get_string (report, box->name)))
        (*n_hidden)++;
    }

  return boxes->len;
}

/* Zoomed out, the IPU 0 lane's boxes come from its summary, a box per
 * run of pixel columns: each starts and ends where its columns do. */
static void
assert_column_times (TesReport           *report,
                     const TesTraceFrame *frame)
{
  const TesTraceLane *lane = find_lane (frame->lanes, report, "IPU 0", "Thread 0");
  double px;
  GArray *boxes;

  if (lane == NULL)
    lane = find_lane (frame->lanes, report, NULL, "IPU 0");
  boxes = g_ptr_array_index (frame->boxes, lane - &g_array_index (frame->lanes, TesTraceLane, 0));
  px = frame->scale.width / ceil (frame->scale.width);
  g_assert_cmpuint (boxes->len, >, 10);
  for (guint i = 0; i < boxes->len; i++)
    {
      const TesTraceBox *box = &g_array_index (boxes, TesTraceBox, i);
      double first = (box->x0 - frame->scale.x0) / px, end = (box->x1 - frame->scale.x0) / px;

      /* on the columns' edges, and timed as they are */
      g_assert_cmpfloat (fabs (first - round (first)), <, 1e-6);
      g_assert_cmpfloat (fabs (end - round (end)), <, 1e-6);
      g_assert_cmpint (box->start, ==, tes_trace_scale_time (&frame->scale, frame->scale.x0 + round (first) * px));
      g_assert_cmpint (box->start + box->dur, ==, tes_trace_scale_time (&frame->scale, frame->scale.x0 + round (end) * px));
    }
}

/* Show External Syncs and Show SyncAns leave those steps out of the lanes,
 * slice by slice zoomed in and column by column zoomed out. */
static void
test_trace_hide_steps (void)
{
  g_autoptr(TesReport) report = open_option_steps ();
  TesTraceHide both = TES_TRACE_HIDE_EXTERNAL_SYNCS | TES_TRACE_HIDE_SYNC_ANS;
  guint64 n_steps;
  guint n_hidden;
  TesTraceScale scale;

  g_assert_cmpint (tes_trace_step_kind ("External Sync"), ==, TES_TRACE_HIDE_EXTERNAL_SYNCS);
  g_assert_cmpint (tes_trace_step_kind ("externalsync"), ==, TES_TRACE_HIDE_EXTERNAL_SYNCS);
  g_assert_cmpint (tes_trace_step_kind ("SyncAns"), ==, TES_TRACE_HIDE_SYNC_ANS);
  g_assert_cmpint (tes_trace_step_kind ("Sync ANS"), ==, TES_TRACE_HIDE_SYNC_ANS);
  g_assert_cmpint (tes_trace_step_kind ("block-flush"), ==, TES_TRACE_HIDE_BUFFER_FLUSHES);
  g_assert_cmpint (tes_trace_step_kind ("Sync"), ==, 0);
  g_assert_cmpint (tes_trace_step_kind ("OnTileExecute: layer1/ExternalSync"), ==, 0);
  g_assert_cmpint (tes_trace_hideable (report), ==, both);

  /* zoomed in, slice by slice: the first 80 steps over 1000 px */
  tes_trace_scale_init (&scale, 0, 80000, TES_TRACE_LABEL_WIDTH + 1000);
  for (guint pass = 0; pass < 2; pass++)
    {
      TesTraceRequest request = { .scale = scale, .view_height = 1000, .hide = pass ? both : 0 };
      g_autoptr(TesTraceFrame) frame = tes_trace_frame_build (report, &request, NULL, NULL);

      g_assert_nonnull (frame);
      g_assert_cmpuint (frame->n_slices_read, >, 0);
      count_boxes (report, frame, &n_hidden, &n_steps);
      /* 10 repeats of 8 steps (and the edge's neighbour): 3 of 8 hidden */
      if (pass == 0)
        {
          g_assert_cmpuint (n_hidden, >=, 30);
          g_assert_cmpuint (n_steps, >=, 80);
        }
      else
        {
          g_assert_cmpuint (n_hidden, ==, 0);
          g_assert_cmpuint (n_steps, >=, 50);
          g_assert_cmpuint (n_steps, <=, 52);
        }
    }

  /* zoomed out, from the lane summaries: the tail's External Syncs fill
   * columns of their own, gone when hidden */
  tes_trace_scale_init (&scale, 0, (OPTION_REPEATS * G_N_ELEMENTS (option_steps) + OPTION_TAIL) * 1000,
                        TES_TRACE_LABEL_WIDTH + 300);
  for (guint pass = 0; pass < 2; pass++)
    {
      TesTraceRequest request = { .scale = scale, .view_height = 1000, .hide = pass ? both : 0 };
      g_autoptr(TesTraceFrame) frame = tes_trace_frame_build (report, &request, NULL, NULL);

      g_assert_nonnull (frame);
      g_assert_cmpuint (frame->n_slices_read, ==, 1);   /* IPU 1's one slice */
      assert_column_times (report, frame);
      count_boxes (report, frame, &n_hidden, &n_steps);
      if (pass == 0)
        g_assert_cmpuint (n_hidden, >, 0);
      else
        g_assert_cmpuint (n_hidden, ==, 0);
    }
}

/* Group Executions: a box per level of the steps' call paths, on rows
 * above the steps, for consecutive steps sharing the prefix. */
static void
test_trace_group_executions (void)
{
  g_autoptr(TesReport) report = open_option_steps ();
  TesTraceLaneState state = { .group_levels = tes_trace_path_levels (report) };
  TesTraceScale scale;
  gsize len = 0;

  g_assert_null (tes_trace_step_path ("Sync", 0, &len));
  g_assert_nonnull (tes_trace_step_path ("OnTileExecute: a/b/c", 1, &len));
  g_assert_cmpuint (len, ==, 3);
  g_assert_null (tes_trace_step_path ("OnTileExecute: a/b/c", 2, &len));
  g_assert_null (tes_trace_step_path ("/usr", 0, &len));
  /* layer1/conv/Conv2D: two levels above the step */
  g_assert_cmpuint (state.group_levels, ==, 2);

  /* the first two repeats (16 steps) over 1600 px, flat */
  tes_trace_scale_init (&scale, 0, 16000, TES_TRACE_LABEL_WIDTH + 1600);
  {
    TesTraceRequest request = { .scale = scale, .view_height = 1000, .lanes = &state };
    g_autoptr(TesTraceFrame) frame = tes_trace_frame_build (report, &request, NULL, NULL);
    const TesTraceLane *lane = find_lane (frame->lanes, report, "IPU 0", "Thread 0");
    GArray *boxes;
    /* each repeat: row 0 "layer1" (3 steps) and "layer2" (1); row 1
     * "layer1/conv" (2), "layer1/relu" (1), "layer2/dense" (1) */
    static const struct { guint row; const char *path; guint n; gint64 start; gint64 dur; } want[] = {
      { 0, "layer1", 3, 0, 3000 }, { 0, "layer2", 1, 4000, 1000 },
      { 1, "layer1/conv", 2, 0, 2000 }, { 1, "layer1/relu", 1, 2000, 1000 }, { 1, "layer2/dense", 1, 4000, 1000 },
    };
    guint found[G_N_ELEMENTS (want)] = { 0 };
    guint n_groups = 0;

    if (lane == NULL)
      lane = find_lane (frame->lanes, report, NULL, "IPU 0");
    g_assert_nonnull (lane);
    g_assert_cmpuint (lane->n_rows, ==, 3);
    boxes = g_ptr_array_index (frame->boxes, lane - &g_array_index (frame->lanes, TesTraceLane, 0));
    for (guint i = 0; i < boxes->len; i++)
      {
        const TesTraceBox *box = &g_array_index (boxes, TesTraceBox, i);
        g_autofree char *path = box->label ? g_strndup (box->label, box->label_len) : NULL;

        if (path == NULL)
          {
            g_assert_cmpuint (box->row, ==, 2);   /* the steps, under their groups */
            continue;
          }
        n_groups++;
        for (guint w = 0; w < G_N_ELEMENTS (want); w++)
          for (guint r = 0; r < 2; r++)
            if (box->row == want[w].row && g_str_equal (path, want[w].path) &&
                box->start == want[w].start + r * 8000)
              {
                g_assert_cmpuint (box->n_slices, ==, want[w].n);
                g_assert_cmpint (box->dur, ==, want[w].dur);
                found[w]++;
              }
      }
    g_assert_cmpuint (n_groups, ==, 2 * G_N_ELEMENTS (want));
    for (guint w = 0; w < G_N_ELEMENTS (want); w++)
      g_assert_cmpuint (found[w], ==, 2);
  }

  /* zoomed out, the groups follow the columns' dominant steps: still on
   * their rows, no wider than the run */
  tes_trace_scale_init (&scale, 0, (OPTION_REPEATS * G_N_ELEMENTS (option_steps) + OPTION_TAIL) * 1000,
                        TES_TRACE_LABEL_WIDTH + 300);
  {
    TesTraceRequest request = { .scale = scale, .view_height = 1000, .lanes = &state };
    g_autoptr(TesTraceFrame) frame = tes_trace_frame_build (report, &request, NULL, NULL);
    const TesTraceLane *lane = find_lane (frame->lanes, report, "IPU 0", "Thread 0");
    GArray *boxes;

    if (lane == NULL)
      lane = find_lane (frame->lanes, report, NULL, "IPU 0");
    boxes = g_ptr_array_index (frame->boxes, lane - &g_array_index (frame->lanes, TesTraceLane, 0));
    for (guint i = 0; i < boxes->len; i++)
      {
        const TesTraceBox *box = &g_array_index (boxes, TesTraceBox, i);

        g_assert_cmpuint (box->row, <, 3);
        g_assert_true ((box->label != NULL) == (box->row < 2));
        g_assert_cmpfloat (box->x1, <=, TES_TRACE_LABEL_WIDTH + 300 + 1);
      }
  }
}

/* Group Executions on a Poplar text report's steps ("OnTileExecute:
 * Pipeline/Stage0/MatMul/Conv_1/Convolve"): IPU 0's groups, with the
 * cycles summary_report_sdk2_popart_2ipus.txt prints for its steps 1-9
 * (880, 1,210,440, 640, 3,120, 186,220, 42,910, 51,234, 3,120, 2,491,436). */
static void
test_trace_group_poplar_steps (void)
{
  g_autofree char *path = tes_test_data_path ("poplar/summary_report_sdk2_popart_2ipus.txt");
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TesTraceFrame) frame = NULL;
  TesTraceLaneState state = { 0 };
  const TesTraceLane *lane;
  const TesTrack *track;
  TesTraceScale scale;
  GArray *boxes;
  /* the groups: row, path, first and last step (1-based), by their cycles */
  static const struct { guint row; const char *path; gint64 from; gint64 to; guint n; } want[] = {
    { 0, "WeightsFromHost", 880, 880 + 1210440, 1 },
    { 0, "Pipeline", 1215080, 1215080 + 186220 + 42910 + 51234, 3 },
    { 1, "Pipeline/Stage0", 1215080, 1215080 + 186220 + 42910, 2 },
    { 2, "Pipeline/Stage0/MatMul", 1215080, 1215080 + 186220 + 42910, 2 },
    { 3, "Pipeline/Stage0/MatMul/Conv_1", 1215080, 1215080 + 186220, 1 },
  };
  guint found = 0, n_groups = 0;

  report = tes_report_import (path, tes_importer_registry_lookup ("poplar-report"),
                              TES_REPORT_OPEN_NONE, NULL, NULL, &error);
  g_assert_no_error (error);
  state.group_levels = tes_trace_path_levels (report);
  g_assert_cmpuint (state.group_levels, ==, 4);

  track = tes_test_find_track (report, NULL, "IPU 0");
  g_assert_nonnull (track);
  tes_trace_scale_init (&scale, tes_report_convert_time (report, track->clock_id, 0, 0),
                        tes_report_convert_time (report, track->clock_id, 0, 3990000), TES_TRACE_LABEL_WIDTH + 4000);
  {
    TesTraceRequest request = { .scale = scale, .view_height = 2000, .lanes = &state };

    frame = tes_trace_frame_build (report, &request, NULL, &error);
    g_assert_no_error (error);
  }
  lane = find_lane (frame->lanes, report, NULL, "IPU 0");
  g_assert_nonnull (lane);
  g_assert_cmpuint (lane->n_rows, ==, 5);
  boxes = g_ptr_array_index (frame->boxes, lane - &g_array_index (frame->lanes, TesTraceLane, 0));
  for (guint i = 0; i < boxes->len; i++)
    {
      const TesTraceBox *box = &g_array_index (boxes, TesTraceBox, i);
      g_autofree char *group = box->label ? g_strndup (box->label, box->label_len) : NULL;

      if (group == NULL)
        continue;
      n_groups++;
      for (guint w = 0; w < G_N_ELEMENTS (want); w++)
        if (box->row == want[w].row && g_str_equal (group, want[w].path))
          {
            g_assert_cmpint (box->start, ==, tes_report_convert_time (report, track->clock_id, 0, want[w].from));
            g_assert_cmpint (box->start + box->dur, ==, tes_report_convert_time (report, track->clock_id, 0, want[w].to));
            g_assert_cmpuint (box->n_slices, ==, want[w].n);
            found++;
          }
    }
  g_assert_cmpuint (found, ==, G_N_ELEMENTS (want));
  g_assert_cmpuint (n_groups, ==, G_N_ELEMENTS (want));
}

/* Show Terminals: each process's end, from its lanes' last slices. */
static void
test_trace_terminals (void)
{
  g_autoptr(TesReport) report = open_option_steps ();
  TesTraceScale scale;
  TesTraceRequest request = { .view_height = 1000, .show_terminals = TRUE };
  g_autoptr(TesTraceFrame) frame = NULL;
  guint n = 0;

  tes_trace_scale_init (&scale, 0, 10000000, TES_TRACE_LABEL_WIDTH + 1000);
  request.scale = scale;
  frame = tes_trace_frame_build (report, &request, NULL, NULL);
  g_assert_nonnull (frame->terminals);
  for (guint i = 0; i < frame->terminals->len; i++)
    {
      const TesTraceTerminal *t = &g_array_index (frame->terminals, TesTraceTerminal, i);
      const char *name = tes_report_get_track (report, t->track_id)->name;

      if (g_str_equal (name, "IPU 0"))
        {
          g_assert_cmpint (t->end, ==, (OPTION_REPEATS * G_N_ELEMENTS (option_steps) + OPTION_TAIL) * 1000);
          n++;
        }
      else if (g_str_equal (name, "IPU 1"))
        {
          g_assert_cmpint (t->end, ==, 700000);
          n++;
        }
    }
  g_assert_cmpuint (n, ==, 2);

  request.show_terminals = FALSE;
  g_clear_pointer (&frame, tes_trace_frame_free);
  frame = tes_trace_frame_build (report, &request, NULL, NULL);
  g_assert_null (frame->terminals);
}

/* Lightweight Profiling's options on blocks of a profile.pop export:
 * buffer flushes left out, and the ruler counting from the first block. */
static void
test_trace_lwp_options (void)
{
  g_autofree char *fixture = tes_test_data_path ("poplar/profile_small.tessera-pop.jsonl");
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  g_autofree char *path = tes_test_tmp_path ("lwp.tessera-pop.jsonl");
  g_autoptr(GString) jsonl = g_string_new (NULL);
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GError) error = NULL;
  gint64 first = 0, clock_hz;
  TesTraceScale scale;
  const TesTrack *tile;

  /* the fixture with blocks of our own for its four: on tile 0 a common
   * block from cycle 5000, a flush, a StreamCopy; StreamCopy blocks only
   * on tiles 1 and 2; a common block on tile 3 */
  g_assert_true (g_file_get_contents (fixture, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (strstr (lines[i], "\"record\":\"block\"") != NULL)
        continue;
      if (strstr (lines[i], "\"record\":\"end\"") != NULL)
        {
          g_autoptr(GString) end = g_string_new (lines[i]);

          g_assert_cmpuint (g_string_replace (end, "\"block\":4", "\"block\":6", 1), ==, 1);
          g_string_append (jsonl,
                           "{\"record\":\"block\",\"ipu\":0,\"tile\":0,\"name\":\"step0\",\"kind\":\"common\",\"from\":5000,\"to\":8000}\n"
                           "{\"record\":\"block\",\"ipu\":0,\"tile\":0,\"name\":\"flush\",\"kind\":\"block-flush\",\"from\":8000,\"to\":9000}\n"
                           "{\"record\":\"block\",\"ipu\":0,\"tile\":0,\"name\":\"step1\",\"kind\":\"stream-copy\",\"from\":9000,\"to\":12000}\n"
                           /* tiles 1 and 2 only took part in the StreamCopy; 3 was selected too */
                           "{\"record\":\"block\",\"ipu\":0,\"tile\":1,\"name\":\"step1\",\"kind\":\"stream-copy\",\"from\":9000,\"to\":12000}\n"
                           "{\"record\":\"block\",\"ipu\":0,\"tile\":2,\"name\":\"step1\",\"kind\":\"stream-copy\",\"from\":9100,\"to\":11900}\n"
                           "{\"record\":\"block\",\"ipu\":0,\"tile\":3,\"name\":\"step0\",\"kind\":\"common\",\"from\":5000,\"to\":8000}\n");
          g_string_append_printf (jsonl, "%s\n", end->str);
          continue;
        }
      if (*lines[i] != '\0')
        g_string_append_printf (jsonl, "%s\n", lines[i]);
    }
  tes_test_write_file (path, jsonl->str, jsonl->len);
  report = tes_report_import (path, tes_importer_registry_lookup ("poplar-export"),
                              TES_REPORT_OPEN_NONE, NULL, NULL, &error);
  g_assert_no_error (error);

  g_assert_true (tes_trace_hideable (report) & TES_TRACE_HIDE_BUFFER_FLUSHES);
  tile = tes_test_find_track (report, "Lightweight Profiling blocks", "IPU 0 tile 0");
  g_assert_nonnull (tile);
  clock_hz = tes_report_get_clock (report, tile->clock_id)->ticks_per_second;
  g_assert_true (tes_trace_lwp_start (report, &first));
  g_assert_cmpint (first, ==, tes_report_convert_time (report, tile->clock_id, 0, 5000));

  tes_trace_scale_init (&scale, tes_report_convert_time (report, tile->clock_id, 0, 0),
                        tes_report_convert_time (report, tile->clock_id, 0, 13000), TES_TRACE_LABEL_WIDTH + 1300);
  for (guint pass = 0; pass < 2; pass++)
    {
      TesTraceRequest request = { .scale = scale, .view_height = 1000,
                                  .hide = pass ? TES_TRACE_HIDE_BUFFER_FLUSHES : 0, .relative_cycles = pass };
      g_autoptr(TesTraceFrame) frame = tes_trace_frame_build (report, &request, NULL, NULL);
      const TesTraceLane *lane = find_lane (frame->lanes, report, "Lightweight Profiling blocks", "IPU 0 tile 0");
      GArray *boxes = g_ptr_array_index (frame->boxes, lane - &g_array_index (frame->lanes, TesTraceLane, 0));
      guint flushes = 0;

      for (guint i = 0; i < boxes->len; i++)
        flushes += g_str_equal (tes_report_get_string (report, g_array_index (boxes, TesTraceBox, i).category),
                                "block-flush");
      g_assert_cmpuint (boxes->len, ==, pass ? 2 : 3);
      g_assert_cmpuint (flushes, ==, pass ? 0 : 1);
      /* the ruler: from the report's start, or from the first block */
      g_assert_cmpint (frame->ruler_origin, ==, pass ? first : frame->origin);
      if (pass)
        {
          g_autoptr(GArray) ticks = tes_trace_ruler_ticks (&frame->scale, frame->ruler_origin,
                                                           TES_TIME_UNIT_CYCLES, clock_hz, 80);

          for (guint i = 0; i < ticks->len; i++)
            {
              const TesTraceTick *tick = &g_array_index (ticks, TesTraceTick, i);

              /* 0 cycles where the first block starts */
              if (tick->label != NULL && g_str_equal (tick->label, "0 cyc"))
                g_assert_cmpfloat (fabs (tick->x - tes_trace_scale_x (&frame->scale, first)), <, 1);
            }
        }
    }

  /* Aggregate StreamCopy Blocks: tiles 1 and 2 in one I/O lane above
   * IPU 0's lanes, holding their two blocks; tiles 0 and 3 stay */
  {
    TesTraceIoEvents *io = tes_trace_io_events (report, &error);
    TesTraceLaneState state = { 0 };
    TesTraceRequest request = { .scale = scale, .view_height = 1000, .lanes = &state };
    g_autoptr(TesTraceFrame) frame = NULL;
    const TesTrack *t1 = tes_test_find_track (report, "Lightweight Profiling blocks", "IPU 0 tile 1");
    const TesTrack *t2 = tes_test_find_track (report, "Lightweight Profiling blocks", "IPU 0 tile 2");
    const TesTraceLane *io_lane = NULL;
    guint n_io = 0, n_blocks = 0;

    g_assert_no_error (error);
    g_assert_nonnull (io);
    g_assert_cmpuint (g_hash_table_size (io->members), ==, 1);
    g_assert_true (g_hash_table_contains (io->aggregated, GSIZE_TO_POINTER (t1->id)));
    g_assert_true (g_hash_table_contains (io->aggregated, GSIZE_TO_POINTER (t2->id)));
    g_assert_false (g_hash_table_contains (io->aggregated, GSIZE_TO_POINTER (tile->id)));
    g_assert_cmpuint (g_hash_table_size (io->aggregated), ==, 2);

    state.io_events = io;
    frame = tes_trace_frame_build (report, &request, NULL, &error);
    g_assert_no_error (error);
    for (guint i = 0; i < frame->lanes->len; i++)
      {
        const TesTraceLane *lane = &g_array_index (frame->lanes, TesTraceLane, i);

        g_assert_true (lane->io_ipu >= 0 || (lane->track_id != t1->id && lane->track_id != t2->id));
        if (lane->io_ipu >= 0)
          {
            io_lane = lane;
            n_io++;
            /* above the IPU's first lane, tile 0's */
            g_assert_cmpint (g_array_index (frame->lanes, TesTraceLane, i + 1).track_id, ==, tile->id);
            for (guint b = 0; b < ((GArray *)g_ptr_array_index (frame->boxes, i))->len; b++)
              n_blocks += g_array_index ((GArray *)g_ptr_array_index (frame->boxes, i), TesTraceBox, b).n_slices;
          }
      }
    g_assert_cmpuint (n_io, ==, 1);
    g_assert_cmpint (io_lane->io_ipu, ==, 0);
    g_assert_cmpuint (n_blocks, ==, 2);
    g_assert_nonnull (find_lane (frame->lanes, report, "Lightweight Profiling blocks", "IPU 0 tile 3"));
    tes_trace_io_events_free (io);
  }
}

/* What a tooltip shows of a slice's arguments: all of a short text, the
 * first characters of a long one (counted as characters, never cut inside
 * one) and an ellipsis. */
static void
test_trace_tooltip_args (void)
{
  g_autofree char *whole = tes_trace_details_short_args ("{\"op\":\"MatMul\"}", 20);
  g_autofree char *exact = tes_trace_details_short_args ("{\"op\":\"MatMul\"}", 15);
  g_autofree char *cut = tes_trace_details_short_args ("{\"op\":\"MatMul\"}", 6);
  g_autofree char *wide = tes_trace_details_short_args ("{\"Größe\":\"名前🚀\"}", 12);

  g_assert_cmpstr (whole, ==, "{\"op\":\"MatMul\"}");
  g_assert_cmpstr (exact, ==, "{\"op\":\"MatMul\"}");
  g_assert_cmpstr (cut, ==, "{\"op\":…");
  g_assert_cmpstr (wide, ==, "{\"Größe\":\"名前…");
  g_assert_null (tes_trace_details_short_args (NULL, 6));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tes_test_add (TES_TEST_OWN_DATA, "/tes/trace/scale-and-navigation", test_trace_scale_and_navigation);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/trace/ruler", test_trace_ruler);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/trace/run-labels", test_trace_run_labels);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/trace/run-labels-series", test_trace_run_labels_series);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/trace/runs-dense", test_trace_runs_dense);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/trace/format-time", test_trace_format_time);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/trace/lanes", test_trace_lanes);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/trace/merge", test_trace_merge);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/trace/frame-and-hit", test_trace_frame_and_hit);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/trace/overview", test_trace_overview);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/trace/counters-and-flows", test_trace_counters_and_flows);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/trace/tile-balance", test_trace_tile_balance);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/tiles/balance", test_tiles_balance);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/tiles/chart", test_tiles_chart);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/tiles/chart-render", test_tiles_chart_render);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/trace/render", test_trace_render);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/trace/tooltip-args", test_trace_tooltip_args);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/trace/cli-render", test_trace_cli_render);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/trace/search", test_trace_search);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/trace/search-python", test_trace_search_python);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/trace/matches", test_trace_matches);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/trace/summary", test_trace_summary);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/trace/hide-steps", test_trace_hide_steps);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/trace/group-executions", test_trace_group_executions);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/trace/group-poplar-steps", test_trace_group_poplar_steps);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/trace/terminals", test_trace_terminals);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/trace/lwp-options", test_trace_lwp_options);

  return g_test_run ();
}
