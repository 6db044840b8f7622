/* tes-paths.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "tes-report.h"

G_BEGIN_DECLS

gboolean    tes_paths_is_uninstalled   (void);
const char *tes_paths_get_locale_dir   (void);
const char *tes_paths_get_schema_dir   (void);
char       *tes_paths_display_dirname  (GFile     *file);
char       *tes_paths_display_basename (GFile     *file);
GPtrArray  *tes_paths_present_sources  (TesReport *report);

G_END_DECLS
