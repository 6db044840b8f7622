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
  p->layouts = NULL;
}

void
tes_painter_clear (TesPainter *p)
{
  g_clear_object (&p->layout);
  p->layouts = NULL;
}

/* A table for tes_painter_keep_layouts(), kept by its caller from one
 * picture to the next. */
GHashTable *
tes_painter_layouts_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
}

/* The texts tes_painter_text() draws are laid out once and kept in
 * @layouts for the pictures after this one (a view redrawn as it pans
 * writes the same names and labels again): shaping is most of the cost
 * of a label. A layout kept follows @p's cairo context as it changes. */
void
tes_painter_keep_layouts (TesPainter *p,
                          GHashTable *layouts)
{
  p->layouts = layouts;
}

/* Never more than this many kept: box names change as a view zooms. */
#define MAX_KEPT_LAYOUTS 1024

static void
set_font (PangoLayout *layout,
          const char  *font_name,
          gboolean     bold)
{
  PangoFontDescription *font = pango_font_description_from_string (font_name);

  if (bold)
    pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
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
  int pango_width = width > 0 ? (int)(width * PANGO_SCALE) : -1;
  PangoLayout *layout = p->layout;
  g_autofree char *key = NULL;
  int h;

  if (p->layouts != NULL)
    {
      key = g_strdup_printf ("%s\x1f%d\x1f%d\x1f%d\x1f%s", p->font, bold, align, pango_width, text);
      if ((layout = g_hash_table_lookup (p->layouts, key)) != NULL)
        {
          /* as set below; the context follows this picture's */
          pango_cairo_update_layout (p->cr, layout);
          goto draw;
        }
      if (g_hash_table_size (p->layouts) >= MAX_KEPT_LAYOUTS)
        g_hash_table_remove_all (p->layouts);
      layout = pango_layout_new (pango_layout_get_context (p->layout));
      g_hash_table_insert (p->layouts, g_steal_pointer (&key), layout);
    }

  set_font (layout, p->font, bold);
  pango_layout_set_text (layout, text, -1);
  pango_layout_set_width (layout, pango_width);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  pango_layout_set_alignment (layout, align);

draw:
  pango_layout_get_pixel_size (layout, NULL, &h);
  tes_painter_set_rgb (p->cr, rgb);
  cairo_move_to (p->cr, x, y);
  pango_cairo_show_layout (p->cr, layout);

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
  int h;

  set_font (p->layout, p->font, FALSE);
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
