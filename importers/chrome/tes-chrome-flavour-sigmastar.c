/* tes-chrome-flavour-sigmastar.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-chrome"

#include "config.h"

#include "tes-chrome-flavour.h"

#include <math.h>
#include <string.h>

/* The SigmaStar flavour: the Chrome JSON of performance_timeline.py, one
 * slice per layer whose args carry its cycles (total_cycle and the
 * conv/vector/DMA shares). It lives beside the Chrome builder, not in
 * sigmastar/, because all it does is rework the builder's merged threads;
 * what it reads is Chrome JSON. The trace is counted in IPU cycles at the
 * frequency the file implies, every layer slice lasts its cycles, and
 * every layer is also an operator row. */

#define SIGMASTAR_DEFAULT_MHZ 800   /* performance_timeline.py -f default */

/* SigmaStar's wall duration is total_cycle / f, so the sums of both give
 * the clock; performance_timeline.py takes -f as whole MHz. */
static void
frequency (TesChromeBuilder *b)
{
  g_autoptr(GPtrArray) threads = tes_chrome_list_threads (b);
  double cycles = 0;
  double dur_ns = 0;
  const char *given = tes_chrome_other_data (b, "otherData.frequency_mhz");

  for (guint i = 0; i < threads->len; i++)
    {
      TesChromeMergedThread *mt = g_ptr_array_index (threads, i);

      for (guint pi = 0; pi < mt->parts->len; pi++)
        {
          TesChromeThread *t = g_array_index (mt->parts, TesChromePart, pi).thread;

          tes_chrome_thread_load (t);
          for (guint s = 0; s < t->slices->len; s++)
            {
              TesChromeSlice *sl = &g_array_index (t->slices, TesChromeSlice, s);
              gint64 c = tes_chrome_args_cycles (t->args->str + sl->args_off, sl->args_len, "total_cycle");

              if (c > 0 && sl->dur > 0)
                {
                  cycles += (double)c;
                  dur_ns += (double)sl->dur;
                }
            }
        }
    }

  if (dur_ns > 0)
    b->mhz = (gint64)llround (cycles * 1000.0 / dur_ns);
  else if (given != NULL && g_ascii_strtoll (given, NULL, 10) > 0)
    b->mhz = g_ascii_strtoll (given, NULL, 10);
  else
    b->mhz = SIGMASTAR_DEFAULT_MHZ;

  if (b->mhz <= 0)
    b->mhz = SIGMASTAR_DEFAULT_MHZ;
}

typedef struct
{
  gint64  start;     /* converted */
  guint   index;
} Order;

static int
compare_order (gconstpointer pa,
               gconstpointer pb)
{
  const Order *a = pa;
  const Order *b = pb;

  if (a->start != b->start)
    return a->start < b->start ? -1 : 1;
  return (a->index > b->index) - (a->index < b->index);
}

/* "<index> <TYPE>": SigmaStar's layer names; also "<TYPE>" alone */
static gboolean
split_layer_name (const char  *name,
                  gint64      *index,
                  char       **type)
{
  const char *p = name;
  char *end = NULL;

  *index = -1;
  *type = NULL;

  if (name == NULL)
    return FALSE;

  while (*p == ' ')
    p++;
  if (g_ascii_isdigit (*p))
    {
      gint64 v = g_ascii_strtoll (p, &end, 10);

      if (end != p && *end == ' ')
        {
          while (*end == ' ')
            end++;
          if (*end != '\0')
            {
              *index = v;
              *type = g_strdup (end);
              return TRUE;
            }
        }
    }

  *type = g_strdup (name);
  return FALSE;
}

static char *
sigmastar_breakdown (const char *args,
                     gsize       len,
                     gint64      total)
{
  static const struct { const char *arg; const char *key; } parts[] = {
    { "conv_cycle_percent", "conv" },
    { "vector_cycle_percent", "vector" },
    { "dma_load_cycle_percent", "dma_load" },
    { "dma_store_cycle_percent", "dma_store" },
  };
  GString *s = g_string_new ("{");

  g_string_append_printf (s, "\"total_cycles\":%" G_GINT64_FORMAT, total);
  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    {
      const char *v;
      gsize vl;
      double pct;
      char buf[G_ASCII_DTOSTR_BUF_SIZE];

      if (!tes_chrome_args_find (args, len, parts[i].arg, &v, &vl) ||
          !tes_chrome_value_to_double (v, vl, TRUE, &pct))
        continue;

      g_string_append_printf (s, ",\"%s_percent\":%s,\"%s_cycles\":%" G_GINT64_FORMAT,
                              parts[i].key, g_ascii_dtostr (buf, sizeof buf, pct),
                              parts[i].key, (gint64)llround (pct * (double)total / 100.0));
    }
  g_string_append_c (s, '}');

  return g_string_free (s, FALSE);
}

typedef struct
{
  gint64  op_index;
  char   *name;
  char   *type;
  gint64  total;
  gint64  track;
  char   *args;
} LayerRow;

static void
layer_row_clear (gpointer data)
{
  LayerRow *row = data;

  g_free (row->name);
  g_free (row->type);
  g_free (row->args);
}

static void
write_thread (TesChromeBuilder      *b,
              TesChromeMergedThread *mt)
{
  GArray *layers = b->flavour_data;
  g_autoptr(GArray) order = g_array_new (FALSE, FALSE, sizeof (Order));
  g_autoptr(GArray) refs = g_array_new (FALSE, FALSE, sizeof (TesChromePart));
  g_autoptr(GArray) slots = g_array_new (FALSE, FALSE, sizeof (guint));
  gint64 tolerance = (b->mhz + 999) / 1000;   /* one ns of cycles */
  gint64 prev_end = G_MININT64;

  for (guint pi = 0; pi < mt->parts->len; pi++)
    {
      TesChromePart *part = &g_array_index (mt->parts, TesChromePart, pi);

      for (guint s = 0; s < part->thread->slices->len; s++)
        {
          const TesChromeSlice *sl = &g_array_index (part->thread->slices, TesChromeSlice, s);
          Order o = { tes_chrome_ticks (b, sl->start), order->len };

          g_array_append_val (order, o);
          g_array_append_val (refs, *part);
          g_array_append_val (slots, s);
        }
    }
  g_array_sort (order, compare_order);

  for (guint i = 0; i < order->len; i++)
    {
      Order *o = &g_array_index (order, Order, i);
      TesChromePart *part = &g_array_index (refs, TesChromePart, o->index);
      TesChromeThread *t = part->thread;
      TesChromeSlice *sl = &g_array_index (t->slices, TesChromeSlice, g_array_index (slots, guint, o->index));
      const char *args = t->args->str + sl->args_off;
      const char *name = tes_chrome_strings_get (&part->seg->strings, sl->name);
      gint64 cycles = tes_chrome_args_cycles (args, sl->args_len, "total_cycle");
      gint64 start = o->start;
      gint64 dur;
      LayerRow row = { 0 };
      guint32 type_id;

      /* a start within one ns of the previous layer's end is that end:
       * the vendor rounds ts to the ns, cycles are exact */
      if (prev_end != G_MININT64 && start != prev_end && ABS (start - prev_end) <= tolerance)
        start = prev_end;
      dur = cycles >= 0 ? cycles : tes_chrome_ticks (b, sl->dur);
      prev_end = start + dur;

      split_layer_name (name, &row.op_index, &row.type);
      if (row.op_index < 0)
        {
          gint64 idx = tes_chrome_args_cycles (args, sl->args_len, "layer_index");

          if (idx >= 0)
            row.op_index = idx;
        }
      type_id = tes_cache_writer_intern (b->writer, row.type);

      tes_cache_writer_add_slice (b->writer, mt->track_id, start, dur,
                                  tes_chrome_wid (b, tes_chrome_gid (b, part->seg, sl->name)), type_id,
                                  sl->flags, sl->args_len ? args : NULL, sl->args_len);

      if (cycles >= 0)
        {
          row.name = g_strdup (name ? name : row.type);
          row.total = cycles;
          row.track = mt->track_id;
          row.args = sigmastar_breakdown (args, sl->args_len, cycles);
          g_array_append_val (layers, row);
        }
      else
        layer_row_clear (&row);
    }
}

static void
write_operators (TesChromeBuilder *b)
{
  GArray *layers = b->flavour_data;
  double sum = 0;

  for (guint i = 0; i < layers->len; i++)
    sum += (double)g_array_index (layers, LayerRow, i).total;

  for (guint i = 0; i < layers->len; i++)
    {
      LayerRow *row = &g_array_index (layers, LayerRow, i);
      TesOperatorRow op = TES_OPERATOR_ROW_INIT;

      op.source_id = b->context->source_id;
      op.track_id = row->track;
      op.op_index = row->op_index;
      op.name = row->name;
      op.type = row->type;
      op.count = 1;
      op.total = row->total;
      op.clock_id = b->clock_id;
      op.share = sum > 0 ? 100.0 * (double)row->total / sum : 0.0;
      op.args_json = row->args;
      tes_cache_writer_add_operator (b->writer, &op);
    }
}

/* (Nearly) every layer slice carries its cycles. */
static gboolean
claims_args (const char *args,
             gsize       len)
{
  const char *v;
  gsize vl;

  return tes_chrome_args_find (args, len, "total_cycle", &v, &vl) &&
         tes_chrome_args_find (args, len, "conv_cycle_percent", &v, &vl);
}

static gboolean
detect (TesChromeBuilder *b,
        guint             n_claimed,
        guint             n_sampled)
{
  return n_claimed > 0 && (guint64)n_claimed * 10 >= (guint64)n_sampled * 9;
}

/* The core a process of performance_timeline.py is: one process per
 * IPU log it was given (-c0, -c1), named after it ("core0_Performance_
 * TimeLine"; "IPU core1"), else its pid; -1 when neither says. */
static gint
core_number (TesChromeBuilder       *b,
             TesChromeMergedProcess *mp)
{
  const char *name = mp->name != 0 ? tes_chrome_text (b, mp->name) : NULL;

  for (const char *p = name; p != NULL && *p != '\0'; p++)
    if (g_ascii_strncasecmp (p, "core", 4) == 0 && g_ascii_isdigit (p[4]))
      {
        gint64 n = g_ascii_strtoll (p + 4, NULL, 10);

        return n < 64 ? (gint)n : -1;
      }

  if (!mp->key_flags && mp->pid >= 0 && mp->pid < 64)
    return (gint)mp->pid;

  return -1;
}

static gboolean
process_has_layers (TesChromeMergedProcess *mp)
{
  for (guint i = 0; i < mp->threads->len; i++)
    if (tes_chrome_thread_has_slices (g_ptr_array_index (mp->threads, i)))
      return TRUE;

  return FALSE;
}

static int
compare_cores (gconstpointer pa,
               gconstpointer pb,
               gpointer      builder)
{
  TesChromeMergedProcess *a = *(TesChromeMergedProcess * const *)pa;
  TesChromeMergedProcess *b = *(TesChromeMergedProcess * const *)pb;
  gint ca = core_number (builder, a), cb = core_number (builder, b);

  if (ca != cb)
    return ca < cb ? -1 : 1;
  return (a->order > b->order) - (a->order < b->order);
}

/* The IPU as a device and each process with layers as one of its cores
 * (TES_TRACK_CORE, "Core N"), its threads below it under their own
 * names, so that Tile Balance counts the cores; before the builder's
 * tracks (a process with nothing else left gets none). */
static guint
add_tracks (TesChromeBuilder *b)
{
  g_autoptr(GPtrArray) cores = g_ptr_array_new ();
  gint64 device = 0;

  for (guint i = 0; i < b->processes->len; i++)
    {
      TesChromeMergedProcess *mp = g_ptr_array_index (b->processes, i);

      if (process_has_layers (mp) && core_number (b, mp) >= 0)
        g_ptr_array_add (cores, mp);
    }
  g_ptr_array_sort_with_data (cores, compare_cores, b);

  for (guint i = 0; i < cores->len; i++)
    {
      TesChromeMergedProcess *mp = g_ptr_array_index (cores, i);
      g_autofree char *core_name = g_strdup_printf ("Core %d", core_number (b, mp));
      g_autofree char *pid = mp->key_flags ? g_strdup (tes_chrome_text (b, (guint32)mp->pid))
                                           : g_strdup_printf ("%" G_GINT64_FORMAT, mp->pid);
      gint64 core;

      if (device == 0)
        device = tes_chrome_add_track (b, 0, TES_TRACK_DEVICE, "SigmaStar IPU", 0, "ipu");
      core = tes_chrome_add_track (b, device, TES_TRACK_CORE, core_name, i,
                                   mp->name != 0 ? tes_chrome_text (b, mp->name) : pid);

      g_ptr_array_sort_with_data (mp->threads, tes_chrome_compare_threads, b);
      for (guint j = 0; j < mp->threads->len; j++)
        {
          TesChromeMergedThread *mt = g_ptr_array_index (mp->threads, j);
          g_autofree char *tid = mt->key_flags ? g_strdup (tes_chrome_text (b, (guint32)mt->tid))
                                               : g_strdup_printf ("%" G_GINT64_FORMAT, mt->tid);
          g_autofree char *native = g_strdup_printf ("%s:%s", pid, tid);
          g_autofree char *fallback = g_strdup_printf ("Thread %s", tid);

          if (!(mt->used || tes_chrome_thread_has_slices (mt)))
            continue;
          mt->claimed = TRUE;
          mt->track_id = tes_chrome_add_track (b, core, TES_TRACK_THREAD,
                                               mt->name != 0 ? tes_chrome_text (b, mt->name) : fallback,
                                               j, native);
        }
    }

  return device != 0 ? 1 : 0;
}

static void
layer_rows_free (gpointer data)
{
  g_array_unref (data);
}

static void
prepare (TesChromeBuilder *b)
{
  GArray *layers = g_array_new (FALSE, TRUE, sizeof (LayerRow));

  g_array_set_clear_func (layers, layer_row_clear);
  b->flavour_data = layers;
  b->flavour_data_free = layer_rows_free;

  frequency (b);
  b->clock_source = "sum of total_cycle / sum of dur, whole MHz";
}

const TesChromeFlavour tes_chrome_flavour_sigmastar = {
  .title = "SigmaStar performance_timeline.py",
  .claims_args = claims_args,
  .detect = detect,
  .prepare = prepare,
  .add_tracks = add_tracks,
  .write_thread = write_thread,
  .threads_written = write_operators,
};
