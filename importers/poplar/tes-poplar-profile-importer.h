/* tes-poplar-profile-importer.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-importer.h"

G_BEGIN_DECLS

#define TES_TYPE_POPLAR_PROFILE_IMPORTER (tes_poplar_profile_importer_get_type ())

G_DECLARE_FINAL_TYPE (TesPoplarProfileImporter, tes_poplar_profile_importer,
                      TES, POPLAR_PROFILE_IMPORTER, TesImporter)

G_END_DECLS
