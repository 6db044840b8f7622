/* test-sniff.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "tes-importer-registry.h"
#include "tes-text.h"
#include "tes-test-util.h"

/* Which importer must claim each file. Every file is sniffed by every
 * importer: a file listed must go to its importer, every other file of
 * ../shared/fixtures to none (no false positives). Formats without an
 * importer yet are left out. */
typedef struct
{
  const char *importer;
  const char *files[24];
} Claim;

/* Ours, under tests/data. */
static const Claim own_claims[] = {
  { "sigmastar-op-time", {
      "yolov8s_op_time_each.txt",
      "yolov8s_op_time_total.txt",
      NULL } },
  { "chrome-json", {
      "chrome/async_object.json",
      "chrome/cut_short.json",
      "chrome/nanoseconds.json",
      "chrome/phases_array.json",
      "chrome/qaic_opstats.json",
      "chrome/sigmastar_array.json",
      "chrome/sigmastar_object.json",
      "bad/chrome-instants-only.json",
      "bad/chrome-slice-end-overflow.json",
      /* framework profilers: Chrome JSON, their flavours tell them apart */
      "kineto/written_old_names.json",
      "onnxruntime/onnxruntime_profile__mnist_cuda.json",
      "tensorflow/cpu_timeline_01.json",
      "tensorflow/gpu_timeline_01.json",
      "tensorflow/gpu_timeline_02_step_0.json",
      "tensorflow/written_tf2_cpu.trace.json",
      "tensorflow/written_tf2_xla.trace.json",
      NULL } },
  { "poplar-report", {
      "bad/poplar-maximum-without-value.txt",
      "poplar/bare_cycles.txt",
      "poplar/compile_report_small.txt",
      "poplar/execution_programs.txt",
      "poplar/histograms_elided.txt",
      "poplar/log_target_sdk3.txt",
      NULL } },
  { "poplar-size-listing", {
      "poplar/archive_size_hex.txt",
      "poplar/archive_size_small.txt",
      NULL } },
  { "poplar-profile", {
      "poplar/profile-doc-graph.json",
      "poplar/profile-doc-combined.json",
      "poplar/profile-doc-combined.cbor",
      "bad/poplar-profile-string-bytes.json",
      "bad/poplar-profile-cut-short.cbor",
      NULL } },
  /* written by tessera-pop-export from tests/pva (docs/formats/poplar.md) */
  { "poplar-export", {
      "poplar/profile_small.tessera-pop.jsonl",
      "bad/poplar-export-cut-short.tessera-pop.jsonl",
      NULL } },
};

/* ../shared/fixtures, for the conformance suite. */
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
  /* No SDK 1.x profile among the fixtures: ours are under tests/data. */
  { "poplar-profile", {
      NULL } },
  /* Tessera's own export format: none among the shared fixtures (ours are
   * in own_claims), and none of them may be taken for it. */
  { "poplar-export", {
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
  { "tensorrt-profile", {
      "tensorrt/mobilenet.qat.profile.json",
      "tensorrt/mobilenet.qat.v010.profile.json",
      "tensorrt/resnet.fp16.profile.json",
      "tensorrt/resnet.fp32.profile.json",
      "tensorrt/resnet.qat.profile.json",
      "tensorrt/yolo.dla.profile.json",
      NULL } },
  { "tensorrt-times", {
      "tensorrt/resnet.fp16.times.json",
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
expected_importer (const Claim *table,
                   gsize        n_table,
                   const char  *rel)
{
  for (gsize i = 0; i < n_table; i++)
    {
      if (tes_importer_registry_lookup (table[i].importer) == NULL)
        continue;
      for (guint j = 0; table[i].files[j]; j++)
        if (g_str_equal (table[i].files[j], rel))
          return table[i].importer;
    }

  return NULL;
}

static gboolean
is_listed (const Claim *table,
           gsize        n_table,
           const char  *rel)
{
  for (gsize i = 0; i < n_table; i++)
    for (guint j = 0; table[i].files[j]; j++)
      if (g_str_equal (table[i].files[j], rel))
        return TRUE;

  return FALSE;
}

/* Sniffs the file's head with every importer and returns the one that
 * claims it (score 50 or more), NULL for none; two claims fail. The
 * registry's own choice must be the same. */
static const char *
sniff_claimant (const char *path,
                const char *rel)
{
  GPtrArray *all = tes_importer_registry_get_all ();
  g_autofree char *contents = NULL;
  g_autofree char *basename = g_path_get_basename (path);
  const char *claimant = NULL;
  guint claimant_score = 0;
  TesImporter *best;
  guint confidence;
  gsize len;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  len = MIN (len, TES_SNIFF_SIZE);

  for (guint i = 0; i < all->len; i++)
    {
      TesImporter *importer = g_ptr_array_index (all, i);
      guint score = tes_importer_sniff (importer, (const guint8 *)contents, len, basename);

      if (score < 50)
        continue;
      if (claimant != NULL)
        g_error ("%s: claimed by both %s (%u) and %s (%u)", rel, claimant, claimant_score,
                 tes_importer_get_name (importer), score);
      claimant = tes_importer_get_name (importer);
      claimant_score = score;
    }

  best = tes_importer_registry_sniff ((const guint8 *)contents, len, basename, &confidence);
  if (claimant != NULL)
    {
      g_assert_nonnull (best);
      g_assert_cmpstr (tes_importer_get_name (best), ==, claimant);
    }
  else if (best != NULL)
    g_assert_cmpuint (confidence, <, 50);

  return claimant;
}

static void
assert_claimed_by (const char *path,
                   const char *rel,
                   const char *expected)
{
  const char *got = sniff_claimant (path, rel);

  if (g_strcmp0 (got, expected) != 0)
    g_error ("%s: claimed by %s, must be by %s", rel, got ? got : "no importer", expected ? expected : "none");
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
  guint claimed = 0;

  g_assert_true (g_file_test (root, G_FILE_TEST_IS_DIR));
  collect_files (root, NULL, files);
  g_assert_cmpuint (files->len, >, 30);

  for (guint f = 0; f < files->len; f++)
    {
      const char *rel = g_ptr_array_index (files, f);
      g_autofree char *path = g_build_filename (root, rel, NULL);
      const char *expected = expected_importer (claims, G_N_ELEMENTS (claims), rel);

      assert_claimed_by (path, rel, expected);
      claimed += expected != NULL;
    }

  g_assert_cmpuint (claimed, >=, 2);
}

/* Every profile under tests/data, found by walking it, so files added
 * there are covered too: ours go to the importer own_claims names; any
 * other one to at most one importer, of the vendor its folder names
 * (tests/data/torq/... to a torq-* importer; JSON may be Chrome JSON),
 * and each vendor folder has at least one file its importers claim. */
static void
test_own_files (void)
{
  static const char * const kinds[] = { ".txt", ".csv", ".json", ".jsonl", ".pb", ".cbor" };
  g_autofree char *root = g_test_build_filename (G_TEST_DIST, "data", NULL);
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) folders = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint listed = 0, n_listed = 0;
  GHashTableIter iter;
  gpointer folder, vendor_claims;

  for (guint i = 0; i < G_N_ELEMENTS (own_claims); i++)
    for (guint j = 0; own_claims[i].files[j]; j++)
      n_listed++;

  collect_files (root, NULL, files);
  for (guint f = 0; f < files->len; f++)
    {
      const char *rel = g_ptr_array_index (files, f);
      g_autofree char *path = g_build_filename (root, rel, NULL);
      g_autofree char *top = NULL;
      g_autofree char *prefix = NULL;
      const char *got;
      gboolean kind = FALSE;

      for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
        kind |= g_str_has_suffix (rel, kinds[k]);
      if (!kind)
        continue;

      if (is_listed (own_claims, G_N_ELEMENTS (own_claims), rel))
        {
          assert_claimed_by (path, rel, expected_importer (own_claims, G_N_ELEMENTS (own_claims), rel));
          listed++;
          continue;
        }

      /* the bad-input corpus is damaged on purpose (test-bad-input) */
      if (g_str_has_prefix (rel, "bad" G_DIR_SEPARATOR_S))
        continue;

      /* another engineer's file: its folder names the vendor */
      got = sniff_claimant (path, rel);
      g_test_message ("%s: %s", rel, got ? got : "no importer");
      if (strchr (rel, G_DIR_SEPARATOR) == NULL)
        g_error ("%s: a profile at the top of tests/data must be listed in own_claims", rel);
      top = g_strndup (rel, strchr (rel, G_DIR_SEPARATOR) - rel);
      prefix = g_strconcat (top, "-", NULL);
      if (!g_hash_table_contains (folders, top))
        g_hash_table_insert (folders, g_strdup (top), GUINT_TO_POINTER (0));
      if (got == NULL)
        continue;
      if (g_str_has_prefix (got, prefix))
        g_hash_table_insert (folders, g_strdup (top),
                             GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (folders, top)) + 1));
      else if (!(g_str_equal (got, "chrome-json") && g_str_has_suffix (rel, ".json")))
        g_error ("%s: claimed by %s, not by a %s* importer", rel, got, prefix);
    }

  /* a listed file that is missing is a failure, not a skip */
  g_assert_cmpuint (listed, ==, n_listed);

  g_hash_table_iter_init (&iter, folders);
  while (g_hash_table_iter_next (&iter, &folder, &vendor_claims))
    if (GPOINTER_TO_UINT (vendor_claims) == 0)
      g_error ("no file under tests/data/%s is claimed by a %s-* importer", (const char *)folder, (const char *)folder);
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

/* Bytes this process has read so far (Linux /proc/self/io), or -1. */
static gint64
bytes_read (void)
{
  g_autofree char *io = NULL;
  const char *rchar;

  if (!g_file_get_contents ("/proc/self/io", &io, NULL, NULL) || !(rchar = strstr (io, "rchar: ")))
    return -1;

  return g_ascii_strtoll (rchar + 7, NULL, 10);
}

/* Choosing the importer of a file reads its head only (TES_SNIFF_SIZE
 * bytes), however big the file: a trace of several GB is recognised at
 * the cost of 64 KiB. */
static void
test_reads_head_only (void)
{
  g_autofree char *json = tes_test_tmp_path ("big-trace.json");
  g_autofree char *text = tes_test_tmp_path ("big-listing.txt");
  g_autoptr(GString) s = g_string_new ("[");
  const char *paths[] = { json, text };

  if (bytes_read () < 0)
    {
      g_test_skip ("no /proc/self/io");
      return;
    }

  for (guint i = 0; s->len < 8 * 1024 * 1024; i++)
    g_string_append_printf (s, "%s{\"ph\":\"X\",\"name\":\"op%u\",\"pid\":1,\"tid\":1,\"ts\":%u,\"dur\":1}",
                            i ? ",\n" : "", i % 7, i);
  g_string_append (s, "]\n");
  tes_test_write_file (json, s->str, s->len);
  g_string_truncate (s, 0);
  while (s->len < 8 * 1024 * 1024)
    g_string_append (s, "a line of some text listing that no importer claims\n");
  tes_test_write_file (text, s->str, s->len);

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autoptr(GError) error = NULL;
      gint64 before = bytes_read ();
      gint64 itself = bytes_read () - before;   /* reading /proc/self/io counts too */
      TesImporter *importer = tes_importer_registry_choose (paths[i], NULL, &error);
      gint64 read = bytes_read () - before - 2 * itself;

      g_test_message ("%s: %" G_GINT64_FORMAT " bytes read to choose %s", paths[i], read,
                      importer ? tes_importer_get_name (importer) : "none");
      if (i == 0)
        g_assert_cmpstr (tes_importer_get_name (importer), ==, "chrome-json");
      else
        g_assert_error (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_UNKNOWN_FORMAT);
      g_assert_cmpint (read, >, 0);
      /* /proc/self/io's own text grows a byte when one of its counters
       * gains a digit between the reads that measure it */
      g_assert_cmpint (read, <=, TES_SNIFF_SIZE + 8);
    }
}

/* A JSON head is told from its first bytes; the text sniffers then leave
 * it at once: a Kineto trace's head (thousands of one-key lines) scores 0
 * with every importer but chrome-json, as a log opening with "[INFO]"
 * still reaches them. */
static void
test_json_head (void)
{
  static const char *json[] = { "{\"traceEvents\":[", "\xEF\xBB\xBF \n[\n  {\"ph\":\"X\"", "{ }", "[]", "[[1]]" };
  static const char *not_json[] = { "", "   ", "[INFO] start", "{ not json", "[1, 2]", "Target:\n", "{" };
  g_autoptr(GString) head = g_string_new ("{\n  \"schemaVersion\": 1,\n  \"traceEvents\": [\n");
  GPtrArray *all = tes_importer_registry_get_all ();

  for (guint i = 0; i < G_N_ELEMENTS (json); i++)
    g_assert_true (tes_head_is_json ((const guint8 *)json[i], strlen (json[i])));
  for (guint i = 0; i < G_N_ELEMENTS (not_json); i++)
    g_assert_false (tes_head_is_json ((const guint8 *)not_json[i], strlen (not_json[i])));
  g_assert_false (tes_head_is_json (NULL, 0));

  /* the layout torch.profiler writes: one key a line */
  for (guint i = 0; head->len < TES_SNIFF_SIZE; i++)
    g_string_append_printf (head, "  {\n    \"ph\": \"X\", \"cat\": \"cpu_op\",\n    \"name\": \"aten::add\","
                                  "\n    \"pid\": 1, \"tid\": 1,\n    \"ts\": %u, \"dur\": 1\n  },\n", i);
  for (guint i = 0; i < all->len; i++)
    {
      TesImporter *importer = g_ptr_array_index (all, i);
      guint score = tes_importer_sniff (importer, (const guint8 *)head->str, head->len, "trace.json");

      if (g_str_equal (tes_importer_get_name (importer), "chrome-json"))
        g_assert_cmpuint (score, ==, 100);
      else
        g_assert_cmpuint (score, ==, 0);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tes_test_add (TES_TEST_OWN_DATA, "/tes/sniff/every-importer-declares-claims", test_every_importer_declares_claims);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/sniff/own-files", test_own_files);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/sniff/content-over-name", test_content_over_name);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/sniff/reads-head-only", test_reads_head_only);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/sniff/json-head", test_json_head);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/sniff/fixtures", test_fixtures);

  return g_test_run ();
}
