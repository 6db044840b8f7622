/* tes-insights.c: the few places where a run's time and memory go wrong,
 * found with the views' own queries and ranked by what they cost
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
#include "tes-insights.h"
#include "tes-report-private.h"
#include "tes-workspace.h"

/* ---- Kinds, units, thresholds ------------------------------------------ */

static const struct {
  const char *name;
  const char *area;
} kinds[TES_INSIGHT_N_KINDS] = {
  [TES_INSIGHT_TILES_OVER_LIMIT] = { "tiles-over-limit", "memory" },
  [TES_INSIGHT_MEMORY_IMBALANCE] = { "memory-imbalance", "memory" },
  [TES_INSIGHT_ALWAYS_LIVE] = { "always-live", "memory" },
  [TES_INSIGHT_HISTOGRAM_MISMATCH] = { "histogram-mismatch", "memory" },
  [TES_INSIGHT_STEP_BALANCE] = { "step-balance", "bsp" },
  [TES_INSIGHT_SYNC_SHARE] = { "sync-share", "bsp" },
  [TES_INSIGHT_EXCHANGE_SHARE] = { "exchange-share", "bsp" },
  [TES_INSIGHT_IDLE_TILES] = { "idle-tiles", "bsp" },
  [TES_INSIGHT_HOT_TILES] = { "hot-tiles", "bsp" },
  [TES_INSIGHT_IDLE_GAPS] = { "idle-gaps", "execution" },
  [TES_INSIGHT_LONG_OPERATOR] = { "long-operator", "execution" },
  [TES_INSIGHT_LAUNCH_BOUND] = { "launch-bound", "execution" },
  [TES_INSIGHT_SLOW_STEP] = { "slow-step", "execution" },
  [TES_INSIGHT_REGRESSION] = { "regression", "compare" },
  [TES_INSIGHT_STEP_REGRESSION] = { "step-regression", "compare" },
  [TES_INSIGHT_MEMORY_CHANGE] = { "memory-change", "compare" },
};

/* The one table of thresholds: docs/insights.md explains each. */
static const TesInsightThresholdInfo thresholds_info[TES_INSIGHT_N_THRESHOLDS] = {
  [TES_INSIGHT_T_MEMORY_IMBALANCE] = { "memory_imbalance", 1.5, "×",
    "memory-imbalance: the heaviest tile holds at least this many times the mean tile's bytes" },
  [TES_INSIGHT_T_HEAVIEST_TILES] = { "heaviest_tiles", 5, "tiles",
    "memory-imbalance: how many of the heaviest tiles its evidence lists" },
  [TES_INSIGHT_T_ALWAYS_LIVE_SHARE] = { "always_live_share", 50, "%",
    "always-live: always-live memory holds at least this share of all tiles' bytes" },
  [TES_INSIGHT_T_STEP_BALANCE] = { "step_balance", 50, "%",
    "step-balance: a BSP step whose tile balance is below this" },
  [TES_INSIGHT_T_STEP_MIN_SHARE] = { "step_min_share", 1, "%",
    "step-balance: and that holds at least this share of its IPU's cycles" },
  [TES_INSIGHT_T_STEPS_LISTED] = { "steps_listed", 5, "steps",
    "step-balance: at most this many steps, the costliest" },
  [TES_INSIGHT_T_SYNC_SHARE] = { "sync_share", 25, "%",
    "sync-share: an IPU's tiles sync for at least this share of their cycles" },
  [TES_INSIGHT_T_EXCHANGE_SHARE] = { "exchange_share", 40, "%",
    "exchange-share: an IPU's tiles exchange for at least this share of their cycles" },
  [TES_INSIGHT_T_IDLE_TILE_SHARE] = { "idle_tile_share", 90, "%",
    "idle-tiles: a tile idle for at least this share of its IPU's steps" },
  [TES_INSIGHT_T_HOT_TILE_FACTOR] = { "hot_tile_factor", 1.5, "×",
    "hot-tiles: a tile busy for at least this many times its IPU's mean busy cycles" },
  [TES_INSIGHT_T_IDLE_GAP_US] = { "idle_gap_us", 100, "µs",
    "idle-gaps: a unit's gap between two stretches of work at least this long" },
  [TES_INSIGHT_T_GAPS_LISTED] = { "gaps_listed", 5, "gaps",
    "idle-gaps: how many of a unit's largest gaps its evidence lists" },
  [TES_INSIGHT_T_OPERATOR_SHARE] = { "operator_share", 10, "%",
    "long-operator: an operator holding at least this share of the operators' time" },
  [TES_INSIGHT_T_OPERATORS_LISTED] = { "operators_listed", 5, "operators",
    "long-operator: at most this many operators, the longest" },
  [TES_INSIGHT_T_LAUNCH_BOUND_RATIO] = { "launch_bound_ratio", 0.2, "×",
    "launch-bound: an operator whose device time is below this fraction of its host time" },
  [TES_INSIGHT_T_LAUNCH_BOUND_MIN_SHARE] = { "launch_bound_min_share", 1, "%",
    "launch-bound: and whose host time is at least this share of the run's span" },
  [TES_INSIGHT_T_SLOW_STEP_FACTOR] = { "slow_step_factor", 1.5, "×",
    "slow-step: a step (run) at least this many times the median step's time" },
  [TES_INSIGHT_T_REGRESSION_PCT] = { "regression_pct", 10, "%",
    "regression, step-regression: B slower than A by more than this" },
  [TES_INSIGHT_T_REGRESSION_MIN_SHARE] = { "regression_min_share", 1, "%",
    "regression: for an operator holding at least this share of either run" },
  [TES_INSIGHT_T_MEMORY_CHANGE_PCT] = { "memory_change_pct", 5, "%",
    "memory-change: all tiles' bytes changed by at least this much, or a tile newly over its limit" },
};

const char *
tes_insight_kind_get_name (TesInsightKind kind)
{
  g_return_val_if_fail (kind < TES_INSIGHT_N_KINDS, NULL);

  return kinds[kind].name;
}

const char *
tes_insight_kind_get_area (TesInsightKind kind)
{
  g_return_val_if_fail (kind < TES_INSIGHT_N_KINDS, NULL);

  return kinds[kind].area;
}

const char *
tes_insight_unit_get_name (TesInsightUnit unit)
{
  static const char * const names[] = { "bytes", "cycles", "ns", "percent", "tiles" };

  g_return_val_if_fail (unit < G_N_ELEMENTS (names), NULL);

  return names[unit];
}

/* A count for ngettext(): languages choose their plural by the last
 * digits, so a count past gulong keeps those. */
static gulong
plural_count (double value)
{
  value = fabs (value);
  return value < 1e9 ? (gulong)value : 1000000000ul + (gulong)fmod (value, 1000.0);
}

/**
 * tes_insight_format_ns:
 *
 * A duration in the unit that keeps it short: "12.854 ms", "340.000 µs",
 * "87 ns", as findings' costs and evidence print it.
 *
 * Returns: (transfer full): the text
 */
char *
tes_insight_format_ns (double ns)
{
  return tes_format_duration (ns, fabs (ns) >= 1e6 ? TES_TIME_UNIT_MS
                              : fabs (ns) >= 1e3 ? TES_TIME_UNIT_US : TES_TIME_UNIT_NS);
}

/**
 * tes_insight_format_cost:
 *
 * What @insight costs, as `tessera-cli insights` and the window print it:
 * "214,836 bytes", "12.854 ms", "3,204 cycles", "52.5 %" (the unit's word
 * translated; `--json`'s cost_unit is the stable name).
 *
 * Returns: (transfer full): the text
 */
char *
tes_insight_format_cost (const TesInsight *insight)
{
  g_autofree char *grouped = NULL;
  gulong n;

  g_return_val_if_fail (insight != NULL, NULL);

  if (insight->cost_unit == TES_INSIGHT_UNIT_NS)
    return tes_insight_format_ns (insight->cost);
  if (insight->cost_unit == TES_INSIGHT_UNIT_PERCENT)
    return g_strdup_printf ("%.1f %%", insight->cost);

  grouped = tes_format_grouped (insight->cost);
  n = plural_count (insight->cost);
  switch (insight->cost_unit)
    {
    case TES_INSIGHT_UNIT_BYTES:
      /* Translators: a finding's cost; %s is a grouped number */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s byte", "%s bytes", n), grouped);
    case TES_INSIGHT_UNIT_CYCLES:
      /* Translators: a finding's cost; %s is a grouped number */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s cycle", "%s cycles", n), grouped);
    case TES_INSIGHT_UNIT_TILES:
    default:
      /* Translators: a finding's cost; %s is a grouped number */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s tile", "%s tiles", n), grouped);
    }
}

const TesInsightThresholdInfo *
tes_insight_threshold_get_info (TesInsightThreshold threshold)
{
  g_return_val_if_fail (threshold < TES_INSIGHT_N_THRESHOLDS, NULL);

  return &thresholds_info[threshold];
}

void
tes_insight_thresholds_init (TesInsightThresholds *thresholds)
{
  g_return_if_fail (thresholds != NULL);

  for (guint i = 0; i < TES_INSIGHT_N_THRESHOLDS; i++)
    thresholds->values[i] = thresholds_info[i].value;
}

/* Far beyond any figure a report holds, and within what gint64 ns and
 * guint counts take. */
#define THRESHOLD_MAX 1e12

/* "NAME=VALUE", VALUE a number from 0 to THRESHOLD_MAX. */
gboolean
tes_insight_thresholds_parse (TesInsightThresholds *thresholds,
                              const char           *assignment,
                              GError              **error)
{
  const char *equals;
  g_autofree char *name = NULL;
  char *end = NULL;
  double value;

  g_return_val_if_fail (thresholds != NULL && assignment != NULL, FALSE);

  if ((equals = strchr (assignment, '=')) == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "“%s”: a threshold is NAME=VALUE", assignment);
      return FALSE;
    }
  name = g_strndup (assignment, equals - assignment);
  value = g_ascii_strtod (equals + 1, &end);
  if (end == equals + 1 || *end != '\0' || !isfinite (value) || value < 0 || value > THRESHOLD_MAX)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "“%s”: the value must be a number from 0 to %g", assignment, THRESHOLD_MAX);
      return FALSE;
    }

  for (guint i = 0; i < TES_INSIGHT_N_THRESHOLDS; i++)
    if (g_str_equal (name, thresholds_info[i].name))
      {
        thresholds->values[i] = value;
        return TRUE;
      }

  {
    g_autoptr(GString) names = g_string_new (NULL);

    for (guint i = 0; i < TES_INSIGHT_N_THRESHOLDS; i++)
      g_string_append_printf (names, "%s%s", i ? ", " : "", thresholds_info[i].name);
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                 "unknown threshold “%s”; the thresholds: %s", name, names->str);
  }
  return FALSE;
}

void
tes_insight_free (TesInsight *insight)
{
  if (insight == NULL)
    return;

  g_free (insight->sentence);
  g_clear_pointer (&insight->evidence, g_variant_unref);
  g_free (insight->target.lane);
  g_free (insight->target.operator_name);
  g_free (insight);
}

/* ---- Building findings ------------------------------------------------- */

typedef struct
{
  TesReport                  *report;
  TesReport                  *compare;
  const TesInsightThresholds *thresholds;
  GPtrArray                  *out;
  gint64                      span_start;   /* ns */
  gint64                      span_end;
  GPtrArray                  *texts;        /* what count_text() wrote, freed with the context */
} Ctx;

/* @n grouped after the locale ("1,403"), for a sentence's %s: alive as
 * long as @ctx. */
static const char *
count_text (Ctx   *ctx,
            guint  n)
{
  char *text = tes_format_grouped (n);

  g_ptr_array_add (ctx->texts, text);

  return text;
}

#define T(ctx, name) ((ctx)->thresholds->values[TES_INSIGHT_T_##name])

/* A finding with its evidence (an a{sv} builder's, floating) and a
 * sentence (owned): the target is left for the caller to fill. */
static TesInsight *
add_insight (Ctx            *ctx,
             TesInsightKind  kind,
             double          cost,
             TesInsightUnit  unit,
             double          share,
             GVariantBuilder *evidence,
             char           *sentence)
{
  TesInsight *insight = g_new0 (TesInsight, 1);

  insight->kind = kind;
  insight->cost = cost;
  insight->cost_unit = unit;
  insight->share = share;
  insight->evidence = g_variant_ref_sink (g_variant_builder_end (evidence));
  insight->sentence = sentence;
  insight->target.ipu = -1;
  insight->target.tile = -1;
  insight->target.step = -1;
  g_ptr_array_add (ctx->out, insight);

  return insight;
}

static void
put_int (GVariantBuilder *b,
         const char      *key,
         gint64           value)
{
  g_variant_builder_add (b, "{sv}", key, g_variant_new_int64 (value));
}

static void
put_double (GVariantBuilder *b,
            const char      *key,
            double           value)
{
  /* JSON has no NaN: a figure that is not one is left out */
  if (isfinite (value))
    g_variant_builder_add (b, "{sv}", key, g_variant_new_double (value));
}

static void
put_string (GVariantBuilder *b,
            const char      *key,
            const char      *value)
{
  g_variant_builder_add (b, "{sv}", key, g_variant_new_string (value != NULL ? value : ""));
}

/* the list builder's items are a{sv} */
static void
put_list (GVariantBuilder *b,
          const char      *key,
          GVariantBuilder *list)
{
  g_variant_builder_add (b, "{sv}", key, g_variant_builder_end (list));
}

static void
set_range (TesInsight *insight,
           gint64      start_ns,
           gint64      end_ns)
{
  insight->target.has_range = end_ns > start_ns;
  insight->target.start_ns = start_ns;
  insight->target.end_ns = end_ns;
}

static char *
grouped (double value)
{
  return tes_format_grouped (value);
}

/* ns as text in the unit that suits it */
static char *
duration_text (double ns)
{
  if (fabs (ns) >= 1e6)
    return tes_format_duration (ns, TES_TIME_UNIT_MS);
  if (fabs (ns) >= 1e3)
    return tes_format_duration (ns, TES_TIME_UNIT_US);
  return tes_format_duration (ns, TES_TIME_UNIT_NS);
}

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
  put_int (&item, "ipu", tile->ipu);
  put_int (&item, "tile", tile->tile);
  put_int (&item, "bytes", tile->total_bytes);
  if (tile->memory_limit > 0)
    {
      put_int (&item, "limit_bytes", tile->memory_limit);
      put_int (&item, "over_bytes", MAX (tile->total_bytes - tile->memory_limit, 0));
    }
  put_string (&item, "category", dominant->category ? tes_report_get_string (ctx->report, dominant->category) : "");
  put_int (&item, "category_bytes", dominant->bytes);
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

static gboolean
memory_insights (Ctx     *ctx,
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
      g_autofree char *bytes = grouped ((double)over_bytes);
      g_autofree char *limit = NULL;
      TesInsight *insight;

      g_ptr_array_sort (over, compare_over);
      worst = g_ptr_array_index (over, 0);
      limit = grouped ((double)worst->memory_limit);
      g_variant_builder_init (&ev, G_VARIANT_TYPE_VARDICT);
      g_variant_builder_init (&list, G_VARIANT_TYPE ("aa{sv}"));
      put_int (&ev, "count", over->len);
      put_int (&ev, "over_bytes", over_bytes);
      for (guint i = 0; i < over->len; i++)
        {
          const TesTile *tile = g_ptr_array_index (over, i);

          put_tile_item (ctx, &list, tile, &dominant[tile_position (tiles, tile)]);
        }
      put_list (&ev, "tiles", &list);
      insight = add_insight (ctx, TES_INSIGHT_TILES_OVER_LIMIT, (double)over_bytes, TES_INSIGHT_UNIT_BYTES, 100, &ev,
                             g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                           "%s tile holds more than the %s bytes a tile has, "
                                                           "%s bytes too many: the program does not fit.",
                                                           "%s tiles hold more than the %s bytes a tile has, "
                                                           "%s bytes too many in all: the program does not fit.",
                                                           over->len),
                                              count_text (ctx, over->len), limit, bytes));
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
        g_autofree char *max_text = grouped ((double)max->total_bytes);
        g_autofree char *mean_text = grouped (mean);
        const Dominant *d = &dominant[tile_position (tiles, max)];
        TesInsight *insight;

        g_variant_builder_init (&ev, G_VARIANT_TYPE_VARDICT);
        g_variant_builder_init (&list, G_VARIANT_TYPE ("aa{sv}"));
        put_int (&ev, "heaviest_bytes", max->total_bytes);
        put_double (&ev, "mean_bytes", mean);
        put_double (&ev, "ratio", max->total_bytes / mean);
        put_int (&ev, "tiles", n_memory);
        for (guint i = 0; i < heaviest->len; i++)
          {
            const TesTile *tile = &g_array_index (heaviest, TesTile, i);

            put_tile_item (ctx, &list, tile, &dominant[tile_position (tiles, tile)]);
          }
        put_list (&ev, "heaviest", &list);
        insight = add_insight (ctx, TES_INSIGHT_MEMORY_IMBALANCE, max->total_bytes - mean, TES_INSIGHT_UNIT_BYTES,
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
          g_autofree char *text = grouped ((double)bytes);
          TesInsight *insight;

          g_variant_builder_init (&ev, G_VARIANT_TYPE_VARDICT);
          put_int (&ev, "always_live_bytes", bytes);
          put_int (&ev, "total_bytes", sum);
          put_double (&ev, "share_percent", share);
          insight = add_insight (ctx, TES_INSIGHT_ALWAYS_LIVE, (double)bytes, TES_INSIGHT_UNIT_BYTES, share, &ev,
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
          put_int (&ev, "tiles", tiles->len);
          put_int (&ev, "tiles_off", off);
          for (guint i = 0; i < mismatches->len; i++)
            {
              const TesTileHistogramMismatch *m = &g_array_index (mismatches, TesTileHistogramMismatch, i);
              GVariantBuilder item;

              g_variant_builder_init (&item, G_VARIANT_TYPE_VARDICT);
              put_int (&item, "histogram", m->histogram);
              put_int (&item, "lower_bytes", m->lower);
              put_int (&item, "upper_bytes", m->upper);
              put_int (&item, "printed", m->printed);
              put_int (&item, "binned", m->binned);
              g_variant_builder_add_value (&list, g_variant_builder_end (&item));
            }
          put_list (&ev, "bins", &list);
          insight = add_insight (ctx, TES_INSIGHT_HISTOGRAM_MISMATCH, (double)off, TES_INSIGHT_UNIT_TILES,
                                 MIN (100.0, 100.0 * off / tiles->len), &ev,
                                 g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                               "The printed histogram disagrees with the tiles' own bytes "
                                                               "in %s bin: the report and the listing are not of one build.",
                                                               "The printed histogram disagrees with the tiles' own bytes "
                                                               "in %s bins: the report and the listing are not of one build.",
                                                               mismatches->len),
                                                  count_text (ctx, mismatches->len)));
          insight->target.view = "memory-histogram";
        }
    }

  return TRUE;
}

/* ---- BSP and tiles ----------------------------------------------------- */

/* A step worth a finding, kept without its tiles' arrays: a big run's
 * steps are read one IPU at a time. */
typedef struct
{
  TesBspStep        step;       /* tile_cycles and tile_states NULL */
  gint              ipu;
  gint64            run_id;
  TesBspStepStats   stats;
  double            cost;       /* cycles lost to imbalance, per tile */
  double            share;      /* of the IPU's cycles */
} StepCost;

static int
compare_step_cost (gconstpointer a,
                   gconstpointer b)
{
  const StepCost *x = a, *y = b;

  if (x->cost != y->cost)
    return x->cost > y->cost ? -1 : 1;
  if (x->ipu != y->ipu)
    return x->ipu < y->ipu ? -1 : 1;
  return x->step.step < y->step.step ? -1 : x->step.step > y->step.step;
}

static int
compare_by_step_value (gconstpointer a,
                       gconstpointer b,
                       gpointer      user_data)
{
  const double *by_step = user_data;
  guint x = *(const guint *)a, y = *(const guint *)b;

  if (by_step[x] != by_step[y])
    return by_step[x] > by_step[y] ? -1 : 1;
  return x < y ? -1 : x > y;
}

static void
select_step (Ctx              *ctx,
             TesInsight       *insight,
             const char       *view,
             gint              ipu,
             gint64            run_id,
             const TesBspStep *step)
{
  insight->target.view = view;
  insight->target.ipu = ipu;
  insight->target.run_id = run_id;
  insight->target.step = step->step;
  set_range (insight, tes_report_convert_time (ctx->report, step->clock_id, 0, step->start),
             tes_report_convert_time (ctx->report, step->clock_id, 0, step->start + MAX (step->dur, 1)));
}

/* A state's share of one IPU's tile-cycles, and the steps that hold most
 * of it. */
static void
state_share_insight (Ctx            *ctx,
                     TesInsightKind  kind,
                     TesTileState    state,
                     double          threshold,
                     gint            ipu,
                     gint64          run_id,
                     GPtrArray      *steps)
{
  g_autofree double *by_step = g_new0 (double, MAX (steps->len, 1));
  g_autoptr(GArray) order_array = g_array_sized_new (FALSE, FALSE, sizeof (guint), steps->len);
  guint *order;
  double in_state = 0, all = 0;
  guint n_tiles = 0;
  GVariantBuilder ev, list;
  TesInsight *insight;
  double share;
  g_autofree char *share_text = NULL;

  for (guint s = 0; s < steps->len; s++)
    {
      const TesBspStep *step = g_ptr_array_index (steps, s);

      n_tiles = MAX (n_tiles, step->n_tiles);
      for (guint t = 0; t < step->n_tiles; t++)
        {
          guint st = MIN (step->tile_states[t], TES_TILE_STATE_SYNC);
          gint64 busy = st == TES_TILE_STATE_IDLE ? 0 : step->tile_cycles[t];

          /* as tes_report_get_tile_activity() counts: idle is the rest of the step */
          all += busy + MAX (step->dur - busy, 0);
          if (st == state)
            by_step[s] += busy;
        }
      in_state += by_step[s];
      g_array_append_val (order_array, s);
    }
  if (all <= 0 || n_tiles == 0 || (share = 100.0 * in_state / all) < threshold || in_state <= 0)
    return;

  /* the steps that hold most of it, largest first */
  g_array_sort_with_data (order_array, compare_by_step_value, by_step);
  order = (guint *)(gpointer)order_array->data;

  g_variant_builder_init (&ev, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_init (&list, G_VARIANT_TYPE ("aa{sv}"));
  put_int (&ev, "ipu", ipu);
  put_double (&ev, "tile_cycles", in_state);
  put_double (&ev, "all_tile_cycles", all);
  put_double (&ev, "share_percent", share);
  for (guint i = 0; i < MIN (steps->len, 3u) && by_step[order[i]] > 0; i++)
    {
      const TesBspStep *step = g_ptr_array_index (steps, order[i]);
      GVariantBuilder item;

      g_variant_builder_init (&item, G_VARIANT_TYPE_VARDICT);
      put_int (&item, "step", step->step);
      put_string (&item, "name", tes_report_get_string (ctx->report, step->name));
      put_double (&item, "tile_cycles", by_step[order[i]]);
      put_double (&item, "share_percent", 100.0 * by_step[order[i]] / in_state);
      g_variant_builder_add_value (&list, g_variant_builder_end (&item));
    }
  put_list (&ev, "steps", &list);

  share_text = g_strdup_printf ("%.1f", share);
  insight = add_insight (ctx, kind, in_state / n_tiles, TES_INSIGHT_UNIT_CYCLES, share, &ev,
                         kind == TES_INSIGHT_SYNC_SHARE
                         ? g_strdup_printf (_("The tiles of IPU %d spend %s %% of their cycles in sync, "
                                              "waiting for each other; step %" PRId64 " holds the most of it."),
                                            ipu, share_text, ((TesBspStep *)g_ptr_array_index (steps, order[0]))->step)
                         : g_strdup_printf (_("The tiles of IPU %d spend %s %% of their cycles exchanging data; "
                                              "step %" PRId64 " holds the most of it."),
                                            ipu, share_text, ((TesBspStep *)g_ptr_array_index (steps, order[0]))->step));
  select_step (ctx, insight, "bsp", ipu, run_id, g_ptr_array_index (steps, order[0]));
}

static gboolean
bsp_step_insights (Ctx           *ctx,
                   GCancellable  *cancellable,
                   GError       **error)
{
  g_autoptr(GArray) runs = NULL;
  g_autoptr(GArray) costs = g_array_new (FALSE, TRUE, sizeof (StepCost));
  TesReportCounts counts;

  tes_report_get_counts (ctx->report, &counts);
  if (counts.n_bsp_steps == 0)
    return TRUE;
  if (!(runs = tes_report_get_runs (ctx->report, error)))
    return FALSE;

  for (guint r = 0; r < runs->len; r++)
    {
      const TesRun *run = &g_array_index (runs, TesRun, r);
      g_autoptr(GPtrArray) steps = NULL;
      double ipu_cycles = 0;
      gint ipu;

      if ((ipu = run->ipu) < 0)
        continue;
      if (g_cancellable_set_error_if_cancelled (cancellable, error) ||
          !(steps = tes_report_get_bsp_steps (ctx->report, run->id, error)))
        return FALSE;

      for (guint s = 0; s < steps->len; s++)
        {
          TesBspStepStats stats;

          tes_bsp_step_get_stats (g_ptr_array_index (steps, s), &stats);
          ipu_cycles += stats.cycles;
        }
      for (guint s = 0; s < steps->len && ipu_cycles > 0; s++)
        {
          const TesBspStep *step = g_ptr_array_index (steps, s);
          StepCost c = { .step = *step, .ipu = ipu, .run_id = run->id };

          c.step.tile_cycles = NULL;
          c.step.tile_states = NULL;
          tes_bsp_step_get_stats (step, &c.stats);
          if (c.stats.max_cycles == 0 || c.stats.tile_balance >= T (ctx, STEP_BALANCE) ||
              100.0 * c.stats.cycles / ipu_cycles < T (ctx, STEP_MIN_SHARE))
            continue;
          c.cost = c.stats.cycles * (100.0 - c.stats.tile_balance) / 100.0;
          c.share = 100.0 * c.cost / ipu_cycles;
          g_array_append_val (costs, c);
        }

      state_share_insight (ctx, TES_INSIGHT_SYNC_SHARE, TES_TILE_STATE_SYNC, T (ctx, SYNC_SHARE), ipu, run->id, steps);
      state_share_insight (ctx, TES_INSIGHT_EXCHANGE_SHARE, TES_TILE_STATE_EXCHANGE, T (ctx, EXCHANGE_SHARE), ipu,
                           run->id, steps);
    }

  g_array_sort (costs, compare_step_cost);
  for (guint i = 0; i < costs->len && i < (guint)T (ctx, STEPS_LISTED); i++)
    {
      const StepCost *c = &g_array_index (costs, StepCost, i);
      const char *program = tes_report_get_string (ctx->report, c->step.name);
      g_autofree char *cycles = grouped ((double)c->stats.cycles);
      g_autofree char *lost = grouped (c->cost);
      GVariantBuilder ev;
      TesInsight *insight;

      g_variant_builder_init (&ev, G_VARIANT_TYPE_VARDICT);
      put_int (&ev, "ipu", c->ipu);
      put_int (&ev, "step", c->step.step);
      put_string (&ev, "name", program);
      put_int (&ev, "cycles", c->stats.cycles);
      put_double (&ev, "tile_balance_percent", c->stats.tile_balance);
      put_int (&ev, "active_tiles", c->stats.active_tiles);
      put_int (&ev, "tiles", c->stats.n_tiles);
      put_double (&ev, "mean_cycles", c->stats.mean_cycles);
      put_int (&ev, "max_cycles", c->stats.max_cycles);
      insight = add_insight (ctx, TES_INSIGHT_STEP_BALANCE, c->cost, TES_INSIGHT_UNIT_CYCLES, c->share, &ev,
                             g_strdup_printf (_("Step %" PRId64 " (%s) on IPU %d keeps its tiles %.1f %% busy over its "
                                                "%s cycles: %s cycles of waiting per tile, for the slowest one."),
                                              c->step.step, program != NULL ? program : "", c->ipu,
                                              c->stats.tile_balance, cycles, lost));
      select_step (ctx, insight, "bsp", c->ipu, c->run_id, &c->step);
    }

  return TRUE;
}

static void
put_activity_item (GVariantBuilder       *list,
                   const TesTileActivity *row,
                   double                 mean)
{
  GVariantBuilder item;
  gint64 busy = row->cycles[TES_TILE_STATE_COMPUTE] + row->cycles[TES_TILE_STATE_EXCHANGE] + row->cycles[TES_TILE_STATE_SYNC];
  gint64 all = busy + row->cycles[TES_TILE_STATE_IDLE];

  g_variant_builder_init (&item, G_VARIANT_TYPE_VARDICT);
  put_int (&item, "ipu", row->ipu);
  put_int (&item, "tile", row->tile);
  put_int (&item, "busy_cycles", busy);
  put_int (&item, "idle_cycles", row->cycles[TES_TILE_STATE_IDLE]);
  put_double (&item, "idle_percent", all > 0 ? 100.0 * row->cycles[TES_TILE_STATE_IDLE] / all : 0);
  put_double (&item, "ipu_mean_busy_cycles", mean);
  g_variant_builder_add_value (list, g_variant_builder_end (&item));
}

static gint64
activity_busy (const TesTileActivity *row)
{
  return row->cycles[TES_TILE_STATE_COMPUTE] + row->cycles[TES_TILE_STATE_EXCHANGE] + row->cycles[TES_TILE_STATE_SYNC];
}

/* Tiles idle for most of the run and tiles far busier than their IPU's
 * mean, from the tile activity Tile Balance draws. */
static gboolean
tile_activity_insights (Ctx     *ctx,
                        GError **error)
{
  g_autoptr(GArray) activity = tes_report_get_tile_activity (ctx->report, G_MININT64, G_MAXINT64, error);
  g_autoptr(GHashTable) means = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr(GPtrArray) idle = g_ptr_array_new ();
  g_autoptr(GPtrArray) hot = g_ptr_array_new ();
  double idle_cycles = 0, all_cycles = 0, hot_cost = 0;
  const TesTileActivity *hottest = NULL;

  if (activity == NULL)
    return FALSE;

  for (guint i = 0; i < activity->len; i++)
    {
      const TesTileActivity *row = &g_array_index (activity, TesTileActivity, i);
      double *m = g_hash_table_lookup (means, GINT_TO_POINTER (row->ipu + 1));

      if (m == NULL)
        {
          m = g_new0 (double, 2);
          g_hash_table_insert (means, GINT_TO_POINTER (row->ipu + 1), m);
        }
      m[0] += activity_busy (row);
      m[1] += 1;
      all_cycles += activity_busy (row) + row->cycles[TES_TILE_STATE_IDLE];
    }

  for (guint i = 0; i < activity->len; i++)
    {
      const TesTileActivity *row = &g_array_index (activity, TesTileActivity, i);
      const double *m = g_hash_table_lookup (means, GINT_TO_POINTER (row->ipu + 1));
      double mean = m[0] / m[1];
      gint64 busy = activity_busy (row);
      gint64 all = busy + row->cycles[TES_TILE_STATE_IDLE];

      if (all > 0 && 100.0 * row->cycles[TES_TILE_STATE_IDLE] / all >= T (ctx, IDLE_TILE_SHARE))
        {
          g_ptr_array_add (idle, (gpointer)row);
          idle_cycles += row->cycles[TES_TILE_STATE_IDLE];
        }
      if (mean > 0 && busy >= T (ctx, HOT_TILE_FACTOR) * mean)
        {
          g_ptr_array_add (hot, (gpointer)row);
          hot_cost += busy - mean;
          if (hottest == NULL || busy > activity_busy (hottest))
            hottest = row;
        }
    }

  if (idle->len > 0)
    {
      GVariantBuilder ev, list;
      const TesTileActivity *first = g_ptr_array_index (idle, 0);
      TesInsight *insight;

      g_variant_builder_init (&ev, G_VARIANT_TYPE_VARDICT);
      g_variant_builder_init (&list, G_VARIANT_TYPE ("aa{sv}"));
      put_int (&ev, "count", idle->len);
      put_int (&ev, "tiles", activity->len);
      put_double (&ev, "idle_cycles", idle_cycles);
      for (guint i = 0; i < idle->len; i++)
        {
          const TesTileActivity *row = g_ptr_array_index (idle, i);
          const double *m = g_hash_table_lookup (means, GINT_TO_POINTER (row->ipu + 1));

          put_activity_item (&list, row, m[0] / m[1]);
        }
      put_list (&ev, "idle_tiles", &list);
      insight = add_insight (ctx, TES_INSIGHT_IDLE_TILES, idle_cycles, TES_INSIGHT_UNIT_CYCLES,
                             all_cycles > 0 ? 100.0 * idle_cycles / all_cycles : 0, &ev,
                             g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                           "%s tile of %s waits for %.0f %% of the run or more: "
                                                           "work the program could spread to it.",
                                                           "%s tiles of %s wait for %.0f %% of the run or more: "
                                                           "work the program could spread to them.",
                                                           idle->len),
                                              count_text (ctx, idle->len), count_text (ctx, activity->len), T (ctx, IDLE_TILE_SHARE)));
      insight->target.view = "tile-balance";
      insight->target.ipu = first->ipu;
      insight->target.tile = first->tile;
    }

  if (hot->len > 0)
    {
      GVariantBuilder ev, list;
      const double *m = g_hash_table_lookup (means, GINT_TO_POINTER (hottest->ipu + 1));
      gint64 hottest_all = activity_busy (hottest) + hottest->cycles[TES_TILE_STATE_IDLE];
      TesInsight *insight;

      g_variant_builder_init (&ev, G_VARIANT_TYPE_VARDICT);
      g_variant_builder_init (&list, G_VARIANT_TYPE ("aa{sv}"));
      put_int (&ev, "count", hot->len);
      put_int (&ev, "tiles", activity->len);
      for (guint i = 0; i < hot->len; i++)
        {
          const TesTileActivity *row = g_ptr_array_index (hot, i);
          const double *mm = g_hash_table_lookup (means, GINT_TO_POINTER (row->ipu + 1));

          put_activity_item (&list, row, mm[0] / mm[1]);
        }
      put_list (&ev, "hot_tiles", &list);
      insight = add_insight (ctx, TES_INSIGHT_HOT_TILES, hot_cost, TES_INSIGHT_UNIT_CYCLES,
                             hottest_all > 0 ? 100.0 * (activity_busy (hottest) - m[0] / m[1]) / hottest_all : 0, &ev,
                             g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                           "%s tile works %.1f times its IPU's mean or more; the "
                                                           "busiest, tile %d of IPU %d, sets the pace of every step it is in.",
                                                           "%s tiles work %.1f times their IPU's mean or more; the "
                                                           "busiest, tile %d of IPU %d, sets the pace of every step it is in.",
                                                           hot->len),
                                              count_text (ctx, hot->len), T (ctx, HOT_TILE_FACTOR), hottest->tile, hottest->ipu));
      insight->target.view = "tile-balance";
      insight->target.ipu = hottest->ipu;
      insight->target.tile = hottest->tile;
    }

  return TRUE;
}

/* ---- Execution and units ----------------------------------------------- */

static int
compare_spans (gconstpointer a,
               gconstpointer b)
{
  const gint64 *x = a, *y = b;

  return x[0] < y[0] ? -1 : x[0] > y[0];
}

static int
compare_gaps (gconstpointer a,
              gconstpointer b)
{
  const gint64 *x = a, *y = b;
  gint64 dx = x[1] - x[0], dy = y[1] - y[0];

  if (dx != dy)
    return dx > dy ? -1 : 1;
  return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* A unit's gaps: the stretches between its work (its slices and its
 * threads', every depth, merged) of at least the threshold. */
static gboolean
unit_gaps (Ctx           *ctx,
           const TesTrack *unit,
           GCancellable  *cancellable,
           GError       **error)
{
  g_autoptr(GArray) ids = tes_report_get_subtree_tracks (ctx->report, unit->id);
  g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, 2 * sizeof (gint64));
  g_autoptr(GArray) gaps = g_array_new (FALSE, FALSE, 2 * sizeof (gint64));
  gint64 min_gap = (gint64)llround (T (ctx, IDLE_GAP_US) * 1000.0);
  gint64 reach = G_MININT64, busy = 0, total = 0, first = 0;

  for (guint i = 0; i < ids->len; i++)
    {
      const TesTrack *track = tes_report_get_track (ctx->report, g_array_index (ids, gint64, i));
      g_autoptr(GArray) slices = NULL;

      if (g_cancellable_set_error_if_cancelled (cancellable, error) ||
          !(slices = tes_report_get_slices (ctx->report, track->id, G_MININT64, G_MAXINT64, error)))
        return FALSE;
      for (guint s = 0; s < slices->len; s++)
        {
          const TesSlice *slice = &g_array_index (slices, TesSlice, s);
          gint64 span[2] = {
            tes_report_convert_time (ctx->report, track->clock_id, 0, slice->start),
            tes_report_convert_time (ctx->report, track->clock_id, 0, slice->start + slice->dur),
          };

          g_array_append_vals (spans, span, 1);
        }
    }
  if (spans->len == 0)
    return TRUE;

  g_array_sort (spans, compare_spans);
  first = g_array_index (spans, gint64, 0);
  for (guint i = 0; i < spans->len; i++)
    {
      const gint64 *span = &g_array_index (spans, gint64, 2 * i);

      if (reach != G_MININT64 && span[0] - reach >= MAX (min_gap, 1))
        {
          gint64 gap[2] = { reach, span[0] };

          g_array_append_vals (gaps, gap, 1);
          total += gap[1] - gap[0];
        }
      if (span[1] > reach)
        {
          busy += span[1] - MAX (span[0], reach == G_MININT64 ? span[0] : reach);
          reach = span[1];
        }
    }
  if (gaps->len == 0)
    return TRUE;

  g_array_sort (gaps, compare_gaps);
  {
    GVariantBuilder ev, list;
    g_autofree char *device = tes_report_dup_unit_device_name (ctx->report, unit->id);
    g_autofree char *total_text = duration_text ((double)total);
    g_autofree char *largest_text = NULL;
    const gint64 *largest = &g_array_index (gaps, gint64, 0);
    gint64 margin = (largest[1] - largest[0]) / 10;
    TesInsight *insight;

    largest_text = duration_text ((double)(largest[1] - largest[0]));
    g_variant_builder_init (&ev, G_VARIANT_TYPE_VARDICT);
    g_variant_builder_init (&list, G_VARIANT_TYPE ("aa{sv}"));
    put_string (&ev, "device", device);
    put_string (&ev, "unit", unit->name);
    put_int (&ev, "gaps", gaps->len);
    put_int (&ev, "idle_ns", total);
    put_int (&ev, "busy_ns", busy);
    put_int (&ev, "first_ns", first - ctx->span_start);
    put_int (&ev, "last_ns", reach - ctx->span_start);
    for (guint i = 0; i < gaps->len && i < (guint)T (ctx, GAPS_LISTED); i++)
      {
        const gint64 *gap = &g_array_index (gaps, gint64, 2 * i);
        GVariantBuilder item;

        g_variant_builder_init (&item, G_VARIANT_TYPE_VARDICT);
        put_int (&item, "start_ns", gap[0] - ctx->span_start);
        put_int (&item, "dur_ns", gap[1] - gap[0]);
        g_variant_builder_add_value (&list, g_variant_builder_end (&item));
      }
    put_list (&ev, "largest", &list);
    insight = add_insight (ctx, TES_INSIGHT_IDLE_GAPS, (double)total, TES_INSIGHT_UNIT_NS,
                           ctx->span_end > ctx->span_start ? 100.0 * total / (ctx->span_end - ctx->span_start) : 0, &ev,
                           g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                         "%s of %s waits %s between its work in %s gap; "
                                                         "the largest lasts %s.",
                                                         "%s of %s waits %s between its work in %s gaps; "
                                                         "the largest lasts %s.",
                                                         gaps->len),
                                            unit->name != NULL ? unit->name : "", device, total_text, count_text (ctx, gaps->len),
                                            largest_text));
    insight->target.view = "trace";
    insight->target.track_id = unit->id;
    insight->target.lane = g_strdup (unit->name);
    set_range (insight, MAX (largest[0] - margin, ctx->span_start), MIN (largest[1] + margin, ctx->span_end));
  }

  return TRUE;
}

static gboolean
unit_insights (Ctx           *ctx,
               GCancellable  *cancellable,
               GError       **error)
{
  TesReportCounts counts;

  tes_report_get_counts (ctx->report, &counts);
  for (gint64 id = 1; id <= counts.n_tracks; id++)
    {
      const TesTrack *track = tes_report_get_track (ctx->report, id);

      if (track != NULL && track->kind == TES_TRACK_CORE && !unit_gaps (ctx, track, cancellable, error))
        return FALSE;
    }

  return TRUE;
}

static gboolean
operator_insights (Ctx     *ctx,
                   GError **error)
{
  g_autoptr(GPtrArray) rows = NULL;
  TesReportCounts counts;
  guint listed = 0;

  tes_report_get_counts (ctx->report, &counts);
  /* operators the vendor lists: a trace's slices alone are steps and
   * phases, not a model's operators */
  if (counts.n_operators == 0)
    return TRUE;
  if (!(rows = tes_report_summarize (ctx->report, TES_SUMMARY_TOTAL, TES_GROUP_BY_NAME, error)))
    return FALSE;

  for (guint i = 0; i < rows->len && listed < (guint)T (ctx, OPERATORS_LISTED); i++)
    {
      const TesSummaryRow *row = g_ptr_array_index (rows, i);
      const TesClock *clock = row->clock_id ? tes_report_get_clock (ctx->report, row->clock_id) : NULL;
      gboolean cycles = clock != NULL && clock->unit == TES_TIME_UNIT_CYCLES;
      GVariantBuilder ev;
      TesInsight *insight;
      double cost;
      TesInsightUnit unit;
      g_autofree char *time_text = NULL;

      if (isnan (row->share) || row->share < T (ctx, OPERATOR_SHARE))
        continue;
      if (row->total < 0)
        {
          cost = row->share;
          unit = TES_INSIGHT_UNIT_PERCENT;
          time_text = g_strdup_printf ("%.1f %%", row->share);
        }
      else if (cycles)
        {
          cost = (double)row->total;
          unit = TES_INSIGHT_UNIT_CYCLES;
          time_text = tes_format_duration (cost, TES_TIME_UNIT_CYCLES);
        }
      else
        {
          cost = (double)tes_report_convert_time (ctx->report, row->clock_id, 0, row->total);
          unit = TES_INSIGHT_UNIT_NS;
          time_text = duration_text (cost);
        }

      g_variant_builder_init (&ev, G_VARIANT_TYPE_VARDICT);
      put_string (&ev, "operator", row->name);
      put_string (&ev, "type", row->type);
      put_double (&ev, "share_percent", row->share);
      if (row->total >= 0)
        put_double (&ev, unit == TES_INSIGHT_UNIT_CYCLES ? "total_cycles" : "total_ns", cost);
      if (row->count >= 0)
        put_int (&ev, "count", row->count);
      insight = add_insight (ctx, TES_INSIGHT_LONG_OPERATOR, cost, unit, row->share, &ev,
                             g_strdup_printf (_("%s takes %.1f %% of the operators' time (%s): "
                                                "the first place to make the model faster."),
                                              row->name, row->share, time_text));
      insight->target.view = "summary";
      insight->target.operator_name = g_strdup (row->name);
      listed++;
    }

  return TRUE;
}

typedef struct
{
  char   *name;
  gint64  count;
  double  cpu_ns;
  double  device_ns;
} HostDevice;

static void
host_device_clear (gpointer data)
{
  g_free (((HostDevice *)data)->name);
}

static gboolean
read_host_device (TesReport     *report,
                  sqlite3_stmt  *stmt,
                  gpointer       out,
                  GError       **error)
{
  HostDevice row = {
    .name = g_strdup (tes_report_get_string (report, (guint32)sqlite3_column_int64 (stmt, 0))),
    .count = sqlite3_column_int64 (stmt, 1),
    .cpu_ns = sqlite3_column_double (stmt, 2),
    .device_ns = sqlite3_column_double (stmt, 3),
  };

  g_array_append_val ((GArray *)out, row);
  return TRUE;
}

/* Framework operators (PyTorch's) whose kernels take a small part of the
 * host time spent launching them: the args the Kineto importer writes, on
 * the whole trace's rows (a step's rows count the same time again). */
static gboolean
launch_bound_insights (Ctx     *ctx,
                       GError **error)
{
  g_autoptr(GArray) rows = g_array_new (FALSE, TRUE, sizeof (HostDevice));
  double span = (double)(ctx->span_end - ctx->span_start);

  g_array_set_clear_func (rows, host_device_clear);
  if (!tes_report_read_rows (ctx->report,
                             "SELECT name, coalesce (count, 0), json_extract (args, '$.cpu_total_ns'), "
                             "       coalesce (json_extract (args, '$.device_total_ns'), 0) FROM operators "
                             "WHERE run_id IS NULL AND json_valid (args) AND json_extract (args, '$.cpu_total_ns') > 0 ORDER BY id",
                             0, read_host_device, rows, error))
    return FALSE;

  for (guint i = 0; i < rows->len && span > 0; i++)
    {
      const HostDevice *row = &g_array_index (rows, HostDevice, i);
      g_autofree char *cpu = NULL;
      g_autofree char *device = NULL;
      GVariantBuilder ev;
      TesInsight *insight;

      if (row->device_ns <= 0 || row->device_ns >= T (ctx, LAUNCH_BOUND_RATIO) * row->cpu_ns ||
          100.0 * row->cpu_ns / span < T (ctx, LAUNCH_BOUND_MIN_SHARE))
        continue;
      cpu = duration_text (row->cpu_ns);
      device = duration_text (row->device_ns);
      g_variant_builder_init (&ev, G_VARIANT_TYPE_VARDICT);
      put_string (&ev, "operator", row->name);
      put_int (&ev, "count", row->count);
      put_double (&ev, "host_ns", row->cpu_ns);
      put_double (&ev, "device_ns", row->device_ns);
      put_double (&ev, "ratio", row->device_ns / row->cpu_ns);
      insight = add_insight (ctx, TES_INSIGHT_LAUNCH_BOUND, row->cpu_ns - row->device_ns, TES_INSIGHT_UNIT_NS,
                             100.0 * (row->cpu_ns - row->device_ns) / span, &ev,
                             g_strdup_printf (_("%s keeps the host busy for %s for %s of device work: its time goes "
                                                "to launching and waiting on the host, not to the device."),
                                              row->name, cpu, device));
      insight->target.view = "summary";
      insight->target.operator_name = g_strdup (row->name);
    }

  return TRUE;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return x < y ? -1 : x > y;
}

/* Steps (runs: ProfilerStep#N, TensorFlow's steps…; not an IPU's run)
 * much slower than the median step. */
static gboolean
slow_step_insights (Ctx     *ctx,
                    GError **error)
{
  g_autoptr(GArray) runs = tes_report_get_runs (ctx->report, error);
  g_autoptr(GArray) durations = g_array_new (FALSE, FALSE, sizeof (double));
  double median, sum = 0;

  if (runs == NULL)
    return FALSE;
  for (guint r = 0; r < runs->len; r++)
    {
      const TesRun *run = &g_array_index (runs, TesRun, r);
      double ns;

      if (run->ipu >= 0)
        continue;
      ns = (double)(tes_report_convert_time (ctx->report, run->clock_id, 0, run->end) -
                    tes_report_convert_time (ctx->report, run->clock_id, 0, run->start));
      g_array_append_val (durations, ns);
      sum += ns;
    }
  if (durations->len < 3)
    return TRUE;

  g_array_sort (durations, compare_doubles);
  median = durations->len % 2 ? g_array_index (durations, double, durations->len / 2)
    : (g_array_index (durations, double, durations->len / 2 - 1) + g_array_index (durations, double, durations->len / 2)) / 2;
  if (median <= 0)
    return TRUE;

  for (guint r = 0; r < runs->len; r++)
    {
      const TesRun *run = &g_array_index (runs, TesRun, r);
      gint64 start, end;
      g_autofree char *dur_text = NULL;
      g_autofree char *median_text = NULL;
      GVariantBuilder ev;
      TesInsight *insight;

      if (run->ipu >= 0)
        continue;
      start = tes_report_convert_time (ctx->report, run->clock_id, 0, run->start);
      end = tes_report_convert_time (ctx->report, run->clock_id, 0, run->end);
      if (end - start < T (ctx, SLOW_STEP_FACTOR) * median)
        continue;
      dur_text = duration_text ((double)(end - start));
      median_text = duration_text (median);
      g_variant_builder_init (&ev, G_VARIANT_TYPE_VARDICT);
      put_string (&ev, "step", run->name);
      put_int (&ev, "start_ns", start - ctx->span_start);
      put_int (&ev, "dur_ns", end - start);
      put_double (&ev, "median_ns", median);
      put_double (&ev, "factor", (end - start) / median);
      put_int (&ev, "steps", durations->len);
      insight = add_insight (ctx, TES_INSIGHT_SLOW_STEP, (end - start) - median, TES_INSIGHT_UNIT_NS,
                             sum > 0 ? 100.0 * ((end - start) - median) / sum : 0, &ev,
                             g_strdup_printf (_("%s lasts %s, %.1f times the median step's %s."),
                                              run->name != NULL ? run->name : "", dur_text, (end - start) / median,
                                              median_text));
      insight->target.view = "trace";
      insight->target.run_id = run->id;
      set_range (insight, start, end);
    }

  return TRUE;
}

/* ---- Two runs ---------------------------------------------------------- */

static GPtrArray *
compare_side_rows (TesReport  *report,
                   GError    **error)
{
  g_autoptr(GError) each_error = NULL;
  GPtrArray *rows;

  if ((rows = tes_report_summarize (report, TES_SUMMARY_EACH, TES_GROUP_BY_NAME, &each_error)))
    return rows;

  return tes_report_summarize (report, TES_SUMMARY_TOTAL, TES_GROUP_BY_NAME, error);
}

static gboolean
compare_insights (Ctx     *ctx,
                  GError **error)
{
  g_autoptr(GPtrArray) a_rows = NULL;
  g_autoptr(GPtrArray) b_rows = NULL;
  g_autoptr(GError) local = NULL;
  g_autoptr(TesCompareSummary) summary = NULL;
  g_autoptr(GArray) steps = NULL;
  gboolean in_order = FALSE;
  gint64 a_steps = 0;

  a_rows = compare_side_rows (ctx->report, &local);
  g_clear_error (&local);
  b_rows = compare_side_rows (ctx->compare, &local);
  g_clear_error (&local);

  if (a_rows != NULL && b_rows != NULL && (a_rows->len > 0 || b_rows->len > 0))
    {
      g_autoptr(TesComparison) comparison = tes_compare_rows (ctx->report, a_rows, ctx->compare, b_rows, TES_COMPARE_BY_NAME);
      g_autoptr(GPtrArray) regressions = NULL;
      gboolean total_slower = FALSE;
      TesInsightUnit unit = comparison->in_percent ? TES_INSIGHT_UNIT_PERCENT
                            : comparison->unit == TES_TIME_UNIT_CYCLES ? TES_INSIGHT_UNIT_CYCLES : TES_INSIGHT_UNIT_NS;

      tes_compare_sort_by_impact (comparison);
      regressions = tes_compare_regressions (comparison, T (ctx, REGRESSION_PCT), T (ctx, REGRESSION_MIN_SHARE),
                                             &total_slower);
      for (guint i = 0; i <= regressions->len; i++)
        {
          const TesCompareRow *row = i < regressions->len ? g_ptr_array_index (regressions, i) : NULL;
          double a = row ? row->a_value : comparison->a_total;
          double b = row ? row->b_value : comparison->b_total;
          const char *name = row ? (row->b->label ? row->b->label : row->b->name) : NULL;
          g_autofree char *a_text = NULL;
          g_autofree char *b_text = NULL;
          GVariantBuilder ev;
          TesInsight *insight;
          double pct = tes_compare_percent (a, b);

          if (row == NULL && !total_slower)
            break;
          a_text = tes_comparison_format (comparison, a, comparison->unit);
          b_text = tes_comparison_format (comparison, b, comparison->unit);
          g_variant_builder_init (&ev, G_VARIANT_TYPE_VARDICT);
          put_string (&ev, "operator", name);
          put_double (&ev, "a", a);
          put_double (&ev, "b", b);
          put_double (&ev, "delta", b - a);
          put_double (&ev, "delta_percent", pct);
          put_string (&ev, "unit", tes_insight_unit_get_name (unit));
          insight = add_insight (ctx, TES_INSIGHT_REGRESSION, b - a, unit,
                                 comparison->a_total > 0 ? 100.0 * (b - a) / comparison->a_total : 0, &ev,
                                 name != NULL
                                 ? g_strdup_printf (_("%s got %.1f %% slower: %s in A, %s in B."), name, pct, a_text, b_text)
                                 : g_strdup_printf (_("The operators' total got %.1f %% slower: %s in A, %s in B."),
                                                    pct, a_text, b_text));
          insight->target.view = "summary";
          insight->target.operator_name = g_strdup (name);
          insight->target.in_b = TRUE;
        }
    }

  if (!(steps = tes_compare_steps (ctx->report, ctx->compare, &in_order, error)))
    return FALSE;
  for (guint j = 0; j < steps->len; j++)
    a_steps += MAX (g_array_index (steps, TesCompareStep, j).a_ns, 0);
  for (guint i = 0; i < steps->len; i++)
    {
      const TesCompareStep *s = &g_array_index (steps, TesCompareStep, i);
      double pct = s->a_ns > 0 && s->b_ns >= 0 ? tes_compare_percent ((double)s->a_ns, (double)s->b_ns) : NAN;
      g_autofree char *a_text = NULL;
      g_autofree char *b_text = NULL;
      GVariantBuilder ev;
      TesInsight *insight;

      if (isnan (pct) || pct <= T (ctx, REGRESSION_PCT))
        continue;
      a_text = duration_text ((double)s->a_ns);
      b_text = duration_text ((double)s->b_ns);
      g_variant_builder_init (&ev, G_VARIANT_TYPE_VARDICT);
      put_string (&ev, "step", s->name);
      put_int (&ev, "a_ns", s->a_ns);
      put_int (&ev, "b_ns", s->b_ns);
      put_double (&ev, "delta_percent", pct);
      insight = add_insight (ctx, TES_INSIGHT_STEP_REGRESSION, (double)(s->b_ns - s->a_ns), TES_INSIGHT_UNIT_NS,
                             a_steps > 0 ? 100.0 * (s->b_ns - s->a_ns) / a_steps : 0, &ev,
                             g_strdup_printf (_("Step %s got %.1f %% slower: %s in A, %s in B."), s->name, pct, a_text,
                                              b_text));
      insight->target.view = "trace";
      insight->target.in_b = TRUE;
    }

  if (!(summary = tes_compare_summarize (ctx->report, ctx->compare, error)))
    return FALSE;
  if (summary->has_memory && summary->a_bytes > 0)
    {
      double pct = 100.0 * (summary->b_bytes - summary->a_bytes) / summary->a_bytes;

      if (fabs (pct) >= T (ctx, MEMORY_CHANGE_PCT) || summary->newly_out->len > 0)
        {
          GVariantBuilder ev, list, cats;
          g_autofree char *a_text = grouped ((double)summary->a_bytes);
          g_autofree char *b_text = grouped ((double)summary->b_bytes);
          const TesCompareTile *focus = NULL;
          TesInsight *insight;

          g_variant_builder_init (&ev, G_VARIANT_TYPE_VARDICT);
          g_variant_builder_init (&list, G_VARIANT_TYPE ("aa{sv}"));
          g_variant_builder_init (&cats, G_VARIANT_TYPE ("aa{sv}"));
          put_int (&ev, "a_bytes", summary->a_bytes);
          put_int (&ev, "b_bytes", summary->b_bytes);
          put_int (&ev, "delta_bytes", summary->b_bytes - summary->a_bytes);
          put_double (&ev, "delta_percent", pct);
          put_int (&ev, "a_out_of_memory", summary->a_out_of_memory);
          put_int (&ev, "b_out_of_memory", summary->b_out_of_memory);
          for (guint i = 0; i < summary->newly_out->len; i++)
            {
              const TesCompareTile *t = &g_array_index (summary->newly_out, TesCompareTile, i);
              GVariantBuilder item;

              g_variant_builder_init (&item, G_VARIANT_TYPE_VARDICT);
              put_int (&item, "ipu", t->ipu);
              put_int (&item, "tile", t->tile);
              put_int (&item, "a_bytes", t->a_bytes);
              put_int (&item, "b_bytes", t->b_bytes);
              put_int (&item, "b_limit_bytes", t->b_limit);
              g_variant_builder_add_value (&list, g_variant_builder_end (&item));
            }
          put_list (&ev, "newly_out_of_memory", &list);
          for (guint i = 0; i < summary->memory->len; i++)
            {
              const TesCompareMemory *m = &g_array_index (summary->memory, TesCompareMemory, i);
              GVariantBuilder item;

              if (m->a_bytes == m->b_bytes)
                continue;
              g_variant_builder_init (&item, G_VARIANT_TYPE_VARDICT);
              put_string (&item, "category", m->category);
              put_int (&item, "a_bytes", m->a_bytes);
              put_int (&item, "b_bytes", m->b_bytes);
              g_variant_builder_add_value (&cats, g_variant_builder_end (&item));
            }
          put_list (&ev, "categories", &cats);
          insight = add_insight (ctx, TES_INSIGHT_MEMORY_CHANGE, (double)(summary->b_bytes - summary->a_bytes),
                                 TES_INSIGHT_UNIT_BYTES, summary->newly_out->len > 0 ? 100 : fabs (pct), &ev,
                                 g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                               "B's tiles hold %s bytes, A's %s (%+.1f %%); "
                                                               "%s tile is newly over its limit.",
                                                               "B's tiles hold %s bytes, A's %s (%+.1f %%); "
                                                               "%s tiles are newly over their limit.",
                                                               summary->newly_out->len),
                                                  b_text, a_text, pct, count_text (ctx, summary->newly_out->len)));
          insight->target.view = "memory-tiles";
          insight->target.in_b = TRUE;
          if (summary->newly_out->len > 0)
            focus = &g_array_index (summary->newly_out, TesCompareTile, 0);
          else if (summary->growths->len > 0)
            focus = &g_array_index (summary->growths, TesCompareTile, 0);
          if (focus != NULL)
            {
              insight->target.ipu = focus->ipu;
              insight->target.tile = focus->tile;
            }
        }
    }

  return TRUE;
}

/* ---- All of them ------------------------------------------------------- */

static int
compare_insights_by_cost (gconstpointer a,
                          gconstpointer b)
{
  const TesInsight *x = *(TesInsight * const *)a, *y = *(TesInsight * const *)b;

  if (x->share != y->share)
    return x->share > y->share ? -1 : 1;
  if (x->kind != y->kind)
    return x->kind < y->kind ? -1 : 1;
  return x->cost > y->cost ? -1 : x->cost < y->cost;
}

/**
 * tes_insights_compute:
 * @report: the run
 * @compare: (nullable): a second run to compare @report (A) with (B)
 * @thresholds: (nullable): NULL for the defaults
 *
 * The findings of @report (and of the two runs), ranked: the largest share
 * of what its kind measures first (docs/insights.md). Any thread may call
 * it (a GTask's); @cancellable is checked between the kinds and lanes.
 *
 * Returns: (transfer full) (element-type TesInsight): the findings, NULL
 *   with @error set when a query fails
 */
GPtrArray *
tes_insights_compute (TesReport                  *report,
                      TesReport                  *compare,
                      const TesInsightThresholds *thresholds,
                      GCancellable               *cancellable,
                      GError                    **error)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify)tes_insight_free);
  TesInsightThresholds defaults;
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  Ctx ctx = { report, compare, thresholds, out, 0, 0, texts };

  g_return_val_if_fail (TES_IS_REPORT (report), NULL);
  g_return_val_if_fail (compare == NULL || TES_IS_REPORT (compare), NULL);

  if (thresholds == NULL)
    {
      tes_insight_thresholds_init (&defaults);
      ctx.thresholds = &defaults;
    }
  tes_report_get_span (report, 0, &ctx.span_start, &ctx.span_end);

  if (!memory_insights (&ctx, error) ||
      g_cancellable_set_error_if_cancelled (cancellable, error) ||
      !bsp_step_insights (&ctx, cancellable, error) ||
      !tile_activity_insights (&ctx, error) ||
      g_cancellable_set_error_if_cancelled (cancellable, error) ||
      !unit_insights (&ctx, cancellable, error) ||
      !operator_insights (&ctx, error) ||
      !launch_bound_insights (&ctx, error) ||
      !slow_step_insights (&ctx, error) ||
      g_cancellable_set_error_if_cancelled (cancellable, error) ||
      (compare != NULL && !compare_insights (&ctx, error)))
    return NULL;

  g_ptr_array_sort (out, compare_insights_by_cost);
  for (guint i = 0; i < out->len; i++)
    ((TesInsight *)g_ptr_array_index (out, i))->rank = i + 1;

  return g_steal_pointer (&out);
}

typedef struct
{
  TesReport            *compare;
  TesInsightThresholds  thresholds;
} ComputeData;

static void
compute_data_free (ComputeData *data)
{
  g_clear_object (&data->compare);
  g_free (data);
}

static void
compute_thread (GTask        *task,
                gpointer      source,
                gpointer      task_data,
                GCancellable *cancellable)
{
  ComputeData *data = task_data;
  GError *error = NULL;
  GPtrArray *insights = tes_insights_compute (source, data->compare, &data->thresholds, cancellable, &error);

  if (insights == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, insights, (GDestroyNotify)g_ptr_array_unref);
}

/* tes_insights_compute() in a thread, for the window (a big trace's units
 * take a while to read). */
void
tes_insights_compute_async (TesReport                  *report,
                            TesReport                  *compare,
                            const TesInsightThresholds *thresholds,
                            GCancellable               *cancellable,
                            GAsyncReadyCallback         callback,
                            gpointer                    user_data)
{
  g_autoptr(GTask) task = NULL;
  ComputeData *data = g_new0 (ComputeData, 1);

  g_return_if_fail (TES_IS_REPORT (report));
  g_return_if_fail (compare == NULL || TES_IS_REPORT (compare));

  data->compare = compare != NULL ? g_object_ref (compare) : NULL;
  if (thresholds != NULL)
    data->thresholds = *thresholds;
  else
    tes_insight_thresholds_init (&data->thresholds);

  task = g_task_new (report, cancellable, callback, user_data);
  g_task_set_source_tag (task, tes_insights_compute_async);
  g_task_set_task_data (task, data, (GDestroyNotify)compute_data_free);
  g_task_run_in_thread (task, compute_thread);
}

GPtrArray *
tes_insights_compute_finish (TesReport     *report,
                             GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, report), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * tes_insight_apply:
 * @workspace: the workspace of the run the finding is in (B's for a
 *   finding with target.in_b)
 *
 * Puts the finding's selection on @workspace, as activating it in the
 * window does before showing target.view: its range shown and selected,
 * its IPU, tile, BSP step and run. The lane and the operator are the
 * view's to select (the workspace has no such cursor).
 */
void
tes_insight_apply (const TesInsight *insight,
                   TesWorkspace     *workspace)
{
  const TesInsightTarget *t;

  g_return_if_fail (insight != NULL && TES_IS_WORKSPACE (workspace));

  t = &insight->target;
  if (t->has_range)
    {
      tes_workspace_set_visible (workspace, t->start_ns, t->end_ns);
      tes_workspace_set_selection (workspace, t->start_ns, t->end_ns);
    }
  /* the finding's selection replaces the one before: what it does not
   * name is cleared, so that no tile of an earlier finding stays marked */
  tes_workspace_set_run (workspace, MAX (t->run_id, 0));
  tes_workspace_set_step (workspace, MAX (t->step, -1));
  tes_workspace_set_ipu (workspace, MAX (t->ipu, -1));
  tes_workspace_set_tile (workspace, MAX (t->tile, -1));
}

/**
 * tes_insight_dup_render_args:
 *
 * The `tessera-cli render` arguments that draw @insight's section over its
 * range: `--view NAME`, and `--range STARTns:ENDns` since the run's start
 * (@report's, or B's when the finding is in B).
 *
 * Returns: (transfer full): a NULL-terminated array
 */
char **
tes_insight_dup_render_args (const TesInsight *insight,
                             TesReport        *report)
{
  g_autoptr(GStrvBuilder) args = g_strv_builder_new ();
  gint64 origin = 0;

  g_return_val_if_fail (insight != NULL && TES_IS_REPORT (report), NULL);

  g_strv_builder_add (args, "--view");
  g_strv_builder_add (args, insight->target.view != NULL ? insight->target.view : "summary");
  if (insight->target.has_range)
    {
      g_autofree char *range = NULL;

      tes_report_get_span (report, 0, &origin, NULL);
      range = g_strdup_printf ("%" G_GINT64_FORMAT "ns:%" G_GINT64_FORMAT "ns",
                               insight->target.start_ns - origin, insight->target.end_ns - origin);
      g_strv_builder_add (args, "--range");
      g_strv_builder_add (args, range);
    }

  return g_strv_builder_end (args);
}
