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
#include <math.h>
#include <string.h>
#include <sys/stat.h>

/* A report is immutable once opened: tracks, clocks and strings are loaded
 * at open and only read afterwards, so any thread may query it. Each query
 * borrows a read-only SQLite connection from a pool (one connection is
 * never used by two threads at once). */
struct _TesReport
{
  GObject          parent_instance;

  char           **paths;         /* as given, in order */
  char            *cache_path;
  char            *importer_name;
  char            *format;
  guint            importer_version;
  gboolean         cache_reused;

  GAsyncQueue     *pool;          /* sqlite3* */
  GArray          *sources;       /* TesSourceInfo, in import order */
  GArray          *clocks;        /* TesClock, index = id - 1 */
  GArray          *tracks;        /* TesTrack, index = id - 1 */
  GPtrArray       *strings;       /* char*, index = id */
  TesReportCounts  counts;
};

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

static sqlite3 *
borrow_db (TesReport  *self,
           GError    **error)
{
  sqlite3 *db = g_async_queue_try_pop (self->pool);

  if (db == NULL && !open_reader (self->cache_path, &db, error))
    return NULL;

  return db;
}

static void
return_db (TesReport *self,
           sqlite3   *db)
{
  if (db != NULL)
    g_async_queue_push (self->pool, db);
}

static gboolean
prepare (sqlite3       *db,
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

static char *
column_dup (sqlite3_stmt *stmt,
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

static gboolean
load_tables (TesReport  *self,
             sqlite3    *db,
             GError    **error)
{
  sqlite3_stmt *stmt = NULL;

  if (!prepare (db,
                "SELECT path, size, fingerprint, importer, importer_version, format, import_us "
                "FROM sources ORDER BY id",
                &stmt, error))
    return FALSE;
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      TesSourceInfo source = {
        .path = column_dup (stmt, 0),
        .size = sqlite3_column_int64 (stmt, 1),
        .fingerprint = column_dup (stmt, 2),
        .importer = column_dup (stmt, 3),
        .importer_version = (guint)sqlite3_column_int (stmt, 4),
        .format = column_dup (stmt, 5),
        .import_us = sqlite3_column_int64 (stmt, 6),
      };
      GStatBuf st;

      /* a shared cache may travel without its sources */
      source.present = source.path != NULL && g_stat (source.path, &st) == 0 &&
                       S_ISREG (st.st_mode) && st.st_size == source.size;
      g_array_append_val (self->sources, source);
    }
  sqlite3_finalize (stmt);

  /* The first source names the report. */
  if (self->sources->len > 0)
    {
      const TesSourceInfo *first = &g_array_index (self->sources, TesSourceInfo, 0);

      self->importer_name = g_strdup (first->importer);
      self->importer_version = first->importer_version;
      self->format = g_strdup (first->format);
    }

  if (!prepare (db, "SELECT id, name, unit, ticks_per_second, offset_ns FROM clocks ORDER BY id", &stmt, error))
    return FALSE;
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      TesClock clock = {
        .id = sqlite3_column_int64 (stmt, 0),
        .name = column_dup (stmt, 1),
        .unit = sqlite3_column_int (stmt, 2),
        .ticks_per_second = sqlite3_column_int64 (stmt, 3),
        .offset_ns = sqlite3_column_int64 (stmt, 4),
      };
      g_array_append_val (self->clocks, clock);
    }
  sqlite3_finalize (stmt);

  if (!prepare (db,
                "SELECT id, parent_id, clock_id, kind, name, sort_index, n_slices, max_depth, t_min, t_max "
                "FROM tracks ORDER BY id",
                &stmt, error))
    return FALSE;
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      TesTrack track = {
        .id = sqlite3_column_int64 (stmt, 0),
        .parent_id = sqlite3_column_int64 (stmt, 1),
        .clock_id = sqlite3_column_int64 (stmt, 2),
        .kind = sqlite3_column_int (stmt, 3),
        .name = column_dup (stmt, 4),
        .sort_index = sqlite3_column_int64 (stmt, 5),
        .n_slices = sqlite3_column_int64 (stmt, 6),
        .max_depth = (guint)sqlite3_column_int (stmt, 7),
        .has_extent = sqlite3_column_type (stmt, 8) != SQLITE_NULL,
        .t_min = sqlite3_column_int64 (stmt, 8),
        .t_max = sqlite3_column_int64 (stmt, 9),
      };
      g_array_append_val (self->tracks, track);
      if (track.kind == TES_TRACK_COUNTER)
        self->counts.n_counter_tracks++;
    }
  sqlite3_finalize (stmt);

  g_ptr_array_add (self->strings, NULL);
  if (!prepare (db, "SELECT id, value FROM strings ORDER BY id", &stmt, error))
    return FALSE;
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      guint id = (guint)sqlite3_column_int64 (stmt, 0);

      if (id >= self->strings->len)
        g_ptr_array_set_size (self->strings, id + 1);
      g_ptr_array_index (self->strings, id) = column_dup (stmt, 1);
    }
  sqlite3_finalize (stmt);

  self->counts.n_sources = meta_int (db, "n_sources");
  self->counts.n_clocks = self->clocks->len;
  self->counts.n_tracks = self->tracks->len;
  self->counts.n_slices = meta_int (db, "n_slices");
  self->counts.n_instants = meta_int (db, "n_instants");
  self->counts.n_counter_values = meta_int (db, "n_counter_values");
  self->counts.n_flows = meta_int (db, "n_flows");
  self->counts.n_runs = meta_int (db, "n_runs");
  self->counts.n_operators = meta_int (db, "n_operators");
  self->counts.n_tiles = meta_int (db, "n_tiles");
  self->counts.n_bsp_steps = meta_int (db, "n_bsp_steps");
  self->counts.n_info = meta_int (db, "n_info");

  return TRUE;
}

TesReport *
tes_report_open_cache (const char  *cache_path,
                       GError     **error)
{
  g_autoptr(TesReport) self = NULL;
  sqlite3 *db = NULL;
  gboolean ok;

  g_return_val_if_fail (cache_path != NULL, NULL);

  if (!open_reader (cache_path, &db, error))
    return NULL;

  if (!tes_cache_check_db (db, cache_path, error))
    {
      sqlite3_close (db);
      return NULL;
    }

  self = g_object_new (TES_TYPE_REPORT, NULL);
  self->cache_path = g_strdup (cache_path);
  self->cache_reused = TRUE;
  /* opened as it is, the cache is the file the report was opened from */
  self->paths = g_new0 (char *, 2);
  self->paths[0] = g_strdup (cache_path);

  ok = load_tables (self, db, error);
  return_db (self, db);

  return ok ? g_steal_pointer (&self) : NULL;
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

static gint64
floor_div128 (__int128 a,
              __int128 b)
{
  __int128 q = a / b;

  if ((a % b != 0) && ((a < 0) != (b < 0)))
    q--;

  return (gint64)q;
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

  /* 0 names the nanosecond base itself. */
  num = (__int128)t * G_GINT64_CONSTANT (1000000000);
  if (from != NULL)
    num = (__int128)floor_div128 (num, from->ticks_per_second) + from->offset_ns;
  else
    num = t;

  if (to == NULL)
    return (gint64)num;

  return floor_div128 ((num - to->offset_ns) * to->ticks_per_second, G_GINT64_CONSTANT (1000000000));
}

/* Runs a query over one of the report's tables on a borrowed connection
 * and hands each row to read_row; ?1, if the query has it, is bound to
 * param. The shared skeleton of the table readers below. */
typedef gboolean (*RowFunc) (TesReport     *self,
                             sqlite3_stmt  *stmt,
                             gpointer       out,
                             GError       **error);

static gboolean
read_rows (TesReport   *self,
           const char  *sql,
           gint64       param,
           RowFunc      read_row,
           gpointer     out,
           GError     **error)
{
  sqlite3_stmt *stmt = NULL;
  gboolean ok;
  sqlite3 *db;
  int rc = SQLITE_DONE;

  if (!(db = borrow_db (self, error)))
    return FALSE;

  ok = prepare (db, sql, &stmt, error);
  if (ok && sqlite3_bind_parameter_count (stmt) > 0)
    sqlite3_bind_int64 (stmt, 1, param);
  while (ok && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
    ok = read_row (self, stmt, out, error);
  if (ok && rc != SQLITE_DONE)
    {
      tes_cache_set_error (error, db, "Reading the cache");
      ok = FALSE;
    }
  sqlite3_finalize (stmt);
  return_db (self, db);

  return ok;
}

static void
info_entry_free (gpointer data)
{
  TesInfoEntry *entry = data;

  g_free (entry->key);
  g_free (entry->value);
  g_free (entry);
}

static gboolean
read_info_row (TesReport     *self,
               sqlite3_stmt  *stmt,
               gpointer       out,
               GError       **error)
{
  TesInfoEntry *entry = g_new0 (TesInfoEntry, 1);

  entry->key = column_dup (stmt, 0);
  entry->value = column_dup (stmt, 1);
  g_ptr_array_add (out, entry);

  return TRUE;
}

/* Never NULL: a report whose info cannot be read shows none. */
GPtrArray *
tes_report_get_info (TesReport *self)
{
  g_autoptr(GPtrArray) entries = g_ptr_array_new_with_free_func (info_entry_free);

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  read_rows (self, "SELECT key, value FROM info ORDER BY rowid", 0, read_info_row, entries, NULL);

  return g_steal_pointer (&entries);
}

char *
tes_report_lookup_info (TesReport  *self,
                        const char *key)
{
  g_autoptr(GPtrArray) entries = NULL;

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  entries = tes_report_get_info (self);
  for (guint i = 0; i < entries->len; i++)
    {
      TesInfoEntry *entry = g_ptr_array_index (entries, i);

      if (g_strcmp0 (entry->key, key) == 0)
        return g_strdup (entry->value);
    }

  return NULL;
}

static gboolean
read_tile_row (TesReport     *self,
               sqlite3_stmt  *stmt,
               gpointer       out,
               GError       **error)
{
  TesTile tile = {
    .id = sqlite3_column_int64 (stmt, 0),
    .ipu = sqlite3_column_int (stmt, 1),
    .tile = sqlite3_column_int (stmt, 2),
    .memory_limit = sqlite3_column_int64 (stmt, 3),
    .track_id = sqlite3_column_int64 (stmt, 4),
    .total_bytes = sqlite3_column_int64 (stmt, 5),
  };

  g_array_append_val ((GArray *)out, tile);
  return TRUE;
}

/* Every tile, by IPU and tile number, with the bytes its memory rows add
 * up to (one query: the tile views draw all tiles at once). */
GArray *
tes_report_get_tiles (TesReport  *self,
                      GError    **error)
{
  g_autoptr(GArray) tiles = g_array_new (FALSE, TRUE, sizeof (TesTile));

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  if (!read_rows (self,
                  "SELECT t.id, t.ipu, t.tile, coalesce (t.memory_limit, 0), coalesce (t.track_id, 0), "
                  "       coalesce ((SELECT sum (bytes) FROM tile_memory m WHERE m.tile_id = t.id), 0) "
                  "FROM tiles t ORDER BY t.ipu, t.tile",
                  0, read_tile_row, tiles, error))
    return NULL;

  return g_steal_pointer (&tiles);
}

static void
run_clear (gpointer data)
{
  TesRun *run = data;

  g_clear_pointer (&run->name, g_free);
}

static gboolean
read_run_row (TesReport     *self,
              sqlite3_stmt  *stmt,
              gpointer       out,
              GError       **error)
{
  TesRun run = {
    .id = sqlite3_column_int64 (stmt, 0),
    .name = column_dup (stmt, 1),
    .clock_id = sqlite3_column_int64 (stmt, 2),
    .start = sqlite3_column_int64 (stmt, 3),
    .end = sqlite3_column_int64 (stmt, 4),
  };

  g_array_append_val ((GArray *)out, run);
  return TRUE;
}

GArray *
tes_report_get_runs (TesReport  *self,
                     GError    **error)
{
  g_autoptr(GArray) runs = g_array_new (FALSE, TRUE, sizeof (TesRun));

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  g_array_set_clear_func (runs, run_clear);

  if (!read_rows (self, "SELECT id, name, coalesce (clock_id, 0), start, end FROM runs ORDER BY id",
                  0, read_run_row, runs, error))
    return NULL;

  return g_steal_pointer (&runs);
}

static void
bsp_step_free (gpointer data)
{
  TesBspStep *step = data;

  g_free (step->tile_cycles);
  g_free (step->tile_states);
  g_free (step);
}

static gboolean
read_bsp_step_row (TesReport     *self,
                   sqlite3_stmt  *stmt,
                   gpointer       out,
                   GError       **error)
{
  TesBspStep *step = g_new0 (TesBspStep, 1);
  guint n = (guint)sqlite3_column_int (stmt, 6);

  step->run_id = sqlite3_column_int64 (stmt, 0);
  step->step = sqlite3_column_int64 (stmt, 1);
  step->clock_id = sqlite3_column_int64 (stmt, 2);
  step->start = sqlite3_column_int64 (stmt, 3);
  step->dur = sqlite3_column_int64 (stmt, 4);
  step->name = (guint32)sqlite3_column_int64 (stmt, 5);
  step->tile_cycles = g_new0 (guint32, MAX (n, 1));
  step->tile_states = g_new0 (guint8, MAX (n, 1));
  g_ptr_array_add (out, step);

  if ((gsize)sqlite3_column_bytes (stmt, 7) != n * sizeof (guint32) ||
      (gsize)sqlite3_column_bytes (stmt, 8) != n)
    {
      g_set_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_SCHEMA,
                   "Cache %s: BSP step %" G_GINT64_FORMAT " has a wrong size",
                   self->cache_path, step->step);
      return FALSE;
    }

  step->n_tiles = n;
  if (n > 0)
    {
      memcpy (step->tile_cycles, sqlite3_column_blob (stmt, 7), n * sizeof (guint32));
      memcpy (step->tile_states, sqlite3_column_blob (stmt, 8), n);
    }

  return TRUE;
}

/* The BSP steps of a run (run_id > 0) or of all runs, in step order: what
 * the BSP heatmap draws, tile by step. */
GPtrArray *
tes_report_get_bsp_steps (TesReport  *self,
                          gint64      run_id,
                          GError    **error)
{
  g_autoptr(GPtrArray) steps = g_ptr_array_new_with_free_func (bsp_step_free);

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  if (!read_rows (self,
                  "SELECT coalesce (run_id, 0), step, coalesce (clock_id, 0), start, dur, name, n_tiles, "
                  "       tile_cycles, tile_states FROM bsp_steps "
                  "WHERE ?1 <= 0 OR run_id = ?1 ORDER BY run_id, step",
                  run_id, read_bsp_step_row, steps, error))
    return NULL;

  return g_steal_pointer (&steps);
}

static gboolean
read_tile_memory_row (TesReport     *self,
                      sqlite3_stmt  *stmt,
                      gpointer       out,
                      GError       **error)
{
  TesTileMemory row = {
    .tile_id = sqlite3_column_int64 (stmt, 0),
    .category = (guint32)sqlite3_column_int64 (stmt, 1),
    .bytes = sqlite3_column_int64 (stmt, 2),
  };

  g_array_append_val ((GArray *)out, row);
  return TRUE;
}

/* Memory rows of one tile (tile_id > 0) or of all tiles, by tile then
 * category. */
GArray *
tes_report_get_tile_memory (TesReport  *self,
                            gint64      tile_id,
                            GError    **error)
{
  g_autoptr(GArray) rows = g_array_new (FALSE, TRUE, sizeof (TesTileMemory));

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  if (!read_rows (self,
                  "SELECT tile_id, category, bytes FROM tile_memory "
                  "WHERE ?1 <= 0 OR tile_id = ?1 ORDER BY tile_id, category",
                  tile_id, read_tile_memory_row, rows, error))
    return NULL;

  return g_steal_pointer (&rows);
}

/* Calls func for every stored slice of the track that overlaps
 * [t0, t1] (both inclusive, in the track's ticks), in start order. Only
 * the chunks whose extent meets the window are read. */
typedef gboolean (*SliceFunc) (const TesSliceRecord *rec,
                               guint32               index,
                               gpointer              user_data);

static gboolean
read_records (sqlite3_blob   *blob,
              guint           first,
              guint           count,
              TesSliceRecord *out)
{
  return sqlite3_blob_read (blob, out, (int)(count * sizeof (TesSliceRecord)),
                            (int)(first * sizeof (TesSliceRecord))) == SQLITE_OK;
}

/* The first record of the chunk whose start is >= t (or n), by binary
 * search reading one start time per probe. */
static gboolean
lower_bound (sqlite3_blob *blob,
             guint         n,
             gint64        t,
             guint        *index)
{
  guint lo = 0, hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      gint64 start;

      if (sqlite3_blob_read (blob, &start, sizeof start, (int)(mid * sizeof (TesSliceRecord))) != SQLITE_OK)
        return FALSE;
      if (start < t)
        lo = mid + 1;
      else
        hi = mid;
    }

  *index = lo;
  return TRUE;
}

/* Calls func for every stored slice of the track that overlaps [t0, t1]
 * (both inclusive, in the track's ticks), in start order. Only chunks whose
 * extent meets the window are opened, and of those only the records that
 * can overlap it are read: a slice overlapping t0 starts no earlier than
 * t0 minus the chunk's longest duration, and none after t1 can. */
static gboolean
foreach_slice_in_window (TesReport     *self,
                         sqlite3       *db,
                         gint64         track_id,
                         gint64         t0,
                         gint64         t1,
                         SliceFunc      func,
                         gpointer       user_data,
                         GCancellable  *cancellable,
                         GError       **error)
{
  g_autoptr(GArray) buffer = g_array_new (FALSE, FALSE, sizeof (TesSliceRecord));
  sqlite3_stmt *stmt = NULL;
  sqlite3_blob *blob = NULL;
  gboolean ok = TRUE;
  int rc;

  if (!prepare (db,
                "SELECT id, first_index, n, max_dur, length (data) FROM slice_chunks "
                "WHERE track_id = ? AND t_min <= ? AND t_max_end >= ? ORDER BY t_min",
                &stmt, error))
    return FALSE;

  sqlite3_bind_int64 (stmt, 1, track_id);
  sqlite3_bind_int64 (stmt, 2, t1);
  sqlite3_bind_int64 (stmt, 3, t0);

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 rowid = sqlite3_column_int64 (stmt, 0);
      guint32 first = (guint32)sqlite3_column_int64 (stmt, 1);
      guint n = (guint)sqlite3_column_int64 (stmt, 2);
      gint64 max_dur = sqlite3_column_int64 (stmt, 3);
      gint64 from_t = t0 < G_MININT64 + max_dur ? G_MININT64 : t0 - max_dur;
      guint lo = 0, hi = n;
      const TesSliceRecord *recs;

      if (sqlite3_column_int64 (stmt, 4) != (gint64)(n * sizeof (TesSliceRecord)))
        {
          g_set_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_SCHEMA,
                       "Cache %s: slice chunk of track %" G_GINT64_FORMAT " has a wrong size",
                       self->cache_path, track_id);
          ok = FALSE;
          break;
        }

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          ok = FALSE;
          break;
        }

      if (blob == NULL)
        rc = sqlite3_blob_open (db, "main", "slice_chunks", "data", rowid, 0, &blob);
      else
        rc = sqlite3_blob_reopen (blob, rowid);

      if (rc != SQLITE_OK ||
          (from_t != G_MININT64 && !lower_bound (blob, n, from_t, &lo)) ||
          (t1 != G_MAXINT64 && !lower_bound (blob, n, t1 + 1, &hi)))
        {
          tes_cache_set_error (error, db, "Reading slices");
          ok = FALSE;
          break;
        }

      if (hi <= lo)
        continue;

      g_array_set_size (buffer, hi - lo);
      recs = (const TesSliceRecord *)(gconstpointer)buffer->data;
      if (!read_records (blob, lo, hi - lo, (TesSliceRecord *)buffer->data))
        {
          tes_cache_set_error (error, db, "Reading slices");
          ok = FALSE;
          break;
        }

      for (guint i = 0; i < hi - lo; i++)
        {
          if (recs[i].start + recs[i].dur < t0)
            continue;
          if (!func (&recs[i], first + lo + i, user_data))
            goto out;
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
tes_report_get_slices (TesReport  *self,
                       gint64      track_id,
                       gint64      t0,
                       gint64      t1,
                       GError    **error)
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

  if (!(db = borrow_db (self, error)))
    return NULL;

  ok = foreach_slice_in_window (self, db, track_id, t0, t1, collect_slice, slices, NULL, error);
  return_db (self, db);

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

/* Answers from the coarsest summary level whose buckets are no wider than
 * a column; FALSE (and nothing done) when columns are finer than every
 * level, so that the slices themselves must be read. */
static gboolean
lane_from_summary (sqlite3        *db,
                   gint64          track_id,
                   gint64          t0,
                   gint64          t1,
                   guint           n_buckets,
                   TesLaneBucket  *buckets,
                   gboolean       *answered,
                   GError        **error)
{
  sqlite3_stmt *stmt = NULL;
  gint64 column = (t1 - t0) / n_buckets;
  int rc;

  *answered = FALSE;

  if (!prepare (db,
                "SELECT shift, t_base, n, data FROM slice_lod "
                "WHERE track_id = ? AND shift < 62 AND (1 << shift) <= ? "
                "ORDER BY level DESC LIMIT 1",
                &stmt, error))
    return FALSE;

  sqlite3_bind_int64 (stmt, 1, track_id);
  sqlite3_bind_int64 (stmt, 2, column);

  if ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      guint shift = (guint)sqlite3_column_int (stmt, 0);
      gint64 base = sqlite3_column_int64 (stmt, 1);
      gint64 n = sqlite3_column_int64 (stmt, 2);
      const TesLaneBucket *level = sqlite3_column_blob (stmt, 3);
      gint64 first, last;

      if (sqlite3_column_bytes (stmt, 3) != (int)(n * sizeof (TesLaneBucket)))
        {
          g_set_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_SCHEMA,
                       "Lane summary of track %" G_GINT64_FORMAT " has a wrong size", track_id);
          sqlite3_finalize (stmt);
          return FALSE;
        }

      first = t0 <= base ? 0 : (t0 - base) >> shift;
      last = t1 <= base ? -1 : MIN (n - 1, (t1 - 1 - base) >> shift);

      for (gint64 b = first; b <= last; b++)
        {
          TesLaneBucket src;
          gint64 lo = base + (b << shift);

          memcpy (&src, &level[b], sizeof src);
          tes_lane_add_bucket (buckets, n_buckets, t0, t1, lo, lo + ((gint64)1 << shift), &src);
        }

      *answered = TRUE;
    }
  else if (rc != SQLITE_DONE)
    {
      tes_cache_set_error (error, db, "Reading lane summaries");
      sqlite3_finalize (stmt);
      return FALSE;
    }

  sqlite3_finalize (stmt);
  return TRUE;
}

/* One bucket per pixel column of [t0, t1) on the track: from the summary
 * pyramid when a column is wider than its finest level, else from the
 * slices in the window (of which there are then few enough). */
GArray *
tes_report_get_lane (TesReport  *self,
                     gint64      track_id,
                     gint64      t0,
                     gint64      t1,
                     guint       n_buckets,
                     GError    **error)
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

  if (!(db = borrow_db (self, error)))
    return NULL;

  state.buckets = (TesLaneBucket *)(gpointer)buckets->data;
  state.n_buckets = n_buckets;
  state.t0 = t0;
  state.t1 = t1;

  ok = lane_from_summary (db, track_id, t0, t1, n_buckets, state.buckets, &answered, error);
  if (ok && !answered)
    ok = foreach_slice_in_window (self, db, track_id, t0, t1, add_to_lane, &state, NULL, error);
  return_db (self, db);

  return ok ? g_steal_pointer (&buckets) : NULL;
}

char *
tes_report_get_slice_args (TesReport  *self,
                           gint64      track_id,
                           guint32     index,
                           GError    **error)
{
  sqlite3_stmt *stmt = NULL;
  sqlite3 *db;
  char *args = NULL;

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  if (!(db = borrow_db (self, error)))
    return NULL;

  if (prepare (db,
               "SELECT first_index, n, args FROM slice_chunks WHERE track_id = ? AND first_index <= ? "
               "ORDER BY first_index DESC LIMIT 1",
               &stmt, error))
    {
      sqlite3_bind_int64 (stmt, 1, track_id);
      sqlite3_bind_int64 (stmt, 2, index);

      if (sqlite3_step (stmt) == SQLITE_ROW &&
          index - sqlite3_column_int64 (stmt, 0) < sqlite3_column_int64 (stmt, 1))
        {
          guint i = (guint)(index - sqlite3_column_int64 (stmt, 0));
          guint n = (guint)sqlite3_column_int64 (stmt, 1);
          const guint8 *blob = sqlite3_column_blob (stmt, 2);
          gsize len = (gsize)sqlite3_column_bytes (stmt, 2);
          guint32 begin, end;

          if (blob == NULL)
            args = g_strdup ("");
          else if (len >= (n + 1) * sizeof (guint32))
            {
              memcpy (&begin, blob + i * sizeof (guint32), sizeof begin);
              memcpy (&end, blob + (i + 1) * sizeof (guint32), sizeof end);
              if (begin <= end && (n + 1) * sizeof (guint32) + end <= len)
                args = g_strndup ((const char *)blob + (n + 1) * sizeof (guint32) + begin, end - begin);
            }
        }

      if (args == NULL)
        g_set_error (error, TES_REPORT_ERROR, TES_REPORT_ERROR_NOT_FOUND,
                     "No slice %u on track %" G_GINT64_FORMAT, index, track_id);
    }

  sqlite3_finalize (stmt);
  return_db (self, db);

  return args;
}

typedef struct
{
  GHashTable *groups;   /* key -> TesAggregate* (in the track's ticks) */
  gint64      t0;
  gint64      t1;
  TesGroupBy  group_by;
} AggregateState;

static gboolean
aggregate_slice (const TesSliceRecord *rec,
                 guint32               index,
                 gpointer              user_data)
{
  AggregateState *state = user_data;
  guint32 key = state->group_by == TES_GROUP_BY_NAME ? rec->name : rec->category;
  TesAggregate *agg = g_hash_table_lookup (state->groups, GUINT_TO_POINTER (key));
  gint64 lo = MAX (rec->start, state->t0);
  gint64 hi = MIN (rec->start + rec->dur, state->t1);
  gint64 clipped = MAX (0, hi - lo);

  if (agg == NULL)
    {
      agg = g_new0 (TesAggregate, 1);
      agg->key = key;
      g_hash_table_insert (state->groups, GUINT_TO_POINTER (key), agg);
    }

  agg->count++;
  agg->total += clipped;
  /* Self time of a slice cut by the window is taken in proportion. */
  if (clipped == rec->dur)
    agg->self += rec->self_dur;
  else if (rec->dur > 0)
    agg->self += (gint64)((double)rec->self_dur * clipped / rec->dur);

  return TRUE;
}

static int
compare_aggregates (gconstpointer a,
                    gconstpointer b)
{
  const TesAggregate *aa = a;
  const TesAggregate *ab = b;

  if (aa->self != ab->self)
    return aa->self > ab->self ? -1 : 1;
  if (aa->total != ab->total)
    return aa->total > ab->total ? -1 : 1;
  return (aa->key > ab->key) - (aa->key < ab->key);
}

static gint64
convert_duration (TesReport *self,
                  gint64     from_clock,
                  gint64     to_clock,
                  gint64     d)
{
  return tes_report_convert_time (self, from_clock, to_clock, d) -
         tes_report_convert_time (self, from_clock, to_clock, 0);
}

GArray *
tes_report_aggregate_slices (TesReport     *self,
                             const gint64  *track_ids,
                             guint          n_track_ids,
                             gint64         clock_id,
                             gint64         t0,
                             gint64         t1,
                             TesGroupBy     group_by,
                             GCancellable  *cancellable,
                             GError       **error)
{
  g_autoptr(GHashTable) merged = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr(GArray) result = g_array_new (FALSE, FALSE, sizeof (TesAggregate));
  GHashTableIter iter;
  TesAggregate *agg;
  sqlite3 *db;
  guint n = n_track_ids ? n_track_ids : self->tracks->len;

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  if (!(db = borrow_db (self, error)))
    return NULL;

  for (guint i = 0; i < n; i++)
    {
      gint64 track_id = n_track_ids ? track_ids[i] : (gint64)i + 1;
      const TesTrack *track = tes_report_get_track (self, track_id);
      AggregateState state;

      if (track == NULL || track->n_slices == 0)
        continue;

      state.groups = g_hash_table_new_full (NULL, NULL, NULL, g_free);
      state.t0 = tes_report_convert_time (self, clock_id, track->clock_id, t0);
      state.t1 = tes_report_convert_time (self, clock_id, track->clock_id, t1);
      state.group_by = group_by;

      if (!foreach_slice_in_window (self, db, track_id, state.t0, state.t1,
                                    aggregate_slice, &state, cancellable, error))
        {
          g_hash_table_unref (state.groups);
          return_db (self, db);
          return NULL;
        }

      g_hash_table_iter_init (&iter, state.groups);
      while (g_hash_table_iter_next (&iter, NULL, (gpointer *)&agg))
        {
          TesAggregate *into = g_hash_table_lookup (merged, GUINT_TO_POINTER (agg->key));

          if (into == NULL)
            {
              into = g_new0 (TesAggregate, 1);
              into->key = agg->key;
              g_hash_table_insert (merged, GUINT_TO_POINTER (agg->key), into);
            }

          into->count += agg->count;
          into->total += convert_duration (self, track->clock_id, clock_id, agg->total);
          into->self += convert_duration (self, track->clock_id, clock_id, agg->self);
        }

      g_hash_table_unref (state.groups);
    }

  return_db (self, db);

  g_hash_table_iter_init (&iter, merged);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *)&agg))
    g_array_append_val (result, *agg);
  g_array_sort (result, compare_aggregates);

  return g_steal_pointer (&result);
}

typedef struct
{
  gint64     *track_ids;
  guint       n_track_ids;
  gint64      clock_id;
  gint64      t0;
  gint64      t1;
  TesGroupBy  group_by;
} AggregateJob;

static void
aggregate_job_free (gpointer data)
{
  AggregateJob *job = data;

  g_free (job->track_ids);
  g_free (job);
}

static void
tes_report_aggregate_worker (GTask        *task,
                             gpointer      source_object,
                             gpointer      task_data,
                             GCancellable *cancellable)
{
  AggregateJob *job = task_data;
  GError *error = NULL;
  GArray *result;

  result = tes_report_aggregate_slices (source_object, job->track_ids, job->n_track_ids,
                                        job->clock_id, job->t0, job->t1, job->group_by,
                                        cancellable, &error);
  if (result != NULL)
    g_task_return_pointer (task, result, (GDestroyNotify)g_array_unref);
  else
    g_task_return_error (task, error);
}

void
tes_report_aggregate_slices_async (TesReport           *self,
                                   const gint64        *track_ids,
                                   guint                n_track_ids,
                                   gint64               clock_id,
                                   gint64               t0,
                                   gint64               t1,
                                   TesGroupBy           group_by,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  AggregateJob *job;

  g_return_if_fail (TES_IS_REPORT (self));

  job = g_new0 (AggregateJob, 1);
  job->track_ids = n_track_ids ? g_memdup2 (track_ids, n_track_ids * sizeof (gint64)) : NULL;
  job->n_track_ids = n_track_ids;
  job->clock_id = clock_id;
  job->t0 = t0;
  job->t1 = t1;
  job->group_by = group_by;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tes_report_aggregate_slices_async);
  g_task_set_task_data (task, job, aggregate_job_free);
  g_task_run_in_thread (task, tes_report_aggregate_worker);
}

GArray *
tes_report_aggregate_slices_finish (TesReport     *self,
                                    GAsyncResult  *result,
                                    GError       **error)
{
  g_return_val_if_fail (TES_IS_REPORT (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

void
tes_summary_row_free (TesSummaryRow *row)
{
  if (row == NULL)
    return;

  g_free (row->name);
  g_free (row->type);
  g_free (row->label);
  g_free (row);
}

static GPtrArray *
load_operator_rows (TesReport       *self,
                    TesSummaryMode   mode,
                    gboolean        *has_index,
                    GError         **error)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify)tes_summary_row_free);
  sqlite3_stmt *stmt = NULL;
  gboolean all_shares = TRUE;
  double sum_total = 0;
  gint64 source_id = 0;
  sqlite3 *db;

  if (!(db = borrow_db (self, error)))
    return NULL;

  *has_index = FALSE;

  /* Operator rows of different files are different views of one run (a
   * per-type listing and a per-operator one, say); adding them up would
   * count the run twice. Take one source: for per-type totals the one whose
   * rows are the vendor's own per-type lines, else the first with
   * per-operator rows. */
  if (!prepare (db,
                "SELECT source_id FROM operators GROUP BY source_id "
                "ORDER BY (count(op_index) > 0) = ?, source_id LIMIT 1",
                &stmt, error))
    {
      return_db (self, db);
      return NULL;
    }
  sqlite3_bind_int (stmt, 1, mode == TES_SUMMARY_TOTAL);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    source_id = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  stmt = NULL;

  if (!prepare (db,
                "SELECT op_index, name, type, share, total, count, clock_id FROM operators "
                "WHERE source_id IS ? "
                "ORDER BY op_index IS NULL, op_index, id",
                &stmt, error))
    {
      return_db (self, db);
      return NULL;
    }
  if (source_id > 0)
    sqlite3_bind_int64 (stmt, 1, source_id);

  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      TesSummaryRow *row = g_new0 (TesSummaryRow, 1);

      row->op_index = sqlite3_column_type (stmt, 0) == SQLITE_NULL ? -1 : sqlite3_column_int64 (stmt, 0);
      row->name = g_strdup (tes_report_get_string (self, (guint32)sqlite3_column_int64 (stmt, 1)));
      row->type = g_strdup (tes_report_get_string (self, (guint32)sqlite3_column_int64 (stmt, 2)));
      row->share = sqlite3_column_type (stmt, 3) == SQLITE_NULL ? NAN : sqlite3_column_double (stmt, 3);
      row->total = sqlite3_column_type (stmt, 4) == SQLITE_NULL ? -1 : sqlite3_column_int64 (stmt, 4);
      row->count = sqlite3_column_type (stmt, 5) == SQLITE_NULL ? -1 : sqlite3_column_int64 (stmt, 5);
      row->clock_id = sqlite3_column_int64 (stmt, 6);

      *has_index |= row->op_index >= 0;
      all_shares &= !isnan (row->share);
      sum_total += MAX (row->total, 0);
      g_ptr_array_add (rows, row);
    }
  sqlite3_finalize (stmt);
  return_db (self, db);

  /* Shares the vendor printed win; otherwise derive them from totals. */
  if (!all_shares)
    for (guint i = 0; i < rows->len; i++)
      {
        TesSummaryRow *row = g_ptr_array_index (rows, i);
        row->share = sum_total > 0 ? 100.0 * MAX (row->total, 0) / sum_total : 0.0;
      }

  return g_steal_pointer (&rows);
}

static GPtrArray *
load_slice_rows (TesReport  *self,
                 TesGroupBy  group_by,
                 GError    **error)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify)tes_summary_row_free);
  g_autoptr(GArray) aggs = NULL;
  gint64 clock_id = self->clocks->len ? 1 : 0;
  double sum = 0;

  if (!(aggs = tes_report_aggregate_slices (self, NULL, 0, clock_id, G_MININT64, G_MAXINT64,
                                            group_by, NULL, error)))
    return NULL;

  for (guint i = 0; i < aggs->len; i++)
    sum += g_array_index (aggs, TesAggregate, i).self;

  for (guint i = 0; i < aggs->len; i++)
    {
      const TesAggregate *agg = &g_array_index (aggs, TesAggregate, i);
      TesSummaryRow *row = g_new0 (TesSummaryRow, 1);

      row->op_index = -1;
      row->name = g_strdup (tes_report_get_string (self, agg->key));
      row->type = g_strdup (row->name);
      row->share = sum > 0 ? 100.0 * agg->self / sum : 0.0;
      row->total = agg->self;
      row->count = agg->count;
      row->clock_id = clock_id;
      g_ptr_array_add (rows, row);
    }

  return g_steal_pointer (&rows);
}

static int
compare_rows_by_share (gconstpointer a,
                       gconstpointer b)
{
  const TesSummaryRow *ra = *(TesSummaryRow * const *)a;
  const TesSummaryRow *rb = *(TesSummaryRow * const *)b;

  if (ra->share != rb->share)
    return ra->share > rb->share ? -1 : 1;
  return 0;
}

/* Group rows by type or name in first-seen order, summing shares and
 * totals, then sort descending (stable, like Python's sorted). */
static GPtrArray *
group_rows (GPtrArray  *rows,
            TesGroupBy  group_by)
{
  g_autoptr(GPtrArray) groups = g_ptr_array_new_with_free_func ((GDestroyNotify)tes_summary_row_free);
  g_autoptr(GHashTable) index = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < rows->len; i++)
    {
      const TesSummaryRow *row = g_ptr_array_index (rows, i);
      const char *key = group_by == TES_GROUP_BY_NAME ? row->name : row->type;
      TesSummaryRow *group = g_hash_table_lookup (index, key);

      if (group == NULL)
        {
          group = g_new0 (TesSummaryRow, 1);
          group->op_index = -1;
          group->name = g_strdup (key);
          group->type = g_strdup (row->type);
          group->label = g_strdup (key);
          group->total = 0;
          group->count = 0;
          group->clock_id = row->clock_id;
          g_ptr_array_add (groups, group);
          g_hash_table_insert (index, group->name, group);
        }

      group->share += row->share;
      group->total = (group->total < 0 || row->total < 0) ? -1 : group->total + row->total;
      /* A per-operator row without a count is one operator; a per-type
       * row without one leaves the group's count unknown. */
      if (group->count >= 0 && row->count < 0 && row->op_index < 0)
        group->count = -1;
      else if (group->count >= 0)
        group->count += row->count < 0 ? 1 : row->count;
    }

  g_ptr_array_sort (groups, compare_rows_by_share);

  return g_steal_pointer (&groups);
}

GPtrArray *
tes_report_summarize (TesReport       *self,
                      TesSummaryMode   mode,
                      TesGroupBy       group_by,
                      GError         **error)
{
  g_autoptr(GPtrArray) rows = NULL;
  gboolean has_index = FALSE;

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  if (self->counts.n_operators > 0)
    rows = load_operator_rows (self, mode, &has_index, error);
  else if (self->counts.n_slices > 0)
    rows = load_slice_rows (self, group_by, error);
  else
    {
      g_set_error (error, TES_REPORT_ERROR, TES_REPORT_ERROR_NO_DATA,
                   "%s holds no operators and no slices to summarise",
                   tes_report_get_path (self) ? tes_report_get_path (self) : self->cache_path);
      return NULL;
    }

  if (rows == NULL)
    return NULL;

  if (mode == TES_SUMMARY_TOTAL)
    return group_rows (rows, group_by);

  if (self->counts.n_operators > 0 && !has_index)
    {
      g_set_error (error, TES_REPORT_ERROR, TES_REPORT_ERROR_NO_DATA,
                   "%s holds per-type totals only; per-operator rows need the vendor's 'each' output",
                   tes_report_get_path (self) ? tes_report_get_path (self) : self->cache_path);
      return NULL;
    }

  for (guint i = 0; i < rows->len; i++)
    {
      TesSummaryRow *row = g_ptr_array_index (rows, i);

      if (row->op_index >= 0)
        row->label = g_strdup_printf ("%" G_GINT64_FORMAT " %s", row->op_index, row->type);
      else
        row->label = g_strdup (row->name);
    }

  return g_steal_pointer (&rows);
}
