/* tes-poplar-size-importer.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-poplar-size"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "tes-import-error.h"
#include "tes-info.h"
#include "tes-line-reader.h"
#include "tes-poplar-size-importer.h"
#include "tes-text.h"

#include <string.h>

/* `size -A archive.a` on the archive Poplar saves with the engine option
 * target.saveArchive: one ELF member per tile, each printed as
 *
 *   tile0.elf   (ex archive.a):
 *   section           size   addr
 *   .text               21      0
 *   ...
 *   Total              957
 *
 * Every member becomes a row of the tiles table (ipu and tile from its
 * name: ipu<I>_tile<T>.elf, tile<T>.elf) and every section a tile_memory
 * row named as the section, so the sections of a tile add up to the Total
 * the tool printed. */

struct _TesPoplarSizeImporter
{
  TesImporter parent_instance;
};

G_DEFINE_FINAL_TYPE (TesPoplarSizeImporter, tes_poplar_size_importer, TES_TYPE_IMPORTER)

typedef enum
{
  STATE_MEMBER,
  STATE_HEADER,
  STATE_ROWS,
} State;

/* "tile0.elf   (ex archive.a):" or, for a lone ELF file, "tile0.elf  :".
 * Returns the member name; *archive is set when the line names one. */
static char *
parse_member_header (const char  *text,
                     char       **archive)
{
  gsize len = strlen (text);
  const char *ex;
  g_autofree char *name = NULL;

  *archive = NULL;
  if (len < 2 || text[len - 1] != ':')
    return NULL;

  ex = g_strrstr (text, "(ex ");
  if (ex != NULL && len >= 3 && text[len - 2] == ')')
    {
      name = g_strstrip (g_strndup (text, ex - text));
      *archive = g_strstrip (g_strndup (ex + 4, (text + len - 2) - (ex + 4)));
    }
  else
    name = g_strstrip (g_strndup (text, len - 1));

  if (*name == '\0' || strchr (name, ':') != NULL)
    {
      g_clear_pointer (archive, g_free);
      return NULL;
    }

  return g_steal_pointer (&name);
}

static guint
split_fields (const char  *text,
              char       **fields,
              guint        max_fields)
{
  guint n = 0;
  const char *s = text;

  while (*s)
    {
      const char *begin;

      while (tes_is_space (*s))
        s++;
      if (*s == '\0')
        break;
      begin = s;
      while (*s && !tes_is_space (*s))
        s++;
      if (n < max_fields)
        fields[n] = g_strndup (begin, s - begin);
      n++;
    }

  return n;
}

static void
free_fields (char  **fields,
             guint   n)
{
  for (guint i = 0; i < n; i++)
    g_free (fields[i]);
}

/* size prints decimal (-A -d, the default) or hex (-A -x). */
static gboolean
parse_size (const char *text,
            gint64     *out)
{
  guint64 v = 0;
  const char *s = text;
  guint base = 10;

  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    {
      base = 16;
      s += 2;
    }
  if (*s == '\0')
    return FALSE;

  for (; *s; s++)
    {
      int d = base == 16 ? g_ascii_xdigit_value (*s) : g_ascii_digit_value (*s);

      if (d < 0 || v > ((guint64)G_MAXINT64 - (guint64)d) / base)
        return FALSE;
      v = v * base + d;
    }

  *out = (gint64)v;
  return TRUE;
}

/* The number after "prefix" (and an optional '_' or '-'), anywhere in the
 * name, case-insensitively. */
static gboolean
find_number_after (const char *name,
                   const char *prefix,
                   gint64     *out)
{
  g_autofree char *lower = g_ascii_strdown (name, -1);
  gsize plen = strlen (prefix);

  for (const char *s = strstr (lower, prefix); s != NULL; s = strstr (s + 1, prefix))
    {
      const char *d = s + plen;
      gint64 v = 0;
      guint n = 0;

      if (*d == '_' || *d == '-')
        d++;
      while (g_ascii_isdigit (*d) && n < 9)
        {
          v = v * 10 + (*d++ - '0');
          n++;
        }
      if (n > 0 && !g_ascii_isdigit (*d))
        {
          *out = v;
          return TRUE;
        }
    }

  return FALSE;
}

static gboolean
is_header (char  **fields,
           guint   n)
{
  return n == 3 &&
         g_str_equal (fields[0], "section") &&
         g_str_equal (fields[1], "size") &&
         g_str_equal (fields[2], "addr");
}

static guint
tes_poplar_size_importer_sniff (TesImporter  *importer,
                                const guint8 *head,
                                gsize         head_len,
                                const char   *basename)
{
  TesLineReader reader;
  const char *line;
  gsize len;
  gboolean archive = FALSE;
  gboolean member = FALSE;

  if (memchr (head, '\0', head_len) != NULL)
    return 0;

  tes_line_reader_init_for_data (&reader, (const char *)head, head_len);

  while (tes_line_reader_next (&reader, &line, &len))
    {
      g_autofree char *text = g_strstrip (g_strndup (line, MIN (len, 1024)));

      if (*text == '\0')
        continue;

      if (!member)
        {
          g_autofree char *ar = NULL;
          g_autofree char *name = parse_member_header (text, &ar);

          if (name == NULL)
            return 0;
          member = TRUE;
          archive = ar != NULL;
          continue;
        }

      {
        char *fields[3];
        guint n = split_fields (text, fields, 3);
        gboolean header = is_header (fields, n);

        free_fields (fields, MIN (n, 3));
        if (!header)
          return 0;
      }

      return archive ? 95 : 85;
    }

  return 0;
}

typedef struct
{
  char   *name;
  guint   line;
  gint64  ipu;
  gint64  tile;
  gint64  tile_id;
  gint64  sum;
  guint   n_sections;
} Member;

static gboolean
tes_poplar_size_importer_import (TesImporter       *importer,
                                 TesImportContext  *context,
                                 GError           **error)
{
  g_auto(TesLineReader) reader = { 0 };
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *archive = NULL;
  Member member = { 0 };
  State state = STATE_MEMBER;
  guint n_members = 0;
  gint64 grand_total = 0;
  const char *line;
  gsize len;

  if (!tes_line_reader_init (&reader, context->path, error))
    return FALSE;

  while (tes_line_reader_next (&reader, &line, &len))
    {
      g_autofree char *text = NULL;
      char *fields[3] = { NULL, NULL, NULL };
      guint n;

      if (!tes_line_reader_check_utf8 (&reader, context->path, line, len, "a size -A listing", error))
        goto fail;

      text = g_strstrip (g_strndup (line, len));

      if (*text == '\0')
        {
          if (state != STATE_MEMBER)
            {
              tes_import_fail_at_line (error, TES_IMPORT_ERROR_TRUNCATED, context->path, reader.line_no,
                                       _("member '%s' (line %u) ends without its Total line"),
                                       member.name, member.line);
              goto fail;
            }
          continue;
        }

      if (state == STATE_MEMBER)
        {
          g_autofree char *ar = NULL;
          g_autofree char *name = parse_member_header (text, &ar);
          gpointer first;

          if (name == NULL)
            {
              g_autofree char *got = tes_describe_text (text, strlen (text), 60);

              tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, context->path, reader.line_no,
                                       _("expected an archive member line '<member>  (ex <archive>):', got '%s'"),
                                       got);
              goto fail;
            }

          g_free (member.name);
          memset (&member, 0, sizeof member);
          member.name = g_steal_pointer (&name);
          member.line = reader.line_no;

          if (!find_number_after (member.name, "tile", &member.tile))
            {
              tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, context->path, reader.line_no,
                                       _("archive member '%s' names no tile "
                                         "(expected tile<N>.elf or ipu<I>_tile<T>.elf)"),
                                       member.name);
              goto fail;
            }
          if (!find_number_after (member.name, "ipu", &member.ipu))
            member.ipu = 0;

          {
            g_autofree char *id = g_strdup_printf ("%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT,
                                                   member.ipu, member.tile);

            if ((first = g_hash_table_lookup (seen, id)) != NULL)
              {
                tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, context->path, reader.line_no,
                                         _("member '%s' is IPU %" PRId64 " tile %" PRId64
                                           ", already listed on line %u"),
                                         member.name, member.ipu, member.tile, GPOINTER_TO_UINT (first));
                goto fail;
              }
            g_hash_table_insert (seen, g_steal_pointer (&id), GUINT_TO_POINTER (reader.line_no));
          }

          if (archive == NULL && ar != NULL)
            archive = g_strdup (ar);

          member.tile_id = tes_cache_writer_add_tile (context->writer, (int)member.ipu, (int)member.tile, 0, 0);
          state = STATE_HEADER;
          continue;
        }

      n = split_fields (text, fields, 3);

      if (state == STATE_HEADER)
        {
          gboolean header = is_header (fields, n);

          free_fields (fields, MIN (n, 3));
          if (!header)
            {
              g_autofree char *got = tes_describe_text (text, strlen (text), 60);

              tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, context->path, reader.line_no,
                                       _("expected the header 'section size addr', got '%s'"),
                                       got);
              goto fail;
            }
          state = STATE_ROWS;
          continue;
        }

      /* STATE_ROWS */
      if (n >= 1 && g_str_equal (fields[0], "Total"))
        {
          gint64 total;

          if (n != 2 || !parse_size (fields[1], &total))
            {
              g_autofree char *got = tes_describe_text (text, strlen (text), 60);

              free_fields (fields, MIN (n, 3));
              tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, context->path, reader.line_no,
                                       _("expected 'Total <size>', got '%s'"),
                                       got);
              goto fail;
            }
          free_fields (fields, MIN (n, 3));

          if (total != member.sum)
            {
              tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, context->path, reader.line_no,
                                       _("Total %" PRId64 " of member '%s' is not the sum of "
                                         "its %u sections (%" PRId64 ")"),
                                       total, member.name, member.n_sections, member.sum);
              goto fail;
            }

          grand_total += total;
          n_members++;
          state = STATE_MEMBER;
          continue;
        }

      {
        gint64 size;
        gint64 addr;

        if (n != 3)
          {
            g_autofree char *got = tes_describe_text (text, strlen (text), 60);

            free_fields (fields, MIN (n, 3));
            tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, context->path, reader.line_no,
                                     _("expected '<section> <size> <addr>' (3 columns), got %u columns: '%s'"),
                                     n, got);
            goto fail;
          }

        if (!parse_size (fields[1], &size) || !parse_size (fields[2], &addr))
          {
            g_autofree char *got = tes_describe_text (text, strlen (text), 60);

            free_fields (fields, 3);
            tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, context->path, reader.line_no,
                                     _("size and addr must be numbers, got '%s'"),
                                     got);
            goto fail;
          }

        if (member.sum > G_MAXINT64 - size)
          {
            free_fields (fields, 3);
            tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, context->path, reader.line_no,
                                     _("section sizes of member '%s' overflow"),
                                     member.name);
            goto fail;
          }

        tes_cache_writer_add_tile_memory (context->writer, member.tile_id, fields[0], size);
        member.sum += size;
        member.n_sections++;
        free_fields (fields, 3);
      }

      if (!tes_line_reader_tick (&reader, context, 0.9, error))
        goto fail;
    }

  if (state != STATE_MEMBER)
    {
      tes_import_fail_at_line (error, TES_IMPORT_ERROR_TRUNCATED, context->path, reader.line_no,
                               _("the file ends inside member '%s' (line %u), before its Total line"),
                               member.name, member.line);
      goto fail;
    }

  if (n_members == 0)
    {
      tes_import_fail (error, TES_IMPORT_ERROR_EMPTY, context->path, _("no archive members (empty file?)"));
      goto fail;
    }

  if (archive != NULL)
    tes_cache_writer_set_info (context->writer, context->source_id, "archive.name", archive);
  tes_info_set_int (context->writer, context->source_id, "archive.members", n_members);
  tes_info_set_int (context->writer, context->source_id, "archive.total_bytes", grand_total);

  g_free (member.name);
  return TRUE;

fail:
  g_free (member.name);
  return FALSE;
}

static void
tes_poplar_size_importer_class_init (TesPoplarSizeImporterClass *klass)
{
  TesImporterClass *importer_class = TES_IMPORTER_CLASS (klass);

  importer_class->name = "poplar-size-listing";
  importer_class->title = "Graphcore Poplar archive size -A listing";
  importer_class->version = 1;
  importer_class->sniff = tes_poplar_size_importer_sniff;
  importer_class->import = tes_poplar_size_importer_import;
}

static void
tes_poplar_size_importer_init (TesPoplarSizeImporter *self)
{
}
