/* tes-cache-track-private.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-cache-private.h"

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
  GString        *args;        /* args texts of the pending records, NUL-terminated */
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

G_END_DECLS
