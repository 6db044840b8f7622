/* tes-tiles-section.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-tiles-section"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "tes-bsp-section.h"
#include "tes-canvas.h"
#include "tes-tiles-layout.h"
#include "tes-tiles-render.h"
#include "tes-tiles-section.h"

/* Tile Balance: over the trace's visible range (or its selected span),
 * how each IPU's tile-cycles split between computing, exchanging,
 * syncing and waiting, and which tiles worked least and most. It follows
 * the workspace, so zooming the trace zooms it, and marks its tile (an
 * Insights finding's, another section's) in the charts and lists; a click
 * on a bar makes its tile the workspace's. Once the BSP steps and
 * their sums are loaded (shared with the BSP heatmap), a range costs the
 * tiles, not the steps: whole groups of steps count from their sums. */

struct _TesTilesSection
{
  TesSection      parent_instance;

  TesCanvas      *area;       /* in the template's scrolled window */
  GPtrArray      *balances;   /* TesTileBalance */
  int             selected;   /* a tile of the lists, counted across them all; -1: none */
  int             selected_ipu;   /* the tile marked in the charts: the workspace's, or the keys' */
  int             selected_tile;  /* -1: none */
  GArray         *charts;     /* TesTileChartRect of the last drawing */
  gboolean        reveal;     /* scroll the marked tile's chart into view once drawn */
  guint           reveal_id;
  gboolean        stale;      /* the range changed while the section was hidden */
  GCancellable   *cancellable;   /* the BSP steps' loading */
  gboolean        steps_loading;
  GCancellable   *balance_cancellable;   /* working out the range's balances */
  gboolean        updating;   /* balances for the range asked for are not in yet */
};

G_DEFINE_FINAL_TYPE (TesTilesSection, tes_tiles_section, TES_TYPE_SECTION)

static const char * const tiles_views[] = { "tile-balance", NULL };

typedef struct
{
  TesReport *report;
  GPtrArray *ipus;
  gint64     t0;
  gint64     t1;
} BalanceJob;

static void
balance_job_free (gpointer data)
{
  BalanceJob *job = data;

  g_clear_object (&job->report);
  g_clear_pointer (&job->ipus, g_ptr_array_unref);
  g_free (job);
}

static void
balance_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  BalanceJob *job = task_data;
  GError *error = NULL;
  GPtrArray *balances = tes_tile_balances_new (job->report, job->ipus, job->t0, job->t1, &error);

  if (balances == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, balances, (GDestroyNotify)g_ptr_array_unref);
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

/* The marked tile's chart brought into view, once drawn (its place is
 * known then). */
static gboolean
reveal_tile (TesTilesSection *self)
{
  GtkWidget *scroller = gtk_widget_get_ancestor (GTK_WIDGET (self->area), GTK_TYPE_SCROLLED_WINDOW);
  int index, b = tes_tile_balances_find (self->balances, self->selected_ipu, self->selected_tile, &index);

  for (guint i = 0; scroller != NULL && b >= 0 && i < self->charts->len; i++)
    {
      const TesTileChartRect *rect = &g_array_index (self->charts, TesTileChartRect, i);

      if (rect->balance != (guint)b)
        continue;
      gtk_adjustment_clamp_page (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller)),
                                 MAX (rect->y - 60, 0), rect->y + rect->height + 24);
      self->reveal = FALSE;
      return TRUE;
    }

  return FALSE;
}

static gboolean
reveal_idle (gpointer user_data)
{
  TesTilesSection *self = user_data;

  self->reveal_id = 0;
  reveal_tile (self);

  return G_SOURCE_REMOVE;
}

static void
draw_cb (TesCanvas *canvas,
         cairo_t   *cr,
         int        width,
         int        height,
         gpointer   user_data)
{
  TesTilesSection *self = user_data;
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));

  g_array_set_size (self->charts, 0);
  if (workspace != NULL)
    tes_tiles_render_balances (cr, workspace, self->balances, width, self->selected, self->selected_ipu,
                               self->selected_tile, self->updating, self->charts);
  /* not while drawing: the next idle */
  if (self->reveal && self->reveal_id == 0)
    self->reveal_id = g_idle_add (reveal_idle, self);
}

/* The picture's height at @width: its layout's, for measure (). */
static int
height_cb (TesCanvas *canvas,
           int        width,
           gpointer   user_data)
{
  TesTilesSection *self = user_data;
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));

  if (workspace == NULL)
    return 0;

  return tes_tiles_render_height (workspace, self->balances, width, self->updating);
}

/* The listed tile @index (counted across every IPU's lists), the list
 * it is in and its balance. */
static const TesTileActivity *
listed_tile (GPtrArray             *balances,
             int                    index,
             gboolean              *most,
             const TesTileBalance **of)
{
  for (guint i = 0; balances != NULL && index >= 0 && i < balances->len; i++)
    {
      const TesTileBalance *balance = g_ptr_array_index (balances, i);

      *of = balance;
      if (index < (int)balance->least->len)
        {
          *most = FALSE;
          return &g_array_index (balance->least, TesTileActivity, index);
        }
      index -= balance->least->len;
      if (index < (int)balance->most->len)
        {
          *most = TRUE;
          return &g_array_index (balance->most, TesTileActivity, index);
        }
      index -= balance->most->len;
    }

  return NULL;
}

static guint
n_listed (GPtrArray *balances)
{
  guint n = 0;

  for (guint i = 0; balances != NULL && i < balances->len; i++)
    n += ((TesTileBalance *)g_ptr_array_index (balances, i))->least->len +
         ((TesTileBalance *)g_ptr_array_index (balances, i))->most->len;

  return n;
}

/**
 * tes_tiles_section_describe:
 *
 * The balances in words, for screen readers: per IPU the share of each
 * state, its least and most busy tile, what its chart of every tile
 * shows (the mean, lowest and highest busy share), then the tile
 * selected.
 *
 * Returns: (transfer full): the text
 */
char *
tes_tiles_section_describe (TesTilesSection *self)
{
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));
  g_autoptr(GString) text = g_string_new (NULL);
  const TesTileActivity *tile;
  gboolean most = FALSE;
  const TesTileBalance *of = NULL;
  TesReport *report;

  g_return_val_if_fail (TES_IS_TILES_SECTION (self), NULL);

  if (workspace == NULL || self->balances == NULL || self->balances->len == 0)
    return g_strdup (_("No BSP steps in this range"));
  report = tes_workspace_get_report (workspace);

  for (guint i = 0; i < self->balances->len; i++)
    {
      const TesTileBalance *balance = g_ptr_array_index (self->balances, i);
      const gint64 *cycles = tes_tiles_balance_cycles (balance);
      TesTileState state;
      const char *label;
      gint64 all = 0;

      for (guint s = 0; s < 4; s++)
        all += cycles[s];
      if (text->len > 0)
        g_string_append (text, "; ");
      {
        g_autofree char *title = tes_tiles_balance_title (report, balance);

        g_string_append_printf (text, "%s:", title);
      }
      for (guint s = 0; tes_tiles_legend_state (balance, s, &state, &label); s++)
        g_string_append_printf (text, "%s %s %.1f %%", s > 0 ? "," : "", label,
                                all > 0 ? 100.0 * cycles[state] / all : 0);
      if (balance->least->len > 0 && balance->most->len > 0)
        {
          g_autofree char *least = tes_tiles_unit_name (report, &g_array_index (balance->least, TesTileActivity, 0));
          g_autofree char *busiest = tes_tiles_unit_name (report, &g_array_index (balance->most, TesTileActivity, 0));

          /* Translators: the least and the most busy tile (or core) of an IPU (or device) */
          g_string_append_printf (text, _(", least busy %s, most busy %s"), least, busiest);
        }
      if (balance->tiles != NULL && balance->tiles->len > 0)
        {
          g_autoptr(TesTileChart) chart = tes_tile_chart_new (balance, 0, 0, balance->tiles->len, 1);
          double lowest = 1, highest = 0;

          for (guint t = 0; t < balance->tiles->len; t++)
            {
              double share = tes_tile_activity_busy_share (&g_array_index (balance->tiles, TesTileActivity, t));

              lowest = MIN (lowest, share);
              highest = MAX (highest, share);
            }
          /* Translators: the chart of every tile (or core, engine) of an IPU (or device) by the share of the range it worked */
          g_string_append_printf (text, _(", a chart of each one's busy share in order: mean %.1f %%, lowest %.1f %%, "
                                          "highest %.1f %%"), 100 * chart->mean, 100 * lowest, 100 * highest);
        }
    }

  if ((tile = listed_tile (self->balances, self->selected, &most, &of)) == NULL && self->selected_tile >= 0)
    {
      int index, b = tes_tile_balances_find (self->balances, self->selected_ipu, self->selected_tile, &index);

      if (b >= 0)
        {
          of = g_ptr_array_index (self->balances, b);
          tile = &g_array_index (of->tiles, TesTileActivity, index);
        }
    }
  if (tile != NULL)
    {
      g_autofree char *busy = tes_tiles_busy_text (workspace, of, tile);
      g_autofree char *name = tes_tiles_unit_name (report, tile);
      const TesTrack *unit = tile->track_id != 0 ? tes_report_get_track (report, tile->track_id) : NULL;
      g_autofree char *group = unit != NULL && unit->parent_id != 0 ? tes_report_dup_unit_device_name (report, unit->id)
                                                                    : g_strdup_printf (_("IPU %d"), tile->ipu);

      /* Translators: the tile the keys selected: its IPU (or device), the tile (or core) and its busy time */
      g_string_append_printf (text, _(". Selected: %s, %s, %s busy"), group, name, busy);
    }
  g_string_append_c (text, '.');

  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
update_description (TesTilesSection *self)
{
  g_autofree char *text = tes_tiles_section_describe (self);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self->area), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}

/* tiles.move(by): Up and Down through the listed tiles */
static void
move_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  TesTilesSection *self = TES_TILES_SECTION (widget);
  guint n = n_listed (self->balances);

  if (n == 0)
    return;
  self->selected = self->selected < 0 ? 0 : CLAMP (self->selected + g_variant_get_int32 (param), 0, (int)n - 1);
  {
    gboolean most;
    const TesTileBalance *of;
    const TesTileActivity *tile = listed_tile (self->balances, self->selected, &most, &of);

    self->selected_ipu = tile->ipu;
    self->selected_tile = tile->tile;
  }
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
}

/* tiles.activate: Enter makes the selected tile the workspace's */
static void
activate_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *param)
{
  TesTilesSection *self = TES_TILES_SECTION (widget);
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));
  const TesTileActivity *tile;
  gboolean most;
  const TesTileBalance *of;

  if (workspace == NULL || (tile = listed_tile (self->balances, self->selected, &most, &of)) == NULL)
    return;
  tes_workspace_set_ipu (workspace, tile->ipu);
  tes_workspace_set_tile (workspace, tile->tile);
}

/* The tile marked, in the lists too when listed there (the line the keys
 * are on, if it is that tile). */
static void
list_selected_tile (TesTilesSection *self)
{
  gboolean most;
  const TesTileBalance *of;
  const TesTileActivity *listed = listed_tile (self->balances, self->selected, &most, &of);

  if (self->selected_tile < 0)
    return;
  if (listed == NULL || listed->tile != self->selected_tile ||
      (self->selected_ipu >= 0 && listed->ipu != self->selected_ipu))
    self->selected = tes_tile_balances_listed (self->balances, self->selected_ipu, self->selected_tile);
}

/* The workspace's IPU and tile, marked. */
static void
follow_tile (TesTilesSection *self)
{
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));

  if (workspace == NULL)
    return;
  self->selected_ipu = tes_workspace_get_ipu (workspace);
  self->selected_tile = tes_workspace_get_tile (workspace);
  if (self->selected_tile < 0)
    self->selected = -1;
  list_selected_tile (self);
  self->reveal = self->selected_tile >= 0 && !reveal_tile (self);
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
}

/**
 * tes_tiles_section_click:
 *
 * A click on a bar of a chart of every tile makes its tile (the one the
 * bar draws) the workspace's, which marks it.
 *
 * Returns: whether a bar was there
 */
gboolean
tes_tiles_section_click (TesTilesSection *self,
                         double           x,
                         double           y)
{
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));

  g_return_val_if_fail (TES_IS_TILES_SECTION (self), FALSE);

  for (guint i = 0; workspace != NULL && self->balances != NULL && i < self->charts->len; i++)
    {
      const TesTileChartRect *rect = &g_array_index (self->charts, TesTileChartRect, i);
      const TesTileBalance *balance;
      g_autoptr(TesTileChart) chart = NULL;
      int index;

      if (rect->balance >= self->balances->len || y < rect->y || y >= rect->y + rect->height)
        continue;
      balance = g_ptr_array_index (self->balances, rect->balance);
      chart = tes_tile_chart_new (balance, rect->x, rect->y, rect->width, rect->height);
      if ((index = tes_tile_chart_tile_at (chart, x)) < 0)
        return FALSE;
      tes_workspace_set_ipu (workspace, g_array_index (balance->tiles, TesTileActivity, index).ipu);
      tes_workspace_set_tile (workspace, g_array_index (balance->tiles, TesTileActivity, index).tile);
      return TRUE;
    }

  return FALSE;
}

static void
pressed_cb (TesTilesSection *self,
            int              n_press,
            double           x,
            double           y)
{
  tes_tiles_section_click (self, x, y);
}

static void
tes_tiles_section_show_balances (TesTilesSection *self)
{
  self->selected = MIN (self->selected, (int)n_listed (self->balances) - 1);
  list_selected_tile (self);
  if (self->area != NULL)
    {
      update_description (self);
      /* new balances, a new layout: measure () asks it */
      gtk_widget_queue_resize (GTK_WIDGET (self->area));
    }
}

static void
balances_ready (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  TesTilesSection *self = TES_TILES_SECTION (object);
  g_autoptr(GError) error = NULL;
  GPtrArray *balances = g_task_propagate_pointer (G_TASK (result), &error);

  /* a later range's is on its way */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self->updating = FALSE;
  g_clear_pointer (&self->balances, g_ptr_array_unref);
  self->balances = balances;
  if (balances == NULL)
    g_warning ("Cannot read the tiles' steps: %s", error->message);
  tes_tiles_section_show_balances (self);
}

/* Works out the range's balances in a thread (a vendor's units read every
 * slice in the range; a Poplar run's steps, once loaded, their sums); the
 * last ones stay drawn until then. */
static void
tes_tiles_section_update (TesTilesSection *self)
{
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));
  g_autoptr(GTask) task = NULL;
  BalanceJob *job;

  /* not while the trace zooms with this section hidden, but when it shows */
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      self->stale = TRUE;
      return;
    }
  self->stale = FALSE;
  g_cancellable_cancel (self->balance_cancellable);
  g_clear_object (&self->balance_cancellable);

  if (workspace == NULL)
    {
      self->updating = FALSE;
      g_clear_pointer (&self->balances, g_ptr_array_unref);
      tes_tiles_section_show_balances (self);
      return;
    }

  self->updating = TRUE;
  /* the steps' sums are on their way: ipus_loaded () updates again */
  if (self->steps_loading)
    {
      tes_tiles_section_show_balances (self);
      return;
    }

  job = g_new0 (BalanceJob, 1);
  job->report = g_object_ref (tes_workspace_get_report (workspace));
  if ((job->ipus = tes_bsp_peek_ipus (job->report)) != NULL)
    g_ptr_array_ref (job->ipus);
  tes_tiles_balance_range (workspace, &job->t0, &job->t1);

  self->balance_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->balance_cancellable, balances_ready, NULL);
  g_task_set_source_tag (task, tes_tiles_section_update);
  g_task_set_task_data (task, job, balance_job_free);
  g_task_run_in_thread (task, balance_thread);
  tes_tiles_section_show_balances (self);
}

static void
tes_tiles_section_map (GtkWidget *widget)
{
  TesTilesSection *self = TES_TILES_SECTION (widget);

  GTK_WIDGET_CLASS (tes_tiles_section_parent_class)->map (widget);
  if (self->stale)
    tes_tiles_section_update (self);
}

static gboolean
tes_tiles_section_has_data (TesWorkspace *workspace)
{
  TesReport *report = tes_workspace_get_report (workspace);
  TesReportCounts counts;

  tes_report_get_counts (report, &counts);
  if (counts.n_bsp_steps > 0)
    return TRUE;

  /* a vendor's cores with slices on them or their threads */
  for (gint64 id = 1; id <= counts.n_tracks; id++)
    {
      const TesTrack *track = tes_report_get_track (report, id);

      for (const TesTrack *up = track; up != NULL && track->n_slices > 0;
           up = up->parent_id != 0 ? tes_report_get_track (report, up->parent_id) : NULL)
        if (up->kind == TES_TRACK_CORE)
          return TRUE;
    }

  return FALSE;
}

/* The steps' sums are there (tes_bsp_peek_ipus ()): the balances from
 * them. Failed, the balances come from the steps through SQL. */
static void
ipus_loaded (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(TesTilesSection) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) ipus = tes_bsp_load_ipus_finish (TES_REPORT (object), result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self->steps_loading = FALSE;
  if (self->updating || self->stale)
    tes_tiles_section_update (self);
}

static void
tes_tiles_section_workspace_changed (TesSection   *section,
                                     TesWorkspace *old_workspace)
{
  TesTilesSection *self = (TesTilesSection *)section;
  TesWorkspace *workspace = tes_section_get_workspace (section);

  if (old_workspace != NULL)
    g_signal_handlers_disconnect_by_data (old_workspace, self);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->steps_loading = FALSE;
  g_clear_pointer (&self->balances, g_ptr_array_unref);

  if (workspace != NULL)
    {
      TesReportCounts counts;

      tes_report_get_counts (tes_workspace_get_report (workspace), &counts);
      if (counts.n_bsp_steps > 0 && tes_bsp_peek_ipus (tes_workspace_get_report (workspace)) == NULL)
        {
          self->cancellable = g_cancellable_new ();
          self->steps_loading = TRUE;
          tes_bsp_load_ipus_async (tes_workspace_get_report (workspace), self->cancellable, ipus_loaded,
                                   g_object_ref (self));
        }
    }

  if (workspace != NULL)
    {
      g_signal_connect_object (workspace, "notify::ipu", G_CALLBACK (follow_tile), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (workspace, "notify::tile", G_CALLBACK (follow_tile), self, G_CONNECT_SWAPPED);
    }
  self->selected = -1;
  self->selected_ipu = self->selected_tile = -1;
  follow_tile (self);
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

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_cancellable_cancel (self->balance_cancellable);
  g_clear_object (&self->balance_cancellable);
  g_clear_pointer (&self->balances, g_ptr_array_unref);
  g_clear_pointer (&self->charts, g_array_unref);
  g_clear_handle_id (&self->reveal_id, g_source_remove);
  self->area = NULL;
  gtk_widget_dispose_template (GTK_WIDGET (object), TES_TYPE_TILES_SECTION);

  G_OBJECT_CLASS (tes_tiles_section_parent_class)->dispose (object);
}

static void
tes_tiles_section_class_init (TesTilesSectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  TesSectionClass *section_class = TES_SECTION_CLASS (klass);

  object_class->dispose = tes_tiles_section_dispose;
  widget_class->map = tes_tiles_section_map;

  section_class->title = _("Tile Balance");
  section_class->icon_name = "view-grid-symbolic";
  section_class->views = tiles_views;
  section_class->has_data = tes_tiles_section_has_data;
  section_class->workspace_changed = tes_tiles_section_workspace_changed;
  section_class->render = tes_tiles_section_render;

  g_type_ensure (TES_TYPE_CANVAS);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tessera/Tessera/widgets/tes-tiles-section.ui");
  gtk_widget_class_bind_template_child (widget_class, TesTilesSection, area);

  gtk_widget_class_install_action (widget_class, "tiles.move", "i", move_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, 0, "tiles.move", "i", -1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, 0, "tiles.move", "i", 1);
  gtk_widget_class_install_action (widget_class, "tiles.activate", NULL, activate_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, 0, "tiles.activate", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, 0, "tiles.activate", NULL);
}

static void
tes_tiles_section_init (TesTilesSection *self)
{
  GtkGesture *click = gtk_gesture_click_new ();

  self->selected = -1;
  self->selected_ipu = self->selected_tile = -1;
  self->charts = g_array_new (FALSE, FALSE, sizeof (TesTileChartRect));
  gtk_widget_init_template (GTK_WIDGET (self));
  tes_canvas_set_funcs (self->area, height_cb, draw_cb, self);
  g_signal_connect_object (click, "pressed", G_CALLBACK (pressed_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->area), GTK_EVENT_CONTROLLER (click));
  update_description (self);
}

/* The balances shown, per IPU (NULL while the section has not shown the
 * range). */
GPtrArray *
tes_tiles_section_get_balances (TesTilesSection *self)
{
  g_return_val_if_fail (TES_IS_TILES_SECTION (self), NULL);

  return self->balances;
}

/* Whether the balances for the range asked for are still being worked
 * out (those shown are the last range's, or none). */
gboolean
tes_tiles_section_get_updating (TesTilesSection *self)
{
  g_return_val_if_fail (TES_IS_TILES_SECTION (self), FALSE);

  return self->updating;
}

/* The tile marked in the charts (the workspace's, or the keys'), its IPU
 * in @ipu; -1: none. */
int
tes_tiles_section_get_selected_tile (TesTilesSection *self,
                                     int             *ipu)
{
  g_return_val_if_fail (TES_IS_TILES_SECTION (self), -1);

  if (ipu != NULL)
    *ipu = self->selected_ipu;

  return self->selected_tile;
}

/* Where the charts of every tile were last drawn (TesTileChartRect). */
GArray *
tes_tiles_section_get_charts (TesTilesSection *self)
{
  g_return_val_if_fail (TES_IS_TILES_SECTION (self), NULL);

  return self->charts;
}
