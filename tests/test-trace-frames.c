/* test-trace-frames.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <time.h>

#include "tes-report-private.h"
#include "tes-test-util.h"
#include "tes-trace-view.h"
#include "tes-trace-view-private.h"
#include "tes-ui-test-util.h"

/* The trace view reads the report off the main thread: over a report
 * whose every query is slowed (as on a slow disk), zooming, panning,
 * scrolling, clicking, arrow keys, the search and tooltips run no query
 * on the main thread and never keep the main loop blocked for more than a
 * frame's 16 ms (when the machine has a core to spare), and the frames
 * drawn in the end are those the synchronous builder (the CLI's) makes for
 * the same request. And a tooltip's long arguments wrap.
 *
 * Blocked is what the main thread waited between two ticks (on a query,
 * a lock, the X server): the time between them less the CPU time it
 * computed meanwhile. What it computed is drawing, GTK's cairo renderer
 * under Xvfb here, whose speed is the host's (7 to 19 ms of it between
 * two ticks on the same code): the test prints it, and `make bench`
 * measures the view's own frames (tes-bench-trace). */

#define QUERY_DELAY_MS 40
#define MAX_BLOCKED_MS 16

/* The longest the main loop went without running a high-priority
 * timeout due every millisecond: in time, in the main thread's own CPU
 * time (what it computed meanwhile, whatever else the machine ran), and
 * the first less the second (what it waited). */
typedef struct
{
  gint64 last;
  gint64 last_cpu;
  gint64 worst;
  gint64 worst_cpu;
  gint64 worst_blocked;
  gint64 phase_worst;
  gint64 phase_worst_cpu;
  gint64 phase_worst_blocked;
} Meter;

static gint64
thread_cpu_time (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);

  return (gint64)ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

static gboolean
meter_tick_cb (gpointer data)
{
  Meter *meter = data;
  gint64 now = g_get_monotonic_time ();
  gint64 cpu = thread_cpu_time ();

  if (meter->last != 0)
    {
      gint64 gap = now - meter->last;
      gint64 computed = cpu - meter->last_cpu;

      meter->worst = MAX (meter->worst, gap);
      meter->worst_cpu = MAX (meter->worst_cpu, computed);
      meter->worst_blocked = MAX (meter->worst_blocked, gap - computed);
      meter->phase_worst = MAX (meter->phase_worst, gap);
      meter->phase_worst_cpu = MAX (meter->phase_worst_cpu, computed);
      meter->phase_worst_blocked = MAX (meter->phase_worst_blocked, gap - computed);
    }
  meter->last = now;
  meter->last_cpu = cpu;

  return G_SOURCE_CONTINUE;
}

/* A tooltip's long line of arguments wraps at about 80 characters, where
 * a plain label keeps it on one line (the tooltip's own label did: a
 * Kineto kernel's arguments ran past the screen's edge). */
static void
test_trace_frames_tooltip_wraps (void)
{
  g_autoptr(GString) markup = g_string_new ("<b>ncclKernel</b>\nkernel\n{");
  GtkWidget *label, *plain;
  int wrapped_width, wrapped_height, plain_width, plain_height;

  for (guint i = 0; i < 30; i++)
    g_string_append_printf (markup, "%s\"registers per thread %u\":%u", i ? "," : "", i, 96 + i);
  g_string_append_c (markup, '}');
  label = g_object_ref_sink (_tes_trace_view_tooltip_label (markup->str));
  plain = g_object_ref_sink (gtk_label_new (NULL));
  gtk_label_set_markup (GTK_LABEL (plain), markup->str);
  gtk_widget_measure (label, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &wrapped_width, NULL, NULL);
  gtk_widget_measure (label, GTK_ORIENTATION_VERTICAL, wrapped_width, NULL, &wrapped_height, NULL, NULL);
  gtk_widget_measure (plain, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &plain_width, NULL, NULL);
  gtk_widget_measure (plain, GTK_ORIENTATION_VERTICAL, plain_width, NULL, &plain_height, NULL, NULL);
  g_assert_cmpint (plain_width, >, 2000);
  g_assert_cmpint (wrapped_width, <, plain_width / 2);
  g_assert_cmpint (wrapped_height, >, 3 * plain_height);
  g_object_unref (label);
  g_object_unref (plain);
}

/* Says the worst gap of a phase, and starts the next. */
static void
meter_phase (Meter      *meter,
             const char *phase)
{
  g_printerr ("# %s: between two ticks at most %.1f ms, %.1f ms of the main thread's CPU time, "
              "%.1f ms blocked\n", phase, meter->phase_worst / 1000.0, meter->phase_worst_cpu / 1000.0,
              meter->phase_worst_blocked / 1000.0);
  meter->phase_worst = meter->phase_worst_cpu = meter->phase_worst_blocked = 0;
}

/* Whether the machine has a core to spare: timings in time mean
 * something only then. */
static gboolean
machine_idle (void)
{
  g_autofree char *text = NULL;

  if (!g_file_get_contents ("/proc/loadavg", &text, NULL, NULL))
    return TRUE;

  return g_ascii_strtod (text, NULL) < g_get_num_processors () - 1;
}

/* The frame the view shows, against tes_trace_frame_build() for the same
 * request: the same lanes, and in each the same boxes. */
static void
assert_frame_as_built (TesTraceView *view,
                       TesReport    *report)
{
  const TesTraceFrame *frame = tes_ui_test_trace_frame (view);
  g_autoptr(GHashTable) collapsed = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) hidden = g_hash_table_new (NULL, NULL);
  g_autoptr(GArray) pinned = g_array_new (FALSE, FALSE, sizeof (gint64));
  TesTraceLaneState lanes = { collapsed, pinned, hidden, 0, 0, NULL };
  TesTraceRequest request = {
    .scale = frame->scale,
    .mode = frame->mode,
    .lanes = &lanes,
    .scroll_y = frame->scroll_y,
    .view_height = frame->view_height,
    .show_flows = frame->flows != NULL,
    .show_runs = frame->runs != NULL,
    .group_syncs = frame->group_syncs,
    .tile_balance = frame->tile_balance,
    .hide = frame->hide,
    .show_terminals = frame->terminals != NULL,
    .relative_cycles = frame->relative_cycles,
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(TesTraceFrame) built = tes_trace_frame_build (report, &request, NULL, &error);
  guint n_boxes = 0;

  g_assert_no_error (error);
  g_assert_cmpuint (frame->lanes->len, ==, built->lanes->len);
  g_assert_cmpfloat (frame->total_height, ==, built->total_height);
  for (guint i = 0; i < frame->lanes->len; i++)
    {
      GArray *boxes = g_ptr_array_index (frame->boxes, i);
      GArray *expected = g_ptr_array_index (built->boxes, i);

      g_assert_cmpint (g_array_index (frame->lanes, TesTraceLane, i).track_id, ==,
                       g_array_index (built->lanes, TesTraceLane, i).track_id);
      g_assert_true ((boxes == NULL) == (expected == NULL));
      if (boxes == NULL)
        continue;
      g_assert_cmpuint (boxes->len, ==, expected->len);
      for (guint j = 0; j < boxes->len; j++)
        {
          const TesTraceBox *a = &g_array_index (boxes, TesTraceBox, j);
          const TesTraceBox *b = &g_array_index (expected, TesTraceBox, j);

          g_assert_cmpint (a->start, ==, b->start);
          g_assert_cmpint (a->dur, ==, b->dur);
          g_assert_cmpuint (a->name, ==, b->name);
          g_assert_cmpuint (a->n_slices, ==, b->n_slices);
          g_assert_cmpfloat (a->x0, ==, b->x0);
          g_assert_cmpfloat (a->x1, ==, b->x1);
        }
      n_boxes += boxes->len;
    }
  /* a frame with something in it */
  g_assert_cmpuint (n_boxes, >, 0);
}

/* The middle of the first single slice of the frame drawn, in view
 * pixels; FALSE when it shows none. */
static gboolean
find_slice (const TesTraceFrame *frame,
            double              *x,
            double              *y)
{
  for (guint i = 0; i < frame->lanes->len; i++)
    {
      const TesTraceLane *lane = &g_array_index (frame->lanes, TesTraceLane, i);
      GArray *boxes = g_ptr_array_index (frame->boxes, i);

      for (guint j = 0; boxes != NULL && j < boxes->len; j++)
        {
          const TesTraceBox *box = &g_array_index (boxes, TesTraceBox, j);

          if (box->n_slices != 1 || box->x1 - box->x0 < 4)
            continue;
          *x = (box->x0 + box->x1) / 2;
          *y = TES_TRACE_RULER_HEIGHT + lane->y - frame->scroll_y + box->row * TES_TRACE_ROW_HEIGHT +
               TES_TRACE_ROW_HEIGHT / 2;
          return TRUE;
        }
    }

  return FALSE;
}

static gboolean
searching (TesTraceView *view)
{
  gboolean running;

  g_object_get (view, "searching", &running, NULL);

  return running;
}

/* A trace written for the case, loaded, and a view on it in a window of
 * its own, shown; every query slowed by @query_delay_ms from the start. */
static TesTraceView *
open_view (const char    *name,
           guint          query_delay_ms,
           TesReport    **report,
           TesWorkspace **workspace,
           GtkWindow    **window)
{
  g_autofree char *path = tes_test_write_trace (name);
  g_autoptr(TesReportLoader) loader = tes_report_loader_new ();
  g_autoptr(GError) error = NULL;
  TesTraceView *view;

  tes_report_loader_add_file (loader, path);
  *report = tes_report_loader_load (loader, NULL, &error);
  g_assert_no_error (error);
  *workspace = tes_workspace_new (*report);
  tes_report_set_query_delay_for_testing (*report, query_delay_ms);

  *window = GTK_WINDOW (gtk_window_new ());
  view = TES_TRACE_VIEW (tes_trace_view_new ());
  tes_trace_view_set_workspace (view, *workspace);
  gtk_window_set_default_size (*window, 800, 500);
  gtk_window_set_child (*window, GTK_WIDGET (view));
  gtk_window_present (*window);
  tes_ui_test_wait_for_stable_size (GTK_WIDGET (view));

  return view;
}

static void
test_trace_frames_never_block (void)
{
  g_autoptr(TesReport) report = NULL;
  g_autoptr(TesWorkspace) workspace = NULL;
  GtkWindow *window;
  TesTraceView *view;
  Meter meter = { 0 };
  GtkTooltip *tooltip;
  guint meter_id;
  double x, y;
  gint64 track_id;
  gboolean shown = FALSE;

  view = open_view ("frames-trace.json", 0, &report, &workspace, &window);
  /* GTK's first drawing of the window and of text (styles, fonts) is a
   * one-off of the process: done before timing */
  g_assert_nonnull (tes_ui_test_trace_frame (view));
  gtk_test_widget_wait_for_draw (GTK_WIDGET (view));

  /* from now on every query is slow */
  tes_report_set_query_delay_for_testing (report, QUERY_DELAY_MS);
  meter_id = g_timeout_add_full (G_PRIORITY_HIGH, 1, meter_tick_cb, &meter, NULL);

  /* zoom, pan and scroll: each new range is drawn while it is built */
  for (guint i = 0; i < 4; i++)
    {
      tes_trace_view_zoom (view, 0.6);
      g_assert_true (tes_trace_view_is_frame_pending (view));
      /* drawn meanwhile, from the last frame */
      g_assert_nonnull (tes_trace_view_get_frame (view));
      gtk_test_widget_wait_for_draw (GTK_WIDGET (view));
      tes_ui_test_spin (QUERY_DELAY_MS / 2);
    }
  tes_trace_view_pan (view, 0.2);
  tes_ui_test_spin (5);
  tes_trace_view_pan (view, -0.2);
  gtk_adjustment_set_value (tes_trace_view_get_vadjustment (view), 10);
  tes_ui_test_spin (5);
  gtk_adjustment_set_value (tes_trace_view_get_vadjustment (view), 0);
  tes_workspace_show_all (workspace);
  meter_phase (&meter, "zoom, pan, scroll");

  /* a click on a slice of the frame drawn, then the arrows from it */
  g_assert_true (find_slice (tes_ui_test_trace_frame (view), &x, &y));
  g_assert_true (tes_trace_view_select_at (view, x, y, FALSE));
  g_assert_nonnull (tes_trace_view_get_selected_box (view, &track_id));
  g_assert_true (tes_ui_test_press_key_controller (GTK_WIDGET (view), GDK_KEY_Right));
  g_assert_true (tes_ui_test_press_key_controller (GTK_WIDGET (view), GDK_KEY_Right));
  g_assert_true (tes_ui_test_press_key_controller (GTK_WIDGET (view), GDK_KEY_Down));
  /* still looking for the slices: the main loop runs meanwhile */
  g_assert_true (tes_trace_view_is_stepping (view));
  while (tes_trace_view_is_stepping (view))
    g_main_context_iteration (NULL, TRUE);
  g_assert_nonnull (tes_trace_view_get_selected_box (view, &track_id));
  meter_phase (&meter, "click, arrows");

  /* the search, and a step to its first match: found and read in threads */
  tes_trace_view_set_search (view, "sync");
  while (searching (view))
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (tes_trace_view_get_n_matches (view), ==, 1);
  tes_trace_view_step_match (view, 1);
  g_assert_true (tes_trace_view_is_stepping (view));
  while (tes_trace_view_is_stepping (view))
    g_main_context_iteration (NULL, TRUE);
  {
    const TesTraceBox *box = tes_trace_view_get_selected_box (view, &track_id);

    g_assert_cmpstr (tes_report_get_string (report, box->name), ==, "sync");
  }
  tes_trace_view_set_search (view, NULL);
  meter_phase (&meter, "search");

  /* the tooltip of a slice: shown at once, its arguments read meanwhile */
  tooltip = g_object_new (GTK_TYPE_TOOLTIP, NULL);
  g_assert_true (find_slice (tes_ui_test_trace_frame (view), &x, &y));
  g_signal_emit_by_name (view, "query-tooltip", (int)x, (int)y, FALSE, tooltip, &shown);
  g_assert_true (shown);
  tes_ui_test_spin (3 * QUERY_DELAY_MS);
  g_signal_emit_by_name (view, "query-tooltip", (int)x, (int)y, FALSE, tooltip, &shown);
  g_assert_true (shown);
  g_object_unref (tooltip);
  meter_phase (&meter, "tooltip");

  /* the last range and its frame, once built */
  tes_trace_view_zoom (view, 0.5);
  tes_ui_test_trace_frame (view);
  g_source_remove (meter_id);
  meter_phase (&meter, "last frame");
  g_printerr ("# the main loop blocked at most %.1f ms between two ticks\n", meter.worst_blocked / 1000.0);

  /* no query ran on the main thread */
  g_assert_cmpuint (tes_report_get_main_thread_queries_for_testing (report), ==, 0);
  /* nor did the main loop wait for one (on a lock, a thread) longer than
   * a frame, when the machine is not so busy that threads wait for a
   * core: a query waited for would block it its 40 ms */
  if (machine_idle ())
    g_assert_cmpint (meter.worst_blocked, <=, MAX_BLOCKED_MS * 1000);
  else
    g_printerr ("# the machine is busy: the %.1f ms blocked not checked\n", meter.worst_blocked / 1000.0);

  tes_report_set_query_delay_for_testing (report, 0);
  assert_frame_as_built (view, report);

  gtk_window_destroy (window);
}

/* Pixels in the box that differ from the one at the top left corner. */
static guint
count_unlike_corner (const TesPixels *pixels,
                     int              x0,
                     int              y0,
                     int              x1,
                     int              y1)
{
  const guchar *corner = tes_ui_test_pixel_at (pixels, 0, 0);
  guint n = 0;

  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++)
      n += memcmp (tes_ui_test_pixel_at (pixels, x, y), corner, 4) != 0;

  return n;
}

/* Before its first frame, built in a thread over slow queries, the view
 * says it is drawing (ink in its middle) instead of staying blank; then
 * the frame replaces the words. */
static void
test_trace_frames_first_pending (void)
{
  g_autoptr(TesReport) report = NULL;
  g_autoptr(TesWorkspace) workspace = NULL;
  GtkWindow *window;
  TesTraceView *view;
  g_auto(TesPixels) pending = { 0 };
  g_auto(TesPixels) drawn = { 0 };
  int w, h;

  view = open_view ("first-frame-trace.json", 2000, &report, &workspace, &window);
  g_assert_true (tes_trace_view_is_frame_pending (view));
  g_assert_null (tes_trace_view_get_frame (view));

  tes_ui_test_render_now (GTK_WIDGET (view), &pending);
  w = pending.width;
  h = pending.height;
  /* words in the middle band, nothing at the top where the ruler goes */
  g_assert_cmpuint (count_unlike_corner (&pending, w / 4, h / 2 - 20, 3 * w / 4, h / 2 + 20), >, 20);
  g_assert_cmpuint (count_unlike_corner (&pending, 0, 0, w, h / 4), ==, 0);

  tes_report_set_query_delay_for_testing (report, 0);
  g_assert_nonnull (tes_ui_test_trace_frame (view));
  tes_ui_test_render (GTK_WIDGET (view), &drawn);
  /* the frame: its ruler and labels at the top */
  g_assert_cmpuint (count_unlike_corner (&drawn, 0, 0, drawn.width, drawn.height / 4), >, 20);

  gtk_window_destroy (window);
}

int
main (int   argc,
      char *argv[])
{
  tes_ui_test_init (&argc, &argv);

  tes_ui_test_add ("/tes/trace-frames/never-block", test_trace_frames_never_block);
  tes_ui_test_add ("/tes/trace-frames/first-pending", test_trace_frames_first_pending);
  tes_ui_test_add ("/tes/trace-frames/tooltip-wraps", test_trace_frames_tooltip_wraps);

  return tes_ui_test_run ();
}
