/* tes-test-pixels.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "tes-test-pixels.h"

#include <string.h>

guint32
tes_test_pixel (cairo_surface_t *surface,
                int              x,
                int              y)
{
  const guint8 *row;

  g_assert_cmpint (x, >=, 0);
  g_assert_cmpint (y, >=, 0);
  g_assert_cmpint (x, <, cairo_image_surface_get_width (surface));
  g_assert_cmpint (y, <, cairo_image_surface_get_height (surface));

  row = cairo_image_surface_get_data (surface) + (gsize)y * cairo_image_surface_get_stride (surface);

  return *(const guint32 *)(gconstpointer)(row + 4 * x) & 0xffffff;
}

static gboolean
pixel_matches (guint32           px,
               TesTestPixelMatch match,
               guint32           rgb)
{
  int r = px >> 16, g = (px >> 8) & 0xff, b = px & 0xff;

  switch (match)
    {
    case TES_TEST_PIXEL_EQUAL:
      return px == rgb;

    case TES_TEST_PIXEL_UNLIKE:
      return MAX (MAX (ABS (r - (int)(rgb >> 16)), ABS (g - (int)((rgb >> 8) & 0xff))),
                  ABS (b - (int)(rgb & 0xff))) > 48;

    case TES_TEST_PIXEL_COLOURED:
      return MAX (MAX (r, g), b) - MIN (MIN (r, g), b) > 80;

    default:
      g_assert_not_reached ();
    }
}

/* Pixels of rows [y0, y1), across the whole width, that match. */
guint
tes_test_count_pixels (cairo_surface_t   *surface,
                       int                y0,
                       int                y1,
                       TesTestPixelMatch  match,
                       guint32            rgb)
{
  int width = cairo_image_surface_get_width (surface);
  guint n = 0;

  cairo_surface_flush (surface);
  for (int y = y0; y < y1; y++)
    for (int x = 0; x < width; x++)
      n += pixel_matches (tes_test_pixel (surface, x, y), match, rgb);

  return n;
}

/* Pixels of the box [x0, x1) × [y0, y1) whose colour differs between two
 * pictures of the same size. */
guint
tes_test_count_differing (cairo_surface_t *a,
                          cairo_surface_t *b,
                          int              x0,
                          int              y0,
                          int              x1,
                          int              y1)
{
  guint n = 0;

  g_assert_cmpint (cairo_image_surface_get_width (a), ==, cairo_image_surface_get_width (b));
  g_assert_cmpint (cairo_image_surface_get_height (a), ==, cairo_image_surface_get_height (b));
  cairo_surface_flush (a);
  cairo_surface_flush (b);
  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++)
      n += tes_test_pixel (a, x, y) != tes_test_pixel (b, x, y);

  return n;
}

/* @rows rows of @a from @a_y hold the same bytes as @b's from @b_y. */
gboolean
tes_test_same_rows (cairo_surface_t *a,
                    int              a_y,
                    cairo_surface_t *b,
                    int              b_y,
                    int              rows)
{
  int width = cairo_image_surface_get_width (a);

  g_assert_cmpint (cairo_image_surface_get_width (b), ==, width);
  g_assert_cmpint (a_y + rows, <=, cairo_image_surface_get_height (a));
  g_assert_cmpint (b_y + rows, <=, cairo_image_surface_get_height (b));
  cairo_surface_flush (a);
  cairo_surface_flush (b);
  for (int y = 0; y < rows; y++)
    if (memcmp (cairo_image_surface_get_data (a) + (gsize)(a_y + y) * cairo_image_surface_get_stride (a),
                cairo_image_surface_get_data (b) + (gsize)(b_y + y) * cairo_image_surface_get_stride (b),
                4 * (gsize)width) != 0)
      return FALSE;

  return TRUE;
}
