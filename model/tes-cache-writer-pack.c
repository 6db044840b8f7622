/* tes-cache-writer-pack.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-cache-writer"

#include "config.h"

#include "tes-cache-writer-private.h"

#include <string.h>
#include <time.h>

/* Packing a chunk (its columns as varints, zstd, the checksum) is most of
 * what storing it costs, and the importer's thread has its own work to do
 * meanwhile (merging, handing over the next slices). So chunks are packed
 * by a thread of their own, in the order they come, and inserted by the
 * thread that owns the SQLite connection when it next stores a chunk or
 * drains the queue: rows, rowids and file contents are what packing them
 * in place gave. Anything that reads or changes stored chunks drains first. */

/* chunks packed or being packed at most (each holds a copy of its
 * records, 640 KB, and its args) */
#define MAX_IN_FLIGHT 4

typedef struct
{
  guint           id;
  guint           first;
  guint           count;
  TesSliceRecord *recs;       /* a copy, TES_CACHE_CHUNK_SLICES long */
  TesChunkInfo    info;
  GByteArray     *args;       /* a reference; NULL: no args */
  GArray         *rows;       /* where its rowid goes; NULL: nowhere */
  GByteArray     *data_out;
  GByteArray     *args_out;
  gint64          checksum;
  gboolean        packed;
} PackJob;

struct _TesChunkPacker
{
  GThread    *thread;         /* NULL: packed in place (one core) */
  ZSTD_CCtx  *zstd;
  GMutex      lock;
  GCond       cond;
  GQueue      jobs;           /* PackJob*, in order, until inserted */
  GList      *next;           /* the first one the thread has not taken */
  GQueue      spare;          /* PackJob* whose buffers serve again */
  gboolean    stop;
};

static gboolean pack_thread_enabled = TRUE;

/* FALSE: chunks are packed in place, as on one core (tests compare both). */
void
tes_cache_writer_set_pack_thread (gboolean enabled)
{
  pack_thread_enabled = enabled;
}

static void
pack_job (ZSTD_CCtx *zstd,
          PackJob   *job)
{
  tes_cache_chunk_pack_data (zstd, job->recs, job->count, job->data_out);
  if (job->args != NULL)
    tes_cache_chunk_pack_args (zstd, job->args->data, job->count, job->args_out);
  job->checksum = tes_cache_chunk_checksum (job->data_out->data, job->data_out->len,
                                            job->args ? job->args_out->data : NULL,
                                            job->args ? job->args_out->len : 0);
}

static gpointer
pack_thread (gpointer data)
{
  TesChunkPacker *pk = data;

  g_mutex_lock (&pk->lock);
  for (;;)
    {
      PackJob *job;

      while (!pk->stop && pk->next == NULL)
        g_cond_wait (&pk->cond, &pk->lock);
      if (pk->stop)
        break;
      job = pk->next->data;
      pk->next = pk->next->next;
      g_mutex_unlock (&pk->lock);

      pack_job (pk->zstd, job);

      g_mutex_lock (&pk->lock);
      job->packed = TRUE;
      g_cond_broadcast (&pk->cond);
    }
  g_mutex_unlock (&pk->lock);
  {
    struct timespec c1;
    clock_gettime (CLOCK_THREAD_CPUTIME_ID, &c1);
    g_debug ("packer cpu %.3f", c1.tv_sec + c1.tv_nsec / 1e9);
  }

  return NULL;
}

static void
job_free (gpointer data)
{
  PackJob *job = data;

  g_clear_pointer (&job->args, g_byte_array_unref);
  g_clear_pointer (&job->rows, g_array_unref);
  g_free (job->recs);
  g_byte_array_unref (job->data_out);
  g_byte_array_unref (job->args_out);
  g_free (job);
}

static TesChunkPacker *
packer_new (void)
{
  TesChunkPacker *pk = g_new0 (TesChunkPacker, 1);

  pk->zstd = ZSTD_createCCtx ();
  g_mutex_init (&pk->lock);
  g_cond_init (&pk->cond);
  g_queue_init (&pk->jobs);
  g_queue_init (&pk->spare);
  if (pack_thread_enabled && g_get_num_processors () > 1)
    pk->thread = g_thread_new ("tes-cache-pack", pack_thread, pk);

  return pk;
}

void
tes_chunk_packer_free (TesChunkPacker *pk)
{
  if (pk == NULL)
    return;

  if (pk->thread != NULL)
    {
      g_mutex_lock (&pk->lock);
      pk->stop = TRUE;
      g_cond_broadcast (&pk->cond);
      g_mutex_unlock (&pk->lock);
      g_thread_join (pk->thread);
    }
  g_queue_clear_full (&pk->jobs, job_free);
  g_queue_clear_full (&pk->spare, job_free);
  ZSTD_freeCCtx (pk->zstd);
  g_mutex_clear (&pk->lock);
  g_cond_clear (&pk->cond);
  g_free (pk);
}

/* Inserts the packed job at the head of the queue (waiting for it with
 * wait); FALSE when there is none to insert. */
static gboolean
insert_head (TesCacheWriter *self,
             gboolean        wait)
{
  TesChunkPacker *pk = self->packer;
  sqlite3_stmt *s = self->insert_chunk;
  PackJob *job;

  g_mutex_lock (&pk->lock);
  job = g_queue_peek_head (&pk->jobs);
  while (job != NULL && !job->packed && wait)
    g_cond_wait (&pk->cond, &pk->lock);
  if (job != NULL && !job->packed)
    job = NULL;
  if (job != NULL)
    g_queue_pop_head (&pk->jobs);
  g_mutex_unlock (&pk->lock);

  if (job == NULL)
    return FALSE;

  if (!tes_cache_writer_failed (self))
    {
      const TesSliceRecord *recs = job->recs;

      sqlite3_reset (s);
      sqlite3_bind_int64 (s, 1, job->id);
      sqlite3_bind_int64 (s, 2, job->first);
      sqlite3_bind_int64 (s, 3, job->count);
      sqlite3_bind_int64 (s, 4, recs[0].start);
      sqlite3_bind_int64 (s, 5, recs[job->count - 1].start);
      sqlite3_bind_int64 (s, 6, job->info.max_end);
      sqlite3_bind_int (s, 7, (int)job->info.depth);
      sqlite3_bind_blob (s, 8, job->data_out->data, (int)job->data_out->len, SQLITE_STATIC);
      if (job->args != NULL)
        sqlite3_bind_blob (s, 9, job->args_out->data, (int)job->args_out->len, SQLITE_STATIC);
      else
        sqlite3_bind_null (s, 9);
      sqlite3_bind_int64 (s, 10, job->info.max_dur);
      sqlite3_bind_int64 (s, 11, job->checksum);

      if (sqlite3_step (s) != SQLITE_DONE)
        tes_cache_writer_fail (self, "Storing slices");
      else
        {
          gint64 rowid = sqlite3_last_insert_rowid (self->db);

          if (job->rows != NULL)
            g_array_append_val (job->rows, rowid);
          self->unsynced += job->data_out->len + (job->args ? job->args_out->len : 0);
        }
      /* the blobs are bound SQLITE_STATIC: unbind before they serve again */
      sqlite3_clear_bindings (s);
    }

  g_clear_pointer (&job->args, g_byte_array_unref);
  g_clear_pointer (&job->rows, g_array_unref);
  g_queue_push_tail (&pk->spare, job);

  return TRUE;
}

/* Stores a chunk of a track: count records from recs (copied), its bounds
 * and args blob (referenced), its rowid appended to rows once it is in
 * the file (rows may be NULL). FALSE once the writer has failed. */
gboolean
tes_cache_writer_queue_chunk (TesCacheWriter       *self,
                              guint                 id,
                              guint                 first,
                              const TesSliceRecord *recs,
                              guint                 count,
                              const TesChunkInfo   *info,
                              GByteArray           *args,
                              GArray               *rows)
{
  TesChunkPacker *pk;
  PackJob *job;

  g_return_val_if_fail (count > 0 && count <= TES_CACHE_CHUNK_SLICES, FALSE);

  if (tes_cache_writer_failed (self))
    return FALSE;
  if (self->packer == NULL)
    self->packer = packer_new ();
  pk = self->packer;

  /* inserting what is packed keeps the queue short; when it is full,
   * wait for the oldest */
  while (insert_head (self, pk->jobs.length >= MAX_IN_FLIGHT))
    ;

  job = g_queue_pop_head (&pk->spare);
  if (job == NULL)
    {
      job = g_new0 (PackJob, 1);
      job->recs = g_new (TesSliceRecord, TES_CACHE_CHUNK_SLICES);
      job->data_out = g_byte_array_new ();
      job->args_out = g_byte_array_new ();
    }
  job->id = id;
  job->first = first;
  job->count = count;
  memcpy (job->recs, recs, count * sizeof (TesSliceRecord));
  job->info = *info;
  job->args = args ? g_byte_array_ref (args) : NULL;
  job->rows = rows ? g_array_ref (rows) : NULL;
  job->packed = FALSE;

  if (pk->thread == NULL)
    {
      pack_job (pk->zstd, job);
      job->packed = TRUE;
      g_queue_push_tail (&pk->jobs, job);
      insert_head (self, TRUE);
    }
  else
    {
      g_mutex_lock (&pk->lock);
      g_queue_push_tail (&pk->jobs, job);
      if (pk->next == NULL)
        pk->next = pk->jobs.tail;
      g_cond_broadcast (&pk->cond);
      g_mutex_unlock (&pk->lock);
    }

  return !tes_cache_writer_failed (self);
}

/* Every queued chunk in the file; FALSE once the writer has failed. */
gboolean
tes_cache_writer_drain_chunks (TesCacheWriter *self)
{
  if (self->packer != NULL)
    while (insert_head (self, TRUE))
      ;

  return !tes_cache_writer_failed (self);
}
