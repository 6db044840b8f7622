/* tes-bench-util.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <time.h>

#include "tes-bench-util.h"

double
tes_bench_ms_since (gint64 start_us)
{
  return (g_get_monotonic_time () - start_us) / 1000.0;
}

/* The process's CPU time in ms (every thread's): what a figure cost apart
 * from waiting for a core on a busy machine. */
double
tes_bench_cpu_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);

  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void
append_json_string (GString    *out,
                    const char *str)
{
  g_string_append_c (out, '"');
  for (const char *p = str; *p; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_printf (out, "\\%c", *p);
      else if ((guchar)*p < 0x20)
        g_string_append_printf (out, "\\u%04x", (guint)(guchar)*p);
      else
        g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

static void
append_json_number (GString *out,
                    double   value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.3f", value));
}

/* Appends the ms since start_us to values (an array of doubles). */
void
tes_bench_add_since (GArray *values,
                     gint64  start_us)
{
  double ms = tes_bench_ms_since (start_us);

  g_array_append_val (values, ms);
}

static void
emit (const char *name,
      double      value,
      GArray     *values,
      const char *unit,
      double      baseline,
      GArray     *baselines,
      const char *baseline_name,
      guint64     n,
      const char *note)
{
  g_autoptr(GString) out = g_string_new ("{\"name\": ");

  append_json_string (out, name);
  g_string_append (out, ", \"value\": ");
  append_json_number (out, value);
  g_string_append (out, ", \"unit\": ");
  append_json_string (out, unit);
  g_string_append (out, ", \"baseline\": ");
  append_json_number (out, baseline);
  g_string_append (out, ", \"baseline_name\": ");
  append_json_string (out, baseline_name);
  g_string_append (out, ", \"ratio\": ");
  if (baseline > 0)
    append_json_number (out, value / baseline);
  else
    g_string_append (out, "null");
  if (values != NULL)
    {
      g_string_append (out, ", \"worst\": ");
      append_json_number (out, tes_bench_worst (values));
      g_string_append_printf (out, ", \"runs\": %u", values->len);
    }
  if (baselines != NULL && baselines->len > 0)
    g_string_append_printf (out, ", \"baseline_runs\": %u", baselines->len);
  g_string_append_printf (out, ", \"n\": %" G_GUINT64_FORMAT ", \"note\": ", n);
  append_json_string (out, note ? note : "");
  g_string_append (out, "}\n");

  fputs (out->str, stdout);
  fflush (stdout);
}

void
tes_bench_emit (const char *name,
                double      value,
                const char *unit,
                double      baseline,
                const char *baseline_name,
                guint64     n,
                const char *note)
{
  emit (name, value, NULL, unit, baseline, NULL, baseline_name, n, note);
}

void
tes_bench_emit_runs (const char *name,
                     GArray     *values,
                     const char *unit,
                     GArray     *baselines,
                     const char *baseline_name,
                     guint64     n,
                     const char *note)
{
  emit (name, tes_bench_median (values), values, unit,
        baselines != NULL && baselines->len > 0 ? tes_bench_median (baselines) : 0, baselines,
        baseline_name, n, note);
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return x < y ? -1 : x > y;
}

/* The middle of an array of doubles, which it sorts. */
double
tes_bench_median (GArray *values)
{
  g_array_sort (values, compare_doubles);

  return g_array_index (values, double, values->len / 2);
}

/* The slowest of an array of doubles. */
double
tes_bench_worst (GArray *values)
{
  double worst = 0;

  for (guint i = 0; i < values->len; i++)
    worst = MAX (worst, g_array_index (values, double, i));

  return worst;
}
