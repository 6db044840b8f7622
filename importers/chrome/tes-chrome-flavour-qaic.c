/* tes-chrome-flavour-qaic.c
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

/* The qaic flavour: the Chrome JSON qaic-opstats writes (threads named
 * QAicGraph_slice<NN>_Core_<M>_<ENGINE>, args opKind, opPCycle, …). It
 * lives beside the Chrome builder, not in qaic/, because it reworks the
 * builder's merged threads; what it reads is Chrome JSON. Each device
 * (slice) becomes a device track with its cores and their engines, every
 * op an operator row in its device's pcycles, and P2P transfers flows. */

/* A QAicGraph_… thread: which device, core and engine it is. */
typedef struct
{
  gint  device;
  gint  core;       /* -1: none */
  char *engine;     /* NULL: the core's own thread */
} QThread;

static void
qthread_free (gpointer data)
{
  QThread *qt = data;

  g_free (qt->engine);
  g_free (qt);
}

typedef struct
{
  gint        device;
  double      mhz;
  gint64      clock_id;
  gint64      track_id;
  GHashTable *cores;       /* core number -> track id */
} QDevice;

static void
qdevice_free (gpointer data)
{
  QDevice *d = data;

  g_hash_table_unref (d->cores);
  g_free (d);
}

typedef struct
{
  GHashTable *devices;      /* device -> QDevice* */
  GHashTable *p2p;          /* "src>dst#txid" -> P2PEnd* (send) */
  GHashTable *p2p_recv;
  GPtrArray  *threads;      /* QThread*, owned */
} QState;

static void
qstate_free (gpointer data)
{
  QState *state = data;

  g_hash_table_unref (state->devices);
  g_hash_table_unref (state->p2p);
  g_hash_table_unref (state->p2p_recv);
  g_ptr_array_unref (state->threads);
  g_free (state);
}

/* QAicGraph_slice<NN>_Core_<M>[_<ENGINE>[_rest]], QAicGraph_Core_<M>...,
 * QAicGraph_slice<NN>_<other> */
static QThread *
parse_name (const char *name)
{
  const char *p;
  char *end;
  gint64 device = 0;
  QThread *qt;

  if (name == NULL || !g_str_has_prefix (name, "QAicGraph_"))
    return NULL;

  p = name + strlen ("QAicGraph_");
  if (g_str_has_prefix (p, "slice"))
    {
      device = g_ascii_strtoll (p + 5, &end, 10);
      if (end == p + 5 || *end != '_')
        return NULL;
      p = end + 1;
    }

  if (g_str_has_prefix (p, "Core_"))
    {
      gint64 core = g_ascii_strtoll (p + 5, &end, 10);

      if (end == p + 5 || (*end != '\0' && *end != '_'))
        return NULL;
      qt = g_new0 (QThread, 1);
      qt->device = (gint)device;
      qt->core = (gint)core;
      if (*end == '_')
        {
          qt->engine = g_strdup (end + 1);
          g_strdelimit (qt->engine, "_", ' ');
        }
      return qt;
    }

  if (*p == '\0')
    return NULL;

  qt = g_new0 (QThread, 1);
  qt->device = (gint)device;
  qt->core = -1;
  qt->engine = g_strdup (p);
  return qt;
}

static int
compare_ints (gconstpointer a,
              gconstpointer b)
{
  return (*(const gint *)a > *(const gint *)b) - (*(const gint *)a < *(const gint *)b);
}

/* A device track per slice in number order, under each its cores and
 * under those their engines, before the processes' tracks. */
static guint
add_tracks (TesChromeBuilder *b)
{
  g_autoptr(GPtrArray) threads = tes_chrome_list_threads (b);
  QState *state = b->flavour_data;
  g_autoptr(GPtrArray) qthreads = g_ptr_array_new ();
  g_autoptr(GArray) device_order = g_array_new (FALSE, FALSE, sizeof (gint));
  g_autoptr(GHashTable) engine_counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) engine_seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint sort = 0;

  for (guint i = 0; i < threads->len; i++)
    {
      TesChromeMergedThread *mt = g_ptr_array_index (threads, i);
      QThread *qt = parse_name (tes_chrome_text (b, mt->name));

      if (qt == NULL)
        continue;

      /* its place among its process's threads, wherever its track goes */
      g_ptr_array_add (state->threads, qt);
      mt->flavour_data = qt;
      mt->flavour_order = qt->core;
      mt->flavour_suborder = qt->engine != NULL;
      if (qt->device < 0)
        continue;

      mt->claimed = TRUE;
      g_ptr_array_add (qthreads, mt);
      if (!g_hash_table_contains (state->devices, GINT_TO_POINTER (qt->device)))
        {
          QDevice *d = g_new0 (QDevice, 1);

          d->device = qt->device;
          d->cores = g_hash_table_new (NULL, NULL);
          g_hash_table_insert (state->devices, GINT_TO_POINTER (qt->device), d);
        }
      if (qt->engine != NULL)
        {
          char *key = g_strdup_printf ("%d/%d/%s", qt->device, qt->core, qt->engine);
          guint n = GPOINTER_TO_UINT (g_hash_table_lookup (engine_counts, key));

          g_hash_table_replace (engine_counts, key, GUINT_TO_POINTER (n + 1));
        }
    }

  if (qthreads->len == 0)
    return 0;

  g_ptr_array_sort_with_data (qthreads, tes_chrome_compare_threads, b);

  /* devices in number order, then their cores, then engines */
  {
    GHashTableIter iter;
    gpointer key;

    g_hash_table_iter_init (&iter, state->devices);
    while (g_hash_table_iter_next (&iter, &key, NULL))
      {
        gint device = GPOINTER_TO_INT (key);
        g_array_append_val (device_order, device);
      }
    g_array_sort (device_order, compare_ints);
  }

  for (guint di = 0; di < device_order->len; di++)
    {
      gint device = g_array_index (device_order, gint, di);
      QDevice *d = g_hash_table_lookup (state->devices, GINT_TO_POINTER (device));
      g_autofree char *name = NULL;
      g_autofree char *native = NULL;
      guint dsort = 0;

      name = g_strdup_printf ("QAic device %d", device);
      native = g_strdup_printf ("slice%02d", device);
      d->track_id = tes_chrome_add_track (b, 0, TES_TRACK_DEVICE, name, sort++, native);

      for (guint i = 0; i < qthreads->len; i++)
        {
          TesChromeMergedThread *mt = g_ptr_array_index (qthreads, i);
          QThread *qt = mt->flavour_data;
          gint64 core_track;
          g_autofree char *label = NULL;

          if (qt->device != device)
            continue;

          if (qt->core < 0)
            {
              /* P2P and other per-device threads */
              mt->track_id = tes_chrome_add_track (b, d->track_id, TES_TRACK_THREAD, qt->engine, dsort++,
                                        tes_chrome_text (b, mt->name));
              continue;
            }

          core_track = GPOINTER_TO_SIZE (g_hash_table_lookup (d->cores, GINT_TO_POINTER (qt->core)));
          if (core_track == 0)
            {
              g_autofree char *core_name = g_strdup_printf ("Core %d", qt->core);
              g_autofree char *core_native = g_strdup_printf ("slice%02d_Core_%d", device, qt->core);

              core_track = tes_chrome_add_track (b, d->track_id, TES_TRACK_CORE, core_name, dsort++, core_native);
              g_hash_table_insert (d->cores, GINT_TO_POINTER (qt->core), GSIZE_TO_POINTER (core_track));
            }

          if (qt->engine == NULL)
            {
              /* the core's own thread: its execution envelope */
              mt->track_id = core_track;
              continue;
            }

          {
            g_autofree char *key = g_strdup_printf ("%d/%d/%s", qt->device, qt->core, qt->engine);
            guint n = GPOINTER_TO_UINT (g_hash_table_lookup (engine_counts, key));
            guint nth = GPOINTER_TO_UINT (g_hash_table_lookup (engine_seen, key));

            g_hash_table_replace (engine_seen, g_strdup (key), GUINT_TO_POINTER (nth + 1));
            if (n > 1)
              label = g_strdup_printf ("%s %u", qt->engine, nth);
            else
              label = g_strdup (qt->engine);
          }

          mt->track_id = tes_chrome_add_track (b, core_track, TES_TRACK_THREAD, label, i,
                                                       tes_chrome_text (b, mt->name));
        }
    }

  return g_hash_table_size (state->devices);
}

static char *
strip_dup (const char *s,
           gsize       len)
{
  g_autofree char *text = tes_chrome_value_dup_string (s, len);

  return g_strdup (g_strstrip (text));
}

typedef struct
{
  gint64  track;
  gint64  ts;
  guint32 name;   /* writer id */
} P2PEnd;

/* Operator rows, its device's clock, a sync wait's real length and the
 * P2P ends, from the args of a slice on a device's thread. */
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
  QState *state = b->flavour_data;
  gsize len = sl->args_len;
  const char *name = tes_chrome_strings_get (&part->seg->strings, sl->name);
  const char *v;
  gsize vl;
  QDevice *d;

  if (!mt->claimed || len == 0)
    return;
  d = g_hash_table_lookup (state->devices, GINT_TO_POINTER (((QThread *)mt->flavour_data)->device));

  if (tes_chrome_args_find (args, len, "opKind", &v, &vl))
    {
      g_autofree char *kind = strip_dup (v, vl);

      if (*kind)
        *category = tes_cache_writer_intern (b->writer, kind);
    }

  /* sync waits are written with dur 0; their length is opSyncDurUs */
  if (*dur == 0 && name != NULL && g_str_has_prefix (name, "sync ") &&
      tes_chrome_args_find (args, len, "opSyncDurUs", &v, &vl))
    {
      g_autofree char *text = tes_chrome_value_dup_string (v, vl);
      gint64 ns;

      if (tes_decimal_parse (text, strlen (text), 3, &ns) <= TES_DECIMAL_ROUNDED && ns > 0)
        *dur = ns;
    }

  if (d != NULL && d->mhz == 0 && tes_chrome_args_find (args, len, "effectiveFreq", &v, &vl))
    {
      double mhz;

      if (tes_chrome_value_to_double (v, vl, TRUE, &mhz) && mhz > 0 && mhz < 1e6)
        {
          g_autofree char *clock = g_strdup_printf ("QAic device %d pcycles", d->device);

          d->mhz = mhz;
          d->clock_id = tes_cache_writer_add_clock (b->writer, clock, TES_TIME_UNIT_CYCLES,
                                                    (gint64)llround (mhz * 1e6));
        }
    }

  if (tes_chrome_args_find (args, len, "opPCycle", &v, &vl))
    {
      TesOperatorRow op = TES_OPERATOR_ROW_INIT;
      g_autofree char *op_name = NULL;
      g_autofree char *kind = NULL;
      g_autoptr(GString) extra = g_string_new ("{");
      const char *uv;
      gsize uvl;
      double pc;

      if (tes_chrome_args_find (args, len, "opName", &uv, &uvl))
        op_name = strip_dup (uv, uvl);
      if (tes_chrome_args_find (args, len, "opKind", &uv, &uvl))
        kind = strip_dup (uv, uvl);

      op.source_id = b->context->source_id;
      op.track_id = mt->track_id;
      op.name = op_name && *op_name ? op_name : (name ? name : "");
      op.type = kind && *kind ? kind : (name ? name : "");
      op.count = 1;
      if (tes_chrome_value_to_double (v, vl, TRUE, &pc) && pc >= 0)
        op.total = (gint64)llround (pc);
      op.clock_id = d ? d->clock_id : 0;

      g_string_append_printf (extra, "\"pcycles\":%s", op.total >= 0 ? "" : "null");
      if (op.total >= 0)
        g_string_append_printf (extra, "%" G_GINT64_FORMAT, op.total);
      if (tes_chrome_args_find (args, len, "opUCycle", &uv, &uvl) &&
          tes_chrome_value_to_double (uv, uvl, TRUE, &pc) && pc >= 0)
        g_string_append_printf (extra, ",\"ucycles\":%" G_GINT64_FORMAT, (gint64)llround (pc));
      else
        g_string_append (extra, ",\"ucycles\":null");
      if (tes_chrome_args_find (args, len, "oc", &uv, &uvl))
        {
          g_string_append (extra, ",\"oc\":");
          g_string_append_len (extra, uv, uvl);
        }
      g_string_append_c (extra, '}');
      op.args_json = extra->str;
      tes_cache_writer_add_operator (b->writer, &op);
    }

  /* P2P: a send "a->b" and a receive "b<-a" share a TransactionId */
  if (tes_chrome_args_find (args, len, "PortDescription", &v, &vl))
    {
      g_autofree char *port = strip_dup (v, vl);
      g_autofree char *txid = NULL;
      g_autofree char *key = NULL;
      const char *tv;
      gsize tvl;
      char *arrow;
      gboolean send;

      if (!tes_chrome_args_find (args, len, "TransactionId", &tv, &tvl))
        return;
      txid = strip_dup (tv, tvl);

      if ((arrow = strstr (port, "->")))
        {
          send = TRUE;
          *arrow = '\0';
          key = g_strdup_printf ("%s>%s#%s", port, arrow + 2, txid);
        }
      else if ((arrow = strstr (port, "<-")))
        {
          send = FALSE;
          *arrow = '\0';
          key = g_strdup_printf ("%s>%s#%s", arrow + 2, port, txid);
        }
      else
        return;

      {
        P2PEnd *end = g_new0 (P2PEnd, 1);

        end->track = mt->track_id;
        end->ts = sl->start;
        end->name = tes_chrome_wid (b, tes_chrome_gid (b, part->seg, sl->name));
        g_hash_table_replace (send ? state->p2p : state->p2p_recv, g_steal_pointer (&key), end);
      }
    }
}

static void
write_flows (TesChromeBuilder *b)
{
  QState *state = b->flavour_data;
  GHashTableIter iter;
  gpointer key, value;
  guint32 cat = tes_cache_writer_intern (b->writer, "P2P");

  g_hash_table_iter_init (&iter, state->p2p);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      P2PEnd *from = value;
      P2PEnd *to = g_hash_table_lookup (state->p2p_recv, key);

      if (to == NULL)
        {
          tes_chrome_warn (b, TES_CHROME_W_FLOW_UNMATCHED, G_MAXUINT64);
          continue;
        }
      tes_cache_writer_add_flow (b->writer, from->name, cat, from->track, from->ts, to->track, to->ts);
    }
}

static gboolean
claims_args (const char *args,
             gsize       len)
{
  const char *v;
  gsize vl;

  return tes_chrome_args_find (args, len, "opPCycle", &v, &vl) ||
         tes_chrome_args_find (args, len, "opUCycle", &v, &vl) ||
         tes_chrome_args_find (args, len, "opKind", &v, &vl);
}

/* A thread named QAicGraph_…, or ops in at least half the first events. */
static gboolean
detect (TesChromeBuilder *b,
        guint             n_claimed,
        guint             n_sampled)
{
  for (guint k = 0; k < b->n_segs; k++)
    {
      TesChromeSegment *seg = b->segs[k];

      for (guint i = 0; i < seg->thread_names->len; i++)
        {
          guint32 name = g_array_index (seg->thread_names, guint32, i);

          if (g_str_has_prefix (tes_chrome_strings_get (&seg->strings, name), "QAicGraph_"))
            return TRUE;
        }
    }

  return n_claimed > 0 && n_claimed * 2 >= n_sampled;
}

static void
prepare (TesChromeBuilder *b)
{
  QState *state = g_new0 (QState, 1);

  state->devices = g_hash_table_new_full (NULL, NULL, NULL, qdevice_free);
  state->p2p = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  state->p2p_recv = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  state->threads = g_ptr_array_new_with_free_func (qthread_free);
  b->flavour_data = state;
  b->flavour_data_free = qstate_free;
}

const TesChromeFlavour tes_chrome_flavour_qaic = {
  .title = "Qualcomm qaic-opstats trace",
  .claims_args = claims_args,
  .detect = detect,
  .prepare = prepare,
  .add_tracks = add_tracks,
  .slice = slice,
  .threads_written = write_flows,
};
