/* tes-json.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-json"

#include "config.h"

#include "tes-json.h"

/* A JSON string literal; len -1: text is NUL-terminated. Runs of plain
 * characters are copied whole: the Chrome parser escapes every string of
 * every event's args through here. */
/* Whether any of the eight bytes at p is a control character, '"' or
 * '\\' (the word tricks of "Bit Twiddling Hacks": a byte below n, a byte
 * equal to c). */
static inline gboolean
needs_escape8 (const char *p)
{
  const guint64 ones = G_GUINT64_CONSTANT (0x0101010101010101);
  const guint64 highs = G_GUINT64_CONSTANT (0x8080808080808080);
  guint64 x, q, b;

  memcpy (&x, p, 8);
  q = x ^ (ones * '"');
  b = x ^ (ones * '\\');

  return ((((x - ones * 0x20) & ~x) | ((q - ones) & ~q) | ((b - ones) & ~b)) & highs) != 0;
}

void
tes_json_append_string_full (GString       *json,
                             const char    *text,
                             gssize         len,
                             TesJsonEscape  escape)
{
  gsize n = len < 0 ? strlen (text) : (gsize)len;
  gsize run = 0;

  tes_json_append_char (json, '"');

  for (gsize i = 0; i < n; i++)
    {
      guchar c;

      /* eight bytes at a time past the plain ones (kernel names of
       * hundreds of bytes are written once per operator row) */
      while (i + 8 <= n && !needs_escape8 (text + i))
        i += 8;
      if (i >= n)
        break;
      c = (guchar)text[i];
      if (G_LIKELY (c >= 0x20 && c != '"' && c != '\\'))
        continue;

      tes_json_append_raw (json, text + run, i - run);
      run = i + 1;

      if (c == '"')
        tes_json_append_raw (json, "\\\"", 2);
      else if (c == '\\')
        tes_json_append_raw (json, "\\\\", 2);
      else if (escape == TES_JSON_ESCAPE_SHORT && c == '\n')
        tes_json_append_raw (json, "\\n", 2);
      else if (escape == TES_JSON_ESCAPE_SHORT && c == '\t')
        tes_json_append_raw (json, "\\t", 2);
      else if (escape == TES_JSON_ESCAPE_SHORT && c == '\r')
        tes_json_append_raw (json, "\\r", 2);
      else
        g_string_append_printf (json, "\\u%04x", c);
    }

  tes_json_append_raw (json, text + run, n - run);
  tes_json_append_char (json, '"');
}

void
tes_json_append_string (GString    *json,
                        const char *text,
                        gssize      len)
{
  tes_json_append_string_full (json, text, len, TES_JSON_ESCAPE_SHORT);
}

/* "key": into an open object, after a comma unless it is the first. */
void
tes_json_key (GString    *json,
              const char *key)
{
  if (json->len > 0 && json->str[json->len - 1] != '{' && json->str[json->len - 1] != '[')
    g_string_append_c (json, ',');
  tes_json_append_string (json, key, -1);
  g_string_append_c (json, ':');
}

void
tes_json_member (GString    *json,
                 const char *key,
                 const char *value,
                 gssize      len)
{
  tes_json_key (json, key);
  tes_json_append_string (json, value, len);
}

void
tes_json_member_int (GString    *json,
                     const char *key,
                     gint64      value)
{
  tes_json_key (json, key);
  g_string_append_printf (json, "%" G_GINT64_FORMAT, value);
}
