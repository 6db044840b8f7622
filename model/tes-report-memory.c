/* tes-report-memory.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-report"

#include "config.h"

#include "tes-report-private.h"

static gboolean
read_tile_memory_row (TesReport     *self,
                      sqlite3_stmt  *stmt,
                      gpointer       out,
                      GError       **error)
{
  TesTileMemory row = {
    .tile_id = sqlite3_column_int64 (stmt, 0),
    .category = (guint32)sqlite3_column_int64 (stmt, 1),
    .bytes = sqlite3_column_int64 (stmt, 2),
  };

  g_array_append_val ((GArray *)out, row);
  return TRUE;
}

/* Memory rows of one tile (tile_id > 0) or of all tiles, by tile then
 * category. */
GArray *
tes_report_get_tile_memory (TesReport  *self,
                            gint64      tile_id,
                            GError    **error)
{
  g_autoptr(GArray) rows = g_array_new (FALSE, TRUE, sizeof (TesTileMemory));

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  if (!tes_report_read_rows (self,
                             "SELECT tile_id, category, bytes FROM tile_memory "
                             "WHERE ?1 <= 0 OR tile_id = ?1 ORDER BY tile_id, category",
                             tile_id, read_tile_memory_row, rows, error))
    return NULL;

  return g_steal_pointer (&rows);
}
