/* tes-row-item.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define TES_TYPE_ROW_ITEM (tes_row_item_get_type ())

G_DECLARE_FINAL_TYPE (TesRowItem, tes_row_item, TES, ROW_ITEM, GObject)

TesRowItem    *tes_row_item_new (gpointer        row,
                                 GDestroyNotify  row_free);
gconstpointer  tes_row_item_get (TesRowItem     *self);

G_END_DECLS
