/* tes-chrome-model.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-chrome"

#include "config.h"

#include "tes-chrome-model.h"
#include "tes-info.h"

#include <string.h>

/* The segments the parser fills and the builder reads: their string
 * tables, their life cycle and the order their slices are kept in. */

/* ---- strings ----------------------------------------------------------- */

static inline guint32
hash_bytes (const char *s,
            gsize       len)
{
  guint32 h = 2166136261u;

  for (gsize i = 0; i < len; i++)
    h = (h ^ (guchar)s[i]) * 16777619u;

  return h | 1;
}

void
tes_chrome_strings_init (TesChromeStrings *strings)
{
  strings->chunk = g_string_chunk_new (64 * 1024);
  strings->strs = g_ptr_array_new ();
  strings->lens = g_array_new (FALSE, FALSE, sizeof (guint32));
  strings->hashes = g_array_new (FALSE, FALSE, sizeof (guint32));
  strings->n_slots = 256;
  strings->slots = g_new0 (guint32, strings->n_slots);

  /* id 0 is "no string" */
  g_ptr_array_add (strings->strs, NULL);
  g_array_set_size (strings->lens, 1);
  g_array_set_size (strings->hashes, 1);
}

void
tes_chrome_strings_clear (TesChromeStrings *strings)
{
  g_clear_pointer (&strings->chunk, g_string_chunk_free);
  g_clear_pointer (&strings->strs, g_ptr_array_unref);
  g_clear_pointer (&strings->lens, g_array_unref);
  g_clear_pointer (&strings->hashes, g_array_unref);
  g_clear_pointer (&strings->slots, g_free);
}

static void
strings_grow (TesChromeStrings *strings)
{
  guint n = strings->n_slots * 2;
  guint32 *slots = g_new0 (guint32, n);

  for (guint id = 1; id < strings->strs->len; id++)
    {
      guint32 i = g_array_index (strings->hashes, guint32, id) & (n - 1);

      while (slots[i])
        i = (i + 1) & (n - 1);
      slots[i] = id;
    }

  g_free (strings->slots);
  strings->slots = slots;
  strings->n_slots = n;
}

guint32
tes_chrome_strings_intern (TesChromeStrings *strings,
                           const char       *text,
                           gsize             len)
{
  guint32 h = hash_bytes (text, len);
  guint32 mask = strings->n_slots - 1;
  guint32 i = h & mask;
  guint32 id;

  while ((id = strings->slots[i]))
    {
      if (g_array_index (strings->hashes, guint32, id) == h &&
          g_array_index (strings->lens, guint32, id) == len &&
          memcmp (g_ptr_array_index (strings->strs, id), text, len) == 0)
        return id;
      i = (i + 1) & mask;
    }

  id = strings->strs->len;
  g_ptr_array_add (strings->strs, g_string_chunk_insert_len (strings->chunk, text, len));
  {
    guint32 l = (guint32)len;
    g_array_append_val (strings->lens, l);
    g_array_append_val (strings->hashes, h);
  }
  strings->slots[i] = id;

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
  seg->samples = g_array_new (FALSE, FALSE, sizeof (TesChromeSample));
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
  g_clear_pointer (&seg->samples, g_array_unref);
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

static gboolean
slices_sorted (GArray *slices)
{
  const TesChromeSlice *s = (const TesChromeSlice *)(gconstpointer)slices->data;

  for (guint i = 1; i < slices->len; i++)
    if (tes_chrome_slice_compare (&s[i - 1], &s[i]) > 0)
      return FALSE;

  return TRUE;
}

/* Run by each parsing thread on its own slices once its part of the file
 * is done, so the sorting is spread over the threads too. */
void
tes_chrome_segment_sort (TesChromeSegment *seg)
{
  for (guint i = 0; i < seg->thread_list->len; i++)
    {
      TesChromeThread *t = g_ptr_array_index (seg->thread_list, i);

      if (!slices_sorted (t->slices))
        g_array_sort (t->slices, tes_chrome_slice_compare);
      t->n_sorted = t->slices->len;
    }
}

/* ---- the whole file ---------------------------------------------------- */

TesChromeTrace *
tes_chrome_trace_new (void)
{
  TesChromeTrace *trace = g_new0 (TesChromeTrace, 1);

  trace->segments = g_ptr_array_new_with_free_func ((GDestroyNotify)tes_chrome_segment_free);
  return trace;
}

void
tes_chrome_trace_free (TesChromeTrace *trace)
{
  if (trace == NULL)
    return;

  g_ptr_array_unref (trace->segments);
  g_free (trace);
}
