/* test-chrome-importer.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "tes-cache.h"
#include "tes-cache-private.h"
#include "tes-chrome-model.h"
#include "tes-chrome-private.h"
#include "tes-cache-writer-private.h"
#include "tes-importer-registry.h"
#include "tes-report.h"
#include "tes-test-util.h"
#include "test-chrome-util.h"

/* The Chrome JSON importer: its figures against tests/chrome_expected.py
 * on the shared fixtures (conformance) and on our own files, time,
 * tracks and args, bad input, recoveries, truncated and gzip files,
 * sniffing and the parallel parse. test-chrome-flavours.c covers the
 * SigmaStar and qaic-opstats flavours, test-chrome-scan.c the decoder
 * and the scanner against yajl. */


static JsonObject *
run_expected (GPtrArray *paths)
{
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "chrome_expected.py", NULL);
  g_autofree char *python = g_strdup (g_getenv ("PYTHON3"));
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status;

  if (python == NULL)
    python = g_find_program_in_path ("python3");
  g_assert_nonnull (python);
  g_ptr_array_add (argv, python);
  g_ptr_array_add (argv, script);
  for (guint i = 0; i < paths->len; i++)
    g_ptr_array_add (argv, g_ptr_array_index (paths, i));
  g_ptr_array_add (argv, NULL);

  if (!tes_test_run ((const char * const *)argv->pdata, &out, &err, &status))
    g_error ("chrome_expected.py failed (%d): %s", status, err);

  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);

  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

/* A file's figures, pinned: worked out by hand for our own files, and
 * recorded from the shared fixtures, so a change in either the importer or
 * chrome_expected.py shows up as a difference here, not only as a
 * disagreement between the two. */
typedef struct
{
  const char *file;
  gint64      figures[CHROME_N_FIGURES];
  const char *flavour;     /* chrome_expected.py's word for it */
  gboolean    gzip;        /* import it gzipped (made at test time) */
} Pinned;

/* Imports each file (paths[i] is a copy of pinned[i]), compares every
 * figure with chrome_expected.py's (for the files it can read: expected
 * holds them by base name) and with the pinned ones, and the flavour with
 * the script's. */
static void
assert_figures (GPtrArray    *paths,
                JsonObject   *expected,
                const Pinned *pinned,
                gsize         n_pinned)
{
  g_assert_cmpuint (paths->len, ==, n_pinned);

  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      g_autofree char *base = g_path_get_basename (path);
      JsonObject *want = json_object_has_member (expected, base) ? json_object_get_object_member (expected, base) : NULL;
      const Pinned *pin = &pinned[i];
      g_autoptr(GError) error = NULL;
      g_autoptr(TesReport) report = import (path, &error);
      g_autofree char *flavour = NULL;
      const char *script_flavour = pin->flavour;

      g_assert_no_error (error);
      g_test_message ("%s", base);

      for (guint f = 0; f < CHROME_N_FIGURES; f++)
        {
          gint64 got = report_figure (report, chrome_figures[f]);

          if (want != NULL && got != json_object_get_int_member (want, chrome_figures[f]))
            g_error ("%s: %s is %" G_GINT64_FORMAT ", chrome_expected.py says %" G_GINT64_FORMAT,
                     base, chrome_figures[f], got, json_object_get_int_member (want, chrome_figures[f]));
          if (got != pin->figures[f])
            g_error ("%s: %s is %" G_GINT64_FORMAT ", pinned %" G_GINT64_FORMAT,
                     base, chrome_figures[f], got, pin->figures[f]);
        }

      /* every flavour is the one the script decided on */
      if (want != NULL)
        {
          g_assert_cmpstr (json_object_get_string_member (want, "flavour"), ==, pin->flavour);
          script_flavour = json_object_get_string_member (want, "flavour");
        }
      flavour = tes_report_lookup_info (report, "flavour");
      if (g_str_equal (script_flavour, "sigmastar"))
        g_assert_true (g_str_has_prefix (flavour, "SigmaStar"));
      else if (g_str_equal (script_flavour, "qaic"))
        g_assert_true (g_str_has_prefix (flavour, "Qualcomm"));
      else
        g_assert_cmpstr (flavour, ==, "generic");

      g_assert_finalize_object (g_steal_pointer (&report));
    }
}

static const Pinned shared_pinned[] = {
  /*                                                           slices depth flows ctrs values inst uncl e-b  ops */
  { "fixtures/real/catapult/async_begin_end.json",             {   15,    1,    0,   0,     0,   7,   3,  0,   0 }, "generic" },
  { "fixtures/real/catapult/big_trace.json",                   {  933,    4,    0,   0,     0,   0,   0,  0,   0 }, "generic" },
  { "fixtures/real/catapult/flow_simple.json",                 {    5,    0,    3,   0,     0,   0,   0,  0,   0 }, "generic" },
  { "fixtures/real/catapult/instance_counters.json",           {    2,    0,    0,   2,     8,   0,   0,  0,   0 }, "generic" },
  { "fixtures/real/catapult/instant_events.json",              {    0,    0,    0,   0,     0,   5,   0,  0,   0 }, "generic" },
  { "fixtures/real/catapult/nanoseconds.json",                 {    8,    0,    0,   0,     0,   0,   0,  0,   0 }, "generic" },
  { "fixtures/real/catapult/nestable_async.json",              {    9,    2,    0,   0,     0,   2,   1,  0,   0 }, "generic" },
  { "fixtures/real/catapult/simple_trace.json",                {   12,    2,    0,   1,     5,   6,   0,  0,   0 }, "generic" },
  { "fixtures/real/catapult/simple_trace_gz.gz",               {   12,    2,    0,   1,     5,   4,   0,  0,   0 }, "generic" },
  { "fixtures/real/catapult/tall_trace.json",                  {   18,    1,    0,   0,     0,   0,   0,  0,   0 }, "generic" },
  { "fixtures/real/catapult/trivial_trace.json",               {    2,    0,    0,   0,     0,   0,   0,  0,   0 }, "generic" },
  { "fixtures/sigmastar/log_ctrl0.json",                       {   96,    0,    0,   0,     0,   0,   0,  0,  96 }, "sigmastar" },
  { "fixtures/sigmastar/performance_timeline_yolov8s.json",    {   96,    0,    0,   0,     0,   0,   0,  0,  96 }, "sigmastar" },
  { "fixtures/qaic/opstats_trace.json",                        {  136,    1,    4,   0,     0,   0,   0,  0,  76 }, "qaic" },
};

static GBytes *
gzip_bytes (const char *data,
            gsize       len)
{
  g_autoptr(GZlibCompressor) compressor = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 9);
  g_autoptr(GError) error = NULL;
  gsize size = len + 1024;
  guint8 *gz = g_malloc (size);
  gsize read = 0, written = 0;

  g_converter_convert (G_CONVERTER (compressor), data, len, gz, size,
                       G_CONVERTER_INPUT_AT_END, &read, &written, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (read, ==, len);

  return g_bytes_new_take (gz, written);
}

/* Copies of the files, in the order of pinned; a gzip one is compressed
 * on the way, as <name>.gz. */
static GPtrArray *
copy_pinned (TesTestData   data,
             const Pinned *pinned,
             gsize         n_pinned)
{
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);

  for (gsize i = 0; i < n_pinned; i++)
    {
      g_autofree char *copy = tes_test_copy_fixture (data, pinned[i].file);
      g_autofree char *contents = NULL;
      g_autofree char *gz_path = NULL;
      g_autoptr(GBytes) gz = NULL;
      gsize len;

      if (!pinned[i].gzip)
        {
          g_ptr_array_add (paths, g_steal_pointer (&copy));
          continue;
        }
      g_assert_true (g_file_get_contents (copy, &contents, &len, NULL));
      gz = gzip_bytes (contents, len);
      gz_path = g_strconcat (copy, ".gz", NULL);
      tes_test_write_file (gz_path, g_bytes_get_data (gz, NULL), g_bytes_get_size (gz));
      g_ptr_array_add (paths, g_steal_pointer (&gz_path));
    }

  return paths;
}

/* Every phase, both forms, cut short, gzip, nanoseconds and the two vendor
 * flavours, in small files of our own whose figures are counted by hand
 * (each file lists its events one a line). */
static const Pinned own_pinned[] = {
  /*                                 slices depth flows ctrs values inst uncl e-b  ops */
  { "chrome/phases_array.json",      {    9,    2,    3,   3,     6,   4,   1,  1,   0 }, "generic" },
  { "chrome/phases_array.json",      {    9,    2,    3,   3,     6,   4,   1,  1,   0 }, "generic", TRUE },
  { "chrome/async_object.json",      {    8,    2,    0,   0,     0,   3,   2,  0,   0 }, "generic" },
  { "chrome/nanoseconds.json",       {    7,    0,    0,   0,     0,   0,   0,  0,   0 }, "generic" },
  { "chrome/cut_short.json",         {    3,    2,    0,   0,     0,   0,   1,  0,   0 }, "generic" },
  { "chrome/sigmastar_array.json",   {    4,    0,    0,   0,     0,   0,   0,  0,   4 }, "sigmastar" },
  { "chrome/sigmastar_object.json",  {    4,    0,    0,   0,     0,   0,   0,  0,   4 }, "sigmastar" },
  { "chrome/qaic_opstats.json",      {   13,    0,    2,   0,     0,   0,   0,  0,   5 }, "qaic" },
};

static void
test_conformance (void)
{
  g_autoptr(GPtrArray) paths = copy_pinned (TES_TEST_SHARED_DATA, shared_pinned, G_N_ELEMENTS (shared_pinned));
  g_autoptr(JsonObject) expected = run_expected (paths);

  for (guint i = 0; i < G_N_ELEMENTS (shared_pinned); i++)
    {
      g_autofree char *base = g_path_get_basename (shared_pinned[i].file);

      g_assert_true (json_object_has_member (expected, base));
    }
  assert_figures (paths, expected, shared_pinned, G_N_ELEMENTS (shared_pinned));
}

static void
test_own_files (void)
{
  g_autoptr(GPtrArray) paths = copy_pinned (TES_TEST_OWN_DATA, own_pinned, G_N_ELEMENTS (own_pinned));
  g_autoptr(GPtrArray) readable = g_ptr_array_new ();
  g_autoptr(JsonObject) expected = NULL;

  /* json.loads cannot read a file cut short: that one is pinned only */
  for (guint i = 0; i < paths->len; i++)
    if (!g_str_has_suffix (g_ptr_array_index (paths, i), "cut_short.json"))
      g_ptr_array_add (readable, g_ptr_array_index (paths, i));
  g_assert_cmpuint (readable->len, ==, paths->len - 1);
  expected = run_expected (readable);
  g_assert_cmpuint (json_object_get_size (expected), ==, readable->len);

  assert_figures (paths, expected, own_pinned, G_N_ELEMENTS (own_pinned));
}

/* ---- time -------------------------------------------------------------- */

static void
test_decimal (void)
{
  static const struct
  {
    const char      *text;
    gint64           ns;
    TesChromeDecimal status;
  } cases[] = {
    { "0", 0, TES_CHROME_DECIMAL_OK },
    { "1.1", 1100, TES_CHROME_DECIMAL_OK },
    { "3.011", 3011, TES_CHROME_DECIMAL_OK },
    { "1576.044", 1576044, TES_CHROME_DECIMAL_OK },
    { "438877834451", 438877834451000, TES_CHROME_DECIMAL_OK },
    { "-2.5", -2500, TES_CHROME_DECIMAL_OK },
    { "1e3", 1000000, TES_CHROME_DECIMAL_OK },
    { "1.5E-3", 2, TES_CHROME_DECIMAL_ROUNDED },          /* 1.5 ns, half up */
    { "0.0004", 0, TES_CHROME_DECIMAL_ROUNDED },
    { "0.0005", 1, TES_CHROME_DECIMAL_ROUNDED },
    { "-0.0005", -1, TES_CHROME_DECIMAL_ROUNDED },         /* away from zero */
    { "1576.0444444444444444444", 1576044, TES_CHROME_DECIMAL_ROUNDED },
    { "9223372036854775.807", G_MAXINT64, TES_CHROME_DECIMAL_OK },
    { "9223372036854775.808", 0, TES_CHROME_DECIMAL_RANGE },
    { "1e300", 0, TES_CHROME_DECIMAL_RANGE },
    { "1e-300", 0, TES_CHROME_DECIMAL_ROUNDED },
    { "", 0, TES_CHROME_DECIMAL_INVALID },
    { "abc", 0, TES_CHROME_DECIMAL_INVALID },
    { "1.", 0, TES_CHROME_DECIMAL_INVALID },
    { "1e", 0, TES_CHROME_DECIMAL_INVALID },
    { "NaN", 0, TES_CHROME_DECIMAL_INVALID },
    { "12 ", 0, TES_CHROME_DECIMAL_INVALID },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gint64 v = -42;
      TesChromeDecimal status = tes_chrome_parse_decimal (cases[i].text, strlen (cases[i].text), 3, &v);

      g_test_message ("%s", cases[i].text);
      g_assert_cmpint (status, ==, cases[i].status);
      if (status <= TES_CHROME_DECIMAL_ROUNDED)
        g_assert_cmpint (v, ==, cases[i].ns);
    }
}

/* Fractional microseconds become exact nanoseconds: want holds each
 * slice's (start, dur) in ns, on the file's one thread, "Thread 1". */
static void
check_nanoseconds (TesTestData   data,
                   const char   *relative,
                   const gint64  want[][2],
                   gsize         n_want)
{
  g_autofree char *path = tes_test_copy_fixture (data, relative);
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GArray) slices = NULL;
  const TesTrack *thread;
  const TesClock *clock;

  report = import (path, &error);
  g_assert_no_error (error);

  g_assert_cmpuint (tes_report_get_n_clocks (report), ==, 1);
  clock = tes_report_get_clock (report, 1);
  g_assert_cmpint (clock->unit, ==, TES_TIME_UNIT_NS);
  g_assert_cmpint (clock->ticks_per_second, ==, 1000000000);

  thread = find_track (report, TES_TRACK_THREAD, "Thread 1", -1);
  g_assert_cmpint (tes_report_get_track (report, thread->parent_id)->kind, ==, TES_TRACK_PROCESS);
  slices = all_slices (report, thread->id);
  g_assert_cmpuint (slices->len, ==, n_want);
  for (guint i = 0; i < slices->len; i++)
    {
      const TesSlice *s = &g_array_index (slices, TesSlice, i);

      g_assert_cmpint (s->start, ==, want[i][0]);
      g_assert_cmpint (s->dur, ==, want[i][1]);
    }

  tes_test_assert_info (report, "displayTimeUnit", "ns");
}

static void
test_nanoseconds (void)
{
  /* tests/data/chrome/nanoseconds.json, line by line: 1.5 µs, 0.25,
   * 0.001, exponents (1.5e3, 2.5E-1) and numeric strings */
  static const gint64 want[][2] = {
    { 0, 1500 }, { 1500, 250 }, { 1750, 1 }, { 1751, 249 },
    { 1500000, 250 }, { 2000002, 12500 }, { 2012503, 7 },
  };

  check_nanoseconds (TES_TEST_OWN_DATA, "chrome/nanoseconds.json", want, G_N_ELEMENTS (want));
}

static int
compare_int64 (gconstpointer a,
               gconstpointer b)
{
  gint64 x = *(const gint64 *)a, y = *(const gint64 *)b;

  return (x > y) - (x < y);
}

/* Times in µs as numbers: those of at most 15 digits and 3 decimals the
 * parser reads directly, the others through tes_chrome_parse_decimal()
 * (test_decimal above); each slice must start where that parse puts it. */
static void
test_plain_times (void)
{
  static const char * const times[] = {
    "0", "7", "1.5", "1.25", "1.125", "1.0625", "12.0", "99.999", "100.001",
    "123456789012345.678", "999999999999999.999", "1000000000000000", "1000000000000000.5",
    "3.14159", "2.5e1", "0.001", "0.0004", "4.000", "5.0001",
  };
  g_autofree char *path = tes_test_tmp_path ("plain-times.json");
  g_autoptr(GString) text = g_string_new ("[\n");
  g_autoptr(GArray) want = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GArray) slices = NULL;
  const TesTrack *thread;

  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    {
      gint64 ns = 0;

      g_assert_cmpint (tes_chrome_parse_decimal (times[i], strlen (times[i]), 3, &ns), <=, TES_CHROME_DECIMAL_ROUNDED);
      g_array_append_val (want, ns);
      g_string_append_printf (text, "%s{\"ph\":\"X\",\"name\":\"t%u\",\"ts\":%s,\"dur\":1,\"pid\":1,\"tid\":1}",
                              i > 0 ? ",\n" : "", i, times[i]);
    }
  g_string_append (text, "\n]\n");
  g_array_sort (want, compare_int64);
  tes_test_write_file (path, text->str, -1);

  report = import (path, &error);
  g_assert_no_error (error);
  thread = find_track (report, TES_TRACK_THREAD, "Thread 1", -1);
  slices = all_slices (report, thread->id);
  g_assert_cmpuint (slices->len, ==, want->len);
  for (guint i = 0; i < slices->len; i++)
    g_assert_cmpint (g_array_index (slices, TesSlice, i).start, ==, g_array_index (want, gint64, i));
}

static void
test_nanoseconds_shared (void)
{
  static const gint64 want[][2] = {
    { 0, 1100 }, { 1100, 200 }, { 1300, 300 }, { 1700, 400 },
    { 3000, 11 }, { 3011, 2 }, { 3013, 3 }, { 3017, 4 },
  };

  check_nanoseconds (TES_TEST_SHARED_DATA, "fixtures/real/catapult/nanoseconds.json", want, G_N_ELEMENTS (want));
}

/* Names, sort order and nesting from a small trace with M events last. */
static void
test_tracks_and_args (void)
{
  g_autofree char *path = tes_test_tmp_path ("tracks.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GArray) slices = NULL;
  g_autofree char *args = NULL;
  const TesTrack *proc_a, *proc_b, *main_thread, *worker;

  tes_test_write_file (path,
    "{\"traceEvents\": [\n"
    "{\"ph\":\"X\",\"pid\":7,\"tid\":1,\"ts\":10,\"dur\":5,\"name\":\"outer\",\"cat\":\"c\",\"args\":{\"k\":\"v \\\"q\\\"\",\"n\":[1,2,{\"x\":null}]}},\n"
    "{\"ph\":\"B\",\"pid\":7,\"tid\":1,\"ts\":11,\"name\":\"inner\",\"args\":{\"b\":1},\"tts\":3.5},\n"
    "{\"ph\":\"E\",\"pid\":7,\"tid\":1,\"ts\":12,\"args\":{\"e\":2}},\n"
    "{\"ph\":\"X\",\"pid\":\"gpu\",\"tid\":\"queue\",\"ts\":1,\"dur\":1,\"name\":\"kernel\"},\n"
    "{\"ph\":\"M\",\"pid\":7,\"name\":\"process_name\",\"args\":{\"name\":\"Host\"}},\n"
    "{\"ph\":\"M\",\"pid\":7,\"name\":\"process_sort_index\",\"args\":{\"sort_index\":5}},\n"
    "{\"ph\":\"M\",\"pid\":\"gpu\",\"name\":\"process_sort_index\",\"args\":{\"sort_index\":-1}},\n"
    "{\"ph\":\"M\",\"pid\":7,\"tid\":1,\"name\":\"thread_name\",\"args\":{\"name\":\"main\"}},\n"
    "{\"ph\":\"M\",\"pid\":\"gpu\",\"tid\":\"queue\",\"name\":\"thread_name\",\"args\":{\"name\":\"worker\"}}\n"
    "], \"otherData\": {\"version\": \"1.2\"}, \"stackFrames\": {\"1\": {\"name\": \"x\"}}}\n", -1);

  report = import (path, &error);
  g_assert_no_error (error);

  proc_a = find_track (report, TES_TRACK_PROCESS, "Host", 0);
  proc_b = find_track (report, TES_TRACK_PROCESS, "Process gpu", 0);
  g_assert_cmpint (proc_b->sort_index, <, proc_a->sort_index);
  main_thread = find_track (report, TES_TRACK_THREAD, "main", proc_a->id);
  worker = find_track (report, TES_TRACK_THREAD, "worker", proc_b->id);
  g_assert_cmpint (worker->n_slices, ==, 1);

  slices = all_slices (report, main_thread->id);
  g_assert_cmpuint (slices->len, ==, 2);
  g_assert_cmpint (g_array_index (slices, TesSlice, 1).depth, ==, 1);
  g_assert_cmpint (g_array_index (slices, TesSlice, 1).start, ==, 11000);
  g_assert_cmpint (g_array_index (slices, TesSlice, 1).dur, ==, 1000);
  g_assert_cmpint (g_array_index (slices, TesSlice, 0).self_dur, ==, 4000);

  args = tes_report_get_slice_args (report, main_thread->id, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (args, ==, "{\"k\":\"v \\\"q\\\"\",\"n\":[1,2,{\"x\":null}]}");
  g_clear_pointer (&args, g_free);

  /* B and E args are merged; thread time rides along */
  args = tes_report_get_slice_args (report, main_thread->id, 1, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (args, ==, "{\"b\":1,\"thread_ts_ns\":3500,\"e\":2}");

  {
    g_autofree char *v = tes_report_lookup_info (report, "otherData.version");
    g_assert_cmpstr (v, ==, "1.2");
  }
}

/* ---- input forms and recoveries ---------------------------------------- */

static void
assert_no_cache (const char *path)
{
  g_autofree char *cache = tes_cache_path_for_source (path);
  g_autofree char *dir = g_path_get_dirname (cache);
  g_autofree char *base = g_path_get_basename (cache);
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  g_assert_false (g_file_test (cache, G_FILE_TEST_EXISTS));
  while (d != NULL && (name = g_dir_read_name (d)))
    g_assert_false (g_str_has_prefix (name, base));
}

static TesReport *
import_text (const char  *name,
             const char  *text,
             gssize       len,
             GError     **error)
{
  g_autofree char *path = tes_test_tmp_path (name);

  tes_test_write_file (path, text, len);
  return import (path, error);
}

static void
expect_error (const char *name,
              const char *text,
              gssize      len,
              int         code,
              const char *fragment,
              guint64     offset,
              guint64     line)
{
  g_autofree char *path = tes_test_tmp_path (name);
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = NULL;

  tes_test_write_file (path, text, len);
  report = import (path, &error);

  g_assert_null (report);
  g_assert_error (error, TES_IMPORT_ERROR, code);
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_prefix (error->message, path));
  g_assert_nonnull (strstr (error->message, fragment));
  if (offset != G_MAXUINT64)
    {
      g_autofree char *where = g_strdup_printf ("byte %" G_GUINT64_FORMAT " (line %" G_GUINT64_FORMAT ")",
                                                offset, line);
      g_assert_nonnull (strstr (error->message, where));
    }
  assert_no_cache (path);
}

static void
test_bad_input (void)
{
  g_autoptr(GString) deep = g_string_new (NULL);
  g_autoptr(GString) deep_args = g_string_new (NULL);

  /* invalid JSON: a missing comma on line 2 */
  expect_error ("missing-comma.json",
                "[{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"pid\":1,\"tid\":1},\n{\"ph\":\"X\" \"ts\":2}]",
                -1, TES_IMPORT_ERROR_INVALID, "invalid JSON", 55, 2);

  /* NaN is not JSON (Python writes it anyway) */
  expect_error ("nan.json",
                "[\n{\"ph\":\"X\",\"ts\":NaN,\"dur\":1,\"pid\":1,\"tid\":1}]",
                -1, TES_IMPORT_ERROR_INVALID, "NaN and Infinity are not JSON numbers", 17, 2);

  /* invalid UTF-8 in a name */
  expect_error ("utf8.json",
                "[{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"pid\":1,\"tid\":1,\"name\":\"a\xff\xfe\"}]",
                -1, TES_IMPORT_ERROR_INVALID, "UTF8", G_MAXUINT64, 0);

  /* 100 000 nested arrays, at the top and inside args */
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, ']');
  expect_error ("deep.json", deep->str, deep->len, TES_IMPORT_ERROR_INVALID,
                "nested deeper than 1000 levels", 1000, 1);

  g_string_append (deep_args, "[{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"pid\":1,\"tid\":1,\"args\":{\"a\":");
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep_args, '[');
  expect_error ("deep-args.json", deep_args->str, deep_args->len, TES_IMPORT_ERROR_INVALID,
                "nested deeper than 1000 levels", G_MAXUINT64, 0);

  /* not a trace */
  expect_error ("scalar.json", "42", -1, TES_IMPORT_ERROR_INVALID, "not a Chrome trace", G_MAXUINT64, 0);
  expect_error ("no-events.json", "{\"foo\": [1, 2]}", -1, TES_IMPORT_ERROR_EMPTY, "no trace events",
                G_MAXUINT64, 0);
  expect_error ("empty-array.json", "[]", -1, TES_IMPORT_ERROR_EMPTY, "no trace events", G_MAXUINT64, 0);
  expect_error ("blank.json", " \n ", -1, TES_IMPORT_ERROR_EMPTY, "no JSON", G_MAXUINT64, 0);
  expect_error ("cut-early.json", "{\"traceEvents\"", -1, TES_IMPORT_ERROR_TRUNCATED,
                "ends before any trace event", G_MAXUINT64, 0);
}

static void
test_recoveries (void)
{
  static const struct { const char *key; const char *start; } warnings[] = {
    { "warning.out_of_range", "2 events whose ts or dur overflow" },
    { "warning.negative_dur", "1 negative durations" },
    { "warning.no_ts", "1 events without a valid" },
    { "warning.bad_type", "2 fields of the wrong JSON type" },
    { "warning.rounded", "1 events had times finer" },
    { "warning.unsupported_phase", "1 sample" },
    { "warning.counter_value", "1 counter args" },
    { "warning.not_an_event", "1 entries" },
    { "warning.no_phase", "1 events without \"ph\"" },
    { "warning.unclosed", "1 begins without an end" },
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GArray) slices = NULL;
  g_autofree char *w = NULL;
  const TesTrack *thread;

  /* Each problem is kept out of the cache and named in its info. */
  report = import_text ("recover.json",
    "[\n"
    "{\"ph\":\"E\",\"ts\":1,\"pid\":1,\"tid\":1},\n"                       /* E without B */
    "{\"ph\":\"X\",\"ts\":2,\"dur\":-5,\"pid\":1,\"tid\":1,\"name\":\"neg\"},\n"
    "{\"ph\":\"X\",\"ts\":\"abc\",\"dur\":1,\"pid\":1,\"tid\":1},\n"     /* wrong type: skipped */
    "{\"ph\":\"X\",\"ts\":\"3\",\"dur\":true,\"pid\":1,\"tid\":1,\"name\":\"str-ts\"},\n"
    "{\"ph\":\"X\",\"ts\":1e300,\"dur\":1,\"pid\":1,\"tid\":1},\n"       /* huge: skipped */
    "{\"ph\":\"X\",\"ts\":4,\"dur\":99999999999999999999,\"pid\":1,\"tid\":1},\n"
    "{\"ph\":\"X\",\"ts\":5.0001,\"dur\":1,\"pid\":1,\"tid\":1,\"name\":\"fine\"},\n"
    "{\"ph\":\"B\",\"ts\":6,\"pid\":1,\"tid\":1,\"name\":\"open\"},\n"
    "{\"ph\":\"P\",\"ts\":7,\"pid\":1,\"tid\":1},\n"
    "{\"ph\":\"C\",\"ts\":8,\"pid\":1,\"name\":\"mem\",\"args\":{\"a\":1,\"b\":\"2.5\",\"c\":\"x\"}},\n"
    "42,\n"
    "{\"ts\":9},\n"
    "{\"ph\":\"X\",\"ts\":10,\"dur\":2,\"pid\":1,\"tid\":1,\"name\":\"last\"}\n"
    "]", -1, &error);
  g_assert_no_error (error);

  g_assert_cmpint (report_figure (report, "slices"), ==, 5);
  g_assert_cmpint (report_figure (report, "unclosed"), ==, 1);
  g_assert_cmpint (report_figure (report, "e_without_b"), ==, 1);
  g_assert_cmpint (report_figure (report, "counter_values"), ==, 2);

  thread = find_track (report, TES_TRACK_THREAD, "Thread 1", -1);
  slices = all_slices (report, thread->id);
  g_assert_cmpuint (slices->len, ==, 5);
  /* "neg" at 2 µs: clamped to 0 and flagged */
  g_assert_cmpint (g_array_index (slices, TesSlice, 0).start, ==, 2000);
  g_assert_cmpint (g_array_index (slices, TesSlice, 0).dur, ==, 0);
  g_assert_true (g_array_index (slices, TesSlice, 0).flags & TES_SLICE_FLAG_CLAMPED);
  /* "str-ts": numeric string accepted, boolean dur ignored */
  g_assert_cmpint (g_array_index (slices, TesSlice, 1).start, ==, 3000);
  g_assert_cmpint (g_array_index (slices, TesSlice, 1).dur, ==, 0);
  /* 5.0001 µs rounds to 5000 ns */
  g_assert_cmpint (g_array_index (slices, TesSlice, 2).start, ==, 5000);
  /* the open B lasts to the end of the trace, 12 µs */
  g_assert_cmpint (g_array_index (slices, TesSlice, 3).start, ==, 6000);
  g_assert_cmpint (g_array_index (slices, TesSlice, 3).dur, ==, 6000);
  g_assert_true (g_array_index (slices, TesSlice, 3).flags & TES_SLICE_FLAG_UNCLOSED);
  g_assert_cmpint (g_array_index (slices, TesSlice, 4).depth, ==, 1);

  w = tes_report_lookup_info (report, "warning.e_without_b");
  g_assert_cmpstr (w, ==, "1 E events without a matching B were dropped (first at byte 2, line 2)");
  g_clear_pointer (&w, g_free);
  w = tes_report_lookup_info (report, "warning.no_ts");
  g_assert_nonnull (strstr (w, "line 4)"));
  for (guint i = 0; i < G_N_ELEMENTS (warnings); i++)
    {
      g_autofree char *text = tes_report_lookup_info (report, warnings[i].key);

      if (text == NULL || !g_str_has_prefix (text, warnings[i].start))
        g_error ("info %s is '%s', expected to start with '%s'", warnings[i].key, text, warnings[i].start);
    }
}

/* The format allows a trace without its closing ]; a cut in the middle of
 * an event drops that event. */
static void
test_truncated (void)
{
  const char *full =
    "[{\"ph\":\"B\",\"ts\":1,\"pid\":1,\"tid\":1,\"name\":\"a\"},\n"
    "{\"ph\":\"X\",\"ts\":2,\"dur\":1,\"pid\":1,\"tid\":1,\"name\":\"b\"},\n"
    "{\"ph\":\"X\",\"ts\":5,\"dur\":1,\"pid\":1,\"tid\":1,\"name\":\"c\"},\n";
  gsize cut_mid = strlen (full) - 20;
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) whole = NULL;
  g_autoptr(TesReport) cut = NULL;
  g_autofree char *w = NULL;

  whole = import_text ("no-bracket.json", full, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (report_figure (whole, "slices"), ==, 3);
  g_assert_cmpint (report_figure (whole, "unclosed"), ==, 1);
  w = tes_report_lookup_info (whole, "warning.truncated");
  g_assert_nonnull (w);
  g_clear_pointer (&w, g_free);
  w = tes_report_lookup_info (whole, "warning.partial_event");
  g_assert_null (w);

  cut = import_text ("cut.json", full, cut_mid, &error);
  g_assert_no_error (error);
  g_assert_cmpint (report_figure (cut, "slices"), ==, 2);
  w = tes_report_lookup_info (cut, "warning.partial_event");
  g_assert_nonnull (strstr (w, "line 3)"));
}

/* A gzip file, and one cut short. */
static void
test_gzip (void)
{
  const char *text = "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":2,\"pid\":1,\"tid\":2,\"name\":\"z\"},"
                     "{\"ph\":\"i\",\"ts\":2,\"pid\":1,\"tid\":2,\"name\":\"m\",\"s\":\"t\"}]}";
  g_autoptr(GBytes) bytes = gzip_bytes (text, strlen (text));
  const guint8 *gz = g_bytes_get_data (bytes, NULL);
  gsize written = g_bytes_get_size (bytes);
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(TesReport) cut = NULL;
  g_autofree char *path = tes_test_tmp_path ("trace.json.gz");
  guint score;

  score = tes_importer_sniff (chrome (), gz, written, "trace.json.gz");
  g_assert_cmpuint (score, ==, 100);

  tes_test_write_file (path, (const char *)gz, written);
  report = import (path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (report_figure (report, "slices"), ==, 1);
  g_assert_cmpint (report_figure (report, "instants"), ==, 1);
  {
    g_autofree char *format = tes_report_lookup_info (report, "format");
    g_assert_true (g_str_has_suffix (format, "gzip"));
  }

  cut = import_text ("cut.json.gz", (const char *)gz, written - 12, &error);
  g_assert_no_error (error);
  g_assert_cmpint (report_figure (cut, "slices"), ==, 1);

  /* damaged deflate data: an error (bad JSON or bad data), no cache */
  {
    g_autofree guint8 *bad = g_memdup2 (gz, written);
    g_autofree char *bad_path = tes_test_tmp_path ("bad.json.gz");
    g_autoptr(TesReport) none = NULL;

    for (gsize i = 12; i < written - 8; i += 3)
      bad[i] ^= 0x5a;
    tes_test_write_file (bad_path, (const char *)bad, written);
    none = import (bad_path, &error);
    g_assert_null (none);
    g_assert_nonnull (error);
    g_test_message ("%s", error->message);
    g_assert_true (g_str_has_prefix (error->message, bad_path));
    g_clear_error (&error);
    assert_no_cache (bad_path);
  }
}

static void
test_sniff (void)
{
  static const struct
  {
    const char *text;
    gboolean    claimed;
  } cases[] = {
    { "{\"traceEvents\": []}", TRUE },
    { "\xEF\xBB\xBF  [{\"name\": \"a\", \"ph\": \"X\", \"ts\": 1}", TRUE },
    { "[{\"pid\":1,\"ph\":\"B\",\"ts\":0}]", TRUE },
    { "CONV_2D 80.743%\nSOFTMAX 8.033%\n", FALSE },
    { "0 CONV_2D 7.880%\n", FALSE },
    { "{\"packets\": [{\"ts\": 1}]}", FALSE },
    { "[1, 2, 3]", FALSE },
    { "", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      guint score = tes_importer_sniff (chrome (), (const guint8 *)cases[i].text,
                                        strlen (cases[i].text), "x.json");

      g_test_message ("%s", cases[i].text);
      if (cases[i].claimed)
        g_assert_cmpuint (score, >=, 50);
      else
        g_assert_cmpuint (score, <, 50);
    }
}

/* ---- parallel parsing -------------------------------------------------- */

/* A file big enough to be cut for two threads, where B/E pairs and flows
 * straddle the cut; the counts must equal the script's. */
static void
write_big_trace (const char *path,
                 gboolean    poison)
{
  g_autoptr(GString) s = g_string_sized_new (40 * 1024 * 1024);
  gboolean poisoned = FALSE;
  guint n = 0;

  g_string_append (s, "{\"otherData\":{\"x\":1},\"traceEvents\":[\n");
  g_string_append (s, "{\"ph\":\"M\",\"pid\":1,\"tid\":1,\"name\":\"thread_name\",\"args\":{\"name\":\"t1\"}}");

  while (s->len < 20 * 1024 * 1024)
    {
      guint64 ts = (guint64)n * 10;
      guint tid = 1 + n % 3;

      if (poison && !poisoned && s->len > 7 * 1024 * 1024)
        {
          /* one event whose args hold 6 MB of "}, {" + '"': every cut
           * guessed in there (at 2/5 and 3/5 of the file) is inside an
           * event */
          g_string_append_printf (s, ",\n{\"ph\":\"i\",\"ts\":%" G_GUINT64_FORMAT ",\"pid\":1,\"tid\":1,"
                                  "\"name\":\"}, {\",\"args\":{\"l\":[{\"x\":0}", ts);
          while (s->len < 13 * 1024 * 1024)
            g_string_append (s, ", {\"x\":1}");
          g_string_append (s, "]}}");
          poisoned = TRUE;
        }

      g_string_append_printf (s, ",\n{\"ph\":\"B\",\"ts\":%" G_GUINT64_FORMAT ".5,\"pid\":1,\"tid\":%u,\"name\":\"op%u\","
                              "\"args\":{\"i\":%u,\"s\":\"x\\ty\"}}",
                              ts, tid, n % 7, n);
      g_string_append_printf (s, ",\n{\"ph\":\"X\",\"ts\":%" G_GUINT64_FORMAT ".6,\"dur\":1.2,\"pid\":1,\"tid\":%u,"
                              "\"name\":\"k\",\"cat\":\"c%u\"}",
                              ts, tid, n % 5);
      if (n % 50 == 0)
        g_string_append_printf (s, ",\n{\"ph\":\"s\",\"ts\":%" G_GUINT64_FORMAT ",\"pid\":1,\"tid\":%u,\"id\":%u,\"name\":\"f\"}"
                                ",\n{\"ph\":\"f\",\"ts\":%" G_GUINT64_FORMAT ",\"pid\":1,\"tid\":%u,\"id\":%u,\"name\":\"f\"}",
                                ts, tid, n, ts + 3000, 1 + (tid % 3), n);
      if (n % 17 == 0)
        g_string_append_printf (s, ",\n{\"ph\":\"C\",\"ts\":%" G_GUINT64_FORMAT ",\"pid\":1,\"name\":\"q\",\"args\":{\"v\":%u}}",
                                ts, n % 100);
      /* E events trail their B by 1000 events, so many cross the cut */
      if (n >= 1000)
        g_string_append_printf (s, ",\n{\"ph\":\"E\",\"ts\":%" G_GUINT64_FORMAT ",\"pid\":1,\"tid\":%u}",
                                ts + 1, 1 + (n - 1000) % 3);
      /* a span over the last 50,000 rounds, written at its end as tracers
       * write complete events: in start order it comes before slices whose
       * args texts lie hundreds of KB before its own in the file */
      if (n >= 50000 && n % 25000 == 0)
        g_string_append_printf (s, ",\n{\"ph\":\"X\",\"ts\":%" G_GUINT64_FORMAT ",\"dur\":%u,\"pid\":1,\"tid\":1,"
                                "\"name\":\"span\",\"args\":{\"span\":%u}}",
                                ts - 500000, 500000 - 1, n);
      n++;
    }

  g_string_append (s, "\n]}\n");
  tes_test_write_file (path, s->str, s->len);
}

/* The report's "<used> of <planned>" pieces (info parse_pieces). */
static void
get_pieces (TesReport *report,
            guint     *used,
            guint     *planned)
{
  g_autofree char *pieces = tes_report_lookup_info (report, "parse_pieces");

  g_test_message ("parse_pieces: %s", pieces);
  g_assert_nonnull (pieces);
  g_assert_cmpint (sscanf (pieces, "%u of %u", used, planned), ==, 2);
}

static void
check_big (gboolean poison)
{
  g_autofree char *path = tes_test_tmp_path (poison ? "big-poison.json" : "big.json");
  g_autoptr(GPtrArray) paths = g_ptr_array_new ();
  g_autoptr(JsonObject) expected = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autofree char *base = g_path_get_basename (path);
  guint used = 0, planned = 0;
  JsonObject *want;

  if (g_get_num_processors () < 2)
    {
      g_test_skip ("one processor: no parallel parse");
      return;
    }

  write_big_trace (path, poison);
  g_ptr_array_add (paths, path);
  expected = run_expected (paths);
  want = json_object_get_object_member (expected, base);

  report = import (path, &error);
  g_assert_no_error (error);

  /* "<used> of <planned>" pieces: all of them, or only those before the
   * bad cut, the piece before it having parsed on to the end */
  get_pieces (report, &used, &planned);
  g_assert_cmpuint (planned, >, 1);
  if (poison)
    g_assert_cmpuint (used, <, planned);
  else
    g_assert_cmpuint (used, ==, planned);

  for (guint f = 0; f < CHROME_N_FIGURES; f++)
    {
      gint64 got = report_figure (report, chrome_figures[f]);
      gint64 python = json_object_get_int_member (want, chrome_figures[f]);

      if (got != python)
        g_error ("%s: %s is %" G_GINT64_FORMAT ", chrome_expected.py says %" G_GINT64_FORMAT,
                 base, chrome_figures[f], got, python);
    }
  g_assert_cmpint (report_figure (report, "slices"), >, 100000);
  g_assert_cmpint (report_figure (report, "unclosed"), ==, 1000);
}

static void
test_parallel (void)
{
  check_big (FALSE);
}

/* A cut guessed inside a string is detected and one thread parses all. */
static void
test_parallel_bad_cut (void)
{
  check_big (TRUE);
}

/* The trace text, imported from a file of its own with everything held in
 * memory until commit (no spill file, no chunk stored before), gives what
 * report gives. */
static void
assert_same_as_held (TesReport  *report,
                     const char *text,
                     gsize       len)
{
  g_autofree char *path = tes_test_tmp_path ("held.json");
  g_autoptr(TesReport) held = NULL;
  g_autoptr(GError) error = NULL;

  tes_test_write_file (path, text, (gssize)len);
  tes_cache_writer_set_default_flush_threshold (G_MAXUINT);
  tes_chrome_set_spill_min_size (G_MAXUINT64);
  held = import (path, &error);
  tes_cache_writer_set_default_flush_threshold (TES_CACHE_WRITER_FLUSH_THRESHOLD);
  tes_chrome_set_spill_min_size (TES_CHROME_SPLIT_MIN_SIZE);
  g_assert_no_error (error);

  for (guint f = 0; f < CHROME_N_FIGURES; f++)
    g_assert_cmpint (report_figure (report, chrome_figures[f]), ==, report_figure (held, chrome_figures[f]));
  tes_test_assert_same_slices (report, held, 101);
}

/* The fingerprint the import recorded is the file's, and the import read
 * at most max_bytes of it a second time to get it. */
static void
assert_fingerprint (TesReport  *report,
                    const char *path,
                    guint64     bytes_before,
                    guint64     max_bytes)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *whole = NULL;

  g_assert_cmpuint (tes_cache_get_fingerprint_bytes () - bytes_before, <=, max_bytes);
  whole = tes_cache_fingerprint_file (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tes_report_get_source (report, 0)->fingerprint, ==, whole);
}

/* Imported with the parsed pieces spilled to disk and the writer storing
 * chunks as they fill, a trace gives the same answers as with everything
 * held in memory until commit. */
static void
test_streamed (void)
{
  g_autofree char *streamed = tes_test_tmp_path ("streamed.json");
  g_autofree char *text = NULL;
  g_autoptr(TesReport) a = NULL;
  g_autoptr(GError) error = NULL;
  gsize len;
  guint used = 0, planned = 0;
  guint64 hashed;

  write_big_trace (streamed, FALSE);
  g_assert_true (g_file_get_contents (streamed, &text, &len, NULL));

  tes_cache_writer_set_default_flush_threshold (0);
  tes_chrome_set_spill_min_size (0);
  hashed = tes_cache_get_fingerprint_bytes ();
  a = import (streamed, &error);
  tes_cache_writer_set_default_flush_threshold (TES_CACHE_WRITER_FLUSH_THRESHOLD);
  tes_chrome_set_spill_min_size (TES_CHROME_SPLIT_MIN_SIZE);
  g_assert_no_error (error);

  /* the parse hashed the blocks it read whole: only those its pieces'
   * cuts fall in were read again */
  get_pieces (a, &used, &planned);
  g_assert_cmpuint (used, >=, 2);
  assert_fingerprint (a, streamed, hashed, (guint64)(used - 1) * TES_SOURCE_HASH_BLOCK);

  /* tracks of several chunks each */
  for (gint64 id = 1; id <= (gint64)tes_report_get_n_tracks (a); id++)
    if (tes_report_get_track (a, id)->kind == TES_TRACK_THREAD)
      g_assert_cmpint (tes_report_get_track (a, id)->n_slices, >, 2 * TES_CACHE_CHUNK_SLICES);
  assert_same_as_held (a, text, len);
}

/* A gzip stream, which cannot be cut beforehand, is ended into pieces as
 * it is inflated (here every 4 MB instead of 32), each spilled: the same
 * answers as the plain file held in memory. */
static void
test_gzip_pieces (void)
{
  g_autofree char *plain = tes_test_tmp_path ("rolled.json");
  g_autofree char *gz_path = tes_test_tmp_path ("rolled.json.gz");
  g_autofree char *text = NULL;
  g_autoptr(GBytes) gz = NULL;
  g_autoptr(TesReport) a = NULL;
  g_autoptr(GError) error = NULL;
  gsize len;
  guint used = 0, planned = 0;
  guint64 hashed;

  write_big_trace (plain, FALSE);
  g_assert_true (g_file_get_contents (plain, &text, &len, NULL));
  gz = gzip_bytes (text, len);
  tes_test_write_file (gz_path, g_bytes_get_data (gz, NULL), (gssize)g_bytes_get_size (gz));

  tes_chrome_set_max_piece_size (4 * 1024 * 1024);
  tes_chrome_set_spill_min_size (0);
  hashed = tes_cache_get_fingerprint_bytes ();
  a = import (gz_path, &error);
  tes_chrome_set_max_piece_size (TES_CHROME_MAX_PIECE_SIZE);
  tes_chrome_set_spill_min_size (TES_CHROME_SPLIT_MIN_SIZE);
  g_assert_no_error (error);

  /* 20 MB inflated, a piece ended after each 4 MB */
  get_pieces (a, &used, &planned);
  g_assert_cmpuint (used, ==, planned);
  g_assert_cmpuint (used, >=, 5);
  g_assert_cmpint (report_figure (a, "unclosed"), ==, 1000);
  /* a gzip file's bytes are hashed apart from the parse, once */
  assert_fingerprint (a, gz_path, hashed, g_bytes_get_size (gz));

  assert_same_as_held (a, text, len);
}

/* path imported in pieces ended every 256 KB as it is inflated, each
 * spilled or all held in memory until commit. */
static TesReport *
import_small_pieces (const char *path,
                     gboolean    spilled)
{
  g_autoptr(GError) error = NULL;
  TesReport *report;

  tes_chrome_set_max_piece_size (256 * 1024);
  tes_chrome_set_spill_min_size (spilled ? 0 : G_MAXUINT64);
  tes_cache_writer_set_default_flush_threshold (spilled ? TES_CACHE_WRITER_FLUSH_THRESHOLD : G_MAXUINT);
  report = import (path, &error);
  tes_chrome_set_max_piece_size (TES_CHROME_MAX_PIECE_SIZE);
  tes_chrome_set_spill_min_size (TES_CHROME_SPLIT_MIN_SIZE);
  tes_cache_writer_set_default_flush_threshold (TES_CACHE_WRITER_FLUSH_THRESHOLD);
  g_assert_no_error (error);

  return report;
}

/* Real PyTorch profiler traces (tests/data/kineto, PROVENANCE there), the
 * Kineto flavour writing them, in the same pieces either way: spilled,
 * they give the answers they give held in memory. (Against a whole file
 * held, the names' string ids differ, interned piece by piece.) The args
 * of every 13th slice are compared: every slice's took 3.5 minutes under
 * ASan, reading its chunk's args block back each time. */
static void
test_real_spilled (void)
{
  const char *files[] = { "sampled_rank-0.json.gz", "mtia_inference_rank_0.json.gz" };

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *relative = g_build_filename ("kineto", files[i], NULL);
      g_autofree char *path = tes_test_copy_fixture (TES_TEST_OWN_DATA, relative);
      g_autoptr(TesReport) spilled = import_small_pieces (path, TRUE);
      g_autoptr(TesReport) held = import_small_pieces (path, FALSE);
      guint used = 0, planned = 0;

      get_pieces (spilled, &used, &planned);
      g_assert_cmpuint (used, >=, 4);
      for (guint f = 0; f < CHROME_N_FIGURES; f++)
        g_assert_cmpint (report_figure (spilled, chrome_figures[f]), ==, report_figure (held, chrome_figures[f]));
      tes_test_assert_same_slices (spilled, held, 13);
    }
}

/* tes_chrome_sort_nearly () gives what GLib's stable sort gives, on
 * arrays in order, nearly in order (late B/E slices, as the parse makes
 * them), far from it (where it gives up moving elements one by one and
 * sorts the whole) and random, with many equal keys: each slice's args_off
 * is its place in the input, so an unstable result shows. */
static void
test_nearly_sorted (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (27);

  for (guint shape = 0; shape < 5; shape++)
    for (guint n = 0; n < 3000; n = n * 3 + 1)
      {
        g_autoptr(GArray) a = g_array_sized_new (FALSE, FALSE, sizeof (TesChromeSlice), n);
        g_autoptr(GArray) want = NULL;

        for (guint i = 0; i < n; i++)
          {
            TesChromeSlice s = { 0 };

            switch (shape)
              {
              case 0: /* in order, with runs of equal starts */
                s.start = i / 3;
                break;
              case 1: /* every 7th a parent added after the 6 it holds */
                s.start = i % 7 == 6 ? (gint64)i - 6 : (gint64)i;
                s.dur = i % 7 == 6 ? 10 : 1;
                break;
              case 2: /* reversed: moving each would be quadratic */
                s.start = n - i;
                break;
              case 3: /* random, few distinct keys */
                s.start = g_rand_int_range (rand, 0, 8);
                s.dur = g_rand_int_range (rand, 0, 3);
                break;
              default: /* in order but for a late element now and then */
                s.start = g_rand_int_range (rand, 0, 50) == 0 ? g_rand_int_range (rand, 0, (gint32)i + 1) : (gint64)i;
                break;
              }
            s.args_off = i;
            g_array_append_val (a, s);
          }
        want = g_array_copy (a);
        g_array_sort (want, tes_chrome_slice_compare);
        tes_chrome_sort_nearly (a, tes_chrome_slice_compare);
        g_assert_cmpuint (a->len, ==, n);
        g_assert_cmpmem (a->data, (gsize)n * sizeof (TesChromeSlice), want->data, (gsize)n * sizeof (TesChromeSlice));
      }
}

/* Slices packed for the spill file come back as they were, whatever their
 * values: the extremes of each field, starts out of order, args texts out
 * of file order; and a block cut short, or with a byte too many or a field
 * too wide, is refused rather than read as other slices. */
static void
test_spill_packing (void)
{
  static const gint64 times[] = { 0, 1, -1, 127, 128, G_MAXINT32, G_MININT32, G_MAXINT64, G_MININT64 };
  g_autoptr(GRand) rand = g_rand_new_with_seed (27);
  guint n = 3000;
  g_autofree TesChromeSlice *in = g_new0 (TesChromeSlice, n);
  g_autofree TesChromeSlice *out = g_new0 (TesChromeSlice, n);
  g_autofree guint8 *packed = g_malloc ((gsize)n * TES_CHROME_PACKED_SLICE_MAX + 1);
  guint64 args_end = 0;
  gsize bytes;

  for (guint i = 0; i < n; i++)
    {
      TesChromeSlice *s = &in[i];

      if (i < G_N_ELEMENTS (times) * G_N_ELEMENTS (times))
        {
          /* every pair of extremes, as start and dur */
          s->start = times[i / G_N_ELEMENTS (times)];
          s->dur = times[i % G_N_ELEMENTS (times)];
          s->name = i % 2 ? G_MAXUINT32 : 0;
          s->cat = i % 3 ? G_MAXUINT32 : 1;
          s->args_len = i % 5 ? G_MAXUINT32 : 0;
          s->args_off = i % 7 ? G_MAXUINT64 - G_MAXUINT32 : 0;
          s->flags = G_MAXUINT16;
          s->reserved = i % 2 ? G_MAXUINT16 : 0;
          continue;
        }
      /* a thread's slices: in order, but for a late one now and then */
      s->start = (gint64)i * 1000 - (g_rand_int_range (rand, 0, 20) == 0 ? 5000 : 0);
      s->dur = g_rand_int_range (rand, 0, 100000);
      s->name = g_rand_int_range (rand, 1, 300);
      s->cat = g_rand_int_range (rand, 0, 4);
      s->flags = g_rand_int_range (rand, 0, 4);
      s->args_len = g_rand_int_range (rand, 0, 3) == 0 ? 0 : g_rand_int_range (rand, 1, 200);
      /* mostly where the texts before ended, now and then behind them */
      s->args_off = g_rand_int_range (rand, 0, 10) == 0 ? args_end / 2 : args_end;
      args_end = MAX (args_end, s->args_off + s->args_len);
    }

  bytes = tes_chrome_pack_slices (in, n, packed);
  g_assert_cmpuint (bytes, <=, (gsize)n * TES_CHROME_PACKED_SLICE_MAX);
  /* the slices as a thread has them take under a third of their size */
  g_assert_cmpuint (bytes - tes_chrome_pack_slices (in, 81, packed), <, (gsize)(n - 81) * sizeof (TesChromeSlice) / 3);
  bytes = tes_chrome_pack_slices (in, n, packed);
  g_assert_true (tes_chrome_unpack_slices (packed, packed + bytes, out, n));
  g_assert_cmpmem (out, (gsize)n * sizeof (TesChromeSlice), in, (gsize)n * sizeof (TesChromeSlice));

  /* cut short, anywhere */
  for (gsize cut = 0; cut < bytes; cut += 1 + cut / 3)
    g_assert_false (tes_chrome_unpack_slices (packed, packed + cut, out, n));
  /* a byte too many */
  packed[bytes] = 0;
  g_assert_false (tes_chrome_unpack_slices (packed, packed + bytes + 1, out, n));
  /* a name of 2^35, wider than 32 bits, and the same slice named 2^28 */
  {
    guint8 one[] = { 0, 0, 0x80, 0x80, 0x80, 0x80, 0x80, 1, 0, 0, 0, 0 };

    g_assert_false (tes_chrome_unpack_slices (one, one + sizeof one, out, 1));
    one[6] = 1;
    one[7] = 0;
    g_assert_false (tes_chrome_unpack_slices (one, one + sizeof one, out, 1));
    g_assert_true (tes_chrome_unpack_slices (one, one + sizeof one - 1, out, 1));
    g_assert_cmpuint (out[0].name, ==, 1u << 28);
  }
}

/* A piece's thread spilled to the file and read back, whole
 * (tes_chrome_thread_load (), as the SigmaStar flavour reads its threads)
 * and a block at a time (a run, as the merge reads them): the slices and
 * texts it had, over several blocks and a last one cut short, the texts
 * (600 KB) more than twice the buffer they go through to the file and
 * back (256 KB). */
static void
test_spill_load (void)
{
  g_autofree char *near = tes_test_tmp_path ("spilled");
  g_autoptr(GRand) rand = g_rand_new_with_seed (27);
  TesChromeSegment *seg = tes_chrome_segment_new (0);
  TesChromeThread *t = g_new0 (TesChromeThread, 1);
  TesChromeSpill *spill = tes_chrome_spill_new (near);
  g_autoptr(GArray) want = NULL;
  g_autoptr(GString) want_args = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  TesChromeSpillRun *run;
  const TesChromeSlice *block;
  char pad[120];
  guint n, read = 0;

  g_assert_nonnull (spill);
  for (guint i = 0; i < sizeof pad; i++)
    pad[i] = 'a' + i % 26;
  tes_chrome_thread_new_arrays (t, NULL);
  g_ptr_array_add (seg->thread_list, t);
  for (guint i = 0; i < 3 * 4096 + 123; i++)
    {
      TesChromeSlice s = { (gint64)i * 1000, g_rand_int_range (rand, 0, 5000), 0, 1 + i % 7, 1, 0, 0, 0 };

      if (i % 3 != 0)
        {
          s.args_off = t->args->len;
          g_string_append_printf (t->args, "{\"bytes\":%u,\"pad\":\"%.*s\"}", g_rand_int (rand),
                                  g_rand_int_range (rand, 0, 120), pad);
          s.args_len = (guint32)(t->args->len - s.args_off);
        }
      g_array_append_val (t->slices, s);
    }
  want = g_array_copy (t->slices);
  g_string_append_len (want_args, t->args->str, (gssize)t->args->len);
  g_assert_cmpuint (want_args->len, >, 2 * 256 * 1024);

  tes_chrome_spill_segment (spill, seg);
  g_assert_true (t->spill == spill);
  g_assert_cmpuint (t->slices->len, ==, 0);
  g_assert_cmpuint (tes_chrome_thread_n_slices (t), ==, want->len);

  run = tes_chrome_spill_run_new (t);
  while ((block = tes_chrome_spill_run_next (run, &n)) != NULL)
    {
      for (guint i = 0; i < n; i++)
        {
          const TesChromeSlice *s = &g_array_index (want, TesChromeSlice, read + i);

          g_assert_cmpmem (&block[i], sizeof *s, s, sizeof *s);
          g_assert_cmpmem (tes_chrome_spill_run_args (run, block[i].args_off, block[i].args_len), s->args_len,
                           want_args->str + s->args_off, s->args_len);
        }
      read += n;
    }
  tes_chrome_spill_run_free (run);
  g_assert_cmpuint (read, ==, want->len);

  tes_chrome_thread_load (t);
  g_assert_null (t->spill);
  g_assert_cmpmem (t->slices->data, (gsize)t->slices->len * sizeof (TesChromeSlice),
                   want->data, (gsize)want->len * sizeof (TesChromeSlice));
  g_assert_cmpmem (t->args->str, t->args->len, want_args->str, want_args->len);
  g_assert_true (tes_chrome_spill_check (spill, &error));
  g_assert_no_error (error);

  tes_chrome_segment_free (seg);
  tes_chrome_spill_free (spill);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tes_test_add (TES_TEST_OWN_DATA, "/tes/chrome/own-files", test_own_files);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/chrome/decimal", test_decimal);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/chrome/nanoseconds", test_nanoseconds);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/chrome/plain-times", test_plain_times);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/chrome/tracks-and-args", test_tracks_and_args);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/chrome/bad-input", test_bad_input);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/chrome/recoveries", test_recoveries);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/chrome/truncated", test_truncated);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/chrome/gzip", test_gzip);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/chrome/sniff", test_sniff);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/chrome/parallel", test_parallel);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/chrome/parallel-bad-cut", test_parallel_bad_cut);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/chrome/streamed", test_streamed);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/chrome/gzip-pieces", test_gzip_pieces);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/chrome/real-spilled", test_real_spilled);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/chrome/nearly-sorted", test_nearly_sorted);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/chrome/spill-packing", test_spill_packing);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/chrome/spill-load", test_spill_load);

  tes_test_add (TES_TEST_SHARED_DATA, "/tes/chrome/conformance", test_conformance);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/chrome/nanoseconds", test_nanoseconds_shared);

  return g_test_run ();
}
