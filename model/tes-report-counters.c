/* tes-report-counters.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-report"

#include "config.h"

#include "tes-cache-private.h"
#include "tes-report-private.h"

/* What the Execution Trace draws beside slices: counter series as small
 * charts, and flows as arrows between lanes. */

static void
bucket_add (TesCounterBucket *bucket,
            double            value)
{
  if (!bucket->has_value)
    {
      bucket->min = bucket->max = value;
      bucket->has_value = TRUE;
    }
  else
    {
      bucket->min = MIN (bucket->min, value);
      bucket->max = MAX (bucket->max, value);
    }
  bucket->last = value;
}

/**
 * tes_report_get_counter:
 * @t0: start, in the track's ticks
 * @t1: end (after @t0)
 *
 * A counter track over [t0, t1) in @n_buckets columns: in each, the
 * lowest and highest value the series takes there and the last. A counter
 * holds its value until the next sample (it is a step function), so a
 * column without samples carries the value before it, up to the track's
 * last sample.
 *
 * Returns: (transfer full): TesCounterBucket × @n_buckets
 */
GArray *
tes_report_get_counter (TesReport  *self,
                        gint64      track_id,
                        gint64      t0,
                        gint64      t1,
                        guint       n_buckets,
                        GError    **error)
{
  g_autoptr(GArray) buckets = NULL;
  const TesTrack *track;
  sqlite3_stmt *stmt = NULL;
  sqlite3 *db;
  gboolean have = FALSE;
  double value = 0;
  guint filled = 0;
  int rc;

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);
  g_return_val_if_fail (n_buckets > 0 && t1 > t0, NULL);

  if (!(track = tes_report_get_track (self, track_id)))
    {
      g_set_error (error, TES_REPORT_ERROR, TES_REPORT_ERROR_NOT_FOUND,
                   "No track %" G_GINT64_FORMAT " in %s", track_id, self->cache_path);
      return NULL;
    }

  buckets = g_array_sized_new (FALSE, TRUE, sizeof (TesCounterBucket), n_buckets);
  g_array_set_size (buckets, n_buckets);

  if (!(db = tes_report_borrow_db (self, error)))
    return NULL;

  /* the value in force at t0 */
  if (!tes_report_prepare_checked (self, db,
                                   "SELECT value FROM counter_values WHERE track_id = ? AND ts < ? "
                                   "ORDER BY ts DESC LIMIT 1",
                                   &stmt, error))
    goto fail;
  sqlite3_bind_int64 (stmt, 1, track_id);
  sqlite3_bind_int64 (stmt, 2, t0);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    {
      value = sqlite3_column_double (stmt, 0);
      have = TRUE;
    }
  sqlite3_finalize (stmt);
  stmt = NULL;

  if (!tes_report_prepare_checked (self, db,
                                   "SELECT ts, value FROM counter_values WHERE track_id = ? AND ts >= ? AND ts < ? "
                                   "ORDER BY ts",
                                   &stmt, error))
    goto fail;
  sqlite3_bind_int64 (stmt, 1, track_id);
  sqlite3_bind_int64 (stmt, 2, t0);
  sqlite3_bind_int64 (stmt, 3, t1);

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 ts = sqlite3_column_int64 (stmt, 0);
      guint b = (guint)MIN ((__int128)(ts - t0) * n_buckets / (t1 - t0), (__int128)n_buckets - 1);

      /* the columns before this sample hold the value before it */
      for (; filled < b; filled++)
        if (have)
          bucket_add (&g_array_index (buckets, TesCounterBucket, filled), value);
      if (have && filled == b && !g_array_index (buckets, TesCounterBucket, b).has_value)
        bucket_add (&g_array_index (buckets, TesCounterBucket, b), value);

      value = sqlite3_column_double (stmt, 1);
      have = TRUE;
      bucket_add (&g_array_index (buckets, TesCounterBucket, b), value);
    }
  if (rc != SQLITE_DONE)
    {
      tes_cache_set_error (error, db, "Reading counter values");
      goto fail;
    }

  /* the last value holds to the end of the series */
  if (have && track->has_extent)
    {
      for (; filled < n_buckets; filled++)
        {
          gint64 lo = t0 + (gint64)((__int128)(t1 - t0) * filled / n_buckets);

          if (lo > track->t_max)
            break;
          bucket_add (&g_array_index (buckets, TesCounterBucket, filled), value);
        }
    }

  sqlite3_finalize (stmt);
  tes_report_return_db (self, db);

  return g_steal_pointer (&buckets);

fail:
  sqlite3_finalize (stmt);
  tes_report_return_db (self, db);
  return NULL;
}

/**
 * tes_report_get_flows:
 * @t0: start, ns
 * @t1: end, ns
 *
 * Returns: (transfer full): the flows (TesFlow, times in ns) with an end
 *   in [t0, t1]
 */
typedef struct
{
  gint64  from_ts;    /* in its track's ticks, as stored: the order */
  TesFlow flow;
} SortedFlow;

static int
compare_flows (gconstpointer a,
               gconstpointer b)
{
  const SortedFlow *x = a, *y = b;

  if (x->from_ts != y->from_ts)
    return x->from_ts < y->from_ts ? -1 : 1;
  return x->flow.id < y->flow.id ? -1 : x->flow.id > y->flow.id;
}

GArray *
tes_report_get_flows (TesReport  *self,
                      gint64      t0,
                      gint64      t1,
                      GError    **error)
{
  g_autoptr(GArray) kept = g_array_new (FALSE, FALSE, sizeof (SortedFlow));
  g_autoptr(GArray) flows = NULL;
  g_autofree gint64 *rows = NULL;
  gboolean ok = TRUE;
  sqlite3_stmt *stmt = NULL;
  sqlite3 *db;
  int rc;

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  if (self->counts.n_flows == 0)
    return g_array_new (FALSE, FALSE, sizeof (TesFlow));

  if (!(db = tes_report_borrow_db (self, error)))
    return NULL;

  if (!tes_report_prepare_checked (self, db, "SELECT id, n, data FROM flows ORDER BY id", &stmt, error))
    {
      tes_report_return_db (self, db);
      return NULL;
    }

  /* a few per hundred slices: read them all, keep those in the range */
  rows = g_new (gint64, TES_CACHE_FLOW_BLOCK * 6);
  while (ok && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 first_id = sqlite3_column_int64 (stmt, 0);
      gint64 n = sqlite3_column_int64 (stmt, 1);

      if (n < 1 || n > TES_CACHE_FLOW_BLOCK ||
          !tes_cache_flows_unpack (sqlite3_column_blob (stmt, 2), (gsize)sqlite3_column_bytes (stmt, 2),
                                   (guint)n, rows))
        {
          ok = tes_report_set_damaged (error, self, "the flows from id %" G_GINT64_FORMAT, first_id);
          break;
        }

      for (gint64 i = 0; i < n; i++)
        {
          const gint64 *r = &rows[i * 6];
          SortedFlow sorted = {
            .from_ts = r[3],
            .flow = {
              .id = first_id + i,
              .name = (guint32)r[0],
              .category = (guint32)r[1],
              .from_track = r[2],
              .to_track = r[4],
            },
          };
          TesFlow *flow = &sorted.flow;
          const TesTrack *from = tes_report_get_track (self, flow->from_track);
          const TesTrack *to = tes_report_get_track (self, flow->to_track);

          if (from == NULL || to == NULL)
            continue;

          flow->from_ts = tes_report_convert_time (self, from->clock_id, 0, r[3]);
          flow->to_ts = tes_report_convert_time (self, to->clock_id, 0, r[5]);
          if ((flow->from_ts >= t0 && flow->from_ts <= t1) || (flow->to_ts >= t0 && flow->to_ts <= t1) ||
              (flow->from_ts < t0 && flow->to_ts > t1))
            g_array_append_val (kept, sorted);
        }
    }

  if (ok && rc != SQLITE_DONE)
    {
      tes_cache_set_error (error, db, "Reading flows");
      ok = FALSE;
    }
  sqlite3_finalize (stmt);
  tes_report_return_db (self, db);
  if (!ok)
    return NULL;

  /* by start, as they are drawn */
  g_array_sort (kept, compare_flows);
  flows = g_array_sized_new (FALSE, FALSE, sizeof (TesFlow), kept->len);
  for (guint i = 0; i < kept->len; i++)
    g_array_append_val (flows, g_array_index (kept, SortedFlow, i).flow);

  return g_steal_pointer (&flows);
}
