/* tes-line-reader.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Zero-copy line iteration over a mapped text file, keeping the line
 * number and byte offset that error messages must name. */
typedef struct
{
  GMappedFile *mapped;
  const char  *data;
  gsize        len;
  gsize        pos;
  gsize        line_offset;   /* byte offset of the current line */
  guint        line_no;       /* 1-based number of the current line */
} TesLineReader;

gboolean  tes_line_reader_init          (TesLineReader  *reader,
                                         const char     *path,
                                         GError        **error);
void      tes_line_reader_init_for_data (TesLineReader  *reader,
                                         const char     *data,
                                         gsize           len);
void      tes_line_reader_clear         (TesLineReader  *reader);
gboolean  tes_line_reader_next          (TesLineReader  *reader,
                                         const char    **line,
                                         gsize          *line_len);
double    tes_line_reader_get_fraction  (TesLineReader  *reader);
char     *tes_describe_text             (const char     *text,
                                         gsize           len,
                                         gsize           max_chars);

gboolean  tes_line_is_text              (const char     *line,
                                         gsize           len);
char     *tes_slugify                   (const char     *text);
void      tes_set_error_at_line_valist  (GError        **error,
                                         int             code,
                                         const char     *path,
                                         guint           line,
                                         const char     *format,
                                         va_list         args) G_GNUC_PRINTF (5, 0);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TesLineReader, tes_line_reader_clear)

G_END_DECLS
