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
