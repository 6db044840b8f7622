/* tes-compare-summary.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-compare-summary"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "tes-compare-summary.h"

/* Two runs as a whole (tes_compare_summarize): their totals, each
 * operator type's share, and where both have tiles, their memory. Tables
 * of A, B, Δ and Δ %; a Δ that costs (more time, more bytes, more tiles
 * out of memory) is red, one that saves green. */

struct _TesCompareSummaryView
{
  GtkWidget          parent_instance;

  GtkWidget         *scrolled;
  TesCompareSummary *summary;
  TesTimeUnit        time_unit;
};

G_DEFINE_FINAL_TYPE (TesCompareSummaryView, tes_compare_summary, GTK_TYPE_WIDGET)

enum {
  COLUMN_NAME,
  COLUMN_A,
  COLUMN_B,
  COLUMN_DELTA,
  COLUMN_DELTA_PCT,
};

static GtkWidget *
cell (const char *text,
      gboolean    numeric)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), numeric ? 1 : 0);
  if (numeric)
    gtk_widget_add_css_class (label, "numeric");
  else
    {
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_widget_set_hexpand (label, TRUE);
    }

  return label;
}

/* A table under its heading: a name column, then A, B, Δ and Δ %. */
static GtkGrid *
add_table (GtkBox     *page,
           const char *heading,
           const char *delta_title,
           const char *pct_title)
{
  const char *titles[] = { heading, "A", "B", delta_title, pct_title };
  GtkWidget *grid = gtk_grid_new ();

  gtk_grid_set_column_spacing (GTK_GRID (grid), 24);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 2);
  gtk_widget_set_margin_top (grid, 6);
  for (guint c = 0; c < G_N_ELEMENTS (titles); c++)
    {
      GtkWidget *title = cell (titles[c], c != COLUMN_NAME);

      gtk_widget_add_css_class (title, c == COLUMN_NAME ? "heading" : "dim-label");
      gtk_grid_attach (GTK_GRID (grid), title, c, 0, 1, 1);
    }
  gtk_box_append (page, grid);

  return GTK_GRID (grid);
}

/* One row; @cost > 0: B costs more than A (red), < 0: less (green). */
static void
add_row (GtkGrid    *grid,
         const char *name,
         char       *a,
         char       *b,
         char       *delta,
         char       *pct,
         int         cost)
{
  char *texts[] = { a, b, delta, pct };
  int row = 1;

  while (gtk_grid_get_child_at (grid, 0, row) != NULL)
    row++;

  gtk_grid_attach (grid, cell (name, FALSE), COLUMN_NAME, row, 1, 1);
  for (guint c = 0; c < G_N_ELEMENTS (texts); c++)
    {
      GtkWidget *label = cell (texts[c] ? texts[c] : "", TRUE);

      if (c + 1 >= COLUMN_DELTA && cost != 0)
        gtk_widget_add_css_class (label, cost > 0 ? "error" : "success");
      gtk_grid_attach (grid, label, c + 1, row, 1, 1);
      g_free (texts[c]);
    }
}

static char *
percent_text (double a,
              double b)
{
  double pct = tes_compare_percent (a, b);

  return isnan (pct) ? NULL : g_strdup_printf ("%+.1f %%", pct);
}

static char *
time_text (TesCompareSummaryView *self,
           double                 value,
           gboolean               sign)
{
  g_autofree char *text = NULL;

  if (isnan (value))
    return g_strdup ("—");
  text = tes_compare_summary_format (self->summary, value, self->time_unit);

  return sign && value > 0 ? g_strconcat ("+", text, NULL) : g_steal_pointer (&text);
}

static char *
bytes_text (gint64   bytes,
            gboolean sign)
{
  if (bytes < 0 && !sign)
    return g_strdup ("—");

  /* the locale's digit grouping */
  return sign ? g_strdup_printf ("%'+" G_GINT64_FORMAT, bytes) : g_strdup_printf ("%'" G_GINT64_FORMAT, bytes);
}

static int
cost_of (double delta)
{
  return delta > 0 ? 1 : delta < 0 ? -1 : 0;
}

static void
add_time_row (TesCompareSummaryView *self,
              GtkGrid               *grid,
              const char            *name,
              double                 a,
              double                 b)
{
  gboolean both = !isnan (a) && !isnan (b);

  add_row (grid, name, time_text (self, a, FALSE), time_text (self, b, FALSE),
           both ? time_text (self, b - a, TRUE) : NULL, percent_text (a, b), both ? cost_of (b - a) : 0);
}

/* A heading across the table, under its rows so far. */
static void
add_heading (GtkGrid    *grid,
             const char *heading,
             gboolean    minor)
{
  GtkWidget *title = cell (heading, FALSE);
  int row = 1;

  while (gtk_grid_get_child_at (grid, 0, row) != NULL)
    row++;
  gtk_widget_add_css_class (title, minor ? "dim-label" : "heading");
  gtk_widget_set_margin_top (title, 6);
  gtk_grid_attach (grid, title, COLUMN_NAME, row, 5, 1);
}

static void
add_tile_rows (GtkGrid    *grid,
               const char *heading,
               GArray     *tiles)
{
  if (tiles->len == 0)
    return;

  add_heading (grid, heading, FALSE);

  for (guint i = 0; i < tiles->len; i++)
    {
      const TesCompareTile *t = &g_array_index (tiles, TesCompareTile, i);
      /* Translators: a tile of an IPU */
      g_autofree char *name = g_strdup_printf (_("IPU %d, tile %d"), t->ipu, t->tile);
      gboolean both = t->a_bytes >= 0 && t->b_bytes >= 0;

      add_row (grid, name, bytes_text (t->a_bytes, FALSE), bytes_text (t->b_bytes, FALSE),
               both ? bytes_text (t->b_bytes - t->a_bytes, TRUE) : NULL,
               both ? percent_text ((double)t->a_bytes, (double)t->b_bytes) : NULL,
               both ? cost_of ((double)(t->b_bytes - t->a_bytes)) : 0);
    }
}

static void
build (TesCompareSummaryView *self)
{
  const TesCompareSummary *s = self->summary;
  GtkWidget *page = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gboolean timed = !isnan (s->a_total) || !isnan (s->b_total) || !isnan (s->a_span) || !isnan (s->b_span);

  gtk_widget_set_margin_start (page, 12);
  gtk_widget_set_margin_end (page, 12);
  gtk_widget_set_margin_top (page, 8);
  gtk_widget_set_margin_bottom (page, 12);

  if (timed)
    {
      GtkGrid *grid = add_table (GTK_BOX (page), _("Time"), "Δ", "Δ %");
      g_autofree char *basis = s->unit == TES_TIME_UNIT_CYCLES
                                 /* Translators: %g is the clock rate both runs count cycles at */
                                 ? g_strdup_printf (_("In cycles: both runs count them at %g MHz."), s->cycles_rate / 1e6)
                                 : g_strdup (_("In time: the runs' clocks differ, so both are on the common time base."));
      GtkWidget *caption = gtk_label_new (basis);

      add_time_row (self, grid, _("Operators’ time"), s->a_total, s->b_total);
      add_time_row (self, grid, _("Span (first event to last)"), s->a_span, s->b_span);
      gtk_label_set_xalign (GTK_LABEL (caption), 0);
      gtk_label_set_wrap (GTK_LABEL (caption), TRUE);
      gtk_widget_add_css_class (caption, "dim-label");
      gtk_box_append (GTK_BOX (page), caption);
    }

  if (s->shares->len > 0)
    {
      /* Translators: Δ in percentage points */
      GtkGrid *grid = add_table (GTK_BOX (page), _("Share by operator type"), _("Δ points"), "");

      for (guint i = 0; i < s->shares->len; i++)
        {
          const TesCompareShare *share = &g_array_index (s->shares, TesCompareShare, i);

          add_row (grid, share->type,
                   share->in_a ? g_strdup_printf ("%.2f %%", share->a_share) : g_strdup ("—"),
                   share->in_b ? g_strdup_printf ("%.2f %%", share->b_share) : g_strdup ("—"),
                   g_strdup_printf ("%+.2f", share->b_share - share->a_share),
                   g_strdup (!share->in_b ? _("removed") : !share->in_a ? _("added") : ""), 0);
        }
    }

  if (s->has_memory)
    {
      GtkGrid *grid = add_table (GTK_BOX (page), _("Tile memory (bytes)"), "Δ", "Δ %");

      add_row (grid, _("All tiles"), bytes_text (s->a_bytes, FALSE), bytes_text (s->b_bytes, FALSE),
               bytes_text (s->b_bytes - s->a_bytes, TRUE), percent_text ((double)s->a_bytes, (double)s->b_bytes),
               cost_of ((double)(s->b_bytes - s->a_bytes)));
      for (guint i = 0; i < s->memory->len; i++)
        {
          const TesCompareMemory *m = &g_array_index (s->memory, TesCompareMemory, i);
          gboolean section = m->category[0] == '.';

          /* sections, then data types: two views of the same bytes */
          if (i == 0 && section)
            add_heading (grid, _("By ELF section (the size -A listing)"), TRUE);
          if ((i == 0 || g_array_index (s->memory, TesCompareMemory, i - 1).category[0] == '.') && !section)
            add_heading (grid, _("By data type (the tiles the compile report details)"), TRUE);

          add_row (grid, m->category, bytes_text (m->a_bytes, FALSE), bytes_text (m->b_bytes, FALSE),
                   bytes_text (m->b_bytes - m->a_bytes, TRUE), percent_text ((double)m->a_bytes, (double)m->b_bytes),
                   cost_of ((double)(m->b_bytes - m->a_bytes)));
        }
      add_row (grid, _("Tiles out of memory"), g_strdup_printf ("%u", s->a_out_of_memory),
               g_strdup_printf ("%u", s->b_out_of_memory),
               g_strdup_printf ("%+d", (int)s->b_out_of_memory - (int)s->a_out_of_memory), NULL,
               cost_of ((double)s->b_out_of_memory - s->a_out_of_memory));
      add_tile_rows (grid, _("Newly out of memory"), s->newly_out);
      add_tile_rows (grid, _("No longer out of memory"), s->no_longer_out);
      add_tile_rows (grid, _("Grown most"), s->growths);
    }

  if (!timed && s->shares->len == 0 && !s->has_memory)
    {
      GtkWidget *empty = gtk_label_new (_("Neither run has totals, operator types or tile memory to compare."));

      gtk_widget_add_css_class (empty, "dim-label");
      gtk_box_append (GTK_BOX (page), empty);
    }

  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scrolled), page);
}

static void
tes_compare_summary_dispose (GObject *object)
{
  TesCompareSummaryView *self = (TesCompareSummaryView *)object;

  g_clear_pointer (&self->scrolled, gtk_widget_unparent);
  g_clear_pointer (&self->summary, tes_compare_summary_free);

  G_OBJECT_CLASS (tes_compare_summary_parent_class)->dispose (object);
}

static void
tes_compare_summary_class_init (TesCompareSummaryViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tes_compare_summary_dispose;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "comparesummary");
  /* its tables are read as one named part of the comparison */
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
tes_compare_summary_init (TesCompareSummaryView *self)
{
  self->scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_parent (self->scrolled, GTK_WIDGET (self));
}

/**
 * tes_compare_summary_new:
 * @summary: (transfer full): the two runs as a whole
 * @time_unit: the unit run A is shown in: times (not cycles) are written in it
 */
GtkWidget *
tes_compare_summary_new (TesCompareSummary *summary,
                         TesTimeUnit        time_unit)
{
  TesCompareSummaryView *self;

  g_return_val_if_fail (summary != NULL, NULL);

  self = g_object_new (TES_TYPE_COMPARE_SUMMARY, NULL);
  self->summary = summary;
  self->time_unit = time_unit;
  build (self);

  return GTK_WIDGET (self);
}

const TesCompareSummary *
tes_compare_summary_get_summary (TesCompareSummaryView *self)
{
  g_return_val_if_fail (TES_IS_COMPARE_SUMMARY (self), NULL);

  return self->summary;
}
