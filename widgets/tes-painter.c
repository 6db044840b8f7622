/* tes-painter.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tes-painter.h"

void
tes_painter_init (TesPainter *p,
                  cairo_t    *cr,
                  const char *font)
{
  p->cr = cr;
  p->layout = pango_cairo_create_layout (cr);
  p->font = font;
}

void
tes_painter_clear (TesPainter *p)
{
  g_clear_object (&p->layout);
}

void
tes_painter_set_rgb (cairo_t *cr,
                     guint32  rgb)
{
  cairo_set_source_rgb (cr, ((rgb >> 16) & 0xff) / 255., ((rgb >> 8) & 0xff) / 255., (rgb & 0xff) / 255.);
}

/* Draws @text at (x, y) within @width (ellipsized, aligned; width <= 0:
 * as wide as it is) and returns its height. */
double
tes_painter_text (TesPainter     *p,
                  const char     *text,
                  double          x,
                  double          y,
                  double          width,
                  PangoAlignment  align,
                  gboolean        bold,
                  guint32         rgb)
{
  PangoFontDescription *font = pango_font_description_from_string (p->font);
  int h;

  if (bold)
    pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
  pango_layout_set_font_description (p->layout, font);
  pango_font_description_free (font);

  pango_layout_set_text (p->layout, text, -1);
  pango_layout_set_width (p->layout, width > 0 ? (int)(width * PANGO_SCALE) : -1);
  pango_layout_set_ellipsize (p->layout, PANGO_ELLIPSIZE_END);
  pango_layout_set_alignment (p->layout, align);
  pango_layout_get_pixel_size (p->layout, NULL, &h);

  tes_painter_set_rgb (p->cr, rgb);
  cairo_move_to (p->cr, x, y);
  pango_cairo_show_layout (p->cr, p->layout);

  return h;
}

/* As tes_painter_text(), but the text wraps at @width rather than being
 * cut: for sentences, which must be read whole. Returns the height. */
double
tes_painter_paragraph (TesPainter     *p,
                       const char     *text,
                       double          x,
                       double          y,
                       double          width,
                       guint32         rgb)
{
  PangoFontDescription *font = pango_font_description_from_string (p->font);
  int h;

  pango_layout_set_font_description (p->layout, font);
  pango_font_description_free (font);

  pango_layout_set_text (p->layout, text, -1);
  pango_layout_set_width (p->layout, width > 0 ? (int)(width * PANGO_SCALE) : -1);
  pango_layout_set_ellipsize (p->layout, PANGO_ELLIPSIZE_NONE);
  pango_layout_set_wrap (p->layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_set_alignment (p->layout, PANGO_ALIGN_LEFT);
  pango_layout_get_pixel_size (p->layout, NULL, &h);

  tes_painter_set_rgb (p->cr, rgb);
  cairo_move_to (p->cr, x, y);
  pango_cairo_show_layout (p->cr, p->layout);

  return h;
}

double
tes_painter_text_width (TesPainter *p,
                        const char *text)
{
  int w;

  pango_layout_set_width (p->layout, -1);
  pango_layout_set_text (p->layout, text, -1);
  pango_layout_get_pixel_size (p->layout, &w, NULL);

  return w;
}
