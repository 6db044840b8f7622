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

#include <math.h>

/* What the Execution Trace draws beside slices: counter series as small
 * charts, and flows as arrows between lanes. */

/* A counter's columns as its samples (or its summary's buckets) come, in
 * time order. */
typedef struct
{
  TesCounterBucket *buckets;
  guint             n_buckets;
  gint64            t0;
  gint64            t1;
  guint             filled;    /* columns before this one have their carried value */
  gboolean          have;      /* a value is in force */
  double            value;
} CounterFill;

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

/* Values from @min to @max at @ts, @last the one left in force: one
 * sample, or a summary bucket (placed at its middle). */
static void
fill_add (CounterFill *fill,
          gint64       ts,
          double       min,
          double       max,
          double       last)
{
  guint b = (guint)MIN ((__int128)(ts - fill->t0) * fill->n_buckets / (fill->t1 - fill->t0),
                        (__int128)fill->n_buckets - 1);

  /* the columns before this one hold the value before it, and so does
   * this one up to its first sample */
  for (; fill->filled < b; fill->filled++)
    if (fill->have)
      bucket_add (&fill->buckets[fill->filled], fill->value);
  if (fill->have && fill->filled == b && !fill->buckets[b].has_value)
    bucket_add (&fill->buckets[b], fill->value);

  bucket_add (&fill->buckets[b], min);
  bucket_add (&fill->buckets[b], max);
  fill->buckets[b].last = last;
  fill->value = last;
  fill->have = TRUE;
}

/* The samples in [lo, hi), from counter_values' index. No query for a
 * part outside the track's extent: the first query of a table checks all
 * of it, and the whole run needs none (its summary answers). */
static gboolean
fill_from_samples (TesReport       *self,
                   sqlite3         *db,
                   sqlite3_stmt   **stmt,
                   const TesTrack  *track,
                   gint64           lo,
                   gint64           hi,
                   CounterFill     *fill,
                   GError         **error)
{
  int rc;

  if (!track->has_extent || lo >= hi || lo > track->t_max || hi <= track->t_min)
    return TRUE;
  if (*stmt == NULL &&
      !tes_report_prepare_checked (self, db,
                                   "SELECT ts, value FROM counter_values WHERE track_id = ? AND ts >= ? AND ts < ? "
                                   "ORDER BY ts",
                                   stmt, error))
    return FALSE;
  sqlite3_reset (*stmt);
  sqlite3_bind_int64 (*stmt, 1, track->id);
  sqlite3_bind_int64 (*stmt, 2, lo);
  sqlite3_bind_int64 (*stmt, 3, hi);

  while ((rc = sqlite3_step (*stmt)) == SQLITE_ROW)
    {
      double value = sqlite3_column_double (*stmt, 1);

      fill_add (fill, sqlite3_column_int64 (*stmt, 0), value, value, value);
    }
  if (rc != SQLITE_DONE)
    {
      tes_cache_set_error (error, db, "Reading counter values");
      return FALSE;
    }

  return TRUE;
}

/* [t0, t1) from the coarsest summary level whose buckets fit four to a
 * column: the buckets wholly inside, the samples of the parts at either end. The
 * columns' figures are the samples' own; a bucket across two columns
 * counts in the one holding its middle. FALSE in @answered when columns
 * are finer than every level (or the counter has too few samples for a
 * summary). */
static gboolean
fill_from_summary (TesReport       *self,
                   sqlite3         *db,
                   sqlite3_stmt   **stmt,
                   const TesTrack  *track,
                   CounterFill     *fill,
                   gboolean        *answered,
                   GError         **error)
{
  gint64 track_id = track->id;
  gint64 column = (gint64)(((__int128)fill->t1 - fill->t0) / fill->n_buckets);
  g_autoptr(GBytes) data = NULL;
  const TesCounterLodBucket *level;
  TesReportLod lod;
  gint64 first, last, lo, hi;

  *answered = FALSE;
  if (!tes_report_lod_for_column (self, db, track_id, column, TRUE, &lod, &data, error))
    return FALSE;
  if (data == NULL)
    return TRUE;
  level = g_bytes_get_data (data, NULL);

  /* the buckets whose samples are all in [t0, t1): all of them at the
   * whole run */
  first = fill->t0 <= MAX (lod.base, track->t_min) ? 0
          : (gint64)((((__int128)fill->t0 - lod.base) + ((gint64)1 << lod.shift) - 1) >> lod.shift);
  last = fill->t1 > track->t_max ? lod.n - 1
         : fill->t1 <= lod.base ? -1 : (gint64)MIN (lod.n, ((__int128)fill->t1 - lod.base) >> lod.shift) - 1;
  if (first > last)
    return TRUE;
  lo = lod.base + (first << lod.shift);
  hi = lod.base + ((last + 1) << lod.shift);

  for (gint64 b = first; b <= last; b++)
    if (!isnan (level[b].min) &&
        !(level[b].min <= level[b].last && level[b].last <= level[b].max))
      return tes_report_set_damaged (error, self, "bucket %" G_GINT64_FORMAT " of the summary of counter %"
                                     G_GINT64_FORMAT, b, track_id);

  if (!fill_from_samples (self, db, stmt, track, fill->t0, lo, fill, error))
    return FALSE;
  /* each bucket at its middle, but the first at its first sample (the
   * series' first, which starts it): the series starts in its column */
  for (gint64 b = first; b <= last; b++)
    if (!isnan (level[b].min))
      fill_add (fill, lod.base + (b << lod.shift) + (b > 0 ? ((gint64)1 << lod.shift) / 2 : 0),
                level[b].min, level[b].max, level[b].last);
  if (!fill_from_samples (self, db, stmt, track, hi, fill->t1, fill, error))
    return FALSE;

  *answered = TRUE;
  return TRUE;
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
 * last sample. Zoomed out, from the counter's summary levels, so that a
 * frame costs its columns, not its samples.
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
  CounterFill fill = { NULL, n_buckets, t0, t1, 0, FALSE, 0 };
  gboolean answered = FALSE;

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
  fill.buckets = (TesCounterBucket *)(gpointer)buckets->data;

  if (!(db = tes_report_borrow_db (self, error)))
    return NULL;

  /* the value in force at t0 (none before the track's extent) */
  if (track->has_extent && t0 > track->t_min)
    {
      if (!tes_report_prepare_checked (self, db,
                                       "SELECT value FROM counter_values WHERE track_id = ? AND ts < ? "
                                       "ORDER BY ts DESC LIMIT 1",
                                       &stmt, error))
        goto fail;
      sqlite3_bind_int64 (stmt, 1, track_id);
      sqlite3_bind_int64 (stmt, 2, t0);
      if (sqlite3_step (stmt) == SQLITE_ROW)
        {
          fill.value = sqlite3_column_double (stmt, 0);
          fill.have = TRUE;
        }
      g_clear_pointer (&stmt, sqlite3_finalize);
    }

  if (!fill_from_summary (self, db, &stmt, track, &fill, &answered, error) ||
      (!answered && !fill_from_samples (self, db, &stmt, track, t0, t1, &fill, error)))
    goto fail;

  /* the last value holds to the end of the series */
  if (fill.have && track->has_extent)
    {
      for (; fill.filled < n_buckets; fill.filled++)
        {
          gint64 lo = t0 + (gint64)((__int128)(t1 - t0) * fill.filled / n_buckets);

          if (lo > track->t_max)
            break;
          bucket_add (&fill.buckets[fill.filled], fill.value);
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
