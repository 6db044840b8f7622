/* tes-chrome-flavour-kineto-private.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-array-private.h"
#include "tes-chrome-flavour.h"
#include "tes-chrome-id-map-private.h"

G_BEGIN_DECLS

/* What the Kineto flavour's two files share: tes-chrome-flavour-kineto.c
 * reads the slices into this state, tes-chrome-flavour-kineto-rows.c
 * works out the devices' busy and idle and the operator rows from it once
 * every slice is written. */

typedef enum
{
  K_UNKNOWN = 0,     /* not classified yet */
  K_OTHER,
  K_OP,              /* cpu_op, Operator */
  K_RUNTIME,         /* cuda_runtime, Runtime, cuda_driver, mtia_runtime */
  K_KERNEL,          /* kernel, Kernel, mtia_ccp_events */
  K_MEMCPY,          /* gpu_memcpy, Memcpy */
  K_MEMSET,          /* gpu_memset, Memset */
} Kind;

/* what a device's busy time is made of */
enum
{
  WORK_COMPUTE,
  WORK_MEMCPY,
  WORK_MEMSET,
  WORK_COMM,
  N_WORK
};



typedef struct
{
  gint64  start;
  gint64  dur;
  gint64  self;
  gint64  ext;          /* -1: none */
  gint64  dev_self;
  gint64  dev_total;
  gint    parent;       /* enclosing op, -1: none */
  guint32 name;         /* gid */
} Op;

typedef struct
{
  gint64  start;
  gint64  end;
  gint64  ext;          /* -1: none */
  gint64  corr;         /* -1: none */
  guint32 name;         /* gid */
  guint16 stream;       /* index in streams */
  guint8  work;
} Work;

/* a runtime call: the launch of the kernel with its correlation */
typedef struct
{
  gint64 corr;
  gint64 ts;
  gint64 ext;           /* -1: none */
} Launch;

typedef struct
{
  gint64 end;
  gint64 child;
  gint   op;            /* -1: not an op */
} Open;

typedef struct
{
  char  *label;         /* "GPU 0" */
  char  *model;         /* deviceProperties name, NULL: none */
  gint64 track_id;
} Device;

typedef struct
{
  Device *device;
  char   *name;         /* "stream 7" */
  gint64  track_id;
  gint64  marks_track;  /* its annotations and syncs, 0: not yet */
  guint   index;
} Stream;

typedef struct
{
  GArray     *kinds;        /* gid -> guint8 Kind */
  GArray     *names;        /* gid -> guint8 NAME_* of a slice's name, 0: not yet */
  GHashTable *devices;      /* TesChromeMergedProcess* -> Device* */
  GPtrArray  *device_list;
  GPtrArray  *streams;      /* Stream* */
  GHashTable *stream_of;    /* TesChromeMergedThread* -> Stream* */
  GPtrArray  *texts;        /* owned texts given gids */

  GArray     *ops;          /* Op */
  GArray     *work;         /* Work */
  GArray     *launches;     /* Launch */
  guint       ops_room;     /* what each holds (tes_array_append ()) */
  guint       work_room;
  guint       launches_room;
  GArray     *steps;        /* gint64 pairs: start, end; names in step_names */
  GPtrArray  *step_names;

  /* the thread being written */
  TesChromeMergedThread *cur;
  Stream     *cur_stream;
  /* Open: pushed and popped once per CPU slice, a plain array (no
   * GArray call per push) */
  Open       *stack;
  guint       n_stack;
  guint       stack_cap;
  gint64      route;        /* track of the current slice, 0: the thread's */
  gint64      next_marks_sort;
} KState;

/* The devices' and streams' busy and idle times, worked out on a thread
 * of their own while the builder's thread writes the operator rows (a tenth of
 * threads_written() on the 1M Kineto trace, beside the flows' match): it
 * reads only the works, devices, streams and launches, which nothing
 * changes by then, and gives the info lists that the builder's thread
 * writes once the operator rows are written. */
typedef struct
{
  KState               *st;
  const TesChromeIdMap *launch_of;
  GPtrArray            *infos;      /* info lists, in the order they are written */
  double                cpu;        /* the thread's, for the debug log */
} Units;

gpointer tes_chrome_kineto_units_thread    (gpointer              data);
void     tes_chrome_kineto_write_operators (TesChromeBuilder     *b,
                                            KState               *st,
                                            const TesChromeIdMap *launch_of,
                                            const gint64         *run_ids);

G_END_DECLS
