/* tes-report-aggregate.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-report"

#include "config.h"

#include "tes-cache-private.h"
#include "tes-report-private.h"

#include <string.h>

/* Count, total, self time, shortest and longest per group over a window
 * of tracks, split between the cores, from the chunks' stored sums where
 * a chunk lies wholly within the window (tes-report-trace.c reads the
 * slices). */

/* One core's share of an aggregate over one track: the groups it met, in
 * the track's ticks. Keys that are string ids (all a writer gives) index
 * a dense array, the rest a hash table. */
typedef struct
{
  TesAggregate *dense;      /* n_dense, count 0: unused */
  guint         n_dense;
  GArray       *touched;    /* guint32: the dense keys used, first use order */
  GHashTable   *others;     /* key -> TesAggregate* */
  gint64        t0;
  gint64        t1;
  TesGroupBy    group_by;
} AggregateState;

static inline void
aggregate_init (TesAggregate *agg,
                guint32       key)
{
  *agg = (TesAggregate) { .key = key, .min = G_MAXINT64, .max = G_MININT64 };
}

/* The group of @key, made empty if it is new. */
static inline TesAggregate *
aggregate_group (AggregateState *state,
                 guint32         key)
{
  TesAggregate *agg;

  if (G_LIKELY (key < state->n_dense))
    {
      agg = &state->dense[key];
      if (agg->count == 0)
        {
          aggregate_init (agg, key);
          g_array_append_val (state->touched, key);
        }
    }
  else if (!(agg = g_hash_table_lookup (state->others, GUINT_TO_POINTER (key))))
    {
      agg = g_new (TesAggregate, 1);
      aggregate_init (agg, key);
      g_hash_table_insert (state->others, GUINT_TO_POINTER (key), agg);
    }

  return agg;
}

static gboolean
aggregate_slice (const TesSliceRecord *rec,
                 guint32               index,
                 gpointer              user_data)
{
  AggregateState *state = user_data;
  TesAggregate *agg = aggregate_group (state, state->group_by == TES_GROUP_BY_NAME ? rec->name : rec->category);
  gint64 lo = MAX (rec->start, state->t0);
  gint64 hi = MIN (rec->start + rec->dur, state->t1);
  gint64 clipped = MAX (0, hi - lo);

  agg->count++;
  agg->total += clipped;
  agg->min = MIN (agg->min, rec->dur);
  agg->max = MAX (agg->max, rec->dur);
  agg->sum += rec->dur;
  /* Self time of a slice cut by the window is taken in proportion. */
  if (clipped == rec->dur)
    agg->self += rec->self_dur;
  else if (rec->dur > 0)
    agg->self += (gint64)((double)rec->self_dur * clipped / rec->dur);

  return TRUE;
}

/* The slices of a block within the window: none is clipped (what
 * aggregate_slice() does when clipped is the duration). */
static gboolean
aggregate_block (const TesSliceRecord *recs,
                 guint                 m,
                 gpointer              user_data)
{
  AggregateState *state = user_data;

  for (guint i = 0; i < m; i++)
    {
      const TesSliceRecord *rec = &recs[i];
      TesAggregate *agg = aggregate_group (state, state->group_by == TES_GROUP_BY_NAME ? rec->name : rec->category);

      agg->count++;
      agg->total += rec->dur;
      agg->min = MIN (agg->min, rec->dur);
      agg->max = MAX (agg->max, rec->dur);
      agg->sum += rec->dur;
      agg->self += rec->self_dur;
    }

  return TRUE;
}

/* A chunk's group within the window, from its sums: what aggregate_block()
 * adds for its slices. */
static void
aggregate_sums (const TesChunkSums *sums,
                gpointer            user_data)
{
  AggregateState *state = user_data;
  TesAggregate *agg = aggregate_group (state, state->group_by == TES_GROUP_BY_NAME ? sums->name : sums->category);

  agg->count += sums->count;
  agg->total += sums->dur;
  agg->min = MIN (agg->min, sums->min);
  agg->max = MAX (agg->max, sums->max);
  agg->sum += sums->dur;
  agg->self += sums->self;
}

/* Adds @agg to the group of its key in @into (keys -> TesAggregate*). */
static void
aggregate_merge (GHashTable         *into,
                 const TesAggregate *agg)
{
  TesAggregate *to = g_hash_table_lookup (into, GUINT_TO_POINTER (agg->key));

  if (to == NULL)
    {
      to = g_new (TesAggregate, 1);
      aggregate_init (to, agg->key);
      g_hash_table_insert (into, GUINT_TO_POINTER (agg->key), to);
    }
  to->count += agg->count;
  to->total += agg->total;
  to->self += agg->self;
  to->sum += agg->sum;
  to->min = MIN (to->min, agg->min);
  to->max = MAX (to->max, agg->max);
}

static int
compare_aggregates (gconstpointer a,
                    gconstpointer b)
{
  const TesAggregate *aa = a;
  const TesAggregate *ab = b;

  if (aa->self != ab->self)
    return aa->self > ab->self ? -1 : 1;
  if (aa->total != ab->total)
    return aa->total > ab->total ? -1 : 1;
  return (aa->key > ab->key) - (aa->key < ab->key);
}

static gint64
convert_duration (TesReport *self,
                  gint64     from_clock,
                  gint64     to_clock,
                  gint64     d)
{
  return tes_report_convert_time (self, from_clock, to_clock, d) -
         tes_report_convert_time (self, from_clock, to_clock, 0);
}

#define AGGREGATE_MAX_PARTS 4

/* An aggregate's work: every core takes every n_parts-th chunk of each
 * track (what reads every slice is decoding-bound, and the sums do not
 * depend on the order), and keeps per track the groups it met. */
typedef struct
{
  TesReport     *self;
  const gint64  *track_ids;    /* n; NULL: all tracks */
  guint          n;
  gint64         clock_id;
  gint64         t0;
  gint64         t1;
  TesGroupBy     group_by;
  GCancellable  *cancellable;
  guint          part;
  guint          n_parts;
  GPtrArray     *per_track;    /* GArray of TesAggregate per track, NULL: none */
  GError        *error;
} AggregatePart;

static void
groups_free (gpointer groups)
{
  if (groups != NULL)
    g_array_unref (groups);
}

static gpointer
aggregate_part (gpointer data)
{
  AggregatePart *part = data;
  TesReport *self = part->self;
  AggregateState state = { 0 };
  sqlite3 *db;

  part->per_track = g_ptr_array_new_full (part->n, groups_free);
  if (!(db = tes_report_borrow_db (self, &part->error)))
    return NULL;

  state.n_dense = self->strings->len;
  state.dense = g_new0 (TesAggregate, MAX (state.n_dense, 1));
  state.touched = g_array_new (FALSE, FALSE, sizeof (guint32));
  state.others = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  state.group_by = part->group_by;

  for (guint i = 0; i < part->n; i++)
    {
      gint64 track_id = part->track_ids ? part->track_ids[i] : (gint64)i + 1;
      const TesTrack *track = tes_report_get_track (self, track_id);
      GArray *groups;
      GHashTableIter iter;
      TesAggregate *agg;

      if (track == NULL || track->n_slices == 0)
        {
          g_ptr_array_add (part->per_track, NULL);
          continue;
        }

      state.t0 = tes_report_convert_time (self, part->clock_id, track->clock_id, part->t0);
      state.t1 = tes_report_convert_time (self, part->clock_id, track->clock_id, part->t1);
      if (!tes_report_foreach_slice_in_window_part (self, db, track_id, state.t0, state.t1, part->part, part->n_parts,
                                                    TES_CACHE_COLUMN_SELF |
                                                      (part->group_by == TES_GROUP_BY_NAME ? TES_CACHE_COLUMN_NAME
                                                                                           : TES_CACHE_COLUMN_CATEGORY),
                                                    aggregate_block, aggregate_sums, aggregate_slice, &state,
                                                    part->cancellable, &part->error))
        break;

      groups = g_array_sized_new (FALSE, FALSE, sizeof (TesAggregate), state.touched->len);
      for (guint k = 0; k < state.touched->len; k++)
        {
          guint32 key = g_array_index (state.touched, guint32, k);

          g_array_append_val (groups, state.dense[key]);
          state.dense[key].count = 0;
        }
      g_array_set_size (state.touched, 0);
      g_hash_table_iter_init (&iter, state.others);
      while (g_hash_table_iter_next (&iter, NULL, (gpointer *)&agg))
        g_array_append_val (groups, *agg);
      g_hash_table_remove_all (state.others);
      g_ptr_array_add (part->per_track, groups);
    }

  g_free (state.dense);
  g_array_unref (state.touched);
  g_hash_table_unref (state.others);
  tes_report_return_db (self, db);

  return NULL;
}

GArray *
tes_report_aggregate_slices (TesReport    *self,
                             const gint64 *track_ids,
                             guint         n_track_ids,
                             gint64        clock_id,
                             gint64        t0,
                             gint64        t1,
                             TesGroupBy    group_by,
                             GCancellable *cancellable,
                             GError      **error)
{
  g_autoptr(GHashTable) merged = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr(GHashTable) track_groups = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr(GArray) result = g_array_new (FALSE, FALSE, sizeof (TesAggregate));
  AggregatePart parts[AGGREGATE_MAX_PARTS];
  GThread *threads[AGGREGATE_MAX_PARTS] = { 0 };
  guint n_parts = CLAMP (g_get_num_processors (), 1, AGGREGATE_MAX_PARTS);
  guint n = n_track_ids ? n_track_ids : self->tracks->len;
  GError *failed = NULL;
  GHashTableIter iter;
  TesAggregate *agg;

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  /* a core's share, this thread too */
  for (guint p = 0; p < n_parts; p++)
    {
      parts[p] = (AggregatePart) { self, n_track_ids ? track_ids : NULL, n, clock_id, t0, t1, group_by,
                                   cancellable, p, n_parts, NULL, NULL };
      if (p > 0)
        threads[p] = g_thread_new ("tes-aggregate", aggregate_part, &parts[p]);
    }
  aggregate_part (&parts[0]);
  for (guint p = 0; p < n_parts; p++)
    {
      if (threads[p] != NULL)
        g_thread_join (threads[p]);
      if (parts[p].error != NULL && failed == NULL)
        failed = g_steal_pointer (&parts[p].error);
      g_clear_error (&parts[p].error);
    }

  /* per track, the parts' sums in its ticks, then in the clock asked for:
   * the same conversions, of the same sums, as one pass over the track */
  for (guint i = 0; failed == NULL && i < n; i++)
    {
      gint64 track_id = n_track_ids ? track_ids[i] : (gint64)i + 1;
      const TesTrack *track = tes_report_get_track (self, track_id);

      g_hash_table_remove_all (track_groups);
      for (guint p = 0; p < n_parts; p++)
        {
          GArray *groups = i < parts[p].per_track->len ? g_ptr_array_index (parts[p].per_track, i) : NULL;

          for (guint k = 0; groups != NULL && k < groups->len; k++)
            aggregate_merge (track_groups, &g_array_index (groups, TesAggregate, k));
        }

      g_hash_table_iter_init (&iter, track_groups);
      while (g_hash_table_iter_next (&iter, NULL, (gpointer *)&agg))
        {
          TesAggregate converted = *agg;

          converted.total = convert_duration (self, track->clock_id, clock_id, agg->total);
          converted.self = convert_duration (self, track->clock_id, clock_id, agg->self);
          converted.sum = convert_duration (self, track->clock_id, clock_id, agg->sum);
          converted.min = convert_duration (self, track->clock_id, clock_id, agg->min);
          converted.max = convert_duration (self, track->clock_id, clock_id, agg->max);
          aggregate_merge (merged, &converted);
        }
    }

  for (guint p = 0; p < n_parts; p++)
    g_clear_pointer (&parts[p].per_track, g_ptr_array_unref);

  if (failed != NULL)
    {
      g_propagate_error (error, failed);
      return NULL;
    }

  g_hash_table_iter_init (&iter, merged);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *)&agg))
    g_array_append_val (result, *agg);
  g_array_sort (result, compare_aggregates);

  return g_steal_pointer (&result);
}

typedef struct
{
  gint64     *track_ids;
  guint       n_track_ids;
  gint64      clock_id;
  gint64      t0;
  gint64      t1;
  TesGroupBy  group_by;
} AggregateJob;

static void
aggregate_job_free (gpointer data)
{
  AggregateJob *job = data;

  g_free (job->track_ids);
  g_free (job);
}

static void
tes_report_aggregate_worker (GTask        *task,
                             gpointer      source_object,
                             gpointer      task_data,
                             GCancellable *cancellable)
{
  AggregateJob *job = task_data;
  GError *error = NULL;
  GArray *result;

  result = tes_report_aggregate_slices (source_object, job->track_ids, job->n_track_ids,
                                        job->clock_id, job->t0, job->t1, job->group_by,
                                        cancellable, &error);
  if (result != NULL)
    g_task_return_pointer (task, result, (GDestroyNotify)g_array_unref);
  else
    g_task_return_error (task, error);
}

void
tes_report_aggregate_slices_async (TesReport          *self,
                                   const gint64       *track_ids,
                                   guint               n_track_ids,
                                   gint64              clock_id,
                                   gint64              t0,
                                   gint64              t1,
                                   TesGroupBy          group_by,
                                   GCancellable       *cancellable,
                                   GAsyncReadyCallback callback,
                                   gpointer            user_data)
{
  g_autoptr(GTask) task = NULL;
  AggregateJob *job;

  g_return_if_fail (TES_IS_REPORT (self));

  job = g_new0 (AggregateJob, 1);
  job->track_ids = n_track_ids ? g_memdup2 (track_ids, n_track_ids * sizeof (gint64)) : NULL;
  job->n_track_ids = n_track_ids;
  job->clock_id = clock_id;
  job->t0 = t0;
  job->t1 = t1;
  job->group_by = group_by;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tes_report_aggregate_slices_async);
  g_task_set_task_data (task, job, aggregate_job_free);
  g_task_run_in_thread (task, tes_report_aggregate_worker);
}

GArray *
tes_report_aggregate_slices_finish (TesReport    *self,
                                    GAsyncResult *result,
                                    GError      **error)
{
  g_return_val_if_fail (TES_IS_REPORT (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
