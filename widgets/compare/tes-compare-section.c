/* tes-compare-section.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-compare-section"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "tes-compare-overview.h"
#include "tes-compare-render.h"
#include "tes-compare-section.h"
#include "tes-insights-section.h"
#include "tes-row-item.h"
#include "tes-table.h"
#include "tes-trace-section.h"

/* Two runs side by side: the section's workspace is run A, the one it is
 * linked to run B (tes_workspace_link()), so that it has data only where
 * two runs are compared. Their traces one above the other (or side by
 * side), moving together, and below them the operator diff, largest
 * change first, or the runs compared as a whole, both read in a thread.
 * Choosing a row finds that operator in both traces; the traces line up
 * on the runs' starts or on that operator's first start in each. Between
 * the traces and the tables, the two runs' findings (regressions, steps
 * slower, memory changed: tes_insights_compute_two_runs(), in a thread),
 * listed as the Insights section lists its own; activating one emits
 * ::show-finding for the window to show it in run B. */

struct _TesCompareSection
{
  TesSection          parent_instance;

  /* the template's */
  GtkPaned           *paned;
  GtkBox             *traces;
  GtkLabel           *title_a;
  GtkLabel           *title_b;
  TesTraceView       *trace_a;
  TesTraceView       *trace_b;
  GtkButton          *align_operator_button;
  GtkButton          *align_start_button;
  GtkStack           *pages;
  GtkStack           *operators_stack;
  GtkColumnView      *table;
  GtkLabel           *operators_error;
  GtkStack           *summary_stack;
  GtkLabel           *summary_error;
  GtkLabel           *findings_headline;
  GtkScrolledWindow  *findings_scroller;
  GtkListView        *findings_list;

  TesWorkspace       *workspaces[2];  /* A and B, held: the link is weak */
  GListStore         *store;
  GtkSingleSelection *selection;
  GtkColumnViewColumn *columns[TES_COMPARE_N_COLUMNS];
  GtkWidget          *overview;
  TesCompareModel    *model;
  GListStore         *findings_store;
  GtkSingleSelection *findings_selection;
  GPtrArray          *insights;       /* the two runs' findings; the rows borrow them */
  GPtrArray          *finding_rows;   /* TesInsightRow */
  char               *error;
  GCancellable       *cancellable;    /* the load and the alignment of this pair */
  gboolean            aligning;       /* an operator's starts are being looked up */
  gboolean            on_operator;    /* aligned on one: "Align on Start" undoes it */
  gboolean            timed;          /* both runs have slices to line up */
  gboolean            positioned;     /* the panes split as the render does */
};

G_DEFINE_FINAL_TYPE (TesCompareSection, tes_compare_section, TES_TYPE_SECTION)

enum {
  SHOW_FINDING,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const char * const compare_views[] = { "compare", "compare-summary", NULL };

static TesTraceView *
trace_of (TesCompareSection *self,
          guint              side)
{
  return side == 0 ? self->trace_a : self->trace_b;
}

static char *
cell_text (gconstpointer row,
           guint         column,
           gpointer      data)
{
  TesCompareSection *self = data;

  return self->model ? tes_compare_cell_text (self->model, row, column) : g_strdup ("");
}

static int
compare_cells (gconstpointer a,
               gconstpointer b,
               guint         column,
               gpointer      data)
{
  return tes_compare_cell_compare (a, b, column);
}

/* The row chosen, when the diff has one. */
static const TesCompareRow *
selected_row (TesCompareSection *self)
{
  TesRowItem *item = gtk_single_selection_get_selected_item (self->selection);

  return item ? tes_row_item_get (item) : NULL;
}

static void
update_align_buttons (TesCompareSection *self)
{
  const TesCompareRow *row = selected_row (self);

  /* an operator in both runs, and traces to show it in */
  gtk_widget_set_sensitive (GTK_WIDGET (self->align_operator_button),
                            !self->aligning && row != NULL && row->a != NULL && row->b != NULL && self->timed);
  gtk_widget_set_sensitive (GTK_WIDGET (self->align_start_button), !self->aligning && self->on_operator);
}

/* "^name$": the operator as the traces know it, whole */
static char *
operator_pattern (const TesCompareRow *row)
{
  const TesSummaryRow *either = row->a ? row->a : row->b;
  g_autofree char *escaped = g_regex_escape_string (either->name ? either->name : either->type, -1);

  return g_strdup_printf ("^%s$", escaped);
}

typedef struct
{
  TesReport *reports[2];
  char      *pattern;
  gint64     starts[2];     /* ns; G_MAXINT64: not found */
} AlignData;

static void
align_data_free (AlignData *data)
{
  g_clear_object (&data->reports[0]);
  g_clear_object (&data->reports[1]);
  g_free (data->pattern);
  g_free (data);
}

/* The operator's first start in each run, in ns. */
static void
find_starts_thread (GTask        *task,
                    gpointer      source,
                    gpointer      task_data,
                    GCancellable *cancellable)
{
  AlignData *data = task_data;

  for (guint side = 0; side < 2; side++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GArray) matches = tes_report_search (data->reports[side], data->pattern, TRUE, cancellable, &error);

      if (matches == NULL)
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      data->starts[side] = G_MAXINT64;
      for (guint i = 0; i < matches->len; i++)
        {
          const TesSearchMatch *match = &g_array_index (matches, TesSearchMatch, i);
          const TesTrack *track = tes_report_get_track (data->reports[side], match->track_id);
          gint64 start = tes_report_convert_time (data->reports[side], track ? track->clock_id : 0, 0, match->start);

          data->starts[side] = MIN (data->starts[side], start);
        }
    }

  g_task_return_boolean (task, TRUE);
}

static void
find_starts_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  TesCompareSection *self = TES_COMPARE_SECTION (object);
  AlignData *data = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;

  /* cancelled: the section is going, or shows other runs */
  if (!g_task_propagate_boolean (G_TASK (result), &error) &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self->aligning = FALSE;
  if (error != NULL)
    g_warning ("Cannot find the operator to align on: %s", error->message);
  else if (data->starts[0] != G_MAXINT64 && data->starts[1] != G_MAXINT64)
    tes_compare_section_align (self, data->starts[0], data->starts[1]);
  update_align_buttons (self);
}

static void
align_operator_clicked_cb (TesCompareSection *self)
{
  const TesCompareRow *row = selected_row (self);
  g_autoptr(GTask) task = NULL;
  AlignData *data;

  if (row == NULL || row->a == NULL || row->b == NULL)
    return;

  data = g_new0 (AlignData, 1);
  for (guint side = 0; side < 2; side++)
    data->reports[side] = g_object_ref (tes_workspace_get_report (self->workspaces[side]));
  data->pattern = operator_pattern (row);

  self->aligning = TRUE;
  update_align_buttons (self);
  task = g_task_new (self, self->cancellable, find_starts_cb, NULL);
  g_task_set_source_tag (task, align_operator_clicked_cb);
  g_task_set_task_data (task, data, (GDestroyNotify)align_data_free);
  g_task_run_in_thread (task, find_starts_thread);
}

/* A row double-clicked (or Enter on it): align on its operator. */
static void
row_activated_cb (TesCompareSection *self,
                  guint              position)
{
  gtk_single_selection_set_selected (self->selection, position);
  if (gtk_widget_get_sensitive (GTK_WIDGET (self->align_operator_button)))
    align_operator_clicked_cb (self);
}

static void
align_start_clicked_cb (TesCompareSection *self)
{
  gint64 a_start, b_start;

  tes_workspace_get_span (self->workspaces[0], &a_start, NULL);
  tes_workspace_get_span (self->workspaces[1], &b_start, NULL);
  tes_workspace_align_link (self->workspaces[0], a_start, b_start);
  self->on_operator = FALSE;
  update_align_buttons (self);
}

/* The operator of the chosen row, found in both traces: the rest greys. */
static void
selection_changed_cb (TesCompareSection *self)
{
  TesRowItem *item = gtk_single_selection_get_selected_item (self->selection);
  g_autofree char *escaped = NULL;
  g_autofree char *pattern = NULL;

  update_align_buttons (self);
  if (item == NULL)
    return;

  escaped = operator_pattern (tes_row_item_get (item));
  pattern = g_strdup_printf ("/%s/", escaped);
  for (guint side = 0; side < 2; side++)
    tes_trace_view_set_search (trace_of (self, side), pattern);
}

/* The summary is a page of tables: shown, it gets at least half the
 * height, which the traces give up. */
static void
page_changed_cb (TesCompareSection *self)
{
  int height = gtk_widget_get_height (GTK_WIDGET (self->paned));

  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->pages), "summary") == 0 &&
      height > 0 && gtk_paned_get_position (self->paned) > height / 2)
    gtk_paned_set_position (self->paned, height / 2);
}

/* The findings' list takes the room the render gives their rows. */
static void
size_findings (TesCompareSection *self)
{
  int height = gtk_widget_get_height (GTK_WIDGET (self->paned));
  TesCompareGeometry geometry;
  int rows;

  tes_compare_layout_geometry (height > 0 ? height : 800, TRUE, self->insights, &geometry);
  rows = (int)(geometry.findings_height - TES_COMPARE_FINDINGS_LINE);
  gtk_scrolled_window_set_max_content_height (self->findings_scroller, MAX (rows, TES_COMPARE_FINDING_HEIGHT));
}

/* Once sized, the traces take the share of the height the render gives
 * them; at every size, the findings' list the room for its rows. */
static void
paned_sized_cb (TesCompareSection *self)
{
  int height = gtk_widget_get_height (GTK_WIDGET (self->paned));
  TesCompareGeometry geometry;

  size_findings (self);
  if (self->positioned || height <= 0)
    return;
  tes_compare_layout_geometry (height, TRUE, self->insights, &geometry);
  gtk_paned_set_position (self->paned, (int)geometry.traces_height);
  self->positioned = TRUE;
}

static void
set_findings_headline (TesCompareSection *self)
{
  g_autofree char *headline = tes_compare_findings_headline (self->insights);
  GtkWidget *label = GTK_WIDGET (self->findings_headline);
  gboolean some = self->insights != NULL && self->insights->len > 0;

  gtk_label_set_label (self->findings_headline, headline);
  /* none: one quiet line; some: a heading over their list */
  if (some)
    {
      gtk_widget_remove_css_class (label, "dim-label");
      gtk_widget_add_css_class (label, "heading");
    }
  else
    {
      gtk_widget_remove_css_class (label, "heading");
      gtk_widget_add_css_class (label, "dim-label");
    }
  gtk_widget_set_visible (GTK_WIDGET (self->findings_scroller), some);
}

static void
findings_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  TesCompareSection *self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  GPtrArray *insights = tes_insights_compute_finish (TES_REPORT (object), result, &error);

  /* cancelled: the section is going, or shows other runs */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_object_unref (self);
      return;
    }

  if (insights == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("Could not look for findings: %s"), error->message);

      gtk_label_set_label (self->findings_headline, message);
      g_object_unref (self);
      return;
    }

  self->insights = insights;
  self->finding_rows = tes_insights_layout_rows (insights);
  for (guint i = 0; i < self->finding_rows->len; i++)
    g_ptr_array_add (items, tes_row_item_new (g_ptr_array_index (self->finding_rows, i), NULL));
  g_list_store_splice (self->findings_store, 0, 0, items->pdata, items->len);
  size_findings (self);
  set_findings_headline (self);
  g_object_unref (self);
}

/* Enter, a double-click or its button on a finding */
static void
finding_activated_cb (TesCompareSection *self,
                      guint              position)
{
  tes_compare_section_activate_finding (self, position);
}

/* Both runs' rows and summary, read off the main loop. */
static void
load_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  TesReport **reports = task_data;
  GError *error = NULL;
  TesCompareModel *model = tes_compare_model_new (reports[0], reports[1], cancellable, &error);

  if (model == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, model, (GDestroyNotify)tes_compare_model_free);
}

static void
free_reports (TesReport **reports)
{
  g_clear_object (&reports[0]);
  g_clear_object (&reports[1]);
  g_free (reports);
}

static void
show_error (TesCompareSection *self,
            const char        *message)
{
  g_free (self->error);
  self->error = g_strdup (message);
  gtk_label_set_label (self->operators_error, message);
  gtk_label_set_label (self->summary_error, message);
  gtk_stack_set_visible_child_name (self->operators_stack, "error");
  gtk_stack_set_visible_child_name (self->summary_stack, "error");
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  TesCompareSection *self = TES_COMPARE_SECTION (object);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  TesCompareModel *model = g_task_propagate_pointer (G_TASK (result), &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (model == NULL)
    {
      show_error (self, error->message);
      return;
    }

  self->model = model;
  for (guint c = 0; c < TES_COMPARE_N_COLUMNS; c++)
    {
      g_autofree char *title = tes_compare_column_title (model, c);

      gtk_column_view_column_set_title (self->columns[c], title);
    }
  for (guint i = 0; i < model->comparison->rows->len; i++)
    g_ptr_array_add (items, tes_row_item_new (&g_array_index (model->comparison->rows, TesCompareRow, i), NULL));
  g_list_store_splice (self->store, 0, 0, items->pdata, items->len);
  gtk_stack_set_visible_child_name (self->operators_stack, "table");

  self->overview = tes_compare_overview_new (model);
  gtk_stack_add_named (self->summary_stack, self->overview, "overview");
  gtk_stack_set_visible_child (self->summary_stack, self->overview);
  update_align_buttons (self);
}

/* Back to nothing shown: the rows point into the model, so they go first. */
static void
clear (TesCompareSection *self)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->selection != NULL)
    gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  if (self->store != NULL)
    g_list_store_remove_all (self->store);
  if (self->overview != NULL)
    {
      gtk_stack_remove (self->summary_stack, self->overview);
      self->overview = NULL;
    }
  /* the rows borrow the findings: they go first */
  if (self->findings_selection != NULL)
    gtk_single_selection_set_selected (self->findings_selection, GTK_INVALID_LIST_POSITION);
  if (self->findings_store != NULL)
    g_list_store_remove_all (self->findings_store);
  g_clear_pointer (&self->finding_rows, g_ptr_array_unref);
  g_clear_pointer (&self->insights, g_ptr_array_unref);
  g_clear_pointer (&self->model, tes_compare_model_free);
  g_clear_pointer (&self->error, g_free);
  for (guint side = 0; side < 2; side++)
    g_clear_object (&self->workspaces[side]);
  self->aligning = self->on_operator = self->timed = FALSE;
}

static gboolean
tes_compare_section_has_data (TesWorkspace *workspace)
{
  return tes_workspace_get_linked (workspace) != NULL;
}

static void
tes_compare_section_workspace_changed (TesSection   *section,
                                       TesWorkspace *old_workspace)
{
  TesCompareSection *self = (TesCompareSection *)section;
  TesWorkspace *workspace = tes_section_get_workspace (section);
  g_autoptr(GTask) task = NULL;
  TesReport **reports;

  clear (self);
  gtk_stack_set_visible_child_name (self->operators_stack, "loading");
  gtk_stack_set_visible_child_name (self->summary_stack, "loading");
  set_findings_headline (self);

  if (workspace == NULL || tes_workspace_get_linked (workspace) == NULL)
    {
      for (guint side = 0; side < 2; side++)
        tes_trace_view_set_workspace (trace_of (self, side), NULL);
      if (workspace != NULL)
        show_error (self, _("There is no second run to compare with."));
      gtk_label_set_label (self->findings_headline, NULL);
      update_align_buttons (self);
      return;
    }

  self->workspaces[0] = g_object_ref (workspace);
  self->workspaces[1] = g_object_ref (tes_workspace_get_linked (workspace));
  self->cancellable = g_cancellable_new ();
  self->timed = TRUE;
  for (guint side = 0; side < 2; side++)
    {
      TesReport *report = tes_workspace_get_report (self->workspaces[side]);
      g_autofree char *title = tes_compare_run_title (report, side);
      /* two views: a screen reader tells them apart by their runs */
      /* Translators: the trace view of one run of a comparison, named by its title */
      g_autofree char *name = g_strdup_printf (_("Execution trace of %s"), title);
      TesReportCounts counts;

      gtk_label_set_label (side == 0 ? self->title_a : self->title_b, title);
      tes_trace_view_set_workspace (trace_of (self, side), self->workspaces[side]);
      gtk_accessible_update_property (GTK_ACCESSIBLE (trace_of (self, side)), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
      tes_report_get_counts (report, &counts);
      self->timed &= counts.n_slices > 0;
    }
  /* neither run has a trace: the table takes the height, as in the render */
  gtk_widget_set_visible (GTK_WIDGET (self->traces),
                          tes_section_type_has_data (TES_TYPE_TRACE_SECTION, self->workspaces[0]) ||
                          tes_section_type_has_data (TES_TYPE_TRACE_SECTION, self->workspaces[1]));
  update_align_buttons (self);

  reports = g_new0 (TesReport *, 2);
  for (guint side = 0; side < 2; side++)
    reports[side] = g_object_ref (tes_workspace_get_report (self->workspaces[side]));
  task = g_task_new (self, self->cancellable, load_cb, NULL);
  g_task_set_source_tag (task, tes_compare_section_workspace_changed);
  g_task_set_task_data (task, reports, (GDestroyNotify)free_reports);
  g_task_run_in_thread (task, load_thread);

  /* the two runs' findings, under the same cancellable: a new pair or the
   * section going cancels them */
  tes_insights_compute_two_runs_async (tes_workspace_get_report (self->workspaces[0]),
                                       tes_workspace_get_report (self->workspaces[1]), NULL, self->cancellable,
                                       findings_cb, g_object_ref (self));
}

/* Export View: both runs and their findings as read already */
static gboolean
tes_compare_section_render_loaded (TesSection  *section,
                                   const char  *view,
                                   cairo_t     *cr,
                                   int          width,
                                   int          height,
                                   GError     **error)
{
  TesCompareSection *self = (TesCompareSection *)section;

  if (self->model == NULL || self->insights == NULL)
    return FALSE;

  return tes_compare_render_model (cr, self->model, self->insights, self->workspaces[0], self->workspaces[1],
                                   g_strcmp0 (view, "compare-summary") == 0, width, height, error);
}

/* The tab shown: what Export View draws. */
static const char *
tes_compare_section_get_view_name (TesSection *section)
{
  TesCompareSection *self = (TesCompareSection *)section;

  return g_strcmp0 (gtk_stack_get_visible_child_name (self->pages), "summary") == 0 ? "compare-summary" : "compare";
}

static void
tes_compare_section_dispose (GObject *object)
{
  TesCompareSection *self = (TesCompareSection *)object;

  if (self->selection != NULL)
    gtk_column_view_set_model (self->table, NULL);
  if (self->findings_list != NULL)
    gtk_list_view_set_model (self->findings_list, NULL);
  clear (self);
  gtk_widget_dispose_template (GTK_WIDGET (object), TES_TYPE_COMPARE_SECTION);
  g_clear_object (&self->selection);
  g_clear_object (&self->store);
  g_clear_object (&self->findings_selection);
  g_clear_object (&self->findings_store);

  G_OBJECT_CLASS (tes_compare_section_parent_class)->dispose (object);
}

static void
tes_compare_section_class_init (TesCompareSectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  TesSectionClass *section_class = TES_SECTION_CLASS (klass);

  object_class->dispose = tes_compare_section_dispose;

  section_class->title = _("Compare");
  section_class->icon_name = "view-dual-symbolic";
  section_class->views = compare_views;
  section_class->get_view = tes_compare_section_get_view_name;
  section_class->has_data = tes_compare_section_has_data;
  section_class->workspace_changed = tes_compare_section_workspace_changed;
  section_class->render = tes_compare_render_workspace;
  section_class->render_loaded = tes_compare_section_render_loaded;

  g_type_ensure (TES_TYPE_TRACE_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tessera/Tessera/widgets/tes-compare-section.ui");
  gtk_widget_class_bind_template_child (widget_class, TesCompareSection, paned);
  gtk_widget_class_bind_template_child (widget_class, TesCompareSection, traces);
  gtk_widget_class_bind_template_child (widget_class, TesCompareSection, title_a);
  gtk_widget_class_bind_template_child (widget_class, TesCompareSection, title_b);
  gtk_widget_class_bind_template_child (widget_class, TesCompareSection, trace_a);
  gtk_widget_class_bind_template_child (widget_class, TesCompareSection, trace_b);
  gtk_widget_class_bind_template_child (widget_class, TesCompareSection, align_operator_button);
  gtk_widget_class_bind_template_child (widget_class, TesCompareSection, align_start_button);
  gtk_widget_class_bind_template_child (widget_class, TesCompareSection, pages);
  gtk_widget_class_bind_template_child (widget_class, TesCompareSection, operators_stack);
  gtk_widget_class_bind_template_child (widget_class, TesCompareSection, table);
  gtk_widget_class_bind_template_child (widget_class, TesCompareSection, operators_error);
  gtk_widget_class_bind_template_child (widget_class, TesCompareSection, summary_stack);
  gtk_widget_class_bind_template_child (widget_class, TesCompareSection, summary_error);
  gtk_widget_class_bind_template_child (widget_class, TesCompareSection, findings_headline);
  gtk_widget_class_bind_template_child (widget_class, TesCompareSection, findings_scroller);
  gtk_widget_class_bind_template_child (widget_class, TesCompareSection, findings_list);
  gtk_widget_class_bind_template_callback (widget_class, finding_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, align_operator_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, align_start_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, page_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, paned_sized_cb);

  gtk_widget_class_set_css_name (widget_class, "comparison");

  /**
   * TesCompareSection::show-finding:
   * @insight: (type gpointer): the finding activated (a TesInsight, alive
   *   for the emission)
   *
   * A finding was activated: the window shows it in run B (its target's
   * view, with tes_insight_show() on B's workspace there).
   */
  signals[SHOW_FINDING] = g_signal_new ("show-finding", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                        NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);
}

static void
tes_compare_section_init (TesCompareSection *self)
{
  /* titles once the unit is known (A (ms)…) */
  static const TesTableColumn columns[TES_COMPARE_N_COLUMNS] = {
    { N_("Operator"), FALSE, TRUE }, { "A", TRUE, FALSE }, { "B", TRUE, FALSE },
    { "Δ", TRUE, FALSE }, { "Δ %", TRUE, FALSE },
  };
  TesTableColumn translated[TES_COMPARE_N_COLUMNS];
  GtkSortListModel *sorted;
  g_autoptr(GtkListItemFactory) factory = tes_insights_row_factory_new ();

  gtk_widget_init_template (GTK_WIDGET (self));

  self->findings_store = g_list_store_new (TES_TYPE_ROW_ITEM);
  self->findings_selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->findings_store)));
  gtk_single_selection_set_autoselect (self->findings_selection, FALSE);
  gtk_single_selection_set_can_unselect (self->findings_selection, TRUE);
  gtk_list_view_set_factory (self->findings_list, factory);
  gtk_list_view_set_model (self->findings_list, GTK_SELECTION_MODEL (self->findings_selection));

  self->store = g_list_store_new (TES_TYPE_ROW_ITEM);
  for (guint c = 0; c < TES_COMPARE_N_COLUMNS; c++)
    translated[c] = (TesTableColumn) { _(columns[c].title), columns[c].numeric, columns[c].expand };
  tes_table_add_columns (self->table, translated, TES_COMPARE_N_COLUMNS, cell_text, compare_cells, self, self->columns);
  sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->store)),
                                    g_object_ref (gtk_column_view_get_sorter (self->table)));
  self->selection = gtk_single_selection_new (G_LIST_MODEL (sorted));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  gtk_column_view_set_model (self->table, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect_object (self->selection, "notify::selected", G_CALLBACK (selection_changed_cb),
                           self, G_CONNECT_SWAPPED);
}

/**
 * tes_compare_section_new:
 * @a: run A
 * @b: run B
 *
 * The section for two runs: their visible ranges are linked from here on
 * (the section's workspace is @a; @b is the one linked to it).
 */
GtkWidget *
tes_compare_section_new (TesWorkspace *a,
                         TesWorkspace *b)
{
  g_return_val_if_fail (TES_IS_WORKSPACE (a) && TES_IS_WORKSPACE (b), NULL);

  tes_workspace_link (a, b);

  return g_object_new (TES_TYPE_COMPARE_SECTION, "workspace", a, NULL);
}

TesTraceView *
tes_compare_section_get_trace (TesCompareSection *self,
                               guint              side)
{
  g_return_val_if_fail (TES_IS_COMPARE_SECTION (self), NULL);
  g_return_val_if_fail (side < 2, NULL);

  return trace_of (self, side);
}

/* Both runs once read, else %NULL (loading, or failed: see _get_error()). */
const TesCompareModel *
tes_compare_section_get_model (TesCompareSection *self)
{
  g_return_val_if_fail (TES_IS_COMPARE_SECTION (self), NULL);

  return self->model;
}

const TesComparison *
tes_compare_section_get_comparison (TesCompareSection *self)
{
  g_return_val_if_fail (TES_IS_COMPARE_SECTION (self), NULL);

  return self->model ? self->model->comparison : NULL;
}

const TesCompareSummary *
tes_compare_section_get_summary (TesCompareSection *self)
{
  g_return_val_if_fail (TES_IS_COMPARE_SECTION (self), NULL);

  return self->model ? self->model->summary : NULL;
}

/* Why the runs could not be read, as the section shows it; else %NULL. */
const char *
tes_compare_section_get_error (TesCompareSection *self)
{
  g_return_val_if_fail (TES_IS_COMPARE_SECTION (self), NULL);

  return self->error;
}

/* The diff's rows as shown (TesRowItem of TesCompareRow). */
GListModel *
tes_compare_section_get_rows (TesCompareSection *self)
{
  g_return_val_if_fail (TES_IS_COMPARE_SECTION (self), NULL);

  return G_LIST_MODEL (self->selection);
}

/* Whether either run has a trace to show (else the table takes the height). */
gboolean
tes_compare_section_get_has_traces (TesCompareSection *self)
{
  g_return_val_if_fail (TES_IS_COMPARE_SECTION (self), FALSE);

  return gtk_widget_get_visible (GTK_WIDGET (self->traces));
}

/* One above the other, or side by side. */
void
tes_compare_section_set_vertical (TesCompareSection *self,
                                  gboolean           vertical)
{
  g_return_if_fail (TES_IS_COMPARE_SECTION (self));

  gtk_orientable_set_orientation (GTK_ORIENTABLE (self->traces),
                                  vertical ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL);
}

void
tes_compare_section_select_row (TesCompareSection *self,
                                guint              position)
{
  g_return_if_fail (TES_IS_COMPARE_SECTION (self));

  gtk_single_selection_set_selected (self->selection, position);
}

/* Lines the traces up so that @a_time (ns) in run A shows where @b_time
 * does in run B: A's view moves to show it a tenth in from the left, at
 * the same zoom when both runs have room for it there. Each view stays
 * within its run, so where one run has less room before or after the
 * point, the point moves over or the views zoom in until both fit. */
void
tes_compare_section_align (TesCompareSection *self,
                           gint64             a_time,
                           gint64             b_time)
{
  gint64 start, end, spans[2][2], before, after, width;
  double fraction;

  g_return_if_fail (TES_IS_COMPARE_SECTION (self));
  g_return_if_fail (self->workspaces[0] != NULL);

  for (guint side = 0; side < 2; side++)
    tes_workspace_get_span (self->workspaces[side], &spans[side][0], &spans[side][1]);
  before = MAX (MIN (a_time - spans[0][0], b_time - spans[1][0]), 0);
  after = MAX (MIN (spans[0][1] - a_time, spans[1][1] - b_time), 0);

  tes_workspace_get_visible (self->workspaces[0], &start, &end);
  width = MAX (MIN (end - start, before + after), 1);
  fraction = CLAMP (0.1, MAX (0.0, 1.0 - (double)after / width), MIN (1.0, (double)before / width));

  tes_workspace_align_link (self->workspaces[0], a_time, b_time);
  start = a_time - (gint64)llround (fraction * width);
  tes_workspace_set_visible (self->workspaces[0], start, start + width);
  self->on_operator = TRUE;
  update_align_buttons (self);
}

gboolean
tes_compare_section_get_aligning (TesCompareSection *self)
{
  g_return_val_if_fail (TES_IS_COMPARE_SECTION (self), FALSE);

  return self->aligning;
}

/* "operators" or "summary" */
void
tes_compare_section_set_page (TesCompareSection *self,
                              const char        *page)
{
  g_return_if_fail (TES_IS_COMPARE_SECTION (self));

  gtk_stack_set_visible_child_name (self->pages, page);
}

/* The two runs' findings once computed (TesInsight, ranked), else %NULL. */
GPtrArray *
tes_compare_section_get_insights (TesCompareSection *self)
{
  g_return_val_if_fail (TES_IS_COMPARE_SECTION (self), NULL);

  return self->insights;
}

/* The findings as listed (TesRowItem of TesInsightRow). */
GListModel *
tes_compare_section_get_finding_rows (TesCompareSection *self)
{
  g_return_val_if_fail (TES_IS_COMPARE_SECTION (self), NULL);

  return G_LIST_MODEL (self->findings_selection);
}

GtkListView *
tes_compare_section_get_findings_list (TesCompareSection *self)
{
  g_return_val_if_fail (TES_IS_COMPARE_SECTION (self), NULL);

  return self->findings_list;
}

/* The line above the findings, as shown. */
const char *
tes_compare_section_get_findings_headline (TesCompareSection *self)
{
  g_return_val_if_fail (TES_IS_COMPARE_SECTION (self), NULL);

  return gtk_label_get_label (self->findings_headline);
}

/**
 * tes_compare_section_activate_finding:
 * @position: the finding's row
 *
 * Shows the finding: in the traces here when it has a range (a step of
 * B's, both traces moving to it), and, through ::show-finding, where its
 * target is in run B.
 */
void
tes_compare_section_activate_finding (TesCompareSection *self,
                                      guint              position)
{
  TesRowItem *item;
  const TesInsightRow *row;

  g_return_if_fail (TES_IS_COMPARE_SECTION (self));

  if (self->workspaces[1] == NULL ||
      !(item = g_list_model_get_item (G_LIST_MODEL (self->findings_selection), position)))
    return;
  row = tes_row_item_get (item);
  g_object_unref (item);

  gtk_single_selection_set_selected (self->findings_selection, position);
  if (row->insight->target.in_b && row->insight->target.has_range)
    tes_insight_apply (row->insight, self->workspaces[1]);
  g_signal_emit (self, signals[SHOW_FINDING], 0, row->insight);
}
