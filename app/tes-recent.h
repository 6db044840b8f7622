/* tes-recent.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define TES_RECENT_MAX 10

GSettings  *tes_recent_get_settings (void);
void        tes_recent_add          (GFile * const *files,
                                     guint          n_files);
GMenuModel *tes_recent_build_menu   (void);

G_END_DECLS
