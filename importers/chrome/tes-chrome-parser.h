/* tes-chrome-parser.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-chrome-model.h"

G_BEGIN_DECLS

/* The parsing half of the Chrome importer: the file is read in pieces
 * (tes-chrome-pieces.c), each piece's JSON is streamed through yajl
 * (tes-chrome-parser.c) into events, and each event is folded into its
 * piece's segment (tes-chrome-events.c). What comes out is a
 * TesChromeTrace (tes-chrome-model.h) for the builder. */

TesChromeTrace  *tes_chrome_parse_file         (TesImportContext      *context,
                                                GError               **error);

/* What the parser found of one event, decoded. */
enum
{
  TES_CHROME_EV_HAS_TS    = 1 << 0,
  TES_CHROME_EV_HAS_DUR   = 1 << 1,
  TES_CHROME_EV_HAS_TTS   = 1 << 2,
  TES_CHROME_EV_HAS_TDUR  = 1 << 3,
  TES_CHROME_EV_HAS_PID   = 1 << 4,
  TES_CHROME_EV_HAS_TID   = 1 << 5,
  TES_CHROME_EV_PID_STR   = 1 << 6,
  TES_CHROME_EV_TID_STR   = 1 << 7,
  TES_CHROME_EV_FLOW_IN   = 1 << 8,
  TES_CHROME_EV_FLOW_OUT  = 1 << 9,
  TES_CHROME_EV_HAS_ID    = 1 << 10,
  TES_CHROME_EV_ID_GLOBAL = 1 << 11,
  TES_CHROME_EV_ID_LOCAL  = 1 << 12,
  TES_CHROME_EV_HAS_BIND  = 1 << 13,
  TES_CHROME_EV_HAS_SCOPE = 1 << 14,
  TES_CHROME_EV_HAS_ARGS  = 1 << 15,
  TES_CHROME_EV_ROUNDED   = 1 << 16,
  TES_CHROME_EV_RANGE     = 1 << 17,
};

typedef struct
{
  gint64   ts;
  gint64   dur;
  gint64   tts;
  gint64   tdur;
  gint64   pid;          /* a string id when TES_CHROME_EV_PID_STR */
  gint64   tid;
  guint64  offset;       /* of the event's '{' in the file */
  guint32  flags;        /* TES_CHROME_EV_* */
  guint32  name;         /* string ids in the segment, 0: none */
  guint32  cat;
  char     ph;
  char     s;

  /* Text fields, each valid when its flag is set; the parser reuses the
   * buffers from one event to the next. */
  GString *args;         /* compact JSON object, as the callbacks build it */
  /* what the segment reads of the args: args' text, or the object's own
   * bytes in the buffer being parsed when they are compact already (the
   * decoder's common case: no copy), while the event is handed on */
  const char *args_text;
  gsize       args_len;
  GString *id;
  GString *bind;
  GString *scope;
} TesChromeEvent;

void             tes_chrome_segment_add_event  (TesChromeSegment      *segment,
                                                const TesChromeEvent  *event);

/* One yajl stream into one segment. */
typedef struct _TesChromeParser TesChromeParser;

TesChromeParser *tes_chrome_parser_new         (TesChromeSegment      *segment);
void             tes_chrome_parser_free        (TesChromeParser       *parser);
gboolean         tes_chrome_parser_feed        (TesChromeParser       *parser,
                                                const guint8          *data,
                                                gsize                  len,
                                                guint64                offset,
                                                guint64               *error_offset,
                                                GError               **error);
gboolean         tes_chrome_parser_finish      (TesChromeParser       *parser,
                                                guint64                offset,
                                                guint64               *error_offset,
                                                GError               **error);
gboolean         tes_chrome_parser_at_boundary (TesChromeParser       *parser,
                                                guint64                brace);
gboolean         tes_chrome_parser_object_form (TesChromeParser       *parser);

/* Called between two events once every bytes of the file have gone into
 * the parser's segment since the last call: it may hand the parser a new
 * segment (tes_chrome_parser_set_segment()). */
typedef void (*TesChromeRollFunc) (TesChromeParser *parser,
                                   gpointer         user_data);

void             tes_chrome_parser_set_roll    (TesChromeParser       *parser,
                                                guint64                every,
                                                TesChromeRollFunc      func,
                                                gpointer               user_data);
void             tes_chrome_parser_set_segment (TesChromeParser       *parser,
                                                TesChromeSegment      *segment);
void             tes_chrome_parser_set_scan    (gboolean               enabled);
void             tes_chrome_parser_set_decode  (gboolean               enabled);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TesChromeParser, tes_chrome_parser_free)

G_END_DECLS
