/* tes-tiles-section.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-tiles-section"

#include "config.h"

#include <glib/gi18n.h>

#include "tes-painter.h"
#include "tes-tiles-layout.h"
#include "tes-tiles-section.h"

/* Tile Balance: over the trace's visible range (or its selected span),
 * how each IPU's tile-cycles split between computing, exchanging,
 * syncing and waiting, and which tiles worked least and most. It follows
 * the workspace, so zooming the trace zooms it. */

#define FONT    "Sans 9"
#define MARGIN  16.0
#define INK     0x241f31
#define DIM_INK 0x77767b

struct _TesTilesSection
{
  TesSection      parent_instance;

  GtkWidget      *scrolled;
  GtkDrawingArea *area;       /* in scrolled */
  GPtrArray      *balances;   /* TesTileBalance */
};

G_DEFINE_FINAL_TYPE (TesTilesSection, tes_tiles_section, TES_TYPE_SECTION)

static const char * const tiles_views[] = { "tile-balance", NULL };

static GPtrArray *
compute_balances (TesWorkspace  *workspace,
                  GError       **error)
{
  g_autoptr(GArray) activity = NULL;
  gint64 t0, t1;

  if (!tes_workspace_get_selection (workspace, &t0, &t1))
    tes_workspace_get_visible (workspace, &t0, &t1);

  if (!(activity = tes_report_get_tile_activity (tes_workspace_get_report (workspace), t0, t1 + 1, error)))
    return NULL;

  return tes_tile_balance_compute (activity, 10);
}

static double
draw_tile_list (TesPainter *p,
                GArray     *tiles,
                const char *title,
                double      x,
                double      y,
                double      width)
{
  y += tes_painter_text (p, title, x, y, width, PANGO_ALIGN_LEFT, TRUE, INK) + 2;
  for (guint i = 0; i < tiles->len; i++)
    {
      const TesTileActivity *tile = &g_array_index (tiles, TesTileActivity, i);
      gint64 busy = tes_tile_activity_busy (tile);
      gint64 all = busy + tile->cycles[TES_TILE_STATE_IDLE];
      g_autofree char *cycles = tes_format_duration ((double)busy, TES_TIME_UNIT_CYCLES);
      /* Translators: a tile, the cycles it worked, and their share of its time */
      g_autofree char *line = g_strdup_printf (_("tile %d: %s busy (%.0f %%)"), tile->tile, cycles,
                                               all > 0 ? 100.0 * busy / all : 0);

      y += tes_painter_text (p, line, x, y, width, PANGO_ALIGN_LEFT, FALSE, INK);
    }

  return y;
}

/* Returns the height drawn. */
static double
draw_balances (cairo_t   *cr,
               GPtrArray *balances,
               double     width)
{
  TesPainter p;
  double y = MARGIN;

  tes_painter_init (&p, cr, FONT);

  if (balances == NULL || balances->len == 0)
    y += tes_painter_text (&p, _("No BSP steps in this range"), MARGIN, y, width - 2 * MARGIN,
                           PANGO_ALIGN_LEFT, FALSE, DIM_INK);

  for (guint i = 0; balances != NULL && i < balances->len; i++)
    {
      const TesTileBalance *balance = g_ptr_array_index (balances, i);
      gint64 all = 0;
      double x = MARGIN, bar = width - 2 * MARGIN;
      g_autofree char *title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "IPU %d · %u tile", "IPU %d · %u tiles",
                                                             balance->n_tiles),
                                                balance->ipu, balance->n_tiles);
      g_autoptr(GString) legend = g_string_new (NULL);

      for (guint s = 0; s < 4; s++)
        all += balance->cycles[s];

      y += tes_painter_text (&p, title, MARGIN, y, bar, PANGO_ALIGN_LEFT, TRUE, INK) + 4;
      for (guint s = TES_TILE_STATE_COMPUTE; all > 0 && s <= TES_TILE_STATE_SYNC + 1; s++)
        {
          TesTileState state = s % 4;   /* compute, exchange, sync, then idle */
          double w = bar * balance->cycles[state] / all;

          tes_painter_set_rgb (cr, tes_tile_state_color (state));
          cairo_rectangle (cr, x, y, w, 16);
          cairo_fill (cr);
          x += w;
          g_string_append_printf (legend, "%s%s %.1f %%", legend->len ? "  ·  " : "", tes_tile_state_name (state),
                                  100.0 * balance->cycles[state] / all);
        }
      y += 18;
      y += tes_painter_text (&p, legend->str, MARGIN, y, bar, PANGO_ALIGN_LEFT, FALSE, DIM_INK) + 8;

      {
        double half = (width - 3 * MARGIN) / 2;
        double left = draw_tile_list (&p, balance->least, _("Least busy"), MARGIN, y, half);
        double right = draw_tile_list (&p, balance->most, _("Most busy"), 2 * MARGIN + half, y, half);

        y = MAX (left, right) + 16;
      }
    }

  tes_painter_clear (&p);

  return y;
}

gboolean
tes_tiles_render (TesWorkspace  *workspace,
                  cairo_t       *cr,
                  int            width,
                  int            height,
                  GError       **error)
{
  g_autoptr(GPtrArray) balances = NULL;

  if (!(balances = compute_balances (workspace, error)))
    return FALSE;

  cairo_save (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  draw_balances (cr, balances, width);
  cairo_restore (cr);

  return cairo_status (cr) == CAIRO_STATUS_SUCCESS;
}

static gboolean
tes_tiles_section_render (TesWorkspace  *workspace,
                          const char    *view,
                          cairo_t       *cr,
                          int            width,
                          int            height,
                          GError       **error)
{
  return tes_tiles_render (workspace, cr, width, height, error);
}

static void
draw_cb (GtkDrawingArea *area,
         cairo_t        *cr,
         int             width,
         int             height,
         gpointer        user_data)
{
  TesTilesSection *self = user_data;

  gtk_drawing_area_set_content_height (area, (int)draw_balances (cr, self->balances, width));
}

static void
tes_tiles_section_update (TesTilesSection *self)
{
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));
  g_autoptr(GError) error = NULL;

  g_clear_pointer (&self->balances, g_ptr_array_unref);
  if (workspace != NULL && !(self->balances = compute_balances (workspace, &error)))
    g_warning ("Cannot read the tiles' steps: %s", error->message);
  if (self->area != NULL)
    gtk_widget_queue_draw (GTK_WIDGET (self->area));
}

static gboolean
tes_tiles_section_has_data (TesWorkspace *workspace)
{
  TesReportCounts counts;

  tes_report_get_counts (tes_workspace_get_report (workspace), &counts);

  return counts.n_bsp_steps > 0;
}

static void
tes_tiles_section_workspace_changed (TesSection   *section,
                                     TesWorkspace *old_workspace)
{
  TesTilesSection *self = (TesTilesSection *)section;
  TesWorkspace *workspace = tes_section_get_workspace (section);

  if (old_workspace != NULL)
    g_signal_handlers_disconnect_by_data (old_workspace, self);

  if (workspace != NULL)
    for (guint i = 0; i < 5; i++)
      {
        static const char * const props[] = { "visible-start", "visible-end", "has-selection",
                                              "selection-start", "selection-end" };
        g_autofree char *signal = g_strdup_printf ("notify::%s", props[i]);

        g_signal_connect_object (workspace, signal, G_CALLBACK (tes_tiles_section_update),
                                 self, G_CONNECT_SWAPPED);
      }

  tes_tiles_section_update (self);
}

static void
tes_tiles_section_dispose (GObject *object)
{
  TesTilesSection *self = (TesTilesSection *)object;

  g_clear_pointer (&self->balances, g_ptr_array_unref);
  self->area = NULL;
  g_clear_pointer (&self->scrolled, gtk_widget_unparent);

  G_OBJECT_CLASS (tes_tiles_section_parent_class)->dispose (object);
}

static void
tes_tiles_section_class_init (TesTilesSectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  TesSectionClass *section_class = TES_SECTION_CLASS (klass);

  object_class->dispose = tes_tiles_section_dispose;

  section_class->title = _("Tile Balance");
  section_class->icon_name = "view-grid-symbolic";
  section_class->views = tiles_views;
  section_class->has_data = tes_tiles_section_has_data;
  section_class->workspace_changed = tes_tiles_section_workspace_changed;
  section_class->render = tes_tiles_section_render;
}

static void
tes_tiles_section_init (TesTilesSection *self)
{
  self->scrolled = gtk_scrolled_window_new ();
  self->area = GTK_DRAWING_AREA (gtk_drawing_area_new ());
  gtk_widget_set_hexpand (GTK_WIDGET (self->area), TRUE);
  gtk_drawing_area_set_draw_func (self->area, draw_cb, self, NULL);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scrolled), GTK_WIDGET (self->area));
  gtk_widget_set_parent (self->scrolled, GTK_WIDGET (self));
}

/* The balances shown, per IPU. */
GPtrArray *
tes_tiles_section_get_balances (TesTilesSection *self)
{
  g_return_val_if_fail (TES_IS_TILES_SECTION (self), NULL);

  return self->balances;
}
