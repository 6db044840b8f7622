/* tes-compare-window.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "tes-compare-section.h"
#include "tes-report.h"

G_BEGIN_DECLS

#define TES_TYPE_COMPARE_WINDOW (tes_compare_window_get_type ())

G_DECLARE_FINAL_TYPE (TesCompareWindow, tes_compare_window, TES, COMPARE_WINDOW, GtkApplicationWindow)

TesCompareWindow *tes_compare_window_new      (GtkApplication   *application);
void              tes_compare_window_open     (TesCompareWindow *self,
                                               TesReport        *a,
                                               GFile            *a_file,
                                               GFile            *b_file,
                                               const char       *format);
void              tes_compare_window_open_runs (TesCompareWindow *self,
                                                TesReport        *a,
                                                GPtrArray        *a_files,
                                                GPtrArray        *b_files,
                                                const char       *format);
const char       *tes_compare_window_get_page (TesCompareWindow *self);
TesReport        *tes_compare_window_get_report (TesCompareWindow *self,
                                                 guint             side);
TesCompareSection *tes_compare_window_get_section (TesCompareWindow *self);

GtkWindow        *tes_compare_window_get_finding_window (TesCompareWindow *self);

G_END_DECLS
