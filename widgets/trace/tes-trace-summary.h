/* tes-trace-summary.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "tes-report.h"

G_BEGIN_DECLS

/* The trace's Summary tab, without a display: what the visible range (or
 * the selected span) holds per name, where each device's time goes by
 * category, and how one operator's durations spread over the whole run. */

typedef struct
{
  char    *name;
  guint32  name_id;
  gint64   count;
  gint64   total;   /* ns inside the range */
  gint64   self;    /* ns inside the range */
  gint64   mean;    /* ns, of whole slices */
  gint64   min;
  gint64   max;
} TesTraceStat;

typedef struct
{
  char   *category;
  gint64  self;       /* ns */
  double  share;      /* percent of the device's busy time */
} TesTraceShare;

typedef struct
{
  char   *device;     /* the top-level track's name */
  gint64  busy;       /* ns: the sum of the shares' self time */
  GArray *shares;     /* TesTraceShare, largest first */
} TesTraceProportion;

typedef struct
{
  gint64 lo;          /* ns, bin [lo, hi) */
  gint64 hi;
  guint  count;
} TesTraceBin;

GPtrArray *tes_trace_summary_stats       (TesReport         *report,
                                          gint64             t0,
                                          gint64             t1,
                                          GCancellable      *cancellable,
                                          GError           **error);
GPtrArray *tes_trace_summary_proportions (TesReport         *report,
                                          gint64             t0,
                                          gint64             t1,
                                          GCancellable      *cancellable,
                                          GError           **error);
GArray    *tes_trace_histogram           (GArray            *durations,
                                          guint              n_bins);
char      *tes_trace_summary_to_text     (GPtrArray         *stats,
                                          GPtrArray         *proportions,
                                          char *           (*format) (gint64   ns,
                                                                      gpointer data),
                                          gpointer           data);

void       tes_trace_stat_free           (TesTraceStat       *stat);
void       tes_trace_proportion_free     (TesTraceProportion *proportion);

G_END_DECLS
