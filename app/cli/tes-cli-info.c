/* tes-cli-info.c: tessera-cli info and formats: what a report holds, what Tessera reads
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tessera-cli"

#include "config.h"

#include <stdio.h>

#include <json-glib/json-glib.h>

#include "tes-cli-private.h"
#include "tes-importer-registry.h"

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

int
tes_cli_info (int    argc,
              char **argv)
{
  g_auto(TesCliOptions) options = { 0 };
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &options.json, "Print JSON", NULL },
    { NULL }
  };
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GError) error = NULL;
  const char * const *paths = NULL;
  guint n_paths = 0;
  int status;

  if ((status = tes_cli_parse_command_line ("info", "FILE…", &argc, &argv, &options, entries, &paths, &n_paths)) != TES_CLI_EXIT_OK)
    return status;

  if (!(report = tes_cli_open_report (paths, n_paths, &options, &error)))
    return tes_cli_report_error (error);

  if (options.json)
    print_info_json (report);
  else
    print_info_text (report);

  return TES_CLI_EXIT_OK;
}

int
tes_cli_formats (int    argc,
                 char **argv)
{
  g_autofree char *text = NULL;

  if (argc > 2)
    return tes_cli_usage_error ("formats takes no arguments");

  text = tes_importer_registry_describe ();
  fputs (text, stdout);
  return TES_CLI_EXIT_OK;
}
