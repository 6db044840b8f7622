/* tes-compare-view.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "tes-compare.h"
#include "tes-trace-view.h"
#include "tes-workspace.h"

G_BEGIN_DECLS

#define TES_TYPE_COMPARE_VIEW (tes_compare_view_get_type ())

G_DECLARE_FINAL_TYPE (TesCompareView, tes_compare_view, TES, COMPARE_VIEW, GtkWidget)

GtkWidget           *tes_compare_view_new            (TesWorkspace   *a,
                                                      TesWorkspace   *b);
TesTraceView        *tes_compare_view_get_trace      (TesCompareView *self,
                                                      guint           side);
const TesComparison *tes_compare_view_get_comparison (TesCompareView *self);
GListModel          *tes_compare_view_get_rows       (TesCompareView *self);
void                 tes_compare_view_set_vertical   (TesCompareView *self,
                                                      gboolean        vertical);
void                 tes_compare_view_select_row     (TesCompareView *self,
                                                      guint           position);
void                 tes_compare_view_align          (TesCompareView *self,
                                                      gint64          a_time,
                                                      gint64          b_time);
gboolean             tes_compare_view_get_aligning   (TesCompareView *self);
const TesCompareSummary *tes_compare_view_get_summary (TesCompareView *self);
void                 tes_compare_view_set_page       (TesCompareView *self,
                                                      const char     *page);

G_END_DECLS
