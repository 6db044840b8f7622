/* tes-progress.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "tes-model-types.h"

G_BEGIN_DECLS

#define TES_TYPE_PROGRESS (tes_progress_get_type ())

G_DECLARE_FINAL_TYPE (TesProgress, tes_progress, TES, PROGRESS, GObject)

TesProgress *tes_progress_new          (void);
double       tes_progress_get_fraction (TesProgress *self);
char        *tes_progress_dup_message  (TesProgress *self);
void         tes_progress_update       (TesProgress *self,
                                        double       fraction,
                                        const char  *message);
void         tes_progress_set_range    (TesProgress *self,
                                        double       start,
                                        double       end);

G_END_DECLS
