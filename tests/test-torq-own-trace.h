/* test-torq-own-trace.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The Perfetto trace of our made-up run (tests/data/torq has its other
 * files): tracks and slices in tables, encoded as Perfetto packets
 * (TrackDescriptor, TrackEvent BEGIN/END/INSTANT) with protobuf-c, so that
 * what the importer must find is known by construction. write_own_trace()
 * writes it to a scratch file host_trace.pb and returns its path. */

typedef struct
{
  guint64     uuid;
  guint64     parent_uuid;   /* 0: a top-level (process) track */
  const char *name;
} OwnTrack;

typedef struct
{
  guint64     track_uuid;
  const char *name;
  const char *category;      /* NULL: none */
  gint64      start;         /* ns */
  gint64      end;
} OwnSlice;

/* Lengths of own_tracks[] and own_slices[]: their definitions must agree */
#define OWN_N_TRACKS 8
#define OWN_N_SLICES 12

extern const OwnTrack own_tracks[OWN_N_TRACKS];
extern const OwnSlice own_slices[OWN_N_SLICES];

char *write_own_trace (void);

G_END_DECLS
