/* tes-paths.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean    tes_paths_is_uninstalled   (void);
const char *tes_paths_get_locale_dir   (void);
const char *tes_paths_get_schema_dir   (void);

G_END_DECLS
