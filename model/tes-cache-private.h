/* tes-cache-private.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <sqlite3.h>

#include "tes-cache.h"
#include "tes-lane.h"

G_BEGIN_DECLS

/* Slices are stored per track in chunks of this many records, sorted by
 * start time; a window query decodes only the chunks it overlaps. */
#define TES_CACHE_CHUNK_SLICES 16384

/* Tracks with at least this many slices get a summary pyramid
 * (slice_lod): levels of power-of-two buckets, each 4x coarser than the
 * one below, so a zoomed-out lane costs its pixels, not its slices. */
#define TES_CACHE_LOD_MIN_SLICES 4096
#define TES_CACHE_LOD_MAX_BUCKETS 65536
#define TES_CACHE_LOD_MIN_BUCKETS 64

G_STATIC_ASSERT (sizeof (TesLaneBucket) == 32);

/* One slice as packed in slice_chunks.data, little-endian. The index of a
 * slice is its position in its track (start order), so it is not stored. */
typedef struct
{
  gint64  start;
  gint64  dur;
  gint64  self_dur;
  guint32 name;
  guint32 category;
  gint32  parent;       /* index of the enclosing slice in the track, or -1 */
  guint16 depth;
  guint16 flags;
} TesSliceRecord;

G_STATIC_ASSERT (sizeof (TesSliceRecord) == 40);

#if G_BYTE_ORDER != G_LITTLE_ENDIAN
# error "slice chunks are stored little-endian; add byte swapping for this host"
#endif

extern const char tes_cache_schema_sql[];

gboolean tes_cache_exec        (sqlite3     *db,
                                const char  *sql,
                                GError     **error);
void     tes_cache_set_error   (GError     **error,
                                sqlite3     *db,
                                const char  *what);
gboolean tes_cache_open_db     (const char  *path,
                                int          flags,
                                sqlite3    **db_out,
                                GError     **error);
gboolean tes_cache_check_db    (sqlite3     *db,
                                const char  *path,
                                GError     **error);

G_END_DECLS
