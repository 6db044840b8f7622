/* tes-tensorrt-times-importer.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-importer.h"

G_BEGIN_DECLS

#define TES_TYPE_TENSORRT_TIMES_IMPORTER (tes_tensorrt_times_importer_get_type ())

G_DECLARE_FINAL_TYPE (TesTensorrtTimesImporter, tes_tensorrt_times_importer,
                      TES, TENSORRT_TIMES_IMPORTER, TesImporter)

G_END_DECLS
