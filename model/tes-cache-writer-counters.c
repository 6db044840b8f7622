/* tes-cache-writer-counters.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-cache-writer"

#include "config.h"

#include "tes-cache-writer-private.h"

#include <math.h>

/* A counter series' summary levels, in slice_lod beside the slices' (a
 * track is one or the other): the whole run of a counter with 50,000
 * samples read row by row cost 20 ms of a 28 ms frame. Written at the
 * commit, from counter_values in index order, whatever order the
 * importer wrote the samples in. */

typedef struct
{
  gint64  track_id;
  gint64  n;
  gint64  t_min;
  gint64  t_max;
} CounterSpan;

static void
bucket_add (TesCounterLodBucket *bucket,
            double               min,
            double               max,
            double               last)
{
  if (isnan (bucket->min))
    {
      bucket->min = min;
      bucket->max = max;
    }
  else
    {
      bucket->min = MIN (bucket->min, min);
      bucket->max = MAX (bucket->max, max);
    }
  bucket->last = last;
}

static TesCounterLodBucket *
buckets_new (guint n)
{
  TesCounterLodBucket *buckets = g_new (TesCounterLodBucket, n);

  for (guint i = 0; i < n; i++)
    buckets[i] = (TesCounterLodBucket) { NAN, NAN, NAN };

  return buckets;
}

/* Level 0, then each level merging four buckets of the one below, down to
 * TES_CACHE_LOD_MIN_BUCKETS, as the slices' levels. Takes @level. */
static gboolean
store_levels (TesCacheWriter      *self,
              const CounterSpan   *span,
              guint                shift,
              guint                nb,
              TesCounterLodBucket *level)
{
  for (guint lvl = 0;; lvl++)
    {
      TesCounterLodBucket *next;

      if (!tes_cache_writer_store_lod_level (self, span->track_id, lvl, shift, span->t_min, nb,
                                             level, nb * sizeof (TesCounterLodBucket)))
        {
          g_free (level);
          return FALSE;
        }
      if (nb <= TES_CACHE_LOD_MIN_BUCKETS)
        break;

      next = buckets_new ((nb + 3) / 4);
      for (guint i = 0; i < nb; i++)
        if (!isnan (level[i].min))
          bucket_add (&next[i / 4], level[i].min, level[i].max, level[i].last);
      g_free (level);
      level = next;
      nb = (nb + 3) / 4;
      shift += 2;
    }
  g_free (level);

  return TRUE;
}

/* Every counter track with enough samples for a summary, and their span:
 * a track of the counter kind without slices (a track has one summary, of
 * its slices or of its samples; tes_report_get_counter () reads the
 * latter on such a track only). */
static GArray *
counter_spans (sqlite3  *db,
               GError  **error)
{
  g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, sizeof (CounterSpan));
  g_autofree char *sql = g_strdup_printf ("SELECT c.track_id, count(*), min (c.ts), max (c.ts) FROM counter_values c "
                                          "JOIN tracks t ON t.id = c.track_id WHERE t.kind = %d AND t.n_slices = 0 "
                                          "GROUP BY c.track_id",
                                          TES_TRACK_COUNTER);
  sqlite3_stmt *stmt = NULL;
  int rc;

  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
    {
      tes_cache_set_error (error, db, "Listing counters");
      sqlite3_finalize (stmt);
      return NULL;
    }
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      CounterSpan span = {
        sqlite3_column_int64 (stmt, 0), sqlite3_column_int64 (stmt, 1),
        sqlite3_column_int64 (stmt, 2), sqlite3_column_int64 (stmt, 3),
      };

      if (span.n >= TES_CACHE_LOD_MIN_SLICES)
        g_array_append_val (spans, span);
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    {
      tes_cache_set_error (error, db, "Listing counters");
      return NULL;
    }

  return g_steal_pointer (&spans);
}

/* Needs counter_values' index on (track_id, ts, value): the samples are
 * read in time order from the index alone. */
gboolean
tes_cache_writer_store_counter_lod (TesCacheWriter  *self,
                                    GCancellable    *cancellable,
                                    GError         **error)
{
  sqlite3 *db = self->db;
  g_autoptr(GArray) spans = NULL;
  sqlite3_stmt *samples = NULL;
  gboolean ok = FALSE;
  gint64 started = g_get_monotonic_time ();

  if (!(spans = counter_spans (db, error)))
    return FALSE;
  if (spans->len == 0)
    return TRUE;

  if (!tes_cache_writer_prepare_statements (self))
    {
      g_propagate_error (error, g_steal_pointer (&self->error));
      return FALSE;
    }
  if (sqlite3_prepare_v2 (db, "SELECT ts, value FROM counter_values WHERE track_id = ? ORDER BY ts",
                          -1, &samples, NULL) != SQLITE_OK)
    {
      tes_cache_set_error (error, db, "Preparing counters' summaries");
      goto out;
    }

  for (guint i = 0; i < spans->len; i++)
    {
      const CounterSpan *span = &g_array_index (spans, CounterSpan, i);
      TesCounterLodBucket *level;
      guint shift, nb;
      int rc;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        goto out;
      if (!tes_lod_shape ((guint64)span->n, span->t_min, span->t_max, &shift, &nb))
        continue;

      level = buckets_new (nb);
      sqlite3_reset (samples);
      sqlite3_bind_int64 (samples, 1, span->track_id);
      while ((rc = sqlite3_step (samples)) == SQLITE_ROW)
        {
          /* unsigned: the span may be 2^63 wide */
          guint64 offset = (guint64)sqlite3_column_int64 (samples, 0) - (guint64)span->t_min;
          double value = sqlite3_column_double (samples, 1);

          bucket_add (&level[MIN (offset >> shift, nb - 1)], value, value, value);
        }
      if (rc != SQLITE_DONE)
        {
          tes_cache_set_error (error, db, "Reading counter values");
          g_free (level);
          goto out;
        }
      if (!store_levels (self, span, shift, nb, level))
        {
          g_propagate_error (error, g_steal_pointer (&self->error));
          goto out;
        }
    }
  g_debug ("%u counters' summaries in %.1f ms", spans->len, (g_get_monotonic_time () - started) / 1000.0);
  ok = TRUE;

out:
  sqlite3_finalize (samples);

  return ok;
}
