/* tes-line-reader.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-line-reader"

#include "config.h"

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

gboolean
tes_line_reader_check_text (TesLineReader  *reader,
                            const char     *path,
                            const char     *line,
                            gsize           len,
                            GError        **error)
{
  if (tes_line_is_text (line, len))
    return TRUE;

  return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, path, reader->line_no,
                                  "not text (invalid UTF-8 or control characters; byte %" G_GSIZE_FORMAT ")",
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
  if (not_what != NULL && memchr (line, '\0', len) != NULL)
    return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, path, reader->line_no,
                                    "binary data (NUL byte), not %s", not_what);

  if (!g_utf8_validate_len (line, len, NULL))
    return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, path, reader->line_no,
                                    "invalid UTF-8 (byte %" G_GSIZE_FORMAT ")", reader->line_offset);

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
