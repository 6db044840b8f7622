/* tes-insights.c: the few places where a run's time and memory go wrong,
 * found with the views' own queries and ranked by what they cost
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

/* ---- Kinds, units, thresholds ------------------------------------------ */

static const struct {
  const char *name;
  const char *area;
} kinds[TES_INSIGHT_N_KINDS] = {
  [TES_INSIGHT_TILES_OVER_LIMIT] = { "tiles-over-limit", "memory" },
  [TES_INSIGHT_MEMORY_IMBALANCE] = { "memory-imbalance", "memory" },
  [TES_INSIGHT_ALWAYS_LIVE] = { "always-live", "memory" },
  [TES_INSIGHT_HISTOGRAM_MISMATCH] = { "histogram-mismatch", "memory" },
  [TES_INSIGHT_STEP_BALANCE] = { "step-balance", "bsp" },
  [TES_INSIGHT_SYNC_SHARE] = { "sync-share", "bsp" },
  [TES_INSIGHT_EXCHANGE_SHARE] = { "exchange-share", "bsp" },
  [TES_INSIGHT_IDLE_TILES] = { "idle-tiles", "bsp" },
  [TES_INSIGHT_HOT_TILES] = { "hot-tiles", "bsp" },
  [TES_INSIGHT_IDLE_GAPS] = { "idle-gaps", "execution" },
  [TES_INSIGHT_LONG_OPERATOR] = { "long-operator", "execution" },
  [TES_INSIGHT_LAUNCH_BOUND] = { "launch-bound", "execution" },
  [TES_INSIGHT_SLOW_STEP] = { "slow-step", "execution" },
  [TES_INSIGHT_REGRESSION] = { "regression", "compare" },
  [TES_INSIGHT_STEP_REGRESSION] = { "step-regression", "compare" },
  [TES_INSIGHT_MEMORY_CHANGE] = { "memory-change", "compare" },
};

/* The one table of thresholds: docs/insights.md explains each. */
static const TesInsightThresholdInfo thresholds_info[TES_INSIGHT_N_THRESHOLDS] = {
  [TES_INSIGHT_T_MEMORY_IMBALANCE] = { "memory_imbalance", 1.5, "×",
    "memory-imbalance: the heaviest tile holds at least this many times the mean tile's bytes" },
  [TES_INSIGHT_T_HEAVIEST_TILES] = { "heaviest_tiles", 5, "tiles",
    "memory-imbalance: how many of the heaviest tiles its evidence lists" },
  [TES_INSIGHT_T_ALWAYS_LIVE_SHARE] = { "always_live_share", 50, "%",
    "always-live: always-live memory holds at least this share of all tiles' bytes" },
  [TES_INSIGHT_T_STEP_BALANCE] = { "step_balance", 50, "%",
    "step-balance: a BSP step whose tile balance is below this" },
  [TES_INSIGHT_T_STEP_MIN_SHARE] = { "step_min_share", 1, "%",
    "step-balance: and that holds at least this share of its IPU's cycles" },
  [TES_INSIGHT_T_STEPS_LISTED] = { "steps_listed", 5, "steps",
    "step-balance: at most this many steps, the costliest" },
  [TES_INSIGHT_T_SYNC_SHARE] = { "sync_share", 25, "%",
    "sync-share: an IPU's tiles sync for at least this share of their cycles" },
  [TES_INSIGHT_T_EXCHANGE_SHARE] = { "exchange_share", 40, "%",
    "exchange-share: an IPU's tiles exchange for at least this share of their cycles" },
  [TES_INSIGHT_T_IDLE_TILE_SHARE] = { "idle_tile_share", 90, "%",
    "idle-tiles: a tile idle for at least this share of its IPU's steps" },
  [TES_INSIGHT_T_HOT_TILE_FACTOR] = { "hot_tile_factor", 1.5, "×",
    "hot-tiles: a tile busy for at least this many times its IPU's mean busy cycles" },
  [TES_INSIGHT_T_IDLE_GAP_US] = { "idle_gap_us", 100, "µs",
    "idle-gaps: a unit's gap between two stretches of work at least this long" },
  [TES_INSIGHT_T_GAPS_LISTED] = { "gaps_listed", 5, "gaps",
    "idle-gaps: how many of a unit's largest gaps its evidence lists" },
  [TES_INSIGHT_T_OPERATOR_SHARE] = { "operator_share", 10, "%",
    "long-operator: an operator holding at least this share of the operators' time" },
  [TES_INSIGHT_T_OPERATORS_LISTED] = { "operators_listed", 5, "operators",
    "long-operator: at most this many operators, the longest" },
  [TES_INSIGHT_T_LAUNCH_BOUND_RATIO] = { "launch_bound_ratio", 0.2, "×",
    "launch-bound: an operator whose device time is below this fraction of its host time" },
  [TES_INSIGHT_T_LAUNCH_BOUND_MIN_SHARE] = { "launch_bound_min_share", 1, "%",
    "launch-bound: and whose host time is at least this share of the run's span" },
  [TES_INSIGHT_T_SLOW_STEP_FACTOR] = { "slow_step_factor", 1.5, "×",
    "slow-step: a step (run) at least this many times the median step's time" },
  [TES_INSIGHT_T_REGRESSION_PCT] = { "regression_pct", 10, "%",
    "regression, step-regression: B slower than A by more than this" },
  [TES_INSIGHT_T_REGRESSION_MIN_SHARE] = { "regression_min_share", 1, "%",
    "regression: for an operator holding at least this share of either run" },
  [TES_INSIGHT_T_MEMORY_CHANGE_PCT] = { "memory_change_pct", 5, "%",
    "memory-change: all tiles' bytes changed by at least this much, or a tile newly over its limit" },
};

const char *
tes_insight_kind_get_name (TesInsightKind kind)
{
  g_return_val_if_fail (kind < TES_INSIGHT_N_KINDS, NULL);

  return kinds[kind].name;
}

const char *
tes_insight_kind_get_area (TesInsightKind kind)
{
  g_return_val_if_fail (kind < TES_INSIGHT_N_KINDS, NULL);

  return kinds[kind].area;
}

const char *
tes_insight_unit_get_name (TesInsightUnit unit)
{
  static const char * const names[] = { "bytes", "cycles", "ns", "percent", "tiles" };

  g_return_val_if_fail (unit < G_N_ELEMENTS (names), NULL);

  return names[unit];
}

/* A count for ngettext(): languages choose their plural by the last
 * digits, so a count past gulong keeps those. */
static gulong
plural_count (double value)
{
  value = fabs (value);
  return value < 1e9 ? (gulong)value : 1000000000ul + (gulong)fmod (value, 1000.0);
}

/**
 * tes_insight_format_ns:
 *
 * A duration in the unit that keeps it short: "12.854 ms", "340.000 µs",
 * "87 ns", as findings' costs and evidence print it.
 *
 * Returns: (transfer full): the text
 */
char *
tes_insight_format_ns (double ns)
{
  return tes_format_duration (ns, fabs (ns) >= 1e6 ? TES_TIME_UNIT_MS
                              : fabs (ns) >= 1e3 ? TES_TIME_UNIT_US : TES_TIME_UNIT_NS);
}

/**
 * tes_insight_format_cost:
 *
 * What @insight costs, as `tessera-cli insights` and the window print it:
 * "214,836 bytes", "12.854 ms", "3,204 cycles", "52.5 %" (the unit's word
 * translated; `--json`'s cost_unit is the stable name).
 *
 * Returns: (transfer full): the text
 */
char *
tes_insight_format_cost (const TesInsight *insight)
{
  g_autofree char *grouped = NULL;
  gulong n;

  g_return_val_if_fail (insight != NULL, NULL);

  if (insight->cost_unit == TES_INSIGHT_UNIT_NS)
    return tes_insight_format_ns (insight->cost);
  if (insight->cost_unit == TES_INSIGHT_UNIT_PERCENT)
    return g_strdup_printf ("%.1f %%", insight->cost);

  grouped = tes_format_grouped (insight->cost);
  n = plural_count (insight->cost);
  switch (insight->cost_unit)
    {
    case TES_INSIGHT_UNIT_BYTES:
      /* Translators: a finding's cost; %s is a grouped number */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s byte", "%s bytes", n), grouped);
    case TES_INSIGHT_UNIT_CYCLES:
      /* Translators: a finding's cost; %s is a grouped number */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s cycle", "%s cycles", n), grouped);
    case TES_INSIGHT_UNIT_TILES:
    default:
      /* Translators: a finding's cost; %s is a grouped number */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s tile", "%s tiles", n), grouped);
    }
}

const TesInsightThresholdInfo *
tes_insight_threshold_get_info (TesInsightThreshold threshold)
{
  g_return_val_if_fail (threshold < TES_INSIGHT_N_THRESHOLDS, NULL);

  return &thresholds_info[threshold];
}

void
tes_insight_thresholds_init (TesInsightThresholds *thresholds)
{
  g_return_if_fail (thresholds != NULL);

  for (guint i = 0; i < TES_INSIGHT_N_THRESHOLDS; i++)
    thresholds->values[i] = thresholds_info[i].value;
}

/* Far beyond any figure a report holds, and within what gint64 ns and
 * guint counts take. */
#define THRESHOLD_MAX 1e12

/* "NAME=VALUE", VALUE a number from 0 to THRESHOLD_MAX. */
gboolean
tes_insight_thresholds_parse (TesInsightThresholds *thresholds,
                              const char           *assignment,
                              GError              **error)
{
  const char *equals;
  g_autofree char *name = NULL;
  char *end = NULL;
  double value;

  g_return_val_if_fail (thresholds != NULL && assignment != NULL, FALSE);

  if ((equals = strchr (assignment, '=')) == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "“%s”: a threshold is NAME=VALUE", assignment);
      return FALSE;
    }
  name = g_strndup (assignment, equals - assignment);
  value = g_ascii_strtod (equals + 1, &end);
  if (end == equals + 1 || *end != '\0' || !isfinite (value) || value < 0 || value > THRESHOLD_MAX)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "“%s”: the value must be a number from 0 to %g", assignment, THRESHOLD_MAX);
      return FALSE;
    }

  for (guint i = 0; i < TES_INSIGHT_N_THRESHOLDS; i++)
    if (g_str_equal (name, thresholds_info[i].name))
      {
        thresholds->values[i] = value;
        return TRUE;
      }

  {
    g_autoptr(GString) names = g_string_new (NULL);

    for (guint i = 0; i < TES_INSIGHT_N_THRESHOLDS; i++)
      g_string_append_printf (names, "%s%s", i ? ", " : "", thresholds_info[i].name);
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                 "unknown threshold “%s”; the thresholds: %s", name, names->str);
  }
  return FALSE;
}

void
tes_insight_free (TesInsight *insight)
{
  if (insight == NULL)
    return;

  g_free (insight->sentence);
  g_clear_pointer (&insight->evidence, g_variant_unref);
  g_free (insight->target.lane);
  g_free (insight->target.operator_name);
  g_free (insight);
}

/* ---- Building findings ------------------------------------------------- */


/* @n grouped after the locale ("1,403"), for a sentence's %s: alive as
 * long as @ctx. */
const char *
_tes_insights_count_text (Ctx   *ctx,
                          guint  n)
{
  char *text = tes_format_grouped (n);

  g_ptr_array_add (ctx->texts, text);

  return text;
}

/* A finding with its evidence (an a{sv} builder's, floating) and a
 * sentence (owned): the target is left for the caller to fill. */
TesInsight *
_tes_insights_add (Ctx            *ctx,
                   TesInsightKind  kind,
                   double          cost,
                   TesInsightUnit  unit,
                   double          share,
                   GVariantBuilder *evidence,
                   char           *sentence)
{
  TesInsight *insight = g_new0 (TesInsight, 1);

  insight->kind = kind;
  insight->cost = cost;
  insight->cost_unit = unit;
  insight->share = share;
  insight->evidence = g_variant_ref_sink (g_variant_builder_end (evidence));
  insight->sentence = sentence;
  insight->target.ipu = -1;
  insight->target.tile = -1;
  insight->target.step = -1;
  g_ptr_array_add (ctx->out, insight);

  return insight;
}

void
_tes_insights_put_int (GVariantBuilder *b,
                       const char      *key,
                       gint64           value)
{
  g_variant_builder_add (b, "{sv}", key, g_variant_new_int64 (value));
}

void
_tes_insights_put_double (GVariantBuilder *b,
                          const char      *key,
                          double           value)
{
  /* JSON has no NaN: a figure that is not one is left out */
  if (isfinite (value))
    g_variant_builder_add (b, "{sv}", key, g_variant_new_double (value));
}

void
_tes_insights_put_string (GVariantBuilder *b,
                          const char      *key,
                          const char      *value)
{
  g_variant_builder_add (b, "{sv}", key, g_variant_new_string (value != NULL ? value : ""));
}

/* the list builder's items are a{sv} */
void
_tes_insights_put_list (GVariantBuilder *b,
                        const char      *key,
                        GVariantBuilder *list)
{
  g_variant_builder_add (b, "{sv}", key, g_variant_builder_end (list));
}

void
_tes_insights_set_range (TesInsight *insight,
                         gint64      start_ns,
                         gint64      end_ns)
{
  insight->target.has_range = end_ns > start_ns;
  insight->target.start_ns = start_ns;
  insight->target.end_ns = end_ns;
}

/* ns as text in the unit that suits it */
char *
_tes_insights_duration_text (double ns)
{
  if (fabs (ns) >= 1e6)
    return tes_format_duration (ns, TES_TIME_UNIT_MS);
  if (fabs (ns) >= 1e3)
    return tes_format_duration (ns, TES_TIME_UNIT_US);
  return tes_format_duration (ns, TES_TIME_UNIT_NS);
}

/* ---- All of them ------------------------------------------------------- */

static int
compare_insights_by_cost (gconstpointer a,
                          gconstpointer b)
{
  const TesInsight *x = *(TesInsight * const *)a, *y = *(TesInsight * const *)b;

  if (x->share != y->share)
    return x->share > y->share ? -1 : 1;
  if (x->kind != y->kind)
    return x->kind < y->kind ? -1 : 1;
  return x->cost > y->cost ? -1 : x->cost < y->cost;
}

static GPtrArray *
compute (TesReport                  *report,
         TesReport                  *compare,
         gboolean                    two_runs_only,
         const TesInsightThresholds *thresholds,
         GCancellable               *cancellable,
         GError                    **error)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify)tes_insight_free);
  TesInsightThresholds defaults;
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  Ctx ctx = { report, compare, thresholds, out, 0, 0, texts };

  if (thresholds == NULL)
    {
      tes_insight_thresholds_init (&defaults);
      ctx.thresholds = &defaults;
    }
  tes_report_get_span (report, 0, &ctx.span_start, &ctx.span_end);

  if (!two_runs_only &&
      (!_tes_insights_find_memory (&ctx, error) ||
       g_cancellable_set_error_if_cancelled (cancellable, error) ||
       !_tes_insights_find_bsp_steps (&ctx, cancellable, error) ||
       !_tes_insights_find_tile_activity (&ctx, error) ||
       g_cancellable_set_error_if_cancelled (cancellable, error) ||
       !_tes_insights_find_units (&ctx, cancellable, error) ||
       !_tes_insights_find_operators (&ctx, error) ||
       !_tes_insights_find_launch_bound (&ctx, error) ||
       !_tes_insights_find_slow_steps (&ctx, error)))
    return NULL;
  if (g_cancellable_set_error_if_cancelled (cancellable, error) ||
      (compare != NULL && !_tes_insights_find_compare (&ctx, cancellable, error)))
    return NULL;

  /* a stable sort: the two-run findings keep among themselves the order
   * they have among all of them */
  g_ptr_array_sort (out, compare_insights_by_cost);
  for (guint i = 0; i < out->len; i++)
    ((TesInsight *)g_ptr_array_index (out, i))->rank = i + 1;

  return g_steal_pointer (&out);
}

/**
 * tes_insights_compute:
 * @report: the run
 * @compare: (nullable): a second run to compare @report (A) with (B)
 * @thresholds: (nullable): NULL for the defaults
 *
 * The findings of @report (and of the two runs), ranked: the largest share
 * of what its kind measures first (docs/insights.md). Any thread may call
 * it (a GTask's); @cancellable is checked between the kinds and lanes.
 *
 * Returns: (transfer full) (element-type TesInsight): the findings, NULL
 *   with @error set when a query fails
 */
GPtrArray *
tes_insights_compute (TesReport                  *report,
                      TesReport                  *compare,
                      const TesInsightThresholds *thresholds,
                      GCancellable               *cancellable,
                      GError                    **error)
{
  g_return_val_if_fail (TES_IS_REPORT (report), NULL);
  g_return_val_if_fail (compare == NULL || TES_IS_REPORT (compare), NULL);

  return compute (report, compare, FALSE, thresholds, cancellable, error);
}

/**
 * tes_insights_compute_two_runs:
 * @report: run A
 * @compare: run B
 *
 * The findings of the two runs alone (`regression`, `step-regression`,
 * `memory-change`), ranked among themselves: what the Compare section
 * lists. They are tes_insights_compute()'s of the same runs, in the same
 * order, without A's own.
 *
 * Returns: (transfer full) (element-type TesInsight): the findings, NULL
 *   with @error set when a query fails
 */
GPtrArray *
tes_insights_compute_two_runs (TesReport                  *report,
                               TesReport                  *compare,
                               const TesInsightThresholds *thresholds,
                               GCancellable               *cancellable,
                               GError                    **error)
{
  g_return_val_if_fail (TES_IS_REPORT (report), NULL);
  g_return_val_if_fail (TES_IS_REPORT (compare), NULL);

  return compute (report, compare, TRUE, thresholds, cancellable, error);
}

typedef struct
{
  TesReport            *compare;
  gboolean              two_runs_only;
  TesInsightThresholds  thresholds;
} ComputeData;

static void
compute_data_free (ComputeData *data)
{
  g_clear_object (&data->compare);
  g_free (data);
}

static void
compute_thread (GTask        *task,
                gpointer      source,
                gpointer      task_data,
                GCancellable *cancellable)
{
  ComputeData *data = task_data;
  GError *error = NULL;
  GPtrArray *insights = compute (source, data->compare, data->two_runs_only, &data->thresholds, cancellable, &error);

  if (insights == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, insights, (GDestroyNotify)g_ptr_array_unref);
}

static void
compute_async (TesReport                  *report,
               TesReport                  *compare,
               gboolean                    two_runs_only,
               const TesInsightThresholds *thresholds,
               GCancellable               *cancellable,
               GAsyncReadyCallback         callback,
               gpointer                    user_data)
{
  g_autoptr(GTask) task = NULL;
  ComputeData *data = g_new0 (ComputeData, 1);

  data->compare = compare != NULL ? g_object_ref (compare) : NULL;
  data->two_runs_only = two_runs_only;
  if (thresholds != NULL)
    data->thresholds = *thresholds;
  else
    tes_insight_thresholds_init (&data->thresholds);

  task = g_task_new (report, cancellable, callback, user_data);
  g_task_set_source_tag (task, compute_async);
  g_task_set_task_data (task, data, (GDestroyNotify)compute_data_free);
  g_task_run_in_thread (task, compute_thread);
}

/* tes_insights_compute() in a thread, for the window (a big trace's units
 * take a while to read). */
void
tes_insights_compute_async (TesReport                  *report,
                            TesReport                  *compare,
                            const TesInsightThresholds *thresholds,
                            GCancellable               *cancellable,
                            GAsyncReadyCallback         callback,
                            gpointer                    user_data)
{
  g_return_if_fail (TES_IS_REPORT (report));
  g_return_if_fail (compare == NULL || TES_IS_REPORT (compare));

  compute_async (report, compare, FALSE, thresholds, cancellable, callback, user_data);
}

/* tes_insights_compute_two_runs() in a thread, for the Compare section;
 * tes_insights_compute_finish() gives its findings. */
void
tes_insights_compute_two_runs_async (TesReport                  *report,
                                     TesReport                  *compare,
                                     const TesInsightThresholds *thresholds,
                                     GCancellable               *cancellable,
                                     GAsyncReadyCallback         callback,
                                     gpointer                    user_data)
{
  g_return_if_fail (TES_IS_REPORT (report));
  g_return_if_fail (TES_IS_REPORT (compare));

  compute_async (report, compare, TRUE, thresholds, cancellable, callback, user_data);
}

GPtrArray *
tes_insights_compute_finish (TesReport     *report,
                             GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, report), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * tes_insight_apply:
 * @workspace: the workspace of the run the finding is in (B's for a
 *   finding with target.in_b)
 *
 * Puts the finding's selection on @workspace, as activating it in the
 * window does before showing target.view: its range shown and selected,
 * its IPU, tile, BSP step and run. The lane and the operator are the
 * view's to select (the workspace has no such cursor).
 */
void
tes_insight_apply (const TesInsight *insight,
                   TesWorkspace     *workspace)
{
  const TesInsightTarget *t;

  g_return_if_fail (insight != NULL && TES_IS_WORKSPACE (workspace));

  t = &insight->target;
  if (t->has_range)
    {
      tes_workspace_set_visible (workspace, t->start_ns, t->end_ns);
      tes_workspace_set_selection (workspace, t->start_ns, t->end_ns);
    }
  /* the finding's selection replaces the one before: what it does not
   * name is cleared, so that no tile of an earlier finding stays marked */
  tes_workspace_set_run (workspace, MAX (t->run_id, 0));
  tes_workspace_set_step (workspace, MAX (t->step, -1));
  tes_workspace_set_ipu (workspace, MAX (t->ipu, -1));
  tes_workspace_set_tile (workspace, MAX (t->tile, -1));
}

/**
 * tes_insight_dup_render_args:
 *
 * The `tessera-cli render` arguments that draw @insight's section over its
 * range: `--view NAME`, and `--range STARTns:ENDns` since the run's start
 * (@report's, or B's when the finding is in B).
 *
 * Returns: (transfer full): a NULL-terminated array
 */
char **
tes_insight_dup_render_args (const TesInsight *insight,
                             TesReport        *report)
{
  g_autoptr(GStrvBuilder) args = g_strv_builder_new ();
  gint64 origin = 0;

  g_return_val_if_fail (insight != NULL && TES_IS_REPORT (report), NULL);

  g_strv_builder_add (args, "--view");
  g_strv_builder_add (args, insight->target.view != NULL ? insight->target.view : "summary");
  if (insight->target.has_range)
    {
      g_autofree char *range = NULL;

      tes_report_get_span (report, 0, &origin, NULL);
      range = g_strdup_printf ("%" G_GINT64_FORMAT "ns:%" G_GINT64_FORMAT "ns",
                               insight->target.start_ns - origin, insight->target.end_ns - origin);
      g_strv_builder_add (args, "--range");
      g_strv_builder_add (args, range);
    }

  return g_strv_builder_end (args);
}
