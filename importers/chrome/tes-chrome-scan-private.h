/* tes-chrome-scan-private.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

G_BEGIN_DECLS

/* The byte loops the scanner (tes-chrome-scan.c) and the event decoder
 * (tes-chrome-decode.c) share: both accept exactly what yajl accepts. */

/* inlined even where the compiler would call them: they run per token */
#ifdef __GNUC__
#define SCAN_INLINE static inline __attribute__ ((__always_inline__))
#else
#define SCAN_INLINE static inline
#endif

enum
{
  SCAN_PLAIN,
  SCAN_QUOTE,
  SCAN_BACKSLASH,
  SCAN_CONTROL,
  SCAN_HIGH,
};

static const guint8 scan_string_class[256] = {
  [0x00 ... 0x1f] = SCAN_CONTROL,
  ['"'] = SCAN_QUOTE,
  ['\\'] = SCAN_BACKSLASH,
  [0x80 ... 0xff] = SCAN_HIGH,
};

/* the four white space bytes of JSON, one test of a bit each */
static inline gboolean
scan_is_ws (guint8 c)
{
  const guint64 ws = G_GUINT64_CONSTANT (1) << ' ' | 1 << '\n' | 1 << '\r' | 1 << '\t';

  return c <= ' ' && ((ws >> c) & 1);
}

/* Bytes of a 64-bit word (Sean Anderson's bit hacks): whether one is 0,
 * whether one is below n (n <= 128, the word holding no byte >= 128). */
#define SCAN_ONES_LOW       G_GUINT64_CONSTANT (0x0101010101010101)
#define SCAN_ONES_HIGH      G_GUINT64_CONSTANT (0x8080808080808080)
#define SCAN_HAS_ZERO(v)    (((v) - SCAN_ONES_LOW) & ~(v) & SCAN_ONES_HIGH)
#define SCAN_HAS_LESS(v, n) (((v) - SCAN_ONES_LOW * (n)) & ~(v) & SCAN_ONES_HIGH)

#ifdef __SSE2__
/* Sixteen bytes at p (SSE2, which every x86-64 has): a mask of those
 * that end a run of plain string bytes (a quote, a backslash, a control
 * or non-ASCII byte: below 0x20 as a signed byte), and of those that are
 * not white space. */
static inline guint
scan_string_stops16 (const guint8 *p)
{
  __m128i v = _mm_loadu_si128 ((const __m128i *)p);
  __m128i m = _mm_or_si128 (_mm_or_si128 (_mm_cmpeq_epi8 (v, _mm_set1_epi8 ('"')),
                                          _mm_cmpeq_epi8 (v, _mm_set1_epi8 ('\\'))),
                            _mm_cmplt_epi8 (v, _mm_set1_epi8 (0x20)));

  return (guint)_mm_movemask_epi8 (m);
}

static inline guint
scan_not_ws16 (const guint8 *p)
{
  __m128i v = _mm_loadu_si128 ((const __m128i *)p);
  __m128i m = _mm_or_si128 (_mm_or_si128 (_mm_cmpeq_epi8 (v, _mm_set1_epi8 (' ')),
                                          _mm_cmpeq_epi8 (v, _mm_set1_epi8 ('\n'))),
                            _mm_or_si128 (_mm_cmpeq_epi8 (v, _mm_set1_epi8 ('\r')),
                                          _mm_cmpeq_epi8 (v, _mm_set1_epi8 ('\t'))));

  return ~(guint)_mm_movemask_epi8 (m) & 0xffff;
}
#endif

/* The index past the white space from i, which is white space: the
 * PyTorch profiler indents every line, so runs are a newline and 4 to 8
 * spaces, or one space after ':' and ','. */
static inline gsize
scan_skip_ws (const guint8 *buf,
              gsize         len,
              gsize         i)
{
  i++;
#ifdef __SSE2__
  if (i < len && scan_is_ws (buf[i]))
    while (i + 16 <= len)
      {
        guint stops = scan_not_ws16 (buf + i);

        if (stops != 0)
          return i + (gsize)__builtin_ctz (stops);
        i += 16;
      }
#endif
  while (i < len && scan_is_ws (buf[i]))
    i++;

  return i;
}

/* The index of the first byte from i on that is not a plain string byte
 * (a quote, a backslash, a control or non-ASCII byte), or len: sixteen
 * or eight bytes at a time, for kernel names run to hundreds. */
SCAN_INLINE gsize
scan_plain_run (const guint8 *buf,
                gsize         len,
                gsize         i)
{
#ifdef __SSE2__
  while (i + 16 <= len)
    {
      guint stops = scan_string_stops16 (buf + i);

      if (stops != 0)
        return i + (gsize)__builtin_ctz (stops);
      i += 16;
    }
#endif
  while (i + 8 <= len)
    {
      guint64 v;

      memcpy (&v, buf + i, 8);
      if ((v & SCAN_ONES_HIGH) || SCAN_HAS_ZERO (v ^ (SCAN_ONES_LOW * '"')) ||
          SCAN_HAS_ZERO (v ^ (SCAN_ONES_LOW * '\\')) || SCAN_HAS_LESS (v, 0x20))
        break;
      i += 8;
    }
  while (i < len && scan_string_class[buf[i]] == SCAN_PLAIN)
    i++;

  return i;
}

/* yajl's own UTF-8 check: a lead byte and as many continuation bytes as
 * it announces. */
static inline gboolean
scan_utf8_char (const guint8 *buf,
                gsize         len,
                gsize        *i)
{
  guint8 c = buf[*i];
  guint n;

  if ((c >> 5) == 0x6)
    n = 1;
  else if ((c >> 4) == 0xe)
    n = 2;
  else if ((c >> 3) == 0x1e)
    n = 3;
  else
    return FALSE;

  if (*i + n >= len)
    return FALSE;
  for (guint k = 1; k <= n; k++)
    if ((buf[*i + k] >> 6) != 0x2)
      return FALSE;
  *i += n + 1;

  return TRUE;
}

/* The closing quote of the string whose text starts at i, when it holds
 * no escape: its index, or 0 (an escape, a byte yajl rejects, no end
 * within len). */
SCAN_INLINE gsize
scan_plain_string_end (const guint8 *buf,
                       gsize         len,
                       gsize         i)
{
  for (;;)
    {
      i = scan_plain_run (buf, len, i);
      if (i >= len)
        return 0;
      if (buf[i] == '"')
        return i;
      if (scan_string_class[buf[i]] != SCAN_HIGH || !scan_utf8_char (buf, len, &i))
        return 0;
    }
}

/* The index past the digits from i on: eight at a time, for the ids and
 * counts in args run to ten. A byte's high bit is set when it is above
 * '9' (+ 0x46) or below '0' (- 0x30); a carry or borrow only reaches the
 * bytes after a non-digit, so the first one flagged is the first
 * non-digit. */
SCAN_INLINE gsize
scan_digits (const guint8 *buf,
             gsize         len,
             gsize         i)
{
  while (i + 8 <= len)
    {
      guint64 v, stops;

      memcpy (&v, buf + i, 8);
      stops = ((v + SCAN_ONES_LOW * 0x46) | (v - SCAN_ONES_LOW * 0x30)) & SCAN_ONES_HIGH;
      if (stops != 0)
        return i + (gsize)__builtin_ctzll (stops) / 8;
      i += 8;
    }
  while (i < len && buf[i] >= '0' && buf[i] <= '9')
    i++;
  return i;
}

/* The value of the n <= 19 digits at p (scan_digits () found them):
 * eight at a time where it can, each eight in three multiplies. */
SCAN_INLINE guint64
scan_digits_value (const guint8 *p,
                   gsize         n)
{
  guint64 v = 0;

  for (; n >= 8; n -= 8, p += 8)
    {
      guint64 w;

      memcpy (&w, p, 8);
      w -= SCAN_ONES_LOW * '0';
      w = w * 10 + (w >> 8);
      w = ((w & G_GUINT64_CONSTANT (0x000000ff000000ff)) * (100 + (G_GUINT64_CONSTANT (1000000) << 32)) +
           ((w >> 16) & G_GUINT64_CONSTANT (0x000000ff000000ff)) * (1 + (G_GUINT64_CONSTANT (10000) << 32))) >> 32;
      v = v * 100000000 + w;
    }
  for (; n > 0; n--, p++)
    v = v * 10 + (*p - '0');

  return v;
}

/* A time in µs in its plain form at i: at most 15 digits (no leading
 * zero), then at most 3 after a point; in ns, without the general
 * decimal parser. The index past it, or 0 for any other form (a sign, an
 * exponent, finer than 1 ns): the caller sees whether the number ends
 * there. */
SCAN_INLINE gsize
scan_plain_us (const guint8 *buf,
               gsize         len,
               gsize         i,
               gint64       *ns)
{
  static const gint64 scale[] = { 1000, 100, 10, 1 };
  gsize end = scan_digits (buf, len, i);
  gsize n = end - i;
  gsize frac = 0;
  gint64 v;

  if (n == 0 || n > 15 || (buf[i] == '0' && n > 1))
    return 0;
  v = (gint64)scan_digits_value (buf + i, n);
  if (end < len && buf[end] == '.')
    {
      gsize frac_end = scan_digits (buf, len, end + 1);

      frac = frac_end - end - 1;
      if (frac == 0 || frac > 3)
        return 0;
      v = v * scale[3 - frac] + (gint64)scan_digits_value (buf + end + 1, frac);
      end = frac_end;
    }
  *ns = v * scale[frac];

  return end;
}

/* A non-negative integer of at most 18 digits (no leading zero) at i,
 * which a gint64 holds exactly: the index past its digits, or 0. */
SCAN_INLINE gsize
scan_plain_integer (const guint8 *buf,
                    gsize         len,
                    gsize         i,
                    gint64       *value)
{
  gsize end = scan_digits (buf, len, i);
  gsize n = end - i;

  if (n == 0 || n > 18 || (buf[i] == '0' && n > 1))
    return 0;
  *value = (gint64)scan_digits_value (buf + i, n);

  return end;
}

/* A JSON number at i: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?;
 * returns the index past it, 0 when it is not one. */
SCAN_INLINE gsize
scan_number (const guint8 *buf,
             gsize         len,
             gsize         i)
{
  gsize j;

  if (buf[i] == '-')
    i++;
  if (i >= len)
    return 0;
  if (buf[i] == '0')
    i++;
  else if (buf[i] >= '1' && buf[i] <= '9')
    i = scan_digits (buf, len, i + 1);
  else
    return 0;

  if (i < len && buf[i] == '.')
    {
      j = scan_digits (buf, len, i + 1);
      if (j == i + 1)
        return 0;
      i = j;
    }
  if (i < len && (buf[i] == 'e' || buf[i] == 'E'))
    {
      i++;
      if (i < len && (buf[i] == '+' || buf[i] == '-'))
        i++;
      j = scan_digits (buf, len, i);
      if (j == i)
        return 0;
      i = j;
    }

  return i;
}

/* buf[from, to) to out, which has 16 bytes to spare; returns its length */
static inline gsize
scan_copy_run (char         *out,
               const guint8 *buf,
               gsize         len,
               gsize         from,
               gsize         to)
{
  gsize n = to - from;

#ifdef __SSE2__
  if (n <= 16 && from + 16 <= len)
    {
      _mm_storeu_si128 ((__m128i *)out, _mm_loadu_si128 ((const __m128i *)(buf + from)));
      return n;
    }
#endif
  memcpy (out, buf + from, n);

  return n;
}

G_END_DECLS
