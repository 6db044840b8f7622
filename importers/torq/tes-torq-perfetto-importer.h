/* tes-torq-perfetto-importer.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-importer.h"

G_BEGIN_DECLS

#define TES_TYPE_TORQ_PERFETTO_IMPORTER (tes_torq_perfetto_importer_get_type ())

G_DECLARE_FINAL_TYPE (TesTorqPerfettoImporter, tes_torq_perfetto_importer,
                      TES, TORQ_PERFETTO_IMPORTER, TesImporter)

G_END_DECLS
