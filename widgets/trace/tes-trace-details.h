/* tes-trace-details.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "tes-trace-layout.h"
#include "tes-workspace.h"

G_BEGIN_DECLS

/* What the Details pane says of a slice: what it reads from the cache
 * (its arguments; on a tile's lane, the BSP step it falls in), read in
 * a thread or at once, then the text. */
typedef struct
{
  char       *args;
  TesBspStep *step;
} TesTraceDetails;

TesTraceDetails *tes_trace_details_read        (TesReport           *report,
                                                gint64               track_id,
                                                const TesTraceBox   *box);
void             tes_trace_details_read_async  (TesReport           *report,
                                                gint64               track_id,
                                                const TesTraceBox   *box,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
TesTraceDetails *tes_trace_details_read_finish (TesReport           *report,
                                                GAsyncResult        *result,
                                                GError             **error);
void             tes_trace_details_free        (TesTraceDetails     *details);
char            *tes_trace_details_format      (TesWorkspace        *workspace,
                                                gint64               track_id,
                                                const TesTraceBox   *box,
                                                const char          *start,
                                                const TesTraceDetails *details);
char            *tes_trace_details_short_args  (const char          *args,
                                                guint                max_chars);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TesTraceDetails, tes_trace_details_free)

G_END_DECLS
