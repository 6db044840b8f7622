/* tes-cache.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-cache"

#include "config.h"

#include "tes-cache-private.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

G_DEFINE_QUARK (tes-cache-error-quark, tes_cache_error)

/* The layout is documented in docs/cache-schema.md; keep both in step and
 * bump TES_CACHE_SCHEMA_VERSION on any change. */
const char tes_cache_schema_sql[] =
  "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;\n"
  "CREATE TABLE strings (id INTEGER PRIMARY KEY, value TEXT NOT NULL);\n"
  "CREATE TABLE sources (\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  path TEXT NOT NULL,\n"
  "  size INTEGER NOT NULL,\n"
  "  mtime_ns INTEGER NOT NULL,\n"
  "  ctime_ns INTEGER NOT NULL,\n"
  "  dev INTEGER NOT NULL,\n"
  "  ino INTEGER NOT NULL,\n"
  "  stat_at_ns INTEGER NOT NULL,\n"
  "  fingerprint TEXT NOT NULL,\n"
  "  importer TEXT NOT NULL,\n"
  "  importer_version INTEGER NOT NULL,\n"
  "  format TEXT,\n"
  "  imported_at_us INTEGER NOT NULL,\n"
  "  import_us INTEGER);\n"
  "CREATE TABLE clocks (\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  name TEXT NOT NULL,\n"
  "  unit INTEGER NOT NULL,\n"
  "  ticks_per_second INTEGER NOT NULL,\n"
  "  offset_ns INTEGER NOT NULL DEFAULT 0);\n"
  "CREATE TABLE tracks (\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  parent_id INTEGER REFERENCES tracks(id),\n"
  "  source_id INTEGER REFERENCES sources(id),\n"
  "  clock_id INTEGER REFERENCES clocks(id),\n"
  "  kind INTEGER NOT NULL,\n"
  "  name TEXT NOT NULL,\n"
  "  sort_index INTEGER NOT NULL DEFAULT 0,\n"
  "  native_id TEXT,\n"
  "  ipu INTEGER,\n"
  "  tile INTEGER,\n"
  "  n_slices INTEGER NOT NULL DEFAULT 0,\n"
  "  max_depth INTEGER NOT NULL DEFAULT 0,\n"
  "  t_min INTEGER,\n"
  "  t_max INTEGER);\n"
  "CREATE INDEX tracks_parent ON tracks (parent_id, sort_index);\n"
  "CREATE TABLE slice_chunks (\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  track_id INTEGER NOT NULL REFERENCES tracks(id),\n"
  "  first_index INTEGER NOT NULL,\n"
  "  n INTEGER NOT NULL,\n"
  "  t_min INTEGER NOT NULL,\n"
  "  t_max_start INTEGER NOT NULL,\n"
  "  t_max_end INTEGER NOT NULL,\n"
  "  max_depth INTEGER NOT NULL,\n"
  "  data BLOB NOT NULL,\n"
  "  args BLOB,\n"
  "  max_dur INTEGER NOT NULL,\n"
  "  checksum INTEGER NOT NULL DEFAULT 0,\n"
  "  search BLOB NOT NULL,\n"
  "  sums BLOB NOT NULL,\n"
  "  data_len INTEGER NOT NULL,\n"
  "  args_len INTEGER NOT NULL,\n"
  "  search_len INTEGER NOT NULL,\n"
  "  sums_len INTEGER NOT NULL);\n"
  "CREATE INDEX slice_chunks_track ON slice_chunks (track_id, t_min);\n"
  /* every column but the blobs: listing the chunks reads this alone,
   * where a scan of the table reads each row's first page of blobs */
  "CREATE INDEX slice_chunks_rows ON slice_chunks (id, track_id, first_index, n, t_min, t_max_start, t_max_end,\n"
  "  max_depth, max_dur, data_len, args_len, search_len, sums_len);\n"
  "CREATE TABLE slice_lod (\n"
  "  track_id INTEGER NOT NULL REFERENCES tracks(id),\n"
  "  level INTEGER NOT NULL,\n"
  "  shift INTEGER NOT NULL,\n"
  "  t_base INTEGER NOT NULL,\n"
  "  n INTEGER NOT NULL,\n"
  "  data BLOB NOT NULL,\n"
  "  checksum INTEGER NOT NULL DEFAULT 0,\n"
  "  PRIMARY KEY (track_id, level)) WITHOUT ROWID;\n"
  "CREATE TABLE instants (\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  track_id INTEGER NOT NULL REFERENCES tracks(id),\n"
  "  ts INTEGER NOT NULL,\n"
  "  name INTEGER NOT NULL,\n"
  "  category INTEGER NOT NULL,\n"
  "  scope INTEGER NOT NULL,\n"
  "  args TEXT);\n"
  "CREATE TABLE counter_values (\n"
  "  track_id INTEGER NOT NULL REFERENCES tracks(id),\n"
  "  ts INTEGER NOT NULL,\n"
  "  value REAL NOT NULL);\n"
  "CREATE TABLE flows (\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  n INTEGER NOT NULL,\n"
  "  data BLOB NOT NULL);\n"
  "CREATE TABLE runs (\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  name TEXT NOT NULL,\n"
  "  clock_id INTEGER REFERENCES clocks(id),\n"
  "  start INTEGER,\n"
  "  end INTEGER,\n"
  "  ipu INTEGER);\n"
  "CREATE TABLE operators (\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  source_id INTEGER REFERENCES sources(id),\n"
  "  track_id INTEGER REFERENCES tracks(id),\n"
  "  run_id INTEGER REFERENCES runs(id),\n"
  "  op_index INTEGER,\n"
  "  name INTEGER NOT NULL,\n"
  "  type INTEGER NOT NULL,\n"
  "  count INTEGER,\n"
  "  total INTEGER,\n"
  "  clock_id INTEGER REFERENCES clocks(id),\n"
  "  share REAL,\n"
  "  args TEXT);\n"
  "CREATE TABLE tiles (\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  ipu INTEGER NOT NULL,\n"
  "  tile INTEGER NOT NULL,\n"
  "  memory_limit INTEGER,\n"
  "  track_id INTEGER REFERENCES tracks(id),\n"
  "  UNIQUE (ipu, tile));\n"
  "CREATE TABLE tile_memory (\n"
  "  tile_id INTEGER NOT NULL REFERENCES tiles(id),\n"
  "  category INTEGER NOT NULL,\n"
  "  bytes INTEGER NOT NULL,\n"
  "  PRIMARY KEY (tile_id, category)) WITHOUT ROWID;\n"
  "CREATE TABLE tile_histogram (\n"
  "  source_id INTEGER REFERENCES sources(id),\n"
  "  histogram INTEGER NOT NULL,\n"
  "  ipu INTEGER,\n"
  "  lower INTEGER NOT NULL,\n"
  "  upper INTEGER NOT NULL,\n"
  "  tiles INTEGER NOT NULL);\n"
  "CREATE TABLE bsp_steps (\n"
  "  run_id INTEGER REFERENCES runs(id),\n"
  "  step INTEGER NOT NULL,\n"
  "  clock_id INTEGER REFERENCES clocks(id),\n"
  "  start INTEGER NOT NULL,\n"
  "  dur INTEGER NOT NULL,\n"
  "  name INTEGER NOT NULL,\n"
  "  n_tiles INTEGER NOT NULL,\n"
  "  tile_cycles BLOB NOT NULL,\n"
  "  tile_states BLOB NOT NULL,\n"
  "  PRIMARY KEY (run_id, step));\n"
  "CREATE TABLE info (\n"
  "  source_id INTEGER REFERENCES sources(id),\n"
  "  key TEXT NOT NULL,\n"
  "  value TEXT NOT NULL);\n"
  "CREATE TABLE checksums (\n"
  "  name TEXT PRIMARY KEY,\n"
  "  n_rows INTEGER NOT NULL,\n"
  "  hash INTEGER NOT NULL) WITHOUT ROWID;\n";

gboolean
tes_cache_exec (sqlite3     *db,
                const char  *sql,
                GError     **error)
{
  char *errmsg = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &errmsg) != SQLITE_OK)
    {
      g_set_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_SQLITE,
                   "SQLite: %s", errmsg ? errmsg : sqlite3_errmsg (db));
      sqlite3_free (errmsg);
      return FALSE;
    }

  return TRUE;
}

/* "FILE: what: SQLite's message", FILE being the database's own file:
 * every error names the file it is about. */
void
tes_cache_set_error (GError     **error,
                     sqlite3     *db,
                     const char  *what)
{
  const char *path = db ? sqlite3_db_filename (db, "main") : NULL;

  if (db == NULL)
    g_set_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_SQLITE, "%s: out of memory", what);
  else if (path == NULL || *path == '\0')
    g_set_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_SQLITE,
                 "%s: %s", what, sqlite3_errmsg (db));
  else
    g_set_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_SQLITE,
                 "%s: %s: %s", path, what, sqlite3_errmsg (db));
}

gboolean
tes_cache_open_db (const char  *path,
                   int          flags,
                   sqlite3    **db_out,
                   GError     **error)
{
  sqlite3 *db = NULL;
  int rc;

  rc = sqlite3_open_v2 (path, &db, flags | SQLITE_OPEN_NOMUTEX, NULL);
  if (rc != SQLITE_OK)
    {
      g_set_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_SQLITE,
                   "Cannot open cache %s: %s", path,
                   db ? sqlite3_errmsg (db) : sqlite3_errstr (rc));
      sqlite3_close (db);
      return FALSE;
    }

  sqlite3_extended_result_codes (db, 1);
  *db_out = db;
  return TRUE;
}

/* The file holds exactly the pages its header counts: a cache cut short
 * (a full disk, a copy interrupted) or with bytes appended is damaged. */
static gboolean
check_file_size (sqlite3     *db,
                 const char  *path,
                 GError     **error)
{
  sqlite3_stmt *stmt = NULL;
  gint64 expected = -1;
  GStatBuf st;

  if (sqlite3_prepare_v2 (db, "SELECT page_count * page_size FROM pragma_page_count (), pragma_page_size ()",
                          -1, &stmt, NULL) == SQLITE_OK &&
      sqlite3_step (stmt) == SQLITE_ROW)
    expected = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);

  if (g_stat (path, &st) != 0 || expected < 0 || (gint64)st.st_size != expected)
    {
      g_set_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_SCHEMA,
                   "Cache %s is damaged: it has %" G_GINT64_FORMAT " bytes, its header says %" G_GINT64_FORMAT,
                   path, (gint64)st.st_size, expected);
      return FALSE;
    }

  return TRUE;
}

/* A cache is usable only if it has our schema version and its writer got
 * as far as marking it complete; anything else is rebuilt. */
gboolean
tes_cache_check_db (sqlite3     *db,
                    const char  *path,
                    GError     **error)
{
  sqlite3_stmt *stmt = NULL;
  int version = -1;
  gboolean complete = FALSE;

  if (sqlite3_prepare_v2 (db, "PRAGMA user_version", -1, &stmt, NULL) != SQLITE_OK ||
      sqlite3_step (stmt) != SQLITE_ROW)
    {
      g_set_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_SCHEMA,
                   "Cache %s is damaged: its header cannot be read (%s)", path, sqlite3_errmsg (db));
      sqlite3_finalize (stmt);
      return FALSE;
    }
  version = sqlite3_column_int (stmt, 0);
  sqlite3_finalize (stmt);
  stmt = NULL;

  if (!check_file_size (db, path, error))
    return FALSE;

  if (version != TES_CACHE_SCHEMA_VERSION)
    {
      g_set_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_SCHEMA,
                   "Cache %s has schema version %d, expected %d",
                   path, version, TES_CACHE_SCHEMA_VERSION);
      return FALSE;
    }

  if (sqlite3_prepare_v2 (db, "SELECT value FROM meta WHERE key = 'complete'", -1, &stmt, NULL) == SQLITE_OK &&
      sqlite3_step (stmt) == SQLITE_ROW)
    complete = g_strcmp0 ((const char *)sqlite3_column_text (stmt, 0), "1") == 0;
  sqlite3_finalize (stmt);

  if (!complete)
    {
      g_set_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_INCOMPLETE,
                   "Cache %s was not completed", path);
      return FALSE;
    }

  return TRUE;
}

char *
tes_cache_get_user_dir (void)
{
  return g_build_filename (g_get_user_cache_dir (), "tessera", NULL);
}

/* Caches tell what was read from which file: the user cache folder is the
 * user's alone, as XDG asks (an older Tessera made it 0755). */
gboolean
tes_cache_make_dir (const char  *dir,
                    GError     **error)
{
  g_autofree char *user_dir = tes_cache_get_user_dir ();
  gboolean own = g_str_equal (dir, user_dir);

  if (g_mkdir_with_parents (dir, own ? 0700 : 0755) != 0)
    {
      int errsv = errno;
      g_set_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_IO,
                   "Cannot create cache folder %s: %s", dir, g_strerror (errsv));
      return FALSE;
    }

  if (own)
    g_chmod (dir, 0700);

  return TRUE;
}

static char *
cache_dir_fallback_path (const char *abs_path)
{
  g_autofree char *digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, abs_path, -1);
  g_autofree char *base = g_path_get_basename (abs_path);
  g_autofree char *name = g_strdup_printf ("%.16s-%s.tessera", digest, base);
  g_autofree char *dir = tes_cache_get_user_dir ();

  return g_build_filename (dir, name, NULL);
}

/* The file a path names after every symbolic link: a link's cache goes
 * beside its target (the link's folder may be anywhere, a target's is
 * where the report lives). */
static char *
resolve_path (const char *path)
{
  g_autofree char *abs = g_canonicalize_filename (path, NULL);
  char *real = realpath (abs, NULL);

  if (real == NULL)
    return g_steal_pointer (&abs);

  {
    char *copy = g_strdup (real);
    free (real);
    return copy;
  }
}

/* Somewhere a cache can be written: nothing is there yet, or a regular
 * file we may replace. A folder, a device or a file of someone else's
 * in our way sends the cache to the user cache folder. */
static gboolean
cache_path_is_usable (const char *path)
{
  GStatBuf st;

  if (g_lstat (path, &st) != 0)
    return errno == ENOENT;

  return S_ISREG (st.st_mode) && g_access (path, W_OK) == 0;
}

/* access() says yes to root for any folder; a folder without any write
 * bit is read-only by intent (a shared fixture tree, a mounted archive)
 * and must not receive caches even then. */
gboolean
tes_cache_dir_is_writable (const char *dir)
{
  GStatBuf st;

  if (g_stat (dir, &st) != 0 || (st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0)
    return FALSE;

  return g_access (dir, W_OK | X_OK) == 0;
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *)a, *(const char * const *)b);
}

/* Beside the (first, in sorted order) source when its folder is writable,
 * so the cache travels with the report as PopVision's profile.pop_cache
 * does, else in the user's cache folder under a name derived from the
 * absolute path(s). One file: <file>.tessera. Several files opened together
 * as one report: <first>+<n-1>-<hash of all paths>.tessera, so each set of
 * files has its own cache whatever order it is given in. */
char *
tes_cache_path_for_sources (const char * const *source_paths,
                            guint               n_paths)
{
  g_autoptr(GPtrArray) abs_paths = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  g_autofree char *name = NULL;
  const char *first;
  gboolean all_regular = TRUE;

  g_return_val_if_fail (source_paths != NULL, NULL);
  g_return_val_if_fail (n_paths > 0, NULL);

  for (guint i = 0; i < n_paths; i++)
    {
      GStatBuf st;
      char *real = resolve_path (source_paths[i]);

      /* never beside a device node, a FIFO or a socket */
      if (g_stat (real, &st) == 0 && !S_ISREG (st.st_mode))
        all_regular = FALSE;
      g_ptr_array_add (abs_paths, real);
    }
  g_ptr_array_sort (abs_paths, compare_strings);

  first = g_ptr_array_index (abs_paths, 0);
  dir = g_path_get_dirname (first);
  base = g_path_get_basename (first);

  if (n_paths == 1)
    name = g_strconcat (base, ".tessera", NULL);
  else
    {
      g_autoptr(GString) joined = g_string_new (NULL);
      g_autofree char *digest = NULL;

      for (guint i = 0; i < abs_paths->len; i++)
        {
          g_string_append (joined, g_ptr_array_index (abs_paths, i));
          g_string_append_c (joined, '\n');
        }
      digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, joined->str, joined->len);
      name = g_strdup_printf ("%s+%u-%.16s.tessera", base, n_paths - 1, digest);
    }

  if (all_regular && tes_cache_dir_is_writable (dir))
    {
      g_autofree char *beside = g_build_filename (dir, name, NULL);

      if (cache_path_is_usable (beside))
        return g_steal_pointer (&beside);
    }

  /* the group's name already carries a hash of all its paths */
  if (n_paths > 1)
    {
      g_autofree char *user_dir = tes_cache_get_user_dir ();

      return g_build_filename (user_dir, name, NULL);
    }

  return cache_dir_fallback_path (first);
}

char *
tes_cache_path_for_source (const char *source_path)
{
  g_return_val_if_fail (source_path != NULL, NULL);

  return tes_cache_path_for_sources (&source_path, 1);
}

/* Temp files are named <cache>.tmp-<pid>-<random>; those whose writer is
 * gone (killed mid-import) are removed so they never pile up. */
void
tes_cache_remove_stale_temps (const char *cache_path)
{
  g_autofree char *dir = g_path_get_dirname (cache_path);
  g_autofree char *base = g_path_get_basename (cache_path);
  g_autofree char *prefix = g_strconcat (base, ".tmp-", NULL);
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  if (d == NULL)
    return;

  while ((name = g_dir_read_name (d)))
    {
      gint64 pid;
      char *end = NULL;

      if (!g_str_has_prefix (name, prefix))
        continue;

      pid = g_ascii_strtoll (name + strlen (prefix), &end, 10);
      if (end == NULL || *end != '-' || pid <= 0)
        continue;

      if (pid == getpid () || (kill ((pid_t)pid, 0) == 0 || errno != ESRCH))
        continue;

      {
        g_autofree char *full = g_build_filename (dir, name, NULL);
        g_unlink (full);
      }
    }
}

/* Replacing a cache frees the old file's blocks inside rename(): 30 ms
 * for a 45 MB cache here (0.7 ms per MB), at the very end of an import.
 * The old file gets a second name first, a temp name that
 * tes_cache_remove_stale_temps() knows, so rename() only moves names;
 * a thread then removes it, and the program waits for that thread at
 * exit. Where links are not supported, rename() does it all as before. */
static GMutex removals_lock;
static GPtrArray *removals;    /* GThread* */

static gpointer
remove_thread (gpointer data)
{
  g_autofree char *path = data;

  g_unlink (path);

  return NULL;
}

/* Waits for the removals started so far (run at exit too). */
void
tes_cache_wait_removals (void)
{
  g_autoptr(GPtrArray) threads = NULL;

  g_mutex_lock (&removals_lock);
  threads = g_steal_pointer (&removals);
  g_mutex_unlock (&removals_lock);

  for (guint i = 0; threads != NULL && i < threads->len; i++)
    g_thread_join (g_ptr_array_index (threads, i));
}

static void
wait_removals_at_exit (void)
{
  tes_cache_wait_removals ();
}

/* Renames temp_path over cache_path like g_rename(); an old cache there is
 * removed on the side. */
int
tes_cache_replace (const char *temp_path,
                   const char *cache_path)
{
  static gint n_kept;
  static gsize exit_hook;
  g_autofree char *old = g_strdup_printf ("%s.tmp-%d-old%d", cache_path, (int)getpid (),
                                          g_atomic_int_add (&n_kept, 1));
  gboolean kept = link (cache_path, old) == 0;
  GThread *thread;

  if (g_rename (temp_path, cache_path) != 0)
    {
      int errsv = errno;

      if (kept)
        g_unlink (old);
      errno = errsv;
      return -1;
    }
  if (!kept)
    return 0;

  if (g_once_init_enter (&exit_hook))
    {
      atexit (wait_removals_at_exit);
      g_once_init_leave (&exit_hook, 1);
    }

  thread = g_thread_try_new ("tes-cache-remove", remove_thread, old, NULL);
  if (thread == NULL)
    {
      g_unlink (old);
      return 0;
    }
  g_steal_pointer (&old);

  g_mutex_lock (&removals_lock);
  if (removals == NULL)
    removals = g_ptr_array_new ();
  g_ptr_array_add (removals, thread);
  g_mutex_unlock (&removals_lock);

  return 0;
}

/* Every cache in the user cache folder, sorted by name. */
GPtrArray *
tes_cache_list_user_caches (void)
{
  g_autofree char *dir = tes_cache_get_user_dir ();
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)))
    if (g_str_has_suffix (name, ".tessera"))
      g_ptr_array_add (paths, g_build_filename (dir, name, NULL));
  g_ptr_array_sort (paths, compare_strings);

  return paths;
}

/* Where a source's cache may be: beside it, or in the user cache folder
 * (where it went while its folder was read-only). */
char **
tes_cache_candidates_for_source (const char *source_path)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autofree char *chosen = tes_cache_path_for_source (source_path);
  g_autofree char *real = resolve_path (source_path);
  g_autofree char *fallback = cache_dir_fallback_path (real);

  g_strv_builder_add (builder, chosen);
  if (!g_str_equal (chosen, fallback))
    g_strv_builder_add (builder, fallback);

  return g_strv_builder_end (builder);
}

const char *
tes_cache_state_to_string (TesCacheState state)
{
  switch (state)
    {
    case TES_CACHE_STATE_OK:
      return "ok";
    case TES_CACHE_STATE_STALE:
      return "stale";
    case TES_CACHE_STATE_DAMAGED:
    default:
      return "damaged";
    }
}
