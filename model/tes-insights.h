/* tes-insights.h: the few places where a run's time and memory go wrong
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "tes-report.h"
#include "tes-workspace.h"

G_BEGIN_DECLS

/* What a finding is about; docs/insights.md explains each. */
typedef enum
{
  /* memory (reports with per-tile memory) */
  TES_INSIGHT_TILES_OVER_LIMIT,
  TES_INSIGHT_MEMORY_IMBALANCE,
  TES_INSIGHT_ALWAYS_LIVE,
  TES_INSIGHT_HISTOGRAM_MISMATCH,
  /* BSP and tiles (Poplar tile traces and execution profiles) */
  TES_INSIGHT_STEP_BALANCE,
  TES_INSIGHT_SYNC_SHARE,
  TES_INSIGHT_EXCHANGE_SHARE,
  TES_INSIGHT_IDLE_TILES,
  TES_INSIGHT_HOT_TILES,
  /* execution and units (every vendor) */
  TES_INSIGHT_IDLE_GAPS,
  TES_INSIGHT_LONG_OPERATOR,
  TES_INSIGHT_LAUNCH_BOUND,
  TES_INSIGHT_SLOW_STEP,
  /* two runs */
  TES_INSIGHT_REGRESSION,
  TES_INSIGHT_STEP_REGRESSION,
  TES_INSIGHT_MEMORY_CHANGE,
  TES_INSIGHT_N_KINDS
} TesInsightKind;

typedef enum
{
  TES_INSIGHT_UNIT_BYTES,
  TES_INSIGHT_UNIT_CYCLES,
  TES_INSIGHT_UNIT_NS,
  TES_INSIGHT_UNIT_PERCENT,
  TES_INSIGHT_UNIT_TILES,
} TesInsightUnit;

/* The thresholds, in one place: their names, defaults and meaning are
 * tes_insight_threshold_get_info()'s and docs/insights.md's. */
typedef enum
{
  TES_INSIGHT_T_MEMORY_IMBALANCE,
  TES_INSIGHT_T_HEAVIEST_TILES,
  TES_INSIGHT_T_ALWAYS_LIVE_SHARE,
  TES_INSIGHT_T_STEP_BALANCE,
  TES_INSIGHT_T_STEP_MIN_SHARE,
  TES_INSIGHT_T_STEPS_LISTED,
  TES_INSIGHT_T_SYNC_SHARE,
  TES_INSIGHT_T_EXCHANGE_SHARE,
  TES_INSIGHT_T_IDLE_TILE_SHARE,
  TES_INSIGHT_T_HOT_TILE_FACTOR,
  TES_INSIGHT_T_IDLE_GAP_US,
  TES_INSIGHT_T_GAPS_LISTED,
  TES_INSIGHT_T_OPERATOR_SHARE,
  TES_INSIGHT_T_OPERATORS_LISTED,
  TES_INSIGHT_T_LAUNCH_BOUND_RATIO,
  TES_INSIGHT_T_LAUNCH_BOUND_MIN_SHARE,
  TES_INSIGHT_T_SLOW_STEP_FACTOR,
  TES_INSIGHT_T_REGRESSION_PCT,
  TES_INSIGHT_T_REGRESSION_MIN_SHARE,
  TES_INSIGHT_T_MEMORY_CHANGE_PCT,
  TES_INSIGHT_N_THRESHOLDS
} TesInsightThreshold;

typedef struct
{
  const char *name;          /* as --threshold NAME=VALUE spells it */
  double      value;         /* the default */
  const char *unit;          /* "×", "%", "µs", "tiles"… */
  const char *description;   /* one line, English (docs/insights.md) */
} TesInsightThresholdInfo;

typedef struct
{
  double values[TES_INSIGHT_N_THRESHOLDS];
} TesInsightThresholds;

/* Where a finding is seen: a section of the window (by the name
 * `tessera-cli render --view` takes) with something selected in it. -1 /
 * 0 / NULL: nothing of that kind. */
typedef struct
{
  const char *view;          /* "memory-tiles", "bsp", "tile-balance", "trace", "summary" */
  gint        ipu;
  gint        tile;
  gint64      run_id;        /* the BSP step's run (its IPU), or the step's */
  gint64      step;          /* a BSP step, -1: none */
  gboolean    has_range;
  gint64      start_ns;      /* on the report's time base */
  gint64      end_ns;
  gint64      track_id;      /* a lane: a unit's track */
  char       *lane;          /* its name */
  char       *operator_name;
  gboolean    in_b;          /* in the compared run (B) */
} TesInsightTarget;

typedef struct
{
  TesInsightKind    kind;
  guint             rank;         /* 1: the costliest */
  double            cost;         /* in cost_unit */
  TesInsightUnit    cost_unit;
  double            share;        /* percent of the whole the kind names (docs) */
  char             *sentence;     /* one sentence, translated */
  GVariant         *evidence;     /* a{sv}: the numbers, by stable key */
  TesInsightTarget  target;
} TesInsight;

const char *tes_insight_kind_get_name        (TesInsightKind kind);
const char *tes_insight_kind_get_area        (TesInsightKind kind);
const char *tes_insight_unit_get_name        (TesInsightUnit unit);

const TesInsightThresholdInfo *tes_insight_threshold_get_info (TesInsightThreshold threshold);
void        tes_insight_thresholds_init      (TesInsightThresholds *thresholds);
gboolean    tes_insight_thresholds_parse     (TesInsightThresholds *thresholds,
                                              const char           *assignment,
                                              GError              **error);

GPtrArray  *tes_insights_compute             (TesReport                  *report,
                                              TesReport                  *compare,
                                              const TesInsightThresholds *thresholds,
                                              GCancellable               *cancellable,
                                              GError                    **error);
void        tes_insights_compute_async       (TesReport                  *report,
                                              TesReport                  *compare,
                                              const TesInsightThresholds *thresholds,
                                              GCancellable               *cancellable,
                                              GAsyncReadyCallback         callback,
                                              gpointer                    user_data);
GPtrArray  *tes_insights_compute_two_runs    (TesReport                  *report,
                                              TesReport                  *compare,
                                              const TesInsightThresholds *thresholds,
                                              GCancellable               *cancellable,
                                              GError                    **error);
void        tes_insights_compute_two_runs_async (TesReport               *report,
                                              TesReport                  *compare,
                                              const TesInsightThresholds *thresholds,
                                              GCancellable               *cancellable,
                                              GAsyncReadyCallback         callback,
                                              gpointer                    user_data);
GPtrArray  *tes_insights_compute_finish      (TesReport                  *report,
                                              GAsyncResult               *result,
                                              GError                    **error);
void        tes_insight_apply                (const TesInsight           *insight,
                                              TesWorkspace               *workspace);
char      **tes_insight_dup_render_args      (const TesInsight           *insight,
                                              TesReport                  *report);
void        tes_insight_free                 (TesInsight                 *insight);
char       *tes_insight_format_cost          (const TesInsight           *insight);
char       *tes_insight_format_ns            (double                      ns);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TesInsight, tes_insight_free)

G_END_DECLS
