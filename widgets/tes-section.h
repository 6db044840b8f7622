/* tes-section.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "tes-workspace.h"

G_BEGIN_DECLS

#define TES_TYPE_SECTION (tes_section_get_type ())

G_DECLARE_DERIVABLE_TYPE (TesSection, tes_section, TES, SECTION, GtkWidget)

/* The base of every view of a report. A section is given the workspace,
 * says whether the report holds data for it (a report without tiles has no
 * Tiles section) and draws itself into any cairo context, so the window
 * and `tessera-cli render` share one drawing code. */
struct _TesSectionClass
{
  GtkWidgetClass parent_class;

  /* Set in class_init: what the sidebar shows, and the views `render`
   * draws (NULL-terminated, lower case; the first is the default). */
  const char         *title;
  const char         *icon_name;
  const char * const *views;

  gboolean (*has_data)           (TesWorkspace  *workspace);
  void     (*workspace_changed)  (TesSection    *self,
                                  TesWorkspace  *old_workspace);
  gboolean (*render)             (TesWorkspace  *workspace,
                                  const char    *view,
                                  cairo_t       *cr,
                                  int            width,
                                  int            height,
                                  GError       **error);
  /* the view shown, one of views (NULL: the first): what Export View
   * asks `render` to draw */
  const char *(*get_view)        (TesSection    *self);
  /* optional: draws @view from what the section has loaded already, so
   * that Export View reads nothing on the main thread; FALSE without
   * @error: nothing loaded yet, `render` draws it */
  gboolean (*render_loaded)      (TesSection    *self,
                                  const char    *view,
                                  cairo_t       *cr,
                                  int            width,
                                  int            height,
                                  GError       **error);

  gpointer _reserved[6];
};

TesWorkspace *tes_section_get_workspace    (TesSection    *self);
void          tes_section_set_workspace    (TesSection    *self,
                                            TesWorkspace  *workspace);
const char   *tes_section_get_title        (TesSection    *self);
const char   *tes_section_get_icon_name    (TesSection    *self);
const char   *tes_section_get_view         (TesSection    *self);
gboolean      tes_section_type_has_data    (GType          section_type,
                                            TesWorkspace  *workspace);
gboolean      tes_section_type_render      (GType          section_type,
                                            TesWorkspace  *workspace,
                                            const char    *view,
                                            cairo_t       *cr,
                                            int            width,
                                            int            height,
                                            GError       **error);
gboolean      tes_section_render           (TesSection    *self,
                                            cairo_t       *cr,
                                            int            width,
                                            int            height,
                                            GError       **error);
const char   *tes_section_type_get_title   (GType          section_type);
const char * const *tes_section_type_get_views (GType       section_type);
void          tes_widgets_init             (void);

G_END_DECLS
