/* tes-window.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-window"

#include "config.h"

#include "tes-window.h"

#include "tes-importer-registry.h"
#include "tes-share-chart.h"

#include <glib/gi18n.h>

/* One report per window. Opening goes through three pages: "loading"
 * while tes_report_open_async() imports (or reuses the cache) and a
 * worker summarises; then "report", or "error" with what went wrong.
 * Every job runs under self->cancellable, which a new open, the Cancel
 * button and closing the window cancel; a callback that finds its job
 * cancelled touches nothing. */

struct _TesWindow
{
  GtkApplicationWindow  parent_instance;

  GFile                *file;         /* the first of the files shown */
  guint                 n_files;
  TesReport            *report;
  TesProgress          *progress;
  GCancellable         *cancellable;
  GtkFileChooserNative *chooser;

  /* Template widgets */
  GtkLabel             *title_label;
  GtkLabel             *subtitle_label;
  GtkStack             *main_stack;
  GtkLabel             *loading_label;
  GtkLabel             *error_title;
  GtkLabel             *error_message;
  GtkWidget            *error_button;
  GtkGrid              *info_grid;
  GtkLabel             *chart_title;
  GtkLabel             *chart_note;
  GtkWidget            *chart_switcher;
  GtkLabel             *summary_message;
  GtkStack             *chart_stack;
  GtkWidget            *each_scroller;
  TesShareChart        *total_chart;
  TesShareChart        *each_chart;

  guint                 n_total_rows;
  guint                 n_each_rows;
};

enum {
  PROP_0,
  PROP_FILE,
  PROP_REPORT,
  PROP_PROGRESS,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (TesWindow, tes_window, GTK_TYPE_APPLICATION_WINDOW)

static GParamSpec *properties[N_PROPS];

/* A chart draws every row it gets; beyond this many it would take seconds
 * to shape them and be of no use to read. */
#define MAX_CHART_ROWS 2000

/* What the summary worker hands back. */
typedef struct
{
  GPtrArray *total;
  GPtrArray *each;         /* NULL: the report has no per-operator rows */
  GError    *total_error;
  guint      n_total;      /* rows before truncation to MAX_CHART_ROWS */
  guint      n_each;
} Summaries;

static void
summaries_free (gpointer data)
{
  Summaries *summaries = data;

  g_clear_pointer (&summaries->total, g_ptr_array_unref);
  g_clear_pointer (&summaries->each, g_ptr_array_unref);
  g_clear_error (&summaries->total_error);
  g_free (summaries);
}

static const struct {
  const char *label;
  gsize       offset;
} count_fields[] = {
  { N_("Operators"), G_STRUCT_OFFSET (TesReportCounts, n_operators) },
  { N_("Tracks"), G_STRUCT_OFFSET (TesReportCounts, n_tracks) },
  { N_("Slices"), G_STRUCT_OFFSET (TesReportCounts, n_slices) },
  { N_("Instants"), G_STRUCT_OFFSET (TesReportCounts, n_instants) },
  { N_("Counters"), G_STRUCT_OFFSET (TesReportCounts, n_counter_tracks) },
  { N_("Counter values"), G_STRUCT_OFFSET (TesReportCounts, n_counter_values) },
  { N_("Flows"), G_STRUCT_OFFSET (TesReportCounts, n_flows) },
  { N_("Runs"), G_STRUCT_OFFSET (TesReportCounts, n_runs) },
  { N_("Tiles"), G_STRUCT_OFFSET (TesReportCounts, n_tiles) },
  { N_("BSP steps"), G_STRUCT_OFFSET (TesReportCounts, n_bsp_steps) },
};

static void
tes_window_set_page (TesWindow  *self,
                     const char *page)
{
  gtk_stack_set_visible_child_name (self->main_stack, page);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel", g_str_equal (page, "loading"));
}

static void
tes_window_set_progress (TesWindow   *self,
                         TesProgress *progress)
{
  if (g_set_object (&self->progress, progress))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
}

static void
tes_window_set_report (TesWindow *self,
                       TesReport *report)
{
  if (g_set_object (&self->report, report))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REPORT]);
}

/* Cancels whatever job is running; its callback will find it cancelled. */
static void
tes_window_cancel_job (TesWindow *self)
{
  if (self->cancellable != NULL)
    {
      g_cancellable_cancel (self->cancellable);
      g_clear_object (&self->cancellable);
    }

  tes_window_set_progress (self, NULL);
}

static char *
display_dirname (GFile *file)
{
  g_autoptr(GFile) parent = g_file_get_parent (file);
  g_autoptr(GFile) home = g_file_new_for_path (g_get_home_dir ());
  g_autofree char *relative = NULL;

  if (parent == NULL)
    return NULL;

  if (g_file_equal (parent, home))
    return g_strdup ("~");

  if ((relative = g_file_get_relative_path (home, parent)))
    {
      g_autofree char *display = g_filename_display_name (relative);
      return g_build_filename ("~", display, NULL);
    }

  return g_file_get_parse_name (parent);
}

static char *
display_basename (GFile *file)
{
  g_autofree char *basename = g_file_get_basename (file);

  return g_filename_display_name (basename);
}

static void
tes_window_update_title (TesWindow *self)
{
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;

  if (self->file != NULL)
    {
      g_autofree char *name = display_basename (self->file);

      /* Translators: a report opened from several files: "first (+N)" */
      title = self->n_files > 1 ? g_strdup_printf (_("%s (+%u)"), name, self->n_files - 1) : g_steal_pointer (&name);
      subtitle = display_dirname (self->file);
    }

  gtk_label_set_label (self->title_label, title ? title : _("Tessera"));
  gtk_label_set_label (self->subtitle_label, subtitle);
  gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), subtitle != NULL);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->title_label),
                               self->file ? g_file_peek_path (self->file) : NULL);

  gtk_window_set_title (GTK_WINDOW (self), title ? title : _("Tessera"));
}

static void
tes_window_set_file (TesWindow *self,
                     GFile     *file)
{
  if (g_set_object (&self->file, file))
    {
      tes_window_update_title (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILE]);
    }
}

static void
tes_window_show_error (TesWindow    *self,
                       const GError *error)
{
  g_autofree char *name = display_basename (self->file);
  g_autofree char *where = g_file_get_parse_name (self->file);
  g_autofree char *title = NULL;

  g_warning ("Could not open %s: %s", where, error->message);

  /* Translators: %s is the name of a file */
  title = g_strdup_printf (_("Could Not Open “%s”"), name);
  gtk_label_set_label (self->error_title, title);
  gtk_label_set_label (self->error_message, error->message);

  tes_window_cancel_job (self);
  tes_window_set_report (self, NULL);
  tes_window_set_page (self, "error");

  /* Not the selectable message, which would come up all selected */
  gtk_widget_grab_focus (self->error_button);
}

static void
info_grid_clear (TesWindow *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->info_grid))))
    gtk_grid_remove (self->info_grid, child);
}

static void
info_grid_add_heading (TesWindow  *self,
                       int        *row,
                       const char *heading)
{
  GtkWidget *label = gtk_label_new (heading);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "tes-info-heading");
  if (*row > 0)
    gtk_widget_set_margin_top (label, 12);
  gtk_grid_attach (self->info_grid, label, 0, (*row)++, 2, 1);
}

static void
info_grid_add (TesWindow  *self,
               int        *row,
               const char *key,
               const char *value,
               gboolean    is_path)
{
  GtkWidget *key_label = gtk_label_new (key);
  GtkWidget *value_label = gtk_label_new (value);

  gtk_label_set_xalign (GTK_LABEL (key_label), 1);
  gtk_label_set_yalign (GTK_LABEL (key_label), 0);
  gtk_widget_set_valign (key_label, GTK_ALIGN_START);
  gtk_widget_add_css_class (key_label, "dim-label");

  gtk_label_set_xalign (GTK_LABEL (value_label), 0);
  gtk_widget_set_hexpand (value_label, TRUE);
  gtk_widget_set_valign (value_label, GTK_ALIGN_START);

  if (is_path)
    {
      /* The end of a path says the most */
      gtk_label_set_ellipsize (GTK_LABEL (value_label), PANGO_ELLIPSIZE_START);
      gtk_label_set_width_chars (GTK_LABEL (value_label), 12);
      gtk_widget_set_tooltip_text (value_label, value);
    }
  else
    {
      gtk_label_set_wrap (GTK_LABEL (value_label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (value_label), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_max_width_chars (GTK_LABEL (value_label), 30);
    }

  gtk_grid_attach (self->info_grid, key_label, 0, *row, 1, 1);
  gtk_grid_attach (self->info_grid, value_label, 1, *row, 1, 1);
  (*row)++;
}

static void
tes_window_fill_info (TesWindow *self)
{
  g_autofree char *importer = NULL;
  TesReportCounts counts;
  gboolean any = FALSE;
  int row = 0;

  info_grid_clear (self);
  tes_report_get_counts (self->report, &counts);

  /* one block per file the report was opened from */
  for (guint i = 0; i < tes_report_get_n_sources (self->report); i++)
    {
      const TesSourceInfo *source = tes_report_get_source (self->report, i);

      info_grid_add_heading (self, &row, _("Source"));
      info_grid_add (self, &row, _("File"), source->path, TRUE);
      info_grid_add (self, &row, _("Format"), source->format, FALSE);
      /* Translators: an importer's name and the version of its output */
      importer = g_strdup_printf (_("%s, version %u"), source->importer, source->importer_version);
      info_grid_add (self, &row, _("Importer"), importer, FALSE);
      g_clear_pointer (&importer, g_free);
    }

  info_grid_add_heading (self, &row, _("Contents"));
  for (guint i = 0; i < G_N_ELEMENTS (count_fields); i++)
    {
      gint64 value = G_STRUCT_MEMBER (gint64, &counts, count_fields[i].offset);
      g_autofree char *text = NULL;

      if (value <= 0)
        continue;

      text = g_strdup_printf ("%'" G_GINT64_FORMAT, value);
      info_grid_add (self, &row, _(count_fields[i].label), text, FALSE);
      any = TRUE;
    }
  if (!any)
    info_grid_add (self, &row, _("Events"), _("None"), FALSE);

  info_grid_add_heading (self, &row, _("Cache"));
  info_grid_add (self, &row, _("Path"), tes_report_get_cache_path (self->report), TRUE);
  info_grid_add (self, &row, _("State"),
                 tes_report_get_cache_reused (self->report)
                   ? _("Reused from an earlier import")
                   : _("Written by this import"),
                 FALSE);
}

static void
tes_window_chart_page_changed_cb (TesWindow *self)
{
  g_autofree char *note = NULL;
  TesShareChart *chart;
  GPtrArray *rows;
  const char *page;

  g_assert (TES_IS_WINDOW (self));

  page = gtk_stack_get_visible_child_name (self->chart_stack);

  if (g_strcmp0 (page, "each") == 0)
    {
      gtk_label_set_label (self->chart_title, _("Share of Time per Operator, in Execution Order"));
      chart = self->each_chart;
    }
  else
    {
      gtk_label_set_label (self->chart_title, _("Share of Time per Operator Type"));
      chart = self->total_chart;
    }

  rows = tes_share_chart_get_rows (chart);

  if (chart == self->each_chart && rows != NULL && rows->len < self->n_each_rows)
    /* Translators: above a chart that shows only part of a report */
    note = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "Showing the first %u of %u operator",
                                         "Showing the first %u of %u operators",
                                         self->n_each_rows),
                            rows->len, self->n_each_rows);
  else if (chart == self->total_chart && rows != NULL && rows->len < self->n_total_rows)
    /* Translators: above a chart that shows only part of a report */
    note = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "Showing the %u largest of %u group",
                                         "Showing the %u largest of %u groups",
                                         self->n_total_rows),
                            rows->len, self->n_total_rows);

  gtk_label_set_label (self->chart_note, note);
  gtk_widget_set_visible (GTK_WIDGET (self->chart_note), note != NULL);
}

static void
tes_window_show_summaries (TesWindow       *self,
                           const Summaries *summaries)
{
  gboolean has_each = summaries->each != NULL && summaries->each->len > 0;

  self->n_total_rows = summaries->n_total;
  self->n_each_rows = summaries->n_each;
  tes_share_chart_set_rows (self->total_chart, summaries->total);
  tes_share_chart_set_rows (self->each_chart, has_each ? summaries->each : NULL);

  gtk_stack_page_set_visible (gtk_stack_get_page (self->chart_stack, self->each_scroller), has_each);
  gtk_widget_set_visible (self->chart_switcher, has_each);
  gtk_stack_set_visible_child_name (self->chart_stack, "total");
  tes_window_chart_page_changed_cb (self);

  gtk_widget_set_visible (GTK_WIDGET (self->chart_stack), summaries->total != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->summary_message), summaries->total == NULL);
  if (summaries->total_error != NULL)
    gtk_label_set_label (self->summary_message, summaries->total_error->message);
}

/* Keeps the first MAX_CHART_ROWS rows; returns how many there were. */
static guint
truncate_rows (GPtrArray *rows)
{
  guint n;

  if (rows == NULL)
    return 0;

  n = rows->len;
  if (n > MAX_CHART_ROWS)
    g_ptr_array_set_size (rows, MAX_CHART_ROWS);

  return n;
}

static void
summarize_worker (GTask        *task,
                  gpointer      source_object,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  TesReport *report = task_data;
  Summaries *summaries = g_new0 (Summaries, 1);
  g_autoptr(GError) each_error = NULL;

  summaries->total = tes_report_summarize (report, TES_SUMMARY_TOTAL, TES_GROUP_BY_CATEGORY,
                                           &summaries->total_error);

  if (g_task_return_error_if_cancelled (task))
    {
      summaries_free (summaries);
      return;
    }

  /* Reports with per-type totals only have no per-operator rows */
  if (!(summaries->each = tes_report_summarize (report, TES_SUMMARY_EACH, TES_GROUP_BY_NAME, &each_error)))
    g_debug ("No per-operator chart: %s", each_error->message);

  /* Types come largest first, operators in execution order */
  summaries->n_total = truncate_rows (summaries->total);
  summaries->n_each = truncate_rows (summaries->each);

  g_task_return_pointer (task, summaries, summaries_free);
}

static void
tes_window_summarize_cb (GObject      *object,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  g_autoptr(TesWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  Summaries *summaries;

  g_assert (TES_IS_WINDOW (self));

  if (!(summaries = g_task_propagate_pointer (G_TASK (result), &error)))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_debug ("Summary cancelled");
      else
        tes_window_show_error (self, error);
      return;
    }

  tes_window_show_summaries (self, summaries);
  summaries_free (summaries);

  tes_window_cancel_job (self);
  tes_window_set_page (self, "report");
}

static void
tes_window_open_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(TesWindow) self = user_data;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GTask) task = NULL;

  g_assert (TES_IS_WINDOW (self));

  /* A cancelled job is never the current one: don't touch anything */
  if (!(report = tes_report_open_finish (result, &error)))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_debug ("Opening cancelled");
      else
        tes_window_show_error (self, error);
      return;
    }

  tes_window_set_report (self, report);
  tes_window_fill_info (self);

  tes_progress_update (self->progress, 1.0, _("Summarising…"));

  /* Summaries query the whole cache: off the main thread too. The task
   * holds the report, never the window. */
  task = g_task_new (NULL, self->cancellable, tes_window_summarize_cb, g_object_ref (self));
  g_task_set_source_tag (task, tes_window_open_cb);
  g_task_set_task_data (task, g_object_ref (report), g_object_unref);
  g_task_run_in_thread (task, summarize_worker);
}

/**
 * tes_window_open:
 * @format: (nullable): importer name, or %NULL to detect the format
 *
 * Opens @file in @self, in the background, dropping what the window
 * showed before and cancelling what it was opening.
 */
/**
 * tes_window_open_files:
 * @files: (array length=n_files): the files of one run
 *
 * Opens the files as one report (the files of one run: a report and its
 * listing, a trace and its summary, …), each with the importer its content
 * calls for unless @format names one for all.
 */
void
tes_window_open_files (TesWindow   *self,
                       GFile      **files,
                       guint        n_files,
                       const char  *format)
{
  g_autoptr(TesProgress) progress = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) paths = g_ptr_array_new ();
  g_autoptr(GPtrArray) importers = g_ptr_array_new ();
  g_autofree char *name = NULL;
  g_autofree char *loading = NULL;

  g_return_if_fail (TES_IS_WINDOW (self));
  g_return_if_fail (files != NULL && n_files > 0);

  tes_window_cancel_job (self);
  tes_window_set_report (self, NULL);
  self->n_files = n_files;
  tes_window_set_file (self, files[0]);
  tes_window_update_title (self);

  for (guint i = 0; i < n_files; i++)
    {
      const char *path = g_file_peek_path (files[i]);
      TesImporter *importer;

      if (path == NULL)
        {
          g_autofree char *uri = g_file_get_uri (files[i]);

          g_set_error (&error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                       _("%s is not a local file; Tessera opens local files only"), uri);
          tes_window_show_error (self, error);
          return;
        }

      /* Sniffs the head of the file only; the import runs in a thread */
      if (!(importer = tes_importer_registry_choose (path, format, &error)))
        {
          tes_window_show_error (self, error);
          return;
        }

      g_ptr_array_add (paths, (gpointer)path);
      g_ptr_array_add (importers, importer);
    }

  name = display_basename (files[0]);
  /* Translators: %s is the name of a file */
  loading = g_strdup_printf (_("Opening “%s”…"), name);
  gtk_label_set_label (self->loading_label, loading);

  progress = tes_progress_new ();
  tes_window_set_progress (self, progress);
  self->cancellable = g_cancellable_new ();
  tes_window_set_page (self, "loading");

  tes_report_open_files_async ((const char * const *)paths->pdata,
                               (TesImporter * const *)importers->pdata, n_files,
                               TES_REPORT_OPEN_NONE, progress, self->cancellable,
                               tes_window_open_cb, g_object_ref (self));
}

void
tes_window_open (TesWindow  *self,
                 GFile      *file,
                 const char *format)
{
  g_return_if_fail (G_IS_FILE (file));

  tes_window_open_files (self, &file, 1, format);
}

static void
tes_window_chooser_response_cb (TesWindow            *self,
                                int                   response,
                                GtkFileChooserNative *chooser)
{
  g_assert (TES_IS_WINDOW (self));

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GListModel) chosen = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (chooser));
      g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);

      for (guint i = 0; i < g_list_model_get_n_items (chosen); i++)
        g_ptr_array_add (files, g_list_model_get_item (chosen, i));

      if (files->len > 0)
        tes_window_open_files (self, (GFile **)files->pdata, files->len, NULL);
    }

  g_clear_object (&self->chooser);
}

static void
tes_window_open_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  TesWindow *self = (TesWindow *)widget;

  g_assert (TES_IS_WINDOW (self));

  if (self->chooser != NULL)
    {
      gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
      return;
    }

  self->chooser = gtk_file_chooser_native_new (_("Open Report"),
                                               GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_OPEN,
                                               _("_Open"),
                                               _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  /* several files of one run open as one report */
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (self->chooser), TRUE);

  if (self->file != NULL)
    {
      g_autoptr(GFile) folder = g_file_get_parent (self->file);

      if (folder != NULL)
        gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (self->chooser), folder, NULL);
    }

  g_signal_connect_object (self->chooser, "response",
                           G_CALLBACK (tes_window_chooser_response_cb),
                           self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
tes_window_cancel_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *param)
{
  TesWindow *self = (TesWindow *)widget;

  g_assert (TES_IS_WINDOW (self));

  tes_window_cancel_job (self);
  tes_window_set_report (self, NULL);
  self->n_files = 0;
  tes_window_set_file (self, NULL);
  tes_window_set_page (self, "empty");
}

static gboolean
tes_window_drop_cb (TesWindow     *self,
                    const GValue  *value,
                    double         x,
                    double         y,
                    GtkDropTarget *target)
{
  GSList *files;

  g_assert (TES_IS_WINDOW (self));

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;

  if (!(files = gdk_file_list_get_files (g_value_get_boxed (value))))
    return FALSE;

  {
    g_autoptr(GPtrArray) array = g_ptr_array_new ();

    for (GSList *l = files; l; l = l->next)
      g_ptr_array_add (array, l->data);
    tes_window_open_files (self, (GFile **)array->pdata, array->len, NULL);
  }
  g_slist_free (files);

  return TRUE;
}

static gboolean
tes_window_close_request (GtkWindow *window)
{
  TesWindow *self = (TesWindow *)window;

  g_assert (TES_IS_WINDOW (self));

  tes_window_cancel_job (self);

  return GTK_WINDOW_CLASS (tes_window_parent_class)->close_request (window);
}

static void
tes_window_dispose (GObject *object)
{
  TesWindow *self = (TesWindow *)object;

  tes_window_cancel_job (self);

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);

  /* GtkWindow unparents its child itself: take it away first, or
   * gtk_widget_dispose_template() unparents the bound main_stack behind
   * GtkWindow's back. */
  gtk_window_set_child (GTK_WINDOW (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), TES_TYPE_WINDOW);

  g_clear_object (&self->report);
  g_clear_object (&self->file);

  G_OBJECT_CLASS (tes_window_parent_class)->dispose (object);
}

static void
tes_window_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  TesWindow *self = TES_WINDOW (object);

  switch (prop_id)
    {
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;

    case PROP_REPORT:
      g_value_set_object (value, self->report);
      break;

    case PROP_PROGRESS:
      g_value_set_object (value, self->progress);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tes_window_class_init (TesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = tes_window_dispose;
  object_class->get_property = tes_window_get_property;

  window_class->close_request = tes_window_close_request;

  properties[PROP_FILE] =
    g_param_spec_object ("file", NULL, NULL,
                         G_TYPE_FILE,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_REPORT] =
    g_param_spec_object ("report", NULL, NULL,
                         TES_TYPE_REPORT,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TesWindow:progress:
   *
   * The progress of the running import, %NULL when there is none.
   */
  properties[PROP_PROGRESS] =
    g_param_spec_object ("progress", NULL, NULL,
                         TES_TYPE_PROGRESS,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* The template looks these up by name */
  g_type_ensure (TES_TYPE_PROGRESS);
  g_type_ensure (TES_TYPE_SHARE_CHART);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/tessera/Tessera/tes-window.ui");
  gtk_widget_class_bind_template_child (widget_class, TesWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, TesWindow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, TesWindow, main_stack);
  gtk_widget_class_bind_template_child (widget_class, TesWindow, loading_label);
  gtk_widget_class_bind_template_child (widget_class, TesWindow, error_title);
  gtk_widget_class_bind_template_child (widget_class, TesWindow, error_message);
  gtk_widget_class_bind_template_child (widget_class, TesWindow, error_button);
  gtk_widget_class_bind_template_child (widget_class, TesWindow, info_grid);
  gtk_widget_class_bind_template_child (widget_class, TesWindow, chart_title);
  gtk_widget_class_bind_template_child (widget_class, TesWindow, chart_note);
  gtk_widget_class_bind_template_child (widget_class, TesWindow, chart_switcher);
  gtk_widget_class_bind_template_child (widget_class, TesWindow, summary_message);
  gtk_widget_class_bind_template_child (widget_class, TesWindow, chart_stack);
  gtk_widget_class_bind_template_child (widget_class, TesWindow, each_scroller);
  gtk_widget_class_bind_template_child (widget_class, TesWindow, total_chart);
  gtk_widget_class_bind_template_child (widget_class, TesWindow, each_chart);
  gtk_widget_class_bind_template_callback (widget_class, tes_window_chart_page_changed_cb);

  gtk_widget_class_install_action (widget_class, "win.open", NULL, tes_window_open_action);
  gtk_widget_class_install_action (widget_class, "win.cancel", NULL, tes_window_cancel_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.open", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "win.cancel", NULL);
}

static void
tes_window_init (TesWindow *self)
{
  GtkDropTarget *target;

  gtk_widget_init_template (GTK_WIDGET (self));

  target = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect_object (target, "drop",
                           G_CALLBACK (tes_window_drop_cb),
                           self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (target));

  tes_window_chart_page_changed_cb (self);
  tes_window_set_page (self, "empty");
}

TesWindow *
tes_window_new (GtkApplication *application)
{
  g_return_val_if_fail (application == NULL || GTK_IS_APPLICATION (application), NULL);

  return g_object_new (TES_TYPE_WINDOW,
                       "application", application,
                       NULL);
}

GFile *
tes_window_get_file (TesWindow *self)
{
  g_return_val_if_fail (TES_IS_WINDOW (self), NULL);

  return self->file;
}

TesReport *
tes_window_get_report (TesWindow *self)
{
  g_return_val_if_fail (TES_IS_WINDOW (self), NULL);

  return self->report;
}

/**
 * tes_window_get_progress:
 *
 * Returns: (transfer none) (nullable): the progress of the running
 *   import
 */
TesProgress *
tes_window_get_progress (TesWindow *self)
{
  g_return_val_if_fail (TES_IS_WINDOW (self), NULL);

  return self->progress;
}

/**
 * tes_window_get_page:
 *
 * Returns: what the window shows: "empty", "loading", "error" or "report"
 */
const char *
tes_window_get_page (TesWindow *self)
{
  g_return_val_if_fail (TES_IS_WINDOW (self), NULL);

  return gtk_stack_get_visible_child_name (self->main_stack);
}
