/* tes-chrome-flavour-kineto.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-chrome"

#include "config.h"

#include "tes-chrome-flavour-kineto-private.h"
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
    st->ops_room = st->work_room = st->launches_room = n;
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
          tes_array_append (st->work, &st->work_room, &w, sizeof w);
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
      /* an op without a name (a damaged trace: the profiler names every
       * one) has no operator row to go to: it stays a slice */
      else if (kind == K_OP && name != 0)
        {
          Op op = { *start, *dur, *dur, ARGS_INT (args, sl->args_len, "External id"), 0, 0, -1, name };

          for (guint i = st->n_stack; i > 0; i--)
            if (st->stack[i - 1].op >= 0)
              {
                op.parent = st->stack[i - 1].op;
                break;
              }
          open.op = st->ops->len;
          tes_array_append (st->ops, &st->ops_room, &op, sizeof op);
        }
    }
  else if (kind == K_RUNTIME)
    {
      Launch launch = { ARGS_INT (args, sl->args_len, "correlation"), *start,
                        ARGS_INT (args, sl->args_len, "External id") };

      if (launch.corr >= 0)
        tes_array_append (st->launches, &st->launches_room, &launch, sizeof launch);
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
  units_worker = g_thread_new ("tes-chrome-units", tes_chrome_kineto_units_thread, &units);
  tes_chrome_kineto_write_operators (b, st, &launch_of, run_ids);
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
