/* tes-bsp-grid-avx2.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "tes-bsp-pyramid-private.h"

/* The BSP grid's loops written for AVX2 (tes-bsp-grid.c calls them when
 * the processor has it): eight rows at a time, a lane per row. */

#ifdef TES_BSP_AVX2
/* column_store ()'s rows in 32 bits, eight at a time from row 0: the
 * unsigned comparisons of cell_state () as a maximum and an equality
 * (AVX2 has both; the vector extension's comparison takes three
 * instructions), each cell's word of state in @best; where only the
 * plane of state @sole holds sums (else 0), that one alone. Returns the
 * rows done; *@most: the most busy cycles per tile of their cells. */
__attribute__ ((target ("avx2"))) guint
_tes_bsp_column_store_eights_avx2 (const guint32 *const *plane,
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
                          float         *most)
{
  __m256 top = _mm256_setzero_ps ();
  float lanes[8];
  guint r = 0;
  /* the planes apart from what is stored (no reading of @plane after
   * each store) */
  const guint32 *restrict computes = plane[0], *restrict exchanges = plane[1], *restrict syncs = plane[2];

  /* by state only, one plane: a loop of its own */
  if (sole != 0 && cycles == NULL)
    {
      const guint32 *restrict one = plane[sole - TES_TILE_STATE_COMPUTE];
      guint32 *restrict words = best;
      __m256i full = _mm256_set1_epi32 ((int)row_all), state = _mm256_set1_epi32 ((int)sole);

      for (; r + 8 <= n_rows; r += 8)
        {
          __m256i all = r + 8 <= full_rows ? full
                        : _mm256_mullo_epi32 (_mm256_loadu_si256 ((const void *)(row_tiles + r)),
                                              _mm256_set1_epi32 ((int)dur));
          __m256i busy = _mm256_loadu_si256 ((const void *)(one + r));
          __m256i weight = _mm256_sub_epi32 (all, _mm256_min_epu32 (busy, all));
          __m256i kept = _mm256_cmpeq_epi32 (_mm256_max_epu32 (busy, weight), weight);

          G_STATIC_ASSERT (TES_TILE_STATE_IDLE == 0);
          /* idle (0) where kept */
          _mm256_storeu_si256 ((void *)(words + r), _mm256_andnot_si256 (kept, state));
        }
      *most = 0;
      return r;
    }

  for (; r + 8 <= n_rows; r += 8)
    {
      __m256i all = r + 8 <= full_rows ? _mm256_set1_epi32 ((int)row_all)
                    : _mm256_mullo_epi32 (_mm256_loadu_si256 ((const void *)(row_tiles + r)),
                                          _mm256_set1_epi32 ((int)dur));
      __m256i state = _mm256_set1_epi32 (TES_TILE_STATE_IDLE), busy, weight, kept;

      if (sole != 0)
        {
          /* one plane: that state where it is more than the idle rest */
          busy = _mm256_loadu_si256 ((const void *)((sole == TES_TILE_STATE_COMPUTE ? computes
                                                      : sole == TES_TILE_STATE_EXCHANGE ? exchanges : syncs) + r));
          weight = _mm256_sub_epi32 (all, _mm256_min_epu32 (busy, all));
          kept = _mm256_cmpeq_epi32 (_mm256_max_epu32 (busy, weight), weight);
          state = _mm256_blendv_epi8 (_mm256_set1_epi32 ((int)sole), state, kept);
        }
      else
        {
          __m256i compute = _mm256_loadu_si256 ((const void *)(computes + r));
          __m256i exchange = _mm256_loadu_si256 ((const void *)(exchanges + r));
          __m256i sync = _mm256_loadu_si256 ((const void *)(syncs + r));

          busy = _mm256_add_epi32 (_mm256_add_epi32 (compute, exchange), sync);
          weight = _mm256_sub_epi32 (all, _mm256_min_epu32 (busy, all));   /* idle */
          /* a state wins where its cycles are more than the best so far
           * (kept: not more, the maximum is the best's) */
          kept = _mm256_cmpeq_epi32 (_mm256_max_epu32 (compute, weight), weight);
          state = _mm256_blendv_epi8 (_mm256_set1_epi32 (TES_TILE_STATE_COMPUTE), state, kept);
          weight = _mm256_max_epu32 (compute, weight);
          kept = _mm256_cmpeq_epi32 (_mm256_max_epu32 (exchange, weight), weight);
          state = _mm256_blendv_epi8 (_mm256_set1_epi32 (TES_TILE_STATE_EXCHANGE), state, kept);
          weight = _mm256_max_epu32 (exchange, weight);
          kept = _mm256_cmpeq_epi32 (_mm256_max_epu32 (sync, weight), weight);
          state = _mm256_blendv_epi8 (_mm256_set1_epi32 (TES_TILE_STATE_SYNC), state, kept);
        }
      _mm256_storeu_si256 ((void *)(best + r), state);

      if (cycles != NULL)
        {
          /* unsigned to float rounded once, as the vector extension's
           * conversion: the high and low halves are exact */
          __m256 busy_f = _mm256_add_ps (_mm256_mul_ps (_mm256_cvtepi32_ps (_mm256_srli_epi32 (busy, 16)),
                                                        _mm256_set1_ps (65536.0f)),
                                         _mm256_cvtepi32_ps (_mm256_and_si256 (busy, _mm256_set1_epi32 (0xffff))));

          busy_f = _mm256_mul_ps (busy_f, _mm256_loadu_ps (per_tile + r));
          busy_f = _mm256_mul_ps (busy_f, _mm256_set1_ps (scale));
          _mm256_storeu_ps (cycles + r, busy_f);
          top = _mm256_max_ps (busy_f, top);
        }
    }

  _mm256_storeu_ps (lanes, top);
  *most = 0;
  for (guint i = 0; i < 8; i++)
    *most = MAX (*most, lanes[i]);

  return r;
}

/* Four vectors of two rows' four tiles each (rows i and i + 4 of eight,
 * their halves) tile by tile: the k-th then holds tile k of each of the
 * eight rows, a lane per row (a 4×4 transpose within each half). */
__attribute__ ((target ("avx2"), always_inline)) static inline void
lanes_transpose (__m256i v[4])
{
  __m256i a = _mm256_unpacklo_epi32 (v[0], v[1]), b = _mm256_unpackhi_epi32 (v[0], v[1]);
  __m256i c = _mm256_unpacklo_epi32 (v[2], v[3]), d = _mm256_unpackhi_epi32 (v[2], v[3]);

  v[0] = _mm256_unpacklo_epi64 (a, c);
  v[1] = _mm256_unpackhi_epi64 (a, c);
  v[2] = _mm256_unpacklo_epi64 (b, d);
  v[3] = _mm256_unpackhi_epi64 (b, d);
}

/* step_spread () for rows of a multiple of four tiles, eight rows at a
 * time, a lane per row: per four tiles of each row, their busy cycles
 * split by state once (a tile is in one: the others' lanes 0), then per
 * edge one unsigned minimum per tile and state (AVX2 has it, the SSE2
 * build takes three instructions), no sum across lanes. From row @r;
 * returns the first row it left. */
__attribute__ ((target ("avx2"))) guint
_tes_bsp_spread_eights_avx2 (const TesBspSpan *span,
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
                    guint             r)
{
  const guint8 *states = span->tile_states;
  const guint32 *cycles = span->tile_cycles;
  guint listed = MIN (span->n_tiles, grid->n_tiles), n_rows = grid->n_rows, per_row = grid->tiles_per_row;

  for (; r + 8 <= n_rows && first_tile[r + 8] <= listed && first_tile[r + 8] - first_tile[r] == 8 * per_row; r += 8)
    {
      __m256i sum[2 * SPREAD_COLUMNS][3];

      /* rows of four tiles (the common case) set the sums, others add
       * each four tiles' */
      for (guint e = 0; e < (per_row == 4 ? first_edge : n_edges); e++)
        for (guint x = 0; x < 3; x++)
          sum[e][x] = _mm256_setzero_si256 ();

      for (guint g = 0; g < per_row; g += 4)
        {
          __m256i busy[4], state[4], part[3][4];

#pragma GCC unroll 4
          for (guint i = 0; i < 4; i++)
            {
              /* the rows' tiles follow one another (none of them short) */
              gsize low = first_tile[r] + (gsize)i * per_row + g, high = low + 4 * (gsize)per_row;
              guint32 four_low, four_high;

              busy[i] = _mm256_inserti128_si256 (_mm256_castsi128_si256 (_mm_loadu_si128 ((const void *)(cycles + low))),
                                                 _mm_loadu_si128 ((const void *)(cycles + high)), 1);
              memcpy (&four_low, states + low, 4);
              memcpy (&four_high, states + high, 4);
              state[i] = _mm256_cvtepu8_epi32 (_mm_insert_epi32 (_mm_cvtsi32_si128 ((int)four_low), (int)four_high, 1));
            }
          lanes_transpose (busy);
          lanes_transpose (state);
#pragma GCC unroll 4
          for (guint i = 0; i < 4; i++)
            {
              part[0][i] = _mm256_and_si256 (busy[i], _mm256_cmpeq_epi32 (state[i], _mm256_set1_epi32 (TES_TILE_STATE_COMPUTE)));
              part[1][i] = _mm256_and_si256 (busy[i], _mm256_cmpeq_epi32 (state[i], _mm256_set1_epi32 (TES_TILE_STATE_EXCHANGE)));
              part[2][i] = _mm256_and_si256 (busy[i], _mm256_cmpeq_epi32 (state[i], _mm256_set1_epi32 (TES_TILE_STATE_SYNC)));
            }
          /* min (b, 0) is 0: an edge at 0 stays 0 */
          for (guint e = first_edge; e < n_edges; e++)
            {
              __m256i edge = _mm256_set1_epi32 ((int)edges[e]);

#pragma GCC unroll 3
              for (guint x = 0; x < 3; x++)
                {
                  __m256i four = _mm256_add_epi32 (_mm256_add_epi32 (_mm256_min_epu32 (part[x][0], edge),
                                                                     _mm256_min_epu32 (part[x][1], edge)),
                                                   _mm256_add_epi32 (_mm256_min_epu32 (part[x][2], edge),
                                                                     _mm256_min_epu32 (part[x][3], edge)));

                  sum[e][x] = per_row == 4 ? four : _mm256_add_epi32 (sum[e][x], four);
                }
            }
        }

      for (guint c = 0; c < k; c++)
#pragma GCC unroll 3
        for (guint x = 0; x < 3; x++)
          {
            guint32 *to = accs[c] + (gsize)x * n_rows + r;
            __m256i add = _mm256_sub_epi32 (sum[at_hi[c]][x], sum[at_lo[c]][x]);

            if (!(fresh & (1u << c)))
              add = _mm256_add_epi32 (add, _mm256_loadu_si256 ((const void *)to));
            _mm256_storeu_si256 ((void *)to, add);
          }
    }

  return r;
}

/* _tes_bsp_spread_eights_avx2 () for a step whose busy tiles are all in
 * one state, none past its @dur cycles: their cycles alone, no state
 * read, one minimum per tile and edge (none at the step's end), into that
 * state's sums (@to, a column each; the columns in @set, bits, set
 * rather than added to). @next (nullable): the cycles of the step read
 * after this one, fetched meanwhile. */
__attribute__ ((target ("avx2"))) guint
_tes_bsp_spread_sole_eights_avx2 (const guint32    *cycles,
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
                                  guint             r)
{
  guint n_rows = grid->n_rows, per_row = grid->tiles_per_row;

  for (; r + 8 <= n_rows && first_tile[r + 8] <= listed && first_tile[r + 8] - first_tile[r] == 8 * per_row; r += 8)
    {
      __m256i sum[2 * SPREAD_COLUMNS];

      for (guint e = 0; e < (per_row == 4 ? first_edge : n_edges); e++)
        sum[e] = _mm256_setzero_si256 ();

      /* the same tiles of the step read next, a cache line at a time
       * (each step's are an allocation of their own: no stream for the
       * processor to follow into them) */
      for (guint t = 0; next != NULL && t < 8 * per_row; t += 16)
        _mm_prefetch ((const char *)(next + first_tile[r] + t), _MM_HINT_T0);

      for (guint g = 0; g < per_row; g += 4)
        {
          __m256i busy[4];

#pragma GCC unroll 4
          for (guint i = 0; i < 4; i++)
            {
              gsize low = first_tile[r] + (gsize)i * per_row + g, high = low + 4 * (gsize)per_row;

              busy[i] = _mm256_inserti128_si256 (_mm256_castsi128_si256 (_mm_loadu_si128 ((const void *)(cycles + low))),
                                                 _mm_loadu_si128 ((const void *)(cycles + high)), 1);
            }
          lanes_transpose (busy);
          for (guint e = first_edge; e < n_edges; e++)
            {
              __m256i edge = _mm256_set1_epi32 ((int)edges[e]), four;

              /* no tile is busy past the step's end: min (b, dur) is b */
              if (edges[e] >= dur)
                four = _mm256_add_epi32 (_mm256_add_epi32 (busy[0], busy[1]), _mm256_add_epi32 (busy[2], busy[3]));
              else
                four = _mm256_add_epi32 (_mm256_add_epi32 (_mm256_min_epu32 (busy[0], edge),
                                                           _mm256_min_epu32 (busy[1], edge)),
                                         _mm256_add_epi32 (_mm256_min_epu32 (busy[2], edge),
                                                           _mm256_min_epu32 (busy[3], edge)));
              sum[e] = per_row == 4 ? four : _mm256_add_epi32 (sum[e], four);
            }
        }

      for (guint c = 0; c < k; c++)
        {
          __m256i add = _mm256_sub_epi32 (sum[at_hi[c]], sum[at_lo[c]]);

          if (!(set & (1u << c)))
            add = _mm256_add_epi32 (add, _mm256_loadu_si256 ((const void *)(to[c] + r)));
          _mm256_storeu_si256 ((void *)(to[c] + r), add);
        }
    }

  return r;
}
#endif
