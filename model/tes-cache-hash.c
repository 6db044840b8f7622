/* tes-cache-hash.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-cache"

#include "config.h"

#include "tes-cache-private.h"

/* The content hash: the fingerprint of a cache's sources, and the
 * checksums of its tables and chunks (tes-cache-check.c). */

/* A 64-bit hash of the whole content, four independent lanes of
 * multiply-rotate over 8-byte words (the scheme of XXH64), so that it runs
 * at memory speed: hashing a 1 GB trace costs a fraction of a second, and a
 * cache is never trusted on size and mtime alone. */
#define P1 G_GUINT64_CONSTANT (0x9E3779B185EBCA87)
#define P2 G_GUINT64_CONSTANT (0xC2B2AE3D27D4EB4F)
#define P3 G_GUINT64_CONSTANT (0x165667B19E3779F9)
#define P4 G_GUINT64_CONSTANT (0x85EBCA77C2B2AE63)
#define P5 G_GUINT64_CONSTANT (0x27D4EB2F165667C5)

static inline guint64
rotl64 (guint64 x,
        int     r)
{
  return (x << r) | (x >> (64 - r));
}

static inline guint64
read64 (const guint8 *p)
{
  guint64 v;
  memcpy (&v, p, 8);
  return GUINT64_FROM_LE (v);
}

static inline guint64
lane_round (guint64 acc,
            guint64 input)
{
  acc += input * P2;
  acc = rotl64 (acc, 31);
  return acc * P1;
}

static inline guint64
merge_round (guint64 acc,
             guint64 val)
{
  acc ^= lane_round (0, val);
  return acc * P1 + P4;
}

/* The hash is computed in pieces (whole stripes, then the tail); the
 * result is the same as over one buffer. */
typedef struct
{
  guint64 v[4];
  guint64 len;
  guint64 seed;
} Hash64;

static void
hash64_init (Hash64  *st,
             guint64  seed)
{
  st->v[0] = seed + P1 + P2;
  st->v[1] = seed + P2;
  st->v[2] = seed;
  st->v[3] = seed - P1;
  st->len = 0;
  st->seed = seed;
}

/* Whole 32-byte stripes only; returns how many bytes it took. */
static gsize
hash64_stripes (Hash64       *st,
                const guint8 *p,
                gsize         len)
{
  gsize n = len - len % 32;

  for (gsize i = 0; i < n; i += 32)
    {
      st->v[0] = lane_round (st->v[0], read64 (p + i));
      st->v[1] = lane_round (st->v[1], read64 (p + i + 8));
      st->v[2] = lane_round (st->v[2], read64 (p + i + 16));
      st->v[3] = lane_round (st->v[3], read64 (p + i + 24));
    }
  st->len += n;

  return n;
}

/* tail: the last len % 32 bytes */
static guint64
hash64_finish (Hash64       *st,
               const guint8 *p,
               gsize         tail_len)
{
  const guint8 *end = p + tail_len;
  guint64 len = st->len + tail_len;
  guint64 h;

  if (st->len >= 32)
    {
      h = rotl64 (st->v[0], 1) + rotl64 (st->v[1], 7) + rotl64 (st->v[2], 12) + rotl64 (st->v[3], 18);
      h = merge_round (h, st->v[0]);
      h = merge_round (h, st->v[1]);
      h = merge_round (h, st->v[2]);
      h = merge_round (h, st->v[3]);
    }
  else
    h = st->seed + P5;

  h += len;

  while (p + 8 <= end)
    {
      h ^= lane_round (0, read64 (p));
      h = rotl64 (h, 27) * P1 + P4;
      p += 8;
    }

  while (p < end)
    {
      h ^= (*p) * P5;
      h = rotl64 (h, 11) * P1;
      p++;
    }

  h ^= h >> 33;
  h *= P2;
  h ^= h >> 29;
  h *= P3;
  h ^= h >> 32;

  return h;
}

guint64
tes_cache_hash64 (const guint8 *p,
                  gsize         len,
                  guint64       seed)
{
  static const guint8 nothing[1];
  Hash64 st;
  gsize done;

  /* SQLite gives an empty blob as NULL, and even NULL + 0 is undefined
   * (the cache fuzzer's UBSan stopped there): nothing is read of it */
  if (p == NULL)
    p = nothing;
  hash64_init (&st, seed);
  done = hash64_stripes (&st, p, len);

  return hash64_finish (&st, p + done, len - done);
}

static gint fingerprint_reads;

guint
tes_cache_get_fingerprint_reads (void)
{
  return (guint)g_atomic_int_get (&fingerprint_reads);
}

void
tes_cache_count_fingerprint_read (void)
{
  g_atomic_int_inc (&fingerprint_reads);
}

static gsize fingerprint_bytes;

guint64
tes_cache_get_fingerprint_bytes (void)
{
  return (guint64)g_atomic_pointer_get (&fingerprint_bytes);
}

void
tes_cache_count_fingerprint_bytes (gsize bytes)
{
  g_atomic_pointer_add (&fingerprint_bytes, bytes);
}
