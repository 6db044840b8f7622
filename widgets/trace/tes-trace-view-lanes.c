/* tes-trace-view-lanes.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-trace-view"

#include "config.h"

#include <glib/gi18n.h>

#include "tes-trace-view-private.h"

/* Which lanes the trace shows first and which it leaves out: pinned lanes
 * on top, hidden ones gone, both from a lane name's context menu. */

/* Pins a lane to the top of the view (the last pinned lowest), or puts it
 * back in its place. */
void
tes_trace_view_set_lane_pinned (TesTraceView *self,
                                gint64        track_id,
                                gboolean      pinned)
{
  g_return_if_fail (TES_IS_TRACE_VIEW (self));

  for (guint i = 0; i < self->pinned->len; i++)
    if (g_array_index (self->pinned, gint64, i) == track_id)
      {
        if (pinned)
          return;
        g_array_remove_index (self->pinned, i);
        _tes_trace_view_invalidate (self);
        return;
      }

  if (pinned)
    {
      g_array_append_val (self->pinned, track_id);
      _tes_trace_view_invalidate (self);
    }
}

gboolean
tes_trace_view_get_lane_pinned (TesTraceView *self,
                                gint64        track_id)
{
  g_return_val_if_fail (TES_IS_TRACE_VIEW (self), FALSE);

  for (guint i = 0; i < self->pinned->len; i++)
    if (g_array_index (self->pinned, gint64, i) == track_id)
      return TRUE;

  return FALSE;
}

/* Hides a lane (with the lanes below it). */
void
tes_trace_view_hide_lane (TesTraceView *self,
                          gint64        track_id)
{
  g_return_if_fail (TES_IS_TRACE_VIEW (self));

  if (!g_hash_table_add (self->hidden, GSIZE_TO_POINTER (track_id)))
    return;

  tes_trace_view_set_lane_pinned (self, track_id, FALSE);
  _tes_trace_view_invalidate (self);
}

guint
tes_trace_view_get_n_hidden_lanes (TesTraceView *self)
{
  g_return_val_if_fail (TES_IS_TRACE_VIEW (self), 0);

  return g_hash_table_size (self->hidden);
}

void
tes_trace_view_show_hidden_lanes (TesTraceView *self)
{
  g_return_if_fail (TES_IS_TRACE_VIEW (self));

  if (g_hash_table_size (self->hidden) == 0)
    return;

  g_hash_table_remove_all (self->hidden);
  _tes_trace_view_invalidate (self);
}

/* Shows one IPU's lanes and none of the other IPUs' (PopVision's Select
 * IPU), or every IPU's again with 0. Other lanes stay as they are. */
void
tes_trace_view_set_only_ipu (TesTraceView *self,
                             gint64        ipu_track_id)
{
  g_return_if_fail (TES_IS_TRACE_VIEW (self));

  if (self->lane_state.only_ipu == ipu_track_id)
    return;

  self->lane_state.only_ipu = ipu_track_id;
  _tes_trace_view_invalidate (self);
}

gint64
tes_trace_view_get_only_ipu (TesTraceView *self)
{
  g_return_val_if_fail (TES_IS_TRACE_VIEW (self), 0);

  return self->lane_state.only_ipu;
}

static void
lane_pin_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *param)
{
  TesTraceView *self = TES_TRACE_VIEW (widget);

  tes_trace_view_set_lane_pinned (self, self->menu_track, !tes_trace_view_get_lane_pinned (self, self->menu_track));
}

static void
lane_hide_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *param)
{
  TesTraceView *self = TES_TRACE_VIEW (widget);

  tes_trace_view_hide_lane (self, self->menu_track);
}

static void
lane_show_all_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  tes_trace_view_show_hidden_lanes (TES_TRACE_VIEW (widget));
}

/* A right-click on a lane's name: pin it to the top, hide it, or bring
 * back the hidden ones. */
static void
tes_trace_view_context_cb (TesTraceView    *self,
                           int              n_press,
                           double           x,
                           double           y,
                           GtkGestureClick *gesture)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autofree char *show_all = NULL;
  gboolean in_label = FALSE;
  gint64 track_id = 0;
  int lane = -1;

  if (self->workspace == NULL)
    return;

  _tes_trace_view_box_at (self, x, y, &track_id, &in_label, &lane);
  if (lane < 0 || !in_label)
    return;

  self->menu_track = track_id;
  g_menu_append (menu, tes_trace_view_get_lane_pinned (self, track_id) ? _("_Unpin") : _("_Pin to Top"),
                 "lane.pin");
  g_menu_append (menu, _("_Hide Lane"), "lane.hide");
  /* Translators: %u is how many lanes are hidden */
  show_all = g_strdup_printf (_("_Show Hidden Lanes (%u)"), g_hash_table_size (self->hidden));
  g_menu_append (menu, show_all, "lane.show-all");
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "lane.show-all", g_hash_table_size (self->hidden) > 0);

  if (self->lane_menu == NULL)
    {
      self->lane_menu = gtk_popover_menu_new_from_model (G_MENU_MODEL (menu));
      gtk_widget_set_parent (self->lane_menu, GTK_WIDGET (self));
      gtk_popover_set_has_arrow (GTK_POPOVER (self->lane_menu), FALSE);
    }
  else
    gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (self->lane_menu), G_MENU_MODEL (menu));

  gtk_popover_set_pointing_to (GTK_POPOVER (self->lane_menu), &(GdkRectangle) { (int)x, (int)y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->lane_menu));
}

void
_tes_trace_view_class_add_lane_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "lane.pin", NULL, lane_pin_action);
  gtk_widget_class_install_action (widget_class, "lane.hide", NULL, lane_hide_action);
  gtk_widget_class_install_action (widget_class, "lane.show-all", NULL, lane_show_all_action);
}

void
_tes_trace_view_add_lane_menu_gesture (TesTraceView *self)
{
  GtkGesture *gesture = gtk_gesture_click_new ();

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_SECONDARY);
  g_signal_connect_object (gesture, "pressed", G_CALLBACK (tes_trace_view_context_cb),
                           self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));
}
