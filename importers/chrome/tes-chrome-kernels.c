/* tes-chrome-kernels.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-chrome"

#include "config.h"

#include "tes-chrome-flavour.h"
#include "tes-json.h"

#include <math.h>
#include <string.h>

/* What the framework flavours (Kineto, TensorFlow) tell of an operator's
 * kernels: per kernel name its launches and device time, listed in the
 * args and, the heaviest three, in the Summary's details. */

void
tes_chrome_kernels_init (TesChromeKernels *k)
{
  k->sums = g_array_new (FALSE, FALSE, sizeof (TesChromeKernelSum));
  k->index = NULL;
}

void
tes_chrome_kernels_clear (TesChromeKernels *k)
{
  g_clear_pointer (&k->sums, g_array_unref);
  g_clear_pointer (&k->index, g_hash_table_unref);
}

/* Most ops launch a few kernel names: those are looked for in the array,
 * the index made only past KERNELS_LINEAR (a 1M-event Kineto trace sums
 * kernels for some 80k op rows, a hash table each). */
#define KERNELS_LINEAR 8

void
tes_chrome_kernels_add (TesChromeKernels *k,
                        guint32           name,
                        gint64            dur)
{
  TesChromeKernelSum *sums = (TesChromeKernelSum *)(gpointer)k->sums->data;
  TesChromeKernelSum *sum = NULL;
  guint i = 0;

  if (k->index != NULL)
    i = GPOINTER_TO_UINT (g_hash_table_lookup (k->index, GUINT_TO_POINTER (name)));
  else
    for (guint j = 0; j < k->sums->len; j++)
      if (sums[j].name == name)
        {
          i = j + 1;
          break;
        }

  if (i == 0)
    {
      TesChromeKernelSum ks = { name, 0, 0 };

      g_array_append_val (k->sums, ks);
      i = k->sums->len;
      if (k->index != NULL)
        g_hash_table_insert (k->index, GUINT_TO_POINTER (name), GUINT_TO_POINTER (i));
      else if (i > KERNELS_LINEAR)
        {
          k->index = g_hash_table_new (NULL, NULL);
          for (guint j = 0; j < k->sums->len; j++)
            g_hash_table_insert (k->index,
                                 GUINT_TO_POINTER (g_array_index (k->sums, TesChromeKernelSum, j).name),
                                 GUINT_TO_POINTER (j + 1));
        }
    }
  sum = &g_array_index (k->sums, TesChromeKernelSum, i - 1);
  sum->count++;
  sum->total += dur;
}

/* A decimal integer, as "%" G_GINT64_FORMAT prints it: the operator
 * rows of a 1M-event trace print about a million numbers, and printf
 * cost a tenth of the Kineto flavour's time. */
void
tes_chrome_append_int (GString *out,
                       gint64   v)
{
  char buf[24];
  char *p = buf + sizeof buf;
  guint64 u = v < 0 ? -(guint64)v : (guint64)v;

  do
    *--p = (char)('0' + u % 10);
  while ((u /= 10) != 0);
  if (v < 0)
    *--p = '-';
  g_string_append_len (out, p, buf + sizeof buf - p);
}

/* ns as milliseconds to the µs, rounded half away from zero, as every
 * time the framework flavours write (details, info): 1234.568 ms */
void
tes_chrome_append_ms (GString *out,
                      gint64   ns)
{
  guint64 us = ((ns < 0 ? -(guint64)ns : (guint64)ns) + 500) / 1000;
  guint frac = (guint)(us % 1000);

  if (ns < 0 && us > 0)
    g_string_append_c (out, '-');
  tes_chrome_append_int (out, (gint64)(us / 1000));
  g_string_append_c (out, '.');
  g_string_append_c (out, (char)('0' + frac / 100));
  g_string_append_c (out, (char)('0' + frac / 10 % 10));
  g_string_append_c (out, (char)('0' + frac % 10));
  g_string_append_len (out, " ms", 3);
}

char *
tes_chrome_format_ms (gint64 ns)
{
  GString *out = g_string_new (NULL);

  tes_chrome_append_ms (out, ns);

  return g_string_free (out, FALSE);
}

/* longest first, then by name */
static int
compare_kernel_sums (gconstpointer a,
                     gconstpointer b,
                     gpointer      builder)
{
  const TesChromeKernelSum *x = a, *y = b;

  if (x->total != y->total)
    return x->total < y->total ? 1 : -1;
  return strcmp (tes_chrome_text (builder, x->name), tes_chrome_text (builder, y->name));
}

void
tes_chrome_kernels_append_text (TesChromeBuilder       *b,
                                const TesChromeKernels *k,
                                GString                *out)
{
  g_autoptr(GArray) kernels = g_array_copy (k->sums);

  g_array_sort_with_data (kernels, compare_kernel_sums, b);
  for (guint i = 0; i < kernels->len && i < 3; i++)
    {
      const TesChromeKernelSum *ks = &g_array_index (kernels, TesChromeKernelSum, i);
      const char *name = tes_chrome_text (b, ks->name);
      /* the first 59 characters, and whether more than one follows: no
       * count of the whole name (kernel names run to hundreds of bytes) */
      const char *cut = name;
      gboolean longer;

      for (guint n = 0; n < 59 && *cut != '\0'; n++)
        cut = g_utf8_next_char (cut);
      longer = *cut != '\0' && *g_utf8_next_char (cut) != '\0';

      g_string_append (out, i == 0 ? "; kernels: " : ", ");
      if (longer)
        {
          g_string_append_len (out, name, cut - name);
          g_string_append (out, "…");
        }
      else
        g_string_append (out, name);
      g_string_append (out, " ×");
      tes_chrome_append_int (out, ks->count);
      g_string_append_c (out, ' ');
      tes_chrome_append_ms (out, ks->total);
    }
  if (kernels->len > 3)
    g_string_append_printf (out, ", %u more", kernels->len - 3);
}

void
tes_chrome_kernels_append_json (TesChromeBuilder       *b,
                                const TesChromeKernels *k,
                                GString                *out)
{
  g_string_append_c (out, '[');
  for (guint i = 0; i < k->sums->len; i++)
    {
      const TesChromeKernelSum *ks = &g_array_index (k->sums, TesChromeKernelSum, i);

      g_string_append (out, i ? ",{\"name\":" : "{\"name\":");
      tes_json_append_string (out, tes_chrome_text (b, ks->name), -1);
      g_string_append (out, ",\"count\":");
      tes_chrome_append_int (out, ks->count);
      g_string_append (out, ",\"device_ns\":");
      tes_chrome_append_int (out, ks->total);
      g_string_append_c (out, '}');
    }
  g_string_append_c (out, ']');
}
