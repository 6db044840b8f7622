/* tes-memory-layout.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "tes-memory-layout.h"
#include "tes-share-chart-layout.h"
#include "tes-workspace.h"

#include <string.h>

void
tes_memory_model_free (TesMemoryModel *model)
{
  if (model == NULL)
    return;

  g_clear_pointer (&model->tiles, g_array_unref);
  g_clear_pointer (&model->categories, g_ptr_array_unref);
  g_clear_pointer (&model->histogram, g_array_unref);
  g_clear_pointer (&model->mismatches, g_array_unref);
  g_clear_pointer (&model->heaviest, g_array_unref);
  g_clear_pointer (&model->printed_notes, g_strfreev);
  g_free (model->bytes);
  g_free (model->colors);
  g_free (model);
}

gboolean
tes_memory_report_has_data (TesReport *report)
{
  TesReportCounts counts;

  tes_report_get_counts (report, &counts);

  return counts.n_tiles > 0;
}

/* A `size -A` listing's rows are ELF sections (".text"); a report's are
 * data types ("Variables"): two views of the same bytes. */
static gboolean
is_section (const char *category)
{
  return category != NULL && category[0] == '.';
}

typedef struct
{
  char   *name;
  gint64  total;
} Category;

static int
compare_categories (gconstpointer a,
                    gconstpointer b)
{
  const Category *x = a, *y = b;

  if (x->total != y->total)
    return x->total > y->total ? -1 : 1;

  return g_strcmp0 (x->name, y->name);
}

/* Every tile with memory rows, and what its bytes are made of: its data
 * types where the report gives them, else the listing's sections. */
TesMemoryModel *
tes_memory_model_new (TesReport  *report,
                      GError    **error)
{
  g_autoptr(TesMemoryModel) model = g_new0 (TesMemoryModel, 1);
  g_autoptr(GArray) all = NULL;
  g_autoptr(GArray) rows = NULL;
  g_autoptr(GArray) categories = g_array_new (FALSE, TRUE, sizeof (Category));
  g_autoptr(GHashTable) category_index = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) tile_index = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autofree guint8 *has_types = NULL;
  g_autofree guint *order = NULL;
  g_autoptr(GArray) printed = NULL;
  guint n_categories;

  g_return_val_if_fail (TES_IS_REPORT (report), NULL);

  if (!(all = tes_report_get_tiles (report, error)) ||
      !(rows = tes_report_get_tile_memory (report, 0, error)) ||
      !(printed = tes_report_get_tile_histogram (report, error)))
    return NULL;

  model->tiles = g_array_new (FALSE, TRUE, sizeof (TesTile));
  model->n_all = all->len;
  for (guint i = 0; i < all->len; i++)
    {
      const TesTile *tile = &g_array_index (all, TesTile, i);

      /* a text report alone gives every tile's limit (its Target), the
       * bytes of only its heaviest tiles */
      model->limit = MAX (model->limit, tile->memory_limit);
      if (!tile->has_memory)
        continue;
      g_array_append_val (model->tiles, *tile);
      model->max_bytes = MAX (model->max_bytes, tile->total_bytes);
    }
  for (guint i = 0; i < model->tiles->len; i++)
    {
      TesTile *tile = &g_array_index (model->tiles, TesTile, i);

      g_hash_table_insert (tile_index, &tile->id, GUINT_TO_POINTER (i + 1));
      model->n_over += model->limit > 0 && tile->total_bytes > model->limit;
    }

  /* which tiles have data types, then the categories the bars stack:
   * one set for every tile where one set covers them all (a listing gives
   * every tile's sections, a report the heaviest tiles' data types) */
  has_types = g_new0 (guint8, model->tiles->len + 1);
  {
    g_autofree guint8 *has_sections = g_new0 (guint8, model->tiles->len + 1);
    gboolean all_sections = TRUE;

    for (guint r = 0; r < rows->len; r++)
      {
        const TesTileMemory *row = &g_array_index (rows, TesTileMemory, r);
        guint t = GPOINTER_TO_UINT (g_hash_table_lookup (tile_index, &row->tile_id));

        if (t == 0)
          continue;
        if (is_section (tes_report_get_string (report, row->category)))
          has_sections[t - 1] = TRUE;
        else
          has_types[t - 1] = TRUE;
      }
    for (guint t = 0; t < model->tiles->len; t++)
      all_sections &= has_sections[t];
    if (all_sections)
      memset (has_types, 0, model->tiles->len);
  }
  for (guint r = 0; r < rows->len; r++)
    {
      const TesTileMemory *row = &g_array_index (rows, TesTileMemory, r);
      guint t = GPOINTER_TO_UINT (g_hash_table_lookup (tile_index, &row->tile_id));
      const char *name = tes_report_get_string (report, row->category);
      gpointer found;

      if (t == 0 || is_section (name) == has_types[t - 1])
        continue;
      if (!g_hash_table_lookup_extended (category_index, GUINT_TO_POINTER (row->category), NULL, &found))
        {
          Category category = { g_strdup (name), 0 };

          found = GUINT_TO_POINTER (categories->len);
          g_array_append_val (categories, category);
          g_hash_table_insert (category_index, GUINT_TO_POINTER (row->category), found);
        }
      g_array_index (categories, Category, GPOINTER_TO_UINT (found)).total += row->bytes;
    }

  /* largest first: the bars' bottom is what weighs most */
  order = g_new0 (guint, categories->len + 1);
  {
    g_autoptr(GArray) sorted = g_array_copy (categories);

    g_array_sort (sorted, compare_categories);
    model->categories = g_ptr_array_new_with_free_func (g_free);
    for (guint i = 0; i < sorted->len; i++)
      {
        const Category *category = &g_array_index (sorted, Category, i);

        for (guint j = 0; j < categories->len; j++)
          if (g_array_index (categories, Category, j).name == category->name)
            order[j] = i;
        g_ptr_array_add (model->categories, category->name);
      }

    /* the largest categories get distinct colours */
    {
      g_autofree double *weights = g_new0 (double, sorted->len + 1);

      for (guint i = 0; i < sorted->len; i++)
        weights[i] = (double)g_array_index (sorted, Category, i).total;
      model->colors = g_new0 (guint, sorted->len + 1);
      tes_share_chart_assign_colors ((const char * const *)model->categories->pdata, weights, sorted->len,
                                     model->colors);
    }
  }

  n_categories = model->categories->len;
  model->bytes = g_new0 (gint64, (gsize)model->tiles->len * MAX (n_categories, 1));
  for (guint r = 0; r < rows->len; r++)
    {
      const TesTileMemory *row = &g_array_index (rows, TesTileMemory, r);
      guint t = GPOINTER_TO_UINT (g_hash_table_lookup (tile_index, &row->tile_id));
      gpointer found;

      if (t == 0 || !g_hash_table_lookup_extended (category_index, GUINT_TO_POINTER (row->category), NULL, &found))
        continue;
      if (is_section (tes_report_get_string (report, row->category)) == has_types[t - 1])
        continue;
      model->bytes[(gsize)(t - 1) * n_categories + order[GPOINTER_TO_UINT (found)]] += row->bytes;
    }

  /* the report's own histogram, checked against the tiles when every
   * tile has its bytes (as tessera-cli memory: a report alone details only
   * its heaviest tiles, which no printed bin can be checked with); else ours */
  model->printed = printed->len > 0;
  if (model->printed)
    {
      guint n_rows = 0;
      g_auto(GStrv) lines = tes_report_get_printed_histogram (report, 1, &n_rows);

      /* the lines under the rows of the first, which is the one drawn */
      if (lines != NULL && g_strv_length (lines) > n_rows)
        model->printed_notes = g_strdupv (lines + n_rows);

      model->histogram = g_steal_pointer (&printed);
      if (model->tiles->len > 0 && model->tiles->len == all->len)
        model->mismatches = tes_tile_histogram_check ((const TesTileHistogramBin *)(gpointer)model->histogram->data,
                                                      model->histogram->len,
                                                      (const TesTile *)(gpointer)model->tiles->data, model->tiles->len);
      else
        model->mismatches = g_array_new (FALSE, TRUE, sizeof (TesTileHistogramMismatch));
    }
  else
    {
      model->histogram = tes_tile_histogram_from_tiles ((const TesTile *)(gpointer)model->tiles->data,
                                                        model->tiles->len, -1);
      model->mismatches = g_array_new (FALSE, TRUE, sizeof (TesTileHistogramMismatch));
    }
  model->heaviest = tes_tiles_heaviest ((const TesTile *)(gpointer)model->tiles->data, model->tiles->len, 5);

  return g_steal_pointer (&model);
}

gint64
tes_memory_model_get_bytes (const TesMemoryModel *model,
                            guint                 tile,
                            guint                 category)
{
  g_return_val_if_fail (tile < model->tiles->len && category < model->categories->len, 0);

  return model->bytes[(gsize)tile * model->categories->len + category];
}

/* The tiles of a histogram bin (of its IPU, or of all): what a click on
 * the bin lists. */
GArray *
tes_memory_model_tiles_in (const TesMemoryModel      *model,
                           const TesTileHistogramBin *bin)
{
  GArray *tiles = g_array_new (FALSE, TRUE, sizeof (TesTile));

  for (guint i = 0; i < model->tiles->len; i++)
    {
      const TesTile *tile = &g_array_index (model->tiles, TesTile, i);

      if ((bin->ipu < 0 || tile->ipu == bin->ipu) &&
          tile->total_bytes >= bin->lower && tile->total_bytes < bin->upper)
        g_array_append_val (tiles, *tile);
    }

  return tiles;
}

/* The index in model->tiles of @tile of @ipu (any IPU's when @ipu < 0),
 * or -1: what the workspace's tile is in the chart. */
int
tes_memory_model_find_tile (const TesMemoryModel *model,
                            int                   ipu,
                            int                   tile)
{
  for (guint i = 0; tile >= 0 && i < model->tiles->len; i++)
    {
      const TesTile *t = &g_array_index (model->tiles, TesTile, i);

      if (t->tile == tile && (ipu < 0 || t->ipu == ipu))
        return (int)i;
    }

  return -1;
}

/* The tiles [@first, @last) that the chart's @column of @n_columns draws
 * (@n_columns ≤ @n_tiles: a column per pixel, several tiles to one). */
void
tes_memory_column_tiles (guint  n_tiles,
                         guint  n_columns,
                         guint  column,
                         guint *first,
                         guint *last)
{
  *first = (guint)((guint64)column * n_tiles / MAX (n_columns, 1));
  *last = (guint)((guint64)(column + 1) * n_tiles / MAX (n_columns, 1));
}

/* The column that draws the tile at @index: the inverse of
 * tes_memory_column_tiles (). */
guint
tes_memory_tile_column (guint n_tiles,
                        guint n_columns,
                        guint index)
{
  guint column, first, last;

  if (n_tiles == 0 || n_columns == 0)
    return 0;
  column = (guint)MIN ((guint64)index * n_columns / n_tiles, n_columns - 1);
  /* rounding: step to the column whose range holds it */
  for (;;)
    {
      tes_memory_column_tiles (n_tiles, n_columns, column, &first, &last);
      if (index < first && column > 0)
        column--;
      else if (index >= last && column + 1 < n_columns)
        column++;
      else
        return column;
    }
}

/* The tile a column draws (and a click on it selects): its heaviest. */
guint
tes_memory_model_column_tile (const TesMemoryModel *model,
                              guint                 n_columns,
                              guint                 column)
{
  guint first, last, heaviest;

  tes_memory_column_tiles (model->tiles->len, n_columns, column, &first, &last);
  heaviest = first;
  for (guint t = first; t < last; t++)
    if (g_array_index (model->tiles, TesTile, t).total_bytes > g_array_index (model->tiles, TesTile, heaviest).total_bytes)
      heaviest = t;

  return heaviest;
}

/* The tile drawn at (@x, @y) of @plot (its column's heaviest), or -1. */
int
tes_memory_model_tile_at (const TesMemoryModel *model,
                          const TesMemoryPlot  *plot,
                          double                x,
                          double                y)
{
  guint column;

  if (plot->n_columns == 0 || x < plot->x || x >= plot->x + plot->width || y < plot->y ||
      y >= plot->y + plot->height)
    return -1;
  column = MIN ((guint)((x - plot->x) / plot->width * plot->n_columns), plot->n_columns - 1);

  return (int)tes_memory_model_column_tile (model, plot->n_columns, column);
}

/* Bytes as the page writes them: KB (of 1,024 bytes, grouped, as the
 * Poplar report's histogram counts them), and what is under 1 KB in bytes
 * rather than as "0 KB". */
char *
tes_memory_format_kb (gint64 bytes)
{
  g_autofree char *number = NULL;

  if (bytes > 0 && bytes < 1024)
    return g_strdup_printf ("%" G_GINT64_FORMAT " B", bytes);
  number = tes_format_grouped ((double)(bytes / 1024));

  return g_strconcat (number, " KB", NULL);
}

/* The tile at @index in words: "IPU 0 tile 5: 640 KB — code 300 KB, …",
 * its @max_categories largest categories with bytes. */
char *
tes_memory_model_tile_text (const TesMemoryModel *model,
                            guint                 index,
                            guint                 max_categories)
{
  const TesTile *tile = &g_array_index (model->tiles, TesTile, index);
  g_autofree char *total = tes_memory_format_kb (tile->total_bytes);
  GString *line = g_string_new (NULL);

  /* Translators: a tile, its IPU, and its bytes */
  g_string_append_printf (line, _("IPU %d tile %d: %s"), tile->ipu, tile->tile, total);
  for (guint k = 0, shown = 0; k < model->categories->len && shown < max_categories; k++)
    {
      gint64 bytes = tes_memory_model_get_bytes (model, index, k);
      g_autofree char *kb = NULL;

      if (bytes <= 0)
        continue;
      kb = tes_memory_format_kb (bytes);
      g_string_append_printf (line, "%s%s %s", shown++ ? ", " : " — ",
                              (const char *)g_ptr_array_index (model->categories, k), kb);
    }

  return g_string_free (line, FALSE);
}

/* The top of the bytes axis: the heaviest tile or the limit, whichever is
 * higher (or what a compared run shares). */
gint64
tes_memory_model_bytes_top (const TesMemoryModel *model)
{
  if (model->shared_bytes_top > 0)
    return model->shared_bytes_top;

  return MAX (model->max_bytes, model->limit);
}

/* The top of the histogram's tile counts, at least 1. */
gint64
tes_memory_model_count_top (const TesMemoryModel *model)
{
  gint64 most = 1;

  if (model->shared_count_top > 0)
    return model->shared_count_top;

  for (guint i = 0; i < model->histogram->len; i++)
    most = MAX (most, g_array_index (model->histogram, TesTileHistogramBin, i).tiles);

  return most;
}

/* Two runs drawn one above the other share their axes: a bar as tall
 * holds as many bytes (or tiles) in both. */
void
tes_memory_model_share_scales (TesMemoryModel *a,
                               TesMemoryModel *b)
{
  gint64 bytes_top, count_top;

  a->shared_bytes_top = b->shared_bytes_top = 0;
  a->shared_count_top = b->shared_count_top = 0;
  bytes_top = MAX (tes_memory_model_bytes_top (a), tes_memory_model_bytes_top (b));
  count_top = MAX (tes_memory_model_count_top (a), tes_memory_model_count_top (b));
  a->shared_bytes_top = b->shared_bytes_top = bytes_top;
  a->shared_count_top = b->shared_count_top = count_top;
}
