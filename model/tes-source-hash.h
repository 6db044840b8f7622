/* tes-source-hash.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* A source's content fingerprint is a hash of the hashes of its blocks of
 * TES_SOURCE_HASH_BLOCK bytes (the last one shorter), so that an importer
 * that reads the file anyway can hash the blocks it reads, on whichever
 * thread reads them and in any order, and the file is not read a second
 * time for its fingerprint. */
#define TES_SOURCE_HASH_BLOCK (1024 * 1024)

typedef struct _TesSourceHash TesSourceHash;

TesSourceHash *tes_source_hash_new          (guint64         size);
void           tes_source_hash_free         (TesSourceHash  *self);
gboolean       tes_source_hash_add_block    (TesSourceHash  *self,
                                             guint64         offset,
                                             const guint8   *data,
                                             gsize           len);
gboolean       tes_source_hash_fill         (TesSourceHash  *self,
                                             const char     *path,
                                             GCancellable   *cancellable,
                                             GError        **error);
guint          tes_source_hash_get_n_filled (TesSourceHash  *self);
char          *tes_source_hash_finish       (TesSourceHash  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TesSourceHash, tes_source_hash_free)

G_END_DECLS
