/* tes-cache-private.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <sqlite3.h>
#include <zstd.h>

#include "tes-cache.h"
#include "tes-lane.h"

G_BEGIN_DECLS

/* Slices are stored per track in chunks of this many records, sorted by
 * start time; a window query decodes only the chunks it overlaps. */
#define TES_CACHE_CHUNK_SLICES 16384

/* Flows are stored this many to a row of `flows` (tes_cache_flows_pack). */
#define TES_CACHE_FLOW_BLOCK 4096

/* Tracks with at least this many slices get a summary pyramid
 * (slice_lod): levels of power-of-two buckets, each 4x coarser than the
 * one below, so a zoomed-out lane costs its pixels, not its slices. */
#define TES_CACHE_LOD_MIN_SLICES 4096
#define TES_CACHE_LOD_MAX_BUCKETS 65536
#define TES_CACHE_LOD_MIN_BUCKETS 64

G_STATIC_ASSERT (sizeof (TesLaneBucket) == 32);

/* A counter track's summary levels share slice_lod and its shapes; a
 * bucket holds the lowest, highest and last of the samples in it, min NaN
 * when it has none (a sample is never NaN: SQLite stores NaN as NULL,
 * which counter_values refuses). */
typedef struct
{
  double min;
  double max;
  double last;
} TesCounterLodBucket;

G_STATIC_ASSERT (sizeof (TesCounterLodBucket) == 24);

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

/* tes-cache-chunk.c: a chunk's data and args columns hold its slices in
 * blocks of this many behind an index (docs/cache-schema.md): a window
 * query decodes only the blocks it meets. */
#define TES_CACHE_BLOCK_SLICES 1024

guint    tes_cache_chunk_n_blocks       (guint                 n);
gsize    tes_cache_chunk_data_index_len (guint                 n);
void     tes_cache_chunk_pack_data      (const TesSliceRecord *recs,
                                         guint                 n,
                                         GByteArray           *out);
/* tes-cache-args.c: a chunk's args texts as its args blocks store them,
 * which the search summary reads too: in raw_args' layout, each text with
 * its digits taken out, and each one's hash (guint64) */
typedef struct
{
  GByteArray *texts;
  GByteArray *hashes;
  /* what a block is packed in, kept from chunk to chunk as the rest */
  GByteArray *raw;
  GByteArray *digits;
} TesArgsSkeletons;

void     tes_cache_args_skeletons_init  (TesArgsSkeletons     *skel);
void     tes_cache_args_skeletons_clear (TesArgsSkeletons     *skel);
/* raw_args: n + 1 uint32 offsets, then the texts; skel: their skeletons */
void     tes_cache_chunk_pack_args      (ZSTD_CCtx            *cctx,
                                         const guint8         *raw_args,
                                         guint                 n,
                                         TesArgsSkeletons     *skel,
                                         GByteArray           *out);
/* where block b of a data column of n slices lies, from its index (the
 * column's first tes_cache_chunk_data_index_len() bytes); FALSE when the
 * index cannot say */
gboolean tes_cache_chunk_data_block     (const guint8         *index,
                                         gsize                 index_len,
                                         guint                 n,
                                         guint                 b,
                                         gint64               *first_start,
                                         gint64               *max_end,
                                         gsize                *offset,
                                         gsize                *len);
gboolean tes_cache_chunk_unpack_block   (const guint8         *block,
                                         gsize                 len,
                                         guint                 m,
                                         gint64                first_start,
                                         gint64                max_end,
                                         TesSliceRecord       *out,
                                         const char          **why);
/* Some columns of a data block, for queries that read every slice: the
 * others are only stepped over (and must be whole), and their fields in
 * out are left as they were. tes_cache_chunk_unpack_block () is all of
 * them, and the block's end checked against its index. */
enum
{
  TES_CACHE_COLUMN_START    = 1 << 0,
  TES_CACHE_COLUMN_DUR      = 1 << 1,
  TES_CACHE_COLUMN_SELF     = 1 << 2,   /* decodes the duration too */
  TES_CACHE_COLUMN_NAME     = 1 << 3,
  TES_CACHE_COLUMN_CATEGORY = 1 << 4,
  TES_CACHE_COLUMN_PARENT   = 1 << 5,
  TES_CACHE_COLUMN_DEPTH    = 1 << 6,
  TES_CACHE_COLUMN_FLAGS    = 1 << 7,
  TES_CACHE_COLUMNS_ALL     = (1 << 8) - 1,
};

gboolean tes_cache_chunk_unpack_columns (const guint8        *block,
                                         gsize                len,
                                         guint                m,
                                         gint64               first_start,
                                         guint                columns,
                                         TesSliceRecord      *out,
                                         const char         **why);
/* block b of an args column of n slices, decompressed into scratch and
 * read where it lies: its m texts are [offsets[i], offsets[i + 1]) of
 * *texts (m + 1 offsets) */
gboolean tes_cache_chunk_args_block     (const guint8         *blob,
                                         gsize                 len,
                                         guint                 n,
                                         guint                 b,
                                         GByteArray           *scratch,
                                         guint32              *offsets,
                                         const char          **texts,
                                         const char          **why);
/* The search summary of a chunk (slice_chunks.search, docs/cache-schema.md):
 * per (name, category) of its slices, the blocks that hold them and a filter
 * of the trigrams of letters (ASCII, any case) in their argument texts. */
#define TES_CACHE_TRIGRAMS          (26 * 26 * 26)
#define TES_CACHE_FILTER_MIN_SHIFT  6
#define TES_CACHE_FILTER_MAX_SHIFT  14

typedef struct
{
  guint32       name;
  guint32       category;
  guint32       blocks;   /* bit b: block b holds slices of the group */
  guint         shift;    /* the filter's bits, 1 << shift; 0: no slice of it has args */
  const guint8 *filter;
} TesChunkGroup;

/* raw_args as tes_cache_chunk_pack_args takes them, or NULL */
void     tes_cache_chunk_pack_search    (const TesSliceRecord *recs,
                                         guint                 n,
                                         const guint8         *raw_args,
                                         GByteArray           *out);
gboolean tes_cache_chunk_search_begin   (const guint8        **p,
                                         const guint8         *end,
                                         guint                *n_groups);
gboolean tes_cache_chunk_search_group   (const guint8        **p,
                                         const guint8         *end,
                                         guint                 n,
                                         TesChunkGroup        *group);
/* per group of the search summary, what an aggregate of the whole chunk
 * sums (slice_chunks.sums) */
typedef struct
{
  guint32 name;
  guint32 category;
  gint64  count;
  gint64  dur;      /* sum of durations */
  gint64  self;     /* sum of self times */
  gint64  min;      /* shortest and longest duration */
  gint64  max;
} TesChunkSums;

void     tes_cache_chunk_pack_sums      (const TesSliceRecord *recs,
                                         guint                 n,
                                         GByteArray           *out);
/* both, with one pass over the records; from the args' skeletons (or
 * NULL: none), the same search summary as from their texts */
void     tes_cache_chunk_pack_summaries (const TesSliceRecord   *recs,
                                         guint                   n,
                                         const TesArgsSkeletons *skel,
                                         GByteArray             *search,
                                         GByteArray             *sums);
/* the group count of sums is read as a search summary's */
gboolean tes_cache_chunk_sums_group     (const guint8        **p,
                                         const guint8         *end,
                                         TesChunkSums         *sums);
const char *tes_cache_chunk_check_summaries (const TesSliceRecord *recs,
                                             guint                 n,
                                             const guint8         *search,
                                             gsize                 search_len,
                                             const guint8         *sums,
                                             gsize                 sums_len);
/* the trigram of letters at text[0, 3), or -1 */
gint     tes_cache_trigram              (const char           *text);
/* FALSE: no argument text of the group holds the trigram */
gboolean tes_cache_chunk_group_may_hold (const TesChunkGroup  *group,
                                         guint                 trigram);
/* @n flows of 6 columns (name, category, from_track, from_ts, to_track,
 * to_ts) as a row of `flows` stores them, and back (FALSE: damaged) */
void     tes_cache_flows_pack           (const gint64         *rows,
                                         guint                 n,
                                         GByteArray           *out);
gboolean tes_cache_flows_unpack         (const guint8         *blob,
                                         gsize                 len,
                                         guint                 n,
                                         gint64               *rows);
/* all n records; *why (to free) says which block is damaged and how */
gboolean tes_cache_chunk_unpack_data    (const guint8         *blob,
                                         gsize                 len,
                                         guint                 n,
                                         TesSliceRecord       *out,
                                         char                **why);
/* the args of blocks [b0, b1) as count + 1 offsets and the texts */
gboolean tes_cache_chunk_unpack_args    (const guint8         *blob,
                                         gsize                 len,
                                         guint                 n,
                                         guint                 b0,
                                         guint                 b1,
                                         GByteArray           *out,
                                         char                **why);


/* A source's stat identity proves its content only when its mtime and
 * ctime were older than the moment it was stat'ed by more than this (a
 * clock tick, with room to spare), or by TES_CACHE_RACY_COARSE_NS more
 * when they have no nanoseconds (a file system keeping whole seconds, FAT
 * two): a change within that window may keep both (git's "racily clean"). */
#define TES_CACHE_RACY_WINDOW_NS (G_GINT64_CONSTANT (100) * 1000 * 1000)
#define TES_CACHE_RACY_COARSE_NS (G_GINT64_CONSTANT (2) * 1000 * 1000 * 1000)

/* How many times a file was read to fingerprint it, and how many bytes
 * were read only for that, for the tests. */
guint    tes_cache_get_fingerprint_reads  (void);
void     tes_cache_count_fingerprint_read (void);
guint64  tes_cache_get_fingerprint_bytes  (void);
void     tes_cache_count_fingerprint_bytes (gsize bytes);

gboolean tes_cache_exec        (sqlite3     *db,
                                const char  *sql,
                                GError     **error);
gboolean tes_cache_set_damaged_valist (GError     **error,
                                       const char  *path,
                                       const char  *format,
                                       va_list      args) G_GNUC_PRINTF (3, 0);
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
gboolean tes_cache_make_dir    (const char  *dir,
                                GError     **error);
/* whether caches may be written in @dir (not only whether access() says so) */
gboolean tes_cache_dir_is_writable (const char *dir);
guint64  tes_cache_hash64      (const guint8 *p,
                                gsize         len,
                                guint64       seed);

/* tes-cache-check.c: checksums per table (the checksums table) and per
 * slice chunk and lane summary (their checksum column). The writer calls
 * tes_cache_chunk_checksum() for each blob it stores and
 * tes_cache_finish() instead of COMMIT. */
typedef struct _TesCacheCheck TesCacheCheck;

gint64         tes_cache_chunk_checksum (const void     *data,
                                         gsize           data_len,
                                         const void     *args,
                                         gsize           args_len,
                                         const void     *search,
                                         gsize           search_len,
                                         const void     *sums,
                                         gsize           sums_len);
/* A table's checksum worked out as its rows were inserted (each row as
 * the seal would read it back, in the seal's order), which the seal then
 * takes instead of reading the table again (tes-cache-row-hash.c). */
#define TES_CACHE_ROW_SEED G_GUINT64_CONSTANT (0x7465732d726f7773)

typedef struct
{
  GByteArray *row;       /* the row being put, reused */
  guint       room;      /* what row holds */
  guint64     hash;
  gint64      n_rows;
} TesCacheRowHash;

void           tes_cache_row_hash_init    (TesCacheRowHash *rh);
void           tes_cache_row_hash_clear   (TesCacheRowHash *rh);
void           tes_cache_row_put_int      (TesCacheRowHash *rh,
                                           gint64           value);
void           tes_cache_row_put_null     (TesCacheRowHash *rh);
void           tes_cache_row_put_double   (TesCacheRowHash *rh,
                                           double           value);
void           tes_cache_row_put_text     (TesCacheRowHash *rh,
                                           const char      *text,
                                           gsize            len);
void           tes_cache_row_hash_end_row (TesCacheRowHash *rh);

gboolean       tes_cache_seal           (sqlite3        *db,
                                         GError        **error);
typedef struct
{
  const char            *table;
  const TesCacheRowHash *rows;
} TesCacheKnownHash;

gboolean       tes_cache_finish         (sqlite3        *db,
                                         const TesCacheKnownHash *known,
                                         guint           n_known,
                                         GError        **error);
gboolean       tes_cache_reseal         (sqlite3        *db,
                                         GError        **error);
gboolean       tes_cache_seal_table     (sqlite3        *db,
                                         const char     *table,
                                         GError        **error);
TesCacheCheck *tes_cache_check_new      (sqlite3        *db,
                                         const char     *path,
                                         gboolean        full,
                                         GError        **error);
void           tes_cache_check_free     (TesCacheCheck  *check);
gboolean       tes_cache_check_reads    (TesCacheCheck  *check,
                                         sqlite3        *db,
                                         const char     *sql,
                                         GError        **error);
gboolean       tes_cache_check_chunk    (TesCacheCheck  *check,
                                         sqlite3        *db,
                                         gint64          chunk_id,
                                         GError        **error);
/* after tes_cache_check_chunk(): whether its search summary and sums may
 * stand in for its records */
gboolean       tes_cache_check_chunk_vouched (TesCacheCheck *check,
                                              gint64         chunk_id);
gboolean       tes_cache_check_lod      (TesCacheCheck  *check,
                                         sqlite3        *db,
                                         gint64          track_id,
                                         int             level,
                                         GError        **error);
gboolean       tes_cache_check_lod_data (TesCacheCheck  *check,
                                         gint64          track_id,
                                         int             level,
                                         const void     *data,
                                         gsize           len,
                                         gint64          checksum,
                                         GError        **error);

G_END_DECLS
