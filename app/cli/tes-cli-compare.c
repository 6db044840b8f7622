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

static char *
compare_value (const TesComparison *comparison,
               TesWorkspace        *workspace,
               double               value)
{
  return tes_comparison_format (comparison, value, tes_workspace_get_time_unit (workspace));
}

/* "+" before what grew: a Δ reads as a change */
static char *
signed_text (double  value,
             char   *text)
{
  char *out = value > 0 ? g_strconcat ("+", text, NULL) : g_strdup (text);

  g_free (text);
  return out;
}

static char *
percent_text (double a,
              double b)
{
  double pct = tes_compare_percent (a, b);

  return isnan (pct) ? g_strdup ("") : g_strdup_printf ("%+.1f", pct);
}

/* bytes as the memory command prints them: whole, ungrouped */
static char *
bytes_text (gint64 bytes)
{
  return bytes < 0 ? g_strdup ("—") : g_strdup_printf ("%" G_GINT64_FORMAT, bytes);
}

static char *
bytes_delta_text (gint64 a,
                  gint64 b)
{
  return a < 0 || b < 0 ? g_strdup ("") : g_strdup_printf ("%+" G_GINT64_FORMAT, b - a);
}

/* One line of a summary table: a name, A, B, Δ and Δ %. */
static void
print_summary_line (const char *name,
                    char       *a,
                    char       *b,
                    char       *delta,
                    char       *pct)
{
  printf ("%-32s %18s %18s %18s %9s\n", name, a, b, delta, pct);
  g_free (a);
  g_free (b);
  g_free (delta);
  g_free (pct);
}

static void
print_summary_time (const TesCompareSummary *summary,
                    TesTimeUnit              time_unit,
                    const char              *name,
                    double                   a,
                    double                   b)
{
  if (isnan (a) && isnan (b))
    return;
  print_summary_line (name,
                      isnan (a) ? g_strdup ("—") : tes_compare_summary_format (summary, a, time_unit),
                      isnan (b) ? g_strdup ("—") : tes_compare_summary_format (summary, b, time_unit),
                      isnan (a) || isnan (b) ? g_strdup ("") : signed_text (b - a, tes_compare_summary_format (summary, b - a, time_unit)),
                      percent_text (a, b));
}

static void
print_summary_tiles (const char *heading,
                     GArray     *tiles)
{
  if (tiles->len == 0)
    return;
  printf ("%s\n", heading);
  for (guint i = 0; i < tiles->len; i++)
    {
      const TesCompareTile *t = &g_array_index (tiles, TesCompareTile, i);
      g_autofree char *name = g_strdup_printf ("  IPU %d tile %d", t->ipu, t->tile);

      print_summary_line (name, bytes_text (t->a_bytes), bytes_text (t->b_bytes),
                          bytes_delta_text (t->a_bytes, t->b_bytes),
                          percent_text ((double)t->a_bytes, (double)t->b_bytes));
    }
}

/* compare --summary: the runs as a whole, between the header and the
 * operators. */
static void
print_summary (const TesCompareSummary *summary,
               TesTimeUnit              time_unit)
{
  gboolean timed = !(isnan (summary->a_total) && isnan (summary->b_total) &&
                     isnan (summary->a_span) && isnan (summary->b_span));

  if (timed)
    {
      if (summary->unit == TES_TIME_UNIT_CYCLES)
        printf ("In cycles at %g MHz (both runs' clock)\n", summary->cycles_rate / 1e6);
      else
        printf ("In time (ns base)\n");
      printf ("%-32s %18s %18s %19s %10s\n", "Total", "A", "B", "Δ", "Δ %");
      print_summary_time (summary, time_unit, "Operators' time", summary->a_total, summary->b_total);
      print_summary_time (summary, time_unit, "Span", summary->a_span, summary->b_span);
      putchar ('\n');
    }

  if (summary->shares->len > 0)
    printf ("%-32s %18s %18s %19s\n", "Share by type", "A", "B", "Δ points");
  for (guint i = 0; i < summary->shares->len; i++)
    {
      const TesCompareShare *s = &g_array_index (summary->shares, TesCompareShare, i);

      print_summary_line (s->type,
                          s->in_a ? g_strdup_printf ("%.3f %%", s->a_share) : g_strdup ("—"),
                          s->in_b ? g_strdup_printf ("%.3f %%", s->b_share) : g_strdup ("—"),
                          g_strdup_printf ("%+.3f", s->b_share - s->a_share),
                          g_strdup (!s->in_b ? "removed" : !s->in_a ? "added" : ""));
    }

  if (!summary->has_memory)
    return;

  if (summary->shares->len > 0)
    putchar ('\n');
  printf ("%-32s %18s %18s %19s %10s\n", "Tile memory (bytes)", "A", "B", "Δ", "Δ %");
  print_summary_line ("All tiles", bytes_text (summary->a_bytes), bytes_text (summary->b_bytes),
                      bytes_delta_text (summary->a_bytes, summary->b_bytes),
                      percent_text ((double)summary->a_bytes, (double)summary->b_bytes));
  for (guint i = 0; i < summary->memory->len; i++)
    {
      const TesCompareMemory *m = &g_array_index (summary->memory, TesCompareMemory, i);

      print_summary_line (m->category, bytes_text (m->a_bytes), bytes_text (m->b_bytes),
                          bytes_delta_text (m->a_bytes, m->b_bytes),
                          percent_text ((double)m->a_bytes, (double)m->b_bytes));
    }
  print_summary_line ("Tiles out of memory", g_strdup_printf ("%u", summary->a_out_of_memory),
                      g_strdup_printf ("%u", summary->b_out_of_memory),
                      g_strdup_printf ("%+d", (int)summary->b_out_of_memory - (int)summary->a_out_of_memory), g_strdup (""));
  print_summary_tiles ("Newly out of memory:", summary->newly_out);
  print_summary_tiles ("No longer out of memory:", summary->no_longer_out);
  print_summary_tiles ("Grown most:", summary->growths);
}

static void
print_summary_csv_row (const char *record,
                       const char *name,
                       const char *unit,
                       double      a,
                       double      b)
{
  /* a share's Δ is in points: a percent of a percent would mislead */
  double pct = g_str_equal (unit, "percent") ? NAN : tes_compare_percent (a, b);

  printf ("%s,", record);
  tes_cli_print_csv_field (name);
  printf (",%s,", unit);
  if (!isnan (a))
    printf ("%.3f", a);
  putchar (',');
  if (!isnan (b))
    printf ("%.3f", b);
  putchar (',');
  if (!isnan (a) && !isnan (b))
    printf ("%.3f", b - a);
  putchar (',');
  if (!isnan (pct))
    printf ("%.2f", pct);
  putchar ('\n');
}

static void
print_summary_csv_tiles (const char *record,
                         GArray     *tiles)
{
  for (guint i = 0; i < tiles->len; i++)
    {
      const TesCompareTile *t = &g_array_index (tiles, TesCompareTile, i);
      g_autofree char *name = g_strdup_printf ("%d:%d", t->ipu, t->tile);

      print_summary_csv_row (record, name, "bytes", t->a_bytes < 0 ? NAN : (double)t->a_bytes,
                             t->b_bytes < 0 ? NAN : (double)t->b_bytes);
    }
}

/* compare --summary --csv: the summary's rows instead of the operators'. */
static void
print_summary_csv (const TesCompareSummary *summary,
                   GArray                  *devices,
                   GArray                  *steps)
{
  const char *unit = summary->unit == TES_TIME_UNIT_CYCLES ? "cycles" : "ns";

  printf ("record,name,unit,a,b,delta,delta_percent\n");
  print_summary_csv_row ("total", NULL, unit, summary->a_total, summary->b_total);
  print_summary_csv_row ("span", NULL, unit, summary->a_span, summary->b_span);
  for (guint i = 0; i < devices->len; i++)
    {
      const TesCompareDevice *d = &g_array_index (devices, TesCompareDevice, i);

      print_summary_csv_row ("device", d->name, "ns", d->a_ns < 0 ? NAN : (double)d->a_ns, d->b_ns < 0 ? NAN : (double)d->b_ns);
    }
  for (guint i = 0; steps != NULL && i < steps->len; i++)
    {
      const TesCompareStep *s = &g_array_index (steps, TesCompareStep, i);

      print_summary_csv_row ("step", s->name, "ns", s->a_ns < 0 ? NAN : (double)s->a_ns, s->b_ns < 0 ? NAN : (double)s->b_ns);
    }
  for (guint i = 0; i < summary->shares->len; i++)
    {
      const TesCompareShare *s = &g_array_index (summary->shares, TesCompareShare, i);

      print_summary_csv_row ("share", s->type, "percent", s->in_a ? s->a_share : NAN, s->in_b ? s->b_share : NAN);
    }
  if (!summary->has_memory)
    return;
  print_summary_csv_row ("memory", NULL, "bytes", (double)summary->a_bytes, (double)summary->b_bytes);
  for (guint i = 0; i < summary->memory->len; i++)
    {
      const TesCompareMemory *m = &g_array_index (summary->memory, TesCompareMemory, i);

      print_summary_csv_row ("memory", m->category, "bytes", (double)m->a_bytes, (double)m->b_bytes);
    }
  print_summary_csv_row ("out_of_memory", NULL, "tiles", summary->a_out_of_memory, summary->b_out_of_memory);
  print_summary_csv_tiles ("newly_out", summary->newly_out);
  print_summary_csv_tiles ("no_longer_out", summary->no_longer_out);
  print_summary_csv_tiles ("grown", summary->growths);
}

static char *
step_text (gint64 ns)
{
  return ns < 0 ? g_strdup ("—") : g_strdup_printf ("%" G_GINT64_FORMAT, ns);
}

/* The runs' profiler steps, before the operators: each step's ns in A
 * and B (tes_compare_steps). */
static void
print_steps (GArray   *steps,
             gboolean  in_order)
{
  if (steps->len == 0)
    return;
  printf ("%-32s %14s %14s %15s %10s\n", in_order ? "Step (paired in order)" : "Step", "A ns", "B ns", "Δ", "Δ %");
  for (guint i = 0; i < steps->len; i++)
    {
      const TesCompareStep *s = &g_array_index (steps, TesCompareStep, i);
      g_autofree char *a = step_text (s->a_ns);
      g_autofree char *b = step_text (s->b_ns);
      g_autofree char *delta = s->a_ns < 0 || s->b_ns < 0 ? g_strdup ("") : g_strdup_printf ("%+" G_GINT64_FORMAT, s->b_ns - s->a_ns);
      g_autofree char *pct = s->b_ns < 0 ? g_strdup ("removed") : s->a_ns < 0 ? g_strdup ("added")
                             : s->a_ns == 0 ? g_strdup ("") : g_strdup_printf ("%+.1f", tes_compare_percent ((double)s->a_ns, (double)s->b_ns));

      printf ("%-32s %14s %14s %14s %9s\n", s->name, a, b, delta, pct);
    }
  putchar ('\n');
}

static char *
run_name (TesReport *report,
          gint64     run_id)
{
  g_autoptr(GArray) runs = tes_report_get_runs (report, NULL);

  for (guint i = 0; runs != NULL && i < runs->len; i++)
    if (g_array_index (runs, TesRun, i).id == run_id)
      return g_strdup (g_array_index (runs, TesRun, i).name);

  return g_strdup ("");
}

/* A run's total for the header: each device's wall time where the runs
 * have devices (never a sum over streams), else the operators' time. */
static char *
total_text (const TesComparison *comparison,
            TesWorkspace        *workspace,
            GArray              *devices,
            guint                side,
            gboolean             has_rows)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < devices->len; i++)
    {
      const TesCompareDevice *d = &g_array_index (devices, TesCompareDevice, i);
      gint64 ns = side == 0 ? d->a_ns : d->b_ns;
      g_autofree char *value = NULL;

      if (ns < 0)
        continue;
      value = tes_workspace_format_duration (workspace, ns);
      g_string_append_printf (text, "%s%s %s", text->len ? ", " : "wall time ", d->name, value);
    }
  if (text->len > 0)
    return g_string_free (g_steal_pointer (&text), FALSE);

  if (!has_rows)
    return g_strdup ("total —");
  {
    g_autofree char *value = compare_value (comparison, workspace, side == 0 ? comparison->a_total : comparison->b_total);

    return g_strdup_printf ("total %s", value);
  }
}

/* Each device's wall time in A and B (tes_compare_devices), before the
 * steps. */
static void
print_devices (GArray *devices)
{
  if (devices->len == 0)
    return;
  printf ("%-32s %14s %14s %15s %10s\n", "Device (wall time)", "A ns", "B ns", "Δ", "Δ %");
  for (guint i = 0; i < devices->len; i++)
    {
      const TesCompareDevice *d = &g_array_index (devices, TesCompareDevice, i);
      g_autofree char *a = step_text (d->a_ns);
      g_autofree char *b = step_text (d->b_ns);
      g_autofree char *delta = d->a_ns < 0 || d->b_ns < 0 ? g_strdup ("") : g_strdup_printf ("%+" G_GINT64_FORMAT, d->b_ns - d->a_ns);
      g_autofree char *pct = d->b_ns < 0 ? g_strdup ("removed") : d->a_ns < 0 ? g_strdup ("added") : percent_text ((double)d->a_ns, (double)d->b_ns);

      printf ("%-32s %14s %14s %14s %9s\n", d->name, a, b, delta, pct);
    }
  putchar ('\n');
}

/* The devices whose wall time got slower by more than @pct percent, each
 * said on stderr ("in @step" when given). */
static guint
slower_devices (GArray     *devices,
                double      pct,
                const char *step)
{
  guint n = 0;

  for (guint i = 0; i < devices->len; i++)
    {
      const TesCompareDevice *d = &g_array_index (devices, TesCompareDevice, i);
      double by = d->a_ns > 0 && d->b_ns >= 0 ? tes_compare_percent ((double)d->a_ns, (double)d->b_ns) : NAN;

      if (isnan (by) || by <= pct)
        continue;
      if (step != NULL)
        fprintf (stderr, "tessera-cli: %s's wall time in step %s got slower by %.1f %%\n", d->name, step, by);
      else
        fprintf (stderr, "tessera-cli: %s's wall time got slower by %.1f %%\n", d->name, by);
      n++;
    }

  return n;
}

/* --fail-if-slower on one step both runs have: its operators, paired as
 * the whole runs' are, and its devices' wall time; each that got slower
 * by more than @pct percent is said, naming the step, and counted in
 * @n_slower. */
static int
gate_step (TesReport            *a,
           TesReport            *b,
           const TesCompareStep *step,
           TesCompareKey         key,
           double                pct,
           guint                *n_slower)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) a_rows = NULL;
  g_autoptr(GPtrArray) b_rows = NULL;
  g_autoptr(TesComparison) comparison = NULL;
  g_autoptr(GPtrArray) regressions = NULL;
  g_autoptr(GArray) devices = NULL;

  if (step->a_run_id <= 0 || step->b_run_id <= 0)
    return TES_CLI_EXIT_OK;
  if (!(comparison = tes_compare_step (a, b, step, key, &a_rows, &b_rows, &error)))
    {
      /* a step with nothing in it has nothing to gate */
      if (g_error_matches (error, TES_REPORT_ERROR, TES_REPORT_ERROR_NO_DATA))
        return TES_CLI_EXIT_OK;
      return tes_cli_input_error (error);
    }
  regressions = tes_compare_regressions (comparison, pct, 1.0, NULL);
  for (guint i = 0; i < regressions->len; i++)
    {
      const TesCompareRow *row = g_ptr_array_index (regressions, i);

      fprintf (stderr, "tessera-cli: %s in step %s got slower by %.1f %%\n",
               row->b->label ? row->b->label : row->b->name, step->name, row->delta_pct);
    }
  *n_slower += regressions->len;

  if (!(devices = tes_compare_devices (a, step->a_run_id, b, step->b_run_id, &error)))
    return tes_cli_input_error (error);
  *n_slower += slower_devices (devices, pct, step->name);

  return TES_CLI_EXIT_OK;
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
  gboolean summary_wanted = FALSE;
  g_autoptr(TesCompareSummary) summary = NULL;
  GOptionEntry entries[] = {
    { "by", 0, 0, G_OPTION_ARG_STRING, &options.by, "Match operators by name (default) or by type", "name|type" },
    { "csv", 0, 0, G_OPTION_ARG_NONE, &options.csv, "Print CSV", NULL },
    { "fail-if-slower", 0, 0, G_OPTION_ARG_DOUBLE, &fail_pct, "Exit 1 when B is slower by more than PCT percent", "PCT" },
    { "summary", 0, 0, G_OPTION_ARG_NONE, &summary_wanted, "Also compare the runs as a whole (with --csv: only that)", NULL },
    { "run", 0, 0, G_OPTION_ARG_STRING, &options.run, "Compare only the run NAME of A and B", "NAME" },
    { "step", 0, 0, G_OPTION_ARG_STRING, &options.step, "Compare only profiler step N of A and B", "N" },
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
  g_autoptr(GArray) steps = NULL;
  g_autoptr(GArray) devices = NULL;
  gint64 run_ids[2] = { 0, 0 };
  gboolean steps_in_order = FALSE;
  guint slower_steps = 0;
  TesCompareKey key = TES_COMPARE_BY_NAME;
  gboolean total_slower = FALSE;
  const char *unit_name;

  if ((status = tes_cli_parse_command_line ("compare", "A B", &argc, &argv, &options, entries, &runs, &n_runs)) != TES_CLI_EXIT_OK)
    return status;
  if (n_runs != 2)
    return tes_cli_usage_error ("compare: give two runs, A and B");
  if (options.by != NULL && g_str_equal (options.by, "type"))
    key = TES_COMPARE_BY_TYPE;
  else if (options.by != NULL && !g_str_equal (options.by, "name"))
    return tes_cli_usage_error ("--by must be 'name' or 'type', not '%s'", options.by);
  if ((status = tes_cli_check_run_options (&options)) != TES_CLI_EXIT_OK)
    return status;

  /* a run that cannot be opened is a usage error here: CI scripts tell
   * it apart from a regression */
  for (guint side = 0; side < 2; side++)
    {
      g_auto(GStrv) paths = g_strsplit (runs[side], ",", -1);

      if ((*reports[side] = tes_cli_open_report ((const char * const *)paths, g_strv_length (paths), &options, &error)) &&
          (run_ids[side] = tes_cli_find_run (*reports[side], &options, &error)) >= 0 &&
          !(*rows[side] = tes_compare_run_rows (*reports[side], run_ids[side], key, &error)) &&
          summary_wanted && g_error_matches (error, TES_REPORT_ERROR, TES_REPORT_ERROR_NO_DATA))
        {
          /* a compile report has no operators, but its memory compares */
          *rows[side] = g_ptr_array_new_with_free_func ((GDestroyNotify)tes_summary_row_free);
          g_clear_error (&error);
        }
      if (*rows[side] == NULL)
        {
          fprintf (stderr, "tessera-cli: %s\n", error->message);
          return TES_CLI_EXIT_USAGE;
        }
    }

  comparison = tes_compare_rows (a_report, a_rows, b_report, b_rows, key);
  tes_compare_sort_by_impact (comparison);
  workspace = tes_workspace_new (a_report);
  unit_name = comparison->unit == TES_TIME_UNIT_CYCLES ? "cycles" : "ns";
  if (summary_wanted && !(summary = tes_compare_summarize (a_report, b_report, &error)))
    return tes_cli_input_error (error);
  /* one step against one step: no other step to set beside it */
  if (options.run != NULL || options.step != NULL)
    steps = g_array_new (FALSE, TRUE, sizeof (TesCompareStep));
  else if (!(steps = tes_compare_steps (a_report, b_report, &steps_in_order, &error)))
    return tes_cli_input_error (error);
  if (!(devices = tes_compare_devices (a_report, run_ids[0], b_report, run_ids[1], &error)))
    return tes_cli_input_error (error);

  if (summary != NULL && options.csv)
    print_summary_csv (summary, devices, steps);
  else if (options.csv)
    printf ("a_name,a_type,b_name,b_type,a_%s,b_%s,delta,delta_percent\n",
            comparison->in_percent ? "share" : unit_name, comparison->in_percent ? "share" : unit_name);
  else
    {
      /* runs without operators (compile reports) compare by --summary only */
      g_autofree char *a_total = total_text (comparison, workspace, devices, 0, a_rows->len > 0);
      g_autofree char *b_total = total_text (comparison, workspace, devices, 1, b_rows->len > 0);
      g_autofree char *a_run = run_name (a_report, run_ids[0]);
      g_autofree char *b_run = run_name (b_report, run_ids[1]);
      g_autofree char *a_name = run_ids[0] > 0 ? g_strdup_printf ("%s (%s)", runs[0], a_run) : g_strdup (runs[0]);
      g_autofree char *b_name = run_ids[1] > 0 ? g_strdup_printf ("%s (%s)", runs[1], b_run) : g_strdup (runs[1]);

      printf ("A: %s  %s\nB: %s  %s\n\n", a_name, a_total, b_name, b_total);
      if (summary != NULL)
        {
          print_summary (summary, tes_workspace_get_time_unit (workspace));
          putchar ('\n');
        }
      print_devices (devices);
      print_steps (steps, steps_in_order);
      /* "Δ" takes two bytes and one column: one more byte of width */
      printf ("%-32s %14s %14s %15s %10s\n", "Operator", "A", "B", "Δ", "Δ %");
    }

  for (guint i = 0; i < comparison->rows->len && !(summary != NULL && options.csv); i++)
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
  /* the total is each device's wall time where the runs have devices */
  if (devices->len > 0)
    total_slower = slower_devices (devices, fail_pct, NULL) > 0;
  else if (total_slower)
    fprintf (stderr, "tessera-cli: the total got slower by more than %g %%\n", fail_pct);
  for (guint i = 0; i < regressions->len; i++)
    {
      const TesCompareRow *row = g_ptr_array_index (regressions, i);

      fprintf (stderr, "tessera-cli: %s got slower by %.1f %%\n", row->b->label ? row->b->label : row->b->name,
               row->delta_pct);
    }

  /* a model's regression by step too: the steps both runs have */
  for (guint i = 0; i < steps->len; i++)
    {
      const TesCompareStep *s = &g_array_index (steps, TesCompareStep, i);
      double pct = s->a_ns > 0 && s->b_ns >= 0 ? tes_compare_percent ((double)s->a_ns, (double)s->b_ns) : NAN;

      if (!isnan (pct) && pct > fail_pct)
        {
          fprintf (stderr, "tessera-cli: step %s got slower by %.1f %%\n", s->name, pct);
          slower_steps++;
        }
      if ((status = gate_step (a_report, b_report, s, key, fail_pct, &slower_steps)) != TES_CLI_EXIT_OK)
        return status;
    }

  return total_slower || regressions->len > 0 || slower_steps > 0 ? TES_CLI_EXIT_BAD_INPUT : TES_CLI_EXIT_OK;
}
