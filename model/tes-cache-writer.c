/* tes-cache-writer.c
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

static const char *stmt_sql[TES_CACHE_WRITER_N_STMTS] = {
  [TES_CACHE_WRITER_STMT_STRING] = "INSERT INTO strings (id, value) VALUES (?, ?)",
  [TES_CACHE_WRITER_STMT_INSTANT] = "INSERT INTO instants (track_id, ts, name, category, scope, args) VALUES (?, ?, ?, ?, ?, ?)",
  [TES_CACHE_WRITER_STMT_COUNTER] = "INSERT INTO counter_values (track_id, ts, value) VALUES (?, ?, ?)",
  [TES_CACHE_WRITER_STMT_OPERATOR] = "INSERT INTO operators (source_id, track_id, run_id, op_index, name, type, count, total, clock_id, share, args) "
                                     "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  [TES_CACHE_WRITER_STMT_INFO] = "INSERT INTO info (source_id, key, value) VALUES (?, ?, ?)",
  [TES_CACHE_WRITER_STMT_TILE_MEMORY] = "INSERT INTO tile_memory (tile_id, category, bytes) VALUES (?, ?, ?) "
                                        "ON CONFLICT (tile_id, category) DO UPDATE SET bytes = bytes + excluded.bytes",
  [TES_CACHE_WRITER_STMT_BSP_STEP] = "INSERT INTO bsp_steps (run_id, step, clock_id, start, dur, name, n_tiles, tile_cycles, tile_states) "
                                     "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  [TES_CACHE_WRITER_STMT_RUN] = "INSERT INTO runs (name, clock_id, start, end) VALUES (?, ?, ?, ?)",
};

G_DEFINE_FINAL_TYPE (TesCacheWriter, tes_cache_writer, G_TYPE_OBJECT)

static guint default_flush_threshold = TES_CACHE_WRITER_FLUSH_THRESHOLD;

/* For tests: how many slices writers created from now on hold before they
 * store full chunks (0: every chunk as soon as it fills; G_MAXUINT: none
 * before commit). */
void
tes_cache_writer_set_default_flush_threshold (guint n_slices)
{
  default_flush_threshold = n_slices;
}

static void
tes_cache_writer_finalize (GObject *object)
{
  TesCacheWriter *self = (TesCacheWriter *)object;

  for (guint i = 0; i < TES_CACHE_WRITER_N_STMTS; i++)
    g_clear_pointer (&self->stmts[i], sqlite3_finalize);
  g_clear_pointer (&self->insert_chunk, sqlite3_finalize);
  g_clear_pointer (&self->insert_flows, sqlite3_finalize);
  g_clear_pointer (&self->insert_lod, sqlite3_finalize);
  g_clear_pointer (&self->update_track, sqlite3_finalize);
  g_clear_pointer (&self->packer, tes_chunk_packer_free);
  g_clear_pointer (&self->packed_data, g_byte_array_unref);
  g_clear_pointer (&self->packed_sums, g_byte_array_unref);
  g_clear_pointer (&self->flows, g_free);
  g_clear_pointer (&self->packed_flows, g_byte_array_unref);
  g_clear_pointer (&self->db, sqlite3_close);
  g_clear_pointer (&self->syncer, tes_cache_syncer_free);
  g_clear_pointer (&self->marks, g_array_unref);
  tes_cache_row_hash_clear (&self->operators_hash);
  tes_cache_row_hash_clear (&self->instants_hash);
  tes_cache_row_hash_clear (&self->counters_hash);
  if (self->sync_fd >= 0)
    close (self->sync_fd);

  /* Dropped without commit: the partial file must never be seen. */
  if (!self->committed && self->temp_path != NULL)
    g_unlink (self->temp_path);

  g_clear_pointer (&self->commit_hooks, g_ptr_array_unref);
  g_clear_pointer (&self->strings, g_hash_table_unref);
  g_clear_pointer (&self->clock_keys, g_ptr_array_unref);
  g_clear_pointer (&self->tracks, g_ptr_array_unref);
  g_clear_pointer (&self->final_path, g_free);
  g_clear_pointer (&self->temp_path, g_free);
  g_clear_error (&self->error);

  G_OBJECT_CLASS (tes_cache_writer_parent_class)->finalize (object);
}

static void
tes_cache_writer_class_init (TesCacheWriterClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tes_cache_writer_finalize;
}

static void
tes_cache_writer_init (TesCacheWriter *self)
{
  self->strings = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->clock_keys = g_ptr_array_new_with_free_func (g_free);
  self->tracks = g_ptr_array_new_with_free_func (tes_cache_track_free);
  g_ptr_array_add (self->tracks, NULL);   /* track ids start at 1 */
  self->next_string = 1;                  /* 0 means "no string" */
  self->flush_threshold = default_flush_threshold;
  self->sync_fd = -1;
  self->marks = g_array_new (FALSE, FALSE, 2 * sizeof (gint64));
  tes_cache_row_hash_init (&self->operators_hash);
  tes_cache_row_hash_init (&self->instants_hash);
  tes_cache_row_hash_init (&self->counters_hash);
  self->started_us = g_get_monotonic_time ();
}

static void
hook_entry_free (gpointer data)
{
  TesCacheWriterHookEntry *entry = data;

  if (entry->destroy != NULL)
    entry->destroy (entry->data);
  g_free (entry);
}

void
tes_cache_writer_add_commit_hook (TesCacheWriter           *self,
                                  TesCacheWriterCommitHook  hook,
                                  gpointer                  data,
                                  GDestroyNotify            destroy)
{
  TesCacheWriterHookEntry *entry;

  g_return_if_fail (TES_IS_CACHE_WRITER (self));
  g_return_if_fail (hook != NULL);
  g_return_if_fail (!self->committed);

  if (self->commit_hooks == NULL)
    self->commit_hooks = g_ptr_array_new_with_free_func (hook_entry_free);

  entry = g_new0 (TesCacheWriterHookEntry, 1);
  entry->hook = hook;
  entry->data = data;
  entry->destroy = destroy;
  g_ptr_array_add (self->commit_hooks, entry);
}

/* The temp file is synced every few MB on a thread of its own
 * (tes-cache-syncer.c): the sync at commit then waits for the last ones. */
#define SYNC_BYTES (4 * 1024 * 1024)

/* Notes bytes handed to SQLite in bulk (slice chunks, operator rows). */
void
tes_cache_writer_note_stored (TesCacheWriter *self,
                              gsize           bytes)
{
  if (self->syncer != NULL)
    tes_cache_syncer_note (self->syncer, bytes);
}

gboolean
tes_cache_writer_failed (TesCacheWriter *self)
{
  return self->error != NULL;
}

void
tes_cache_writer_fail (TesCacheWriter *self,
                       const char     *what)
{
  if (self->error == NULL)
    tes_cache_set_error (&self->error, self->db, what);
}

sqlite3_stmt *
tes_cache_writer_stmt (TesCacheWriter     *self,
                       TesCacheWriterStmt  which)
{
  sqlite3_stmt *s = self->stmts[which];

  sqlite3_reset (s);
  sqlite3_clear_bindings (s);
  return s;
}

void
tes_cache_writer_step_done (TesCacheWriter *self,
                            sqlite3_stmt   *s,
                            const char     *what)
{
  if (sqlite3_step (s) != SQLITE_DONE)
    tes_cache_writer_fail (self, what);
}

void
tes_cache_writer_bind_text_or_null (sqlite3_stmt *s,
                                    int           col,
                                    const char   *text)
{
  if (text != NULL)
    sqlite3_bind_text (s, col, text, -1, SQLITE_TRANSIENT);
  else
    sqlite3_bind_null (s, col);
}

void
tes_cache_writer_bind_id_or_null (sqlite3_stmt *s,
                                  int           col,
                                  gint64        id)
{
  if (id > 0)
    sqlite3_bind_int64 (s, col, id);
  else
    sqlite3_bind_null (s, col);
}

/* The temp file sits beside the final path so that rename() is atomic;
 * its name carries our pid so a later run can tell it is abandoned. */
TesCacheWriter *
tes_cache_writer_new (const char  *cache_path,
                      GError     **error)
{
  g_autoptr(TesCacheWriter) self = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *templ = NULL;
  int fd;

  g_return_val_if_fail (cache_path != NULL, NULL);

  dir = g_path_get_dirname (cache_path);
  if (!tes_cache_make_dir (dir, error))
    return NULL;

  tes_cache_remove_stale_temps (cache_path);

  templ = g_strdup_printf ("%s.tmp-%d-XXXXXX", cache_path, (int)getpid ());
  fd = g_mkstemp (templ);
  if (fd < 0)
    {
      int errsv = errno;
      g_set_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_IO,
                   "Cannot create cache %s: %s", templ, g_strerror (errsv));
      return NULL;
    }

  self = g_object_new (TES_TYPE_CACHE_WRITER, NULL);
  self->sync_fd = fd;
  self->syncer = tes_cache_syncer_new (fd, SYNC_BYTES);
  self->final_path = g_strdup (cache_path);
  self->temp_path = g_steal_pointer (&templ);

  if (!tes_cache_open_db (self->temp_path, SQLITE_OPEN_READWRITE, &self->db, error))
    return NULL;

  /* Nothing here needs to survive a crash: an unfinished cache is thrown
   * away, so journaling and syncing per statement would be pure cost. */
  if (!tes_cache_exec (self->db,
                       "PRAGMA page_size = 65536;"
                       "PRAGMA journal_mode = OFF;"
                       "PRAGMA synchronous = OFF;"
                       "PRAGMA locking_mode = EXCLUSIVE;"
                       "PRAGMA cache_size = -4096;",
                       error) ||
      !tes_cache_exec (self->db, tes_cache_schema_sql, error) ||
      !tes_cache_exec (self->db, "BEGIN", error))
    return NULL;

  for (guint i = 0; i < TES_CACHE_WRITER_N_STMTS; i++)
    {
      if (sqlite3_prepare_v3 (self->db, stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT,
                              &self->stmts[i], NULL) != SQLITE_OK)
        {
          tes_cache_set_error (error, self->db, "Preparing the cache");
          return NULL;
        }
    }

  return g_steal_pointer (&self);
}

const char *
tes_cache_writer_get_temp_path (TesCacheWriter *self)
{
  g_return_val_if_fail (TES_IS_CACHE_WRITER (self), NULL);

  return self->temp_path;
}

gint64
tes_cache_writer_add_source (TesCacheWriter       *self,
                             const TesSourceStamp *stamp,
                             const char           *importer_name,
                             guint                 importer_version,
                             const char           *format)
{
  sqlite3_stmt *s = NULL;
  gint64 id = 0;

  g_return_val_if_fail (TES_IS_CACHE_WRITER (self), 0);
  g_return_val_if_fail (stamp != NULL, 0);
  g_return_val_if_fail (importer_name != NULL, 0);

  if (tes_cache_writer_failed (self))
    return 0;

  if (sqlite3_prepare_v2 (self->db,
                          "INSERT INTO sources (path, size, mtime_ns, fingerprint, importer, "
                          "importer_version, format, imported_at_us, ctime_ns, dev, ino, stat_at_ns) "
                          "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                          -1, &s, NULL) != SQLITE_OK)
    {
      tes_cache_writer_fail (self, "Recording the source");
      return 0;
    }

  sqlite3_bind_text (s, 1, stamp->path, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64 (s, 2, stamp->size);
  sqlite3_bind_int64 (s, 3, stamp->mtime_ns);
  /* none yet: tes_cache_writer_set_fingerprint() gives it before commit */
  sqlite3_bind_text (s, 4, stamp->fingerprint != NULL ? stamp->fingerprint : "", -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (s, 5, importer_name, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int (s, 6, (int)importer_version);
  tes_cache_writer_bind_text_or_null (s, 7, format);
  sqlite3_bind_int64 (s, 8, g_get_real_time ());
  sqlite3_bind_int64 (s, 9, stamp->ctime_ns);
  sqlite3_bind_int64 (s, 10, (gint64)stamp->dev);
  sqlite3_bind_int64 (s, 11, (gint64)stamp->ino);
  sqlite3_bind_int64 (s, 12, stamp->stat_at_ns);
  tes_cache_writer_step_done (self, s, "Recording the source");
  sqlite3_finalize (s);

  if (!tes_cache_writer_failed (self))
    id = sqlite3_last_insert_rowid (self->db);

  return id;
}

/* A source's content fingerprint, when it was hashed while the source was
 * imported (add_source() recorded none). */
void
tes_cache_writer_set_fingerprint (TesCacheWriter *self,
                                  gint64          source_id,
                                  const char     *fingerprint)
{
  sqlite3_stmt *s = NULL;

  g_return_if_fail (TES_IS_CACHE_WRITER (self));
  g_return_if_fail (fingerprint != NULL && *fingerprint != '\0');

  if (tes_cache_writer_failed (self))
    return;

  if (sqlite3_prepare_v2 (self->db, "UPDATE sources SET fingerprint = ? WHERE id = ?", -1, &s, NULL) != SQLITE_OK)
    {
      tes_cache_writer_fail (self, "Recording the source");
      return;
    }
  sqlite3_bind_text (s, 1, fingerprint, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64 (s, 2, source_id);
  tes_cache_writer_step_done (self, s, "Recording the source");
  sqlite3_finalize (s);
}

guint32
tes_cache_writer_intern (TesCacheWriter *self,
                         const char     *str)
{
  gpointer value;
  guint32 id;
  sqlite3_stmt *s;

  g_return_val_if_fail (TES_IS_CACHE_WRITER (self), 0);

  if (str == NULL)
    return 0;

  if (g_hash_table_lookup_extended (self->strings, str, NULL, &value))
    return GPOINTER_TO_UINT (value);

  id = self->next_string++;
  g_hash_table_insert (self->strings, g_strdup (str), GUINT_TO_POINTER (id));

  s = tes_cache_writer_stmt (self, TES_CACHE_WRITER_STMT_STRING);
  sqlite3_bind_int64 (s, 1, id);
  sqlite3_bind_text (s, 2, str, -1, SQLITE_STATIC);
  tes_cache_writer_step_done (self, s, "Storing a string");

  return id;
}

/* Files of one run opened together often share a time base: a clock
 * asked for again with the same name, unit and rate is the same clock. */
gint64
tes_cache_writer_add_clock (TesCacheWriter *self,
                            const char     *name,
                            TesTimeUnit     unit,
                            gint64          ticks_per_second)
{
  g_autofree char *key = NULL;
  sqlite3_stmt *s = NULL;
  guint index;

  g_return_val_if_fail (TES_IS_CACHE_WRITER (self), 0);
  g_return_val_if_fail (name != NULL, 0);
  g_return_val_if_fail (ticks_per_second > 0, 0);

  if (tes_cache_writer_failed (self))
    return 0;

  key = g_strdup_printf ("%d:%" G_GINT64_FORMAT ":%s", unit, ticks_per_second, name);
  if (g_ptr_array_find_with_equal_func (self->clock_keys, key, g_str_equal, &index))
    return index + 1;

  if (sqlite3_prepare_v2 (self->db,
                          "INSERT INTO clocks (id, name, unit, ticks_per_second) VALUES (?, ?, ?, ?)",
                          -1, &s, NULL) != SQLITE_OK)
    {
      tes_cache_writer_fail (self, "Storing a clock");
      return 0;
    }

  g_ptr_array_add (self->clock_keys, g_steal_pointer (&key));
  sqlite3_bind_int64 (s, 1, self->clock_keys->len);
  sqlite3_bind_text (s, 2, name, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int (s, 3, unit);
  sqlite3_bind_int64 (s, 4, ticks_per_second);
  tes_cache_writer_step_done (self, s, "Storing a clock");
  sqlite3_finalize (s);

  return self->clock_keys->len;
}


gint64
tes_cache_writer_add_track (TesCacheWriter *self,
                            gint64          parent_id,
                            gint64          source_id,
                            gint64          clock_id,
                            TesTrackKind    kind,
                            const char     *name,
                            gint64          sort_index,
                            const char     *native_id)
{
  sqlite3_stmt *s = NULL;
  gint64 id;

  g_return_val_if_fail (TES_IS_CACHE_WRITER (self), 0);
  g_return_val_if_fail (name != NULL, 0);
  g_return_val_if_fail (parent_id >= 0 && parent_id < (gint64)self->tracks->len, 0);

  if (tes_cache_writer_failed (self))
    return 0;

  id = self->tracks->len;

  if (sqlite3_prepare_v2 (self->db,
                          "INSERT INTO tracks (id, parent_id, source_id, clock_id, kind, name, sort_index, native_id) "
                          "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                          -1, &s, NULL) != SQLITE_OK)
    {
      tes_cache_writer_fail (self, "Storing a track");
      return 0;
    }

  sqlite3_bind_int64 (s, 1, id);
  tes_cache_writer_bind_id_or_null (s, 2, parent_id);
  tes_cache_writer_bind_id_or_null (s, 3, source_id);
  tes_cache_writer_bind_id_or_null (s, 4, clock_id);
  sqlite3_bind_int (s, 5, kind);
  sqlite3_bind_text (s, 6, name, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64 (s, 7, sort_index);
  tes_cache_writer_bind_text_or_null (s, 8, native_id);
  tes_cache_writer_step_done (self, s, "Storing a track");
  sqlite3_finalize (s);

  g_ptr_array_add (self->tracks, tes_cache_track_new ());

  return id;
}

/* Times within ±TES_TIME_LIMIT (tes-model-types.h), and durations that
 * end there: a source's nonsense stays within what readers can add up. */
gint64
tes_cache_writer_clamp_time (gint64 t)
{
  return CLAMP (t, -TES_TIME_LIMIT, TES_TIME_LIMIT);
}

/* For a start already clamped. */
gint64
tes_cache_writer_clamp_dur (gint64 start,
                            gint64 dur)
{
  return CLAMP (dur, 0, TES_TIME_LIMIT - start);
}
