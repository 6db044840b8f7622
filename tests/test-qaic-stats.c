/* test-qaic-stats.c
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
#include "test-qaic-util.h"

/* The qaic per-core statistics (qaic-stats: the activation stats files
 * qaic-runner writes and qaic-opstats --summary) against the project's own
 * files (tests/data/qaic and the text below) and, in the conformance suite,
 * the real Cloud AI SDK outputs in ../shared/fixtures/real/qaic. Own and
 * real files go through the same checks, which read the files apart from
 * the importer. test-qaic-runner.c covers qaic-runner's stdout and the
 * qaic-opstats trace. */

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
      TES_IMPORT_ERROR_TRUNCATED, ":6: the file is cut short inside its last line: operator row has 2 of the 9 columns of the header on line 4, and no opdetails" },
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

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tes_test_add (TES_TEST_OWN_DATA, "/tes/qaic/stats/own", test_stats_own);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/qaic/stats/opstats-summary", test_opstats_summary);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/qaic/stats/bad-input", test_stats_bad_input);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/qaic/stats/recoveries", test_stats_recoveries);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/qaic/stats/fixture", test_stats_fixture);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/qaic/stats/cli", test_stats_cli);

  return g_test_run ();
}
