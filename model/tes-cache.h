/* tes-cache.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "tes-model-types.h"

G_BEGIN_DECLS

#define TES_CACHE_ERROR (tes_cache_error_quark ())

typedef enum
{
  TES_CACHE_ERROR_SQLITE = 1,
  TES_CACHE_ERROR_SCHEMA,
  TES_CACHE_ERROR_INCOMPLETE,
  TES_CACHE_ERROR_STALE,
  TES_CACHE_ERROR_IO,
} TesCacheError;

/* What tessera-cli cache --list says of a cache. */
typedef enum
{
  TES_CACHE_STATE_OK,        /* complete, intact, its sources unchanged or gone */
  TES_CACHE_STATE_STALE,     /* a source changed, or an older schema: reimported on open */
  TES_CACHE_STATE_DAMAGED,   /* corrupt, cut short or tampered with */
} TesCacheState;

/* What identifies the imported content of one source file: its content
 * fingerprint, and its stat identity as git's index keeps it (while that
 * is unchanged, the content is the one fingerprinted then). */
typedef struct
{
  char    *path;          /* absolute */
  gint64   size;
  gint64   mtime_ns;
  char    *fingerprint;   /* hex of a 64-bit hash over the whole content; NULL until read */
  gint64   ctime_ns;
  guint64  dev;
  guint64  ino;
  gint64   stat_at_ns;    /* the clock (CLOCK_REALTIME) just before the stat, so before any read */
} TesSourceStamp;

GQuark          tes_cache_error_quark        (void);
char           *tes_cache_path_for_source    (const char       *source_path);
char           *tes_cache_path_for_sources   (const char * const *source_paths,
                                              guint             n_paths);
char           *tes_cache_fingerprint_file   (const char       *path,
                                              GCancellable     *cancellable,
                                              GError          **error);
char           *tes_cache_fingerprint_bytes  (const guint8     *data,
                                              gsize             len);
TesSourceStamp *tes_source_stamp_new         (const char       *path,
                                              GCancellable     *cancellable,
                                              GError          **error);
TesSourceStamp *tes_source_stamp_stat        (const char       *path,
                                              GError          **error);
gboolean        tes_source_stamp_read        (TesSourceStamp   *stamp,
                                              GCancellable     *cancellable,
                                              GError          **error);
void            tes_source_stamp_free        (TesSourceStamp   *stamp);
gboolean        tes_cache_is_reusable        (const char       *cache_path,
                                              TesSourceStamp * const *stamps,
                                              const char * const *importer_names,
                                              const guint      *importer_versions,
                                              guint             n_sources,
                                              GCancellable     *cancellable,
                                              GError          **error);
void            tes_cache_remove_stale_temps (const char       *cache_path);
int             tes_cache_replace            (const char       *temp_path,
                                              const char       *cache_path);
void            tes_cache_wait_removals      (void);
gboolean        tes_cache_verify             (const char       *cache_path,
                                              GError          **error);
char           *tes_cache_get_user_dir       (void);
GPtrArray      *tes_cache_list_user_caches   (void);
char          **tes_cache_candidates_for_source (const char    *source_path);
TesCacheState   tes_cache_get_state          (const char       *cache_path,
                                              char           ***sources,
                                              GError          **error);
const char     *tes_cache_state_to_string    (TesCacheState     state);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TesSourceStamp, tes_source_stamp_free)

G_END_DECLS
