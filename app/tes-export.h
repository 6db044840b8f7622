/* tes-export.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "tes-section.h"

G_BEGIN_DECLS

gboolean              tes_export_section           (TesSection    *section,
                                                    TesWorkspace  *workspace,
                                                    GFile         *file,
                                                    GError       **error);
GtkFileChooserNative *tes_export_chooser_new       (GtkWindow     *parent,
                                                    GFile         *report_file,
                                                    TesSection    *section);
GFile                *tes_export_chooser_get_file  (GtkFileChooserNative *chooser);

G_END_DECLS
