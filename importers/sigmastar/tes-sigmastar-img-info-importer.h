/* tes-sigmastar-img-info-importer.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-importer.h"

G_BEGIN_DECLS

#define TES_TYPE_SIGMASTAR_IMG_INFO_IMPORTER (tes_sigmastar_img_info_importer_get_type ())

G_DECLARE_FINAL_TYPE (TesSigmastarImgInfoImporter, tes_sigmastar_img_info_importer,
                      TES, SIGMASTAR_IMG_INFO_IMPORTER, TesImporter)

G_END_DECLS
