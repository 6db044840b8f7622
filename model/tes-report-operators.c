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

static GPtrArray *
load_operator_rows (TesReport       *self,
                    TesSummaryMode   mode,
                    gboolean        *has_index,
                    GError         **error)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify)tes_summary_row_free);
  sqlite3_stmt *stmt = NULL;
  gboolean all_shares = TRUE;
  double sum_total = 0;
  gint64 source_id = 0;
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
                                   "SELECT source_id FROM operators GROUP BY source_id "
                                   "ORDER BY (count(op_index) > 0) = ?, source_id LIMIT 1",
                                   &stmt, error))
    {
      tes_report_return_db (self, db);
      return NULL;
    }
  sqlite3_bind_int (stmt, 1, mode == TES_SUMMARY_TOTAL);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    source_id = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  stmt = NULL;

  if (!tes_report_prepare_checked (self, db,
                                   "SELECT op_index, name, type, share, total, count, clock_id, "
                                   "CASE WHEN json_valid (args) THEN json_extract (args, '$.details') END "
                                   "FROM operators "
                                   "WHERE source_id IS ? "
                                   "ORDER BY op_index IS NULL, op_index, id",
                                   &stmt, error))
    {
      tes_report_return_db (self, db);
      return NULL;
    }
  if (source_id > 0)
    sqlite3_bind_int64 (stmt, 1, source_id);

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

/* Slices by name or category, self time. An IPU's lanes are summed apart
 * from the rest, by category (a Poplar step's type: OnTileExecute,
 * DoExchange, Sync…), one row per IPU and type named after the IPU, so
 * that the rows give each IPU's cycle proportions as PopVision does and
 * grouped by type the run's. */
static GPtrArray *
load_slice_rows (TesReport  *self,
                 TesGroupBy  group_by,
                 GError    **error)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify)tes_summary_row_free);
  g_autoptr(GArray) rest = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autofree gboolean *in_ipu = g_new0 (gboolean, self->tracks->len + 1);
  gint64 clock_id = self->clocks->len ? 1 : 0;
  gboolean any_ipu = FALSE;
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

  for (gint64 id = 1; id <= (gint64)self->tracks->len; id++)
    {
      const TesTrack *track = tes_report_get_track (self, id);
      g_autoptr(GArray) ids = NULL;
      g_autoptr(GArray) aggs = NULL;

      if (track->kind != TES_TRACK_IPU || track->parent_id != 0)
        continue;
      ids = tes_report_get_subtree_tracks (self, id);
      if (ids->len == 0)
        continue;
      if (!(aggs = tes_report_aggregate_slices (self, (const gint64 *)(gpointer)ids->data, ids->len, clock_id,
                                                G_MININT64, G_MAXINT64, TES_GROUP_BY_CATEGORY, NULL, error)))
        return NULL;
      add_aggregate_rows (self, rows, aggs, track->name, clock_id);
      for (guint i = 0; i < ids->len; i++)
        in_ipu[g_array_index (ids, gint64, i)] = TRUE;
      any_ipu = TRUE;
    }

  for (gint64 id = 1; any_ipu && id <= (gint64)self->tracks->len; id++)
    if (!in_ipu[id] && tes_report_get_track (self, id)->n_slices > 0 &&
        tes_report_get_track (self, id)->kind != TES_TRACK_COUNTER)
      g_array_append_val (rest, id);

  if (!any_ipu || rest->len > 0)
    {
      g_autoptr(GArray) aggs = NULL;

      if (!(aggs = tes_report_aggregate_slices (self, any_ipu ? (const gint64 *)(gpointer)rest->data : NULL,
                                                any_ipu ? rest->len : 0, clock_id, G_MININT64, G_MAXINT64,
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

GPtrArray *
tes_report_summarize (TesReport       *self,
                      TesSummaryMode   mode,
                      TesGroupBy       group_by,
                      GError         **error)
{
  g_autoptr(GPtrArray) rows = NULL;
  gboolean has_index = FALSE;

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  if (self->counts.n_operators > 0)
    rows = load_operator_rows (self, mode, &has_index, error);
  else if (self->counts.n_slices > 0)
    rows = load_slice_rows (self, group_by, error);
  else
    {
      g_set_error (error, TES_REPORT_ERROR, TES_REPORT_ERROR_NO_DATA,
                   "%s holds no operators and no slices to summarise",
                   tes_report_get_path (self) ? tes_report_get_path (self) : self->cache_path);
      return NULL;
    }

  if (rows == NULL)
    return NULL;

  if (mode == TES_SUMMARY_TOTAL)
    return group_rows (rows, group_by);

  if (self->counts.n_operators > 0 && !has_index)
    {
      g_set_error (error, TES_REPORT_ERROR, TES_REPORT_ERROR_NO_DATA,
                   "%s holds per-type totals only; per-operator rows need the vendor's 'each' output",
                   tes_report_get_path (self) ? tes_report_get_path (self) : self->cache_path);
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
