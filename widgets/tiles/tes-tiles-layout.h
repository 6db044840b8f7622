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
} TesTileBalance;

GPtrArray *tes_tile_balance_compute (GArray                *activity,
                                     guint                  n_extremes);
gint64     tes_tile_activity_busy   (const TesTileActivity *activity);
void       tes_tile_balance_free    (TesTileBalance        *balance);
guint32    tes_tile_state_color     (TesTileState           state);
const char *tes_tile_state_name     (TesTileState           state);

G_END_DECLS
