/* tes-chrome-id-map-private.h: an open-addressed table of ids ≥ 0, for
 * the flavours that link events by id (Kineto's External and correlation
 * ids); inline, as its lookups are on the import's hot path
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Ops by External id and launches by correlation id, both ids ≥ 0: an
 * open-addressed table of the ids themselves. A GHashTable of gint64
 * keys reads each key through a pointer into the big arrays, a cache
 * miss per probe with 500k ops. The last insert of an id wins, as with
 * g_hash_table_insert().
 *
 * Kineto numbers both ids upwards from 1, and the ops, launches and
 * kernels come nearly in that order: the slot is the id itself, its
 * high bits folded in, so that neighbouring ids share cache lines (a
 * multiplicative hash cost a cache miss per insert and lookup: 2.4 % of
 * the import's cycles at 1M events), and an id and its value share a
 * slot. */
typedef struct
{
  gint64   id;            /* -1: empty */
  gpointer value;
} TesChromeIdSlot;

typedef struct
{
  TesChromeIdSlot *slots;
  gsize            mask;
  guint            bits;
} TesChromeIdMap;

static inline void
tes_chrome_id_map_init (TesChromeIdMap *map,
                        gsize           n)
{
  gsize size = 16;
  guint bits = 4;

  while (size < 2 * n)
    {
      size *= 2;
      bits++;
    }
  map->slots = g_new (TesChromeIdSlot, size);
  map->mask = size - 1;
  map->bits = bits;
  for (gsize i = 0; i < size; i++)
    map->slots[i].id = -1;
}

static inline void
tes_chrome_id_map_clear (TesChromeIdMap *map)
{
  g_clear_pointer (&map->slots, g_free);
}

static inline gsize
tes_chrome_id_map_slot (const TesChromeIdMap *map,
                        gint64                id)
{
  guint64 u = (guint64)id;
  gsize i = (gsize)(u ^ (u >> map->bits)) & map->mask;

  while (map->slots[i].id != -1 && map->slots[i].id != id)
    i = (i + 1) & map->mask;

  return i;
}

static inline void
tes_chrome_id_map_insert (TesChromeIdMap *map,
                          gint64          id,
                          gpointer        value)
{
  gsize i;

  g_assert (id >= 0);
  i = tes_chrome_id_map_slot (map, id);

  map->slots[i].id = id;
  map->slots[i].value = value;
}

static inline gpointer
tes_chrome_id_map_lookup (const TesChromeIdMap *map,
                          gint64                id)
{
  gsize i;

  if (id < 0)
    return NULL;
  i = tes_chrome_id_map_slot (map, id);

  return map->slots[i].id == id ? map->slots[i].value : NULL;
}

G_END_DECLS
