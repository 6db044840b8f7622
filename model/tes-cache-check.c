/* tes-cache-check.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-cache"

#include "config.h"

#include "tes-cache-private.h"

#include <string.h>

/* A cache that lies is worse than none: the writer seals every table with
 * a checksum of its rows (the `checksums` table) and every slice chunk and
 * lane summary with a checksum of its bytes (their `checksum` column); a
 * reader verifies them before it shows a number. Opening must stay fast
 * for a cache of millions of slices, so the small tables, the chunks' and
 * summaries' rows and, for a small cache, every byte are verified at open;
 * the bulk (chunk and summary blobs, tables of many rows) is verified the
 * first time it is read. */

/* Tables of at most this many rows are verified at open. */
#define OPEN_ROWS 20000
/* Chunk and summary bytes verified at open when they total at most this. */
#define OPEN_BYTES (4 * 1024 * 1024)
/* A finished cache this small is rewritten with 1 KiB pages: each table
 * and index takes at least one page, and with the 64 KiB pages that suit
 * big caches an empty report would cost 1.8 MB. */
#define SMALL_CACHE_BYTES (4 * 1024 * 1024)
#define SMALL_PAGE_SIZE 1024

#define CHUNK_SEED G_GUINT64_CONSTANT (0x7465732d6368756e)

typedef enum
{
  AT_OPEN = 1 << 0,    /* always verified at open, whatever its size */
  COUNT_N = 1 << 1,    /* each row holds column n's (the second's) worth of records */
} TableFlags;

/* What each table's checksum covers, in a fixed order; the chunks' and
 * summaries' blobs by their lengths and own checksums. Columns stored
 * after a blob are left out where the blob is big (reading them would
 * walk its overflow pages): a chunk's max_dur is checked against its
 * records with its bytes, a checksum by what it sums. rowid values of
 * tables without an INTEGER PRIMARY KEY are not covered (VACUUM may
 * renumber them), their order is. */
static const struct
{
  const char *name;
  const char *sql;
  TableFlags  flags;
} tables[] = {
  { "schema", "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name", AT_OPEN },
  { "meta", "SELECT key, value FROM meta ORDER BY key", AT_OPEN },
  { "strings", "SELECT id, value FROM strings ORDER BY id", AT_OPEN },
  { "sources", "SELECT * FROM sources ORDER BY id", AT_OPEN },
  { "clocks", "SELECT * FROM clocks ORDER BY id", AT_OPEN },
  { "tracks", "SELECT * FROM tracks ORDER BY id", AT_OPEN },
  /* from the index of its rows (each row's first page holds blobs): the
   * table's row is checked against it when the chunk is first read */
  { "slice_chunks", "SELECT id, track_id, first_index, n, t_min, t_max_start, t_max_end, max_depth, "
                    "data_len, args_len, search_len, sums_len, max_dur FROM slice_chunks INDEXED BY slice_chunks_rows "
                    "ORDER BY id", AT_OPEN },
  { "slice_lod", "SELECT track_id, level, shift, t_base, n, length (data) FROM slice_lod "
                 "ORDER BY track_id, level", AT_OPEN },
  { "instants", "SELECT * FROM instants ORDER BY id", 0 },
  { "counter_values", "SELECT * FROM counter_values ORDER BY rowid", 0 },
  { "flows", "SELECT id, n, data FROM flows ORDER BY id", COUNT_N },
  { "runs", "SELECT * FROM runs ORDER BY id", 0 },
  { "operators", "SELECT * FROM operators ORDER BY id", 0 },
  { "tiles", "SELECT * FROM tiles ORDER BY id", 0 },
  { "tile_memory", "SELECT * FROM tile_memory ORDER BY tile_id, category", 0 },
  { "tile_histogram", "SELECT * FROM tile_histogram ORDER BY rowid", 0 },
  { "bsp_steps", "SELECT * FROM bsp_steps ORDER BY run_id, step", 0 },
  { "info", "SELECT * FROM info ORDER BY rowid", 0 },
};

#define N_TABLES G_N_ELEMENTS (tables)
#define TABLE_SLICE_CHUNKS 6
#define TABLE_SLICE_LOD 7

/* meta's counts and the tables they count */
static const struct
{
  const char *key;
  const char *table;
} counted[] = {
  { "n_sources", "sources" },
  { "n_instants", "instants" },
  { "n_counter_values", "counter_values" },
  { "n_flows", "flows" },
  { "n_runs", "runs" },
  { "n_operators", "operators" },
  { "n_tiles", "tiles" },
  { "n_bsp_steps", "bsp_steps" },
  { "n_info", "info" },
};

enum
{
  UNCHECKED,
  CHECKED,
  CHECKED_ODD,   /* checksum and row fine, but a record out of range: the
                  * record checks name it; its sums are not vouched for */
};

struct _TesCacheCheck
{
  char    *path;
  gint64   n_rows[N_TABLES];
  guint64  hash[N_TABLES];
  gint     table_state[N_TABLES];
  GMutex      lock;
  GHashTable *chunks;        /* chunk id -> UNCHECKED, CHECKED or CHECKED_ODD */
  GHashTable *lod_checked;   /* track_id * 256 + level */
};

/* A cache that breaks what the writer guarantees is damaged (or was
 * crafted): say where, rather than let the queries trust it. */
gboolean
tes_cache_set_damaged_valist (GError     **error,
                              const char  *path,
                              const char  *format,
                              va_list      args)
{
  g_autofree char *what = g_strdup_vprintf (format, args);

  g_set_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_SCHEMA,
               "Cache %s is damaged: %s", path, what);
  return FALSE;
}

static gboolean
set_damaged (GError     **error,
             const char  *path,
             const char  *format,
             ...) G_GNUC_PRINTF (3, 4);

static gboolean
set_damaged (GError     **error,
             const char  *path,
             const char  *format,
             ...)
{
  va_list args;

  va_start (args, format);
  tes_cache_set_damaged_valist (error, path, format, args);
  va_end (args);
  return FALSE;
}

static int
table_index (const char *name)
{
  for (guint i = 0; i < N_TABLES; i++)
    if (g_str_equal (tables[i].name, name))
      return (int)i;

  return -1;
}

gint64
tes_cache_chunk_checksum (const void *data,
                          gsize       data_len,
                          const void *args,
                          gsize       args_len,
                          const void *search,
                          gsize       search_len,
                          const void *sums,
                          gsize       sums_len)
{
  guint64 h = tes_cache_hash64 (data, data_len, CHUNK_SEED);

  if (args != NULL)
    h = tes_cache_hash64 (args, args_len, h ^ 1);
  if (search != NULL)
    h = tes_cache_hash64 (search, search_len, h ^ 2);
  if (sums != NULL)
    h = tes_cache_hash64 (sums, sums_len, h ^ 3);

  return (gint64)h;
}

static inline void
put (guint8       **at,
     gconstpointer  p,
     gsize          n)
{
  memcpy (*at, p, n);
  *at += n;
}

/* Each column as its type and its value, so that 1, 1.0, '1' and x'01'
 * hash apart (tes-cache-row-hash.c puts a row being inserted the same
 * way). The row's size is worked out first and the bytes copied in
 * place: the seal runs alone at the end of an import, and appending
 * column by column was a call (and a division) per value. */
static void
append_row (GByteArray   *buf,
            sqlite3_stmt *stmt)
{
  int n = sqlite3_column_count (stmt);
  gsize size = 0;
  guint8 *at;

  for (int c = 0; c < n; c++)
    {
      int type = sqlite3_column_type (stmt, c);

      size += 1;
      if (type == SQLITE_INTEGER || type == SQLITE_FLOAT)
        size += 8;
      else if (type == SQLITE_TEXT || type == SQLITE_BLOB)
        {
          /* the value in the form it is hashed in, then its size (as
           * SQLite asks them to be called) */
          if (type == SQLITE_TEXT)
            sqlite3_column_text (stmt, c);
          else
            sqlite3_column_blob (stmt, c);
          size += 8 + (gsize)sqlite3_column_bytes (stmt, c);
        }
    }
  g_byte_array_set_size (buf, (guint)size);
  at = buf->data;

  for (int c = 0; c < n; c++)
    {
      guint8 type = (guint8)sqlite3_column_type (stmt, c);

      put (&at, &type, 1);
      switch (type)
        {
        case SQLITE_INTEGER:
          {
            gint64 v = GINT64_TO_LE (sqlite3_column_int64 (stmt, c));
            put (&at, &v, sizeof v);
          }
          break;

        case SQLITE_FLOAT:
          {
            double d = sqlite3_column_double (stmt, c);
            put (&at, &d, sizeof d);
          }
          break;

        case SQLITE_TEXT:
        case SQLITE_BLOB:
          {
            const guint8 *p = type == SQLITE_TEXT ? sqlite3_column_text (stmt, c) : sqlite3_column_blob (stmt, c);
            gint64 len = GINT64_TO_LE ((gint64)sqlite3_column_bytes (stmt, c));

            put (&at, &len, sizeof len);
            if (p != NULL)
              put (&at, p, (gsize)sqlite3_column_bytes (stmt, c));
          }
          break;

        default:
          break;
        }
    }
}

typedef gboolean (*RowCheck) (sqlite3_stmt  *stmt,
                              gpointer       user_data,
                              GError       **error);

/* The checksum of a table's rows as tables[index].sql lists them. An
 * SQLite error (a dropped table, a malformed page) is damage too. */
static gboolean
hash_table (sqlite3       *db,
            const char    *path,
            guint          index,
            guint64       *hash_out,
            gint64        *n_out,
            RowCheck       check,
            gpointer       user_data,
            GError       **error)
{
  g_autoptr(GByteArray) buf = g_byte_array_new ();
  sqlite3_stmt *stmt = NULL;
  guint64 h = TES_CACHE_ROW_SEED;
  gint64 n = 0;
  gboolean ok = TRUE;
  int rc;

  if (sqlite3_prepare_v2 (db, tables[index].sql, -1, &stmt, NULL) != SQLITE_OK)
    {
      const char *msg = sqlite3_errmsg (db);

      if (strstr (msg, "no such table") != NULL)
        set_damaged (error, path, "table %s is missing", tables[index].name);
      else
        set_damaged (error, path, "table %s cannot be read (%s)", tables[index].name, msg);
      sqlite3_finalize (stmt);
      return FALSE;
    }

  while (ok && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      append_row (buf, stmt);
      h = tes_cache_hash64 (buf->data, buf->len, h);
      n += (tables[index].flags & COUNT_N) ? sqlite3_column_int64 (stmt, 1) : 1;
      if (check != NULL)
        ok = check (stmt, user_data, error);
    }

  if (ok && rc != SQLITE_DONE)
    ok = set_damaged (error, path, "table %s cannot be read (%s)", tables[index].name, sqlite3_errmsg (db));
  sqlite3_finalize (stmt);

  *hash_out = h;
  *n_out = n;
  return ok;
}

/* Writes the checksums table: one row per table, from what is in it now;
 * those in known from their rows as they were inserted. */
static gboolean
seal (sqlite3                 *db,
      const TesCacheKnownHash *known,
      guint                    n_known,
      GError                 **error)
{
  const char *path = sqlite3_db_filename (db, "main");
  sqlite3_stmt *insert = NULL;
  gboolean ok = TRUE;

  if (!tes_cache_exec (db, "DELETE FROM checksums", error))
    return FALSE;

  if (sqlite3_prepare_v2 (db, "INSERT INTO checksums (name, n_rows, hash) VALUES (?, ?, ?)",
                          -1, &insert, NULL) != SQLITE_OK)
    {
      tes_cache_set_error (error, db, "Sealing the cache");
      return FALSE;
    }

  for (guint i = 0; ok && i < N_TABLES; i++)
    {
      const TesCacheRowHash *rows = NULL;
      guint64 h;
      gint64 n;

      for (guint k = 0; k < n_known; k++)
        if (g_str_equal (tables[i].name, known[k].table))
          rows = known[k].rows;

      if (rows != NULL)
        {
          h = rows->hash;
          n = rows->n_rows;
        }
      else if (!(ok = hash_table (db, path, i, &h, &n, NULL, NULL, error)))
        break;

      sqlite3_reset (insert);
      sqlite3_bind_text (insert, 1, tables[i].name, -1, SQLITE_STATIC);
      sqlite3_bind_int64 (insert, 2, n);
      sqlite3_bind_int64 (insert, 3, (gint64)h);
      if (sqlite3_step (insert) != SQLITE_DONE)
        {
          tes_cache_set_error (error, db, "Sealing the cache");
          ok = FALSE;
        }
    }

  sqlite3_finalize (insert);
  return ok;
}

gboolean
tes_cache_seal (sqlite3  *db,
                GError  **error)
{
  return seal (db, NULL, 0, error);
}

/* Reseals one table that was changed in place (the sources' stat
 * identities, refreshed on open), in the caller's transaction. */
gboolean
tes_cache_seal_table (sqlite3     *db,
                      const char  *table,
                      GError     **error)
{
  int index = table_index (table);
  sqlite3_stmt *update = NULL;
  gboolean ok;
  guint64 h;
  gint64 n;

  g_return_val_if_fail (index >= 0, FALSE);

  if (!hash_table (db, sqlite3_db_filename (db, "main"), (guint)index, &h, &n, NULL, NULL, error))
    return FALSE;

  if (sqlite3_prepare_v2 (db, "UPDATE checksums SET n_rows = ?, hash = ? WHERE name = ?",
                          -1, &update, NULL) != SQLITE_OK)
    {
      tes_cache_set_error (error, db, "Sealing the cache");
      return FALSE;
    }
  sqlite3_bind_int64 (update, 1, n);
  sqlite3_bind_int64 (update, 2, (gint64)h);
  sqlite3_bind_text (update, 3, table, -1, SQLITE_STATIC);
  ok = sqlite3_step (update) == SQLITE_DONE && sqlite3_changes (db) == 1;
  if (!ok)
    tes_cache_set_error (error, db, "Sealing the cache");
  sqlite3_finalize (update);

  return ok;
}

/* The writer's last step, in its open transaction: seal (the tables in
 * known with the checksums worked out as their rows went in: reading a
 * Kineto trace's operators back took 37 ms at 1M events, a 10M-event
 * trace's instants and counter values 110 ms), commit, and give a small
 * cache small pages. */
gboolean
tes_cache_finish (sqlite3                 *db,
                  const TesCacheKnownHash *known,
                  guint                    n_known,
                  GError                 **error)
{
  sqlite3_stmt *stmt = NULL;
  gint64 bytes = 0;

  for (guint k = 0; k < n_known; k++)
    g_return_val_if_fail (table_index (known[k].table) >= 0, FALSE);

  if (!seal (db, known, n_known, error) || !tes_cache_exec (db, "COMMIT", error))
    return FALSE;

  if (sqlite3_prepare_v2 (db, "SELECT page_count * page_size FROM pragma_page_count (), pragma_page_size ()",
                          -1, &stmt, NULL) == SQLITE_OK &&
      sqlite3_step (stmt) == SQLITE_ROW)
    bytes = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);

  if (bytes > 0 && bytes <= SMALL_CACHE_BYTES &&
      !tes_cache_exec (db, "PRAGMA page_size = " G_STRINGIFY (SMALL_PAGE_SIZE) "; VACUUM;", error))
    {
      g_prefix_error (error, "%s: Compacting the cache: ", sqlite3_db_filename (db, "main"));
      return FALSE;
    }

  return TRUE;
}

/* For tests and the fuzzers, which alter a cache as a crafted one would
 * be: recompute every checksum (and the blobs' lengths the index of the
 * chunks' rows lists), so that the value checks behind them are what sees
 * the damage. */
gboolean
tes_cache_reseal (sqlite3  *db,
                  GError  **error)
{
  if (!tes_cache_exec (db, "CREATE TEMP TABLE IF NOT EXISTS reseal_ok (x);"
                           "UPDATE slice_chunks SET data_len = length (data), args_len = coalesce (length (args), 0), "
                           "search_len = length (search), sums_len = length (sums);", error))
    return FALSE;

  for (guint pass = 0; pass < 2; pass++)
    {
      const char *select = pass == 0 ? "SELECT id, data, args, search, sums FROM slice_chunks"
                                     : "SELECT track_id, level, data FROM slice_lod";
      const char *update = pass == 0 ? "UPDATE slice_chunks SET checksum = ?1 WHERE id = ?2"
                                     : "UPDATE slice_lod SET checksum = ?1 WHERE track_id = ?2 AND level = ?3";
      g_autoptr(GArray) sums = g_array_new (FALSE, FALSE, sizeof (gint64));
      sqlite3_stmt *stmt = NULL;
      gboolean ok = TRUE;

      if (sqlite3_prepare_v2 (db, select, -1, &stmt, NULL) != SQLITE_OK)
        {
          tes_cache_set_error (error, db, "Resealing the cache");
          return FALSE;
        }
      while (sqlite3_step (stmt) == SQLITE_ROW)
        {
          int blob = pass == 0 ? 1 : 2;
          gint64 row[3] = {
            sqlite3_column_int64 (stmt, 0),
            pass == 0 ? 0 : sqlite3_column_int64 (stmt, 1),
            tes_cache_chunk_checksum (sqlite3_column_blob (stmt, blob), (gsize)sqlite3_column_bytes (stmt, blob),
                                      pass == 0 ? sqlite3_column_blob (stmt, 2) : NULL,
                                      pass == 0 ? (gsize)sqlite3_column_bytes (stmt, 2) : 0,
                                      pass == 0 ? sqlite3_column_blob (stmt, 3) : NULL,
                                      pass == 0 ? (gsize)sqlite3_column_bytes (stmt, 3) : 0,
                                      pass == 0 ? sqlite3_column_blob (stmt, 4) : NULL,
                                      pass == 0 ? (gsize)sqlite3_column_bytes (stmt, 4) : 0),
          };
          g_array_append_vals (sums, row, 3);
        }
      sqlite3_finalize (stmt);

      if (sqlite3_prepare_v2 (db, update, -1, &stmt, NULL) != SQLITE_OK)
        {
          tes_cache_set_error (error, db, "Resealing the cache");
          return FALSE;
        }
      for (guint i = 0; ok && i + 2 < sums->len; i += 3)
        {
          sqlite3_reset (stmt);
          sqlite3_bind_int64 (stmt, 1, g_array_index (sums, gint64, i + 2));
          sqlite3_bind_int64 (stmt, 2, g_array_index (sums, gint64, i));
          if (pass == 1)
            sqlite3_bind_int64 (stmt, 3, g_array_index (sums, gint64, i + 1));
          ok = sqlite3_step (stmt) == SQLITE_DONE;
        }
      sqlite3_finalize (stmt);
      if (!ok)
        {
          tes_cache_set_error (error, db, "Resealing the cache");
          return FALSE;
        }
    }

  return tes_cache_seal (db, error);
}

void
tes_cache_check_free (TesCacheCheck *check)
{
  if (check == NULL)
    return;

  g_free (check->path);
  g_clear_pointer (&check->chunks, g_hash_table_unref);
  g_clear_pointer (&check->lod_checked, g_hash_table_unref);
  g_mutex_clear (&check->lock);
  g_free (check);
}

static gboolean
verify_table (TesCacheCheck  *check,
              sqlite3        *db,
              guint           index,
              RowCheck        row_check,
              gpointer        user_data,
              GError        **error)
{
  guint64 h;
  gint64 n;

  if (g_atomic_int_get (&check->table_state[index]) == CHECKED)
    return TRUE;

  if (!hash_table (db, check->path, index, &h, &n, row_check, user_data, error))
    return FALSE;

  if (n != check->n_rows[index] || h != check->hash[index])
    {
      if (index == 0)
        return set_damaged (error, check->path, "its schema is not the one it was written with");
      return set_damaged (error, check->path, "table %s does not match its checksum (%" G_GINT64_FORMAT
                          " rows, %" G_GINT64_FORMAT " written)", tables[index].name, n, check->n_rows[index]);
    }

  g_atomic_int_set (&check->table_state[index], CHECKED);
  return TRUE;
}

/* Verifies, the first time, each table that @sql reads: the names after
 * FROM and JOIN. Small tables were verified at open; this is where the
 * big ones are, before the first query that reads them. */
gboolean
tes_cache_check_reads (TesCacheCheck  *check,
                       sqlite3        *db,
                       const char     *sql,
                       GError        **error)
{
  gboolean after_from = FALSE;
  const char *p = sql;

  if (check == NULL)
    return TRUE;

  while (*p != '\0')
    {
      const char *word = p;
      char name[32];
      gsize len;
      int index;

      if (!g_ascii_isalpha (*p) && *p != '_')
        {
          p++;
          continue;
        }
      while (g_ascii_isalnum (*p) || *p == '_')
        p++;
      len = (gsize)(p - word);

      if (after_from && len < sizeof name)
        {
          memcpy (name, word, len);
          name[len] = '\0';
          if ((index = table_index (name)) >= 0 && !verify_table (check, db, (guint)index, NULL, NULL, error))
            return FALSE;
        }
      after_from = (len == 4 && g_ascii_strncasecmp (word, "FROM", 4) == 0) ||
                   (len == 4 && g_ascii_strncasecmp (word, "JOIN", 4) == 0);
    }

  return TRUE;
}

/* The chunk's row in the table (@row: data, args, checksum, track_id, n,
 * t_min, t_max_start, t_max_end, max_depth, max_dur, search, sums,
 * first_index) says what its row in the index of the rows says: the open
 * read that index, not the table. */
static gboolean
chunk_row_matches_index (sqlite3      *db,
                         gint64        chunk_id,
                         sqlite3_stmt *row)
{
  static const int table_columns[] = { 3, 12, 4, 5, 6, 7, 8, 9 };
  static const int blob_columns[] = { 0, 1, 10, 11 };
  sqlite3_stmt *stmt = NULL;
  gboolean same;

  if (sqlite3_prepare_v2 (db, "SELECT track_id, first_index, n, t_min, t_max_start, t_max_end, max_depth, max_dur, "
                          "data_len, args_len, search_len, sums_len FROM slice_chunks INDEXED BY slice_chunks_rows "
                          "WHERE id = ?",
                          -1, &stmt, NULL) != SQLITE_OK)
    {
      sqlite3_finalize (stmt);
      return FALSE;
    }
  sqlite3_bind_int64 (stmt, 1, chunk_id);
  same = sqlite3_step (stmt) == SQLITE_ROW;
  for (guint i = 0; same && i < G_N_ELEMENTS (table_columns); i++)
    same = sqlite3_column_type (row, table_columns[i]) == SQLITE_INTEGER &&
           sqlite3_column_int64 (stmt, (int)i) == sqlite3_column_int64 (row, table_columns[i]);
  for (guint i = 0; same && i < G_N_ELEMENTS (blob_columns); i++)
    same = sqlite3_column_int64 (stmt, (int)(G_N_ELEMENTS (table_columns) + i)) ==
           sqlite3_column_bytes (row, blob_columns[i]);
  sqlite3_finalize (stmt);

  return same;
}

/* A chunk's row says what its records hold: their number, first and last
 * start, latest end, deepest nesting and longest duration (the window
 * queries skip chunks and records by these). Columns as selected by
 * tes_cache_check_chunk(). */
static gboolean
chunk_row_matches_records (sqlite3_stmt *stmt,
                           gboolean     *in_range,
                           char        **why)
{
  gint64 n = sqlite3_column_int64 (stmt, 4);
  g_autofree TesSliceRecord *recs = NULL;
  __int128 max_end = G_MININT64;
  gint64 max_dur = 0;
  const char *what;
  guint depth = 0;
  gint64 i;

  if (n < 1 || n > TES_CACHE_CHUNK_SLICES)
    return FALSE;
  recs = g_new (TesSliceRecord, n);
  if (!tes_cache_chunk_unpack_data (sqlite3_column_blob (stmt, 0), (gsize)sqlite3_column_bytes (stmt, 0),
                                    (guint)n, recs, why))
    return FALSE;

  for (i = 0; i < n; i++)
    {
      const TesSliceRecord *r = &recs[i];

      /* out of range: the record checks that follow name the slice */
      if (r->start < -TES_TIME_LIMIT || r->start > TES_TIME_LIMIT || r->dur < 0 || r->dur > TES_TIME_LIMIT)
        {
          *in_range = FALSE;
          return TRUE;
        }
      max_end = MAX (max_end, (__int128)r->start + r->dur);
      max_dur = MAX (max_dur, r->dur);
      depth = MAX (depth, r->depth);
    }

  /* what the search and the aggregate take instead of the records */
  if ((what = tes_cache_chunk_check_summaries (recs, (guint)n,
                                               sqlite3_column_blob (stmt, 10), (gsize)sqlite3_column_bytes (stmt, 10),
                                               sqlite3_column_blob (stmt, 11), (gsize)sqlite3_column_bytes (stmt, 11))))
    {
      *why = g_strdup (what);
      return FALSE;
    }

  *in_range = TRUE;
  return recs[0].start == sqlite3_column_int64 (stmt, 5) &&
         recs[n - 1].start == sqlite3_column_int64 (stmt, 6) &&
         max_end == sqlite3_column_int64 (stmt, 7) &&
         (gint64)depth == sqlite3_column_int64 (stmt, 8) &&
         max_dur == sqlite3_column_int64 (stmt, 9);
}

gboolean
tes_cache_check_chunk (TesCacheCheck  *check,
                       sqlite3        *db,
                       gint64          chunk_id,
                       GError        **error)
{
  gpointer key = GSIZE_TO_POINTER ((gsize)chunk_id);
  g_autofree char *why = NULL;
  sqlite3_stmt *stmt = NULL;
  gpointer state = NULL;
  gboolean listed;
  gboolean in_range = FALSE;
  gboolean ok;

  if (check == NULL)
    return TRUE;

  g_mutex_lock (&check->lock);
  listed = g_hash_table_lookup_extended (check->chunks, key, NULL, &state);
  g_mutex_unlock (&check->lock);
  if (!listed)
    return set_damaged (error, check->path, "slice chunk %" G_GINT64_FORMAT " is not listed", chunk_id);
  if (GPOINTER_TO_INT (state) != UNCHECKED)
    return TRUE;

  if (sqlite3_prepare_v2 (db, "SELECT data, args, checksum, track_id, n, t_min, t_max_start, t_max_end, "
                          "max_depth, max_dur, search, sums, first_index FROM slice_chunks WHERE id = ?",
                          -1, &stmt, NULL) != SQLITE_OK)
    {
      sqlite3_finalize (stmt);
      return set_damaged (error, check->path, "slice chunk %" G_GINT64_FORMAT " cannot be read (%s)",
                          chunk_id, sqlite3_errmsg (db));
    }

  sqlite3_bind_int64 (stmt, 1, chunk_id);
  if (sqlite3_step (stmt) != SQLITE_ROW)
    ok = set_damaged (error, check->path, "slice chunk %" G_GINT64_FORMAT " cannot be read (%s)",
                      chunk_id, sqlite3_errmsg (db));
  else if (tes_cache_chunk_checksum (sqlite3_column_blob (stmt, 0), (gsize)sqlite3_column_bytes (stmt, 0),
                                     sqlite3_column_blob (stmt, 1), (gsize)sqlite3_column_bytes (stmt, 1),
                                     sqlite3_column_blob (stmt, 10), (gsize)sqlite3_column_bytes (stmt, 10),
                                     sqlite3_column_blob (stmt, 11), (gsize)sqlite3_column_bytes (stmt, 11)) !=
           sqlite3_column_int64 (stmt, 2))
    ok = set_damaged (error, check->path, "slice chunk %" G_GINT64_FORMAT " of track %" G_GINT64_FORMAT
                      " does not match its checksum", chunk_id, (gint64)sqlite3_column_int64 (stmt, 3));
  else if (!chunk_row_matches_index (db, chunk_id, stmt))
    ok = set_damaged (error, check->path, "slice chunk %" G_GINT64_FORMAT " of track %" G_GINT64_FORMAT
                      " does not match the index of the chunks", chunk_id, (gint64)sqlite3_column_int64 (stmt, 3));
  else if (!chunk_row_matches_records (stmt, &in_range, &why))
    ok = why != NULL
         ? set_damaged (error, check->path, "slice chunk %" G_GINT64_FORMAT " of track %" G_GINT64_FORMAT
                        " cannot be decoded: %s", chunk_id, (gint64)sqlite3_column_int64 (stmt, 3), why)
         : set_damaged (error, check->path, "a slice chunk of track %" G_GINT64_FORMAT " (chunk %" G_GINT64_FORMAT
                      ") does not match its records", (gint64)sqlite3_column_int64 (stmt, 3), chunk_id);
  else
    ok = TRUE;
  sqlite3_finalize (stmt);

  if (ok)
    {
      g_mutex_lock (&check->lock);
      g_hash_table_insert (check->chunks, key, GINT_TO_POINTER (in_range ? CHECKED : CHECKED_ODD));
      g_mutex_unlock (&check->lock);
    }
  return ok;
}

/* Whether a checked chunk's search summary and sums may stand in for its
 * records: checked against them (or written by this process). */
gboolean
tes_cache_check_chunk_vouched (TesCacheCheck *check,
                               gint64         chunk_id)
{
  gpointer state = NULL;

  if (check == NULL)
    return TRUE;

  g_mutex_lock (&check->lock);
  g_hash_table_lookup_extended (check->chunks, GSIZE_TO_POINTER ((gsize)chunk_id), NULL, &state);
  g_mutex_unlock (&check->lock);

  return GPOINTER_TO_INT (state) == CHECKED;
}

/* A lane summary level's buckets as read (with the checksum stored beside
 * them) against that checksum, the first time only: a reader that reads
 * the level anyway checks what it read, without reading it again. */
static gpointer
lod_key (gint64 track_id,
         int    level)
{
  return GSIZE_TO_POINTER ((gsize)track_id * 256 + (gsize)(level & 0xff));
}

/* Whether the level needs no check (none asked for, or done already). */
static gboolean
lod_checked (TesCacheCheck *check,
             gpointer       key)
{
  gboolean checked;

  if (check == NULL)
    return TRUE;

  g_mutex_lock (&check->lock);
  checked = g_hash_table_contains (check->lod_checked, key);
  g_mutex_unlock (&check->lock);
  return checked;
}

gboolean
tes_cache_check_lod_data (TesCacheCheck  *check,
                          gint64          track_id,
                          int             level,
                          const void     *data,
                          gsize           len,
                          gint64          checksum,
                          GError        **error)
{
  gpointer key = lod_key (track_id, level);

  if (lod_checked (check, key))
    return TRUE;

  if (tes_cache_chunk_checksum (data, len, NULL, 0, NULL, 0, NULL, 0) != checksum)
    return set_damaged (error, check->path, "the lane summary of track %" G_GINT64_FORMAT
                        " does not match its checksum", track_id);

  g_mutex_lock (&check->lock);
  g_hash_table_add (check->lod_checked, key);
  g_mutex_unlock (&check->lock);
  return TRUE;
}

gboolean
tes_cache_check_lod (TesCacheCheck  *check,
                     sqlite3        *db,
                     gint64          track_id,
                     int             level,
                     GError        **error)
{
  sqlite3_stmt *stmt = NULL;
  gboolean ok;

  if (lod_checked (check, lod_key (track_id, level)))
    return TRUE;

  if (sqlite3_prepare_v2 (db, "SELECT data, checksum FROM slice_lod WHERE track_id = ? AND level = ?",
                          -1, &stmt, NULL) != SQLITE_OK)
    {
      sqlite3_finalize (stmt);
      return set_damaged (error, check->path, "the lane summary of track %" G_GINT64_FORMAT " cannot be read (%s)",
                          track_id, sqlite3_errmsg (db));
    }

  sqlite3_bind_int64 (stmt, 1, track_id);
  sqlite3_bind_int (stmt, 2, level);
  if (sqlite3_step (stmt) != SQLITE_ROW)
    ok = set_damaged (error, check->path, "the lane summary of track %" G_GINT64_FORMAT
                      " does not match its checksum", track_id);
  else
    ok = tes_cache_check_lod_data (check, track_id, level, sqlite3_column_blob (stmt, 0),
                                   (gsize)sqlite3_column_bytes (stmt, 0), sqlite3_column_int64 (stmt, 1), error);
  sqlite3_finalize (stmt);

  return ok;
}

typedef struct
{
  const char *path;
  GHashTable *chunks;       /* ids seen */
  gint64      last_id;
  gint64      n_slices;
  gint64      bytes;
  GHashTable *next_index;   /* track id -> index its next chunk starts at */
} ChunkScan;

/* The chunks' rows as the writer leaves them: each track's chunks in id
 * and index order (tracks may interleave), each full but its track's
 * last, data at least as long as its index of n records' blocks. */
static gboolean
check_chunk_row (sqlite3_stmt  *stmt,
                 gpointer       user_data,
                 GError       **error)
{
  ChunkScan *scan = user_data;
  gint64 id = sqlite3_column_int64 (stmt, 0);
  gint64 track_id = sqlite3_column_int64 (stmt, 1);
  gint64 first = sqlite3_column_int64 (stmt, 2);
  gint64 n = sqlite3_column_int64 (stmt, 3);
  gint64 data_len = sqlite3_column_int64 (stmt, 8);
  gpointer key = GSIZE_TO_POINTER ((gsize)track_id);
  gint64 next = GPOINTER_TO_SIZE (g_hash_table_lookup (scan->next_index, key));

  if (id <= scan->last_id || track_id < 1 || first != next || n < 1 || n > TES_CACHE_CHUNK_SLICES ||
      (next % TES_CACHE_CHUNK_SLICES) != 0 ||
      data_len < (gint64)tes_cache_chunk_data_index_len ((guint)n) || sqlite3_column_int64 (stmt, 9) < 0)
    return set_damaged (error, scan->path, "slice chunk %" G_GINT64_FORMAT " of track %" G_GINT64_FORMAT,
                        id, track_id);

  g_hash_table_insert (scan->next_index, key, GSIZE_TO_POINTER ((gsize)(first + n)));
  g_hash_table_insert (scan->chunks, GSIZE_TO_POINTER ((gsize)id), GINT_TO_POINTER (UNCHECKED));
  scan->last_id = id;
  scan->n_slices += n;
  scan->bytes += data_len + sqlite3_column_int64 (stmt, 9);
  return TRUE;
}

static gboolean
sum_lod_bytes (sqlite3_stmt  *stmt,
               gpointer       user_data,
               GError       **error)
{
  *(gint64 *)user_data += sqlite3_column_int64 (stmt, 5);
  return TRUE;
}

static gboolean
read_checksums (TesCacheCheck  *check,
                sqlite3        *db,
                GError        **error)
{
  sqlite3_stmt *stmt = NULL;
  gboolean seen[N_TABLES] = { FALSE };
  int rc;

  if (sqlite3_prepare_v2 (db, "SELECT name, n_rows, hash FROM checksums", -1, &stmt, NULL) != SQLITE_OK)
    {
      sqlite3_finalize (stmt);
      return set_damaged (error, check->path, "its checksums cannot be read (%s)", sqlite3_errmsg (db));
    }

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      int index = table_index ((const char *)sqlite3_column_text (stmt, 0));

      if (index < 0)
        continue;
      seen[index] = TRUE;
      check->n_rows[index] = sqlite3_column_int64 (stmt, 1);
      check->hash[index] = (guint64)sqlite3_column_int64 (stmt, 2);
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    return set_damaged (error, check->path, "its checksums cannot be read (%s)", sqlite3_errmsg (db));

  for (guint i = 0; i < N_TABLES; i++)
    if (!seen[i])
      return set_damaged (error, check->path, "table %s has no checksum", tables[i].name);

  return TRUE;
}

/* meta's counts are what the tables hold: no negative count, none that
 * disagrees with its table's checksum. */
static gboolean
check_counts (TesCacheCheck  *check,
              sqlite3        *db,
              gint64          n_slices,
              GError        **error)
{
  for (guint i = 0; i <= G_N_ELEMENTS (counted); i++)
    {
      const char *key = i < G_N_ELEMENTS (counted) ? counted[i].key : "n_slices";
      gint64 expected = i < G_N_ELEMENTS (counted) ? check->n_rows[table_index (counted[i].table)] : n_slices;
      sqlite3_stmt *stmt = NULL;
      gboolean ok;

      ok = sqlite3_prepare_v2 (db, "SELECT value FROM meta WHERE key = ?", -1, &stmt, NULL) == SQLITE_OK;
      if (ok)
        {
          sqlite3_bind_text (stmt, 1, key, -1, SQLITE_STATIC);
          ok = sqlite3_step (stmt) == SQLITE_ROW &&
               sqlite3_column_type (stmt, 0) != SQLITE_NULL &&
               sqlite3_column_int64 (stmt, 0) == expected;
        }
      sqlite3_finalize (stmt);

      if (!ok)
        return set_damaged (error, check->path, "its count %s does not match its table", key);
    }

  return TRUE;
}

/* The sum of a hash of each (id, track_id, t_min) the query lists, in
 * whatever order: one query reads the chunks' rows, the other the index
 * the window queries go through. */
static gboolean
sum_chunk_keys (sqlite3     *db,
                const char  *sql,
                guint64     *sum)
{
  sqlite3_stmt *stmt = NULL;
  int rc;

  *sum = 0;
  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
    {
      sqlite3_finalize (stmt);
      return FALSE;
    }

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 key[3] = {
        GINT64_TO_LE (sqlite3_column_int64 (stmt, 0)),
        GINT64_TO_LE (sqlite3_column_int64 (stmt, 1)),
        GINT64_TO_LE (sqlite3_column_int64 (stmt, 2)),
      };

      *sum += tes_cache_hash64 ((const guint8 *)key, sizeof key, TES_CACHE_ROW_SEED);
    }
  sqlite3_finalize (stmt);

  return rc == SQLITE_DONE;
}

/* The index of chunks by track and start time must list exactly the
 * chunks the index of their rows lists (which the checksums vouch for,
 * and each table row is checked against when first read): a chunk missing
 * from it, or under another time, would drop its slices from every window
 * without an error. One entry per 16 384 slices, so cheap whatever the
 * cache's size. */
static gboolean
check_chunk_index (sqlite3     *db,
                   const char  *path,
                   GError     **error)
{
  guint64 table, index;

  if (!sum_chunk_keys (db, "SELECT id, track_id, t_min FROM slice_chunks INDEXED BY slice_chunks_rows", &table) ||
      !sum_chunk_keys (db, "SELECT id, track_id, t_min FROM slice_chunks INDEXED BY slice_chunks_track "
                           "WHERE track_id IS NOT NULL", &index) ||
      table != index)
    return set_damaged (error, path, "the index of its slice chunks does not match them");

  return TRUE;
}

/* A small cache is checked whole by SQLite too: every index against its
 * table, every page's structure (a few milliseconds for 4 MiB). */
static gboolean
check_integrity (sqlite3     *db,
                 const char  *path,
                 GError     **error)
{
  sqlite3_stmt *stmt = NULL;
  g_autofree char *first = NULL;

  if (sqlite3_prepare_v2 (db, "PRAGMA integrity_check (1)", -1, &stmt, NULL) == SQLITE_OK &&
      sqlite3_step (stmt) == SQLITE_ROW)
    first = g_strdup ((const char *)sqlite3_column_text (stmt, 0));
  sqlite3_finalize (stmt);

  if (g_strcmp0 (first, "ok") != 0)
    return set_damaged (error, path, "its pages or indexes are inconsistent (%s)",
                        first ? first : sqlite3_errmsg (db));

  return TRUE;
}

/* At open: the checksums are all there, the small tables and the rows of
 * chunks and summaries match them, the counts agree, and when the chunks
 * and summaries are small (or @full) their bytes are verified too. What is
 * left is verified on first read through the returned state. */
static TesCacheCheck *check_new (sqlite3     *db,
                                 const char  *path,
                                 gboolean     full,
                                 GError     **error);

TesCacheCheck *
tes_cache_check_new (sqlite3     *db,
                     const char  *path,
                     gboolean     full,
                     GError     **error)
{
  TesCacheCheck *check = NULL;
  gboolean ok;

  /* one read transaction: one lock for every query below, not one each */
  sqlite3_exec (db, "BEGIN", NULL, NULL, NULL);
  ok = (check = check_new (db, path, full, error)) != NULL;
  sqlite3_exec (db, "COMMIT", NULL, NULL, NULL);

  return ok ? check : NULL;
}

static TesCacheCheck *
check_new (sqlite3     *db,
           const char  *path,
           gboolean     full,
           GError     **error)
{
  TesCacheCheck *check = g_new0 (TesCacheCheck, 1);
  g_autoptr(GHashTable) next_index = g_hash_table_new (NULL, NULL);
  ChunkScan scan = { path, NULL, 0, 0, 0, next_index };
  gint64 lod_bytes = 0;
  sqlite3_stmt *stmt = NULL;
  int rc;

  check->path = g_strdup (path);
  g_mutex_init (&check->lock);
  check->chunks = g_hash_table_new (NULL, NULL);
  check->lod_checked = g_hash_table_new (NULL, NULL);
  scan.chunks = check->chunks;

  if (!read_checksums (check, db, error))
    goto fail;

  for (guint i = 0; i < N_TABLES; i++)
    {
      RowCheck row_check = i == TABLE_SLICE_CHUNKS ? check_chunk_row : i == TABLE_SLICE_LOD ? sum_lod_bytes : NULL;
      gpointer data = i == TABLE_SLICE_CHUNKS ? (gpointer)&scan : (gpointer)&lod_bytes;

      if (!full && !(tables[i].flags & AT_OPEN) && check->n_rows[i] > OPEN_ROWS)
        continue;
      if (!verify_table (check, db, i, row_check, data, error))
        goto fail;
    }

  if (!check_counts (check, db, scan.n_slices, error) ||
      !check_chunk_index (db, path, error))
    goto fail;

  if (!full && scan.bytes + lod_bytes > OPEN_BYTES)
    return check;

  if (!check_integrity (db, path, error))
    goto fail;

  {
    g_autoptr(GList) ids = g_hash_table_get_keys (check->chunks);

    for (GList *l = ids; l != NULL; l = l->next)
      if (!tes_cache_check_chunk (check, db, (gint64)GPOINTER_TO_SIZE (l->data), error))
        goto fail;
  }

  if (sqlite3_prepare_v2 (db, "SELECT track_id, level FROM slice_lod", -1, &stmt, NULL) != SQLITE_OK)
    {
      set_damaged (error, path, "table slice_lod cannot be read (%s)", sqlite3_errmsg (db));
      goto fail;
    }
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    if (!tes_cache_check_lod (check, db, sqlite3_column_int64 (stmt, 0), sqlite3_column_int (stmt, 1), error))
      break;
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    {
      if (error == NULL || *error == NULL)
        set_damaged (error, path, "table slice_lod cannot be read (%s)", sqlite3_errmsg (db));
      goto fail;
    }

  return check;

fail:
  tes_cache_check_free (check);
  return NULL;
}

/* Everything, bytes included: for `tessera-cli cache --list`. */
gboolean
tes_cache_verify (const char  *cache_path,
                  GError     **error)
{
  TesCacheCheck *check;
  sqlite3 *db = NULL;

  g_return_val_if_fail (cache_path != NULL, FALSE);

  if (!tes_cache_open_db (cache_path, SQLITE_OPEN_READONLY, &db, error))
    return FALSE;

  if (!tes_cache_check_db (db, cache_path, error) ||
      !(check = tes_cache_check_new (db, cache_path, TRUE, error)))
    {
      sqlite3_close (db);
      return FALSE;
    }

  tes_cache_check_free (check);
  sqlite3_close (db);
  return TRUE;
}
