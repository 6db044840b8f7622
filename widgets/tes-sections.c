/* tes-sections.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tes-sections.h"
#include "tes-bsp-section.h"
#include "tes-compare-section.h"
#include "tes-insights-section.h"
#include "tes-memory-section.h"
#include "tes-summary-section.h"
#include "tes-tiles-section.h"
#include "tes-trace-section.h"

/* Every view Tessera has, in sidebar order: the window shows those its
 * report has data for, and `tessera-cli render --view` names their views. */
GType
tes_sections_get_type_at (guint position)
{
  switch (position)
    {
    /* hidden until it has findings, then first */
    case 0: return TES_TYPE_INSIGHTS_SECTION;
    case 1: return TES_TYPE_SUMMARY_SECTION;
    case 2: return TES_TYPE_TRACE_SECTION;
    case 3: return TES_TYPE_BSP_SECTION;
    case 4: return TES_TYPE_TILES_SECTION;
    case 5: return TES_TYPE_MEMORY_SECTION;
    /* has data only where two runs are compared (a linked workspace) */
    case 6: return TES_TYPE_COMPARE_SECTION;
    default: return G_TYPE_INVALID;
    }
}

/* The section that draws the view @name ("summary", "trace", "flame"…,
 * in any case), and in @view the view's own name. */
GType
tes_sections_lookup (const char  *name,
                     const char **view)
{
  GType type;

  g_return_val_if_fail (name != NULL, G_TYPE_INVALID);

  for (guint i = 0; (type = tes_sections_get_type_at (i)) != G_TYPE_INVALID; i++)
    {
      const char * const *views = tes_section_type_get_views (type);

      for (guint j = 0; views != NULL && views[j] != NULL; j++)
        if (g_ascii_strcasecmp (views[j], name) == 0)
          {
            if (view)
              *view = views[j];
            return type;
          }
    }

  return G_TYPE_INVALID;
}

/* Every view's name, comma-separated, for messages. */
char *
tes_sections_describe (void)
{
  g_autoptr(GString) names = g_string_new (NULL);
  GType type;

  for (guint i = 0; (type = tes_sections_get_type_at (i)) != G_TYPE_INVALID; i++)
    {
      const char * const *views = tes_section_type_get_views (type);

      for (guint j = 0; views != NULL && views[j] != NULL; j++)
        g_string_append_printf (names, "%s%s", names->len ? ", " : "", views[j]);
    }

  return g_string_free (g_steal_pointer (&names), FALSE);
}
