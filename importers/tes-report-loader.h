/* tes-report-loader.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "tes-importer.h"
#include "tes-progress.h"
#include "tes-report.h"

G_BEGIN_DECLS

typedef enum
{
  TES_REPORT_OPEN_NONE     = 0,
  /* Import again even when a matching cache exists. */
  TES_REPORT_OPEN_REIMPORT = 1 << 0,
} TesReportOpenFlags;

#define TES_TYPE_REPORT_LOADER (tes_report_loader_get_type ())

G_DECLARE_FINAL_TYPE (TesReportLoader, tes_report_loader, TES, REPORT_LOADER, GObject)

TesReportLoader *tes_report_loader_new                (void);
void             tes_report_loader_add_file           (TesReportLoader      *self,
                                                       const char           *path);
void             tes_report_loader_add_file_with_importer (TesReportLoader  *self,
                                                       const char           *path,
                                                       TesImporter          *importer);
const char      *tes_report_loader_get_format         (TesReportLoader      *self);
void             tes_report_loader_set_format         (TesReportLoader      *self,
                                                       const char           *format);
TesReportOpenFlags tes_report_loader_get_flags        (TesReportLoader      *self);
void             tes_report_loader_set_flags          (TesReportLoader      *self,
                                                       TesReportOpenFlags    flags);
TesProgress     *tes_report_loader_get_progress       (TesReportLoader      *self);
TesReport       *tes_report_loader_load               (TesReportLoader      *self,
                                                       GCancellable         *cancellable,
                                                       GError              **error);
void             tes_report_loader_load_async         (TesReportLoader      *self,
                                                       GCancellable         *cancellable,
                                                       GAsyncReadyCallback   callback,
                                                       gpointer              user_data);
TesReport       *tes_report_loader_load_finish        (TesReportLoader      *self,
                                                       GAsyncResult         *result,
                                                       GError              **error);

gboolean         tes_report_loader_is_cache_file      (const char           *path);

/* Files whose importers are already known, imported (or their cache
 * reused) as one report, in the calling thread. */
TesReport       *tes_report_import_files              (const char * const   *paths,
                                                       TesImporter * const  *importers,
                                                       guint                 n_files,
                                                       TesReportOpenFlags    flags,
                                                       TesProgress          *progress,
                                                       GCancellable         *cancellable,
                                                       GError              **error);
TesReport       *tes_report_import                    (const char           *path,
                                                       TesImporter          *importer,
                                                       TesReportOpenFlags    flags,
                                                       TesProgress          *progress,
                                                       GCancellable         *cancellable,
                                                       GError              **error);

G_END_DECLS
