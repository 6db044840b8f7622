/* tes-trace-section.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-section.h"
#include "tes-trace-view.h"

G_BEGIN_DECLS

#define TES_TYPE_TRACE_SECTION (tes_trace_section_get_type ())

G_DECLARE_FINAL_TYPE (TesTraceSection, tes_trace_section, TES, TRACE_SECTION, TesSection)

GtkWidget    *tes_trace_section_new         (void);
TesTraceView *tes_trace_section_get_view    (TesTraceSection *self);
char         *tes_trace_section_dup_details (TesTraceSection *self);
char         *tes_trace_section_dup_summary (TesTraceSection *self);
gboolean      tes_trace_section_is_summary_loading (TesTraceSection *self);

G_END_DECLS
