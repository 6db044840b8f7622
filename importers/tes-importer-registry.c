/* tes-importer-registry.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-importer-registry"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tes-chrome-importer.h"
#include "tes-importer-registry.h"
#include "tes-poplar-export-importer.h"
#include "tes-poplar-pop-importer.h"
#include "tes-poplar-profile-importer.h"
#include "tes-poplar-report-importer.h"
#include "tes-poplar-size-importer.h"
#include "tes-qaic-runner-importer.h"
#include "tes-qaic-stats-importer.h"
#include "tes-source-file.h"
#include "tes-sigmastar-img-info-importer.h"
#include "tes-sigmastar-op-time-importer.h"
#include "tes-tensorrt-profile-importer.h"
#include "tes-tensorrt-times-importer.h"
#include "tes-torq-annotated-importer.h"
#include "tes-torq-host-overview-importer.h"
#include "tes-torq-perfetto-importer.h"
#include "tes-torq-runtime-importer.h"
#include "tes-torq-timeline-importer.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <glib/gstdio.h>

/* Every importer Tessera ships, in the order ties are broken. */
static GType
builtin_type (guint i)
{
  switch (i)
    {
    case 0: return TES_TYPE_SIGMASTAR_OP_TIME_IMPORTER;
    case 1: return TES_TYPE_CHROME_IMPORTER;
    case 2: return TES_TYPE_QAIC_STATS_IMPORTER;
    case 3: return TES_TYPE_QAIC_RUNNER_IMPORTER;
    case 4: return TES_TYPE_SIGMASTAR_IMG_INFO_IMPORTER;
    case 5: return TES_TYPE_POPLAR_REPORT_IMPORTER;
    case 6: return TES_TYPE_POPLAR_SIZE_IMPORTER;
    case 7: return TES_TYPE_POPLAR_POP_IMPORTER;
    case 8: return TES_TYPE_TORQ_TIMELINE_IMPORTER;
    case 9: return TES_TYPE_TORQ_RUNTIME_IMPORTER;
    case 10: return TES_TYPE_TORQ_ANNOTATED_IMPORTER;
    case 11: return TES_TYPE_TORQ_PERFETTO_IMPORTER;
    case 12: return TES_TYPE_TORQ_HOST_OVERVIEW_IMPORTER;
    case 13: return TES_TYPE_TENSORRT_PROFILE_IMPORTER;
    case 14: return TES_TYPE_TENSORRT_TIMES_IMPORTER;
    case 15: return TES_TYPE_POPLAR_PROFILE_IMPORTER;
    case 16: return TES_TYPE_POPLAR_EXPORT_IMPORTER;
    default: return G_TYPE_INVALID;
    }
}

/* Importers are stateless; one shared instance of each serves all
 * threads. Returns an array owned by the registry. */
GPtrArray *
tes_importer_registry_get_all (void)
{
  static GPtrArray *all;

  if (g_once_init_enter (&all))
    {
      GPtrArray *array = g_ptr_array_new_with_free_func (g_object_unref);
      GType type;

      for (guint i = 0; (type = builtin_type (i)) != G_TYPE_INVALID; i++)
        g_ptr_array_add (array, g_object_new (type, NULL));

      g_once_init_leave (&all, array);
    }

  return all;
}

TesImporter *
tes_importer_registry_lookup (const char *name)
{
  GPtrArray *all = tes_importer_registry_get_all ();

  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < all->len; i++)
    {
      TesImporter *importer = g_ptr_array_index (all, i);

      if (g_strcmp0 (tes_importer_get_name (importer), name) == 0)
        return importer;
    }

  return NULL;
}

TesImporter *
tes_importer_registry_sniff (const guint8 *head,
                             gsize         head_len,
                             const char   *basename,
                             guint        *confidence)
{
  GPtrArray *all = tes_importer_registry_get_all ();
  TesImporter *best = NULL;
  guint best_score = 0;

  for (guint i = 0; i < all->len; i++)
    {
      TesImporter *importer = g_ptr_array_index (all, i);
      guint score = tes_importer_sniff (importer, head, head_len, basename);

      if (score > best_score)
        {
          best = importer;
          best_score = score;
        }
    }

  if (confidence)
    *confidence = best_score;

  return best;
}

char *
tes_importer_registry_describe (void)
{
  GPtrArray *all = tes_importer_registry_get_all ();
  GString *str = g_string_new (NULL);

  for (guint i = 0; i < all->len; i++)
    {
      TesImporter *importer = g_ptr_array_index (all, i);

      g_string_append_printf (str, "  %-24s %s\n",
                              tes_importer_get_name (importer),
                              tes_importer_get_title (importer));
    }

  return g_string_free (str, FALSE);
}

static gboolean
read_head (const char  *path,
           guint8      *buf,
           gsize       *len,
           GError     **error)
{
  int fd = tes_source_file_open (path, error);
  gsize got = 0;

  if (fd < 0)
    return FALSE;

  while (got < TES_SNIFF_SIZE)
    {
      gssize n = read (fd, buf + got, TES_SNIFF_SIZE - got);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int errsv = errno;
          close (fd);
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                       "%s: %s", path, g_strerror (errsv));
          return FALSE;
        }
      if (n == 0)
        break;
      got += n;
    }

  close (fd);
  *len = got;
  return TRUE;
}

/* The importer named by format, or else the one most confident about the
 * file's head. */
TesImporter *
tes_importer_registry_choose (const char  *path,
                              const char  *format,
                              GError     **error)
{
  g_autofree guint8 *head = NULL;
  g_autofree char *basename = NULL;
  TesImporter *importer;
  gsize len = 0;

  g_return_val_if_fail (path != NULL, NULL);

  if (format != NULL)
    {
      if (!(importer = tes_importer_registry_lookup (format)))
        {
          g_autofree char *known = tes_importer_registry_describe ();

          g_set_error (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_UNKNOWN_FORMAT,
                       _("Unknown format '%s'; known formats:\n%s"), format, known);
          return NULL;
        }

      return importer;
    }

  head = g_malloc (TES_SNIFF_SIZE);
  if (!read_head (path, head, &len, error))
    return NULL;

  if (len == 0)
    {
      g_set_error (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_EMPTY,
                   _("%s: empty file"), path);
      return NULL;
    }

  basename = g_path_get_basename (path);
  if (!(importer = tes_importer_registry_sniff (head, len, basename, NULL)))
    {
      g_set_error (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_UNKNOWN_FORMAT,
                   _("%s: not a format Tessera recognises (use --format to name one)"), path);
      return NULL;
    }

  return importer;
}
