/* tes-insights-memory.c: findings of memory: tiles over the limit, imbalance, always-live memory, a printed histogram the tiles disagree with
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-insights"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "tes-compare.h"
#include "tes-insights-private.h"
#include "tes-report-private.h"
#include "tes-workspace.h"

/* ---- Memory ------------------------------------------------------------ */

typedef struct
{
  guint32 category;   /* string id; 0: none */
  gint64  bytes;
  gboolean is_type;   /* a data type, not an ELF section */
} Dominant;

/* Per tile (by its index in @tiles), the category holding most of its
 * bytes: a data type the report details ("Variables") when it has any,
 * which says more than the ELF section (".data") it lands in. */
static Dominant *
dominant_categories (TesReport  *report,
                     GArray     *tiles,
                     GError    **error)
{
  g_autoptr(GArray) rows = tes_report_get_tile_memory (report, 0, error);
  g_autoptr(GHashTable) index = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autofree Dominant *dominant = g_new0 (Dominant, MAX (tiles->len, 1));

  if (rows == NULL)
    return NULL;
  for (guint i = 0; i < tiles->len; i++)
    g_hash_table_insert (index, &g_array_index (tiles, TesTile, i).id, GUINT_TO_POINTER (i + 1));

  for (guint r = 0; r < rows->len; r++)
    {
      const TesTileMemory *row = &g_array_index (rows, TesTileMemory, r);
      guint i = GPOINTER_TO_UINT (g_hash_table_lookup (index, &row->tile_id));
      const char *name = tes_report_get_string (report, row->category);
      gboolean is_type = name != NULL && name[0] != '.';
      Dominant *d;

      if (i == 0)
        continue;
      d = &dominant[i - 1];
      if ((is_type && !d->is_type) || (is_type == d->is_type && row->bytes > d->bytes))
        {
          d->category = row->category;
          d->bytes = row->bytes;
          d->is_type = is_type;
        }
    }

  return g_steal_pointer (&dominant);
}

static void
put_tile_item (Ctx             *ctx,
               GVariantBuilder *list,
               const TesTile   *tile,
               const Dominant  *dominant)
{
  GVariantBuilder item;

  g_variant_builder_init (&item, G_VARIANT_TYPE_VARDICT);
  _tes_insights_put_int (&item, "ipu", tile->ipu);
  _tes_insights_put_int (&item, "tile", tile->tile);
  _tes_insights_put_int (&item, "bytes", tile->total_bytes);
  if (tile->memory_limit > 0)
    {
      _tes_insights_put_int (&item, "limit_bytes", tile->memory_limit);
      _tes_insights_put_int (&item, "over_bytes", MAX (tile->total_bytes - tile->memory_limit, 0));
    }
  _tes_insights_put_string (&item, "category", dominant->category ? tes_report_get_string (ctx->report, dominant->category) : "");
  _tes_insights_put_int (&item, "category_bytes", dominant->bytes);
  g_variant_builder_add_value (list, g_variant_builder_end (&item));
}

static int
compare_over (gconstpointer a,
              gconstpointer b)
{
  const TesTile *x = *(TesTile * const *)a, *y = *(TesTile * const *)b;
  gint64 ox = x->total_bytes - x->memory_limit, oy = y->total_bytes - y->memory_limit;

  if (ox != oy)
    return ox > oy ? -1 : 1;
  if (x->ipu != y->ipu)
    return x->ipu < y->ipu ? -1 : 1;
  return (x->tile > y->tile) - (x->tile < y->tile);
}

static guint
tile_position (GArray        *tiles,
               const TesTile *tile)
{
  for (guint i = 0; i < tiles->len; i++)
    if (g_array_index (tiles, TesTile, i).id == tile->id)
      return i;
  return 0;
}

static void
select_tile (TesInsight    *insight,
             const char    *view,
             const TesTile *tile)
{
  insight->target.view = view;
  insight->target.ipu = tile->ipu;
  insight->target.tile = tile->tile;
}

gboolean
_tes_insights_find_memory (Ctx     *ctx,
                           GError **error)
{
  g_autoptr(GArray) tiles = NULL;
  g_autoptr(GArray) printed = NULL;
  g_autoptr(GPtrArray) over = g_ptr_array_new ();
  g_autofree Dominant *dominant = NULL;
  g_autofree char *always = NULL;
  const TesTile *all;
  gint64 sum = 0, over_bytes = 0;
  guint n_memory = 0;

  if (!(tiles = tes_report_get_tiles (ctx->report, error)) ||
      !(printed = tes_report_get_tile_histogram (ctx->report, error)))
    return FALSE;
  all = (const TesTile *)(gpointer)tiles->data;
  for (guint i = 0; i < tiles->len; i++)
    if (all[i].has_memory)
      {
        n_memory++;
        sum += all[i].total_bytes;
        if (all[i].memory_limit > 0 && all[i].total_bytes > all[i].memory_limit)
          {
            g_ptr_array_add (over, (gpointer)&all[i]);
            over_bytes += all[i].total_bytes - all[i].memory_limit;
          }
      }
  if (n_memory == 0)
    return TRUE;
  if (!(dominant = dominant_categories (ctx->report, tiles, error)))
    return FALSE;

  /* tiles over their limit: the program does not fit, whatever else */
  if (over->len > 0)
    {
      GVariantBuilder ev, list;
      const TesTile *worst;
      g_autofree char *bytes = tes_format_grouped ((double)over_bytes);
      g_autofree char *limit = NULL;
      TesInsight *insight;

      g_ptr_array_sort (over, compare_over);
      worst = g_ptr_array_index (over, 0);
      limit = tes_format_grouped ((double)worst->memory_limit);
      g_variant_builder_init (&ev, G_VARIANT_TYPE_VARDICT);
      g_variant_builder_init (&list, G_VARIANT_TYPE ("aa{sv}"));
      _tes_insights_put_int (&ev, "count", over->len);
      _tes_insights_put_int (&ev, "over_bytes", over_bytes);
      for (guint i = 0; i < over->len; i++)
        {
          const TesTile *tile = g_ptr_array_index (over, i);

          put_tile_item (ctx, &list, tile, &dominant[tile_position (tiles, tile)]);
        }
      _tes_insights_put_list (&ev, "tiles", &list);
      insight = _tes_insights_add (ctx, TES_INSIGHT_TILES_OVER_LIMIT, (double)over_bytes, TES_INSIGHT_UNIT_BYTES, 100, &ev,
                                   g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                                 "%s tile holds more than the %s bytes a tile has, "
                                                                 "%s bytes too many: the program does not fit.",
                                                                 "%s tiles hold more than the %s bytes a tile has, "
                                                                 "%s bytes too many in all: the program does not fit.",
                                                                 over->len),
                                                    _tes_insights_count_text (ctx, over->len), limit, bytes));
      select_tile (insight, "memory-tiles", worst);
    }

  /* the heaviest tile against the mean */
  {
    g_autoptr(GArray) heaviest = tes_tiles_heaviest (all, tiles->len, (guint)T (ctx, HEAVIEST_TILES));
    g_autoptr(GArray) top = tes_tiles_heaviest (all, tiles->len, 1);
    double mean = (double)sum / n_memory;
    const TesTile *max = &g_array_index (top, TesTile, 0);

    if (mean > 0 && max->total_bytes >= T (ctx, MEMORY_IMBALANCE) * mean)
      {
        GVariantBuilder ev, list;
        g_autofree char *max_text = tes_format_grouped ((double)max->total_bytes);
        g_autofree char *mean_text = tes_format_grouped (mean);
        const Dominant *d = &dominant[tile_position (tiles, max)];
        TesInsight *insight;

        g_variant_builder_init (&ev, G_VARIANT_TYPE_VARDICT);
        g_variant_builder_init (&list, G_VARIANT_TYPE ("aa{sv}"));
        _tes_insights_put_int (&ev, "heaviest_bytes", max->total_bytes);
        _tes_insights_put_double (&ev, "mean_bytes", mean);
        _tes_insights_put_double (&ev, "ratio", max->total_bytes / mean);
        _tes_insights_put_int (&ev, "tiles", n_memory);
        for (guint i = 0; i < heaviest->len; i++)
          {
            const TesTile *tile = &g_array_index (heaviest, TesTile, i);

            put_tile_item (ctx, &list, tile, &dominant[tile_position (tiles, tile)]);
          }
        _tes_insights_put_list (&ev, "heaviest", &list);
        insight = _tes_insights_add (ctx, TES_INSIGHT_MEMORY_IMBALANCE, max->total_bytes - mean, TES_INSIGHT_UNIT_BYTES,
                                     100.0 * (max->total_bytes - mean) / max->total_bytes, &ev,
                                     g_strdup_printf (_("Tile %d of IPU %d holds %s bytes, %.1f times the mean tile's %s, "
                                                        "most of them %s: the heaviest tile sets the memory a program needs."),
                                                      max->tile, max->ipu, max_text, max->total_bytes / mean, mean_text,
                                                      d->category ? tes_report_get_string (ctx->report, d->category) : "?"));
        select_tile (insight, "memory-tiles", max);
      }
  }

  /* always-live memory, where the profile gives it */
  always = tes_report_lookup_info (ctx->report, "liveness.always_live");
  if (always != NULL && sum > 0)
    {
      gint64 bytes = g_ascii_strtoll (always, NULL, 10);
      double share = 100.0 * bytes / sum;

      if (bytes > 0 && share >= T (ctx, ALWAYS_LIVE_SHARE))
        {
          GVariantBuilder ev;
          g_autofree char *text = tes_format_grouped ((double)bytes);
          TesInsight *insight;

          g_variant_builder_init (&ev, G_VARIANT_TYPE_VARDICT);
          _tes_insights_put_int (&ev, "always_live_bytes", bytes);
          _tes_insights_put_int (&ev, "total_bytes", sum);
          _tes_insights_put_double (&ev, "share_percent", share);
          insight = _tes_insights_add (ctx, TES_INSIGHT_ALWAYS_LIVE, (double)bytes, TES_INSIGHT_UNIT_BYTES, share, &ev,
                                       g_strdup_printf (_("%s bytes, %.1f %% of all tiles' memory, are always live: "
                                                          "no scheduling of the program frees them."), text, share));
          insight->target.view = "memory-tiles";
        }
    }

  /* a printed histogram the tiles' own bytes disagree with */
  if (printed->len > 0 && n_memory == tiles->len)
    {
      g_autoptr(GArray) mismatches = tes_tile_histogram_check ((const TesTileHistogramBin *)(gpointer)printed->data,
                                                               printed->len, all, tiles->len);
      gint64 off = 0;

      for (guint i = 0; i < mismatches->len; i++)
        {
          const TesTileHistogramMismatch *m = &g_array_index (mismatches, TesTileHistogramMismatch, i);

          off += ABS (m->binned - m->printed);
        }
      if (mismatches->len > 0)
        {
          GVariantBuilder ev, list;
          TesInsight *insight;

          g_variant_builder_init (&ev, G_VARIANT_TYPE_VARDICT);
          g_variant_builder_init (&list, G_VARIANT_TYPE ("aa{sv}"));
          _tes_insights_put_int (&ev, "tiles", tiles->len);
          _tes_insights_put_int (&ev, "tiles_off", off);
          for (guint i = 0; i < mismatches->len; i++)
            {
              const TesTileHistogramMismatch *m = &g_array_index (mismatches, TesTileHistogramMismatch, i);
              GVariantBuilder item;

              g_variant_builder_init (&item, G_VARIANT_TYPE_VARDICT);
              _tes_insights_put_int (&item, "histogram", m->histogram);
              _tes_insights_put_int (&item, "lower_bytes", m->lower);
              _tes_insights_put_int (&item, "upper_bytes", m->upper);
              _tes_insights_put_int (&item, "printed", m->printed);
              _tes_insights_put_int (&item, "binned", m->binned);
              g_variant_builder_add_value (&list, g_variant_builder_end (&item));
            }
          _tes_insights_put_list (&ev, "bins", &list);
          insight = _tes_insights_add (ctx, TES_INSIGHT_HISTOGRAM_MISMATCH, (double)off, TES_INSIGHT_UNIT_TILES,
                                       MIN (100.0, 100.0 * off / tiles->len), &ev,
                                       g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                                     "The printed histogram disagrees with the tiles' own bytes "
                                                                     "in %s bin: the report and the listing are not of one build.",
                                                                     "The printed histogram disagrees with the tiles' own bytes "
                                                                     "in %s bins: the report and the listing are not of one build.",
                                                                     mismatches->len),
                                                        _tes_insights_count_text (ctx, mismatches->len)));
          insight->target.view = "memory-histogram";
        }
    }

  return TRUE;
}
