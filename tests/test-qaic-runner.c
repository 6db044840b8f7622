/* test-qaic-runner.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "tes-importer-registry.h"
#include "tes-report.h"
#include "tes-test-util.h"
#include "test-qaic-util.h"

/* The qaic importers, besides the per-core statistics
 * (test-qaic-stats.c): qaic-runner-stdout (the runner's stdout and
 * latency statistics), sniffing by content, the runner's stdout and a
 * stats file as one report, and the Chrome importer's qaic-opstats --trace
 * flavour; against the project's own files (tests/data/qaic and the texts
 * below) and, in the conformance suite, the real Cloud AI SDK outputs in
 * ../shared/fixtures/real/qaic. Own and real files go through the same
 * checks, which read the files apart from the importers. */

/* What a qaic-runner stdout gives, checked against the file read apart
 * from the importer: every "Writing file:" path once, in first-written
 * order, as output.N; the first InferenceCnt line's pairs; every cell of
 * every "X Performance:" table as stats.<x>.<Metric>.<column>. Returns
 * the number of table cells. */
static guint
check_runner_file (TesReport  *report,
                   const char *path)
{
  static const char * const cols[] = { "avg", "min", "max", "std" };
  g_autoptr(GHashTable) written = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree char *text = NULL;
  g_autofree char *section = NULL;
  g_autofree char *after_last = NULL;
  g_auto(GStrv) lines = NULL;
  gboolean head_seen = FALSE;
  guint n_outputs = 0;
  guint checked = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_auto(GStrv) cells = g_strsplit (lines[i], ",", -1);
      g_auto(GStrv) words = g_strsplit_set (lines[i], " ", -1);

      if (g_str_has_prefix (lines[i], "Writing file:") && !g_hash_table_contains (written, lines[i] + 13))
        {
          g_autofree char *key = g_strdup_printf ("output.%u", ++n_outputs);

          g_hash_table_add (written, lines[i] + 13);
          tes_test_assert_info (report, key, lines[i] + 13);
        }
      else if (g_str_has_prefix (lines[i], "InferenceCnt ") && !head_seen)
        {
          g_assert_cmpuint (g_strv_length (words), ==, 8);
          g_assert_true (g_str_has_suffix (words[3], "us"));
          words[3][strlen (words[3]) - 2] = '\0';
          tes_test_assert_info (report, "stats.inference_count", words[1]);
          tes_test_assert_info (report, "stats.total_duration_us", words[3]);
          tes_test_assert_info (report, "stats.batch_size", words[5]);
          tes_test_assert_info (report, "stats.inferences_per_second", words[7]);
          head_seen = TRUE;
        }
      else if (words[0] != NULL && words[1] != NULL && g_str_has_prefix (words[1], "Performance:"))
        {
          g_free (section);
          section = g_ascii_strdown (words[0], -1);
        }
      else if (section != NULL && g_strv_length (cells) == 5 && g_str_has_suffix (cells[0], "Us"))
        for (guint c = 0; c < G_N_ELEMENTS (cols); c++)
          {
            g_autofree char *key = g_strdup_printf ("stats.%s.%s.%s", section, cells[0], cols[c]);

            tes_test_assert_info (report, key, g_strstrip (cells[c + 1]));
            checked++;
          }
    }

  after_last = g_strdup_printf ("output.%u", n_outputs + 1);
  tes_test_assert_info (report, after_last, NULL);

  return checked;
}

/* latency_stats_python3.py output, read apart from the importer: every
 * cell as latency.<section slug>.<metric>.<column>, and the percentile
 * line. Returns the number of keys, which must be all the latency keys
 * of the report. */
static guint
check_latency_file (TesReport  *report,
                    const char *path)
{
  g_autoptr(GPtrArray) info = tes_report_get_info (report);
  g_autofree char *text = NULL;
  g_autofree char *slug = NULL;
  g_auto(GStrv) lines = NULL;
  g_auto(GStrv) header = NULL;
  guint checked = 0;
  guint n_keys = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_auto(GStrv) raw = g_strsplit_set (lines[i], " ", -1);
      g_autoptr(GPtrArray) f = g_ptr_array_new ();
      const char *percentile = strstr (lines[i], ": percentile(");

      for (guint j = 0; raw[j]; j++)
        if (raw[j][0] != '\0')
          g_ptr_array_add (f, raw[j]);
      if (f->len == 0)
        continue;

      if (percentile != NULL)
        {
          const char *eq = strstr (percentile, " = ");
          g_autofree char *metric = g_strndup (lines[i], percentile - lines[i]);
          g_autofree char *what = g_strndup (percentile + 2, eq - percentile - 2);
          g_autofree char *key = g_strdup_printf ("latency.%s.%s.%s", slug, metric, what);

          tes_test_assert_info (report, key, eq + 3);
          checked++;
        }
      else if (g_str_has_suffix (lines[i], ":"))
        {
          g_free (slug);
          slug = g_ascii_strdown (lines[i], strlen (lines[i]) - 1);
          g_strdelimit (slug, " ", '_');
          g_clear_pointer (&header, g_strfreev);
        }
      else if (header == NULL)
        {
          g_ptr_array_add (f, NULL);
          header = g_strdupv ((char **)f->pdata);
        }
      else
        {
          g_assert_cmpuint (f->len, ==, g_strv_length (header) + 1);
          for (guint c = 1; c < f->len; c++)
            {
              g_autofree char *key = g_strdup_printf ("latency.%s.%s.%s", slug,
                                                      (char *)g_ptr_array_index (f, 0), header[c - 1]);

              tes_test_assert_info (report, key, g_ptr_array_index (f, c));
              checked++;
            }
        }
    }

  for (guint i = 0; i < info->len; i++)
    n_keys += g_str_has_prefix (((TesInfoEntry *)g_ptr_array_index (info, i))->key, "latency.");
  g_assert_cmpuint (checked, ==, n_keys);

  return checked;
}

/* Runner output and latency statistics are report info only: the
 * expected rows (and the table cells, latency keys, as the file holds
 * them: see above), `tessera-cli info` printing them all, and nothing to
 * summarise. Returns the report. */
static TesReport *
check_runner_info (const char        *path,
                   const TesTestInfo *expected,
                   guint              n_expected)
{
  g_autoptr(GError) error = NULL;
  TesReport *report = open_with (path, "qaic-runner-stdout", &error);
  g_auto(TesCliResult) r = { 0 };
  TesReportCounts counts;

  g_assert_no_error (error);
  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_operators, ==, 0);
  g_assert_cmpint (counts.n_tracks, ==, 0);
  g_assert_cmpint (counts.n_slices, ==, 0);
  tes_test_assert_info_rows (report, expected, n_expected);

  tes_test_assert_cli_info (report, path);
  tes_test_run_cli (&r, "summary", path, NULL);
  g_assert_cmpint (r.status, ==, 1);
  tes_test_assert_contains (r.err, "holds no operators and no slices");

  return report;
}

/* tests/data/qaic/qaic-runner-stdout.txt: a run that wrote a trace twice
 * (the second replacing the first) and two activation files, with a
 * message line and one Stats block. */
static void
test_runner_stdout (void)
{
  static const TesTestInfo expected[] = {
    { "stats.inference_count", "400" },
    { "stats.total_duration_us", "2000000" },
    { "stats.batch_size", "4" },
    { "stats.inferences_per_second", "200.000" },
    { "stats.device.ExecTimeUs.max", "215.000" },
    { "stats.device.OutputWaitTimeUs.std", "0.052" },
    { "output.1", "./run_stats/aic-profiling-program-0-trace.json" },
    { "output.3", "./run_stats/aic-profiling-program-0-activation-0-inf-4.txt" },
    { "output.4", NULL },
    { "message.1", "Using bounded random inputs" },
    { "message.2", NULL },
  };
  g_autofree char *path = tes_test_copy_fixture (TES_TEST_OWN_DATA, OWN_DIR RUNNER_OWN);
  g_autoptr(TesReport) report = check_runner_info (path, expected, G_N_ELEMENTS (expected));

  /* three metrics, four columns */
  g_assert_cmpuint (check_runner_file (report, path), ==, 3 * 4);
}

static void
test_runner_stdout_fixture (void)
{
  static const TesTestInfo cell13_info[] = {
    { "stats.inference_count", "4816" },
    { "stats.total_duration_us", "20022021" },
    { "stats.batch_size", "8" },
    { "stats.inferences_per_second", "1924.281" },
    { "output.1", "./bert_base_cased_stats/aic-profiling-program-0-trace.json" },
    { "output.9", "./bert_base_cased_stats/aic-profiling-program-0-activation-0-inf-100.txt" },
    { "output.10", NULL },
    { "message.1", NULL },
    { "stats.device.InputWaitTimeUs.max", "3290982.552" },
  };
  static const TesTestInfo cell17_info[] = {
    { "message.1", "Using bounded random inputs" },
    { "output.70", "./opstats_decode/aic-profiling-program-0-trace.json" },
    { "stats.inferences_per_second", "4.460" },
    { "stats.device.OutputWaitTimeUs.std", "0.019" },
  };
  static const TesTestInfo cell18_info[] = {
    { "stats.inference_count", "5787" },
    { "stats.device.ExecTimeUs.avg", "22777.262" },
    { "output.1", "./bert_base_cased_stats/aic-profiling-program-0-latency.txt" },
  };
  static const struct { const char *name; const TesTestInfo *info; guint n_info; guint n_cells; } cells[] = {
    { REAL_DIR CELL13, cell13_info, G_N_ELEMENTS (cell13_info), 12 },
    { REAL_DIR CELL17, cell17_info, G_N_ELEMENTS (cell17_info), 12 },
    { REAL_DIR CELL18, cell18_info, G_N_ELEMENTS (cell18_info), 12 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cells); i++)
    {
      g_autofree char *path = tes_test_copy_fixture (TES_TEST_SHARED_DATA, cells[i].name);
      g_autoptr(TesReport) report = check_runner_info (path, cells[i].info, cells[i].n_info);

      g_assert_cmpuint (check_runner_file (report, path), ==, cells[i].n_cells);
    }
}

/* A latency_stats_python3.py output of one section of n_rows metrics,
 * the eight columns of pandas' describe() and the percentile line. */
static void
check_latency (TesTestData        data,
               const char        *relative,
               guint              n_rows,
               const TesTestInfo *expected,
               guint              n_expected)
{
  g_autofree char *path = tes_test_copy_fixture (data, relative);
  g_autoptr(TesReport) report = check_runner_info (path, expected, n_expected);

  g_assert_cmpuint (check_latency_file (report, path), ==, n_rows * 8 + 1);
}

/* tests/data/qaic/latency_stats.txt: four metrics. */
static void
test_latency_stats (void)
{
  static const TesTestInfo expected[] = {
    { "latency.all_activations_combined.devInfPerSec.min", "4651.162791" },
    { "latency.all_activations_combined.devExec.max", "0.215000" },
    { "latency.all_activations_combined.totalRoundtripTime.99%", "0.276000" },
    { "latency.all_activations_combined.totalRoundtripTime.percentile(mean)", "0.263 ms" },
  };

  check_latency (TES_TEST_OWN_DATA, OWN_DIR LATENCY_OWN, 4, expected, G_N_ELEMENTS (expected));
}

static void
test_latency_stats_fixture (void)
{
  static const TesTestInfo expected[] = {
    { "latency.all_activations_combined.devInfPerSec.mean", "347.295312" },
    { "latency.all_activations_combined.devExec.50%", "22.802370" },
    { "latency.all_activations_combined.devOutWaitTime.max", "0.002083" },
    { "latency.all_activations_combined.totalRoundtripTime.99%", "26.064658" },
    { "latency.all_activations_combined.totalRoundtripTime.percentile(mean)", "23.694 ms" },
  };

  check_latency (TES_TEST_SHARED_DATA, REAL_DIR CELL19, 13, expected, G_N_ELEMENTS (expected));
}

static void
test_runner_bad_input (void)
{
  static const char stats[] =
    " ---- Stats ----\n"
    "InferenceCnt 10 TotalDuration 2242274us BatchSize 1 Inf/Sec 4.460\n"
    "Device Performance: \n"
    "Metric,          Avg,           Min,           Max,           Std            \n"
    "ExecTimeUs,      124826.111,    124682.969,    124958.542,    93.740         \n";
  static const char latency[] =
    "All activations combined:\n"
    "              mean    min    50%    max\n"
    "devExec       1.0     0.5    0.9    2.0\n";
  BadCase cases[] = {
    { "empty.txt", g_strdup (""), 0, TES_IMPORT_ERROR_EMPTY, ": no qaic-runner output" },
    { "binary.txt", g_memdup2 ("\x89PNG\r\n\x1a\n\0\0", 10), 10, TES_IMPORT_ERROR_INVALID, ":1: not text" },
    { "garbage.txt", g_strdup ("hello world\n"), -1, TES_IMPORT_ERROR_INVALID,
      ":1: no qaic-runner ' ---- Stats ----' block, latency table or 'Writing file:' line; the file starts with 'hello world'" },
    { "marker-only.txt", g_strdup (" ---- Stats ----\n"), -1, TES_IMPORT_ERROR_TRUNCATED,
      ":1: the Stats block begun on line 1 ends before its InferenceCnt line" },
    { "no-head.txt", g_strdup (" ---- Stats ----\nDevice Performance:\n"), -1, TES_IMPORT_ERROR_INVALID,
      ":2: expected 'InferenceCnt N TotalDuration Nus BatchSize N Inf/Sec X' after the Stats marker on line 1" },
    { "no-table.txt", cut_after_line (stats, 3), -1, TES_IMPORT_ERROR_TRUNCATED,
      ":3: the table begun on line 3 ends before its header" },
    { "no-rows.txt", cut_after_line (stats, 4), -1, TES_IMPORT_ERROR_TRUNCATED,
      ":4: the table begun on line 3 ends before its first row" },
    { "columns.txt", replace (stats, "93.740", "93.740, 1.0"), -1, TES_IMPORT_ERROR_INVALID,
      ":5: row has 6 cells; the header has 5" },
    { "non-numeric.txt", replace (stats, "124682.969", "fast"), -1, TES_IMPORT_ERROR_INVALID,
      ":5: ExecTimeUs min is 'fast', not a number" },
    { "pairs.txt", replace (stats, " Inf/Sec 4.460", " Inf/Sec"), -1, TES_IMPORT_ERROR_INVALID,
      ":2: expected 'Name value' pairs" },
    { "head-value.txt", replace (stats, "BatchSize 1", "BatchSize one"), -1, TES_IMPORT_ERROR_INVALID,
      ":2: BatchSize is 'one', not a number" },
    { "header.txt", replace (stats, "Metric,", "Name,"), -1, TES_IMPORT_ERROR_INVALID,
      ":4: expected the 'Metric, Avg, Min, Max, Std' header of the table on line 3" },
    { "latency-columns.txt", replace (latency, "0.9    2.0", "0.9"), -1, TES_IMPORT_ERROR_INVALID,
      ":3: row has 4 cells; the header has 4 columns and the row name" },
    { "latency-cell.txt", replace (latency, "0.5", "n/a"), -1, TES_IMPORT_ERROR_INVALID,
      ":3: devExec min is 'n/a', not a number" },
    { "latency-no-rows.txt", cut_after_line (latency, 2), -1, TES_IMPORT_ERROR_TRUNCATED,
      ":2: the table begun on line 2 ends before its first row" },
  };

  run_bad_cases ("qaic-runner-stdout", cases, G_N_ELEMENTS (cases));
}

/* ------------------------------------------------------------------ */

/* Sniffing is by content: renamed files are still found, and a file named
 * like the vendor's is not claimed for its name alone. */
static void
check_content_over_name (const char *stats,
                         const char *runner)
{
  const char *sources[] = { stats, runner };
  const char *expected[] = { "qaic-stats", "qaic-runner-stdout" };
  g_autofree char *impostor = tes_test_tmp_path ("aic-profiling-program-0-activation-0-inf-1.txt");
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (sources); i++)
    {
      g_autofree char *renamed = tes_test_tmp_path (i == 0 ? "notes.log" : "run.log");
      g_autofree char *text = NULL;
      TesImporter *importer;
      gsize len;

      g_assert_true (g_file_get_contents (sources[i], &text, &len, NULL));
      tes_test_write_file (renamed, text, len);
      importer = tes_importer_registry_choose (renamed, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (tes_importer_get_name (importer), ==, expected[i]);
    }

  tes_test_write_file (impostor, "core dumped\nc0 is a core\n", -1);
  g_assert_null (tes_importer_registry_choose (impostor, NULL, &error));
  g_assert_error (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_UNKNOWN_FORMAT);
}

static void
test_content_over_name (void)
{
  g_autofree char *stats = tes_test_copy_fixture (TES_TEST_OWN_DATA, OWN_DIR STATS_OWN);
  g_autofree char *runner = tes_test_copy_fixture (TES_TEST_OWN_DATA, OWN_DIR RUNNER_OWN);

  check_content_over_name (stats, runner);
}

static void
test_content_over_name_fixture (void)
{
  g_autofree char *stats = tes_test_copy_fixture (TES_TEST_SHARED_DATA, REAL_DIR STATS_FIXTURE);
  g_autofree char *runner = tes_test_copy_fixture (TES_TEST_SHARED_DATA, REAL_DIR CELL18);

  check_content_over_name (stats, runner);
}

/* The runner's stdout and a stats file it wrote open as one report, in
 * either order: the stats file's tracks, slices and operators as when
 * opened alone, every info row of both files (their keys do not
 * overlap), and the summary of the stats file alone. `tessera-cli info`
 * of both prints each of cli_lines. */
static void
check_combined (const char         *stats,
                const char         *runner,
                const char * const *cli_lines)
{
  g_auto(TesCliResult) r = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) stats_alone = open_with (stats, "qaic-stats", &error);
  g_autoptr(TesReport) runner_alone = open_with (runner, "qaic-runner-stdout", &error);
  g_autoptr(GPtrArray) alone_rows = NULL;
  TesReportCounts alone;
  TesReport *parts[2];
  TesImporter *importers[2];
  const char *paths[2];

  g_assert_no_error (error);
  tes_report_get_counts (stats_alone, &alone);
  alone_rows = tes_report_summarize (stats_alone, TES_SUMMARY_TOTAL, TES_GROUP_BY_CATEGORY, &error);
  g_assert_no_error (error);
  parts[0] = stats_alone;
  parts[1] = runner_alone;

  for (guint order = 0; order < 2; order++)
    {
      g_autoptr(TesReport) report = NULL;
      g_autoptr(GPtrArray) rows = NULL;
      TesReportCounts counts;

      paths[order] = stats;
      paths[1 - order] = runner;
      for (guint i = 0; i < 2; i++)
        {
          importers[i] = tes_importer_registry_choose (paths[i], NULL, &error);
          g_assert_no_error (error);
        }

      report = tes_test_import_files (paths, importers, 2, 0);
      g_assert_cmpuint (tes_report_get_n_sources (report), ==, 2);
      tes_report_get_counts (report, &counts);
      g_assert_cmpint (counts.n_operators, ==, alone.n_operators);
      g_assert_cmpint (counts.n_slices, ==, alone.n_slices);
      g_assert_cmpint (counts.n_tracks, ==, alone.n_tracks);
      for (guint p = 0; p < G_N_ELEMENTS (parts); p++)
        {
          g_autoptr(GPtrArray) info = tes_report_get_info (parts[p]);

          for (guint i = 0; i < info->len; i++)
            {
              const TesInfoEntry *entry = g_ptr_array_index (info, i);

              tes_test_assert_info (report, entry->key, entry->value);
            }
        }

      rows = tes_report_summarize (report, TES_SUMMARY_TOTAL, TES_GROUP_BY_CATEGORY, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (rows->len, ==, alone_rows->len);
      for (guint i = 0; i < rows->len; i++)
        {
          const TesSummaryRow *row = g_ptr_array_index (rows, i);
          const TesSummaryRow *alone_row = g_ptr_array_index (alone_rows, i);

          g_assert_cmpstr (row->label, ==, alone_row->label);
          g_assert_cmpfloat (row->share, ==, alone_row->share);
          g_assert_cmpint (row->total, ==, alone_row->total);
        }
    }

  tes_test_run_cli (&r, "info", runner, stats, NULL);
  g_assert_cmpint (r.status, ==, 0);
  for (guint i = 0; cli_lines[i]; i++)
    tes_test_assert_contains (r.out, cli_lines[i]);
}

/* Our runner stdout names the activation-0 stats file among what it
 * wrote; together: 8 operators, 8 slices, 10 tracks. */
static void
test_combined (void)
{
  static const char * const cli_lines[] = {
    "Operators:      8\n",
    "Slices:         8\n",
    "Tracks:         10\n",
    "Info:           stats.inferences_per_second = 200.000\n",
    "Info:           output.3 = ./run_stats/" STATS_OWN "\n",
    "Info:           c1.total.ucycles = 4010\n",
    NULL,
  };
  g_autofree char *stats = tes_test_copy_fixture (TES_TEST_OWN_DATA, OWN_DIR STATS_OWN);
  g_autofree char *runner = tes_test_copy_fixture (TES_TEST_OWN_DATA, OWN_DIR RUNNER_OWN);

  check_combined (stats, runner, cli_lines);
}

/* The real cell 13 wrote aic-profiling-program-0-activation-0-inf-100.txt. */
static void
test_combined_fixture (void)
{
  static const char * const cli_lines[] = {
    "Operators:      64\n",
    "Info:           stats.inferences_per_second = 1924.281\n",
    "Info:           device_instance.inf_per_second = 345.419\n",
    "Info:           output.9 = ./bert_base_cased_stats/" STATS_FIXTURE_SHORT "\n",
    NULL,
  };
  g_autofree char *stats = tes_test_copy_fixture (TES_TEST_SHARED_DATA, REAL_DIR STATS_FIXTURE);
  g_autofree char *cell13 = tes_test_copy_fixture (TES_TEST_SHARED_DATA, REAL_DIR CELL13);

  check_combined (stats, cell13, cli_lines);
}

/* ------------------------------------------------------------------ */

/* qaic-opstats --trace, read by the Chrome importer's qaic flavour:
 * tests/data/qaic/opstats_trace_mini.json, written in the layout of the
 * SDK's trace (one event a line, string args) with two devices, P2P
 * between them. By hand: */
static void
test_opstats_trace (void)
{
  /* pcycles per op kind; aiccopytovtcm has an N/A row: its total is
   * unknown, and only its known 2400 counts towards the shares */
  static const struct { const char *kind; gint64 total; gint64 count; double known; } kinds[] = {
    { "aicconvolutiond32", -1, 3, 60000 + 30000 + 11000 },
    { "elementmul", 6000 + 4800, 2, 6000 + 4800 },
    { "aiccopytovtcm", -1, 2, 2400 },
  };
  const double all_known = 60000 + 30000 + 11000 + 6000 + 4800 + 2400;
  g_autofree char *path = tes_test_copy_fixture (TES_TEST_OWN_DATA, OWN_DIR TRACE_OWN);
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GArray) hvx0 = NULL;
  g_autoptr(GArray) core = NULL;
  const TesTrack *device, *track;
  const TesClock *clock;
  TesImporter *importer;
  TesReportCounts counts;

  importer = tes_importer_registry_choose (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tes_importer_get_name (importer), ==, "chrome-json");
  report = tes_test_import (path, importer);
  tes_test_assert_info (report, "flavour", "Qualcomm qaic-opstats trace");

  /* QAic device 0 > Core 0 > HVX 0, HVX 1, HMX, DMAIssue; P2P under the
   * device; QAic device 1 > Core 0 > HMX, P2P */
  device = tes_test_find_track (report, NULL, "QAic device 0");
  g_assert_cmpint (device->kind, ==, TES_TRACK_DEVICE);
  g_assert_cmpint (tes_test_find_track (report, "QAic device 0", "Core 0")->kind, ==, TES_TRACK_CORE);
  tes_test_find_track (report, "Core 0", "HVX 1");
  tes_test_find_track (report, "Core 0", "DMAIssue");
  g_assert_cmpint (tes_test_find_track (report, "QAic device 0", "P2P")->kind, ==, TES_TRACK_THREAD);
  tes_test_find_track (report, "QAic device 1", "P2P");
  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_tracks, ==, 2 + 2 + 4 + 1 + 2);
  g_assert_cmpint (counts.n_slices, ==, 13);
  g_assert_cmpint (counts.n_operators, ==, 7);

  /* the execution envelope on the core track itself */
  core = tes_test_get_slices (report, tes_test_find_track (report, "QAic device 0", "Core 0")->id);
  g_assert_cmpuint (core->len, ==, 1);
  g_assert_cmpint (g_array_index (core, TesSlice, 0).start, ==, 10000);
  g_assert_cmpint (g_array_index (core, TesSlice, 0).dur, ==, 100000);

  /* HVX 0 (tid 1): elementmul, then the sync written with dur 0 that
   * waits 22 µs (opSyncDurUs), in the category of the op it waits for */
  track = tes_test_find_track (report, "Core 0", "HVX 0");
  hvx0 = tes_test_get_slices (report, track->id);
  g_assert_cmpuint (hvx0->len, ==, 2);
  g_assert_cmpstr (tes_report_get_string (report, g_array_index (hvx0, TesSlice, 0).category), ==, "elementmul");
  g_assert_cmpstr (tes_report_get_string (report, g_array_index (hvx0, TesSlice, 1).name), ==, "sync HVX");
  g_assert_cmpint (g_array_index (hvx0, TesSlice, 1).start, ==, 67000);
  g_assert_cmpint (g_array_index (hvx0, TesSlice, 1).dur, ==, 22000);
  g_assert_cmpstr (tes_report_get_string (report, g_array_index (hvx0, TesSlice, 1).category), ==,
                   "aicconvolutiond32");

  /* each device's pcycles clock at its effectiveFreq */
  track = tes_test_find_track (report, "Core 0", "HMX");
  g_assert_cmpuint (tes_report_get_n_clocks (report), ==, 3);
  for (guint c = 1; c <= 3; c++)
    {
      clock = tes_report_get_clock (report, c);
      if (g_str_equal (clock->name, "QAic device 0 pcycles"))
        g_assert_cmpint (clock->ticks_per_second, ==, 1200000000);
      else if (g_str_equal (clock->name, "QAic device 1 pcycles"))
        g_assert_cmpint (clock->ticks_per_second, ==, 1100000000);
      else
        g_assert_cmpint (clock->unit, ==, TES_TIME_UNIT_NS);
    }

  rows = tes_report_summarize (report, TES_SUMMARY_TOTAL, TES_GROUP_BY_CATEGORY, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, G_N_ELEMENTS (kinds));
  for (guint i = 0; i < rows->len; i++)
    {
      const TesSummaryRow *row = g_ptr_array_index (rows, i);

      g_assert_cmpstr (row->label, ==, kinds[i].kind);
      g_assert_cmpint (row->count, ==, kinds[i].count);
      g_assert_cmpfloat_with_epsilon (row->share, 100.0 * kinds[i].known / all_known, 1e-9);
    }
  /* one send "0->1" and its receive "1<-0" (TransactionId 7): one flow */
  g_assert_cmpint (counts.n_flows, ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tes_test_add (TES_TEST_OWN_DATA, "/tes/qaic/runner/stdout", test_runner_stdout);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/qaic/runner/latency-stats", test_latency_stats);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/qaic/runner/bad-input", test_runner_bad_input);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/qaic/content-over-name", test_content_over_name);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/qaic/combined", test_combined);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/qaic/opstats-trace", test_opstats_trace);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/qaic/runner/stdout-fixture", test_runner_stdout_fixture);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/qaic/runner/latency-stats-fixture", test_latency_stats_fixture);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/qaic/content-over-name-fixture", test_content_over_name_fixture);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/qaic/combined-fixture", test_combined_fixture);

  return g_test_run ();
}
