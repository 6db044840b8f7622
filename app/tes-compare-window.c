/* tes-compare-window.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-compare-window"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "tes-compare-window.h"
#include "tes-report-loader.h"
#include "tes-window.h"
#include "tes-workspace.h"

/* A window of its own for two runs: each opens (or is handed over, when
 * the report window already has it) off the main loop, then both show in
 * their TesCompareSection, which reads what it compares in a thread. A
 * finding of the two runs activated there shows in a report window of run
 * B (opened once, with the report read already, and reused while open). */

struct _TesCompareWindow
{
  GtkApplicationWindow  parent_instance;

  GtkStack             *stack;
  GtkLabel             *loading_label;
  GtkLabel             *error_label;
  GtkToggleButton      *side_by_side_button;

  TesCompareSection    *section;
  TesWindow            *b_window;     /* weak: run B's report window, once a finding opened it */
  TesReport            *reports[2];
  GCancellable         *cancellable;
};

G_DEFINE_FINAL_TYPE (TesCompareWindow, tes_compare_window, GTK_TYPE_APPLICATION_WINDOW)

typedef struct
{
  TesCompareWindow *self;
  guint             side;
} LoadData;

/* A finding of the two runs: shown in run B's report window. */
static void
show_finding_cb (TesCompareWindow  *self,
                 const TesInsight  *insight,
                 TesCompareSection *section)
{
  if (self->b_window == NULL)
    {
      TesWindow *window = tes_window_new (gtk_window_get_application (GTK_WINDOW (self)));

      gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
      tes_window_show_run (window, self->reports[1]);
      g_set_weak_pointer (&self->b_window, window);
    }
  tes_window_show_insight (self->b_window, insight);
  gtk_window_present (GTK_WINDOW (self->b_window));
}

static void
tes_compare_window_show (TesCompareWindow *self)
{
  g_autoptr(TesWorkspace) a = tes_workspace_new (self->reports[0]);
  g_autoptr(TesWorkspace) b = tes_workspace_new (self->reports[1]);

  self->section = TES_COMPARE_SECTION (tes_compare_section_new (a, b));
  g_signal_connect_object (self->section, "show-finding", G_CALLBACK (show_finding_cb), self, G_CONNECT_SWAPPED);
  tes_compare_section_set_vertical (self->section, !gtk_toggle_button_get_active (self->side_by_side_button));
  gtk_stack_add_named (self->stack, GTK_WIDGET (self->section), "compare");
  gtk_stack_set_visible_child_name (self->stack, "compare");
  /* nothing to set side by side when neither run has a trace */
  gtk_widget_set_sensitive (GTK_WIDGET (self->side_by_side_button), tes_compare_section_get_has_traces (self->section));
}

static void
tes_compare_window_load_cb (GObject      *object,
                            GAsyncResult *result,
                            gpointer      user_data)
{
  LoadData *data = user_data;
  g_autoptr(TesCompareWindow) self = data->self;
  guint side = data->side;
  g_autoptr(GError) error = NULL;

  g_free (data);

  if (!(self->reports[side] = tes_report_loader_load_finish (TES_REPORT_LOADER (object), result, &error)))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      /* the first error wins: the other run's load is no longer needed */
      if (!g_cancellable_is_cancelled (self->cancellable))
        {
          g_cancellable_cancel (self->cancellable);
          gtk_label_set_label (self->error_label, error->message);
          gtk_stack_set_visible_child_name (self->stack, "error");
        }
      return;
    }

  if (self->reports[0] != NULL && self->reports[1] != NULL)
    tes_compare_window_show (self);
}

/* A run given as "report.txt,listing.txt" (as tessera-cli takes it): its
 * files, the later ones relative to the first one's folder. A file that
 * exists is itself, commas in its name or not. */
static GPtrArray *
run_files (GFile *file)
{
  GPtrArray *files = g_ptr_array_new_with_free_func (g_object_unref);
  const char *path = g_file_peek_path (file);
  g_auto(GStrv) parts = NULL;
  g_autoptr(GFile) folder = NULL;

  if (path == NULL || strchr (path, ',') == NULL || g_file_query_exists (file, NULL))
    {
      g_ptr_array_add (files, g_object_ref (file));
      return files;
    }

  parts = g_strsplit (path, ",", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      if (*parts[i] == '\0')
        continue;
      if (folder == NULL)
        {
          g_ptr_array_add (files, g_file_new_for_path (parts[i]));
          folder = g_file_get_parent (g_ptr_array_index (files, 0));
        }
      else
        g_ptr_array_add (files, g_file_resolve_relative_path (folder, parts[i]));
    }

  return files;
}

/* "a.txt, b.txt" */
static char *
run_name (GPtrArray *files)
{
  g_autoptr(GString) name = g_string_new (NULL);

  for (guint i = 0; i < files->len; i++)
    {
      g_autofree char *base = g_file_get_basename (g_ptr_array_index (files, i));

      if (i > 0)
        g_string_append (name, ", ");
      g_string_append (name, base);
    }

  return g_string_free (g_steal_pointer (&name), FALSE);
}

static void
tes_compare_window_load (TesCompareWindow *self,
                         guint             side,
                         GPtrArray        *files,
                         const char       *format)
{
  g_autoptr(TesReportLoader) loader = tes_report_loader_new ();
  LoadData *data;

  tes_report_loader_set_format (loader, format);
  for (guint i = 0; i < files->len; i++)
    {
      GFile *file = g_ptr_array_index (files, i);

      if (g_file_peek_path (file) == NULL)
        {
          g_autofree char *uri = g_file_get_uri (file);
          g_autofree char *message = g_strdup_printf (_("%s is not a local file; Tessera opens local files only"), uri);

          g_cancellable_cancel (self->cancellable);
          gtk_label_set_label (self->error_label, message);
          gtk_stack_set_visible_child_name (self->stack, "error");
          return;
        }
      tes_report_loader_add_file (loader, g_file_peek_path (file));
    }

  data = g_new0 (LoadData, 1);
  data->self = g_object_ref (self);
  data->side = side;
  tes_report_loader_load_async (loader, self->cancellable, tes_compare_window_load_cb, data);
}

/**
 * tes_compare_window_open:
 * @a: (nullable): run A when already open, else it opens from @a_file
 * @a_file: (nullable): run A's file, or its files as "first,second,…"
 *   (the later ones relative to the first one's folder)
 * @b_file: run B's file, or its files likewise
 *
 * Compares run A with run B.
 */
void
tes_compare_window_open (TesCompareWindow *self,
                         TesReport        *a,
                         GFile            *a_file,
                         GFile            *b_file,
                         const char       *format)
{
  g_autoptr(GPtrArray) a_files = NULL;
  g_autoptr(GPtrArray) b_files = NULL;

  g_return_if_fail (TES_IS_COMPARE_WINDOW (self));
  g_return_if_fail (a != NULL || G_IS_FILE (a_file));
  g_return_if_fail (G_IS_FILE (b_file));

  a_files = a ? NULL : run_files (a_file);
  b_files = run_files (b_file);
  tes_compare_window_open_runs (self, a, a_files, b_files, format);
}

/**
 * tes_compare_window_open_runs:
 * @a: (nullable): run A when already open, else it opens from @a_files
 * @a_files: (nullable) (element-type GFile): run A's files
 * @b_files: (element-type GFile): run B's files, one or more
 *
 * Compares run A with run B, each of one or more files (a Poplar report,
 * its listing and its trace are one run).
 */
void
tes_compare_window_open_runs (TesCompareWindow *self,
                              TesReport        *a,
                              GPtrArray        *a_files,
                              GPtrArray        *b_files,
                              const char       *format)
{
  g_autofree char *a_name = NULL;
  g_autofree char *b_name = NULL;
  g_autofree char *title = NULL;
  g_autofree char *loading = NULL;

  g_return_if_fail (TES_IS_COMPARE_WINDOW (self));
  g_return_if_fail (a != NULL || (a_files != NULL && a_files->len > 0));
  g_return_if_fail (b_files != NULL && b_files->len > 0);
  g_return_if_fail (self->cancellable == NULL);

  a_name = a ? g_path_get_basename (tes_report_get_path (a)) : run_name (a_files);
  b_name = run_name (b_files);
  /* Translators: the two reports compared */
  title = g_strdup_printf (_("%s ↔ %s"), a_name, b_name);
  gtk_window_set_title (GTK_WINDOW (self), title);
  /* Translators: the two reports being opened */
  loading = g_strdup_printf (_("Opening “%s” and “%s”…"), a_name, b_name);
  gtk_label_set_label (self->loading_label, loading);
  gtk_stack_set_visible_child_name (self->stack, "loading");

  self->cancellable = g_cancellable_new ();
  if (a != NULL)
    self->reports[0] = g_object_ref (a);
  else
    tes_compare_window_load (self, 0, a_files, format);
  tes_compare_window_load (self, 1, b_files, format);
}

const char *
tes_compare_window_get_page (TesCompareWindow *self)
{
  g_return_val_if_fail (TES_IS_COMPARE_WINDOW (self), NULL);

  return gtk_stack_get_visible_child_name (self->stack);
}

/* Run A (0) or B (1), once opened. */
TesReport *
tes_compare_window_get_report (TesCompareWindow *self,
                               guint             side)
{
  g_return_val_if_fail (TES_IS_COMPARE_WINDOW (self), NULL);
  g_return_val_if_fail (side < 2, NULL);

  return self->reports[side];
}

TesCompareSection *
tes_compare_window_get_section (TesCompareWindow *self)
{
  g_return_val_if_fail (TES_IS_COMPARE_WINDOW (self), NULL);

  return self->section;
}

/* Run B's report window, where the findings show, once one was activated
 * (and while it is open); else %NULL. */
GtkWindow *
tes_compare_window_get_finding_window (TesCompareWindow *self)
{
  g_return_val_if_fail (TES_IS_COMPARE_WINDOW (self), NULL);

  return GTK_WINDOW (self->b_window);
}

static void
side_by_side_toggled_cb (TesCompareWindow *self,
                         GtkToggleButton  *button)
{
  if (self->section != NULL)
    tes_compare_section_set_vertical (self->section, !gtk_toggle_button_get_active (button));
}

static void
tes_compare_window_dispose (GObject *object)
{
  TesCompareWindow *self = (TesCompareWindow *)object;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_weak_pointer (&self->b_window);
  g_clear_object (&self->reports[0]);
  g_clear_object (&self->reports[1]);

  G_OBJECT_CLASS (tes_compare_window_parent_class)->dispose (object);
}

static void
tes_compare_window_class_init (TesCompareWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tes_compare_window_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/org/tessera/Tessera/tes-compare-window.ui");
  gtk_widget_class_bind_template_child (widget_class, TesCompareWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, TesCompareWindow, loading_label);
  gtk_widget_class_bind_template_child (widget_class, TesCompareWindow, error_label);
  gtk_widget_class_bind_template_child (widget_class, TesCompareWindow, side_by_side_button);
  gtk_widget_class_bind_template_callback (widget_class, side_by_side_toggled_cb);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close", NULL);
}

static void
tes_compare_window_init (TesCompareWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_window_set_icon_name (GTK_WINDOW (self), APPLICATION_ID);
}

TesCompareWindow *
tes_compare_window_new (GtkApplication *application)
{
  return g_object_new (TES_TYPE_COMPARE_WINDOW,
                       "application", application,
                       NULL);
}
