/* tes-torq-host-overview-importer.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-torq-host-overview"

#include "config.h"

#include "tes-line-reader.h"
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

  tes_torq_strip (&line, &len);
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
  tes_torq_strip (&title, &title_len);
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

  tes_torq_strip (&line, &len);
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

  tes_torq_strip (&line, &len);
  out->percent = NAN;

  if (len > 0 && line[len - 1] == ')')
    {
      const char *open = g_strrstr_len (line, len, " (");

      if (open == NULL ||
          !tes_torq_parse_percent (open + 2, (gsize)(line + len - 1 - (open + 2)), &out->percent))
        return FALSE;
      len = (gsize)(open - line);
      tes_torq_strip (&line, &len);
    }

  space = g_strrstr_len (line, len, " ");
  if (space == NULL)
    return FALSE;
  value = space + 1;
  value_len = (gsize)(line + len - value);
  if (!tes_torq_parse_duration (value, value_len, &out->ns))
    return FALSE;

  name_len = (gsize)(space - line);
  tes_torq_strip (&line, &name_len);
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

  tes_line_reader_init_for_data (&reader, (const char *)head, head_len);

  while (tes_line_reader_next (&reader, &line, &len))
    {
      gboolean other;

      if (!tes_torq_line_is_complete (head, head_len, reader.pos))
        break;

      if (!in_block)
        {
          in_block = is_banner (line, len, &other);
          continue;
        }

      /* the banner must be followed by the block's own lines */
      if (tes_torq_is_blank (line, len) || is_banner (line, len, &other) || other)
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

static char *
metric_key (const char *prefix,
            const char *metric)
{
  g_autofree char *lower = g_ascii_strdown (metric, -1);

  g_strdelimit (lower, " ", '_');
  return g_strconcat (prefix, lower, NULL);
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
        {
          g_set_error (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_INVALID,
                       "%s:%u: not UTF-8 text", context->path, reader.line_no);
          return FALSE;
        }

      if (is_banner (line, len, &other))
        {
          in_block = TRUE;
          section = NULL;
          continue;
        }

      if (!in_block || tes_torq_is_blank (line, len) || other)
        {
          in_block = FALSE;
          skipped++;
          continue;
        }

      if (len >= 6 && memcmp (line, "Model:", 6) == 0)
        {
          const char *model = line + 6;
          gsize model_len = len - 6;

          tes_torq_strip (&model, &model_len);
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

            g_set_error (error, TES_IMPORT_ERROR,
                         tes_torq_reader_in_cut_line (&reader) ? TES_IMPORT_ERROR_TRUNCATED : TES_IMPORT_ERROR_INVALID,
                         "%s:%u: expected '<metric> <duration>' or '<metric> <duration> (<percent>%%)', got '%s'",
                         context->path, reader.line_no, got);
            return FALSE;
          }

        if (!isnan (metric.percent) && metric.percent > 100.005)
          {
            g_set_error (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_INVALID,
                         "%s:%u: %s is %.2f%%, above 100%%", context->path, reader.line_no,
                         metric.metric, metric.percent);
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
    {
      g_set_error (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_EMPTY,
                   "%s: no '" TITLE "' block with metrics", context->path);
      return FALSE;
    }

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
              g_autofree char *key = metric_key (prefix, metric->metric);

              tes_cache_writer_set_info (context->writer, context->source_id, key, metric->printed);
              continue;
            }

          if (clock == 0)
            clock = tes_torq_get_clock (context->writer, TES_TORQ_CLOCK_HOST_NS);

          tes_torq_json_member (args, "printed", metric->printed, -1);
          if (sec->model != NULL)
            tes_torq_json_member (args, "model", sec->model, -1);
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

  {
    g_autofree char *n = g_strdup_printf ("%u", sections->len);

    tes_cache_writer_set_info (context->writer, context->source_id, "overview.models", n);
  }

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
