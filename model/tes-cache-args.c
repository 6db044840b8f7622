/* tes-cache-args.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* How a slice chunk's args texts are stored (docs/cache-schema.md, "Slices",
 * schema 11): in blocks of TES_CACHE_BLOCK_SLICES texts, each text with its
 * runs of digits taken out. What is left, its skeleton, repeats from slice
 * to slice (the same keys, the same names), and zstd packs the skeletons
 * twice as fast as it packed the whole texts, to a smaller frame; the
 * digits, which zstd hardly shrank and spent a third of its time on, follow
 * the frame as packed decimal, two to a byte, with a hash of their own. A
 * run of up to 16 digits leaves one byte in the skeleton: its length, 1 to
 * 16, a byte no JSON text holds raw. A block with a text that holds such a
 * byte anyway, or no digit at all, is stored whole. The skeletons of a
 * block are mostly a few repeated: each distinct one goes into the frame
 * once, then each text's index among them (zstd, which was a third of
 * the packing thread's time, then has a tenth of the bytes).
 *
 * The search summary reads the skeletons too (tes_cache_chunk_pack_summaries
 * ()): digits are no letters, so a skeleton has the trigrams of its text,
 * and the texts of a group whose skeletons are the same add them once. */

#define G_LOG_DOMAIN "tes-cache"

#include "config.h"

#include "tes-cache-codec-private.h"

#include <zstd.h>

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* the index entry of an args block: where its payload ends (uint32) */
#define ARGS_INDEX_ENTRY 4
/* a skeleton's byte for a run of 1..MARKER_MAX digits */
#define MARKER_MAX 16
/* what a payload's frame starts with */
#define MODE_WHOLE    0
#define MODE_SKELETON 1
#define MODE_DISTINCT 2
/* a skeleton table's slots, a power of two at least twice a block's texts */
#define DISTINCT_SLOTS (2 * TES_CACHE_BLOCK_SLICES)
/* the digits' hash: its low 32 bits, after them */
#define DIGITS_SEED   G_GUINT64_CONSTANT (0x7465737365726131)
#define DIGITS_HASH   4

/* zstd's level: at 1M slices of bench/gen-chrome-trace.py shape, 1 and 3
 * gave the same sizes (measured on whole texts) and 1 packed 10 % faster;
 * 5 is no smaller and takes twice as long */
#ifndef TES_CACHE_ZSTD_LEVEL
#define TES_CACHE_ZSTD_LEVEL 1
#endif

static GPrivate dctx_key = G_PRIVATE_INIT ((GDestroyNotify)ZSTD_freeDCtx);

static ZSTD_DCtx *
get_dctx (void)
{
  ZSTD_DCtx *dctx = g_private_get (&dctx_key);

  if (dctx == NULL)
    {
      dctx = ZSTD_createDCtx ();
      g_private_set (&dctx_key, dctx);
    }
  return dctx;
}

/* raw as one zstd frame appended to out: it carries a checksum of its
 * content (4 bytes), so a damaged frame is refused by zstd itself,
 * whatever byte it is */
static void
compress_frame (ZSTD_CCtx  *cctx,
                GByteArray *raw,
                GByteArray *out)
{
  gsize at = out->len;
  gsize bound = ZSTD_compressBound (raw->len);
  gsize len;

  g_byte_array_set_size (out, at + bound);
  ZSTD_CCtx_setParameter (cctx, ZSTD_c_compressionLevel, TES_CACHE_ZSTD_LEVEL);
  ZSTD_CCtx_setParameter (cctx, ZSTD_c_checksumFlag, 1);
  len = ZSTD_compress2 (cctx, out->data + at, bound, raw->data, raw->len);
  /* only a bound too small fails, and compressBound is never too small */
  g_assert (!ZSTD_isError (len));
  g_byte_array_set_size (out, at + len);
}

/* One frame into scratch, which must come out at most max bytes long. */
static const char *
decompress_frame (const guint8 *frame,
                  gsize         len,
                  gsize         max,
                  GByteArray   *scratch)
{
  unsigned long long size = ZSTD_getFrameContentSize (frame, len);
  gsize got;

  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > max)
    return "is not a zstd frame of the expected size";
  g_byte_array_set_size (scratch, (guint)MAX (size, 1));
  got = ZSTD_decompressDCtx (get_dctx (), scratch->data, (gsize)size, frame, len);
  if (ZSTD_isError (got) || got != size)
    return "does not decompress";
  g_byte_array_set_size (scratch, (guint)size);
  return NULL;
}

/* The skeleton of text[0, len) at out (room for len + 16 bytes), its
 * digits appended to digits[*n_digits] (one byte each, room for len + 16):
 * the skeleton's length, or -1 when the text holds a byte that reads as a
 * digit run's length. Bytes up to readable (which is past the text, in
 * the texts after it) may be read. A run of more than MARKER_MAX digits
 * takes several bytes, the first ones MARKER_MAX long each. */
static gssize
skeletonise (const guint8 *text,
             gsize         len,
             const guint8 *readable,
             guint8       *out,
             guint8       *digits,
             gsize        *n_digits)
{
  gsize i = 0, o = 0, d = *n_digits;

  while (i < len)
    {
      guint8 c;

#ifdef __SSE2__
      /* 16 bytes at a time where 16 can be read: the text up to the next
       * digit copied, then the digits from there (what is copied past
       * them is written again) */
      if (readable - (text + i) >= 16)
        {
          __m128i v = _mm_loadu_si128 ((const __m128i *)(text + i));
          __m128i x = _mm_sub_epi8 (v, _mm_set1_epi8 ('0'));
          __m128i digit = _mm_cmpeq_epi8 (_mm_min_epu8 (x, _mm_set1_epi8 (9)), x);
          __m128i low = _mm_cmpeq_epi8 (_mm_min_epu8 (v, _mm_set1_epi8 (MARKER_MAX)), v);
          guint in_text = len - i >= 16 ? 0xffff : (1u << (len - i)) - 1;
          guint digits_at = (guint)_mm_movemask_epi8 (digit) & in_text;
          guint k, run;
          guint8 values[16];

          if ((guint)_mm_movemask_epi8 (low) & in_text)
            return -1;
          _mm_storeu_si128 ((__m128i *)(out + o), v);
          if (digits_at == 0)
            {
              k = MIN (16, (guint)(len - i));
              i += k;
              o += k;
              continue;
            }
          k = (guint)__builtin_ctz (digits_at);
          run = (guint)__builtin_ctz (~digits_at >> k);
          _mm_storeu_si128 ((__m128i *)(gpointer)values, x);
          memcpy (digits + d, values + k, 16 - k);
          d += run;
          o += k;
          i += k + run;
          /* a run that goes on past these 16 bytes */
          while (i < len && run < MARKER_MAX && (guint8)(text[i] - '0') <= 9)
            {
              digits[d++] = (guint8)(text[i++] - '0');
              run++;
            }
          out[o++] = (guint8)run;
          continue;
        }
#endif
      c = text[i];
      if (c <= MARKER_MAX)
        return -1;
      if ((guint8)(c - '0') > 9)
        {
          out[o++] = c;
          i++;
          continue;
        }
      {
        guint8 run = 0;

        while (i < len && (guint8)(text[i] - '0') <= 9 && run < MARKER_MAX)
          {
            digits[d++] = (guint8)(text[i++] - '0');
            run++;
          }
        out[o++] = run;
      }
    }
  *n_digits = d;
  return (gssize)o;
}

/* The hash by which the search summary knows a skeleton met before: any
 * will do that spreads them, since equal ones are compared whole. */
static inline guint64
skeleton_hash (const guint8 *p,
               gsize         len)
{
  guint64 h = len * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
  gsize i = 0;

  for (; i + 8 <= len; i += 8)
    {
      guint64 w;

      memcpy (&w, p + i, sizeof w);
      h = (h ^ w) * G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
      h ^= h >> 29;
    }
  if (i < len)
    {
      guint64 w = 0;

      /* the last 8 bytes, some hashed already, rather than a copy of a
       * length only known here */
      if (len >= 8)
        memcpy (&w, p + len - 8, sizeof w);
      else
        memcpy (&w, p + i, len - i);
      h = (h ^ w) * G_GUINT64_CONSTANT (0xc4ceb9fe1a85ec53);
    }
  return h ^ (h >> 32);
}

void
tes_cache_args_skeletons_init (TesArgsSkeletons *skel)
{
  skel->texts = g_byte_array_new ();
  skel->hashes = g_byte_array_new ();
  skel->raw = g_byte_array_sized_new (TES_CACHE_BLOCK_SLICES * 40);
  skel->digits = g_byte_array_new ();
}

void
tes_cache_args_skeletons_clear (TesArgsSkeletons *skel)
{
  g_clear_pointer (&skel->texts, g_byte_array_unref);
  g_clear_pointer (&skel->hashes, g_byte_array_unref);
  g_clear_pointer (&skel->raw, g_byte_array_unref);
  g_clear_pointer (&skel->digits, g_byte_array_unref);
}

/* Block [first, first + m) of raw_args as skeletons at into from byte at
 * (offsets set; 16 bytes of room past the texts), digits appended to
 * digits: its mode. The texts may be read up to readable. */
static guint8
skeletonise_block (const guint8 *raw_args,
                   const guint8 *texts,
                   const guint8 *readable,
                   guint         first,
                   guint         m,
                   guint8       *offsets,
                   guint8       *into,
                   GByteArray   *digits,
                   guint32      *at)
{
  guint32 start = *at, o = start;
  gsize n_digits = 0;

  for (guint i = first; i < first + m; i++)
    {
      guint32 text_len;
      guint32 begin = text_span (raw_args, i, &text_len);
      gssize len;

      write_u32 (offsets + i * sizeof (guint32), o);
      if (digits->len < n_digits + text_len + 16)
        g_byte_array_set_size (digits, (guint)(n_digits + text_len + 16));
      len = skeletonise (texts + begin, text_len, readable, into + o, digits->data, &n_digits);
      if (len < 0)
        break;
      o += (guint32)len;
      if (i + 1 == first + m)
        {
          g_byte_array_set_size (digits, (guint)n_digits);
          *at = o;
          return n_digits > 0 ? MODE_SKELETON : MODE_WHOLE;
        }
    }

  /* whole: the texts as they are */
  o = start;
  for (guint i = first; i < first + m; i++)
    {
      guint32 len;
      guint32 begin = text_span (raw_args, i, &len);

      write_u32 (offsets + i * sizeof (guint32), o);
      memcpy (into + o, texts + begin, len);
      o += len;
    }
  g_byte_array_set_size (digits, 0);
  *at = o;
  return MODE_WHOLE;
}

/* Mode 2's content after the mode byte, for a block's m skeletons (slice
 * i is skeletons[off(i), off(i + 1)), hashes[i] its hash): the distinct
 * skeletons, each once in the order first met, then each slice's index
 * among them. FALSE, with nothing written, when they are not few enough
 * for it to pay: their bytes more than half of all. */
static gboolean
put_distinct (const guint8  *offsets,
              const guint8  *skeletons,
              const guint64 *hashes,
              guint          first,
              guint          m,
              GByteArray    *raw)
{
  guint16 slots[DISTINCT_SLOTS];
  guint16 index[TES_CACHE_BLOCK_SLICES];
  guint16 firsts[TES_CACHE_BLOCK_SLICES];
  guint n_distinct = 0;
  guint32 bytes = 0, distinct_bytes = 0;
  gsize at;
  guint8 *p;

  memset (slots, 0, sizeof slots);
  for (guint i = 0; i < m; i++)
    {
      guint32 len;
      guint32 begin = text_span (offsets, first + i, &len);
      guint s = (guint)hashes[first + i] & (DISTINCT_SLOTS - 1);

      bytes += len;
      for (;; s = (s + 1) & (DISTINCT_SLOTS - 1))
        {
          guint d, j;
          guint32 d_begin, d_len;

          if (slots[s] == 0)
            {
              firsts[n_distinct] = (guint16)i;
              index[i] = (guint16)n_distinct++;
              slots[s] = (guint16)n_distinct;
              distinct_bytes += len;
              break;
            }
          d = slots[s] - 1u;
          j = first + firsts[d];
          d_begin = text_span (offsets, j, &d_len);
          if (hashes[j] == hashes[first + i] && d_len == len &&
              same_bytes (skeletons + d_begin, skeletons + begin, len))
            {
              index[i] = (guint16)d;
              break;
            }
        }
    }
  if (2 * distinct_bytes > bytes)
    return FALSE;

  at = raw->len;
  g_byte_array_set_size (raw, (guint)(at + 10 + (gsize)(n_distinct + m) * 5 + distinct_bytes));
  p = raw->data + at;
  put_varint (&p, n_distinct);
  for (guint d = 0; d < n_distinct; d++)
    {
      guint32 len;

      text_span (offsets, first + firsts[d], &len);
      put_varint (&p, len);
    }
  for (guint d = 0; d < n_distinct; d++)
    {
      guint32 len;
      guint32 begin = text_span (offsets, first + firsts[d], &len);

      memcpy (p, skeletons + begin, len);
      p += len;
    }
  for (guint i = 0; i < m; i++)
    put_varint (&p, index[i]);
  g_byte_array_set_size (raw, (guint)(p - raw->data));

  return TRUE;
}

void
tes_cache_chunk_pack_args (ZSTD_CCtx        *cctx,
                           const guint8     *raw_args,
                           guint             n,
                           TesArgsSkeletons *skel,
                           GByteArray       *out)
{
  guint nb = tes_cache_chunk_n_blocks (n);
  gsize index_len = (n + 1) * sizeof (guint32);
  const guint8 *texts = raw_args + index_len;
  /* the texts end there; skeletonise () reads up to it */
  const guint8 *readable = texts + read_u32 (raw_args + n * sizeof (guint32));
  guint32 total = read_u32 (raw_args + n * sizeof (guint32)) - read_u32 (raw_args);
  GByteArray *raw = skel->raw;
  GByteArray *digits = skel->digits;
  guint32 at = 0;
  gsize blocks_at;

  /* the skeletons are no longer than the texts (16 bytes to spare for
   * skeletonise ()) */
  g_byte_array_set_size (skel->texts, (guint)(index_len + total + 16));
  g_byte_array_set_size (skel->hashes, n * sizeof (guint64));
  g_byte_array_set_size (out, (gsize)nb * ARGS_INDEX_ENTRY);
  blocks_at = out->len;
  for (guint b = 0; b < nb; b++)
    {
      guint first = b * TES_CACHE_BLOCK_SLICES;
      guint m = MIN (TES_CACHE_BLOCK_SLICES, n - first);
      guint32 block_at = at;
      guint8 mode = skeletonise_block (raw_args, texts, readable, first, m, skel->texts->data,
                                       skel->texts->data + index_len, digits, &at);
      guint64 *hashes = (guint64 *)(gpointer)skel->hashes->data;
      guint8 *p;

      /* the skeletons' hashes (the whole texts' in a whole block): the
       * search summary knows those met before by them */
      write_u32 (skel->texts->data + (first + m) * sizeof (guint32), at);
      for (guint i = first; i < first + m; i++)
        {
          guint32 len;
          guint32 begin = text_span (skel->texts->data, i, &len);

          hashes[i] = skeleton_hash (skel->texts->data + index_len + begin, len);
        }

      /* the mode, then the distinct skeletons and each text's among them,
       * or the whole texts' lengths and the skeletons (or texts) */
      g_byte_array_set_size (raw, 1);
      raw->data[0] = MODE_DISTINCT;
      if (mode != MODE_SKELETON ||
          !put_distinct (skel->texts->data, skel->texts->data + index_len, hashes, first, m, raw))
        {
          g_byte_array_set_size (raw, 1 + m * 10);
          p = raw->data;
          *p++ = mode;
          for (guint i = first; i < first + m; i++)
            {
              guint32 len;

              text_span (raw_args, i, &len);
              put_varint (&p, len);
            }
          g_byte_array_set_size (raw, (guint)(p - raw->data));
          g_byte_array_append (raw, skel->texts->data + index_len + block_at, at - block_at);
        }
      compress_frame (cctx, raw, out);

      if (mode != MODE_WHOLE)
        {
          gsize d_at = out->len;
          gsize n_bytes = (digits->len + 1) / 2;

          g_byte_array_set_size (out, (guint)(d_at + n_bytes + DIGITS_HASH));
          for (gsize k = 0; k < n_bytes; k++)
            out->data[d_at + k] = (guint8)(digits->data[2 * k] |
                                           (2 * k + 1 < digits->len ? digits->data[2 * k + 1] << 4 : 0));
          write_u32 (out->data + d_at + n_bytes, (guint32)tes_cache_hash64 (out->data + d_at, n_bytes, DIGITS_SEED));
        }
      write_u32 (out->data + (gsize)b * ARGS_INDEX_ENTRY, (guint32)(out->len - blocks_at));
    }
  g_byte_array_set_size (skel->texts, (guint)(index_len + at));
}

/* skeleton[0, len) with its digit runs filled in from the nibbles of
 * digits[0, n_bytes), written at out, which must come out exactly
 * out_len long */
static const char *
fill_digits (const guint8 *skeleton,
             gsize         len,
             const guint8 *digits,
             gsize         n_bytes,
             guint8       *out,
             gsize         out_len)
{
  const guint8 *s = skeleton, *s_end = skeleton + len;
  guint8 *o = out, *o_end = out + out_len;
  gsize k = 0, n_nibbles = 2 * n_bytes;

  while (s < s_end)
    {
      guint8 c;

#ifdef __SSE2__
      if (s_end - s >= 16 && o_end - o >= 16)
        {
          __m128i v = _mm_loadu_si128 ((const __m128i *)s);
          __m128i low = _mm_cmpeq_epi8 (_mm_min_epu8 (v, _mm_set1_epi8 (MARKER_MAX)), v);
          guint stop = (guint)_mm_movemask_epi8 (low);

          _mm_storeu_si128 ((__m128i *)o, v);
          if (stop == 0)
            {
              s += 16;
              o += 16;
              continue;
            }
          s += (guint)__builtin_ctz (stop);
          o += (guint)__builtin_ctz (stop);
        }
#endif
      c = *s++;
      if (c > MARKER_MAX)
        {
          if (o == o_end)
            return "does not hold the texts its lengths say";
          *o++ = c;
          continue;
        }
      if (c == 0 || (gsize)(o_end - o) < c || n_nibbles - k < c)
        return "holds digits that cannot be read";
      for (guint j = 0; j < c; j++, k++)
        {
          guint8 nibble = (digits[k / 2] >> (4 * (k % 2))) & 0xf;

          if (nibble > 9)
            return "holds digits that cannot be read";
          *o++ = (guint8)('0' + nibble);
        }
    }
  if (o != o_end)
    return "does not hold the texts its lengths say";
  /* every digit read, and an odd count's last nibble 0 */
  if ((k + 1) / 2 != n_bytes || (k % 2 == 1 && digits[k / 2] >> 4 != 0))
    return "holds digits that cannot be read";
  return NULL;
}

/* Mode 2's content, scratch[1, len): the skeletons of the block's m texts
 * written after it one after the other, as mode 1 holds them (from
 * *skeleton_at to scratch's end), and the texts' offsets, each distinct
 * skeleton's length with its runs filled in (a byte 0, which the filling
 * refuses, counts 1, so the skeletons are never longer than the texts,
 * which are at most max). */
static const char *
expand_distinct (GByteArray *scratch,
                 guint       m,
                 gsize       max,
                 guint32    *offsets,
                 gsize      *skeleton_at)
{
  guint32 d_at[TES_CACHE_BLOCK_SLICES], d_len[TES_CACHE_BLOCK_SLICES];
  guint64 d_filled[TES_CACHE_BLOCK_SLICES];
  guint16 index[TES_CACHE_BLOCK_SLICES];
  const guint8 *p = scratch->data + 1, *stop = scratch->data + scratch->len;
  guint64 n_distinct, total = 0;
  gsize at, end, skeletons;
  guint8 *o;

  if (!get_varint (&p, stop, &n_distinct) || n_distinct == 0 || n_distinct > m)
    return "holds a count of skeletons that cannot be read";
  for (guint d = 0; d < n_distinct; d++)
    {
      guint64 v;

      if (!get_varint (&p, stop, &v) || v > (guint64)(stop - p))
        return "holds a length that cannot be read";
      d_len[d] = (guint32)v;
    }
  at = (gsize)(p - scratch->data);
  for (guint d = 0; d < n_distinct; d++)
    {
      const guint8 *s = scratch->data + at;

      if (d_len[d] > scratch->len - at)
        return "does not hold the skeletons its lengths say";
      d_at[d] = (guint32)at;
      d_filled[d] = 0;
      for (guint32 k = 0; k < d_len[d]; k++)
        d_filled[d] += s[k] > MARKER_MAX || s[k] == 0 ? 1 : s[k];
      at += d_len[d];
    }
  p = scratch->data + at;
  for (guint i = 0; i < m; i++)
    {
      guint64 v;

      if (!get_varint (&p, stop, &v) || v >= n_distinct)
        return "holds a skeleton's index that cannot be read";
      index[i] = (guint16)v;
      offsets[i] = (guint32)total;
      total += d_filled[v];
      if (total > max)
        return "holds a length that cannot be read";
    }
  offsets[m] = (guint32)total;
  if (p != stop)
    return "holds bytes after its skeletons' indexes";

  end = scratch->len;
  skeletons = 0;
  for (guint i = 0; i < m; i++)
    skeletons += d_len[index[i]];
  g_byte_array_set_size (scratch, (guint)(end + skeletons));
  o = scratch->data + end;
  for (guint i = 0; i < m; i++)
    {
      memcpy (o, scratch->data + d_at[index[i]], d_len[index[i]]);
      o += d_len[index[i]];
    }
  *skeleton_at = end;
  return NULL;
}

/* Block payload[0, len) of m texts, their whole length at most max:
 * decompressed into scratch, where its texts are left (at *texts), with
 * their m + 1 offsets from 0. */
static const char *
decode_block (const guint8  *payload,
              gsize          len,
              guint          m,
              gsize          max,
              GByteArray    *scratch,
              guint32       *offsets,
              const guint8 **texts)
{
  gsize frame_len = ZSTD_findFrameCompressedSize (payload, len);
  const char *why = NULL;
  const guint8 *p, *stop;
  guint64 total = 0;
  guint8 mode;
  gsize size, skeleton_at;

  if (ZSTD_isError (frame_len) || frame_len > len)
    return "is not a zstd frame of the expected size";
  if ((why = decompress_frame (payload, frame_len, G_MAXUINT32, scratch)) != NULL)
    return why;
  if (scratch->len == 0 || scratch->data[0] > MODE_DISTINCT)
    return "holds a block of no known kind";
  p = scratch->data;
  stop = p + scratch->len;
  mode = *p++;
  if (mode == MODE_DISTINCT)
    {
      if ((why = expand_distinct (scratch, m, max, offsets, &skeleton_at)) != NULL)
        return why;
      total = offsets[m];
    }
  else
    {
      for (guint i = 0; i < m; i++)
        {
          guint64 v;

          if (!get_varint (&p, stop, &v) || v > max - MIN (total, max))
            return "holds a length that cannot be read";
          offsets[i] = (guint32)total;
          total += v;
        }
      offsets[m] = (guint32)total;
      skeleton_at = (gsize)(p - scratch->data);
    }
  size = scratch->len;

  if (mode == MODE_WHOLE)
    {
      if (frame_len != len)
        return "lies outside the chunk";
      if (size - skeleton_at != total)
        return "does not hold the texts its lengths say";
      *texts = scratch->data + skeleton_at;
      return NULL;
    }

  {
    const guint8 *digits = payload + frame_len;
    gsize n_bytes;

    if (len - frame_len < DIGITS_HASH)
      return "lies outside the chunk";
    n_bytes = len - frame_len - DIGITS_HASH;
    if ((guint32)tes_cache_hash64 (digits, n_bytes, DIGITS_SEED) != read_u32 (digits + n_bytes))
      return "holds digits whose hash is not theirs";
    /* the texts after the frame's content */
    g_byte_array_set_size (scratch, (guint)(size + total));
    why = fill_digits (scratch->data + skeleton_at, size - skeleton_at, digits, n_bytes, scratch->data + size, total);
    *texts = scratch->data + size;
    return why;
  }
}

/* payload b of an args column of n slices: where it lies in blob, or NULL
 * and why not */
static const guint8 *
block_payload (const guint8  *blob,
               gsize          len,
               guint          n,
               guint          b,
               gsize         *payload_len)
{
  guint nb = tes_cache_chunk_n_blocks (n);
  gsize index_len = (gsize)nb * ARGS_INDEX_ENTRY;
  guint32 begin, end;

  if (blob == NULL || len < index_len || b >= nb)
    return NULL;
  begin = b > 0 ? read_u32 (blob + (gsize)(b - 1) * ARGS_INDEX_ENTRY) : 0;
  end = read_u32 (blob + (gsize)b * ARGS_INDEX_ENTRY);
  if (end < begin || index_len + end > len || (b == nb - 1 && index_len + end != len))
    return NULL;
  *payload_len = end - begin;
  return blob + index_len + begin;
}

gboolean
tes_cache_chunk_args_block (const guint8  *blob,
                            gsize          len,
                            guint          n,
                            guint          b,
                            GByteArray    *scratch,
                            guint32       *offsets,
                            const char   **texts,
                            const char   **why)
{
  gsize payload_len;
  const guint8 *payload = block_payload (blob, len, n, b, &payload_len);
  const guint8 *at;

  if (payload == NULL)
    {
      *why = "lies outside the chunk";
      return FALSE;
    }
  *why = decode_block (payload, payload_len, MIN (TES_CACHE_BLOCK_SLICES, n - b * TES_CACHE_BLOCK_SLICES),
                       G_MAXUINT32, scratch, offsets, &at);
  *texts = (const char *)at;
  return *why == NULL;
}

/* The args of the slices of blocks [b0, b1) of a chunk of n, in the layout
 * the readers take: count + 1 uint32 offsets, then the texts. */
gboolean
tes_cache_chunk_unpack_args (const guint8  *blob,
                             gsize          len,
                             guint          n,
                             guint          b0,
                             guint          b1,
                             GByteArray    *out,
                             char         **why)
{
  g_autoptr(GByteArray) scratch = g_byte_array_new ();
  guint32 offsets[TES_CACHE_BLOCK_SLICES + 1];
  guint nb = tes_cache_chunk_n_blocks (n);
  guint base = b0 * TES_CACHE_BLOCK_SLICES;
  guint count;
  guint32 offset = 0;

  b1 = MIN (b1, nb);
  count = b1 > b0 ? MIN (n, b1 * TES_CACHE_BLOCK_SLICES) - base : 0;
  g_byte_array_set_size (out, (count + 1) * sizeof (guint32));
  if (blob == NULL || len < (gsize)nb * ARGS_INDEX_ENTRY)
    {
      *why = g_strdup ("args are shorter than their index");
      return FALSE;
    }
  for (guint b = b0; b < b1; b++)
    {
      guint first = b * TES_CACHE_BLOCK_SLICES;
      guint m = MIN (TES_CACHE_BLOCK_SLICES, n - first);
      gsize payload_len;
      const guint8 *payload = block_payload (blob, len, n, b, &payload_len);
      const guint8 *texts = NULL;
      const char *what;

      /* the texts of a chunk fit in 4 GiB, as their offsets do */
      if (payload == NULL)
        what = "lies outside the chunk";
      else
        what = decode_block (payload, payload_len, m, G_MAXUINT32 - out->len, scratch, offsets, &texts);
      if (what != NULL)
        {
          *why = g_strdup_printf ("args block %u %s", b, what);
          return FALSE;
        }
      for (guint i = 0; i < m; i++)
        write_u32 (out->data + (first - base + i) * sizeof (guint32), offset + offsets[i]);
      offset += offsets[m];
      g_byte_array_append (out, texts, offsets[m]);
    }
  write_u32 (out->data + count * sizeof (guint32), offset);
  return TRUE;
}
