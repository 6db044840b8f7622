/* tes-qaic-runner-importer.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-qaic-runner"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tes-import-error.h"
#include "tes-info.h"
#include "tes-line-reader.h"
#include "tes-qaic-runner-importer.h"
#include "tes-text.h"

#include <string.h>

/* What `qaic-runner` prints on stdout, and what Qualcomm's
 * latency_stats_python3.py prints about the latency file it wrote. All of
 * it is report-level figures, so all of it becomes info rows.
 *
 * qaic-runner:
 *    ---- Stats ----
 *   InferenceCnt 4816 TotalDuration 20022021us BatchSize 8 Inf/Sec 1924.281
 *   Device Performance:
 *   Metric,          Avg,           Min,           Max,           Std
 *   ExecTimeUs,      22861.091,     22236.458,     31251.875,     513.795
 *   …
 *   Writing file:./dir/aic-profiling-program-0-trace.json
 *   Deleting previous file: ./dir/aic-profiling-program-0-trace.json
 *
 * latency_stats_python3.py (pandas describe() of the latency file):
 *   All activations combined:
 *                             mean         min         50% …         max
 *   devInfPerSec        347.295312  309.959000  350.840500 …  355.981000
 *   …
 *   totalRoundtripTime: percentile(mean) = 23.694 ms
 *
 * Any other line is a message of the runner ("Using bounded random
 * inputs") and is kept as info "message.N". */

#define MAX_MESSAGES 50

struct _TesQaicRunnerImporter
{
  TesImporter parent_instance;
};

G_DEFINE_FINAL_TYPE (TesQaicRunnerImporter, tes_qaic_runner_importer, TES_TYPE_IMPORTER)

typedef enum
{
  STATE_TOP,
  STATE_STATS_HEAD,     /* after "---- Stats ----": the InferenceCnt line */
  STATE_STATS,          /* in a Stats block, before or between tables */
  STATE_PERF_HEADER,    /* after "Device Performance:": the Metric header */
  STATE_PERF_ROWS,
  STATE_LATENCY_HEADER, /* after a section title: the column header */
  STATE_LATENCY_ROWS,
} State;

typedef struct
{
  TesImportContext *context;
  GPtrArray        *info;        /* key, value, … */
  GHashTable       *outputs;     /* path set */
  State             state;
  guint             state_line;  /* where the current block began */
  guint             n_blocks;
  char             *block;       /* "stats" or "stats.2" … */
  char             *table;       /* "stats.device" or "latency.all_activations_combined" */
  char             *section;     /* latency section slug, or NULL */
  char             *title;       /* the line that named the section */
  GPtrArray        *columns;     /* column keys of the current table */
  guint             n_rows;
  guint             n_messages;
  guint             n_latency;
  TesLineNote       first;       /* the first line that is not blank */
} Parser;

static void
parser_clear (Parser *p)
{
  g_clear_pointer (&p->info, g_ptr_array_unref);
  g_clear_pointer (&p->outputs, g_hash_table_unref);
  g_clear_pointer (&p->block, g_free);
  g_clear_pointer (&p->table, g_free);
  g_clear_pointer (&p->section, g_free);
  g_clear_pointer (&p->title, g_free);
  g_clear_pointer (&p->columns, g_ptr_array_unref);
  tes_line_note_clear (&p->first);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Parser, parser_clear)

/* A decimal number as Python or printf print one: optional sign, digits,
 * fraction, exponent; also nan/inf. */
static gboolean
is_number (const char *s)
{
  char *end = NULL;

  if (*s == '\0')
    return FALSE;
  if (g_ascii_strcasecmp (s, "nan") == 0 || g_ascii_strcasecmp (s, "inf") == 0 ||
      g_ascii_strcasecmp (s, "-inf") == 0)
    return TRUE;
  if (!(g_ascii_isdigit (s[0]) || ((s[0] == '-' || s[0] == '+' || s[0] == '.') && s[1] != '\0')))
    return FALSE;

  g_ascii_strtod (s, &end);
  return end != NULL && *end == '\0';
}

static char **
split_words (const char *text)
{
  g_auto(GStrv) raw = g_strsplit_set (text, " \t", -1);
  g_autoptr(GPtrArray) words = g_ptr_array_new ();

  for (guint i = 0; raw[i]; i++)
    if (raw[i][0] != '\0')
      g_ptr_array_add (words, g_strdup (raw[i]));
  g_ptr_array_add (words, NULL);

  return (char **)g_ptr_array_free (g_steal_pointer (&words), FALSE);
}

static gboolean
is_stats_marker (const char *text)
{
  return g_str_equal (text, "---- Stats ----");
}

/* "InferenceCnt 10 TotalDuration 2242274us BatchSize 1 Inf/Sec 4.460" */
static gboolean
is_stats_head (const char *text)
{
  return g_str_has_prefix (text, "InferenceCnt ");
}

/* "Device Performance:" */
static gboolean
is_perf_title (const char *text)
{
  return g_str_has_suffix (text, " Performance:") && strchr (text, ',') == NULL;
}

/* pandas column names: mean, std, min, max, count, "50%" … */
static gboolean
is_latency_header (char **words)
{
  guint n = g_strv_length (words);

  if (n < 2)
    return FALSE;

  for (guint i = 0; i < n; i++)
    {
      const char *w = words[i];
      gsize len = strlen (w);

      if (g_str_equal (w, "mean") || g_str_equal (w, "std") || g_str_equal (w, "min") ||
          g_str_equal (w, "max") || g_str_equal (w, "count"))
        continue;
      if (len >= 2 && w[len - 1] == '%')
        {
          g_autofree char *num = g_strndup (w, len - 1);

          if (is_number (num))
            continue;
        }
      return FALSE;
    }

  return TRUE;
}

/* "totalRoundtripTime: percentile(mean) = 23.694 ms" */
static gboolean
parse_percentile (const char  *text,
                  char       **name,
                  char       **what,
                  char       **value)
{
  const char *colon = strstr (text, ": percentile(");
  const char *eq;

  if (colon == NULL || colon == text || strchr (text, ' ') < colon)
    return FALSE;
  if (!(eq = strstr (colon, ") = ")))
    return FALSE;

  *name = g_strndup (text, colon - text);
  *what = g_strndup (colon + 2, eq + 1 - (colon + 2));
  *value = g_strdup (eq + 4);
  return TRUE;
}

static const char *
stats_key (const char *name)
{
  static const struct { const char *vendor; const char *key; } keys[] = {
    { "InferenceCnt", "inference_count" },
    { "TotalDuration", "total_duration" },
    { "BatchSize", "batch_size" },
    { "Inf/Sec", "inferences_per_second" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    if (g_str_equal (keys[i].vendor, name))
      return keys[i].key;

  return NULL;
}

static gboolean
parse_stats_head (Parser      *p,
                  guint        line,
                  const char  *text,
                  GError     **error)
{
  g_auto(GStrv) words = split_words (text);
  guint n = g_strv_length (words);

  if (n % 2 != 0)
    return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                    _("expected 'Name value' pairs like 'InferenceCnt 10 TotalDuration 2242274us', "
                                      "got %u words"), n);

  for (guint i = 0; i < n; i += 2)
    {
      const char *name = words[i];
      const char *value = words[i + 1];
      const char *key = stats_key (name);
      g_autofree char *number = NULL;
      g_autofree char *unit = NULL;
      gsize digits = 0;

      /* "2242274us": a number with a unit glued on */
      while (value[digits] && (g_ascii_isdigit (value[digits]) || value[digits] == '.'))
        digits++;
      number = g_strndup (value, digits);
      unit = g_strdup (value + digits);
      if (!is_number (number) || (unit[0] != '\0' && !g_regex_match_simple ("^[A-Za-z]+$", unit, 0, 0)))
        return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                        _("%s is '%s', not a number"), name, value);

      if (unit[0] != '\0')
        tes_info_list_add (p->info, g_strdup_printf ("%s.%s_%s", p->block, key ? key : name, unit), number);
      else
        tes_info_list_add (p->info, g_strdup_printf ("%s.%s", p->block, key ? key : name), number);
    }

  return TRUE;
}

static char **
split_csv (const char *text)
{
  char **cells = g_strsplit (text, ",", -1);

  for (guint i = 0; cells[i]; i++)
    g_strstrip (cells[i]);

  return cells;
}

static gboolean
parse_perf_header (Parser      *p,
                   guint        line,
                   const char  *text,
                   GError     **error)
{
  g_auto(GStrv) cells = split_csv (text);
  guint n = g_strv_length (cells);

  if (n < 2 || !g_str_equal (cells[0], "Metric"))
    {
      g_autofree char *got = tes_describe_text (text, strlen (text), 60);

      return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                      _("expected the 'Metric, Avg, Min, Max, Std' header of the table on line %u, got '%s'"),
                                      p->state_line, got);
    }

  g_clear_pointer (&p->columns, g_ptr_array_unref);
  p->columns = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 1; i < n; i++)
    {
      if (cells[i][0] == '\0')
        return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                        _("column %u of the header has no name"), i + 1);
      g_ptr_array_add (p->columns, g_ascii_strdown (cells[i], -1));
    }

  p->n_rows = 0;
  return TRUE;
}

/* A table row: its name, then one number per column of the header; each
 * becomes info "<table>.<name>.<column>". */
static gboolean
add_row_values (Parser      *p,
                guint        line,
                char       **cells,
                GError     **error)
{
  for (guint i = 1; cells[i]; i++)
    {
      const char *column = g_ptr_array_index (p->columns, i - 1);

      if (!is_number (cells[i]))
        {
          g_autofree char *got = tes_describe_text (cells[i], strlen (cells[i]), 40);

          return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                          _("%s %s is '%s', not a number"), cells[0], column, got);
        }
      tes_info_list_add (p->info, g_strdup_printf ("%s.%s.%s", p->table, cells[0], column), cells[i]);
    }

  p->n_rows++;
  return TRUE;
}

static gboolean
parse_perf_row (Parser      *p,
                guint        line,
                const char  *text,
                GError     **error)
{
  g_auto(GStrv) cells = split_csv (text);
  guint n = g_strv_length (cells);

  if (n != p->columns->len + 1)
    return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                    _("row has %u cells; the header has %u"), n, p->columns->len + 1);
  if (cells[0][0] == '\0')
    return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                    _("row has no metric name"));

  return add_row_values (p, line, cells, error);
}

static gboolean
parse_latency_row (Parser      *p,
                   guint        line,
                   char       **words,
                   GError     **error)
{
  guint n = g_strv_length (words);

  if (n != p->columns->len + 1)
    return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                    _("row has %u cells; the header has %u columns and the row name"),
                                    n, p->columns->len);

  p->n_latency++;
  return add_row_values (p, line, words, error);
}

static void
start_latency_table (Parser  *p,
                     char   **words)
{
  g_clear_pointer (&p->columns, g_ptr_array_unref);
  p->columns = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; words[i]; i++)
    g_ptr_array_add (p->columns, g_strdup (words[i]));

  g_free (p->table);
  p->table = p->section ? g_strdup_printf ("latency.%s", p->section) : g_strdup ("latency");
  p->n_rows = 0;
}

static void
add_message (Parser     *p,
             const char *text)
{
  p->n_messages++;
  if (p->n_messages <= MAX_MESSAGES)
    tes_info_list_add (p->info, g_strdup_printf ("message.%u", p->n_messages), text);
}

/* A "Something:" line that no table followed was a message after all. */
static void
drop_title (Parser *p)
{
  add_message (p, p->title);
  g_clear_pointer (&p->section, g_free);
  g_clear_pointer (&p->title, g_free);
  p->state = STATE_TOP;
}

/* Handles a line outside any table: block starts, file lines, messages. */
static gboolean
parse_top (Parser      *p,
           guint        line,
           const char  *text,
           GError     **error)
{
  g_auto(GStrv) words = NULL;
  g_autofree char *name = NULL;
  g_autofree char *what = NULL;
  g_autofree char *value = NULL;

  if (is_stats_marker (text))
    {
      p->n_blocks++;
      g_free (p->block);
      p->block = p->n_blocks == 1 ? g_strdup ("stats") : g_strdup_printf ("stats.%u", p->n_blocks);
      p->state = STATE_STATS_HEAD;
      p->state_line = line;
      return TRUE;
    }

  if (g_str_has_prefix (text, "Writing file:"))
    {
      const char *path = text + strlen ("Writing file:");

      while (*path == ' ')
        path++;
      if (*path == '\0')
        return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                        _("'Writing file:' names no file"));
      if (!g_hash_table_contains (p->outputs, path))
        {
          g_hash_table_add (p->outputs, g_strdup (path));
          tes_info_list_add (p->info, g_strdup_printf ("output.%u", g_hash_table_size (p->outputs)), path);
        }
      return TRUE;
    }

  if (g_str_has_prefix (text, "Deleting previous file:"))
    return TRUE;

  if (parse_percentile (text, &name, &what, &value))
    {
      tes_info_list_add (p->info,
                         g_strdup_printf ("latency.%s%s%s.%s", p->section ? p->section : "",
                                          p->section ? "." : "", name, what),
                         value);
      p->n_latency++;
      return TRUE;
    }

  words = split_words (text);
  if (is_latency_header (words))
    {
      start_latency_table (p, words);
      p->state = STATE_LATENCY_ROWS;
      p->state_line = line;
      return TRUE;
    }

  /* "All activations combined:": a latency section; the column header
   * must follow */
  if (g_str_has_suffix (text, ":") && strchr (text, ',') == NULL && !g_str_has_suffix (text, "::"))
    {
      g_autofree char *title = g_strndup (text, strlen (text) - 1);
      g_autofree char *s = tes_slugify (title);

      if (s[0] != '\0' && strchr (title, ':') == NULL)
        {
          g_free (p->section);
          p->section = g_steal_pointer (&s);
          g_free (p->title);
          p->title = g_strdup (text);
          p->state = STATE_LATENCY_HEADER;
          p->state_line = line;
          return TRUE;
        }
    }

  add_message (p, text);
  return TRUE;
}

static gboolean
parse_text_line (Parser      *p,
                 guint        line,
                 const char  *text,
                 GError     **error)
{
  switch (p->state)
    {
    case STATE_TOP:
      return parse_top (p, line, text, error);

    case STATE_STATS_HEAD:
      if (!is_stats_head (text))
        {
          g_autofree char *got = tes_describe_text (text, strlen (text), 60);

          return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                          _("expected 'InferenceCnt N TotalDuration Nus BatchSize N Inf/Sec X' after "
                                            "the Stats marker on line %u, got '%s'"), p->state_line, got);
        }
      p->state = STATE_STATS;
      return parse_stats_head (p, line, text, error);

    case STATE_STATS:
      if (is_perf_title (text))
        {
          g_autofree char *title = g_strndup (text, strlen (text) - strlen (" Performance:"));
          g_autofree char *s = tes_slugify (title);

          g_free (p->table);
          p->table = g_strdup_printf ("%s.%s", p->block, s);
          p->state = STATE_PERF_HEADER;
          p->state_line = line;
          return TRUE;
        }
      /* anything else ends the block */
      p->state = STATE_TOP;
      return parse_top (p, line, text, error);

    case STATE_PERF_HEADER:
      if (!parse_perf_header (p, line, text, error))
        return FALSE;
      p->state = STATE_PERF_ROWS;
      return TRUE;

    case STATE_PERF_ROWS:
      if (strchr (text, ',') != NULL)
        return parse_perf_row (p, line, text, error);
      if (p->n_rows == 0)
        return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                        _("the table on line %u has no rows"), p->state_line);
      p->state = STATE_STATS;
      return parse_text_line (p, line, text, error);

    case STATE_LATENCY_HEADER:
      {
        g_auto(GStrv) words = split_words (text);

        if (!is_latency_header (words))
          {
            /* "Something:" followed by no table was just a message */
            drop_title (p);
            return parse_top (p, line, text, error);
          }
        start_latency_table (p, words);
        p->state = STATE_LATENCY_ROWS;
        p->state_line = line;
        return TRUE;
      }

    case STATE_LATENCY_ROWS:
      {
        g_auto(GStrv) words = split_words (text);
        guint n = g_strv_length (words);

        /* a row: a name, then numbers */
        if (n >= 2 && !is_number (words[0]) && (is_number (words[1]) || n == p->columns->len + 1) &&
            strchr (words[0], ':') == NULL)
          return parse_latency_row (p, line, words, error);
        if (p->n_rows == 0)
          return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                          _("the table on line %u has no rows"), p->state_line);
        p->state = STATE_TOP;
        return parse_top (p, line, text, error);
      }

    default:
      g_assert_not_reached ();
    }

  return TRUE;
}

/* A blank line ends tables; a block cut off before its table is an error. */
static gboolean
end_block (Parser      *p,
           guint        line,
           gboolean     at_eof,
           GError     **error)
{
  switch (p->state)
    {
    case STATE_STATS_HEAD:
    case STATE_PERF_HEADER:
      if (!at_eof && p->state == STATE_STATS_HEAD)
        return TRUE;   /* blank lines may sit between the marker and its line */
      return tes_import_fail_at_line (error, TES_IMPORT_ERROR_TRUNCATED, p->context->path, line,
                                      _("the %s begun on line %u ends before its %s"),
                                      p->state == STATE_STATS_HEAD ? "Stats block" : "table",
                                      p->state_line,
                                      p->state == STATE_STATS_HEAD ? "InferenceCnt line" : "header");

    case STATE_PERF_ROWS:
    case STATE_LATENCY_ROWS:
      if (p->n_rows == 0)
        return tes_import_fail_at_line (error, TES_IMPORT_ERROR_TRUNCATED, p->context->path, line,
                                        _("the table begun on line %u ends before its first row"), p->state_line);
      p->state = p->state == STATE_PERF_ROWS ? STATE_STATS : STATE_TOP;
      return TRUE;

    case STATE_LATENCY_HEADER:
      drop_title (p);
      return TRUE;

    case STATE_TOP:
    case STATE_STATS:
    default:
      return TRUE;
    }
}

static guint
tes_qaic_runner_importer_sniff (TesImporter  *importer,
                                const guint8 *head,
                                gsize         head_len,
                                const char   *basename)
{
  TesLineReader reader;
  const char *line;
  gsize len;
  gboolean not_text;
  gboolean marker = FALSE, stats_head = FALSE, perf = FALSE;
  gboolean latency_header = FALSE, percentile = FALSE;
  guint writes = 0, latency_rows = 0;

  /* a JSON trace's head is thousands of short lines: never classify them */
  if (tes_head_is_json (head, head_len))
    return 0;

  tes_line_reader_init_for_head (&reader, head, head_len);

  while (tes_line_reader_next_text (&reader, &line, &len, &not_text))
    {
      g_autofree char *text = g_strstrip (g_strndup (line, len));
      g_autofree char *a = NULL, *b = NULL, *c = NULL;

      if (is_stats_marker (text))
        marker = TRUE;
      else if (is_stats_head (text) && strstr (text, " TotalDuration ") != NULL)
        stats_head = TRUE;
      else if (g_str_has_prefix (text, "Metric,") && strstr (text, "Avg") != NULL)
        perf = TRUE;
      else if (g_str_has_prefix (text, "Writing file:") &&
               (strstr (text, "aic-profiling") != NULL || strstr (text, "-activation-") != NULL))
        writes++;
      else if (parse_percentile (text, &a, &b, &c))
        percentile = TRUE;
      else
        {
          g_auto(GStrv) words = split_words (text);

          if (is_latency_header (words))
            latency_header = TRUE;
          else if (latency_header && g_strv_length (words) >= 3 &&
                   (g_str_has_prefix (words[0], "dev") || g_str_has_prefix (words[0], "host")) &&
                   is_number (words[1]))
            latency_rows++;
        }
    }

  if (not_text)
    return 0;
  if (marker && stats_head)
    return perf ? 95 : 85;
  if (latency_header && latency_rows >= 2)
    return percentile ? 90 : 75;
  if (writes >= 2)
    return 60;

  return 0;
}

static gboolean
tes_qaic_runner_importer_import (TesImporter       *importer,
                                 TesImportContext  *context,
                                 GError           **error)
{
  g_auto(TesLineReader) reader = { 0 };
  g_auto(Parser) p = { 0 };
  TesCacheWriter *w = context->writer;
  const char *line;
  gsize len;

  p.context = context;
  p.info = tes_info_list_new ();
  p.outputs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  p.state = STATE_TOP;

  if (!tes_line_reader_init (&reader, context->path, error))
    return FALSE;

  while (tes_line_reader_next (&reader, &line, &len))
    {
      g_autofree char *text = NULL;

      if (!tes_line_reader_check_text (&reader, context->path, line, len, error))
        return FALSE;

      text = g_strstrip (g_strndup (line, len));
      if (text[0] == '\0')
        {
          if (!end_block (&p, reader.line_no, FALSE, error))
            return FALSE;
          continue;
        }

      if (p.first.count == 0)
        tes_line_note_add (&p.first, reader.line_no, text, strlen (text));

      if (!parse_text_line (&p, reader.line_no, text, error))
        {
          tes_line_reader_note_cut (&reader, context->path, error);
          return FALSE;
        }

      if (g_cancellable_set_error_if_cancelled (context->cancellable, error))
        return FALSE;
    }

  if (!end_block (&p, reader.line_no, TRUE, error))
    return FALSE;

  if (p.n_blocks == 0 && p.n_latency == 0 && g_hash_table_size (p.outputs) == 0)
    return tes_import_fail_nothing (error, context->path, _("qaic-runner output"), &p.first,
                                    _("no qaic-runner ' ---- Stats ----' block, latency table or 'Writing file:' line; "
                                      "the file starts with"));

  tes_info_list_write (p.info, w, context->source_id);

  if (p.n_messages > MAX_MESSAGES)
    {
      g_autofree char *more = g_strdup_printf ("%u more messages not kept", p.n_messages - MAX_MESSAGES);

      tes_cache_writer_set_info (w, context->source_id, "warning.messages", more);
    }

  return TRUE;
}

static void
tes_qaic_runner_importer_class_init (TesQaicRunnerImporterClass *klass)
{
  TesImporterClass *importer_class = TES_IMPORTER_CLASS (klass);

  importer_class->name = "qaic-runner-stdout";
  importer_class->title = "Qualcomm qaic-runner stdout / latency stats";
  importer_class->version = 1;
  importer_class->sniff = tes_qaic_runner_importer_sniff;
  importer_class->import = tes_qaic_runner_importer_import;
}

static void
tes_qaic_runner_importer_init (TesQaicRunnerImporter *self)
{
}
