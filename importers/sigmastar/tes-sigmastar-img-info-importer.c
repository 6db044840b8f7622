/* tes-sigmastar-img-info-importer.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-sigmastar-img-info"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tes-import-error.h"
#include "tes-info.h"
#include "tes-line-reader.h"
#include "tes-sigmastar-img-info-importer.h"
#include "tes-text.h"

#include <string.h>

/* SigmaStar's DumpDebug/show_img_info.py prints what an offline model
 * image holds:
 *
 *   Offline IMG Version: S1.0.9_verified_23051011
 *   Offline Model Size: 11927552
 *   Offline Model Max Batch Numer: 1            <- "Numer" sic, in the tool
 *   SDK_Version_Info: S1.0.9_verified_23051011  <- with --version only
 *   Offline Model Suggested Batch: [1]          <- or "Supported Batch"
 *   Offline Model Variable Buffer Size: 8601600
 *
 *   Offline_Model:
 *   offline_model (
 *   Input(0):
 *       name:<TAB>images
 *       …
 *   Output(0):
 *       …
 *   )
 *
 * Everything goes into report info under "model.": the header lines by
 * the keys below, the tensors as "model.input.<i>.<key>" and
 * "model.output.<i>.<key>", values exactly as printed. */

struct _TesSigmastarImgInfoImporter
{
  TesImporter parent_instance;
};

G_DEFINE_FINAL_TYPE (TesSigmastarImgInfoImporter, tes_sigmastar_img_info_importer, TES_TYPE_IMPORTER)

static const struct
{
  const char *label;
  const char *key;
} header_keys[] = {
  { "Offline IMG Version", "model.img_version" },
  { "Offline Model Size", "model.size" },
  { "Offline Model Max Batch Numer", "model.max_batch_number" },
  { "Offline Model Max Batch Number", "model.max_batch_number" },
  { "SDK_Version_Info", "model.sdk_version" },
  { "Offline Model Suggested Batch", "model.suggested_batch" },
  { "Offline Model Supported Batch", "model.supported_batch" },
  { "Offline Model Variable Buffer Size", "model.variable_buffer_size" },
  { "work_mode", "model.work_mode" },
};

typedef enum
{
  TENSOR_INPUT,
  TENSOR_OUTPUT,
} TensorKind;

typedef struct
{
  TesImportContext *context;
  GPtrArray        *info;          /* key, value, … in file order */
  GHashTable       *keys;          /* key -> line it was given on */
  gboolean          in_tensor;
  TensorKind        tensor_kind;
  guint             tensor_index;
  guint             tensor_line;
  guint             tensor_keys;
  guint             open_line;     /* line of "offline_model (", 0 when closed */
  guint             n_inputs;
  guint             n_outputs;
  guint             n_known;
  TesLineNote       skipped;       /* lines of no known shape */
  TesLineNote       first;         /* the first line that is not blank */
} Parser;

static void
parser_clear (Parser *p)
{
  g_clear_pointer (&p->info, g_ptr_array_unref);
  g_clear_pointer (&p->keys, g_hash_table_unref);
  tes_line_note_clear (&p->skipped);
  tes_line_note_clear (&p->first);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Parser, parser_clear)

static gboolean
set_key (Parser      *p,
         guint        line,
         char        *key,
         const char  *value,
         GError     **error)
{
  guint prev = GPOINTER_TO_UINT (g_hash_table_lookup (p->keys, key));

  if (prev != 0)
    {
      gboolean ok = tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                             _("%s is already given on line %u"), key, prev);
      g_free (key);
      return ok;
    }

  g_hash_table_insert (p->keys, g_strdup (key), GUINT_TO_POINTER (line));
  tes_info_list_add (p->info, key, value);
  return TRUE;
}

/* "Input(0):" / "Output(12):" */
static gboolean
parse_tensor_header (const char *text,
                     TensorKind *kind,
                     guint      *index)
{
  const char *rest;
  const char *close;
  g_autofree char *digits = NULL;
  guint64 v;

  if (g_str_has_prefix (text, "Input("))
    {
      *kind = TENSOR_INPUT;
      rest = text + strlen ("Input(");
    }
  else if (g_str_has_prefix (text, "Output("))
    {
      *kind = TENSOR_OUTPUT;
      rest = text + strlen ("Output(");
    }
  else
    return FALSE;

  if (!(close = strchr (rest, ')')) || !g_str_equal (close, "):"))
    return FALSE;

  digits = g_strndup (rest, close - rest);
  if (!g_ascii_string_to_unsigned (digits, 10, 0, G_MAXUINT16, &v, NULL))
    return FALSE;

  *index = (guint)v;
  return TRUE;
}

/* "Label: value" with a label of words (letters, digits, '_', spaces). */
static gboolean
split_label (const char  *text,
             char       **label,
             char       **value)
{
  const char *colon = strchr (text, ':');

  if (colon == NULL || colon == text || !g_ascii_isalpha (text[0]))
    return FALSE;

  for (const char *c = text; c < colon; c++)
    if (!(g_ascii_isalnum (*c) || *c == '_' || *c == ' '))
      return FALSE;

  *label = g_strndup (text, colon - text);
  g_strchomp (*label);
  colon++;
  while (tes_is_space (*colon))
    colon++;
  *value = g_strdup (colon);
  return TRUE;
}

static const char *
header_key (const char *label)
{
  for (guint i = 0; i < G_N_ELEMENTS (header_keys); i++)
    if (g_str_equal (header_keys[i].label, label))
      return header_keys[i].key;

  return NULL;
}

static gboolean
end_tensor (Parser      *p,
            guint        line,
            GError     **error)
{
  if (p->in_tensor && p->tensor_keys == 0)
    return tes_import_fail_at_line (error, TES_IMPORT_ERROR_TRUNCATED, p->context->path, line,
                                    _("the %s(%u) block of line %u has no 'key: value' lines"),
                                    p->tensor_kind == TENSOR_INPUT ? "Input" : "Output", p->tensor_index, p->tensor_line);

  p->in_tensor = FALSE;
  return TRUE;
}

static gboolean
parse_line (Parser      *p,
            guint        line,
            const char  *raw,
            GError     **error)
{
  g_autofree char *text = g_strstrip (g_strdup (raw));
  g_autofree char *label = NULL;
  g_autofree char *value = NULL;
  TensorKind kind;
  guint index;

  if (p->first.count == 0)
    tes_line_note_add (&p->first, line, text, strlen (text));

  /* "    key:<TAB>value" inside Input(i): / Output(i): */
  if (tes_is_space (raw[0]))
    {
      g_autofree char *key = NULL;

      if (!p->in_tensor)
        {
          g_autofree char *got = tes_describe_text (text, strlen (text), 60);

          return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                          _("indented line '%s' outside an Input(i): or Output(i): block"), got);
        }
      if (!split_label (text, &label, &value) || strchr (label, ' ') != NULL)
        {
          g_autofree char *got = tes_describe_text (text, strlen (text), 60);

          return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                          _("expected '    key:<TAB>value' in the %s(%u) block of line %u, got '%s'"),
                                          p->tensor_kind == TENSOR_INPUT ? "Input" : "Output", p->tensor_index,
                                          p->tensor_line, got);
        }

      p->tensor_keys++;
      p->n_known++;
      key = g_strdup_printf ("model.%s.%u.%s", p->tensor_kind == TENSOR_INPUT ? "input" : "output",
                             p->tensor_index, label);
      return set_key (p, line, g_steal_pointer (&key), value, error);
    }

  if (parse_tensor_header (text, &kind, &index))
    {
      g_autofree char *key = NULL;

      if (!end_tensor (p, line, error))
        return FALSE;

      key = g_strdup_printf ("model.%s.%u", kind == TENSOR_INPUT ? "input" : "output", index);
      if (g_hash_table_contains (p->keys, key))
        return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                        _("%s(%u) is already given on line %u"),
                                        kind == TENSOR_INPUT ? "Input" : "Output", index,
                                        GPOINTER_TO_UINT (g_hash_table_lookup (p->keys, key)));
      g_hash_table_insert (p->keys, g_steal_pointer (&key), GUINT_TO_POINTER (line));

      p->in_tensor = TRUE;
      p->tensor_kind = kind;
      p->tensor_index = index;
      p->tensor_line = line;
      p->tensor_keys = 0;
      p->n_known++;
      if (kind == TENSOR_INPUT)
        p->n_inputs++;
      else
        p->n_outputs++;
      return TRUE;
    }

  if (!end_tensor (p, line, error))
    return FALSE;

  if (g_str_equal (text, "Offline_Model:"))
    {
      p->n_known++;
      return TRUE;
    }

  /* print(offline_model): the attribute name, then "(" */
  if (g_str_has_suffix (text, "(") && strchr (text, ' ') != NULL &&
      g_regex_match_simple ("^[A-Za-z_][A-Za-z0-9_]* \\($", text, 0, 0))
    {
      if (p->open_line != 0)
        return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                        _("'%s' inside the '(' opened on line %u"), text, p->open_line);
      p->open_line = line;
      p->n_known++;
      return TRUE;
    }

  if (g_str_equal (text, ")"))
    {
      if (p->open_line == 0)
        return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                        _("')' without 'offline_model ('"));
      p->open_line = 0;
      p->n_known++;
      return TRUE;
    }

  if (split_label (text, &label, &value))
    {
      const char *known = header_key (label);
      g_autofree char *name = tes_slugify (label);

      if (value[0] == '\0')
        return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->context->path, line,
                                        _("'%s:' has no value"), label);

      /* An unknown "Label: value" line (a newer SDK's) is kept under its
       * own name; it does not make a file show_img_info output. */
      if (known != NULL)
        p->n_known++;
      return set_key (p, line, known ? g_strdup (known) : g_strdup_printf ("model.%s", name), value, error);
    }

  tes_line_note_add (&p->skipped, line, text, strlen (text));
  return TRUE;
}

static guint
tes_sigmastar_img_info_importer_sniff (TesImporter  *importer,
                                       const guint8 *head,
                                       gsize         head_len,
                                       const char   *basename)
{
  TesLineReader reader;
  const char *line;
  gsize len;
  gboolean not_text;
  guint header = 0;
  gboolean model = FALSE, open = FALSE, tensor = FALSE, tensor_key = FALSE;

  /* a JSON trace's head is thousands of short lines: never classify them */
  if (tes_head_is_json (head, head_len))
    return 0;

  tes_line_reader_init_for_head (&reader, head, head_len);

  while (tes_line_reader_next_text (&reader, &line, &len, &not_text))
    {
      g_autofree char *text = g_strstrip (g_strndup (line, len));
      g_autofree char *label = NULL;
      g_autofree char *value = NULL;
      TensorKind kind;
      guint index;

      if (tes_is_space (line[0]))
        {
          if (tensor && split_label (text, &label, &value) && g_str_equal (label, "name"))
            tensor_key = TRUE;
          continue;
        }

      if (g_str_equal (text, "Offline_Model:"))
        model = TRUE;
      else if (g_str_equal (text, "offline_model ("))
        open = TRUE;
      else if (parse_tensor_header (text, &kind, &index))
        tensor = TRUE;
      else if (split_label (text, &label, &value) && header_key (label) != NULL)
        header++;
    }

  if (not_text)
    return 0;
  if (header >= 2 || (header >= 1 && (model || open)) || (model && open && tensor))
    return basename && strstr (basename, "img_info") ? 100 : 95;
  if ((model || open) && tensor && tensor_key)
    return 70;

  return 0;
}

static gboolean
tes_sigmastar_img_info_importer_import (TesImporter       *importer,
                                        TesImportContext  *context,
                                        GError           **error)
{
  g_auto(TesLineReader) reader = { 0 };
  g_auto(Parser) p = { 0 };
  TesCacheWriter *w = context->writer;
  const char *line;
  gsize len;

  p.context = context;
  p.info = tes_info_list_new ();
  p.keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  if (!tes_line_reader_init (&reader, context->path, error))
    return FALSE;

  while (tes_line_reader_next (&reader, &line, &len))
    {
      g_autofree char *raw = NULL;
      gsize tlen = tes_trimmed_length (line, len);

      if (!tes_line_reader_check_text (&reader, context->path, line, len, error))
        return FALSE;
      if (tlen == 0)
        continue;

      raw = g_strndup (line, tlen);
      if (!parse_line (&p, reader.line_no, raw, error))
        {
          tes_line_reader_note_cut (&reader, context->path, error);
          return FALSE;
        }
    }

  if (!end_tensor (&p, reader.line_no, error))
    return FALSE;

  if (p.open_line != 0)
    return tes_import_fail_at_line (error, TES_IMPORT_ERROR_TRUNCATED, p.context->path, reader.line_no,
                                    _("the file ends inside the 'offline_model (' of line %u (no ')')"), p.open_line);

  if (p.n_known == 0)
    return tes_import_fail_nothing (error, context->path, _("show_img_info.py output"), &p.first,
                                    _("no show_img_info.py model lines ('Offline Model Size: …', 'Input(0):' …); "
                                      "the file starts with"));

  tes_info_set_int (w, context->source_id, "model.inputs", p.n_inputs);
  tes_info_set_int (w, context->source_id, "model.outputs", p.n_outputs);
  tes_info_list_write (p.info, w, context->source_id);

  if (p.skipped.count > 0)
    {
      g_autofree char *text = tes_line_note_skipped (&p.skipped);

      tes_cache_writer_set_info (w, context->source_id, "warning.skipped_lines", text);
    }

  return TRUE;
}

static void
tes_sigmastar_img_info_importer_class_init (TesSigmastarImgInfoImporterClass *klass)
{
  TesImporterClass *importer_class = TES_IMPORTER_CLASS (klass);

  importer_class->name = "sigmastar-img-info";
  importer_class->title = "SigmaStar show_img_info.py";
  importer_class->version = 1;
  importer_class->sniff = tes_sigmastar_img_info_importer_sniff;
  importer_class->import = tes_sigmastar_img_info_importer_import;
}

static void
tes_sigmastar_img_info_importer_init (TesSigmastarImgInfoImporter *self)
{
}
