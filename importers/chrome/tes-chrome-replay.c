/* tes-chrome-replay.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-chrome"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tes-chrome-parser-private.h"
#include "tes-json.h"

#include <string.h>

/* Feeding the stream to the parser: between two events of the events
 * array, the events that lie whole in the buffer are scanned
 * (tes-chrome-scan.c) and their tokens replayed through the callbacks
 * yajl would have called (tes-chrome-parser.c); yajl parses the rest,
 * fed only up to the next '}' so that the scanner can take over again
 * after the event it closes. */

static const char *
describe_bad_token (const guint8 *buf,
                    gsize         len,
                    gsize         at)
{
  const char *rest = (const char *)buf + at;
  gsize left = at < len ? len - at : 0;

  if ((left >= 3 && memcmp (rest, "NaN", 3) == 0) ||
      (left >= 8 && memcmp (rest, "Infinity", 8) == 0) ||
      (left >= 9 && memcmp (rest, "-Infinity", 9) == 0))
    return _(" (NaN and Infinity are not JSON numbers)");
  if (at == 0 && left >= 2 && ((buf[0] == 0xff && buf[1] == 0xfe) || (buf[0] == 0xfe && buf[1] == 0xff)))
    return _(" (UTF-16 text: Tessera reads JSON in UTF-8; convert it: iconv -f UTF-16 -t UTF-8)");

  return "";
}

static gboolean
is_ws (guint8 c)
{
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* An event's args object that the scanner found in the compact form the
 * capture writes: kept as it is, with what on_start(), the capture and
 * on_end() would leave behind. */
static int
on_compact_args (TesChromeParser *p,
                 const char      *text,
                 gsize            len)
{
  g_assert (top (p)->kind == F_EVENT && p->key == K_ARGS);

  p->last_token = offset_now (p);
  g_string_truncate (p->ev.args, 0);
  tes_json_append_raw (p->ev.args, text, len);
  /* {} carries nothing */
  if (len > 2)
    p->ev.flags |= TES_CHROME_EV_HAS_ARGS;
  p->need_comma = TRUE;
  p->key = K_NONE;

  return 1;
}

/* Hands the scanned tokens to the callbacks yajl would have called, at
 * the offsets it would have reported; the object starts at offset. */
static int
replay (TesChromeParser *p,
        guint64          offset)
{
  const TesChromeToken *t = p->scan.tokens;
  int ok = 1;

  p->replaying = TRUE;
  for (guint i = 0; i < p->scan.n_tokens && ok; i++, t++)
    {
      p->scan_at = offset + t->end;
      switch (t->type)
        {
        case TES_CHROME_TOK_START_MAP: ok = tes_chrome_parser_on_start (p, TRUE); break;
        case TES_CHROME_TOK_END_MAP: ok = tes_chrome_parser_on_end (p, TRUE); break;
        case TES_CHROME_TOK_START_ARRAY: ok = tes_chrome_parser_on_start (p, FALSE); break;
        case TES_CHROME_TOK_END_ARRAY: ok = tes_chrome_parser_on_end (p, FALSE); break;
        case TES_CHROME_TOK_KEY: ok = tes_chrome_parser_on_key (p, t->text, t->len); break;
        case TES_CHROME_TOK_STRING: ok = tes_chrome_parser_on_scalar (p, V_STRING, t->text, t->len); break;
        case TES_CHROME_TOK_NUMBER: ok = tes_chrome_parser_on_scalar (p, V_NUMBER, t->text, t->len); break;
        case TES_CHROME_TOK_TRUE: ok = tes_chrome_parser_on_scalar (p, V_TRUE, NULL, 0); break;
        case TES_CHROME_TOK_FALSE: ok = tes_chrome_parser_on_scalar (p, V_FALSE, NULL, 0); break;
        case TES_CHROME_TOK_NULL: ok = tes_chrome_parser_on_scalar (p, V_NULL, NULL, 0); break;
        case TES_CHROME_TOK_ARGS: ok = on_compact_args (p, t->text, t->len); break;
        default: g_assert_not_reached ();
        }
    }
  p->replaying = FALSE;

  return ok;
}

/* Whether yajl stands just past an event of the events array that ended
 * at offset: the next bytes may go to the scanner. */
static inline gboolean
between_events (TesChromeParser *p,
                guint64          offset)
{
  return p->n_frames > 0 && top (p)->kind == F_EVENTS && p->last_event_end == offset &&
         p->error == NULL;
}

/* From just past an event's '}', the following events (',' '{'…'}') that
 * lie whole in data, decoded (tes-chrome-decode.c), or else scanned and
 * replayed; returns the bytes consumed,
 * which end just past an event's '}'. *failed: a callback failed. */
static gsize
scan_events (TesChromeParser *p,
             const guint8    *data,
             gsize            len,
             guint64          offset,
             gboolean        *failed)
{
  gsize done = 0;

  for (;;)
    {
      gsize i = done;
      gsize n;

      while (i < len && is_ws (data[i]))
        i++;
      if (i >= len || data[i] != ',')
        return done;
      i++;
      while (i < len && is_ws (data[i]))
        i++;
      if (i >= len || data[i] != '{')
        return done;
      if (p->decode_enabled && (n = tes_chrome_decode_event (p, data + i, len - i, offset + i)) != 0)
        {
          done = i + n;
          continue;
        }
      if (!(n = tes_chrome_scan_object (&p->scan, data + i, len - i, TES_CHROME_MAX_DEPTH - p->depth)))
        return done;
      if (!replay (p, offset + i))
        {
          *failed = TRUE;
          return i;
        }
      done = i + n;
    }
}

/* The index past the first '}' outside a string from data[pos] on (or
 * len), following strings across calls the way yajl lexes them (until it
 * finds an error). yajl is fed up to there: never a token cut in two,
 * which yajl would hold and lex again from its start with the next
 * slice. */
static gsize
next_brace (TesChromeParser *p,
            const guint8    *data,
            gsize            pos,
            gsize            len)
{
  gboolean in_string = p->in_string;
  gboolean escaped = p->escaped;
  gsize i;

  for (i = pos; i < len; i++)
    {
      guint8 c = data[i];

      if (in_string)
        {
          if (escaped)
            escaped = FALSE;
          else if (c == '\\')
            escaped = TRUE;
          else if (c == '"')
            in_string = FALSE;
        }
      else if (c == '"')
        in_string = TRUE;
      else if (c == '}')
        {
          i++;
          break;
        }
    }

  p->in_string = in_string;
  p->escaped = escaped;

  return i;
}

/* yajl's error for the bytes it rejected at data[at] (data holds the
 * whole buffer being fed). */
static void
set_yajl_error (TesChromeParser  *p,
                const guint8     *data,
                gsize             len,
                gsize             at,
                GError          **error)
{
  g_autofree guchar *msg = yajl_get_error (p->yajl, 0, NULL, 0);
  g_autofree char *text = g_strstrip (g_strdup ((const char *)msg));
  const char *colon = strstr (text, ": ");

  /* yajl says "lexical error: invalid char in json text." */
  g_set_error (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_INVALID,
               _("invalid JSON: %s%s"), colon ? colon + 2 : text,
               describe_bad_token (data, len, at));
}

/* Parses the next bytes of the stream, which start at offset in the file.
 * On an error, *error_offset is the byte it is at.
 *
 * Between two events the scanner (tes-chrome-scan.h) takes the events
 * that lie whole in the buffer; yajl parses the rest, up to each '}'
 * outside a string in turn, so that the scanner can take over again after
 * the event it closes. */
gboolean
tes_chrome_parser_feed (TesChromeParser  *p,
                        const guint8     *data,
                        gsize             len,
                        guint64           offset,
                        guint64          *error_offset,
                        GError          **error)
{
  gsize pos = 0;

  if (!p->fed)
    p->last_token = offset;
  p->fed = TRUE;

  while (pos < len)
    {
      gsize end = len;
      gsize at;

      if (p->scan_enabled && between_events (p, offset + pos))
        {
          gboolean failed = FALSE;

          pos += scan_events (p, data + pos, len - pos, offset + pos, &failed);
          if (failed)
            {
              if (error_offset != NULL)
                *error_offset = p->scan_at > 0 ? p->scan_at - 1 : 0;
              g_propagate_error (error, g_steal_pointer (&p->error));
              return FALSE;
            }
          if (pos >= len)
            break;
        }

      if (p->scan_enabled)
        end = next_brace (p, data, pos, len);

      p->base = offset + pos;
      if (yajl_parse (p->yajl, data + pos, end - pos) == yajl_status_ok)
        {
          pos = end;
          continue;
        }

      /* yajl stops just past the byte it rejects (counted, as when it
       * was given the whole buffer, from the buffer's start) */
      at = pos + yajl_get_bytes_consumed (p->yajl);
      if (at > 0)
        at--;
      if (error_offset != NULL)
        *error_offset = offset + at;

      if (p->error != NULL)
        g_propagate_error (error, g_steal_pointer (&p->error));
      else
        set_yajl_error (p, data, len, at, error);
      return FALSE;
    }

  if (offset + len - p->last_token <= TES_CHROME_MAX_TOKEN)
    return TRUE;

  if (error_offset != NULL)
    *error_offset = p->last_token;
  g_set_error (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_INVALID,
               _("no JSON value or key ends within %d MiB (a string or number that long "
                 "is no trace event: a damaged or hostile file?)"), TES_CHROME_MAX_TOKEN >> 20);
  return FALSE;
}
