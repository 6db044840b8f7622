/* tes-cache-writer-commit.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-cache-writer"

#include "config.h"

#include "tes-array-private.h"
#include "tes-cache-writer-private.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

static gboolean
finish_prepared (TesCacheWriter   *self,
                 TesPreparedTrack *prep)
{
  TesTrackSlices *ts = prep->ts;
  gboolean ok = TRUE;

  if (ts == NULL || ts->finished)
    ok = TRUE;
  else if (prep->skip)
    ok = tes_cache_writer_finish_streamed (self, prep->id, ts);
  else
    ok = tes_cache_writer_store_track (self, prep);

  if (ts != NULL && !ts->finished)
    {
      self->n_pending -= ts->records->len;
      ts->finished = TRUE;
      g_clear_pointer (&ts->records, g_array_unref);
      g_string_free (ts->args, TRUE);
      ts->args = NULL;
      if (ts->spare_args != NULL)
        {
          g_string_free (ts->spare_args, TRUE);
          ts->spare_args = NULL;
        }
      g_clear_pointer (&ts->stack, g_array_unref);
      g_clear_pointer (&ts->chunk_rows, g_array_unref);
    }

  return ok;
}

/* Stores all of a track now (its importer closed it). */
void
tes_cache_writer_finish_track (TesCacheWriter *self,
                               guint           id)
{
  TesTrackSlices *ts = g_ptr_array_index (self->tracks, id);
  TesPreparedTrack *prep;

  if (ts == NULL || ts->finished || tes_cache_writer_failed (self) || !tes_cache_writer_prepare_statements (self))
    return;

  prep = tes_cache_writer_prepare_track (id, ts);
  finish_prepared (self, prep);
  tes_prepared_track_free (prep);
}

/* Committing a track has two halves: the CPU work on its records
 * (sorting, nesting, packing the args, the lane summaries) and the SQLite
 * inserts. Worker threads (two at most) prepare the next tracks while
 * this thread stores the current one; SQLite is only ever used from this
 * thread, and tracks are stored in id order as before. A track that
 * streamed (some of its chunks stored as they filled) is finished on this
 * thread instead. */

/* Workers prepare tracks in id order, at most PREPARED_AHEAD beyond the
 * one being stored, which bounds the extra memory (their packed args). */
#define PREPARED_AHEAD 3
#define MAX_WORKERS 2

typedef struct
{
  GPtrArray         *tracks;
  GMutex             lock;
  GCond              cond;
  TesPreparedTrack **ready;      /* by track id */
  guint              next_id;    /* the next track to prepare */
  guint              stored_id;  /* tracks below this one are stored */
  gboolean           abort;
} Pipeline;

static gpointer
prepare_worker (gpointer data)
{
  Pipeline *pl = data;

  for (;;)
    {
      TesPreparedTrack *prep;
      guint id;

      g_mutex_lock (&pl->lock);
      while (!pl->abort && pl->next_id < pl->tracks->len && pl->next_id >= pl->stored_id + PREPARED_AHEAD)
        g_cond_wait (&pl->cond, &pl->lock);
      if (pl->abort || pl->next_id >= pl->tracks->len)
        {
          g_mutex_unlock (&pl->lock);
          break;
        }
      id = pl->next_id++;
      g_mutex_unlock (&pl->lock);

      prep = tes_cache_writer_prepare_track (id, g_ptr_array_index (pl->tracks, id));

      g_mutex_lock (&pl->lock);
      pl->ready[id] = prep;
      g_cond_broadcast (&pl->cond);
      g_mutex_unlock (&pl->lock);
    }

  return NULL;
}

static gboolean
write_all_slices (TesCacheWriter *self,
                  GCancellable   *cancellable,
                  GError        **error)
{
  Pipeline pl = { 0 };
  GThread *workers[MAX_WORKERS] = { NULL };
  guint n_workers = CLAMP (g_get_num_processors (), 1, MAX_WORKERS);
  gboolean ok = FALSE;

  if (!tes_cache_writer_prepare_statements (self))
    goto out;

  pl.tracks = self->tracks;
  g_mutex_init (&pl.lock);
  g_cond_init (&pl.cond);
  pl.ready = g_new0 (TesPreparedTrack *, self->tracks->len);
  pl.next_id = 1;
  pl.stored_id = 1;
  for (guint i = 0; i < n_workers; i++)
    workers[i] = g_thread_new ("tes-cache-commit", prepare_worker, &pl);

  for (guint id = 1; id < self->tracks->len; id++)
    {
      TesPreparedTrack *prep;
      gboolean stored;

      g_mutex_lock (&pl.lock);
      while (pl.ready[id] == NULL)
        g_cond_wait (&pl.cond, &pl.lock);
      prep = g_steal_pointer (&pl.ready[id]);
      g_mutex_unlock (&pl.lock);

      stored = !g_cancellable_is_cancelled (cancellable) && finish_prepared (self, prep);

      /* Free as we go: peak memory is a few tracks, not all of them. */
      g_ptr_array_index (self->tracks, id) = NULL;
      tes_cache_track_free (prep->ts);
      tes_prepared_track_free (prep);

      g_mutex_lock (&pl.lock);
      pl.stored_id = id + 1;
      pl.abort = !stored;
      g_cond_broadcast (&pl.cond);
      g_mutex_unlock (&pl.lock);

      if (!stored)
        break;
    }

  for (guint i = 0; i < n_workers; i++)
    g_thread_join (workers[i]);

  /* prepared but never stored (after a failure): their slices are still
   * in self->tracks and go with the writer */
  for (guint id = 0; id < self->tracks->len; id++)
    tes_prepared_track_free (pl.ready[id]);
  g_free (pl.ready);
  g_mutex_clear (&pl.lock);
  g_cond_clear (&pl.cond);

out:
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;

  ok = !tes_cache_writer_failed (self);
  if (!ok)
    g_propagate_error (error, g_steal_pointer (&self->error));

  return ok;
}

/* Instants and counter values widen their track's extent: the times
 * noted as they went in (grouping the tables at commit took 54 ms of a
 * 10M-event import). */
static gboolean
widen_extents (TesCacheWriter  *self,
               GError         **error)
{
  sqlite3_stmt *s = NULL;
  gboolean ok = TRUE;

  if (sqlite3_prepare_v2 (self->db,
                          "UPDATE tracks SET t_min = min (coalesce (t_min, ?1), ?1),"
                          "                  t_max = max (coalesce (t_max, ?2), ?2) WHERE id = ?3",
                          -1, &s, NULL) != SQLITE_OK)
    {
      tes_cache_set_error (error, self->db, "Storing the tracks' extents");
      return FALSE;
    }

  for (guint id = 1; ok && id < self->marks->len; id++)
    {
      const gint64 *span = &g_array_index (self->marks, gint64, 2 * id);

      if (span[0] > span[1])
        continue;
      sqlite3_reset (s);
      sqlite3_bind_int64 (s, 1, span[0]);
      sqlite3_bind_int64 (s, 2, span[1]);
      sqlite3_bind_int64 (s, 3, id);
      if (sqlite3_step (s) != SQLITE_DONE)
        {
          tes_cache_set_error (error, self->db, "Storing the tracks' extents");
          ok = FALSE;
        }
    }
  sqlite3_finalize (s);

  return ok;
}

/* Everything becomes visible at once: the finished file is synced and then
 * renamed over the final path, so a reader sees the old cache, no cache, or
 * the complete new one, never a partial one. The folder is not synced
 * after the rename: a crash may undo the rename, which leaves the old
 * cache or none, and either is checked against its sources on the next
 * open; waiting for it cost 20 ms of every import. */
gboolean
tes_cache_writer_commit (TesCacheWriter  *self,
                         GCancellable    *cancellable,
                         GError         **error)
{
  g_autofree char *finish_sql = NULL;
  const TesCacheKnownHash known[] = {
    { "operators", &self->operators_hash },
    { "instants", &self->instants_hash },
    { "counter_values", &self->counters_hash },
  };
  gint64 t0, t1, t2, t3;
  int errsv;

  g_return_val_if_fail (TES_IS_CACHE_WRITER (self), FALSE);
  g_return_val_if_fail (!self->committed, FALSE);

  if (tes_cache_writer_failed (self))
    {
      g_propagate_error (error, g_steal_pointer (&self->error));
      return FALSE;
    }

  /* Hooks write rows like any importer, so they run before anything is stored. */
  for (guint i = 0; self->commit_hooks != NULL && i < self->commit_hooks->len; i++)
    {
      TesCacheWriterHookEntry *entry = g_ptr_array_index (self->commit_hooks, i);

      if (!entry->hook (self, entry->data, error))
        return FALSE;
      if (tes_cache_writer_failed (self))
        {
          g_propagate_error (error, g_steal_pointer (&self->error));
          return FALSE;
        }
    }

  tes_cache_writer_flush_flows (self);
  if (tes_cache_writer_failed (self))
    {
      g_propagate_error (error, g_steal_pointer (&self->error));
      return FALSE;
    }

  t0 = g_get_monotonic_time ();
  if (!write_all_slices (self, cancellable, error))
    return FALSE;
  if (!tes_cache_writer_drain_chunks (self))
    {
      g_propagate_error (error, g_steal_pointer (&self->error));
      return FALSE;
    }
  t1 = g_get_monotonic_time ();

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;

  finish_sql = g_strdup_printf ("CREATE INDEX instants_track ON instants (track_id, ts);"
                                "CREATE INDEX operators_track ON operators (track_id, op_index);"
                                "CREATE INDEX info_key ON info (key);"
                                "INSERT INTO meta SELECT 'n_sources', count(*) FROM sources;"
                                "INSERT INTO meta SELECT 'n_slices', coalesce (sum (n), 0) FROM slice_chunks;"
                                "INSERT INTO meta SELECT 'n_instants', count(*) FROM instants;"
                                "INSERT INTO meta SELECT 'n_counter_values', count(*) FROM counter_values;"
                                "INSERT INTO meta SELECT 'n_flows', coalesce (sum (n), 0) FROM flows;"
                                "INSERT INTO meta SELECT 'n_runs', count(*) FROM runs;"
                                "INSERT INTO meta SELECT 'n_operators', count(*) FROM operators;"
                                /* the rows a whole report's Summary reads (tes-report.c): counted
                                 * here, a scan of every operator row at each open took 80 % of
                                 * opening a 1M-event PyTorch trace's cache */
                                "INSERT INTO meta SELECT 'n_whole_operators', count(*) FROM operators "
                                "WHERE run_id IS NULL OR coalesce (source_id, -1) NOT IN "
                                "(SELECT coalesce (source_id, -1) FROM operators WHERE run_id IS NULL);"
                                "INSERT INTO meta SELECT 'n_tiles', count(*) FROM tiles;"
                                "INSERT INTO meta SELECT 'n_bsp_steps', count(*) FROM bsp_steps;"
                                "INSERT INTO meta SELECT 'n_info', count(*) FROM info;"
                                "UPDATE sources SET import_us = %" G_GINT64_FORMAT ";"
                                "INSERT INTO meta (key, value) VALUES ('generator', '%s');"
                                "INSERT INTO meta (key, value) VALUES ('complete', '1');"
                                "PRAGMA user_version = %d;",
                                g_get_monotonic_time () - self->started_us,
                                PACKAGE_NAME " " PACKAGE_VERSION,
                                TES_CACHE_SCHEMA_VERSION);

  /* the value in the index: a window of a counter reads the index alone */
  if (!widen_extents (self, error) ||
      !tes_cache_exec (self->db, "CREATE INDEX counter_values_track ON counter_values (track_id, ts, value);", error) ||
      !tes_cache_writer_store_counter_lod (self, cancellable, error) ||
      !tes_cache_exec (self->db, finish_sql, error) ||
      !tes_cache_finish (self->db, known, G_N_ELEMENTS (known), error))
    return FALSE;

  for (guint i = 0; i < TES_CACHE_WRITER_N_STMTS; i++)
    g_clear_pointer (&self->stmts[i], sqlite3_finalize);
  g_clear_pointer (&self->insert_chunk, sqlite3_finalize);
  g_clear_pointer (&self->insert_flows, sqlite3_finalize);
  g_clear_pointer (&self->insert_lod, sqlite3_finalize);
  g_clear_pointer (&self->update_track, sqlite3_finalize);

  if (sqlite3_close (self->db) != SQLITE_OK)
    {
      tes_cache_set_error (error, self->db, "Closing the cache");
      return FALSE;
    }
  self->db = NULL;

  t2 = g_get_monotonic_time ();
  if (!tes_cache_syncer_finish (self->syncer, &errsv))
    {
      g_set_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_IO,
                   "Cannot sync %s: %s", self->temp_path, g_strerror (errsv));
      return FALSE;
    }
  t3 = g_get_monotonic_time ();
  g_debug ("%s: committed: last slices %.3f s, indexes and counts %.3f s, "
           "fsync %.3f s (after %u on the side)",
           self->final_path, (t1 - t0) / 1e6, (t2 - t1) / 1e6, (t3 - t2) / 1e6,
           tes_cache_syncer_get_runs (self->syncer));

  if (tes_cache_replace (self->temp_path, self->final_path) != 0)
    {
      errsv = errno;
      g_set_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_IO,
                   "Cannot move the cache to %s: %s", self->final_path, g_strerror (errsv));
      return FALSE;
    }

  self->committed = TRUE;

  return TRUE;
}

/* Slices that arrive in sort order (as most importers give them) are
 * stored a chunk at a time once the writer holds more than its flush
 * threshold, so memory follows the open work, not the file. Others are
 * held until their track is closed or the writer commits. */
void
tes_cache_writer_add_slice (TesCacheWriter *self,
                            gint64          track_id,
                            gint64          start,
                            gint64          dur,
                            guint32         name,
                            guint32         category,
                            TesSliceFlags   flags,
                            const char     *args_json,
                            gssize          args_len)
{
  TesTrackSlices *ts;
  TesSliceRecord rec;
  guint32 offset = TES_CACHE_WRITER_NO_ARGS;

  g_return_if_fail (TES_IS_CACHE_WRITER (self));
  g_return_if_fail (track_id > 0 && track_id < (gint64)self->tracks->len);

  ts = g_ptr_array_index (self->tracks, track_id);
  g_return_if_fail (!ts->finished);

  if (start != tes_cache_writer_clamp_time (start) ||
      dur != tes_cache_writer_clamp_dur (tes_cache_writer_clamp_time (start), dur))
    {
      start = tes_cache_writer_clamp_time (start);
      dur = tes_cache_writer_clamp_dur (start, dur);
      flags |= TES_SLICE_FLAG_CLAMPED;
    }

  if (args_json != NULL)
    {
      if (args_len < 0)
        args_len = strlen (args_json);
      offset = tes_track_args_add (ts->args, args_json, (gsize)args_len);
    }

  rec.start = start;
  rec.dur = dur;
  rec.self_dur = offset;                   /* until nested */
  rec.name = name;
  rec.category = category;
  rec.parent = ts->n_added++;              /* insertion order until nested */
  rec.depth = 0;
  rec.flags = flags;

  tes_array_append (ts->records, &ts->records_room, &rec, sizeof rec);
  self->n_pending++;

  if (ts->in_order)
    {
      if (ts->n_added > 1 && tes_cache_track_compare_records (&ts->last, &rec) > 0)
        {
          /* chunks already stored must be sorted again with the rest */
          ts->in_order = FALSE;
          if (ts->n_stored > 0 || ts->n_held > 0)
            tes_cache_writer_unstream_track (self, (guint)track_id);
        }
      ts->last = rec;
    }

  if (ts->records->len - ts->n_held >= TES_CACHE_CHUNK_SLICES && self->n_pending > self->flush_threshold)
    tes_cache_writer_stream_track (self, (guint)track_id, FALSE);
}

/* The importer has given all of a track's slices: they are stored now
 * and their memory freed, whatever the threshold. */
void
tes_cache_writer_close_track (TesCacheWriter *self,
                              gint64          track_id)
{
  g_return_if_fail (TES_IS_CACHE_WRITER (self));
  g_return_if_fail (track_id > 0 && track_id < (gint64)self->tracks->len);

  tes_cache_writer_finish_track (self, (guint)track_id);
}
