/* tes-source-file.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

int      tes_source_file_open  (const char  *path,
                                GError     **error);
gboolean tes_source_file_check (const char  *path,
                                GError     **error);

G_END_DECLS
