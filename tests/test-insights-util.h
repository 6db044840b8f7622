/* test-insights-util.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What the Insights tests share: a Poplar run from gen-poplar-tiles.py
 * with findings planted (or none). */
char **generate_insights_run (const char *name,
                              gboolean    planted);

G_END_DECLS
