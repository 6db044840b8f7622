/* tes-chrome-flavour-tensorflow.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-chrome"

#include "config.h"

#include "tes-chrome-flavour.h"
#include "tes-info.h"
#include "tes-json.h"

#include <math.h>
#include <string.h>

/* TensorFlow's two Chrome traces, told apart by their process names:
 *
 *  - the TF2 profiler's trace viewer JSON (TensorBoard's profile plugin,
 *    *.trace.json.gz): a process per XPlane, "/host:CPU" with the
 *    runtime's threads (an op is a TraceMe named "<name>:<Type>") and
 *    "/device:GPU:0" with a thread per CUPTI stream ("Stream #14(Compute)")
 *    beside lanes the profiler derives from them ("Steps", "TensorFlow
 *    Ops", "XLA Ops", "XLA Modules", "TensorFlow Name Scope", ...);
 *  - TF1's tensorflow.python.client.timeline: a process per step_stats
 *    device, "/job:localhost/replica:0/task:0/device:GPU:0 Compute" with
 *    the executor's ops (name the op type, args "name" and "op"),
 *    "/device:GPU:0/stream:7 Compute" with a stream's kernels, and the
 *    views "/device:GPU:0/stream:all Compute" and ".../memcpy Compute"
 *    that repeat them.
 *
 * Both become: a device track "GPU 0" per device, its streams core tracks
 * (parallel units), its other lanes threads; an operator row per TF op
 * with its CPU time (total and self, from the host's ops) and the device
 * time of its kernels; a run per step of the "Steps" lane. */

typedef enum
{
  LANE_NONE = 0,
  LANE_HOST,        /* the runtime's ops: CPU time */
  LANE_STREAM,      /* kernels and copies: device time, a unit */
  LANE_VIEW,        /* repeats the streams (stream:all, memcpy, derived lanes) */
  LANE_STEPS,       /* TF2 "Steps" */
  LANE_TF_OPS,      /* TF2 "TensorFlow Ops": kernels merged per op */
  LANE_XLA_OPS,     /* TF2 "XLA Ops" */
} LaneKind;

typedef struct
{
  char   *label;          /* "GPU 0" */
  gint64  track_id;
  guint   n_streams;
  GArray *spans;          /* gint64 pairs: its streams' work */
  gboolean steps;         /* its Steps lane gives the runs */
} Device;

typedef struct
{
  LaneKind kind;
  Device  *device;        /* NULL: a host lane */
  char    *name;          /* the track's name */
} Lane;

typedef struct
{
  char    *name;          /* the op's name ("dense/MatMul"), the key */
  char    *type;          /* its type ("MatMul"), NULL: not known yet */
  gboolean xla;
  gint64   first;
  gint64   calls;         /* on the host */
  gint64   cpu_total;
  gint64   cpu_self;
  gint64   kernels;
  gint64   kernel_ns;     /* its kernels on the streams */
  gint64   lane_events;
  gint64   lane_ns;       /* its events of the TensorFlow Ops lane */
  TesChromeKernels by_name; /* its kernels */
} Op;

typedef struct
{
  gint64  end;
  gint64  child;
  Op     *op;             /* NULL: not an op */
  gint64  dur;
  gint    event;          /* its call in events, -1: none */
} Open;

/* What an op did once, kept to sum it again per step: a call on the
 * host, a kernel, an event of the TensorFlow Ops or XLA Ops lane. */
typedef enum
{
  EVENT_CALL,
  EVENT_KERNEL,
  EVENT_LANE,
} EventKind;

typedef struct
{
  Op       *op;
  gint64    start;
  gint64    dur;
  gint64    self;         /* a call's self time, once it closed */
  gint64    group;        /* its group_id (the step the profiler gave it), -1: none */
  guint32   kernel;       /* a kernel's name (gid) */
  EventKind kind;
} Event;

typedef struct
{
  gboolean    tf1;
  GPtrArray  *devices;    /* Device* */
  GHashTable *device_of;  /* label -> Device* */
  GPtrArray  *lanes;      /* Lane*, owned */
  GHashTable *ops;        /* name -> Op* */
  GPtrArray  *op_list;
  GHashTable *xla_ops;    /* name -> Op* */
  GPtrArray  *xla_list;
  GArray     *steps;      /* gint64 triples: start, end, group_id (-1: none) */
  GPtrArray  *step_names;
  GArray     *host_steps; /* gint64 quadruples: start, end, index in host_step_names, group_id */
  GPtrArray  *host_step_names;
  gboolean    kernels_named; /* a kernel names its op */

  TesChromeMergedThread *cur;
  GArray     *stack;      /* Open */
  GArray     *events;     /* Event */
  gint64      group;      /* the slice's group_id, -1: none */
  GPtrArray  *texts;      /* owned texts given gids */
  GHashTable *renamed;    /* TF1 executor processes given a name */
  GHashTable *op_of_text; /* "<name>:<Type>" -> Op*, NULL: no op */
  GString    *scratch;
} TfState;

static void
device_free (gpointer data)
{
  Device *d = data;

  g_free (d->label);
  g_array_unref (d->spans);
  g_free (d);
}

static void
lane_free (gpointer data)
{
  Lane *l = data;

  g_free (l->name);
  g_free (l);
}

static void
op_free (gpointer data)
{
  Op *op = data;

  g_free (op->name);
  g_free (op->type);
  tes_chrome_kernels_clear (&op->by_name);
  g_free (op);
}

static void
tf_state_free (gpointer data)
{
  TfState *st = data;

  g_ptr_array_unref (st->devices);
  g_hash_table_unref (st->device_of);
  g_ptr_array_unref (st->lanes);
  g_hash_table_unref (st->ops);
  g_ptr_array_unref (st->op_list);
  g_hash_table_unref (st->xla_ops);
  g_ptr_array_unref (st->xla_list);
  g_array_unref (st->steps);
  g_ptr_array_unref (st->step_names);
  g_array_unref (st->host_steps);
  g_ptr_array_unref (st->host_step_names);
  g_array_unref (st->stack);
  g_array_unref (st->events);
  g_ptr_array_unref (st->texts);
  g_hash_table_unref (st->renamed);
  g_hash_table_unref (st->op_of_text);
  g_string_free (st->scratch, TRUE);
  g_free (st);
}

/* ---- names --------------------------------------------------------------- */

/* "GPU:0", "gpu:0", "XLA_GPU:1" at p (not "stream:7"): the device as the
 * trace names it, "GPU 0"; *end after it. NULL: none. */
static char *
device_label (const char  *p,
              const char **end)
{
  const char *colon = strchr (p, ':');
  const char *q;
  g_autofree char *kind = NULL;

  if (colon == NULL || colon == p || g_str_has_prefix (p, "stream:"))
    return NULL;
  for (q = p; q < colon; q++)
    if (!g_ascii_isalpha (*q) && *q != '_')
      return NULL;
  for (q = colon + 1; g_ascii_isdigit (*q); q++);
  if (q == colon + 1)
    return NULL;
  if (end != NULL)
    *end = q;
  kind = g_ascii_strup (p, colon - p);

  return g_strdup_printf ("%s %.*s", kind, (int)(q - colon - 1), colon + 1);
}

/* TF2: "/device:GPU:0" (anything after it, such as a model, kept apart),
 * "/host:CPU". */
static char *
tf2_device (const char *process)
{
  if (process == NULL || !g_str_has_prefix (process, "/device:"))
    return NULL;
  return device_label (process + strlen ("/device:"), NULL);
}

/* TF1: "<path> Compute", the path ending in "/device:GPU:0" or "/gpu:0",
 * optionally followed by "/stream:N", "/stream:all" or "/memcpy". Sets
 * *device (NULL for a CPU, whose ops are host ops) and the lane. */
static LaneKind
tf1_lane (const char  *process,
          char       **device,
          char       **name)
{
  g_autofree char *path = NULL;
  const char *p, *end = NULL;
  char *label = NULL;
  gsize len;

  *device = *name = NULL;
  if (process == NULL || !g_str_has_suffix (process, " Compute"))
    return LANE_NONE;
  len = strlen (process) - strlen (" Compute");
  path = g_strndup (process, len);

  /* the last "/device:X:N" or "/x:N" element */
  for (p = path + len; p > path; p--)
    if (p[-1] == '/')
      {
        const char *elem = g_str_has_prefix (p, "device:") ? p + strlen ("device:") : p;

        if ((label = device_label (elem, &end)) != NULL && (*end == '\0' || *end == '/'))
          break;
        g_clear_pointer (&label, g_free);
      }
  if (label == NULL)
    return LANE_NONE;

  if (*end == '\0')
    {
      /* the executor's ops placed on the device: CPU time */
      *device = label;
      return LANE_HOST;
    }
  if (g_str_has_prefix (label, "CPU "))
    {
      g_free (label);
      return LANE_NONE;
    }
  *device = label;
  if (strcmp (end, "/stream:all") == 0)
    {
      *name = g_strdup ("stream:all");
      return LANE_VIEW;
    }
  if (strcmp (end, "/memcpy") == 0)
    {
      *name = g_strdup ("memcpy");
      return LANE_VIEW;
    }
  if (g_str_has_prefix (end, "/stream:"))
    {
      const char *n = end + strlen ("/stream:");
      const char *q;

      for (q = n; g_ascii_isdigit (*q); q++);
      if (q > n && *q == '\0')
        {
          *name = g_strdup_printf ("stream %s", n);
          return LANE_STREAM;
        }
    }
  *name = g_strdup (end + 1);

  return LANE_VIEW;
}

static LaneKind
tf2_lane (const char *thread)
{
  if (thread == NULL)
    return LANE_VIEW;
  if (g_str_has_prefix (thread, "Stream #"))
    return LANE_STREAM;
  if (strcmp (thread, "Steps") == 0)
    return LANE_STEPS;
  if (strcmp (thread, "TensorFlow Ops") == 0)
    return LANE_TF_OPS;
  if (strcmp (thread, "XLA Ops") == 0)
    return LANE_XLA_OPS;

  return LANE_VIEW;
}

/* ---- telling it ---------------------------------------------------------- */

static gboolean
detect_tf2 (TesChromeBuilder *b,
            guint             n_claimed,
            guint             n_sampled)
{
  gboolean host = FALSE, device = FALSE;

  for (guint i = 0; i < b->processes->len; i++)
    {
      TesChromeMergedProcess *mp = g_ptr_array_index (b->processes, i);
      const char *name = tes_chrome_text (b, mp->name);
      g_autofree char *label = tf2_device (name);

      host |= name != NULL && g_str_has_prefix (name, "/host:");
      device |= label != NULL && !g_str_has_suffix (name, " Compute") && !g_str_has_suffix (name, " Tensors");
    }

  return host || device;
}

static gboolean
detect_tf1 (TesChromeBuilder *b,
            guint             n_claimed,
            guint             n_sampled)
{
  for (guint i = 0; i < b->processes->len; i++)
    {
      TesChromeMergedProcess *mp = g_ptr_array_index (b->processes, i);
      g_autofree char *device = NULL, *name = NULL;

      if (tf1_lane (tes_chrome_text (b, mp->name), &device, &name) != LANE_NONE)
        return TRUE;
    }

  return FALSE;
}

static void
prepare (TesChromeBuilder *b)
{
  TfState *st = g_new0 (TfState, 1);

  st->tf1 = b->flavour == &tes_chrome_flavour_tf_timeline;
  st->devices = g_ptr_array_new_with_free_func (device_free);
  st->device_of = g_hash_table_new (g_str_hash, g_str_equal);
  st->lanes = g_ptr_array_new_with_free_func (lane_free);
  st->ops = g_hash_table_new (g_str_hash, g_str_equal);
  st->op_list = g_ptr_array_new_with_free_func (op_free);
  st->xla_ops = g_hash_table_new (g_str_hash, g_str_equal);
  st->xla_list = g_ptr_array_new_with_free_func (op_free);
  st->steps = g_array_new (FALSE, FALSE, 3 * sizeof (gint64));
  st->step_names = g_ptr_array_new_with_free_func (g_free);
  st->host_steps = g_array_new (FALSE, FALSE, 4 * sizeof (gint64));
  st->host_step_names = g_ptr_array_new_with_free_func (g_free);
  st->stack = g_array_new (FALSE, FALSE, sizeof (Open));
  st->events = g_array_new (FALSE, FALSE, sizeof (Event));
  st->texts = g_ptr_array_new_with_free_func (g_free);
  st->renamed = g_hash_table_new (NULL, NULL);
  st->op_of_text = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  st->scratch = g_string_new (NULL);
  b->flavour_data = st;
  b->flavour_data_free = tf_state_free;

  /* TF1's executor processes by the device the ops were placed on, "GPU 0
   * ops", rather than "/job:localhost/replica:0/task:0/device:GPU:0
   * Compute", cut to its job in the lane names; another job's keep it */
  for (guint i = 0; st->tf1 && i < b->processes->len; i++)
    {
      TesChromeMergedProcess *mp = g_ptr_array_index (b->processes, i);
      const char *process = tes_chrome_text (b, mp->name);
      g_autofree char *label = NULL, *name = NULL;
      char *text;

      if (tf1_lane (process, &label, &name) != LANE_HOST || label == NULL)
        continue;
      if (g_str_has_prefix (process, "/job:localhost/"))
        text = g_strdup_printf ("%s ops", label);
      else
        {
          const char *cut = strstr (process, "/device:");

          if (cut == NULL)
            cut = strrchr (process, '/');
          text = g_strdup_printf ("%.*s %s ops", (int)(cut - process), process, label);
        }
      g_ptr_array_add (st->texts, text);
      mp->name = tes_chrome_gid_of_text (b, text);
      g_hash_table_add (st->renamed, mp);
    }
}

/* ---- tracks -------------------------------------------------------------- */

static Device *
device_get (TesChromeBuilder *b,
            TfState          *st,
            char             *label,
            guint            *sort)
{
  Device *d = g_hash_table_lookup (st->device_of, label);

  if (d != NULL)
    {
      g_free (label);
      return d;
    }
  d = g_new0 (Device, 1);
  d->label = label;
  d->spans = g_array_new (FALSE, FALSE, 2 * sizeof (gint64));
  d->track_id = tes_chrome_add_track (b, 0, TES_TRACK_DEVICE, label, (*sort)++, NULL);
  g_ptr_array_add (st->devices, d);
  g_hash_table_insert (st->device_of, d->label, d);

  return d;
}

/* the number in "stream 7", "Stream #14(Compute)" */
static gint64
stream_number (const char *name)
{
  while (*name != '\0' && !g_ascii_isdigit (*name))
    name++;

  return *name ? g_ascii_strtoll (name, NULL, 10) : G_MAXINT64;
}

/* a device's lanes: streams by number, then the rest as they came */
static int
compare_lanes (gconstpointer a,
               gconstpointer b)
{
  const TesChromeMergedThread *x = *(TesChromeMergedThread * const *)a;
  const TesChromeMergedThread *y = *(TesChromeMergedThread * const *)b;
  const Lane *lx = x->flavour_data, *ly = y->flavour_data;
  gint64 nx, ny;

  if (lx->kind == LANE_STREAM && ly->kind == LANE_STREAM && lx->device == ly->device &&
      (nx = stream_number (lx->name)) != (ny = stream_number (ly->name)))
    return nx < ny ? -1 : 1;

  return (x->order > y->order) - (x->order < y->order);
}

/* A device track per device, before the processes: its streams first (core
 * tracks, the units), then its other lanes, in the trace's order. The
 * threads of a device are the flavour's; the host's stay the builder's. */
static guint
add_tracks (TesChromeBuilder *b)
{
  TfState *st = b->flavour_data;
  g_autoptr(GPtrArray) threads = tes_chrome_list_threads (b);
  g_autoptr(GPtrArray) mine = g_ptr_array_new ();
  guint sort = 0;

  for (guint i = 0; i < threads->len; i++)
    {
      TesChromeMergedThread *mt = g_ptr_array_index (threads, i);
      const char *process = tes_chrome_text (b, mt->process->name);
      g_autofree char *label = NULL;
      g_autofree char *name = NULL;
      LaneKind kind;
      Lane *lane;

      if (!(mt->used || tes_chrome_thread_has_slices (mt)))
        continue;
      if (st->tf1 && g_hash_table_contains (st->renamed, mt->process))
        kind = LANE_HOST;
      else if (st->tf1)
        kind = tf1_lane (process, &label, &name);
      else if ((label = tf2_device (process)) != NULL)
        {
          kind = tf2_lane (tes_chrome_text (b, mt->name));
          name = g_strdup (mt->name ? tes_chrome_text (b, mt->name) : "lane");
        }
      else
        kind = process != NULL && g_str_has_prefix (process, "/host:") ? LANE_HOST : LANE_NONE;
      if (kind == LANE_NONE)
        continue;
      if (kind == LANE_HOST)
        g_clear_pointer (&label, g_free);

      lane = g_new0 (Lane, 1);
      lane->kind = kind;
      lane->name = g_steal_pointer (&name);
      g_ptr_array_add (st->lanes, lane);
      mt->flavour_data = lane;
      if (label == NULL)
        continue;

      lane->device = device_get (b, st, g_steal_pointer (&label), &sort);
      mt->claimed = TRUE;
      g_ptr_array_add (mine, mt);
    }

  /* streams, then the rest */
  g_ptr_array_sort (mine, compare_lanes);
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < mine->len; i++)
      {
        TesChromeMergedThread *mt = g_ptr_array_index (mine, i);
        Lane *lane = mt->flavour_data;
        Device *d = lane->device;

        if ((lane->kind == LANE_STREAM) != (pass == 0))
          continue;
        if (lane->kind == LANE_STREAM)
          d->n_streams++;
        if (lane->kind == LANE_STEPS && st->steps->len == 0)
          {
            gboolean taken = FALSE;

            for (guint k = 0; k < st->devices->len; k++)
              taken |= ((Device *)g_ptr_array_index (st->devices, k))->steps;
            d->steps = !taken;
          }
        mt->track_id = tes_chrome_add_track (b, d->track_id, lane->kind == LANE_STREAM ? TES_TRACK_CORE : TES_TRACK_THREAD,
                                             lane->name, sort++, NULL);
      }

  return sort;
}

/* ---- slices -------------------------------------------------------------- */

/* "dense/MatMul:MatMul" -> the op's name and type: the type a TF op type
 * (a letter or '_' then letters, digits, '_'), the name not empty, no
 * "::" (a C++ scope, "ExecutorState::Process", is no op). */
static gboolean
split_op (const char  *text,
          char       **name,
          char       **type)
{
  const char *colon;

  if (text == NULL || strstr (text, "::") != NULL || (colon = strrchr (text, ':')) == NULL || colon == text)
    return FALSE;
  if (!(g_ascii_isalpha (colon[1]) || colon[1] == '_'))
    return FALSE;
  for (const char *p = colon + 1; *p; p++)
    if (!g_ascii_isalnum (*p) && *p != '_')
      return FALSE;

  *name = g_strndup (text, colon - text);
  *type = g_strdup (colon + 1);

  return TRUE;
}

/* The op named name (taking name and type), made on first sight. */
static Op *
op_get (GHashTable *table,
        GPtrArray  *list,
        char       *name,
        char       *type,
        gint64      start)
{
  Op *op = g_hash_table_lookup (table, name);

  if (op == NULL)
    {
      op = g_new0 (Op, 1);
      op->name = name;
      op->type = type;
      op->first = start;
      tes_chrome_kernels_init (&op->by_name);
      g_ptr_array_add (list, op);
      g_hash_table_insert (table, op->name, op);
      return op;
    }
  g_free (name);
  if (op->type == NULL)
    op->type = type;
  else
    g_free (type);
  op->first = MIN (op->first, start);

  return op;
}

/* The op a host event or a kernel is: TF1 by its args "name" and "op",
 * TF2 by "<name>:<Type>" (the host's event name, the kernel's "tf_op" or
 * "level 0"). */
/* A string member of the args into the scratch buffer, without an
 * allocation when it holds no escape; NULL: none. */
static const char *
args_scratch (TfState    *st,
              const char *args,
              gsize       len,
              const char *key)
{
  const char *v;
  gsize vl;

  if (args == NULL || len == 0 || !tes_chrome_args_find (args, len, key, &v, &vl) ||
      !tes_chrome_value_is_string (v, vl))
    return NULL;
  if (memchr (v, '\\', vl) == NULL)
    g_string_append_len (g_string_truncate (st->scratch, 0), v + 1, vl - 2);
  else
    {
      g_autofree char *text = tes_chrome_value_dup_string (v, vl);

      g_string_assign (st->scratch, text);
    }

  return st->scratch->str;
}

/* The op "<name>:<Type>" names, NULL when it names none; each text is
 * split once. */
static Op *
op_by_text (TfState    *st,
            const char *text,
            gint64      start)
{
  gpointer found;
  char *name, *type;
  Op *op = NULL;

  if (text == NULL)
    return NULL;
  if (g_hash_table_lookup_extended (st->op_of_text, text, NULL, &found))
    op = found;
  else
    {
      if (split_op (text, &name, &type))
        op = op_get (st->ops, st->op_list, name, type, start);
      g_hash_table_insert (st->op_of_text, g_strdup (text), op);
    }
  if (op != NULL)
    op->first = MIN (op->first, start);

  return op;
}

/* The op a host event or a kernel is: TF1 by its args "name" and "op",
 * TF2 by "<name>:<Type>" (the host's event name, the kernel's "tf_op" or
 * "level 0"). */
static Op *
op_of (TfState    *st,
       const char *text,
       const char *args,
       gsize       len,
       gboolean    kernel,
       gint64      start)
{
  const char *name;
  Op *op;

  if (!st->tf1)
    {
      if (!kernel)
        return op_by_text (st, text, start);
      /* "level 0": what profilers before "tf_op" called the kernel's op */
      if ((name = args_scratch (st, args, len, "tf_op")) == NULL)
        name = args_scratch (st, args, len, "level 0");
      return op_by_text (st, name, start);
    }

  if ((name = args_scratch (st, args, len, "name")) == NULL)
    return NULL;
  if ((op = g_hash_table_lookup (st->ops, name)) != NULL)
    {
      op->first = MIN (op->first, start);
      return op;
    }

  return op_get (st->ops, st->op_list, g_strdup (name), tes_chrome_args_dup_string (args, len, "op"), start);
}

static void
pop_until (TfState *st,
           gint64   t)
{
  while (st->stack->len > 0)
    {
      Open *top = &g_array_index (st->stack, Open, st->stack->len - 1);

      if (top->end > t)
        return;
      if (top->op != NULL)
        top->op->cpu_self += MAX (top->dur - top->child, 0);
      if (top->event >= 0)
        g_array_index (st->events, Event, top->event).self = MAX (top->dur - top->child, 0);
      g_array_set_size (st->stack, st->stack->len - 1);
    }
}

/* a member as text: a string unescaped, anything else as written */
static char *
args_text (const char *args,
           gsize       len,
           const char *key)
{
  const char *v;
  gsize vl;

  if (args == NULL || len == 0 || !tes_chrome_args_find (args, len, key, &v, &vl))
    return NULL;

  return tes_chrome_value_dup_string (v, vl);
}

/* args "group_id" (a string or a number), -1: none */
static gint64
group_of (const char *args,
          gsize       len)
{
  const char *v;
  gsize vl;
  char *end;
  gint64 group;

  if (args == NULL || len == 0 || !tes_chrome_args_find (args, len, "group_id", &v, &vl) || vl == 0)
    return -1;
  if (*v == '"')
    v++;
  if (!g_ascii_isdigit (*v))
    return -1;
  group = g_ascii_strtoll (v, &end, 10);

  return end > v ? group : -1;
}

static void
add_event (TfState   *st,
           Op        *op,
           EventKind  kind,
           gint64     start,
           gint64     dur,
           guint32    kernel)
{
  Event event = { op, start, dur, dur, st->group, kernel, kind };

  g_array_append_val (st->events, event);
}

/* tf.profiler.experimental.Trace ("train", step_num=N, _r=1): the step
 * marker the TF2 profiler documents for loops it cannot see itself */
static void
host_step (TfState    *st,
           const char *args,
           gsize       len,
           gint64      start,
           gint64      dur)
{
  g_autofree char *step = args_text (args, len, "step_num");
  g_autofree char *root = args_text (args, len, "_r");
  gint64 span[4] = { start, start + dur, st->host_step_names->len, group_of (args, len) };

  if (step == NULL || root == NULL || strcmp (root, "1") != 0)
    return;
  g_array_append_vals (st->host_steps, span, 1);
  g_ptr_array_add (st->host_step_names, g_strdup_printf ("Step %s", step));
}

static void
host_slice (TfState    *st,
            const char *text,
            const char *args,
            gsize       len,
            gint64      start,
            gint64      dur)
{
  Open open = { start + dur, 0, NULL, dur, -1 };

  pop_until (st, start);
  if (st->stack->len > 0)
    {
      Open *parent = &g_array_index (st->stack, Open, st->stack->len - 1);

      parent->child += MIN (start + dur, parent->end) - start;
    }
  if (!st->tf1)
    host_step (st, args, len, start, dur);
  if ((open.op = op_of (st, text, args, len, FALSE, start)) != NULL)
    {
      open.op->calls++;
      open.op->cpu_total += dur;
      open.event = (gint)st->events->len;
      add_event (st, open.op, EVENT_CALL, start, dur, 0);
    }
  g_array_append_val (st->stack, open);
}

static void
slice (TesChromeBuilder      *b,
       TesChromeMergedThread *mt,
       TesChromePart         *part,
       const TesChromeSlice  *sl,
       const char            *args,
       gint64                *start,
       gint64                *dur,
       guint32               *category)
{
  TfState *st = b->flavour_data;
  Lane *lane = mt->flavour_data;
  const char *text = tes_chrome_text (b, tes_chrome_gid (b, part->seg, sl->name));
  gsize len = args ? sl->args_len : 0;
  gint64 group;
  Op *op;

  (void)category;

  if (mt != st->cur)
    {
      pop_until (st, G_MAXINT64);
      st->cur = mt;
    }
  if (lane == NULL)
    return;

  group = st->tf1 ? -1 : group_of (args, len);
  st->group = group;
  switch (lane->kind)
    {
    case LANE_HOST:
      host_slice (st, text, args, len, *start, *dur);
      break;

    case LANE_STREAM:
      {
        gint64 span[2] = { *start, *start + *dur };

        g_array_append_vals (lane->device->spans, span, 1);
        if ((op = op_of (st, text, args, len, TRUE, *start)) != NULL)
          {
            st->kernels_named = TRUE;
            op->kernels++;
            op->kernel_ns += *dur;
            tes_chrome_kernels_add (&op->by_name, tes_chrome_gid (b, part->seg, sl->name), *dur);
            add_event (st, op, EVENT_KERNEL, *start, *dur, tes_chrome_gid (b, part->seg, sl->name));
          }
      }
      break;

    case LANE_TF_OPS:
      {
        const char *long_name = args_scratch (st, args, len, "long_name");

        if ((op = op_by_text (st, long_name != NULL ? long_name : text, *start)) != NULL)
          {
            op->lane_events++;
            op->lane_ns += *dur;
            add_event (st, op, EVENT_LANE, *start, *dur, 0);
          }
      }
      break;

    case LANE_XLA_OPS:
      if (text != NULL)
        {
          const char *dot = strrchr (text, '.');
          gboolean numbered = dot != NULL && dot[1] != '\0' && dot > text;

          for (const char *p = numbered ? dot + 1 : ""; *p; p++)
            numbered &= g_ascii_isdigit (*p);
          /* "fusion.12" is an XLA op of type "fusion" */
          op = op_get (st->xla_ops, st->xla_list, g_strdup (text),
                       numbered ? g_strndup (text, dot - text) : g_strdup (text), *start);
          op->xla = TRUE;
          op->lane_events++;
          op->lane_ns += *dur;
          add_event (st, op, EVENT_LANE, *start, *dur, 0);
        }
      break;

    case LANE_STEPS:
      if (lane->device->steps)
        {
          gint64 span[3] = { *start, *start + *dur, group };
          gboolean digits = text != NULL && *text != '\0';

          for (const char *p = text; digits && *p; p++)
            digits &= g_ascii_isdigit (*p);
          g_array_append_vals (st->steps, span, 1);
          g_ptr_array_add (st->step_names, digits ? g_strdup_printf ("Step %s", text)
                                                  : g_strdup (text != NULL && *text != '\0' ? text : "Step"));
        }
      break;

    case LANE_NONE:
    case LANE_VIEW:
    default:
      break;
    }
}

/* ---- once every slice is written ----------------------------------------- */

static int
compare_ops (gconstpointer a,
             gconstpointer b)
{
  const Op *x = *(Op * const *)a, *y = *(Op * const *)b;

  return tes_chrome_order_by_first (x->first, x->name, y->first, y->name);
}

static void
write_ops (TesChromeBuilder *b,
           GPtrArray        *list,
           gboolean          by_kernels,
           gint64            run_id,
           guint            *index)
{
  g_autoptr(GString) args = g_string_new (NULL);
  g_autoptr(GString) details = g_string_new (NULL);

  g_ptr_array_sort (list, compare_ops);
  for (guint i = 0; i < list->len; i++)
    {
      Op *op = g_ptr_array_index (list, i);
      TesOperatorRow row = TES_OPERATOR_ROW_INIT;
      gint64 dev = by_kernels ? op->kernel_ns : op->lane_ns;
      gint64 n_dev = by_kernels ? op->kernels : op->lane_events;

      g_string_assign (details, "");
      if (op->calls > 0)
        {
          g_string_append (details, "CPU ");
          tes_chrome_append_ms (details, op->cpu_total);
          g_string_append (details, " (self ");
          tes_chrome_append_ms (details, op->cpu_self);
          g_string_append (details, ")");
        }
      if (n_dev > 0)
        {
          g_string_append (details, details->len ? ", device " : "device ");
          tes_chrome_append_ms (details, dev);
          g_string_append_printf (details, " (%" G_GINT64_FORMAT " %s)", n_dev,
                                  by_kernels ? (n_dev == 1 ? "kernel" : "kernels") : (n_dev == 1 ? "event" : "events"));
        }
      if (by_kernels)
        tes_chrome_kernels_append_text (b, &op->by_name, details);
      g_string_printf (args, "{\"cpu_total_ns\":%" G_GINT64_FORMAT ",\"cpu_self_ns\":%" G_GINT64_FORMAT
                       ",\"device_ns\":%" G_GINT64_FORMAT ",\"device_events\":%" G_GINT64_FORMAT
                       ",\"xla\":%s,\"kernels\":",
                       op->cpu_total, op->cpu_self, dev, n_dev, op->xla ? "true" : "false");
      tes_chrome_kernels_append_json (b, &op->by_name, args);
      g_string_append (args, ",\"details\":");
      tes_json_append_string (args, details->str, -1);
      g_string_append_c (args, '}');

      row.source_id = b->context->source_id;
      row.run_id = run_id;
      row.op_index = (*index)++;
      row.name = op->name;
      row.type = op->type != NULL ? op->type : op->name;
      /* the host's calls; an op the host never ran (an XLA op, a copy)
       * counts its device events */
      row.count = op->calls > 0 ? op->calls : n_dev;
      /* what it cost where it ran: its device time when it ran on a
       * device, else (a CPU op) its CPU self time, so that nested ops
       * are not counted twice */
      row.total = n_dev > 0 ? dev : op->cpu_self;
      row.clock_id = b->clock_id;
      row.args_json = args->str;
      tes_cache_writer_add_operator (b->writer, &row);
    }
}

static int
compare_spans3 (gconstpointer a,
                gconstpointer b)
{
  const gint64 *x = a, *y = b;

  for (guint i = 0; i < 3; i++)
    if (x[i] != y[i])
      return x[i] < y[i] ? -1 : 1;

  return 0;
}

/* The step (index in st->steps) an event is of, -1: none. An event is
 * the step's when the profiler gave both the same group_id (the host runs
 * ahead of the device, so its ops start before the device's step), else
 * when it starts inside the step. */
static gint
step_of_event (TfState      *st,
               GHashTable   *step_of_group,
               gboolean      sorted,
               const Event  *e)
{
  gpointer found;
  gint step;

  if (e->group >= 0 && g_hash_table_lookup_extended (step_of_group, &e->group, NULL, &found))
    return GPOINTER_TO_INT (found);
  /* else by time, in a step without a group */
  step = tes_chrome_span_at ((const gint64 *)(gpointer)st->steps->data, st->steps->len, 3, sorted, e->start);
  if (step >= 0 && (e->group < 0 || g_array_index (st->steps, gint64, 3 * step + 2) < 0))
    return step;

  return -1;
}

/* The operator rows of one step (run @run_id; @events: indexes in
 * st->events of the step's), summed as the whole trace's are, in the
 * order they first ran in it (op_index from 0 per step). */
static void
write_step_ops (TesChromeBuilder *b,
                TfState          *st,
                GArray           *events,
                gint64            run_id,
                gboolean          by_kernels,
                gboolean          with_xla)
{
  g_autoptr(GHashTable) copy_of = g_hash_table_new (NULL, NULL);
  g_autoptr(GPtrArray) ops = g_ptr_array_new_with_free_func (op_free);
  g_autoptr(GPtrArray) xla = g_ptr_array_new_with_free_func (op_free);
  guint index = 0;

  for (guint k = 0; k < events->len; k++)
    {
      const Event *e = &g_array_index (st->events, Event, g_array_index (events, guint, k));
      Op *op;

      if (!(op = g_hash_table_lookup (copy_of, e->op)))
        {
          op = g_new0 (Op, 1);
          op->name = g_strdup (e->op->name);
          op->type = g_strdup (e->op->type);
          op->xla = e->op->xla;
          op->first = e->start;
          tes_chrome_kernels_init (&op->by_name);
          g_ptr_array_add (e->op->xla ? xla : ops, op);
          g_hash_table_insert (copy_of, e->op, op);
        }
      op->first = MIN (op->first, e->start);
      switch (e->kind)
        {
        case EVENT_CALL:
          op->calls++;
          op->cpu_total += e->dur;
          op->cpu_self += e->self;
          break;
        case EVENT_KERNEL:
          op->kernels++;
          op->kernel_ns += e->dur;
          tes_chrome_kernels_add (&op->by_name, e->kernel, e->dur);
          break;
        case EVENT_LANE:
        default:
          op->lane_events++;
          op->lane_ns += e->dur;
          break;
        }
    }

  write_ops (b, ops, by_kernels, run_id, &index);
  if (with_xla)
    write_ops (b, xla, FALSE, run_id, &index);
}

static void
threads_written (TesChromeBuilder *b)
{
  TfState *st = b->flavour_data;
  gboolean lane_time = FALSE, device_time;
  guint index = 0;
  const char *how;

  pop_until (st, G_MAXINT64);
  st->cur = NULL;

  /* an op's device time: its kernels when they name it (TF1, TF2's
   * "tf_op"), else its events of the TensorFlow Ops lane */
  for (guint i = 0; i < st->op_list->len && !st->kernels_named; i++)
    lane_time |= ((Op *)g_ptr_array_index (st->op_list, i))->lane_events > 0;
  device_time = st->kernels_named || lane_time;

  write_ops (b, st->op_list, st->kernels_named, 0, &index);
  /* XLA ops are the operators when nothing gives the TF ops device
   * time: else their kernels would count twice */
  if (!device_time && st->xla_list->len > 0)
    {
      write_ops (b, st->xla_list, FALSE, 0, &index);
      how = "XLA ops: device time (the XLA Ops lane); TF ops: CPU self time";
    }
  else if (st->kernels_named)
    how = "device time (the kernels each op launched), else CPU self time";
  else if (lane_time)
    how = "device time (the TensorFlow Ops lane), else CPU self time";
  else
    how = "CPU self time (no kernel names its op)";
  tes_cache_writer_set_info (b->writer, b->context->source_id, "TensorFlow.operator_time", how);

  /* no Steps lane (a host without devices): the host's step markers, in
   * start order */
  if (st->steps->len == 0 && st->host_steps->len > 0)
    {
      g_array_sort (st->host_steps, compare_spans3);
      for (guint i = 0; i < st->host_steps->len; i++)
        {
          const gint64 *span = &g_array_index (st->host_steps, gint64, 4 * i);
          gint64 step[3] = { span[0], span[1], span[3] };

          g_array_append_vals (st->steps, step, 1);
          g_ptr_array_add (st->step_names, g_strdup (g_ptr_array_index (st->host_step_names, span[2])));
        }
    }
  /* each step's own operator rows, so that Summary and compare work per
   * step: the events of each step, found in one pass */
  {
    g_autoptr(GHashTable) step_of_group = g_hash_table_new (g_int64_hash, g_int64_equal);
    g_autoptr(GPtrArray) events_in = g_ptr_array_new_with_free_func ((GDestroyNotify)g_array_unref);
    gboolean sorted = tes_chrome_spans_sorted ((const gint64 *)(gpointer)st->steps->data, st->steps->len, 3);

    for (guint i = 0; i < st->steps->len; i++)
      {
        gint64 *step = &g_array_index (st->steps, gint64, 3 * i);

        if (step[2] >= 0 && !g_hash_table_contains (step_of_group, &step[2]))
          g_hash_table_insert (step_of_group, &step[2], GINT_TO_POINTER (i));
        g_ptr_array_add (events_in, g_array_new (FALSE, FALSE, sizeof (guint)));
      }
    for (guint i = 0; st->steps->len > 0 && i < st->events->len; i++)
      {
        gint step = step_of_event (st, step_of_group, sorted, &g_array_index (st->events, Event, i));

        if (step >= 0)
          g_array_append_val (g_ptr_array_index (events_in, step), i);
      }
    for (guint i = 0; i < st->steps->len; i++)
      {
        const gint64 *span = &g_array_index (st->steps, gint64, 3 * i);
        gint64 run_id = tes_cache_writer_add_run (b->writer, g_ptr_array_index (st->step_names, i), b->clock_id,
                                                  span[0], span[1]);

        write_step_ops (b, st, g_ptr_array_index (events_in, i), run_id, st->kernels_named,
                        !device_time && st->xla_list->len > 0);
      }
  }

  /* per device its busy time: the union of its streams' work, wall time */
  for (guint i = 0; i < st->devices->len; i++)
    {
      Device *d = g_ptr_array_index (st->devices, i);
      g_autoptr(GPtrArray) info = tes_info_list_new ();
      g_autofree char *busy = NULL;

      if (d->n_streams == 0)
        continue;
      busy = tes_chrome_format_ms (tes_chrome_merge_spans (d->spans));
      tes_info_list_add_int (info, g_strdup_printf ("%s.streams", d->label), d->n_streams);
      tes_info_list_add (info, g_strdup_printf ("%s.busy", d->label), busy);
      tes_info_list_write (info, b->writer, b->context->source_id);
    }
}

const TesChromeFlavour tes_chrome_flavour_tensorflow = {
  .title = "TensorFlow Profiler",
  .detect = detect_tf2,
  .prepare = prepare,
  .add_tracks = add_tracks,
  .slice = slice,
  .threads_written = threads_written,
};

const TesChromeFlavour tes_chrome_flavour_tf_timeline = {
  .title = "TensorFlow Timeline (TF1)",
  .detect = detect_tf1,
  .prepare = prepare,
  .add_tracks = add_tracks,
  .slice = slice,
  .threads_written = threads_written,
};
