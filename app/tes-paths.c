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
