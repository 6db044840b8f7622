/* tes-poplar-size-importer.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-importer.h"

G_BEGIN_DECLS

#define TES_TYPE_POPLAR_SIZE_IMPORTER (tes_poplar_size_importer_get_type ())

G_DECLARE_FINAL_TYPE (TesPoplarSizeImporter, tes_poplar_size_importer,
                      TES, POPLAR_SIZE_IMPORTER, TesImporter)

G_END_DECLS
