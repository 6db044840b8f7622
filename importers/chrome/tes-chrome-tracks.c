/* tes-chrome-tracks.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-chrome"

#include "config.h"

#include "tes-chrome-builder-private.h"
#include "tes-chrome-flavour.h"

#include <string.h>

/* The tracks, in display order: processes by sort_index then pid, under
 * each its threads by sort_index then tid, then its async tracks by first
 * timestamp and its counters by name; a "Global" process for global
 * instants and async tracks last. */

static gboolean
process_needs_track (TesChromeMergedProcess *mp)
{
  if (mp->asyncs->len > 0 || mp->counters->len > 0 || mp->has_instants)
    return TRUE;

  for (guint i = 0; i < mp->threads->len; i++)
    {
      TesChromeMergedThread *mt = g_ptr_array_index (mp->threads, i);

      if (!mt->claimed && (mt->used || tes_chrome_thread_has_slices (mt)))
        return TRUE;
    }

  return FALSE;
}

static int
compare_id_keys (gint64            a,
                 guint             a_str,
                 gint64            b,
                 guint             b_str,
                 TesChromeBuilder *builder)
{
  if (a_str != b_str)
    return a_str ? 1 : -1;
  if (a_str)
    return g_strcmp0 (tes_chrome_text (builder, (guint32)a), tes_chrome_text (builder, (guint32)b));
  return (a > b) - (a < b);
}

static int
compare_processes (gconstpointer pa,
                   gconstpointer pb,
                   gpointer      builder)
{
  const TesChromeMergedProcess *a = *(TesChromeMergedProcess * const *)pa;
  const TesChromeMergedProcess *b = *(TesChromeMergedProcess * const *)pb;
  int c;

  if (a->sort_index != b->sort_index)
    return a->sort_index < b->sort_index ? -1 : 1;
  if ((c = compare_id_keys (a->pid, a->key_flags, b->pid, b->key_flags, builder)))
    return c;
  return (a->order > b->order) - (a->order < b->order);
}

int
tes_chrome_compare_threads (gconstpointer pa,
                            gconstpointer pb,
                            gpointer      builder)
{
  const TesChromeMergedThread *a = *(TesChromeMergedThread * const *)pa;
  const TesChromeMergedThread *b = *(TesChromeMergedThread * const *)pb;
  int c;

  if (a->flavour_order != b->flavour_order)
    return a->flavour_order < b->flavour_order ? -1 : 1;
  if (a->flavour_suborder != b->flavour_suborder)
    return a->flavour_suborder < b->flavour_suborder ? -1 : 1;
  if (a->sort_index != b->sort_index)
    return a->sort_index < b->sort_index ? -1 : 1;
  if ((c = compare_id_keys (a->tid, a->key_flags, b->tid, b->key_flags, builder)))
    return c;
  return (a->order > b->order) - (a->order < b->order);
}

static int
compare_async_tracks (gconstpointer pa,
                      gconstpointer pb)
{
  const TesChromeAsyncTrack *a = *(TesChromeAsyncTrack * const *)pa;
  const TesChromeAsyncTrack *b = *(TesChromeAsyncTrack * const *)pb;

  if (a->first_ts != b->first_ts)
    return a->first_ts < b->first_ts ? -1 : 1;
  return (a->order > b->order) - (a->order < b->order);
}

static int
compare_counters (gconstpointer pa,
                  gconstpointer pb)
{
  const TesChromeMergedCounter *a = *(TesChromeMergedCounter * const *)pa;
  const TesChromeMergedCounter *b = *(TesChromeMergedCounter * const *)pb;

  return g_strcmp0 (a->label, b->label);
}

static char *
id_text (TesChromeBuilder *b,
         gint64            value,
         guint             is_string)
{
  if (is_string)
    return g_strdup (tes_chrome_text (b, (guint32)value));
  return g_strdup_printf ("%" G_GINT64_FORMAT, value);
}

static void
create_thread_tracks (TesChromeBuilder       *b,
                      TesChromeMergedProcess *mp,
                      gint64                  parent,
                      guint                  *sort)
{
  g_ptr_array_sort_with_data (mp->threads, tes_chrome_compare_threads, b);

  for (guint i = 0; i < mp->threads->len; i++)
    {
      TesChromeMergedThread *mt = g_ptr_array_index (mp->threads, i);
      g_autofree char *pid = id_text (b, mp->pid, mp->key_flags);
      g_autofree char *tid = id_text (b, mt->tid, mt->key_flags);
      g_autofree char *native = g_strdup_printf ("%s:%s", pid, tid);
      g_autofree char *fallback = NULL;

      if (mt->claimed || !(mt->used || tes_chrome_thread_has_slices (mt)))
        continue;

      if (mt->name == 0)
        fallback = g_strdup_printf ("Thread %s", tid);

      if (b->flavour->thread_track != NULL && b->flavour->thread_track (b, mt, parent, *sort, native))
        {
          (*sort)++;
          continue;
        }

      mt->track_id = tes_chrome_add_track (b, parent, TES_TRACK_THREAD,
                                mt->name ? tes_chrome_text (b, mt->name) : fallback, (*sort)++, native);
    }
}

void
tes_chrome_builder_add_tracks (TesChromeBuilder *b)
{
  g_autoptr(GPtrArray) order = g_ptr_array_new ();
  guint sort = 0;

  /* a flavour's tracks come first */
  if (b->flavour->add_tracks != NULL)
    sort = b->flavour->add_tracks (b);

  for (guint i = 0; i < b->processes->len; i++)
    g_ptr_array_add (order, g_ptr_array_index (b->processes, i));
  g_ptr_array_sort_with_data (order, compare_processes, b);

  for (guint i = 0; i < order->len; i++)
    {
      TesChromeMergedProcess *mp = g_ptr_array_index (order, i);
      g_autofree char *pid = id_text (b, mp->pid, mp->key_flags);
      g_autofree char *fallback = NULL;
      g_autofree char *native = g_strdup_printf ("%s", pid);
      guint child_sort = 0;
      TesTrackKind kind = TES_TRACK_PROCESS;
      gint ipu = -1;

      if (!process_needs_track (mp))
        continue;

      if (mp->name == 0)
        fallback = g_strdup_printf ("Process %s", pid);
      if (b->flavour->process_kind != NULL)
        kind = b->flavour->process_kind (b, mp, &ipu);
      mp->track_id = tes_chrome_add_track (b, 0, kind, mp->name ? tes_chrome_text (b, mp->name) : fallback,
                                sort++, native);
      if (ipu >= 0)
        tes_cache_writer_set_track_tile (b->writer, mp->track_id, ipu, -1);

      create_thread_tracks (b, mp, mp->track_id, &child_sort);

      g_ptr_array_sort (mp->asyncs, compare_async_tracks);
      for (guint j = 0; j < mp->asyncs->len; j++)
        {
          TesChromeAsyncTrack *t = g_ptr_array_index (mp->asyncs, j);

          t->track_id = tes_chrome_add_track (b, mp->track_id, TES_TRACK_ASYNC,
                                   t->name ? tes_chrome_text (b, t->name) : "Async", child_sort++, NULL);
        }

      g_ptr_array_sort (mp->counters, compare_counters);
      for (guint j = 0; j < mp->counters->len; j++)
        {
          TesChromeMergedCounter *c = g_ptr_array_index (mp->counters, j);

          c->track_id = tes_chrome_add_track (b, mp->track_id, TES_TRACK_COUNTER, c->label, child_sort++, NULL);
        }
    }

  if (b->global_instants || b->global_asyncs->len > 0)
    {
      guint child_sort = 0;

      b->global_track = tes_chrome_add_track (b, 0, TES_TRACK_PROCESS, "Global", sort++, "global");
      g_ptr_array_sort (b->global_asyncs, compare_async_tracks);
      for (guint j = 0; j < b->global_asyncs->len; j++)
        {
          TesChromeAsyncTrack *t = g_ptr_array_index (b->global_asyncs, j);

          t->track_id = tes_chrome_add_track (b, b->global_track, TES_TRACK_ASYNC,
                                   t->name ? tes_chrome_text (b, t->name) : "Async", child_sort++, NULL);
        }
    }
}

