/* tes-poplar-pop-importer.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-poplar-pop"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tes-poplar-pop-importer.h"

#include <string.h>

#include <sqlite3.h>

/* PopVision's profile.pop is an SQLite database whose schema Graphcore
 * does not document (it is read through libpva). This importer only
 * recognises it, so that opening one says plainly that Tessera cannot read
 * it directly, what it holds, and the command that exports it where the
 * Poplar SDK is (tools/tessera-pop-export.py) to a file Tessera opens,
 * instead of "not a format Tessera recognises". */

struct _TesPoplarPopImporter
{
  TesImporter parent_instance;
};

G_DEFINE_FINAL_TYPE (TesPoplarPopImporter, tes_poplar_pop_importer, TES_TYPE_IMPORTER)

static const char sqlite_magic[16] = "SQLite format 3";   /* with its NUL */

/* Words PopVision's tables are likely to carry; the schema is unknown, so
 * several must appear before a database without the .pop name is claimed. */
static const char *const popvision_words[] = {
  "tile", "ipu", "vertex", "vertices", "computeset", "compute_set", "program",
  "exchange", "liveness", "poplar", "debugcontext", "lowered",
};

static gboolean
head_contains (const guint8 *head,
               gsize         head_len,
               const char   *word)
{
  gsize n = strlen (word);

  if (n == 0 || n > head_len)
    return FALSE;

  for (gsize i = 0; i + n <= head_len; i++)
    if (g_ascii_strncasecmp ((const char *)head + i, word, n) == 0)
      return TRUE;

  return FALSE;
}

static guint
tes_poplar_pop_importer_sniff (TesImporter  *importer,
                               const guint8 *head,
                               gsize         head_len,
                               const char   *basename)
{
  guint words = 0;

  if (head_len < 100 || memcmp (head, sqlite_magic, sizeof sqlite_magic) != 0)
    return 0;

  /* Tessera's own report caches are SQLite too. */
  if (head_contains (head, head_len, "slice_chunks") ||
      head_contains (head, head_len, "slice_lod"))
    return 0;

  if (basename != NULL && g_str_has_suffix (basename, ".pop"))
    return 95;

  if (!head_contains (head, head_len, "CREATE TABLE"))
    return 0;

  for (guint i = 0; i < G_N_ELEMENTS (popvision_words); i++)
    words += head_contains (head, head_len, popvision_words[i]);

  return words >= 3 ? 60 : 0;
}

/* A path as a shell word: as it is when it needs no quoting (it reads
 * better), else quoted. */
static char *
shell_word (const char *path)
{
  if (*path != '\0' && strpbrk (path, " \t\n'\"\\$`*?[]{}()<>|&;#~!") == NULL)
    return g_strdup (path);
  return g_shell_quote (path);
}

/* The command a user runs where the Poplar SDK is, with the name of the
 * file it writes (tessera-pop-export's default) spelt out. */
static char *
export_command (const char *path)
{
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *name = NULL;
  g_autofree char *out = NULL;
  g_autofree char *path_word = shell_word (path);
  g_autofree char *out_word = NULL;

  if (g_str_has_suffix (base, ".pop"))
    base[strlen (base) - 4] = '\0';
  name = g_strconcat (base, ".tessera-pop.jsonl", NULL);
  out = strcmp (dir, ".") == 0 ? g_steal_pointer (&name) : g_build_filename (dir, name, NULL);
  out_word = shell_word (out);

  return g_strdup_printf ("tessera-pop-export %s -o %s", path_word, out_word);
}

static gboolean
tes_poplar_pop_importer_import (TesImporter       *importer,
                                TesImportContext  *context,
                                GError           **error)
{
  g_autoptr(GPtrArray) tables = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *command = export_command (context->path);
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  int rc;

  rc = sqlite3_open_v2 (context->path, &db, SQLITE_OPEN_READONLY, NULL);
  if (rc == SQLITE_OK)
    rc = sqlite3_prepare_v2 (db,
                             "SELECT name FROM sqlite_master WHERE type = 'table' "
                             "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
                             -1, &stmt, NULL);
  while (rc == SQLITE_OK || rc == SQLITE_ROW)
    {
      rc = sqlite3_step (stmt);
      if (rc == SQLITE_ROW)
        g_ptr_array_add (tables, g_strdup ((const char *)sqlite3_column_text (stmt, 0)));
    }

  if (rc != SQLITE_DONE)
    {
      g_set_error (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_INVALID,
                   _("%s: not a readable SQLite database (%s); a PopVision profile.pop "
                     "may be cut short or damaged"),
                   context->path, db ? sqlite3_errmsg (db) : sqlite3_errstr (rc));
      sqlite3_finalize (stmt);
      sqlite3_close (db);
      return FALSE;
    }

  sqlite3_finalize (stmt);
  sqlite3_close (db);

  if (tables->len == 0)
    {
      g_set_error (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_UNSUPPORTED,
                   _("%s: a PopVision profile.pop (SQLite) database; this version of Tessera "
                     "cannot read the profile.pop schema, and this one has no tables. "
                     "Where the Poplar SDK is enabled, run: %s, and open the file it writes"),
                   context->path, command);
      return FALSE;
    }

  g_ptr_array_add (tables, NULL);
  {
    g_autofree char *list = g_strjoinv (", ", (char **)tables->pdata);

    g_set_error (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_UNSUPPORTED,
                 _("%s: a PopVision profile.pop (SQLite) database; this version of Tessera "
                   "cannot read the profile.pop schema, which Graphcore does not document "
                   "(Graphcore's libpva, in the Poplar SDK, reads it). Its %u tables: %s. "
                   "Where the Poplar SDK is enabled, run: %s, and open the file it writes"),
                 context->path, tables->len - 1, list, command);
  }

  return FALSE;
}

static void
tes_poplar_pop_importer_class_init (TesPoplarPopImporterClass *klass)
{
  TesImporterClass *importer_class = TES_IMPORTER_CLASS (klass);

  importer_class->name = "poplar-pop";
  importer_class->title = "Graphcore PopVision profile.pop (detected; names the export command)";
  importer_class->version = 1;
  importer_class->sniff = tes_poplar_pop_importer_sniff;
  importer_class->import = tes_poplar_pop_importer_import;
}

static void
tes_poplar_pop_importer_init (TesPoplarPopImporter *self)
{
}
