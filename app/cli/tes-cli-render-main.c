/* tes-cli-render-main.c: tessera-cli-render, the program tessera-cli runs
 * for its render command (tes-cli.c says why it is a program of its own)
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tessera-cli"

#include "config.h"

#include <locale.h>
#include <stdio.h>

#include "tes-cli-private.h"
#include "tes-huge-pages.h"
#include "tes-malloc.h"

int
main (int    argc,
      char **argv)
{
  int status;

  /* as tessera-cli, whose command line this is */
  tes_huge_pages_enable (argv);
  tes_malloc_keep_freed ();
  setlocale (LC_ALL, "");
  setlocale (LC_NUMERIC, "C");
  g_set_prgname ("tessera-cli");

  if (argc < 2 || !g_str_equal (argv[1], "render"))
    return tes_cli_usage_error ("tessera-cli-render runs as tessera-cli render");

  status = tes_cli_render (argc, argv);
  fflush (stdout);
  return status;
}
