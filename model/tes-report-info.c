/* tes-report-info.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-report"

#include "config.h"

#include "tes-report-private.h"

#include <string.h>

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

/* The Nth (from 1) histogram a text report printed, line by line as it
 * printed them, from its info rows (docs/formats/poplar.md): the
 * "Range (KB) …" header, each row (or "..." where rows were left out), the
 * Maximum lines and the tiles out of memory. NULL when there is no Nth.
 * *n_rows, when given, is the number of lines before the Maximum lines. */
GStrv
tes_report_get_printed_histogram (TesReport *self,
                                  guint      n,
                                  guint     *n_rows)
{
  static const char *const maxima[][2] = {
    { "maximum_including_gaps", "Maximum (Including Gaps): " },
    { "maximum_excluding_gaps", "Maximum (Excluding Gaps): " },
  };
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GHashTable) values = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GStrvBuilder) lines = g_strv_builder_new ();
  g_autofree char *prefix = NULL;
  g_autofree char *bin_prefix = NULL;
  guint found = 0;
  guint rows = 1;

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  entries = tes_report_get_info (self);
  for (guint i = 0; i < entries->len; i++)
    {
      TesInfoEntry *entry = g_ptr_array_index (entries, i);

      g_hash_table_insert (values, entry->key, entry->value);
      if (prefix == NULL && g_str_has_prefix (entry->key, "memory") && strstr (entry->key, "by_tile") != NULL &&
          g_str_has_suffix (entry->key, ".header") && ++found == n)
        {
          prefix = g_strndup (entry->key, strlen (entry->key) - strlen (".header"));
          g_strv_builder_add (lines, entry->value);
        }
    }
  if (prefix == NULL)
    return NULL;

  bin_prefix = g_strconcat (prefix, ".bin.", NULL);
  for (guint i = 0; i < entries->len; i++)
    {
      TesInfoEntry *entry = g_ptr_array_index (entries, i);

      if (g_str_has_prefix (entry->key, bin_prefix))
        {
          g_strv_builder_add (lines, entry->value);
          rows++;
        }
    }

  /* each figure as printed where the importer kept that apart */
  for (guint m = 0; m <= G_N_ELEMENTS (maxima); m++)
    {
      gboolean oom = m == G_N_ELEMENTS (maxima);
      g_autofree char *key = g_strdup_printf ("%s.%s", prefix, oom ? "tiles_out_of_memory" : maxima[m][0]);
      g_autofree char *printed_key = g_strconcat (key, ".printed", NULL);
      const char *value = g_hash_table_lookup (values, printed_key);

      if (value == NULL)
        value = g_hash_table_lookup (values, key);
      if (value == NULL)
        continue;
      {
        /* (g_strv_builder_take is GLib 2.80) */
        g_autofree char *line = oom ? g_strdup_printf ("%s tile(s) out of memory", value)
                                    : g_strconcat (maxima[m][1], value, NULL);

        g_strv_builder_add (lines, line);
      }
    }

  if (n_rows != NULL)
    *n_rows = rows;
  return g_strv_builder_end (lines);
}
