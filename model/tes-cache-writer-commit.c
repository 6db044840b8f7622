/* tes-cache-writer-commit.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-cache-writer"

#include "config.h"

#include "tes-cache-writer-private.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

static int
compare_records (gconstpointer a,
                 gconstpointer b)
{
  const TesSliceRecord *ra = a;
  const TesSliceRecord *rb = b;

  /* Start ascending; at equal start the longer slice encloses the
   * shorter; then insertion order keeps the sort stable. */
  if (ra->start != rb->start)
    return ra->start < rb->start ? -1 : 1;
  if (ra->dur != rb->dur)
    return ra->dur > rb->dur ? -1 : 1;
  return (ra->parent > rb->parent) - (ra->parent < rb->parent);
}

static gboolean
records_sorted (const TesSliceRecord *recs,
                guint                 n)
{
  for (guint i = 1; i < n; i++)
    if (compare_records (&recs[i - 1], &recs[i]) > 0)
      return FALSE;

  return TRUE;
}

/* Sort a track's slices, give each its depth, parent and self time by
 * walking them with a stack of open ancestors. */
static void
nest_slices (TesTrackSlices *ts,
             GArray         *insertion_order,
             guint          *max_depth)
{
  TesSliceRecord *recs = (TesSliceRecord *)(gpointer)ts->records->data;
  guint n = ts->records->len;
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (gint32));

  /* Importers that buffer a whole track often hand it over in order
   * already; checking is linear, sorting is not. */
  if (!records_sorted (recs, n))
    g_array_sort (ts->records, compare_records);
  g_array_set_size (insertion_order, n);
  *max_depth = 0;

  for (guint i = 0; i < n; i++)
    {
      TesSliceRecord *r = &recs[i];
      gint64 end = r->start + r->dur;

      g_array_index (insertion_order, guint32, i) = (guint32)r->parent;

      while (stack->len > 0)
        {
          TesSliceRecord *top = &recs[g_array_index (stack, gint32, stack->len - 1)];

          if (r->start < top->start + top->dur || (r->dur == 0 && r->start == top->start))
            break;
          g_array_set_size (stack, stack->len - 1);
        }

      if (stack->len > 0)
        {
          gint32 p = g_array_index (stack, gint32, stack->len - 1);
          TesSliceRecord *parent = &recs[p];
          gint64 overlap = MIN (end, parent->start + parent->dur) - r->start;

          r->parent = p;
          r->depth = (guint16)MIN (stack->len, G_MAXUINT16);
          parent->self_dur -= overlap;
        }
      else
        {
          r->parent = -1;
          r->depth = 0;
        }

      *max_depth = MAX (*max_depth, r->depth);
      g_array_append_val (stack, i);
    }
}

/* Committing a track has two halves: the CPU work on its records
 * (sorting, nesting, packing the args, the lane summaries) and the SQLite
 * inserts. Worker threads (two at most) prepare the next tracks while
 * this thread stores the current one; SQLite is only ever used from this
 * thread, and tracks are stored in id order as before. */

typedef struct
{
  guint          shift;
  guint          n;
  TesLaneBucket *buckets;
} LodLevel;

typedef struct
{
  gint64  max_end;
  gint64  max_dur;
  guint   depth;
} ChunkInfo;

typedef struct
{
  guint           id;
  TesTrackSlices *ts;
  guint           max_depth;
  gint64          t_min;
  gint64          t_max;
  GArray         *chunks;      /* ChunkInfo */
  GPtrArray      *chunk_args;  /* GByteArray*, NULL when the chunk has no args */
  GArray         *lod;         /* LodLevel */
} Prepared;

static void
chunk_args_free (gpointer data)
{
  if (data != NULL)
    g_byte_array_unref (data);
}

static void
prepared_free (Prepared *prep)
{
  if (prep == NULL)
    return;

  g_clear_pointer (&prep->chunks, g_array_unref);
  g_clear_pointer (&prep->chunk_args, g_ptr_array_unref);
  if (prep->lod != NULL)
    {
      for (guint i = 0; i < prep->lod->len; i++)
        g_free (g_array_index (prep->lod, LodLevel, i).buckets);
      g_array_unref (prep->lod);
    }
  g_free (prep);
}

/* Level 0 has about one bucket per four slices (at most 65536), in
 * power-of-two widths from the track's first tick; each further level
 * merges four buckets, down to TES_CACHE_LOD_MIN_BUCKETS. */
static void
prepare_track_lod (Prepared             *prep,
                   const TesSliceRecord *recs,
                   guint                 n)
{
  TesLaneBucket *level;
  gint64 span = MAX (1, prep->t_max - prep->t_min);
  guint target = TES_CACHE_LOD_MIN_BUCKETS;
  guint shift = 0;
  guint nb;

  if (n < TES_CACHE_LOD_MIN_SLICES)
    return;

  while (target < TES_CACHE_LOD_MAX_BUCKETS && target < n / 4)
    target *= 2;
  while (shift < 62 && ((span - 1) >> shift) + 1 > target)
    shift++;
  nb = (guint)(((span - 1) >> shift) + 1);

  level = g_new0 (TesLaneBucket, nb);
  /* nb << shift may reach 2^63; the end itself is within TES_TIME_LIMIT
   * plus a bucket */
  for (guint i = 0; i < n; i++)
    tes_lane_add_slice (level, nb, prep->t_min, (gint64)(prep->t_min + ((__int128)nb << shift)),
                        recs[i].start, recs[i].dur, recs[i].name, recs[i].depth);

  for (;;)
    {
      LodLevel stored = { shift, nb, level };
      TesLaneBucket *next;

      g_array_append_val (prep->lod, stored);

      if (nb <= TES_CACHE_LOD_MIN_BUCKETS)
        break;

      /* bucket i of the next level merges 4i .. 4i+3 */
      next = g_new0 (TesLaneBucket, (nb + 3) / 4);
      for (guint i = 0; i < (nb + 3) / 4; i++)
        {
          TesLaneBucket merged = level[4 * i];

          for (guint j = 4 * i + 1; j < MIN (nb, 4 * i + 4); j++)
            tes_lane_merge (&merged, &level[j]);
          next[i] = merged;
        }
      level = next;
      nb = (nb + 3) / 4;
      shift += 2;
    }
}

static Prepared *
prepare_track (guint           id,
               TesTrackSlices *ts)
{
  Prepared *prep = g_new0 (Prepared, 1);
  g_autoptr(GArray) order = g_array_new (FALSE, FALSE, sizeof (guint32));
  const TesSliceRecord *recs;
  guint n = ts->records->len;

  prep->id = id;
  prep->ts = ts;
  prep->t_min = G_MAXINT64;
  prep->t_max = G_MININT64;
  prep->chunks = g_array_new (FALSE, FALSE, sizeof (ChunkInfo));
  prep->chunk_args = g_ptr_array_new_with_free_func (chunk_args_free);
  prep->lod = g_array_new (FALSE, FALSE, sizeof (LodLevel));

  nest_slices (ts, order, &prep->max_depth);
  recs = (const TesSliceRecord *)(gconstpointer)ts->records->data;

  for (guint first = 0; first < n; first += TES_CACHE_CHUNK_SLICES)
    {
      guint count = MIN (TES_CACHE_CHUNK_SLICES, n - first);
      GByteArray *args = g_byte_array_sized_new ((count + 1) * sizeof (guint32));
      ChunkInfo info = { G_MININT64, 0, 0 };
      gboolean any_args = FALSE;
      guint32 offset = 0;

      /* args blob: count + 1 offsets, then the NUL-free JSON texts */
      g_byte_array_set_size (args, (count + 1) * sizeof (guint32));
      for (guint i = 0; i < count; i++)
        {
          const TesSliceRecord *r = &recs[first + i];
          guint32 src = g_array_index (ts->arg_offsets, guint32, g_array_index (order, guint32, first + i));

          info.max_end = MAX (info.max_end, r->start + r->dur);
          info.max_dur = MAX (info.max_dur, r->dur);
          info.depth = MAX (info.depth, r->depth);
          memcpy (args->data + i * sizeof (guint32), &offset, sizeof offset);

          if (src != TES_CACHE_WRITER_NO_ARGS)
            {
              const char *text = ts->args->str + src;
              gsize len = strlen (text);

              g_byte_array_append (args, (const guint8 *)text, len);
              offset += len;
              any_args = TRUE;
            }
        }
      memcpy (args->data + count * sizeof (guint32), &offset, sizeof offset);

      prep->t_min = MIN (prep->t_min, recs[first].start);
      prep->t_max = MAX (prep->t_max, info.max_end);

      g_array_append_val (prep->chunks, info);
      if (any_args)
        g_ptr_array_add (prep->chunk_args, args);
      else
        {
          g_ptr_array_add (prep->chunk_args, NULL);
          g_byte_array_unref (args);
        }
    }

  /* the texts are packed into the chunks now */
  g_array_set_size (ts->arg_offsets, 0);
  g_string_free (ts->args, TRUE);
  ts->args = g_string_new (NULL);

  if (n > 0)
    prepare_track_lod (prep, recs, n);

  return prep;
}

static gboolean
store_track (TesCacheWriter *self,
             Prepared       *prep,
             sqlite3_stmt   *insert_chunk,
             sqlite3_stmt   *insert_lod,
             sqlite3_stmt   *update_track)
{
  const TesSliceRecord *recs = (const TesSliceRecord *)(gconstpointer)prep->ts->records->data;
  guint n = prep->ts->records->len;

  for (guint c = 0; c < prep->chunks->len; c++)
    {
      guint first = c * TES_CACHE_CHUNK_SLICES;
      guint count = MIN (TES_CACHE_CHUNK_SLICES, n - first);
      const ChunkInfo *info = &g_array_index (prep->chunks, ChunkInfo, c);
      GByteArray *args = g_ptr_array_index (prep->chunk_args, c);

      sqlite3_reset (insert_chunk);
      sqlite3_bind_int64 (insert_chunk, 1, prep->id);
      sqlite3_bind_int64 (insert_chunk, 2, first);
      sqlite3_bind_int64 (insert_chunk, 3, count);
      sqlite3_bind_int64 (insert_chunk, 4, recs[first].start);
      sqlite3_bind_int64 (insert_chunk, 5, recs[first + count - 1].start);
      sqlite3_bind_int64 (insert_chunk, 6, info->max_end);
      sqlite3_bind_int (insert_chunk, 7, (int)info->depth);
      sqlite3_bind_int64 (insert_chunk, 10, info->max_dur);
      sqlite3_bind_blob (insert_chunk, 8, &recs[first], (int)(count * sizeof (TesSliceRecord)), SQLITE_STATIC);
      if (args != NULL)
        sqlite3_bind_blob (insert_chunk, 9, args->data, (int)args->len, SQLITE_STATIC);
      else
        sqlite3_bind_null (insert_chunk, 9);

      if (sqlite3_step (insert_chunk) != SQLITE_DONE)
        {
          tes_cache_writer_fail (self, "Storing slices");
          return FALSE;
        }
    }

  for (guint lvl = 0; lvl < prep->lod->len; lvl++)
    {
      const LodLevel *level = &g_array_index (prep->lod, LodLevel, lvl);

      sqlite3_reset (insert_lod);
      sqlite3_bind_int64 (insert_lod, 1, prep->id);
      sqlite3_bind_int (insert_lod, 2, (int)lvl);
      sqlite3_bind_int (insert_lod, 3, (int)level->shift);
      sqlite3_bind_int64 (insert_lod, 4, prep->t_min);
      sqlite3_bind_int64 (insert_lod, 5, level->n);
      sqlite3_bind_blob (insert_lod, 6, level->buckets, (int)(level->n * sizeof (TesLaneBucket)), SQLITE_STATIC);
      if (sqlite3_step (insert_lod) != SQLITE_DONE)
        {
          tes_cache_writer_fail (self, "Storing lane summaries");
          return FALSE;
        }
    }

  sqlite3_reset (update_track);
  sqlite3_bind_int64 (update_track, 1, n);
  sqlite3_bind_int (update_track, 2, (int)prep->max_depth);
  if (n > 0)
    {
      sqlite3_bind_int64 (update_track, 3, prep->t_min);
      sqlite3_bind_int64 (update_track, 4, prep->t_max);
    }
  else
    {
      sqlite3_bind_null (update_track, 3);
      sqlite3_bind_null (update_track, 4);
    }
  sqlite3_bind_int64 (update_track, 5, prep->id);
  if (sqlite3_step (update_track) != SQLITE_DONE)
    {
      tes_cache_writer_fail (self, "Updating a track");
      return FALSE;
    }

  return TRUE;
}

/* Workers prepare tracks in id order, at most PREPARED_AHEAD beyond the
 * one being stored, which bounds the extra memory (their packed args). */
#define PREPARED_AHEAD 3
#define MAX_WORKERS 2

typedef struct
{
  GPtrArray  *tracks;
  GMutex      lock;
  GCond       cond;
  Prepared  **ready;      /* by track id */
  guint       next_id;    /* the next track to prepare */
  guint       stored_id;  /* tracks below this one are stored */
  gboolean    abort;
} Pipeline;

static gpointer
prepare_worker (gpointer data)
{
  Pipeline *pl = data;

  for (;;)
    {
      Prepared *prep;
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

      prep = prepare_track (id, g_ptr_array_index (pl->tracks, id));

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
  sqlite3_stmt *insert_chunk = NULL;
  sqlite3_stmt *insert_lod = NULL;
  sqlite3_stmt *update_track = NULL;
  Pipeline pl = { 0 };
  GThread *workers[MAX_WORKERS] = { NULL };
  guint n_workers = CLAMP (g_get_num_processors (), 1, MAX_WORKERS);
  gboolean ok = FALSE;

  if (sqlite3_prepare_v2 (self->db,
                          "INSERT INTO slice_chunks (track_id, first_index, n, t_min, t_max_start, t_max_end, max_depth, data, args, max_dur) "
                          "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                          -1, &insert_chunk, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2 (self->db,
                          "INSERT INTO slice_lod (track_id, level, shift, t_base, n, data) VALUES (?, ?, ?, ?, ?, ?)",
                          -1, &insert_lod, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2 (self->db,
                          "UPDATE tracks SET n_slices = ?, max_depth = ?, t_min = ?, t_max = ? WHERE id = ?",
                          -1, &update_track, NULL) != SQLITE_OK)
    {
      tes_cache_writer_fail (self, "Preparing slice storage");
      goto out;
    }

  pl.tracks = self->tracks;
  g_mutex_init (&pl.lock);
  g_cond_init (&pl.cond);
  pl.ready = g_new0 (Prepared *, self->tracks->len);
  pl.next_id = 1;
  pl.stored_id = 1;
  for (guint i = 0; i < n_workers; i++)
    workers[i] = g_thread_new ("tes-cache-commit", prepare_worker, &pl);

  for (guint id = 1; id < self->tracks->len; id++)
    {
      Prepared *prep;
      gboolean stored;

      g_mutex_lock (&pl.lock);
      while (pl.ready[id] == NULL)
        g_cond_wait (&pl.cond, &pl.lock);
      prep = g_steal_pointer (&pl.ready[id]);
      g_mutex_unlock (&pl.lock);

      stored = !g_cancellable_is_cancelled (cancellable) &&
               store_track (self, prep, insert_chunk, insert_lod, update_track);

      /* Free as we go: peak memory is a few tracks, not all of them. */
      g_ptr_array_index (self->tracks, id) = NULL;
      tes_cache_writer_track_slices_free (prep->ts);
      prepared_free (prep);

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
    prepared_free (pl.ready[id]);
  g_free (pl.ready);
  g_mutex_clear (&pl.lock);
  g_cond_clear (&pl.cond);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    goto out;

  ok = !tes_cache_writer_failed (self);
  if (!ok)
    g_propagate_error (error, g_steal_pointer (&self->error));

out:
  sqlite3_finalize (insert_chunk);
  sqlite3_finalize (insert_lod);
  sqlite3_finalize (update_track);
  return ok;
}

static gboolean
sync_file (const char  *path,
           gboolean     directory,
           GError     **error)
{
  int fd = open (path, directory ? O_RDONLY | O_DIRECTORY : O_RDWR);

  if (fd < 0 || fsync (fd) != 0)
    {
      int errsv = errno;

      if (fd >= 0)
        close (fd);
      /* Some file systems cannot sync a folder; the rename still holds. */
      if (directory)
        return TRUE;
      g_set_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_IO,
                   "Cannot sync %s: %s", path, g_strerror (errsv));
      return FALSE;
    }

  close (fd);
  return TRUE;
}

/* Everything becomes visible at once: the finished file is synced and then
 * renamed over the final path, so a reader sees the old cache, no cache, or
 * the complete new one, never a partial one. */
gboolean
tes_cache_writer_commit (TesCacheWriter  *self,
                         GCancellable    *cancellable,
                         GError         **error)
{
  g_autofree char *finish_sql = NULL;
  g_autofree char *dir = NULL;

  g_return_val_if_fail (TES_IS_CACHE_WRITER (self), FALSE);
  g_return_val_if_fail (!self->committed, FALSE);

  if (tes_cache_writer_failed (self))
    {
      g_propagate_error (error, g_steal_pointer (&self->error));
      return FALSE;
    }

  if (!write_all_slices (self, cancellable, error))
    return FALSE;

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;

  finish_sql = g_strdup_printf ("CREATE INDEX instants_track ON instants (track_id, ts);"
                                "CREATE INDEX counter_values_track ON counter_values (track_id, ts);"
                                "CREATE INDEX flows_from ON flows (from_track, from_ts);"
                                "CREATE INDEX flows_to ON flows (to_track, to_ts);"
                                "CREATE INDEX operators_track ON operators (track_id, op_index);"
                                "CREATE INDEX info_key ON info (key);"
                                /* Instants and counters widen their track's extent. */
                                "UPDATE tracks SET t_min = min (coalesce (tracks.t_min, e.lo), e.lo),"
                                "                  t_max = max (coalesce (tracks.t_max, e.hi), e.hi) "
                                "FROM (SELECT track_id, min (lo) AS lo, max (hi) AS hi FROM ("
                                "        SELECT track_id, min (ts) AS lo, max (ts) AS hi FROM instants GROUP BY track_id"
                                "        UNION ALL"
                                "        SELECT track_id, min (ts), max (ts) FROM counter_values GROUP BY track_id)"
                                "      GROUP BY track_id) AS e "
                                "WHERE e.track_id = tracks.id;"
                                "INSERT INTO meta SELECT 'n_sources', count(*) FROM sources;"
                                "INSERT INTO meta SELECT 'n_slices', coalesce (sum (n), 0) FROM slice_chunks;"
                                "INSERT INTO meta SELECT 'n_instants', count(*) FROM instants;"
                                "INSERT INTO meta SELECT 'n_counter_values', count(*) FROM counter_values;"
                                "INSERT INTO meta SELECT 'n_flows', count(*) FROM flows;"
                                "INSERT INTO meta SELECT 'n_runs', count(*) FROM runs;"
                                "INSERT INTO meta SELECT 'n_operators', count(*) FROM operators;"
                                "INSERT INTO meta SELECT 'n_tiles', count(*) FROM tiles;"
                                "INSERT INTO meta SELECT 'n_bsp_steps', count(*) FROM bsp_steps;"
                                "INSERT INTO meta SELECT 'n_info', count(*) FROM info;"
                                "UPDATE sources SET import_us = %" G_GINT64_FORMAT ";"
                                "INSERT INTO meta (key, value) VALUES ('generator', '%s');"
                                "INSERT INTO meta (key, value) VALUES ('complete', '1');"
                                "PRAGMA user_version = %d;"
                                "COMMIT;",
                                g_get_monotonic_time () - self->started_us,
                                PACKAGE_NAME " " PACKAGE_VERSION,
                                TES_CACHE_SCHEMA_VERSION);

  if (!tes_cache_exec (self->db, finish_sql, error))
    return FALSE;

  for (guint i = 0; i < TES_CACHE_WRITER_N_STMTS; i++)
    g_clear_pointer (&self->stmts[i], sqlite3_finalize);

  if (sqlite3_close (self->db) != SQLITE_OK)
    {
      tes_cache_set_error (error, self->db, "Closing the cache");
      return FALSE;
    }
  self->db = NULL;

  if (!sync_file (self->temp_path, FALSE, error))
    return FALSE;

  if (g_rename (self->temp_path, self->final_path) != 0)
    {
      int errsv = errno;
      g_set_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_IO,
                   "Cannot move the cache to %s: %s", self->final_path, g_strerror (errsv));
      return FALSE;
    }

  self->committed = TRUE;
  dir = g_path_get_dirname (self->final_path);
  sync_file (dir, TRUE, NULL);

  return TRUE;
}
