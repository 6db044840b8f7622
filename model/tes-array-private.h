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

/* Appends one element to an array that appends run through by the
 * million (an import's slices, a flavour's kernels): GLib checks each
 * g_array_append_vals () for overflow with a 64-bit division, 2 % of a
 * 1M-event import's CPU. *room is what the array is known to hold: what
 * it was created or last grown to here, never more (an array grown or
 * replaced elsewhere keeps or gets a room of at most its length). It
 * must not be zero-terminated. */
static inline void
tes_array_append (GArray        *array,
                  guint         *room,
                  gconstpointer  value,
                  gsize          size)
{
  if (G_UNLIKELY (array->len >= *room))
    {
      guint len = array->len;
      guint want = MAX (64, 2 * len);

      /* one division per doubling; the array keeps what it holds when
       * its length is set back */
      g_array_set_size (array, want);
      array->len = len;
      *room = want;
    }
  memcpy (array->data + (gsize)array->len * size, value, size);
  array->len++;
}

G_END_DECLS
