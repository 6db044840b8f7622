/* tes-line-reader.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tes-importer.h"
#include "tes-line-reader.h"

#include <string.h>

gboolean
tes_line_reader_init (TesLineReader  *reader,
                      const char     *path,
                      GError        **error)
{
  GMappedFile *mapped;

  g_return_val_if_fail (reader != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  memset (reader, 0, sizeof *reader);

  if (!(mapped = g_mapped_file_new (path, FALSE, error)))
    return FALSE;

  tes_line_reader_init_for_data (reader, g_mapped_file_get_contents (mapped),
                                 g_mapped_file_get_length (mapped));
  reader->mapped = mapped;

  return TRUE;
}

void
tes_line_reader_init_for_data (TesLineReader *reader,
                               const char    *data,
                               gsize          len)
{
  g_return_if_fail (reader != NULL);

  memset (reader, 0, sizeof *reader);
  reader->data = data;
  reader->len = len;
}

void
tes_line_reader_clear (TesLineReader *reader)
{
  g_clear_pointer (&reader->mapped, g_mapped_file_unref);
  reader->data = NULL;
  reader->len = 0;
}

/* Returns the next line without its terminator (\n, \r\n); the last line
 * need not be terminated. */
gboolean
tes_line_reader_next (TesLineReader  *reader,
                      const char    **line,
                      gsize          *line_len)
{
  const char *start;
  const char *nl;
  gsize n;

  g_return_val_if_fail (reader != NULL, FALSE);

  if (reader->pos >= reader->len)
    return FALSE;

  start = reader->data + reader->pos;
  nl = memchr (start, '\n', reader->len - reader->pos);
  n = nl ? (gsize)(nl - start) : reader->len - reader->pos;

  reader->line_offset = reader->pos;
  reader->line_no++;
  reader->pos += n + (nl ? 1 : 0);

  if (n > 0 && start[n - 1] == '\r')
    n--;

  *line = start;
  *line_len = n;

  return TRUE;
}

double
tes_line_reader_get_fraction (TesLineReader *reader)
{
  return reader->len ? (double)reader->pos / reader->len : 1.0;
}

/* A short, printable rendering of input for error messages: invalid bytes
 * and controls are escaped, long text is cut with an ellipsis. */
char *
tes_describe_text (const char *text,
                   gsize       len,
                   gsize       max_chars)
{
  GString *out = g_string_new (NULL);
  gsize i = 0;

  while (i < len && out->len < max_chars)
    {
      guchar c = (guchar)text[i];

      if (c >= 0x20 && c < 0x7f)
        g_string_append_c (out, (char)c);
      else if (c == '\t')
        g_string_append (out, "\\t");
      else
        g_string_append_printf (out, "\\x%02x", c);
      i++;
    }

  if (i < len)
    g_string_append (out, "…");

  return g_string_free (out, FALSE);
}

/* Valid UTF-8 without control characters (tabs allowed): what a line of
 * a vendor's text output is, and what binary garbage is not. */
gboolean
tes_line_is_text (const char *line,
                  gsize       len)
{
  if (!g_utf8_validate_len (line, len, NULL))
    return FALSE;

  for (gsize i = 0; i < len; i++)
    if ((guchar)line[i] < 0x20 && line[i] != '\t')
      return FALSE;

  return TRUE;
}

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

/* Every importer reports bad input the same way: "PATH:LINE: message". */
void
tes_set_error_at_line_valist (GError     **error,
                              int          code,
                              const char  *path,
                              guint        line,
                              const char  *format,
                              va_list      args)
{
  g_autofree char *message = g_strdup_vprintf (format, args);

  g_set_error (error, TES_IMPORT_ERROR, code, "%s:%u: %s", path, line, message);
}
