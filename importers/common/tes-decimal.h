/* tes-decimal.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  TES_DECIMAL_OK,
  TES_DECIMAL_ROUNDED,    /* more fraction digits than the scale keeps */
  TES_DECIMAL_RANGE,      /* does not fit a gint64 once scaled */
  TES_DECIMAL_INVALID,    /* not a JSON number */
} TesDecimal;

TesDecimal tes_decimal_parse (const char *text,
                              gsize       len,
                              guint       scale_digits,
                              gint64     *out);
gboolean   tes_parse_percent (const char *text,
                              gsize       len,
                              double     *percent);

G_END_DECLS
