/* tes-report-private.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <sqlite3.h>

#include "tes-cache-private.h"
#include "tes-report.h"

G_BEGIN_DECLS

/* A report is immutable once opened: tracks, clocks and strings are loaded
 * at open and only read afterwards, so any thread may query it. Each query
 * borrows a read-only SQLite connection from a pool (one connection is
 * never used by two threads at once). */
#define TES_REPORT_BLOCK_SLOTS 512   /* at most 20 MB of records */

typedef struct
{
  gint64  key;       /* chunk id * 16 + block + 1; 0: empty */
  GBytes *records;   /* TesSliceRecord */
} TesReportBlock;

/* At most this many bytes of lane summaries are kept (a level of a
 * lane is at most TES_CACHE_LOD_MAX_BUCKETS buckets). */
#define TES_REPORT_LOD_BYTES (96 * 1024 * 1024)

typedef struct
{
  int     level;
  guint   shift;
  gint64  base;
  gint64  n;
  GBytes *data;      /* n buckets (TesLaneBucket, or TesCounterLodBucket for a counter); NULL until read */
} TesReportLod;

/* A chunk's row of slice_chunks, what a window's query reads of it. */
typedef struct
{
  gint64 id;
  gint64 first;      /* first_index */
  gint64 n;
  gint64 max_dur;
  gint64 data_len;
  gint64 t_min;
  gint64 t_max_end;
} TesReportChunkRow;

struct _TesReport
{
  GObject          parent_instance;

  char           **paths;         /* as given, in order */
  char            *cache_path;
  char            *importer_name;
  char            *format;
  guint            importer_version;
  gboolean         cache_reused;

  GAsyncQueue     *pool;          /* sqlite3* */
  GArray          *sources;       /* TesSourceInfo, in import order */
  GArray          *clocks;        /* TesClock, index = id - 1 */
  GArray          *tracks;        /* TesTrack, index = id - 1 */
  GPtrArray       *strings;       /* char*, index = id */
  TesReportCounts  counts;
  TesCacheCheck   *check;         /* what is left to verify on first read */
  /* decoded data blocks of slice chunks, TES_REPORT_BLOCK_SLOTS of them
   * direct-mapped by (chunk, block): a frame panning over the same slices
   * does not decode them again */
  GMutex           blocks_lock;
  TesReportBlock  *blocks;
  /* lane summaries, per track: its levels (TesReportLod), each level's
   * buckets read once. A row of slice_lod is seeked on a key of which
   * the blob is part: every probe of the search copies whole blobs, so
   * reading a level per frame cost more than the frame's drawing. */
  GMutex           lods_lock;
  GHashTable      *lods;          /* track id -> GArray of TesReportLod; NULL until read */
  /* each track's chunks as slice_chunks lists them (under lods_lock) */
  GHashTable      *chunk_rows;    /* track id -> GArray of TesReportChunkRow */
  gsize            lods_bytes;    /* of buckets held */

  /* tests only: each query slowed, and those the main thread ran counted */
  guint            query_delay_ms;
  GThread         *main_thread;
  guint            main_thread_queries;
};

/* For tests: every query on @self takes @ms longer (as on a slow disk),
 * and those run on the calling thread are counted. */
void      tes_report_set_query_delay_for_testing    (TesReport *self,
                                                     guint      ms);
guint     tes_report_get_main_thread_queries_for_testing (TesReport *self);

/* For the query files (tes-report-*.c): connections from the pool, and the
 * small readers they share. */
sqlite3  *tes_report_borrow_db  (TesReport      *self,
                                 GError        **error);
void      tes_report_return_db  (TesReport      *self,
                                 sqlite3        *db);
gboolean  tes_report_prepare    (sqlite3        *db,
                                 const char     *sql,
                                 sqlite3_stmt  **stmt,
                                 GError        **error);
char     *tes_report_column_dup (sqlite3_stmt   *stmt,
                                 int             col);

/* Runs a query over one of the report's tables on a borrowed connection
 * and hands each row to read_row; ?1, if the query has it, is bound to
 * param. The shared skeleton of the table readers. */
typedef gboolean (*TesReportRowFunc) (TesReport     *self,
                                      sqlite3_stmt  *stmt,
                                      gpointer       out,
                                      GError       **error);

gboolean  tes_report_read_rows  (TesReport         *self,
                                 const char        *sql,
                                 gint64             param,
                                 TesReportRowFunc   read_row,
                                 gpointer           out,
                                 GError           **error);
gboolean  tes_report_read_rows_with (TesReport         *self,
                                     const char        *sql,
                                     const gint64      *params,
                                     guint              n_params,
                                     TesReportRowFunc   read_row,
                                     gpointer           out,
                                     GError           **error);

/* A cache that breaks what its writer guarantees: the error names the
 * cache and where (printf-style: "track 3", "slice 7 of track 2"). */
gboolean  tes_report_chunk_damaged (TesReport            *self,
                                    gint64                chunk_id,
                                    gint64                track_id,
                                    const char           *why,
                                    GError              **error);
gboolean  tes_report_set_damaged  (GError              **error,
                                   TesReport            *self,
                                   const char           *format,
                                   ...) G_GNUC_PRINTF (3, 4);
/* What every reader of slice chunks checks, as their writer left them: a
 * chunk's row (its count, the length of its data, its longest duration),
 * then the records it read. */
gboolean  tes_report_check_chunk  (TesReport            *self,
                                   sqlite3              *db,
                                   gint64                chunk_id,
                                   gint64                track_id,
                                   gint64                n,
                                   gint64                data_len,
                                   gint64                max_dur,
                                   GError              **error);
gboolean  tes_report_check_slices (TesReport            *self,
                                   gint64                track_id,
                                   guint32               first,
                                   const TesSliceRecord *records,
                                   guint                 n,
                                   GError              **error);

/* Verifies the tables a query reads, or a lane summary, against their
 * checksums the first time (small tables were verified at open). */
gboolean  tes_report_check_reads  (TesReport            *self,
                                   sqlite3              *db,
                                   const char           *sql,
                                   GError              **error);
gboolean  tes_report_prepare_checked (TesReport         *self,
                                   sqlite3              *db,
                                   const char           *sql,
                                   sqlite3_stmt        **stmt,
                                   GError              **error);
GArray   *tes_report_chunk_rows   (TesReport            *self,
                                   sqlite3              *db,
                                   gint64                track_id,
                                   GError              **error);
gboolean  tes_report_lod_for_column (TesReport         *self,
                                     sqlite3           *db,
                                     gint64             track_id,
                                     gint64             column,
                                     gboolean           of_samples,
                                     TesReportLod      *chosen,
                                     GBytes           **data,
                                     GError           **error);
gboolean  tes_report_check_lod_data (TesReport          *self,
                                   gint64                track_id,
                                   int                   level,
                                   GBytes               *data,
                                   gint64                checksum,
                                   GError              **error);

/* For the loader, which opens a cache on behalf of the files it was
 * written from: where those files are now, and whether the cache was
 * reused rather than written by this open. */
void tes_report_set_opened_from (TesReport              *self,
                                 const char * const     *paths,
                                 TesSourceStamp * const *stamps,
                                 guint                   n_files,
                                 gboolean                cache_reused);

/* Calls func for every stored slice of the track that overlaps
 * [t0, t1] (both inclusive, in the track's ticks), in start order. Only
 * the chunks whose extent meets the window are read. */
typedef gboolean (*TesReportSliceFunc) (const TesSliceRecord *rec,
                                        guint32               index,
                                        gpointer              user_data);

/* Takes the m slices of a block that lies wholly within the window, of
 * which only the columns asked for were decoded. */
typedef gboolean (*TesReportBlockFunc) (const TesSliceRecord *recs,
                                        guint                 m,
                                        gpointer              user_data);

/* Takes a group of a chunk that lies wholly within the window, its stored
 * sums (slice_chunks.sums) instead of its slices. */
typedef void (*TesReportSumsFunc) (const TesChunkSums *sums,
                                   gpointer            user_data);

gboolean tes_report_foreach_slice_in_window_part (TesReport           *self,
                                                  sqlite3             *db,
                                                  gint64               track_id,
                                                  gint64               t0,
                                                  gint64               t1,
                                                  guint                part,
                                                  guint                n_parts,
                                                  guint                inner_columns,
                                                  TesReportBlockFunc   inner,
                                                  TesReportSumsFunc    whole,
                                                  TesReportSliceFunc   func,
                                                  gpointer             user_data,
                                                  GCancellable        *cancellable,
                                                  GError             **error);

G_END_DECLS
