/* tes-qaic-stats-importer.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-qaic-stats"

#include "config.h"

#include "tes-line-reader.h"
#include "tes-qaic-stats-importer.h"

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

typedef enum
{
  LINE_SPEC,
  LINE_HEADER,
  LINE_TOTAL,
  LINE_THREAD,
  LINE_BATCH,
  LINE_PORT,
  LINE_THREAD_COUNTER,
  LINE_INFERENCE,
  LINE_FREQ,
  LINE_OP,
  LINE_TOTAL_BATCH,
  LINE_RATE,
  LINE_MAX_WAIT,
  N_LINE_KINDS,
  LINE_UNKNOWN = N_LINE_KINDS,
} LineKind;

/* A line is classified by its prefix, then must match its full shape:
 * a line that starts like a known line but does not match it is an
 * error naming the shape expected. Operator rows are read by a
 * tokenizer because their columns come from the header. */
static const struct
{
  LineKind    kind;
  const char *prefix;
  const char *full;
  const char *shape;
} line_shapes[N_LINE_KINDS] = {
  { LINE_SPEC, "^Specialization:",
    "^Specialization:\\s*(\\S.*)$",
    "Specialization: <name>" },
  { LINE_HEADER, "^core\\s",
    "^core\\s+(\\S.*\\S)\\s+opdetails$",
    "core <columns> opdetails" },
  { LINE_TOTAL, "^c[0-9]+ total:",
    "^c([0-9]+) total:\\s+([0-9]+) ucycles\\s+([0-9]+) pcycles(?:\\s+\\(([^)]*)\\))?$",
    "cN total: <ucycles> ucycles <pcycles> pcycles (thread max)" },
  { LINE_THREAD, "^c[0-9]+\\s+t[0-9]+\\s",
    "^c([0-9]+)\\s+t([0-9]+)\\s+(\\S+)\\s+([0-9]+) ucycles\\s+\\[([0-9]+),\\s*([0-9]+)\\]\\s+([0-9]+) pcycles\\s+([0-9]+(?:\\.[0-9]+)?)% utilization$",
    "cN tM <engine> <ucycles> ucycles [<start>, <end>] <pcycles> pcycles <percent>% utilization" },
  { LINE_BATCH, "^c[0-9]+t[0-9]+ batch\\b",
    "^c([0-9]+)t([0-9]+) batch ucycles:\\s+([0-9]+)\\s+\\[([0-9]+),\\s*([0-9]+)\\]\\s+pcycles:\\s+([0-9]+)$",
    "cNNtM batch ucycles: <ucycles> [<start>,<end>] pcycles: <pcycles>" },
  { LINE_PORT, "^c[0-9]+t[0-9]+p[0-9]+\\s",
    "^c([0-9]+)t([0-9]+)p([0-9]+) (\\S+) ucycles:\\s+([0-9]+)$",
    "cNNtMpP <port> ucycles: <ucycles>" },
  { LINE_THREAD_COUNTER, "^c[0-9]+t[0-9]+ ",
    "^c([0-9]+)t([0-9]+) ([A-Za-z_]+) ucycles:\\s+([0-9]+)$",
    "cNNtM <what> ucycles: <ucycles>" },
  { LINE_INFERENCE, "^c[0-9]+: Total inference",
    "^c([0-9]+): Total inference pcycle is ([0-9]+)$",
    "cN: Total inference pcycle is <pcycles>" },
  { LINE_FREQ, "^c[0-9]+: Effective frequency",
    "^c([0-9]+): Effective frequency is ([0-9]+(?:\\.[0-9]+)?)\\s*MHz$",
    "cN: Effective frequency is <MHz>MHz" },
  { LINE_OP, "^c[0-9]+\\s+(?:[0-9]|N/A)", NULL, NULL },
  { LINE_TOTAL_BATCH, "^total batch\\b",
    "^total batch ucycles:\\s+([0-9]+)\\s+\\[([0-9]+),\\s*([0-9]+)\\]$",
    "total batch ucycles: <ucycles> [<start>, <end>]" },
  { LINE_RATE, "^\\[[^\\]]*\\] Device instance",
    "^\\[([^\\]]+)\\] Device instance (batch|inf)/s:\\s+\\(([^)]*)\\):\\s+([0-9]+(?:\\.[0-9]+)?(?:e[+-]?[0-9]+)?|inf|nan)$",
    "[<network>] Device instance batch/s: (<n>/<seconds>): <rate>" },
  { LINE_MAX_WAIT, "^max \\S+ wait",
    "^max (input|output) wait ucycles:\\s+([0-9]+)$",
    "max input|output wait ucycles: <ucycles>" },
};

typedef struct
{
  GRegex *prefix[N_LINE_KINDS];
  GRegex *full[N_LINE_KINDS];
} Shapes;

static const Shapes *
get_shapes (void)
{
  static Shapes *shapes;

  if (g_once_init_enter (&shapes))
    {
      Shapes *s = g_new0 (Shapes, 1);

      for (guint i = 0; i < N_LINE_KINDS; i++)
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

static LineKind
classify (const char *text)
{
  const Shapes *shapes = get_shapes ();

  for (guint i = 0; i < N_LINE_KINDS; i++)
    if (g_regex_match (shapes->prefix[i], text, 0, NULL))
      return i;

  return LINE_UNKNOWN;
}

static gboolean
is_space (char c)
{
  return c == ' ' || c == '\t';
}

static gsize
trimmed_length (const char *line,
                gsize       len)
{
  while (len > 0 && is_space (line[len - 1]))
    len--;
  return len;
}

static void
append_json_string (GString    *out,
                    const char *s)
{
  g_string_append_c (out, '"');
  for (const char *p = s; *p; p++)
    {
      guchar c = (guchar)*p;

      if (c == '"' || c == '\\')
        g_string_append_printf (out, "\\%c", c);
      else if (c < 0x20)
        g_string_append_printf (out, "\\u%04x", c);
      else
        g_string_append_c (out, (char)c);
    }
  g_string_append_c (out, '"');
}

/* ------------------------------------------------------------------ */

typedef enum
{
  CELL_DECIMAL,
  CELL_PERCENT,
  CELL_INTEGER,
} CellKind;

typedef struct
{
  char     *name;
  CellKind  kind;
  gboolean  required;   /* N/A not allowed */
} Column;

typedef struct
{
  guint     line;
  char     *core_name;     /* "c0" */
  char     *label;         /* "c0 aicconvolutiond32 HMX TCM (float16, i8, index32)" */
  char     *args;
  gint64    ucycles;
  double    ucycles_pct;
  char     *ucycles_pct_text;
  gboolean  has_pcycles;
  gint64    pcycles;
  double    pcycles_pct;
  char     *pcycles_pct_text;
  gint64    count;
} OpRow;

typedef struct
{
  guint   number;
  guint   line;
  char   *engine;
  gint64  ucycles;
  gint64  start;
  gint64  end;
  gint64  pcycles;
  char   *utilization;
} ThreadRow;

typedef struct
{
  guint      number;
  GPtrArray *ops;        /* OpRow */
  GArray    *threads;    /* ThreadRow */
  guint      first_op_line;
  guint      total_line;
  gint64     total_ucycles;
  gint64     total_pcycles;
} Core;

typedef struct
{
  TesImportContext *context;
  GPtrArray        *columns;      /* Column, from the last header */
  guint             header_line;
  GHashTable       *cores;        /* number -> Core */
  GPtrArray        *info;         /* key, value, key, value, … in file order */
  GPtrArray        *warnings;     /* key, value, … */
  char             *specialization;
  char             *network;
  gboolean          has_total_batch;
  gint64            batch_start;
  gint64            batch_end;
  gint64            batch_ucycles;
  guint             n_known;
  guint             n_unknown;
  guint             first_unknown_line;
  char             *first_unknown;
} Parser;

static void
column_free (gpointer data)
{
  Column *column = data;

  g_free (column->name);
  g_free (column);
}

static void
op_row_free (gpointer data)
{
  OpRow *row = data;

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
  ThreadRow *row = data;

  g_free (row->engine);
  g_free (row->utilization);
}

static void
core_free (gpointer data)
{
  Core *core = data;

  g_ptr_array_unref (core->ops);
  g_array_unref (core->threads);
  g_free (core);
}

static Core *
get_core (Parser *p,
          guint   number)
{
  Core *core = g_hash_table_lookup (p->cores, GUINT_TO_POINTER (number));

  if (core == NULL)
    {
      core = g_new0 (Core, 1);
      core->number = number;
      core->ops = g_ptr_array_new_with_free_func (op_row_free);
      core->threads = g_array_new (FALSE, TRUE, sizeof (ThreadRow));
      g_array_set_clear_func (core->threads, thread_row_clear);
      g_hash_table_insert (p->cores, GUINT_TO_POINTER (number), core);
    }

  return core;
}

static void
parser_clear (Parser *p)
{
  g_clear_pointer (&p->columns, g_ptr_array_unref);
  g_clear_pointer (&p->cores, g_hash_table_unref);
  g_clear_pointer (&p->info, g_ptr_array_unref);
  g_clear_pointer (&p->warnings, g_ptr_array_unref);
  g_clear_pointer (&p->specialization, g_free);
  g_clear_pointer (&p->network, g_free);
  g_clear_pointer (&p->first_unknown, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Parser, parser_clear)

static void
add_info (GPtrArray  *list,
          char       *key,
          const char *value)
{
  g_ptr_array_add (list, key);
  g_ptr_array_add (list, g_strdup (value));
}

static void
add_info_int (GPtrArray *list,
              char      *key,
              gint64     value)
{
  g_ptr_array_add (list, key);
  g_ptr_array_add (list, g_strdup_printf ("%" G_GINT64_FORMAT, value));
}

static gboolean
fail (Parser      *p,
      guint        line,
      GError     **error,
      int          code,
      const char  *format,
      ...) G_GNUC_PRINTF (5, 6);

static gboolean
fail (Parser      *p,
      guint        line,
      GError     **error,
      int          code,
      const char  *format,
      ...)
{
  va_list args;

  va_start (args, format);
  tes_set_error_at_line_valist (error, code, p->context->path, line, format, args);
  va_end (args);

  return FALSE;
}

/* A non-negative integer that fits in gint64; the regexes have checked
 * the digits, so only the range can fail. */
static gboolean
parse_count (Parser      *p,
             guint        line,
             const char  *text,
             gint64      *out,
             GError     **error)
{
  guint64 v;

  if (!g_ascii_string_to_unsigned (text, 10, 0, G_MAXINT64, &v, NULL))
    return fail (p, line, error, TES_IMPORT_ERROR_INVALID, "number '%s' is out of range", text);

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

static gboolean
parse_header (Parser      *p,
              guint        line,
              GMatchInfo  *match,
              GError     **error)
{
  g_autofree char *middle = g_match_info_fetch (match, 1);
  g_auto(GStrv) words = g_strsplit_set (middle, " \t", -1);
  g_autoptr(GPtrArray) columns = g_ptr_array_new_with_free_func (column_free);
  static const char * const required[] = { "ucycles", "ucycles(%)", "count" };

  for (guint i = 0; words[i]; i++)
    {
      Column *column;

      if (words[i][0] == '\0')
        continue;

      /* "out KB" is the one column name with a space in it */
      if (g_str_equal (words[i], "KB") && columns->len > 0 &&
          g_str_equal (((Column *)g_ptr_array_index (columns, columns->len - 1))->name, "out"))
        {
          Column *last = g_ptr_array_index (columns, columns->len - 1);
          g_free (last->name);
          last->name = g_strdup ("out KB");
          continue;
        }

      for (guint j = 0; j < columns->len; j++)
        if (g_str_equal (((Column *)g_ptr_array_index (columns, j))->name, words[i]))
          return fail (p, line, error, TES_IMPORT_ERROR_INVALID, "column '%s' appears twice in the header", words[i]);

      column = g_new0 (Column, 1);
      column->name = g_strdup (words[i]);
      if (g_str_has_suffix (words[i], "(%)"))
        column->kind = CELL_PERCENT;
      else if (g_str_equal (words[i], "ucycles") || g_str_equal (words[i], "pcycles") ||
               g_str_equal (words[i], "count"))
        column->kind = CELL_INTEGER;
      else
        column->kind = CELL_DECIMAL;
      column->required = g_str_equal (words[i], "ucycles") || g_str_equal (words[i], "ucycles(%)") ||
                         g_str_equal (words[i], "count");
      g_ptr_array_add (columns, column);
    }

  for (guint r = 0; r < G_N_ELEMENTS (required); r++)
    {
      gboolean found = FALSE;

      for (guint j = 0; j < columns->len; j++)
        found |= g_str_equal (((Column *)g_ptr_array_index (columns, j))->name, required[r]);
      if (!found)
        return fail (p, line, error, TES_IMPORT_ERROR_UNSUPPORTED,
                     "the column header has no '%s' column", required[r]);
    }

  g_clear_pointer (&p->columns, g_ptr_array_unref);
  p->columns = g_steal_pointer (&columns);
  p->header_line = line;

  return TRUE;
}

/* "aicconvolutiond32 HMX TCM (float16, i8, index32)": op kind (printed
 * with a trailing space for some kinds), engine, memory, dtypes. */
static gboolean
parse_details (Parser      *p,
               guint        line,
               const char  *details,
               GString     *args,
               char       **label,
               GError     **error)
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
        return fail (p, line, error, TES_IMPORT_ERROR_INVALID,
                     "operator details '%s' do not end with one '(…)' list of data types", details);

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
    return fail (p, line, error, TES_IMPORT_ERROR_INVALID, "operator row has no op kind");

  g_string_append (args, ",\"kind\":");
  append_json_string (args, g_ptr_array_index (parts, 0));
  g_string_append (normal, g_ptr_array_index (parts, 0));
  if (parts->len > 1)
    {
      g_string_append (args, ",\"engine\":");
      append_json_string (args, g_ptr_array_index (parts, 1));
    }
  if (parts->len > 2)
    {
      g_autoptr(GString) memory = g_string_new (NULL);

      for (guint i = 2; i < parts->len; i++)
        g_string_append_printf (memory, "%s%s", i > 2 ? " " : "", (char *)g_ptr_array_index (parts, i));
      g_string_append (args, ",\"memory\":");
      append_json_string (args, memory->str);
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
          append_json_string (args, dtypes[i]);
          g_string_append (normal, dtypes[i]);
        }
      g_string_append_c (args, ']');
      g_string_append_c (normal, ')');
    }

  *label = g_string_free (g_steal_pointer (&normal), FALSE);
  return TRUE;
}

static gboolean
parse_op_row (Parser      *p,
              guint        line,
              const char  *raw,
              gsize        raw_len,
              const char  *text,
              GError     **error)
{
  g_autoptr(GString) args = g_string_new ("{");
  g_autofree char *details = NULL;
  g_autofree char *label = NULL;
  g_autoptr(GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);
  OpRow *row;
  Core *core;
  const char *s = text;
  gsize len = strlen (text);
  gsize i = 0;
  guint64 number;
  gsize begin;

  if (p->columns == NULL)
    return fail (p, line, error, TES_IMPORT_ERROR_INVALID,
                 "operator row before any 'core  ucycles  …  opdetails' column header");

  /* the core: "c<N>" */
  while (i < len && !is_space (s[i]))
    i++;
  {
    g_autofree char *digits = g_strndup (s + 1, i - 1);

    if (!g_ascii_string_to_unsigned (digits, 10, 0, G_MAXUINT16, &number, NULL))
      return fail (p, line, error, TES_IMPORT_ERROR_INVALID, "core number '%s' is out of range", digits);
  }

  for (guint c = 0; c < p->columns->len; c++)
    {
      while (i < len && is_space (s[i]))
        i++;
      if (i >= len)
        return fail (p, line, error, TES_IMPORT_ERROR_INVALID,
                     "operator row has %u of the %u columns of the header on line %u, and no opdetails",
                     c, p->columns->len, p->header_line);
      begin = i;
      while (i < len && !is_space (s[i]))
        i++;
      g_ptr_array_add (cells, g_strndup (s + begin, i - begin));
    }

  while (i < len && is_space (s[i]))
    i++;
  if (i >= len)
    return fail (p, line, error, TES_IMPORT_ERROR_INVALID,
                 "operator row has the %u columns of the header on line %u but no opdetails",
                 p->columns->len, p->header_line);

  /* opdetails as printed (with its trailing spaces, from the raw line) */
  details = g_strndup (raw + i, raw_len - i);
  {
    gsize dl = 0;

    while (i + dl < len && !is_space (s[i + dl]))
      dl++;
    if (g_ascii_isdigit (s[i]) || (dl == 3 && strncmp (s + i, "N/A", 3) == 0))
      return fail (p, line, error, TES_IMPORT_ERROR_INVALID,
                   "operator row has more cells than the %u columns of the header on line %u",
                   p->columns->len, p->header_line);
  }

  core = get_core (p, (guint)number);
  if (core->total_line != 0)
    return fail (p, line, error, TES_IMPORT_ERROR_INVALID,
                 "operator row for c%u after c%u's total line (line %u): is core c%u listed twice?",
                 core->number, core->number, core->total_line, core->number);

  row = g_new0 (OpRow, 1);
  row->line = line;
  row->core_name = g_strdup_printf ("c%u", core->number);
  row->ucycles = -1;
  row->count = -1;
  g_ptr_array_add (core->ops, row);
  if (core->first_op_line == 0)
    core->first_op_line = line;

  g_string_append (args, "\"core\":");
  append_json_string (args, row->core_name);

  for (guint c = 0; c < p->columns->len; c++)
    {
      const Column *column = g_ptr_array_index (p->columns, c);
      const char *cell = g_ptr_array_index (cells, c);
      gsize cl = strlen (cell);
      gboolean ok;

      g_string_append_c (args, ',');
      append_json_string (args, column->name);
      g_string_append_c (args, ':');

      if (g_str_equal (cell, "N/A"))
        {
          if (column->required)
            return fail (p, line, error, TES_IMPORT_ERROR_INVALID,
                         "column '%s' is N/A; it must be a number", column->name);
          g_string_append (args, "null");
          continue;
        }

      switch (column->kind)
        {
        case CELL_PERCENT:
          ok = cl >= 2 && cell[cl - 1] == '%' && is_decimal (cell, cl - 1);
          if (ok)
            g_string_append_len (args, cell, cl - 1);
          break;
        case CELL_INTEGER:
          ok = is_integer (cell, cl);
          if (ok)
            g_string_append (args, cell);
          break;
        case CELL_DECIMAL:
        default:
          ok = is_decimal (cell, cl);
          if (ok)
            g_string_append (args, cell);
          break;
        }

      if (!ok)
        {
          g_autofree char *got = tes_describe_text (cell, cl, 40);

          return fail (p, line, error, TES_IMPORT_ERROR_INVALID,
                       "column '%s' holds '%s', not %s or N/A", column->name, got,
                       column->kind == CELL_PERCENT ? "a percentage" :
                       column->kind == CELL_INTEGER ? "a whole number" : "a number");
        }

      if (g_str_equal (column->name, "ucycles") && !parse_count (p, line, cell, &row->ucycles, error))
        return FALSE;
      if (g_str_equal (column->name, "pcycles"))
        {
          if (!parse_count (p, line, cell, &row->pcycles, error))
            return FALSE;
          row->has_pcycles = TRUE;
        }
      if (g_str_equal (column->name, "count") && !parse_count (p, line, cell, &row->count, error))
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
  append_json_string (args, details);
  g_string_append_printf (args, ",\"line\":%u}", line);

  row->label = g_strdup_printf ("%s %s", row->core_name, label);
  row->args = g_string_free (g_steal_pointer (&args), FALSE);

  return TRUE;
}

static char *
fetch (GMatchInfo *match,
       int         group)
{
  return g_match_info_fetch (match, group);
}

static gboolean
fetch_count (Parser      *p,
             guint        line,
             GMatchInfo  *match,
             int          group,
             gint64      *out,
             GError     **error)
{
  g_autofree char *text = fetch (match, group);

  return parse_count (p, line, text, out, error);
}

static gboolean
fetch_core (Parser      *p,
            guint        line,
            GMatchInfo  *match,
            int          group,
            guint       *out,
            GError     **error)
{
  g_autofree char *text = fetch (match, group);
  guint64 v;

  if (!g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT16, &v, NULL))
    return fail (p, line, error, TES_IMPORT_ERROR_INVALID, "number '%s' is out of range", text);

  *out = (guint)v;
  return TRUE;
}

static gboolean
parse_span (Parser      *p,
            guint        line,
            GMatchInfo  *match,
            int          first,
            gint64      *start,
            gint64      *end,
            GError     **error)
{
  if (!fetch_count (p, line, match, first, start, error) ||
      !fetch_count (p, line, match, first + 1, end, error))
    return FALSE;

  if (*end < *start)
    return fail (p, line, error, TES_IMPORT_ERROR_INVALID,
                 "span [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "] ends before it starts", *start, *end);

  return TRUE;
}

static gboolean
parse_line (Parser      *p,
            guint        line,
            LineKind     kind,
            const char  *text,
            GError     **error)
{
  const Shapes *shapes = get_shapes ();
  g_autoptr(GMatchInfo) match = NULL;
  guint core_no = 0, thread_no = 0;

  if (!g_regex_match (shapes->full[kind], text, 0, &match))
    {
      g_autofree char *got = tes_describe_text (text, strlen (text), 80);

      return fail (p, line, error, TES_IMPORT_ERROR_INVALID, "expected '%s', got '%s'",
                   line_shapes[kind].shape, got);
    }

  switch (kind)
    {
    case LINE_SPEC:
      {
        g_autofree char *name = fetch (match, 1);

        if (p->specialization != NULL)
          return fail (p, line, error, TES_IMPORT_ERROR_UNSUPPORTED,
                       "a second specialization ('%s' after '%s'); one per file is supported",
                       name, p->specialization);
        p->specialization = g_steal_pointer (&name);
        return TRUE;
      }

    case LINE_HEADER:
      return parse_header (p, line, match, error);

    case LINE_TOTAL:
      {
        g_autofree char *basis = fetch (match, 4);
        Core *core;

        if (!fetch_core (p, line, match, 1, &core_no, error))
          return FALSE;
        core = get_core (p, core_no);
        if (core->total_line != 0)
          return fail (p, line, error, TES_IMPORT_ERROR_INVALID,
                       "a second total line for c%u (the first is on line %u)", core_no, core->total_line);
        if (!fetch_count (p, line, match, 2, &core->total_ucycles, error) ||
            !fetch_count (p, line, match, 3, &core->total_pcycles, error))
          return FALSE;
        core->total_line = line;
        add_info_int (p->info, g_strdup_printf ("c%u.total.ucycles", core_no), core->total_ucycles);
        add_info_int (p->info, g_strdup_printf ("c%u.total.pcycles", core_no), core->total_pcycles);
        if (basis != NULL && basis[0] != '\0')
          add_info (p->info, g_strdup_printf ("c%u.total.basis", core_no), basis);
        return TRUE;
      }

    case LINE_THREAD:
      {
        ThreadRow row = { 0 };
        Core *core;

        if (!fetch_core (p, line, match, 1, &core_no, error) ||
            !fetch_core (p, line, match, 2, &thread_no, error))
          return FALSE;
        core = get_core (p, core_no);
        for (guint i = 0; i < core->threads->len; i++)
          if (g_array_index (core->threads, ThreadRow, i).number == thread_no)
            return fail (p, line, error, TES_IMPORT_ERROR_INVALID,
                         "c%u t%u is listed twice (first on line %u)", core_no, thread_no,
                         g_array_index (core->threads, ThreadRow, i).line);

        row.number = thread_no;
        row.line = line;
        if (!fetch_count (p, line, match, 4, &row.ucycles, error) ||
            !parse_span (p, line, match, 5, &row.start, &row.end, error) ||
            !fetch_count (p, line, match, 7, &row.pcycles, error))
          return FALSE;
        row.engine = fetch (match, 3);
        row.utilization = fetch (match, 8);
        add_info (p->info, g_strdup_printf ("c%u.t%u.utilization_percent", core_no, thread_no), row.utilization);
        g_array_append_val (core->threads, row);
        return TRUE;
      }

    case LINE_BATCH:
      {
        gint64 start, end;
        g_autofree char *ucycles = fetch (match, 3);
        g_autofree char *pcycles = fetch (match, 6);
        gint64 dummy;

        if (!fetch_core (p, line, match, 1, &core_no, error) ||
            !fetch_core (p, line, match, 2, &thread_no, error) ||
            !parse_count (p, line, ucycles, &dummy, error) ||
            !parse_count (p, line, pcycles, &dummy, error) ||
            !parse_span (p, line, match, 4, &start, &end, error))
          return FALSE;
        add_info (p->info, g_strdup_printf ("c%u.t%u.batch.ucycles", core_no, thread_no), ucycles);
        add_info_int (p->info, g_strdup_printf ("c%u.t%u.batch.start", core_no, thread_no), start);
        add_info_int (p->info, g_strdup_printf ("c%u.t%u.batch.end", core_no, thread_no), end);
        add_info (p->info, g_strdup_printf ("c%u.t%u.batch.pcycles", core_no, thread_no), pcycles);
        return TRUE;
      }

    case LINE_PORT:
      {
        g_autofree char *port = fetch (match, 3);
        g_autofree char *what = fetch (match, 4);
        g_autofree char *ucycles = fetch (match, 5);
        gint64 dummy;

        if (!fetch_core (p, line, match, 1, &core_no, error) ||
            !fetch_core (p, line, match, 2, &thread_no, error) ||
            !parse_count (p, line, ucycles, &dummy, error))
          return FALSE;
        add_info (p->info, g_strdup_printf ("c%u.t%u.p%s.%s.ucycles", core_no, thread_no, port, what), ucycles);
        return TRUE;
      }

    case LINE_THREAD_COUNTER:
      {
        g_autofree char *what = fetch (match, 3);
        g_autofree char *ucycles = fetch (match, 4);
        gint64 dummy;

        if (!fetch_core (p, line, match, 1, &core_no, error) ||
            !fetch_core (p, line, match, 2, &thread_no, error) ||
            !parse_count (p, line, ucycles, &dummy, error))
          return FALSE;
        add_info (p->info, g_strdup_printf ("c%u.t%u.%s.ucycles", core_no, thread_no, what), ucycles);
        return TRUE;
      }

    case LINE_INFERENCE:
      {
        g_autofree char *pcycles = fetch (match, 2);
        gint64 dummy;

        if (!fetch_core (p, line, match, 1, &core_no, error) ||
            !parse_count (p, line, pcycles, &dummy, error))
          return FALSE;
        add_info (p->info, g_strdup_printf ("c%u.inference.pcycles", core_no), pcycles);
        return TRUE;
      }

    case LINE_FREQ:
      {
        g_autofree char *mhz = fetch (match, 2);

        if (!fetch_core (p, line, match, 1, &core_no, error))
          return FALSE;
        add_info (p->info, g_strdup_printf ("c%u.effective_frequency_mhz", core_no), mhz);
        return TRUE;
      }

    case LINE_TOTAL_BATCH:
      {
        g_autofree char *ucycles = fetch (match, 1);

        if (p->has_total_batch)
          return fail (p, line, error, TES_IMPORT_ERROR_INVALID, "a second 'total batch' line");
        if (!parse_count (p, line, ucycles, &p->batch_ucycles, error) ||
            !parse_span (p, line, match, 2, &p->batch_start, &p->batch_end, error))
          return FALSE;
        p->has_total_batch = TRUE;
        add_info (p->info, g_strdup ("total_batch.ucycles"), ucycles);
        add_info_int (p->info, g_strdup ("total_batch.start"), p->batch_start);
        add_info_int (p->info, g_strdup ("total_batch.end"), p->batch_end);
        return TRUE;
      }

    case LINE_RATE:
      {
        g_autofree char *network = fetch (match, 1);
        g_autofree char *what = fetch (match, 2);
        g_autofree char *formula = fetch (match, 3);
        g_autofree char *rate = fetch (match, 4);

        if (p->network == NULL)
          p->network = g_strdup (network);
        add_info (p->info, g_strdup_printf ("device_instance.%s_per_second", what), rate);
        add_info (p->info, g_strdup_printf ("device_instance.%s_per_second.formula", what), formula);
        return TRUE;
      }

    case LINE_MAX_WAIT:
      {
        g_autofree char *what = fetch (match, 1);
        g_autofree char *ucycles = fetch (match, 2);
        gint64 dummy;

        if (!parse_count (p, line, ucycles, &dummy, error))
          return FALSE;
        add_info (p->info, g_strdup_printf ("max_%s_wait.ucycles", what), ucycles);
        return TRUE;
      }

    case LINE_OP:
    case N_LINE_KINDS:
    default:
      g_assert_not_reached ();
    }

  return TRUE;
}

/* The file's own totals must explain its percentages: every op row's
 * ucycles(%) and pcycles(%) is its cycles over the core's total line,
 * printed with two decimals. */
static gboolean
check_core (Parser      *p,
            Core        *core,
            guint        last_line,
            GError     **error)
{
  if (core->ops->len > 0 && core->total_line == 0)
    return fail (p, last_line, error, TES_IMPORT_ERROR_TRUNCATED,
                 "the file ends without a 'c%u total:' line for the operator rows from line %u (truncated?)",
                 core->number, core->first_op_line);

  for (guint i = 0; i < core->ops->len; i++)
    {
      const OpRow *row = g_ptr_array_index (core->ops, i);

      if (core->total_ucycles > 0)
        {
          double expect = 100.0 * (double)row->ucycles / (double)core->total_ucycles;

          if (fabs (expect - row->ucycles_pct) > 0.005 + 1e-6)
            return fail (p, row->line, error, TES_IMPORT_ERROR_INVALID,
                         "ucycles(%%) is %s%%, but %" G_GINT64_FORMAT " of c%u's total %" G_GINT64_FORMAT
                         " ucycles (line %u) is %.2f%%",
                         row->ucycles_pct_text, row->ucycles, core->number, core->total_ucycles,
                         core->total_line, expect);
        }

      if (row->has_pcycles && row->pcycles_pct_text != NULL && core->total_pcycles > 0)
        {
          double expect = 100.0 * (double)row->pcycles / (double)core->total_pcycles;

          if (fabs (expect - row->pcycles_pct) > 0.005 + 1e-6)
            return fail (p, row->line, error, TES_IMPORT_ERROR_INVALID,
                         "pcycles(%%) is %s%%, but %" G_GINT64_FORMAT " of c%u's total %" G_GINT64_FORMAT
                         " pcycles (line %u) is %.2f%%",
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
          const ThreadRow *t = &g_array_index (core->threads, ThreadRow, i);

          max_u = MAX (max_u, t->ucycles);
          max_p = MAX (max_p, t->pcycles);
        }

      if (max_u != core->total_ucycles || max_p != core->total_pcycles)
        {
          g_ptr_array_add (p->warnings, g_strdup_printf ("warning.c%u.thread_max", core->number));
          g_ptr_array_add (p->warnings,
                           g_strdup_printf ("line %u: c%u total %" G_GINT64_FORMAT " ucycles, %" G_GINT64_FORMAT
                                            " pcycles; its largest thread has %" G_GINT64_FORMAT " ucycles, %"
                                            G_GINT64_FORMAT " pcycles",
                                            core->total_line, core->number, core->total_ucycles,
                                            core->total_pcycles, max_u, max_p));
        }
    }

  return TRUE;
}

static int
compare_cores (gconstpointer a,
               gconstpointer b)
{
  const Core *ca = *(Core * const *)a;
  const Core *cb = *(Core * const *)b;

  return (ca->number > cb->number) - (ca->number < cb->number);
}

static int
compare_threads (gconstpointer a,
                 gconstpointer b)
{
  const ThreadRow *ta = a;
  const ThreadRow *tb = b;

  return (ta->number > tb->number) - (ta->number < tb->number);
}

static void
write_core (Parser *p,
            Core   *core,
            gint64  device,
            gint64  clock)
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
      const ThreadRow *t = &g_array_index (core->threads, ThreadRow, i);
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (per_engine, t->engine));

      g_hash_table_insert (per_engine, t->engine, GUINT_TO_POINTER (n + 1));
    }

  /* Thread tracks named like the Chrome importer names qaic-opstats
   * threads: "HVX 0" … "HVX 3" when a core has several threads of one
   * engine, else the engine alone. */
  for (guint i = 0; i < core->threads->len; i++)
    {
      const ThreadRow *t = &g_array_index (core->threads, ThreadRow, i);
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
      append_json_string (args, t->engine);
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
      const OpRow *row = g_ptr_array_index (core->ops, i);
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
  const Shapes *shapes = get_shapes ();
  TesLineReader reader;
  const char *line;
  gsize len;
  gboolean cut = head_len >= TES_SNIFF_SIZE;
  gboolean header = FALSE;
  guint known = 0;
  guint core_lines = 0;
  guint unknown = 0;
  guint score;

  tes_line_reader_init_for_data (&reader, (const char *)head, head_len);

  while (tes_line_reader_next (&reader, &line, &len))
    {
      g_autofree char *text = NULL;
      LineKind kind;

      if (cut && reader.pos >= head_len && head[head_len - 1] != '\n')
        break;

      len = trimmed_length (line, len);
      if (len == 0)
        continue;
      if (!tes_line_is_text (line, len))
        return 0;

      text = g_strndup (line, len);
      kind = classify (text);

      if (kind == LINE_UNKNOWN)
        {
          unknown++;
          continue;
        }

      known++;
      if (kind == LINE_HEADER && shapes->full[kind] != NULL &&
          g_regex_match (shapes->full[kind], text, 0, NULL) && strstr (text, "ucycles") != NULL)
        header = TRUE;
      if (kind == LINE_TOTAL || kind == LINE_THREAD || kind == LINE_BATCH || kind == LINE_OP)
        core_lines++;
    }

  if (known < 3 || core_lines == 0)
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
  g_auto(Parser) p = { 0 };
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
  p.cores = g_hash_table_new_full (NULL, NULL, NULL, core_free);
  p.info = g_ptr_array_new_with_free_func (g_free);
  p.warnings = g_ptr_array_new_with_free_func (g_free);

  if (!tes_line_reader_init (&reader, context->path, error))
    return FALSE;

  while (tes_line_reader_next (&reader, &line, &len))
    {
      g_autofree char *text = NULL;
      gsize tlen = trimmed_length (line, len);
      LineKind kind;

      if (!tes_line_is_text (line, len))
        return fail (&p, reader.line_no, error, TES_IMPORT_ERROR_INVALID,
                     "not text (invalid UTF-8 or control characters; byte %" G_GSIZE_FORMAT ")",
                     reader.line_offset);

      if (tlen == 0)
        continue;

      text = g_strndup (line, tlen);
      kind = classify (text);

      if (kind == LINE_UNKNOWN)
        {
          if (p.n_unknown++ == 0)
            {
              p.first_unknown_line = reader.line_no;
              p.first_unknown = tes_describe_text (text, tlen, 60);
            }
          continue;
        }

      p.n_known++;
      if (kind == LINE_OP)
        {
          if (!parse_op_row (&p, reader.line_no, line, len, text, error))
            return FALSE;
        }
      else if (!parse_line (&p, reader.line_no, kind, text, error))
        return FALSE;

      if (context->progress != NULL && (reader.line_no & 1023) == 0)
        tes_progress_update (context->progress, 0.9 * tes_line_reader_get_fraction (&reader), NULL);

      if (g_cancellable_set_error_if_cancelled (context->cancellable, error))
        return FALSE;
    }

  if (g_hash_table_size (p.cores) == 0)
    {
      if (p.n_unknown > 0)
        return fail (&p, p.first_unknown_line, error, TES_IMPORT_ERROR_INVALID,
                     "no qaic per-core statistics in the file; the first line that is not is '%s'",
                     p.first_unknown);
      g_set_error (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_EMPTY,
                   "%s: no qaic per-core statistics (empty file?)", context->path);
      return FALSE;
    }

  cores = g_ptr_array_new ();
  g_hash_table_iter_init (&iter, p.cores);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (cores, value);
  g_ptr_array_sort (cores, compare_cores);

  for (guint i = 0; i < cores->len; i++)
    {
      Core *core = g_ptr_array_index (cores, i);

      if (!check_core (&p, core, reader.line_no, error))
        return FALSE;
      n_ops += core->ops->len;
    }

  if (!p.has_total_batch)
    {
      g_ptr_array_add (p.warnings, g_strdup ("warning.no_trailer"));
      g_ptr_array_add (p.warnings,
                       g_strdup_printf ("the file ends (line %u) without the 'total batch ucycles' trailer; "
                                        "it may be truncated", reader.line_no));
    }

  if (p.n_unknown > 0)
    {
      g_ptr_array_add (p.warnings, g_strdup ("warning.skipped_lines"));
      g_ptr_array_add (p.warnings,
                       g_strdup_printf ("%u unrecognised line%s skipped (first at line %u: '%s')",
                                        p.n_unknown, p.n_unknown == 1 ? "" : "s",
                                        p.first_unknown_line, p.first_unknown));
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
  {
    g_autofree char *n_cores = g_strdup_printf ("%u", cores->len);
    g_autofree char *n_rows = g_strdup_printf ("%u", n_ops);

    tes_cache_writer_set_info (w, context->source_id, "cores", n_cores);
    tes_cache_writer_set_info (w, context->source_id, "operator_rows", n_rows);
  }
  tes_cache_writer_set_info (w, context->source_id, "clock.ucycles_hz", "19200000");

  for (guint i = 0; i + 1 < p.info->len; i += 2)
    tes_cache_writer_set_info (w, context->source_id,
                               g_ptr_array_index (p.info, i), g_ptr_array_index (p.info, i + 1));
  for (guint i = 0; i + 1 < p.warnings->len; i += 2)
    tes_cache_writer_set_info (w, context->source_id,
                               g_ptr_array_index (p.warnings, i), g_ptr_array_index (p.warnings, i + 1));

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
