/* tes-bsp-pyramid.c: the BSP pyramid (per-tile sums of aligned groups of
 * steps), and the grid of cells a picture reads asked of it (filled in
 * tes-bsp-grid.c)
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "tes-bsp-pyramid-private.h"

/* Which blocks a level keeps: every other size (a row of 2^odd tiles reads
 * two blocks), and groups of 4 steps only blocks of 4 tiles and more (a
 * frame of a row per tile or two at that zoom reads the steps, 4 to a
 * group): the sums take about a quarter of what all sizes at all levels
 * would. */
static inline gboolean
block_kept (guint level,
            guint j)
{
  return level > 0 && j % 2 == 0 && (level >= 2 || j >= 2);
}

/* Which row of the grid shows @tile: runs of tiles_per_row tiles share
 * one when there are more tiles than rows. */
guint
tes_bsp_grid_row_of (const TesBspGrid *grid,
                     guint             tile)
{
  return tile / MAX (grid->tiles_per_row, 1);
}

/* How many tiles share a row when @n_tiles are drawn in @height pixels: a
 * power of two, so that rows hold the pyramid's blocks of tiles. */
guint
tes_bsp_tiles_per_row (guint n_tiles,
                       guint height)
{
  guint k = 1;

  while (k < n_tiles && (n_tiles + k - 1) / k > MAX (height, 1))
    k *= 2;

  return k;
}

static void
level_clear (Level *level)
{
  g_clear_pointer (&level->start, g_free);
  g_clear_pointer (&level->end, g_free);
  g_clear_pointer (&level->dur, g_free);
  g_clear_pointer (&level->plain, g_free);
  g_clear_pointer (&level->sole, g_free);
  for (guint j = 0; j < MAX_BLOCKS; j++)
    g_clear_pointer (&level->busy[j], g_free);
}

/* A tile's busy cycles in a step: no more than the step lasts, so that
 * the idle rest (dur − busy) adds up over groups. */
static inline guint64
span_busy (const TesBspSpan *span,
           guint             tile,
           guint            *state)
{
  guint s = span->tile_states[tile];

  if (s == TES_TILE_STATE_IDLE || s > TES_TILE_STATE_SYNC)
    return 0;
  *state = s - 1;
  return MIN ((guint64)span->tile_cycles[tile], (guint64)MAX (span->dur_cycles, 0));
}

/* Whether tes_report_get_tile_activity() counts @span as the sums do:
 * every tile listed, none busy longer than the step, no state past sync. */
static gboolean
plain_step (const TesBspSpan *span,
            guint             n_tiles)
{
  if (span->n_tiles != n_tiles || span->dur_cycles < 0)
    return FALSE;
  for (guint t = 0; t < n_tiles; t++)
    if (span->tile_states[t] > TES_TILE_STATE_SYNC ||
        (span->tile_states[t] != TES_TILE_STATE_IDLE && span->tile_cycles[t] > (guint64)span->dur_cycles))
      return FALSE;

  return TRUE;
}

/* The one state every tile of @span busy for a cycle or more is in
 * (compute, exchange or sync), none busy past the step's end, or else
 * TES_BSP_NO_STATE: a frame then reads its tiles' cycles alone, in that
 * state's sums, and the whole step's as they are (no tile busy: any
 * state, compute). */
static guint8
span_sole_state (const TesBspSpan *span,
                 guint             n_tiles)
{
  guint32 dur = (guint32)CLAMP (span->dur_cycles, 0, (gint64)G_MAXUINT32), most = 0;
  guint seen = 0;

  /* a bit per state of the busy tiles (states past 31 count as 31) */
  for (guint t = 0; t < MIN (span->n_tiles, n_tiles); t++)
    {
      seen |= span->tile_cycles[t] > 0 ? 1u << MIN (span->tile_states[t], 31u) : 0;
      most = MAX (most, span->tile_cycles[t]);
    }
  if (most > dur)
    return TES_BSP_NO_STATE;
  if (seen == 0)
    return TES_TILE_STATE_COMPUTE;
  for (guint s = TES_TILE_STATE_COMPUTE; s <= TES_TILE_STATE_SYNC; s++)
    if (seen == 1u << s)
      return (guint8)s;

  return TES_BSP_NO_STATE;
}

/* The groups of @group steps, without their sums (level 0 and the direct
 * computation read the steps). */
static void
level_init_groups (Level            *level,
                   const TesBspSpan *spans,
                   guint             n_spans,
                   guint             group)
{
  level->group = group;
  level->n = (n_spans + group - 1) / group;
  level->start = g_new (gint64, MAX (level->n, 1));
  level->end = g_new (gint64, MAX (level->n, 1));
  level->dur = g_new0 (guint64, MAX (level->n, 1));
  level->mean_span = 0;
  for (guint g = 0; g < level->n; g++)
    {
      guint last = MIN ((g + 1) * (guint64)group, n_spans);

      level->start[g] = spans[g * (gsize)group].start;
      level->end[g] = spans[g * (gsize)group].end;
      for (guint s = g * group; s < last; s++)
        {
          level->end[g] = MAX (level->end[g], spans[s].end);
          level->dur[g] += (guint64)MAX (spans[s].dur_cycles, 0);
        }
      level->mean_span += (double)(level->end[g] - level->start[g]) / level->n;
    }
}

/* Group @g's blocks from its tiles' sums, added to the running sums (row
 * g + 1), for the block sizes still kept: one whose group sum would not
 * fit 32 bits is dropped, with the larger ones, for the whole level
 * (frames then sum smaller blocks). */
static void
level_store_blocks (Level         *level,
                    guint          n_tiles,
                    guint          g,
                    const guint64 *sums)
{
  for (guint j = 1; j < MAX_BLOCKS; j++)
    {
      gsize n_blocks = _tes_bsp_blocks_of (n_tiles, j);
      guint32 *to;

      if (level->busy[j] == NULL)
        continue;
      to = level->busy[j] + (gsize)(g + 1) * n_blocks * 3;
      for (gsize b = 0; b < n_blocks; b++)
        {
          guint64 acc[3] = { 0, 0, 0 };

          for (gsize t = b << j; t < MIN ((b + 1) << j, (gsize)n_tiles); t++)
            for (guint k = 0; k < 3; k++)
              acc[k] += sums[k * (gsize)n_tiles + t];
          if (MAX (acc[0], MAX (acc[1], acc[2])) > G_MAXUINT32)
            {
              for (guint k = j; k < MAX_BLOCKS; k++)
                g_clear_pointer (&level->busy[k], g_free);
              return;
            }
          for (guint k = 0; k < 3; k++)
            to[k * n_blocks + b] = to[k * n_blocks + b - n_blocks * 3] + (guint32)acc[k];
        }
    }
}

/* The finest level below @l whose tiles' sums are kept (0: the steps). */
static guint
finer_with_tiles (const TesBspPyramid *self,
                  guint                l)
{
  while (l > 1 && self->levels[l - 1].busy[0] == NULL)
    l--;

  return l - 1;
}

/* Level @l from the finest level below it with its tiles' sums (or the
 * steps): FALSE when a tile's sum would not fit 32 bits, where the
 * pyramid stops (coarser frames read more groups). */
static gboolean
level_build (TesBspPyramid *self,
             guint          l)
{
  Level *level = &self->levels[l];
  const Level *from_level = &self->levels[finer_with_tiles (self, l)];
  gsize row = (gsize)self->n_tiles * 3;
  g_autofree guint64 *sums = g_new (guint64, MAX (row, 1));
  guint per_group;

  level_init_groups (level, self->spans, self->n_spans, self->levels[l - 1].group * FANOUT);
  per_group = level->group / from_level->group;
  level->plain = g_new (guint8, MAX (level->n, 1));
  /* the steps' own states, where this level reads every step's tiles */
  if (l == 1)
    self->levels[0].sole = g_new0 (guint8, MAX (self->n_spans, 1));
  for (guint j = 0; j < MAX_BLOCKS && (j == 0 || (1u << (j - 1)) < self->n_tiles); j++)
    if (block_kept (l, j))
      {
        /* a row of zeros first, and a vector more, read past the last
         * row (tes_bsp_grid's sums) */
        gsize row_size = _tes_bsp_blocks_of (self->n_tiles, j) * 3, n = ((gsize)level->n + 1) * row_size;

        if (!(level->busy[j] = g_try_malloc ((n + 4) * sizeof (guint32))))
          {
            level_clear (level);
            return FALSE;
          }
        memset (level->busy[j], 0, row_size * sizeof (guint32));
        memset (level->busy[j] + n, 0, 4 * sizeof (guint32));
      }

  for (guint g = 0; g < level->n; g++)
    {
      gboolean plain = TRUE;

      memset (sums, 0, row * sizeof (guint64));
      if (from_level->busy[0] == NULL)
        {
          guint last = MIN ((g + 1) * (guint64)level->group, self->n_spans);

          for (guint s = g * level->group; s < last; s++)
            {
              const TesBspSpan *span = &self->spans[s];

              for (guint t = 0; t < MIN (span->n_tiles, self->n_tiles); t++)
                {
                  guint state = 0;
                  guint64 busy = span_busy (span, t, &state);

                  sums[state * (gsize)self->n_tiles + t] += busy;
                }
              plain = plain && plain_step (span, self->n_tiles);
              if (l == 1)
                self->levels[0].sole[s] = span_sole_state (span, self->n_tiles);
            }
        }
      else
        {
          guint last = MIN ((g + 1) * per_group, from_level->n);

          for (guint f = g * per_group; f < last; f++)
            {
              const guint32 *from = from_level->busy[0] + (gsize)f * row;

              for (gsize i = 0; i < row; i++)
                sums[i] += (guint32)(from[row + i] - from[i]);
              plain = plain && from_level->plain[f];
            }
        }

      level->plain[g] = (guint8)plain;
      for (gsize i = 0; i < row; i++)
        if (sums[i] > G_MAXUINT32)
          {
            level_clear (level);
            return FALSE;
          }
      if (level->busy[0] != NULL)
        for (gsize i = 0; i < row; i++)
          level->busy[0][(gsize)(g + 1) * row + i] = level->busy[0][(gsize)g * row + i] + (guint32)sums[i];
      level_store_blocks (level, self->n_tiles, g, sums);
    }

  return TRUE;
}

/**
 * tes_bsp_pyramid_new:
 * @spans: (array length=n_spans): one IPU's steps in time order; they
 *   must outlive the pyramid
 *
 * Sums the steps per tile in groups of 4, 16, 64… steps, once: slow on
 * big runs (it reads every tile of every step), so build it where the
 * steps load, off the main loop.
 */
TesBspPyramid *
tes_bsp_pyramid_new (const TesBspSpan *spans,
                     guint             n_spans,
                     guint             n_tiles)
{
  TesBspPyramid *self = g_new0 (TesBspPyramid, 1);

  self->spans = spans;
  self->n_spans = n_spans;
  self->n_tiles = n_tiles;
  self->in_order = TRUE;
  for (guint s = 1; s < n_spans; s++)
    self->in_order = self->in_order && spans[s].start >= spans[s - 1].start;
  level_init_groups (&self->levels[0], spans, n_spans, 1);
  self->n_levels = 1;

  while (self->n_levels < MAX_LEVELS && self->levels[self->n_levels - 1].n > 1 && n_tiles > 0 &&
         level_build (self, self->n_levels))
    self->n_levels++;

  return self;
}

guint
tes_bsp_pyramid_get_n_levels (const TesBspPyramid *pyramid)
{
  return pyramid->n_levels;
}

/* The bytes the sums take (the steps not counted). */
gsize
tes_bsp_pyramid_get_size (const TesBspPyramid *pyramid)
{
  gsize size = sizeof *pyramid;

  for (guint l = 0; l < pyramid->n_levels; l++)
    {
      const Level *level = &pyramid->levels[l];

      size += level->n * (3 * sizeof (gint64) + (level->plain != NULL ? 1 : 0) + (level->sole != NULL ? 1 : 0));
      for (guint j = 0; j < MAX_BLOCKS; j++)
        if (level->busy[j] != NULL)
          size += (level->n + 1) * _tes_bsp_blocks_of (pyramid->n_tiles, j) * 3 * sizeof (guint32);
    }

  return size;
}

void
tes_bsp_pyramid_free (TesBspPyramid *pyramid)
{
  if (pyramid == NULL)
    return;

  for (guint l = 0; l < pyramid->n_levels; l++)
    level_clear (&pyramid->levels[l]);
  g_free (pyramid);
}

/* The coarsest level whose groups are no wider than a column on average
 * (by the widest, one long group would hold every frame to the steps). */
static guint
level_for (const Level *levels,
           guint        n_levels,
           double       ns_per_column)
{
  guint l = 0;

  while (l + 1 < n_levels && levels[l + 1].mean_span <= ns_per_column)
    l++;

  return l;
}

guint
tes_bsp_pyramid_level_for (const TesBspPyramid *pyramid,
                           double               ns_per_column)
{
  return level_for (pyramid->levels, pyramid->n_levels, ns_per_column);
}

/* The first group starting at or after @t, from @from on. */
guint
_tes_bsp_level_first_from (const Level *level,
                           guint        from,
                           gint64       t)
{
  guint lo = from, hi = level->n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (level->start[mid] < t)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

/**
 * tes_bsp_grid_build:
 * @spans: (array length=n_spans): one IPU's steps in time order, times in ns
 * @level: merge the steps in aligned groups of 4^@level (0: each alone)
 *
 * The cells of [@t0, @t1) in @width columns straight from the steps: the
 * cost follows the steps in view (tes_bsp_pyramid_grid() gives the same
 * cells from the sums).
 */
TesBspGrid *
tes_bsp_grid_build (const TesBspSpan *spans,
                    guint             n_spans,
                    guint             n_tiles,
                    gint64            t0,
                    gint64            t1,
                    guint             width,
                    guint             height,
                    guint             level)
{
  TesBspGrid *grid = _tes_bsp_grid_new (n_tiles, width, height);
  Level groups = { 0 };
  guint group = 1;

  for (guint l = 0; l < level && group <= G_MAXUINT / FANOUT; l++)
    group *= FANOUT;
  grid->level = level;
  if (n_spans == 0)
    return grid;

  level_init_groups (&groups, spans, n_spans, group);
  _tes_bsp_grid_fill (grid, &groups, spans, n_spans, t0, t1);
  level_clear (&groups);

  return grid;
}

/**
 * tes_bsp_pyramid_grid_reuse:
 * @grid: (transfer full) (nullable): a grid of an earlier frame of this
 *   pyramid (a grid of another one: free it, pass NULL)
 * @with_cycles: also each cell's busy cycles (else its state only, the
 *   cycles left undefined and max_cycles 0: what a picture by state
 *   needs)
 *
 * The cells of [@t0, @t1) in @width columns from the level whose groups
 * are no wider than a column, in @grid again when it has the shape asked
 * for (frames of the same size allocate nothing), its columns that take
 * the same groups as one of the last frame's copied from it.
 *
 * Returns: (transfer full): the grid
 */
TesBspGrid *
tes_bsp_pyramid_grid_reuse (const TesBspPyramid *pyramid,
                            TesBspGrid          *grid,
                            gint64               t0,
                            gint64               t1,
                            guint                width,
                            guint                height,
                            gboolean             with_cycles)
{
  grid = _tes_bsp_grid_reuse (grid, pyramid->n_tiles, width, height);
  grid->with_cycles = with_cycles;
  grid->level = level_for (pyramid->levels, pyramid->n_levels, (double)(t1 - t0) / grid->width);
  _tes_bsp_grid_fill (grid, &pyramid->levels[grid->level], pyramid->spans, pyramid->n_spans, t0, t1);

  return grid;
}

/* The cells of [@t0, @t1) in @width columns from the level whose groups
 * are no wider than a column. */
TesBspGrid *
tes_bsp_pyramid_grid (const TesBspPyramid *pyramid,
                      gint64               t0,
                      gint64               t1,
                      guint                width,
                      guint                height)
{
  return tes_bsp_pyramid_grid_reuse (pyramid, NULL, t0, t1, width, height, TRUE);
}

guint
tes_bsp_pyramid_get_n_tiles (const TesBspPyramid *pyramid)
{
  return pyramid->n_tiles;
}

/* The span holding @t (spans in time order), or -1. */
int
tes_bsp_span_at (const TesBspSpan *spans,
                 guint             n_spans,
                 gint64            t)
{
  guint lo = 0, hi = n_spans;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (spans[mid].end <= t)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo < n_spans && spans[lo].start <= t ? (int)lo : -1;
}
