/* tes-chrome-private.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "tes-cache-writer.h"
#include "tes-decimal.h"
#include "tes-importer.h"

G_BEGIN_DECLS

/* What every file of the Chrome importer shares: limits, and the helpers
 * that read the compact args JSON the parser stores (tes-chrome-util.c). */

/* Containers nested deeper than this anywhere in the document are an
 * error: nothing real comes close, and readers of the args we store (the
 * UI uses json-glib, a recursive parser) must not be handed a bomb. */
#define TES_CHROME_MAX_DEPTH 1000

/* No value or key of a trace is longer than this. yajl holds a token that
 * spans the buffers it is fed whole, and lexes it again from its start
 * with each buffer: a longer one (a gzip bomb of one string) would cost
 * memory and time without bound. */
#define TES_CHROME_MAX_TOKEN (16 * 1024 * 1024)

/* Files smaller than this are parsed by one thread. */
#define TES_CHROME_SPLIT_MIN_SIZE (16 * 1024 * 1024)

/* A piece's slices are held until it is spilled, so pieces of at most this
 * much JSON keep the parse's peak from growing with the file: a plain file
 * is cut into more of them (up to 1,024: 32 GB), a gzip stream, which
 * cannot be cut beforehand, ends one every this many bytes it inflates. */
#define TES_CHROME_MAX_PIECE_SIZE (32 * 1024 * 1024)

/* The Chrome importer's names for the common exact decimal parser
 * (tes-decimal.h), which its timestamps were the first users of. */
typedef TesDecimal TesChromeDecimal;
#define TES_CHROME_DECIMAL_OK       TES_DECIMAL_OK
#define TES_CHROME_DECIMAL_ROUNDED  TES_DECIMAL_ROUNDED
#define TES_CHROME_DECIMAL_RANGE    TES_DECIMAL_RANGE
#define TES_CHROME_DECIMAL_INVALID  TES_DECIMAL_INVALID
#define tes_chrome_parse_decimal    tes_decimal_parse

/* The calling thread's CPU time in seconds, for the debug log. */
double    tes_chrome_thread_cpu       (void);

/* Top-level members of the compact args JSON the parser writes
 * ({"k":v,...}, no whitespace). */
gboolean  tes_chrome_args_find        (const char     *json,
                                       gsize           len,
                                       const char     *key,
                                       const char    **value,
                                       gsize          *value_len);
gboolean  tes_chrome_args_next        (const char     *json,
                                       gsize           len,
                                       gsize          *pos,
                                       const char    **key,
                                       gsize          *key_len,
                                       const char    **value,
                                       gsize          *value_len);
gboolean  tes_chrome_value_to_double  (const char     *value,
                                       gsize           len,
                                       gboolean        allow_string,
                                       double         *out);
char     *tes_chrome_value_dup_string (const char     *value,
                                       gsize           len);
gboolean  tes_chrome_value_is_string  (const char     *value,
                                       gsize           len);

/* tes-chrome-util.c: what the framework flavours share. ns as
 * milliseconds to the µs ("12.346 ms", tes-chrome-kernels.c); spans
 * (gint64 pairs start, end) sorted and merged in place into their union,
 * whose length it returns. */
char     *tes_chrome_format_ms        (gint64          ns);
/* the string member key of the compact args, unescaped; NULL: none */
char     *tes_chrome_args_dup_string  (const char     *args,
                                       gsize           len,
                                       const char     *key);
gint64    tes_chrome_merge_spans      (GArray         *spans);
gint      tes_chrome_span_at          (const gint64   *spans,
                                       guint           n,
                                       guint           stride,
                                       gboolean        sorted,
                                       gint64          t);
gboolean  tes_chrome_spans_sorted     (const gint64   *spans,
                                       guint           n,
                                       guint           stride);
/* The order a framework ran its operators in, whatever thread each ran
 * on: by first start, then by name (a qsort result). */
int       tes_chrome_order_by_first   (gint64          x_first,
                                       const char     *x_name,
                                       gint64          y_first,
                                       const char     *y_name);

/* Line number (1-based) of a byte offset of the file, decompressed if
 * gzip; 0 when it cannot be read again. */
guint64   tes_chrome_line_of_offset   (const char     *path,
                                       guint64         offset);
void      tes_chrome_lines_of_offsets (const char     *path,
                                       const guint64  *offsets,
                                       guint64        *lines,
                                       guint           n);

/* Decompresses the head of a gzip file for sniffing; returns the number of
 * bytes written to out. */
gsize     tes_chrome_inflate_head     (const guint8   *gz,
                                       gsize           gz_len,
                                       guint8         *out,
                                       gsize           out_len);

G_END_DECLS
