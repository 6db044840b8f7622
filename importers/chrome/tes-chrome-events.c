/* tes-chrome-events.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-chrome"

#include "config.h"

#include "tes-array-private.h"
#include "tes-chrome-flavour.h"
#include "tes-chrome-parser.h"
#include "tes-json.h"

#include <string.h>

/* Folds each event the parser decoded into its segment: complete slices
 * and the B stack per thread, instants, counters, async and flow events
 * (matched later, by the builder, in timestamp order), metadata names;
 * and keeps the first events' args for the builder to tell the vendor's
 * flavour from. */

static inline void
note_ts (TesChromeSegment *seg,
         gint64            ts)
{
  if (ts > seg->max_ts)
    seg->max_ts = ts;
  seg->has_ts = TRUE;
}

static TesChromeThread *
get_thread (TesChromeSegment     *seg,
            const TesChromeEvent *ev,
            gboolean              has_events)
{
  gint64 pid = (ev->flags & TES_CHROME_EV_HAS_PID) ? ev->pid : 0;
  gint64 tid = (ev->flags & TES_CHROME_EV_HAS_TID) ? ev->tid : 0;
  guint key_flags = ((ev->flags & TES_CHROME_EV_PID_STR) ? TES_CHROME_KEY_PID_STRING : 0) |
                    ((ev->flags & TES_CHROME_EV_TID_STR) ? TES_CHROME_KEY_TID_STRING : 0);
  TesChromeThread *t;
  guint slot;

  /* the events of a few threads mostly follow each other (and a whole
   * TesChromeThread as the table's key is only made for the others:
   * zeroing it was half of this function's time) */
  slot = (guint)(pid * 31 + tid * 7 + key_flags) % TES_CHROME_RECENT_THREADS;
  if ((t = seg->recent_threads[slot]) != NULL && t->pid == pid && t->tid == tid && t->key_flags == key_flags)
    {
      t->has_events |= has_events;
      return t;
    }

  if (!(t = g_hash_table_lookup (seg->threads, &(TesChromeThread) { .pid = pid, .tid = tid, .key_flags = key_flags })))
    {
      t = g_new0 (TesChromeThread, 1);
      t->pid = pid;
      t->tid = tid;
      t->key_flags = key_flags;
      tes_chrome_thread_new_arrays (t, seg->recycle);
      t->open = g_array_new (FALSE, FALSE, sizeof (TesChromeOpen));
      t->orphans = g_array_new (FALSE, FALSE, sizeof (TesChromeOpen));
      g_hash_table_add (seg->threads, t);
      g_ptr_array_add (seg->thread_list, t);
    }

  t->has_events |= has_events;
  seg->recent_threads[slot] = t;

  return t;
}

static TesChromeProcess *
get_process (TesChromeSegment     *seg,
             const TesChromeEvent *ev)
{
  TesChromeProcess key = { 0 };
  TesChromeProcess *pr;

  if (ev->flags & TES_CHROME_EV_HAS_PID)
    key.pid = ev->pid;
  key.key_flags = (ev->flags & TES_CHROME_EV_PID_STR) ? TES_CHROME_KEY_PID_STRING : 0;

  if (!(pr = g_hash_table_lookup (seg->processes, &key)))
    {
      pr = g_new0 (TesChromeProcess, 1);
      pr->pid = key.pid;
      pr->key_flags = key.key_flags;
      g_hash_table_add (seg->processes, pr);
      g_ptr_array_add (seg->process_list, pr);
    }

  return pr;
}

/* Appends the event's args to store, with the thread timestamps (which
 * have no column of their own) added as "thread_ts_ns"/"thread_dur_ns". */
static guint32
store_args (const TesChromeEvent *ev,
            GString              *store,
            guint64              *off)
{
  gboolean tt = (ev->flags & (TES_CHROME_EV_HAS_TTS | TES_CHROME_EV_HAS_TDUR)) != 0;
  gsize start = store->len;

  *off = start;

  if (!tt)
    {
      if (!(ev->flags & TES_CHROME_EV_HAS_ARGS))
        return 0;
      tes_json_append_raw (store, ev->args_text, ev->args_len);
      return (guint32)ev->args_len;
    }

  if (ev->flags & TES_CHROME_EV_HAS_ARGS)
    {
      tes_json_append_raw (store, ev->args_text, ev->args_len - 1);
      tes_json_append_char (store, ',');
    }
  else
    g_string_append_c (store, '{');

  if (ev->flags & TES_CHROME_EV_HAS_TTS)
    g_string_append_printf (store, "\"thread_ts_ns\":%" G_GINT64_FORMAT ",", ev->tts);
  if (ev->flags & TES_CHROME_EV_HAS_TDUR)
    g_string_append_printf (store, "\"thread_dur_ns\":%" G_GINT64_FORMAT ",", ev->tdur);
  store->str[store->len - 1] = '}';

  return (guint32)(store->len - start);
}

static gboolean
need_ts (TesChromeSegment     *seg,
         const TesChromeEvent *ev)
{
  if (ev->flags & TES_CHROME_EV_RANGE)
    {
      tes_chrome_segment_warn (seg, TES_CHROME_W_RANGE, ev->offset);
      return FALSE;
    }

  if (!(ev->flags & TES_CHROME_EV_HAS_TS))
    {
      tes_chrome_segment_warn (seg, TES_CHROME_W_NO_TS, ev->offset);
      return FALSE;
    }

  if (ev->flags & TES_CHROME_EV_ROUNDED)
    tes_chrome_segment_warn (seg, TES_CHROME_W_ROUNDED, ev->offset);

  note_ts (seg, ev->ts);
  return TRUE;
}

static guint32
event_id (TesChromeSegment     *seg,
          const TesChromeEvent *ev)
{
  g_autoptr(GString) key = NULL;

  if (!(ev->flags & TES_CHROME_EV_HAS_ID))
    return 0;

  if (!(ev->flags & (TES_CHROME_EV_HAS_SCOPE | TES_CHROME_EV_ID_GLOBAL | TES_CHROME_EV_ID_LOCAL)))
    return tes_chrome_strings_intern (&seg->strings, ev->id->str, ev->id->len);

  key = g_string_new (NULL);
  if (ev->flags & TES_CHROME_EV_HAS_SCOPE)
    {
      g_string_append_len (key, ev->scope->str, ev->scope->len);
      g_string_append_c (key, '\x1f');
    }
  if (ev->flags & TES_CHROME_EV_ID_GLOBAL)
    g_string_append (key, "global:");
  else if (ev->flags & TES_CHROME_EV_ID_LOCAL)
    g_string_append (key, "local:");
  g_string_append_len (key, ev->id->str, ev->id->len);

  return tes_chrome_strings_intern (&seg->strings, key->str, key->len);
}

static void
add_flow_point (TesChromeSegment     *seg,
                const TesChromeEvent *ev,
                TesChromeThread      *thread)
{
  TesChromeFlowEvent fe = { 0 };
  guint32 flags = ev->flags;

  if (!(flags & (TES_CHROME_EV_FLOW_IN | TES_CHROME_EV_FLOW_OUT)))
    return;

  if (flags & TES_CHROME_EV_HAS_BIND)
    fe.id = tes_chrome_strings_intern (&seg->strings, ev->bind->str, ev->bind->len);
  else if (flags & TES_CHROME_EV_HAS_ID)
    fe.id = event_id (seg, ev);
  else
    return;

  fe.ts = ev->ts;
  fe.offset = ev->offset;
  fe.name = ev->name;
  fe.cat = ev->cat;
  fe.thread = thread;
  fe.ph = (flags & TES_CHROME_EV_FLOW_IN) ? ((flags & TES_CHROME_EV_FLOW_OUT) ? 'b' : 'i') : 'o';
  g_array_append_val (seg->flow_points, fe);
}

static void
handle_complete (TesChromeSegment     *seg,
                 const TesChromeEvent *ev)
{
  TesChromeThread *t;
  TesChromeSlice slice = { 0 };
  gint64 dur = (ev->flags & TES_CHROME_EV_HAS_DUR) ? ev->dur : 0;

  if (!need_ts (seg, ev))
    return;

  t = get_thread (seg, ev, TRUE);

  if (dur < 0)
    {
      tes_chrome_segment_warn (seg, TES_CHROME_W_NEGATIVE_DUR, ev->offset);
      dur = 0;
      slice.flags |= TES_SLICE_FLAG_CLAMPED;
    }

  slice.start = ev->ts;
  slice.dur = dur;
  slice.name = ev->name;
  slice.cat = ev->cat;
  slice.args_len = store_args (ev, t->args, &slice.args_off);
  tes_array_append (t->slices, &t->slices_room, &slice, sizeof slice);

  if (dur > 0 && ev->ts <= G_MAXINT64 - dur)
    note_ts (seg, ev->ts + dur);

  add_flow_point (seg, ev, t);

  if (seg->n_sampled < TES_CHROME_SAMPLE_EVENTS)
    {
      seg->n_sampled++;
      if (slice.args_len > 0)
        seg->claimed[tes_chrome_flavour_claim (t->args->str + slice.args_off, slice.args_len)]++;
    }
}

static void
handle_begin (TesChromeSegment     *seg,
              const TesChromeEvent *ev)
{
  TesChromeThread *t;
  TesChromeOpen open = { 0 };

  if (!need_ts (seg, ev))
    return;

  t = get_thread (seg, ev, TRUE);
  open.ts = ev->ts;
  open.offset = ev->offset;
  open.name = ev->name;
  open.cat = ev->cat;
  open.args_len = store_args (ev, t->args, &open.args_off);
  g_array_append_val (t->open, open);

  add_flow_point (seg, ev, t);
}

static void
handle_end (TesChromeSegment     *seg,
            const TesChromeEvent *ev)
{
  TesChromeThread *t;
  TesChromeOpen end = { 0 };

  if (!need_ts (seg, ev))
    return;

  t = get_thread (seg, ev, TRUE);
  end.ts = ev->ts;
  end.offset = ev->offset;
  end.name = ev->name;
  end.cat = ev->cat;
  end.args_len = store_args (ev, t->args, &end.args_off);

  if (t->open->len == 0)
    {
      /* Resolved when the segments are merged: an earlier segment may
       * hold its B; in the first one it is an E without B. */
      g_array_append_val (t->orphans, end);
      return;
    }

  {
    TesChromeOpen *b = &g_array_index (t->open, TesChromeOpen, t->open->len - 1);
    TesChromeSlice slice = { 0 };
    gint64 dur = end.ts - b->ts;

    slice.start = b->ts;
    if (dur < 0)
      {
        tes_chrome_segment_warn (seg, TES_CHROME_W_NEGATIVE_DUR, ev->offset);
        dur = 0;
        slice.flags |= TES_SLICE_FLAG_CLAMPED;
      }
    slice.dur = dur;
    slice.name = b->name ? b->name : end.name;
    slice.cat = b->cat ? b->cat : end.cat;

    /* E's args join B's, as trace-viewer merges them */
    if (end.args_len == 0)
      {
        slice.args_off = b->args_off;
        slice.args_len = b->args_len;
      }
    else if (b->args_len == 0)
      {
        slice.args_off = end.args_off;
        slice.args_len = end.args_len;
      }
    else
      {
        GString *s = t->args;
        gsize start = s->len;

        g_string_append_len (s, s->str + b->args_off, b->args_len - 1);
        g_string_append_c (s, ',');
        g_string_append_len (s, s->str + end.args_off + 1, end.args_len - 1);
        slice.args_off = start;
        slice.args_len = (guint32)(s->len - start);
      }

    g_array_set_size (t->open, t->open->len - 1);
    tes_array_append (t->slices, &t->slices_room, &slice, sizeof slice);
  }
}

static void
handle_instant (TesChromeSegment     *seg,
                const TesChromeEvent *ev)
{
  TesChromeInstant inst = { 0 };

  if (!need_ts (seg, ev))
    return;

  inst.ts = ev->ts;
  inst.name = ev->name;
  inst.cat = ev->cat;
  inst.scope = ev->s == 'g' ? 'g' : ev->s == 'p' ? 'p' : 't';
  if (inst.scope == 't')
    inst.thread = get_thread (seg, ev, TRUE);
  else if (inst.scope == 'p')
    inst.process = get_process (seg, ev);
  inst.args_len = store_args (ev, seg->misc, &inst.args_off);
  g_array_append_val (seg->instants, inst);
}

static void
handle_counter (TesChromeSegment     *seg,
                const TesChromeEvent *ev)
{
  TesChromeProcess *proc;
  guint32 id;
  gsize pos = 0;
  const char *key;
  const char *value;
  gsize key_len;
  gsize value_len;
  g_autoptr(GString) series = NULL;

  if (!need_ts (seg, ev))
    return;

  if (!(ev->flags & TES_CHROME_EV_HAS_ARGS))
    return;

  proc = get_process (seg, ev);
  id = event_id (seg, ev);
  series = g_string_new (NULL);

  while (tes_chrome_args_next (ev->args_text, ev->args_len, &pos, &key, &key_len, &value, &value_len))
    {
      TesChromeCounter *c;
      TesChromeCounterValue cv;

      if (!tes_chrome_value_to_double (value, value_len, TRUE, &cv.value))
        {
          tes_chrome_segment_warn (seg, TES_CHROME_W_COUNTER_VALUE, ev->offset);
          continue;
        }
      cv.ts = ev->ts;

      g_string_printf (series, "%p\x1f%u\x1f%u\x1f", (gpointer)proc, ev->name, id);
      g_string_append_len (series, key, key_len);

      if (!(c = g_hash_table_lookup (seg->counters, series->str)))
        {
          c = g_new0 (TesChromeCounter, 1);
          c->process = proc;
          c->name = ev->name;
          c->id = id;
          c->arg = g_strndup (key, key_len);
          c->values = g_array_new (FALSE, FALSE, sizeof (TesChromeCounterValue));
          g_hash_table_insert (seg->counters, g_strdup (series->str), c);
          g_ptr_array_add (seg->counter_list, c);
        }
      g_array_append_val (c->values, cv);
    }
}

static gboolean
args_string (TesChromeSegment     *seg,
             const TesChromeEvent *ev,
             const char           *key,
             guint32              *out)
{
  const char *v;
  gsize vl;
  g_autofree char *text = NULL;

  if (!(ev->flags & TES_CHROME_EV_HAS_ARGS) ||
      !tes_chrome_args_find (ev->args_text, ev->args_len, key, &v, &vl))
    return FALSE;

  text = tes_chrome_value_dup_string (v, vl);
  *out = tes_chrome_strings_intern (&seg->strings, text, strlen (text));
  return TRUE;
}

static gboolean
args_int (const TesChromeEvent *ev,
          const char           *key,
          gint64               *out)
{
  const char *v;
  gsize vl;
  double d;

  if (!(ev->flags & TES_CHROME_EV_HAS_ARGS) ||
      !tes_chrome_args_find (ev->args_text, ev->args_len, key, &v, &vl) ||
      !tes_chrome_value_to_double (v, vl, TRUE, &d) ||
      d < (double)G_MININT32 || d > (double)G_MAXINT32)
    return FALSE;

  *out = (gint64)d;
  return TRUE;
}

static void
handle_metadata (TesChromeSegment     *seg,
                 const TesChromeEvent *ev)
{
  const char *name = tes_chrome_strings_get (&seg->strings, ev->name);
  guint32 text;
  gint64 index;

  if (name == NULL)
    return;

  if (g_str_equal (name, "process_name"))
    {
      if (args_string (seg, ev, "name", &text))
        get_process (seg, ev)->name = text;
    }
  else if (g_str_equal (name, "process_labels"))
    {
      if (args_string (seg, ev, "labels", &text))
        get_process (seg, ev)->labels = text;
    }
  else if (g_str_equal (name, "process_sort_index"))
    {
      if (args_int (ev, "sort_index", &index))
        {
          TesChromeProcess *pr = get_process (seg, ev);

          pr->sort_index = index;
          pr->has_sort_index = TRUE;
        }
    }
  else if (g_str_equal (name, "thread_name"))
    {
      if (args_string (seg, ev, "name", &text))
        {
          get_thread (seg, ev, FALSE)->name = text;
          g_array_append_val (seg->thread_names, text);
        }
    }
  else if (g_str_equal (name, "thread_sort_index"))
    {
      if (args_int (ev, "sort_index", &index))
        {
          TesChromeThread *t = get_thread (seg, ev, FALSE);

          t->sort_index = index;
          t->has_sort_index = TRUE;
        }
    }
}

static void
handle_async (TesChromeSegment     *seg,
              const TesChromeEvent *ev,
              GArray               *into,
              gboolean              flow)
{
  if (!need_ts (seg, ev))
    return;

  if (flow)
    {
      TesChromeFlowEvent fe = { 0 };

      fe.ts = ev->ts;
      fe.offset = ev->offset;
      fe.name = ev->name;
      fe.cat = ev->cat;
      fe.id = event_id (seg, ev);
      fe.thread = get_thread (seg, ev, TRUE);
      fe.ph = ev->ph;
      g_array_append_val (into, fe);
    }
  else
    {
      TesChromeAsync a = { 0 };

      a.ts = ev->ts;
      a.offset = ev->offset;
      a.name = ev->name;
      a.cat = ev->cat;
      a.id = event_id (seg, ev);
      a.thread = get_thread (seg, ev, FALSE);
      a.ph = ev->ph;
      a.flags = (ev->flags & TES_CHROME_EV_ID_GLOBAL) ? TES_CHROME_ASYNC_GLOBAL : 0;
      a.args_len = store_args (ev, seg->misc, &a.args_off);
      g_array_append_val (into, a);
    }
}

/* Called as each event's '}' arrives. */
void
tes_chrome_segment_add_event (TesChromeSegment     *seg,
                              const TesChromeEvent *ev)
{
  seg->n_events++;

  switch (ev->ph)
    {
    case 'X':
      handle_complete (seg, ev);
      break;
    case 'B':
      handle_begin (seg, ev);
      break;
    case 'E':
      handle_end (seg, ev);
      break;
    case 'i':
    case 'I':
    case 'R':
      handle_instant (seg, ev);
      break;
    case 'C':
      handle_counter (seg, ev);
      break;
    case 'M':
      handle_metadata (seg, ev);
      break;
    case 'b':
    case 'e':
    case 'n':
    case 'S':
    case 'T':
    case 'p':
    case 'F':
      handle_async (seg, ev, seg->asyncs, FALSE);
      break;
    case 's':
    case 't':
    case 'f':
      handle_async (seg, ev, seg->flows, TRUE);
      break;
    case 'P':
    case 'O':
    case 'N':
    case 'D':
    case '(':
    case ')':
    case 'v':
    case 'V':
    case 'c':
    case 'A':
      tes_chrome_segment_warn (seg, TES_CHROME_W_UNSUPPORTED_PHASE, ev->offset);
      break;
    case 0:
      seg->n_events--;
      tes_chrome_segment_warn (seg, TES_CHROME_W_NO_PHASE, ev->offset);
      break;
    default:
      tes_chrome_segment_warn (seg, TES_CHROME_W_UNKNOWN_PHASE, ev->offset);
      break;
    }
}

