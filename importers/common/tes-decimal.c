/* tes-decimal.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-decimal"

#include "config.h"

#include "tes-decimal.h"

#include <math.h>
#include <string.h>

/* Exact decimal to scaled integer: "1576.044" with scale 3 is 1576044.
 * Digits beyond the scale are rounded half away from zero. Works on the
 * text, never through a double, so microsecond timestamps with three
 * decimals become nanoseconds without any error. */
TesDecimal
tes_decimal_parse (const char *text,
                   gsize       len,
                   guint       scale_digits,
                   gint64     *out)
{
  const char *p = text;
  const char *end = text + len;
  gboolean neg = FALSE;
  gboolean inexact = FALSE;
  guint64 mant = 0;
  gint64 exp10 = 0;
  gint64 exp_part = 0;
  gint64 shift;
  guint n_int = 0;

  *out = 0;

  if (p < end && *p == '-')
    {
      neg = TRUE;
      p++;
    }

  /* integer part: at least one digit */
  while (p < end && g_ascii_isdigit (*p))
    {
      if (mant <= (G_MAXUINT64 - 9) / 10)
        mant = mant * 10 + (guint64)(*p - '0');
      else
        {
          exp10++;
          inexact |= *p != '0';
        }
      p++;
      n_int++;
    }
  if (n_int == 0)
    return TES_DECIMAL_INVALID;

  if (p < end && *p == '.')
    {
      guint n_frac = 0;

      p++;
      while (p < end && g_ascii_isdigit (*p))
        {
          if (mant <= (G_MAXUINT64 - 9) / 10)
            {
              mant = mant * 10 + (guint64)(*p - '0');
              exp10--;
            }
          else
            inexact |= *p != '0';
          p++;
          n_frac++;
        }
      if (n_frac == 0)
        return TES_DECIMAL_INVALID;
    }

  if (p < end && (*p == 'e' || *p == 'E'))
    {
      gboolean exp_neg = FALSE;
      guint n_exp = 0;

      p++;
      if (p < end && (*p == '+' || *p == '-'))
        exp_neg = *p++ == '-';
      while (p < end && g_ascii_isdigit (*p))
        {
          if (exp_part < 100000)
            exp_part = exp_part * 10 + (*p - '0');
          p++;
          n_exp++;
        }
      if (n_exp == 0)
        return TES_DECIMAL_INVALID;
      if (exp_neg)
        exp_part = -exp_part;
    }

  if (p != end)
    return TES_DECIMAL_INVALID;

  if (mant == 0)
    return inexact ? TES_DECIMAL_ROUNDED : TES_DECIMAL_OK;

  shift = exp10 + exp_part + (gint64)scale_digits;

  if (shift >= 0)
    {
      for (gint64 i = 0; i < shift; i++)
        {
          if (mant > (guint64)G_MAXINT64 / 10)
            return TES_DECIMAL_RANGE;
          mant *= 10;
        }
    }
  else
    {
      gint64 k = -shift;
      guint64 pow = 1;
      guint64 rem;

      if (k > 19)
        {
          /* mant < 10^18 + 9, far below half of 10^20 */
          mant = 0;
          inexact = TRUE;
        }
      else
        {
          for (gint64 i = 0; i < k; i++)
            pow *= 10;
          rem = mant % pow;
          mant /= pow;
          if (rem != 0)
            inexact = TRUE;
          if (rem >= pow - rem)
            mant++;
        }
    }

  if (mant > (guint64)G_MAXINT64)
    return TES_DECIMAL_RANGE;

  *out = neg ? -(gint64)mant : (gint64)mant;

  return inexact ? TES_DECIMAL_ROUNDED : TES_DECIMAL_OK;
}

/* "3.53%": digits with an optional fraction, then '%'; no sign, exponent,
 * nan or white space (callers strip what their format allows). */
gboolean
tes_parse_percent (const char *text,
                   gsize       len,
                   double     *percent)
{
  char buf[64];
  char *end = NULL;
  gboolean dot = FALSE;

  if (len < 2 || len >= sizeof buf || text[len - 1] != '%')
    return FALSE;

  for (gsize i = 0; i + 1 < len; i++)
    {
      if (text[i] == '.' && !dot && i > 0)
        dot = TRUE;
      else if (!g_ascii_isdigit (text[i]))
        return FALSE;
    }

  memcpy (buf, text, len - 1);
  buf[len - 1] = '\0';
  *percent = g_ascii_strtod (buf, &end);

  return end == buf + len - 1 && isfinite (*percent);
}
