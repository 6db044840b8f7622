/* tes-workspace.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-workspace"

#include "config.h"

#include "tes-workspace.h"

#include <locale.h>
#include <math.h>

#include "tes-report.h"

#include <string.h>

/* One open report as every view sees it: the range on screen, what is
 * selected and the unit times are shown in. Views never keep their own
 * copy of these: they read the workspace and follow its notifications, so
 * zooming in one section moves the others. All times are nanoseconds of
 * the report's common base (clock 0). */
struct _TesWorkspace
{
  GObject       parent_instance;

  TesReport    *report;
  gboolean      has_span;
  gint64        span_start;
  gint64        span_end;
  gint64        visible_start;
  gint64        visible_end;
  gboolean      has_selection;
  gint64        selection_start;
  gint64        selection_end;
  GArray       *selected_slices;   /* TesSliceRef */
  gint64        run_id;            /* 0: none */
  gint64        step;              /* -1: none */
  int           ipu;               /* -1: none */
  int           tile;              /* -1: none */
  TesTimeUnit   time_unit;
  gint64        cycles_clock;      /* 0: the report has none */

  /* A comparison links two workspaces: their visible ranges move together. */
  TesWorkspace *linked;            /* weak */
  gint64        link_offset;       /* linked's time = this time + link_offset */
  gboolean      in_link;
};

enum {
  PROP_0,
  PROP_REPORT,
  PROP_VISIBLE_START,
  PROP_VISIBLE_END,
  PROP_HAS_SELECTION,
  PROP_SELECTION_START,
  PROP_SELECTION_END,
  PROP_SELECTED_SLICES,
  PROP_RUN,
  PROP_STEP,
  PROP_IPU,
  PROP_TILE,
  PROP_TIME_UNIT,
  N_PROPS
};

G_DEFINE_ENUM_TYPE (TesTimeUnit, tes_time_unit,
  G_DEFINE_ENUM_VALUE (TES_TIME_UNIT_NS, "ns"),
  G_DEFINE_ENUM_VALUE (TES_TIME_UNIT_US, "us"),
  G_DEFINE_ENUM_VALUE (TES_TIME_UNIT_MS, "ms"),
  G_DEFINE_ENUM_VALUE (TES_TIME_UNIT_CYCLES, "cycles"))

G_DEFINE_FINAL_TYPE (TesWorkspace, tes_workspace, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static gboolean
clock_has_rate (const TesClock *clock)
{
  return clock != NULL && clock->ticks_per_second > 0;
}

/* The unit the vendor printed: cycles when every timed track counts cycles
 * of a known clock, else the time unit that keeps the whole run readable. */
static TesTimeUnit
native_time_unit (TesWorkspace *self)
{
  gboolean all_cycles = TRUE;
  gboolean any_track = FALSE;
  gint64 span = self->span_end - self->span_start;

  for (guint i = 1; i <= tes_report_get_n_tracks (self->report); i++)
    {
      const TesTrack *track = tes_report_get_track (self->report, i);
      const TesClock *clock;

      if (track == NULL || !track->has_extent)
        continue;

      any_track = TRUE;
      clock = tes_report_get_clock (self->report, track->clock_id);
      if (clock == NULL || clock->unit != TES_TIME_UNIT_CYCLES)
        all_cycles = FALSE;
    }

  if (any_track && all_cycles && self->cycles_clock != 0)
    return TES_TIME_UNIT_CYCLES;
  return tes_time_unit_readable ((double)span);
}

static void
tes_workspace_constructed (GObject *object)
{
  TesWorkspace *self = (TesWorkspace *)object;

  G_OBJECT_CLASS (tes_workspace_parent_class)->constructed (object);

  g_assert (TES_IS_REPORT (self->report));

  for (guint i = 1; i <= tes_report_get_n_clocks (self->report); i++)
    {
      const TesClock *clock = tes_report_get_clock (self->report, i);

      if (clock_has_rate (clock) && clock->unit == TES_TIME_UNIT_CYCLES)
        {
          self->cycles_clock = clock->id;
          break;
        }
    }

  self->has_span = tes_report_get_span (self->report, 0, &self->span_start, &self->span_end);
  if (self->has_span && self->span_end <= self->span_start)
    self->span_end = self->span_start + 1;
  self->visible_start = self->span_start;
  self->visible_end = self->span_end;
  self->time_unit = native_time_unit (self);
}

static void
tes_workspace_dispose (GObject *object)
{
  TesWorkspace *self = (TesWorkspace *)object;

  tes_workspace_unlink (self);

  G_OBJECT_CLASS (tes_workspace_parent_class)->dispose (object);
}

static void
tes_workspace_finalize (GObject *object)
{
  TesWorkspace *self = (TesWorkspace *)object;

  g_clear_object (&self->report);
  g_clear_pointer (&self->selected_slices, g_array_unref);

  G_OBJECT_CLASS (tes_workspace_parent_class)->finalize (object);
}

static void
tes_workspace_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  TesWorkspace *self = TES_WORKSPACE (object);

  switch (prop_id)
    {
    case PROP_REPORT:
      g_value_set_object (value, self->report);
      break;

    case PROP_VISIBLE_START:
      g_value_set_int64 (value, self->visible_start);
      break;

    case PROP_VISIBLE_END:
      g_value_set_int64 (value, self->visible_end);
      break;

    case PROP_HAS_SELECTION:
      g_value_set_boolean (value, self->has_selection);
      break;

    case PROP_SELECTION_START:
      g_value_set_int64 (value, self->selection_start);
      break;

    case PROP_SELECTION_END:
      g_value_set_int64 (value, self->selection_end);
      break;

    case PROP_SELECTED_SLICES:
      g_value_set_boxed (value, self->selected_slices);
      break;

    case PROP_RUN:
      g_value_set_int64 (value, self->run_id);
      break;

    case PROP_STEP:
      g_value_set_int64 (value, self->step);
      break;

    case PROP_IPU:
      g_value_set_int (value, self->ipu);
      break;

    case PROP_TILE:
      g_value_set_int (value, self->tile);
      break;

    case PROP_TIME_UNIT:
      g_value_set_enum (value, self->time_unit);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tes_workspace_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  TesWorkspace *self = TES_WORKSPACE (object);

  switch (prop_id)
    {
    case PROP_REPORT:
      self->report = g_value_dup_object (value);
      break;

    case PROP_VISIBLE_START:
      tes_workspace_set_visible (self, g_value_get_int64 (value), self->visible_end);
      break;

    case PROP_VISIBLE_END:
      tes_workspace_set_visible (self, self->visible_start, g_value_get_int64 (value));
      break;

    case PROP_RUN:
      tes_workspace_set_run (self, g_value_get_int64 (value));
      break;

    case PROP_STEP:
      tes_workspace_set_step (self, g_value_get_int64 (value));
      break;

    case PROP_IPU:
      tes_workspace_set_ipu (self, g_value_get_int (value));
      break;

    case PROP_TILE:
      tes_workspace_set_tile (self, g_value_get_int (value));
      break;

    case PROP_TIME_UNIT:
      tes_workspace_set_time_unit (self, g_value_get_enum (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tes_workspace_class_init (TesWorkspaceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = tes_workspace_constructed;
  object_class->dispose = tes_workspace_dispose;
  object_class->finalize = tes_workspace_finalize;
  object_class->get_property = tes_workspace_get_property;
  object_class->set_property = tes_workspace_set_property;

  properties[PROP_REPORT] =
    g_param_spec_object ("report", NULL, NULL,
                         TES_TYPE_REPORT,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  properties[PROP_VISIBLE_START] =
    g_param_spec_int64 ("visible-start", NULL, NULL,
                        G_MININT64, G_MAXINT64, 0,
                        (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_VISIBLE_END] =
    g_param_spec_int64 ("visible-end", NULL, NULL,
                        G_MININT64, G_MAXINT64, 0,
                        (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_HAS_SELECTION] =
    g_param_spec_boolean ("has-selection", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_SELECTION_START] =
    g_param_spec_int64 ("selection-start", NULL, NULL,
                        G_MININT64, G_MAXINT64, 0,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_SELECTION_END] =
    g_param_spec_int64 ("selection-end", NULL, NULL,
                        G_MININT64, G_MAXINT64, 0,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_SELECTED_SLICES] =
    g_param_spec_boxed ("selected-slices", NULL, NULL,
                        G_TYPE_ARRAY,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_RUN] =
    g_param_spec_int64 ("run", NULL, NULL,
                        0, G_MAXINT64, 0,
                        (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_STEP] =
    g_param_spec_int64 ("step", NULL, NULL,
                        -1, G_MAXINT64, -1,
                        (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_IPU] =
    g_param_spec_int ("ipu", NULL, NULL,
                      -1, G_MAXINT, -1,
                      (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_TILE] =
    g_param_spec_int ("tile", NULL, NULL,
                      -1, G_MAXINT, -1,
                      (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_TIME_UNIT] =
    g_param_spec_enum ("time-unit", NULL, NULL,
                       TES_TYPE_TIME_UNIT, TES_TIME_UNIT_NS,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tes_workspace_init (TesWorkspace *self)
{
  self->selected_slices = g_array_new (FALSE, FALSE, sizeof (TesSliceRef));
  self->step = -1;
  self->ipu = -1;
  self->tile = -1;
}

TesWorkspace *
tes_workspace_new (TesReport *report)
{
  g_return_val_if_fail (TES_IS_REPORT (report), NULL);

  return g_object_new (TES_TYPE_WORKSPACE, "report", report, NULL);
}

TesReport *
tes_workspace_get_report (TesWorkspace *self)
{
  g_return_val_if_fail (TES_IS_WORKSPACE (self), NULL);

  return self->report;
}

/* The whole run, in ns; FALSE when the report has no timed data (only
 * operator tables, say). */
gboolean
tes_workspace_get_span (TesWorkspace *self,
                        gint64       *start,
                        gint64       *end)
{
  g_return_val_if_fail (TES_IS_WORKSPACE (self), FALSE);

  if (start)
    *start = self->span_start;
  if (end)
    *end = self->span_end;

  return self->has_span;
}

void
tes_workspace_get_visible (TesWorkspace *self,
                           gint64       *start,
                           gint64       *end)
{
  g_return_if_fail (TES_IS_WORKSPACE (self));

  if (start)
    *start = self->visible_start;
  if (end)
    *end = self->visible_end;
}

/* Keeps the range inside the run and at least 1 ns wide: zooming out past
 * the whole run shows the whole run, panning stops at its ends. */
void
tes_workspace_set_visible (TesWorkspace *self,
                           gint64        start,
                           gint64        end)
{
  gint64 width;

  g_return_if_fail (TES_IS_WORKSPACE (self));

  if (end < start)
    {
      gint64 tmp = start;

      start = end;
      end = tmp;
    }

  width = MAX (end - start, 1);
  if (self->has_span)
    {
      width = MIN (width, self->span_end - self->span_start);
      start = CLAMP (start, self->span_start, self->span_end - width);
    }
  end = start + width;

  if (start == self->visible_start && end == self->visible_end)
    return;

  g_object_freeze_notify (G_OBJECT (self));
  if (start != self->visible_start)
    {
      self->visible_start = start;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VISIBLE_START]);
    }
  if (end != self->visible_end)
    {
      self->visible_end = end;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VISIBLE_END]);
    }
  g_object_thaw_notify (G_OBJECT (self));

  if (self->linked != NULL && !self->in_link)
    {
      self->in_link = TRUE;
      tes_workspace_set_visible (self->linked, start + self->link_offset, end + self->link_offset);
      self->in_link = FALSE;
    }
}

void
tes_workspace_show_all (TesWorkspace *self)
{
  g_return_if_fail (TES_IS_WORKSPACE (self));

  tes_workspace_set_visible (self, self->span_start, self->span_end);
}

gboolean
tes_workspace_get_selection (TesWorkspace *self,
                             gint64       *start,
                             gint64       *end)
{
  g_return_val_if_fail (TES_IS_WORKSPACE (self), FALSE);

  if (start)
    *start = self->selection_start;
  if (end)
    *end = self->selection_end;

  return self->has_selection;
}

static void
set_selection (TesWorkspace *self,
               gboolean      has_selection,
               gint64        start,
               gint64        end)
{
  g_object_freeze_notify (G_OBJECT (self));
  if (has_selection != self->has_selection)
    {
      self->has_selection = has_selection;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HAS_SELECTION]);
    }
  if (start != self->selection_start)
    {
      self->selection_start = start;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTION_START]);
    }
  if (end != self->selection_end)
    {
      self->selection_end = end;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTION_END]);
    }
  g_object_thaw_notify (G_OBJECT (self));
}

/* A time span over every lane (Shift+drag in the trace), in ns. */
void
tes_workspace_set_selection (TesWorkspace *self,
                             gint64        start,
                             gint64        end)
{
  g_return_if_fail (TES_IS_WORKSPACE (self));

  set_selection (self, TRUE, MIN (start, end), MAX (start, end));
}

void
tes_workspace_clear_selection (TesWorkspace *self)
{
  g_return_if_fail (TES_IS_WORKSPACE (self));

  set_selection (self, FALSE, 0, 0);
}

const TesSliceRef *
tes_workspace_get_selected_slices (TesWorkspace *self,
                                   guint        *n_slices)
{
  g_return_val_if_fail (TES_IS_WORKSPACE (self), NULL);
  g_return_val_if_fail (n_slices != NULL, NULL);

  *n_slices = self->selected_slices->len;

  return (const TesSliceRef *)(gpointer)self->selected_slices->data;
}

void
tes_workspace_set_selected_slices (TesWorkspace      *self,
                                   const TesSliceRef *slices,
                                   guint              n_slices)
{
  g_return_if_fail (TES_IS_WORKSPACE (self));
  g_return_if_fail (n_slices == 0 || slices != NULL);

  if (n_slices == self->selected_slices->len &&
      (n_slices == 0 ||
       memcmp (slices, self->selected_slices->data, n_slices * sizeof *slices) == 0))
    return;

  g_array_set_size (self->selected_slices, 0);
  g_array_append_vals (self->selected_slices, slices, n_slices);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_SLICES]);
}

gint64
tes_workspace_get_run (TesWorkspace *self)
{
  g_return_val_if_fail (TES_IS_WORKSPACE (self), 0);

  return self->run_id;
}

void
tes_workspace_set_run (TesWorkspace *self,
                       gint64        run_id)
{
  g_return_if_fail (TES_IS_WORKSPACE (self));
  g_return_if_fail (run_id >= 0);

  if (run_id == self->run_id)
    return;

  self->run_id = run_id;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUN]);
}

gint64
tes_workspace_get_step (TesWorkspace *self)
{
  g_return_val_if_fail (TES_IS_WORKSPACE (self), -1);

  return self->step;
}

void
tes_workspace_set_step (TesWorkspace *self,
                        gint64        step)
{
  g_return_if_fail (TES_IS_WORKSPACE (self));
  g_return_if_fail (step >= -1);

  if (step == self->step)
    return;

  self->step = step;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STEP]);
}

int
tes_workspace_get_ipu (TesWorkspace *self)
{
  g_return_val_if_fail (TES_IS_WORKSPACE (self), -1);

  return self->ipu;
}

void
tes_workspace_set_ipu (TesWorkspace *self,
                       int           ipu)
{
  g_return_if_fail (TES_IS_WORKSPACE (self));
  g_return_if_fail (ipu >= -1);

  if (ipu == self->ipu)
    return;

  self->ipu = ipu;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_IPU]);
}

int
tes_workspace_get_tile (TesWorkspace *self)
{
  g_return_val_if_fail (TES_IS_WORKSPACE (self), -1);

  return self->tile;
}

void
tes_workspace_set_tile (TesWorkspace *self,
                        int           tile)
{
  g_return_if_fail (TES_IS_WORKSPACE (self));
  g_return_if_fail (tile >= -1);

  if (tile == self->tile)
    return;

  self->tile = tile;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TILE]);
}

TesTimeUnit
tes_workspace_get_time_unit (TesWorkspace *self)
{
  g_return_val_if_fail (TES_IS_WORKSPACE (self), TES_TIME_UNIT_NS);

  return self->time_unit;
}

/* Cycles need a clock whose rate the report gives; times need the report's
 * clocks to convert to seconds. @why says what is missing, for the UI. */
gboolean
tes_workspace_time_unit_available (TesWorkspace  *self,
                                   TesTimeUnit    unit,
                                   char         **why)
{
  g_return_val_if_fail (TES_IS_WORKSPACE (self), FALSE);

  if (unit == TES_TIME_UNIT_CYCLES && self->cycles_clock == 0)
    {
      if (why)
        *why = g_strdup ("The report gives times but no clock frequency to count cycles with");
      return FALSE;
    }

  if (unit != TES_TIME_UNIT_CYCLES)
    {
      for (guint i = 1; i <= tes_report_get_n_clocks (self->report); i++)
        {
          const TesClock *clock = tes_report_get_clock (self->report, i);

          if (clock != NULL && !clock_has_rate (clock))
            {
              if (why)
                *why = g_strdup_printf ("The clock “%s” has no known frequency, so its cycles cannot be shown as time",
                                        clock->name);
              return FALSE;
            }
        }
    }

  if (why)
    *why = NULL;

  return TRUE;
}

void
tes_workspace_set_time_unit (TesWorkspace *self,
                             TesTimeUnit   unit)
{
  g_return_if_fail (TES_IS_WORKSPACE (self));
  g_return_if_fail (unit <= TES_TIME_UNIT_CYCLES);

  if (unit == self->time_unit || !tes_workspace_time_unit_available (self, unit, NULL))
    return;

  self->time_unit = unit;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIME_UNIT]);
}

/* The clock cycles are counted in (the first cycles clock with a rate);
 * 0 when there is none. */
gint64
tes_workspace_get_cycles_clock (TesWorkspace *self)
{
  g_return_val_if_fail (TES_IS_WORKSPACE (self), 0);

  return self->cycles_clock;
}

/* A duration of @ns nanoseconds in the workspace's unit, unit included. */
char *
tes_workspace_format_duration (TesWorkspace *self,
                               gint64        ns)
{
  g_autofree char *figure = NULL;

  g_return_val_if_fail (TES_IS_WORKSPACE (self), NULL);

  figure = tes_workspace_format_figure (self, ns);

  return g_strconcat (figure, " ", tes_time_unit_to_string (self->time_unit), NULL);
}

/* @ns in the workspace's unit without the unit's name: for a column whose
 * header names it. */
char *
tes_workspace_format_figure (TesWorkspace *self,
                             gint64        ns)
{
  g_return_val_if_fail (TES_IS_WORKSPACE (self), NULL);

  if (self->time_unit == TES_TIME_UNIT_CYCLES)
    {
      const TesClock *clock = tes_report_get_clock (self->report, self->cycles_clock);
      double cycles = (double)ns * (double)clock->ticks_per_second / 1e9;

      return tes_format_in_unit (cycles, TES_TIME_UNIT_CYCLES);
    }

  return tes_format_in_unit ((double)ns, self->time_unit);
}

/* Moves the visible ranges of two workspaces together (a comparison). */
void
tes_workspace_link (TesWorkspace *self,
                    TesWorkspace *other)
{
  g_return_if_fail (TES_IS_WORKSPACE (self));
  g_return_if_fail (TES_IS_WORKSPACE (other));
  g_return_if_fail (self != other);

  tes_workspace_unlink (self);
  tes_workspace_unlink (other);

  self->linked = other;
  other->linked = self;
  g_object_add_weak_pointer (G_OBJECT (other), (gpointer *)&self->linked);
  g_object_add_weak_pointer (G_OBJECT (self), (gpointer *)&other->linked);

  /* a run without a timeline (a compile report) has no range to give:
   * the other keeps its own */
  if (!self->has_span && other->has_span)
    tes_workspace_align_link (other, other->span_start, self->span_start);
  else
    tes_workspace_align_link (self, self->span_start, other->span_start);
}

/* Two runs rarely share a clock origin: @self_time in this workspace is
 * @other_time in the linked one (their starts, or one operator's start in
 * each), and @other shows the same stretch from there. */
void
tes_workspace_align_link (TesWorkspace *self,
                          gint64        self_time,
                          gint64        other_time)
{
  g_return_if_fail (TES_IS_WORKSPACE (self));
  g_return_if_fail (self->linked != NULL);

  self->link_offset = other_time - self_time;
  self->linked->link_offset = self_time - other_time;

  self->in_link = TRUE;
  tes_workspace_set_visible (self->linked,
                             self->visible_start + self->link_offset,
                             self->visible_end + self->link_offset);
  self->in_link = FALSE;
}

void
tes_workspace_unlink (TesWorkspace *self)
{
  TesWorkspace *other;

  g_return_if_fail (TES_IS_WORKSPACE (self));

  if ((other = self->linked) == NULL)
    return;

  g_object_remove_weak_pointer (G_OBJECT (other), (gpointer *)&self->linked);
  g_object_remove_weak_pointer (G_OBJECT (self), (gpointer *)&other->linked);
  self->linked = NULL;
  other->linked = NULL;
  self->link_offset = other->link_offset = 0;
}

/* The workspace linked to this one (two runs compared), or %NULL. */
TesWorkspace *
tes_workspace_get_linked (TesWorkspace *self)
{
  g_return_val_if_fail (TES_IS_WORKSPACE (self), NULL);

  return self->linked;
}

/* @value rounded to a whole number, its digits in groups of three: the
 * locale's separator in the window (German 1.234.567); the C locale, which
 * the command line keeps for numbers, has none: ','. Every number the
 * window shows goes through here or tes_format_grouped_fixed(). */
char *
tes_format_grouped (double value)
{
  return tes_format_grouped_fixed (value, 0);
}

/* @value with @decimals digits after the locale's decimal point, the
 * digits before it grouped as tes_format_grouped() does (1,234.500). */
char *
tes_format_grouped_fixed (double value,
                          int    decimals)
{
  g_autofree char *digits = g_strdup_printf ("%.*f", CLAMP (decimals, 0, 9), value);
  GString *out = g_string_new (NULL);
  gsize lead = digits[0] == '-' ? 1 : 0;
  gsize len = lead;
  const char *separator = localeconv ()->thousands_sep;

  while (g_ascii_isdigit (digits[len]))
    len++;
  if (separator == NULL || *separator == '\0')
    separator = ",";
  for (gsize i = 0; i < len; i++)
    {
      if (i > lead && (len - i) % 3 == 0)
        g_string_append (out, separator);
      g_string_append_c (out, digits[i]);
    }
  /* the decimal point and the decimals, as printf wrote them */
  g_string_append (out, digits + len);

  return g_string_free (out, FALSE);
}

/* The unit that reads best for times up to @largest_ns (a run's span, a
 * column's largest figure): ms from 10 ms, µs from 10 µs, else ns. */
TesTimeUnit
tes_time_unit_readable (double largest_ns)
{
  if (fabs (largest_ns) >= 1e7)
    return TES_TIME_UNIT_MS;
  if (fabs (largest_ns) >= 1e4)
    return TES_TIME_UNIT_US;
  return TES_TIME_UNIT_NS;
}

/* @value in @unit's base (ns for time units, cycles for cycles) as a
 * figure in @unit, without the unit: for a column whose header names it.
 * ns and cycles whole, µs and ms to the nanosecond. */
char *
tes_format_in_unit (double      value,
                    TesTimeUnit unit)
{
  switch (unit)
    {
    case TES_TIME_UNIT_US:
      return tes_format_grouped_fixed (value / 1e3, 3);

    case TES_TIME_UNIT_MS:
      return tes_format_grouped_fixed (value / 1e6, 3);

    case TES_TIME_UNIT_CYCLES:
    case TES_TIME_UNIT_NS:
    default:
      return tes_format_grouped (value);
    }
}

/* @value in @unit's base (ns for time units, cycles for cycles) as text
 * with its unit: the time units scale it, every unit groups digits. */
char *
tes_format_duration (double      value,
                     TesTimeUnit unit)
{
  g_autofree char *figure = tes_format_in_unit (value, unit);

  return g_strconcat (figure, " ", tes_time_unit_to_string (unit), NULL);
}

static gboolean
parse_time (TesWorkspace  *self,
            const char    *text,
            gint64        *ns,
            GError       **error)
{
  static const struct { const char *suffix; TesTimeUnit unit; double scale; } units[] = {
    { "ns", TES_TIME_UNIT_NS, 1 }, { "us", TES_TIME_UNIT_US, 1 }, { "µs", TES_TIME_UNIT_US, 1 },
    { "ms", TES_TIME_UNIT_MS, 1 }, { "s", TES_TIME_UNIT_MS, 1000 }, { "cycles", TES_TIME_UNIT_CYCLES, 1 },
    { "cyc", TES_TIME_UNIT_CYCLES, 1 },
  };
  TesTimeUnit unit = self->time_unit;
  double scale = 1;
  double value;
  char *end = NULL;

  value = g_ascii_strtod (text, &end);
  if (end == text || !isfinite (value))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "“%s” is not a time", text);
      return FALSE;
    }

  while (*end == ' ')
    end++;
  if (*end != '\0')
    {
      guint i;

      for (i = 0; i < G_N_ELEMENTS (units) && !g_str_equal (end, units[i].suffix); i++);
      if (i == G_N_ELEMENTS (units))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       "“%s”: the unit must be ns, us, ms, s or cycles", text);
          return FALSE;
        }
      unit = units[i].unit;
      scale = units[i].scale;
    }

  if (!tes_workspace_time_unit_available (self, unit, NULL))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   "“%s”: the report has no clock to count cycles with", text);
      return FALSE;
    }

  value *= scale;
  switch (unit)
    {
    case TES_TIME_UNIT_US: value *= 1e3; break;
    case TES_TIME_UNIT_MS: value *= 1e6; break;
    case TES_TIME_UNIT_CYCLES:
      value = value * 1e9 / tes_report_get_clock (self->report, self->cycles_clock)->ticks_per_second;
      break;
    case TES_TIME_UNIT_NS:
    default:
      break;
    }

  *ns = (gint64)llround (value);
  return TRUE;
}

/* Reads "START:END", times since the start of the run with an optional
 * unit each ("1.5ms:2ms", "0:4000cycles"; a bare number is in the
 * workspace's unit), into absolute ns. */
gboolean
tes_workspace_parse_range (TesWorkspace  *self,
                           const char    *text,
                           gint64        *start,
                           gint64        *end,
                           GError       **error)
{
  g_auto(GStrv) parts = NULL;
  gint64 origin = 0, t0, t1;

  g_return_val_if_fail (TES_IS_WORKSPACE (self), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  parts = g_strsplit (text, ":", 2);
  if (g_strv_length (parts) != 2)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "“%s”: a range is START:END", text);
      return FALSE;
    }

  if (!parse_time (self, g_strstrip (parts[0]), &t0, error) ||
      !parse_time (self, g_strstrip (parts[1]), &t1, error))
    return FALSE;

  if (t1 <= t0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "“%s”: the range ends before it starts", text);
      return FALSE;
    }

  tes_workspace_get_span (self, &origin, NULL);
  *start = origin + t0;
  *end = origin + t1;

  return TRUE;
}
