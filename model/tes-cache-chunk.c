/* tes-cache-chunk.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* How a slice chunk's records and args texts are stored (docs/cache-schema.md,
 * "Slices"): in blocks of TES_CACHE_BLOCK_SLICES slices, each one zstd frame,
 * behind a small uncompressed index. Within a data block the fields go column
 * by column as varints, times as deltas from the slice before, names and
 * categories as string ids: what is left is small numbers that repeat, which
 * zstd's entropy coder squeezes. A window query reads the index and decodes
 * only the blocks its window meets. */

#define G_LOG_DOMAIN "tes-cache"

#include "config.h"

#include "tes-cache-private.h"

#include <string.h>
#include <zstd.h>

/* zstd's level for both columns: at 1M slices of bench/gen-chrome-trace.py
 * shape, 1 and 3 give the same sizes (7.0 and 7.7 bytes a slice) and 1
 * packs 10 % faster; 5 is no smaller and takes twice as long */
#ifndef TES_CACHE_ZSTD_LEVEL
#define TES_CACHE_ZSTD_LEVEL 1
#endif

/* the index entry of a data block: first start (int64), latest end
 * (int64), end offset (uint32) */
#define DATA_INDEX_ENTRY 20
#define ARGS_INDEX_ENTRY 4
/* a varint of 64 bits takes at most 10 bytes; a record has 8 fields */
#define MAX_RECORD_BYTES 80

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

guint
tes_cache_chunk_n_blocks (guint n)
{
  return (n + TES_CACHE_BLOCK_SLICES - 1) / TES_CACHE_BLOCK_SLICES;
}

/* start + dur, kept within int64 (only a record no writer gives passes it) */
static inline gint64
record_end (const TesSliceRecord *r)
{
  __int128 end = (__int128)r->start + r->dur;

  return end > G_MAXINT64 ? G_MAXINT64 : end < G_MININT64 ? G_MININT64 : (gint64)end;
}

static gint64
block_max_end (const TesSliceRecord *r,
               guint                 m)
{
  gint64 max_end = G_MININT64;

  for (guint i = 0; i < m; i++)
    max_end = MAX (max_end, record_end (&r[i]));
  return max_end;
}

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

static void
compress_frame (ZSTD_CCtx  *cctx,
                GByteArray *raw,
                GByteArray *out)
{
  gsize at = out->len;
  gsize bound = ZSTD_compressBound (raw->len);
  gsize len;

  g_byte_array_set_size (out, at + bound);
  /* each frame carries a checksum of its content (4 bytes): a damaged
   * frame is refused by zstd itself, whatever byte it is */
  ZSTD_CCtx_setParameter (cctx, ZSTD_c_compressionLevel, TES_CACHE_ZSTD_LEVEL);
  ZSTD_CCtx_setParameter (cctx, ZSTD_c_checksumFlag, 1);
  len = ZSTD_compress2 (cctx, out->data + at, bound, raw->data, raw->len);
  /* only a bound too small fails, and compressBound is never too small */
  g_assert (!ZSTD_isError (len));
  g_byte_array_set_size (out, at + len);
}

static inline void
put_u32 (GByteArray *out,
         gsize       at,
         guint32     v)
{
  memcpy (out->data + at, &v, sizeof v);
}

void
tes_cache_chunk_pack_data (ZSTD_CCtx            *cctx,
                           const TesSliceRecord *recs,
                           guint                 n,
                           GByteArray           *out)
{
  guint nb = tes_cache_chunk_n_blocks (n);
  g_autoptr(GByteArray) raw = g_byte_array_sized_new (TES_CACHE_BLOCK_SLICES * 16);
  gsize blocks_at;

  g_byte_array_set_size (out, (gsize)nb * DATA_INDEX_ENTRY);
  blocks_at = out->len;
  for (guint b = 0; b < nb; b++)
    {
      const TesSliceRecord *r = &recs[b * TES_CACHE_BLOCK_SLICES];
      guint m = MIN (TES_CACHE_BLOCK_SLICES, n - b * TES_CACHE_BLOCK_SLICES);
      gint64 prev = 0;
      gint32 prev_parent = -1;

      guint8 *p;

      g_byte_array_set_size (raw, m * MAX_RECORD_BYTES);
      p = raw->data;
      /* wrapping differences: any int64 round-trips; the first start is
       * whole, so that the frame's checksum covers it (the index's copy
       * must agree) */
      for (guint i = 0; i < m; i++)
        {
          put_varint (&p, zigzag ((gint64)((guint64)r[i].start - (guint64)prev)));
          prev = r[i].start;
        }
      for (guint i = 0; i < m; i++)
        put_varint (&p, zigzag (r[i].dur));
      for (guint i = 0; i < m; i++)
        put_varint (&p, zigzag ((gint64)((guint64)r[i].dur - (guint64)r[i].self_dur)));
      for (guint i = 0; i < m; i++)
        put_varint (&p, r[i].name);
      for (guint i = 0; i < m; i++)
        put_varint (&p, r[i].category);
      for (guint i = 0; i < m; i++)
        {
          put_varint (&p, zigzag ((gint64)r[i].parent - prev_parent));
          prev_parent = r[i].parent;
        }
      for (guint i = 0; i < m; i++)
        put_varint (&p, r[i].depth);
      for (guint i = 0; i < m; i++)
        put_varint (&p, r[i].flags);
      g_byte_array_set_size (raw, (guint)(p - raw->data));

      compress_frame (cctx, raw, out);
      {
        gint64 max_end = block_max_end (r, m);

        memcpy (out->data + (gsize)b * DATA_INDEX_ENTRY, &r[0].start, sizeof (gint64));
        memcpy (out->data + (gsize)b * DATA_INDEX_ENTRY + 8, &max_end, sizeof (gint64));
        put_u32 (out, (gsize)b * DATA_INDEX_ENTRY + 16, (guint32)(out->len - blocks_at));
      }
    }
}

void
tes_cache_chunk_pack_args (ZSTD_CCtx    *cctx,
                           const guint8 *raw_args,
                           guint         n,
                           GByteArray   *out)
{
  guint nb = tes_cache_chunk_n_blocks (n);
  const guint8 *texts = raw_args + (n + 1) * sizeof (guint32);
  g_autoptr(GByteArray) raw = g_byte_array_sized_new (TES_CACHE_BLOCK_SLICES * 40);
  gsize blocks_at;

  g_byte_array_set_size (out, (gsize)nb * ARGS_INDEX_ENTRY);
  blocks_at = out->len;
  for (guint b = 0; b < nb; b++)
    {
      guint first = b * TES_CACHE_BLOCK_SLICES;
      guint m = MIN (TES_CACHE_BLOCK_SLICES, n - first);
      guint32 begin, end = 0;

      guint8 *p;

      g_byte_array_set_size (raw, m * 10);
      p = raw->data;
      for (guint i = first; i < first + m; i++)
        {
          memcpy (&begin, raw_args + i * sizeof (guint32), sizeof begin);
          memcpy (&end, raw_args + (i + 1) * sizeof (guint32), sizeof end);
          put_varint (&p, end - begin);
        }
      g_byte_array_set_size (raw, (guint)(p - raw->data));
      memcpy (&begin, raw_args + first * sizeof (guint32), sizeof begin);
      g_byte_array_append (raw, texts + begin, end - begin);

      compress_frame (cctx, raw, out);
      put_u32 (out, (gsize)b * ARGS_INDEX_ENTRY, (guint32)(out->len - blocks_at));
    }
}

gboolean
tes_cache_chunk_data_block (const guint8 *index,
                            gsize         index_len,
                            guint         n,
                            guint         b,
                            gint64       *first_start,
                            gint64       *max_end,
                            gsize        *offset,
                            gsize        *len)
{
  guint32 begin = 0, end;

  if (b >= tes_cache_chunk_n_blocks (n) || index_len < (gsize)tes_cache_chunk_n_blocks (n) * DATA_INDEX_ENTRY)
    return FALSE;
  if (b > 0)
    memcpy (&begin, index + (gsize)(b - 1) * DATA_INDEX_ENTRY + 16, sizeof begin);
  memcpy (&end, index + (gsize)b * DATA_INDEX_ENTRY + 16, sizeof end);
  memcpy (first_start, index + (gsize)b * DATA_INDEX_ENTRY, sizeof *first_start);
  memcpy (max_end, index + (gsize)b * DATA_INDEX_ENTRY + 8, sizeof *max_end);
  if (end < begin)
    return FALSE;
  *offset = (gsize)tes_cache_chunk_n_blocks (n) * DATA_INDEX_ENTRY + begin;
  *len = end - begin;
  return TRUE;
}

gsize
tes_cache_chunk_data_index_len (guint n)
{
  return (gsize)tes_cache_chunk_n_blocks (n) * DATA_INDEX_ENTRY;
}

/* Decompresses one frame into scratch, which must come out at most @max
 * bytes long. */
static gboolean
decompress_frame (const guint8  *frame,
                  gsize          len,
                  gsize          max,
                  GByteArray    *scratch,
                  const char   **why)
{
  unsigned long long size = ZSTD_getFrameContentSize (frame, len);
  gsize got;

  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > max)
    {
      *why = "is not a zstd frame of the expected size";
      return FALSE;
    }
  g_byte_array_set_size (scratch, (guint)MAX (size, 1));
  got = ZSTD_decompressDCtx (get_dctx (), scratch->data, (gsize)size, frame, len);
  if (ZSTD_isError (got) || got != size)
    {
      *why = "does not decompress";
      return FALSE;
    }
  g_byte_array_set_size (scratch, (guint)size);
  return TRUE;
}

gboolean
tes_cache_chunk_unpack_block (const guint8    *frame,
                              gsize            len,
                              guint            m,
                              gint64           first_start,
                              gint64           max_end,
                              GByteArray      *scratch,
                              TesSliceRecord  *out,
                              const char     **why)
{
  const guint8 *p, *end;
  guint64 v;
  gint64 prev = 0;
  gint64 prev_parent = -1;

  if (!decompress_frame (frame, len, (gsize)m * MAX_RECORD_BYTES, scratch, why))
    return FALSE;
  p = scratch->data;
  end = p + scratch->len;

#define NEXT(check) G_STMT_START {                          \
    if (!get_varint (&p, end, &v) || !(check))              \
      {                                                     \
        *why = "holds a record that cannot be read";        \
        return FALSE;                                       \
      }                                                     \
  } G_STMT_END

  for (guint i = 0; i < m; i++)
    {
      NEXT (TRUE);
      prev = (gint64)((guint64)prev + (guint64)unzigzag (v));
      out[i].start = prev;
    }
  for (guint i = 0; i < m; i++)
    {
      NEXT (TRUE);
      out[i].dur = unzigzag (v);
    }
  for (guint i = 0; i < m; i++)
    {
      NEXT (TRUE);
      out[i].self_dur = (gint64)((guint64)out[i].dur - (guint64)unzigzag (v));
    }
  for (guint i = 0; i < m; i++)
    {
      NEXT (v <= G_MAXUINT32);
      out[i].name = (guint32)v;
    }
  for (guint i = 0; i < m; i++)
    {
      NEXT (v <= G_MAXUINT32);
      out[i].category = (guint32)v;
    }
  for (guint i = 0; i < m; i++)
    {
      gint64 parent;

      NEXT (TRUE);
      parent = (gint64)((guint64)prev_parent + (guint64)unzigzag (v));
      if (parent < G_MININT32 || parent > G_MAXINT32)
        {
          *why = "holds a record that cannot be read";
          return FALSE;
        }
      out[i].parent = (gint32)parent;
      prev_parent = parent;
    }
  for (guint i = 0; i < m; i++)
    {
      NEXT (v <= G_MAXUINT16);
      out[i].depth = (guint16)v;
    }
  for (guint i = 0; i < m; i++)
    {
      NEXT (v <= G_MAXUINT16);
      out[i].flags = (guint16)v;
    }
#undef NEXT

  if (p != end)
    {
      *why = "has bytes after its records";
      return FALSE;
    }
  if (out[0].start != first_start)
    {
      *why = "does not start where its index says";
      return FALSE;
    }
  if (block_max_end (out, m) != max_end)
    {
      *why = "does not end where its index says";
      return FALSE;
    }
  return TRUE;
}

/* Steps over count varints from p: NULL if they run past end. Eight bytes
 * at a time where it can, counting the bytes that end one. */
static const guint8 *
skip_varints (const guint8 *p,
              const guint8 *end,
              guint         count)
{
  while (end - p >= 8)
    {
      guint64 x;
      guint ends;

      memcpy (&x, p, sizeof x);
      ends = (guint)__builtin_popcountll (~x & G_GUINT64_CONSTANT (0x8080808080808080));
      if (ends >= count)
        break;
      count -= ends;
      p += 8;
    }
  for (; count > 0 && p < end; p++)
    if (*p < 0x80)
      count--;

  return count == 0 ? p : NULL;
}

gboolean
tes_cache_chunk_unpack_columns (const guint8    *frame,
                                gsize            len,
                                guint            m,
                                gint64           first_start,
                                guint            columns,
                                GByteArray      *scratch,
                                TesSliceRecord  *out,
                                const char     **why)
{
  const guint8 *p, *end;
  guint64 v;
  gint64 prev = 0;

  if (!decompress_frame (frame, len, (gsize)m * MAX_RECORD_BYTES, scratch, why))
    return FALSE;
  p = scratch->data;
  end = p + scratch->len;

#define NEXT(check) G_STMT_START {                          \
    if (!get_varint (&p, end, &v) || !(check))              \
      goto bad;                                             \
  } G_STMT_END
#define SKIP(column) G_STMT_START {                         \
    if (!(columns & (column)) && !(p = skip_varints (p, end, m))) \
      goto bad;                                             \
  } G_STMT_END

  /* the columns' order is tes_cache_chunk_pack_data()'s */
  SKIP (TES_CACHE_COLUMN_START);
  if (columns & TES_CACHE_COLUMN_START)
    for (guint i = 0; i < m; i++)
      {
        NEXT (TRUE);
        prev = (gint64)((guint64)prev + (guint64)unzigzag (v));
        out[i].start = prev;
      }
  /* self time is stored as what the children take of the duration */
  if (columns & TES_CACHE_COLUMN_SELF)
    columns |= TES_CACHE_COLUMN_DUR;
  SKIP (TES_CACHE_COLUMN_DUR);
  if (columns & TES_CACHE_COLUMN_DUR)
    for (guint i = 0; i < m; i++)
      {
        NEXT (TRUE);
        out[i].dur = unzigzag (v);
      }
  SKIP (TES_CACHE_COLUMN_SELF);
  if (columns & TES_CACHE_COLUMN_SELF)
    for (guint i = 0; i < m; i++)
      {
        NEXT (TRUE);
        out[i].self_dur = (gint64)((guint64)out[i].dur - (guint64)unzigzag (v));
      }
  SKIP (TES_CACHE_COLUMN_NAME);
  if (columns & TES_CACHE_COLUMN_NAME)
    for (guint i = 0; i < m; i++)
      {
        NEXT (v <= G_MAXUINT32);
        out[i].name = (guint32)v;
      }
  SKIP (TES_CACHE_COLUMN_CATEGORY);
  if (columns & TES_CACHE_COLUMN_CATEGORY)
    for (guint i = 0; i < m; i++)
      {
        NEXT (v <= G_MAXUINT32);
        out[i].category = (guint32)v;
      }
  /* parent, depth, flags: no query that reads columns alone needs them */
  if (!(p = skip_varints (p, end, 3 * m)))
    goto bad;
#undef SKIP
#undef NEXT

  if (p != end)
    {
      *why = "has bytes after its records";
      return FALSE;
    }
  if ((columns & TES_CACHE_COLUMN_START) && out[0].start != first_start)
    {
      *why = "does not start where its index says";
      return FALSE;
    }
  return TRUE;

bad:
  *why = "holds a record that cannot be read";
  return FALSE;
}

gboolean
tes_cache_chunk_unpack_data (const guint8    *blob,
                             gsize            len,
                             guint            n,
                             TesSliceRecord  *out,
                             char           **why)
{
  g_autoptr(GByteArray) scratch = g_byte_array_new ();
  guint nb = tes_cache_chunk_n_blocks (n);

  if (blob == NULL || len < tes_cache_chunk_data_index_len (n))
    {
      *why = g_strdup ("is shorter than its index");
      return FALSE;
    }
  for (guint b = 0; b < nb; b++)
    {
      guint m = MIN (TES_CACHE_BLOCK_SLICES, n - b * TES_CACHE_BLOCK_SLICES);
      const char *what = NULL;
      gint64 first_start, max_end;
      gsize offset, frame_len;

      if (!tes_cache_chunk_data_block (blob, len, n, b, &first_start, &max_end, &offset, &frame_len) ||
          offset + frame_len > len || (b == nb - 1 && offset + frame_len != len))
        what = "lies outside the chunk";
      else
        tes_cache_chunk_unpack_block (blob + offset, frame_len, m, first_start, max_end, scratch,
                                      &out[b * TES_CACHE_BLOCK_SLICES], &what);
      if (what != NULL)
        {
          *why = g_strdup_printf ("block %u %s", b, what);
          return FALSE;
        }
    }
  return TRUE;
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
  guint nb = tes_cache_chunk_n_blocks (n);
  gsize index_len = (gsize)nb * ARGS_INDEX_ENTRY;
  guint m;
  guint32 begin = 0, end;
  guint64 offset = 0;
  const guint8 *p, *stop;

  if (blob == NULL || len < index_len || b >= nb)
    {
      *why = "lies outside the chunk";
      return FALSE;
    }
  m = MIN (TES_CACHE_BLOCK_SLICES, n - b * TES_CACHE_BLOCK_SLICES);
  if (b > 0)
    memcpy (&begin, blob + (gsize)(b - 1) * ARGS_INDEX_ENTRY, sizeof begin);
  memcpy (&end, blob + (gsize)b * ARGS_INDEX_ENTRY, sizeof end);
  if (end < begin || index_len + end > len || (b == nb - 1 && index_len + end != len))
    {
      *why = "lies outside the chunk";
      return FALSE;
    }
  if (!decompress_frame (blob + index_len + begin, end - begin, G_MAXUINT32, scratch, why))
    return FALSE;

  p = scratch->data;
  stop = p + scratch->len;
  for (guint i = 0; i < m; i++)
    {
      guint64 v;

      if (!get_varint (&p, stop, &v) || v > (guint64)(stop - p))
        {
          *why = "holds a length that cannot be read";
          return FALSE;
        }
      offsets[i] = (guint32)offset;
      offset += v;
    }
  offsets[m] = (guint32)offset;
  if ((gsize)(stop - p) != offset)
    {
      *why = "does not hold the texts its lengths say";
      return FALSE;
    }
  *texts = (const char *)p;
  return TRUE;
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
  guint nb = tes_cache_chunk_n_blocks (n);
  gsize index_len = (gsize)nb * ARGS_INDEX_ENTRY;
  guint base = b0 * TES_CACHE_BLOCK_SLICES;
  guint count;
  guint32 begin = 0, end = 0, offset = 0;

  b1 = MIN (b1, nb);
  count = b1 > b0 ? MIN (n, b1 * TES_CACHE_BLOCK_SLICES) - base : 0;
  g_byte_array_set_size (out, (count + 1) * sizeof (guint32));
  if (blob == NULL || len < index_len)
    {
      *why = g_strdup ("args are shorter than their index");
      return FALSE;
    }
  if (b0 > 0 && b0 < nb)
    memcpy (&begin, blob + (gsize)(b0 - 1) * ARGS_INDEX_ENTRY, sizeof begin);
  for (guint b = b0; b < b1; b++, begin = end)
    {
      guint first = b * TES_CACHE_BLOCK_SLICES;
      guint m = MIN (TES_CACHE_BLOCK_SLICES, n - first);
      const char *what = NULL;
      const guint8 *p, *stop;
      gsize texts_len = 0;

      memcpy (&end, blob + (gsize)b * ARGS_INDEX_ENTRY, sizeof end);
      if (end < begin || index_len + end > len || (b == nb - 1 && index_len + end != len))
        what = "lies outside the chunk";
      /* the texts of a chunk fit in 4 GiB, as their offsets do */
      else if (decompress_frame (blob + index_len + begin, end - begin, G_MAXUINT32 - out->len, scratch, &what))
        {
          p = scratch->data;
          stop = p + scratch->len;
          for (guint i = 0; i < m && what == NULL; i++)
            {
              guint64 v;

              if (!get_varint (&p, stop, &v) || v > (guint64)(stop - p))
                what = "holds a length that cannot be read";
              else
                {
                  memcpy (out->data + (first - base + i) * sizeof (guint32), &offset, sizeof offset);
                  offset += (guint32)v;
                  texts_len += v;
                }
            }
          if (what == NULL && (gsize)(stop - p) != texts_len)
            what = "does not hold the texts its lengths say";
          if (what == NULL)
            g_byte_array_append (out, p, (guint)texts_len);
        }
      if (what != NULL)
        {
          *why = g_strdup_printf ("args block %u %s", b, what);
          return FALSE;
        }
    }
  memcpy (out->data + count * sizeof (guint32), &offset, sizeof offset);
  return TRUE;
}

/* Flows are stored TES_CACHE_FLOW_BLOCK to a row of `flows`, in the order
 * they came (their ids), column by column as varints: name, category and
 * the tracks as they are, from_ts as the delta from the flow before's,
 * to_ts as the delta from its own from_ts (an arrow is short). A row per
 * flow cost about 6k instructions a flow at import (its insert and the
 * checksum's pass over it), a Kineto trace having one per kernel. */
void
tes_cache_flows_pack (const gint64 *rows,
                      guint         n,
                      GByteArray   *out)
{
  guint8 *start, *p;
  gint64 prev = 0;

  g_byte_array_set_size (out, (guint)n * 6 * 10);
  start = p = out->data;
  for (guint c = 0; c < 6; c++)
    for (guint i = 0; i < n; i++)
      {
        const gint64 *r = &rows[i * 6];

        switch (c)
          {
          case 3:
            put_varint (&p, zigzag ((gint64)((guint64)r[3] - (guint64)prev)));
            prev = r[3];
            break;
          case 5:
            put_varint (&p, zigzag ((gint64)((guint64)r[5] - (guint64)r[3])));
            break;
          default:
            put_varint (&p, (guint64)r[c]);
            break;
          }
      }
  g_byte_array_set_size (out, (guint)(p - start));
}

/* Unpacks @n flows into @rows (n × 6: name, category, from_track, from_ts,
 * to_track, to_ts); FALSE when @blob does not hold exactly that. */
gboolean
tes_cache_flows_unpack (const guint8 *blob,
                        gsize         len,
                        guint         n,
                        gint64       *rows)
{
  const guint8 *p = blob, *end = blob + len;
  gint64 prev = 0;

  if (blob == NULL && len > 0)
    return FALSE;

  for (guint c = 0; c < 6; c++)
    for (guint i = 0; i < n; i++)
      {
        gint64 *r = &rows[i * 6];
        guint64 v;

        if (!get_varint (&p, end, &v))
          return FALSE;
        switch (c)
          {
          case 3:
            prev = r[3] = (gint64)((guint64)prev + (guint64)unzigzag (v));
            break;
          case 5:
            r[5] = (gint64)((guint64)r[3] + (guint64)unzigzag (v));
            break;
          default:
            r[c] = (gint64)v;
            break;
          }
      }

  return p == end;
}
