/* tes-line-reader.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-line-reader"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tes-import-error.h"
#include "tes-line-reader.h"
#include "tes-text.h"

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

/* A sniffer's head is cut at TES_SNIFF_SIZE bytes, maybe inside its last
 * line: the reader stops before that line, so that a sniffer judges
 * complete lines only. A shorter head is the whole file. */
void
tes_line_reader_init_for_head (TesLineReader *reader,
                               const guint8  *head,
                               gsize          head_len)
{
  tes_line_reader_init_for_data (reader, (const char *)head, head_len);

  if (head_len >= TES_SNIFF_SIZE && head[head_len - 1] != '\n')
    {
      const char *nl = memrchr (head, '\n', head_len);

      reader->len = nl ? (gsize)(nl - reader->data) + 1 : 0;
    }
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

/* What the sniffers of text listings read: the next line that is not
 * blank. FALSE at the end, and at a line that is not text (*not_text set:
 * binary data is no vendor's listing). */
gboolean
tes_line_reader_next_text (TesLineReader  *reader,
                           const char    **line,
                           gsize          *line_len,
                           gboolean       *not_text)
{
  *not_text = FALSE;

  while (tes_line_reader_next (reader, line, line_len))
    {
      if (!tes_line_is_text (*line, *line_len))
        {
          *not_text = TRUE;
          return FALSE;
        }
      if (!tes_is_blank (*line, *line_len))
        return TRUE;
    }

  return FALSE;
}

double
tes_line_reader_get_fraction (TesLineReader *reader)
{
  return reader->len ? (double)reader->pos / reader->len : 1.0;
}

/* Whether the current line is the last one and the file stops in it (no
 * line end): a bad row there means the file was cut short. */
gboolean
tes_line_reader_in_cut_line (TesLineReader *reader)
{
  return reader->pos >= reader->len && reader->len > 0 && reader->data[reader->len - 1] != '\n';
}

/* A row the parser cannot read: "PATH:LINE: message", and when the file
 * stops inside that line (no line end), it says that the file is cut
 * short (TES_IMPORT_ERROR_TRUNCATED), which is then the likelier cause. */
gboolean
tes_line_reader_fail_row (TesLineReader  *reader,
                          const char     *path,
                          GError        **error,
                          const char     *format,
                          ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  if (tes_line_reader_in_cut_line (reader))
    return tes_import_fail_at_line (error, TES_IMPORT_ERROR_TRUNCATED, path, reader->line_no,
                                    _("the file is cut short inside its last line: %s"), message);

  return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, path, reader->line_no, "%s", message);
}

/* The same for an error a parser set on the current line without the
 * reader at hand ("PATH:LINE: message"): when the file stops inside that
 * line, the message says so first. */
void
tes_line_reader_note_cut (TesLineReader  *reader,
                          const char     *path,
                          GError        **error)
{
  g_autofree char *where = NULL;
  char *message;

  if (error == NULL || *error == NULL || (*error)->domain != TES_IMPORT_ERROR ||
      !tes_line_reader_in_cut_line (reader))
    return;

  where = g_strdup_printf ("%s:%u: ", path, reader->line_no);
  if (!g_str_has_prefix ((*error)->message, where))
    return;

  message = g_strdup_printf ("%sthe file is cut short inside its last line: %s",
                             where, (*error)->message + strlen (where));
  g_free ((*error)->message);
  (*error)->message = message;
  (*error)->code = TES_IMPORT_ERROR_TRUNCATED;
}

/* No vendor prints a line this long: a longer one (a damaged file, or a
 * hostile one) would cost its length again in every copy a parser makes of
 * a field. */
#define TES_LINE_MAX (1024 * 1024)

static gboolean
check_length (TesLineReader  *reader,
              const char     *path,
              gsize           len,
              GError        **error)
{
  if (len <= TES_LINE_MAX)
    return TRUE;

  return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, path, reader->line_no,
                                  _("a line of %" "zu" " bytes (from byte %" "zu"
                                    "); no listing has lines longer than %d MiB"),
                                  len, reader->line_offset, TES_LINE_MAX >> 20);
}

/* A UTF-16 file (Windows tools write them) starts with its byte order mark:
 * say so rather than "invalid UTF-8". */
static gboolean
check_utf16 (TesLineReader  *reader,
             const char     *path,
             const char     *line,
             gsize           len,
             GError        **error)
{
  if (reader->line_offset != 0 || len < 2 ||
      !((line[0] == '\xff' && line[1] == '\xfe') || (line[0] == '\xfe' && line[1] == '\xff')))
    return TRUE;

  return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, path, reader->line_no,
                                  _("UTF-16 text (byte order mark at byte 0); Tessera reads UTF-8 "
                                    "(convert it: iconv -f UTF-16 -t UTF-8)"));
}

gboolean
tes_line_reader_check_text (TesLineReader  *reader,
                            const char     *path,
                            const char     *line,
                            gsize           len,
                            GError        **error)
{
  if (!check_length (reader, path, len, error) ||
      !check_utf16 (reader, path, line, len, error))
    return FALSE;

  if (tes_line_is_text (line, len))
    return TRUE;

  return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, path, reader->line_no,
                                  _("not text (invalid UTF-8 or control characters; byte %" "zu" ")"),
                                  reader->line_offset);
}

/* UTF-8, and (not_what given) no NUL byte, which says "binary data, not
 * <not_what>". */
gboolean
tes_line_reader_check_utf8 (TesLineReader  *reader,
                            const char     *path,
                            const char     *line,
                            gsize           len,
                            const char     *not_what,
                            GError        **error)
{
  if (!check_length (reader, path, len, error) ||
      !check_utf16 (reader, path, line, len, error))
    return FALSE;

  if (not_what != NULL && memchr (line, '\0', len) != NULL)
    return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, path, reader->line_no,
                                    _("binary data (NUL byte), not %s"), not_what);

  if (!g_utf8_validate_len (line, len, NULL))
    return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, path, reader->line_no,
                                    _("invalid UTF-8 (byte %" "zu" ")"), reader->line_offset);

  return TRUE;
}

/* Once a line: progress every 1024 lines (the reading being that share
 * of the import), and FALSE once the import is cancelled. */
gboolean
tes_line_reader_tick (TesLineReader     *reader,
                      TesImportContext  *context,
                      double             share,
                      GError           **error)
{
  if (context->progress != NULL && (reader->line_no & 1023) == 0)
    tes_progress_update (context->progress, share * tes_line_reader_get_fraction (reader), NULL);

  return !g_cancellable_set_error_if_cancelled (context->cancellable, error);
}
