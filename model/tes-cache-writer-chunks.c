/* tes-cache-writer-chunks.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-cache-writer"

#include "config.h"

#include "tes-array-private.h"
#include "tes-cache-writer-private.h"

#include <string.h>

static gboolean
records_sorted (const TesSliceRecord *recs,
                guint                 n)
{
  for (guint i = 1; i < n; i++)
    if (tes_cache_track_compare_records (&recs[i - 1], &recs[i]) > 0)
      return FALSE;

  return TRUE;
}

/* Gives the sorted records mem[first] … mem[first + count − 1] of a
 * track their depth, parent and self time, walking them with the stack of
 * open ancestors the records before them left (empty for the first). mem
 * holds the records from position base of the track on, those not stored
 * yet. Their args offsets move to args_src. An ancestor already stored
 * keeps its self time in its stack entry; those that close here and
 * changed go to patches. The entries still in mem that stay open take
 * their record's self time, as their record is stored later. */
void
tes_cache_writer_nest_range (TesSliceRecord *mem,
                             gint64          base,
                             guint           first,
                             guint           count,
                             GArray         *stack,
                             guint32        *args_src,
                             guint          *max_depth,
                             GArray         *patches)
{
  TesSliceRecord *recs;
  guint room = stack->len;

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
              TesChunkPatch p = { top->index, top->self_dur };
              g_array_append_val (patches, p);
            }
          /* popped: no clear function, nothing to free */
          stack->len--;
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
      tes_array_append (stack, &room, &open, sizeof open);
    }

  for (guint k = 0; k < stack->len; k++)
    {
      TesOpenSlice *e = &g_array_index (stack, TesOpenSlice, k);

      if (e->index >= base)
        e->self_dur = mem[e->index - base].self_dur;
    }
}

static void
chunk_args_free (gpointer data)
{
  if (data != NULL)
    g_byte_array_unref (data);
}

TesPreparedTrack *
tes_prepared_track_new (guint           id,
                        TesTrackSlices *ts)
{
  TesPreparedTrack *prep = g_new0 (TesPreparedTrack, 1);

  prep->id = id;
  prep->ts = ts;
  prep->t_min = G_MAXINT64;
  prep->t_max = G_MININT64;
  prep->chunks = g_array_new (FALSE, FALSE, sizeof (TesChunkInfo));
  prep->chunk_args = g_ptr_array_new_with_free_func (chunk_args_free);
  prep->lod = g_array_new (FALSE, FALSE, sizeof (TesLodLevel));

  return prep;
}

void
tes_prepared_track_free (TesPreparedTrack *prep)
{
  if (prep == NULL)
    return;

  g_clear_pointer (&prep->chunks, g_array_unref);
  g_clear_pointer (&prep->chunk_args, g_ptr_array_unref);
  if (prep->lod != NULL)
    {
      for (guint i = 0; i < prep->lod->len; i++)
        g_free (g_array_index (prep->lod, TesLodLevel, i).buckets);
      g_array_unref (prep->lod);
    }
  g_free (prep);
}

gboolean
tes_lod_shape (guint64  n,
               gint64   t_min,
               gint64   t_max,
               guint   *shift,
               guint   *nb)
{
  /* unsigned: the bounds may be empty (t_min > t_max) or 2^63 apart */
  guint64 span = t_max > t_min ? (guint64)t_max - (guint64)t_min : 1;
  guint target = TES_CACHE_LOD_MIN_BUCKETS;

  if (n < TES_CACHE_LOD_MIN_SLICES)
    return FALSE;

  while (target < TES_CACHE_LOD_MAX_BUCKETS && target < n / 4)
    target *= 2;
  *shift = 0;
  while (*shift < 62 && ((span - 1) >> *shift) + 1 > target)
    (*shift)++;
  *nb = (guint)(((span - 1) >> *shift) + 1);

  return TRUE;
}

gboolean
tes_lod_builder_begin (TesLodBuilder *lb,
                       guint          n,
                       gint64         t_min,
                       gint64         t_max)
{
  if (!tes_lod_shape (n, t_min, t_max, &lb->shift, &lb->nb))
    return FALSE;
  lb->level = g_new0 (TesLaneBucket, lb->nb);
  lb->t_min = t_min;

  return TRUE;
}

void
tes_lod_builder_add (TesLodBuilder        *lb,
                     const TesSliceRecord *recs,
                     guint                 n)
{
  for (guint i = 0; i < n; i++)
    tes_lane_add_slice_pow2 (lb->level, lb->nb, lb->t_min, lb->shift,
                             recs[i].start, recs[i].dur, recs[i].name, recs[i].depth);
}

void
tes_lod_builder_add_kept (TesLodBuilder     *lb,
                          const TesLodSlice *slices,
                          guint              n)
{
  for (guint i = 0; i < n; i++)
    tes_lane_add_slice_pow2 (lb->level, lb->nb, lb->t_min, lb->shift,
                             slices[i].start, slices[i].dur, slices[i].name, slices[i].depth);
}

void
tes_lod_builder_finish (TesLodBuilder *lb,
                        GArray        *lod)
{
  TesLaneBucket *level = lb->level;
  guint nb = lb->nb;
  guint shift = lb->shift;

  for (;;)
    {
      TesLodLevel stored = { shift, nb, level };
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
GByteArray *
tes_cache_writer_pack_chunk (const TesSliceRecord *recs,
                             guint                 count,
                             const guint32        *args_src,
                             const char           *texts,
                             TesChunkInfo         *info)
{
  gsize index_len = (count + 1) * sizeof (guint32);
  g_autofree guint32 *lens = g_new (guint32, count);
  GByteArray *args;
  gboolean any_args = FALSE;
  guint32 offset = 0;
  guint8 *p;

  /* the texts' length first: one allocation, not a realloc per slice */
  for (guint i = 0; i < count; i++)
    {
      lens[i] = args_src[i] != TES_CACHE_WRITER_NO_ARGS ? tes_track_args_len (texts, args_src[i]) : 0;
      offset += lens[i];
    }
  args = g_byte_array_sized_new (index_len + offset);
  g_byte_array_set_size (args, index_len + offset);
  p = args->data + index_len;
  offset = 0;

  *info = (TesChunkInfo) { G_MININT64, 0, 0 };
  for (guint i = 0; i < count; i++)
    {
      const TesSliceRecord *r = &recs[i];

      info->max_end = MAX (info->max_end, r->start + r->dur);
      info->max_dur = MAX (info->max_dur, r->dur);
      info->depth = MAX (info->depth, r->depth);
      memcpy (args->data + i * sizeof (guint32), &offset, sizeof offset);

      if (args_src[i] != TES_CACHE_WRITER_NO_ARGS)
        {
          memcpy (p, texts + args_src[i], lens[i]);
          p += lens[i];
          offset += lens[i];
          any_args = TRUE;
        }
    }
  memcpy (args->data + count * sizeof (guint32), &offset, sizeof offset);

  if (!any_args)
    g_clear_pointer (&args, g_byte_array_unref);

  return args;
}

TesPreparedTrack *
tes_cache_writer_prepare_track (guint           id,
                                TesTrackSlices *ts)
{
  TesPreparedTrack *prep = tes_prepared_track_new (id, ts);
  g_autofree guint32 *args_src = NULL;
  g_autoptr(GArray) stack = NULL;
  TesSliceRecord *recs;
  TesLodBuilder lb;
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
  tes_cache_writer_nest_range (recs, 0, 0, n, stack, args_src, &prep->max_depth, NULL);

  for (guint first = 0; first < n; first += TES_CACHE_CHUNK_SLICES)
    {
      guint count = MIN (TES_CACHE_CHUNK_SLICES, n - first);
      TesChunkInfo info;
      GByteArray *args = tes_cache_writer_pack_chunk (&recs[first], count, &args_src[first], ts->args->str, &info);

      prep->t_min = MIN (prep->t_min, recs[first].start);
      prep->t_max = MAX (prep->t_max, info.max_end);
      g_array_append_val (prep->chunks, info);
      g_ptr_array_add (prep->chunk_args, args);
    }

  /* the texts are packed into the chunks now */
  g_string_free (ts->args, TRUE);
  ts->args = g_string_new (NULL);

  if (tes_lod_builder_begin (&lb, n, prep->t_min, prep->t_max))
    {
      tes_lod_builder_add (&lb, recs, n);
      tes_lod_builder_finish (&lb, prep->lod);
    }

  return prep;
}

gboolean
tes_cache_writer_prepare_statements (TesCacheWriter *self)
{
  if (self->insert_chunk != NULL)
    return TRUE;

  self->packed_data = g_byte_array_new ();
  self->packed_sums = g_byte_array_new ();

  if (sqlite3_prepare_v2 (self->db,
                          "INSERT INTO slice_chunks (track_id, first_index, n, t_min, t_max_start, t_max_end, max_depth, data, args, max_dur, checksum, search, sums, "
                          "data_len, args_len, search_len, sums_len) "
                          "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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

/* A summary level's row of slice_lod (a track's slices' or samples'),
 * with its checksum. After tes_cache_writer_prepare_statements(). */
gboolean
tes_cache_writer_store_lod_level (TesCacheWriter *self,
                                  gint64          track_id,
                                  guint           level,
                                  guint           shift,
                                  gint64          t_base,
                                  guint           n,
                                  gconstpointer   buckets,
                                  gsize           size)
{
  sqlite3_stmt *s = self->insert_lod;

  sqlite3_reset (s);
  sqlite3_bind_int64 (s, 1, track_id);
  sqlite3_bind_int (s, 2, (int)level);
  sqlite3_bind_int (s, 3, (int)shift);
  sqlite3_bind_int64 (s, 4, t_base);
  sqlite3_bind_int64 (s, 5, n);
  sqlite3_bind_blob (s, 6, buckets, (int)size, SQLITE_STATIC);
  sqlite3_bind_int64 (s, 7, tes_cache_chunk_checksum (buckets, size, NULL, 0, NULL, 0, NULL, 0));
  if (sqlite3_step (s) != SQLITE_DONE)
    {
      tes_cache_writer_fail (self, "Storing lane summaries");
      return FALSE;
    }
  /* the blob is bound SQLITE_STATIC: unbound before it is freed */
  sqlite3_clear_bindings (s);
  tes_cache_writer_note_stored (self, size);

  return TRUE;
}

gboolean
tes_cache_writer_store_track (TesCacheWriter   *self,
                              TesPreparedTrack *prep)
{
  const TesSliceRecord *recs = NULL;

  if (prep->chunks->len > 0)
    recs = (const TesSliceRecord *)(gconstpointer)prep->ts->records->data;

  for (guint c = 0; c < prep->chunks->len; c++)
    {
      guint first = c * TES_CACHE_CHUNK_SLICES;

      if (!tes_cache_writer_queue_chunk (self, prep->id, first, &recs[first], MIN (TES_CACHE_CHUNK_SLICES, prep->n - first),
                                         &g_array_index (prep->chunks, TesChunkInfo, c),
                                         g_ptr_array_index (prep->chunk_args, c), NULL))
        return FALSE;
    }

  for (guint lvl = 0; lvl < prep->lod->len; lvl++)
    {
      const TesLodLevel *level = &g_array_index (prep->lod, TesLodLevel, lvl);

      if (!tes_cache_writer_store_lod_level (self, prep->id, lvl, level->shift, prep->t_min, level->n,
                                             level->buckets, level->n * sizeof (TesLaneBucket)))
        return FALSE;
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
