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

/* The arrows find the slice to go to with queries of the report, which
 * run in a thread: the view goes on drawing meanwhile, and arrows pressed
 * before the slice is found are stepped after it, in order. */
typedef struct
{
  gint64 track_id;
  int    depth;    /* -1: any (the flat view) */
} Row;

typedef struct
{
  guint     serial;
  int       direction;
  /* Left and Right: from the selected slice */
  gboolean  by_row;
  gint64    track_id;
  guint32   index;
  gint64    start;
  gboolean  flame;
  guint8   *hidden;     /* a copy of the view's hidden names; NULL: none */
  guint     n_strings;
  /* Up and Down: the rows shown, from the one after at */
  GArray   *rows;
  int       at;
  gint64    moment;
  gint64    t0;
  gint64    t1;
  /* what was found */
  gboolean  found;
  gint64    found_track;
  TesSlice  slice;
} StepJob;

static void
step_job_free (gpointer data)
{
  StepJob *job = data;

  g_clear_pointer (&job->hidden, g_free);
  g_clear_pointer (&job->rows, g_array_unref);
  g_free (job);
}

/* Left and Right: the lane's previous or next slice (in the flame view,
 * at the same depth); Up and Down: the slice at the same moment in the
 * row above or below (rows are lanes, and depths in the flame view),
 * skipping rows with nothing in the visible range. */
static void
step_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  TesReport *report = source_object;
  StepJob *job = task_data;

  if (job->by_row)
    {
      for (int i = job->at + job->direction;
           i >= 0 && i < (int)job->rows->len && !g_cancellable_is_cancelled (cancellable);
           i += job->direction)
        {
          const Row *pair = &g_array_index (job->rows, Row, (guint)i);

          if ((job->found = tes_trace_nav_at (report, pair->track_id, pair->depth, job->moment,
                                              job->t0, job->t1, &job->slice)))
            {
              job->found_track = pair->track_id;
              break;
            }
        }
    }
  else
    {
      TesSlice from;

      job->found_track = job->track_id;
      if (tes_trace_nav_get (report, job->track_id, job->index, job->start, &from))
        {
          int depth = job->flame ? from.depth : -1;

          /* steps the View menu leaves out are stepped over (a bounded
           * number: past that, the bell rather than a wait) */
          for (guint n = 0; (job->found = tes_trace_nav_step (report, job->track_id, &from, job->direction,
                                                              depth, &job->slice)) &&
                            tes_trace_is_hidden (job->hidden, job->n_strings, &job->slice); n++)
            {
              if (n == 10000 || g_cancellable_is_cancelled (cancellable))
                {
                  job->found = FALSE;
                  break;
                }
              from = job->slice;
            }
        }
    }

  g_task_return_boolean (task, TRUE);
}

static void start_next_step (TesTraceView *self);

static void
step_done_cb (GObject      *source_object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(TesTraceView) self = user_data;
  StepJob *job = g_task_get_task_data (G_TASK (result));

  /* the report changed meanwhile */
  if (job->serial != self->step_serial || self->step_cancellable == NULL)
    return;

  g_clear_object (&self->step_cancellable);
  if (job->found)
    _tes_trace_view_select_slice (self, job->found_track, &job->slice, FALSE);
  else
    gtk_widget_error_bell (GTK_WIDGET (self));

  start_next_step (self);
}

static void
run_step (TesTraceView *self,
          StepJob      *job)
{
  g_autoptr(GTask) task = NULL;

  self->step_cancellable = g_cancellable_new ();
  job->serial = ++self->step_serial;
  task = g_task_new (tes_workspace_get_report (self->workspace), self->step_cancellable,
                     step_done_cb, g_object_ref (self));
  g_task_set_source_tag (task, run_step);
  g_task_set_task_data (task, job, step_job_free);
  g_task_run_in_thread (task, step_thread);
}

/* Left and Right. FALSE without a selected slice. */
static gboolean
step_slice (TesTraceView *self,
            int           direction)
{
  TesReport *report = tes_workspace_get_report (self->workspace);
  const guint8 *hidden;
  StepJob *job;

  if (!_tes_trace_view_has_selected_slice (self))
    return FALSE;

  job = g_new0 (StepJob, 1);
  job->direction = direction;
  job->track_id = self->selected_track;
  job->index = self->selected_box.index;
  job->start = self->selected_box.start;
  job->flame = _tes_trace_view_effective_mode (self) == TES_TRACE_FLAME;
  job->n_strings = tes_report_get_n_strings (report);
  if ((hidden = _tes_trace_view_hidden_names (self)))
    job->hidden = g_memdup2 (hidden, job->n_strings);
  run_step (self, job);

  return TRUE;
}

/* Up and Down, over the rows of the frame drawn. Without a selection,
 * the first row's slice nearest the middle of the view. */
static void
step_row (TesTraceView *self,
          int           direction)
{
  const TesTraceFrame *frame = _tes_trace_view_ensure_frame (self);
  gboolean flame = _tes_trace_view_effective_mode (self) == TES_TRACE_FLAME;
  gboolean selected = _tes_trace_view_has_selected_slice (self);
  StepJob *job;

  if (frame == NULL)
    {
      start_next_step (self);
      return;
    }

  job = g_new0 (StepJob, 1);
  job->by_row = TRUE;
  job->direction = direction;
  job->rows = g_array_new (FALSE, FALSE, sizeof (Row));
  job->at = -1;

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
            job->at = (int)job->rows->len;
          g_array_append_val (job->rows, pair);
        }
    }

  tes_workspace_get_visible (self->workspace, &job->t0, &job->t1);
  job->moment = selected ? self->selected_box.start + self->selected_box.dur / 2
                         : job->t0 + (job->t1 - job->t0) / 2;
  if (job->at < 0)
    job->at = direction > 0 ? -1 : (int)job->rows->len;
  run_step (self, job);
}

/* Runs the arrow pressed first of those waiting, once the last step is
 * done. */
static void
start_next_step (TesTraceView *self)
{
  guint keyval;

  while (self->step_cancellable == NULL && self->step_queue->len > 0)
    {
      keyval = g_array_index (self->step_queue, guint, 0);
      g_array_remove_index (self->step_queue, 0);
      switch (keyval)
        {
        case GDK_KEY_Left:
          /* no selection any more: nothing to step from */
          if (!step_slice (self, -1))
            gtk_widget_error_bell (GTK_WIDGET (self));
          break;
        case GDK_KEY_Right:
          if (!step_slice (self, 1))
            gtk_widget_error_bell (GTK_WIDGET (self));
          break;
        case GDK_KEY_Up:
          step_row (self, -1);
          break;
        default:
          step_row (self, 1);
          break;
        }
    }
}

/* Whether the slice an arrow key or the search's step goes to is still
 * being looked for (it is selected when found). */
gboolean
tes_trace_view_is_stepping (TesTraceView *self)
{
  g_return_val_if_fail (TES_IS_TRACE_VIEW (self), FALSE);

  return self->step_cancellable != NULL || self->step_queue->len > 0 || self->match_cancellable != NULL;
}

/* Another report, or none: the steps looked for go. */
void
_tes_trace_view_cancel_steps (TesTraceView *self)
{
  if (self->step_cancellable != NULL)
    g_cancellable_cancel (self->step_cancellable);
  g_clear_object (&self->step_cancellable);
  if (self->step_queue != NULL)
    g_array_set_size (self->step_queue, 0);
  if (self->match_cancellable != NULL)
    g_cancellable_cancel (self->match_cancellable);
  g_clear_object (&self->match_cancellable);
}

/* An arrow: stepped now, or after the steps waiting. */
static gboolean
arrow (TesTraceView *self,
       guint         keyval)
{
  gboolean horizontal = keyval == GDK_KEY_Left || keyval == GDK_KEY_Right;

  if (tes_trace_view_is_stepping (self))
    {
      g_array_append_val (self->step_queue, keyval);
      return TRUE;
    }

  if (horizontal)
    return step_slice (self, keyval == GDK_KEY_Left ? -1 : 1);

  step_row (self, keyval == GDK_KEY_Up ? -1 : 1);
  return TRUE;
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
      return arrow (self, GDK_KEY_Left);
    case GDK_KEY_Right: case GDK_KEY_KP_Right:
      return arrow (self, GDK_KEY_Right);
    case GDK_KEY_Up: case GDK_KEY_KP_Up:
      return arrow (self, GDK_KEY_Up);
    case GDK_KEY_Down: case GDK_KEY_KP_Down:
      return arrow (self, GDK_KEY_Down);
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
