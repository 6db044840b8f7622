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

#include "tes-compare-view.h"
#include "tes-row-item.h"
#include "tes-table.h"

/* Two runs side by side: their traces one above the other (or side by
 * side), moving together, and the operator diff below, largest change
 * first; choosing a row finds that operator in both traces. */

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
    case COLUMN_DELTA: return format_value (self, row->delta);
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

/* The operator of the chosen row, found in both traces: the rest greys. */
static void
selection_changed_cb (TesCompareView *self)
{
  g_autoptr(TesRowItem) item = gtk_single_selection_get_selected_item (self->selection)
                                 ? g_object_ref (gtk_single_selection_get_selected_item (self->selection)) : NULL;
  const TesCompareRow *row;
  const TesSummaryRow *either;
  g_autofree char *escaped = NULL;
  g_autofree char *pattern = NULL;

  if (item == NULL)
    return;

  row = tes_row_item_get (item);
  either = row->a ? row->a : row->b;
  /* the name as the traces know it, whole */
  escaped = g_regex_escape_string (either->name ? either->name : either->type, -1);
  pattern = g_strdup_printf ("/^%s$/", escaped);
  for (guint side = 0; side < 2; side++)
    tes_trace_view_set_search (self->views[side], pattern);
}

static void
tes_compare_view_dispose (GObject *object)
{
  TesCompareView *self = (TesCompareView *)object;

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
}

static void
tes_compare_view_init (TesCompareView *self)
{
}

static GtkWidget *
labelled_trace (TesCompareView *self,
                guint           side)
{
  TesReport *report = tes_workspace_get_report (self->workspaces[side]);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  g_autofree char *base = g_path_get_basename (tes_report_get_path (report));
  g_autofree char *title = g_strdup_printf ("%s: %s", side == 0 ? "A" : "B", base);
  GtkWidget *label = gtk_label_new (title);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_set_margin_start (label, 8);
  gtk_widget_add_css_class (label, "heading");
  gtk_box_append (GTK_BOX (box), label);

  self->views[side] = TES_TRACE_VIEW (tes_trace_view_new ());
  gtk_widget_set_hexpand (GTK_WIDGET (self->views[side]), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self->views[side]), TRUE);
  tes_trace_view_set_workspace (self->views[side], self->workspaces[side]);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->views[side]));

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

  self->traces = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_box_set_homogeneous (GTK_BOX (self->traces), TRUE);
  gtk_box_append (GTK_BOX (self->traces), labelled_trace (self, 0));
  gtk_box_append (GTK_BOX (self->traces), labelled_trace (self, 1));

  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (self->table));
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scrolled), 160);

  self->paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  gtk_paned_set_start_child (GTK_PANED (self->paned), self->traces);
  gtk_paned_set_end_child (GTK_PANED (self->paned), scrolled);
  gtk_paned_set_resize_end_child (GTK_PANED (self->paned), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (self->paned), FALSE);
  gtk_widget_set_parent (self->paned, GTK_WIDGET (self));

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
