/* test-qaic-util.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "tes-importer-registry.h"
#include "test-qaic-util.h"

TesReport *
open_with (const char  *path,
           const char  *importer_name,
           GError     **error)
{
  TesImporter *importer = tes_importer_registry_lookup (importer_name);

  g_assert_nonnull (importer);
  return tes_report_import (path, importer, 0, NULL, NULL, error);
}

/* Returns a copy of text with the first occurrence of old replaced. */
char *
replace (const char *text,
         const char *old,
         const char *new_text)
{
  const char *at = strstr (text, old);

  g_assert_nonnull (at);
  return g_strdup_printf ("%.*s%s%s", (int)(at - text), text, new_text, at + strlen (old));
}

char *
cut_after_line (const char *text,
                guint       n)
{
  const char *p = text;

  for (guint i = 0; i < n; i++)
    {
      p = strchr (p, '\n');
      g_assert_nonnull (p);
      p++;
    }

  return g_strndup (text, p - text);
}

/* Each case must fail to import as it says; frees each case's contents. */
void
run_bad_cases (const char *importer_name,
               BadCase    *cases,
               guint       n_cases)
{
  TesImporter *importer = tes_importer_registry_lookup (importer_name);

  for (guint i = 0; i < n_cases; i++)
    {
      tes_test_assert_import_fails (importer, cases[i].name, cases[i].contents, cases[i].len,
                                    cases[i].code, cases[i].message);
      g_free (cases[i].contents);
    }
}

