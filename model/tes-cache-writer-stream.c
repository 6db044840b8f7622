/* tes-cache-writer-stream.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-cache-writer"

#include "config.h"

#include "tes-cache-writer-private.h"

#include <fcntl.h>
#include <string.h>

/* ---- streaming ------------------------------------------------------------ */

/* Reads a stored chunk back: its count records and, with args, its args
 * in the layout tes_cache_writer_pack_chunk() gives (every text empty when it has none). */
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

/* The checksum of a stored chunk whose data and sums become @data and
 * @sums (its args and search summary as stored). */
static gint64
stored_checksum (TesCacheWriter *self,
                 gint64          rowid,
                 GByteArray     *data,
                 GByteArray     *sums)
{
  sqlite3_stmt *s = NULL;
  gint64 sum = 0;

  if (sqlite3_prepare_v2 (self->db, "SELECT args, search FROM slice_chunks WHERE rowid = ?", -1, &s, NULL) == SQLITE_OK)
    {
      sqlite3_bind_int64 (s, 1, rowid);
      if (sqlite3_step (s) == SQLITE_ROW)
        sum = tes_cache_chunk_checksum (data->data, data->len,
                                        sqlite3_column_blob (s, 0), (gsize)sqlite3_column_bytes (s, 0),
                                        sqlite3_column_blob (s, 1), (gsize)sqlite3_column_bytes (s, 1),
                                        sums->data, sums->len);
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
  /* the chunks' rows and contents are read back: every one in the file first */
  if (!tes_cache_writer_drain_chunks (self))
    {
      g_array_set_size (patches, 0);
      return;
    }

  patched = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < patches->len; i++)
    g_hash_table_add (patched, GUINT_TO_POINTER (g_array_index (patches, TesChunkPatch, i).index / TES_CACHE_CHUNK_SLICES));

  recs = g_new (TesSliceRecord, TES_CACHE_CHUNK_SLICES);
  if (sqlite3_prepare_v2 (self->db, "UPDATE slice_chunks SET data = ?1, checksum = ?2, sums = ?3, data_len = length (?1), "
                          "sums_len = length (?3) WHERE rowid = ?4",
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
          const TesChunkPatch *p = &g_array_index (patches, TesChunkPatch, i);

          if (p->index / TES_CACHE_CHUNK_SLICES == c)
            recs[p->index % TES_CACHE_CHUNK_SLICES].self_dur = p->self_dur;
        }
      tes_cache_chunk_pack_data (recs, count, self->packed_data);
      /* the self times are in the sums too */
      tes_cache_chunk_pack_sums (recs, count, self->packed_sums);
      sqlite3_reset (s);
      sqlite3_bind_blob (s, 1, self->packed_data->data, (int)self->packed_data->len, SQLITE_STATIC);
      sqlite3_bind_int64 (s, 2, stored_checksum (self, rowid, self->packed_data, self->packed_sums));
      sqlite3_bind_blob (s, 3, self->packed_sums->data, (int)self->packed_sums->len, SQLITE_STATIC);
      sqlite3_bind_int64 (s, 4, rowid);
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
  TesChunkInfo info = { ts->held_max_end, ts->held_max_dur, ts->held_depth };
  g_autoptr(GByteArray) args = g_steal_pointer (&ts->held_args);
  guint count = ts->n_held;

  if (!tes_cache_writer_queue_chunk (self, id, ts->n_stored, recs, count, &info, args, ts))
    return FALSE;
  ts->n_stored += count;
  ts->n_held = 0;
  g_array_remove_range (ts->records, 0, count);
  self->n_pending -= count;

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

  if (!ts->in_order || tes_cache_writer_failed (self) || !tes_cache_writer_prepare_statements (self))
    return;
  if (ts->records->len - ts->n_held < TES_CACHE_CHUNK_SLICES && !(all && ts->records->len > 0))
    return;

  patches = g_array_new (FALSE, FALSE, sizeof (TesChunkPatch));
  args_src = g_new (guint32, TES_CACHE_CHUNK_SLICES);
  for (;;)
    {
      TesSliceRecord *recs = (TesSliceRecord *)(gpointer)ts->records->data;
      guint n = ts->records->len;
      guint held = ts->n_held;
      guint count;
      TesChunkInfo info;
      GByteArray *args;

      if (!(n - held >= TES_CACHE_CHUNK_SLICES || (all && held < n)))
        break;

      count = MIN (TES_CACHE_CHUNK_SLICES, n - held);
      tes_cache_writer_nest_range (recs, ts->n_stored, held, count, ts->stack, args_src, &ts->max_depth, patches);
      args = tes_cache_writer_pack_chunk (&recs[held], count, args_src, ts->args->str, &info);
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

  if (!nested)
    return;

  /* keep the rest, with their args texts moved to a string of their own:
   * the one of the flush before, which keeps its size (a new one grew
   * again by copies into fresh pages at every flush) */
  {
    TesSliceRecord *recs = (TesSliceRecord *)(gpointer)ts->records->data;
    GString *rest = ts->spare_args != NULL ? ts->spare_args : g_string_new (NULL);

    g_string_truncate (rest, 0);

    for (guint i = ts->n_held; i < ts->records->len; i++)
      if ((guint32)recs[i].self_dur != TES_CACHE_WRITER_NO_ARGS)
        {
          guint32 at = (guint32)recs[i].self_dur;

          recs[i].self_dur = tes_track_args_add (rest, ts->args->str + at, tes_track_args_len (ts->args->str, at));
        }
    ts->spare_args = ts->args;
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
  if ((ts->n_held > 0 && !store_held (self, id, ts)) || !tes_cache_writer_drain_chunks (self))
    return;
  /* the chunks read back here are stored again in a new order */
  tes_cache_writer_forget_kept (self, ts);

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
            r->self_dur = tes_track_args_add (args, texts + offsets[i], offsets[i + 1] - offsets[i]);
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
  ts->records_room = ts->records->len;
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
gboolean
tes_cache_writer_finish_streamed (TesCacheWriter *self,
                                  guint           id,
                                  TesTrackSlices *ts)
{
  g_autoptr(GArray) patches = g_array_new (FALSE, FALSE, sizeof (TesChunkPatch));
  TesPreparedTrack *prep = tes_prepared_track_new (id, ts);
  TesLodBuilder lb;
  gboolean ok;

  tes_cache_writer_stream_track (self, id, TRUE);
  for (guint k = 0; k < ts->stack->len; k++)
    {
      const TesOpenSlice *e = &g_array_index (ts->stack, TesOpenSlice, k);

      if (e->dirty)
        {
          TesChunkPatch p = { e->index, e->self_dur };
          g_array_append_val (patches, p);
        }
    }
  apply_patches (self, ts, patches);

  tes_cache_writer_drain_chunks (self);
  prep->n = ts->n_stored;
  prep->max_depth = ts->max_depth;
  prep->t_min = ts->t_min;
  prep->t_max = ts->t_max;

  /* the summaries and the track's row follow on the packing thread */
  if (tes_cache_writer_queue_summaries (self, prep, ts))
    return TRUE;

  if (!tes_cache_writer_failed (self) && tes_lod_builder_begin (&lb, prep->n, prep->t_min, prep->t_max))
    {
      g_autofree TesSliceRecord *recs = g_new (TesSliceRecord, TES_CACHE_CHUNK_SLICES);

      for (guint c = 0; c < ts->chunk_rows->len; c++)
        {
          guint count = MIN (TES_CACHE_CHUNK_SLICES, prep->n - c * TES_CACHE_CHUNK_SLICES);

          if (!read_back_chunk (self, g_array_index (ts->chunk_rows, gint64, c), count, recs, NULL))
            break;
          tes_lod_builder_add (&lb, recs, count);
        }
      tes_lod_builder_finish (&lb, prep->lod);
    }

  ok = !tes_cache_writer_failed (self) && tes_cache_writer_store_track (self, prep);
  tes_prepared_track_free (prep);

  return ok;
}
