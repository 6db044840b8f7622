/* tes-chrome-importer.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-chrome"

#include "config.h"

#include "tes-chrome-builder.h"
#include "tes-chrome-importer.h"
#include "tes-chrome-parser.h"

#include <string.h>

/* Chrome Trace Event Format (the JSON that chrome://tracing, Perfetto and
 * most accelerator tools write), streamed with yajl. Two halves that meet
 * in one place, here: the parser (tes-chrome-parser.h) reads the file
 * into segments (tes-chrome-model.h), then the builder
 * (tes-chrome-builder.h) turns those into cache rows, with the vendors'
 * flavours of the format (tes-chrome-flavour.h).
 * docs/chrome-importer.md describes what is supported and how. */

struct _TesChromeImporter
{
  TesImporter parent_instance;
};

G_DEFINE_FINAL_TYPE (TesChromeImporter, tes_chrome_importer, TES_TYPE_IMPORTER)

static gboolean
contains (const guint8 *data,
          gsize         len,
          const char   *needle)
{
  return memmem (data, len, needle, strlen (needle)) != NULL;
}

static guint
sniff_text (const guint8 *head,
            gsize         len)
{
  gsize i = 0;
  guint8 c;

  /* An empty file's head may be NULL (tes_importer_sniff() allows it). */
  if (head == NULL || len == 0)
    return 0;

  if (len >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF)
    i = 3;
  while (i < len && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
    i++;
  if (i >= len)
    return 0;

  c = head[i];
  if (c != '[' && c != '{')
    return 0;

  if (c == '{' && contains (head, len, "\"traceEvents\""))
    return 100;

  if (contains (head, len, "\"ph\"") &&
      (contains (head, len, "\"ts\"") || contains (head, len, "\"name\"")))
    return c == '[' ? 95 : 60;

  return 0;
}

static guint
tes_chrome_importer_sniff (TesImporter  *importer,
                           const guint8 *head,
                           gsize         head_len,
                           const char   *basename)
{
  if (head_len >= 2 && head[0] == 0x1f && head[1] == 0x8b)
    {
      g_autofree guint8 *text = g_malloc (TES_SNIFF_SIZE);
      gsize len = tes_chrome_inflate_head (head, head_len, text, TES_SNIFF_SIZE);

      return sniff_text (text, len);
    }

  return sniff_text (head, head_len);
}

static gboolean
tes_chrome_importer_import (TesImporter       *importer,
                            TesImportContext  *context,
                            GError           **error)
{
  g_autoptr(TesChromeTrace) trace = NULL;
  double cpu0;
  gint64 t0;
  gboolean ok;

  if (!(trace = tes_chrome_parse_file (context, error)))
    return FALSE;

  t0 = g_get_monotonic_time ();
  cpu0 = tes_chrome_thread_cpu ();
  ok = tes_chrome_build (context, trace, error);
  /* this thread's CPU beside the wall time: what the packing thread took off it */
  g_debug ("%s: rows built in %.3f s (%.3f s of this thread's CPU)", context->path,
           (g_get_monotonic_time () - t0) / 1e6, tes_chrome_thread_cpu () - cpu0);

  return ok;
}

static void
tes_chrome_importer_class_init (TesChromeImporterClass *klass)
{
  TesImporterClass *importer_class = TES_IMPORTER_CLASS (klass);

  importer_class->name = "chrome-json";
  importer_class->title = "Chrome Trace Event JSON";
  importer_class->version = 12;  /* 6: Poplar tiles' step types as categories; PyTorch profiler traces' devices, operators and steps; 7: the ranks of one job; 8: TensorFlow's; 9: operator rows per step; 10: Poplar runs and tile lanes carry their IPU and tile as numbers; 11: and IPU processes their IPU; 12: framework times in info to the µs (12.346 ms) */
  importer_class->hashes_source = TRUE;
  importer_class->sniff = tes_chrome_importer_sniff;
  importer_class->import = tes_chrome_importer_import;
}

static void
tes_chrome_importer_init (TesChromeImporter *self)
{
}
