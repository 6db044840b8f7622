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
#ifdef __linux__
# include <sys/mman.h>
#endif

/* Packing a chunk (its columns as varints, zstd, the checksum) is most of
 * what storing it costs, and the importer's thread has its own work to do
 * meanwhile (merging, handing over the next slices). So chunks are packed
 * by a thread of their own, in the order they come, and inserted by the
 * thread that owns the SQLite connection when it next stores a chunk or
 * drains the queue: rows, rowids and file contents are what packing them
 * in place gave. When the packing thread falls behind (the queue is full),
 * the SQLite thread packs the next jobs itself rather than wait. Anything
 * that reads or changes stored chunks drains first.
 *
 * A streamed track's lane summaries need all its slices once its span is
 * known, at its end: what they read of each slice (TesLodSlice) is kept
 * for that as its chunk is packed (up to KEEP_MAX_BYTES for all tracks),
 * and they are made on the same thread while the importer goes on with
 * the next track; the summaries and the track's row are stored when that
 * job's turn comes. Decoding the packed chunks again instead was a quarter
 * of this thread's work. A track whose chunks were not all kept reads them
 * back from the file instead. */

/* chunks packed or being packed at most (each holds a copy of its
 * records, 640 KB, and its args) */
#define MAX_IN_FLIGHT 4
/* 24 bytes a slice: 4M slices, a track of 10M events' trace twice over */
#define KEEP_MAX_BYTES (96 * 1024 * 1024)

typedef struct
{
  /* a chunk to pack and store */
  guint             id;
  guint             first;
  guint             count;
  TesSliceRecord   *recs;       /* a copy, TES_CACHE_CHUNK_SLICES long */
  TesChunkInfo      info;
  GByteArray       *args;       /* a reference; NULL: no args */
  TesTrackSlices   *ts;         /* streamed: its rowid and data go there */
  gboolean          keep;       /* the track keeps its slices' kept_out */
  TesLodSlice      *kept_out;
  GByteArray       *data_out;
  TesArgsSkeletons  skeletons;
  GByteArray       *args_out;
  GByteArray       *search_out;
  GByteArray       *sums_out;
  gint64            checksum;
  /* or a streamed track's lane summaries, from its kept chunks */
  TesPreparedTrack *prep;
  GPtrArray        *kept;
  gsize             kept_bytes;

  gboolean          packed;
} PackJob;

struct _TesChunkPacker
{
  GThread    *thread;         /* NULL: packed in place (one core) */
  ZSTD_CCtx  *zstd;
  ZSTD_CCtx  *helper_zstd;    /* the SQLite thread's, when it helps */
  GMutex      lock;
  GCond       cond;
  GQueue      jobs;           /* PackJob*, in order, until inserted */
  GList      *next;           /* the first one the thread has not taken */
  GQueue      spare;          /* PackJob* whose buffers serve again */
  /* blocks of TES_CACHE_CHUNK_SLICES TesLodSlice for kept_out, given back
   * by the tracks whose summaries are made (under lock): freed, a track's
   * kept slices (30 MB at 10M events) were handed back to the system and
   * faulted in again for the next track's, a page fault each 4 KB */
  GPtrArray  *kept_blocks;
  GPtrArray  *kept_slabs;     /* what they are cut from, freed with the packer */
  gboolean    stop;
};

static gboolean pack_thread_enabled = TRUE;

/* FALSE: chunks are packed in place and a streamed track's chunks read
 * back for its summaries, as on one core (tests compare both ways). */
void
tes_cache_writer_set_pack_thread (gboolean enabled)
{
  pack_thread_enabled = enabled;
}

static void
summarise (PackJob *job)
{
  TesPreparedTrack *prep = job->prep;
  TesLodBuilder lb;

  if (!tes_lod_builder_begin (&lb, prep->n, prep->t_min, prep->t_max))
    return;

  for (guint c = 0; c < job->kept->len; c++)
    {
      gsize len;
      const TesLodSlice *slices = g_bytes_get_data (g_ptr_array_index (job->kept, c), &len);

      tes_lod_builder_add_kept (&lb, slices, (guint)(len / sizeof (TesLodSlice)));
    }
  tes_lod_builder_finish (&lb, prep->lod);
}

/* Blocks are cut from slabs of KEPT_SLAB_BLOCKS, 6 MB, on 2 MB bounds
 * and asked for as huge pages: a fault for each 2 MB of a slab, not one
 * for each 4 KB (the first tracks' kept slices were a third of a 10M-event
 * import's page faults). */
#define KEPT_BLOCK_BYTES (TES_CACHE_CHUNK_SLICES * sizeof (TesLodSlice))
#define KEPT_SLAB_BLOCKS 16
#define HUGE_PAGE_BYTES (2 * 1024 * 1024)

/* A block for a job's kept_out, one given back if there is one. */
static TesLodSlice *
kept_block_take (TesChunkPacker *pk)
{
  TesLodSlice *block;

  g_mutex_lock (&pk->lock);
  if (pk->kept_blocks->len == 0)
    {
      guint8 *slab = g_aligned_alloc (KEPT_SLAB_BLOCKS, KEPT_BLOCK_BYTES, HUGE_PAGE_BYTES);

#ifdef MADV_HUGEPAGE
      (void)madvise (slab, KEPT_SLAB_BLOCKS * KEPT_BLOCK_BYTES, MADV_HUGEPAGE);
#endif
      g_ptr_array_add (pk->kept_slabs, slab);
      for (guint i = KEPT_SLAB_BLOCKS; i > 0; i--)
        g_ptr_array_add (pk->kept_blocks, slab + (gsize)(i - 1) * KEPT_BLOCK_BYTES);
    }
  block = g_ptr_array_steal_index_fast (pk->kept_blocks, pk->kept_blocks->len - 1);
  g_mutex_unlock (&pk->lock);

  return block;
}

/* A block from kept_block_take (), free for other jobs. */
static void
kept_block_give_back (TesChunkPacker *pk,
                      gpointer        block)
{
  g_mutex_lock (&pk->lock);
  g_ptr_array_add (pk->kept_blocks, block);
  g_mutex_unlock (&pk->lock);
}

/* Bytes of a kept block: the slab frees it. */
static void
kept_block_not_freed (gpointer block)
{
}

/* Takes kept (bytes of blocks from kept_block_take ()) and gives its
 * blocks back. */
static void
kept_blocks_give_back (TesChunkPacker *pk,
                       GPtrArray      *kept)
{
  if (kept == NULL)
    return;

  for (guint i = 0; i < kept->len; i++)
    kept_block_give_back (pk, (gpointer)g_bytes_get_data (g_ptr_array_index (kept, i), NULL));
  g_ptr_array_unref (kept);
}

static void
run_job (TesChunkPacker *pk,
         ZSTD_CCtx      *zstd,
         PackJob        *job)
{
  if (job->prep != NULL)
    {
      summarise (job);
      return;
    }

  tes_cache_chunk_pack_data (job->recs, job->count, job->data_out);
  if (job->args != NULL)
    tes_cache_chunk_pack_args (zstd, job->args->data, job->count, &job->skeletons, job->args_out);
  tes_cache_chunk_pack_summaries (job->recs, job->count, job->args ? &job->skeletons : NULL, job->search_out,
                                  job->sums_out);
  if (job->keep)
    {
      job->kept_out = kept_block_take (pk);
      for (guint i = 0; i < job->count; i++)
        job->kept_out[i] = (TesLodSlice) { job->recs[i].start, job->recs[i].dur, job->recs[i].name,
                                           job->recs[i].depth };
    }
  job->checksum = tes_cache_chunk_checksum (job->data_out->data, job->data_out->len,
                                            job->args ? job->args_out->data : NULL,
                                            job->args ? job->args_out->len : 0,
                                            job->search_out->data, job->search_out->len,
                                            job->sums_out->data, job->sums_out->len);
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

      run_job (pk, pk->zstd, job);

      g_mutex_lock (&pk->lock);
      job->packed = TRUE;
      g_cond_broadcast (&pk->cond);
    }
  g_mutex_unlock (&pk->lock);

  {
    struct timespec cpu;

    clock_gettime (CLOCK_THREAD_CPUTIME_ID, &cpu);
    g_debug ("packing thread: %.3f s of CPU", cpu.tv_sec + cpu.tv_nsec / 1e9);
  }

  return NULL;
}

/* what a job refers to, its buffers kept (the blocks of its kept slices
 * given back to pk; without one, the packer is going and its slabs with
 * them) */
static void
job_clear (TesChunkPacker *pk,
           PackJob        *job)
{
  g_clear_pointer (&job->args, g_byte_array_unref);
  g_clear_pointer (&job->prep, tes_prepared_track_free);
  if (pk != NULL && job->kept_out != NULL)
    kept_block_give_back (pk, job->kept_out);
  if (pk != NULL)
    kept_blocks_give_back (pk, g_steal_pointer (&job->kept));
  g_clear_pointer (&job->kept, g_ptr_array_unref);
  job->kept_out = NULL;
  job->ts = NULL;
  job->keep = FALSE;
  job->kept_bytes = 0;
  job->packed = FALSE;
}

static void
job_free (gpointer data)
{
  PackJob *job = data;

  job_clear (NULL, job);
  g_free (job->recs);
  g_byte_array_unref (job->data_out);
  tes_cache_args_skeletons_clear (&job->skeletons);
  g_byte_array_unref (job->args_out);
  g_byte_array_unref (job->search_out);
  g_byte_array_unref (job->sums_out);
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
  pk->kept_blocks = g_ptr_array_new ();
  pk->kept_slabs = g_ptr_array_new_with_free_func (g_aligned_free);
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
  g_ptr_array_unref (pk->kept_blocks);
  g_ptr_array_unref (pk->kept_slabs);
  ZSTD_freeCCtx (pk->zstd);
  ZSTD_freeCCtx (pk->helper_zstd);
  g_mutex_clear (&pk->lock);
  g_cond_clear (&pk->cond);
  g_free (pk);
}

/* Drops what a track kept of its chunks (they are read back instead). */
void
tes_cache_writer_forget_kept (TesCacheWriter *self,
                              TesTrackSlices *ts)
{
  self->kept_total -= ts->kept_bytes;
  ts->kept_bytes = 0;
  if (self->packer != NULL)
    kept_blocks_give_back (self->packer, g_steal_pointer (&ts->kept_data));
  g_clear_pointer (&ts->kept_data, g_ptr_array_unref);
}

static void
insert_chunk (TesCacheWriter *self,
              PackJob        *job)
{
  sqlite3_stmt *s = self->insert_chunk;
  const TesSliceRecord *recs = job->recs;
  TesTrackSlices *ts = job->ts;
  gint64 rowid;

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
  sqlite3_bind_blob (s, 12, job->search_out->data, (int)job->search_out->len, SQLITE_STATIC);
  sqlite3_bind_blob (s, 13, job->sums_out->data, (int)job->sums_out->len, SQLITE_STATIC);
  sqlite3_bind_int64 (s, 14, job->data_out->len);
  sqlite3_bind_int64 (s, 15, job->args != NULL ? job->args_out->len : 0);
  sqlite3_bind_int64 (s, 16, job->search_out->len);
  sqlite3_bind_int64 (s, 17, job->sums_out->len);

  if (sqlite3_step (s) != SQLITE_DONE)
    {
      tes_cache_writer_fail (self, "Storing slices");
      return;
    }
  /* the blobs are bound SQLITE_STATIC: unbound before they serve again */
  sqlite3_clear_bindings (s);

  rowid = sqlite3_last_insert_rowid (self->db);
  tes_cache_writer_note_stored (self, job->data_out->len + (job->args ? job->args_out->len : 0) +
                                job->search_out->len + job->sums_out->len);
  if (ts == NULL)
    return;

  g_array_append_val (ts->chunk_rows, rowid);
  /* on one core nothing would overlap: read back as the summaries are made */
  if (self->packer->thread == NULL)
    tes_cache_writer_forget_kept (self, ts);
  else if (ts->kept_data != NULL && job->kept_out != NULL &&
           self->kept_total + job->count * sizeof (TesLodSlice) <= KEEP_MAX_BYTES)
    {
      gsize bytes = job->count * sizeof (TesLodSlice);

      g_ptr_array_add (ts->kept_data, g_bytes_new_with_free_func (g_steal_pointer (&job->kept_out), bytes,
                                                                  kept_block_not_freed, NULL));
      ts->kept_bytes += bytes;
      self->kept_total += bytes;
    }
  else if (ts->kept_data != NULL)
    tes_cache_writer_forget_kept (self, ts);
}

/* Inserts the job at the head of the queue (waiting for it with wait);
 * FALSE when there is none to insert. */
static gboolean
insert_head (TesCacheWriter *self,
             gboolean        wait)
{
  TesChunkPacker *pk = self->packer;
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

  if (job->prep != NULL)
    {
      self->kept_total -= job->kept_bytes;
      if (!tes_cache_writer_failed (self))
        tes_cache_writer_store_track (self, job->prep);
    }
  else if (!tes_cache_writer_failed (self))
    insert_chunk (self, job);

  job_clear (pk, job);
  g_queue_push_tail (&pk->spare, job);

  return TRUE;
}

/* The packing thread is behind: the SQLite thread packs the next job it
 * has not taken, rather than wait. FALSE when there is none. */
static gboolean
help (TesChunkPacker *pk)
{
  PackJob *job;

  g_mutex_lock (&pk->lock);
  job = pk->next ? pk->next->data : NULL;
  if (job != NULL)
    pk->next = pk->next->next;
  g_mutex_unlock (&pk->lock);
  if (job == NULL)
    return FALSE;

  if (pk->helper_zstd == NULL)
    pk->helper_zstd = ZSTD_createCCtx ();
  run_job (pk, pk->helper_zstd, job);

  g_mutex_lock (&pk->lock);
  job->packed = TRUE;
  g_mutex_unlock (&pk->lock);

  return TRUE;
}

/* Inserts what is done until at most max jobs are left, helping with the
 * rest. */
static void
insert_down_to (TesCacheWriter *self,
                guint           max)
{
  TesChunkPacker *pk = self->packer;

  while (pk->jobs.length > max)
    if (!insert_head (self, FALSE) && !help (pk))
      insert_head (self, TRUE);
}

static PackJob *
new_job (TesCacheWriter *self)
{
  TesChunkPacker *pk;
  PackJob *job;

  if (self->packer == NULL)
    self->packer = packer_new ();
  pk = self->packer;

  /* inserting what is done keeps the queue short; when it is full, help */
  while (insert_head (self, FALSE))
    ;
  insert_down_to (self, MAX_IN_FLIGHT - 1);

  job = g_queue_pop_head (&pk->spare);
  if (job == NULL)
    {
      job = g_new0 (PackJob, 1);
      job->recs = g_new (TesSliceRecord, TES_CACHE_CHUNK_SLICES);
      job->data_out = g_byte_array_new ();
      tes_cache_args_skeletons_init (&job->skeletons);
      job->args_out = g_byte_array_new ();
      job->search_out = g_byte_array_new ();
      job->sums_out = g_byte_array_new ();
    }

  return job;
}

static void
submit_job (TesCacheWriter *self,
            PackJob        *job)
{
  TesChunkPacker *pk = self->packer;

  if (pk->thread == NULL)
    {
      run_job (pk, pk->zstd, job);
      job->packed = TRUE;
      g_queue_push_tail (&pk->jobs, job);
      insert_head (self, TRUE);
      return;
    }

  g_mutex_lock (&pk->lock);
  g_queue_push_tail (&pk->jobs, job);
  if (pk->next == NULL)
    pk->next = pk->jobs.tail;
  g_cond_broadcast (&pk->cond);
  g_mutex_unlock (&pk->lock);
}

/* Stores a chunk of a track: count records from recs (copied), its bounds
 * and args blob (referenced). For a streamed track (ts), its rowid is
 * appended to ts->chunk_rows once it is in the file, and what the lane
 * summaries read of its slices is kept while there is room. FALSE once
 * the writer has failed. */
gboolean
tes_cache_writer_queue_chunk (TesCacheWriter       *self,
                              guint                 id,
                              guint                 first,
                              const TesSliceRecord *recs,
                              guint                 count,
                              const TesChunkInfo   *info,
                              GByteArray           *args,
                              TesTrackSlices       *ts)
{
  PackJob *job;

  g_return_val_if_fail (count > 0 && count <= TES_CACHE_CHUNK_SLICES, FALSE);

  if (tes_cache_writer_failed (self))
    return FALSE;

  job = new_job (self);
  job->id = id;
  job->first = first;
  job->count = count;
  memcpy (job->recs, recs, count * sizeof (TesSliceRecord));
  job->info = *info;
  job->args = args ? g_byte_array_ref (args) : NULL;
  job->ts = ts;
  /* on one core the track's chunks are read back (insert_chunk ()) */
  job->keep = ts != NULL && ts->kept_data != NULL && self->packer->thread != NULL;
  submit_job (self, job);

  return !tes_cache_writer_failed (self);
}

/* A streamed track, all its chunks stored (drained) and prep's bounds set:
 * its lane summaries are made from the chunks it kept, then stored with
 * its row (tes_cache_writer_store_track()), in the queue's order. Takes
 * prep; FALSE (prep left to the caller) when the track did not keep every
 * chunk. */
gboolean
tes_cache_writer_queue_summaries (TesCacheWriter   *self,
                                  TesPreparedTrack *prep,
                                  TesTrackSlices   *ts)
{
  PackJob *job;

  if (ts->kept_data == NULL || ts->kept_data->len != ts->chunk_rows->len || tes_cache_writer_failed (self))
    return FALSE;

  job = new_job (self);
  job->prep = prep;
  prep->ts = NULL;
  job->kept = g_steal_pointer (&ts->kept_data);
  job->kept_bytes = ts->kept_bytes;
  ts->kept_bytes = 0;
  submit_job (self, job);

  return TRUE;
}

/* Every queued job done and in the file; FALSE once the writer has failed. */
gboolean
tes_cache_writer_drain_chunks (TesCacheWriter *self)
{
  if (self->packer != NULL)
    insert_down_to (self, 0);

  return !tes_cache_writer_failed (self);
}
