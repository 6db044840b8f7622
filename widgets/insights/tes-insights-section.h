/* tes-insights-section.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-insights-layout.h"
#include "tes-section.h"

G_BEGIN_DECLS

#define TES_TYPE_INSIGHTS_SECTION (tes_insights_section_get_type ())

G_DECLARE_FINAL_TYPE (TesInsightsSection, tes_insights_section, TES, INSIGHTS_SECTION, TesSection)

GPtrArray   *tes_insights_section_get_insights (TesInsightsSection *self);
GListModel  *tes_insights_section_get_rows     (TesInsightsSection *self);
GtkListView *tes_insights_section_get_list     (TesInsightsSection *self);
gboolean     tes_insights_section_is_loading   (TesInsightsSection *self);
const char  *tes_insights_section_get_error    (TesInsightsSection *self);
void         tes_insights_section_activate     (TesInsightsSection *self,
                                                guint               position);

GtkListItemFactory *tes_insights_row_factory_new   (void);
void                tes_insight_show               (const TesInsight   *insight,
                                                    TesWorkspace       *workspace,
                                                    GtkWidget          *widget);

G_END_DECLS
