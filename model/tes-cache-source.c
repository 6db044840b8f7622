/* tes-cache-source.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-cache"

#include "config.h"

#include "tes-cache-private.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#include <glib/gstdio.h>

/* A cache's sources: each file's stat identity and content fingerprint,
 * as recorded at import and as they are now, and whether a cache may
 * stand for the files given (or is stale against the files it records). */

static gint64
timespec_ns (const struct timespec *ts)
{
  return (gint64)ts->tv_sec * G_GINT64_CONSTANT (1000000000) + ts->tv_nsec;
}

/* The file's stat identity, without reading it: what tells on a later
 * open whether its content can still be the one fingerprinted. */
TesSourceStamp *
tes_source_stamp_stat (const char  *path,
                       GError     **error)
{
  g_autoptr(TesSourceStamp) stamp = g_new0 (TesSourceStamp, 1);
  struct timespec now;
  GStatBuf st;

  g_return_val_if_fail (path != NULL, NULL);

  stamp->path = g_canonicalize_filename (path, NULL);

  /* before the stat: a change after this moment gets a later mtime */
  clock_gettime (CLOCK_REALTIME, &now);
  stamp->stat_at_ns = timespec_ns (&now);

  if (g_stat (stamp->path, &st) != 0)
    {
      int errsv = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   "%s: %s", path, g_strerror (errsv));
      return NULL;
    }

  if (!S_ISREG (st.st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                   "%s: not a regular file", path);
      return NULL;
    }

  stamp->size = st.st_size;
  stamp->mtime_ns = timespec_ns (&st.st_mtim);
  stamp->ctime_ns = timespec_ns (&st.st_ctim);
  stamp->dev = (guint64)st.st_dev;
  stamp->ino = (guint64)st.st_ino;

  return g_steal_pointer (&stamp);
}

/* Fingerprints the content unless that is known already. */
gboolean
tes_source_stamp_read (TesSourceStamp  *stamp,
                       GCancellable    *cancellable,
                       GError         **error)
{
  g_return_val_if_fail (stamp != NULL, FALSE);

  if (stamp->fingerprint != NULL)
    return TRUE;

  /* its errors name the file */
  stamp->fingerprint = tes_cache_fingerprint_file (stamp->path, cancellable, error);

  return stamp->fingerprint != NULL;
}

TesSourceStamp *
tes_source_stamp_new (const char    *path,
                      GCancellable  *cancellable,
                      GError       **error)
{
  g_autoptr(TesSourceStamp) stamp = tes_source_stamp_stat (path, error);

  if (stamp == NULL || !tes_source_stamp_read (stamp, cancellable, error))
    return NULL;

  return g_steal_pointer (&stamp);
}

void
tes_source_stamp_free (TesSourceStamp *stamp)
{
  if (stamp == NULL)
    return;

  g_free (stamp->path);
  g_free (stamp->fingerprint);
  g_free (stamp);
}

/* Racily clean, in git's words: a file changed at the very moment it was
 * stat'ed (within the timestamps' granularity: a clock tick, or whole
 * seconds where the file system keeps no nanoseconds) may change again
 * under the same mtime and ctime, so its stat identity proves nothing. */
static gboolean
stat_is_racy (const TesSourceStamp *stamp)
{
  gint64 window = TES_CACHE_RACY_WINDOW_NS;

  if (stamp->mtime_ns % G_GINT64_CONSTANT (1000000000) == 0 &&
      stamp->ctime_ns % G_GINT64_CONSTANT (1000000000) == 0)
    window += TES_CACHE_RACY_COARSE_NS;

  return MAX (stamp->mtime_ns, stamp->ctime_ns) >= stamp->stat_at_ns - window;
}

/* The file is the one recorded, unchanged since, as far as stat can
 * tell: same inode, size, mtime and ctime (which no user can set back, so
 * an edit under a restored mtime still shows), recorded when its last
 * change was already past. */
static gboolean
stat_proves_content (const TesSourceStamp *recorded,
                     const TesSourceStamp *now)
{
  return recorded->dev == now->dev && recorded->ino == now->ino &&
         recorded->size == now->size && recorded->mtime_ns == now->mtime_ns &&
         recorded->ctime_ns == now->ctime_ns && !stat_is_racy (recorded);
}

/* A source as recorded, from columns size, fingerprint, mtime_ns,
 * ctime_ns, dev, ino, stat_at_ns starting at col. */
#define RECORDED_COLUMNS "size, fingerprint, mtime_ns, ctime_ns, dev, ino, stat_at_ns"

static void
read_recorded (sqlite3_stmt   *stmt,
               int             col,
               TesSourceStamp *recorded)
{
  recorded->size = sqlite3_column_int64 (stmt, col);
  recorded->fingerprint = g_strdup ((const char *)sqlite3_column_text (stmt, col + 1));
  recorded->mtime_ns = sqlite3_column_int64 (stmt, col + 2);
  recorded->ctime_ns = sqlite3_column_int64 (stmt, col + 3);
  recorded->dev = (guint64)sqlite3_column_int64 (stmt, col + 4);
  recorded->ino = (guint64)sqlite3_column_int64 (stmt, col + 5);
  recorded->stat_at_ns = sqlite3_column_int64 (stmt, col + 6);
}

typedef struct
{
  gint64                id;
  TesSourceStamp        recorded;
  char                 *importer;
  int                   version;
  gboolean              used;
  const TesSourceStamp *refresh;   /* hashed now, to be recorded */
} CachedSource;

/* Records the stat identities (and paths) of sources hashed on this open
 * (a copy, a touched file) so that the next open need not read them; the
 * sources table's checksum with them. Only where the cache may be
 * written, and silently not when that fails (read-only, busy): the cache
 * is as good as it was. */
static void
refresh_recorded (const char *cache_path,
                  GArray     *cached)
{
  g_autofree char *dir = g_path_get_dirname (cache_path);
  g_autoptr(GError) error = NULL;
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gboolean ok = FALSE;
  GStatBuf st;

  /* as for folders, a cache without any write bit is read-only by intent */
  if (g_stat (cache_path, &st) != 0 || (st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0 ||
      g_access (cache_path, W_OK) != 0 || !tes_cache_dir_is_writable (dir))
    return;

  if (!tes_cache_open_db (cache_path, SQLITE_OPEN_READWRITE, &db, &error))
    goto out;

  ok = tes_cache_exec (db, "BEGIN IMMEDIATE", &error);
  if (ok && sqlite3_prepare_v2 (db,
                                "UPDATE sources SET mtime_ns = ?, ctime_ns = ?, dev = ?, ino = ?, stat_at_ns = ?, "
                                "path = ? WHERE id = ?", -1, &stmt, NULL) != SQLITE_OK)
    ok = FALSE;

  for (guint j = 0; ok && j < cached->len; j++)
    {
      CachedSource *c = &g_array_index (cached, CachedSource, j);

      if (c->refresh == NULL)
        continue;
      sqlite3_reset (stmt);
      sqlite3_bind_int64 (stmt, 1, c->refresh->mtime_ns);
      sqlite3_bind_int64 (stmt, 2, c->refresh->ctime_ns);
      sqlite3_bind_int64 (stmt, 3, (gint64)c->refresh->dev);
      sqlite3_bind_int64 (stmt, 4, (gint64)c->refresh->ino);
      sqlite3_bind_int64 (stmt, 5, c->refresh->stat_at_ns);
      sqlite3_bind_text (stmt, 6, c->refresh->path, -1, SQLITE_STATIC);
      sqlite3_bind_int64 (stmt, 7, c->id);
      ok = sqlite3_step (stmt) == SQLITE_DONE && sqlite3_changes (db) == 1;
    }
  sqlite3_finalize (stmt);

  if (ok)
    ok = tes_cache_seal_table (db, "sources", &error) && tes_cache_exec (db, "COMMIT", &error);
  if (!ok)
    sqlite3_exec (db, "ROLLBACK", NULL, NULL, NULL);

out:
  if (error == NULL && db != NULL && !ok)
    tes_cache_set_error (&error, db, "Recording the sources' stat");
  if (error != NULL)
    g_debug ("%s", error->message);
  sqlite3_close (db);
}

/* Each given source must match one recorded source, by size, content
 * fingerprint, importer name and version, and none may be left over.
 * Paths are recorded but not compared: a byte-identical copy (or a folder
 * moved with its cache) keeps its cache, a same-size edit does not. A
 * source whose stat identity is the recorded one is not read (its
 * fingerprint is the recorded one); any other is read and hashed, and
 * when it matches, its identity is recorded for the next open. */
gboolean
tes_cache_is_reusable (const char            *cache_path,
                       TesSourceStamp * const *stamps,
                       const char * const     *importer_names,
                       const guint            *importer_versions,
                       guint                   n_sources,
                       GCancellable           *cancellable,
                       GError                **error)
{
  g_autoptr(GArray) cached = g_array_new (FALSE, TRUE, sizeof (CachedSource));
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gboolean refresh = FALSE;
  gboolean ok = FALSE;

  g_return_val_if_fail (cache_path != NULL, FALSE);
  g_return_val_if_fail (n_sources > 0, FALSE);

  /* an import killed before it could rename its file leaves it behind;
   * whether this open imports or not, it goes now */
  tes_cache_remove_stale_temps (cache_path);

  if (!g_file_test (cache_path, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "No cache at %s", cache_path);
      return FALSE;
    }

  if (!tes_cache_open_db (cache_path, SQLITE_OPEN_READONLY, &db, error))
    return FALSE;

  if (!tes_cache_check_db (db, cache_path, error))
    goto out;

  if (sqlite3_prepare_v2 (db,
                          "SELECT id, importer, importer_version, " RECORDED_COLUMNS " FROM sources ORDER BY id",
                          -1, &stmt, NULL) != SQLITE_OK)
    {
      tes_cache_set_error (error, db, "Reading the cache");
      goto out;
    }

  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      CachedSource c = {
        .id = sqlite3_column_int64 (stmt, 0),
        .importer = g_strdup ((const char *)sqlite3_column_text (stmt, 1)),
        .version = sqlite3_column_int (stmt, 2),
      };
      read_recorded (stmt, 3, &c.recorded);
      g_array_append_val (cached, c);
    }
  sqlite3_finalize (stmt);
  stmt = NULL;

  if (cached->len != n_sources)
    {
      g_set_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_STALE,
                   "Cache %s records %u sources, not %u", cache_path, cached->len, n_sources);
      goto out;
    }

  for (guint i = 0; i < n_sources; i++)
    {
      TesSourceStamp *stamp = stamps[i];
      CachedSource *match = NULL;
      gboolean content_found = FALSE;

      for (guint j = 0; j < cached->len && stamp->fingerprint == NULL; j++)
        {
          CachedSource *c = &g_array_index (cached, CachedSource, j);

          if (!c->used && stat_proves_content (&c->recorded, stamp))
            stamp->fingerprint = g_strdup (c->recorded.fingerprint);
        }

      if (!tes_source_stamp_read (stamp, cancellable, error))
        goto out;

      for (guint j = 0; j < cached->len && match == NULL; j++)
        {
          CachedSource *c = &g_array_index (cached, CachedSource, j);

          if (c->used || c->recorded.size != stamp->size ||
              g_strcmp0 (c->recorded.fingerprint, stamp->fingerprint) != 0)
            continue;

          content_found = TRUE;
          if (g_strcmp0 (c->importer, importer_names[i]) == 0 && c->version == (int)importer_versions[i])
            match = c;
        }

      if (match == NULL)
        {
          if (content_found)
            g_set_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_STALE,
                         "Cache %s was written by another importer or version than %s version %u",
                         cache_path, importer_names[i], importer_versions[i]);
          else
            g_set_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_STALE,
                         "%s changed since the cache was written", stamp->path);
          goto out;
        }

      match->used = TRUE;
      /* worth recording only if the next open can trust it */
      if (!stat_proves_content (&match->recorded, stamp) && !stat_is_racy (stamp))
        {
          match->refresh = stamp;
          refresh = TRUE;
        }
    }

  ok = TRUE;

out:
  for (guint j = 0; j < cached->len; j++)
    {
      g_free (g_array_index (cached, CachedSource, j).recorded.fingerprint);
      g_free (g_array_index (cached, CachedSource, j).importer);
    }
  sqlite3_finalize (stmt);
  sqlite3_close (db);

  if (ok && refresh)
    refresh_recorded (cache_path, cached);

  return ok;
}

/* Damaged when any check fails (every byte is read); stale when it has an
 * older schema or a source at its recorded path no longer has the bytes it
 * was imported from; else ok (sources that are gone do not make a cache
 * stale: it is all there is of the report). @sources gets the recorded
 * paths, when they can be read. */
TesCacheState
tes_cache_get_state (const char   *cache_path,
                     char       ***sources,
                     GError      **error)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  TesCacheState state = TES_CACHE_STATE_OK;
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  int version = -1;

  g_return_val_if_fail (cache_path != NULL, TES_CACHE_STATE_DAMAGED);

  if (sources != NULL)
    *sources = NULL;

  if (!tes_cache_open_db (cache_path, SQLITE_OPEN_READONLY, &db, error))
    return TES_CACHE_STATE_DAMAGED;

  if (sqlite3_prepare_v2 (db, "PRAGMA user_version", -1, &stmt, NULL) == SQLITE_OK &&
      sqlite3_step (stmt) == SQLITE_ROW)
    version = sqlite3_column_int (stmt, 0);
  sqlite3_finalize (stmt);
  stmt = NULL;

  if (version > 0 && version < TES_CACHE_SCHEMA_VERSION)
    {
      g_set_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_STALE,
                   "Cache %s has schema version %d, expected %d", cache_path, version, TES_CACHE_SCHEMA_VERSION);
      state = TES_CACHE_STATE_STALE;
    }
  else if (!tes_cache_verify (cache_path, error))
    {
      sqlite3_close (db);
      return TES_CACHE_STATE_DAMAGED;
    }

  if (sqlite3_prepare_v2 (db, "SELECT path, " RECORDED_COLUMNS " FROM sources ORDER BY id",
                          -1, &stmt, NULL) == SQLITE_OK)
    while (sqlite3_step (stmt) == SQLITE_ROW)
      {
        const char *path = (const char *)sqlite3_column_text (stmt, 0);
        g_autoptr(TesSourceStamp) now = NULL;
        TesSourceStamp recorded = { NULL, };
        gboolean same;

        if (path == NULL)
          continue;
        g_strv_builder_add (builder, path);

        /* gone or not a file: not stale, the cache is all there is */
        if (state != TES_CACHE_STATE_OK || !(now = tes_source_stamp_stat (path, NULL)))
          continue;

        read_recorded (stmt, 1, &recorded);
        same = stat_proves_content (&recorded, now) ||
               (now->size == recorded.size && tes_source_stamp_read (now, NULL, NULL) &&
                g_strcmp0 (now->fingerprint, recorded.fingerprint) == 0);
        g_free (recorded.fingerprint);

        if (!same)
          {
            g_set_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_STALE,
                         "%s changed since the cache was written", path);
            state = TES_CACHE_STATE_STALE;
          }
      }
  sqlite3_finalize (stmt);
  sqlite3_close (db);

  if (sources != NULL)
    *sources = g_strv_builder_end (builder);

  return state;
}
