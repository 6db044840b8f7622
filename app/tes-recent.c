/* tes-recent.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-recent"

#include "config.h"

#include "tes-recent.h"
#include "tes-settings.h"

#include <glib/gi18n.h>

/* The reports opened last, kept in GSettings: each entry is the list of
 * files opened together, newest first. */

/* Kept for the tests written against it: the list lives in the
 * application's settings. */
GSettings *
tes_recent_get_settings (void)
{
  return tes_settings_get ();
}

static gboolean
same_report (const char * const *a,
             GFile * const      *files,
             guint               n_files)
{
  if (g_strv_length ((char **)a) != n_files)
    return FALSE;

  for (guint i = 0; i < n_files; i++)
    if (g_strcmp0 (a[i], g_file_peek_path (files[i])) != 0)
      return FALSE;

  return TRUE;
}

void
tes_recent_add (GFile * const *files,
                guint          n_files)
{
  GSettings *settings = tes_settings_get ();
  g_autoptr(GVariant) old = g_settings_get_value (settings, "recent-reports");
  g_auto(GVariantBuilder) builder = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("aas"));
  g_autofree const char **paths = g_new0 (const char *, n_files + 1);
  GVariantIter iter;
  GVariant *child;
  guint kept = 1;

  for (guint i = 0; i < n_files; i++)
    if (!(paths[i] = g_file_peek_path (files[i])))
      return;

  g_variant_builder_add_value (&builder, g_variant_new_strv (paths, n_files));

  g_variant_iter_init (&iter, old);
  while ((child = g_variant_iter_next_value (&iter)))
    {
      g_autofree const char **entry = g_variant_get_strv (child, NULL);

      if (kept < TES_RECENT_MAX && !same_report (entry, files, n_files))
        {
          g_variant_builder_add_value (&builder, child);
          kept++;
        }
      g_variant_unref (child);
    }

  g_settings_set_value (settings, "recent-reports", g_variant_builder_end (&builder));
}

/* One item per report: the first file's name (+N for the others), its
 * folder in the tooltip-less label's target. */
GMenuModel *
tes_recent_build_menu (void)
{
  g_autoptr(GVariant) recent = g_settings_get_value (tes_settings_get (), "recent-reports");
  GMenu *menu = g_menu_new ();
  GVariantIter iter;
  GVariant *child;

  g_variant_iter_init (&iter, recent);
  while ((child = g_variant_iter_next_value (&iter)))
    {
      g_autofree const char **paths = g_variant_get_strv (child, NULL);
      g_autoptr(GMenuItem) item = NULL;
      g_autofree char *base = NULL;
      g_autofree char *label = NULL;
      g_auto(GStrv) parts = NULL;
      guint n = g_strv_length ((char **)paths);

      if (n > 0)
        {
          /* menus read "_" as a mnemonic: file names keep theirs */
          base = g_filename_display_basename (paths[0]);
          parts = g_strsplit (base, "_", -1);
          g_free (base);
          base = g_strjoinv ("__", parts);
          /* Translators: a report opened from several files: "first (+N)" */
          label = n > 1 ? g_strdup_printf (_("%s (+%u)"), base, n - 1) : g_steal_pointer (&base);
          item = g_menu_item_new (label, NULL);
          g_menu_item_set_action_and_target_value (item, "win.open-recent", child);
          g_menu_append_item (menu, item);
        }
      g_variant_unref (child);
    }

  if (g_menu_model_get_n_items (G_MENU_MODEL (menu)) == 0)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (_("No recent reports"), "win.none");
      g_menu_append_item (menu, item);
    }

  return G_MENU_MODEL (menu);
}
