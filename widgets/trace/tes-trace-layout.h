/* tes-trace-layout.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "tes-model-types.h"
#include "tes-report.h"
#include "tes-trace-search.h"

G_BEGIN_DECLS

/* The Execution Trace's geometry, without a display: the time axis, the
 * navigation steps, the ruler, the lane tree, and slices merged into one
 * box per pixel column. The section, the CLI and the tests call it. */

/* Visible time (ns, the common base) mapped onto [x0, x0 + width). */
typedef struct
{
  gint64 t0;
  gint64 t1;
  double x0;
  double width;
} TesTraceScale;

/* The picture: lane names in a column at the left; on top, the whole
 * run in miniature, then the ruler; the lanes start below both. */
#define TES_TRACE_LABEL_WIDTH    200.0
#define TES_TRACE_MINIMAP_HEIGHT 22.0
#define TES_TRACE_RULER_HEIGHT   (TES_TRACE_MINIMAP_HEIGHT + 28.0)

void     tes_trace_scale_init       (TesTraceScale       *scale,
                                     gint64               t0,
                                     gint64               t1,
                                     double               width);
double   tes_trace_scale_x          (const TesTraceScale *scale,
                                     gint64               ns);
gint64   tes_trace_scale_time       (const TesTraceScale *scale,
                                     double               x);

/* Navigation on [*t0, *t1], kept inside [span_t0, span_t1] and never
 * narrower than TES_TRACE_MIN_SPAN ns. */
#define TES_TRACE_MIN_SPAN 10

void     tes_trace_zoom             (gint64              *t0,
                                     gint64              *t1,
                                     double               factor,
                                     gint64               anchor,
                                     gint64               span_t0,
                                     gint64               span_t1);
void     tes_trace_pan              (gint64              *t0,
                                     gint64              *t1,
                                     gint64               delta,
                                     gint64               span_t0,
                                     gint64               span_t1);
void     tes_trace_zoom_to          (gint64              *t0,
                                     gint64              *t1,
                                     gint64               start,
                                     gint64               end,
                                     gint64               span_t0,
                                     gint64               span_t1);

/* The ruler: ticks at 1, 2 or 5 × 10^k of the unit, at least min_spacing
 * pixels apart, labelled with the time since origin in the unit (cycles
 * through cycles_per_second). */
typedef struct
{
  double  x;
  gboolean major;
  char   *label;     /* NULL on minor ticks */
} TesTraceTick;

GArray  *tes_trace_ruler_ticks      (const TesTraceScale *scale,
                                     gint64               origin,
                                     TesTimeUnit          unit,
                                     gint64               cycles_per_second,
                                     double               min_spacing);
char    *tes_trace_format_time      (double               ns,
                                     double               step_ns,
                                     TesTimeUnit          unit,
                                     gint64               cycles_per_second);

/* The runs' names, on one line of the ruler. Runs starting less than
 * TES_TRACE_RUN_LABEL_ROOM pixels apart share a label naming them all
 * ("IPU 0, IPU 1"), and steps of a series (one after the other, one
 * prefix, rising numbers) within TES_TRACE_RUN_SERIES_ROOM one naming
 * their range ("ProfilerStep#12–23"); each label's room ends before the
 * next label starts, so no name is drawn over another (the text is
 * ellipsized to its room). A run that starts left of the lanes is not
 * named. */
typedef struct
{
  double  x;         /* where the text starts */
  double  width;     /* its room */
  char   *text;      /* the runs' names, each once */
  guint   n_runs;
} TesTraceRunLabel;

#define TES_TRACE_RUN_LABEL_ROOM 60.0
/* room enough for a range such as "ProfilerStep#1234–1256" in bold */
#define TES_TRACE_RUN_SERIES_ROOM 160.0

/* runs closer than this on average have their edges marked in the ruler
 * only, not drawn across the lanes */
#define TES_TRACE_RUN_LINE_MIN_GAP 24.0

gboolean tes_trace_runs_dense       (const TesTraceScale *scale,
                                     const TesRun        *runs,
                                     guint                n_runs);
GArray  *tes_trace_run_labels       (const TesTraceScale *scale,
                                     const TesRun        *runs,
                                     guint                n_runs);

/* The lanes: the report's tracks as a tree in sort order. A group (a track
 * with children) can be collapsed; a track with slices is a lane whose
 * height is one row (flat) or one row per depth (flame). */
typedef enum
{
  TES_TRACE_FLAT,
  TES_TRACE_FLAME,
} TesTraceMode;

/* What the user did to the lanes: folded groups, lanes pinned to the top
 * (in the order pinned), hidden lanes. Any member may be NULL. */
/* Aggregate StreamCopy Blocks: the Lightweight Profiling lanes of tiles
 * that were not selected (their blocks are all StreamCopy blocks: they
 * only took part in StreamCopy programs) drawn as one "I/O Events" lane at
 * the top of their IPU's lanes. Found once per report by
 * tes_trace_io_events() (tes-trace-frame.h). */
typedef struct
{
  GHashTable *lane_of;     /* every LWP tile lane of such an IPU -> the IPU's I/O lane (a member's id) */
  GHashTable *members;     /* I/O lane id -> GArray of the gint64 track ids it aggregates */
  GHashTable *aggregated;  /* the track ids aggregated, of every I/O lane */
  GHashTable *ipu;         /* I/O lane id -> the IPU's number + 1 */
} TesTraceIoEvents;

typedef struct
{
  GHashTable *collapsed;  /* group track ids */
  GArray     *pinned;     /* gint64 track ids */
  GHashTable *hidden;     /* track ids */
  gint64      only_ipu;   /* an IPU's track: the other IPUs are left out; 0: every IPU */
  guint       group_levels; /* Group Executions: rows above each lane's steps for their call paths */
  const TesTraceIoEvents *io_events; /* Aggregate StreamCopy Blocks; NULL: off */
} TesTraceLaneState;

typedef struct
{
  gint64   track_id;
  guint    level;         /* indentation in the tree */
  gboolean pinned;
  gboolean is_group;      /* has child tracks */
  gboolean expanded;
  gboolean has_slices;
  gboolean is_counter;    /* a counter series, drawn as a small chart */
  int      io_ipu;        /* an IPU's I/O Events lane (Aggregate StreamCopy Blocks): its
                           * number; -1 for any other lane */
  guint    n_rows;        /* rows of boxes; 0 for a bare group header */
  double   y;             /* top, in lane-area pixels */
  double   height;
} TesTraceLane;

#define TES_TRACE_ROW_HEIGHT     18.0
#define TES_TRACE_HEADER_HEIGHT  20.0
#define TES_TRACE_COUNTER_HEIGHT 40.0

GArray  *tes_trace_layout_lanes     (TesReport               *report,
                                     TesTraceMode             mode,
                                     const TesTraceLaneState *state,
                                     double                  *total_height);
int      tes_trace_lane_at          (GArray              *lanes,
                                     double               y);

/* A box to draw: slices of one row merged where they share a pixel
 * column, or one bucket of the lane summary when zoomed far out. */
typedef struct
{
  double   x0;
  double   x1;
  guint32  name;          /* string id; 0 for a merged box */
  guint32  category;
  guint32  index;         /* the slice, when n_slices is 1 */
  guint32  n_slices;
  guint16  row;
  guint16  flags;
  gboolean matched;       /* holds a match of the search */
  gint64   start;         /* ns, of the first slice */
  gint64   dur;           /* ns, of the whole box */
  const char *label;      /* Group Executions: the call path the box groups (the report's
                           * string, up to label_len); NULL for a step */
  guint    label_len;
} TesTraceBox;

/* How slices become boxes, beside the scale. */
typedef struct
{
  TesTraceMode           mode;
  const TesTraceMatches *matches;     /* NULL: no search */
  const guint8          *sync_names;  /* by string id, syncs to group; NULL: don't */
  guint                  n_strings;
  const guint8          *hidden_names; /* by string id, steps left out; NULL: none */
  guint                  group_levels; /* Group Executions' rows above the steps; 0: none */
} TesTraceMerge;

/* Group Executions: steps named by a slash-separated call path (a text
 * report's "OnTileExecute: layer1/conv/Conv2D", the rest of the name after
 * "Type: ") are drawn under one box per level of that path, on
 * group_levels rows above the steps: consecutive steps whose paths share a
 * prefix share that level's box. */
#define TES_TRACE_MAX_GROUP_LEVELS 4

guint    tes_trace_path_levels      (TesReport             *report);
const char *tes_trace_step_path     (const char            *name,
                                     guint                  level,
                                     gsize                 *prefix_len);

typedef struct
{
  const char *path;
  gsize       len;
  int         box;
} TesTraceGroupOpen;

void     tes_trace_group_step       (GArray                *boxes,
                                     TesTraceGroupOpen     *open,
                                     guint                  levels,
                                     const char            *name,
                                     const TesTraceBox     *step);

/* Steps the View menu can leave out, by their name or category: Poplar's
 * External Sync and SyncAns steps (PopVision's Show External Syncs, Show
 * SyncAns) and Lightweight Profiling's buffer flushes (Show Buffer
 * Flushes). */
typedef enum
{
  TES_TRACE_HIDE_EXTERNAL_SYNCS  = 1 << 0,
  TES_TRACE_HIDE_SYNC_ANS        = 1 << 1,
  TES_TRACE_HIDE_BUFFER_FLUSHES  = 1 << 2,
} TesTraceHide;

TesTraceHide tes_trace_step_kind    (const char            *name);
TesTraceHide tes_trace_hideable     (TesReport             *report);
guint8  *tes_trace_hidden_names     (TesReport             *report,
                                     TesTraceHide           hide);
gboolean tes_trace_is_hidden        (const guint8          *hidden_names,
                                     guint                  n_strings,
                                     const TesSlice        *slice);

void     tes_trace_merge_slices     (const TesTraceScale   *scale,
                                     const TesSlice        *slices,
                                     guint                  n_slices,
                                     TesReport             *report,
                                     const TesTrack        *track,
                                     const TesTraceMerge   *merge,
                                     GArray                *boxes);
guint8  *tes_trace_sync_names       (TesReport             *report);
int      tes_trace_box_at           (GArray              *boxes,
                                     double               x,
                                     guint                row);

guint    tes_trace_color_index      (const char          *name);

G_END_DECLS
