/* tes-report-trace.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-report"

#include "config.h"

#include "tes-cache-private.h"
#include "tes-report-private.h"

#include <string.h>

static TesReportBlock *
block_slot (TesReport *self,
            gint64     key)
{
  return &self->blocks[((guint64)key * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 55];
}

G_STATIC_ASSERT (TES_REPORT_BLOCK_SLOTS == 1 << 9);
G_STATIC_ASSERT (TES_CACHE_CHUNK_SLICES / TES_CACHE_BLOCK_SLICES <= 16);

/* Copies block b of chunk @chunk_id into out when it was decoded before. */
static gboolean
cached_block (TesReport      *self,
              gint64          chunk_id,
              guint           b,
              TesSliceRecord *out,
              guint           m)
{
  gint64 key = chunk_id * 16 + b + 1;
  g_autoptr(GBytes) records = NULL;
  TesReportBlock *slot;

  g_mutex_lock (&self->blocks_lock);
  slot = block_slot (self, key);
  if (slot->key == key && slot->records != NULL)
    records = g_bytes_ref (slot->records);
  g_mutex_unlock (&self->blocks_lock);

  if (records == NULL || g_bytes_get_size (records) != m * sizeof *out)
    return FALSE;
  memcpy (out, g_bytes_get_data (records, NULL), m * sizeof *out);
  return TRUE;
}

static void
cache_block (TesReport            *self,
             gint64                chunk_id,
             guint                 b,
             const TesSliceRecord *recs,
             guint                 m)
{
  gint64 key = chunk_id * 16 + b + 1;
  GBytes *records = g_bytes_new (recs, m * sizeof *recs);
  GBytes *old;
  TesReportBlock *slot;

  g_mutex_lock (&self->blocks_lock);
  slot = block_slot (self, key);
  old = slot->records;
  slot->key = key;
  slot->records = records;
  g_mutex_unlock (&self->blocks_lock);
  g_clear_pointer (&old, g_bytes_unref);
}

/* The records of block b of chunk @chunk_id (m of them), into out: from
 * the report's decoded blocks, or read from @blob and decoded. */
static gboolean
read_block (TesReport      *self,
            sqlite3_blob   *blob,
            gint64          chunk_id,
            gint64          track_id,
            guint           b,
            guint           m,
            gint64          first_start,
            gint64          max_end,
            gsize           offset,
            gsize           len,
            GByteArray     *frame,
            TesSliceRecord *out,
            GError        **error)
{
  const char *why = NULL;

  if (cached_block (self, chunk_id, b, out, m))
    return TRUE;

  g_byte_array_set_size (frame, (guint)len);
  if (sqlite3_blob_read (blob, frame->data, (int)len, (int)offset) != SQLITE_OK)
    why = "cannot be read";
  else if (tes_cache_chunk_unpack_block (frame->data, len, m, first_start, max_end, out, &why))
    {
      cache_block (self, chunk_id, b, out, m);
      return TRUE;
    }

  {
    g_autofree char *where = g_strdup_printf ("block %u %s", b, why);

    return tes_report_chunk_damaged (self, chunk_id, track_id, where, error);
  }
}

/* Each record lies within ±TES_TIME_LIMIT (its start plus its duration is
 * every query's arithmetic), its self time within its duration, its parent
 * comes before it and its depth is within the track's. */
gboolean
tes_report_check_slices (TesReport            *self,
                         gint64                track_id,
                         guint32               first,
                         const TesSliceRecord *records,
                         guint                 n,
                         GError              **error)
{
  const TesTrack *track = tes_report_get_track (self, track_id);

  if (track == NULL)
    return tes_report_set_damaged (error, self, "slices of track %" G_GINT64_FORMAT ", which is not there",
                                   track_id);

  for (guint i = 0; i < n; i++)
    {
      const TesSliceRecord *r = &records[i];
      guint32 index = first + i;

      if (r->start < -TES_TIME_LIMIT || r->dur < 0 || r->start > TES_TIME_LIMIT - r->dur ||
          r->self_dur < 0 || r->self_dur > r->dur ||
          r->parent < -1 || (r->parent >= 0 && (guint32)r->parent >= index) ||
          r->depth > track->max_depth)
        return tes_report_set_damaged (error, self, "slice %u of track %" G_GINT64_FORMAT,
                                       index, track_id);
    }

  return TRUE;
}

/* The track's chunks, by t_min (as its index orders them), listed once. */
GArray *
tes_report_chunk_rows (TesReport *self,
                       sqlite3   *db,
                       gint64     track_id,
                       GError   **error)
{
  g_autoptr(GArray) rows = NULL;
  sqlite3_stmt *stmt = NULL;
  GArray *known;
  int rc;

  g_mutex_lock (&self->lods_lock);
  if ((known = g_hash_table_lookup (self->chunk_rows, &track_id)) != NULL)
    g_array_ref (known);
  g_mutex_unlock (&self->lods_lock);
  if (known != NULL)
    return known;

  if (!tes_report_prepare (db,
                           "SELECT id, first_index, n, max_dur, data_len, t_min, t_max_end FROM slice_chunks "
                           "INDEXED BY slice_chunks_rows WHERE track_id = ? ORDER BY t_min",
                           &stmt, error))
    return NULL;
  sqlite3_bind_int64 (stmt, 1, track_id);
  rows = g_array_new (FALSE, FALSE, sizeof (TesReportChunkRow));
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      TesReportChunkRow row = {
        .id = sqlite3_column_int64 (stmt, 0),
        .first = sqlite3_column_int64 (stmt, 1),
        .n = sqlite3_column_int64 (stmt, 2),
        .max_dur = sqlite3_column_int64 (stmt, 3),
        .data_len = sqlite3_column_int64 (stmt, 4),
        .t_min = sqlite3_column_int64 (stmt, 5),
        .t_max_end = sqlite3_column_int64 (stmt, 6),
      };

      g_array_append_val (rows, row);
    }
  if (rc != SQLITE_DONE)
    {
      tes_cache_set_error (error, db, "Reading slices");
      sqlite3_finalize (stmt);
      return NULL;
    }
  sqlite3_finalize (stmt);

  g_mutex_lock (&self->lods_lock);
  if ((known = g_hash_table_lookup (self->chunk_rows, &track_id)) == NULL)
    {
      known = rows;
      g_hash_table_insert (self->chunk_rows, g_memdup2 (&track_id, sizeof track_id), g_array_ref (rows));
    }
  g_array_ref (known);
  g_mutex_unlock (&self->lods_lock);

  return known;
}

/* Calls func for every stored slice of the track that overlaps [t0, t1]
 * (both inclusive, in the track's ticks), in start order. Only chunks whose
 * extent meets the window are opened, and of those only the blocks whose
 * first start and latest end (in the chunk's index) say they can hold a
 * slice that overlaps it are read and decoded. */
gboolean
tes_report_foreach_slice_in_window_part (TesReport         *self,
                                         sqlite3           *db,
                                         gint64             track_id,
                                         gint64             t0,
                                         gint64             t1,
                                         guint              part,
                                         guint              n_parts,
                                         guint              inner_columns,
                                         TesReportBlockFunc inner,
                                         TesReportSumsFunc  whole,
                                         TesReportSliceFunc func,
                                         gpointer           user_data,
                                         GCancellable      *cancellable,
                                         GError           **error)
{
  g_autofree TesSliceRecord *recs = g_new (TesSliceRecord, TES_CACHE_BLOCK_SLICES);
  g_autoptr(GByteArray) index = g_byte_array_new ();
  g_autoptr(GByteArray) frame = g_byte_array_new ();
  g_autoptr(GArray) rows = NULL;
  sqlite3_stmt *stmt = NULL;
  sqlite3_blob *blob = NULL;
  guint next_row = 0;
  gboolean ok = TRUE;
  int rc = SQLITE_DONE;

  /* the chunks of the track as listed once (a frame of every lane asks
   * for each lane's, a query apiece), or, for the queries reading sums
   * or a part of the chunks, as the table has them */
  if (whole == NULL && n_parts == 1)
    {
      if (!(rows = tes_report_chunk_rows (self, db, track_id, error)))
        return FALSE;
    }
  else
    {
      if (!tes_report_prepare (db,
                               "SELECT id, first_index, n, max_dur, length (data), t_min, t_max_end, sums FROM slice_chunks "
                               "WHERE track_id = ? AND t_min <= ? AND t_max_end >= ? AND id % ? = ? ORDER BY t_min",
                               &stmt, error))
        return FALSE;

      sqlite3_bind_int64 (stmt, 1, track_id);
      sqlite3_bind_int64 (stmt, 2, t1);
      sqlite3_bind_int64 (stmt, 3, t0);
      sqlite3_bind_int (stmt, 4, (int)n_parts);
      sqlite3_bind_int (stmt, 5, (int)part);
    }

  for (;;)
    {
      TesReportChunkRow row;
      gint64 rowid;
      guint32 first;
      guint n;
      gsize index_len, blob_len;

      if (rows != NULL)
        {
          /* as the query: by t_min, those meeting the window */
          if (next_row >= rows->len || g_array_index (rows, TesReportChunkRow, next_row).t_min > t1)
            {
              rc = SQLITE_DONE;
              break;
            }
          row = g_array_index (rows, TesReportChunkRow, next_row++);
          if (row.t_max_end < t0)
            continue;
        }
      else
        {
          if ((rc = sqlite3_step (stmt)) != SQLITE_ROW)
            break;
          row = (TesReportChunkRow) {
            .id = sqlite3_column_int64 (stmt, 0),
            .first = sqlite3_column_int64 (stmt, 1),
            .n = sqlite3_column_int64 (stmt, 2),
            .max_dur = sqlite3_column_int64 (stmt, 3),
            .data_len = sqlite3_column_int64 (stmt, 4),
            .t_min = sqlite3_column_int64 (stmt, 5),
            .t_max_end = sqlite3_column_int64 (stmt, 6),
          };
        }
      rowid = row.id;
      first = (guint32)row.first;
      n = (guint)row.n;

      if (!tes_report_check_chunk (self, db, rowid, track_id, row.n, row.data_len, row.max_dur, error))
        {
          ok = FALSE;
          break;
        }

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          ok = FALSE;
          break;
        }

      /* a chunk within the window, for a query that takes sums: its sums
       * alone (checked against its records with the chunk) */
      if (whole != NULL && t0 <= row.t_min && row.t_max_end <= t1 &&
          tes_cache_check_chunk_vouched (self->check, rowid))
        {
          const guint8 *p = sqlite3_column_blob (stmt, 7);
          const guint8 *end = p + sqlite3_column_bytes (stmt, 7);
          guint n_groups = 0;
          gboolean read = p != NULL && tes_cache_chunk_search_begin (&p, end, &n_groups);

          for (guint g = 0; read && g < n_groups; g++)
            {
              TesChunkSums sums;

              read = tes_cache_chunk_sums_group (&p, end, &sums) &&
                     sums.min >= 0 && sums.min <= sums.max && sums.max <= 2 * TES_TIME_LIMIT;
              if (read)
                whole (&sums, user_data);
            }
          if (!read || p != end)
            {
              ok = tes_report_chunk_damaged (self, rowid, track_id, "its sums cannot be read", error);
              break;
            }
          continue;
        }

      if (blob == NULL)
        rc = sqlite3_blob_open (db, "main", "slice_chunks", "data", rowid, 0, &blob);
      else
        rc = sqlite3_blob_reopen (blob, rowid);
      if (rc != SQLITE_OK)
        {
          tes_cache_set_error (error, db, "Reading slices");
          ok = FALSE;
          break;
        }

      index_len = tes_cache_chunk_data_index_len (n);
      blob_len = (gsize)sqlite3_blob_bytes (blob);
      g_byte_array_set_size (index, (guint)index_len);
      if (index_len > blob_len || sqlite3_blob_read (blob, index->data, (int)index_len, 0) != SQLITE_OK)
        {
          ok = tes_report_chunk_damaged (self, rowid, track_id, "its index cannot be read", error);
          break;
        }

      for (guint b = 0; b < tes_cache_chunk_n_blocks (n); b++)
        {
          guint m = MIN (TES_CACHE_BLOCK_SLICES, n - b * TES_CACHE_BLOCK_SLICES);
          guint32 at = first + b * TES_CACHE_BLOCK_SLICES;
          gint64 start, max_end;
          gsize off, len;

          if (!tes_cache_chunk_data_block (index->data, index_len, n, b, &start, &max_end, &off, &len) ||
              off < index_len || off + len > blob_len)
            {
              ok = tes_report_chunk_damaged (self, rowid, track_id, "its index points outside it", error);
              goto out;
            }
          if (start > t1)
            break;
          if (max_end < t0)
            continue;

          /* a block within the window, for a query that reads only some
           * columns: those alone, straight from the frame (not kept: what
           * reads every slice would only evict the blocks frames reuse) */
          if (inner != NULL && t0 <= start && max_end <= t1)
            {
              const char *why = NULL;

              g_byte_array_set_size (frame, (guint)len);
              if (sqlite3_blob_read (blob, frame->data, (int)len, (int)off) != SQLITE_OK)
                why = "cannot be read";
              else
                tes_cache_chunk_unpack_columns (frame->data, len, m, start, inner_columns, recs, &why);
              for (guint i = 0; why == NULL && i < m; i++)
                if (recs[i].dur < 0 || recs[i].dur > 2 * TES_TIME_LIMIT ||
                    recs[i].self_dur < 0 || recs[i].self_dur > recs[i].dur)
                  why = "holds a record that cannot be";
              if (why != NULL)
                {
                  g_autofree char *where = g_strdup_printf ("block %u %s", b, why);

                  ok = tes_report_chunk_damaged (self, rowid, track_id, where, error);
                  goto out;
                }
              if (!inner (recs, m, user_data))
                goto out;
              continue;
            }

          if (!read_block (self, blob, rowid, track_id, b, m, start, max_end, off, len, frame, recs, error) ||
              !tes_report_check_slices (self, track_id, at, recs, m, error))
            {
              ok = FALSE;
              goto out;
            }

          for (guint i = 0; i < m && recs[i].start <= t1; i++)
            {
              if (recs[i].start + recs[i].dur < t0)
                continue;
              if (!func (&recs[i], at + i, user_data))
                goto out;
            }
        }
    }

  if (ok && rc != SQLITE_ROW && rc != SQLITE_DONE && rc != SQLITE_OK)
    {
      tes_cache_set_error (error, db, "Reading slices");
      ok = FALSE;
    }

out:
  g_clear_pointer (&blob, sqlite3_blob_close);
  sqlite3_finalize (stmt);
  return ok;
}

static gboolean
foreach_slice_in_window (TesReport         *self,
                         sqlite3           *db,
                         gint64             track_id,
                         gint64             t0,
                         gint64             t1,
                         TesReportSliceFunc func,
                         gpointer           user_data,
                         GCancellable      *cancellable,
                         GError           **error)
{
  return tes_report_foreach_slice_in_window_part (self, db, track_id, t0, t1, 0, 1, 0, NULL, NULL, func,
                                                  user_data, cancellable, error);
}

static gboolean
collect_slice (const TesSliceRecord *rec,
               guint32               index,
               gpointer              user_data)
{
  GArray *out = user_data;
  TesSlice slice = {
    .start = rec->start,
    .dur = rec->dur,
    .self_dur = rec->self_dur,
    .name = rec->name,
    .category = rec->category,
    .parent = rec->parent,
    .index = index,
    .depth = rec->depth,
    .flags = rec->flags,
  };

  g_array_append_val (out, slice);
  return TRUE;
}

GArray *
tes_report_get_slices (TesReport *self,
                       gint64     track_id,
                       gint64     t0,
                       gint64     t1,
                       GError   **error)
{
  g_autoptr(GArray) slices = g_array_new (FALSE, FALSE, sizeof (TesSlice));
  sqlite3 *db;
  gboolean ok;

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  if (tes_report_get_track (self, track_id) == NULL)
    {
      g_set_error (error, TES_REPORT_ERROR, TES_REPORT_ERROR_NOT_FOUND,
                   "No track %" G_GINT64_FORMAT " in %s", track_id, self->cache_path);
      return NULL;
    }

  if (!(db = tes_report_borrow_db (self, error)))
    return NULL;

  ok = foreach_slice_in_window (self, db, track_id, t0, t1, collect_slice, slices, NULL, error);
  tes_report_return_db (self, db);

  return ok ? g_steal_pointer (&slices) : NULL;
}

typedef struct
{
  TesLaneBucket *buckets;
  guint          n_buckets;
  gint64         t0;
  gint64         t1;
} LaneState;

static gboolean
add_to_lane (const TesSliceRecord *rec,
             guint32               index,
             gpointer              user_data)
{
  LaneState *state = user_data;

  tes_lane_add_slice (state->buckets, state->n_buckets, state->t0, state->t1,
                      rec->start, rec->dur, rec->name, rec->depth);
  return TRUE;
}

static void
lod_clear (gpointer data)
{
  g_clear_pointer (&((TesReportLod *)data)->data, g_bytes_unref);
}

/* Every track's summary levels (without their buckets), read once by
 * one scan of the table: a seek on it compares whole rows, blobs and all. */
static gboolean
lod_load_levels (TesReport *self,
                 sqlite3   *db,
                 GError   **error)
{
  g_autoptr(GHashTable) lods = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                                      (GDestroyNotify)g_array_unref);
  sqlite3_stmt *stmt = NULL;
  GArray *levels = NULL;
  gint64 last_track = 0;
  int rc;

  if (!tes_report_prepare (db, "SELECT track_id, level, shift, t_base, n FROM slice_lod", &stmt, error))
    return FALSE;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 track_id = sqlite3_column_int64 (stmt, 0);
      TesReportLod lod = {
        .level = sqlite3_column_int (stmt, 1),
        .shift = (guint)sqlite3_column_int (stmt, 2),
        .base = sqlite3_column_int64 (stmt, 3),
        .n = sqlite3_column_int64 (stmt, 4),
      };

      /* read as a number: a shift out of range is never chosen */
      if (sqlite3_column_int64 (stmt, 2) < 0 || sqlite3_column_int64 (stmt, 2) >= 62)
        lod.shift = 62;
      if (levels == NULL || track_id != last_track)
        {
          if (!(levels = g_hash_table_lookup (lods, &track_id)))
            {
              levels = g_array_new (FALSE, TRUE, sizeof (TesReportLod));
              g_array_set_clear_func (levels, lod_clear);
              g_hash_table_insert (lods, g_memdup2 (&track_id, sizeof track_id), levels);
            }
          last_track = track_id;
        }
      g_array_append_val (levels, lod);
    }
  if (rc != SQLITE_DONE)
    {
      tes_cache_set_error (error, db, "Reading lane summaries");
      sqlite3_finalize (stmt);
      return FALSE;
    }
  sqlite3_finalize (stmt);

  g_mutex_lock (&self->lods_lock);
  if (self->lods == NULL)
    self->lods = g_steal_pointer (&lods);
  g_mutex_unlock (&self->lods_lock);

  return TRUE;
}

/* The track's summary levels (without their buckets); NULL on error. */
static GArray *
lod_levels (TesReport *self,
            sqlite3   *db,
            gint64     track_id,
            GError   **error)
{
  GArray *known = NULL;
  gboolean loaded;

  g_mutex_lock (&self->lods_lock);
  loaded = self->lods != NULL;
  g_mutex_unlock (&self->lods_lock);
  if (!loaded && !lod_load_levels (self, db, error))
    return NULL;

  g_mutex_lock (&self->lods_lock);
  known = g_hash_table_lookup (self->lods, &track_id);
  if (known != NULL)
    g_array_ref (known);
  g_mutex_unlock (&self->lods_lock);

  /* no summary: columns from the slices */
  return known != NULL ? known : g_array_new (FALSE, TRUE, sizeof (TesReportLod));
}

/* Keeps @data as @lod's buckets, within the budget. */
static void
lod_keep (TesReport    *self,
          TesReportLod *lod,
          GBytes       *data)
{
  g_mutex_lock (&self->lods_lock);
  if (lod->data == NULL)
    {
      /* over the budget: what was kept goes (the levels stay known) */
      if (self->lods_bytes + g_bytes_get_size (data) > TES_REPORT_LOD_BYTES)
        {
          GHashTableIter iter;
          gpointer value;

          g_hash_table_iter_init (&iter, self->lods);
          while (g_hash_table_iter_next (&iter, NULL, &value))
            for (guint l = 0; l < ((GArray *)value)->len; l++)
              g_clear_pointer (&g_array_index ((GArray *)value, TesReportLod, l).data, g_bytes_unref);
          self->lods_bytes = 0;
        }
      lod->data = g_bytes_ref (data);
      self->lods_bytes += g_bytes_get_size (data);
    }
  g_mutex_unlock (&self->lods_lock);
}

/* The coarsest of @levels whose buckets fit in a column; -1: none. */
static int
lod_choose (GArray *levels,
            gint64  column)
{
  int chosen = -1;

  for (guint i = 0; i < levels->len; i++)
    {
      const TesReportLod *l = &g_array_index (levels, TesReportLod, i);

      if (l->shift < 62 && ((gint64)1 << l->shift) <= column &&
          (chosen < 0 || l->level > g_array_index (levels, TesReportLod, chosen).level))
        chosen = (int)i;
    }

  return chosen;
}

/* Whether @track's summary levels are of its samples (a counter track
 * without slices: the writer summarises those), not of its slices. */
static gboolean
summarises_samples (const TesTrack *track)
{
  return track != NULL && track->kind == TES_TRACK_COUNTER && track->n_slices == 0;
}

/* A counter's level has buckets a quarter of a column wide at most: its
 * samples are placed whole (at their bucket's middle), not spread over
 * the columns a bucket spans, so a coarser one moves peaks by a column. */
#define COUNTER_BUCKETS_PER_COLUMN 4

static gint64
lod_column (TesReport *self,
            gint64     track_id,
            gint64     column)
{
  return summarises_samples (tes_report_get_track (self, track_id)) ? column / COUNTER_BUCKETS_PER_COLUMN : column;
}

/* Up to this many tracks with summaries, the first lane read at a column
 * width reads every track's level for it in one scan. */
#define LOD_SCAN_TRACKS 64

/* Every track's level for columns @column ticks wide not read yet, read
 * by one scan of the table that tests each row's key alone, and reads
 * the blobs of the rows wanted: the overview and the first frame read all
 * of them, and a seek per level would copy whole rows (blobs and all) at
 * each probe of its search. */
static gboolean
lod_read_for_column (TesReport *self,
                     sqlite3   *db,
                     gint64     column,
                     GError   **error)
{
  g_autoptr(GString) sql = g_string_new ("SELECT track_id, level, data, checksum FROM slice_lod "
                                         "WHERE track_id * 256 + level IN (");
  sqlite3_stmt *stmt = NULL;
  GHashTableIter iter;
  gpointer key, value;
  guint n_wanted = 0;
  int rc;

  g_mutex_lock (&self->lods_lock);
  if (g_hash_table_size (self->lods) <= LOD_SCAN_TRACKS)
    {
      g_hash_table_iter_init (&iter, self->lods);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          int chosen = lod_choose (value, lod_column (self, *(gint64 *)key, column));

          if (chosen >= 0 && g_array_index ((GArray *)value, TesReportLod, chosen).data == NULL &&
              g_array_index ((GArray *)value, TesReportLod, chosen).level >= 0 &&
              g_array_index ((GArray *)value, TesReportLod, chosen).level < 256)
            g_string_append_printf (sql, "%s%" G_GINT64_FORMAT, n_wanted++ ? ", " : "",
                                    *(gint64 *)key * 256 + g_array_index ((GArray *)value, TesReportLod, chosen).level);
        }
    }
  g_mutex_unlock (&self->lods_lock);
  if (n_wanted < 2)
    return TRUE;
  g_string_append (sql, ")");

  if (!tes_report_prepare (db, sql->str, &stmt, error))
    return FALSE;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 track_id = sqlite3_column_int64 (stmt, 0);
      int level = sqlite3_column_int (stmt, 1);
      g_autoptr(GBytes) data = NULL;
      TesReportLod *lod = NULL;
      GArray *levels;

      g_mutex_lock (&self->lods_lock);
      if ((levels = g_hash_table_lookup (self->lods, &track_id)) != NULL)
        for (guint i = 0; i < levels->len && lod == NULL; i++)
          if (g_array_index (levels, TesReportLod, i).level == level)
            lod = &g_array_index (levels, TesReportLod, i);
      g_mutex_unlock (&self->lods_lock);
      if (lod == NULL)
        continue;

      /* one that does not match its checksum is not kept: the error is
       * for whoever asks for that lane (read again, and checked, then) */
      data = g_bytes_new (sqlite3_column_blob (stmt, 2), (gsize)sqlite3_column_bytes (stmt, 2));
      if (tes_report_check_lod_data (self, track_id, level, data, sqlite3_column_int64 (stmt, 3), NULL))
        lod_keep (self, lod, data);
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    {
      tes_cache_set_error (error, db, "Reading lane summaries");
      return FALSE;
    }

  return TRUE;
}

/* Level @i of @levels' buckets, checked and read the first time. */
static GBytes *
lod_data (TesReport *self,
          sqlite3   *db,
          gint64     track_id,
          GArray    *levels,
          guint      i,
          GError   **error)
{
  TesReportLod *lod = &g_array_index (levels, TesReportLod, i);
  g_autoptr(GBytes) data = NULL;
  sqlite3_stmt *stmt = NULL;

  g_mutex_lock (&self->lods_lock);
  if (lod->data != NULL)
    data = g_bytes_ref (lod->data);
  g_mutex_unlock (&self->lods_lock);
  if (data != NULL)
    return g_steal_pointer (&data);

  /* one seek, checked as read */
  if (!tes_report_prepare (db, "SELECT data, checksum FROM slice_lod WHERE track_id = ? AND level = ?", &stmt, error))
    return NULL;
  sqlite3_bind_int64 (stmt, 1, track_id);
  sqlite3_bind_int (stmt, 2, lod->level);
  if (sqlite3_step (stmt) != SQLITE_ROW)
    {
      tes_cache_set_error (error, db, "Reading lane summaries");
      sqlite3_finalize (stmt);
      return NULL;
    }
  data = g_bytes_new (sqlite3_column_blob (stmt, 0), (gsize)sqlite3_column_bytes (stmt, 0));
  if (!tes_report_check_lod_data (self, track_id, lod->level, data, sqlite3_column_int64 (stmt, 1), error))
    {
      sqlite3_finalize (stmt);
      return NULL;
    }
  sqlite3_finalize (stmt);

  lod_keep (self, lod, data);

  return g_steal_pointer (&data);
}

/**
 * tes_report_lod_for_column:
 * @of_samples: the levels of a counter's samples (TesCounterLodBucket)
 *   are asked for, else of a track's slices (TesLaneBucket)
 * @chosen: (out): the level
 * @data: (out): its buckets, checked against its checksum and its size;
 *   NULL (and TRUE) when columns are finer than every level, or the
 *   track's levels are of the other kind (a track has one pyramid)
 *
 * The coarsest summary level of @track_id whose buckets are no wider than
 * a column of @column ticks (a quarter of one for a counter).
 */
gboolean
tes_report_lod_for_column (TesReport     *self,
                           sqlite3       *db,
                           gint64         track_id,
                           gint64         column,
                           gboolean       of_samples,
                           TesReportLod  *chosen,
                           GBytes       **data,
                           GError       **error)
{
  gsize bucket_size = of_samples ? sizeof (TesCounterLodBucket) : sizeof (TesLaneBucket);
  g_autoptr(GArray) levels = NULL;
  const TesReportLod *lod;
  gboolean kept;
  int i;

  *data = NULL;
  if (of_samples != summarises_samples (tes_report_get_track (self, track_id)))
    return TRUE;
  if (!(levels = lod_levels (self, db, track_id, error)))
    return FALSE;
  if ((i = lod_choose (levels, lod_column (self, track_id, column))) < 0)
    return TRUE;
  lod = &g_array_index (levels, TesReportLod, i);

  g_mutex_lock (&self->lods_lock);
  kept = lod->data != NULL;
  g_mutex_unlock (&self->lods_lock);
  if (!kept && !lod_read_for_column (self, db, column, error))
    return FALSE;
  if (!(*data = lod_data (self, db, track_id, levels, (guint)i, error)))
    return FALSE;

  /* the level's buckets fill its data and end within gint64 */
  if (lod->n < 0 || lod->n > TES_CACHE_LOD_MAX_BUCKETS || g_bytes_get_size (*data) != (gsize)lod->n * bucket_size ||
      (__int128)lod->base + ((__int128)lod->n << lod->shift) > G_MAXINT64)
    {
      g_clear_pointer (data, g_bytes_unref);
      return tes_report_set_damaged (error, self, "the lane summary of track %" G_GINT64_FORMAT, track_id);
    }
  *chosen = *lod;
  chosen->data = NULL;

  return TRUE;
}

/* Answers from the coarsest summary level whose buckets are no wider than
 * a column; FALSE (and nothing done) when columns are finer than every
 * level, so that the slices themselves must be read. */
static gboolean
lane_from_summary (TesReport     *self,
                   sqlite3       *db,
                   gint64         track_id,
                   gint64         t0,
                   gint64         t1,
                   guint          n_buckets,
                   TesLaneBucket *buckets,
                   gboolean      *answered,
                   GError       **error)
{
  g_autoptr(GBytes) data = NULL;
  gint64 column = (gint64)(((__int128)t1 - t0) / n_buckets);
  TesReportLod lod;
  const TesLaneBucket *level;
  gint64 first, last;

  *answered = FALSE;
  if (!tes_report_lod_for_column (self, db, track_id, column, FALSE, &lod, &data, error))
    return FALSE;
  if (data == NULL)
    return TRUE;
  level = g_bytes_get_data (data, NULL);

  first = t0 <= lod.base ? 0 : (gint64)(((__int128)t0 - lod.base) >> lod.shift);
  last = t1 <= lod.base ? -1 : (gint64)MIN (lod.n - 1, ((__int128)t1 - 1 - lod.base) >> lod.shift);

  for (gint64 b = first; b <= last; b++)
    {
      /* what the writer's merging keeps: the time spread over columns
       * is within the bucket */
      if (level[b].busy < 0 || level[b].busy > ((gint64)1 << lod.shift) ||
          level[b].dominant_time < 0 || level[b].dominant_time > level[b].busy)
        return tes_report_set_damaged (error, self, "bucket %" G_GINT64_FORMAT " of the lane "
                                       "summary of track %" G_GINT64_FORMAT, b, track_id);
    }
  if (first <= last)
    tes_lane_add_level (buckets, n_buckets, t0, t1, level, lod.base, lod.shift, first, last);

  *answered = TRUE;
  return TRUE;
}

/* One bucket per pixel column of [t0, t1) on the track: from the summary
 * pyramid when a column is wider than its finest level, else from the
 * slices in the window (of which there are then few enough). */
GArray *
tes_report_get_lane (TesReport *self,
                     gint64     track_id,
                     gint64     t0,
                     gint64     t1,
                     guint      n_buckets,
                     GError   **error)
{
  g_autoptr(GArray) buckets = NULL;
  LaneState state;
  gboolean answered = FALSE;
  sqlite3 *db;
  gboolean ok;

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);
  g_return_val_if_fail (n_buckets > 0, NULL);
  g_return_val_if_fail (t1 > t0, NULL);

  buckets = g_array_sized_new (FALSE, TRUE, sizeof (TesLaneBucket), n_buckets);
  g_array_set_size (buckets, n_buckets);

  if (!(db = tes_report_borrow_db (self, error)))
    return NULL;

  state.buckets = (TesLaneBucket *)(gpointer)buckets->data;
  state.n_buckets = n_buckets;
  state.t0 = t0;
  state.t1 = t1;

  ok = lane_from_summary (self, db, track_id, t0, t1, n_buckets, state.buckets, &answered, error);
  if (ok && !answered)
    ok = foreach_slice_in_window (self, db, track_id, t0, t1, add_to_lane, &state, NULL, error);
  tes_report_return_db (self, db);

  return ok ? g_steal_pointer (&buckets) : NULL;
}

char *
tes_report_get_slice_args (TesReport *self,
                           gint64     track_id,
                           guint32    index,
                           GError   **error)
{
  sqlite3_stmt *stmt = NULL;
  sqlite3 *db;
  char *args = NULL;

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  if (!(db = tes_report_borrow_db (self, error)))
    return NULL;

  if (tes_report_prepare (db,
                          "SELECT first_index, n, args, id, length (data), max_dur FROM slice_chunks "
                          "WHERE track_id = ? AND first_index <= ? ORDER BY first_index DESC LIMIT 1",
                          &stmt, error))
    {
      gboolean found;

      sqlite3_bind_int64 (stmt, 1, track_id);
      sqlite3_bind_int64 (stmt, 2, index);
      found = sqlite3_step (stmt) == SQLITE_ROW;

      if (found &&
          !tes_report_check_chunk (self, db, sqlite3_column_int64 (stmt, 3), track_id,
                                   sqlite3_column_int64 (stmt, 1), sqlite3_column_int64 (stmt, 4),
                                   sqlite3_column_int64 (stmt, 5), error))
        {
          sqlite3_finalize (stmt);
          tes_report_return_db (self, db);
          return NULL;
        }

      if (found &&
          index - sqlite3_column_int64 (stmt, 0) < sqlite3_column_int64 (stmt, 1))
        {
          guint i = (guint)(index - sqlite3_column_int64 (stmt, 0));
          guint n = (guint)sqlite3_column_int64 (stmt, 1);
          guint b = i / TES_CACHE_BLOCK_SLICES;
          g_autoptr(GByteArray) raw = g_byte_array_new ();
          g_autofree char *why = NULL;
          guint32 begin, end;

          i -= b * TES_CACHE_BLOCK_SLICES;
          if (sqlite3_column_type (stmt, 2) == SQLITE_NULL)
            args = g_strdup ("");
          else if (!tes_cache_chunk_unpack_args (sqlite3_column_blob (stmt, 2), (gsize)sqlite3_column_bytes (stmt, 2),
                                                 n, b, b + 1, raw, &why))
            {
              tes_report_chunk_damaged (self, sqlite3_column_int64 (stmt, 3), track_id, why, error);
              sqlite3_finalize (stmt);
              tes_report_return_db (self, db);
              return NULL;
            }
          else
            {
              guint count = MIN (TES_CACHE_BLOCK_SLICES, n - b * TES_CACHE_BLOCK_SLICES);

              memcpy (&begin, raw->data + i * sizeof (guint32), sizeof begin);
              memcpy (&end, raw->data + (i + 1) * sizeof (guint32), sizeof end);
              args = g_strndup ((const char *)raw->data + (count + 1) * sizeof (guint32) + begin, end - begin);
            }
        }

      if (args == NULL)
        g_set_error (error, TES_REPORT_ERROR, TES_REPORT_ERROR_NOT_FOUND,
                     "No slice %u on track %" G_GINT64_FORMAT, index, track_id);
    }

  sqlite3_finalize (stmt);
  tes_report_return_db (self, db);

  return args;
}
