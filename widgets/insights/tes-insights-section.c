/* tes-insights-section.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-insights-section"

#include "config.h"

#include <glib/gi18n.h>

#include "tes-insights-render.h"
#include "tes-insights-section.h"
#include "tes-row-item.h"

/* The few places where the run's time and memory go wrong, costliest
 * first (tes_insights_compute(), in a thread): per finding its cost and
 * share, its sentence, its evidence and a button that shows it.
 * Activating one (Enter, a double-click, its button) puts its selection on
 * the workspace (tes_insight_apply()) and asks the window, through the
 * action `win.show-finding`, to show its section (tes_insight_show(), which
 * the Compare section's findings go through too). The section is hidden
 * until it has findings (an error shows too): the sidebar lists it first
 * then, and not at all for a run with nothing to say. */

struct _TesInsightsSection
{
  TesSection          parent_instance;

  /* the template's */
  GtkStack           *stack;
  GtkLabel           *headline;
  GtkListView        *list;
  GtkLabel           *message;

  GListStore         *store;
  GtkSingleSelection *selection;
  GPtrArray          *insights;     /* TesInsight, the rows borrow them */
  GPtrArray          *rows;         /* TesInsightRow */
  char               *error;
  GCancellable       *cancellable;
};

G_DEFINE_FINAL_TYPE (TesInsightsSection, tes_insights_section, TES_TYPE_SECTION)

static const char * const insights_views[] = { "insights", NULL };

/* What one row's widgets are, found again at bind time. */
typedef struct
{
  GtkLabel  *rank;
  GtkLabel  *head;
  GtkLabel  *sentence;
  GtkLabel  *evidence;
  GtkLabel  *target;
  GtkButton *show;
} RowWidgets;

static GtkLabel *
row_label (GtkBox     *box,
           const char *style)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  if (style != NULL)
    gtk_widget_add_css_class (label, style);
  gtk_box_append (box, label);

  return GTK_LABEL (label);
}

/* the button activates its row, as Enter does: the list's own action */
static void
show_clicked_cb (GtkButton   *button,
                 GtkListItem *item)
{
  gtk_widget_activate_action (GTK_WIDGET (button), "list.activate-item", "u", gtk_list_item_get_position (item));
}

static void
setup_row_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              gpointer                  data)
{
  RowWidgets *w = g_new0 (RowWidgets, 1);
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);

  gtk_widget_set_margin_start (row, 12);
  gtk_widget_set_margin_end (row, 12);
  gtk_widget_set_margin_top (row, 8);
  gtk_widget_set_margin_bottom (row, 8);

  w->rank = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_set_valign (GTK_WIDGET (w->rank), GTK_ALIGN_START);
  gtk_label_set_width_chars (w->rank, 3);
  gtk_label_set_xalign (w->rank, 1);
  gtk_widget_add_css_class (GTK_WIDGET (w->rank), "title-4");
  gtk_widget_add_css_class (GTK_WIDGET (w->rank), "dim-label");
  gtk_box_append (GTK_BOX (row), GTK_WIDGET (w->rank));

  gtk_widget_set_hexpand (text, TRUE);
  w->head = row_label (GTK_BOX (text), "heading");
  w->sentence = row_label (GTK_BOX (text), NULL);
  w->evidence = row_label (GTK_BOX (text), "dim-label");
  gtk_widget_add_css_class (GTK_WIDGET (w->evidence), "caption");
  w->target = row_label (GTK_BOX (text), "caption");
  gtk_box_append (GTK_BOX (row), text);

  w->show = GTK_BUTTON (gtk_button_new ());
  gtk_widget_set_valign (GTK_WIDGET (w->show), GTK_ALIGN_CENTER);
  g_signal_connect (w->show, "clicked", G_CALLBACK (show_clicked_cb), item);
  gtk_box_append (GTK_BOX (row), GTK_WIDGET (w->show));

  g_object_set_data_full (G_OBJECT (row), "tes-row-widgets", w, g_free);
  gtk_list_item_set_child (item, row);
}

static void
bind_row_cb (GtkSignalListItemFactory *factory,
             GtkListItem              *item,
             gpointer                  data)
{
  GtkWidget *child = gtk_list_item_get_child (item);
  RowWidgets *w = g_object_get_data (G_OBJECT (child), "tes-row-widgets");
  const TesInsightRow *row = tes_row_item_get (gtk_list_item_get_item (item));
  g_autofree char *rank = g_strdup_printf ("%u", row->rank);
  g_autofree char *target = g_strdup_printf ("→ %s", row->target);

  gtk_label_set_label (w->rank, rank);
  gtk_label_set_label (w->head, row->head);
  gtk_label_set_label (w->sentence, row->sentence);
  gtk_label_set_label (w->evidence, row->evidence);
  gtk_label_set_label (w->target, target);
  gtk_button_set_label (w->show, row->show_label);
  gtk_widget_set_tooltip_text (GTK_WIDGET (w->show), row->target);

  /* what screen readers say: the row is one finding. GTK 4.8 names no
   * list item, so the row's widget (the focused one) carries it too. */
  gtk_accessible_update_property (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_PROPERTY_LABEL, row->accessible, -1);
  if (gtk_widget_get_parent (child) != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (gtk_widget_get_parent (child)),
                                    GTK_ACCESSIBLE_PROPERTY_LABEL, row->accessible, -1);
}

/**
 * tes_insights_row_factory_new:
 *
 * The rows of a list of findings (TesRowItem of TesInsightRow), as the
 * Insights and Compare sections show them: the rank, the cost, share and
 * area, the sentence, the evidence, where it is shown and a button that
 * activates the row (the list's `activate`, as Enter and a double-click
 * do). Each row's accessible label says all of it.
 *
 * Returns: (transfer full): the factory
 */
GtkListItemFactory *
tes_insights_row_factory_new (void)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (setup_row_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row_cb), NULL);

  return factory;
}

/**
 * tes_insight_show:
 * @workspace: the workspace of the run the finding is in
 * @widget: where the action is activated from (in the window that shows
 *   @workspace)
 *
 * Shows a finding, the one way every list of findings does: its selection
 * goes on @workspace (tes_insight_apply()), then the action
 * `win.show-finding` ("(sxs)": the view, the lane's track or 0, the
 * operator or "") asks the window to show the section of that view with
 * the lane and operator chosen there.
 */
void
tes_insight_show (const TesInsight *insight,
                  TesWorkspace     *workspace,
                  GtkWidget        *widget)
{
  const TesInsightTarget *t;

  g_return_if_fail (insight != NULL && TES_IS_WORKSPACE (workspace) && GTK_IS_WIDGET (widget));

  t = &insight->target;
  tes_insight_apply (insight, workspace);
  gtk_widget_activate_action (widget, "win.show-finding", "(sxs)",
                              t->view != NULL ? t->view : "summary", t->track_id > 0 ? t->track_id : (gint64)0,
                              t->operator_name != NULL ? t->operator_name : "");
}

static void
row_activated_cb (TesInsightsSection *self,
                  guint               position)
{
  tes_insights_section_activate (self, position);
}

static void
show_message (TesInsightsSection *self,
              const char         *text)
{
  gtk_label_set_label (self->message, text);
  gtk_stack_set_visible_child_name (self->stack, "message");
}

static void
compute_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  TesInsightsSection *self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree char *headline = NULL;
  GPtrArray *insights = tes_insights_compute_finish (TES_REPORT (object), result, &error);

  /* cancelled: the section is going, or shows another report */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_object_unref (self);
      return;
    }
  g_clear_object (&self->cancellable);

  if (insights == NULL)
    {
      self->error = g_strdup (error->message);
      show_message (self, error->message);
      gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
      g_object_unref (self);
      return;
    }

  self->insights = insights;
  self->rows = tes_insights_layout_rows (insights);
  for (guint i = 0; i < self->rows->len; i++)
    g_ptr_array_add (items, tes_row_item_new (g_ptr_array_index (self->rows, i), NULL));
  g_list_store_splice (self->store, 0, 0, items->pdata, items->len);

  headline = tes_insights_layout_headline (insights);
  gtk_label_set_label (self->headline, headline);
  if (insights->len > 0)
    gtk_stack_set_visible_child_name (self->stack, "list");
  else
    show_message (self, headline);
  gtk_widget_set_visible (GTK_WIDGET (self), insights->len > 0);
  g_object_unref (self);
}

/* Back to nothing: the rows borrow the findings, so they go first. */
static void
clear (TesInsightsSection *self)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->selection != NULL)
    gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  if (self->store != NULL)
    g_list_store_remove_all (self->store);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_clear_pointer (&self->insights, g_ptr_array_unref);
  g_clear_pointer (&self->error, g_free);
}

static gboolean
tes_insights_section_has_data (TesWorkspace *workspace)
{
  /* every report may have findings: the section shows once it has some */
  return TRUE;
}

static void
tes_insights_section_workspace_changed (TesSection   *section,
                                        TesWorkspace *old_workspace)
{
  TesInsightsSection *self = (TesInsightsSection *)section;
  TesWorkspace *workspace = tes_section_get_workspace (section);
  TesInsightThresholds thresholds;

  clear (self);
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
  gtk_stack_set_visible_child_name (self->stack, "loading");
  if (workspace == NULL)
    return;

  /* the run's own findings, as the render draws them (a linked run is
   * the Compare section's) */
  tes_insight_thresholds_init (&thresholds);
  self->cancellable = g_cancellable_new ();
  tes_insights_compute_async (tes_workspace_get_report (workspace), NULL, &thresholds, self->cancellable,
                              compute_cb, g_object_ref (self));
}

/* Export View: the findings computed already, not computed again */
static gboolean
tes_insights_section_render_loaded (TesSection  *section,
                                    const char  *view,
                                    cairo_t     *cr,
                                    int          width,
                                    int          height,
                                    GError     **error)
{
  TesInsightsSection *self = (TesInsightsSection *)section;
  TesWorkspace *workspace = tes_section_get_workspace (section);

  if (self->insights == NULL || workspace == NULL)
    return FALSE;

  return tes_insights_render_report (tes_workspace_get_report (workspace), self->insights, cr, width, height, error);
}

static void
tes_insights_section_dispose (GObject *object)
{
  TesInsightsSection *self = (TesInsightsSection *)object;

  if (self->list != NULL)
    gtk_list_view_set_model (self->list, NULL);
  clear (self);
  gtk_widget_dispose_template (GTK_WIDGET (object), TES_TYPE_INSIGHTS_SECTION);
  g_clear_object (&self->selection);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (tes_insights_section_parent_class)->dispose (object);
}

static void
tes_insights_section_class_init (TesInsightsSectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  TesSectionClass *section_class = TES_SECTION_CLASS (klass);

  object_class->dispose = tes_insights_section_dispose;

  section_class->title = _("Insights");
  section_class->icon_name = "dialog-information-symbolic";
  section_class->views = insights_views;
  section_class->has_data = tes_insights_section_has_data;
  section_class->workspace_changed = tes_insights_section_workspace_changed;
  section_class->render = tes_insights_render;
  section_class->render_loaded = tes_insights_section_render_loaded;

  gtk_widget_class_set_template_from_resource (widget_class, "/org/tessera/Tessera/widgets/tes-insights-section.ui");
  gtk_widget_class_bind_template_child (widget_class, TesInsightsSection, stack);
  gtk_widget_class_bind_template_child (widget_class, TesInsightsSection, headline);
  gtk_widget_class_bind_template_child (widget_class, TesInsightsSection, list);
  gtk_widget_class_bind_template_child (widget_class, TesInsightsSection, message);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);

  gtk_widget_class_set_css_name (widget_class, "insights");
}

static void
tes_insights_section_init (TesInsightsSection *self)
{
  g_autoptr(GtkListItemFactory) factory = tes_insights_row_factory_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);

  self->store = g_list_store_new (TES_TYPE_ROW_ITEM);
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->store)));
  /* nothing chosen until the keyboard or the pointer chooses */
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_list_view_set_factory (self->list, factory);
  gtk_list_view_set_model (self->list, GTK_SELECTION_MODEL (self->selection));
}

/* The findings once computed (TesInsight, ranked), else %NULL. */
GPtrArray *
tes_insights_section_get_insights (TesInsightsSection *self)
{
  g_return_val_if_fail (TES_IS_INSIGHTS_SECTION (self), NULL);

  return self->insights;
}

/* The rows as listed (TesRowItem of TesInsightRow). */
GListModel *
tes_insights_section_get_rows (TesInsightsSection *self)
{
  g_return_val_if_fail (TES_IS_INSIGHTS_SECTION (self), NULL);

  return G_LIST_MODEL (self->selection);
}

GtkListView *
tes_insights_section_get_list (TesInsightsSection *self)
{
  g_return_val_if_fail (TES_IS_INSIGHTS_SECTION (self), NULL);

  return self->list;
}

gboolean
tes_insights_section_is_loading (TesInsightsSection *self)
{
  g_return_val_if_fail (TES_IS_INSIGHTS_SECTION (self), FALSE);

  return self->cancellable != NULL;
}

/* Why the findings could not be computed, as the section shows it. */
const char *
tes_insights_section_get_error (TesInsightsSection *self)
{
  g_return_val_if_fail (TES_IS_INSIGHTS_SECTION (self), NULL);

  return self->error;
}

/**
 * tes_insights_section_activate:
 * @position: the row's
 *
 * Shows the finding: its selection goes on the workspace (B's, for a
 * finding in the compared run), then the action `win.show-finding`
 * ("(sxs)": the view, the lane's track or 0, the operator or "") asks the
 * window to show the section of that view with the lane and operator
 * chosen there.
 */
void
tes_insights_section_activate (TesInsightsSection *self,
                               guint               position)
{
  TesWorkspace *workspace;
  TesRowItem *item;
  const TesInsightRow *row;

  g_return_if_fail (TES_IS_INSIGHTS_SECTION (self));

  if (!(item = g_list_model_get_item (G_LIST_MODEL (self->selection), position)))
    return;
  row = tes_row_item_get (item);
  g_object_unref (item);

  gtk_single_selection_set_selected (self->selection, position);
  workspace = tes_section_get_workspace (TES_SECTION (self));
  if (row->insight->target.in_b && tes_workspace_get_linked (workspace) != NULL)
    workspace = tes_workspace_get_linked (workspace);
  tes_insight_show (row->insight, workspace, GTK_WIDGET (self));
}
