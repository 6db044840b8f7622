/* tes-insights-tiles.c: findings of BSP and tiles: the worst-balanced steps, sync and exchange shares, idle and hot tiles
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
  _tes_insights_set_range (insight, tes_report_convert_time (ctx->report, step->clock_id, 0, step->start),
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
  _tes_insights_put_int (&ev, "ipu", ipu);
  _tes_insights_put_double (&ev, "tile_cycles", in_state);
  _tes_insights_put_double (&ev, "all_tile_cycles", all);
  _tes_insights_put_double (&ev, "share_percent", share);
  for (guint i = 0; i < MIN (steps->len, 3u) && by_step[order[i]] > 0; i++)
    {
      const TesBspStep *step = g_ptr_array_index (steps, order[i]);
      GVariantBuilder item;

      g_variant_builder_init (&item, G_VARIANT_TYPE_VARDICT);
      _tes_insights_put_int (&item, "step", step->step);
      _tes_insights_put_string (&item, "name", tes_report_get_string (ctx->report, step->name));
      _tes_insights_put_double (&item, "tile_cycles", by_step[order[i]]);
      _tes_insights_put_double (&item, "share_percent", 100.0 * by_step[order[i]] / in_state);
      g_variant_builder_add_value (&list, g_variant_builder_end (&item));
    }
  _tes_insights_put_list (&ev, "steps", &list);

  share_text = g_strdup_printf ("%.1f", share);
  insight = _tes_insights_add (ctx, kind, in_state / n_tiles, TES_INSIGHT_UNIT_CYCLES, share, &ev,
                               kind == TES_INSIGHT_SYNC_SHARE
                               ? g_strdup_printf (_("The tiles of IPU %d spend %s %% of their cycles in sync, "
                                                    "waiting for each other; step %" PRId64 " holds the most of it."),
                                                  ipu, share_text, ((TesBspStep *)g_ptr_array_index (steps, order[0]))->step)
                               : g_strdup_printf (_("The tiles of IPU %d spend %s %% of their cycles exchanging data; "
                                                    "step %" PRId64 " holds the most of it."),
                                                  ipu, share_text, ((TesBspStep *)g_ptr_array_index (steps, order[0]))->step));
  select_step (ctx, insight, "bsp", ipu, run_id, g_ptr_array_index (steps, order[0]));
}

gboolean
_tes_insights_find_bsp_steps (Ctx           *ctx,
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
      g_autofree char *cycles = tes_format_grouped ((double)c->stats.cycles);
      g_autofree char *lost = tes_format_grouped (c->cost);
      GVariantBuilder ev;
      TesInsight *insight;

      g_variant_builder_init (&ev, G_VARIANT_TYPE_VARDICT);
      _tes_insights_put_int (&ev, "ipu", c->ipu);
      _tes_insights_put_int (&ev, "step", c->step.step);
      _tes_insights_put_string (&ev, "name", program);
      _tes_insights_put_int (&ev, "cycles", c->stats.cycles);
      _tes_insights_put_double (&ev, "tile_balance_percent", c->stats.tile_balance);
      _tes_insights_put_int (&ev, "active_tiles", c->stats.active_tiles);
      _tes_insights_put_int (&ev, "tiles", c->stats.n_tiles);
      _tes_insights_put_double (&ev, "mean_cycles", c->stats.mean_cycles);
      _tes_insights_put_int (&ev, "max_cycles", c->stats.max_cycles);
      insight = _tes_insights_add (ctx, TES_INSIGHT_STEP_BALANCE, c->cost, TES_INSIGHT_UNIT_CYCLES, c->share, &ev,
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
  _tes_insights_put_int (&item, "ipu", row->ipu);
  _tes_insights_put_int (&item, "tile", row->tile);
  _tes_insights_put_int (&item, "busy_cycles", busy);
  _tes_insights_put_int (&item, "idle_cycles", row->cycles[TES_TILE_STATE_IDLE]);
  _tes_insights_put_double (&item, "idle_percent", all > 0 ? 100.0 * row->cycles[TES_TILE_STATE_IDLE] / all : 0);
  _tes_insights_put_double (&item, "ipu_mean_busy_cycles", mean);
  g_variant_builder_add_value (list, g_variant_builder_end (&item));
}

static gint64
activity_busy (const TesTileActivity *row)
{
  return row->cycles[TES_TILE_STATE_COMPUTE] + row->cycles[TES_TILE_STATE_EXCHANGE] + row->cycles[TES_TILE_STATE_SYNC];
}

/* Tiles idle for most of the run and tiles far busier than their IPU's
 * mean, from the tile activity Tile Balance draws. */
gboolean
_tes_insights_find_tile_activity (Ctx     *ctx,
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
      _tes_insights_put_int (&ev, "count", idle->len);
      _tes_insights_put_int (&ev, "tiles", activity->len);
      _tes_insights_put_double (&ev, "idle_cycles", idle_cycles);
      for (guint i = 0; i < idle->len; i++)
        {
          const TesTileActivity *row = g_ptr_array_index (idle, i);
          const double *m = g_hash_table_lookup (means, GINT_TO_POINTER (row->ipu + 1));

          put_activity_item (&list, row, m[0] / m[1]);
        }
      _tes_insights_put_list (&ev, "idle_tiles", &list);
      insight = _tes_insights_add (ctx, TES_INSIGHT_IDLE_TILES, idle_cycles, TES_INSIGHT_UNIT_CYCLES,
                                   all_cycles > 0 ? 100.0 * idle_cycles / all_cycles : 0, &ev,
                                   g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                                 "%s tile of %s waits for %.0f %% of the run or more: "
                                                                 "work the program could spread to it.",
                                                                 "%s tiles of %s wait for %.0f %% of the run or more: "
                                                                 "work the program could spread to them.",
                                                                 idle->len),
                                                    _tes_insights_count_text (ctx, idle->len), _tes_insights_count_text (ctx, activity->len), T (ctx, IDLE_TILE_SHARE)));
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
      _tes_insights_put_int (&ev, "count", hot->len);
      _tes_insights_put_int (&ev, "tiles", activity->len);
      for (guint i = 0; i < hot->len; i++)
        {
          const TesTileActivity *row = g_ptr_array_index (hot, i);
          const double *mm = g_hash_table_lookup (means, GINT_TO_POINTER (row->ipu + 1));

          put_activity_item (&list, row, mm[0] / mm[1]);
        }
      _tes_insights_put_list (&ev, "hot_tiles", &list);
      insight = _tes_insights_add (ctx, TES_INSIGHT_HOT_TILES, hot_cost, TES_INSIGHT_UNIT_CYCLES,
                                   hottest_all > 0 ? 100.0 * (activity_busy (hottest) - m[0] / m[1]) / hottest_all : 0, &ev,
                                   g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                                 "%s tile works %.1f times its IPU's mean or more; the "
                                                                 "busiest, tile %d of IPU %d, sets the pace of every step it is in.",
                                                                 "%s tiles work %.1f times their IPU's mean or more; the "
                                                                 "busiest, tile %d of IPU %d, sets the pace of every step it is in.",
                                                                 hot->len),
                                                    _tes_insights_count_text (ctx, hot->len), T (ctx, HOT_TILE_FACTOR), hottest->tile, hottest->ipu));
      insight->target.view = "tile-balance";
      insight->target.ipu = hottest->ipu;
      insight->target.tile = hottest->tile;
    }

  return TRUE;
}
