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

void
tes_bench_emit (const char *name,
                double      value,
                const char *unit,
                double      baseline,
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
  g_string_append_printf (out, ", \"n\": %" G_GUINT64_FORMAT ", \"note\": ", n);
  append_json_string (out, note ? note : "");
  g_string_append (out, "}\n");

  fputs (out->str, stdout);
  fflush (stdout);
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
