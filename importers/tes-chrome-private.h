/* tes-chrome-private.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <string.h>

#include "tes-cache-writer.h"
#include "tes-importer.h"

G_BEGIN_DECLS

/* Containers nested deeper than this anywhere in the document are an
 * error: nothing real comes close, and readers of the args we store (the
 * UI uses json-glib, a recursive parser) must not be handed a bomb. */
#define TES_CHROME_MAX_DEPTH 1000

/* Files smaller than this are parsed by one thread. */
#define TES_CHROME_SPLIT_MIN_SIZE (16 * 1024 * 1024)

/* g_string_append_len() without the call and the aliasing checks (GLib
 * 2.74 does not inline it); text must not point into s. */
static inline void
tes_chrome_append (GString    *s,
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
tes_chrome_append_c (GString *s,
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
  TES_CHROME_DECIMAL_OK,
  TES_CHROME_DECIMAL_ROUNDED,    /* more fraction digits than the scale keeps */
  TES_CHROME_DECIMAL_RANGE,      /* does not fit a gint64 once scaled */
  TES_CHROME_DECIMAL_INVALID,    /* not a JSON number */
} TesChromeDecimal;

TesChromeDecimal tes_chrome_parse_decimal (const char  *text,
                                           gsize        len,
                                           guint        scale_digits,
                                           gint64      *out);

/* Top-level members of the compact args JSON the parser writes
 * ({"k":v,...}, no whitespace). */
gboolean  tes_chrome_args_find        (const char  *json,
                                       gsize        len,
                                       const char  *key,
                                       const char **value,
                                       gsize       *value_len);
gboolean  tes_chrome_args_next        (const char  *json,
                                       gsize        len,
                                       gsize       *pos,
                                       const char **key,
                                       gsize       *key_len,
                                       const char **value,
                                       gsize       *value_len);
gboolean  tes_chrome_value_to_double  (const char  *value,
                                       gsize        len,
                                       gboolean     allow_string,
                                       double      *out);
char     *tes_chrome_value_dup_string (const char  *value,
                                       gsize        len);
gboolean  tes_chrome_value_is_string  (const char  *value,
                                       gsize        len);
void      tes_chrome_append_escaped   (GString     *out,
                                       const char  *text,
                                       gsize        len);

/* Line number (1-based) of a byte offset of the file, decompressed if
 * gzip; 0 when it cannot be read again. */
guint64   tes_chrome_line_of_offset   (const char  *path,
                                       guint64      offset);
void      tes_chrome_lines_of_offsets (const char    *path,
                                       const guint64 *offsets,
                                       guint64       *lines,
                                       guint          n);

/* Streams the whole file (decompressing gzip) and builds the cache rows.
 * Implemented in tes-chrome-parser.c. */
gboolean  tes_chrome_import_file      (TesImportContext  *context,
                                       GError           **error);

/* Decompresses the head of a gzip file for sniffing; returns the number of
 * bytes written to out. */
gsize     tes_chrome_inflate_head     (const guint8      *gz,
                                       gsize              gz_len,
                                       guint8            *out,
                                       gsize              out_len);

G_END_DECLS
