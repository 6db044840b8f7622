/* test-insights-model.c: tes_insights_compute() from C: the thresholds
 * against docs/insights.md's table, the async path against the sync one,
 * cancelling, and a qaic core's idle gap planted in a trace written here.
 * (tests/test-insights.py checks every kind through tessera-cli.)
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "tes-importer-registry.h"
#include "tes-insights.h"
#include "tes-test-util.h"

static TesReport *
import (const char *path,
        const char *importer)
{
  g_autoptr(GError) error = NULL;
  TesReport *report = tes_report_import (path, tes_importer_registry_lookup (importer),
                                         TES_REPORT_OPEN_NONE, NULL, NULL, &error);

  g_assert_no_error (error);
  return report;
}

/* Every threshold of the table is in docs/insights.md's, with its default;
 * names parse, and what is not a threshold or not a number is refused. */
static void
test_insights_thresholds (void)
{
  g_autofree char *docs = g_test_build_filename (G_TEST_DIST, "..", "docs", "insights.md", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  TesInsightThresholds t;

  g_assert_true (g_file_get_contents (docs, &text, NULL, &error));
  g_assert_no_error (error);

  tes_insight_thresholds_init (&t);
  for (guint i = 0; i < TES_INSIGHT_N_THRESHOLDS; i++)
    {
      const TesInsightThresholdInfo *info = tes_insight_threshold_get_info (i);
      g_autofree char *row = g_strdup_printf ("| `%s` | %g", info->name, info->value);
      g_autofree char *assignment = g_strdup_printf ("%s=%g", info->name, info->value + 1.5);

      g_assert_nonnull (strstr (text, row));
      g_assert_cmpfloat (t.values[i], ==, info->value);
      g_assert_true (tes_insight_thresholds_parse (&t, assignment, &error));
      g_assert_no_error (error);
      g_assert_cmpfloat (t.values[i], ==, info->value + 1.5);
    }

  g_assert_false (tes_insight_thresholds_parse (&t, "no_such=1", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "sync_share"));
  g_clear_error (&error);
  g_assert_false (tes_insight_thresholds_parse (&t, "sync_share", &error));
  g_clear_error (&error);
  g_assert_false (tes_insight_thresholds_parse (&t, "sync_share=-1", &error));
  g_clear_error (&error);
  g_assert_false (tes_insight_thresholds_parse (&t, "sync_share=nan", &error));
  g_clear_error (&error);
  g_assert_false (tes_insight_thresholds_parse (&t, "sync_share=5x", &error));
  g_clear_error (&error);
  g_assert_false (tes_insight_thresholds_parse (&t, "steps_listed=1e300", &error));
  g_clear_error (&error);
  g_assert_true (tes_insight_thresholds_parse (&t, "steps_listed=0", &error));
  g_assert_no_error (error);

  /* every kind is named, every name in the docs */
  for (guint k = 0; k < TES_INSIGHT_N_KINDS; k++)
    {
      g_autofree char *cell = g_strdup_printf ("`%s`", tes_insight_kind_get_name (k));

      g_assert_nonnull (strstr (text, cell));
    }
}

static void
computed (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  GPtrArray **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = tes_insights_compute_finish (TES_REPORT (source), result, &error);
  g_assert_no_error (error);
}

/* The thread gives what the call gives; a cancelled one gives nothing. */
static void
test_insights_async (void)
{
  g_autofree char *src = tes_test_data_path ("poplar/profile_small.tessera-pop.jsonl");
  g_autofree char *path = tes_test_copy_to_tmp (src, "profile_small.tessera-pop.jsonl");
  g_autoptr(TesReport) report = import (path, "poplar-export");
  g_autoptr(GPtrArray) sync = NULL;
  g_autoptr(GPtrArray) async = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) args = NULL;

  sync = tes_insights_compute (report, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sync->len, >, 0);

  tes_insights_compute_async (report, NULL, NULL, NULL, computed, &async);
  while (async == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (async->len, ==, sync->len);
  for (guint i = 0; i < sync->len; i++)
    {
      const TesInsight *a = g_ptr_array_index (sync, i), *b = g_ptr_array_index (async, i);

      g_assert_cmpint (a->kind, ==, b->kind);
      g_assert_cmpuint (a->rank, ==, i + 1);
      g_assert_cmpfloat (a->cost, ==, b->cost);
      g_assert_cmpstr (a->sentence, ==, b->sentence);
      g_assert_true (g_variant_equal (a->evidence, b->evidence));
    }

  /* tiles 3 and 0 of its four are over the 638,976 bytes: first */
  g_assert_cmpint (((TesInsight *)g_ptr_array_index (sync, 0))->kind, ==, TES_INSIGHT_TILES_OVER_LIMIT);
  args = tes_insight_dup_render_args (g_ptr_array_index (sync, 0), report);
  g_assert_cmpstrv (args, ((const char * const[]){ "--view", "memory-tiles", NULL }));
  {
    g_autoptr(TesWorkspace) workspace = tes_workspace_new (report);

    /* activating it selects the tile furthest over: tile 3 of IPU 0 */
    tes_insight_apply (g_ptr_array_index (sync, 0), workspace);
    g_assert_cmpint (tes_workspace_get_ipu (workspace), ==, 0);
    g_assert_cmpint (tes_workspace_get_tile (workspace), ==, 3);
  }

  g_cancellable_cancel (cancellable);
  g_assert_null (tes_insights_compute (report, NULL, NULL, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* A qaic opstats trace (the layout of tests/data/chrome/qaic_opstats.json)
 * whose core works, through its HVX and HMX threads, at 0–10 µs,
 * 100–150 µs and 510–520 µs: gaps of 90 µs (under the 100 µs threshold)
 * and 360 µs. */
static void
test_insights_qaic_gap (void)
{
  static const char trace[] =
    "{\"traceEvents\": [\n"
    "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 0, \"tid\": 0, \"args\": {\"name\": \"QAicGraph_slice00_Core_0\"}},\n"
    "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 0, \"tid\": 1, \"args\": {\"name\": \"QAicGraph_slice00_Core_0_HVX\"}},\n"
    "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 0, \"tid\": 3, \"args\": {\"name\": \"QAicGraph_slice00_Core_0_HMX\"}},\n"
    "{\"name\": \"aicadd\", \"cat\": \"aic\", \"ph\": \"X\", \"pid\": 0, \"tid\": 1, \"ts\": 0.0, \"dur\": 10.0, "
    "\"args\": {\"oc\": \"1\", \"effectiveFreq\": \"1000.000000\", \"opKind\": \"aicadd\", \"opName\": \"/a\", \"opPCycle\": \"10000\", \"opUCycle\": \"100\"}},\n"
    "{\"name\": \"aicmatmul\", \"cat\": \"aic\", \"ph\": \"X\", \"pid\": 0, \"tid\": 3, \"ts\": 100.0, \"dur\": 50.0, "
    "\"args\": {\"oc\": \"2\", \"effectiveFreq\": \"1000.000000\", \"opKind\": \"aicmatmul\", \"opName\": \"/b\", \"opPCycle\": \"50000\", \"opUCycle\": \"500\"}},\n"
    "{\"name\": \"aicadd\", \"cat\": \"aic\", \"ph\": \"X\", \"pid\": 0, \"tid\": 1, \"ts\": 510.0, \"dur\": 10.0, "
    "\"args\": {\"oc\": \"3\", \"effectiveFreq\": \"1000.000000\", \"opKind\": \"aicadd\", \"opName\": \"/c\", \"opPCycle\": \"10000\", \"opUCycle\": \"100\"}}\n"
    "]}\n";
  g_autofree char *path = tes_test_tmp_path ("qaic_gap.json");
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GPtrArray) insights = NULL;
  g_autoptr(GError) error = NULL;
  const TesInsight *gap = NULL;
  TesInsightThresholds t;
  gint64 v;

  tes_test_write_file (path, trace, -1);
  report = import (path, "chrome-json");
  insights = tes_insights_compute (report, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < insights->len; i++)
    if (((TesInsight *)g_ptr_array_index (insights, i))->kind == TES_INSIGHT_IDLE_GAPS)
      {
        g_assert_null (gap);
        gap = g_ptr_array_index (insights, i);
      }
  g_assert_nonnull (gap);
  g_assert_cmpfloat (gap->cost, ==, 360000);
  g_assert_true (g_variant_lookup (gap->evidence, "gaps", "x", &v));
  g_assert_cmpint (v, ==, 1);
  g_assert_true (g_variant_lookup (gap->evidence, "busy_ns", "x", &v));
  g_assert_cmpint (v, ==, 70000);
  g_assert_cmpfloat_with_epsilon (gap->share, 100.0 * 360 / 520, 1e-9);
  g_assert_cmpstr (gap->target.view, ==, "trace");
  {
    g_auto(GStrv) args = tes_insight_dup_render_args (gap, report);

    /* the gap, 150–510 µs, with a tenth of it either side, within the
     * run's 0–520 µs */
    g_assert_cmpstrv (args, ((const char * const[]){ "--view", "trace", "--range", "114000ns:520000ns", NULL }));
  }
  {
    g_autoptr(TesWorkspace) workspace = tes_workspace_new (report);
    gint64 origin = 0, start, end;

    tes_workspace_get_span (workspace, &origin, NULL);
    /* a tile, IPU and step left by an earlier finding or click */
    tes_workspace_set_ipu (workspace, 1);
    tes_workspace_set_tile (workspace, 7);
    tes_workspace_set_step (workspace, 4);
    tes_insight_apply (gap, workspace);
    /* a finding's selection replaces the one before: a lane's gap has no
     * tile, IPU or step */
    g_assert_cmpint (tes_workspace_get_ipu (workspace), ==, -1);
    g_assert_cmpint (tes_workspace_get_tile (workspace), ==, -1);
    g_assert_cmpint (tes_workspace_get_step (workspace), ==, -1);
    g_assert_cmpint (tes_workspace_get_run (workspace), ==, 0);
    tes_workspace_get_visible (workspace, &start, &end);
    g_assert_cmpint (start - origin, ==, 114000);
    g_assert_cmpint (end - origin, ==, 520000);
    g_assert_true (tes_workspace_get_selection (workspace, &start, &end));
    g_assert_cmpint (start - origin, ==, 114000);
    g_assert_cmpint (gap->target.track_id, >, 0);
    g_assert_cmpstr (gap->target.lane, ==, tes_report_get_track (report, gap->target.track_id)->name);
  }

  /* at 80 µs, the 90 µs gap counts too */
  tes_insight_thresholds_init (&t);
  g_assert_true (tes_insight_thresholds_parse (&t, "idle_gap_us=80", NULL));
  g_clear_pointer (&insights, g_ptr_array_unref);
  insights = tes_insights_compute (report, NULL, &t, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < insights->len; i++)
    if (((TesInsight *)g_ptr_array_index (insights, i))->kind == TES_INSIGHT_IDLE_GAPS)
      g_assert_cmpfloat (((TesInsight *)g_ptr_array_index (insights, i))->cost, ==, 450000);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tes_test_add (TES_TEST_OWN_DATA, "/tes/insights/thresholds", test_insights_thresholds);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/insights/async", test_insights_async);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/insights/qaic-gap", test_insights_qaic_gap);

  return g_test_run ();
}
