/* tes-torq-host-overview-importer.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-torq-host-overview"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tes-import-error.h"
#include "tes-info.h"
#include "tes-json.h"
#include "tes-line-reader.h"
#include "tes-text.h"
#include "tes-torq-host-overview-importer.h"
#include "tes-torq-util.h"

#include <math.h>
#include <string.h>

/* The "Host Profile Overview" block the Torq pytest framework prints at the
 * end of a session (summary of the Perfetto .pb traces):
 *
 *   ====================== Host Profile Overview =======================
 *   Model: conv2d_f4_s4_64x64x16_i16
 *   ────────────────────────────────────────────────────────
 *   WALL_TIME 207.000ms
 *   OVERALL 12.845ms
 *   Dma 453.000µs (3.53%)
 *   ...
 *
 * The metric names are not a fixed list ("dynamically displays all available
 * metrics"). A metric with a percentage becomes an operator row (name and
 * type the metric, total in ns, the share as printed); one without (the
 * wall time, the overall time) an info row "overview.<metric>" with the text
 * as printed. Lines before the banner (pytest's own output) are skipped;
 * the block ends at a blank line, the next "=====" line or the end. */

struct _TesTorqHostOverviewImporter
{
  TesImporter parent_instance;
};

G_DEFINE_FINAL_TYPE (TesTorqHostOverviewImporter, tes_torq_host_overview_importer, TES_TYPE_IMPORTER)

#define TITLE "Host Profile Overview"

static gboolean
is_rule (const char *line,
         gsize       len,
         char        c)
{
  gsize n = 0;

  for (gsize i = 0; i < len; i++)
    if (line[i] == c)
      n++;
    else
      return FALSE;

  return n >= 3;
}

/* "=====...  Host Profile Overview  =====...", any other title: FALSE
 * with *other set when the line is some other "=== ... ===" banner. */
static gboolean
is_banner (const char *line,
           gsize       len,
           gboolean   *other)
{
  gsize lead = 0;
  gsize trail = 0;
  const char *title;
  gsize title_len;

  tes_strip (&line, &len);
  *other = FALSE;

  while (lead < len && line[lead] == '=')
    lead++;

  /* a rule of '=' alone also ends a block */
  if (lead >= 3 && lead == len)
    {
      *other = TRUE;
      return FALSE;
    }

  while (trail < len - lead && line[len - 1 - trail] == '=')
    trail++;
  if (lead < 3 || trail < 3 || lead + trail >= len)
    return FALSE;

  title = line + lead;
  title_len = len - lead - trail;
  tes_strip (&title, &title_len);
  *other = TRUE;
  if (title_len != strlen (TITLE) || memcmp (title, TITLE, title_len) != 0)
    return FALSE;

  *other = FALSE;
  return TRUE;
}

/* A line of box-drawing U+2500 (or '-') under the model name. */
static gboolean
is_separator (const char *line,
              gsize       len)
{
  gsize n = 0;

  tes_strip (&line, &len);
  if (is_rule (line, len, '-'))
    return TRUE;

  while (n + 3 <= len && memcmp (line + n, "\xe2\x94\x80", 3) == 0)
    n += 3;

  return len >= 3 && n == len;
}

typedef struct
{
  char   *metric;
  char   *printed;   /* the duration as printed */
  gint64  ns;
  double  percent;   /* NaN: none printed */
} Metric;

/* "<metric name> <duration>[ (<percent>%)]" */
static gboolean
parse_metric (const char *line,
              gsize       len,
              Metric     *out)
{
  const char *value;
  gsize value_len;
  const char *space;
  gsize name_len;

  tes_strip (&line, &len);
  if (!tes_torq_split_percent (line, &len, &out->percent))
    return FALSE;
  tes_strip (&line, &len);

  space = g_strrstr_len (line, len, " ");
  if (space == NULL)
    return FALSE;
  value = space + 1;
  value_len = (gsize)(line + len - value);
  if (!tes_torq_parse_duration (value, value_len, &out->ns))
    return FALSE;

  name_len = (gsize)(space - line);
  tes_strip (&line, &name_len);
  if (name_len == 0 || !g_utf8_validate_len (line, name_len, NULL))
    return FALSE;

  out->metric = g_strndup (line, name_len);
  out->printed = g_strndup (value, value_len);
  return TRUE;
}

static guint
tes_torq_host_overview_importer_sniff (TesImporter  *importer,
                                       const guint8 *head,
                                       gsize         head_len,
                                       const char   *basename)
{
  TesLineReader reader;
  const char *line;
  gsize len;
  gboolean in_block = FALSE;
  guint lines = 0;

  /* a JSON trace's head is thousands of short lines: never classify them */
  if (tes_head_is_json (head, head_len))
    return 0;

  tes_line_reader_init_for_head (&reader, head, head_len);

  while (tes_line_reader_next (&reader, &line, &len))
    {
      gboolean other;

      if (!in_block)
        {
          in_block = is_banner (line, len, &other);
          continue;
        }

      /* the banner must be followed by the block's own lines */
      if (tes_is_blank (line, len) || is_banner (line, len, &other) || other)
        break;
      if (len > 6 && memcmp (line, "Model:", 6) == 0)
        lines++;
      else if (is_separator (line, len))
        lines++;
      else
        {
          Metric metric = { 0 };

          if (!parse_metric (line, len, &metric))
            return lines > 0 ? 60 : 0;
          g_free (metric.metric);
          g_free (metric.printed);
          lines++;
        }
    }

  return lines > 0 ? 95 : 0;
}

typedef struct
{
  char   *model;
  GArray *metrics;   /* Metric */
} Section;

static void
metric_clear (gpointer data)
{
  Metric *metric = data;

  g_free (metric->metric);
  g_free (metric->printed);
}

static void
section_free (gpointer data)
{
  Section *section = data;

  g_free (section->model);
  g_array_unref (section->metrics);
  g_free (section);
}

static Section *
section_new (void)
{
  Section *section = g_new0 (Section, 1);

  section->metrics = g_array_new (FALSE, TRUE, sizeof (Metric));
  g_array_set_clear_func (section->metrics, metric_clear);
  return section;
}

static gboolean
tes_torq_host_overview_importer_import (TesImporter       *importer,
                                        TesImportContext  *context,
                                        GError           **error)
{
  g_auto(TesLineReader) reader = { 0 };
  g_autoptr(GPtrArray) sections = g_ptr_array_new_with_free_func (section_free);
  Section *section = NULL;
  gboolean in_block = FALSE;
  guint skipped = 0;
  guint n_operators = 0;
  gint64 clock = 0;
  const char *line;
  gsize len;

  if (!tes_line_reader_init (&reader, context->path, error))
    return FALSE;

  while (tes_line_reader_next (&reader, &line, &len))
    {
      gboolean other = FALSE;

      if (!g_utf8_validate_len (line, len, NULL))
        return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, context->path, reader.line_no,
                                        _("not UTF-8 text"));

      if (is_banner (line, len, &other))
        {
          in_block = TRUE;
          section = NULL;
          continue;
        }

      if (!in_block || tes_is_blank (line, len) || other)
        {
          in_block = FALSE;
          skipped++;
          continue;
        }

      if (len >= 6 && memcmp (line, "Model:", 6) == 0)
        {
          const char *model = line + 6;
          gsize model_len = len - 6;

          tes_strip (&model, &model_len);
          section = section_new ();
          section->model = g_strndup (model, model_len);
          g_ptr_array_add (sections, section);
          continue;
        }

      if (is_separator (line, len))
        continue;

      {
        Metric metric = { 0 };

        if (!parse_metric (line, len, &metric))
          {
            g_autofree char *got = tes_describe_text (line, len, 80);

            return tes_line_reader_fail_row (&reader, context->path, error,
                                             _("expected '<metric> <duration>' or '<metric> <duration> "
                                               "(<percent>%%)', got '%s'"), got);
          }

        if (!isnan (metric.percent) && metric.percent > 100.005)
          {
            tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, context->path, reader.line_no,
                                     _("%s is %.2f%%, above 100%%"), metric.metric, metric.percent);
            metric_clear (&metric);
            return FALSE;
          }

        /* metrics before any "Model:" line belong to an unnamed model */
        if (section == NULL)
          {
            section = section_new ();
            g_ptr_array_add (sections, section);
          }
        g_array_append_val (section->metrics, metric);
      }

      if (g_cancellable_set_error_if_cancelled (context->cancellable, error))
        return FALSE;
    }

  if (sections->len == 0)
    return tes_import_fail (error, TES_IMPORT_ERROR_EMPTY, context->path, _("no 'Host Profile Overview' block with metrics"));

  for (guint s = 0; s < sections->len; s++)
    {
      const Section *sec = g_ptr_array_index (sections, s);
      g_autofree char *prefix = s == 0 ? g_strdup ("overview.") : g_strdup_printf ("overview.%u.", s + 1);

      if (sec->model != NULL)
        {
          g_autofree char *key = g_strconcat (prefix, "model", NULL);

          tes_cache_writer_set_info (context->writer, context->source_id, key, sec->model);
        }

      for (guint m = 0; m < sec->metrics->len; m++)
        {
          const Metric *metric = &g_array_index (sec->metrics, Metric, m);
          g_autoptr(GString) args = g_string_new ("{");
          g_autofree char *name = NULL;
          TesOperatorRow op = TES_OPERATOR_ROW_INIT;

          if (isnan (metric->percent))
            {
              g_autofree char *key = tes_info_key (prefix, metric->metric);

              tes_cache_writer_set_info (context->writer, context->source_id, key, metric->printed);
              continue;
            }

          if (clock == 0)
            clock = tes_torq_get_clock (context->writer, TES_TORQ_CLOCK_HOST_NS);

          tes_json_member (args, "printed", metric->printed, -1);
          if (sec->model != NULL)
            tes_json_member (args, "model", sec->model, -1);
          g_string_append_c (args, '}');

          /* several models: their rows must not add up with each other's */
          name = sections->len > 1 && sec->model != NULL
                 ? g_strdup_printf ("%s %s", sec->model, metric->metric)
                 : g_strdup (metric->metric);
          op.source_id = context->source_id;
          op.name = name;
          op.type = name;
          op.total = metric->ns;
          op.clock_id = clock;
          op.share = metric->percent;
          op.args_json = args->str;
          tes_cache_writer_add_operator (context->writer, &op);
          n_operators++;
        }
    }

  tes_info_set_int (context->writer, context->source_id, "overview.models", sections->len);

  if (n_operators == 0)
    tes_torq_warn (context, "the overview prints no metric with a percentage");

  return TRUE;
}

static void
tes_torq_host_overview_importer_class_init (TesTorqHostOverviewImporterClass *klass)
{
  TesImporterClass *importer_class = TES_IMPORTER_CLASS (klass);

  importer_class->name = "torq-host-overview";
  importer_class->title = "Synaptics Torq Host Profile Overview (pytest)";
  importer_class->version = 1;
  importer_class->sniff = tes_torq_host_overview_importer_sniff;
  importer_class->import = tes_torq_host_overview_importer_import;
}

static void
tes_torq_host_overview_importer_init (TesTorqHostOverviewImporter *self)
{
}
