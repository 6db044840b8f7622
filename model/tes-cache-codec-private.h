/* tes-cache-codec-private.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-cache-private.h"
#include "tes-varint-private.h"

#include <string.h>

G_BEGIN_DECLS

/* What the slice chunks' columns (tes-cache-chunk.c) and their args
 * (tes-cache-args.c) are made of. */

/* a uint32 at p, which need not be aligned (the blobs' indexes) */
static inline guint32
read_u32 (const guint8 *p)
{
  guint32 v;

  memcpy (&v, p, sizeof v);
  return v;
}

static inline void
write_u32 (guint8  *p,
           guint32  v)
{
  memcpy (p, &v, sizeof v);
}

/* Text i of an index of uint32 offsets, text i being [off(i), off(i + 1))
 * (the layout of raw args and of their skeletons): where it begins, its
 * length at *len */
static inline guint32
text_span (const guint8 *offsets,
           guint         i,
           guint32      *len)
{
  guint32 begin = read_u32 (offsets + (gsize)i * sizeof (guint32));

  *len = read_u32 (offsets + ((gsize)i + 1) * sizeof (guint32)) - begin;
  return begin;
}

/* Whether a[0, len) and b[0, len) are the same bytes: for skeletons a
 * few dozen bytes long, a word at a time and no call (memcmp () was 7 %
 * of the packing thread's time) */
static inline gboolean
same_bytes (const guint8 *a,
            const guint8 *b,
            gsize         len)
{
  guint64 x, y;
  guint32 p, q, r, s;
  gsize i;

  for (i = 0; i + 8 <= len; i += 8)
    {
      memcpy (&x, a + i, 8);
      memcpy (&y, b + i, 8);
      if (x != y)
        return FALSE;
    }
  if (i == len)
    return TRUE;
  /* the last word, over bytes compared already */
  if (len >= 8)
    {
      memcpy (&x, a + len - 8, 8);
      memcpy (&y, b + len - 8, 8);
      return x == y;
    }
  if (len >= 4)
    {
      memcpy (&p, a, 4);
      memcpy (&q, b, 4);
      memcpy (&r, a + len - 4, 4);
      memcpy (&s, b + len - 4, 4);
      return p == q && r == s;
    }
  for (; i < len; i++)
    if (a[i] != b[i])
      return FALSE;
  return TRUE;
}

G_END_DECLS
