/* tes-share-chart-layout.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-share-chart-layout"

#include "config.h"

#include "tes-share-chart-layout.h"

#include <math.h>
#include <stdlib.h>

/* Where everything of a share chart goes, computed once per allocation so
 * that snapshot() only appends nodes. Needs no display: the 'core' tests
 * check it on real reports.
 *
 *   | padding | label column | spacing | bar ........ | spacing | value |
 *
 * The bar of the largest share spans the bar area; the others are scaled
 * to it. The value sits right after its bar, so the bar area leaves room
 * for the widest value. */

static gboolean
share_is_drawn (double share)
{
  return !isnan (share) && share > 0;
}

static double
max_value_width (const TesShareChartItem *items,
                 guint                    n_items)
{
  double w = 0;

  for (guint i = 0; i < n_items; i++)
    w = MAX (w, items[i].value_width);

  return ceil (w);
}

static double
max_label_width (const TesShareChartItem *items,
                 guint                    n_items)
{
  double w = 0;

  for (guint i = 0; i < n_items; i++)
    w = MAX (w, items[i].label_width);

  return ceil (w);
}

static double
row_pitch (const TesShareChartMetrics *metrics)
{
  return metrics->row_height + metrics->row_spacing;
}

double
tes_share_chart_layout_measure_height (guint                       n_items,
                                       const TesShareChartMetrics *metrics)
{
  g_return_val_if_fail (metrics != NULL, 0);

  if (n_items == 0)
    return 2 * metrics->padding;

  return 2 * metrics->padding + n_items * row_pitch (metrics) - metrics->row_spacing;
}

/* The width that shows every label whole and gives the largest bar
 * bar_area pixels. */
double
tes_share_chart_layout_measure_width (const TesShareChartItem    *items,
                                      guint                       n_items,
                                      const TesShareChartMetrics *metrics,
                                      double                      bar_area)
{
  g_return_val_if_fail (items != NULL || n_items == 0, 0);
  g_return_val_if_fail (metrics != NULL, 0);

  return 2 * metrics->padding
         + max_label_width (items, n_items)
         + 2 * metrics->column_spacing
         + MAX (bar_area, metrics->min_bar_area)
         + max_value_width (items, n_items);
}

/* Qualitative hues that keep 3:1 against both light and dark backgrounds. */
const guint32 tes_share_chart_palette[TES_SHARE_CHART_N_COLORS] = {
  0x26a269,  /* green */
  0xff7800,  /* orange */
  0xe01b24,  /* red */
  0x9141ac,  /* purple */
  0xe5a50a,  /* amber */
  0x2190a4,  /* teal */
  0xe66199,  /* pink */
  0x986a44,  /* brown */
  0xc061cb,  /* orchid */
  0x77767b,  /* grey */
  0x3584e4,  /* blue */
  0x8cb23b,  /* lime */
};

TesShareChartLayout *
tes_share_chart_layout_new (const TesShareChartItem    *items,
                            guint                       n_items,
                            const TesShareChartMetrics *metrics,
                            double                      width)
{
  TesShareChartLayout *layout;
  double inner, label_column, value_column, max_share = 0;

  g_return_val_if_fail (items != NULL || n_items == 0, NULL);
  g_return_val_if_fail (metrics != NULL, NULL);

  layout = g_malloc0 (sizeof *layout + n_items * sizeof (TesShareChartRow));
  layout->n_rows = n_items;
  layout->width = width;
  layout->height = tes_share_chart_layout_measure_height (n_items, metrics);

  inner = MAX (0, width - 2 * metrics->padding);
  value_column = max_value_width (items, n_items);

  /* Labels get what they need, up to a fraction of the width, and give
   * way further so that the bars keep min_bar_area. */
  label_column = max_label_width (items, n_items);
  label_column = MIN (label_column, floor (inner * metrics->max_label_fraction));
  label_column = MIN (label_column,
                      inner - 2 * metrics->column_spacing - value_column - metrics->min_bar_area);
  label_column = MAX (0, label_column);

  layout->label_column = label_column;
  layout->bar_x = round (metrics->padding + label_column + metrics->column_spacing);
  layout->bar_area = MAX (0, floor (inner - label_column - 2 * metrics->column_spacing - value_column));

  for (guint i = 0; i < n_items; i++)
    if (share_is_drawn (items[i].share))
      max_share = MAX (max_share, items[i].share);
  layout->max_share = max_share;

  for (guint i = 0; i < n_items; i++)
    {
      TesShareChartRow *row = &layout->rows[i];
      const TesShareChartItem *item = &items[i];

      row->y = round (metrics->padding + i * row_pitch (metrics));
      row->height = metrics->row_height;
      row->label_x = metrics->padding;
      row->label_width = label_column;
      row->label_truncated = ceil (item->label_width) > label_column;
      row->bar_x = layout->bar_x;

      /* Whole pixels keep the edges crisp; a share that is not zero keeps
       * at least one pixel so that it can be told from nothing. */
      if (share_is_drawn (item->share) && max_share > 0 && layout->bar_area >= 1)
        row->bar_width = MAX (1, round (layout->bar_area * item->share / max_share));
      else
        row->bar_width = 0;

      row->value_x = row->bar_x + row->bar_width + metrics->column_spacing;
    }

  return layout;
}

void
tes_share_chart_layout_free (TesShareChartLayout *layout)
{
  g_free (layout);
}

typedef struct
{
  double y;
  double slack;
} HitKey;

static int
compare_hit (const void *key,
             const void *member)
{
  const HitKey *hit = key;
  const TesShareChartRow *row = member;

  /* Each row owns half of the spacing on either side of it. */
  if (hit->y < row->y - hit->slack)
    return -1;
  if (hit->y >= row->y + row->height + hit->slack)
    return 1;
  return 0;
}

/* The row under y, or -1. */
int
tes_share_chart_layout_hit_test (const TesShareChartLayout *layout,
                                 double                     y)
{
  const TesShareChartRow *row;
  HitKey key;

  g_return_val_if_fail (layout != NULL, -1);

  if (layout->n_rows == 0 || isnan (y))
    return -1;

  key.y = y;
  key.slack = layout->n_rows > 1 ? (layout->rows[1].y - layout->rows[0].y - layout->rows[0].height) / 2 : 0;

  row = bsearch (&key, layout->rows, layout->n_rows, sizeof (TesShareChartRow), compare_hit);

  return row ? (int)(row - layout->rows) : -1;
}

/* A stable colour per operator type: the same name gets the same slot of
 * the qualitative palette in every chart and every report. FNV-1a, so the
 * result never depends on the platform or the GLib version. */
guint
tes_share_chart_color_index (const char *type)
{
  guint32 hash = 2166136261u;

  if (type == NULL)
    return 0;

  for (const guchar *p = (const guchar *)type; *p; p++)
    {
      hash ^= *p;
      hash *= 16777619u;
    }

  return hash % TES_SHARE_CHART_N_COLORS;
}

typedef struct
{
  const char *type;
  double      weight;
  guint       slot;
} TypeWeight;

static int
compare_type_weight (gconstpointer a,
                     gconstpointer b)
{
  const TypeWeight *ta = a;
  const TypeWeight *tb = b;

  if (ta->weight != tb->weight)
    return ta->weight > tb->weight ? -1 : 1;

  return g_strcmp0 (ta->type, tb->type);
}

/* Gives each of n_items rows the palette slot of its type. A type gets
 * its own slot (tes_share_chart_color_index()) unless a heavier type of
 * the same chart took it, then the next free one: up to
 * TES_SHARE_CHART_N_COLORS types never share a colour, and the types that
 * matter most keep theirs from one report to the next. Rows of one type
 * add up their weights, so a chart of operators and a chart of their
 * types agree. */
void
tes_share_chart_assign_colors (const char * const *types,
                               const double       *weights,
                               guint               n_items,
                               guint              *slots)
{
  g_autoptr(GHashTable) index = NULL;
  g_autoptr(GArray) distinct = NULL;
  gboolean taken[TES_SHARE_CHART_N_COLORS] = { FALSE };
  guint n_taken = 0;

  g_return_if_fail (types != NULL || n_items == 0);
  g_return_if_fail (slots != NULL || n_items == 0);

  index = g_hash_table_new (g_str_hash, g_str_equal);
  distinct = g_array_new (FALSE, FALSE, sizeof (TypeWeight));

  for (guint i = 0; i < n_items; i++)
    {
      const char *type = types[i] ? types[i] : "";
      double weight = weights && !isnan (weights[i]) ? MAX (weights[i], 0) : 0;
      gpointer value;

      if (g_hash_table_lookup_extended (index, type, NULL, &value))
        {
          g_array_index (distinct, TypeWeight, GPOINTER_TO_UINT (value)).weight += weight;
        }
      else
        {
          TypeWeight tw = { type, weight, 0 };

          g_hash_table_insert (index, (gpointer)type, GUINT_TO_POINTER (distinct->len));
          g_array_append_val (distinct, tw);
        }
    }

  g_array_sort (distinct, compare_type_weight);

  for (guint i = 0; i < distinct->len; i++)
    {
      TypeWeight *tw = &g_array_index (distinct, TypeWeight, i);
      guint home = tes_share_chart_color_index (tw->type);

      tw->slot = home;

      /* Past N_COLORS types, colours repeat at their home slot */
      if (n_taken < TES_SHARE_CHART_N_COLORS)
        {
          while (taken[tw->slot])
            tw->slot = (tw->slot + 1) % TES_SHARE_CHART_N_COLORS;
          taken[tw->slot] = TRUE;
          n_taken++;
        }

      g_hash_table_insert (index, (gpointer)tw->type, GUINT_TO_POINTER (tw->slot));
    }

  for (guint i = 0; i < n_items; i++)
    slots[i] = GPOINTER_TO_UINT (g_hash_table_lookup (index, types[i] ? types[i] : ""));
}
