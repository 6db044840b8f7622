/* tes-chrome-flavour-onnxruntime.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-chrome"

#include "config.h"

#include "tes-chrome-flavour.h"
#include "tes-json.h"

#include <math.h>
#include <string.h>

/* ONNX Runtime's profile (SessionOptions.enable_profiling): Chrome JSON
 * whose "Node" events are a graph node's fence_before, kernel_time and
 * fence_after, with its operator type ("op_name") and execution provider
 * in args, and whose "Session" events are the session's own steps, one
 * "model_run" per inference. Each node becomes an operator row (its
 * kernel time summed over the runs), each model_run a run. Per slice the
 * work is a suffix test and, for a kernel_time event, a hash lookup.
 * Nodes whose kernel_time events carry one name are one node. */

#define KERNEL_SUFFIX "_kernel_time"

typedef struct
{
  guint32  name;          /* gid of the event's name, suffix included */
  char    *node;          /* the node: the name without the suffix */
  char    *op_name;
  char    *provider;
  gint64   first;         /* its first kernel_time's start */
  gint64   count;
  gint64   total;
} Node;

typedef struct
{
  GHashTable *node_of;    /* event name gid -> Node* */
  GPtrArray  *nodes;      /* Node*, first run first */
  GArray     *runs;       /* gint64 pairs: start, end */
  GArray     *calls;      /* Call: each kernel_time event, for the rows per run */
} OState;

/* One kernel_time event of a node. */
typedef struct
{
  Node   *node;
  gint64  start;
  gint64  dur;
} Call;

static void
node_free (gpointer data)
{
  Node *n = data;

  g_free (n->node);
  g_free (n->op_name);
  g_free (n->provider);
  g_free (n);
}

static void
ostate_free (gpointer data)
{
  OState *st = data;

  g_hash_table_unref (st->node_of);
  g_ptr_array_unref (st->nodes);
  g_array_unref (st->runs);
  g_array_unref (st->calls);
  g_free (st);
}

/* every Node event carries "op_name"; kineto's ids are never there */
static gboolean
claims_args (const char *args,
             gsize       len)
{
  const char *v;
  gsize vl;

  return tes_chrome_args_find (args, len, "op_name", &v, &vl) && tes_chrome_value_is_string (v, vl);
}

/* A quarter of the sampled events are nodes (the Session events and the
 * node's fences carry no provider, but fences have op_name too). */
static gboolean
detect (TesChromeBuilder *b,
        guint             n_claimed,
        guint             n_sampled)
{
  return n_claimed > 0 && 4 * n_claimed >= n_sampled;
}

static void
prepare (TesChromeBuilder *b)
{
  OState *st = g_new0 (OState, 1);

  st->node_of = g_hash_table_new (NULL, NULL);
  st->nodes = g_ptr_array_new_with_free_func (node_free);
  st->runs = g_array_new (FALSE, FALSE, 2 * sizeof (gint64));
  st->calls = g_array_new (FALSE, FALSE, sizeof (Call));
  b->flavour_data = st;
  b->flavour_data_free = ostate_free;
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
  OState *st = b->flavour_data;
  guint32 name = tes_chrome_gid (b, part->seg, sl->name);
  const char *cat = tes_chrome_text (b, tes_chrome_gid (b, part->seg, sl->cat));
  const char *text = tes_chrome_text (b, name);
  Node *node;
  gsize len;

  if (cat == NULL || text == NULL)
    return;

  if (strcmp (cat, "Session") == 0)
    {
      if (strcmp (text, "model_run") == 0)
        {
          gint64 span[2] = { *start, *start + *dur };

          g_array_append_vals (st->runs, span, 1);
        }
      return;
    }

  len = strlen (text);
  if (strcmp (cat, "Node") != 0 || len <= strlen (KERNEL_SUFFIX) ||
      strcmp (text + len - strlen (KERNEL_SUFFIX), KERNEL_SUFFIX) != 0)
    return;

  if ((node = g_hash_table_lookup (st->node_of, GUINT_TO_POINTER (name))) == NULL)
    {
      node = g_new0 (Node, 1);
      node->name = name;
      node->node = g_strndup (text, len - strlen (KERNEL_SUFFIX));
      node->op_name = tes_chrome_args_dup_string (args, sl->args_len, "op_name");
      node->provider = tes_chrome_args_dup_string (args, sl->args_len, "provider");
      node->first = *start;
      g_ptr_array_add (st->nodes, node);
      g_hash_table_insert (st->node_of, GUINT_TO_POINTER (name), node);
    }
  node->count++;
  node->total += *dur;
  {
    Call call = { node, *start, *dur };

    g_array_append_val (st->calls, call);
  }
}

/* by first start, then by name: the order a run runs the nodes, whatever
 * thread each ran on */
static int
compare_nodes (gconstpointer a,
               gconstpointer b)
{
  const Node *x = *(Node * const *)a, *y = *(Node * const *)b;

  return tes_chrome_order_by_first (x->first, x->node, y->first, y->node);
}

/* One row per node of @nodes (sorted here), for run @run_id (0: the
 * whole profile). */
static void
write_nodes (TesChromeBuilder *b,
             GPtrArray        *nodes,
             gint64            run_id)
{
  g_autoptr(GString) args = g_string_new (NULL);

  g_ptr_array_sort (nodes, compare_nodes);

  for (guint i = 0; i < nodes->len; i++)
    {
      Node *node = g_ptr_array_index (nodes, i);
      TesOperatorRow row = TES_OPERATOR_ROW_INIT;
      g_autofree char *details = node->provider ? g_strdup_printf ("%s", node->provider) : NULL;

      g_string_assign (args, "{\"op_name\":");
      if (node->op_name != NULL)
        tes_json_append_string (args, node->op_name, -1);
      else
        g_string_append (args, "null");
      g_string_append (args, ",\"provider\":");
      if (node->provider != NULL)
        tes_json_append_string (args, node->provider, -1);
      else
        g_string_append (args, "null");
      if (details != NULL)
        {
          g_string_append (args, ",\"details\":");
          tes_json_append_string (args, details, -1);
        }
      g_string_append_c (args, '}');

      /* one row per node, in the order a run runs them: the
       * per-node listing (--mode each) and, summed by op type, the
       * per-type one (--mode total) */
      row.source_id = b->context->source_id;
      row.run_id = run_id;
      row.op_index = i;
      row.name = node->node;
      row.type = node->op_name != NULL ? node->op_name : node->node;
      row.count = node->count;
      row.total = node->total;
      row.clock_id = b->clock_id;
      row.args_json = args->str;
      tes_cache_writer_add_operator (b->writer, &row);
    }
}

static void
threads_written (TesChromeBuilder *b)
{
  OState *st = b->flavour_data;
  g_autoptr(GPtrArray) calls_in = g_ptr_array_new_with_free_func ((GDestroyNotify)g_array_unref);
  gboolean sorted;

  write_nodes (b, st->nodes, 0);

  /* each model_run's own rows: the node events that start inside it (the
   * first run, with its warm-up, apart from the others), found in one
   * pass: runs come one after the other */
  sorted = tes_chrome_spans_sorted ((const gint64 *)(gpointer)st->runs->data, st->runs->len, 2);
  for (guint i = 0; i < st->runs->len; i++)
    g_ptr_array_add (calls_in, g_array_new (FALSE, FALSE, sizeof (guint)));
  for (guint c = 0; c < st->calls->len; c++)
    {
      gint run = tes_chrome_span_at ((const gint64 *)(gpointer)st->runs->data, st->runs->len, 2, sorted,
                                     g_array_index (st->calls, Call, c).start);

      if (run >= 0)
        g_array_append_val (g_ptr_array_index (calls_in, run), c);
    }

  for (guint i = 0; i < st->runs->len; i++)
    {
      const gint64 *span = &g_array_index (st->runs, gint64, 2 * i);
      GArray *mine = g_ptr_array_index (calls_in, i);
      g_autofree char *name = g_strdup_printf ("model_run %u", i + 1);
      gint64 run_id = tes_cache_writer_add_run (b->writer, name, b->clock_id, span[0], span[1]);
      g_autoptr(GHashTable) copy_of = g_hash_table_new (NULL, NULL);
      g_autoptr(GPtrArray) nodes = g_ptr_array_new_with_free_func (g_free);

      for (guint k = 0; k < mine->len; k++)
        {
          const Call *call = &g_array_index (st->calls, Call, g_array_index (mine, guint, k));
          Node *copy;

          if (!(copy = g_hash_table_lookup (copy_of, call->node)))
            {
              /* the names stay the whole node's */
              copy = g_memdup2 (call->node, sizeof *copy);
              copy->first = call->start;
              copy->count = copy->total = 0;
              g_ptr_array_add (nodes, copy);
              g_hash_table_insert (copy_of, call->node, copy);
            }
          copy->first = MIN (copy->first, call->start);
          copy->count++;
          copy->total += call->dur;
        }
      write_nodes (b, nodes, run_id);
    }
}

const TesChromeFlavour tes_chrome_flavour_onnxruntime = {
  .title = "ONNX Runtime profile",
  .claims_args = claims_args,
  .detect = detect,
  .prepare = prepare,
  .slice = slice,
  .threads_written = threads_written,
};
