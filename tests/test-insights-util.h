/* test-insights-util.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* What the Insights tests share: a Poplar run from gen-poplar-tiles.py
 * with findings planted (or none). */
char **generate_insights_run (const char *name,
                              gboolean    planted);

/* The key pressed where the focus is (the shortcut of the focus or of its
 * nearest ancestor binding it: GtkListView's arrows move its cursor). */
void   tes_test_press_key     (GtkWidget  *focus,
                               guint       keyval);

G_END_DECLS
