/* tes-cache-writer-private.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-cache-private.h"
#include "tes-cache-writer.h"

G_BEGIN_DECLS

/* What the files of the cache writer share. tes-cache-writer.c holds the
 * object and what other rows refer to: sources, strings, clocks, tracks
 * and their slices, buffered; tes-cache-writer-rows.c stores the other
 * rows as they come; tes-cache-writer-commit.c nests, chunks and
 * summarises the slices and finishes the file. */

/* arg_offsets entry of a slice without args */
#define TES_CACHE_WRITER_NO_ARGS G_MAXUINT32

/* Slices of one track, kept in memory until commit: they must be sorted
 * and nested before they can be chunked. */
typedef struct
{
  GArray  *records;      /* TesSliceRecord, parent holds insertion order */
  GArray  *arg_offsets;  /* guint32 into args per inserted slice, or TES_CACHE_WRITER_NO_ARGS */
  GString *args;
} TesTrackSlices;

/* Inserts prepared once in tes_cache_writer_new(), for the rows that come
 * one at a time and in numbers. */
typedef enum
{
  TES_CACHE_WRITER_STMT_STRING,
  TES_CACHE_WRITER_STMT_INSTANT,
  TES_CACHE_WRITER_STMT_COUNTER,
  TES_CACHE_WRITER_STMT_FLOW,
  TES_CACHE_WRITER_STMT_OPERATOR,
  TES_CACHE_WRITER_STMT_INFO,
  TES_CACHE_WRITER_STMT_TILE_MEMORY,
  TES_CACHE_WRITER_STMT_BSP_STEP,
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
  GPtrArray    *clock_keys;     /* "unit:ticks:name" per clock, index = id - 1 */
  guint         n_warnings;
  gint64        started_us;
  gboolean      committed;
};

/* tes-cache-writer.c */
void          tes_cache_writer_track_slices_free  (gpointer            data);
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
gint64        tes_cache_writer_clamp_dur          (gint64              start,
                                                   gint64              dur);

G_END_DECLS
