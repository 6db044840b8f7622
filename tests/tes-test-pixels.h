/* tes-test-pixels.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

/* What the tests read back from a picture drawn into a cairo image
 * surface (RGB24 or ARGB32): colours as 0xRRGGBB. */
typedef enum
{
  TES_TEST_PIXEL_EQUAL,     /* exactly the given colour */
  TES_TEST_PIXEL_UNLIKE,    /* off the given colour by more than a little in a channel */
  TES_TEST_PIXEL_COLOURED,  /* a strong colour (a slice or a bar, not text, grid or grey) */
} TesTestPixelMatch;

guint32  tes_test_pixel            (cairo_surface_t   *surface,
                                    int                x,
                                    int                y);
guint    tes_test_count_pixels     (cairo_surface_t   *surface,
                                    int                y0,
                                    int                y1,
                                    TesTestPixelMatch  match,
                                    guint32            rgb);
guint    tes_test_count_differing  (cairo_surface_t   *a,
                                    cairo_surface_t   *b,
                                    int                x0,
                                    int                y0,
                                    int                x1,
                                    int                y1);
gboolean tes_test_same_rows        (cairo_surface_t   *a,
                                    int                a_y,
                                    cairo_surface_t   *b,
                                    int                b_y,
                                    int                rows);

G_END_DECLS
