/* tes-compare-render.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <cairo.h>

#include "tes-compare-layout.h"
#include "tes-workspace.h"

G_BEGIN_DECLS

/* The strip above each run that names it. */
#define TES_COMPARE_RENDER_LABEL_HEIGHT 24

gboolean  tes_compare_render           (GType                   section_type,
                                        const char             *view,
                                        TesWorkspace           *a,
                                        TesWorkspace           *b,
                                        cairo_t                *cr,
                                        int                     width,
                                        int                     height,
                                        GError                **error);
gboolean  tes_compare_render_model     (cairo_t                *cr,
                                        const TesCompareModel  *model,
                                        GPtrArray              *insights,
                                        TesWorkspace           *a,
                                        TesWorkspace           *b,
                                        gboolean                summary,
                                        int                     width,
                                        int                     height,
                                        GError                **error);
gboolean  tes_compare_render_workspace (TesWorkspace           *workspace,
                                        const char             *view,
                                        cairo_t                *cr,
                                        int                     width,
                                        int                     height,
                                        GError                **error);

G_END_DECLS
