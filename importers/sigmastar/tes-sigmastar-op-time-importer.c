/* tes-sigmastar-op-time-importer.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-sigmastar-op-time"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "tes-decimal.h"
#include "tes-import-error.h"
#include "tes-line-reader.h"
#include "tes-sigmastar-op-time-importer.h"
#include "tes-text.h"

#include <math.h>
#include <string.h>

/* SigmaStar's DumpDebug/get_op_time_cost.py prints one row per line:
 *   each mode:  "<index> <OP_TYPE> <percent>%"   in operator index order
 *   total mode: "<OP_TYPE> <percent>%"           per type, descending
 * with the percent printed as %.3f. Rows are stored as operators with the
 * vendor's own percentages so every figure shown is the one it printed. */

struct _TesSigmastarOpTimeImporter
{
  TesImporter parent_instance;
};

G_DEFINE_FINAL_TYPE (TesSigmastarOpTimeImporter, tes_sigmastar_op_time_importer, TES_TYPE_IMPORTER)

typedef enum
{
  ROW_INVALID,
  ROW_EACH,
  ROW_TOTAL,
} RowKind;

typedef struct
{
  gint64  index;
  char   *type;
  double  percent;
} Row;

/* Splits the line into at most 4 whitespace-separated fields. */
static guint
split_fields (const char  *line,
              gsize        len,
              const char **starts,
              gsize       *lens)
{
  guint n = 0;
  gsize i = 0;

  while (i < len)
    {
      gsize begin;

      while (i < len && tes_is_space (line[i]))
        i++;
      if (i >= len)
        break;
      if (n == 4)
        return 5;
      begin = i;
      while (i < len && !tes_is_space (line[i]))
        i++;
      starts[n] = line + begin;
      lens[n] = i - begin;
      n++;
    }

  return n;
}

static gboolean
parse_index (const char *s,
             gsize       len,
             gint64     *out)
{
  if (len == 0 || len > 9)
    return FALSE;

  *out = 0;
  for (gsize i = 0; i < len; i++)
    {
      if (!g_ascii_isdigit (s[i]))
        return FALSE;
      *out = *out * 10 + (s[i] - '0');
    }

  return TRUE;
}

static gboolean
valid_type (const char *s,
            gsize       len)
{
  if (len == 0 || !g_utf8_validate_len (s, len, NULL))
    return FALSE;

  /* An op type never ends with '%'; that would be a percent column. */
  return s[len - 1] != '%';
}

static RowKind
parse_row (const char *line,
           gsize       len,
           Row        *row)
{
  const char *f[4];
  gsize fl[4];
  guint n = split_fields (line, len, f, fl);

  if (n == 3 &&
      parse_index (f[0], fl[0], &row->index) &&
      valid_type (f[1], fl[1]) &&
      tes_parse_percent (f[2], fl[2], &row->percent))
    {
      row->type = g_strndup (f[1], fl[1]);
      return ROW_EACH;
    }

  if (n == 2 &&
      valid_type (f[0], fl[0]) &&
      tes_parse_percent (f[1], fl[1], &row->percent))
    {
      row->index = -1;
      row->type = g_strndup (f[0], fl[0]);
      return ROW_TOTAL;
    }

  return ROW_INVALID;
}

static guint
tes_sigmastar_op_time_importer_sniff (TesImporter  *importer,
                                      const guint8 *head,
                                      gsize         head_len,
                                      const char   *basename)
{
  TesLineReader reader;
  const char *line;
  gsize len;
  guint rows = 0;
  guint others = 0;
  RowKind first = ROW_INVALID;
  gboolean named;

  /* a JSON trace's head is thousands of short lines: never classify them */
  if (tes_head_is_json (head, head_len))
    return 0;

  tes_line_reader_init_for_head (&reader, head, head_len);

  while (tes_line_reader_next (&reader, &line, &len))
    {
      Row row = { 0 };
      RowKind kind;

      if (tes_trimmed_length (line, len) == 0)
        continue;

      kind = parse_row (line, len, &row);
      g_free (row.type);

      if (kind != ROW_INVALID && (first == ROW_INVALID || kind == first))
        {
          first = kind;
          rows++;
        }
      else
        others++;
    }

  if (rows == 0)
    return 0;

  named = basename != NULL && (strstr (basename, "op_time") || strstr (basename, "time_cost"));

  /* Every line a row: certain with the vendor's kind of name, nearly so
   * with a few rows. A listing with a damaged line is still claimed when
   * most of it is rows, so that the import names the bad line instead of
   * calling the whole file unknown. */
  if (others == 0)
    return named ? 100 : (rows >= 3 ? 90 : 40);
  if (named && rows >= others)
    return 70;
  if (rows >= 3 && others * 4 <= rows)
    return 60;

  return 0;
}

static void
row_clear (gpointer data)
{
  Row *row = data;

  g_free (row->type);
}

/* A whole listing's shares add up to 100 %, each rounded to 0.001 %; a
 * listing cut short at a line end (the last row complete) is short of
 * that, which is all there is to tell it by. */
static void
warn_if_cut_short (TesImportContext *context,
                   GArray           *rows,
                   guint             last_line)
{
  double sum = 0.0;

  for (guint i = 0; i < rows->len; i++)
    sum += g_array_index (rows, Row, i).percent;

  if (sum < 100.0 - 0.0005 * rows->len - 0.001)
    {
      g_autofree char *text = g_strdup_printf ("the shares add up to %.3f%%, not 100%%: the listing may be "
                                               "cut short (its last row is line %u)", sum, last_line);

      tes_cache_writer_set_info (context->writer, context->source_id, "warning.cut_short", text);
    }
}

static gboolean
tes_sigmastar_op_time_importer_import (TesImporter       *importer,
                                       TesImportContext  *context,
                                       GError           **error)
{
  g_auto(TesLineReader) reader = { 0 };
  g_autoptr(GArray) rows = g_array_new (FALSE, TRUE, sizeof (Row));
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  g_autoptr(GArray) lines = g_array_new (FALSE, FALSE, sizeof (guint));
  RowKind mode = ROW_INVALID;
  guint first_line = 0;
  const char *line;
  gsize len;

  g_array_set_clear_func (rows, row_clear);

  if (!tes_line_reader_init (&reader, context->path, error))
    return FALSE;

  while (tes_line_reader_next (&reader, &line, &len))
    {
      Row row = { 0 };
      RowKind kind;

      if (tes_trimmed_length (line, len) == 0)
        continue;

      if (!tes_line_reader_check_utf8 (&reader, context->path, line, len, NULL, error))
        return FALSE;

      kind = parse_row (line, len, &row);
      if (kind == ROW_INVALID)
        {
          g_autofree char *got = tes_describe_text (line, len, 60);

          return tes_line_reader_fail_row (&reader, context->path, error,
                                           _("expected '<index> <op type> <percent>%%' or '<op type> <percent>%%', "
                                             "got '%s'"), got);
        }

      if (mode == ROW_INVALID)
        {
          mode = kind;
          first_line = reader.line_no;
        }
      else if (kind != mode)
        {
          g_free (row.type);
          return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, context->path, reader.line_no,
                                          _("%s row in a listing whose line %u is a %s row"),
                                          kind == ROW_EACH ? "per-operator" : "per-type", first_line,
                                          mode == ROW_EACH ? "per-operator" : "per-type");
        }

      if (row.percent > 100.0005)
        {
          g_free (row.type);
          return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, context->path, reader.line_no,
                                          _("share %.3f%% is above 100%%"), row.percent);
        }

      if (kind == ROW_EACH)
        {
          gpointer prev = g_hash_table_lookup (seen, GSIZE_TO_POINTER ((gsize)row.index));

          if (prev != NULL)
            {
              g_free (row.type);
              return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, context->path, reader.line_no,
                                              _("operator index %" PRId64 " already listed on line %u"),
                                              row.index, GPOINTER_TO_UINT (prev));
            }
        }

      g_array_append_val (rows, row);
      g_array_append_val (lines, reader.line_no);
      if (kind == ROW_EACH)
        g_hash_table_insert (seen, GSIZE_TO_POINTER ((gsize)row.index), GUINT_TO_POINTER (reader.line_no));

      if (!tes_line_reader_tick (&reader, context, 0.9, error))
        return FALSE;
    }

  if (rows->len == 0)
    return tes_import_fail (error, TES_IMPORT_ERROR_EMPTY, context->path, _("no operator rows (empty file?)"));

  tes_cache_writer_set_info (context->writer, context->source_id, "format", "SigmaStar get_op_time_cost.py");
  tes_cache_writer_set_info (context->writer, context->source_id, "mode", mode == ROW_EACH ? "each" : "total");
  warn_if_cut_short (context, rows, g_array_index (lines, guint, lines->len - 1));

  for (guint i = 0; i < rows->len; i++)
    {
      const Row *row = &g_array_index (rows, Row, i);
      g_autofree char *name = NULL;
      TesOperatorRow op = TES_OPERATOR_ROW_INIT;

      if (row->index >= 0)
        name = g_strdup_printf ("%" G_GINT64_FORMAT " %s", row->index, row->type);

      op.source_id = context->source_id;
      op.op_index = row->index;
      op.name = name ? name : row->type;
      op.type = row->type;
      op.share = row->percent;
      tes_cache_writer_add_operator (context->writer, &op);
    }

  return TRUE;
}

static void
tes_sigmastar_op_time_importer_class_init (TesSigmastarOpTimeImporterClass *klass)
{
  TesImporterClass *importer_class = TES_IMPORTER_CLASS (klass);

  importer_class->name = "sigmastar-op-time";
  importer_class->title = "SigmaStar get_op_time_cost.py";
  importer_class->version = 2;
  importer_class->sniff = tes_sigmastar_op_time_importer_sniff;
  importer_class->import = tes_sigmastar_op_time_importer_import;
}

static void
tes_sigmastar_op_time_importer_init (TesSigmastarOpTimeImporter *self)
{
}
