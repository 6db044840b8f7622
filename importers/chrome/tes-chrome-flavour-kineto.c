/* tes-chrome-flavour-kineto.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-chrome"

#include "config.h"

#include "tes-chrome-flavour.h"
#include "tes-chrome-id-map-private.h"
#include "tes-info.h"
#include "tes-json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The PyTorch profiler's Chrome trace (Kineto), on NVIDIA, AMD or MTIA
 * devices: processes labelled "GPU N" (or "MTIA N") are devices and their
 * streams parallel units; the framework's operators (cpu_op / Operator)
 * become operator rows with their CPU time and the device time of the
 * kernels they launched; ProfilerStep#N are runs; each device and stream
 * gets its busy and idle time as Holistic Trace Analysis splits it.
 *
 * Per slice the work is O(1): a slice is classified by its category (a
 * table by string id), a CPU thread's ops keep a stack for their self
 * time, and a device thread's kernels are appended to an array. Kernels
 * are joined to the ops that launched them once, at the end, through the
 * "External id" (or the runtime call's "correlation"). */

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

static const char * const work_keys[N_WORK] = { "compute", "memcpy", "memset", "communication" };

/* HTA's idle categories */
enum
{
  IDLE_HOST_WAIT,
  IDLE_KERNEL_WAIT,
  IDLE_OTHER,
  N_IDLE
};

static const char * const idle_keys[N_IDLE] = { "idle_host_wait", "idle_kernel_wait", "idle_other" };

/* HTA's consecutive_kernel_delay default: 30 µs */
#define KERNEL_WAIT_NS 30000

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

static void
device_free (gpointer data)
{
  Device *d = data;

  g_free (d->label);
  g_free (d->model);
  g_free (d);
}

static void
stream_free (gpointer data)
{
  Stream *s = data;

  g_free (s->name);
  g_free (s);
}

static void
kstate_free (gpointer data)
{
  KState *st = data;

  g_array_unref (st->kinds);
  g_array_unref (st->names);
  g_hash_table_unref (st->devices);
  g_ptr_array_unref (st->device_list);
  g_ptr_array_unref (st->streams);
  g_hash_table_unref (st->stream_of);
  g_ptr_array_unref (st->texts);
  g_array_unref (st->ops);
  g_array_unref (st->work);
  g_array_unref (st->launches);
  g_array_unref (st->steps);
  g_ptr_array_unref (st->step_names);
  g_free (st->stack);
  g_free (st);
}

/* ---- telling it ---------------------------------------------------------- */

/* Kineto gives nearly every event an "External id" (ops, runtime calls,
 * kernels) or a "correlation"; with_stack adds "Python id". */
static gboolean
claims_args (const char *args,
             gsize       len)
{
  const char *v;
  gsize vl;

  return tes_chrome_args_find (args, len, "External id", &v, &vl) ||
         tes_chrome_args_find (args, len, "correlation", &v, &vl) ||
         tes_chrome_args_find (args, len, "Python id", &v, &vl);
}

static gboolean
label_is_device (const char *label)
{
  return label != NULL && label[0] != '\0' && g_strcmp0 (label, "CPU") != 0;
}

/* Half the sampled events carry Kineto's ids, or a process is labelled
 * as the profiler labels its devices ("GPU 0") beside one labelled
 * "CPU". */
static gboolean
detect (TesChromeBuilder *b,
        guint             n_claimed,
        guint             n_sampled)
{
  gboolean cpu = FALSE, device = FALSE;

  if (n_claimed > 0 && 2 * n_claimed >= n_sampled)
    return TRUE;

  for (guint i = 0; i < b->processes->len; i++)
    {
      TesChromeMergedProcess *mp = g_ptr_array_index (b->processes, i);
      const char *label = tes_chrome_text (b, mp->labels);

      cpu |= g_strcmp0 (label, "CPU") == 0;
      device |= label_is_device (label) && (g_str_has_prefix (label, "GPU ") || g_str_has_prefix (label, "MTIA "));
    }

  return cpu && device;
}

/* ---- tracks -------------------------------------------------------------- */

static guint32
own_gid (KState           *st,
         TesChromeBuilder *b,
         char             *text)
{
  g_ptr_array_add (st->texts, text);
  return tes_chrome_gid_of_text (b, text);
}

/* deviceProperties[i].name of the device whose id is the process's pid. */
static char *
device_model (TesChromeBuilder       *b,
              TesChromeMergedProcess *mp)
{
  for (guint i = 0; i < 1024; i++)
    {
      g_autofree char *id_key = g_strdup_printf ("deviceProperties.%u.id", i);
      g_autofree char *name_key = g_strdup_printf ("deviceProperties.%u.name", i);
      const char *id = tes_chrome_other_data (b, id_key);
      char *end;
      gint64 value;

      if (id == NULL)
        return NULL;
      value = g_ascii_strtoll (id, &end, 10);
      if (*end == '\0' && !(mp->key_flags & TES_CHROME_KEY_PID_STRING) && value == mp->pid)
        return g_strdup (tes_chrome_other_data (b, name_key));
    }

  return NULL;
}

/* Devices are the processes labelled "GPU N" (any label but "CPU"): named
 * after the label and the model, instead of the Python process's name
 * every one of them carries. */
static void
prepare (TesChromeBuilder *b)
{
  KState *st = g_new0 (KState, 1);

  st->kinds = g_array_new (FALSE, TRUE, sizeof (guint8));
  st->names = g_array_new (FALSE, TRUE, sizeof (guint8));
  st->devices = g_hash_table_new (NULL, NULL);
  st->device_list = g_ptr_array_new_with_free_func (device_free);
  st->streams = g_ptr_array_new_with_free_func (stream_free);
  st->stream_of = g_hash_table_new (NULL, NULL);
  st->texts = g_ptr_array_new_with_free_func (g_free);
  /* every slice could be an op, a kernel or a launch: room for all, so
   * that the arrays are never copied as they grow (see
   * tes_chrome_n_slices ()); up to 2M each, some 100 MB of address space,
   * beyond which they grow as arrays do */
  {
    guint n = (guint)MIN (tes_chrome_n_slices (b), 2000000);

    st->ops = g_array_sized_new (FALSE, FALSE, sizeof (Op), n);
    st->work = g_array_sized_new (FALSE, FALSE, sizeof (Work), n);
    st->launches = g_array_sized_new (FALSE, FALSE, sizeof (Launch), n);
  }
  st->steps = g_array_new (FALSE, FALSE, 2 * sizeof (gint64));
  st->step_names = g_ptr_array_new_with_free_func (g_free);
  b->flavour_data = st;
  b->flavour_data_free = kstate_free;
  tes_chrome_ranks_prepare (b);

  for (guint i = 0; i < b->processes->len; i++)
    {
      TesChromeMergedProcess *mp = g_ptr_array_index (b->processes, i);
      const char *label = tes_chrome_text (b, mp->labels);
      Device *d;

      if (!label_is_device (label))
        continue;

      d = g_new0 (Device, 1);
      d->label = g_strdup (label);
      d->model = device_model (b, mp);
      g_ptr_array_add (st->device_list, d);
      g_hash_table_insert (st->devices, mp, d);
      mp->name = own_gid (st, b, d->model ? g_strdup_printf ("%s (%s)", d->label, d->model)
                                          : g_strdup (d->label));
    }
}

static TesTrackKind
process_kind (TesChromeBuilder       *b,
              TesChromeMergedProcess *mp,
              gint                   *ipu)
{
  KState *st = b->flavour_data;

  return g_hash_table_contains (st->devices, mp) ? TES_TRACK_DEVICE : TES_TRACK_PROCESS;
}

/* "stream 7", "Stream 108" */
static gboolean
is_stream_name (const char *name)
{
  const char *p;

  if (g_ascii_strncasecmp (name, "stream ", 7) != 0)
    return FALSE;
  for (p = name + 7; g_ascii_isdigit (*p); p++);

  return p > name + 7 && *p == '\0';
}

/* A device's thread is a stream: a core track, so that Tile Balance and
 * `tessera-cli tiles` count it as a parallel unit. */
static gboolean
thread_track (TesChromeBuilder      *b,
              TesChromeMergedThread *mt,
              gint64                 parent,
              gint64                 sort_index,
              const char            *native_id)
{
  KState *st = b->flavour_data;
  Device *d = g_hash_table_lookup (st->devices, mt->process);
  Stream *s;

  g_autofree char *name = NULL;

  if (d == NULL)
    return FALSE;

  d->track_id = parent;
  if (mt->name != 0)
    name = g_strstrip (g_strdup (tes_chrome_text (b, mt->name)));
  else
    name = g_strdup_printf ("stream %s", strchr (native_id, ':') + 1);
  /* a device's other threads ("Device 0" with its context syncs, MTIA's
   * submission queues) are no units */
  if (!is_stream_name (name))
    return FALSE;

  s = g_new0 (Stream, 1);
  s->device = d;
  s->index = st->streams->len;
  s->name = g_steal_pointer (&name);
  s->track_id = mt->track_id = tes_chrome_add_track (b, parent, TES_TRACK_CORE, s->name, sort_index, native_id);
  g_ptr_array_add (st->streams, s);
  g_hash_table_insert (st->stream_of, mt, s);

  return TRUE;
}

/* ---- slices -------------------------------------------------------------- */

static Kind
classify (const char *cat)
{
  static const struct
  {
    const char *cat;
    Kind        kind;
  } table[] = {
    { "cpu_op", K_OP }, { "Operator", K_OP },
    { "cuda_runtime", K_RUNTIME }, { "Runtime", K_RUNTIME }, { "cuda_driver", K_RUNTIME },
    { "mtia_runtime", K_RUNTIME }, { "privateuse1_runtime", K_RUNTIME },
    { "kernel", K_KERNEL }, { "Kernel", K_KERNEL }, { "mtia_ccp_events", K_KERNEL },
    { "gpu_memcpy", K_MEMCPY }, { "Memcpy", K_MEMCPY },
    { "gpu_memset", K_MEMSET }, { "Memset", K_MEMSET },
  };

  for (guint i = 0; cat != NULL && i < G_N_ELEMENTS (table); i++)
    if (strcmp (cat, table[i].cat) == 0)
      return table[i].kind;

  return K_OTHER;
}

/* @memo's byte for text @gid (0 until worked out), grown as texts are
 * added: what a category or a name says is worked out once per text. */
static guint8 *
memo_slot (GArray           *memo,
           TesChromeBuilder *b,
           guint32           gid)
{
  if (gid >= memo->len)
    g_array_set_size (memo, MAX (gid + 1, b->gids.texts->len));

  return &g_array_index (memo, guint8, gid);
}

static Kind
kind_of (KState           *st,
         TesChromeBuilder *b,
         guint32           cat)
{
  guint8 *k = memo_slot (st->kinds, b, cat);

  if (*k == K_UNKNOWN)
    *k = (guint8)classify (tes_chrome_text (b, cat));

  return (Kind)*k;
}

/* An integer member of the compact args text ('"key":' given as it is
 * written), -1 when there is none. A search for the key's text, not a
 * walk over the members: kernels carry long args (grid, block, …), and
 * this runs for every op, runtime call and kernel. Inside a string the
 * quotes would be escaped, so a match after '{' or ',' is a member; Kineto
 * nests no object holding these keys. */
static gint64
args_int (const char *args,
          gsize       len,
          const char *pattern,
          gsize       pattern_len)
{
  const char *at = args;
  const char *end = args + len;
  gint64 value = 0;
  gboolean negative = FALSE;

  if (args == NULL)
    return -1;

  /* Kineto writes "External id" first: no search for it */
  if (len > pattern_len && args[0] == '{' && memcmp (args + 1, pattern, pattern_len) == 0)
    at = args + 1;
  else
    {
      for (;;)
        {
          at = memmem (at, end - at, pattern, pattern_len);
          if (at == NULL)
            return -1;
          if (at > args && (at[-1] == '{' || at[-1] == ','))
            break;
          at += pattern_len;
        }
    }

  at += pattern_len;
  if (at < end && *at == '-')
    {
      negative = TRUE;
      at++;
    }
  if (at >= end || !g_ascii_isdigit (*at))
    return -1;
  for (; at < end && g_ascii_isdigit (*at); at++)
    {
      if (value > (G_MAXINT64 - 9) / 10)
        return -1;
      value = value * 10 + (*at - '0');
    }
  if (at < end && *at != ',' && *at != '}')
    return -1;       /* 1.5, 1e3: not an id */

  return negative ? -1 : value;
}

#define ARGS_INT(args, len, key) args_int ((args), (len), "\"" key "\":", sizeof (key) + 2)

/* HTA's kernel kinds (hta/common/types.py): communication by name (nccl…,
 * hccl…, …ncclKernel…), memory by category or name (Memcpy, Memset,
 * dma…), the rest compute. */
static guint8
work_of (Kind        kind,
         const char *name)
{
  if (kind == K_MEMCPY)
    return WORK_MEMCPY;
  if (kind == K_MEMSET)
    return WORK_MEMSET;
  if (name == NULL)
    return WORK_COMPUTE;
  if (g_str_has_prefix (name, "nccl") || g_str_has_prefix (name, "hccl") || strstr (name, "ncclKernel") != NULL)
    return WORK_COMM;
  if (g_str_has_prefix (name, "Memcpy") || g_str_has_prefix (name, "hipMemcpy") || g_str_has_prefix (name, "dma"))
    return WORK_MEMCPY;
  if (g_str_has_prefix (name, "Memset") || g_str_has_prefix (name, "hipMemset"))
    return WORK_MEMSET;

  return WORK_COMPUTE;
}

/* What a slice's name says, worked out once per name: the kernels'
 * names run to hundreds of bytes. */
enum
{
  NAME_KNOWN = 1 << 0,
  NAME_STEP  = 1 << 1,      /* ProfilerStep#N */
  NAME_WORK  = 2,           /* work_of() a kernel of this name, from bit 2 */
};

static guint8
name_class (KState           *st,
            TesChromeBuilder *b,
            guint32           name)
{
  guint8 *c = memo_slot (st->names, b, name);

  if (*c == 0)
    {
      const char *text = tes_chrome_text (b, name);

      *c = NAME_KNOWN | (text != NULL && g_str_has_prefix (text, "ProfilerStep#") ? NAME_STEP : 0) |
           (guint8)(work_of (K_KERNEL, text) << NAME_WORK);
    }

  return *c;
}

/* Pops the ops that end at or before t, their self time now known. */
static void
pop_until (KState *st,
           gint64  t)
{
  while (st->n_stack > 0)
    {
      Open *top = &st->stack[st->n_stack - 1];

      if (top->end > t)
        return;
      if (top->op >= 0)
        {
          Op *op = &g_array_index (st->ops, Op, top->op);

          op->self = MAX (op->dur - top->child, 0);
        }
      st->n_stack--;
    }
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
  KState *st = b->flavour_data;
  guint32 cat = tes_chrome_gid (b, part->seg, sl->cat);
  Kind kind = cat ? kind_of (st, b, cat) : K_OTHER;
  gint64 end = *start + *dur;
  Open open = { end, 0, -1 };
  guint32 name;

  (void)category;

  st->route = 0;
  if (mt != st->cur)
    {
      pop_until (st, G_MAXINT64);
      st->cur = mt;
      st->cur_stream = g_hash_table_lookup (st->stream_of, mt);
    }

  if (st->cur_stream != NULL)
    {
      Stream *s = st->cur_stream;

      if (kind == K_KERNEL || kind == K_MEMCPY || kind == K_MEMSET)
        {
          Work w = { *start, end, ARGS_INT (args, sl->args_len, "External id"),
                     ARGS_INT (args, sl->args_len, "correlation"),
                     tes_chrome_gid (b, part->seg, sl->name), (guint16)s->index, 0 };

          w.work = kind == K_KERNEL ? name_class (st, b, w.name) >> NAME_WORK : work_of (kind, NULL);
          g_array_append_val (st->work, w);
          return;
        }

      /* annotations and syncs on a stream are no work of it: a lane of
       * their own beside the stream's */
      if (s->marks_track == 0)
        {
          g_autofree char *marks = g_strdup_printf ("%s annotations", s->name);

          s->marks_track = tes_chrome_add_track (b, s->device->track_id, TES_TRACK_THREAD, marks,
                                                 1000000 + st->next_marks_sort++, NULL);
        }
      st->route = s->marks_track;
      return;
    }

  pop_until (st, *start);
  if (st->n_stack > 0)
    {
      Open *parent = &st->stack[st->n_stack - 1];

      parent->child += MIN (end, parent->end) - *start;
    }

  name = tes_chrome_gid (b, part->seg, sl->name);
  if (kind == K_OTHER || kind == K_OP)
    {
      if (name_class (st, b, name) & NAME_STEP)
        {
          const char *text = tes_chrome_text (b, name);
          gint64 span[2] = { *start, end };

          g_array_append_val (st->steps, span);
          g_ptr_array_add (st->step_names, g_strdup (text));
        }
      else if (kind == K_OP)
        {
          Op op = { *start, *dur, *dur, ARGS_INT (args, sl->args_len, "External id"), 0, 0, -1, name };

          for (guint i = st->n_stack; i > 0; i--)
            if (st->stack[i - 1].op >= 0)
              {
                op.parent = st->stack[i - 1].op;
                break;
              }
          open.op = st->ops->len;
          g_array_append_val (st->ops, op);
        }
    }
  else if (kind == K_RUNTIME)
    {
      Launch launch = { ARGS_INT (args, sl->args_len, "correlation"), *start,
                        ARGS_INT (args, sl->args_len, "External id") };

      if (launch.corr >= 0)
        g_array_append_val (st->launches, launch);
    }

  if (st->n_stack == st->stack_cap)
    {
      st->stack_cap = MAX (16, 2 * st->stack_cap);
      st->stack = g_renew (Open, st->stack, st->stack_cap);
    }
  st->stack[st->n_stack++] = open;
}

static gint64
slice_track (TesChromeBuilder      *b,
             TesChromeMergedThread *mt)
{
  KState *st = b->flavour_data;

  return st->route != 0 ? st->route : mt->track_id;
}

/* ---- once every slice is written ----------------------------------------- */

static void
set_ms (GPtrArray  *info,
        const char *prefix,
        const char *key,
        gint64      ns)
{
  g_autofree char *v = tes_chrome_format_ms (ns);

  tes_info_list_add (info, g_strdup_printf ("%s.%s", prefix, key), v);
}

static int
compare_work (gconstpointer a,
              gconstpointer b)
{
  const Work *x = a, *y = b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return (x->end > y->end) - (x->end < y->end);
}

static int
compare_work_ptr (gconstpointer a,
                  gconstpointer b)
{
  return compare_work (*(Work * const *)a, *(Work * const *)b);
}

/* The time two unions (merged, sorted) share. */
static gint64
intersect_spans (GArray *a,
                 GArray *b)
{
  gint64 shared = 0;
  guint i = 0, j = 0;

  while (i < a->len && j < b->len)
    {
      const gint64 *x = &g_array_index (a, gint64, 2 * i);
      const gint64 *y = &g_array_index (b, gint64, 2 * j);

      shared += MAX (0, MIN (x[1], y[1]) - MAX (x[0], y[0]));
      if (x[1] < y[1])
        i++;
      else
        j++;
    }

  return shared;
}

/* Busy time (the union of the works) and idle time between the first
 * start and the last end, each gap split as HTA splits a stream's: the
 * host's wait when the next work's runtime call came after the gap began,
 * else a kernel wait when the gap is under 30 µs, else other. works are
 * sorted by start. */
static void
busy_idle (KState               *st,
           const TesChromeIdMap *launch_of,
           const Work          **works,
           guint                 n,
           gint64               *busy,
           gint64                idle[N_IDLE])
{
  gint64 reach = G_MININT64;

  *busy = 0;
  memset (idle, 0, N_IDLE * sizeof (gint64));
  (void)st;

  for (guint i = 0; i < n; i++)
    {
      const Work *w = works[i];

      if (reach != G_MININT64 && w->start > reach)
        {
          gint64 gap = w->start - reach;
          const Launch *launch = tes_chrome_id_map_lookup (launch_of, w->corr);

          if (launch != NULL && launch->ts > reach)
            idle[IDLE_HOST_WAIT] += gap;
          else if (gap < KERNEL_WAIT_NS)
            idle[IDLE_KERNEL_WAIT] += gap;
          else
            idle[IDLE_OTHER] += gap;
        }
      if (w->end > reach)
        {
          *busy += w->end - MAX (w->start, reach == G_MININT64 ? w->start : reach);
          reach = w->end;
        }
    }
}

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

static gpointer
units_thread (gpointer data)
{
  Units *u = data;
  KState *st = u->st;
  const TesChromeIdMap *launch_of = u->launch_of;
  double cpu0 = tes_chrome_thread_cpu ();
  g_autoptr(GPtrArray) by_stream = g_ptr_array_new_with_free_func ((GDestroyNotify)g_ptr_array_unref);

  for (guint i = 0; i < st->streams->len; i++)
    g_ptr_array_add (by_stream, g_ptr_array_new ());
  for (guint i = 0; i < st->work->len; i++)
    {
      Work *w = &g_array_index (st->work, Work, i);

      g_ptr_array_add (g_ptr_array_index (by_stream, w->stream), w);
    }

  for (guint d = 0; d < st->device_list->len; d++)
    {
      Device *dev = g_ptr_array_index (st->device_list, d);
      g_autoptr(GPtrArray) works = g_ptr_array_new ();
      g_autoptr(GArray) comm = g_array_new (FALSE, FALSE, 2 * sizeof (gint64));
      g_autoptr(GArray) comp = g_array_new (FALSE, FALSE, 2 * sizeof (gint64));
      gint64 kinds[N_WORK] = { 0 };
      gint64 busy, idle[N_IDLE];
      guint n_streams = 0;
      GPtrArray *info = tes_info_list_new ();
      GPtrArray *stream_info = tes_info_list_new ();

      for (guint s = 0; s < st->streams->len; s++)
        {
          Stream *stream = g_ptr_array_index (st->streams, s);
          GPtrArray *sw = g_ptr_array_index (by_stream, s);
          g_autofree char *prefix = NULL;

          if (stream->device != dev || sw->len == 0)
            continue;

          n_streams++;
          /* a thread's slices come in start order, ties longest first */
          prefix = g_strdup_printf ("%s %s", dev->label, stream->name);
          busy_idle (st, launch_of, (const Work **)sw->pdata, sw->len, &busy, idle);
          set_ms (stream_info, prefix, "busy", busy);
          set_ms (stream_info, prefix, "idle", idle[0] + idle[1] + idle[2]);
          for (guint k = 0; k < N_IDLE; k++)
            set_ms (stream_info, prefix, idle_keys[k], idle[k]);

          for (guint i = 0; i < sw->len; i++)
            {
              Work *w = g_ptr_array_index (sw, i);
              gint64 span[2] = { w->start, w->end };

              g_ptr_array_add (works, w);
              kinds[w->work] += w->end - w->start;
              if (w->work == WORK_COMM)
                g_array_append_vals (comm, span, 1);
              else if (w->work == WORK_COMPUTE)
                g_array_append_vals (comp, span, 1);
            }
        }

      g_ptr_array_add (u->infos, info);
      g_ptr_array_add (u->infos, stream_info);
      if (works->len == 0)
        continue;

      g_ptr_array_sort (works, (GCompareFunc)(gpointer)compare_work_ptr);
      busy_idle (st, launch_of, (const Work **)works->pdata, works->len, &busy, idle);
      if (dev->model != NULL)
        tes_info_list_add (info, g_strdup_printf ("%s.model", dev->label), dev->model);
      tes_info_list_add_int (info, g_strdup_printf ("%s.streams", dev->label), n_streams);
      set_ms (info, dev->label, "busy", busy);
      set_ms (info, dev->label, "idle", idle[0] + idle[1] + idle[2]);
      for (guint k = 0; k < N_IDLE; k++)
        set_ms (info, dev->label, idle_keys[k], idle[k]);
      for (guint k = 0; k < N_WORK; k++)
        set_ms (info, dev->label, work_keys[k], kinds[k]);

      /* HTA's overlap: of the communication's union, the share that
       * computation's union covers */
      {
        gint64 comm_time = tes_chrome_merge_spans (comm);

        tes_chrome_merge_spans (comp);
        if (comm_time > 0)
          {
            g_autofree char *value = g_strdup_printf ("%.2f %%", 100.0 * (double)intersect_spans (comm, comp) / (double)comm_time);

            tes_info_list_add (info, g_strdup_printf ("%s.comm_overlap", dev->label), value);
          }
      }
    }
  u->cpu = tes_chrome_thread_cpu () - cpu0;

  return NULL;
}

/* Per op name: the sums over its calls. */
typedef struct
{
  guint32     name;
  gint64      count;
  gint64      cpu_total;
  gint64      cpu_self;
  gint64      dev_self;
  gint64      dev_total;
  TesChromeKernels kernels;
} OpSum;

static void
op_sum_free (gpointer data)
{
  OpSum *sum = data;

  tes_chrome_kernels_clear (&sum->kernels);
  g_free (sum);
}

/* What Summary shows beside the op: its CPU and device time and its
 * heaviest kernels (their names cut at 60 characters). */
static void
details_text (TesChromeBuilder *b,
              const OpSum      *sum,
              GString          *out)
{
  g_string_assign (out, "CPU ");
  tes_chrome_append_ms (out, sum->cpu_total);
  g_string_append (out, " (self ");
  tes_chrome_append_ms (out, sum->cpu_self);
  g_string_append (out, ")");
  if (sum->dev_total > 0)
    {
      g_string_append (out, ", device ");
      tes_chrome_append_ms (out, sum->dev_total);
      g_string_append (out, " (self ");
      tes_chrome_append_ms (out, sum->dev_self);
      g_string_append (out, ")");
    }
  tes_chrome_kernels_append_text (b, &sum->kernels, out);
}

/* An operator row worked out on the operators' thread, for the builder's
 * thread to write. */
typedef struct
{
  guint32  name;        /* gid */
  gint64   count;
  gint64   total;
  char    *args;
} OpRow;

static void
op_row_clear (gpointer data)
{
  g_free (((OpRow *)data)->args);
}

/* The operator rows of the whole trace (@run_id 0) or of one step, in the
 * order they are written. */
typedef struct
{
  gint64  run_id;
  GArray *rows;         /* OpRow */
} OpRows;

static void
op_rows_free (OpRows *rows)
{
  g_array_unref (rows->rows);
  g_free (rows);
}

/* One operator row per op name of the ops @ops (indexes in st->ops; NULL:
 * every op), with the kernels each launched (@works: indexes in st->work
 * of theirs, NULL: every work; @op_of_work: the op index of each work, -1:
 * none), for run @run_id (0: the whole trace). @sum_of: zeros, one per
 * op name's gid, left zeros: an array, not a hash table per step. */
static OpRows *
op_sums (TesChromeBuilder *b,
         KState           *st,
         const gint       *op_of_work,
         GArray           *ops,
         GArray           *works,
         gint64            run_id,
         gboolean          linked,
         guint32          *sum_of)
{
  g_autoptr(GPtrArray) sums = g_ptr_array_new_with_free_func (op_sum_free);
  g_autoptr(GString) args = g_string_new (NULL);
  g_autoptr(GString) details = g_string_new (NULL);
  OpRows *out = g_new0 (OpRows, 1);

  out->run_id = run_id;
  out->rows = g_array_new (FALSE, FALSE, sizeof (OpRow));
  g_array_set_clear_func (out->rows, op_row_clear);

  for (guint k = 0; k < (ops ? ops->len : st->ops->len); k++)
    {
      Op *op = &g_array_index (st->ops, Op, ops ? g_array_index (ops, guint, k) : k);
      OpSum *sum;

      if (sum_of[op->name] == 0)
        {
          sum = g_new0 (OpSum, 1);
          sum->name = op->name;
          tes_chrome_kernels_init (&sum->kernels);
          g_ptr_array_add (sums, sum);
          sum_of[op->name] = sums->len;
        }
      sum = g_ptr_array_index (sums, sum_of[op->name] - 1);
      sum->count++;
      sum->cpu_total += op->dur;
      sum->cpu_self += op->self;
      sum->dev_self += op->dev_self;
      sum->dev_total += op->dev_total;
    }

  for (guint k = 0; k < (works ? works->len : st->work->len); k++)
    {
      guint i = works ? g_array_index (works, guint, k) : k;
      const Work *w = &g_array_index (st->work, Work, i);
      const Op *op;

      if (op_of_work[i] < 0)
        continue;
      op = &g_array_index (st->ops, Op, op_of_work[i]);
      tes_chrome_kernels_add (&((OpSum *)g_ptr_array_index (sums, sum_of[op->name] - 1))->kernels,
                              w->name, w->end - w->start);
    }
  /* cleared for the next step's call */
  for (guint i = 0; i < sums->len; i++)
    sum_of[((OpSum *)g_ptr_array_index (sums, i))->name] = 0;

  for (guint i = 0; i < sums->len; i++)
    {
      OpSum *sum = g_ptr_array_index (sums, i);
      OpRow row;

      g_string_assign (args, "{\"cpu_total_ns\":");
      tes_chrome_append_int (args, sum->cpu_total);
      g_string_append (args, ",\"cpu_self_ns\":");
      tes_chrome_append_int (args, sum->cpu_self);
      g_string_append (args, ",\"device_total_ns\":");
      tes_chrome_append_int (args, sum->dev_total);
      g_string_append (args, ",\"device_self_ns\":");
      tes_chrome_append_int (args, sum->dev_self);
      g_string_append (args, ",\"kernels\":");
      tes_chrome_kernels_append_json (b, &sum->kernels, args);
      g_string_append (args, ",\"details\":");
      details_text (b, sum, details);
      tes_json_append_string (args, details->str, -1);
      g_string_append_c (args, '}');

      row.name = sum->name;
      row.count = sum->count;
      /* what the op cost where it ran: its kernels' time when the trace
       * links kernels to ops, else its own CPU time; self times, so that
       * nested ops are not counted twice */
      row.total = linked ? sum->dev_self : sum->cpu_self;
      row.args = g_strndup (args->str, args->len);
      g_array_append_val (out->rows, row);
    }

  return out;
}

/* The operator rows are worked out on a thread of their own (kernel
 * lists, args texts: some 0.12 s of CPU for the 1M Kineto trace's 1,212
 * steps) while the builder's thread writes them as they come, a step at a
 * time, whole trace first. The thread reads the ops, once linked to their
 * kernels, the works and the texts of the gids, which nothing changes
 * meanwhile: the builder's thread only writes rows. */
typedef struct
{
  TesChromeBuilder *b;
  KState           *st;
  const gint       *op_of_work;
  const gint       *step_of_op;
  const gint64     *run_ids;
  gboolean          linked;
  guint32           n_names;
  GAsyncQueue      *done;       /* OpRows*: the whole trace's, then each step's */
  double            cpu;        /* the thread's, for the debug log */
} OpRowsJob;

static gpointer
op_rows_thread (gpointer data)
{
  OpRowsJob *job = data;
  KState *st = job->st;
  double cpu0 = tes_chrome_thread_cpu ();
  g_autofree guint32 *sum_of = g_new0 (guint32, job->n_names + 1);
  g_autoptr(GPtrArray) ops_in = g_ptr_array_new_with_free_func ((GDestroyNotify)g_array_unref);
  g_autoptr(GPtrArray) works_in = g_ptr_array_new_with_free_func ((GDestroyNotify)g_array_unref);

  g_async_queue_push (job->done, op_sums (job->b, st, job->op_of_work, NULL, NULL, 0, job->linked, sum_of));

  /* each step's ops and their works, in one pass: a trace of many steps
   * costs no more than one of few */
  for (guint s = 0; s < st->steps->len; s++)
    {
      g_ptr_array_add (ops_in, g_array_new (FALSE, FALSE, sizeof (guint)));
      g_ptr_array_add (works_in, g_array_new (FALSE, FALSE, sizeof (guint)));
    }
  for (guint i = 0; i < st->ops->len; i++)
    if (job->step_of_op[i] >= 0)
      g_array_append_val (g_ptr_array_index (ops_in, job->step_of_op[i]), i);
  for (guint i = 0; i < st->work->len; i++)
    if (job->op_of_work[i] >= 0 && job->step_of_op[job->op_of_work[i]] >= 0)
      g_array_append_val (g_ptr_array_index (works_in, job->step_of_op[job->op_of_work[i]]), i);
  for (guint s = 0; s < st->steps->len; s++)
    g_async_queue_push (job->done, op_sums (job->b, st, job->op_of_work, g_ptr_array_index (ops_in, s),
                                            g_ptr_array_index (works_in, s), job->run_ids[s], job->linked,
                                            sum_of));
  job->cpu = tes_chrome_thread_cpu () - cpu0;

  return NULL;
}

/* The operator rows of the whole trace, then of each step (@run_ids: the
 * steps' runs), so that Summary and compare work per step. An op belongs
 * to the step its call started in; its kernels go with it, even when they
 * run after the step's host side ended. */
static void
write_operators (TesChromeBuilder     *b,
                 KState               *st,
                 const TesChromeIdMap *launch_of,
                 const gint64         *run_ids)
{
  TesChromeIdMap op_of_ext;
  g_autofree gint *op_of_work = g_new (gint, st->work->len + 1);
  g_autofree gint *step_of_op = g_new (gint, st->ops->len + 1);
  guint32 n_names = 0;
  const gint64 *steps = (const gint64 *)(gpointer)st->steps->data;
  gboolean linked = FALSE;
  /* steps do not overlap and come in start order, unless a trace has
   * them on several threads */
  gboolean sorted = tes_chrome_spans_sorted (steps, st->steps->len, 2);
  OpRowsJob job = { 0 };
  GThread *worker;

  tes_chrome_id_map_init (&op_of_ext, st->ops->len);
  for (guint i = 0; i < st->ops->len; i++)
    {
      Op *op = &g_array_index (st->ops, Op, i);

      n_names = MAX (n_names, op->name + 1);
      if (op->ext >= 0)
        tes_chrome_id_map_insert (&op_of_ext, op->ext, GINT_TO_POINTER (i + 1));
      /* the step its call started in */
      step_of_op[i] = tes_chrome_span_at (steps, st->steps->len, 2, sorted, op->start);
    }

  /* each kernel, copy or set to the op that launched it: the kernel's
   * own External id, else its runtime call's */
  for (guint i = 0; i < st->work->len; i++)
    {
      const Work *w = &g_array_index (st->work, Work, i);
      gint64 ext = w->ext;
      const Launch *launch;
      gint found = 0;
      Op *op;

      if (ext >= 0)
        found = GPOINTER_TO_INT (tes_chrome_id_map_lookup (&op_of_ext, ext));
      if (found == 0 && (launch = tes_chrome_id_map_lookup (launch_of, w->corr)) != NULL &&
          launch->ext >= 0)
        found = GPOINTER_TO_INT (tes_chrome_id_map_lookup (&op_of_ext, launch->ext));
      op_of_work[i] = found - 1;
      if (found == 0)
        continue;

      linked = TRUE;
      op = &g_array_index (st->ops, Op, found - 1);
      op->dev_self += w->end - w->start;
      for (Op *up = op; up != NULL; up = up->parent >= 0 ? &g_array_index (st->ops, Op, up->parent) : NULL)
        up->dev_total += w->end - w->start;
    }
  tes_chrome_id_map_clear (&op_of_ext);

  job.b = b;
  job.st = st;
  job.op_of_work = op_of_work;
  job.step_of_op = step_of_op;
  job.run_ids = run_ids;
  job.linked = linked;
  job.n_names = n_names;
  job.done = g_async_queue_new_full ((GDestroyNotify)op_rows_free);
  worker = g_thread_new ("tes-chrome-operators", op_rows_thread, &job);

  for (guint s = 0; s <= st->steps->len; s++)
    {
      OpRows *rows = g_async_queue_pop (job.done);

      for (guint i = 0; i < rows->rows->len; i++)
        {
          const OpRow *r = &g_array_index (rows->rows, OpRow, i);
          TesOperatorRow row = TES_OPERATOR_ROW_INIT;
          const char *name = tes_chrome_text (b, r->name);

          /* rows are sums by name, like the vendors' per-type listings: no
           * index, so Summary shows them by name, not as "<index> <name>" */
          row.source_id = b->context->source_id;
          row.run_id = rows->run_id;
          row.name = name;
          row.type = name;
          row.count = r->count;
          row.total = r->total;
          row.clock_id = b->clock_id;
          row.args_json = r->args;
          tes_cache_writer_add_operator (b->writer, &row);
        }
      op_rows_free (rows);
    }
  g_thread_join (worker);
  g_async_queue_unref (job.done);
  g_debug ("%s: the operator sums worked out in %.3f s of CPU beside their rows' writing", b->context->path, job.cpu);

  tes_cache_writer_set_info (b->writer, b->context->source_id, "PyTorch.operator_time",
                             linked ? "device self time (the kernels each op launched itself)"
                                    : "CPU self time (no kernel is linked to an op)");
}

static void
threads_written (TesChromeBuilder *b)
{
  KState *st = b->flavour_data;
  g_autofree gint64 *run_ids = NULL;
  TesChromeIdMap launch_of;
  Units units;
  GThread *units_worker;

  pop_until (st, G_MAXINT64);
  st->cur = NULL;

  tes_chrome_id_map_init (&launch_of, st->launches->len);
  for (guint i = 0; i < st->launches->len; i++)
    {
      Launch *launch = &g_array_index (st->launches, Launch, i);

      tes_chrome_id_map_insert (&launch_of, launch->corr, launch);
    }

  run_ids = g_new0 (gint64, st->steps->len + 1);
  for (guint i = 0; i < st->steps->len; i++)
    {
      const gint64 *span = &g_array_index (st->steps, gint64, 2 * i);

      run_ids[i] = tes_cache_writer_add_run (b->writer, g_ptr_array_index (st->step_names, i), b->clock_id, span[0], span[1]);
    }

  units.st = st;
  units.launch_of = &launch_of;
  units.infos = g_ptr_array_new_with_free_func ((GDestroyNotify)g_ptr_array_unref);
  units_worker = g_thread_new ("tes-chrome-units", units_thread, &units);
  write_operators (b, st, &launch_of, run_ids);
  g_thread_join (units_worker);
  g_debug ("%s: the devices' busy and idle worked out in %.3f s of CPU beside the operator rows", b->context->path, units.cpu);
  for (guint i = 0; i < units.infos->len; i++)
    tes_info_list_write (g_ptr_array_index (units.infos, i), b->writer, b->context->source_id);
  g_ptr_array_unref (units.infos);
  tes_chrome_id_map_clear (&launch_of);
  tes_chrome_ranks_register (b, st->steps, st->step_names);
}

const TesChromeFlavour tes_chrome_flavour_kineto = {
  .title = "PyTorch Profiler (Kineto)",
  .claims_args = claims_args,
  .detect = detect,
  .prepare = prepare,
  .process_kind = process_kind,
  .thread_track = thread_track,
  .slice = slice,
  .slice_track = slice_track,
  .threads_written = threads_written,
};
