/* tes-chrome-scan.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A fast scanner for the plain case of one trace event: a JSON object
 * that lies whole in the bytes at hand, in strict JSON with nothing yajl
 * would treat specially. It turns the object into the tokens yajl's
 * callbacks would have seen, with the offsets yajl would have reported,
 * so the parser replays them through the same callbacks
 * (tes-chrome-parser.c). Anything else (an object cut by the end of the
 * buffer, an error, a lone high surrogate, whitespace other than the four of
 * JSON, deeper nesting than allowed) makes the scan give up, and yajl
 * parses that event itself: errors keep yajl's messages and positions. */

typedef enum
{
  TES_CHROME_TOK_START_MAP,
  TES_CHROME_TOK_END_MAP,
  TES_CHROME_TOK_START_ARRAY,
  TES_CHROME_TOK_END_ARRAY,
  TES_CHROME_TOK_KEY,
  TES_CHROME_TOK_STRING,
  TES_CHROME_TOK_NUMBER,
  TES_CHROME_TOK_TRUE,
  TES_CHROME_TOK_FALSE,
  TES_CHROME_TOK_NULL,
  /* the event's "args" object, already compact JSON (no white space
   * outside strings, no escapes): its text, for the parser to keep as it
   * is, instead of its tokens */
  TES_CHROME_TOK_ARGS,
} TesChromeTokenType;

typedef struct
{
  const char *text;      /* KEY and STRING decoded, NUMBER as written */
  guint32     len;
  guint32     end;       /* just past the token, from the object's '{' */
  guint32     type;      /* TesChromeTokenType */
} TesChromeToken;

typedef struct
{
  TesChromeToken *tokens;
  guint           n_tokens;
  guint           cap;
  char           *scratch;    /* decoded strings with escapes */
  gsize           scratch_cap;
  guint32        *gaps;       /* white space runs in the open args: from, to */
  guint           gaps_cap;   /* in runs */
} TesChromeScan;

void  tes_chrome_scan_init   (TesChromeScan *scan);
void  tes_chrome_scan_clear  (TesChromeScan *scan);
gsize tes_chrome_scan_object (TesChromeScan *scan,
                              const guint8  *buf,
                              gsize          len,
                              guint          max_depth);

G_END_DECLS
