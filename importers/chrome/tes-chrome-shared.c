/* tes-chrome-shared.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-chrome"

#include "config.h"

#include "tes-chrome-builder-private.h"
#include "tes-chrome-private.h"
#include "tes-info.h"

#include <math.h>

/* What the builder's steps (merge, match, tracks, rows, ranks) and the
 * vendors' flavours share: the string tables, warnings, tracks and small
 * readers. Kept apart from tes-chrome-builder.c, which only runs the steps,
 * so that no file of the builder calls back into the one that calls it. */

/* ---- strings ----------------------------------------------------------- */

void
tes_chrome_gids_init (TesChromeGids *gids,
                      guint          n_segs)
{
  gids->of_text = g_hash_table_new (g_str_hash, g_str_equal);
  gids->texts = g_ptr_array_new ();
  g_ptr_array_add (gids->texts, NULL);
  gids->n_maps = n_segs;
  gids->maps = g_new0 (GArray *, n_segs);
  for (guint k = 0; k < n_segs; k++)
    gids->maps[k] = g_array_new (FALSE, TRUE, sizeof (guint32));
}

void
tes_chrome_gids_clear (TesChromeGids *gids)
{
  g_clear_pointer (&gids->of_text, g_hash_table_unref);
  g_clear_pointer (&gids->texts, g_ptr_array_unref);
  for (guint k = 0; k < gids->n_maps; k++)
    g_array_unref (gids->maps[k]);
  g_clear_pointer (&gids->maps, g_free);
  gids->n_maps = 0;
}

guint32
tes_chrome_gids_of_text (TesChromeGids *gids,
                         const char    *text)
{
  gpointer value;

  if (text == NULL)
    return 0;

  if (g_hash_table_lookup_extended (gids->of_text, text, NULL, &value))
    return GPOINTER_TO_UINT (value);

  g_ptr_array_add (gids->texts, (gpointer)text);
  g_hash_table_insert (gids->of_text, (gpointer)text, GUINT_TO_POINTER (gids->texts->len - 1));

  return gids->texts->len - 1;
}

guint32
tes_chrome_gid_of_text (TesChromeBuilder *b,
                        const char       *text)
{
  return tes_chrome_gids_of_text (&b->gids, text);
}

/* tes_chrome_gids_get() the first time a string id is met. */
guint32
tes_chrome_gids_slow (TesChromeGids    *gids,
                      TesChromeSegment *seg,
                      guint32           sid)
{
  GArray *map = gids->maps[seg->index];
  guint32 g;

  if (sid == 0)
    return 0;

  if (sid >= map->len)
    g_array_set_size (map, seg->strings.strs->len);

  if ((g = g_array_index (map, guint32, sid)) == 0)
    {
      g = tes_chrome_gids_of_text (gids, tes_chrome_strings_get (&seg->strings, sid));
      g_array_index (map, guint32, sid) = g;
    }

  return g;
}

/* tes_chrome_wid() the first time a gid is written. */
guint32
tes_chrome_wid_slow (TesChromeBuilder *b,
                     guint32           g)
{
  guint32 w;

  if (g == 0)
    return 0;

  if (g >= b->wids->len)
    g_array_set_size (b->wids, b->gids.texts->len);

  if ((w = g_array_index (b->wids, guint32, g)) == 0)
    {
      w = tes_cache_writer_intern (b->writer, tes_chrome_text (b, g));
      g_array_index (b->wids, guint32, g) = w;
    }

  return w;
}

/* One more warning @w at @offset in @counts (TES_CHROME_N_WARNINGS). */
void
tes_chrome_warnings_note (TesChromeWarningCount *counts,
                          TesChromeWarning       w,
                          guint64                offset)
{
  if (counts[w].count++ == 0 || offset < counts[w].first_offset)
    counts[w].first_offset = offset;
}

void
tes_chrome_warn (TesChromeBuilder *b,
                 TesChromeWarning  w,
                 guint64           offset)
{
  tes_chrome_warnings_note (b->warnings, w, offset);
}

/* Adds the counts of @from (a segment's, the flows' match's) to @into,
 * keeping the first offset of either. */
void
tes_chrome_warnings_add (TesChromeWarningCount       *into,
                         const TesChromeWarningCount *from)
{
  for (guint w = 0; w < TES_CHROME_N_WARNINGS; w++)
    if (from[w].count > 0)
      {
        if (into[w].count == 0 || from[w].first_offset < into[w].first_offset)
          into[w].first_offset = from[w].first_offset;
        into[w].count += from[w].count;
      }
}

/* ---- helpers for the steps and the flavours ------------------------------ */

gint64
tes_chrome_add_track (TesChromeBuilder *b,
                      gint64            parent,
                      TesTrackKind      kind,
                      const char       *name,
                      gint64            sort_index,
                      const char       *native_id)
{
  if (parent == 0)
    parent = b->root_track;

  return tes_cache_writer_add_track (b->writer, parent, b->context->source_id, b->clock_id,
                                     kind, name, sort_index, native_id);
}

/* An "otherData" (or "metadata") member of the file, "otherData.key". */
const char *
tes_chrome_other_data (TesChromeBuilder *b,
                       const char       *key)
{
  return tes_info_list_lookup (b->segs[0]->info, key);
}

/* A whole number of cycles from args, -1 when there is none. */
gint64
tes_chrome_args_cycles (const char *args,
                        gsize       len,
                        const char *key)
{
  const char *v;
  gsize vl;
  double d;

  if (len == 0 || !tes_chrome_args_find (args, len, key, &v, &vl) ||
      !tes_chrome_value_to_double (v, vl, TRUE, &d) || d < 0 || d > 9e15)
    return -1;

  return (gint64)llround (d);
}

/* Every merged thread, process by process, in their current order. */
GPtrArray *
tes_chrome_list_threads (TesChromeBuilder *b)
{
  GPtrArray *threads = g_ptr_array_new ();

  for (guint i = 0; i < b->processes->len; i++)
    {
      TesChromeMergedProcess *mp = g_ptr_array_index (b->processes, i);

      for (guint j = 0; j < mp->threads->len; j++)
        g_ptr_array_add (threads, g_ptr_array_index (mp->threads, j));
    }

  return threads;
}

/* The trace's slices, all threads' parts: what a flavour reserves room
 * for (reserved, not touched: a large block is mapped only as it is
 * written, and an array that never grows is never copied). */
guint64
tes_chrome_n_slices (TesChromeBuilder *b)
{
  guint64 n = 0;

  for (guint k = 0; k < b->n_segs; k++)
    for (guint i = 0; i < b->segs[k]->thread_list->len; i++)
      n += tes_chrome_thread_n_slices (g_ptr_array_index (b->segs[k]->thread_list, i));

  return n;
}

gboolean
tes_chrome_thread_has_slices (TesChromeMergedThread *mt)
{
  for (guint i = 0; i < mt->parts->len; i++)
    if (tes_chrome_thread_n_slices (g_array_index (mt->parts, TesChromePart, i).thread) > 0)
      return TRUE;

  return FALSE;
}
