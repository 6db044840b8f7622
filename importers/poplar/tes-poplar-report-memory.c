/* tes-poplar-report-memory.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-poplar-report"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "tes-poplar-report-private.h"
#include "tes-text.h"

#include <string.h>

/* Memory Usage (of the graph, or of one tile), and the By Tile (Excluding
 * Gaps) histogram printed in it or on its own. Newer SDKs print it for all
 * IPUs and then per IPU ("IPU 1:"), split the data types into those Not
 * Overlapped and those Overlapped, and list Vertex Code by type. */

#define TES_POPLAR_AFTER_OVERLAPPING "Total After Overlapping"

static gboolean
parse_bytes (TesPoplarReportParser  *p,
             const char             *label,
             const char             *value,
             gint64                 *bytes,
             char                  **norm_out,
             GError                **error)
{
  g_autoptr(GString) norm = g_string_new (NULL);
  const char *end;

  if (!tes_poplar_scan_number (value, &end, norm) || !tes_poplar_is_integer (norm->str) ||
      !g_str_equal (tes_poplar_skip_spaces (end), "B"))
    {
      g_autofree char *got = tes_describe_text (value, strlen (value), 60);

      return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->path, p->line_no,
                                      _("expected a size in bytes ('<number> B') for '%s', got '%s'"), label, got);
    }

  *bytes = g_ascii_strtoll (norm->str, NULL, 10);
  if (norm_out != NULL)
    *norm_out = g_string_free (g_steal_pointer (&norm), FALSE);

  return TRUE;
}

gboolean
tes_poplar_report_finish_histogram (TesPoplarReportParser  *p,
                                    GError                **error)
{
  g_autofree char *bins_key = g_strdup_printf ("%s.bins", p->prefix);
  g_autofree char *tiles_key = g_strdup_printf ("%s.tiles", p->prefix);
  g_autofree char *bins = g_strdup_printf ("%u", p->n_bins);
  g_autofree char *tiles = g_strdup_printf ("%" G_GINT64_FORMAT, p->bin_tiles);

  return tes_poplar_report_put_info (p, bins_key, bins, error) &&
         tes_poplar_report_put_info (p, tiles_key, tiles, error);
}

static gboolean
add_memory_entry (TesPoplarReportParser  *p,
                  const char             *name,
                  const char             *value,
                  GError                **error)
{
  g_autofree char *norm = NULL;
  g_autofree char *key = NULL;
  gint64 bytes = 0;

  if (!parse_bytes (p, name, value, &bytes, &norm, error))
    return FALSE;

  if (p->subsection == NULL)
    {
      g_autofree char *slug = tes_poplar_slugify (name);

      key = g_strdup_printf ("%s.%s", p->prefix, slug);
    }
  else
    key = g_strdup_printf ("%s.%s.%s", p->prefix, p->subsection, name);

  /* A tile's data types are its rows in the per-tile memory table: in
   * the newer layout those not overlapped, and the overlapped ones as the
   * one figure they come to after overlapping, so that the rows add up to
   * the tile's bytes. */
  if (p->tile != NULL && !g_str_equal (name, "total") &&
      (g_strcmp0 (p->subsection, "data_type") == 0 ||
       g_strcmp0 (p->subsection, "data_type.not_overlapped") == 0 ||
       g_str_equal (name, TES_POPLAR_AFTER_OVERLAPPING)))
    {
      TesPoplarCategory cat = { g_strdup (name), bytes };

      for (guint i = 0; i < p->tile->categories->len; i++)
        if (g_str_equal (g_array_index (p->tile->categories, TesPoplarCategory, i).name, name))
          {
            g_free (cat.name);
            return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->path, p->line_no,
                                            _("data type '%s' is printed twice for tile %" PRId64),
                                            name, p->tile->tile);
          }

      g_array_append_val (p->tile->categories, cat);
      return TRUE;
    }

  return tes_poplar_report_put_printed (p, key, norm, value, error);
}

static gboolean
set_subsection (TesPoplarReportParser  *p,
                const char             *header,
                GError                **error)
{
  const char *sub = NULL;
  g_autofree char *slug = NULL;

  gboolean vertex_data = g_str_has_prefix (header, "Vertex Data");
  gboolean vertex_code = g_str_has_prefix (header, "Vertex Code");

  if (g_ascii_strcasecmp (header, "Total") == 0 ||
      g_ascii_strcasecmp (header, "Excluding Gaps") == 0)
    {
      p->in_vertex_data = p->in_vertex_code = FALSE;
    }
  else if (g_ascii_strcasecmp (header, "By Memory Region") == 0)
    {
      p->in_vertex_data = p->in_vertex_code = FALSE;
      sub = "region";
    }
  else if (g_ascii_strcasecmp (header, "By Data Type") == 0)
    {
      p->in_vertex_data = p->in_vertex_code = FALSE;
      sub = "data_type";
    }
  else if (vertex_data || vertex_code)
    {
      const char *what = vertex_data ? "vertex_data" : "vertex_code";

      const char *open = strchr (header, '(');
      g_autoptr(GString) norm = g_string_new (NULL);
      g_autofree char *key = NULL;
      g_autofree char *printed = NULL;
      const char *end;

      if (open != NULL)
        {
          if (!tes_poplar_scan_number (open + 1, &end, norm) || !tes_poplar_is_integer (norm->str) ||
              !g_str_equal (tes_poplar_skip_spaces (end), "B)"))
            {
              g_autofree char *got = tes_describe_text (header, strlen (header), 60);

              return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->path, p->line_no,
                                              _("expected '%s (<bytes> B):', got '%s:'"),
                                              vertex_data ? "Vertex Data" : "Vertex Code", got);
            }
          printed = g_strndup (open + 1, strlen (open + 1) - 1);
          key = g_strdup_printf ("%s.%s", p->prefix, what);
          if (!tes_poplar_report_put_printed (p, key, norm->str, printed, error))
            return FALSE;
        }
      p->in_vertex_data = vertex_data;
      p->in_vertex_code = vertex_code;
      sub = what;
    }
  else if (g_ascii_strcasecmp (header, "By Category") == 0)
    sub = p->in_vertex_data ? "vertex_data.category" : p->in_vertex_code ? "vertex_code.category" : "category";
  else if (g_ascii_strcasecmp (header, "By Type") == 0)
    sub = p->in_vertex_data ? "vertex_data.type" : p->in_vertex_code ? "vertex_code.type" : "type";
  else
    {
      p->in_vertex_data = p->in_vertex_code = FALSE;
      sub = slug = tes_poplar_slugify (header);
    }

  g_free (p->subsection);
  p->subsection = g_strdup (sub);

  return TRUE;
}

/* "poprand::SetSeedSupervisor      34,048 B": a name, then a size. */
static gboolean
split_named_size (const char  *text,
                  char       **name,
                  char       **value)
{
  gsize len = strlen (text);
  gsize i;

  if (len < 3 || text[len - 1] != 'B')
    return FALSE;

  i = len - 1;
  while (i > 0 && tes_is_space (text[i - 1]))
    i--;
  while (i > 0 && (g_ascii_isdigit (text[i - 1]) || text[i - 1] == ',' || text[i - 1] == '.'))
    i--;
  if (i == 0 || !tes_is_space (text[i - 1]) || !g_ascii_isdigit (text[i]))
    return FALSE;

  *value = g_strdup (text + i);
  *name = g_strstrip (g_strndup (text, i));
  return **name != '\0';
}

/* "IPU 1:" starts that IPU's block, "Total for all IPUs:" the whole
 * target's: the keys of what follows are memory.ipu.1.* or memory.*. */
static void
set_memory_ipu (TesPoplarReportParser *p,
                gint64                 ipu)
{
  g_free (p->prefix);
  p->prefix = ipu < 0 ? g_strdup (p->memory_base)
                      : g_strdup_printf ("%s.ipu.%" G_GINT64_FORMAT, p->memory_base, ipu);
  p->memory_ipu = ipu;
  p->in_vertex_data = p->in_vertex_code = FALSE;
  g_clear_pointer (&p->subsection, g_free);
}

/* "Total:" closes a list with its sum: the regions' is the bytes
 * excluding gaps; the others are kept as <list>.total. */
static gboolean
add_total (TesPoplarReportParser  *p,
           const char             *label,
           const char             *value,
           GError                 **error)
{
  g_autofree char *saved = NULL;
  gint64 bytes;
  gboolean ok;

  /* checked here, so that an error names the label as printed */
  if (!parse_bytes (p, label, value, &bytes, NULL, error))
    return FALSE;

  saved = g_steal_pointer (&p->subsection);
  if (g_strcmp0 (saved, "region") == 0)
    ok = add_memory_entry (p, "Excluding Gaps", value, error);
  else if (g_ascii_strcasecmp (label, TES_POPLAR_AFTER_OVERLAPPING) == 0)
    {
      p->subsection = g_strdup ("data_type");
      ok = add_memory_entry (p, p->tile != NULL ? TES_POPLAR_AFTER_OVERLAPPING : "total_after_overlapping",
                             value, error);
      g_clear_pointer (&p->subsection, g_free);
    }
  else
    {
      p->subsection = g_strdup (saved);
      ok = add_memory_entry (p, p->subsection != NULL ? "total" : label, value, error);
      g_clear_pointer (&p->subsection, g_free);
    }

  p->subsection = g_steal_pointer (&saved);
  return ok;
}

/* "poplin::ConvPartial1x1Out<float,float,true,false> (asm)   142,336 B":
 * the vertex type as printed, with the language its code is written in,
 * which is also kept alone (<key>.language). */
static gboolean
add_vertex_code (TesPoplarReportParser  *p,
                 const char             *name,
                 const char             *size,
                 GError                 **error)
{
  gsize len = strlen (name);
  const char *open = strrchr (name, '(');
  g_autofree char *language = NULL;
  g_autofree char *key = NULL;

  if (!add_memory_entry (p, name, size, error))
    return FALSE;
  if (open == NULL || open == name || name[len - 1] != ')')
    return TRUE;

  language = g_strndup (open + 1, name + len - 1 - (open + 1));
  key = g_strdup_printf ("%s.%s.%s.language", p->prefix, p->subsection, name);
  return tes_poplar_report_put_info (p, key, language, error);
}

gboolean
tes_poplar_report_memory_line (TesPoplarReportParser  *p,
                               const char             *text,
                               GError                **error)
{
  g_autofree char *label = NULL;
  g_autofree char *name = NULL;
  g_autofree char *size = NULL;
  const char *value;
  gint64 ipu;

  if (p->tile == NULL && p->memory_base != NULL)
    {
      if (g_ascii_strcasecmp (text, "Total for all IPUs:") == 0)
        {
          set_memory_ipu (p, -1);
          return TRUE;
        }
      if (tes_poplar_parse_ipu_header (text, &ipu))
        {
          if (ipu >= 4096)
            return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->path, p->line_no,
                                            _("IPU %" PRId64 " is beyond what Tessera accepts (4096 IPUs)"), ipu);
          set_memory_ipu (p, ipu);
          return TRUE;
        }
    }

  /* The data types of the newer layout, in two lists */
  if (p->subsection != NULL && g_str_has_prefix (p->subsection, "data_type") &&
      (g_ascii_strcasecmp (text, "Not Overlapped") == 0 || g_ascii_strcasecmp (text, "Overlapped") == 0))
    {
      g_free (p->subsection);
      p->subsection = g_ascii_strcasecmp (text, "Overlapped") == 0 ? g_strdup ("data_type.overlapped")
                                                                   : g_strdup ("data_type.not_overlapped");
      return TRUE;
    }

  if (tes_poplar_split_kv (text, &label, &value))
    {
      if (*value == '\0')
        return set_subsection (p, label, error);

      if (g_ascii_strcasecmp (label, "Including Gaps") == 0 ||
          g_ascii_strcasecmp (label, "Excluding Gaps") == 0)
        {
          g_autofree char *saved = g_steal_pointer (&p->subsection);
          gboolean ok = add_memory_entry (p, label, value, error);

          p->subsection = g_steal_pointer (&saved);
          return ok;
        }

      if (g_ascii_strcasecmp (label, "Total") == 0 ||
          g_ascii_strcasecmp (label, TES_POPLAR_AFTER_OVERLAPPING) == 0)
        return add_total (p, label, value, error);

      return add_memory_entry (p, label, value, error);
    }

  if (p->subsection != NULL && split_named_size (text, &name, &size))
    {
      if (g_str_equal (p->subsection, "vertex_code.type"))
        return add_vertex_code (p, name, size, error);
      return add_memory_entry (p, name, size, error);
    }

  {
    g_autofree char *got = tes_describe_text (text, strlen (text), 60);

    return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->path, p->line_no,
                                    _("expected '<label>: <bytes> B' or '<name> <bytes> B' in Memory Usage, got '%s'"), got);
  }
}

/* ---- By Tile (Excluding Gaps) -------------------------------------------- */

/* "<from> - <to> <bar> <count>", the range in KB. */
static gboolean
parse_bin_row (const char *text,
               gint64     *from_kb,
               gint64     *to_kb,
               gint64     *count)
{
  g_autoptr(GString) norm = g_string_new (NULL);
  const char *s = text;

  if (!tes_poplar_scan_number (s, &s, norm) || !tes_poplar_is_integer (norm->str))
    return FALSE;
  *from_kb = g_ascii_strtoll (norm->str, NULL, 10);
  s = tes_poplar_skip_spaces (s);
  if (*s++ != '-')
    return FALSE;
  s = tes_poplar_skip_spaces (s);
  g_string_truncate (norm, 0);
  if (!tes_poplar_scan_number (s, &s, norm) || !tes_poplar_is_integer (norm->str))
    return FALSE;
  *to_kb = g_ascii_strtoll (norm->str, NULL, 10);
  if (!tes_is_space (*s))
    return FALSE;
  s = tes_poplar_skip_spaces (s);
  while (*s == '*')
    s++;
  s = tes_poplar_skip_spaces (s);
  g_string_truncate (norm, 0);
  if (!tes_poplar_scan_number (s, &s, norm) || !tes_poplar_is_integer (norm->str) || *s != '\0')
    return FALSE;

  *count = g_ascii_strtoll (norm->str, NULL, 10);
  return TRUE;
}

/* "49,184 (48.0 K) on tile 0" */
static gboolean
handle_maximum (TesPoplarReportParser  *p,
                const char             *label,
                const char             *value,
                GError                **error)
{
  g_autoptr(GString) bytes = g_string_new (NULL);
  g_autoptr(GString) k = g_string_new (NULL);
  g_autoptr(GString) tile = g_string_new (NULL);
  g_autofree char *slug = tes_poplar_slugify (label);
  g_autofree char *key = g_strdup_printf ("%s.%s", p->prefix, slug);
  const char *s = value;

  if (!tes_poplar_scan_number (s, &s, bytes) || !tes_poplar_is_integer (bytes->str))
    goto bad;
  s = tes_poplar_skip_spaces (s);
  if (*s == '(')
    {
      s = tes_poplar_skip_spaces (s + 1);
      if (!tes_poplar_scan_number (s, &s, k))
        goto bad;
      s = tes_poplar_skip_spaces (s);
      if (*s == 'K')
        s++;
      if (*s++ != ')')
        goto bad;
      s = tes_poplar_skip_spaces (s);
    }
  if (g_str_has_prefix (s, "on tile"))
    {
      s = tes_poplar_skip_spaces (s + strlen ("on tile"));
      if (!tes_poplar_scan_number (s, &s, tile) || !tes_poplar_is_integer (tile->str))
        goto bad;
    }
  if (*tes_poplar_skip_spaces (s) != '\0')
    goto bad;

  if (!tes_poplar_report_put_printed (p, key, bytes->str, value, error))
    return FALSE;
  if (k->len > 0)
    {
      g_autofree char *k_key = g_strconcat (key, ".k", NULL);

      if (!tes_poplar_report_put_info (p, k_key, k->str, error))
        return FALSE;
    }
  if (tile->len > 0)
    {
      g_autofree char *tile_key = g_strconcat (key, ".tile", NULL);

      if (!tes_poplar_report_put_info (p, tile_key, tile->str, error))
        return FALSE;
    }

  return TRUE;

bad:
  {
    g_autofree char *got = tes_describe_text (value, strlen (value), 60);

    return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->path, p->line_no,
                                    _("expected '<bytes> (<KB> K) on tile <N>' after '%s:', got '%s'"), label, got);
  }
}

gboolean
tes_poplar_report_histogram_line (TesPoplarReportParser  *p,
                                  const char             *text,
                                  guint                   indent,
                                  GError                **error)
{
  g_autofree char *label = NULL;
  const char *value;
  gint64 from_kb, to_kb, count;

  p->last_elided = FALSE;

  if (g_str_has_prefix (text, "Range ("))
    {
      g_autofree char *key = g_strdup_printf ("%s.header", p->prefix);

      p->bin_indent = indent;
      return tes_poplar_report_put_info (p, key, text, error);
    }

  if (g_str_has_suffix (text, "tile(s) out of memory"))
    {
      g_autoptr(GString) norm = g_string_new (NULL);
      g_autofree char *key = g_strdup_printf ("%s.tiles_out_of_memory", p->prefix);
      g_autofree char *printed = NULL;
      const char *end;

      if (!tes_poplar_scan_number (text, &end, norm) || !tes_poplar_is_integer (norm->str) ||
          !g_str_equal (tes_poplar_skip_spaces (end), "tile(s) out of memory"))
        return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->path, p->line_no,
                                        _("expected '<N> tile(s) out of memory'"));

      printed = g_strndup (text, end - text);
      return tes_poplar_report_put_printed (p, key, norm->str, printed, error);
    }

  if (g_str_has_prefix (text, "Maximum") && tes_poplar_split_kv (text, &label, &value) && *value != '\0')
    {
      p->saw_maximum = TRUE;
      return handle_maximum (p, label, value, error);
    }

  if (g_ascii_isdigit (*text))
    {
      g_autofree char *key = NULL;
      g_autofree char *row = NULL;
      guint pad = p->bin_indent != G_MAXUINT && indent > p->bin_indent ? indent - p->bin_indent : 0;

      if (!parse_bin_row (text, &from_kb, &to_kb, &count))
        {
          g_autofree char *got = tes_describe_text (text, strlen (text), 60);

          return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->path, p->line_no,
                                          _("expected a histogram row '<from> - <to> <bar> <count>', got '%s'"), got);
        }
      if (to_kb <= from_kb || to_kb > G_MAXINT32)
        return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->path, p->line_no,
                                        _("expected a histogram range '<from> - <to>' KB with from below to "
                                          "(and below 2^31), got %" PRId64 " - %" PRId64),
                                        from_kb, to_kb);

      /* The whole target's histogram (every IPU) or one IPU's, in the
       * newer layout's IPU blocks. KB are binary, as the Target's kB. */
      tes_cache_writer_add_tile_histogram_bin (p->writer, p->source_id, p->n_histogram, (int)p->memory_ipu,
                                               from_kb * 1024, to_kb * 1024, count);

      /* Kept as printed, so the histogram can be shown as the tool did:
       * indented as far as it is beyond the header, which right-aligns the
       * ranges under "Range (KB)". */
      key = g_strdup_printf ("%s.bin.%03u", p->prefix, ++p->n_bin_rows);
      row = g_strdup_printf ("%*s%s", (int)MIN (pad, 64), "", text);
      p->n_bins++;
      p->bin_tiles += count;
      return tes_poplar_report_put_info (p, key, row, error);
    }

  /* Another list of the Memory Usage section the histogram was part of. */
  if (p->memory_prefix != NULL && tes_poplar_split_kv (text, &label, &value))
    {
      g_autofree char *memory_prefix = g_steal_pointer (&p->memory_prefix);

      if (!tes_poplar_report_finish_histogram (p, error))
        return FALSE;
      p->section = TES_POPLAR_SECTION_MEMORY;
      g_free (p->prefix);
      p->prefix = g_steal_pointer (&memory_prefix);
      return tes_poplar_report_memory_line (p, text, error);
    }

  {
    g_autofree char *got = tes_describe_text (text, strlen (text), 60);

    return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->path, p->line_no,
                                    _("unexpected line in By Tile (Excluding Gaps): '%s'"), got);
  }
}

gboolean
tes_poplar_report_add_elision (TesPoplarReportParser  *p,
                               GError                **error)
{
  p->n_elided++;

  if (p->section == TES_POPLAR_SECTION_HISTOGRAM && !p->last_elided)
    {
      /* not a bin: it marks where the report left rows out */
      g_autofree char *key = g_strdup_printf ("%s.bin.%03u", p->prefix, ++p->n_bin_rows);

      p->last_elided = TRUE;
      return tes_poplar_report_put_info (p, key, "...", error);
    }

  return TRUE;
}

