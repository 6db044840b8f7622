/* tes-bsp-pyramid.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-report.h"

G_BEGIN_DECLS

/* The BSP pyramid, an index of a run's BSP steps for the heatmap and Tile
 * Balance (no display, no GTK): one IPU's tiles (rows) over time
 * (columns), each cell the state that took most of that stretch of those
 * tiles. A cell is one device pixel: what falls in it is merged.
 *
 * A column holds the steps that start in it (a column no step starts in
 * shows the step in progress there, so a step wider than a column fills
 * every column it covers); a column over part of a step counts that
 * part's cycles, all tiles starting together and each busy for its
 * first cycles (what PopVision's BSP trace draws). Zoomed out, steps are taken in aligned groups
 * of 4^level, groups no wider than a column on average, each group in the
 * column where it starts: a step moves by about a column at most. The
 * pyramid keeps those groups' running sums per block of tiles, built
 * once, so that a frame reads about one row of sums per column: its cost
 * follows the pixels, not the steps. tes_bsp_grid_build() computes the
 * same cells from the steps themselves. */

#define TES_BSP_NO_STATE 0xff

typedef struct
{
  gint64         start;       /* ns */
  gint64         end;
  gint64         dur_cycles;  /* the step's length in its clock's cycles */
  guint          n_tiles;
  const guint32 *tile_cycles;
  const guint8  *tile_states;
} TesBspSpan;

typedef struct
{
  guint   width;              /* columns */
  guint   n_rows;             /* ceil (tiles / tiles_per_row): no more than the height */
  guint   n_tiles;
  guint   tiles_per_row;      /* a power of two */
  guint   level;              /* steps merged in groups of 4^level */
  guint8 *states;             /* width × n_rows, a column after another (a frame
                               * works column by column); TES_BSP_NO_STATE where no step */
  float  *cycles;             /* the same: busy cycles per tile of the row */
  float   max_cycles;         /* the largest of them */
  guint   height;             /* pixels asked for */
  gboolean with_cycles;       /* cycles worked out too (else states only) */
  gpointer scratch;           /* private: what filling the cells again needs */
} TesBspGrid;

typedef struct _TesBspPyramid TesBspPyramid;

/* One IPU's BSP steps, as the heatmap and Tile Balance read them. */
typedef struct
{
  int            ipu;
  guint          n_tiles;
  GPtrArray     *steps;     /* TesBspStep */
  GArray        *spans;     /* TesBspSpan over steps, times in ns */
  TesBspPyramid *pyramid;   /* over spans; NULL when loaded without */
} TesBspIpu;

GPtrArray  *tes_report_get_bsp_ipus        (TesReport        *report,
                                            gboolean          with_pyramid,
                                            GError          **error);
GArray     *tes_bsp_ipus_get_tile_activity (GPtrArray        *ipus,
                                            gint64            start_ns,
                                            gint64            end_ns);

TesBspGrid *tes_bsp_grid_build    (const TesBspSpan *spans,
                                   guint             n_spans,
                                   guint             n_tiles,
                                   gint64            t0,
                                   gint64            t1,
                                   guint             width,
                                   guint             height,
                                   guint             level);
float       tes_bsp_grid_get_cycles (const TesBspGrid *grid,
                                   guint             column,
                                   guint             row);

TesBspPyramid *tes_bsp_pyramid_new       (const TesBspSpan    *spans,
                                          guint                n_spans,
                                          guint                n_tiles);
guint          tes_bsp_pyramid_get_n_levels (const TesBspPyramid *pyramid);
guint          tes_bsp_pyramid_level_for (const TesBspPyramid *pyramid,
                                          double               ns_per_column);
TesBspGrid    *tes_bsp_pyramid_grid      (const TesBspPyramid *pyramid,
                                          gint64               t0,
                                          gint64               t1,
                                          guint                width,
                                          guint                height);
TesBspGrid    *tes_bsp_pyramid_grid_reuse (const TesBspPyramid *pyramid,
                                          TesBspGrid          *grid,
                                          gint64               t0,
                                          gint64               t1,
                                          guint                width,
                                          guint                height,
                                          gboolean             with_cycles);
guint          tes_bsp_pyramid_add_activity (const TesBspPyramid *pyramid,
                                          gint64               t0,
                                          gint64               t1,
                                          TesTileActivity     *tiles);
guint          tes_bsp_spans_add_activity (const TesBspSpan *spans,
                                          guint                n_spans,
                                          gint64               t0,
                                          gint64               t1,
                                          TesTileActivity     *tiles);
guint          tes_bsp_pyramid_get_n_tiles (const TesBspPyramid *pyramid);
gsize          tes_bsp_pyramid_get_size  (const TesBspPyramid *pyramid);
void           tes_bsp_pyramid_free      (TesBspPyramid       *pyramid);

guint8      tes_bsp_grid_get      (const TesBspGrid *grid,
                                   guint             column,
                                   guint             row);
guint       tes_bsp_grid_row_of   (const TesBspGrid *grid,
                                   guint             tile);
guint       tes_bsp_tiles_per_row (guint             n_tiles,
                                   guint             height);
int         tes_bsp_span_at       (const TesBspSpan *spans,
                                   guint             n_spans,
                                   gint64            t);
void        tes_bsp_grid_free     (TesBspGrid       *grid);
gboolean    tes_bsp_have_avx2     (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TesBspGrid, tes_bsp_grid_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TesBspPyramid, tes_bsp_pyramid_free)

G_END_DECLS
