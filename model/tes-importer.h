/* tes-importer.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "tes-cache-writer.h"
#include "tes-model-types.h"
#include "tes-progress.h"
#include "tes-source-hash.h"

G_BEGIN_DECLS

#define TES_IMPORT_ERROR (tes_import_error_quark ())

typedef enum
{
  TES_IMPORT_ERROR_INVALID = 1,   /* malformed content */
  TES_IMPORT_ERROR_EMPTY,         /* nothing to import */
  TES_IMPORT_ERROR_TRUNCATED,     /* ended in the middle of a record */
  TES_IMPORT_ERROR_UNSUPPORTED,   /* recognised, but this version cannot read it */
  TES_IMPORT_ERROR_UNKNOWN_FORMAT,
} TesImportError;

/* Size of the head of a file that sniffers get to look at. */
#define TES_SNIFF_SIZE (64 * 1024)

/* What an importer gets to do its work; all fields are owned by the caller. */
typedef struct
{
  const char     *path;          /* as the user gave it, for messages */
  TesCacheWriter *writer;
  gint64          source_id;
  TesProgress    *progress;      /* may be NULL */
  GCancellable   *cancellable;   /* may be NULL */
  guint           n_sources;     /* files of the report, this one included (0: unknown) */
  /* for an importer whose class hashes_source: the blocks it reads whole
   * go here (tes_source_hash_add_block ()), the loader reads the rest;
   * NULL when the fingerprint is known */
  TesSourceHash  *source_hash;
} TesImportContext;

#define TES_TYPE_IMPORTER (tes_importer_get_type ())

G_DECLARE_DERIVABLE_TYPE (TesImporter, tes_importer, TES, IMPORTER, GObject)

struct _TesImporterClass
{
  GObjectClass parent_class;

  /* Set by each subclass in class_init. Bump version whenever the rows an
   * importer writes change: caches written by older versions are rebuilt. */
  const char *name;
  const char *title;
  guint       version;
  /* import () adds the blocks of the file it reads to the context's
   * source_hash, so that the file is not read again for its fingerprint */
  gboolean    hashes_source;

  /* 0 (not this format) to 100 (certain), from at most TES_SNIFF_SIZE
   * bytes of the head of the file and its base name. */
  guint    (*sniff)  (TesImporter       *self,
                      const guint8      *head,
                      gsize              head_len,
                      const char        *basename);
  gboolean (*import) (TesImporter       *self,
                      TesImportContext  *context,
                      GError           **error);

  gpointer _reserved[8];
};

GQuark       tes_import_error_quark      (void);
const char  *tes_importer_get_name       (TesImporter       *self);
const char  *tes_importer_get_title      (TesImporter       *self);
guint        tes_importer_get_version    (TesImporter       *self);
guint        tes_importer_sniff          (TesImporter       *self,
                                          const guint8      *head,
                                          gsize              head_len,
                                          const char        *basename);
gboolean     tes_importer_import         (TesImporter       *self,
                                          TesImportContext  *context,
                                          GError           **error);

G_END_DECLS
