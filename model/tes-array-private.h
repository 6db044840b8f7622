/* tes-array-private.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include <string.h>

G_BEGIN_DECLS

/* Makes room for n more elements of size at the end of an array that
 * grows by the million (an import's slices, a flavour's kernels, a row
 * being hashed) and returns them, the array's length already past them:
 * GLib checks each g_array_append_vals () for overflow with a 64-bit
 * division, 2 % of a 1M-event import's CPU, where this divides once per
 * doubling. *room is what the array is known to hold: what it was created
 * or last grown to here, never more (an array grown or replaced elsewhere
 * keeps or gets a room of at most its length). It must not be
 * zero-terminated; a GByteArray passes as a GArray of bytes. */
static inline gpointer
tes_array_take (GArray *array,
                guint  *room,
                guint   n,
                gsize   size)
{
  guint len = array->len;

  if (G_UNLIKELY (len + n > *room))
    {
      /* the array keeps what it holds when its length is set back */
      *room = MAX (MAX (64, 2 * len), len + n);
      g_array_set_size (array, *room);
    }
  array->len = len + n;

  return array->data + (gsize)len * size;
}

/* Appends one element, as g_array_append_val () would (see above). */
static inline void
tes_array_append (GArray        *array,
                  guint         *room,
                  gconstpointer  value,
                  gsize          size)
{
  memcpy (tes_array_take (array, room, 1, size), value, size);
}

G_END_DECLS
