/* tes-application.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TES_TYPE_APPLICATION (tes_application_get_type ())

G_DECLARE_FINAL_TYPE (TesApplication, tes_application, TES, APPLICATION, GtkApplication)

TesApplication *tes_application_new (void);

G_END_DECLS
