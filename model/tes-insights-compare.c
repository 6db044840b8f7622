/* tes-insights-compare.c: findings of two runs: the regressions and what changed in memory
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

/* ---- Two runs ---------------------------------------------------------- */

static GPtrArray *
compare_side_rows (TesReport  *report,
                   GError    **error)
{
  g_autoptr(GError) each_error = NULL;
  GPtrArray *rows;

  if ((rows = tes_report_summarize (report, TES_SUMMARY_EACH, TES_GROUP_BY_NAME, &each_error)))
    return rows;

  return tes_report_summarize (report, TES_SUMMARY_TOTAL, TES_GROUP_BY_NAME, error);
}

/* Run @run_id of @report, as the report's time base has it (ns). */
static gboolean
run_range (GArray    *runs,
           TesReport *report,
           gint64     run_id,
           gint64    *start,
           gint64    *end)
{
  for (guint i = 0; runs != NULL && i < runs->len; i++)
    {
      const TesRun *run = &g_array_index (runs, TesRun, i);

      if (run->id == run_id)
        {
          *start = tes_report_convert_time (report, run->clock_id, 0, run->start);
          *end = tes_report_convert_time (report, run->clock_id, 0, run->end);
          return TRUE;
        }
    }

  return FALSE;
}

gboolean
_tes_insights_find_compare (Ctx           *ctx,
                            GCancellable  *cancellable,
                            GError       **error)
{
  g_autoptr(GPtrArray) a_rows = NULL;
  g_autoptr(GPtrArray) b_rows = NULL;
  g_autoptr(GError) local = NULL;
  g_autoptr(TesCompareSummary) summary = NULL;
  g_autoptr(GArray) steps = NULL;
  g_autoptr(GArray) b_runs = NULL;
  gboolean in_order = FALSE;
  gint64 a_steps = 0;

  a_rows = compare_side_rows (ctx->report, &local);
  g_clear_error (&local);
  b_rows = compare_side_rows (ctx->compare, &local);
  g_clear_error (&local);

  if (a_rows != NULL && b_rows != NULL && (a_rows->len > 0 || b_rows->len > 0))
    {
      g_autoptr(TesComparison) comparison = tes_compare_rows (ctx->report, a_rows, ctx->compare, b_rows, TES_COMPARE_BY_NAME);
      g_autoptr(GPtrArray) regressions = NULL;
      gboolean total_slower = FALSE;
      TesInsightUnit unit = comparison->in_percent ? TES_INSIGHT_UNIT_PERCENT
                            : comparison->unit == TES_TIME_UNIT_CYCLES ? TES_INSIGHT_UNIT_CYCLES : TES_INSIGHT_UNIT_NS;

      tes_compare_sort_by_impact (comparison);
      regressions = tes_compare_regressions (comparison, T (ctx, REGRESSION_PCT), T (ctx, REGRESSION_MIN_SHARE),
                                             &total_slower);
      for (guint i = 0; i <= regressions->len; i++)
        {
          const TesCompareRow *row = i < regressions->len ? g_ptr_array_index (regressions, i) : NULL;
          double a = row ? row->a_value : comparison->a_total;
          double b = row ? row->b_value : comparison->b_total;
          const char *name = row ? (row->b->label ? row->b->label : row->b->name) : NULL;
          g_autofree char *a_text = NULL;
          g_autofree char *b_text = NULL;
          GVariantBuilder ev;
          TesInsight *insight;
          double pct = tes_compare_percent (a, b);

          if (row == NULL && !total_slower)
            break;
          a_text = tes_comparison_format (comparison, a, comparison->unit);
          b_text = tes_comparison_format (comparison, b, comparison->unit);
          g_variant_builder_init (&ev, G_VARIANT_TYPE_VARDICT);
          _tes_insights_put_string (&ev, "operator", name);
          _tes_insights_put_double (&ev, "a", a);
          _tes_insights_put_double (&ev, "b", b);
          _tes_insights_put_double (&ev, "delta", b - a);
          _tes_insights_put_double (&ev, "delta_percent", pct);
          _tes_insights_put_string (&ev, "unit", tes_insight_unit_get_name (unit));
          insight = _tes_insights_add (ctx, TES_INSIGHT_REGRESSION, b - a, unit,
                                       comparison->a_total > 0 ? 100.0 * (b - a) / comparison->a_total : 0, &ev,
                                       name != NULL
                                       ? g_strdup_printf (_("%s got %.1f %% slower: %s in A, %s in B."), name, pct, a_text, b_text)
                                       : g_strdup_printf (_("The operators' total got %.1f %% slower: %s in A, %s in B."),
                                                          pct, a_text, b_text));
          insight->target.view = "summary";
          insight->target.operator_name = g_strdup (name);
          insight->target.in_b = TRUE;
        }
    }

  if (g_cancellable_set_error_if_cancelled (cancellable, error) ||
      !(steps = tes_compare_steps (ctx->report, ctx->compare, &in_order, error)))
    return FALSE;
  for (guint j = 0; j < steps->len; j++)
    a_steps += MAX (g_array_index (steps, TesCompareStep, j).a_ns, 0);
  for (guint i = 0; i < steps->len; i++)
    {
      const TesCompareStep *s = &g_array_index (steps, TesCompareStep, i);
      double pct = s->a_ns > 0 && s->b_ns >= 0 ? tes_compare_percent ((double)s->a_ns, (double)s->b_ns) : NAN;
      g_autofree char *a_text = NULL;
      g_autofree char *b_text = NULL;
      GVariantBuilder ev;
      TesInsight *insight;
      gint64 start, end;

      if (isnan (pct) || pct <= T (ctx, REGRESSION_PCT))
        continue;
      if (b_runs == NULL && !(b_runs = tes_report_get_runs (ctx->compare, error)))
        return FALSE;
      a_text = _tes_insights_duration_text ((double)s->a_ns);
      b_text = _tes_insights_duration_text ((double)s->b_ns);
      g_variant_builder_init (&ev, G_VARIANT_TYPE_VARDICT);
      _tes_insights_put_string (&ev, "step", s->name);
      _tes_insights_put_int (&ev, "a_ns", s->a_ns);
      _tes_insights_put_int (&ev, "b_ns", s->b_ns);
      _tes_insights_put_double (&ev, "delta_percent", pct);
      insight = _tes_insights_add (ctx, TES_INSIGHT_STEP_REGRESSION, (double)(s->b_ns - s->a_ns), TES_INSIGHT_UNIT_NS,
                                   a_steps > 0 ? 100.0 * (s->b_ns - s->a_ns) / a_steps : 0, &ev,
                                   g_strdup_printf (_("Step %s got %.1f %% slower: %s in A, %s in B."), s->name, pct, a_text,
                                                    b_text));
      insight->target.view = "trace";
      insight->target.in_b = TRUE;
      /* the step in B, shown and selected there */
      insight->target.run_id = s->b_run_id;
      if (run_range (b_runs, ctx->compare, s->b_run_id, &start, &end))
        _tes_insights_set_range (insight, start, end);
    }

  if (g_cancellable_set_error_if_cancelled (cancellable, error) ||
      !(summary = tes_compare_summarize (ctx->report, ctx->compare, error)))
    return FALSE;
  if (summary->has_memory && summary->a_bytes > 0)
    {
      double pct = 100.0 * (summary->b_bytes - summary->a_bytes) / summary->a_bytes;

      if (fabs (pct) >= T (ctx, MEMORY_CHANGE_PCT) || summary->newly_out->len > 0)
        {
          GVariantBuilder ev, list, cats;
          g_autofree char *a_text = tes_format_grouped ((double)summary->a_bytes);
          g_autofree char *b_text = tes_format_grouped ((double)summary->b_bytes);
          const TesCompareTile *focus = NULL;
          TesInsight *insight;

          g_variant_builder_init (&ev, G_VARIANT_TYPE_VARDICT);
          g_variant_builder_init (&list, G_VARIANT_TYPE ("aa{sv}"));
          g_variant_builder_init (&cats, G_VARIANT_TYPE ("aa{sv}"));
          _tes_insights_put_int (&ev, "a_bytes", summary->a_bytes);
          _tes_insights_put_int (&ev, "b_bytes", summary->b_bytes);
          _tes_insights_put_int (&ev, "delta_bytes", summary->b_bytes - summary->a_bytes);
          _tes_insights_put_double (&ev, "delta_percent", pct);
          _tes_insights_put_int (&ev, "a_out_of_memory", summary->a_out_of_memory);
          _tes_insights_put_int (&ev, "b_out_of_memory", summary->b_out_of_memory);
          for (guint i = 0; i < summary->newly_out->len; i++)
            {
              const TesCompareTile *t = &g_array_index (summary->newly_out, TesCompareTile, i);
              GVariantBuilder item;

              g_variant_builder_init (&item, G_VARIANT_TYPE_VARDICT);
              _tes_insights_put_int (&item, "ipu", t->ipu);
              _tes_insights_put_int (&item, "tile", t->tile);
              _tes_insights_put_int (&item, "a_bytes", t->a_bytes);
              _tes_insights_put_int (&item, "b_bytes", t->b_bytes);
              _tes_insights_put_int (&item, "b_limit_bytes", t->b_limit);
              g_variant_builder_add_value (&list, g_variant_builder_end (&item));
            }
          _tes_insights_put_list (&ev, "newly_out_of_memory", &list);
          for (guint i = 0; i < summary->memory->len; i++)
            {
              const TesCompareMemory *m = &g_array_index (summary->memory, TesCompareMemory, i);
              GVariantBuilder item;

              if (m->a_bytes == m->b_bytes)
                continue;
              g_variant_builder_init (&item, G_VARIANT_TYPE_VARDICT);
              _tes_insights_put_string (&item, "category", m->category);
              _tes_insights_put_int (&item, "a_bytes", m->a_bytes);
              _tes_insights_put_int (&item, "b_bytes", m->b_bytes);
              g_variant_builder_add_value (&cats, g_variant_builder_end (&item));
            }
          _tes_insights_put_list (&ev, "categories", &cats);
          insight = _tes_insights_add (ctx, TES_INSIGHT_MEMORY_CHANGE, (double)(summary->b_bytes - summary->a_bytes),
                                       TES_INSIGHT_UNIT_BYTES, summary->newly_out->len > 0 ? 100 : fabs (pct), &ev,
                                       g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                                     "B's tiles hold %s bytes, A's %s (%+.1f %%); "
                                                                     "%s tile is newly over its limit.",
                                                                     "B's tiles hold %s bytes, A's %s (%+.1f %%); "
                                                                     "%s tiles are newly over their limit.",
                                                                     summary->newly_out->len),
                                                        b_text, a_text, pct, _tes_insights_count_text (ctx, summary->newly_out->len)));
          insight->target.view = "memory-tiles";
          insight->target.in_b = TRUE;
          if (summary->newly_out->len > 0)
            focus = &g_array_index (summary->newly_out, TesCompareTile, 0);
          else if (summary->growths->len > 0)
            focus = &g_array_index (summary->growths, TesCompareTile, 0);
          if (focus != NULL)
            {
              insight->target.ipu = focus->ipu;
              insight->target.tile = focus->tile;
            }
        }
    }

  return TRUE;
}
