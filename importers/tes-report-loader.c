/* tes-report-loader.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-report-loader"

#include "config.h"

#include <glib/gi18n-lib.h>

#include <glib/gstdio.h>
#include <string.h>

#include "tes-cache-writer.h"
#include "tes-importer-registry.h"
#include "tes-report-loader.h"
#include "tes-report-private.h"
#include "tes-source-file.h"

/* TesReportLoader turns the files a user gives into one TesReport: it
 * refuses what is not a regular file (a FIFO would block a reader for
 * ever), opens a .tessera cache as it is, sniffs every other file for its
 * importer, reuses the cache that matches them or imports them into a new
 * one. All of it runs in the calling thread or, with load_async(), in a
 * GTask thread, reporting through one TesProgress. */
struct _TesReportLoader
{
  GObject             parent_instance;

  GPtrArray          *paths;       /* char* */
  GPtrArray          *importers;   /* TesImporter* or NULL: sniff */
  char               *format;
  TesReportOpenFlags  flags;
  TesProgress        *progress;
};

enum {
  PROP_0,
  PROP_FORMAT,
  PROP_PROGRESS,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (TesReportLoader, tes_report_loader, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static void
tes_report_loader_finalize (GObject *object)
{
  TesReportLoader *self = (TesReportLoader *)object;

  g_clear_pointer (&self->paths, g_ptr_array_unref);
  g_clear_pointer (&self->importers, g_ptr_array_unref);
  g_clear_pointer (&self->format, g_free);
  g_clear_object (&self->progress);

  G_OBJECT_CLASS (tes_report_loader_parent_class)->finalize (object);
}

static void
tes_report_loader_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  TesReportLoader *self = TES_REPORT_LOADER (object);

  switch (prop_id)
    {
    case PROP_FORMAT:
      g_value_set_string (value, self->format);
      break;

    case PROP_PROGRESS:
      g_value_set_object (value, self->progress);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tes_report_loader_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  TesReportLoader *self = TES_REPORT_LOADER (object);

  switch (prop_id)
    {
    case PROP_FORMAT:
      tes_report_loader_set_format (self, g_value_get_string (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tes_report_loader_class_init (TesReportLoaderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tes_report_loader_finalize;
  object_class->get_property = tes_report_loader_get_property;
  object_class->set_property = tes_report_loader_set_property;

  /* The importer every file is read with; NULL: sniff each file. */
  properties[PROP_FORMAT] =
    g_param_spec_string ("format", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_PROGRESS] =
    g_param_spec_object ("progress", NULL, NULL, TES_TYPE_PROGRESS,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
importer_unref (gpointer importer)
{
  if (importer != NULL)
    g_object_unref (importer);
}

static void
tes_report_loader_init (TesReportLoader *self)
{
  self->paths = g_ptr_array_new_with_free_func (g_free);
  self->importers = g_ptr_array_new_with_free_func (importer_unref);
  self->progress = tes_progress_new ();
}

TesReportLoader *
tes_report_loader_new (void)
{
  return g_object_new (TES_TYPE_REPORT_LOADER, NULL);
}

/* Adds a file of the run; its importer is sniffed from its content unless
 * a format is set. */
void
tes_report_loader_add_file (TesReportLoader *self,
                            const char      *path)
{
  tes_report_loader_add_file_with_importer (self, path, NULL);
}

void
tes_report_loader_add_file_with_importer (TesReportLoader *self,
                                          const char      *path,
                                          TesImporter     *importer)
{
  g_return_if_fail (TES_IS_REPORT_LOADER (self));
  g_return_if_fail (path != NULL);
  g_return_if_fail (!importer || TES_IS_IMPORTER (importer));

  g_ptr_array_add (self->paths, g_strdup (path));
  g_ptr_array_add (self->importers, importer ? g_object_ref (importer) : NULL);
}

const char *
tes_report_loader_get_format (TesReportLoader *self)
{
  g_return_val_if_fail (TES_IS_REPORT_LOADER (self), NULL);

  return self->format;
}

void
tes_report_loader_set_format (TesReportLoader *self,
                              const char      *format)
{
  g_return_if_fail (TES_IS_REPORT_LOADER (self));

  if (g_strcmp0 (self->format, format) == 0)
    return;

  g_free (self->format);
  self->format = g_strdup (format);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FORMAT]);
}

TesReportOpenFlags
tes_report_loader_get_flags (TesReportLoader *self)
{
  g_return_val_if_fail (TES_IS_REPORT_LOADER (self), 0);

  return self->flags;
}

void
tes_report_loader_set_flags (TesReportLoader    *self,
                             TesReportOpenFlags  flags)
{
  g_return_if_fail (TES_IS_REPORT_LOADER (self));

  self->flags = flags;
}

/**
 * tes_report_loader_get_progress:
 *
 * Returns: (transfer none): the progress of the load, updated from the
 * loading thread (stage text: reading, importing, writing the cache)
 */
TesProgress *
tes_report_loader_get_progress (TesReportLoader *self)
{
  g_return_val_if_fail (TES_IS_REPORT_LOADER (self), NULL);

  return self->progress;
}

static gboolean
has_sqlite_head (const char *path)
{
  static const char magic[] = "SQLite format 3";
  char head[sizeof magic] = { 0 };
  FILE *file;
  gboolean is_sqlite;

  if (!(file = g_fopen (path, "rb")))
    return FALSE;
  is_sqlite = fread (head, 1, sizeof magic, file) == sizeof magic &&
              memcmp (head, magic, sizeof magic) == 0;
  fclose (file);

  return is_sqlite;
}

/* A Tessera cache says so by its name; a renamed one is an SQLite file
 * that no importer claims (a profile.pop is SQLite too, and has one). */
gboolean
tes_report_loader_is_cache_file (const char *path)
{
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (path != NULL, FALSE);

  if (g_str_has_suffix (path, ".tessera"))
    return TRUE;

  return has_sqlite_head (path) &&
         tes_importer_registry_choose (path, NULL, &error) == NULL;
}

/* The sources' content hashed on a thread of its own while they are
 * parsed: on a 1M-event trace that is a third of a second the import's
 * main thread no longer spends before the parse starts. */
typedef struct
{
  TesSourceStamp **stamps;
  TesSourceHash  **hashes;      /* NULL: hashed here, not by its importer */
  guint            n;
  GCancellable    *cancellable;
  char           **fingerprints;
  GError          *error;
} Fingerprints;

static gpointer
fingerprint_sources (gpointer data)
{
  Fingerprints *f = data;

  for (guint i = 0; i < f->n && f->error == NULL; i++)
    if (f->stamps[i]->fingerprint == NULL && f->hashes[i] == NULL)
      f->fingerprints[i] = tes_cache_fingerprint_file (f->stamps[i]->path, f->cancellable, &f->error);

  return NULL;
}

static gboolean
import_sources (const char * const  *paths,
                TesImporter * const *importers,
                Fingerprints        *f,
                gint64              *source_ids,
                TesCacheWriter      *writer,
                TesProgress         *progress,
                GCancellable        *cancellable,
                GError             **error);

static gboolean
import_to_cache (const char * const  *paths,
                 TesImporter * const *importers,
                 TesSourceStamp     **stamps,
                 guint                n,
                 const char          *cache_path,
                 TesProgress         *progress,
                 GCancellable        *cancellable,
                 GError             **error)
{
  g_autoptr(TesCacheWriter) writer = NULL;
  g_autoptr(GCancellable) hash_cancel = g_cancellable_new ();
  g_autofree gint64 *source_ids = g_new0 (gint64, n);
  Fingerprints f = { stamps, g_new0 (TesSourceHash *, n), n, hash_cancel, g_new0 (char *, n + 1), NULL };
  GThread *thread = NULL;
  gboolean any_left = FALSE;
  gboolean ok;

  if (!(writer = tes_cache_writer_new (cache_path, error)))
    {
      g_strfreev (f.fingerprints);
      g_free (f.hashes);
      return FALSE;
    }

  /* an importer that reads the whole file anyway hashes it as it goes */
  for (guint i = 0; i < n; i++)
    if (stamps[i]->fingerprint == NULL && TES_IMPORTER_GET_CLASS (importers[i])->hashes_source)
      f.hashes[i] = tes_source_hash_new ((guint64)stamps[i]->size);
    else if (stamps[i]->fingerprint == NULL)
      any_left = TRUE;

  /* a thread only for what no importer hashes */
  if (any_left)
    thread = g_thread_new ("tes-fingerprint", fingerprint_sources, &f);
  ok = import_sources (paths, importers, &f, source_ids, writer, progress, cancellable, error);
  if (!ok)
    g_cancellable_cancel (hash_cancel);
  if (thread != NULL)
    g_thread_join (thread);

  if (ok && f.error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&f.error));
      ok = FALSE;
    }
  for (guint i = 0; ok && i < n; i++)
    if (f.fingerprints[i] != NULL)
      {
        tes_cache_writer_set_fingerprint (writer, source_ids[i], f.fingerprints[i]);
        stamps[i]->fingerprint = g_steal_pointer (&f.fingerprints[i]);
      }
  g_clear_error (&f.error);
  for (guint i = 0; i < n; i++)
    {
      g_free (f.fingerprints[i]);
      tes_source_hash_free (f.hashes[i]);
    }
  g_free (f.fingerprints);
  g_free (f.hashes);
  if (!ok)
    return FALSE;

  if (progress != NULL)
    {
      tes_progress_set_range (progress, 0.0, 1.0);
      tes_progress_update (progress, 0.95, _("Writing the cache"));
    }

  if (!tes_cache_writer_commit (writer, cancellable, error))
    return FALSE;

  if (progress != NULL)
    tes_progress_update (progress, 1.0, _("Done"));

  return TRUE;
}

static gboolean
import_sources (const char * const  *paths,
                TesImporter * const *importers,
                Fingerprints        *f,
                gint64              *source_ids,
                TesCacheWriter      *writer,
                TesProgress         *progress,
                GCancellable        *cancellable,
                GError             **error)
{
  TesSourceStamp **stamps = f->stamps;
  guint n = f->n;

  /* One writer for the whole group, files in the order given: importers
   * of files that belong together meet in shared tables (tiles by (ipu,
   * tile), info), so the order does not matter to the result. */
  for (guint i = 0; i < n; i++)
    {
      TesImportContext context = { 0 };

      context.path = paths[i];
      context.writer = writer;
      context.progress = progress;
      context.cancellable = cancellable;
      context.n_sources = n;
      context.source_hash = f->hashes[i];
      context.source_id = tes_cache_writer_add_source (writer, stamps[i],
                                                       tes_importer_get_name (importers[i]),
                                                       tes_importer_get_version (importers[i]),
                                                       tes_importer_get_title (importers[i]));

      if (progress != NULL)
        {
          g_autofree char *message = g_strdup_printf (_("Importing %s"), paths[i]);

          tes_progress_set_range (progress, 0.0, 1.0);
          tes_progress_update (progress, 0.95 * i / n, message);
          tes_progress_set_range (progress, 0.95 * i / n, 0.95 * (i + 1) / n);
        }

      if (!tes_importer_import (importers[i], &context, error))
        return FALSE;
      source_ids[i] = context.source_id;

      /* the blocks the importer did not read whole (where its pieces
       * were cut, say) */
      if (f->hashes[i] != NULL)
        {
          if (!tes_source_hash_fill (f->hashes[i], stamps[i]->path, cancellable, error))
            return FALSE;
          f->fingerprints[i] = tes_source_hash_finish (f->hashes[i]);
        }
    }

  return TRUE;
}

static void
stamps_free (TesSourceStamp **stamps,
             guint            n)
{
  for (guint i = 0; i < n; i++)
    g_clear_pointer (&stamps[i], tes_source_stamp_free);
  g_free (stamps);
}

/* Opens the files as one report: from the cache when it matches all of
 * them, else by importing each with its importer into a new cache. */
TesReport *
tes_report_import_files (const char * const  *paths,
                         TesImporter * const *importers,
                         guint                n_files,
                         TesReportOpenFlags   flags,
                         TesProgress         *progress,
                         GCancellable        *cancellable,
                         GError             **error)
{
  TesSourceStamp **stamps = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autofree char *cache_path = NULL;
  g_autofree const char **names = NULL;
  g_autofree guint *versions = NULL;
  g_autoptr(GError) reuse_error = NULL;
  gboolean reused = FALSE;

  g_return_val_if_fail (paths != NULL && importers != NULL, NULL);
  g_return_val_if_fail (n_files > 0, NULL);
  g_return_val_if_fail (!progress || TES_IS_PROGRESS (progress), NULL);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), NULL);

  stamps = g_new0 (TesSourceStamp *, n_files);
  names = g_new0 (const char *, n_files);
  versions = g_new0 (guint, n_files);

  for (guint i = 0; i < n_files; i++)
    {
      g_return_val_if_fail (TES_IS_IMPORTER (importers[i]), NULL);

      /* stat only: the cache check reads a file only when its stat
       * identity is not the one recorded */
      if (!tes_source_file_check (paths[i], error) ||
          !(stamps[i] = tes_source_stamp_stat (paths[i], error)))
        goto fail;

      for (guint j = 0; j < i; j++)
        if (g_str_equal (stamps[i]->path, stamps[j]->path))
          {
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                         _("%s is given twice"), paths[i]);
            goto fail;
          }

      names[i] = tes_importer_get_name (importers[i]);
      versions[i] = tes_importer_get_version (importers[i]);
    }

  cache_path = tes_cache_path_for_sources (paths, n_files);

  if (!(flags & TES_REPORT_OPEN_REIMPORT) &&
      tes_cache_is_reusable (cache_path, stamps, names, versions, n_files, cancellable, &reuse_error))
    {
      g_autoptr(GError) open_error = NULL;

      if ((report = tes_report_open_cache (cache_path, &open_error)))
        reused = TRUE;
      else
        g_message ("Rebuilding %s: %s", cache_path, open_error->message);
    }
  else if (g_error_matches (reuse_error, TES_CACHE_ERROR, TES_CACHE_ERROR_SCHEMA) ||
           g_error_matches (reuse_error, TES_CACHE_ERROR, TES_CACHE_ERROR_INCOMPLETE))
    g_message ("Rebuilding %s: %s", cache_path, reuse_error->message);
  else if (g_error_matches (reuse_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_propagate_error (error, g_steal_pointer (&reuse_error));
      goto fail;
    }
  else if (reuse_error != NULL)
    g_debug ("Importing into %s: %s", cache_path, reuse_error->message);

  if (report == NULL)
    {
      /* the content not hashed yet (no cache, or it failed before):
       * import_to_cache() hashes it alongside the import */
      if (!import_to_cache (paths, importers, stamps, n_files, cache_path, progress, cancellable, error))
        goto fail;

      if (!(report = tes_report_open_cache (cache_path, error)))
        goto fail;
    }

  tes_report_set_opened_from (report, paths, stamps, n_files, reused);
  stamps_free (stamps, n_files);

  return g_steal_pointer (&report);

fail:
  stamps_free (stamps, n_files);
  return NULL;
}

TesReport *
tes_report_import (const char          *path,
                   TesImporter         *importer,
                   TesReportOpenFlags   flags,
                   TesProgress         *progress,
                   GCancellable        *cancellable,
                   GError             **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (TES_IS_IMPORTER (importer), NULL);

  return tes_report_import_files (&path, &importer, 1, flags, progress, cancellable, error);
}

static gint
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *)a, *(const char * const *)b);
}

/* A folder given as a file stands for the traces in it (the per-rank
 * traces of one job): every file directly in it, in name order, that an
 * importer recognises; hidden files, subfolders and Tessera caches are
 * left out. A folder with none is an error naming it. */
static gboolean
add_folder (TesReportLoader  *self,
            const char       *folder,
            GPtrArray        *paths,
            GPtrArray        *importers,
            GError          **error)
{
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  guint found = 0;

  if (!(dir = g_dir_open (folder, 0, error)))
    return FALSE;
  while ((name = g_dir_read_name (dir)) != NULL)
    if (name[0] != '.' && !strstr (name, ".tessera"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);

  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (folder, g_ptr_array_index (names, i), NULL);
      g_autoptr(GError) ignored = NULL;
      TesImporter *importer;

      if (!g_file_test (path, G_FILE_TEST_IS_REGULAR) ||
          !(importer = tes_importer_registry_choose (path, self->format, &ignored)))
        continue;
      g_ptr_array_add (paths, g_steal_pointer (&path));
      g_ptr_array_add (importers, importer);
      found++;
    }

  if (found == 0)
    {
      g_set_error (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_EMPTY,
                   _("%s: no trace in the folder (of its %u files, no importer recognises any)"), folder, names->len);
      return FALSE;
    }

  return TRUE;
}

static TesReport *
load (TesReportLoader  *self,
      GCancellable     *cancellable,
      GError          **error)
{
  g_autoptr(GPtrArray) importers = g_ptr_array_new ();
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  guint n_given = self->paths->len;

  if (n_given == 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("No file to open"));
      return NULL;
    }

  tes_progress_set_range (self->progress, 0.0, 1.0);

  for (guint i = 0; i < n_given; i++)
    {
      const char *path = g_ptr_array_index (self->paths, i);
      TesImporter *importer = g_ptr_array_index (self->importers, i);
      g_autofree char *message = g_strdup_printf (_("Reading %s"), path);

      tes_progress_update (self->progress, 0.0, message);

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;

      if (importer == NULL && g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          if (!add_folder (self, path, paths, importers, error))
            return NULL;
          continue;
        }

      if (!tes_source_file_check (path, error))
        return NULL;

      if (importer == NULL && self->format == NULL && tes_report_loader_is_cache_file (path))
        {
          /* A shared report: the cache alone, its sources maybe elsewhere */
          if (n_given > 1)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("%s is a Tessera cache: open it alone, it holds its whole report"), path);
              return NULL;
            }

          return tes_report_open_cache (path, error);
        }

      if (importer == NULL &&
          !(importer = tes_importer_registry_choose (path, self->format, error)))
        return NULL;

      g_ptr_array_add (paths, g_strdup (path));
      g_ptr_array_add (importers, importer);
    }

  return tes_report_import_files ((const char * const *)paths->pdata,
                                  (TesImporter * const *)importers->pdata,
                                  paths->len, self->flags, self->progress, cancellable, error);
}

/**
 * tes_report_loader_load:
 *
 * Opens the files added so far as one report, in the calling thread.
 *
 * Returns: (transfer full): the report, or %NULL with @error set, naming
 * the file (and line or byte) that could not be read
 */
TesReport *
tes_report_loader_load (TesReportLoader  *self,
                        GCancellable     *cancellable,
                        GError          **error)
{
  g_return_val_if_fail (TES_IS_REPORT_LOADER (self), NULL);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), NULL);

  return load (self, cancellable, error);
}

static void
tes_report_loader_load_worker (GTask        *task,
                               gpointer      source_object,
                               gpointer      task_data,
                               GCancellable *cancellable)
{
  GError *error = NULL;
  TesReport *report;

  if ((report = load (source_object, cancellable, &error)))
    g_task_return_pointer (task, report, g_object_unref);
  else
    g_task_return_error (task, error);
}

/* Sniffing included, everything runs in a thread: a slow disk, a FIFO or
 * a 2 GB file never blocks the caller's main loop. */
void
tes_report_loader_load_async (TesReportLoader     *self,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (TES_IS_REPORT_LOADER (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tes_report_loader_load_async);
  g_task_run_in_thread (task, tes_report_loader_load_worker);
}

TesReport *
tes_report_loader_load_finish (TesReportLoader  *self,
                               GAsyncResult     *result,
                               GError          **error)
{
  g_return_val_if_fail (TES_IS_REPORT_LOADER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
