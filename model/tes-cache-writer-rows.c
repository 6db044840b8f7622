/* tes-cache-writer-rows.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-cache-writer"

#include "config.h"

#include "tes-cache-writer-private.h"

#include <math.h>
#include <string.h>

/* An instant or counter value at ts widens its track's extent. */
static void
note_mark (TesCacheWriter *self,
           gint64          track_id,
           gint64          ts)
{
  gint64 *span;

  if (track_id <= 0 || track_id >= (gint64)self->tracks->len)
    return;
  while (self->marks->len <= (guint)track_id)
    {
      const gint64 empty[2] = { G_MAXINT64, G_MININT64 };

      g_array_append_vals (self->marks, empty, 1);
    }
  span = &g_array_index (self->marks, gint64, 2 * track_id);
  span[0] = MIN (span[0], ts);
  span[1] = MAX (span[1], ts);
}

void
tes_cache_writer_add_instant (TesCacheWriter  *self,
                              gint64           track_id,
                              gint64           ts,
                              guint32          name,
                              guint32          category,
                              TesInstantScope  scope,
                              const char      *args_json)
{
  TesCacheRowHash *rh = &self->instants_hash;
  gsize args_len = args_json != NULL ? strlen (args_json) : 0;
  sqlite3_stmt *s;

  g_return_if_fail (TES_IS_CACHE_WRITER (self));

  if (tes_cache_writer_failed (self))
    return;

  ts = tes_cache_writer_clamp_time (ts);
  s = tes_cache_writer_stmt (self, TES_CACHE_WRITER_STMT_INSTANT);
  sqlite3_bind_int64 (s, 1, track_id);
  sqlite3_bind_int64 (s, 2, ts);
  sqlite3_bind_int64 (s, 3, name);
  sqlite3_bind_int64 (s, 4, category);
  sqlite3_bind_int (s, 5, scope);
  if (args_json != NULL)
    sqlite3_bind_text (s, 6, args_json, (int)args_len, SQLITE_STATIC);
  tes_cache_writer_step_done (self, s, "Storing an instant");
  if (tes_cache_writer_failed (self))
    return;
  note_mark (self, track_id, ts);

  /* as the seal reads it back: SELECT * FROM instants ORDER BY id */
  tes_cache_row_put_int (rh, sqlite3_last_insert_rowid (self->db));
  tes_cache_row_put_int (rh, track_id);
  tes_cache_row_put_int (rh, ts);
  tes_cache_row_put_int (rh, name);
  tes_cache_row_put_int (rh, category);
  tes_cache_row_put_int (rh, scope);
  if (args_json != NULL)
    tes_cache_row_put_text (rh, args_json, args_len);
  else
    tes_cache_row_put_null (rh);
  tes_cache_row_hash_end_row (rh);
}

void
tes_cache_writer_add_counter_value (TesCacheWriter *self,
                                    gint64          track_id,
                                    gint64          ts,
                                    double          value)
{
  TesCacheRowHash *rh = &self->counters_hash;
  sqlite3_stmt *s;

  g_return_if_fail (TES_IS_CACHE_WRITER (self));

  if (tes_cache_writer_failed (self))
    return;

  ts = tes_cache_writer_clamp_time (ts);
  s = tes_cache_writer_stmt (self, TES_CACHE_WRITER_STMT_COUNTER);
  sqlite3_bind_int64 (s, 1, track_id);
  sqlite3_bind_int64 (s, 2, ts);
  sqlite3_bind_double (s, 3, value);
  tes_cache_writer_step_done (self, s, "Storing a counter value");
  if (tes_cache_writer_failed (self))
    return;
  note_mark (self, track_id, ts);

  /* SELECT * FROM counter_values ORDER BY rowid */
  tes_cache_row_put_int (rh, track_id);
  tes_cache_row_put_int (rh, ts);
  tes_cache_row_put_double (rh, value);
  tes_cache_row_hash_end_row (rh);
}

void
tes_cache_writer_add_flow (TesCacheWriter *self,
                           guint32         name,
                           guint32         category,
                           gint64          from_track,
                           gint64          from_ts,
                           gint64          to_track,
                           gint64          to_ts)
{
  gint64 *row;

  g_return_if_fail (TES_IS_CACHE_WRITER (self));

  if (tes_cache_writer_failed (self))
    return;

  if (self->flows == NULL)
    self->flows = g_new (gint64, TES_CACHE_FLOW_BLOCK * 6);
  row = &self->flows[self->n_flows++ * 6];
  row[0] = name;
  row[1] = category;
  row[2] = from_track;
  row[3] = tes_cache_writer_clamp_time (from_ts);
  row[4] = to_track;
  row[5] = tes_cache_writer_clamp_time (to_ts);
  if (self->n_flows == TES_CACHE_FLOW_BLOCK)
    tes_cache_writer_flush_flows (self);
}

/* Stores the flows add_flow() holds as one row of `flows`, in file order
 * (their ids are the order they came in: the row's id is its first's). */
void
tes_cache_writer_flush_flows (TesCacheWriter *self)
{
  guint n = self->n_flows;
  sqlite3_stmt *s;

  self->n_flows = 0;
  if (n == 0 || tes_cache_writer_failed (self))
    return;

  if (self->insert_flows == NULL &&
      sqlite3_prepare_v3 (self->db, "INSERT INTO flows (id, n, data) VALUES (?, ?, ?)", -1,
                          SQLITE_PREPARE_PERSISTENT, &self->insert_flows, NULL) != SQLITE_OK)
    {
      tes_cache_writer_fail (self, "Storing flows");
      return;
    }
  if (self->packed_flows == NULL)
    self->packed_flows = g_byte_array_new ();
  if (self->next_flow_id == 0)
    self->next_flow_id = 1;

  tes_cache_flows_pack (self->flows, n, self->packed_flows);
  s = self->insert_flows;
  sqlite3_reset (s);
  sqlite3_bind_int64 (s, 1, self->next_flow_id);
  sqlite3_bind_int64 (s, 2, n);
  sqlite3_bind_blob (s, 3, self->packed_flows->data, (int)self->packed_flows->len, SQLITE_STATIC);
  tes_cache_writer_step_done (self, s, "Storing flows");
  tes_cache_writer_note_stored (self, self->packed_flows->len);
  self->next_flow_id += n;
}

gint64
tes_cache_writer_add_run (TesCacheWriter *self,
                          const char     *name,
                          gint64          clock_id,
                          gint64          start,
                          gint64          end)
{
  sqlite3_stmt *s;

  g_return_val_if_fail (TES_IS_CACHE_WRITER (self), 0);
  g_return_val_if_fail (name != NULL, 0);

  if (tes_cache_writer_failed (self))
    return 0;

  /* prepared once: a run per inference makes hundreds of thousands */
  s = tes_cache_writer_stmt (self, TES_CACHE_WRITER_STMT_RUN);
  sqlite3_bind_text (s, 1, name, -1, SQLITE_TRANSIENT);
  tes_cache_writer_bind_id_or_null (s, 2, clock_id);
  sqlite3_bind_int64 (s, 3, tes_cache_writer_clamp_time (start));
  sqlite3_bind_int64 (s, 4, tes_cache_writer_clamp_time (end));
  tes_cache_writer_step_done (self, s, "Storing a run");

  return tes_cache_writer_failed (self) ? 0 : sqlite3_last_insert_rowid (self->db);
}

/* An id column's value: NULL for none (0 or less). */
static void
put_id_or_null (TesCacheRowHash *rh,
                gint64           id)
{
  if (id > 0)
    tes_cache_row_put_int (rh, id);
  else
    tes_cache_row_put_null (rh);
}

static void
put_count_or_null (TesCacheRowHash *rh,
                   gint64           value)
{
  if (value >= 0)
    tes_cache_row_put_int (rh, value);
  else
    tes_cache_row_put_null (rh);
}

void
tes_cache_writer_add_operator (TesCacheWriter       *self,
                               const TesOperatorRow *row)
{
  TesCacheRowHash *rh = &self->operators_hash;
  sqlite3_stmt *s;
  gsize args_len;
  guint32 name, type;

  g_return_if_fail (TES_IS_CACHE_WRITER (self));
  g_return_if_fail (row != NULL);
  g_return_if_fail (row->name != NULL);

  if (tes_cache_writer_failed (self))
    return;

  name = tes_cache_writer_intern (self, row->name);
  type = tes_cache_writer_intern (self, row->type ? row->type : "");
  args_len = row->args_json ? strlen (row->args_json) : 0;

  s = tes_cache_writer_stmt (self, TES_CACHE_WRITER_STMT_OPERATOR);
  tes_cache_writer_bind_id_or_null (s, 1, row->source_id);
  tes_cache_writer_bind_id_or_null (s, 2, row->track_id);
  tes_cache_writer_bind_id_or_null (s, 3, row->run_id);
  if (row->op_index >= 0)
    sqlite3_bind_int64 (s, 4, row->op_index);
  sqlite3_bind_int64 (s, 5, name);
  sqlite3_bind_int64 (s, 6, type);
  if (row->count >= 0)
    sqlite3_bind_int64 (s, 7, row->count);
  if (row->total >= 0)
    sqlite3_bind_int64 (s, 8, row->total);
  tes_cache_writer_bind_id_or_null (s, 9, row->clock_id);
  if (!isnan (row->share))
    sqlite3_bind_double (s, 10, row->share);
  if (row->args_json != NULL)
    sqlite3_bind_text (s, 11, row->args_json, (int)args_len, SQLITE_STATIC);
  tes_cache_writer_step_done (self, s, "Storing an operator");
  if (tes_cache_writer_failed (self))
    return;
  /* a Kineto trace's per-step rows list kernels: 18 MB at 1M events */
  tes_cache_writer_note_stored (self, args_len);

  /* the row as the seal reads it back (SELECT * FROM operators ORDER BY
   * id): the columns in the table's order, as their affinity stores them */
  tes_cache_row_put_int (rh, sqlite3_last_insert_rowid (self->db));
  put_id_or_null (rh, row->source_id);
  put_id_or_null (rh, row->track_id);
  put_id_or_null (rh, row->run_id);
  put_count_or_null (rh, row->op_index);
  tes_cache_row_put_int (rh, name);
  tes_cache_row_put_int (rh, type);
  put_count_or_null (rh, row->count);
  put_count_or_null (rh, row->total);
  put_id_or_null (rh, row->clock_id);
  if (!isnan (row->share))
    tes_cache_row_put_double (rh, row->share);
  else
    tes_cache_row_put_null (rh);
  if (row->args_json != NULL)
    tes_cache_row_put_text (rh, row->args_json, args_len);
  else
    tes_cache_row_put_null (rh);
  tes_cache_row_hash_end_row (rh);
}

gint64
tes_cache_writer_add_tile (TesCacheWriter *self,
                           gint            ipu,
                           gint            tile,
                           gint64          memory_limit,
                           gint64          track_id)
{
  sqlite3_stmt *s = NULL;

  g_return_val_if_fail (TES_IS_CACHE_WRITER (self), 0);

  if (tes_cache_writer_failed (self))
    return 0;

  if (sqlite3_prepare_v2 (self->db,
                          "INSERT INTO tiles (ipu, tile, memory_limit, track_id) VALUES (?, ?, ?, ?) "
                          "ON CONFLICT (ipu, tile) DO UPDATE SET "
                          "memory_limit = coalesce (excluded.memory_limit, memory_limit), "
                          "track_id = coalesce (excluded.track_id, track_id) "
                          "RETURNING id",
                          -1, &s, NULL) != SQLITE_OK)
    {
      tes_cache_writer_fail (self, "Storing a tile");
      return 0;
    }

  sqlite3_bind_int (s, 1, ipu);
  sqlite3_bind_int (s, 2, tile);
  if (memory_limit > 0)
    sqlite3_bind_int64 (s, 3, memory_limit);
  tes_cache_writer_bind_id_or_null (s, 4, track_id);

  {
    gint64 id = 0;

    if (sqlite3_step (s) == SQLITE_ROW)
      id = sqlite3_column_int64 (s, 0);
    else
      tes_cache_writer_fail (self, "Storing a tile");
    sqlite3_finalize (s);
    /* the tile's lane knows its IPU and tile too */
    if (track_id != 0)
      tes_cache_writer_set_track_tile (self, track_id, ipu, tile);
    return id;
  }
}

/* The IPU whose BSP steps run @run_id holds (its name is for people). */
void
tes_cache_writer_set_run_ipu (TesCacheWriter *self,
                              gint64          run_id,
                              gint            ipu)
{
  sqlite3_stmt *s = NULL;

  g_return_if_fail (TES_IS_CACHE_WRITER (self));
  g_return_if_fail (ipu >= 0 && ipu < TES_MAX_IPUS);

  if (tes_cache_writer_failed (self))
    return;

  if (sqlite3_prepare_v2 (self->db, "UPDATE runs SET ipu = ? WHERE id = ?", -1, &s, NULL) != SQLITE_OK)
    {
      tes_cache_writer_fail (self, "Storing a run");
      return;
    }
  sqlite3_bind_int (s, 1, ipu);
  sqlite3_bind_int64 (s, 2, run_id);
  tes_cache_writer_step_done (self, s, "Storing a run");
  sqlite3_finalize (s);
}

/* The IPU and tile a lane shows (@tile -1: the IPU's own track), as
 * numbers: readers need not parse its name. */
void
tes_cache_writer_set_track_tile (TesCacheWriter *self,
                                 gint64          track_id,
                                 gint            ipu,
                                 gint            tile)
{
  sqlite3_stmt *s = NULL;

  g_return_if_fail (TES_IS_CACHE_WRITER (self));
  g_return_if_fail (ipu >= 0 && ipu < TES_MAX_IPUS);

  if (tes_cache_writer_failed (self))
    return;

  if (sqlite3_prepare_v2 (self->db, "UPDATE tracks SET ipu = ?, tile = ? WHERE id = ?", -1, &s, NULL) != SQLITE_OK)
    {
      tes_cache_writer_fail (self, "Storing a track");
      return;
    }
  sqlite3_bind_int (s, 1, ipu);
  if (tile >= 0)
    sqlite3_bind_int (s, 2, tile);
  sqlite3_bind_int64 (s, 3, track_id);
  tes_cache_writer_step_done (self, s, "Storing a track");
  sqlite3_finalize (s);
}

void
tes_cache_writer_add_tile_memory (TesCacheWriter *self,
                                  gint64          tile_id,
                                  const char     *category,
                                  gint64          bytes)
{
  sqlite3_stmt *s;
  guint32 cat;

  g_return_if_fail (TES_IS_CACHE_WRITER (self));
  g_return_if_fail (category != NULL);

  if (tes_cache_writer_failed (self))
    return;

  cat = tes_cache_writer_intern (self, category);
  s = tes_cache_writer_stmt (self, TES_CACHE_WRITER_STMT_TILE_MEMORY);
  sqlite3_bind_int64 (s, 1, tile_id);
  sqlite3_bind_int64 (s, 2, cat);
  sqlite3_bind_int64 (s, 3, bytes);
  tes_cache_writer_step_done (self, s, "Storing tile memory");
}

/* One bin of a tile memory histogram as a tool printed it: ipu -1 for
 * one over every IPU, bounds in bytes (lower inclusive, upper exclusive),
 * histogram numbering the histograms of one source in print order. */
void
tes_cache_writer_add_tile_histogram_bin (TesCacheWriter *self,
                                         gint64          source_id,
                                         guint           histogram,
                                         gint            ipu,
                                         gint64          lower,
                                         gint64          upper,
                                         gint64          tiles)
{
  sqlite3_stmt *s = NULL;

  g_return_if_fail (TES_IS_CACHE_WRITER (self));
  g_return_if_fail (histogram > 0);
  g_return_if_fail (lower <= upper);

  if (tes_cache_writer_failed (self))
    return;

  /* a few rows per report: not worth a statement kept prepared */
  if (sqlite3_prepare_v2 (self->db,
                          "INSERT INTO tile_histogram (source_id, histogram, ipu, lower, upper, tiles) "
                          "VALUES (?, ?, ?, ?, ?, ?)",
                          -1, &s, NULL) != SQLITE_OK)
    {
      tes_cache_writer_fail (self, "Storing a tile histogram bin");
      return;
    }

  tes_cache_writer_bind_id_or_null (s, 1, source_id);
  sqlite3_bind_int (s, 2, (int)histogram);
  if (ipu >= 0)
    sqlite3_bind_int (s, 3, ipu);
  sqlite3_bind_int64 (s, 4, lower);
  sqlite3_bind_int64 (s, 5, upper);
  sqlite3_bind_int64 (s, 6, tiles);
  tes_cache_writer_step_done (self, s, "Storing a tile histogram bin");
  sqlite3_finalize (s);
}

void
tes_cache_writer_add_bsp_step (TesCacheWriter *self,
                               gint64          run_id,
                               gint64          step,
                               gint64          clock_id,
                               gint64          start,
                               gint64          dur,
                               const char     *name,
                               guint           n_tiles,
                               const guint32  *tile_cycles,
                               const guint8   *tile_states)
{
  sqlite3_stmt *s;
  guint32 name_id;

  g_return_if_fail (TES_IS_CACHE_WRITER (self));
  g_return_if_fail (n_tiles == 0 || (tile_cycles != NULL && tile_states != NULL));

  if (tes_cache_writer_failed (self))
    return;

  name_id = tes_cache_writer_intern (self, name ? name : "");
  s = tes_cache_writer_stmt (self, TES_CACHE_WRITER_STMT_BSP_STEP);
  tes_cache_writer_bind_id_or_null (s, 1, run_id);
  sqlite3_bind_int64 (s, 2, step);
  tes_cache_writer_bind_id_or_null (s, 3, clock_id);
  start = tes_cache_writer_clamp_time (start);
  sqlite3_bind_int64 (s, 4, start);
  sqlite3_bind_int64 (s, 5, tes_cache_writer_clamp_dur (start, dur));
  sqlite3_bind_int64 (s, 6, name_id);
  sqlite3_bind_int (s, 7, (int)n_tiles);
  sqlite3_bind_blob (s, 8, tile_cycles, (int)(n_tiles * sizeof (guint32)), SQLITE_TRANSIENT);
  sqlite3_bind_blob (s, 9, tile_states, (int)n_tiles, SQLITE_TRANSIENT);
  tes_cache_writer_step_done (self, s, "Storing a BSP step");
}

void
tes_cache_writer_set_info (TesCacheWriter *self,
                           gint64          source_id,
                           const char     *key,
                           const char     *value)
{
  sqlite3_stmt *s;

  g_return_if_fail (TES_IS_CACHE_WRITER (self));
  g_return_if_fail (key != NULL);
  g_return_if_fail (value != NULL);

  if (tes_cache_writer_failed (self))
    return;

  s = tes_cache_writer_stmt (self, TES_CACHE_WRITER_STMT_INFO);
  tes_cache_writer_bind_id_or_null (s, 1, source_id);
  sqlite3_bind_text (s, 2, key, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (s, 3, value, -1, SQLITE_TRANSIENT);
  tes_cache_writer_step_done (self, s, "Storing report info");
}

/* A problem the importer recovered from, kept as report info
 * "warning.N", numbered across all the files of the report. */
void
tes_cache_writer_add_warning (TesCacheWriter *self,
                              gint64          source_id,
                              const char     *text)
{
  g_autofree char *key = NULL;

  g_return_if_fail (TES_IS_CACHE_WRITER (self));
  g_return_if_fail (text != NULL);

  key = g_strdup_printf ("warning.%u", ++self->n_warnings);
  tes_cache_writer_set_info (self, source_id, key, text);
}

/* For a commit hook that places several files on one time base after
 * all of them were read (the ranks of one job): the clock's offset_ns. */
void
tes_cache_writer_set_clock_offset (TesCacheWriter *self,
                                   gint64          clock_id,
                                   gint64          offset_ns)
{
  sqlite3_stmt *s = NULL;

  g_return_if_fail (TES_IS_CACHE_WRITER (self));

  if (tes_cache_writer_failed (self))
    return;

  if (sqlite3_prepare_v2 (self->db, "UPDATE clocks SET offset_ns = ? WHERE id = ?", -1, &s, NULL) != SQLITE_OK)
    {
      tes_cache_writer_fail (self, "Storing a clock");
      return;
    }
  sqlite3_bind_int64 (s, 1, offset_ns);
  sqlite3_bind_int64 (s, 2, clock_id);
  tes_cache_writer_step_done (self, s, "Storing a clock");
  sqlite3_finalize (s);
}

/* A group track named once every file of the report was read. */
void
tes_cache_writer_rename_track (TesCacheWriter *self,
                               gint64          track_id,
                               const char     *name,
                               gint64          sort_index)
{
  sqlite3_stmt *s = NULL;

  g_return_if_fail (TES_IS_CACHE_WRITER (self));
  g_return_if_fail (name != NULL);

  if (tes_cache_writer_failed (self))
    return;

  if (sqlite3_prepare_v2 (self->db, "UPDATE tracks SET name = ?, sort_index = ? WHERE id = ?", -1, &s, NULL) != SQLITE_OK)
    {
      tes_cache_writer_fail (self, "Storing a track");
      return;
    }
  sqlite3_bind_text (s, 1, name, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64 (s, 2, sort_index);
  sqlite3_bind_int64 (s, 3, track_id);
  tes_cache_writer_step_done (self, s, "Storing a track");
  sqlite3_finalize (s);
}

/* Puts @prefix before the names of the runs on @clock_id ("Rank 1 "). */
void
tes_cache_writer_prefix_runs (TesCacheWriter *self,
                              gint64          clock_id,
                              const char     *prefix)
{
  sqlite3_stmt *s = NULL;

  g_return_if_fail (TES_IS_CACHE_WRITER (self));
  g_return_if_fail (prefix != NULL);

  if (tes_cache_writer_failed (self))
    return;

  if (sqlite3_prepare_v2 (self->db, "UPDATE runs SET name = ? || name WHERE clock_id = ?", -1, &s, NULL) != SQLITE_OK)
    {
      tes_cache_writer_fail (self, "Storing a run");
      return;
    }
  sqlite3_bind_text (s, 1, prefix, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64 (s, 2, clock_id);
  tes_cache_writer_step_done (self, s, "Storing a run");
  sqlite3_finalize (s);
}
