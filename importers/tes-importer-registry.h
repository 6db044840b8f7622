/* tes-importer-registry.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-importer.h"

G_BEGIN_DECLS

GPtrArray   *tes_importer_registry_get_all  (void);
TesImporter *tes_importer_registry_lookup   (const char    *name);
TesImporter *tes_importer_registry_sniff    (const guint8  *head,
                                             gsize          head_len,
                                             const char    *basename,
                                             guint         *confidence);
TesImporter *tes_importer_registry_choose   (const char    *path,
                                             const char    *format,
                                             GError       **error);
char        *tes_importer_registry_describe (void);

G_END_DECLS
