/* tes-qaic-stats-ops.c
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
#include "tes-json.h"
#include "tes-qaic-stats-private.h"
#include "tes-text.h"

#include <math.h>
#include <string.h>

/* The per-core operator table of a qaic stats file: its column header,
 * its rows (columns found by the header, then the op details), and the
 * check of every row's percentages against its core's total line. */

/* Every control character as \u00XX (tabs too): how this importer has
 * always written its args, kept so that its rows stay as they were. */
void
tes_qaic_stats_append_json_string (GString    *out,
                                   const char *s)
{
  tes_json_append_string_full (out, s, -1, TES_JSON_ESCAPE_UNICODE);
}

static void
column_free (gpointer data)
{
  TesQaicColumn *column = data;

  g_free (column->name);
  g_free (column);
}

static void
op_row_free (gpointer data)
{
  TesQaicOpRow *row = data;

  g_free (row->core_name);
  g_free (row->label);
  g_free (row->args);
  g_free (row->ucycles_pct_text);
  g_free (row->pcycles_pct_text);
  g_free (row);
}

static void
thread_row_clear (gpointer data)
{
  TesQaicThreadRow *row = data;

  g_free (row->engine);
  g_free (row->utilization);
}

void
tes_qaic_stats_core_free (gpointer data)
{
  TesQaicCore *core = data;

  g_ptr_array_unref (core->ops);
  g_array_unref (core->threads);
  g_free (core);
}

TesQaicCore *
tes_qaic_stats_get_core (TesQaicStatsParser *p,
                         guint               number)
{
  TesQaicCore *core = g_hash_table_lookup (p->cores, GUINT_TO_POINTER (number));

  if (core == NULL)
    {
      core = g_new0 (TesQaicCore, 1);
      core->number = number;
      core->ops = g_ptr_array_new_with_free_func (op_row_free);
      core->threads = g_array_new (FALSE, TRUE, sizeof (TesQaicThreadRow));
      g_array_set_clear_func (core->threads, thread_row_clear);
      g_hash_table_insert (p->cores, GUINT_TO_POINTER (number), core);
    }

  return core;
}

void
tes_qaic_stats_parser_clear (TesQaicStatsParser *p)
{
  g_clear_pointer (&p->columns, g_ptr_array_unref);
  g_clear_pointer (&p->cores, g_hash_table_unref);
  g_clear_pointer (&p->info, g_ptr_array_unref);
  g_clear_pointer (&p->warnings, g_ptr_array_unref);
  g_clear_pointer (&p->specialization, g_free);
  g_clear_pointer (&p->network, g_free);
  tes_line_note_clear (&p->unknown);
}

/* A non-negative integer that fits in gint64; the regexes have checked
 * the digits, so only the range can fail. */
gboolean
tes_qaic_stats_parse_count (TesQaicStatsParser  *p,
                            guint                line,
                            const char          *text,
                            gint64              *out,
                            GError             **error)
{
  guint64 v;

  if (!g_ascii_string_to_unsigned (text, 10, 0, G_MAXINT64, &v, NULL))
    return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                    _("number '%s' is out of range"), text);

  *out = (gint64)v;
  return TRUE;
}

/* digits, optionally a fraction; no sign, no leading zeros (so the text
 * is also a JSON number) */
static gboolean
is_decimal (const char *s,
            gsize       len)
{
  gsize i = 0;

  while (i < len && g_ascii_isdigit (s[i]))
    i++;
  if (i == 0 || (i > 1 && s[0] == '0'))
    return FALSE;
  if (i == len)
    return TRUE;
  if (s[i] != '.' || i + 1 == len)
    return FALSE;
  for (i++; i < len; i++)
    if (!g_ascii_isdigit (s[i]))
      return FALSE;

  return TRUE;
}

static gboolean
is_integer (const char *s,
            gsize       len)
{
  return is_decimal (s, len) && memchr (s, '.', len) == NULL;
}

gboolean
tes_qaic_stats_parse_header (TesQaicStatsParser  *p,
                             guint                line,
                             GMatchInfo          *match,
                             GError             **error)
{
  g_autofree char *middle = g_match_info_fetch (match, 1);
  g_auto(GStrv) words = g_strsplit_set (middle, " \t", -1);
  g_autoptr(GPtrArray) columns = g_ptr_array_new_with_free_func (column_free);
  static const char * const required[] = { "ucycles", "ucycles(%)", "count" };

  for (guint i = 0; words[i]; i++)
    {
      TesQaicColumn *column;

      if (words[i][0] == '\0')
        continue;

      /* "out KB" is the one column name with a space in it */
      if (g_str_equal (words[i], "KB") && columns->len > 0 &&
          g_str_equal (((TesQaicColumn *)g_ptr_array_index (columns, columns->len - 1))->name, "out"))
        {
          TesQaicColumn *last = g_ptr_array_index (columns, columns->len - 1);
          g_free (last->name);
          last->name = g_strdup ("out KB");
          continue;
        }

      for (guint j = 0; j < columns->len; j++)
        if (g_str_equal (((TesQaicColumn *)g_ptr_array_index (columns, j))->name, words[i]))
          return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                          _("column '%s' appears twice in the header"), words[i]);

      column = g_new0 (TesQaicColumn, 1);
      column->name = g_strdup (words[i]);
      if (g_str_has_suffix (words[i], "(%)"))
        column->kind = TES_QAIC_CELL_PERCENT;
      else if (g_str_equal (words[i], "ucycles") || g_str_equal (words[i], "pcycles") ||
               g_str_equal (words[i], "count"))
        column->kind = TES_QAIC_CELL_INTEGER;
      else
        column->kind = TES_QAIC_CELL_DECIMAL;
      column->required = g_str_equal (words[i], "ucycles") || g_str_equal (words[i], "ucycles(%)") ||
                         g_str_equal (words[i], "count");
      g_ptr_array_add (columns, column);
    }

  for (guint r = 0; r < G_N_ELEMENTS (required); r++)
    {
      gboolean found = FALSE;

      for (guint j = 0; j < columns->len; j++)
        found |= g_str_equal (((TesQaicColumn *)g_ptr_array_index (columns, j))->name, required[r]);
      if (!found)
        return tes_import_fail_at_line (error, TES_IMPORT_ERROR_UNSUPPORTED, p->context->path, line,
                                        _("the column header has no '%s' column"), required[r]);
    }

  g_clear_pointer (&p->columns, g_ptr_array_unref);
  p->columns = g_steal_pointer (&columns);
  p->header_line = line;

  return TRUE;
}

/* "aicconvolutiond32 HMX TCM (float16, i8, index32)": op kind (printed
 * with a trailing space for some kinds), engine, memory, dtypes. */
static gboolean
parse_details (TesQaicStatsParser  *p,
               guint                line,
               const char          *details,
               GString             *args,
               char               **label,
               GError             **error)
{
  g_autofree char *head = NULL;
  g_auto(GStrv) words = NULL;
  g_autoptr(GPtrArray) parts = g_ptr_array_new ();
  g_autoptr(GString) normal = g_string_new (NULL);
  g_auto(GStrv) dtypes = NULL;
  const char *open = strchr (details, '(');

  if (open != NULL)
    {
      g_autofree char *tail = g_strstrip (g_strdup (open));
      gsize tail_len = strlen (tail);
      g_autofree char *inner = NULL;

      if (tail[tail_len - 1] != ')' || strchr (tail + 1, '(') != NULL)
        return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                        _("operator details '%s' do not end with one '(…)' list of data types"), details);

      inner = g_strndup (tail + 1, tail_len - 2);
      dtypes = g_strsplit (inner, ",", -1);
      for (guint i = 0; dtypes[i]; i++)
        g_strstrip (dtypes[i]);
      if (g_strv_length (dtypes) == 1 && dtypes[0][0] == '\0')
        g_clear_pointer (&dtypes, g_strfreev);
      head = g_strndup (details, open - details);
    }
  else
    head = g_strdup (details);

  words = g_strsplit_set (head, " \t", -1);
  for (guint i = 0; words[i]; i++)
    if (words[i][0] != '\0')
      g_ptr_array_add (parts, words[i]);

  if (parts->len == 0)
    return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                    _("operator row has no op kind"));

  g_string_append (args, ",\"kind\":");
  tes_qaic_stats_append_json_string (args, g_ptr_array_index (parts, 0));
  g_string_append (normal, g_ptr_array_index (parts, 0));
  if (parts->len > 1)
    {
      g_string_append (args, ",\"engine\":");
      tes_qaic_stats_append_json_string (args, g_ptr_array_index (parts, 1));
    }
  if (parts->len > 2)
    {
      g_autoptr(GString) memory = g_string_new (NULL);

      for (guint i = 2; i < parts->len; i++)
        g_string_append_printf (memory, "%s%s", i > 2 ? " " : "", (char *)g_ptr_array_index (parts, i));
      g_string_append (args, ",\"memory\":");
      tes_qaic_stats_append_json_string (args, memory->str);
    }
  for (guint i = 1; i < parts->len; i++)
    g_string_append_printf (normal, " %s", (char *)g_ptr_array_index (parts, i));

  if (dtypes != NULL)
    {
      g_string_append (args, ",\"dtypes\":[");
      g_string_append (normal, " (");
      for (guint i = 0; dtypes[i]; i++)
        {
          if (i > 0)
            {
              g_string_append_c (args, ',');
              g_string_append (normal, ", ");
            }
          tes_qaic_stats_append_json_string (args, dtypes[i]);
          g_string_append (normal, dtypes[i]);
        }
      g_string_append_c (args, ']');
      g_string_append_c (normal, ')');
    }

  *label = g_string_free (g_steal_pointer (&normal), FALSE);
  return TRUE;
}

gboolean
tes_qaic_stats_parse_op_row (TesQaicStatsParser  *p,
                             guint                line,
                             const char          *raw,
                             gsize                raw_len,
                             const char          *text,
                             GError             **error)
{
  g_autoptr(GString) args = g_string_new ("{");
  g_autofree char *details = NULL;
  g_autofree char *label = NULL;
  g_autoptr(GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);
  TesQaicOpRow *row;
  TesQaicCore *core;
  const char *s = text;
  gsize len = strlen (text);
  gsize i = 0;
  guint64 number;
  gsize begin;

  if (p->columns == NULL)
    return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                    _("operator row before any 'core  ucycles  …  opdetails' column header"));

  /* the core: "c<N>" */
  while (i < len && !tes_is_space (s[i]))
    i++;
  {
    g_autofree char *digits = g_strndup (s + 1, i - 1);

    if (!g_ascii_string_to_unsigned (digits, 10, 0, G_MAXUINT16, &number, NULL))
      return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                      _("core number '%s' is out of range"), digits);
  }

  for (guint c = 0; c < p->columns->len; c++)
    {
      while (i < len && tes_is_space (s[i]))
        i++;
      if (i >= len)
        return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                        _("operator row has %u of the %u columns of the header on line %u, and no opdetails"),
                                        c, p->columns->len, p->header_line);
      begin = i;
      while (i < len && !tes_is_space (s[i]))
        i++;
      g_ptr_array_add (cells, g_strndup (s + begin, i - begin));
    }

  while (i < len && tes_is_space (s[i]))
    i++;
  if (i >= len)
    return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                    _("operator row has the %u columns of the header on line %u but no opdetails"),
                                    p->columns->len, p->header_line);

  /* opdetails as printed (with its trailing spaces, from the raw line) */
  details = g_strndup (raw + i, raw_len - i);
  {
    gsize dl = 0;

    while (i + dl < len && !tes_is_space (s[i + dl]))
      dl++;
    if (g_ascii_isdigit (s[i]) || (dl == 3 && strncmp (s + i, "N/A", 3) == 0))
      return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                      _("operator row has more cells than the %u columns of the header on line %u"),
                                      p->columns->len, p->header_line);
  }

  core = tes_qaic_stats_get_core (p, (guint)number);
  if (core->total_line != 0)
    return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                    _("operator row for c%u after c%u's total line (line %u): is core c%u listed twice?"),
                                    core->number, core->number, core->total_line, core->number);

  row = g_new0 (TesQaicOpRow, 1);
  row->line = line;
  row->core_name = g_strdup_printf ("c%u", core->number);
  row->ucycles = -1;
  row->count = -1;
  g_ptr_array_add (core->ops, row);
  if (core->first_op_line == 0)
    core->first_op_line = line;

  g_string_append (args, "\"core\":");
  tes_qaic_stats_append_json_string (args, row->core_name);

  for (guint c = 0; c < p->columns->len; c++)
    {
      const TesQaicColumn *column = g_ptr_array_index (p->columns, c);
      const char *cell = g_ptr_array_index (cells, c);
      gsize cl = strlen (cell);
      gboolean ok;

      g_string_append_c (args, ',');
      tes_qaic_stats_append_json_string (args, column->name);
      g_string_append_c (args, ':');

      if (g_str_equal (cell, "N/A"))
        {
          if (column->required)
            return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                            _("column '%s' is N/A; it must be a number"), column->name);
          g_string_append (args, "null");
          continue;
        }

      switch (column->kind)
        {
        case TES_QAIC_CELL_PERCENT:
          ok = cl >= 2 && cell[cl - 1] == '%' && is_decimal (cell, cl - 1);
          if (ok)
            g_string_append_len (args, cell, cl - 1);
          break;
        case TES_QAIC_CELL_INTEGER:
          ok = is_integer (cell, cl);
          if (ok)
            g_string_append (args, cell);
          break;
        case TES_QAIC_CELL_DECIMAL:
        default:
          ok = is_decimal (cell, cl);
          if (ok)
            g_string_append (args, cell);
          break;
        }

      if (!ok)
        {
          g_autofree char *got = tes_describe_text (cell, cl, 40);

          return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                          _("column '%s' holds '%s', not %s or N/A"), column->name, got,
                                          column->kind == TES_QAIC_CELL_PERCENT ? "a percentage" :
                                          column->kind == TES_QAIC_CELL_INTEGER ? "a whole number" : "a number");
        }

      if (g_str_equal (column->name, "ucycles") && !tes_qaic_stats_parse_count (p, line, cell, &row->ucycles, error))
        return FALSE;
      if (g_str_equal (column->name, "pcycles"))
        {
          if (!tes_qaic_stats_parse_count (p, line, cell, &row->pcycles, error))
            return FALSE;
          row->has_pcycles = TRUE;
        }
      if (g_str_equal (column->name, "count") && !tes_qaic_stats_parse_count (p, line, cell, &row->count, error))
        return FALSE;
      if (g_str_equal (column->name, "ucycles(%)"))
        {
          row->ucycles_pct_text = g_strndup (cell, cl - 1);
          row->ucycles_pct = g_ascii_strtod (row->ucycles_pct_text, NULL);
        }
      if (g_str_equal (column->name, "pcycles(%)"))
        {
          row->pcycles_pct_text = g_strndup (cell, cl - 1);
          row->pcycles_pct = g_ascii_strtod (row->pcycles_pct_text, NULL);
        }
    }

  if (!parse_details (p, line, details, args, &label, error))
    return FALSE;

  g_string_append (args, ",\"opdetails\":");
  tes_qaic_stats_append_json_string (args, details);
  g_string_append_printf (args, ",\"line\":%u}", line);

  row->label = g_strdup_printf ("%s %s", row->core_name, label);
  row->args = g_string_free (g_steal_pointer (&args), FALSE);

  return TRUE;
}

/* The file's own totals must explain its percentages: every op row's
 * ucycles(%) and pcycles(%) is its cycles over the core's total line,
 * printed with two decimals. */
gboolean
tes_qaic_stats_check_core (TesQaicStatsParser  *p,
                           TesQaicCore         *core,
                           guint                last_line,
                           GError             **error)
{
  if (core->ops->len > 0 && core->total_line == 0)
    return tes_import_fail_at_line (error, TES_IMPORT_ERROR_TRUNCATED, p->context->path, last_line,
                                    _("the file ends without a 'c%u total:' line for the operator rows from line %u (truncated?)"),
                                    core->number, core->first_op_line);

  for (guint i = 0; i < core->ops->len; i++)
    {
      const TesQaicOpRow *row = g_ptr_array_index (core->ops, i);

      if (core->total_ucycles > 0)
        {
          double expect = 100.0 * (double)row->ucycles / (double)core->total_ucycles;

          if (fabs (expect - row->ucycles_pct) > 0.005 + 1e-6)
            return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, row->line,
                                            _("ucycles(%%) is %s%%, but %" PRId64 " of c%u's total %" PRId64
                                              " ucycles (line %u) is %.2f%%"),
                                            row->ucycles_pct_text, row->ucycles, core->number, core->total_ucycles,
                                            core->total_line, expect);
        }

      if (row->has_pcycles && row->pcycles_pct_text != NULL && core->total_pcycles > 0)
        {
          double expect = 100.0 * (double)row->pcycles / (double)core->total_pcycles;

          if (fabs (expect - row->pcycles_pct) > 0.005 + 1e-6)
            return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, row->line,
                                            _("pcycles(%%) is %s%%, but %" PRId64 " of c%u's total %" PRId64
                                              " pcycles (line %u) is %.2f%%"),
                                            row->pcycles_pct_text, row->pcycles, core->number, core->total_pcycles,
                                            core->total_line, expect);
        }
    }

  /* "(thread max)": the total is the largest thread's. Recorded, not
   * fatal, if a file says otherwise. */
  if (core->total_line != 0 && core->threads->len > 0)
    {
      gint64 max_u = 0, max_p = 0;

      for (guint i = 0; i < core->threads->len; i++)
        {
          const TesQaicThreadRow *t = &g_array_index (core->threads, TesQaicThreadRow, i);

          max_u = MAX (max_u, t->ucycles);
          max_p = MAX (max_p, t->pcycles);
        }

      if (max_u != core->total_ucycles || max_p != core->total_pcycles)
        {
          g_autofree char *text = g_strdup_printf ("line %u: c%u total %" G_GINT64_FORMAT " ucycles, %"
                                                   G_GINT64_FORMAT " pcycles; its largest thread has %"
                                                   G_GINT64_FORMAT " ucycles, %" G_GINT64_FORMAT " pcycles",
                                                   core->total_line, core->number, core->total_ucycles,
                                                   core->total_pcycles, max_u, max_p);

          tes_info_list_add (p->warnings, g_strdup_printf ("warning.c%u.thread_max", core->number), text);
        }
    }

  return TRUE;
}

