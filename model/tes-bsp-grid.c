/* tes-bsp-grid.c: the grid of cells a BSP picture reads, filled from the
 * pyramid's levels (or the steps) a column at a time, or a step at a time
 * for the columns it spans
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "tes-bsp-pyramid-private.h"


/* Whether the processor has AVX2: the functions written for it (the
 * grid's, with their unsigned minimum and maximum, and the BSP pixels')
 * are then called. */
gboolean
tes_bsp_have_avx2 (void)
{
#if defined(__x86_64__) || defined(__i386__)
  static int avx2 = -1;

  if (avx2 < 0)
    avx2 = __builtin_cpu_supports ("avx2") ? 1 : 0;

  return avx2 == 1;
#else
  return FALSE;
#endif
}

/* Four sums at once (GCC's and clang's vector extension): a column adds a
 * group's row sums, and picks its rows' states, four rows at a time. */
typedef guint32 Vec4 __attribute__ ((vector_size (16)));
typedef gint32 Vec4i __attribute__ ((vector_size (16)));
typedef float Vec4f __attribute__ ((vector_size (16)));
typedef guint8 Bytes4 __attribute__ ((vector_size (4)));

static inline Vec4
vec_load (const guint32 *p)
{
  Vec4 v;

  memcpy (&v, p, sizeof v);
  return v;
}

static inline void
vec_store (guint32 *p,
           Vec4     v)
{
  memcpy (p, &v, sizeof v);
}

/* The sums of four vectors' lanes, a vector of them. */
static inline Vec4
vec_sum4 (const Vec4 v[4])
{
  Vec4 low = __builtin_shufflevector (v[0], v[1], 0, 4, 1, 5) + __builtin_shufflevector (v[0], v[1], 2, 6, 3, 7);
  Vec4 high = __builtin_shufflevector (v[2], v[3], 0, 4, 1, 5) + __builtin_shufflevector (v[2], v[3], 2, 6, 3, 7);

  return __builtin_shufflevector (low, high, 0, 1, 4, 5) + __builtin_shufflevector (low, high, 2, 3, 6, 7);
}

/* @if_set where @mask is all ones, else @otherwise */
static inline Vec4
vec_select (Vec4i mask,
            Vec4  if_set,
            Vec4  otherwise)
{
  return (if_set & (Vec4)mask) | (otherwise & ~(Vec4)mask);
}

/* The blocks a frame whose rows hold @tiles_per_row tiles reads: the
 * largest kept that fit a row, or -1 for the steps themselves. */
static int
level_blocks_for (const Level *level,
                  guint        tiles_per_row)
{
  int j = -1;

  for (guint k = 0; k < MAX_BLOCKS && (1u << k) <= tiles_per_row; k++)
    if (level->busy[k] != NULL)
      j = (int)k;

  return j;
}

/* A column's sums per row and state, three planes of n_rows: in 32 bits
 * (vectors) when no sum can pass them, else in 64. Either acc32 or acc64. */
typedef struct
{
  guint32 *acc32;
  guint64 *acc64;
  guint    n_rows;
} Sums;

static inline void
sums_set (const Sums *sums,
          gsize       i,
          guint64     value)
{
  if (sums->acc32 != NULL)
    sums->acc32[i] = (guint32)value;
  else
    sums->acc64[i] = value;
}

static inline void
sums_add (const Sums *sums,
          gsize       i,
          guint64     value)
{
  if (sums->acc32 != NULL)
    sums->acc32[i] += (guint32)value;
  else
    sums->acc64[i] += value;
}

/* The cycles [@lo, @hi) of @span that [@from, @to) covers: all tiles
 * start together after the sync, so a time in the step is a cycle of
 * every tile's, the step's ns scaled to its cycles. TRUE when that is
 * the whole step. */
static inline gboolean
step_window (const TesBspSpan *span,
             gint64            from,
             gint64            to,
             guint32          *lo,
             guint32          *hi)
{
  guint32 dur = (guint32)CLAMP (span->dur_cycles, 0, (gint64)G_MAXUINT32);
  gint64 len = span->end - span->start, a, b;

  *lo = 0;
  *hi = dur;
  if (len <= 0 || (from <= span->start && to >= span->end))
    return TRUE;
  /* floor at both ends: the columns over a step share out its cycles (in
   * 64 bits where the products fit: a 128-bit division is a call) */
  a = MAX (from, span->start) - span->start;
  b = MIN (to, span->end) - span->start;
  if (len <= G_MAXINT32 && a >= 0 && b >= 0)
    {
      *lo = (guint32)((guint64)a * dur / (guint64)len);
      *hi = (guint32)((guint64)b * dur / (guint64)len);
    }
  else
    {
      *lo = (guint32)((__int128)a * dur / len);
      *hi = (guint32)((__int128)b * dur / len);
    }
  /* a column narrower than a cycle shows the cycle it falls in */
  if (*hi == *lo && *lo < dur)
    *hi = *lo + 1;

  return FALSE;
}

/* The cycles of part of @span that the column [@from, @to) covers,
 * not floored, the column's edges unrounded (@from_x, @to_x). */
static inline double
step_share (const TesBspSpan *span,
            gint64            from,
            gint64            to,
            double            from_x,
            double            to_x)
{
  gint64 len = span->end - span->start;
  double dur = (double)CLAMP (span->dur_cycles, 0, (gint64)G_MAXUINT32);

  if (len <= 0 || (from <= span->start && to >= span->end))
    return dur;

  return (MIN (to_x, (double)span->end) - MAX (from_x, (double)span->start)) * dur / (double)len;
}

static inline void step_add_rows (const TesBspSpan *span,
                                  const TesBspGrid *grid,
                                  const guint      *first_tile,
                                  const Sums       *sums,
                                  guint32           lo,
                                  guint32           hi,
                                  guint             r);

/* Adds a step's busy cycles in its cycles [@lo, @hi) to @sums: a tile
 * busy for c cycles is busy over [0, c) of the step, then idle. */
TES_BSP_CLONES static void
step_add (const TesBspSpan *span,
          const TesBspGrid *grid,
          const guint      *first_tile,
          const Sums       *sums,
          guint32           lo,
          guint32           hi)
{
  const guint8 *states = span->tile_states;
  const guint32 *cycles = span->tile_cycles;
  guint listed = MIN (span->n_tiles, grid->n_tiles), n_rows = grid->n_rows, r = 0;

  /* rows of whole fours of tiles: four tiles at a time, and four rows'
   * sums added at once */
  if (sums->acc32 != NULL && grid->tiles_per_row % 4 == 0)
    for (; r + 4 <= n_rows && first_tile[r + 4] <= listed && first_tile[r + 4] - first_tile[r] == 4 * grid->tiles_per_row;
         r += 4)
      {
        Vec4 compute[4], exchange[4], sync[4];

        for (guint i = 0; i < 4; i++)
          {
            compute[i] = exchange[i] = sync[i] = (Vec4){ 0, 0, 0, 0 };
            for (guint t = first_tile[r + i]; t < first_tile[r + i + 1]; t += 4)
              {
                Vec4 busy = vec_load (cycles + t), state;
                Bytes4 four;

                memcpy (&four, states + t, sizeof four);
                state = __builtin_convertvector (four, Vec4);
                busy = vec_select (busy > lo, busy, (Vec4){ lo, lo, lo, lo });
                busy = vec_select (busy < hi, busy, (Vec4){ hi, hi, hi, hi }) - lo;
                compute[i] += busy & (Vec4)(state == TES_TILE_STATE_COMPUTE);
                exchange[i] += busy & (Vec4)(state == TES_TILE_STATE_EXCHANGE);
                sync[i] += busy & (Vec4)(state == TES_TILE_STATE_SYNC);
              }
          }
        vec_store (sums->acc32 + r, vec_load (sums->acc32 + r) + vec_sum4 (compute));
        vec_store (sums->acc32 + n_rows + r, vec_load (sums->acc32 + n_rows + r) + vec_sum4 (exchange));
        vec_store (sums->acc32 + 2 * n_rows + r, vec_load (sums->acc32 + 2 * n_rows + r) + vec_sum4 (sync));
      }

  step_add_rows (span, grid, first_tile, sums, lo, hi, r);
}

/* step_add () from row @r on, a tile at a time: a sum per state in
 * registers, without a branch per tile. */
static inline void
step_add_rows (const TesBspSpan *span,
               const TesBspGrid *grid,
               const guint      *first_tile,
               const Sums       *sums,
               guint32           lo,
               guint32           hi,
               guint             r)
{
  const guint8 *states = span->tile_states;
  const guint32 *cycles = span->tile_cycles;
  guint listed = MIN (span->n_tiles, grid->n_tiles), n_rows = grid->n_rows;

  for (; r < n_rows && first_tile[r] < listed; r++)
    {
      guint64 a1 = 0, a2 = 0, a3 = 0;

      for (guint t = first_tile[r]; t < MIN (first_tile[r + 1], listed); t++)
        {
          guint state = states[t];
          guint32 busy = CLAMP (cycles[t], lo, hi) - lo;

          a1 += state == TES_TILE_STATE_COMPUTE ? busy : 0;
          a2 += state == TES_TILE_STATE_EXCHANGE ? busy : 0;
          a3 += state == TES_TILE_STATE_SYNC ? busy : 0;
        }
      sums_add (sums, r, a1);
      sums_add (sums, n_rows + r, a2);
      sums_add (sums, 2 * (gsize)n_rows + r, a3);
    }
}

/* Adds the busy cycles of groups @a to @b to @sums (idle is the rest),
 * from blocks of 2^@j tiles or (@j < 0) the steps; the @first groups of a
 * column set them instead (nothing to clear, or read, first). From
 * blocks, the difference of two running sums: the groups' sum modulo 2^32,
 * so in 64 bits one group at a time. Steps alone (level 0) count only
 * their cycles in the column [@from, @to) (step_window ()). */
static void
level_add (const Level      *level,
           guint             a,
           guint             b,
           int               j,
           const TesBspSpan *spans,
           guint             n_spans,
           const TesBspGrid *grid,
           const guint      *first_tile,
           const Sums       *sums,
           gboolean          first,
           gint64            from,
           gint64            to)
{
  guint n_rows = grid->n_rows;

  if (j >= 0)
    {
      gsize n_blocks = _tes_bsp_blocks_of (grid->n_tiles, (guint)j);
      gsize per_row = MAX (grid->tiles_per_row >> j, 1);
      const guint32 *before = level->busy[j] + (gsize)a * n_blocks * 3;
      const guint32 *after = level->busy[j] + (gsize)b * n_blocks * 3;

      /* a row per block: the planes line up, one run of subtractions (the
       * arrays have room for a vector past their end) */
      if (per_row == 1 && sums->acc32 != NULL)
        for (gsize i = 0; i < (gsize)n_rows * 3; i += 4)
          vec_store (sums->acc32 + i, (first ? (Vec4){ 0, 0, 0, 0 } : vec_load (sums->acc32 + i)) +
                                      vec_load (after + i) - vec_load (before + i));
      else if (per_row == 1)
        for (gsize i = 0; i < (gsize)n_rows * 3; i++)
          sums->acc64[i] = (first ? 0 : sums->acc64[i]) + (guint32)(after[i] - before[i]);
      else
        for (guint k = 0; k < 3; k++)
          for (guint r = 0; r < n_rows; r++)
            {
              guint64 sum = 0;

              for (gsize x = k * n_blocks + r * per_row; x < k * n_blocks + MIN ((r + 1) * per_row, n_blocks); x++)
                sum += (guint32)(after[x] - before[x]);
              if (first)
                sums_set (sums, (gsize)k * n_rows + r, sum);
              else
                sums_add (sums, (gsize)k * n_rows + r, sum);
            }
      return;
    }

  if (first && sums->acc32 != NULL)
    memset (sums->acc32, 0, (gsize)n_rows * 3 * sizeof (guint32));
  else if (first)
    memset (sums->acc64, 0, (gsize)n_rows * 3 * sizeof (guint64));

  for (guint s = a * level->group; s < MIN ((guint64)b * level->group, n_spans); s++)
    {
      guint32 lo = 0, hi = (guint32)CLAMP (spans[s].dur_cycles, 0, (gint64)G_MAXUINT32);

      if (level->group == 1)
        step_window (&spans[s], from, to, &lo, &hi);
      step_add (&spans[s], grid, first_tile, sums, lo, hi);
    }
}

/* The state of most cycles, idle on a tie (@all: the row's tile-cycles);
 * without branches, as the states of neighbouring cells follow no
 * pattern. */
static inline guint8
cell_state (guint64 compute,
            guint64 exchange,
            guint64 sync,
            guint64 all)
{
  guint64 busy = compute + exchange + sync;
  guint64 best_weight = all - MIN (busy, all);   /* idle */
  guint best = TES_TILE_STATE_IDLE;

  best = compute > best_weight ? TES_TILE_STATE_COMPUTE : best;
  best_weight = MAX (compute, best_weight);
  best = exchange > best_weight ? TES_TILE_STATE_EXCHANGE : best;
  best_weight = MAX (exchange, best_weight);
  best = sync > best_weight ? TES_TILE_STATE_SYNC : best;

  return (guint8)best;
}


/* A column of steps alone: the steps it takes, their cycles in it and the
 * scale of its busy cycles (_tes_bsp_grid_fill ()). */
typedef struct
{
  guint take_from;
  guint take_to;          /* take_from == take_to: no step */
  guint64 dur;
  float scale;
  gboolean part;          /* over part of a step */
  gboolean wide;          /* sums past 32 bits */
  float most;             /* the most busy cycles per tile of its cells */
} Plan;

/* What one grid's filling needs besides its cells, kept with the grid so
 * that a grid used again allocates nothing. */
typedef struct
{
  guint32 *acc32;          /* 3 × n_rows, and a vector more */
  guint64 *acc64;          /* 3 × n_rows */
  guint   *first_tile;     /* n_rows + 1: the first tile of each row */
  guint32 *row_tiles;      /* n_rows, and a vector more: the row's tiles */
  guint32 *best;           /* n_rows: a column's states, a word each, before packing */
  guint32 *ring;           /* SPREAD_COLUMNS columns' sums (3 × n_rows, and a vector more,
                            * each), for the steps read once over their columns */
  Plan    *plan;           /* width: each column's steps, for the same */
  float   *per_tile;       /* n_rows, and a vector more: 1 / the row's tiles */
  guint32 *zeros;          /* n_rows, and a vector more: a plane of sums with nothing */
  /* the last frame's, filled column by column from groups of @last_level
   * (last_valid), for a column taking the same groups to copy: its plan,
   * and its cells once this frame's take their buffers (swapped) */
  Plan    *last_plan;
  guint8  *last_states;
  float   *last_cycles;
  const Level   *last_level;
  const guint32 *last_busy;
  gboolean last_valid;
  gboolean last_with_cycles;
} Scratch;

static void
scratch_free (Scratch *scratch)
{
  if (scratch == NULL)
    return;

  g_free (scratch->acc32);
  g_free (scratch->acc64);
  g_free (scratch->first_tile);
  g_free (scratch->row_tiles);
  g_free (scratch->best);
  g_free (scratch->ring);
  g_free (scratch->plan);
  g_free (scratch->per_tile);
  g_free (scratch->zeros);
  g_free (scratch->last_plan);
  g_free (scratch->last_states);
  g_free (scratch->last_cycles);
  g_free (scratch);
}

TesBspGrid *
_tes_bsp_grid_new (guint n_tiles,
                   guint width,
                   guint height)
{
  TesBspGrid *grid = g_new0 (TesBspGrid, 1);
  Scratch *scratch = g_new0 (Scratch, 1);
  gsize n;

  grid->width = MAX (width, 1);
  grid->height = height;
  grid->with_cycles = TRUE;
  grid->n_tiles = n_tiles;
  grid->tiles_per_row = tes_bsp_tiles_per_row (n_tiles, height);
  grid->n_rows = MAX ((n_tiles + grid->tiles_per_row - 1) / grid->tiles_per_row, 1);
  n = (gsize)grid->width * grid->n_rows;
  grid->states = g_malloc (n);
  memset (grid->states, TES_BSP_NO_STATE, n);
  grid->cycles = g_new0 (float, n);

  /* rows hold runs of tiles_per_row tiles */
  scratch->acc32 = g_new0 (guint32, (gsize)grid->n_rows * 3 + 4);
  scratch->acc64 = g_new0 (guint64, (gsize)grid->n_rows * 3);
  scratch->first_tile = g_new (guint, grid->n_rows + 1);
  scratch->row_tiles = g_new0 (guint32, grid->n_rows + 4);
  scratch->best = g_new0 (guint32, grid->n_rows + 4);
  scratch->per_tile = g_new0 (float, grid->n_rows + 4);
  scratch->zeros = g_new0 (guint32, grid->n_rows + 8);
  for (guint r = 0; r <= grid->n_rows; r++)
    scratch->first_tile[r] = (guint)MIN ((guint64)r * grid->tiles_per_row, n_tiles);
  for (guint r = 0; r < grid->n_rows; r++)
    {
      scratch->row_tiles[r] = scratch->first_tile[r + 1] - scratch->first_tile[r];
      scratch->per_tile[r] = scratch->row_tiles[r] > 0 ? 1.0f / scratch->row_tiles[r] : 0;
    }
  grid->scratch = scratch;

  return grid;
}

/* @grid again if it has the shape asked for, else a new one. */
TesBspGrid *
_tes_bsp_grid_reuse (TesBspGrid *grid,
                     guint       n_tiles,
                     guint       width,
                     guint       height)
{
  if (grid != NULL && grid->n_tiles == n_tiles && grid->width == MAX (width, 1) && grid->height == height)
    return grid;

  tes_bsp_grid_free (grid);

  return _tes_bsp_grid_new (n_tiles, width, height);
}

/* Words of states (each below 256) to bytes: SSE2 narrows sixteen at a
 * time, where a vector's lanes would otherwise leave one by one. */
static inline void
states_pack (guint8        *to,
             const guint32 *from,
             guint          n)
{
  guint i = 0;

#ifdef __SSE2__
  for (; i + 16 <= n; i += 16)
    {
      __m128i a = _mm_packs_epi32 (_mm_loadu_si128 ((const void *)(from + i)),
                                   _mm_loadu_si128 ((const void *)(from + i + 4)));
      __m128i b = _mm_packs_epi32 (_mm_loadu_si128 ((const void *)(from + i + 8)),
                                   _mm_loadu_si128 ((const void *)(from + i + 12)));

      _mm_storeu_si128 ((void *)(to + i), _mm_packus_epi16 (a, b));
    }
#endif
  for (; i < n; i++)
    to[i] = (guint8)from[i];
}


/* Column @c's cells from @sums over @dur cycles, their busy cycles
 * scaled by @scale; returns the most busy cycles per tile of a cell (0
 * for a grid of states only). In 32 bits, the planes (compute, exchange,
 * sync) whose bit @live lacks hold nothing yet and read as zeros. */
TES_BSP_CLONES static float
column_store (TesBspGrid *grid,
              guint       c,
              const Sums *sums,
              guint       live,
              guint64     dur,
              float       scale)
{
  const Scratch *scratch = grid->scratch;
  guint n_rows = grid->n_rows, r = 0;
  guint8 *states = grid->states + (gsize)c * n_rows;
  float *cycles = grid->cycles + (gsize)c * n_rows;
  float max_cycles = 0;
  const guint32 *plane[3];
  /* the state whose plane alone holds sums, else 0 */
  guint sole = live == 1 ? TES_TILE_STATE_COMPUTE : live == 2 ? TES_TILE_STATE_EXCHANGE
               : live == 4 ? TES_TILE_STATE_SYNC : 0;

  for (guint k = 0; k < 3; k++)
    plane[k] = sums->acc32 == NULL ? NULL : live & (1u << k) ? sums->acc32 + (gsize)k * n_rows : scratch->zeros;
  if (sums->acc32 != NULL)
    {
      Vec4f most = { 0, 0, 0, 0 };
      guint full_rows = grid->n_tiles / grid->tiles_per_row;
      Vec4 row_all = (Vec4){ 1, 1, 1, 1 } * (guint32)(grid->tiles_per_row * dur);

#ifdef TES_BSP_AVX2
      if (tes_bsp_have_avx2 ())
        r = _tes_bsp_column_store_eights_avx2 (plane, sole, n_rows, full_rows, scratch->row_tiles, scratch->per_tile,
                                      (guint32)(grid->tiles_per_row * dur), (guint32)dur, scale,
                                      grid->with_cycles ? cycles : NULL, scratch->best, &max_cycles);
#endif
      for (; r + 4 <= n_rows; r += 4)
        {
          Vec4 compute = vec_load (plane[0] + r), exchange = vec_load (plane[1] + r);
          Vec4 sync = vec_load (plane[2] + r);
          /* rows of tiles_per_row tiles (all but the last): no product per lane */
          Vec4 all = r + 4 <= full_rows ? row_all : vec_load (scratch->row_tiles + r) * (guint32)dur;
          Vec4 busy = compute + exchange + sync;
          Vec4 weight = all - vec_select (busy < all, busy, all);   /* idle */
          Vec4 best = { TES_TILE_STATE_IDLE, TES_TILE_STATE_IDLE, TES_TILE_STATE_IDLE, TES_TILE_STATE_IDLE };
          Vec4f per_tile, busy_f = __builtin_convertvector (busy, Vec4f);
          Vec4i more;

          /* as cell_state () */
          more = compute > weight;
          best = vec_select (more, (Vec4){ 1, 1, 1, 1 } * TES_TILE_STATE_COMPUTE, best);
          weight = vec_select (more, compute, weight);
          more = exchange > weight;
          best = vec_select (more, (Vec4){ 1, 1, 1, 1 } * TES_TILE_STATE_EXCHANGE, best);
          weight = vec_select (more, exchange, weight);
          more = sync > weight;
          best = vec_select (more, (Vec4){ 1, 1, 1, 1 } * TES_TILE_STATE_SYNC, best);
          memcpy (&per_tile, scratch->per_tile + r, sizeof per_tile);
          if (grid->with_cycles)
            {
              busy_f *= per_tile;
              busy_f *= scale;
              memcpy (cycles + r, &busy_f, sizeof busy_f);
              most = (Vec4f)vec_select (busy_f > most, (Vec4)busy_f, (Vec4)most);
            }
          vec_store (scratch->best + r, best);
        }
      for (guint i = 0; i < 4; i++)
        max_cycles = MAX (max_cycles, most[i]);
      states_pack (states, scratch->best, r);
    }

  for (; r < n_rows; r++)
    {
      guint64 compute, exchange, sync;

      if (sums->acc32 != NULL)
        compute = plane[0][r], exchange = plane[1][r], sync = plane[2][r];
      else
        compute = sums->acc64[r], exchange = sums->acc64[n_rows + r], sync = sums->acc64[2 * n_rows + r];
      states[r] = cell_state (compute, exchange, sync, scratch->row_tiles[r] * dur);
      if (grid->with_cycles)
        {
          cycles[r] = (float)(gint64)(compute + exchange + sync) * scratch->per_tile[r] * scale;
          max_cycles = MAX (max_cycles, cycles[r]);
        }
    }

  return max_cycles;
}


/* The edges of @k columns over a step, each its cycles [@lo[i], @hi[i]),
 * each edge once where a column starts at the last's end: @edges, and
 * each column's two (@at_lo, @at_hi). Returns their number;
 * *@first_edge is 1 where the first is 0 (min (b, 0) is 0: no need to
 * work it out), else 0. */
static inline guint
spread_edges (const guint32 *lo,
              const guint32 *hi,
              guint          k,
              guint32       *edges,
              guint8        *at_lo,
              guint8        *at_hi,
              guint         *first_edge)
{
  guint n_edges = 0;

  for (guint i = 0; i < k; i++)
    {
      if (n_edges == 0 || edges[n_edges - 1] != lo[i])
        edges[n_edges++] = lo[i];
      at_lo[i] = (guint8)(n_edges - 1);
      if (edges[n_edges - 1] != hi[i])
        edges[n_edges++] = hi[i];
      at_hi[i] = (guint8)(n_edges - 1);
    }
  *first_edge = n_edges > 0 && edges[0] == 0 ? 1 : 0;

  return n_edges;
}

/* Whether steps in one state are read as step_spread_sole () does: where
 * its rows of four tiles or more go eight at a time (AVX2), or rows of
 * one or two tiles, which step_spread () too reads a tile at a time. */
static inline gboolean
spread_sole_fast (const TesBspGrid *grid)
{
#ifdef TES_BSP_AVX2
  if (tes_bsp_have_avx2 ())
    return TRUE;
#endif
  return grid->tiles_per_row < 4;
}

/* step_spread () for a step whose busy tiles are all in @state (the
 * pyramid's sole[]): their cycles alone, no state read, a third of the
 * minimums, into that state's sums only. The columns in @set (bits) hold
 * none of that state yet: set, not added to. @next: the cycles of the
 * step read after it (nullable), fetched meanwhile. */
TES_BSP_CLONES static void
step_spread_sole (const TesBspSpan *span,
                  const guint32    *next,
                  const TesBspGrid *grid,
                  const guint      *first_tile,
                  guint32 *const   *accs,
                  const guint32    *lo,
                  const guint32    *hi,
                  guint             k,
                  guint32           set,
                  guint             state)
{
  const guint32 *cycles = span->tile_cycles;
  guint listed = MIN (span->n_tiles, grid->n_tiles), n_rows = grid->n_rows, r = 0;
  gsize plane = (gsize)(state - TES_TILE_STATE_COMPUTE) * n_rows;
  guint32 *to[SPREAD_COLUMNS];

  for (guint c = 0; c < k; c++)
    to[c] = accs[c] + plane;

#ifdef TES_BSP_AVX2
  if (grid->tiles_per_row % 4 == 0 && tes_bsp_have_avx2 ())
    {
      guint32 edges[2 * SPREAD_COLUMNS];
      guint8 at_lo[SPREAD_COLUMNS], at_hi[SPREAD_COLUMNS];
      guint first_edge, n_edges = spread_edges (lo, hi, k, edges, at_lo, at_hi, &first_edge);
      guint32 dur = (guint32)CLAMP (span->dur_cycles, 0, (gint64)G_MAXUINT32);

      r = _tes_bsp_spread_sole_eights_avx2 (cycles, next, dur, listed, grid, first_tile, to, k, set, edges, first_edge,
                                            n_edges, at_lo, at_hi, r);
    }
#endif

  /* the other rows: column by column (a row past the listed tiles sums
   * nothing) */
  for (guint c = 0; c < k; c++)
    for (guint x = r; x < n_rows; x++)
      {
        guint32 sum = 0;

        for (guint t = first_tile[x]; t < MIN (first_tile[x + 1], listed); t++)
          sum += CLAMP (cycles[t], lo[c], hi[c]) - lo[c];
        to[c][x] = set & (1u << c) ? sum : to[c][x] + sum;
      }
}

/* Adds @span's busy cycles to @k columns' sums at once, each its cycles
 * [@lo[i], @hi[i]) of the step (step_add () for each, the tiles read
 * once): a tile busy b cycles adds min (b, hi) − min (b, lo), so that
 * the sums of min (b, x) at the columns' edges x, taken once per edge,
 * give every column's. Rows of four tiles four at a time; the others
 * step_add () for each column. The columns in @fresh (bits) start from
 * nothing: set, not added to. */
TES_BSP_CLONES static void
step_spread (const TesBspSpan *span,
             const TesBspGrid *grid,
             const guint      *first_tile,
             guint32 *const   *accs,
             const guint32    *lo,
             const guint32    *hi,
             guint             k,
             guint32           fresh)
{
  const guint8 *states = span->tile_states;
  const guint32 *cycles = span->tile_cycles;
  guint listed = MIN (span->n_tiles, grid->n_tiles), n_rows = grid->n_rows, r = 0;
  guint32 edges[2 * SPREAD_COLUMNS];
  guint8 at_lo[SPREAD_COLUMNS], at_hi[SPREAD_COLUMNS];
  guint first_edge, n_edges = spread_edges (lo, hi, k, edges, at_lo, at_hi, &first_edge);

#ifdef TES_BSP_AVX2
  /* rows of four tiles or a multiple, eight rows at a time */
  if (grid->tiles_per_row % 4 == 0 && tes_bsp_have_avx2 ())
    r = _tes_bsp_spread_eights_avx2 (span, grid, first_tile, accs, k, fresh, edges, first_edge, n_edges, at_lo, at_hi, r);
#endif

  /* rows of four tiles (a frame of 1,472 tiles in 487 pixels), four
   * rows at a time: the tiles' states read once, then per edge a
   * minimum and a sum per state */
  if (grid->tiles_per_row == 4)
    for (; r + 4 <= n_rows && first_tile[r + 4] <= listed && first_tile[r + 4] - first_tile[r] == 16; r += 4)
      {
        Vec4 busy[4], mask[3][4];
        Vec4 sum[2 * SPREAD_COLUMNS][3];

#pragma GCC unroll 4
        for (guint i = 0; i < 4; i++)
          {
            guint t = first_tile[r + i];
            Vec4 state;
            Bytes4 four;

            busy[i] = vec_load (cycles + t);
            memcpy (&four, states + t, sizeof four);
            state = __builtin_convertvector (four, Vec4);
            mask[0][i] = (Vec4)(state == TES_TILE_STATE_COMPUTE);
            mask[1][i] = (Vec4)(state == TES_TILE_STATE_EXCHANGE);
            mask[2][i] = (Vec4)(state == TES_TILE_STATE_SYNC);
          }
        for (guint x = 0; x < 3; x++)
          sum[0][x] = (Vec4){ 0, 0, 0, 0 };
        /* a tile is in one state: one minimum per tile and edge, then
         * split by state */
        for (guint e = first_edge; e < n_edges; e++)
          {
            Vec4 edge = (Vec4){ 1, 1, 1, 1 } * edges[e];
            Vec4 upto[4], part[4];

#pragma GCC unroll 4
            for (guint i = 0; i < 4; i++)
              upto[i] = vec_select (busy[i] < edge, busy[i], edge);
#pragma GCC unroll 3
            for (guint x = 0; x < 3; x++)
              {
#pragma GCC unroll 4
                for (guint i = 0; i < 4; i++)
                  part[i] = upto[i] & mask[x][i];
                sum[e][x] = vec_sum4 (part);
              }
          }
        for (guint c = 0; c < k; c++)
#pragma GCC unroll 3
          for (guint x = 0; x < 3; x++)
            {
              guint32 *to = accs[c] + (gsize)x * n_rows + r;
              Vec4 add = sum[at_hi[c]][x] - sum[at_lo[c]][x];

              vec_store (to, fresh & (1u << c) ? add : vec_load (to) + add);
            }
      }

  /* the other rows: column by column */
  for (guint c = 0; c < k; c++)
    {
      Sums sums = { accs[c], NULL, n_rows };

      if (fresh & (1u << c))
        for (guint x = 0; x < 3; x++)
          memset (accs[c] + (gsize)x * n_rows + r, 0, (n_rows - r) * sizeof (guint32));
      if (r < n_rows && first_tile[r] < listed)
        step_add_rows (span, grid, first_tile, &sums, lo[c], hi[c], r);
    }
}

/* Which of @level's groups the column [@from, @to) takes: those starting
 * in it, from *@g on (which it moves past them), or else the one in
 * progress there; [*@take_from, *@take_to), empty for none. */
static inline void
column_take (const Level *level,
             guint       *g,
             gint64       from,
             gint64       to,
             guint       *take_from,
             guint       *take_to)
{
  *take_from = *g;
  while (from < to && *g < level->n && level->start[*g] < to)
    (*g)++;
  *take_to = *g;
  if (*take_from == *take_to && *g > 0 && level->end[*g - 1] > from)
    *take_from = *g - 1;
  if (from >= to)
    *take_from = *take_to;
}

/* The column's edges in ns: [*@from, *@to), and unrounded. */
static inline void
column_edges (const TesBspGrid *grid,
              gint64            t0,
              gint64            t1,
              guint             c,
              gint64           *from,
              gint64           *to,
              double           *from_x,
              double           *to_x)
{
  *from = t0 + (gint64)((double)(t1 - t0) * c / grid->width);
  *to = c + 1 == grid->width ? t1 : t0 + (gint64)((double)(t1 - t0) * (c + 1) / grid->width);
  *from_x = t0 + (double)(t1 - t0) * c / grid->width;
  *to_x = c + 1 == grid->width ? (double)t1 : t0 + (double)(t1 - t0) * (c + 1) / grid->width;
}

static inline void
column_clear (TesBspGrid *grid,
              guint       c)
{
  memset (grid->states + (gsize)c * grid->n_rows, TES_BSP_NO_STATE, grid->n_rows);
  if (grid->with_cycles)
    memset (grid->cycles + (gsize)c * grid->n_rows, 0, grid->n_rows * sizeof (float));
}

/* Steps alone, each read once for up to SPREAD_COLUMNS of the columns
 * that take it (step_spread ()), their sums in a ring of that many
 * columns: a step's columns follow one another, and all but its last are
 * complete once it is added (a column taking two steps takes the ones
 * starting in it, so only a step's last column can take later ones).
 * The same sums as _tes_bsp_grid_fill ()'s column by column, where every column's
 * fit 32 bits (@plan says so). */
static float
grid_fill_spread (TesBspGrid       *grid,
                  const TesBspSpan *spans,
                  guint             n_spans,
                  const guint8     *sole,
                  gint64            t0,
                  gint64            t1)
{
  Scratch *scratch = grid->scratch;
  const Plan *plan = scratch->plan;
  gsize ring_row = (gsize)grid->n_rows * 3 + 4;
  /* the last step added, and the last column it was added to */
  guint added = G_MAXUINT, added_upto = 0;
  gboolean any = FALSE;
  float max_cycles = 0;
  /* per column of the ring, the planes of sums it holds (bits: compute,
   * exchange, sync): steps in one state set or add theirs alone */
  guint8 live[SPREAD_COLUMNS] = { 0 };

  if (sole != NULL && !spread_sole_fast (grid))
    sole = NULL;

  if (scratch->ring == NULL)
    scratch->ring = g_new (guint32, ring_row * SPREAD_COLUMNS);

  for (guint c = 0; c < grid->width; c++)
    {
      guint32 *acc = scratch->ring + (c % SPREAD_COLUMNS) * ring_row;
      Sums sums = { acc, NULL, grid->n_rows };
      guint u;

      if (plan[c].take_from == plan[c].take_to)
        {
          column_clear (grid, c);
          continue;
        }
      /* a column no step reached yet starts from nothing */
      if (!any || c > added_upto)
        u = plan[c].take_from;
      else
        u = MAX (plan[c].take_from, added + 1);

      for (; u < plan[c].take_to; u++)
        {
          guint32 *accs[SPREAD_COLUMNS];
          guint32 lo[SPREAD_COLUMNS], hi[SPREAD_COLUMNS];
          guint32 fresh = 0;
          guint k = 0;

          /* the columns from c on that take step u */
          for (guint d = c; d < grid->width && k < SPREAD_COLUMNS &&
                            plan[d].take_from <= u && u < plan[d].take_to; d++, k++)
            {
              gint64 from, to;
              double from_x, to_x;

              accs[k] = scratch->ring + (d % SPREAD_COLUMNS) * ring_row;
              if (!any || d > added_upto)
                {
                  fresh |= 1u << k;
                  live[d % SPREAD_COLUMNS] = 0;
                }
              column_edges (grid, t0, t1, d, &from, &to, &from_x, &to_x);
              step_window (&spans[u], from, to, &lo[k], &hi[k]);
            }
          if (sole != NULL && sole[u] >= TES_TILE_STATE_COMPUTE && sole[u] <= TES_TILE_STATE_SYNC)
            {
              guint bit = 1u << (sole[u] - TES_TILE_STATE_COMPUTE);
              guint32 set = 0;

              for (guint i = 0; i < k; i++)
                {
                  set |= live[(c + i) % SPREAD_COLUMNS] & bit ? 0 : 1u << i;
                  live[(c + i) % SPREAD_COLUMNS] |= bit;
                }
              step_spread_sole (&spans[u], u + 1 < n_spans ? spans[u + 1].tile_cycles : NULL, grid,
                                scratch->first_tile, accs, lo, hi, k, set, sole[u]);
            }
          else
            {
              /* every plane: those a column holds none of yet from nothing */
              for (guint i = 0; i < k; i++)
                {
                  for (guint x = 0; x < 3 && !(fresh & (1u << i)); x++)
                    if (!(live[(c + i) % SPREAD_COLUMNS] & (1u << x)))
                      memset (accs[i] + (gsize)x * grid->n_rows, 0, grid->n_rows * sizeof (guint32));
                  live[(c + i) % SPREAD_COLUMNS] = 7;
                }
              step_spread (&spans[u], grid, scratch->first_tile, accs, lo, hi, k, fresh);
            }
          added_upto = any ? MAX (added_upto, c + k - 1) : c + k - 1;
          added = u;
          any = TRUE;
        }
      max_cycles = MAX (max_cycles, column_store (grid, c, &sums, live[c % SPREAD_COLUMNS], plan[c].dur,
                                                  plan[c].scale));
    }

  return max_cycles;
}

/* The cells from @level's groups: each column takes the groups that start
 * in it, or else the one in progress there. A tile is idle for the part
 * of a step it is not busy (also a tile the step does not list); a row
 * sums its tiles; the state of most cycles wins, idle on a tie. Steps
 * alone (level 0) count only their part in the column, as PopVision
 * draws what each tile does at each cycle: a tile busy c of a step's D
 * cycles is busy over the first c/D of the step's width, idle after. */
void
_tes_bsp_grid_fill (TesBspGrid       *grid,
                    const Level      *level,
                    const TesBspSpan *spans,
                    guint             n_spans,
                    gint64            t0,
                    gint64            t1)
{
  Scratch *scratch = grid->scratch;
  guint n_rows = grid->n_rows;
  int j = level_blocks_for (level, grid->tiles_per_row);
  /* the groups the last filled column took: [last_from, last_to) */
  guint g, last_from = G_MAXUINT, last_to = G_MAXUINT, last_column = 0, earlier = 0;
  gboolean all_32 = TRUE;
  /* the last frame's columns, taken from the same groups: a range moved
   * by part of its width has many columns taking the same groups as one
   * of the last frame's, and a frame of the same range all */
  gboolean reuse = scratch->last_valid && scratch->last_level == level && level->n > 0 &&
                   scratch->last_busy == (j >= 0 ? level->busy[j] : NULL) &&
                   (!grid->with_cycles || scratch->last_with_cycles);
  const Plan *last_plan;
  float max_cycles = 0;
  Plan *plan;

  grid->max_cycles = 0;
  scratch->last_valid = FALSE;
  if (t1 <= t0 || grid->n_tiles == 0 || level->n == 0)
    {
      memset (grid->states, TES_BSP_NO_STATE, (gsize)grid->width * n_rows);
      memset (grid->cycles, 0, (gsize)grid->width * n_rows * sizeof (float));
      return;
    }

  /* each column's groups and cycles first, without reading a tile */
  if (scratch->plan == NULL)
    {
      scratch->plan = g_new (Plan, grid->width);
      scratch->last_plan = g_new (Plan, grid->width);
    }
  if (reuse)
    {
      /* this frame's cells in the buffers of the one before */
      Plan *swap_plan = scratch->plan;
      guint8 *swap_states = grid->states;

      if (scratch->last_states == NULL)
        scratch->last_states = g_malloc ((gsize)grid->width * n_rows);
      scratch->plan = scratch->last_plan;
      scratch->last_plan = swap_plan;
      grid->states = scratch->last_states;
      scratch->last_states = swap_states;
      if (grid->with_cycles)
        {
          float *swap_cycles = grid->cycles;

          if (scratch->last_cycles == NULL)
            scratch->last_cycles = g_new (float, (gsize)grid->width * n_rows);
          grid->cycles = scratch->last_cycles;
          scratch->last_cycles = swap_cycles;
        }
    }
  plan = scratch->plan;
  last_plan = scratch->last_plan;
  g = _tes_bsp_level_first_from (level, 0, t0);
  for (guint c = 0; c < grid->width; c++)
    {
      gint64 from, to;
      double from_x, to_x;
      gboolean part = FALSE;
      /* the column's share of its steps' cycles, not floored */
      double exact = 0;

      column_edges (grid, t0, t1, c, &from, &to, &from_x, &to_x);
      column_take (level, &g, from, to, &plan[c].take_from, &plan[c].take_to);
      plan[c].dur = 0;
      plan[c].scale = 1;
      /* a column over part of a step counts that part's cycles */
      if (level->group == 1)
        for (guint u = plan[c].take_from; u < plan[c].take_to; u++)
          {
            guint32 lo, hi;

            part |= !step_window (&spans[u], from, to, &lo, &hi);
            plan[c].dur += hi - lo;
            exact += step_share (&spans[u], from, to, from_x, to_x);
          }
      else
        for (guint u = plan[c].take_from; u < plan[c].take_to; u++)
          plan[c].dur += level->dur[u];
      /* busy cycles of parts of steps on the scale of their exact share
       * of a column's unrounded width (columns of 6.9 cycles, counted 6
       * or 7, or of 5 and 6 ns, would show stripes); a part of a step is
       * no other column's (part: no column copies it) */
      if (part && plan[c].dur > 0)
        plan[c].scale = (float)(exact / plan[c].dur);
      plan[c].part = part;
      /* a sum is at most its tiles' whole time: 32 bits do when that fits */
      plan[c].wide = (guint64)grid->tiles_per_row * plan[c].dur > G_MAXUINT32;
      all_32 = all_32 && !plan[c].wide;
    }

  /* steps alone: each read once for the columns it covers */
  if (level->group == 1 && all_32)
    {
      grid->max_cycles = grid_fill_spread (grid, spans, n_spans, level->sole, t0, t1);
      return;
    }

  for (guint c = 0; c < grid->width; c++)
    {
      guint take_from = plan[c].take_from, take_to = plan[c].take_to;
      gint64 from, to;
      double from_x, to_x;
      Sums sums = { NULL, NULL, n_rows };

      plan[c].most = 0;
      if (take_from == take_to)
        {
          column_clear (grid, c);
          continue;
        }

      /* zoomed in, a group fills many columns: the same cells again */
      if (!plan[c].part && take_from == last_from && take_to == last_to)
        {
          memcpy (grid->states + (gsize)c * n_rows, grid->states + (gsize)last_column * n_rows, n_rows);
          if (grid->with_cycles)
            memcpy (grid->cycles + (gsize)c * n_rows, grid->cycles + (gsize)last_column * n_rows,
                    n_rows * sizeof (float));
          plan[c].most = plan[last_column].most;
          continue;
        }

      /* a column of the last frame took the same groups (columns take
       * groups in order: the first not before this one's) */
      while (reuse && earlier < grid->width &&
             (last_plan[earlier].take_from < take_from ||
              (last_plan[earlier].take_from == take_from && last_plan[earlier].take_to < take_to)))
        earlier++;
      if (reuse && !plan[c].part && earlier < grid->width && last_plan[earlier].take_from == take_from &&
          last_plan[earlier].take_to == take_to && !last_plan[earlier].part)
        {
          memcpy (grid->states + (gsize)c * n_rows, scratch->last_states + (gsize)earlier * n_rows, n_rows);
          if (grid->with_cycles)
            memcpy (grid->cycles + (gsize)c * n_rows, scratch->last_cycles + (gsize)earlier * n_rows,
                    n_rows * sizeof (float));
          /* (by state only, no cycles: 0) */
          plan[c].most = grid->with_cycles ? last_plan[earlier].most : 0;
          max_cycles = MAX (max_cycles, plan[c].most);
          last_from = take_from;
          last_to = take_to;
          last_column = c;
          continue;
        }

      column_edges (grid, t0, t1, c, &from, &to, &from_x, &to_x);
      if (!plan[c].wide)
        sums.acc32 = scratch->acc32;
      else
        sums.acc64 = scratch->acc64;
      /* in 32 bits, all the column's groups at once */
      if (sums.acc32 != NULL)
        level_add (level, take_from, take_to, j, spans, n_spans, grid, scratch->first_tile, &sums, TRUE, from, to);
      else
        for (guint u = take_from; u < take_to; u++)
          level_add (level, u, u + 1, j, spans, n_spans, grid, scratch->first_tile, &sums, u == take_from, from, to);
      last_from = plan[c].part ? G_MAXUINT : take_from;
      last_to = take_to;
      last_column = c;
      plan[c].most = column_store (grid, c, &sums, 7, plan[c].dur, plan[c].scale);
      max_cycles = MAX (max_cycles, plan[c].most);
    }
  grid->max_cycles = max_cycles;
  scratch->last_valid = TRUE;
  scratch->last_level = level;
  scratch->last_busy = j >= 0 ? level->busy[j] : NULL;
  scratch->last_with_cycles = grid->with_cycles;
}

float
tes_bsp_grid_get_cycles (const TesBspGrid *grid,
                         guint             column,
                         guint             row)
{
  g_return_val_if_fail (column < grid->width && row < grid->n_rows, 0);

  return grid->cycles[(gsize)column * grid->n_rows + row];
}

guint8
tes_bsp_grid_get (const TesBspGrid *grid,
                  guint             column,
                  guint             row)
{
  g_return_val_if_fail (column < grid->width && row < grid->n_rows, TES_BSP_NO_STATE);

  return grid->states[(gsize)column * grid->n_rows + row];
}

void
tes_bsp_grid_free (TesBspGrid *grid)
{
  if (grid == NULL)
    return;

  g_free (grid->states);
  g_free (grid->cycles);
  scratch_free (grid->scratch);
  g_free (grid);
}
