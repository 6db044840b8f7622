/* tes-trace-view-keys.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-trace-view"

#include "config.h"

#include "tes-trace-nav.h"
#include "tes-trace-view-private.h"

/* The trace's keys: with the focus, arrows move the selection from slice
 * to slice and row to row and Enter activates it; whatever has the
 * focus, chrome://tracing's letters zoom and pan. */

#define ZOOM_STEP  1.25
#define PAN_STEP   0.1

/* Left and Right: the lane's previous or next slice (in the flame view,
 * at the same depth). FALSE without a selected slice. */
static gboolean
step_slice (TesTraceView *self,
            int           direction)
{
  TesReport *report = tes_workspace_get_report (self->workspace);
  const guint8 *hidden;
  TesSlice from, found;
  gboolean stepped;
  int depth;

  if (!_tes_trace_view_has_selected_slice (self))
    return FALSE;

  if (!tes_trace_nav_get (report, self->selected_track, self->selected_box.index, self->selected_box.start, &from))
    return FALSE;

  depth = _tes_trace_view_effective_mode (self) == TES_TRACE_FLAME ? from.depth : -1;
  hidden = _tes_trace_view_hidden_names (self);
  /* steps the View menu leaves out are stepped over (a bounded number:
   * past that, the bell rather than a wait) */
  for (guint n = 0; (stepped = tes_trace_nav_step (report, self->selected_track, &from, direction, depth, &found)) &&
                    tes_trace_is_hidden (hidden, tes_report_get_n_strings (report), &found); n++)
    {
      if (n == 10000)
        {
          stepped = FALSE;
          break;
        }
      from = found;
    }
  if (stepped)
    _tes_trace_view_select_slice (self, self->selected_track, &found, FALSE);
  else
    gtk_widget_error_bell (GTK_WIDGET (self));

  return TRUE;
}

/* Up and Down: the slice at the same moment in the row above or below
 * (rows are lanes, and depths in the flame view), skipping rows with
 * nothing in the visible range. Without a selection, the first row's
 * slice nearest the middle of the view. */
typedef struct
{
  gint64 track_id;
  int    depth;    /* -1: any (the flat view) */
} Row;

static void
step_row (TesTraceView *self,
          int           direction)
{
  TesReport *report = tes_workspace_get_report (self->workspace);
  const TesTraceFrame *frame = _tes_trace_view_ensure_frame (self);
  gboolean flame = _tes_trace_view_effective_mode (self) == TES_TRACE_FLAME;
  gboolean selected = _tes_trace_view_has_selected_slice (self);
  g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (Row));
  gint64 t0, t1, moment;
  int at = -1;

  if (frame == NULL)
    return;

  /* (track, depth) of every row shown, top to bottom */
  for (guint i = 0; i < frame->lanes->len; i++)
    {
      const TesTraceLane *lane = &g_array_index (frame->lanes, TesTraceLane, i);
      guint levels = self->lane_state.group_levels;
      guint n_rows = flame ? MAX (lane->n_rows, levels + 1) : levels + 1;

      /* an I/O lane's blocks are other lanes' slices: not stepped to */
      if (!lane->has_slices || lane->is_counter || lane->io_ipu >= 0)
        continue;
      /* the steps' rows, not Group Executions' above them */
      for (guint row = levels; row < n_rows; row++)
        {
          Row pair = { lane->track_id, flame ? (int)(row - levels) : -1 };

          if (selected && lane->track_id == self->selected_track &&
              (!flame || row == self->selected_box.row))
            at = (int)rows->len;
          g_array_append_val (rows, pair);
        }
    }

  tes_workspace_get_visible (self->workspace, &t0, &t1);
  moment = selected ? self->selected_box.start + self->selected_box.dur / 2 : t0 + (t1 - t0) / 2;
  if (at < 0)
    at = direction > 0 ? -1 : (int)rows->len;

  for (int i = at + direction; i >= 0 && i < (int)rows->len; i += direction)
    {
      const Row *pair = &g_array_index (rows, Row, (guint)i);
      TesSlice found;

      if (tes_trace_nav_at (report, pair->track_id, pair->depth, moment, t0, t1, &found))
        {
          _tes_trace_view_select_slice (self, pair->track_id, &found, FALSE);
          return;
        }
    }

  gtk_widget_error_bell (GTK_WIDGET (self));
}

static gboolean
tes_trace_view_key_pressed_cb (TesTraceView          *self,
                               guint                  keyval,
                               guint                  keycode,
                               GdkModifierType        state,
                               GtkEventControllerKey *controller)
{
  if (self->workspace == NULL || (state & (GDK_CONTROL_MASK | GDK_ALT_MASK | GDK_SHIFT_MASK)) != 0)
    return FALSE;

  switch (keyval)
    {
    /* without a selected slice, Left and Right pan as A and D do */
    case GDK_KEY_Left: case GDK_KEY_KP_Left:
      return step_slice (self, -1);
    case GDK_KEY_Right: case GDK_KEY_KP_Right:
      return step_slice (self, 1);
    case GDK_KEY_Up: case GDK_KEY_KP_Up:
      step_row (self, -1);
      return TRUE;
    case GDK_KEY_Down: case GDK_KEY_KP_Down:
      step_row (self, 1);
      return TRUE;
    case GDK_KEY_Return: case GDK_KEY_KP_Enter: case GDK_KEY_ISO_Enter: case GDK_KEY_space:
      if (!_tes_trace_view_has_selected_slice (self))
        return FALSE;
      g_signal_emit (self, _tes_trace_view_signals[ACTIVATE_SLICE], 0);
      return TRUE;
    default:
      return FALSE;
    }
}

static void
zoom_to_selection (TesTraceView *self)
{
  gint64 start, end;

  if (tes_workspace_get_selection (self->workspace, &start, &end))
    _tes_trace_view_zoom_to (self, start, end);
  else if (self->selected_track != 0)
    _tes_trace_view_zoom_to (self, self->selected_box.start, self->selected_box.start + self->selected_box.dur);
}

typedef enum
{
  KEY_ZOOM_IN,
  KEY_ZOOM_OUT,
  KEY_PAN_BACK,
  KEY_PAN_ON,
  KEY_SHOW_ALL,
  KEY_ZOOM_SELECTION,
  KEY_CLEAR,
} KeyAction;

static gboolean
tes_trace_view_key_cb (GtkWidget *widget,
                       GVariant  *args,
                       gpointer   user_data)
{
  TesTraceView *self = TES_TRACE_VIEW (widget);

  if (self->workspace == NULL)
    return FALSE;

  switch ((KeyAction)GPOINTER_TO_INT (user_data))
    {
    case KEY_ZOOM_IN: tes_trace_view_zoom (self, 1 / ZOOM_STEP); break;
    case KEY_ZOOM_OUT: tes_trace_view_zoom (self, ZOOM_STEP); break;
    case KEY_PAN_BACK: tes_trace_view_pan (self, -PAN_STEP); break;
    case KEY_PAN_ON: tes_trace_view_pan (self, PAN_STEP); break;
    case KEY_SHOW_ALL: tes_workspace_show_all (self->workspace); break;
    case KEY_ZOOM_SELECTION: zoom_to_selection (self); break;
    case KEY_CLEAR:
    default:
      tes_workspace_clear_selection (self->workspace);
      tes_workspace_set_selected_slices (self->workspace, NULL, 0);
      self->selected_track = 0;
      break;
    }

  return TRUE;
}

/* chrome://tracing's keys. They work whenever the trace is on screen,
 * whatever has the focus (the sidebar, a button): global shortcuts are
 * the window's last resort, so a text entry still gets its letters. */
static GtkEventController *
key_controller_new (void)
{
  static const struct { guint keyval; KeyAction action; } keys[] = {
    { GDK_KEY_w, KEY_ZOOM_IN }, { GDK_KEY_s, KEY_ZOOM_OUT },
    { GDK_KEY_a, KEY_PAN_BACK }, { GDK_KEY_Left, KEY_PAN_BACK },
    { GDK_KEY_d, KEY_PAN_ON }, { GDK_KEY_Right, KEY_PAN_ON },
    { GDK_KEY_Home, KEY_SHOW_ALL }, { GDK_KEY_0, KEY_SHOW_ALL }, { GDK_KEY_KP_0, KEY_SHOW_ALL },
    { GDK_KEY_f, KEY_ZOOM_SELECTION },
    { GDK_KEY_Escape, KEY_CLEAR },
  };
  GtkEventController *controller = gtk_shortcut_controller_new ();

  gtk_shortcut_controller_set_scope (GTK_SHORTCUT_CONTROLLER (controller), GTK_SHORTCUT_SCOPE_GLOBAL);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller),
                                          gtk_shortcut_new (gtk_keyval_trigger_new (keys[i].keyval, 0),
                                                            gtk_callback_action_new (tes_trace_view_key_cb,
                                                                                     GINT_TO_POINTER (keys[i].action),
                                                                                     NULL)));

  return controller;
}

void
_tes_trace_view_add_key_controllers (TesTraceView *self)
{
  GtkEventController *controller;

  gtk_widget_add_controller (GTK_WIDGET (self), key_controller_new ());

  /* the focused view's own keys come before the window-wide ones */
  controller = gtk_event_controller_key_new ();
  g_signal_connect_object (controller, "key-pressed", G_CALLBACK (tes_trace_view_key_pressed_cb),
                           self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}
