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

/* The qaic importers (qaic-stats, qaic-runner-stdout, and the Chrome
 * importer's qaic-opstats --trace flavour) against the project's own files
 * (tests/data/qaic and the texts below) and, in the conformance suite, the
 * real Cloud AI SDK outputs in ../shared/fixtures/real/qaic. Own and real
 * files go through the same checks, which read the files apart from the
 * importers. */

#define REAL_DIR "fixtures/real/qaic/"
#define OWN_DIR "qaic/"
#define STATS_OWN "aic-profiling-program-0-activation-0-inf-4.txt"
#define RUNNER_OWN "qaic-runner-stdout.txt"
#define LATENCY_OWN "latency_stats.txt"
#define TRACE_OWN "opstats_trace_mini.json"
#define STATS_FIXTURE "cloud-ai-sdk__Profiler.ipynb__aic-profiling-program-0-activation-0-inf-100.txt"
#define CELL13 "cloud-ai-sdk__Profiler.ipynb__cell13_qaic-runner_profiling_stdout.txt"
#define CELL17 "cloud-ai-sdk__Profiler-LLM.ipynb__cell17_qaic-runner_stdout.txt"
#define CELL18 "cloud-ai-sdk__Profiler.ipynb__cell18_qaic-runner_latency_stdout.txt"
#define CELL19 "cloud-ai-sdk__Profiler.ipynb__cell19_latency_stats_python3_output.txt"
#define STATS_FIXTURE_SHORT "aic-profiling-program-0-activation-0-inf-100.txt"

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

static TesReport *
open_with (const char  *path,
           const char  *importer_name,
           GError     **error)
{
  TesImporter *importer = tes_importer_registry_lookup (importer_name);

  g_assert_nonnull (importer);
  return tes_report_import (path, importer, 0, NULL, NULL, error);
}

/* ------------------------------------------------------------------ */

typedef struct
{
  char   *label;      /* "c0 <opdetails, single-spaced>" */
  gint64  ucycles;
  char   *percent;    /* ucycles(%) as printed, without '%' */
  gint64  count;
} VendorOp;

typedef struct
{
  char   *core;       /* "c0" */
  char   *engine;     /* "HVX" */
  gint64  ucycles;
  gint64  start;
  gint64  end;
  char   *pcycles;
  char   *utilization;
} VendorThread;

/* A stats file as plain white-space splitting sees it: kept apart from
 * the importer's parser on purpose. */
typedef struct
{
  GPtrArray  *ops;       /* VendorOp, in file order */
  GPtrArray  *threads;   /* VendorThread, in file order */
  GHashTable *totals;    /* "c0" -> its total ucycles, as printed */
  gint64      batch_ucycles;
  gint64      batch_start;
  gint64      batch_end;
} Vendor;

static void
vendor_op_free (gpointer data)
{
  VendorOp *op = data;

  g_free (op->label);
  g_free (op->percent);
  g_free (op);
}

static void
vendor_thread_free (gpointer data)
{
  VendorThread *thread = data;

  g_free (thread->core);
  g_free (thread->engine);
  g_free (thread->pcycles);
  g_free (thread->utilization);
  g_free (thread);
}

static void
vendor_clear (Vendor *v)
{
  g_clear_pointer (&v->ops, g_ptr_array_unref);
  g_clear_pointer (&v->threads, g_ptr_array_unref);
  g_clear_pointer (&v->totals, g_hash_table_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Vendor, vendor_clear)

static gint64
field_int (GPtrArray *f,
           guint      i)
{
  const char *text = g_ptr_array_index (f, i);

  /* "[9803252406782," and "9803252851384]" too */
  return g_ascii_strtoll (text + (text[0] == '['), NULL, 10);
}

static void
read_vendor (const char *path,
             Vendor     *v)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  v->ops = g_ptr_array_new_with_free_func (vendor_op_free);
  v->threads = g_ptr_array_new_with_free_func (vendor_thread_free);
  v->totals = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_auto(GStrv) raw = g_strsplit_set (lines[i], " \t", -1);
      g_autoptr(GPtrArray) f = g_ptr_array_new ();
      const char *first;
      VendorOp *op;
      GString *label;

      for (guint j = 0; raw[j]; j++)
        if (raw[j][0] != '\0')
          g_ptr_array_add (f, raw[j]);
      if (f->len == 0)
        continue;
      first = g_ptr_array_index (f, 0);

      /* "total batch ucycles: U [s, e]" */
      if (f->len == 6 && g_str_equal (first, "total") && g_str_equal (g_ptr_array_index (f, 1), "batch"))
        {
          v->batch_ucycles = field_int (f, 3);
          v->batch_start = field_int (f, 4);
          v->batch_end = field_int (f, 5);
        }

      if (first[0] != 'c' || !g_ascii_isdigit (first[1]) || f->len < 4)
        continue;

      /* "cN total: U ucycles P pcycles (thread max)" */
      if (g_str_equal (g_ptr_array_index (f, 1), "total:"))
        g_hash_table_insert (v->totals, g_strdup (first), g_strdup (g_ptr_array_index (f, 2)));

      /* "cN tM ENGINE U ucycles [s, e] P pcycles X% utilization" */
      if (f->len == 11 && g_str_equal (g_ptr_array_index (f, 10), "utilization"))
        {
          VendorThread *thread = g_new0 (VendorThread, 1);
          const char *util = g_ptr_array_index (f, 9);

          thread->core = g_strdup (first);
          thread->engine = g_strdup (g_ptr_array_index (f, 2));
          thread->ucycles = field_int (f, 3);
          thread->start = field_int (f, 5);
          thread->end = field_int (f, 6);
          thread->pcycles = g_strdup (g_ptr_array_index (f, 7));
          thread->utilization = g_strndup (util, strlen (util) - 1);
          g_ptr_array_add (v->threads, thread);
        }

      /* "cN U U% P P% count KB ... opdetails" */
      if (f->len < 11 || !g_ascii_isdigit (((char *)g_ptr_array_index (f, 1))[0]))
        continue;

      op = g_new0 (VendorOp, 1);
      label = g_string_new (first);
      for (guint j = 10; j < f->len; j++)
        g_string_append_printf (label, " %s", (char *)g_ptr_array_index (f, j));
      op->label = g_string_free (label, FALSE);
      op->ucycles = g_ascii_strtoll (g_ptr_array_index (f, 1), NULL, 10);
      op->percent = g_strndup (g_ptr_array_index (f, 2), strlen (g_ptr_array_index (f, 2)) - 1);
      op->count = g_ascii_strtoll (g_ptr_array_index (f, 5), NULL, 10);
      g_ptr_array_add (v->ops, op);
    }
}

static int
compare_ops_by_percent (gconstpointer a,
                        gconstpointer b)
{
  const VendorOp *oa = *(VendorOp * const *)a;
  const VendorOp *ob = *(VendorOp * const *)b;
  double pa = g_ascii_strtod (oa->percent, NULL);
  double pb = g_ascii_strtod (ob->percent, NULL);

  return (pa < pb) - (pa > pb);
}

/* What a stats file must give, checked against the file read apart from
 * the importer: one operator row per op line (share as printed, ucycles,
 * count, the share agreeing with the core's total line), every core's
 * total, a Core N track per core and one inference slice per thread line
 * on a track named as the engine (numbered when the core has several),
 * the total batch span on the device track, the 19.2 MHz ucycles clock
 * (the trailer's batch seconds are the batch ucycles at that rate), and
 * `tessera-cli summary` printing the op lines by share, ties in file
 * order. */
static void
check_stats_file (const char *path,
                  const char *network,
                  guint       n_cores)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = open_with (path, "qaic-stats", &error);
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GPtrArray) sorted = NULL;
  g_autoptr(GString) summary = g_string_new (NULL);
  g_autoptr(GArray) batch = NULL;
  g_autofree char *formula = NULL;
  g_autofree char *seconds = NULL;
  g_auto(Vendor) v = { 0 };
  g_auto(TesCliResult) r = { 0 };
  const TesTrack *device;
  TesReportCounts counts;

  g_assert_no_error (error);
  read_vendor (path, &v);
  g_assert_cmpuint (g_hash_table_size (v.totals), ==, n_cores);
  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_operators, ==, v.ops->len);
  g_assert_cmpint (counts.n_tracks, ==, 1 + n_cores + v.threads->len);
  g_assert_cmpint (counts.n_slices, ==, v.threads->len + 1);
  tes_test_assert_info (report, "network", network);
  {
    g_autofree char *cores = g_strdup_printf ("%u", n_cores);

    tes_test_assert_info (report, "cores", cores);
  }

  rows = tes_report_summarize (report, TES_SUMMARY_TOTAL, TES_GROUP_BY_CATEGORY, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, v.ops->len);
  for (guint i = 0; i < v.ops->len; i++)
    {
      const VendorOp *op = g_ptr_array_index (v.ops, i);
      const TesSummaryRow *row = tes_test_find_summary_row (rows, op->label);
      g_autofree char *printed = g_strdup_printf ("%.2f", row->share);
      g_autofree char *core = g_strndup (op->label, strchr (op->label, ' ') - op->label);
      const char *total_text = g_hash_table_lookup (v.totals, core);
      g_autofree char *key = g_strdup_printf ("%s.total.ucycles", core);
      gint64 total;

      g_assert_nonnull (total_text);
      total = g_ascii_strtoll (total_text, NULL, 10);
      tes_test_assert_info (report, key, total_text);
      g_assert_cmpstr (printed, ==, op->percent);
      g_assert_cmpint (row->total, ==, op->ucycles);
      g_assert_cmpint (row->count, ==, op->count);
      g_assert_cmpfloat (fabs (100.0 * op->ucycles / total - row->share), <=, 0.005 + 1e-9);
    }

  /* per-type rows only: no per-operator view */
  g_assert_null (tes_report_summarize (report, TES_SUMMARY_EACH, TES_GROUP_BY_CATEGORY, &error));
  g_assert_error (error, TES_REPORT_ERROR, TES_REPORT_ERROR_NO_DATA);
  g_clear_error (&error);

  device = tes_test_find_track (report, NULL, network);
  g_assert_cmpint (device->kind, ==, TES_TRACK_DEVICE);
  for (guint i = 0; i < v.threads->len; i++)
    {
      const VendorThread *thread = g_ptr_array_index (v.threads, i);
      g_autofree char *core_name = g_strdup_printf ("Core %s", thread->core + 1);
      g_autofree char *name = NULL;
      g_autofree char *args = NULL;
      g_autoptr(GArray) slices = NULL;
      const TesTrack *core = tes_test_find_track (report, network, core_name);
      const TesTrack *track;
      const TesSlice *slice;
      guint n_engine = 0, nth = 0;

      g_assert_cmpint (core->kind, ==, TES_TRACK_CORE);
      for (guint j = 0; j < v.threads->len; j++)
        {
          const VendorThread *other = g_ptr_array_index (v.threads, j);

          if (g_str_equal (other->core, thread->core) && g_str_equal (other->engine, thread->engine))
            {
              nth += j < i;
              n_engine++;
            }
        }
      name = n_engine > 1 ? g_strdup_printf ("%s %u", thread->engine, nth) : g_strdup (thread->engine);
      track = tes_test_find_track (report, core_name, name);
      g_assert_cmpint (track->parent_id, ==, core->id);
      g_assert_cmpint (track->kind, ==, TES_TRACK_THREAD);
      g_assert_cmpint (tes_report_get_clock (report, track->clock_id)->unit, ==, TES_TIME_UNIT_CYCLES);
      g_assert_cmpint (tes_report_get_clock (report, track->clock_id)->ticks_per_second, ==, 19200000);

      slices = tes_test_get_slices (report, track->id);
      g_assert_cmpuint (slices->len, ==, 1);
      slice = &g_array_index (slices, TesSlice, 0);
      g_assert_cmpint (thread->end - thread->start, ==, thread->ucycles);
      g_assert_cmpint (slice->start, ==, thread->start);
      g_assert_cmpint (slice->dur, ==, thread->ucycles);
      g_assert_cmpstr (tes_report_get_string (report, slice->name), ==, "inference");
      g_assert_cmpstr (tes_report_get_string (report, slice->category), ==, thread->engine);
      args = tes_report_get_slice_args (report, track->id, 0, &error);
      g_assert_no_error (error);
      {
        g_autofree char *u = g_strdup_printf ("\"ucycles\":%" G_GINT64_FORMAT, thread->ucycles);
        g_autofree char *p = g_strdup_printf ("\"pcycles\":%s", thread->pcycles);
        g_autofree char *util = g_strdup_printf ("\"utilization(%%)\":%s", thread->utilization);

        tes_test_assert_contains (args, u);
        tes_test_assert_contains (args, p);
        tes_test_assert_contains (args, util);
      }
    }

  /* the total batch span on the device track, in the same timer */
  batch = tes_test_get_slices (report, device->id);
  g_assert_cmpuint (batch->len, ==, 1);
  g_assert_cmpint (v.batch_end - v.batch_start, ==, v.batch_ucycles);
  g_assert_cmpint (g_array_index (batch, TesSlice, 0).start, ==, v.batch_start);
  g_assert_cmpint (g_array_index (batch, TesSlice, 0).dur, ==, v.batch_ucycles);
  formula = tes_report_lookup_info (report, "device_instance.batch_per_second.formula");
  seconds = g_strdup_printf ("1/%g", v.batch_ucycles / 19200000.0);
  g_assert_cmpstr (formula, ==, seconds);

  /* the command line: the vendor's rows by share, two decimals more */
  sorted = g_ptr_array_copy (v.ops, NULL, NULL);
  g_ptr_array_set_free_func (sorted, NULL);   /* v.ops owns them */
  g_ptr_array_sort (sorted, compare_ops_by_percent);
  for (guint i = 0; i < sorted->len; i++)
    {
      const VendorOp *op = g_ptr_array_index (sorted, i);

      g_string_append_printf (summary, "%s %s0%%\n", op->label, op->percent);
    }
  tes_test_run_cli (&r, "summary", path, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, summary->str);
}

/* Our own activation stats file (tests/data/qaic), written in the
 * layout of qaic-runner --aic-profiling-type stats with numbers that
 * agree with their total lines: two cores, one with two HVX threads. */
static void
test_stats_own (void)
{
  g_autofree char *path = tes_test_copy_fixture (TES_TEST_OWN_DATA, OWN_DIR STATS_OWN);
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = open_with (path, "qaic-stats", &error);
  g_autoptr(GPtrArray) rows = NULL;
  const TesSummaryRow *row;

  g_assert_no_error (error);
  check_stats_file (path, "QAicGraph", 2);

  /* by hand: c0 4 ops + c1 4 ops; device, 2 cores, 4 + 3 threads; 7
   * thread spans and the batch span */
  tes_test_assert_info (report, "c0.total.ucycles", "4000");
  tes_test_assert_info (report, "c1.total.ucycles", "4010");
  tes_test_assert_info (report, "c0.total.pcycles", "250000");
  tes_test_assert_info (report, "c0.total.basis", "thread max");
  tes_test_assert_info (report, "c1.inference.pcycles", "250020");
  tes_test_assert_info (report, "c1.effective_frequency_mhz", "1180.50");
  tes_test_assert_info (report, "c0.t2.utilization_percent", "52.25");
  tes_test_assert_info (report, "c0.t0.p100.Host_IO_Port.ucycles", "120");
  tes_test_assert_info (report, "c1.t2.p101.Host_IO_Port.ucycles", "2");
  tes_test_assert_info (report, "c0.t1.activate.ucycles", "38");
  tes_test_assert_info (report, "c1.t2.batch.start", "999995");
  tes_test_assert_info (report, "total_batch.ucycles", "4010");
  tes_test_assert_info (report, "device_instance.batch_per_second", "4788.03");
  tes_test_assert_info (report, "device_instance.inf_per_second", "19152.1");
  tes_test_assert_info (report, "device_instance.inf_per_second.formula", "4/0.000208854");
  tes_test_assert_info (report, "max_input_wait.ucycles", "120");
  tes_test_assert_info (report, "max_output_wait.ucycles", "3");
  tes_test_assert_info (report, "warning.no_trailer", NULL);
  tes_test_assert_info (report, "warning.skipped_lines", NULL);
  tes_test_assert_info (report, "warning.c0.thread_max", NULL);

  rows = tes_report_summarize (report, TES_SUMMARY_TOTAL, TES_GROUP_BY_CATEGORY, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, 8);
  row = g_ptr_array_index (rows, 0);
  g_assert_cmpstr (row->label, ==, "c0 sync DMAIssue");
  g_assert_cmpfloat_with_epsilon (row->share, 95.0, 1e-9);
  /* "elementerf  HVX" and "aiccopytovtcm DMAIssue DDR ": white space folded */
  row = tes_test_find_summary_row (rows, "c0 elementerf HVX TCM (float16)");
  g_assert_cmpint (row->total, ==, 600);
  g_assert_cmpint (row->count, ==, 6);
  g_assert_cmpint (tes_test_find_summary_row (rows, "c0 aiccopytovtcm DMAIssue DDR")->total, ==, 100);
  /* 200 of 4010 is 4.9875 %, printed 4.99 */
  g_assert_cmpfloat_with_epsilon (tes_test_find_summary_row (rows, "c1 barrier HVX")->share, 4.99, 1e-9);

  /* one HVX thread on c1: named by the engine alone */
  tes_test_find_track (report, "Core 1", "HVX");
  tes_test_find_track (report, "Core 0", "HVX 1");
}

static void
test_stats_fixture (void)
{
  g_autofree char *path = tes_test_copy_fixture (TES_TEST_SHARED_DATA, REAL_DIR STATS_FIXTURE);
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = open_with (path, "qaic-stats", &error);
  g_autoptr(GPtrArray) rows = NULL;
  const TesTrack *track;
  const TesSummaryRow *row;
  TesReportCounts counts;

  g_assert_no_error (error);
  check_stats_file (path, "QAicGraph", 2);

  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_operators, ==, 33 + 31);
  g_assert_cmpint (counts.n_tracks, ==, 1 + 2 + 12);
  g_assert_cmpint (counts.n_slices, ==, 12 + 1);
  tes_test_assert_info (report, "c0.total.ucycles", "444672");
  tes_test_assert_info (report, "c1.total.ucycles", "444413");
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
  tes_test_assert_info (report, "warning.no_trailer", NULL);
  tes_test_assert_info (report, "warning.skipped_lines", NULL);

  /* named rows; descending by share, the vendor's own percentages */
  rows = tes_report_summarize (report, TES_SUMMARY_TOTAL, TES_GROUP_BY_CATEGORY, &error);
  g_assert_no_error (error);
  row = g_ptr_array_index (rows, 0);
  g_assert_cmpstr (row->label, ==, "c1 sync DMAIssue");
  g_assert_cmpfloat_with_epsilon (row->share, 95.56, 1e-9);
  row = tes_test_find_summary_row (rows, "c0 aicconvolutiond32 HMX TCM (float16, i8, index32)");
  g_assert_cmpfloat_with_epsilon (row->share, 55.00, 1e-9);
  g_assert_cmpint (row->total, ==, 244552);
  g_assert_cmpint (row->count, ==, 1081);
  /* "elementerf  HVX" (a kind printed with a trailing space) and
   * "aiccopytovtcm DMAIssue DDR " (a trailing space) */
  tes_test_find_summary_row (rows, "c0 elementerf HVX TCM (float16)");
  tes_test_find_summary_row (rows, "c1 aiccopytovtcm DMAIssue DDR");
  g_assert_cmpint (tes_test_find_summary_row (rows, "c1 aiccopysamevtcm DMAIssue TCM")->total, ==, 2);

  /* tracks: QAicGraph > Core 0, Core 1 > HVX 0..3, HMX, DMAIssue */
  tes_test_find_track (report, "Core 0", "HVX 3");
  tes_test_find_track (report, "Core 1", "HMX");
  g_assert_cmpint (tes_test_find_track (report, "Core 1", "DMAIssue")->kind, ==, TES_TRACK_THREAD);
  track = tes_test_find_track (report, "Core 0", "HVX 2");
  g_assert_true (track->has_extent);
  g_assert_cmpint (track->t_max - track->t_min, ==, 444603);
}

static void
test_stats_cli (void)
{
  g_autofree char *path = tes_test_copy_fixture (TES_TEST_SHARED_DATA, REAL_DIR STATS_FIXTURE);
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
  const TesTrack *core12;
  TesReportCounts counts;
  g_auto(TesCliResult) r = { 0 };

  tes_test_write_file (path, summary_text, -1);
  check_stats_file (path, "QAicGraph", 2);

  /* sniffed by content */
  g_assert_cmpuint (tes_importer_sniff (tes_importer_registry_lookup ("qaic-stats"),
                                        (const guint8 *)summary_text, strlen (summary_text), "x.txt"), >=, 90);

  report = tes_report_import (path, tes_importer_registry_choose (path, NULL, &error), 0, NULL, NULL, &error);
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

  core12 = tes_test_find_track (report, "QAicGraph", "Core 12");
  g_assert_cmpint (core12->sort_index, ==, 12);
  /* one thread of an engine: named by the engine alone */
  tes_test_find_track (report, "Core 12", "HVX");
  tes_test_find_track (report, "Core 0", "HMX");

  rows = tes_report_summarize (report, TES_SUMMARY_TOTAL, TES_GROUP_BY_CATEGORY, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, 6);
  g_assert_cmpstr (((TesSummaryRow *)g_ptr_array_index (rows, 0))->label, ==, "c12 elementmul HVX TCM (float16)");
  g_assert_cmpfloat_with_epsilon (tes_test_find_summary_row (rows, "c0 aiccopytovtcm DMAIssue DDR")->share, 72.0, 1e-9);
  g_assert_cmpint (tes_test_find_summary_row (rows, "c0 aicoutputsemaphoreinc HMX DDR (i8)")->total, ==, 10);
  g_assert_cmpint (tes_test_find_summary_row (rows, "c0 blockdequantize_mxfp6 HVX TCM (float16, uindex8)")->count,
                   ==, 30);

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
      tes_test_assert_import_fails (importer, cases[i].name, cases[i].contents, cases[i].len,
                                    cases[i].code, cases[i].message);
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

  tes_test_add (TES_TEST_OWN_DATA, "/tes/qaic/stats/own", test_stats_own);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/qaic/stats/opstats-summary", test_opstats_summary);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/qaic/stats/bad-input", test_stats_bad_input);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/qaic/stats/recoveries", test_stats_recoveries);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/qaic/runner/stdout", test_runner_stdout);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/qaic/runner/latency-stats", test_latency_stats);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/qaic/runner/bad-input", test_runner_bad_input);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/qaic/content-over-name", test_content_over_name);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/qaic/combined", test_combined);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/qaic/opstats-trace", test_opstats_trace);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/qaic/stats/fixture", test_stats_fixture);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/qaic/stats/cli", test_stats_cli);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/qaic/runner/stdout-fixture", test_runner_stdout_fixture);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/qaic/runner/latency-stats-fixture", test_latency_stats_fixture);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/qaic/content-over-name-fixture", test_content_over_name_fixture);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/qaic/combined-fixture", test_combined_fixture);

  return g_test_run ();
}
