/* tes-texture-image.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A widget's drawing done in an image of its pixels and shown as a
 * texture: what is drawn as pixels (lanes, cells) is written once, where
 * a cairo node would record it and copy it twice more. The image of the
 * frame before comes back once its texture is done with and is drawn
 * over again, not a new one allocated and cleared. */
typedef struct _TesTextureImage TesTextureImage;

TesTextureImage *tes_texture_image_new    (void);
void             tes_texture_image_free   (TesTextureImage *self);
cairo_t         *tes_texture_image_begin  (TesTextureImage *self,
                                           int              width,
                                           int              height,
                                           int              scale,
                                           gboolean         clear);
void             tes_texture_image_append (TesTextureImage *self,
                                           cairo_t         *cr,
                                           GtkSnapshot     *snapshot,
                                           int              width,
                                           int              height);

G_END_DECLS
