/* tes-huge-pages.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

void     tes_huge_pages_enable    (char **argv);
gboolean tes_huge_pages_can_enable (void);

G_END_DECLS
