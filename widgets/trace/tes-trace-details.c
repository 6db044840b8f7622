/* tes-trace-details.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-trace-section"

#include "config.h"

#include <glib/gi18n.h>

#include "tes-trace-details.h"
#include "tes-trace-render.h"

/* The Details pane's text of a slice. What it needs from the cache is
 * read apart (in a thread for the window, at once for the tests and the
 * section's own tes_trace_section_dup_details()), the text made on the
 * main thread from the workspace's units. */

typedef struct
{
  gint64  track_id;
  guint32 index;
  gint64  ns;      /* the slice's middle: a cycle may separate its start from the step's */
} DetailsJob;

void
tes_trace_details_free (TesTraceDetails *details)
{
  if (details == NULL)
    return;

  g_free (details->args);
  g_clear_pointer (&details->step, tes_bsp_step_free);
  g_free (details);
}

static TesTraceDetails *
read_details (TesReport        *report,
              const DetailsJob *job)
{
  TesTraceDetails *details = g_new0 (TesTraceDetails, 1);
  const TesTrack *track = tes_report_get_track (report, job->track_id);

  details->args = tes_report_get_slice_args (report, job->track_id, job->index, NULL);
  /* PopVision's Details of a program step, for a slice on a tile's lane
   * that a BSP step of its IPU spans */
  if (track != NULL && track->kind == TES_TRACK_TILE)
    details->step = tes_report_get_bsp_step_at (report, job->track_id, job->ns, NULL);

  return details;
}

TesTraceDetails *
tes_trace_details_read (TesReport         *report,
                        gint64             track_id,
                        const TesTraceBox *box)
{
  DetailsJob job = { track_id, box->index, box->start + box->dur / 2 };

  return read_details (report, &job);
}

static void
read_details_thread (GTask        *task,
                     gpointer      source_object,
                     gpointer      task_data,
                     GCancellable *cancellable)
{
  g_task_return_pointer (task, read_details (source_object, task_data), (GDestroyNotify)tes_trace_details_free);
}

void
tes_trace_details_read_async (TesReport           *report,
                              gint64               track_id,
                              const TesTraceBox   *box,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (report, cancellable, callback, user_data);
  DetailsJob *job = g_new (DetailsJob, 1);

  *job = (DetailsJob) { track_id, box->index, box->start + box->dur / 2 };
  g_task_set_source_tag (task, tes_trace_details_read_async);
  g_task_set_task_data (task, job, g_free);
  g_task_run_in_thread (task, read_details_thread);
}

TesTraceDetails *
tes_trace_details_read_finish (TesReport     *report,
                               GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, report), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
append_step (GString          *text,
             TesReport        *report,
             const TesBspStep *step)
{
  g_autofree char *number = NULL;
  g_autofree char *cycles = NULL;
  g_autofree char *active = NULL;
  g_autofree char *n_tiles = NULL;
  g_autofree char *all = NULL;
  g_autofree char *min = NULL;
  g_autofree char *max = NULL;
  g_autofree char *mean = NULL;
  TesBspStepStats stats;

  /* numbers grouped as everywhere in the window */
  tes_bsp_step_get_stats (step, &stats);
  number = tes_format_grouped (step->step);
  cycles = tes_format_grouped (stats.cycles);
  active = tes_format_grouped (stats.active_tiles);
  n_tiles = tes_format_grouped (stats.n_tiles);
  all = tes_format_grouped (stats.all_cycles);
  min = tes_format_grouped (stats.min_cycles);
  max = tes_format_grouped (stats.max_cycles);
  mean = tes_format_grouped_fixed (stats.mean_cycles, 1);

  /* Translators: a BSP program step's number and its program's name */
  g_string_append_printf (text, _("\nProgram step %s: %s\n"), number, tes_report_get_string (report, step->name));
  g_string_append_printf (text, _("Cycles: %s\n"), cycles);
  g_string_append_printf (text, _("Active tiles: %s of %s\n"), active, n_tiles);
  /* Translators: all the tiles' cycles added up, then their least, mean and most */
  g_string_append_printf (text, _("All cycles: %s (min %s, mean %s, max %s)\n"), all, min, mean, max);
  g_string_append_printf (text, _("Tile balance: %.1f %%\n"), stats.tile_balance);
  g_string_append_printf (text, _("Active tile balance: %.1f %%\n"), stats.active_tile_balance);
}

/* @start: the slice's start as the section shows times (since the run's). */
char *
tes_trace_details_format (TesWorkspace          *workspace,
                          gint64                 track_id,
                          const TesTraceBox     *box,
                          const char            *start,
                          const TesTraceDetails *details)
{
  TesReport *report = tes_workspace_get_report (workspace);
  const TesTrack *track = tes_report_get_track (report, track_id);
  const char *category = tes_report_get_string (report, box->category);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *duration = tes_workspace_format_duration (workspace, box->dur);
  g_autofree char *cycles = NULL;

  g_string_append_printf (text, "%s\n", tes_report_get_string (report, box->name));
  if (category != NULL && *category)
    g_string_append_printf (text, _("Category: %s\n"), category);
  g_string_append_printf (text, _("Lane: %s\n"), track->name);
  g_string_append_printf (text, _("Start: %s\n"), start);
  g_string_append_printf (text, _("Duration: %s\n"), duration);

  /* the same slice in the other base, when the report has a clock */
  if (tes_workspace_get_time_unit (workspace) != TES_TIME_UNIT_CYCLES &&
      (cycles = tes_trace_format_cycles (workspace, track, box->dur)))
    g_string_append_printf (text, _("Cycles: %s\n"), cycles);

  if (details->args != NULL && *details->args)
    g_string_append_printf (text, _("Arguments: %s\n"), details->args);

  if (details->step != NULL)
    append_step (text, report, details->step);

  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* A slice's arguments as its tooltip shows them: at most max_chars
 * characters, cut at a character's boundary and ended with "…" when
 * there are more (the Details pane shows them whole). */
char *
tes_trace_details_short_args (const char *args,
                              guint       max_chars)
{
  const char *end = args;

  if (args == NULL)
    return NULL;
  for (guint i = 0; i < max_chars && *end != '\0'; i++)
    end = g_utf8_next_char (end);
  if (*end == '\0')
    return g_strdup (args);

  return g_strdup_printf ("%.*s…", (int)(end - args), args);
}
