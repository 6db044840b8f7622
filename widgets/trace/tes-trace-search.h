/* tes-trace-search.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "tes-report.h"

G_BEGIN_DECLS

/* The matches of a search, as the trace uses them: in time order across
 * all lanes (to step through them), and per lane (to grey what does not
 * match). Built once per search; read from any thread. */
typedef struct _TesTraceMatches TesTraceMatches;

typedef struct
{
  gint64  track_id;
  guint32 index;
  gint64  start;     /* ns */
} TesTraceMatch;

TesTraceMatches     *tes_trace_matches_new         (TesReport             *report,
                                                    GArray                *found);
void                 tes_trace_matches_free        (TesTraceMatches       *matches);
TesTraceMatches     *tes_trace_matches_copy        (const TesTraceMatches *matches);
guint                tes_trace_matches_get_n       (const TesTraceMatches *matches);
const TesTraceMatch *tes_trace_matches_get         (const TesTraceMatches *matches,
                                                    guint                  i);
gboolean             tes_trace_matches_has_slice   (const TesTraceMatches *matches,
                                                    gint64                 track_id,
                                                    guint32                index);
gboolean             tes_trace_matches_any_between (const TesTraceMatches *matches,
                                                    gint64                 track_id,
                                                    gint64                 start,
                                                    gint64                 end);
guint                tes_trace_matches_first_after (const TesTraceMatches *matches,
                                                    gint64                 ns);
guint                tes_trace_matches_step        (const TesTraceMatches *matches,
                                                    int                    current,
                                                    int                    delta);

gboolean             tes_trace_parse_search        (const char            *text,
                                                    char                 **pattern,
                                                    gboolean              *is_regex);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TesTraceMatches, tes_trace_matches_free)

G_END_DECLS
