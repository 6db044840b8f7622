/* tes-share-chart-layout.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Sizes the widget measures from its font; all in pixels. */
typedef struct
{
  double row_height;          /* one row, text included */
  double row_spacing;         /* between two rows */
  double padding;             /* around the whole chart */
  double column_spacing;      /* between label, bar and value */
  double min_bar_area;        /* labels are truncated before bars get narrower */
  double max_label_fraction;  /* labels never take more of the width than this */
} TesShareChartMetrics;

/* One row as the widget hands it in. */
typedef struct
{
  double share;               /* percent; NaN or <= 0 draws no bar */
  double label_width;         /* natural width of the label text */
  double value_width;         /* natural width of the value text */
} TesShareChartItem;

typedef struct
{
  double   y;
  double   height;
  double   label_x;
  double   label_width;       /* what the label may use */
  double   bar_x;
  double   bar_width;
  double   value_x;
  gboolean label_truncated;
} TesShareChartRow;

typedef struct
{
  double            width;
  double            height;
  double            label_column;
  double            bar_x;
  double            bar_area;  /* width of the bar of the largest share */
  double            max_share;
  guint             n_rows;
  TesShareChartRow  rows[];
} TesShareChartLayout;

#define TES_SHARE_CHART_N_COLORS 12

/* 0xRRGGBB, indexed by the slots tes_share_chart_assign_colors() gives. */
extern const guint32 tes_share_chart_palette[TES_SHARE_CHART_N_COLORS];

TesShareChartLayout *tes_share_chart_layout_new            (const TesShareChartItem    *items,
                                                            guint                       n_items,
                                                            const TesShareChartMetrics *metrics,
                                                            double                      width);
void                 tes_share_chart_layout_free           (TesShareChartLayout        *layout);
int                  tes_share_chart_layout_hit_test       (const TesShareChartLayout  *layout,
                                                            double                      y);
double               tes_share_chart_layout_measure_height (guint                       n_items,
                                                            const TesShareChartMetrics *metrics);
double               tes_share_chart_layout_measure_width  (const TesShareChartItem    *items,
                                                            guint                       n_items,
                                                            const TesShareChartMetrics *metrics,
                                                            double                      bar_area);
guint                tes_share_chart_color_index           (const char                 *type);
void                 tes_share_chart_assign_colors         (const char * const         *types,
                                                            const double               *weights,
                                                            guint                       n_items,
                                                            guint                      *slots);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TesShareChartLayout, tes_share_chart_layout_free)

G_END_DECLS
