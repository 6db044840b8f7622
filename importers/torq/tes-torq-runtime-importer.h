/* tes-torq-runtime-importer.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-importer.h"

G_BEGIN_DECLS

#define TES_TYPE_TORQ_RUNTIME_IMPORTER (tes_torq_runtime_importer_get_type ())

G_DECLARE_FINAL_TYPE (TesTorqRuntimeImporter, tes_torq_runtime_importer,
                      TES, TORQ_RUNTIME_IMPORTER, TesImporter)

G_END_DECLS
