/* tes-chrome-builder.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-chrome-model.h"

G_BEGIN_DECLS

/* The building half of the Chrome importer: from a parsed trace to the
 * cache rows. It takes the segments over (their arrays are emptied as
 * their rows are written). */
gboolean tes_chrome_build (TesImportContext  *context,
                           TesChromeTrace    *trace,
                           GError           **error);

G_END_DECLS
