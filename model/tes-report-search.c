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

/* Search for the Execution Trace: every slice whose name, category or
 * argument text holds the pattern. Names and categories are matched once
 * per string (a report has few), then every slice record is checked
 * against that set; argument texts are scanned chunk by chunk, straight
 * from the cache's blobs. */

typedef struct
{
  GRegex  *regex;
  char    *folded;     /* the pattern, ASCII lower case (substring search) */
  gsize    len;
} Pattern;

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

/* Marks in @hit the slices of a chunk whose argument text holds the
 * pattern. The texts are one run of bytes, with n + 1 offsets before it. */
static void
match_args (const Pattern *pattern,
            const guint8  *blob,
            gsize          len,
            guint          n,
            guint8        *hit)
{
  const guint32 *offsets = (const guint32 *)(gconstpointer)blob;
  const char *text;
  gsize text_len;

  if (blob == NULL || len < (n + 1) * sizeof (guint32))
    return;

  text = (const char *)blob + (n + 1) * sizeof (guint32);
  text_len = len - (n + 1) * sizeof (guint32);
  if (offsets[n] > text_len)
    return;

  if (pattern->regex != NULL)
    {
      for (guint i = 0; i < n; i++)
        if (!hit[i] && offsets[i] < offsets[i + 1] &&
            pattern_matches (pattern, text + offsets[i], offsets[i + 1] - offsets[i]))
          hit[i] = TRUE;
      return;
    }

  /* substring: walk the whole run once, and give each occurrence to the
   * slice whose text holds it */
  {
    const char *end = text + offsets[n];
    const char *p = text;
    const char *next_lower = text - 1, *next_upper = text - 1;
    char lower = g_ascii_tolower (pattern->folded[0]);
    char upper = g_ascii_toupper (pattern->folded[0]);
    guint slice = 0;

    while ((p = next_candidate (p, end, lower, upper, &next_lower, &next_upper)) != NULL &&
           p + pattern->len <= end)
      {
        gsize at = (gsize)(p - text);

        if (g_ascii_strncasecmp (p, pattern->folded, pattern->len) == 0)
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
  g_autofree guint8 *hit = NULL;
  Pattern pattern = { 0 };
  sqlite3_stmt *stmt = NULL;
  sqlite3 *db = NULL;
  gboolean ok = FALSE;
  guint hit_size = 0;
  int rc;

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
    }

  /* names and categories: one test per string */
  string_hit = g_new0 (guint8, self->strings->len);
  for (guint id = 1; id < self->strings->len; id++)
    {
      const char *str = g_ptr_array_index (self->strings, id);

      string_hit[id] = str != NULL && pattern_matches (&pattern, str, strlen (str));
    }

  if (!(db = tes_report_borrow_db (self, error)))
    goto out;

  if (!tes_report_prepare (db, "SELECT track_id, first_index, n, data, args FROM slice_chunks "
                               "ORDER BY track_id, first_index",
                           &stmt, error))
    goto out;

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 track_id = sqlite3_column_int64 (stmt, 0);
      guint32 first = (guint32)sqlite3_column_int64 (stmt, 1);
      guint n = (guint)sqlite3_column_int64 (stmt, 2);
      const TesSliceRecord *records = sqlite3_column_blob (stmt, 3);

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        goto out;

      if ((gsize)sqlite3_column_bytes (stmt, 3) != n * sizeof (TesSliceRecord))
        {
          g_set_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_SCHEMA,
                       "Cache %s: slice chunk of track %" G_GINT64_FORMAT " has a wrong size",
                       self->cache_path, track_id);
          goto out;
        }

      if (n > hit_size)
        {
          hit = g_renew (guint8, hit, n);
          hit_size = n;
        }

      for (guint i = 0; i < n; i++)
        {
          guint32 name = records[i].name, category = records[i].category;

          hit[i] = (name < self->strings->len && string_hit[name]) ||
                   (category < self->strings->len && string_hit[category]);
        }

      match_args (&pattern, sqlite3_column_blob (stmt, 4), (gsize)sqlite3_column_bytes (stmt, 4), n, hit);

      for (guint i = 0; i < n; i++)
        if (hit[i])
          {
            TesSearchMatch match = { track_id, first + i, records[i].start };

            g_array_append_val (matches, match);
          }
    }

  if (rc != SQLITE_DONE)
    {
      tes_cache_set_error (error, db, "Searching slices");
      goto out;
    }

  ok = TRUE;

out:
  sqlite3_finalize (stmt);
  if (db != NULL)
    tes_report_return_db (self, db);
  g_clear_pointer (&pattern.regex, g_regex_unref);
  g_free (pattern.folded);

  return ok ? g_steal_pointer (&matches) : NULL;
}
