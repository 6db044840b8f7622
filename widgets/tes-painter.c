/* tes-painter.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

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

/* Layouts kept from one picture to the next, in one Pango context of
 * their own: laid out again only when what they depend on changes. */
struct _TesPainterLayouts
{
  GHashTable           *table;     /* key (font, weight, alignment, width, text) -> PangoLayout */
  PangoContext         *context;   /* the layouts'; NULL until the first */
  cairo_matrix_t        matrix;    /* what the context was last set up for */
  cairo_font_options_t *options;
};

TesPainterLayouts *
tes_painter_layouts_new (void)
{
  TesPainterLayouts *layouts = g_new0 (TesPainterLayouts, 1);

  layouts->table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);

  return layouts;
}

void
tes_painter_layouts_free (TesPainterLayouts *layouts)
{
  if (layouts == NULL)
    return;

  g_hash_table_unref (layouts->table);
  g_clear_object (&layouts->context);
  g_clear_pointer (&layouts->options, cairo_font_options_destroy);
  g_free (layouts);
}

/* The kept layouts' context, set up for @cr. pango_cairo_update_context()
 * tells the context it changed at every call, and a layout told so is
 * laid out again when next drawn: shaped again, each text, each frame.
 * So it is called only when what it reads from @cr (its matrix but for
 * the offset, its and its target's font options) differs from last time. */
static PangoContext *
kept_context (TesPainterLayouts *layouts,
              cairo_t           *cr)
{
  cairo_font_options_t *options = cairo_font_options_create ();
  cairo_font_options_t *own = cairo_font_options_create ();
  cairo_matrix_t matrix;

  cairo_surface_get_font_options (cairo_get_target (cr), options);
  cairo_get_font_options (cr, own);
  cairo_font_options_merge (options, own);
  cairo_font_options_destroy (own);
  cairo_get_matrix (cr, &matrix);
  matrix.x0 = matrix.y0 = 0;

  if (layouts->context != NULL && layouts->options != NULL &&
      cairo_font_options_equal (options, layouts->options) && memcmp (&matrix, &layouts->matrix, sizeof matrix) == 0)
    {
      cairo_font_options_destroy (options);
      return layouts->context;
    }

  if (layouts->context == NULL)
    layouts->context = pango_cairo_create_context (cr);
  else
    pango_cairo_update_context (cr, layouts->context);
  g_clear_pointer (&layouts->options, cairo_font_options_destroy);
  layouts->options = options;
  layouts->matrix = matrix;

  return layouts->context;
}

/* The texts tes_painter_text() draws are laid out once and kept in
 * @layouts for the pictures after this one (a view redrawn as it pans
 * writes the same names and labels again): shaping is most of the cost
 * of a label. The layouts kept follow @p's cairo context as it changes. */
void
tes_painter_keep_layouts (TesPainter        *p,
                          TesPainterLayouts *layouts)
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
      /* the context follows this picture's */
      PangoContext *context = kept_context (p->layouts, p->cr);

      key = g_strdup_printf ("%s\x1f%d\x1f%d\x1f%d\x1f%s", p->font, bold, align, pango_width, text);
      /* as set below */
      if ((layout = g_hash_table_lookup (p->layouts->table, key)) != NULL)
        goto draw;
      if (g_hash_table_size (p->layouts->table) >= MAX_KEPT_LAYOUTS)
        g_hash_table_remove_all (p->layouts->table);
      layout = pango_layout_new (context);
      g_hash_table_insert (p->layouts->table, g_steal_pointer (&key), layout);
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
