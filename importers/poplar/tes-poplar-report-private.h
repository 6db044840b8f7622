/* tes-poplar-report-private.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-import-error.h"
#include "tes-importer.h"

G_BEGIN_DECLS

/* What the files of the Poplar report importer share: the parse state,
 * the report's number and "Label: value" syntax (tes-poplar-report-text.c)
 * and the readers of its sections (Target and Graph, Memory Usage and its
 * By Tile histogram, Execution), which tes-poplar-report-importer.c calls
 * line by line. */

typedef enum
{
  TES_POPLAR_SECTION_NONE,
  TES_POPLAR_SECTION_TARGET,
  TES_POPLAR_SECTION_GRAPH,
  TES_POPLAR_SECTION_MEMORY,
  TES_POPLAR_SECTION_HISTOGRAM,
  TES_POPLAR_SECTION_EXECUTION,
  TES_POPLAR_SECTION_STEPS,
  TES_POPLAR_SECTION_UNKNOWN,
} TesPoplarSection;

typedef enum
{
  TES_POPLAR_EXEC_START,
  TES_POPLAR_EXEC_PROGRAMS,
  TES_POPLAR_EXEC_METRICS,
  TES_POPLAR_EXEC_VERTICES,
} TesPoplarExecState;

typedef struct
{
  char   *name;
  gint64  instances;   /* -1: not printed */
  gint64  cycles;
  double  share;       /* NaN: not printed */
} TesPoplarVertexRow;

/* One row of the list showExecutionSteps prints. */
typedef struct
{
  gint64  ipu;
  gint64  step;
  gint64  cycles;
  char   *text;         /* as printed: "OnTileExecute: matmul1/Conv_1" */
  guint   line;
} TesPoplarStep;

typedef struct
{
  guint      index;
  char      *prefix;
  char      *label;
  GPtrArray *programs;
  gint64     total_cycles;   /* -1: not printed */
  char      *approx_us;      /* as printed, NULL: not printed */
  GArray    *vertices;       /* TesPoplarVertexRow */
  GArray    *steps;          /* TesPoplarStep, in print order */
} TesPoplarExecution;

typedef struct
{
  char   *name;
  gint64  bytes;
} TesPoplarCategory;

typedef struct
{
  gint64  tile;              /* as printed: numbered across all IPUs */
  guint   line;
  GArray *categories;        /* TesPoplarCategory */
} TesPoplarTileBlock;

typedef struct
{
  const char         *path;
  TesCacheWriter     *writer;
  gint64              source_id;
  guint               line_no;
  GHashTable         *keys;           /* info key -> line it came from */

  TesPoplarSection    section;
  guint               n_sections;
  guint               n_target;
  guint               n_graph;
  guint               n_memory;
  guint               n_histogram;
  char               *prefix;         /* info key prefix of the current section */

  /* Memory Usage */
  TesPoplarTileBlock *tile;           /* NULL: the whole graph */
  gboolean            expect_memory_header;
  char               *subsection;     /* key part of the current list */
  gboolean            in_vertex_data;
  gboolean            in_vertex_code;
  char               *memory_base;    /* the section's prefix, above its IPU blocks */
  gint64              memory_ipu;     /* the IPU block being read, -1: all IPUs */
  char               *memory_prefix;  /* the memory section a histogram is in */

  /* By Tile (Excluding Gaps) */
  guint               n_bins;
  guint               n_bin_rows;     /* bins and elision marks */
  gint64              bin_tiles;
  guint               bin_indent;     /* of the "Range (KB)" header */
  guint               histogram_line;
  gboolean            saw_maximum;    /* the lines that end a whole histogram */
  gboolean            last_elided;

  /* Execution */
  TesPoplarExecution *exec;
  TesPoplarExecState  exec_state;
  char               *exec_ipu_prefix; /* "execution.ipu.N" inside an IPU block */
  gint64              step_ipu;        /* Execution Steps: the IPU being listed */

  /* Text outside any section */
  char               *label;
  guint               label_line;
  guint               n_skipped;
  guint               first_skipped;
  guint               unknown_header_line;
  guint               unknown_lines;
  char               *unknown_header;
  guint               n_elided;
  guint               n_warnings;

  /* The first Target section */
  gint64              ipus;
  gint64              tiles_per_ipu;
  gint64              total_tiles;
  gint64              memory_limit;
  gint64              clock_hz;

  GPtrArray          *executions;     /* Execution */
  GPtrArray          *tiles;          /* TesPoplarTileBlock */
  GHashTable         *tile_lines;     /* tile number -> line of its block */
} TesPoplarReportParser;

/* tes-poplar-report-text.c */
const char *tes_poplar_skip_spaces             (const char             *s);
gboolean    tes_poplar_scan_number             (const char             *s,
                                                const char            **end,
                                                GString                *norm);
gboolean    tes_poplar_is_integer              (const char             *norm);
char       *tes_poplar_slugify                 (const char             *label);
gboolean    tes_poplar_split_kv                (const char             *text,
                                                char                  **label,
                                                const char            **value);
gboolean    tes_poplar_report_put_info         (TesPoplarReportParser  *p,
                                                const char             *key,
                                                const char             *value,
                                                GError                **error);
gboolean    tes_poplar_report_put_printed      (TesPoplarReportParser  *p,
                                                const char             *key,
                                                const char             *value,
                                                const char             *printed,
                                                GError                **error);
gboolean    tes_poplar_parse_ipu_header        (const char             *text,
                                                gint64                 *ipu);

/* tes-poplar-report-target.c */
gboolean    tes_poplar_report_key_value_line   (TesPoplarReportParser  *p,
                                                const char             *text,
                                                GError                **error);

/* tes-poplar-report-memory.c */
gboolean    tes_poplar_report_memory_line      (TesPoplarReportParser  *p,
                                                const char             *text,
                                                GError                **error);
gboolean    tes_poplar_report_histogram_line   (TesPoplarReportParser  *p,
                                                const char             *text,
                                                guint                   indent,
                                                GError                **error);
gboolean    tes_poplar_report_finish_histogram (TesPoplarReportParser  *p,
                                                GError                **error);
gboolean    tes_poplar_report_add_elision      (TesPoplarReportParser  *p,
                                                GError                **error);

/* tes-poplar-report-execution.c */
gboolean    tes_poplar_report_execution_line   (TesPoplarReportParser  *p,
                                                const char             *text,
                                                gboolean               *handled,
                                                GError                **error);
gboolean    tes_poplar_report_step_line        (TesPoplarReportParser  *p,
                                                const char             *text,
                                                GError                **error);

G_END_DECLS
