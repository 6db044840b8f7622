/* tes-chrome-importer.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-importer.h"

G_BEGIN_DECLS

#define TES_TYPE_CHROME_IMPORTER (tes_chrome_importer_get_type ())

G_DECLARE_FINAL_TYPE (TesChromeImporter, tes_chrome_importer, TES, CHROME_IMPORTER, TesImporter)

G_END_DECLS
