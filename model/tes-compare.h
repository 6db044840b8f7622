/* tes-compare.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-report.h"

G_BEGIN_DECLS

/* Two runs' operators side by side: matched in order (a sequence
 * alignment, so the third CONV_2D of one run meets the third of the
 * other, and an inserted operator shifts nothing), with what changed. */

typedef enum
{
  TES_COMPARE_BY_NAME,
  TES_COMPARE_BY_TYPE,
} TesCompareKey;

typedef struct
{
  const TesSummaryRow *a;        /* NULL: only in B (added) */
  const TesSummaryRow *b;        /* NULL: only in A (removed) */
  double               a_value;  /* ns, or percent when the runs give shares only */
  double               b_value;
  double               delta;    /* b - a */
  double               delta_pct;/* of a; NAN when a is 0 or absent */
  guint                position; /* in the runs' order */
} TesCompareRow;

typedef struct
{
  GArray   *rows;          /* TesCompareRow, in the runs' order */
  gboolean  in_percent;    /* values are shares (the runs give no times) */
  double    a_total;       /* ns, or 100 */
  double    b_total;
} TesComparison;

GArray        *tes_compare_align       (const char * const *a_keys,
                                        guint               n_a,
                                        const char * const *b_keys,
                                        guint               n_b);
TesComparison *tes_compare_rows        (TesReport          *a_report,
                                        GPtrArray          *a_rows,
                                        TesReport          *b_report,
                                        GPtrArray          *b_rows,
                                        TesCompareKey       key);
void           tes_compare_sort_by_impact (TesComparison   *comparison);
GPtrArray     *tes_compare_regressions (const TesComparison *comparison,
                                        double               slower_pct,
                                        double               min_share,
                                        gboolean            *total_slower);
void           tes_comparison_free     (TesComparison      *comparison);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TesComparison, tes_comparison_free)

G_END_DECLS
