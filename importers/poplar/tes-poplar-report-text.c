/* tes-poplar-report-text.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-poplar-report"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tes-info.h"
#include "tes-poplar-report-private.h"
#include "tes-text.h"

#include <string.h>

/* The syntax every section of a Poplar report shares: numbers grouped by
 * thousands, "Label: value" lines, and info keys made from the labels. */

const char *
tes_poplar_skip_spaces (const char *s)
{
  while (tes_is_space (*s))
    s++;
  return s;
}

/* A number as Poplar prints it: digits, optionally grouped by ',' in
 * threes, with an optional fraction. The digits without separators are
 * appended to norm. Returns FALSE when s does not start with a digit or the
 * grouping is broken (e.g. a line cut inside "23,878,3"). */
gboolean
tes_poplar_scan_number (const char  *s,
                        const char **end,
                        GString     *norm)
{
  const char *q = s;
  guint lead = 0;
  guint digits = 0;

  *end = s;
  if (!g_ascii_isdigit (*q))
    return FALSE;

  while (g_ascii_isdigit (*q))
    {
      g_string_append_c (norm, *q++);
      lead++;
    }
  digits = lead;

  if (*q == ',' && g_ascii_isdigit (q[1]))
    {
      if (lead > 3)
        return FALSE;

      while (*q == ',')
        {
          for (guint i = 1; i <= 3; i++)
            if (!g_ascii_isdigit (q[i]))
              return FALSE;
          if (g_ascii_isdigit (q[4]))
            return FALSE;
          g_string_append_len (norm, q + 1, 3);
          digits += 3;
          q += 4;
        }
    }

  if (digits > 18)
    return FALSE;

  if (*q == '.' && g_ascii_isdigit (q[1]))
    {
      g_string_append_c (norm, *q++);
      while (g_ascii_isdigit (*q))
        g_string_append_c (norm, *q++);
    }

  *end = q;
  return TRUE;
}

gboolean
tes_poplar_is_integer (const char *norm)
{
  return strchr (norm, '.') == NULL;
}

/* "Tile average compute cycles (including idle threads)" ->
 * "tile_average_compute_cycles_including_idle_threads" */
char *
tes_poplar_slugify (const char *label)
{
  char *slug = tes_slugify (label);

  if (*slug != '\0')
    return slug;

  g_free (slug);
  return g_strdup ("value");
}

/* Splits "Label:  value" at the first ':' that ends the text or is
 * followed by white space (so "poplin::Conv" stays whole). The label is
 * trimmed; the value is trimmed and may be empty (a header). On success
 * the label replaces what *label held, so that a parser may try one
 * line's shapes in turn with one variable. */
gboolean
tes_poplar_split_kv (const char  *text,
                     char       **label,
                     const char **value)
{
  for (const char *s = text; *s; s++)
    {
      if (*s == ':' && (s[1] == '\0' || tes_is_space (s[1])))
        {
          g_autofree char *found = g_strstrip (g_strndup (text, s - text));

          if (*found == '\0')
            return FALSE;
          g_free (*label);
          *label = g_steal_pointer (&found);
          *value = tes_poplar_skip_spaces (s + 1);
          return TRUE;
        }
    }

  return FALSE;
}

gboolean
tes_poplar_report_put_info (TesPoplarReportParser  *p,
                            const char             *key,
                            const char             *value,
                            GError                **error)
{
  gpointer first = g_hash_table_lookup (p->keys, key);

  if (first != NULL)
    return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->path, p->line_no,
                                    _("'%s' is printed twice in one section (first on line %u)"),
                                    key, GPOINTER_TO_UINT (first));

  g_hash_table_insert (p->keys, g_strdup (key), GUINT_TO_POINTER (p->line_no));
  tes_cache_writer_set_info (p->writer, p->source_id, key, value);
  return TRUE;
}


/* A figure stored as a number (value) and, where the report printed it
 * otherwise ("1,206,442 (approx 652.1 microseconds)", "20,971,520 B"),
 * also as printed in <key>.printed, which the Summary shows. */
gboolean
tes_poplar_report_put_printed (TesPoplarReportParser  *p,
                               const char             *key,
                               const char             *value,
                               const char             *printed,
                               GError                **error)
{
  g_autofree char *printed_key = NULL;

  if (!tes_poplar_report_put_info (p, key, value, error))
    return FALSE;
  if (printed == NULL || g_str_equal (printed, value))
    return TRUE;

  printed_key = g_strconcat (key, ".printed", NULL);
  return tes_poplar_report_put_info (p, printed_key, printed, error);
}

/* "IPU 1:", the header of one IPU's block in a report of several. */
gboolean
tes_poplar_parse_ipu_header (const char *text,
                             gint64     *ipu)
{
  g_autoptr(GString) norm = g_string_new (NULL);
  const char *s;

  if (!g_str_has_prefix (text, "IPU "))
    return FALSE;
  s = tes_poplar_skip_spaces (text + strlen ("IPU "));
  if (!tes_poplar_scan_number (s, &s, norm) || !tes_poplar_is_integer (norm->str) || !g_str_equal (s, ":"))
    return FALSE;

  *ipu = g_ascii_strtoll (norm->str, NULL, 10);
  return TRUE;
}
