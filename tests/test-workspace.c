/* test-workspace.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tes-importer-registry.h"
#include "tes-report-loader.h"
#include "tes-test-util.h"
#include "tes-workspace.h"

/* TesWorkspace: the cursor every view follows. A trace written here with
 * known times: 40 slices of 25 µs, one every 50 µs, from 1 ms to 3 ms. */

#define FIRST_NS   1000000
#define LAST_NS    (FIRST_NS + 39 * 50000 + 25000)

static TesReport *
open_trace (void)
{
  g_autofree char *path = tes_test_tmp_path ("workspace.json");
  g_autoptr(GString) json = g_string_new ("[");
  g_autoptr(GError) error = NULL;
  TesReport *report;

  for (guint i = 0; i < 40; i++)
    g_string_append_printf (json, "%s{\"name\":\"op%u\",\"ph\":\"X\",\"ts\":%u,\"dur\":25,\"pid\":1,\"tid\":1}",
                            i ? "," : "", i % 3, FIRST_NS / 1000 + i * 50);
  g_string_append (json, "]");
  tes_test_write_file (path, json->str, json->len);

  report = tes_report_import (path, tes_importer_registry_lookup ("chrome-json"),
                              TES_REPORT_OPEN_NONE, NULL, NULL, &error);
  g_assert_no_error (error);

  return report;
}

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              guint      *counter)
{
  (*counter)++;
}

static void
test_workspace_visible (void)
{
  g_autoptr(TesReport) report = open_trace ();
  g_autoptr(TesWorkspace) workspace = tes_workspace_new (report);
  gint64 start, end;
  guint notified = 0;

  /* The whole run is visible at first */
  g_assert_true (tes_workspace_get_span (workspace, &start, &end));
  g_assert_cmpint (start, ==, FIRST_NS);
  g_assert_cmpint (end, ==, LAST_NS);
  tes_workspace_get_visible (workspace, &start, &end);
  g_assert_cmpint (start, ==, FIRST_NS);
  g_assert_cmpint (end, ==, LAST_NS);

  g_signal_connect (workspace, "notify::visible-start", G_CALLBACK (count_notify), &notified);
  g_signal_connect (workspace, "notify::visible-end", G_CALLBACK (count_notify), &notified);

  /* Zoom in: both ends move, each notified once */
  tes_workspace_set_visible (workspace, FIRST_NS + 100000, FIRST_NS + 200000);
  tes_workspace_get_visible (workspace, &start, &end);
  g_assert_cmpint (start, ==, FIRST_NS + 100000);
  g_assert_cmpint (end, ==, FIRST_NS + 200000);
  g_assert_cmpuint (notified, ==, 2);

  /* The same range again notifies nothing */
  tes_workspace_set_visible (workspace, FIRST_NS + 100000, FIRST_NS + 200000);
  g_assert_cmpuint (notified, ==, 2);

  /* Panning past the end stops at the end, keeping the width */
  tes_workspace_set_visible (workspace, LAST_NS - 50000, LAST_NS + 50000);
  tes_workspace_get_visible (workspace, &start, &end);
  g_assert_cmpint (end, ==, LAST_NS);
  g_assert_cmpint (end - start, ==, 100000);

  /* Reversed ends are swapped; an empty range is 1 ns wide */
  tes_workspace_set_visible (workspace, FIRST_NS + 700, FIRST_NS + 500);
  tes_workspace_get_visible (workspace, &start, &end);
  g_assert_cmpint (start, ==, FIRST_NS + 500);
  g_assert_cmpint (end, ==, FIRST_NS + 700);
  tes_workspace_set_visible (workspace, FIRST_NS + 900, FIRST_NS + 900);
  tes_workspace_get_visible (workspace, &start, &end);
  g_assert_cmpint (end - start, ==, 1);

  /* Zooming out past the whole run shows the whole run */
  tes_workspace_set_visible (workspace, 0, G_MAXINT64 / 2);
  tes_workspace_get_visible (workspace, &start, &end);
  g_assert_cmpint (start, ==, FIRST_NS);
  g_assert_cmpint (end, ==, LAST_NS);

  tes_workspace_set_visible (workspace, FIRST_NS + 10, FIRST_NS + 20);
  tes_workspace_show_all (workspace);
  tes_workspace_get_visible (workspace, &start, &end);
  g_assert_cmpint (end - start, ==, LAST_NS - FIRST_NS);
}

static void
test_workspace_selection (void)
{
  g_autoptr(TesReport) report = open_trace ();
  g_autoptr(TesWorkspace) workspace = tes_workspace_new (report);
  TesSliceRef refs[2] = { { 1, 4 }, { 1, 9 } };
  const TesSliceRef *selected;
  gint64 start, end;
  guint notified = 0;
  guint n;

  g_assert_false (tes_workspace_get_selection (workspace, NULL, NULL));

  g_signal_connect (workspace, "notify::has-selection", G_CALLBACK (count_notify), &notified);
  tes_workspace_set_selection (workspace, FIRST_NS + 300, FIRST_NS + 100);
  g_assert_true (tes_workspace_get_selection (workspace, &start, &end));
  g_assert_cmpint (start, ==, FIRST_NS + 100);
  g_assert_cmpint (end, ==, FIRST_NS + 300);
  g_assert_cmpuint (notified, ==, 1);
  tes_workspace_set_selection (workspace, FIRST_NS, FIRST_NS + 10);
  g_assert_cmpuint (notified, ==, 1);
  tes_workspace_clear_selection (workspace);
  g_assert_false (tes_workspace_get_selection (workspace, NULL, NULL));
  g_assert_cmpuint (notified, ==, 2);

  notified = 0;
  g_signal_connect (workspace, "notify::selected-slices", G_CALLBACK (count_notify), &notified);
  tes_workspace_set_selected_slices (workspace, refs, 2);
  selected = tes_workspace_get_selected_slices (workspace, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpint (selected[1].track_id, ==, 1);
  g_assert_cmpuint (selected[1].index, ==, 9);
  tes_workspace_set_selected_slices (workspace, refs, 2);
  g_assert_cmpuint (notified, ==, 1);
  tes_workspace_set_selected_slices (workspace, NULL, 0);
  g_assert_cmpuint (notified, ==, 2);

  /* Run, step, IPU and tile: -1 / 0 say none */
  g_assert_cmpint (tes_workspace_get_step (workspace), ==, -1);
  g_assert_cmpint (tes_workspace_get_tile (workspace), ==, -1);
  notified = 0;
  g_signal_connect (workspace, "notify::tile", G_CALLBACK (count_notify), &notified);
  g_object_set (workspace, "tile", 17, NULL);
  tes_workspace_set_tile (workspace, 17);
  g_assert_cmpint (tes_workspace_get_tile (workspace), ==, 17);
  g_assert_cmpuint (notified, ==, 1);
}

static void
test_workspace_time_unit (void)
{
  g_autoptr(TesReport) report = open_trace ();
  g_autoptr(TesWorkspace) workspace = tes_workspace_new (report);
  g_autofree char *why = NULL;
  g_autofree char *text = NULL;

  /* A 2 ms run of plain times reads best in µs; it has no cycles */
  g_assert_cmpint (tes_workspace_get_time_unit (workspace), ==, TES_TIME_UNIT_US);
  g_assert_false (tes_workspace_time_unit_available (workspace, TES_TIME_UNIT_CYCLES, &why));
  g_assert_nonnull (strstr (why, "no clock frequency"));
  tes_workspace_set_time_unit (workspace, TES_TIME_UNIT_CYCLES);
  g_assert_cmpint (tes_workspace_get_time_unit (workspace), ==, TES_TIME_UNIT_US);

  text = tes_workspace_format_duration (workspace, 25000);
  g_assert_cmpstr (text, ==, "25.000 µs");
  g_clear_pointer (&text, g_free);

  tes_workspace_set_time_unit (workspace, TES_TIME_UNIT_MS);
  text = tes_workspace_format_duration (workspace, 1500000);
  g_assert_cmpstr (text, ==, "1.500 ms");
  g_clear_pointer (&text, g_free);

  text = tes_format_duration (1234567, TES_TIME_UNIT_CYCLES);
  g_assert_cmpstr (text, ==, "1,234,567 cycles");
  g_clear_pointer (&text, g_free);
  text = tes_format_duration (-1234, TES_TIME_UNIT_CYCLES);
  g_assert_cmpstr (text, ==, "-1,234 cycles");
  g_clear_pointer (&text, g_free);

  /* every unit groups its thousands, as cycles do */
  text = tes_format_duration (1234567890, TES_TIME_UNIT_US);
  g_assert_cmpstr (text, ==, "1,234,567.890 µs");
  g_clear_pointer (&text, g_free);
  text = tes_format_duration (-1234567890, TES_TIME_UNIT_MS);
  g_assert_cmpstr (text, ==, "-1,234.568 ms");
  g_clear_pointer (&text, g_free);
  text = tes_format_duration (999999, TES_TIME_UNIT_NS);
  g_assert_cmpstr (text, ==, "999,999 ns");
  g_clear_pointer (&text, g_free);
  text = tes_format_grouped_fixed (1234.5, 1);
  g_assert_cmpstr (text, ==, "1,234.5");
  g_clear_pointer (&text, g_free);
  text = tes_format_grouped_fixed (999.96, 1);
  g_assert_cmpstr (text, ==, "1,000.0");
  g_clear_pointer (&text, g_free);

  /* a column of durations up to @largest reads in: */
  g_assert_cmpint (tes_time_unit_readable (9999), ==, TES_TIME_UNIT_NS);
  g_assert_cmpint (tes_time_unit_readable (10000), ==, TES_TIME_UNIT_US);
  g_assert_cmpint (tes_time_unit_readable (9999999), ==, TES_TIME_UNIT_US);
  g_assert_cmpint (tes_time_unit_readable (46876493), ==, TES_TIME_UNIT_MS);
  text = tes_format_in_unit (46876493, TES_TIME_UNIT_MS);
  g_assert_cmpstr (text, ==, "46.876");
}

/* --range START:END: times since the run's start, each in its own unit
 * or the workspace's. */
static void
test_workspace_parse_range (void)
{
  g_autoptr(TesReport) report = open_trace ();
  g_autoptr(TesWorkspace) workspace = tes_workspace_new (report);
  g_autoptr(GError) error = NULL;
  gint64 start = 0, end = 0;

  g_assert_true (tes_workspace_parse_range (workspace, "100:250", &start, &end, &error));
  g_assert_no_error (error);
  g_assert_cmpint (start, ==, FIRST_NS + 100000);
  g_assert_cmpint (end, ==, FIRST_NS + 250000);

  g_assert_true (tes_workspace_parse_range (workspace, "1.5ms : 2ms", &start, &end, &error));
  g_assert_cmpint (start, ==, FIRST_NS + 1500000);
  g_assert_cmpint (end, ==, FIRST_NS + 2000000);
  g_assert_true (tes_workspace_parse_range (workspace, "0ns:0.001s", &start, &end, &error));
  g_assert_cmpint (end, ==, FIRST_NS + 1000000);

  g_assert_false (tes_workspace_parse_range (workspace, "2ms", &start, &end, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (tes_workspace_parse_range (workspace, "2ms:1ms", &start, &end, &error));
  g_assert_nonnull (strstr (error->message, "ends before it starts"));
  g_clear_error (&error);
  g_assert_false (tes_workspace_parse_range (workspace, "1:2parsecs", &start, &end, &error));
  g_assert_nonnull (strstr (error->message, "the unit must be"));
  g_clear_error (&error);
  g_assert_false (tes_workspace_parse_range (workspace, "0:100cycles", &start, &end, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
}

/* A comparison's two workspaces move together. */
static void
test_workspace_link (void)
{
  g_autoptr(TesReport) report = open_trace ();
  g_autoptr(TesWorkspace) a = tes_workspace_new (report);
  g_autoptr(TesWorkspace) b = tes_workspace_new (report);
  gint64 start, end;

  tes_workspace_link (a, b);
  tes_workspace_set_visible (b, FIRST_NS + 5000, FIRST_NS + 9000);
  tes_workspace_get_visible (a, &start, &end);
  g_assert_cmpint (start, ==, FIRST_NS + 5000);
  g_assert_cmpint (end, ==, FIRST_NS + 9000);

  tes_workspace_unlink (a);
  tes_workspace_set_visible (a, FIRST_NS, FIRST_NS + 100);
  tes_workspace_get_visible (b, &start, &end);
  g_assert_cmpint (start, ==, FIRST_NS + 5000);

  /* aligned on a point of each: B shows the same stretch from there */
  tes_workspace_link (a, b);
  tes_workspace_align_link (a, FIRST_NS + 1000, FIRST_NS + 3000);
  tes_workspace_set_visible (a, FIRST_NS + 1000, FIRST_NS + 2000);
  tes_workspace_get_visible (b, &start, &end);
  g_assert_cmpint (start, ==, FIRST_NS + 3000);
  g_assert_cmpint (end, ==, FIRST_NS + 4000);
  tes_workspace_set_visible (b, FIRST_NS + 6000, FIRST_NS + 6500);
  tes_workspace_get_visible (a, &start, &end);
  g_assert_cmpint (start, ==, FIRST_NS + 4000);
  g_assert_cmpint (end, ==, FIRST_NS + 4500);

  /* A finalized partner unlinks itself: the survivor links to nothing,
   * moves alone, and a new partner starts from no offset */
  tes_workspace_link (a, b);
  tes_workspace_align_link (a, FIRST_NS, FIRST_NS + 7000);
  g_assert_true (tes_workspace_get_linked (a) == b);
  g_object_add_weak_pointer (G_OBJECT (b), (gpointer *)&b);
  g_object_unref (b);
  g_assert_null (b);
  g_assert_null (tes_workspace_get_linked (a));
  tes_workspace_set_visible (a, FIRST_NS + 200, FIRST_NS + 300);
  tes_workspace_get_visible (a, &start, &end);
  g_assert_cmpint (start, ==, FIRST_NS + 200);
  g_assert_cmpint (end, ==, FIRST_NS + 300);
  {
    g_autoptr(TesWorkspace) c = tes_workspace_new (report);

    tes_workspace_link (a, c);
    g_assert_true (tes_workspace_get_linked (c) == a);
    tes_workspace_set_visible (a, FIRST_NS + 400, FIRST_NS + 600);
    tes_workspace_get_visible (c, &start, &end);
    g_assert_cmpint (start, ==, FIRST_NS + 400);
    g_assert_cmpint (end, ==, FIRST_NS + 600);
  }
}

/* A run without a timeline (SigmaStar's per-operator times) compared with
 * a trace: the trace keeps its whole run in view, not a 1 ns range. */
static void
test_workspace_link_timeless (void)
{
  g_autoptr(TesReport) trace = open_trace ();
  g_autofree char *path = tes_test_data_path ("yolov8s_op_time_each.txt");
  g_autoptr(TesReport) timeless = tes_test_import (path, tes_importer_registry_lookup ("sigmastar-op-time"));
  g_autoptr(TesWorkspace) a = tes_workspace_new (timeless);
  g_autoptr(TesWorkspace) b = tes_workspace_new (trace);
  gint64 span_start, span_end, start, end;

  g_assert_false (tes_workspace_get_span (a, NULL, NULL));
  g_assert_true (tes_workspace_get_span (b, &span_start, &span_end));
  tes_workspace_link (a, b);
  tes_workspace_get_visible (b, &start, &end);
  g_assert_cmpint (start, ==, span_start);
  g_assert_cmpint (end, ==, span_end);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tes_test_add (TES_TEST_OWN_DATA, "/tes/workspace/visible", test_workspace_visible);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/workspace/selection", test_workspace_selection);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/workspace/time-unit", test_workspace_time_unit);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/workspace/parse-range", test_workspace_parse_range);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/workspace/link", test_workspace_link);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/workspace/link-timeless", test_workspace_link_timeless);

  return g_test_run ();
}
