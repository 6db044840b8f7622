/* tes-row-item.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-row-item"

#include "config.h"

#include "tes-row-item.h"

/* One row of a table (an operator of the Summary, a name of the trace's
 * summary) as a list-model item: the views' column views hold these. */
struct _TesRowItem
{
  GObject         parent_instance;
  gpointer        row;
  GDestroyNotify  row_free;
};

G_DEFINE_FINAL_TYPE (TesRowItem, tes_row_item, G_TYPE_OBJECT)

static void
tes_row_item_finalize (GObject *object)
{
  TesRowItem *self = (TesRowItem *)object;

  if (self->row_free != NULL)
    g_clear_pointer (&self->row, self->row_free);

  G_OBJECT_CLASS (tes_row_item_parent_class)->finalize (object);
}

static void
tes_row_item_class_init (TesRowItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tes_row_item_finalize;
}

static void
tes_row_item_init (TesRowItem *self)
{
}

/* Takes @row, which @row_free frees with the item. */
TesRowItem *
tes_row_item_new (gpointer       row,
                  GDestroyNotify row_free)
{
  TesRowItem *self;

  g_return_val_if_fail (row != NULL, NULL);

  self = g_object_new (TES_TYPE_ROW_ITEM, NULL);
  self->row = row;
  self->row_free = row_free;

  return self;
}

gconstpointer
tes_row_item_get (TesRowItem *self)
{
  g_return_val_if_fail (TES_IS_ROW_ITEM (self), NULL);

  return self->row;
}
