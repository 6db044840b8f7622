/* tes-bsp-layout.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <graphene.h>

#include "tes-bsp-pyramid.h"

G_BEGIN_DECLS

/* The BSP heatmap's picture without a display: where each IPU's cells go
 * and their colours. The cells themselves come from the pyramid
 * (model/tes-bsp-pyramid.h). */

/* The picture: a legend on top, per IPU a title and its heatmap, the
 * range's ends below; tile numbers left of the cells. */
#define TES_BSP_LEGEND_HEIGHT 30.0
#define TES_BSP_HEADER_HEIGHT 20.0
#define TES_BSP_AXIS_HEIGHT   20.0
#define TES_BSP_BLOCK_GAP     8.0
#define TES_BSP_LABEL_WIDTH   72.0
#define TES_BSP_MARGIN        16.0

/* Colouring by cycles: viridis, dark violet (none) to yellow (@max), its
 * lightness rising all the way. */
guint32     tes_bsp_cycles_color  (double            cycles,
                                   double            max);
int         tes_bsp_find_ipu      (GPtrArray        *ipus,
                                   int               ipu);
int         tes_bsp_find_step     (const TesBspIpu  *ipu,
                                   gint64            step);
graphene_rect_t tes_bsp_heat_rect (guint             ipu_index,
                                   guint             n_ipus,
                                   double            width,
                                   double            height);

G_END_DECLS
