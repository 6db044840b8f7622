/* tes-paths.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-paths"

#include "config.h"

#include "tes-paths.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Where the data of this Tessera is. An installed copy uses the prefix; a
 * program run from the build folder (make run, the tests) uses what the
 * build compiled, so that it works without environment variables and an
 * older installed copy never shadows it. */

static gboolean
is_inside (const char *path,
           const char *folder)
{
  gsize len = strlen (folder);

  return strncmp (path, folder, len) == 0 && (path[len] == G_DIR_SEPARATOR || path[len] == '\0');
}

gboolean
tes_paths_is_uninstalled (void)
{
  static gsize initialized;
  static gboolean uninstalled;

  if (g_once_init_enter (&initialized))
    {
      g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
      char build_root[PATH_MAX];

      /* both resolved: the build folder may be reached through a link */
      uninstalled = exe != NULL &&
                    realpath (TES_BUILD_ROOT, build_root) != NULL &&
                    is_inside (exe, build_root);

      g_once_init_leave (&initialized, 1);
    }

  return uninstalled;
}

/* The .mo files: the build writes po/LANG/LC_MESSAGES/tessera.mo. */
const char *
tes_paths_get_locale_dir (void)
{
  return tes_paths_is_uninstalled () ? TES_BUILD_ROOT G_DIR_SEPARATOR_S "po" : LOCALEDIR;
}

/* The compiled settings schema of the build, NULL when installed (GLib
 * finds the installed one). */
const char *
tes_paths_get_schema_dir (void)
{
  return tes_paths_is_uninstalled () ? SCHEMA_BUILD_DIR : NULL;
}

/* A file's folder as a window's subtitle shows it: "~" for the home
 * folder, "~/…" below it. */
char *
tes_paths_display_dirname (GFile *file)
{
  g_autoptr(GFile) parent = g_file_get_parent (file);
  g_autoptr(GFile) home = g_file_new_for_path (g_get_home_dir ());
  g_autofree char *relative = NULL;

  if (parent == NULL)
    return NULL;

  if (g_file_equal (parent, home))
    return g_strdup ("~");

  if ((relative = g_file_get_relative_path (home, parent)))
    {
      g_autofree char *display = g_filename_display_name (relative);
      return g_build_filename ("~", display, NULL);
    }

  return g_file_get_parse_name (parent);
}

/* A file's name as a title shows it. */
char *
tes_paths_display_basename (GFile *file)
{
  g_autofree char *basename = g_file_get_basename (file);

  return g_filename_display_name (basename);
}

/* The report's sources, when every one is still where it was read. */
GPtrArray *
tes_paths_present_sources (TesReport *report)
{
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < tes_report_get_n_sources (report); i++)
    {
      const TesSourceInfo *source = tes_report_get_source (report, i);

      if (source->path == NULL || !g_file_test (source->path, G_FILE_TEST_IS_REGULAR))
        return NULL;
      g_ptr_array_add (files, g_file_new_for_path (source->path));
    }

  return files->len > 0 ? g_steal_pointer (&files) : NULL;
}
