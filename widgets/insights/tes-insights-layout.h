/* tes-insights-layout.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-insights.h"

G_BEGIN_DECLS

/* What the Insights section shows of each finding, computed without a
 * display: the section's rows, what screen readers hear of them and the
 * picture `tessera-cli render --view insights` draws all read these. */

typedef struct
{
  const TesInsight *insight;     /* borrowed from the findings */
  guint             rank;
  char             *area;        /* "Memory", "BSP and tiles"… */
  char             *cost;        /* "214,836 bytes", as the CLI prints it */
  char             *share;       /* "73.4 % share" (of the whole its kind names) */
  char             *head;        /* cost · share · area, the area left out for two runs */
  char             *sentence;
  char             *evidence;    /* the numbers: figures, then lists one item a line */
  char             *target;      /* "Memory: IPU 0, tile 20" */
  char             *show_label;  /* "Show in Memory" */
  char             *accessible;  /* all of it, one sentence after another */
} TesInsightRow;

GPtrArray  *tes_insights_layout_rows      (GPtrArray        *insights);
void        tes_insight_row_free          (TesInsightRow    *row);
char       *tes_insights_layout_headline  (GPtrArray        *insights);
const char *tes_insights_area_title       (const char       *area);
guint32     tes_insights_area_color       (const char       *area);
char       *tes_insights_evidence_text    (GVariant         *evidence);
char       *tes_insights_target_text      (const TesInsight *insight);
const char *tes_insights_view_title       (const char       *view);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TesInsightRow, tes_insight_row_free)

G_END_DECLS
