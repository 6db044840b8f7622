/* tes-bsp-load.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-bsp-section"

#include "config.h"

#include "tes-bsp-section.h"

/* A report's BSP steps as the heatmap and Tile Balance read them
 * (tes_report_get_bsp_ipus()): loaded with their pyramid once per report,
 * off the main loop, shared by the sections. */

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
  GPtrArray *ipus = tes_report_get_bsp_ipus (source_object, TRUE, &error);

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
 * tes_report_get_bsp_ipus() with the pyramid, in a thread, once per report: the sections of a
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
