/* tes-trace-render.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-trace-render"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "tes-painter.h"
#include "tes-share-chart-layout.h"
#include "tes-trace-render.h"

/* The Execution Trace as a picture: the names at the left, the ruler on
 * top, one box per merged run of slices. The section's snapshot and
 * `tessera-cli render --view trace|flame` both draw through here. */

#define FONT           "Sans 9"
#define INK            0x241f31
#define DIM_INK        0x77767b
#define MIXED          0x9a9996
#define LANE_EVEN      0xffffff
#define LANE_ODD       0xf6f5f4
#define RULER_BG       0xfafafa
#define RULE           0xdeddda
#define SELECTION      0x1c71d8

static guint32
box_color (TesReport         *report,
           const TesTraceBox *box)
{
  if (box->name == 0)
    return MIXED;

  return tes_share_chart_palette[tes_trace_color_index (tes_report_get_string (report, box->name))];
}

/* Dark text on light bars, light on dark ones. */
static guint32
text_on (guint32 rgb)
{
  double luma = 0.299 * ((rgb >> 16) & 0xff) + 0.587 * ((rgb >> 8) & 0xff) + 0.114 * (rgb & 0xff);

  return luma > 150 ? INK : 0xffffff;
}

static void
draw_lane_label (TesPainter         *p,
                 TesReport          *report,
                 const TesTraceLane *lane,
                 double              y)
{
  const TesTrack *track = tes_report_get_track (report, lane->track_id);
  double indent = 8 + lane->level * 12;
  double text_y = y + 3;

  if (lane->is_group)
    {
      /* a triangle: pointing down when open */
      cairo_t *cr = p->cr;
      double cx = indent + 4, cy = y + TES_TRACE_HEADER_HEIGHT / 2;

      tes_painter_set_rgb (cr, DIM_INK);
      if (lane->expanded)
        {
          cairo_move_to (cr, cx - 4, cy - 2);
          cairo_line_to (cr, cx + 4, cy - 2);
          cairo_line_to (cr, cx, cy + 3);
        }
      else
        {
          cairo_move_to (cr, cx - 2, cy - 4);
          cairo_line_to (cr, cx + 3, cy);
          cairo_line_to (cr, cx - 2, cy + 4);
        }
      cairo_close_path (cr);
      cairo_fill (cr);
    }

  tes_painter_text (p, track->name ? track->name : "", indent + 12, text_y,
                    TES_TRACE_LABEL_WIDTH - indent - 18, PANGO_ALIGN_LEFT, lane->is_group, INK);
}

static void
draw_boxes (TesPainter          *p,
            TesReport           *report,
            const TesTraceLane  *lane,
            GArray              *boxes,
            const TesTraceStyle *style,
            double               y)
{
  cairo_t *cr = p->cr;

  for (guint i = 0; i < boxes->len; i++)
    {
      const TesTraceBox *box = &g_array_index (boxes, TesTraceBox, i);
      double by = y + 2 + box->row * TES_TRACE_ROW_HEIGHT;
      double bh = TES_TRACE_ROW_HEIGHT - 2;
      guint32 rgb = box_color (report, box);

      tes_painter_set_rgb (cr, rgb);
      cairo_rectangle (cr, box->x0, by, box->x1 - box->x0, bh);
      cairo_fill (cr);

      if (style->show_text && box->n_slices == 1 && box->x1 - box->x0 > 24)
        {
          const char *name = tes_report_get_string (report, box->name);
          double x0 = MAX (box->x0, TES_TRACE_LABEL_WIDTH);

          if (name != NULL && box->x1 - x0 > 24)
            tes_painter_text (p, name, x0 + 3, by + 1, box->x1 - x0 - 6, PANGO_ALIGN_LEFT, FALSE, text_on (rgb));
        }

      if (style->selected.track_id == lane->track_id && box->n_slices == 1 &&
          box->index == style->selected.index)
        {
          tes_painter_set_rgb (cr, INK);
          cairo_set_line_width (cr, 2);
          cairo_rectangle (cr, box->x0 + 1, by + 1, MAX (box->x1 - box->x0 - 2, 1), bh - 2);
          cairo_stroke (cr);
        }
    }
}

static void
draw_ruler (TesPainter          *p,
            const TesTraceFrame *frame,
            const TesTraceStyle *style,
            double               width,
            double               height)
{
  cairo_t *cr = p->cr;
  g_autoptr(GArray) ticks = tes_trace_ruler_ticks (&frame->scale, frame->origin, style->unit,
                                                   style->cycles_per_second, 90);

  tes_painter_set_rgb (cr, RULER_BG);
  cairo_rectangle (cr, 0, 0, width, TES_TRACE_RULER_HEIGHT);
  cairo_fill (cr);

  for (guint i = 0; i < ticks->len; i++)
    {
      const TesTraceTick *tick = &g_array_index (ticks, TesTraceTick, i);
      double x = floor (tick->x) + 0.5;

      if (x < TES_TRACE_LABEL_WIDTH)
        continue;

      tes_painter_set_rgb (cr, tick->major ? DIM_INK : RULE);
      cairo_set_line_width (cr, 1);
      cairo_move_to (cr, x, tick->major ? 12 : 20);
      cairo_line_to (cr, x, TES_TRACE_RULER_HEIGHT);
      cairo_stroke (cr);

      /* the grid behind the lanes, faint */
      if (tick->major)
        {
          cairo_set_source_rgba (cr, 0, 0, 0, 0.06);
          cairo_move_to (cr, x, TES_TRACE_RULER_HEIGHT);
          cairo_line_to (cr, x, height);
          cairo_stroke (cr);
          tes_painter_text (p, tick->label, x + 3, 0, 0, PANGO_ALIGN_LEFT, FALSE, DIM_INK);
        }
    }

  tes_painter_set_rgb (cr, RULE);
  cairo_move_to (cr, 0, TES_TRACE_RULER_HEIGHT - 0.5);
  cairo_line_to (cr, width, TES_TRACE_RULER_HEIGHT - 0.5);
  cairo_stroke (cr);
}

/* Draws @frame into a @width × @height area at the origin of @cr. */
void
tes_trace_render_frame (cairo_t             *cr,
                        TesReport           *report,
                        const TesTraceFrame *frame,
                        const TesTraceStyle *style,
                        double               width,
                        double               height)
{
  TesPainter p;

  g_return_if_fail (cr != NULL && frame != NULL && style != NULL);

  tes_painter_init (&p, cr, FONT);
  cairo_save (cr);

  tes_painter_set_rgb (cr, LANE_EVEN);
  cairo_paint (cr);

  /* the lanes, under the ruler */
  cairo_save (cr);
  cairo_rectangle (cr, 0, TES_TRACE_RULER_HEIGHT, width, height - TES_TRACE_RULER_HEIGHT);
  cairo_clip (cr);

  for (guint i = 0; i < frame->lanes->len; i++)
    {
      const TesTraceLane *lane = &g_array_index (frame->lanes, TesTraceLane, i);
      GArray *boxes = g_ptr_array_index (frame->boxes, i);
      double y = TES_TRACE_RULER_HEIGHT + lane->y - frame->scroll_y;

      if (y + lane->height < TES_TRACE_RULER_HEIGHT || y > height)
        continue;

      tes_painter_set_rgb (cr, i % 2 ? LANE_ODD : LANE_EVEN);
      cairo_rectangle (cr, 0, y, width, lane->height);
      cairo_fill (cr);

      if (boxes != NULL)
        {
          cairo_save (cr);
          cairo_rectangle (cr, TES_TRACE_LABEL_WIDTH, y, width - TES_TRACE_LABEL_WIDTH, lane->height);
          cairo_clip (cr);
          draw_boxes (&p, report, lane, boxes, style, y);
          cairo_restore (cr);
        }

      draw_lane_label (&p, report, lane, y);
    }

  if (style->has_span)
    {
      double x0 = MAX (tes_trace_scale_x (&frame->scale, style->span_t0), TES_TRACE_LABEL_WIDTH);
      double x1 = MIN (tes_trace_scale_x (&frame->scale, style->span_t1), width);

      if (x1 > x0)
        {
          cairo_set_source_rgba (cr, 0x1c / 255., 0x71 / 255., 0xd8 / 255., 0.15);
          cairo_rectangle (cr, x0, TES_TRACE_RULER_HEIGHT, x1 - x0, height);
          cairo_fill (cr);
        }
    }
  cairo_restore (cr);

  /* the names' column ends in a rule */
  tes_painter_set_rgb (cr, RULE);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, TES_TRACE_LABEL_WIDTH - 0.5, 0);
  cairo_line_to (cr, TES_TRACE_LABEL_WIDTH - 0.5, height);
  cairo_stroke (cr);

  draw_ruler (&p, frame, style, width, height);

  if (frame->lanes->len == 0)
    tes_painter_text (&p, _("This report has no timed events to draw"), TES_TRACE_LABEL_WIDTH + 12,
                      TES_TRACE_RULER_HEIGHT + 12, width - TES_TRACE_LABEL_WIDTH - 24, PANGO_ALIGN_LEFT,
                      FALSE, DIM_INK);

  cairo_restore (cr);
  tes_painter_clear (&p);
}

/* The style a workspace calls for: its unit, its selected slice and span. */
void
tes_trace_style_init (TesTraceStyle *style,
                      TesWorkspace  *workspace)
{
  TesReport *report = tes_workspace_get_report (workspace);
  const TesClock *clock = tes_report_get_clock (report, tes_workspace_get_cycles_clock (workspace));
  const TesSliceRef *selected;
  guint n_selected = 0;

  *style = (TesTraceStyle) { 0 };
  style->show_text = TRUE;
  style->unit = tes_workspace_get_time_unit (workspace);
  style->cycles_per_second = clock ? clock->ticks_per_second : 0;
  style->has_span = tes_workspace_get_selection (workspace, &style->span_t0, &style->span_t1);
  selected = tes_workspace_get_selected_slices (workspace, &n_selected);
  if (n_selected > 0)
    style->selected = selected[0];
}

/* The section's picture for `tessera-cli render`: the workspace's visible
 * range, every lane from the top, drawn as the window draws it. */
gboolean
tes_trace_render (TesWorkspace  *workspace,
                  TesTraceMode   mode,
                  cairo_t       *cr,
                  int            width,
                  int            height,
                  GError       **error)
{
  TesReport *report = tes_workspace_get_report (workspace);
  g_autoptr(TesTraceFrame) frame = NULL;
  TesTraceScale scale;
  TesTraceStyle style;
  gint64 t0, t1;

  tes_workspace_get_visible (workspace, &t0, &t1);
  tes_trace_scale_init (&scale, t0, t1, width);

  if (!(frame = tes_trace_frame_build (report, &scale, mode, NULL, 0, height - TES_TRACE_RULER_HEIGHT, NULL, error)))
    return FALSE;

  tes_trace_style_init (&style, workspace);
  tes_trace_render_frame (cr, report, frame, &style, width, height);

  if (cairo_status (cr) != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "Drawing the trace failed: %s", cairo_status_to_string (cairo_status (cr)));
      return FALSE;
    }

  return TRUE;
}
