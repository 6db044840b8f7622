/* tes-qaic-stats-importer.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-qaic-stats"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tes-info.h"
#include "tes-line-reader.h"
#include "tes-qaic-stats-importer.h"
#include "tes-qaic-stats-private.h"
#include "tes-text.h"

#include <math.h>
#include <string.h>

/* Qualcomm Cloud AI 100 per-core statistics text, as written by
 * `qaic-runner --aic-profiling-type stats` (aic-profiling-program-P-
 * activation-A-inf-I.txt) and by `qaic-opstats --summary`
 * (*.qaic-opstats.summary.txt, which starts with "Specialization: NAME").
 * Both print, per NSP core:
 *
 *   core  ucycles  ucycles(%)  pcycles  pcycles(%)  count  out KB  …  opdetails
 *   c0     244552      55.00%  15612581    54.67%   1081 525124.00 … aicconvolutiond32 HMX TCM (float16, i8, index32)
 *   c0 total:   444672 ucycles   28559104 pcycles (thread max)
 *   c0    t0 HVX   444602 ucycles [9803252406782, 9803252851384]   28554461 pcycles  59.72% utilization
 *   c00t0 batch ucycles:   444602 [9803252406782,9803252851384]    pcycles:   28554461
 *   c0: Total inference pcycle is 28559169
 *   c0: Effective frequency is 1233.12MHz
 *   c00t0p100 Host_IO_Port ucycles:   30711
 *   c00t0 activate ucycles:   4386
 *
 * and a trailer: "total batch ucycles: N [start, end]", "[NET] Device
 * instance batch/s: (1/T): R", "… inf/s: …", "max input|output wait
 * ucycles: N". The whole file is read before anything is written, so the
 * operator percentages can be checked against the file's own total lines.
 *
 * ucycles count the 19.2 MHz timer that also stamps the [start, end]
 * spans (total batch ucycles / the trailer's batch seconds = 19.2 MHz in
 * every file we have); pcycles count the core clock whose frequency the
 * file prints per core. */

#define UCYCLES_PER_SECOND G_GINT64_CONSTANT (19200000)

struct _TesQaicStatsImporter
{
  TesImporter parent_instance;
};

G_DEFINE_FINAL_TYPE (TesQaicStatsImporter, tes_qaic_stats_importer, TES_TYPE_IMPORTER)

static int
compare_cores (gconstpointer a,
               gconstpointer b)
{
  const TesQaicCore *ca = *(TesQaicCore * const *)a;
  const TesQaicCore *cb = *(TesQaicCore * const *)b;

  return (ca->number > cb->number) - (ca->number < cb->number);
}

static int
compare_threads (gconstpointer a,
                 gconstpointer b)
{
  const TesQaicThreadRow *ta = a;
  const TesQaicThreadRow *tb = b;

  return (ta->number > tb->number) - (ta->number < tb->number);
}

static void
write_core (TesQaicStatsParser *p,
            TesQaicCore        *core,
            gint64              device,
            gint64              clock)
{
  TesCacheWriter *w = p->context->writer;
  gint64 source = p->context->source_id;
  g_autofree char *name = g_strdup_printf ("Core %u", core->number);
  g_autofree char *native = g_strdup_printf ("c%u", core->number);
  g_autoptr(GHashTable) per_engine = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  guint32 slice_name = tes_cache_writer_intern (w, "inference");
  gint64 track;

  track = tes_cache_writer_add_track (w, device, source, clock, TES_TRACK_CORE, name, core->number, native);

  g_array_sort (core->threads, compare_threads);
  for (guint i = 0; i < core->threads->len; i++)
    {
      const TesQaicThreadRow *t = &g_array_index (core->threads, TesQaicThreadRow, i);
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (per_engine, t->engine));

      g_hash_table_insert (per_engine, t->engine, GUINT_TO_POINTER (n + 1));
    }

  /* Thread tracks named like the Chrome importer names qaic-opstats
   * threads: "HVX 0" … "HVX 3" when a core has several threads of one
   * engine, else the engine alone. */
  for (guint i = 0; i < core->threads->len; i++)
    {
      const TesQaicThreadRow *t = &g_array_index (core->threads, TesQaicThreadRow, i);
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (per_engine, t->engine));
      guint k = GPOINTER_TO_UINT (g_hash_table_lookup (seen, t->engine));
      g_autofree char *thread_name = n > 1 ? g_strdup_printf ("%s %u", t->engine, k) : g_strdup (t->engine);
      g_autofree char *thread_native = g_strdup_printf ("c%ut%u", core->number, t->number);
      g_autoptr(GString) args = g_string_new (NULL);
      gint64 thread;

      g_hash_table_insert (seen, t->engine, GUINT_TO_POINTER (k + 1));

      thread = tes_cache_writer_add_track (w, track, source, clock, TES_TRACK_THREAD, thread_name,
                                           t->number, thread_native);

      g_string_append_printf (args, "{\"core\":\"c%u\",\"thread\":\"t%u\",\"engine\":", core->number, t->number);
      tes_qaic_stats_append_json_string (args, t->engine);
      g_string_append_printf (args,
                              ",\"ucycles\":%" G_GINT64_FORMAT ",\"pcycles\":%" G_GINT64_FORMAT
                              ",\"utilization(%%)\":%s,\"line\":%u}",
                              t->ucycles, t->pcycles, t->utilization, t->line);
      tes_cache_writer_add_slice (w, thread, t->start, t->end - t->start, slice_name,
                                  tes_cache_writer_intern (w, t->engine), TES_SLICE_FLAG_NONE,
                                  args->str, args->len);
    }

  for (guint i = 0; i < core->ops->len; i++)
    {
      const TesQaicOpRow *row = g_ptr_array_index (core->ops, i);
      TesOperatorRow op = TES_OPERATOR_ROW_INIT;

      op.source_id = source;
      op.track_id = track;
      op.name = row->label;
      op.type = row->label;
      op.count = row->count;
      op.total = row->ucycles;
      op.clock_id = clock;
      op.share = row->ucycles_pct;
      op.args_json = row->args;
      tes_cache_writer_add_operator (w, &op);
    }
}

/* ------------------------------------------------------------------ */

static guint
tes_qaic_stats_importer_sniff (TesImporter  *importer,
                               const guint8 *head,
                               gsize         head_len,
                               const char   *basename)
{
  TesLineReader reader;
  const char *line;
  gsize len;
  gboolean not_text;
  gboolean header = FALSE;
  guint known = 0;
  guint core_lines = 0;
  guint unknown = 0;
  guint score;

  /* a JSON trace's head is thousands of short lines: never classify them */
  if (tes_head_is_json (head, head_len))
    return 0;

  tes_line_reader_init_for_head (&reader, head, head_len);

  while (tes_line_reader_next_text (&reader, &line, &len, &not_text))
    {
      g_autofree char *text = g_strndup (line, tes_trimmed_length (line, len));
      TesQaicLineKind kind = tes_qaic_stats_classify (text);

      if (kind == TES_QAIC_LINE_UNKNOWN)
        {
          unknown++;
          continue;
        }

      known++;
      if (kind == TES_QAIC_LINE_HEADER && tes_qaic_stats_is_header (text) && strstr (text, "ucycles") != NULL)
        header = TRUE;
      if (kind == TES_QAIC_LINE_TOTAL || kind == TES_QAIC_LINE_THREAD || kind == TES_QAIC_LINE_BATCH ||
          kind == TES_QAIC_LINE_OP)
        core_lines++;
    }

  if (not_text || known < 3 || core_lines == 0)
    return 0;

  if (header && unknown <= known)
    score = 95;
  else if (core_lines >= 3 && unknown * 2 <= known)
    score = 70;
  else
    return 0;

  if (basename != NULL && (strstr (basename, "aic-profiling") || strstr (basename, "opstats")))
    score += 5;

  return score;
}

static gboolean
tes_qaic_stats_importer_import (TesImporter       *importer,
                                TesImportContext  *context,
                                GError           **error)
{
  g_auto(TesLineReader) reader = { 0 };
  g_auto(TesQaicStatsParser) p = { 0 };
  g_autoptr(GPtrArray) cores = NULL;
  TesCacheWriter *w = context->writer;
  GHashTableIter iter;
  gpointer value;
  const char *line;
  gsize len;
  const char *device_name;
  gint64 clock, device;
  guint n_ops = 0;

  p.context = context;
  p.cores = g_hash_table_new_full (NULL, NULL, NULL, tes_qaic_stats_core_free);
  p.info = tes_info_list_new ();
  p.warnings = tes_info_list_new ();

  if (!tes_line_reader_init (&reader, context->path, error))
    return FALSE;

  while (tes_line_reader_next (&reader, &line, &len))
    {
      g_autofree char *text = NULL;
      gsize tlen = tes_trimmed_length (line, len);
      TesQaicLineKind kind;

      if (!tes_line_reader_check_text (&reader, context->path, line, len, error))
        return FALSE;

      if (tlen == 0)
        continue;

      text = g_strndup (line, tlen);
      kind = tes_qaic_stats_classify (text);

      if (kind == TES_QAIC_LINE_UNKNOWN)
        {
          tes_line_note_add (&p.unknown, reader.line_no, text, tlen);
          continue;
        }

      p.n_known++;
      if (kind == TES_QAIC_LINE_OP
          ? !tes_qaic_stats_parse_op_row (&p, reader.line_no, line, len, text, error)
          : !tes_qaic_stats_parse_line (&p, reader.line_no, kind, text, error))
        {
          tes_line_reader_note_cut (&reader, context->path, error);
          return FALSE;
        }

      if (!tes_line_reader_tick (&reader, context, 0.9, error))
        return FALSE;
    }

  if (g_hash_table_size (p.cores) == 0)
    return tes_import_fail_nothing (error, context->path, _("qaic per-core statistics"), &p.unknown,
                                    _("no qaic per-core statistics in the file; the first line that is not is"));

  cores = g_ptr_array_new ();
  g_hash_table_iter_init (&iter, p.cores);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (cores, value);
  g_ptr_array_sort (cores, compare_cores);

  for (guint i = 0; i < cores->len; i++)
    {
      TesQaicCore *core = g_ptr_array_index (cores, i);

      if (!tes_qaic_stats_check_core (&p, core, reader.line_no, error))
        return FALSE;
      n_ops += core->ops->len;
    }

  if (!p.has_total_batch)
    {
      g_autofree char *text = g_strdup_printf ("the file ends (line %u) without the 'total batch ucycles' "
                                               "trailer; it may be truncated", reader.line_no);

      tes_info_list_add (p.warnings, g_strdup ("warning.no_trailer"), text);
    }

  if (p.unknown.count > 0)
    {
      g_autofree char *text = tes_line_note_skipped (&p.unknown);

      tes_info_list_add (p.warnings, g_strdup ("warning.skipped_lines"), text);
    }

  /* Write */
  device_name = p.specialization ? p.specialization : p.network ? p.network : "QAic";
  clock = tes_cache_writer_add_clock (w, "QAic ucycles (19.2 MHz)", TES_TIME_UNIT_CYCLES, UCYCLES_PER_SECOND);
  device = tes_cache_writer_add_track (w, 0, context->source_id, clock, TES_TRACK_DEVICE,
                                       device_name, 0, device_name);

  if (p.has_total_batch)
    {
      g_autofree char *args = g_strdup_printf ("{\"ucycles\":%" G_GINT64_FORMAT "}", p.batch_ucycles);

      tes_cache_writer_add_slice (w, device, p.batch_start, p.batch_end - p.batch_start,
                                  tes_cache_writer_intern (w, "total batch"),
                                  tes_cache_writer_intern (w, "batch"),
                                  TES_SLICE_FLAG_NONE, args, -1);
    }

  for (guint i = 0; i < cores->len; i++)
    write_core (&p, g_ptr_array_index (cores, i), device, clock);

  if (p.specialization != NULL)
    tes_cache_writer_set_info (w, context->source_id, "specialization", p.specialization);
  if (p.network != NULL)
    tes_cache_writer_set_info (w, context->source_id, "network", p.network);
  tes_info_set_int (w, context->source_id, "cores", cores->len);
  tes_info_set_int (w, context->source_id, "operator_rows", n_ops);
  tes_cache_writer_set_info (w, context->source_id, "clock.ucycles_hz", "19200000");

  tes_info_list_write (p.info, w, context->source_id);
  tes_info_list_write (p.warnings, w, context->source_id);

  return TRUE;
}

static void
tes_qaic_stats_importer_class_init (TesQaicStatsImporterClass *klass)
{
  TesImporterClass *importer_class = TES_IMPORTER_CLASS (klass);

  importer_class->name = "qaic-stats";
  importer_class->title = "Qualcomm qaic-runner stats / qaic-opstats summary";
  importer_class->version = 1;
  importer_class->sniff = tes_qaic_stats_importer_sniff;
  importer_class->import = tes_qaic_stats_importer_import;
}

static void
tes_qaic_stats_importer_init (TesQaicStatsImporter *self)
{
}
