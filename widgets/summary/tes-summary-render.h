/* tes-summary-render.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <cairo.h>

#include "tes-workspace.h"

G_BEGIN_DECLS

gboolean tes_summary_render (TesWorkspace  *workspace,
                             cairo_t       *cr,
                             int            width,
                             int            height,
                             GError       **error);

G_END_DECLS
