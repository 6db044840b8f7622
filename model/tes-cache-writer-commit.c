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

static gboolean
records_sorted (const TesSliceRecord *recs,
                guint                 n)
{
  for (guint i = 1; i < n; i++)
    if (tes_cache_track_compare_records (&recs[i - 1], &recs[i]) > 0)
      return FALSE;

  return TRUE;
}

/* A self time to write into a record already stored. */
typedef struct
{
  gint64 index;
  gint64 self_dur;
} Patch;

/* Gives the sorted records mem[first] … mem[first + count − 1] of a
 * track their depth, parent and self time, walking them with the stack of
 * open ancestors the records before them left (empty for the first). mem
 * holds the records from position base of the track on, those not stored
 * yet. Their args offsets move to args_src. An ancestor already stored
 * keeps its self time in its stack entry; those that close here and
 * changed go to patches. The entries still in mem that stay open take
 * their record's self time, as their record is stored later. */
static void
nest_range (TesSliceRecord *mem,
            gint64          base,
            guint           first,
            guint           count,
            GArray         *stack,
            guint32        *args_src,
            guint          *max_depth,
            GArray         *patches)
{
  TesSliceRecord *recs;

  /* a track without slices (a group: an IPU over its tiles) has no records at all */
  if (count == 0)
    return;

  recs = mem + first;
  for (guint i = 0; i < count; i++)
    {
      TesSliceRecord *r = &recs[i];
      gint64 end = r->start + r->dur;
      TesOpenSlice open = { base + first + i, r->start, end, 0, FALSE };

      args_src[i] = (guint32)r->self_dur;
      r->self_dur = r->dur;

      while (stack->len > 0)
        {
          TesOpenSlice *top = &g_array_index (stack, TesOpenSlice, stack->len - 1);

          if (r->start < top->end || (r->dur == 0 && r->start == top->start))
            break;
          if (top->dirty && patches != NULL)
            {
              Patch p = { top->index, top->self_dur };
              g_array_append_val (patches, p);
            }
          g_array_set_size (stack, stack->len - 1);
        }

      if (stack->len > 0)
        {
          TesOpenSlice *top = &g_array_index (stack, TesOpenSlice, stack->len - 1);
          gint64 overlap = MIN (end, top->end) - r->start;

          r->parent = (gint32)top->index;
          r->depth = (guint16)MIN (stack->len, G_MAXUINT16);
          if (top->index >= base)
            mem[top->index - base].self_dur -= overlap;
          else
            {
              top->self_dur -= overlap;
              top->dirty = TRUE;
            }
        }
      else
        {
          r->parent = -1;
          r->depth = 0;
        }

      *max_depth = MAX (*max_depth, r->depth);
      g_array_append_val (stack, open);
    }

  for (guint k = 0; k < stack->len; k++)
    {
      TesOpenSlice *e = &g_array_index (stack, TesOpenSlice, k);

      if (e->index >= base)
        e->self_dur = mem[e->index - base].self_dur;
    }
}

/* Committing a track has two halves: the CPU work on its records
 * (sorting, nesting, packing the args, the lane summaries) and the SQLite
 * inserts. Worker threads (two at most) prepare the next tracks while
 * this thread stores the current one; SQLite is only ever used from this
 * thread, and tracks are stored in id order as before. A track that
 * streamed (some of its chunks stored as they filled) is finished on this
 * thread instead. */

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
  gboolean        skip;        /* streamed or already finished: not prepared here */
  guint           n;
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

static Prepared *
prepared_new (guint           id,
              TesTrackSlices *ts)
{
  Prepared *prep = g_new0 (Prepared, 1);

  prep->id = id;
  prep->ts = ts;
  prep->t_min = G_MAXINT64;
  prep->t_max = G_MININT64;
  prep->chunks = g_array_new (FALSE, FALSE, sizeof (ChunkInfo));
  prep->chunk_args = g_ptr_array_new_with_free_func (chunk_args_free);
  prep->lod = g_array_new (FALSE, FALSE, sizeof (LodLevel));

  return prep;
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
 * merges four buckets, down to TES_CACHE_LOD_MIN_BUCKETS. The slices come
 * in runs (in memory, or read back chunk by chunk). */
typedef struct
{
  TesLaneBucket *level;
  guint          shift;
  guint          nb;
  gint64         t_min;
} LodBuilder;

static gboolean
lod_begin (LodBuilder *lb,
           guint       n,
           gint64      t_min,
           gint64      t_max)
{
  /* unsigned: the bounds may be empty (t_min > t_max) or 2^63 apart */
  guint64 span = t_max > t_min ? (guint64)t_max - (guint64)t_min : 1;
  guint target = TES_CACHE_LOD_MIN_BUCKETS;

  if (n < TES_CACHE_LOD_MIN_SLICES)
    return FALSE;

  while (target < TES_CACHE_LOD_MAX_BUCKETS && target < n / 4)
    target *= 2;
  lb->shift = 0;
  while (lb->shift < 62 && ((span - 1) >> lb->shift) + 1 > target)
    lb->shift++;
  lb->nb = (guint)(((span - 1) >> lb->shift) + 1);
  lb->level = g_new0 (TesLaneBucket, lb->nb);
  lb->t_min = t_min;

  return TRUE;
}

static void
lod_add (LodBuilder           *lb,
         const TesSliceRecord *recs,
         guint                 n)
{
  for (guint i = 0; i < n; i++)
    tes_lane_add_slice_pow2 (lb->level, lb->nb, lb->t_min, lb->shift,
                             recs[i].start, recs[i].dur, recs[i].name, recs[i].depth);
}

static void
lod_finish (LodBuilder *lb,
            GArray     *lod)
{
  TesLaneBucket *level = lb->level;
  guint nb = lb->nb;
  guint shift = lb->shift;

  for (;;)
    {
      LodLevel stored = { shift, nb, level };
      TesLaneBucket *next;

      g_array_append_val (lod, stored);

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

/* One chunk's bounds and args blob (count + 1 offsets, then the NUL-free
 * JSON texts; NULL when none of its slices has args), from nested records
 * and their args offsets into texts. */
static GByteArray *
pack_chunk (const TesSliceRecord *recs,
            guint                 count,
            const guint32        *args_src,
            const char           *texts,
            ChunkInfo            *info)
{
  gsize index_len = (count + 1) * sizeof (guint32);
  GByteArray *args;
  gboolean any_args = FALSE;
  guint32 offset = 0;
  guint8 *p;

  /* the texts' length first: one allocation, not a realloc per slice */
  for (guint i = 0; i < count; i++)
    if (args_src[i] != TES_CACHE_WRITER_NO_ARGS)
      offset += strlen (texts + args_src[i]);
  args = g_byte_array_sized_new (index_len + offset);
  g_byte_array_set_size (args, index_len + offset);
  p = args->data + index_len;
  offset = 0;

  *info = (ChunkInfo) { G_MININT64, 0, 0 };
  for (guint i = 0; i < count; i++)
    {
      const TesSliceRecord *r = &recs[i];

      info->max_end = MAX (info->max_end, r->start + r->dur);
      info->max_dur = MAX (info->max_dur, r->dur);
      info->depth = MAX (info->depth, r->depth);
      memcpy (args->data + i * sizeof (guint32), &offset, sizeof offset);

      if (args_src[i] != TES_CACHE_WRITER_NO_ARGS)
        {
          const char *text = texts + args_src[i];
          gsize len = strlen (text);

          memcpy (p, text, len);
          p += len;
          offset += len;
          any_args = TRUE;
        }
    }
  memcpy (args->data + count * sizeof (guint32), &offset, sizeof offset);

  if (!any_args)
    g_clear_pointer (&args, g_byte_array_unref);

  return args;
}

static Prepared *
prepare_track (guint           id,
               TesTrackSlices *ts)
{
  Prepared *prep = prepared_new (id, ts);
  g_autofree guint32 *args_src = NULL;
  g_autoptr(GArray) stack = NULL;
  TesSliceRecord *recs;
  LodBuilder lb;
  guint n;

  /* streamed tracks are finished by the storing thread */
  if (ts == NULL || ts->finished || ts->n_stored > 0 || ts->n_held > 0)
    {
      prep->skip = TRUE;
      return prep;
    }

  n = ts->records->len;
  recs = (TesSliceRecord *)(gpointer)ts->records->data;
  prep->n = n;
  args_src = g_new (guint32, MAX (n, 1));
  stack = g_array_new (FALSE, FALSE, sizeof (TesOpenSlice));

  /* Importers that buffer a whole track often hand it over in order
   * already; checking is linear, sorting is not. */
  if (!ts->in_order && !records_sorted (recs, n))
    g_array_sort (ts->records, tes_cache_track_compare_records);
  nest_range (recs, 0, 0, n, stack, args_src, &prep->max_depth, NULL);

  for (guint first = 0; first < n; first += TES_CACHE_CHUNK_SLICES)
    {
      guint count = MIN (TES_CACHE_CHUNK_SLICES, n - first);
      ChunkInfo info;
      GByteArray *args = pack_chunk (&recs[first], count, &args_src[first], ts->args->str, &info);

      prep->t_min = MIN (prep->t_min, recs[first].start);
      prep->t_max = MAX (prep->t_max, info.max_end);
      g_array_append_val (prep->chunks, info);
      g_ptr_array_add (prep->chunk_args, args);
    }

  /* the texts are packed into the chunks now */
  g_string_free (ts->args, TRUE);
  ts->args = g_string_new (NULL);

  if (lod_begin (&lb, n, prep->t_min, prep->t_max))
    {
      lod_add (&lb, recs, n);
      lod_finish (&lb, prep->lod);
    }

  return prep;
}

static gboolean
prepare_statements (TesCacheWriter *self)
{
  if (self->insert_chunk != NULL)
    return TRUE;

  self->zstd = ZSTD_createCCtx ();
  self->packed_data = g_byte_array_new ();
  self->packed_args = g_byte_array_new ();

  if (sqlite3_prepare_v2 (self->db,
                          "INSERT INTO slice_chunks (track_id, first_index, n, t_min, t_max_start, t_max_end, max_depth, data, args, max_dur, checksum) "
                          "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                          -1, &self->insert_chunk, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2 (self->db,
                          "INSERT INTO slice_lod (track_id, level, shift, t_base, n, data, checksum) VALUES (?, ?, ?, ?, ?, ?, ?)",
                          -1, &self->insert_lod, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2 (self->db,
                          "UPDATE tracks SET n_slices = ?, max_depth = ?, t_min = ?, t_max = ? WHERE id = ?",
                          -1, &self->update_track, NULL) != SQLITE_OK)
    {
      tes_cache_writer_fail (self, "Preparing slice storage");
      g_clear_pointer (&self->insert_chunk, sqlite3_finalize);
      return FALSE;
    }

  return TRUE;
}

/* Every chunk of slices goes into the file here; returns its rowid, 0 on
 * failure. */
static gint64
store_chunk (TesCacheWriter       *self,
             guint                 id,
             guint                 first,
             const TesSliceRecord *recs,
             guint                 count,
             const ChunkInfo      *info,
             GByteArray           *args)
{
  sqlite3_stmt *s = self->insert_chunk;

  sqlite3_reset (s);
  sqlite3_bind_int64 (s, 1, id);
  sqlite3_bind_int64 (s, 2, first);
  sqlite3_bind_int64 (s, 3, count);
  sqlite3_bind_int64 (s, 4, recs[0].start);
  sqlite3_bind_int64 (s, 5, recs[count - 1].start);
  sqlite3_bind_int64 (s, 6, info->max_end);
  sqlite3_bind_int (s, 7, (int)info->depth);
  sqlite3_bind_int64 (s, 10, info->max_dur);
  tes_cache_chunk_pack_data (self->zstd, recs, count, self->packed_data);
  sqlite3_bind_blob (s, 8, self->packed_data->data, (int)self->packed_data->len, SQLITE_STATIC);
  if (args != NULL)
    {
      tes_cache_chunk_pack_args (self->zstd, args->data, count, self->packed_args);
      sqlite3_bind_blob (s, 9, self->packed_args->data, (int)self->packed_args->len, SQLITE_STATIC);
    }
  else
    sqlite3_bind_null (s, 9);
  sqlite3_bind_int64 (s, 11, tes_cache_chunk_checksum (self->packed_data->data, self->packed_data->len,
                                                     args ? self->packed_args->data : NULL,
                                                     args ? self->packed_args->len : 0));

  if (sqlite3_step (s) != SQLITE_DONE)
    {
      tes_cache_writer_fail (self, "Storing slices");
      return 0;
    }

  return sqlite3_last_insert_rowid (self->db);
}

static gboolean
store_track (TesCacheWriter *self,
             Prepared       *prep)
{
  const TesSliceRecord *recs = NULL;

  if (prep->chunks->len > 0)
    recs = (const TesSliceRecord *)(gconstpointer)prep->ts->records->data;

  for (guint c = 0; c < prep->chunks->len; c++)
    {
      guint first = c * TES_CACHE_CHUNK_SLICES;

      if (store_chunk (self, prep->id, first, &recs[first], MIN (TES_CACHE_CHUNK_SLICES, prep->n - first),
                       &g_array_index (prep->chunks, ChunkInfo, c),
                       g_ptr_array_index (prep->chunk_args, c)) == 0)
        return FALSE;
    }

  for (guint lvl = 0; lvl < prep->lod->len; lvl++)
    {
      const LodLevel *level = &g_array_index (prep->lod, LodLevel, lvl);
      sqlite3_stmt *s = self->insert_lod;

      sqlite3_reset (s);
      sqlite3_bind_int64 (s, 1, prep->id);
      sqlite3_bind_int (s, 2, (int)lvl);
      sqlite3_bind_int (s, 3, (int)level->shift);
      sqlite3_bind_int64 (s, 4, prep->t_min);
      sqlite3_bind_int64 (s, 5, level->n);
      sqlite3_bind_blob (s, 6, level->buckets, (int)(level->n * sizeof (TesLaneBucket)), SQLITE_STATIC);
      sqlite3_bind_int64 (s, 7, tes_cache_chunk_checksum (level->buckets, level->n * sizeof (TesLaneBucket), NULL, 0));
      if (sqlite3_step (s) != SQLITE_DONE)
        {
          tes_cache_writer_fail (self, "Storing lane summaries");
          return FALSE;
        }
    }

  sqlite3_reset (self->update_track);
  sqlite3_bind_int64 (self->update_track, 1, prep->n);
  sqlite3_bind_int (self->update_track, 2, (int)prep->max_depth);
  if (prep->n > 0)
    {
      sqlite3_bind_int64 (self->update_track, 3, prep->t_min);
      sqlite3_bind_int64 (self->update_track, 4, prep->t_max);
    }
  else
    {
      sqlite3_bind_null (self->update_track, 3);
      sqlite3_bind_null (self->update_track, 4);
    }
  sqlite3_bind_int64 (self->update_track, 5, prep->id);
  if (sqlite3_step (self->update_track) != SQLITE_DONE)
    {
      tes_cache_writer_fail (self, "Updating a track");
      return FALSE;
    }

  return TRUE;
}

/* ---- streaming ------------------------------------------------------------ */

#define WRITEBACK_BYTES (32 * 1024 * 1024)

/* Reads a stored chunk back: its count records and, with args, its args
 * in the layout pack_chunk() gives (every text empty when it has none). */
static gboolean
read_back_chunk (TesCacheWriter *self,
                 gint64          rowid,
                 guint           count,
                 TesSliceRecord *recs,
                 GByteArray     *args)
{
  sqlite3_stmt *s = NULL;
  g_autofree char *why = NULL;
  gboolean ok = FALSE;

  if (sqlite3_prepare_v2 (self->db, "SELECT data, args FROM slice_chunks WHERE rowid = ?", -1, &s, NULL) == SQLITE_OK)
    {
      sqlite3_bind_int64 (s, 1, rowid);
      if (sqlite3_step (s) == SQLITE_ROW &&
          tes_cache_chunk_unpack_data (sqlite3_column_blob (s, 0), (gsize)sqlite3_column_bytes (s, 0), count,
                                       recs, &why))
        {
          ok = TRUE;
          if (args != NULL && sqlite3_column_type (s, 1) == SQLITE_NULL)
            {
              g_byte_array_set_size (args, (count + 1) * sizeof (guint32));
              memset (args->data, 0, args->len);
            }
          else if (args != NULL)
            ok = tes_cache_chunk_unpack_args (sqlite3_column_blob (s, 1), (gsize)sqlite3_column_bytes (s, 1),
                                              count, 0, G_MAXUINT, args, &why);
        }
    }
  sqlite3_finalize (s);
  if (!ok)
    tes_cache_writer_fail (self, "Reading back slices");

  return ok;
}

/* The checksum of a stored chunk whose data becomes @data (its args as
 * stored). */
static gint64
stored_checksum (TesCacheWriter *self,
                 gint64          rowid,
                 GByteArray     *data)
{
  sqlite3_stmt *s = NULL;
  gint64 sum = 0;

  if (sqlite3_prepare_v2 (self->db, "SELECT args FROM slice_chunks WHERE rowid = ?", -1, &s, NULL) == SQLITE_OK)
    {
      sqlite3_bind_int64 (s, 1, rowid);
      if (sqlite3_step (s) == SQLITE_ROW)
        sum = tes_cache_chunk_checksum (data->data, data->len,
                                        sqlite3_column_blob (s, 0), (gsize)sqlite3_column_bytes (s, 0));
      else
        tes_cache_writer_fail (self, "Storing slices");
    }
  else
    tes_cache_writer_fail (self, "Storing slices");
  sqlite3_finalize (s);

  return sum;
}

/* Gives stored chunks the final self time of ancestors that closed after
 * them: each chunk changed is read back, patched, packed and stored again,
 * with its checksum. */
static void
apply_patches (TesCacheWriter *self,
               TesTrackSlices *ts,
               GArray         *patches)
{
  g_autofree TesSliceRecord *recs = NULL;
  g_autoptr(GHashTable) patched = NULL;
  sqlite3_stmt *s = NULL;
  GHashTableIter iter;
  gpointer key;

  if (patches->len == 0)
    return;

  patched = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < patches->len; i++)
    g_hash_table_add (patched, GUINT_TO_POINTER (g_array_index (patches, Patch, i).index / TES_CACHE_CHUNK_SLICES));

  recs = g_new (TesSliceRecord, TES_CACHE_CHUNK_SLICES);
  if (sqlite3_prepare_v2 (self->db, "UPDATE slice_chunks SET data = ?, checksum = ? WHERE rowid = ?",
                          -1, &s, NULL) != SQLITE_OK)
    {
      tes_cache_writer_fail (self, "Storing slices");
      g_array_set_size (patches, 0);
      return;
    }

  g_hash_table_iter_init (&iter, patched);
  while (g_hash_table_iter_next (&iter, &key, NULL) && !tes_cache_writer_failed (self))
    {
      guint c = GPOINTER_TO_UINT (key);
      gint64 rowid = g_array_index (ts->chunk_rows, gint64, c);
      guint count = MIN (TES_CACHE_CHUNK_SLICES, ts->n_stored - c * TES_CACHE_CHUNK_SLICES);

      if (!read_back_chunk (self, rowid, count, recs, NULL))
        break;
      for (guint i = 0; i < patches->len; i++)
        {
          const Patch *p = &g_array_index (patches, Patch, i);

          if (p->index / TES_CACHE_CHUNK_SLICES == c)
            recs[p->index % TES_CACHE_CHUNK_SLICES].self_dur = p->self_dur;
        }
      tes_cache_chunk_pack_data (self->zstd, recs, count, self->packed_data);
      sqlite3_reset (s);
      sqlite3_bind_blob (s, 1, self->packed_data->data, (int)self->packed_data->len, SQLITE_STATIC);
      sqlite3_bind_int64 (s, 2, stored_checksum (self, rowid, self->packed_data));
      sqlite3_bind_int64 (s, 3, rowid);
      tes_cache_writer_step_done (self, s, "Storing slices");
    }
  sqlite3_finalize (s);
  g_array_set_size (patches, 0);
}

/* Stores the chunk held at the front of a track's records (nested and
 * packed) and drops it from them. */
static gboolean
store_held (TesCacheWriter *self,
            guint           id,
            TesTrackSlices *ts)
{
  const TesSliceRecord *recs = (const TesSliceRecord *)(gconstpointer)ts->records->data;
  ChunkInfo info = { ts->held_max_end, ts->held_max_dur, ts->held_depth };
  g_autoptr(GByteArray) args = g_steal_pointer (&ts->held_args);
  guint count = ts->n_held;
  gint64 rowid;

  if ((rowid = store_chunk (self, id, ts->n_stored, recs, count, &info, args)) == 0)
    return FALSE;
  g_array_append_val (ts->chunk_rows, rowid);
  ts->n_stored += count;
  ts->n_held = 0;
  g_array_remove_range (ts->records, 0, count);
  self->n_pending -= count;
  self->unsynced += self->packed_data->len + (args ? self->packed_args->len : 0);

  return TRUE;
}

/* Nests and packs the full chunks of a track whose slices came in order
 * (with all, every pending slice). A chunk is held, not stored, until
 * the next one is nested, which is what changes the self time of its open
 * slices: changed in memory, not patched in the file (and read back to
 * checksum again). Then only the open work stays here. */
void
tes_cache_writer_stream_track (TesCacheWriter *self,
                               guint           id,
                               gboolean        all)
{
  TesTrackSlices *ts = g_ptr_array_index (self->tracks, id);
  g_autoptr(GArray) patches = NULL;
  g_autofree guint32 *args_src = NULL;
  gboolean nested = FALSE;

  if (!ts->in_order || tes_cache_writer_failed (self) || !prepare_statements (self))
    return;
  if (ts->records->len - ts->n_held < TES_CACHE_CHUNK_SLICES && !(all && ts->records->len > 0))
    return;

  patches = g_array_new (FALSE, FALSE, sizeof (Patch));
  args_src = g_new (guint32, TES_CACHE_CHUNK_SLICES);
  for (;;)
    {
      TesSliceRecord *recs = (TesSliceRecord *)(gpointer)ts->records->data;
      guint n = ts->records->len;
      guint held = ts->n_held;
      guint count;
      ChunkInfo info;
      GByteArray *args;

      if (!(n - held >= TES_CACHE_CHUNK_SLICES || (all && held < n)))
        break;

      count = MIN (TES_CACHE_CHUNK_SLICES, n - held);
      nest_range (recs, ts->n_stored, held, count, ts->stack, args_src, &ts->max_depth, patches);
      args = pack_chunk (&recs[held], count, args_src, ts->args->str, &info);
      ts->t_min = MIN (ts->t_min, recs[held].start);
      ts->t_max = MAX (ts->t_max, info.max_end);
      nested = TRUE;

      /* the chunk before is final now; this one waits for the next */
      if (held > 0 && !store_held (self, id, ts))
        {
          g_clear_pointer (&args, g_byte_array_unref);
          return;
        }
      ts->n_held = count;
      ts->held_max_end = info.max_end;
      ts->held_max_dur = info.max_dur;
      ts->held_depth = info.depth;
      ts->held_args = args;
      apply_patches (self, ts, patches);
    }

  if (all && ts->n_held > 0)
    {
      if (!store_held (self, id, ts))
        return;
      apply_patches (self, ts, patches);
    }

#ifdef SYNC_FILE_RANGE_WRITE
  /* Start writing what SQLite has handed the kernel so far, in the
   * background: the fsync at commit then has little left to wait for. */
  if (self->unsynced >= WRITEBACK_BYTES && self->sync_fd >= 0)
    {
      sync_file_range (self->sync_fd, 0, 0, SYNC_FILE_RANGE_WRITE);
      self->unsynced = 0;
    }
#endif

  if (!nested)
    return;

  /* keep the rest, with their args texts moved to a string of their own */
  {
    TesSliceRecord *recs = (TesSliceRecord *)(gpointer)ts->records->data;
    GString *rest = g_string_new (NULL);

    for (guint i = ts->n_held; i < ts->records->len; i++)
      if ((guint32)recs[i].self_dur != TES_CACHE_WRITER_NO_ARGS)
        {
          const char *text = ts->args->str + recs[i].self_dur;

          recs[i].self_dur = rest->len;
          g_string_append_len (rest, text, strlen (text) + 1);
        }
    g_string_free (ts->args, TRUE);
    ts->args = rest;
  }
}

/* Slices came out of order after chunks of the track were stored: they
 * are read back into memory (in their order, before every pending slice),
 * their rows deleted, and the track is sorted whole at the end. */
void
tes_cache_writer_unstream_track (TesCacheWriter *self,
                                 guint           id)
{
  TesTrackSlices *ts = g_ptr_array_index (self->tracks, id);
  g_autoptr(GArray) records = g_array_new (FALSE, FALSE, sizeof (TesSliceRecord));
  GString *args = g_string_new (NULL);
  TesSliceRecord *recs;
  sqlite3_stmt *del = NULL;
  guint pending;

  /* the held chunk joins the stored ones, to be read back with them */
  if (ts->n_held > 0 && !store_held (self, id, ts))
    return;

  for (guint c = 0; c < ts->chunk_rows->len && !tes_cache_writer_failed (self); c++)
    {
      gint64 rowid = g_array_index (ts->chunk_rows, gint64, c);
      guint first = records->len;
      guint count = MIN (TES_CACHE_CHUNK_SLICES, ts->n_stored - first);
      g_autoptr(GByteArray) raw_args = g_byte_array_new ();
      const guint32 *offsets;
      const char *texts;

      g_array_set_size (records, first + count);
      recs = &g_array_index (records, TesSliceRecord, first);
      if (!read_back_chunk (self, rowid, count, recs, raw_args))
        break;
      offsets = (const guint32 *)(gconstpointer)raw_args->data;
      texts = (const char *)raw_args->data + (count + 1) * sizeof (guint32);

      for (guint i = 0; i < count; i++)
        {
          TesSliceRecord *r = &recs[i];

          /* sequences below every pending slice's, in stored order */
          r->parent = G_MININT32 + (gint32)(first + i);
          r->depth = 0;
          r->self_dur = TES_CACHE_WRITER_NO_ARGS;
          if (offsets[i + 1] > offsets[i])
            {
              r->self_dur = args->len;
              g_string_append_len (args, texts + offsets[i], offsets[i + 1] - offsets[i]);
              g_string_append_c (args, '\0');
            }
        }
    }

  /* then the pending ones, their args after the recovered texts */
  pending = ts->records->len;
  recs = (TesSliceRecord *)(gpointer)ts->records->data;
  for (guint i = 0; i < pending; i++)
    if ((guint32)recs[i].self_dur != TES_CACHE_WRITER_NO_ARGS)
      recs[i].self_dur += args->len;
  g_string_append_len (args, ts->args->str, ts->args->len);
  g_array_append_vals (records, recs, pending);

  if (sqlite3_prepare_v2 (self->db, "DELETE FROM slice_chunks WHERE track_id = ?", -1, &del, NULL) == SQLITE_OK)
    {
      sqlite3_bind_int64 (del, 1, id);
      tes_cache_writer_step_done (self, del, "Reading back slices");
    }
  else
    tes_cache_writer_fail (self, "Reading back slices");
  sqlite3_finalize (del);

  self->n_pending += ts->n_stored;
  g_array_unref (ts->records);
  ts->records = g_steal_pointer (&records);
  g_string_free (ts->args, TRUE);
  ts->args = args;
  ts->n_stored = 0;
  g_array_set_size (ts->stack, 0);
  g_array_set_size (ts->chunk_rows, 0);
  ts->max_depth = 0;
  ts->t_min = G_MAXINT64;
  ts->t_max = G_MININT64;
}

/* The rest of a streamed track: its last chunk, the ancestors still open,
 * the lane summaries read back from the stored chunks, its row. */
static gboolean
finish_streamed (TesCacheWriter *self,
                 guint           id,
                 TesTrackSlices *ts)
{
  g_autoptr(GArray) patches = g_array_new (FALSE, FALSE, sizeof (Patch));
  Prepared *prep = prepared_new (id, ts);
  LodBuilder lb;
  gboolean ok;

  tes_cache_writer_stream_track (self, id, TRUE);
  for (guint k = 0; k < ts->stack->len; k++)
    {
      const TesOpenSlice *e = &g_array_index (ts->stack, TesOpenSlice, k);

      if (e->dirty)
        {
          Patch p = { e->index, e->self_dur };
          g_array_append_val (patches, p);
        }
    }
  apply_patches (self, ts, patches);

  prep->n = ts->n_stored;
  prep->max_depth = ts->max_depth;
  prep->t_min = ts->t_min;
  prep->t_max = ts->t_max;

  if (!tes_cache_writer_failed (self) && lod_begin (&lb, prep->n, prep->t_min, prep->t_max))
    {
      g_autofree TesSliceRecord *recs = g_new (TesSliceRecord, TES_CACHE_CHUNK_SLICES);

      for (guint c = 0; c < ts->chunk_rows->len; c++)
        {
          guint count = MIN (TES_CACHE_CHUNK_SLICES, prep->n - c * TES_CACHE_CHUNK_SLICES);

          if (!read_back_chunk (self, g_array_index (ts->chunk_rows, gint64, c), count, recs, NULL))
            break;
          lod_add (&lb, recs, count);
        }
      lod_finish (&lb, prep->lod);
    }

  ok = !tes_cache_writer_failed (self) && store_track (self, prep);
  prepared_free (prep);

  return ok;
}

static gboolean
finish_prepared (TesCacheWriter *self,
                 Prepared       *prep)
{
  TesTrackSlices *ts = prep->ts;
  gboolean ok = TRUE;

  if (ts == NULL || ts->finished)
    ok = TRUE;
  else if (prep->skip)
    ok = finish_streamed (self, prep->id, ts);
  else
    ok = store_track (self, prep);

  if (ts != NULL && !ts->finished)
    {
      self->n_pending -= ts->records->len;
      ts->finished = TRUE;
      g_clear_pointer (&ts->records, g_array_unref);
      g_string_free (ts->args, TRUE);
      ts->args = NULL;
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
  Prepared *prep;

  if (ts == NULL || ts->finished || tes_cache_writer_failed (self) || !prepare_statements (self))
    return;

  prep = prepare_track (id, ts);
  finish_prepared (self, prep);
  prepared_free (prep);
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
  Pipeline pl = { 0 };
  GThread *workers[MAX_WORKERS] = { NULL };
  guint n_workers = CLAMP (g_get_num_processors (), 1, MAX_WORKERS);
  gboolean ok = FALSE;

  if (!prepare_statements (self))
    goto out;

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

      stored = !g_cancellable_is_cancelled (cancellable) && finish_prepared (self, prep);

      /* Free as we go: peak memory is a few tracks, not all of them. */
      g_ptr_array_index (self->tracks, id) = NULL;
      tes_cache_track_free (prep->ts);
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

out:
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;

  ok = !tes_cache_writer_failed (self);
  if (!ok)
    g_propagate_error (error, g_steal_pointer (&self->error));

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
  gint64 t0, t1, t2, t3;

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
  t1 = g_get_monotonic_time ();

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;

  finish_sql = g_strdup_printf ("CREATE INDEX instants_track ON instants (track_id, ts);"
                                "CREATE INDEX counter_values_track ON counter_values (track_id, ts);"
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
                                "INSERT INTO meta SELECT 'n_flows', coalesce (sum (n), 0) FROM flows;"
                                "INSERT INTO meta SELECT 'n_runs', count(*) FROM runs;"
                                "INSERT INTO meta SELECT 'n_operators', count(*) FROM operators;"
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

  if (!tes_cache_exec (self->db, finish_sql, error) ||
      !tes_cache_finish (self->db, error))
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
  if (!sync_file (self->temp_path, FALSE, error))
    return FALSE;
  t3 = g_get_monotonic_time ();
  g_debug ("%s: committed: last slices %.3f s, indexes and counts %.3f s, fsync %.3f s",
           self->final_path, (t1 - t0) / 1e6, (t2 - t1) / 1e6, (t3 - t2) / 1e6);

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
      offset = (guint32)ts->args->len;
      g_string_append_len (ts->args, args_json, args_len);
      g_string_append_c (ts->args, '\0');
    }

  rec.start = start;
  rec.dur = dur;
  rec.self_dur = offset;                   /* until nested */
  rec.name = name;
  rec.category = category;
  rec.parent = ts->n_added++;              /* insertion order until nested */
  rec.depth = 0;
  rec.flags = flags;

  g_array_append_val (ts->records, rec);
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
