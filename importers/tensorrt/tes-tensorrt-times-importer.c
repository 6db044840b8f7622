/* tes-tensorrt-times-importer.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-tensorrt-times"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tes-decimal.h"
#include "tes-import-error.h"
#include "tes-info.h"
#include "tes-line-reader.h"
#include "tes-tensorrt-records.h"
#include "tes-tensorrt-times-importer.h"

#include <string.h>

/* What `trtexec --exportTimes=FILE` writes: one record per timed
 * inference, times in ms from the start of the run.
 *
 * TensorRT 8 and later:
 *   { "startEnqMs" : 12.6384, "endEnqMs" : 12.7482, "startH2dMs" : 12.5399, "endH2dMs" : 12.5399,
 *     "startComputeMs" : 12.5399, "endComputeMs" : 12.9989, "startD2hMs" : 12.9989,
 *     "endD2hMs" : 12.9989, "h2dMs" : 0, "computeMs" : 0.459041, "d2hMs" : 0, "latencyMs" : 0.459041 }
 * TensorRT 7 named the transfers In and Out (startInMs, endOutMs, inMs,
 * outMs) and added endToEndMs.
 *
 * Each inference becomes a run "Inference N" from the start of its input
 * copy to the end of its output copy (trtexec's latency), and a slice on
 * each of the lanes Enqueue, H2D, Compute and D2H of a "trtexec" device;
 * a phase that took no time (no copies under --noDataTransfers) has no
 * slice. The Compute slice carries the record as printed. */

struct _TesTensorrtTimesImporter
{
  TesImporter parent_instance;
};

G_DEFINE_FINAL_TYPE (TesTensorrtTimesImporter, tes_tensorrt_times_importer, TES_TYPE_IMPORTER)

typedef struct
{
  const char *lane;
  const char *start[2];   /* TensorRT 8 key, TensorRT 7 key */
  const char *end[2];
} Phase;

enum { PHASE_ENQUEUE, PHASE_H2D, PHASE_COMPUTE, PHASE_D2H, N_PHASES };

static const Phase phases[N_PHASES] = {
  { "Enqueue", { "startEnqMs", NULL }, { "endEnqMs", NULL } },
  { "H2D", { "startH2dMs", "startInMs" }, { "endH2dMs", "endInMs" } },
  { "Compute", { "startComputeMs", NULL }, { "endComputeMs", NULL } },
  { "D2H", { "startD2hMs", "startOutMs" }, { "endD2hMs", "endOutMs" } },
};

static guint
tes_tensorrt_times_importer_sniff (TesImporter  *importer,
                                   const guint8 *head,
                                   gsize         head_len,
                                   const char   *basename)
{
  static const char *keys[] = { "startComputeMs", "endComputeMs", "computeMs", "latencyMs" };
  guint found = tes_trt_sniff (head, head_len, keys, G_N_ELEMENTS (keys));

  if (found == G_N_ELEMENTS (keys))
    return 100;
  if (found >= 2)
    return 60;

  return 0;
}

/* The first of @keys the record has, as ns; FALSE without error when it
 * has none. */
static gboolean
read_time (TesTrtRecords       *records,
           const char * const  *keys,
           gint64              *ns,
           guint               *n_rounded,
           gboolean            *found,
           GError             **error)
{
  *found = FALSE;

  for (guint i = 0; i < 2 && keys[i]; i++)
    {
      const TesTrtMember *member;

      if (!tes_trt_records_number (records, keys[i], FALSE, &member, error))
        return FALSE;
      if (member == NULL)
        continue;

      switch (tes_decimal_parse (member->value, member->len, 6, ns))
        {
        case TES_DECIMAL_ROUNDED:
          (*n_rounded)++;
          G_GNUC_FALLTHROUGH;
        case TES_DECIMAL_OK:
          *found = TRUE;
          return TRUE;
        case TES_DECIMAL_RANGE:
        case TES_DECIMAL_INVALID:
        default:
          records->pos = records->offset;
          return tes_trt_records_fail (records, error, TES_IMPORT_ERROR_INVALID,
                                       _("\"%s\" (%s ms) is out of range"), keys[i], member->value);
        }
    }

  return TRUE;
}

static gboolean
tes_tensorrt_times_importer_import (TesImporter       *importer,
                                    TesImportContext  *context,
                                    GError           **error)
{
  TesCacheWriter *w = context->writer;
  g_auto(TesLineReader) reader = { 0 };
  g_auto(TesTrtRecords) records = { 0 };
  g_autoptr(GString) args = g_string_new (NULL);
  gint64 lanes[N_PHASES];
  guint32 names[N_PHASES];
  guint32 category;
  guint n_rounded = 0;
  guint n = 0;
  TesTrtNext next;
  gint64 clock, device;

  if (!tes_line_reader_init (&reader, context->path, error))
    return FALSE;

  tes_trt_records_init (&records, context->path, reader.data, reader.len);

  clock = tes_cache_writer_add_clock (w, "trtexec time (ns)", TES_TIME_UNIT_NS, 1000000000);
  device = tes_cache_writer_add_track (w, 0, context->source_id, clock, TES_TRACK_DEVICE, "trtexec", 0, NULL);
  for (guint p = 0; p < N_PHASES; p++)
    {
      lanes[p] = tes_cache_writer_add_track (w, device, context->source_id, clock, TES_TRACK_LANE,
                                             phases[p].lane, p, NULL);
      names[p] = tes_cache_writer_intern (w, phases[p].lane);
    }
  category = tes_cache_writer_intern (w, "trtexec");

  while ((next = tes_trt_records_next (&records, error)) == TES_TRT_RECORD)
    {
      gint64 start[N_PHASES], end[N_PHASES];
      gboolean has[N_PHASES];
      gint64 run_start, run_end;
      g_autofree char *run_name = NULL;

      for (guint p = 0; p < N_PHASES; p++)
        {
          gboolean has_end;

          if (!read_time (&records, phases[p].start, &start[p], &n_rounded, &has[p], error) ||
              !read_time (&records, phases[p].end, &end[p], &n_rounded, &has_end, error))
            return FALSE;

          if (has[p] != has_end || (p == PHASE_COMPUTE && !has[p]))
            {
              const char *key = !has[p] ? phases[p].start[0] : phases[p].end[0];

              records.pos = records.offset;
              return tes_trt_records_fail (&records, error, TES_IMPORT_ERROR_INVALID, _("no \"%s\""), key);
            }
          if (has[p] && end[p] < start[p])
            {
              records.pos = records.offset;
              return tes_trt_records_fail (&records, error, TES_IMPORT_ERROR_INVALID,
                                           _("\"%s\" is before \"%s\""), phases[p].end[0], phases[p].start[0]);
            }
        }

      n++;
      g_string_truncate (args, 0);
      tes_trt_append_args (args, &records, NULL);
      for (guint p = 0; p < N_PHASES; p++)
        if (has[p] && end[p] > start[p])
          tes_cache_writer_add_slice (w, lanes[p], start[p], end[p] - start[p], names[p], category,
                                      TES_SLICE_FLAG_NONE, p == PHASE_COMPUTE ? args->str : NULL,
                                      p == PHASE_COMPUTE ? (gssize)args->len : 0);

      /* trtexec's latency: input copy to output copy */
      run_start = has[PHASE_H2D] ? MIN (start[PHASE_H2D], start[PHASE_COMPUTE]) : start[PHASE_COMPUTE];
      run_end = has[PHASE_D2H] ? MAX (end[PHASE_D2H], end[PHASE_COMPUTE]) : end[PHASE_COMPUTE];
      run_name = g_strdup_printf ("Inference %u", n);
      tes_cache_writer_add_run (w, run_name, clock, run_start, run_end);

      if (!tes_trt_records_tick (&records, context, error))
        return FALSE;
    }
  if (next == TES_TRT_ERROR)
    return FALSE;

  if (n == 0)
    return tes_import_fail (error, TES_IMPORT_ERROR_EMPTY, context->path, _("an empty array: no inferences"));

  for (guint p = 0; p < N_PHASES; p++)
    tes_cache_writer_close_track (w, lanes[p]);

  tes_cache_writer_set_info (w, context->source_id, "format", "TensorRT trtexec --exportTimes");
  tes_info_set_int (w, context->source_id, "times.inferences", n);
  if (n_rounded > 0)
    {
      g_autofree char *text = g_strdup_printf ("%u times had digits below 1 ns and were rounded to the "
                                               "nearest ns; the Compute slices' args keep them as printed",
                                               n_rounded);

      tes_cache_writer_set_info (w, context->source_id, "warning.rounded", text);
    }

  return TRUE;
}

static void
tes_tensorrt_times_importer_class_init (TesTensorrtTimesImporterClass *klass)
{
  TesImporterClass *importer_class = TES_IMPORTER_CLASS (klass);

  importer_class->name = "tensorrt-times";
  importer_class->title = "TensorRT trtexec --exportTimes";
  importer_class->version = 1;
  importer_class->sniff = tes_tensorrt_times_importer_sniff;
  importer_class->import = tes_tensorrt_times_importer_import;
}

static void
tes_tensorrt_times_importer_init (TesTensorrtTimesImporter *self)
{
}
