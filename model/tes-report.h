/* tes-report.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "tes-lane.h"
#include "tes-model-types.h"
#include "tes-progress.h"

G_BEGIN_DECLS

#define TES_REPORT_ERROR (tes_report_error_quark ())

typedef enum
{
  TES_REPORT_ERROR_NO_DATA = 1,
  TES_REPORT_ERROR_NOT_FOUND,
} TesReportError;

typedef struct
{
  gint64       id;
  char        *name;
  TesTimeUnit  unit;
  gint64       ticks_per_second;
  gint64       offset_ns;
} TesClock;

typedef struct
{
  gint64        id;
  gint64        parent_id;    /* 0: top level */
  gint64        clock_id;     /* 0: none */
  TesTrackKind  kind;
  char         *name;
  gint64        sort_index;
  gint64        n_slices;
  guint         max_depth;
  gboolean      has_extent;
  gint64        t_min;        /* native ticks, valid when has_extent */
  gint64        t_max;
  gint          ipu;          /* a Poplar IPU's or tile's lane: its IPU, else -1 */
  gint          tile;         /* a tile's lane: its tile, else -1 */
} TesTrack;

/* A slice as queries return it; times in its track's clock ticks. */
typedef struct
{
  gint64  start;
  gint64  dur;
  gint64  self_dur;
  guint32 name;
  guint32 category;
  gint32  parent;
  guint32 index;      /* position in the track, in start order */
  guint16 depth;
  guint16 flags;
} TesSlice;

typedef struct
{
  gint64 n_sources;
  gint64 n_clocks;
  gint64 n_tracks;
  gint64 n_slices;
  gint64 n_instants;
  gint64 n_counter_tracks;
  gint64 n_counter_values;
  gint64 n_flows;
  gint64 n_runs;
  gint64 n_operators;
  gint64 n_tiles;
  gint64 n_bsp_steps;
  gint64 n_info;
} TesReportCounts;

typedef struct
{
  guint32 key;        /* string id of the name or category */
  gint64  count;
  gint64  total;      /* wall time inside the window, in the query's clock */
  gint64  self;       /* self time inside the window */
  gint64  min;        /* the shortest and longest slice, whole, and the */
  gint64  max;        /* sum of whole durations (mean = sum / count) */
  gint64  sum;
} TesAggregate;

typedef struct
{
  gint64  op_index;   /* -1: none */
  char   *name;
  char   *type;
  char   *label;      /* what the vendor prints for the row */
  double  share;      /* percent */
  gint64  total;      /* -1: unknown */
  gint64  count;      /* -1: unknown */
  gint64  clock_id;   /* the clock total counts in; 0: ns */
  char   *details;    /* the vendor's words on the row (args "details"); NULL: none */
} TesSummaryRow;

typedef struct
{
  char *key;
  char *value;
} TesInfoEntry;

/* A tile and its memory as the per-tile views need them. */
typedef struct
{
  gint64 id;
  gint   ipu;
  gint   tile;
  gint64 memory_limit;   /* bytes; 0: unknown */
  gint64 track_id;       /* its lane in a trace; 0: none */
  gint64 total_bytes;    /* its ELF sections' bytes when it has any, else
                          * its other rows' (two views of the same bytes) */
  gboolean has_memory;   /* it has tile_memory rows */
} TesTile;

typedef struct
{
  gint64  tile_id;
  guint32 category;      /* string id */
  gint64  bytes;
} TesTileMemory;

/* One bin of a tile memory histogram: the tiles whose bytes are in
 * [lower, upper). */
typedef struct
{
  guint  histogram;      /* the report's Nth printed one; 0: binned by Tessera */
  gint   ipu;            /* -1: every IPU */
  gint64 lower;          /* bytes */
  gint64 upper;
  gint64 tiles;
} TesTileHistogramBin;

/* A printed bin the per-tile totals disagree with. */
typedef struct
{
  guint  histogram;
  gint64 lower;          /* -1 (and upper -1): tiles in no printed bin */
  gint64 upper;
  gint64 printed;        /* tiles the report prints */
  gint64 binned;         /* tiles the per-tile totals put there */
} TesTileHistogramMismatch;

/* Poplar's bins are whole KB, a power of two wide; Tessera bins per-tile
 * totals as narrowly as gives at most this many. */
#define TES_TILE_HISTOGRAM_MAX_BINS 40

/* A tile's cycles over a span of BSP steps, by state: what it computed,
 * exchanged and synced, and for how much of the steps it waited. */
typedef struct
{
  gint   ipu;
  gint   tile;
  guint  n_steps;
  gint64 cycles[4];      /* by TesTileState */
  gint64 track_id;       /* a unit's (tes_report_get_unit_activity), else 0 */
} TesTileActivity;

/* A named program run (times in its clock's ticks). */
typedef struct
{
  gint64  id;
  char   *name;
  gint64  clock_id;
  gint64  start;
  gint64  end;
  gint    ipu;      /* the IPU whose BSP steps it holds, else -1 */
} TesRun;

/* One BSP step of a run: per tile, the cycles it spent and its state. */
typedef struct
{
  gint64   run_id;
  gint64   step;
  gint64   clock_id;
  gint64   start;
  gint64   dur;
  guint32  name;          /* string id: the program */
  guint    n_tiles;
  guint32 *tile_cycles;   /* n_tiles */
  guint8  *tile_states;   /* n_tiles, TesTileState */
} TesBspStep;

/* What PopVision's Details tab says of one program step, from its tiles'
 * cycles. */
typedef struct
{
  gint64  cycles;               /* the step's: its longest tile's */
  guint   n_tiles;
  guint   active_tiles;         /* tiles with cycles in the step */
  gint64  all_cycles;           /* summed over every tile */
  gint64  min_cycles;           /* over every tile, idle ones included */
  gint64  max_cycles;
  double  mean_cycles;
  double  tile_balance;         /* percent: all cycles / (tiles × the longest) */
  double  active_tile_balance;  /* the same over the active tiles only */
} TesBspStepStats;

/* A counter series over one pixel column. */
typedef struct
{
  double   min;
  double   max;
  double   last;
  gboolean has_value;
} TesCounterBucket;

/* An arrow from one lane to another; times in ns. */
typedef struct
{
  gint64  id;
  guint32 name;
  guint32 category;
  gint64  from_track;
  gint64  from_ts;
  gint64  to_track;
  gint64  to_ts;
} TesFlow;

/* A slice that a search found; start in its track's ticks. */
typedef struct
{
  gint64  track_id;
  guint32 index;
  gint64  start;
} TesSearchMatch;

/* One imported file, as the cache recorded it. */
typedef struct
{
  char   *path;
  gint64  size;
  char   *fingerprint;
  char   *importer;
  guint   importer_version;
  char   *format;
  gint64  import_us;
  gboolean present;   /* a file of that size is at path now */
} TesSourceInfo;

#define TES_TYPE_REPORT (tes_report_get_type ())

G_DECLARE_FINAL_TYPE (TesReport, tes_report, TES, REPORT, GObject)

GQuark            tes_report_error_quark         (void);

TesReport        *tes_report_open_cache          (const char          *cache_path,
                                                  GError             **error);

const char       *tes_report_get_path            (TesReport           *self);
const char * const *tes_report_get_paths        (TesReport           *self);
const char       *tes_report_get_cache_path      (TesReport           *self);
gboolean          tes_report_get_cache_reused    (TesReport           *self);
const char       *tes_report_get_importer_name   (TesReport           *self);
guint             tes_report_get_importer_version (TesReport          *self);
const char       *tes_report_get_format          (TesReport           *self);
void              tes_report_get_counts          (TesReport           *self,
                                                  TesReportCounts     *counts);
const char       *tes_report_get_string          (TesReport           *self,
                                                  guint32              id);
guint             tes_report_get_n_strings       (TesReport           *self);
guint             tes_report_get_n_sources       (TesReport           *self);
const TesSourceInfo *tes_report_get_source       (TesReport           *self,
                                                  guint                index);
guint             tes_report_get_n_clocks        (TesReport           *self);
const TesClock   *tes_report_get_clock           (TesReport           *self,
                                                  gint64               clock_id);
guint             tes_report_get_n_tracks        (TesReport           *self);
GArray           *tes_report_get_subtree_tracks  (TesReport           *self,
                                                  gint64               root_id);
const TesTrack   *tes_report_get_track           (TesReport           *self,
                                                  gint64               track_id);
gboolean          tes_report_get_span            (TesReport           *self,
                                                  gint64               clock_id,
                                                  gint64              *t_min,
                                                  gint64              *t_max);
gint64            tes_report_convert_time        (TesReport           *self,
                                                  gint64               from_clock,
                                                  gint64               to_clock,
                                                  gint64               t);
GPtrArray        *tes_report_get_info            (TesReport           *self);
char             *tes_report_lookup_info         (TesReport           *self,
                                                  const char          *key);
GStrv             tes_report_get_printed_histogram (TesReport         *self,
                                                  guint                n,
                                                  guint               *n_rows);

GArray           *tes_report_get_tiles           (TesReport           *self,
                                                  GError             **error);
GArray           *tes_report_get_tile_memory     (TesReport           *self,
                                                  gint64               tile_id,
                                                  GError             **error);
GArray           *tes_report_get_tile_histogram  (TesReport           *self,
                                                  GError             **error);
GArray           *tes_report_get_runs            (TesReport           *self,
                                                  GError             **error);
GArray           *tes_report_get_tile_activity   (TesReport           *self,
                                                  gint64               start_ns,
                                                  gint64               end_ns,
                                                  GError             **error);
GArray           *tes_report_get_unit_activity   (TesReport           *self,
                                                  gint64               start_ns,
                                                  gint64               end_ns,
                                                  GError             **error);
GArray           *tes_report_get_device_activity (TesReport           *self,
                                                  gint64               start_ns,
                                                  gint64               end_ns,
                                                  GArray             **units,
                                                  GError             **error);
GArray           *tes_report_get_balance_activity (TesReport          *self,
                                                  GPtrArray           *ipus,
                                                  gint64               start_ns,
                                                  gint64               end_ns,
                                                  GArray             **devices,
                                                  GError             **error);
char             *tes_report_dup_unit_device_name (TesReport          *self,
                                                  gint64               unit_track_id);
TesBspStep       *tes_report_get_bsp_step        (TesReport           *self,
                                                  gint64               run_id,
                                                  gint64               step,
                                                  GError             **error);
TesBspStep       *tes_report_get_bsp_step_at     (TesReport           *self,
                                                  gint64               tile_track_id,
                                                  gint64               ns,
                                                  GError             **error);
void              tes_bsp_step_free              (TesBspStep          *step);
void              tes_bsp_step_get_stats         (const TesBspStep    *step,
                                                  TesBspStepStats     *stats);
GPtrArray        *tes_report_get_bsp_steps       (TesReport           *self,
                                                  gint64               run_id,
                                                  GError             **error);
GArray           *tes_report_get_slices          (TesReport           *self,
                                                  gint64               track_id,
                                                  gint64               t0,
                                                  gint64               t1,
                                                  GError             **error);
GArray           *tes_report_get_lane           (TesReport           *self,
                                                  gint64               track_id,
                                                  gint64               t0,
                                                  gint64               t1,
                                                  guint                n_buckets,
                                                  GError             **error);
char             *tes_report_get_slice_args      (TesReport           *self,
                                                  gint64               track_id,
                                                  guint32              index,
                                                  GError             **error);
GArray           *tes_report_aggregate_slices    (TesReport           *self,
                                                  const gint64        *track_ids,
                                                  guint                n_track_ids,
                                                  gint64               clock_id,
                                                  gint64               t0,
                                                  gint64               t1,
                                                  TesGroupBy           group_by,
                                                  GCancellable        *cancellable,
                                                  GError             **error);
void              tes_report_aggregate_slices_async (TesReport        *self,
                                                  const gint64        *track_ids,
                                                  guint                n_track_ids,
                                                  gint64               clock_id,
                                                  gint64               t0,
                                                  gint64               t1,
                                                  TesGroupBy           group_by,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
GArray           *tes_report_aggregate_slices_finish (TesReport       *self,
                                                  GAsyncResult        *result,
                                                  GError             **error);
GArray           *tes_report_get_counter         (TesReport           *self,
                                                  gint64               track_id,
                                                  gint64               t0,
                                                  gint64               t1,
                                                  guint                n_buckets,
                                                  GError             **error);
GArray           *tes_report_get_flows           (TesReport           *self,
                                                  gint64               t0,
                                                  gint64               t1,
                                                  GError             **error);
GArray           *tes_report_search              (TesReport           *self,
                                                  const char          *pattern,
                                                  gboolean             is_regex,
                                                  GCancellable        *cancellable,
                                                  GError             **error);
GArray           *tes_report_get_durations       (TesReport           *self,
                                                  guint32              name,
                                                  GCancellable        *cancellable,
                                                  GError             **error);
GPtrArray        *tes_report_summarize           (TesReport           *self,
                                                  TesSummaryMode       mode,
                                                  TesGroupBy           group_by,
                                                  GError             **error);
GPtrArray        *tes_report_summarize_run       (TesReport           *self,
                                                  gint64               run_id,
                                                  TesSummaryMode       mode,
                                                  TesGroupBy           group_by,
                                                  GError             **error);
gint64            tes_report_find_run            (TesReport           *self,
                                                  const char          *name,
                                                  GError             **error);
void              tes_summary_row_free           (TesSummaryRow       *row);
gboolean          tes_summary_row_name_is_position (const TesSummaryRow *row);

/* Pure: what the memory views compute from tes_report_get_tiles(). */
GArray           *tes_tile_histogram_from_tiles  (const TesTile       *tiles,
                                                  guint                n_tiles,
                                                  gint                 ipu);
GArray           *tes_tile_histogram_check       (const TesTileHistogramBin *bins,
                                                  guint                      n_bins,
                                                  const TesTile             *tiles,
                                                  guint                      n_tiles);
GArray           *tes_tiles_heaviest             (const TesTile       *tiles,
                                                  guint                n_tiles,
                                                  guint                max);
guint             tes_tiles_count_out_of_memory  (const TesTile       *tiles,
                                                  guint                n_tiles);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TesSummaryRow, tes_summary_row_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TesBspStep, tes_bsp_step_free)

G_END_DECLS
