/* tes-tensorrt-records.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-tensorrt"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tes-import-error.h"
#include "tes-json.h"
#include "tes-progress.h"
#include "tes-tensorrt-records.h"
#include "tes-text.h"

#include <inttypes.h>
#include <string.h>

static void
member_clear (gpointer data)
{
  TesTrtMember *member = data;

  g_free (member->key);
  g_free (member->value);
}

void
tes_trt_records_init (TesTrtRecords *records,
                      const char    *path,
                      const char    *data,
                      gsize          len)
{
  memset (records, 0, sizeof *records);
  records->path = path;
  records->data = data;
  records->len = len;
  records->members = g_array_new (FALSE, TRUE, sizeof (TesTrtMember));
  g_array_set_clear_func (records->members, member_clear);
  records->buf = g_string_new (NULL);

  /* a UTF-8 byte order mark, as editors on Windows write */
  if (len >= 3 && memcmp (data, "\xef\xbb\xbf", 3) == 0)
    records->pos = 3;
}

void
tes_trt_records_clear (TesTrtRecords *records)
{
  g_clear_pointer (&records->members, g_array_unref);
  if (records->buf)
    g_string_free (g_steal_pointer (&records->buf), TRUE);
}

/* "PATH:LINE: record N (byte B): …", the line and byte where reading
 * stopped. */
gboolean
tes_trt_records_fail (TesTrtRecords  *records,
                      GError        **error,
                      int             code,
                      const char     *format,
                      ...)
{
  g_autofree char *message = NULL;
  guint line = 1;
  gsize pos = MIN (records->pos, records->len);
  va_list args;

  for (gsize i = 0; i < pos; i++)
    line += records->data[i] == '\n';

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  if (records->index > 0)
    g_set_error (error, TES_IMPORT_ERROR, code, _("%s:%u: record %u (byte %" PRIu64 "): %s"),
                 records->path, line, records->index, (guint64)pos, message);
  else
    g_set_error (error, TES_IMPORT_ERROR, code, _("%s:%u: byte %" PRIu64 ": %s"),
                 records->path, line, (guint64)pos, message);

  return FALSE;
}

static void
skip_space (TesTrtRecords *r)
{
  while (r->pos < r->len)
    {
      char c = r->data[r->pos];

      if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
        break;
      r->pos++;
    }
}

static gboolean
fail_end (TesTrtRecords  *r,
          GError        **error)
{
  return tes_trt_records_fail (r, error, TES_IMPORT_ERROR_TRUNCATED,
                               _("the file ends inside the array (cut short?)"));
}

static gboolean
fail_got (TesTrtRecords  *r,
          GError        **error,
          const char     *expected)
{
  g_autofree char *got = tes_describe_text (r->data + r->pos, MIN (r->len - r->pos, 40), 20);

  return tes_trt_records_fail (r, error, TES_IMPORT_ERROR_INVALID, _("expected %s, got '%s'"), expected, got);
}

static int
hex_digit (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

static gboolean
read_hex4 (TesTrtRecords *r,
           gunichar      *out)
{
  *out = 0;
  if (r->len - r->pos < 4)
    return FALSE;
  for (guint i = 0; i < 4; i++)
    {
      int d = hex_digit (r->data[r->pos + i]);

      if (d < 0)
        return FALSE;
      *out = *out * 16 + d;
    }
  r->pos += 4;
  return TRUE;
}

static gboolean fail_string (TesTrtRecords  *r,
                             GError        **error,
                             const char     *key,
                             const char     *format,
                             ...) G_GNUC_PRINTF (4, 5);

/* "the value of "name": …" or "a key: …", made only on an error (a
 * translation is slow to look up for every string). */
static gboolean
fail_string (TesTrtRecords  *r,
             GError        **error,
             const char     *key,
             const char     *format,
             ...)
{
  g_autofree char *message = NULL;
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  what = key ? g_strdup_printf (_("the value of \"%s\""), key) : g_strdup (_("a key"));

  return tes_trt_records_fail (r, error, TES_IMPORT_ERROR_INVALID, "%s: %s", what, message);
}

/* Whether a quote before @p closes a string: what follows it (past
 * blanks) is what may follow a key or a value. */
static gboolean
string_ends (TesTrtRecords *r,
             gsize          p)
{
  while (p < r->len && (r->data[p] == ' ' || r->data[p] == '\t' || r->data[p] == '\n' || r->data[p] == '\r'))
    p++;

  return p >= r->len || r->data[p] == ',' || r->data[p] == '}' || r->data[p] == ':' || r->data[p] == ']';
}

/* A JSON string at r->pos ('"') into r->buf, decoded: @key's value, or a
 * key when @key is NULL. */
static gboolean
read_string (TesTrtRecords  *r,
             const char     *key,
             GError        **error)
{
  gsize start = ++r->pos;

  g_string_truncate (r->buf, 0);

  for (;;)
    {
      gsize run = r->pos;
      char c;

      while (r->pos < r->len && r->data[r->pos] != '"' && r->data[r->pos] != '\\' &&
             (guchar)r->data[r->pos] >= 0x20)
        r->pos++;
      g_string_append_len (r->buf, r->data + run, r->pos - run);

      if (r->buf->len > TES_TRT_MAX_STRING)
        {
          r->pos = start - 1;
          return fail_string (r, error, key, _("longer than %u bytes"), TES_TRT_MAX_STRING);
        }
      if (r->pos >= r->len)
        return fail_end (r, error);

      c = r->data[r->pos];
      if (c == '"' && string_ends (r, r->pos + 1))
        {
          r->pos++;
          break;
        }
      if (c == '"')
        {
          /* trtexec writes layer names unescaped: a quote inside one */
          g_string_append_c (r->buf, c);
          r->pos++;
          continue;
        }
      if ((guchar)c < 0x20)
        return fail_string (r, error, key, _("control character 0x%02x"), (guchar)c);

      /* an escape */
      if (++r->pos >= r->len)
        return fail_end (r, error);
      c = r->data[r->pos++];
      switch (c)
        {
        case '"': case '\\': case '/':
          g_string_append_c (r->buf, c);
          break;
        case 'b': g_string_append_c (r->buf, '\b'); break;
        case 'f': g_string_append_c (r->buf, '\f'); break;
        case 'n': g_string_append_c (r->buf, '\n'); break;
        case 'r': g_string_append_c (r->buf, '\r'); break;
        case 't': g_string_append_c (r->buf, '\t'); break;
        case 'u':
          {
            gunichar u, low;

            if (!read_hex4 (r, &u))
              return fail_string (r, error, key, _("bad \\u escape"));
            if (u >= 0xd800 && u < 0xdc00)
              {
                if (r->len - r->pos < 2 || r->data[r->pos] != '\\' || r->data[r->pos + 1] != 'u')
                  return fail_string (r, error, key, _("lone surrogate \\u%04X"), u);
                r->pos += 2;
                if (!read_hex4 (r, &low) || low < 0xdc00 || low > 0xdfff)
                  return fail_string (r, error, key, _("bad surrogate pair"));
                u = 0x10000 + ((u - 0xd800) << 10) + (low - 0xdc00);
              }
            else if ((u >= 0xdc00 && u < 0xe000) || u == 0)
              return fail_string (r, error, key, _("\\u%04X is not a character a name may hold"), u);
            g_string_append_unichar (r->buf, u);
          }
          break;
        default:
          /* an unescaped backslash of a layer name, as trtexec writes them */
          g_string_append_c (r->buf, '\\');
          r->pos--;
          break;
        }
    }

  if (!g_utf8_validate_len (r->buf->str, r->buf->len, NULL))
    {
      r->pos = start - 1;
      return fail_string (r, error, key, _("not valid UTF-8"));
    }

  return TRUE;
}

static gsize
span_digits (TesTrtRecords *r,
             gsize          p)
{
  while (p < r->len && g_ascii_isdigit (r->data[p]))
    p++;
  return p;
}

/* A JSON number's text at r->pos; NaN and infinities, which a C++ stream
 * prints as "nan" and "inf", get an error of their own. */
static gboolean
read_number (TesTrtRecords  *r,
             const char     *key,
             gsize          *len,
             GError        **error)
{
  gsize p = r->pos, q;

  if (p < r->len && r->data[p] == '-')
    p++;

  if (p < r->len && (g_ascii_tolower (r->data[p]) == 'n' || g_ascii_tolower (r->data[p]) == 'i'))
    {
      g_autofree char *got = NULL;

      q = p;
      while (q < r->len && g_ascii_isalpha (r->data[q]))
        q++;
      got = g_strndup (r->data + r->pos, q - r->pos);
      if (g_ascii_strcasecmp (got + (got[0] == '-'), "nan") == 0 ||
          g_ascii_strncasecmp (got + (got[0] == '-'), "inf", 3) == 0)
        return tes_trt_records_fail (r, error, TES_IMPORT_ERROR_INVALID,
                                     _("\"%s\" is %s, which is not a number JSON allows"), key, got);
      return fail_got (r, error, _("a value"));
    }

  q = span_digits (r, p);
  if (q == p || (r->data[p] == '0' && q > p + 1))
    return fail_got (r, error, _("a number"));
  p = q;
  if (p < r->len && r->data[p] == '.')
    {
      q = span_digits (r, p + 1);
      if (q == p + 1)
        return fail_got (r, error, _("a number"));
      p = q;
    }
  if (p < r->len && (r->data[p] == 'e' || r->data[p] == 'E'))
    {
      p++;
      if (p < r->len && (r->data[p] == '+' || r->data[p] == '-'))
        p++;
      q = span_digits (r, p);
      if (q == p)
        return fail_got (r, error, _("a number"));
      p = q;
    }
  if (p >= r->len)
    return fail_end (r, error);

  *len = p - r->pos;
  return TRUE;
}

static gboolean
read_value (TesTrtRecords  *r,
            TesTrtMember   *member,
            GError        **error)
{
  static const char *literals[] = { "true", "false", "null" };
  char c;

  if (r->pos >= r->len)
    return fail_end (r, error);

  c = r->data[r->pos];
  if (c == '"')
    {
      if (!read_string (r, member->key, error))
        return FALSE;
      member->kind = TES_TRT_STRING;
      member->len = r->buf->len;
      member->value = g_strndup (r->buf->str, r->buf->len);
      return TRUE;
    }
  if (c == '{' || c == '[')
    return tes_trt_records_fail (r, error, TES_IMPORT_ERROR_INVALID,
                                 _("\"%s\" holds an %s; trtexec writes strings and numbers"),
                                 member->key, c == '{' ? _("object") : _("array"));

  for (guint i = 0; i < G_N_ELEMENTS (literals); i++)
    {
      gsize n = strlen (literals[i]);

      if (r->len - r->pos >= n && memcmp (r->data + r->pos, literals[i], n) == 0 &&
          (r->len - r->pos == n || !g_ascii_isalnum (r->data[r->pos + n])))
        {
          member->kind = TES_TRT_LITERAL;
          member->value = g_strdup (literals[i]);
          member->len = n;
          r->pos += n;
          return TRUE;
        }
    }

  if (!read_number (r, member->key, &member->len, error))
    return FALSE;
  member->kind = TES_TRT_NUMBER;
  member->value = g_strndup (r->data + r->pos, member->len);
  r->pos += member->len;
  return TRUE;
}

static gboolean
at_array_end (TesTrtRecords  *r,
              GError        **error)
{
  r->pos++;
  skip_space (r);
  if (r->pos < r->len)
    return fail_got (r, error, _("nothing after the array's ']'"));
  return TRUE;
}

/* An error was set: reading stops. */
static inline TesTrtNext
stopped (gboolean failed)
{
  return TES_TRT_ERROR;
}

TesTrtNext
tes_trt_records_next (TesTrtRecords  *r,
                      GError        **error)
{
  g_array_set_size (r->members, 0);

  skip_space (r);
  if (!r->started)
    {
      if (r->pos >= r->len)
        return stopped (tes_trt_records_fail (r, error, TES_IMPORT_ERROR_EMPTY, _("empty file")));
      if (r->data[r->pos] != '[')
        return stopped (fail_got (r, error, _("'[' (a JSON array)")));
      r->started = TRUE;
      r->pos++;
      skip_space (r);
      if (r->pos < r->len && r->data[r->pos] == ']')
        return at_array_end (r, error) ? TES_TRT_END : TES_TRT_ERROR;
    }
  else
    {
      if (r->pos >= r->len)
        return stopped (fail_end (r, error));
      if (r->data[r->pos] == ']')
        return at_array_end (r, error) ? TES_TRT_END : TES_TRT_ERROR;
      if (r->data[r->pos] != ',')
        return stopped (fail_got (r, error, _("',' or ']' after a record")));
      r->pos++;
      skip_space (r);
    }

  if (r->pos >= r->len)
    return stopped (fail_end (r, error));

  r->index++;
  r->offset = r->pos;
  if (r->data[r->pos] != '{')
    return stopped (fail_got (r, error, _("'{' (a record)")));
  r->pos++;
  skip_space (r);
  if (r->pos < r->len && r->data[r->pos] == '}')
    {
      r->pos++;
      return TES_TRT_RECORD;
    }

  for (;;)
    {
      TesTrtMember member = { 0 };

      skip_space (r);
      if (r->pos >= r->len)
        return stopped (fail_end (r, error));
      if (r->data[r->pos] != '"')
        return stopped (fail_got (r, error, _("a key in quotes")));
      if (!read_string (r, NULL, error))
        return TES_TRT_ERROR;
      if (tes_trt_records_lookup (r, r->buf->str))
        {
          r->pos--;
          return stopped (tes_trt_records_fail (r, error, TES_IMPORT_ERROR_INVALID, _("key \"%s\" given twice"), r->buf->str));
        }
      member.key = g_strndup (r->buf->str, r->buf->len);
      skip_space (r);
      if (r->pos >= r->len || r->data[r->pos] != ':')
        {
          g_free (member.key);
          return stopped (r->pos >= r->len ? fail_end (r, error) : fail_got (r, error, _("':'")));
        }
      r->pos++;
      skip_space (r);
      if (!read_value (r, &member, error))
        {
          member_clear (&member);
          return TES_TRT_ERROR;
        }
      g_array_append_val (r->members, member);

      skip_space (r);
      if (r->pos >= r->len)
        return stopped (fail_end (r, error));
      if (r->data[r->pos] == '}')
        {
          r->pos++;
          return TES_TRT_RECORD;
        }
      if (r->data[r->pos] != ',')
        return stopped (fail_got (r, error, _("',' or '}' in a record")));
      r->pos++;
    }
}

const TesTrtMember *
tes_trt_records_lookup (TesTrtRecords *records,
                        const char    *key)
{
  for (guint i = 0; i < records->members->len; i++)
    {
      const TesTrtMember *member = &g_array_index (records->members, TesTrtMember, i);

      if (strcmp (member->key, key) == 0)
        return member;
    }

  return NULL;
}

/* The member @key as a number: an error when it is something else, or
 * when it is @required and missing. */
gboolean
tes_trt_records_number (TesTrtRecords       *records,
                        const char          *key,
                        gboolean             required,
                        const TesTrtMember **member,
                        GError             **error)
{
  *member = tes_trt_records_lookup (records, key);

  if (*member == NULL && !required)
    return TRUE;
  if (*member == NULL)
    {
      records->pos = records->offset;
      return tes_trt_records_fail (records, error, TES_IMPORT_ERROR_INVALID, _("no \"%s\""), key);
    }

  if ((*member)->kind != TES_TRT_NUMBER)
    {
      g_autofree char *got = tes_describe_text ((*member)->value, (*member)->len, 30);

      records->pos = records->offset;
      return tes_trt_records_fail (records, error, TES_IMPORT_ERROR_INVALID,
                                   _("\"%s\" is %s '%s', not a number"), key,
                                   (*member)->kind == TES_TRT_STRING ? _("the string") : _("the literal"), got);
    }

  return TRUE;
}

/* How sure the head is one of these files: an array whose first record
 * (after a leading count record, for a profile) holds @keys. Each record
 * is one line, so the first two lines tell. */
guint
tes_trt_sniff (const guint8       *head,
               gsize               head_len,
               const char * const *keys,
               guint               n_keys)
{
  const char *p = (const char *)head;
  const char *end = p + head_len;
  const char *line_end;
  guint found = 0;

  if (head_len >= 3 && memcmp (p, "\xef\xbb\xbf", 3) == 0)
    p += 3;
  while (p < end && g_ascii_isspace (*p))
    p++;
  if (p >= end || *p != '[')
    return 0;
  p++;
  while (p < end && g_ascii_isspace (*p))
    p++;
  if (p >= end || *p != '{')
    return 0;

  /* the first record's line, and the next one's */
  line_end = memchr (p, '\n', end - p);
  if (line_end && line_end + 1 < end)
    line_end = memchr (line_end + 1, '\n', end - line_end - 1);
  if (!line_end)
    line_end = end;

  for (guint i = 0; i < n_keys; i++)
    {
      g_autofree char *quoted = g_strdup_printf ("\"%s\"", keys[i]);

      if (g_strstr_len (p, line_end - p, quoted))
        found++;
    }

  return found;
}

/* Every 1024 records: progress by bytes read, and a cancelled import
 * stops. */
gboolean
tes_trt_records_tick (TesTrtRecords     *records,
                      TesImportContext  *context,
                      GError           **error)
{
  if ((records->index & 1023) != 0)
    return TRUE;
  if (context->progress != NULL && records->len > 0)
    tes_progress_update (context->progress, 0.9 * (double)records->pos / records->len, NULL);

  return !g_cancellable_set_error_if_cancelled (context->cancellable, error);
}

/* The record's members but @skip as a JSON object, values as printed. */
void
tes_trt_append_args (GString            *json,
                     TesTrtRecords      *records,
                     const char * const *skip)
{
  gboolean first = TRUE;

  g_string_append_c (json, '{');
  for (guint i = 0; i < records->members->len; i++)
    {
      const TesTrtMember *member = &g_array_index (records->members, TesTrtMember, i);

      if (skip && g_strv_contains (skip, member->key))
        continue;
      if (!first)
        g_string_append_c (json, ',');
      first = FALSE;
      tes_json_append_string (json, member->key, -1);
      g_string_append_c (json, ':');
      if (member->kind == TES_TRT_STRING)
        tes_json_append_string (json, member->value, member->len);
      else
        g_string_append_len (json, member->value, member->len);
    }
  g_string_append_c (json, '}');
}
