/* tes-tensorrt-profile-importer.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-tensorrt-profile"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tes-decimal.h"
#include "tes-import-error.h"
#include "tes-info.h"
#include "tes-line-reader.h"
#include "tes-tensorrt-profile-importer.h"
#include "tes-tensorrt-records.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What `trtexec --exportProfile=FILE` writes (TensorRT 7 and later):
 *
 *   [
 *     { "count" : 4216 }
 *   , { "name" : "Conv_0 + Relu_1", "timeMs" : 51.4526, "averageMs" : 0.0122041,
 *       "medianMs" : 0.011936, "percentage" : 1.88608 }
 *   …
 *   ]
 *
 * count is the number of inferences the layer times were summed over,
 * timeMs their sum, averageMs timeMs / count, percentage the layer's
 * share of the sum of all layers' times; TensorRT 8.4 added medianMs.
 * One operator row per layer, in the file's (execution) order: index
 * its position from 0, name the layer's name, total timeMs in ns, count the count, share the
 * percentage, args every member but the name as printed. */

struct _TesTensorrtProfileImporter
{
  TesImporter parent_instance;
};

G_DEFINE_FINAL_TYPE (TesTensorrtProfileImporter, tes_tensorrt_profile_importer, TES_TYPE_IMPORTER)

#define MAX_KIND 48

static guint
tes_tensorrt_profile_importer_sniff (TesImporter  *importer,
                                     const guint8 *head,
                                     gsize         head_len,
                                     const char   *basename)
{
  static const char *layer_keys[] = { "name", "timeMs", "averageMs", "percentage" };
  static const char *count_key[] = { "count" };
  guint layer = tes_trt_sniff (head, head_len, layer_keys, G_N_ELEMENTS (layer_keys));
  guint count = tes_trt_sniff (head, head_len, count_key, 1);
  const char *open, *close;
  guint quotes = 0;

  if (head == NULL || head_len == 0)
    return 0;

  /* "count" then a layer with all four keys is what trtexec writes; a
   * layer without the count is still claimed, for the import to say
   * what is missing */
  if (layer == G_N_ELEMENTS (layer_keys))
    return count ? 100 : 70;

  /* a record { "count" : N } alone, then a layer's name too long for
   * the rest of its keys to show in the head */
  open = memchr (head, '{', head_len);
  close = open ? memchr (open, '}', head_len - (open - (const char *)head)) : NULL;
  for (const char *p = open; close && p < close; p++)
    quotes += *p == '"';
  if (count && quotes == 2 && layer >= 1)
    return 60;

  return 0;
}

/* "Conv_12" -> "Conv", "resnet50/conv1_conv/Conv2D__6" -> "Conv2D",
 * "(Unnamed Layer* 849) [Shuffle]" -> "Shuffle", "reshape_after_Gemm_48"
 * -> "Reshape": the operator kind
 * of one member of a fused layer's name, or NULL when it names a
 * constant ("features.0.0.weight") or nothing recognisable. */
static char *
member_kind (const char *text,
             gsize       len)
{
  static const char *added[] = { "_after_", "_before_" };
  const char *slash;
  gsize end;

  /* PWN(PWN(Sigmoid_3), Mul_4): the first operand */
  while (len > 4 && strncmp (text, "PWN(", 4) == 0)
    {
      text += 4;
      len -= 4;
      for (gsize i = 0; i < len; i++)
        if (text[i] == ',' || text[i] == ')')
          {
            len = i;
            break;
          }
    }

  if (len > 2 && text[len - 1] == ']')
    {
      const char *open = g_strrstr_len (text, len, " [");

      if (open)
        return g_strndup (open + 2, MIN ((gsize)(text + len - 1 - open - 2), MAX_KIND));
    }

  /* "reshape_after_Gemm_48", a layer TensorRT added: its own word */
  for (guint i = 0; i < G_N_ELEMENTS (added); i++)
    {
      const char *at = g_strstr_len (text, len, added[i]);
      const char *word = at;

      if (at == NULL || at == text)
        continue;
      while (word > text && g_ascii_isalpha (word[-1]))
        word--;
      if (word < at && at - word <= MAX_KIND)
        {
          char *kind = g_strndup (word, at - word);

          kind[0] = g_ascii_toupper (kind[0]);
          return kind;
        }
    }

  if ((slash = g_strrstr_len (text, len, "/")))
    {
      len -= slash + 1 - text;
      text = slash + 1;
    }

  /* Kind_12, Kind__12 */
  end = len;
  while (end > 0 && g_ascii_isdigit (text[end - 1]))
    end--;
  if (end < len)
    while (end > 0 && text[end - 1] == '_')
      end--;

  if (end == 0 || end > MAX_KIND || !g_ascii_isalpha (text[0]))
    return NULL;
  for (gsize i = 0; i < end; i++)
    if (!g_ascii_isalnum (text[i]))
      return NULL;

  return g_strndup (text, end);
}

/* A short type to group layers by: trtexec gives none, but the names
 * TensorRT makes tell the kind of most layers (docs/formats/frameworks.md). */
static char *
layer_kind (const char *name)
{
  static const struct { const char *suffix, *kind; } suffixes[] = {
    { " copy", "Copy" },
    { " to nvm", "ToNvm" },
    { " from nvm", "FromNvm" },
    { " copy finish", "CopyFinish" },
  };
  g_autofree char *first = NULL;
  const char *p = name;

  if (g_str_has_prefix (name, "Reformatting CopyNode"))
    return g_strdup ("Reformat");
  if (strstr (name, "{ForeignNode["))
    return g_strdup ("ForeignNode");
  /* copies: of a tensor on the GPU, around a DLA subgraph */
  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    if (g_str_has_suffix (name, suffixes[i].suffix))
      return g_strdup (suffixes[i].kind);

  /* the fused members, " + " apart: the first that is not a
   * quantisation, else the first kind at all */
  while (p != NULL)
    {
      const char *next = strstr (p, " + ");
      gsize n = next ? (gsize)(next - p) : strlen (p);
      g_autofree char *kind = member_kind (p, n);

      if (kind && strcmp (kind, "QuantizeLinear") != 0 && strcmp (kind, "DequantizeLinear") != 0)
        return g_steal_pointer (&kind);
      if (kind && !first)
        first = g_steal_pointer (&kind);
      p = next ? next + 3 : NULL;
    }

  return first ? g_steal_pointer (&first) : g_strdup ("Layer");
}

/* A time in ms as printed to ns; the rounded ones are counted. */
static gboolean
ms_to_ns (TesTrtRecords       *records,
          const TesTrtMember  *member,
          gint64              *ns,
          guint               *n_rounded,
          GError             **error)
{
  switch (tes_decimal_parse (member->value, member->len, 6, ns))
    {
    case TES_DECIMAL_ROUNDED:
      (*n_rounded)++;
      G_GNUC_FALLTHROUGH;
    case TES_DECIMAL_OK:
      if (*ns < 0)
        {
          records->pos = records->offset;
          return tes_trt_records_fail (records, error, TES_IMPORT_ERROR_INVALID,
                                       _("\"%s\" is negative (%s)"), member->key, member->value);
        }
      return TRUE;
    case TES_DECIMAL_RANGE:
    case TES_DECIMAL_INVALID:
    default:
      records->pos = records->offset;
      return tes_trt_records_fail (records, error, TES_IMPORT_ERROR_INVALID,
                                   _("\"%s\" (%s ms) is out of range"), member->key, member->value);
    }
}

static gboolean
read_count (TesTrtRecords  *records,
            gint64         *count,
            GError        **error)
{
  const TesTrtMember *member;

  if (!tes_trt_records_lookup (records, "count"))
    {
      records->pos = records->offset;
      return tes_trt_records_fail (records, error, TES_IMPORT_ERROR_INVALID,
                                   _("the first record has no \"count\": trtexec's profile "
                                     "starts with { \"count\" : N }, the number of inferences timed"));
    }
  if (!tes_trt_records_number (records, "count", TRUE, &member, error))
    return FALSE;
  if (tes_decimal_parse (member->value, member->len, 0, count) != TES_DECIMAL_OK || *count < 0)
    {
      records->pos = records->offset;
      return tes_trt_records_fail (records, error, TES_IMPORT_ERROR_INVALID,
                                   _("\"count\" is %s, not a number of inferences"), member->value);
    }

  return TRUE;
}

static gboolean
tes_tensorrt_profile_importer_import (TesImporter       *importer,
                                      TesImportContext  *context,
                                      GError           **error)
{
  static const char *timed[] = { "timeMs", "averageMs", "medianMs" };
  static const char *not_args[] = { "name", NULL };
  g_auto(TesLineReader) reader = { 0 };
  g_auto(TesTrtRecords) records = { 0 };
  g_autoptr(GString) args = g_string_new (NULL);
  gboolean has_median = FALSE;
  guint n_rounded = 0;
  guint n_layers = 0;
  gint64 count = -1;
  TesTrtNext next;
  gint64 clock;

  if (!tes_line_reader_init (&reader, context->path, error))
    return FALSE;

  tes_trt_records_init (&records, context->path, reader.data, reader.len);

  next = tes_trt_records_next (&records, error);
  if (next == TES_TRT_ERROR)
    return FALSE;
  if (next == TES_TRT_END)
    return tes_import_fail (error, TES_IMPORT_ERROR_EMPTY, context->path,
                              _("an empty array: no count record, no layers"));
  if (!read_count (&records, &count, error))
    return FALSE;

  clock = tes_cache_writer_add_clock (context->writer, "TensorRT layer time (ns)", TES_TIME_UNIT_NS, 1000000000);

  while ((next = tes_trt_records_next (&records, error)) == TES_TRT_RECORD)
    {
      TesOperatorRow op = TES_OPERATOR_ROW_INIT;
      const TesTrtMember *name = tes_trt_records_lookup (&records, "name");
      const TesTrtMember *member;
      g_autofree char *kind = NULL;
      char *end = NULL;
      gint64 ns[G_N_ELEMENTS (timed)] = { 0 };
      double share;

      if (name == NULL || name->kind != TES_TRT_STRING)
        {
          records.pos = records.offset;
          return tes_trt_records_fail (&records, error, TES_IMPORT_ERROR_INVALID,
                                       name ? _("\"name\" is not a string") : _("no \"name\": not a layer record"));
        }

      for (guint i = 0; i < G_N_ELEMENTS (timed); i++)
        {
          /* medianMs came with TensorRT 8.4 */
          if (!tes_trt_records_number (&records, timed[i], i < 2, &member, error))
            return FALSE;
          if (member && !ms_to_ns (&records, member, &ns[i], &n_rounded, error))
            return FALSE;
          if (i == 2 && member)
            has_median = TRUE;
        }

      if (!tes_trt_records_number (&records, "percentage", TRUE, &member, error))
        return FALSE;
      share = g_ascii_strtod (member->value, &end);
      if (share < 0 || share > 100.001)
        {
          records.pos = records.offset;
          return tes_trt_records_fail (&records, error, TES_IMPORT_ERROR_INVALID,
                                       _("\"percentage\" is %s, not a share of 0 to 100"), member->value);
        }

      kind = layer_kind (name->value);
      g_string_truncate (args, 0);
      tes_trt_append_args (args, &records, not_args);

      op.source_id = context->source_id;
      op.op_index = n_layers;
      op.name = name->value;
      op.type = kind;
      op.count = count;
      op.total = ns[0];
      op.clock_id = clock;
      op.share = share;
      op.args_json = args->str;
      tes_cache_writer_add_operator (context->writer, &op);
      n_layers++;

      if (!tes_trt_records_tick (&records, context, error))
        return FALSE;
    }
  if (next == TES_TRT_ERROR)
    return FALSE;

  if (n_layers == 0)
    return tes_import_fail (error, TES_IMPORT_ERROR_EMPTY, context->path,
                            _("no layer records after the count record"));

  tes_cache_writer_set_info (context->writer, context->source_id, "format", "TensorRT trtexec --exportProfile");
  tes_info_set_int (context->writer, context->source_id, "profile.count", count);
  tes_info_set_int (context->writer, context->source_id, "profile.layers", n_layers);
  tes_cache_writer_set_info (context->writer, context->source_id, "profile.median",
                             has_median ? "yes (TensorRT 8.4 or later)" : "no (TensorRT before 8.4)");
  /* the totals are sums over count inferences: compare per inference */
  tes_info_set_int (context->writer, context->source_id, "operators.runs", count);
  if (n_rounded > 0)
    {
      g_autofree char *text = g_strdup_printf ("%u times had digits below 1 ns and were rounded to the "
                                               "nearest ns; the args keep them as printed", n_rounded);

      tes_cache_writer_set_info (context->writer, context->source_id, "warning.rounded", text);
    }

  return TRUE;
}

static void
tes_tensorrt_profile_importer_class_init (TesTensorrtProfileImporterClass *klass)
{
  TesImporterClass *importer_class = TES_IMPORTER_CLASS (klass);

  importer_class->name = "tensorrt-profile";
  importer_class->title = "TensorRT trtexec --exportProfile";
  importer_class->version = 1;
  importer_class->sniff = tes_tensorrt_profile_importer_sniff;
  importer_class->import = tes_tensorrt_profile_importer_import;
}

static void
tes_tensorrt_profile_importer_init (TesTensorrtProfileImporter *self)
{
}
