/* fuzz-import.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tes-fuzz.h"
#include "tes-importer-registry.h"
#include "tes-report-loader.h"

#include <stdint.h>

/* libFuzzer harness for one importer, TES_FUZZ_IMPORTER (tests/fuzz/
 * meson.build builds one executable per importer): the input is written
 * to a file and imported the way the window does it for a file opened
 * with --format, into a cache that is then queried. */

#ifndef TES_FUZZ_IMPORTER
#error "TES_FUZZ_IMPORTER names the importer to fuzz"
#endif

int LLVMFuzzerInitialize   (int           *argc,
                            char        ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static TesImporter *importer;

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  tes_fuzz_init ();
  if (!(importer = tes_importer_registry_lookup (TES_FUZZ_IMPORTER)))
    g_error ("No importer named %s", TES_FUZZ_IMPORTER);

  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *path = tes_fuzz_write_input ("input", data, size);
  g_autoptr(GError) error = NULL;
  TesReport *report;

  report = tes_report_import (path, importer, TES_REPORT_OPEN_REIMPORT, NULL, NULL, &error);
  if (report != NULL)
    {
      tes_fuzz_query_report (report, NULL);
      g_object_unref (report);
    }
  else
    tes_fuzz_assert_names_file (error, path);

  tes_fuzz_remove_input (path);

  return 0;
}
