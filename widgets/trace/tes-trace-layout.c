/* tes-trace-layout.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "tes-share-chart-layout.h"
#include "tes-trace-layout.h"
#include "tes-workspace.h"

/* The time axis of a picture @width pixels wide: right of the names. */
void
tes_trace_scale_init (TesTraceScale *scale,
                      gint64         t0,
                      gint64         t1,
                      double         width)
{
  scale->t0 = t0;
  scale->t1 = MAX (t1, t0 + 1);
  scale->x0 = TES_TRACE_LABEL_WIDTH;
  scale->width = MAX (width - TES_TRACE_LABEL_WIDTH, 1);
}

double
tes_trace_scale_x (const TesTraceScale *scale,
                   gint64               ns)
{
  double span = (double)(scale->t1 - scale->t0);

  if (span <= 0)
    return scale->x0;

  return scale->x0 + (double)(ns - scale->t0) * scale->width / span;
}

gint64
tes_trace_scale_time (const TesTraceScale *scale,
                      double               x)
{
  double span = (double)(scale->t1 - scale->t0);

  if (scale->width <= 0)
    return scale->t0;

  return scale->t0 + (gint64)llround ((x - scale->x0) * span / scale->width);
}

/* Keeps [*t0, *t1] inside the span, moving it rather than shrinking it. */
static void
clamp_range (gint64 *t0,
             gint64 *t1,
             gint64  span_t0,
             gint64  span_t1)
{
  gint64 width = *t1 - *t0;

  if (width >= span_t1 - span_t0)
    {
      *t0 = span_t0;
      *t1 = span_t1;
      return;
    }

  if (*t0 < span_t0)
    {
      *t0 = span_t0;
      *t1 = span_t0 + width;
    }
  else if (*t1 > span_t1)
    {
      *t1 = span_t1;
      *t0 = span_t1 - width;
    }
}

/* factor < 1 zooms in: the time under the pointer (anchor) stays where it
 * is on screen, as in chrome://tracing's W and S. */
void
tes_trace_zoom (gint64 *t0,
                gint64 *t1,
                double  factor,
                gint64  anchor,
                gint64  span_t0,
                gint64  span_t1)
{
  double width = (double)(*t1 - *t0);
  double new_width;
  double before;

  g_return_if_fail (t0 != NULL && t1 != NULL);
  g_return_if_fail (factor > 0);

  anchor = CLAMP (anchor, *t0, *t1);
  new_width = MAX (width * factor, (double)TES_TRACE_MIN_SPAN);
  before = width > 0 ? (double)(anchor - *t0) / width : 0.5;

  *t0 = anchor - (gint64)llround (before * new_width);
  *t1 = *t0 + (gint64)llround (new_width);
  clamp_range (t0, t1, span_t0, span_t1);
}

void
tes_trace_pan (gint64 *t0,
               gint64 *t1,
               gint64  delta,
               gint64  span_t0,
               gint64  span_t1)
{
  g_return_if_fail (t0 != NULL && t1 != NULL);

  *t0 += delta;
  *t1 += delta;
  clamp_range (t0, t1, span_t0, span_t1);
}

/* Shows [start, end] with a margin of 5 % each side, as double-click on a
 * slice and F on the selection do. */
void
tes_trace_zoom_to (gint64 *t0,
                   gint64 *t1,
                   gint64  start,
                   gint64  end,
                   gint64  span_t0,
                   gint64  span_t1)
{
  gint64 width = MAX (end - start, (gint64)TES_TRACE_MIN_SPAN);
  gint64 margin = width / 20;

  g_return_if_fail (t0 != NULL && t1 != NULL);

  *t0 = start - margin;
  *t1 = start + width + margin;
  clamp_range (t0, t1, span_t0, span_t1);
}

/* ns per unit step, where the unit is one of the time units or a cycle */
static double
unit_ns (TesTimeUnit unit,
         gint64      cycles_per_second)
{
  switch (unit)
    {
    case TES_TIME_UNIT_US: return 1e3;
    case TES_TIME_UNIT_MS: return 1e6;
    case TES_TIME_UNIT_CYCLES: return cycles_per_second > 0 ? 1e9 / (double)cycles_per_second : 1.0;
    case TES_TIME_UNIT_NS:
    default: return 1.0;
    }
}

/* @ns as text in @unit, with as many decimals as a step of @step_ns needs
 * to tell neighbouring ticks apart. */
char *
tes_trace_format_time (double      ns,
                       double      step_ns,
                       TesTimeUnit unit,
                       gint64      cycles_per_second)
{
  double per_unit = unit_ns (unit, cycles_per_second);
  double value = ns / per_unit;
  double step = step_ns / per_unit;
  int decimals = 0;
  g_autofree char *grouped = NULL;

  if (step > 0 && step < 1)
    decimals = MIN ((int)ceil (-log10 (step) - 1e-9), 9);
  if (unit == TES_TIME_UNIT_CYCLES)
    decimals = 0;

  /* -0 is 0 */
  if (fabs (value) < 0.5 * pow (10, -decimals))
    value = 0;

  /* grouped as every other figure is: a run of minutes reads 250,000 ms */
  grouped = tes_format_grouped_fixed (value, decimals);
  switch (unit)
    {
    case TES_TIME_UNIT_US: return g_strconcat (grouped, " µs", NULL);
    case TES_TIME_UNIT_MS: return g_strconcat (grouped, " ms", NULL);
    case TES_TIME_UNIT_CYCLES: return g_strconcat (grouped, " cyc", NULL);
    case TES_TIME_UNIT_NS:
    default: return g_strconcat (grouped, " ns", NULL);
    }
}

static void
tick_clear (gpointer data)
{
  TesTraceTick *tick = data;

  g_clear_pointer (&tick->label, g_free);
}

/* Ticks over the visible range, labelled with their time since @origin
 * (the start of the run), so that labels stay short however far into an
 * epoch-stamped trace the run lies. */
GArray *
tes_trace_ruler_ticks (const TesTraceScale *scale,
                       gint64               origin,
                       TesTimeUnit          unit,
                       gint64               cycles_per_second,
                       double               min_spacing)
{
  GArray *ticks = g_array_new (FALSE, TRUE, sizeof (TesTraceTick));
  double per_unit = unit_ns (unit, cycles_per_second);
  double ns_per_px;
  double step, minor;
  double first;
  guint n_minor;

  g_array_set_clear_func (ticks, tick_clear);

  if (scale->width <= 0 || scale->t1 <= scale->t0)
    return ticks;

  ns_per_px = (double)(scale->t1 - scale->t0) / scale->width;

  /* the smallest 1, 2 or 5 × 10^k units at least min_spacing apart */
  {
    double want = min_spacing * ns_per_px / per_unit;
    double base = pow (10, floor (log10 (want)));

    if (unit == TES_TIME_UNIT_CYCLES && base < 1)
      base = 1;
    if (base >= want)
      step = base, n_minor = 5;
    else if (2 * base >= want)
      step = 2 * base, n_minor = 4;
    else if (5 * base >= want)
      step = 5 * base, n_minor = 5;
    else
      step = 10 * base, n_minor = 5;
    step *= per_unit;
  }
  minor = step / n_minor;
  if (minor / ns_per_px < 6)
    minor = step, n_minor = 1;

  first = ceil ((double)(scale->t0 - origin) / minor);
  for (double k = first; origin + k * minor <= (double)scale->t1; k++)
    {
      double since = k * minor;
      TesTraceTick tick = { 0 };

      tick.x = tes_trace_scale_x (scale, origin + (gint64)llround (since));
      tick.major = fmod (k, n_minor) == 0;
      if (tick.major)
        tick.label = tes_trace_format_time (since, step, unit, cycles_per_second);
      g_array_append_val (ticks, tick);

      if (ticks->len > 10000)
        break;
    }

  return ticks;
}

static void
run_label_clear (gpointer data)
{
  TesTraceRunLabel *label = data;

  g_clear_pointer (&label->text, g_free);
}

/* A named run's start and end on screen. */
typedef struct
{
  double x0;
  double x1;
  guint  index;
} RunSpan;

static int
compare_run_spans (gconstpointer a,
                   gconstpointer b)
{
  const RunSpan *ra = a;
  const RunSpan *rb = b;

  if (ra->x0 != rb->x0)
    return ra->x0 < rb->x0 ? -1 : 1;

  return (ra->index > rb->index) - (ra->index < rb->index);
}

/* Whether the runs in view lie closer than TES_TRACE_RUN_LINE_MIN_GAP
 * apart on average: a profile of a hundred steps seen whole would be
 * hatched with their edges, over the ruler's times and the lanes. */
gboolean
tes_trace_runs_dense (const TesTraceScale *scale,
                      const TesRun        *runs,
                      guint                n_runs)
{
  guint visible = 0;

  for (guint i = 0; i < n_runs; i++)
    if (tes_trace_scale_x (scale, runs[i].end) >= scale->x0 &&
        tes_trace_scale_x (scale, runs[i].start) <= scale->x0 + scale->width)
      visible++;

  return visible > 0 && scale->width / visible < TES_TRACE_RUN_LINE_MIN_GAP;
}

/* A run named like a step of a series ("ProfilerStep#12"): the length of
 * the text before its number, and the number. */
static gboolean
series_name (const char *name,
             gsize      *prefix_len,
             guint64    *number)
{
  gsize len = strlen (name);
  gsize digits = 0;

  while (digits < len && digits < 18 && g_ascii_isdigit (name[len - 1 - digits]))
    digits++;
  if (digits == 0 || (digits < len && g_ascii_isdigit (name[len - 1 - digits])))
    return FALSE;

  *prefix_len = len - digits;
  *number = g_ascii_strtoull (name + len - digits, NULL, 10);

  return TRUE;
}

/* How many spans from the first make a series: runs one after the other
 * (each starting where or after the last ended, less than
 * TES_TRACE_RUN_LABEL_ROOM after it: too close for a name each), named by
 * one prefix and rising numbers, within TES_TRACE_RUN_SERIES_ROOM of the
 * first; 0 or 1: none. */
static guint
series_length (const GArray *spans,
               guint         first,
               const TesRun *runs)
{
  const RunSpan *head = &g_array_index (spans, RunSpan, first);
  const RunSpan *prev = head;
  const TesRun *last = &runs[head->index];
  gsize prefix_len, len;
  guint64 number, next_number;
  guint n = 1;

  if (!series_name (last->name, &prefix_len, &number))
    return 0;

  for (guint i = first + 1; i < spans->len; i++, n++)
    {
      const RunSpan *span = &g_array_index (spans, RunSpan, i);
      const TesRun *run = &runs[span->index];

      if (span->x0 - head->x0 >= TES_TRACE_RUN_SERIES_ROOM || span->x0 - prev->x0 >= TES_TRACE_RUN_LABEL_ROOM ||
          run->start < last->end ||
          !series_name (run->name, &len, &next_number) || len != prefix_len ||
          strncmp (run->name, last->name, len) != 0 || next_number <= number)
        break;
      prev = span;
      last = run;
      number = next_number;
    }

  return n;
}

/* Runs of several IPUs often start together: one label names them all
 * rather than one name printed over another. Steps of a series seen from
 * afar share one that gives their numbers' range (ProfilerStep#12–23):
 * each name would have been cut to "Profil…". */
GArray *
tes_trace_run_labels (const TesTraceScale *scale,
                      const TesRun        *runs,
                      guint                n_runs)
{
  GArray *labels = g_array_new (FALSE, TRUE, sizeof (TesTraceRunLabel));
  g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, sizeof (RunSpan));

  g_array_set_clear_func (labels, run_label_clear);

  for (guint i = 0; i < n_runs; i++)
    {
      RunSpan span = { tes_trace_scale_x (scale, runs[i].start), tes_trace_scale_x (scale, runs[i].end), i };

      if (runs[i].name != NULL && span.x0 >= scale->x0 - 1 && span.x0 <= scale->x0 + scale->width)
        g_array_append_val (spans, span);
    }
  g_array_sort (spans, compare_run_spans);

  for (guint i = 0, next; i < spans->len; i = next)
    {
      const RunSpan *first = &g_array_index (spans, RunSpan, i);
      TesTraceRunLabel label = { .x = first->x0 + 3 };
      guint series = series_length (spans, i, runs);
      double x1 = first->x1;

      if (series >= 2)
        {
          const char *head = runs[first->index].name;
          const char *tail = runs[g_array_index (spans, RunSpan, i + series - 1).index].name;
          gsize prefix_len = 0;
          guint64 number = 0;

          series_name (tail, &prefix_len, &number);
          label.text = g_strdup_printf ("%s–%" G_GUINT64_FORMAT, head, number);
          for (next = i; next < i + series; next++)
            x1 = MAX (x1, g_array_index (spans, RunSpan, next).x1);
        }
      else
        {
          g_autoptr(GPtrArray) names = g_ptr_array_new ();

          for (next = i; next < spans->len; next++)
            {
              const RunSpan *span = &g_array_index (spans, RunSpan, next);
              const char *name = runs[span->index].name;

              if (span->x0 - first->x0 >= TES_TRACE_RUN_LABEL_ROOM)
                break;
              x1 = MAX (x1, span->x1);
              if (!g_ptr_array_find_with_equal_func (names, name, g_str_equal, NULL))
                g_ptr_array_add (names, (gpointer)name);
            }
          g_ptr_array_add (names, NULL);
          label.text = g_strjoinv (", ", (char **)names->pdata);
        }

      label.n_runs = next - i;
      /* the run's length, but at least a short name's; never past the next */
      label.width = MAX (x1 - first->x0 - 6, 40);
      if (next < spans->len)
        label.width = MIN (label.width, g_array_index (spans, RunSpan, next).x0 - first->x0 - 6);
      g_array_append_val (labels, label);
    }

  return labels;
}

typedef struct
{
  TesReport               *report;
  TesTraceMode             mode;
  const TesTraceLaneState *state;
  GPtrArray              **children;   /* by track id: child track ids in order */
  GArray                  *lanes;
  double                   y;
  gboolean                 in_pinned;  /* laying out the pinned lanes on top */
  GHashTable              *io_done;    /* I/O lanes laid out */
} LaneBuild;

static gboolean
state_has (GHashTable *set,
           gint64      track_id)
{
  return set != NULL && g_hash_table_contains (set, GSIZE_TO_POINTER (track_id));
}

static gboolean
is_pinned (const TesTraceLaneState *state,
           gint64                   track_id)
{
  for (guint i = 0; state->pinned != NULL && i < state->pinned->len; i++)
    if (g_array_index (state->pinned, gint64, i) == track_id)
      return TRUE;

  return FALSE;
}

static int
compare_tracks (gconstpointer a,
                gconstpointer b,
                gpointer      user_data)
{
  TesReport *report = user_data;
  const TesTrack *ta = tes_report_get_track (report, GPOINTER_TO_SIZE (*(gconstpointer *)a));
  const TesTrack *tb = tes_report_get_track (report, GPOINTER_TO_SIZE (*(gconstpointer *)b));

  if (ta->sort_index != tb->sort_index)
    return ta->sort_index < tb->sort_index ? -1 : 1;

  return ta->id < tb->id ? -1 : ta->id > tb->id;
}

/* Whether anything under the track (itself included) has slices. */
static gboolean
has_slices_below (LaneBuild *build,
                  gint64     track_id)
{
  const TesTrack *track = tes_report_get_track (build->report, track_id);
  GPtrArray *children = build->children[track_id];

  if ((track->n_slices > 0 && track->kind != TES_TRACK_COUNTER) ||
      (track->kind == TES_TRACK_COUNTER && track->has_extent))
    return TRUE;

  for (guint i = 0; children != NULL && i < children->len; i++)
    if (has_slices_below (build, GPOINTER_TO_SIZE (g_ptr_array_index (children, i))))
      return TRUE;

  return FALSE;
}

static void
add_lanes (LaneBuild *build,
           gint64     track_id,
           guint      level)
{
  const TesTrack *track = tes_report_get_track (build->report, track_id);
  GPtrArray *children = build->children[track_id];
  TesTraceLane lane = { 0 };

  /* hidden lanes go with all below them, as do IPUs other than the one
   * selected (PopVision's Select IPU); pinned ones sit on top instead */
  if (!has_slices_below (build, track_id) || state_has (build->state->hidden, track_id) ||
      (build->state->only_ipu != 0 && track->kind == TES_TRACK_IPU && track_id != build->state->only_ipu) ||
      (!build->in_pinned && is_pinned (build->state, track_id)))
    return;

  /* Aggregate StreamCopy Blocks: the IPU's I/O lane above its first
   * lane; the tiles it aggregates go */
  if (build->state->io_events != NULL && !build->in_pinned)
    {
      gpointer io = g_hash_table_lookup (build->state->io_events->lane_of, GSIZE_TO_POINTER (track_id));

      if (io != NULL && g_hash_table_add (build->io_done, io))
        {
          TesTraceLane io_lane = {
            .track_id = GPOINTER_TO_SIZE (io),
            .level = level,
            .expanded = TRUE,
            .has_slices = TRUE,
            .n_rows = 1 + build->state->group_levels,
            .io_ipu = GPOINTER_TO_INT (g_hash_table_lookup (build->state->io_events->ipu, io)) - 1,
            .y = build->y,
          };

          io_lane.height = io_lane.n_rows * TES_TRACE_ROW_HEIGHT + 4;
          g_array_append_val (build->lanes, io_lane);
          build->y += io_lane.height;
        }
      if (io != NULL && g_hash_table_contains (build->state->io_events->aggregated, GSIZE_TO_POINTER (track_id)))
        return;
    }

  lane.track_id = track_id;
  lane.io_ipu = -1;
  lane.level = level;
  lane.pinned = build->in_pinned && level == 0;
  lane.is_group = children != NULL && children->len > 0;
  lane.expanded = !lane.is_group || !state_has (build->state->collapsed, track_id);
  lane.has_slices = track->n_slices > 0 && track->kind != TES_TRACK_COUNTER;
  lane.is_counter = track->kind == TES_TRACK_COUNTER && track->has_extent;
  if (lane.has_slices)
    lane.n_rows = (build->mode == TES_TRACE_FLAME ? track->max_depth + 1 : 1) + build->state->group_levels;
  lane.y = build->y;
  if (lane.is_counter)
    lane.height = TES_TRACE_COUNTER_HEIGHT;
  else
    lane.height = lane.n_rows > 0 ? lane.n_rows * TES_TRACE_ROW_HEIGHT + 4 : TES_TRACE_HEADER_HEIGHT;
  g_array_append_val (build->lanes, lane);
  build->y += lane.height;

  if (lane.is_group && lane.expanded)
    for (guint i = 0; i < children->len; i++)
      add_lanes (build, GPOINTER_TO_SIZE (g_ptr_array_index (children, i)), level + 1);
}

/* The lanes top to bottom: the pinned ones first, in the order they were
 * pinned, then the tree without them; folded groups keep their header,
 * hidden lanes are left out, as are tracks with nothing to draw below
 * them. @state may be NULL. */
GArray *
tes_trace_layout_lanes (TesReport               *report,
                        TesTraceMode             mode,
                        const TesTraceLaneState *state,
                        double                  *total_height)
{
  static const TesTraceLaneState none = { 0 };
  guint n_tracks = tes_report_get_n_tracks (report);
  g_autoptr(GPtrArray) roots = g_ptr_array_new ();
  LaneBuild build = { 0 };

  build.report = report;
  build.mode = mode;
  build.state = state ? state : &none;
  build.children = g_new0 (GPtrArray *, n_tracks + 1);
  build.lanes = g_array_new (FALSE, TRUE, sizeof (TesTraceLane));
  build.io_done = g_hash_table_new (NULL, NULL);

  for (gint64 id = 1; id <= n_tracks; id++)
    {
      const TesTrack *track = tes_report_get_track (report, id);
      GPtrArray **siblings;

      if (track->parent_id > 0 && track->parent_id <= n_tracks)
        siblings = &build.children[track->parent_id];
      else
        siblings = &roots;
      if (*siblings == NULL)
        *siblings = g_ptr_array_new ();
      g_ptr_array_add (*siblings, GSIZE_TO_POINTER (id));
    }

  for (guint i = 0; i <= n_tracks; i++)
    if (build.children[i] != NULL)
      g_ptr_array_sort_with_data (build.children[i], compare_tracks, report);
  g_ptr_array_sort_with_data (roots, compare_tracks, report);

  build.in_pinned = TRUE;
  for (guint i = 0; build.state->pinned != NULL && i < build.state->pinned->len; i++)
    {
      gint64 id = g_array_index (build.state->pinned, gint64, i);

      if (id >= 1 && id <= n_tracks)
        add_lanes (&build, id, 0);
    }
  build.in_pinned = FALSE;

  for (guint i = 0; i < roots->len; i++)
    add_lanes (&build, GPOINTER_TO_SIZE (g_ptr_array_index (roots, i)), 0);

  for (guint i = 0; i <= n_tracks; i++)
    g_clear_pointer (&build.children[i], g_ptr_array_unref);
  g_free (build.children);
  g_hash_table_unref (build.io_done);

  if (total_height)
    *total_height = build.y;

  return build.lanes;
}

/* The lane under y, or -1; lanes are sorted by y. */
int
tes_trace_lane_at (GArray *lanes,
                   double  y)
{
  guint lo = 0, hi = lanes->len;

  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      const TesTraceLane *lane = &g_array_index (lanes, TesTraceLane, mid);

      if (y < lane->y)
        hi = mid;
      else if (y >= lane->y + lane->height)
        lo = mid + 1;
      else
        return (int)mid;
    }

  return -1;
}

static gboolean
is_sync (const TesTraceMerge *merge,
         const TesSlice      *slice)
{
  return merge->sync_names != NULL &&
         ((slice->name < merge->n_strings && merge->sync_names[slice->name]) ||
          (slice->category < merge->n_strings && merge->sync_names[slice->category]));
}

/* Which strings name a sync (a name or category that says "sync", in any
 * case: Poplar's Sync, qaic's sync HMX, a "sync" category): Group Syncs
 * draws a run of them as one box. */
guint8 *
tes_trace_sync_names (TesReport *report)
{
  guint n = tes_report_get_n_strings (report);
  guint8 *sync = g_new0 (guint8, MAX (n, 1));

  for (guint id = 1; id < n; id++)
    {
      g_autofree char *folded = g_ascii_strdown (tes_report_get_string (report, id), -1);

      sync[id] = strstr (folded, "sync") != NULL;
    }

  return sync;
}

/* Which kind of step that @name names, if one the View menu can leave
 * out: spaces, '_' and '-' aside and in any case, "External Sync…" (Poplar
 * prints "External Sync", its program type is ExternalSync), "SyncAns…",
 * and a buffer flush ("block-flush", libpva's isBlockFlush, or "Buffer
 * Flush"). A text report's "Type: call/path" is judged by its type. */
TesTraceHide
tes_trace_step_kind (const char *name)
{
  char folded[32];
  guint n = 0;

  for (const char *c = name; c != NULL && *c != '\0' && *c != ':' && n < sizeof folded - 1; c++)
    if (*c != ' ' && *c != '_' && *c != '-')
      folded[n++] = g_ascii_tolower (*c);
  folded[n] = '\0';

  if (g_str_has_prefix (folded, "externalsync"))
    return TES_TRACE_HIDE_EXTERNAL_SYNCS;
  if (g_str_has_prefix (folded, "syncans"))
    return TES_TRACE_HIDE_SYNC_ANS;
  if (strcmp (folded, "blockflush") == 0 || strcmp (folded, "bufferflush") == 0)
    return TES_TRACE_HIDE_BUFFER_FLUSHES;

  return 0;
}

/* The kinds of step the report names (any string of it): the View menu
 * offers only those. */
TesTraceHide
tes_trace_hideable (TesReport *report)
{
  TesTraceHide kinds = 0;
  guint n = tes_report_get_n_strings (report);

  for (guint id = 1; id < n; id++)
    kinds |= tes_trace_step_kind (tes_report_get_string (report, id));

  return kinds;
}

/* By string id, whether a step so named (or of that category) is left
 * out; NULL when @hide leaves nothing out. */
guint8 *
tes_trace_hidden_names (TesReport    *report,
                        TesTraceHide  hide)
{
  guint n = tes_report_get_n_strings (report);
  guint8 *hidden;

  if (hide == 0)
    return NULL;

  hidden = g_new0 (guint8, MAX (n, 1));
  for (guint id = 1; id < n; id++)
    hidden[id] = (tes_trace_step_kind (tes_report_get_string (report, id)) & hide) != 0;

  return hidden;
}

gboolean
tes_trace_is_hidden (const guint8   *hidden_names,
                     guint           n_strings,
                     const TesSlice *slice)
{
  return hidden_names != NULL &&
         ((slice->name < n_strings && hidden_names[slice->name]) ||
          (slice->category < n_strings && hidden_names[slice->category]));
}

/* The path of a step's name ("Type: a/b/c" or "a/b/c"), and in
 * *prefix_len the length of its first @level + 1 components; NULL when the
 * path has no more components than that (a step is not its own group). */
const char *
tes_trace_step_path (const char *name,
                     guint       level,
                     gsize      *prefix_len)
{
  const char *path, *colon, *end;

  if (name == NULL)
    return NULL;
  path = (colon = strstr (name, ": ")) != NULL ? colon + 2 : name;
  end = path;
  for (guint l = 0; l <= level; l++)
    {
      if ((end = strchr (end + (l > 0), '/')) == NULL || end == path)
        return NULL;
    }
  /* the prefix must leave a component after it */
  if (end[1] == '\0')
    return NULL;
  *prefix_len = end - path;

  return path;
}

/* The most levels of call path any step name has, at most
 * TES_TRACE_MAX_GROUP_LEVELS: how many rows Group Executions adds. */
guint
tes_trace_path_levels (TesReport *report)
{
  guint n = tes_report_get_n_strings (report);
  guint levels = 0;

  for (guint id = 1; id < n && levels < TES_TRACE_MAX_GROUP_LEVELS; id++)
    {
      const char *name = tes_report_get_string (report, id);
      gsize len;

      while (levels < TES_TRACE_MAX_GROUP_LEVELS && tes_trace_step_path (name, levels, &len) != NULL)
        levels++;
    }

  return levels;
}

/* Adds @step (a box on the steps' row) to the groups of @levels rows:
 * each level's box grows while the steps fed one after the other share its
 * prefix, and a step without it ends it. */
void
tes_trace_group_step (GArray              *boxes,
                      TesTraceGroupOpen   *open,
                      guint                levels,
                      const char          *name,
                      const TesTraceBox   *step)
{
  for (guint l = 0; l < levels; l++)
    {
      gsize len = 0;
      const char *path = tes_trace_step_path (name, l, &len);

      if (path == NULL)
        {
          open[l].box = -1;
          continue;
        }

      if (open[l].box >= 0 && open[l].len == len && memcmp (open[l].path, path, len) == 0)
        {
          TesTraceBox *box = &g_array_index (boxes, TesTraceBox, open[l].box);

          box->x1 = MAX (box->x1, step->x1);
          box->dur = MAX (box->start + box->dur, step->start + step->dur) - box->start;
          box->n_slices += step->n_slices;
          box->matched |= step->matched;
          continue;
        }

      {
        TesTraceBox box = {
          .x0 = step->x0,
          .x1 = step->x1,
          .index = G_MAXUINT32,
          .n_slices = step->n_slices,
          .row = (guint16)l,
          .start = step->start,
          .dur = step->dur,
          .matched = step->matched,
          .label = path,
          .label_len = (guint)len,
        };

        open[l].path = path;
        open[l].len = len;
        open[l].box = (int)boxes->len;
        g_array_append_val (boxes, box);
      }
    }
}

/* Slices (in start order, in @clock_id's ticks) to boxes: a slice wider
 * than a pixel is a box of its own; narrower ones that fall in the pixel
 * column where their row's last box ends are merged into it, so a frame
 * costs what its pixels cost however many slices lie under them. Flat
 * mode draws the top level only. */
void
tes_trace_merge_slices (const TesTraceScale   *scale,
                        const TesSlice        *slices,
                        guint                  n_slices,
                        TesReport             *report,
                        const TesTrack        *track,
                        const TesTraceMerge   *merge,
                        GArray                *boxes)
{
  gint64 clock_id = track->clock_id;
  TesTraceMode mode = merge->mode;
  const TesTraceMatches *matches = merge->matches;
  g_autoptr(GArray) open = g_array_new (FALSE, FALSE, sizeof (int));
  double right = scale->x0 + scale->width;
  guint levels = merge->group_levels;
  TesTraceGroupOpen groups[TES_TRACE_MAX_GROUP_LEVELS];

  for (guint l = 0; l < G_N_ELEMENTS (groups); l++)
    groups[l].box = -1;

  for (guint i = 0; i < n_slices; i++)
    {
      const TesSlice *slice = &slices[i];
      guint row = (mode == TES_TRACE_FLAME ? slice->depth : 0) + levels;
      gint64 start, end;
      double x0, x1;
      gboolean matched;
      int *last;

      if ((mode == TES_TRACE_FLAT && slice->depth > 0) ||
          tes_trace_is_hidden (merge->hidden_names, merge->n_strings, slice))
        continue;

      start = tes_report_convert_time (report, clock_id, 0, slice->start);
      end = tes_report_convert_time (report, clock_id, 0, slice->start + slice->dur);
      x0 = tes_trace_scale_x (scale, start);
      x1 = tes_trace_scale_x (scale, end);
      if (x1 < scale->x0 || x0 >= right)
        continue;
      x0 = MAX (x0, scale->x0 - 1);
      x1 = MIN (x1, right + 1);

      while (open->len <= row)
        {
          int none = -1;

          g_array_append_val (open, none);
        }
      matched = matches != NULL && tes_trace_matches_has_slice (matches, track->id, slice->index);

      /* every step, merged into a box or not, extends or ends the groups */
      if (levels > 0 && slice->depth == 0)
        {
          TesTraceBox step = { .x0 = x0, .x1 = x1, .n_slices = 1, .start = start, .dur = end - start,
                               .matched = matched };

          tes_trace_group_step (boxes, groups, levels, tes_report_get_string (report, slice->name), &step);
        }
      last = &g_array_index (open, int, row);

      if (*last >= 0)
        {
          TesTraceBox *box = &g_array_index (boxes, TesTraceBox, *last);

          /* a slice too thin to be seen alone, within the pixel column
           * the row's last box ends in; or, with Group Syncs, syncs that
           * follow each other. A slice wide enough to be seen is a box of
           * its own even after a thin one: merged, it would be drawn
           * nameless and grey for a sliver before it. */
          if ((x0 < floor (box->x1) + 1 && x1 - x0 < 1) ||
              (is_sync (merge, slice) && box->name != 0 && box->name < merge->n_strings &&
               merge->sync_names[box->name] && x0 < box->x1 + 1))
            {
              box->x1 = MAX (box->x1, x1);
              box->dur = MAX (box->start + box->dur, end) - box->start;
              box->n_slices++;
              box->matched |= matched;
              /* a run of syncs keeps the first's name, and its colour */
              if (box->name != slice->name && !is_sync (merge, slice))
                box->name = 0;
              if (box->category != slice->category)
                box->category = 0;
              continue;
            }
        }

      {
        TesTraceBox box = {
          .x0 = x0,
          .x1 = x1,
          .name = slice->name,
          .category = slice->category,
          .index = slice->index,
          .n_slices = 1,
          .row = (guint16)row,
          .flags = slice->flags,
          .start = start,
          .dur = end - start,
          .matched = matched,
        };

        *last = (int)boxes->len;
        g_array_append_val (boxes, box);
      }
    }

  /* what is drawn is at least a pixel wide */
  for (guint i = 0; i < boxes->len; i++)
    {
      TesTraceBox *box = &g_array_index (boxes, TesTraceBox, i);

      if (box->x1 - box->x0 < 1)
        box->x1 = box->x0 + 1;
    }
}

/* The box of @row under x, or -1. Boxes of a row are in x order, so the
 * last one starting at or before x is the candidate. */
int
tes_trace_box_at (GArray *boxes,
                  double  x,
                  guint   row)
{
  int found = -1;

  for (guint i = 0; i < boxes->len; i++)
    {
      const TesTraceBox *box = &g_array_index (boxes, TesTraceBox, i);

      if (box->row != row || box->x0 > x)
        continue;
      if (x < box->x1)
        found = (int)i;
    }

  return found;
}

/* The same name gets the same colour in every view and every run. */
guint
tes_trace_color_index (const char *name)
{
  return tes_share_chart_color_index (name ? name : "");
}
