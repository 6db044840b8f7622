/* tes-bsp-layout.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tes-bsp-layout.h"

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

/* The index in @ipus (TesBspIpu) of IPU @ipu, or -1: the workspace's IPU
 * in the heatmap. */
int
tes_bsp_find_ipu (GPtrArray *ipus,
                  int        ipu)
{
  for (guint i = 0; ipus != NULL && i < ipus->len; i++)
    if (((const TesBspIpu *)g_ptr_array_index (ipus, i))->ipu == ipu)
      return (int)i;

  return -1;
}

/* The index in @ipu's steps (and spans) of BSP step number @step, or -1:
 * the workspace's step in the heatmap. */
int
tes_bsp_find_step (const TesBspIpu *ipu,
                   gint64           step)
{
  for (guint i = 0; step >= 0 && i < ipu->steps->len; i++)
    if (((const TesBspStep *)g_ptr_array_index (ipu->steps, i))->step == step)
      return (int)i;

  return -1;
}
