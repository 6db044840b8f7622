/* tes-operator-item.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-report.h"

G_BEGIN_DECLS

#define TES_TYPE_OPERATOR_ITEM (tes_operator_item_get_type ())

G_DECLARE_FINAL_TYPE (TesOperatorItem, tes_operator_item, TES, OPERATOR_ITEM, GObject)

TesOperatorItem     *tes_operator_item_new     (TesSummaryRow   *row);
const TesSummaryRow *tes_operator_item_get_row (TesOperatorItem *self);

G_END_DECLS
