/* tes-tiles-layout.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-report.h"

G_BEGIN_DECLS

/* Tile balance without a display: per IPU, how its tile-cycles split
 * between computing, exchanging, syncing and waiting over a range of BSP
 * steps, and the ten least and most busy tiles. */
typedef struct
{
  gint    ipu;
  guint   n_tiles;
  gint64  cycles[4];       /* by TesTileState */
  GArray *least;           /* TesTileActivity, up to ten, least busy first */
  GArray *most;            /* most busy first */
  GArray *tiles;           /* TesTileActivity, every tile in tile order */
  gboolean has_union;      /* a device's units: the device's own row below */
  gint64  union_cycles[4]; /* its busy (the union of its units' work) and idle */
} TesTileBalance;

/* A column of the chart of every tile: the tiles that fall into one
 * pixel column, drawn as the least busy of them, its top stacked by
 * state, with a tick at the most busy one's share. */
typedef struct
{
  guint  first;            /* its tiles: [first, last) of the balance's tiles */
  guint  last;
  guint  least;            /* the least busy of them (drawn), an index of tiles */
  guint  most;             /* the most busy (its tick) */
  double x;
  double width;
  double heights[4];       /* the least busy one's stack by TesTileState (idle: 0) */
  double top;              /* y of its busy share */
  double most_top;         /* y of the most busy one's */
} TesTileColumn;

typedef struct
{
  GArray *columns;         /* TesTileColumn, in tile order */
  double  mean;            /* the tiles' mean busy share, 0 to 1 */
  double  mean_y;          /* where its dashed line goes */
} TesTileChart;

/* the height of a chart's plot, 0 to 100 % */
#define TES_TILE_CHART_HEIGHT 96.0

GPtrArray    *tes_tile_balance_compute     (GArray                *activity,
                                            guint                  n_extremes);
GPtrArray    *tes_tile_balances_new        (TesReport             *report,
                                            GPtrArray             *ipus,
                                            gint64                 t0,
                                            gint64                 t1,
                                            GError               **error);
gint64        tes_tile_activity_busy       (const TesTileActivity *activity);
double        tes_tile_activity_share      (const TesTileActivity *activity,
                                            TesTileState           state);
double        tes_tile_activity_busy_share (const TesTileActivity *activity);
void          tes_tile_balance_free        (TesTileBalance        *balance);
TesTimeUnit   tes_tile_balance_unit        (const TesTileBalance  *balance,
                                            TesTimeUnit            view_unit);
char         *tes_tile_format_busy         (const TesTileActivity *tile,
                                            TesTimeUnit            unit,
                                            double                 cycles_per_ns);
void          tes_tile_chart_plot          (double                 width,
                                            double                *x,
                                            double                *plot_width);
TesTileChart *tes_tile_chart_new           (const TesTileBalance  *balance,
                                            double                 x,
                                            double                 y,
                                            double                 width,
                                            double                 height);
void          tes_tile_chart_free          (TesTileChart          *chart);
int           tes_tile_balance_find_tile   (const TesTileBalance  *balance,
                                            int                    tile);
int           tes_tile_balances_find       (GPtrArray             *balances,
                                            int                    ipu,
                                            int                    tile,
                                            int                   *index);
int           tes_tile_balances_listed     (GPtrArray             *balances,
                                            int                    ipu,
                                            int                    tile);
int           tes_tile_chart_column_of     (const TesTileChart    *chart,
                                            guint                  index);
int           tes_tile_chart_tile_at       (const TesTileChart    *chart,
                                            double                 x);
guint32       tes_tile_state_color         (TesTileState           state);
const char   *tes_tile_state_name          (TesTileState           state);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TesTileChart, tes_tile_chart_free)

G_END_DECLS
