/* tes-torq-annotated-importer.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-importer.h"

G_BEGIN_DECLS

#define TES_TYPE_TORQ_ANNOTATED_IMPORTER (tes_torq_annotated_importer_get_type ())

G_DECLARE_FINAL_TYPE (TesTorqAnnotatedImporter, tes_torq_annotated_importer,
                      TES, TORQ_ANNOTATED_IMPORTER, TesImporter)

G_END_DECLS
