/* tes-compare-overview.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-compare-overview"

#include "config.h"

#include <glib/gi18n.h>

#include "tes-compare-overview.h"

/* Two runs as a whole (tes_compare_overview_lines()): their totals, each
 * operator type's share, and where both have tiles, their memory. Tables
 * of A, B, Δ and Δ %; a Δ that costs (more time, more bytes, more tiles
 * out of memory) is red, one that saves green. The render draws the same
 * lines. */

struct _TesCompareOverview
{
  GtkWidget  parent_instance;

  GtkWidget *scrolled;
};

G_DEFINE_FINAL_TYPE (TesCompareOverview, tes_compare_overview, GTK_TYPE_WIDGET)

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

static GtkGrid *
add_table (GtkBox               *page,
           const TesCompareLine *header)
{
  GtkWidget *grid = gtk_grid_new ();

  gtk_grid_set_column_spacing (GTK_GRID (grid), 24);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 2);
  gtk_widget_set_margin_top (grid, 6);
  for (guint c = 0; c < TES_COMPARE_N_COLUMNS; c++)
    {
      GtkWidget *title = cell (header->cells[c] ? header->cells[c] : "", c != TES_COMPARE_COLUMN_OPERATOR);

      gtk_widget_add_css_class (title, c == TES_COMPARE_COLUMN_OPERATOR ? "heading" : "dim-label");
      gtk_grid_attach (GTK_GRID (grid), title, c, 0, 1, 1);
    }
  gtk_box_append (page, grid);

  return GTK_GRID (grid);
}

static void
build (TesCompareOverview    *self,
       const TesCompareModel *model)
{
  g_autoptr(GPtrArray) lines = tes_compare_overview_lines (model);
  GtkWidget *page = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkGrid *grid = NULL;
  int row = 0;

  gtk_widget_set_margin_start (page, 12);
  gtk_widget_set_margin_end (page, 12);
  gtk_widget_set_margin_top (page, 8);
  gtk_widget_set_margin_bottom (page, 12);

  for (guint i = 0; i < lines->len; i++)
    {
      const TesCompareLine *line = g_ptr_array_index (lines, i);

      switch (line->kind)
        {
        case TES_COMPARE_LINE_HEADER:
          grid = add_table (GTK_BOX (page), line);
          row = 1;
          break;

        case TES_COMPARE_LINE_ROW:
          g_return_if_fail (grid != NULL);
          gtk_grid_attach (grid, cell (line->cells[0], FALSE), TES_COMPARE_COLUMN_OPERATOR, row, 1, 1);
          for (guint c = TES_COMPARE_COLUMN_A; c < TES_COMPARE_N_COLUMNS; c++)
            {
              GtkWidget *label = cell (line->cells[c] ? line->cells[c] : "", TRUE);

              if (c >= TES_COMPARE_COLUMN_DELTA && line->cost != 0)
                gtk_widget_add_css_class (label, line->cost > 0 ? "error" : "success");
              gtk_grid_attach (grid, label, c, row, 1, 1);
            }
          row++;
          break;

        case TES_COMPARE_LINE_HEADING:
        case TES_COMPARE_LINE_SUBHEADING:
          {
            GtkWidget *title = cell (line->cells[0], FALSE);

            g_return_if_fail (grid != NULL);
            gtk_widget_add_css_class (title, line->kind == TES_COMPARE_LINE_SUBHEADING ? "dim-label" : "heading");
            gtk_widget_set_margin_top (title, 6);
            gtk_grid_attach (grid, title, TES_COMPARE_COLUMN_OPERATOR, row++, TES_COMPARE_N_COLUMNS, 1);
          }
          break;

        case TES_COMPARE_LINE_NOTE:
        default:
          {
            GtkWidget *note = gtk_label_new (line->cells[0]);

            gtk_label_set_xalign (GTK_LABEL (note), 0);
            gtk_label_set_wrap (GTK_LABEL (note), TRUE);
            gtk_widget_add_css_class (note, "dim-label");
            gtk_box_append (GTK_BOX (page), note);
          }
          break;
        }
    }

  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scrolled), page);
}

static void
tes_compare_overview_dispose (GObject *object)
{
  TesCompareOverview *self = (TesCompareOverview *)object;

  g_clear_pointer (&self->scrolled, gtk_widget_unparent);

  G_OBJECT_CLASS (tes_compare_overview_parent_class)->dispose (object);
}

static void
tes_compare_overview_class_init (TesCompareOverviewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tes_compare_overview_dispose;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "compareoverview");
  /* its tables are read as one named part of the comparison */
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
tes_compare_overview_init (TesCompareOverview *self)
{
  self->scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_parent (self->scrolled, GTK_WIDGET (self));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Both runs as a whole"), -1);
}

/* @model: both runs loaded; its lines are read now. */
GtkWidget *
tes_compare_overview_new (const TesCompareModel *model)
{
  TesCompareOverview *self;

  g_return_val_if_fail (model != NULL, NULL);

  self = g_object_new (TES_TYPE_COMPARE_OVERVIEW, NULL);
  build (self, model);

  return GTK_WIDGET (self);
}
