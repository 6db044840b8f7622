/* tes-cache-track-private.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-cache-codec-private.h"

G_BEGIN_DECLS

/* An open ancestor while a track's slices are nested in start order. */
typedef struct
{
  gint64   index;      /* position in the track */
  gint64   start;
  gint64   end;
  gint64   self_dur;   /* authoritative once its record is stored */
  gboolean dirty;      /* stored, and self_dur changed since */
} TesOpenSlice;

/* Slices of one track. They must be sorted and nested before they can be
 * chunked; while they arrive in order, full chunks are stored as they
 * fill (the track "streams") and only the open work stays here. A pending
 * record's parent holds its insertion sequence (the last sort key) and
 * its self_dur the offset of its args text in args (or
 * TES_CACHE_WRITER_NO_ARGS), until it is nested. */
typedef struct
{
  GArray         *records;     /* pending TesSliceRecord */
  guint           records_room; /* what records holds (tes_array_append ()) */
  GString        *args;        /* args texts of the pending records (tes_track_args_add ()) */
  GString        *spare_args;  /* the texts' last buffer, kept to take the rest at the next flush */
  gint32          n_added;     /* insertion sequence of the next slice */
  gboolean        in_order;    /* every slice so far came in sort order */
  gboolean        finished;    /* stored whole (closed); nothing may follow */
  TesSliceRecord  last;        /* the latest slice given, while in order */
  /* once streaming */
  guint           n_stored;    /* records stored, a multiple of the chunk size */
  guint           n_held;      /* records at the front of records, nested and packed, not stored yet */
  GByteArray     *held_args;   /* their args blob, and their chunk's bounds */
  gint64          held_max_end;
  gint64          held_max_dur;
  guint           held_depth;
  GArray         *stack;       /* TesOpenSlice: ancestors of the next record */
  GArray         *chunk_rows;  /* gint64 rowid of each stored chunk */
  GPtrArray      *kept_data;   /* GBytes: each stored chunk's TesLodSlices,
                                * for the lane summaries; NULL: not kept */
  gsize           kept_bytes;
  guint           max_depth;
  gint64          t_min;
  gint64          t_max;
} TesTrackSlices;

TesTrackSlices *tes_cache_track_new             (void);
void            tes_cache_track_free            (gpointer      data);
int             tes_cache_track_compare_records (gconstpointer a,
                                                 gconstpointer b);

/* A track's pending args texts: each text's length (uint32), then the
 * text and a NUL, a record holding its text's offset; the packing reads
 * the lengths instead of measuring every text again (strlen () was 1 %
 * of an import's time). Returns the offset. */
static inline guint32
tes_track_args_add (GString    *args,
                    const char *text,
                    gsize       len)
{
  guint32 n = (guint32)len;
  guint32 offset;

  g_string_append_len (args, (const char *)&n, sizeof n);
  offset = (guint32)args->len;
  g_string_append_len (args, text, (gssize)len);
  g_string_append_c (args, '\0');

  return offset;
}

/* The length of the text at offset (tes_track_args_add ()) */
static inline guint32
tes_track_args_len (const char *texts,
                    guint32     offset)
{
  return read_u32 ((const guint8 *)texts + offset - sizeof (guint32));
}

G_END_DECLS
