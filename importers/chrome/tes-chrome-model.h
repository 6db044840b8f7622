/* tes-chrome-model.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-chrome-private.h"

G_BEGIN_DECLS

/* What the parser keeps of a trace until the end of the file, when names,
 * sort order, vendor flavour and clock are known and the cache rows can be
 * written: the one thing the parser hands the builder. One
 * TesChromeSegment per piece of the file: each holds the events of its
 * byte range, with strings interned in its own table. The parser fills
 * the segments (tes-chrome-parser.h); the builder (tes-chrome-builder.h)
 * takes them over (joins, writes and frees their arrays) and never calls
 * the parser. */

typedef enum
{
  TES_CHROME_W_TRUNCATED,
  TES_CHROME_W_PARTIAL_EVENT,
  TES_CHROME_W_NOT_OBJECT,
  TES_CHROME_W_NO_PHASE,
  TES_CHROME_W_UNKNOWN_PHASE,
  TES_CHROME_W_UNSUPPORTED_PHASE,
  TES_CHROME_W_NO_TS,
  TES_CHROME_W_BAD_TYPE,
  TES_CHROME_W_RANGE,
  TES_CHROME_W_ROUNDED,
  TES_CHROME_W_NEGATIVE_DUR,
  TES_CHROME_W_E_WITHOUT_B,
  TES_CHROME_W_UNCLOSED,
  TES_CHROME_W_ASYNC_UNMATCHED,
  TES_CHROME_W_FLOW_UNMATCHED,
  TES_CHROME_W_COUNTER_VALUE,
  TES_CHROME_N_WARNINGS
} TesChromeWarning;

typedef struct
{
  guint64 count;
  guint64 first_offset;
} TesChromeWarningCount;

/* Interned strings: open addressing over (bytes, length). */
typedef struct
{
  guint32 hash;
  guint32 len;
  guint32 id;              /* 0: empty */
} TesChromeStringSlot;

/* A short string (at most 16 bytes) met lately: its bytes are the key. */
typedef struct
{
  guint64 head;            /* its first 8 bytes (0-padded) */
  guint64 tail;            /* its last 8 (0: shorter than 9) */
  guint32 len;
  guint32 id;              /* 0: empty */
} TesChromeShortString;

#define TES_CHROME_SHORT_STRINGS 256

typedef struct
{
  GStringChunk         *chunk;
  GPtrArray            *strs;      /* id -> NUL-terminated text; [0] is NULL */
  TesChromeStringSlot  *slots;     /* each string's hash, length and id */
  guint                 n_slots;
  TesChromeShortString *recent;    /* TES_CHROME_SHORT_STRINGS */
} TesChromeStrings;

typedef struct
{
  gint64  start;
  gint64  dur;
  guint64 args_off;
  guint32 name;
  guint32 cat;
  guint32 args_len;      /* 0: no args */
  guint16 flags;
  guint16 reserved;
} TesChromeSlice;

typedef struct
{
  gint64  ts;
  guint64 offset;
  guint64 args_off;
  guint32 args_len;
  guint32 name;
  guint32 cat;
} TesChromeOpen;

#define TES_CHROME_KEY_PID_STRING (1 << 0)
#define TES_CHROME_KEY_TID_STRING (1 << 1)

typedef struct _TesChromeThread TesChromeThread;

/* Where the segments' slices and args wait, on disk, between the end of
 * their piece's parse and the builder's use of their thread: an unlinked
 * file beside the cache. The peak then holds the pieces being parsed and
 * the thread being written, not the whole file. */
typedef struct _TesChromeSpill TesChromeSpill;

struct _TesChromeThread
{
  gint64    pid;
  gint64    tid;
  guint     key_flags;
  guint     has_events : 1;
  guint     has_sort_index : 1;
  guint32   name;          /* thread_name, 0: none */
  gint64    sort_index;
  GArray   *slices;        /* TesChromeSlice */
  guint     slices_room;   /* what slices holds (tes_array_append ()) */
  guint     n_sorted;      /* slices[0..n_sorted) are in (start, -dur) order */
  GString  *args;          /* args texts of slices and open begins */
  GArray   *open;          /* TesChromeOpen, the B stack */
  GArray   *orphans;       /* TesChromeOpen: E events that found no B here */
  gpointer  merged;        /* set by the builder */
  /* while slices and args are spilled (both empty here until loaded):
   * the slices packed a block at a time from spill_at, then the texts */
  TesChromeSpill *spill;
  guint64   spill_at;
  guint     spill_n;
  gsize     spill_args;
  guint64   spill_args_at;
  guint32  *spill_blocks;  /* each block's packed size */
};

typedef struct
{
  gint64    pid;
  guint     key_flags;
  guint     has_sort_index : 1;
  guint32   name;          /* process_name, 0: none */
  guint32   labels;        /* process_labels, 0: none */
  gint64    sort_index;
  gpointer  merged;        /* set by the builder */
} TesChromeProcess;

/* Instant scopes as stored in TesChromeInstant.scope */
typedef struct
{
  gint64            ts;
  guint64           args_off;   /* into the segment's misc store */
  guint32           args_len;
  guint32           name;
  guint32           cat;
  guint8            scope;      /* 't', 'p' or 'g' */
  TesChromeThread  *thread;     /* scope 't' */
  TesChromeProcess *process;    /* scope 'p' */
} TesChromeInstant;

typedef struct
{
  gint64  ts;
  double  value;
} TesChromeCounterValue;

typedef struct
{
  TesChromeProcess *process;
  guint32           name;
  guint32           id;         /* 0: none */
  char             *arg;
  GArray           *values;     /* TesChromeCounterValue */
} TesChromeCounter;

#define TES_CHROME_ASYNC_GLOBAL (1 << 0)

/* Async (b/e/n, S/T/p/F) and flow (s/t/f, bind_id) events are matched at
 * the end, in timestamp order, like trace-viewer does. */
typedef struct
{
  gint64            ts;
  guint64           offset;     /* also the file order, for a stable sort */
  guint64           args_off;   /* into the segment's misc store */
  guint32           args_len;
  guint32           name;
  guint32           cat;
  guint32           id;
  TesChromeThread  *thread;
  char              ph;
  guint8            flags;
} TesChromeAsync;

typedef struct
{
  gint64            ts;
  guint64           offset;
  guint32           name;
  guint32           cat;
  guint32           id;         /* id, or bind_id for v2 */
  TesChromeThread  *thread;
  char              ph;         /* s t f, or 'i'/'o'/'b' (in/out/both) for v2 */
} TesChromeFlowEvent;

#define TES_CHROME_SAMPLE_EVENTS 1000
/* room for the builder's flavours (tes-chrome-builder.c) and "none" */
#define TES_CHROME_MAX_FLAVOURS 8
#define TES_CHROME_RECENT_THREADS 16

/* The slices and args arrays of a spilled piece's threads, emptied and
 * kept for the threads of the next piece the same parsing thread reads:
 * grown once, not again for each piece (their growth and the pages it
 * faulted in were about 5 % of a 10M-event import's CPU). */
typedef struct _TesChromeRecycle TesChromeRecycle;

typedef struct _TesChromeSegment TesChromeSegment;

struct _TesChromeSegment
{
  guint                 index;
  TesChromeRecycle     *recycle;      /* not owned; NULL: threads start empty */
  TesChromeStrings      strings;
  GHashTable           *threads;      /* TesChromeThread* -> itself */
  /* the threads events went to lately, by (pid, tid): a Kineto trace
   * goes back and forth between its CPU thread and its GPU streams */
  TesChromeThread      *recent_threads[TES_CHROME_RECENT_THREADS];
  GPtrArray            *thread_list;  /* creation order */
  GHashTable           *processes;    /* TesChromeProcess* -> itself */
  GPtrArray            *process_list;
  GArray               *instants;
  GHashTable           *counters;     /* key text -> TesChromeCounter* */
  GPtrArray            *counter_list;
  GArray               *asyncs;
  GArray               *flows;        /* v1 */
  GArray               *flow_points;  /* v2 */
  GString              *misc;         /* args of instants and async events */
  GPtrArray            *info;         /* "key", "value" pairs */
  TesChromeWarningCount warnings[TES_CHROME_N_WARNINGS];

  gint64                max_ts;
  gboolean              has_ts;
  guint64               n_events;
  guint32               display_time_unit;

  /* vendor evidence */
  /* of the first complete events, how many claimed[f] the builder's
   * flavour f claims (TES_CHROME_MAX_FLAVOURS - 1: none), counted as
   * they are parsed: the builder reads none of their args back */
  guint                 n_sampled;
  guint                 claimed[TES_CHROME_MAX_FLAVOURS];
  GArray               *thread_names; /* guint32: every thread_name given, in order */
};

/* A whole parsed file. */
typedef struct
{
  GPtrArray *segments;      /* TesChromeSegment*, in file order */
  guint      n_valid;       /* the first n_valid segments hold the file */
  guint      n_planned;     /* how many pieces the file was cut into */
  gboolean   gzip;
  gboolean   object_form;   /* {"traceEvents": […]}, not […] */
  GPtrArray *spills;        /* TesChromeSpill*, one per parsing thread; none: everything stays in memory */
} TesChromeTrace;

void              tes_chrome_strings_init   (TesChromeStrings  *strings);
void              tes_chrome_strings_clear  (TesChromeStrings  *strings);
guint32           tes_chrome_strings_intern (TesChromeStrings  *strings,
                                             const char        *text,
                                             gsize              len);

static inline const char *
tes_chrome_strings_get (const TesChromeStrings *strings,
                        guint32                 id)
{
  return id ? g_ptr_array_index (strings->strs, id) : NULL;
}

TesChromeRecycle *tes_chrome_recycle_new    (void);
void              tes_chrome_recycle_free   (TesChromeRecycle  *bin);
void              tes_chrome_thread_new_arrays (TesChromeThread *thread,
                                             TesChromeRecycle  *bin);
void              tes_chrome_thread_drop_spilled (TesChromeThread *thread);
gboolean          tes_chrome_thread_release_arrays (TesChromeThread *thread,
                                             TesChromeRecycle  *bin);

TesChromeSegment *tes_chrome_segment_new    (guint              index);
void              tes_chrome_segment_free   (TesChromeSegment  *segment);
void              tes_chrome_segment_warn   (TesChromeSegment  *segment,
                                             TesChromeWarning   warning,
                                             guint64            offset);
void              tes_chrome_segment_sort   (TesChromeSegment  *segment);

/* Async and flow events in time order, then in file order: both
 * TesChromeAsync and TesChromeFlowEvent start with their ts and offset. */
int               tes_chrome_stamp_compare  (gconstpointer      a,
                                             gconstpointer      b);
void              tes_chrome_stamps_sort    (GArray            *stamps);
/* g_array_sort () (stable), quicker on an array nearly in order */
void              tes_chrome_sort_nearly    (GArray            *array,
                                             GCompareFunc       compare);
int               tes_chrome_slice_compare  (gconstpointer      a,
                                             gconstpointer      b);

TesChromeSpill   *tes_chrome_spill_new      (const char        *near);
void              tes_chrome_spill_free     (TesChromeSpill    *spill);
void              tes_chrome_spill_segment  (TesChromeSpill    *spill,
                                             TesChromeSegment  *segment);
gboolean          tes_chrome_spill_check    (TesChromeSpill    *spill,
                                             GError           **error);
guint64           tes_chrome_spill_min_size (void);
void              tes_chrome_give_back_memory (void);
void              tes_chrome_set_spill_min_size (guint64      bytes);
guint64           tes_chrome_max_piece_size (void);
void              tes_chrome_set_max_piece_size (guint64      bytes);
void              tes_chrome_thread_load    (TesChromeThread   *thread);

/* The most bytes a slice takes packed for the spill file: seven varints */
#define TES_CHROME_PACKED_SLICE_MAX 70

gsize             tes_chrome_pack_slices    (const TesChromeSlice *s,
                                             guint                 n,
                                             guint8               *out);
gboolean          tes_chrome_unpack_slices  (const guint8         *p,
                                             const guint8         *end,
                                             TesChromeSlice       *s,
                                             guint                 n);

/* A spilled thread's slices read back in order, a block at a time, and
 * their args through a window: what the builder holds of a thread it
 * merges, whatever its size. */
typedef struct _TesChromeSpillRun TesChromeSpillRun;

TesChromeSpillRun    *tes_chrome_spill_run_new  (TesChromeThread   *thread);
void                  tes_chrome_spill_run_free (TesChromeSpillRun *run);
const TesChromeSlice *tes_chrome_spill_run_next (TesChromeSpillRun *run,
                                                 guint             *n);
const char           *tes_chrome_spill_run_args (TesChromeSpillRun *run,
                                                 guint64            args_off,
                                                 guint32            args_len);
guint             tes_chrome_thread_n_slices (const TesChromeThread *thread);
gsize             tes_chrome_thread_args_end (const TesChromeThread *thread);
const char       *tes_chrome_thread_args    (TesChromeThread   *thread,
                                             guint64            args_off,
                                             guint32            args_len,
                                             GString           *buf);

TesChromeTrace   *tes_chrome_trace_new      (void);
void              tes_chrome_trace_free     (TesChromeTrace    *trace);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TesChromeSegment, tes_chrome_segment_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TesChromeTrace, tes_chrome_trace_free)

G_END_DECLS
