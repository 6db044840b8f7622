/* tes-chrome-flavour-kineto-rows.c
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

/* The Kineto flavour once every slice is written: each device's and
 * stream's busy and idle time as Holistic Trace Analysis splits it, and
 * the operator rows of the whole trace and of each step, with the
 * kernels each op launched. */

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


gpointer
tes_chrome_kineto_units_thread (gpointer data)
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
  g_autofree guint *ops_room = NULL;
  g_autofree guint *works_room = NULL;

  g_async_queue_push (job->done, op_sums (job->b, st, job->op_of_work, NULL, NULL, 0, job->linked, sum_of));

  /* each step's ops and their works, in one pass: a trace of many steps
   * costs no more than one of few */
  ops_room = g_new0 (guint, st->steps->len);
  works_room = g_new0 (guint, st->steps->len);
  for (guint s = 0; s < st->steps->len; s++)
    {
      g_ptr_array_add (ops_in, g_array_new (FALSE, FALSE, sizeof (guint)));
      g_ptr_array_add (works_in, g_array_new (FALSE, FALSE, sizeof (guint)));
    }
  for (guint i = 0; i < st->ops->len; i++)
    if (job->step_of_op[i] >= 0)
      tes_array_append (g_ptr_array_index (ops_in, job->step_of_op[i]), &ops_room[job->step_of_op[i]],
                        &i, sizeof i);
  for (guint i = 0; i < st->work->len; i++)
    if (job->op_of_work[i] >= 0 && job->step_of_op[job->op_of_work[i]] >= 0)
      {
        gint step = job->step_of_op[job->op_of_work[i]];

        tes_array_append (g_ptr_array_index (works_in, step), &works_room[step], &i, sizeof i);
      }
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
void
tes_chrome_kineto_write_operators (TesChromeBuilder     *b,
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
