/* tes-insights-private.h: what the files finding each area's insights share
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-insights.h"

G_BEGIN_DECLS

/* One computation's report(s), thresholds and findings so far. */
typedef struct
{
  TesReport                  *report;
  TesReport                  *compare;
  const TesInsightThresholds *thresholds;
  GPtrArray                  *out;
  gint64                      span_start;   /* ns */
  gint64                      span_end;
  GPtrArray                  *texts;        /* what count_text() wrote, freed with the context */
} Ctx;

#define T(ctx, name) ((ctx)->thresholds->values[TES_INSIGHT_T_##name])

/* Building a finding (tes-insights.c) */
TesInsight *_tes_insights_add            (Ctx              *ctx,
                                          TesInsightKind    kind,
                                          double            cost,
                                          TesInsightUnit    unit,
                                          double            share,
                                          GVariantBuilder  *evidence,
                                          char             *sentence);
void        _tes_insights_put_int        (GVariantBuilder  *b,
                                          const char       *key,
                                          gint64            value);
void        _tes_insights_put_double     (GVariantBuilder  *b,
                                          const char       *key,
                                          double            value);
void        _tes_insights_put_string     (GVariantBuilder  *b,
                                          const char       *key,
                                          const char       *value);
void        _tes_insights_put_list       (GVariantBuilder  *b,
                                          const char       *key,
                                          GVariantBuilder  *list);
void        _tes_insights_set_range      (TesInsight       *insight,
                                          gint64            start_ns,
                                          gint64            end_ns);
char       *_tes_insights_duration_text  (double            ns);
const char *_tes_insights_count_text     (Ctx              *ctx,
                                          guint             n);

/* Each area's findings, added to ctx->out (FALSE: an error) */
gboolean    _tes_insights_find_memory        (Ctx           *ctx,
                                              GError       **error);
gboolean    _tes_insights_find_bsp_steps     (Ctx           *ctx,
                                              GCancellable  *cancellable,
                                              GError       **error);
gboolean    _tes_insights_find_tile_activity (Ctx           *ctx,
                                              GError       **error);
gboolean    _tes_insights_find_units         (Ctx           *ctx,
                                              GCancellable  *cancellable,
                                              GError       **error);
gboolean    _tes_insights_find_operators     (Ctx           *ctx,
                                              GError       **error);
gboolean    _tes_insights_find_launch_bound  (Ctx           *ctx,
                                              GError       **error);
gboolean    _tes_insights_find_slow_steps    (Ctx           *ctx,
                                              GError       **error);
gboolean    _tes_insights_find_compare       (Ctx           *ctx,
                                              GCancellable  *cancellable,
                                              GError       **error);

G_END_DECLS
