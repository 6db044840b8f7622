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
#include <string.h>

#include "tes-painter.h"
#include "tes-share-chart-layout.h"
#include "tes-trace-raster.h"
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
#define GREYED_OUT     0xe6e5e3
#define MINIMAP_BG     0xf0efee
#define MINIMAP_INK    0x9a9996
#define RUN_INK        0x613583

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
  /* Translators: Aggregate StreamCopy Blocks' lane of an IPU; %d is its number */
  g_autofree char *io_name = lane->io_ipu >= 0 ? g_strdup_printf (_("IPU %d I/O Events"), lane->io_ipu) : NULL;

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

  tes_painter_text (p, io_name ? io_name : track->name ? track->name : "", indent + 12, text_y,
                    TES_TRACE_LABEL_WIDTH - indent - (lane->pinned ? 30 : 18), PANGO_ALIGN_LEFT, lane->is_group, INK);

  /* pinned to the top: a dot at the end of the name's column */
  if (lane->pinned)
    {
      tes_painter_set_rgb (p->cr, SELECTION);
      cairo_arc (p->cr, TES_TRACE_LABEL_WIDTH - 12, y + 9, 3.5, 0, 2 * G_PI);
      cairo_fill (p->cr);
    }
}

static guint8
box_color_index (TesReport         *report,
                 const TesTraceBox *box)
{
  if (box->label != NULL)
    {
      g_autofree char *path = g_strndup (box->label, box->label_len);

      return tes_trace_color_index (path);
    }
  if (box->name == 0)
    return TES_SHARE_CHART_N_COLORS;

  return tes_trace_color_index (tes_report_get_string (report, box->name));
}

#define GREYED (TES_SHARE_CHART_N_COLORS + 1)

static guint32
color_of_index (guint8 index)
{
  if (index == GREYED)
    return GREYED_OUT;

  return index >= TES_SHARE_CHART_N_COLORS ? MIXED : tes_share_chart_palette[index];
}

/* While a search is on, what does not match steps back. */
static guint8
box_shown_color (TesReport           *report,
                 const TesTraceFrame *frame,
                 const TesTraceBox   *box)
{
  if (frame->searching && !box->matched)
    return GREYED;

  return box_color_index (report, box);
}

/* Boxes as vectors, for SVG and PDF: one path per colour. */
static void
fill_boxes_vector (cairo_t             *cr,
                   TesReport           *report,
                   const TesTraceFrame *frame,
                   GArray              *boxes,
                   double               y)
{
  g_autofree guint8 *colors = g_new (guint8, boxes->len);

  for (guint i = 0; i < boxes->len; i++)
    colors[i] = box_shown_color (report, frame, &g_array_index (boxes, TesTraceBox, i));

  for (guint c = 0; c <= GREYED; c++)
    {
      gboolean any = FALSE;

      for (guint i = 0; i < boxes->len; i++)
        {
          const TesTraceBox *box = &g_array_index (boxes, TesTraceBox, i);

          if (colors[i] != c)
            continue;
          cairo_rectangle (cr, box->x0, y + 2 + box->row * TES_TRACE_ROW_HEIGHT,
                           box->x1 - box->x0, TES_TRACE_ROW_HEIGHT - 2);
          any = TRUE;
        }

      if (any)
        {
          tes_painter_set_rgb (cr, color_of_index (c));
          cairo_fill (cr);
        }
    }
}

/* Boxes' colours, as pixels: a name's colour is a hash of its text, and
 * a frame has tens of thousands of boxes, so the names met are kept
 * (direct-mapped) for the frame. */
typedef struct
{
  guint32 names[256];   /* name id + 1; 0: empty */
  guint8  colors[256];
} ColorCache;

static guint8
cached_color (ColorCache          *cache,
              TesReport           *report,
              const TesTraceFrame *frame,
              const TesTraceBox   *box)
{
  guint slot = box->name & 0xff;

  if (box->label != NULL || (frame->searching && !box->matched))
    return box_shown_color (report, frame, box);
  if (cache->names[slot] != box->name + 1)
    {
      cache->names[slot] = box->name + 1;
      cache->colors[slot] = box_color_index (report, box);
    }

  return cache->colors[slot];
}

/* Every pixel of the lanes' area: each lane's stripe and boxes
 * (tes-trace-raster.c), the background above, between and below. */
static void
fill_lanes_raster (TesTraceRaster      *raster,
                   TesReport           *report,
                   const TesTraceFrame *frame)
{
  g_autofree TesTraceRasterLane *lanes = g_new0 (TesTraceRasterLane, frame->lanes->len);
  g_autoptr(GPtrArray) colors = g_ptr_array_new_with_free_func (g_free);
  ColorCache cache = { { 0 } };

  for (guint i = 0; i < frame->lanes->len; i++)
    {
      const TesTraceLane *lane = &g_array_index (frame->lanes, TesTraceLane, i);
      GArray *boxes = g_ptr_array_index (frame->boxes, i);

      lanes[i].y = lane->y;
      lanes[i].height = lane->height;
      lanes[i].stripe = 0xff000000 | (i % 2 ? LANE_ODD : LANE_EVEN);
      if (boxes != NULL && boxes->len > 0)
        {
          guint32 *argb = g_new (guint32, boxes->len);

          for (guint b = 0; b < boxes->len; b++)
            argb[b] = 0xff000000 | color_of_index (cached_color (&cache, report, frame,
                                                                 &g_array_index (boxes, TesTraceBox, b)));
          lanes[i].boxes = (const TesTraceBox *)(gpointer)boxes->data;
          lanes[i].n_boxes = boxes->len;
          lanes[i].colors = argb;
          g_ptr_array_add (colors, argb);
        }
    }

  raster->lanes_top = TES_TRACE_RULER_HEIGHT;
  raster->scroll_y = frame->scroll_y;
  raster->background = 0xff000000 | LANE_EVEN;
  tes_trace_raster_lanes (raster, lanes, frame->lanes->len);
}

/* Whether @cr draws on whole pixels of an image at @scale (no rotation,
 * no fraction of a pixel in its offset): there an image drawn at the
 * same scale lands pixel on pixel. */
static gboolean
pixel_aligned (cairo_t *cr,
               double  *scale)
{
  cairo_surface_t *target = cairo_get_target (cr);
  double sx, sy, x = 0, y = 0;
  cairo_matrix_t m;

  if (cairo_surface_get_type (target) != CAIRO_SURFACE_TYPE_IMAGE)
    return FALSE;
  cairo_surface_get_device_scale (target, &sx, &sy);
  cairo_get_matrix (cr, &m);
  cairo_user_to_device (cr, &x, &y);
  *scale = sx;

  return sx == sy && m.xx == 1 && m.yy == 1 && m.xy == 0 && m.yx == 0 && x == floor (x) && y == floor (y);
}

/* Whether the lanes' image can be written straight into @cr's target: an
 * image of 32-bit pixels at the raster's scale, drawn on at whole pixels,
 * no clip cutting into the lanes' area. Then there is no image of the
 * lanes to fill, copy and throw away: a frame writes its pixels once. */
static gboolean
raster_in_target (cairo_t        *cr,
                  TesTraceRaster *raster)
{
  cairo_surface_t *target = cairo_get_target (cr);
  double scale, x0, y0, x1, y1, ox, oy;
  int tw, th;

  if (!pixel_aligned (cr, &scale) || scale != raster->scale ||
      (cairo_image_surface_get_format (target) != CAIRO_FORMAT_ARGB32 &&
       cairo_image_surface_get_format (target) != CAIRO_FORMAT_RGB24))
    return FALSE;

  /* where the lanes' area lands, in the target's pixels */
  ox = raster->x_origin;
  oy = raster->y_origin;
  cairo_user_to_device (cr, &ox, &oy);
  tw = cairo_image_surface_get_width (target);
  th = cairo_image_surface_get_height (target);
  if (ox != floor (ox) || oy != floor (oy) || ox < 0 || oy < 0 ||
      ox + raster->width > tw || oy + raster->height > th)
    return FALSE;

  cairo_clip_extents (cr, &x0, &y0, &x1, &y1);
  if (x0 > raster->x_origin || y0 > raster->y_origin ||
      x1 < raster->x_origin + raster->width / raster->scale || y1 < raster->y_origin + raster->height / raster->scale)
    return FALSE;

  cairo_surface_flush (target);
  raster->stride = cairo_image_surface_get_stride (target) / 4;
  raster->data = (guint32 *)(gpointer)cairo_image_surface_get_data (target) + (gsize)oy * raster->stride + (gsize)ox;

  return raster->data != NULL;
}

/* The lanes' stripes and every box, as pixels. */
static void
draw_lanes_raster (cairo_t             *cr,
                   TesReport           *report,
                   const TesTraceFrame *frame,
                   const TesTraceStyle *style,
                   double               width,
                   double               height)
{
  TesTraceRaster raster = { 0 };
  g_autofree guint32 *pixels = NULL;
  gboolean direct;

  raster.scale = MAX (style->scale_factor, 1);
  raster.x_origin = TES_TRACE_LABEL_WIDTH;
  raster.y_origin = TES_TRACE_RULER_HEIGHT;
  raster.width = (int)ceil ((width - TES_TRACE_LABEL_WIDTH) * raster.scale);
  raster.height = (int)ceil ((height - TES_TRACE_RULER_HEIGHT) * raster.scale);
  raster.width = MAX (raster.width, 1);
  raster.height = MAX (raster.height, 1);

  if (!(direct = raster_in_target (cr, &raster)))
    {
      raster.stride = cairo_format_stride_for_width (CAIRO_FORMAT_ARGB32, raster.width) / 4;
      /* every pixel is written below: no need to clear it first */
      pixels = g_malloc ((gsize)raster.stride * raster.height * 4);
      raster.data = pixels;
    }

  /* straight into the target, nothing reads the lanes' pixels back
   * soon; an image of them is copied into the target at once */
  raster.stream = direct;
  fill_lanes_raster (&raster, report, frame);

  if (direct)
    {
      double x = raster.x_origin, y = raster.y_origin;

      cairo_user_to_device (cr, &x, &y);
      cairo_surface_mark_dirty_rectangle (cairo_get_target (cr), (int)x, (int)y, raster.width, raster.height);
    }
  else
    {
      /* opaque pixels: as ARGB32 the copy below is a plain copy */
      cairo_surface_t *image = cairo_image_surface_create_for_data ((guchar *)pixels, CAIRO_FORMAT_ARGB32,
                                                                    raster.width, raster.height, raster.stride * 4);

      cairo_surface_set_device_scale (image, raster.scale, raster.scale);
      cairo_set_source_surface (cr, image, TES_TRACE_LABEL_WIDTH, TES_TRACE_RULER_HEIGHT);
      cairo_set_operator (cr, CAIRO_OPERATOR_SOURCE);
      cairo_paint (cr);
      cairo_set_operator (cr, CAIRO_OPERATOR_OVER);
      cairo_surface_finish (image);
      cairo_surface_destroy (image);
    }
}

/* 2680000000 as "2.68 G": a counter's scale, short enough for a lane. */
static char *
format_compact (double value)
{
  static const struct { double scale; const char *suffix; } units[] = {
    { 1e12, "T" }, { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (fabs (value) >= units[i].scale)
      return g_strdup_printf ("%.3g %s", value / units[i].scale, units[i].suffix);

  return g_strdup_printf ("%.3g", value);
}

/* A counter series as a small chart: the area under its value, the range
 * it takes within each column, its highest value in view written at the
 * top right. */
static void
draw_counter (TesPainter         *p,
              TesReport          *report,
              const TesTraceLane *lane,
              GArray             *values,
              const TesTraceScale *scale,
              double              y)
{
  cairo_t *cr = p->cr;
  const TesTrack *track = tes_report_get_track (report, lane->track_id);
  double lo = 0, hi = 0, column = scale->width / MAX (values->len, 1);
  double top = y + 4, h = lane->height - 8, baseline;
  g_autofree char *label = NULL;
  gboolean any = FALSE;

  for (guint i = 0; i < values->len; i++)
    {
      const TesCounterBucket *bucket = &g_array_index (values, TesCounterBucket, i);

      if (!bucket->has_value)
        continue;
      lo = any ? MIN (lo, bucket->min) : MIN (0, bucket->min);
      hi = any ? MAX (hi, bucket->max) : MAX (0, bucket->max);
      any = TRUE;
    }
  if (!any)
    return;
  if (hi <= lo)
    hi = lo + 1;

#define VALUE_Y(v) (top + h * (1 - ((v) - lo) / (hi - lo)))

  /* In each column, the area under the value and the range the value
   * takes there, as one span: both hold the last value. A run of columns
   * with values is one outline, its tops left to right, then its bottoms
   * back: thousands of overlapping rectangles cost cairo 10-20 ms. Its
   * corners on whole pixels, so that cairo fills it as boxes: a third of
   * the whole run's frame of a trace with two counters otherwise. */
  baseline = VALUE_Y (MAX (lo, 0));
  tes_painter_set_rgb (cr, tes_share_chart_palette[tes_trace_color_index (track->name)]);
  for (guint i = 0; i < values->len;)
    {
      guint end = i;

      if (!g_array_index (values, TesCounterBucket, i).has_value)
        {
          i++;
          continue;
        }
      while (end < values->len && g_array_index (values, TesCounterBucket, end).has_value)
        end++;

      for (guint j = i; j < end; j++)
        {
          const TesCounterBucket *bucket = &g_array_index (values, TesCounterBucket, j);
          double x = scale->x0 + j * column, upper = round (MIN (VALUE_Y (bucket->max), baseline));

          if (j == i)
            cairo_move_to (cr, x, upper);
          else
            cairo_line_to (cr, x, upper);
          cairo_line_to (cr, x + MAX (column, 1), upper);
        }
      for (guint j = end; j-- > i;)
        {
          const TesCounterBucket *bucket = &g_array_index (values, TesCounterBucket, j);
          double x = scale->x0 + j * column;
          double lower = round (MAX (MAX (VALUE_Y (bucket->min), VALUE_Y (bucket->max) + 1), baseline));

          cairo_line_to (cr, x + MAX (column, 1), lower);
          cairo_line_to (cr, x, lower);
        }
      cairo_close_path (cr);
      i = end;
    }
  cairo_fill (cr);

#undef VALUE_Y

  /* on a backdrop: a series at its highest at the right edge would hide it */
  label = format_compact (hi);
  {
    double w = tes_painter_text_width (p, label);

    cairo_set_source_rgba (cr, 1, 1, 1, 0.85);
    cairo_rectangle (cr, scale->x0 + scale->width - 4 - w - 3, y + 1, w + 6, TES_TRACE_ROW_HEIGHT - 3);
    cairo_fill (cr);
  }
  tes_painter_text (p, label, scale->x0 + scale->width - 80, y + 1, 76, PANGO_ALIGN_RIGHT, FALSE, DIM_INK);
}

/* Flows as arrows from one lane to another. More than this many in view
 * would hide the slices under their lines: zoom in to see them. */
#define MAX_FLOWS_DRAWN 150

static void
draw_flows (cairo_t             *cr,
            const TesTraceFrame *frame)
{
  if (frame->flows == NULL || frame->flows->len > MAX_FLOWS_DRAWN)
    return;

  for (guint i = 0; i < frame->flows->len; i++)
    {
      const TesFlow *flow = &g_array_index (frame->flows, TesFlow, i);
      guint from = GPOINTER_TO_UINT (g_hash_table_lookup (frame->lane_of_track, &flow->from_track));
      guint to = GPOINTER_TO_UINT (g_hash_table_lookup (frame->lane_of_track, &flow->to_track));
      double x0, y0, x1, y1, angle;

      /* both ends on lanes that are laid out (not folded away) */
      if (from == 0 || to == 0)
        continue;

      x0 = tes_trace_scale_x (&frame->scale, flow->from_ts);
      x1 = tes_trace_scale_x (&frame->scale, flow->to_ts);
      y0 = TES_TRACE_RULER_HEIGHT + g_array_index (frame->lanes, TesTraceLane, from - 1).y - frame->scroll_y + 2 +
           TES_TRACE_ROW_HEIGHT / 2;
      y1 = TES_TRACE_RULER_HEIGHT + g_array_index (frame->lanes, TesTraceLane, to - 1).y - frame->scroll_y + 2 +
           TES_TRACE_ROW_HEIGHT / 2;

      tes_painter_set_rgb (cr, INK);
      cairo_set_line_width (cr, 1.2);
      cairo_move_to (cr, x0, y0);
      cairo_curve_to (cr, x0 + (x1 - x0) / 2, y0, x0 + (x1 - x0) / 2, y1, x1, y1);
      cairo_stroke (cr);

      angle = x1 >= x0 ? 0 : G_PI;
      cairo_move_to (cr, x1, y1);
      cairo_line_to (cr, x1 - 7 * cos (angle) - 3 * sin (angle), y1 - 3);
      cairo_line_to (cr, x1 - 7 * cos (angle) + 3 * sin (angle), y1 + 3);
      cairo_close_path (cr);
      cairo_fill (cr);
    }
}

/* Runs: where each starts and ends, across the lanes, named in the ruler. */
static void
draw_runs (TesPainter          *p,
           const TesTraceFrame *frame,
           double               height)
{
  cairo_t *cr = p->cr;
  static const double dash[] = { 4, 3 };
  /* dense runs: their edges as solid ticks under the ruler's times */
  gboolean dense = frame->runs != NULL &&
                   tes_trace_runs_dense (&frame->scale, (const TesRun *)(gpointer)frame->runs->data,
                                         frame->runs->len);
  double top = dense ? TES_TRACE_RULER_HEIGHT - 6 : TES_TRACE_MINIMAP_HEIGHT;
  double bottom = dense ? TES_TRACE_RULER_HEIGHT : height;

  for (guint i = 0; frame->runs != NULL && i < frame->runs->len; i++)
    {
      const TesRun *run = &g_array_index (frame->runs, TesRun, i);
      double x0 = tes_trace_scale_x (&frame->scale, run->start);
      double x1 = tes_trace_scale_x (&frame->scale, run->end);

      cairo_save (cr);
      cairo_set_source_rgba (cr, 0x61 / 255., 0x35 / 255., 0x83 / 255., 0.8);
      cairo_set_line_width (cr, 1);
      if (!dense)
        cairo_set_dash (cr, dash, G_N_ELEMENTS (dash), 0);
      for (guint e = 0; e < 2; e++)
        {
          double x = floor (e ? x1 : x0) + 0.5;

          if (x < TES_TRACE_LABEL_WIDTH)
            continue;
          cairo_move_to (cr, x, top);
          cairo_line_to (cr, x, bottom);
        }
      cairo_stroke (cr);
      cairo_restore (cr);
    }

  if (frame->runs != NULL)
    {
      g_autoptr(GArray) labels = tes_trace_run_labels (&frame->scale, (const TesRun *)(gpointer)frame->runs->data,
                                                       frame->runs->len);

      for (guint i = 0; i < labels->len; i++)
        {
          const TesTraceRunLabel *label = &g_array_index (labels, TesTraceRunLabel, i);

          tes_painter_text (p, label->text, label->x, TES_TRACE_RULER_HEIGHT - 14, label->width,
                            PANGO_ALIGN_LEFT, TRUE, RUN_INK);
        }
    }
}

/* Tile balance: each BSP step shaded in its IPU's row by the share of
 * the IPU's tiles at work in it, the share written where it fits. */
static void
draw_balance (TesPainter          *p,
              const TesTraceFrame *frame,
              double               width)
{
  cairo_t *cr = p->cr;

  for (guint i = 0; frame->balance != NULL && i < frame->balance->len; i++)
    {
      const TesTraceBalance *balance = g_ptr_array_index (frame->balance, i);
      guint lane_index = GPOINTER_TO_UINT (g_hash_table_lookup (frame->lane_of_track, &balance->group_track));
      const TesTraceLane *lane;
      double y;

      if (lane_index == 0)
        continue;
      lane = &g_array_index (frame->lanes, TesTraceLane, lane_index - 1);
      y = TES_TRACE_RULER_HEIGHT + lane->y - frame->scroll_y;

      for (guint s = 0; s < balance->steps->len; s++)
        {
          const TesTraceStepBalance *step = &g_array_index (balance->steps, TesTraceStepBalance, s);
          double x0 = MAX (tes_trace_scale_x (&frame->scale, step->start), TES_TRACE_LABEL_WIDTH);
          double x1 = MIN (tes_trace_scale_x (&frame->scale, step->end), width);

          if (x1 <= x0)
            continue;

          cairo_set_source_rgba (cr, 0x26 / 255., 0xa2 / 255., 0x69 / 255., 0.15 + 0.85 * step->active);
          cairo_rectangle (cr, x0, y + 3, MAX (x1 - x0 - 1, 1), lane->height - 6);
          cairo_fill (cr);

          if (x1 - x0 > 40)
            {
              g_autofree char *share = g_strdup_printf ("%.0f %%", 100 * step->active);

              tes_painter_text (p, share, x0 + 3, y + 3, x1 - x0 - 6, PANGO_ALIGN_LEFT, FALSE,
                                step->active > 0.5 ? 0xffffff : INK);
            }
        }
    }
}

/* Names and the selection's outline, over the boxes. */
static void
draw_box_marks (TesPainter          *p,
                TesReport           *report,
                const TesTraceFrame *frame,
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

      /* Group Executions' box: named after its path's last level */
      if (box->label != NULL)
        {
          double x0 = MAX (box->x0, TES_TRACE_LABEL_WIDTH);
          const char *slash = g_strrstr_len (box->label, box->label_len, "/");
          const char *last = slash ? slash + 1 : box->label;
          g_autofree char *text = g_strndup (last, box->label_len - (last - box->label));

          if (style->show_text && box->x1 - x0 > 36)
            tes_painter_text (p, text, x0 + 3, by + 1, box->x1 - x0 - 6, PANGO_ALIGN_LEFT, FALSE,
                              frame->searching && !box->matched
                                ? DIM_INK : text_on (color_of_index (box_color_index (report, box))));
          continue;
        }

      if (box->n_slices != 1)
        continue;

      if (style->show_text && box->x1 - box->x0 > 36)
        {
          const char *name = tes_report_get_string (report, box->name);
          double x0 = MAX (box->x0, TES_TRACE_LABEL_WIDTH);

          if (name != NULL && box->x1 - x0 > 36)
            tes_painter_text (p, name, x0 + 3, by + 1, box->x1 - x0 - 6, PANGO_ALIGN_LEFT, FALSE,
                              frame->searching && !box->matched
                                ? DIM_INK : text_on (color_of_index (box_color_index (report, box))));
        }

      if (style->selected.track_id == lane->track_id && box->index == style->selected.index)
        {
          tes_painter_set_rgb (cr, INK);
          cairo_set_line_width (cr, 2);
          cairo_rectangle (cr, box->x0 + 1, by + 1, MAX (box->x1 - box->x0 - 2, 1), bh - 2);
          cairo_stroke (cr);
        }
    }
}

static gboolean
is_vector_target (cairo_t *cr)
{
  switch (cairo_surface_get_type (cairo_get_target (cr)))
    {
    case CAIRO_SURFACE_TYPE_PDF:
    case CAIRO_SURFACE_TYPE_PS:
    case CAIRO_SURFACE_TYPE_SVG:
      return TRUE;
    default:
      return FALSE;
    }
}

/* The whole run in miniature, its band without the visible range: how
 * busy the lanes are along it. */
static void
draw_minimap_band (TesPainter          *p,
                   const TesTraceFrame *frame,
                   double               width)
{
  cairo_t *cr = p->cr;
  double x0 = TES_TRACE_LABEL_WIDTH, w = width - TES_TRACE_LABEL_WIDTH;
  double h = TES_TRACE_MINIMAP_HEIGHT - 4;

  tes_painter_set_rgb (cr, MINIMAP_BG);
  cairo_rectangle (cr, 0, 0, width, TES_TRACE_MINIMAP_HEIGHT);
  cairo_fill (cr);
  tes_painter_text (p, _("Whole run"), 8, 3, TES_TRACE_LABEL_WIDTH - 16, PANGO_ALIGN_LEFT, FALSE, DIM_INK);

  if (frame->overview != NULL && frame->overview->len > 0)
    {
      double column = w / frame->overview->len;

      tes_painter_set_rgb (cr, MINIMAP_INK);
      for (guint i = 0; i < frame->overview->len; i++)
        {
          double busy = g_array_index (frame->overview, double, i);

          if (busy > 0)
            cairo_rectangle (cr, x0 + i * column, 2 + h * (1 - busy), MAX (column, 1), MAX (h * busy, 1));
        }
      cairo_fill (cr);
    }
}

/* The band as last drawn, per thread: it changes with the width alone,
 * and its thousand-odd bars are most of the ruler's cost. */
typedef struct
{
  double           width;
  double           scale;
  GArray          *overview;   /* a copy of what it shows */
  cairo_surface_t *band;
} KeptBand;

static void
kept_band_free (gpointer data)
{
  KeptBand *kept = data;

  g_clear_pointer (&kept->overview, g_array_unref);
  g_clear_pointer (&kept->band, cairo_surface_destroy);
  g_free (kept);
}

static gboolean
same_overview (GArray *a,
               GArray *b)
{
  if (a == NULL || b == NULL)
    return a == b;

  return a->len == b->len && memcmp (a->data, b->data, a->len * sizeof (double)) == 0;
}

/* The whole run in miniature, and the part shown below framed. */
static void
draw_minimap (TesPainter          *p,
              const TesTraceFrame *frame,
              double               width)
{
  static GPrivate kept_key = G_PRIVATE_INIT (kept_band_free);
  cairo_t *cr = p->cr;
  double x0 = TES_TRACE_LABEL_WIDTH, w = width - TES_TRACE_LABEL_WIDTH;
  double run = (double)MAX (frame->end - frame->origin, 1);
  double a, b, scale;

  if (pixel_aligned (cr, &scale))
    {
      KeptBand *kept = g_private_get (&kept_key);

      if (kept == NULL)
        g_private_set (&kept_key, (kept = g_new0 (KeptBand, 1)));
      if (kept->band == NULL || kept->width != width || kept->scale != scale ||
          !same_overview (kept->overview, frame->overview))
        {
          TesPainter band_painter;
          cairo_t *band_cr;

          g_clear_pointer (&kept->band, cairo_surface_destroy);
          g_clear_pointer (&kept->overview, g_array_unref);
          kept->width = width;
          kept->scale = scale;
          kept->overview = frame->overview ? g_array_copy (frame->overview) : NULL;
          kept->band = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int)ceil (width * scale),
                                                   (int)ceil (TES_TRACE_MINIMAP_HEIGHT * scale));
          cairo_surface_set_device_scale (kept->band, scale, scale);
          band_cr = cairo_create (kept->band);
          tes_painter_init (&band_painter, band_cr, p->font);
          tes_painter_keep_layouts (&band_painter, p->layouts);
          draw_minimap_band (&band_painter, frame, width);
          tes_painter_clear (&band_painter);
          cairo_destroy (band_cr);
        }

      /* opaque, pixel on pixel: the same pixels as drawing it here */
      cairo_set_source_surface (cr, kept->band, 0, 0);
      cairo_rectangle (cr, 0, 0, width, TES_TRACE_MINIMAP_HEIGHT);
      cairo_fill (cr);
    }
  else
    draw_minimap_band (p, frame, width);

  /* the visible range */
  a = x0 + w * (frame->scale.t0 - frame->origin) / run;
  b = x0 + w * (frame->scale.t1 - frame->origin) / run;
  b = MAX (b, a + 2);
  cairo_set_source_rgba (cr, 0x1c / 255., 0x71 / 255., 0xd8 / 255., 0.18);
  cairo_rectangle (cr, a, 1, b - a, TES_TRACE_MINIMAP_HEIGHT - 2);
  cairo_fill_preserve (cr);
  tes_painter_set_rgb (cr, SELECTION);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);
}

static void
draw_ruler (TesPainter          *p,
            const TesTraceFrame *frame,
            const TesTraceStyle *style,
            double               width,
            double               height)
{
  cairo_t *cr = p->cr;
  g_autoptr(GArray) ticks = tes_trace_ruler_ticks (&frame->scale, frame->ruler_origin, style->unit,
                                                   style->cycles_per_second, 90);
  double top = TES_TRACE_MINIMAP_HEIGHT;

  draw_minimap (p, frame, width);

  tes_painter_set_rgb (cr, RULER_BG);
  cairo_rectangle (cr, 0, top, width, TES_TRACE_RULER_HEIGHT - top);
  cairo_fill (cr);

  /* the minor ticks, one stroke: they meet neither each other nor the
   * labels, which end above them */
  tes_painter_set_rgb (cr, RULE);
  cairo_set_line_width (cr, 1);
  for (guint i = 0; i < ticks->len; i++)
    {
      const TesTraceTick *tick = &g_array_index (ticks, TesTraceTick, i);
      double x = floor (tick->x) + 0.5;

      if (x < TES_TRACE_LABEL_WIDTH || tick->major)
        continue;
      cairo_move_to (cr, x, top + 20);
      cairo_line_to (cr, x, TES_TRACE_RULER_HEIGHT);
    }
  cairo_stroke (cr);

  for (guint i = 0; i < ticks->len; i++)
    {
      const TesTraceTick *tick = &g_array_index (ticks, TesTraceTick, i);
      double x = floor (tick->x) + 0.5;

      if (x < TES_TRACE_LABEL_WIDTH || !tick->major)
        continue;

      tes_painter_set_rgb (cr, DIM_INK);
      cairo_set_line_width (cr, 1);
      cairo_move_to (cr, x, top + 12);
      cairo_line_to (cr, x, TES_TRACE_RULER_HEIGHT);
      cairo_stroke (cr);

      /* the grid behind the lanes, faint */
      cairo_set_source_rgba (cr, 0, 0, 0, 0.06);
      cairo_move_to (cr, x, TES_TRACE_RULER_HEIGHT);
      cairo_line_to (cr, x, height);
      cairo_stroke (cr);
      tes_painter_text (p, tick->label, x + 3, top, 0, PANGO_ALIGN_LEFT, FALSE, DIM_INK);
    }

  tes_painter_set_rgb (cr, RULE);
  cairo_move_to (cr, 0, TES_TRACE_RULER_HEIGHT - 0.5);
  cairo_line_to (cr, width, TES_TRACE_RULER_HEIGHT - 0.5);
  cairo_stroke (cr);
}

/* Show Terminals: a line where each process ends, down its lanes (from
 * the process's lane to the next lane at the top of the tree). */
static void
draw_terminals (cairo_t             *cr,
                const TesTraceFrame *frame,
                double               height)
{
  if (frame->terminals == NULL)
    return;

  tes_painter_set_rgb (cr, INK);
  cairo_set_line_width (cr, 2);
  for (guint t = 0; t < frame->terminals->len; t++)
    {
      const TesTraceTerminal *terminal = &g_array_index (frame->terminals, TesTraceTerminal, t);
      gpointer index = g_hash_table_lookup (frame->lane_of_track, &terminal->track_id);
      double x = tes_trace_scale_x (&frame->scale, terminal->end);
      guint first, last;
      double y0, y1;

      if (index == NULL || x < frame->scale.x0 || x > frame->scale.x0 + frame->scale.width + 1)
        continue;
      first = GPOINTER_TO_UINT (index) - 1;
      for (last = first + 1; last < frame->lanes->len; last++)
        if (g_array_index (frame->lanes, TesTraceLane, last).level == 0)
          break;
      y0 = TES_TRACE_RULER_HEIGHT + g_array_index (frame->lanes, TesTraceLane, first).y - frame->scroll_y;
      y1 = TES_TRACE_RULER_HEIGHT + g_array_index (frame->lanes, TesTraceLane, last - 1).y +
           g_array_index (frame->lanes, TesTraceLane, last - 1).height - frame->scroll_y;
      if (y1 < TES_TRACE_RULER_HEIGHT || y0 > height)
        continue;
      cairo_move_to (cr, round (x) - 1, y0 + 1);
      cairo_line_to (cr, round (x) - 1, y1 - 1);
      cairo_stroke (cr);
    }
}

/* The lanes' names, the ruler's labels and the boxes' names, laid out
 * once for the frames after (a view panning draws the same again): per
 * thread, as frames may be drawn from any. */
static TesPainterLayouts *
kept_layouts (void)
{
  static GPrivate layouts = G_PRIVATE_INIT ((GDestroyNotify)tes_painter_layouts_free);
  TesPainterLayouts *table = g_private_get (&layouts);

  if (table == NULL)
    g_private_set (&layouts, (table = tes_painter_layouts_new ()));

  return table;
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
  gboolean vector = is_vector_target (cr);
  TesPainter p;

  g_return_if_fail (cr != NULL && frame != NULL && style != NULL);

  tes_painter_init (&p, cr, FONT);
  if (!vector)
    tes_painter_keep_layouts (&p, kept_layouts ());
  cairo_save (cr);

  /* white under all; as pixels, the lanes' image and the ruler cover
   * all but the names' column, which is all there is to clear */
  tes_painter_set_rgb (cr, LANE_EVEN);
  if (vector)
    cairo_paint (cr);
  else
    {
      cairo_rectangle (cr, 0, TES_TRACE_RULER_HEIGHT, MIN (width, TES_TRACE_LABEL_WIDTH),
                       height - TES_TRACE_RULER_HEIGHT);
      cairo_fill (cr);
    }

  /* the lanes, under the ruler */
  cairo_save (cr);
  cairo_rectangle (cr, 0, TES_TRACE_RULER_HEIGHT, width, height - TES_TRACE_RULER_HEIGHT);
  cairo_clip (cr);

  /* backgrounds, then every lane's boxes, then names and marks on top;
   * in the raster, the lanes' backgrounds are its own pixels */
  for (guint i = 0; i < frame->lanes->len; i++)
    {
      const TesTraceLane *lane = &g_array_index (frame->lanes, TesTraceLane, i);
      double y = TES_TRACE_RULER_HEIGHT + lane->y - frame->scroll_y;

      if (y + lane->height < TES_TRACE_RULER_HEIGHT || y > height)
        continue;

      tes_painter_set_rgb (cr, i % 2 ? LANE_ODD : LANE_EVEN);
      cairo_rectangle (cr, 0, y, vector ? width : TES_TRACE_LABEL_WIDTH, lane->height);
      cairo_fill (cr);
    }

  cairo_save (cr);
  cairo_rectangle (cr, TES_TRACE_LABEL_WIDTH, TES_TRACE_RULER_HEIGHT,
                   width - TES_TRACE_LABEL_WIDTH, height - TES_TRACE_RULER_HEIGHT);
  cairo_clip (cr);
  if (vector)
    {
      for (guint i = 0; i < frame->lanes->len; i++)
        if (g_ptr_array_index (frame->boxes, i) != NULL)
          fill_boxes_vector (cr, report, frame, g_ptr_array_index (frame->boxes, i),
                             TES_TRACE_RULER_HEIGHT + g_array_index (frame->lanes, TesTraceLane, i).y - frame->scroll_y);
    }
  else
    draw_lanes_raster (cr, report, frame, style, width, height);

  for (guint i = 0; i < frame->lanes->len; i++)
    {
      const TesTraceLane *lane = &g_array_index (frame->lanes, TesTraceLane, i);
      double y = TES_TRACE_RULER_HEIGHT + lane->y - frame->scroll_y;

      if (g_ptr_array_index (frame->boxes, i) != NULL)
        draw_box_marks (&p, report, frame, lane, g_ptr_array_index (frame->boxes, i), style, y);
      if (g_ptr_array_index (frame->counters, i) != NULL)
        draw_counter (&p, report, lane, g_ptr_array_index (frame->counters, i), &frame->scale, y);
    }
  draw_balance (&p, frame, width);
  draw_terminals (cr, frame, height);
  draw_flows (cr, frame);
  cairo_restore (cr);

  for (guint i = 0; i < frame->lanes->len; i++)
    {
      const TesTraceLane *lane = &g_array_index (frame->lanes, TesTraceLane, i);
      double y = TES_TRACE_RULER_HEIGHT + lane->y - frame->scroll_y;

      if (y + lane->height >= TES_TRACE_RULER_HEIGHT && y <= height)
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
  draw_runs (&p, frame, height);

  if (frame->lanes->len == 0)
    tes_painter_text (&p, _("This report has no timed events to draw"), TES_TRACE_LABEL_WIDTH + 12,
                      TES_TRACE_RULER_HEIGHT + 12, width - TES_TRACE_LABEL_WIDTH - 24, PANGO_ALIGN_LEFT,
                      FALSE, DIM_INK);

  cairo_restore (cr);
  tes_painter_clear (&p);
}

/* @ns as cycles of the slice's own clock when its lane counts cycles (a
 * device's clock may differ from another's), else of the report's cycles
 * clock; NULL when the report has no clock to count them with. */
char *
tes_trace_format_cycles (TesWorkspace   *workspace,
                         const TesTrack *track,
                         gint64          ns)
{
  TesReport *report = tes_workspace_get_report (workspace);
  const TesClock *clock = track ? tes_report_get_clock (report, track->clock_id) : NULL;

  if (clock == NULL || clock->unit != TES_TIME_UNIT_CYCLES || clock->ticks_per_second <= 0)
    {
      if (!tes_workspace_time_unit_available (workspace, TES_TIME_UNIT_CYCLES, NULL))
        return NULL;
      clock = tes_report_get_clock (report, tes_workspace_get_cycles_clock (workspace));
    }

  return tes_format_duration ((double)ns * clock->ticks_per_second / 1e9, TES_TIME_UNIT_CYCLES);
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
  style->scale_factor = 1;
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

  {
    TesTraceRequest request = {
      .scale = scale,
      .mode = mode,
      .view_height = height - TES_TRACE_RULER_HEIGHT,
      .show_flows = TRUE,
      .show_runs = TRUE,
      /* a no-op for reports without BSP steps */
      .tile_balance = TRUE,
    };

    frame = tes_trace_frame_build (report, &request, NULL, error);
  }
  if (frame == NULL)
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
