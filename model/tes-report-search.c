/* tes-report-search.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-report"

#include "config.h"

#include <string.h>

#include "tes-cache-private.h"
#include "tes-report-private.h"

/* Scans of every slice of the report, for the Execution Trace. Search:
 * every slice whose name, category or
 * argument text holds the pattern. Names and categories are matched once
 * per string (a report has few), then every slice record is checked
 * against that set; argument texts are scanned chunk by chunk, straight
 * from the cache's blobs. */

typedef struct
{
  GRegex  *regex;
  char    *folded;     /* the pattern, ASCII lower case (substring search) */
  gsize    len;
  gsize    anchor;     /* the byte of it that argument texts hold least */
  guint   *trigrams;   /* the trigrams of letters it holds (tes_cache_trigram) */
  guint    n_trigrams;
} Pattern;

/* Letters by how often JSON argument texts hold them, most first: the
 * scan looks for the pattern's rarest byte, so it stops least often. */
static gsize
choose_anchor (const char *folded,
               gsize       len)
{
  static const char common[] = "\":,{} etaoinsrhldcumfpgwybvkxjqz0123456789";
  gsize best = 0;
  gsize best_rank = 0;

  for (gsize i = 0; i < len; i++)
    {
      const char *at = strchr (common, folded[i]);
      gsize rank = at ? (gsize)(at - common) : sizeof common;

      if (rank > best_rank)
        {
          best = i;
          best_rank = rank;
        }
    }

  return best;
}

static gboolean
pattern_matches (const Pattern *pattern,
                 const char    *text,
                 gsize          len)
{
  if (pattern->regex != NULL)
    return g_regex_match_full (pattern->regex, text, (gssize)len, 0, 0, NULL, NULL);

  if (len < pattern->len)
    return FALSE;

  for (gsize i = 0; i + pattern->len <= len; i++)
    if (g_ascii_strncasecmp (text + i, pattern->folded, pattern->len) == 0)
      return TRUE;

  return FALSE;
}

/* The next place in [from, end) where the pattern's first byte stands in
 * either case: memchr does the walking. */
static const char *
next_candidate (const char *from,
                const char *end,
                char        lower,
                char        upper,
                const char **next_lower,
                const char **next_upper)
{
  if (*next_lower != NULL && *next_lower < from)
    *next_lower = memchr (from, lower, end - from);
  if (*next_upper != NULL && *next_upper < from)
    *next_upper = lower == upper ? *next_lower : memchr (from, upper, end - from);

  if (*next_lower == NULL)
    return *next_upper;
  if (*next_upper == NULL)
    return *next_lower;

  return MIN (*next_lower, *next_upper);
}

/* Marks in @hit the slices of a block whose argument text holds the
 * pattern: texts is one run of bytes, text i is [offsets[i], offsets[i + 1])
 * (in order, within the run). */
static void
match_args (const Pattern *pattern,
            const guint32 *offsets,
            const char    *text,
            guint          n,
            guint8        *hit)
{
  if (pattern->regex != NULL)
    {
      for (guint i = 0; i < n; i++)
        if (!hit[i] && offsets[i] < offsets[i + 1] &&
            pattern_matches (pattern, text + offsets[i], offsets[i + 1] - offsets[i]))
          hit[i] = TRUE;
      return;
    }

  /* substring: walk the whole run once, stopping where the pattern's
   * rarest byte stands, and give each occurrence to the slice whose text
   * holds it */
  {
    const char *end = text + offsets[n];
    const char *p = text + pattern->anchor;
    const char *next_lower = text - 1, *next_upper = text - 1;
    char lower = g_ascii_tolower (pattern->folded[pattern->anchor]);
    char upper = g_ascii_toupper (pattern->folded[pattern->anchor]);
    guint slice = 0;

    while ((p = next_candidate (p, end, lower, upper, &next_lower, &next_upper)) != NULL)
      {
        const char *start = p - pattern->anchor;
        gsize at = (gsize)(start - text);

        if (start + pattern->len > end)
          break;

        if (g_ascii_strncasecmp (start, pattern->folded, pattern->len) == 0)
          {
            while (slice + 1 < n && offsets[slice + 1] <= at)
              slice++;
            /* within one slice's text, not across two */
            if (at + pattern->len <= offsets[slice + 1])
              hit[slice] = TRUE;
          }
        p++;
      }
  }
}

typedef gboolean (*ChunkFunc) (gint64                track_id,
                               guint32               first,
                               guint                 n,
                               const TesSliceRecord *records,
                               gpointer              user_data);

/* Reads column @column of chunk @rowid into @buffer through incremental
 * blob I/O: one buffer reused for every chunk, where column_blob() would
 * allocate (and the kernel zero) a fresh one for each. */
static gboolean
read_chunk_blob (sqlite3       *db,
                 sqlite3_blob **blob,
                 const char    *column,
                 gint64         rowid,
                 gsize          len,
                 GByteArray    *buffer)
{
  int rc;

  g_byte_array_set_size (buffer, (guint)len);
  if (len == 0)
    return TRUE;

  if (*blob == NULL)
    rc = sqlite3_blob_open (db, "main", "slice_chunks", column, rowid, 0, blob);
  else
    rc = sqlite3_blob_reopen (*blob, rowid);

  return rc == SQLITE_OK && sqlite3_blob_read (*blob, buffer->data, (int)len, 0) == SQLITE_OK;
}

/* Hands every slice chunk whose rowid is @part modulo @n_parts to @func,
 * in track then index order, its records decoded. */
static gboolean
foreach_chunk (TesReport     *self,
               guint          part,
               guint          n_parts,
               ChunkFunc      func,
               gpointer       user_data,
               GCancellable  *cancellable,
               GError       **error)
{
  g_autoptr(GByteArray) data = g_byte_array_new ();
  g_autoptr(GByteArray) packed = g_byte_array_new ();
  sqlite3_blob *data_blob = NULL;
  sqlite3_stmt *stmt = NULL;
  gboolean ok = FALSE;
  sqlite3 *db;
  int rc;

  if (!(db = tes_report_borrow_db (self, error)))
    return FALSE;

  if (!tes_report_prepare (db, "SELECT rowid, track_id, first_index, n, length (data), max_dur "
                               "FROM slice_chunks WHERE rowid % ?1 = ?2 ORDER BY track_id, first_index",
                           &stmt, error))
    goto out;
  sqlite3_bind_int (stmt, 1, (int)n_parts);
  sqlite3_bind_int (stmt, 2, (int)part);

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 rowid = sqlite3_column_int64 (stmt, 0);
      gint64 track_id = sqlite3_column_int64 (stmt, 1);
      guint32 first = (guint32)sqlite3_column_int64 (stmt, 2);
      guint n = (guint)sqlite3_column_int64 (stmt, 3);
      g_autofree char *why = NULL;
      const TesSliceRecord *records;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        goto out;

      if (!tes_report_check_chunk (self, db, rowid, track_id, sqlite3_column_int64 (stmt, 3),
                                   sqlite3_column_int64 (stmt, 4), sqlite3_column_int64 (stmt, 5),
                                   error))
        goto out;

      g_byte_array_set_size (data, n * sizeof (TesSliceRecord));
      if (!read_chunk_blob (db, &data_blob, "data", rowid, (gsize)sqlite3_column_int64 (stmt, 4), packed))
        {
          tes_cache_set_error (error, db, "Reading slices");
          goto out;
        }
      if (!tes_cache_chunk_unpack_data (packed->data, packed->len, n, (TesSliceRecord *)(gpointer)data->data, &why))
        {
          tes_report_chunk_damaged (self, rowid, track_id, why, error);
          goto out;
        }
      records = (const TesSliceRecord *)(gconstpointer)data->data;
      if (!tes_report_check_slices (self, track_id, first, records, n, error))
        goto out;

      if (!func (track_id, first, n, records, user_data))
        break;
    }

  if (rc != SQLITE_DONE && rc != SQLITE_ROW)
    {
      tes_cache_set_error (error, db, "Reading slices");
      goto out;
    }

  ok = TRUE;

out:
  sqlite3_blob_close (data_blob);
  sqlite3_finalize (stmt);
  tes_report_return_db (self, db);

  return ok;
}

/* One core's share of the search. */
typedef struct
{
  TesReport     *self;
  const Pattern *pattern;
  const guint8  *string_hit;
  guint          part;
  guint          n_parts;
  GCancellable  *cancellable;
  GArray        *matches;    /* TesSearchMatch, by track then index */
  GError        *error;
} Part;

/* Which blocks of a chunk (bit b for block b) hold slices whose name or
 * category matches (@by_name), and which hold slices whose argument
 * texts may match (@by_args), from its search summary: a group whose name
 * and category do not match is ruled out when it has no args, or when its
 * filter lacks a trigram of the pattern (any text holding the pattern holds
 * all of them). */
static gboolean
summary_blocks (Part          *part,
                const guint8  *summary,
                gsize          summary_len,
                guint          n,
                guint32       *by_name,
                guint32       *by_args)
{
  guint n_strings = part->self->strings->len;
  const guint8 *p = summary, *end = summary + summary_len;
  guint n_groups;

  if (summary == NULL || !tes_cache_chunk_search_begin (&p, end, &n_groups))
    return FALSE;

  for (guint g = 0; g < n_groups; g++)
    {
      TesChunkGroup group;
      gboolean ruled_out;

      if (!tes_cache_chunk_search_group (&p, end, n, &group))
        return FALSE;

      if ((group.name < n_strings && part->string_hit[group.name]) ||
          (group.category < n_strings && part->string_hit[group.category]))
        {
          *by_name |= group.blocks;
          continue;
        }

      ruled_out = group.shift == 0;
      for (guint t = 0; t < part->pattern->n_trigrams && !ruled_out; t++)
        ruled_out = !tes_cache_chunk_group_may_hold (&group, part->pattern->trigrams[t]);
      if (!ruled_out)
        *by_args |= group.blocks;
    }

  return p == end;
}

/* Searches one chunk: per block, the names and categories from the data
 * column alone (the other fields are stepped over, not decoded), then the
 * argument texts of the block where they lie after zstd, unless every
 * slice of it matched already. */
static gboolean
search_chunk (Part          *part,
              sqlite3       *db,
              sqlite3_blob **data_blob,
              sqlite3_blob **args_blob,
              gint64         rowid,
              gint64         track_id,
              guint32        first,
              guint          n,
              gsize          data_len,
              gsize          args_len,
              const guint8  *summary,
              gsize          summary_len,
              GByteArray    *data,
              GByteArray    *args,
              GByteArray    *scratch,
              GError       **error)
{
  TesReport *self = part->self;
  guint n_strings = self->strings->len;
  TesSliceRecord recs[TES_CACHE_BLOCK_SLICES];
  guint32 offsets[TES_CACHE_BLOCK_SLICES + 1];
  guint8 hit[TES_CACHE_BLOCK_SLICES];
  gsize index_len = tes_cache_chunk_data_index_len (n);
  gboolean args_read = FALSE;
  guint32 by_name = 0, by_args = 0;

  if (!tes_cache_check_chunk_vouched (self->check, rowid))
    by_name = by_args = G_MAXUINT32;
  else if (!summary_blocks (part, summary, summary_len, n, &by_name, &by_args))
    return tes_report_chunk_damaged (self, rowid, track_id, "search summary cannot be read", error);
  /* no block holds a slice whose name or category matches, or whose
   * argument texts may: nothing to decode */
  if ((by_name | by_args) == 0)
    return TRUE;

  if (!read_chunk_blob (db, data_blob, "data", rowid, data_len, data))
    {
      tes_cache_set_error (error, db, "Reading slices");
      return FALSE;
    }

  for (guint b = 0; b < tes_cache_chunk_n_blocks (n); b++)
    {
      guint m = MIN (TES_CACHE_BLOCK_SLICES, n - b * TES_CACHE_BLOCK_SLICES);
      const char *why = NULL;
      const char *texts;
      gint64 first_start, max_end;
      gsize offset, len;
      guint n_hit = 0;

      if (!(((by_name | by_args) >> b) & 1))
        continue;

      if (!tes_cache_chunk_data_block (data->data, data->len, n, b, &first_start, &max_end, &offset, &len) ||
          offset < index_len || offset + len > data->len)
        why = "lies outside the chunk";
      else
        tes_cache_chunk_unpack_columns (data->data + offset, len, m, first_start,
                                        TES_CACHE_COLUMN_START | TES_CACHE_COLUMN_NAME | TES_CACHE_COLUMN_CATEGORY,
                                        recs, &why);
      if (why != NULL)
        {
          g_autofree char *where = g_strdup_printf ("block %u %s", b, why);

          return tes_report_chunk_damaged (self, rowid, track_id, where, error);
        }

      for (guint i = 0; i < m; i++)
        {
          hit[i] = (recs[i].name < n_strings && part->string_hit[recs[i].name]) ||
                   (recs[i].category < n_strings && part->string_hit[recs[i].category]);
          n_hit += hit[i];
        }

      if (args_len > 0 && n_hit < m && ((by_args >> b) & 1))
        {
          if (!args_read &&
              !(args_read = read_chunk_blob (db, args_blob, "args", rowid, args_len, args)))
            {
              tes_cache_set_error (error, db, "Reading slices");
              return FALSE;
            }
          if (!tes_cache_chunk_args_block (args->data, args->len, n, b, scratch, offsets, &texts, &why))
            {
              g_autofree char *where = g_strdup_printf ("args block %u %s", b, why);

              return tes_report_chunk_damaged (self, rowid, track_id, where, error);
            }
          match_args (part->pattern, offsets, texts, m, hit);
        }

      for (guint i = 0; i < m; i++)
        if (hit[i])
          {
            TesSearchMatch match = { track_id, first + b * TES_CACHE_BLOCK_SLICES + i, recs[i].start };

            g_array_append_val (part->matches, match);
          }
    }

  return TRUE;
}

static gpointer
search_part (gpointer data)
{
  Part *part = data;
  TesReport *self = part->self;
  g_autoptr(GByteArray) chunk_data = g_byte_array_new ();
  g_autoptr(GByteArray) chunk_args = g_byte_array_new ();
  g_autoptr(GByteArray) scratch = g_byte_array_new ();
  sqlite3_blob *data_blob = NULL;
  sqlite3_blob *args_blob = NULL;
  sqlite3_stmt *stmt = NULL;
  GError **error = &part->error;
  sqlite3 *db;
  int rc;

  part->matches = g_array_new (FALSE, FALSE, sizeof (TesSearchMatch));
  if (!(db = tes_report_borrow_db (self, error)))
    return NULL;

  if (!tes_report_prepare (db, "SELECT rowid, track_id, first_index, n, length (data), length (args), max_dur, search "
                               "FROM slice_chunks WHERE rowid % ?1 = ?2 ORDER BY track_id, first_index",
                           &stmt, error))
    goto out;
  sqlite3_bind_int (stmt, 1, (int)part->n_parts);
  sqlite3_bind_int (stmt, 2, (int)part->part);

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 rowid = sqlite3_column_int64 (stmt, 0);
      gint64 track_id = sqlite3_column_int64 (stmt, 1);

      if (g_cancellable_set_error_if_cancelled (part->cancellable, error) ||
          !tes_report_check_chunk (self, db, rowid, track_id, sqlite3_column_int64 (stmt, 3),
                                   sqlite3_column_int64 (stmt, 4), sqlite3_column_int64 (stmt, 6), error) ||
          tes_report_get_track (self, track_id) == NULL ||
          !search_chunk (part, db, &data_blob, &args_blob, rowid, track_id,
                         (guint32)sqlite3_column_int64 (stmt, 2), (guint)sqlite3_column_int64 (stmt, 3),
                         (gsize)sqlite3_column_int64 (stmt, 4), (gsize)sqlite3_column_int64 (stmt, 5),
                         sqlite3_column_blob (stmt, 7), (gsize)sqlite3_column_bytes (stmt, 7),
                         chunk_data, chunk_args, scratch, error))
        {
          if (*error == NULL)
            tes_report_set_damaged (error, self, "slices of track %" G_GINT64_FORMAT ", which is not there",
                                    track_id);
          goto out;
        }
    }

  if (rc != SQLITE_DONE)
    tes_cache_set_error (error, db, "Reading slices");

out:
  sqlite3_blob_close (data_blob);
  sqlite3_blob_close (args_blob);
  sqlite3_finalize (stmt);
  tes_report_return_db (self, db);

  return NULL;
}

static int
compare_found (gconstpointer a,
               gconstpointer b)
{
  const TesSearchMatch *x = a, *y = b;

  if (x->track_id != y->track_id)
    return x->track_id < y->track_id ? -1 : 1;

  return x->index < y->index ? -1 : x->index > y->index;
}

/**
 * tes_report_search:
 * @pattern: text (matched without regard to ASCII case) or, with
 *   @is_regex, a regular expression (caseless)
 *
 * Returns: (transfer full): the matching slices (TesSearchMatch), track
 *   by track in id order, in start order within a track
 */
GArray *
tes_report_search (TesReport     *self,
                   const char    *pattern_text,
                   gboolean       is_regex,
                   GCancellable  *cancellable,
                   GError       **error)
{
  g_autoptr(GArray) matches = g_array_new (FALSE, FALSE, sizeof (TesSearchMatch));
  g_autofree guint8 *string_hit = NULL;
  Pattern pattern = { 0 };
  Part parts[4] = { 0 };
  GThread *threads[4] = { 0 };
  guint n_parts = CLAMP (g_get_num_processors (), 1, G_N_ELEMENTS (parts));
  GError *failed = NULL;

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);
  g_return_val_if_fail (pattern_text != NULL, NULL);

  if (is_regex)
    {
      if (!(pattern.regex = g_regex_new (pattern_text, G_REGEX_CASELESS | G_REGEX_OPTIMIZE | G_REGEX_RAW, 0, error)))
        return NULL;
    }
  else
    {
      if (*pattern_text == '\0')
        return g_steal_pointer (&matches);
      pattern.folded = g_ascii_strdown (pattern_text, -1);
      pattern.len = strlen (pattern.folded);
      pattern.anchor = choose_anchor (pattern.folded, pattern.len);
      pattern.trigrams = g_new (guint, MAX (pattern.len, 1));
      for (gsize i = 0; i + 3 <= pattern.len; i++)
        {
          gint t = tes_cache_trigram (pattern.folded + i);

          if (t >= 0)
            pattern.trigrams[pattern.n_trigrams++] = (guint)t;
        }
    }

  /* names and categories: one test per string */
  string_hit = g_new0 (guint8, self->strings->len);
  for (guint id = 1; id < self->strings->len; id++)
    {
      const char *str = g_ptr_array_index (self->strings, id);

      string_hit[id] = str != NULL && pattern_matches (&pattern, str, strlen (str));
    }

  /* the slices: a share of the chunks for each core, this thread too */
  for (guint i = 0; i < n_parts; i++)
    {
      parts[i] = (Part) { self, &pattern, string_hit, i, n_parts, cancellable, NULL, NULL };
      if (i > 0)
        threads[i] = g_thread_new ("tes-search", search_part, &parts[i]);
    }
  search_part (&parts[0]);

  for (guint i = 0; i < n_parts; i++)
    {
      if (threads[i] != NULL)
        g_thread_join (threads[i]);
      if (parts[i].error != NULL && failed == NULL)
        failed = g_steal_pointer (&parts[i].error);
      g_clear_error (&parts[i].error);
      if (failed == NULL)
        g_array_append_vals (matches, parts[i].matches->data, parts[i].matches->len);
      g_clear_pointer (&parts[i].matches, g_array_unref);
    }

  g_clear_pointer (&pattern.regex, g_regex_unref);
  g_free (pattern.folded);
  g_free (pattern.trigrams);

  if (failed != NULL)
    {
      g_propagate_error (error, failed);
      return NULL;
    }

  if (n_parts > 1)
    g_array_sort (matches, compare_found);

  return g_steal_pointer (&matches);
}

typedef struct
{
  TesReport *self;
  guint32    name;
  GArray    *durations;
} DurationScan;

static gboolean
collect_durations (gint64                track_id,
                   guint32               first,
                   guint                 n,
                   const TesSliceRecord *records,
                   gpointer              user_data)
{
  DurationScan *scan = user_data;
  const TesTrack *track = tes_report_get_track (scan->self, track_id);
  gint64 zero = tes_report_convert_time (scan->self, track->clock_id, 0, 0);

  for (guint i = 0; i < n; i++)
    if (records[i].name == scan->name)
      {
        gint64 ns = tes_report_convert_time (scan->self, track->clock_id, 0, records[i].dur) - zero;

        g_array_append_val (scan->durations, ns);
      }

  return TRUE;
}

/**
 * tes_report_get_durations:
 * @name: a string id: the slices' name
 *
 * Returns: (transfer full): the duration in ns of every slice of that
 *   name in the report, in no particular order (what a histogram of one
 *   operator needs, as Tracy's Find Zone)
 */
GArray *
tes_report_get_durations (TesReport     *self,
                          guint32        name,
                          GCancellable  *cancellable,
                          GError       **error)
{
  DurationScan scan = { self, name, g_array_new (FALSE, FALSE, sizeof (gint64)) };

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  if (!foreach_chunk (self, 0, 1, collect_durations, &scan, cancellable, error))
    {
      g_array_unref (scan.durations);
      return NULL;
    }

  return scan.durations;
}
