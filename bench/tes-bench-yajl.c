/* tes-bench-yajl.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The floor under the Chrome import: yajl scanning a trace with
 * callbacks that do nothing (the importer's callback set: numbers as
 * text), fed in 1 MB reads as the importer reads it, on one thread.
 *
 *   tes-bench-yajl --file trace.json --events N
 *
 * prints one JSON line (tes-bench-util.h): the median and worst of
 * --repeat scans. */

#include "config.h"

#include <stdio.h>
#include <yajl/yajl_parse.h>

#include "tes-bench-util.h"

#define READ_SIZE (1024 * 1024)

static int
on_null (void *ctx)
{
  return 1;
}

static int
on_boolean (void *ctx,
            int   value)
{
  return 1;
}

static int
on_text (void                *ctx,
         const unsigned char *text,
         size_t               len)
{
  return 1;
}

static int
on_number (void       *ctx,
           const char *text,
           size_t      len)
{
  return 1;
}

static const yajl_callbacks callbacks = {
  on_null,
  on_boolean,
  NULL,
  NULL,
  on_number,
  on_text,
  on_null,
  on_text,
  on_null,
  on_null,
  on_null,
};

static gboolean
scan (const char *path,
      guint64    *bytes)
{
  g_autofree guchar *buf = g_malloc (READ_SIZE);
  FILE *f = fopen (path, "rb");
  yajl_handle h = yajl_alloc (&callbacks, NULL, NULL);
  gboolean ok = f != NULL;
  size_t n;

  *bytes = 0;
  while (ok && (n = fread (buf, 1, READ_SIZE, f)) > 0)
    {
      ok = yajl_parse (h, buf, n) == yajl_status_ok;
      *bytes += n;
    }
  ok = ok && yajl_complete_parse (h) == yajl_status_ok;

  yajl_free (h);
  if (f != NULL)
    fclose (f);

  return ok;
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *file = NULL;
  gint64 events = 0;
  int repeat = 5;
  g_autoptr(GArray) secs = g_array_new (FALSE, FALSE, sizeof (double));
  guint64 bytes = 0;
  g_autofree char *note = NULL;
  g_autoptr(GError) error = NULL;
  GOptionEntry entries[] = {
    { "file", 0, 0, G_OPTION_ARG_FILENAME, &file, "Chrome trace to scan", "FILE" },
    { "events", 0, 0, G_OPTION_ARG_INT64, &events, "its number of events (for the report)", "N" },
    { "repeat", 0, 0, G_OPTION_ARG_INT, &repeat, "scans; their median and worst count (default 5)", "N" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("- yajl's scan of a trace, alone");

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || file == NULL)
    {
      g_printerr ("tes-bench-yajl: %s\n", error ? error->message : "--file is required");
      return 2;
    }

  for (int i = 0; i < MAX (repeat, 1); i++)
    {
      gint64 t0 = g_get_monotonic_time ();
      double s;

      if (!scan (file, &bytes))
        {
          g_printerr ("tes-bench-yajl: %s is not valid JSON\n", file);
          return 1;
        }
      s = tes_bench_ms_since (t0) / 1000;
      g_array_append_val (secs, s);
    }

  note = g_strdup_printf ("yajl_parse over 1 MB reads, callbacks that do nothing, one thread; "
                          "%.0f MB/s at the median", bytes / 1048576.0 / tes_bench_median (secs));
  tes_bench_emit_runs ("yajl scan", secs, "s", NULL, "", (guint64)events, note);

  return 0;
}
