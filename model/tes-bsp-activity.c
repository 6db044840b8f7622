/* tes-bsp-activity.c: each tile's cycles by state over a range of BSP
 * steps, from the steps or from the pyramid's sums: the one rule by which
 * Tile Balance and `tessera-cli tiles` count
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tes-bsp-pyramid-private.h"

/* One step added to @tiles: each tile's busy cycles in its state, the
 * rest of the step idle. The one rule by which Tile Balance, `tessera-cli
 * tiles` and the pyramid's sums count a step. */
static void
activity_add_step (const TesBspSpan *span,
                   TesTileActivity  *tiles)
{
  for (guint t = 0; t < span->n_tiles; t++)
    {
      guint state = MIN (span->tile_states[t], TES_TILE_STATE_SYNC);
      gint64 busy = state == TES_TILE_STATE_IDLE ? 0 : span->tile_cycles[t];

      tiles[t].n_steps++;
      tiles[t].cycles[state] += busy;
      tiles[t].cycles[TES_TILE_STATE_IDLE] += MAX (span->dur_cycles - busy, 0);
    }
}

/**
 * tes_bsp_spans_add_activity:
 * @tiles: (array): one per tile of the widest span
 *
 * Adds to @tiles the cycles of the spans that start in [@t0, @t1), step
 * by step (tes_bsp_pyramid_add_activity() gives the same from its sums).
 *
 * Returns: the steps read, all of them
 */
guint
tes_bsp_spans_add_activity (const TesBspSpan *spans,
                            guint             n_spans,
                            gint64            t0,
                            gint64            t1,
                            TesTileActivity  *tiles)
{
  for (guint s = 0; s < n_spans; s++)
    if (spans[s].start >= t0 && spans[s].start < t1)
      activity_add_step (&spans[s], tiles);

  return n_spans;
}

/**
 * tes_bsp_pyramid_add_activity:
 * @tiles: (array): one per tile of the pyramid (tes_bsp_pyramid_get_n_tiles())
 *
 * Adds to @tiles the cycles of the steps that start in [@t0, @t1), by
 * state, counted as tes_bsp_spans_add_activity() counts them: whole
 * groups of steps from their sums (where their steps count alike), the
 * rest step by step, so that a long range costs its tiles, not its steps.
 *
 * Returns: the steps read one by one
 */
guint
tes_bsp_pyramid_add_activity (const TesBspPyramid *pyramid,
                              gint64               t0,
                              gint64               t1,
                              TesTileActivity     *tiles)
{
  const Level *steps = &pyramid->levels[0];
  guint s, last, n_read = 0;

  if (!pyramid->in_order)
    return tes_bsp_spans_add_activity (pyramid->spans, pyramid->n_spans, t0, t1, tiles);

  s = _tes_bsp_level_first_from (steps, 0, t0);
  last = _tes_bsp_level_first_from (steps, s, t1);
  while (s < last)
    {
      const Level *whole = NULL;

      /* the largest group with its tiles' sums that starts here and ends in range */
      for (guint l = pyramid->n_levels; l-- > 1 && whole == NULL;)
        {
          const Level *level = &pyramid->levels[l];

          if (level->busy[0] != NULL && s % level->group == 0 && (guint64)s + level->group <= last &&
              level->plain[s / level->group])
            whole = level;
        }

      if (whole == NULL)
        {
          activity_add_step (&pyramid->spans[s++], tiles);
          n_read++;
          continue;
        }

      {
        const guint32 *before = whole->busy[0] + (gsize)(s / whole->group) * pyramid->n_tiles * 3;
        const guint32 *after = before + (gsize)pyramid->n_tiles * 3;
        gint64 dur = (gint64)whole->dur[s / whole->group];

        for (guint t = 0; t < pyramid->n_tiles; t++)
          {
            guint32 compute = after[t] - before[t];
            guint32 exchange = after[pyramid->n_tiles + t] - before[pyramid->n_tiles + t];
            guint32 sync = after[2 * pyramid->n_tiles + t] - before[2 * pyramid->n_tiles + t];
            gint64 busy = (gint64)compute + exchange + sync;

            tiles[t].n_steps += whole->group;
            tiles[t].cycles[TES_TILE_STATE_COMPUTE] += compute;
            tiles[t].cycles[TES_TILE_STATE_EXCHANGE] += exchange;
            tiles[t].cycles[TES_TILE_STATE_SYNC] += sync;
            /* no tile busy longer than its step: the rest of each is idle */
            tiles[t].cycles[TES_TILE_STATE_IDLE] += dur - busy;
          }
        s += whole->group;
      }
    }

  return n_read;
}
