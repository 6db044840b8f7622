/* fuzz-cache.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tes-cache-private.h"
#include "tes-fuzz.h"
#include "tes-report-loader.h"

#include <stdint.h>

/* libFuzzer harness for the cache reader: the input is written to a
 * .tessera file and opened as the window opens a shared cache (through
 * TesReportLoader), then every query is asked of it once. The seeds are
 * caches of the fixtures (tests/fuzz/run-fuzz writes them). Every cache
 * carries checksums, which a mutation almost always breaks: inputs of even
 * length are resealed first (their checksums recomputed, as a crafted
 * cache would be), so that the checks behind the checksums are fuzzed
 * too. */

int LLVMFuzzerInitialize   (int           *argc,
                            char        ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  tes_fuzz_init ();

  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *path = tes_fuzz_write_input ("input.tessera", data, size);
  g_autoptr(TesReportLoader) loader = tes_report_loader_new ();
  g_autoptr(GError) error = NULL;
  TesReport *report;

  if (size % 2 == 0)
    {
      sqlite3 *db = NULL;

      if (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK)
        tes_cache_reseal (db, NULL);
      sqlite3_close (db);
    }

  tes_report_loader_add_file (loader, path);
  report = tes_report_loader_load (loader, NULL, &error);
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
