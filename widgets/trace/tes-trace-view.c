/* tes-trace-view.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-trace-view"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "tes-trace-nav.h"
#include "tes-trace-render.h"
#include "tes-trace-view-private.h"

/* The trace's canvas: draws frames of the workspace's visible range and
 * moves that range with chrome://tracing's keys (W/S zoom around the
 * pointer, A/D pan), the wheel (Ctrl: zoom) and drags. What it shows is
 * the workspace's: every other view follows the same range and slice.
 * With the focus, arrows move the selection from slice to slice and lane
 * to lane and Enter opens the slice's details; screen readers read the
 * range, the lanes and the selected slice in its description. The keys,
 * the lanes' menu, the search and the tooltip have files of their own
 * (tes-trace-view-private.h says which). */

#define SCROLL_PX  40.0

G_DEFINE_FINAL_TYPE (TesTraceView, tes_trace_view, GTK_TYPE_WIDGET)

GParamSpec *_tes_trace_view_properties[N_PROPS];
guint _tes_trace_view_signals[N_SIGNALS];

/* The View menu's options: what the lanes show besides slices. */
static const struct
{
  guint       prop;
  const char *name;
  gboolean    default_value;
  gsize       offset;
} option_props[] = {
  /* arrows between lanes (Chrome's flow events) */
  { PROP_SHOW_FLOWS, "show-flows", TRUE, G_STRUCT_OFFSET (TesTraceView, show_flows) },
  /* where each program run starts and ends */
  { PROP_SHOW_RUNS, "show-runs", TRUE, G_STRUCT_OFFSET (TesTraceView, show_runs) },
  /* a run of syncs (names or categories saying "sync") as one box */
  { PROP_GROUP_SYNCS, "group-syncs", FALSE, G_STRUCT_OFFSET (TesTraceView, group_syncs) },
  /* BSP steps shaded by the share of their IPU's tiles at work */
  { PROP_TILE_BALANCE, "tile-balance", FALSE, G_STRUCT_OFFSET (TesTraceView, tile_balance) },
  /* in the flat view, overlapping (nested) slices on rows of their own */
  { PROP_SEPARATE_OVERLAPS, "separate-overlaps", FALSE, G_STRUCT_OFFSET (TesTraceView, separate_overlaps) },
  /* PopVision's: Poplar's External Sync and SyncAns steps, shown by
   * default; Lightweight Profiling's buffer flushes, hidden by default */
  { PROP_SHOW_EXTERNAL_SYNCS, "show-external-syncs", TRUE, G_STRUCT_OFFSET (TesTraceView, show_external_syncs) },
  { PROP_SHOW_SYNC_ANS, "show-sync-ans", TRUE, G_STRUCT_OFFSET (TesTraceView, show_sync_ans) },
  { PROP_SHOW_BUFFER_FLUSHES, "show-buffer-flushes", FALSE, G_STRUCT_OFFSET (TesTraceView, show_buffer_flushes) },
  /* steps named by a call path ("layer1/conv/…") under a box per path level */
  { PROP_GROUP_EXECUTIONS, "group-executions", FALSE, G_STRUCT_OFFSET (TesTraceView, group_executions) },
  /* a line where each process (an IPU, a device group) ends */
  { PROP_SHOW_TERMINALS, "show-terminals", FALSE, G_STRUCT_OFFSET (TesTraceView, show_terminals) },
  /* Lightweight Profiling's ruler counts from its first block */
  { PROP_RELATIVE_CYCLES, "relative-cycles", FALSE, G_STRUCT_OFFSET (TesTraceView, relative_cycles) },
  /* StreamCopy blocks of tiles not selected in an I/O Events lane per IPU */
  { PROP_AGGREGATE_STREAM_COPIES, "aggregate-stream-copies", FALSE,
    G_STRUCT_OFFSET (TesTraceView, aggregate_stream_copies) },
};

/* The kinds of step the View menu leaves out now, of those the report
 * names (found once per report: nothing to leave out costs nothing). */
TesTraceHide
_tes_trace_view_hidden_kinds (TesTraceView *self)
{
  TesTraceHide hide = (self->show_external_syncs ? 0 : TES_TRACE_HIDE_EXTERNAL_SYNCS) |
                      (self->show_sync_ans ? 0 : TES_TRACE_HIDE_SYNC_ANS) |
                      (self->show_buffer_flushes ? 0 : TES_TRACE_HIDE_BUFFER_FLUSHES);

  if (hide == 0 || self->workspace == NULL)
    return 0;
  if (self->hideable < 0)
    self->hideable = (int)tes_trace_hideable (tes_workspace_get_report (self->workspace));

  return hide & (TesTraceHide)self->hideable;
}

/* By string id, the steps left out now; NULL: none. Kept until the
 * options or the report change. */
const guint8 *
_tes_trace_view_hidden_names (TesTraceView *self)
{
  TesTraceHide hide = _tes_trace_view_hidden_kinds (self);

  if (hide == 0)
    return NULL;
  if (self->hidden_names == NULL || self->hidden_for != hide)
    {
      g_free (self->hidden_names);
      self->hidden_names = tes_trace_hidden_names (tes_workspace_get_report (self->workspace), hide);
      self->hidden_for = hide;
    }

  return self->hidden_names;
}

static gboolean *
option_flag (TesTraceView *self,
             guint         prop_id)
{
  for (guint i = 0; i < G_N_ELEMENTS (option_props); i++)
    if (option_props[i].prop == prop_id)
      return G_STRUCT_MEMBER_P (self, option_props[i].offset);

  g_return_val_if_reached (NULL);
}

void
_tes_trace_view_invalidate (TesTraceView *self)
{
  self->frame_generation++;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  _tes_trace_view_queue_accessible_update (self);
}

/* The scrollbar follows the lanes' height, which a frame finds out while
 * the view is drawn: changing the scrollbar then would have it drawn
 * before it has its size, so it is told once drawing is over. */
static gboolean
update_adjustment_cb (gpointer data)
{
  TesTraceView *self = data;
  double page = MAX (gtk_widget_get_height (GTK_WIDGET (self)) - TES_TRACE_RULER_HEIGHT, 1);
  double total = self->frame ? self->frame->total_height : 0;
  gboolean scrollable = total > page;

  self->adjustment_idle = 0;
  gtk_adjustment_configure (self->vadjustment,
                            MIN (gtk_adjustment_get_value (self->vadjustment), MAX (total - page, 0)),
                            0, MAX (total, page), SCROLL_PX, page * 0.9, page);
  if (scrollable != self->scrollable)
    {
      self->scrollable = scrollable;
      g_object_notify_by_pspec (G_OBJECT (self), _tes_trace_view_properties[PROP_SCROLLABLE]);
    }

  return G_SOURCE_REMOVE;
}

void
_tes_trace_view_update_adjustment (TesTraceView *self)
{
  if (self->adjustment_idle == 0)
    self->adjustment_idle = g_idle_add (update_adjustment_cb, self);
}

/* Overlapping slices are nested slices (the cache nests whatever starts
 * inside another): separating them in the flat view gives each depth a
 * row, as the flame view does. */
TesTraceMode
_tes_trace_view_effective_mode (TesTraceView *self)
{
  return self->mode == TES_TRACE_FLAT && self->separate_overlaps ? TES_TRACE_FLAME : self->mode;
}

/* What the frame for what the widget shows now depends on; FALSE when
 * there is nothing to draw. The report's call paths' levels and the kinds
 * of step it names are found from its strings, in memory; the I/O lanes,
 * which are read from the cache, are found with the first frame that
 * needs them (tes-trace-view-frames.c). */
gboolean
_tes_trace_view_frame_key (TesTraceView     *self,
                           TesTraceFrameKey *key)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  gint64 t0, t1;

  if (self->workspace == NULL || width <= 0)
    return FALSE;

  tes_workspace_get_visible (self->workspace, &t0, &t1);
  /* Group Executions' rows: as many as the report's call paths have
   * levels, found once per report */
  if (self->group_executions && self->path_levels < 0)
    self->path_levels = (int)tes_trace_path_levels (tes_workspace_get_report (self->workspace));
  self->lane_state.group_levels = self->group_executions ? (guint)MAX (self->path_levels, 0) : 0;

  *key = (TesTraceFrameKey) {
    .generation = self->frame_generation,
    .view_height = gtk_widget_get_height (GTK_WIDGET (self)) - TES_TRACE_RULER_HEIGHT,
    .scroll_y = gtk_adjustment_get_value (self->vadjustment),
    .mode = _tes_trace_view_effective_mode (self),
    .hide = _tes_trace_view_hidden_kinds (self),
    .group_levels = self->lane_state.group_levels,
    .show_flows = self->show_flows,
    .show_runs = self->show_runs,
    .group_syncs = self->group_syncs,
    .tile_balance = self->tile_balance,
    .show_terminals = self->show_terminals,
    .relative_cycles = self->relative_cycles,
    .io_events = self->aggregate_stream_copies,
  };
  tes_trace_scale_init (&key->scale, t0, t1, width);

  return TRUE;
}

static void
tes_trace_view_snapshot (GtkWidget   *widget,
                         GtkSnapshot *snapshot)
{
  TesTraceView *self = TES_TRACE_VIEW (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  const TesTraceFrame *frame;
  TesTraceStyle style;
  cairo_t *cr;

  if (!(frame = _tes_trace_view_ensure_frame (self)))
    {
      if (self->frame_cancellable != NULL)
        _tes_trace_view_snapshot_pending (self, snapshot, width, height);
      return;
    }

  if (width <= 0 || height <= 0)
    return;

  tes_trace_style_init (&style, self->workspace);
  style.show_text = self->show_text;
  style.scale_factor = gtk_widget_get_scale_factor (widget);

  /* a cairo node, not an image shown as a texture: the renderer would
   * copy the whole image again each frame, where it replays only the
   * recording (test-trace-frames: the main thread's longest stretch
   * 7.8-10 ms this way, 11-15 ms the other) */
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  tes_trace_render_frame (cr, tes_workspace_get_report (self->workspace), frame, &style, width, height);
  cairo_destroy (cr);
}

static void
tes_trace_view_measure (GtkWidget      *widget,
                        GtkOrientation  orientation,
                        int             for_size,
                        int            *minimum,
                        int            *natural,
                        int            *minimum_baseline,
                        int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = (int)TES_TRACE_LABEL_WIDTH + 200;
      *natural = 1000;
    }
  else
    {
      *minimum = (int)TES_TRACE_RULER_HEIGHT + 4 * (int)TES_TRACE_ROW_HEIGHT;
      *natural = 600;
    }
}

static void
tes_trace_view_size_allocate (GtkWidget *widget,
                              int        width,
                              int        height,
                              int        baseline)
{
  TesTraceView *self = TES_TRACE_VIEW (widget);

  if (self->lane_menu != NULL)
    gtk_popover_present (GTK_POPOVER (self->lane_menu));
  _tes_trace_view_invalidate (self);
}

static void
get_span (TesTraceView *self,
          gint64       *span_t0,
          gint64       *span_t1)
{
  if (!tes_workspace_get_span (self->workspace, span_t0, span_t1))
    *span_t0 = *span_t1 = 0;
}

/* The time under the pointer, or the middle when it is elsewhere. */
static gint64
anchor_time (TesTraceView *self)
{
  TesTraceScale scale;
  gint64 t0, t1;

  tes_workspace_get_visible (self->workspace, &t0, &t1);
  tes_trace_scale_init (&scale, t0, t1, gtk_widget_get_width (GTK_WIDGET (self)));
  if (self->pointer_inside && self->pointer_x >= TES_TRACE_LABEL_WIDTH)
    return tes_trace_scale_time (&scale, self->pointer_x);

  return t0 + (t1 - t0) / 2;
}

/* factor < 1 zooms in, around the pointer. */
void
tes_trace_view_zoom (TesTraceView *self,
                     double        factor)
{
  gint64 t0, t1, span_t0, span_t1;

  g_return_if_fail (TES_IS_TRACE_VIEW (self));

  if (self->workspace == NULL)
    return;

  get_span (self, &span_t0, &span_t1);
  tes_workspace_get_visible (self->workspace, &t0, &t1);
  tes_trace_zoom (&t0, &t1, factor, anchor_time (self), span_t0, span_t1);
  tes_workspace_set_visible (self->workspace, t0, t1);
}

/* Moves the range by @fraction of its width (negative: back in time). */
void
tes_trace_view_pan (TesTraceView *self,
                    double        fraction)
{
  gint64 t0, t1, span_t0, span_t1;

  g_return_if_fail (TES_IS_TRACE_VIEW (self));

  if (self->workspace == NULL)
    return;

  get_span (self, &span_t0, &span_t1);
  tes_workspace_get_visible (self->workspace, &t0, &t1);
  tes_trace_pan (&t0, &t1, (gint64)llround (fraction * (double)(t1 - t0)), span_t0, span_t1);
  tes_workspace_set_visible (self->workspace, t0, t1);
}

void
_tes_trace_view_zoom_to (TesTraceView *self,
                         gint64        start,
                         gint64        end)
{
  gint64 t0, t1, span_t0, span_t1;

  get_span (self, &span_t0, &span_t1);
  tes_trace_zoom_to (&t0, &t1, start, end, span_t0, span_t1);
  tes_workspace_set_visible (self->workspace, t0, t1);
}

/* The time under x in the whole run's miniature. */
static gint64
minimap_time (TesTraceView *self,
              double        x)
{
  double w = MAX (gtk_widget_get_width (GTK_WIDGET (self)) - TES_TRACE_LABEL_WIDTH, 1);
  gint64 span_t0, span_t1;

  get_span (self, &span_t0, &span_t1);

  return span_t0 + (gint64)llround ((x - TES_TRACE_LABEL_WIDTH) / w * (double)(span_t1 - span_t0));
}

/* Puts @centre in the middle of the view, keeping the zoom. */
void
_tes_trace_view_centre_on (TesTraceView *self,
                           gint64        centre)
{
  gint64 t0, t1, span_t0, span_t1;

  get_span (self, &span_t0, &span_t1);
  tes_workspace_get_visible (self->workspace, &t0, &t1);
  tes_trace_pan (&t0, &t1, centre - (t0 + (t1 - t0) / 2), span_t0, span_t1);
  tes_workspace_set_visible (self->workspace, t0, t1);
}

static gboolean
in_minimap (double x,
            double y)
{
  return y < TES_TRACE_MINIMAP_HEIGHT && x >= TES_TRACE_LABEL_WIDTH;
}

const TesTraceBox *
_tes_trace_view_box_at (TesTraceView *self,
                        double        x,
                        double        y,
                        gint64       *track_id,
                        gboolean     *in_label,
                        int          *lane_index)
{
  const TesTraceFrame *frame = _tes_trace_view_ensure_frame (self);
  int lane, box;

  if (frame == NULL || !tes_trace_frame_hit (frame, x, y, &lane, &box, in_label))
    return NULL;

  if (lane_index)
    *lane_index = lane;
  *track_id = g_array_index (frame->lanes, TesTraceLane, lane).track_id;
  if (box < 0)
    return NULL;

  return &g_array_index ((GArray *)g_ptr_array_index (frame->boxes, lane), TesTraceBox, box);
}

/* A click: on a group's name it opens or closes the group; on a slice it
 * selects it; with @extend (Shift) and a slice already selected, it zooms
 * to the span from one to the other. A merged box zooms in instead. */
gboolean
tes_trace_view_select_at (TesTraceView *self,
                          double        x,
                          double        y,
                          gboolean      extend)
{
  const TesTraceBox *box;
  gint64 track_id = 0;
  gboolean in_label = FALSE;
  int lane = -1;

  g_return_val_if_fail (TES_IS_TRACE_VIEW (self), FALSE);

  /* the run's miniature: a click shows that moment */
  if (in_minimap (x, y))
    {
      _tes_trace_view_centre_on (self, minimap_time (self, x));
      return TRUE;
    }

  box = _tes_trace_view_box_at (self, x, y, &track_id, &in_label, &lane);

  if (in_label && lane >= 0)
    {
      const TesTraceLane *hit = &g_array_index (self->frame->lanes, TesTraceLane, lane);

      if (!hit->is_group)
        return FALSE;
      if (!g_hash_table_remove (self->collapsed, GSIZE_TO_POINTER (track_id)))
        g_hash_table_add (self->collapsed, GSIZE_TO_POINTER (track_id));
      _tes_trace_view_invalidate (self);
      return TRUE;
    }

  if (box == NULL)
    {
      tes_workspace_set_selected_slices (self->workspace, NULL, 0);
      self->selected_track = 0;
      return FALSE;
    }

  /* several slices, Group Executions' box of one or more steps, or an I/O
   * lane's block (of one of the tiles it aggregates) */
  if (box->n_slices > 1 || box->label != NULL ||
      g_array_index (self->frame->lanes, TesTraceLane, lane).io_ipu >= 0)
    {
      _tes_trace_view_zoom_to (self, box->start, box->start + box->dur);
      return TRUE;
    }

  if (extend && self->selected_track != 0)
    {
      gint64 start = MIN (self->selected_box.start, box->start);
      gint64 end = MAX (self->selected_box.start + self->selected_box.dur, box->start + box->dur);

      tes_workspace_set_selection (self->workspace, start, end);
      _tes_trace_view_zoom_to (self, start, end);
      return TRUE;
    }

  {
    TesSliceRef ref = { track_id, box->index };

    /* kept before the workspace tells everyone, so they read it */
    self->selected_box = *box;
    self->selected_track = track_id;
    tes_workspace_set_selected_slices (self->workspace, &ref, 1);
  }

  return TRUE;
}

/* A double-click: zooms to the slice under the pointer. */
gboolean
tes_trace_view_zoom_at (TesTraceView *self,
                        double        x,
                        double        y)
{
  const TesTraceBox *box;
  gint64 track_id;
  gboolean in_label;

  g_return_val_if_fail (TES_IS_TRACE_VIEW (self), FALSE);

  if (!(box = _tes_trace_view_box_at (self, x, y, &track_id, &in_label, NULL)))
    return FALSE;

  _tes_trace_view_zoom_to (self, box->start, box->start + box->dur);
  return TRUE;
}

/* The workspace's selection is the one slice this view last selected
 * (another view may select others: only their count is known here). */
gboolean
_tes_trace_view_has_selected_slice (TesTraceView *self)
{
  guint n_selected = 0;
  const TesSliceRef *refs = tes_workspace_get_selected_slices (self->workspace, &n_selected);

  return self->selected_track != 0 && n_selected == 1 &&
         refs[0].track_id == self->selected_track && refs[0].index == self->selected_box.index;
}

/* Opens the groups above a track, so that its lane is on screen. */
void
_tes_trace_view_unfold_to (TesTraceView *self,
                           gint64        track_id)
{
  TesReport *report = tes_workspace_get_report (self->workspace);
  const TesTrack *track = tes_report_get_track (report, track_id);

  if (g_hash_table_remove (self->hidden, GSIZE_TO_POINTER (track_id)))
    self->frame_generation++;
  while (track != NULL && track->parent_id != 0)
    {
      if (g_hash_table_remove (self->collapsed, GSIZE_TO_POINTER (track->parent_id)) |
          g_hash_table_remove (self->hidden, GSIZE_TO_POINTER (track->parent_id)))
        self->frame_generation++;
      track = tes_report_get_track (report, track->parent_id);
    }
}

/* Selects a slice the keyboard or the search went to and brings it into
 * view: shown whole when wider than the view, else centred when
 * @centre or when not all of it is in view; its lane opened and
 * scrolled to. */
void
_tes_trace_view_select_slice (TesTraceView   *self,
                              gint64          track_id,
                              const TesSlice *slice,
                              gboolean        centre)
{
  TesReport *report = tes_workspace_get_report (self->workspace);
  gint64 start = tes_trace_nav_start (report, track_id, slice);
  gint64 end = tes_trace_nav_end (report, track_id, slice);
  const TesTraceFrame *frame;
  gint64 t0, t1;

  self->selected_box = (TesTraceBox) {
    .name = slice->name,
    .category = slice->category,
    .index = slice->index,
    .n_slices = 1,
    /* as drawn: under Group Executions' rows; the flat view draws the top level */
    .row = (_tes_trace_view_effective_mode (self) == TES_TRACE_FLAME ? slice->depth : 0) + self->lane_state.group_levels,
    .flags = slice->flags,
    .start = start,
    .dur = end - start,
  };
  self->selected_track = track_id;

  tes_workspace_get_visible (self->workspace, &t0, &t1);
  if (end - start > (t1 - t0) * 8 / 10)
    _tes_trace_view_zoom_to (self, start, end);
  else if (centre || start < t0 || end > t1)
    _tes_trace_view_centre_on (self, start + (end - start) / 2);

  /* its lane on screen */
  _tes_trace_view_unfold_to (self, track_id);
  if ((frame = _tes_trace_view_ensure_frame (self)))
    for (guint i = 0; i < frame->lanes->len; i++)
      {
        const TesTraceLane *lane = &g_array_index (frame->lanes, TesTraceLane, i);
        double top = gtk_adjustment_get_value (self->vadjustment);
        double page = gtk_adjustment_get_page_size (self->vadjustment);

        if (lane->track_id != track_id)
          continue;
        if (lane->y < top || lane->y + lane->height > top + page)
          gtk_adjustment_set_value (self->vadjustment, MAX (lane->y - page / 3, 0));
        break;
      }

  {
    TesSliceRef ref = { track_id, slice->index };

    tes_workspace_set_selected_slices (self->workspace, &ref, 1);
  }
}

static gboolean
tes_trace_view_scroll_cb (TesTraceView             *self,
                          double                    dx,
                          double                    dy,
                          GtkEventControllerScroll *controller)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));

  if (self->workspace == NULL)
    return FALSE;

  if (state & GDK_CONTROL_MASK)
    tes_trace_view_zoom (self, pow (1.1, dy));
  else if ((state & GDK_SHIFT_MASK) || fabs (dx) > fabs (dy))
    tes_trace_view_pan (self, 0.05 * ((state & GDK_SHIFT_MASK) ? dy : dx));
  else
    gtk_adjustment_set_value (self->vadjustment, gtk_adjustment_get_value (self->vadjustment) + dy * SCROLL_PX);

  return TRUE;
}

static void
tes_trace_view_motion_cb (TesTraceView             *self,
                          double                    x,
                          double                    y,
                          GtkEventControllerMotion *controller)
{
  self->pointer_x = x;
  self->pointer_y = y;
  self->pointer_inside = TRUE;
}

static void
tes_trace_view_leave_cb (TesTraceView             *self,
                         GtkEventControllerMotion *controller)
{
  self->pointer_inside = FALSE;
}

static void
tes_trace_view_pressed_cb (TesTraceView    *self,
                           int              n_press,
                           double           x,
                           double           y,
                           GtkGestureClick *gesture)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  gtk_widget_grab_focus (GTK_WIDGET (self));

  if (self->workspace == NULL)
    return;

  if (n_press == 2 && !in_minimap (x, y))
    tes_trace_view_zoom_at (self, x, y);
  else if (n_press == 1)
    tes_trace_view_select_at (self, x, y, (state & GDK_SHIFT_MASK) != 0);
}

/* A drag pans; with Shift it selects a time span over the lanes. */
static void
tes_trace_view_drag_begin_cb (TesTraceView   *self,
                              double          x,
                              double          y,
                              GtkGestureDrag *gesture)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  TesTraceScale scale;

  if (self->workspace == NULL)
    return;

  tes_workspace_get_visible (self->workspace, &self->drag_t0, &self->drag_t1);
  tes_trace_scale_init (&scale, self->drag_t0, self->drag_t1, gtk_widget_get_width (GTK_WIDGET (self)));
  self->drag_span = (state & GDK_SHIFT_MASK) != 0;
  self->drag_minimap = in_minimap (x, y);
  self->drag_x = x;
  self->drag_anchor = tes_trace_scale_time (&scale, x);
}

static void
tes_trace_view_drag_update_cb (TesTraceView   *self,
                               double          dx,
                               double          dy,
                               GtkGestureDrag *gesture)
{
  TesTraceScale scale;
  gint64 t0 = self->drag_t0, t1 = self->drag_t1;
  gint64 span_t0, span_t1;

  if (self->workspace == NULL || fabs (dx) < 3)
    return;

  tes_trace_scale_init (&scale, t0, t1, gtk_widget_get_width (GTK_WIDGET (self)));

  /* dragging the frame in the miniature moves the view along the run */
  if (self->drag_minimap)
    {
      _tes_trace_view_centre_on (self, minimap_time (self, self->drag_x + dx));
      return;
    }

  if (self->drag_span)
    {
      gint64 other = self->drag_anchor + (gint64)llround (dx * (double)(t1 - t0) / scale.width);

      tes_workspace_set_selection (self->workspace, MIN (self->drag_anchor, other), MAX (self->drag_anchor, other));
      return;
    }

  get_span (self, &span_t0, &span_t1);
  tes_trace_pan (&t0, &t1, -(gint64)llround (dx * (double)(t1 - t0) / scale.width), span_t0, span_t1);
  tes_workspace_set_visible (self->workspace, t0, t1);
}

static void
tes_trace_view_dispose (GObject *object)
{
  TesTraceView *self = (TesTraceView *)object;

  tes_trace_view_set_workspace (self, NULL);
  g_clear_handle_id (&self->accessible_idle, g_source_remove);
  g_clear_handle_id (&self->adjustment_idle, g_source_remove);
  g_clear_pointer (&self->description, g_free);
  g_cancellable_cancel (self->search_cancellable);
  g_clear_object (&self->search_cancellable);
  g_clear_pointer (&self->matches, tes_trace_matches_free);
  g_clear_pointer (&self->search_text, g_free);
  g_clear_pointer (&self->search_error, g_free);
  _tes_trace_view_drop_frames (self);
  _tes_trace_view_cancel_steps (self);
  _tes_trace_view_forget_args (self);
  g_clear_pointer (&self->step_queue, g_array_unref);
  g_clear_pointer (&self->collapsed, g_hash_table_unref);
  g_clear_pointer (&self->hidden, g_hash_table_unref);
  g_clear_pointer (&self->pinned, g_array_unref);
  g_clear_pointer (&self->hidden_names, g_free);
  self->lane_state.io_events = NULL;
  g_clear_pointer (&self->io_events, tes_trace_io_events_free);
  g_clear_pointer (&self->lane_menu, gtk_widget_unparent);
  g_clear_object (&self->vadjustment);

  G_OBJECT_CLASS (tes_trace_view_parent_class)->dispose (object);
}

static void
tes_trace_view_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  TesTraceView *self = TES_TRACE_VIEW (object);

  switch (prop_id)
    {
    case PROP_WORKSPACE:
      g_value_set_object (value, self->workspace);
      break;

    case PROP_MODE:
      g_value_set_int (value, self->mode);
      break;

    case PROP_SHOW_TEXT:
      g_value_set_boolean (value, self->show_text);
      break;

    case PROP_SHOW_FLOWS:
    case PROP_SHOW_RUNS:
    case PROP_GROUP_SYNCS:
    case PROP_TILE_BALANCE:
    case PROP_SEPARATE_OVERLAPS:
    case PROP_SHOW_EXTERNAL_SYNCS:
    case PROP_SHOW_SYNC_ANS:
    case PROP_SHOW_BUFFER_FLUSHES:
    case PROP_GROUP_EXECUTIONS:
    case PROP_SHOW_TERMINALS:
    case PROP_RELATIVE_CYCLES:
    case PROP_AGGREGATE_STREAM_COPIES:
      g_value_set_boolean (value, *option_flag (self, prop_id));
      break;

    case PROP_SCROLLABLE:
      g_value_set_boolean (value, self->scrollable);
      break;

    case PROP_N_MATCHES:
      g_value_set_uint (value, tes_trace_matches_get_n (self->matches));
      break;

    case PROP_CURRENT_MATCH:
      g_value_set_int (value, self->current_match);
      break;

    case PROP_SEARCHING:
      g_value_set_boolean (value, self->search_cancellable != NULL);
      break;

    case PROP_SEARCH_ERROR:
      g_value_set_string (value, self->search_error);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tes_trace_view_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  TesTraceView *self = TES_TRACE_VIEW (object);

  switch (prop_id)
    {
    case PROP_WORKSPACE:
      tes_trace_view_set_workspace (self, g_value_get_object (value));
      break;

    case PROP_MODE:
      tes_trace_view_set_mode (self, g_value_get_int (value));
      break;

    case PROP_SHOW_TEXT:
      tes_trace_view_set_show_text (self, g_value_get_boolean (value));
      break;

    case PROP_SHOW_FLOWS:
    case PROP_SHOW_RUNS:
    case PROP_GROUP_SYNCS:
    case PROP_TILE_BALANCE:
    case PROP_SEPARATE_OVERLAPS:
    case PROP_SHOW_EXTERNAL_SYNCS:
    case PROP_SHOW_SYNC_ANS:
    case PROP_SHOW_BUFFER_FLUSHES:
    case PROP_GROUP_EXECUTIONS:
    case PROP_SHOW_TERMINALS:
    case PROP_RELATIVE_CYCLES:
    case PROP_AGGREGATE_STREAM_COPIES:
      {
        gboolean *flag = option_flag (self, prop_id);

        if (*flag != g_value_get_boolean (value))
          {
            *flag = g_value_get_boolean (value);
            _tes_trace_view_invalidate (self);
            g_object_notify_by_pspec (object, pspec);
          }
      }
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tes_trace_view_class_init (TesTraceViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tes_trace_view_dispose;
  object_class->get_property = tes_trace_view_get_property;
  object_class->set_property = tes_trace_view_set_property;

  widget_class->snapshot = tes_trace_view_snapshot;
  widget_class->measure = tes_trace_view_measure;
  widget_class->size_allocate = tes_trace_view_size_allocate;
  widget_class->query_tooltip = _tes_trace_view_query_tooltip;

  _tes_trace_view_properties[PROP_WORKSPACE] =
    g_param_spec_object ("workspace", NULL, NULL, TES_TYPE_WORKSPACE,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /* TesTraceMode: flat (0) or flame (1) */
  _tes_trace_view_properties[PROP_MODE] =
    g_param_spec_int ("mode", NULL, NULL, TES_TRACE_FLAT, TES_TRACE_FLAME, TES_TRACE_FLAT,
                      (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  _tes_trace_view_properties[PROP_SHOW_TEXT] =
    g_param_spec_boolean ("show-text", NULL, NULL, TRUE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  for (guint i = 0; i < G_N_ELEMENTS (option_props); i++)
    _tes_trace_view_properties[option_props[i].prop] =
      g_param_spec_boolean (option_props[i].name, NULL, NULL, option_props[i].default_value,
                            (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /* whether the lanes are taller than the view: the scrollbar shows then */
  _tes_trace_view_properties[PROP_SCROLLABLE] =
    g_param_spec_boolean ("scrollable", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  _tes_trace_view_properties[PROP_N_MATCHES] =
    g_param_spec_uint ("n-matches", NULL, NULL, 0, G_MAXUINT, 0,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /* the match stepped to, in time order; -1 before the first step */
  _tes_trace_view_properties[PROP_CURRENT_MATCH] =
    g_param_spec_int ("current-match", NULL, NULL, -1, G_MAXINT, -1,
                      (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /* a search runs in a thread while this is TRUE */
  _tes_trace_view_properties[PROP_SEARCHING] =
    g_param_spec_boolean ("searching", NULL, NULL, FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /* why the search text cannot be searched (a broken regex), or NULL */
  _tes_trace_view_properties[PROP_SEARCH_ERROR] =
    g_param_spec_string ("search-error", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, _tes_trace_view_properties);

  gtk_widget_class_set_css_name (widget_class, "tracetimeline");

  _tes_trace_view_class_add_lane_actions (widget_class);
  /**
   * TesTraceView::activate-slice:
   *
   * Enter on a selected slice: show its details.
   */
  _tes_trace_view_signals[ACTIVATE_SLICE] =
    g_signal_new ("activate-slice", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  /* a canvas of lanes the keyboard moves through, not a still picture */
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
tes_trace_view_init (TesTraceView *self)
{
  GtkEventController *controller;
  GtkGesture *gesture;

  self->show_text = TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (option_props); i++)
    *option_flag (self, option_props[i].prop) = option_props[i].default_value;
  self->current_match = -1;
  self->collapsed = g_hash_table_new (NULL, NULL);
  self->hidden = g_hash_table_new (NULL, NULL);
  self->pinned = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->step_queue = g_array_new (FALSE, FALSE, sizeof (guint));
  self->path_levels = -1;
  self->hideable = -1;
  self->lane_state = (TesTraceLaneState) { self->collapsed, self->pinned, self->hidden };
  self->vadjustment = g_object_ref_sink (gtk_adjustment_new (0, 0, 1, SCROLL_PX, 100, 1));
  g_signal_connect_object (self->vadjustment, "value-changed",
                           G_CALLBACK (_tes_trace_view_invalidate), self, G_CONNECT_SWAPPED);

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Execution trace"),
                                  -1);

  _tes_trace_view_add_key_controllers (self);

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect_object (controller, "scroll", G_CALLBACK (tes_trace_view_scroll_cb),
                           self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect_object (controller, "motion", G_CALLBACK (tes_trace_view_motion_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (controller, "leave", G_CALLBACK (tes_trace_view_leave_cb),
                           self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  gesture = gtk_gesture_click_new ();
  g_signal_connect_object (gesture, "pressed", G_CALLBACK (tes_trace_view_pressed_cb),
                           self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  _tes_trace_view_add_lane_menu_gesture (self);

  gesture = gtk_gesture_drag_new ();
  g_signal_connect_object (gesture, "drag-begin", G_CALLBACK (tes_trace_view_drag_begin_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (gesture, "drag-update", G_CALLBACK (tes_trace_view_drag_update_cb),
                           self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));
}

GtkWidget *
tes_trace_view_new (void)
{
  return g_object_new (TES_TYPE_TRACE_VIEW, NULL);
}

TesWorkspace *
tes_trace_view_get_workspace (TesTraceView *self)
{
  g_return_val_if_fail (TES_IS_TRACE_VIEW (self), NULL);

  return self->workspace;
}

void
tes_trace_view_set_workspace (TesTraceView *self,
                              TesWorkspace *workspace)
{
  g_return_if_fail (TES_IS_TRACE_VIEW (self));
  g_return_if_fail (!workspace || TES_IS_WORKSPACE (workspace));

  if (self->workspace == workspace)
    return;

  if (self->workspace != NULL)
    g_signal_handlers_disconnect_by_data (self->workspace, self);

  g_set_object (&self->workspace, workspace);
  g_hash_table_remove_all (self->collapsed);
  g_hash_table_remove_all (self->hidden);
  g_array_set_size (self->pinned, 0);
  self->path_levels = -1;
  self->hideable = -1;
  g_clear_pointer (&self->hidden_names, g_free);
  /* the frame may point into the last report's I/O lanes: both go, and
   * a frame still being built for the last report is dropped, and so is
   * a slice the arrows were looking for, and the tooltip's arguments */
  _tes_trace_view_drop_frames (self);
  _tes_trace_view_cancel_steps (self);
  _tes_trace_view_forget_args (self);
  self->lane_state.io_events = NULL;
  g_clear_pointer (&self->io_events, tes_trace_io_events_free);
  self->io_events_known = FALSE;
  /* another report: the last one's search means nothing here */
  g_cancellable_cancel (self->search_cancellable);
  g_clear_object (&self->search_cancellable);
  g_clear_pointer (&self->search_text, g_free);
  _tes_trace_view_set_search_state (self, NULL, NULL);
  self->selected_track = 0;
  gtk_adjustment_set_value (self->vadjustment, 0);

  if (workspace != NULL)
    {
      /* the range, the unit and the selection are the workspace's */
      g_signal_connect_swapped (workspace, "notify::visible-start", G_CALLBACK (_tes_trace_view_invalidate), self);
      g_signal_connect_swapped (workspace, "notify::visible-end", G_CALLBACK (_tes_trace_view_invalidate), self);
      g_signal_connect_swapped (workspace, "notify::time-unit", G_CALLBACK (gtk_widget_queue_draw), self);
      g_signal_connect_swapped (workspace, "notify::time-unit", G_CALLBACK (_tes_trace_view_queue_accessible_update), self);
      g_signal_connect_swapped (workspace, "notify::selected-slices", G_CALLBACK (gtk_widget_queue_draw), self);
      g_signal_connect_swapped (workspace, "notify::selected-slices", G_CALLBACK (_tes_trace_view_queue_accessible_update), self);
      g_signal_connect_swapped (workspace, "notify::selection-start", G_CALLBACK (gtk_widget_queue_draw), self);
      g_signal_connect_swapped (workspace, "notify::selection-end", G_CALLBACK (gtk_widget_queue_draw), self);
      g_signal_connect_swapped (workspace, "notify::has-selection", G_CALLBACK (gtk_widget_queue_draw), self);
    }

  _tes_trace_view_invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), _tes_trace_view_properties[PROP_WORKSPACE]);
}

TesTraceMode
tes_trace_view_get_mode (TesTraceView *self)
{
  g_return_val_if_fail (TES_IS_TRACE_VIEW (self), TES_TRACE_FLAT);

  return self->mode;
}

void
tes_trace_view_set_mode (TesTraceView *self,
                         TesTraceMode  mode)
{
  g_return_if_fail (TES_IS_TRACE_VIEW (self));

  if (self->mode == mode)
    return;

  self->mode = mode;
  _tes_trace_view_invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), _tes_trace_view_properties[PROP_MODE]);
}

gboolean
tes_trace_view_get_show_text (TesTraceView *self)
{
  g_return_val_if_fail (TES_IS_TRACE_VIEW (self), FALSE);

  return self->show_text;
}

void
tes_trace_view_set_show_text (TesTraceView *self,
                              gboolean      show_text)
{
  g_return_if_fail (TES_IS_TRACE_VIEW (self));

  show_text = !!show_text;
  if (self->show_text == show_text)
    return;

  self->show_text = show_text;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), _tes_trace_view_properties[PROP_SHOW_TEXT]);
}

/**
 * tes_trace_view_get_vadjustment:
 *
 * Returns: (transfer none): how far the lanes are scrolled, for a scrollbar
 */
GtkAdjustment *
tes_trace_view_get_vadjustment (TesTraceView *self)
{
  g_return_val_if_fail (TES_IS_TRACE_VIEW (self), NULL);

  return self->vadjustment;
}

/**
 * tes_trace_view_get_frame:
 *
 * The frame drawn now: the last one built, which is of what the view
 * shows unless tes_trace_view_is_frame_pending() (frames are built in a
 * thread; asking starts the one of what is shown now).
 *
 * Returns: (transfer none) (nullable): the last frame built; NULL before the first
 */
const TesTraceFrame *
tes_trace_view_get_frame (TesTraceView *self)
{
  g_return_val_if_fail (TES_IS_TRACE_VIEW (self), NULL);

  return _tes_trace_view_ensure_frame (self);
}

/* The selected slice as drawn when it was clicked; NULL when none. */
const TesTraceBox *
tes_trace_view_get_selected_box (TesTraceView *self,
                                 gint64       *track_id)
{
  g_return_val_if_fail (TES_IS_TRACE_VIEW (self), NULL);

  if (self->selected_track == 0)
    return NULL;

  if (track_id)
    *track_id = self->selected_track;

  return &self->selected_box;
}
