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
GArray *
tes_report_get_flows (TesReport  *self,
                      gint64      t0,
                      gint64      t1,
                      GError    **error)
{
  g_autoptr(GArray) flows = g_array_new (FALSE, FALSE, sizeof (TesFlow));
  sqlite3_stmt *stmt = NULL;
  sqlite3 *db;
  int rc;

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  if (self->counts.n_flows == 0)
    return g_steal_pointer (&flows);

  if (!(db = tes_report_borrow_db (self, error)))
    return NULL;

  if (!tes_report_prepare_checked (self, db,
                                   "SELECT id, name, category, from_track, from_ts, to_track, to_ts FROM flows ORDER BY from_ts",
                                   &stmt, error))
    {
      tes_report_return_db (self, db);
      return NULL;
    }

  /* a few per hundred slices: read them all, keep those in the range */
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      TesFlow flow = {
        .id = sqlite3_column_int64 (stmt, 0),
        .name = (guint32)sqlite3_column_int64 (stmt, 1),
        .category = (guint32)sqlite3_column_int64 (stmt, 2),
        .from_track = sqlite3_column_int64 (stmt, 3),
        .to_track = sqlite3_column_int64 (stmt, 5),
      };
      const TesTrack *from = tes_report_get_track (self, flow.from_track);
      const TesTrack *to = tes_report_get_track (self, flow.to_track);

      if (from == NULL || to == NULL)
        continue;

      flow.from_ts = tes_report_convert_time (self, from->clock_id, 0, sqlite3_column_int64 (stmt, 4));
      flow.to_ts = tes_report_convert_time (self, to->clock_id, 0, sqlite3_column_int64 (stmt, 6));
      if ((flow.from_ts >= t0 && flow.from_ts <= t1) || (flow.to_ts >= t0 && flow.to_ts <= t1) ||
          (flow.from_ts < t0 && flow.to_ts > t1))
        g_array_append_val (flows, flow);
    }

  if (rc != SQLITE_DONE)
    tes_cache_set_error (error, db, "Reading flows");
  sqlite3_finalize (stmt);
  tes_report_return_db (self, db);

  return rc == SQLITE_DONE ? g_steal_pointer (&flows) : NULL;
}
