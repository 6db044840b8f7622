/* tes-sections.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-section.h"

G_BEGIN_DECLS

GType  tes_sections_get_type_at  (guint        position);
GType  tes_sections_lookup       (const char  *name,
                                  const char **view);
char  *tes_sections_describe     (void);

G_END_DECLS
