/* tes-cli-private.h: what the commands of tessera-cli share
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "tes-report.h"

G_BEGIN_DECLS

/* Exit statuses, as the README documents them. */
enum {
  TES_CLI_EXIT_OK = 0,
  TES_CLI_EXIT_BAD_INPUT = 1,
  TES_CLI_EXIT_USAGE = 2,
};

/* Every command's options; each command binds those it takes. */
typedef struct
{
  char     *format;
  gboolean  reimport;
  gboolean  json;
  gboolean  csv;
  gboolean  tiles;
  char     *mode;
  char     *by;
  char     *section;
  char     *output;
  char     *range;
  char     *unit;
  char     *run;      /* --run NAME */
  char     *step;     /* --step N */
  int       width;
  int       height;
} TesCliOptions;

void       tes_cli_options_clear      (TesCliOptions       *options);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TesCliOptions, tes_cli_options_clear)

int        tes_cli_usage_error        (const char          *fmt,
                                       ...) G_GNUC_PRINTF (1, 2);
int        tes_cli_input_error        (const GError        *error);
int        tes_cli_report_error       (const GError        *error);
int        tes_cli_parse_command_line (const char          *command,
                                       const char          *parameters,
                                       int                 *argc,
                                       char              ***argv,
                                       TesCliOptions       *options,
                                       const GOptionEntry  *entries,
                                       const char * const **paths,
                                       guint               *n_paths);
TesReport *tes_cli_open_report        (const char * const  *paths,
                                       guint                n_paths,
                                       const TesCliOptions *options,
                                       GError             **error);
void       tes_cli_print_csv_field    (const char          *text);
int        tes_cli_check_run_options  (const TesCliOptions *options);
gint64     tes_cli_find_run           (TesReport           *report,
                                       const TesCliOptions *options,
                                       GError             **error);

/* the commands: argv[1] is the command's name */
int        tes_cli_info               (int                  argc,
                                       char               **argv);
int        tes_cli_summary            (int                  argc,
                                       char               **argv);
int        tes_cli_render             (int                  argc,
                                       char               **argv);
int        tes_cli_compare            (int                  argc,
                                       char               **argv);
int        tes_cli_memory             (int                  argc,
                                       char               **argv);
int        tes_cli_tiles              (int                  argc,
                                       char               **argv);
int        tes_cli_insights           (int                  argc,
                                       char               **argv);
int        tes_cli_formats            (int                  argc,
                                       char               **argv);
int        tes_cli_cache              (int                  argc,
                                       char               **argv);

G_END_DECLS
