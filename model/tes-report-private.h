/* tes-report-private.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-cache.h"
#include "tes-report.h"

G_BEGIN_DECLS

/* For the loader, which opens a cache on behalf of the files it was
 * written from: where those files are now, and whether the cache was
 * reused rather than written by this open. */
void tes_report_set_opened_from (TesReport              *self,
                                 const char * const     *paths,
                                 TesSourceStamp * const *stamps,
                                 guint                   n_files,
                                 gboolean                cache_reused);

G_END_DECLS
