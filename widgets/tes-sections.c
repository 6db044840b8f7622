/* tes-sections.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tes-sections.h"
#include "tes-summary-section.h"

/* Every view Tessera has, in sidebar order: the window shows those its
 * report has data for, and `tessera-cli render --section` names them. */
GType
tes_sections_get_type_at (guint position)
{
  switch (position)
    {
    case 0: return TES_TYPE_SUMMARY_SECTION;
    default: return G_TYPE_INVALID;
    }
}

/* A section by its title, in any case ("summary", "Summary"). */
GType
tes_sections_lookup (const char *name)
{
  GType type;

  g_return_val_if_fail (name != NULL, G_TYPE_INVALID);

  for (guint i = 0; (type = tes_sections_get_type_at (i)) != G_TYPE_INVALID; i++)
    if (g_ascii_strcasecmp (tes_section_type_get_title (type), name) == 0)
      return type;

  return G_TYPE_INVALID;
}

/* The sections' names, comma-separated, for messages. */
char *
tes_sections_describe (void)
{
  g_autoptr(GString) names = g_string_new (NULL);
  GType type;

  for (guint i = 0; (type = tes_sections_get_type_at (i)) != G_TYPE_INVALID; i++)
    {
      g_autofree char *name = g_ascii_strdown (tes_section_type_get_title (type), -1);

      g_string_append_printf (names, "%s%s", i ? ", " : "", name);
    }

  return g_string_free (g_steal_pointer (&names), FALSE);
}
