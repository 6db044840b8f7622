/* tes-cache-writer-private.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-cache-private.h"
#include "tes-cache-syncer.h"
#include "tes-cache-track-private.h"
#include "tes-cache-writer.h"

G_BEGIN_DECLS

/* What the files of the cache writer share. tes-cache-writer.c holds the
 * object and what other rows refer to: sources, strings, clocks, tracks;
 * tes-cache-writer-rows.c stores the other rows as they come;
 * tes-cache-writer-chunks.c nests a track's slices, packs them into
 * chunks, summarises them for the lanes and stores all that;
 * tes-cache-writer-stream.c does it a chunk at a time while a track's
 * slices come in order; tes-cache-writer-commit.c stores the rest at
 * commit, preparing tracks on worker threads, and finishes the file. A
 * track's pending slices (TesTrackSlices) are tes-cache-track.c's, which
 * all use; the writer's files call down that list, never back. */

/* args offset of a pending slice without args */
#define TES_CACHE_WRITER_NO_ARGS G_MAXUINT32

/* Slices the writer holds before it stores them (default; tests lower it
 * to stream every import, or raise it to stream none). */
#define TES_CACHE_WRITER_FLUSH_THRESHOLD (2 * TES_CACHE_CHUNK_SLICES)

/* Inserts prepared once in tes_cache_writer_new(), for the rows that come
 * one at a time and in numbers. */
typedef enum
{
  TES_CACHE_WRITER_STMT_STRING,
  TES_CACHE_WRITER_STMT_INSTANT,
  TES_CACHE_WRITER_STMT_COUNTER,
  TES_CACHE_WRITER_STMT_OPERATOR,
  TES_CACHE_WRITER_STMT_INFO,
  TES_CACHE_WRITER_STMT_TILE_MEMORY,
  TES_CACHE_WRITER_STMT_BSP_STEP,
  TES_CACHE_WRITER_STMT_RUN,
  TES_CACHE_WRITER_N_STMTS
} TesCacheWriterStmt;

typedef struct _TesChunkPacker TesChunkPacker;

struct _TesCacheWriter
{
  GObject       parent_instance;

  sqlite3      *db;
  sqlite3_stmt *stmts[TES_CACHE_WRITER_N_STMTS];
  char         *final_path;
  char         *temp_path;
  GError       *error;          /* first failure, reported by commit */

  GHashTable   *strings;        /* char* -> id */
  guint32       next_string;
  GPtrArray    *tracks;         /* TesTrackSlices*, index = track id */
  guint         n_pending;      /* slices held in tracks, not yet stored */
  guint         flush_threshold;
  sqlite3_stmt *insert_chunk;   /* the slice statements, prepared when first needed */
  sqlite3_stmt *insert_lod;
  sqlite3_stmt *update_track;
  TesChunkPacker *packer;     /* packs the chunks stored, on a thread of its own */
  gsize         kept_total;   /* bytes of TesLodSlices tracks keep for their summaries */
  GByteArray   *packed_data;    /* a patched chunk's columns as stored, reused */
  GByteArray   *packed_sums;    /* a patched chunk's sums, reused */
  /* the instants' and counter values' times per track id (two gint64,
   * empty where lo > hi): they widen the tracks' extents at commit */
  GArray       *marks;
  /* checksums worked out row by row as the rows go in */
  TesCacheRowHash operators_hash;
  TesCacheRowHash instants_hash;
  TesCacheRowHash counters_hash;
  int           sync_fd;        /* the temp file, synced through syncer; -1: none */
  TesCacheSyncer *syncer;
  GPtrArray    *clock_keys;     /* "unit:ticks:name" per clock, index = id - 1 */
  guint         n_warnings;
  gint64        started_us;
  GPtrArray    *commit_hooks;   /* TesCacheWriterHookEntry*, run first by commit */
  gboolean      committed;
  /* flows wait here to be stored TES_CACHE_FLOW_BLOCK to a row: a
   * Kineto trace has one per kernel */
  sqlite3_stmt *insert_flows;
  guint         n_flows;
  gint64        next_flow_id;
  gint64       *flows;          /* TES_CACHE_FLOW_BLOCK × 6, allocated when first needed */
  GByteArray   *packed_flows;
};

typedef struct
{
  TesCacheWriterCommitHook hook;
  gpointer                 data;
  GDestroyNotify           destroy;
} TesCacheWriterHookEntry;

/* tes-cache-writer.c */
gboolean      tes_cache_writer_failed             (TesCacheWriter     *self);
void          tes_cache_writer_note_stored        (TesCacheWriter     *self,
                                                   gsize               bytes);
void          tes_cache_writer_fail               (TesCacheWriter     *self,
                                                   const char         *what);
sqlite3_stmt *tes_cache_writer_stmt               (TesCacheWriter     *self,
                                                   TesCacheWriterStmt  which);
void          tes_cache_writer_step_done          (TesCacheWriter     *self,
                                                   sqlite3_stmt       *s,
                                                   const char         *what);
void          tes_cache_writer_bind_text_or_null  (sqlite3_stmt       *s,
                                                   int                 col,
                                                   const char         *text);
void          tes_cache_writer_bind_id_or_null    (sqlite3_stmt       *s,
                                                   int                 col,
                                                   gint64              id);
gint64        tes_cache_writer_clamp_time         (gint64              t);
void          tes_cache_writer_flush_flows        (TesCacheWriter     *self);
gint64        tes_cache_writer_clamp_dur          (gint64              start,
                                                   gint64              dur);
void          tes_cache_writer_set_default_flush_threshold (guint      n_slices);

/* A self time to write into a record already stored. */
typedef struct
{
  gint64 index;
  gint64 self_dur;
} TesChunkPatch;

typedef struct
{
  guint          shift;
  guint          n;
  TesLaneBucket *buckets;
} TesLodLevel;

typedef struct
{
  gint64  max_end;
  gint64  max_dur;
  guint   depth;
} TesChunkInfo;

typedef struct
{
  guint           id;
  TesTrackSlices *ts;
  gboolean        skip;        /* streamed or already finished: not prepared here */
  guint           n;
  guint           max_depth;
  gint64          t_min;
  gint64          t_max;
  GArray         *chunks;      /* TesChunkInfo */
  GPtrArray      *chunk_args;  /* GByteArray*, NULL when the chunk has no args */
  GArray         *lod;         /* TesLodLevel */
} TesPreparedTrack;

/* Level 0 has about one bucket per four slices (at most 65536), in
 * power-of-two widths from the track's first tick; each further level
 * merges four buckets, down to TES_CACHE_LOD_MIN_BUCKETS. The slices come
 * in runs (in memory, or read back chunk by chunk). */
typedef struct
{
  TesLaneBucket *level;
  guint          shift;
  guint          nb;
  gint64         t_min;
} TesLodBuilder;

/* What the lane summaries read of a slice: a streamed track keeps these of
 * its stored chunks until its span is known, instead of decoding the
 * chunks again. */
typedef struct
{
  gint64  start;
  gint64  dur;
  guint32 name;
  guint32 depth;
} TesLodSlice;

/* tes-cache-writer-chunks.c */
void              tes_cache_writer_nest_range         (TesSliceRecord       *mem,
                                                       gint64                base,
                                                       guint                 first,
                                                       guint                 count,
                                                       GArray               *stack,
                                                       guint32              *args_src,
                                                       guint                *max_depth,
                                                       GArray               *patches);
GByteArray       *tes_cache_writer_pack_chunk         (const TesSliceRecord *recs,
                                                       guint                 count,
                                                       const guint32        *args_src,
                                                       const char           *texts,
                                                       TesChunkInfo         *info);
TesPreparedTrack *tes_prepared_track_new              (guint                 id,
                                                       TesTrackSlices       *ts);
void              tes_prepared_track_free             (TesPreparedTrack     *prep);
/* Level 0's bucket width (2^shift ticks) and count for n items over
 * [t_min, t_max]; FALSE when too few for a summary. */
gboolean          tes_lod_shape                       (guint64               n,
                                                       gint64                t_min,
                                                       gint64                t_max,
                                                       guint                *shift,
                                                       guint                *nb);
gboolean          tes_lod_builder_begin               (TesLodBuilder        *lb,
                                                       guint                 n,
                                                       gint64                t_min,
                                                       gint64                t_max);
void              tes_lod_builder_add                 (TesLodBuilder        *lb,
                                                       const TesSliceRecord *recs,
                                                       guint                 n);
void              tes_lod_builder_add_kept            (TesLodBuilder        *lb,
                                                       const TesLodSlice    *slices,
                                                       guint                 n);
void              tes_lod_builder_finish              (TesLodBuilder        *lb,
                                                       GArray               *lod);
TesPreparedTrack *tes_cache_writer_prepare_track      (guint                 id,
                                                       TesTrackSlices       *ts);
gboolean          tes_cache_writer_prepare_statements (TesCacheWriter       *self);
gboolean          tes_cache_writer_store_lod_level    (TesCacheWriter       *self,
                                                       gint64                track_id,
                                                       guint                 level,
                                                       guint                 shift,
                                                       gint64                t_base,
                                                       guint                 n,
                                                       gconstpointer         buckets,
                                                       gsize                 size);
gboolean          tes_cache_writer_store_track        (TesCacheWriter       *self,
                                                       TesPreparedTrack     *prep);

/* tes-cache-writer-counters.c */
gboolean          tes_cache_writer_store_counter_lod  (TesCacheWriter       *self,
                                                       GCancellable         *cancellable,
                                                       GError              **error);

/* tes-cache-writer-pack.c */
gboolean          tes_cache_writer_queue_chunk        (TesCacheWriter       *self,
                                                       guint                 id,
                                                       guint                 first,
                                                       const TesSliceRecord *recs,
                                                       guint                 count,
                                                       const TesChunkInfo   *info,
                                                       GByteArray           *args,
                                                       TesTrackSlices       *ts);
gboolean          tes_cache_writer_queue_summaries    (TesCacheWriter       *self,
                                                       TesPreparedTrack     *prep,
                                                       TesTrackSlices       *ts);
void              tes_cache_writer_forget_kept        (TesCacheWriter       *self,
                                                       TesTrackSlices       *ts);
gboolean          tes_cache_writer_drain_chunks       (TesCacheWriter       *self);
void              tes_chunk_packer_free               (TesChunkPacker       *pk);
void              tes_cache_writer_set_pack_thread    (gboolean              enabled);

/* tes-cache-writer-stream.c */
void              tes_cache_writer_stream_track       (TesCacheWriter       *self,
                                                       guint                 id,
                                                       gboolean              all);
void              tes_cache_writer_unstream_track     (TesCacheWriter       *self,
                                                       guint                 id);
gboolean          tes_cache_writer_finish_streamed    (TesCacheWriter       *self,
                                                       guint                 id,
                                                       TesTrackSlices       *ts);

/* tes-cache-writer-commit.c */
void              tes_cache_writer_finish_track       (TesCacheWriter       *self,
                                                       guint                 id);

G_END_DECLS
