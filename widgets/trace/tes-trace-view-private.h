/* tes-trace-view-private.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-trace-search.h"
#include "tes-trace-view.h"

G_BEGIN_DECLS

/* What a frame was asked for: when the view's wants another, another is
 * built. */
typedef struct
{
  TesTraceScale  scale;
  double         view_height;
  double         scroll_y;
  TesTraceMode   mode;
  TesTraceHide   hide;
  guint          group_levels;
  guint          generation;     /* _tes_trace_view_invalidate()'s count */
  gboolean       show_flows;
  gboolean       show_runs;
  gboolean       group_syncs;
  gboolean       tile_balance;
  gboolean       show_terminals;
  gboolean       relative_cycles;
  gboolean       io_events;      /* Aggregate StreamCopy Blocks */
} TesTraceFrameKey;

/* What the files of the trace's canvas share. tes-trace-view.c holds the
 * widget: its frame, drawing, pointer and properties;
 * tes-trace-view-keys.c moves the selection with the keyboard and binds
 * chrome://tracing's keys; tes-trace-view-lanes.c pins and hides lanes
 * (their context menu); tes-trace-view-search.c runs the search and steps
 * through its matches; tes-trace-view-accessible.c keeps what screen
 * readers hear current; tes-trace-view-frames.c builds frames and
 * reads the tooltip's slice arguments in threads. Those four call the view's functions below and
 * none of each other's; the view calls only what they list here. */

struct _TesTraceView
{
  GtkWidget       parent_instance;

  TesWorkspace   *workspace;
  TesTraceMode    mode;
  gboolean        show_text;
  gboolean        show_flows;
  gboolean        show_runs;
  gboolean        group_syncs;
  gboolean        tile_balance;
  gboolean        separate_overlaps;
  gboolean        show_external_syncs;
  gboolean        show_sync_ans;
  gboolean        show_buffer_flushes;
  gboolean        group_executions;
  gboolean        show_terminals;
  gboolean        relative_cycles;
  gboolean        aggregate_stream_copies;
  TesTraceIoEvents *io_events;    /* the report's, found when first asked for */
  gboolean        io_events_known;
  int             path_levels;    /* the report's call paths' levels; -1: not counted yet */
  int             hideable;       /* TesTraceHide: the kinds of step the report names; -1: not known yet */
  guint8         *hidden_names;   /* by string id, for hidden_for */
  TesTraceHide    hidden_for;
  TesTraceLaneState lane_state;   /* folded, pinned, hidden lanes */
  GHashTable     *collapsed;      /* lane_state's */
  GHashTable     *hidden;
  GArray         *pinned;
  gint64          menu_track;     /* the lane the context menu is about */
  GtkWidget      *lane_menu;
  GtkAdjustment  *vadjustment;    /* lanes scrolled, in pixels */

  /* the last finished frame and what it was built for; the one being
   * built (tes-trace-view-frames.c) */
  TesTraceFrame  *frame;
  TesTraceFrameKey frame_key;
  guint           frame_generation; /* bumped by _tes_trace_view_invalidate() */
  TesTraceFrameKey pending_key;
  GCancellable   *frame_cancellable; /* non-NULL while a frame is built */
  guint           frame_serial;      /* of the frame built last: older ones are dropped */

  /* the search: its matches once found, the one stepped to */
  char           *search_text;
  TesTraceMatches *matches;
  GCancellable   *search_cancellable;
  char           *search_error;
  int             current_match;
  GCancellable   *match_cancellable; /* while the match stepped to is read */
  guint           match_serial;

  /* the arrows' slice being looked for, and arrows pressed meanwhile
   * (tes-trace-view-keys.c) */
  GCancellable   *step_cancellable;
  guint           step_serial;
  GArray         *step_queue;     /* guint keyvals */

  /* the tooltip's slice's arguments, read in a thread
   * (tes-trace-view-frames.c) */
  gint64          args_track;
  guint32         args_index;
  char           *args;
  gboolean        args_known;
  GCancellable   *args_cancellable;

  /* the selected slice as it was drawn when clicked */
  TesTraceBox     selected_box;
  gint64          selected_track;

  double          pointer_x;
  double          pointer_y;
  gboolean        pointer_inside;
  gint64          drag_t0;
  gint64          drag_t1;
  gboolean        drag_span;
  gboolean        drag_minimap;
  double          drag_x;
  gint64          drag_anchor;

  guint           accessible_idle;
  guint           adjustment_idle;
  gboolean        scrollable;     /* the lanes are taller than the view */
  char           *description;    /* the accessible description set last */
};

enum {
  PROP_0,
  PROP_WORKSPACE,
  PROP_MODE,
  PROP_SHOW_TEXT,
  PROP_SHOW_FLOWS,
  PROP_SHOW_RUNS,
  PROP_GROUP_SYNCS,
  PROP_TILE_BALANCE,
  PROP_SEPARATE_OVERLAPS,
  PROP_SHOW_EXTERNAL_SYNCS,
  PROP_SHOW_SYNC_ANS,
  PROP_SHOW_BUFFER_FLUSHES,
  PROP_GROUP_EXECUTIONS,
  PROP_SHOW_TERMINALS,
  PROP_RELATIVE_CYCLES,
  PROP_AGGREGATE_STREAM_COPIES,
  PROP_SCROLLABLE,
  PROP_N_MATCHES,
  PROP_CURRENT_MATCH,
  PROP_SEARCHING,
  PROP_SEARCH_ERROR,
  N_PROPS
};

enum {
  ACTIVATE_SLICE,
  N_SIGNALS
};

extern GParamSpec *_tes_trace_view_properties[N_PROPS];
extern guint       _tes_trace_view_signals[N_SIGNALS];

/* tes-trace-view.c */
void                 _tes_trace_view_invalidate               (TesTraceView    *self);
void                 _tes_trace_view_queue_accessible_update  (TesTraceView    *self);
gboolean             _tes_trace_view_frame_key                (TesTraceView     *self,
                                                               TesTraceFrameKey *key);
void                 _tes_trace_view_update_adjustment        (TesTraceView    *self);
TesTraceMode         _tes_trace_view_effective_mode           (TesTraceView    *self);
TesTraceHide         _tes_trace_view_hidden_kinds             (TesTraceView    *self);
const guint8        *_tes_trace_view_hidden_names             (TesTraceView    *self);
void                 _tes_trace_view_zoom_to                  (TesTraceView    *self,
                                                               gint64           start,
                                                               gint64           end);
void                 _tes_trace_view_centre_on                (TesTraceView    *self,
                                                               gint64           centre);
const TesTraceBox   *_tes_trace_view_box_at                   (TesTraceView    *self,
                                                               double           x,
                                                               double           y,
                                                               gint64          *track_id,
                                                               gboolean        *in_label,
                                                               int             *lane_index);
gboolean             _tes_trace_view_has_selected_slice       (TesTraceView    *self);
void                 _tes_trace_view_unfold_to                (TesTraceView    *self,
                                                               gint64           track_id);
void                 _tes_trace_view_select_slice             (TesTraceView    *self,
                                                               gint64           track_id,
                                                               const TesSlice  *slice,
                                                               gboolean         centre);

/* tes-trace-view-frames.c */
const TesTraceFrame *_tes_trace_view_ensure_frame             (TesTraceView    *self);
void                 _tes_trace_view_drop_frames              (TesTraceView    *self);
void                 _tes_trace_view_snapshot_pending         (TesTraceView    *self,
                                                               GtkSnapshot     *snapshot,
                                                               int              width,
                                                               int              height);
const char          *_tes_trace_view_slice_args               (TesTraceView    *self,
                                                               gint64           track_id,
                                                               guint32          index);
void                 _tes_trace_view_forget_args              (TesTraceView    *self);

/* tes-trace-view-keys.c */
void                 _tes_trace_view_add_key_controllers      (TesTraceView    *self);
void                 _tes_trace_view_cancel_steps             (TesTraceView    *self);

/* tes-trace-view-lanes.c */
void                 _tes_trace_view_class_add_lane_actions   (GtkWidgetClass  *widget_class);
void                 _tes_trace_view_add_lane_menu_gesture    (TesTraceView    *self);

/* tes-trace-view-tooltip.c */
gboolean             _tes_trace_view_query_tooltip            (GtkWidget       *widget,
                                                               int              x,
                                                               int              y,
                                                               gboolean         keyboard,
                                                               GtkTooltip      *tooltip);
GtkWidget           *_tes_trace_view_tooltip_label            (const char      *markup);

/* tes-trace-view-search.c */
void                 _tes_trace_view_set_search_state         (TesTraceView    *self,
                                                               TesTraceMatches *matches,
                                                               const char      *error_message);

G_END_DECLS
