/* tes-bsp-layout.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "tes-bsp-layout.h"

/* Which row of the grid shows @tile: tiles share a row when there are
 * more of them than rows. */
guint
tes_bsp_grid_row_of (const TesBspGrid *grid,
                     guint             tile)
{
  return (guint)((guint64)tile * grid->n_rows / MAX (grid->n_tiles, 1));
}

/* @spans in time order, times in ns; columns split [t0, t1) evenly. Each
 * cell weighs every state by cycles × the share of the step in the column:
 * a tile's busy cycles go to its state, the rest of the step to idle. */
TesBspGrid *
tes_bsp_grid_build (const TesBspSpan *spans,
                    guint             n_spans,
                    guint             n_tiles,
                    gint64            t0,
                    gint64            t1,
                    guint             width,
                    guint             height)
{
  TesBspGrid *grid = g_new0 (TesBspGrid, 1);
  g_autofree double *weights = NULL;
  double ns_per_column;

  grid->width = MAX (width, 1);
  grid->n_tiles = n_tiles;
  grid->n_rows = MAX (MIN (height, n_tiles), 1);
  grid->states = g_malloc ((gsize)grid->width * grid->n_rows);
  memset (grid->states, TES_BSP_NO_STATE, (gsize)grid->width * grid->n_rows);
  if (t1 <= t0 || n_tiles == 0)
    return grid;

  weights = g_new0 (double, (gsize)grid->width * grid->n_rows * 4);
  ns_per_column = (double)(t1 - t0) / grid->width;

  for (guint s = 0; s < n_spans; s++)
    {
      const TesBspSpan *span = &spans[s];
      double first, last;
      guint c0, c1;

      if (span->end <= t0 || span->start >= t1 || span->end <= span->start)
        continue;
      first = (MAX (span->start, t0) - t0) / ns_per_column;
      last = (MIN (span->end, t1) - t0) / ns_per_column;
      c0 = (guint)first;
      c1 = MIN ((guint)last, grid->width - 1);

      for (guint c = c0; c <= c1; c++)
        {
          /* the share of the step in this column */
          double share = (MIN (last, c + 1.0) - MAX (first, (double)c)) * ns_per_column /
                         (double)(span->end - span->start);

          if (share <= 0)
            continue;
          for (guint t = 0; t < MIN (span->n_tiles, n_tiles); t++)
            {
              double *cell = &weights[((gsize)tes_bsp_grid_row_of (grid, t) * grid->width + c) * 4];
              guint state = MIN (span->tile_states[t], TES_TILE_STATE_SYNC);
              gint64 busy = state == TES_TILE_STATE_IDLE ? 0 : span->tile_cycles[t];

              cell[state] += share * busy;
              cell[TES_TILE_STATE_IDLE] += share * MAX (span->dur_cycles - busy, 0);
              /* a step of no length still marks its column */
              cell[TES_TILE_STATE_IDLE] += 1e-9;
            }
        }
    }

  for (gsize i = 0; i < (gsize)grid->width * grid->n_rows; i++)
    {
      const double *cell = &weights[i * 4];
      guint best = TES_BSP_NO_STATE;
      double best_weight = 0;

      for (guint state = 0; state < 4; state++)
        if (cell[state] > best_weight)
          {
            best = state;
            best_weight = cell[state];
          }
      grid->states[i] = (guint8)best;
    }

  return grid;
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
  g_free (grid);
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
