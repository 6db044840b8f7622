/* tes-bsp-layout.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "tes-bsp-layout.h"

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

/* Each level of the pyramid merges this many of the finer. */
#define FANOUT     4
#define MAX_LEVELS 16
/* Sums are also kept per block of 2, 4… tiles, up to this many */
#define MAX_BLOCKS 9

/* A run of aligned groups of steps (level 0: the steps themselves), in
 * time order. busy[j] holds, per group and block of 2^j tiles, the cycles
 * the block spent computing, exchanging and syncing (busy[0] NULL: read
 * the steps): a frame whose rows hold 2^j tiles reads a row's sums in
 * one. */
typedef struct
{
  guint    n;
  guint    group;          /* steps per group: FANOUT^level */
  gint64  *start;          /* ns: the group's first step's start */
  gint64  *end;            /* ns: its latest end */
  guint64 *dur;            /* cycles, the steps' summed */
  guint32 *busy[MAX_BLOCKS];  /* n × ceil (n_tiles / 2^j) × 3, or NULL */
  guint    n_blocks;       /* of busy[] */
  double   mean_span;      /* ns: a group's, on average */
} Level;

struct _TesBspPyramid
{
  const TesBspSpan *spans;
  guint             n_spans;
  guint             n_tiles;
  guint             n_levels;
  Level             levels[MAX_LEVELS];
};

static void
level_clear (Level *level)
{
  g_clear_pointer (&level->start, g_free);
  g_clear_pointer (&level->end, g_free);
  g_clear_pointer (&level->dur, g_free);
  for (guint j = 0; j < MAX_BLOCKS; j++)
    g_clear_pointer (&level->busy[j], g_free);
  level->n_blocks = 0;
}

static inline gsize
blocks_of (guint n_tiles,
           guint j)
{
  return (n_tiles + (1u << j) - 1) >> j;
}

/* busy[j] from busy[j − 1]: pairs of blocks summed; FALSE when a sum
 * would not fit 32 bits (frames then sum smaller blocks). */
static gboolean
level_build_blocks (Level *level,
                    guint  n_tiles,
                    guint  j)
{
  gsize finer = blocks_of (n_tiles, j - 1), coarser = blocks_of (n_tiles, j);
  const guint32 *from = level->busy[j - 1];
  guint32 *to = g_try_malloc ((gsize)level->n * coarser * 3 * sizeof (guint32) + 1);

  if (to == NULL)
    return FALSE;

  for (gsize g = 0; g < level->n; g++)
    for (gsize b = 0; b < coarser; b++)
      for (guint k = 0; k < 3; k++)
        {
          guint64 sum = from[(g * finer + 2 * b) * 3 + k];

          if (2 * b + 1 < finer)
            sum += from[(g * finer + 2 * b + 1) * 3 + k];
          if (sum > G_MAXUINT32)
            {
              g_free (to);
              return FALSE;
            }
          to[(g * coarser + b) * 3 + k] = (guint32)sum;
        }

  level->busy[j] = to;
  level->n_blocks = j + 1;

  return TRUE;
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

/* Level @l from level @l − 1 (or the steps): FALSE when a sum would not
 * fit 32 bits, where the pyramid stops (coarser frames read more groups). */
static gboolean
level_build (TesBspPyramid *self,
             guint          l)
{
  Level *level = &self->levels[l];
  const Level *finer = &self->levels[l - 1];
  gsize row = (gsize)self->n_tiles * 3;
  g_autofree guint64 *sums = g_new (guint64, MAX (row, 1));

  level_init_groups (level, self->spans, self->n_spans, finer->group * FANOUT);
  level->busy[0] = g_try_malloc ((gsize)level->n * row * sizeof (guint32) + 1);
  if (level->busy[0] == NULL)
    return FALSE;
  level->n_blocks = 1;

  for (guint g = 0; g < level->n; g++)
    {
      memset (sums, 0, row * sizeof (guint64));
      if (finer->busy[0] == NULL)
        {
          guint last = MIN ((g + 1) * (guint64)level->group, self->n_spans);

          for (guint s = g * level->group; s < last; s++)
            {
              const TesBspSpan *span = &self->spans[s];

              for (guint t = 0; t < MIN (span->n_tiles, self->n_tiles); t++)
                {
                  guint state = 0;
                  guint64 busy = span_busy (span, t, &state);

                  sums[t * 3 + state] += busy;
                }
            }
        }
      else
        {
          guint last = MIN ((g + 1) * FANOUT, finer->n);

          for (guint f = g * FANOUT; f < last; f++)
            {
              const guint32 *from = finer->busy[0] + (gsize)f * row;

              for (gsize i = 0; i < row; i++)
                sums[i] += from[i];
            }
        }

      for (gsize i = 0; i < row; i++)
        {
          if (sums[i] > G_MAXUINT32)
            {
              level_clear (level);
              return FALSE;
            }
          level->busy[0][(gsize)g * row + i] = (guint32)sums[i];
        }
    }

  for (guint j = 1; j < MAX_BLOCKS && (1u << (j - 1)) < self->n_tiles; j++)
    if (!level_build_blocks (level, self->n_tiles, j))
      break;

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
      size += pyramid->levels[l].n * 3 * sizeof (gint64);
      for (guint j = 0; j < pyramid->levels[l].n_blocks; j++)
        size += pyramid->levels[l].n * blocks_of (pyramid->n_tiles, j) * 3 * sizeof (guint32);
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
static guint
level_first_from (const Level *level,
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

/* Adds group @g's busy cycles to @acc (per row, by state: idle's slot
 * unused, idle being the rest), rows holding the tiles from @first_tile[row] on, and returns
 * its cycles: the stored sums, or the steps' own. */
static guint64
level_add (const Level      *level,
           guint             g,
           const TesBspSpan *spans,
           guint             n_spans,
           guint             n_tiles,
           guint             tiles_per_row,
           const guint      *first_tile,
           guint             n_rows,
           guint64          *acc)
{
  if (level->n_blocks > 0)
    {
      /* the largest blocks that fit a row: rows hold 2^j tiles */
      guint j = 0;
      gsize n_blocks, per_row;
      const guint32 *from;

      while (j + 1 < level->n_blocks && tiles_per_row >= (2u << j))
        j++;
      n_blocks = blocks_of (n_tiles, j);
      per_row = MAX (tiles_per_row >> j, 1);
      from = level->busy[j] + (gsize)g * n_blocks * 3;
      if (per_row == 1)
        for (guint r = 0; r < n_rows; r++)
          {
            acc[r * 4 + 1] += from[r * 3];
            acc[r * 4 + 2] += from[r * 3 + 1];
            acc[r * 4 + 3] += from[r * 3 + 2];
          }
      else
        for (guint r = 0; r < n_rows; r++)
          {
            guint64 a0 = 0, a1 = 0, a2 = 0;

            for (gsize b = r * per_row; b < MIN ((r + 1) * per_row, n_blocks); b++)
              {
                a0 += from[b * 3];
                a1 += from[b * 3 + 1];
                a2 += from[b * 3 + 2];
              }
            acc[r * 4 + 1] += a0;
            acc[r * 4 + 2] += a1;
            acc[r * 4 + 3] += a2;
          }
    }
  else
    {
      guint last = MIN ((g + 1) * (guint64)level->group, n_spans);

      for (guint s = g * level->group; s < last; s++)
        {
          const TesBspSpan *span = &spans[s];
          guint listed = MIN (span->n_tiles, n_tiles);
          guint64 dur = (guint64)MAX (span->dur_cycles, 0);

          /* a sum per state in registers, without a branch per tile */
          for (guint r = 0; r < n_rows && first_tile[r] < listed; r++)
            {
              guint64 a1 = 0, a2 = 0, a3 = 0;

              for (guint t = first_tile[r]; t < MIN (first_tile[r + 1], listed); t++)
                {
                  guint state = span->tile_states[t];
                  guint64 busy = MIN ((guint64)span->tile_cycles[t], dur);

                  a1 += state == TES_TILE_STATE_COMPUTE ? busy : 0;
                  a2 += state == TES_TILE_STATE_EXCHANGE ? busy : 0;
                  a3 += state == TES_TILE_STATE_SYNC ? busy : 0;
                }
              acc[r * 4 + 1] += a1;
              acc[r * 4 + 2] += a2;
              acc[r * 4 + 3] += a3;
            }
        }
    }

  return level->dur[g];
}

static TesBspGrid *
grid_new (guint n_tiles,
          guint width,
          guint height)
{
  TesBspGrid *grid = g_new0 (TesBspGrid, 1);
  gsize n;

  grid->width = MAX (width, 1);
  grid->n_tiles = n_tiles;
  grid->tiles_per_row = tes_bsp_tiles_per_row (n_tiles, height);
  grid->n_rows = MAX ((n_tiles + grid->tiles_per_row - 1) / grid->tiles_per_row, 1);
  n = (gsize)grid->width * grid->n_rows;
  grid->states = g_malloc (n);
  memset (grid->states, TES_BSP_NO_STATE, n);
  grid->cycles = g_new0 (float, n);

  return grid;
}

/* The cells from @level's groups: each column takes the groups that start
 * in it, or else the one in progress there. A tile is idle for the part
 * of a step it is not busy (also a tile the step does not list); a row
 * sums its tiles; the state of most cycles wins, idle on a tie. */
#define COLUMN_BLOCK 64

/* The columns computed of the block from @first on, into the rows. */
static void
store_block (TesBspGrid   *grid,
             guint         first,
             gboolean     *computed,
             const guint8 *states,
             const float  *cycles)
{
  guint n = MIN (COLUMN_BLOCK, grid->width - first);

  for (guint r = 0; r < grid->n_rows; r++)
    {
      guint8 *row_states = grid->states + (gsize)r * grid->width + first;
      float *row_cycles = grid->cycles + (gsize)r * grid->width + first;

      for (guint i = 0; i < n; i++)
        if (computed[i])
          {
            row_states[i] = states[(gsize)i * grid->n_rows + r];
            row_cycles[i] = cycles[(gsize)i * grid->n_rows + r];
          }
    }
  memset (computed, 0, COLUMN_BLOCK * sizeof (gboolean));
}

static void
grid_fill (TesBspGrid       *grid,
           const Level      *level,
           const TesBspSpan *spans,
           guint             n_spans,
           gint64            t0,
           gint64            t1)
{
  guint n_tiles = grid->n_tiles, n_rows = grid->n_rows;
  g_autofree guint64 *acc = g_new (guint64, (gsize)n_rows * 4);
  g_autofree guint *first_tile = g_new (guint, n_rows + 1);
  /* per column, the column whose cells it repeats (itself: its own) */
  g_autofree guint *source = g_new (guint, grid->width);
  /* cells are worked out a column at a time but stored a row at a time:
   * a block of columns waits here, column by column, to be stored row by
   * row (a column straight into the rows would touch a cache line per
   * row) */
  g_autofree guint8 *block_states = g_malloc0 ((gsize)COLUMN_BLOCK * n_rows);
  g_autofree float *block_cycles = g_new0 (float, (gsize)COLUMN_BLOCK * n_rows);
  g_autofree float *per_tile = g_new (float, n_rows);
  gboolean computed[COLUMN_BLOCK] = { FALSE };
  /* the groups the last filled column took: [last_from, last_to) */
  guint g, last_from = G_MAXUINT, last_to = G_MAXUINT, last_column = 0;
  float max_cycles = 0;

  if (t1 <= t0 || n_tiles == 0 || level->n == 0)
    return;

  /* rows hold runs of tiles: the first of each */
  for (guint r = 0, t = 0; r <= n_rows; r++)
    {
      while (t < n_tiles && tes_bsp_grid_row_of (grid, t) < r)
        t++;
      first_tile[r] = r == n_rows ? n_tiles : t;
    }
  for (guint r = 0; r < n_rows; r++)
    per_tile[r] = first_tile[r + 1] > first_tile[r] ? 1.0f / (first_tile[r + 1] - first_tile[r]) : 0;

  g = level_first_from (level, 0, t0);
  for (guint c = 0; c < grid->width; c++)
    {
      gint64 from = t0 + (gint64)((double)(t1 - t0) * c / grid->width);
      gint64 to = c + 1 == grid->width ? t1 : t0 + (gint64)((double)(t1 - t0) * (c + 1) / grid->width);
      guint64 dur = 0;
      guint take_from = g, take_to;

      if (c % COLUMN_BLOCK == 0 && c > 0)
        store_block (grid, c - COLUMN_BLOCK, computed, block_states, block_cycles);
      source[c] = c;
      if (from >= to)
        continue;
      while (g < level->n && level->start[g] < to)
        g++;
      take_to = g;
      if (take_from == take_to)
        {
          /* none starts here: the one in progress, if any */
          if (g == 0 || level->end[g - 1] <= from)
            continue;
          take_from = g - 1;
        }

      /* zoomed in, a step fills many columns: the same cells again */
      if (take_from == last_from && take_to == last_to)
        {
          source[c] = last_column;
          continue;
        }

      memset (acc, 0, (gsize)n_rows * 4 * sizeof (guint64));
      for (guint u = take_from; u < take_to; u++)
        dur += level_add (level, u, spans, n_spans, n_tiles, grid->tiles_per_row, first_tile, n_rows, acc);
      last_from = take_from;
      last_to = take_to;
      last_column = c;

      {
        guint8 *column_states = block_states + (gsize)(c % COLUMN_BLOCK) * n_rows;
        float *column_cycles = block_cycles + (gsize)(c % COLUMN_BLOCK) * n_rows;

        for (guint r = 0; r < n_rows; r++)
          {
            guint64 compute = acc[r * 4 + 1], exchange = acc[r * 4 + 2], sync = acc[r * 4 + 3];
            guint64 busy = compute + exchange + sync, all = (guint64)(first_tile[r + 1] - first_tile[r]) * dur;
            guint64 best_weight = all - MIN (busy, all);   /* idle */
            guint best = TES_TILE_STATE_IDLE;
            float cycles = (float)busy * per_tile[r];

            /* the most cycles win, idle on a tie; without branches, as
             * the states of neighbouring cells follow no pattern */
            best = compute > best_weight ? TES_TILE_STATE_COMPUTE : best;
            best_weight = MAX (compute, best_weight);
            best = exchange > best_weight ? TES_TILE_STATE_EXCHANGE : best;
            best_weight = MAX (exchange, best_weight);
            best = sync > best_weight ? TES_TILE_STATE_SYNC : best;
            column_states[r] = (guint8)best;
            column_cycles[r] = cycles;
            max_cycles = MAX (max_cycles, cycles);
          }
      }
      computed[c % COLUMN_BLOCK] = TRUE;
    }
  store_block (grid, (grid->width - 1) / COLUMN_BLOCK * COLUMN_BLOCK, computed, block_states, block_cycles);

  /* the repeated columns, row by row */
  for (guint r = 0; r < n_rows; r++)
    {
      guint8 *states = grid->states + (gsize)r * grid->width;
      float *cycles = grid->cycles + (gsize)r * grid->width;

      for (guint c = 0; c < grid->width; c++)
        {
          states[c] = states[source[c]];
          cycles[c] = cycles[source[c]];
        }
    }
  grid->max_cycles = max_cycles;
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
  TesBspGrid *grid = grid_new (n_tiles, width, height);
  Level groups = { 0 };
  guint group = 1;

  for (guint l = 0; l < level && group <= G_MAXUINT / FANOUT; l++)
    group *= FANOUT;
  grid->level = level;
  if (n_spans == 0)
    return grid;

  level_init_groups (&groups, spans, n_spans, group);
  grid_fill (grid, &groups, spans, n_spans, t0, t1);
  level_clear (&groups);

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
  TesBspGrid *grid = grid_new (pyramid->n_tiles, width, height);

  grid->level = level_for (pyramid->levels, pyramid->n_levels, (double)(t1 - t0) / grid->width);
  grid_fill (grid, &pyramid->levels[grid->level], pyramid->spans, pyramid->n_spans, t0, t1);

  return grid;
}

float
tes_bsp_grid_get_cycles (const TesBspGrid *grid,
                         guint             column,
                         guint             row)
{
  g_return_val_if_fail (column < grid->width && row < grid->n_rows, 0);

  return grid->cycles[(gsize)row * grid->width + column];
}

guint8
tes_bsp_grid_get (const TesBspGrid *grid,
                  guint             column,
                  guint             row)
{
  g_return_val_if_fail (column < grid->width && row < grid->n_rows, TES_BSP_NO_STATE);

  return grid->states[(gsize)row * grid->width + column];
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

void
tes_bsp_grid_free (TesBspGrid *grid)
{
  if (grid == NULL)
    return;

  g_free (grid->states);
  g_free (grid->cycles);
  g_free (grid);
}

/* Viridis at five stops, linear between them: lightness rises all the way,
 * so the scale reads in grey too and for the colour-blind. */
guint32
tes_bsp_cycles_color (double cycles,
                      double max)
{
  static const guint32 stops[] = { 0x440154, 0x3b528b, 0x21918c, 0x5ec962, 0xfde725 };
  double x = max > 0 && cycles > 0 ? MIN (cycles / max, 1.0) * (G_N_ELEMENTS (stops) - 1) : 0;
  guint i = MIN ((guint)x, G_N_ELEMENTS (stops) - 2);
  double f = x - i;
  guint32 color = 0;

  for (int shift = 16; shift >= 0; shift -= 8)
    {
      double a = (stops[i] >> shift) & 0xff, b = (stops[i + 1] >> shift) & 0xff;

      color |= (guint32)(a + (b - a) * f + 0.5) << shift;
    }

  return color;
}

/* Where the @ipu_index-th IPU's cells go in a picture of @width × @height. */
graphene_rect_t
tes_bsp_heat_rect (guint  ipu_index,
                   guint  n_ipus,
                   double width,
                   double height)
{
  double block = (height - TES_BSP_LEGEND_HEIGHT - TES_BSP_AXIS_HEIGHT) / MAX (n_ipus, 1);
  double heat = MAX (block - TES_BSP_HEADER_HEIGHT - TES_BSP_BLOCK_GAP, 1);
  graphene_rect_t rect;

  graphene_rect_init (&rect, TES_BSP_LABEL_WIDTH,
                      TES_BSP_LEGEND_HEIGHT + ipu_index * block + TES_BSP_HEADER_HEIGHT,
                      MAX (width - TES_BSP_LABEL_WIDTH - TES_BSP_MARGIN, 1), heat);

  return rect;
}
