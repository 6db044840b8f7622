/* tes-section.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-section"

#include "config.h"

#include "tes-section.h"

#include "tes-widgets-resources.h"

typedef struct
{
  TesWorkspace *workspace;
} TesSectionPrivate;

enum {
  PROP_0,
  PROP_WORKSPACE,
  PROP_TITLE,
  PROP_ICON_NAME,
  N_PROPS
};

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (TesSection, tes_section, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];

/* The widgets' templates live in their own resource bundle, registered
 * once by whoever first needs a section (the window, the CLI or a test). */
void
tes_widgets_init (void)
{
  static gsize initialized;

  if (g_once_init_enter (&initialized))
    {
      tes_widgets_register_resource ();
      g_once_init_leave (&initialized, 1);
    }
}

static gboolean
tes_section_real_has_data (TesWorkspace *workspace)
{
  return TRUE;
}

static void
tes_section_dispose (GObject *object)
{
  TesSection *self = (TesSection *)object;
  TesSectionPrivate *priv = tes_section_get_instance_private (self);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))))
    gtk_widget_unparent (child);

  g_clear_object (&priv->workspace);

  G_OBJECT_CLASS (tes_section_parent_class)->dispose (object);
}

static void
tes_section_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  TesSection *self = TES_SECTION (object);

  switch (prop_id)
    {
    case PROP_WORKSPACE:
      g_value_set_object (value, tes_section_get_workspace (self));
      break;

    case PROP_TITLE:
      g_value_set_string (value, tes_section_get_title (self));
      break;

    case PROP_ICON_NAME:
      g_value_set_string (value, tes_section_get_icon_name (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tes_section_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  TesSection *self = TES_SECTION (object);

  switch (prop_id)
    {
    case PROP_WORKSPACE:
      tes_section_set_workspace (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* Named by its title, which is the subclass's: known once constructed. */
static void
tes_section_constructed (GObject *object)
{
  const char *title = TES_SECTION_GET_CLASS (object)->title;

  G_OBJECT_CLASS (tes_section_parent_class)->constructed (object);

  if (title != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (object), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
}

static void
tes_section_class_init (TesSectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = tes_section_constructed;
  object_class->dispose = tes_section_dispose;
  object_class->get_property = tes_section_get_property;
  object_class->set_property = tes_section_set_property;

  klass->has_data = tes_section_real_has_data;

  properties[PROP_WORKSPACE] =
    g_param_spec_object ("workspace", NULL, NULL,
                         TES_TYPE_WORKSPACE,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_ICON_NAME] =
    g_param_spec_string ("icon-name", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  /* a section is a region of the window, named by its title */
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);

  tes_widgets_init ();
}

static void
tes_section_init (TesSection *self)
{
}

TesWorkspace *
tes_section_get_workspace (TesSection *self)
{
  TesSectionPrivate *priv = tes_section_get_instance_private (self);

  g_return_val_if_fail (TES_IS_SECTION (self), NULL);

  return priv->workspace;
}

void
tes_section_set_workspace (TesSection   *self,
                           TesWorkspace *workspace)
{
  TesSectionPrivate *priv = tes_section_get_instance_private (self);
  g_autoptr(TesWorkspace) old = NULL;

  g_return_if_fail (TES_IS_SECTION (self));
  g_return_if_fail (!workspace || TES_IS_WORKSPACE (workspace));

  if (workspace == priv->workspace)
    return;

  old = g_steal_pointer (&priv->workspace);
  g_set_object (&priv->workspace, workspace);

  if (TES_SECTION_GET_CLASS (self)->workspace_changed)
    TES_SECTION_GET_CLASS (self)->workspace_changed (self, old);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WORKSPACE]);
}

const char *
tes_section_get_title (TesSection *self)
{
  g_return_val_if_fail (TES_IS_SECTION (self), NULL);

  return TES_SECTION_GET_CLASS (self)->title;
}

const char *
tes_section_get_icon_name (TesSection *self)
{
  g_return_val_if_fail (TES_IS_SECTION (self), NULL);

  return TES_SECTION_GET_CLASS (self)->icon_name;
}

/* The view the section shows, as `tessera-cli render --view` names it:
 * what Export View draws. */
const char *
tes_section_get_view (TesSection *self)
{
  TesSectionClass *klass;
  const char *view = NULL;

  g_return_val_if_fail (TES_IS_SECTION (self), NULL);

  klass = TES_SECTION_GET_CLASS (self);
  if (klass->get_view != NULL)
    view = klass->get_view (self);
  if (view == NULL && klass->views != NULL)
    view = klass->views[0];

  return view;
}

/* Class-level, so the window can list the sections a report has before
 * building any, and the CLI can render without a display. */
gboolean
tes_section_type_has_data (GType         section_type,
                           TesWorkspace *workspace)
{
  g_autoptr(GTypeClass) klass = NULL;

  g_return_val_if_fail (g_type_is_a (section_type, TES_TYPE_SECTION), FALSE);
  g_return_val_if_fail (TES_IS_WORKSPACE (workspace), FALSE);

  klass = g_type_class_ref (section_type);

  return TES_SECTION_CLASS (klass)->has_data (workspace);
}

/* Draws @view (NULL: the section's first) of the section into @cr. */
gboolean
tes_section_type_render (GType          section_type,
                         TesWorkspace  *workspace,
                         const char    *view,
                         cairo_t       *cr,
                         int            width,
                         int            height,
                         GError       **error)
{
  g_autoptr(GTypeClass) klass = NULL;

  g_return_val_if_fail (g_type_is_a (section_type, TES_TYPE_SECTION), FALSE);
  g_return_val_if_fail (TES_IS_WORKSPACE (workspace), FALSE);
  g_return_val_if_fail (cr != NULL, FALSE);

  klass = g_type_class_ref (section_type);

  if (TES_SECTION_CLASS (klass)->render == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   "The %s section cannot be exported", TES_SECTION_CLASS (klass)->title);
      return FALSE;
    }

  if (view == NULL && TES_SECTION_CLASS (klass)->views != NULL)
    view = TES_SECTION_CLASS (klass)->views[0];

  return TES_SECTION_CLASS (klass)->render (workspace, view, cr, width, height, error);
}

/**
 * tes_section_render:
 *
 * Draws the section's view shown (tes_section_get_view()) of its
 * workspace as tes_section_type_render() does, from what the section has
 * loaded already where it can (render_loaded): what Export View draws.
 */
gboolean
tes_section_render (TesSection  *self,
                    cairo_t     *cr,
                    int          width,
                    int          height,
                    GError     **error)
{
  TesSectionClass *klass;
  TesWorkspace *workspace;
  GError *local_error = NULL;
  const char *view;

  g_return_val_if_fail (TES_IS_SECTION (self), FALSE);
  g_return_val_if_fail (cr != NULL, FALSE);

  klass = TES_SECTION_GET_CLASS (self);
  workspace = tes_section_get_workspace (self);
  view = tes_section_get_view (self);
  if (workspace == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "No report is shown");
      return FALSE;
    }
  if (view == NULL && klass->views != NULL)
    view = klass->views[0];
  if (klass->render_loaded != NULL)
    {
      if (klass->render_loaded (self, view, cr, width, height, &local_error))
        return TRUE;
      if (local_error != NULL)
        {
          g_propagate_error (error, local_error);
          return FALSE;
        }
    }

  return tes_section_type_render (G_OBJECT_TYPE (self), workspace, view, cr, width, height, error);
}

const char *
tes_section_type_get_title (GType section_type)
{
  g_autoptr(GTypeClass) klass = NULL;

  g_return_val_if_fail (g_type_is_a (section_type, TES_TYPE_SECTION), NULL);

  klass = g_type_class_ref (section_type);

  return TES_SECTION_CLASS (klass)->title;
}

const char * const *
tes_section_type_get_views (GType section_type)
{
  g_autoptr(GTypeClass) klass = NULL;

  g_return_val_if_fail (g_type_is_a (section_type, TES_TYPE_SECTION), NULL);

  klass = g_type_class_ref (section_type);

  return TES_SECTION_CLASS (klass)->views;
}
