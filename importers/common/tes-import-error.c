/* tes-import-error.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-import-error"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tes-import-error.h"
#include "tes-text.h"

static void set_error_valist (GError     **error,
                              int          code,
                              const char  *where,
                              const char  *format,
                              va_list      args) G_GNUC_PRINTF (4, 0);

static void
set_error_valist (GError     **error,
                  int          code,
                  const char  *where,
                  const char  *format,
                  va_list      args)
{
  g_autofree char *message = g_strdup_vprintf (format, args);

  g_set_error (error, TES_IMPORT_ERROR, code, "%s: %s", where, message);
}

gboolean
tes_import_fail (GError     **error,
                 int          code,
                 const char  *path,
                 const char  *format,
                 ...)
{
  va_list args;

  va_start (args, format);
  set_error_valist (error, code, path, format, args);
  va_end (args);

  return FALSE;
}

gboolean
tes_import_fail_at_line (GError     **error,
                         int          code,
                         const char  *path,
                         guint        line,
                         const char  *format,
                         ...)
{
  g_autofree char *where = g_strdup_printf ("%s:%u", path, line);
  va_list args;

  va_start (args, format);
  set_error_valist (error, code, where, format, args);
  va_end (args);

  return FALSE;
}

/* Counts the line; the first one is kept, at most 60 characters of it. */
void
tes_line_note_add (TesLineNote *note,
                   guint        line,
                   const char  *text,
                   gsize        len)
{
  if (note->count++ > 0)
    return;

  note->line = line;
  note->text = tes_describe_text (text, len, 60);
}

void
tes_line_note_clear (TesLineNote *note)
{
  g_clear_pointer (&note->text, g_free);
  note->count = 0;
  note->line = 0;
}

/* The info text for lines a parser passed over. */
char *
tes_line_note_skipped (const TesLineNote *note)
{
  return g_strdup_printf ("%u unrecognised line%s skipped (first at line %u: '%s')",
                          note->count, note->count == 1 ? "" : "s", note->line, note->text);
}

/* A file without anything the importer reads: empty ("PATH: no WHAT
 * (empty file?)"), or with text that is something else, named by its
 * first line ("PATH:LINE: FOUND 'text'"). */
gboolean
tes_import_fail_nothing (GError            **error,
                         const char         *path,
                         const char         *what,
                         const TesLineNote  *first,
                         const char         *found)
{
  if (first->line == 0)
    return tes_import_fail (error, TES_IMPORT_ERROR_EMPTY, path, _("no %s (empty file?)"), what);

  return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, path, first->line,
                                  "%s '%s'", found, first->text);
}
