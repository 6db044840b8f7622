/* tes-summary-section.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-section.h"

G_BEGIN_DECLS

#define TES_TYPE_SUMMARY_SECTION (tes_summary_section_get_type ())

G_DECLARE_FINAL_TYPE (TesSummarySection, tes_summary_section, TES, SUMMARY_SECTION, TesSection)

GtkWidget     *tes_summary_section_new              (void);
GListModel    *tes_summary_section_get_rows         (TesSummarySection *self);
GtkColumnView *tes_summary_section_get_column_view  (TesSummarySection *self);
void           tes_summary_section_set_filter       (TesSummarySection *self,
                                                     const char        *text);
char          *tes_summary_section_dup_selected_text (TesSummarySection *self);
gboolean       tes_summary_section_write_csv        (TesSummarySection *self,
                                                     GFile             *file,
                                                     GError           **error);
gboolean       tes_summary_section_is_loading       (TesSummarySection *self);

G_END_DECLS
