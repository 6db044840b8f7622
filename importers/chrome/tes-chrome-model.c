/* tes-chrome-model.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-chrome"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tes-chrome-model.h"
#include "tes-info.h"
#include "tes-varint-private.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <glib/gstdio.h>

/* The segments the parser fills and the builder reads: their string
 * tables, their life cycle and the order their slices are kept in. */

/* ---- strings ----------------------------------------------------------- */

/* Eight bytes at a time: every event's name is interned, and a Kineto
 * kernel's name runs to hundreds of bytes; those are taken 32 bytes at a
 * time by four lanes, whose multiplies do not wait on each other. Kept
 * in memory only. */
#define HASH_MIX(h, v) \
  G_STMT_START { \
    (h) = ((h) ^ (v)) * G_GUINT64_CONSTANT (0xff51afd7ed558ccd); \
    (h) ^= (h) >> 32; \
  } G_STMT_END

static inline guint64
rotate_left (guint64 v,
             guint   n)
{
  return v << n | v >> (64 - n);
}

static inline guint32
hash_bytes (const char *s,
            gsize       len)
{
  guint64 h = G_GUINT64_CONSTANT (0x9e3779b97f4a7c15) ^ len;
  gsize i = 0;

  if (len >= 32)
    {
      guint64 h1 = h, h2 = ~h, h3 = h * 3, h4 = h * 5;

      for (; i + 32 <= len; i += 32)
        {
          guint64 v[4];

          memcpy (v, s + i, 32);
          HASH_MIX (h1, v[0]);
          HASH_MIX (h2, v[1]);
          HASH_MIX (h3, v[2]);
          HASH_MIX (h4, v[3]);
        }
      h = h1 ^ rotate_left (h2, 17) ^ rotate_left (h3, 31) ^ rotate_left (h4, 47);
    }
  for (; i + 8 <= len; i += 8)
    {
      guint64 v;

      memcpy (&v, s + i, 8);
      HASH_MIX (h, v);
    }
  /* the last one to seven bytes in one word: a name such as "Conv2D" is
   * no longer a chain of six dependent multiplies */
  if (i < len)
    {
      guint64 v = 0;

      memcpy (&v, s + i, len - i);
      HASH_MIX (h, v);
    }
  h ^= h >> 29;
  h *= G_GUINT64_CONSTANT (0xc4ceb9fe1a85ec53);
  h ^= h >> 32;

  return (guint32)h | 1;
}

void
tes_chrome_strings_init (TesChromeStrings *strings)
{
  strings->chunk = g_string_chunk_new (64 * 1024);
  strings->strs = g_ptr_array_new ();
  strings->n_slots = 256;
  strings->slots = g_new0 (TesChromeStringSlot, strings->n_slots);
  strings->recent = g_new0 (TesChromeShortString, TES_CHROME_SHORT_STRINGS);

  /* id 0 is "no string" */
  g_ptr_array_add (strings->strs, NULL);
}

void
tes_chrome_strings_clear (TesChromeStrings *strings)
{
  g_clear_pointer (&strings->chunk, g_string_chunk_free);
  g_clear_pointer (&strings->strs, g_ptr_array_unref);
  g_clear_pointer (&strings->slots, g_free);
  g_clear_pointer (&strings->recent, g_free);
}

static void
strings_grow (TesChromeStrings *strings)
{
  guint n = strings->n_slots * 2;
  TesChromeStringSlot *slots = g_new0 (TesChromeStringSlot, n);

  /* each slot holds its string's hash: placed again without rehashing */
  for (guint s = 0; s < strings->n_slots; s++)
    {
      const TesChromeStringSlot *old = &strings->slots[s];
      guint32 i = old->hash & (n - 1);

      if (old->id == 0)
        continue;
      while (slots[i].id)
        i = (i + 1) & (n - 1);
      slots[i] = *old;
    }

  g_free (strings->slots);
  strings->slots = slots;
  strings->n_slots = n;
}

static guint32 intern (TesChromeStrings *strings,
                       const char       *text,
                       gsize             len);

/* Names, categories and ids are mostly short, and a few of them make most
 * events: such a string's bytes (two words) find it among those met
 * lately without hashing it whole or comparing it again. */
guint32
tes_chrome_strings_intern (TesChromeStrings *strings,
                           const char       *text,
                           gsize             len)
{
  guint64 head = 0, tail = 0;
  TesChromeShortString *r;

  if (len > 16)
    return intern (strings, text, len);
  /* every byte in head and tail, read without a call to memcpy () for a
   * length it does not know: two words that may overlap, two halves that
   * may overlap, or three bytes that cover 1 to 3 */
  if (len >= 8)
    {
      memcpy (&head, text, 8);
      memcpy (&tail, text + len - 8, 8);
    }
  else if (len >= 4)
    {
      guint32 lo, hi;

      memcpy (&lo, text, 4);
      memcpy (&hi, text + len - 4, 4);
      head = lo | (guint64)hi << 32;
    }
  else if (len > 0)
    head = (guint8)text[0] | (guint)(guint8)text[len / 2] << 8 | (guint)(guint8)text[len - 1] << 16;
  r = &strings->recent[(((head ^ tail * 31) + len) * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)) >> 56];
  if (r->id == 0 || r->head != head || r->tail != tail || r->len != len)
    *r = (TesChromeShortString) { head, tail, (guint32)len, intern (strings, text, len) };
  return r->id;
}

static guint32
intern (TesChromeStrings *strings,
        const char       *text,
        gsize             len)
{
  guint32 h = hash_bytes (text, len);
  guint32 mask = strings->n_slots - 1;
  guint32 i = h & mask;
  guint32 id;

  /* the hash and length are in the slot: one line read for most misses */
  while ((id = strings->slots[i].id))
    {
      if (strings->slots[i].hash == h && strings->slots[i].len == len &&
          memcmp (g_ptr_array_index (strings->strs, id), text, len) == 0)
        return id;
      i = (i + 1) & mask;
    }

  id = strings->strs->len;
  g_ptr_array_add (strings->strs, g_string_chunk_insert_len (strings->chunk, text, len));
  strings->slots[i] = (TesChromeStringSlot) { h, (guint32)len, id };

  if (strings->strs->len * 2 > strings->n_slots)
    strings_grow (strings);

  return id;
}

/* ---- segments ---------------------------------------------------------- */

static guint
thread_hash (gconstpointer p)
{
  const TesChromeThread *t = p;

  return (guint)(t->pid * 1000003 + t->tid * 7919 + t->key_flags);
}

static gboolean
thread_equal (gconstpointer a,
              gconstpointer b)
{
  const TesChromeThread *ta = a;
  const TesChromeThread *tb = b;

  return ta->pid == tb->pid && ta->tid == tb->tid && ta->key_flags == tb->key_flags;
}

static guint
process_hash (gconstpointer p)
{
  const TesChromeProcess *pr = p;

  return (guint)(pr->pid * 1000003 + pr->key_flags);
}

static gboolean
process_equal (gconstpointer a,
               gconstpointer b)
{
  const TesChromeProcess *pa = a;
  const TesChromeProcess *pb = b;

  return pa->pid == pb->pid && pa->key_flags == pb->key_flags;
}

static void
thread_free (gpointer data)
{
  TesChromeThread *t = data;

  g_clear_pointer (&t->slices, g_array_unref);
  if (t->args)
    g_string_free (t->args, TRUE);
  g_clear_pointer (&t->open, g_array_unref);
  g_clear_pointer (&t->orphans, g_array_unref);
  g_free (t->spill_blocks);
  g_free (t);
}

static void
counter_free (gpointer data)
{
  TesChromeCounter *c = data;

  g_free (c->arg);
  g_clear_pointer (&c->values, g_array_unref);
  g_free (c);
}

TesChromeSegment *
tes_chrome_segment_new (guint index)
{
  TesChromeSegment *seg = g_new0 (TesChromeSegment, 1);

  seg->index = index;
  tes_chrome_strings_init (&seg->strings);
  seg->threads = g_hash_table_new (thread_hash, thread_equal);
  seg->thread_list = g_ptr_array_new_with_free_func (thread_free);
  seg->processes = g_hash_table_new (process_hash, process_equal);
  seg->process_list = g_ptr_array_new_with_free_func (g_free);
  seg->instants = g_array_new (FALSE, FALSE, sizeof (TesChromeInstant));
  seg->counters = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  seg->counter_list = g_ptr_array_new_with_free_func (counter_free);
  seg->asyncs = g_array_new (FALSE, FALSE, sizeof (TesChromeAsync));
  seg->flows = g_array_new (FALSE, FALSE, sizeof (TesChromeFlowEvent));
  seg->flow_points = g_array_new (FALSE, FALSE, sizeof (TesChromeFlowEvent));
  seg->misc = g_string_new (NULL);
  seg->info = tes_info_list_new ();
  seg->thread_names = g_array_new (FALSE, FALSE, sizeof (guint32));
  seg->max_ts = G_MININT64;

  return seg;
}

void
tes_chrome_segment_free (TesChromeSegment *seg)
{
  if (seg == NULL)
    return;

  tes_chrome_strings_clear (&seg->strings);
  g_clear_pointer (&seg->threads, g_hash_table_unref);
  g_clear_pointer (&seg->thread_list, g_ptr_array_unref);
  g_clear_pointer (&seg->processes, g_hash_table_unref);
  g_clear_pointer (&seg->process_list, g_ptr_array_unref);
  g_clear_pointer (&seg->instants, g_array_unref);
  g_clear_pointer (&seg->counters, g_hash_table_unref);
  g_clear_pointer (&seg->counter_list, g_ptr_array_unref);
  g_clear_pointer (&seg->asyncs, g_array_unref);
  g_clear_pointer (&seg->flows, g_array_unref);
  g_clear_pointer (&seg->flow_points, g_array_unref);
  if (seg->misc)
    g_string_free (seg->misc, TRUE);
  g_clear_pointer (&seg->info, g_ptr_array_unref);
  g_clear_pointer (&seg->thread_names, g_array_unref);
  g_free (seg);
}

void
tes_chrome_segment_warn (TesChromeSegment *seg,
                         TesChromeWarning  warning,
                         guint64           offset)
{
  TesChromeWarningCount *w = &seg->warnings[warning];

  if (w->count++ == 0)
    w->first_offset = offset;
}

/* Start order, the longer of two slices with the same start first (it
 * encloses the other): the order the cache writer nests in. The sort is
 * stable, so equal slices keep their file order. */
int
tes_chrome_slice_compare (gconstpointer a,
                          gconstpointer b)
{
  const TesChromeSlice *sa = a;
  const TesChromeSlice *sb = b;

  if (sa->start != sb->start)
    return sa->start < sb->start ? -1 : 1;
  return (sa->dur < sb->dur) - (sa->dur > sb->dur);
}

/* Sorts an array by compare. Most are in order already and most of the
 * rest nearly: a B/E slice is added at its E, after the slices it holds.
 * So each element found out of order is moved back to its place (a binary
 * search, then one move of the elements it passes), as long as the
 * elements moved stay fewer than the array's; past that, a merge sort of
 * the whole. Equal elements keep their order either way. */
void
tes_chrome_sort_nearly (GArray       *array,
                        GCompareFunc  compare)
{
  gsize size = g_array_get_element_size (array);
  guint8 held[64];
  guint64 moved = 0;

  for (guint i = 1; i < array->len; i++)
    {
      guint8 *x = (guint8 *)array->data + (gsize)i * size;
      guint lo = 0, hi = i;

      if (compare (x - size, x) <= 0)
        continue;

      /* the first element after x in the sorted prefix */
      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;

          if (compare (array->data + (gsize)mid * size, x) <= 0)
            lo = mid + 1;
          else
            hi = mid;
        }
      moved += i - lo;
      if (moved > array->len || size > sizeof held)
        {
          g_array_sort (array, compare);
          return;
        }
      memcpy (held, x, size);
      memmove (array->data + (gsize)(lo + 1) * size, array->data + (gsize)lo * size, (gsize)(i - lo) * size);
      memcpy (array->data + (gsize)lo * size, held, size);
    }
}

typedef struct
{
  gint64  ts;
  guint64 offset;
} Stamp;

G_STATIC_ASSERT (G_STRUCT_OFFSET (TesChromeAsync, offset) == G_STRUCT_OFFSET (Stamp, offset));
G_STATIC_ASSERT (G_STRUCT_OFFSET (TesChromeFlowEvent, offset) == G_STRUCT_OFFSET (Stamp, offset));

int
tes_chrome_stamp_compare (gconstpointer pa,
                          gconstpointer pb)
{
  const Stamp *a = pa;
  const Stamp *b = pb;

  if (a->ts != b->ts)
    return a->ts < b->ts ? -1 : 1;
  return (a->offset > b->offset) - (a->offset < b->offset);
}

/* Sorts an array of async or flow events unless it is in order. */
void
tes_chrome_stamps_sort (GArray *stamps)
{
  tes_chrome_sort_nearly (stamps, tes_chrome_stamp_compare);
}

/* Run by each parsing thread on its own slices and flow events once its
 * part of the file is done, so the sorting is spread over the threads
 * too: the flows' match then merges the segments' runs. */
void
tes_chrome_segment_sort (TesChromeSegment *seg)
{
  for (guint i = 0; i < seg->thread_list->len; i++)
    {
      TesChromeThread *t = g_ptr_array_index (seg->thread_list, i);

      tes_chrome_sort_nearly (t->slices, tes_chrome_slice_compare);
      t->n_sorted = t->slices->len;
    }
  tes_chrome_stamps_sort (seg->flows);
  tes_chrome_stamps_sort (seg->flow_points);
}

/* ---- spilling ------------------------------------------------------------- */

struct _TesChromeSpill
{
  int      fd;
  char    *path;
  GMutex   lock;
  guint64  end;
  guint64  slices;      /* how many, and their packed bytes */
  guint64  packed;
  GError  *error;       /* the first failure to read back */
};

static guint64 spill_min_size = TES_CHROME_SPLIT_MIN_SIZE;
static guint64 max_piece_size = TES_CHROME_MAX_PIECE_SIZE;

/* The most JSON a piece holds (TES_CHROME_MAX_PIECE_SIZE); tests make it
 * smaller, to cut and roll small files. */
guint64
tes_chrome_max_piece_size (void)
{
  return max_piece_size;
}

void
tes_chrome_set_max_piece_size (guint64 bytes)
{
  max_piece_size = MAX (bytes, 1);
}

/* Files from this size on (and cut for several threads) spill; tests
 * change it to compare both ways. */
guint64
tes_chrome_spill_min_size (void)
{
  return spill_min_size;
}

void
tes_chrome_set_spill_min_size (guint64 bytes)
{
  spill_min_size = bytes;
}

/* glibc keeps big freed arrays in its arenas (its mmap threshold grows
 * with what was freed), and an arena of a parsing thread never serves the
 * builder's thread: hands them back to the system once the parse is over.
 * Not more often: each page handed back and asked for again costs a page
 * fault, and trimming after each spilled piece and each written thread
 * took a 1M-event import from 0.55 s to 0.8-1.0 s for a peak 2-4 MB lower
 * (docs/benchmarks.md). */
void
tes_chrome_give_back_memory (void)
{
#ifdef __GLIBC__
  malloc_trim (0);
#endif
}

/* NULL when no file can be made there: the slices then stay in memory. */
TesChromeSpill *
tes_chrome_spill_new (const char *near)
{
  TesChromeSpill *spill;
  char *path = g_strdup_printf ("%s.spill-XXXXXX", near);
  int fd = g_mkstemp (path);

  if (fd < 0)
    {
      g_free (path);
      return NULL;
    }
  /* nobody else ever needs it, and it goes with the process */
  g_unlink (path);

  spill = g_new0 (TesChromeSpill, 1);
  spill->fd = fd;
  spill->path = path;
  g_mutex_init (&spill->lock);

  return spill;
}

void
tes_chrome_spill_free (TesChromeSpill *spill)
{
  if (spill == NULL)
    return;

  g_debug ("%s: %" G_GUINT64_FORMAT " slices in %" G_GUINT64_FORMAT " bytes, then their args in %" G_GUINT64_FORMAT,
           spill->path, spill->slices, spill->packed, spill->end - spill->packed);
  close (spill->fd);
  g_free (spill->path);
  g_mutex_clear (&spill->lock);
  g_clear_error (&spill->error);
  g_free (spill);
}

/* what the spill file's big reads and writes go through */
#define SPILL_BOUNCE (256 * 1024)

/* Reads or writes len bytes at at. With bounce (SPILL_BOUNCE bytes), a
 * part at a time goes through it. The kernel's copy out of a large array
 * costs far more than out of a small buffer it uses again (on this
 * project's virtual machines, 9 times for 400 MB, docs/benchmarks.md): writing
 * a 10M-event trace's 400 MB of spill straight from the threads' arrays
 * took 0.50 s of CPU, through a buffer 0.15 s, the copy into it included. */
static gboolean
spill_io (int      fd,
          gboolean write,
          gpointer buf,
          gsize    len,
          guint64  at,
          guint8  *bounce)
{
  while (len > 0)
    {
      gsize part = bounce != NULL ? MIN (len, SPILL_BOUNCE) : len;
      gpointer through = bounce != NULL ? bounce : buf;
      gssize n;

      if (write && bounce != NULL)
        memcpy (bounce, buf, part);
      n = write ? pwrite (fd, through, part, (off_t)at) : pread (fd, through, part, (off_t)at);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      if (!write && bounce != NULL)
        memcpy (buf, bounce, n);
      buf = (guint8 *)buf + n;
      len -= n;
      at += n;
    }

  return TRUE;
}

/* ---- slices packed for the spill file ----------------------------------- */

/* A spilled slice takes 40 bytes in memory but about 10 packed: each
 * field a varint, the start as the change from the slice before (they are
 * sorted), the args offset as the change from where the texts before
 * ended. Written as they are, they were three quarters of the spill file,
 * and on a virtual machine whose free memory goes back to its host, each
 * fresh page of the page cache costs more than packing what fills it
 * (docs/benchmarks.md). Blocks of RUN_BLOCK slices start afresh, so that
 * a run reads and unpacks one block at a time. */
#define RUN_BLOCK 4096

gsize
tes_chrome_pack_slices (const TesChromeSlice *s,
                        guint                 n,
                        guint8               *out)
{
  guint8 *p = out;
  guint64 prev_start = 0;
  guint64 args_end = 0;

  for (guint i = 0; i < n; i++)
    {
      put_varint (&p, zigzag ((gint64)((guint64)s[i].start - prev_start)));
      put_varint (&p, zigzag (s[i].dur));
      put_varint (&p, s[i].name);
      put_varint (&p, s[i].cat);
      put_varint (&p, s[i].args_len);
      put_varint (&p, zigzag ((gint64)(s[i].args_off - args_end)));
      put_varint (&p, s[i].flags | (guint32)s[i].reserved << 16);
      prev_start = (guint64)s[i].start;
      args_end = s[i].args_off + s[i].args_len;
    }

  return p - out;
}

/* A field of at most 32 bits; most take one byte. */
static inline gboolean
get_small (const guint8 **p,
           const guint8  *end,
           guint32       *v)
{
  guint64 w;

  if (G_LIKELY (*p < end && **p < 0x80))
    {
      *v = *(*p)++;
      return TRUE;
    }
  if (!get_varint (p, end, &w) || w > G_MAXUINT32)
    return FALSE;
  *v = (guint32)w;
  return TRUE;
}

/* The n slices of a block packed by tes_chrome_pack_slices (), which must
 * end at end. */
gboolean
tes_chrome_unpack_slices (const guint8   *p,
                          const guint8   *end,
                          TesChromeSlice *s,
                          guint           n)
{
  guint64 prev_start = 0;
  guint64 args_end = 0;

  for (guint i = 0; i < n; i++)
    {
      guint64 start, dur, args_off;
      guint32 flags;

      if (!get_varint (&p, end, &start) || !get_varint (&p, end, &dur) ||
          !get_small (&p, end, &s[i].name) || !get_small (&p, end, &s[i].cat) ||
          !get_small (&p, end, &s[i].args_len) || !get_varint (&p, end, &args_off) ||
          !get_small (&p, end, &flags))
        return FALSE;
      s[i].start = (gint64)(prev_start + (guint64)unzigzag (start));
      s[i].dur = unzigzag (dur);
      s[i].args_off = args_end + (guint64)unzigzag (args_off);
      s[i].flags = (guint16)flags;
      s[i].reserved = (guint16)(flags >> 16);
      prev_start = (guint64)s[i].start;
      args_end = s[i].args_off + s[i].args_len;
    }

  return p == end;
}

/* ---- arrays kept from piece to piece -------------------------------------- */

/* Smaller arrays are not worth keeping: they grow back in a few steps. */
#define RECYCLE_MIN_ROOM 1024

typedef struct
{
  GArray  *slices;
  guint    room;
  GString *args;
  /* the thread they were last grown for */
  gint64   pid;
  gint64   tid;
  guint    key_flags;
} Recycled;

struct _TesChromeRecycle
{
  GArray     *items;    /* Recycled; the last put is taken first */
  GByteArray *packed;   /* a piece's slices packed for the spill file */
  guint8     *bounce;   /* what they and the texts are written through */
};

TesChromeRecycle *
tes_chrome_recycle_new (void)
{
  TesChromeRecycle *bin = g_new0 (TesChromeRecycle, 1);

  bin->items = g_array_new (FALSE, FALSE, sizeof (Recycled));
  bin->packed = g_byte_array_new ();
  bin->bounce = g_malloc (SPILL_BOUNCE);
  return bin;
}

static void
recycled_free (Recycled *r)
{
  g_array_unref (r->slices);
  g_string_free (r->args, TRUE);
}

void
tes_chrome_recycle_free (TesChromeRecycle *bin)
{
  if (bin == NULL)
    return;

  for (guint i = 0; i < bin->items->len; i++)
    recycled_free (&g_array_index (bin->items, Recycled, i));
  g_array_unref (bin->items);
  g_byte_array_unref (bin->packed);
  g_free (bin->bounce);
  g_free (bin);
}

/* The bin keeps no more than the last piece gave it: a piece whose
 * threads took fewer does not make it grow. */
static void
recycle_trim (TesChromeRecycle *bin,
              guint             keep)
{
  guint drop;

  if (bin == NULL || bin->items->len <= keep)
    return;

  drop = bin->items->len - keep;
  for (guint i = 0; i < drop; i++)
    recycled_free (&g_array_index (bin->items, Recycled, i));
  g_array_remove_range (bin->items, 0, drop);
}

/* A thread's arrays start empty, grown already when the bin holds some:
 * the ones the same thread had in the piece before, if it had any. A
 * thread's share of a piece changes little from piece to piece; taken in
 * turn, a busy thread's arrays went to a quiet one and were grown again,
 * by copies into fresh pages, for the busy one (a fault every 4 KB). */
void
tes_chrome_thread_new_arrays (TesChromeThread  *t,
                              TesChromeRecycle *bin)
{
  if (bin != NULL && bin->items->len > 0)
    {
      guint take = bin->items->len - 1;
      Recycled *r;

      for (guint i = 0; i < bin->items->len; i++)
        {
          r = &g_array_index (bin->items, Recycled, i);
          if (r->pid == t->pid && r->tid == t->tid && r->key_flags == t->key_flags)
            {
              take = i;
              break;
            }
        }
      r = &g_array_index (bin->items, Recycled, take);
      t->slices = r->slices;
      t->slices_room = r->room;
      t->args = r->args;
      g_array_remove_index_fast (bin->items, take);
      return;
    }

  t->slices = g_array_new (FALSE, FALSE, sizeof (TesChromeSlice));
  t->slices_room = 0;
  t->args = g_string_new (NULL);
}

/* A thread's arrays, emptied, to the bin (or freed: with no bin, or small
 * ones), and new empty ones in their place. Returns whether the bin took
 * them. */
gboolean
tes_chrome_thread_release_arrays (TesChromeThread  *t,
                                  TesChromeRecycle *bin)
{
  gboolean kept = bin != NULL && t->slices_room >= RECYCLE_MIN_ROOM;

  if (kept)
    {
      Recycled r = { t->slices, t->slices_room, t->args, t->pid, t->tid, t->key_flags };

      g_array_set_size (r.slices, 0);
      g_string_truncate (r.args, 0);
      g_array_append_val (bin->items, r);
    }
  else
    {
      g_array_unref (t->slices);
      g_string_free (t->args, TRUE);
    }
  tes_chrome_thread_new_arrays (t, NULL);

  return kept;
}

/* Run by the parsing thread once its piece is parsed and sorted. A thread
 * that cannot be written (a full disk) simply stays in memory. */
void
tes_chrome_spill_segment (TesChromeSpill   *spill,
                          TesChromeSegment *seg)
{
  /* without the parsing thread's bin, a bin of its own lends the
   * buffers; the arrays are not kept */
  TesChromeRecycle *own = seg->recycle == NULL ? tes_chrome_recycle_new () : NULL;
  GByteArray *packed = (own != NULL ? own : seg->recycle)->packed;
  guint8 *bounce = (own != NULL ? own : seg->recycle)->bounce;
  guint kept = 0;

  for (guint i = 0; i < seg->thread_list->len; i++)
    {
      TesChromeThread *t = g_ptr_array_index (seg->thread_list, i);
      const TesChromeSlice *s = (const TesChromeSlice *)t->slices->data;
      guint n = t->slices->len;
      guint n_blocks = (n + RUN_BLOCK - 1) / RUN_BLOCK;
      gsize bytes = 0;
      guint64 at;

      if (t->slices->len == 0)
        {
          /* a thread of instants or flows only may have taken grown
           * arrays from the bin: they go back */
          if (t->args->len == 0 && t->slices_room >= RECYCLE_MIN_ROOM)
            kept += tes_chrome_thread_release_arrays (t, seg->recycle);
          continue;
        }

      /* a piece's thread holds far fewer than the 60M slices that
       * would not fit one array */
      g_free (t->spill_blocks);
      t->spill_blocks = g_new (guint32, n_blocks);
      for (guint b = 0; b < n_blocks; b++)
        {
          guint first = b * RUN_BLOCK;
          guint count = MIN (n - first, RUN_BLOCK);

          g_byte_array_set_size (packed, (guint)(bytes + (gsize)count * TES_CHROME_PACKED_SLICE_MAX));
          t->spill_blocks[b] = (guint32)tes_chrome_pack_slices (s + first, count, packed->data + bytes);
          bytes += t->spill_blocks[b];
        }

      g_mutex_lock (&spill->lock);
      at = spill->end;
      spill->end += bytes + t->args->len;
      spill->slices += n;
      spill->packed += bytes;
      g_mutex_unlock (&spill->lock);

      if (!spill_io (spill->fd, TRUE, packed->data, bytes, at, bounce) ||
          !spill_io (spill->fd, TRUE, t->args->str, t->args->len, at + bytes, bounce))
        {
          g_clear_pointer (&t->spill_blocks, g_free);
          continue;
        }

      t->spill = spill;
      t->spill_at = at;
      t->spill_n = n;
      t->spill_args = t->args->len;
      t->spill_args_at = at + bytes;
      kept += tes_chrome_thread_release_arrays (t, seg->recycle);
    }
  recycle_trim (seg->recycle, kept);
  tes_chrome_recycle_free (own);
}

static void
spill_failed (TesChromeSpill *spill)
{
  int errsv = errno;

  if (spill->error == NULL)
    g_set_error (&spill->error, G_IO_ERROR, g_io_error_from_errno (errsv),
                 _("cannot read back the parsed events from %s: %s"), spill->path, g_strerror (errsv));
}

/* Brings a thread's slices and args back before anything reads them all
 * (only the builder's thread does). Slices added while it was spilled (by
 * the merge of the pieces) follow the spilled ones, and args offsets count
 * the spilled texts first, so both keep their meaning. */
void
tes_chrome_thread_load (TesChromeThread *t)
{
  TesChromeSpill *spill = t->spill;
  TesChromeSpillRun *run;
  const TesChromeSlice *block;
  GArray *slices;
  GString *args;
  g_autofree guint8 *bounce = NULL;
  guint n, done = 0;
  gboolean read_back;

  if (spill == NULL)
    return;

  slices = g_array_sized_new (FALSE, FALSE, sizeof (TesChromeSlice), t->spill_n + t->slices->len);
  args = g_string_sized_new (t->spill_args + t->args->len);
  g_array_set_size (slices, t->spill_n);
  g_string_set_size (args, t->spill_args);
  /* the slices as a run reads them, a block at a time */
  run = tes_chrome_spill_run_new (t);
  while ((block = tes_chrome_spill_run_next (run, &n)) != NULL)
    {
      memcpy (&g_array_index (slices, TesChromeSlice, done), block, (gsize)n * sizeof (TesChromeSlice));
      done += n;
    }
  tes_chrome_spill_run_free (run);
  bounce = g_malloc (SPILL_BOUNCE);
  read_back = done == t->spill_n && spill_io (spill->fd, FALSE, args->str, t->spill_args, t->spill_args_at, bounce);
  if (!read_back)
    {
      spill_failed (spill);
      memset (slices->data, 0, (gsize)t->spill_n * sizeof (TesChromeSlice));
      memset (args->str, ' ', t->spill_args);
    }
  g_array_append_vals (slices, t->slices->data, t->slices->len);
  g_string_append_len (args, t->args->str, t->args->len);

  g_array_unref (t->slices);
  t->slices = slices;
  t->slices_room = 0;
  g_string_free (t->args, TRUE);
  t->args = args;
  t->spill = NULL;
  g_clear_pointer (&t->spill_blocks, g_free);
}

/* Once its thread is written, nothing reads a part's spilled slices and
 * texts again: their pages of the page cache are freed at once, for the
 * cache file and the build's memory to take while they are still warm
 * (memory left free a while is handed back to the host of a virtual
 * machine, and faulted in again at a high cost). 10M: 2.93 -> 2.78 s. */
void
tes_chrome_thread_drop_spilled (TesChromeThread *t)
{
  if (t->spill == NULL)
    return;

#ifdef FALLOC_FL_PUNCH_HOLE
  /* where the file system cannot, they are freed with the file */
  (void)fallocate (t->spill->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)t->spill_at,
                   (off_t)(t->spill_args_at + t->spill_args - t->spill_at));
#endif
}

/* ---- reading a spilled thread in order ----------------------------------- */

/* 160 KB of slices at a time (RUN_BLOCK), and 256 KB of their args texts:
 * a thread merged from its parts holds this much per part, not the part. */
#define ARGS_WINDOW (256 * 1024)

struct _TesChromeSpillRun
{
  TesChromeThread *thread;      /* spilled, and left so while the run reads it */
  guint64          slices_at;   /* the next block to read */
  guint            next_block;
  guint            left;        /* slices not read yet */
  guint8          *packed;      /* the block as read */
  TesChromeSlice  *block;       /* and unpacked */
  char            *window;      /* args texts [window_start, window_start + window_len) */
  gsize            window_alloc;
  guint64          window_start;
  gsize            window_len;
  GString         *one;         /* a text behind the window */
};

/* For a spilled thread (slices sorted when they were spilled). */
TesChromeSpillRun *
tes_chrome_spill_run_new (TesChromeThread *t)
{
  TesChromeSpillRun *run;
  guint32 packed_max = 0;

  g_return_val_if_fail (t->spill != NULL, NULL);

  run = g_new0 (TesChromeSpillRun, 1);
  run->thread = t;
  run->slices_at = t->spill_at;
  run->left = t->spill_n;
  /* as big as the part's biggest block: a run per part is open at once
   * (400 at 100M events), each block about 40 KB of its 287 KB at most */
  for (guint b = 0; (gsize)b * RUN_BLOCK < t->spill_n; b++)
    packed_max = MAX (packed_max, t->spill_blocks[b]);
  run->packed = g_malloc (MAX (packed_max, 1));
  run->block = g_new (TesChromeSlice, MIN (RUN_BLOCK, MAX (t->spill_n, 1)));
  run->one = g_string_new (NULL);

  return run;
}

void
tes_chrome_spill_run_free (TesChromeSpillRun *run)
{
  if (run == NULL)
    return;

  g_free (run->packed);
  g_free (run->block);
  g_free (run->window);
  g_string_free (run->one, TRUE);
  g_free (run);
}

/* The next block of slices (*n of them), NULL at the end or when the file
 * cannot be read (tes_chrome_spill_check() then says so). */
const TesChromeSlice *
tes_chrome_spill_run_next (TesChromeSpillRun *run,
                           guint             *n)
{
  guint count = MIN (run->left, RUN_BLOCK);
  guint32 bytes;

  *n = 0;
  if (count == 0)
    return NULL;

  bytes = run->thread->spill_blocks[run->next_block];
  if (!spill_io (run->thread->spill->fd, FALSE, run->packed, bytes, run->slices_at, NULL))
    goto failed;
  if (!tes_chrome_unpack_slices (run->packed, run->packed + bytes, run->block, count))
    {
      errno = EIO;
      goto failed;
    }

  run->slices_at += bytes;
  run->next_block++;
  run->left -= count;
  *n = count;

  return run->block;

failed:
  spill_failed (run->thread->spill);
  run->left = 0;
  return NULL;
}

/* One slice's args text, valid until the next call. Slices in start order
 * meet their texts mostly in file order, so the window moves forwards
 * (starting a little before the text, for the children a tracer writes
 * before their parent); a text behind it is read on its own
 * (tes_chrome_thread_args()). */
const char *
tes_chrome_spill_run_args (TesChromeSpillRun *run,
                           guint64            args_off,
                           guint32            args_len)
{
  TesChromeThread *t = run->thread;
  guint64 start;
  gsize len;

  if (args_len == 0 || args_off + args_len > t->spill_args)
    return "";

  if (args_off >= run->window_start && args_off + args_len <= run->window_start + run->window_len)
    return run->window + (args_off - run->window_start);

  if (args_off < run->window_start)
    return tes_chrome_thread_args (t, args_off, args_len, run->one);

  start = args_off - MIN (args_off, ARGS_WINDOW / 8);
  len = MAX ((gsize)(args_off - start) + args_len, ARGS_WINDOW);
  len = MIN (len, t->spill_args - start);
  if (len > run->window_alloc)
    {
      run->window = g_realloc (run->window, len);
      run->window_alloc = len;
    }
  if (!spill_io (t->spill->fd, FALSE, run->window, len, t->spill_args_at + start, NULL))
    {
      spill_failed (t->spill);
      run->window_len = 0;
      return "";
    }
  run->window_start = start;
  run->window_len = len;

  return run->window + (args_off - start);
}

guint
tes_chrome_thread_n_slices (const TesChromeThread *t)
{
  return t->slices->len + (t->spill != NULL ? t->spill_n : 0);
}

/* Where the next args text added to a thread starts (spilled or not). */
gsize
tes_chrome_thread_args_end (const TesChromeThread *t)
{
  return t->args->len + (t->spill != NULL ? t->spill_args : 0);
}

/* One event's args text, read from the spill file when its thread waits
 * there (into buf), so that a look at a few events loads nothing. */
const char *
tes_chrome_thread_args (TesChromeThread *t,
                        guint64          args_off,
                        guint32          args_len,
                        GString         *buf)
{
  gsize spilled = t->spill != NULL ? t->spill_args : 0;

  if (args_off >= spilled)
    return t->args->str + (args_off - spilled);

  g_string_set_size (buf, args_len);
  if (!spill_io (t->spill->fd, FALSE, buf->str, args_len, t->spill_args_at + args_off, NULL))
    {
      spill_failed (t->spill);
      g_string_truncate (buf, 0);
    }

  return buf->str;
}

/* Whether every read back worked. */
gboolean
tes_chrome_spill_check (TesChromeSpill  *spill,
                        GError         **error)
{
  if (spill == NULL || spill->error == NULL)
    return TRUE;

  g_propagate_error (error, g_error_copy (spill->error));
  return FALSE;
}

/* ---- the whole file ---------------------------------------------------- */

TesChromeTrace *
tes_chrome_trace_new (void)
{
  TesChromeTrace *trace = g_new0 (TesChromeTrace, 1);

  trace->segments = g_ptr_array_new_with_free_func ((GDestroyNotify)tes_chrome_segment_free);
  trace->spills = g_ptr_array_new_with_free_func ((GDestroyNotify)tes_chrome_spill_free);
  return trace;
}

void
tes_chrome_trace_free (TesChromeTrace *trace)
{
  if (trace == NULL)
    return;

  g_ptr_array_unref (trace->segments);
  g_ptr_array_unref (trace->spills);
  g_free (trace);
}
