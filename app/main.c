/* main.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tessera"

#include "config.h"

#include "tes-application.h"
#include "tes-huge-pages.h"
#include "tes-malloc.h"
#include "tes-paths.h"

#include <locale.h>

#include <glib/gi18n.h>

/* "--" ends the options, so that a file may start with '-'. GApplication
 * would open the "--" itself as a file (GOption keeps it when an argument
 * after it starts with '-'), so it is dropped here and the files after it
 * are passed on as paths no option parser takes for an option ("./-x"). */
static char **
end_options_at_double_dash (int    argc,
                            char **argv,
                            int   *n_args)
{
  GPtrArray *args = g_ptr_array_new ();
  gboolean files_only = FALSE;

  for (int i = 0; i < argc; i++)
    {
      if (i > 0 && !files_only && g_str_equal (argv[i], "--"))
        files_only = TRUE;
      else if (files_only && argv[i][0] == '-')
        g_ptr_array_add (args, g_strconcat ("./", argv[i], NULL));
      else
        g_ptr_array_add (args, g_strdup (argv[i]));
    }
  *n_args = (int)args->len;
  g_ptr_array_add (args, NULL);

  return (char **)g_ptr_array_free (args, FALSE);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(TesApplication) app = NULL;
  g_auto(GStrv) args = NULL;
  int n_args;

  tes_huge_pages_enable (argv);
  tes_malloc_keep_freed ();
  setlocale (LC_ALL, "");
  /* run from the build folder, the translations it compiled */
  bindtextdomain (GETTEXT_PACKAGE, tes_paths_get_locale_dir ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_set_application_name (_("Tessera"));

  app = tes_application_new ();

  args = end_options_at_double_dash (argc, argv, &n_args);

  return g_application_run (G_APPLICATION (app), n_args, args);
}
