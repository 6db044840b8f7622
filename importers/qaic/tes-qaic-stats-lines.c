/* tes-qaic-stats-lines.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-qaic-stats"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "tes-info.h"
#include "tes-qaic-stats-private.h"
#include "tes-text.h"

#include <string.h>

/* The lines of a qaic stats file that have one fixed shape each: per-core
 * totals, threads, batches, ports, frequencies and the trailer. */

/* A line is classified by its prefix, then must match its full shape:
 * a line that starts like a known line but does not match it is an
 * error naming the shape expected. Operator rows are read by a
 * tokenizer because their columns come from the header. */
static const struct
{
  TesQaicLineKind  kind;
  const char      *prefix;
  const char      *full;
  const char      *shape;
} line_shapes[TES_QAIC_N_LINE_KINDS] = {
  { TES_QAIC_LINE_SPEC, "^Specialization:",
    "^Specialization:\\s*(\\S.*)$",
    "Specialization: <name>" },
  { TES_QAIC_LINE_HEADER, "^core\\s",
    "^core\\s+(\\S.*\\S)\\s+opdetails$",
    "core <columns> opdetails" },
  { TES_QAIC_LINE_TOTAL, "^c[0-9]+ total:",
    "^c([0-9]+) total:\\s+([0-9]+) ucycles\\s+([0-9]+) pcycles(?:\\s+\\(([^)]*)\\))?$",
    "cN total: <ucycles> ucycles <pcycles> pcycles (thread max)" },
  { TES_QAIC_LINE_THREAD, "^c[0-9]+\\s+t[0-9]+\\s",
    "^c([0-9]+)\\s+t([0-9]+)\\s+(\\S+)\\s+([0-9]+) ucycles\\s+\\[([0-9]+),\\s*([0-9]+)\\]\\s+([0-9]+) pcycles\\s+([0-9]+(?:\\.[0-9]+)?)% utilization$",
    "cN tM <engine> <ucycles> ucycles [<start>, <end>] <pcycles> pcycles <percent>% utilization" },
  { TES_QAIC_LINE_BATCH, "^c[0-9]+t[0-9]+ batch\\b",
    "^c([0-9]+)t([0-9]+) batch ucycles:\\s+([0-9]+)\\s+\\[([0-9]+),\\s*([0-9]+)\\]\\s+pcycles:\\s+([0-9]+)$",
    "cNNtM batch ucycles: <ucycles> [<start>,<end>] pcycles: <pcycles>" },
  { TES_QAIC_LINE_PORT, "^c[0-9]+t[0-9]+p[0-9]+\\s",
    "^c([0-9]+)t([0-9]+)p([0-9]+) (\\S+) ucycles:\\s+([0-9]+)$",
    "cNNtMpP <port> ucycles: <ucycles>" },
  { TES_QAIC_LINE_THREAD_COUNTER, "^c[0-9]+t[0-9]+ ",
    "^c([0-9]+)t([0-9]+) ([A-Za-z_]+) ucycles:\\s+([0-9]+)$",
    "cNNtM <what> ucycles: <ucycles>" },
  { TES_QAIC_LINE_INFERENCE, "^c[0-9]+: Total inference",
    "^c([0-9]+): Total inference pcycle is ([0-9]+)$",
    "cN: Total inference pcycle is <pcycles>" },
  { TES_QAIC_LINE_FREQ, "^c[0-9]+: Effective frequency",
    "^c([0-9]+): Effective frequency is ([0-9]+(?:\\.[0-9]+)?)\\s*MHz$",
    "cN: Effective frequency is <MHz>MHz" },
  { TES_QAIC_LINE_OP, "^c[0-9]+\\s+(?:[0-9]|N/A)", NULL, NULL },
  { TES_QAIC_LINE_TOTAL_BATCH, "^total batch\\b",
    "^total batch ucycles:\\s+([0-9]+)\\s+\\[([0-9]+),\\s*([0-9]+)\\]$",
    "total batch ucycles: <ucycles> [<start>, <end>]" },
  { TES_QAIC_LINE_RATE, "^\\[[^\\]]*\\] Device instance",
    "^\\[([^\\]]+)\\] Device instance (batch|inf)/s:\\s+\\(([^)]*)\\):\\s+([0-9]+(?:\\.[0-9]+)?(?:e[+-]?[0-9]+)?|inf|nan)$",
    "[<network>] Device instance batch/s: (<n>/<seconds>): <rate>" },
  { TES_QAIC_LINE_MAX_WAIT, "^max \\S+ wait",
    "^max (input|output) wait ucycles:\\s+([0-9]+)$",
    "max input|output wait ucycles: <ucycles>" },
};

typedef struct
{
  GRegex *prefix[TES_QAIC_N_LINE_KINDS];
  GRegex *full[TES_QAIC_N_LINE_KINDS];
} Shapes;

static const Shapes *
get_shapes (void)
{
  static Shapes *shapes;

  if (g_once_init_enter (&shapes))
    {
      Shapes *s = g_new0 (Shapes, 1);

      for (guint i = 0; i < TES_QAIC_N_LINE_KINDS; i++)
        {
          g_assert (line_shapes[i].kind == i);
          s->prefix[i] = g_regex_new (line_shapes[i].prefix, G_REGEX_OPTIMIZE, 0, NULL);
          g_assert (s->prefix[i] != NULL);
          if (line_shapes[i].full != NULL)
            {
              s->full[i] = g_regex_new (line_shapes[i].full, G_REGEX_OPTIMIZE, 0, NULL);
              g_assert (s->full[i] != NULL);
            }
        }

      g_once_init_leave (&shapes, s);
    }

  return shapes;
}

TesQaicLineKind
tes_qaic_stats_classify (const char *text)
{
  const Shapes *shapes = get_shapes ();

  for (guint i = 0; i < TES_QAIC_N_LINE_KINDS; i++)
    if (g_regex_match (shapes->prefix[i], text, 0, NULL))
      return i;

  return TES_QAIC_LINE_UNKNOWN;
}

/* The operator table's column header, as a whole line. */
gboolean
tes_qaic_stats_is_header (const char *text)
{
  const Shapes *shapes = get_shapes ();

  return g_regex_match (shapes->full[TES_QAIC_LINE_HEADER], text, 0, NULL);
}

static char *
fetch (GMatchInfo *match,
       int         group)
{
  return g_match_info_fetch (match, group);
}

static gboolean
fetch_count (TesQaicStatsParser  *p,
             guint                line,
             GMatchInfo          *match,
             int                  group,
             gint64              *out,
             GError             **error)
{
  g_autofree char *text = fetch (match, group);

  return tes_qaic_stats_parse_count (p, line, text, out, error);
}

static gboolean
fetch_core (TesQaicStatsParser  *p,
            guint                line,
            GMatchInfo          *match,
            int                  group,
            guint               *out,
            GError             **error)
{
  g_autofree char *text = fetch (match, group);
  guint64 v;

  if (!g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT16, &v, NULL))
    return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                    _("number '%s' is out of range"), text);

  *out = (guint)v;
  return TRUE;
}

static gboolean
parse_span (TesQaicStatsParser  *p,
            guint                line,
            GMatchInfo          *match,
            int                  first,
            gint64              *start,
            gint64              *end,
            GError             **error)
{
  if (!fetch_count (p, line, match, first, start, error) ||
      !fetch_count (p, line, match, first + 1, end, error))
    return FALSE;

  if (*end < *start)
    return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                    _("span [%" PRId64 ", %" PRId64 "] ends before it starts"),
                                    *start, *end);

  return TRUE;
}

gboolean
tes_qaic_stats_parse_line (TesQaicStatsParser  *p,
                           guint                line,
                           TesQaicLineKind      kind,
                           const char          *text,
                           GError             **error)
{
  const Shapes *shapes = get_shapes ();
  g_autoptr(GMatchInfo) match = NULL;
  guint core_no = 0, thread_no = 0;

  if (!g_regex_match (shapes->full[kind], text, 0, &match))
    {
      g_autofree char *got = tes_describe_text (text, strlen (text), 80);

      return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                      _("expected '%s', got '%s'"),
                                      line_shapes[kind].shape, got);
    }

  switch (kind)
    {
    case TES_QAIC_LINE_SPEC:
      {
        g_autofree char *name = fetch (match, 1);

        if (p->specialization != NULL)
          return tes_import_fail_at_line (error, TES_IMPORT_ERROR_UNSUPPORTED, p->context->path, line,
                                          _("a second specialization ('%s' after '%s'); one per file is supported"),
                                          name, p->specialization);
        p->specialization = g_steal_pointer (&name);
        return TRUE;
      }

    case TES_QAIC_LINE_HEADER:
      return tes_qaic_stats_parse_header (p, line, match, error);

    case TES_QAIC_LINE_TOTAL:
      {
        g_autofree char *basis = fetch (match, 4);
        TesQaicCore *core;

        if (!fetch_core (p, line, match, 1, &core_no, error))
          return FALSE;
        core = tes_qaic_stats_get_core (p, core_no);
        if (core->total_line != 0)
          return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                          _("a second total line for c%u (the first is on line %u)"),
                                          core_no, core->total_line);
        if (!fetch_count (p, line, match, 2, &core->total_ucycles, error) ||
            !fetch_count (p, line, match, 3, &core->total_pcycles, error))
          return FALSE;
        core->total_line = line;
        tes_info_list_add_int (p->info, g_strdup_printf ("c%u.total.ucycles", core_no), core->total_ucycles);
        tes_info_list_add_int (p->info, g_strdup_printf ("c%u.total.pcycles", core_no), core->total_pcycles);
        if (basis != NULL && basis[0] != '\0')
          tes_info_list_add (p->info, g_strdup_printf ("c%u.total.basis", core_no), basis);
        return TRUE;
      }

    case TES_QAIC_LINE_THREAD:
      {
        TesQaicThreadRow row = { 0 };
        TesQaicCore *core;

        if (!fetch_core (p, line, match, 1, &core_no, error) ||
            !fetch_core (p, line, match, 2, &thread_no, error))
          return FALSE;
        core = tes_qaic_stats_get_core (p, core_no);
        for (guint i = 0; i < core->threads->len; i++)
          if (g_array_index (core->threads, TesQaicThreadRow, i).number == thread_no)
            return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                            _("c%u t%u is listed twice (first on line %u)"), core_no, thread_no,
                                            g_array_index (core->threads, TesQaicThreadRow, i).line);

        row.number = thread_no;
        row.line = line;
        if (!fetch_count (p, line, match, 4, &row.ucycles, error) ||
            !parse_span (p, line, match, 5, &row.start, &row.end, error) ||
            !fetch_count (p, line, match, 7, &row.pcycles, error))
          return FALSE;
        row.engine = fetch (match, 3);
        row.utilization = fetch (match, 8);
        tes_info_list_add (p->info, g_strdup_printf ("c%u.t%u.utilization_percent", core_no, thread_no),
                           row.utilization);
        g_array_append_val (core->threads, row);
        return TRUE;
      }

    case TES_QAIC_LINE_BATCH:
      {
        gint64 start, end;
        g_autofree char *ucycles = fetch (match, 3);
        g_autofree char *pcycles = fetch (match, 6);
        gint64 dummy;

        if (!fetch_core (p, line, match, 1, &core_no, error) ||
            !fetch_core (p, line, match, 2, &thread_no, error) ||
            !tes_qaic_stats_parse_count (p, line, ucycles, &dummy, error) ||
            !tes_qaic_stats_parse_count (p, line, pcycles, &dummy, error) ||
            !parse_span (p, line, match, 4, &start, &end, error))
          return FALSE;
        tes_info_list_add (p->info, g_strdup_printf ("c%u.t%u.batch.ucycles", core_no, thread_no), ucycles);
        tes_info_list_add_int (p->info, g_strdup_printf ("c%u.t%u.batch.start", core_no, thread_no), start);
        tes_info_list_add_int (p->info, g_strdup_printf ("c%u.t%u.batch.end", core_no, thread_no), end);
        tes_info_list_add (p->info, g_strdup_printf ("c%u.t%u.batch.pcycles", core_no, thread_no), pcycles);
        return TRUE;
      }

    case TES_QAIC_LINE_PORT:
      {
        g_autofree char *port = fetch (match, 3);
        g_autofree char *what = fetch (match, 4);
        g_autofree char *ucycles = fetch (match, 5);
        gint64 dummy;

        if (!fetch_core (p, line, match, 1, &core_no, error) ||
            !fetch_core (p, line, match, 2, &thread_no, error) ||
            !tes_qaic_stats_parse_count (p, line, ucycles, &dummy, error))
          return FALSE;
        tes_info_list_add (p->info, g_strdup_printf ("c%u.t%u.p%s.%s.ucycles", core_no, thread_no, port, what),
                           ucycles);
        return TRUE;
      }

    case TES_QAIC_LINE_THREAD_COUNTER:
      {
        g_autofree char *what = fetch (match, 3);
        g_autofree char *ucycles = fetch (match, 4);
        gint64 dummy;

        if (!fetch_core (p, line, match, 1, &core_no, error) ||
            !fetch_core (p, line, match, 2, &thread_no, error) ||
            !tes_qaic_stats_parse_count (p, line, ucycles, &dummy, error))
          return FALSE;
        tes_info_list_add (p->info, g_strdup_printf ("c%u.t%u.%s.ucycles", core_no, thread_no, what), ucycles);
        return TRUE;
      }

    case TES_QAIC_LINE_INFERENCE:
      {
        g_autofree char *pcycles = fetch (match, 2);
        gint64 dummy;

        if (!fetch_core (p, line, match, 1, &core_no, error) ||
            !tes_qaic_stats_parse_count (p, line, pcycles, &dummy, error))
          return FALSE;
        tes_info_list_add (p->info, g_strdup_printf ("c%u.inference.pcycles", core_no), pcycles);
        return TRUE;
      }

    case TES_QAIC_LINE_FREQ:
      {
        g_autofree char *mhz = fetch (match, 2);

        if (!fetch_core (p, line, match, 1, &core_no, error))
          return FALSE;
        tes_info_list_add (p->info, g_strdup_printf ("c%u.effective_frequency_mhz", core_no), mhz);
        return TRUE;
      }

    case TES_QAIC_LINE_TOTAL_BATCH:
      {
        g_autofree char *ucycles = fetch (match, 1);

        if (p->has_total_batch)
          return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                          _("a second 'total batch' line"));
        if (!tes_qaic_stats_parse_count (p, line, ucycles, &p->batch_ucycles, error) ||
            !parse_span (p, line, match, 2, &p->batch_start, &p->batch_end, error))
          return FALSE;
        p->has_total_batch = TRUE;
        tes_info_list_add (p->info, g_strdup ("total_batch.ucycles"), ucycles);
        tes_info_list_add_int (p->info, g_strdup ("total_batch.start"), p->batch_start);
        tes_info_list_add_int (p->info, g_strdup ("total_batch.end"), p->batch_end);
        return TRUE;
      }

    case TES_QAIC_LINE_RATE:
      {
        g_autofree char *network = fetch (match, 1);
        g_autofree char *what = fetch (match, 2);
        g_autofree char *formula = fetch (match, 3);
        g_autofree char *rate = fetch (match, 4);

        if (p->network == NULL)
          p->network = g_strdup (network);
        tes_info_list_add (p->info, g_strdup_printf ("device_instance.%s_per_second", what), rate);
        tes_info_list_add (p->info, g_strdup_printf ("device_instance.%s_per_second.formula", what), formula);
        return TRUE;
      }

    case TES_QAIC_LINE_MAX_WAIT:
      {
        g_autofree char *what = fetch (match, 1);
        g_autofree char *ucycles = fetch (match, 2);
        gint64 dummy;

        if (!tes_qaic_stats_parse_count (p, line, ucycles, &dummy, error))
          return FALSE;
        tes_info_list_add (p->info, g_strdup_printf ("max_%s_wait.ucycles", what), ucycles);
        return TRUE;
      }

    case TES_QAIC_LINE_OP:
    case TES_QAIC_N_LINE_KINDS:
    default:
      g_assert_not_reached ();
    }

  return TRUE;
}

