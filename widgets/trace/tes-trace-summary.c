/* tes-trace-summary.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "tes-trace-summary.h"
#include "tes-workspace.h"

void
tes_trace_stat_free (TesTraceStat *stat)
{
  if (stat == NULL)
    return;

  g_free (stat->name);
  g_free (stat);
}

static void
share_clear (gpointer data)
{
  TesTraceShare *share = data;

  g_clear_pointer (&share->category, g_free);
}

void
tes_trace_proportion_free (TesTraceProportion *proportion)
{
  if (proportion == NULL)
    return;

  g_free (proportion->device);
  g_clear_pointer (&proportion->shares, g_array_unref);
  g_free (proportion);
}

/* Per name over [t0, t1] (ns), every lane: count, total and self time
 * inside the range, and mean, min and max of whole slices; largest total
 * first. */
GPtrArray *
tes_trace_summary_stats (TesReport     *report,
                         gint64         t0,
                         gint64         t1,
                         GCancellable  *cancellable,
                         GError       **error)
{
  g_autoptr(GArray) aggs = NULL;
  GPtrArray *stats;

  g_return_val_if_fail (TES_IS_REPORT (report), NULL);

  if (!(aggs = tes_report_aggregate_slices (report, NULL, 0, 0, t0, t1, TES_GROUP_BY_NAME, cancellable, error)))
    return NULL;

  stats = g_ptr_array_new_with_free_func ((GDestroyNotify)tes_trace_stat_free);
  for (guint i = 0; i < aggs->len; i++)
    {
      const TesAggregate *agg = &g_array_index (aggs, TesAggregate, i);
      TesTraceStat *stat = g_new0 (TesTraceStat, 1);

      stat->name = g_strdup (tes_report_get_string (report, agg->key));
      stat->name_id = agg->key;
      stat->count = agg->count;
      stat->total = agg->total;
      stat->self = agg->self;
      stat->mean = agg->count > 0 ? agg->sum / agg->count : 0;
      stat->min = agg->min;
      stat->max = agg->max;
      g_ptr_array_add (stats, stat);
    }

  return stats;
}

static int
compare_shares (gconstpointer a,
                gconstpointer b)
{
  const TesTraceShare *x = a, *y = b;

  return x->self < y->self ? 1 : x->self > y->self ? -1 : g_strcmp0 (x->category, y->category);
}

/* Where each device's time goes (its top-level track and all below it):
 * self time per category, as shares of the device's busy time. When a
 * device's slices have no categories to tell apart (one for all, or
 * none), the names stand in for them: Poplar names its programs
 * OnTileExecute, DoExchange, Sync… */
GPtrArray *
tes_trace_summary_proportions (TesReport     *report,
                               gint64         t0,
                               gint64         t1,
                               GCancellable  *cancellable,
                               GError       **error)
{
  g_autoptr(GPtrArray) proportions = g_ptr_array_new_with_free_func ((GDestroyNotify)tes_trace_proportion_free);

  g_return_val_if_fail (TES_IS_REPORT (report), NULL);

  for (gint64 id = 1; id <= tes_report_get_n_tracks (report); id++)
    {
      const TesTrack *root = tes_report_get_track (report, id);
      g_autoptr(GArray) ids = NULL;
      g_autoptr(GArray) aggs = NULL;
      TesTraceProportion *proportion;

      if (root->parent_id != 0)
        continue;

      ids = tes_report_get_subtree_tracks (report, id);
      if (ids->len == 0)
        continue;

      if (!(aggs = tes_report_aggregate_slices (report, (const gint64 *)(gpointer)ids->data, ids->len, 0, t0, t1,
                                                TES_GROUP_BY_CATEGORY, cancellable, error)))
        return NULL;
      if (aggs->len < 2)
        {
          g_clear_pointer (&aggs, g_array_unref);
          if (!(aggs = tes_report_aggregate_slices (report, (const gint64 *)(gpointer)ids->data, ids->len, 0, t0, t1,
                                                    TES_GROUP_BY_NAME, cancellable, error)))
            return NULL;
        }

      proportion = g_new0 (TesTraceProportion, 1);
      proportion->device = g_strdup (root->name);
      proportion->shares = g_array_new (FALSE, TRUE, sizeof (TesTraceShare));
      g_array_set_clear_func (proportion->shares, share_clear);
      for (guint i = 0; i < aggs->len; i++)
        {
          const TesAggregate *agg = &g_array_index (aggs, TesAggregate, i);
          const char *category = tes_report_get_string (report, agg->key);
          TesTraceShare share = {
            .category = g_strdup (category && *category ? category : _("(none)")),
            .self = agg->self,
          };

          if (agg->self <= 0)
            {
              g_free (share.category);
              continue;
            }
          proportion->busy += agg->self;
          g_array_append_val (proportion->shares, share);
        }
      for (guint i = 0; i < proportion->shares->len; i++)
        {
          TesTraceShare *share = &g_array_index (proportion->shares, TesTraceShare, i);

          share->share = 100.0 * share->self / proportion->busy;
        }
      g_array_sort (proportion->shares, compare_shares);
      g_ptr_array_add (proportions, proportion);
    }

  return g_steal_pointer (&proportions);
}

/* @durations (ns) in @n_bins bins between the shortest and the longest,
 * spaced evenly on a log scale when they span more than two decades (as
 * operator durations often do), else linearly. */
GArray *
tes_trace_histogram (GArray *durations,
                     guint   n_bins)
{
  GArray *bins = g_array_new (FALSE, TRUE, sizeof (TesTraceBin));
  gint64 lo = G_MAXINT64, hi = G_MININT64;
  gboolean log_scale;

  g_return_val_if_fail (n_bins > 0, bins);

  for (guint i = 0; i < durations->len; i++)
    {
      gint64 d = g_array_index (durations, gint64, i);

      lo = MIN (lo, d);
      hi = MAX (hi, d);
    }
  if (durations->len == 0)
    return bins;

  lo = MAX (lo, 0);
  log_scale = lo > 0 && (double)hi / (double)lo > 100;
  g_array_set_size (bins, n_bins);

  for (guint i = 0; i < n_bins; i++)
    {
      TesTraceBin *bin = &g_array_index (bins, TesTraceBin, i);
      double a = (double)i / n_bins, b = (double)(i + 1) / n_bins;

      if (log_scale)
        {
          bin->lo = (gint64)llround (lo * pow ((double)hi / lo, a));
          bin->hi = (gint64)llround (lo * pow ((double)hi / lo, b));
        }
      else
        {
          bin->lo = lo + (gint64)llround ((hi - lo) * a);
          bin->hi = lo + (gint64)llround ((hi - lo) * b);
        }
    }
  /* the last bin holds the longest */
  g_array_index (bins, TesTraceBin, n_bins - 1).hi = hi + 1;

  for (guint i = 0; i < durations->len; i++)
    {
      gint64 d = MAX (g_array_index (durations, gint64, i), 0);
      guint lo_bin = 0, hi_bin = n_bins;

      while (lo_bin + 1 < hi_bin)
        {
          guint mid = (lo_bin + hi_bin) / 2;

          if (g_array_index (bins, TesTraceBin, mid).lo <= d)
            lo_bin = mid;
          else
            hi_bin = mid;
        }
      g_array_index (bins, TesTraceBin, lo_bin).count++;
    }

  return bins;
}

/* The Summary tab as text: what Copy gives, and what tests read. */
char *
tes_trace_summary_to_text (GPtrArray  *stats,
                           GPtrArray  *proportions,
                           char *    (*format) (gint64   ns,
                                                gpointer data),
                           gpointer    data)
{
  GString *out = g_string_new (NULL);

  /* Translators: the columns of the trace's per-name summary, tab-separated */
  g_string_append (out, _("Name\tCount\tTotal\tSelf\tMean\tMin\tMax\n"));
  for (guint i = 0; stats != NULL && i < stats->len; i++)
    {
      const TesTraceStat *stat = g_ptr_array_index (stats, i);
      gint64 values[] = { stat->total, stat->self, stat->mean, stat->min, stat->max };

      g_autofree char *count = tes_format_grouped ((double)stat->count);

      g_string_append_printf (out, "%s\t%s", stat->name, count);
      for (guint v = 0; v < G_N_ELEMENTS (values); v++)
        {
          g_autofree char *text = format (values[v], data);

          g_string_append_printf (out, "\t%s", text);
        }
      g_string_append_c (out, '\n');
    }

  for (guint i = 0; proportions != NULL && i < proportions->len; i++)
    {
      const TesTraceProportion *proportion = g_ptr_array_index (proportions, i);

      g_string_append_printf (out, "\n%s:", proportion->device);
      for (guint j = 0; j < proportion->shares->len; j++)
        {
          const TesTraceShare *share = &g_array_index (proportion->shares, TesTraceShare, j);

          g_string_append_printf (out, " %s %.1f%%", share->category, share->share);
        }
      g_string_append_c (out, '\n');
    }

  return g_string_free (out, FALSE);
}
