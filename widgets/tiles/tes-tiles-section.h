/* tes-tiles-section.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-section.h"
#include "tes-tiles-render.h"

G_BEGIN_DECLS

#define TES_TYPE_TILES_SECTION (tes_tiles_section_get_type ())

G_DECLARE_FINAL_TYPE (TesTilesSection, tes_tiles_section, TES, TILES_SECTION, TesSection)

GPtrArray *tes_tiles_section_get_balances (TesTilesSection *self);
gboolean   tes_tiles_section_get_updating (TesTilesSection *self);
char      *tes_tiles_section_describe     (TesTilesSection *self);
gboolean   tes_tiles_section_click        (TesTilesSection *self,
                                           double           x,
                                           double           y);
int        tes_tiles_section_get_selected_tile (TesTilesSection *self,
                                                int             *ipu);
GArray    *tes_tiles_section_get_charts   (TesTilesSection *self);

G_END_DECLS
