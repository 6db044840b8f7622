/* tes-memory-section.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-memory-section"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "tes-canvas.h"
#include "tes-memory-render.h"
#include "tes-memory-section.h"

/* Memory: the by-tile histogram, every tile's bytes stacked by category
 * against the per-tile limit, and the most subscribed tiles; a click on a
 * histogram bin, or the arrows and Enter, list its tiles below. Screen
 * readers get the figures in words. */

struct _TesMemorySection
{
  TesSection        parent_instance;

  GtkScrolledWindow *scroller;
  TesCanvas        *page;
  GtkLabel         *listing;

  TesMemoryModel   *model;
  GArray           *bin_rects;   /* TesMemoryBinRect of the last drawing */
  int               selected;    /* histogram bin, or -1 */
  int               tile;        /* the workspace's tile, an index of model->tiles, or -1 */
  TesMemoryPlot     plot;        /* the chart of every tile, as last drawn */
};

G_DEFINE_FINAL_TYPE (TesMemorySection, tes_memory_section, TES_TYPE_SECTION)

static const char * const memory_views[] = { "memory", "memory-histogram", "memory-tiles", NULL };

static gboolean
tes_memory_section_render (TesWorkspace  *workspace,
                           const char    *view,
                           cairo_t       *cr,
                           int            width,
                           int            height,
                           GError       **error)
{
  TesMemoryView which = g_strcmp0 (view, "memory-histogram") == 0 ? TES_MEMORY_VIEW_HISTOGRAM
                      : g_strcmp0 (view, "memory-tiles") == 0 ? TES_MEMORY_VIEW_TILES
                      : TES_MEMORY_VIEW_ALL;

  return tes_memory_render (workspace, which, cr, width, height, error);
}

/* The page's height at @width: its layout, measured on a scratch surface. */
static int
page_height (TesCanvas *canvas,
             int        width,
             gpointer   user_data)
{
  TesMemorySection *self = user_data;
  cairo_surface_t *scratch;
  cairo_t *cr;
  double used;

  if (self->model == NULL)
    return 0;

  scratch = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 1, 1);
  cr = cairo_create (scratch);
  used = tes_memory_render_model_selected (cr, self->model, TES_MEMORY_VIEW_ALL, width, NULL, self->tile, NULL);
  cairo_destroy (cr);
  cairo_surface_destroy (scratch);

  return (int)ceil (used);
}

static void
draw_page (TesCanvas *canvas,
           cairo_t   *cr,
           int        width,
           int        height,
           gpointer   user_data)
{
  TesMemorySection *self = user_data;

  if (self->model == NULL)
    return;

  g_array_set_size (self->bin_rects, 0);
  tes_memory_render_model_selected (cr, self->model, TES_MEMORY_VIEW_ALL, width, self->bin_rects,
                                    self->tile, &self->plot);

  /* the selected bin, outlined */
  for (guint i = 0; i < self->bin_rects->len; i++)
    {
      const TesMemoryBinRect *rect = &g_array_index (self->bin_rects, TesMemoryBinRect, i);

      if ((int)rect->bin != self->selected)
        continue;
      cairo_set_source_rgb (cr, 0, 0, 0);
      cairo_set_line_width (cr, 2);
      cairo_rectangle (cr, rect->x - 1, rect->y - 1, rect->width + 2, rect->height + 2);
      cairo_stroke (cr);
    }
}

/* A bin's bounds in KB, as the report prints them. */
static char *
bin_text (const TesTileHistogramBin *bin,
          guint                      n_tiles)
{
  g_autofree char *lower = tes_format_grouped ((double)(bin->lower / 1024));
  g_autofree char *upper = tes_format_grouped ((double)(bin->upper / 1024));
  g_autofree char *count = tes_format_grouped (n_tiles);

  /* Translators: a bin of the memory histogram (its bounds in KB) and how many tiles it holds, grouped */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s - %s KB: %s tile", "%s - %s KB: %s tiles", n_tiles),
                          lower, upper, count);
}

/**
 * tes_memory_section_describe:
 *
 * The page in words, for screen readers: the tiles, how many are out of
 * memory, the most used, the histogram and its selected bin.
 *
 * Returns: (transfer full): the text
 */
char *
tes_memory_section_describe (TesMemorySection *self)
{
  const TesMemoryModel *model;
  GString *text;

  g_return_val_if_fail (TES_IS_MEMORY_SECTION (self), NULL);

  if ((model = self->model) == NULL)
    return g_strdup (_("No tile memory in this report"));

  text = g_string_new (NULL);
  {
    g_autofree char *n_tiles = tes_format_grouped (model->tiles->len);

    /* Translators: the Memory page in words: tiles (grouped, "1,472"), then those over the per-tile limit */
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%s tile, %u out of memory",
                                               "%s tiles, %u out of memory", model->tiles->len),
                            n_tiles, model->n_over);
  }
  if (model->heaviest->len > 0)
    {
      const TesTile *top = &g_array_index (model->heaviest, TesTile, 0);
      g_autofree char *kb = tes_format_grouped ((double)(top->total_bytes / 1024));

      /* Translators: the most used tile: IPU:tile and its bytes in KB (grouped) */
      g_string_append_printf (text, _("; most used tile %d:%d: %s KB"), top->ipu, top->tile, kb);
    }
  /* Translators: how many bins the memory histogram has */
  g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "; histogram of %u bin", "; histogram of %u bins",
                                             model->histogram->len),
                          model->histogram->len);
  if (self->selected >= 0)
    {
      const TesTileHistogramBin *bin = &g_array_index (model->histogram, TesTileHistogramBin, self->selected);
      g_autoptr(GArray) tiles = tes_memory_model_tiles_in (model, bin);
      g_autofree char *selected = bin_text (bin, MAX ((guint)bin->tiles, tiles->len));

      /* Translators: the histogram bin selected, as "lower - upper KB: N tiles" */
      g_string_append_printf (text, _("; selected %s"), selected);
    }
  if (self->tile >= 0)
    {
      g_autofree char *tile = tes_memory_model_tile_text (model, (guint)self->tile, G_MAXUINT);

      /* Translators: the tile selected, as "IPU 0 tile 5: 640 KB — code 300 KB, …" */
      g_string_append_printf (text, _("; selected tile %s"), tile);
    }
  g_string_append_c (text, '.');

  return g_string_free (text, FALSE);
}

static void
update_description (TesMemorySection *self)
{
  g_autofree char *text = tes_memory_section_describe (self);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self->page), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}

/**
 * tes_memory_section_select_bin:
 * @index: a bin of the histogram
 *
 * Selects the bin and lists its tiles below, as a click on it does.
 *
 * Returns: whether there is such a bin
 */
gboolean
tes_memory_section_select_bin (TesMemorySection *self,
                               int               index)
{
  const TesTileHistogramBin *bin;
  g_autoptr(GArray) tiles = NULL;
  g_autoptr(GString) text = g_string_new (NULL);

  g_return_val_if_fail (TES_IS_MEMORY_SECTION (self), FALSE);

  if (self->model == NULL || index < 0 || index >= (int)self->model->histogram->len)
    return FALSE;

  self->selected = index;
  bin = &g_array_index (self->model->histogram, TesTileHistogramBin, index);
  tiles = tes_memory_model_tiles_in (self->model, bin);
  {
    /* the count the histogram shows, which a printed one has without
     * the tiles' bytes */
    g_autofree char *head = bin_text (bin, MAX ((guint)bin->tiles, tiles->len));

    g_string_append (text, head);
    if (tiles->len == 0 && bin->tiles > 0)
      g_string_append_printf (text, "\n%s", _("The report gives no tile’s bytes to list them by."));
  }
  for (guint i = 0; i < tiles->len; i++)
    {
      const TesTile *tile = &g_array_index (tiles, TesTile, i);
      g_autofree char *bytes = tes_format_grouped ((double)tile->total_bytes);

      g_string_append_printf (text, "%s%d:%d (%s B)", i ? ", " : "\n", tile->ipu, tile->tile, bytes);
    }
  gtk_label_set_label (self->listing, text->str);
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self->page));

  return TRUE;
}

/* The workspace's IPU and tile, marked in the chart and listed below
 * (the chart brought into view); none, or a tile without memory rows,
 * unmarks. */
static void
follow_tile (TesMemorySection *self)
{
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));
  int tile = -1;

  if (workspace != NULL && self->model != NULL)
    tile = tes_memory_model_find_tile (self->model, tes_workspace_get_ipu (workspace),
                                       tes_workspace_get_tile (workspace));
  if (tile == self->tile)
    return;

  self->tile = tile;
  if (tile >= 0)
    {
      g_autofree char *text = tes_memory_model_tile_text (self->model, (guint)tile, G_MAXUINT);
      const TesTile *t = &g_array_index (self->model->tiles, TesTile, tile);
      g_autofree char *bytes = tes_format_grouped (t->total_bytes);
      g_autofree char *over = NULL;

      if (self->model->limit > 0 && t->total_bytes > self->model->limit)
        {
          g_autofree char *by = tes_format_grouped (t->total_bytes - self->model->limit);

          /* Translators: how far a tile is over its memory, in bytes ("1,024") */
          over = g_strdup_printf (_(", %s B over the limit"), by);
        }
      {
        /* Translators: the selected tile's line, then its bytes in full ("655,360") and whether it is over the limit */
        g_autofree char *listing = g_strdup_printf (_("%s\n%s B in all%s"), text, bytes, over ? over : "");

        gtk_label_set_label (self->listing, listing);
      }
      if (self->plot.n_columns > 0)
        gtk_adjustment_clamp_page (gtk_scrolled_window_get_vadjustment (self->scroller),
                                   MAX (self->plot.y - 40, 0), self->plot.y + self->plot.height);
    }
  else if (self->selected < 0)
    gtk_label_set_label (self->listing, _("Click a bin of the histogram to list its tiles."));
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self->page));
}

/* A click on a histogram bin lists the tiles in it; on the chart of
 * every tile makes its tile the workspace's (follow_tile () marks it). */
gboolean
tes_memory_section_click (TesMemorySection *self,
                          double            x,
                          double            y)
{
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));
  int tile;

  g_return_val_if_fail (TES_IS_MEMORY_SECTION (self), FALSE);

  if (self->model == NULL)
    return FALSE;
  if (tes_memory_section_select_bin (self, tes_memory_bin_at (self->bin_rects, x, y)))
    return TRUE;
  if (workspace == NULL || (tile = tes_memory_model_tile_at (self->model, &self->plot, x, y)) < 0)
    return FALSE;

  tes_workspace_set_ipu (workspace, g_array_index (self->model->tiles, TesTile, tile).ipu);
  tes_workspace_set_tile (workspace, g_array_index (self->model->tiles, TesTile, tile).tile);

  return TRUE;
}

/* memory.move(bins): the arrows, from the selected bin (none: the first) */
static void
move_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  TesMemorySection *self = TES_MEMORY_SECTION (widget);
  int by = g_variant_get_int32 (param);

  if (self->model == NULL || self->model->histogram->len == 0)
    return;
  self->selected = self->selected < 0 ? 0 : CLAMP (self->selected + by, 0, (int)self->model->histogram->len - 1);
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self->page));
}

/* memory.activate: Enter lists the selected bin's tiles */
static void
activate_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *param)
{
  TesMemorySection *self = TES_MEMORY_SECTION (widget);

  tes_memory_section_select_bin (self, self->selected);
}

static void
pressed_cb (TesMemorySection *self,
            int               n_press,
            double            x,
            double            y,
            GtkGestureClick  *gesture)
{
  tes_memory_section_click (self, x, y);
}

static gboolean
tes_memory_section_has_data (TesWorkspace *workspace)
{
  return tes_memory_report_has_data (tes_workspace_get_report (workspace));
}

static void
tes_memory_section_workspace_changed (TesSection   *section,
                                      TesWorkspace *old_workspace)
{
  TesMemorySection *self = (TesMemorySection *)section;
  TesWorkspace *workspace = tes_section_get_workspace (section);
  g_autoptr(GError) error = NULL;

  if (old_workspace != NULL)
    g_signal_handlers_disconnect_by_data (old_workspace, self);
  g_clear_pointer (&self->model, tes_memory_model_free);
  self->selected = -1;
  self->tile = -1;
  self->plot = (TesMemoryPlot) { 0 };
  gtk_label_set_label (self->listing, _("Click a bin of the histogram to list its tiles."));

  /* one query for the tiles and one for their rows: quick even for a
   * few thousand tiles */
  if (workspace != NULL && !(self->model = tes_memory_model_new (tes_workspace_get_report (workspace), &error)))
    gtk_label_set_label (self->listing, error->message);

  if (workspace != NULL)
    {
      g_signal_connect_object (workspace, "notify::ipu", G_CALLBACK (follow_tile), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (workspace, "notify::tile", G_CALLBACK (follow_tile), self, G_CONNECT_SWAPPED);
      follow_tile (self);
    }

  update_description (self);
  gtk_widget_queue_resize (GTK_WIDGET (self->page));
}

static void
tes_memory_section_dispose (GObject *object)
{
  TesMemorySection *self = (TesMemorySection *)object;

  gtk_widget_dispose_template (GTK_WIDGET (object), TES_TYPE_MEMORY_SECTION);
  g_clear_pointer (&self->model, tes_memory_model_free);
  g_clear_pointer (&self->bin_rects, g_array_unref);

  G_OBJECT_CLASS (tes_memory_section_parent_class)->dispose (object);
}

static void
tes_memory_section_class_init (TesMemorySectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  TesSectionClass *section_class = TES_SECTION_CLASS (klass);

  object_class->dispose = tes_memory_section_dispose;

  section_class->title = _("Memory");
  section_class->icon_name = "drive-harddisk-symbolic";
  section_class->views = memory_views;
  section_class->has_data = tes_memory_section_has_data;
  section_class->workspace_changed = tes_memory_section_workspace_changed;
  section_class->render = tes_memory_section_render;

  g_type_ensure (TES_TYPE_CANVAS);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tessera/Tessera/widgets/tes-memory-section.ui");
  gtk_widget_class_bind_template_child (widget_class, TesMemorySection, scroller);
  gtk_widget_class_bind_template_child (widget_class, TesMemorySection, page);
  gtk_widget_class_bind_template_child (widget_class, TesMemorySection, listing);

  gtk_widget_class_install_action (widget_class, "memory.move", "i", move_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "memory.move", "i", -1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "memory.move", "i", 1);
  gtk_widget_class_install_action (widget_class, "memory.activate", NULL, activate_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, 0, "memory.activate", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, 0, "memory.activate", NULL);
}

static void
tes_memory_section_init (TesMemorySection *self)
{
  GtkGesture *gesture;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->bin_rects = g_array_new (FALSE, FALSE, sizeof (TesMemoryBinRect));
  self->selected = -1;
  self->tile = -1;
  update_description (self);
  tes_canvas_set_funcs (self->page, page_height, draw_page, self);

  gesture = gtk_gesture_click_new ();
  g_signal_connect_object (gesture, "pressed", G_CALLBACK (pressed_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->page), GTK_EVENT_CONTROLLER (gesture));
}

const TesMemoryModel *
tes_memory_section_get_model (TesMemorySection *self)
{
  g_return_val_if_fail (TES_IS_MEMORY_SECTION (self), NULL);

  return self->model;
}

const char *
tes_memory_section_get_listing (TesMemorySection *self)
{
  g_return_val_if_fail (TES_IS_MEMORY_SECTION (self), NULL);

  return gtk_label_get_label (self->listing);
}

/* The workspace's tile as marked: an index of the model's tiles, or -1. */
int
tes_memory_section_get_selected_tile (TesMemorySection *self)
{
  g_return_val_if_fail (TES_IS_MEMORY_SECTION (self), -1);

  return self->tile;
}

/* Where the chart of every tile was last drawn, in the page's
 * coordinates (n_columns 0: not yet). */
const TesMemoryPlot *
tes_memory_section_get_plot (TesMemorySection *self)
{
  g_return_val_if_fail (TES_IS_MEMORY_SECTION (self), NULL);

  return &self->plot;
}
