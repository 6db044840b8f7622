/* tes-report.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-report"

#include "config.h"

#include "tes-cache-private.h"
#include "tes-report-private.h"

#include <glib/gstdio.h>
#include <sys/stat.h>

enum {
  PROP_0,
  PROP_PATH,
  PROP_CACHE_PATH,
  PROP_CACHE_REUSED,
  N_PROPS
};

G_DEFINE_QUARK (tes-report-error-quark, tes_report_error)
G_DEFINE_FINAL_TYPE (TesReport, tes_report, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static void
clock_clear (gpointer data)
{
  TesClock *clock = data;

  g_clear_pointer (&clock->name, g_free);
}

static void
source_clear (gpointer data)
{
  TesSourceInfo *source = data;

  g_clear_pointer (&source->path, g_free);
  g_clear_pointer (&source->fingerprint, g_free);
  g_clear_pointer (&source->importer, g_free);
  g_clear_pointer (&source->format, g_free);
}

static void
track_clear (gpointer data)
{
  TesTrack *track = data;

  g_clear_pointer (&track->name, g_free);
}

static void
tes_report_finalize (GObject *object)
{
  TesReport *self = (TesReport *)object;
  sqlite3 *db;

  if (self->pool != NULL)
    {
      while ((db = g_async_queue_try_pop (self->pool)))
        sqlite3_close (db);
      g_clear_pointer (&self->pool, g_async_queue_unref);
    }

  g_clear_pointer (&self->check, tes_cache_check_free);
  if (self->blocks != NULL)
    for (guint i = 0; i < TES_REPORT_BLOCK_SLOTS; i++)
      g_clear_pointer (&self->blocks[i].records, g_bytes_unref);
  g_clear_pointer (&self->blocks, g_free);
  g_mutex_clear (&self->blocks_lock);
  g_clear_pointer (&self->lods, g_hash_table_unref);
  g_clear_pointer (&self->chunk_rows, g_hash_table_unref);
  g_mutex_clear (&self->lods_lock);
  g_clear_pointer (&self->sources, g_array_unref);
  g_clear_pointer (&self->clocks, g_array_unref);
  g_clear_pointer (&self->tracks, g_array_unref);
  g_clear_pointer (&self->strings, g_ptr_array_unref);
  g_clear_pointer (&self->paths, g_strfreev);
  g_clear_pointer (&self->cache_path, g_free);
  g_clear_pointer (&self->importer_name, g_free);
  g_clear_pointer (&self->format, g_free);

  G_OBJECT_CLASS (tes_report_parent_class)->finalize (object);
}

static void
tes_report_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  TesReport *self = TES_REPORT (object);

  switch (prop_id)
    {
    case PROP_PATH:
      g_value_set_string (value, tes_report_get_path (self));
      break;

    case PROP_CACHE_PATH:
      g_value_set_string (value, self->cache_path);
      break;

    case PROP_CACHE_REUSED:
      g_value_set_boolean (value, self->cache_reused);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tes_report_class_init (TesReportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tes_report_finalize;
  object_class->get_property = tes_report_get_property;

  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_CACHE_PATH] =
    g_param_spec_string ("cache-path", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_CACHE_REUSED] =
    g_param_spec_boolean ("cache-reused", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tes_report_init (TesReport *self)
{
  self->pool = g_async_queue_new ();
  self->sources = g_array_new (FALSE, TRUE, sizeof (TesSourceInfo));
  g_array_set_clear_func (self->sources, source_clear);
  self->clocks = g_array_new (FALSE, TRUE, sizeof (TesClock));
  g_array_set_clear_func (self->clocks, clock_clear);
  self->tracks = g_array_new (FALSE, TRUE, sizeof (TesTrack));
  g_array_set_clear_func (self->tracks, track_clear);
  self->strings = g_ptr_array_new_with_free_func (g_free);
  g_mutex_init (&self->blocks_lock);
  self->blocks = g_new0 (TesReportBlock, TES_REPORT_BLOCK_SLOTS);
  g_mutex_init (&self->lods_lock);
  self->chunk_rows = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify)g_array_unref);
}

static gboolean
open_reader (const char  *cache_path,
             sqlite3    **db,
             GError     **error)
{
  if (!tes_cache_open_db (cache_path, SQLITE_OPEN_READONLY, db, error))
    return FALSE;

  /* chunk reads come straight from the page cache, not through copies */
  sqlite3_exec (*db, "PRAGMA mmap_size = 1073741824", NULL, NULL, NULL);
  return TRUE;
}

void
tes_report_set_query_delay_for_testing (TesReport *self,
                                        guint      ms)
{
  self->main_thread = g_thread_self ();
  g_atomic_int_set (&self->main_thread_queries, 0);
  self->query_delay_ms = ms;
}

guint
tes_report_get_main_thread_queries_for_testing (TesReport *self)
{
  return (guint)g_atomic_int_get (&self->main_thread_queries);
}

sqlite3 *
tes_report_borrow_db (TesReport  *self,
                      GError    **error)
{
  sqlite3 *db = g_async_queue_try_pop (self->pool);

  if (G_UNLIKELY (self->query_delay_ms > 0))
    {
      if (g_thread_self () == self->main_thread)
        g_atomic_int_inc (&self->main_thread_queries);
      g_usleep (self->query_delay_ms * 1000);
    }

  if (db == NULL && !open_reader (self->cache_path, &db, error))
    return NULL;

  return db;
}

void
tes_report_return_db (TesReport *self,
                      sqlite3   *db)
{
  if (db != NULL)
    g_async_queue_push (self->pool, db);
}

gboolean
tes_report_prepare (sqlite3       *db,
                    const char    *sql,
                    sqlite3_stmt **stmt,
                    GError       **error)
{
  if (sqlite3_prepare_v2 (db, sql, -1, stmt, NULL) != SQLITE_OK)
    {
      tes_cache_set_error (error, db, "Reading the cache");
      return FALSE;
    }

  return TRUE;
}

char *
tes_report_column_dup (sqlite3_stmt *stmt,
                       int           col)
{
  return g_strdup ((const char *)sqlite3_column_text (stmt, col));
}

static gint64
meta_int (sqlite3    *db,
          const char *key)
{
  sqlite3_stmt *stmt = NULL;
  gint64 value = 0;

  if (sqlite3_prepare_v2 (db, "SELECT value FROM meta WHERE key = ?", -1, &stmt, NULL) == SQLITE_OK)
    {
      sqlite3_bind_text (stmt, 1, key, -1, SQLITE_STATIC);
      if (sqlite3_step (stmt) == SQLITE_ROW)
        value = sqlite3_column_int64 (stmt, 0);
    }
  sqlite3_finalize (stmt);

  return value;
}

gboolean
tes_report_set_damaged (GError     **error,
                        TesReport   *self,
                        const char  *format,
                        ...)
{
  va_list args;

  va_start (args, format);
  tes_cache_set_damaged_valist (error, self->cache_path, format, args);
  va_end (args);
  return FALSE;
}

static gboolean
read_source (TesReport     *self,
             sqlite3_stmt  *stmt,
             gpointer       out,
             GError       **error)
{
  TesSourceInfo source = {
    .path = tes_report_column_dup (stmt, 0),
    .size = sqlite3_column_int64 (stmt, 1),
    .fingerprint = tes_report_column_dup (stmt, 2),
    .importer = tes_report_column_dup (stmt, 3),
    .importer_version = (guint)sqlite3_column_int (stmt, 4),
    .format = tes_report_column_dup (stmt, 5),
    .import_us = sqlite3_column_int64 (stmt, 6),
  };
  GStatBuf st;

  /* a shared cache may travel without its sources */
  source.present = source.path != NULL && g_stat (source.path, &st) == 0 &&
                   S_ISREG (st.st_mode) && st.st_size == source.size;
  g_array_append_val (self->sources, source);

  return TRUE;
}

/* Queries index clocks, tracks and strings by id and divide by a clock's
 * rate: ids must run 1, 2, 3… in order and rates be positive. */
static gboolean
read_clock (TesReport     *self,
            sqlite3_stmt  *stmt,
            gpointer       out,
            GError       **error)
{
  int unit = sqlite3_column_int (stmt, 2);
  TesClock clock = {
    .id = sqlite3_column_int64 (stmt, 0),
    .name = tes_report_column_dup (stmt, 1),
    .unit = (TesTimeUnit)unit,
    .ticks_per_second = sqlite3_column_int64 (stmt, 3),
    .offset_ns = sqlite3_column_int64 (stmt, 4),
  };

  /* appended first, so that the array frees its name either way */
  g_array_append_val (self->clocks, clock);
  if (clock.id != (gint64)self->clocks->len ||
      unit < TES_TIME_UNIT_NS || unit > TES_TIME_UNIT_CYCLES ||
      clock.ticks_per_second <= 0)
    return tes_report_set_damaged (error, self, "clock %u", self->clocks->len);

  return TRUE;
}

static gboolean
read_track (TesReport     *self,
            sqlite3_stmt  *stmt,
            gpointer       out,
            GError       **error)
{
  int kind = sqlite3_column_int (stmt, 3);
  int max_depth = sqlite3_column_int (stmt, 7);
  TesTrack track = {
    .id = sqlite3_column_int64 (stmt, 0),
    .parent_id = sqlite3_column_int64 (stmt, 1),
    .clock_id = sqlite3_column_int64 (stmt, 2),
    .kind = (TesTrackKind)kind,
    .name = tes_report_column_dup (stmt, 4),
    .sort_index = sqlite3_column_int64 (stmt, 5),
    .n_slices = sqlite3_column_int64 (stmt, 6),
    .max_depth = (guint)CLAMP (max_depth, 0, G_MAXUINT16),
    .has_extent = sqlite3_column_type (stmt, 8) != SQLITE_NULL,
    .t_min = sqlite3_column_int64 (stmt, 8),
    .t_max = sqlite3_column_int64 (stmt, 9),
    .ipu = sqlite3_column_int (stmt, 10),
    .tile = sqlite3_column_int (stmt, 11),
  };

  g_array_append_val (self->tracks, track);
  /* a parent comes before its children; depths fit the records' 16 bits */
  if (track.id != (gint64)self->tracks->len ||
      track.parent_id < 0 || track.parent_id >= track.id ||
      track.clock_id < 0 || track.clock_id > (gint64)self->clocks->len ||
      kind < TES_TRACK_DEVICE || kind > TES_TRACK_COUNTER ||
      max_depth < 0 || max_depth > G_MAXUINT16 || track.n_slices < 0 ||
      track.ipu < -1 || track.ipu >= TES_MAX_IPUS || track.tile < -1 ||
      (track.has_extent && (track.t_min < -TES_TIME_LIMIT || track.t_min > track.t_max ||
                            track.t_max > TES_TIME_LIMIT)))
    return tes_report_set_damaged (error, self, "track %u", self->tracks->len);

  if (track.kind == TES_TRACK_COUNTER)
    self->counts.n_counter_tracks++;

  return TRUE;
}

static gboolean
read_string (TesReport     *self,
             sqlite3_stmt  *stmt,
             gpointer       out,
             GError       **error)
{
  /* id 0 is no string */
  if (sqlite3_column_int64 (stmt, 0) != (gint64)self->strings->len)
    return tes_report_set_damaged (error, self, "string %u", self->strings->len);

  g_ptr_array_add (self->strings, tes_report_column_dup (stmt, 1));
  return TRUE;
}

static gboolean
load_tables (TesReport  *self,
             GError    **error)
{
  sqlite3 *db;

  g_ptr_array_add (self->strings, NULL);
  if (!tes_report_read_rows (self,
                             "SELECT path, size, fingerprint, importer, importer_version, format, import_us "
                             "FROM sources ORDER BY id",
                             0, read_source, NULL, error) ||
      !tes_report_read_rows (self,
                             "SELECT id, name, unit, ticks_per_second, offset_ns FROM clocks ORDER BY id",
                             0, read_clock, NULL, error) ||
      !tes_report_read_rows (self,
                             "SELECT id, parent_id, clock_id, kind, name, sort_index, n_slices, max_depth, "
                             "t_min, t_max, coalesce (ipu, -1), coalesce (tile, -1) FROM tracks ORDER BY id",
                             0, read_track, NULL, error) ||
      !tes_report_read_rows (self, "SELECT id, value FROM strings ORDER BY id",
                             0, read_string, NULL, error))
    return FALSE;

  /* The first source names the report. */
  if (self->sources->len > 0)
    {
      const TesSourceInfo *first = &g_array_index (self->sources, TesSourceInfo, 0);

      self->importer_name = g_strdup (first->importer);
      self->importer_version = first->importer_version;
      self->format = g_strdup (first->format);
    }

  if (!(db = tes_report_borrow_db (self, error)))
    return FALSE;

  self->counts.n_sources = meta_int (db, "n_sources");
  self->counts.n_clocks = self->clocks->len;
  self->counts.n_tracks = self->tracks->len;
  self->counts.n_slices = meta_int (db, "n_slices");
  self->counts.n_instants = meta_int (db, "n_instants");
  self->counts.n_counter_values = meta_int (db, "n_counter_values");
  self->counts.n_flows = meta_int (db, "n_flows");
  self->counts.n_runs = meta_int (db, "n_runs");
  /* the operator rows the whole report's Summary reads: a source's rows
   * without a run where it has them (its per-step rows count the same
   * time again), else every row of its runs; the writer counts them */
  self->counts.n_operators = meta_int (db, "n_whole_operators");
  self->counts.n_tiles = meta_int (db, "n_tiles");
  self->counts.n_bsp_steps = meta_int (db, "n_bsp_steps");
  self->counts.n_info = meta_int (db, "n_info");
  tes_report_return_db (self, db);

  {
    gint64 n_slices = 0;

    for (guint i = 0; i < self->tracks->len; i++)
      n_slices += g_array_index (self->tracks, TesTrack, i).n_slices;
    if (n_slices != self->counts.n_slices)
      return tes_report_set_damaged (error, self, "its tracks hold %" G_GINT64_FORMAT " slices, its chunks %"
                                     G_GINT64_FORMAT, n_slices, self->counts.n_slices);
  }

  return TRUE;
}

/* Damage found after the open (in what is verified on first read): a cache
 * written from sources that are here goes, so that the next open imports
 * them again; a cache opened on its own is all there is and stays. Takes
 * @damage, the check's own error, so that this happens whether or not the
 * caller asked for the error. */
static gboolean
damaged_after_open (TesReport  *self,
                    GError     *damage,
                    GError    **error)
{
  gboolean from_sources = self->paths != NULL && g_strcmp0 (self->paths[0], self->cache_path) != 0;

  if (from_sources && damage != NULL && g_unlink (self->cache_path) == 0)
    {
      g_message ("Removed %s, to be rebuilt on the next open: %s", self->cache_path, damage->message);
      g_prefix_error (&damage, "Reopen the report to import it again. ");
    }
  if (damage != NULL)
    g_propagate_error (error, damage);

  return FALSE;
}

gboolean
tes_report_check_reads (TesReport   *self,
                        sqlite3     *db,
                        const char  *sql,
                        GError     **error)
{
  GError *damage = NULL;

  return tes_cache_check_reads (self->check, db, sql, &damage) || damaged_after_open (self, damage, error);
}

/* tes_report_prepare(), once the tables @sql reads are verified. */
gboolean
tes_report_prepare_checked (TesReport     *self,
                            sqlite3       *db,
                            const char    *sql,
                            sqlite3_stmt **stmt,
                            GError       **error)
{
  return tes_report_check_reads (self, db, sql, error) && tes_report_prepare (db, sql, stmt, error);
}

gboolean
tes_report_check_lod_data (TesReport   *self,
                           gint64       track_id,
                           int          level,
                           GBytes      *data,
                           gint64       checksum,
                           GError     **error)
{
  GError *damage = NULL;

  return tes_cache_check_lod_data (self->check, track_id, level, g_bytes_get_data (data, NULL),
                                   g_bytes_get_size (data), checksum, &damage) ||
         damaged_after_open (self, damage, error);
}

/* A chunk's row, as a query reads it (at most TES_CACHE_CHUNK_SLICES
 * records, data at least as long as its index, and no negative longest
 * duration),
 * and on its first read its bytes against its checksum. */
gboolean
tes_report_check_chunk (TesReport  *self,
                        sqlite3    *db,
                        gint64      chunk_id,
                        gint64      track_id,
                        gint64      n,
                        gint64      data_len,
                        gint64      max_dur,
                        GError    **error)
{
  GError *damage = NULL;

  if (n < 1 || n > TES_CACHE_CHUNK_SLICES || data_len < (gint64)tes_cache_chunk_data_index_len ((guint)n) ||
      max_dur < 0)
    return tes_report_set_damaged (error, self, "a slice chunk of track %" G_GINT64_FORMAT, track_id);

  return tes_cache_check_chunk (self->check, db, chunk_id, &damage) || damaged_after_open (self, damage, error);
}

/* A chunk whose columns do not decode (@why says where and how), found
 * while reading it: damaged as a failed check is. */
gboolean
tes_report_chunk_damaged (TesReport   *self,
                          gint64       chunk_id,
                          gint64       track_id,
                          const char  *why,
                          GError     **error)
{
  GError *damage = NULL;

  /* into an error of its own: the damaged cache is handled even when the
   * caller passes no error */
  tes_report_set_damaged (&damage, self, "slice chunk %" G_GINT64_FORMAT " of track %" G_GINT64_FORMAT ": %s",
                          chunk_id, track_id, why);
  return damaged_after_open (self, damage, error);
}

TesReport *
tes_report_open_cache (const char  *cache_path,
                       GError     **error)
{
  g_autoptr(TesReport) self = NULL;
  TesCacheCheck *check = NULL;
  sqlite3 *db = NULL;

  g_return_val_if_fail (cache_path != NULL, NULL);

  if (!open_reader (cache_path, &db, error))
    return NULL;

  if (!tes_cache_check_db (db, cache_path, error))
    {
      sqlite3_close (db);
      return NULL;
    }

  /* every checksum is there and what is small matches before one number
   * is read; the rest on first read */
  if (!(check = tes_cache_check_new (db, cache_path, FALSE, error)))
    {
      sqlite3_close (db);
      return NULL;
    }

  self = g_object_new (TES_TYPE_REPORT, NULL);
  self->cache_path = g_strdup (cache_path);
  self->cache_reused = TRUE;
  self->check = check;
  /* opened as it is, the cache is the file the report was opened from */
  self->paths = g_new0 (char *, 2);
  self->paths[0] = g_strdup (cache_path);
  /* the pool's first connection */
  tes_report_return_db (self, db);

  if (!load_tables (self, error))
    return NULL;

  return g_steal_pointer (&self);
}

/* The loader's half of an open: where the sources are now (a reused cache
 * may have been written for the same bytes elsewhere: a copy, a moved
 * folder) and whether this open wrote the cache. */
void
tes_report_set_opened_from (TesReport              *self,
                            const char * const     *paths,
                            TesSourceStamp * const *stamps,
                            guint                   n_files,
                            gboolean                cache_reused)
{
  g_return_if_fail (TES_IS_REPORT (self));

  for (guint i = 0; i < self->sources->len; i++)
    {
      TesSourceInfo *source = &g_array_index (self->sources, TesSourceInfo, i);

      for (guint j = 0; j < n_files; j++)
        if (stamps[j]->size == source->size &&
            g_strcmp0 (stamps[j]->fingerprint, source->fingerprint) == 0)
          {
            g_free (source->path);
            source->path = g_strdup (stamps[j]->path);
            source->present = TRUE;
            break;
          }
    }

  g_strfreev (self->paths);
  self->paths = g_new0 (char *, n_files + 1);
  for (guint i = 0; i < n_files; i++)
    self->paths[i] = g_strdup (paths[i]);
  self->cache_reused = cache_reused;
}

/* The first of the files the report was opened from. */
const char *
tes_report_get_path (TesReport *self)
{
  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  return self->paths ? self->paths[0] : NULL;
}

const char * const *
tes_report_get_paths (TesReport *self)
{
  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  return (const char * const *)self->paths;
}

const char *
tes_report_get_cache_path (TesReport *self)
{
  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  return self->cache_path;
}

gboolean
tes_report_get_cache_reused (TesReport *self)
{
  g_return_val_if_fail (TES_IS_REPORT (self), FALSE);

  return self->cache_reused;
}

const char *
tes_report_get_importer_name (TesReport *self)
{
  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  return self->importer_name;
}

guint
tes_report_get_importer_version (TesReport *self)
{
  g_return_val_if_fail (TES_IS_REPORT (self), 0);

  return self->importer_version;
}

const char *
tes_report_get_format (TesReport *self)
{
  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  return self->format;
}

void
tes_report_get_counts (TesReport       *self,
                       TesReportCounts *counts)
{
  g_return_if_fail (TES_IS_REPORT (self));
  g_return_if_fail (counts != NULL);

  *counts = self->counts;
}

const char *
tes_report_get_string (TesReport *self,
                       guint32    id)
{
  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  if (id == 0 || id >= self->strings->len)
    return "";

  return g_ptr_array_index (self->strings, id);
}

/* Strings have ids 1 to n - 1. */
guint
tes_report_get_n_strings (TesReport *self)
{
  g_return_val_if_fail (TES_IS_REPORT (self), 0);

  return self->strings->len;
}

guint
tes_report_get_n_sources (TesReport *self)
{
  g_return_val_if_fail (TES_IS_REPORT (self), 0);

  return self->sources->len;
}

const TesSourceInfo *
tes_report_get_source (TesReport *self,
                       guint      index)
{
  g_return_val_if_fail (TES_IS_REPORT (self), NULL);
  g_return_val_if_fail (index < self->sources->len, NULL);

  return &g_array_index (self->sources, TesSourceInfo, index);
}

guint
tes_report_get_n_clocks (TesReport *self)
{
  g_return_val_if_fail (TES_IS_REPORT (self), 0);

  return self->clocks->len;
}

const TesClock *
tes_report_get_clock (TesReport *self,
                      gint64     clock_id)
{
  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  if (clock_id < 1 || clock_id > (gint64)self->clocks->len)
    return NULL;

  return &g_array_index (self->clocks, TesClock, clock_id - 1);
}

guint
tes_report_get_n_tracks (TesReport *self)
{
  g_return_val_if_fail (TES_IS_REPORT (self), 0);

  return self->tracks->len;
}

const TesTrack *
tes_report_get_track (TesReport *self,
                      gint64     track_id)
{
  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  if (track_id < 1 || track_id > (gint64)self->tracks->len)
    return NULL;

  return &g_array_index (self->tracks, TesTrack, track_id - 1);
}

/**
 * tes_report_get_subtree_tracks:
 * @root_id: a track
 *
 * The tracks with slices at or below @root_id (its lanes, their lanes…),
 * counter tracks left out: what "a device's time" adds up.
 *
 * Returns: (transfer full): gint64 track ids, in id order
 */
GArray *
tes_report_get_subtree_tracks (TesReport *self,
                               gint64     root_id)
{
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (gint64));

  g_return_val_if_fail (TES_IS_REPORT (self), ids);

  for (gint64 id = 1; id <= (gint64)self->tracks->len; id++)
    {
      const TesTrack *track = &g_array_index (self->tracks, TesTrack, id - 1);
      gint64 up = id;

      while (up != 0 && up != root_id)
        up = g_array_index (self->tracks, TesTrack, up - 1).parent_id;
      if (up == root_id && track->n_slices > 0 && track->kind != TES_TRACK_COUNTER)
        g_array_append_val (ids, id);
    }

  return ids;
}

gboolean
tes_report_get_span (TesReport *self,
                     gint64     clock_id,
                     gint64    *t_min,
                     gint64    *t_max)
{
  gboolean found = FALSE;
  gint64 lo = G_MAXINT64;
  gint64 hi = G_MININT64;

  g_return_val_if_fail (TES_IS_REPORT (self), FALSE);

  for (guint i = 0; i < self->tracks->len; i++)
    {
      const TesTrack *track = &g_array_index (self->tracks, TesTrack, i);

      /* A clock's span is that of its own tracks; clock 0, the common
       * nanosecond base, spans them all. */
      if (!track->has_extent || track->clock_id == 0 ||
          (clock_id != 0 && track->clock_id != clock_id))
        continue;

      lo = MIN (lo, tes_report_convert_time (self, track->clock_id, clock_id, track->t_min));
      hi = MAX (hi, tes_report_convert_time (self, track->clock_id, clock_id, track->t_max));
      found = TRUE;
    }

  if (t_min)
    *t_min = found ? lo : 0;
  if (t_max)
    *t_max = found ? hi : 0;

  return found;
}

#define NS_PER_SECOND G_GINT64_CONSTANT (1000000000)
#define INT128_MAX ((__int128)(((unsigned __int128)1 << 127) - 1))

static __int128
floor_div128 (__int128 a,
              __int128 b)
{
  __int128 q = a / b;

  if ((a % b != 0) && ((a < 0) != (b < 0)))
    q--;

  return q;
}

/* A fast clock's ticks of a long span may not fit: times stay within
 * ±TES_TIME_LIMIT (tes-model-types.h), never wrapped round and never
 * mistaken for the open-window sentinels. */
static gint64
clamp_time (__int128 v)
{
  return (gint64)CLAMP (v, -TES_TIME_LIMIT, TES_TIME_LIMIT);
}

/* Exact integer conversion through nanoseconds on the common time base
 * (each clock's offset_ns places it there), rounding toward -inf. The
 * open-window sentinels G_MININT64/G_MAXINT64 pass through unchanged. */
gint64
tes_report_convert_time (TesReport *self,
                         gint64     from_clock,
                         gint64     to_clock,
                         gint64     t)
{
  const TesClock *from;
  const TesClock *to;
  __int128 num;

  g_return_val_if_fail (TES_IS_REPORT (self), t);

  if (from_clock == to_clock || t == G_MININT64 || t == G_MAXINT64)
    return t;

  from = tes_report_get_clock (self, from_clock);
  to = tes_report_get_clock (self, to_clock);

  /* 0 names the nanosecond base itself. Below 2^95 from here on: */
  if (from != NULL)
    num = floor_div128 ((__int128)t * NS_PER_SECOND, from->ticks_per_second) + from->offset_ns;
  else
    num = t;

  if (to == NULL)
    return clamp_time (num);

  /* the product may not fit in 128 bits; then it is far beyond the limit */
  num -= to->offset_ns;
  if (num > INT128_MAX / to->ticks_per_second || num < -(INT128_MAX / to->ticks_per_second))
    return num > 0 ? TES_TIME_LIMIT : -TES_TIME_LIMIT;

  return clamp_time (floor_div128 (num * to->ticks_per_second, NS_PER_SECOND));
}

gboolean
tes_report_read_rows (TesReport         *self,
                      const char        *sql,
                      gint64             param,
                      TesReportRowFunc   read_row,
                      gpointer           out,
                      GError           **error)
{
  return tes_report_read_rows_with (self, sql, &param, 1, read_row, out, error);
}

/* tes_report_read_rows() with @n_params parameters ?1…?N (those the
 * statement has). */
gboolean
tes_report_read_rows_with (TesReport         *self,
                           const char        *sql,
                           const gint64      *params,
                           guint              n_params,
                           TesReportRowFunc   read_row,
                           gpointer           out,
                           GError           **error)
{
  sqlite3_stmt *stmt = NULL;
  gboolean ok;
  sqlite3 *db;
  int rc = SQLITE_DONE;

  if (!(db = tes_report_borrow_db (self, error)))
    return FALSE;

  ok = tes_report_prepare_checked (self, db, sql, &stmt, error);
  for (guint i = 0; ok && i < n_params && (int)i < sqlite3_bind_parameter_count (stmt); i++)
    sqlite3_bind_int64 (stmt, i + 1, params[i]);
  while (ok && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
    ok = read_row (self, stmt, out, error);
  if (ok && rc != SQLITE_DONE)
    {
      tes_cache_set_error (error, db, "Reading the cache");
      ok = FALSE;
    }
  sqlite3_finalize (stmt);
  tes_report_return_db (self, db);

  return ok;
}
