/* tes-summary-layout.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-summary-layout"

#include "config.h"

#include "tes-summary-layout.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

struct _TesOperatorFilter
{
  char   *folded;   /* substring, case-folded; NULL with a regex */
  GRegex *regex;
};

void
tes_summary_fact_free (TesSummaryFact *fact)
{
  g_free (fact->heading);
  g_free (fact->key);
  g_free (fact->value);
  g_free (fact);
}

static void
add_fact (GPtrArray          *facts,
          const char         *heading,
          const char         *key,
          TesSummaryFactKind  kind,
          char               *value)   /* (transfer full) */
{
  TesSummaryFact *fact = g_new0 (TesSummaryFact, 1);

  fact->heading = g_strdup (heading);
  fact->key = g_strdup (key);
  fact->value = value;
  fact->kind = kind;
  g_ptr_array_add (facts, fact);
}

static const struct {
  const char *label;
  gsize       offset;
} count_fields[] = {
  { N_("Tracks"), G_STRUCT_OFFSET (TesReportCounts, n_tracks) },
  { N_("Slices"), G_STRUCT_OFFSET (TesReportCounts, n_slices) },
  { N_("Instants"), G_STRUCT_OFFSET (TesReportCounts, n_instants) },
  { N_("Counters"), G_STRUCT_OFFSET (TesReportCounts, n_counter_tracks) },
  { N_("Flows"), G_STRUCT_OFFSET (TesReportCounts, n_flows) },
  { N_("Runs"), G_STRUCT_OFFSET (TesReportCounts, n_runs) },
  { N_("Operators"), G_STRUCT_OFFSET (TesReportCounts, n_operators) },
  { N_("Tiles"), G_STRUCT_OFFSET (TesReportCounts, n_tiles) },
  { N_("BSP steps"), G_STRUCT_OFFSET (TesReportCounts, n_bsp_steps) },
};

/* Words of info keys that are acronyms, as their vendors write them
 * ("Tiles per IPU", "IPUs", not "Ipus"). */
static const char *const acronyms[] = {
  "IPU", "IPUs", "GPU", "GPUs", "CPU", "CPUs", "NPU", "NPUs", "BSP", "DLA", "MHz",
};

/* @text (transfer full) with every word that is an acronym spelled as one */
static char *
spell_acronyms (char *text)
{
  g_auto(GStrv) words = g_strsplit (text, " ", -1);

  for (guint w = 0; words[w] != NULL; w++)
    for (guint i = 0; i < G_N_ELEMENTS (acronyms); i++)
      if (g_ascii_strcasecmp (words[w], acronyms[i]) == 0)
        {
          g_free (words[w]);
          words[w] = g_strdup (acronyms[i]);
        }
  g_free (text);
  return g_strjoinv (" ", words);
}

/* A key's own words ("tiles_per_ipu": lower case, digits and '_') read as
 * words, acronyms spelled as such ("Tiles per IPU"; capitalised first in a
 * heading or a key); a
 * vendor's name kept in a key ("poplar_rt::DstStridedCopyDA32",
 * "Non-interleaved") stays as printed. */
static char *
humanize (const char *part,
          gboolean    capital)
{
  char *out = g_strdup (part);

  for (const char *s = part; *s; s++)
    if (!g_ascii_islower (*s) && !g_ascii_isdigit (*s) && *s != '_')
      return out;

  g_strdelimit (out, "_", ' ');
  out = spell_acronyms (out);
  if (capital && out[0])
    out[0] = g_ascii_toupper (out[0]);
  return out;
}

/* "target.tiles_per_ipu" → heading "Target", key "Tiles per IPU";
 * deeper keys keep their last part as the key and the rest as the heading,
 * so that long lists read as blocks rather than as cut labels:
 * "memory.data_type.not_overlapped.Variables" → heading "Memory · data
 * type · not overlapped", key "Variables". */
static void
split_info_key (const char  *key,
                char       **heading,
                char       **label)
{
  g_auto(GStrv) parts = g_strsplit (key, ".", -1);
  guint n = g_strv_length (parts);
  GString *h = g_string_new (NULL);

  if (n < 2)
    {
      *heading = g_strdup (_("Report"));
      *label = humanize (key, TRUE);
      return;
    }

  /* "a.b" is heading a, key b; "a.b.c.d", heading "a · b · c", key d */
  for (guint i = 0; i + 1 < n; i++)
    {
      g_autofree char *word = humanize (parts[i], i == 0);

      if (i > 0)
        g_string_append (h, " · ");
      g_string_append (h, word);
    }

  *heading = g_string_free (h, FALSE);
  *label = humanize (parts[n - 1], TRUE);
}

/* An importer that keeps a figure both as a number (key) and as the tool
 * printed it (key.printed, "1,206,442 (approx 652.1 microseconds)") has
 * the printed one shown, in place of the number and of the parts read out
 * of it (key.approx_us, key.share, key.k, key.tile, key.note,
 * key.language). */
static const char *
printed_value (GHashTable         *values,
               const TesInfoEntry *entry,
               gboolean           *skip)
{
  static const char *const parts[] = { ".approx_us", ".share", ".k", ".tile", ".note", ".language" };
  g_autofree char *printed_key = g_strconcat (entry->key, ".printed", NULL);
  const char *printed;

  *skip = g_str_has_suffix (entry->key, ".printed");
  for (guint i = 0; i < G_N_ELEMENTS (parts) && !*skip; i++)
    if (g_str_has_suffix (entry->key, parts[i]))
      {
        g_autofree char *base = g_strndup (entry->key, strlen (entry->key) - strlen (parts[i]));
        g_autofree char *base_printed = g_strconcat (base, ".printed", NULL);

        *skip = g_hash_table_contains (values, base_printed) ||
                (g_str_equal (parts[i], ".language") && g_hash_table_contains (values, base));
      }

  printed = g_hash_table_lookup (values, printed_key);
  return printed != NULL ? printed : entry->value;
}

/* Keys an importer keeps about its own work (how many pieces it parsed the
 * file in): `tessera-cli info` lists them for scripts, the Summary does
 * not. */
static gboolean
is_internal_fact (const char *key)
{
  static const char * const internal[] = { "parse_pieces" };
  const char *last = strrchr (key, '.');

  last = last != NULL ? last + 1 : key;
  for (guint i = 0; i < G_N_ELEMENTS (internal); i++)
    if (g_str_equal (last, internal[i]))
      return TRUE;

  return FALSE;
}

/* Everything the report says about itself, in the order a reader wants it:
 * its files (and whether they are still there), the vendor's own facts
 * (target, model, graph, memory…), the clocks, then the totals. */
GPtrArray *
tes_summary_collect_facts (TesWorkspace *workspace)
{
  GPtrArray *facts = g_ptr_array_new_with_free_func ((GDestroyNotify)tes_summary_fact_free);
  TesReport *report;
  g_autoptr(GPtrArray) info = NULL;
  TesReportCounts counts;
  gint64 start, end;

  g_return_val_if_fail (TES_IS_WORKSPACE (workspace), facts);

  report = tes_workspace_get_report (workspace);

  for (guint i = 0; i < tes_report_get_n_sources (report); i++)
    {
      const TesSourceInfo *source = tes_report_get_source (report, i);

      add_fact (facts, _("Files"), source->format,
                source->present ? TES_SUMMARY_FACT_PATH : TES_SUMMARY_FACT_MISSING_PATH,
                source->present ? g_strdup (source->path)
                                /* Translators: a source file that was moved or deleted */
                                : g_strdup_printf (_("%s (not found: opened from the cache)"), source->path));
    }

  /* The vendor's facts, one block per heading in the order the headings
   * first appear (a report of several files interleaves them). */
  info = tes_report_get_info (report);
  {
    g_autoptr(GPtrArray) info_facts = g_ptr_array_new ();
    g_autoptr(GPtrArray) order = g_ptr_array_new ();
    g_autoptr(GHashTable) values = g_hash_table_new (g_str_hash, g_str_equal);

    for (guint i = 0; info != NULL && i < info->len; i++)
      {
        const TesInfoEntry *entry = g_ptr_array_index (info, i);

        g_hash_table_insert (values, entry->key, entry->value);
      }

    for (guint i = 0; info != NULL && i < info->len; i++)
      {
        const TesInfoEntry *entry = g_ptr_array_index (info, i);
        g_autofree char *heading = NULL;
        g_autofree char *label = NULL;
        TesSummaryFact *fact;
        const char *value;
        gboolean skip;

        /* warnings are the importer's notes, listed last */
        if (g_str_has_prefix (entry->key, "warning.") || is_internal_fact (entry->key))
          continue;
        value = printed_value (values, entry, &skip);
        if (skip)
          continue;

        split_info_key (entry->key, &heading, &label);
        fact = g_new0 (TesSummaryFact, 1);
        fact->heading = g_steal_pointer (&heading);
        fact->key = g_steal_pointer (&label);
        fact->value = g_strdup (value);
        fact->kind = TES_SUMMARY_FACT_TEXT;
        g_ptr_array_add (info_facts, fact);

        if (!g_ptr_array_find_with_equal_func (order, fact->heading, g_str_equal, NULL))
          g_ptr_array_add (order, fact->heading);
      }

    for (guint h = 0; h < order->len; h++)
      for (guint i = 0; i < info_facts->len; i++)
        {
          TesSummaryFact *fact = g_ptr_array_index (info_facts, i);

          if (fact != NULL && g_str_equal (fact->heading, g_ptr_array_index (order, h)))
            {
              g_ptr_array_add (facts, fact);
              /* taken; its heading string stays alive in the fact */
              info_facts->pdata[i] = NULL;
            }
        }
  }

  for (guint i = 1; i <= tes_report_get_n_clocks (report); i++)
    {
      const TesClock *clock = tes_report_get_clock (report, i);

      if (clock == NULL)
        continue;

      if (clock->ticks_per_second <= 0)
        add_fact (facts, _("Clocks"), clock->name, TES_SUMMARY_FACT_TEXT, g_strdup (_("rate unknown")));
      else if (clock->unit == TES_TIME_UNIT_CYCLES)
        add_fact (facts, _("Clocks"), clock->name, TES_SUMMARY_FACT_TEXT,
                  g_strdup_printf (_("%.6g MHz"), clock->ticks_per_second / 1e6));
      else
        add_fact (facts, _("Clocks"), clock->name, TES_SUMMARY_FACT_TEXT,
                  g_strdup (tes_time_unit_to_string (clock->unit)));
    }

  tes_report_get_counts (report, &counts);
  if (tes_workspace_get_span (workspace, &start, &end))
    {
      gint64 clock = tes_workspace_get_cycles_clock (workspace);
      gint64 t0, t1;

      /* in cycles, the clock's own span: through ns it could lose a cycle
       * or two of what the tool printed (1,206,442 would read 1,206,440) */
      if (tes_workspace_get_time_unit (workspace) == TES_TIME_UNIT_CYCLES && clock > 0 &&
          tes_report_get_n_clocks (report) == 1 && tes_report_get_span (report, clock, &t0, &t1))
        add_fact (facts, _("Totals"), _("Duration"), TES_SUMMARY_FACT_TEXT,
                  tes_format_duration ((double)(t1 - t0), TES_TIME_UNIT_CYCLES));
      else
        add_fact (facts, _("Totals"), _("Duration"), TES_SUMMARY_FACT_TEXT,
                  tes_workspace_format_duration (workspace, end - start));
    }
  for (guint i = 0; i < G_N_ELEMENTS (count_fields); i++)
    {
      gint64 value = G_STRUCT_MEMBER (gint64, &counts, count_fields[i].offset);

      if (value > 0)
        add_fact (facts, _("Totals"), _(count_fields[i].label), TES_SUMMARY_FACT_TEXT,
                  tes_format_grouped (value));
    }

  for (guint i = 0; info != NULL && i < info->len; i++)
    {
      const TesInfoEntry *entry = g_ptr_array_index (info, i);

      if (g_str_has_prefix (entry->key, "warning."))
        add_fact (facts, _("Import notes"), "", TES_SUMMARY_FACT_TEXT, g_strdup (entry->value));
    }

  add_fact (facts, _("Cache"), _("Path"), TES_SUMMARY_FACT_PATH,
            g_strdup (tes_report_get_cache_path (report)));
  add_fact (facts, _("Cache"), _("State"), TES_SUMMARY_FACT_TEXT,
            g_strdup (tes_report_get_cache_reused (report) ? _("Reused from an earlier import")
                                                           : _("Written by this import")));

  return facts;
}

/* How many of @rows (the chart's, largest share first) have a share that
 * shows: one that prints as 0.000 % draws no bar and says nothing the
 * table does not. At most @max. */
guint
tes_summary_chart_rows (GPtrArray *rows,
                        guint      max)
{
  guint n = 0;

  while (rows != NULL && n < rows->len && n < max &&
         ((const TesSummaryRow *)g_ptr_array_index (rows, n))->share >= 0.0005)
    n++;

  return n;
}

/* Per-operator rows when the vendor listed operators, else per type; the
 * vendor's own numbers either way. Of run @run_id (a profiler step, a
 * program run; 0: the whole report), tes_report_summarize_run. */
GPtrArray *
tes_summary_load_run_rows (TesReport       *report,
                           gint64           run_id,
                           TesSummaryMode  *mode,
                           GError         **error)
{
  g_autoptr(GError) each_error = NULL;
  GPtrArray *rows;

  g_return_val_if_fail (TES_IS_REPORT (report), NULL);

  if ((rows = tes_report_summarize_run (report, run_id, TES_SUMMARY_EACH, TES_GROUP_BY_CATEGORY, &each_error)))
    {
      if (mode)
        *mode = TES_SUMMARY_EACH;
      return rows;
    }

  if (mode)
    *mode = TES_SUMMARY_TOTAL;

  return tes_report_summarize_run (report, run_id, TES_SUMMARY_TOTAL, TES_GROUP_BY_CATEGORY, error);
}

GPtrArray *
tes_summary_load_rows (TesReport       *report,
                       TesSummaryMode  *mode,
                       GError         **error)
{
  return tes_summary_load_run_rows (report, 0, mode, error);
}

/* The unit of a row's total: its clock's (cycles, ns…). */
char *
tes_summary_total_unit (TesReport           *report,
                        const TesSummaryRow *row)
{
  const TesClock *clock;

  g_return_val_if_fail (TES_IS_REPORT (report), NULL);

  if (row == NULL || !(clock = tes_report_get_clock (report, row->clock_id)))
    return g_strdup ("ns");

  return g_strdup (tes_time_unit_to_string (clock->unit));
}

/* The Total column of @rows: cycles as counted, grouped; times in the
 * unit that reads best for the largest (46,876,493 ns reads 46.876 ms). */
TesSummaryTotalShown
tes_summary_total_shown (TesReport                  *report,
                         const TesSummaryRow * const *rows,
                         guint                       n_rows)
{
  TesSummaryTotalShown shown = { TES_TIME_UNIT_NS, 1 };
  const TesClock *clock = NULL;
  gint64 largest = 0;

  g_return_val_if_fail (TES_IS_REPORT (report), shown);

  if (n_rows > 0)
    clock = tes_report_get_clock (report, rows[0]->clock_id);
  if (clock != NULL && clock->unit == TES_TIME_UNIT_CYCLES)
    {
      shown.unit = TES_TIME_UNIT_CYCLES;
      return shown;
    }
  if (clock != NULL && clock->ticks_per_second > 0)
    shown.base_per_tick = 1e9 / (double)clock->ticks_per_second;

  for (guint i = 0; i < n_rows; i++)
    largest = MAX (largest, rows[i]->total);
  shown.unit = tes_time_unit_readable (largest * shown.base_per_tick);

  return shown;
}

const char *
tes_summary_column_title (TesOperatorColumn column)
{
  static const char *titles[] = {
    N_("#"), N_("Name"), N_("Type"), N_("Share"), N_("Total"), N_("Count"), N_("Details"),
  };

  g_return_val_if_fail (column < TES_OPERATOR_N_COLUMNS, NULL);

  return _(titles[column]);
}

/* @total: how the Total column writes its figures (tes_summary_total_shown()) */
char *
tes_summary_format_cell (const TesSummaryRow        *row,
                         TesOperatorColumn           column,
                         const TesSummaryTotalShown *total)
{
  switch (column)
    {
    case TES_OPERATOR_COLUMN_INDEX:
      return row->op_index >= 0 ? g_strdup_printf ("%" G_GINT64_FORMAT, row->op_index) : g_strdup ("");

    case TES_OPERATOR_COLUMN_NAME:
      return g_strdup (row->name);

    case TES_OPERATOR_COLUMN_TYPE:
      return g_strdup (row->type);

    case TES_OPERATOR_COLUMN_SHARE:
      return isnan (row->share) ? g_strdup ("") : g_strdup_printf ("%.3f %%", row->share);

    case TES_OPERATOR_COLUMN_TOTAL:
      if (row->total < 0)
        return g_strdup ("");
      return total != NULL ? tes_format_in_unit (row->total * total->base_per_tick, total->unit)
                           : tes_format_grouped (row->total);

    case TES_OPERATOR_COLUMN_COUNT:
      return row->count >= 0 ? tes_format_grouped (row->count) : g_strdup ("");

    case TES_OPERATOR_COLUMN_DETAILS:
      return g_strdup (row->details ? row->details : "");

    case TES_OPERATOR_N_COLUMNS:
    default:
      g_return_val_if_reached (NULL);
    }
}

/* A bit per column (1 << TesOperatorColumn) that some row has a value
 * for: a listing of shares alone has no totals or counts to show, rows
 * whose type is their name no type. */
guint
tes_summary_known_columns (GPtrArray *rows)
{
  guint known = 1 << TES_OPERATOR_COLUMN_NAME;

  for (guint i = 0; rows != NULL && i < rows->len; i++)
    {
      const TesSummaryRow *row = g_ptr_array_index (rows, i);

      /* a type that only repeats the name (rows summed by type, a
       * framework's ops) is no column of its own */
      if (g_strcmp0 (row->type, row->name) != 0)
        known |= 1 << TES_OPERATOR_COLUMN_TYPE;

      if (row->op_index >= 0)
        known |= 1 << TES_OPERATOR_COLUMN_INDEX;
      if (!isnan (row->share))
        known |= 1 << TES_OPERATOR_COLUMN_SHARE;
      if (row->total >= 0)
        known |= 1 << TES_OPERATOR_COLUMN_TOTAL;
      if (row->count >= 0)
        known |= 1 << TES_OPERATOR_COLUMN_COUNT;
      if (row->details != NULL)
        known |= 1 << TES_OPERATOR_COLUMN_DETAILS;
    }

  return known;
}

/* The first file's name, "(+N)" for the others; a cache opened alone
 * names the file it was imported from. */
char *
tes_summary_report_title (TesReport *report)
{
  guint n = tes_report_get_n_sources (report);
  const char *path;
  g_autofree char *base = NULL;

  path = n > 0 ? tes_report_get_source (report, 0)->path : tes_report_get_cache_path (report);
  base = g_filename_display_basename (path);

  /* Translators: a report opened from several files: "first (+N)" */
  return n > 1 ? g_strdup_printf (_("%s (+%u)"), base, n - 1) : g_steal_pointer (&base);
}

static int
compare_int64 (gint64 a,
               gint64 b)
{
  return a < b ? -1 : a > b;
}

/* Unknown values (-1, NaN) sort before every known one. */
int
tes_summary_compare_rows (const TesSummaryRow *a,
                          const TesSummaryRow *b,
                          TesOperatorColumn    column)
{
  switch (column)
    {
    case TES_OPERATOR_COLUMN_INDEX:
      return compare_int64 (a->op_index, b->op_index);

    case TES_OPERATOR_COLUMN_NAME:
      return g_utf8_collate (a->name, b->name);

    case TES_OPERATOR_COLUMN_TYPE:
      return g_utf8_collate (a->type, b->type);

    case TES_OPERATOR_COLUMN_SHARE:
      if (isnan (a->share) || isnan (b->share))
        return isnan (b->share) - isnan (a->share);
      return a->share < b->share ? -1 : a->share > b->share;

    case TES_OPERATOR_COLUMN_TOTAL:
      return compare_int64 (a->total, b->total);

    case TES_OPERATOR_COLUMN_COUNT:
      return compare_int64 (a->count, b->count);

    case TES_OPERATOR_COLUMN_DETAILS:
      return g_strcmp0 (a->details, b->details);

    case TES_OPERATOR_N_COLUMNS:
    default:
      g_return_val_if_reached (0);
    }
}

/* "/regex/" is a case-insensitive regular expression; anything else a
 * case-insensitive substring. Both match the name, the type or the
 * vendor's label. An empty text matches everything. */
TesOperatorFilter *
tes_operator_filter_new (const char  *text,
                         GError     **error)
{
  g_autoptr(TesOperatorFilter) filter = g_new0 (TesOperatorFilter, 1);
  gsize len;

  g_return_val_if_fail (text != NULL, NULL);

  len = strlen (text);
  if (len >= 2 && text[0] == '/' && text[len - 1] == '/')
    {
      g_autofree char *pattern = g_strndup (text + 1, len - 2);

      if (!(filter->regex = g_regex_new (pattern, G_REGEX_CASELESS | G_REGEX_OPTIMIZE, 0, error)))
        return NULL;
    }
  else
    filter->folded = g_utf8_casefold (text, -1);

  return g_steal_pointer (&filter);
}

static gboolean
text_matches (const TesOperatorFilter *filter,
              const char              *text)
{
  g_autofree char *folded = NULL;

  if (text == NULL)
    return FALSE;

  if (filter->regex != NULL)
    return g_regex_match (filter->regex, text, 0, NULL);

  folded = g_utf8_casefold (text, -1);

  return strstr (folded, filter->folded) != NULL;
}

gboolean
tes_operator_filter_match (const TesOperatorFilter *filter,
                           const TesSummaryRow     *row)
{
  if (filter == NULL || (filter->folded != NULL && filter->folded[0] == '\0'))
    return TRUE;

  return text_matches (filter, row->name) ||
         text_matches (filter, row->type) ||
         text_matches (filter, row->label);
}

void
tes_operator_filter_free (TesOperatorFilter *filter)
{
  g_clear_pointer (&filter->regex, g_regex_unref);
  g_free (filter->folded);
  g_free (filter);
}

/* RFC 4180: quote a field that holds a separator, a quote or a line break. */
static void
append_csv_field (GString    *out,
                  const char *field)
{
  if (strpbrk (field, ",\"\r\n") == NULL)
    {
      g_string_append (out, field);
      return;
    }

  g_string_append_c (out, '"');
  for (const char *p = field; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

/* Machine-readable: plain numbers, the unit in the header. */
char *
tes_summary_rows_to_csv (const TesSummaryRow * const *rows,
                         guint                        n_rows,
                         const char                  *total_unit)
{
  GString *out = g_string_new (NULL);

  g_string_append_printf (out, "index,name,type,share_percent,total_%s,count\r\n", total_unit);

  for (guint i = 0; i < n_rows; i++)
    {
      const TesSummaryRow *row = rows[i];

      if (row->op_index >= 0)
        g_string_append_printf (out, "%" G_GINT64_FORMAT, row->op_index);
      g_string_append_c (out, ',');
      append_csv_field (out, row->name);
      g_string_append_c (out, ',');
      append_csv_field (out, row->type);
      g_string_append_c (out, ',');
      /* a CSV's decimals are the C locale's, whatever the window speaks */
      if (!isnan (row->share))
        {
          char share[G_ASCII_DTOSTR_BUF_SIZE];

          g_string_append (out, g_ascii_formatd (share, sizeof share, "%.3f", row->share));
        }
      g_string_append_c (out, ',');
      if (row->total >= 0)
        g_string_append_printf (out, "%" G_GINT64_FORMAT, row->total);
      g_string_append_c (out, ',');
      if (row->count >= 0)
        g_string_append_printf (out, "%" G_GINT64_FORMAT, row->count);
      g_string_append (out, "\r\n");
    }

  return g_string_free (out, FALSE);
}

/* For the clipboard: tab-separated, what the table shows, so a paste into
 * a spreadsheet keeps the columns. */
char *
tes_summary_rows_to_text (const TesSummaryRow * const *rows,
                          guint                        n_rows,
                          const TesSummaryTotalShown  *total)
{
  GString *out = g_string_new (NULL);
  /* the details column only when some row has details */
  guint n_columns = TES_OPERATOR_COLUMN_DETAILS;

  for (guint i = 0; i < n_rows; i++)
    if (rows[i]->details != NULL)
      n_columns = TES_OPERATOR_N_COLUMNS;

  for (guint c = 0; c < n_columns; c++)
    {
      if (c > 0)
        g_string_append_c (out, '\t');
      g_string_append (out, tes_summary_column_title (c));
      if (c == TES_OPERATOR_COLUMN_TOTAL && total != NULL)
        g_string_append_printf (out, " (%s)", tes_time_unit_to_string (total->unit));
    }
  g_string_append_c (out, '\n');

  for (guint i = 0; i < n_rows; i++)
    {
      for (guint c = 0; c < n_columns; c++)
        {
          g_autofree char *cell = tes_summary_format_cell (rows[i], c, total);

          if (c > 0)
            g_string_append_c (out, '\t');
          g_string_append (out, cell);
        }
      g_string_append_c (out, '\n');
    }

  return g_string_free (out, FALSE);
}
