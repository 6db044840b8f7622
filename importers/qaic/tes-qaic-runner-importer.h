/* tes-qaic-runner-importer.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-importer.h"

G_BEGIN_DECLS

#define TES_TYPE_QAIC_RUNNER_IMPORTER (tes_qaic_runner_importer_get_type ())

G_DECLARE_FINAL_TYPE (TesQaicRunnerImporter, tes_qaic_runner_importer,
                      TES, QAIC_RUNNER_IMPORTER, TesImporter)

G_END_DECLS
