/* tes-canvas.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TES_TYPE_CANVAS (tes_canvas_get_type ())

G_DECLARE_FINAL_TYPE (TesCanvas, tes_canvas, TES, CANVAS, GtkWidget)

/* How tall the picture is at @width (its layout's, never the drawing's). */
typedef int  (*TesCanvasHeightFunc) (TesCanvas *canvas,
                                     int        width,
                                     gpointer   user_data);
typedef void (*TesCanvasDrawFunc)   (TesCanvas *canvas,
                                     cairo_t   *cr,
                                     int        width,
                                     int        height,
                                     gpointer   user_data);

void tes_canvas_set_funcs (TesCanvas           *self,
                           TesCanvasHeightFunc  height_func,
                           TesCanvasDrawFunc    draw_func,
                           gpointer             user_data);
void tes_canvas_set_image (TesCanvas           *self,
                           gboolean             image,
                           gboolean             opaque);

G_END_DECLS
