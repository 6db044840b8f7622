/* tes-chrome-util.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-chrome"

#include "config.h"

#include "tes-chrome-private.h"

#include <math.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

/* Readers of the compact args JSON the parser stores, and of the file
 * again: its gzip head for sniffing, the line numbers of byte offsets for
 * messages. */

/* Index just past the JSON string starting at json[pos] == '"'. */
static gsize
skip_string (const char *json,
             gsize       len,
             gsize       pos)
{
  pos++;
  while (pos < len)
    {
      if (json[pos] == '\\')
        pos += 2;
      else if (json[pos] == '"')
        return pos + 1;
      else
        pos++;
    }

  return len;
}

/* Index just past the value starting at json[pos]. */
static gsize
skip_value (const char *json,
            gsize       len,
            gsize       pos)
{
  guint depth = 0;

  while (pos < len)
    {
      char c = json[pos];

      if (c == '"')
        {
          pos = skip_string (json, len, pos);
          if (depth == 0)
            return pos;
          continue;
        }
      if (c == '{' || c == '[')
        depth++;
      else if (c == '}' || c == ']')
        {
          if (depth == 0)
            return pos;
          if (--depth == 0)
            return pos + 1;
        }
      else if (c == ',' && depth == 0)
        return pos;
      pos++;
    }

  return len;
}

gboolean
tes_chrome_args_next (const char  *json,
                      gsize        len,
                      gsize       *pos,
                      const char **key,
                      gsize       *key_len,
                      const char **value,
                      gsize       *value_len)
{
  gsize p = *pos;
  gsize kend;
  gsize vend;

  if (json == NULL || len < 2)
    return FALSE;

  if (p == 0)
    {
      if (json[0] != '{')
        return FALSE;
      p = 1;
    }

  if (p < len && json[p] == ',')
    p++;
  if (p >= len || json[p] != '"')
    return FALSE;

  kend = skip_string (json, len, p);
  if (kend >= len || json[kend] != ':')
    return FALSE;

  *key = json + p + 1;
  *key_len = kend - p - 2;

  p = kend + 1;
  vend = skip_value (json, len, p);
  if (vend == p)
    return FALSE;

  *value = json + p;
  *value_len = vend - p;
  *pos = vend;

  return TRUE;
}

gboolean
tes_chrome_args_find (const char  *json,
                      gsize        len,
                      const char  *key,
                      const char **value,
                      gsize       *value_len)
{
  gsize key_len = strlen (key);
  gsize pos = 0;
  const char *k;
  gsize kl;
  char quoted[64];

  /* a member's key is its raw text between quotes: where that text is
   * nowhere in the args, no walk over their members (the flavours ask
   * each of the first events of every piece for their keys) */
  if (json != NULL && key_len + 2 <= sizeof quoted)
    {
      quoted[0] = '"';
      memcpy (quoted + 1, key, key_len);
      quoted[key_len + 1] = '"';
      if (memmem (json, len, quoted, key_len + 2) == NULL)
        return FALSE;
    }

  while (tes_chrome_args_next (json, len, &pos, &k, &kl, value, value_len))
    if (kl == key_len && memcmp (k, key, key_len) == 0)
      return TRUE;

  return FALSE;
}

gboolean
tes_chrome_value_is_string (const char *value,
                            gsize       len)
{
  return len >= 2 && value[0] == '"';
}

/* A JSON number, or (allow_string) a string holding exactly one. */
gboolean
tes_chrome_value_to_double (const char *value,
                            gsize       len,
                            gboolean    allow_string,
                            double     *out)
{
  char buf[64];
  char *end = NULL;

  if (tes_chrome_value_is_string (value, len))
    {
      if (!allow_string)
        return FALSE;
      value++;
      len -= 2;
    }

  if (len == 0 || len >= sizeof buf)
    return FALSE;

  /* JSON number grammar only: no "nan", "inf", hex or spaces */
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isdigit (value[i]) && strchr ("-+.eE", value[i]) == NULL)
      return FALSE;

  memcpy (buf, value, len);
  buf[len] = '\0';
  *out = g_ascii_strtod (buf, &end);

  return end == buf + len && isfinite (*out);
}

char *
tes_chrome_value_dup_string (const char *value,
                             gsize       len)
{
  GString *str;

  if (!tes_chrome_value_is_string (value, len))
    return g_strndup (value, len);

  str = g_string_sized_new (len);
  for (gsize i = 1; i + 1 < len; i++)
    {
      char c = value[i];

      if (c != '\\' || i + 2 >= len)
        {
          g_string_append_c (str, c);
          continue;
        }

      c = value[++i];
      switch (c)
        {
        case 'n': g_string_append_c (str, '\n'); break;
        case 't': g_string_append_c (str, '\t'); break;
        case 'r': g_string_append_c (str, '\r'); break;
        case 'b': g_string_append_c (str, '\b'); break;
        case 'f': g_string_append_c (str, '\f'); break;
        case 'u':
          if (i + 4 < len)
            {
              char hex[5] = { value[i + 1], value[i + 2], value[i + 3], value[i + 4], 0 };
              gunichar ch = (gunichar)g_ascii_strtoull (hex, NULL, 16);

              i += 4;
              if (ch >= 0xD800 && ch < 0xDC00 && i + 6 < len && value[i + 1] == '\\' && value[i + 2] == 'u')
                {
                  char lo_hex[5] = { value[i + 3], value[i + 4], value[i + 5], value[i + 6], 0 };
                  gunichar lo = (gunichar)g_ascii_strtoull (lo_hex, NULL, 16);

                  if (lo >= 0xDC00 && lo < 0xE000)
                    {
                      ch = 0x10000 + ((ch - 0xD800) << 10) + (lo - 0xDC00);
                      i += 6;
                    }
                }
              if (g_unichar_validate (ch) && ch != 0)
                g_string_append_unichar (str, ch);
              else
                g_string_append_unichar (str, 0xFFFD);
            }
          break;
        default:
          g_string_append_c (str, c);
          break;
        }
    }

  return g_string_free (str, FALSE);
}

gsize
tes_chrome_inflate_head (const guint8 *gz,
                         gsize         gz_len,
                         guint8       *out,
                         gsize         out_len)
{
  z_stream zs = { 0 };
  gsize produced;

  if (inflateInit2 (&zs, 16 + MAX_WBITS) != Z_OK)
    return 0;

  zs.next_in = (Bytef *)gz;
  zs.avail_in = (uInt)MIN (gz_len, G_MAXUINT);
  zs.next_out = out;
  zs.avail_out = (uInt)MIN (out_len, G_MAXUINT);

  /* Z_BUF_ERROR just means the head ran out; keep what came out. */
  inflate (&zs, Z_SYNC_FLUSH);
  produced = zs.total_out;
  inflateEnd (&zs);

  return produced;
}

static guint64
count_newlines (const guint8 *data,
                gsize         len)
{
  const guint8 *p = data;
  const guint8 *end = data + len;
  guint64 n = 0;

  while (p < end && (p = memchr (p, '\n', end - p)))
    {
      n++;
      p++;
    }

  return n;
}

/* Line numbers (1-based) of several byte offsets, in one pass over the
 * file (decompressed if gzip); 0 where the file cannot be read again. */
void
tes_chrome_lines_of_offsets (const char    *path,
                             const guint64 *offsets,
                             guint64       *lines,
                             guint          n)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GInputStream) raw = NULL;
  g_autoptr(GInputStream) stream = NULL;
  g_autofree guint8 *buf = NULL;
  guint8 magic[2] = { 0 };
  guint64 target = 0;
  guint64 pos = 0;
  guint64 count = 0;
  gssize got;

  for (guint i = 0; i < n; i++)
    {
      lines[i] = 0;
      target = MAX (target, offsets[i]);
    }

  if (n == 0 || !(raw = G_INPUT_STREAM (g_file_read (file, NULL, NULL))))
    return;

  got = g_input_stream_read (raw, magic, 2, NULL, NULL);
  g_seekable_seek (G_SEEKABLE (raw), 0, G_SEEK_SET, NULL, NULL);
  if (got == 2 && magic[0] == 0x1f && magic[1] == 0x8b)
    {
      g_autoptr(GZlibDecompressor) dec = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);

      stream = g_converter_input_stream_new (raw, G_CONVERTER (dec));
    }
  else
    stream = g_object_ref (raw);

  buf = g_malloc (1 << 20);

  /* every offset inside [pos, pos + got) gets the count of newlines
   * before it */
  while (pos <= target)
    {
      got = g_input_stream_read (stream, buf, MIN ((guint64)(1 << 20), target - pos + 1), NULL, NULL);
      if (got <= 0)
        break;

      for (guint i = 0; i < n; i++)
        if (offsets[i] >= pos && offsets[i] < pos + (guint64)got)
          lines[i] = count + count_newlines (buf, offsets[i] - pos) + 1;

      count += count_newlines (buf, got);
      pos += got;
    }

  /* an offset at the very end (where a cut file stops) */
  for (guint i = 0; i < n; i++)
    if (lines[i] == 0 && offsets[i] == pos)
      lines[i] = count + 1;
}

guint64
tes_chrome_line_of_offset (const char *path,
                           guint64     offset)
{
  guint64 line = 0;

  tes_chrome_lines_of_offsets (path, &offset, &line, 1);
  return line;
}

/* ---- what the framework flavours share ----------------------------------- */

static int
compare_spans (gconstpointer a,
               gconstpointer b)
{
  const gint64 *x = a, *y = b;

  if (x[0] != y[0])
    return x[0] < y[0] ? -1 : 1;
  return (x[1] > y[1]) - (x[1] < y[1]);
}

gint64
tes_chrome_merge_spans (GArray *spans)
{
  guint n = 0;
  gint64 total = 0;

  g_array_sort (spans, compare_spans);
  for (guint i = 0; i < spans->len; i++)
    {
      gint64 *s = &g_array_index (spans, gint64, 2 * i);
      gint64 *last = n > 0 ? &g_array_index (spans, gint64, 2 * (n - 1)) : NULL;

      if (last != NULL && s[0] <= last[1])
        last[1] = MAX (last[1], s[1]);
      else
        {
          gint64 *dst = &g_array_index (spans, gint64, 2 * n++);

          dst[0] = s[0];
          dst[1] = s[1];
        }
    }
  g_array_set_size (spans, n);
  for (guint i = 0; i < n; i++)
    total += g_array_index (spans, gint64, 2 * i + 1) - g_array_index (spans, gint64, 2 * i);

  return total;
}

/* The span holding @t, as an index: of @n spans, each @stride gint64s
 * starting with its start and end (a step's; a run's), or -1. Spans that
 * come in start order and apart (@sorted: steps, runs) are bisected,
 * others tried in turn. */
gint
tes_chrome_span_at (const gint64 *spans,
                    guint         n,
                    guint         stride,
                    gboolean      sorted,
                    gint64        t)
{
  guint lo = 0, hi = n;

  if (!sorted)
    {
      for (guint i = 0; i < n; i++)
        if (spans[stride * i] <= t && t < spans[stride * i + 1])
          return (gint)i;
      return -1;
    }
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;

      if (spans[stride * mid] <= t)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo > 0 && t < spans[stride * (lo - 1) + 1] ? (gint)lo - 1 : -1;
}

/* Whether @n spans of @stride gint64s come in start order, apart. */
gboolean
tes_chrome_spans_sorted (const gint64 *spans,
                         guint         n,
                         guint         stride)
{
  for (guint i = 1; i < n; i++)
    if (spans[stride * i] < spans[stride * (i - 1) + 1])
      return FALSE;

  return TRUE;
}

char *
tes_chrome_args_dup_string (const char *args,
                            gsize       len,
                            const char *key)
{
  const char *v;
  gsize vl;

  if (args == NULL || len == 0 || !tes_chrome_args_find (args, len, key, &v, &vl) ||
      !tes_chrome_value_is_string (v, vl))
    return NULL;

  return tes_chrome_value_dup_string (v, vl);
}

int
tes_chrome_order_by_first (gint64      x_first,
                           const char *x_name,
                           gint64      y_first,
                           const char *y_name)
{
  if (x_first != y_first)
    return x_first < y_first ? -1 : 1;

  return strcmp (x_name, y_name);
}

double
tes_chrome_thread_cpu (void)
{
  struct timespec cpu;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &cpu);

  return cpu.tv_sec + cpu.tv_nsec / 1e9;
}
