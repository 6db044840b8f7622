/* tes-cli-insights.c: tessera-cli insights: where a run's time and memory
 * go wrong, ranked, each with its evidence and where to see it
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tessera-cli"

#include "config.h"

#include <math.h>
#include <stdio.h>

#include <json-glib/json-glib.h>

#include "tes-cli-private.h"
#include "tes-insights.h"
#include "tes-workspace.h"

/* The --json layout's version: docs/insights.md documents it; bumped when
 * a key changes meaning or goes (new keys may come without). */
#define INSIGHTS_JSON_SCHEMA 1

/* A GVariant figure as text (the evidence's scalars). */
static char *
variant_text (GVariant *value)
{
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_INT64))
    return g_strdup_printf ("%" G_GINT64_FORMAT, g_variant_get_int64 (value));
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_DOUBLE))
    {
      double v = g_variant_get_double (value);

      /* whole figures (ns, cycles, bytes) whole; ratios and shares to
       * four significant digits */
      if (v == floor (v) && fabs (v) < 1e15)
        return g_strdup_printf ("%.0f", v);
      return g_strdup_printf (fabs (v) < 1000 ? "%.4g" : "%.1f", v);
    }
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_STRING))
    return g_strdup (g_variant_get_string (value, NULL));
  return g_variant_print (value, FALSE);
}

/* "key=value key=value" of an a{sv}; lists on lines of their own */
static void
print_vardict (GVariant   *dict,
               const char *indent)
{
  GVariantIter iter;
  const char *key;
  GVariant *value;
  g_autoptr(GString) line = g_string_new (NULL);
  g_autoptr(GPtrArray) lists = g_ptr_array_new ();
  g_autoptr(GPtrArray) list_keys = g_ptr_array_new ();

  g_variant_iter_init (&iter, dict);
  while (g_variant_iter_next (&iter, "{&sv}", &key, &value))
    {
      if (g_variant_is_of_type (value, G_VARIANT_TYPE ("aa{sv}")))
        {
          g_ptr_array_add (list_keys, (gpointer)key);
          g_ptr_array_add (lists, value);
          continue;
        }
      {
        g_autofree char *text = variant_text (value);

        g_string_append_printf (line, "%s%s=%s", line->len ? " " : "", key, text);
      }
      g_variant_unref (value);
    }
  if (line->len > 0)
    printf ("%s%s\n", indent, line->str);

  for (guint i = 0; i < lists->len; i++)
    {
      GVariant *list = g_ptr_array_index (lists, i);
      g_autofree char *deeper = g_strconcat (indent, "  ", NULL);

      printf ("%s%s:\n", indent, (const char *)g_ptr_array_index (list_keys, i));
      for (gsize j = 0; j < g_variant_n_children (list); j++)
        {
          g_autoptr(GVariant) item = g_variant_get_child_value (list, j);

          print_vardict (item, deeper);
        }
      g_variant_unref (list);
    }
}

static char *
selection_text (const TesInsight *insight)
{
  const TesInsightTarget *t = &insight->target;
  g_autoptr(GString) text = g_string_new (NULL);

  if (t->ipu >= 0)
    g_string_append_printf (text, " ipu=%d", t->ipu);
  if (t->tile >= 0)
    g_string_append_printf (text, " tile=%d", t->tile);
  if (t->step >= 0)
    g_string_append_printf (text, " step=%" G_GINT64_FORMAT, t->step);
  if (t->lane != NULL)
    g_string_append_printf (text, " lane=\"%s\"", t->lane);
  if (t->operator_name != NULL)
    g_string_append_printf (text, " operator=\"%s\"", t->operator_name);
  if (t->in_b)
    g_string_append (text, " run=B");

  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
print_text (GPtrArray  *insights,
            TesReport  *a,
            TesReport  *b)
{
  if (insights->len == 0)
    {
      printf ("No findings.\n");
      return;
    }

  for (guint i = 0; i < insights->len; i++)
    {
      const TesInsight *insight = g_ptr_array_index (insights, i);
      g_auto(GStrv) args = tes_insight_dup_render_args (insight, insight->target.in_b ? b : a);
      g_autofree char *joined = g_strjoinv (" ", args);
      g_autofree char *selection = selection_text (insight);

      g_autofree char *cost = tes_insight_format_cost (insight);

      printf ("%u. %s (%s): %s, %.1f %%\n", insight->rank, tes_insight_kind_get_name (insight->kind),
              tes_insight_kind_get_area (insight->kind), cost, insight->share);
      printf ("   %s\n", insight->sentence);
      print_vardict (insight->evidence, "   ");
      printf ("   see: tessera-cli render %s%s%s\n", joined, *selection ? " ; select:" : "", selection);
    }
}

static void
add_optional_int (JsonBuilder *builder,
                  const char  *key,
                  gboolean     present,
                  gint64       value)
{
  json_builder_set_member_name (builder, key);
  if (present)
    json_builder_add_int_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

static void
add_optional_string (JsonBuilder *builder,
                     const char  *key,
                     const char  *value)
{
  json_builder_set_member_name (builder, key);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

static void
add_paths (JsonBuilder        *builder,
           const char         *key,
           const char * const *paths,
           guint               n_paths)
{
  json_builder_set_member_name (builder, key);
  json_builder_begin_array (builder);
  for (guint i = 0; i < n_paths; i++)
    json_builder_add_string_value (builder, paths[i]);
  json_builder_end_array (builder);
}

static void
print_json (GPtrArray                  *insights,
            TesReport                  *a,
            TesReport                  *b,
            const char * const         *paths,
            guint                       n_paths,
            const char                 *compare,
            const TesInsightThresholds *thresholds)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "schema");
  json_builder_add_int_value (builder, INSIGHTS_JSON_SCHEMA);
  add_paths (builder, "files", paths, n_paths);
  json_builder_set_member_name (builder, "compare_files");
  if (compare != NULL)
    {
      g_auto(GStrv) b_paths = g_strsplit (compare, ",", -1);

      json_builder_begin_array (builder);
      for (guint i = 0; b_paths[i] != NULL; i++)
        json_builder_add_string_value (builder, b_paths[i]);
      json_builder_end_array (builder);
    }
  else
    json_builder_add_null_value (builder);

  json_builder_set_member_name (builder, "thresholds");
  json_builder_begin_object (builder);
  for (guint i = 0; i < TES_INSIGHT_N_THRESHOLDS; i++)
    {
      json_builder_set_member_name (builder, tes_insight_threshold_get_info (i)->name);
      json_builder_add_double_value (builder, thresholds->values[i]);
    }
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "findings");
  json_builder_begin_array (builder);
  for (guint i = 0; i < insights->len; i++)
    {
      const TesInsight *insight = g_ptr_array_index (insights, i);
      const TesInsightTarget *t = &insight->target;
      TesReport *report = t->in_b ? b : a;
      g_auto(GStrv) args = tes_insight_dup_render_args (insight, report);
      gint64 origin = 0;

      tes_report_get_span (report, 0, &origin, NULL);
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "rank");
      json_builder_add_int_value (builder, insight->rank);
      json_builder_set_member_name (builder, "kind");
      json_builder_add_string_value (builder, tes_insight_kind_get_name (insight->kind));
      json_builder_set_member_name (builder, "area");
      json_builder_add_string_value (builder, tes_insight_kind_get_area (insight->kind));
      json_builder_set_member_name (builder, "cost");
      json_builder_add_double_value (builder, insight->cost);
      json_builder_set_member_name (builder, "cost_unit");
      json_builder_add_string_value (builder, tes_insight_unit_get_name (insight->cost_unit));
      json_builder_set_member_name (builder, "share_percent");
      json_builder_add_double_value (builder, insight->share);
      json_builder_set_member_name (builder, "sentence");
      json_builder_add_string_value (builder, insight->sentence);
      json_builder_set_member_name (builder, "evidence");
      json_builder_add_value (builder, json_gvariant_serialize (insight->evidence));

      json_builder_set_member_name (builder, "target");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "run");
      json_builder_add_string_value (builder, t->in_b ? "b" : "a");
      json_builder_set_member_name (builder, "view");
      json_builder_add_string_value (builder, t->view != NULL ? t->view : "summary");
      add_optional_int (builder, "ipu", t->ipu >= 0, t->ipu);
      add_optional_int (builder, "tile", t->tile >= 0, t->tile);
      add_optional_int (builder, "step", t->step >= 0, t->step);
      add_optional_int (builder, "start_ns", t->has_range, t->start_ns - origin);
      add_optional_int (builder, "end_ns", t->has_range, t->end_ns - origin);
      add_optional_string (builder, "lane", t->lane);
      add_optional_string (builder, "operator", t->operator_name);
      json_builder_set_member_name (builder, "render_args");
      json_builder_begin_array (builder);
      for (guint j = 0; args[j] != NULL; j++)
        json_builder_add_string_value (builder, args[j]);
      json_builder_end_array (builder);
      json_builder_end_object (builder);

      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  text = json_generator_to_data (generator, NULL);
  puts (text);
}

/* tessera-cli insights [--json] [--compare B] [--threshold NAME=VALUE…]
 * FILE…: the findings, ranked. Exit 0 whatever is found: gating is
 * compare --fail-if-slower's job. */
int
tes_cli_insights (int    argc,
                  char **argv)
{
  g_auto(TesCliOptions) options = { 0 };
  g_autofree char *compare = NULL;
  g_auto(GStrv) assignments = NULL;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &options.json, "Print JSON (docs/insights.md documents it)", NULL },
    { "compare", 0, 0, G_OPTION_ARG_FILENAME, &compare, "Also compare with this run (files comma-separated)", "B" },
    { "threshold", 0, 0, G_OPTION_ARG_STRING_ARRAY, &assignments, "Set a threshold (repeatable; docs/insights.md lists them)", "NAME=VALUE" },
    { NULL }
  };
  g_autoptr(TesReport) report = NULL;
  g_autoptr(TesReport) b_report = NULL;
  g_autoptr(GPtrArray) insights = NULL;
  g_autoptr(GError) error = NULL;
  TesInsightThresholds thresholds;
  const char * const *paths = NULL;
  guint n_paths = 0;
  int status;

  if ((status = tes_cli_parse_command_line ("insights", "FILE…", &argc, &argv, &options, entries, &paths, &n_paths)) != TES_CLI_EXIT_OK)
    return status;

  tes_insight_thresholds_init (&thresholds);
  for (guint i = 0; assignments != NULL && assignments[i] != NULL; i++)
    if (!tes_insight_thresholds_parse (&thresholds, assignments[i], &error))
      return tes_cli_usage_error ("insights: --threshold %s", error->message);

  if (!(report = tes_cli_open_report (paths, n_paths, &options, &error)))
    return tes_cli_report_error (error);
  if (compare != NULL)
    {
      g_auto(GStrv) b_paths = g_strsplit (compare, ",", -1);

      if (!(b_report = tes_cli_open_report ((const char * const *)b_paths, g_strv_length (b_paths), &options, &error)))
        return tes_cli_report_error (error);
    }

  if (!(insights = tes_insights_compute (report, b_report, &thresholds, NULL, &error)))
    return tes_cli_input_error (error);

  if (options.json)
    print_json (insights, report, b_report, paths, n_paths, compare, &thresholds);
  else
    print_text (insights, report, b_report);

  return TES_CLI_EXIT_OK;
}
