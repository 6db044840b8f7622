/* tes-text.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The blanks that separate the columns of vendors' text listings. */
static inline gboolean
tes_is_space (char c)
{
  return c == ' ' || c == '\t';
}

void      tes_strip           (const char         **text,
                               gsize               *len);
gboolean  tes_is_blank        (const char          *text,
                               gsize                len);
gsize     tes_trimmed_length  (const char          *text,
                               gsize                len);
gboolean  tes_line_is_text    (const char          *line,
                               gsize                len);
char     *tes_describe_text   (const char          *text,
                               gsize                len,
                               gsize                max_chars);
guint     tes_split_fields    (const char          *line,
                               gsize                len,
                               char                 sep,
                               const char         **fields,
                               gsize               *lens,
                               guint                max);
gboolean  tes_line_has_fields (const char          *line,
                               gsize                len,
                               const char * const  *names,
                               guint                n_names);
gboolean  tes_head_is_json    (const guint8        *head,
                               gsize                len);

G_END_DECLS
