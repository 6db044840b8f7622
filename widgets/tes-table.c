/* tes-table.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tes-row-item.h"
#include "tes-table.h"

typedef struct
{
  guint               column;
  gboolean            numeric;
  TesTableCellFunc    cell;
  TesTableCompareFunc compare;
  gpointer            data;
} Column;

static void
setup_cell_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               Column                   *column)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), column->numeric ? 1 : 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), column->numeric ? PANGO_ELLIPSIZE_NONE : PANGO_ELLIPSIZE_END);
  if (column->numeric)
    gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (list_item, label);
}

static void
bind_cell_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              Column                   *column)
{
  TesRowItem *item = gtk_list_item_get_item (list_item);
  g_autofree char *text = column->cell (tes_row_item_get (item), column->column, column->data);

  gtk_label_set_label (GTK_LABEL (gtk_list_item_get_child (list_item)), text);
}

static int
sort_func (gconstpointer a,
           gconstpointer b,
           gpointer      user_data)
{
  Column *column = user_data;

  return column->compare (tes_row_item_get ((gpointer)a), tes_row_item_get ((gpointer)b),
                          column->column, column->data);
}

/* Appends @n_columns columns to @view; @added (may be NULL) receives them
 * (not referenced: the view holds them). */
void
tes_table_add_columns (GtkColumnView        *view,
                       const TesTableColumn *columns,
                       guint                 n_columns,
                       TesTableCellFunc      cell,
                       TesTableCompareFunc   compare,
                       gpointer              data,
                       GtkColumnViewColumn **added)
{
  g_return_if_fail (GTK_IS_COLUMN_VIEW (view));

  for (guint c = 0; c < n_columns; c++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      Column *column = g_new0 (Column, 1);
      g_autoptr(GtkColumnViewColumn) view_column = NULL;

      *column = (Column) { c, columns[c].numeric, cell, compare, data };
      g_object_set_data_full (G_OBJECT (factory), "tes-table-column", column, g_free);
      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell_cb), column);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell_cb), column);

      view_column = gtk_column_view_column_new (columns[c].title, factory);
      gtk_column_view_column_set_sorter (view_column, GTK_SORTER (gtk_custom_sorter_new (sort_func, column, NULL)));
      gtk_column_view_column_set_resizable (view_column, TRUE);
      gtk_column_view_column_set_expand (view_column, columns[c].expand);
      gtk_column_view_append_column (view, view_column);
      if (added != NULL)
        added[c] = view_column;
    }
}
