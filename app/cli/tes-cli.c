/* tes-cli.c: tessera-cli, the command line: one command per file (tes-cli-COMMAND.c)
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tessera-cli"

#include "config.h"

#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <unistd.h>

#include "tes-cli-private.h"
#include "tes-huge-pages.h"

static const char usage_text[] =
  "Usage: tessera-cli COMMAND [OPTION…] FILE…\n"
  "\n"
  "Commands:\n"
  "  info [--json] FILE…               what the report holds and where its cache is\n"
  "  summary [--mode total|each] [--by category|name] [--run NAME|--step N] [--csv] FILE…\n"
  "                                     time share per operator type (total) or per operator (each),\n"
  "                                     of the whole report or of one run (a profiler step)\n"
#ifdef TES_HAVE_WIDGETS
  "  render [--view VIEW] [--range START:END] [--unit U] [--run NAME|--step N]\n"
  "         [--compare B] [--width W] [--height H] --out OUT.png|svg|pdf FILE…\n"
  "                                     draw a view (default: summary) as the window does;\n"
  "                                     VIEW: summary, insights, trace, flame, bsp, bsp-cycles,\n"
  "                                     tile-balance, memory, memory-histogram, memory-tiles,\n"
  "                                     compare, compare-summary (these two with --compare B)\n"
#endif
  "  compare [--by name|type] [--run NAME|--step N] [--csv] [--fail-if-slower PCT] A B\n"
  "                                     two runs' operators (and profiler steps, and each\n"
  "                                     device's wall time) side by side, largest change first;\n"
  "                                     A and B may be several files of a run, comma-separated\n"
  "  memory [--tiles] [--csv] FILE…    the tile memory histogram, tiles out of memory and the\n"
  "                                     heaviest tiles; --tiles: every tile's bytes by category\n"
  "  tiles [--range START:END] [--csv] FILE…\n"
  "                                     each tile's compute, exchange, sync and idle cycles over\n"
  "                                     the BSP steps that start in the range; without BSP steps,\n"
  "                                     each core's or engine's busy and idle ns in the range\n"
  "  insights [--json] [--compare B] [--threshold NAME=VALUE] FILE…\n"
  "                                     where the time and the memory go wrong, ranked by\n"
  "                                     cost, each with its evidence and the view to see it in\n"
  "  cache --list [FILE…]              the report caches in the user cache folder and the\n"
  "                                     FILEs' caches: size, sources, state (ok, stale, damaged)\n"
  "  cache --clear [FILE…]             remove the FILEs' caches, or all in the user cache folder\n"
  "  formats                            list the formats Tessera reads\n"
  "\n"
  "Several FILEs of one run open as one report, with one cache for the set; a folder\n"
  "stands for the traces in it (the per-rank traces of one job: a group per rank).\n"
  "\n"
  "Options for every command that reads files:\n"
  "  --format NAME                      use this importer instead of detecting one\n"
  "  --reimport                         ignore an existing cache and import again\n"
  "  -h, --help                         after COMMAND: the command's options\n"
  "\n"
  "Other options:\n"
  "  -h, --help                         print this help\n"
  "  --version                          print the version\n"
  "\n"
  "See tessera-cli(1) for more.\n"
  "\n"
  "Exit status: 0 on success, 1 when the input cannot be read, 2 on usage errors.\n";

#ifdef TES_HAVE_WIDGETS
/* render draws with GTK's libraries, which would cost every command that
 * does not draw (info on a cached report: a few ms of work) more than its
 * work to load: it is tessera-cli-render, run in place of this process
 * with the same arguments. */
static int
run_render (int    argc,
            char **argv)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = self ? g_path_get_dirname (self) : NULL;
  g_autofree char *beside = dir ? g_build_filename (dir, "tessera-cli-render", NULL) : NULL;
  const char *program = TES_RENDER_PROGRAM;
  int errsv;

  /* the build tree; installed, it is in libexecdir */
  if (beside != NULL && g_file_test (beside, G_FILE_TEST_IS_EXECUTABLE))
    program = beside;

  fflush (stdout);
  execv (program, argv);
  errsv = errno;
  fprintf (stderr, "tessera-cli: cannot run %s: %s\n", program, g_strerror (errsv));
  return TES_CLI_EXIT_BAD_INPUT;
}
#endif

int
main (int    argc,
      char **argv)
{
  static const struct {
    const char *name;
    int (*run) (int, char **);
  } commands[] = {
    { "info", tes_cli_info },
    { "summary", tes_cli_summary },
    { "compare", tes_cli_compare },
    { "memory", tes_cli_memory },
    { "tiles", tes_cli_tiles },
    { "insights", tes_cli_insights },
#ifdef TES_HAVE_WIDGETS
    { "render", run_render },
#endif
    { "formats", tes_cli_formats },
    { "cache", tes_cli_cache },
  };

  tes_huge_pages_enable (argv);
  setlocale (LC_ALL, "");
  /* Numbers are printed as the vendors print them, whatever the locale. */
  setlocale (LC_NUMERIC, "C");
  g_set_prgname ("tessera-cli");

  if (argc < 2)
    return tes_cli_usage_error ("missing COMMAND");

  if (g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h") || g_str_equal (argv[1], "help"))
    {
      fputs (usage_text, stdout);
      return TES_CLI_EXIT_OK;
    }

  if (g_str_equal (argv[1], "--version"))
    {
      printf ("tessera-cli %s\n", PACKAGE_VERSION);
      return TES_CLI_EXIT_OK;
    }

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (g_str_equal (argv[1], commands[i].name))
      {
        int status = commands[i].run (argc, argv);
        fflush (stdout);
        return status;
      }

  {
    g_autoptr(GString) names = g_string_new (NULL);

    for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
      g_string_append_printf (names, "%s%s", i ? ", " : "", commands[i].name);
    return tes_cli_usage_error ("unknown command '%s'; the commands: %s", argv[1], names->str);
  }
}
