/* tes-chrome-builder-private.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-chrome-builder.h"

G_BEGIN_DECLS

/* What the files of the builder share. The builder joins the segments
 * (tes-chrome-merge.c), matches async and flow events
 * (tes-chrome-match.c), makes the tracks (tes-chrome-tracks.c) and writes
 * the rows (tes-chrome-rows.c); tes-chrome-builder.c runs those steps.
 * The string tables and the helpers the steps and the flavours share are
 * in tes-chrome-shared.c, which calls none of them. Vendors' flavours
 * (tes-chrome-flavour.h) hook into the steps. Strings are "gids": one id per text across all the
 * segments. */

typedef struct _TesChromeBuilder       TesChromeBuilder;
typedef struct _TesChromeFlavour       TesChromeFlavour;
typedef struct _TesChromeMergedProcess TesChromeMergedProcess;
typedef struct _TesChromeMergedThread  TesChromeMergedThread;

/* One segment's share of a thread. */
typedef struct
{
  TesChromeThread  *thread;
  TesChromeSegment *seg;
} TesChromePart;

/* A thread of the trace, joined from its parts in every segment. */
struct _TesChromeMergedThread
{
  TesChromeMergedProcess *process;
  gint64                  tid;
  guint                   key_flags;
  guint32                 name;             /* gid */
  gint64                  sort_index;
  guint                   has_sort_index : 1;
  guint                   used : 1;
  guint                   claimed : 1;      /* its track is the flavour's (qaic devices) */
  GArray                 *parts;            /* TesChromePart */
  GArray                 *open;             /* B events still open (tes-chrome-merge.c) */
  guint                   order;
  gint64                  track_id;

  /* a flavour's own order of a process's threads, before sort_index
   * (qaic: the core, then the core's own thread before its engines) */
  gint                    flavour_order;    /* -1: none */
  guint                   flavour_suborder;
  gpointer                flavour_data;     /* owned by the flavour */
};

struct _TesChromeMergedProcess
{
  gint64     pid;
  guint      key_flags;
  guint32    name;                          /* gid */
  guint32    labels;
  gint64     sort_index;
  guint      has_sort_index : 1;
  guint      has_instants : 1;
  guint      order;
  GPtrArray *threads;                       /* TesChromeMergedThread* */
  GPtrArray *asyncs;                        /* TesChromeAsyncTrack* */
  GPtrArray *counters;                      /* TesChromeMergedCounter* */
  gint64     track_id;
};

/* A track of async slices and instants (tes-chrome-match.c). */
typedef struct
{
  TesChromeMergedProcess *process;          /* NULL: global */
  guint32                 name;             /* gid */
  gint64                  first_ts;
  guint                   order;
  GArray                 *slices;           /* TesChromeSlice, name/cat are gids */
  GString                *args;
  GArray                 *instants;         /* TesChromeInstant, name/cat are gids */
  gint64                  track_id;
} TesChromeAsyncTrack;

typedef struct
{
  TesChromeMergedProcess *process;
  guint32                 name;             /* gid */
  guint32                 id;               /* gid */
  char                   *arg;
  GPtrArray              *values;           /* GArray of TesChromeCounterValue, borrowed */
  char                   *label;
  gint64                  track_id;
} TesChromeMergedCounter;

/* A matched flow. Its name and category are still the string ids of the
 * segment of the event they came from: the match runs on a thread of its
 * own (tes-chrome-match.c), which gives no gid. */
typedef struct
{
  TesChromeSegment      *seg;
  guint32                name;              /* sid of seg */
  guint32                cat;
  TesChromeMergedThread *from;
  gint64                 from_ts;
  TesChromeMergedThread *to;
  gint64                 to_ts;
} TesChromeFlow;

/* Texts given ids across the segments ("gids"): one id per text. The
 * builder has one table; the flows' match, on a thread of its own,
 * another. */
typedef struct
{
  GHashTable             *of_text;          /* text -> gid */
  GPtrArray              *texts;            /* gid -> text (borrowed) */
  GArray                **maps;             /* per segment: sid -> gid, 0: not met yet */
  guint                   n_maps;
} TesChromeGids;

typedef struct _TesChromeFlowMatch TesChromeFlowMatch;

struct _TesChromeBuilder
{
  TesImportContext       *context;
  TesCacheWriter         *writer;
  TesChromeSegment      **segs;
  guint                   n_segs;

  TesChromeGids           gids;
  GArray                 *wids;             /* gid -> writer string id */

  GHashTable             *process_index;
  GPtrArray              *processes;        /* TesChromeMergedProcess*, first seen first */
  GHashTable             *thread_index;
  GPtrArray              *async_tracks;
  GPtrArray              *global_asyncs;
  GPtrArray              *counters;         /* TesChromeMergedCounter* */
  GArray                 *flows;            /* TesChromeFlow, once matched */
  TesChromeFlowMatch     *flow_match;       /* the flows' match while it runs */
  gboolean                global_instants;
  gint64                  global_track;

  TesChromeWarningCount   warnings[TES_CHROME_N_WARNINGS];
  gint64                  trace_end;
  gboolean                has_ts;

  const TesChromeFlavour *flavour;
  gpointer                flavour_data;
  GDestroyNotify          flavour_data_free;

  /* The clock: ns ("ts"), or the cycles of a flavour that counts them
   * (mhz cycles per µs, and info on where the frequency came from). */
  gint64                  clock_id;
  gint64                  mhz;              /* 0: ns */
  const char             *clock_source;
  char                   *clock_name;       /* of the ns clock; NULL: "ts" (a flavour's, freed by the builder) */

  /* parent of the file's top-level tracks (0: none; Kineto's "Rank N") */
  gint64                  root_track;
};

/* tes-chrome-shared.c */
void        tes_chrome_gids_init              (TesChromeGids         *gids,
                                               guint                  n_segs);
void        tes_chrome_gids_clear             (TesChromeGids         *gids);
guint32     tes_chrome_gids_of_text           (TesChromeGids         *gids,
                                               const char            *text);
guint32     tes_chrome_gids_slow              (TesChromeGids         *gids,
                                               TesChromeSegment      *seg,
                                               guint32                sid);
guint32     tes_chrome_wid_slow               (TesChromeBuilder      *b,
                                               guint32                gid);
guint32     tes_chrome_gid_of_text            (TesChromeBuilder      *b,
                                               const char            *text);
void        tes_chrome_warn                   (TesChromeBuilder      *b,
                                               TesChromeWarning       warning,
                                               guint64                offset);
void        tes_chrome_warnings_note          (TesChromeWarningCount *counts,
                                               TesChromeWarning       warning,
                                               guint64                offset);
void        tes_chrome_warnings_add           (TesChromeWarningCount *into,
                                               const TesChromeWarningCount *from);
gint64      tes_chrome_add_track              (TesChromeBuilder      *b,
                                               gint64                 parent,
                                               TesTrackKind           kind,
                                               const char            *name,
                                               gint64                 sort_index,
                                               const char            *native_id);
const char *tes_chrome_other_data             (TesChromeBuilder      *b,
                                               const char            *key);
gint64      tes_chrome_args_cycles            (const char            *args,
                                               gsize                  len,
                                               const char            *key);
GPtrArray  *tes_chrome_list_threads           (TesChromeBuilder      *b);
gboolean    tes_chrome_thread_has_slices      (TesChromeMergedThread *mt);
guint64     tes_chrome_n_slices               (TesChromeBuilder      *b);

/* tes-chrome-merge.c */
void        tes_chrome_builder_merge          (TesChromeBuilder      *b);
void        tes_chrome_builder_merge_counters (TesChromeBuilder      *b);
void        tes_chrome_builder_mark_instants  (TesChromeBuilder      *b);
void        tes_chrome_merged_process_free    (gpointer               data);
void        tes_chrome_merged_thread_free     (gpointer               data);
void        tes_chrome_merged_counter_free    (gpointer               data);

/* tes-chrome-match.c */
void        tes_chrome_builder_match_async    (TesChromeBuilder      *b);
void        tes_chrome_builder_match_flows    (TesChromeBuilder      *b);
void        tes_chrome_builder_flows_matched  (TesChromeBuilder      *b);
void        tes_chrome_async_track_free       (gpointer               data);

/* tes-chrome-tracks.c */
void        tes_chrome_builder_add_tracks     (TesChromeBuilder      *b);

/* tes-chrome-ranks.c */
void        tes_chrome_ranks_prepare          (TesChromeBuilder      *b);
void        tes_chrome_ranks_register         (TesChromeBuilder      *b,
                                               GArray                *steps,
                                               GPtrArray             *step_names);
int         tes_chrome_compare_threads        (gconstpointer          a,
                                               gconstpointer          b,
                                               gpointer               builder);

/* tes-chrome-rows.c */
void        tes_chrome_builder_write_rows     (TesChromeBuilder      *b);

static inline const char *
tes_chrome_text (TesChromeBuilder *b,
                         guint32           gid)
{
  return gid ? g_ptr_array_index (b->gids.texts, gid) : NULL;
}

/* A segment's string id as a gid of @gids. Inline: the rows of every
 * slice go through here. */
static inline guint32
tes_chrome_gids_get (TesChromeGids    *gids,
                     TesChromeSegment *seg,
                     guint32           sid)
{
  GArray *map = gids->maps[seg->index];

  if (sid != 0 && sid < map->len && g_array_index (map, guint32, sid) != 0)
    return g_array_index (map, guint32, sid);

  return tes_chrome_gids_slow (gids, seg, sid);
}

/* ... of the builder's table */
static inline guint32
tes_chrome_gid (TesChromeBuilder *b,
                        TesChromeSegment *seg,
                        guint32           sid)
{
  return tes_chrome_gids_get (&b->gids, seg, sid);
}

/* A gid as the cache writer's string id. */
static inline guint32
tes_chrome_wid (TesChromeBuilder *b,
                        guint32           gid)
{
  if (gid != 0 && gid < b->wids->len && g_array_index (b->wids, guint32, gid) != 0)
    return g_array_index (b->wids, guint32, gid);

  return tes_chrome_wid_slow (b, gid);
}

/* ns to the clock's ticks */
static inline gint64
tes_chrome_ticks (TesChromeBuilder *b,
                            gint64            ns)
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

G_END_DECLS
