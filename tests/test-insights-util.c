/* test-insights-util.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "test-insights-util.h"
#include "tes-test-util.h"

/* gen-poplar-tiles.py's run of 2 IPUs × 24 tiles × 21 steps in a folder
 * @name: @planted, 2 tiles over the limit (--hot-tiles), tiles 5 and 17
 * busy twice the others on each IPU (--busy-tiles) and the generator's
 * unbalanced steps; else a --clean run, in which test-insights.py finds
 * nothing. Returns the compile
 * report, the listing and the tile trace, NULL-terminated. */
char **
generate_insights_run (const char *name,
                       gboolean    planted)
{
  g_autofree char *gen = g_test_build_filename (G_TEST_DIST, "gen-poplar-tiles.py", NULL);
  g_autofree char *dir = tes_test_tmp_path (name);
  const char *argv[] = { g_getenv ("PYTHON3"), gen, "--seed", "3", "--ipus", "2", "--tiles", "24", "--steps", "21",
                         "--outdir", dir, "--hot-tiles", planted ? "2" : "0",
                         planted ? "--busy-tiles" : "--clean", planted ? "5" : NULL, "17", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status = -1;
  char **paths = g_new0 (char *, 4);

  g_assert_nonnull (argv[0]);
  if (!tes_test_run (argv, &out, &err, &status) || status != 0)
    g_error ("gen-poplar-tiles.py failed (%d): %s", status, err);
  paths[0] = g_build_filename (dir, "compile_report.txt", NULL);
  paths[1] = g_build_filename (dir, "archive_size.txt", NULL);
  paths[2] = g_build_filename (dir, "execution.json", NULL);

  return paths;
}

/* What the key does where the focus is: the shortcut it triggers on the
 * focus or the nearest of its ancestors that binds it (GtkListView binds
 * the arrows to move its cursor from row to row). */
void
tes_test_press_key (GtkWidget *focus,
           guint      keyval)
{
  for (GtkWidget *w = focus; w != NULL; w = gtk_widget_get_parent (w))
    {
      g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (w);

      for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
        {
          g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

          if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
            continue;
          for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
            {
              g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
              GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);

              if (GTK_IS_KEYVAL_TRIGGER (trigger) &&
                  gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)) == keyval &&
                  gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)) == 0)
                {
                  g_assert_true (gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut), 0, w,
                                                               gtk_shortcut_get_arguments (shortcut)));
                  return;
                }
            }
        }
    }

  g_error ("Nothing from the %s up binds the key %s", G_OBJECT_TYPE_NAME (focus), gdk_keyval_name (keyval));
}
