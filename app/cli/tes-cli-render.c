/* tes-cli-render.c: tessera-cli render: a view drawn as the window draws it, to PNG, SVG or PDF
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tessera-cli"

#include "config.h"

#include <stdio.h>

#include <cairo-pdf.h>
#include <cairo-svg.h>

#include "tes-cli-private.h"
#include "tes-compare-render.h"
#include "tes-compare-section.h"
#include "tes-sections.h"
#include "tes-workspace.h"

/* The run to compare with (--compare B1,B2…): its workspace in @a's
 * unit where it has it, linked to @a from each run's start. */
static int
open_compare_run (const char           *run,
                  const TesCliOptions  *options,
                  GType                 section,
                  TesWorkspace         *a,
                  TesReport           **report,
                  TesWorkspace        **workspace)
{
  g_auto(GStrv) paths = g_strsplit (run, ",", -1);
  g_autoptr(GError) error = NULL;

  if (!(*report = tes_cli_open_report ((const char * const *)paths, g_strv_length (paths), options, &error)))
    return tes_cli_report_error (error);

  *workspace = tes_workspace_new (*report);
  /* a run without a timeline has no unit to give: B keeps its own */
  if (tes_workspace_get_span (a, NULL, NULL) || options->unit != NULL)
    {
      if (tes_workspace_time_unit_available (*workspace, tes_workspace_get_time_unit (a), NULL))
        tes_workspace_set_time_unit (*workspace, tes_workspace_get_time_unit (a));
      else if (options->unit != NULL)
        {
          fprintf (stderr, "tessera-cli: %s: cannot show %s\n", paths[0], options->unit);
          return TES_CLI_EXIT_BAD_INPUT;
        }
    }
  tes_workspace_link (a, *workspace);
  if (!tes_section_type_has_data (section, *workspace))
    {
      fprintf (stderr, "tessera-cli: %s has no data for the %s section\n",
               paths[0], tes_section_type_get_title (section));
      return TES_CLI_EXIT_BAD_INPUT;
    }

  return TES_CLI_EXIT_OK;
}

/* The same drawing code as the window's section, on a surface of the
 * output's kind: pixels for PNG, vectors for SVG and PDF. With --compare,
 * the Compare section as the compare window shows it (the default view),
 * or any other view of both runs one above the other. */
int
tes_cli_render (int    argc,
                char **argv)
{
  g_auto(TesCliOptions) options = { .width = 1200, .height = 900 };
  g_autofree char *compare = NULL;
  GOptionEntry entries[] = {
    { "view", 0, 0, G_OPTION_ARG_STRING, &options.section, "The view to draw (default: summary, or compare with --compare)", "NAME" },
    { "width", 0, 0, G_OPTION_ARG_INT, &options.width, "Width in pixels or points (default: 1200)", "W" },
    { "height", 0, 0, G_OPTION_ARG_INT, &options.height, "Height in pixels or points (default: 900)", "H" },
    { "out", 'o', 0, G_OPTION_ARG_FILENAME, &options.output, "The file to write: .png, .svg or .pdf", "OUT" },
    { "range", 0, 0, G_OPTION_ARG_STRING, &options.range, "The time shown, since the run's start (e.g. 1ms:2.5ms)", "START:END" },
    { "unit", 0, 0, G_OPTION_ARG_STRING, &options.unit, "Time unit: ns, us, ms or cycles", "U" },
    { "run", 0, 0, G_OPTION_ARG_STRING, &options.run, "The Summary of the run NAME (a profiler step, a program run)", "NAME" },
    { "step", 0, 0, G_OPTION_ARG_STRING, &options.step, "The Summary of profiler step N", "N" },
    { "compare", 0, 0, G_OPTION_ARG_FILENAME, &compare, "Compare with this run (files comma-separated)", "B" },
    { NULL }
  };
  g_autoptr(TesReport) b_report = NULL;
  g_autoptr(TesWorkspace) b_workspace = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(TesWorkspace) workspace = NULL;
  g_autoptr(GError) error = NULL;
  const char * const *paths = NULL;
  cairo_surface_t *surface;
  cairo_status_t cairo_status;
  cairo_t *cr;
  const char *view = NULL;
  GType section;
  guint n_paths = 0;
  gboolean png;
  gboolean comparing;
  int status;
  gint64 run_id;

  if ((status = tes_cli_parse_command_line ("render", "FILE…", &argc, &argv, &options, entries, &paths, &n_paths)) != TES_CLI_EXIT_OK)
    return status;

  if (options.output == NULL)
    return tes_cli_usage_error ("render: missing --out OUT.png|svg|pdf");
  if (options.width < 16 || options.height < 16 || options.width > 16384 || options.height > 16384)
    return tes_cli_usage_error ("render: --width and --height must be between 16 and 16384");

  if ((section = tes_sections_lookup (options.section ? options.section : compare ? "compare" : "summary",
                                      &view)) == G_TYPE_INVALID)
    {
      g_autofree char *known = tes_sections_describe ();

      return tes_cli_usage_error ("render: no view '%s'; views: %s", options.section, known);
    }
  /* the compare window's own view: both runs, their diff below */
  comparing = section == TES_TYPE_COMPARE_SECTION;
  if (comparing && compare == NULL)
    return tes_cli_usage_error ("render: the %s view compares two runs: give the second with --compare B", view);

  png = g_str_has_suffix (options.output, ".png");
  if (!png && !g_str_has_suffix (options.output, ".svg") && !g_str_has_suffix (options.output, ".pdf"))
    return tes_cli_usage_error ("render: %s: the output must end in .png, .svg or .pdf", options.output);

  if (!(report = tes_cli_open_report (paths, n_paths, &options, &error)))
    return tes_cli_report_error (error);

  workspace = tes_workspace_new (report);
  if ((status = tes_cli_check_run_options (&options)) != TES_CLI_EXIT_OK)
    return status;
  if ((run_id = tes_cli_find_run (report, &options, &error)) < 0)
    return tes_cli_usage_error ("render: %s", error->message);
  tes_workspace_set_run (workspace, run_id);

  if (options.unit != NULL)
    {
      static const char * const names[] = { "ns", "us", "ms", "cycles" };
      g_autofree char *why = NULL;
      guint unit;

      for (unit = 0; unit < G_N_ELEMENTS (names) && !g_str_equal (names[unit], options.unit); unit++);
      if (unit == G_N_ELEMENTS (names))
        return tes_cli_usage_error ("render: --unit must be ns, us, ms or cycles, not '%s'", options.unit);
      if (!tes_workspace_time_unit_available (workspace, unit, &why))
        {
          fprintf (stderr, "tessera-cli: %s: %s\n", paths[0], why);
          return TES_CLI_EXIT_BAD_INPUT;
        }
      tes_workspace_set_time_unit (workspace, unit);
    }

  if (options.range != NULL)
    {
      gint64 t0, t1;

      if (!tes_workspace_parse_range (workspace, options.range, &t0, &t1, &error))
        return tes_cli_usage_error ("render: --range %s", error->message);
      tes_workspace_set_visible (workspace, t0, t1);
    }

  if (!comparing && !tes_section_type_has_data (section, workspace))
    {
      fprintf (stderr, "tessera-cli: %s has no data for the %s section\n",
               paths[0], tes_section_type_get_title (section));
      return TES_CLI_EXIT_BAD_INPUT;
    }

  if (compare != NULL &&
      (status = open_compare_run (compare, &options, section, workspace, &b_report, &b_workspace)) != TES_CLI_EXIT_OK)
    return status;

  if (png)
    surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, options.width, options.height);
  else if (g_str_has_suffix (options.output, ".svg"))
    surface = cairo_svg_surface_create (options.output, options.width, options.height);
  else
    surface = cairo_pdf_surface_create (options.output, options.width, options.height);

  cr = cairo_create (surface);
  if (b_workspace != NULL && !comparing
      ? !tes_compare_render (section, view, workspace, b_workspace, cr, options.width, options.height, &error)
      : !tes_section_type_render (section, workspace, view, cr, options.width, options.height, &error))
    {
      cairo_destroy (cr);
      cairo_surface_destroy (surface);
      return tes_cli_input_error (error);
    }
  cairo_destroy (cr);

  cairo_surface_flush (surface);
  cairo_status = png ? cairo_surface_write_to_png (surface, options.output) : cairo_surface_status (surface);
  cairo_surface_finish (surface);
  if (cairo_status == CAIRO_STATUS_SUCCESS)
    cairo_status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);

  if (cairo_status != CAIRO_STATUS_SUCCESS)
    {
      fprintf (stderr, "tessera-cli: cannot write %s: %s\n", options.output, cairo_status_to_string (cairo_status));
      return TES_CLI_EXIT_BAD_INPUT;
    }

  return TES_CLI_EXIT_OK;
}
