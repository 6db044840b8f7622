/* tes-export.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-export"

#include "config.h"

#include "tes-export.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <string.h>

#include <glib/gi18n.h>

/* Export View: the section shown, drawn by the code `tessera-cli render`
 * uses, to PNG, SVG or PDF, and the file chooser that asks where. */

typedef enum
{
  EXPORT_PNG,
  EXPORT_SVG,
  EXPORT_PDF,
} ExportFormat;

/* by ExportFormat, in the order of the chooser's filters */
static const struct {
  const char *name;
  const char *mime_type;
  const char *suffix;
} export_formats[] = {
  { N_("PNG Image"), "image/png", ".png" },
  { N_("SVG Image"), "image/svg+xml", ".svg" },
  { N_("PDF Document"), "application/pdf", ".pdf" },
};

typedef struct
{
  GOutputStream *stream;
  GError        *error;
} Sink;

static cairo_status_t
sink_write_cb (void                *closure,
               const unsigned char *data,
               unsigned int         length)
{
  Sink *sink = closure;

  if (sink->error != NULL ||
      !g_output_stream_write_all (sink->stream, data, length, NULL, NULL, &sink->error))
    return CAIRO_STATUS_WRITE_ERROR;

  return CAIRO_STATUS_SUCCESS;
}

/**
 * tes_export_section:
 * @file: a .png, .svg or .pdf file
 *
 * Draws @section as it is shown (its size, and the workspace's range and
 * unit) into @file: pixels for PNG, vectors for SVG and PDF. @file is
 * replaced only when all went well.
 */
gboolean
tes_export_section (TesSection    *section,
                    TesWorkspace  *workspace,
                    GFile         *file,
                    GError       **error)
{
  g_autoptr(GFileOutputStream) stream = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autofree char *basename = NULL;
  Sink sink = { NULL, NULL };
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;
  ExportFormat format;
  gboolean drawn;
  int width, height, scale;

  g_return_val_if_fail (TES_IS_SECTION (section), FALSE);
  g_return_val_if_fail (TES_IS_WORKSPACE (workspace), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  basename = g_file_get_basename (file);
  for (format = 0; format < G_N_ELEMENTS (export_formats); format++)
    if (g_str_has_suffix (basename, export_formats[format].suffix))
      break;
  if (format == G_N_ELEMENTS (export_formats))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
                   _("“%s” does not end in .png, .svg or .pdf"), basename);
      return FALSE;
    }

  /* a section never shown has no size: the command line's */
  width = gtk_widget_get_width (GTK_WIDGET (section));
  height = gtk_widget_get_height (GTK_WIDGET (section));
  if (width < 16 || height < 16)
    {
      width = 1200;
      height = 900;
    }

  if (!(stream = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, NULL, error)))
    return FALSE;
  sink.stream = G_OUTPUT_STREAM (stream);

  switch (format)
    {
    case EXPORT_PNG:
      /* as sharp as the screen */
      scale = gtk_widget_get_scale_factor (GTK_WIDGET (section));
      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width * scale, height * scale);
      cairo_surface_set_device_scale (surface, scale, scale);
      break;

    case EXPORT_SVG:
      surface = cairo_svg_surface_create_for_stream (sink_write_cb, &sink, width, height);
      break;

    case EXPORT_PDF:
    default:
      surface = cairo_pdf_surface_create_for_stream (sink_write_cb, &sink, width, height);
      break;
    }

  cr = cairo_create (surface);
  /* the section's own findings and rows where it has them: nothing
   * computed again on the main thread */
  drawn = tes_section_get_workspace (section) == workspace
          ? tes_section_render (section, cr, width, height, error)
          : tes_section_type_render (G_OBJECT_TYPE (section), workspace, tes_section_get_view (section),
                                     cr, width, height, error);
  cairo_destroy (cr);

  if (drawn && format == EXPORT_PNG)
    cairo_surface_write_to_png_stream (surface, sink_write_cb, &sink);
  cairo_surface_finish (surface);
  status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);

  if (drawn && sink.error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&sink.error));
      drawn = FALSE;
    }
  else if (drawn && status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, cairo_status_to_string (status));
      drawn = FALSE;
    }
  g_clear_error (&sink.error);

  /* closed cancelled, the stream leaves the file as it was */
  if (!drawn)
    g_cancellable_cancel (cancellable);

  if (!g_output_stream_close (G_OUTPUT_STREAM (stream), cancellable, drawn ? error : NULL))
    return FALSE;

  return drawn;
}

static const char *
chooser_suffix (GtkFileChooser *chooser)
{
  GtkFileFilter *filter = gtk_file_chooser_get_filter (chooser);
  const char *mime_type = filter ? g_object_get_data (G_OBJECT (filter), "mime-type") : NULL;

  for (guint i = 0; i < G_N_ELEMENTS (export_formats); i++)
    if (g_strcmp0 (mime_type, export_formats[i].mime_type) == 0)
      return export_formats[i].suffix;

  return export_formats[EXPORT_PNG].suffix;
}

/* @name with @suffix in place of a format's, or added. */
static char *
with_suffix (const char *name,
             const char *suffix)
{
  for (guint i = 0; i < G_N_ELEMENTS (export_formats); i++)
    if (g_str_has_suffix (name, export_formats[i].suffix))
      return g_strdup_printf ("%.*s%s", (int)(strlen (name) - strlen (export_formats[i].suffix)), name, suffix);

  return g_strconcat (name, suffix, NULL);
}

/* Picking another format renames the file to match. */
static void
chooser_filter_changed_cb (GtkFileChooser *chooser)
{
  g_autofree char *name = gtk_file_chooser_get_current_name (chooser);
  g_autofree char *renamed = NULL;

  if (name == NULL || *name == '\0')
    return;

  renamed = with_suffix (name, chooser_suffix (chooser));
  if (!g_str_equal (name, renamed))
    gtk_file_chooser_set_current_name (chooser, renamed);
}

/**
 * tes_export_chooser_new:
 * @report_file: the report's (first) file: the folder and name offered
 *
 * Returns: (transfer full): a save dialog for @section's picture, offering
 *   "REPORT-VIEW.png" beside the report
 */
GtkFileChooserNative *
tes_export_chooser_new (GtkWindow  *parent,
                        GFile      *report_file,
                        TesSection *section)
{
  GtkFileChooserNative *chooser;
  g_autoptr(GFile) folder = g_file_get_parent (report_file);
  g_autofree char *basename = g_file_get_basename (report_file);
  g_autofree char *stem = g_filename_display_name (basename);
  g_autofree char *name = NULL;
  char *dot;

  chooser = gtk_file_chooser_native_new (_("Export View"), parent, GTK_FILE_CHOOSER_ACTION_SAVE,
                                         _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);

  for (guint i = 0; i < G_N_ELEMENTS (export_formats); i++)
    {
      g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

      gtk_file_filter_set_name (filter, _(export_formats[i].name));
      gtk_file_filter_add_mime_type (filter, export_formats[i].mime_type);
      g_object_set_data (G_OBJECT (filter), "mime-type", (gpointer)export_formats[i].mime_type);
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
    }
  g_signal_connect (chooser, "notify::filter", G_CALLBACK (chooser_filter_changed_cb), NULL);

  if ((dot = strrchr (stem, '.')) != NULL && dot != stem)
    *dot = '\0';
  name = g_strdup_printf ("%s-%s%s", stem, tes_section_get_view (section), export_formats[EXPORT_PNG].suffix);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  if (folder != NULL)
    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder, NULL);

  return chooser;
}

/**
 * tes_export_chooser_get_file:
 *
 * Returns: (transfer full) (nullable): the file chosen; a name without a
 *   suffix takes the format of the filter picked
 */
GFile *
tes_export_chooser_get_file (GtkFileChooserNative *chooser)
{
  g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  g_autoptr(GFile) folder = NULL;
  g_autofree char *basename = NULL;
  g_autofree char *named = NULL;

  if (file == NULL)
    return NULL;

  basename = g_file_get_basename (file);
  if (strchr (basename, '.') != NULL || !(folder = g_file_get_parent (file)))
    return g_steal_pointer (&file);

  named = with_suffix (basename, chooser_suffix (GTK_FILE_CHOOSER (chooser)));

  return g_file_get_child (folder, named);
}
