/* tes-bsp-load.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-bsp-section"

#include "config.h"

#include "tes-bsp-section.h"

/* A report's BSP steps as the heatmap and Tile Balance read them: loaded
 * with their sums once per report, off the main loop, shared by the
 * sections, and each tile's activity over a range counted from them. */

static void
tes_bsp_ipu_free (TesBspIpu *ipu)
{
  g_clear_pointer (&ipu->pyramid, tes_bsp_pyramid_free);
  g_clear_pointer (&ipu->steps, g_ptr_array_unref);
  g_clear_pointer (&ipu->spans, g_array_unref);
  g_free (ipu);
}

/**
 * tes_bsp_load_ipus:
 *
 * Every IPU's BSP steps (runs named "IPU n"), in IPU order, with the
 * sums a frame reads. Slow on big runs: call it off the main loop.
 *
 * Returns: (transfer full): TesBspIpu
 */
GPtrArray *
tes_bsp_load_ipus (TesReport  *report,
                   GError    **error)
{
  g_autoptr(GPtrArray) ipus = g_ptr_array_new_with_free_func ((GDestroyNotify)tes_bsp_ipu_free);
  g_autoptr(GArray) runs = NULL;

  if (!(runs = tes_report_get_runs (report, error)))
    return NULL;

  for (guint r = 0; r < runs->len; r++)
    {
      const TesRun *run = &g_array_index (runs, TesRun, r);
      TesBspIpu *ipu;
      int number;

      if ((number = tes_run_get_ipu (run)) < 0)
        continue;

      ipu = g_new0 (TesBspIpu, 1);
      ipu->ipu = number;
      ipu->spans = g_array_new (FALSE, FALSE, sizeof (TesBspSpan));
      g_ptr_array_add (ipus, ipu);
      if (!(ipu->steps = tes_report_get_bsp_steps (report, run->id, error)))
        return NULL;

      for (guint s = 0; s < ipu->steps->len; s++)
        {
          const TesBspStep *step = g_ptr_array_index (ipu->steps, s);
          TesBspSpan span = {
            .start = tes_report_convert_time (report, step->clock_id, 0, step->start),
            .end = tes_report_convert_time (report, step->clock_id, 0, step->start + step->dur),
            .dur_cycles = step->dur,
            .n_tiles = step->n_tiles,
            .tile_cycles = step->tile_cycles,
            .tile_states = step->tile_states,
          };

          ipu->n_tiles = MAX (ipu->n_tiles, step->n_tiles);
          g_array_append_val (ipu->spans, span);
        }
      ipu->pyramid = tes_bsp_pyramid_new ((const TesBspSpan *)(gpointer)ipu->spans->data, ipu->spans->len,
                                          ipu->n_tiles);
    }

  return g_steal_pointer (&ipus);
}

/* A report's IPUs are big (every step, and the sums): the sections of a
 * report share one load, kept on the report. */
#define SHARED_IPUS_KEY "tes-bsp-shared-ipus"

typedef struct
{
  GPtrArray *ipus;        /* once loaded */
  GError    *error;       /* or why not */
  GPtrArray *waiting;     /* GTask, while loading */
} SharedIpus;

static void
shared_ipus_free (SharedIpus *shared)
{
  g_clear_pointer (&shared->ipus, g_ptr_array_unref);
  g_clear_error (&shared->error);
  g_clear_pointer (&shared->waiting, g_ptr_array_unref);
  g_free (shared);
}

static void
shared_ipus_return (SharedIpus *shared,
                    GTask      *task)
{
  if (shared->ipus != NULL)
    g_task_return_pointer (task, g_ptr_array_ref (shared->ipus), (GDestroyNotify)g_ptr_array_unref);
  else
    g_task_return_error (task, g_error_copy (shared->error));
}

static void
shared_ipus_load_thread (GTask        *task,
                         gpointer      source_object,
                         gpointer      task_data,
                         GCancellable *cancellable)
{
  GError *error = NULL;
  GPtrArray *ipus = tes_bsp_load_ipus (source_object, &error);

  if (ipus == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, ipus, (GDestroyNotify)g_ptr_array_unref);
}

static void
shared_ipus_loaded (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  SharedIpus *shared = g_object_get_data (object, SHARED_IPUS_KEY);
  g_autoptr(GPtrArray) waiting = g_steal_pointer (&shared->waiting);

  shared->ipus = g_task_propagate_pointer (G_TASK (result), &shared->error);
  for (guint i = 0; i < waiting->len; i++)
    {
      shared_ipus_return (shared, g_ptr_array_index (waiting, i));
      g_object_unref (g_ptr_array_index (waiting, i));
    }
}

/**
 * tes_bsp_load_ipus_async:
 *
 * tes_bsp_load_ipus() in a thread, once per report: the sections of a
 * report share what it gives (tes_bsp_peek_ipus()).
 */
void
tes_bsp_load_ipus_async (TesReport           *report,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  SharedIpus *shared = g_object_get_data (G_OBJECT (report), SHARED_IPUS_KEY);
  g_autoptr(GTask) task = g_task_new (report, cancellable, callback, user_data);

  g_task_set_source_tag (task, tes_bsp_load_ipus_async);
  if (shared == NULL)
    {
      g_autoptr(GTask) load = g_task_new (report, NULL, shared_ipus_loaded, NULL);

      shared = g_new0 (SharedIpus, 1);
      shared->waiting = g_ptr_array_new ();
      g_object_set_data_full (G_OBJECT (report), SHARED_IPUS_KEY, shared, (GDestroyNotify)shared_ipus_free);
      g_task_run_in_thread (load, shared_ipus_load_thread);
    }

  if (shared->waiting != NULL)
    g_ptr_array_add (shared->waiting, g_steal_pointer (&task));
  else
    shared_ipus_return (shared, task);
}

/* Returns: (transfer full): TesBspIpu */
GPtrArray *
tes_bsp_load_ipus_finish (TesReport     *report,
                          GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, report), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* The IPUs tes_bsp_load_ipus_async() loaded for @report, or NULL while
 * none has (or it failed). */
GPtrArray *
tes_bsp_peek_ipus (TesReport *report)
{
  SharedIpus *shared = g_object_get_data (G_OBJECT (report), SHARED_IPUS_KEY);

  return shared != NULL ? shared->ipus : NULL;
}

/**
 * tes_bsp_get_tile_activity:
 * @ipus: as tes_bsp_load_ipus() gives them
 *
 * What tes_report_get_tile_activity() gives for [@start_ns, @end_ns),
 * row for row, from the sums: a long range costs the IPUs' tiles, not
 * their steps.
 *
 * Returns: (transfer full): TesTileActivity by IPU, then tile
 */
GArray *
tes_bsp_get_tile_activity (GPtrArray *ipus,
                           gint64     start_ns,
                           gint64     end_ns)
{
  GArray *activity = g_array_new (FALSE, TRUE, sizeof (TesTileActivity));
  g_autoptr(GPtrArray) by_ipu = g_ptr_array_new_with_free_func ((GDestroyNotify)g_array_unref);

  /* runs of one IPU number add up, as the report counts them */
  for (guint i = 0; i < ipus->len; i++)
    {
      const TesBspIpu *ipu = g_ptr_array_index (ipus, i);
      GArray *tiles;

      if (ipu->ipu < 0 || ipu->ipu >= 4096)
        continue;
      if ((guint)ipu->ipu >= by_ipu->len)
        g_ptr_array_set_size (by_ipu, ipu->ipu + 1);
      if (!(tiles = g_ptr_array_index (by_ipu, ipu->ipu)))
        g_ptr_array_index (by_ipu, ipu->ipu) = tiles = g_array_new (FALSE, TRUE, sizeof (TesTileActivity));
      for (guint t = tiles->len; t < ipu->n_tiles; t++)
        {
          TesTileActivity fresh = { .ipu = ipu->ipu, .tile = (gint)t };

          g_array_append_val (tiles, fresh);
        }
      if (ipu->n_tiles > 0)
        tes_bsp_pyramid_add_activity (ipu->pyramid, start_ns, end_ns, (TesTileActivity *)(gpointer)tiles->data);
    }

  for (guint i = 0; i < by_ipu->len; i++)
    {
      GArray *tiles = g_ptr_array_index (by_ipu, i);

      if (tiles != NULL)
        g_array_append_vals (activity, tiles->data, tiles->len);
    }

  return activity;
}
