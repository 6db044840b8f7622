/* tes-cache-chunk.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* How a slice chunk's records are stored (docs/cache-schema.md, "Slices"),
 * its search summary and sums: in blocks of TES_CACHE_BLOCK_SLICES slices
 * behind a small index. Within a data block the fields go column by column
 * as varints, times as deltas from the slice before, names and categories
 * as string ids: one to three bytes a field, read in place, with a hash
 * that says when a block is damaged. A window query reads the index and
 * decodes only the blocks its window meets. The args texts are
 * tes-cache-args.c's. */

#define G_LOG_DOMAIN "tes-cache"

#include "config.h"

#include "tes-cache-codec-private.h"

#include <string.h>

/* the index entry of a data block: first start (int64), latest end
 * (int64), end offset (uint32) */
#define DATA_INDEX_ENTRY 20
/* a varint of 64 bits takes at most 10 bytes; a record has 8 fields */
#define MAX_RECORD_BYTES 80
/* after a data block's columns: the low 32 bits of their hash */
#define DATA_HASH 4
#define DATA_SEED G_GUINT64_CONSTANT (0x7465737365726164)

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

void
tes_cache_chunk_pack_data (const TesSliceRecord *recs,
                           guint                 n,
                           GByteArray           *out)
{
  guint nb = tes_cache_chunk_n_blocks (n);
  gsize blocks_at;

  g_byte_array_set_size (out, (gsize)nb * DATA_INDEX_ENTRY);
  blocks_at = out->len;
  for (guint b = 0; b < nb; b++)
    {
      const TesSliceRecord *r = &recs[b * TES_CACHE_BLOCK_SLICES];
      guint m = MIN (TES_CACHE_BLOCK_SLICES, n - b * TES_CACHE_BLOCK_SLICES);
      gsize at = out->len;
      gint64 prev = 0;
      gint32 prev_parent = -1;
      guint8 *p;

      g_byte_array_set_size (out, (guint)(at + m * MAX_RECORD_BYTES + DATA_HASH));
      p = out->data + at;
      /* wrapping differences: any int64 round-trips; the first start is
       * whole (the index's copy must agree) */
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
      /* stored as they are: zstd shrank them by a third at most, for a
       * third of all the packing's time and a decompression at every
       * read; a hash of them says when one is damaged */
      write_u32 (p, (guint32)tes_cache_hash64 (out->data + at, (gsize)(p - (out->data + at)), DATA_SEED));
      p += DATA_HASH;
      g_byte_array_set_size (out, (guint)(p - out->data));
      {
        gint64 max_end = block_max_end (r, m);

        memcpy (out->data + (gsize)b * DATA_INDEX_ENTRY, &r[0].start, sizeof (gint64));
        memcpy (out->data + (gsize)b * DATA_INDEX_ENTRY + 8, &max_end, sizeof (gint64));
        write_u32 (out->data + (gsize)b * DATA_INDEX_ENTRY + 16, (guint32)(out->len - blocks_at));
      }
    }
}

/* The search summary (slice_chunks.search): what a search needs to know
 * about a chunk before it decodes anything. One group per (name, category)
 * of its slices, in order of first appearance: which blocks hold slices of
 * it, and which trigrams of letters their argument texts hold, folded into
 * a filter of 1 << shift bits (a bit clear means no text of the group holds
 * any trigram that maps to it). */

/* 0..25 for an ASCII letter of either case, TRIGRAM_NONE for any other byte */
#define TRIGRAM_NONE 0xff
static const guint8 *
letter_table (void)
{
  static guint8 table[256];
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      memset (table, TRIGRAM_NONE, sizeof table);
      for (guint c = 0; c < 26; c++)
        table['a' + c] = table['A' + c] = (guint8)c;
      g_once_init_leave (&done, 1);
    }
  return table;
}

/* the trigram at text[i, i + 3), or -1 when one of the bytes is no letter */
gint
tes_cache_trigram (const char *text)
{
  const guint8 *letter = letter_table ();
  guint8 a = letter[(guint8)text[0]], b = letter[(guint8)text[1]], c = letter[(guint8)text[2]];

  if (a == TRIGRAM_NONE || b == TRIGRAM_NONE || c == TRIGRAM_NONE)
    return -1;
  return ((gint)a * 26 + b) * 26 + c;
}

static inline guint
filter_bit (guint trigram,
            guint shift)
{
  return (guint)(((guint32)trigram * 2654435761u) >> (32 - shift));
}

gboolean
tes_cache_chunk_group_may_hold (const TesChunkGroup *group,
                                guint                trigram)
{
  guint bit;

  if (group->shift == 0)
    return FALSE;
  bit = filter_bit (trigram, group->shift);
  return (group->filter[bit / 8] >> (bit % 8)) & 1;
}

typedef struct
{
  guint32 name;
  guint32 category;
  guint32 blocks;
  guint32 n;          /* its slices */
  guint32 first;      /* into the slices sorted by group */
  guint64 dur;        /* the sums of its durations and self times (modulo 2^64) */
  guint64 self;
  gint64  min;
  gint64  max;
} PackGroup;

/* The arrays packing a chunk's summaries works in, kept by each thread
 * from one chunk to the next. Made and freed for each chunk, glibc handed
 * their pages back and they were faulted in again: with the kept slices
 * (tes-cache-writer-pack.c), two thirds of a 10M-event import's page
 * faults, each 10-20 us on a virtual machine (docs/benchmarks.md). */
typedef enum
{
  SCRATCH_SLOTS,
  SCRATCH_OF,
  SCRATCH_ORDER,
  SCRATCH_MET,
  SCRATCH_SEEN,
  N_SCRATCH
} ScratchKind;

typedef struct
{
  gpointer data[N_SCRATCH];
  gsize    size[N_SCRATCH];
} Scratch;

static void
scratch_free (gpointer data)
{
  Scratch *scratch = data;

  for (guint i = 0; i < N_SCRATCH; i++)
    g_free (scratch->data[i]);
  g_free (scratch);
}

static GPrivate scratch_key = G_PRIVATE_INIT (scratch_free);

/* This thread's array of its kind, at least bytes long (zeroed with zero);
 * valid until the next call for the same kind. */
static gpointer
scratch_get (ScratchKind kind,
             gsize       bytes,
             gboolean    zero)
{
  Scratch *scratch = g_private_get (&scratch_key);

  if (scratch == NULL)
    {
      scratch = g_new0 (Scratch, 1);
      g_private_set (&scratch_key, scratch);
    }
  if (scratch->size[kind] < bytes)
    {
      g_free (scratch->data[kind]);
      scratch->data[kind] = g_malloc (bytes);
      scratch->size[kind] = bytes;
    }
  if (zero)
    memset (scratch->data[kind], 0, bytes);

  return scratch->data[kind];
}

/* The (name, category) groups of a chunk's slices in order of first
 * appearance, with their blocks, counts and sums, and each slice's group
 * in of[], through a table open-addressed by (name, category). */
static GArray *
chunk_groups (const TesSliceRecord *recs,
              guint                 n,
              guint32              *of)
{
  GArray *groups = g_array_new (FALSE, FALSE, sizeof (PackGroup));
  guint n_slots = 64;
  guint32 *slots;

  g_assert (n <= 32 * TES_CACHE_BLOCK_SLICES);
  while (n_slots < 2 * MIN (n, 65536u))
    n_slots *= 2;
  slots = scratch_get (SCRATCH_SLOTS, n_slots * sizeof (guint32), TRUE);   /* group index + 1 */
  for (guint i = 0; i < n; i++)
    {
      guint64 key = (guint64)recs[i].name << 32 | recs[i].category;
      guint slot = (guint)((key * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)) >> 40) & (n_slots - 1);
      PackGroup *g;

      for (;; slot = (slot + 1) & (n_slots - 1))
        {
          if (slots[slot] == 0)
            {
              PackGroup fresh = { recs[i].name, recs[i].category, 0, 0, 0, 0, 0, G_MAXINT64, G_MININT64 };

              g_array_append_val (groups, fresh);
              slots[slot] = groups->len;
              break;
            }
          g = &g_array_index (groups, PackGroup, slots[slot] - 1);
          if (g->name == recs[i].name && g->category == recs[i].category)
            break;
        }
      of[i] = slots[slot] - 1;
      g = &g_array_index (groups, PackGroup, of[i]);
      g->blocks |= 1u << (i / TES_CACHE_BLOCK_SLICES);
      g->n++;
      g->dur += (guint64)recs[i].dur;
      g->self += (guint64)recs[i].self_dur;
      g->min = MIN (g->min, recs[i].dur);
      g->max = MAX (g->max, recs[i].dur);
    }

  return groups;
}

/* The texts met in a group, by the hash of each (hashes[i]): a text whose
 * hash and bytes were met adds no trigram. Direct-mapped, so a text seen
 * before may be read again, never skipped unseen. */
#define MET_SLOTS 1024

typedef struct
{
  guint64 hash;
  guint32 text;
  guint32 group;     /* + 1; 0: empty */
} MetText;

static gboolean
met_before (MetText       *met,
            const guint64 *hashes,
            const guint8  *raw_args,
            const guint8  *texts,
            guint          group,
            guint          i)
{
  guint64 h;
  MetText *slot;

  memcpy (&h, hashes + i, sizeof h);
  slot = &met[(h >> 32) & (MET_SLOTS - 1)];
  if (slot->group == group + 1 && slot->hash == h)
    {
      guint32 a_len, b_len;
      guint32 a = text_span (raw_args, slot->text, &a_len);
      guint32 b = text_span (raw_args, i, &b_len);

      if (a_len == b_len && same_bytes (texts + a, texts + b, b_len))
        return TRUE;
    }
  *slot = (MetText) { h, i, group + 1 };
  return FALSE;
}

/* The search summary of groups (their counts kept as they were), from
 * raw_args: texts, or their skeletons with hashes (or NULL) */
static void
pack_search (GArray         *groups,
             const guint32  *of,
             guint           n,
             const guint8   *raw_args,
             const guint64  *hashes,
             GByteArray     *out)
{
  MetText *met = hashes != NULL ? scratch_get (SCRATCH_MET, MET_SLOTS * sizeof (MetText), TRUE) : NULL;
  const guint8 *letter = letter_table ();
  guint32 *order = scratch_get (SCRATCH_ORDER, MAX (n, 1) * sizeof (guint32), FALSE);
  guint64 *seen;
  guint64 words[256];
  const char *texts = raw_args ? (const char *)raw_args + (n + 1) * sizeof (guint32) : NULL;
  guint8 *p;

  /* the slices in group order (counting sort), for one pass per group */
  for (guint g = 0, at = 0; g < groups->len; g++)
    {
      PackGroup *pg = &g_array_index (groups, PackGroup, g);

      pg->first = at;
      at += pg->n;
      pg->n = 0;
    }
  for (guint i = 0; i < n; i++)
    {
      PackGroup *pg = &g_array_index (groups, PackGroup, of[i]);

      order[pg->first + pg->n++] = i;
    }

  seen = scratch_get (SCRATCH_SEEN, (TES_CACHE_TRIGRAMS + 63) / 64 * sizeof (guint64), FALSE);
  g_byte_array_set_size (out, 10 + groups->len * (3 * 10 + 1));
  p = out->data;
  put_varint (&p, groups->len);
  for (guint g = 0; g < groups->len; g++)
    {
      const PackGroup *pg = &g_array_index (groups, PackGroup, g);
      gboolean any_args = FALSE;
      guint distinct = 0;
      guint shift;
      gsize at;

      memset (seen, 0, (TES_CACHE_TRIGRAMS + 63) / 64 * sizeof (guint64));
      memset (words, 0, sizeof words);
      for (guint k = 0; texts != NULL && k < pg->n; k++)
        {
          guint32 len;
          guint32 begin = text_span (raw_args, order[pg->first + k], &len);
          const guint8 *at_byte, *end_byte;

          any_args |= len > 0;
          if (met != NULL && len > 0 &&
              met_before (met, hashes, raw_args, (const guint8 *)texts, g, order[pg->first + k]))
            continue;
          at_byte = (const guint8 *)texts + begin;
          end_byte = at_byte + len;
          /* word by word (a run of letters): a group's slices repeat
           * their args' keys, and a word of up to 12 letters met before
           * in the group (its letters packed 5 bits each: the key is the
           * word) adds no trigram */
          while (at_byte < end_byte)
            {
              const guint8 *word;
              guint64 key = 0;
              guint a, b;

              while (at_byte < end_byte && letter[*at_byte] == TRIGRAM_NONE)
                at_byte++;
              word = at_byte;
              while (at_byte < end_byte && letter[*at_byte] != TRIGRAM_NONE)
                key = key << 5 | (guint64)(letter[*at_byte++] + 1);
              if (at_byte - word < 3)
                continue;
              if (at_byte - word <= 12)
                {
                  guint w = (guint)((key * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)) >> 56);

                  if (words[w] == key)
                    continue;
                  words[w] = key;
                }
              a = letter[word[0]];
              b = letter[word[1]];
              for (const guint8 *c = word + 2; c < at_byte; c++)
                {
                  guint t = (a * 26 + b) * 26 + letter[*c];

                  seen[t / 64] |= G_GUINT64_CONSTANT (1) << (t % 64);
                  a = b;
                  b = letter[*c];
                }
            }
        }
      for (guint w = 0; texts != NULL && w < (TES_CACHE_TRIGRAMS + 63) / 64; w++)
        distinct += (guint)__builtin_popcountll (seen[w]);

      /* about a fifth of the bits set: a pattern of three trigrams passes
       * a group that holds none of them once in a hundred */
      shift = TES_CACHE_FILTER_MIN_SHIFT;
      while (shift < TES_CACHE_FILTER_MAX_SHIFT && (1u << shift) < 4 * distinct)
        shift++;
      if (!any_args)
        shift = 0;

      at = (gsize)(p - out->data);
      g_byte_array_set_size (out, (guint)(at + 3 * 10 + 1 + (shift ? (1u << shift) / 8 : 0) +
                                          (groups->len - g) * (3 * 10 + 1)));
      p = out->data + at;
      put_varint (&p, pg->name);
      put_varint (&p, pg->category);
      put_varint (&p, pg->blocks);
      *p++ = (guint8)shift;
      if (shift > 0)
        {
          memset (p, 0, (1u << shift) / 8);
          for (guint w = 0; w < (TES_CACHE_TRIGRAMS + 63) / 64; w++)
            for (guint64 bits = seen[w]; bits != 0; bits &= bits - 1)
              {
                guint bit = filter_bit (w * 64 + (guint)__builtin_ctzll (bits), shift);

                p[bit / 8] |= (guint8)(1u << (bit % 8));
              }
          p += (1u << shift) / 8;
        }
    }
  g_byte_array_set_size (out, (guint)(p - out->data));
}

/* Reads the group count of a search summary; *p then points at the first
 * group. */
gboolean
tes_cache_chunk_search_begin (const guint8 **p,
                              const guint8  *end,
                              guint         *n_groups)
{
  guint64 v;

  if (!get_varint (p, end, &v) || v > (guint64)(end - *p))
    return FALSE;
  *n_groups = (guint)v;
  return TRUE;
}

/* The group at *p of a search summary of a chunk of n slices; FALSE when
 * it cannot be read whole. */
gboolean
tes_cache_chunk_search_group (const guint8  **p,
                              const guint8   *end,
                              guint           n,
                              TesChunkGroup  *group)
{
  guint64 name, category, blocks;
  guint nb = tes_cache_chunk_n_blocks (n);

  if (!get_varint (p, end, &name) || !get_varint (p, end, &category) || !get_varint (p, end, &blocks) ||
      *p >= end || name > G_MAXUINT32 || category > G_MAXUINT32 ||
      blocks == 0 || (nb < 32 && blocks >> nb != 0))
    return FALSE;
  group->name = (guint32)name;
  group->category = (guint32)category;
  group->blocks = (guint32)blocks;
  group->shift = *(*p)++;
  group->filter = *p;
  if (group->shift != 0 &&
      (group->shift < TES_CACHE_FILTER_MIN_SHIFT || group->shift > TES_CACHE_FILTER_MAX_SHIFT ||
       (gsize)(end - *p) < (1u << group->shift) / 8))
    return FALSE;
  if (group->shift != 0)
    *p += (1u << group->shift) / 8;
  return TRUE;
}

/* The per-group sums of a chunk (slice_chunks.sums), for aggregates over
 * windows that hold the whole chunk: the same groups as its search summary,
 * each with its count, the sums of durations and self times, the shortest
 * and longest duration. */
static void
pack_sums (GArray     *groups,
           GByteArray *out)
{
  guint8 *p;

  g_byte_array_set_size (out, 10 + groups->len * 7 * 10);
  p = out->data;
  put_varint (&p, groups->len);
  for (guint g = 0; g < groups->len; g++)
    {
      const PackGroup *pg = &g_array_index (groups, PackGroup, g);

      put_varint (&p, pg->name);
      put_varint (&p, pg->category);
      put_varint (&p, pg->n);
      put_varint (&p, zigzag ((gint64)pg->dur));
      put_varint (&p, zigzag ((gint64)pg->self));
      put_varint (&p, zigzag (pg->min));
      put_varint (&p, zigzag (pg->max));
    }
  g_byte_array_set_size (out, (guint)(p - out->data));
}

void
tes_cache_chunk_pack_search (const TesSliceRecord *recs,
                             guint                 n,
                             const guint8         *raw_args,
                             GByteArray           *out)
{
  guint32 *of = scratch_get (SCRATCH_OF, MAX (n, 1) * sizeof (guint32), FALSE);
  g_autoptr(GArray) groups = chunk_groups (recs, n, of);

  pack_search (groups, of, n, raw_args, NULL, out);
}

void
tes_cache_chunk_pack_sums (const TesSliceRecord *recs,
                           guint                 n,
                           GByteArray           *out)
{
  guint32 *of = scratch_get (SCRATCH_OF, MAX (n, 1) * sizeof (guint32), FALSE);
  g_autoptr(GArray) groups = chunk_groups (recs, n, of);

  pack_sums (groups, out);
}

/* Both, from one pass over the records: what the writer stores. */
void
tes_cache_chunk_pack_summaries (const TesSliceRecord   *recs,
                                guint                   n,
                                const TesArgsSkeletons *skel,
                                GByteArray             *search,
                                GByteArray             *sums)
{
  guint32 *of = scratch_get (SCRATCH_OF, MAX (n, 1) * sizeof (guint32), FALSE);
  g_autoptr(GArray) groups = chunk_groups (recs, n, of);

  pack_sums (groups, sums);
  pack_search (groups, of, n, skel ? skel->texts->data : NULL, skel ? (const guint64 *)(gpointer)skel->hashes->data : NULL,
               search);
}

gboolean
tes_cache_chunk_sums_group (const guint8  **p,
                            const guint8   *end,
                            TesChunkSums   *sums)
{
  guint64 v[7];

  for (guint i = 0; i < G_N_ELEMENTS (v); i++)
    if (!get_varint (p, end, &v[i]))
      return FALSE;
  if (v[0] > G_MAXUINT32 || v[1] > G_MAXUINT32 || v[2] == 0 || v[2] > 32 * TES_CACHE_BLOCK_SLICES)
    return FALSE;
  *sums = (TesChunkSums) { (guint32)v[0], (guint32)v[1], (gint64)v[2], unzigzag (v[3]), unzigzag (v[4]),
                           unzigzag (v[5]), unzigzag (v[6]) };
  return TRUE;
}

/* NULL when a chunk's search summary and sums are the ones its n records
 * give (the filters aside, which only its args can say), else what is not */
const char *
tes_cache_chunk_check_summaries (const TesSliceRecord *recs,
                                 guint                 n,
                                 const guint8         *search,
                                 gsize                 search_len,
                                 const guint8         *sums,
                                 gsize                 sums_len)
{
  g_autoptr(GByteArray) want = g_byte_array_new ();
  guint32 *of = scratch_get (SCRATCH_OF, MAX (n, 1) * sizeof (guint32), FALSE);
  g_autoptr(GArray) groups = chunk_groups (recs, n, of);
  const guint8 *p = search, *end = search + search_len;
  guint n_groups;

  pack_sums (groups, want);
  if (sums == NULL || sums_len != want->len || memcmp (sums, want->data, want->len) != 0)
    return "its sums are not its slices'";

  if (search == NULL || !tes_cache_chunk_search_begin (&p, end, &n_groups) || n_groups != groups->len)
    return "its search summary is not its slices'";
  for (guint g = 0; g < n_groups; g++)
    {
      const PackGroup *pg = &g_array_index (groups, PackGroup, g);
      TesChunkGroup group;

      if (!tes_cache_chunk_search_group (&p, end, n, &group) ||
          group.name != pg->name || group.category != pg->category || group.blocks != pg->blocks)
        return "its search summary is not its slices'";
    }
  if (p != end)
    return "its search summary is not its slices'";

  return NULL;
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

gboolean
tes_cache_chunk_unpack_block (const guint8    *block,
                              gsize            len,
                              guint            m,
                              gint64           first_start,
                              gint64           max_end,
                              TesSliceRecord  *out,
                              const char     **why)
{
  if (!tes_cache_chunk_unpack_columns (block, len, m, first_start, TES_CACHE_COLUMNS_ALL, out, why))
    return FALSE;
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
tes_cache_chunk_unpack_columns (const guint8    *block,
                                gsize            len,
                                guint            m,
                                gint64           first_start,
                                guint            columns,
                                TesSliceRecord  *out,
                                const char     **why)
{
  const guint8 *p, *end;
  guint64 v;
  gint64 prev = 0;
  gint64 prev_parent = -1;

  if (len < DATA_HASH || len > (gsize)m * MAX_RECORD_BYTES + DATA_HASH)
    {
      *why = "is not a block of the expected size";
      return FALSE;
    }
  if ((guint32)tes_cache_hash64 (block, len - DATA_HASH, DATA_SEED) != read_u32 (block + len - DATA_HASH))
    {
      *why = "does not match its hash";
      return FALSE;
    }
  p = block;
  end = p + len - DATA_HASH;

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
  SKIP (TES_CACHE_COLUMN_PARENT);
  if (columns & TES_CACHE_COLUMN_PARENT)
    for (guint i = 0; i < m; i++)
      {
        gint64 parent;

        NEXT (TRUE);
        parent = (gint64)((guint64)prev_parent + (guint64)unzigzag (v));
        if (parent < G_MININT32 || parent > G_MAXINT32)
          goto bad;
        out[i].parent = (gint32)parent;
        prev_parent = parent;
      }
  SKIP (TES_CACHE_COLUMN_DEPTH);
  if (columns & TES_CACHE_COLUMN_DEPTH)
    for (guint i = 0; i < m; i++)
      {
        NEXT (v <= G_MAXUINT16);
        out[i].depth = (guint16)v;
      }
  SKIP (TES_CACHE_COLUMN_FLAGS);
  if (columns & TES_CACHE_COLUMN_FLAGS)
    for (guint i = 0; i < m; i++)
      {
        NEXT (v <= G_MAXUINT16);
        out[i].flags = (guint16)v;
      }
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
      gsize offset, block_len;

      if (!tes_cache_chunk_data_block (blob, len, n, b, &first_start, &max_end, &offset, &block_len) ||
          offset + block_len > len || (b == nb - 1 && offset + block_len != len))
        what = "lies outside the chunk";
      else
        tes_cache_chunk_unpack_block (blob + offset, block_len, m, first_start, max_end,
                                      &out[b * TES_CACHE_BLOCK_SLICES], &what);
      if (what != NULL)
        {
          *why = g_strdup_printf ("block %u %s", b, what);
          return FALSE;
        }
    }
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
