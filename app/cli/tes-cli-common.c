/* tes-cli-common.c: errors, options and opening reports, for every command
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tessera-cli"

#include "config.h"

#include <stdio.h>
#include <string.h>

#include <gio/gio.h>

#include "tes-cli-private.h"
#include "tes-importer.h"
#include "tes-report-loader.h"

int
tes_cli_usage_error (const char *fmt,
                     ...)
{
  va_list args;

  va_start (args, fmt);
  fputs ("tessera-cli: ", stderr);
  vfprintf (stderr, fmt, args);
  fputs ("\nTry 'tessera-cli --help'.\n", stderr);
  va_end (args);

  return TES_CLI_EXIT_USAGE;
}

int
tes_cli_input_error (const GError *error)
{
  fprintf (stderr, "tessera-cli: %s\n", error->message);
  return TES_CLI_EXIT_BAD_INPUT;
}

/* An unknown --format or a file named twice is the user's slip, not bad
 * input. */
int
tes_cli_report_error (const GError *error)
{
  if ((g_error_matches (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_UNKNOWN_FORMAT) &&
       g_str_has_prefix (error->message, "Unknown format")) ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT))
    return tes_cli_usage_error ("%s", error->message);

  return tes_cli_input_error (error);
}

void
tes_cli_options_clear (TesCliOptions *options)
{
  g_clear_pointer (&options->format, g_free);
  g_clear_pointer (&options->mode, g_free);
  g_clear_pointer (&options->by, g_free);
  g_clear_pointer (&options->section, g_free);
  g_clear_pointer (&options->output, g_free);
  g_clear_pointer (&options->range, g_free);
  g_clear_pointer (&options->unit, g_free);
  g_clear_pointer (&options->run, g_free);
  g_clear_pointer (&options->step, g_free);
}

/* --run and --step, which summary and compare take: one at most, a step
 * being a number. */
int
tes_cli_check_run_options (const TesCliOptions *options)
{
  if (options->run != NULL && options->step != NULL)
    return tes_cli_usage_error ("give --run or --step, not both");
  if (options->step != NULL &&
      (*options->step == '\0' || strspn (options->step, "0123456789") != strlen (options->step)))
    return tes_cli_usage_error ("--step must be a step number, not '%s'", options->step);

  return TES_CLI_EXIT_OK;
}

/* The run --run or --step names in @report (0: neither given; a step N is
 * PyTorch's ProfilerStep#N, else TensorFlow's Step N), or -1 with @error
 * set. */
gint64
tes_cli_find_run (TesReport            *report,
                  const TesCliOptions  *options,
                  GError              **error)
{
  gint64 run_id;

  if (options->step != NULL)
    {
      g_autofree char *pytorch = g_strconcat ("ProfilerStep#", options->step, NULL);
      g_autofree char *tensorflow = g_strconcat ("Step ", options->step, NULL);

      if (!(run_id = tes_report_find_run (report, pytorch, error)) &&
          !(run_id = tes_report_find_run (report, tensorflow, NULL)))
        return -1;
      g_clear_error (error);
      return run_id;
    }
  if (options->run == NULL)
    return 0;

  return (run_id = tes_report_find_run (report, options->run, error)) ? run_id : -1;
}

/* Parses --format and --reimport, which every command that reads files
 * takes, and the command's own ENTRIES (bound to fields of OPTIONS or to
 * the command's variables); leaves the FILEs (at least one) in *paths,
 * pointing into argv. PARAMETERS names them in --help ("FILE…", "A B"). */
int
tes_cli_parse_command_line (const char          *command,
                            const char          *parameters,
                            int                 *argc,
                            char              ***argv,
                            TesCliOptions       *options,
                            const GOptionEntry  *entries,
                            const char * const **paths,
                            guint               *n_paths)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  GOptionEntry common[] = {
    { "format", 0, 0, G_OPTION_ARG_STRING, &options->format, "Importer to use for every FILE", "NAME" },
    { "reimport", 0, 0, G_OPTION_ARG_NONE, &options->reimport, "Import again even if a cache exists", NULL },
    { NULL }
  };
  g_autofree char *parameter = g_strdup_printf ("%s %s", command, parameters);

  context = g_option_context_new (parameter);
  g_option_context_set_help_enabled (context, TRUE);
  g_option_context_add_main_entries (context, common, NULL);
  if (entries != NULL)
    g_option_context_add_main_entries (context, entries, NULL);

  if (!g_option_context_parse (context, argc, argv, &error))
    return tes_cli_usage_error ("%s", error->message);

  /* "--" ends the options, so that a FILE may start with '-': GOption
   * stops there, but keeps the "--" when an argument after it starts with
   * '-' */
  for (int i = 2; i < *argc; i++)
    if (g_str_equal ((*argv)[i], "--"))
      {
        memmove (&(*argv)[i], &(*argv)[i + 1], (gsize)(*argc - i) * sizeof (char *));
        (*argc)--;
        break;
      }

  /* argv[0] is the program, argv[1] the command */
  if (*argc < 3)
    return tes_cli_usage_error ("%s: missing FILE", command);

  *paths = (const char * const *)&(*argv)[2];
  *n_paths = (guint)(*argc - 2);
  return TES_CLI_EXIT_OK;
}

/* Several files open as one report (the files of one run); each gets the
 * importer its content calls for, unless --format names one for all. A
 * .tessera cache opens as it is. */
TesReport *
tes_cli_open_report (const char * const  *paths,
                     guint                n_paths,
                     const TesCliOptions *options,
                     GError             **error)
{
  g_autoptr(TesReportLoader) loader = tes_report_loader_new ();

  tes_report_loader_set_format (loader, options->format);
  tes_report_loader_set_flags (loader, options->reimport ? TES_REPORT_OPEN_REIMPORT : TES_REPORT_OPEN_NONE);
  for (guint i = 0; i < n_paths; i++)
    tes_report_loader_add_file (loader, paths[i]);

  return tes_report_loader_load (loader, NULL, error);
}

void
tes_cli_print_csv_field (const char *text)
{
  if (text == NULL)
    return;

  if (strpbrk (text, ",\"\n\r") == NULL)
    {
      fputs (text, stdout);
      return;
    }

  putchar ('"');
  for (const char *p = text; *p; p++)
    {
      if (*p == '"')
        putchar ('"');
      putchar (*p);
    }
  putchar ('"');
}
