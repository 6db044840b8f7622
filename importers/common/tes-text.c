/* tes-text.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-text"

#include "config.h"

#include "tes-text.h"

#include <string.h>

/* Drops white space (g_ascii_isspace) at both ends. */
void
tes_strip (const char **text,
           gsize       *len)
{
  while (*len > 0 && g_ascii_isspace ((*text)[0]))
    {
      (*text)++;
      (*len)--;
    }
  while (*len > 0 && g_ascii_isspace ((*text)[*len - 1]))
    (*len)--;
}

gboolean
tes_is_blank (const char *text,
              gsize       len)
{
  tes_strip (&text, &len);
  return len == 0;
}

static gsize
skip_json_space (const guint8 *head,
                 gsize         len,
                 gsize         i)
{
  while (i < len && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
    i++;

  return i;
}

/* A file head that opens a JSON object ('{' then a key or '}') or an array
 * of objects or arrays: what no vendor's text listing starts with (a log's
 * "[INFO]" does not pass). Text sniffers ask this first so that a JSON
 * trace, often thousands of short lines in its head, is never run through
 * their line classifiers. */
gboolean
tes_head_is_json (const guint8 *head,
                  gsize         len)
{
  gsize i = 0;
  guint8 c;

  if (head == NULL)
    return FALSE;
  if (len >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF)
    i = 3;
  i = skip_json_space (head, len, i);
  if (i >= len || (head[i] != '{' && head[i] != '['))
    return FALSE;

  c = head[i];
  i = skip_json_space (head, len, i + 1);
  if (i >= len)
    return FALSE;

  return c == '{' ? (head[i] == '"' || head[i] == '}') : (head[i] == '{' || head[i] == '[' || head[i] == ']');
}

/* The length without the spaces and tabs at the end. */
gsize
tes_trimmed_length (const char *text,
                    gsize       len)
{
  while (len > 0 && tes_is_space (text[len - 1]))
    len--;

  return len;
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

/* Splits a line at sep into at most max fields, each stripped; returns
 * how many there are (max + 1 when there are more). */
guint
tes_split_fields (const char  *line,
                  gsize        len,
                  char         sep,
                  const char **fields,
                  gsize       *lens,
                  guint        max)
{
  guint n = 0;
  gsize start = 0;

  for (gsize i = 0; i <= len; i++)
    {
      if (i < len && line[i] != sep)
        continue;
      if (n == max)
        return max + 1;
      fields[n] = line + start;
      lens[n] = i - start;
      tes_strip (&fields[n], &lens[n]);
      n++;
      start = i + 1;
    }

  return n;
}

/* Whether the line is exactly these comma-separated fields (white space
 * around each allowed): how CSV headers are recognised. */
gboolean
tes_line_has_fields (const char         *line,
                     gsize               len,
                     const char * const *names,
                     guint               n_names)
{
  const char *fields[16];
  gsize lens[16];

  g_return_val_if_fail (n_names <= G_N_ELEMENTS (fields), FALSE);

  if (tes_split_fields (line, len, ',', fields, lens, n_names) != n_names)
    return FALSE;

  for (guint i = 0; i < n_names; i++)
    if (lens[i] != strlen (names[i]) || memcmp (fields[i], names[i], lens[i]) != 0)
      return FALSE;

  return TRUE;
}
