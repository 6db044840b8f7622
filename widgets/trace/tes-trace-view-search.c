/* tes-trace-view-search.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-trace-view"

#include "config.h"

#include "tes-trace-nav.h"
#include "tes-trace-view-private.h"

/* The trace's search: runs tes_report_search() in a thread, greys what
 * does not match (tes-trace-search.c parses the text and orders the
 * matches) and steps from match to match. */

void
_tes_trace_view_set_search_state (TesTraceView    *self,
                                  TesTraceMatches *matches,
                                  const char      *error_message)
{
  /* the last search's match being read is not wanted */
  if (self->match_cancellable != NULL)
    g_cancellable_cancel (self->match_cancellable);
  g_clear_object (&self->match_cancellable);
  g_clear_pointer (&self->matches, tes_trace_matches_free);
  self->matches = matches;
  g_free (self->search_error);
  self->search_error = g_strdup (error_message);
  self->current_match = -1;
  _tes_trace_view_invalidate (self);

  g_object_notify_by_pspec (G_OBJECT (self), _tes_trace_view_properties[PROP_N_MATCHES]);
  g_object_notify_by_pspec (G_OBJECT (self), _tes_trace_view_properties[PROP_CURRENT_MATCH]);
  g_object_notify_by_pspec (G_OBJECT (self), _tes_trace_view_properties[PROP_SEARCH_ERROR]);
}

typedef struct
{
  char     *pattern;
  gboolean  is_regex;
} SearchJob;

static void
search_job_free (gpointer data)
{
  SearchJob *job = data;

  g_free (job->pattern);
  g_free (job);
}

static void
search_worker (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  TesReport *report = source_object;
  SearchJob *job = task_data;
  g_autoptr(GArray) found = NULL;
  GError *error = NULL;

  if (!(found = tes_report_search (report, job->pattern, job->is_regex, cancellable, &error)))
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, tes_trace_matches_new (report, found),
                           (GDestroyNotify)tes_trace_matches_free);
}

static void
search_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(TesTraceView) self = user_data;
  g_autoptr(GError) error = NULL;
  TesTraceMatches *matches;

  matches = g_task_propagate_pointer (G_TASK (result), &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  g_clear_object (&self->search_cancellable);
  g_object_notify_by_pspec (G_OBJECT (self), _tes_trace_view_properties[PROP_SEARCHING]);
  _tes_trace_view_set_search_state (self, matches, error ? error->message : NULL);
}

/**
 * tes_trace_view_set_search:
 * @text: what to find in names, categories and arguments ("/…/": a
 *   regular expression); NULL or empty: no search
 *
 * Searches in a thread; slices that do not match are greyed when it is
 * done (#TesTraceView:n-matches then says how many did).
 */
void
tes_trace_view_set_search (TesTraceView *self,
                           const char   *text)
{
  g_autoptr(GTask) task = NULL;
  SearchJob *job;

  g_return_if_fail (TES_IS_TRACE_VIEW (self));

  if (g_strcmp0 (self->search_text, text) == 0)
    return;

  g_free (self->search_text);
  self->search_text = g_strdup (text);

  g_cancellable_cancel (self->search_cancellable);
  g_clear_object (&self->search_cancellable);

  job = g_new0 (SearchJob, 1);
  if (self->workspace == NULL || text == NULL || !tes_trace_parse_search (text, &job->pattern, &job->is_regex))
    {
      search_job_free (job);
      _tes_trace_view_set_search_state (self, NULL, NULL);
      g_object_notify_by_pspec (G_OBJECT (self), _tes_trace_view_properties[PROP_SEARCHING]);
      return;
    }

  self->search_cancellable = g_cancellable_new ();
  task = g_task_new (tes_workspace_get_report (self->workspace), self->search_cancellable,
                     search_done_cb, g_object_ref (self));
  g_task_set_source_tag (task, tes_trace_view_set_search);
  g_task_set_task_data (task, job, search_job_free);
  g_task_run_in_thread (task, search_worker);
  g_object_notify_by_pspec (G_OBJECT (self), _tes_trace_view_properties[PROP_SEARCHING]);
}

guint
tes_trace_view_get_n_matches (TesTraceView *self)
{
  g_return_val_if_fail (TES_IS_TRACE_VIEW (self), 0);

  return tes_trace_matches_get_n (self->matches);
}

int
tes_trace_view_get_current_match (TesTraceView *self)
{
  g_return_val_if_fail (TES_IS_TRACE_VIEW (self), -1);

  return self->current_match;
}

/* The match's slice is read in a thread; selected once read, unless
 * another step or another search came meanwhile. */
typedef struct
{
  guint               serial;
  TesTraceMatch       match;
  gboolean            found;
  TesSlice            slice;
} MatchJob;

static void
read_match_thread (GTask        *task,
                   gpointer      source_object,
                   gpointer      task_data,
                   GCancellable *cancellable)
{
  MatchJob *job = task_data;

  job->found = tes_trace_nav_get (source_object, job->match.track_id, job->match.index, job->match.start,
                                  &job->slice);
  g_task_return_boolean (task, TRUE);
}

static void
match_read_cb (GObject      *source_object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(TesTraceView) self = user_data;
  MatchJob *job = g_task_get_task_data (G_TASK (result));

  if (job->serial != self->match_serial || self->match_cancellable == NULL)
    return;

  g_clear_object (&self->match_cancellable);
  if (job->found)
    {
      _tes_trace_view_select_slice (self, job->match.track_id, &job->slice, TRUE);
      self->selected_box.matched = TRUE;
    }
}

/* Steps through the matches (+1 next, -1 previous, ±10), selects the one
 * it lands on (once read: tes_trace_view_is_stepping() until then) and
 * brings it into view: centred at the same zoom, or shown
 * whole when it is wider than the view. */
void
tes_trace_view_step_match (TesTraceView *self,
                           int           delta)
{
  g_autoptr(GTask) task = NULL;
  MatchJob *job;

  g_return_if_fail (TES_IS_TRACE_VIEW (self));

  if (self->workspace == NULL || tes_trace_matches_get_n (self->matches) == 0)
    return;

  self->current_match = (int)tes_trace_matches_step (self->matches, self->current_match, delta);
  job = g_new0 (MatchJob, 1);
  job->serial = ++self->match_serial;
  job->match = *tes_trace_matches_get (self->matches, (guint)self->current_match);
  if (self->match_cancellable != NULL)
    g_cancellable_cancel (self->match_cancellable);
  g_clear_object (&self->match_cancellable);
  self->match_cancellable = g_cancellable_new ();
  task = g_task_new (tes_workspace_get_report (self->workspace), self->match_cancellable,
                     match_read_cb, g_object_ref (self));
  g_task_set_source_tag (task, tes_trace_view_step_match);
  g_task_set_task_data (task, job, g_free);
  g_task_run_in_thread (task, read_match_thread);

  g_object_notify_by_pspec (G_OBJECT (self), _tes_trace_view_properties[PROP_CURRENT_MATCH]);
}
