/* tes-chrome-parser-private.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-chrome-parser.h"
#include "tes-chrome-scan.h"

#include <yajl/yajl_parse.h>

G_BEGIN_DECLS

/* What the parser's two files share: tes-chrome-parser.c holds yajl's
 * callbacks, tes-chrome-replay.c the loop that feeds the stream either
 * to yajl or, event by event, to the scanner (tes-chrome-scan.h), whose
 * tokens it replays through the same callbacks. The callbacks never call
 * back into the loop. */

typedef enum
{
  F_TOP,
  F_TOP_OBJECT,
  F_EVENTS,
  F_EVENT,
  F_ID2,
  F_OTHER,
  F_DEVICES,
  F_CAPTURE,
  F_SKIP,
} FrameKind;

typedef struct
{
  FrameKind kind;
  guint     nest;
} Frame;

typedef enum
{
  K_NONE,
  K_PH,
  K_NAME,
  K_CAT,
  K_PID,
  K_TID,
  K_TS,
  K_DUR,
  K_TTS,
  K_TDUR,
  K_ID,
  K_ID2,
  K_BIND_ID,
  K_S,
  K_SCOPE,
  K_BP,
  K_FLOW_IN,
  K_FLOW_OUT,
  K_ARGS,
  K_TRACE_EVENTS,
  K_DISPLAY_TIME_UNIT,
  K_OTHER_DATA,
  K_METADATA,
  K_DEVICE_PROPERTIES,
  K_DISTRIBUTED_INFO,
  K_LOCAL,
  K_GLOBAL,
  K_OTHER,
} Key;

struct _TesChromeParser
{
  TesChromeSegment *seg;
  yajl_handle       yajl;
  guint64           base;         /* file offset of the buffer yajl parses */
  Frame             frames[16];
  guint             n_frames;
  guint             depth;
  Key               key;
  TesChromeEvent    ev;
  gboolean          need_comma;
  GString          *other_prefix;
  GString          *other_key;
  guint             n_devices;    /* objects of "deviceProperties" so far */
  guint64           last_event_end;
  guint64           last_token;   /* where the last value or key ended */
  TesChromeRollFunc roll;
  gpointer          roll_data;
  guint64           roll_every;
  guint64           roll_from;    /* where the segment's first event starts */
  TesChromeScan     scan;         /* the events yajl is spared */
  guint64           scan_at;      /* file offset past the token being replayed */
  guint             replaying : 1;
  guint             scan_enabled : 1;
  guint             decode_enabled : 1;
  guint             in_string : 1;    /* of the bytes yajl was given, as yajl lexes them */
  guint             escaped : 1;
  guint             saw_top : 1;
  guint             object_form : 1;
  guint             saw_events : 1;
  guint             fed : 1;
  GError           *error;
};

typedef enum
{
  V_NULL,
  V_FALSE,
  V_TRUE,
  V_NUMBER,
  V_STRING,
} ValueType;

/* What yajl_get_bytes_consumed() would say: the file offset just past
 * the token the callback is given. */
static inline guint64
offset_now (TesChromeParser *p)
{
  if (p->replaying)
    return p->scan_at;
  return p->base + yajl_get_bytes_consumed (p->yajl);
}

static inline Frame *
top (TesChromeParser *p)
{
  return &p->frames[p->n_frames - 1];
}

/* The key of an event (an object of the events array). */
static inline Key
tes_chrome_match_event_key (const char *k,
                            gsize       len)
{
#define IS(lit) (len == sizeof (lit) - 1 && memcmp (k, lit, sizeof (lit) - 1) == 0)
  switch (len)
    {
    case 1:
      return k[0] == 's' ? K_S : K_OTHER;
    case 2:
      if (IS ("ph")) return K_PH;
      if (IS ("ts")) return K_TS;
      if (IS ("id")) return K_ID;
      if (IS ("bp")) return K_BP;
      return K_OTHER;
    case 3:
      if (IS ("pid")) return K_PID;
      if (IS ("tid")) return K_TID;
      if (IS ("dur")) return K_DUR;
      if (IS ("cat")) return K_CAT;
      if (IS ("tts")) return K_TTS;
      if (IS ("id2")) return K_ID2;
      return K_OTHER;
    case 4:
      if (IS ("name")) return K_NAME;
      if (IS ("args")) return K_ARGS;
      if (IS ("tdur")) return K_TDUR;
      return K_OTHER;
    case 5:
      if (IS ("scope")) return K_SCOPE;
      return K_OTHER;
    case 7:
      if (IS ("bind_id")) return K_BIND_ID;
      if (IS ("flow_in")) return K_FLOW_IN;
      return K_OTHER;
    case 8:
      if (IS ("flow_out")) return K_FLOW_OUT;
      return K_OTHER;
    default:
      return K_OTHER;
    }
#undef IS
}

/* tes-chrome-parser.c: the callbacks, as yajl would call them */
int      tes_chrome_parser_on_scalar      (TesChromeParser *p,
                                           ValueType        type,
                                           const char      *s,
                                           gsize            len);
int      tes_chrome_parser_on_start       (TesChromeParser *p,
                                           gboolean         is_map);
int      tes_chrome_parser_on_end         (TesChromeParser *p,
                                           gboolean         is_map);
int      tes_chrome_parser_on_key         (TesChromeParser *p,
                                           const char      *key,
                                           gsize            len);
void     tes_chrome_parser_event_done     (TesChromeParser *p,
                                           guint64          end);

/* tes-chrome-decode.c: the common event decoded in one pass, without
 * tokens; its length, or 0 to leave it to the scanner. */
gsize    tes_chrome_decode_event          (TesChromeParser *p,
                                           const guint8    *buf,
                                           gsize            len,
                                           guint64          offset);

G_END_DECLS
