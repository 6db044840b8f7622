/* tes-table.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Text columns for a GtkColumnView over TesRowItems: every table of the
 * views (the Summary's operators, the trace's per-name summary) is built
 * the same way, each column sortable. */
typedef char *(*TesTableCellFunc)    (gconstpointer row,
                                      guint         column,
                                      gpointer      data);
typedef int   (*TesTableCompareFunc) (gconstpointer a,
                                      gconstpointer b,
                                      guint         column,
                                      gpointer      data);

typedef struct
{
  const char *title;
  gboolean    numeric;   /* right-aligned, tabular figures */
  gboolean    expand;
} TesTableColumn;

void tes_table_add_columns (GtkColumnView         *view,
                            const TesTableColumn  *columns,
                            guint                  n_columns,
                            TesTableCellFunc       cell,
                            TesTableCompareFunc    compare,
                            gpointer               data,
                            GtkColumnViewColumn  **added);

G_END_DECLS
