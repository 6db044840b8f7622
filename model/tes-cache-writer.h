/* tes-cache-writer.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "tes-cache.h"
#include "tes-model-types.h"

G_BEGIN_DECLS

#define TES_TYPE_CACHE_WRITER (tes_cache_writer_get_type ())

G_DECLARE_FINAL_TYPE (TesCacheWriter, tes_cache_writer, TES, CACHE_WRITER, GObject)

/* One row of the per-operator aggregates a vendor tool prints. */
typedef struct
{
  gint64      source_id;
  gint64      track_id;   /* 0: report-wide */
  gint64      run_id;     /* 0: none */
  gint64      op_index;   /* -1: the vendor gives no index */
  const char *name;
  const char *type;
  gint64      count;      /* -1: unknown */
  gint64      total;      /* in clock_id's ticks; -1: unknown */
  gint64      clock_id;   /* 0: none */
  double      share;      /* percent as the vendor printed it; NaN: none */
  const char *args_json;  /* NULL: none */
} TesOperatorRow;

#define TES_OPERATOR_ROW_INIT { 0, 0, 0, -1, NULL, NULL, -1, -1, 0, NAN, NULL }

/* Called by tes_cache_writer_commit() before it stores anything, in the
 * order added: for importers whose rows depend on several files of a group
 * (a Poplar graph profile and its execution profile), which can only be
 * written once every file has been read. FALSE with @error fails the commit. */
typedef gboolean (*TesCacheWriterCommitHook) (TesCacheWriter  *writer,
                                              gpointer         data,
                                              GError         **error);

TesCacheWriter *tes_cache_writer_new               (const char           *cache_path,
                                                    GError              **error);
const char     *tes_cache_writer_get_temp_path     (TesCacheWriter       *self);
gint64          tes_cache_writer_add_source        (TesCacheWriter       *self,
                                                    const TesSourceStamp *stamp,
                                                    const char           *importer_name,
                                                    guint                 importer_version,
                                                    const char           *format);
void            tes_cache_writer_set_fingerprint   (TesCacheWriter       *self,
                                                    gint64                source_id,
                                                    const char           *fingerprint);
guint32         tes_cache_writer_intern            (TesCacheWriter       *self,
                                                    const char           *str);
gint64          tes_cache_writer_add_clock         (TesCacheWriter       *self,
                                                    const char           *name,
                                                    TesTimeUnit           unit,
                                                    gint64                ticks_per_second);
gint64          tes_cache_writer_add_track         (TesCacheWriter       *self,
                                                    gint64                parent_id,
                                                    gint64                source_id,
                                                    gint64                clock_id,
                                                    TesTrackKind          kind,
                                                    const char           *name,
                                                    gint64                sort_index,
                                                    const char           *native_id);
void            tes_cache_writer_add_slice         (TesCacheWriter       *self,
                                                    gint64                track_id,
                                                    gint64                start,
                                                    gint64                dur,
                                                    guint32               name,
                                                    guint32               category,
                                                    TesSliceFlags         flags,
                                                    const char           *args_json,
                                                    gssize                args_len);
void            tes_cache_writer_close_track       (TesCacheWriter       *self,
                                                    gint64                track_id);
void            tes_cache_writer_add_instant       (TesCacheWriter       *self,
                                                    gint64                track_id,
                                                    gint64                ts,
                                                    guint32               name,
                                                    guint32               category,
                                                    TesInstantScope       scope,
                                                    const char           *args_json);
void            tes_cache_writer_add_counter_value (TesCacheWriter       *self,
                                                    gint64                track_id,
                                                    gint64                ts,
                                                    double                value);
void            tes_cache_writer_add_flow          (TesCacheWriter       *self,
                                                    guint32               name,
                                                    guint32               category,
                                                    gint64                from_track,
                                                    gint64                from_ts,
                                                    gint64                to_track,
                                                    gint64                to_ts);
gint64          tes_cache_writer_add_run           (TesCacheWriter       *self,
                                                    const char           *name,
                                                    gint64                clock_id,
                                                    gint64                start,
                                                    gint64                end);
void            tes_cache_writer_set_run_ipu       (TesCacheWriter       *self,
                                                    gint64                run_id,
                                                    gint                  ipu);
void            tes_cache_writer_set_track_tile    (TesCacheWriter       *self,
                                                    gint64                track_id,
                                                    gint                  ipu,
                                                    gint                  tile);
void            tes_cache_writer_add_operator      (TesCacheWriter       *self,
                                                    const TesOperatorRow *row);
gint64          tes_cache_writer_add_tile          (TesCacheWriter       *self,
                                                    gint                  ipu,
                                                    gint                  tile,
                                                    gint64                memory_limit,
                                                    gint64                track_id);
void            tes_cache_writer_add_tile_memory   (TesCacheWriter       *self,
                                                    gint64                tile_id,
                                                    const char           *category,
                                                    gint64                bytes);
void            tes_cache_writer_add_tile_histogram_bin (TesCacheWriter *self,
                                                         gint64          source_id,
                                                         guint           histogram,
                                                         gint            ipu,
                                                         gint64          lower,
                                                         gint64          upper,
                                                         gint64          tiles);
void            tes_cache_writer_add_bsp_step      (TesCacheWriter       *self,
                                                    gint64                run_id,
                                                    gint64                step,
                                                    gint64                clock_id,
                                                    gint64                start,
                                                    gint64                dur,
                                                    const char           *name,
                                                    guint                 n_tiles,
                                                    const guint32        *tile_cycles,
                                                    const guint8         *tile_states);
void            tes_cache_writer_set_info          (TesCacheWriter       *self,
                                                    gint64                source_id,
                                                    const char           *key,
                                                    const char           *value);
void            tes_cache_writer_add_warning       (TesCacheWriter       *self,
                                                    gint64                source_id,
                                                    const char           *text);
void            tes_cache_writer_set_clock_offset  (TesCacheWriter       *self,
                                                    gint64                clock_id,
                                                    gint64                offset_ns);
void            tes_cache_writer_rename_track      (TesCacheWriter       *self,
                                                    gint64                track_id,
                                                    const char           *name,
                                                    gint64                sort_index);
void            tes_cache_writer_prefix_runs       (TesCacheWriter       *self,
                                                    gint64                clock_id,
                                                    const char           *prefix);
void            tes_cache_writer_add_commit_hook   (TesCacheWriter       *self,
                                                    TesCacheWriterCommitHook hook,
                                                    gpointer              data,
                                                    GDestroyNotify        destroy);
gboolean        tes_cache_writer_commit            (TesCacheWriter       *self,
                                                    GCancellable         *cancellable,
                                                    GError              **error);

G_END_DECLS
