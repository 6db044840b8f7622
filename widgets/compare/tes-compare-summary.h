/* tes-compare-summary.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "tes-compare.h"

G_BEGIN_DECLS

#define TES_TYPE_COMPARE_SUMMARY (tes_compare_summary_get_type ())

G_DECLARE_FINAL_TYPE (TesCompareSummaryView, tes_compare_summary, TES, COMPARE_SUMMARY, GtkWidget)

GtkWidget               *tes_compare_summary_new         (TesCompareSummary     *summary,
                                                          TesTimeUnit            time_unit);
const TesCompareSummary *tes_compare_summary_get_summary (TesCompareSummaryView *self);

G_END_DECLS
