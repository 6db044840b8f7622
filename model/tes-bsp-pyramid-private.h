/* tes-bsp-pyramid-private.h: the pyramid's levels, for the files that
 * read them (the grid and the tiles' activity)
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-bsp-pyramid.h"

/* The loops over tiles and rows built twice on x86-64, for AVX2 (unsigned
 * minimum and comparison in one instruction, three-operand forms) and for
 * any x86-64, the one the processor runs picked at load time; the same
 * integer arithmetic either way. */
#if defined(__x86_64__) && defined(__ELF__) && (defined(__clang__) || __GNUC__ >= 8)
#define TES_BSP_CLONES __attribute__ ((target_clones ("avx2", "default")))
#define TES_BSP_AVX2   1
#include <immintrin.h>
#else
#define TES_BSP_CLONES
#endif

/* A step is read once for up to this many of the columns it covers. */
#define SPREAD_COLUMNS 16

G_BEGIN_DECLS

/* Each level of the pyramid merges this many of the finer. */
#define FANOUT     4
#define MAX_LEVELS 16
/* Sums are also kept per block of 4, 16… tiles, up to 256 (j = log2 of a
 * block's tiles) */
#define MAX_BLOCKS 9

/* A run of aligned groups of steps (level 0: the steps themselves), in
 * time order. busy[j] holds, per block of 2^j tiles, the cycles the block
 * spent computing, exchanging and syncing, where the level keeps it (NULL:
 * read finer blocks, or the steps): a frame whose rows hold 2^j tiles
 * reads a row's sums in one. They are running sums, modulo 2^32: row g
 * holds the sums of the groups before g, so that groups a to b sum to row
 * b − row a, exactly where that sum fits 32 bits (each group's does, and a
 * column's when its tiles' time does): a column reads one row, not a row
 * per group. */
typedef struct
{
  guint    n;
  guint    group;          /* steps per group: FANOUT^level */
  gint64  *start;          /* ns: the group's first step's start */
  gint64  *end;            /* ns: its latest end */
  guint64 *dur;            /* cycles, the steps' summed */
  guint32 *busy[MAX_BLOCKS];  /* n + 1 rows of compute, exchange then sync, each
                               * ceil (n_tiles / 2^j) blocks; or NULL */
  guint8  *plain;          /* per group: its steps count alike for tile activity (plain_step) */
  guint8  *sole;           /* level 0, per step: the one state its busy tiles are in,
                            * none past the step's end, or else TES_BSP_NO_STATE;
                            * idle: not known (a level 1 given up part way); or NULL */
  double   mean_span;      /* ns: a group's, on average */
} Level;

struct _TesBspPyramid
{
  const TesBspSpan *spans;
  guint             n_spans;
  guint             n_tiles;
  guint             n_levels;
  gboolean          in_order;   /* the steps' starts never go back */
  Level             levels[MAX_LEVELS];
};

/* How many blocks of 2^j tiles hold n_tiles. */
static inline gsize
_tes_bsp_blocks_of (guint n_tiles,
                    guint j)
{
  return (n_tiles + (1u << j) - 1) >> j;
}

guint       _tes_bsp_level_first_from (const Level      *level,
                                       guint             from,
                                       gint64            t);

/* tes-bsp-grid.c */
TesBspGrid *_tes_bsp_grid_new         (guint             n_tiles,
                                       guint             width,
                                       guint             height);
TesBspGrid *_tes_bsp_grid_reuse       (TesBspGrid       *grid,
                                       guint             n_tiles,
                                       guint             width,
                                       guint             height);
void        _tes_bsp_grid_fill        (TesBspGrid       *grid,
                                       const Level      *level,
                                       const TesBspSpan *spans,
                                       guint             n_spans,
                                       gint64            t0,
                                       gint64            t1);

#ifdef TES_BSP_AVX2
guint _tes_bsp_column_store_eights_avx2 (const guint32 *const *plane,
                                         guint          sole,
                                         guint          n_rows,
                                         guint          full_rows,
                                         const guint32 *row_tiles,
                                         const float   *per_tile,
                                         guint32        row_all,
                                         guint32        dur,
                                         float          scale,
                                         float         *cycles,
                                         guint32       *best,
                                         float         *most);
guint _tes_bsp_spread_eights_avx2       (const TesBspSpan *span,
                                         const TesBspGrid *grid,
                                         const guint      *first_tile,
                                         guint32 *const   *accs,
                                         guint             k,
                                         guint32           fresh,
                                         const guint32    *edges,
                                         guint             first_edge,
                                         guint             n_edges,
                                         const guint8     *at_lo,
                                         const guint8     *at_hi,
                                         guint             r);
guint _tes_bsp_spread_sole_eights_avx2  (const guint32    *cycles,
                                         const guint32    *next,
                                         guint32           dur,
                                         guint             listed,
                                         const TesBspGrid *grid,
                                         const guint      *first_tile,
                                         guint32 *const   *to,
                                         guint             k,
                                         guint32           set,
                                         const guint32    *edges,
                                         guint             first_edge,
                                         guint             n_edges,
                                         const guint8     *at_lo,
                                         const guint8     *at_hi,
                                         guint             r);
#endif

G_END_DECLS
