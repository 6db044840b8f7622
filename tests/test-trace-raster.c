/* test-trace-raster.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tes_trace_raster_lanes () writes each pixel of the lanes' area once;
 * these cases check that its pixels are those of the definition, written
 * out here as plainly as it reads: a lane at a time, the background
 * above the lane and its stripe, then each box on every line of its row,
 * later boxes over earlier ones; the background below the last lane.
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "tes-trace-raster.h"

#define BACKGROUND 0xffffffffu

static void
definition_fill (const TesTraceRaster *raster,
                 int                   y0,
                 int                   y1,
                 guint32               argb)
{
  for (int y = MAX (y0, 0); y < MIN (y1, raster->height); y++)
    for (int x = 0; x < raster->width; x++)
      raster->data[(gsize)y * raster->stride + x] = argb;
}

static void
definition (const TesTraceRaster     *raster,
            const TesTraceRasterLane *lanes,
            guint                     n_lanes)
{
  int done = 0;

  for (guint i = 0; i < n_lanes; i++)
    {
      const TesTraceRasterLane *lane = &lanes[i];
      int y0 = (int)floor ((lane->y - raster->scroll_y) * raster->scale);
      int y1 = (int)floor ((lane->y + lane->height - raster->scroll_y) * raster->scale);
      double y = raster->lanes_top + lane->y - raster->scroll_y;

      if (done < raster->height && y1 > 0)
        {
          definition_fill (raster, done, y0, raster->background);
          definition_fill (raster, MAX (y0, done), y1, lane->stripe);
          done = MAX (done, y1);
        }

      for (guint b = 0; b < lane->n_boxes; b++)
        {
          const TesTraceBox *box = &lane->boxes[b];
          double top = y + 2 + box->row * TES_TRACE_ROW_HEIGHT - raster->y_origin;
          int x0 = (int)floor ((box->x0 - raster->x_origin) * raster->scale);
          int x1 = MAX ((int)floor ((box->x1 - raster->x_origin) * raster->scale + 0.5), x0 + 1);
          int by0 = (int)floor (top * raster->scale);
          int by1 = (int)floor ((top + TES_TRACE_ROW_HEIGHT - 2) * raster->scale);

          for (int py = MAX (by0, 0); py < MIN (by1, raster->height); py++)
            for (int px = MAX (x0, 0); px < MIN (x1, raster->width); px++)
              raster->data[(gsize)py * raster->stride + px] = lane->colors[b];
        }
    }
  definition_fill (raster, done, raster->height, raster->background);
}

/* Draws @lanes both ways into images of @width × @height (a stride wider
 * than the image, pixels beyond it left alone) and compares them. */
static void
assert_as_defined (const TesTraceRasterLane *lanes,
                   guint                     n_lanes,
                   int                       width,
                   int                       height,
                   double                    scale,
                   double                    scroll_y)
{
  TesTraceRaster raster = {
    .width = width,
    .height = height,
    .stride = width + 3,
    .scale = scale,
    .x_origin = 200,
    .y_origin = 50,
    .lanes_top = 50,
    .scroll_y = scroll_y,
    .background = BACKGROUND,
  };
  gsize n = (gsize)raster.stride * height;
  g_autofree guint32 *expected = g_new (guint32, n);
  g_autofree guint32 *got = g_new (guint32, n);

  /* what neither should write: the stride's slack */
  for (gsize i = 0; i < n; i++)
    expected[i] = 0x12345678;

  raster.data = expected;
  definition (&raster, lanes, n_lanes);
  /* written through the caches or around them */
  for (guint stream = 0; stream < 2; stream++)
    {
      for (gsize i = 0; i < n; i++)
        got[i] = 0x12345678;
      raster.data = got;
      raster.stream = stream;
      tes_trace_raster_lanes (&raster, lanes, n_lanes);

      for (int y = 0; y < height; y++)
        for (int x = 0; x < raster.stride; x++)
          if (expected[(gsize)y * raster.stride + x] != got[(gsize)y * raster.stride + x])
            g_error ("pixel (%d, %d) at scale %g, scroll %g%s: %08x, the definition has %08x", x, y, scale,
                     scroll_y, stream ? ", streamed" : "", got[(gsize)y * raster.stride + x],
                     expected[(gsize)y * raster.stride + x]);
    }
}

/* Lanes as the trace lays them out (one under another, rows of boxes
 * within them) or not (overlapping, rows out of their lane), boxes
 * overlapping, thinner than a pixel, beyond the image's edges. */
static GArray *
random_lanes (GRand   *rand,
              GPtrArray *keep,
              gboolean   tidy)
{
  GArray *lanes = g_array_new (FALSE, TRUE, sizeof (TesTraceRasterLane));
  guint n_lanes = g_rand_int_range (rand, 0, 9);
  double y = g_rand_int_range (rand, 0, 30);

  for (guint i = 0; i < n_lanes; i++)
    {
      guint n_rows = g_rand_int_range (rand, 0, 7);
      guint n_boxes = g_rand_int_range (rand, 0, 400);
      TesTraceBox *boxes = g_new0 (TesTraceBox, n_boxes);
      guint32 *colors = g_new (guint32, n_boxes);
      TesTraceRasterLane lane = {
        .y = y,
        .height = n_rows > 0 ? n_rows * TES_TRACE_ROW_HEIGHT + 4 : 20,
        .stripe = i % 2 ? 0xfff6f5f4 : BACKGROUND,
        .boxes = boxes,
        .n_boxes = n_boxes,
        .colors = colors,
      };

      for (guint b = 0; b < n_boxes; b++)
        {
          double x0 = g_rand_double_range (rand, 150, 900);

          boxes[b].x0 = x0;
          boxes[b].x1 = x0 + (g_rand_boolean (rand) ? g_rand_double_range (rand, 0, 2)
                                                     : g_rand_double_range (rand, 0, 300));
          /* rows in order, as lanes' boxes come, or any */
          boxes[b].row = tidy ? MIN (b * MAX (n_rows, 1) / n_boxes, MAX (n_rows, 1) - 1)
                              : (guint16)g_rand_int_range (rand, 0, n_rows + 3);
          colors[b] = 0xff000000 | g_rand_int (rand);
        }
      g_ptr_array_add (keep, boxes);
      g_ptr_array_add (keep, colors);
      g_array_append_val (lanes, lane);

      y += tidy ? lane.height : lane.height + g_rand_int_range (rand, -30, 30);
    }

  return lanes;
}

static void
test_raster_as_defined (void)
{
  static const double scales[] = { 1, 1.5, 2, 0.75 };
  g_autoptr(GRand) rand = g_rand_new_with_seed (27);

  for (guint round = 0; round < 400; round++)
    {
      g_autoptr(GPtrArray) keep = g_ptr_array_new_with_free_func (g_free);
      gboolean tidy = round % 2 == 0;
      g_autoptr(GArray) lanes = random_lanes (rand, keep, tidy);
      double scroll_y = g_rand_boolean (rand) ? 0 : g_rand_double_range (rand, -40, 200);

      assert_as_defined ((const TesTraceRasterLane *)(gpointer)lanes->data, lanes->len,
                         g_rand_int_range (rand, 1, 700), g_rand_int_range (rand, 1, 300),
                         scales[round % G_N_ELEMENTS (scales)], scroll_y);
    }
}

/* The trace's own case: lanes one under another, four rows each, a box
 * per few columns on every row (as the whole run at 10M slices draws),
 * at the window's scales. */
static void
test_raster_whole_run (void)
{
  TesTraceRasterLane lanes[8];
  g_autofree TesTraceBox *boxes = g_new0 (TesTraceBox, 8 * 4 * 500);
  g_autofree guint32 *colors = g_new (guint32, 8 * 4 * 500);

  for (guint i = 0; i < G_N_ELEMENTS (lanes); i++)
    {
      TesTraceBox *lane_boxes = boxes + i * 4 * 500;
      guint32 *lane_colors = colors + i * 4 * 500;

      for (guint row = 0; row < 4; row++)
        for (guint b = 0; b < 500; b++)
          {
            TesTraceBox *box = &lane_boxes[row * 500 + b];

            box->x0 = 200 + b * 3.36;
            box->x1 = box->x0 + (b % 3 + 1) * 1.12;
            box->row = row;
            lane_colors[row * 500 + b] = 0xff000000 | (b * 2654435761u >> 8);
          }
      lanes[i] = (TesTraceRasterLane) {
        .y = 20 + i * 76.0,
        .height = 76,
        .stripe = i % 2 ? 0xfff6f5f4 : BACKGROUND,
        .boxes = lane_boxes,
        .n_boxes = 4 * 500,
        .colors = lane_colors,
      };
    }

  assert_as_defined (lanes, G_N_ELEMENTS (lanes), 1720, 1030, 1, 0);
  assert_as_defined (lanes, G_N_ELEMENTS (lanes), 3440, 2060, 2, 0);
  assert_as_defined (lanes, G_N_ELEMENTS (lanes), 2580, 1545, 1.5, 33);
  assert_as_defined (lanes, G_N_ELEMENTS (lanes), 1720, 300, 1, 250);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/tes/trace-raster/as-defined", test_raster_as_defined);
  g_test_add_func ("/tes/trace-raster/whole-run", test_raster_whole_run);

  return g_test_run ();
}
