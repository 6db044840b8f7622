/* tes-trace-render.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <cairo.h>

#include "tes-trace-frame.h"
#include "tes-workspace.h"

G_BEGIN_DECLS

/* What the picture marks beside the frame itself. */
typedef struct
{
  gboolean     show_text;
  TesTimeUnit  unit;
  gint64       cycles_per_second;
  TesSliceRef  selected;         /* track_id 0: none */
  gboolean     has_span;         /* a selected time span, ns */
  gint64       span_t0;
  gint64       span_t1;
  double       scale_factor;     /* device pixels per unit, for the boxes' image */
} TesTraceStyle;

void     tes_trace_render_frame (cairo_t             *cr,
                                 TesReport           *report,
                                 const TesTraceFrame *frame,
                                 const TesTraceStyle *style,
                                 double               width,
                                 double               height);
void     tes_trace_style_init   (TesTraceStyle       *style,
                                 TesWorkspace        *workspace);
char    *tes_trace_format_cycles (TesWorkspace       *workspace,
                                 const TesTrack     *track,
                                 gint64              ns);
gboolean tes_trace_render       (TesWorkspace        *workspace,
                                 TesTraceMode         mode,
                                 cairo_t             *cr,
                                 int                  width,
                                 int                  height,
                                 GError             **error);

G_END_DECLS
