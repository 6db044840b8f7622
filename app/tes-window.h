/* tes-window.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "tes-compare-window.h"

#include "tes-insights.h"
#include "tes-progress.h"
#include "tes-report.h"
#include "tes-workspace.h"

G_BEGIN_DECLS

#define TES_TYPE_WINDOW (tes_window_get_type ())

G_DECLARE_FINAL_TYPE (TesWindow, tes_window, TES, WINDOW, GtkApplicationWindow)

TesWindow   *tes_window_new          (GtkApplication *application);
void         tes_window_open         (TesWindow      *self,
                                      GFile          *file,
                                      const char     *format);
void         tes_window_open_files   (TesWindow      *self,
                                      GFile         **files,
                                      guint           n_files,
                                      const char     *format);
GFile       *tes_window_get_file     (TesWindow      *self);
TesReport   *tes_window_get_report   (TesWindow      *self);
TesProgress *tes_window_get_progress (TesWindow      *self);
const char  *tes_window_get_page     (TesWindow      *self);
GtkStack    *tes_window_get_sections (TesWindow      *self);
TesWorkspace *tes_window_get_workspace (TesWindow    *self);
void         tes_window_show_run     (TesWindow      *self,
                                      TesReport      *report);
void         tes_window_show_insight (TesWindow      *self,
                                      const TesInsight *insight);
gboolean     tes_window_export       (TesWindow      *self,
                                      GFile          *file,
                                      GError        **error);
TesCompareWindow *tes_window_compare (TesWindow     *self,
                                      GPtrArray      *files);
GFile       *tes_window_find_demo    (void);

G_END_DECLS
