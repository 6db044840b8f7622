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
#include <time.h>
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
  "  checksum INTEGER NOT NULL DEFAULT 0);\n"
  "CREATE INDEX slice_chunks_track ON slice_chunks (track_id, t_min);\n"
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
  "  name INTEGER NOT NULL,\n"
  "  category INTEGER NOT NULL,\n"
  "  from_track INTEGER NOT NULL REFERENCES tracks(id),\n"
  "  from_ts INTEGER NOT NULL,\n"
  "  to_track INTEGER NOT NULL REFERENCES tracks(id),\n"
  "  to_ts INTEGER NOT NULL);\n"
  "CREATE TABLE runs (\n"
  "  id INTEGER PRIMARY KEY,\n"
  "  name TEXT NOT NULL,\n"
  "  clock_id INTEGER REFERENCES clocks(id),\n"
  "  start INTEGER,\n"
  "  end INTEGER);\n"
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
static gboolean
dir_is_writable (const char *dir)
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

  if (all_regular && dir_is_writable (dir))
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

/* A 64-bit hash of the whole content, four independent lanes of
 * multiply-rotate over 8-byte words (the scheme of XXH64), so that it runs
 * at memory speed: hashing a 1 GB trace costs a fraction of a second, and a
 * cache is never trusted on size and mtime alone. */
#define P1 G_GUINT64_CONSTANT (0x9E3779B185EBCA87)
#define P2 G_GUINT64_CONSTANT (0xC2B2AE3D27D4EB4F)
#define P3 G_GUINT64_CONSTANT (0x165667B19E3779F9)
#define P4 G_GUINT64_CONSTANT (0x85EBCA77C2B2AE63)
#define P5 G_GUINT64_CONSTANT (0x27D4EB2F165667C5)

static inline guint64
rotl64 (guint64 x,
        int     r)
{
  return (x << r) | (x >> (64 - r));
}

static inline guint64
read64 (const guint8 *p)
{
  guint64 v;
  memcpy (&v, p, 8);
  return GUINT64_FROM_LE (v);
}

static inline guint64
lane_round (guint64 acc,
            guint64 input)
{
  acc += input * P2;
  acc = rotl64 (acc, 31);
  return acc * P1;
}

static inline guint64
merge_round (guint64 acc,
             guint64 val)
{
  acc ^= lane_round (0, val);
  return acc * P1 + P4;
}

/* The hash is computed in pieces so that a file can be read block by block
 * (its resident size stays one block, not the whole file); the result is
 * the same as over one buffer. */
typedef struct
{
  guint64 v[4];
  guint64 len;
  guint64 seed;
} Hash64;

static void
hash64_init (Hash64  *st,
             guint64  seed)
{
  st->v[0] = seed + P1 + P2;
  st->v[1] = seed + P2;
  st->v[2] = seed;
  st->v[3] = seed - P1;
  st->len = 0;
  st->seed = seed;
}

/* Whole 32-byte stripes only; returns how many bytes it took. */
static gsize
hash64_stripes (Hash64       *st,
                const guint8 *p,
                gsize         len)
{
  gsize n = len - len % 32;

  for (gsize i = 0; i < n; i += 32)
    {
      st->v[0] = lane_round (st->v[0], read64 (p + i));
      st->v[1] = lane_round (st->v[1], read64 (p + i + 8));
      st->v[2] = lane_round (st->v[2], read64 (p + i + 16));
      st->v[3] = lane_round (st->v[3], read64 (p + i + 24));
    }
  st->len += n;

  return n;
}

/* tail: the last len % 32 bytes */
static guint64
hash64_finish (Hash64       *st,
               const guint8 *p,
               gsize         tail_len)
{
  const guint8 *end = p + tail_len;
  guint64 len = st->len + tail_len;
  guint64 h;

  if (st->len >= 32)
    {
      h = rotl64 (st->v[0], 1) + rotl64 (st->v[1], 7) + rotl64 (st->v[2], 12) + rotl64 (st->v[3], 18);
      h = merge_round (h, st->v[0]);
      h = merge_round (h, st->v[1]);
      h = merge_round (h, st->v[2]);
      h = merge_round (h, st->v[3]);
    }
  else
    h = st->seed + P5;

  h += len;

  while (p + 8 <= end)
    {
      h ^= lane_round (0, read64 (p));
      h = rotl64 (h, 27) * P1 + P4;
      p += 8;
    }

  while (p < end)
    {
      h ^= (*p) * P5;
      h = rotl64 (h, 11) * P1;
      p++;
    }

  h ^= h >> 33;
  h *= P2;
  h ^= h >> 29;
  h *= P3;
  h ^= h >> 32;

  return h;
}

guint64
tes_cache_hash64 (const guint8 *p,
                  gsize         len,
                  guint64       seed)
{
  Hash64 st;
  gsize done;

  hash64_init (&st, seed);
  done = hash64_stripes (&st, p, len);

  return hash64_finish (&st, p + done, len - done);
}

char *
tes_cache_fingerprint_bytes (const guint8 *data,
                             gsize         len)
{
  return g_strdup_printf ("%016" G_GINT64_MODIFIER "x", tes_cache_hash64 (data, len, 0));
}

#define HASH_BLOCK (4 * 1024 * 1024)   /* a multiple of 32 */

static gint fingerprint_reads;

guint
tes_cache_get_fingerprint_reads (void)
{
  return (guint)g_atomic_int_get (&fingerprint_reads);
}

char *
tes_cache_fingerprint_file (const char    *path,
                            GCancellable  *cancellable,
                            GError       **error)
{
  g_autofree guint8 *buf = NULL;
  Hash64 st;
  gsize have = 0;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  g_atomic_int_inc (&fingerprint_reads);
  fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0)
    {
      int errsv = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv),
                   "Failed to open file \u201c%s\u201d: open() failed: %s", path, g_strerror (errsv));
      return NULL;
    }

  buf = g_malloc (HASH_BLOCK);
  hash64_init (&st, 0);

  /* Read by blocks rather than mapping the file: a mapping's pages count
   * as resident once touched, as much as the whole file for a big trace. */
  for (;;)
    {
      gssize n = read (fd, buf + have, HASH_BLOCK - have);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int errsv = errno;
          close (fd);
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv),
                       "Failed to read from file \u201c%s\u201d: %s", path, g_strerror (errsv));
          return NULL;
        }
      if (n == 0)
        break;

      have += n;
      if (have == HASH_BLOCK)
        {
          hash64_stripes (&st, buf, have);
          have = 0;
          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            {
              close (fd);
              return NULL;
            }
        }
    }

  close (fd);

  {
    gsize done = hash64_stripes (&st, buf, have);

    return g_strdup_printf ("%016" G_GINT64_MODIFIER "x", hash64_finish (&st, buf + done, have - done));
  }
}

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
      g_access (cache_path, W_OK) != 0 || !dir_is_writable (dir))
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
