/* tes-json.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <string.h>

#include <glib.h>

G_BEGIN_DECLS

/* Importers keep each slice's vendor fields as compact JSON text (the
 * args of a slice or an operator row), built with these. */

/* g_string_append_len() without the call and the aliasing checks (GLib
 * 2.74 does not inline it), for the Chrome parser's inner loop; text must
 * not point into s. */
static inline void
tes_json_append_raw (GString    *s,
                     const char *text,
                     gsize       len)
{
  if (G_UNLIKELY (s->len + len >= s->allocated_len))
    {
      gsize old = s->len;

      g_string_set_size (s, old + len);
      s->len = old;
    }
  memcpy (s->str + s->len, text, len);
  s->len += len;
  s->str[s->len] = '\0';
}

static inline void
tes_json_append_char (GString *s,
                      char     c)
{
  if (G_UNLIKELY (s->len + 1 >= s->allocated_len))
    {
      gsize old = s->len;

      g_string_set_size (s, old + 1);
      s->len = old;
    }
  s->str[s->len++] = c;
  s->str[s->len] = '\0';
}

typedef enum
{
  TES_JSON_ESCAPE_SHORT,     /* \n \r \t by their short escapes */
  TES_JSON_ESCAPE_UNICODE,   /* every control character as \u00XX */
} TesJsonEscape;

void tes_json_append_string      (GString       *json,
                                  const char    *text,
                                  gssize         len);
void tes_json_append_string_full (GString       *json,
                                  const char    *text,
                                  gssize         len,
                                  TesJsonEscape  escape);
void tes_json_member             (GString       *json,
                                  const char    *key,
                                  const char    *value,
                                  gssize         len);
void tes_json_member_int         (GString       *json,
                                  const char    *key,
                                  gint64         value);
void tes_json_key                (GString       *json,
                                  const char    *key);

G_END_DECLS
