/* tes-summary-layout.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-report.h"
#include "tes-workspace.h"

G_BEGIN_DECLS

/* What the Summary section shows, computed without a display: the facts of
 * the report, the operator rows, their filter and their export. The
 * section widget and the CLI's render both read these. */

typedef enum
{
  TES_SUMMARY_FACT_TEXT,
  TES_SUMMARY_FACT_PATH,          /* ellipsize at the start */
  TES_SUMMARY_FACT_MISSING_PATH,  /* a source that is not where it was */
} TesSummaryFactKind;

typedef struct
{
  char               *heading;
  char               *key;
  char               *value;
  TesSummaryFactKind  kind;
} TesSummaryFact;

typedef struct _TesOperatorFilter TesOperatorFilter;

/* How the Total column writes a row's total (its clock's ticks): a figure
 * in @unit, which the column's header names, @base_per_tick being the
 * unit's base (ns, or cycles) per tick. */
typedef struct
{
  TesTimeUnit unit;
  double      base_per_tick;
} TesSummaryTotalShown;

/* Operator table columns, in display order. */
typedef enum
{
  TES_OPERATOR_COLUMN_INDEX,
  TES_OPERATOR_COLUMN_NAME,
  TES_OPERATOR_COLUMN_TYPE,
  TES_OPERATOR_COLUMN_SHARE,
  TES_OPERATOR_COLUMN_TOTAL,
  TES_OPERATOR_COLUMN_COUNT,
  TES_OPERATOR_COLUMN_DETAILS,
  TES_OPERATOR_N_COLUMNS
} TesOperatorColumn;

GPtrArray         *tes_summary_collect_facts     (TesWorkspace              *workspace);
void               tes_summary_fact_free         (TesSummaryFact            *fact);
GPtrArray         *tes_summary_load_rows         (TesReport                 *report,
                                                  TesSummaryMode            *mode,
                                                  GError                   **error);
GPtrArray         *tes_summary_load_run_rows     (TesReport                 *report,
                                                  gint64                     run_id,
                                                  TesSummaryMode            *mode,
                                                  GError                   **error);
char              *tes_summary_total_unit        (TesReport                 *report,
                                                  const TesSummaryRow       *row);
TesSummaryTotalShown tes_summary_total_shown    (TesReport                 *report,
                                                  const TesSummaryRow * const *rows,
                                                  guint                      n_rows);
char              *tes_summary_format_cell       (const TesSummaryRow       *row,
                                                  TesOperatorColumn          column,
                                                  const TesSummaryTotalShown *total);
int                tes_summary_compare_rows      (const TesSummaryRow       *a,
                                                  const TesSummaryRow       *b,
                                                  TesOperatorColumn          column);
const char        *tes_summary_column_title      (TesOperatorColumn          column);
guint              tes_summary_known_columns     (GPtrArray                 *rows);
guint              tes_summary_chart_rows        (GPtrArray                 *rows,
                                                  guint                      max);
char              *tes_summary_report_title      (TesReport                 *report);

TesOperatorFilter *tes_operator_filter_new       (const char                *text,
                                                  GError                   **error);
gboolean           tes_operator_filter_match     (const TesOperatorFilter   *filter,
                                                  const TesSummaryRow       *row);
void               tes_operator_filter_free      (TesOperatorFilter         *filter);

char              *tes_summary_rows_to_csv       (const TesSummaryRow * const *rows,
                                                  guint                      n_rows,
                                                  const char                *total_unit);
char              *tes_summary_rows_to_text      (const TesSummaryRow * const *rows,
                                                  guint                      n_rows,
                                                  const TesSummaryTotalShown *total);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TesOperatorFilter, tes_operator_filter_free)

G_END_DECLS
