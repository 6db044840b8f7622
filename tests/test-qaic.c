/* test-qaic.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "tes-importer-registry.h"
#include "tes-report.h"
#include "tes-test-util.h"

#define REAL_DIR "fixtures/real/qaic/"
#define STATS_FIXTURE "cloud-ai-sdk__Profiler.ipynb__aic-profiling-program-0-activation-0-inf-100.txt"
#define CELL13 "cloud-ai-sdk__Profiler.ipynb__cell13_qaic-runner_profiling_stdout.txt"
#define CELL17 "cloud-ai-sdk__Profiler-LLM.ipynb__cell17_qaic-runner_stdout.txt"
#define CELL18 "cloud-ai-sdk__Profiler.ipynb__cell18_qaic-runner_latency_stdout.txt"
#define CELL19 "cloud-ai-sdk__Profiler.ipynb__cell19_latency_stats_python3_output.txt"

/* A qaic-opstats --summary in the layout of the real ones (a
 * "Specialization:" line, N/A pcycles on DMA copies, N/A out KB on the
 * output semaphore, two-digit cores written "c12t0", no max-wait lines),
 * with numbers of our own that agree with their total lines. */
static const char summary_text[] =
  "Specialization: QAicGraph\n"                                                                         /* 1 */
  "\n"
  "\n"
  "core  ucycles  ucycles(%)     pcycles  pcycles(%)  count      out KB  ucycles/KB  pcycles/KB  stddev(pc/KB)  opdetails\n"
  "c0       1000      80.00%         N/A         N/A     10         N/A         N/A         N/A            N/A  sync HMX\n" /* 5 */
  "c0        900      72.00%         N/A         N/A     12      360.00        2.50         N/A            N/A  aiccopytovtcm DMAIssue DDR \n"
  "c0        500      40.00%       25000      40.00%     30     1000.00        0.50       25.00           1.00  blockdequantize_mxfp6 HVX TCM (float16, uindex8)\n"
  "c0         10       0.80%         500       0.80%      1         N/A         N/A         N/A            N/A  aicoutputsemaphoreinc HMX DDR (i8)\n"
  "\n"
  "c0 total:            1250 ucycles           62500 pcycles (thread max)\n"                            /* 10 */
  "c0    t0 HVX                 1250 ucycles [100, 1350]           62500 pcycles  46.73% utilization\n"
  "c0    t1 HMX                 1200 ucycles [100, 1300]           60000 pcycles  12.95% utilization\n"
  "\n"
  "\n"
  "c00t0 batch ucycles:             1250 [100,1350]    pcycles:           62500 \n"                     /* 15 */
  "c00t1 batch ucycles:             1200 [100,1300]    pcycles:           60000 \n"
  "c0: Total inference pcycle is 62510\n"
  "c0: Effective frequency is 1030.04MHz\n"
  "c00t0 activate ucycles:               21\n"
  "c00t1 activate ucycles:               20\n"                                                           /* 20 */
  "\n"
  "core  ucycles  ucycles(%)     pcycles  pcycles(%)  count      out KB  ucycles/KB  pcycles/KB  stddev(pc/KB)  opdetails\n"
  "c12      2000     100.00%      100000     100.00%      4     4096.00        0.49       24.41           0.00  elementmul  HVX TCM (float16)\n"
  "c12       400      20.00%         N/A         N/A      2         N/A         N/A         N/A            N/A  barrier HVX\n"
  "\n"                                                                                                   /* 25 */
  "c12 total:           2000 ucycles          100000 pcycles (thread max)\n"
  "c12    t0 HVX                2000 ucycles [90, 2090]          100000 pcycles  20.00% utilization\n"
  "\n"
  "\n"
  "c12t0 batch ucycles:             2000 [90,2090]    pcycles:          100000 \n"                      /* 30 */
  "c12: Total inference pcycle is 100000\n"
  "c12: Effective frequency is 1028.57MHz\n"
  "c12t0 activate ucycles:               30\n"
  "total batch ucycles:             2000 [90, 2090]\n"
  "[QAicGraph] Device instance batch/s: (1/0.000104167): 9600\n"                                         /* 35 */
  "[QAicGraph] Device instance inf/s: (1/0.000104167): 9600\n";

/* ------------------------------------------------------------------ */

static char *
copy_real (const char *name)
{
  g_autofree char *rel = g_strconcat (REAL_DIR, name, NULL);
  g_autofree char *src = tes_test_shared_path (rel);

  return tes_test_copy_to_tmp (src, name);
}

static TesReport *
open_with (const char  *path,
           const char  *importer_name,
           GError     **error)
{
  TesImporter *importer = tes_importer_registry_lookup (importer_name);

  g_assert_nonnull (importer);
  return tes_report_open (path, importer, 0, NULL, NULL, error);
}

static const TesTrack *
find_track (TesReport    *report,
            gint64        parent_id,
            const char   *name)
{
  for (guint id = 1; id <= tes_report_get_n_tracks (report); id++)
    {
      const TesTrack *track = tes_report_get_track (report, id);

      if (track->parent_id == parent_id && g_str_equal (track->name, name))
        return track;
    }

  return NULL;
}

static const TesSummaryRow *
find_row (GPtrArray  *rows,
          const char *label)
{
  for (guint i = 0; i < rows->len; i++)
    {
      const TesSummaryRow *row = g_ptr_array_index (rows, i);

      if (g_str_equal (row->label, label))
        return row;
    }

  return NULL;
}

/* ------------------------------------------------------------------ */

typedef struct
{
  char   *label;      /* "c0 <opdetails, single-spaced>" */
  gint64  ucycles;
  char   *percent;    /* ucycles(%) as printed, without '%' */
  gint64  count;
} VendorOp;

static void
vendor_op_free (gpointer data)
{
  VendorOp *op = data;

  g_free (op->label);
  g_free (op->percent);
  g_free (op);
}

/* The op rows of a stats file, read by splitting on white space: kept
 * apart from the importer's parser on purpose. */
static GPtrArray *
read_vendor_ops (const char  *path,
                 GHashTable  *totals)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  GPtrArray *ops = g_ptr_array_new_with_free_func (vendor_op_free);

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_auto(GStrv) raw = g_strsplit_set (lines[i], " \t", -1);
      g_autoptr(GPtrArray) f = g_ptr_array_new ();
      VendorOp *op;
      GString *label;

      for (guint j = 0; raw[j]; j++)
        if (raw[j][0] != '\0')
          g_ptr_array_add (f, raw[j]);

      if (f->len >= 4 && g_str_equal (g_ptr_array_index (f, 1), "total:"))
        g_hash_table_insert (totals, g_strdup (g_ptr_array_index (f, 0)),
                             g_strdup (g_ptr_array_index (f, 2)));

      if (f->len < 11 || ((char *)g_ptr_array_index (f, 0))[0] != 'c' ||
          !g_ascii_isdigit (((char *)g_ptr_array_index (f, 1))[0]))
        continue;

      op = g_new0 (VendorOp, 1);
      label = g_string_new (g_ptr_array_index (f, 0));
      for (guint j = 10; j < f->len; j++)
        g_string_append_printf (label, " %s", (char *)g_ptr_array_index (f, j));
      op->label = g_string_free (label, FALSE);
      op->ucycles = g_ascii_strtoll (g_ptr_array_index (f, 1), NULL, 10);
      op->percent = g_strndup (g_ptr_array_index (f, 2), strlen (g_ptr_array_index (f, 2)) - 1);
      op->count = g_ascii_strtoll (g_ptr_array_index (f, 5), NULL, 10);
      g_ptr_array_add (ops, op);
    }

  return ops;
}

static void
test_stats_fixture (void)
{
  g_autofree char *path = copy_real (STATS_FIXTURE);
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = open_with (path, "qaic-stats", &error);
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GHashTable) totals = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GPtrArray) vendor = NULL;
  g_autoptr(GArray) slices = NULL;
  g_autofree char *args = NULL;
  const TesTrack *device, *core0, *core1, *hvx0, *dma, *track;
  const TesClock *clock;
  const TesSummaryRow *row;
  TesReportCounts counts;

  g_assert_no_error (error);
  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_operators, ==, 33 + 31);
  g_assert_cmpint (counts.n_tracks, ==, 1 + 2 + 12);
  g_assert_cmpint (counts.n_slices, ==, 12 + 1);

  /* the numbers shown are the file's own total lines */
  vendor = read_vendor_ops (path, totals);
  g_assert_cmpuint (vendor->len, ==, 64);
  g_assert_cmpstr (g_hash_table_lookup (totals, "c0"), ==, "444672");
  g_assert_cmpstr (g_hash_table_lookup (totals, "c1"), ==, "444413");
  tes_test_assert_info (report, "c0.total.ucycles", g_hash_table_lookup (totals, "c0"));
  tes_test_assert_info (report, "c1.total.ucycles", g_hash_table_lookup (totals, "c1"));
  tes_test_assert_info (report, "c0.total.pcycles", "28559104");
  tes_test_assert_info (report, "c1.total.pcycles", "28793610");
  tes_test_assert_info (report, "c0.total.basis", "thread max");
  tes_test_assert_info (report, "c0.inference.pcycles", "28559169");
  tes_test_assert_info (report, "c1.effective_frequency_mhz", "1243.97");
  tes_test_assert_info (report, "c0.t5.utilization_percent", "0.74");
  tes_test_assert_info (report, "c1.t4.p100.Host_IO_Port.ucycles", "30698");
  tes_test_assert_info (report, "c0.t0.activate.ucycles", "4386");
  tes_test_assert_info (report, "c1.t5.batch.end", "9803252851192");
  tes_test_assert_info (report, "total_batch.ucycles", "444677");
  tes_test_assert_info (report, "device_instance.batch_per_second", "43.1774");
  tes_test_assert_info (report, "device_instance.batch_per_second.formula", "1/0.0231603");
  tes_test_assert_info (report, "device_instance.inf_per_second", "345.419");
  tes_test_assert_info (report, "device_instance.inf_per_second.formula", "8/0.0231603");
  tes_test_assert_info (report, "max_input_wait.ucycles", "30711");
  tes_test_assert_info (report, "max_output_wait.ucycles", "2");
  tes_test_assert_info (report, "network", "QAicGraph");
  tes_test_assert_info (report, "cores", "2");
  tes_test_assert_info (report, "warning.no_trailer", NULL);
  tes_test_assert_info (report, "warning.skipped_lines", NULL);

  /* every op row, against the vendor text: share as printed, ucycles,
   * count, and the share agrees with the file's total line */
  rows = tes_report_summarize (report, TES_SUMMARY_TOTAL, TES_GROUP_BY_CATEGORY, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, vendor->len);
  for (guint i = 0; i < vendor->len; i++)
    {
      const VendorOp *op = g_ptr_array_index (vendor, i);
      g_autofree char *printed = NULL;
      g_autofree char *core = g_strndup (op->label, strchr (op->label, ' ') - op->label);
      gint64 total = g_ascii_strtoll (g_hash_table_lookup (totals, core), NULL, 10);

      row = find_row (rows, op->label);
      if (row == NULL)
        g_error ("no summary row '%s'", op->label);
      printed = g_strdup_printf ("%.2f", row->share);
      g_assert_cmpstr (printed, ==, op->percent);
      g_assert_cmpint (row->total, ==, op->ucycles);
      g_assert_cmpint (row->count, ==, op->count);
      g_assert_cmpfloat (fabs (100.0 * op->ucycles / total - row->share), <=, 0.005 + 1e-9);
    }

  /* named rows; descending by share, the vendor's own percentages */
  row = g_ptr_array_index (rows, 0);
  g_assert_cmpstr (row->label, ==, "c1 sync DMAIssue");
  g_assert_cmpfloat_with_epsilon (row->share, 95.56, 1e-9);
  row = find_row (rows, "c0 aicconvolutiond32 HMX TCM (float16, i8, index32)");
  g_assert_nonnull (row);
  g_assert_cmpfloat_with_epsilon (row->share, 55.00, 1e-9);
  g_assert_cmpint (row->total, ==, 244552);
  g_assert_cmpint (row->count, ==, 1081);
  /* "elementerf  HVX" (a kind printed with a trailing space) and
   * "aiccopytovtcm DMAIssue DDR " (a trailing space) */
  g_assert_nonnull (find_row (rows, "c0 elementerf HVX TCM (float16)"));
  g_assert_nonnull (find_row (rows, "c1 aiccopytovtcm DMAIssue DDR"));
  g_assert_cmpint (find_row (rows, "c1 aiccopysamevtcm DMAIssue TCM")->total, ==, 2);

  /* per-type rows only: no per-operator view */
  g_assert_null (tes_report_summarize (report, TES_SUMMARY_EACH, TES_GROUP_BY_CATEGORY, &error));
  g_assert_error (error, TES_REPORT_ERROR, TES_REPORT_ERROR_NO_DATA);
  g_clear_error (&error);

  /* tracks: QAicGraph > Core 0, Core 1 > HVX 0..3, HMX, DMAIssue */
  device = find_track (report, 0, "QAicGraph");
  g_assert_nonnull (device);
  g_assert_cmpint (device->kind, ==, TES_TRACK_DEVICE);
  core0 = find_track (report, device->id, "Core 0");
  core1 = find_track (report, device->id, "Core 1");
  g_assert_nonnull (core0);
  g_assert_nonnull (core1);
  g_assert_cmpint (core0->kind, ==, TES_TRACK_CORE);
  hvx0 = find_track (report, core0->id, "HVX 0");
  g_assert_nonnull (hvx0);
  g_assert_nonnull (find_track (report, core0->id, "HVX 3"));
  g_assert_nonnull (find_track (report, core1->id, "HMX"));
  dma = find_track (report, core1->id, "DMAIssue");
  g_assert_nonnull (dma);
  g_assert_cmpint (dma->kind, ==, TES_TRACK_THREAD);

  clock = tes_report_get_clock (report, hvx0->clock_id);
  g_assert_cmpint (clock->unit, ==, TES_TIME_UNIT_CYCLES);
  g_assert_cmpint (clock->ticks_per_second, ==, 19200000);
  /* the 19.2 MHz timer is the file's own: total batch ucycles over
   * 19.2 MHz is the trailer's batch time, 0.0231603 s */
  {
    g_autofree char *seconds = g_strdup_printf ("%.7f", 444677 / 19200000.0);
    g_assert_cmpstr (seconds, ==, "0.0231603");
  }

  /* one slice per thread span: "c0 t0 HVX 444602 ucycles [9803252406782, 9803252851384]" */
  slices = tes_report_get_slices (report, hvx0->id, G_MININT64, G_MAXINT64, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (slices->len, ==, 1);
  g_assert_cmpint (g_array_index (slices, TesSlice, 0).start, ==, 9803252406782);
  g_assert_cmpint (g_array_index (slices, TesSlice, 0).dur, ==, 444602);
  g_assert_cmpstr (tes_report_get_string (report, g_array_index (slices, TesSlice, 0).name), ==, "inference");
  g_assert_cmpstr (tes_report_get_string (report, g_array_index (slices, TesSlice, 0).category), ==, "HVX");
  args = tes_report_get_slice_args (report, hvx0->id, 0, &error);
  g_assert_no_error (error);
  tes_test_assert_contains (args, "\"ucycles\":444602");
  tes_test_assert_contains (args, "\"pcycles\":28554461");
  tes_test_assert_contains (args, "\"utilization(%)\":59.72");
  g_clear_pointer (&slices, g_array_unref);

  slices = tes_report_get_slices (report, dma->id, G_MININT64, G_MAXINT64, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_array_index (slices, TesSlice, 0).start, ==, 9803252406779);
  g_assert_cmpint (g_array_index (slices, TesSlice, 0).dur, ==, 444413);
  g_clear_pointer (&slices, g_array_unref);

  /* the total batch span on the device track */
  slices = tes_report_get_slices (report, device->id, G_MININT64, G_MAXINT64, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (slices->len, ==, 1);
  g_assert_cmpint (g_array_index (slices, TesSlice, 0).start, ==, 9803252406778);
  g_assert_cmpint (g_array_index (slices, TesSlice, 0).dur, ==, 444677);

  track = find_track (report, core0->id, "HVX 2");
  g_assert_nonnull (track);
  g_assert_true (track->has_extent);
  g_assert_cmpint (track->t_max - track->t_min, ==, 444603);
}

static void
test_stats_cli (void)
{
  g_autofree char *path = copy_real (STATS_FIXTURE);
  g_auto(TesCliResult) r = { 0 };

  tes_test_run_cli (&r, "info", path, NULL);
  g_assert_cmpint (r.status, ==, 0);
  tes_test_assert_contains (r.out, "Importer:       qaic-stats (version 1)\n");
  tes_test_assert_contains (r.out, "Tracks:         15\n");
  tes_test_assert_contains (r.out, "Slices:         13\n");
  tes_test_assert_contains (r.out, "Operators:      64\n");
  tes_test_assert_contains (r.out, "Time span:      9803252406778 .. 9803252851455 cycles");
  tes_test_assert_contains (r.out, "Info:           c0.total.ucycles = 444672\n");
  tes_test_assert_contains (r.out, "Info:           c1.total.pcycles = 28793610\n");
  tes_test_assert_contains (r.out, "Info:           c0.t0.p100.Host_IO_Port.ucycles = 30711\n");
  tes_test_assert_contains (r.out, "Info:           device_instance.inf_per_second = 345.419\n");
  tes_test_assert_contains (r.out, "Info:           max_input_wait.ucycles = 30711\n");

  tes_test_run_cli (&r, "summary", path, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out,
                                   "c1 sync DMAIssue 95.560%\n"
                                   "c0 sync DMAIssue 95.500%\n"
                                   "c0 aicconvolutiond32 HMX TCM (float16, i8, index32) 55.000%\n"
                                   "c1 aicconvolutiond32 HMX TCM (float16, i8, index32) 54.020%\n"));
  tes_test_assert_contains (r.out, "\nc0 elementsub HVX TCM (float16) 0.000%\n");

  tes_test_run_cli (&r, "summary", "--csv", path, NULL);
  g_assert_cmpint (r.status, ==, 0);
  tes_test_assert_contains (r.out, "\"c0 aicconvolutiond32 HMX TCM (float16, i8, index32)\",,"
                          "\"c0 aicconvolutiond32 HMX TCM (float16, i8, index32)\","
                          "\"c0 aicconvolutiond32 HMX TCM (float16, i8, index32)\",55.000,244552,1081\n");

  tes_test_run_cli (&r, "summary", "--mode", "each", path, NULL);
  g_assert_cmpint (r.status, ==, 1);
  tes_test_assert_contains (r.err, "per-type totals only");
}

static void
test_opstats_summary (void)
{
  g_autofree char *path = tes_test_tmp_path ("aic-profiling-program-0-activation-0-inf-1-QAicGraph.qaic-opstats.summary.txt");
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  const TesTrack *device, *core12;
  TesReportCounts counts;
  g_auto(TesCliResult) r = { 0 };

  tes_test_write_file (path, summary_text, -1);

  /* sniffed by content */
  g_assert_cmpuint (tes_importer_sniff (tes_importer_registry_lookup ("qaic-stats"),
                                        (const guint8 *)summary_text, strlen (summary_text), "x.txt"), >=, 90);

  report = tes_report_open (path, tes_importer_registry_choose (path, NULL, &error), 0, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tes_report_get_importer_name (report), ==, "qaic-stats");

  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_operators, ==, 6);
  g_assert_cmpint (counts.n_tracks, ==, 1 + 2 + 3);
  g_assert_cmpint (counts.n_slices, ==, 3 + 1);
  tes_test_assert_info (report, "specialization", "QAicGraph");
  tes_test_assert_info (report, "network", "QAicGraph");
  tes_test_assert_info (report, "cores", "2");
  tes_test_assert_info (report, "c12.total.ucycles", "2000");
  tes_test_assert_info (report, "c12.t0.batch.pcycles", "100000");
  tes_test_assert_info (report, "c12.t0.activate.ucycles", "30");
  tes_test_assert_info (report, "c0.effective_frequency_mhz", "1030.04");
  tes_test_assert_info (report, "device_instance.batch_per_second.formula", "1/0.000104167");
  tes_test_assert_info (report, "max_input_wait.ucycles", NULL);
  tes_test_assert_info (report, "warning.no_trailer", NULL);
  tes_test_assert_info (report, "warning.c0.thread_max", NULL);

  device = find_track (report, 0, "QAicGraph");
  g_assert_nonnull (device);
  core12 = find_track (report, device->id, "Core 12");
  g_assert_nonnull (core12);
  g_assert_cmpint (core12->sort_index, ==, 12);
  /* one thread of an engine: named by the engine alone */
  g_assert_nonnull (find_track (report, core12->id, "HVX"));
  g_assert_nonnull (find_track (report, find_track (report, device->id, "Core 0")->id, "HMX"));

  rows = tes_report_summarize (report, TES_SUMMARY_TOTAL, TES_GROUP_BY_CATEGORY, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, 6);
  g_assert_cmpstr (((TesSummaryRow *)g_ptr_array_index (rows, 0))->label, ==, "c12 elementmul HVX TCM (float16)");
  g_assert_cmpfloat_with_epsilon (find_row (rows, "c0 aiccopytovtcm DMAIssue DDR")->share, 72.0, 1e-9);
  g_assert_cmpint (find_row (rows, "c0 aicoutputsemaphoreinc HMX DDR (i8)")->total, ==, 10);
  g_assert_cmpint (find_row (rows, "c0 blockdequantize_mxfp6 HVX TCM (float16, uindex8)")->count, ==, 30);

  tes_test_run_cli (&r, "summary", path, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==,
                   "c12 elementmul HVX TCM (float16) 100.000%\n"
                   "c0 sync HMX 80.000%\n"
                   "c0 aiccopytovtcm DMAIssue DDR 72.000%\n"
                   "c0 blockdequantize_mxfp6 HVX TCM (float16, uindex8) 40.000%\n"
                   "c12 barrier HVX 20.000%\n"
                   "c0 aicoutputsemaphoreinc HMX DDR (i8) 0.800%\n");
}

/* Returns a copy of text with the first occurrence of old replaced. */
static char *
replace (const char *text,
         const char *old,
         const char *new_text)
{
  const char *at = strstr (text, old);

  g_assert_nonnull (at);
  return g_strdup_printf ("%.*s%s%s", (int)(at - text), text, new_text, at + strlen (old));
}

static char *
cut_after_line (const char *text,
                guint       n)
{
  const char *p = text;

  for (guint i = 0; i < n; i++)
    {
      p = strchr (p, '\n');
      g_assert_nonnull (p);
      p++;
    }

  return g_strndup (text, p - text);
}

typedef struct
{
  const char *name;
  char       *contents;
  gssize      len;
  int         code;
  const char *message;   /* substring, after the file name */
} BadCase;

static void
run_bad_cases (const char *importer_name,
               BadCase    *cases,
               guint       n_cases)
{
  TesImporter *importer = tes_importer_registry_lookup (importer_name);

  for (guint i = 0; i < n_cases; i++)
    {
      g_autofree char *path = tes_test_tmp_path (cases[i].name);
      g_autofree char *cache = NULL;
      g_autofree char *expected = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(TesReport) report = NULL;

      tes_test_write_file (path, cases[i].contents, cases[i].len);
      cache = tes_cache_path_for_source (path);

      report = tes_report_open (path, importer, 0, NULL, NULL, &error);
      if (report != NULL)
        g_error ("case %s: imported, expected an error", cases[i].name);
      g_assert_error (error, TES_IMPORT_ERROR, cases[i].code);
      expected = g_strconcat (path, cases[i].message, NULL);
      if (strstr (error->message, expected) == NULL)
        g_error ("case %s: '%s' does not contain '%s'", cases[i].name, error->message, expected);
      g_assert_false (g_file_test (cache, G_FILE_TEST_EXISTS));
      g_free (cases[i].contents);
    }
}

static void
test_stats_bad_input (void)
{
  BadCase cases[] = {
    { "empty.txt", g_strdup (""), 0, TES_IMPORT_ERROR_EMPTY, ": no qaic per-core statistics" },
    { "blank.txt", g_strdup ("\n \n"), -1, TES_IMPORT_ERROR_EMPTY, ": no qaic per-core statistics" },
    { "binary.txt", g_memdup2 ("\x7f" "ELF\x02\x01\x01\0\0\0\0", 12), 12, TES_IMPORT_ERROR_INVALID, ":1: not text" },
    { "garbage.txt", g_strdup ("hello world\nthis is not qaic\n"), -1, TES_IMPORT_ERROR_INVALID,
      ":1: no qaic per-core statistics in the file; the first line that is not is 'hello world'" },
    { "truncated.txt", cut_after_line (summary_text, 8), -1, TES_IMPORT_ERROR_TRUNCATED,
      ":8: the file ends without a 'c0 total:' line for the operator rows from line 5" },
    { "cut-row.txt", g_strndup (summary_text, strstr (summary_text, "      72.00%") + 12 - summary_text), -1,
      TES_IMPORT_ERROR_INVALID, ":6: operator row has 2 of the 9 columns of the header on line 4, and no opdetails" },
    { "extra-cell.txt", replace (summary_text, "      1         N/A", "      1   7     N/A"), -1,
      TES_IMPORT_ERROR_INVALID, ":8: operator row has more cells than the 9 columns of the header on line 4" },
    { "non-numeric.txt", replace (summary_text, "     30     1000.00", "    abc     1000.00"), -1,
      TES_IMPORT_ERROR_INVALID, ":7: column 'count' holds 'abc', not a whole number or N/A" },
    { "percent.txt", replace (summary_text, "  80.00%", "  8O.00%"), -1,
      TES_IMPORT_ERROR_INVALID, ":5: column 'ucycles(%)' holds '8O.00%', not a percentage or N/A" },
    { "na-ucycles.txt", replace (summary_text, "c0       1000", "c0        N/A"), -1,
      TES_IMPORT_ERROR_INVALID, ":5: column 'ucycles' is N/A; it must be a number" },
    { "share.txt", replace (summary_text, "80.00%", "90.00%"), -1, TES_IMPORT_ERROR_INVALID,
      ":5: ucycles(%) is 90.00%, but 1000 of c0's total 1250 ucycles (line 10) is 80.00%" },
    { "pshare.txt", replace (summary_text, "25000      40.00%", "25000      41.00%"), -1, TES_IMPORT_ERROR_INVALID,
      ":7: pcycles(%) is 41.00%, but 25000 of c0's total 62500 pcycles (line 10) is 40.00%" },
    { "thread.txt", replace (summary_text, "46.73% utilization", "46.73% busy"), -1, TES_IMPORT_ERROR_INVALID,
      ":11: expected 'cN tM <engine> <ucycles> ucycles [<start>, <end>] <pcycles> pcycles <percent>% utilization', got" },
    { "span.txt", replace (summary_text, "[100, 1350]", "[1350, 100]"), -1, TES_IMPORT_ERROR_INVALID,
      ":11: span [1350, 100] ends before it starts" },
    { "batch.txt", replace (summary_text, "c00t1 batch ucycles:             1200", "c00t1 batch ucycles:             12x0"), -1,
      TES_IMPORT_ERROR_INVALID, ":16: expected 'cNNtM batch ucycles:" },
    { "overflow.txt", replace (summary_text, "c12t0 activate ucycles:               30",
                               "c12t0 activate ucycles:               99999999999999999999"), -1,
      TES_IMPORT_ERROR_INVALID, ":33: number '99999999999999999999' is out of range" },
    { "before-header.txt", g_strdup (strstr (summary_text, "c0       1000")), -1, TES_IMPORT_ERROR_INVALID,
      ":1: operator row before any 'core  ucycles  …  opdetails' column header" },
    { "two-totals.txt", replace (summary_text, "c12 total:", "c0 total:"), -1, TES_IMPORT_ERROR_INVALID,
      ":26: a second total line for c0 (the first is on line 10)" },
    { "header.txt", replace (summary_text, "ucycles(%)     pcycles", "pcycles"), -1, TES_IMPORT_ERROR_UNSUPPORTED,
      ":4: the column header has no 'ucycles(%)' column" },
    { "details.txt", replace (summary_text, "(float16, uindex8)", "(float16, uindex8"), -1, TES_IMPORT_ERROR_INVALID,
      ":7: operator details 'blockdequantize_mxfp6 HVX TCM (float16, uindex8' do not end with one '(…)' list" },
    { "two-specs.txt", replace (summary_text, "\n\ncore", "\nSpecialization: Other\ncore"), -1,
      TES_IMPORT_ERROR_UNSUPPORTED, ":3: a second specialization ('Other' after 'QAicGraph')" },
  };

  run_bad_cases ("qaic-stats", cases, G_N_ELEMENTS (cases));
}

/* Documented recoveries: they import, and say so in the report info. */
static void
test_stats_recoveries (void)
{
  struct {
    const char *name;
    char       *contents;
    const char *key;
    const char *value;
  } cases[] = {
    { "unknown-line.txt",
      replace (summary_text, "c0: Effective frequency is 1030.04MHz\n",
               "c0: Effective frequency is 1030.04MHz\nc0: PMU counter 0x3F is 12345\n"),
      "warning.skipped_lines", "1 unrecognised line skipped (first at line 19: 'c0: PMU counter 0x3F is 12345')" },
    { "no-trailer.txt", cut_after_line (summary_text, 33),
      "warning.no_trailer", "the file ends (line 33) without the 'total batch ucycles' trailer; it may be truncated" },
    { "thread-max.txt", replace (summary_text, "1250 ucycles [100, 1350]           62500",
                                 "1240 ucycles [100, 1340]           62400"),
      "warning.c0.thread_max",
      "line 10: c0 total 1250 ucycles, 62500 pcycles; its largest thread has 1240 ucycles, 62400 pcycles" },
    { "crlf.txt", NULL, "c12.total.ucycles", "2000" },
  };

  {
    g_auto(GStrv) lines = g_strsplit (summary_text, "\n", -1);
    cases[3].contents = g_strjoinv ("  \r\n", lines);
  }

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = tes_test_tmp_path (cases[i].name);
      g_autoptr(GError) error = NULL;
      g_autoptr(TesReport) report = NULL;
      TesReportCounts counts;

      tes_test_write_file (path, cases[i].contents, -1);
      report = open_with (path, "qaic-stats", &error);
      g_assert_no_error (error);
      tes_test_assert_info (report, cases[i].key, cases[i].value);
      tes_report_get_counts (report, &counts);
      g_assert_cmpint (counts.n_operators, ==, 6);
      g_free (cases[i].contents);
    }
}

/* ------------------------------------------------------------------ */

static void
test_runner_stdout (void)
{
  g_autofree char *cell13 = copy_real (CELL13);
  g_autofree char *cell17 = copy_real (CELL17);
  g_autofree char *cell18 = copy_real (CELL18);
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  TesReportCounts counts;
  guint checked = 0;

  report = open_with (cell13, "qaic-runner-stdout", &error);
  g_assert_no_error (error);
  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_operators, ==, 0);
  g_assert_cmpint (counts.n_tracks, ==, 0);
  tes_test_assert_info (report, "stats.inference_count", "4816");
  tes_test_assert_info (report, "stats.total_duration_us", "20022021");
  tes_test_assert_info (report, "stats.batch_size", "8");
  tes_test_assert_info (report, "stats.inferences_per_second", "1924.281");
  tes_test_assert_info (report, "output.1", "./bert_base_cased_stats/aic-profiling-program-0-trace.json");
  tes_test_assert_info (report, "output.9", "./bert_base_cased_stats/aic-profiling-program-0-activation-0-inf-100.txt");
  tes_test_assert_info (report, "output.10", NULL);
  tes_test_assert_info (report, "message.1", NULL);

  /* the Device Performance table, cell by cell against a plain split */
  g_assert_true (g_file_get_contents (cell13, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_auto(GStrv) cells = g_strsplit (lines[i], ",", -1);
      static const char * const cols[] = { "avg", "min", "max", "std" };

      if (g_strv_length (cells) != 5 || !g_str_has_suffix (cells[0], "Us"))
        continue;
      for (guint c = 0; c < 4; c++)
        {
          g_autofree char *key = g_strdup_printf ("stats.device.%s.%s", cells[0], cols[c]);
          tes_test_assert_info (report, key, g_strstrip (cells[c + 1]));
          checked++;
        }
    }
  g_assert_cmpuint (checked, ==, 12);
  tes_test_assert_info (report, "stats.device.InputWaitTimeUs.max", "3290982.552");
  g_clear_object (&report);

  report = open_with (cell17, "qaic-runner-stdout", &error);
  g_assert_no_error (error);
  tes_test_assert_info (report, "message.1", "Using bounded random inputs");
  tes_test_assert_info (report, "output.70", "./opstats_decode/aic-profiling-program-0-trace.json");
  tes_test_assert_info (report, "output.71", NULL);
  tes_test_assert_info (report, "stats.inferences_per_second", "4.460");
  tes_test_assert_info (report, "stats.device.OutputWaitTimeUs.std", "0.019");
  g_clear_object (&report);

  report = open_with (cell18, "qaic-runner-stdout", &error);
  g_assert_no_error (error);
  tes_test_assert_info (report, "stats.inference_count", "5787");
  tes_test_assert_info (report, "stats.device.ExecTimeUs.avg", "22777.262");
  tes_test_assert_info (report, "output.1", "./bert_base_cased_stats/aic-profiling-program-0-latency.txt");
}

static void
test_latency_stats (void)
{
  g_autofree char *path = copy_real (CELL19);
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = open_with (path, "qaic-runner-stdout", &error);
  g_autoptr(GPtrArray) info = NULL;
  guint latency = 0;

  g_assert_no_error (error);
  info = tes_report_get_info (report);
  for (guint i = 0; i < info->len; i++)
    latency += g_str_has_prefix (((TesInfoEntry *)g_ptr_array_index (info, i))->key, "latency.");
  /* 13 rows x 8 columns, and the percentile line */
  g_assert_cmpuint (latency, ==, 13 * 8 + 1);
  tes_test_assert_info (report, "latency.all_activations_combined.devInfPerSec.mean", "347.295312");
  tes_test_assert_info (report, "latency.all_activations_combined.devExec.50%", "22.802370");
  tes_test_assert_info (report, "latency.all_activations_combined.devOutWaitTime.max", "0.002083");
  tes_test_assert_info (report, "latency.all_activations_combined.totalRoundtripTime.99%", "26.064658");
  tes_test_assert_info (report, "latency.all_activations_combined.totalRoundtripTime.percentile(mean)", "23.694 ms");
}

static void
test_runner_cli (void)
{
  g_autofree char *cell18 = copy_real (CELL18);
  g_autofree char *cell19 = copy_real (CELL19);
  g_auto(TesCliResult) r = { 0 };

  tes_test_run_cli (&r, "info", cell18, NULL);
  g_assert_cmpint (r.status, ==, 0);
  tes_test_assert_contains (r.out, "Importer:       qaic-runner-stdout (version 1)\n");
  tes_test_assert_contains (r.out, "Info:           stats.inferences_per_second = 2312.608\n");
  tes_test_assert_contains (r.out, "Info:           stats.device.InputWaitTimeUs.std = 233.809\n");

  tes_test_run_cli (&r, "info", cell19, NULL);
  g_assert_cmpint (r.status, ==, 0);
  tes_test_assert_contains (r.out, "Info:           latency.all_activations_combined.hostRoundTrip.mean = 23.372801\n");

  tes_test_run_cli (&r, "summary", cell18, NULL);
  g_assert_cmpint (r.status, ==, 1);
  tes_test_assert_contains (r.err, "holds no operators and no slices");
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
test_content_over_name (void)
{
  g_autofree char *stats = copy_real (STATS_FIXTURE);
  g_autofree char *stdout_copy = copy_real (CELL18);
  g_autofree char *renamed = tes_test_tmp_path ("notes.log");
  g_autofree char *renamed2 = tes_test_tmp_path ("run.log");
  g_autofree char *impostor = tes_test_tmp_path ("aic-profiling-program-0-activation-0-inf-1.txt");
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  TesImporter *importer;
  gsize len;

  g_assert_true (g_file_get_contents (stats, &text, &len, NULL));
  tes_test_write_file (renamed, text, len);
  g_clear_pointer (&text, g_free);
  importer = tes_importer_registry_choose (renamed, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tes_importer_get_name (importer), ==, "qaic-stats");

  g_assert_true (g_file_get_contents (stdout_copy, &text, &len, NULL));
  tes_test_write_file (renamed2, text, len);
  importer = tes_importer_registry_choose (renamed2, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tes_importer_get_name (importer), ==, "qaic-runner-stdout");

  tes_test_write_file (impostor, "core dumped\nc0 is a core\n", -1);
  g_assert_null (tes_importer_registry_choose (impostor, NULL, &error));
  g_assert_error (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_UNKNOWN_FORMAT);
}

/* The runner's stdout and the stats file it wrote (cell 13 wrote
 * aic-profiling-program-0-activation-0-inf-100.txt) open as one report, in
 * either order. */
static void
test_combined (void)
{
  g_autofree char *stats = copy_real (STATS_FIXTURE);
  g_autofree char *cell13 = copy_real (CELL13);
  TesImporter *importers[2];
  const char *paths[2];

  for (guint order = 0; order < 2; order++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TesReport) report = NULL;
      g_autoptr(GPtrArray) rows = NULL;
      TesReportCounts counts;

      paths[order] = stats;
      paths[1 - order] = cell13;
      for (guint i = 0; i < 2; i++)
        {
          importers[i] = tes_importer_registry_choose (paths[i], NULL, &error);
          g_assert_no_error (error);
        }

      report = tes_report_open_files (paths, importers, 2, 0, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (tes_report_get_n_sources (report), ==, 2);
      tes_report_get_counts (report, &counts);
      g_assert_cmpint (counts.n_operators, ==, 64);
      g_assert_cmpint (counts.n_slices, ==, 13);
      g_assert_cmpint (counts.n_tracks, ==, 15);
      tes_test_assert_info (report, "c0.total.ucycles", "444672");
      tes_test_assert_info (report, "stats.inference_count", "4816");
      tes_test_assert_info (report, "stats.batch_size", "8");
      tes_test_assert_info (report, "output.9", "./bert_base_cased_stats/aic-profiling-program-0-activation-0-inf-100.txt");
      rows = tes_report_summarize (report, TES_SUMMARY_TOTAL, TES_GROUP_BY_CATEGORY, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (rows->len, ==, 64);
      g_assert_cmpstr (((TesSummaryRow *)g_ptr_array_index (rows, 0))->label, ==, "c1 sync DMAIssue");
    }

  {
    g_auto(TesCliResult) r = { 0 };

    tes_test_run_cli (&r, "info", cell13, stats, NULL);
    g_assert_cmpint (r.status, ==, 0);
    tes_test_assert_contains (r.out, "Operators:      64\n");
    tes_test_assert_contains (r.out, "Info:           stats.inferences_per_second = 1924.281\n");
    tes_test_assert_contains (r.out, "Info:           device_instance.inf_per_second = 345.419\n");
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tes/qaic/stats/fixture", test_stats_fixture);
  g_test_add_func ("/tes/qaic/stats/cli", test_stats_cli);
  g_test_add_func ("/tes/qaic/stats/opstats-summary", test_opstats_summary);
  g_test_add_func ("/tes/qaic/stats/bad-input", test_stats_bad_input);
  g_test_add_func ("/tes/qaic/stats/recoveries", test_stats_recoveries);
  g_test_add_func ("/tes/qaic/runner/stdout", test_runner_stdout);
  g_test_add_func ("/tes/qaic/runner/latency-stats", test_latency_stats);
  g_test_add_func ("/tes/qaic/runner/cli", test_runner_cli);
  g_test_add_func ("/tes/qaic/runner/bad-input", test_runner_bad_input);
  g_test_add_func ("/tes/qaic/content-over-name", test_content_over_name);
  g_test_add_func ("/tes/qaic/combined", test_combined);

  return g_test_run ();
}
