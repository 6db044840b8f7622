/* tes-window.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-window"

#include "config.h"

#include "tes-window.h"

#include "tes-recent.h"
#include "tes-report-loader.h"
#include "tes-sections.h"
#include "tes-workspace.h"

#include <glib/gi18n.h>

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

/* One page per view the report has data for, each given the workspace. */
static void
tes_window_show_report (TesWindow *self,
                        TesReport *report)
{
  tes_window_clear_sections (self);
  self->workspace = tes_workspace_new (report);

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
    }

  tes_window_set_report (self, report);
  tes_window_set_page (self, "report");
}

static void
tes_window_update_recent_menu (TesWindow *self)
{
  g_autoptr(GMenuModel) menu = tes_recent_build_menu ();

  gtk_menu_button_set_menu_model (self->recent_button, menu);
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

  name = display_basename (files[0]);
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
  tes_window_clear_sections (self);
  tes_window_set_report (self, NULL);
  self->n_files = 0;
  tes_window_set_file (self, NULL);
  tes_window_set_page (self, "empty");
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

  g_clear_object (&self->workspace);
  g_clear_object (&self->report);
  g_clear_object (&self->file);
  g_clear_pointer (&self->files, g_ptr_array_unref);

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

  gtk_widget_class_install_action (widget_class, "win.open", NULL, tes_window_open_action);
  gtk_widget_class_install_action (widget_class, "win.cancel", NULL, tes_window_cancel_action);
  gtk_widget_class_install_action (widget_class, "win.open-recent", "as", tes_window_open_recent_action);
  gtk_widget_class_install_action (widget_class, "win.open-demo", NULL, tes_window_open_demo_action);

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

  self->files = g_ptr_array_new_with_free_func (g_object_unref);

  /* every window's menu follows what any window opened */
  g_signal_connect_object (tes_recent_get_settings (), "changed::recent-reports",
                           G_CALLBACK (tes_window_update_recent_menu),
                           self, G_CONNECT_SWAPPED);
  tes_window_update_recent_menu (self);

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
