/* tes-trace-frame.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "tes-trace-layout.h"

G_BEGIN_DECLS

/* What one picture of the trace needs, read from the report for the
 * visible range and the lanes in view: the lanes and, for each lane in
 * view, its boxes. Built from the report alone (any thread may build one),
 * drawn by tes-trace-render.c. */
/* What a picture is to show. */
typedef struct
{
  TesTraceScale          scale;
  TesTraceMode           mode;
  const TesTraceLaneState *lanes;       /* folded, pinned, hidden; may be NULL */
  const TesTraceMatches *matches;       /* the search's; NULL: no search */
  double                 scroll_y;      /* lanes-area y at the top of the view */
  double                 view_height;
  GArray                *overview;      /* a frame's, reused when as wide; may be NULL */
  gboolean               show_flows;
  gboolean               show_runs;
  gboolean               group_syncs;
  gboolean               tile_balance;
  GPtrArray             *balance;       /* a frame's, reused; may be NULL */
  TesTraceHide           hide;          /* kinds of step left out */
  const guint8          *hidden_names;  /* tes_trace_hidden_names() for hide, kept by the
                                         * caller; NULL: computed here */
  gboolean               show_terminals;
  gboolean               relative_cycles; /* Lightweight Profiling's ruler from its first block */
} TesTraceRequest;

/* Tile balance: for the lane that groups an IPU's tiles, each BSP step
 * and the share of its tiles at work (not idle) in it. */
typedef struct
{
  gint64  start;    /* ns */
  gint64  end;
  double  active;   /* 0 to 1 */
} TesTraceStepBalance;

typedef struct
{
  gint64  group_track;
  GArray *steps;    /* TesTraceStepBalance, in time order */
} TesTraceBalance;

/* Show Terminals: where a process (a lane at the top of the tree, an IPU
 * or a device group, with all below it) ends. */
typedef struct
{
  gint64 track_id;
  gint64 end;       /* ns */
} TesTraceTerminal;

typedef struct
{
  TesTraceScale  scale;
  TesTraceMode   mode;
  gint64         origin;         /* ns: the run's start, where the ruler counts from */
  gint64         end;            /* ns: the run's end */
  gint64         ruler_origin;   /* ns: where the ruler counts from (the origin, or with
                                  * Show Relative Cycles the first LWP block) */
  GArray        *lanes;          /* TesTraceLane */
  GPtrArray     *boxes;          /* per lane: GArray of TesTraceBox, NULL when not in view */
  double         total_height;   /* of all lanes */
  double         scroll_y;       /* lanes-area y at the top of the view */
  double         view_height;
  guint64        n_slices_read;  /* slices the build read (not buckets) */
  gboolean       searching;      /* boxes say whether they hold a match */
  gboolean       group_syncs;    /* runs of syncs drawn as one box */
  gboolean       tile_balance;
  TesTraceHide   hide;           /* kinds of step left out */
  gboolean       relative_cycles;
  guint          group_levels;   /* Group Executions' rows above each lane's steps */
  gboolean       io_events;      /* Aggregate StreamCopy Blocks */
  GArray        *terminals;      /* TesTraceTerminal, when asked for */
  GArray        *overview;       /* double per column of the run: share of lanes busy */
  GPtrArray     *counters;       /* per lane: TesCounterBucket per column, NULL but for counters in view */
  GArray        *flows;          /* TesFlow with an end in the range, when asked for */
  GArray        *runs;           /* TesRun, times in ns, when asked for */
  GHashTable    *lane_of_track;  /* track id -> lane index + 1 */
  GPtrArray     *balance;        /* TesTraceBalance, when asked for and the report has BSP steps */
} TesTraceFrame;

/* Above this many slices per pixel column a lane is read from the cache's
 * lane summaries, not slice by slice. */
#define TES_TRACE_SLICES_PER_PIXEL 2

TesTraceFrame *tes_trace_frame_build (TesReport             *report,
                                      const TesTraceRequest *request,
                                      GCancellable          *cancellable,
                                      GError               **error);
GArray        *tes_trace_overview    (TesReport             *report,
                                      guint                  n_columns,
                                      GError               **error);
GPtrArray     *tes_trace_balance     (TesReport             *report,
                                      GError               **error);
void           tes_trace_frame_free  (TesTraceFrame         *frame);
gboolean       tes_trace_lwp_start   (TesReport             *report,
                                      gint64                *start);
TesTraceIoEvents *tes_trace_io_events (TesReport            *report,
                                       GError              **error);
void           tes_trace_io_events_free (TesTraceIoEvents   *io);

/* What is under (x, y) of the picture: the lane (-1: none, e.g. the
 * ruler), and the box of that lane (-1: none). In the names' column,
 * *box is -1 and *in_label TRUE. */
gboolean       tes_trace_frame_hit   (const TesTraceFrame   *frame,
                                      double                 x,
                                      double                 y,
                                      int                   *lane,
                                      int                   *box,
                                      gboolean              *in_label);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TesTraceFrame, tes_trace_frame_free)

G_END_DECLS
