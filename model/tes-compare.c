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
#include "tes-workspace.h"

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

/* The rate every timed row of @rows counts cycles at; 0 when one counts
 * time, or cycles at another rate. */
static gint64
rows_cycles_rate (TesReport *report,
                  GPtrArray *rows)
{
  gint64 rate = 0;

  for (guint i = 0; i < rows->len; i++)
    {
      const TesSummaryRow *row = g_ptr_array_index (rows, i);
      const TesClock *clock;

      if (row->total < 0)
        continue;
      clock = row->clock_id != 0 ? tes_report_get_clock (report, row->clock_id) : NULL;
      if (clock == NULL || clock->unit != TES_TIME_UNIT_CYCLES || clock->ticks_per_second <= 0 ||
          (rate != 0 && clock->ticks_per_second != rate))
        return 0;
      rate = clock->ticks_per_second;
    }

  return rate;
}

/* Runs of different vendors or clocks compare on the common time base,
 * ns; in cycles when both count cycles at the same rate. */
static TesTimeUnit
common_unit (TesReport *a_report,
             GPtrArray *a_rows,
             TesReport *b_report,
             GPtrArray *b_rows,
             gint64    *rate)
{
  gint64 a_rate = rows_cycles_rate (a_report, a_rows);

  *rate = a_rate > 0 && a_rate == rows_cycles_rate (b_report, b_rows) ? a_rate : 0;

  return *rate > 0 ? TES_TIME_UNIT_CYCLES : TES_TIME_UNIT_NS;
}

/* How many runs of the model a report's operator totals add up (info
 * operators.runs: TensorRT's profile sums its layers over `count`
 * inferences, as many as fit its time); 1 when it does not say. */
static double
operator_runs (TesReport *report)
{
  g_autofree char *text = tes_report_lookup_info (report, "operators.runs");
  gint64 runs = text ? g_ascii_strtoll (text, NULL, 10) : 0;

  return runs > 0 ? (double)runs : 1.0;
}

static double
row_value (TesReport           *report,
           const TesSummaryRow *row,
           gboolean             in_percent,
           TesTimeUnit          unit,
           double               runs)
{
  if (row == NULL)
    return 0;
  if (in_percent)
    return row->share;
  /* cycles of one rate: the same whichever clock of that rate */
  if (unit == TES_TIME_UNIT_CYCLES)
    return (double)row->total / runs;

  /* totals count in their clock: compare in ns, per run of the model */
  return (double)(tes_report_convert_time (report, row->clock_id, 0, row->total) -
                  tes_report_convert_time (report, row->clock_id, 0, 0)) / runs;
}

/* By name, a numbered operator list pairs by type: its names are
 * positions, which an inserted operator shifts. */
static const char *
row_key (const TesSummaryRow *row,
         TesCompareKey        key)
{
  const char *text = key == TES_COMPARE_BY_TYPE || tes_summary_row_name_is_position (row) ? row->type : row->name;

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
  double a_runs = operator_runs (a_report);
  double b_runs = operator_runs (b_report);

  for (guint i = 0; i < a_rows->len; i++)
    a_keys[i] = row_key (g_ptr_array_index (a_rows, i), key);
  for (guint j = 0; j < b_rows->len; j++)
    b_keys[j] = row_key (g_ptr_array_index (b_rows, j), key);

  pairs = tes_compare_align (a_keys, a_rows->len, b_keys, b_rows->len);

  /* in time (or cycles) when both runs give it, else in their printed shares */
  comparison->in_percent = !all_have_totals (a_rows) || !all_have_totals (b_rows);
  comparison->unit = common_unit (a_report, a_rows, b_report, b_rows, &comparison->cycles_rate);
  comparison->rows = g_array_sized_new (FALSE, TRUE, sizeof (TesCompareRow), pairs->len);

  for (guint k = 0; k < pairs->len; k++)
    {
      const Pair *pair = &g_array_index (pairs, Pair, k);
      TesCompareRow row = { 0 };

      row.a = pair->a >= 0 ? g_ptr_array_index (a_rows, pair->a) : NULL;
      row.b = pair->b >= 0 ? g_ptr_array_index (b_rows, pair->b) : NULL;
      row.a_value = row_value (a_report, row.a, comparison->in_percent, comparison->unit, a_runs);
      row.b_value = row_value (b_report, row.b, comparison->in_percent, comparison->unit, b_runs);
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

/* ns in @time_unit, unless that is cycles: a time compared across clocks
 * is then written in the time unit that keeps @largest (the largest value
 * it is shown with) readable, as a run's own unit is chosen. */
static char *
format_value (gboolean    in_percent,
              TesTimeUnit unit,
              double      value,
              TesTimeUnit time_unit,
              double      largest)
{
  if (in_percent)
    return g_strdup_printf ("%.3f %%", value);
  if (unit == TES_TIME_UNIT_CYCLES)
    return tes_format_duration (value, TES_TIME_UNIT_CYCLES);
  if (time_unit == TES_TIME_UNIT_CYCLES)
    time_unit = tes_time_unit_readable (largest);

  return tes_format_duration (round (value), time_unit);
}

static double
largest_of (const double *values,
            guint         n)
{
  double largest = 0;

  for (guint i = 0; i < n; i++)
    if (!isnan (values[i]))
      largest = MAX (largest, fabs (values[i]));

  return largest;
}

/* @value of @comparison as text: a share, cycles, or ns written in
 * @time_unit (the one the user chose for run A). */
char *
tes_comparison_format (const TesComparison *comparison,
                       double               value,
                       TesTimeUnit          time_unit)
{
  double totals[] = { comparison->a_total, comparison->b_total };

  g_return_val_if_fail (comparison != NULL, NULL);

  return format_value (comparison->in_percent, comparison->unit, value, time_unit,
                       largest_of (totals, G_N_ELEMENTS (totals)));
}

char *
tes_compare_summary_format (const TesCompareSummary *summary,
                            double                   value,
                            TesTimeUnit              time_unit)
{
  double times[] = { summary->a_total, summary->b_total, summary->a_span, summary->b_span };

  g_return_val_if_fail (summary != NULL, NULL);

  return format_value (FALSE, summary->unit, value, time_unit, largest_of (times, G_N_ELEMENTS (times)));
}

/* How much @b differs from @a, in percent of @a; NAN when @a is 0 or
 * unknown. */
double
tes_compare_percent (double a,
                     double b)
{
  if (a == 0 || !isfinite (a) || !isfinite (b))
    return NAN;

  return 100 * (b - a) / a;
}

/* Per type: a report without operators or slices (a compile report,
 * say) has none, which is no error here. */
static GPtrArray *
summary_rows (TesReport  *report,
              GError    **error)
{
  g_autoptr(GError) local_error = NULL;
  GPtrArray *rows = tes_report_summarize (report, TES_SUMMARY_TOTAL, TES_GROUP_BY_CATEGORY, &local_error);

  if (rows != NULL)
    return rows;
  if (g_error_matches (local_error, TES_REPORT_ERROR, TES_REPORT_ERROR_NO_DATA))
    return g_ptr_array_new_with_free_func ((GDestroyNotify)tes_summary_row_free);

  g_propagate_error (error, g_steal_pointer (&local_error));
  return NULL;
}

static double
rows_total (TesReport   *report,
            GPtrArray   *rows,
            TesTimeUnit  unit)
{
  double runs = operator_runs (report);
  double total = 0;

  if (!all_have_totals (rows))
    return NAN;
  for (guint i = 0; i < rows->len; i++)
    total += row_value (report, g_ptr_array_index (rows, i), FALSE, unit, runs);

  return total;
}

/* From the first event to the last: in the rows' clock when comparing
 * cycles, else in ns over every clock. */
static double
report_span (TesReport   *report,
             GPtrArray   *rows,
             TesTimeUnit  unit)
{
  gint64 clock_id = 0, lo, hi;

  if (unit == TES_TIME_UNIT_CYCLES)
    for (guint i = 0; i < rows->len && clock_id == 0; i++)
      if (((TesSummaryRow *)g_ptr_array_index (rows, i))->total >= 0)
        clock_id = ((TesSummaryRow *)g_ptr_array_index (rows, i))->clock_id;

  if (!tes_report_get_span (report, clock_id, &lo, &hi))
    return NAN;

  return (double)(hi - lo);
}

static void
clear_share (TesCompareShare *share)
{
  g_free (share->type);
}

static int
compare_shares (gconstpointer x,
                gconstpointer y)
{
  const TesCompareShare *a = x, *b = y;
  double ma = MAX (a->a_share, a->b_share), mb = MAX (b->a_share, b->b_share);

  if (ma != mb)
    return ma < mb ? 1 : -1;

  return g_strcmp0 (a->type, b->type);
}

/* Each type's share of its run, paired by type (a type is one row per
 * run: no alignment needed). */
static GArray *
pair_shares (GPtrArray *a_rows,
             GPtrArray *b_rows)
{
  GArray *shares = g_array_new (FALSE, TRUE, sizeof (TesCompareShare));
  g_autoptr(GHashTable) index = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *rows[2] = { a_rows, b_rows };

  g_array_set_clear_func (shares, (GDestroyNotify)clear_share);

  for (guint side = 0; side < 2; side++)
    for (guint i = 0; i < rows[side]->len; i++)
      {
        const TesSummaryRow *row = g_ptr_array_index (rows[side], i);
        const char *type = row->name ? row->name : (row->type ? row->type : "");
        gpointer found;
        TesCompareShare *share;

        if (g_hash_table_lookup_extended (index, type, NULL, &found))
          share = &g_array_index (shares, TesCompareShare, GPOINTER_TO_UINT (found));
        else
          {
            g_array_set_size (shares, shares->len + 1);
            share = &g_array_index (shares, TesCompareShare, shares->len - 1);
            share->type = g_strdup (type);
            g_hash_table_insert (index, share->type, GUINT_TO_POINTER (shares->len - 1));
          }
        if (side == 0)
          {
            share->a_share += isnan (row->share) ? 0 : row->share;
            share->in_a = TRUE;
          }
        else
          {
            share->b_share += isnan (row->share) ? 0 : row->share;
            share->in_b = TRUE;
          }
      }

  /* the index points into the array: sort only once it is done */
  g_hash_table_remove_all (index);
  g_array_sort (shares, compare_shares);

  return shares;
}

static void
clear_memory (TesCompareMemory *memory)
{
  g_free (memory->category);
}

static int
compare_memory (gconstpointer x,
                gconstpointer y)
{
  const TesCompareMemory *a = x, *b = y;
  gboolean a_section = a->category[0] == '.', b_section = b->category[0] == '.';
  gint64 ma = MAX (a->a_bytes, a->b_bytes), mb = MAX (b->a_bytes, b->b_bytes);

  /* ELF sections, then the compile report's data types: two views of
   * the same bytes, kept apart */
  if (a_section != b_section)
    return a_section ? -1 : 1;
  if (ma != mb)
    return ma < mb ? 1 : -1;

  return strcmp (a->category, b->category);
}

static gboolean
sum_categories (TesReport   *report,
                guint        side,
                GHashTable  *index,
                GArray      *memory,
                GError     **error)
{
  g_autoptr(GArray) rows = tes_report_get_tile_memory (report, 0, error);

  if (rows == NULL)
    return FALSE;

  for (guint i = 0; i < rows->len; i++)
    {
      const TesTileMemory *row = &g_array_index (rows, TesTileMemory, i);
      const char *category = tes_report_get_string (report, row->category);
      TesCompareMemory *entry;
      gpointer found;

      if (category == NULL)
        continue;
      if (g_hash_table_lookup_extended (index, category, NULL, &found))
        entry = &g_array_index (memory, TesCompareMemory, GPOINTER_TO_UINT (found));
      else
        {
          g_array_set_size (memory, memory->len + 1);
          entry = &g_array_index (memory, TesCompareMemory, memory->len - 1);
          entry->category = g_strdup (category);
          g_hash_table_insert (index, entry->category, GUINT_TO_POINTER (memory->len - 1));
        }
      if (side == 0)
        entry->a_bytes += row->bytes;
      else
        entry->b_bytes += row->bytes;
    }

  return TRUE;
}

static gboolean
tile_over (gint64 bytes,
           gint64 limit)
{
  return bytes >= 0 && limit > 0 && bytes > limit;
}

static int
compare_tile_numbers (gconstpointer x,
                      gconstpointer y)
{
  const TesCompareTile *a = x, *b = y;

  if (a->ipu != b->ipu)
    return a->ipu < b->ipu ? -1 : 1;

  return (a->tile > b->tile) - (a->tile < b->tile);
}

static int
compare_growth (gconstpointer x,
                gconstpointer y)
{
  const TesCompareTile *a = x, *b = y;
  gint64 ga = a->b_bytes - a->a_bytes, gb = b->b_bytes - b->a_bytes;

  if (ga != gb)
    return ga < gb ? 1 : -1;

  return compare_tile_numbers (a, b);
}

/* Tiles meet by IPU and tile number: which went over their limit, which
 * came back under it, and which grew most. */
static void
compare_tiles (TesCompareSummary *summary,
               GArray            *a_tiles,
               GArray            *b_tiles)
{
  g_autoptr(GHashTable) index = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr(GArray) all = g_array_new (FALSE, TRUE, sizeof (TesCompareTile));
  GArray *tiles[2] = { a_tiles, b_tiles };

  for (guint side = 0; side < 2; side++)
    for (guint i = 0; i < tiles[side]->len; i++)
      {
        const TesTile *tile = &g_array_index (tiles[side], TesTile, i);
        gint64 key = ((gint64)tile->ipu << 32) | (guint32)tile->tile;
        TesCompareTile *entry;
        gpointer found;

        if (g_hash_table_lookup_extended (index, &key, NULL, &found))
          entry = &g_array_index (all, TesCompareTile, GPOINTER_TO_UINT (found));
        else
          {
            TesCompareTile fresh = { tile->ipu, tile->tile, -1, -1, 0, 0 };

            g_array_append_val (all, fresh);
            entry = &g_array_index (all, TesCompareTile, all->len - 1);
            g_hash_table_insert (index, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (all->len - 1));
          }
        if (side == 0)
          {
            entry->a_bytes = tile->has_memory ? tile->total_bytes : -1;
            entry->a_limit = tile->memory_limit;
            summary->a_bytes += tile->has_memory ? tile->total_bytes : 0;
          }
        else
          {
            entry->b_bytes = tile->has_memory ? tile->total_bytes : -1;
            entry->b_limit = tile->memory_limit;
            summary->b_bytes += tile->has_memory ? tile->total_bytes : 0;
          }
      }

  for (guint i = 0; i < all->len; i++)
    {
      const TesCompareTile *tile = &g_array_index (all, TesCompareTile, i);
      gboolean a_over = tile_over (tile->a_bytes, tile->a_limit);
      gboolean b_over = tile_over (tile->b_bytes, tile->b_limit);

      if (b_over && !a_over)
        g_array_append_val (summary->newly_out, *tile);
      else if (a_over && !b_over)
        g_array_append_val (summary->no_longer_out, *tile);
      if (tile->a_bytes >= 0 && tile->b_bytes > tile->a_bytes)
        g_array_append_val (summary->growths, *tile);
    }
  g_array_sort (summary->newly_out, compare_tile_numbers);
  g_array_sort (summary->no_longer_out, compare_tile_numbers);
  g_array_sort (summary->growths, compare_growth);
  if (summary->growths->len > TES_COMPARE_MAX_GROWTHS)
    g_array_set_size (summary->growths, TES_COMPARE_MAX_GROWTHS);

  summary->a_out_of_memory = tes_tiles_count_out_of_memory ((const TesTile *)(gpointer)a_tiles->data, a_tiles->len);
  summary->b_out_of_memory = tes_tiles_count_out_of_memory ((const TesTile *)(gpointer)b_tiles->data, b_tiles->len);
}

static gboolean
any_tile_memory (GArray *tiles)
{
  for (guint i = 0; i < tiles->len; i++)
    if (g_array_index (tiles, TesTile, i).has_memory)
      return TRUE;

  return FALSE;
}

/**
 * tes_compare_summarize:
 *
 * Two runs as a whole: total time (or cycles, when both count cycles at
 * one rate) and span, each operator type's share of its run, and where
 * both have per-tile memory, its totals by category, the tiles that went
 * over their limit or back under it, and the tiles that grew most.
 *
 * Returns: (transfer full): the summary, or %NULL with @error set
 */
TesCompareSummary *
tes_compare_summarize (TesReport  *a,
                       TesReport  *b,
                       GError    **error)
{
  g_autoptr(TesCompareSummary) summary = g_new0 (TesCompareSummary, 1);
  g_autoptr(GPtrArray) a_rows = NULL;
  g_autoptr(GPtrArray) b_rows = NULL;
  g_autoptr(GArray) a_tiles = NULL;
  g_autoptr(GArray) b_tiles = NULL;

  g_return_val_if_fail (TES_IS_REPORT (a) && TES_IS_REPORT (b), NULL);

  summary->memory = g_array_new (FALSE, TRUE, sizeof (TesCompareMemory));
  g_array_set_clear_func (summary->memory, (GDestroyNotify)clear_memory);
  summary->newly_out = g_array_new (FALSE, TRUE, sizeof (TesCompareTile));
  summary->no_longer_out = g_array_new (FALSE, TRUE, sizeof (TesCompareTile));
  summary->growths = g_array_new (FALSE, TRUE, sizeof (TesCompareTile));

  if (!(a_rows = summary_rows (a, error)) || !(b_rows = summary_rows (b, error)))
    return NULL;

  summary->unit = common_unit (a, a_rows, b, b_rows, &summary->cycles_rate);
  summary->a_total = rows_total (a, a_rows, summary->unit);
  summary->b_total = rows_total (b, b_rows, summary->unit);
  summary->a_span = report_span (a, a_rows, summary->unit);
  summary->b_span = report_span (b, b_rows, summary->unit);
  summary->shares = pair_shares (a_rows, b_rows);

  if (!(a_tiles = tes_report_get_tiles (a, error)) || !(b_tiles = tes_report_get_tiles (b, error)))
    return NULL;
  summary->has_memory = any_tile_memory (a_tiles) && any_tile_memory (b_tiles);
  if (summary->has_memory)
    {
      g_autoptr(GHashTable) index = g_hash_table_new (g_str_hash, g_str_equal);

      if (!sum_categories (a, 0, index, summary->memory, error) ||
          !sum_categories (b, 1, index, summary->memory, error))
        return NULL;
      g_hash_table_remove_all (index);
      g_array_sort (summary->memory, compare_memory);
      compare_tiles (summary, a_tiles, b_tiles);
    }

  return g_steal_pointer (&summary);
}

void
tes_compare_summary_free (TesCompareSummary *summary)
{
  if (summary == NULL)
    return;

  g_clear_pointer (&summary->shares, g_array_unref);
  g_clear_pointer (&summary->memory, g_array_unref);
  g_clear_pointer (&summary->newly_out, g_array_unref);
  g_clear_pointer (&summary->no_longer_out, g_array_unref);
  g_clear_pointer (&summary->growths, g_array_unref);
  g_free (summary);
}

/* A framework's training or inference step: PyTorch's ProfilerStep#N,
 * "Rank R ProfilerStep#N" in a job's report, TensorFlow's Step N, ONNX
 * Runtime's model_run N. */
static gboolean
is_step_run (const TesRun *run)
{
  const char *digits;

  if (run->name == NULL)
    return FALSE;
  /* PyTorch's ProfilerStep#N (Rank R ProfilerStep#N for a job's ranks),
   * TensorFlow's Step N, ONNX Runtime's model_run N (an inference) */
  if (strstr (run->name, "ProfilerStep#") != NULL)
    return TRUE;
  if (g_str_has_prefix (run->name, "Step "))
    digits = run->name + 5;
  else if (g_str_has_prefix (run->name, "model_run "))
    digits = run->name + 10;
  else
    return FALSE;

  return *digits != '\0' && strspn (digits, "0123456789") == strlen (digits);
}

static gint64
run_ns (TesReport    *report,
        const TesRun *run)
{
  return tes_report_convert_time (report, run->clock_id, 0, run->end) -
         tes_report_convert_time (report, run->clock_id, 0, run->start);
}

static void
compare_step_clear (gpointer data)
{
  g_free (((TesCompareStep *)data)->name);
}

/**
 * tes_compare_steps:
 *
 * The two runs' profiler steps side by side, each step's duration in ns:
 * a step of A with the step of B of the same name (ProfilerStep#N with
 * ProfilerStep#N, per rank in a job's report), in A's order, then B's
 * steps A lacks. Two runs that share no step name (a profile taken at
 * steps 4-6 against one at 10-12) pair their steps in order instead, and
 * @in_order says so. Neither run having steps gives an empty array.
 *
 * Returns: (transfer full): TesCompareStep, or %NULL with @error set
 */
GArray *
tes_compare_steps (TesReport  *a,
                   TesReport  *b,
                   gboolean   *in_order,
                   GError    **error)
{
  g_autoptr(GArray) a_runs = NULL;
  g_autoptr(GArray) b_runs = NULL;
  g_autoptr(GPtrArray) a_steps = g_ptr_array_new ();
  g_autoptr(GPtrArray) b_steps = g_ptr_array_new ();
  g_autoptr(GArray) out = g_array_new (FALSE, TRUE, sizeof (TesCompareStep));
  g_autofree gboolean *b_used = NULL;
  gboolean shared = FALSE;

  g_return_val_if_fail (TES_IS_REPORT (a) && TES_IS_REPORT (b), NULL);

  g_array_set_clear_func (out, compare_step_clear);
  if (!(a_runs = tes_report_get_runs (a, error)) || !(b_runs = tes_report_get_runs (b, error)))
    return NULL;
  for (guint i = 0; i < a_runs->len; i++)
    if (is_step_run (&g_array_index (a_runs, TesRun, i)))
      g_ptr_array_add (a_steps, &g_array_index (a_runs, TesRun, i));
  for (guint i = 0; i < b_runs->len; i++)
    if (is_step_run (&g_array_index (b_runs, TesRun, i)))
      g_ptr_array_add (b_steps, &g_array_index (b_runs, TesRun, i));

  for (guint i = 0; i < a_steps->len && !shared; i++)
    for (guint j = 0; j < b_steps->len && !shared; j++)
      shared = g_str_equal (((TesRun *)g_ptr_array_index (a_steps, i))->name,
                            ((TesRun *)g_ptr_array_index (b_steps, j))->name);
  if (in_order != NULL)
    *in_order = !shared && a_steps->len > 0 && b_steps->len > 0;

  b_used = g_new0 (gboolean, b_steps->len + 1);
  for (guint i = 0; i < a_steps->len; i++)
    {
      const TesRun *ra = g_ptr_array_index (a_steps, i), *rb = NULL;
      TesCompareStep step = { .a_ns = run_ns (a, ra), .b_ns = -1, .a_run_id = ra->id };
      guint j;

      if (shared)
        {
          for (j = 0; j < b_steps->len; j++)
            if (!b_used[j] && g_str_equal (ra->name, ((TesRun *)g_ptr_array_index (b_steps, j))->name))
              break;
        }
      else
        j = i;
      if (j < b_steps->len)
        {
          rb = g_ptr_array_index (b_steps, j);
          b_used[j] = TRUE;
          step.b_ns = run_ns (b, rb);
          step.b_run_id = rb->id;
        }
      step.name = rb != NULL && !g_str_equal (ra->name, rb->name) ? g_strdup_printf ("%s / %s", ra->name, rb->name)
                                                                : g_strdup (ra->name);
      g_array_append_val (out, step);
    }
  for (guint j = 0; j < b_steps->len; j++)
    if (!b_used[j])
      {
        const TesRun *rb = g_ptr_array_index (b_steps, j);
        TesCompareStep step = { .name = g_strdup (rb->name), .a_ns = -1, .b_ns = run_ns (b, rb), .b_run_id = rb->id };

        g_array_append_val (out, step);
      }

  return g_steal_pointer (&out);
}

/**
 * tes_compare_run_rows:
 *
 * The rows one side of a comparison sets beside the other's: of run
 * @run_id (0: the whole report; tes_report_summarize_run), per operator
 * when the run lists them and @key is by name, else per type.
 *
 * Returns: (transfer full): TesSummaryRow, or %NULL with @error set
 */
GPtrArray *
tes_compare_run_rows (TesReport      *report,
                      gint64          run_id,
                      TesCompareKey   key,
                      GError        **error)
{
  g_autoptr(GError) each_error = NULL;
  GPtrArray *rows;

  g_return_val_if_fail (TES_IS_REPORT (report), NULL);

  if (key == TES_COMPARE_BY_NAME &&
      (rows = tes_report_summarize_run (report, run_id, TES_SUMMARY_EACH, TES_GROUP_BY_NAME, &each_error)))
    return rows;

  return tes_report_summarize_run (report, run_id, TES_SUMMARY_TOTAL,
                                   key == TES_COMPARE_BY_TYPE ? TES_GROUP_BY_CATEGORY : TES_GROUP_BY_NAME, error);
}

/**
 * tes_compare_step:
 *
 * The operators of one step both runs have (@step from
 * tes_compare_steps()) side by side, as tes_compare_rows() sets two whole
 * runs': so that a regression is found by operator and by step. The rows
 * compared are returned in @a_rows and @b_rows, which the comparison points
 * into.
 *
 * Returns: (transfer full): the comparison, or %NULL with @error set
 */
TesComparison *
tes_compare_step (TesReport             *a,
                  TesReport             *b,
                  const TesCompareStep  *step,
                  TesCompareKey          key,
                  GPtrArray            **a_rows,
                  GPtrArray            **b_rows,
                  GError               **error)
{
  g_autoptr(GPtrArray) ar = NULL;
  g_autoptr(GPtrArray) br = NULL;
  TesComparison *comparison;

  g_return_val_if_fail (TES_IS_REPORT (a) && TES_IS_REPORT (b) && step != NULL, NULL);
  g_return_val_if_fail (a_rows != NULL && b_rows != NULL, NULL);

  if (step->a_run_id <= 0 || step->b_run_id <= 0)
    {
      g_set_error (error, TES_REPORT_ERROR, TES_REPORT_ERROR_NOT_FOUND,
                   "step %s is in one run only", step->name);
      return NULL;
    }
  if (!(ar = tes_compare_run_rows (a, step->a_run_id, key, error)) ||
      !(br = tes_compare_run_rows (b, step->b_run_id, key, error)))
    return NULL;

  comparison = tes_compare_rows (a, ar, b, br, key);
  *a_rows = g_steal_pointer (&ar);
  *b_rows = g_steal_pointer (&br);

  return comparison;
}

static void
compare_device_clear (gpointer data)
{
  g_free (((TesCompareDevice *)data)->name);
}

/* Each device's wall time over @run_id's range (0: the whole report),
 * into @out by name (@side 0: A). */
static gboolean
add_devices (TesReport  *report,
             gint64      run_id,
             guint       side,
             GArray     *out,
             GError    **error)
{
  g_autoptr(GArray) units = NULL;
  g_autoptr(GArray) devices = NULL;
  g_autofree char *rank = NULL;
  gint64 lo = 0, hi = 0;

  if (run_id > 0)
    {
      g_autoptr(GArray) runs = tes_report_get_runs (report, error);
      const TesRun *run = NULL;
      const char *space;

      if (runs == NULL)
        return FALSE;
      for (guint i = 0; i < runs->len && run == NULL; i++)
        if (g_array_index (runs, TesRun, i).id == run_id)
          run = &g_array_index (runs, TesRun, i);
      if (run == NULL)
        return TRUE;
      lo = tes_report_convert_time (report, run->clock_id, 0, run->start);
      hi = tes_report_convert_time (report, run->clock_id, 0, run->end);
      /* a rank's step ("Rank 1 ProfilerStep#5"): that rank's devices,
       * "Rank 1 · GPU 1" */
      if (run->name != NULL && g_str_has_prefix (run->name, "Rank ") && (space = strchr (run->name + 5, ' ')))
        rank = g_strdup_printf ("%.*s · ", (int)(space - run->name), run->name);
    }
  else if (!tes_report_get_span (report, 0, &lo, &hi))
    return TRUE;

  if (!(devices = tes_report_get_device_activity (report, lo, hi, &units, error)))
    return FALSE;

  for (guint d = 0; d < devices->len; d++)
    {
      const TesTileActivity *device = &g_array_index (devices, TesTileActivity, d);
      g_autofree char *name = NULL;
      TesCompareDevice *entry = NULL;

      for (guint u = 0; u < units->len && name == NULL; u++)
        if (g_array_index (units, TesTileActivity, u).ipu == device->ipu)
          name = tes_report_dup_unit_device_name (report, g_array_index (units, TesTileActivity, u).track_id);
      if (name == NULL || (rank != NULL && !g_str_has_prefix (name, rank)))
        continue;
      for (guint i = 0; i < out->len && entry == NULL; i++)
        if (g_str_equal (g_array_index (out, TesCompareDevice, i).name, name))
          entry = &g_array_index (out, TesCompareDevice, i);
      if (entry == NULL)
        {
          TesCompareDevice fresh = { g_steal_pointer (&name), -1, -1 };

          g_array_append_val (out, fresh);
          entry = &g_array_index (out, TesCompareDevice, out->len - 1);
        }
      if (side == 0)
        entry->a_ns = device->cycles[TES_TILE_STATE_COMPUTE];
      else
        entry->b_ns = device->cycles[TES_TILE_STATE_COMPUTE];
    }

  return TRUE;
}

/**
 * tes_compare_devices:
 *
 * The devices of two runs by name, each with its wall time in A and B:
 * the union of its units' busy time (a GPU's streams, a qaic core's
 * threads), over run @a_run_id of A and @b_run_id of B (0: the whole
 * report; a rank's step, "Rank 1 ProfilerStep#5": that rank's devices). A run's total is this, per device: never a sum over its
 * streams or threads, which counts the time they overlap twice. Runs
 * without parallel units give an empty array.
 *
 * Returns: (transfer full): TesCompareDevice in A's order, then B's
 *   devices A lacks; %NULL with @error set
 */
GArray *
tes_compare_devices (TesReport  *a,
                     gint64      a_run_id,
                     TesReport  *b,
                     gint64      b_run_id,
                     GError    **error)
{
  g_autoptr(GArray) out = g_array_new (FALSE, TRUE, sizeof (TesCompareDevice));

  g_return_val_if_fail (TES_IS_REPORT (a) && TES_IS_REPORT (b), NULL);

  g_array_set_clear_func (out, compare_device_clear);
  if (!add_devices (a, a_run_id, 0, out, error) || !add_devices (b, b_run_id, 1, out, error))
    return NULL;

  return g_steal_pointer (&out);
}
