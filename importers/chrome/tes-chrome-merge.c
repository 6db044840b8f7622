/* tes-chrome-merge.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-chrome"

#include "config.h"

#include "tes-chrome-builder-private.h"

#include <string.h>

/* Joins what the segments hold into one trace: processes and threads by
 * their ids, a B left open at the end of one segment closed by its E in a
 * later one, counters by their series; begins that never end close at the
 * end of the trace. */

/* A B still open after its segment, and the part of the thread it is in. */
typedef struct
{
  TesChromeOpen open;
  guint         part;
} MOpen;

static char *
key_text (TesChromeBuilder *b,
          TesChromeSegment *seg,
          gint64            value,
          gboolean          is_string)
{
  if (is_string)
    return g_strdup_printf ("s%u", tes_chrome_gid (b, seg, (guint32)value));
  return g_strdup_printf ("n%" G_GINT64_FORMAT, value);
}

void
tes_chrome_merged_thread_free (gpointer data)
{
  TesChromeMergedThread *t = data;

  g_clear_pointer (&t->parts, g_array_unref);
  g_clear_pointer (&t->open, g_array_unref);
  g_free (t);
}

void
tes_chrome_merged_process_free (gpointer data)
{
  TesChromeMergedProcess *p = data;

  g_ptr_array_unref (p->threads);
  g_ptr_array_unref (p->asyncs);
  g_ptr_array_unref (p->counters);
  g_free (p);
}

void
tes_chrome_merged_counter_free (gpointer data)
{
  TesChromeMergedCounter *c = data;

  g_free (c->arg);
  g_free (c->label);
  g_ptr_array_unref (c->values);
  g_free (c);
}

static TesChromeMergedProcess *
merge_process (TesChromeBuilder *b,
               TesChromeSegment *seg,
               gint64            pid,
               guint             key_flags)
{
  g_autofree char *key = key_text (b, seg, pid, key_flags & TES_CHROME_KEY_PID_STRING);
  TesChromeMergedProcess *p = g_hash_table_lookup (b->process_index, key);

  if (p == NULL)
    {
      p = g_new0 (TesChromeMergedProcess, 1);
      p->pid = (key_flags & TES_CHROME_KEY_PID_STRING) ? tes_chrome_gid (b, seg, (guint32)pid) : pid;
      p->key_flags = key_flags & TES_CHROME_KEY_PID_STRING;
      p->threads = g_ptr_array_new ();
      p->asyncs = g_ptr_array_new ();
      p->counters = g_ptr_array_new ();
      p->order = b->processes->len;
      g_ptr_array_add (b->processes, p);
      g_hash_table_insert (b->process_index, g_steal_pointer (&key), p);
    }

  return p;
}

/* An E from a later segment closes a B left open by an earlier one. */
static void
close_across (TesChromeBuilder      *b,
              TesChromeMergedThread *mt,
              MOpen                 *ob,
              TesChromeOpen         *e,
              TesChromeThread       *e_thread,
              TesChromeSegment      *e_seg)
{
  TesChromePart *part = &g_array_index (mt->parts, TesChromePart, ob->part);
  TesChromeThread *t = part->thread;
  TesChromeSlice slice = { 0 };
  gint64 dur = e->ts - ob->open.ts;
  g_autoptr(GString) b_buf = g_string_new (NULL);
  g_autoptr(GString) e_buf = g_string_new (NULL);

  slice.start = ob->open.ts;
  if (dur < 0)
    {
      tes_chrome_warn (b, TES_CHROME_W_NEGATIVE_DUR, e->offset);
      dur = 0;
      slice.flags |= TES_SLICE_FLAG_CLAMPED;
    }
  slice.dur = dur;
  slice.name = ob->open.name;
  slice.cat = ob->open.cat;

  if (slice.name == 0 && e->name != 0)
    {
      const char *text = tes_chrome_strings_get (&e_seg->strings, e->name);
      slice.name = tes_chrome_strings_intern (&part->seg->strings, text, strlen (text));
    }
  if (slice.cat == 0 && e->cat != 0)
    {
      const char *text = tes_chrome_strings_get (&e_seg->strings, e->cat);
      slice.cat = tes_chrome_strings_intern (&part->seg->strings, text, strlen (text));
    }

  if (e->args_len == 0)
    {
      slice.args_off = ob->open.args_off;
      slice.args_len = ob->open.args_len;
    }
  else
    {
      /* either thread may wait in the spill file (tes-chrome-model.c) */
      gsize start = tes_chrome_thread_args_end (t);
      /* (a text in t's own string moves as it grows: looked up each time) */
      if (ob->open.args_len > 0)
        {
          g_string_append_len (t->args, tes_chrome_thread_args (t, ob->open.args_off, ob->open.args_len, b_buf),
                               ob->open.args_len - 1);
          g_string_append_c (t->args, ',');
          g_string_append_len (t->args, tes_chrome_thread_args (e_thread, e->args_off, e->args_len, e_buf) + 1,
                               e->args_len - 1);
        }
      else
        g_string_append_len (t->args, tes_chrome_thread_args (e_thread, e->args_off, e->args_len, e_buf),
                             e->args_len);
      slice.args_off = start;
      slice.args_len = (guint32)(tes_chrome_thread_args_end (t) - start);
    }

  g_array_append_val (t->slices, slice);
}

static void
merge_segments (TesChromeBuilder *b)
{
  for (guint k = 0; k < b->n_segs; k++)
    {
      TesChromeSegment *seg = b->segs[k];

      tes_chrome_warnings_add (b->warnings, seg->warnings);

      if (seg->has_ts)
        {
          b->trace_end = b->has_ts ? MAX (b->trace_end, seg->max_ts) : seg->max_ts;
          b->has_ts = TRUE;
        }

      for (guint i = 0; i < seg->process_list->len; i++)
        {
          TesChromeProcess *pr = g_ptr_array_index (seg->process_list, i);
          TesChromeMergedProcess *mp = merge_process (b, seg, pr->pid, pr->key_flags);

          pr->merged = mp;
          if (pr->name)
            mp->name = tes_chrome_gid (b, seg, pr->name);
          if (pr->labels)
            mp->labels = tes_chrome_gid (b, seg, pr->labels);
          if (pr->has_sort_index)
            {
              mp->sort_index = pr->sort_index;
              mp->has_sort_index = TRUE;
            }
        }

      for (guint i = 0; i < seg->thread_list->len; i++)
        {
          TesChromeThread *t = g_ptr_array_index (seg->thread_list, i);
          TesChromeMergedProcess *mp = merge_process (b, seg, t->pid, t->key_flags);
          g_autofree char *pkey = key_text (b, seg, t->pid, t->key_flags & TES_CHROME_KEY_PID_STRING);
          g_autofree char *tkey = key_text (b, seg, t->tid, t->key_flags & TES_CHROME_KEY_TID_STRING);
          g_autofree char *key = g_strconcat (pkey, "/", tkey, NULL);
          TesChromeMergedThread *mt = g_hash_table_lookup (b->thread_index, key);
          TesChromePart part = { t, seg };

          if (mt == NULL)
            {
              mt = g_new0 (TesChromeMergedThread, 1);
              mt->process = mp;
              mt->tid = (t->key_flags & TES_CHROME_KEY_TID_STRING) ? tes_chrome_gid (b, seg, (guint32)t->tid)
                                                                   : t->tid;
              mt->key_flags = t->key_flags & TES_CHROME_KEY_TID_STRING;
              mt->parts = g_array_new (FALSE, FALSE, sizeof (TesChromePart));
              mt->open = g_array_new (FALSE, FALSE, sizeof (MOpen));
              mt->order = mp->threads->len;
              mt->flavour_order = -1;
              g_ptr_array_add (mp->threads, mt);
              g_hash_table_insert (b->thread_index, g_steal_pointer (&key), mt);
            }

          t->merged = mt;
          mt->used |= t->has_events;
          if (t->name)
            mt->name = tes_chrome_gid (b, seg, t->name);
          if (t->has_sort_index)
            {
              mt->sort_index = t->sort_index;
              mt->has_sort_index = TRUE;
            }

          g_array_append_val (mt->parts, part);

          for (guint o = 0; o < t->orphans->len; o++)
            {
              TesChromeOpen *e = &g_array_index (t->orphans, TesChromeOpen, o);

              if (mt->open->len == 0)
                {
                  tes_chrome_warn (b, TES_CHROME_W_E_WITHOUT_B, e->offset);
                  continue;
                }

              close_across (b, mt, &g_array_index (mt->open, MOpen, mt->open->len - 1), e, t, seg);
              g_array_set_size (mt->open, mt->open->len - 1);
            }

          for (guint o = 0; o < t->open->len; o++)
            {
              MOpen mo = { g_array_index (t->open, TesChromeOpen, o), mt->parts->len - 1 };

              g_array_append_val (mt->open, mo);
            }
        }
    }
}

/* A B that never saw its E lasts until the end of the trace. */
static void
close_unclosed (TesChromeBuilder *b)
{
  g_autoptr(GPtrArray) threads = tes_chrome_list_threads (b);

  for (guint i = 0; i < threads->len; i++)
    {
      TesChromeMergedThread *mt = g_ptr_array_index (threads, i);

      for (guint o = 0; o < mt->open->len; o++)
        {
          MOpen *mo = &g_array_index (mt->open, MOpen, o);
          TesChromeThread *t = g_array_index (mt->parts, TesChromePart, mo->part).thread;
          TesChromeSlice slice = { 0 };

          slice.start = mo->open.ts;
          slice.dur = MAX (0, b->trace_end - mo->open.ts);
          slice.name = mo->open.name;
          slice.cat = mo->open.cat;
          slice.args_off = mo->open.args_off;
          slice.args_len = mo->open.args_len;
          slice.flags = TES_SLICE_FLAG_UNCLOSED;
          g_array_append_val (t->slices, slice);
          tes_chrome_warn (b, TES_CHROME_W_UNCLOSED, mo->open.offset);
        }
      g_array_set_size (mt->open, 0);
    }
}

void
tes_chrome_builder_merge_counters (TesChromeBuilder *b)
{
  g_autoptr(GHashTable) index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint k = 0; k < b->n_segs; k++)
    {
      TesChromeSegment *seg = b->segs[k];

      for (guint i = 0; i < seg->counter_list->len; i++)
        {
          TesChromeCounter *c = g_ptr_array_index (seg->counter_list, i);
          TesChromeMergedProcess *mp = c->process->merged;
          guint32 name = tes_chrome_gid (b, seg, c->name);
          guint32 id = tes_chrome_gid (b, seg, c->id);
          g_autofree char *key = g_strdup_printf ("%p\x1f%u\x1f%u\x1f%s", (gpointer)mp, name, id, c->arg);
          TesChromeMergedCounter *mc = g_hash_table_lookup (index, key);

          if (mc == NULL)
            {
              mc = g_new0 (TesChromeMergedCounter, 1);
              mc->process = mp;
              mc->name = name;
              mc->id = id;
              mc->arg = g_strdup (c->arg);
              mc->values = g_ptr_array_new ();
              if (id != 0)
                mc->label = g_strdup_printf ("%s[%s].%s", name ? tes_chrome_text (b, name) : "",
                                             tes_chrome_text (b, id), c->arg);
              else
                mc->label = g_strdup_printf ("%s.%s", name ? tes_chrome_text (b, name) : "", c->arg);
              g_ptr_array_add (b->counters, mc);
              g_ptr_array_add (mp->counters, mc);
              g_hash_table_insert (index, g_steal_pointer (&key), mc);
            }
          g_ptr_array_add (mc->values, c->values);
        }
    }
}

void
tes_chrome_builder_mark_instants (TesChromeBuilder *b)
{
  for (guint k = 0; k < b->n_segs; k++)
    {
      TesChromeSegment *seg = b->segs[k];

      for (guint i = 0; i < seg->instants->len; i++)
        {
          TesChromeInstant *inst = &g_array_index (seg->instants, TesChromeInstant, i);

          if (inst->scope == 't')
            ((TesChromeMergedThread *)inst->thread->merged)->used = TRUE;
          else if (inst->scope == 'p')
            ((TesChromeMergedProcess *)inst->process->merged)->has_instants = TRUE;
          else
            b->global_instants = TRUE;
        }
    }
}

void
tes_chrome_builder_merge (TesChromeBuilder *b)
{
  merge_segments (b);
  close_unclosed (b);
}
