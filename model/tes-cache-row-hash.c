/* tes-cache-row-hash.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-cache"

#include "config.h"

#include "tes-array-private.h"
#include "tes-cache-private.h"

#include <string.h>

/* A table's checksum (tes-cache-check.c) worked out as its rows are
 * inserted: each row put column by column, in the same bytes as the
 * seal's append_row () gives for the row read back (a column's SQLite
 * type, then its value: a little-endian int64, a double, or a length and
 * the bytes), the rows chained in the order the seal reads them. */

void
tes_cache_row_hash_init (TesCacheRowHash *rh)
{
  rh->row = g_byte_array_new ();
  rh->room = 0;
  rh->hash = TES_CACHE_ROW_SEED;
  rh->n_rows = 0;
}

void
tes_cache_row_hash_clear (TesCacheRowHash *rh)
{
  g_clear_pointer (&rh->row, g_byte_array_unref);
}

/* Room for n more bytes of the row, put column by column */
static inline guint8 *
row_take (TesCacheRowHash *rh,
          gsize            n)
{
  return tes_array_take ((GArray *)rh->row, &rh->room, (guint)n, 1);
}

static void
put_typed (TesCacheRowHash *rh,
           guint8           type,
           gconstpointer    value,
           gsize            len)
{
  guint8 *at = row_take (rh, 1 + len);

  at[0] = type;
  if (len > 0)
    memcpy (at + 1, value, len);
}

void
tes_cache_row_put_int (TesCacheRowHash *rh,
                       gint64           value)
{
  gint64 v = GINT64_TO_LE (value);

  put_typed (rh, SQLITE_INTEGER, &v, sizeof v);
}

void
tes_cache_row_put_null (TesCacheRowHash *rh)
{
  put_typed (rh, SQLITE_NULL, NULL, 0);
}

/* For a REAL column: SQLite keeps an integral value as an integer and
 * reads it back as a double, so that -0.0 comes back as 0.0. */
void
tes_cache_row_put_double (TesCacheRowHash *rh,
                          double           value)
{
  if (value == 0.0)
    value = 0.0;
  put_typed (rh, SQLITE_FLOAT, &value, sizeof value);
}

void
tes_cache_row_put_text (TesCacheRowHash *rh,
                        const char      *text,
                        gsize            len)
{
  gint64 n = GINT64_TO_LE ((gint64)len);

  put_typed (rh, SQLITE_TEXT, &n, sizeof n);
  memcpy (row_take (rh, len), text, len);
}

void
tes_cache_row_hash_end_row (TesCacheRowHash *rh)
{
  rh->hash = tes_cache_hash64 (rh->row->data, rh->row->len, rh->hash);
  rh->n_rows++;
  rh->row->len = 0;
}
