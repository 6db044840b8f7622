/* tes-insights-execution.c: findings of execution and units: idle gaps per unit, the longest and the launch-bound operators, slow steps
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-insights"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "tes-compare.h"
#include "tes-insights-private.h"
#include "tes-report-private.h"
#include "tes-workspace.h"

/* ---- Execution and units ----------------------------------------------- */

static int
compare_spans (gconstpointer a,
               gconstpointer b)
{
  const gint64 *x = a, *y = b;

  return x[0] < y[0] ? -1 : x[0] > y[0];
}

static int
compare_gaps (gconstpointer a,
              gconstpointer b)
{
  const gint64 *x = a, *y = b;
  gint64 dx = x[1] - x[0], dy = y[1] - y[0];

  if (dx != dy)
    return dx > dy ? -1 : 1;
  return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* A unit's gaps: the stretches between its work (its slices and its
 * threads', every depth, merged) of at least the threshold. */
static gboolean
unit_gaps (Ctx           *ctx,
           const TesTrack *unit,
           GCancellable  *cancellable,
           GError       **error)
{
  g_autoptr(GArray) ids = tes_report_get_subtree_tracks (ctx->report, unit->id);
  g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, 2 * sizeof (gint64));
  g_autoptr(GArray) gaps = g_array_new (FALSE, FALSE, 2 * sizeof (gint64));
  gint64 min_gap = (gint64)llround (T (ctx, IDLE_GAP_US) * 1000.0);
  gint64 reach = G_MININT64, busy = 0, total = 0, first = 0;

  for (guint i = 0; i < ids->len; i++)
    {
      const TesTrack *track = tes_report_get_track (ctx->report, g_array_index (ids, gint64, i));
      g_autoptr(GArray) slices = NULL;

      if (g_cancellable_set_error_if_cancelled (cancellable, error) ||
          !(slices = tes_report_get_slices (ctx->report, track->id, G_MININT64, G_MAXINT64, error)))
        return FALSE;
      for (guint s = 0; s < slices->len; s++)
        {
          const TesSlice *slice = &g_array_index (slices, TesSlice, s);
          gint64 span[2] = {
            tes_report_convert_time (ctx->report, track->clock_id, 0, slice->start),
            tes_report_convert_time (ctx->report, track->clock_id, 0, slice->start + slice->dur),
          };

          g_array_append_vals (spans, span, 1);
        }
    }
  if (spans->len == 0)
    return TRUE;

  g_array_sort (spans, compare_spans);
  first = g_array_index (spans, gint64, 0);
  for (guint i = 0; i < spans->len; i++)
    {
      const gint64 *span = &g_array_index (spans, gint64, 2 * i);

      if (reach != G_MININT64 && span[0] - reach >= MAX (min_gap, 1))
        {
          gint64 gap[2] = { reach, span[0] };

          g_array_append_vals (gaps, gap, 1);
          total += gap[1] - gap[0];
        }
      if (span[1] > reach)
        {
          busy += span[1] - MAX (span[0], reach == G_MININT64 ? span[0] : reach);
          reach = span[1];
        }
    }
  if (gaps->len == 0)
    return TRUE;

  g_array_sort (gaps, compare_gaps);
  {
    GVariantBuilder ev, list;
    g_autofree char *device = tes_report_dup_unit_device_name (ctx->report, unit->id);
    g_autofree char *total_text = _tes_insights_duration_text ((double)total);
    g_autofree char *largest_text = NULL;
    const gint64 *largest = &g_array_index (gaps, gint64, 0);
    gint64 margin = (largest[1] - largest[0]) / 10;
    TesInsight *insight;

    largest_text = _tes_insights_duration_text ((double)(largest[1] - largest[0]));
    g_variant_builder_init (&ev, G_VARIANT_TYPE_VARDICT);
    g_variant_builder_init (&list, G_VARIANT_TYPE ("aa{sv}"));
    _tes_insights_put_string (&ev, "device", device);
    _tes_insights_put_string (&ev, "unit", unit->name);
    _tes_insights_put_int (&ev, "gaps", gaps->len);
    _tes_insights_put_int (&ev, "idle_ns", total);
    _tes_insights_put_int (&ev, "busy_ns", busy);
    _tes_insights_put_int (&ev, "first_ns", first - ctx->span_start);
    _tes_insights_put_int (&ev, "last_ns", reach - ctx->span_start);
    for (guint i = 0; i < gaps->len && i < (guint)T (ctx, GAPS_LISTED); i++)
      {
        const gint64 *gap = &g_array_index (gaps, gint64, 2 * i);
        GVariantBuilder item;

        g_variant_builder_init (&item, G_VARIANT_TYPE_VARDICT);
        _tes_insights_put_int (&item, "start_ns", gap[0] - ctx->span_start);
        _tes_insights_put_int (&item, "dur_ns", gap[1] - gap[0]);
        g_variant_builder_add_value (&list, g_variant_builder_end (&item));
      }
    _tes_insights_put_list (&ev, "largest", &list);
    insight = _tes_insights_add (ctx, TES_INSIGHT_IDLE_GAPS, (double)total, TES_INSIGHT_UNIT_NS,
                                 ctx->span_end > ctx->span_start ? 100.0 * total / (ctx->span_end - ctx->span_start) : 0, &ev,
                                 g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                               "%s of %s waits %s between its work in %s gap; "
                                                               "the largest lasts %s.",
                                                               "%s of %s waits %s between its work in %s gaps; "
                                                               "the largest lasts %s.",
                                                               gaps->len),
                                                  unit->name != NULL ? unit->name : "", device, total_text, _tes_insights_count_text (ctx, gaps->len),
                                                  largest_text));
    insight->target.view = "trace";
    insight->target.track_id = unit->id;
    insight->target.lane = g_strdup (unit->name);
    _tes_insights_set_range (insight, MAX (largest[0] - margin, ctx->span_start), MIN (largest[1] + margin, ctx->span_end));
  }

  return TRUE;
}

gboolean
_tes_insights_find_units (Ctx           *ctx,
                          GCancellable  *cancellable,
                          GError       **error)
{
  TesReportCounts counts;

  tes_report_get_counts (ctx->report, &counts);
  for (gint64 id = 1; id <= counts.n_tracks; id++)
    {
      const TesTrack *track = tes_report_get_track (ctx->report, id);

      if (track != NULL && track->kind == TES_TRACK_CORE && !unit_gaps (ctx, track, cancellable, error))
        return FALSE;
    }

  return TRUE;
}

gboolean
_tes_insights_find_operators (Ctx     *ctx,
                              GError **error)
{
  g_autoptr(GPtrArray) rows = NULL;
  TesReportCounts counts;
  guint listed = 0;

  tes_report_get_counts (ctx->report, &counts);
  /* operators the vendor lists: a trace's slices alone are steps and
   * phases, not a model's operators */
  if (counts.n_operators == 0)
    return TRUE;
  if (!(rows = tes_report_summarize (ctx->report, TES_SUMMARY_TOTAL, TES_GROUP_BY_NAME, error)))
    return FALSE;

  for (guint i = 0; i < rows->len && listed < (guint)T (ctx, OPERATORS_LISTED); i++)
    {
      const TesSummaryRow *row = g_ptr_array_index (rows, i);
      const TesClock *clock = row->clock_id ? tes_report_get_clock (ctx->report, row->clock_id) : NULL;
      gboolean cycles = clock != NULL && clock->unit == TES_TIME_UNIT_CYCLES;
      GVariantBuilder ev;
      TesInsight *insight;
      double cost;
      TesInsightUnit unit;
      g_autofree char *time_text = NULL;

      if (isnan (row->share) || row->share < T (ctx, OPERATOR_SHARE))
        continue;
      if (row->total < 0)
        {
          cost = row->share;
          unit = TES_INSIGHT_UNIT_PERCENT;
          time_text = g_strdup_printf ("%.1f %%", row->share);
        }
      else if (cycles)
        {
          cost = (double)row->total;
          unit = TES_INSIGHT_UNIT_CYCLES;
          time_text = tes_format_duration (cost, TES_TIME_UNIT_CYCLES);
        }
      else
        {
          cost = (double)tes_report_convert_time (ctx->report, row->clock_id, 0, row->total);
          unit = TES_INSIGHT_UNIT_NS;
          time_text = _tes_insights_duration_text (cost);
        }

      g_variant_builder_init (&ev, G_VARIANT_TYPE_VARDICT);
      _tes_insights_put_string (&ev, "operator", row->name);
      _tes_insights_put_string (&ev, "type", row->type);
      _tes_insights_put_double (&ev, "share_percent", row->share);
      if (row->total >= 0)
        _tes_insights_put_double (&ev, unit == TES_INSIGHT_UNIT_CYCLES ? "total_cycles" : "total_ns", cost);
      if (row->count >= 0)
        _tes_insights_put_int (&ev, "count", row->count);
      insight = _tes_insights_add (ctx, TES_INSIGHT_LONG_OPERATOR, cost, unit, row->share, &ev,
                                   g_strdup_printf (_("%s takes %.1f %% of the operators' time (%s): "
                                                      "the first place to make the model faster."),
                                                    row->name, row->share, time_text));
      insight->target.view = "summary";
      insight->target.operator_name = g_strdup (row->name);
      listed++;
    }

  return TRUE;
}

typedef struct
{
  char   *name;
  gint64  count;
  double  cpu_ns;
  double  device_ns;
} HostDevice;

static void
host_device_clear (gpointer data)
{
  g_free (((HostDevice *)data)->name);
}

static gboolean
read_host_device (TesReport     *report,
                  sqlite3_stmt  *stmt,
                  gpointer       out,
                  GError       **error)
{
  HostDevice row = {
    .name = g_strdup (tes_report_get_string (report, (guint32)sqlite3_column_int64 (stmt, 0))),
    .count = sqlite3_column_int64 (stmt, 1),
    .cpu_ns = sqlite3_column_double (stmt, 2),
    .device_ns = sqlite3_column_double (stmt, 3),
  };

  g_array_append_val ((GArray *)out, row);
  return TRUE;
}

/* Framework operators (PyTorch's) whose kernels take a small part of the
 * host time spent launching them: the args the Kineto importer writes, on
 * the whole trace's rows (a step's rows count the same time again). */
gboolean
_tes_insights_find_launch_bound (Ctx     *ctx,
                                 GError **error)
{
  g_autoptr(GArray) rows = g_array_new (FALSE, TRUE, sizeof (HostDevice));
  double span = (double)(ctx->span_end - ctx->span_start);

  g_array_set_clear_func (rows, host_device_clear);
  if (!tes_report_read_rows (ctx->report,
                             "SELECT name, coalesce (count, 0), json_extract (args, '$.cpu_total_ns'), "
                             "       coalesce (json_extract (args, '$.device_total_ns'), 0) FROM operators "
                             "WHERE run_id IS NULL AND json_valid (args) AND json_extract (args, '$.cpu_total_ns') > 0 ORDER BY id",
                             0, read_host_device, rows, error))
    return FALSE;

  for (guint i = 0; i < rows->len && span > 0; i++)
    {
      const HostDevice *row = &g_array_index (rows, HostDevice, i);
      g_autofree char *cpu = NULL;
      g_autofree char *device = NULL;
      GVariantBuilder ev;
      TesInsight *insight;

      if (row->device_ns <= 0 || row->device_ns >= T (ctx, LAUNCH_BOUND_RATIO) * row->cpu_ns ||
          100.0 * row->cpu_ns / span < T (ctx, LAUNCH_BOUND_MIN_SHARE))
        continue;
      cpu = _tes_insights_duration_text (row->cpu_ns);
      device = _tes_insights_duration_text (row->device_ns);
      g_variant_builder_init (&ev, G_VARIANT_TYPE_VARDICT);
      _tes_insights_put_string (&ev, "operator", row->name);
      _tes_insights_put_int (&ev, "count", row->count);
      _tes_insights_put_double (&ev, "host_ns", row->cpu_ns);
      _tes_insights_put_double (&ev, "device_ns", row->device_ns);
      _tes_insights_put_double (&ev, "ratio", row->device_ns / row->cpu_ns);
      insight = _tes_insights_add (ctx, TES_INSIGHT_LAUNCH_BOUND, row->cpu_ns - row->device_ns, TES_INSIGHT_UNIT_NS,
                                   100.0 * (row->cpu_ns - row->device_ns) / span, &ev,
                                   g_strdup_printf (_("%s keeps the host busy for %s for %s of device work: its time goes "
                                                      "to launching and waiting on the host, not to the device."),
                                                    row->name, cpu, device));
      insight->target.view = "summary";
      insight->target.operator_name = g_strdup (row->name);
    }

  return TRUE;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return x < y ? -1 : x > y;
}

/* Steps (runs: ProfilerStep#N, TensorFlow's steps…; not an IPU's run)
 * much slower than the median step. */
gboolean
_tes_insights_find_slow_steps (Ctx     *ctx,
                               GError **error)
{
  g_autoptr(GArray) runs = tes_report_get_runs (ctx->report, error);
  g_autoptr(GArray) durations = g_array_new (FALSE, FALSE, sizeof (double));
  double median, sum = 0;

  if (runs == NULL)
    return FALSE;
  for (guint r = 0; r < runs->len; r++)
    {
      const TesRun *run = &g_array_index (runs, TesRun, r);
      double ns;

      if (run->ipu >= 0)
        continue;
      ns = (double)(tes_report_convert_time (ctx->report, run->clock_id, 0, run->end) -
                    tes_report_convert_time (ctx->report, run->clock_id, 0, run->start));
      g_array_append_val (durations, ns);
      sum += ns;
    }
  if (durations->len < 3)
    return TRUE;

  g_array_sort (durations, compare_doubles);
  median = durations->len % 2 ? g_array_index (durations, double, durations->len / 2)
    : (g_array_index (durations, double, durations->len / 2 - 1) + g_array_index (durations, double, durations->len / 2)) / 2;
  if (median <= 0)
    return TRUE;

  for (guint r = 0; r < runs->len; r++)
    {
      const TesRun *run = &g_array_index (runs, TesRun, r);
      gint64 start, end;
      g_autofree char *dur_text = NULL;
      g_autofree char *median_text = NULL;
      GVariantBuilder ev;
      TesInsight *insight;

      if (run->ipu >= 0)
        continue;
      start = tes_report_convert_time (ctx->report, run->clock_id, 0, run->start);
      end = tes_report_convert_time (ctx->report, run->clock_id, 0, run->end);
      if (end - start < T (ctx, SLOW_STEP_FACTOR) * median)
        continue;
      dur_text = _tes_insights_duration_text ((double)(end - start));
      median_text = _tes_insights_duration_text (median);
      g_variant_builder_init (&ev, G_VARIANT_TYPE_VARDICT);
      _tes_insights_put_string (&ev, "step", run->name);
      _tes_insights_put_int (&ev, "start_ns", start - ctx->span_start);
      _tes_insights_put_int (&ev, "dur_ns", end - start);
      _tes_insights_put_double (&ev, "median_ns", median);
      _tes_insights_put_double (&ev, "factor", (end - start) / median);
      _tes_insights_put_int (&ev, "steps", durations->len);
      insight = _tes_insights_add (ctx, TES_INSIGHT_SLOW_STEP, (end - start) - median, TES_INSIGHT_UNIT_NS,
                                   sum > 0 ? 100.0 * ((end - start) - median) / sum : 0, &ev,
                                   g_strdup_printf (_("%s lasts %s, %.1f times the median step's %s."),
                                                    run->name != NULL ? run->name : "", dur_text, (end - start) / median,
                                                    median_text));
      insight->target.view = "trace";
      insight->target.run_id = run->id;
      _tes_insights_set_range (insight, start, end);
    }

  return TRUE;
}
