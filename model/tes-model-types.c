/* tes-model-types.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tes-model-types.h"

const char *
tes_time_unit_to_string (TesTimeUnit unit)
{
  switch (unit)
    {
    case TES_TIME_UNIT_NS:     return "ns";
    case TES_TIME_UNIT_US:     return "µs";
    case TES_TIME_UNIT_MS:     return "ms";
    case TES_TIME_UNIT_CYCLES: return "cycles";
    default:                   return "?";
    }
}

const char *
tes_track_kind_to_string (TesTrackKind kind)
{
  static const char * const names[] = {
    "device", "ipu", "process", "core", "tile", "thread", "lane", "async", "counter",
  };

  if ((guint)kind < G_N_ELEMENTS (names))
    return names[kind];

  return "?";
}

const char *
tes_tile_state_to_string (TesTileState state)
{
  static const char * const names[] = { "idle", "compute", "exchange", "sync" };

  if ((guint)state < G_N_ELEMENTS (names))
    return names[state];

  return "?";
}
