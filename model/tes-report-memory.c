/* tes-report-memory.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-report"

#include "config.h"

#include "tes-report-private.h"

static gboolean
read_tile_memory_row (TesReport     *self,
                      sqlite3_stmt  *stmt,
                      gpointer       out,
                      GError       **error)
{
  TesTileMemory row = {
    .tile_id = sqlite3_column_int64 (stmt, 0),
    .category = (guint32)sqlite3_column_int64 (stmt, 1),
    .bytes = sqlite3_column_int64 (stmt, 2),
  };

  g_array_append_val ((GArray *)out, row);
  return TRUE;
}

/* Memory rows of one tile (tile_id > 0) or of all tiles, by tile then
 * category. */
GArray *
tes_report_get_tile_memory (TesReport  *self,
                            gint64      tile_id,
                            GError    **error)
{
  g_autoptr(GArray) rows = g_array_new (FALSE, TRUE, sizeof (TesTileMemory));

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  if (!tes_report_read_rows (self,
                             "SELECT tile_id, category, bytes FROM tile_memory "
                             "WHERE ?1 <= 0 OR tile_id = ?1 ORDER BY tile_id, category",
                             tile_id, read_tile_memory_row, rows, error))
    return NULL;

  return g_steal_pointer (&rows);
}

static gboolean
read_histogram_row (TesReport     *self,
                    sqlite3_stmt  *stmt,
                    gpointer       out,
                    GError       **error)
{
  TesTileHistogramBin bin = {
    .histogram = (guint)sqlite3_column_int (stmt, 0),
    .ipu = sqlite3_column_int (stmt, 1),
    .lower = sqlite3_column_int64 (stmt, 2),
    .upper = sqlite3_column_int64 (stmt, 3),
    .tiles = sqlite3_column_int64 (stmt, 4),
  };

  g_array_append_val ((GArray *)out, bin);
  return TRUE;
}

/* The tile memory histograms the report prints (Poplar's By Tile), bin by
 * bin as printed: by histogram, then in print order. Empty when it prints
 * none. */
GArray *
tes_report_get_tile_histogram (TesReport  *self,
                               GError    **error)
{
  g_autoptr(GArray) bins = g_array_new (FALSE, TRUE, sizeof (TesTileHistogramBin));

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  if (!tes_report_read_rows (self,
                             "SELECT histogram, coalesce (ipu, -1), lower, upper, tiles FROM tile_histogram "
                             "ORDER BY coalesce (source_id, 0), histogram, rowid",
                             0, read_histogram_row, bins, error))
    return NULL;

  return g_steal_pointer (&bins);
}

/* ---- Pure: histograms, the heaviest tiles --------------------------------- */

static gboolean
tile_counts (const TesTile *tile,
             gint           ipu)
{
  return tile->has_memory && (ipu < 0 || tile->ipu == ipu);
}

/* The tiles of one IPU (ipu >= 0) or of all that have memory rows, binned
 * the way Poplar's reports show them: ranges of whole KB (1024 bytes, a
 * tile in the bin of its bytes / 1024 rounded down), a power of two wide,
 * starting at a multiple of the width; the narrowest width that keeps the
 * lightest and heaviest tile at most TES_TILE_HISTOGRAM_MAX_BINS bins
 * apart. Every bin between the two is listed, empty or not. Poplar does
 * not document how it picks the width: this is the rule of
 * tests/gen-poplar-tiles.py, which the adder report's 1 KB bins also fit. */
GArray *
tes_tile_histogram_from_tiles (const TesTile *tiles,
                               guint          n_tiles,
                               gint           ipu)
{
  g_autoptr(GArray) bins = g_array_new (FALSE, TRUE, sizeof (TesTileHistogramBin));
  gint64 min_kb = G_MAXINT64, max_kb = -1, width = 1, start;
  guint n_bins;

  g_return_val_if_fail (tiles != NULL || n_tiles == 0, NULL);

  for (guint i = 0; i < n_tiles; i++)
    if (tile_counts (&tiles[i], ipu))
      {
        gint64 kb = MAX (tiles[i].total_bytes, 0) / 1024;

        min_kb = MIN (min_kb, kb);
        max_kb = MAX (max_kb, kb);
      }
  if (max_kb < 0)
    return g_steal_pointer (&bins);

  while (max_kb / width - min_kb / width + 1 > TES_TILE_HISTOGRAM_MAX_BINS)
    width *= 2;
  start = min_kb / width * width;
  n_bins = (guint)((max_kb - start) / width + 1);

  g_array_set_size (bins, n_bins);
  for (guint b = 0; b < n_bins; b++)
    {
      TesTileHistogramBin *bin = &g_array_index (bins, TesTileHistogramBin, b);

      bin->ipu = ipu < 0 ? -1 : ipu;
      bin->lower = (start + b * width) * 1024;
      bin->upper = bin->lower + width * 1024;
    }

  for (guint i = 0; i < n_tiles; i++)
    if (tile_counts (&tiles[i], ipu))
      g_array_index (bins, TesTileHistogramBin, (MAX (tiles[i].total_bytes, 0) / 1024 - start) / width).tiles++;

  return g_steal_pointer (&bins);
}

static void
check_one_histogram (const TesTileHistogramBin *bins,
                     guint                      n_bins,
                     const TesTile             *tiles,
                     guint                      n_tiles,
                     GArray                    *mismatches)
{
  g_autofree gint64 *binned = g_new0 (gint64, n_bins);
  gint64 outside = 0;

  for (guint i = 0; i < n_tiles; i++)
    {
      guint b;

      if (!tile_counts (&tiles[i], bins[0].ipu))
        continue;
      for (b = 0; b < n_bins && !(bins[b].lower <= tiles[i].total_bytes && tiles[i].total_bytes < bins[b].upper); b++);
      if (b < n_bins)
        binned[b]++;
      else
        outside++;
    }

  for (guint b = 0; b < n_bins; b++)
    if (binned[b] != bins[b].tiles)
      {
        TesTileHistogramMismatch m = { bins[b].histogram, bins[b].lower, bins[b].upper, bins[b].tiles, binned[b] };

        g_array_append_val (mismatches, m);
      }

  if (outside > 0)
    {
      TesTileHistogramMismatch m = { bins[0].histogram, -1, -1, 0, outside };

      g_array_append_val (mismatches, m);
    }
}

/* Checks each printed histogram in bins (as tes_report_get_tile_histogram()
 * returns them) against the tiles' own totals: per printed bin whose count
 * differs, one mismatch; tiles in no printed bin, one more (lower and
 * upper -1). Only tiles with memory rows count: call it when every tile
 * has them, else the figures are bound to differ. */
GArray *
tes_tile_histogram_check (const TesTileHistogramBin *bins,
                          guint                      n_bins,
                          const TesTile             *tiles,
                          guint                      n_tiles)
{
  g_autoptr(GArray) mismatches = g_array_new (FALSE, TRUE, sizeof (TesTileHistogramMismatch));
  guint first = 0;

  g_return_val_if_fail (bins != NULL || n_bins == 0, NULL);
  g_return_val_if_fail (tiles != NULL || n_tiles == 0, NULL);

  for (guint b = 1; b <= n_bins; b++)
    if (b == n_bins || bins[b].histogram != bins[first].histogram || bins[b].ipu != bins[first].ipu)
      {
        check_one_histogram (&bins[first], b - first, tiles, n_tiles, mismatches);
        first = b;
      }

  return g_steal_pointer (&mismatches);
}

static int
compare_heavier (gconstpointer a,
                 gconstpointer b)
{
  const TesTile *x = a;
  const TesTile *y = b;

  if (x->total_bytes != y->total_bytes)
    return x->total_bytes > y->total_bytes ? -1 : 1;
  if (x->ipu != y->ipu)
    return x->ipu < y->ipu ? -1 : 1;
  return (x->tile > y->tile) - (x->tile < y->tile);
}

/* Up to max of the tiles with memory rows, heaviest first (ties by IPU,
 * then tile), as copies. */
GArray *
tes_tiles_heaviest (const TesTile *tiles,
                    guint          n_tiles,
                    guint          max)
{
  g_autoptr(GArray) heaviest = g_array_new (FALSE, TRUE, sizeof (TesTile));

  g_return_val_if_fail (tiles != NULL || n_tiles == 0, NULL);

  for (guint i = 0; i < n_tiles; i++)
    if (tiles[i].has_memory)
      g_array_append_val (heaviest, tiles[i]);

  g_array_sort (heaviest, compare_heavier);
  if (heaviest->len > max)
    g_array_set_size (heaviest, max);

  return g_steal_pointer (&heaviest);
}

/* Tiles whose bytes exceed their memory limit (those with both known): what
 * Poplar prints as "N tile(s) out of memory". */
guint
tes_tiles_count_out_of_memory (const TesTile *tiles,
                               guint          n_tiles)
{
  guint n = 0;

  g_return_val_if_fail (tiles != NULL || n_tiles == 0, 0);

  for (guint i = 0; i < n_tiles; i++)
    n += tiles[i].has_memory && tiles[i].memory_limit > 0 && tiles[i].total_bytes > tiles[i].memory_limit;

  return n;
}
