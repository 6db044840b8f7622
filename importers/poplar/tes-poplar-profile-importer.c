/* tes-poplar-profile-importer.c: Poplar SDK 1.x graph and execution profiles
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-poplar-profile"

#include "config.h"

#include <glib/gi18n-lib.h>

#include <inttypes.h>

#include "tes-poplar-profile-importer.h"

#include <string.h>

#include "tes-import-error.h"
#include "tes-poplar-profile-private.h"

/* poplar::serializeToJSON of Engine::getGraphProfile() and
 * getExecutionProfile() (graph.json, execution.json), the two under
 * "graphProfile" and "executionProfile" in one document (poplibs' tools'
 * --profile-json, TensorFlow's report_directory), or the same in CBOR.
 * A graph profile and its execution profile opened together are one
 * profile: the execution's tiles are split into IPUs by the graph's
 * target. So each file is read into one model shared by the files of the
 * group (kept on the cache writer), which is written when the group is
 * committed, whichever file came first. */

struct _TesPoplarProfileImporter
{
  TesImporter parent_instance;
};

G_DEFINE_FINAL_TYPE (TesPoplarProfileImporter, tes_poplar_profile_importer, TES_TYPE_IMPORTER)

#define GROUP_KEY "tes-poplar-profile-group"

typedef struct
{
  TesPoplarProfile *profile;
  gint64            source_id;        /* the first file's: info rows and tracks */
  char             *graph_path;       /* NULL: no graph profile yet */
  char             *graph_prefix;
  char             *execution_path;
  char             *execution_prefix;
} Group;

static void
group_free (gpointer data)
{
  Group *group = data;

  tes_poplar_profile_free (group->profile);
  g_free (group->graph_path);
  g_free (group->graph_prefix);
  g_free (group->execution_path);
  g_free (group->execution_prefix);
  g_free (group);
}

static gboolean
group_commit (TesCacheWriter  *writer,
              gpointer         data,
              GError         **error)
{
  Group *group = data;

  return tes_poplar_profile_check (group->profile, group->graph_path, group->graph_prefix,
                                   group->execution_path, group->execution_prefix, error) &&
         tes_poplar_profile_write (group->profile, writer, group->source_id, error);
}

static const char *const json_keys[] = {
  "\"target\"", "\"vertexTypes\"", "\"computeSets\"", "\"exchanges\"", "\"programs\"",
  "\"tilesPerIPU\"", "\"byTile\"", "\"liveness\"", "\"optimizationInfo\"",
};

static gboolean
head_has (const guint8 *head,
          gsize         len,
          const char   *needle,
          gsize         needle_len)
{
  return head != NULL && needle_len <= len && memmem (head, len, needle, needle_len) != NULL;
}

/* A CBOR text string of @word: its header byte (major type 3) and bytes. */
static gboolean
head_has_cbor_text (const guint8 *head,
                    gsize         len,
                    const char   *word)
{
  gsize n = strlen (word);
  guint8 needle[32];

  if (n >= 24 || n + 1 > sizeof needle)
    return FALSE;
  needle[0] = 0x60 + n;
  memcpy (needle + 1, word, n);

  return head_has (head, len, (const char *)needle, n + 1);
}

static guint
tes_poplar_profile_importer_sniff (TesImporter  *importer,
                                   const guint8 *head,
                                   gsize         head_len,
                                   const char   *basename)
{
  gsize i = 0;

  if (head_len >= 3 && head[0] == 0xef && head[1] == 0xbb && head[2] == 0xbf)
    i = 3;
  while (i < head_len && g_ascii_isspace (head[i]))
    i++;
  if (i >= head_len)
    return 0;

  if (head[i] == '{')
    {
      guint keys = 0;

      /* Chrome trace events are another importer's */
      if (head_has (head, head_len, "\"traceEvents\"", 13))
        return 0;
      if (head_has (head, head_len, "\"graphProfile\"", 14) || head_has (head, head_len, "\"executionProfile\"", 18))
        return 90;
      if (head_has (head, head_len, "\"profilerMode\"", 14) ||
          (head_has (head, head_len, "\"simulation\"", 12) && head_has (head, head_len, "\"cyclesByTile\"", 14)))
        return 80;
      for (guint k = 0; k < G_N_ELEMENTS (json_keys); k++)
        keys += head_has (head, head_len, json_keys[k], strlen (json_keys[k]));
      return keys >= 3 ? 75 : 0;
    }

  /* CBOR: a map, perhaps behind the self-describing tag 55799 */
  if (head_len >= 3 && head[i] == 0xd9 && head[i + 1] == 0xd9 && head[i + 2] == 0xf7)
    i += 3;
  if (i < head_len && head[i] >= 0xa0 && head[i] <= 0xbf)
    {
      if (head_has_cbor_text (head, head_len, "graphProfile") ||
          head_has_cbor_text (head, head_len, "executionProfile") ||
          head_has_cbor_text (head, head_len, "profilerMode"))
        return 85;
      if (head_has_cbor_text (head, head_len, "target") && head_has_cbor_text (head, head_len, "tilesPerIPU"))
        return 80;
    }

  return 0;
}

#define MAX_DEPTH 256

/* json-glib parses, and frees, by recursion: a document nested deeper than
 * any profile is refused before it gets there. */
static gboolean
check_depth (const char    *path,
             const guint8  *data,
             gsize          len,
             GError       **error)
{
  gboolean in_string = FALSE;
  guint depth = 0;

  for (gsize i = 0; i < len; i++)
    {
      guint8 c = data[i];

      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
        }
      else if (c == '"')
        in_string = TRUE;
      else if ((c == '[' || c == '{') && ++depth > MAX_DEPTH)
        return tes_import_fail (error, TES_IMPORT_ERROR_INVALID, path,
                                _("byte %" PRIu64 ": arrays and objects nested more than %d deep"),
                                (guint64)i, MAX_DEPTH);
      else if ((c == ']' || c == '}') && depth > 0)
        depth--;
    }

  return TRUE;
}

static JsonNode *
parse (const char    *path,
       const guint8  *data,
       gsize          len,
       GError       **error)
{
  gsize i = 0;

  if (len >= 3 && data[0] == 0xef && data[1] == 0xbb && data[2] == 0xbf)
    i = 3;
  while (i < len && g_ascii_isspace (data[i]))
    i++;

  if (i == len)
    {
      tes_import_fail (error, TES_IMPORT_ERROR_EMPTY, path, _("the file is empty"));
      return NULL;
    }

  if (data[i] == '{')
    {
      g_autoptr(JsonParser) parser = json_parser_new_immutable ();
      g_autoptr(GError) local = NULL;

      if (!g_utf8_validate_len ((const char *)data, len, NULL))
        {
          const char *end;

          g_utf8_validate_len ((const char *)data, len, &end);
          tes_import_fail (error, TES_IMPORT_ERROR_INVALID, path,
                           _("byte %" PRIu64 ": not UTF-8, which JSON must be"),
                           (guint64)(end - (const char *)data));
          return NULL;
        }
      if (!check_depth (path, data, len, error))
        return NULL;
      if (!json_parser_load_from_data (parser, (const char *)data + i, len - i, &local))
        {
          tes_import_fail (error, TES_IMPORT_ERROR_INVALID, path, _("not valid JSON: %s"), local->message);
          return NULL;
        }
      return json_node_ref (json_parser_get_root (parser));
    }

  return tes_poplar_cbor_to_json (data, len, path, error);
}

static gboolean
tes_poplar_profile_importer_import (TesImporter       *importer,
                                    TesImportContext  *context,
                                    GError           **error)
{
  g_autoptr(GMappedFile) mapped = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) local = NULL;
  Group *group;
  TesPoplarParts parts = 0;
  const guint8 *data;
  gsize len;
  gboolean combined;

  if (!(mapped = g_mapped_file_new (context->path, FALSE, &local)))
    return tes_import_fail (error, TES_IMPORT_ERROR_INVALID, context->path, "%s", local->message);
  data = (const guint8 *)g_mapped_file_get_contents (mapped);
  len = g_mapped_file_get_length (mapped);

  if (!(root = parse (context->path, data, len, error)))
    return FALSE;

  if (!(group = g_object_get_data (G_OBJECT (context->writer), GROUP_KEY)))
    {
      group = g_new0 (Group, 1);
      group->profile = tes_poplar_profile_new ();
      group->source_id = context->source_id;
      /* the writer owns the group through its hook, freed with it */
      g_object_set_data (G_OBJECT (context->writer), GROUP_KEY, group);
      tes_cache_writer_add_commit_hook (context->writer, group_commit, group, group_free);
    }

  /* a second graph or execution profile would mix two runs */
  parts = tes_poplar_profile_document_parts (root, &combined);
  if (((parts & TES_POPLAR_PART_GRAPH) && group->graph_path != NULL) ||
      ((parts & TES_POPLAR_PART_EXECUTION) && group->execution_path != NULL))
    {
      gboolean graph = (parts & TES_POPLAR_PART_GRAPH) && group->graph_path != NULL;

      return tes_import_fail (error, TES_IMPORT_ERROR_INVALID, context->path,
                              _("holds a %s profile, and so does %s: open one graph profile with the "
                                "execution profile of the same run"),
                              graph ? _("graph") : _("execution"),
                              graph ? group->graph_path : group->execution_path);
    }

  if (!tes_poplar_profile_read_document (group->profile, root, context->path, &parts, error))
    return FALSE;

  if (parts & TES_POPLAR_PART_GRAPH)
    {
      group->graph_path = g_strdup (context->path);
      group->graph_prefix = g_strdup (combined ? "graphProfile." : "");
    }
  if (parts & TES_POPLAR_PART_EXECUTION)
    {
      group->execution_path = g_strdup (context->path);
      group->execution_prefix = g_strdup (combined ? "executionProfile." : "");
    }

  return TRUE;
}

static void
tes_poplar_profile_importer_class_init (TesPoplarProfileImporterClass *klass)
{
  TesImporterClass *importer_class = TES_IMPORTER_CLASS (klass);

  importer_class->name = "poplar-profile";
  importer_class->title = "Graphcore Poplar graph/execution profile (SDK 1.x JSON or CBOR)";
  importer_class->version = 2;   /* 2: runs and IPU and tile lanes carry their IPU (and tile) as numbers */
  importer_class->sniff = tes_poplar_profile_importer_sniff;
  importer_class->import = tes_poplar_profile_importer_import;
}

static void
tes_poplar_profile_importer_init (TesPoplarProfileImporter *self)
{
}
