/* tes-cache-track.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-cache-writer"

#include "config.h"

#include "tes-cache-track-private.h"

TesTrackSlices *
tes_cache_track_new (void)
{
  TesTrackSlices *ts = g_new0 (TesTrackSlices, 1);

  ts->records = g_array_new (FALSE, FALSE, sizeof (TesSliceRecord));
  ts->args = g_string_new (NULL);
  ts->in_order = TRUE;
  ts->stack = g_array_new (FALSE, FALSE, sizeof (TesOpenSlice));
  ts->chunk_rows = g_array_new (FALSE, FALSE, sizeof (gint64));
  ts->kept_data = g_ptr_array_new_with_free_func ((GDestroyNotify)g_bytes_unref);
  ts->max_depth = 0;
  ts->t_min = G_MAXINT64;
  ts->t_max = G_MININT64;

  return ts;
}

void
tes_cache_track_free (gpointer data)
{
  TesTrackSlices *ts = data;

  if (ts == NULL)
    return;

  g_clear_pointer (&ts->records, g_array_unref);
  if (ts->args != NULL)
    g_string_free (ts->args, TRUE);
  if (ts->spare_args != NULL)
    g_string_free (ts->spare_args, TRUE);
  g_clear_pointer (&ts->stack, g_array_unref);
  g_clear_pointer (&ts->chunk_rows, g_array_unref);
  g_clear_pointer (&ts->kept_data, g_ptr_array_unref);
  g_clear_pointer (&ts->held_args, g_byte_array_unref);
  g_free (ts);
}

int
tes_cache_track_compare_records (gconstpointer a,
                                 gconstpointer b)
{
  const TesSliceRecord *ra = a;
  const TesSliceRecord *rb = b;

  /* Start ascending; at equal start the longer slice encloses the
   * shorter; then insertion order keeps the sort stable. */
  if (ra->start != rb->start)
    return ra->start < rb->start ? -1 : 1;
  if (ra->dur != rb->dur)
    return ra->dur > rb->dur ? -1 : 1;
  return (ra->parent > rb->parent) - (ra->parent < rb->parent);
}
