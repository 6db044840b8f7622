/* tes-cli-summary.c: tessera-cli summary: time share per operator type or operator
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tessera-cli"

#include "config.h"

#include <stdio.h>

#include "tes-cli-private.h"

int
tes_cli_summary (int    argc,
                 char **argv)
{
  g_auto(TesCliOptions) options = { 0 };
  gint64 run_id = 0;
  GOptionEntry entries[] = {
    { "mode", 0, 0, G_OPTION_ARG_STRING, &options.mode, "total (per type) or each (per operator)", "MODE" },
    { "by", 0, 0, G_OPTION_ARG_STRING, &options.by, "Group by category (type) or name", "KEY" },
    { "csv", 0, 0, G_OPTION_ARG_NONE, &options.csv, "Print CSV", NULL },
    { "run", 0, 0, G_OPTION_ARG_STRING, &options.run, "Only the run NAME (a profiler step, a program run, an inference)", "NAME" },
    { "step", 0, 0, G_OPTION_ARG_STRING, &options.step, "Only profiler step N (ProfilerStep#N, TensorFlow's Step N)", "N" },
    { NULL }
  };
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GError) error = NULL;
  TesSummaryMode mode = TES_SUMMARY_TOTAL;
  TesGroupBy by = TES_GROUP_BY_CATEGORY;
  const char * const *paths = NULL;
  guint n_paths = 0;
  int status;

  if ((status = tes_cli_parse_command_line ("summary", "FILE…", &argc, &argv, &options, entries, &paths, &n_paths)) != TES_CLI_EXIT_OK)
    return status;

  if (options.mode == NULL || g_str_equal (options.mode, "total"))
    mode = TES_SUMMARY_TOTAL;
  else if (g_str_equal (options.mode, "each"))
    mode = TES_SUMMARY_EACH;
  else
    return tes_cli_usage_error ("--mode must be 'total' or 'each', not '%s'", options.mode);

  if (options.by == NULL || g_str_equal (options.by, "category"))
    by = TES_GROUP_BY_CATEGORY;
  else if (g_str_equal (options.by, "name"))
    by = TES_GROUP_BY_NAME;
  else
    return tes_cli_usage_error ("--by must be 'category' or 'name', not '%s'", options.by);

  if ((status = tes_cli_check_run_options (&options)) != TES_CLI_EXIT_OK)
    return status;

  if (!(report = tes_cli_open_report (paths, n_paths, &options, &error)))
    return tes_cli_report_error (error);
  if ((run_id = tes_cli_find_run (report, &options, &error)) < 0)
    return tes_cli_usage_error ("%s", error->message);

  if (!(rows = tes_report_summarize_run (report, run_id, mode, by, &error)))
    return tes_cli_input_error (error);

  if (options.csv)
    printf ("label,index,name,type,share_percent,total,count\n");

  for (guint i = 0; i < rows->len; i++)
    {
      const TesSummaryRow *row = g_ptr_array_index (rows, i);

      if (!options.csv)
        {
          /* The vendor's own layout: "<label> <percent, 3 decimals>%" */
          printf ("%s %.3f%%\n", row->label, row->share);
          continue;
        }

      tes_cli_print_csv_field (row->label);
      putchar (',');
      if (row->op_index >= 0)
        printf ("%" G_GINT64_FORMAT, row->op_index);
      putchar (',');
      tes_cli_print_csv_field (row->name);
      putchar (',');
      tes_cli_print_csv_field (row->type);
      printf (",%.3f,", row->share);
      if (row->total >= 0)
        printf ("%" G_GINT64_FORMAT, row->total);
      putchar (',');
      if (row->count >= 0)
        printf ("%" G_GINT64_FORMAT, row->count);
      putchar ('\n');
    }

  return TES_CLI_EXIT_OK;
}
