/* tes-fuzz.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-report.h"

G_BEGIN_DECLS

/* What every libFuzzer harness shares: a private folder, the input written
 * into it, and a report's queries run once over what it holds. */
void      tes_fuzz_init              (void);
char     *tes_fuzz_write_input       (const char    *name,
                                      const guint8  *data,
                                      gsize          size);
void      tes_fuzz_remove_input      (const char    *path);
gboolean  tes_fuzz_query_report      (TesReport     *report,
                                      GError       **error);
void      tes_fuzz_assert_names_file (const GError  *error,
                                      const char    *path);

G_END_DECLS
