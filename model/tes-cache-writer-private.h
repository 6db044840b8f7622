/* tes-cache-writer-private.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-cache-private.h"
#include "tes-cache-track-private.h"
#include "tes-cache-writer.h"

G_BEGIN_DECLS

/* What the files of the cache writer share. tes-cache-writer.c holds the
 * object and what other rows refer to: sources, strings, clocks, tracks;
 * tes-cache-writer-rows.c stores the other rows as they come;
 * tes-cache-writer-commit.c takes the slices, nests, chunks and
 * summarises them (a chunk at a time while a track's slices come in
 * order, the rest at commit) and finishes the file. A track's pending
 * slices (TesTrackSlices) are tes-cache-track.c's, which both use; the
 * writer's files call down that list, never back. */

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
  ZSTD_CCtx    *zstd;           /* compresses every chunk (one storing thread) */
  GByteArray   *packed_data;    /* a chunk's columns as stored, reused */
  GByteArray   *packed_args;
  int           sync_fd;        /* the temp file, to start its writeback early; -1: none */
  gint64        unsynced;       /* bytes stored since writeback was last started */
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

/* tes-cache-writer-commit.c */
void          tes_cache_writer_stream_track       (TesCacheWriter     *self,
                                                   guint               id,
                                                   gboolean            all);
void          tes_cache_writer_unstream_track     (TesCacheWriter     *self,
                                                   guint               id);
void          tes_cache_writer_finish_track       (TesCacheWriter     *self,
                                                   guint               id);

G_END_DECLS
