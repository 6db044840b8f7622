/* tes-bsp-section.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-bsp-section"

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "tes-bsp-section.h"
#include "tes-painter.h"
#include "tes-tiles-layout.h"

/* BSP: each IPU's tiles (rows) over the trace's visible range (columns),
 * coloured by what they did: compute, exchange, sync or idle. It follows
 * the workspace, so zooming the trace zooms it; + and − magnify the rows,
 * 0 resets; a click selects the step under it, in the trace too. */

#define FONT        "Sans 9"
#define INK         0x241f31
#define DIM_INK     0x77767b
#define NO_STEP_RGB 0xf6f5f4
#define MAX_MAGNIFY 64.0

struct _TesBspSection
{
  TesSection      parent_instance;

  GtkWidget      *scrolled;
  GtkDrawingArea *area;       /* in scrolled */
  GPtrArray      *ipus;       /* TesBspIpu, NULL until loaded */
  GCancellable   *cancellable;
  double          magnify;
};

G_DEFINE_FINAL_TYPE (TesBspSection, tes_bsp_section, TES_TYPE_SECTION)

static const char * const bsp_views[] = { "bsp", NULL };

static void
tes_bsp_ipu_free (TesBspIpu *ipu)
{
  g_clear_pointer (&ipu->steps, g_ptr_array_unref);
  g_clear_pointer (&ipu->spans, g_array_unref);
  g_free (ipu);
}

/**
 * tes_bsp_load_ipus:
 *
 * Every IPU's BSP steps (runs named "IPU n"), in IPU order. Slow on big
 * runs: call it off the main loop.
 *
 * Returns: (transfer full): TesBspIpu
 */
GPtrArray *
tes_bsp_load_ipus (TesReport  *report,
                   GError    **error)
{
  g_autoptr(GPtrArray) ipus = g_ptr_array_new_with_free_func ((GDestroyNotify)tes_bsp_ipu_free);
  g_autoptr(GArray) runs = NULL;

  if (!(runs = tes_report_get_runs (report, error)))
    return NULL;

  for (guint r = 0; r < runs->len; r++)
    {
      const TesRun *run = &g_array_index (runs, TesRun, r);
      TesBspIpu *ipu;
      int number;

      if (run->name == NULL || sscanf (run->name, "IPU %d", &number) != 1)
        continue;

      ipu = g_new0 (TesBspIpu, 1);
      ipu->ipu = number;
      ipu->spans = g_array_new (FALSE, FALSE, sizeof (TesBspSpan));
      g_ptr_array_add (ipus, ipu);
      if (!(ipu->steps = tes_report_get_bsp_steps (report, run->id, error)))
        return NULL;

      for (guint s = 0; s < ipu->steps->len; s++)
        {
          const TesBspStep *step = g_ptr_array_index (ipu->steps, s);
          TesBspSpan span = {
            .start = tes_report_convert_time (report, step->clock_id, 0, step->start),
            .end = tes_report_convert_time (report, step->clock_id, 0, step->start + step->dur),
            .dur_cycles = step->dur,
            .n_tiles = step->n_tiles,
            .tile_cycles = step->tile_cycles,
            .tile_states = step->tile_states,
          };

          ipu->n_tiles = MAX (ipu->n_tiles, step->n_tiles);
          g_array_append_val (ipu->spans, span);
        }
    }

  return g_steal_pointer (&ipus);
}

static void
draw_legend (TesPainter *p)
{
  static const TesTileState order[] = {
    TES_TILE_STATE_COMPUTE, TES_TILE_STATE_EXCHANGE, TES_TILE_STATE_SYNC, TES_TILE_STATE_IDLE,
  };
  double x = TES_BSP_LABEL_WIDTH;

  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      const char *name = tes_tile_state_name (order[i]);

      tes_painter_set_rgb (p->cr, tes_tile_state_color (order[i]));
      cairo_rectangle (p->cr, x, 10, 12, 12);
      cairo_fill (p->cr);
      tes_painter_text (p, name, x + 16, 8, 200, PANGO_ALIGN_LEFT, FALSE, INK);
      x += 16 + tes_painter_text_width (p, name) + 18;
    }
}

/* The cells, one per device pixel, scaled without smoothing. */
static void
draw_heat (cairo_t               *cr,
           const TesBspIpu       *ipu,
           gint64                 t0,
           gint64                 t1,
           const graphene_rect_t *rect)
{
  g_autoptr(TesBspGrid) grid = tes_bsp_grid_build ((const TesBspSpan *)(gpointer)ipu->spans->data, ipu->spans->len,
                                                   ipu->n_tiles, t0, t1,
                                                   (guint)rect->size.width, (guint)rect->size.height);
  cairo_surface_t *cells = cairo_image_surface_create (CAIRO_FORMAT_RGB24, (int)grid->width, (int)grid->n_rows);
  guchar *data = cairo_image_surface_get_data (cells);
  int stride = cairo_image_surface_get_stride (cells);

  cairo_surface_flush (cells);
  for (guint row = 0; row < grid->n_rows; row++)
    {
      guint32 *line = (guint32 *)(gpointer)(data + (gsize)row * stride);

      for (guint column = 0; column < grid->width; column++)
        {
          guint8 state = tes_bsp_grid_get (grid, column, row);

          line[column] = state == TES_BSP_NO_STATE ? NO_STEP_RGB : tes_tile_state_color (state);
        }
    }
  cairo_surface_mark_dirty (cells);

  cairo_save (cr);
  cairo_rectangle (cr, rect->origin.x, rect->origin.y, rect->size.width, rect->size.height);
  cairo_clip (cr);
  cairo_translate (cr, rect->origin.x, rect->origin.y);
  cairo_scale (cr, rect->size.width / grid->width, rect->size.height / grid->n_rows);
  cairo_set_source_surface (cr, cells, 0, 0);
  cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
  cairo_paint (cr);
  cairo_restore (cr);
  cairo_surface_destroy (cells);
}

/* @ipus as tes_bsp_load_ipus() gives them, over the workspace's visible
 * range. */
gboolean
tes_bsp_render (TesWorkspace *workspace,
                GPtrArray    *ipus,
                cairo_t      *cr,
                int           width,
                int           height)
{
  TesPainter p;
  gint64 t0, t1, origin = 0;

  tes_workspace_get_visible (workspace, &t0, &t1);
  tes_workspace_get_span (workspace, &origin, NULL);

  cairo_save (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  tes_painter_init (&p, cr, FONT);
  draw_legend (&p);

  if (ipus == NULL || ipus->len == 0)
    tes_painter_text (&p, _("No BSP steps in this report"), TES_BSP_LABEL_WIDTH, TES_BSP_LEGEND_HEIGHT, width - TES_BSP_LABEL_WIDTH,
                      PANGO_ALIGN_LEFT, FALSE, DIM_INK);

  for (guint i = 0; ipus != NULL && i < ipus->len; i++)
    {
      const TesBspIpu *ipu = g_ptr_array_index (ipus, i);
      graphene_rect_t rect = tes_bsp_heat_rect (i, ipus->len, width, height);
      g_autofree char *title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "IPU %d · %u tile", "IPU %d · %u tiles",
                                                             ipu->n_tiles),
                                                ipu->ipu, ipu->n_tiles);
      g_autofree char *last = g_strdup_printf (_("tile %u"), MAX (ipu->n_tiles, 1) - 1);

      tes_painter_text (&p, title, TES_BSP_LABEL_WIDTH, rect.origin.y - TES_BSP_HEADER_HEIGHT + 2, rect.size.width,
                        PANGO_ALIGN_LEFT, TRUE, INK);
      tes_painter_text (&p, _("tile 0"), 4, rect.origin.y, TES_BSP_LABEL_WIDTH - 10, PANGO_ALIGN_RIGHT, FALSE, DIM_INK);
      tes_painter_text (&p, last, 4, rect.origin.y + rect.size.height - 14, TES_BSP_LABEL_WIDTH - 10,
                        PANGO_ALIGN_RIGHT, FALSE, DIM_INK);
      draw_heat (cr, ipu, t0, t1, &rect);
    }

  /* the range shown, since the run's start */
  {
    g_autofree char *from = tes_workspace_format_duration (workspace, t0 - origin);
    g_autofree char *to = tes_workspace_format_duration (workspace, t1 - origin);
    double y = height - TES_BSP_AXIS_HEIGHT + 2;

    tes_painter_text (&p, from, TES_BSP_LABEL_WIDTH, y, 200, PANGO_ALIGN_LEFT, FALSE, DIM_INK);
    tes_painter_text (&p, to, width - TES_BSP_MARGIN - 200, y, 200, PANGO_ALIGN_RIGHT, FALSE, DIM_INK);
  }

  tes_painter_clear (&p);
  cairo_restore (cr);

  return cairo_status (cr) == CAIRO_STATUS_SUCCESS;
}

static gboolean
tes_bsp_section_render (TesWorkspace  *workspace,
                        const char    *view,
                        cairo_t       *cr,
                        int            width,
                        int            height,
                        GError       **error)
{
  g_autoptr(GPtrArray) ipus = NULL;

  if (!(ipus = tes_bsp_load_ipus (tes_workspace_get_report (workspace), error)))
    return FALSE;

  return tes_bsp_render (workspace, ipus, cr, width, height);
}

static void
draw_cb (GtkDrawingArea *area,
         cairo_t        *cr,
         int             width,
         int             height,
         gpointer        user_data)
{
  TesBspSection *self = user_data;
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));

  if (workspace != NULL && self->ipus != NULL)
    tes_bsp_render (workspace, self->ipus, cr, width, height);
}

/* + and − make the rows taller than the view: it scrolls. */
static void
update_height (TesBspSection *self)
{
  int view = gtk_widget_get_height (self->scrolled);

  gtk_drawing_area_set_content_height (self->area, self->magnify > 1 ? (int)(MAX (view, 200) * self->magnify) : 0);
  gtk_widget_set_vexpand (GTK_WIDGET (self->area), TRUE);
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  TesBspSection *self = TES_BSP_SECTION (object);
  g_autoptr(GError) error = NULL;
  GPtrArray *ipus;

  if (!(ipus = g_task_propagate_pointer (G_TASK (result), &error)))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("Cannot read the BSP steps: %s", error->message);
      return;
    }

  g_clear_pointer (&self->ipus, g_ptr_array_unref);
  self->ipus = ipus;
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  GError *error = NULL;
  GPtrArray *ipus = tes_bsp_load_ipus (task_data, &error);

  if (ipus == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, ipus, (GDestroyNotify)g_ptr_array_unref);
}

static gboolean
tes_bsp_section_has_data (TesWorkspace *workspace)
{
  TesReportCounts counts;

  tes_report_get_counts (tes_workspace_get_report (workspace), &counts);

  return counts.n_bsp_steps > 0;
}

static void
tes_bsp_section_workspace_changed (TesSection   *section,
                                   TesWorkspace *old_workspace)
{
  TesBspSection *self = (TesBspSection *)section;
  TesWorkspace *workspace = tes_section_get_workspace (section);

  if (old_workspace != NULL)
    g_signal_handlers_disconnect_by_data (old_workspace, self);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->ipus, g_ptr_array_unref);

  if (workspace != NULL)
    {
      g_autoptr(GTask) task = NULL;

      g_signal_connect_object (workspace, "notify::visible-start", G_CALLBACK (gtk_widget_queue_draw),
                               self->area, G_CONNECT_SWAPPED);
      g_signal_connect_object (workspace, "notify::visible-end", G_CALLBACK (gtk_widget_queue_draw),
                               self->area, G_CONNECT_SWAPPED);
      self->cancellable = g_cancellable_new ();
      task = g_task_new (self, self->cancellable, load_cb, NULL);
      g_task_set_source_tag (task, tes_bsp_section_workspace_changed);
      g_task_set_task_data (task, g_object_ref (tes_workspace_get_report (workspace)), g_object_unref);
      g_task_run_in_thread (task, load_thread);
    }

  gtk_widget_queue_draw (GTK_WIDGET (self->area));
}

/**
 * tes_bsp_section_click:
 *
 * Selects the BSP step under (@x, @y) of the heatmap: its span in the
 * workspace (so the trace shows it) and its number.
 *
 * Returns: whether a step was there
 */
gboolean
tes_bsp_section_click (TesBspSection *self,
                       double         x,
                       double         y)
{
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));
  double width = gtk_widget_get_width (GTK_WIDGET (self->area));
  double height = gtk_widget_get_height (GTK_WIDGET (self->area));
  gint64 t0, t1;

  g_return_val_if_fail (TES_IS_BSP_SECTION (self), FALSE);

  if (workspace == NULL || self->ipus == NULL)
    return FALSE;

  tes_workspace_get_visible (workspace, &t0, &t1);
  for (guint i = 0; i < self->ipus->len; i++)
    {
      const TesBspIpu *ipu = g_ptr_array_index (self->ipus, i);
      graphene_rect_t rect = tes_bsp_heat_rect (i, self->ipus->len, width, height);
      gint64 t;
      int span;

      if (!graphene_rect_contains_point (&rect, &GRAPHENE_POINT_INIT (x, y)))
        continue;

      t = t0 + (gint64)((x - rect.origin.x) / rect.size.width * (t1 - t0));
      if ((span = tes_bsp_span_at ((const TesBspSpan *)(gpointer)ipu->spans->data, ipu->spans->len, t)) < 0)
        return FALSE;

      tes_workspace_set_selection (workspace, g_array_index (ipu->spans, TesBspSpan, span).start,
                                   g_array_index (ipu->spans, TesBspSpan, span).end);
      tes_workspace_set_step (workspace, ((const TesBspStep *)g_ptr_array_index (ipu->steps, span))->step);
      tes_workspace_set_ipu (workspace, ipu->ipu);
      return TRUE;
    }

  return FALSE;
}

static void
pressed_cb (TesBspSection *self,
            int            n_press,
            double         x,
            double         y)
{
  tes_bsp_section_click (self, x, y);
}

/* bsp.magnify(factor): rows @factor times taller; 0 resets. */
static void
magnify_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  TesBspSection *self = TES_BSP_SECTION (widget);
  double factor = g_variant_get_double (param);

  tes_bsp_section_set_magnify (self, factor == 0 ? 1 : self->magnify * factor);
}

static void
tes_bsp_section_dispose (GObject *object)
{
  TesBspSection *self = (TesBspSection *)object;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->ipus, g_ptr_array_unref);
  self->area = NULL;
  g_clear_pointer (&self->scrolled, gtk_widget_unparent);

  G_OBJECT_CLASS (tes_bsp_section_parent_class)->dispose (object);
}

static void
tes_bsp_section_class_init (TesBspSectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  TesSectionClass *section_class = TES_SECTION_CLASS (klass);

  object_class->dispose = tes_bsp_section_dispose;

  section_class->title = _("BSP");
  section_class->icon_name = "view-app-grid-symbolic";
  section_class->views = bsp_views;
  section_class->has_data = tes_bsp_section_has_data;
  section_class->workspace_changed = tes_bsp_section_workspace_changed;
  section_class->render = tes_bsp_section_render;

  gtk_widget_class_install_action (widget_class, "bsp.magnify", "d", magnify_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, 0, "bsp.magnify", "d", 2.0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, 0, "bsp.magnify", "d", 2.0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, 0, "bsp.magnify", "d", 0.5);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, 0, "bsp.magnify", "d", 0.5);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, 0, "bsp.magnify", "d", 0.0);
}

static void
tes_bsp_section_init (TesBspSection *self)
{
  GtkGesture *click = gtk_gesture_click_new ();

  self->magnify = 1;
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  self->scrolled = gtk_scrolled_window_new ();
  self->area = GTK_DRAWING_AREA (gtk_drawing_area_new ());
  gtk_widget_set_hexpand (GTK_WIDGET (self->area), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self->area), TRUE);
  gtk_drawing_area_set_draw_func (self->area, draw_cb, self, NULL);
  g_signal_connect_object (click, "pressed", G_CALLBACK (pressed_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->area), GTK_EVENT_CONTROLLER (click));
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scrolled), GTK_WIDGET (self->area));
  gtk_widget_set_parent (self->scrolled, GTK_WIDGET (self));
}

/* The IPUs' steps, once loaded (NULL before). */
GPtrArray *
tes_bsp_section_get_ipus (TesBspSection *self)
{
  g_return_val_if_fail (TES_IS_BSP_SECTION (self), NULL);

  return self->ipus;
}

double
tes_bsp_section_get_magnify (TesBspSection *self)
{
  g_return_val_if_fail (TES_IS_BSP_SECTION (self), 1);

  return self->magnify;
}

/* Rows @magnify times as tall as the view fits (1: all tiles in view). */
void
tes_bsp_section_set_magnify (TesBspSection *self,
                             double         magnify)
{
  g_return_if_fail (TES_IS_BSP_SECTION (self));

  self->magnify = CLAMP (magnify, 1, MAX_MAGNIFY);
  update_height (self);
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
}
