/* tes-trace-view-tooltip.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-trace-view"

#include "config.h"

#include <glib/gi18n.h>

#include "tes-trace-details.h"
#include "tes-trace-render.h"
#include "tes-trace-view-private.h"

/* What the trace says of the box under the pointer: a slice's name,
 * category, duration and arguments (read off the main thread, shown
 * once read), or how many slices or steps a grouped box stands for. */

/* a tooltip's lines, and how much of a slice's arguments it shows */
#define TOOLTIP_WIDTH_CHARS 80
#define TOOLTIP_ARGS_CHARS  600

gboolean
_tes_trace_view_query_tooltip (GtkWidget  *widget,
                               int         x,
                               int         y,
                               gboolean    keyboard,
                               GtkTooltip *tooltip)
{
  TesTraceView *self = TES_TRACE_VIEW (widget);
  TesReport *report;
  const TesTraceBox *box;
  g_autofree char *duration = NULL;
  g_autofree char *markup = NULL;
  gint64 track_id;
  gboolean in_label;
  int lane = -1;

  if (self->workspace == NULL || !(box = _tes_trace_view_box_at (self, x, y, &track_id, &in_label, &lane)))
    return FALSE;

  report = tes_workspace_get_report (self->workspace);
  duration = tes_workspace_format_duration (self->workspace, box->dur);

  if (box->label != NULL)
    {
      g_autofree char *path = g_strndup (box->label, box->label_len);
      g_autofree char *n_steps = tes_format_grouped (box->n_slices);

      /* Translators: Group Executions' box: a call path and how many steps (grouped) run under it */
      markup = g_markup_printf_escaped (g_dngettext (GETTEXT_PACKAGE, "<b>%s</b>\n%s step, %s\nClick to zoom in",
                                                     "<b>%s</b>\n%s steps, %s\nClick to zoom in", box->n_slices),
                                        path, n_steps, duration);
    }
  else if (box->n_slices > 1)
    {
      g_autofree char *n_slices = tes_format_grouped (box->n_slices);

      /* Translators: a box standing for several slices (grouped, "12,345") too small to draw apart */
      markup = g_markup_printf_escaped (_("<b>%s slices</b>\n%s\nClick to zoom in"), n_slices, duration);
    }
  else
    {
      const char *name = tes_report_get_string (report, box->name);
      const char *category = tes_report_get_string (report, box->category);
      g_autofree char *cycles = NULL;
      /* an I/O lane's block is one of several tiles': its arguments are not the lane's */
      gboolean io = lane >= 0 && g_array_index (self->frame->lanes, TesTraceLane, lane).io_ipu >= 0;
      const char *all_args = io ? NULL : _tes_trace_view_slice_args (self, track_id, box->index);
      g_autofree char *args = tes_trace_details_short_args (all_args, TOOLTIP_ARGS_CHARS);

      /* the duration in cycles too, unless that is already the unit */
      if (tes_workspace_get_time_unit (self->workspace) != TES_TIME_UNIT_CYCLES)
        cycles = tes_trace_format_cycles (self->workspace, tes_report_get_track (report, track_id), box->dur);

      /* name, category, duration (and cycles), the vendor's arguments */
      markup = g_markup_printf_escaped ("<b>%s</b>%s%s\n%s%s%s%s%s", name ? name : "",
                                        category && *category ? "\n" : "", category ? category : "",
                                        duration, cycles ? " · " : "", cycles ? cycles : "",
                                        args && *args ? "\n" : "", args && *args ? args : "");
    }

  gtk_tooltip_set_custom (tooltip, _tes_trace_view_tooltip_label (markup));
  return TRUE;
}

/* The tooltip's text in a label of its own that wraps: the tooltip's own
 * label does not, and a Kineto kernel's arguments, one line of JSON, ran
 * past the edge of the screen. */
GtkWidget *
_tes_trace_view_tooltip_label (const char *markup)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_markup (GTK_LABEL (label), markup);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (label), TOOLTIP_WIDTH_CHARS);
  gtk_label_set_xalign (GTK_LABEL (label), 0);

  return label;
}
