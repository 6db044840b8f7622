/* tes-compare-overview.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "tes-compare-layout.h"

G_BEGIN_DECLS

#define TES_TYPE_COMPARE_OVERVIEW (tes_compare_overview_get_type ())

/* The Compare section's Summary tab: the runs as a whole, in tables
 * (named apart from the model's TesCompareSummary and its functions). */
G_DECLARE_FINAL_TYPE (TesCompareOverview, tes_compare_overview, TES, COMPARE_OVERVIEW, GtkWidget)

GtkWidget *tes_compare_overview_new (const TesCompareModel *model);

G_END_DECLS
