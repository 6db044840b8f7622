/* tes-report-info.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-report"

#include "config.h"

#include "tes-report-private.h"

static void
info_entry_free (gpointer data)
{
  TesInfoEntry *entry = data;

  g_free (entry->key);
  g_free (entry->value);
  g_free (entry);
}

static gboolean
read_info_row (TesReport     *self,
               sqlite3_stmt  *stmt,
               gpointer       out,
               GError       **error)
{
  TesInfoEntry *entry = g_new0 (TesInfoEntry, 1);

  entry->key = tes_report_column_dup (stmt, 0);
  entry->value = tes_report_column_dup (stmt, 1);
  g_ptr_array_add (out, entry);

  return TRUE;
}

/* Never NULL: a report whose info cannot be read shows none. */
GPtrArray *
tes_report_get_info (TesReport *self)
{
  g_autoptr(GPtrArray) entries = g_ptr_array_new_with_free_func (info_entry_free);

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  tes_report_read_rows (self, "SELECT key, value FROM info ORDER BY rowid", 0, read_info_row, entries, NULL);

  return g_steal_pointer (&entries);
}

char *
tes_report_lookup_info (TesReport  *self,
                        const char *key)
{
  g_autoptr(GPtrArray) entries = NULL;

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  entries = tes_report_get_info (self);
  for (guint i = 0; i < entries->len; i++)
    {
      TesInfoEntry *entry = g_ptr_array_index (entries, i);

      if (g_strcmp0 (entry->key, key) == 0)
        return g_strdup (entry->value);
    }

  return NULL;
}
