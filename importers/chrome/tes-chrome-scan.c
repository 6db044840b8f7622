/* tes-chrome-scan.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tes-chrome-scan.h"
#include "tes-chrome-scan-private.h"

#include <string.h>

/* yajl lexes a byte at a time through a state machine and calls back
 * through a function pointer per token: half an import's CPU. Most events
 * are small objects in plain JSON; this scans them in one pass with a
 * table per byte. It accepts only what yajl accepts and gives what yajl's
 * callbacks would be given; it never reports an error, it gives up (0)
 * and leaves the event to yajl. */

/* No trace event nests deeper; a deeper one goes to yajl. */
#define MAX_NEST 64

void
tes_chrome_scan_init (TesChromeScan *scan)
{
  memset (scan, 0, sizeof *scan);
}

void
tes_chrome_scan_clear (TesChromeScan *scan)
{
  g_free (scan->tokens);
  g_free (scan->scratch);
  g_free (scan->gaps);
  memset (scan, 0, sizeof *scan);
}

static inline void
push (TesChromeScan *scan,
      guint          type,
      const char    *text,
      gsize          len,
      gsize          end)
{
  TesChromeToken *t;

  if (G_UNLIKELY (scan->n_tokens == scan->cap))
    {
      scan->cap = MAX (256, scan->cap * 2);
      scan->tokens = g_renew (TesChromeToken, scan->tokens, scan->cap);
    }
  t = &scan->tokens[scan->n_tokens++];
  t->text = text;
  t->len = (guint32)len;
  t->end = (guint32)end;
  t->type = type;
}

static inline void
add_gap (TesChromeScan *scan,
         guint         *n_gaps,
         gsize          from,
         gsize          to)
{
  if (G_UNLIKELY (*n_gaps == scan->gaps_cap))
    {
      scan->gaps_cap = MAX (64, scan->gaps_cap * 2);
      scan->gaps = g_renew (guint32, scan->gaps, 2 * (gsize)scan->gaps_cap);
    }
  scan->gaps[2 * *n_gaps] = (guint32)from;
  scan->gaps[2 * *n_gaps + 1] = (guint32)to;
  (*n_gaps)++;
}

/* true, false or null at @i: pushed, and where it ends; 0 if it is not
 * there whole (the caller hands the event to yajl). */
static inline gsize
scan_literal (TesChromeScan *scan,
              const guint8  *buf,
              gsize          len,
              gsize          i,
              const char    *word,
              guint          type)
{
  gsize n = strlen (word);

  if (len - i < n || memcmp (buf + i, word, n) != 0)
    return 0;
  push (scan, type, NULL, 0, i + n);

  return i + n;
}

static inline int
hex_digit (guint8 c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* A string with escapes, decoded as yajl_string_decode() does; from the
 * backslash at i, its start at start. Returns the index past the closing
 * quote, 0 to give up (a lone high surrogate, which yajl decodes its own
 * way, or anything invalid). */
static gsize
decode_string (const guint8  *buf,
               gsize          len,
               gsize          start,
               gsize          i,
               char          *out,
               gsize         *out_len)
{
  char *o = out;

  memcpy (o, buf + start, i - start);
  o += i - start;

  while (i < len)
    {
      guint8 c = buf[i];

      switch (scan_string_class[c])
        {
        case SCAN_PLAIN:
          *o++ = (char)c;
          i++;
          break;

        case SCAN_QUOTE:
          *out_len = o - out;
          return i + 1;

        case SCAN_HIGH:
          {
            gsize from = i;

            if (!scan_utf8_char (buf, len, &i))
              return 0;
            memcpy (o, buf + from, i - from);
            o += i - from;
          }
          break;

        case SCAN_BACKSLASH:
          if (i + 1 >= len)
            return 0;
          switch (buf[i + 1])
            {
            case '"': *o++ = '"'; break;
            case '\\': *o++ = '\\'; break;
            case '/': *o++ = '/'; break;
            case 'b': *o++ = '\b'; break;
            case 'f': *o++ = '\f'; break;
            case 'n': *o++ = '\n'; break;
            case 'r': *o++ = '\r'; break;
            case 't': *o++ = '\t'; break;
            case 'u':
              {
                guint cp = 0;

                if (i + 6 > len)
                  return 0;
                for (guint k = 2; k < 6; k++)
                  {
                    int d = hex_digit (buf[i + k]);

                    if (d < 0)
                      return 0;
                    cp = (cp << 4) | (guint)d;
                  }
                if ((cp & 0xfc00) == 0xd800)
                  {
                    guint low = 0;

                    /* a pair, combined as yajl does (whatever the second
                     * is); a lone one yajl turns into '?' its own way */
                    if (i + 12 > len || buf[i + 6] != '\\' || buf[i + 7] != 'u')
                      return 0;
                    for (guint k = 8; k < 12; k++)
                      {
                        int d = hex_digit (buf[i + k]);

                        if (d < 0)
                          return 0;
                        low = (low << 4) | (guint)d;
                      }
                    cp = ((cp & 0x3f) << 10) | ((((cp >> 6) & 0xf) + 1) << 16) | (low & 0x3ff);
                    *o++ = (char)((cp >> 18) | 0xf0);
                    *o++ = (char)(((cp >> 12) & 0x3f) | 0x80);
                    *o++ = (char)(((cp >> 6) & 0x3f) | 0x80);
                    *o++ = (char)((cp & 0x3f) | 0x80);
                    i += 12;
                    continue;
                  }
                /* yajl's Utf32toUtf8(); \u0000 is one NUL byte */
                if (cp < 0x80)
                  *o++ = (char)cp;
                else if (cp < 0x800)
                  {
                    *o++ = (char)((cp >> 6) | 0xc0);
                    *o++ = (char)((cp & 0x3f) | 0x80);
                  }
                else
                  {
                    *o++ = (char)((cp >> 12) | 0xe0);
                    *o++ = (char)(((cp >> 6) & 0x3f) | 0x80);
                    *o++ = (char)((cp & 0x3f) | 0x80);
                  }
                i += 6;
                continue;
              }
            default:
              return 0;
            }
          i += 2;
          break;

        case SCAN_CONTROL:
        default:
          return 0;
        }
    }

  return 0;
}

/* The string whose opening quote is at i - 1; returns the index past its
 * closing quote, 0 to give up. Decoded text goes to the scratch buffer,
 * and counts in *irregular. */
static inline gsize
scan_string (TesChromeScan  *scan,
             const guint8   *buf,
             gsize           len,
             gsize           i,
             gsize          *scratch_used,
             guint          *irregular,
             const char    **text,
             gsize          *text_len)
{
  gsize start = i;

  while (i < len)
    {
      i = scan_plain_run (buf, len, i);
      if (i >= len)
        break;
      switch (scan_string_class[buf[i]])
        {
        case SCAN_PLAIN:
          i++;
          break;

        case SCAN_QUOTE:
          *text = (const char *)buf + start;
          *text_len = i - start;
          return i + 1;

        case SCAN_HIGH:
          if (!scan_utf8_char (buf, len, &i))
            return 0;
          break;

        case SCAN_BACKSLASH:
          {
            char *out = scan->scratch + *scratch_used;
            gsize end = decode_string (buf, len, start, i, out, text_len);

            (*irregular)++;
            if (end != 0)
              {
                *text = out;
                *scratch_used += *text_len;
              }
            return end;
          }

        case SCAN_CONTROL:
        default:
          return 0;
        }
    }

  return 0;
}

/* Scans the object whose '{' is buf[0] and that must end within len
 * bytes, nesting at most max_depth containers (itself included). Returns
 * its length (the index past its '}') with its tokens in scan, or 0. */
gsize
tes_chrome_scan_object (TesChromeScan *scan,
                        const guint8  *buf,
                        gsize          len,
                        guint          max_depth)
{
  guint8 stack[MAX_NEST];
  guint depth = 0;
  gsize scratch_used = 0;
  gsize i = 0;
  guint args_token = G_MAXUINT;   /* the event's "args" object, while open */
  gsize args_at = 0;
  guint irregular = 0;            /* strings decoded */
  guint args_irregular = 0;
  guint n_gaps = 0;               /* white space runs in the open args */
  const char *text;
  gsize text_len;

/* white space between tokens, which a capture leaves out: the runs in
 * the args are noted, to copy what lies between them */
#define SKIP_WS() \
  G_STMT_START { \
    if (i < len && scan_is_ws (buf[i])) \
      { \
        gsize from_ = i; \
        i = scan_skip_ws (buf, len, i); \
        if (args_token != G_MAXUINT) \
          add_gap (scan, &n_gaps, from_, i); \
      } \
  } G_STMT_END

  max_depth = MIN (max_depth, MAX_NEST);
  if (len == 0 || buf[0] != '{' || max_depth == 0)
    return 0;

  /* a decoded string is never longer than its escaped text; a run of
   * args text may be copied sixteen bytes at a time */
  if (scan->scratch_cap < len + 16)
    {
      g_free (scan->scratch);
      scan->scratch_cap = MAX (len + 16, 64 * 1024);
      scan->scratch = g_malloc (scan->scratch_cap);
    }
  scan->n_tokens = 0;

value:
  SKIP_WS ();
  if (i >= len)
    return 0;

  switch (buf[i])
    {
    case '{':
      if (depth == max_depth)
        return 0;
      if (depth == 1 && scan->tokens[scan->n_tokens - 1].len == 4 &&
          memcmp (scan->tokens[scan->n_tokens - 1].text, "args", 4) == 0)
        {
          args_token = scan->n_tokens;
          args_at = i;
          args_irregular = irregular;
          n_gaps = 0;
        }
      stack[depth++] = '{';
      push (scan, TES_CHROME_TOK_START_MAP, NULL, 0, ++i);
      SKIP_WS ();
      if (i < len && buf[i] == '}')
        {
          depth--;
          push (scan, TES_CHROME_TOK_END_MAP, NULL, 0, ++i);
          goto after_value;
        }
      goto key;

    case '[':
      if (depth == max_depth)
        return 0;
      stack[depth++] = '[';
      push (scan, TES_CHROME_TOK_START_ARRAY, NULL, 0, ++i);
      SKIP_WS ();
      if (i < len && buf[i] == ']')
        {
          depth--;
          push (scan, TES_CHROME_TOK_END_ARRAY, NULL, 0, ++i);
          goto after_value;
        }
      goto value;

    case '"':
      if (!(i = scan_string (scan, buf, len, i + 1, &scratch_used, &irregular, &text, &text_len)))
        return 0;
      push (scan, TES_CHROME_TOK_STRING, text, text_len, i);
      goto after_value;

    case '-':
    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
      {
        gsize start = i;

        if (!(i = scan_number (buf, len, i)))
          return 0;
        push (scan, TES_CHROME_TOK_NUMBER, (const char *)buf + start, i - start, i);
      }
      goto after_value;

    case 't':
      if (!(i = scan_literal (scan, buf, len, i, "true", TES_CHROME_TOK_TRUE)))
        return 0;
      goto after_value;

    case 'f':
      if (!(i = scan_literal (scan, buf, len, i, "false", TES_CHROME_TOK_FALSE)))
        return 0;
      goto after_value;

    case 'n':
      if (!(i = scan_literal (scan, buf, len, i, "null", TES_CHROME_TOK_NULL)))
        return 0;
      goto after_value;

    default:
      return 0;
    }

key:
  SKIP_WS ();
  if (i >= len || buf[i] != '"')
    return 0;
  if (!(i = scan_string (scan, buf, len, i + 1, &scratch_used, &irregular, &text, &text_len)))
    return 0;
  push (scan, TES_CHROME_TOK_KEY, text, text_len, i);
  SKIP_WS ();
  if (i >= len || buf[i] != ':')
    return 0;
  i++;
  goto value;

after_value:
  if (depth == 0)
    return i;
  if (depth == 1 && args_token != G_MAXUINT)
    {
      /* the args object just closed: one token for it all when the
       * parser would write it back as it stands, or as it stands without
       * its white space (the PyTorch profiler writes args over several
       * indented lines); a decoded string leaves it to the tokens */
      if (irregular == args_irregular && n_gaps == 0)
        {
          scan->n_tokens = args_token;
          push (scan, TES_CHROME_TOK_ARGS, (const char *)buf + args_at, i - args_at, i);
        }
      else if (irregular == args_irregular)
        {
          /* the text between the white space runs between its tokens */
          char *out = scan->scratch + scratch_used;
          gsize n = 0;
          gsize from = args_at;

          for (guint g = 0; g < n_gaps; g++)
            {
              n += scan_copy_run (out + n, buf, len, from, scan->gaps[2 * g]);
              from = scan->gaps[2 * g + 1];
            }
          n += scan_copy_run (out + n, buf, len, from, i);
          scratch_used += n;
          scan->n_tokens = args_token;
          push (scan, TES_CHROME_TOK_ARGS, out, n, i);
        }
      args_token = G_MAXUINT;
    }
  SKIP_WS ();
  if (i >= len)
    return 0;
  if (buf[i] == ',')
    {
      i++;
      if (stack[depth - 1] == '{')
        goto key;
      goto value;
    }
  if (buf[i] == (stack[depth - 1] == '{' ? '}' : ']'))
    {
      depth--;
      push (scan, stack[depth] == '{' ? TES_CHROME_TOK_END_MAP : TES_CHROME_TOK_END_ARRAY, NULL, 0, ++i);
      goto after_value;
    }

  return 0;
#undef SKIP_WS
}
