/* test-sniff.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "tes-importer-registry.h"
#include "tes-test-util.h"

/* Which importer must claim each fixture. Every file under
 * ../shared/fixtures is sniffed by every importer: a file listed here must
 * go to its importer, every other file to none of the importers listed
 * (no false positives). Formats without an importer yet are left out. */
typedef struct
{
  const char *importer;
  const char *files[24];
} Claim;

static const Claim claims[] = {
  { "sigmastar-op-time", {
      "sigmastar/yolov8s_op_time_each.txt",
      "sigmastar/yolov8s_op_time_total.txt",
      NULL } },
  { "chrome-json", {
      "real/catapult/async_begin_end.json",
      "real/catapult/big_trace.json",
      "real/catapult/flow_simple.json",
      "real/catapult/instance_counters.json",
      "real/catapult/instant_events.json",
      "real/catapult/nanoseconds.json",
      "real/catapult/nestable_async.json",
      "real/catapult/simple_trace.json",
      "real/catapult/simple_trace_gz.gz",
      "real/catapult/tall_trace.json",
      "real/catapult/trivial_trace.json",
      "sigmastar/log_ctrl0.json",
      "sigmastar/performance_timeline_yolov8s.json",
      "qaic/opstats_trace.json",
      NULL } },
  { "qaic-stats", {
      "real/qaic/cloud-ai-sdk__Profiler.ipynb__aic-profiling-program-0-activation-0-inf-100.txt",
      NULL } },
  { "qaic-runner-stdout", {
      "real/qaic/cloud-ai-sdk__Profiler-LLM.ipynb__cell17_qaic-runner_stdout.txt",
      "real/qaic/cloud-ai-sdk__Profiler.ipynb__cell13_qaic-runner_profiling_stdout.txt",
      "real/qaic/cloud-ai-sdk__Profiler.ipynb__cell18_qaic-runner_latency_stdout.txt",
      "real/qaic/cloud-ai-sdk__Profiler.ipynb__cell19_latency_stats_python3_output.txt",
      NULL } },
  { "sigmastar-img-info", {
      "sigmastar/show_img_info_output.txt",
      NULL } },
  { "poplar-report", {
      "poplar/compile_report_adder.txt",
      "poplar/compile_report_imbalance_excerpt.txt",
      "real/poplar/graphcore-examples-k8s-doc__Target_Graph_Poplar3.3_excerpt.txt",
      "real/poplar/graphcore-examples__tut6_README__Execution_section_excerpt.txt",
      "real/poplar/graphcore-tensorflow_docs_logging.rst__report_excerpts.txt",
      "real/poplar/lbm-graphcore__gaussian-blur-scaling__exchange-vs-compute.txt",
      NULL } },
  { "poplar-size-listing", {
      "poplar/size_A_archive_4tiles.txt",
      NULL } },
  /* No profile.pop among the fixtures; test-poplar.c builds one. */
  { "poplar-pop", {
      NULL } },
  { "torq-timeline", {
      "torq/timeline_v1.csv",
      "torq/timeline_v2.csv",
      NULL } },
  { "torq-runtime", {
      "torq/runtime_v1.csv",
      "torq/runtime_v2.csv",
      NULL } },
  { "torq-annotated", {
      "torq/annotated_runtime.csv",
      NULL } },
  { "torq-perfetto", {
      "torq/host_trace.pb",
      NULL } },
  { "torq-host-overview", {
      "torq/host_profile_overview.txt",
      NULL } },
};

static void
collect_files (const char *dir,
               const char *rel,
               GPtrArray  *out)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  if (d == NULL)
    return;

  while ((name = g_dir_read_name (d)))
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *child_rel = rel ? g_build_filename (rel, name, NULL) : g_strdup (name);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        collect_files (path, child_rel, out);
      else
        g_ptr_array_add (out, g_steal_pointer (&child_rel));
    }
}

static const char *
expected_importer (const char *rel)
{
  for (guint i = 0; i < G_N_ELEMENTS (claims); i++)
    {
      if (tes_importer_registry_lookup (claims[i].importer) == NULL)
        continue;
      for (guint j = 0; claims[i].files[j]; j++)
        if (g_str_equal (claims[i].files[j], rel))
          return claims[i].importer;
    }

  return NULL;
}

static void
test_every_importer_declares_claims (void)
{
  GPtrArray *all = tes_importer_registry_get_all ();

  g_assert_cmpuint (all->len, >=, 1);
  for (guint i = 0; i < all->len; i++)
    {
      const char *name = tes_importer_get_name (g_ptr_array_index (all, i));
      gboolean found = FALSE;

      for (guint j = 0; j < G_N_ELEMENTS (claims); j++)
        found |= g_str_equal (claims[j].importer, name);
      if (!found)
        g_error ("importer %s lists no fixtures in test-sniff.c", name);
    }
}

static void
test_fixtures (void)
{
  g_autofree char *root = tes_test_shared_path ("fixtures");
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *all = tes_importer_registry_get_all ();
  guint claimed = 0;

  if (!g_file_test (root, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("../shared/fixtures not found");
      return;
    }

  collect_files (root, NULL, files);
  g_assert_cmpuint (files->len, >, 30);

  for (guint f = 0; f < files->len; f++)
    {
      const char *rel = g_ptr_array_index (files, f);
      g_autofree char *path = g_build_filename (root, rel, NULL);
      g_autofree char *contents = NULL;
      g_autofree char *basename = g_path_get_basename (path);
      const char *expected = expected_importer (rel);
      TesImporter *best;
      gsize len;
      guint confidence;

      g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
      len = MIN (len, TES_SNIFF_SIZE);

      for (guint i = 0; i < all->len; i++)
        {
          TesImporter *importer = g_ptr_array_index (all, i);
          const char *name = tes_importer_get_name (importer);
          guint score = tes_importer_sniff (importer, (const guint8 *)contents, len, basename);

          if (expected != NULL && g_str_equal (expected, name))
            {
              if (score < 50)
                g_error ("%s: %s should claim it, scored %u", rel, name, score);
            }
          else if (score >= 50)
            g_error ("%s: %s claims it with %u but must not", rel, name, score);
        }

      best = tes_importer_registry_sniff ((const guint8 *)contents, len, basename, &confidence);
      if (expected != NULL)
        {
          g_assert_nonnull (best);
          g_assert_cmpstr (tes_importer_get_name (best), ==, expected);
          claimed++;
        }
      else if (best != NULL)
        g_assert_cmpuint (confidence, <, 50);
    }

  g_assert_cmpuint (claimed, >=, 2);
}

/* Content decides, not the name: a renamed listing is still found, and a
 * file named like one but holding something else is not. */
static void
test_content_over_name (void)
{
  g_autofree char *src = tes_test_data_path ("yolov8s_op_time_total.txt");
  g_autofree char *renamed = tes_test_copy_to_tmp (src, "report.log");
  g_autofree char *impostor = tes_test_tmp_path ("impostor_op_time.txt");
  g_autoptr(GError) error = NULL;
  TesImporter *importer;

  importer = tes_importer_registry_choose (renamed, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tes_importer_get_name (importer), ==, "sigmastar-op-time");

  tes_test_write_file (impostor, "Target:\n  Number of IPUs: 1\n", -1);
  g_assert_null (tes_importer_registry_choose (impostor, NULL, &error));
  g_assert_error (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_UNKNOWN_FORMAT);
  g_assert_true (strstr (error->message, impostor) != NULL);
  g_clear_error (&error);

  /* --format overrides */
  importer = tes_importer_registry_choose (impostor, "sigmastar-op-time", &error);
  g_assert_no_error (error);
  g_assert_nonnull (importer);
  g_assert_null (tes_importer_registry_choose (impostor, "no-such-format", &error));
  g_assert_error (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_UNKNOWN_FORMAT);
  g_assert_true (strstr (error->message, "sigmastar-op-time") != NULL);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tes/sniff/every-importer-declares-claims", test_every_importer_declares_claims);
  g_test_add_func ("/tes/sniff/fixtures", test_fixtures);
  g_test_add_func ("/tes/sniff/content-over-name", test_content_over_name);

  return g_test_run ();
}
