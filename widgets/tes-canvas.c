/* tes-canvas.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tes-canvas.h"
#include "tes-texture-image.h"

/* A cairo picture whose height follows its width, as its layout says:
 * measure() asks the height function, the draw function only draws. (A
 * GtkDrawingArea sized from inside its draw function lays the window out
 * again after every frame, and is 0 high until it first draws.) */

struct _TesCanvas
{
  GtkWidget           parent_instance;

  TesCanvasHeightFunc height_func;
  TesCanvasDrawFunc   draw_func;
  gpointer            user_data;
  TesTextureImage    *image;   /* drawn into an image, shown as a texture; NULL: a cairo node */
  gboolean            opaque;  /* the draw function paints every pixel of the image */
};

G_DEFINE_FINAL_TYPE (TesCanvas, tes_canvas, GTK_TYPE_WIDGET)

enum
{
  RESIZE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static GtkSizeRequestMode
tes_canvas_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
tes_canvas_measure (GtkWidget      *widget,
                    GtkOrientation  orientation,
                    int             for_size,
                    int            *minimum,
                    int            *natural,
                    int            *minimum_baseline,
                    int            *natural_baseline)
{
  TesCanvas *self = TES_CANVAS (widget);

  *minimum = *natural = 0;
  if (orientation == GTK_ORIENTATION_VERTICAL && self->height_func != NULL && for_size > 0)
    *minimum = *natural = MAX (self->height_func (self, for_size, self->user_data), 0);
}

/* ::resize (width, height): what depends on the size (a scrollbar's
 * range) is set here, as GtkScrolledWindow sets its adjustments. */
static void
tes_canvas_size_allocate (GtkWidget *widget,
                          int        width,
                          int        height,
                          int        baseline)
{
  g_signal_emit (widget, signals[RESIZE], 0, width, height);
}

static void
tes_canvas_snapshot (GtkWidget   *widget,
                     GtkSnapshot *snapshot)
{
  TesCanvas *self = TES_CANVAS (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (self->draw_func == NULL || width <= 0 || height <= 0)
    return;

  if (self->image != NULL)
    {
      cr = tes_texture_image_begin (self->image, width, height, gtk_widget_get_scale_factor (widget), !self->opaque);
      self->draw_func (self, cr, width, height, self->user_data);
      tes_texture_image_append (self->image, cr, snapshot, width, height);
      return;
    }

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  self->draw_func (self, cr, width, height, self->user_data);
  cairo_destroy (cr);
}

static void
tes_canvas_dispose (GObject *object)
{
  TesCanvas *self = TES_CANVAS (object);

  g_clear_pointer (&self->image, tes_texture_image_free);

  G_OBJECT_CLASS (tes_canvas_parent_class)->dispose (object);
}

static void
tes_canvas_class_init (TesCanvasClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tes_canvas_dispose;

  widget_class->get_request_mode = tes_canvas_get_request_mode;
  widget_class->measure = tes_canvas_measure;
  widget_class->snapshot = tes_canvas_snapshot;
  widget_class->size_allocate = tes_canvas_size_allocate;

  signals[RESIZE] = g_signal_new ("resize", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                  G_TYPE_NONE, 2, G_TYPE_INT, G_TYPE_INT);
}

static void
tes_canvas_init (TesCanvas *self)
{
}

/* @height_func: (nullable): NULL, the canvas takes what it is given */
void
tes_canvas_set_funcs (TesCanvas           *self,
                      TesCanvasHeightFunc  height_func,
                      TesCanvasDrawFunc    draw_func,
                      gpointer             user_data)
{
  g_return_if_fail (TES_IS_CANVAS (self));

  self->height_func = height_func;
  self->draw_func = draw_func;
  self->user_data = user_data;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

/**
 * tes_canvas_set_image:
 * @image: draw into an image of the canvas' pixels, shown as a texture,
 *   rather than into a cairo node
 * @opaque: the draw function paints every pixel, opaque: the image of an
 *   earlier frame it draws into again is not cleared first
 *
 * A cairo node records the drawing and draws it again into an image when
 * the window is rendered; a picture made of pixels (the BSP heatmap) is
 * written into the image at once, the recording's replay saved. Clearing
 * the image of a frame costs about a millisecond at 1920×1080 (8 MB).
 */
void
tes_canvas_set_image (TesCanvas *self,
                      gboolean   image,
                      gboolean   opaque)
{
  g_return_if_fail (TES_IS_CANVAS (self));

  self->opaque = image && opaque;
  if (!image)
    g_clear_pointer (&self->image, tes_texture_image_free);
  else if (self->image == NULL)
    self->image = tes_texture_image_new ();
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
