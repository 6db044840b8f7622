/* main.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tessera"

#include "config.h"

#include "tes-application.h"
#include "tes-paths.h"

#include <locale.h>

#include <glib/gi18n.h>

int
main (int    argc,
      char **argv)
{
  g_autoptr(TesApplication) app = NULL;

  setlocale (LC_ALL, "");
  /* run from the build folder, the translations it compiled */
  bindtextdomain (GETTEXT_PACKAGE, tes_paths_get_locale_dir ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_set_application_name (_("Tessera"));

  app = tes_application_new ();

  return g_application_run (G_APPLICATION (app), argc, argv);
}
