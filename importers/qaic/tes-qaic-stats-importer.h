/* tes-qaic-stats-importer.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-importer.h"

G_BEGIN_DECLS

#define TES_TYPE_QAIC_STATS_IMPORTER (tes_qaic_stats_importer_get_type ())

G_DECLARE_FINAL_TYPE (TesQaicStatsImporter, tes_qaic_stats_importer,
                      TES, QAIC_STATS_IMPORTER, TesImporter)

G_END_DECLS
