/* tes-cache-syncer.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _TesCacheSyncer TesCacheSyncer;

TesCacheSyncer *tes_cache_syncer_new      (int              fd,
                                           gsize            every);
void            tes_cache_syncer_note     (TesCacheSyncer  *self,
                                           gsize            bytes);
gboolean        tes_cache_syncer_finish   (TesCacheSyncer  *self,
                                           int             *errsv);
guint           tes_cache_syncer_get_runs (TesCacheSyncer  *self);
void            tes_cache_syncer_free     (TesCacheSyncer  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TesCacheSyncer, tes_cache_syncer_free)

G_END_DECLS
