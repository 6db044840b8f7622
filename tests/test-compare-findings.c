/* test-compare-findings.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "tes-compare-section.h"
#include "tes-compare-window.h"
#include "tes-insights-section.h"
#include "tes-memory-section.h"
#include "tes-row-item.h"
#include "tes-summary-section.h"
#include "tes-test-util.h"
#include "tes-trace-section.h"
#include "tes-ui-test-util.h"
#include "test-insights-util.h"

/* The two runs' findings in the compare window. A real PyTorch profiler
 * trace (tests/data/kineto/nccl_data.json.gz) against a copy in which one
 * operator's kernels take twice as long and the last step 30 % longer
 * (gen-compare-runs.py); a Poplar run (gen-poplar-tiles.py) against a copy
 * whose listing grows a tile past its limit. The compare window lists what
 * `tessera-cli insights A --compare B --json` finds of the two runs, the
 * same findings in the same order; the keyboard moves among them and
 * Enter (or activating one) shows it in run B's report window: the
 * Summary filtered to the operator, the trace over B's step, Memory with
 * the tile. A run against itself: one quiet line, no finding. */

static char *
gen_script (void)
{
  return g_test_build_filename (G_TEST_DIST, "gen-compare-runs.py", NULL);
}

/* gen-compare-runs.py kineto: A and B, and what was planted in B. */
static JsonObject *
write_kineto_runs (char **a_path,
                   char **b_path)
{
  g_autofree char *gen = gen_script ();
  g_autofree char *src = tes_test_data_path ("kineto/nccl_data.json.gz");
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  int status = -1;
  const char *argv[] = { g_getenv ("PYTHON3"), gen, "kineto", src, NULL, NULL, NULL };

  *a_path = tes_test_tmp_path ("findings-a.json");
  *b_path = tes_test_tmp_path ("findings-b.json");
  argv[4] = *a_path;
  argv[5] = *b_path;
  g_assert_nonnull (argv[0]);
  if (!tes_test_run (argv, &out, &err, &status) || status != 0)
    g_error ("gen-compare-runs.py failed (%d): %s", status, err);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);

  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

/* The CLI's findings of the two runs (area "compare"), in its order: A
 * of one file or two (@a_more), B of files comma-separated. */
static GPtrArray *
cli_findings (JsonParser *parser,
              const char *a,
              const char *a_more,
              const char *b)
{
  g_auto(TesCliResult) r = { 0 };
  g_autoptr(GError) error = NULL;
  GPtrArray *found = g_ptr_array_new ();
  JsonArray *all;

  tes_test_run_cli (&r, "insights", "--json", "--compare", b, a, a_more, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, r.out, -1, &error));
  g_assert_no_error (error);
  all = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "findings");
  for (guint i = 0; i < json_array_get_length (all); i++)
    {
      JsonObject *f = json_array_get_object_element (all, i);

      if (g_str_equal (json_object_get_string_member (f, "area"), "compare"))
        g_ptr_array_add (found, f);
    }

  return found;
}

/* A figure of the evidence as the CLI wrote it and as the window has it. */
static void
assert_same_value (const char *key,
                   JsonNode   *json,
                   GVariant   *value)
{
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_STRING))
    g_assert_cmpstr (json_node_get_string (json), ==, g_variant_get_string (value, NULL));
  else if (g_variant_is_of_type (value, G_VARIANT_TYPE_INT64))
    g_assert_cmpint (json_node_get_int (json), ==, g_variant_get_int64 (value));
  else if (g_variant_is_of_type (value, G_VARIANT_TYPE_DOUBLE))
    g_assert_cmpfloat (json_node_get_double (json), ==, g_variant_get_double (value));
  else if (g_variant_is_of_type (value, G_VARIANT_TYPE ("aa{sv}")))
    {
      JsonArray *list = json_node_get_array (json);

      g_assert_cmpuint (json_array_get_length (list), ==, g_variant_n_children (value));
      for (guint i = 0; i < json_array_get_length (list); i++)
        {
          g_autoptr(GVariant) item = g_variant_get_child_value (value, i);
          JsonObject *object = json_array_get_object_element (list, i);
          GVariantIter iter;
          const char *k;
          GVariant *v;

          g_assert_cmpuint (json_object_get_size (object), ==, g_variant_n_children (item));
          g_variant_iter_init (&iter, item);
          while (g_variant_iter_next (&iter, "{&sv}", &k, &v))
            {
              assert_same_value (k, json_object_get_member (object, k), v);
              g_variant_unref (v);
            }
        }
    }
  else
    g_error ("%s: an evidence of type %s", key, g_variant_get_type_string (value));
}

/* The window's findings are the CLI's: kind, cost, share, sentence, every
 * figure of the evidence and the target in B, in the CLI's order. */
static void
assert_same_findings (GPtrArray *cli,
                      GPtrArray *insights,
                      TesReport *b)
{
  gint64 b_origin = 0;

  tes_report_get_span (b, 0, &b_origin, NULL);
  g_assert_cmpuint (insights->len, ==, cli->len);
  for (guint i = 0; i < cli->len; i++)
    {
      JsonObject *f = g_ptr_array_index (cli, i);
      JsonObject *evidence = json_object_get_object_member (f, "evidence");
      JsonObject *target = json_object_get_object_member (f, "target");
      const TesInsight *insight = g_ptr_array_index (insights, i);
      GVariantIter iter;
      const char *key;
      GVariant *value;

      g_assert_cmpuint (insight->rank, ==, i + 1);
      g_assert_cmpstr (tes_insight_kind_get_name (insight->kind), ==, json_object_get_string_member (f, "kind"));
      g_assert_cmpfloat (insight->cost, ==, json_object_get_double_member (f, "cost"));
      g_assert_cmpstr (tes_insight_unit_get_name (insight->cost_unit), ==, json_object_get_string_member (f, "cost_unit"));
      g_assert_cmpfloat (insight->share, ==, json_object_get_double_member (f, "share_percent"));
      g_assert_cmpstr (insight->sentence, ==, json_object_get_string_member (f, "sentence"));
      g_assert_cmpuint (json_object_get_size (evidence), ==, g_variant_n_children (insight->evidence));
      g_variant_iter_init (&iter, insight->evidence);
      while (g_variant_iter_next (&iter, "{&sv}", &key, &value))
        {
          g_assert_true (json_object_has_member (evidence, key));
          assert_same_value (key, json_object_get_member (evidence, key), value);
          g_variant_unref (value);
        }
      g_assert_cmpstr (json_object_get_string_member (target, "run"), ==, "b");
      g_assert_true (insight->target.in_b);
      g_assert_cmpstr (insight->target.view, ==, json_object_get_string_member (target, "view"));
      if (insight->target.has_range)
        {
          g_assert_cmpint (insight->target.start_ns - b_origin, ==, json_object_get_int_member (target, "start_ns"));
          g_assert_cmpint (insight->target.end_ns - b_origin, ==, json_object_get_int_member (target, "end_ns"));
        }
      else
        g_assert_true (json_node_is_null (json_object_get_member (target, "start_ns")));
      if (insight->target.tile >= 0)
        g_assert_cmpint (insight->target.tile, ==, json_object_get_int_member (target, "tile"));
    }
}

static gboolean
findings_computed (gpointer data)
{
  TesCompareSection *section = tes_compare_window_get_section (data);

  return section != NULL && tes_compare_section_get_insights (section) != NULL;
}

/* The compare window over two runs of @n_files files each, their findings
 * computed. */
static TesCompareWindow *
open_compare (const char * const *a_paths,
              const char * const *b_paths)
{
  TesCompareWindow *window = tes_compare_window_new (NULL);
  g_autoptr(GPtrArray) a_files = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) b_files = g_ptr_array_new_with_free_func (g_object_unref);
  TesCompareSection *section;

  for (guint i = 0; a_paths[i] != NULL; i++)
    g_ptr_array_add (a_files, g_file_new_for_path (a_paths[i]));
  for (guint i = 0; b_paths[i] != NULL; i++)
    g_ptr_array_add (b_files, g_file_new_for_path (b_paths[i]));
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 900);
  gtk_window_present (GTK_WINDOW (window));
  tes_compare_window_open_runs (window, NULL, a_files, b_files, NULL);
  /* two imports, then the findings over both */
  tes_ui_test_wait_longer_until (findings_computed, window, "the two runs' findings", 4);
  section = tes_compare_window_get_section (window);
  g_assert_cmpuint (g_list_model_get_n_items (tes_compare_section_get_finding_rows (section)), ==,
                    tes_compare_section_get_insights (section)->len);

  return window;
}

static const TesInsightRow *
finding_row (TesCompareSection *section,
             guint              position)
{
  g_autoptr(TesRowItem) item = g_list_model_get_item (tes_compare_section_get_finding_rows (section), position);

  g_assert_nonnull (item);
  return tes_row_item_get (item);
}

static int
find_kind (TesCompareSection *section,
           TesInsightKind     kind)
{
  GPtrArray *insights = tes_compare_section_get_insights (section);

  for (guint i = 0; i < insights->len; i++)
    if (((const TesInsight *)g_ptr_array_index (insights, i))->kind == kind)
      return (int)i;

  return -1;
}

/* The focus on the findings' row @position, which reads as that finding. */
static void
assert_focus_is_row (GtkWindow         *window,
                     TesCompareSection *section,
                     guint              position)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));
  g_autofree char *found = NULL;

  g_assert_nonnull (focus);
  g_assert_true (gtk_widget_is_ancestor (focus, GTK_WIDGET (tes_compare_section_get_findings_list (section))));
  found = gtk_test_accessible_check_property (GTK_ACCESSIBLE (focus), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                              finding_row (section, position)->accessible);
  if (found != NULL)
    g_error ("The focused finding reads “%s”, not finding %u", found, position + 1);
}

/* Run B's report window once a finding showed there. */
static TesWindow *
finding_window (TesCompareWindow *compare)
{
  GtkWindow *window = tes_compare_window_get_finding_window (compare);

  g_assert_nonnull (window);
  g_assert_true (TES_IS_WINDOW (window));
  g_assert_true (tes_window_get_report (TES_WINDOW (window)) == tes_compare_window_get_report (compare, 1));

  return TES_WINDOW (window);
}

static void
test_compare_findings_kineto (void)
{
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  g_autoptr(JsonObject) planted = write_kineto_runs (&a, &b);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GPtrArray) cli = cli_findings (parser, a, NULL, b);
  const char *a_paths[] = { a, NULL }, *b_paths[] = { b, NULL };
  TesCompareWindow *compare = open_compare (a_paths, b_paths);
  TesCompareSection *section = tes_compare_window_get_section (compare);
  GPtrArray *insights = tes_compare_section_get_insights (section);
  const char *op = json_object_get_string_member (planted, "operator");
  GtkWidget *list = GTK_WIDGET (tes_compare_section_get_findings_list (section));
  TesWindow *b_window;
  GtkStack *sections;
  TesWorkspace *workspace;
  const TesInsight *insight;
  int position;
  gint64 start, end;

  /* the planted regressions: the operator, the operators' total, the step */
  g_assert_cmpuint (cli->len, >=, 3);
  assert_same_findings (cli, insights, tes_compare_window_get_report (compare, 1));
  tes_test_assert_contains (tes_compare_section_get_findings_headline (section), "findings of B against A");
  g_assert_true (gtk_widget_get_visible (gtk_widget_get_parent (list)));
  /* every row is about two runs, in a window of two runs: no area said */
  for (guint i = 0; i < insights->len; i++)
    {
      const TesInsightRow *row = finding_row (section, i);
      g_autofree char *head = g_strdup_printf ("%s · %s", row->cost, row->share);

      g_assert_cmpstr (row->head, ==, head);
    }

  /* the keyboard: Down and Up from finding to finding, each read whole */
  tes_ui_test_wait_for_stable_size (GTK_WIDGET (section));
  g_assert_true (gtk_widget_grab_focus (list));
  assert_focus_is_row (GTK_WINDOW (compare), section, 0);
  tes_test_press_key (gtk_root_get_focus (GTK_ROOT (compare)), GDK_KEY_Down);
  assert_focus_is_row (GTK_WINDOW (compare), section, 1);
  tes_test_press_key (gtk_root_get_focus (GTK_ROOT (compare)), GDK_KEY_Up);
  assert_focus_is_row (GTK_WINDOW (compare), section, 0);

  /* Enter on the operator's regression (the costliest): B's Summary, to
   * the operator alone */
  insight = g_ptr_array_index (insights, 0);
  g_assert_cmpint (insight->kind, ==, TES_INSIGHT_REGRESSION);
  g_assert_cmpstr (insight->target.operator_name, ==, op);
  tes_test_press_key (gtk_root_get_focus (GTK_ROOT (compare)), GDK_KEY_Return);
  b_window = finding_window (compare);
  tes_ui_test_wait_for_page (b_window, "report");
  sections = tes_window_get_sections (b_window);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (sections), ==, "TesSummarySection");
  {
    TesSummarySection *summary = TES_SUMMARY_SECTION (gtk_stack_get_visible_child (sections));
    GListModel *rows;

    while (tes_summary_section_is_loading (summary))
      tes_ui_test_spin (20);
    rows = tes_summary_section_get_rows (summary);
    g_assert_cmpuint (g_list_model_get_n_items (rows), >=, 1);
    for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
      {
        g_autoptr(TesRowItem) item = g_list_model_get_item (rows, i);
        const TesSummaryRow *row = tes_row_item_get (item);

        g_assert_true (g_strcmp0 (row->name, op) == 0 || g_strcmp0 (row->label, op) == 0);
      }
  }

  /* the step: B's trace over it, the step's run chosen; the same window */
  position = find_kind (section, TES_INSIGHT_STEP_REGRESSION);
  g_assert_cmpint (position, >=, 0);
  insight = g_ptr_array_index (insights, position);
  tes_test_assert_contains (insight->sentence, json_object_get_string_member (planted, "step"));
  g_assert_true (insight->target.has_range && insight->target.run_id > 0);
  tes_compare_section_activate_finding (section, position);
  g_assert_true (finding_window (compare) == b_window);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (sections), ==, "TesTraceSection");
  workspace = tes_window_get_workspace (b_window);
  g_assert_true (tes_workspace_get_selection (workspace, &start, &end));
  g_assert_cmpint (start, ==, insight->target.start_ns);
  g_assert_cmpint (end, ==, insight->target.end_ns);
  tes_workspace_get_visible (workspace, &start, &end);
  g_assert_cmpint (start, ==, insight->target.start_ns);
  g_assert_cmpint (end, ==, insight->target.end_ns);
  g_assert_cmpint (tes_workspace_get_run (workspace), ==, insight->target.run_id);
  /* and the compare window's own traces move to B's step (as far as A,
   * linked, has room for it) */
  tes_workspace_get_visible (tes_trace_view_get_workspace (tes_compare_section_get_trace (section, 1)), &start, &end);
  g_assert_cmpint (start, <=, insight->target.start_ns);
  g_assert_cmpint (end, >, insight->target.start_ns);

  /* closed, it is gone (the compare window holds it weakly) */
  tes_ui_test_close_window (g_object_ref (b_window));
  g_assert_null (tes_compare_window_get_finding_window (compare));
  gtk_window_destroy (GTK_WINDOW (compare));
}

static void
test_compare_findings_memory (void)
{
  g_auto(GStrv) a_run = generate_insights_run ("findings-mem-a", FALSE);
  g_autofree char *a_dir = g_path_get_dirname (a_run[0]);
  g_autofree char *b_dir = tes_test_tmp_path ("findings-mem-b");
  g_autofree char *gen = gen_script ();
  g_autofree char *b_report = g_build_filename (b_dir, "compile_report.txt", NULL);
  g_autofree char *b_listing = g_build_filename (b_dir, "archive_size.txt", NULL);
  g_autofree char *b_arg = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GPtrArray) cli = NULL;
  const char *argv[] = { g_getenv ("PYTHON3"), gen, "poplar", a_dir, b_dir, NULL };
  const char *a_paths[] = { a_run[0], a_run[1], NULL }, *b_paths[] = { b_report, b_listing, NULL };
  TesCompareWindow *compare;
  TesCompareSection *section;
  const TesInsight *insight;
  TesWindow *b_window;
  TesMemorySection *memory;
  int status = -1, position, selected;

  if (!tes_test_run (argv, &out, &err, &status) || status != 0)
    g_error ("gen-compare-runs.py failed (%d): %s", status, err);
  b_arg = g_strjoin (",", b_report, b_listing, NULL);
  cli = cli_findings (parser, a_run[0], a_run[1], b_arg);
  compare = open_compare (a_paths, b_paths);
  section = tes_compare_window_get_section (compare);
  assert_same_findings (cli, tes_compare_section_get_insights (section), tes_compare_window_get_report (compare, 1));

  /* tile 3 of IPU 0, newly over its limit in B: Memory of B, the tile chosen */
  position = find_kind (section, TES_INSIGHT_MEMORY_CHANGE);
  g_assert_cmpint (position, ==, 0);
  insight = g_ptr_array_index (tes_compare_section_get_insights (section), position);
  g_assert_cmpint (insight->target.ipu, ==, 0);
  g_assert_cmpint (insight->target.tile, ==, 3);
  tes_compare_section_activate_finding (section, position);
  b_window = finding_window (compare);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (tes_window_get_sections (b_window)), ==, "TesMemorySection");
  g_assert_cmpint (tes_workspace_get_ipu (tes_window_get_workspace (b_window)), ==, 0);
  g_assert_cmpint (tes_workspace_get_tile (tes_window_get_workspace (b_window)), ==, 3);
  memory = TES_MEMORY_SECTION (gtk_stack_get_visible_child (tes_window_get_sections (b_window)));
  while (tes_memory_section_get_model (memory) == NULL)
    tes_ui_test_spin (20);
  selected = tes_memory_section_get_selected_tile (memory);
  g_assert_cmpint (selected, >=, 0);
  g_assert_cmpint (g_array_index (tes_memory_section_get_model (memory)->tiles, TesTile, selected).ipu, ==, 0);
  g_assert_cmpint (g_array_index (tes_memory_section_get_model (memory)->tiles, TesTile, selected).tile, ==, 3);

  /* closed, it is gone (the compare window holds it weakly) */
  tes_ui_test_close_window (g_object_ref (b_window));
  g_assert_null (tes_compare_window_get_finding_window (compare));
  gtk_window_destroy (GTK_WINDOW (compare));
}

/* A run against itself: one quiet line, no list, and the CLI agrees. */
static void
test_compare_findings_clean (void)
{
  g_autofree char *src = tes_test_data_path ("kineto/mi250_minitoy_train_ROCm6_2_kineto.json.gz");
  g_autofree char *a = tes_test_copy_to_tmp (src, "findings-same-a.json.gz");
  g_autofree char *b = tes_test_copy_to_tmp (src, "findings-same-b.json.gz");
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GPtrArray) cli = cli_findings (parser, a, NULL, b);
  const char *a_paths[] = { a, NULL }, *b_paths[] = { b, NULL };
  TesCompareWindow *compare = open_compare (a_paths, b_paths);
  TesCompareSection *section = tes_compare_window_get_section (compare);
  g_autofree char *quiet = tes_compare_findings_headline (tes_compare_section_get_insights (section));

  g_assert_cmpuint (cli->len, ==, 0);
  g_assert_cmpuint (tes_compare_section_get_insights (section)->len, ==, 0);
  g_assert_cmpstr (tes_compare_section_get_findings_headline (section), ==, quiet);
  g_assert_true (g_str_has_prefix (quiet, "No findings"));
  g_assert_false (gtk_widget_get_visible (gtk_widget_get_parent (
    GTK_WIDGET (tes_compare_section_get_findings_list (section)))));
  g_assert_null (tes_compare_window_get_finding_window (compare));

  gtk_window_destroy (GTK_WINDOW (compare));
}

int
main (int   argc,
      char *argv[])
{
  tes_ui_test_init (&argc, &argv);

  tes_ui_test_add ("/tes/compare-findings/kineto", test_compare_findings_kineto);
  tes_ui_test_add ("/tes/compare-findings/memory", test_compare_findings_memory);
  tes_ui_test_add ("/tes/compare-findings/clean", test_compare_findings_clean);

  return tes_ui_test_run ();
}
