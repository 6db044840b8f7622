/* test-trace-window.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "tes-share-chart-layout.h"
#include "tes-test-util.h"
#include "tes-trace-section.h"
#include "tes-ui-test-util.h"
#include "test-poplar-util.h"

/* The Execution Trace in the window, on the trace tes_test_write_trace()
 * writes: its keys, clicks and folds move the workspace, and the pixels
 * on screen are the slices where they are. */

typedef struct
{
  TesWindow       *window;
  TesTraceSection *section;
  TesTraceView    *view;
  TesWorkspace    *workspace;
  TesReport       *report;
} Fixture;

static void
fixture_open_path (Fixture    *f,
                   const char *path)
{
  GtkStack *sections;

  f->window = tes_ui_test_open_window (path, NULL);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1200, 700);
  tes_ui_test_wait_for_page (f->window, "report");

  sections = tes_window_get_sections (f->window);
  f->section = TES_TRACE_SECTION (gtk_stack_get_child_by_name (sections, "TesTraceSection"));
  g_assert_nonnull (f->section);
  gtk_stack_set_visible_child (sections, GTK_WIDGET (f->section));
  f->view = tes_trace_section_get_view (f->section);
  f->workspace = tes_section_get_workspace (TES_SECTION (f->section));
  f->report = tes_workspace_get_report (f->workspace);
  tes_ui_test_wait_for_stable_size (GTK_WIDGET (f->view));
  g_assert_nonnull (tes_ui_test_trace_frame (f->view));
}

static void
fixture_open (Fixture *f)
{
  g_autofree char *path = tes_test_write_trace ("window-trace.json");

  fixture_open_path (f, path);
}

static void
fixture_close (Fixture *f)
{
  tes_ui_test_close_window (f->window);
}

/* Runs what the key bound to keyval does on the view. */
static void
press (TesTraceView *view,
       guint         keyval)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (view));

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;

      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);

          if (GTK_IS_KEYVAL_TRIGGER (trigger) && gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)) == keyval)
            {
              g_assert_true (gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut), 0,
                                                           GTK_WIDGET (view), NULL));
              return;
            }
        }
    }

  g_error ("No key %s on the trace", gdk_keyval_name (keyval));
}

/* The slice an arrow or the search's step goes to is looked for in a
 * thread: selected once this returns. */
static void
wait_for_steps (TesTraceView *view)
{
  while (tes_trace_view_is_stepping (view))
    g_main_context_iteration (NULL, TRUE);
}

/* Sends keyval to the view's key controller (the arrows, which are not
 * shortcuts) and waits for the slice it goes to; whether it took it. */
static gboolean
press_arrow (TesTraceView *view,
             guint         keyval)
{
  gboolean handled = tes_ui_test_press_key_controller (GTK_WIDGET (view), keyval);

  wait_for_steps (view);

  return handled;
}

static const TesTraceLane *
lane_named (const TesTraceFrame *frame,
            TesReport           *report,
            const char          *parent,
            const char          *name)
{
  for (guint i = 0; i < frame->lanes->len; i++)
    {
      const TesTraceLane *lane = &g_array_index (frame->lanes, TesTraceLane, i);
      const TesTrack *track = tes_report_get_track (report, lane->track_id);
      const TesTrack *up = track->parent_id ? tes_report_get_track (report, track->parent_id) : NULL;

      if (g_str_equal (track->name, name) &&
          (parent == NULL ? up == NULL : (up != NULL && g_str_equal (up->name, parent))))
        return lane;
    }

  return NULL;
}

/* The middle of the time t on row of lane, in view pixels. */
static void
point_at (Fixture            *f,
          const TesTraceLane *lane,
          guint               row,
          gint64              t,
          double             *x,
          double             *y)
{
  const TesTraceFrame *frame = tes_ui_test_trace_frame (f->view);

  *x = tes_trace_scale_x (&frame->scale, t);
  *y = TES_TRACE_RULER_HEIGHT + lane->y - frame->scroll_y + 2 + (row + 0.5) * TES_TRACE_ROW_HEIGHT;
}

static gboolean
pixel_has_rgb (const TesPixels *pixels,
               double           x,
               double           y,
               guint32          rgb)
{
  GdkRGBA color = { ((rgb >> 16) & 0xff) / 255., ((rgb >> 8) & 0xff) / 255., (rgb & 0xff) / 255., 1 };

  return tes_ui_test_pixel_is_color (tes_ui_test_pixel_at (pixels, (int)x, (int)y), &color);
}

static void
test_trace_window_keys (void)
{
  Fixture f = { 0 };
  gint64 span_t0, span_t1, t0, t1;

  fixture_open (&f);

  /* the whole run at first */
  g_assert_true (tes_workspace_get_span (f.workspace, &span_t0, &span_t1));
  g_assert_cmpint (span_t0, ==, TES_TEST_TRACE_ORIGIN_NS);
  tes_workspace_get_visible (f.workspace, &t0, &t1);
  g_assert_cmpint (t0, ==, span_t0);
  g_assert_cmpint (t1, ==, span_t1);

  /* W zooms in by a step, around the middle when the pointer is away */
  press (f.view, GDK_KEY_w);
  tes_workspace_get_visible (f.workspace, &t0, &t1);
  g_assert_cmpint (ABS ((t1 - t0) - (gint64)((span_t1 - span_t0) / 1.25)), <=, 1);
  g_assert_cmpint (ABS ((t0 + t1) / 2 - (span_t0 + span_t1) / 2), <=, 1);
  press (f.view, GDK_KEY_w);
  press (f.view, GDK_KEY_w);

  /* D pans forward a tenth, A back */
  {
    gint64 before_t0 = t0, width;

    tes_workspace_get_visible (f.workspace, &t0, &t1);
    before_t0 = t0;
    width = t1 - t0;
    press (f.view, GDK_KEY_d);
    tes_workspace_get_visible (f.workspace, &t0, &t1);
    g_assert_cmpint (ABS (t0 - (before_t0 + width / 10)), <=, 1);
    g_assert_cmpint (t1 - t0, ==, width);
    press (f.view, GDK_KEY_a);
    tes_workspace_get_visible (f.workspace, &t0, &t1);
    g_assert_cmpint (ABS (t0 - before_t0), <=, 1);
  }

  /* S zooms out; 0 and Home show everything */
  press (f.view, GDK_KEY_s);
  press (f.view, GDK_KEY_0);
  tes_workspace_get_visible (f.workspace, &t0, &t1);
  g_assert_cmpint (t0, ==, span_t0);
  g_assert_cmpint (t1, ==, span_t1);
  tes_trace_view_zoom (f.view, 0.01);
  press (f.view, GDK_KEY_Home);
  tes_workspace_get_visible (f.workspace, &t0, &t1);
  g_assert_cmpint (t1 - t0, ==, span_t1 - span_t0);

  /* a click in the run's miniature shows that moment, at the same zoom:
   * three quarters of the way along the run */
  tes_trace_view_zoom (f.view, 0.1);
  {
    gint64 width, centre;
    double x = TES_TRACE_LABEL_WIDTH + 0.75 * (gtk_widget_get_width (GTK_WIDGET (f.view)) - TES_TRACE_LABEL_WIDTH);

    tes_workspace_get_visible (f.workspace, &t0, &t1);
    width = t1 - t0;
    g_assert_true (tes_trace_view_select_at (f.view, x, TES_TRACE_MINIMAP_HEIGHT / 2, FALSE));
    tes_workspace_get_visible (f.workspace, &t0, &t1);
    centre = span_t0 + (span_t1 - span_t0) * 3 / 4;
    g_assert_cmpint (t1 - t0, ==, width);
    g_assert_cmpint (ABS ((t0 + t1) / 2 - centre), <=, (span_t1 - span_t0) / 500);
  }

  /* the range label follows */
  g_assert_true (tes_ui_test_has_label_containing (f.window, "shown"));

  fixture_close (&f);
}

/* The Summary tab's histogram of the chosen slice's name's durations. */
static GtkWidget *
find_histogram (TesWindow *window)
{
  g_autoptr(GPtrArray) areas = tes_ui_test_find_widgets (window, GTK_TYPE_DRAWING_AREA);

  for (guint i = 0; i < areas->len; i++)
    {
      g_autofree char *mismatch = gtk_test_accessible_check_property (g_ptr_array_index (areas, i),
                                                                      GTK_ACCESSIBLE_PROPERTY_LABEL,
                                                                      "Durations of the selected slice\u2019s name");

      if (mismatch == NULL)
        return g_ptr_array_index (areas, i);
    }
  g_error ("No durations histogram");
}

static void
test_trace_window_select (void)
{
  Fixture f = { 0 };
  const TesTraceFrame *frame;
  const TesTraceLane *a0, *b0;
  const TesSliceRef *selected;
  g_autofree char *details = NULL;
  guint n_selected = 0;
  gint64 t0, t1;
  double x, y;

  fixture_open (&f);
  frame = tes_ui_test_trace_frame (f.view);
  a0 = lane_named (frame, f.report, "Device A", "core 0");
  g_assert_nonnull (a0);

  /* a double-click on conv shows it with 5 % each side, moved right
   * since it opens the run */
  point_at (&f, a0, 0, 1050000, &x, &y);
  g_assert_true (tes_trace_view_zoom_at (f.view, x, y));
  tes_workspace_get_visible (f.workspace, &t0, &t1);
  g_assert_cmpint (t0, ==, 1000000);
  g_assert_cmpint (t1, ==, 1110000);

  /* no slice chosen: no durations histogram */
  g_assert_false (gtk_widget_get_visible (find_histogram (f.window)));

  /* a click selects it: the workspace holds it, Details says what it is */
  gtk_test_widget_wait_for_draw (GTK_WIDGET (f.view));
  frame = tes_ui_test_trace_frame (f.view);
  a0 = lane_named (frame, f.report, "Device A", "core 0");
  point_at (&f, a0, 0, 1050000, &x, &y);
  g_assert_true (tes_trace_view_select_at (f.view, x, y, FALSE));
  selected = tes_workspace_get_selected_slices (f.workspace, &n_selected);
  g_assert_cmpuint (n_selected, ==, 1);
  g_assert_cmpint (selected[0].track_id, ==, a0->track_id);
  details = tes_trace_section_dup_details (f.section);
  g_test_message ("%s", details);
  g_assert_true (g_str_has_prefix (details, "conv\n"));
  tes_test_assert_contains (details, "Category: op\n");
  tes_test_assert_contains (details, "Lane: core 0\n");
  tes_test_assert_contains (details, "Start: 0.000 µs\n");
  tes_test_assert_contains (details, "Duration: 100.000 µs\n");
  tes_test_assert_contains (details, "Arguments: {\"tiles\":1216}");
  /* the pane reads them in a thread */
  for (guint i = 0; i < 500 && !tes_ui_test_has_label_containing (f.window, "Arguments: {\"tiles\":1216}"); i++)
    tes_ui_test_spin (10);
  g_assert_true (tes_ui_test_has_label_containing (f.window, "Arguments: {\"tiles\":1216}"));

  /* the durations of its name's slices show beside the devices' bars,
   * which have that room to themselves until then */
  {
    GtkWidget *histogram = find_histogram (f.window);
    gint64 deadline = g_get_monotonic_time () + TES_UI_TEST_WAIT_SECONDS * G_USEC_PER_SEC;

    while (!gtk_widget_get_visible (histogram))
      {
        if (g_get_monotonic_time () > deadline)
          g_error ("Timed out waiting for the durations histogram");
        g_main_context_iteration (NULL, FALSE);
      }
  }

  /* the unit is the workspace's: in ns, Details follows */
  tes_workspace_set_time_unit (f.workspace, TES_TIME_UNIT_NS);
  g_clear_pointer (&details, g_free);
  details = tes_trace_section_dup_details (f.section);
  tes_test_assert_contains (details, "Duration: 100,000 ns\n");

  /* Shift+click on sync, on the other device: the span from one to the
   * other is selected and shown */
  press (f.view, GDK_KEY_0);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (f.view));
  frame = tes_ui_test_trace_frame (f.view);
  b0 = lane_named (frame, f.report, "Device B", "core 0");
  point_at (&f, b0, 0, 1750000, &x, &y);
  g_assert_true (tes_trace_view_select_at (f.view, x, y, TRUE));
  g_assert_true (tes_workspace_get_selection (f.workspace, &t0, &t1));
  g_assert_cmpint (t0, ==, 1000000);
  g_assert_cmpint (t1, ==, 2000000);

  /* F zooms to it; Escape clears it */
  press (f.view, GDK_KEY_0);
  press (f.view, GDK_KEY_f);
  tes_workspace_get_visible (f.workspace, &t0, &t1);
  g_assert_cmpint (t0, ==, 1000000);
  g_assert_cmpint (t1, ==, 2100000);
  press (f.view, GDK_KEY_Escape);
  g_assert_false (tes_workspace_get_selection (f.workspace, NULL, NULL));
  tes_workspace_get_selected_slices (f.workspace, &n_selected);
  g_assert_cmpuint (n_selected, ==, 0);

  fixture_close (&f);
}

/* What is on screen: conv and sync in their colours where they are, the
 * gap between conv and add empty; in flame mode dma under conv. */
static void
test_trace_window_pixels (void)
{
  Fixture f = { 0 };
  g_auto(TesPixels) flat = { 0 };
  g_auto(TesPixels) flame = { 0 };
  const TesTraceFrame *frame;
  const TesTraceLane *a0, *b0;
  guint32 conv = tes_share_chart_palette[tes_trace_color_index ("conv")];
  guint32 dma = tes_share_chart_palette[tes_trace_color_index ("dma")];
  guint32 sync = tes_share_chart_palette[tes_trace_color_index ("sync")];
  double x, y;

  fixture_open (&f);
  tes_workspace_set_visible (f.workspace, 1000000, 2000000);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (f.view));
  tes_ui_test_render (GTK_WIDGET (f.view), &flat);
  frame = tes_ui_test_trace_frame (f.view);
  a0 = lane_named (frame, f.report, "Device A", "core 0");
  b0 = lane_named (frame, f.report, "Device B", "core 0");

  /* the lower edge of the row, below any text */
  point_at (&f, a0, 0, 1095000, &x, &y);
  g_assert_true (pixel_has_rgb (&flat, x, y + 6, conv));
  point_at (&f, a0, 0, 1150000, &x, &y);
  g_assert_false (pixel_has_rgb (&flat, x, y + 6, conv));
  point_at (&f, b0, 0, 1990000, &x, &y);
  g_assert_true (pixel_has_rgb (&flat, x, y + 6, sync));
  point_at (&f, b0, 0, 1450000, &x, &y);
  g_assert_false (pixel_has_rgb (&flat, x, y + 6, sync));

  /* Flame: the toggle, and a second row with dma under conv */
  gtk_test_widget_wait_for_draw (GTK_WIDGET (f.view));
  {
    g_autoptr(GPtrArray) toggles = tes_ui_test_find_widgets (f.window, GTK_TYPE_TOGGLE_BUTTON);
    gboolean found = FALSE;

    for (guint i = 0; i < toggles->len && !found; i++)
      if (g_strcmp0 (gtk_button_get_label (g_ptr_array_index (toggles, i)), "F_lame") == 0)
        {
          gtk_toggle_button_set_active (g_ptr_array_index (toggles, i), TRUE);
          found = TRUE;
        }
    g_assert_true (found);
  }
  g_assert_cmpint (tes_trace_view_get_mode (f.view), ==, TES_TRACE_FLAME);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (f.view));
  tes_ui_test_render (GTK_WIDGET (f.view), &flame);
  frame = tes_ui_test_trace_frame (f.view);
  a0 = lane_named (frame, f.report, "Device A", "core 0");
  g_assert_cmpuint (a0->n_rows, ==, 2);
  point_at (&f, a0, 1, 1055000, &x, &y);
  g_assert_true (pixel_has_rgb (&flame, x, y + 6, dma));
  point_at (&f, a0, 1, 1080000, &x, &y);
  g_assert_false (pixel_has_rgb (&flame, x, y + 6, dma));

  fixture_close (&f);
}

/* A click on a group's name folds it, and again unfolds it. */
static void
test_trace_window_fold (void)
{
  Fixture f = { 0 };
  const TesTraceFrame *frame;
  const TesTraceLane *a;
  guint n_lanes;

  fixture_open (&f);
  frame = tes_ui_test_trace_frame (f.view);
  n_lanes = frame->lanes->len;
  g_assert_cmpuint (n_lanes, ==, 5);
  a = lane_named (frame, f.report, NULL, "Device A");

  g_assert_true (tes_trace_view_select_at (f.view, 40, TES_TRACE_RULER_HEIGHT + a->y + 5, FALSE));
  frame = tes_ui_test_trace_frame (f.view);
  g_assert_cmpuint (frame->lanes->len, ==, 3);
  g_assert_null (lane_named (frame, f.report, "Device A", "core 0"));

  a = lane_named (frame, f.report, NULL, "Device A");
  g_assert_true (tes_trace_view_select_at (f.view, 40, TES_TRACE_RULER_HEIGHT + a->y + 5, FALSE));
  g_assert_cmpuint (tes_ui_test_trace_frame (f.view)->lanes->len, ==, n_lanes);

  /* the lane menu's actions: pin Device B's core to the top, hide
   * Device A, then bring it back */
  {
    gint64 b0_id = lane_named (tes_ui_test_trace_frame (f.view), f.report, "Device B", "core 0")->track_id;
    gint64 a_id = lane_named (tes_ui_test_trace_frame (f.view), f.report, NULL, "Device A")->track_id;

    tes_trace_view_set_lane_pinned (f.view, b0_id, TRUE);
    frame = tes_ui_test_trace_frame (f.view);
    g_assert_cmpint (g_array_index (frame->lanes, TesTraceLane, 0).track_id, ==, b0_id);
    g_assert_true (g_array_index (frame->lanes, TesTraceLane, 0).pinned);

    tes_trace_view_hide_lane (f.view, a_id);
    g_assert_cmpuint (tes_trace_view_get_n_hidden_lanes (f.view), ==, 1);
    g_assert_null (lane_named (tes_ui_test_trace_frame (f.view), f.report, "Device A", "core 1"));
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.view), "lane.show-all", NULL));
    g_assert_cmpuint (tes_trace_view_get_n_hidden_lanes (f.view), ==, 0);
    g_assert_nonnull (lane_named (tes_ui_test_trace_frame (f.view), f.report, "Device A", "core 1"));
  }

  fixture_close (&f);
}

static void
wait_for_search (Fixture *f)
{
  gint64 deadline = g_get_monotonic_time () + TES_UI_TEST_WAIT_SECONDS * G_USEC_PER_SEC;
  gboolean searching = TRUE;

  while (searching)
    {
      g_object_get (f->view, "searching", &searching, NULL);
      if (g_get_monotonic_time () > deadline)
        g_error ("Timed out waiting for the search");
      g_main_context_iteration (NULL, FALSE);
    }
}

static GtkSearchEntry *
search_entry (Fixture *f)
{
  g_autoptr(GPtrArray) entries = tes_ui_test_find_widgets (f->window, GTK_TYPE_SEARCH_ENTRY);

  /* the toolbar's, not the one in the unit drop-down's popover */
  for (guint i = 0; i < entries->len; i++)
    if (gtk_widget_is_ancestor (g_ptr_array_index (entries, i), GTK_WIDGET (f->section)) &&
        gtk_widget_get_ancestor (g_ptr_array_index (entries, i), GTK_TYPE_POPOVER) == NULL)
      return g_ptr_array_index (entries, i);

  g_error ("No search entry in the trace");
}

/* Typing in the search entry greys what does not match; Enter and the
 * buttons step through the matches, selecting each. */
static void
test_trace_window_search (void)
{
  Fixture f = { 0 };
  g_auto(TesPixels) pixels = { 0 };
  GtkSearchEntry *entry;
  const TesTraceFrame *frame;
  const TesTraceLane *a0, *b0;
  const TesSliceRef *selected;
  gint64 sync_track;
  guint n_selected;
  double x, y;

  fixture_open (&f);
  entry = search_entry (&f);

  gtk_editable_set_text (GTK_EDITABLE (entry), "sync");
  g_signal_emit_by_name (entry, "search-changed");
  wait_for_search (&f);
  g_assert_cmpuint (tes_trace_view_get_n_matches (f.view), ==, 1);
  g_assert_true (tes_ui_test_has_label_containing (f.window, "1 match"));

  /* conv greyed, sync in its colour */
  tes_workspace_set_visible (f.workspace, 1000000, 2000000);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (f.view));
  tes_ui_test_render (GTK_WIDGET (f.view), &pixels);
  frame = tes_ui_test_trace_frame (f.view);
  g_assert_true (frame->searching);
  a0 = lane_named (frame, f.report, "Device A", "core 0");
  b0 = lane_named (frame, f.report, "Device B", "core 0");
  point_at (&f, a0, 0, 1095000, &x, &y);
  g_assert_true (pixel_has_rgb (&pixels, x, y + 6, 0xe6e5e3));
  point_at (&f, b0, 0, 1990000, &x, &y);
  g_assert_true (pixel_has_rgb (&pixels, x, y + 6, tes_share_chart_palette[tes_trace_color_index ("sync")]));
  sync_track = b0->track_id;

  /* Enter: the match is selected (once read) and its details shown */
  g_signal_emit_by_name (entry, "activate");
  wait_for_steps (f.view);
  g_assert_cmpint (tes_trace_view_get_current_match (f.view), ==, 0);
  selected = tes_workspace_get_selected_slices (f.workspace, &n_selected);
  g_assert_cmpuint (n_selected, ==, 1);
  g_assert_cmpint (selected[0].track_id, ==, sync_track);
  g_assert_true (tes_ui_test_has_label_containing (f.window, "1 of 1"));
  {
    g_autofree char *details = tes_trace_section_dup_details (f.section);

    g_assert_true (g_str_has_prefix (details, "sync\n"));
  }

  /* a category: conv, add and the thousand tiny ones; the buttons step
   * one and ten at a time, wrapping at the ends */
  gtk_editable_set_text (GTK_EDITABLE (entry), "op");
  g_signal_emit_by_name (entry, "search-changed");
  wait_for_search (&f);
  g_assert_cmpuint (tes_trace_view_get_n_matches (f.view), ==, 1002);
  g_assert_cmpint (tes_trace_view_get_current_match (f.view), ==, -1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.section), "trace.step-match", "i", 10));
  wait_for_steps (f.view);
  g_assert_cmpint (tes_trace_view_get_current_match (f.view), ==, 9);
  g_assert_true (tes_ui_test_has_label_containing (f.window, "10 of 1,002"));
  /* ten back from the tenth wraps round to the last */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.section), "trace.step-match", "i", -10));
  wait_for_steps (f.view);
  g_assert_cmpint (tes_trace_view_get_current_match (f.view), ==, 1001);
  /* the last match, in time order, is the last tiny slice: on screen */
  {
    gint64 t0, t1;

    selected = tes_workspace_get_selected_slices (f.workspace, &n_selected);
    g_assert_cmpuint (selected[0].index, ==, 999);
    tes_workspace_get_visible (f.workspace, &t0, &t1);
    g_assert_cmpint (t0, <=, 2000000 + 999 * 200);
    g_assert_cmpint (t1, >=, 2000000 + 999 * 200 + 100);
  }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.section), "trace.step-match", "i", -1));
  wait_for_steps (f.view);
  g_assert_cmpint (tes_trace_view_get_current_match (f.view), ==, 1000);

  /* a broken regex says so in the entry, and greys nothing */
  gtk_editable_set_text (GTK_EDITABLE (entry), "/(/");
  g_signal_emit_by_name (entry, "search-changed");
  wait_for_search (&f);
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (entry), "error"));
  g_assert_cmpuint (tes_trace_view_get_n_matches (f.view), ==, 0);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (f.view));
  g_assert_false (tes_ui_test_trace_frame (f.view)->searching);

  /* cleared: everything in colour again */
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
  g_signal_emit_by_name (entry, "search-changed");
  wait_for_search (&f);
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (entry), "error"));

  fixture_close (&f);
}

/* The Summary tab: per name over the visible range or the selection,
 * each device's time by category, and the selected name's durations. */
static void
test_trace_window_summary (void)
{
  Fixture f = { 0 };
  g_autoptr(GPtrArray) stacks = NULL;
  g_autofree char *text = NULL;
  GtkStack *bottom = NULL;
  gint64 deadline;

  fixture_open (&f);
  tes_workspace_set_time_unit (f.workspace, TES_TIME_UNIT_US);
  tes_workspace_set_visible (f.workspace, 1000000, 1999999);

  stacks = tes_ui_test_find_widgets (f.window, GTK_TYPE_STACK);
  for (guint i = 0; i < stacks->len && bottom == NULL; i++)
    if (gtk_stack_get_child_by_name (g_ptr_array_index (stacks, i), "summary") &&
        gtk_widget_is_ancestor (g_ptr_array_index (stacks, i), GTK_WIDGET (f.section)))
      bottom = g_ptr_array_index (stacks, i);
  g_assert_nonnull (bottom);
  gtk_stack_set_visible_child_name (bottom, "summary");

  deadline = g_get_monotonic_time () + TES_UI_TEST_WAIT_SECONDS * G_USEC_PER_SEC;
  while (tes_trace_section_is_summary_loading (f.section))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, FALSE);
    }
  text = tes_trace_section_dup_summary (f.section);
  g_test_message ("%s", text);
  tes_test_assert_contains (text, "conv\t1\t100.000 µs\t50.000 µs\t100.000 µs\t100.000 µs\t100.000 µs\n");
  /* clipped by the range, which ends a nanosecond before sync does */
  tes_test_assert_contains (text, "sync\t1\t499.999 µs\t499.999 µs\t500.000 µs\t");
  tes_test_assert_contains (text, "Device A: op 87.5% dma 12.5%\n");
  g_assert_true (tes_ui_test_has_label_containing (f.window, "The visible range: from 0.000 µs, 999.999 µs"));
  /* the durations' unit in their columns' headers, following the workspace's */
  {
    g_autoptr(GPtrArray) views = tes_ui_test_find_widgets (f.window, GTK_TYPE_COLUMN_VIEW);
    GtkColumnView *stats = NULL;

    for (guint i = 0; i < views->len; i++)
      if (gtk_widget_is_ancestor (g_ptr_array_index (views, i), GTK_WIDGET (bottom)))
        stats = g_ptr_array_index (views, i);
    g_assert_nonnull (stats);
    for (guint u = 0; u < 2; u++)
      {
        GListModel *columns = gtk_column_view_get_columns (stats);
        const char *names[] = { "Name", "Count", "Total", "Self", "Mean", "Min", "Max" };

        g_assert_cmpuint (g_list_model_get_n_items (columns), ==, G_N_ELEMENTS (names));
        for (guint c = 0; c < G_N_ELEMENTS (names); c++)
          {
            g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, c);
            g_autofree char *title = c < 2 ? g_strdup (names[c])
                                           : g_strdup_printf ("%s (%s)", names[c], u == 0 ? "µs" : "ms");

            g_assert_cmpstr (gtk_column_view_column_get_title (column), ==, title);
          }
        tes_workspace_set_time_unit (f.workspace, TES_TIME_UNIT_MS);
      }
    tes_workspace_set_time_unit (f.workspace, TES_TIME_UNIT_US);
  }

  /* a selected span narrows it: only add's second half and sync */
  tes_workspace_set_selection (f.workspace, 1400000, 1999999);
  tes_ui_test_spin (50);
  deadline = g_get_monotonic_time () + TES_UI_TEST_WAIT_SECONDS * G_USEC_PER_SEC;
  while (tes_trace_section_is_summary_loading (f.section))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, FALSE);
    }
  g_clear_pointer (&text, g_free);
  text = tes_trace_section_dup_summary (f.section);
  tes_test_assert_contains (text, "add\t1\t100.000 µs\t");
  g_assert_null (strstr (text, "conv\t"));
  g_assert_true (tes_ui_test_has_label_containing (f.window, "The selection: from 400.000 µs"));

  fixture_close (&f);
}

/* Every vendor's timeline opens on the trace, with slices on screen:
 * the lanes' area is not blank and the lanes are the format's. */
static void
test_trace_window_vendors (void)
{
  static const struct
  {
    const char *file;
    const char *lane;
  } cases[] = {
    { "chrome/phases_array.json", "Thread 1" },
    { "sigmastar/performance_timeline_mini.json", "core0_layer_timeline" },
    { "qaic/opstats_trace_mini.json", "HMX" },
    { "torq/timeline_v2.csv", "Slice 0" },
    { "torq/runtime_v2.csv", "Host" },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autofree char *src = tes_test_data_path (cases[c].file);
      g_autofree char *base = g_path_get_basename (cases[c].file);
      g_autofree char *path = tes_test_copy_to_tmp (src, base);
      g_auto(TesPixels) pixels = { 0 };
      TesTraceSection *section;
      TesTraceView *view;
      const TesTraceFrame *frame;
      TesWindow *window;
      gboolean found = FALSE;
      guint inked = 0;

      g_test_message ("%s", cases[c].file);
      window = tes_ui_test_open_window (path, NULL);
      gtk_window_set_default_size (GTK_WINDOW (window), 1200, 700);
      tes_ui_test_wait_for_page (window, "report");
      section = TES_TRACE_SECTION (gtk_stack_get_child_by_name (tes_window_get_sections (window), "TesTraceSection"));
      g_assert_nonnull (section);
      gtk_stack_set_visible_child (tes_window_get_sections (window), GTK_WIDGET (section));
      view = tes_trace_section_get_view (section);
      gtk_test_widget_wait_for_draw (GTK_WIDGET (view));

      frame = tes_ui_test_trace_frame (view);
      for (guint i = 0; i < frame->lanes->len && !found; i++)
        {
          gint64 track_id = g_array_index (frame->lanes, TesTraceLane, i).track_id;
          TesReport *report = tes_workspace_get_report (tes_trace_view_get_workspace (view));

          found = g_str_equal (tes_report_get_track (report, track_id)->name, cases[c].lane);
        }
      g_assert_true (found);

      /* pixels that are neither the lanes' two backgrounds nor white */
      tes_ui_test_render (GTK_WIDGET (view), &pixels);
      for (int y = (int)TES_TRACE_RULER_HEIGHT; y < pixels.height; y += 2)
        for (int x = (int)TES_TRACE_LABEL_WIDTH + 2; x < pixels.width; x += 2)
          {
            const guchar *p = tes_ui_test_pixel_at (&pixels, x, y);

            inked += !(p[0] >= 0xf0 && p[1] >= 0xf0 && p[2] >= 0xf0);
          }
      g_test_message ("%s: %u coloured pixels", cases[c].file, inked);
      g_assert_cmpuint (inked, >, 200);

      tes_ui_test_close_window (window);
    }
}

/* A generated Poplar run (execution trace, compile report, listing)
 * opens on a 1,024 px screen: the trace's toolbar gives way rather than
 * widening the window (it took 1,188 px for this run). */
static void
test_trace_window_width (void)
{
  g_auto(Generated) g = { 0 };
  g_autofree char *execution = NULL;
  g_autofree char *compile = NULL;
  g_autofree char *listing = NULL;
  g_autoptr(GFile) a = NULL;
  g_autoptr(GFile) b = NULL;
  g_autoptr(GFile) c = NULL;
  GtkWidget *section;
  TesWindow *window;
  int minimum, natural;

  generate (&g, TES_TEST_OWN_DATA);
  execution = generated_path (&g, "execution.json");
  compile = generated_path (&g, "compile_report.txt");
  listing = generated_path (&g, "archive_size.txt");
  a = g_file_new_for_path (execution);
  b = g_file_new_for_path (compile);
  c = g_file_new_for_path (listing);

  window = g_object_ref (tes_window_new (NULL));
  gtk_window_present (GTK_WINDOW (window));
  tes_window_open_files (window, (GFile *[]) { a, b, c }, 3, NULL);
  tes_ui_test_wait_for_page (window, "report");

  section = gtk_stack_get_child_by_name (tes_window_get_sections (window), "TesTraceSection");
  g_assert_nonnull (section);
  gtk_stack_set_visible_child (tes_window_get_sections (window), section);
  /* the toolbar's natural width does not fit beside the sidebar: what
   * must give way can */
  gtk_widget_measure (section, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, NULL, NULL);
  g_test_message ("the trace section: at least %d px wide, %d px natural", minimum, natural);
  g_assert_cmpint (natural, >, 1024 - 150);
  g_assert_cmpint (minimum, <, 850);

  gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, NULL, NULL);
  g_test_message ("the window: at least %d px wide", minimum);
  g_assert_cmpint (minimum, <=, 1024);

  tes_ui_test_close_window (window);
}

/* A click on a tile's slice of a Poplar run: Details add the program
 * step's figures as PopVision's Details tab gives them, as the truth's
 * cycles of that step work out. */
static void
test_trace_window_step_details (void)
{
  g_auto(Generated) g = { 0 };
  Fixture f = { 0 };
  g_autofree char *execution = NULL;
  g_autofree char *details = NULL;
  g_autofree char *want_active = NULL;
  g_autofree char *want_balance = NULL;
  g_autofree char *want_step = NULL;
  JsonArray *truth_steps;
  JsonObject *want = NULL;
  JsonArray *cycles;
  const TesTraceLane *lane;
  gint64 sum = 0, max = 0, start, mhz;
  guint active = 0, n;
  double x, y;

  generate (&g, TES_TEST_OWN_DATA);
  execution = generated_path (&g, "execution.json");
  fixture_open_path (&f, execution);

  /* the longest step of IPU 0 in which its tile 0 works */
  truth_steps = json_object_get_array_member (g.truth, "steps");
  for (guint i = 0; i < json_array_get_length (truth_steps); i++)
    {
      JsonObject *step = json_array_get_object_element (truth_steps, i);

      if (json_object_get_int_member (step, "ipu") == 0 &&
          json_array_get_int_element (json_object_get_array_member (step, "cycles"), 0) > 0 &&
          (want == NULL || json_object_get_int_member (step, "dur") > json_object_get_int_member (want, "dur")))
        want = step;
    }
  g_assert_nonnull (want);
  cycles = json_object_get_array_member (want, "cycles");
  n = json_array_get_length (cycles);
  for (guint t = 0; t < n; t++)
    {
      gint64 c = json_array_get_int_element (cycles, t);

      sum += c;
      max = MAX (max, c);
      active += c > 0;
    }

  mhz = json_object_get_int_member (g.truth, "clock_mhz");
  start = json_object_get_int_member (want, "start");
  lane = lane_named (tes_ui_test_trace_frame (f.view), f.report, "IPU 0", "Tile 0");
  g_assert_nonnull (lane);
  point_at (&f, lane, 0, (start + json_array_get_int_element (cycles, 0) / 2) * 1000 / mhz, &x, &y);
  g_assert_true (tes_trace_view_select_at (f.view, x, y, FALSE));

  details = tes_trace_section_dup_details (f.section);
  g_test_message ("%s", details);
  want_step = g_strdup_printf ("Program step %" G_GINT64_FORMAT ": %s\n", json_object_get_int_member (want, "step"),
                               json_object_get_string_member (want, "program"));
  want_active = g_strdup_printf ("Active tiles: %u of %u\n", active, n);
  want_balance = g_strdup_printf ("Tile balance: %.1f %%\nActive tile balance: %.1f %%\n",
                                  100.0 * sum / ((double)n * max), 100.0 * sum / ((double)active * max));
  tes_test_assert_contains (details, "Lane: Tile 0\n");
  tes_test_assert_contains (details, want_step);
  tes_test_assert_contains (details, want_active);
  tes_test_assert_contains (details, want_balance);

  fixture_close (&f);
}

/* The IPUs of the frame's lanes: a bit per IPU track with a lane of its
 * own or of one of its tiles. */
static guint
ipus_in_frame (Fixture *f)
{
  const TesTraceFrame *frame = tes_ui_test_trace_frame (f->view);
  guint ipus = 0;

  for (guint i = 0; i < frame->lanes->len; i++)
    {
      gint64 id = g_array_index (frame->lanes, TesTraceLane, i).track_id;

      for (; id != 0; id = tes_report_get_track (f->report, id)->parent_id)
        if (tes_report_get_track (f->report, id)->kind == TES_TRACK_IPU)
          {
            g_assert_true (g_str_has_prefix (tes_report_get_track (f->report, id)->name, "IPU "));
            ipus |= 1u << atoi (tes_report_get_track (f->report, id)->name + 4);
          }
    }

  return ipus;
}

/* Select IPU, as in PopVision: with two IPUs the trace offers All IPUs,
 * IPU 0 and IPU 1, and one of them leaves the other's lanes out; a
 * report of one IPU (or none) has no such choice. */
static void
test_trace_window_select_ipu (void)
{
  g_auto(Generated) g = { 0 };
  Fixture f = { 0 };
  g_autofree char *execution = NULL;
  g_autoptr(GPtrArray) dropdowns = NULL;
  GtkDropDown *ipus = NULL;
  GListModel *items;

  generate (&g, TES_TEST_OWN_DATA);
  g_assert_cmpint (g.n_ipus, ==, 2);
  execution = generated_path (&g, "execution.json");
  fixture_open_path (&f, execution);

  dropdowns = tes_ui_test_find_widgets (f.window, GTK_TYPE_DROP_DOWN);
  for (guint i = 0; i < dropdowns->len; i++)
    if (g_strcmp0 (gtk_widget_get_tooltip_text (g_ptr_array_index (dropdowns, i)),
                   "Select IPU: the lanes of every IPU or of one") == 0)
      ipus = g_ptr_array_index (dropdowns, i);
  g_assert_nonnull (ipus);
  g_assert_true (gtk_widget_get_visible (gtk_widget_get_parent (GTK_WIDGET (ipus))));
  items = gtk_drop_down_get_model (ipus);
  g_assert_cmpuint (g_list_model_get_n_items (items), ==, 3);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (items), 0), ==, "All IPUs");
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (items), 1), ==, "IPU 0");
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (items), 2), ==, "IPU 1");

  g_assert_cmpuint (ipus_in_frame (&f), ==, 0x3);
  gtk_drop_down_set_selected (ipus, 2);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (f.view));
  g_assert_cmpuint (ipus_in_frame (&f), ==, 0x2);
  gtk_drop_down_set_selected (ipus, 1);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (f.view));
  g_assert_cmpuint (ipus_in_frame (&f), ==, 0x1);
  /* the host's lane stays */
  g_assert_nonnull (lane_named (tes_ui_test_trace_frame (f.view), f.report, "Host", "Engine::run"));
  gtk_drop_down_set_selected (ipus, 0);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (f.view));
  g_assert_cmpuint (ipus_in_frame (&f), ==, 0x3);
  fixture_close (&f);

  /* no IPUs: nothing to select */
  fixture_open (&f);
  g_clear_pointer (&dropdowns, g_ptr_array_unref);
  dropdowns = tes_ui_test_find_widgets (f.window, GTK_TYPE_DROP_DOWN);
  for (guint i = 0; i < dropdowns->len; i++)
    if (g_strcmp0 (gtk_widget_get_tooltip_text (g_ptr_array_index (dropdowns, i)),
                   "Select IPU: the lanes of every IPU or of one") == 0)
      g_assert_false (gtk_widget_get_visible (gtk_widget_get_parent (g_ptr_array_index (dropdowns, i))));
  fixture_close (&f);
}

static GtkCheckButton *
option_check (Fixture    *f,
              const char *label)
{
  g_autoptr(GPtrArray) checks = tes_ui_test_find_widgets (f->window, GTK_TYPE_CHECK_BUTTON);

  for (guint i = 0; i < checks->len; i++)
    if (g_strcmp0 (gtk_check_button_get_label (g_ptr_array_index (checks, i)), label) == 0)
      return g_ptr_array_index (checks, i);

  g_error ("No option %s in the View menu", label);
}

/* The lane of the steps of the options' trace. */
static const TesTraceLane *
ipu0_lane (const TesTraceFrame *frame,
           TesReport           *report)
{
  const TesTraceLane *lane = lane_named (frame, report, "IPU 0", "Thread 0");

  if (lane == NULL)
    lane = lane_named (frame, report, NULL, "IPU 0");
  g_assert_nonnull (lane);

  return lane;
}

/* The boxes of a lane that hold steps so named, and its group boxes. */
static guint
boxes_named (const TesTraceFrame *frame,
             TesReport           *report,
             const TesTraceLane  *lane,
             const char          *name,
             guint               *n_groups)
{
  GArray *boxes = g_ptr_array_index (frame->boxes, lane - &g_array_index (frame->lanes, TesTraceLane, 0));
  guint n = 0;

  *n_groups = 0;
  for (guint i = 0; boxes != NULL && i < boxes->len; i++)
    {
      const TesTraceBox *box = &g_array_index (boxes, TesTraceBox, i);

      *n_groups += box->label != NULL;
      n += box->name != 0 && g_str_equal (tes_report_get_string (report, box->name), name);
    }

  return n;
}

/* PopVision's options in the View menu: Show External Syncs and Show
 * SyncAns (on by default) where the report has such steps, Group
 * Executions where its steps have call paths, Show Terminals; and none of
 * them on a trace without such steps. */
static void
test_trace_window_options (void)
{
  g_autofree char *path = tes_test_tmp_path ("options.json");
  g_autoptr(GString) json = g_string_new ("{\"traceEvents\":[\n"
                                          "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"IPU 0\"}}");
  static const char *const names[] = {
    "OnTileExecute: layer1/conv/Conv2D", "DoExchange: layer1/conv/Exchange", "External Sync", "SyncAns",
  };
  GtkCheckButton *external, *ans, *groups, *terminals;
  const TesTraceFrame *frame;
  const TesTraceLane *lane;
  Fixture f = { 0 };
  guint n_groups;

  for (guint i = 0; i < 40; i++)
    g_string_append_printf (json, ",\n{\"ph\":\"X\",\"name\":\"%s\",\"pid\":1,\"tid\":0,\"ts\":%u,\"dur\":1}",
                            names[i % G_N_ELEMENTS (names)], i);
  g_string_append (json, "\n]}\n");
  tes_test_write_file (path, json->str, json->len);
  fixture_open_path (&f, path);

  external = option_check (&f, "Show E_xternal Syncs");
  ans = option_check (&f, "Show Sync_Ans");
  groups = option_check (&f, "Group _Executions");
  terminals = option_check (&f, "Show Ter_minals");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (external)));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (ans)));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (groups)));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (option_check (&f, "Show Buffer _Flushes"))));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (option_check (&f, "Show Relative _Cycles"))));
  g_assert_true (gtk_check_button_get_active (external));
  g_assert_true (gtk_check_button_get_active (ans));
  g_assert_false (gtk_check_button_get_active (groups));

  frame = tes_ui_test_trace_frame (f.view);
  lane = ipu0_lane (frame, f.report);
  g_assert_cmpuint (boxes_named (frame, f.report, lane, "External Sync", &n_groups), ==, 10);
  g_assert_cmpuint (boxes_named (frame, f.report, lane, "SyncAns", &n_groups), ==, 10);
  g_assert_cmpuint (n_groups, ==, 0);
  g_assert_cmpuint (lane->n_rows, ==, 1);

  gtk_check_button_set_active (external, FALSE);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (f.view));
  frame = tes_ui_test_trace_frame (f.view);
  lane = ipu0_lane (frame, f.report);
  g_assert_cmpuint (boxes_named (frame, f.report, lane, "External Sync", &n_groups), ==, 0);
  g_assert_cmpuint (boxes_named (frame, f.report, lane, "SyncAns", &n_groups), ==, 10);
  gtk_check_button_set_active (ans, FALSE);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (f.view));
  frame = tes_ui_test_trace_frame (f.view);
  lane = ipu0_lane (frame, f.report);
  g_assert_cmpuint (boxes_named (frame, f.report, lane, "SyncAns", &n_groups), ==, 0);

  /* the Right key steps from a step to the next one shown, over the two
   * left out (steps 2 and 3 of each four) */
  {
    const TesSliceRef *selected;
    guint n_selected = 0;
    double x, y;

    point_at (&f, lane, 0, 1500, &x, &y);
    g_assert_true (tes_trace_view_select_at (f.view, x, y, FALSE));
    selected = tes_workspace_get_selected_slices (f.workspace, &n_selected);
    g_assert_cmpuint (n_selected, ==, 1);
    g_assert_cmpuint (selected[0].index, ==, 1);
    g_assert_true (press_arrow (f.view, GDK_KEY_Right));
    selected = tes_workspace_get_selected_slices (f.workspace, &n_selected);
    g_assert_cmpuint (n_selected, ==, 1);
    g_assert_cmpuint (selected[0].index, ==, 4);
  }

  /* two levels above the steps: "layer1", "layer1/conv"; with the syncs
   * left out, the twenty layer1/conv steps follow each other: one box per
   * level holds them all */
  gtk_check_button_set_active (groups, TRUE);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (f.view));
  frame = tes_ui_test_trace_frame (f.view);
  lane = ipu0_lane (frame, f.report);
  g_assert_cmpuint (lane->n_rows, ==, 3);
  boxes_named (frame, f.report, lane, "", &n_groups);
  g_assert_cmpuint (n_groups, ==, 2);
  /* a click on a group's box zooms to its steps (with 5 % each side) */
  {
    gint64 t0, t1;
    double x, y;

    press (f.view, GDK_KEY_0);
    gtk_test_widget_wait_for_draw (GTK_WIDGET (f.view));
    frame = tes_ui_test_trace_frame (f.view);
    lane = ipu0_lane (frame, f.report);
    point_at (&f, lane, 1, 10000, &x, &y);
    g_assert_true (tes_trace_view_select_at (f.view, x, y, FALSE));
    tes_workspace_get_visible (f.workspace, &t0, &t1);
    /* the twenty steps from 0 to 38 µs */
    g_assert_cmpint (t0, ==, 0);
    g_assert_cmpint (t1, <=, 40000);
    g_assert_cmpint (t1, >=, 38000);
  }

  g_assert_null (frame->terminals);
  gtk_check_button_set_active (terminals, TRUE);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (f.view));
  g_assert_nonnull (tes_ui_test_trace_frame (f.view)->terminals);
  fixture_close (&f);

  /* a trace without such steps or paths offers none of them */
  fixture_open (&f);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (option_check (&f, "Show E_xternal Syncs"))));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (option_check (&f, "Show Sync_Ans"))));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (option_check (&f, "Show Ter_minals"))));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (option_check (&f, "Aggregate StreamC_opy Blocks"))));
  fixture_close (&f);

  /* Lightweight Profiling's options where the report has its blocks */
  {
    g_autofree char *export = tes_test_data_path ("poplar/profile_small.tessera-pop.jsonl");

    fixture_open_path (&f, export);
    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (option_check (&f, "Show Buffer _Flushes"))));
    g_assert_false (gtk_check_button_get_active (option_check (&f, "Show Buffer _Flushes")));
    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (option_check (&f, "Aggregate StreamC_opy Blocks"))));
    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (option_check (&f, "Show Relative _Cycles"))));
    g_assert_false (gtk_widget_get_visible (GTK_WIDGET (option_check (&f, "Show E_xternal Syncs"))));
    fixture_close (&f);
  }
}

/* A report without timed events has no trace to show. */
static void
test_trace_window_absent (void)
{
  g_autofree char *src = tes_test_data_path ("yolov8s_op_time_total.txt");
  g_autofree char *path = tes_test_copy_to_tmp (src, "yolov8s_op_time_total.txt");
  TesWindow *window = tes_ui_test_open_window (path, NULL);

  tes_ui_test_wait_for_page (window, "report");
  g_assert_nonnull (gtk_stack_get_child_by_name (tes_window_get_sections (window), "TesSummarySection"));
  g_assert_null (gtk_stack_get_child_by_name (tes_window_get_sections (window), "TesTraceSection"));

  tes_ui_test_close_window (window);
}

int
main (int    argc,
      char **argv)
{
  tes_ui_test_init (&argc, &argv);

  tes_ui_test_add ("/tes/trace-window/keys", test_trace_window_keys);
  tes_ui_test_add ("/tes/trace-window/select", test_trace_window_select);
  tes_ui_test_add ("/tes/trace-window/pixels", test_trace_window_pixels);
  tes_ui_test_add ("/tes/trace-window/fold", test_trace_window_fold);
  tes_ui_test_add ("/tes/trace-window/search", test_trace_window_search);
  tes_ui_test_add ("/tes/trace-window/summary", test_trace_window_summary);
  tes_ui_test_add ("/tes/trace-window/width", test_trace_window_width);
  tes_ui_test_add ("/tes/trace-window/step-details", test_trace_window_step_details);
  tes_ui_test_add ("/tes/trace-window/select-ipu", test_trace_window_select_ipu);
  tes_ui_test_add ("/tes/trace-window/options", test_trace_window_options);
  tes_ui_test_add ("/tes/trace-window/vendors", test_trace_window_vendors);
  tes_ui_test_add ("/tes/trace-window/absent", test_trace_window_absent);

  return tes_ui_test_run ();
}
