/* tes-compare-view.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-compare-view"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "tes-compare-render.h"
#include "tes-compare-summary.h"
#include "tes-compare-view.h"
#include "tes-row-item.h"
#include "tes-table.h"

/* Two runs side by side: their traces one above the other (or side by
 * side), moving together, and below them the operator diff, largest
 * change first, or the runs compared as a whole. Choosing a row finds
 * that operator in both traces; the traces line up on the runs' starts or
 * on that operator's first start in each. */

struct _TesCompareView
{
  GtkWidget       parent_instance;

  TesWorkspace   *workspaces[2];
  GtkWidget      *paned;
  GtkWidget      *traces;        /* GtkBox */
  TesTraceView   *views[2];
  GtkColumnView  *table;
  GListStore     *store;
  GtkSingleSelection *selection;
  TesComparison  *comparison;
  GPtrArray      *rows[2];       /* TesSummaryRow: the comparison points into them */

  GtkStack       *pages;         /* "operators", "summary" */
  GtkWidget      *summary_page;  /* a spinner, then the TesCompareSummaryView */
  GtkWidget      *align_operator_button;
  GtkWidget      *align_start_button;
  GCancellable   *cancellable;
  gboolean        aligning;      /* an operator's starts are being looked up */
  gboolean        on_operator;   /* aligned on one: "Align on Start" undoes it */
  gboolean        timed;         /* both runs have slices to line up */
};

G_DEFINE_FINAL_TYPE (TesCompareView, tes_compare_view, GTK_TYPE_WIDGET)

enum {
  COLUMN_OPERATOR,
  COLUMN_A,
  COLUMN_B,
  COLUMN_DELTA,
  COLUMN_DELTA_PCT,
  N_COLUMNS
};

static double
row_value (const TesCompareRow *row,
           guint                column)
{
  switch (column)
    {
    case COLUMN_A: return row->a_value;
    case COLUMN_B: return row->b_value;
    case COLUMN_DELTA: return row->delta;
    case COLUMN_DELTA_PCT:
    default: return isnan (row->delta_pct) ? -G_MAXDOUBLE : row->delta_pct;
    }
}

static const char *
row_name (const TesCompareRow *row)
{
  const TesSummaryRow *either = row->a ? row->a : row->b;

  return either->label ? either->label : either->name;
}

static char *
format_value (TesCompareView *self,
              double          value)
{
  return tes_comparison_format (self->comparison, value, tes_workspace_get_time_unit (self->workspaces[0]));
}

static char *
cell_text (gconstpointer row_data,
           guint         column,
           gpointer      data)
{
  TesCompareView *self = data;
  const TesCompareRow *row = row_data;

  switch (column)
    {
    case COLUMN_OPERATOR: return g_strdup (row_name (row));
    case COLUMN_A: return row->a ? format_value (self, row->a_value) : g_strdup ("—");
    case COLUMN_B: return row->b ? format_value (self, row->b_value) : g_strdup ("—");
    case COLUMN_DELTA:
      {
        g_autofree char *text = format_value (self, row->delta);

        /* signed, as Δ % is */
        return row->delta > 0 ? g_strconcat ("+", text, NULL) : g_steal_pointer (&text);
      }
    case COLUMN_DELTA_PCT:
    default:
      if (row->b == NULL)
        return g_strdup (_("removed"));
      if (row->a == NULL)
        return g_strdup (_("added"));
      return isnan (row->delta_pct) ? g_strdup ("") : g_strdup_printf ("%+.1f %%", row->delta_pct);
    }
}

static int
compare_cells (gconstpointer a,
               gconstpointer b,
               guint         column,
               gpointer      data)
{
  double x, y;

  if (column == COLUMN_OPERATOR)
    return g_utf8_collate (row_name (a), row_name (b));

  x = row_value (a, column);
  y = row_value (b, column);

  return x < y ? -1 : x > y;
}

/* The row chosen, when the diff has one. */
static const TesCompareRow *
selected_row (TesCompareView *self)
{
  TesRowItem *item = gtk_single_selection_get_selected_item (self->selection);

  return item ? tes_row_item_get (item) : NULL;
}

static void
update_align_buttons (TesCompareView *self)
{
  const TesCompareRow *row = selected_row (self);

  /* an operator in both runs, and traces to show it in */
  gtk_widget_set_sensitive (self->align_operator_button,
                            !self->aligning && row != NULL && row->a != NULL && row->b != NULL &&
                            self->timed);
  gtk_widget_set_sensitive (self->align_start_button, !self->aligning && self->on_operator);
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
  TesCompareView *self = TES_COMPARE_VIEW (object);
  AlignData *data = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;

  /* cancelled: the view is going */
  if (!g_task_propagate_boolean (G_TASK (result), &error) &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self->aligning = FALSE;
  if (error != NULL)
    g_warning ("Cannot find the operator to align on: %s", error->message);
  else if (data->starts[0] != G_MAXINT64 && data->starts[1] != G_MAXINT64)
    tes_compare_view_align (self, data->starts[0], data->starts[1]);
  update_align_buttons (self);
}

static void
align_operator_clicked_cb (TesCompareView *self)
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
row_activated_cb (TesCompareView *self,
                  guint           position)
{
  gtk_single_selection_set_selected (self->selection, position);
  if (gtk_widget_get_sensitive (self->align_operator_button))
    align_operator_clicked_cb (self);
}

static void
align_start_clicked_cb (TesCompareView *self)
{
  gint64 a_start, b_start;

  tes_workspace_get_span (self->workspaces[0], &a_start, NULL);
  tes_workspace_get_span (self->workspaces[1], &b_start, NULL);
  tes_workspace_align_link (self->workspaces[0], a_start, b_start);
  self->on_operator = FALSE;
  update_align_buttons (self);
}

static void
summarize_thread (GTask        *task,
                  gpointer      source,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  TesReport **reports = task_data;
  GError *error = NULL;
  TesCompareSummary *summary = tes_compare_summarize (reports[0], reports[1], &error);

  if (summary == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, summary, (GDestroyNotify)tes_compare_summary_free);
}

static void
free_reports (TesReport **reports)
{
  g_clear_object (&reports[0]);
  g_clear_object (&reports[1]);
  g_free (reports);
}

static void
summarize_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  TesCompareView *self = TES_COMPARE_VIEW (object);
  g_autoptr(GError) error = NULL;
  TesCompareSummary *summary = g_task_propagate_pointer (G_TASK (result), &error);
  GtkWidget *page;
  gboolean shown;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (summary != NULL)
    {
      page = tes_compare_summary_new (summary, tes_workspace_get_time_unit (self->workspaces[0]));
      gtk_accessible_update_property (GTK_ACCESSIBLE (page), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Both runs as a whole"), -1);
    }
  else
    {
      page = gtk_label_new (error->message);
      gtk_label_set_wrap (GTK_LABEL (page), TRUE);
      gtk_label_set_selectable (GTK_LABEL (page), TRUE);
    }
  shown = gtk_stack_get_visible_child (self->pages) == self->summary_page;
  gtk_stack_remove (self->pages, self->summary_page);
  self->summary_page = page;
  gtk_stack_add_titled (self->pages, page, "summary", _("Summary"));
  if (shown)
    gtk_stack_set_visible_child (self->pages, page);
}

/* The runs as a whole, off the main loop: a spinner until then. */
static void
start_summary (TesCompareView *self)
{
  g_autoptr(GTask) task = g_task_new (self, self->cancellable, summarize_cb, NULL);
  TesReport **reports = g_new0 (TesReport *, 2);

  for (guint side = 0; side < 2; side++)
    reports[side] = g_object_ref (tes_workspace_get_report (self->workspaces[side]));
  g_task_set_source_tag (task, start_summary);
  g_task_set_task_data (task, reports, (GDestroyNotify)free_reports);
  g_task_run_in_thread (task, summarize_thread);
}

/* The operator of the chosen row, found in both traces: the rest greys. */
static void
selection_changed_cb (TesCompareView *self)
{
  g_autoptr(TesRowItem) item = gtk_single_selection_get_selected_item (self->selection)
                                 ? g_object_ref (gtk_single_selection_get_selected_item (self->selection)) : NULL;
  const TesCompareRow *row;
  g_autofree char *escaped = NULL;
  g_autofree char *pattern = NULL;

  update_align_buttons (self);
  if (item == NULL)
    return;

  row = tes_row_item_get (item);
  escaped = operator_pattern (row);
  pattern = g_strdup_printf ("/%s/", escaped);
  for (guint side = 0; side < 2; side++)
    tes_trace_view_set_search (self->views[side], pattern);
}

static void
tes_compare_view_dispose (GObject *object)
{
  TesCompareView *self = (TesCompareView *)object;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->paned, gtk_widget_unparent);
  g_clear_object (&self->selection);
  g_clear_object (&self->store);
  g_clear_pointer (&self->comparison, tes_comparison_free);
  for (guint side = 0; side < 2; side++)
    {
      g_clear_pointer (&self->rows[side], g_ptr_array_unref);
      g_clear_object (&self->workspaces[side]);
    }

  G_OBJECT_CLASS (tes_compare_view_parent_class)->dispose (object);
}

static void
tes_compare_view_class_init (TesCompareViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tes_compare_view_dispose;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "comparison");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
tes_compare_view_init (TesCompareView *self)
{
  self->cancellable = g_cancellable_new ();
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Two runs compared"), -1);
}

static GtkWidget *
labelled_trace (TesCompareView *self,
                guint           side)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  g_autofree char *title = tes_compare_render_title (self->workspaces[side], side);
  GtkWidget *label = gtk_label_new (title);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_set_margin_start (label, 8);
  gtk_widget_add_css_class (label, "heading");
  gtk_box_append (GTK_BOX (box), label);

  self->views[side] = TES_TRACE_VIEW (tes_trace_view_new ());
  gtk_widget_set_hexpand (GTK_WIDGET (self->views[side]), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self->views[side]), TRUE);
  tes_trace_view_set_workspace (self->views[side], self->workspaces[side]);
  {
    /* two views: a screen reader tells them apart by their runs */
    /* Translators: the trace view of one run of a comparison, named by its title */
    g_autofree char *name = g_strdup_printf (_("Execution trace of %s"), title);

    gtk_accessible_update_property (GTK_ACCESSIBLE (self->views[side]), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  }
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->views[side]));

  return box;
}

/* The summary is a page of tables: shown, it gets at least half the
 * height, which the traces give up. */
static void
page_changed_cb (TesCompareView *self)
{
  int height = gtk_widget_get_height (self->paned);

  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->pages), "summary") == 0 &&
      height > 0 && gtk_paned_get_position (GTK_PANED (self->paned)) > height / 2)
    gtk_paned_set_position (GTK_PANED (self->paned), height / 2);
}

/* Below the traces: the operators or the summary, and the alignment. */
static GtkWidget *
lower_pane (TesCompareView *self,
            GtkWidget      *operators)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *switcher = gtk_stack_switcher_new ();
  GtkWidget *spinner = gtk_spinner_new ();

  self->pages = GTK_STACK (gtk_stack_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->pages), TRUE);
  gtk_stack_add_titled (self->pages, operators, "operators", _("Operators"));
  gtk_spinner_set_spinning (GTK_SPINNER (spinner), TRUE);
  gtk_widget_set_valign (spinner, GTK_ALIGN_CENTER);
  self->summary_page = spinner;
  gtk_stack_add_titled (self->pages, spinner, "summary", _("Summary"));
  gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (switcher), self->pages);
  g_signal_connect_swapped (self->pages, "notify::visible-child", G_CALLBACK (page_changed_cb), self);

  self->align_operator_button = gtk_button_new_with_mnemonic (_("Align on _Operator"));
  gtk_widget_set_tooltip_text (self->align_operator_button,
                               _("Line both traces up on the chosen operator’s first start in each run "
                                 "(or double-click its row)"));
  g_signal_connect_swapped (self->align_operator_button, "clicked", G_CALLBACK (align_operator_clicked_cb), self);
  self->align_start_button = gtk_button_new_with_mnemonic (_("Align on _Start"));
  gtk_widget_set_tooltip_text (self->align_start_button, _("Line both traces up on each run’s start"));
  g_signal_connect_swapped (self->align_start_button, "clicked", G_CALLBACK (align_start_clicked_cb), self);

  gtk_widget_set_margin_start (bar, 6);
  gtk_widget_set_margin_end (bar, 6);
  gtk_widget_set_margin_top (bar, 4);
  gtk_widget_set_margin_bottom (bar, 4);
  gtk_widget_set_hexpand (switcher, TRUE);
  gtk_widget_set_halign (switcher, GTK_ALIGN_START);
  gtk_box_append (GTK_BOX (bar), switcher);
  gtk_box_append (GTK_BOX (bar), self->align_operator_button);
  gtk_box_append (GTK_BOX (bar), self->align_start_button);
  gtk_box_append (GTK_BOX (box), bar);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->pages));

  return box;
}

/* @a and @b: the two runs; their visible ranges are linked from here on. */
GtkWidget *
tes_compare_view_new (TesWorkspace *a,
                      TesWorkspace *b)
{
  static const TesTableColumn columns[N_COLUMNS] = {
    { N_("Operator"), FALSE, TRUE }, { "A", TRUE, FALSE }, { "B", TRUE, FALSE },
    { "Δ", TRUE, FALSE }, { "Δ %", TRUE, FALSE },
  };
  TesCompareView *self;
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  TesTableColumn translated[N_COLUMNS];
  GtkWidget *scrolled;
  GtkSortListModel *sorted;

  g_return_val_if_fail (TES_IS_WORKSPACE (a) && TES_IS_WORKSPACE (b), NULL);

  self = g_object_new (TES_TYPE_COMPARE_VIEW, NULL);
  self->workspaces[0] = g_object_ref (a);
  self->workspaces[1] = g_object_ref (b);
  tes_workspace_link (a, b);

  /* the diff: per operator where the runs list them, else per name */
  for (guint side = 0; side < 2; side++)
    {
      TesReport *report = tes_workspace_get_report (self->workspaces[side]);

      self->rows[side] = tes_report_summarize (report, TES_SUMMARY_EACH, TES_GROUP_BY_NAME, NULL);
      if (self->rows[side] == NULL)
        self->rows[side] = tes_report_summarize (report, TES_SUMMARY_TOTAL, TES_GROUP_BY_NAME, NULL);
      if (self->rows[side] == NULL)
        self->rows[side] = g_ptr_array_new_with_free_func ((GDestroyNotify)tes_summary_row_free);
    }
  self->comparison = tes_compare_rows (tes_workspace_get_report (a), self->rows[0],
                                       tes_workspace_get_report (b), self->rows[1], TES_COMPARE_BY_NAME);
  tes_compare_sort_by_impact (self->comparison);

  self->store = g_list_store_new (TES_TYPE_ROW_ITEM);
  for (guint i = 0; i < self->comparison->rows->len; i++)
    g_ptr_array_add (items, tes_row_item_new (&g_array_index (self->comparison->rows, TesCompareRow, i), NULL));
  g_list_store_splice (self->store, 0, 0, items->pdata, items->len);

  self->table = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->table), "data-table");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->table), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Operators of both runs"), -1);
  for (guint c = 0; c < N_COLUMNS; c++)
    translated[c] = (TesTableColumn) { _(columns[c].title), columns[c].numeric, columns[c].expand };
  tes_table_add_columns (self->table, translated, N_COLUMNS, cell_text, compare_cells, self, NULL);
  sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->store)),
                                    g_object_ref (gtk_column_view_get_sorter (self->table)));
  self->selection = gtk_single_selection_new (G_LIST_MODEL (sorted));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  gtk_column_view_set_model (self->table, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect_object (self->selection, "notify::selected", G_CALLBACK (selection_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_swapped (self->table, "activate", G_CALLBACK (row_activated_cb), self);

  self->traces = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_box_set_homogeneous (GTK_BOX (self->traces), TRUE);
  gtk_box_append (GTK_BOX (self->traces), labelled_trace (self, 0));
  gtk_box_append (GTK_BOX (self->traces), labelled_trace (self, 1));

  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (self->table));
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scrolled), 160);

  self->paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  gtk_paned_set_start_child (GTK_PANED (self->paned), self->traces);
  gtk_paned_set_end_child (GTK_PANED (self->paned), lower_pane (self, scrolled));
  gtk_paned_set_resize_end_child (GTK_PANED (self->paned), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (self->paned), FALSE);
  gtk_widget_set_parent (self->paned, GTK_WIDGET (self));

  self->timed = TRUE;
  for (guint side = 0; side < 2; side++)
    {
      TesReportCounts counts;

      tes_report_get_counts (tes_workspace_get_report (self->workspaces[side]), &counts);
      self->timed &= counts.n_slices > 0;
    }
  update_align_buttons (self);
  start_summary (self);

  return GTK_WIDGET (self);
}

TesTraceView *
tes_compare_view_get_trace (TesCompareView *self,
                            guint           side)
{
  g_return_val_if_fail (TES_IS_COMPARE_VIEW (self), NULL);
  g_return_val_if_fail (side < 2, NULL);

  return self->views[side];
}

const TesComparison *
tes_compare_view_get_comparison (TesCompareView *self)
{
  g_return_val_if_fail (TES_IS_COMPARE_VIEW (self), NULL);

  return self->comparison;
}

/* The diff's rows as shown (TesRowItem of TesCompareRow). */
GListModel *
tes_compare_view_get_rows (TesCompareView *self)
{
  g_return_val_if_fail (TES_IS_COMPARE_VIEW (self), NULL);

  return G_LIST_MODEL (self->selection);
}

/* One above the other, or side by side. */
void
tes_compare_view_set_vertical (TesCompareView *self,
                               gboolean        vertical)
{
  g_return_if_fail (TES_IS_COMPARE_VIEW (self));

  gtk_orientable_set_orientation (GTK_ORIENTABLE (self->traces),
                                  vertical ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL);
}

void
tes_compare_view_select_row (TesCompareView *self,
                             guint           position)
{
  g_return_if_fail (TES_IS_COMPARE_VIEW (self));

  gtk_single_selection_set_selected (self->selection, position);
}

/* Lines the traces up so that @a_time (ns) in run A shows where @b_time
 * does in run B: A's view moves to show it a tenth in from the left, at
 * the same zoom when both runs have room for it there. Each view stays
 * within its run, so where one run has less room before or after the
 * point, the point moves over or the views zoom in until both fit. */
void
tes_compare_view_align (TesCompareView *self,
                        gint64          a_time,
                        gint64          b_time)
{
  gint64 start, end, spans[2][2], before, after, width;
  double fraction;

  g_return_if_fail (TES_IS_COMPARE_VIEW (self));

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
tes_compare_view_get_aligning (TesCompareView *self)
{
  g_return_val_if_fail (TES_IS_COMPARE_VIEW (self), FALSE);

  return self->aligning;
}

/* The summary once loaded, else NULL. */
const TesCompareSummary *
tes_compare_view_get_summary (TesCompareView *self)
{
  g_return_val_if_fail (TES_IS_COMPARE_VIEW (self), NULL);

  return TES_IS_COMPARE_SUMMARY (self->summary_page)
           ? tes_compare_summary_get_summary (TES_COMPARE_SUMMARY (self->summary_page)) : NULL;
}

/* "operators" or "summary" */
void
tes_compare_view_set_page (TesCompareView *self,
                           const char     *page)
{
  g_return_if_fail (TES_IS_COMPARE_VIEW (self));

  gtk_stack_set_visible_child_name (self->pages, page);
}
