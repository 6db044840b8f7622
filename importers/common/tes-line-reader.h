/* tes-line-reader.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "tes-importer.h"

G_BEGIN_DECLS

/* Zero-copy line iteration over a mapped text file, or over the head a
 * sniffer gets, keeping the line number and byte offset that error
 * messages must name. */
typedef struct
{
  GMappedFile *mapped;
  const char  *data;
  gsize        len;
  gsize        pos;
  gsize        line_offset;   /* byte offset of the current line */
  guint        line_no;       /* 1-based number of the current line */
} TesLineReader;

gboolean  tes_line_reader_init          (TesLineReader     *reader,
                                         const char        *path,
                                         GError           **error);
void      tes_line_reader_init_for_data (TesLineReader     *reader,
                                         const char        *data,
                                         gsize              len);
void      tes_line_reader_init_for_head (TesLineReader     *reader,
                                         const guint8      *head,
                                         gsize              head_len);
void      tes_line_reader_clear         (TesLineReader     *reader);
gboolean  tes_line_reader_next          (TesLineReader     *reader,
                                         const char       **line,
                                         gsize             *line_len);
gboolean  tes_line_reader_next_text     (TesLineReader     *reader,
                                         const char       **line,
                                         gsize             *line_len,
                                         gboolean          *not_text);
double    tes_line_reader_get_fraction  (TesLineReader     *reader);
gboolean  tes_line_reader_in_cut_line   (TesLineReader     *reader);
gboolean  tes_line_reader_fail_row      (TesLineReader     *reader,
                                         const char        *path,
                                         GError           **error,
                                         const char        *format,
                                         ...) G_GNUC_PRINTF (4, 5);
void      tes_line_reader_note_cut      (TesLineReader     *reader,
                                         const char        *path,
                                         GError           **error);

gboolean  tes_line_reader_check_text    (TesLineReader     *reader,
                                         const char        *path,
                                         const char        *line,
                                         gsize              len,
                                         GError           **error);
gboolean  tes_line_reader_check_utf8    (TesLineReader     *reader,
                                         const char        *path,
                                         const char        *line,
                                         gsize              len,
                                         const char        *not_what,
                                         GError           **error);
gboolean  tes_line_reader_tick          (TesLineReader     *reader,
                                         TesImportContext  *context,
                                         double             share,
                                         GError           **error);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TesLineReader, tes_line_reader_clear)

G_END_DECLS
