/* tes-chrome-parser.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-chrome"

#include "config.h"

#include "tes-chrome-model.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

/* Streaming parse of Chrome Trace Event JSON with yajl's callbacks: no
 * document tree is ever built; each event is assembled from the callbacks
 * and folded into the segment's model (per-thread slice arrays, the B
 * stacks, async and flow events, counters) the moment its '}' arrives.
 *
 * Large plain files are parsed by several threads at once: the file is cut
 * into pieces at byte offsets that look like a boundary between two events
 * ("}" "," "{" with optional white space), and the threads take the pieces
 * in file order from a shared counter. Each piece is parsed by its own yajl
 * handle, fed a synthetic prefix ("[" or {"traceEvents":[) that puts it in
 * the events array. The guess is then checked exactly: the piece before a
 * cut must arrive at the cut between two events of the events array, with
 * the '}' before the cut closing an event. If it does not, that piece
 * carries on to the end of the file and the later pieces are thrown away,
 * so a bad guess costs time, never correctness. */

#define CHUNK_SIZE (1024 * 1024)
#define MAX_THREADS 4
#define MAX_PIECES 32
#define PIECES_PER_THREAD 4
#define MIN_PIECE_SIZE (4 * 1024 * 1024)
#define SAMPLE_EVENTS 1000

typedef enum
{
  F_TOP,
  F_TOP_OBJECT,
  F_EVENTS,
  F_EVENT,
  F_ID2,
  F_OTHER,
  F_CAPTURE,
  F_SKIP,
} FrameKind;

typedef struct
{
  FrameKind kind;
  guint     nest;
} Frame;

typedef enum
{
  K_NONE,
  K_PH,
  K_NAME,
  K_CAT,
  K_PID,
  K_TID,
  K_TS,
  K_DUR,
  K_TTS,
  K_TDUR,
  K_ID,
  K_ID2,
  K_BIND_ID,
  K_S,
  K_SCOPE,
  K_BP,
  K_FLOW_IN,
  K_FLOW_OUT,
  K_ARGS,
  K_TRACE_EVENTS,
  K_DISPLAY_TIME_UNIT,
  K_OTHER_DATA,
  K_METADATA,
  K_LOCAL,
  K_GLOBAL,
  K_OTHER,
} Key;

enum
{
  EV_HAS_TS    = 1 << 0,
  EV_HAS_DUR   = 1 << 1,
  EV_HAS_TTS   = 1 << 2,
  EV_HAS_TDUR  = 1 << 3,
  EV_HAS_PID   = 1 << 4,
  EV_HAS_TID   = 1 << 5,
  EV_PID_STR   = 1 << 6,
  EV_TID_STR   = 1 << 7,
  EV_FLOW_IN   = 1 << 8,
  EV_FLOW_OUT  = 1 << 9,
  EV_HAS_ID    = 1 << 10,
  EV_ID_GLOBAL = 1 << 11,
  EV_ID_LOCAL  = 1 << 12,
  EV_HAS_BIND  = 1 << 13,
  EV_HAS_SCOPE = 1 << 14,
  EV_HAS_ARGS  = 1 << 15,
  EV_ROUNDED   = 1 << 16,
  EV_RANGE     = 1 << 17,
};

typedef struct
{
  gint64  ts;
  gint64  dur;
  gint64  tts;
  gint64  tdur;
  gint64  pid;
  gint64  tid;
  guint64 offset;
  guint32 flags;
  guint32 name;
  guint32 cat;
  char    ph;
  char    s;
} Event;

typedef struct
{
  TesChromeSegment *seg;
  yajl_handle       yajl;
  guint64           base;
  Frame             frames[16];
  guint             n_frames;
  guint             depth;
  Key               key;
  Event             ev;
  GString          *args;
  gboolean          need_comma;
  GString          *id;
  GString          *bind;
  GString          *scope;
  GString          *other_prefix;
  GString          *other_key;
  guint64           last_event_end;
  guint             saw_top : 1;
  guint             object_form : 1;
  guint             saw_events : 1;
  GError           *error;
} Parser;

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
  seg->info = g_ptr_array_new_with_free_func (g_free);
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
static void
segment_sort (TesChromeSegment *seg)
{
  for (guint i = 0; i < seg->thread_list->len; i++)
    {
      TesChromeThread *t = g_ptr_array_index (seg->thread_list, i);

      if (!slices_sorted (t->slices))
        g_array_sort (t->slices, tes_chrome_slice_compare);
      t->n_sorted = t->slices->len;
    }
}

/* ---- event handling ---------------------------------------------------- */

static inline void
note_ts (TesChromeSegment *seg,
         gint64            ts)
{
  if (ts > seg->max_ts)
    seg->max_ts = ts;
  seg->has_ts = TRUE;
}

static TesChromeThread *
get_thread (Parser   *p,
            gboolean  has_events)
{
  TesChromeSegment *seg = p->seg;
  TesChromeThread key = { 0 };
  TesChromeThread *t;

  if (p->ev.flags & EV_HAS_PID)
    key.pid = p->ev.pid;
  if (p->ev.flags & EV_HAS_TID)
    key.tid = p->ev.tid;
  key.key_flags = ((p->ev.flags & EV_PID_STR) ? TES_CHROME_KEY_PID_STRING : 0) |
                  ((p->ev.flags & EV_TID_STR) ? TES_CHROME_KEY_TID_STRING : 0);

  /* consecutive events mostly go to the same thread */
  if ((t = seg->last_thread) != NULL && t->pid == key.pid && t->tid == key.tid && t->key_flags == key.key_flags)
    {
      t->has_events |= has_events;
      return t;
    }

  if (!(t = g_hash_table_lookup (seg->threads, &key)))
    {
      t = g_new0 (TesChromeThread, 1);
      t->pid = key.pid;
      t->tid = key.tid;
      t->key_flags = key.key_flags;
      t->slices = g_array_new (FALSE, FALSE, sizeof (TesChromeSlice));
      t->args = g_string_new (NULL);
      t->open = g_array_new (FALSE, FALSE, sizeof (TesChromeOpen));
      t->orphans = g_array_new (FALSE, FALSE, sizeof (TesChromeOpen));
      g_hash_table_add (seg->threads, t);
      g_ptr_array_add (seg->thread_list, t);
    }

  t->has_events |= has_events;
  seg->last_thread = t;

  return t;
}

static TesChromeProcess *
get_process (Parser *p)
{
  TesChromeSegment *seg = p->seg;
  TesChromeProcess key = { 0 };
  TesChromeProcess *pr;

  if (p->ev.flags & EV_HAS_PID)
    key.pid = p->ev.pid;
  key.key_flags = (p->ev.flags & EV_PID_STR) ? TES_CHROME_KEY_PID_STRING : 0;

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
store_args (Parser  *p,
            GString *store,
            guint64 *off)
{
  gboolean tt = (p->ev.flags & (EV_HAS_TTS | EV_HAS_TDUR)) != 0;
  gsize start = store->len;

  *off = start;

  if (!tt)
    {
      if (!(p->ev.flags & EV_HAS_ARGS))
        return 0;
      tes_chrome_append (store, p->args->str, p->args->len);
      return (guint32)p->args->len;
    }

  if (p->ev.flags & EV_HAS_ARGS)
    {
      tes_chrome_append (store, p->args->str, p->args->len - 1);
      tes_chrome_append_c (store, ',');
    }
  else
    g_string_append_c (store, '{');

  if (p->ev.flags & EV_HAS_TTS)
    g_string_append_printf (store, "\"thread_ts_ns\":%" G_GINT64_FORMAT ",", p->ev.tts);
  if (p->ev.flags & EV_HAS_TDUR)
    g_string_append_printf (store, "\"thread_dur_ns\":%" G_GINT64_FORMAT ",", p->ev.tdur);
  store->str[store->len - 1] = '}';

  return (guint32)(store->len - start);
}

static gboolean
need_ts (Parser *p)
{
  if (p->ev.flags & EV_RANGE)
    {
      tes_chrome_segment_warn (p->seg, TES_CHROME_W_RANGE, p->ev.offset);
      return FALSE;
    }

  if (!(p->ev.flags & EV_HAS_TS))
    {
      tes_chrome_segment_warn (p->seg, TES_CHROME_W_NO_TS, p->ev.offset);
      return FALSE;
    }

  if (p->ev.flags & EV_ROUNDED)
    tes_chrome_segment_warn (p->seg, TES_CHROME_W_ROUNDED, p->ev.offset);

  note_ts (p->seg, p->ev.ts);
  return TRUE;
}

static guint32
event_id (Parser *p)
{
  g_autoptr(GString) key = NULL;

  if (!(p->ev.flags & EV_HAS_ID))
    return 0;

  if (!(p->ev.flags & (EV_HAS_SCOPE | EV_ID_GLOBAL | EV_ID_LOCAL)))
    return tes_chrome_strings_intern (&p->seg->strings, p->id->str, p->id->len);

  key = g_string_new (NULL);
  if (p->ev.flags & EV_HAS_SCOPE)
    {
      g_string_append_len (key, p->scope->str, p->scope->len);
      g_string_append_c (key, '\x1f');
    }
  if (p->ev.flags & EV_ID_GLOBAL)
    g_string_append (key, "global:");
  else if (p->ev.flags & EV_ID_LOCAL)
    g_string_append (key, "local:");
  g_string_append_len (key, p->id->str, p->id->len);

  return tes_chrome_strings_intern (&p->seg->strings, key->str, key->len);
}

static void
add_flow_point (Parser          *p,
                TesChromeThread *thread)
{
  TesChromeFlowEvent fe = { 0 };
  guint32 flags = p->ev.flags;

  if (!(flags & (EV_FLOW_IN | EV_FLOW_OUT)))
    return;

  if (flags & EV_HAS_BIND)
    fe.id = tes_chrome_strings_intern (&p->seg->strings, p->bind->str, p->bind->len);
  else if (flags & EV_HAS_ID)
    fe.id = event_id (p);
  else
    return;

  fe.ts = p->ev.ts;
  fe.offset = p->ev.offset;
  fe.name = p->ev.name;
  fe.cat = p->ev.cat;
  fe.thread = thread;
  fe.ph = (flags & EV_FLOW_IN) ? ((flags & EV_FLOW_OUT) ? 'b' : 'i') : 'o';
  g_array_append_val (p->seg->flow_points, fe);
}

static void
sample_vendor (Parser *p)
{
  TesChromeSegment *seg = p->seg;
  const char *args = p->args->str;
  gsize len = p->args->len;
  const char *v;
  gsize vl;

  if (seg->n_sampled >= SAMPLE_EVENTS)
    return;
  seg->n_sampled++;

  if (!(p->ev.flags & EV_HAS_ARGS))
    return;

  if (tes_chrome_args_find (args, len, "total_cycle", &v, &vl) &&
      tes_chrome_args_find (args, len, "conv_cycle_percent", &v, &vl))
    seg->n_sigmastar++;
  else if (tes_chrome_args_find (args, len, "opPCycle", &v, &vl) ||
           tes_chrome_args_find (args, len, "opUCycle", &v, &vl) ||
           tes_chrome_args_find (args, len, "opKind", &v, &vl))
    seg->n_qaic_args++;
}

static void
handle_complete (Parser *p)
{
  TesChromeThread *t;
  TesChromeSlice slice = { 0 };
  gint64 dur = (p->ev.flags & EV_HAS_DUR) ? p->ev.dur : 0;

  if (!need_ts (p))
    return;

  t = get_thread (p, TRUE);

  if (dur < 0)
    {
      tes_chrome_segment_warn (p->seg, TES_CHROME_W_NEGATIVE_DUR, p->ev.offset);
      dur = 0;
      slice.flags |= TES_SLICE_FLAG_CLAMPED;
    }

  slice.start = p->ev.ts;
  slice.dur = dur;
  slice.name = p->ev.name;
  slice.cat = p->ev.cat;
  slice.args_len = store_args (p, t->args, &slice.args_off);
  g_array_append_val (t->slices, slice);

  if (dur > 0 && p->ev.ts <= G_MAXINT64 - dur)
    note_ts (p->seg, p->ev.ts + dur);

  add_flow_point (p, t);
  sample_vendor (p);
}

static void
handle_begin (Parser *p)
{
  TesChromeThread *t;
  TesChromeOpen open = { 0 };

  if (!need_ts (p))
    return;

  t = get_thread (p, TRUE);
  open.ts = p->ev.ts;
  open.offset = p->ev.offset;
  open.name = p->ev.name;
  open.cat = p->ev.cat;
  open.args_len = store_args (p, t->args, &open.args_off);
  g_array_append_val (t->open, open);

  add_flow_point (p, t);
}

static void
handle_end (Parser *p)
{
  TesChromeThread *t;
  TesChromeOpen end = { 0 };

  if (!need_ts (p))
    return;

  t = get_thread (p, TRUE);
  end.ts = p->ev.ts;
  end.offset = p->ev.offset;
  end.name = p->ev.name;
  end.cat = p->ev.cat;
  end.args_len = store_args (p, t->args, &end.args_off);

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
        tes_chrome_segment_warn (p->seg, TES_CHROME_W_NEGATIVE_DUR, p->ev.offset);
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
    g_array_append_val (t->slices, slice);
  }
}

static void
handle_instant (Parser *p)
{
  TesChromeInstant inst = { 0 };

  if (!need_ts (p))
    return;

  inst.ts = p->ev.ts;
  inst.name = p->ev.name;
  inst.cat = p->ev.cat;
  inst.scope = p->ev.s == 'g' ? 'g' : p->ev.s == 'p' ? 'p' : 't';
  if (inst.scope == 't')
    inst.thread = get_thread (p, TRUE);
  else if (inst.scope == 'p')
    inst.process = get_process (p);
  inst.args_len = store_args (p, p->seg->misc, &inst.args_off);
  g_array_append_val (p->seg->instants, inst);
}

static void
handle_counter (Parser *p)
{
  TesChromeSegment *seg = p->seg;
  TesChromeProcess *proc;
  guint32 id;
  gsize pos = 0;
  const char *key;
  const char *value;
  gsize key_len;
  gsize value_len;
  g_autoptr(GString) series = NULL;

  if (!need_ts (p))
    return;

  if (!(p->ev.flags & EV_HAS_ARGS))
    return;

  proc = get_process (p);
  id = event_id (p);
  series = g_string_new (NULL);

  while (tes_chrome_args_next (p->args->str, p->args->len, &pos, &key, &key_len, &value, &value_len))
    {
      TesChromeCounter *c;
      TesChromeCounterValue cv;

      if (!tes_chrome_value_to_double (value, value_len, TRUE, &cv.value))
        {
          tes_chrome_segment_warn (seg, TES_CHROME_W_COUNTER_VALUE, p->ev.offset);
          continue;
        }
      cv.ts = p->ev.ts;

      g_string_printf (series, "%p\x1f%u\x1f%u\x1f", (gpointer)proc, p->ev.name, id);
      g_string_append_len (series, key, key_len);

      if (!(c = g_hash_table_lookup (seg->counters, series->str)))
        {
          c = g_new0 (TesChromeCounter, 1);
          c->process = proc;
          c->name = p->ev.name;
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
args_string (Parser     *p,
             const char *key,
             guint32    *out)
{
  const char *v;
  gsize vl;
  g_autofree char *text = NULL;

  if (!(p->ev.flags & EV_HAS_ARGS) ||
      !tes_chrome_args_find (p->args->str, p->args->len, key, &v, &vl))
    return FALSE;

  text = tes_chrome_value_dup_string (v, vl);
  *out = tes_chrome_strings_intern (&p->seg->strings, text, strlen (text));
  return TRUE;
}

static gboolean
args_int (Parser     *p,
          const char *key,
          gint64     *out)
{
  const char *v;
  gsize vl;
  double d;

  if (!(p->ev.flags & EV_HAS_ARGS) ||
      !tes_chrome_args_find (p->args->str, p->args->len, key, &v, &vl) ||
      !tes_chrome_value_to_double (v, vl, TRUE, &d) ||
      d < (double)G_MININT32 || d > (double)G_MAXINT32)
    return FALSE;

  *out = (gint64)d;
  return TRUE;
}

static void
handle_metadata (Parser *p)
{
  const char *name = tes_chrome_strings_get (&p->seg->strings, p->ev.name);
  guint32 text;
  gint64 index;

  if (name == NULL)
    return;

  if (g_str_equal (name, "process_name"))
    {
      if (args_string (p, "name", &text))
        get_process (p)->name = text;
    }
  else if (g_str_equal (name, "process_labels"))
    {
      if (args_string (p, "labels", &text))
        get_process (p)->labels = text;
    }
  else if (g_str_equal (name, "process_sort_index"))
    {
      if (args_int (p, "sort_index", &index))
        {
          TesChromeProcess *pr = get_process (p);

          pr->sort_index = index;
          pr->has_sort_index = TRUE;
        }
    }
  else if (g_str_equal (name, "thread_name"))
    {
      if (args_string (p, "name", &text))
        {
          get_thread (p, FALSE)->name = text;
          if (g_str_has_prefix (tes_chrome_strings_get (&p->seg->strings, text), "QAicGraph_"))
            p->seg->n_qaic_threads++;
        }
    }
  else if (g_str_equal (name, "thread_sort_index"))
    {
      if (args_int (p, "sort_index", &index))
        {
          TesChromeThread *t = get_thread (p, FALSE);

          t->sort_index = index;
          t->has_sort_index = TRUE;
        }
    }
}

static void
handle_async (Parser *p,
              GArray *into,
              gboolean flow)
{
  if (!need_ts (p))
    return;

  if (flow)
    {
      TesChromeFlowEvent fe = { 0 };

      fe.ts = p->ev.ts;
      fe.offset = p->ev.offset;
      fe.name = p->ev.name;
      fe.cat = p->ev.cat;
      fe.id = event_id (p);
      fe.thread = get_thread (p, TRUE);
      fe.ph = p->ev.ph;
      g_array_append_val (into, fe);
    }
  else
    {
      TesChromeAsync a = { 0 };

      a.ts = p->ev.ts;
      a.offset = p->ev.offset;
      a.name = p->ev.name;
      a.cat = p->ev.cat;
      a.id = event_id (p);
      a.thread = get_thread (p, FALSE);
      a.ph = p->ev.ph;
      a.flags = (p->ev.flags & EV_ID_GLOBAL) ? TES_CHROME_ASYNC_GLOBAL : 0;
      a.args_len = store_args (p, p->seg->misc, &a.args_off);
      g_array_append_val (into, a);
    }
}

static void
handle_event (Parser *p)
{
  TesChromeSegment *seg = p->seg;

  seg->n_events++;

  switch (p->ev.ph)
    {
    case 'X':
      handle_complete (p);
      break;
    case 'B':
      handle_begin (p);
      break;
    case 'E':
      handle_end (p);
      break;
    case 'i':
    case 'I':
    case 'R':
      handle_instant (p);
      break;
    case 'C':
      handle_counter (p);
      break;
    case 'M':
      handle_metadata (p);
      break;
    case 'b':
    case 'e':
    case 'n':
    case 'S':
    case 'T':
    case 'p':
    case 'F':
      handle_async (p, seg->asyncs, FALSE);
      break;
    case 's':
    case 't':
    case 'f':
      handle_async (p, seg->flows, TRUE);
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
      tes_chrome_segment_warn (seg, TES_CHROME_W_UNSUPPORTED_PHASE, p->ev.offset);
      break;
    case 0:
      seg->n_events--;
      tes_chrome_segment_warn (seg, TES_CHROME_W_NO_PHASE, p->ev.offset);
      break;
    default:
      tes_chrome_segment_warn (seg, TES_CHROME_W_UNKNOWN_PHASE, p->ev.offset);
      break;
    }
}

/* ---- yajl callbacks ---------------------------------------------------- */

typedef enum
{
  V_NULL,
  V_FALSE,
  V_TRUE,
  V_NUMBER,
  V_STRING,
} ValueType;

static inline guint64
offset_now (Parser *p)
{
  return p->base + yajl_get_bytes_consumed (p->yajl);
}

static int
fail (Parser     *p,
      GQuark      domain,
      int         code,
      const char *message)
{
  if (p->error == NULL)
    g_set_error_literal (&p->error, domain, code, message);
  return 0;
}

static inline Frame *
top (Parser *p)
{
  return &p->frames[p->n_frames - 1];
}

static void
push (Parser    *p,
      FrameKind  kind)
{
  g_assert (p->n_frames < G_N_ELEMENTS (p->frames));
  p->frames[p->n_frames].kind = kind;
  p->frames[p->n_frames].nest = 1;
  p->n_frames++;
}

static Key
match_event_key (const char *k,
                 gsize       len)
{
#define IS(lit) (len == sizeof (lit) - 1 && memcmp (k, lit, sizeof (lit) - 1) == 0)
  switch (len)
    {
    case 1:
      return k[0] == 's' ? K_S : K_OTHER;
    case 2:
      if (IS ("ph")) return K_PH;
      if (IS ("ts")) return K_TS;
      if (IS ("id")) return K_ID;
      if (IS ("bp")) return K_BP;
      return K_OTHER;
    case 3:
      if (IS ("pid")) return K_PID;
      if (IS ("tid")) return K_TID;
      if (IS ("dur")) return K_DUR;
      if (IS ("cat")) return K_CAT;
      if (IS ("tts")) return K_TTS;
      if (IS ("id2")) return K_ID2;
      return K_OTHER;
    case 4:
      if (IS ("name")) return K_NAME;
      if (IS ("args")) return K_ARGS;
      if (IS ("tdur")) return K_TDUR;
      return K_OTHER;
    case 5:
      if (IS ("scope")) return K_SCOPE;
      return K_OTHER;
    case 7:
      if (IS ("bind_id")) return K_BIND_ID;
      if (IS ("flow_in")) return K_FLOW_IN;
      return K_OTHER;
    case 8:
      if (IS ("flow_out")) return K_FLOW_OUT;
      return K_OTHER;
    default:
      return K_OTHER;
    }
#undef IS
}

static void
capture_comma (Parser *p)
{
  if (p->need_comma)
    tes_chrome_append_c (p->args, ',');
}

static void
bad_type (Parser *p)
{
  tes_chrome_segment_warn (p->seg, TES_CHROME_W_BAD_TYPE, p->ev.offset);
}

static void
time_field (Parser     *p,
            guint32     flag,
            gint64     *field,
            ValueType   type,
            const char *s,
            gsize       len)
{
  gint64 v;

  if (type == V_NULL)
    return;
  if (type != V_NUMBER && type != V_STRING)
    {
      bad_type (p);
      return;
    }

  switch (tes_chrome_parse_decimal (s, len, 3, &v))
    {
    case TES_CHROME_DECIMAL_ROUNDED:
      p->ev.flags |= EV_ROUNDED;
      G_GNUC_FALLTHROUGH;
    case TES_CHROME_DECIMAL_OK:
      *field = v;
      p->ev.flags |= flag;
      break;
    case TES_CHROME_DECIMAL_RANGE:
      p->ev.flags |= EV_RANGE;
      break;
    case TES_CHROME_DECIMAL_INVALID:
    default:
      bad_type (p);
      break;
    }
}

static void
id_field (Parser     *p,
          guint32     has_flag,
          GString    *into,
          ValueType   type,
          const char *s,
          gsize       len)
{
  if (type != V_NUMBER && type != V_STRING)
    {
      if (type != V_NULL)
        bad_type (p);
      return;
    }

  g_string_truncate (into, 0);
  g_string_append_len (into, s, len);
  p->ev.flags |= has_flag;
}

static void
process_id_field (Parser     *p,
                  gint64     *field,
                  guint32     has_flag,
                  guint32     str_flag,
                  ValueType   type,
                  const char *s,
                  gsize       len)
{
  gint64 v;

  if (type == V_NUMBER && len < 10 && s[0] != '-')
    {
      /* the common case: a small non-negative integer */
      gsize i;

      v = 0;
      for (i = 0; i < len && s[i] >= '0' && s[i] <= '9'; i++)
        v = v * 10 + (s[i] - '0');
      if (i == len)
        {
          *field = v;
          p->ev.flags = (p->ev.flags | has_flag) & ~str_flag;
          return;
        }
    }

  if (type == V_NUMBER && tes_chrome_parse_decimal (s, len, 0, &v) == TES_CHROME_DECIMAL_OK)
    {
      *field = v;
      p->ev.flags = (p->ev.flags | has_flag) & ~str_flag;
    }
  else if (type == V_NUMBER || type == V_STRING)
    {
      *field = tes_chrome_strings_intern (&p->seg->strings, s, len);
      p->ev.flags |= has_flag | str_flag;
    }
  else if (type != V_NULL)
    bad_type (p);
}

static void
event_field (Parser     *p,
             ValueType   type,
             const char *s,
             gsize       len)
{
  Event *ev = &p->ev;

  switch (p->key)
    {
    case K_PH:
      if (type == V_STRING)
        ev->ph = len == 1 ? s[0] : '?';
      else
        bad_type (p);
      break;
    case K_NAME:
    case K_CAT:
      if (type == V_STRING || type == V_NUMBER)
        {
          guint32 id = tes_chrome_strings_intern (&p->seg->strings, s, len);

          if (p->key == K_NAME)
            ev->name = id;
          else
            ev->cat = id;
        }
      else if (type != V_NULL)
        bad_type (p);
      break;
    case K_PID:
      process_id_field (p, &ev->pid, EV_HAS_PID, EV_PID_STR, type, s, len);
      break;
    case K_TID:
      process_id_field (p, &ev->tid, EV_HAS_TID, EV_TID_STR, type, s, len);
      break;
    case K_TS:
      time_field (p, EV_HAS_TS, &ev->ts, type, s, len);
      break;
    case K_DUR:
      time_field (p, EV_HAS_DUR, &ev->dur, type, s, len);
      break;
    case K_TTS:
      time_field (p, EV_HAS_TTS, &ev->tts, type, s, len);
      break;
    case K_TDUR:
      time_field (p, EV_HAS_TDUR, &ev->tdur, type, s, len);
      break;
    case K_ID:
      id_field (p, EV_HAS_ID, p->id, type, s, len);
      break;
    case K_BIND_ID:
      id_field (p, EV_HAS_BIND, p->bind, type, s, len);
      break;
    case K_SCOPE:
      id_field (p, EV_HAS_SCOPE, p->scope, type, s, len);
      break;
    case K_S:
      if (type == V_STRING && len >= 1)
        ev->s = s[0];
      else if (type != V_NULL)
        bad_type (p);
      break;
    case K_BP:
      /* the binding point changes which slice a flow arrow attaches to,
       * not its time; nothing to keep */
      break;
    case K_FLOW_IN:
      if (type == V_TRUE)
        ev->flags |= EV_FLOW_IN;
      break;
    case K_FLOW_OUT:
      if (type == V_TRUE)
        ev->flags |= EV_FLOW_OUT;
      break;
    case K_ARGS:
    case K_ID2:
      if (type != V_NULL)
        bad_type (p);
      break;
    case K_NONE:
    case K_TRACE_EVENTS:
    case K_DISPLAY_TIME_UNIT:
    case K_OTHER_DATA:
    case K_METADATA:
    case K_LOCAL:
    case K_GLOBAL:
    case K_OTHER:
    default:
      break;
    }
}

static int
on_scalar (Parser     *p,
           ValueType   type,
           const char *s,
           gsize       len)
{
  Frame *f;

  if (p->n_frames == 0)
    return fail (p, TES_IMPORT_ERROR, TES_IMPORT_ERROR_INVALID,
                 "not a Chrome trace: the document is a single value, not an array or object");

  f = top (p);

  if (G_LIKELY (f->kind == F_EVENT))
    {
      event_field (p, type, s, len);
      return 1;
    }

  switch (f->kind)
    {
    case F_CAPTURE:
      capture_comma (p);
      switch (type)
        {
        case V_NULL: tes_chrome_append (p->args, "null", 4); break;
        case V_FALSE: tes_chrome_append (p->args, "false", 5); break;
        case V_TRUE: tes_chrome_append (p->args, "true", 4); break;
        case V_NUMBER: tes_chrome_append (p->args, s, len); break;
        case V_STRING: tes_chrome_append_escaped (p->args, s, len); break;
        default: break;
        }
      p->need_comma = TRUE;
      break;

    case F_SKIP:
      break;

    case F_EVENTS:
      tes_chrome_segment_warn (p->seg, TES_CHROME_W_NOT_OBJECT, offset_now (p));
      break;

    case F_TOP_OBJECT:
      if (p->key == K_DISPLAY_TIME_UNIT && type == V_STRING)
        p->seg->display_time_unit = tes_chrome_strings_intern (&p->seg->strings, s, len);
      break;

    case F_ID2:
      if (p->key == K_LOCAL || p->key == K_GLOBAL)
        {
          id_field (p, EV_HAS_ID, p->id, type, s, len);
          p->ev.flags &= ~(EV_ID_LOCAL | EV_ID_GLOBAL);
          p->ev.flags |= p->key == K_LOCAL ? EV_ID_LOCAL : EV_ID_GLOBAL;
        }
      break;

    case F_OTHER:
      if (type != V_NULL && p->seg->info->len < 200)
        {
          g_ptr_array_add (p->seg->info, g_strdup_printf ("%s.%s", p->other_prefix->str, p->other_key->str));
          if (type == V_STRING || type == V_NUMBER)
            g_ptr_array_add (p->seg->info, g_strndup (s, len));
          else
            g_ptr_array_add (p->seg->info, g_strdup (type == V_TRUE ? "true" : "false"));
        }
      break;

    case F_TOP:
    default:
      break;
    }

  return 1;
}

static int
cb_null (void *ctx)
{
  return on_scalar (ctx, V_NULL, NULL, 0);
}

static int
cb_boolean (void *ctx,
            int   value)
{
  return on_scalar (ctx, value ? V_TRUE : V_FALSE, NULL, 0);
}

static int
cb_number (void       *ctx,
           const char *s,
           size_t      len)
{
  return on_scalar (ctx, V_NUMBER, s, len);
}

static int
cb_string (void                *ctx,
           const unsigned char *s,
           size_t               len)
{
  return on_scalar (ctx, V_STRING, (const char *)s, len);
}

static void
begin_event (Parser *p)
{
  memset (&p->ev, 0, sizeof p->ev);
  p->ev.offset = offset_now (p) - 1;
  g_string_truncate (p->args, 0);
}

static int
on_start (Parser   *p,
          gboolean  is_map)
{
  Frame *f;

  if (++p->depth > TES_CHROME_MAX_DEPTH)
    {
      g_autofree char *msg = g_strdup_printf ("containers nested deeper than %d levels",
                                              TES_CHROME_MAX_DEPTH);
      return fail (p, TES_IMPORT_ERROR, TES_IMPORT_ERROR_INVALID, msg);
    }

  if (p->n_frames == 0)
    {
      p->saw_top = TRUE;
      if (is_map)
        {
          p->object_form = TRUE;
          push (p, F_TOP_OBJECT);
        }
      else
        {
          p->saw_events = TRUE;
          push (p, F_EVENTS);
        }
      return 1;
    }

  f = top (p);

  switch (f->kind)
    {
    case F_CAPTURE:
      capture_comma (p);
      tes_chrome_append_c (p->args, is_map ? '{' : '[');
      p->need_comma = FALSE;
      f->nest++;
      break;

    case F_SKIP:
      f->nest++;
      break;

    case F_TOP_OBJECT:
      if (p->key == K_TRACE_EVENTS && !is_map)
        {
          p->saw_events = TRUE;
          push (p, F_EVENTS);
        }
      else if (is_map && (p->key == K_OTHER_DATA || p->key == K_METADATA))
        {
          g_string_assign (p->other_prefix, p->key == K_OTHER_DATA ? "otherData" : "metadata");
          push (p, F_OTHER);
        }
      else
        push (p, F_SKIP);
      break;

    case F_EVENTS:
      if (is_map)
        {
          push (p, F_EVENT);
          begin_event (p);
        }
      else
        {
          tes_chrome_segment_warn (p->seg, TES_CHROME_W_NOT_OBJECT, offset_now (p) - 1);
          push (p, F_SKIP);
        }
      break;

    case F_EVENT:
      if (p->key == K_ARGS && is_map)
        {
          g_string_truncate (p->args, 0);
          tes_chrome_append_c (p->args, '{');
          p->need_comma = FALSE;
          push (p, F_CAPTURE);
        }
      else if (p->key == K_ID2 && is_map)
        push (p, F_ID2);
      else
        {
          if (p->key != K_OTHER)
            bad_type (p);
          push (p, F_SKIP);
        }
      break;

    case F_ID2:
    case F_OTHER:
    case F_TOP:
    default:
      push (p, F_SKIP);
      break;
    }

  return 1;
}

static int
on_end (Parser   *p,
        gboolean  is_map)
{
  Frame *f = top (p);

  p->depth--;

  switch (f->kind)
    {
    case F_CAPTURE:
      tes_chrome_append_c (p->args, is_map ? '}' : ']');
      p->need_comma = TRUE;
      if (--f->nest == 0)
        {
          p->n_frames--;
          /* {} carries nothing */
          if (p->args->len > 2)
            p->ev.flags |= EV_HAS_ARGS;
        }
      break;

    case F_SKIP:
      if (--f->nest == 0)
        p->n_frames--;
      break;

    case F_EVENT:
      p->n_frames--;
      p->last_event_end = offset_now (p);
      handle_event (p);
      break;

    case F_TOP_OBJECT:
    case F_EVENTS:
    case F_ID2:
    case F_OTHER:
    case F_TOP:
    default:
      p->n_frames--;
      break;
    }

  p->key = K_NONE;
  return 1;
}

static int
cb_start_map (void *ctx)
{
  return on_start (ctx, TRUE);
}

static int
cb_end_map (void *ctx)
{
  return on_end (ctx, TRUE);
}

static int
cb_start_array (void *ctx)
{
  return on_start (ctx, FALSE);
}

static int
cb_end_array (void *ctx)
{
  return on_end (ctx, FALSE);
}

static int
cb_map_key (void                *ctx,
            const unsigned char *k,
            size_t               len)
{
  Parser *p = ctx;
  const char *key = (const char *)k;
  Frame *f = top (p);

  /* by far the most frequent case first */
  if (G_LIKELY (f->kind == F_EVENT))
    {
      p->key = match_event_key (key, len);
      return 1;
    }

  switch (f->kind)
    {
    case F_CAPTURE:
      capture_comma (p);
      tes_chrome_append_escaped (p->args, key, len);
      tes_chrome_append_c (p->args, ':');
      p->need_comma = FALSE;
      break;

    case F_SKIP:
      break;

    case F_TOP_OBJECT:
      if (len == 11 && memcmp (key, "traceEvents", 11) == 0)
        p->key = K_TRACE_EVENTS;
      else if (len == 15 && memcmp (key, "displayTimeUnit", 15) == 0)
        p->key = K_DISPLAY_TIME_UNIT;
      else if (len == 9 && memcmp (key, "otherData", 9) == 0)
        p->key = K_OTHER_DATA;
      else if (len == 8 && memcmp (key, "metadata", 8) == 0)
        p->key = K_METADATA;
      else
        p->key = K_OTHER;
      break;

    case F_ID2:
      if (len == 5 && memcmp (key, "local", 5) == 0)
        p->key = K_LOCAL;
      else if (len == 6 && memcmp (key, "global", 6) == 0)
        p->key = K_GLOBAL;
      else
        p->key = K_OTHER;
      break;

    case F_OTHER:
      g_string_truncate (p->other_key, 0);
      g_string_append_len (p->other_key, key, MIN (len, 64));
      break;

    case F_EVENTS:
    case F_TOP:
    default:
      break;
    }

  return 1;
}

static const yajl_callbacks callbacks = {
  cb_null,
  cb_boolean,
  NULL,
  NULL,
  cb_number,
  cb_string,
  cb_start_map,
  cb_map_key,
  cb_end_map,
  cb_start_array,
  cb_end_array,
};

static void
parser_init (Parser           *p,
             TesChromeSegment *seg)
{
  memset (p, 0, sizeof *p);
  p->seg = seg;
  p->yajl = yajl_alloc (&callbacks, NULL, p);
  p->args = g_string_sized_new (256);
  p->id = g_string_new (NULL);
  p->bind = g_string_new (NULL);
  p->scope = g_string_new (NULL);
  p->other_prefix = g_string_new (NULL);
  p->other_key = g_string_new (NULL);
}

static void
parser_clear (Parser *p)
{
  g_clear_pointer (&p->yajl, yajl_free);
  g_string_free (p->args, TRUE);
  g_string_free (p->id, TRUE);
  g_string_free (p->bind, TRUE);
  g_string_free (p->scope, TRUE);
  g_string_free (p->other_prefix, TRUE);
  g_string_free (p->other_key, TRUE);
  g_clear_error (&p->error);
}

/* ---- driving the parse ------------------------------------------------- */

typedef struct
{
  TesChromeSegment *seg;
  int               fd;
  GInputStream     *stream;       /* gzip; only for segment 0 */
  GInputStream     *raw;          /* the compressed stream under it */
  guint64           start;
  guint64           stop_at;      /* G_MAXUINT64: the end of the file */
  guint64           brace;        /* offset of the '}' just before stop_at */
  const char       *prefix;
  GCancellable     *cancellable;
  gint             *abandon;      /* segments after this index stop */
  gsize            *consumed;
  TesProgress      *progress;
  guint64           total;

  gboolean          object_form;
  gboolean          verified_end;
  GError           *error;
  guint64           error_offset; /* G_MAXUINT64: no offset */
} Job;

static const char *
describe_bad_token (const guint8 *buf,
                    gsize         len,
                    gsize         at)
{
  const char *rest = (const char *)buf + at;
  gsize left = at < len ? len - at : 0;

  if ((left >= 3 && memcmp (rest, "NaN", 3) == 0) ||
      (left >= 8 && memcmp (rest, "Infinity", 8) == 0) ||
      (left >= 9 && memcmp (rest, "-Infinity", 9) == 0))
    return " (NaN and Infinity are not JSON numbers)";

  return "";
}

static void
set_parse_error (Job          *job,
                 Parser       *p,
                 const guint8 *buf,
                 gsize         len,
                 guint64       chunk_start)
{
  gsize at = yajl_get_bytes_consumed (p->yajl);

  /* yajl stops just past the byte it rejects */
  if (at > 0)
    at--;
  job->error_offset = chunk_start + at;

  if (p->error != NULL)
    {
      job->error = g_steal_pointer (&p->error);
      return;
    }

  {
    g_autofree guchar *msg = yajl_get_error (p->yajl, 0, NULL, 0);
    g_autofree char *text = g_strstrip (g_strdup ((const char *)msg));
    const char *colon = strstr (text, ": ");

    /* yajl says "lexical error: invalid char in json text." */
    g_set_error (&job->error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_INVALID,
                 "invalid JSON: %s%s", colon ? colon + 2 : text,
                 describe_bad_token (buf, len, at));
  }
}

static gboolean
at_boundary (Parser *p,
             guint64 brace)
{
  return p->n_frames > 0 && top (p)->kind == F_EVENTS && p->last_event_end == brace + 1;
}

static void
finish_at_eof (Job    *job,
               Parser *p,
               guint64 pos)
{
  yajl_status st = yajl_complete_parse (p->yajl);

  if (st == yajl_status_ok && p->n_frames == 0 && p->saw_top)
    return;

  if (p->error != NULL)
    {
      job->error = g_steal_pointer (&p->error);
      job->error_offset = pos;
      return;
    }

  if (!p->saw_top)
    {
      g_set_error_literal (&job->error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_EMPTY,
                           "no JSON in the file");
      job->error_offset = G_MAXUINT64;
      return;
    }

  if (!p->saw_events)
    {
      g_set_error_literal (&job->error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_TRUNCATED,
                           "the file ends before any trace event");
      job->error_offset = pos;
      return;
    }

  /* The format allows a trace without its closing ]: keep every complete
   * event, drop one cut in half. */
  for (guint i = 0; i < p->n_frames; i++)
    if (p->frames[i].kind == F_EVENT)
      {
        tes_chrome_segment_warn (p->seg, TES_CHROME_W_PARTIAL_EVENT, p->ev.offset);
        break;
      }
  tes_chrome_segment_warn (p->seg, TES_CHROME_W_TRUNCATED, pos);
}

static gssize
read_chunk (Job      *job,
            guint8   *buf,
            gsize     want,
            guint64   pos,
            GError  **error)
{
  for (;;)
    {
      gssize n = pread (job->fd, buf, want, (off_t)pos);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int errsv = errno;
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                       "read error at byte %" G_GUINT64_FORMAT ": %s", pos, g_strerror (errsv));
        }
      return n;
    }
}

/* gzip: a second thread decompresses the next blocks while this one
 * parses, through a ring of N_BLOCKS buffers. */
#define N_BLOCKS 4

typedef struct
{
  guint8  *data;
  gssize   len;        /* 0: end of the stream, -1: error */
  guint64  raw_pos;    /* compressed bytes read when it was filled */
  GError  *error;
} Block;

typedef struct
{
  GInputStream *stream;
  GInputStream *raw;
  GCancellable *cancellable;
  GAsyncQueue  *full;
  GAsyncQueue  *empty;
  gint          stop;
  GThread      *thread;
  Block         blocks[N_BLOCKS];
} Inflater;

static gpointer
inflate_blocks (gpointer data)
{
  Inflater *inf = data;
  GError *pending = NULL;
  gboolean at_end = FALSE;

  for (;;)
    {
      Block *block = g_async_queue_pop (inf->empty);
      gsize got = 0;

      if (g_atomic_int_get (&inf->stop))
        break;

      if (pending != NULL)
        {
          block->len = -1;
          block->error = g_steal_pointer (&pending);
          g_async_queue_push (inf->full, block);
          break;
        }

      while (!at_end && got < CHUNK_SIZE)
        {
          GError *error = NULL;
          gssize n = g_input_stream_read (inf->stream, block->data + got, CHUNK_SIZE - got,
                                          inf->cancellable, &error);

          /* a gzip stream cut short reads like a truncated file */
          if (n < 0 && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT))
            {
              g_clear_error (&error);
              n = 0;
            }
          if (n < 0)
            {
              pending = error;
              break;
            }
          if (n == 0)
            at_end = TRUE;
          got += n;
        }

      if (got == 0 && pending != NULL)
        {
          block->len = -1;
          block->error = g_steal_pointer (&pending);
          g_async_queue_push (inf->full, block);
          break;
        }

      block->len = got;
      block->raw_pos = g_seekable_tell (G_SEEKABLE (inf->raw));
      g_async_queue_push (inf->full, block);

      if (got == 0)
        break;
    }

  g_clear_error (&pending);
  return NULL;
}

static Inflater *
inflater_new (GInputStream *stream,
              GInputStream *raw,
              GCancellable *cancellable)
{
  Inflater *inf = g_new0 (Inflater, 1);

  inf->stream = stream;
  inf->raw = raw;
  inf->cancellable = cancellable;
  inf->full = g_async_queue_new ();
  inf->empty = g_async_queue_new ();
  for (guint i = 0; i < N_BLOCKS; i++)
    {
      inf->blocks[i].data = g_malloc (CHUNK_SIZE);
      g_async_queue_push (inf->empty, &inf->blocks[i]);
    }
  inf->thread = g_thread_new ("tes-chrome-inflate", inflate_blocks, inf);

  return inf;
}

static void
inflater_free (Inflater *inf)
{
  /* wake the thread if it waits for a buffer; it stops at once */
  g_atomic_int_set (&inf->stop, 1);
  for (guint i = 0; i < N_BLOCKS; i++)
    g_async_queue_push (inf->empty, &inf->blocks[N_BLOCKS - 1]);
  g_thread_join (inf->thread);

  for (guint i = 0; i < N_BLOCKS; i++)
    {
      g_free (inf->blocks[i].data);
      g_clear_error (&inf->blocks[i].error);
    }
  g_async_queue_unref (inf->full);
  g_async_queue_unref (inf->empty);
  g_free (inf);
}

static gpointer
run_job (gpointer user_data)
{
  Job *job = user_data;
  Parser parser;
  Parser *p = &parser;
  g_autofree guint8 *buf = NULL;
  guint64 pos = job->start;
  gint64 t0 = g_get_monotonic_time ();
  Inflater *inflater = NULL;
  Block *block = NULL;

  if (job->stream != NULL)
    inflater = inflater_new (job->stream, job->raw, job->cancellable);
  else
    buf = g_malloc (CHUNK_SIZE);

  parser_init (p, job->seg);
  job->error_offset = G_MAXUINT64;

  if (job->prefix != NULL)
    {
      gsize plen = strlen (job->prefix);

      p->base = job->start - plen;
      if (yajl_parse (p->yajl, (const guint8 *)job->prefix, plen) != yajl_status_ok)
        g_assert_not_reached ();
    }

  for (;;)
    {
      gsize want = CHUNK_SIZE;
      const guint8 *data;
      gssize n;

      if (g_cancellable_set_error_if_cancelled (job->cancellable, &job->error))
        break;
      if ((gint)job->seg->index > g_atomic_int_get (job->abandon))
        break;

      if (job->stop_at != G_MAXUINT64)
        {
          if (pos >= job->stop_at)
            {
              if (at_boundary (p, job->brace))
                {
                  job->verified_end = TRUE;
                  break;
                }

              /* The cut was not between two events: parse on alone. */
              job->stop_at = G_MAXUINT64;
              for (gint cur = g_atomic_int_get (job->abandon);
                   cur > (gint)job->seg->index &&
                   !g_atomic_int_compare_and_exchange (job->abandon, cur, (gint)job->seg->index);
                   cur = g_atomic_int_get (job->abandon))
                ;
              continue;
            }
          want = MIN (want, job->stop_at - pos);
        }

      if (inflater != NULL)
        {
          block = g_async_queue_pop (inflater->full);
          n = block->len;
          data = block->data;
          if (n < 0)
            g_propagate_prefixed_error (&job->error, g_steal_pointer (&block->error),
                                        "cannot decompress after byte %" G_GUINT64_FORMAT ": ", pos);
        }
      else
        {
          n = read_chunk (job, buf, want, pos, &job->error);
          data = buf;
        }

      if (n < 0)
        break;
      if (n == 0)
        {
          finish_at_eof (job, p, pos);
          break;
        }

      p->base = pos;
      if (yajl_parse (p->yajl, data, n) != yajl_status_ok)
        {
          set_parse_error (job, p, data, n, pos);
          break;
        }

      pos += n;
      g_atomic_pointer_add (job->consumed, n);

      if (job->progress != NULL && job->total > 0)
        {
          double done = block ? (double)block->raw_pos : (double)g_atomic_pointer_get (job->consumed);

          tes_progress_update (job->progress, 0.85 * done / (double)job->total, NULL);
        }

      if (block != NULL)
        {
          g_async_queue_push (inflater->empty, block);
          block = NULL;
        }
    }

  g_clear_pointer (&inflater, inflater_free);

  job->object_form = p->object_form;
  parser_clear (p);

  if (job->error == NULL && (gint)job->seg->index <= g_atomic_int_get (job->abandon))
    segment_sort (job->seg);

  g_debug ("segment %u: bytes %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT " in %.3f s",
           job->seg->index, job->start, pos, (g_get_monotonic_time () - t0) / 1e6);

  return NULL;
}

typedef struct
{
  Job  *jobs;
  guint n_jobs;
  gint  next;
} Pool;

/* Threads take the pieces in file order, one at a time. */
static void
pool_run (Pool        *pool,
          TesProgress *progress)
{
  for (;;)
    {
      gint k = g_atomic_int_add (&pool->next, 1);

      if (k >= (gint)pool->n_jobs)
        break;
      pool->jobs[k].progress = progress;
      run_job (&pool->jobs[k]);
    }
}

static gpointer
run_pieces (gpointer data)
{
  pool_run (data, NULL);
  return NULL;
}

static gboolean
is_ws (guint8 c)
{
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* Looks for "}" ws "," ws "{" ws '"' at or after from; returns the offset
 * of the '{' and sets *brace to the offset of the '}'. */
static guint64
find_cut (int      fd,
          guint64  from,
          guint64  size,
          guint64 *brace)
{
  g_autofree guint8 *buf = g_malloc (CHUNK_SIZE);
  gssize n = pread (fd, buf, CHUNK_SIZE, (off_t)from);

  if (n <= 0)
    return 0;

  for (gssize i = 0; i < n; i++)
    {
      gssize j;

      if (buf[i] != '}')
        continue;

      j = i + 1;
      while (j < n && is_ws (buf[j]))
        j++;
      if (j >= n || buf[j] != ',')
        continue;
      j++;
      while (j < n && is_ws (buf[j]))
        j++;
      if (j >= n || buf[j] != '{')
        continue;
      {
        gssize k = j + 1;

        while (k < n && is_ws (buf[k]))
          k++;
        if (k >= n || buf[k] != '"')
          continue;
      }

      if (from + j >= size)
        return 0;
      *brace = from + i;
      return from + j;
    }

  return 0;
}

static guint
plan_cuts (int       fd,
           guint64   size,
           guint     n_wanted,
           guint64  *cuts,
           guint64  *braces)
{
  guint n = 1;

  for (guint k = 1; k < n_wanted; k++)
    {
      guint64 target = size / n_wanted * k;
      guint64 brace = 0;
      guint64 cut = find_cut (fd, target, size, &brace);

      if (cut == 0 || (n > 1 && cut <= cuts[n - 1]))
        break;
      cuts[n] = cut;
      braces[n] = brace;
      n++;
    }

  return n;
}

static char
first_char (const guint8 *head,
            gsize         len)
{
  gsize i = 0;

  if (len >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF)
    i = 3;
  while (i < len && is_ws (head[i]))
    i++;

  return i < len ? (char)head[i] : 0;
}

static void
prefix_error (GError    **error,
              const char *path,
              guint64     offset)
{
  if (offset == G_MAXUINT64)
    g_prefix_error (error, "%s: ", path);
  else
    g_prefix_error (error, "%s: byte %" G_GUINT64_FORMAT " (line %" G_GUINT64_FORMAT "): ",
                    path, offset, tes_chrome_line_of_offset (path, offset));
}

gboolean
tes_chrome_import_file (TesImportContext  *context,
                        GError           **error)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GInputStream) raw = NULL;
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GPtrArray) segments = g_ptr_array_new_with_free_func ((GDestroyNotify)tes_chrome_segment_free);
  guint8 head[64];
  gssize head_len;
  gboolean gzip;
  GStatBuf st;
  int fd;
  guint64 cuts[MAX_PIECES] = { 0 };
  guint64 braces[MAX_PIECES] = { 0 };
  guint n_segments = 1;
  g_autofree Job *jobs = g_new0 (Job, MAX_PIECES);
  GThread *threads[MAX_THREADS] = { NULL };
  Pool pool = { 0 };
  guint n_threads = 1;
  gint abandon = G_MAXINT;
  gsize consumed = 0;
  const char *prefix = NULL;
  guint n_valid;
  gboolean ok;
  gint64 t_start = g_get_monotonic_time ();
  gint64 t_parsed;

  fd = g_open (context->path, O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0 || fstat (fd, &st) != 0)
    {
      int errsv = errno;

      if (fd >= 0)
        close (fd);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   "%s: %s", context->path, g_strerror (errsv));
      return FALSE;
    }

  head_len = pread (fd, head, sizeof head, 0);
  gzip = head_len >= 2 && head[0] == 0x1f && head[1] == 0x8b;

  if (gzip)
    {
      g_autoptr(GZlibDecompressor) dec = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);

      file = g_file_new_for_path (context->path);
      if (!(raw = G_INPUT_STREAM (g_file_read (file, context->cancellable, error))))
        {
          close (fd);
          g_prefix_error (error, "%s: ", context->path);
          return FALSE;
        }
      stream = g_converter_input_stream_new (raw, G_CONVERTER (dec));
    }
  else if (st.st_size >= TES_CHROME_SPLIT_MIN_SIZE)
    {
      char c = first_char (head, MAX (head_len, 0));

      n_threads = CLAMP (g_get_num_processors (), 1, MAX_THREADS);
      if (n_threads >= 2 && (c == '[' || c == '{'))
        {
          /* a few pieces per thread, so that a thread that runs slower (a
           * busy core) takes fewer of them */
          guint n_wanted = MIN (n_threads * PIECES_PER_THREAD, (guint)(st.st_size / MIN_PIECE_SIZE));

          n_wanted = CLAMP (n_wanted, 1, MAX_PIECES);
          n_segments = plan_cuts (fd, st.st_size, n_wanted, cuts, braces);
          prefix = c == '[' ? "[" : "{\"traceEvents\":[";
        }
    }
  n_threads = MIN (n_threads, n_segments);

  for (guint k = 0; k < n_segments; k++)
    {
      Job *job = &jobs[k];

      g_ptr_array_add (segments, tes_chrome_segment_new (k));
      job->seg = g_ptr_array_index (segments, k);
      job->fd = fd;
      job->stream = k == 0 ? stream : NULL;
      job->raw = k == 0 ? raw : NULL;
      job->start = cuts[k];
      job->stop_at = k + 1 < n_segments ? cuts[k + 1] : G_MAXUINT64;
      job->brace = k + 1 < n_segments ? braces[k + 1] : 0;
      job->prefix = k > 0 ? prefix : NULL;
      job->cancellable = context->cancellable;
      job->abandon = &abandon;
      job->consumed = &consumed;
      job->total = st.st_size;
    }

  pool.jobs = jobs;
  pool.n_jobs = n_segments;
  for (guint t = 1; t < n_threads; t++)
    threads[t] = g_thread_new ("tes-chrome-parse", run_pieces, &pool);
  pool_run (&pool, context->progress);
  for (guint t = 1; t < n_threads; t++)
    g_thread_join (threads[t]);

  close (fd);

  /* The chain of verified cuts decides which segments count. */
  for (n_valid = 1; n_valid <= n_segments; n_valid++)
    {
      Job *job = &jobs[n_valid - 1];

      if (job->error != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&job->error));
          prefix_error (error, context->path, job->error_offset);
          for (guint k = 0; k < n_segments; k++)
            g_clear_error (&jobs[k].error);
          return FALSE;
        }
      if (!job->verified_end)
        break;
    }
  n_valid = MIN (n_valid, n_segments);

  for (guint k = 0; k < n_segments; k++)
    g_clear_error (&jobs[k].error);

  t_parsed = g_get_monotonic_time ();
  ok = tes_chrome_build (context, (TesChromeSegment **)segments->pdata, n_valid, n_segments,
                         gzip, jobs[0].object_form, error);
  g_debug ("%s: parsed in %.3f s by %u thread(s), %u of %u pieces used, rows built in %.3f s",
           context->path, (t_parsed - t_start) / 1e6, n_threads, n_valid, n_segments,
           (g_get_monotonic_time () - t_parsed) / 1e6);
  return ok;
}
