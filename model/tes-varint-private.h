/* tes-varint-private.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>
#include <string.h>

G_BEGIN_DECLS

/* LEB128 varints, as the cache's slice chunks store their columns
 * (docs/cache-schema.md) and the Chrome importer's spill file its slices. */

/* Writes v at *p, which has room for 10 bytes. */
static inline void
put_varint (guint8  **p,
            guint64   v)
{
  while (v >= 0x80)
    {
      *(*p)++ = (guint8)(v | 0x80);
      v >>= 7;
    }
  *(*p)++ = (guint8)v;
}

static inline gboolean
get_varint (const guint8 **p,
            const guint8  *end,
            guint64       *v)
{
  guint64 result = 0;

  /* up to 8 bytes at once, without a branch per byte: the lowest byte
   * with its top bit clear ends the varint, and the 7-bit groups before it
   * are packed together in three steps */
  if (G_LIKELY (end - *p >= 8))
    {
      guint64 x, ends;

      memcpy (&x, *p, sizeof x);
      x = GUINT64_FROM_LE (x);
      ends = ~x & G_GUINT64_CONSTANT (0x8080808080808080);
      if (G_LIKELY (ends != 0))
        {
          x &= ends ^ (ends - 1);
          *p += ((guint)__builtin_ctzll (ends) + 1) / 8;
          x = ((x & G_GUINT64_CONSTANT (0x7f007f007f007f00)) >> 1) | (x & G_GUINT64_CONSTANT (0x007f007f007f007f));
          x = ((x & G_GUINT64_CONSTANT (0x3fff00003fff0000)) >> 2) | (x & G_GUINT64_CONSTANT (0x00003fff00003fff));
          *v = ((x & G_GUINT64_CONSTANT (0x0fffffff00000000)) >> 4) | (x & G_GUINT64_CONSTANT (0x000000000fffffff));
          return TRUE;
        }
    }

  for (guint shift = 0; shift < 64 && *p < end; shift += 7)
    {
      guint8 b = *(*p)++;

      result |= (guint64)(b & 0x7f) << shift;
      if (!(b & 0x80))
        {
          *v = result;
          return TRUE;
        }
    }
  return FALSE;
}

/* signed values as varints: small ones of either sign stay short */
static inline guint64
zigzag (gint64 v)
{
  return ((guint64)v << 1) ^ (guint64)(v >> 63);
}

static inline gint64
unzigzag (guint64 v)
{
  return (gint64)(v >> 1) ^ -(gint64)(v & 1);
}

G_END_DECLS
