/* tes-compare-section.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-compare-layout.h"
#include "tes-section.h"
#include "tes-trace-view.h"

G_BEGIN_DECLS

#define TES_TYPE_COMPARE_SECTION (tes_compare_section_get_type ())

G_DECLARE_FINAL_TYPE (TesCompareSection, tes_compare_section, TES, COMPARE_SECTION, TesSection)

GtkWidget               *tes_compare_section_new            (TesWorkspace      *a,
                                                             TesWorkspace      *b);
TesTraceView            *tes_compare_section_get_trace      (TesCompareSection *self,
                                                             guint              side);
const TesCompareModel   *tes_compare_section_get_model      (TesCompareSection *self);
const TesComparison     *tes_compare_section_get_comparison (TesCompareSection *self);
const TesCompareSummary *tes_compare_section_get_summary    (TesCompareSection *self);
const char              *tes_compare_section_get_error      (TesCompareSection *self);
GListModel              *tes_compare_section_get_rows       (TesCompareSection *self);
gboolean                 tes_compare_section_get_has_traces (TesCompareSection *self);
void                     tes_compare_section_set_vertical   (TesCompareSection *self,
                                                             gboolean           vertical);
void                     tes_compare_section_select_row     (TesCompareSection *self,
                                                             guint              position);
void                     tes_compare_section_align          (TesCompareSection *self,
                                                             gint64             a_time,
                                                             gint64             b_time);
gboolean                 tes_compare_section_get_aligning   (TesCompareSection *self);
void                     tes_compare_section_set_page       (TesCompareSection *self,
                                                             const char        *page);
GPtrArray               *tes_compare_section_get_insights   (TesCompareSection *self);
GListModel              *tes_compare_section_get_finding_rows (TesCompareSection *self);
GtkListView             *tes_compare_section_get_findings_list (TesCompareSection *self);
const char              *tes_compare_section_get_findings_headline (TesCompareSection *self);
void                     tes_compare_section_activate_finding (TesCompareSection *self,
                                                               guint              position);

G_END_DECLS
