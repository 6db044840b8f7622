/* tes-memory-layout.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-report.h"

G_BEGIN_DECLS

/* The Memory section without a display: every tile's bytes by category,
 * the by-tile histogram (the report's own when it prints one), the tiles
 * over the per-tile limit and the heaviest ones. A "tile" is any parallel
 * unit a vendor reports memory for. */
typedef struct
{
  GArray     *tiles;        /* TesTile with memory rows, by IPU then tile */
  GPtrArray  *categories;   /* char*: what the bars stack, largest first */
  guint      *colors;       /* per category: a slot of tes_share_chart_palette, distinct */
  gint64     *bytes;        /* tiles->len × categories->len */
  guint       n_all;        /* every tile of the report, with memory rows or not */
  gint64      limit;        /* bytes per tile; 0: unknown */
  guint       n_over;       /* tiles over the limit */
  GArray     *histogram;    /* TesTileHistogramBin */
  gboolean    printed;      /* the histogram is the report's */
  GStrv       printed_notes; /* its Maximum and out-of-memory lines as printed; NULL: none */
  GArray     *mismatches;   /* TesTileHistogramMismatch: printed vs per-tile */
  GArray     *heaviest;     /* TesTile, the five most subscribed */
  gint64      max_bytes;    /* of a tile */
  /* Axis tops that two compared runs share, so that equal bars mean
   * equal bytes and tiles; 0: this run's own (see the getters) */
  gint64      shared_bytes_top;
  gint64      shared_count_top;
} TesMemoryModel;

/* Where the chart of every tile was drawn: @n_columns columns across
 * @width, one per tile or per run of tiles. */
typedef struct
{
  double x;
  double y;
  double width;
  double height;
  guint  n_columns;   /* 0: no chart */
} TesMemoryPlot;

TesMemoryModel *tes_memory_model_new        (TesReport            *report,
                                             GError              **error);
void            tes_memory_model_free       (TesMemoryModel       *model);
gint64          tes_memory_model_get_bytes  (const TesMemoryModel *model,
                                             guint                 tile,
                                             guint                 category);
GArray         *tes_memory_model_tiles_in   (const TesMemoryModel *model,
                                             const TesTileHistogramBin *bin);
gboolean        tes_memory_report_has_data  (TesReport            *report);
int             tes_memory_model_find_tile  (const TesMemoryModel *model,
                                             int                   ipu,
                                             int                   tile);
void            tes_memory_column_tiles     (guint                 n_tiles,
                                             guint                 n_columns,
                                             guint                 column,
                                             guint                *first,
                                             guint                *last);
guint           tes_memory_tile_column      (guint                 n_tiles,
                                             guint                 n_columns,
                                             guint                 index);
guint           tes_memory_model_column_tile (const TesMemoryModel *model,
                                              guint                 n_columns,
                                              guint                 column);
int             tes_memory_model_tile_at    (const TesMemoryModel *model,
                                             const TesMemoryPlot  *plot,
                                             double                x,
                                             double                y);
char           *tes_memory_format_kb        (gint64                bytes);
char           *tes_memory_model_tile_text  (const TesMemoryModel *model,
                                             guint                 index,
                                             guint                 max_categories);
gint64          tes_memory_model_bytes_top  (const TesMemoryModel *model);
gint64          tes_memory_model_count_top  (const TesMemoryModel *model);
void            tes_memory_model_share_scales (TesMemoryModel     *a,
                                               TesMemoryModel     *b);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TesMemoryModel, tes_memory_model_free)

G_END_DECLS
