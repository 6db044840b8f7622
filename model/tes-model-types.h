/* tes-model-types.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef struct _TesCacheWriter TesCacheWriter;
typedef struct _TesImporter    TesImporter;
typedef struct _TesProgress    TesProgress;
typedef struct _TesReport      TesReport;

/* As many IPUs as a Poplar target may have: the most a run or lane stores. */
#define TES_MAX_IPUS 4096

/* Bumped whenever the cache layout changes; stored in PRAGMA user_version. */
#define TES_CACHE_SCHEMA_VERSION 14

/* Every time a report holds, in any clock's ticks and in ns, lies within
 * ±TES_TIME_LIMIT (2^62 - 1; in ns, 146 years), so that the span between
 * two times, or a time plus one, never overflows gint64. The cache writer
 * clamps what importers give it; G_MININT64 and G_MAXINT64 stay free to
 * mean an open window. */
#define TES_TIME_LIMIT (G_MAXINT64 / 2)

typedef enum
{
  TES_TIME_UNIT_NS,
  TES_TIME_UNIT_US,
  TES_TIME_UNIT_MS,
  TES_TIME_UNIT_CYCLES,
} TesTimeUnit;

typedef enum
{
  TES_TRACK_DEVICE,
  TES_TRACK_IPU,
  TES_TRACK_PROCESS,
  TES_TRACK_CORE,
  TES_TRACK_TILE,
  TES_TRACK_THREAD,
  TES_TRACK_LANE,
  TES_TRACK_ASYNC,
  TES_TRACK_COUNTER,
} TesTrackKind;

typedef enum
{
  TES_SLICE_FLAG_NONE     = 0,
  /* A begin without its end: closed at the end of the trace. */
  TES_SLICE_FLAG_UNCLOSED = 1 << 0,
  /* Duration was clamped (negative or overflowing in the source). */
  TES_SLICE_FLAG_CLAMPED  = 1 << 1,
} TesSliceFlags;

typedef enum
{
  TES_INSTANT_SCOPE_THREAD,
  TES_INSTANT_SCOPE_PROCESS,
  TES_INSTANT_SCOPE_GLOBAL,
} TesInstantScope;

/* Tile state in a BSP step, as PopVision colours them. */
typedef enum
{
  TES_TILE_STATE_IDLE,
  TES_TILE_STATE_COMPUTE,
  TES_TILE_STATE_EXCHANGE,
  TES_TILE_STATE_SYNC,
} TesTileState;

typedef enum
{
  TES_GROUP_BY_NAME,
  TES_GROUP_BY_CATEGORY,
} TesGroupBy;

typedef enum
{
  TES_SUMMARY_TOTAL,
  TES_SUMMARY_EACH,
} TesSummaryMode;

const char  *tes_time_unit_to_string   (TesTimeUnit   unit);
const char  *tes_track_kind_to_string  (TesTrackKind  kind);
const char  *tes_tile_state_to_string  (TesTileState  state);

G_END_DECLS
