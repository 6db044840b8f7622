/* tes-qaic-stats-private.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-import-error.h"
#include "tes-importer.h"

G_BEGIN_DECLS

/* What the files of the qaic-stats importer share: the kinds of line
 * (tes-qaic-stats-lines.c reads the fixed ones), the per-core operator
 * table (tes-qaic-stats-ops.c), and the parse state the importer
 * (tes-qaic-stats-importer.c) writes out once the file is read. */

typedef enum
{
  TES_QAIC_LINE_SPEC,
  TES_QAIC_LINE_HEADER,
  TES_QAIC_LINE_TOTAL,
  TES_QAIC_LINE_THREAD,
  TES_QAIC_LINE_BATCH,
  TES_QAIC_LINE_PORT,
  TES_QAIC_LINE_THREAD_COUNTER,
  TES_QAIC_LINE_INFERENCE,
  TES_QAIC_LINE_FREQ,
  TES_QAIC_LINE_OP,
  TES_QAIC_LINE_TOTAL_BATCH,
  TES_QAIC_LINE_RATE,
  TES_QAIC_LINE_MAX_WAIT,
  TES_QAIC_N_LINE_KINDS,
  TES_QAIC_LINE_UNKNOWN = TES_QAIC_N_LINE_KINDS,
} TesQaicLineKind;

typedef enum
{
  TES_QAIC_CELL_DECIMAL,
  TES_QAIC_CELL_PERCENT,
  TES_QAIC_CELL_INTEGER,
} TesQaicCellKind;

typedef struct
{
  char            *name;
  TesQaicCellKind  kind;
  gboolean         required;  /* N/A not allowed */
} TesQaicColumn;

typedef struct
{
  guint     line;
  char     *core_name;     /* "c0" */
  char     *label;         /* "c0 aicconvolutiond32 HMX TCM (float16, i8, index32)" */
  char     *args;
  gint64    ucycles;
  double    ucycles_pct;
  char     *ucycles_pct_text;
  gboolean  has_pcycles;
  gint64    pcycles;
  double    pcycles_pct;
  char     *pcycles_pct_text;
  gint64    count;
} TesQaicOpRow;

typedef struct
{
  guint   number;
  guint   line;
  char   *engine;
  gint64  ucycles;
  gint64  start;
  gint64  end;
  gint64  pcycles;
  char   *utilization;
} TesQaicThreadRow;

typedef struct
{
  guint      number;
  GPtrArray *ops;        /* TesQaicOpRow */
  GArray    *threads;    /* TesQaicThreadRow */
  guint      first_op_line;
  guint      total_line;
  gint64     total_ucycles;
  gint64     total_pcycles;
} TesQaicCore;

typedef struct
{
  TesImportContext *context;
  GPtrArray        *columns;      /* TesQaicColumn, from the last header */
  guint             header_line;
  GHashTable       *cores;        /* number -> TesQaicCore */
  GPtrArray        *info;         /* key, value, key, value, … in file order */
  GPtrArray        *warnings;     /* key, value, … */
  char             *specialization;
  char             *network;
  gboolean          has_total_batch;
  gint64            batch_start;
  gint64            batch_end;
  gint64            batch_ucycles;
  guint             n_known;
  TesLineNote       unknown;      /* lines of no known shape, skipped */
} TesQaicStatsParser;

TesQaicLineKind  tes_qaic_stats_classify           (const char          *text);
gboolean         tes_qaic_stats_is_header          (const char          *text);
gboolean         tes_qaic_stats_parse_line         (TesQaicStatsParser  *p,
                                                    guint                line,
                                                    TesQaicLineKind      kind,
                                                    const char          *text,
                                                    GError             **error);

void             tes_qaic_stats_parser_clear       (TesQaicStatsParser  *p);
TesQaicCore     *tes_qaic_stats_get_core           (TesQaicStatsParser  *p,
                                                    guint                number);
void             tes_qaic_stats_core_free          (gpointer             data);
gboolean         tes_qaic_stats_parse_count        (TesQaicStatsParser  *p,
                                                    guint                line,
                                                    const char          *text,
                                                    gint64              *out,
                                                    GError             **error);
gboolean         tes_qaic_stats_parse_header       (TesQaicStatsParser  *p,
                                                    guint                line,
                                                    GMatchInfo          *match,
                                                    GError             **error);
gboolean         tes_qaic_stats_parse_op_row       (TesQaicStatsParser  *p,
                                                    guint                line,
                                                    const char          *raw,
                                                    gsize                raw_len,
                                                    const char          *text,
                                                    GError             **error);
gboolean         tes_qaic_stats_check_core         (TesQaicStatsParser  *p,
                                                    TesQaicCore         *core,
                                                    guint                last_line,
                                                    GError             **error);
void             tes_qaic_stats_append_json_string (GString             *out,
                                                    const char          *s);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TesQaicStatsParser, tes_qaic_stats_parser_clear)

G_END_DECLS
