/* tes-painter.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <cairo.h>
#include <pango/pangocairo.h>

G_BEGIN_DECLS

/* Text and colour on a bare cairo context, for the renders that run
 * without a display (tessera-cli render) and inside a widget's snapshot
 * alike: one layout reused for every string. */
typedef struct _TesPainterLayouts TesPainterLayouts;

typedef struct
{
  cairo_t           *cr;
  PangoLayout       *layout;
  const char        *font;
  TesPainterLayouts *layouts;   /* see tes_painter_keep_layouts(); NULL: none kept */
} TesPainter;

void    tes_painter_init       (TesPainter     *p,
                                cairo_t        *cr,
                                const char     *font);
void    tes_painter_clear      (TesPainter     *p);
TesPainterLayouts *tes_painter_layouts_new (void);
void    tes_painter_layouts_free (TesPainterLayouts *layouts);
void    tes_painter_keep_layouts (TesPainter   *p,
                                TesPainterLayouts *layouts);
void    tes_painter_set_rgb    (cairo_t        *cr,
                                guint32         rgb);
double  tes_painter_text       (TesPainter     *p,
                                const char     *text,
                                double          x,
                                double          y,
                                double          width,
                                PangoAlignment  align,
                                gboolean        bold,
                                guint32         rgb);
double  tes_painter_paragraph  (TesPainter     *p,
                                const char     *text,
                                double          x,
                                double          y,
                                double          width,
                                guint32         rgb);
double  tes_painter_text_width (TesPainter     *p,
                                const char     *text);

G_END_DECLS
