/* tes-poplar-profile-private.h: the SDK 1.x profile readers
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "tes-poplar-profile.h"

G_BEGIN_DECLS

/* Which parts of a profile a document held. */
typedef enum
{
  TES_POPLAR_PART_GRAPH     = 1 << 0,
  TES_POPLAR_PART_EXECUTION = 1 << 1,
} TesPoplarParts;

/* Which parts @root holds, and whether under graphProfile /
 * executionProfile (@combined) rather than at the top. */
TesPoplarParts tes_poplar_profile_document_parts (JsonNode *root,
                                                  gboolean *combined);

/* Reads one SDK 1.x document (a graph profile, an execution profile, or
 * both under "graphProfile" / "executionProfile") into @profile, which may
 * already hold the other part. Errors name @path and the key path, e.g.
 * "graphProfile.memory.byTile.total[17]". */
gboolean  tes_poplar_profile_read_document (TesPoplarProfile  *profile,
                                            JsonNode          *root,
                                            const char        *path,
                                            TesPoplarParts    *parts,
                                            GError           **error);

/* Every per-tile array against the target's tiles, once all parts are
 * read; @graph_path and @execution_path name the files in errors, the
 * prefixes ("graphProfile." in a combined document, else "") their keys. */
gboolean  tes_poplar_profile_check         (const TesPoplarProfile *profile,
                                            const char             *graph_path,
                                            const char             *graph_prefix,
                                            const char             *execution_path,
                                            const char             *execution_prefix,
                                            GError                **error);

/* A CBOR document (RFC 7049, as Poplar's CBOR reports are) as the JSON
 * tree it stands for; errors name @path and the byte or the key path. */
JsonNode *tes_poplar_cbor_to_json          (const guint8      *data,
                                            gsize              len,
                                            const char        *path,
                                            GError           **error);

G_END_DECLS
