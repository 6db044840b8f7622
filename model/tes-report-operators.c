/* tes-report-operators.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-report"

#include "config.h"

#include "tes-report-private.h"

#include <math.h>
#include <string.h>

void
tes_summary_row_free (TesSummaryRow *row)
{
  if (row == NULL)
    return;

  g_free (row->name);
  g_free (row->type);
  g_free (row->label);
  g_free (row->details);
  g_free (row);
}

/* "12 CONV_2D": a vendor's numbered operator list, whose names are
 * positions (SigmaStar's); TensorRT's layers are numbered but named for
 * themselves. */
gboolean
tes_summary_row_name_is_position (const TesSummaryRow *row)
{
  g_autofree char *prefix = NULL;

  g_return_val_if_fail (row != NULL, FALSE);

  if (row->op_index < 0 || row->name == NULL)
    return FALSE;
  prefix = g_strdup_printf ("%" G_GINT64_FORMAT " ", row->op_index);

  return g_str_has_prefix (row->name, prefix);
}

/* The rows of run @run_id (0: the whole report). A source that gives its
 * operators per run as well as over its whole trace (a framework's steps)
 * has its whole-trace rows without a run; one that gives them only per run
 * (a Poplar report's executions) makes its whole from its runs' rows. */
static GPtrArray *
load_operator_rows (TesReport       *self,
                    gint64           run_id,
                    TesSummaryMode   mode,
                    gboolean        *has_index,
                    GError         **error)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify)tes_summary_row_free);
  sqlite3_stmt *stmt = NULL;
  gboolean all_shares = TRUE;
  double sum_total = 0;
  gint64 source_id = 0;
  gboolean whole_rows = FALSE;
  sqlite3 *db;

  if (!(db = tes_report_borrow_db (self, error)))
    return NULL;

  *has_index = FALSE;

  /* Operator rows of different files are different views of one run (a
   * per-type listing and a per-operator one, say); adding them up would
   * count the run twice. Take one source: for per-type totals the one whose
   * rows are the vendor's own per-type lines, else the first with
   * per-operator rows. */
  if (!tes_report_prepare_checked (self, db,
                                   "SELECT source_id, count(*) - count(run_id) FROM operators WHERE ?2 <= 0 OR run_id = ?2 "
                                   "GROUP BY source_id ORDER BY (count(op_index) > 0) = ?1, source_id LIMIT 1",
                                   &stmt, error))
    {
      tes_report_return_db (self, db);
      return NULL;
    }
  sqlite3_bind_int (stmt, 1, mode == TES_SUMMARY_TOTAL);
  sqlite3_bind_int64 (stmt, 2, run_id);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    {
      source_id = sqlite3_column_int64 (stmt, 0);
      whole_rows = sqlite3_column_int64 (stmt, 1) > 0;
    }
  else if (run_id > 0)
    {
      /* no row of that run: the caller falls back to its slices */
      sqlite3_finalize (stmt);
      tes_report_return_db (self, db);
      return g_ptr_array_new_with_free_func ((GDestroyNotify)tes_summary_row_free);
    }
  sqlite3_finalize (stmt);
  stmt = NULL;

  if (!tes_report_prepare_checked (self, db,
                                   "SELECT op_index, name, type, share, total, count, clock_id, "
                                   "CASE WHEN json_valid (args) THEN json_extract (args, '$.details') END "
                                   "FROM operators "
                                   "WHERE source_id IS ?1 AND (CASE WHEN ?2 > 0 THEN run_id = ?2 WHEN ?3 THEN run_id IS NULL ELSE 1 END) "
                                   "ORDER BY op_index IS NULL, op_index, id",
                                   &stmt, error))
    {
      tes_report_return_db (self, db);
      return NULL;
    }
  if (source_id > 0)
    sqlite3_bind_int64 (stmt, 1, source_id);
  sqlite3_bind_int64 (stmt, 2, run_id);
  sqlite3_bind_int (stmt, 3, whole_rows);

  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      TesSummaryRow *row = g_new0 (TesSummaryRow, 1);

      row->op_index = sqlite3_column_type (stmt, 0) == SQLITE_NULL ? -1 : sqlite3_column_int64 (stmt, 0);
      row->name = g_strdup (tes_report_get_string (self, (guint32)sqlite3_column_int64 (stmt, 1)));
      row->type = g_strdup (tes_report_get_string (self, (guint32)sqlite3_column_int64 (stmt, 2)));
      row->share = sqlite3_column_type (stmt, 3) == SQLITE_NULL ? NAN : sqlite3_column_double (stmt, 3);
      row->total = sqlite3_column_type (stmt, 4) == SQLITE_NULL ? -1 : sqlite3_column_int64 (stmt, 4);
      row->count = sqlite3_column_type (stmt, 5) == SQLITE_NULL ? -1 : sqlite3_column_int64 (stmt, 5);
      row->clock_id = sqlite3_column_int64 (stmt, 6);
      if (sqlite3_column_type (stmt, 7) == SQLITE_TEXT)
        row->details = g_strdup ((const char *)sqlite3_column_text (stmt, 7));

      *has_index |= row->op_index >= 0;
      all_shares &= !isnan (row->share);
      sum_total += MAX (row->total, 0);
      g_ptr_array_add (rows, row);
    }
  sqlite3_finalize (stmt);
  tes_report_return_db (self, db);

  /* Shares the vendor printed win; otherwise derive them from totals. */
  if (!all_shares)
    for (guint i = 0; i < rows->len; i++)
      {
        TesSummaryRow *row = g_ptr_array_index (rows, i);
        row->share = sum_total > 0 ? 100.0 * MAX (row->total, 0) / sum_total : 0.0;
      }

  return g_steal_pointer (&rows);
}

/* Rows of @aggs, named @where (NULL: each row after its key), typed after
 * their keys. */
static void
add_aggregate_rows (TesReport  *self,
                    GPtrArray  *rows,
                    GArray     *aggs,
                    const char *where,
                    gint64      clock_id)
{
  for (guint i = 0; i < aggs->len; i++)
    {
      const TesAggregate *agg = &g_array_index (aggs, TesAggregate, i);
      TesSummaryRow *row = g_new0 (TesSummaryRow, 1);

      row->op_index = -1;
      row->type = g_strdup (tes_report_get_string (self, agg->key));
      row->name = g_strdup (where ? where : row->type);
      row->total = agg->self;
      row->count = agg->count;
      row->clock_id = clock_id;
      g_ptr_array_add (rows, row);
    }
}

/* The top-level track a run is of: its IPU (a Poplar profile's run per
 * IPU: by number, else by name, "IPU 1"), or its rank ("Rank 1" of
 * "Rank 1 ProfilerStep#5"); 0 for a run of the whole report. */
static gint64
run_scope (TesReport    *self,
           const TesRun *run)
{
  for (gint64 id = 1; run->ipu >= 0 && id <= (gint64)self->tracks->len; id++)
    {
      const TesTrack *track = tes_report_get_track (self, id);

      if (track->parent_id == 0 && track->kind == TES_TRACK_IPU && track->ipu == run->ipu)
        return id;
    }

  for (gint64 id = 1; run->name != NULL && id <= (gint64)self->tracks->len; id++)
    {
      const TesTrack *track = tes_report_get_track (self, id);
      gsize len = track->name ? strlen (track->name) : 0;

      if (track->parent_id == 0 && len > 0 && strncmp (run->name, track->name, len) == 0 &&
          (run->name[len] == '\0' || run->name[len] == ' ') &&
          (track->kind == TES_TRACK_IPU || g_str_has_prefix (track->name, "Rank ")))
        return id;
    }

  return 0;
}

/* Slices by name or category, self time. An IPU's lanes are summed apart
 * from the rest, by category (a Poplar step's type: OnTileExecute,
 * DoExchange, Sync…), one row per IPU and type named after the IPU, so
 * that the rows give each IPU's cycle proportions as PopVision does and
 * grouped by type the run's. A run's are the slices inside its range, of
 * its IPU or rank when it is one's. */
static GPtrArray *
load_slice_rows (TesReport     *self,
                 TesGroupBy     group_by,
                 const TesRun  *run,
                 GError       **error)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify)tes_summary_row_free);
  g_autoptr(GArray) rest = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autofree gboolean *in_ipu = g_new0 (gboolean, self->tracks->len + 1);
  gint64 clock_id = self->clocks->len ? 1 : 0;
  g_autofree gboolean *in_scope = NULL;
  gboolean any_ipu = FALSE;
  gint64 t0 = G_MININT64, t1 = G_MAXINT64, scope = 0;
  double sum = 0;

  /* in the IPUs' own clock where there are IPUs: a compile report opened
   * with the trace may bring its own clock of the same rate first, and
   * going through ns would round every slice */
  for (gint64 id = 1; id <= (gint64)self->tracks->len; id++)
    if (tes_report_get_track (self, id)->kind == TES_TRACK_IPU && tes_report_get_track (self, id)->clock_id > 0)
      {
        clock_id = tes_report_get_track (self, id)->clock_id;
        break;
      }
  /* a run's slices: those inside its range, cut at its ends */
  if (run != NULL)
    {
      t0 = tes_report_convert_time (self, run->clock_id, clock_id, run->start);
      t1 = tes_report_convert_time (self, run->clock_id, clock_id, run->end);
      scope = run_scope (self, run);
    }
  if (scope > 0)
    {
      g_autoptr(GArray) ids = tes_report_get_subtree_tracks (self, scope);

      in_scope = g_new0 (gboolean, self->tracks->len + 1);
      in_scope[scope] = TRUE;
      for (guint i = 0; i < ids->len; i++)
        in_scope[g_array_index (ids, gint64, i)] = TRUE;
    }

  for (gint64 id = 1; id <= (gint64)self->tracks->len; id++)
    {
      const TesTrack *track = tes_report_get_track (self, id);
      g_autoptr(GArray) ids = NULL;
      g_autoptr(GArray) aggs = NULL;

      if (track->kind != TES_TRACK_IPU || track->parent_id != 0 || (in_scope && !in_scope[id]))
        continue;
      ids = tes_report_get_subtree_tracks (self, id);
      if (ids->len == 0)
        continue;
      if (!(aggs = tes_report_aggregate_slices (self, (const gint64 *)(gpointer)ids->data, ids->len, clock_id,
                                                t0, t1, TES_GROUP_BY_CATEGORY, NULL, error)))
        return NULL;
      add_aggregate_rows (self, rows, aggs, track->name, clock_id);
      for (guint i = 0; i < ids->len; i++)
        in_ipu[g_array_index (ids, gint64, i)] = TRUE;
      any_ipu = TRUE;
    }

  /* the rest: every other track, or a scope's */
  for (gint64 id = 1; (any_ipu || in_scope) && id <= (gint64)self->tracks->len; id++)
    if (!in_ipu[id] && (!in_scope || in_scope[id]) && tes_report_get_track (self, id)->n_slices > 0 &&
        tes_report_get_track (self, id)->kind != TES_TRACK_COUNTER)
      g_array_append_val (rest, id);

  if ((!any_ipu && !in_scope) || rest->len > 0)
    {
      gboolean listed = any_ipu || in_scope;
      g_autoptr(GArray) aggs = NULL;

      if (!(aggs = tes_report_aggregate_slices (self, listed ? (const gint64 *)(gpointer)rest->data : NULL,
                                                listed ? rest->len : 0, clock_id, t0, t1,
                                                group_by, NULL, error)))
        return NULL;
      add_aggregate_rows (self, rows, aggs, NULL, clock_id);
    }

  for (guint i = 0; i < rows->len; i++)
    sum += ((TesSummaryRow *)g_ptr_array_index (rows, i))->total;
  for (guint i = 0; i < rows->len; i++)
    {
      TesSummaryRow *row = g_ptr_array_index (rows, i);

      row->share = sum > 0 ? 100.0 * row->total / sum : 0.0;
    }

  return g_steal_pointer (&rows);
}

static int
compare_rows_by_share (gconstpointer a,
                       gconstpointer b)
{
  const TesSummaryRow *ra = *(TesSummaryRow * const *)a;
  const TesSummaryRow *rb = *(TesSummaryRow * const *)b;

  if (ra->share != rb->share)
    return ra->share > rb->share ? -1 : 1;
  return 0;
}

/* Group rows by type or name in first-seen order, summing shares and
 * totals, then sort descending (stable, like Python's sorted). */
static GPtrArray *
group_rows (GPtrArray  *rows,
            TesGroupBy  group_by)
{
  g_autoptr(GPtrArray) groups = g_ptr_array_new_with_free_func ((GDestroyNotify)tes_summary_row_free);
  g_autoptr(GHashTable) index = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < rows->len; i++)
    {
      const TesSummaryRow *row = g_ptr_array_index (rows, i);
      const char *key = group_by == TES_GROUP_BY_NAME ? row->name : row->type;
      TesSummaryRow *group = g_hash_table_lookup (index, key);

      if (group == NULL)
        {
          group = g_new0 (TesSummaryRow, 1);
          group->op_index = -1;
          group->name = g_strdup (key);
          group->type = g_strdup (row->type);
          group->label = g_strdup (key);
          group->total = 0;
          group->count = 0;
          group->clock_id = row->clock_id;
          /* a group of one row keeps its details */
          group->details = g_strdup (row->details);
          g_ptr_array_add (groups, group);
          g_hash_table_insert (index, group->name, group);
        }
      else
        g_clear_pointer (&group->details, g_free);

      group->share += row->share;
      group->total = (group->total < 0 || row->total < 0) ? -1 : group->total + row->total;
      /* A per-operator row without a count is one operator; a per-type
       * row without one leaves the group's count unknown. */
      if (group->count >= 0 && row->count < 0 && row->op_index < 0)
        group->count = -1;
      else if (group->count >= 0)
        group->count += row->count < 0 ? 1 : row->count;
    }

  g_ptr_array_sort (groups, compare_rows_by_share);

  return g_steal_pointer (&groups);
}

static GPtrArray *
summarize (TesReport       *self,
           const TesRun    *run,
           TesSummaryMode   mode,
           TesGroupBy       group_by,
           GError         **error)
{
  g_autoptr(GPtrArray) rows = NULL;
  gboolean has_index = FALSE, from_operators = FALSE;
  const char *path = tes_report_get_path (self) ? tes_report_get_path (self) : self->cache_path;

  if (self->counts.n_operators > 0)
    {
      if (!(rows = load_operator_rows (self, run ? run->id : 0, mode, &has_index, error)))
        return NULL;
      from_operators = rows->len > 0;
      /* a run without operator rows of its own: what its slices did */
      if (rows->len == 0 && self->counts.n_slices > 0)
        g_clear_pointer (&rows, g_ptr_array_unref);
    }
  if (rows == NULL && self->counts.n_slices > 0)
    rows = load_slice_rows (self, group_by, run, error);
  else if (rows == NULL)
    {
      g_set_error (error, TES_REPORT_ERROR, TES_REPORT_ERROR_NO_DATA,
                   "%s holds no operators and no slices to summarise", path);
      return NULL;
    }

  if (rows == NULL)
    return NULL;

  if (rows->len == 0 && run != NULL)
    {
      g_set_error (error, TES_REPORT_ERROR, TES_REPORT_ERROR_NO_DATA,
                   "%s: run %s holds no operators and no slices to summarise", path, run->name);
      return NULL;
    }

  if (mode == TES_SUMMARY_TOTAL)
    return group_rows (rows, group_by);

  if (from_operators && !has_index)
    {
      g_set_error (error, TES_REPORT_ERROR, TES_REPORT_ERROR_NO_DATA,
                   "%s holds per-type totals only; per-operator rows need the vendor's 'each' output", path);
      return NULL;
    }

  for (guint i = 0; i < rows->len; i++)
    {
      TesSummaryRow *row = g_ptr_array_index (rows, i);

      if (row->op_index >= 0 && (tes_summary_row_name_is_position (row) || row->name == NULL))
        row->label = g_strdup_printf ("%" G_GINT64_FORMAT " %s", row->op_index, row->type);
      else
        row->label = g_strdup (row->name);
    }

  return g_steal_pointer (&rows);
}

GPtrArray *
tes_report_summarize (TesReport       *self,
                      TesSummaryMode   mode,
                      TesGroupBy       group_by,
                      GError         **error)
{
  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  return summarize (self, NULL, mode, group_by, error);
}

/**
 * tes_report_summarize_run:
 *
 * What tes_report_summarize() gives, for one run (a profiler step, a
 * Poplar program run, an inference): the run's own operator rows where
 * the importer wrote them (a framework's steps, a Poplar report's
 * executions), else the slices inside the run's time range, cut at its
 * ends. @run_id 0 is the whole report.
 *
 * Returns: (transfer full): TesSummaryRow, or %NULL with @error set
 *   (%TES_REPORT_ERROR_NOT_FOUND for a run the report lacks)
 */
GPtrArray *
tes_report_summarize_run (TesReport       *self,
                          gint64           run_id,
                          TesSummaryMode   mode,
                          TesGroupBy       group_by,
                          GError         **error)
{
  g_autoptr(GArray) runs = NULL;

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  if (run_id <= 0)
    return summarize (self, NULL, mode, group_by, error);
  if (!(runs = tes_report_get_runs (self, error)))
    return NULL;
  for (guint i = 0; i < runs->len; i++)
    if (g_array_index (runs, TesRun, i).id == run_id)
      return summarize (self, &g_array_index (runs, TesRun, i), mode, group_by, error);

  g_set_error (error, TES_REPORT_ERROR, TES_REPORT_ERROR_NOT_FOUND,
               "%s has no run %" G_GINT64_FORMAT,
               tes_report_get_path (self) ? tes_report_get_path (self) : self->cache_path, run_id);
  return NULL;
}

/* "Rank 1 ProfilerStep#5" is step ProfilerStep#5 of rank 1: the rank,
 * or -1 when @run_name is no rank's run of @name. */
static gint64
rank_of_run (const char *run_name,
             const char *name)
{
  const char *p;

  if (run_name == NULL || !g_str_has_prefix (run_name, "Rank "))
    return -1;
  for (p = run_name + 5; g_ascii_isdigit (*p); p++)
    ;
  if (p == run_name + 5 || *p != ' ' || !g_str_equal (p + 1, name))
    return -1;

  return g_ascii_strtoll (run_name + 5, NULL, 10);
}

/**
 * tes_report_find_run:
 *
 * The run named @name: exactly, else (a job's report, whose runs are per
 * rank) the lowest rank's "Rank R @name".
 *
 * Returns: its id, or 0 with @error set (%TES_REPORT_ERROR_NOT_FOUND,
 *   naming the runs there are)
 */
gint64
tes_report_find_run (TesReport   *self,
                     const char  *name,
                     GError     **error)
{
  g_autoptr(GArray) runs = NULL;
  g_autoptr(GString) some = g_string_new (NULL);
  gint64 lowest_rank = -1, found = 0;

  g_return_val_if_fail (TES_IS_REPORT (self), 0);
  g_return_val_if_fail (name != NULL, 0);

  if (!(runs = tes_report_get_runs (self, error)))
    return 0;
  for (guint i = 0; i < runs->len; i++)
    if (g_strcmp0 (g_array_index (runs, TesRun, i).name, name) == 0)
      return g_array_index (runs, TesRun, i).id;
  for (guint i = 0; i < runs->len; i++)
    {
      gint64 rank = rank_of_run (g_array_index (runs, TesRun, i).name, name);

      if (rank >= 0 && (lowest_rank < 0 || rank < lowest_rank))
        {
          lowest_rank = rank;
          found = g_array_index (runs, TesRun, i).id;
        }
    }
  if (found > 0)
    return found;

  for (guint i = 0; i < runs->len && i < 5; i++)
    g_string_append_printf (some, "%s%s", i ? ", " : "", g_array_index (runs, TesRun, i).name);
  if (runs->len > 5)
    g_string_append (some, ", …");
  g_set_error (error, TES_REPORT_ERROR, TES_REPORT_ERROR_NOT_FOUND,
               "%s has no run '%s' (%s%s)",
               tes_report_get_path (self) ? tes_report_get_path (self) : self->cache_path, name,
               runs->len ? "its runs: " : "it has no runs", some->str);
  return 0;
}
