/* tes-chrome-match.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-chrome"

#include "config.h"

#include "tes-chrome-builder-private.h"

#include <string.h>

/* Async events (nestable b/e/n, legacy S/T/p/F) and flow events (v1
 * s/t/f, v2 bind_id) of every segment, sorted by time and matched as
 * trace-viewer matches them: async slices and instants on tracks of their
 * own, flows as arrows between threads. */

typedef struct
{
  gint64               ts;
  guint32              name;  /* gid */
  guint32              cat;
  TesChromeSegment    *seg;
  guint64              args_off;
  guint32              args_len;
  TesChromeAsyncTrack *track;
  guint64              offset;
} AsyncOpen;

void
tes_chrome_async_track_free (gpointer data)
{
  TesChromeAsyncTrack *t = data;

  g_array_unref (t->slices);
  g_string_free (t->args, TRUE);
  g_array_unref (t->instants);
  g_free (t);
}

/* ---- async ------------------------------------------------------------- */

typedef struct
{
  TesChromeAsync    a;
  TesChromeSegment *seg;
} SortedAsync;

typedef struct
{
  TesChromeAsyncTrack *track;       /* nestable: the key's track */
  GArray              *stack;       /* AsyncOpen */
} AsyncState;

static void
async_state_free (gpointer data)
{
  AsyncState *s = data;

  g_array_unref (s->stack);
  g_free (s);
}

static TesChromeAsyncTrack *
new_async_track (TesChromeBuilder       *b,
                 TesChromeMergedProcess *process,
                 guint32                 name,
                 gint64                  ts)
{
  TesChromeAsyncTrack *t = g_new0 (TesChromeAsyncTrack, 1);

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
async_state (GHashTable *states,
             const char *key,
             gboolean    create)
{
  AsyncState *s = g_hash_table_lookup (states, key);

  if (s == NULL && create)
    {
      s = g_new0 (AsyncState, 1);
      s->stack = g_array_new (FALSE, FALSE, sizeof (AsyncOpen));
      g_hash_table_insert (states, g_strdup (key), s);
    }

  return s;
}

static void
async_close (TesChromeBuilder *b,
             AsyncOpen        *open,
             gint64            end_ts,
             SortedAsync      *end,
             guint16           flags)
{
  TesChromeAsyncTrack *t = open->track;
  TesChromeSlice slice = { 0 };
  gsize start = t->args->len;

  slice.start = open->ts;
  slice.dur = end_ts - open->ts;
  slice.flags = flags;
  if (slice.dur < 0)
    {
      tes_chrome_warn (b, TES_CHROME_W_NEGATIVE_DUR, end ? end->a.offset : 0);
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
async_instant (TesChromeBuilder    *b,
               TesChromeAsyncTrack *t,
               SortedAsync         *ev)
{
  TesChromeInstant inst = { 0 };

  inst.ts = ev->a.ts;
  inst.name = tes_chrome_gid (b, ev->seg, ev->a.name);
  inst.cat = tes_chrome_gid (b, ev->seg, ev->a.cat);
  inst.scope = 't';
  inst.args_off = t->args->len;
  inst.args_len = ev->a.args_len;
  g_string_append_len (t->args, ev->seg->misc->str + ev->a.args_off, ev->a.args_len);
  g_array_append_val (t->instants, inst);
}

void
tes_chrome_builder_match_async (TesChromeBuilder *b)
{
  g_autoptr(GHashTable) states = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, async_state_free);
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

  g_array_sort (all, tes_chrome_stamp_compare);

  for (guint i = 0; i < all->len; i++)
    {
      SortedAsync *ev = &g_array_index (all, SortedAsync, i);
      TesChromeMergedThread *mt = ev->a.thread->merged;
      gboolean global = (ev->a.flags & TES_CHROME_ASYNC_GLOBAL) != 0;
      TesChromeMergedProcess *mp = global ? NULL : mt->process;
      guint32 name = tes_chrome_gid (b, ev->seg, ev->a.name);
      guint32 cat = tes_chrome_gid (b, ev->seg, ev->a.cat);
      guint32 id = tes_chrome_gid (b, ev->seg, ev->a.id);
      AsyncState *state;

      switch (ev->a.ph)
        {
        case 'b':
        case 'e':
        case 'n':
          /* nestable: one track per (process, category, id) */
          g_string_printf (key, "n\x1f%p\x1f%u\x1f%u", (gpointer)mp, cat, id);
          state = async_state (states, key->str, ev->a.ph != 'e');
          if (state == NULL)
            {
              tes_chrome_warn (b, TES_CHROME_W_ASYNC_UNMATCHED, ev->a.offset);
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
                  tes_chrome_warn (b, TES_CHROME_W_ASYNC_UNMATCHED, ev->a.offset);
                  break;
                }

              /* begins above the match never got their end */
              for (gint j = (gint)state->stack->len - 1; j > found; j--)
                {
                  async_close (b, &g_array_index (state->stack, AsyncOpen, j), ev->a.ts, NULL,
                               TES_SLICE_FLAG_UNCLOSED);
                  tes_chrome_warn (b, TES_CHROME_W_UNCLOSED, g_array_index (state->stack, AsyncOpen, j).offset);
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
          state = async_state (states, key->str, ev->a.ph == 'S');
          if (ev->a.ph == 'S')
            {
              TesChromeAsyncTrack *t;
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
            tes_chrome_warn (b, TES_CHROME_W_ASYNC_UNMATCHED, ev->a.offset);
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

  g_hash_table_iter_init (&iter, states);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      AsyncState *state = value;

      for (guint j = 0; j < state->stack->len; j++)
        {
          AsyncOpen *open = &g_array_index (state->stack, AsyncOpen, j);

          async_close (b, open, MAX (b->trace_end, open->ts), NULL, TES_SLICE_FLAG_UNCLOSED);
          tes_chrome_warn (b, TES_CHROME_W_UNCLOSED, open->offset);
        }
      g_array_set_size (state->stack, 0);
    }
}

/* ---- flows ------------------------------------------------------------- */

/* The flows are matched on a thread of their own while the builder goes
 * on (a Kineto trace has an ac2g flow per kernel: 485k flow events in the
 * 1M trace, some 0.17 s of sorting and matching, which ran on one core
 * while the other idled), and written last. The match reads only the
 * segments' flow events and strings, which nothing changes once the
 * segments are merged, and each event's merged thread; it gives its keys
 * from a table of gids of its own and keeps its own warnings, which the
 * builder takes when it joins it. It marks no thread used: the threads of
 * flow events have events (the parser marks them), so the tracks need
 * nothing from it. */
struct _TesChromeFlowMatch
{
  GThread               *thread;
  TesChromeSegment     **segs;
  guint                  n_segs;
  TesChromeGids          gids;
  GArray                *flows;                           /* TesChromeFlow */
  TesChromeWarningCount  warnings[TES_CHROME_N_WARNINGS];
  double                 cpu;
};

/* A flow event in the order of the match: where it lies in its segment,
 * not a copy (the copies of a Kineto trace's were 31 MB of fresh pages). */
typedef struct
{
  const TesChromeFlowEvent *f;
  TesChromeSegment         *seg;
  guint32                   key[3];   /* gids of the match: v1 (cat, name, id), v2 (id) */
} SortedFlow;

/* Open flows by their key, the SortedFlow being its own key: a Kineto
 * trace has an ac2g flow per kernel, and a key printed as text per event
 * cost more than the rest of the match. */
static guint
flow_key_hash (gconstpointer p)
{
  const SortedFlow *f = p;

  return (f->key[0] * 0x9e3779b1u) ^ (f->key[1] * 0x85ebca77u) ^ (f->key[2] * 0xc2b2ae3du);
}

static gboolean
flow_key_equal (gconstpointer a,
                gconstpointer b)
{
  const SortedFlow *x = a;
  const SortedFlow *y = b;

  return x->key[0] == y->key[0] && x->key[1] == y->key[1] && x->key[2] == y->key[2];
}

/* Whether run a's next flow event comes before run b's. */
static inline gboolean
run_before (GArray      **runs,
            const guint  *at,
            guint         a,
            guint         b)
{
  return tes_chrome_stamp_compare (&g_array_index (runs[a], TesChromeFlowEvent, at[a]),
                                   &g_array_index (runs[b], TesChromeFlowEvent, at[b])) < 0;
}

/* The segments' flow events (v2: their flow points) in time order. Each
 * segment's are sorted by its parsing thread (tes_chrome_segment_sort ()),
 * so they are merged through a heap of the segments' runs: no sort on
 * this thread, and no scratch copy of them all, whose fresh pages cost
 * as much as the sort. */
static GArray *
sorted_flows (TesChromeFlowMatch *m,
              gboolean            v2)
{
  g_autofree GArray **runs = g_new (GArray *, MAX (m->n_segs, 1));
  g_autofree guint *at = g_new0 (guint, MAX (m->n_segs, 1));
  g_autofree guint *heap = g_new (guint, MAX (m->n_segs, 1));
  guint n_heap = 0;
  guint total = 0;
  GArray *all;
  SortedFlow *out;

  for (guint k = 0; k < m->n_segs; k++)
    {
      runs[k] = v2 ? m->segs[k]->flow_points : m->segs[k]->flows;
      /* a segment the parse left unsorted (it never does) */
      tes_chrome_stamps_sort (runs[k]);
      total += runs[k]->len;
    }
  all = g_array_sized_new (FALSE, FALSE, sizeof (SortedFlow), total);
  g_array_set_size (all, total);
  out = (SortedFlow *)(gpointer)all->data;

  /* a binary min-heap of the runs not yet used up, by their next event */
  for (guint k = 0; k < m->n_segs; k++)
    if (runs[k]->len > 0)
      {
        guint c = n_heap++;

        for (; c > 0 && run_before (runs, at, k, heap[(c - 1) / 2]); c = (c - 1) / 2)
          heap[c] = heap[(c - 1) / 2];
        heap[c] = k;
      }

  while (n_heap > 0)
    {
      guint k = heap[0];
      guint c = 0;

      out->f = &g_array_index (runs[k], TesChromeFlowEvent, at[k]);
      out->seg = m->segs[k];
      memset (out->key, 0, sizeof out->key);
      out++;

      if (++at[k] == runs[k]->len)
        k = heap[--n_heap];
      for (;;)
        {
          guint child = 2 * c + 1;

          if (child >= n_heap)
            break;
          if (child + 1 < n_heap && run_before (runs, at, heap[child + 1], heap[child]))
            child++;
          if (!run_before (runs, at, heap[child], k))
            break;
          heap[c] = heap[child];
          c = child;
        }
      if (n_heap > 0)
        heap[c] = k;
    }

  return all;
}

/* A flow named by @named's name and category. */
static void
add_flow (TesChromeFlowMatch *m,
          SortedFlow         *named,
          SortedFlow         *from,
          SortedFlow         *to)
{
  TesChromeFlow flow = { 0 };

  flow.seg = named->seg;
  flow.name = named->f->name;
  flow.cat = named->f->cat;
  flow.from = from->f->thread->merged;
  flow.from_ts = from->f->ts;
  flow.to = to->f->thread->merged;
  flow.to_ts = to->f->ts;
  g_array_append_val (m->flows, flow);
}

static void
match_flows (TesChromeFlowMatch *m)
{
  g_autoptr(GArray) v1 = sorted_flows (m, FALSE);
  g_autoptr(GArray) v2 = sorted_flows (m, TRUE);
  g_autoptr(GHashTable) open = g_hash_table_new (flow_key_hash, flow_key_equal);

  /* v1: s, t..., f chained by (category, name, id) */
  for (guint i = 0; i < v1->len; i++)
    {
      SortedFlow *ev = &g_array_index (v1, SortedFlow, i);
      SortedFlow *prev;

      ev->key[0] = tes_chrome_gids_get (&m->gids, ev->seg, ev->f->cat);
      ev->key[1] = tes_chrome_gids_get (&m->gids, ev->seg, ev->f->name);
      ev->key[2] = tes_chrome_gids_get (&m->gids, ev->seg, ev->f->id);
      prev = g_hash_table_lookup (open, ev);

      if (ev->f->ph == 's')
        {
          g_hash_table_replace (open, ev, ev);
          continue;
        }

      if (prev == NULL)
        {
          tes_chrome_warnings_note (m->warnings, TES_CHROME_W_FLOW_UNMATCHED, ev->f->offset);
          continue;
        }

      add_flow (m, ev, prev, ev);
      if (ev->f->ph == 't')
        g_hash_table_replace (open, ev, ev);
      else
        g_hash_table_remove (open, ev);
    }

  /* v2: bind_id with flow_out on the source, flow_in on the destination */
  g_hash_table_remove_all (open);
  for (guint i = 0; i < v2->len; i++)
    {
      SortedFlow *ev = &g_array_index (v2, SortedFlow, i);

      ev->key[2] = tes_chrome_gids_get (&m->gids, ev->seg, ev->f->id);

      if (ev->f->ph == 'i' || ev->f->ph == 'b')
        {
          SortedFlow *prev = g_hash_table_lookup (open, ev);

          if (prev == NULL)
            tes_chrome_warnings_note (m->warnings, TES_CHROME_W_FLOW_UNMATCHED, ev->f->offset);
          else
            {
              add_flow (m, prev, prev, ev);
              g_hash_table_remove (open, ev);
            }
        }
      if (ev->f->ph == 'o' || ev->f->ph == 'b')
        g_hash_table_replace (open, ev, ev);
    }

  /* The arrays of SortedFlow die here; flows keep only threads, times
   * and the string ids of their names. */
}

static gpointer
match_thread (gpointer data)
{
  TesChromeFlowMatch *m = data;
  double cpu0 = tes_chrome_thread_cpu ();

  match_flows (m);
  m->cpu = tes_chrome_thread_cpu () - cpu0;

  return NULL;
}

/* Starts the match of the segments' flows on a thread of its own;
 * tes_chrome_builder_flows_matched() waits for it. Call it once the
 * segments are merged. */
void
tes_chrome_builder_match_flows (TesChromeBuilder *b)
{
  TesChromeFlowMatch *m;
  gboolean any = FALSE;

  g_return_if_fail (b->flow_match == NULL);

  for (guint k = 0; k < b->n_segs && !any; k++)
    any = b->segs[k]->flows->len > 0 || b->segs[k]->flow_points->len > 0;
  if (!any)
    return;

  m = g_new0 (TesChromeFlowMatch, 1);
  m->segs = b->segs;
  m->n_segs = b->n_segs;
  tes_chrome_gids_init (&m->gids, b->n_segs);
  m->flows = g_array_new (FALSE, FALSE, sizeof (TesChromeFlow));
  m->thread = g_thread_new ("tes-chrome-flows", match_thread, m);
  b->flow_match = m;
}

/* Waits for the flows' match, if it was started and not yet waited for,
 * and takes its flows (into b->flows) and warnings. */
void
tes_chrome_builder_flows_matched (TesChromeBuilder *b)
{
  TesChromeFlowMatch *m = g_steal_pointer (&b->flow_match);

  if (m == NULL)
    return;

  g_thread_join (m->thread);
  g_debug ("%s: %u flows matched in %.3f s of CPU beside the build", b->context->path, m->flows->len, m->cpu);

  tes_chrome_warnings_add (b->warnings, m->warnings);
  g_array_unref (b->flows);
  b->flows = m->flows;
  tes_chrome_gids_clear (&m->gids);
  g_free (m);
}
