/* tes-trace-view.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "tes-trace-frame.h"
#include "tes-workspace.h"

G_BEGIN_DECLS

#define TES_TYPE_TRACE_VIEW (tes_trace_view_get_type ())

G_DECLARE_FINAL_TYPE (TesTraceView, tes_trace_view, TES, TRACE_VIEW, GtkWidget)

GtkWidget           *tes_trace_view_new              (void);
TesWorkspace        *tes_trace_view_get_workspace    (TesTraceView  *self);
void                 tes_trace_view_set_workspace    (TesTraceView  *self,
                                                      TesWorkspace  *workspace);
TesTraceMode         tes_trace_view_get_mode         (TesTraceView  *self);
void                 tes_trace_view_set_mode         (TesTraceView  *self,
                                                      TesTraceMode   mode);
gboolean             tes_trace_view_get_show_text    (TesTraceView  *self);
void                 tes_trace_view_set_show_text    (TesTraceView  *self,
                                                      gboolean       show_text);
GtkAdjustment       *tes_trace_view_get_vadjustment  (TesTraceView  *self);
const TesTraceFrame *tes_trace_view_get_frame        (TesTraceView  *self);
gboolean             tes_trace_view_is_frame_pending (TesTraceView  *self);
gboolean             tes_trace_view_is_stepping      (TesTraceView  *self);
const TesTraceBox   *tes_trace_view_get_selected_box (TesTraceView  *self,
                                                      gint64        *track_id);
void                 tes_trace_view_zoom             (TesTraceView  *self,
                                                      double         factor);
void                 tes_trace_view_pan              (TesTraceView  *self,
                                                      double         fraction);
gboolean             tes_trace_view_select_at        (TesTraceView  *self,
                                                      double         x,
                                                      double         y,
                                                      gboolean       extend);
gboolean             tes_trace_view_zoom_at          (TesTraceView  *self,
                                                      double         x,
                                                      double         y);
void                 tes_trace_view_set_lane_pinned  (TesTraceView  *self,
                                                      gint64         track_id,
                                                      gboolean       pinned);
gboolean             tes_trace_view_get_lane_pinned  (TesTraceView  *self,
                                                      gint64         track_id);
void                 tes_trace_view_hide_lane        (TesTraceView  *self,
                                                      gint64         track_id);
guint                tes_trace_view_get_n_hidden_lanes (TesTraceView *self);
void                 tes_trace_view_show_hidden_lanes (TesTraceView *self);
void                 tes_trace_view_set_only_ipu     (TesTraceView  *self,
                                                      gint64         ipu_track_id);
gint64               tes_trace_view_get_only_ipu     (TesTraceView  *self);
void                 tes_trace_view_set_search       (TesTraceView  *self,
                                                      const char    *text);
guint                tes_trace_view_get_n_matches    (TesTraceView  *self);
int                  tes_trace_view_get_current_match (TesTraceView *self);
void                 tes_trace_view_step_match       (TesTraceView  *self,
                                                      int            delta);

G_END_DECLS
