/* tes-chrome-rows.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-chrome"

#include "config.h"

#include "tes-chrome-builder-private.h"
#include "tes-chrome-flavour.h"

#include <string.h>

/* Hands every row to the cache writer: each thread's slices merged in
 * start order from its parts (then freed), the async tracks, instants,
 * counter values and flows, in the clock's ticks. */

/* A sorted run of one part of a thread: slices in memory, or read back
 * from the spill file a block at a time (reader). */
typedef struct
{
  const TesChromeSlice *cur;
  const TesChromeSlice *end;
  TesChromePart        *part;
  TesChromeSpillRun    *reader;     /* NULL: in memory */
  GString              *scratch;
} Run;

/* The slice's args text, valid until the next one's. Slices the merge
 * added to a spilled thread may point into its spilled texts (a B left
 * open), which tes_chrome_thread_args() reads back. */
static const char *
run_args (const Run            *run,
          const TesChromeSlice *sl)
{
  if (sl->args_len == 0)
    return NULL;
  if (run->reader != NULL)
    return tes_chrome_spill_run_args (run->reader, sl->args_off, sl->args_len);

  return tes_chrome_thread_args (run->part->thread, sl->args_off, sl->args_len, run->scratch);
}

/* Whether the run has a slice at cur, reading its next block if need be. */
static gboolean
run_fill (Run *run)
{
  guint n;

  if (run->cur < run->end)
    return TRUE;
  if (run->reader == NULL || !(run->cur = tes_chrome_spill_run_next (run->reader, &n)))
    return FALSE;
  run->end = run->cur + n;

  return TRUE;
}

static void
write_one (TesChromeBuilder      *b,
           TesChromeMergedThread *mt,
           const Run             *run)
{
  const TesChromeSlice *sl = run->cur;
  const char *args = run_args (run, sl);
  gint64 start = sl->start;
  gint64 dur = sl->dur;
  guint32 category = tes_chrome_wid (b, tes_chrome_gid (b, run->part->seg, sl->cat));
  gint64 track = mt->track_id;

  if (b->flavour->slice != NULL)
    b->flavour->slice (b, mt, run->part, sl, args, &start, &dur, &category);
  if (b->flavour->slice_track != NULL)
    track = b->flavour->slice_track (b, mt);

  tes_cache_writer_add_slice (b->writer, track, start, dur,
                              tes_chrome_wid (b, tes_chrome_gid (b, run->part->seg, sl->name)), category, sl->flags,
                              args, sl->args_len);
}

static gboolean
run_before (const Run *a,
            const Run *b)
{
  int c = tes_chrome_slice_compare (a->cur, b->cur);

  /* equal slices: the earlier part of the file first */
  return c < 0 || (c == 0 && a < b);
}

static void
sift_down (Run   **heap,
           guint   n,
           guint   i)
{
  for (;;)
    {
      guint l = 2 * i + 1;
      guint m = i;
      Run *tmp;

      if (l < n && run_before (heap[l], heap[m]))
        m = l;
      if (l + 1 < n && run_before (heap[l + 1], heap[m]))
        m = l + 1;
      if (m == i)
        return;
      tmp = heap[i];
      heap[i] = heap[m];
      heap[m] = tmp;
      i = m;
    }
}

/* k-way merge of the sorted runs with a binary heap; the run on top keeps
 * emitting while it is ahead of both children, so runs that do not
 * overlap in time (the usual case) cost one comparison per slice. */
static void
merge_runs (TesChromeBuilder      *b,
            TesChromeMergedThread *mt,
            Run                   *runs,
            guint                  n_runs)
{
  g_autofree Run **heap = g_new (Run *, MAX (n_runs, 1));
  guint n = 0;

  for (guint r = 0; r < n_runs; r++)
    if (run_fill (&runs[r]))
      heap[n++] = &runs[r];

  for (gint i = (gint)n / 2 - 1; i >= 0; i--)
    sift_down (heap, n, i);

  while (n > 0)
    {
      Run *top = heap[0];
      Run *next = NULL;
      gboolean more;

      if (n > 1)
        next = (n > 2 && run_before (heap[2], heap[1])) ? heap[2] : heap[1];

      do
        {
          write_one (b, mt, top);
          top->cur++;
        }
      while ((more = run_fill (top)) && (next == NULL || run_before (top, next)));

      if (!more)
        heap[0] = heap[--n];
      sift_down (heap, n, 0);
    }
}

/* Each part holds a sorted run (sorted by its parsing thread, and waiting
 * in the spill file when it was spilled) and maybe a few slices the merge
 * added; handing them over merged in start order lets the writer skip its
 * own sort, and reading spilled runs a block at a time keeps what the
 * builder holds the same whatever the size of the thread. */
static void
write_thread (TesChromeBuilder      *b,
              TesChromeMergedThread *mt)
{
  g_autoptr(GArray) runs = g_array_new (FALSE, FALSE, sizeof (Run));
  g_autoptr(GString) scratch = g_string_new (NULL);

  for (guint pi = 0; pi < mt->parts->len; pi++)
    {
      TesChromePart *part = &g_array_index (mt->parts, TesChromePart, pi);
      TesChromeThread *t = part->thread;
      GArray *slices = t->slices;
      TesChromeSlice *data = (TesChromeSlice *)(gpointer)slices->data;
      guint sorted = 0;

      if (t->spill != NULL)
        {
          /* the spilled slices, sorted; the merge's follow in memory */
          Run head = { NULL, NULL, part, tes_chrome_spill_run_new (t), scratch };

          g_array_append_val (runs, head);
        }
      else
        sorted = MIN (t->n_sorted, slices->len);

      if (sorted > 0)
        {
          Run head = { data, data + sorted, part, NULL, scratch };

          g_array_append_val (runs, head);
        }
      if (slices->len > sorted)
        {
          Run tail = { data + sorted, data + slices->len, part, NULL, scratch };

          g_qsort_with_data (data + sorted, slices->len - sorted, sizeof (TesChromeSlice),
                             (GCompareDataFunc)(gpointer)tes_chrome_slice_compare, NULL);
          g_array_append_val (runs, tail);
        }
    }

  merge_runs (b, mt, (Run *)(gpointer)runs->data, runs->len);

  for (guint r = 0; r < runs->len; r++)
    tes_chrome_spill_run_free (g_array_index (runs, Run, r).reader);
}

/* Frees the per-thread arrays once their rows are in the writer, so that
 * the peak is one copy of the slices, not two. */
static void
release_thread (TesChromeMergedThread *mt)
{
  for (guint pi = 0; pi < mt->parts->len; pi++)
    {
      TesChromeThread *t = g_array_index (mt->parts, TesChromePart, pi).thread;

      tes_chrome_thread_drop_spilled (t);
      tes_chrome_thread_release_arrays (t, NULL);
    }
}

void
tes_chrome_builder_write_rows (TesChromeBuilder *b)
{
  g_autoptr(GPtrArray) threads = tes_chrome_list_threads (b);
  g_autoptr(GString) buf = g_string_new (NULL);
  g_autoptr(GHashTable) left = g_hash_table_new (g_int64_hash, g_int64_equal);

  /* how many threads still write into each track (a flavour may put
   * several on one): the writer stores a track whole once it is closed */
  for (guint i = 0; i < threads->len; i++)
    {
      TesChromeMergedThread *mt = g_ptr_array_index (threads, i);

      if (mt->track_id != 0)
        g_hash_table_insert (left, &mt->track_id,
                             GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (left, &mt->track_id)) + 1));
    }

  for (guint i = 0; i < threads->len; i++)
    {
      TesChromeMergedThread *mt = g_ptr_array_index (threads, i);
      guint n_left;

      if (mt->track_id == 0)
        continue;

      if (b->flavour->write_thread != NULL)
        {
          for (guint pi = 0; pi < mt->parts->len; pi++)
            tes_chrome_thread_load (g_array_index (mt->parts, TesChromePart, pi).thread);
          b->flavour->write_thread (b, mt);
        }
      else
        write_thread (b, mt);
      release_thread (mt);

      n_left = GPOINTER_TO_UINT (g_hash_table_lookup (left, &mt->track_id)) - 1;
      g_hash_table_insert (left, &mt->track_id, GUINT_TO_POINTER (n_left));
      if (n_left == 0)
        tes_cache_writer_close_track (b->writer, mt->track_id);
    }

  /* The flows are matched on a thread of their own from here to their
   * rows, beside the flavour's threads_written() (the Kineto flavour's
   * operator rows), when the threads' slices no longer keep the second
   * core busy with packing their chunks. */
  tes_chrome_builder_match_flows (b);
  if (b->flavour->threads_written != NULL)
    {
      double cpu0 = tes_chrome_thread_cpu ();

      b->flavour->threads_written (b);
      g_debug ("%s: the flavour's threads_written in %.3f s of CPU", b->context->path,
               tes_chrome_thread_cpu () - cpu0);
    }

  for (guint i = 0; i < b->async_tracks->len; i++)
    {
      TesChromeAsyncTrack *t = g_ptr_array_index (b->async_tracks, i);

      for (guint s = 0; s < t->slices->len; s++)
        {
          TesChromeSlice *sl = &g_array_index (t->slices, TesChromeSlice, s);

          tes_cache_writer_add_slice (b->writer, t->track_id, tes_chrome_ticks (b, sl->start),
                                      tes_chrome_ticks (b, sl->start + sl->dur) - tes_chrome_ticks (b, sl->start),
                                      tes_chrome_wid (b, sl->name), tes_chrome_wid (b, sl->cat), sl->flags,
                                      sl->args_len ? t->args->str + sl->args_off : NULL, sl->args_len);
        }
      tes_cache_writer_close_track (b->writer, t->track_id);
      for (guint s = 0; s < t->instants->len; s++)
        {
          TesChromeInstant *inst = &g_array_index (t->instants, TesChromeInstant, s);

          g_string_truncate (buf, 0);
          g_string_append_len (buf, t->args->str + inst->args_off, inst->args_len);
          tes_cache_writer_add_instant (b->writer, t->track_id, tes_chrome_ticks (b, inst->ts),
                                        tes_chrome_wid (b, inst->name), tes_chrome_wid (b, inst->cat),
                                        TES_INSTANT_SCOPE_THREAD, inst->args_len ? buf->str : NULL);
        }
    }

  for (guint k = 0; k < b->n_segs; k++)
    {
      TesChromeSegment *seg = b->segs[k];

      for (guint i = 0; i < seg->instants->len; i++)
        {
          TesChromeInstant *inst = &g_array_index (seg->instants, TesChromeInstant, i);
          gint64 track;
          TesInstantScope scope;

          if (inst->scope == 't')
            {
              track = ((TesChromeMergedThread *)inst->thread->merged)->track_id;
              scope = TES_INSTANT_SCOPE_THREAD;
            }
          else if (inst->scope == 'p')
            {
              track = ((TesChromeMergedProcess *)inst->process->merged)->track_id;
              scope = TES_INSTANT_SCOPE_PROCESS;
            }
          else
            {
              track = b->global_track;
              scope = TES_INSTANT_SCOPE_GLOBAL;
            }

          g_string_truncate (buf, 0);
          g_string_append_len (buf, seg->misc->str + inst->args_off, inst->args_len);
          tes_cache_writer_add_instant (b->writer, track, tes_chrome_ticks (b, inst->ts),
                                        tes_chrome_wid (b, tes_chrome_gid (b, seg, inst->name)),
                                        tes_chrome_wid (b, tes_chrome_gid (b, seg, inst->cat)),
                                        scope, inst->args_len ? buf->str : NULL);
        }
    }

  for (guint i = 0; i < b->counters->len; i++)
    {
      TesChromeMergedCounter *c = g_ptr_array_index (b->counters, i);
      gint64 track = c->track_id;

      for (guint v = 0; v < c->values->len; v++)
        {
          GArray *values = g_ptr_array_index (c->values, v);

          for (guint j = 0; j < values->len; j++)
            {
              TesChromeCounterValue *cv = &g_array_index (values, TesChromeCounterValue, j);

              tes_cache_writer_add_counter_value (b->writer, track, tes_chrome_ticks (b, cv->ts), cv->value);
            }
        }
    }

  tes_chrome_builder_flows_matched (b);
  for (guint i = 0; i < b->flows->len; i++)
    {
      TesChromeFlow *f = &g_array_index (b->flows, TesChromeFlow, i);

      tes_cache_writer_add_flow (b->writer, tes_chrome_wid (b, tes_chrome_gid (b, f->seg, f->name)),
                                 tes_chrome_wid (b, tes_chrome_gid (b, f->seg, f->cat)),
                                 f->from->track_id, tes_chrome_ticks (b, f->from_ts),
                                 f->to->track_id, tes_chrome_ticks (b, f->to_ts));
    }
}

