/* tes-operator-item.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-operator-item"

#include "config.h"

#include "tes-operator-item.h"

/* One row of the operator table as a list-model item. */
struct _TesOperatorItem
{
  GObject        parent_instance;
  TesSummaryRow *row;
};

G_DEFINE_FINAL_TYPE (TesOperatorItem, tes_operator_item, G_TYPE_OBJECT)

static void
tes_operator_item_finalize (GObject *object)
{
  TesOperatorItem *self = (TesOperatorItem *)object;

  g_clear_pointer (&self->row, tes_summary_row_free);

  G_OBJECT_CLASS (tes_operator_item_parent_class)->finalize (object);
}

static void
tes_operator_item_class_init (TesOperatorItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tes_operator_item_finalize;
}

static void
tes_operator_item_init (TesOperatorItem *self)
{
}

/* Takes @row. */
TesOperatorItem *
tes_operator_item_new (TesSummaryRow *row)
{
  TesOperatorItem *self;

  g_return_val_if_fail (row != NULL, NULL);

  self = g_object_new (TES_TYPE_OPERATOR_ITEM, NULL);
  self->row = row;

  return self;
}

const TesSummaryRow *
tes_operator_item_get_row (TesOperatorItem *self)
{
  g_return_val_if_fail (TES_IS_OPERATOR_ITEM (self), NULL);

  return self->row;
}
