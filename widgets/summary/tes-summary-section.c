/* tes-summary-section.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-summary-section"

#include "config.h"

#include "tes-summary-section.h"

#include "tes-row-item.h"
#include "tes-table.h"
#include "tes-share-chart.h"
#include "tes-summary-layout.h"
#include "tes-summary-render.h"

#include <glib/gi18n.h>
#include <string.h>

/* The first view of every report: what it is (files, target, clocks,
 * totals), where the time goes per operator type, and the vendor's
 * operator table, sortable, filterable and exportable. */

/* More bars than this do not fit a chart anyone reads. */
#define MAX_CHART_ROWS 24

struct _TesSummarySection
{
  TesSection          parent_instance;

  GtkGrid            *facts_grid;
  TesShareChart      *share_chart;
  GtkLabel           *chart_title;
  GtkLabel           *table_title;
  GtkDropDown        *run_dropdown;
  GtkSearchEntry     *filter_entry;
  GtkLabel           *match_label;
  GtkColumnView      *column_view;
  GtkLabel           *table_message;

  GListStore         *store;
  GtkCustomFilter    *filter;
  GtkFilterListModel *filtered;
  GtkSortListModel   *sorted;
  GtkMultiSelection  *selection;
  GtkColumnViewColumn *columns[TES_OPERATOR_N_COLUMNS];

  TesOperatorFilter  *op_filter;
  gboolean            setting_filter;
  char               *total_unit;       /* the rows' clock's, for CSV */
  TesSummaryTotalShown total_shown;     /* how the Total column writes them */
  GCancellable       *cancellable;
  gboolean            loading;

  /* the runs the dropdown lists, by position: 0 (the whole report) first */
  GArray             *run_ids;
  gboolean            setting_run;
};

G_DEFINE_FINAL_TYPE (TesSummarySection, tes_summary_section, TES_TYPE_SECTION)

/* What the loading thread reads. */
typedef struct
{
  TesReport *report;
  gint64     run_id;           /* 0: the whole report */
} LoadRequest;

static void
load_request_free (gpointer data)
{
  LoadRequest *request = data;

  g_object_unref (request->report);
  g_free (request);
}

typedef struct
{
  GPtrArray      *rows;        /* the table */
  TesSummaryMode  mode;
  GError         *rows_error;
  GPtrArray      *chart_rows;  /* per type, largest first */
  guint           n_chart_rows;
} Loaded;

static void
loaded_free (gpointer data)
{
  Loaded *loaded = data;

  g_clear_pointer (&loaded->rows, g_ptr_array_unref);
  g_clear_pointer (&loaded->chart_rows, g_ptr_array_unref);
  g_clear_error (&loaded->rows_error);
  g_free (loaded);
}

static void
facts_grid_clear (TesSummarySection *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->facts_grid))))
    gtk_grid_remove (self->facts_grid, child);
}

static void
tes_summary_section_fill_facts (TesSummarySection *self,
                                TesWorkspace      *workspace)
{
  g_autoptr(GPtrArray) facts = tes_summary_collect_facts (workspace);
  const char *heading = NULL;
  int row = 0;

  facts_grid_clear (self);

  for (guint i = 0; i < facts->len; i++)
    {
      const TesSummaryFact *fact = g_ptr_array_index (facts, i);
      GtkWidget *key;
      GtkWidget *value;

      if (g_strcmp0 (heading, fact->heading) != 0)
        {
          GtkWidget *label = gtk_label_new (fact->heading);

          heading = fact->heading;
          gtk_label_set_xalign (GTK_LABEL (label), 0);
          gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
          gtk_widget_add_css_class (label, "heading");
          gtk_widget_set_margin_top (label, row > 0 ? 12 : 0);
          gtk_grid_attach (self->facts_grid, label, 0, row++, 2, 1);
        }

      key = gtk_label_new (fact->key);
      gtk_label_set_xalign (GTK_LABEL (key), 1);
      /* a report's own keys can be long (Poplar's vertex types): shortened
       * in the middle, whole in the tooltip, they never widen the window */
      gtk_label_set_ellipsize (GTK_LABEL (key), PANGO_ELLIPSIZE_MIDDLE);
      gtk_label_set_width_chars (GTK_LABEL (key), 12);
      gtk_label_set_max_width_chars (GTK_LABEL (key), 32);
      gtk_widget_set_tooltip_text (key, fact->key);
      gtk_widget_set_valign (key, GTK_ALIGN_START);
      gtk_widget_add_css_class (key, "dim-label");

      value = gtk_label_new (fact->value);
      gtk_label_set_xalign (GTK_LABEL (value), 0);
      gtk_widget_set_hexpand (value, TRUE);
      if (fact->kind == TES_SUMMARY_FACT_TEXT)
        {
          gtk_label_set_wrap (GTK_LABEL (value), TRUE);
          gtk_label_set_wrap_mode (GTK_LABEL (value), PANGO_WRAP_WORD_CHAR);
          gtk_label_set_max_width_chars (GTK_LABEL (value), 40);
        }
      else
        {
          /* the end of a path says the most */
          gtk_label_set_ellipsize (GTK_LABEL (value), PANGO_ELLIPSIZE_START);
          gtk_label_set_width_chars (GTK_LABEL (value), 12);
          gtk_widget_set_tooltip_text (value, fact->value);
          if (fact->kind == TES_SUMMARY_FACT_MISSING_PATH)
            gtk_widget_add_css_class (value, "warning");
        }

      gtk_grid_attach (self->facts_grid, key, 0, row, 1, 1);
      gtk_grid_attach (self->facts_grid, value, 1, row, 1, 1);
      row++;
    }
}

static void
tes_summary_section_update_match_label (TesSummarySection *self)
{
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->filtered));
  guint total = g_list_model_get_n_items (G_LIST_MODEL (self->store));
  g_autofree char *text = NULL;

  if (shown == total)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u row", "%u rows", total), total);
  else
    /* Translators: rows the filter keeps, of all rows */
    text = g_strdup_printf (_("%u of %u rows"), shown, total);

  gtk_label_set_label (self->match_label, text);
}

static void
tes_summary_section_show_loaded (TesSummarySection *self,
                                 Loaded            *loaded)
{
  TesReport *report = tes_workspace_get_report (tes_section_get_workspace (TES_SECTION (self)));
  g_autofree char *total_title = NULL;
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  tes_share_chart_set_rows (self->share_chart, loaded->chart_rows);
  if (loaded->chart_rows != NULL && loaded->chart_rows->len < loaded->n_chart_rows)
    {
      g_autofree char *title = NULL;

      /* Translators: above a chart that shows only part of a report */
      title = g_strdup_printf (_("Time by operator type (the %u largest of %u)"),
                               loaded->chart_rows->len, loaded->n_chart_rows);
      gtk_label_set_label (self->chart_title, title);
    }
  else
    gtk_label_set_label (self->chart_title, _("Time by operator type"));

  g_clear_pointer (&self->total_unit, g_free);
  self->total_unit = tes_summary_total_unit (report,
                                             loaded->rows && loaded->rows->len
                                               ? g_ptr_array_index (loaded->rows, 0) : NULL);
  self->total_shown = tes_summary_total_shown (report,
                                               loaded->rows ? (const TesSummaryRow * const *)loaded->rows->pdata : NULL,
                                               loaded->rows ? loaded->rows->len : 0);
  total_title = g_strdup_printf ("%s (%s)", tes_summary_column_title (TES_OPERATOR_COLUMN_TOTAL),
                                 tes_time_unit_to_string (self->total_shown.unit));
  gtk_column_view_column_set_title (self->columns[TES_OPERATOR_COLUMN_TOTAL], total_title);
  {
    guint known = tes_summary_known_columns (loaded->rows);

    for (guint c = 0; c < TES_OPERATOR_N_COLUMNS; c++)
      gtk_column_view_column_set_visible (self->columns[c], (known & (1 << c)) != 0);
  }

  gtk_label_set_label (self->table_title,
                       loaded->mode == TES_SUMMARY_EACH ? _("Operators") : _("Operator types"));

  if (loaded->rows != NULL)
    {
      /* the items own the rows from here on */
      g_ptr_array_set_free_func (loaded->rows, NULL);
      for (guint i = 0; i < loaded->rows->len; i++)
        g_ptr_array_add (items, tes_row_item_new (g_ptr_array_index (loaded->rows, i), (GDestroyNotify)tes_summary_row_free));
      g_list_store_splice (self->store, 0, 0, items->pdata, items->len);
    }

  gtk_widget_set_visible (GTK_WIDGET (self->table_message), loaded->rows == NULL);
  if (loaded->rows_error != NULL)
    gtk_label_set_label (self->table_message, loaded->rows_error->message);

  /* per type: largest first, as the vendor prints it; per operator:
   * execution order, which is the store's */
  if (loaded->mode == TES_SUMMARY_TOTAL)
    gtk_column_view_sort_by_column (self->column_view, self->columns[TES_OPERATOR_COLUMN_SHARE],
                                    GTK_SORT_DESCENDING);

  tes_summary_section_update_match_label (self);
}

static void
load_worker (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  LoadRequest *request = task_data;
  TesReport *report = request->report;
  Loaded *loaded = g_new0 (Loaded, 1);
  g_autoptr(GError) chart_error = NULL;

  loaded->rows = tes_summary_load_run_rows (report, request->run_id, &loaded->mode, &loaded->rows_error);

  if (g_task_return_error_if_cancelled (task))
    {
      loaded_free (loaded);
      return;
    }

  if ((loaded->chart_rows = tes_report_summarize_run (report, request->run_id, TES_SUMMARY_TOTAL,
                                                      TES_GROUP_BY_CATEGORY, &chart_error)))
    {
      loaded->n_chart_rows = tes_summary_chart_rows (loaded->chart_rows, G_MAXUINT);
      g_ptr_array_set_size (loaded->chart_rows, MIN (loaded->n_chart_rows, MAX_CHART_ROWS));
    }

  g_task_return_pointer (task, loaded, loaded_free);
}

static void
tes_summary_section_load_cb (GObject      *object,
                             GAsyncResult *result,
                             gpointer      user_data)
{
  g_autoptr(TesSummarySection) self = user_data;
  g_autoptr(GError) error = NULL;
  Loaded *loaded;

  if (!(loaded = g_task_propagate_pointer (G_TASK (result), &error)))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("Summary failed: %s", error->message);
      return;
    }

  self->loading = FALSE;
  tes_summary_section_show_loaded (self, loaded);
  loaded_free (loaded);
}

/* The table and chart of the workspace's run: read off the main thread,
 * since summaries of sliced reports aggregate every slice. */
static void
tes_summary_section_load (TesSummarySection *self)
{
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));
  g_autoptr(GTask) task = NULL;
  LoadRequest *request;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_list_store_remove_all (self->store);
  tes_share_chart_set_rows (self->share_chart, NULL);
  self->loading = FALSE;

  if (workspace == NULL)
    return;

  request = g_new0 (LoadRequest, 1);
  request->report = g_object_ref (tes_workspace_get_report (workspace));
  request->run_id = tes_workspace_get_run (workspace);

  self->loading = TRUE;
  self->cancellable = g_cancellable_new ();
  task = g_task_new (NULL, self->cancellable, tes_summary_section_load_cb, g_object_ref (self));
  g_task_set_source_tag (task, tes_summary_section_load);
  g_task_set_task_data (task, request, load_request_free);
  g_task_run_in_thread (task, load_worker);
}

/* The dropdown shows the workspace's run (a run it does not list: the
 * whole report). */
static void
tes_summary_section_sync_run (TesSummarySection *self)
{
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));
  gint64 run_id = workspace ? tes_workspace_get_run (workspace) : 0;
  guint position = 0;

  for (guint i = 0; i < self->run_ids->len; i++)
    if (g_array_index (self->run_ids, gint64, i) == run_id)
      position = i;
  self->setting_run = TRUE;
  gtk_drop_down_set_selected (self->run_dropdown, position);
  self->setting_run = FALSE;
}

static void
tes_summary_section_run_changed_cb (TesSummarySection *self)
{
  /* disposed */
  if (self->run_ids == NULL)
    return;
  tes_summary_section_sync_run (self);
  tes_summary_section_load (self);
}

static void
tes_summary_section_run_selected_cb (TesSummarySection *self)
{
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));
  guint position = gtk_drop_down_get_selected (self->run_dropdown);

  if (self->setting_run || workspace == NULL || self->run_ids == NULL || position >= self->run_ids->len)
    return;
  tes_workspace_set_run (workspace, g_array_index (self->run_ids, gint64, position));
}

/* "Whole report", then each run by name, in the report's order. */
static void
tes_summary_section_fill_runs (TesSummarySection *self,
                               TesWorkspace      *workspace)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  g_autoptr(GArray) runs = NULL;
  gint64 whole = 0;

  g_array_set_size (self->run_ids, 0);
  if (workspace != NULL)
    runs = tes_report_get_runs (tes_workspace_get_report (workspace), NULL);
  if (runs != NULL && runs->len > 0)
    {
      /* Translators: in the Summary's run list: every run together */
      gtk_string_list_append (names, _("Whole report"));
      g_array_append_val (self->run_ids, whole);
      for (guint i = 0; i < runs->len; i++)
        {
          const TesRun *run = &g_array_index (runs, TesRun, i);

          gtk_string_list_append (names, run->name ? run->name : "");
          g_array_append_val (self->run_ids, run->id);
        }
    }

  self->setting_run = TRUE;
  gtk_drop_down_set_model (self->run_dropdown, G_LIST_MODEL (names));
  self->setting_run = FALSE;
  gtk_widget_set_visible (GTK_WIDGET (self->run_dropdown), self->run_ids->len > 0);
  tes_summary_section_sync_run (self);
}

static void
tes_summary_section_workspace_changed (TesSection   *section,
                                       TesWorkspace *old_workspace)
{
  TesSummarySection *self = (TesSummarySection *)section;
  TesWorkspace *workspace = tes_section_get_workspace (section);

  g_assert (TES_IS_SUMMARY_SECTION (self));

  if (old_workspace != NULL)
    g_signal_handlers_disconnect_by_func (old_workspace, tes_summary_section_run_changed_cb, self);
  facts_grid_clear (self);
  tes_summary_section_fill_runs (self, workspace);

  if (workspace != NULL)
    {
      tes_summary_section_fill_facts (self, workspace);
      g_signal_connect_object (workspace, "notify::run", G_CALLBACK (tes_summary_section_run_changed_cb),
                               self, G_CONNECT_SWAPPED);
    }
  tes_summary_section_load (self);
}

static gboolean
tes_summary_section_has_data (TesWorkspace *workspace)
{
  /* every report has facts to show */
  return TRUE;
}

static void
tes_summary_section_filter_changed_cb (TesSummarySection *self,
                                       GtkSearchEntry    *entry)
{
  g_autoptr(GError) error = NULL;
  TesOperatorFilter *op_filter;

  g_assert (TES_IS_SUMMARY_SECTION (self));

  if (self->setting_filter)
    return;

  /* a half-typed regex keeps the last good filter, marked as an error */
  if (!(op_filter = tes_operator_filter_new (gtk_editable_get_text (GTK_EDITABLE (entry)), &error)))
    {
      gtk_widget_add_css_class (GTK_WIDGET (entry), "error");
      gtk_widget_set_tooltip_text (GTK_WIDGET (entry), error->message);
      return;
    }

  gtk_widget_remove_css_class (GTK_WIDGET (entry), "error");
  gtk_widget_set_tooltip_text (GTK_WIDGET (entry), NULL);
  g_clear_pointer (&self->op_filter, tes_operator_filter_free);
  self->op_filter = op_filter;
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
  tes_summary_section_update_match_label (self);
}

/* Enter on a bar of the chart: the table lists that type's operators. */
static void
tes_summary_section_chart_activated_cb (TesSummarySection *self,
                                        guint              index,
                                        TesShareChart     *chart)
{
  const TesSummaryRow *row = g_ptr_array_index (tes_share_chart_get_rows (chart), index);
  g_autofree char *escaped = g_regex_escape_string (row->type ? row->type : row->label, -1);
  g_autofree char *filter = g_strdup_printf ("/^%s$/", escaped);

  tes_summary_section_set_filter (self, filter);
}

static gboolean
filter_func (gpointer item,
             gpointer user_data)
{
  TesSummarySection *self = user_data;

  return tes_operator_filter_match (self->op_filter, tes_row_item_get (item));
}

static char *
cell_text (gconstpointer row,
           guint         column,
           gpointer      data)
{
  TesSummarySection *self = data;

  return tes_summary_format_cell (row, column, &self->total_shown);
}

static int
compare_cells (gconstpointer a,
               gconstpointer b,
               guint         column,
               gpointer      data)
{
  return tes_summary_compare_rows (a, b, column);
}

/* The rows as shown (filter and sort applied), optionally only the
 * selected ones. */
static GPtrArray *
collect_rows (TesSummarySection *self,
              gboolean           selected_only)
{
  GListModel *model = G_LIST_MODEL (self->selection);
  GPtrArray *rows = g_ptr_array_new ();
  guint n = g_list_model_get_n_items (model);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TesRowItem) item = NULL;

      if (selected_only && !gtk_selection_model_is_selected (GTK_SELECTION_MODEL (self->selection), i))
        continue;

      item = g_list_model_get_item (model, i);
      g_ptr_array_add (rows, (gpointer)tes_row_item_get (item));
    }

  return rows;
}

char *
tes_summary_section_dup_selected_text (TesSummarySection *self)
{
  g_autoptr(GPtrArray) rows = NULL;

  g_return_val_if_fail (TES_IS_SUMMARY_SECTION (self), NULL);

  rows = collect_rows (self, TRUE);
  if (rows->len == 0)
    return NULL;

  return tes_summary_rows_to_text ((const TesSummaryRow * const *)rows->pdata, rows->len, &self->total_shown);
}

static void
tes_summary_section_copy_action (GtkWidget  *widget,
                                 const char *action_name,
                                 GVariant   *param)
{
  TesSummarySection *self = (TesSummarySection *)widget;
  g_autofree char *text = tes_summary_section_dup_selected_text (self);

  if (text != NULL)
    gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
}

gboolean
tes_summary_section_write_csv (TesSummarySection  *self,
                               GFile              *file,
                               GError            **error)
{
  g_autoptr(GPtrArray) rows = NULL;
  g_autofree char *csv = NULL;

  g_return_val_if_fail (TES_IS_SUMMARY_SECTION (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  rows = collect_rows (self, FALSE);
  csv = tes_summary_rows_to_csv ((const TesSummaryRow * const *)rows->pdata, rows->len,
                                 self->total_unit ? self->total_unit : "");

  return g_file_replace_contents (file, csv, strlen (csv), NULL, FALSE,
                                  G_FILE_CREATE_REPLACE_DESTINATION, NULL, NULL, error);
}

static void
tes_summary_section_export_response_cb (TesSummarySection    *self,
                                        int                   response,
                                        GtkFileChooserNative *chooser)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT &&
      (file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser))) &&
      !tes_summary_section_write_csv (self, file, &error))
    {
      GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
      GtkWidget *dialog;

      g_warning ("Export failed: %s", error->message);
      dialog = gtk_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                       GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                       GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE,
                                       _("Could not export the table"));
      gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", error->message);
      g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
      gtk_window_present (GTK_WINDOW (dialog));
    }

  g_object_unref (chooser);
}

static void
tes_summary_section_export_action (GtkWidget  *widget,
                                   const char *action_name,
                                   GVariant   *param)
{
  TesSummarySection *self = (TesSummarySection *)widget;
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkFileChooserNative *chooser;

  chooser = gtk_file_chooser_native_new (_("Export Operators as CSV"),
                                         GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                         GTK_FILE_CHOOSER_ACTION_SAVE,
                                         _("_Export"), _("_Cancel"));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), "operators.csv");
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect_object (chooser, "response",
                           G_CALLBACK (tes_summary_section_export_response_cb),
                           self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
tes_summary_section_find_action (GtkWidget  *widget,
                                 const char *action_name,
                                 GVariant   *param)
{
  TesSummarySection *self = (TesSummarySection *)widget;

  gtk_widget_grab_focus (GTK_WIDGET (self->filter_entry));
}

static void
tes_summary_section_add_columns (TesSummarySection *self)
{
  TesTableColumn columns[TES_OPERATOR_N_COLUMNS];

  for (guint c = 0; c < TES_OPERATOR_N_COLUMNS; c++)
    columns[c] = (TesTableColumn) {
      .title = tes_summary_column_title (c),
      .numeric = c != TES_OPERATOR_COLUMN_NAME && c != TES_OPERATOR_COLUMN_TYPE &&
                 c != TES_OPERATOR_COLUMN_DETAILS,
      .expand = c == TES_OPERATOR_COLUMN_NAME,
    };

  tes_table_add_columns (self->column_view, columns, TES_OPERATOR_N_COLUMNS, cell_text, compare_cells,
                         self, self->columns);
}

static void
tes_summary_section_dispose (GObject *object)
{
  TesSummarySection *self = (TesSummarySection *)object;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);

  gtk_widget_dispose_template (GTK_WIDGET (self), TES_TYPE_SUMMARY_SECTION);

  g_clear_object (&self->selection);
  g_clear_object (&self->store);
  g_clear_pointer (&self->op_filter, tes_operator_filter_free);
  g_clear_pointer (&self->total_unit, g_free);
  g_clear_pointer (&self->run_ids, g_array_unref);

  G_OBJECT_CLASS (tes_summary_section_parent_class)->dispose (object);
}

static const char * const summary_views[] = { "summary", NULL };

static gboolean
tes_summary_section_render (TesWorkspace  *workspace,
                            const char    *view,
                            cairo_t       *cr,
                            int            width,
                            int            height,
                            GError       **error)
{
  return tes_summary_render (workspace, cr, width, height, error);
}

static void
tes_summary_section_class_init (TesSummarySectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  TesSectionClass *section_class = TES_SECTION_CLASS (klass);

  object_class->dispose = tes_summary_section_dispose;

  section_class->title = _("Summary");
  section_class->icon_name = "view-list-symbolic";
  section_class->has_data = tes_summary_section_has_data;
  section_class->workspace_changed = tes_summary_section_workspace_changed;
  section_class->views = summary_views;
  section_class->render = tes_summary_section_render;

  g_type_ensure (TES_TYPE_SHARE_CHART);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/tessera/Tessera/widgets/tes-summary-section.ui");
  gtk_widget_class_bind_template_child (widget_class, TesSummarySection, facts_grid);
  gtk_widget_class_bind_template_child (widget_class, TesSummarySection, share_chart);
  gtk_widget_class_bind_template_child (widget_class, TesSummarySection, chart_title);
  gtk_widget_class_bind_template_child (widget_class, TesSummarySection, table_title);
  gtk_widget_class_bind_template_child (widget_class, TesSummarySection, run_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TesSummarySection, filter_entry);
  gtk_widget_class_bind_template_child (widget_class, TesSummarySection, match_label);
  gtk_widget_class_bind_template_child (widget_class, TesSummarySection, column_view);
  gtk_widget_class_bind_template_child (widget_class, TesSummarySection, table_message);
  gtk_widget_class_bind_template_callback (widget_class, tes_summary_section_filter_changed_cb);

  gtk_widget_class_install_action (widget_class, "summary.copy", NULL, tes_summary_section_copy_action);
  gtk_widget_class_install_action (widget_class, "summary.export-csv", NULL, tes_summary_section_export_action);
  gtk_widget_class_install_action (widget_class, "summary.find", NULL, tes_summary_section_find_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK, "summary.copy", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "summary.find", NULL);
}

static void
tes_summary_section_init (TesSummarySection *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  tes_summary_section_add_columns (self);
  self->run_ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_signal_connect_object (self->run_dropdown, "notify::selected",
                           G_CALLBACK (tes_summary_section_run_selected_cb), self, G_CONNECT_SWAPPED);

  self->store = g_list_store_new (TES_TYPE_ROW_ITEM);
  self->filter = gtk_custom_filter_new (filter_func, self, NULL);
  self->filtered = gtk_filter_list_model_new (G_LIST_MODEL (g_object_ref (self->store)),
                                              GTK_FILTER (self->filter));
  self->sorted = gtk_sort_list_model_new (G_LIST_MODEL (self->filtered),
                                          g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  self->selection = gtk_multi_selection_new (G_LIST_MODEL (self->sorted));
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));

  /* the chart is taller than its pane: focused, it keeps its place (its
   * selected row is what it scrolls into view) */
  if (GTK_IS_VIEWPORT (gtk_widget_get_parent (GTK_WIDGET (self->share_chart))))
    gtk_viewport_set_scroll_to_focus (GTK_VIEWPORT (gtk_widget_get_parent (GTK_WIDGET (self->share_chart))), FALSE);
  g_signal_connect_object (self->share_chart, "row-activated",
                           G_CALLBACK (tes_summary_section_chart_activated_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->filtered, "items-changed",
                           G_CALLBACK (tes_summary_section_update_match_label),
                           self, G_CONNECT_SWAPPED);
}

GtkWidget *
tes_summary_section_new (void)
{
  return g_object_new (TES_TYPE_SUMMARY_SECTION, NULL);
}

/* The table as shown: filtered and sorted. */
GListModel *
tes_summary_section_get_rows (TesSummarySection *self)
{
  g_return_val_if_fail (TES_IS_SUMMARY_SECTION (self), NULL);

  return G_LIST_MODEL (self->selection);
}

GtkColumnView *
tes_summary_section_get_column_view (TesSummarySection *self)
{
  g_return_val_if_fail (TES_IS_SUMMARY_SECTION (self), NULL);

  return self->column_view;
}

void
tes_summary_section_set_filter (TesSummarySection *self,
                                const char        *text)
{
  g_return_if_fail (TES_IS_SUMMARY_SECTION (self));

  /* set_text() empties the entry first, and an empty search entry reports
   * at once: that would drop the last good filter before a bad regex */
  self->setting_filter = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->filter_entry), text);
  self->setting_filter = FALSE;
  /* search-changed is delayed; apply now */
  tes_summary_section_filter_changed_cb (self, self->filter_entry);
}

gboolean
tes_summary_section_is_loading (TesSummarySection *self)
{
  g_return_val_if_fail (TES_IS_SUMMARY_SECTION (self), FALSE);

  return self->loading;
}
