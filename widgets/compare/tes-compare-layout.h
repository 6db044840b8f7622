/* tes-compare-layout.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "tes-compare.h"
#include "tes-workspace.h"

G_BEGIN_DECLS

/* What the Compare section shows, computed without a display: both runs'
 * operators and their diff, the runs as a whole, the line above their
 * findings (whose rows are tes-insights-layout.c's), every cell's text
 * (times in one unit per table, named in its header, digits grouped after
 * the locale) and where the render puts the traces, the findings and the
 * table. The section widget and `tessera-cli render --view compare` both
 * read these. */

typedef enum
{
  TES_COMPARE_COLUMN_OPERATOR,
  TES_COMPARE_COLUMN_A,
  TES_COMPARE_COLUMN_B,
  TES_COMPARE_COLUMN_DELTA,
  TES_COMPARE_COLUMN_DELTA_PCT,
  TES_COMPARE_N_COLUMNS
} TesCompareColumn;

/* How a table writes its times: one unit, named in the header. */
typedef struct
{
  const char *unit;      /* "ns", "µs", "ms", "s", "cycles" or "%" */
  double      divisor;   /* from the comparison's base (ns, cycles or percent) */
  int         decimals;
} TesCompareScale;

/* Both runs loaded for the section (tes_compare_model_new(), in a thread). */
typedef struct
{
  GPtrArray         *rows[2];      /* TesSummaryRow: the comparison points into them */
  TesComparison     *comparison;   /* largest change first */
  TesCompareScale    scale;        /* of the operators' table */
  TesCompareSummary *summary;      /* the runs as a whole */
  TesCompareScale    summary_scale;
} TesCompareModel;

typedef enum
{
  TES_COMPARE_LINE_HEADER,      /* a table starts: its column titles */
  TES_COMPARE_LINE_ROW,
  TES_COMPARE_LINE_HEADING,     /* across the table, in cells[0] */
  TES_COMPARE_LINE_SUBHEADING,
  TES_COMPARE_LINE_NOTE,        /* below the table, in cells[0] */
} TesCompareLineKind;

/* One line of the runs as a whole (the Summary tab). */
typedef struct
{
  TesCompareLineKind  kind;
  char               *cells[TES_COMPARE_N_COLUMNS];
  int                 cost;     /* > 0: B costs more than A (red), < 0: less (green) */
} TesCompareLine;

/* Where the render draws (what the window's panes show). */
typedef struct
{
  double traces_height;   /* the two runs' traces, each under its strip */
  double findings_y;      /* the two runs' findings: their line, then the rows */
  double findings_height;
  double bar_y;           /* the tabs' row */
  double table_y;         /* the table's header */
  double row_height;
  guint  n_rows;          /* table rows that fit below the header */
} TesCompareGeometry;

#define TES_COMPARE_BAR_HEIGHT 32
#define TES_COMPARE_ROW_HEIGHT 20
/* the findings' line; the room of a finding below it with one line of
 * evidence, and of each line more */
#define TES_COMPARE_FINDINGS_LINE   28
#define TES_COMPARE_FINDING_HEIGHT  90
#define TES_COMPARE_EVIDENCE_LINE   15
#define TES_COMPARE_FINDINGS_SHOWN  2

TesCompareModel *tes_compare_model_new          (TesReport              *a,
                                                 TesReport              *b,
                                                 GCancellable           *cancellable,
                                                 GError                **error);
void             tes_compare_model_free         (TesCompareModel        *model);
char            *tes_compare_run_title          (TesReport              *report,
                                                 guint                   side);

TesCompareScale  tes_compare_scale_choose       (gboolean                in_percent,
                                                 TesTimeUnit             base,
                                                 double                  largest);
char            *tes_compare_scale_format       (const TesCompareScale  *scale,
                                                 double                  value,
                                                 gboolean                sign);

char            *tes_compare_row_name           (const TesCompareRow    *row);
char            *tes_compare_column_title       (const TesCompareModel  *model,
                                                 TesCompareColumn        column);
char            *tes_compare_cell_text          (const TesCompareModel  *model,
                                                 const TesCompareRow    *row,
                                                 TesCompareColumn        column);
int              tes_compare_cell_compare       (const TesCompareRow    *a,
                                                 const TesCompareRow    *b,
                                                 TesCompareColumn        column);

GPtrArray       *tes_compare_overview_lines     (const TesCompareModel  *model);
void             tes_compare_line_free          (TesCompareLine         *line);

void             tes_compare_layout_geometry    (double                  height,
                                                 gboolean                traces,
                                                 GPtrArray              *insights,
                                                 TesCompareGeometry     *geometry);
char            *tes_compare_findings_headline  (GPtrArray              *insights);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TesCompareModel, tes_compare_model_free)

G_END_DECLS
