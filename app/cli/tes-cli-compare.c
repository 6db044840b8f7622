/* tes-cli-compare.c: tessera-cli compare: two runs' operators side by side, and a regression gate
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tessera-cli"

#include "config.h"

#include <math.h>
#include <stdio.h>

#include "tes-cli-private.h"
#include "tes-compare.h"
#include "tes-workspace.h"

/* The rows of one side of a comparison: per operator when the run lists
 * them (by name), else per type. */
static GPtrArray *
compare_side_rows (TesReport      *report,
                   TesCompareKey   key,
                   GError        **error)
{
  g_autoptr(GError) each_error = NULL;
  GPtrArray *rows;

  if (key == TES_COMPARE_BY_NAME &&
      (rows = tes_report_summarize (report, TES_SUMMARY_EACH, TES_GROUP_BY_NAME, &each_error)))
    return rows;

  return tes_report_summarize (report, TES_SUMMARY_TOTAL,
                               key == TES_COMPARE_BY_TYPE ? TES_GROUP_BY_CATEGORY : TES_GROUP_BY_NAME, error);
}

static char *
compare_value (const TesComparison *comparison,
               TesWorkspace        *workspace,
               double               value)
{
  if (comparison->in_percent)
    return g_strdup_printf ("%.3f %%", value);

  return tes_workspace_format_duration (workspace, (gint64)llround (value));
}

/* tessera-cli compare A B: two runs' operators side by side, largest
 * change first; with --fail-if-slower PCT, exit 1 when the total or an
 * operator holding 1 % or more got slower by more than PCT percent. A and
 * B may each be several files of one run, comma-separated. */
int
tes_cli_compare (int    argc,
                 char **argv)
{
  g_auto(TesCliOptions) options = { 0 };
  g_autoptr(GError) error = NULL;
  double fail_pct = -1;
  GOptionEntry entries[] = {
    { "by", 0, 0, G_OPTION_ARG_STRING, &options.by, "Match operators by name (default) or by type", "name|type" },
    { "csv", 0, 0, G_OPTION_ARG_NONE, &options.csv, "Print CSV", NULL },
    { "fail-if-slower", 0, 0, G_OPTION_ARG_DOUBLE, &fail_pct, "Exit 1 when B is slower by more than PCT percent", "PCT" },
    { NULL }
  };
  const char * const *runs = NULL;
  guint n_runs = 0;
  int status;
  g_autoptr(TesReport) a_report = NULL;
  g_autoptr(TesReport) b_report = NULL;
  g_autoptr(GPtrArray) a_rows = NULL;
  g_autoptr(GPtrArray) b_rows = NULL;
  TesReport **reports[2] = { &a_report, &b_report };
  GPtrArray **rows[2] = { &a_rows, &b_rows };
  g_autoptr(TesComparison) comparison = NULL;
  g_autoptr(TesWorkspace) workspace = NULL;
  g_autoptr(GPtrArray) regressions = NULL;
  TesCompareKey key = TES_COMPARE_BY_NAME;
  gboolean total_slower = FALSE;

  if ((status = tes_cli_parse_command_line ("compare", "A B", &argc, &argv, &options, entries, &runs, &n_runs)) != TES_CLI_EXIT_OK)
    return status;
  if (n_runs != 2)
    return tes_cli_usage_error ("compare: give two runs, A and B");
  if (options.by != NULL && g_str_equal (options.by, "type"))
    key = TES_COMPARE_BY_TYPE;
  else if (options.by != NULL && !g_str_equal (options.by, "name"))
    return tes_cli_usage_error ("--by must be 'name' or 'type', not '%s'", options.by);

  /* a run that cannot be opened is a usage error here: CI scripts tell
   * it apart from a regression */
  for (guint side = 0; side < 2; side++)
    {
      g_auto(GStrv) paths = g_strsplit (runs[side], ",", -1);

      if (!(*reports[side] = tes_cli_open_report ((const char * const *)paths, g_strv_length (paths), &options, &error)) ||
          !(*rows[side] = compare_side_rows (*reports[side], key, &error)))
        {
          fprintf (stderr, "tessera-cli: %s\n", error->message);
          return TES_CLI_EXIT_USAGE;
        }
    }

  comparison = tes_compare_rows (a_report, a_rows, b_report, b_rows, key);
  tes_compare_sort_by_impact (comparison);
  workspace = tes_workspace_new (a_report);

  if (options.csv)
    printf ("a_name,a_type,b_name,b_type,a_%s,b_%s,delta,delta_percent\n",
            comparison->in_percent ? "share" : "ns", comparison->in_percent ? "share" : "ns");
  else
    {
      g_autofree char *a_total = compare_value (comparison, workspace, comparison->a_total);
      g_autofree char *b_total = compare_value (comparison, workspace, comparison->b_total);

      printf ("A: %s  total %s\nB: %s  total %s\n\n", runs[0], a_total, runs[1], b_total);
      /* "Δ" takes two bytes and one column: one more byte of width */
      printf ("%-32s %14s %14s %15s %10s\n", "Operator", "A", "B", "Δ", "Δ %");
    }

  for (guint i = 0; i < comparison->rows->len; i++)
    {
      const TesCompareRow *row = &g_array_index (comparison->rows, TesCompareRow, i);
      const TesSummaryRow *either = row->a ? row->a : row->b;

      if (options.csv)
        {
          tes_cli_print_csv_field (row->a ? row->a->label : NULL);
          putchar (',');
          tes_cli_print_csv_field (row->a ? row->a->type : NULL);
          putchar (',');
          tes_cli_print_csv_field (row->b ? row->b->label : NULL);
          putchar (',');
          tes_cli_print_csv_field (row->b ? row->b->type : NULL);
          putchar (',');
          if (row->a)
            printf ("%.3f", row->a_value);
          putchar (',');
          if (row->b)
            printf ("%.3f", row->b_value);
          printf (",%.3f,", row->delta);
          if (!isnan (row->delta_pct))
            printf ("%.2f", row->delta_pct);
          putchar ('\n');
        }
      else
        {
          g_autofree char *a = row->a ? compare_value (comparison, workspace, row->a_value) : g_strdup ("—");
          g_autofree char *b = row->b ? compare_value (comparison, workspace, row->b_value) : g_strdup ("—");
          g_autofree char *delta = compare_value (comparison, workspace, row->delta);
          g_autofree char *pct = row->b == NULL ? g_strdup ("removed")
                                 : row->a == NULL ? g_strdup ("added")
                                 : isnan (row->delta_pct) ? g_strdup ("")
                                 : g_strdup_printf ("%+.1f", row->delta_pct);
          printf ("%-32s %14s %14s %14s %9s\n", either->label ? either->label : either->name, a, b, delta, pct);
        }
    }

  if (fail_pct < 0)
    return TES_CLI_EXIT_OK;

  regressions = tes_compare_regressions (comparison, fail_pct, 1.0, &total_slower);
  if (total_slower)
    fprintf (stderr, "tessera-cli: the total got slower by more than %g %%\n", fail_pct);
  for (guint i = 0; i < regressions->len; i++)
    {
      const TesCompareRow *row = g_ptr_array_index (regressions, i);

      fprintf (stderr, "tessera-cli: %s got slower by %.1f %%\n", row->b->label ? row->b->label : row->b->name,
               row->delta_pct);
    }

  return total_slower || regressions->len > 0 ? TES_CLI_EXIT_BAD_INPUT : TES_CLI_EXIT_OK;
}
