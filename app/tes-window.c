/* tes-window.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-window"

#include "config.h"

#include "tes-window.h"

#include "tes-compare-window.h"
#include "tes-export.h"
#include "tes-insights-section.h"
#include "tes-paths.h"
#include "tes-recent.h"
#include "tes-report-loader.h"
#include "tes-sections.h"
#include "tes-settings.h"
#include "tes-summary-section.h"
#include "tes-trace-section.h"
#include "tes-workspace.h"

#include <errno.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

/* One report per window. Opening goes through three pages: "loading"
 * while a TesReportLoader sniffs and imports (or reuses the cache) in a
 * thread; then "report", a sidebar of the sections the report has data
 * for, or "error" with the importer's message. Every job runs under
 * self->cancellable, which a new open, the Cancel button and closing the
 * window cancel; a callback that finds its job cancelled touches nothing. */

struct _TesWindow
{
  GtkApplicationWindow  parent_instance;

  GFile                *file;         /* the first of the files shown */
  GPtrArray            *files;        /* GFile, all of them */
  guint                 n_files;
  TesReport            *report;
  TesProgress          *progress;
  GCancellable         *cancellable;
  GtkFileChooserNative *chooser;
  GtkFileChooserNative *export_chooser;
  GtkFileChooserNative *compare_chooser;
  char                 *format;       /* --format the files were opened with */

  /* Template widgets */
  GtkLabel             *title_label;
  GtkLabel             *subtitle_label;
  GtkStack             *main_stack;
  GtkLabel             *loading_label;
  GtkLabel             *error_title;
  GtkLabel             *error_message;
  GtkWidget            *error_button;
  GtkStack             *section_stack;
  GtkStackSidebar      *sidebar;
  GtkMenuButton        *recent_button;
  GtkMenuButton        *primary_menu_button;
  GMenu                *recent_menu;

  TesWorkspace         *workspace;
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

static void
tes_window_set_page (TesWindow  *self,
                     const char *page)
{
  gtk_stack_set_visible_child_name (self->main_stack, page);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel", g_str_equal (page, "loading"));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export", g_str_equal (page, "report"));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.compare", g_str_equal (page, "report"));
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
    {
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.delete-cache", report != NULL);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REPORT]);
    }
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

static void
tes_window_update_title (TesWindow *self)
{
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;

  if (self->file != NULL)
    {
      g_autofree char *name = tes_paths_display_basename (self->file);

      /* Translators: a report opened from several files: "first (+N)" */
      title = self->n_files > 1 ? g_strdup_printf (_("%s (+%u)"), name, self->n_files - 1) : g_steal_pointer (&name);
      subtitle = tes_paths_display_dirname (self->file);
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
  g_autofree char *name = tes_paths_display_basename (self->file);
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
tes_window_clear_sections (TesWindow *self)
{
  GtkWidget *child;

  /* GTK 4.8's sidebar disconnects from each removed page after the page is
   * gone (a warning per page): detach it while the pages go */
  gtk_stack_sidebar_set_stack (self->sidebar, NULL);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->section_stack))))
    gtk_stack_remove (self->section_stack, child);
  gtk_stack_sidebar_set_stack (self->sidebar, self->section_stack);

  g_clear_object (&self->workspace);
}

/* The unit chosen last is remembered for every report that has it. */
static void
tes_window_time_unit_changed_cb (TesWindow    *self,
                                 GParamSpec   *pspec,
                                 TesWorkspace *workspace)
{
  g_autoptr(GEnumClass) units = g_type_class_ref (TES_TYPE_TIME_UNIT);
  GEnumValue *unit = g_enum_get_value (units, tes_workspace_get_time_unit (workspace));

  g_settings_set_string (tes_settings_get (), "time-unit", unit->value_nick);
}

static void
tes_window_apply_time_unit (TesWindow *self)
{
  g_autoptr(GEnumClass) units = g_type_class_ref (TES_TYPE_TIME_UNIT);
  g_autofree char *nick = g_settings_get_string (tes_settings_get (), "time-unit");
  GEnumValue *unit = g_enum_get_value_by_nick (units, nick);

  /* "auto" is no unit: the report's own stays; so does it where the
   * report lacks the one chosen (cycles without a clock) */
  if (unit != NULL && tes_workspace_time_unit_available (self->workspace, unit->value, NULL))
    tes_workspace_set_time_unit (self->workspace, unit->value);

  g_signal_connect_object (self->workspace, "notify::time-unit",
                           G_CALLBACK (tes_window_time_unit_changed_cb),
                           self, G_CONNECT_SWAPPED);
}

/* One page per view the report has data for, each given the workspace. */
static void
tes_window_show_report (TesWindow *self,
                        TesReport *report)
{
  tes_window_clear_sections (self);
  self->workspace = tes_workspace_new (report);
  tes_window_apply_time_unit (self);

  for (guint i = 0; tes_sections_get_type_at (i) != G_TYPE_INVALID; i++)
    {
      GType type = tes_sections_get_type_at (i);
      TesSection *section;
      GtkStackPage *page;

      if (!tes_section_type_has_data (type, self->workspace))
        continue;

      section = g_object_new (type, "workspace", self->workspace, NULL);
      page = gtk_stack_add_titled (self->section_stack, GTK_WIDGET (section),
                                   G_OBJECT_TYPE_NAME (section), tes_section_get_title (section));
      gtk_stack_page_set_icon_name (page, tes_section_get_icon_name (section));
      /* a section hidden until it has something to show (Insights, until
       * it has findings) is not listed: GTK 4.8's page does not follow its
       * child's visibility by itself */
      g_object_bind_property (section, "visible", page, "visible", G_BINDING_SYNC_CREATE);
    }

  tes_window_set_report (self, report);
  tes_window_set_page (self, "report");
}

static void
tes_window_update_recent_menu (TesWindow *self)
{
  g_autoptr(GMenuModel) menu = tes_recent_build_menu ();

  gtk_menu_button_set_menu_model (self->recent_button, menu);

  /* the main menu's Open Recent lists the same reports */
  g_menu_remove_all (self->recent_menu);
  g_menu_append_section (self->recent_menu, NULL, menu);
}

static void
tes_window_load_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(TesWindow) self = user_data;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GError) error = NULL;

  g_assert (TES_IS_WINDOW (self));

  /* A cancelled job is never the current one: don't touch anything */
  if (!(report = tes_report_loader_load_finish (TES_REPORT_LOADER (object), result, &error)))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_debug ("Opening cancelled");
      else
        tes_window_show_error (self, error);
      return;
    }

  tes_window_cancel_job (self);
  tes_recent_add ((GFile * const *)self->files->pdata, self->files->len);
  tes_window_show_report (self, report);
}

/**
 * tes_window_open_files:
 * @files: (array length=n_files): the files of one run
 *
 * Opens the files as one report (the files of one run: a report and its
 * listing, a trace and its summary, …), each with the importer its content
 * calls for unless @format names one for all. A single `.tessera` cache
 * opens directly, with or without its sources.
 */
void
tes_window_open_files (TesWindow   *self,
                       GFile      **files,
                       guint        n_files,
                       const char  *format)
{
  g_autoptr(TesReportLoader) loader = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  g_autofree char *loading = NULL;

  g_return_if_fail (TES_IS_WINDOW (self));
  g_return_if_fail (files != NULL && n_files > 0);

  tes_window_cancel_job (self);
  tes_window_clear_sections (self);
  tes_window_set_report (self, NULL);
  if (format != self->format)
    {
      g_free (self->format);
      self->format = g_strdup (format);
    }
  self->n_files = n_files;
  g_ptr_array_set_size (self->files, 0);
  for (guint i = 0; i < n_files; i++)
    g_ptr_array_add (self->files, g_object_ref (files[i]));
  tes_window_set_file (self, files[0]);
  tes_window_update_title (self);

  loader = tes_report_loader_new ();
  tes_report_loader_set_format (loader, format);

  for (guint i = 0; i < n_files; i++)
    {
      const char *path = g_file_peek_path (files[i]);

      if (path == NULL)
        {
          g_autofree char *uri = g_file_get_uri (files[i]);

          g_set_error (&error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                       _("%s is not a local file; Tessera opens local files only"), uri);
          tes_window_show_error (self, error);
          return;
        }

      tes_report_loader_add_file (loader, path);
    }

  name = tes_paths_display_basename (files[0]);
  /* Translators: %s is the name of a file */
  loading = g_strdup_printf (_("Opening “%s”…"), name);
  gtk_label_set_label (self->loading_label, loading);

  /* sniffing included: a slow disk or a FIFO never freezes the window */
  tes_window_set_progress (self, tes_report_loader_get_progress (loader));
  self->cancellable = g_cancellable_new ();
  tes_window_set_page (self, "loading");

  tes_report_loader_load_async (loader, self->cancellable, tes_window_load_cb, g_object_ref (self));
}

void
tes_window_open (TesWindow  *self,
                 GFile      *file,
                 const char *format)
{
  g_return_if_fail (G_IS_FILE (file));

  tes_window_open_files (self, &file, 1, format);
}

/* What the user picked in @chooser, as GFiles. */
static GPtrArray *
chosen_files (GtkFileChooser *chooser)
{
  g_autoptr(GListModel) chosen = gtk_file_chooser_get_files (chooser);
  GPtrArray *files = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < g_list_model_get_n_items (chosen); i++)
    g_ptr_array_add (files, g_list_model_get_item (chosen, i));

  return files;
}

static void
tes_window_chooser_response_cb (TesWindow            *self,
                                int                   response,
                                GtkFileChooserNative *chooser)
{
  g_assert (TES_IS_WINDOW (self));

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GPtrArray) files = chosen_files (GTK_FILE_CHOOSER (chooser));

      if (files->len > 0)
        tes_window_open_files (self, (GFile **)files->pdata, files->len, NULL);
    }

  g_clear_object (&self->chooser);
}

static void destroy_chooser (GtkFileChooserNative **chooser);

/* Open… picks files, Open Folder… folders: a folder opens as the traces
 * in it (the per-rank traces of one job), as on the command line. */
static void
show_open_chooser (TesWindow            *self,
                   GtkFileChooserAction  action)
{
  if (self->chooser != NULL && gtk_file_chooser_get_action (GTK_FILE_CHOOSER (self->chooser)) == action)
    {
      gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
      return;
    }
  destroy_chooser (&self->chooser);

  self->chooser = gtk_file_chooser_native_new (action == GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER ? _("Open Folder of Traces")
                                                                                              : _("Open Report"),
                                               GTK_WINDOW (self),
                                               action,
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
tes_window_open_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  show_open_chooser (TES_WINDOW (widget), GTK_FILE_CHOOSER_ACTION_OPEN);
}

static void
tes_window_open_folder_action (GtkWidget  *widget,
                               const char *action_name,
                               GVariant   *param)
{
  show_open_chooser (TES_WINDOW (widget), GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER);
}

/**
 * tes_window_compare:
 * @files: (element-type GFile): the other run's files
 *
 * Opens a window comparing the report shown with the run in @files.
 *
 * Returns: (transfer none): that window
 */
TesCompareWindow *
tes_window_compare (TesWindow *self,
                    GPtrArray *files)
{
  TesCompareWindow *window;

  g_return_val_if_fail (TES_IS_WINDOW (self), NULL);
  g_return_val_if_fail (self->report != NULL, NULL);
  g_return_val_if_fail (files != NULL && files->len > 0, NULL);

  window = tes_compare_window_new (gtk_window_get_application (GTK_WINDOW (self)));
  tes_compare_window_open_runs (window, self->report, NULL, files, self->format);
  gtk_window_present (GTK_WINDOW (window));

  return window;
}

static void
tes_window_compare_response_cb (TesWindow            *self,
                                int                   response,
                                GtkFileChooserNative *chooser)
{
  if (response == GTK_RESPONSE_ACCEPT && self->report != NULL)
    {
      g_autoptr(GPtrArray) files = chosen_files (GTK_FILE_CHOOSER (chooser));

      if (files->len > 0)
        tes_window_compare (self, files);
    }

  g_clear_object (&self->compare_chooser);
}

static void
tes_window_compare_action (GtkWidget  *widget,
                           const char *action_name,
                           GVariant   *param)
{
  TesWindow *self = (TesWindow *)widget;

  g_assert (TES_IS_WINDOW (self));

  if (self->compare_chooser == NULL)
    {
      self->compare_chooser = gtk_file_chooser_native_new (_("Compare With Report"),
                                                           GTK_WINDOW (self),
                                                           GTK_FILE_CHOOSER_ACTION_OPEN,
                                                           _("_Compare"),
                                                           _("_Cancel"));
      gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->compare_chooser), TRUE);
      /* the other run may be several files too (report, listing, trace) */
      gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (self->compare_chooser), TRUE);
      if (self->file != NULL)
        {
          g_autoptr(GFile) folder = g_file_get_parent (self->file);

          if (folder != NULL)
            gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (self->compare_chooser), folder, NULL);
        }
      g_signal_connect_object (self->compare_chooser, "response",
                               G_CALLBACK (tes_window_compare_response_cb),
                               self, G_CONNECT_SWAPPED);
    }

  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->compare_chooser));
}

/* Back to the window with nothing open. */
static void
tes_window_show_empty (TesWindow *self)
{
  tes_window_cancel_job (self);
  tes_window_clear_sections (self);
  tes_window_set_report (self, NULL);
  self->n_files = 0;
  tes_window_set_file (self, NULL);
  tes_window_set_page (self, "empty");
}

static void
tes_window_cancel_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *param)
{
  g_assert (TES_IS_WINDOW (widget));

  tes_window_show_empty (TES_WINDOW (widget));
}

static void
tes_window_open_recent_action (GtkWidget  *widget,
                               const char *action_name,
                               GVariant   *param)
{
  TesWindow *self = (TesWindow *)widget;
  g_autofree const char **paths = g_variant_get_strv (param, NULL);
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);

  g_assert (TES_IS_WINDOW (self));

  for (guint i = 0; paths[i]; i++)
    g_ptr_array_add (files, g_file_new_for_path (paths[i]));

  if (files->len > 0)
    tes_window_open_files (self, (GFile **)files->pdata, files->len, NULL);
}

/* The bundled demo: installed beside the program, or in the source tree
 * of a build that runs uninstalled. */
GFile *
tes_window_find_demo (void)
{
  static const char *name = "yolov8s_op_time_each.txt";
  g_autofree char *installed = g_build_filename (PKGDATADIR, "demo", name, NULL);

  if (g_file_test (installed, G_FILE_TEST_IS_REGULAR))
    return g_file_new_for_path (installed);

  return g_file_new_build_filename (SOURCE_DATADIR, "demo", name, NULL);
}

static void
tes_window_open_demo_action (GtkWidget  *widget,
                             const char *action_name,
                             GVariant   *param)
{
  g_autoptr(GFile) demo = tes_window_find_demo ();

  tes_window_open (TES_WINDOW (widget), demo, NULL);
}

/* A message over the window, for what went wrong with a command. */
static void
tes_window_show_message (TesWindow  *self,
                         const char *title,
                         const char *detail)
{
  GtkWidget *dialog = gtk_message_dialog_new (GTK_WINDOW (self),
                                              GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                              GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE,
                                              "%s", title);

  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", detail);
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
tes_window_export_response_cb (TesWindow            *self,
                               int                   response,
                               GtkFileChooserNative *chooser)
{
  g_assert (TES_IS_WINDOW (self));

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = tes_export_chooser_get_file (chooser);
      g_autoptr(GError) error = NULL;

      if (file != NULL && !tes_window_export (self, file, &error))
        tes_window_show_message (self, _("Could Not Export the View"), error->message);
    }

  g_clear_object (&self->export_chooser);
}

static void
tes_window_export_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *param)
{
  TesWindow *self = (TesWindow *)widget;
  GtkWidget *section = gtk_stack_get_visible_child (self->section_stack);

  g_assert (TES_IS_WINDOW (self));

  if (self->file == NULL || !TES_IS_SECTION (section))
    return;

  if (self->export_chooser == NULL)
    {
      self->export_chooser = tes_export_chooser_new (GTK_WINDOW (self), self->file, TES_SECTION (section));
      g_signal_connect_object (self->export_chooser, "response",
                               G_CALLBACK (tes_window_export_response_cb),
                               self, G_CONNECT_SWAPPED);
    }

  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->export_chooser));
}

/* The section's own drawn view (a focusable drawing area or widget of
 * ours with no children: the trace, the heatmap, the memory page), where
 * the keyboard continues; NULL when it has none. */
static GtkWidget *
tes_window_find_view (GtkWidget *widget)
{
  if (gtk_widget_get_focusable (widget) && gtk_widget_is_drawable (widget) &&
      (GTK_IS_DRAWING_AREA (widget) || g_str_has_prefix (G_OBJECT_TYPE_NAME (widget), "Tes")) &&
      gtk_widget_get_first_child (widget) == NULL)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *view = tes_window_find_view (child);

      if (view != NULL)
        return view;
    }

  return NULL;
}

/* A finding activated in the Insights section, or in a compare window for
 * this window's run ("(sxs)": the view, the
 * lane's track or 0, the operator or ""): its section shown, with the lane
 * pinned in the trace or the Summary filtered to the operator; the
 * finding's range and tile are on the workspace already. */
static void
tes_window_show_finding_action (GtkWidget  *widget,
                                const char *action_name,
                                GVariant   *param)
{
  TesWindow *self = (TesWindow *)widget;
  const char *view_name, *operator_name;
  gint64 track_id;
  GType type;
  GtkWidget *section, *view;

  g_variant_get (param, "(&sx&s)", &view_name, &track_id, &operator_name);
  if ((type = tes_sections_lookup (view_name, NULL)) == G_TYPE_INVALID ||
      !(section = gtk_stack_get_child_by_name (self->section_stack, g_type_name (type))))
    {
      g_warning ("No section shows the view “%s”", view_name);
      return;
    }

  gtk_stack_set_visible_child (self->section_stack, section);
  if (track_id > 0 && TES_IS_TRACE_SECTION (section))
    tes_trace_view_set_lane_pinned (tes_trace_section_get_view (TES_TRACE_SECTION (section)), track_id, TRUE);
  if (*operator_name != '\0' && TES_IS_SUMMARY_SECTION (section))
    {
      g_autofree char *escaped = g_regex_escape_string (operator_name, -1);
      g_autofree char *filter = g_strdup_printf ("/^%s$/", escaped);

      tes_summary_section_set_filter (TES_SUMMARY_SECTION (section), filter);
    }
  /* the keyboard goes on in the view shown (drawn once shown: a frame
   * later), else in the section's first control */
  if ((view = tes_window_find_view (section)) != NULL)
    gtk_widget_grab_focus (view);
  else
    gtk_widget_child_focus (section, GTK_DIR_TAB_FORWARD);
}

/**
 * tes_window_show_run:
 * @report: a report open already (a compared run)
 *
 * Shows @report, read already, with no loading: as if its files had been
 * opened here.
 */
void
tes_window_show_run (TesWindow *self,
                     TesReport *report)
{
  const char * const *paths;

  g_return_if_fail (TES_IS_WINDOW (self));
  g_return_if_fail (TES_IS_REPORT (report));

  tes_window_cancel_job (self);
  g_ptr_array_set_size (self->files, 0);
  paths = tes_report_get_paths (report);
  for (guint i = 0; paths != NULL && paths[i] != NULL; i++)
    g_ptr_array_add (self->files, g_file_new_for_path (paths[i]));
  self->n_files = self->files->len;
  tes_window_set_file (self, self->files->len > 0 ? g_ptr_array_index (self->files, 0) : NULL);
  tes_window_update_title (self);
  tes_window_show_report (self, report);
}

/**
 * tes_window_show_insight:
 * @insight: a finding of the report shown (or of the run it was compared
 *   as, B)
 *
 * Shows the finding as activating it in the Insights section does
 * (tes_insight_show()): its selection on the workspace, its section shown.
 */
void
tes_window_show_insight (TesWindow        *self,
                         const TesInsight *insight)
{
  g_return_if_fail (TES_IS_WINDOW (self));
  g_return_if_fail (insight != NULL);

  if (self->workspace != NULL)
    tes_insight_show (insight, self->workspace, GTK_WIDGET (self));
}

/**
 * tes_window_export:
 * @file: a .png, .svg or .pdf file
 *
 * Draws the section shown as it is shown (its size, range, unit and view)
 * into @file, as `tessera-cli render` would.
 */
gboolean
tes_window_export (TesWindow  *self,
                   GFile      *file,
                   GError    **error)
{
  GtkWidget *section;

  g_return_val_if_fail (TES_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  section = gtk_stack_get_visible_child (self->section_stack);
  if (self->workspace == NULL || !TES_IS_SECTION (section))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("No report is shown"));
      return FALSE;
    }

  return tes_export_section (TES_SECTION (section), self->workspace, file, error);
}

static gboolean
tes_window_remove_cache (TesWindow  *self,
                         const char *path)
{
  if (g_unlink (path) != 0 && errno != ENOENT)
    {
      int errsv = errno;
      g_autofree char *display = g_filename_display_name (path);
      g_autofree char *detail = g_strdup_printf ("%s: %s", display, g_strerror (errsv));

      tes_window_show_message (self, _("Could Not Delete the Cache"), detail);
      return FALSE;
    }

  return TRUE;
}

static void
tes_window_delete_orphan_response_cb (TesWindow *self,
                                      int        response,
                                      GtkDialog *dialog)
{
  g_autofree char *path = g_strdup (g_object_get_data (G_OBJECT (dialog), "cache-path"));

  gtk_window_destroy (GTK_WINDOW (dialog));

  if (response != GTK_RESPONSE_ACCEPT || self->report == NULL ||
      g_strcmp0 (path, tes_report_get_cache_path (self->report)) != 0)
    return;

  if (tes_window_remove_cache (self, path))
    tes_window_show_empty (self);
}

/* Deleting the cache imports the sources again; a cache whose sources are
 * gone is all there is of the report, so that asks first. */
static void
tes_window_delete_cache_action (GtkWidget  *widget,
                                const char *action_name,
                                GVariant   *param)
{
  TesWindow *self = (TesWindow *)widget;
  g_autoptr(GPtrArray) sources = NULL;
  g_autofree char *path = NULL;
  GtkWidget *dialog;

  g_assert (TES_IS_WINDOW (self));

  if (self->report == NULL)
    return;

  path = g_strdup (tes_report_get_cache_path (self->report));

  if ((sources = tes_paths_present_sources (self->report)))
    {
      g_autofree char *format = g_strdup (self->format);

      if (tes_window_remove_cache (self, path))
        {
          g_autofree char *name = tes_paths_display_basename (g_ptr_array_index (sources, 0));
          /* Translators: %s is the name of a file */
          g_autofree char *status = g_strdup_printf (_("Cache deleted: importing “%s” again…"), name);

          tes_window_open_files (self, (GFile **)sources->pdata, sources->len, format);
          gtk_label_set_label (self->loading_label, status);
        }
      return;
    }

  dialog = gtk_message_dialog_new (GTK_WINDOW (self),
                                   GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_WARNING, GTK_BUTTONS_NONE,
                                   _("Delete the Only Copy of This Report?"));
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog),
                                            _("Its source files are gone, so the report cannot be imported again."));
  gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Cancel"), GTK_RESPONSE_CANCEL);
  gtk_widget_add_css_class (gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Delete"), GTK_RESPONSE_ACCEPT),
                            "destructive-action");
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  g_object_set_data_full (G_OBJECT (dialog), "cache-path", g_steal_pointer (&path), g_free);
  g_signal_connect_object (dialog, "response",
                           G_CALLBACK (tes_window_delete_orphan_response_cb),
                           self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* New windows take the size of the last one closed. */
static void
tes_window_restore_state (TesWindow *self)
{
  GSettings *settings = tes_settings_get ();

  gtk_window_set_default_size (GTK_WINDOW (self),
                               MAX (g_settings_get_int (settings, "window-width"), 360),
                               MAX (g_settings_get_int (settings, "window-height"), 300));
  if (g_settings_get_boolean (settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
}

static void
tes_window_save_state (TesWindow *self)
{
  GSettings *settings = tes_settings_get ();
  int width, height;

  /* GTK keeps the size the window had before it was maximized here */
  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);

  g_settings_delay (settings);
  g_settings_set_int (settings, "window-width", width);
  g_settings_set_int (settings, "window-height", height);
  g_settings_set_boolean (settings, "window-maximized", gtk_window_is_maximized (GTK_WINDOW (self)));
  g_settings_apply (settings);
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

/* Closing, destroying and quitting all pass here */
static void
tes_window_unrealize (GtkWidget *widget)
{
  tes_window_save_state (TES_WINDOW (widget));

  GTK_WIDGET_CLASS (tes_window_parent_class)->unrealize (widget);
}

static void
destroy_chooser (GtkFileChooserNative **chooser)
{
  if (*chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (*chooser));
  g_clear_object (chooser);
}

static void
tes_window_dispose (GObject *object)
{
  TesWindow *self = (TesWindow *)object;

  tes_window_cancel_job (self);

  destroy_chooser (&self->chooser);
  destroy_chooser (&self->export_chooser);
  destroy_chooser (&self->compare_chooser);

  /* GtkWindow unparents its child itself: take it away first, or
   * gtk_widget_dispose_template() unparents the bound main_stack behind
   * GtkWindow's back. */
  gtk_window_set_child (GTK_WINDOW (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), TES_TYPE_WINDOW);

  g_clear_object (&self->workspace);
  g_clear_object (&self->report);
  g_clear_object (&self->file);
  g_clear_pointer (&self->files, g_ptr_array_unref);
  g_clear_pointer (&self->format, g_free);

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

  widget_class->unrealize = tes_window_unrealize;

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

  gtk_widget_class_set_template_from_resource (widget_class, "/org/tessera/Tessera/tes-window.ui");
  gtk_widget_class_bind_template_child (widget_class, TesWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, TesWindow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, TesWindow, main_stack);
  gtk_widget_class_bind_template_child (widget_class, TesWindow, loading_label);
  gtk_widget_class_bind_template_child (widget_class, TesWindow, error_title);
  gtk_widget_class_bind_template_child (widget_class, TesWindow, error_message);
  gtk_widget_class_bind_template_child (widget_class, TesWindow, error_button);
  gtk_widget_class_bind_template_child (widget_class, TesWindow, section_stack);
  gtk_widget_class_bind_template_child (widget_class, TesWindow, sidebar);
  gtk_widget_class_bind_template_child (widget_class, TesWindow, recent_button);
  gtk_widget_class_bind_template_child (widget_class, TesWindow, primary_menu_button);
  gtk_widget_class_bind_template_child (widget_class, TesWindow, recent_menu);

  gtk_widget_class_install_action (widget_class, "win.open", NULL, tes_window_open_action);
  gtk_widget_class_install_action (widget_class, "win.open-folder", NULL, tes_window_open_folder_action);
  gtk_widget_class_install_action (widget_class, "win.cancel", NULL, tes_window_cancel_action);
  gtk_widget_class_install_action (widget_class, "win.open-recent", "as", tes_window_open_recent_action);
  gtk_widget_class_install_action (widget_class, "win.open-demo", NULL, tes_window_open_demo_action);
  gtk_widget_class_install_action (widget_class, "win.export", NULL, tes_window_export_action);
  gtk_widget_class_install_action (widget_class, "win.compare", NULL, tes_window_compare_action);
  gtk_widget_class_install_action (widget_class, "win.delete-cache", NULL, tes_window_delete_cache_action);
  gtk_widget_class_install_action (widget_class, "win.show-finding", "(sxs)", tes_window_show_finding_action);

  /* also TesApplication's accels, which the menu shows; these serve
   * windows without an application */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.open", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK, "win.export", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "win.cancel", NULL);
}

static void
tes_window_init (TesWindow *self)
{
  GtkDropTarget *target;

  gtk_widget_init_template (GTK_WIDGET (self));

  gtk_window_set_icon_name (GTK_WINDOW (self), APPLICATION_ID);
  tes_window_restore_state (self);

  target = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect_object (target, "drop",
                           G_CALLBACK (tes_window_drop_cb),
                           self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (target));

  self->files = g_ptr_array_new_with_free_func (g_object_unref);

  /* every window's menu follows what any window opened */
  g_signal_connect_object (tes_recent_get_settings (), "changed::recent-reports",
                           G_CALLBACK (tes_window_update_recent_menu),
                           self, G_CONNECT_SWAPPED);
  tes_window_update_recent_menu (self);

  tes_window_set_page (self, "empty");
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.delete-cache", FALSE);
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

/**
 * tes_window_get_sections:
 *
 * Returns: (transfer none): the stack of the report's sections, one page
 *   per view, named by the section's type name
 */
GtkStack *
tes_window_get_sections (TesWindow *self)
{
  g_return_val_if_fail (TES_IS_WINDOW (self), NULL);

  return self->section_stack;
}

TesWorkspace *
tes_window_get_workspace (TesWindow *self)
{
  g_return_val_if_fail (TES_IS_WINDOW (self), NULL);

  return self->workspace;
}
