/* tes-trace-view-accessible.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-trace-view"

#include "config.h"

#include <glib/gi18n.h>

#include "tes-trace-view-private.h"

/* What screen readers hear of the trace view: its accessible description,
 * kept up to date from an idle. */

/* What a screen reader says of the view: the range shown, how many lanes,
 * the selected slice. */
static char *
dup_description (TesTraceView *self)
{
  TesReport *report = tes_workspace_get_report (self->workspace);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *from = NULL;
  g_autofree char *width = NULL;
  gint64 t0, t1, origin = 0;

  tes_workspace_get_visible (self->workspace, &t0, &t1);
  tes_workspace_get_span (self->workspace, &origin, NULL);
  from = tes_workspace_format_duration (self->workspace, t0 - origin);
  width = tes_workspace_format_duration (self->workspace, t1 - t0);
  /* Translators: the visible range: its start since the run's start, and its width */
  g_string_append_printf (text, _("From %s, %s shown"), from, width);

  if (self->frame != NULL)
    {
      guint n_lanes = self->frame->lanes->len;
      g_autofree char *count = tes_format_grouped (n_lanes);

      g_string_append (text, ". ");
      /* Translators: how many lanes the trace shows (grouped) */
      g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%s lane", "%s lanes", n_lanes), count);
    }

  g_string_append (text, ". ");
  if (_tes_trace_view_has_selected_slice (self))
    {
      const char *name = tes_report_get_string (report, self->selected_box.name);
      g_autofree char *start = tes_workspace_format_duration (self->workspace, self->selected_box.start - origin);
      g_autofree char *duration = tes_workspace_format_duration (self->workspace, self->selected_box.dur);

      /* Translators: the selected slice's name, start and duration, for screen readers */
      g_string_append_printf (text, _("Selected: %s, at %s, lasting %s"), name ? name : "", start, duration);
    }
  else
    {
      guint n_selected = 0;

      tes_workspace_get_selected_slices (self->workspace, &n_selected);
      if (n_selected == 0)
        g_string_append (text, _("No slice selected"));
      else
        {
          g_autofree char *count = tes_format_grouped (n_selected);

          /* Translators: how many slices are selected (grouped) */
          g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%s slice selected", "%s slices selected",
                                                     n_selected), count);
        }
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

static gboolean
update_accessible_cb (gpointer data)
{
  TesTraceView *self = data;
  g_autofree char *description = NULL;

  self->accessible_idle = 0;
  if (self->workspace == NULL)
    return G_SOURCE_REMOVE;

  /* the lanes are the frame's; a hidden view builds none for this */
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    _tes_trace_view_ensure_frame (self);
  description = dup_description (self);
  if (g_strcmp0 (description, self->description) != 0)
    {
      gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
      g_free (self->description);
      self->description = g_steal_pointer (&description);
    }

  return G_SOURCE_REMOVE;
}

/* The description follows the range, the lanes and the selection; one
 * update when several of them move together. */
void
_tes_trace_view_queue_accessible_update (TesTraceView *self)
{
  if (self->accessible_idle == 0)
    self->accessible_idle = g_idle_add_full (G_PRIORITY_LOW, update_accessible_cb, self, NULL);
}

