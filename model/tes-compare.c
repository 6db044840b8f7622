/* tes-compare.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "tes-compare.h"

/* Above this many cells the alignment's table would not fit in memory
 * worth spending: operators then pair by occurrence (the k-th of a key in
 * one run with the k-th in the other), which is what an alignment gives
 * when nothing was inserted. */
#define MAX_CELLS (32u * 1024 * 1024)

typedef struct
{
  gint a;   /* index in A, -1: none */
  gint b;
} Pair;

static void
pair_by_occurrence (const char * const *a_keys,
                    guint               lo_a,
                    guint               hi_a,
                    const char * const *b_keys,
                    guint               lo_b,
                    guint               hi_b,
                    GArray             *pairs)
{
  g_autoptr(GHashTable) queues = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify)g_queue_free);
  g_autofree gint *b_of_a = g_new (gint, hi_a - lo_a + 1);
  g_autofree guint8 *b_used = g_new0 (guint8, hi_b - lo_b + 1);
  guint next_b = lo_b;

  for (guint j = lo_b; j < hi_b; j++)
    {
      GQueue *queue = g_hash_table_lookup (queues, b_keys[j]);

      if (queue == NULL)
        g_hash_table_insert (queues, (gpointer)b_keys[j], (queue = g_queue_new ()));
      g_queue_push_tail (queue, GINT_TO_POINTER (j));
    }

  for (guint i = lo_a; i < hi_a; i++)
    {
      GQueue *queue = g_hash_table_lookup (queues, a_keys[i]);

      b_of_a[i - lo_a] = queue && !g_queue_is_empty (queue) ? GPOINTER_TO_INT (g_queue_pop_head (queue)) : -1;
      if (b_of_a[i - lo_a] >= 0)
        b_used[b_of_a[i - lo_a] - lo_b] = TRUE;
    }

  /* in A's order, B's unmatched ones where they stand */
  for (guint i = lo_a; i < hi_a; i++)
    {
      gint j = b_of_a[i - lo_a];
      Pair pair = { (gint)i, j };

      for (; j >= 0 && next_b < (guint)j; next_b++)
        if (!b_used[next_b - lo_b])
          {
            Pair added = { -1, (gint)next_b };

            g_array_append_val (pairs, added);
          }
      if (j >= 0)
        next_b = MAX (next_b, (guint)j + 1);
      g_array_append_val (pairs, pair);
    }
  for (; next_b < hi_b; next_b++)
    if (!b_used[next_b - lo_b])
      {
        Pair added = { -1, (gint)next_b };

        g_array_append_val (pairs, added);
      }
}

/* The longest common subsequence of the keys, by dynamic programming. */
static void
pair_by_alignment (const char * const *a_keys,
                   guint               lo_a,
                   guint               hi_a,
                   const char * const *b_keys,
                   guint               lo_b,
                   guint               hi_b,
                   GArray             *pairs)
{
  guint n = hi_a - lo_a, m = hi_b - lo_b;
  g_autofree guint32 *table = g_new0 (guint32, (gsize)(n + 1) * (m + 1));
  guint i = n, j = m;

#define CELL(x, y) table[(gsize)(x) * (m + 1) + (y)]

  for (guint x = n; x-- > 0;)
    for (guint y = m; y-- > 0;)
      CELL (x, y) = g_str_equal (a_keys[lo_a + x], b_keys[lo_b + y])
                      ? CELL (x + 1, y + 1) + 1
                      : MAX (CELL (x + 1, y), CELL (x, y + 1));

  i = 0;
  j = 0;
  while (i < n || j < m)
    {
      Pair pair;

      if (i < n && j < m && g_str_equal (a_keys[lo_a + i], b_keys[lo_b + j]))
        pair = (Pair) { (gint)(lo_a + i++), (gint)(lo_b + j++) };
      else if (j < m && (i == n || CELL (i, j + 1) >= CELL (i + 1, j)))
        pair = (Pair) { -1, (gint)(lo_b + j++) };
      else
        pair = (Pair) { (gint)(lo_a + i++), -1 };
      g_array_append_val (pairs, pair);
    }

#undef CELL
}

/* An operator that moved (or rows not in run order, such as totals sorted
 * by time) is still the same operator: what the alignment left unpaired
 * pairs by occurrence, at A's place. */
static void
pair_leftovers (const char * const *a_keys,
                const char * const *b_keys,
                GArray             *pairs)
{
  g_autoptr(GHashTable) queues = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify)g_queue_free);
  guint out = 0;

  for (guint k = 0; k < pairs->len; k++)
    {
      Pair *pair = &g_array_index (pairs, Pair, k);
      GQueue *queue;

      if (pair->a >= 0)
        continue;
      if (!(queue = g_hash_table_lookup (queues, b_keys[pair->b])))
        g_hash_table_insert (queues, (gpointer)b_keys[pair->b], (queue = g_queue_new ()));
      g_queue_push_tail (queue, GUINT_TO_POINTER (k));
    }
  if (g_hash_table_size (queues) == 0)
    return;

  for (guint k = 0; k < pairs->len; k++)
    {
      Pair *pair = &g_array_index (pairs, Pair, k);
      GQueue *queue;

      if (pair->b >= 0 || !(queue = g_hash_table_lookup (queues, a_keys[pair->a])) || g_queue_is_empty (queue))
        continue;
      pair->b = g_array_index (pairs, Pair, GPOINTER_TO_UINT (g_queue_pop_head (queue))).b;
    }

  /* drop the B-only entries that found their A */
  {
    g_autoptr(GHashTable) taken = g_hash_table_new (NULL, NULL);

    for (guint k = 0; k < pairs->len; k++)
      {
        Pair *pair = &g_array_index (pairs, Pair, k);

        if (pair->a >= 0 && pair->b >= 0)
          g_hash_table_add (taken, GINT_TO_POINTER (pair->b + 1));
      }
    for (guint k = 0; k < pairs->len; k++)
      {
        Pair pair = g_array_index (pairs, Pair, k);

        if (pair.a < 0 && g_hash_table_contains (taken, GINT_TO_POINTER (pair.b + 1)))
          continue;
        g_array_index (pairs, Pair, out++) = pair;
      }
    g_array_set_size (pairs, out);
  }
}

/**
 * tes_compare_align:
 *
 * Returns: (transfer full): pairs of indexes (two gint each, -1 where one
 *   side has nothing), in order
 */
GArray *
tes_compare_align (const char * const *a_keys,
                   guint               n_a,
                   const char * const *b_keys,
                   guint               n_b)
{
  GArray *pairs = g_array_new (FALSE, FALSE, sizeof (Pair));
  guint prefix = 0, suffix = 0;

  /* runs mostly agree: what they share at both ends pairs at once */
  while (prefix < n_a && prefix < n_b && g_str_equal (a_keys[prefix], b_keys[prefix]))
    prefix++;
  while (suffix < n_a - prefix && suffix < n_b - prefix &&
         g_str_equal (a_keys[n_a - 1 - suffix], b_keys[n_b - 1 - suffix]))
    suffix++;

  for (guint i = 0; i < prefix; i++)
    {
      Pair pair = { (gint)i, (gint)i };

      g_array_append_val (pairs, pair);
    }

  if ((guint64)(n_a - prefix - suffix + 1) * (n_b - prefix - suffix + 1) <= MAX_CELLS)
    pair_by_alignment (a_keys, prefix, n_a - suffix, b_keys, prefix, n_b - suffix, pairs);
  else
    pair_by_occurrence (a_keys, prefix, n_a - suffix, b_keys, prefix, n_b - suffix, pairs);
  pair_leftovers (a_keys, b_keys, pairs);

  for (guint k = suffix; k > 0; k--)
    {
      Pair pair = { (gint)(n_a - k), (gint)(n_b - k) };

      g_array_append_val (pairs, pair);
    }

  return pairs;
}

static gboolean
all_have_totals (GPtrArray *rows)
{
  for (guint i = 0; i < rows->len; i++)
    if (((TesSummaryRow *)g_ptr_array_index (rows, i))->total < 0)
      return FALSE;

  return rows->len > 0;
}

static double
row_value (TesReport           *report,
           const TesSummaryRow *row,
           gboolean             in_percent)
{
  if (row == NULL)
    return 0;
  if (in_percent)
    return row->share;

  /* totals count in their clock: compare in ns */
  return (double)(tes_report_convert_time (report, row->clock_id, 0, row->total) -
                  tes_report_convert_time (report, row->clock_id, 0, 0));
}

/* By name, a vendor's numbered operator list ("12 CONV_2D") pairs by
 * type: its names are positions, which an inserted operator shifts. */
static const char *
row_key (const TesSummaryRow *row,
         TesCompareKey        key)
{
  const char *text = key == TES_COMPARE_BY_TYPE || row->op_index >= 0 ? row->type : row->name;

  return text ? text : (row->label ? row->label : "");
}

/* The rows of two runs (tes_report_summarize of each) side by side. */
TesComparison *
tes_compare_rows (TesReport     *a_report,
                  GPtrArray     *a_rows,
                  TesReport     *b_report,
                  GPtrArray     *b_rows,
                  TesCompareKey  key)
{
  TesComparison *comparison = g_new0 (TesComparison, 1);
  g_autofree const char **a_keys = g_new0 (const char *, a_rows->len + 1);
  g_autofree const char **b_keys = g_new0 (const char *, b_rows->len + 1);
  g_autoptr(GArray) pairs = NULL;

  for (guint i = 0; i < a_rows->len; i++)
    a_keys[i] = row_key (g_ptr_array_index (a_rows, i), key);
  for (guint j = 0; j < b_rows->len; j++)
    b_keys[j] = row_key (g_ptr_array_index (b_rows, j), key);

  pairs = tes_compare_align (a_keys, a_rows->len, b_keys, b_rows->len);

  /* in ns when both runs give times, else in their printed shares */
  comparison->in_percent = !all_have_totals (a_rows) || !all_have_totals (b_rows);
  comparison->rows = g_array_sized_new (FALSE, TRUE, sizeof (TesCompareRow), pairs->len);

  for (guint k = 0; k < pairs->len; k++)
    {
      const Pair *pair = &g_array_index (pairs, Pair, k);
      TesCompareRow row = { 0 };

      row.a = pair->a >= 0 ? g_ptr_array_index (a_rows, pair->a) : NULL;
      row.b = pair->b >= 0 ? g_ptr_array_index (b_rows, pair->b) : NULL;
      row.a_value = row_value (a_report, row.a, comparison->in_percent);
      row.b_value = row_value (b_report, row.b, comparison->in_percent);
      row.delta = row.b_value - row.a_value;
      row.delta_pct = row.a != NULL && row.a_value != 0 ? 100 * row.delta / row.a_value : NAN;
      row.position = k;
      comparison->a_total += row.a_value;
      comparison->b_total += row.b_value;
      g_array_append_val (comparison->rows, row);
    }

  return comparison;
}

static int
compare_impact (gconstpointer x,
                gconstpointer y)
{
  const TesCompareRow *a = x, *b = y;
  double da = fabs (a->delta), db = fabs (b->delta);

  if (da != db)
    return da < db ? 1 : -1;

  return a->position < b->position ? -1 : a->position > b->position;
}

/* Largest change first; equal changes keep the runs' order. */
void
tes_compare_sort_by_impact (TesComparison *comparison)
{
  g_return_if_fail (comparison != NULL);

  g_array_sort (comparison->rows, compare_impact);
}

/* What got slower by more than @slower_pct percent: the total (in
 * @total_slower) and each operator holding at least @min_share percent
 * of either run. Returns: (transfer container): TesCompareRow pointers */
GPtrArray *
tes_compare_regressions (const TesComparison *comparison,
                         double               slower_pct,
                         double               min_share,
                         gboolean            *total_slower)
{
  GPtrArray *regressions = g_ptr_array_new ();

  g_return_val_if_fail (comparison != NULL, regressions);

  if (total_slower)
    *total_slower = comparison->a_total > 0 &&
                    100 * (comparison->b_total - comparison->a_total) / comparison->a_total > slower_pct;

  for (guint i = 0; i < comparison->rows->len; i++)
    {
      TesCompareRow *row = &g_array_index (comparison->rows, TesCompareRow, i);
      double a_share = comparison->a_total > 0 ? 100 * row->a_value / comparison->a_total : 0;
      double b_share = comparison->b_total > 0 ? 100 * row->b_value / comparison->b_total : 0;

      if (row->a == NULL || row->b == NULL || MAX (a_share, b_share) < min_share)
        continue;
      if (!isnan (row->delta_pct) && row->delta_pct > slower_pct)
        g_ptr_array_add (regressions, row);
    }

  return regressions;
}

void
tes_comparison_free (TesComparison *comparison)
{
  if (comparison == NULL)
    return;

  g_clear_pointer (&comparison->rows, g_array_unref);
  g_free (comparison);
}
