/* tes-trace-view-frames.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-trace-view"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "tes-trace-view-private.h"

/* The trace's frames are built in a thread: reading the report may take
 * a while (the cache on a slow disk, ten million slices), and drawing,
 * tooltips and keys must never wait on it. The view asks for the frame of
 * what it shows now with a copy of what that depends on, keeps drawing the
 * last finished frame meanwhile, and draws the new one when it comes. A
 * request superseded by another is cancelled, and whatever it still
 * returns is dropped (by its serial). The CLI and the tests build frames
 * with tes_trace_frame_build() itself. */

typedef struct
{
  TesTraceFrameKey  key;
  guint             serial;
  TesTraceRequest   request;
  /* the request's own copies of the view's lanes and search */
  TesTraceLaneState lanes;
  TesTraceMatches  *matches;
  guint8           *hidden_names;
  GArray           *overview;
  GPtrArray        *balance;
  /* Aggregate StreamCopy Blocks' I/O lanes: the view's (sharing its
   * tables), or found here for the first frame needing them */
  TesTraceIoEvents *io_events;
  gboolean          find_io_events;
  char             *io_error;
} FrameJob;

static void
frame_job_free (gpointer data)
{
  FrameJob *job = data;

  g_clear_pointer (&job->lanes.collapsed, g_hash_table_unref);
  g_clear_pointer (&job->lanes.hidden, g_hash_table_unref);
  g_clear_pointer (&job->lanes.pinned, g_array_unref);
  g_clear_pointer (&job->matches, tes_trace_matches_free);
  g_clear_pointer (&job->hidden_names, g_free);
  g_clear_pointer (&job->overview, g_array_unref);
  g_clear_pointer (&job->balance, g_ptr_array_unref);
  g_clear_pointer (&job->io_events, tes_trace_io_events_free);
  g_clear_pointer (&job->io_error, g_free);
  g_free (job);
}

static gboolean
key_equal (const TesTraceFrameKey *a,
           const TesTraceFrameKey *b)
{
  return a->scale.t0 == b->scale.t0 && a->scale.t1 == b->scale.t1 && a->scale.width == b->scale.width &&
         a->view_height == b->view_height && a->scroll_y == b->scroll_y && a->mode == b->mode &&
         a->hide == b->hide && a->group_levels == b->group_levels && a->generation == b->generation &&
         !a->show_flows == !b->show_flows && !a->show_runs == !b->show_runs &&
         !a->group_syncs == !b->group_syncs && !a->tile_balance == !b->tile_balance &&
         !a->show_terminals == !b->show_terminals && !a->relative_cycles == !b->relative_cycles &&
         !a->io_events == !b->io_events;
}

static GHashTable *
copy_set (GHashTable *set)
{
  GHashTable *copy = g_hash_table_new (NULL, NULL);
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, set);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_hash_table_add (copy, key);

  return copy;
}

/* Shares the tables: they are never changed once found. */
static TesTraceIoEvents *
io_events_share (const TesTraceIoEvents *io)
{
  TesTraceIoEvents *copy = g_new0 (TesTraceIoEvents, 1);

  copy->lane_of = g_hash_table_ref (io->lane_of);
  copy->members = g_hash_table_ref (io->members);
  copy->aggregated = g_hash_table_ref (io->aggregated);
  copy->ipu = g_hash_table_ref (io->ipu);

  return copy;
}

static void
build_frame_thread (GTask        *task,
                    gpointer      source_object,
                    gpointer      task_data,
                    GCancellable *cancellable)
{
  TesReport *report = source_object;
  FrameJob *job = task_data;
  g_autoptr(GError) error = NULL;
  TesTraceFrame *frame;

  if (job->find_io_events)
    {
      if (!(job->io_events = tes_trace_io_events (report, &error)))
        {
          job->io_error = g_strdup (error->message);
          g_clear_error (&error);
        }
      job->lanes.io_events = job->io_events;
    }

  if (!(frame = tes_trace_frame_build (report, &job->request, cancellable, &error)))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, frame, (GDestroyNotify)tes_trace_frame_free);
}

static void
frame_built_cb (GObject      *source_object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(TesTraceView) self = user_data;
  FrameJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autoptr(TesTraceFrame) frame = g_task_propagate_pointer (G_TASK (result), &error);

  /* superseded, or for a report no longer shown */
  if (job->serial != self->frame_serial || self->frame_cancellable == NULL)
    return;

  g_clear_object (&self->frame_cancellable);
  if (job->find_io_events && !self->io_events_known)
    {
      if (job->io_error != NULL)
        g_warning ("Cannot read the Lightweight Profiling blocks: %s", job->io_error);
      self->io_events = g_steal_pointer (&job->io_events);
      self->io_events_known = TRUE;
    }

  if (frame == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("Cannot read the trace: %s", error->message);
      return;
    }

  g_clear_pointer (&self->frame, tes_trace_frame_free);
  self->frame = g_steal_pointer (&frame);
  self->frame_key = job->key;
  _tes_trace_view_update_adjustment (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  _tes_trace_view_queue_accessible_update (self);
}

static void
start_frame (TesTraceView           *self,
             const TesTraceFrameKey *key)
{
  TesReport *report = tes_workspace_get_report (self->workspace);
  g_autoptr(GTask) task = NULL;
  FrameJob *job = g_new0 (FrameJob, 1);
  const guint8 *hidden_names = _tes_trace_view_hidden_names (self);

  if (self->frame_cancellable != NULL)
    g_cancellable_cancel (self->frame_cancellable);
  g_clear_object (&self->frame_cancellable);
  self->frame_cancellable = g_cancellable_new ();

  job->key = *key;
  job->serial = ++self->frame_serial;
  job->lanes = self->lane_state;
  job->lanes.collapsed = copy_set (self->collapsed);
  job->lanes.hidden = copy_set (self->hidden);
  job->lanes.pinned = g_array_copy (self->pinned);
  job->lanes.io_events = NULL;
  if (key->io_events)
    {
      if (self->io_events_known)
        job->io_events = self->io_events ? io_events_share (self->io_events) : NULL;
      else
        job->find_io_events = TRUE;
      job->lanes.io_events = job->io_events;
    }
  job->matches = tes_trace_matches_copy (self->matches);
  if (hidden_names != NULL)
    job->hidden_names = g_memdup2 (hidden_names, tes_report_get_n_strings (report));
  /* the whole run's miniature depends on the width alone */
  if (self->frame != NULL && self->frame->overview != NULL)
    job->overview = g_array_ref (self->frame->overview);
  if (self->frame != NULL && self->frame->balance != NULL)
    job->balance = g_ptr_array_ref (self->frame->balance);

  job->request = (TesTraceRequest) {
    .scale = key->scale,
    .mode = key->mode,
    .lanes = &job->lanes,
    .matches = job->matches,
    .scroll_y = key->scroll_y,
    .view_height = key->view_height,
    .overview = job->overview,
    .show_flows = key->show_flows,
    .show_runs = key->show_runs,
    .group_syncs = key->group_syncs,
    .tile_balance = key->tile_balance,
    .balance = job->balance,
    .hide = key->hide,
    .hidden_names = job->hidden_names,
    .show_terminals = key->show_terminals,
    .relative_cycles = key->relative_cycles,
  };
  self->pending_key = *key;

  task = g_task_new (report, self->frame_cancellable, frame_built_cb, g_object_ref (self));
  g_task_set_source_tag (task, start_frame);
  g_task_set_task_data (task, job, frame_job_free);
  g_task_run_in_thread (task, build_frame_thread);
}

/* The last finished frame, after asking for the one of what the widget
 * shows now when that is another (and not already asked for); NULL
 * before the first. */
const TesTraceFrame *
_tes_trace_view_ensure_frame (TesTraceView *self)
{
  TesTraceFrameKey key;

  if (!_tes_trace_view_frame_key (self, &key))
    return NULL;

  if (self->frame != NULL && key_equal (&self->frame_key, &key))
    {
      /* back where the view was: what it asked for since is not wanted */
      if (self->frame_cancellable != NULL)
        {
          g_cancellable_cancel (self->frame_cancellable);
          g_clear_object (&self->frame_cancellable);
        }
      return self->frame;
    }

  if (self->frame_cancellable == NULL || !key_equal (&self->pending_key, &key))
    start_frame (self, &key);

  return self->frame;
}

/* Until its first frame is built (in a thread, over a big report or a
 * slow disk) the view says so, in the middle, instead of staying blank. */
void
_tes_trace_view_snapshot_pending (TesTraceView *self,
                                  GtkSnapshot  *snapshot,
                                  int           width,
                                  int           height)
{
  /* Translators: shown in the Execution Trace until its first frame is drawn */
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), _("Drawing the trace…"));
  GdkRGBA dim = { 0x77 / 255.0, 0x76 / 255.0, 0x7b / 255.0, 1.0 };
  int text_width, text_height;

  pango_layout_get_pixel_size (layout, &text_width, &text_height);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (floor ((width - text_width) / 2.0),
                                                          floor ((height - text_height) / 2.0)));
  gtk_snapshot_append_layout (snapshot, layout, &dim);
  gtk_snapshot_restore (snapshot);
}

/* Whether the frame of what the view shows now is still being built
 * (asking starts it): tes_trace_view_get_frame() returns the last one
 * meanwhile. */
gboolean
tes_trace_view_is_frame_pending (TesTraceView *self)
{
  g_return_val_if_fail (TES_IS_TRACE_VIEW (self), FALSE);

  _tes_trace_view_ensure_frame (self);

  return self->frame_cancellable != NULL;
}

/* Another report, or none: its frames go, and any still being built. */
void
_tes_trace_view_drop_frames (TesTraceView *self)
{
  if (self->frame_cancellable != NULL)
    g_cancellable_cancel (self->frame_cancellable);
  g_clear_object (&self->frame_cancellable);
  g_clear_pointer (&self->frame, tes_trace_frame_free);
}

/* The tooltip's slice arguments are read from the cache too: the tooltip
 * shows without them at first, and again with them once read. */
typedef struct
{
  gint64  track_id;
  guint32 index;
} ArgsJob;

static void
read_args_thread (GTask        *task,
                  gpointer      source_object,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  ArgsJob *job = task_data;

  g_task_return_pointer (task, tes_report_get_slice_args (source_object, job->track_id, job->index, NULL),
                         g_free);
}

static void
args_read_cb (GObject      *source_object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(TesTraceView) self = user_data;
  ArgsJob *job = g_task_get_task_data (G_TASK (result));
  g_autofree char *args = g_task_propagate_pointer (G_TASK (result), NULL);

  /* another slice's asked for since, or another report */
  if (self->args_cancellable == NULL || job->track_id != self->args_track || job->index != self->args_index)
    return;

  g_clear_object (&self->args_cancellable);
  g_free (self->args);
  self->args = g_steal_pointer (&args);
  self->args_known = TRUE;
  gtk_widget_trigger_tooltip_query (GTK_WIDGET (self));
}

/* The arguments of slice @index of @track_id when read already (NULL
 * until then, or when it has none); reads them when not. */
const char *
_tes_trace_view_slice_args (TesTraceView *self,
                            gint64        track_id,
                            guint32       index)
{
  g_autoptr(GTask) task = NULL;
  ArgsJob *job;

  if (track_id == self->args_track && index == self->args_index &&
      (self->args_known || self->args_cancellable != NULL))
    return self->args;

  _tes_trace_view_forget_args (self);
  self->args_track = track_id;
  self->args_index = index;
  self->args_cancellable = g_cancellable_new ();
  job = g_new (ArgsJob, 1);
  *job = (ArgsJob) { track_id, index };
  task = g_task_new (tes_workspace_get_report (self->workspace), self->args_cancellable,
                     args_read_cb, g_object_ref (self));
  g_task_set_source_tag (task, _tes_trace_view_slice_args);
  g_task_set_task_data (task, job, g_free);
  g_task_run_in_thread (task, read_args_thread);

  return NULL;
}

void
_tes_trace_view_forget_args (TesTraceView *self)
{
  if (self->args_cancellable != NULL)
    g_cancellable_cancel (self->args_cancellable);
  g_clear_object (&self->args_cancellable);
  g_clear_pointer (&self->args, g_free);
  self->args_known = FALSE;
  self->args_track = 0;
}
