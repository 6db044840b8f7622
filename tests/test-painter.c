/* test-painter.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Kept layouts (tes_painter_keep_layouts ()) are laid out once and drawn
 * again in later pictures: they must draw what a layout made afresh for
 * that picture draws, also once the picture's scale or font options
 * differ from the one they were laid out for.
 */

#include "config.h"

#include <string.h>

#include "tes-painter.h"

static const char *const texts[] = {
  "Whole run", "conv2d_1/Conv2D", "250,000 ms", "IPU 0 I/O Events", "softmax", "-12,345.5 µs",
};

/* The texts drawn at @scale with @options (NULL: the surface's), kept
 * in @layouts or, NULL, laid out afresh. */
static cairo_surface_t *
draw (TesPainterLayouts    *layouts,
      double                scale,
      cairo_font_options_t *options)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int)(400 * scale),
                                                         (int)(160 * scale));
  cairo_t *cr = cairo_create (surface);
  TesPainter p;

  cairo_scale (cr, scale, scale);
  if (options != NULL)
    cairo_set_font_options (cr, options);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);

  tes_painter_init (&p, cr, "Sans 9");
  if (layouts != NULL)
    tes_painter_keep_layouts (&p, layouts);
  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    tes_painter_text (&p, texts[i], 5 + (i % 2) * 190, 5 + (i / 2) * 50, i % 3 == 0 ? 60 : 0,
                      PANGO_ALIGN_LEFT, i == 1, 0x241f31);
  tes_painter_clear (&p);

  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

static gboolean
same_pixels (cairo_surface_t *a,
             cairo_surface_t *b)
{
  int h = cairo_image_surface_get_height (a);
  int stride = cairo_image_surface_get_stride (a);

  return cairo_image_surface_get_width (a) == cairo_image_surface_get_width (b) &&
         h == cairo_image_surface_get_height (b) && stride == cairo_image_surface_get_stride (b) &&
         memcmp (cairo_image_surface_get_data (a), cairo_image_surface_get_data (b), (gsize)stride * h) == 0;
}

static gboolean
inked (cairo_surface_t *surface)
{
  const guint32 *data = (const guint32 *)(gpointer)cairo_image_surface_get_data (surface);
  gsize n = (gsize)cairo_image_surface_get_stride (surface) / 4 * cairo_image_surface_get_height (surface);

  for (gsize i = 0; i < n; i++)
    if ((data[i] & 0xffffff) != 0xffffff)
      return TRUE;
  return FALSE;
}

static void
test_kept_layouts_as_fresh (void)
{
  TesPainterLayouts *layouts = tes_painter_layouts_new ();
  cairo_font_options_t *grey = cairo_font_options_create ();
  /* in turn: as laid out, again as kept, at twice the scale, other font
   * options, and back to the first */
  static const struct { double scale; gboolean grey; } steps[] = {
    { 1, FALSE }, { 1, FALSE }, { 2, FALSE }, { 2, FALSE }, { 1, TRUE }, { 1.5, TRUE }, { 1, FALSE },
  };

  cairo_font_options_set_antialias (grey, CAIRO_ANTIALIAS_GRAY);
  cairo_font_options_set_hint_style (grey, CAIRO_HINT_STYLE_FULL);
  cairo_font_options_set_hint_metrics (grey, CAIRO_HINT_METRICS_ON);

  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    {
      cairo_surface_t *fresh = draw (NULL, steps[i].scale, steps[i].grey ? grey : NULL);
      cairo_surface_t *kept = draw (layouts, steps[i].scale, steps[i].grey ? grey : NULL);

      g_assert_true (inked (fresh));
      if (!same_pixels (fresh, kept))
        g_error ("step %u (scale %g%s): kept layouts draw other pixels than fresh ones", i, steps[i].scale,
                 steps[i].grey ? ", other font options" : "");
      cairo_surface_destroy (fresh);
      cairo_surface_destroy (kept);
    }

  cairo_font_options_destroy (grey);
  tes_painter_layouts_free (layouts);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/tes/painter/kept-layouts-as-fresh", test_kept_layouts_as_fresh);

  return g_test_run ();
}
