/* test-cache-chunk.c: slice chunks and their args texts stored compressed
 * (model/tes-cache-chunk.c) come back exactly as given, and a damaged one
 * is an error naming the cache and the chunk, not a crash
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <sqlite3.h>
#include <string.h>

#include "tes-cache-private.h"
#include "tes-cache-writer.h"
#include "tes-report.h"
#include "tes-test-util.h"

/* ---- the codec alone ----------------------------------------------------- */

/* Records no writer would give (starts going back, extreme values, self
 * times past their durations, parents anywhere): the codec keeps any. */
static TesSliceRecord *
odd_records (guint n)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (27);
  TesSliceRecord *recs = g_new0 (TesSliceRecord, n);
  static const gint64 extremes[] = { G_MININT64, G_MAXINT64, 0, -1, 1, TES_TIME_LIMIT, -TES_TIME_LIMIT };
  gint64 clock = -5000;

  for (guint i = 0; i < n; i++)
    {
      TesSliceRecord *r = &recs[i];

      switch (i % 7)
        {
        case 0: /* in order, as the writer stores them */
          clock += g_rand_int_range (rand, 0, 1000);
          r->start = clock;
          r->dur = g_rand_int_range (rand, 0, 100000);
          r->self_dur = r->dur / 2;
          r->parent = (gint32)i - 1;
          break;
        case 1: /* back in time: a negative delta */
          r->start = recs[i - 1].start - g_rand_int_range (rand, 1, 1 << 30);
          r->dur = 0;
          r->self_dur = 0;
          r->parent = -1;
          break;
        default:
          r->start = extremes[g_rand_int_range (rand, 0, G_N_ELEMENTS (extremes))];
          r->dur = extremes[g_rand_int_range (rand, 0, G_N_ELEMENTS (extremes))];
          r->self_dur = extremes[g_rand_int_range (rand, 0, G_N_ELEMENTS (extremes))];
          r->parent = (gint32)g_rand_int (rand);
          break;
        }
      r->name = i % 3 == 0 ? G_MAXUINT32 - i : i % 18;
      r->category = g_rand_int (rand);
      r->depth = i % 5 == 0 ? G_MAXUINT16 : i % 4;
      r->flags = i % 11 == 0 ? G_MAXUINT16 : 0;
    }
  return recs;
}

/* The search summary and sums of a chunk, against what they say worked out
 * here from the records and texts: every group's blocks, count and sums,
 * every trigram of letters of its texts in its filter (any case), no
 * filter where no text is; the filter rules out most trigrams a group does
 * not hold; and the check compares them with the records. */
static void
test_summaries (void)
{
  static const char * const words[] = { "Conv2D", "softMAX", "x", "", "{\"k\":12}", "élan", "abc_DEF ghi",
                                         "{\"k\":34}", "Conv7D" };
  guint n = 3 * TES_CACHE_BLOCK_SLICES + 7;
  g_autofree TesSliceRecord *recs = odd_records (n);
  g_autoptr(GByteArray) raw = g_byte_array_new ();
  g_autoptr(GByteArray) search = g_byte_array_new ();
  g_autoptr(GByteArray) sums = g_byte_array_new ();
  g_autoptr(GString) texts = g_string_new (NULL);
  g_autoptr(GRand) rand = g_rand_new_with_seed (9);
  const guint8 *p, *end, *q, *qend;
  guint n_groups, n_sums, ruled_out = 0, tried = 0;

  g_byte_array_set_size (raw, (n + 1) * sizeof (guint32));
  for (guint i = 0; i < n; i++)
    {
      guint32 at = (guint32)texts->len;

      recs[i].name = i % 5;            /* few groups: several slices each */
      recs[i].category = i % 2;
      recs[i].dur = g_rand_int_range (rand, 0, 1000);
      recs[i].self_dur = recs[i].dur / 3;
      /* group (0, 0) has no args; the others words by slice */
      /* now and then a text of the same length as others but its own
       * letters: no text may be taken for one met before */
      if (!(recs[i].name == 0 && recs[i].category == 0))
        g_string_append (texts, i % 613 == 1 ? "zebRA7Q" : words[g_rand_int_range (rand, 0, G_N_ELEMENTS (words))]);
      memcpy (raw->data + i * sizeof (guint32), &at, sizeof at);
    }
  {
    guint32 at = (guint32)texts->len;

    memcpy (raw->data + n * sizeof (guint32), &at, sizeof at);
  }
  g_byte_array_append (raw, (const guint8 *)texts->str, (guint)texts->len);

  tes_cache_chunk_pack_search (recs, n, raw->data, search);
  tes_cache_chunk_pack_sums (recs, n, sums);
  g_assert_null (tes_cache_chunk_check_summaries (recs, n, search->data, search->len, sums->data, sums->len));

  /* as the writer makes them, from the args' skeletons (digits out, the
   * texts a group repeats read once): the same bytes */
  {
    g_autoptr(GByteArray) packed = g_byte_array_new ();
    g_autoptr(GByteArray) search2 = g_byte_array_new ();
    g_autoptr(GByteArray) sums2 = g_byte_array_new ();
    ZSTD_CCtx *cctx = ZSTD_createCCtx ();
    TesArgsSkeletons skel;

    tes_cache_args_skeletons_init (&skel);
    tes_cache_chunk_pack_args (cctx, raw->data, n, &skel, packed);
    tes_cache_chunk_pack_summaries (recs, n, &skel, search2, sums2);
    g_assert_cmpmem (search2->data, search2->len, search->data, search->len);
    g_assert_cmpmem (sums2->data, sums2->len, sums->data, sums->len);
    tes_cache_args_skeletons_clear (&skel);
    ZSTD_freeCCtx (cctx);
  }

  p = search->data;
  end = p + search->len;
  q = sums->data;
  qend = q + sums->len;
  g_assert_true (tes_cache_chunk_search_begin (&p, end, &n_groups));
  g_assert_true (tes_cache_chunk_search_begin (&q, qend, &n_sums));
  g_assert_cmpuint (n_groups, ==, 10);
  g_assert_cmpuint (n_sums, ==, 10);
  for (guint g = 0; g < n_groups; g++)
    {
      TesChunkGroup group;
      TesChunkSums sum;
      guint32 blocks = 0;
      gint64 count = 0, dur = 0, self = 0, lo = G_MAXINT64, hi = G_MININT64;
      gboolean any_text = FALSE;
      guint8 held[TES_CACHE_TRIGRAMS] = { 0 };

      g_assert_true (tes_cache_chunk_search_group (&p, end, n, &group));
      g_assert_true (tes_cache_chunk_sums_group (&q, qend, &sum));
      g_assert_cmpuint (group.name, ==, sum.name);
      g_assert_cmpuint (group.category, ==, sum.category);
      /* first appearance order: slice g is the first of its group */
      g_assert_cmpuint (group.name, ==, g % 5);
      g_assert_cmpuint (group.category, ==, g % 2);
      for (guint i = 0; i < n; i++)
        if (recs[i].name == group.name && recs[i].category == group.category)
          {
            guint32 b0, b1;

            memcpy (&b0, raw->data + i * sizeof (guint32), sizeof b0);
            memcpy (&b1, raw->data + (i + 1) * sizeof (guint32), sizeof b1);
            blocks |= 1u << (i / TES_CACHE_BLOCK_SLICES);
            count++;
            dur += recs[i].dur;
            self += recs[i].self_dur;
            lo = MIN (lo, recs[i].dur);
            hi = MAX (hi, recs[i].dur);
            any_text |= b1 > b0;
            for (guint32 k = b0; k + 3 <= b1; k++)
              {
                gint t = tes_cache_trigram (texts->str + k);

                if (t >= 0)
                  {
                    held[t] = 1;
                    g_assert_true (tes_cache_chunk_group_may_hold (&group, (guint)t));
                  }
              }
          }
      g_assert_cmpuint (group.blocks, ==, blocks);
      g_assert_cmpint (sum.count, ==, count);
      g_assert_cmpint (sum.dur, ==, dur);
      g_assert_cmpint (sum.self, ==, self);
      g_assert_cmpint (sum.min, ==, lo);
      g_assert_cmpint (sum.max, ==, hi);
      g_assert_cmpuint (group.shift == 0, ==, !any_text);
      for (guint t = 0; t < TES_CACHE_TRIGRAMS; t++)
        if (!held[t])
          {
            tried++;
            ruled_out += !tes_cache_chunk_group_may_hold (&group, t);
          }
    }
  g_assert_true (p == end);
  g_assert_true (q == qend);
  /* "softmax" in any case is found whatever the case, and the trigram
   * of letters the whole way: "abc_DEF" holds "abc" and "def", not "cde" */
  g_assert_cmpint (tes_cache_trigram ("SoF"), ==, tes_cache_trigram ("sof"));
  g_assert_cmpint (tes_cache_trigram ("c_d"), ==, -1);
  g_assert_cmpint (tes_cache_trigram ("\xc3\xa9l"), ==, -1);
  /* about a fifth of the bits are set: most trigrams are ruled out */
  g_assert_cmpuint (ruled_out, >, tried * 7 / 10);

  /* the check sees sums or groups that are not the records' */
  recs[5].self_dur++;
  g_assert_nonnull (tes_cache_chunk_check_summaries (recs, n, search->data, search->len, sums->data, sums->len));
  recs[5].self_dur--;
  recs[n - 1].name = 4;     /* another group's now: counts and blocks differ */
  recs[n - 1].category = 0;
  g_assert_nonnull (tes_cache_chunk_check_summaries (recs, n, search->data, search->len, sums->data, sums->len));
}

static void
test_records_round_trip (void)
{
  /* one record, a block's worth and one either side, a whole chunk */
  static const guint sizes[] = { 1, 2, TES_CACHE_BLOCK_SLICES - 1, TES_CACHE_BLOCK_SLICES,
                                 TES_CACHE_BLOCK_SLICES + 1, 3 * TES_CACHE_BLOCK_SLICES + 7,
                                 TES_CACHE_CHUNK_SLICES };

  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    {
      guint n = sizes[k];
      g_autofree TesSliceRecord *recs = odd_records (n);
      g_autofree TesSliceRecord *back = g_new (TesSliceRecord, n);
      g_autoptr(GByteArray) packed = g_byte_array_new ();
      g_autofree char *why = NULL;

      tes_cache_chunk_pack_data (recs, n, packed);
      g_assert_true (tes_cache_chunk_unpack_data (packed->data, packed->len, n, back, &why));
      g_assert_null (why);
      g_assert_cmpmem (back, n * sizeof *back, recs, n * sizeof *recs);

      /* each block alone, as a window query reads it */
      for (guint b = 0; b < tes_cache_chunk_n_blocks (n); b++)
        {
          guint m = MIN (TES_CACHE_BLOCK_SLICES, n - b * TES_CACHE_BLOCK_SLICES);
          const char *what = NULL;
          gint64 first_start, max_end, expected_end = G_MININT64;
          gsize offset, len;

          /* the latest end, as the index must give it (int64, saturated) */
          for (guint i = b * TES_CACHE_BLOCK_SLICES; i < b * TES_CACHE_BLOCK_SLICES + m; i++)
            {
              __int128 end = (__int128)recs[i].start + recs[i].dur;

              end = CLAMP (end, (__int128)G_MININT64, (__int128)G_MAXINT64);
              expected_end = MAX (expected_end, (gint64)end);
            }
          memset (back, 0, n * sizeof *back);
          g_assert_true (tes_cache_chunk_data_block (packed->data, packed->len, n, b, &first_start, &max_end,
                                                     &offset, &len));
          g_assert_cmpint (first_start, ==, recs[b * TES_CACHE_BLOCK_SLICES].start);
          g_assert_cmpint (max_end, ==, expected_end);
          g_assert_cmpuint (offset + len, <=, packed->len);
          g_assert_true (tes_cache_chunk_unpack_block (packed->data + offset, len, m, first_start, max_end, back,
                                                       &what));
          g_assert_cmpmem (back, m * sizeof *back, &recs[b * TES_CACHE_BLOCK_SLICES], m * sizeof *recs);

          /* some columns alone, as the search and the aggregate read them:
           * those fields equal the records', the others are left as they were */
          for (guint columns = 0; columns < 32; columns++)
            {
              const TesSliceRecord *want = &recs[b * TES_CACHE_BLOCK_SLICES];
              gboolean dur = (columns & (TES_CACHE_COLUMN_DUR | TES_CACHE_COLUMN_SELF)) != 0;

              memset (back, 0xab, m * sizeof *back);
              g_assert_true (tes_cache_chunk_unpack_columns (packed->data + offset, len, m, first_start, columns,
                                                             back, &what));
              for (guint i = 0; i < m; i++)
                {
                  g_assert_cmpint (back[i].start, ==, columns & TES_CACHE_COLUMN_START ? want[i].start
                                                                                        : (gint64)0xabababababababab);
                  g_assert_cmpint (back[i].dur, ==, dur ? want[i].dur : (gint64)0xabababababababab);
                  g_assert_cmpint (back[i].self_dur, ==, columns & TES_CACHE_COLUMN_SELF ? want[i].self_dur
                                                                                          : (gint64)0xabababababababab);
                  g_assert_cmpuint (back[i].name, ==, columns & TES_CACHE_COLUMN_NAME ? want[i].name : 0xababababu);
                  g_assert_cmpuint (back[i].category, ==, columns & TES_CACHE_COLUMN_CATEGORY ? want[i].category
                                                                                             : 0xababababu);
                  g_assert_cmpuint (back[i].depth, ==, 0xabab);
                }
            }
        }
    }
}

/* n + 1 offsets, then the texts, as the writer packs a chunk's args */
static GByteArray *
raw_args (const char * const *texts,
          guint               n)
{
  GByteArray *raw = g_byte_array_new ();
  guint32 offset = 0;

  g_byte_array_set_size (raw, (n + 1) * sizeof (guint32));
  for (guint i = 0; i < n; i++)
    {
      memcpy (raw->data + i * sizeof (guint32), &offset, sizeof offset);
      offset += strlen (texts[i]);
    }
  memcpy (raw->data + n * sizeof (guint32), &offset, sizeof offset);
  for (guint i = 0; i < n; i++)
    g_byte_array_append (raw, (const guint8 *)texts[i], strlen (texts[i]));
  return raw;
}

static const char *
args_text (GByteArray *raw,
           guint       count,
           guint       i,
           gsize      *len)
{
  guint32 begin, end;

  memcpy (&begin, raw->data + i * sizeof (guint32), sizeof begin);
  memcpy (&end, raw->data + (i + 1) * sizeof (guint32), sizeof end);
  *len = end - begin;
  return (const char *)raw->data + (count + 1) * sizeof (guint32) + begin;
}

/* A skeleton's bytes [begin, end) hold no digit */
static gboolean
holds_digit (const TesArgsSkeletons *skel,
             guint                   n,
             guint                   i)
{
  guint32 begin, end;
  const guint8 *texts = skel->texts->data + (n + 1) * sizeof (guint32);

  memcpy (&begin, skel->texts->data + i * sizeof (guint32), sizeof begin);
  memcpy (&end, skel->texts->data + (i + 1) * sizeof (guint32), sizeof end);
  for (guint32 k = begin; k < end; k++)
    if (g_ascii_isdigit (texts[k]))
      return TRUE;
  return FALSE;
}

/* The mode of block b of a packed args column of n slices: the first
 * byte its zstd frame holds. */
static guint8
args_block_mode (GByteArray *packed,
                 guint       n,
                 guint       b)
{
  guint nb = tes_cache_chunk_n_blocks (n);
  guint32 begin = 0, end;
  guint8 mode = 0xff;
  gsize frame_len;
  g_autofree guint8 *content = NULL;
  unsigned long long size;

  if (b > 0)
    memcpy (&begin, packed->data + (b - 1) * sizeof (guint32), sizeof begin);
  memcpy (&end, packed->data + b * sizeof (guint32), sizeof end);
  frame_len = ZSTD_findFrameCompressedSize (packed->data + nb * sizeof (guint32) + begin, end - begin);
  g_assert_false (ZSTD_isError (frame_len));
  size = ZSTD_getFrameContentSize (packed->data + nb * sizeof (guint32) + begin, frame_len);
  content = g_malloc (size + 1);
  g_assert_cmpuint (ZSTD_decompress (content, size, packed->data + nb * sizeof (guint32) + begin, frame_len), ==, size);
  if (size > 0)
    mode = content[0];
  return mode;
}

/* Texts of every shape come back byte for byte: digits in runs of any
 * length (leading zeros, more than a run's byte can say, at either end,
 * alone), none, escapes, UTF-8, a 3 MB text; a block with a byte that
 * reads as a run's length is stored whole, one whose skeletons repeat as
 * its distinct skeletons and an index per text, the others as skeletons. */
static void
test_args_round_trip (void)
{
  const guint n = 4 * TES_CACHE_BLOCK_SLICES + 5;
  g_autofree char *huge = g_strnfill (3 * 1024 * 1024, 'x');
  g_autofree const char **texts = g_new (const char *, n);
  g_autoptr(GPtrArray) owned = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GByteArray) raw = NULL;
  g_autoptr(GByteArray) packed = g_byte_array_new ();
  g_autoptr(GByteArray) back = g_byte_array_new ();
  g_autofree char *why = NULL;
  ZSTD_CCtx *cctx = ZSTD_createCCtx ();
  TesArgsSkeletons skel;

  for (guint i = 0; i < n; i++)
    {
      switch (i % 9)
        {
        case 0: texts[i] = ""; break;
        case 1: texts[i] = "{\"op\":\"Softmax\",\"bytes\":1234}"; break;
        case 2: texts[i] = "{\"name\":\"Größe ✓ 名前 🚀\",\"note\":\"\\u00e9\"}"; break;
        case 3:
          g_ptr_array_add (owned, g_strdup_printf ("{\"i\":%u,\"t\":-%u.%03ue-7}", i, i * 7919u, i % 1000));
          texts[i] = g_ptr_array_index (owned, owned->len - 1);
          break;
        case 4: texts[i] = i == 4 ? huge : "{}"; break;
        case 5: texts[i] = "{\"id\":\"00001234567890123456789012345678901234567\"}"; break;
        case 6: texts[i] = "90210"; break;
        case 7: texts[i] = "7"; break;
        default: texts[i] = "{\"shape\":[[1,3,224,224],[64]],\"x\":0}"; break;
        }
    }
  /* block 1: texts with a byte a skeleton could not tell from a run, the
   * first right after block 0's last, a short one whose bytes are read
   * 16 at a time past its end */
  texts[TES_CACHE_BLOCK_SLICES - 1] = "7";
  texts[TES_CACHE_BLOCK_SLICES] = "\x01{\"ctl\":1}";
  texts[TES_CACHE_BLOCK_SLICES + 3] = "{\"ctl\":\"a\x05" "b\x10" "c 42\"}";
  /* block 2: no digit at all; block 3: the shapes of block 0 without the
   * 3 MB text, so few distinct skeletons; the last block: every text empty */
  for (guint i = 2 * TES_CACHE_BLOCK_SLICES; i < 3 * TES_CACHE_BLOCK_SLICES; i++)
    texts[i] = i % 2 ? "{\"op\":\"MatMul\"}" : "";
  for (guint i = 4 * TES_CACHE_BLOCK_SLICES; i < n; i++)
    texts[i] = "";

  raw = raw_args (texts, n);
  tes_cache_args_skeletons_init (&skel);
  tes_cache_chunk_pack_args (cctx, raw->data, n, &skel, packed);
  g_assert_cmpuint (packed->len, <, raw->len / 10);   /* the huge text is one letter */
  /* the skeletons: block 0's without digits, block 1's the texts */
  for (guint i = 0; i < TES_CACHE_BLOCK_SLICES; i++)
    g_assert_false (holds_digit (&skel, n, i));
  g_assert_true (holds_digit (&skel, n, TES_CACHE_BLOCK_SLICES + 1));
  g_assert_cmpuint (skel.hashes->len, ==, n * sizeof (guint64));
  tes_cache_args_skeletons_clear (&skel);
  g_assert_cmpuint (args_block_mode (packed, n, 0), ==, 1);
  g_assert_cmpuint (args_block_mode (packed, n, 1), ==, 0);
  g_assert_cmpuint (args_block_mode (packed, n, 2), ==, 0);
  g_assert_cmpuint (args_block_mode (packed, n, 3), ==, 2);
  g_assert_cmpuint (args_block_mode (packed, n, 4), ==, 0);

  g_assert_true (tes_cache_chunk_unpack_args (packed->data, packed->len, n, 0, G_MAXUINT, back, &why));
  g_assert_cmpmem (back->data, back->len, raw->data, raw->len);

  /* one block alone, as a slice's args are read */
  for (guint b = 0; b < tes_cache_chunk_n_blocks (n); b++)
    {
      guint first = b * TES_CACHE_BLOCK_SLICES;
      guint count = MIN (TES_CACHE_BLOCK_SLICES, n - first);

      g_assert_true (tes_cache_chunk_unpack_args (packed->data, packed->len, n, b, b + 1, back, &why));
      for (guint i = 0; i < count; i++)
        {
          gsize len;
          const char *text = args_text (back, count, i, &len);

          g_assert_cmpmem (text, len, texts[first + i], strlen (texts[first + i]));
        }

      /* and where zstd left it, as the search reads it */
      {
        guint32 offsets[TES_CACHE_BLOCK_SLICES + 1];
        g_autoptr(GByteArray) scratch = g_byte_array_new ();
        const char *run = NULL, *what = NULL;

        g_assert_true (tes_cache_chunk_args_block (packed->data, packed->len, n, b, scratch, offsets, &run, &what));
        g_assert_cmpuint (offsets[0], ==, 0);
        for (guint i = 0; i < count; i++)
          g_assert_cmpmem (run + offsets[i], offsets[i + 1] - offsets[i], texts[first + i], strlen (texts[first + i]));
        /* the last block must end the blob */
        if (b == tes_cache_chunk_n_blocks (n) - 1)
          {
            g_assert_false (tes_cache_chunk_args_block (packed->data, packed->len - 1, n, b, scratch, offsets,
                                                        &run, &what));
            g_assert_nonnull (what);
          }
      }
    }
  ZSTD_freeCCtx (cctx);
}

/* An args column of one block of m texts whose frame holds content and
 * whose digits (0-9 each, packed two to a byte) follow it, as
 * docs/cache-schema.md writes them, to try the reader on blocks the
 * writer does not make: unpacked into back, or NULL and the reader's why. */
static char *
unpack_written (const guint8 *content,
                gsize         content_len,
                const guint8 *digits,
                gsize         n_digits,
                guint         m,
                GByteArray   *back)
{
  g_autoptr(GByteArray) blob = g_byte_array_new ();
  gsize bound = ZSTD_compressBound (content_len);
  ZSTD_CCtx *cctx = ZSTD_createCCtx ();
  gsize frame, n_bytes = (n_digits + 1) / 2;
  guint32 end, hash;
  char *why = NULL;

  g_byte_array_set_size (blob, (guint)(sizeof end + bound + n_bytes + sizeof hash));
  ZSTD_CCtx_setParameter (cctx, ZSTD_c_checksumFlag, 1);
  frame = ZSTD_compress2 (cctx, blob->data + sizeof end, bound, content, content_len);
  g_assert_false (ZSTD_isError (frame));
  ZSTD_freeCCtx (cctx);
  memset (blob->data + sizeof end + frame, 0, n_bytes);
  for (gsize k = 0; k < n_digits; k++)
    blob->data[sizeof end + frame + k / 2] |= (guint8)(digits[k] << (4 * (k % 2)));
  /* the digits' hash: seed 0x7465737365726131, low 32 bits */
  hash = (guint32)tes_cache_hash64 (blob->data + sizeof end + frame, n_bytes, G_GUINT64_CONSTANT (0x7465737365726131));
  memcpy (blob->data + sizeof end + frame + n_bytes, &hash, sizeof hash);
  end = (guint32)(frame + n_bytes + sizeof hash);
  memcpy (blob->data, &end, sizeof end);
  g_byte_array_set_size (blob, (guint)(sizeof end + end));

  if (tes_cache_chunk_unpack_args (blob->data, blob->len, m, 0, 1, back, &why))
    return NULL;
  g_assert_nonnull (why);
  return why;
}

/* Mode 2 as the document says it, written here and not by the writer: a
 * distinct skeleton used by several texts, in any order, filled with
 * their digits in turn; and each way its count, lengths and indexes can
 * be wrong refused, naming what. */
static void
test_args_distinct (void)
{
  static const guint8 digits[] = { 1, 2, 3, 4, 5 };
  /* skeletons "a\1b" and "[\2]": a1b, [23], a4b */
  static const guint8 good[] = { 2, 2, 3, 3, 'a', 1, 'b', '[', 2, ']', 0, 1, 0 };
  static const struct
  {
    guint8      content[16];
    gsize       len;
    const char *why;
  } bad[] = {
    { { 2, 0 }, 2, "count of skeletons" },                                      /* none */
    { { 2, 4, 1, 1, 1, 1, 'x', 'y', 'z', 'w', 0, 0, 0 }, 13, "count of skeletons" }, /* more than texts */
    { { 2, 1, 3, 'a', 1, 'b', 0, 1, 0 }, 9, "skeleton's index" },              /* index past them */
    { { 2, 1, 3, 'a', 1, 'b', 0, 0, 0, 7 }, 10, "bytes after" },              /* a byte left over */
    { { 2, 1, 9, 'a', 1, 'b', 0, 0, 0 }, 9, "length" },                        /* a skeleton past the end */
    { { 2, 1, 3, 'a', 1, 'b', 0, 0 }, 8, "skeleton's index" },                 /* an index missing */
  };
  g_autoptr(GByteArray) back = g_byte_array_new ();
  g_autofree char *why = unpack_written (good, sizeof good, digits, 4, 3, back);
  g_autofree char *extra = NULL;
  static const char *want[] = { "a1b", "[23]", "a4b" };

  g_assert_cmpstr (why, ==, NULL);
  for (guint i = 0; i < 3; i++)
    {
      gsize len;
      const char *text = args_text (back, 3, i, &len);

      g_assert_cmpmem (text, len, want[i], strlen (want[i]));
    }
  /* the digits must all be used: one too many */
  extra = unpack_written (good, sizeof good, digits, 5, 3, back);
  g_assert_nonnull (strstr (extra, "digits"));

  for (guint k = 0; k < G_N_ELEMENTS (bad); k++)
    {
      g_autofree char *bad_why = unpack_written (bad[k].content, bad[k].len, digits, 2, 3, back);

      g_assert_nonnull (bad_why);
      if (strstr (bad_why, bad[k].why) == NULL)
        g_error ("case %u: %s, expected %s", k, bad_why, bad[k].why);
    }
}

/* Damaged columns are refused with the block and the fault, whatever the
 * byte: never a crash or a read past the blob. */
static void
test_damaged_columns (void)
{
  const guint n = 3 * TES_CACHE_BLOCK_SLICES;
  g_autofree TesSliceRecord *recs = odd_records (n);
  g_autofree TesSliceRecord *back = g_new (TesSliceRecord, n);
  const char *texts[] = { "{\"a\":1}", "", "{\"b\":\"ü\"}" };
  g_autofree const char **many = g_new (const char *, n);
  g_autoptr(GByteArray) packed = g_byte_array_new ();
  g_autoptr(GByteArray) args = NULL;
  g_autoptr(GByteArray) packed_args = g_byte_array_new ();
  g_autoptr(GByteArray) back_args = g_byte_array_new ();
  ZSTD_CCtx *cctx = ZSTD_createCCtx ();
  TesArgsSkeletons skel;
  guint refused = 0;

  tes_cache_chunk_pack_data (recs, n, packed);
  for (guint i = 0; i < n; i++)
    many[i] = texts[i % 3];
  args = raw_args (many, n);
  tes_cache_args_skeletons_init (&skel);
  tes_cache_chunk_pack_args (cctx, args->data, n, &skel, packed_args);
  tes_cache_args_skeletons_clear (&skel);

  /* bytes flipped in turn (every one of the index, one in 5 after), and
   * the blob cut at many lengths */
  for (guint at = 0; at < packed->len; at += at < tes_cache_chunk_data_index_len (n) ? 1 : 5)
    {
      g_autofree char *why = NULL;

      packed->data[at] ^= 0x5a;
      if (!tes_cache_chunk_unpack_data (packed->data, packed->len, n, back, &why))
        {
          g_assert_nonnull (why);
          g_assert_true (g_str_has_prefix (why, "block ") || g_str_has_prefix (why, "is shorter"));
          refused++;
        }
      else  /* a bit zstd ignores (a frame header's window size): no harm */
        g_assert_cmpmem (back, n * sizeof *back, recs, n * sizeof *recs);
      packed->data[at] ^= 0x5a;
    }
  /* the index, zstd's frame headers and its content checksums catch all
   * but a few */
  g_assert_cmpuint (refused, >, packed->len / 5);

  for (gsize len = 0; len < packed->len; len += 1 + len / 8)
    {
      g_autofree char *why = NULL;

      g_assert_false (tes_cache_chunk_unpack_data (packed->data, len, n, back, &why));
      g_assert_nonnull (why);
    }
  for (gsize len = 0; len < packed_args->len; len++)
    {
      g_autofree char *why = NULL;

      g_assert_false (tes_cache_chunk_unpack_args (packed_args->data, len, n, 0, G_MAXUINT, back_args, &why));
      g_assert_nonnull (why);
    }
  for (guint at = 0; at < packed_args->len; at += 3)
    {
      g_autofree char *why = NULL;

      packed_args->data[at] ^= 0xa5;
      if (!tes_cache_chunk_unpack_args (packed_args->data, packed_args->len, n, 0, G_MAXUINT, back_args, &why))
        g_assert_true (g_str_has_prefix (why, "args "));
      else
        g_assert_cmpmem (back_args->data, back_args->len, args->data, args->len);
      packed_args->data[at] ^= 0xa5;
    }
  ZSTD_freeCCtx (cctx);
}

/* ---- through the writer and a report ------------------------------------- */

#define TOPS 7000   /* each with two children, one with a child of its own: 28 000 slices */

static const char *
args_for (guint i,
          char  *buf,
          gsize  size)
{
  switch (i % 6)
    {
    case 0: return NULL;
    case 1: return "";
    case 2: return "{\"note\":\"Größe ✓ 名前 🚀\"}";
    case 3: g_snprintf (buf, size, "{\"op\":\"Conv2D\",\"bytes\":%u}", i * 7919u); return buf;
    default: return "{}";
    }
}

/* The slices of one track: top-level ones 1000 ticks apart from a negative
 * start, 900 long; in each, children at +100 (200 long) and +400 (300
 * long), and in the second a grandchild at +450 (50 long). In start order
 * a top's slices are top, child, child, grandchild. */
static void
expected_slice (guint   index,
                gint64 *start,
                gint64 *dur,
                gint64 *self_dur,
                gint32 *parent,
                guint16 *depth)
{
  guint top = index / 4;
  gint64 base = -3000000 + (gint64)top * 1000;

  switch (index % 4)
    {
    case 0: *start = base; *dur = 900; *self_dur = 900 - 200 - 300; *parent = -1; *depth = 0; break;
    case 1: *start = base + 100; *dur = 200; *self_dur = 200; *parent = (gint32)(top * 4); *depth = 1; break;
    case 2: *start = base + 400; *dur = 300; *self_dur = 250; *parent = (gint32)(top * 4); *depth = 1; break;
    default: *start = base + 450; *dur = 50; *self_dur = 50; *parent = (gint32)(top * 4 + 2); *depth = 2; break;
    }
}

static char *
write_nested_cache (const char *name,
                    const char *huge,
                    gint64     *track_out)
{
  g_autofree char *cache = tes_test_tmp_path (name);
  g_autoptr(TesCacheWriter) writer = NULL;
  g_autoptr(GError) error = NULL;
  guint32 names[4];
  gint64 clock, track;
  char buf[64];

  writer = tes_cache_writer_new (cache, &error);
  g_assert_no_error (error);
  clock = tes_cache_writer_add_clock (writer, "c", TES_TIME_UNIT_NS, 1000000000);
  track = tes_cache_writer_add_track (writer, 0, 0, clock, TES_TRACK_THREAD, "t", 0, NULL);
  names[0] = tes_cache_writer_intern (writer, "Top");
  names[1] = tes_cache_writer_intern (writer, "Conv2D");
  names[2] = tes_cache_writer_intern (writer, "MatMul ✓");
  names[3] = tes_cache_writer_intern (writer, "Softmax");

  for (guint i = 0; i < 4 * TOPS; i++)
    {
      gint64 start, dur, self_dur;
      gint32 parent;
      guint16 depth;
      const char *args = i == 4 * 1500 + 1 ? huge : args_for (i, buf, sizeof buf);

      expected_slice (i, &start, &dur, &self_dur, &parent, &depth);
      tes_cache_writer_add_slice (writer, track, start, dur, names[i % 4], names[(i + 1) % 4], 0,
                                  args, args ? -1 : 0);
    }
  tes_cache_writer_commit (writer, NULL, &error);
  g_assert_no_error (error);
  *track_out = track;
  return g_steal_pointer (&cache);
}

static void
test_writer_round_trip (void)
{
  /* one text of 2 MiB that is not one letter repeated */
  g_autoptr(GString) huge = g_string_new ("{\"ops\":[");
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GArray) slices = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *cache = NULL;
  gint64 track;
  char buf[64];

  for (guint i = 0; huge->len < 2 * 1024 * 1024; i++)
    g_string_append_printf (huge, "%s%u", i ? "," : "", i * 2654435761u);
  g_string_append (huge, "]}");

  cache = write_nested_cache ("nested.tessera", huge->str, &track);
  report = tes_report_open_cache (cache, &error);
  g_assert_no_error (error);

  /* the whole track, then windows that start and end inside blocks */
  slices = tes_report_get_slices (report, track, G_MININT64, G_MAXINT64, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (slices->len, ==, 4 * TOPS);
  for (guint i = 0; i < slices->len; i++)
    {
      const TesSlice *s = &g_array_index (slices, TesSlice, i);
      const char *name = tes_report_get_string (report, s->name);
      static const char *names[] = { "Top", "Conv2D", "MatMul ✓", "Softmax" };
      gint64 start, dur, self_dur;
      gint32 parent;
      guint16 depth;

      expected_slice (i, &start, &dur, &self_dur, &parent, &depth);
      g_assert_cmpuint (s->index, ==, i);
      g_assert_cmpint (s->start, ==, start);
      g_assert_cmpint (s->dur, ==, dur);
      g_assert_cmpint (s->self_dur, ==, self_dur);
      g_assert_cmpint (s->parent, ==, parent);
      g_assert_cmpuint (s->depth, ==, depth);
      g_assert_cmpstr (name, ==, names[i % 4]);
      g_assert_cmpstr (tes_report_get_string (report, s->category), ==, names[(i + 1) % 4]);
    }
  g_clear_pointer (&slices, g_array_unref);
  g_clear_object (&report);
  report = tes_report_open_cache (cache, &error);
  g_assert_no_error (error);

  for (guint k = 0; k < 50; k++)
    {
      /* tops k * 137 .. + 300, in ticks, from mid-slice to mid-slice */
      guint top = k * 137 % (TOPS - 300);
      gint64 t0 = -3000000 + (gint64)top * 1000 + 420;
      gint64 t1 = t0 + 300 * 1000;
      guint expected = 0;

      for (guint i = 0; i < 4 * TOPS; i++)
        {
          gint64 start, dur, self_dur;
          gint32 parent;
          guint16 depth;

          expected_slice (i, &start, &dur, &self_dur, &parent, &depth);
          if (start <= t1 && start + dur >= t0)
            expected++;
        }
      /* read twice: decoded, then from the report's decoded blocks */
      for (guint pass = 0; pass < 2; pass++)
        {
          slices = tes_report_get_slices (report, track, t0, t1, &error);
          g_assert_no_error (error);
          g_assert_cmpuint (slices->len, ==, expected);
          for (guint i = 0; i < slices->len; i++)
            {
              const TesSlice *s = &g_array_index (slices, TesSlice, i);
              gint64 start, dur, self_dur;
              gint32 parent;
              guint16 depth;

              expected_slice (s->index, &start, &dur, &self_dur, &parent, &depth);
              g_assert_cmpint (s->start, ==, start);
              g_assert_cmpint (s->dur, ==, dur);
              g_assert_cmpint (s->self_dur, ==, self_dur);
              g_assert_cmpint (s->parent, ==, parent);
              g_assert_cmpuint (s->depth, ==, depth);
            }
          g_clear_pointer (&slices, g_array_unref);
        }
    }

  for (guint i = 0; i < 4 * TOPS; i += (i % 997 == 0) ? 1 : 13)
    {
      g_autofree char *args = tes_report_get_slice_args (report, track, i, &error);
      const char *given = i == 4 * 1500 + 1 ? huge->str : args_for (i, buf, sizeof buf);

      g_assert_no_error (error);
      g_assert_cmpstr (args, ==, given ? given : "");
    }
}

/* Overwrites bytes of a column of chunk @chunk_id, then reseals the
 * checksums as a crafted cache would, so that decoding is what finds it. */
static void
damage_column (const char *cache,
               gint64      chunk_id,
               const char *column,
               int         offset)
{
  g_autoptr(GError) error = NULL;
  sqlite3_blob *blob = NULL;
  sqlite3 *db = NULL;
  guint8 bytes[8];

  g_assert_cmpint (sqlite3_open_v2 (cache, &db, SQLITE_OPEN_READWRITE, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_blob_open (db, "main", "slice_chunks", column, chunk_id, 1, &blob), ==, SQLITE_OK);
  if (offset < 0)
    offset += sqlite3_blob_bytes (blob);
  g_assert_cmpint (sqlite3_blob_read (blob, bytes, sizeof bytes, offset), ==, SQLITE_OK);
  for (guint i = 0; i < sizeof bytes; i++)
    bytes[i] ^= 0xff;
  g_assert_cmpint (sqlite3_blob_write (blob, bytes, sizeof bytes, offset), ==, SQLITE_OK);
  sqlite3_blob_close (blob);
  g_assert_true (tes_cache_reseal (db, &error));
  g_assert_no_error (error);
  sqlite3_close (db);
}

static void
test_damaged_chunk_in_cache (void)
{
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *cache = NULL;
  g_autofree char *args = NULL;
  g_autofree char *expected = NULL;
  gint64 track;

  /* data: inside chunk 2's first zstd frame (its index is 12 blocks of
   * 20 bytes: 11 616 slices); found when the chunk is first checked, at
   * open in a cache this small */
  cache = write_nested_cache ("damaged-data.tessera", "{}", &track);
  damage_column (cache, 2, "data", 12 * 20 + 40);
  report = tes_report_open_cache (cache, &error);
  if (report != NULL)
    {
      g_autoptr(GArray) slices = tes_report_get_slices (report, track, G_MININT64, G_MAXINT64, &error);

      g_assert_null (slices);
    }
  g_assert_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_SCHEMA);
  expected = g_strdup_printf ("Cache %s is damaged: slice chunk 2 of track %" G_GINT64_FORMAT " cannot be decoded: block",
                              cache, track);
  tes_test_assert_contains (error->message, expected);
  g_clear_error (&error);
  g_clear_object (&report);
  g_clear_pointer (&expected, g_free);
  g_free (cache);

  /* args: the end of chunk 1's last args frame; a slice's args and the
   * search both say so */
  cache = write_nested_cache ("damaged-args.tessera", "{}", &track);
  damage_column (cache, 1, "args", -8);
  report = tes_report_open_cache (cache, &error);
  g_assert_no_error (error);
  args = tes_report_get_slice_args (report, track, TES_CACHE_CHUNK_SLICES - 1, &error);
  g_assert_null (args);
  g_assert_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_SCHEMA);
  expected = g_strdup_printf ("Cache %s is damaged: slice chunk 1 of track %" G_GINT64_FORMAT ": args block 15",
                              cache, track);
  tes_test_assert_contains (error->message, expected);
  g_clear_error (&error);
  g_clear_object (&report);

  /* the first blocks of that chunk are intact and still read */
  report = tes_report_open_cache (cache, &error);
  g_assert_no_error (error);
  args = tes_report_get_slice_args (report, track, 3, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (args, ==, "{\"op\":\"Conv2D\",\"bytes\":23757}");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tes/cache-chunk/records-round-trip", test_records_round_trip);
  g_test_add_func ("/tes/cache-chunk/args-round-trip", test_args_round_trip);
  g_test_add_func ("/tes/cache-chunk/args-distinct", test_args_distinct);
  g_test_add_func ("/tes/cache-chunk/summaries", test_summaries);
  g_test_add_func ("/tes/cache-chunk/damaged-columns", test_damaged_columns);
  g_test_add_func ("/tes/cache-chunk/writer-round-trip", test_writer_round_trip);
  g_test_add_func ("/tes/cache-chunk/damaged-chunk-in-cache", test_damaged_chunk_in_cache);

  return g_test_run ();
}
