/* tes-tiles-layout.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "tes-tiles-layout.h"

void
tes_tile_balance_free (TesTileBalance *balance)
{
  if (balance == NULL)
    return;

  g_clear_pointer (&balance->least, g_array_unref);
  g_clear_pointer (&balance->most, g_array_unref);
  g_free (balance);
}

/* The cycles a tile worked: all but those it waited. */
gint64
tes_tile_activity_busy (const TesTileActivity *activity)
{
  return activity->cycles[TES_TILE_STATE_COMPUTE] + activity->cycles[TES_TILE_STATE_EXCHANGE] +
         activity->cycles[TES_TILE_STATE_SYNC];
}

static int
compare_busy (gconstpointer a,
              gconstpointer b)
{
  const TesTileActivity *x = a, *y = b;
  gint64 bx = tes_tile_activity_busy (x), by = tes_tile_activity_busy (y);

  if (bx != by)
    return bx < by ? -1 : 1;

  return x->tile < y->tile ? -1 : x->tile > y->tile;
}

/* @activity: what tes_report_get_tile_activity() gives, by IPU then tile.
 * Returns: (transfer full): TesTileBalance per IPU */
GPtrArray *
tes_tile_balance_compute (GArray *activity,
                          guint   n_extremes)
{
  GPtrArray *balances = g_ptr_array_new_with_free_func ((GDestroyNotify)tes_tile_balance_free);
  guint start = 0;

  while (start < activity->len)
    {
      gint ipu = g_array_index (activity, TesTileActivity, start).ipu;
      g_autoptr(GArray) sorted = g_array_new (FALSE, FALSE, sizeof (TesTileActivity));
      TesTileBalance *balance = g_new0 (TesTileBalance, 1);
      guint end = start;

      for (; end < activity->len && g_array_index (activity, TesTileActivity, end).ipu == ipu; end++)
        {
          const TesTileActivity *tile = &g_array_index (activity, TesTileActivity, end);

          for (guint s = 0; s < 4; s++)
            balance->cycles[s] += tile->cycles[s];
          g_array_append_val (sorted, *tile);
        }

      balance->ipu = ipu;
      balance->n_tiles = end - start;
      g_array_sort (sorted, compare_busy);
      balance->least = g_array_new (FALSE, FALSE, sizeof (TesTileActivity));
      balance->most = g_array_new (FALSE, FALSE, sizeof (TesTileActivity));
      for (guint i = 0; i < MIN (n_extremes, sorted->len); i++)
        {
          g_array_append_val (balance->least, g_array_index (sorted, TesTileActivity, i));
          g_array_append_val (balance->most, g_array_index (sorted, TesTileActivity, sorted->len - 1 - i));
        }
      g_ptr_array_add (balances, balance);
      start = end;
    }

  return balances;
}

/* PopVision's state colours: compute green, exchange blue, sync orange,
 * idle grey. */
guint32
tes_tile_state_color (TesTileState state)
{
  static const guint32 colors[4] = {
    [TES_TILE_STATE_IDLE] = 0xc0bfbc,
    [TES_TILE_STATE_COMPUTE] = 0x26a269,
    [TES_TILE_STATE_EXCHANGE] = 0x3584e4,
    [TES_TILE_STATE_SYNC] = 0xe66100,
  };

  return colors[MIN ((guint)state, TES_TILE_STATE_SYNC)];
}

const char *
tes_tile_state_name (TesTileState state)
{
  switch (state)
    {
    case TES_TILE_STATE_COMPUTE: return _("Compute");
    case TES_TILE_STATE_EXCHANGE: return _("Exchange");
    case TES_TILE_STATE_SYNC: return _("Sync");
    case TES_TILE_STATE_IDLE:
    default: return _("Idle");
    }
}
