/* tes-compare-layout.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-compare-layout"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "tes-compare-layout.h"
#include "tes-insights-layout.h"

/* One run's operators: each one where the run lists them, else per name;
 * a run without operators (a compile report) has none, which is no error. */
static GPtrArray *
load_rows (TesReport  *report,
           GError    **error)
{
  static const TesSummaryMode modes[] = { TES_SUMMARY_EACH, TES_SUMMARY_TOTAL };

  for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
    {
      g_autoptr(GError) local_error = NULL;
      GPtrArray *rows = tes_report_summarize (report, modes[i], TES_GROUP_BY_NAME, &local_error);

      if (rows != NULL)
        return rows;
      if (!g_error_matches (local_error, TES_REPORT_ERROR, TES_REPORT_ERROR_NO_DATA))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }
    }

  return g_ptr_array_new_with_free_func ((GDestroyNotify)tes_summary_row_free);
}

static double
largest_of (const double *values,
            guint         n)
{
  double largest = 0;

  for (guint i = 0; i < n; i++)
    if (!isnan (values[i]))
      largest = MAX (largest, fabs (values[i]));

  return largest;
}

/**
 * tes_compare_model_new:
 * @a: run A
 * @b: run B
 *
 * Reads both runs' operators, matches them and sums both runs up: the
 * queries of the Compare section, run in a thread by the window and
 * directly by `tessera-cli render`.
 *
 * Returns: (transfer full): the model, or %NULL with @error naming the run
 *   that could not be read
 */
TesCompareModel *
tes_compare_model_new (TesReport     *a,
                       TesReport     *b,
                       GCancellable  *cancellable,
                       GError       **error)
{
  g_autoptr(TesCompareModel) model = g_new0 (TesCompareModel, 1);
  TesReport *reports[2] = { a, b };
  double times[4];

  g_return_val_if_fail (TES_IS_REPORT (a) && TES_IS_REPORT (b), NULL);

  for (guint side = 0; side < 2; side++)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      if (!(model->rows[side] = load_rows (reports[side], error)))
        {
          g_autofree char *title = tes_compare_run_title (reports[side], side);

          /* Translators: %s is a run of a comparison ("A: report.txt") */
          g_prefix_error (error, _("Cannot read the operators of %s: "), title);
          return NULL;
        }
    }

  model->comparison = tes_compare_rows (a, model->rows[0], b, model->rows[1], TES_COMPARE_BY_NAME);
  tes_compare_sort_by_impact (model->comparison);
  times[0] = model->comparison->a_total;
  times[1] = model->comparison->b_total;
  model->scale = tes_compare_scale_choose (model->comparison->in_percent, model->comparison->unit,
                                           largest_of (times, 2));

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  if (!(model->summary = tes_compare_summarize (a, b, error)))
    {
      g_prefix_error (error, _("Cannot sum up both runs: "));
      return NULL;
    }
  times[0] = model->summary->a_total;
  times[1] = model->summary->b_total;
  times[2] = model->summary->a_span;
  times[3] = model->summary->b_span;
  model->summary_scale = tes_compare_scale_choose (FALSE, model->summary->unit, largest_of (times, 4));

  return g_steal_pointer (&model);
}

void
tes_compare_model_free (TesCompareModel *model)
{
  if (model == NULL)
    return;

  /* the comparison points into the rows: it goes first */
  g_clear_pointer (&model->comparison, tes_comparison_free);
  g_clear_pointer (&model->summary, tes_compare_summary_free);
  for (guint side = 0; side < 2; side++)
    g_clear_pointer (&model->rows[side], g_ptr_array_unref);
  g_free (model);
}

/* "A: report.txt, listing.txt": the side and its files' names. */
char *
tes_compare_run_title (TesReport *report,
                       guint      side)
{
  const char * const *paths = tes_report_get_paths (report);
  g_autoptr(GString) title = g_string_new (side == 0 ? "A: " : "B: ");

  for (guint i = 0; paths != NULL && paths[i] != NULL; i++)
    {
      g_autofree char *base = g_path_get_basename (paths[i]);

      if (i > 0)
        g_string_append (title, ", ");
      g_string_append (title, base);
    }

  return g_string_free (g_steal_pointer (&title), FALSE);
}

/**
 * tes_compare_scale_choose:
 * @in_percent: the values are shares
 * @base: what the values count: %TES_TIME_UNIT_NS or %TES_TIME_UNIT_CYCLES
 * @largest: the largest value the table shows (its totals)
 *
 * The unit a table writes its values in: cycles as counted, shares in
 * percent, and ns in the unit that keeps the largest readable (at least
 * 10 of it), to the ns below a 10 ms total and to the µs above.
 */
TesCompareScale
tes_compare_scale_choose (gboolean    in_percent,
                          TesTimeUnit base,
                          double      largest)
{
  if (in_percent)
    return (TesCompareScale) { "%", 1, 3 };
  if (base == TES_TIME_UNIT_CYCLES)
    return (TesCompareScale) { "cycles", 1, 0 };
  /* seconds past 10 s: a table's totals can sum a long job's steps */
  if (largest >= 1e10)
    return (TesCompareScale) { "s", 1e9, 3 };
  switch (tes_time_unit_readable (largest))
    {
    case TES_TIME_UNIT_MS:
      return (TesCompareScale) { "ms", 1e6, 3 };
    case TES_TIME_UNIT_US:
      return (TesCompareScale) { "µs", 1e3, 3 };
    case TES_TIME_UNIT_NS:
    case TES_TIME_UNIT_CYCLES:
    default:
      return (TesCompareScale) { "ns", 1, 0 };
    }
}

/* @value in @scale's unit, without it (the header names it): the digits
 * grouped after the locale; with @sign, a gain has its "+". */
char *
tes_compare_scale_format (const TesCompareScale *scale,
                          double                 value,
                          gboolean               sign)
{
  double scaled = value / scale->divisor;
  double step = pow (10, -scale->decimals);
  g_autofree char *text = NULL;

  if (isnan (value))
    return g_strdup ("—");
  /* what rounds to zero is zero, not "-0.000" */
  if (fabs (scaled) < step / 2)
    scaled = 0;
  text = tes_format_grouped_fixed (scaled, scale->decimals);

  return sign && scaled > 0 ? g_strconcat ("+", text, NULL) : g_steal_pointer (&text);
}

/* What the Operator column says: the row's label or name, and its type
 * where that says more (a Poplar trace's rows are named after their IPU:
 * "IPU 0 · Sync"). */
char *
tes_compare_row_name (const TesCompareRow *row)
{
  const TesSummaryRow *either = row->a ? row->a : row->b;
  const char *name = either->label ? either->label : either->name;

  if (name == NULL)
    return g_strdup (either->type ? either->type : "");
  if (either->type != NULL && *either->type != '\0' && strstr (name, either->type) == NULL)
    return g_strdup_printf ("%s · %s", name, either->type);

  return g_strdup (name);
}

/* "A (ms)": the operators' table's titles, each time column's with its unit. */
char *
tes_compare_column_title (const TesCompareModel *model,
                          TesCompareColumn       column)
{
  switch (column)
    {
    case TES_COMPARE_COLUMN_OPERATOR:
      return g_strdup (_("Operator"));
    case TES_COMPARE_COLUMN_A:
      return g_strdup_printf ("A (%s)", model->scale.unit);
    case TES_COMPARE_COLUMN_B:
      return g_strdup_printf ("B (%s)", model->scale.unit);
    case TES_COMPARE_COLUMN_DELTA:
      return g_strdup_printf ("Δ (%s)", model->scale.unit);
    case TES_COMPARE_COLUMN_DELTA_PCT:
    case TES_COMPARE_N_COLUMNS:
    default:
      return g_strdup ("Δ %");
    }
}

static char *
percent_text (double pct)
{
  if (isnan (pct))
    return g_strdup ("");

  /* what rounds to zero is zero, not "-0.0 %" */
  return fabs (pct) < 0.05 ? g_strdup_printf ("%.1f %%", 0.0) : g_strdup_printf ("%+.1f %%", pct);
}

char *
tes_compare_cell_text (const TesCompareModel *model,
                       const TesCompareRow   *row,
                       TesCompareColumn       column)
{
  switch (column)
    {
    case TES_COMPARE_COLUMN_OPERATOR:
      return tes_compare_row_name (row);
    case TES_COMPARE_COLUMN_A:
      return row->a ? tes_compare_scale_format (&model->scale, row->a_value, FALSE) : g_strdup ("—");
    case TES_COMPARE_COLUMN_B:
      return row->b ? tes_compare_scale_format (&model->scale, row->b_value, FALSE) : g_strdup ("—");
    case TES_COMPARE_COLUMN_DELTA:
      return tes_compare_scale_format (&model->scale, row->delta, TRUE);
    case TES_COMPARE_COLUMN_DELTA_PCT:
    case TES_COMPARE_N_COLUMNS:
    default:
      if (row->b == NULL)
        return g_strdup (_("removed"));
      if (row->a == NULL)
        return g_strdup (_("added"));
      return percent_text (row->delta_pct);
    }
}

static double
row_value (const TesCompareRow *row,
           TesCompareColumn     column)
{
  switch (column)
    {
    case TES_COMPARE_COLUMN_A: return row->a_value;
    case TES_COMPARE_COLUMN_B: return row->b_value;
    case TES_COMPARE_COLUMN_DELTA: return row->delta;
    case TES_COMPARE_COLUMN_OPERATOR:
    case TES_COMPARE_COLUMN_DELTA_PCT:
    case TES_COMPARE_N_COLUMNS:
    default: return isnan (row->delta_pct) ? -G_MAXDOUBLE : row->delta_pct;
    }
}

/* The order of two rows by @column, for sorting the table. */
int
tes_compare_cell_compare (const TesCompareRow *a,
                          const TesCompareRow *b,
                          TesCompareColumn     column)
{
  double x, y;

  if (column == TES_COMPARE_COLUMN_OPERATOR)
    {
      g_autofree char *x_name = tes_compare_row_name (a);
      g_autofree char *y_name = tes_compare_row_name (b);

      return g_utf8_collate (x_name, y_name);
    }

  x = row_value (a, column);
  y = row_value (b, column);

  return x < y ? -1 : x > y;
}

static TesCompareLine *
add_line (GPtrArray          *lines,
          TesCompareLineKind  kind,
          int                 cost,
          char               *name,
          char               *a,
          char               *b,
          char               *delta,
          char               *pct)
{
  TesCompareLine *line = g_new0 (TesCompareLine, 1);

  line->kind = kind;
  line->cost = cost;
  line->cells[TES_COMPARE_COLUMN_OPERATOR] = name;
  line->cells[TES_COMPARE_COLUMN_A] = a;
  line->cells[TES_COMPARE_COLUMN_B] = b;
  line->cells[TES_COMPARE_COLUMN_DELTA] = delta;
  line->cells[TES_COMPARE_COLUMN_DELTA_PCT] = pct;
  g_ptr_array_add (lines, line);

  return line;
}

static int
cost_of (double delta)
{
  return delta > 0 ? 1 : delta < 0 ? -1 : 0;
}

static char *
bytes_text (gint64   bytes,
            gboolean sign)
{
  g_autofree char *text = NULL;

  if (bytes < 0 && !sign)
    return g_strdup ("—");
  text = tes_format_grouped ((double)bytes);

  return sign && bytes > 0 ? g_strconcat ("+", text, NULL) : g_steal_pointer (&text);
}

static void
add_bytes_row (GPtrArray  *lines,
               const char *name,
               gint64      a,
               gint64      b)
{
  gboolean both = a >= 0 && b >= 0;

  add_line (lines, TES_COMPARE_LINE_ROW, both ? cost_of ((double)(b - a)) : 0, g_strdup (name),
            bytes_text (a, FALSE), bytes_text (b, FALSE),
            both ? bytes_text (b - a, TRUE) : NULL,
            both ? percent_text (tes_compare_percent ((double)a, (double)b)) : NULL);
}

static void
add_time_row (GPtrArray             *lines,
              const TesCompareScale *scale,
              const char            *name,
              double                 a,
              double                 b)
{
  gboolean both = !isnan (a) && !isnan (b);

  add_line (lines, TES_COMPARE_LINE_ROW, both ? cost_of (b - a) : 0, g_strdup (name),
            tes_compare_scale_format (scale, a, FALSE), tes_compare_scale_format (scale, b, FALSE),
            both ? tes_compare_scale_format (scale, b - a, TRUE) : NULL,
            percent_text (tes_compare_percent (a, b)));
}

static void
add_tile_rows (GPtrArray  *lines,
               const char *heading,
               GArray     *tiles)
{
  if (tiles->len == 0)
    return;

  add_line (lines, TES_COMPARE_LINE_HEADING, 0, g_strdup (heading), NULL, NULL, NULL, NULL);
  for (guint i = 0; i < tiles->len; i++)
    {
      const TesCompareTile *t = &g_array_index (tiles, TesCompareTile, i);
      /* Translators: a tile of an IPU */
      g_autofree char *name = g_strdup_printf (_("IPU %d, tile %d"), t->ipu, t->tile);

      add_bytes_row (lines, name, t->a_bytes, t->b_bytes);
    }
}

/**
 * tes_compare_overview_lines:
 *
 * The runs as a whole, as the Summary tab and its render show them: a
 * table of times, one of each operator type's share and, where both runs
 * have tiles, one of their memory; each starts with its header line.
 *
 * Returns: (transfer full) (element-type TesCompareLine): the lines
 */
GPtrArray *
tes_compare_overview_lines (const TesCompareModel *model)
{
  const TesCompareSummary *s = model->summary;
  const TesCompareScale *scale = &model->summary_scale;
  GPtrArray *lines = g_ptr_array_new_with_free_func ((GDestroyNotify)tes_compare_line_free);
  gboolean timed = !isnan (s->a_total) || !isnan (s->b_total) || !isnan (s->a_span) || !isnan (s->b_span);

  if (timed)
    {
      add_line (lines, TES_COMPARE_LINE_HEADER, 0, g_strdup (_("Time")),
                g_strdup_printf ("A (%s)", scale->unit), g_strdup_printf ("B (%s)", scale->unit),
                g_strdup_printf ("Δ (%s)", scale->unit), g_strdup ("Δ %"));
      add_time_row (lines, scale, _("Operators’ time"), s->a_total, s->b_total);
      add_time_row (lines, scale, _("Span (first event to last)"), s->a_span, s->b_span);
      add_line (lines, TES_COMPARE_LINE_NOTE, 0,
                s->unit == TES_TIME_UNIT_CYCLES
                  /* Translators: %g is the clock rate both runs count cycles at */
                  ? g_strdup_printf (_("In cycles: both runs count them at %g MHz."), s->cycles_rate / 1e6)
                  : g_strdup (_("In time: the runs' clocks differ, so both are on the common time base.")),
                NULL, NULL, NULL, NULL);
    }

  if (s->shares->len > 0)
    {
      /* Translators: Δ in percentage points */
      add_line (lines, TES_COMPARE_LINE_HEADER, 0, g_strdup (_("Share by operator type")),
                g_strdup ("A (%)"), g_strdup ("B (%)"), g_strdup (_("Δ points")), g_strdup (""));
      for (guint i = 0; i < s->shares->len; i++)
        {
          const TesCompareShare *share = &g_array_index (s->shares, TesCompareShare, i);

          add_line (lines, TES_COMPARE_LINE_ROW, 0, g_strdup (share->type),
                    share->in_a ? tes_format_grouped_fixed (share->a_share, 2) : g_strdup ("—"),
                    share->in_b ? tes_format_grouped_fixed (share->b_share, 2) : g_strdup ("—"),
                    g_strdup_printf ("%+.2f", share->b_share - share->a_share),
                    g_strdup (!share->in_b ? _("removed") : !share->in_a ? _("added") : ""));
        }
    }

  if (s->has_memory)
    {
      add_line (lines, TES_COMPARE_LINE_HEADER, 0, g_strdup (_("Tile memory (bytes)")),
                g_strdup ("A"), g_strdup ("B"), g_strdup ("Δ"), g_strdup ("Δ %"));
      add_bytes_row (lines, _("All tiles"), s->a_bytes, s->b_bytes);
      for (guint i = 0; i < s->memory->len; i++)
        {
          const TesCompareMemory *m = &g_array_index (s->memory, TesCompareMemory, i);
          gboolean section = m->category[0] == '.';

          /* sections, then data types: two views of the same bytes */
          if (i == 0 && section)
            add_line (lines, TES_COMPARE_LINE_SUBHEADING, 0, g_strdup (_("By ELF section (the size -A listing)")),
                      NULL, NULL, NULL, NULL);
          if ((i == 0 || g_array_index (s->memory, TesCompareMemory, i - 1).category[0] == '.') && !section)
            add_line (lines, TES_COMPARE_LINE_SUBHEADING, 0,
                      g_strdup (_("By data type (the tiles the compile report details)")), NULL, NULL, NULL, NULL);
          add_bytes_row (lines, m->category, m->a_bytes, m->b_bytes);
        }
      add_line (lines, TES_COMPARE_LINE_ROW, cost_of ((double)s->b_out_of_memory - s->a_out_of_memory),
                g_strdup (_("Tiles out of memory")), tes_format_grouped (s->a_out_of_memory),
                tes_format_grouped (s->b_out_of_memory),
                g_strdup_printf ("%+d", (int)s->b_out_of_memory - (int)s->a_out_of_memory), NULL);
      add_tile_rows (lines, _("Newly out of memory"), s->newly_out);
      add_tile_rows (lines, _("No longer out of memory"), s->no_longer_out);
      add_tile_rows (lines, _("Grown most"), s->growths);
    }

  if (lines->len == 0)
    add_line (lines, TES_COMPARE_LINE_NOTE, 0,
              g_strdup (_("Neither run has totals, operator types or tile memory to compare.")),
              NULL, NULL, NULL, NULL);

  return lines;
}

void
tes_compare_line_free (TesCompareLine *line)
{
  if (line == NULL)
    return;

  for (guint c = 0; c < TES_COMPARE_N_COLUMNS; c++)
    g_free (line->cells[c]);
  g_free (line);
}

/* The room a finding's row takes (as tes-insights-render.c draws it): its
 * head, sentence and target lines and a line per line of its evidence. */
static double
finding_room (const TesInsight *insight)
{
  g_autofree char *evidence = tes_insights_evidence_text (insight->evidence);
  guint lines = 1;

  for (const char *c = evidence; *c != '\0'; c++)
    lines += *c == '\n';

  return TES_COMPARE_FINDING_HEIGHT + (lines - 1) * TES_COMPARE_EVIDENCE_LINE;
}

/* The window's split, which the render draws: the traces in the upper
 * half (where either run has one: else the table has it all), the two
 * runs' findings below them (their line, then the room of as many of them
 * as half of what is left holds, at least one and at most
 * TES_COMPARE_FINDINGS_SHOWN, and a line for how many more), the tabs and
 * below them the table. @insights: (element-type TesInsight) (nullable):
 * the findings, NULL while they are computed */
void
tes_compare_layout_geometry (double              height,
                             gboolean            traces,
                             GPtrArray          *insights,
                             TesCompareGeometry *geometry)
{
  guint n = insights != NULL ? insights->len : 0;
  guint shown = 0;
  double bottom, room = TES_COMPARE_FINDINGS_LINE, most;

  geometry->traces_height = traces ? floor (height / 2) : 0;
  most = floor ((height - geometry->traces_height) / 2);
  for (guint i = 0; i < MIN (n, TES_COMPARE_FINDINGS_SHOWN); i++)
    {
      double row = finding_room (g_ptr_array_index (insights, i));
      double more = i + 1 < n ? TES_COMPARE_FINDINGS_LINE : 0;

      if (shown > 0 && room + row + more > most)
        break;
      room += row;
      shown++;
    }
  if (shown < n)
    room += TES_COMPARE_FINDINGS_LINE;   /* "… and 2 more findings" */

  geometry->findings_y = geometry->traces_height;
  geometry->findings_height = room;
  geometry->bar_y = geometry->findings_y + geometry->findings_height;
  geometry->table_y = geometry->bar_y + TES_COMPARE_BAR_HEIGHT;
  geometry->row_height = TES_COMPARE_ROW_HEIGHT;
  bottom = height - geometry->table_y - geometry->row_height;
  geometry->n_rows = bottom > 0 ? (guint)floor (bottom / geometry->row_height) : 0;
}

/**
 * tes_compare_findings_headline:
 * @insights: (element-type TesInsight) (nullable): the two runs' findings
 *   (tes_insights_compute_two_runs()), %NULL while they are computed
 *
 * The line above the two runs' findings: how many, or, quietly, that
 * there are none.
 *
 * Returns: (transfer full): the text
 */
char *
tes_compare_findings_headline (GPtrArray *insights)
{
  if (insights == NULL)
    return g_strdup (_("Looking for regressions…"));
  if (insights->len == 0)
    return g_strdup (_("No findings: B is not slower than A, nor is its memory different, beyond the thresholds."));

  /* Translators: above the findings of two runs compared */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u finding of B against A, costliest first",
                                       "%u findings of B against A, costliest first", insights->len),
                          insights->len);
}
