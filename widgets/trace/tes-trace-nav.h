/* tes-trace-nav.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-report.h"

G_BEGIN_DECLS

/* Moving the selection with the keyboard, read from the report (not from
 * a picture, where slices merge per pixel): a track's next or previous
 * slice, and the slice of a track at a moment. Times are ns of the
 * report's base; @depth -1 means any depth. Any thread may call these. */

gboolean tes_trace_nav_get   (TesReport      *report,
                              gint64          track_id,
                              guint32         index,
                              gint64          start_ns,
                              TesSlice       *slice);
gboolean tes_trace_nav_step  (TesReport      *report,
                              gint64          track_id,
                              const TesSlice *from,
                              int             direction,
                              int             depth,
                              TesSlice       *found);
gboolean tes_trace_nav_at    (TesReport      *report,
                              gint64          track_id,
                              int             depth,
                              gint64          t_ns,
                              gint64          t0_ns,
                              gint64          t1_ns,
                              TesSlice       *found);
gint64   tes_trace_nav_start (TesReport      *report,
                              gint64          track_id,
                              const TesSlice *slice);
gint64   tes_trace_nav_end   (TesReport      *report,
                              gint64          track_id,
                              const TesSlice *slice);

G_END_DECLS
