/* tes-memory-section.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-memory-layout.h"
#include "tes-section.h"

G_BEGIN_DECLS

#define TES_TYPE_MEMORY_SECTION (tes_memory_section_get_type ())

G_DECLARE_FINAL_TYPE (TesMemorySection, tes_memory_section, TES, MEMORY_SECTION, TesSection)

const TesMemoryModel *tes_memory_section_get_model   (TesMemorySection *self);
gboolean              tes_memory_section_click       (TesMemorySection *self,
                                                      double            x,
                                                      double            y);
const char           *tes_memory_section_get_listing (TesMemorySection *self);
gboolean              tes_memory_section_select_bin  (TesMemorySection *self,
                                                      int               index);
char                 *tes_memory_section_describe    (TesMemorySection *self);
int                   tes_memory_section_get_selected_tile (TesMemorySection *self);
const TesMemoryPlot  *tes_memory_section_get_plot    (TesMemorySection *self);

G_END_DECLS
