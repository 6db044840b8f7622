/* tes-importer.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-importer"

#include "config.h"

#include "tes-importer.h"

G_DEFINE_QUARK (tes-import-error-quark, tes_import_error)

G_DEFINE_ABSTRACT_TYPE (TesImporter, tes_importer, G_TYPE_OBJECT)

static void
tes_importer_class_init (TesImporterClass *klass)
{
}

static void
tes_importer_init (TesImporter *self)
{
}

const char *
tes_importer_get_name (TesImporter *self)
{
  g_return_val_if_fail (TES_IS_IMPORTER (self), NULL);

  return TES_IMPORTER_GET_CLASS (self)->name;
}

const char *
tes_importer_get_title (TesImporter *self)
{
  g_return_val_if_fail (TES_IS_IMPORTER (self), NULL);

  return TES_IMPORTER_GET_CLASS (self)->title;
}

guint
tes_importer_get_version (TesImporter *self)
{
  g_return_val_if_fail (TES_IS_IMPORTER (self), 0);

  return TES_IMPORTER_GET_CLASS (self)->version;
}

guint
tes_importer_sniff (TesImporter  *self,
                    const guint8 *head,
                    gsize         head_len,
                    const char   *basename)
{
  g_return_val_if_fail (TES_IS_IMPORTER (self), 0);
  g_return_val_if_fail (head != NULL || head_len == 0, 0);

  return MIN (100, TES_IMPORTER_GET_CLASS (self)->sniff (self, head, MIN (head_len, TES_SNIFF_SIZE), basename));
}

gboolean
tes_importer_import (TesImporter       *self,
                     TesImportContext  *context,
                     GError           **error)
{
  g_return_val_if_fail (TES_IS_IMPORTER (self), FALSE);
  g_return_val_if_fail (context != NULL, FALSE);
  g_return_val_if_fail (TES_IS_CACHE_WRITER (context->writer), FALSE);

  return TES_IMPORTER_GET_CLASS (self)->import (self, context, error);
}
