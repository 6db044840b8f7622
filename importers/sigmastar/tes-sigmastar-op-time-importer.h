/* tes-sigmastar-op-time-importer.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-importer.h"

G_BEGIN_DECLS

#define TES_TYPE_SIGMASTAR_OP_TIME_IMPORTER (tes_sigmastar_op_time_importer_get_type ())

G_DECLARE_FINAL_TYPE (TesSigmastarOpTimeImporter, tes_sigmastar_op_time_importer,
                      TES, SIGMASTAR_OP_TIME_IMPORTER, TesImporter)

G_END_DECLS
