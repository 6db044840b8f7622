/* tes-info.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-info"

#include "config.h"

#include "tes-info.h"

/* "Tile average compute cycles (incl. idle)" -> "tile_average_compute_cycles_incl_idle":
 * a vendor's label as a key for report info. */
char *
tes_slugify (const char *text)
{
  GString *out = g_string_new (NULL);
  gboolean sep = FALSE;

  g_return_val_if_fail (text != NULL, NULL);

  for (const char *c = text; *c; c++)
    {
      if (g_ascii_isalnum (*c))
        {
          if (sep && out->len > 0)
            g_string_append_c (out, '_');
          g_string_append_c (out, g_ascii_tolower (*c));
          sep = FALSE;
        }
      else
        sep = TRUE;
    }

  return g_string_free (out, FALSE);
}

/* prefix + "WALL_TIME" -> prefix + "wall_time": a metric's name kept as
 * printed, lower case, spaces as '_'. */
char *
tes_info_key (const char *prefix,
              const char *label)
{
  g_autofree char *lower = g_ascii_strdown (label, -1);

  g_strdelimit (lower, " ", '_');
  return g_strconcat (prefix, lower, NULL);
}

void
tes_info_set_int (TesCacheWriter *writer,
                  gint64          source_id,
                  const char     *key,
                  gint64          value)
{
  g_autofree char *text = g_strdup_printf ("%" G_GINT64_FORMAT, value);

  tes_cache_writer_set_info (writer, source_id, key, text);
}

GPtrArray *
tes_info_list_new (void)
{
  return g_ptr_array_new_with_free_func (g_free);
}

/* Takes the key, copies the value. */
void
tes_info_list_add (GPtrArray  *list,
                   char       *key,
                   const char *value)
{
  g_ptr_array_add (list, key);
  g_ptr_array_add (list, g_strdup (value));
}

void
tes_info_list_add_int (GPtrArray *list,
                       char      *key,
                       gint64     value)
{
  g_ptr_array_add (list, key);
  g_ptr_array_add (list, g_strdup_printf ("%" G_GINT64_FORMAT, value));
}

/* The value of the first row with that key, or NULL. */
const char *
tes_info_list_lookup (GPtrArray  *list,
                      const char *key)
{
  for (guint i = 0; i + 1 < list->len; i += 2)
    if (g_str_equal (g_ptr_array_index (list, i), key))
      return g_ptr_array_index (list, i + 1);

  return NULL;
}

void
tes_info_list_write (GPtrArray      *list,
                     TesCacheWriter *writer,
                     gint64          source_id)
{
  for (guint i = 0; i + 1 < list->len; i += 2)
    tes_cache_writer_set_info (writer, source_id, g_ptr_array_index (list, i), g_ptr_array_index (list, i + 1));
}
