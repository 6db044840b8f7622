/* tes-chrome-builder.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-chrome"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tes-chrome-builder-private.h"
#include "tes-chrome-flavour.h"
#include "tes-import-error.h"
#include "tes-info.h"


/* Once the whole file is parsed: joins the segments (B stacks carried
 * across the cuts), matches async and flow events in timestamp order,
 * decides the vendor flavour and the clock, creates the tracks in display
 * order and hands every row to the cache writer, freeing each thread's
 * arrays as soon as they are written. */

/* The vendors' flavours, in the order they are tried. */
static const TesChromeFlavour * const flavours[] = {
  &tes_chrome_flavour_sigmastar,
  &tes_chrome_flavour_qaic,
  &tes_chrome_flavour_poplar,
  &tes_chrome_flavour_kineto,
  &tes_chrome_flavour_onnxruntime,
  &tes_chrome_flavour_tensorflow,
  &tes_chrome_flavour_tf_timeline,
};

/* A trace none of them claims. */
const TesChromeFlavour tes_chrome_flavour_generic = {
  .title = "generic",
};

/* ---- flavour ------------------------------------------------------------- */

G_STATIC_ASSERT (G_N_ELEMENTS (flavours) < TES_CHROME_MAX_FLAVOURS);

/* The first flavour that claims one of the first events' args, or
 * TES_CHROME_MAX_FLAVOURS - 1 for none. The parsing threads ask it as
 * they meet the events, while their args are at hand (read back from the
 * spill, they were a serial 60 ms of a 10M-event import). */
guint
tes_chrome_flavour_claim (const char *args,
                          gsize       len)
{
  for (guint f = 0; f < G_N_ELEMENTS (flavours); f++)
    if (flavours[f]->claims_args != NULL && flavours[f]->claims_args (args, len))
      return f;

  return TES_CHROME_MAX_FLAVOURS - 1;
}

/* Each of the first events of every segment counts for the first flavour
 * that claims its args; then the first flavour that says the trace is its
 * own has it. */
static const TesChromeFlavour *
decide_flavour (TesChromeBuilder *b)
{
  guint claimed[G_N_ELEMENTS (flavours)] = { 0 };
  guint sampled = 0;

  for (guint k = 0; k < b->n_segs; k++)
    {
      sampled += b->segs[k]->n_sampled;
      for (guint f = 0; f < G_N_ELEMENTS (flavours); f++)
        claimed[f] += b->segs[k]->claimed[f];
    }

  for (guint f = 0; f < G_N_ELEMENTS (flavours); f++)
    if (flavours[f]->detect (b, claimed[f], sampled))
      return flavours[f];

  return &tes_chrome_flavour_generic;
}

/* ---- info ---------------------------------------------------------------- */

static const struct
{
  const char *key;
  const char *what;
} warning_text[TES_CHROME_N_WARNINGS] = {
  [TES_CHROME_W_TRUNCATED] = { "warning.truncated", "the file ends without closing its JSON; every complete event was kept" },
  [TES_CHROME_W_PARTIAL_EVENT] = { "warning.partial_event", "event cut off by the end of the file was dropped" },
  [TES_CHROME_W_NOT_OBJECT] = { "warning.not_an_event", "entries of the event array that are not objects were skipped" },
  [TES_CHROME_W_NO_PHASE] = { "warning.no_phase", "events without \"ph\" were skipped" },
  [TES_CHROME_W_UNKNOWN_PHASE] = { "warning.unknown_phase", "events with an unknown \"ph\" were skipped" },
  [TES_CHROME_W_UNSUPPORTED_PHASE] = { "warning.unsupported_phase", "sample, object and context events (P, O/N/D, (/), v/V, c) were skipped" },
  [TES_CHROME_W_NO_TS] = { "warning.no_ts", "events without a valid \"ts\" were skipped" },
  [TES_CHROME_W_BAD_TYPE] = { "warning.bad_type", "fields of the wrong JSON type were ignored" },
  [TES_CHROME_W_RANGE] = { "warning.out_of_range", "events whose ts or dur overflow 64-bit nanoseconds were skipped" },
  [TES_CHROME_W_ROUNDED] = { "warning.rounded", "events had times finer than 1 ns, rounded to the nearest ns" },
  [TES_CHROME_W_NEGATIVE_DUR] = { "warning.negative_dur", "negative durations were clamped to 0 (flagged)" },
  [TES_CHROME_W_E_WITHOUT_B] = { "warning.e_without_b", "E events without a matching B were dropped" },
  [TES_CHROME_W_UNCLOSED] = { "warning.unclosed", "begins without an end were closed at the end of the trace (flagged)" },
  [TES_CHROME_W_ASYNC_UNMATCHED] = { "warning.async_unmatched", "async end or step events without an open begin were dropped" },
  [TES_CHROME_W_FLOW_UNMATCHED] = { "warning.flow_unmatched", "flow steps or ends without a start were dropped" },
  [TES_CHROME_W_COUNTER_VALUE] = { "warning.counter_value", "counter args that are not numbers were skipped" },
};

static void
write_info (TesChromeBuilder *b,
            TesChromeTrace   *trace)
{
  TesCacheWriter *w = b->writer;
  gint64 source = b->context->source_id;
  TesChromeSegment *seg0 = b->segs[0];
  g_autofree char *form = g_strdup_printf ("Chrome Trace Event JSON, %s form%s",
                                           trace->object_form ? "object" : "array",
                                           trace->gzip ? ", gzip" : "");
  g_autofree char *pieces = g_strdup_printf ("%u of %u", b->n_segs, trace->n_planned);

  tes_cache_writer_set_info (w, source, "format", form);
  tes_cache_writer_set_info (w, source, "flavour", b->flavour->title);
  tes_cache_writer_set_info (w, source, "parse_pieces", pieces);

  if (seg0->display_time_unit)
    tes_cache_writer_set_info (w, source, "displayTimeUnit",
                               tes_chrome_strings_get (&seg0->strings, seg0->display_time_unit));

  tes_info_list_write (seg0->info, w, source);

  if (b->clock_source != NULL)
    {
      tes_info_set_int (w, source, "clock_mhz", b->mhz);
      tes_cache_writer_set_info (w, source, "clock_source", b->clock_source);
    }

  {
    guint64 offsets[TES_CHROME_N_WARNINGS];
    guint64 lines[TES_CHROME_N_WARNINGS];
    guint n = 0;

    /* one pass over the file for all the line numbers */
    for (guint i = 0; i < TES_CHROME_N_WARNINGS; i++)
      if (b->warnings[i].count > 0 && b->warnings[i].first_offset != G_MAXUINT64)
        offsets[n++] = b->warnings[i].first_offset;
    tes_chrome_lines_of_offsets (b->context->path, offsets, lines, n);

    n = 0;
    for (guint i = 0; i < TES_CHROME_N_WARNINGS; i++)
      {
        TesChromeWarningCount *wc = &b->warnings[i];
        g_autofree char *text = NULL;

        if (wc->count == 0)
          continue;

        if (wc->first_offset != G_MAXUINT64)
          {
            text = g_strdup_printf ("%" G_GUINT64_FORMAT " %s (first at byte %" G_GUINT64_FORMAT ", line %" G_GUINT64_FORMAT ")",
                                    wc->count, warning_text[i].what, wc->first_offset, lines[n]);
            n++;
          }
        else
          text = g_strdup_printf ("%" G_GUINT64_FORMAT " %s", wc->count, warning_text[i].what);
        tes_cache_writer_set_info (w, source, warning_text[i].key, text);
      }
  }
}

/* ---- entry point ------------------------------------------------------- */

gboolean
tes_chrome_build (TesImportContext  *context,
                  TesChromeTrace    *trace,
                  GError           **error)
{
  TesChromeBuilder builder = { 0 };
  TesChromeBuilder *b = &builder;
  guint64 n_events = 0;
  gboolean ok = FALSE;
  double cpu[3];

  b->context = context;
  b->writer = context->writer;
  b->segs = (TesChromeSegment **)trace->segments->pdata;
  b->n_segs = trace->n_valid;
  tes_chrome_gids_init (&b->gids, b->n_segs);
  b->wids = g_array_new (FALSE, TRUE, sizeof (guint32));
  b->process_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  b->processes = g_ptr_array_new_with_free_func (tes_chrome_merged_process_free);
  b->thread_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, tes_chrome_merged_thread_free);
  b->async_tracks = g_ptr_array_new_with_free_func (tes_chrome_async_track_free);
  b->global_asyncs = g_ptr_array_new ();
  b->counters = g_ptr_array_new_with_free_func (tes_chrome_merged_counter_free);
  b->flows = g_array_new (FALSE, FALSE, sizeof (TesChromeFlow));

  for (guint k = 0; k < b->n_segs; k++)
    n_events += b->segs[k]->n_events;

  if (n_events == 0)
    {
      tes_import_fail (error, TES_IMPORT_ERROR_EMPTY, context->path,
                       _("no trace events (expected an array of events or {\"traceEvents\": [...]})"));
      goto out;
    }

  if (context->progress != NULL)
    tes_progress_update (context->progress, 0.86, _("Matching events"));

  cpu[0] = tes_chrome_thread_cpu ();
  tes_chrome_builder_merge (b);
  tes_chrome_builder_match_async (b);
  cpu[1] = tes_chrome_thread_cpu ();
  tes_chrome_builder_merge_counters (b);
  tes_chrome_builder_mark_instants (b);

  b->flavour = decide_flavour (b);
  if (b->flavour->prepare != NULL)
    b->flavour->prepare (b);
  cpu[2] = tes_chrome_thread_cpu ();

  if (b->clock_source != NULL)
    b->clock_id = tes_cache_writer_add_clock (b->writer, "IPU cycles", TES_TIME_UNIT_CYCLES, b->mhz * 1000000);
  else
    b->clock_id = tes_cache_writer_add_clock (b->writer, b->clock_name ? b->clock_name : "ts", TES_TIME_UNIT_NS, 1000000000);

  if (g_cancellable_set_error_if_cancelled (context->cancellable, error))
    goto out;

  if (context->progress != NULL)
    tes_progress_update (context->progress, 0.9, _("Writing rows"));

  tes_chrome_builder_add_tracks (b);
  tes_chrome_builder_write_rows (b);
  if (b->flavour->rows_written != NULL)
    b->flavour->rows_written (b);
  write_info (b, trace);
  g_debug ("%s: CPU of the build's steps: merge and async %.3f s, counters, instants and "
           "flavour %.3f s, rows %.3f s", context->path,
           cpu[1] - cpu[0], cpu[2] - cpu[1], tes_chrome_thread_cpu () - cpu[2]);

  for (guint i = 0; i < trace->spills->len; i++)
    if (!tes_chrome_spill_check (g_ptr_array_index (trace->spills, i), error))
      {
        g_prefix_error (error, "%s: ", context->path);
        goto out;
      }

  ok = TRUE;

out:
  /* the match reads the segments: waited for before they can go */
  tes_chrome_builder_flows_matched (b);
  if (b->flavour_data_free != NULL)
    g_clear_pointer (&b->flavour_data, b->flavour_data_free);
  g_clear_pointer (&b->clock_name, g_free);
  tes_chrome_gids_clear (&b->gids);
  g_array_unref (b->wids);
  g_hash_table_unref (b->process_index);
  g_hash_table_unref (b->thread_index);
  g_ptr_array_unref (b->processes);
  g_ptr_array_unref (b->global_asyncs);
  g_ptr_array_unref (b->async_tracks);
  g_ptr_array_unref (b->counters);
  g_array_unref (b->flows);

  return ok;
}
