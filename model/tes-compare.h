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
  GArray      *rows;        /* TesCompareRow, in the runs' order */
  gboolean     in_percent;  /* values are shares (the runs give no times) */
  TesTimeUnit  unit;        /* else NS, or CYCLES when both count cycles at one rate */
  gint64       cycles_rate; /* ticks per second, in cycles */
  double       a_total;     /* in the unit, or 100 */
  double       b_total;
} TesComparison;

/* What two runs spend their time on, by operator type. */
typedef struct
{
  char     *type;
  double    a_share;       /* percent of its run; 0 where the run has none */
  double    b_share;
  gboolean  in_a;
  gboolean  in_b;
} TesCompareShare;

/* One memory category (an ELF section such as ".text", or a data type
 * the compile report details), summed over a run's tiles. */
typedef struct
{
  char   *category;
  gint64  a_bytes;         /* 0 where the run has none */
  gint64  b_bytes;
} TesCompareMemory;

/* One tile in both runs, by IPU and tile number. */
typedef struct
{
  gint   ipu;
  gint   tile;
  gint64 a_bytes;          /* -1: the run has no bytes for it */
  gint64 b_bytes;
  gint64 a_limit;          /* 0: unknown */
  gint64 b_limit;
} TesCompareTile;

/* The most tiles listed as having grown. */
/* A profiler step of both runs (tes_compare_steps) */
typedef struct
{
  char   *name;            /* "ProfilerStep#5", or "A's / B's" when paired in order */
  gint64  a_ns;            /* -1: only in B */
  gint64  b_ns;            /* -1: only in A */
  gint64  a_run_id;        /* the step's run in A; 0: only in B */
  gint64  b_run_id;
} TesCompareStep;

/* A device of both runs, by name, and its wall time: the union of its
 * units' (streams', cores') busy time, so that work overlapping on two
 * streams counts once (tes_compare_devices). */
typedef struct
{
  char   *name;            /* "GPU 0 (NVIDIA A100)", "Rank 1 · GPU 1" */
  gint64  a_ns;            /* -1: not in A */
  gint64  b_ns;            /* -1: not in B */
} TesCompareDevice;

#define TES_COMPARE_MAX_GROWTHS 10

/* Two runs as a whole: their totals, what share each operator type takes,
 * and, when both have per-tile memory, how that changed. */
typedef struct
{
  TesTimeUnit  unit;             /* NS, or CYCLES at cycles_rate */
  gint64       cycles_rate;
  double       a_total;          /* the operators' time; NAN: the run gives shares only */
  double       b_total;
  double       a_span;           /* first event to last; NAN: no timed events */
  double       b_span;
  GArray      *shares;           /* TesCompareShare, the larger share first */

  gboolean     has_memory;       /* both runs have per-tile memory */
  gint64       a_bytes;          /* every tile's */
  gint64       b_bytes;
  guint        a_out_of_memory;  /* tiles over their limit */
  guint        b_out_of_memory;
  GArray      *memory;           /* TesCompareMemory: sections, then data types */
  GArray      *newly_out;        /* TesCompareTile over the limit in B only */
  GArray      *no_longer_out;    /* over it in A only */
  GArray      *growths;          /* TesCompareTile, the most grown first */
} TesCompareSummary;

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
char          *tes_comparison_format   (const TesComparison *comparison,
                                        double               value,
                                        TesTimeUnit          time_unit);

TesCompareSummary *tes_compare_summarize (TesReport        *a,
                                          TesReport        *b,
                                          GError          **error);
char          *tes_compare_summary_format (const TesCompareSummary *summary,
                                           double                   value,
                                           TesTimeUnit              time_unit);
GArray        *tes_compare_steps       (TesReport          *a,
                                        TesReport          *b,
                                        gboolean           *in_order,
                                        GError            **error);
GPtrArray     *tes_compare_run_rows    (TesReport          *report,
                                        gint64              run_id,
                                        TesCompareKey       key,
                                        GError            **error);
TesComparison *tes_compare_step        (TesReport          *a,
                                        TesReport          *b,
                                        const TesCompareStep *step,
                                        TesCompareKey       key,
                                        GPtrArray         **a_rows,
                                        GPtrArray         **b_rows,
                                        GError            **error);
GArray        *tes_compare_devices     (TesReport          *a,
                                        gint64              a_run_id,
                                        TesReport          *b,
                                        gint64              b_run_id,
                                        GError            **error);
double         tes_compare_percent     (double               a,
                                        double               b);
void           tes_compare_summary_free (TesCompareSummary *summary);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TesComparison, tes_comparison_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TesCompareSummary, tes_compare_summary_free)

G_END_DECLS
