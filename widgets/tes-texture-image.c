/* tes-texture-image.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tes-texture-image.h"

#include <string.h>

/* Reference counted: a texture still on screen when its widget goes keeps
 * the holder alive, and its image is then destroyed, not kept. */
struct _TesTextureImage
{
  cairo_surface_t *spare;   /* the image of a frame whose texture is done with */
  gboolean         alive;   /* FALSE once its widget let it go */
};

typedef struct
{
  TesTextureImage *home;
  cairo_surface_t *image;
} Lent;

TesTextureImage *
tes_texture_image_new (void)
{
  TesTextureImage *self = g_rc_box_new0 (TesTextureImage);

  self->alive = TRUE;
  return self;
}

static void
texture_image_clear (TesTextureImage *self)
{
  g_clear_pointer (&self->spare, cairo_surface_destroy);
}

void
tes_texture_image_free (TesTextureImage *self)
{
  if (self == NULL)
    return;

  self->alive = FALSE;
  texture_image_clear (self);
  g_rc_box_release_full (self, (GDestroyNotify)texture_image_clear);
}

/* A frame's texture is done with: its image comes back, if the widget is
 * still there and keeps none. */
static void
lent_return (gpointer data)
{
  Lent *lent = data;

  if (lent->home->alive && lent->home->spare == NULL)
    lent->home->spare = lent->image;
  else
    cairo_surface_destroy (lent->image);
  g_rc_box_release_full (lent->home, (GDestroyNotify)texture_image_clear);
  g_free (lent);
}

/* A context on an image of width × height points at scale, the spare one
 * when its size is right; clear: transparent where nothing is drawn, as a
 * cairo node would be (a new image is). */
cairo_t *
tes_texture_image_begin (TesTextureImage *self,
                         int              width,
                         int              height,
                         int              scale,
                         gboolean         clear)
{
  cairo_surface_t *image = g_steal_pointer (&self->spare);
  cairo_t *cr;

  g_return_val_if_fail (width > 0 && height > 0 && scale > 0, NULL);

  if (image != NULL && (cairo_image_surface_get_width (image) != width * scale ||
                        cairo_image_surface_get_height (image) != height * scale))
    g_clear_pointer (&image, cairo_surface_destroy);
  if (image == NULL)
    image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width * scale, height * scale);
  else if (clear)
    {
      cairo_surface_flush (image);
      memset (cairo_image_surface_get_data (image), 0,
              (gsize)cairo_image_surface_get_stride (image) * height * scale);
      cairo_surface_mark_dirty (image);
    }
  cairo_surface_set_device_scale (image, scale, scale);
  cr = cairo_create (image);
  cairo_surface_destroy (image);   /* cr holds it */

  return cr;
}

/* Ends cr (from tes_texture_image_begin ()) and shows its image. */
void
tes_texture_image_append (TesTextureImage *self,
                          cairo_t         *cr,
                          GtkSnapshot     *snapshot,
                          int              width,
                          int              height)
{
  cairo_surface_t *image = cairo_surface_reference (cairo_get_target (cr));
  Lent *lent = g_new (Lent, 1);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  int stride = cairo_image_surface_get_stride (image);
  int pixel_height = cairo_image_surface_get_height (image);

  cairo_destroy (cr);
  cairo_surface_flush (image);
  lent->home = g_rc_box_acquire (self);
  lent->image = image;
  bytes = g_bytes_new_with_free_func (cairo_image_surface_get_data (image), (gsize)stride * pixel_height,
                                      lent_return, lent);
  /* cairo's ARGB32 is GDK_MEMORY_DEFAULT: premultiplied, native-endian */
  texture = gdk_memory_texture_new (cairo_image_surface_get_width (image), pixel_height, GDK_MEMORY_DEFAULT,
                                    bytes, (gsize)stride);
  gtk_snapshot_append_texture (snapshot, texture, &GRAPHENE_RECT_INIT (0, 0, width, height));
}
