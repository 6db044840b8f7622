/* tes-cli.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tessera-cli"

#include "config.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "tes-compare.h"
#include "tes-importer-registry.h"
#include "tes-report-loader.h"
#include "tes-workspace.h"

#ifdef TES_HAVE_WIDGETS
# include <cairo-pdf.h>
# include <cairo-svg.h>

# include "tes-sections.h"
#endif

/* Exit statuses, as the README documents them. */
enum {
  EXIT_OK = 0,
  EXIT_BAD_INPUT = 1,
  EXIT_USAGE = 2,
};

static const char usage_text[] =
  "Usage: tessera-cli COMMAND [OPTION…] FILE…\n"
  "\n"
  "Commands:\n"
  "  info [--json] FILE…               what the report holds and where its cache is\n"
  "  summary [--mode total|each] [--by category|name] [--csv] FILE…\n"
  "                                     time share per operator type (total) or per operator (each)\n"
  "  render [--view summary|trace|flame] [--range START:END] [--unit U]\n"
  "         [--width W] [--height H] --out OUT.png|svg|pdf FILE…\n"
  "                                     draw a view (default: summary) as the window does\n"
  "  compare [--by name|type] [--csv] [--fail-if-slower PCT] A B\n"
  "                                     two runs' operators side by side, largest change first;\n"
  "                                     A and B may be several files of a run, comma-separated\n"
  "  memory [--tiles] [--csv] FILE…    the tile memory histogram, tiles out of memory and the\n"
  "                                     heaviest tiles; --tiles: every tile's bytes by category\n"
  "  tiles [--range START:END] [--csv] FILE…\n"
  "                                     each tile's compute, exchange, sync and idle cycles over\n"
  "                                     the BSP steps that start in the range\n"
  "  formats                            list the formats Tessera reads\n"
  "\n"
  "Several FILEs of one run open as one report, with one cache for the set.\n"
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

static int
usage_error (const char *fmt,
             ...) G_GNUC_PRINTF (1, 2);

static int
usage_error (const char *fmt,
             ...)
{
  va_list args;

  va_start (args, fmt);
  fputs ("tessera-cli: ", stderr);
  vfprintf (stderr, fmt, args);
  fputs ("\nTry 'tessera-cli --help'.\n", stderr);
  va_end (args);

  return EXIT_USAGE;
}

static int
input_error (const GError *error)
{
  fprintf (stderr, "tessera-cli: %s\n", error->message);
  return EXIT_BAD_INPUT;
}

/* An unknown --format or a file named twice is the user's slip, not bad
 * input. */
static int
report_error (const GError *error)
{
  if ((g_error_matches (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_UNKNOWN_FORMAT) &&
       g_str_has_prefix (error->message, "Unknown format")) ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT))
    return usage_error ("%s", error->message);

  return input_error (error);
}

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
  int       width;
  int       height;
} Options;

static void
options_clear (Options *options)
{
  g_clear_pointer (&options->format, g_free);
  g_clear_pointer (&options->mode, g_free);
  g_clear_pointer (&options->by, g_free);
  g_clear_pointer (&options->section, g_free);
  g_clear_pointer (&options->output, g_free);
  g_clear_pointer (&options->range, g_free);
  g_clear_pointer (&options->unit, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Options, options_clear)

/* Parses the command's options; leaves the FILEs (at least one) in
 * *paths, pointing into argv. */
static int
parse_command_line (const char           *command,
                    int                  *argc,
                    char               ***argv,
                    Options              *options,
                    gboolean              with_json,
                    gboolean              with_summary,
                    gboolean              with_render,
                    const char * const  **paths,
                    guint                *n_paths)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  GOptionEntry common[] = {
    { "format", 0, 0, G_OPTION_ARG_STRING, &options->format, "Importer to use for every FILE", "NAME" },
    { "reimport", 0, 0, G_OPTION_ARG_NONE, &options->reimport, "Import again even if a cache exists", NULL },
    { NULL }
  };
  GOptionEntry info_entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &options->json, "Print JSON", NULL },
    { NULL }
  };
  GOptionEntry summary_entries[] = {
    { "mode", 0, 0, G_OPTION_ARG_STRING, &options->mode, "total (per type) or each (per operator)", "MODE" },
    { "by", 0, 0, G_OPTION_ARG_STRING, &options->by, "Group by category (type) or name", "KEY" },
    { "csv", 0, 0, G_OPTION_ARG_NONE, &options->csv, "Print CSV", NULL },
    { NULL }
  };
  GOptionEntry render_entries[] = {
    { "view", 0, 0, G_OPTION_ARG_STRING, &options->section, "The view to draw (default: summary)", "NAME" },
    { "width", 0, 0, G_OPTION_ARG_INT, &options->width, "Width in pixels or points (default: 1200)", "W" },
    { "height", 0, 0, G_OPTION_ARG_INT, &options->height, "Height in pixels or points (default: 900)", "H" },
    { "out", 'o', 0, G_OPTION_ARG_FILENAME, &options->output, "The file to write: .png, .svg or .pdf", "OUT" },
    { "range", 0, 0, G_OPTION_ARG_STRING, &options->range, "The time shown, since the run's start (e.g. 1ms:2.5ms)", "START:END" },
    { "unit", 0, 0, G_OPTION_ARG_STRING, &options->unit, "Time unit: ns, us, ms or cycles", "U" },
    { NULL }
  };
  GOptionEntry memory_entries[] = {
    { "tiles", 0, 0, G_OPTION_ARG_NONE, &options->tiles, "One row per tile: its bytes by category", NULL },
    { "csv", 0, 0, G_OPTION_ARG_NONE, &options->csv, "Print CSV", NULL },
    { NULL }
  };
  GOptionEntry tiles_entries[] = {
    { "range", 0, 0, G_OPTION_ARG_STRING, &options->range, "The BSP steps that start in this time since the run's start", "START:END" },
    { "csv", 0, 0, G_OPTION_ARG_NONE, &options->csv, "Print CSV", NULL },
    { NULL }
  };
  g_autofree char *parameter = g_strdup_printf ("%s FILE…", command);

  context = g_option_context_new (parameter);
  g_option_context_set_help_enabled (context, TRUE);
  g_option_context_add_main_entries (context, common, NULL);
  if (with_json)
    g_option_context_add_main_entries (context, info_entries, NULL);
  if (with_summary)
    g_option_context_add_main_entries (context, summary_entries, NULL);
  if (with_render)
    g_option_context_add_main_entries (context, render_entries, NULL);
  /* commands with options of their own */
  if (g_str_equal (command, "memory"))
    g_option_context_add_main_entries (context, memory_entries, NULL);
  else if (g_str_equal (command, "tiles"))
    g_option_context_add_main_entries (context, tiles_entries, NULL);

  if (!g_option_context_parse (context, argc, argv, &error))
    return usage_error ("%s", error->message);

  /* argv[0] is the program, argv[1] the command */
  if (*argc < 3)
    return usage_error ("%s: missing FILE", command);

  *paths = (const char * const *)&(*argv)[2];
  *n_paths = (guint)(*argc - 2);
  return EXIT_OK;
}

/* Several files open as one report (the files of one run); each gets the
 * importer its content calls for, unless --format names one for all. A
 * .tessera cache opens as it is. */
static TesReport *
open_report (const char * const  *paths,
             guint                n_paths,
             const Options       *options,
             GError             **error)
{
  g_autoptr(TesReportLoader) loader = tes_report_loader_new ();

  tes_report_loader_set_format (loader, options->format);
  tes_report_loader_set_flags (loader, options->reimport ? TES_REPORT_OPEN_REIMPORT : TES_REPORT_OPEN_NONE);
  for (guint i = 0; i < n_paths; i++)
    tes_report_loader_add_file (loader, paths[i]);

  return tes_report_loader_load (loader, NULL, error);
}

typedef struct
{
  const char *key;     /* in --json */
  const char *label;   /* in text */
  gsize       offset;
} CountField;

static const CountField count_fields[] = {
  { "tracks", "Tracks:", G_STRUCT_OFFSET (TesReportCounts, n_tracks) },
  { "slices", "Slices:", G_STRUCT_OFFSET (TesReportCounts, n_slices) },
  { "instants", "Instants:", G_STRUCT_OFFSET (TesReportCounts, n_instants) },
  { "counter_tracks", "Counters:", G_STRUCT_OFFSET (TesReportCounts, n_counter_tracks) },
  { "counter_values", "Counter values:", G_STRUCT_OFFSET (TesReportCounts, n_counter_values) },
  { "flows", "Flows:", G_STRUCT_OFFSET (TesReportCounts, n_flows) },
  { "runs", "Runs:", G_STRUCT_OFFSET (TesReportCounts, n_runs) },
  { "operators", "Operators:", G_STRUCT_OFFSET (TesReportCounts, n_operators) },
  { "tiles", "Tiles:", G_STRUCT_OFFSET (TesReportCounts, n_tiles) },
  { "bsp_steps", "BSP steps:", G_STRUCT_OFFSET (TesReportCounts, n_bsp_steps) },
};

static gint64
count_value (const TesReportCounts *counts,
             const CountField      *field)
{
  return G_STRUCT_MEMBER (gint64, counts, field->offset);
}

static void
print_info_text (TesReport *report)
{
  TesReportCounts counts;
  g_autoptr(GPtrArray) info = tes_report_get_info (report);

  tes_report_get_counts (report, &counts);

  printf ("File:           %s\n", tes_report_get_path (report));
  printf ("Format:         %s\n", tes_report_get_format (report));
  printf ("Importer:       %s (version %u)\n",
          tes_report_get_importer_name (report),
          tes_report_get_importer_version (report));

  /* a report of several files lists each */
  if (tes_report_get_n_sources (report) > 1)
    for (guint i = 0; i < tes_report_get_n_sources (report); i++)
      {
        const TesSourceInfo *source = tes_report_get_source (report, i);

        printf ("Source:         %s: %s (%s, version %u)\n",
                source->path, source->format, source->importer, source->importer_version);
      }

  for (guint i = 0; i < G_N_ELEMENTS (count_fields); i++)
    printf ("%-16s%" G_GINT64_FORMAT "\n", count_fields[i].label, count_value (&counts, &count_fields[i]));

  if (tes_report_get_n_clocks (report) == 0)
    printf ("Time span:      none (the report holds no timed events)\n");

  for (guint c = 1; c <= tes_report_get_n_clocks (report); c++)
    {
      const TesClock *clock = tes_report_get_clock (report, c);
      gint64 t0, t1;

      if (!tes_report_get_span (report, clock->id, &t0, &t1))
        continue;

      printf ("Time span:      %" G_GINT64_FORMAT " .. %" G_GINT64_FORMAT " %s (clock %s), "
              "%" G_GINT64_FORMAT " .. %" G_GINT64_FORMAT " ns\n",
              t0, t1, tes_time_unit_to_string (clock->unit), clock->name,
              tes_report_convert_time (report, clock->id, 0, t0),
              tes_report_convert_time (report, clock->id, 0, t1));
    }

  printf ("Cache:          %s (%s)\n", tes_report_get_cache_path (report),
          tes_report_get_cache_reused (report) ? "reused" : "written now");

  for (guint i = 0; i < info->len; i++)
    {
      const TesInfoEntry *entry = g_ptr_array_index (info, i);
      printf ("Info:           %s = %s\n", entry->key, entry->value);
    }
}

static void
print_info_json (TesReport *report)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GPtrArray) info = tes_report_get_info (report);
  g_autofree char *text = NULL;
  TesReportCounts counts;

  tes_report_get_counts (report, &counts);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "file");
  json_builder_add_string_value (builder, tes_report_get_path (report));
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, tes_report_get_format (report));
  json_builder_set_member_name (builder, "importer");
  json_builder_add_string_value (builder, tes_report_get_importer_name (report));
  json_builder_set_member_name (builder, "importer_version");
  json_builder_add_int_value (builder, tes_report_get_importer_version (report));

  json_builder_set_member_name (builder, "sources");
  json_builder_begin_array (builder);
  for (guint i = 0; i < tes_report_get_n_sources (report); i++)
    {
      const TesSourceInfo *source = tes_report_get_source (report, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "path");
      json_builder_add_string_value (builder, source->path);
      json_builder_set_member_name (builder, "format");
      json_builder_add_string_value (builder, source->format);
      json_builder_set_member_name (builder, "importer");
      json_builder_add_string_value (builder, source->importer);
      json_builder_set_member_name (builder, "importer_version");
      json_builder_add_int_value (builder, source->importer_version);
      json_builder_set_member_name (builder, "size");
      json_builder_add_int_value (builder, source->size);
      json_builder_set_member_name (builder, "fingerprint");
      json_builder_add_string_value (builder, source->fingerprint);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "counts");
  json_builder_begin_object (builder);
  for (guint i = 0; i < G_N_ELEMENTS (count_fields); i++)
    {
      json_builder_set_member_name (builder, count_fields[i].key);
      json_builder_add_int_value (builder, count_value (&counts, &count_fields[i]));
    }
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "spans");
  json_builder_begin_array (builder);
  for (guint c = 1; c <= tes_report_get_n_clocks (report); c++)
    {
      const TesClock *clock = tes_report_get_clock (report, c);
      gint64 t0, t1;

      if (!tes_report_get_span (report, clock->id, &t0, &t1))
        continue;

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "clock");
      json_builder_add_string_value (builder, clock->name);
      json_builder_set_member_name (builder, "unit");
      json_builder_add_string_value (builder, tes_time_unit_to_string (clock->unit));
      json_builder_set_member_name (builder, "ticks_per_second");
      json_builder_add_int_value (builder, clock->ticks_per_second);
      json_builder_set_member_name (builder, "start");
      json_builder_add_int_value (builder, t0);
      json_builder_set_member_name (builder, "end");
      json_builder_add_int_value (builder, t1);
      json_builder_set_member_name (builder, "start_ns");
      json_builder_add_int_value (builder, tes_report_convert_time (report, clock->id, 0, t0));
      json_builder_set_member_name (builder, "end_ns");
      json_builder_add_int_value (builder, tes_report_convert_time (report, clock->id, 0, t1));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "cache");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "path");
  json_builder_add_string_value (builder, tes_report_get_cache_path (report));
  json_builder_set_member_name (builder, "reused");
  json_builder_add_boolean_value (builder, tes_report_get_cache_reused (report));
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "info");
  json_builder_begin_object (builder);
  for (guint i = 0; i < info->len; i++)
    {
      const TesInfoEntry *entry = g_ptr_array_index (info, i);

      json_builder_set_member_name (builder, entry->key);
      json_builder_add_string_value (builder, entry->value);
    }
  json_builder_end_object (builder);

  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  text = json_generator_to_data (generator, NULL);
  printf ("%s\n", text);
}

static int
command_info (int    argc,
              char **argv)
{
  g_auto(Options) options = { 0 };
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GError) error = NULL;
  const char * const *paths = NULL;
  guint n_paths = 0;
  int status;

  if ((status = parse_command_line ("info", &argc, &argv, &options, TRUE, FALSE, FALSE, &paths, &n_paths)) != EXIT_OK)
    return status;

  if (!(report = open_report (paths, n_paths, &options, &error)))
    return report_error (error);

  if (options.json)
    print_info_json (report);
  else
    print_info_text (report);

  return EXIT_OK;
}

static void
print_csv_field (const char *text)
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

static int
command_summary (int    argc,
                 char **argv)
{
  g_auto(Options) options = { 0 };
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GError) error = NULL;
  TesSummaryMode mode = TES_SUMMARY_TOTAL;
  TesGroupBy by = TES_GROUP_BY_CATEGORY;
  const char * const *paths = NULL;
  guint n_paths = 0;
  int status;

  if ((status = parse_command_line ("summary", &argc, &argv, &options, FALSE, TRUE, FALSE, &paths, &n_paths)) != EXIT_OK)
    return status;

  if (options.mode == NULL || g_str_equal (options.mode, "total"))
    mode = TES_SUMMARY_TOTAL;
  else if (g_str_equal (options.mode, "each"))
    mode = TES_SUMMARY_EACH;
  else
    return usage_error ("--mode must be 'total' or 'each', not '%s'", options.mode);

  if (options.by == NULL || g_str_equal (options.by, "category"))
    by = TES_GROUP_BY_CATEGORY;
  else if (g_str_equal (options.by, "name"))
    by = TES_GROUP_BY_NAME;
  else
    return usage_error ("--by must be 'category' or 'name', not '%s'", options.by);

  if (!(report = open_report (paths, n_paths, &options, &error)))
    return report_error (error);

  if (!(rows = tes_report_summarize (report, mode, by, &error)))
    return input_error (error);

  if (options.csv)
    printf ("label,index,name,type,share_percent,total,count\n");

  for (guint i = 0; i < rows->len; i++)
    {
      const TesSummaryRow *row = g_ptr_array_index (rows, i);

      if (!options.csv)
        {
          /* The vendor's own layout: "<label> <percent, 3 decimals>%" */
          printf ("%s %.3f%%\n", row->label, row->share);
          continue;
        }

      print_csv_field (row->label);
      putchar (',');
      if (row->op_index >= 0)
        printf ("%" G_GINT64_FORMAT, row->op_index);
      putchar (',');
      print_csv_field (row->name);
      putchar (',');
      print_csv_field (row->type);
      printf (",%.3f,", row->share);
      if (row->total >= 0)
        printf ("%" G_GINT64_FORMAT, row->total);
      putchar (',');
      if (row->count >= 0)
        printf ("%" G_GINT64_FORMAT, row->count);
      putchar ('\n');
    }

  return EXIT_OK;
}

#ifdef TES_HAVE_WIDGETS
/* The same drawing code as the window's section, on a surface of the
 * output's kind: pixels for PNG, vectors for SVG and PDF. */
static int
command_render (int    argc,
                char **argv)
{
  g_auto(Options) options = { .width = 1200, .height = 900 };
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
  int status;

  if ((status = parse_command_line ("render", &argc, &argv, &options, FALSE, FALSE, TRUE, &paths, &n_paths)) != EXIT_OK)
    return status;

  if (options.output == NULL)
    return usage_error ("render: missing --out OUT.png|svg|pdf");
  if (options.width < 16 || options.height < 16 || options.width > 16384 || options.height > 16384)
    return usage_error ("render: --width and --height must be between 16 and 16384");

  if ((section = tes_sections_lookup (options.section ? options.section : "summary", &view)) == G_TYPE_INVALID)
    {
      g_autofree char *known = tes_sections_describe ();

      return usage_error ("render: no view '%s'; views: %s", options.section, known);
    }

  png = g_str_has_suffix (options.output, ".png");
  if (!png && !g_str_has_suffix (options.output, ".svg") && !g_str_has_suffix (options.output, ".pdf"))
    return usage_error ("render: %s: the output must end in .png, .svg or .pdf", options.output);

  if (!(report = open_report (paths, n_paths, &options, &error)))
    return report_error (error);

  workspace = tes_workspace_new (report);

  if (options.unit != NULL)
    {
      static const char * const names[] = { "ns", "us", "ms", "cycles" };
      g_autofree char *why = NULL;
      guint unit;

      for (unit = 0; unit < G_N_ELEMENTS (names) && !g_str_equal (names[unit], options.unit); unit++);
      if (unit == G_N_ELEMENTS (names))
        return usage_error ("render: --unit must be ns, us, ms or cycles, not '%s'", options.unit);
      if (!tes_workspace_time_unit_available (workspace, unit, &why))
        {
          fprintf (stderr, "tessera-cli: %s: %s\n", paths[0], why);
          return EXIT_BAD_INPUT;
        }
      tes_workspace_set_time_unit (workspace, unit);
    }

  if (options.range != NULL)
    {
      gint64 t0, t1;

      if (!tes_workspace_parse_range (workspace, options.range, &t0, &t1, &error))
        return usage_error ("render: --range %s", error->message);
      tes_workspace_set_visible (workspace, t0, t1);
    }

  if (!tes_section_type_has_data (section, workspace))
    {
      fprintf (stderr, "tessera-cli: %s has no data for the %s section\n",
               paths[0], tes_section_type_get_title (section));
      return EXIT_BAD_INPUT;
    }

  if (png)
    surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, options.width, options.height);
  else if (g_str_has_suffix (options.output, ".svg"))
    surface = cairo_svg_surface_create (options.output, options.width, options.height);
  else
    surface = cairo_pdf_surface_create (options.output, options.width, options.height);

  cr = cairo_create (surface);
  if (!tes_section_type_render (section, workspace, view, cr, options.width, options.height, &error))
    {
      cairo_destroy (cr);
      cairo_surface_destroy (surface);
      return input_error (error);
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
      return EXIT_BAD_INPUT;
    }

  return EXIT_OK;
}
#endif

/* The rows of one side of a comparison: per operator when the run lists
 * them (by name), else per type. */
static GPtrArray *
compare_side_rows (TesReport      *report,
                   TesCompareKey   key,
                   GError        **error)
{
  g_autoptr(GError) each_error = NULL;
  GPtrArray *rows;

  if (key == TES_COMPARE_BY_NAME &&
      (rows = tes_report_summarize (report, TES_SUMMARY_EACH, TES_GROUP_BY_NAME, &each_error)))
    return rows;

  return tes_report_summarize (report, TES_SUMMARY_TOTAL,
                               key == TES_COMPARE_BY_TYPE ? TES_GROUP_BY_CATEGORY : TES_GROUP_BY_NAME, error);
}

static char *
compare_value (const TesComparison *comparison,
               TesWorkspace        *workspace,
               double               value)
{
  if (comparison->in_percent)
    return g_strdup_printf ("%.3f %%", value);

  return tes_workspace_format_duration (workspace, (gint64)llround (value));
}

/* tessera-cli compare A B: two runs' operators side by side, largest
 * change first; with --fail-if-slower PCT, exit 1 when the total or an
 * operator holding 1 % or more got slower by more than PCT percent. A and
 * B may each be several files of one run, comma-separated. */
static int
command_compare (int    argc,
                 char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("A B");
  g_autoptr(GError) error = NULL;
  g_autofree char *by = NULL;
  g_autofree char *format = NULL;
  gboolean csv = FALSE, reimport = FALSE;
  double fail_pct = -1;
  GOptionEntry entries[] = {
    { "by", 0, 0, G_OPTION_ARG_STRING, &by, "Match operators by name (default) or by type", "name|type" },
    { "csv", 0, 0, G_OPTION_ARG_NONE, &csv, "Print CSV", NULL },
    { "fail-if-slower", 0, 0, G_OPTION_ARG_DOUBLE, &fail_pct, "Exit 1 when B is slower by more than PCT percent", "PCT" },
    { "format", 0, 0, G_OPTION_ARG_STRING, &format, "Importer to use for every file", "NAME" },
    { "reimport", 0, 0, G_OPTION_ARG_NONE, &reimport, "Import again even if a cache exists", NULL },
    { NULL }
  };
  g_auto(Options) options = { 0 };
  g_autoptr(TesReport) a_report = NULL;
  g_autoptr(TesReport) b_report = NULL;
  g_autoptr(GPtrArray) a_rows = NULL;
  g_autoptr(GPtrArray) b_rows = NULL;
  TesReport **reports[2] = { &a_report, &b_report };
  GPtrArray **rows[2] = { &a_rows, &b_rows };
  g_autoptr(TesComparison) comparison = NULL;
  g_autoptr(TesWorkspace) workspace = NULL;
  g_autoptr(GPtrArray) regressions = NULL;
  TesCompareKey key = TES_COMPARE_BY_NAME;
  gboolean total_slower = FALSE;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return usage_error ("%s", error->message);
  if (argc != 4)
    return usage_error ("compare: give two runs, A and B");
  if (by != NULL && g_str_equal (by, "type"))
    key = TES_COMPARE_BY_TYPE;
  else if (by != NULL && !g_str_equal (by, "name"))
    return usage_error ("--by must be 'name' or 'type', not '%s'", by);

  options.format = g_steal_pointer (&format);
  options.reimport = reimport;

  /* a run that cannot be opened is a usage error here: CI scripts tell
   * it apart from a regression */
  for (guint side = 0; side < 2; side++)
    {
      g_auto(GStrv) paths = g_strsplit (argv[2 + side], ",", -1);

      if (!(*reports[side] = open_report ((const char * const *)paths, g_strv_length (paths), &options, &error)) ||
          !(*rows[side] = compare_side_rows (*reports[side], key, &error)))
        {
          fprintf (stderr, "tessera-cli: %s\n", error->message);
          return EXIT_USAGE;
        }
    }

  comparison = tes_compare_rows (a_report, a_rows, b_report, b_rows, key);
  tes_compare_sort_by_impact (comparison);
  workspace = tes_workspace_new (a_report);

  if (csv)
    printf ("a_name,a_type,b_name,b_type,a_%s,b_%s,delta,delta_percent\n",
            comparison->in_percent ? "share" : "ns", comparison->in_percent ? "share" : "ns");
  else
    {
      g_autofree char *a_total = compare_value (comparison, workspace, comparison->a_total);
      g_autofree char *b_total = compare_value (comparison, workspace, comparison->b_total);

      printf ("A: %s  total %s\nB: %s  total %s\n\n", argv[2], a_total, argv[3], b_total);
      /* "Δ" takes two bytes and one column: one more byte of width */
      printf ("%-32s %14s %14s %15s %10s\n", "Operator", "A", "B", "Δ", "Δ %");
    }

  for (guint i = 0; i < comparison->rows->len; i++)
    {
      const TesCompareRow *row = &g_array_index (comparison->rows, TesCompareRow, i);
      const TesSummaryRow *either = row->a ? row->a : row->b;

      if (csv)
        {
          print_csv_field (row->a ? row->a->label : NULL);
          putchar (',');
          print_csv_field (row->a ? row->a->type : NULL);
          putchar (',');
          print_csv_field (row->b ? row->b->label : NULL);
          putchar (',');
          print_csv_field (row->b ? row->b->type : NULL);
          putchar (',');
          if (row->a)
            printf ("%.3f", row->a_value);
          putchar (',');
          if (row->b)
            printf ("%.3f", row->b_value);
          printf (",%.3f,", row->delta);
          if (!isnan (row->delta_pct))
            printf ("%.2f", row->delta_pct);
          putchar ('\n');
        }
      else
        {
          g_autofree char *a = row->a ? compare_value (comparison, workspace, row->a_value) : g_strdup ("—");
          g_autofree char *b = row->b ? compare_value (comparison, workspace, row->b_value) : g_strdup ("—");
          g_autofree char *delta = compare_value (comparison, workspace, row->delta);
          g_autofree char *pct = row->b == NULL ? g_strdup ("removed")
                                 : row->a == NULL ? g_strdup ("added")
                                 : isnan (row->delta_pct) ? g_strdup ("")
                                 : g_strdup_printf ("%+.1f", row->delta_pct);
          printf ("%-32s %14s %14s %14s %9s\n", either->label ? either->label : either->name, a, b, delta, pct);
        }
    }

  if (fail_pct < 0)
    return EXIT_OK;

  regressions = tes_compare_regressions (comparison, fail_pct, 1.0, &total_slower);
  if (total_slower)
    fprintf (stderr, "tessera-cli: the total got slower by more than %g %%\n", fail_pct);
  for (guint i = 0; i < regressions->len; i++)
    {
      const TesCompareRow *row = g_ptr_array_index (regressions, i);

      fprintf (stderr, "tessera-cli: %s got slower by %.1f %%\n", row->b->label ? row->b->label : row->b->name,
               row->delta_pct);
    }

  return total_slower || regressions->len > 0 ? EXIT_BAD_INPUT : EXIT_OK;
}

/* "report" for the report's first histogram, "report.N" for the next,
 * as its info keys are numbered; "per-tile" for Tessera's binning. */
static char *
histogram_source (guint histogram)
{
  if (histogram == 0)
    return g_strdup ("per-tile");
  if (histogram == 1)
    return g_strdup ("report");
  return g_strdup_printf ("report.%u", histogram);
}

static void
print_histogram (const TesTileHistogramBin *bins,
                 guint                      n_bins,
                 gboolean                   csv)
{
  for (guint b = 0; b < n_bins; b++)
    {
      const TesTileHistogramBin *bin = &bins[b];
      g_autofree char *source = histogram_source (bin->histogram);

      if (!csv && (b == 0 || bin->histogram != bins[b - 1].histogram || bin->ipu != bins[b - 1].ipu))
        {
          g_autofree char *ipu = bin->ipu >= 0 ? g_strdup_printf (", IPU %d", bin->ipu) : g_strdup ("");

          if (bin->histogram == 0)
            printf ("Histogram (binned from the per-tile totals, %" G_GINT64_FORMAT " KB bins%s):\n",
                    (bin->upper - bin->lower) / 1024, ipu);
          else if (bin->histogram == 1)
            printf ("Histogram (printed by the report%s):\n", ipu);
          else
            printf ("Histogram %u (printed by the report%s):\n", bin->histogram, ipu);
          printf ("  %10s %10s %10s\n", "lower KB", "upper KB", "tiles");
        }

      if (csv)
        {
          printf ("bin,%s,", source);
          if (bin->ipu >= 0)
            printf ("%d", bin->ipu);
          printf (",,%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",\n",
                  bin->lower / 1024, bin->upper / 1024, bin->tiles);
          continue;
        }

      printf ("  %10" G_GINT64_FORMAT " %10" G_GINT64_FORMAT " %10" G_GINT64_FORMAT "\n",
              bin->lower / 1024, bin->upper / 1024, bin->tiles);
    }
}

static void
print_histogram_mismatches (GArray   *mismatches,
                            guint     n_checked,
                            gboolean  csv)
{
  if (!csv && mismatches->len == 0)
    printf ("The per-tile totals of all %u tiles agree with the printed histogram.\n", n_checked);

  for (guint i = 0; i < mismatches->len; i++)
    {
      const TesTileHistogramMismatch *m = &g_array_index (mismatches, TesTileHistogramMismatch, i);

      if (csv)
        {
          printf ("mismatch,per-tile,,,");
          if (m->lower >= 0)
            printf ("%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT, m->lower / 1024, m->upper / 1024);
          else
            putchar (',');
          printf (",%" G_GINT64_FORMAT ",\n", m->binned);
        }
      else if (m->lower >= 0)
        printf ("Mismatch: %" G_GINT64_FORMAT " - %" G_GINT64_FORMAT " KB: the report prints %" G_GINT64_FORMAT
                " tiles, the per-tile totals put %" G_GINT64_FORMAT " there\n",
                m->lower / 1024, m->upper / 1024, m->printed, m->binned);
      else
        printf ("Mismatch: the per-tile totals of %" G_GINT64_FORMAT " tiles fall in no printed bin\n", m->binned);
    }
}

/* tessera-cli memory: the tile histogram (the report's, checked against
 * the per-tile totals when both exist; else binned from those), the tiles
 * out of memory and the heaviest tiles. */
static void
print_memory_summary (TesReport *report,
                      GArray    *tiles,
                      GArray    *printed,
                      gboolean   csv)
{
  const TesTile *all = (const TesTile *)(gpointer)tiles->data;
  g_autoptr(GArray) heaviest = tes_tiles_heaviest (all, tiles->len, 5);
  g_autofree char *printed_oom = tes_report_lookup_info (report, "memory.by_tile.tiles_out_of_memory");
  gboolean limits = tiles->len > 0;
  gboolean every_tile;
  guint n_known = 0;
  guint oom;

  for (guint i = 0; i < tiles->len; i++)
    {
      n_known += all[i].has_memory;
      limits &= all[i].memory_limit > 0;
    }
  every_tile = tiles->len > 0 && n_known == tiles->len;

  if (csv)
    printf ("record,source,ipu,tile,lower_kb,upper_kb,tiles,bytes\n");

  if (printed->len > 0)
    {
      print_histogram ((const TesTileHistogramBin *)(gpointer)printed->data, printed->len, csv);
      if (every_tile)
        {
          g_autoptr(GArray) mismatches = tes_tile_histogram_check ((const TesTileHistogramBin *)(gpointer)printed->data,
                                                                   printed->len, all, tiles->len);

          print_histogram_mismatches (mismatches, tiles->len, csv);
        }
      else if (!csv)
        printf ("Not checked against the tiles: %u of %u have their bytes (the size -A listing has them all).\n",
                n_known, tiles->len);
    }
  else
    {
      g_autoptr(GArray) binned = tes_tile_histogram_from_tiles (all, tiles->len, -1);

      print_histogram ((const TesTileHistogramBin *)(gpointer)binned->data, binned->len, csv);
    }

  /* the count from the tiles when every tile has its bytes and limit,
   * the report's own beside it */
  oom = tes_tiles_count_out_of_memory (all, tiles->len);
  if (csv)
    {
      if (printed_oom != NULL)
        printf ("out_of_memory,report,,,,,%s,\n", printed_oom);
      if (every_tile && limits)
        printf ("out_of_memory,per-tile,,,,,%u,\n", oom);
    }
  else if (every_tile && limits)
    {
      printf ("Tiles out of memory: %u of %u\n", oom, tiles->len);
      if (printed_oom != NULL && g_ascii_strtoll (printed_oom, NULL, 10) != oom)
        printf ("Mismatch: the report prints %s tiles out of memory, the per-tile totals give %u\n", printed_oom, oom);
    }
  else if (printed_oom != NULL)
    printf ("Tiles out of memory: %s (as the report prints it)\n", printed_oom);
  else
    printf ("Tiles out of memory: unknown (%s)\n",
            limits ? "not every tile's bytes are known" : "no per-tile memory limit: the compile report's Target gives it");

  if (!csv && heaviest->len > 0)
    {
      if (every_tile)
        printf ("Heaviest tiles:\n");
      else
        printf ("Heaviest tiles (of those whose bytes the report details):\n");
      printf ("  %5s %6s %12s\n", "IPU", "tile", "bytes");
    }
  for (guint i = 0; i < heaviest->len; i++)
    {
      const TesTile *tile = &g_array_index (heaviest, TesTile, i);

      if (csv)
        printf ("top,per-tile,%d,%d,,,,%" G_GINT64_FORMAT "\n", tile->ipu, tile->tile, tile->total_bytes);
      else
        printf ("  %5d %6d %12" G_GINT64_FORMAT "\n", tile->ipu, tile->tile, tile->total_bytes);
    }
}

static gint
compare_categories (gconstpointer a,
                    gconstpointer b,
                    gpointer      user_data)
{
  TesReport *report = user_data;
  guint32 x = *(const guint32 *)a;
  guint32 y = *(const guint32 *)b;
  gboolean x_section = tes_report_get_string (report, x)[0] == '.';
  gboolean y_section = tes_report_get_string (report, y)[0] == '.';

  /* ELF sections, then the report's data types: each in first-seen order,
   * which does not depend on the order the files were given in */
  if (x_section != y_section)
    return x_section ? -1 : 1;
  return (x > y) - (x < y);
}

/* tessera-cli memory --tiles: a row per tile, a column per category. */
static gboolean
print_tile_memory (TesReport *report,
                   GArray    *tiles,
                   gboolean   csv,
                   GError   **error)
{
  g_autoptr(GArray) rows = tes_report_get_tile_memory (report, 0, error);
  g_autoptr(GHashTable) tile_index = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr(GHashTable) category_index = g_hash_table_new (NULL, NULL);
  g_autoptr(GArray) categories = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree gint64 *bytes = NULL;
  g_autofree int *widths = NULL;

  if (rows == NULL)
    return FALSE;

  for (guint i = 0; i < tiles->len; i++)
    g_hash_table_insert (tile_index, &g_array_index (tiles, TesTile, i).id, GUINT_TO_POINTER (i));
  for (guint r = 0; r < rows->len; r++)
    {
      guint32 category = g_array_index (rows, TesTileMemory, r).category;

      if (!g_hash_table_contains (category_index, GUINT_TO_POINTER (category)))
        {
          g_hash_table_add (category_index, GUINT_TO_POINTER (category));
          g_array_append_val (categories, category);
        }
    }
  g_array_sort_with_data (categories, compare_categories, report);
  for (guint c = 0; c < categories->len; c++)
    g_hash_table_insert (category_index, GUINT_TO_POINTER (g_array_index (categories, guint32, c)), GUINT_TO_POINTER (c));

  /* -1: the tile has no row of that category */
  bytes = g_new (gint64, MAX ((gsize)tiles->len * categories->len, 1));
  for (gsize i = 0; i < (gsize)tiles->len * categories->len; i++)
    bytes[i] = -1;
  for (guint r = 0; r < rows->len; r++)
    {
      const TesTileMemory *row = &g_array_index (rows, TesTileMemory, r);
      guint t = GPOINTER_TO_UINT (g_hash_table_lookup (tile_index, &row->tile_id));
      guint c = GPOINTER_TO_UINT (g_hash_table_lookup (category_index, GUINT_TO_POINTER (row->category)));

      bytes[(gsize)t * categories->len + c] = row->bytes;
    }

  widths = g_new (int, MAX (categories->len, 1));
  if (csv)
    printf ("ipu,tile,total_bytes");
  else
    printf ("%5s %6s %12s", "IPU", "tile", "total bytes");
  for (guint c = 0; c < categories->len; c++)
    {
      const char *name = tes_report_get_string (report, g_array_index (categories, guint32, c));

      widths[c] = MAX ((int)g_utf8_strlen (name, -1), 10);
      if (csv)
        {
          putchar (',');
          print_csv_field (name);
        }
      else
        printf (" %*s", widths[c], name);
    }
  putchar ('\n');

  for (guint t = 0; t < tiles->len; t++)
    {
      const TesTile *tile = &g_array_index (tiles, TesTile, t);
      g_autoptr(GString) line = g_string_new (NULL);

      if (!tile->has_memory)
        continue;
      if (csv)
        g_string_printf (line, "%d,%d,%" G_GINT64_FORMAT, tile->ipu, tile->tile, tile->total_bytes);
      else
        g_string_printf (line, "%5d %6d %12" G_GINT64_FORMAT, tile->ipu, tile->tile, tile->total_bytes);
      for (guint c = 0; c < categories->len; c++)
        {
          gint64 v = bytes[(gsize)t * categories->len + c];

          if (csv && v >= 0)
            g_string_append_printf (line, ",%" G_GINT64_FORMAT, v);
          else if (csv)
            g_string_append_c (line, ',');
          else if (v >= 0)
            g_string_append_printf (line, " %*" G_GINT64_FORMAT, widths[c], v);
          else
            g_string_append_printf (line, " %*s", widths[c], "");
        }
      /* text: no blanks after a tile's last category */
      puts (csv ? line->str : g_strchomp (line->str));
    }

  return TRUE;
}

static int
command_memory (int    argc,
                char **argv)
{
  g_auto(Options) options = { 0 };
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GArray) tiles = NULL;
  g_autoptr(GArray) printed = NULL;
  g_autoptr(GError) error = NULL;
  const char * const *paths = NULL;
  gboolean any_memory = FALSE;
  guint n_paths = 0;
  int status;

  if ((status = parse_command_line ("memory", &argc, &argv, &options, FALSE, FALSE, FALSE, &paths, &n_paths)) != EXIT_OK)
    return status;

  if (!(report = open_report (paths, n_paths, &options, &error)))
    return report_error (error);

  if (!(tiles = tes_report_get_tiles (report, &error)) || !(printed = tes_report_get_tile_histogram (report, &error)))
    return input_error (error);

  for (guint i = 0; i < tiles->len; i++)
    any_memory |= g_array_index (tiles, TesTile, i).has_memory;
  if (!any_memory && (options.tiles || printed->len == 0))
    {
      fprintf (stderr, "tessera-cli: %s: no memory per tile (a Poplar compile report or size -A listing has it)\n",
               paths[0]);
      return EXIT_BAD_INPUT;
    }

  if (!options.tiles)
    print_memory_summary (report, tiles, printed, options.csv);
  else if (!print_tile_memory (report, tiles, options.csv, &error))
    return input_error (error);

  return EXIT_OK;
}

/* tessera-cli tiles: each tile's cycles by state over the BSP steps that
 * start in --range (all by default). */
static int
command_tiles (int    argc,
               char **argv)
{
  g_auto(Options) options = { 0 };
  g_autoptr(TesReport) report = NULL;
  g_autoptr(TesWorkspace) workspace = NULL;
  g_autoptr(GArray) activity = NULL;
  g_autoptr(GError) error = NULL;
  const char * const *paths = NULL;
  gint64 t0 = G_MININT64, t1 = G_MAXINT64;
  guint n_paths = 0;
  int status;

  if ((status = parse_command_line ("tiles", &argc, &argv, &options, FALSE, FALSE, FALSE, &paths, &n_paths)) != EXIT_OK)
    return status;

  if (!(report = open_report (paths, n_paths, &options, &error)))
    return report_error (error);

  workspace = tes_workspace_new (report);
  if (options.range != NULL && !tes_workspace_parse_range (workspace, options.range, &t0, &t1, &error))
    return usage_error ("tiles: --range %s", error->message);

  if (!(activity = tes_report_get_tile_activity (report, t0, t1, &error)))
    return input_error (error);
  if (activity->len == 0)
    {
      fprintf (stderr, "tessera-cli: %s: no BSP steps (a Poplar tile execution trace has them)\n", paths[0]);
      return EXIT_BAD_INPUT;
    }

  if (options.csv)
    printf ("ipu,tile,compute,exchange,sync,idle\n");
  else
    printf ("%5s %6s %12s %12s %12s %12s\n", "IPU", "tile", "compute", "exchange", "sync", "idle");

  for (guint i = 0; i < activity->len; i++)
    {
      const TesTileActivity *row = &g_array_index (activity, TesTileActivity, i);

      const gint64 *cycles = row->cycles;

      if (options.csv)
        printf ("%d,%d,%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "\n",
                row->ipu, row->tile, cycles[TES_TILE_STATE_COMPUTE], cycles[TES_TILE_STATE_EXCHANGE],
                cycles[TES_TILE_STATE_SYNC], cycles[TES_TILE_STATE_IDLE]);
      else
        printf ("%5d %6d %12" G_GINT64_FORMAT " %12" G_GINT64_FORMAT " %12" G_GINT64_FORMAT " %12" G_GINT64_FORMAT "\n",
                row->ipu, row->tile, cycles[TES_TILE_STATE_COMPUTE], cycles[TES_TILE_STATE_EXCHANGE],
                cycles[TES_TILE_STATE_SYNC], cycles[TES_TILE_STATE_IDLE]);
    }

  return EXIT_OK;
}

static int
command_formats (int    argc,
                 char **argv)
{
  g_autofree char *text = NULL;

  if (argc > 2)
    return usage_error ("formats takes no arguments");

  text = tes_importer_registry_describe ();
  fputs (text, stdout);
  return EXIT_OK;
}

int
main (int    argc,
      char **argv)
{
  static const struct {
    const char *name;
    int (*run) (int, char **);
  } commands[] = {
    { "info", command_info },
    { "summary", command_summary },
    { "compare", command_compare },
    { "memory", command_memory },
    { "tiles", command_tiles },
#ifdef TES_HAVE_WIDGETS
    { "render", command_render },
#endif
    { "formats", command_formats },
  };

  setlocale (LC_ALL, "");
  /* Numbers are printed as the vendors print them, whatever the locale. */
  setlocale (LC_NUMERIC, "C");
  g_set_prgname ("tessera-cli");

  if (argc < 2)
    return usage_error ("missing COMMAND");

  if (g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h") || g_str_equal (argv[1], "help"))
    {
      fputs (usage_text, stdout);
      return EXIT_OK;
    }

  if (g_str_equal (argv[1], "--version"))
    {
      printf ("tessera-cli %s\n", PACKAGE_VERSION);
      return EXIT_OK;
    }

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (g_str_equal (argv[1], commands[i].name))
      {
        int status = commands[i].run (argc, argv);
        fflush (stdout);
        return status;
      }

  return usage_error ("unknown command '%s'", argv[1]);
}
