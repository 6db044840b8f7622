/* tes-torq-annotated-importer.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-torq-annotated"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tes-import-error.h"
#include "tes-info.h"
#include "tes-json.h"
#include "tes-text.h"
#include "tes-torq-annotated-importer.h"
#include "tes-torq-util.h"

#include <math.h>
#include <string.h>

/* The annotated runtime profile of scripts/annotate_profiling.py ... out.csv
 * (python/torq/performance.py: pandas to_csv(index=False, sep=';')):
 *
 *   action_id;job_id;operation;invocation_names;original_operators;
 *   total_time;slice_used_<n>_in_program...;dma_in_used_in_program;
 *   dma_out_used_in_program;cdma_used_in_program;css_used_in_program;
 *   timestamp_start;timestamp_end;location
 *
 * Columns are found by name. pandas quotes a field only when it holds ';',
 * '"' or a line end ("" for a quote). Floats print as "41.0", missing values
 * as empty fields, flags as True/False. Rows come in blocks, one per
 * invocation (action_id restarts at 0); INIT invocations carry no
 * timestamps; HAL rows (action_id -1) come last.
 *
 * Timed rows become slices (µs, the runtime CSV's clock) on the lanes of
 * the process "Annotated runtime": "Actions" (named by their original
 * operators, else the operation), "HAL", and one lane per usage flag
 * ("DMA In Used", "Slice 0 Used", ... as the Torq Perfetto view calls them)
 * holding the rows that used that unit. */

struct _TesTorqAnnotatedImporter
{
  TesImporter parent_instance;
};

G_DEFINE_FINAL_TYPE (TesTorqAnnotatedImporter, tes_torq_annotated_importer, TES_TYPE_IMPORTER)

/* ------------------------------------------------------------------------
 * ';' separated records, QUOTE_MINIMAL
 * ------------------------------------------------------------------------ */

typedef struct
{
  const char *data;
  gsize       len;
  gsize       pos;
  guint       line_no;     /* first line of the current record */
  guint       next_line;
} CsvReader;

typedef enum
{
  CSV_RECORD,
  CSV_END,
  CSV_BAD_QUOTE,
  CSV_OPEN_QUOTE,
} CsvResult;

static CsvResult
csv_next (CsvReader *r,
          GPtrArray *fields)
{
  g_autoptr(GString) field = g_string_new (NULL);

  g_ptr_array_set_size (fields, 0);
  if (r->pos >= r->len)
    return CSV_END;

  if (r->next_line == 0)
    r->next_line = 1;
  r->line_no = r->next_line;

  for (;;)
    {
      if (r->pos < r->len && r->data[r->pos] == '"' && field->len == 0)
        {
          /* a quoted field */
          r->pos++;
          for (;;)
            {
              char c;

              if (r->pos >= r->len)
                return CSV_OPEN_QUOTE;
              c = r->data[r->pos++];
              if (c == '"')
                {
                  if (r->pos < r->len && r->data[r->pos] == '"')
                    {
                      g_string_append_c (field, '"');
                      r->pos++;
                      continue;
                    }
                  break;
                }
              if (c == '\n')
                r->next_line++;
              g_string_append_c (field, c);
            }

          if (r->pos < r->len && r->data[r->pos] == '\r' && r->pos + 1 < r->len && r->data[r->pos + 1] == '\n')
            r->pos++;
          if (r->pos < r->len && r->data[r->pos] != ';' && r->data[r->pos] != '\n')
            return CSV_BAD_QUOTE;
        }
      else
        {
          while (r->pos < r->len && r->data[r->pos] != ';' && r->data[r->pos] != '\n')
            g_string_append_c (field, r->data[r->pos++]);
          if (field->len > 0 && field->str[field->len - 1] == '\r' &&
              (r->pos >= r->len || r->data[r->pos] == '\n'))
            g_string_truncate (field, field->len - 1);
        }

      g_ptr_array_add (fields, g_strndup (field->str, field->len));
      g_string_truncate (field, 0);

      if (r->pos >= r->len)
        return CSV_RECORD;
      if (r->data[r->pos++] == '\n')
        {
          r->next_line++;
          return CSV_RECORD;
        }
    }
}

/* ------------------------------------------------------------------------
 * Columns
 * ------------------------------------------------------------------------ */

enum
{
  COL_ACTION,
  COL_JOB,
  COL_OPERATION,
  COL_INVOCATIONS,
  COL_OPERATORS,
  COL_TOTAL,
  COL_START,
  COL_END,
  COL_LOCATION,
  N_COLS
};

static const char * const col_names[N_COLS] = {
  "action_id", "job_id", "operation", "invocation_names", "original_operators",
  "total_time", "timestamp_start", "timestamp_end", "location",
};

/* columns every file must have */
static const gboolean col_required[N_COLS] = {
  [COL_ACTION] = TRUE, [COL_OPERATION] = TRUE, [COL_START] = TRUE, [COL_END] = TRUE,
};

typedef struct
{
  char   *lane;
  gint64  sort;
  gint    column;
} FlagColumn;

static void
flag_column_clear (gpointer data)
{
  FlagColumn *flag = data;

  g_free (flag->lane);
}

/* The lane a usage flag column fills (named as the Torq Perfetto view's
 * "NPU Task Measurements" lanes). */
static gboolean
flag_lane (const char  *column,
           char       **lane,
           gint64      *sort)
{
  static const struct { const char *column; const char *lane; gint64 sort; } fixed[] = {
    { "dma_in_used_in_program", "DMA In Used", TES_TORQ_SORT_DMA_IN },
    { "dma_out_used_in_program", "DMA Out Used", TES_TORQ_SORT_DMA_OUT },
    { "cdma_used_in_program", "CDMA Used", TES_TORQ_SORT_CDMA },
    { "css_used_in_program", "CSS Used", TES_TORQ_SORT_CSS },
  };
  const gsize prefix = strlen ("slice_used_");
  const gsize suffix = strlen ("_in_program");
  gint64 slice;

  for (guint i = 0; i < G_N_ELEMENTS (fixed); i++)
    if (g_str_equal (column, fixed[i].column))
      {
        *lane = g_strdup (fixed[i].lane);
        *sort = fixed[i].sort;
        return TRUE;
      }

  if (g_str_has_prefix (column, "slice_used_") && g_str_has_suffix (column, "_in_program") &&
      strlen (column) > prefix + suffix &&
      tes_torq_parse_int (column + prefix, strlen (column) - prefix - suffix, &slice) &&
      slice >= 0 && slice < 64)
    {
      *lane = g_strdup_printf ("Slice %" G_GINT64_FORMAT " Used", slice);
      *sort = TES_TORQ_SORT_SLICE + slice;
      return TRUE;
    }

  return FALSE;
}

static gboolean
header_is_annotated (GPtrArray *fields)
{
  gboolean found[N_COLS] = { FALSE };

  if (fields->len < 4 || !g_str_equal (g_ptr_array_index (fields, 0), "action_id"))
    return FALSE;

  for (guint i = 0; i < fields->len; i++)
    for (guint c = 0; c < N_COLS; c++)
      if (g_str_equal (g_ptr_array_index (fields, i), col_names[c]))
        found[c] = TRUE;

  for (guint c = 0; c < N_COLS; c++)
    if (col_required[c] && !found[c])
      return FALSE;

  return TRUE;
}

static guint
tes_torq_annotated_importer_sniff (TesImporter  *importer,
                                   const guint8 *head,
                                   gsize         head_len,
                                   const char   *basename)
{
  g_autoptr(GPtrArray) fields = g_ptr_array_new_with_free_func (g_free);
  CsvReader reader = { (const char *)head, head_len, 0, 0, 0 };
  const char *nl = memchr (head, '\n', head_len);

  /* the header line only, and it must be complete */
  if (nl == NULL)
    return 0;
  reader.len = (gsize)(nl - (const char *)head) + 1;

  if (csv_next (&reader, fields) != CSV_RECORD || !header_is_annotated (fields))
    return 0;

  return 95;
}

/* A number as Python prints a float64 ("41.0", "6093470691.0", "1e+16"):
 * the JSON number syntax, so that it can go into the args as printed. */
static gboolean
is_number (const char *p)
{
  if (*p == '-')
    p++;
  if (!g_ascii_isdigit (*p))
    return FALSE;
  if (*p == '0' && g_ascii_isdigit (p[1]))
    return FALSE;
  while (g_ascii_isdigit (*p))
    p++;
  if (*p == '.')
    {
      if (!g_ascii_isdigit (*++p))
        return FALSE;
      while (g_ascii_isdigit (*p))
        p++;
    }
  if (*p == 'e' || *p == 'E')
    {
      p++;
      if (*p == '+' || *p == '-')
        p++;
      if (!g_ascii_isdigit (*p))
        return FALSE;
      while (g_ascii_isdigit (*p))
        p++;
    }

  return *p == '\0';
}

/* pandas float64 columns: "41.0", "6093470691.0"; NaN is an empty field
 * (handled by the callers). */
static gboolean
parse_float (const char *text,
             double     *out)
{
  if (!is_number (text))
    return FALSE;
  *out = g_ascii_strtod (text, NULL);

  return isfinite (*out);
}

static gboolean
parse_flag (const char *text,
            gint       *flag)
{
  if (*text == '\0')
    *flag = -1;
  else if (g_str_equal (text, "True"))
    *flag = 1;
  else if (g_str_equal (text, "False"))
    *flag = 0;
  else
    return FALSE;

  return TRUE;
}

static void
append_operators_json (GString    *json,
                       const char *text)
{
  g_auto(GStrv) ops = g_strsplit (text, " ", -1);
  gboolean first = TRUE;

  g_string_append (json, ",\"original_operators\":[");
  for (guint i = 0; ops[i]; i++)
    {
      const char *at;
      gint64 line;

      if (ops[i][0] == '\0')
        continue;
      if (!first)
        g_string_append_c (json, ',');
      first = FALSE;
      g_string_append_c (json, '{');
      at = strstr (ops[i], "@L");
      if (at != NULL && tes_torq_parse_int (at + 2, strlen (at + 2), &line) && line > 0)
        {
          tes_json_member (json, "op", ops[i], at - ops[i]);
          tes_json_member_int (json, "line", line);
        }
      else
        tes_json_member (json, "op", ops[i], -1);
      g_string_append_c (json, '}');
    }
  g_string_append_c (json, ']');
}

static void
append_location_json (GString    *json,
                      const char *text,
                      gboolean    hal)
{
  g_autoptr(GArray) locs = tes_torq_loc_array_new ();
  gsize len = strlen (text);

  tes_json_member (json, "location", text, -1);

  /* debug_info.py pretty_print_location: "@L10C10+@L11C10" for file
   * positions, the name for a NameLoc, else the raw location. HAL rows
   * hold the event's name. */
  if (hal || len == 0)
    return;
  if (tes_torq_parse_short_loc (text, len, locs) || tes_torq_parse_mlir_loc (text, len, locs))
    tes_torq_append_locs_json (json, locs);
  else
    {
      TesTorqLoc loc = { 0 };

      loc.name = g_strdup (text);
      g_array_append_val (locs, loc);
      tes_torq_append_locs_json (json, locs);
    }
}

static gboolean
bad_row (TesImportContext  *context,
         CsvReader         *reader,
         GError           **error,
         const char        *column,
         const char        *what,
         const char        *value)
{
  g_autofree char *got = tes_describe_text (value, strlen (value), 60);

  return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, context->path, reader->line_no,
                                  _("column %s: %s, got '%s'"), column, what, got);
}

static gboolean
tes_torq_annotated_importer_import (TesImporter       *importer,
                                    TesImportContext  *context,
                                    GError           **error)
{
  g_autoptr(GMappedFile) mapped = NULL;
  g_autoptr(GPtrArray) header = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) fields = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (tes_torq_row_free);
  g_autoptr(GArray) flags = g_array_new (FALSE, TRUE, sizeof (FlagColumn));
  g_autoptr(GHashTable) lanes = tes_torq_lanes_new ();
  CsvReader reader = { 0 };
  gint cols[N_COLS];
  gint64 prev_action = G_MAXINT64;
  guint block = 0;
  guint n_rows = 0;
  guint n_timed = 0;
  guint n_untimed = 0;
  guint n_hal = 0;
  gint64 clock;
  gint64 process;
  CsvResult res;

  g_array_set_clear_func (flags, flag_column_clear);

  if (!(mapped = g_mapped_file_new (context->path, FALSE, error)))
    return FALSE;
  reader.data = g_mapped_file_get_contents (mapped);
  reader.len = g_mapped_file_get_length (mapped);

  if (reader.len == 0)
    return tes_import_fail (error, TES_IMPORT_ERROR_EMPTY, context->path, _("empty file"));
  if (!g_utf8_validate_len (reader.data, reader.len, NULL))
    {
      const char *end = NULL;
      guint line = 1;

      g_utf8_validate_len (reader.data, reader.len, &end);
      for (const char *p = reader.data; p < end; p++)
        line += *p == '\n';
      return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, context->path, line,
                                      _("not UTF-8 text (byte %" "zu" ")"), (gsize)(end - reader.data));
    }

  /* the header */
  res = csv_next (&reader, header);
  if (res != CSV_RECORD || !header_is_annotated (header))
    {
      const char *nl = memchr (reader.data, '\n', reader.len);
      gsize n = nl ? (gsize)(nl - reader.data) : reader.len;
      g_autofree char *got = tes_describe_text (reader.data, n, 80);

      return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, context->path, 1,
                                      _("expected the header 'action_id;job_id;operation;...;timestamp_start;"
                                        "timestamp_end;location', got '%s'"), got);
    }

  /* a column named twice: which one holds the value is anyone's guess */
  for (guint i = 1; i < header->len; i++)
    for (guint j = 0; j < i; j++)
      if (g_str_equal (g_ptr_array_index (header, i), g_ptr_array_index (header, j)))
        return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, context->path, 1,
                                        _("column %u of the header repeats column %u, '%s'"),
                                        i + 1, j + 1, (const char *)g_ptr_array_index (header, i));

  for (guint c = 0; c < N_COLS; c++)
    {
      cols[c] = -1;
      for (guint i = 0; i < header->len; i++)
        if (g_str_equal (g_ptr_array_index (header, i), col_names[c]))
          cols[c] = (gint)i;
    }
  for (guint i = 0; i < header->len; i++)
    {
      FlagColumn flag = { 0 };

      if (flag_lane (g_ptr_array_index (header, i), &flag.lane, &flag.sort))
        {
          flag.column = (gint)i;
          g_array_append_val (flags, flag);
        }
    }

  while ((res = csv_next (&reader, fields)) != CSV_END)
    {
      g_autoptr(GString) args = g_string_new ("{");
      const char *operation;
      const char *operators;
      const char *invocations;
      const char *location;
      gint64 action;
      double start = NAN, end = NAN, value;
      gboolean timed;
      gboolean hal;

      if (res == CSV_OPEN_QUOTE)
        return tes_import_fail_at_line (error, TES_IMPORT_ERROR_TRUNCATED, context->path, reader.line_no,
                                        _("the file ends inside a quoted field"));
      if (res == CSV_BAD_QUOTE)
        return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, context->path, reader.line_no,
                                        _("text after the closing quote of a field"));

      /* a blank line */
      if (fields->len == 1 && *(char *)g_ptr_array_index (fields, 0) == '\0')
        continue;

      if (fields->len != header->len)
        {
          gboolean cut = reader.pos >= reader.len && reader.data[reader.len - 1] != '\n';

          return tes_import_fail_at_line (error, cut ? TES_IMPORT_ERROR_TRUNCATED : TES_IMPORT_ERROR_INVALID,
                                          context->path, reader.line_no, _("%s%u columns, the header has %u"),
                                          cut ? "the file is cut short inside its last line: " : "",
                                          fields->len, header->len);
        }

#define FIELD(c) (cols[c] >= 0 ? (const char *)g_ptr_array_index (fields, cols[c]) : "")

      if (!tes_torq_parse_int (FIELD (COL_ACTION), strlen (FIELD (COL_ACTION)), &action) || action < -1)
        return bad_row (context, &reader, error, "action_id", "expected a number (or -1)", FIELD (COL_ACTION));
      operation = FIELD (COL_OPERATION);
      if (*operation == '\0')
        return bad_row (context, &reader, error, "operation", "empty", operation);
      operators = FIELD (COL_OPERATORS);
      invocations = FIELD (COL_INVOCATIONS);
      location = FIELD (COL_LOCATION);
      hal = action < 0;

      if (*FIELD (COL_START) != '\0' && !parse_float (FIELD (COL_START), &start))
        return bad_row (context, &reader, error, "timestamp_start", "expected µs", FIELD (COL_START));
      if (*FIELD (COL_END) != '\0' && !parse_float (FIELD (COL_END), &end))
        return bad_row (context, &reader, error, "timestamp_end", "expected µs", FIELD (COL_END));
      if (isnan (start) != isnan (end))
        return bad_row (context, &reader, error, isnan (start) ? "timestamp_start" : "timestamp_end",
                        "empty while the other timestamp is given", "");
      timed = !isnan (start);
      if (timed && (start < 0 || end < start || end > 9.0e15))
        return bad_row (context, &reader, error, "timestamp_end", "ends before it starts (or out of range)",
                        FIELD (COL_END));

      /* blocks: action ids restart at 0 for every invocation */
      if (!hal && action <= prev_action)
        block++;
      if (!hal)
        prev_action = action;

      if (!hal)
        {
          tes_json_member_int (args, "block", block);
          tes_json_member_int (args, "action", action);
        }
      if (*FIELD (COL_JOB) != '\0')
        {
          if (!parse_float (FIELD (COL_JOB), &value) || value < 0 || value != floor (value))
            return bad_row (context, &reader, error, "job_id", "expected a job number", FIELD (COL_JOB));
          tes_json_member_int (args, "job", (gint64)value);
        }
      tes_json_member (args, "operation", operation, -1);
      if (*invocations != '\0')
        {
          g_auto(GStrv) names = g_strsplit (invocations, ",", -1);

          g_string_append (args, ",\"invocation_names\":[");
          for (guint i = 0; names[i]; i++)
            {
              if (i > 0)
                g_string_append_c (args, ',');
              tes_json_append_string (args, names[i], -1);
            }
          g_string_append_c (args, ']');
        }
      if (*operators != '\0')
        append_operators_json (args, operators);
      if (*FIELD (COL_TOTAL) != '\0')
        {
          if (!parse_float (FIELD (COL_TOTAL), &value) || value < 0)
            return bad_row (context, &reader, error, "total_time", "expected µs", FIELD (COL_TOTAL));
          g_string_append (args, ",\"total_time_us\":");
          g_string_append (args, FIELD (COL_TOTAL));
        }
      for (guint f = 0; f < flags->len; f++)
        {
          const FlagColumn *flag = &g_array_index (flags, FlagColumn, f);
          const char *text = g_ptr_array_index (fields, flag->column);
          gint set;

          if (!parse_flag (text, &set))
            return bad_row (context, &reader, error, g_ptr_array_index (header, flag->column),
                            "expected True, False or nothing", text);
          if (set >= 0)
            {
              g_string_append_c (args, ',');
              tes_json_append_string (args, g_ptr_array_index (header, flag->column), -1);
              g_string_append (args, set ? ":true" : ":false");
            }
        }
      /* columns this importer does not know: kept as text */
      for (guint i = 0; i < header->len; i++)
        {
          gboolean known = FALSE;

          for (guint c = 0; c < N_COLS; c++)
            known |= cols[c] == (gint)i;
          for (guint f = 0; f < flags->len; f++)
            known |= g_array_index (flags, FlagColumn, f).column == (gint)i;
          if (!known && *(char *)g_ptr_array_index (fields, i) != '\0')
            tes_json_member (args, g_ptr_array_index (header, i), g_ptr_array_index (fields, i), -1);
        }
      append_location_json (args, location, hal);
      g_string_append_c (args, '}');

      n_rows++;
      if (hal)
        n_hal++;

      if (!timed)
        {
          n_untimed++;
          continue;
        }
      n_timed++;

      {
        gint64 t0 = (gint64)llround (start);
        gint64 dur = (gint64)llround (end) - t0;
        TesTorqRow *row = tes_torq_row_new (lanes, hal ? "HAL" : "Actions", hal ? -1 : -2);

        row->start = t0;
        row->dur = dur;
        row->category = g_strdup (operation);
        row->args = g_strdup (args->str);
        if (hal)
          row->name = g_strdup (*location != '\0' ? location : operation);
        else
          row->name = g_strdup (*operators != '\0' ? operators : operation);
        g_ptr_array_add (rows, row);

        for (guint f = 0; f < flags->len && !hal; f++)
          {
            const FlagColumn *flag = &g_array_index (flags, FlagColumn, f);
            TesTorqRow *used;

            if (!g_str_equal (g_ptr_array_index (fields, flag->column), "True"))
              continue;
            used = tes_torq_row_new (lanes, flag->lane, flag->sort);
            used->start = t0;
            used->dur = dur;
            used->name = g_strdup (*invocations != '\0' ? invocations : operation);
            used->category = g_strdup (flag->lane);
            used->args = g_strdup (args->str);
            g_ptr_array_add (rows, used);
          }
      }

#undef FIELD

      if (g_cancellable_set_error_if_cancelled (context->cancellable, error))
        return FALSE;
    }

  if (n_rows == 0)
    return tes_import_fail (error, TES_IMPORT_ERROR_EMPTY, context->path, _("a header but no rows"));

  process = tes_torq_add_process (context, TES_TORQ_CLOCK_HOST_US, "Annotated runtime", &clock);
  tes_torq_write_lanes (context, process, clock, lanes, rows);

  {
    TesCacheWriter *w = context->writer;
    gint64 source = context->source_id;

    tes_info_set_int (w, source, "annotated.rows", n_rows);
    tes_info_set_int (w, source, "annotated.timed_rows", n_timed);
    tes_info_set_int (w, source, "annotated.untimed_rows", n_untimed);
    tes_info_set_int (w, source, "annotated.hal_rows", n_hal);
    tes_info_set_int (w, source, "annotated.invocations", block);
  }

  return TRUE;
}

static void
tes_torq_annotated_importer_class_init (TesTorqAnnotatedImporterClass *klass)
{
  TesImporterClass *importer_class = TES_IMPORTER_CLASS (klass);

  importer_class->name = "torq-annotated";
  importer_class->title = "Synaptics Torq annotated runtime profile CSV";
  importer_class->version = 1;
  importer_class->sniff = tes_torq_annotated_importer_sniff;
  importer_class->import = tes_torq_annotated_importer_import;
}

static void
tes_torq_annotated_importer_init (TesTorqAnnotatedImporter *self)
{
}
