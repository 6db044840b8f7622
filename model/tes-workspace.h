/* tes-workspace.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "tes-model-types.h"

G_BEGIN_DECLS

/* A slice named by its track and its position in that track. */
typedef struct
{
  gint64  track_id;
  guint32 index;
} TesSliceRef;

#define TES_TYPE_TIME_UNIT (tes_time_unit_get_type ())
#define TES_TYPE_WORKSPACE (tes_workspace_get_type ())

GType tes_time_unit_get_type (void) G_GNUC_CONST;

G_DECLARE_FINAL_TYPE (TesWorkspace, tes_workspace, TES, WORKSPACE, GObject)

TesWorkspace      *tes_workspace_new                    (TesReport          *report);
TesReport         *tes_workspace_get_report             (TesWorkspace       *self);
gboolean           tes_workspace_get_span               (TesWorkspace       *self,
                                                         gint64             *start,
                                                         gint64             *end);
void               tes_workspace_get_visible            (TesWorkspace       *self,
                                                         gint64             *start,
                                                         gint64             *end);
void               tes_workspace_set_visible            (TesWorkspace       *self,
                                                         gint64              start,
                                                         gint64              end);
void               tes_workspace_show_all               (TesWorkspace       *self);
gboolean           tes_workspace_get_selection          (TesWorkspace       *self,
                                                         gint64             *start,
                                                         gint64             *end);
void               tes_workspace_set_selection          (TesWorkspace       *self,
                                                         gint64              start,
                                                         gint64              end);
void               tes_workspace_clear_selection        (TesWorkspace       *self);
const TesSliceRef *tes_workspace_get_selected_slices    (TesWorkspace       *self,
                                                         guint              *n_slices);
void               tes_workspace_set_selected_slices    (TesWorkspace       *self,
                                                         const TesSliceRef  *slices,
                                                         guint               n_slices);
gint64             tes_workspace_get_run                (TesWorkspace       *self);
void               tes_workspace_set_run                (TesWorkspace       *self,
                                                         gint64              run_id);
gint64             tes_workspace_get_step               (TesWorkspace       *self);
void               tes_workspace_set_step               (TesWorkspace       *self,
                                                         gint64              step);
int                tes_workspace_get_ipu                (TesWorkspace       *self);
void               tes_workspace_set_ipu                (TesWorkspace       *self,
                                                         int                 ipu);
int                tes_workspace_get_tile               (TesWorkspace       *self);
void               tes_workspace_set_tile               (TesWorkspace       *self,
                                                         int                 tile);
TesTimeUnit        tes_workspace_get_time_unit          (TesWorkspace       *self);
void               tes_workspace_set_time_unit          (TesWorkspace       *self,
                                                         TesTimeUnit         unit);
gboolean           tes_workspace_time_unit_available    (TesWorkspace       *self,
                                                         TesTimeUnit         unit,
                                                         char              **why);
gint64             tes_workspace_get_cycles_clock       (TesWorkspace       *self);
char              *tes_workspace_format_duration        (TesWorkspace       *self,
                                                         gint64              ns);
char              *tes_workspace_format_figure          (TesWorkspace       *self,
                                                         gint64              ns);
void               tes_workspace_link                   (TesWorkspace       *self,
                                                         TesWorkspace       *other);
void               tes_workspace_align_link             (TesWorkspace       *self,
                                                         gint64              self_time,
                                                         gint64              other_time);
void               tes_workspace_unlink                 (TesWorkspace       *self);
TesWorkspace      *tes_workspace_get_linked             (TesWorkspace       *self);

gboolean           tes_workspace_parse_range            (TesWorkspace       *self,
                                                         const char         *text,
                                                         gint64             *start,
                                                         gint64             *end,
                                                         GError            **error);

char              *tes_format_duration                  (double              value,
                                                         TesTimeUnit         unit);
char              *tes_format_in_unit                   (double              value,
                                                         TesTimeUnit         unit);
TesTimeUnit        tes_time_unit_readable               (double              largest_ns);
char              *tes_format_grouped                   (double              value);
char              *tes_format_grouped_fixed             (double              value,
                                                         int                 decimals);

G_END_DECLS
