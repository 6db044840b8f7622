/* tes-chrome-decode.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-chrome"

#include "config.h"

#include "tes-chrome-parser-private.h"
#include "tes-chrome-scan-private.h"

#include <string.h>

/* Most events are flat objects of known keys: a phase, a name, ids, times
 * and an args object. The scanner (tes-chrome-scan.c) turns any event into
 * tokens that are then replayed through yajl's callbacks; for the common
 * event that was two passes and a dispatch per token, over half the
 * parse. This decodes such an event in one pass straight into the
 * parser's event, each value read as its key expects it.
 *
 * It takes only what it is sure of: valid JSON as yajl reads it, values
 * of the types the callbacks expect (so that no warning is ever due), no
 * escape outside the plain strings it decodes, times in the plain form.
 * Anything else returns 0 before the event is handed on, and the scanner
 * (then yajl) takes the event from its '{'. Nothing it did before giving
 * up shows: the event's fields are set again from the start, and the
 * names it interned are the ones the callbacks intern first. */

/* Containers an args object may nest, the event's own '{' not counted;
 * a deeper one goes to the scanner. */
#define MAX_NEST 63

/* g_string_truncate (s, 0) without a call: twice an event */
static inline void
clear_text (GString *s)
{
  s->len = 0;
  s->str[0] = '\0';
}

/* buf[from, to) appended to out, which the caller keeps 16 bytes ahead */
static inline void
emit (GString      *out,
      const guint8 *buf,
      gsize         len,
      gsize         from,
      gsize         to)
{
  gsize n = to - from;

  if (G_UNLIKELY (out->len + n + 16 >= out->allocated_len))
    {
      gsize old = out->len;

      g_string_set_size (out, old + n + 16);
      out->len = old;
    }
  out->len += scan_copy_run (out->str + out->len, buf, len, from, to);
}

static inline gsize
literal (const guint8 *buf,
         gsize         len,
         gsize         i,
         const char   *word,
         gsize         n)
{
  if (len - i < n || memcmp (buf + i, word, n) != 0)
    return 0;
  return i + n;
}

/* The JSON value at buf[i], nesting at most room containers: the index
 * past it, or 0. With out, its text without the white space between its
 * tokens is appended there; a string with an escape is then refused,
 * since the callbacks would write it back in their own escaping. Without,
 * *spaced (if given) is set when there is such white space. */
static gsize
skip_value (const guint8 *buf,
            gsize         len,
            gsize         i,
            guint         room,
            GString      *out,
            gboolean     *spaced)
{
  guint8 stack[MAX_NEST];
  guint depth = 0;
  gsize run = i;   /* the text not yet appended */
  gsize j;

#define WS() \
  G_STMT_START { \
    if (i < len && scan_is_ws (buf[i])) \
      { \
        gsize from_ = i; \
        i = scan_skip_ws (buf, len, i); \
        if (out != NULL) \
          { \
            emit (out, buf, len, run, from_); \
            run = i; \
          } \
        else if (spaced != NULL) \
          *spaced = TRUE; \
      } \
  } G_STMT_END

  room = MIN (room, MAX_NEST);

value:
  if (i >= len)
    return 0;
  switch (buf[i])
    {
    case '{':
      if (depth == room)
        return 0;
      stack[depth++] = '}';
      i++;
      WS ();
      if (i < len && buf[i] == '}')
        {
          depth--;
          i++;
          goto after;
        }
      goto key;

    case '[':
      if (depth == room)
        return 0;
      stack[depth++] = ']';
      i++;
      WS ();
      if (i < len && buf[i] == ']')
        {
          depth--;
          i++;
          goto after;
        }
      goto value;

    case '"':
      if ((j = scan_plain_string_end (buf, len, i + 1)) == 0)
        return 0;
      i = j + 1;
      goto after;

    case '-':
    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
      if ((i = scan_number (buf, len, i)) == 0)
        return 0;
      goto after;

    case 't':
      if ((i = literal (buf, len, i, "true", 4)) == 0)
        return 0;
      goto after;

    case 'f':
      if ((i = literal (buf, len, i, "false", 5)) == 0)
        return 0;
      goto after;

    case 'n':
      if ((i = literal (buf, len, i, "null", 4)) == 0)
        return 0;
      goto after;

    default:
      return 0;
    }

key:
  if (i >= len || buf[i] != '"' || (j = scan_plain_string_end (buf, len, i + 1)) == 0)
    return 0;
  i = j + 1;
  WS ();
  if (i >= len || buf[i] != ':')
    return 0;
  i++;
  WS ();
  goto value;

after:
  if (depth == 0)
    {
      /* a number must be seen to end */
      if (i >= len)
        return 0;
      if (out != NULL)
        emit (out, buf, len, run, i);
      return i;
    }
  WS ();
  if (i >= len)
    return 0;
  if (buf[i] == ',')
    {
      i++;
      WS ();
      if (stack[depth - 1] == '}')
        goto key;
      goto value;
    }
  if (buf[i] != stack[depth - 1])
    return 0;
  depth--;
  i++;
  goto after;
#undef WS
}

/* A time in µs in the plain form the callbacks read without the general
 * decimal parser (scan_plain_us ()), which must end here: the index past
 * it, or 0. */
static inline gsize
decode_time (const guint8 *buf,
             gsize         len,
             gsize         i,
             gint64       *ns)
{
  i = scan_plain_us (buf, len, i, ns);
  if (i == 0 || i >= len || buf[i] == '.' || buf[i] == 'e' || buf[i] == 'E')
    return 0;

  return i;
}

/* A process or thread id as a plain integer the callbacks read exactly
 * (scan_plain_integer ()), which must end here: the index past it, or 0. */
static inline gsize
decode_integer (const guint8 *buf,
                gsize         len,
                gsize         i,
                gint64       *out)
{
  i = scan_plain_integer (buf, len, i, out);
  if (i == 0 || i >= len || buf[i] == '.' || buf[i] == 'e' || buf[i] == 'E')
    return 0;

  return i;
}

#define W2(a, b)             ((guint64)(a) | (guint64)(b) << 8)
#define W3(a, b, c)          (W2 (a, b) | (guint64)(c) << 16)
#define W4(a, b, c, d)       (W3 (a, b, c) | (guint64)(d) << 24)

/* The key whose text starts at i when it is one of the event's short
 * keys, read from one word: no string scan, no compare per candidate.
 * Returns the index past its closing quote, or 0 (a longer key, an
 * escape, the buffer's end: the caller reads it the long way). */
static inline gsize
short_key (const guint8 *buf,
           gsize         len,
           gsize         i,
           Key          *key)
{
  guint64 w, quotes, mask, probe;
  guint n;

  if (i + 8 > len)
    return 0;
  memcpy (&w, buf + i, 8);
  quotes = SCAN_HAS_ZERO (w ^ (SCAN_ONES_LOW * '"'));
  if (quotes == 0)
    return 0;
  n = (guint)__builtin_ctzll (quotes) / 8;
  if (n == 0)
    return 0;
  mask = G_MAXUINT64 >> (64 - 8 * n);
  w &= mask;

  /* the usual keys are plain: only another must be checked for bytes a
   * plain string does not hold */
  switch (w)
    {
    case W2 ('p', 'h'): *key = K_PH; break;
    case W2 ('t', 's'): *key = K_TS; break;
    case W3 ('p', 'i', 'd'): *key = K_PID; break;
    case W3 ('t', 'i', 'd'): *key = K_TID; break;
    case W3 ('d', 'u', 'r'): *key = K_DUR; break;
    case W3 ('c', 'a', 't'): *key = K_CAT; break;
    case W4 ('n', 'a', 'm', 'e'): *key = K_NAME; break;
    case W4 ('a', 'r', 'g', 's'): *key = K_ARGS; break;
    default:
      /* the bytes past the key read as plain 'a's */
      probe = w | (SCAN_ONES_LOW * 'a' & ~mask);
      if ((probe & SCAN_ONES_HIGH) || SCAN_HAS_ZERO (probe ^ (SCAN_ONES_LOW * '\\')) ||
          SCAN_HAS_LESS (probe, 0x20))
        return 0;
      *key = tes_chrome_match_event_key ((const char *)buf + i, n);
      break;
    }

  return i + n + 1;
}

gsize
tes_chrome_decode_event (TesChromeParser *p,
                         const guint8    *buf,
                         gsize            len,
                         guint64          offset)
{
  TesChromeEvent *ev = &p->ev;
  guint max_depth = TES_CHROME_MAX_DEPTH - p->depth;
  /* the args as read (NULL: compacted into ev->args) */
  const char *args_text = NULL;
  gsize args_len = 0;
  gsize i = 1;
  gsize j;

#define WS() \
  G_STMT_START { \
    if (i < len && scan_is_ws (buf[i])) \
      i = scan_skip_ws (buf, len, i); \
  } G_STMT_END

  if (len == 0 || buf[0] != '{' || max_depth == 0)
    return 0;

  memset (ev, 0, G_STRUCT_OFFSET (TesChromeEvent, args));
  ev->offset = offset;
  clear_text (ev->args);
  WS ();
  if (i < len && buf[i] == '}')
    {
      i++;
      goto done;
    }

  for (;;)
    {
      Key key;

      if (i >= len || buf[i] != '"')
        return 0;
      if ((j = short_key (buf, len, i + 1, &key)) != 0)
        i = j;
      else if ((j = scan_plain_string_end (buf, len, i + 1)) != 0)
        {
          key = tes_chrome_match_event_key ((const char *)buf + i + 1, j - i - 1);
          i = j + 1;
        }
      else
        return 0;
      WS ();
      if (i >= len || buf[i] != ':')
        return 0;
      i++;
      WS ();
      if (i >= len)
        return 0;

      switch (key)
        {
        case K_TS:
        case K_DUR:
        case K_TTS:
        case K_TDUR:
          {
            static const guint32 flags[] = {
              [K_TS] = TES_CHROME_EV_HAS_TS, [K_DUR] = TES_CHROME_EV_HAS_DUR,
              [K_TTS] = TES_CHROME_EV_HAS_TTS, [K_TDUR] = TES_CHROME_EV_HAS_TDUR,
            };
            gint64 v;

            if ((i = decode_time (buf, len, i, &v)) == 0)
              return 0;
            if (key == K_TS)
              ev->ts = v;
            else if (key == K_DUR)
              ev->dur = v;
            else if (key == K_TTS)
              ev->tts = v;
            else
              ev->tdur = v;
            ev->flags |= flags[key];
          }
          break;

        case K_PID:
        case K_TID:
          {
            gint64 *field = key == K_PID ? &ev->pid : &ev->tid;
            guint32 has = key == K_PID ? TES_CHROME_EV_HAS_PID : TES_CHROME_EV_HAS_TID;
            guint32 str = key == K_PID ? TES_CHROME_EV_PID_STR : TES_CHROME_EV_TID_STR;

            if (buf[i] == '"')
              {
                if ((j = scan_plain_string_end (buf, len, i + 1)) == 0)
                  return 0;
                *field = tes_chrome_strings_intern (&p->seg->strings, (const char *)buf + i + 1, j - i - 1);
                ev->flags |= has | str;
                i = j + 1;
              }
            else
              {
                if ((i = decode_integer (buf, len, i, field)) == 0)
                  return 0;
                ev->flags = (ev->flags | has) & ~str;
              }
          }
          break;

        case K_PH:
          /* a one-letter phase, its string read in place */
          if (i + 3 <= len && buf[i] == '"' && buf[i + 2] == '"' &&
              scan_string_class[buf[i + 1]] == SCAN_PLAIN)
            {
              ev->ph = (char)buf[i + 1];
              i += 3;
              break;
            }
          G_GNUC_FALLTHROUGH;
        case K_NAME:
        case K_CAT:
        case K_S:
          if (buf[i] != '"' || (j = scan_plain_string_end (buf, len, i + 1)) == 0)
            return 0;
          if (key == K_PH)
            ev->ph = j - i - 1 == 1 ? (char)buf[i + 1] : '?';
          else if (key == K_S)
            {
              /* an empty scope is a warning: the callbacks' */
              if (j == i + 1)
                return 0;
              ev->s = (char)buf[i + 1];
            }
          else
            {
              guint32 id = tes_chrome_strings_intern (&p->seg->strings, (const char *)buf + i + 1, j - i - 1);

              if (key == K_NAME)
                ev->name = id;
              else
                ev->cat = id;
            }
          i = j + 1;
          break;

        case K_ID:
        case K_BIND_ID:
        case K_SCOPE:
          {
            GString *into = key == K_ID ? ev->id : key == K_BIND_ID ? ev->bind : ev->scope;
            guint32 flag = key == K_ID ? TES_CHROME_EV_HAS_ID :
                           key == K_BIND_ID ? TES_CHROME_EV_HAS_BIND : TES_CHROME_EV_HAS_SCOPE;
            gsize from, to;

            if (buf[i] == '"')
              {
                if ((j = scan_plain_string_end (buf, len, i + 1)) == 0)
                  return 0;
                from = i + 1;
                to = j;
                i = j + 1;
              }
            else
              {
                if ((j = scan_number (buf, len, i)) == 0 || j >= len)
                  return 0;
                from = i;
                to = i = j;
              }
            g_string_truncate (into, 0);
            g_string_append_len (into, (const char *)buf + from, to - from);
            ev->flags |= flag;
          }
          break;

        case K_FLOW_IN:
        case K_FLOW_OUT:
          if ((j = literal (buf, len, i, "true", 4)) != 0)
            ev->flags |= key == K_FLOW_IN ? TES_CHROME_EV_FLOW_IN : TES_CHROME_EV_FLOW_OUT;
          else if ((j = literal (buf, len, i, "false", 5)) == 0)
            return 0;
          i = j;
          break;

        case K_ARGS:
          {
            gsize from = i;
            gboolean spaced = FALSE;

            if (buf[i] != '{' || (i = skip_value (buf, len, i, max_depth - 1, NULL, &spaced)) == 0)
              return 0;
            if (spaced)
              {
                /* compacted, as the callbacks would */
                clear_text (ev->args);
                skip_value (buf, len, from, max_depth - 1, ev->args, NULL);
                ev->args->str[ev->args->len] = '\0';
                args_text = NULL;
                args_len = ev->args->len;
              }
            else
              {
                args_text = (const char *)buf + from;
                args_len = i - from;
              }
            /* {} carries nothing */
            if (args_len > 2)
              ev->flags |= TES_CHROME_EV_HAS_ARGS;
          }
          break;

        case K_BP:
          /* nothing kept of a scalar; a container is a warning */
          if (buf[i] == '{' || buf[i] == '[' || (i = skip_value (buf, len, i, 0, NULL, NULL)) == 0)
            return 0;
          break;

        case K_OTHER:
          if ((i = skip_value (buf, len, i, max_depth - 1, NULL, NULL)) == 0)
            return 0;
          break;

        case K_ID2:
        case K_NONE:
        case K_TRACE_EVENTS:
        case K_DISPLAY_TIME_UNIT:
        case K_OTHER_DATA:
        case K_METADATA:
        case K_DEVICE_PROPERTIES:
        case K_DISTRIBUTED_INFO:
        case K_LOCAL:
        case K_GLOBAL:
        default:
          return 0;
        }

      WS ();
      if (i >= len)
        return 0;
      if (buf[i] == '}')
        {
          i++;
          break;
        }
      if (buf[i] != ',')
        return 0;
      i++;
      WS ();
    }
#undef WS

done:
  ev->args_text = args_text;
  ev->args_len = args_len;
  tes_chrome_parser_event_done (p, offset + i);

  return i;
}
