/* tes-chrome-builder.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-chrome"

#include "config.h"

#include "tes-chrome-model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Once the whole file is parsed: joins the segments (B stacks carried
 * across the cuts), matches async and flow events in timestamp order,
 * decides the vendor flavour and the clock, creates the tracks in display
 * order and hands every row to the cache writer, freeing each thread's
 * arrays as soon as they are written. */

#define SIGMASTAR_DEFAULT_MHZ 800   /* performance_timeline.py -f default */

typedef enum
{
  FLAVOUR_GENERIC,
  FLAVOUR_SIGMASTAR,
  FLAVOUR_QAIC,
  FLAVOUR_POPLAR,
} Flavour;

typedef struct _MProcess MProcess;
typedef struct _MThread  MThread;

typedef struct
{
  TesChromeThread  *thread;
  TesChromeSegment *seg;
} Part;

typedef struct
{
  TesChromeOpen open;
  guint         part;
} MOpen;

struct _MThread
{
  MProcess *process;
  gint64    tid;
  guint     key_flags;
  guint32   name;          /* gid */
  gint64    sort_index;
  guint     has_sort_index : 1;
  guint     used : 1;
  GArray   *parts;         /* Part */
  GArray   *open;          /* MOpen */
  guint     order;
  gint64    track_id;

  /* qaic */
  gint      q_device;      /* -1: not a QAic thread */
  gint      q_core;        /* -1: none */
  char     *q_engine;      /* NULL: the core's own thread */
};

typedef struct
{
  MProcess *process;       /* NULL: global */
  guint32   name;          /* gid */
  gint64    first_ts;
  guint     order;
  GArray   *slices;        /* TesChromeSlice, name/cat are gids */
  GString  *args;
  GArray   *instants;      /* TesChromeInstant, name/cat are gids */
  gint64    track_id;
} AsyncTrack;

typedef struct
{
  gint64            ts;
  guint32           name;  /* gid */
  guint32           cat;
  TesChromeSegment *seg;
  guint64           args_off;
  guint32           args_len;
  AsyncTrack       *track;
  guint64           offset;
} AsyncOpen;

typedef struct
{
  MProcess *process;
  guint32   name;          /* gid */
  guint32   id;            /* gid */
  char     *arg;
  GPtrArray *values;       /* GArray of TesChromeCounterValue, borrowed */
  char     *label;
  gint64    track_id;
} MCounter;

struct _MProcess
{
  gint64     pid;
  guint      key_flags;
  guint32    name;         /* gid */
  guint32    labels;
  gint64     sort_index;
  guint      has_sort_index : 1;
  guint      has_instants : 1;
  guint      order;
  GPtrArray *threads;      /* MThread* */
  GPtrArray *asyncs;       /* AsyncTrack* */
  GPtrArray *counters;     /* MCounter* */
  gint64     track_id;
};

typedef struct
{
  MThread *thread;
  gint64   ts;
} FlowEnd;

typedef struct
{
  guint32 name;            /* gid */
  guint32 cat;
  FlowEnd from;
  FlowEnd to;
} MFlow;

typedef struct
{
  gint     device;
  double   mhz;
  gint64   clock_id;
  gint64   track_id;
  GHashTable *cores;       /* core number -> track id */
} QDevice;

typedef struct
{
  TesImportContext      *context;
  TesCacheWriter        *writer;
  TesChromeSegment     **segs;
  guint                  n_segs;

  GHashTable            *gid_of;     /* text -> gid */
  GPtrArray             *texts;      /* gid -> text */
  GArray               **gmaps;      /* per segment: sid -> gid */
  GArray                *wids;       /* gid -> writer string id */

  GHashTable            *process_index;
  GPtrArray             *processes;
  GHashTable            *thread_index;
  GHashTable            *async_states;
  GPtrArray             *async_tracks;
  GHashTable            *counter_index;
  GPtrArray             *counters;
  GArray                *flows;      /* MFlow */
  GPtrArray             *global_asyncs;
  gboolean               global_instants;
  gint64                 global_track;

  TesChromeWarningCount  warnings[TES_CHROME_N_WARNINGS];
  gint64                 trace_end;
  gboolean               has_ts;

  Flavour                flavour;
  gint64                 clock_id;
  gint64                 mhz;        /* SigmaStar, Poplar: cycles per µs; 0: ns clock */
  GHashTable            *q_devices;  /* device -> QDevice* */
  GHashTable            *p2p;        /* "src>dst#txid" -> P2PEnd* (send) */
  GHashTable            *p2p_recv;
  GHashTable            *bsp_steps;  /* Poplar: (ipu, step) -> BspStep* */
} Builder;

/* Poplar: what one BSP step of one IPU did on each of its tiles. */
typedef struct
{
  gint     ipu;
  gint64   step;
  gint64   start;
  gint64   end;
  char    *program;
  GArray  *cycles;   /* guint32 per tile */
  GArray  *states;   /* guint8 per tile, TesTileState */
} BspStep;

static void
bsp_step_free (gpointer data)
{
  BspStep *step = data;

  g_free (step->program);
  g_array_unref (step->cycles);
  g_array_unref (step->states);
  g_free (step);
}

/* ---- strings ----------------------------------------------------------- */

static guint32
gid_for_text (Builder    *b,
              const char *text)
{
  gpointer value;

  if (text == NULL)
    return 0;

  if (g_hash_table_lookup_extended (b->gid_of, text, NULL, &value))
    return GPOINTER_TO_UINT (value);

  g_ptr_array_add (b->texts, (gpointer)text);
  g_hash_table_insert (b->gid_of, (gpointer)text, GUINT_TO_POINTER (b->texts->len - 1));

  return b->texts->len - 1;
}

static guint32
gid (Builder          *b,
     TesChromeSegment *seg,
     guint32           sid)
{
  GArray *map = b->gmaps[seg->index];
  guint32 g;

  if (sid == 0)
    return 0;

  if (sid >= map->len)
    g_array_set_size (map, seg->strings.strs->len);

  if ((g = g_array_index (map, guint32, sid)) == 0)
    {
      g = gid_for_text (b, tes_chrome_strings_get (&seg->strings, sid));
      g_array_index (map, guint32, sid) = g;
    }

  return g;
}

static const char *
text_of (Builder *b,
         guint32  g)
{
  return g ? g_ptr_array_index (b->texts, g) : NULL;
}

static guint32
wid (Builder *b,
     guint32  g)
{
  guint32 w;

  if (g == 0)
    return 0;

  if (g >= b->wids->len)
    g_array_set_size (b->wids, b->texts->len);

  if ((w = g_array_index (b->wids, guint32, g)) == 0)
    {
      w = tes_cache_writer_intern (b->writer, text_of (b, g));
      g_array_index (b->wids, guint32, g) = w;
    }

  return w;
}

static void
warn (Builder          *b,
      TesChromeWarning  w,
      guint64           offset)
{
  if (b->warnings[w].count++ == 0 || offset < b->warnings[w].first_offset)
    b->warnings[w].first_offset = offset;
}

/* ---- merging ----------------------------------------------------------- */

static char *
key_text (Builder          *b,
          TesChromeSegment *seg,
          gint64            value,
          gboolean          is_string)
{
  if (is_string)
    return g_strdup_printf ("s%u", gid (b, seg, (guint32)value));
  return g_strdup_printf ("n%" G_GINT64_FORMAT, value);
}

static void
mthread_free (gpointer data)
{
  MThread *t = data;

  g_clear_pointer (&t->parts, g_array_unref);
  g_clear_pointer (&t->open, g_array_unref);
  g_free (t->q_engine);
  g_free (t);
}

static void
mprocess_free (gpointer data)
{
  MProcess *p = data;

  g_ptr_array_unref (p->threads);
  g_ptr_array_unref (p->asyncs);
  g_ptr_array_unref (p->counters);
  g_free (p);
}

static void
async_track_free (gpointer data)
{
  AsyncTrack *t = data;

  g_array_unref (t->slices);
  g_string_free (t->args, TRUE);
  g_array_unref (t->instants);
  g_free (t);
}

static void
mcounter_free (gpointer data)
{
  MCounter *c = data;

  g_free (c->arg);
  g_free (c->label);
  g_ptr_array_unref (c->values);
  g_free (c);
}

static MProcess *
merge_process (Builder          *b,
               TesChromeSegment *seg,
               gint64            pid,
               guint             key_flags)
{
  g_autofree char *key = key_text (b, seg, pid, key_flags & TES_CHROME_KEY_PID_STRING);
  MProcess *p = g_hash_table_lookup (b->process_index, key);

  if (p == NULL)
    {
      p = g_new0 (MProcess, 1);
      p->pid = (key_flags & TES_CHROME_KEY_PID_STRING) ? gid (b, seg, (guint32)pid) : pid;
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
close_across (Builder          *b,
              MThread          *mt,
              MOpen            *ob,
              TesChromeOpen    *e,
              TesChromeThread  *e_thread,
              TesChromeSegment *e_seg)
{
  Part *part = &g_array_index (mt->parts, Part, ob->part);
  TesChromeThread *t = part->thread;
  TesChromeSlice slice = { 0 };
  gint64 dur = e->ts - ob->open.ts;

  slice.start = ob->open.ts;
  if (dur < 0)
    {
      warn (b, TES_CHROME_W_NEGATIVE_DUR, e->offset);
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
      gsize start = t->args->len;

      if (ob->open.args_len > 0)
        {
          g_string_append_len (t->args, t->args->str + ob->open.args_off, ob->open.args_len - 1);
          g_string_append_c (t->args, ',');
          g_string_append_len (t->args, e_thread->args->str + e->args_off + 1, e->args_len - 1);
        }
      else
        g_string_append_len (t->args, e_thread->args->str + e->args_off, e->args_len);
      slice.args_off = start;
      slice.args_len = (guint32)(t->args->len - start);
    }

  g_array_append_val (t->slices, slice);
}

static void
merge_segments (Builder *b)
{
  for (guint k = 0; k < b->n_segs; k++)
    {
      TesChromeSegment *seg = b->segs[k];

      for (guint w = 0; w < TES_CHROME_N_WARNINGS; w++)
        if (seg->warnings[w].count > 0)
          {
            if (b->warnings[w].count == 0 || seg->warnings[w].first_offset < b->warnings[w].first_offset)
              b->warnings[w].first_offset = seg->warnings[w].first_offset;
            b->warnings[w].count += seg->warnings[w].count;
          }

      if (seg->has_ts)
        {
          b->trace_end = b->has_ts ? MAX (b->trace_end, seg->max_ts) : seg->max_ts;
          b->has_ts = TRUE;
        }

      for (guint i = 0; i < seg->process_list->len; i++)
        {
          TesChromeProcess *pr = g_ptr_array_index (seg->process_list, i);
          MProcess *mp = merge_process (b, seg, pr->pid, pr->key_flags);

          pr->merged = mp;
          if (pr->name)
            mp->name = gid (b, seg, pr->name);
          if (pr->labels)
            mp->labels = gid (b, seg, pr->labels);
          if (pr->has_sort_index)
            {
              mp->sort_index = pr->sort_index;
              mp->has_sort_index = TRUE;
            }
        }

      for (guint i = 0; i < seg->thread_list->len; i++)
        {
          TesChromeThread *t = g_ptr_array_index (seg->thread_list, i);
          MProcess *mp = merge_process (b, seg, t->pid, t->key_flags);
          g_autofree char *pkey = key_text (b, seg, t->pid, t->key_flags & TES_CHROME_KEY_PID_STRING);
          g_autofree char *tkey = key_text (b, seg, t->tid, t->key_flags & TES_CHROME_KEY_TID_STRING);
          g_autofree char *key = g_strconcat (pkey, "/", tkey, NULL);
          MThread *mt = g_hash_table_lookup (b->thread_index, key);
          Part part = { t, seg };

          if (mt == NULL)
            {
              mt = g_new0 (MThread, 1);
              mt->process = mp;
              mt->tid = (t->key_flags & TES_CHROME_KEY_TID_STRING) ? gid (b, seg, (guint32)t->tid) : t->tid;
              mt->key_flags = t->key_flags & TES_CHROME_KEY_TID_STRING;
              mt->parts = g_array_new (FALSE, FALSE, sizeof (Part));
              mt->open = g_array_new (FALSE, FALSE, sizeof (MOpen));
              mt->order = mp->threads->len;
              mt->q_device = -1;
              mt->q_core = -1;
              g_ptr_array_add (mp->threads, mt);
              g_hash_table_insert (b->thread_index, g_steal_pointer (&key), mt);
            }

          t->merged = mt;
          mt->used |= t->has_events;
          if (t->name)
            mt->name = gid (b, seg, t->name);
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
                  warn (b, TES_CHROME_W_E_WITHOUT_B, e->offset);
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
close_unclosed (Builder *b)
{
  for (guint i = 0; i < b->processes->len; i++)
    {
      MProcess *mp = g_ptr_array_index (b->processes, i);

      for (guint j = 0; j < mp->threads->len; j++)
        {
          MThread *mt = g_ptr_array_index (mp->threads, j);

          for (guint o = 0; o < mt->open->len; o++)
            {
              MOpen *mo = &g_array_index (mt->open, MOpen, o);
              TesChromeThread *t = g_array_index (mt->parts, Part, mo->part).thread;
              TesChromeSlice slice = { 0 };

              slice.start = mo->open.ts;
              slice.dur = MAX (0, b->trace_end - mo->open.ts);
              slice.name = mo->open.name;
              slice.cat = mo->open.cat;
              slice.args_off = mo->open.args_off;
              slice.args_len = mo->open.args_len;
              slice.flags = TES_SLICE_FLAG_UNCLOSED;
              g_array_append_val (t->slices, slice);
              warn (b, TES_CHROME_W_UNCLOSED, mo->open.offset);
            }
          g_array_set_size (mt->open, 0);
        }
    }
}

/* ---- async ------------------------------------------------------------- */

typedef struct
{
  TesChromeAsync    a;
  TesChromeSegment *seg;
} SortedAsync;

static int
compare_async (gconstpointer pa,
               gconstpointer pb)
{
  const SortedAsync *a = pa;
  const SortedAsync *b = pb;

  if (a->a.ts != b->a.ts)
    return a->a.ts < b->a.ts ? -1 : 1;
  return (a->a.offset > b->a.offset) - (a->a.offset < b->a.offset);
}

typedef struct
{
  AsyncTrack *track;       /* nestable: the key's track */
  GArray     *stack;       /* AsyncOpen */
} AsyncState;

static void
async_state_free (gpointer data)
{
  AsyncState *s = data;

  g_array_unref (s->stack);
  g_free (s);
}

static AsyncTrack *
new_async_track (Builder  *b,
                 MProcess *process,
                 guint32   name,
                 gint64    ts)
{
  AsyncTrack *t = g_new0 (AsyncTrack, 1);

  t->process = process;
  t->name = name;
  t->first_ts = ts;
  t->order = b->async_tracks->len;
  t->slices = g_array_new (FALSE, FALSE, sizeof (TesChromeSlice));
  t->args = g_string_new (NULL);
  t->instants = g_array_new (FALSE, FALSE, sizeof (TesChromeInstant));
  g_ptr_array_add (b->async_tracks, t);

  if (process != NULL)
    g_ptr_array_add (process->asyncs, t);
  else
    g_ptr_array_add (b->global_asyncs, t);

  return t;
}

static AsyncState *
async_state (Builder    *b,
             const char *key,
             gboolean    create)
{
  AsyncState *s = g_hash_table_lookup (b->async_states, key);

  if (s == NULL && create)
    {
      s = g_new0 (AsyncState, 1);
      s->stack = g_array_new (FALSE, FALSE, sizeof (AsyncOpen));
      g_hash_table_insert (b->async_states, g_strdup (key), s);
    }

  return s;
}

static void
async_close (Builder    *b,
             AsyncOpen  *open,
             gint64      end_ts,
             SortedAsync *end,
             guint16     flags)
{
  AsyncTrack *t = open->track;
  TesChromeSlice slice = { 0 };
  gsize start = t->args->len;

  slice.start = open->ts;
  slice.dur = end_ts - open->ts;
  slice.flags = flags;
  if (slice.dur < 0)
    {
      warn (b, TES_CHROME_W_NEGATIVE_DUR, end ? end->a.offset : 0);
      slice.dur = 0;
      slice.flags |= TES_SLICE_FLAG_CLAMPED;
    }
  slice.name = open->name;
  slice.cat = open->cat;

  if (open->args_len > 0)
    g_string_append_len (t->args, open->seg->misc->str + open->args_off, open->args_len);
  if (end != NULL && end->a.args_len > 0)
    {
      const char *text = end->seg->misc->str + end->a.args_off;

      if (open->args_len > 0)
        {
          t->args->str[t->args->len - 1] = ',';
          g_string_append_len (t->args, text + 1, end->a.args_len - 1);
        }
      else
        g_string_append_len (t->args, text, end->a.args_len);
    }
  slice.args_off = start;
  slice.args_len = (guint32)(t->args->len - start);

  g_array_append_val (t->slices, slice);
}

static void
async_instant (Builder     *b,
               AsyncTrack  *t,
               SortedAsync *ev)
{
  TesChromeInstant inst = { 0 };

  inst.ts = ev->a.ts;
  inst.name = gid (b, ev->seg, ev->a.name);
  inst.cat = gid (b, ev->seg, ev->a.cat);
  inst.scope = 't';
  inst.args_off = t->args->len;
  inst.args_len = ev->a.args_len;
  g_string_append_len (t->args, ev->seg->misc->str + ev->a.args_off, ev->a.args_len);
  g_array_append_val (t->instants, inst);
}

static void
match_async (Builder *b)
{
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (SortedAsync));
  g_autoptr(GHashTable) legacy_tracks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GString) key = g_string_new (NULL);
  GHashTableIter iter;
  gpointer value;

  for (guint k = 0; k < b->n_segs; k++)
    for (guint i = 0; i < b->segs[k]->asyncs->len; i++)
      {
        SortedAsync s = { g_array_index (b->segs[k]->asyncs, TesChromeAsync, i), b->segs[k] };
        g_array_append_val (all, s);
      }

  g_array_sort (all, compare_async);

  for (guint i = 0; i < all->len; i++)
    {
      SortedAsync *ev = &g_array_index (all, SortedAsync, i);
      MThread *mt = ev->a.thread->merged;
      gboolean global = (ev->a.flags & TES_CHROME_ASYNC_GLOBAL) != 0;
      MProcess *mp = global ? NULL : mt->process;
      guint32 name = gid (b, ev->seg, ev->a.name);
      guint32 cat = gid (b, ev->seg, ev->a.cat);
      guint32 id = gid (b, ev->seg, ev->a.id);
      AsyncState *state;

      switch (ev->a.ph)
        {
        case 'b':
        case 'e':
        case 'n':
          /* nestable: one track per (process, category, id) */
          g_string_printf (key, "n\x1f%p\x1f%u\x1f%u", (gpointer)mp, cat, id);
          state = async_state (b, key->str, ev->a.ph != 'e');
          if (state == NULL)
            {
              warn (b, TES_CHROME_W_ASYNC_UNMATCHED, ev->a.offset);
              break;
            }
          if (state->track == NULL)
            state->track = new_async_track (b, mp, ev->a.ph == 'b' ? name : 0, ev->a.ts);
          if (state->track->name == 0 && ev->a.ph == 'b')
            state->track->name = name;

          if (ev->a.ph == 'n')
            async_instant (b, state->track, ev);
          else if (ev->a.ph == 'b')
            {
              AsyncOpen open = { ev->a.ts, name, cat, ev->seg, ev->a.args_off, ev->a.args_len, state->track,
                                 ev->a.offset };
              g_array_append_val (state->stack, open);
            }
          else
            {
              gint found = -1;

              for (gint j = (gint)state->stack->len - 1; j >= 0; j--)
                if (name == 0 || g_array_index (state->stack, AsyncOpen, j).name == name)
                  {
                    found = j;
                    break;
                  }

              if (found < 0)
                {
                  warn (b, TES_CHROME_W_ASYNC_UNMATCHED, ev->a.offset);
                  break;
                }

              /* begins above the match never got their end */
              for (gint j = (gint)state->stack->len - 1; j > found; j--)
                {
                  async_close (b, &g_array_index (state->stack, AsyncOpen, j), ev->a.ts, NULL,
                               TES_SLICE_FLAG_UNCLOSED);
                  warn (b, TES_CHROME_W_UNCLOSED, g_array_index (state->stack, AsyncOpen, j).offset);
                }
              async_close (b, &g_array_index (state->stack, AsyncOpen, found), ev->a.ts, ev, 0);
              g_array_set_size (state->stack, found);
            }
          break;

        case 'S':
        case 'T':
        case 'p':
        case 'F':
          /* legacy: matched by (category, name, id) across processes; the
           * slice goes on a track of the process of its S */
          g_string_printf (key, "l\x1f%u\x1f%u\x1f%u", cat, name, id);
          state = async_state (b, key->str, ev->a.ph == 'S');
          if (ev->a.ph == 'S')
            {
              AsyncTrack *t;
              g_autofree char *tkey = g_strdup_printf ("L\x1f%p\x1f%u\x1f%u\x1f%u", (gpointer)mp, cat, name, id);
              AsyncOpen open = { ev->a.ts, name, cat, ev->seg, ev->a.args_off, ev->a.args_len, NULL,
                                 ev->a.offset };

              if (!(t = g_hash_table_lookup (legacy_tracks, tkey)))
                {
                  t = new_async_track (b, mp, name, ev->a.ts);
                  g_hash_table_insert (legacy_tracks, g_steal_pointer (&tkey), t);
                }
              open.track = t;
              g_array_append_val (state->stack, open);
            }
          else if (state == NULL || state->stack->len == 0)
            warn (b, TES_CHROME_W_ASYNC_UNMATCHED, ev->a.offset);
          else if (ev->a.ph == 'F')
            {
              async_close (b, &g_array_index (state->stack, AsyncOpen, state->stack->len - 1), ev->a.ts, ev, 0);
              g_array_set_size (state->stack, state->stack->len - 1);
            }
          else
            async_instant (b, g_array_index (state->stack, AsyncOpen, state->stack->len - 1).track, ev);
          break;

        default:
          break;
        }
    }

  g_hash_table_iter_init (&iter, b->async_states);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      AsyncState *state = value;

      for (guint j = 0; j < state->stack->len; j++)
        {
          AsyncOpen *open = &g_array_index (state->stack, AsyncOpen, j);

          async_close (b, open, MAX (b->trace_end, open->ts), NULL, TES_SLICE_FLAG_UNCLOSED);
          warn (b, TES_CHROME_W_UNCLOSED, open->offset);
        }
      g_array_set_size (state->stack, 0);
    }
}

/* ---- flows ------------------------------------------------------------- */

typedef struct
{
  TesChromeFlowEvent f;
  TesChromeSegment  *seg;
} SortedFlow;

static int
compare_flow (gconstpointer pa,
              gconstpointer pb)
{
  const SortedFlow *a = pa;
  const SortedFlow *b = pb;

  if (a->f.ts != b->f.ts)
    return a->f.ts < b->f.ts ? -1 : 1;
  return (a->f.offset > b->f.offset) - (a->f.offset < b->f.offset);
}

static GArray *
sorted_flows (Builder  *b,
              gboolean  v2)
{
  GArray *all = g_array_new (FALSE, FALSE, sizeof (SortedFlow));

  for (guint k = 0; k < b->n_segs; k++)
    {
      GArray *src = v2 ? b->segs[k]->flow_points : b->segs[k]->flows;

      for (guint i = 0; i < src->len; i++)
        {
          SortedFlow s = { g_array_index (src, TesChromeFlowEvent, i), b->segs[k] };
          g_array_append_val (all, s);
        }
    }

  g_array_sort (all, compare_flow);
  return all;
}

static void
add_flow (Builder    *b,
          guint32     name,
          guint32     cat,
          SortedFlow *from,
          SortedFlow *to)
{
  MFlow flow = { 0 };
  MThread *ft = from->f.thread->merged;
  MThread *tt = to->f.thread->merged;

  flow.name = name;
  flow.cat = cat;
  flow.from.thread = ft;
  flow.from.ts = from->f.ts;
  flow.to.thread = tt;
  flow.to.ts = to->f.ts;
  ft->used = TRUE;
  tt->used = TRUE;
  g_array_append_val (b->flows, flow);
}

static void
match_flows (Builder *b)
{
  g_autoptr(GArray) v1 = sorted_flows (b, FALSE);
  g_autoptr(GArray) v2 = sorted_flows (b, TRUE);
  g_autoptr(GHashTable) open = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GString) key = g_string_new (NULL);

  /* v1: s, t..., f chained by (category, name, id) */
  for (guint i = 0; i < v1->len; i++)
    {
      SortedFlow *ev = &g_array_index (v1, SortedFlow, i);
      guint32 name = gid (b, ev->seg, ev->f.name);
      guint32 cat = gid (b, ev->seg, ev->f.cat);
      SortedFlow *prev;

      g_string_printf (key, "%u\x1f%u\x1f%u", cat, name, gid (b, ev->seg, ev->f.id));
      prev = g_hash_table_lookup (open, key->str);

      if (ev->f.ph == 's')
        {
          g_hash_table_insert (open, g_strdup (key->str), ev);
          continue;
        }

      if (prev == NULL)
        {
          warn (b, TES_CHROME_W_FLOW_UNMATCHED, ev->f.offset);
          continue;
        }

      add_flow (b, name, cat, prev, ev);
      if (ev->f.ph == 't')
        g_hash_table_insert (open, g_strdup (key->str), ev);
      else
        g_hash_table_remove (open, key->str);
    }

  /* v2: bind_id with flow_out on the source, flow_in on the destination */
  g_hash_table_remove_all (open);
  for (guint i = 0; i < v2->len; i++)
    {
      SortedFlow *ev = &g_array_index (v2, SortedFlow, i);

      g_string_printf (key, "%u", gid (b, ev->seg, ev->f.id));

      if (ev->f.ph == 'i' || ev->f.ph == 'b')
        {
          SortedFlow *prev = g_hash_table_lookup (open, key->str);

          if (prev == NULL)
            warn (b, TES_CHROME_W_FLOW_UNMATCHED, ev->f.offset);
          else
            {
              add_flow (b, gid (b, prev->seg, prev->f.name), gid (b, prev->seg, prev->f.cat), prev, ev);
              g_hash_table_remove (open, key->str);
            }
        }
      if (ev->f.ph == 'o' || ev->f.ph == 'b')
        g_hash_table_insert (open, g_strdup (key->str), ev);
    }

  /* The arrays of SortedFlow die here; flows keep only threads and times. */
}

/* ---- counters and instants --------------------------------------------- */

static void
merge_counters (Builder *b)
{
  for (guint k = 0; k < b->n_segs; k++)
    {
      TesChromeSegment *seg = b->segs[k];

      for (guint i = 0; i < seg->counter_list->len; i++)
        {
          TesChromeCounter *c = g_ptr_array_index (seg->counter_list, i);
          MProcess *mp = c->process->merged;
          guint32 name = gid (b, seg, c->name);
          guint32 id = gid (b, seg, c->id);
          g_autofree char *key = g_strdup_printf ("%p\x1f%u\x1f%u\x1f%s", (gpointer)mp, name, id, c->arg);
          MCounter *mc = g_hash_table_lookup (b->counter_index, key);

          if (mc == NULL)
            {
              mc = g_new0 (MCounter, 1);
              mc->process = mp;
              mc->name = name;
              mc->id = id;
              mc->arg = g_strdup (c->arg);
              mc->values = g_ptr_array_new ();
              if (id != 0)
                mc->label = g_strdup_printf ("%s[%s].%s", name ? text_of (b, name) : "", text_of (b, id), c->arg);
              else
                mc->label = g_strdup_printf ("%s.%s", name ? text_of (b, name) : "", c->arg);
              g_ptr_array_add (b->counters, mc);
              g_ptr_array_add (mp->counters, mc);
              g_hash_table_insert (b->counter_index, g_steal_pointer (&key), mc);
            }
          g_ptr_array_add (mc->values, c->values);
        }
    }
}

static void
mark_instant_owners (Builder *b)
{
  for (guint k = 0; k < b->n_segs; k++)
    {
      TesChromeSegment *seg = b->segs[k];

      for (guint i = 0; i < seg->instants->len; i++)
        {
          TesChromeInstant *inst = &g_array_index (seg->instants, TesChromeInstant, i);

          if (inst->scope == 't')
            ((MThread *)inst->thread->merged)->used = TRUE;
          else if (inst->scope == 'p')
            ((MProcess *)inst->process->merged)->has_instants = TRUE;
          else
            b->global_instants = TRUE;
        }
    }
}

/* ---- flavour and time -------------------------------------------------- */

static gboolean
thread_has_slices (MThread *mt)
{
  for (guint i = 0; i < mt->parts->len; i++)
    if (g_array_index (mt->parts, Part, i).thread->slices->len > 0)
      return TRUE;

  return FALSE;
}

static gint64
args_cycles (const char *args,
             gsize       len,
             const char *key)
{
  const char *v;
  gsize vl;
  double d;

  if (len == 0 || !tes_chrome_args_find (args, len, key, &v, &vl) ||
      !tes_chrome_value_to_double (v, vl, TRUE, &d) || d < 0 || d > 9e15)
    return -1;

  return (gint64)llround (d);
}

static const char *
other_data (Builder    *b,
            const char *key)
{
  GPtrArray *info = b->segs[0]->info;

  for (guint i = 0; i + 1 < info->len; i += 2)
    if (g_str_equal (g_ptr_array_index (info, i), key))
      return g_ptr_array_index (info, i + 1);

  return NULL;
}

/* "IPU 3" -> 3, "Tile 17" -> 17: the names a Poplar tile trace gives its
 * processes and threads. */
static gboolean
parse_numbered_name (const char *name,
                     const char *word,
                     gint       *out)
{
  gsize n = strlen (word);
  gint64 v = 0;
  const char *s;

  if (name == NULL || strncmp (name, word, n) != 0 || name[n] != ' ')
    return FALSE;

  s = name + n + 1;
  if (!g_ascii_isdigit (*s))
    return FALSE;
  for (; g_ascii_isdigit (*s); s++)
    if ((v = v * 10 + (*s - '0')) > G_MAXINT)
      return FALSE;
  if (*s != '\0')
    return FALSE;

  *out = (gint)v;
  return TRUE;
}

static gboolean
poplar_tile_of (Builder *b,
                MThread *mt,
                gint    *ipu,
                gint    *tile)
{
  return mt->process != NULL &&
         parse_numbered_name (text_of (b, mt->process->name), "IPU", ipu) &&
         parse_numbered_name (text_of (b, mt->name), "Tile", tile);
}

static guint
count_poplar_tiles (Builder *b)
{
  guint n = 0;

  for (guint i = 0; i < b->processes->len; i++)
    {
      MProcess *mp = g_ptr_array_index (b->processes, i);

      for (guint j = 0; j < mp->threads->len; j++)
        {
          MThread *mt = g_ptr_array_index (mp->threads, j);
          gint ipu, tile;

          if ((mt->used || thread_has_slices (mt)) && poplar_tile_of (b, mt, &ipu, &tile))
            n++;
        }
    }

  return n;
}

static void
decide_flavour (Builder *b)
{
  guint sampled = 0, sigmastar = 0, qaic_args = 0, qaic_threads = 0;

  for (guint k = 0; k < b->n_segs; k++)
    {
      sampled += b->segs[k]->n_sampled;
      sigmastar += b->segs[k]->n_sigmastar;
      qaic_args += b->segs[k]->n_qaic_args;
      qaic_threads += b->segs[k]->n_qaic_threads;
    }

  /* SigmaStar: (nearly) every layer slice carries its cycles */
  if (sigmastar > 0 && (guint64)sigmastar * 10 >= (guint64)sampled * 9)
    b->flavour = FLAVOUR_SIGMASTAR;
  else if (qaic_threads > 0 || (qaic_args > 0 && qaic_args * 2 >= sampled))
    b->flavour = FLAVOUR_QAIC;
  /* Poplar tile execution trace: threads "Tile N" under processes "IPU N" */
  else if (count_poplar_tiles (b) > 0)
    b->flavour = FLAVOUR_POPLAR;
  else
    b->flavour = FLAVOUR_GENERIC;
}

/* A Poplar tile trace counts cycles; its clock is otherData.clock_mhz when
 * the writer gives it (whole MHz), else the trace stays in ns. */
static void
poplar_frequency (Builder *b)
{
  const char *given = other_data (b, "otherData.clock_mhz");
  double mhz = given ? g_ascii_strtod (given, NULL) : 0;

  b->mhz = mhz >= 1 && mhz < 1e6 ? (gint64)llround (mhz) : 0;
}

/* SigmaStar's wall duration is total_cycle / f, so the sums of both give
 * the clock; performance_timeline.py takes -f as whole MHz. */
static void
sigmastar_frequency (Builder *b)
{
  double cycles = 0;
  double dur_ns = 0;
  const char *given = other_data (b, "otherData.frequency_mhz");

  for (guint i = 0; i < b->processes->len; i++)
    {
      MProcess *mp = g_ptr_array_index (b->processes, i);

      for (guint j = 0; j < mp->threads->len; j++)
        {
          MThread *mt = g_ptr_array_index (mp->threads, j);

          for (guint pi = 0; pi < mt->parts->len; pi++)
            {
              TesChromeThread *t = g_array_index (mt->parts, Part, pi).thread;

              for (guint s = 0; s < t->slices->len; s++)
                {
                  TesChromeSlice *sl = &g_array_index (t->slices, TesChromeSlice, s);
                  gint64 c = args_cycles (t->args->str + sl->args_off, sl->args_len, "total_cycle");

                  if (c > 0 && sl->dur > 0)
                    {
                      cycles += (double)c;
                      dur_ns += (double)sl->dur;
                    }
                }
            }
        }
    }

  if (dur_ns > 0)
    b->mhz = (gint64)llround (cycles * 1000.0 / dur_ns);
  else if (given != NULL && g_ascii_strtoll (given, NULL, 10) > 0)
    b->mhz = g_ascii_strtoll (given, NULL, 10);
  else
    b->mhz = SIGMASTAR_DEFAULT_MHZ;

  if (b->mhz <= 0)
    b->mhz = SIGMASTAR_DEFAULT_MHZ;
}

/* ns to the source clock's ticks */
static gint64
convert (Builder *b,
         gint64   ns)
{
  gint64 q, r;

  if (b->mhz <= 0)
    return ns;

  /* cycles = ns * MHz / 1000, rounded half up, without overflow */
  q = ns / 1000;
  r = ns % 1000;
  if (r < 0)
    {
      q--;
      r += 1000;
    }

  return q * b->mhz + (r * b->mhz + 500) / 1000;
}

/* ---- qaic ---------------------------------------------------------------- */

/* QAicGraph_slice<NN>_Core_<M>[_<ENGINE>[_rest]], QAicGraph_Core_<M>...,
 * QAicGraph_slice<NN>_<other> */
static void
parse_qaic_name (MThread    *mt,
                 const char *name)
{
  const char *p;
  char *end;
  gint64 device = 0;

  if (name == NULL || !g_str_has_prefix (name, "QAicGraph_"))
    return;

  p = name + strlen ("QAicGraph_");
  if (g_str_has_prefix (p, "slice"))
    {
      device = g_ascii_strtoll (p + 5, &end, 10);
      if (end == p + 5 || *end != '_')
        return;
      p = end + 1;
    }

  if (g_str_has_prefix (p, "Core_"))
    {
      gint64 core = g_ascii_strtoll (p + 5, &end, 10);

      if (end == p + 5 || (*end != '\0' && *end != '_'))
        return;
      mt->q_device = (gint)device;
      mt->q_core = (gint)core;
      if (*end == '_')
        {
          char *engine = g_strdup (end + 1);

          g_strdelimit (engine, "_", ' ');
          mt->q_engine = engine;
        }
      return;
    }

  if (*p != '\0')
    {
      mt->q_device = (gint)device;
      mt->q_engine = g_strdup (p);
    }
}

static void
qdevice_free (gpointer data)
{
  QDevice *d = data;

  g_hash_table_unref (d->cores);
  g_free (d);
}

/* ---- track creation ---------------------------------------------------- */

static gboolean
process_needs_track (MProcess *mp)
{
  if (mp->asyncs->len > 0 || mp->counters->len > 0 || mp->has_instants)
    return TRUE;

  for (guint i = 0; i < mp->threads->len; i++)
    {
      MThread *mt = g_ptr_array_index (mp->threads, i);

      if (mt->q_device < 0 && (mt->used || thread_has_slices (mt)))
        return TRUE;
    }

  return FALSE;
}

static int
compare_id_keys (gint64 a,
                 guint  a_str,
                 gint64 b,
                 guint  b_str,
                 Builder *builder)
{
  if (a_str != b_str)
    return a_str ? 1 : -1;
  if (a_str)
    return g_strcmp0 (text_of (builder, (guint32)a), text_of (builder, (guint32)b));
  return (a > b) - (a < b);
}

static int
compare_processes (gconstpointer pa,
                   gconstpointer pb,
                   gpointer      builder)
{
  const MProcess *a = *(MProcess * const *)pa;
  const MProcess *b = *(MProcess * const *)pb;
  int c;

  if (a->sort_index != b->sort_index)
    return a->sort_index < b->sort_index ? -1 : 1;
  if ((c = compare_id_keys (a->pid, a->key_flags, b->pid, b->key_flags, builder)))
    return c;
  return (a->order > b->order) - (a->order < b->order);
}

static int
compare_threads (gconstpointer pa,
                 gconstpointer pb,
                 gpointer      builder)
{
  const MThread *a = *(MThread * const *)pa;
  const MThread *b = *(MThread * const *)pb;
  int c;

  if (a->q_core != b->q_core)
    return a->q_core < b->q_core ? -1 : 1;
  if ((a->q_engine == NULL) != (b->q_engine == NULL))
    return a->q_engine == NULL ? -1 : 1;
  if (a->sort_index != b->sort_index)
    return a->sort_index < b->sort_index ? -1 : 1;
  if ((c = compare_id_keys (a->tid, a->key_flags, b->tid, b->key_flags, builder)))
    return c;
  return (a->order > b->order) - (a->order < b->order);
}

static int
compare_async_tracks (gconstpointer pa,
                      gconstpointer pb)
{
  const AsyncTrack *a = *(AsyncTrack * const *)pa;
  const AsyncTrack *b = *(AsyncTrack * const *)pb;

  if (a->first_ts != b->first_ts)
    return a->first_ts < b->first_ts ? -1 : 1;
  return (a->order > b->order) - (a->order < b->order);
}

static int
compare_counters (gconstpointer pa,
                  gconstpointer pb)
{
  const MCounter *a = *(MCounter * const *)pa;
  const MCounter *b = *(MCounter * const *)pb;

  return g_strcmp0 (a->label, b->label);
}

static char *
id_text (Builder *b,
         gint64   value,
         guint    is_string)
{
  if (is_string)
    return g_strdup (text_of (b, (guint32)value));
  return g_strdup_printf ("%" G_GINT64_FORMAT, value);
}

static gint64
add_track (Builder      *b,
           gint64        parent,
           TesTrackKind  kind,
           const char   *name,
           gint64        sort_index,
           const char   *native_id)
{
  return tes_cache_writer_add_track (b->writer, parent, b->context->source_id, b->clock_id,
                                     kind, name, sort_index, native_id);
}

static void
create_thread_tracks (Builder  *b,
                      MProcess *mp,
                      gint64    parent,
                      guint    *sort)
{
  g_ptr_array_sort_with_data (mp->threads, compare_threads, b);

  for (guint i = 0; i < mp->threads->len; i++)
    {
      MThread *mt = g_ptr_array_index (mp->threads, i);
      g_autofree char *pid = id_text (b, mp->pid, mp->key_flags);
      g_autofree char *tid = id_text (b, mt->tid, mt->key_flags);
      g_autofree char *native = g_strdup_printf ("%s:%s", pid, tid);
      g_autofree char *fallback = NULL;
      gint ipu, tile;

      if (mt->q_device >= 0 || !(mt->used || thread_has_slices (mt)))
        continue;

      if (mt->name == 0)
        fallback = g_strdup_printf ("Thread %s", tid);

      /* Poplar: a tile lane, linked from the tiles table */
      if (b->flavour == FLAVOUR_POPLAR && poplar_tile_of (b, mt, &ipu, &tile))
        {
          mt->track_id = add_track (b, parent, TES_TRACK_TILE, text_of (b, mt->name), (*sort)++, native);
          tes_cache_writer_add_tile (b->writer, ipu, tile, 0, mt->track_id);
          continue;
        }

      mt->track_id = add_track (b, parent, TES_TRACK_THREAD,
                                mt->name ? text_of (b, mt->name) : fallback, (*sort)++, native);
    }
}

static int
compare_ints (gconstpointer a,
              gconstpointer b)
{
  return (*(const gint *)a > *(const gint *)b) - (*(const gint *)a < *(const gint *)b);
}

static void
create_qaic_tracks (Builder *b)
{
  g_autoptr(GPtrArray) qthreads = g_ptr_array_new ();
  g_autoptr(GArray) device_order = g_array_new (FALSE, FALSE, sizeof (gint));
  g_autoptr(GHashTable) engine_counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) engine_seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint sort = 0;

  for (guint i = 0; i < b->processes->len; i++)
    {
      MProcess *mp = g_ptr_array_index (b->processes, i);

      for (guint j = 0; j < mp->threads->len; j++)
        {
          MThread *mt = g_ptr_array_index (mp->threads, j);

          parse_qaic_name (mt, text_of (b, mt->name));
          if (mt->q_device < 0)
            continue;

          g_ptr_array_add (qthreads, mt);
          if (!g_hash_table_contains (b->q_devices, GINT_TO_POINTER (mt->q_device)))
            {
              QDevice *d = g_new0 (QDevice, 1);

              d->device = mt->q_device;
              d->cores = g_hash_table_new (NULL, NULL);
              g_hash_table_insert (b->q_devices, GINT_TO_POINTER (mt->q_device), d);
            }
          if (mt->q_engine != NULL)
            {
              char *key = g_strdup_printf ("%d/%d/%s", mt->q_device, mt->q_core, mt->q_engine);
              guint n = GPOINTER_TO_UINT (g_hash_table_lookup (engine_counts, key));

              g_hash_table_replace (engine_counts, key, GUINT_TO_POINTER (n + 1));
            }
        }
    }

  if (qthreads->len == 0)
    return;

  g_ptr_array_sort_with_data (qthreads, compare_threads, b);

  /* devices in number order, then their cores, then engines */
  {
    GHashTableIter iter;
    gpointer key;

    g_hash_table_iter_init (&iter, b->q_devices);
    while (g_hash_table_iter_next (&iter, &key, NULL))
      {
        gint device = GPOINTER_TO_INT (key);
        g_array_append_val (device_order, device);
      }
    g_array_sort (device_order, compare_ints);
  }

  for (guint di = 0; di < device_order->len; di++)
    {
      gint device = g_array_index (device_order, gint, di);
      QDevice *d = g_hash_table_lookup (b->q_devices, GINT_TO_POINTER (device));
      g_autofree char *name = NULL;
      g_autofree char *native = NULL;
      guint dsort = 0;

      name = g_strdup_printf ("QAic device %d", device);
      native = g_strdup_printf ("slice%02d", device);
      d->track_id = add_track (b, 0, TES_TRACK_DEVICE, name, sort++, native);

      for (guint i = 0; i < qthreads->len; i++)
        {
          MThread *mt = g_ptr_array_index (qthreads, i);
          gint64 core_track;
          g_autofree char *label = NULL;

          if (mt->q_device != device)
            continue;

          if (mt->q_core < 0)
            {
              /* P2P and other per-device threads */
              mt->track_id = add_track (b, d->track_id, TES_TRACK_THREAD, mt->q_engine, dsort++,
                                        text_of (b, mt->name));
              continue;
            }

          core_track = GPOINTER_TO_SIZE (g_hash_table_lookup (d->cores, GINT_TO_POINTER (mt->q_core)));
          if (core_track == 0)
            {
              g_autofree char *core_name = g_strdup_printf ("Core %d", mt->q_core);
              g_autofree char *core_native = g_strdup_printf ("slice%02d_Core_%d", device, mt->q_core);

              core_track = add_track (b, d->track_id, TES_TRACK_CORE, core_name, dsort++, core_native);
              g_hash_table_insert (d->cores, GINT_TO_POINTER (mt->q_core), GSIZE_TO_POINTER (core_track));
            }

          if (mt->q_engine == NULL)
            {
              /* the core's own thread: its execution envelope */
              mt->track_id = core_track;
              continue;
            }

          {
            g_autofree char *key = g_strdup_printf ("%d/%d/%s", mt->q_device, mt->q_core, mt->q_engine);
            guint n = GPOINTER_TO_UINT (g_hash_table_lookup (engine_counts, key));
            guint nth = GPOINTER_TO_UINT (g_hash_table_lookup (engine_seen, key));

            g_hash_table_replace (engine_seen, g_strdup (key), GUINT_TO_POINTER (nth + 1));
            if (n > 1)
              label = g_strdup_printf ("%s %u", mt->q_engine, nth);
            else
              label = g_strdup (mt->q_engine);
          }

          mt->track_id = add_track (b, core_track, TES_TRACK_THREAD, label, i, text_of (b, mt->name));
        }
    }
}

static void
create_tracks (Builder *b)
{
  g_autoptr(GPtrArray) order = g_ptr_array_new ();
  guint sort = 0;

  if (b->flavour == FLAVOUR_QAIC)
    {
      create_qaic_tracks (b);
      sort = g_hash_table_size (b->q_devices);
    }

  for (guint i = 0; i < b->processes->len; i++)
    g_ptr_array_add (order, g_ptr_array_index (b->processes, i));
  g_ptr_array_sort_with_data (order, compare_processes, b);

  for (guint i = 0; i < order->len; i++)
    {
      MProcess *mp = g_ptr_array_index (order, i);
      g_autofree char *pid = id_text (b, mp->pid, mp->key_flags);
      g_autofree char *fallback = NULL;
      g_autofree char *native = g_strdup_printf ("%s", pid);
      guint child_sort = 0;
      TesTrackKind kind = TES_TRACK_PROCESS;
      gint ipu;

      if (!process_needs_track (mp))
        continue;

      if (mp->name == 0)
        fallback = g_strdup_printf ("Process %s", pid);
      if (b->flavour == FLAVOUR_POPLAR && parse_numbered_name (text_of (b, mp->name), "IPU", &ipu))
        kind = TES_TRACK_IPU;
      mp->track_id = add_track (b, 0, kind, mp->name ? text_of (b, mp->name) : fallback,
                                sort++, native);

      create_thread_tracks (b, mp, mp->track_id, &child_sort);

      g_ptr_array_sort (mp->asyncs, compare_async_tracks);
      for (guint j = 0; j < mp->asyncs->len; j++)
        {
          AsyncTrack *t = g_ptr_array_index (mp->asyncs, j);

          t->track_id = add_track (b, mp->track_id, TES_TRACK_ASYNC,
                                   t->name ? text_of (b, t->name) : "Async", child_sort++, NULL);
        }

      g_ptr_array_sort (mp->counters, compare_counters);
      for (guint j = 0; j < mp->counters->len; j++)
        {
          MCounter *c = g_ptr_array_index (mp->counters, j);

          c->track_id = add_track (b, mp->track_id, TES_TRACK_COUNTER, c->label, child_sort++, NULL);
        }
    }

  if (b->global_instants || b->global_asyncs->len > 0)
    {
      guint child_sort = 0;

      b->global_track = add_track (b, 0, TES_TRACK_PROCESS, "Global", sort++, "global");
      g_ptr_array_sort (b->global_asyncs, compare_async_tracks);
      for (guint j = 0; j < b->global_asyncs->len; j++)
        {
          AsyncTrack *t = g_ptr_array_index (b->global_asyncs, j);

          t->track_id = add_track (b, b->global_track, TES_TRACK_ASYNC,
                                   t->name ? text_of (b, t->name) : "Async", child_sort++, NULL);
        }
    }
}

/* ---- writing ----------------------------------------------------------- */

typedef struct
{
  gint64  start;     /* converted */
  guint   index;
} Order;

static int
compare_order (gconstpointer pa,
               gconstpointer pb)
{
  const Order *a = pa;
  const Order *b = pb;

  if (a->start != b->start)
    return a->start < b->start ? -1 : 1;
  return (a->index > b->index) - (a->index < b->index);
}

/* "<index> <TYPE>": SigmaStar's layer names; also "<TYPE>" alone */
static gboolean
split_layer_name (const char  *name,
                  gint64      *index,
                  char       **type)
{
  const char *p = name;
  char *end = NULL;

  *index = -1;
  *type = NULL;

  if (name == NULL)
    return FALSE;

  while (*p == ' ')
    p++;
  if (g_ascii_isdigit (*p))
    {
      gint64 v = g_ascii_strtoll (p, &end, 10);

      if (end != p && *end == ' ')
        {
          while (*end == ' ')
            end++;
          if (*end != '\0')
            {
              *index = v;
              *type = g_strdup (end);
              return TRUE;
            }
        }
    }

  *type = g_strdup (name);
  return FALSE;
}

static char *
sigmastar_breakdown (const char *args,
                     gsize       len,
                     gint64      total)
{
  static const struct { const char *arg; const char *key; } parts[] = {
    { "conv_cycle_percent", "conv" },
    { "vector_cycle_percent", "vector" },
    { "dma_load_cycle_percent", "dma_load" },
    { "dma_store_cycle_percent", "dma_store" },
  };
  GString *s = g_string_new ("{");

  g_string_append_printf (s, "\"total_cycles\":%" G_GINT64_FORMAT, total);
  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    {
      const char *v;
      gsize vl;
      double pct;
      char buf[G_ASCII_DTOSTR_BUF_SIZE];

      if (!tes_chrome_args_find (args, len, parts[i].arg, &v, &vl) ||
          !tes_chrome_value_to_double (v, vl, TRUE, &pct))
        continue;

      g_string_append_printf (s, ",\"%s_percent\":%s,\"%s_cycles\":%" G_GINT64_FORMAT,
                              parts[i].key, g_ascii_dtostr (buf, sizeof buf, pct),
                              parts[i].key, (gint64)llround (pct * (double)total / 100.0));
    }
  g_string_append_c (s, '}');

  return g_string_free (s, FALSE);
}

typedef struct
{
  gint64  op_index;
  char   *name;
  char   *type;
  gint64  total;
  gint64  track;
  char   *args;
} LayerRow;

static void
layer_row_clear (gpointer data)
{
  LayerRow *row = data;

  g_free (row->name);
  g_free (row->type);
  g_free (row->args);
}

static void
write_sigmastar_thread (Builder *b,
                        MThread *mt,
                        GArray  *layers)
{
  g_autoptr(GArray) order = g_array_new (FALSE, FALSE, sizeof (Order));
  g_autoptr(GArray) refs = g_array_new (FALSE, FALSE, sizeof (Part));
  g_autoptr(GArray) slots = g_array_new (FALSE, FALSE, sizeof (guint));
  gint64 tolerance = (b->mhz + 999) / 1000;   /* one ns of cycles */
  gint64 prev_end = G_MININT64;

  for (guint pi = 0; pi < mt->parts->len; pi++)
    {
      Part *part = &g_array_index (mt->parts, Part, pi);

      for (guint s = 0; s < part->thread->slices->len; s++)
        {
          Order o = { convert (b, g_array_index (part->thread->slices, TesChromeSlice, s).start), order->len };

          g_array_append_val (order, o);
          g_array_append_val (refs, *part);
          g_array_append_val (slots, s);
        }
    }
  g_array_sort (order, compare_order);

  for (guint i = 0; i < order->len; i++)
    {
      Order *o = &g_array_index (order, Order, i);
      Part *part = &g_array_index (refs, Part, o->index);
      TesChromeThread *t = part->thread;
      TesChromeSlice *sl = &g_array_index (t->slices, TesChromeSlice, g_array_index (slots, guint, o->index));
      const char *args = t->args->str + sl->args_off;
      const char *name = tes_chrome_strings_get (&part->seg->strings, sl->name);
      gint64 cycles = args_cycles (args, sl->args_len, "total_cycle");
      gint64 start = o->start;
      gint64 dur;
      LayerRow row = { 0 };
      guint32 type_id;

      /* a start within one ns of the previous layer's end is that end:
       * the vendor rounds ts to the ns, cycles are exact */
      if (prev_end != G_MININT64 && start != prev_end && ABS (start - prev_end) <= tolerance)
        start = prev_end;
      dur = cycles >= 0 ? cycles : convert (b, sl->dur);
      prev_end = start + dur;

      split_layer_name (name, &row.op_index, &row.type);
      if (row.op_index < 0)
        {
          gint64 idx = args_cycles (args, sl->args_len, "layer_index");

          if (idx >= 0)
            row.op_index = idx;
        }
      type_id = tes_cache_writer_intern (b->writer, row.type);

      tes_cache_writer_add_slice (b->writer, mt->track_id, start, dur,
                                  wid (b, gid (b, part->seg, sl->name)), type_id,
                                  sl->flags, sl->args_len ? args : NULL, sl->args_len);

      if (cycles >= 0)
        {
          row.name = g_strdup (name ? name : row.type);
          row.total = cycles;
          row.track = mt->track_id;
          row.args = sigmastar_breakdown (args, sl->args_len, cycles);
          g_array_append_val (layers, row);
        }
      else
        layer_row_clear (&row);
    }
}

static void
write_sigmastar_operators (Builder *b,
                           GArray  *layers)
{
  double sum = 0;

  for (guint i = 0; i < layers->len; i++)
    sum += (double)g_array_index (layers, LayerRow, i).total;

  for (guint i = 0; i < layers->len; i++)
    {
      LayerRow *row = &g_array_index (layers, LayerRow, i);
      TesOperatorRow op = TES_OPERATOR_ROW_INIT;

      op.source_id = b->context->source_id;
      op.track_id = row->track;
      op.op_index = row->op_index;
      op.name = row->name;
      op.type = row->type;
      op.count = 1;
      op.total = row->total;
      op.clock_id = b->clock_id;
      op.share = sum > 0 ? 100.0 * (double)row->total / sum : 0.0;
      op.args_json = row->args;
      tes_cache_writer_add_operator (b->writer, &op);
    }
}

static char *
strip_dup (const char *s,
           gsize       len)
{
  g_autofree char *text = tes_chrome_value_dup_string (s, len);

  return g_strdup (g_strstrip (text));
}

static QDevice *
qaic_device_of (Builder *b,
                MThread *mt)
{
  return mt->q_device >= 0 ? g_hash_table_lookup (b->q_devices, GINT_TO_POINTER (mt->q_device)) : NULL;
}

typedef struct
{
  gint64  track;
  gint64  ts;
  guint32 name;   /* writer id */
} P2PEnd;

static void
qaic_slice (Builder              *b,
            MThread              *mt,
            Part                 *part,
            const TesChromeSlice *sl,
            gint64               *dur,
            guint32              *category)
{
  const char *args = part->thread->args->str + sl->args_off;
  gsize len = sl->args_len;
  const char *name = tes_chrome_strings_get (&part->seg->strings, sl->name);
  const char *v;
  gsize vl;
  QDevice *d = qaic_device_of (b, mt);

  if (len == 0)
    return;

  if (tes_chrome_args_find (args, len, "opKind", &v, &vl))
    {
      g_autofree char *kind = strip_dup (v, vl);

      if (*kind)
        *category = tes_cache_writer_intern (b->writer, kind);
    }

  /* sync waits are written with dur 0; their length is opSyncDurUs */
  if (*dur == 0 && name != NULL && g_str_has_prefix (name, "sync ") &&
      tes_chrome_args_find (args, len, "opSyncDurUs", &v, &vl))
    {
      g_autofree char *text = tes_chrome_value_dup_string (v, vl);
      gint64 ns;

      if (tes_chrome_parse_decimal (text, strlen (text), 3, &ns) <= TES_CHROME_DECIMAL_ROUNDED && ns > 0)
        *dur = ns;
    }

  if (d != NULL && d->mhz == 0 && tes_chrome_args_find (args, len, "effectiveFreq", &v, &vl))
    {
      double mhz;

      if (tes_chrome_value_to_double (v, vl, TRUE, &mhz) && mhz > 0 && mhz < 1e6)
        {
          g_autofree char *clock = g_strdup_printf ("QAic device %d pcycles", d->device);

          d->mhz = mhz;
          d->clock_id = tes_cache_writer_add_clock (b->writer, clock, TES_TIME_UNIT_CYCLES,
                                                    (gint64)llround (mhz * 1e6));
        }
    }

  if (tes_chrome_args_find (args, len, "opPCycle", &v, &vl))
    {
      TesOperatorRow op = TES_OPERATOR_ROW_INIT;
      g_autofree char *op_name = NULL;
      g_autofree char *kind = NULL;
      g_autoptr(GString) extra = g_string_new ("{");
      const char *uv;
      gsize uvl;
      double pc;

      if (tes_chrome_args_find (args, len, "opName", &uv, &uvl))
        op_name = strip_dup (uv, uvl);
      if (tes_chrome_args_find (args, len, "opKind", &uv, &uvl))
        kind = strip_dup (uv, uvl);

      op.source_id = b->context->source_id;
      op.track_id = mt->track_id;
      op.name = op_name && *op_name ? op_name : (name ? name : "");
      op.type = kind && *kind ? kind : (name ? name : "");
      op.count = 1;
      if (tes_chrome_value_to_double (v, vl, TRUE, &pc) && pc >= 0)
        op.total = (gint64)llround (pc);
      op.clock_id = d ? d->clock_id : 0;

      g_string_append_printf (extra, "\"pcycles\":%s", op.total >= 0 ? "" : "null");
      if (op.total >= 0)
        g_string_append_printf (extra, "%" G_GINT64_FORMAT, op.total);
      if (tes_chrome_args_find (args, len, "opUCycle", &uv, &uvl) &&
          tes_chrome_value_to_double (uv, uvl, TRUE, &pc) && pc >= 0)
        g_string_append_printf (extra, ",\"ucycles\":%" G_GINT64_FORMAT, (gint64)llround (pc));
      else
        g_string_append (extra, ",\"ucycles\":null");
      if (tes_chrome_args_find (args, len, "oc", &uv, &uvl))
        {
          g_string_append (extra, ",\"oc\":");
          g_string_append_len (extra, uv, uvl);
        }
      g_string_append_c (extra, '}');
      op.args_json = extra->str;
      tes_cache_writer_add_operator (b->writer, &op);
    }

  /* P2P: a send "a->b" and a receive "b<-a" share a TransactionId */
  if (tes_chrome_args_find (args, len, "PortDescription", &v, &vl))
    {
      g_autofree char *port = strip_dup (v, vl);
      g_autofree char *txid = NULL;
      g_autofree char *key = NULL;
      const char *tv;
      gsize tvl;
      char *arrow;
      gboolean send;

      if (!tes_chrome_args_find (args, len, "TransactionId", &tv, &tvl))
        return;
      txid = strip_dup (tv, tvl);

      if ((arrow = strstr (port, "->")))
        {
          send = TRUE;
          *arrow = '\0';
          key = g_strdup_printf ("%s>%s#%s", port, arrow + 2, txid);
        }
      else if ((arrow = strstr (port, "<-")))
        {
          send = FALSE;
          *arrow = '\0';
          key = g_strdup_printf ("%s>%s#%s", arrow + 2, port, txid);
        }
      else
        return;

      {
        P2PEnd *end = g_new0 (P2PEnd, 1);

        end->track = mt->track_id;
        end->ts = sl->start;
        end->name = wid (b, gid (b, part->seg, sl->name));
        g_hash_table_replace (send ? b->p2p : b->p2p_recv, g_steal_pointer (&key), end);
      }
    }
}

static void
write_qaic_flows (Builder *b)
{
  GHashTableIter iter;
  gpointer key, value;
  guint32 cat = tes_cache_writer_intern (b->writer, "P2P");

  g_hash_table_iter_init (&iter, b->p2p);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      P2PEnd *from = value;
      P2PEnd *to = g_hash_table_lookup (b->p2p_recv, key);

      if (to == NULL)
        {
          warn (b, TES_CHROME_W_FLOW_UNMATCHED, G_MAXUINT64);
          continue;
        }
      tes_cache_writer_add_flow (b->writer, from->name, cat, from->track, from->ts, to->track, to->ts);
    }
}

typedef struct
{
  const TesChromeSlice *cur;
  const TesChromeSlice *end;
  Part                 *part;
} Run;

/* The state a tile is in while a Poplar program of that kind runs. */
static TesTileState
poplar_tile_state (const char *program)
{
  if (program == NULL)
    return TES_TILE_STATE_COMPUTE;
  if (strstr (program, "Sync"))
    return TES_TILE_STATE_SYNC;
  if (strstr (program, "Exchange") || strstr (program, "Copy"))
    return TES_TILE_STATE_EXCHANGE;
  return TES_TILE_STATE_COMPUTE;
}

/* A tile's event with an args "step" adds its cycles to that BSP step of
 * its IPU; tiles with no event in a step stay idle there. */
static void
poplar_bsp_add (Builder    *b,
                MThread    *mt,
                const char *args,
                gsize       args_len,
                const char *name,
                gint64      start,
                gint64      cycles)
{
  gint64 step_no = args_cycles (args, args_len, "step");
  BspStep *step;
  gint ipu, tile;
  gint64 key;

  if (step_no < 0 || step_no > G_MAXINT32 || !poplar_tile_of (b, mt, &ipu, &tile) || tile < 0 || tile > 1 << 20)
    return;

  key = ((gint64)ipu << 32) | step_no;
  if (!(step = g_hash_table_lookup (b->bsp_steps, &key)))
    {
      const char *v;
      gsize vl;

      step = g_new0 (BspStep, 1);
      step->ipu = ipu;
      step->step = step_no;
      step->start = start;
      step->end = start + cycles;
      step->cycles = g_array_new (FALSE, TRUE, sizeof (guint32));
      step->states = g_array_new (FALSE, TRUE, sizeof (guint8));
      /* the program's name when args give a plain one, else the event's */
      if (tes_chrome_args_find (args, args_len, "program", &v, &vl) && vl >= 2 && v[0] == '"' &&
          memchr (v + 1, '\\', vl - 2) == NULL)
        step->program = g_strndup (v + 1, vl - 2);
      else
        step->program = g_strdup (name);
      g_hash_table_insert (b->bsp_steps, g_memdup2 (&key, sizeof key), step);
    }

  step->start = MIN (step->start, start);
  step->end = MAX (step->end, start + cycles);
  if ((guint)tile >= step->cycles->len)
    {
      g_array_set_size (step->cycles, tile + 1);
      g_array_set_size (step->states, tile + 1);
    }
  g_array_index (step->cycles, guint32, tile) += (guint32)MIN (cycles, G_MAXUINT32);
  g_array_index (step->states, guint8, tile) = poplar_tile_state (name);
}

static int
compare_bsp_steps (gconstpointer a,
                   gconstpointer b)
{
  const BspStep *sa = *(BspStep * const *)a;
  const BspStep *sb = *(BspStep * const *)b;

  if (sa->ipu != sb->ipu)
    return sa->ipu < sb->ipu ? -1 : 1;
  return (sa->step > sb->step) - (sa->step < sb->step);
}

/* One run per IPU, and its steps with one entry per tile of the IPU (the
 * tiles the trace names, busy or not). */
static void
write_poplar_bsp (Builder *b)
{
  g_autoptr(GPtrArray) steps = g_ptr_array_new ();
  g_autoptr(GHashTable) n_tiles = g_hash_table_new (NULL, NULL);
  GHashTableIter iter;
  gpointer value;
  gint64 run_id = 0;
  gint run_ipu = -1;

  g_hash_table_iter_init (&iter, b->bsp_steps);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (steps, value);

  if (steps->len == 0)
    return;

  for (guint i = 0; i < b->processes->len; i++)
    {
      MProcess *mp = g_ptr_array_index (b->processes, i);

      for (guint j = 0; j < mp->threads->len; j++)
        {
          gint ipu, tile;

          if (poplar_tile_of (b, g_ptr_array_index (mp->threads, j), &ipu, &tile) && tile >= 0 && tile <= 1 << 20)
            {
              guint n = GPOINTER_TO_UINT (g_hash_table_lookup (n_tiles, GINT_TO_POINTER (ipu)));
              g_hash_table_insert (n_tiles, GINT_TO_POINTER (ipu), GUINT_TO_POINTER (MAX (n, (guint)tile + 1)));
            }
        }
    }

  g_ptr_array_sort (steps, compare_bsp_steps);

  for (guint i = 0; i < steps->len; i++)
    {
      BspStep *step = g_ptr_array_index (steps, i);
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (n_tiles, GINT_TO_POINTER (step->ipu)));

      if (step->ipu != run_ipu)
        {
          g_autofree char *name = g_strdup_printf ("IPU %d", step->ipu);
          gint64 end = step->end;

          for (guint k = i; k < steps->len && ((BspStep *)g_ptr_array_index (steps, k))->ipu == step->ipu; k++)
            end = MAX (end, ((BspStep *)g_ptr_array_index (steps, k))->end);
          run_id = tes_cache_writer_add_run (b->writer, name, b->clock_id, step->start, end);
          run_ipu = step->ipu;
        }

      n = MAX (n, step->cycles->len);
      g_array_set_size (step->cycles, n);
      g_array_set_size (step->states, n);
      tes_cache_writer_add_bsp_step (b->writer, run_id, step->step, b->clock_id, step->start,
                                     step->end - step->start, step->program, n,
                                     (const guint32 *)(gpointer)step->cycles->data,
                                     (const guint8 *)step->states->data);
    }
}

static void
write_one (Builder              *b,
           MThread              *mt,
           Part                 *part,
           const TesChromeSlice *sl)
{
  TesChromeThread *t = part->thread;
  gint64 start = sl->start;
  gint64 dur = sl->dur;
  guint32 category = wid (b, gid (b, part->seg, sl->cat));

  if (b->flavour == FLAVOUR_QAIC && mt->q_device >= 0)
    qaic_slice (b, mt, part, sl, &dur, &category);

  /* Poplar in cycles: the step's cycles as the tool counted them, the
   * start from ts (within a cycle: ts is rounded to the ns first) */
  if (b->flavour == FLAVOUR_POPLAR && b->mhz > 0)
    {
      gint64 cycles = args_cycles (t->args->str + sl->args_off, sl->args_len, "cycles");

      start = convert (b, sl->start);
      dur = cycles >= 0 ? cycles : convert (b, sl->start + sl->dur) - start;
      poplar_bsp_add (b, mt, t->args->str + sl->args_off, sl->args_len,
                      text_of (b, gid (b, part->seg, sl->name)), start, dur);
    }

  tes_cache_writer_add_slice (b->writer, mt->track_id, start, dur,
                              wid (b, gid (b, part->seg, sl->name)), category, sl->flags,
                              sl->args_len ? t->args->str + sl->args_off : NULL, sl->args_len);
}

static gboolean
run_before (const Run *a,
            const Run *b)
{
  int c = tes_chrome_slice_compare (a->cur, b->cur);

  /* equal slices: the earlier part of the file first */
  return c < 0 || (c == 0 && a < b);
}

static void
sift_down (Run   **heap,
           guint   n,
           guint   i)
{
  for (;;)
    {
      guint l = 2 * i + 1;
      guint m = i;
      Run *tmp;

      if (l < n && run_before (heap[l], heap[m]))
        m = l;
      if (l + 1 < n && run_before (heap[l + 1], heap[m]))
        m = l + 1;
      if (m == i)
        return;
      tmp = heap[i];
      heap[i] = heap[m];
      heap[m] = tmp;
      i = m;
    }
}

/* k-way merge of the sorted runs with a binary heap; the run on top keeps
 * emitting while it is ahead of both children, so runs that do not
 * overlap in time (the usual case) cost one comparison per slice. */
static void
merge_runs (Builder *b,
            MThread *mt,
            Run     *runs,
            guint    n_runs)
{
  g_autofree Run **heap = g_new (Run *, MAX (n_runs, 1));
  guint n = 0;

  for (guint r = 0; r < n_runs; r++)
    if (runs[r].cur < runs[r].end)
      heap[n++] = &runs[r];

  for (gint i = (gint)n / 2 - 1; i >= 0; i--)
    sift_down (heap, n, i);

  while (n > 0)
    {
      Run *top = heap[0];
      Run *next = NULL;

      if (n > 1)
        next = (n > 2 && run_before (heap[2], heap[1])) ? heap[2] : heap[1];

      do
        {
          write_one (b, mt, top->part, top->cur);
          top->cur++;
        }
      while (top->cur < top->end && (next == NULL || run_before (top, next)));

      if (top->cur >= top->end)
        heap[0] = heap[--n];
      sift_down (heap, n, 0);
    }
}

/* Each part holds a sorted run (sorted by its parsing thread) and maybe a
 * few slices the merge added; handing them over merged in start order lets
 * the writer skip its own sort. */
static void
write_thread (Builder *b,
              MThread *mt)
{
  g_autoptr(GArray) runs = g_array_new (FALSE, FALSE, sizeof (Run));

  for (guint pi = 0; pi < mt->parts->len; pi++)
    {
      Part *part = &g_array_index (mt->parts, Part, pi);
      GArray *slices = part->thread->slices;
      TesChromeSlice *data = (TesChromeSlice *)(gpointer)slices->data;
      guint sorted = MIN (part->thread->n_sorted, slices->len);
      Run head = { data, data + sorted, part };
      Run tail = { data + sorted, data + slices->len, part };

      if (slices->len > sorted)
        g_qsort_with_data (data + sorted, slices->len - sorted, sizeof (TesChromeSlice),
                           (GCompareDataFunc)(gpointer)tes_chrome_slice_compare, NULL);
      if (head.cur < head.end)
        g_array_append_val (runs, head);
      if (tail.cur < tail.end)
        g_array_append_val (runs, tail);
    }

  merge_runs (b, mt, (Run *)(gpointer)runs->data, runs->len);
}

/* Frees the per-thread arrays once their rows are in the writer, so that
 * the peak is one copy of the slices, not two. */
static void
release_thread (MThread *mt)
{
  for (guint pi = 0; pi < mt->parts->len; pi++)
    {
      TesChromeThread *t = g_array_index (mt->parts, Part, pi).thread;

      g_array_set_size (t->slices, 0);
      g_array_unref (t->slices);
      t->slices = g_array_new (FALSE, FALSE, sizeof (TesChromeSlice));
      g_string_free (t->args, TRUE);
      t->args = g_string_new (NULL);
    }
}

static void
write_rows (Builder *b)
{
  g_autoptr(GArray) layers = g_array_new (FALSE, TRUE, sizeof (LayerRow));
  g_autoptr(GString) buf = g_string_new (NULL);

  g_array_set_clear_func (layers, layer_row_clear);

  for (guint i = 0; i < b->processes->len; i++)
    {
      MProcess *mp = g_ptr_array_index (b->processes, i);

      for (guint j = 0; j < mp->threads->len; j++)
        {
          MThread *mt = g_ptr_array_index (mp->threads, j);

          if (mt->track_id == 0)
            continue;

          if (b->flavour == FLAVOUR_SIGMASTAR)
            write_sigmastar_thread (b, mt, layers);
          else
            write_thread (b, mt);
          release_thread (mt);
        }
    }

  if (b->flavour == FLAVOUR_SIGMASTAR)
    write_sigmastar_operators (b, layers);
  if (b->flavour == FLAVOUR_QAIC)
    write_qaic_flows (b);

  for (guint i = 0; i < b->async_tracks->len; i++)
    {
      AsyncTrack *t = g_ptr_array_index (b->async_tracks, i);

      for (guint s = 0; s < t->slices->len; s++)
        {
          TesChromeSlice *sl = &g_array_index (t->slices, TesChromeSlice, s);

          tes_cache_writer_add_slice (b->writer, t->track_id, convert (b, sl->start),
                                      convert (b, sl->start + sl->dur) - convert (b, sl->start),
                                      wid (b, sl->name), wid (b, sl->cat), sl->flags,
                                      sl->args_len ? t->args->str + sl->args_off : NULL, sl->args_len);
        }
      for (guint s = 0; s < t->instants->len; s++)
        {
          TesChromeInstant *inst = &g_array_index (t->instants, TesChromeInstant, s);

          g_string_truncate (buf, 0);
          g_string_append_len (buf, t->args->str + inst->args_off, inst->args_len);
          tes_cache_writer_add_instant (b->writer, t->track_id, convert (b, inst->ts),
                                        wid (b, inst->name), wid (b, inst->cat),
                                        TES_INSTANT_SCOPE_THREAD, inst->args_len ? buf->str : NULL);
        }
    }

  for (guint k = 0; k < b->n_segs; k++)
    {
      TesChromeSegment *seg = b->segs[k];

      for (guint i = 0; i < seg->instants->len; i++)
        {
          TesChromeInstant *inst = &g_array_index (seg->instants, TesChromeInstant, i);
          gint64 track;
          TesInstantScope scope;

          if (inst->scope == 't')
            {
              track = ((MThread *)inst->thread->merged)->track_id;
              scope = TES_INSTANT_SCOPE_THREAD;
            }
          else if (inst->scope == 'p')
            {
              track = ((MProcess *)inst->process->merged)->track_id;
              scope = TES_INSTANT_SCOPE_PROCESS;
            }
          else
            {
              track = b->global_track;
              scope = TES_INSTANT_SCOPE_GLOBAL;
            }

          g_string_truncate (buf, 0);
          g_string_append_len (buf, seg->misc->str + inst->args_off, inst->args_len);
          tes_cache_writer_add_instant (b->writer, track, convert (b, inst->ts),
                                        wid (b, gid (b, seg, inst->name)), wid (b, gid (b, seg, inst->cat)),
                                        scope, inst->args_len ? buf->str : NULL);
        }
    }

  for (guint i = 0; i < b->counters->len; i++)
    {
      MCounter *c = g_ptr_array_index (b->counters, i);
      gint64 track = c->track_id;

      for (guint v = 0; v < c->values->len; v++)
        {
          GArray *values = g_ptr_array_index (c->values, v);

          for (guint j = 0; j < values->len; j++)
            {
              TesChromeCounterValue *cv = &g_array_index (values, TesChromeCounterValue, j);

              tes_cache_writer_add_counter_value (b->writer, track, convert (b, cv->ts), cv->value);
            }
        }
    }

  for (guint i = 0; i < b->flows->len; i++)
    {
      MFlow *f = &g_array_index (b->flows, MFlow, i);

      tes_cache_writer_add_flow (b->writer, wid (b, f->name), wid (b, f->cat),
                                 f->from.thread->track_id, convert (b, f->from.ts),
                                 f->to.thread->track_id, convert (b, f->to.ts));
    }
}

/* ---- info ---------------------------------------------------------------- */

static const struct
{
  const char *key;
  const char *what;
} warning_text[TES_CHROME_N_WARNINGS] = {
  [TES_CHROME_W_TRUNCATED] = { "warning.truncated", "the file ends without closing its JSON; every complete event was kept" },
  [TES_CHROME_W_PARTIAL_EVENT] = { "warning.partial_event", "event cut off by the end of the file was dropped" },
  [TES_CHROME_W_NOT_OBJECT] = { "warning.not_an_event", "entries of the event array that are not objects were skipped" },
  [TES_CHROME_W_NO_PHASE] = { "warning.no_phase", "events without \"ph\" were skipped" },
  [TES_CHROME_W_UNKNOWN_PHASE] = { "warning.unknown_phase", "events with an unknown \"ph\" were skipped" },
  [TES_CHROME_W_UNSUPPORTED_PHASE] = { "warning.unsupported_phase", "sample, object and context events (P, O/N/D, (/), v/V, c) were skipped" },
  [TES_CHROME_W_NO_TS] = { "warning.no_ts", "events without a valid \"ts\" were skipped" },
  [TES_CHROME_W_BAD_TYPE] = { "warning.bad_type", "fields of the wrong JSON type were ignored" },
  [TES_CHROME_W_RANGE] = { "warning.out_of_range", "events whose ts or dur overflow 64-bit nanoseconds were skipped" },
  [TES_CHROME_W_ROUNDED] = { "warning.rounded", "events had times finer than 1 ns, rounded to the nearest ns" },
  [TES_CHROME_W_NEGATIVE_DUR] = { "warning.negative_dur", "negative durations were clamped to 0 (flagged)" },
  [TES_CHROME_W_E_WITHOUT_B] = { "warning.e_without_b", "E events without a matching B were dropped" },
  [TES_CHROME_W_UNCLOSED] = { "warning.unclosed", "begins without an end were closed at the end of the trace (flagged)" },
  [TES_CHROME_W_ASYNC_UNMATCHED] = { "warning.async_unmatched", "async end or step events without an open begin were dropped" },
  [TES_CHROME_W_FLOW_UNMATCHED] = { "warning.flow_unmatched", "flow steps or ends without a start were dropped" },
  [TES_CHROME_W_COUNTER_VALUE] = { "warning.counter_value", "counter args that are not numbers were skipped" },
};

static void
write_info (Builder  *b,
            gboolean  gzip,
            gboolean  object_form,
            guint     n_planned)
{
  TesCacheWriter *w = b->writer;
  gint64 source = b->context->source_id;
  TesChromeSegment *seg0 = b->segs[0];
  g_autofree char *form = g_strdup_printf ("Chrome Trace Event JSON, %s form%s",
                                           object_form ? "object" : "array",
                                           gzip ? ", gzip" : "");
  g_autofree char *pieces = g_strdup_printf ("%u of %u", b->n_segs, n_planned);

  tes_cache_writer_set_info (w, source, "format", form);
  tes_cache_writer_set_info (w, source, "flavour",
                             b->flavour == FLAVOUR_SIGMASTAR ? "SigmaStar performance_timeline.py" :
                             b->flavour == FLAVOUR_QAIC ? "Qualcomm qaic-opstats trace" :
                             b->flavour == FLAVOUR_POPLAR ? "Graphcore Poplar tile execution trace" : "generic");
  tes_cache_writer_set_info (w, source, "parse_pieces", pieces);

  if (seg0->display_time_unit)
    tes_cache_writer_set_info (w, source, "displayTimeUnit",
                               tes_chrome_strings_get (&seg0->strings, seg0->display_time_unit));

  for (guint i = 0; i + 1 < seg0->info->len; i += 2)
    tes_cache_writer_set_info (w, source, g_ptr_array_index (seg0->info, i), g_ptr_array_index (seg0->info, i + 1));

  if (b->flavour == FLAVOUR_SIGMASTAR)
    {
      g_autofree char *mhz = g_strdup_printf ("%" G_GINT64_FORMAT, b->mhz);

      tes_cache_writer_set_info (w, source, "clock_mhz", mhz);
      tes_cache_writer_set_info (w, source, "clock_source", "sum of total_cycle / sum of dur, whole MHz");
    }
  else if (b->flavour == FLAVOUR_POPLAR && b->mhz > 0)
    {
      g_autofree char *mhz = g_strdup_printf ("%" G_GINT64_FORMAT, b->mhz);

      tes_cache_writer_set_info (w, source, "clock_mhz", mhz);
      tes_cache_writer_set_info (w, source, "clock_source", "otherData.clock_mhz; slice durations from args.cycles");
    }

  {
    guint64 offsets[TES_CHROME_N_WARNINGS];
    guint64 lines[TES_CHROME_N_WARNINGS];
    guint n = 0;

    /* one pass over the file for all the line numbers */
    for (guint i = 0; i < TES_CHROME_N_WARNINGS; i++)
      if (b->warnings[i].count > 0 && b->warnings[i].first_offset != G_MAXUINT64)
        offsets[n++] = b->warnings[i].first_offset;
    tes_chrome_lines_of_offsets (b->context->path, offsets, lines, n);

    n = 0;
    for (guint i = 0; i < TES_CHROME_N_WARNINGS; i++)
      {
        TesChromeWarningCount *wc = &b->warnings[i];
        g_autofree char *text = NULL;

        if (wc->count == 0)
          continue;

        if (wc->first_offset != G_MAXUINT64)
          {
            text = g_strdup_printf ("%" G_GUINT64_FORMAT " %s (first at byte %" G_GUINT64_FORMAT ", line %" G_GUINT64_FORMAT ")",
                                    wc->count, warning_text[i].what, wc->first_offset, lines[n]);
            n++;
          }
        else
          text = g_strdup_printf ("%" G_GUINT64_FORMAT " %s", wc->count, warning_text[i].what);
        tes_cache_writer_set_info (w, source, warning_text[i].key, text);
      }
  }
}

/* ---- entry point ------------------------------------------------------- */

gboolean
tes_chrome_build (TesImportContext  *context,
                  TesChromeSegment **segments,
                  guint              n_segments,
                  guint              n_planned,
                  gboolean           gzip,
                  gboolean           object_form,
                  GError           **error)
{
  Builder builder = { 0 };
  Builder *b = &builder;
  guint64 n_events = 0;
  gboolean ok = FALSE;

  b->context = context;
  b->writer = context->writer;
  b->segs = segments;
  b->n_segs = n_segments;
  b->gid_of = g_hash_table_new (g_str_hash, g_str_equal);
  b->texts = g_ptr_array_new ();
  g_ptr_array_add (b->texts, NULL);
  b->gmaps = g_new0 (GArray *, n_segments);
  for (guint k = 0; k < n_segments; k++)
    b->gmaps[k] = g_array_new (FALSE, TRUE, sizeof (guint32));
  b->wids = g_array_new (FALSE, TRUE, sizeof (guint32));
  b->process_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  b->processes = g_ptr_array_new_with_free_func (mprocess_free);
  b->thread_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, mthread_free);
  b->async_states = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, async_state_free);
  b->async_tracks = g_ptr_array_new_with_free_func (async_track_free);
  b->global_asyncs = g_ptr_array_new ();
  b->counter_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  b->counters = g_ptr_array_new_with_free_func (mcounter_free);
  b->flows = g_array_new (FALSE, FALSE, sizeof (MFlow));
  b->q_devices = g_hash_table_new_full (NULL, NULL, NULL, qdevice_free);
  b->p2p = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  b->p2p_recv = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  b->bsp_steps = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, bsp_step_free);

  for (guint k = 0; k < n_segments; k++)
    n_events += segments[k]->n_events;

  if (n_events == 0)
    {
      g_set_error (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_EMPTY,
                   "%s: no trace events (expected an array of events or {\"traceEvents\": [...]})",
                   context->path);
      goto out;
    }

  if (context->progress != NULL)
    tes_progress_update (context->progress, 0.86, "Matching events");

  merge_segments (b);
  close_unclosed (b);
  match_async (b);
  match_flows (b);
  merge_counters (b);
  mark_instant_owners (b);
  decide_flavour (b);

  if (b->flavour == FLAVOUR_POPLAR)
    poplar_frequency (b);

  if (b->flavour == FLAVOUR_SIGMASTAR)
    {
      sigmastar_frequency (b);
      b->clock_id = tes_cache_writer_add_clock (b->writer, "IPU cycles", TES_TIME_UNIT_CYCLES, b->mhz * 1000000);
    }
  else if (b->flavour == FLAVOUR_POPLAR && b->mhz > 0)
    b->clock_id = tes_cache_writer_add_clock (b->writer, "IPU cycles", TES_TIME_UNIT_CYCLES, b->mhz * 1000000);
  else
    b->clock_id = tes_cache_writer_add_clock (b->writer, "ts", TES_TIME_UNIT_NS, 1000000000);

  if (g_cancellable_set_error_if_cancelled (context->cancellable, error))
    goto out;

  if (context->progress != NULL)
    tes_progress_update (context->progress, 0.9, "Writing rows");

  {
    gint64 t0 = g_get_monotonic_time ();

    create_tracks (b);
    write_rows (b);
    if (b->flavour == FLAVOUR_POPLAR && b->mhz > 0)
      write_poplar_bsp (b);
    write_info (b, gzip, object_form, n_planned);
    g_debug ("%s: rows handed to the writer in %.3f s", context->path, (g_get_monotonic_time () - t0) / 1e6);
  }

  ok = TRUE;

out:
  g_hash_table_unref (b->gid_of);
  g_ptr_array_unref (b->texts);
  for (guint k = 0; k < n_segments; k++)
    g_array_unref (b->gmaps[k]);
  g_free (b->gmaps);
  g_array_unref (b->wids);
  g_hash_table_unref (b->process_index);
  g_hash_table_unref (b->thread_index);
  g_ptr_array_unref (b->processes);
  g_hash_table_unref (b->async_states);
  g_ptr_array_unref (b->global_asyncs);
  g_ptr_array_unref (b->async_tracks);
  g_hash_table_unref (b->counter_index);
  g_ptr_array_unref (b->counters);
  g_array_unref (b->flows);
  g_hash_table_unref (b->q_devices);
  g_hash_table_unref (b->p2p);
  g_hash_table_unref (b->p2p_recv);
  g_hash_table_unref (b->bsp_steps);

  return ok;
}
