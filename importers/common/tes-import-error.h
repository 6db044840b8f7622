/* tes-import-error.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-importer.h"

G_BEGIN_DECLS

/* Every importer reports bad input the same way, naming the file and where
 * in it: "PATH: message" or "PATH:LINE: message" (TES_IMPORT_ERROR). Both
 * return FALSE, so that a parser can end with `return tes_import_fail…`. */
gboolean tes_import_fail         (GError     **error,
                                  int          code,
                                  const char  *path,
                                  const char  *format,
                                  ...) G_GNUC_PRINTF (4, 5);
gboolean tes_import_fail_at_line (GError     **error,
                                  int          code,
                                  const char  *path,
                                  guint        line,
                                  const char  *format,
                                  ...) G_GNUC_PRINTF (5, 6);

/* How many lines of a kind a parse met, and the first of them (its number
 * and a short rendering of it), for a message or a warning. */
typedef struct
{
  guint  count;
  guint  line;     /* 0: none yet */
  char  *text;
} TesLineNote;

void     tes_line_note_add       (TesLineNote        *note,
                                  guint               line,
                                  const char         *text,
                                  gsize               len);
void     tes_line_note_clear     (TesLineNote        *note);
char    *tes_line_note_skipped   (const TesLineNote  *note);
gboolean tes_import_fail_nothing (GError            **error,
                                  const char         *path,
                                  const char         *what,
                                  const TesLineNote  *first,
                                  const char         *found);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TesLineNote, tes_line_note_clear)

G_END_DECLS
