/* tes-torq-host-overview-importer.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-importer.h"

G_BEGIN_DECLS

#define TES_TYPE_TORQ_HOST_OVERVIEW_IMPORTER (tes_torq_host_overview_importer_get_type ())

G_DECLARE_FINAL_TYPE (TesTorqHostOverviewImporter, tes_torq_host_overview_importer,
                      TES, TORQ_HOST_OVERVIEW_IMPORTER, TesImporter)

G_END_DECLS
