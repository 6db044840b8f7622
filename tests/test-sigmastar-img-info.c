/* test-sigmastar-img-info.c
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

/* The importer against show_img_info.py output: the project's own
 * (tests/data/sigmastar, a MobileNet-like model with two outputs, and the
 * inline texts below) and, in the conformance suite, the shared fixture
 * (../shared/fixtures/sigmastar, YOLOv8s). Both go through the same checks;
 * the one-run case opens the model info with a get_op_time_cost.py listing
 * and a performance_timeline.py JSON of the same layers. */

#define SHARED_DIR "fixtures/sigmastar/"
#define OWN_DIR "sigmastar/"

static TesReport *
open_img_info (const char  *path,
               GError     **error)
{
  return tes_report_import (path, tes_importer_registry_lookup ("sigmastar-img-info"), 0, NULL, NULL, error);
}

/* Every "key:<TAB>value" line of the fixture, read apart from the
 * importer: each must be in the report under model.<input|output>.<i>.<key>
 * with the value as printed. */
static guint
check_tensor_lines (TesReport  *report,
                    const char *path)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autofree char *block = NULL;
  guint checked = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      const char *tab = strchr (lines[i], '\t');

      if (g_str_has_prefix (lines[i], "Input(") || g_str_has_prefix (lines[i], "Output("))
        {
          g_auto(GStrv) parts = g_strsplit_set (lines[i], "()", -1);

          g_free (block);
          block = g_strdup_printf ("model.%s.%s", g_str_equal (parts[0], "Input") ? "input" : "output", parts[1]);
        }
      else if (g_str_has_prefix (lines[i], "    ") && tab != NULL)
        {
          g_autofree char *name = g_strndup (lines[i] + 4, tab - lines[i] - 4 - 1);
          g_autofree char *key = g_strdup_printf ("%s.%s", block, name);

          g_assert_cmpint (tab[-1], ==, ':');
          tes_test_assert_info (report, key, tab + 1);
          checked++;
        }
    }

  return checked;
}

/* A show_img_info.py output gives info only: the rows expected, every
 * tensor line (counted), and nothing more than n_info rows. The command
 * line prints the same rows and has no summary to give. */
static void
check_img_info (const char        *path,
                const TesTestInfo *expected,
                guint              n_expected,
                guint              n_tensor_lines,
                guint              n_info)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = open_img_info (path, &error);
  g_autoptr(GPtrArray) info = NULL;
  g_auto(TesCliResult) r = { 0 };
  TesReportCounts counts;

  g_assert_no_error (error);
  g_assert_cmpstr (tes_report_get_importer_name (report), ==, "sigmastar-img-info");
  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_operators, ==, 0);
  g_assert_cmpint (counts.n_slices, ==, 0);
  g_assert_cmpint (counts.n_tracks, ==, 0);

  tes_test_assert_info_rows (report, expected, n_expected);
  tes_test_assert_info (report, "warning.skipped_lines", NULL);
  g_assert_cmpuint (check_tensor_lines (report, path), ==, n_tensor_lines);
  info = tes_report_get_info (report);
  g_assert_cmpuint (info->len, ==, n_info);

  tes_test_assert_cli_info (report, path);
  tes_test_run_cli (&r, "summary", path, NULL);
  g_assert_cmpint (r.status, ==, 1);
  tes_test_assert_contains (r.err, "holds no operators and no slices");
}

/* tests/data/sigmastar/show_img_info_output.txt, written for these tests
 * in the layout of the SDK manual: no SDK_Version_Info line (no
 * --version), two outputs. */
static void
test_own (void)
{
  static const TesTestInfo expected[] = {
    { "model.img_version", "S1.1.2_verified_24010512" },
    { "model.size", "3571712" },
    { "model.max_batch_number", "4" },
    { "model.sdk_version", NULL },
    { "model.suggested_batch", "[1, 4]" },
    { "model.supported_batch", NULL },
    { "model.variable_buffer_size", "1204224" },
    { "model.inputs", "1" },
    { "model.outputs", "2" },
    { "model.input.0.name", "input" },
    { "model.input.0.dtype", "<class 'numpy.uint8'>" },
    { "model.input.0.shape", "[1, 224, 224, 3]" },
    { "model.input.0.input_formats", "BGRA" },
    { "model.input.0.input_width_alignment", "16" },
    { "model.output.0.name", "logits" },
    { "model.output.0.shape", "[1, 1000]" },
    { "model.output.1.name", "features" },
    { "model.output.1.index", "1" },
    { "model.output.1.dtype", "<class 'numpy.int16'>" },
    { "model.output.1.shape", "[1, 7, 7, 1280]" },
    { "model.output.2.name", NULL },
  };
  g_autofree char *path = tes_test_copy_fixture (TES_TEST_OWN_DATA, OWN_DIR "show_img_info_output.txt");

  /* 5 header lines, 2 counts; 11 input keys, 6 for each output */
  check_img_info (path, expected, G_N_ELEMENTS (expected), 11 + 6 + 6, 5 + 2 + 11 + 6 + 6);
}

static void
test_fixture (void)
{
  static const TesTestInfo expected[] = {
    { "model.img_version", "S1.0.9_verified_23051011" },
    { "model.size", "11927552" },
    { "model.max_batch_number", "1" },
    { "model.sdk_version", "S1.0.9_verified_23051011" },
    { "model.suggested_batch", "[1]" },
    { "model.supported_batch", NULL },
    { "model.variable_buffer_size", "8601600" },
    { "model.inputs", "1" },
    { "model.outputs", "1" },
    { "model.input.0.name", "images" },
    { "model.input.0.dtype", "<class 'numpy.uint8'>" },
    { "model.input.0.shape", "[1, 640, 640, 3]" },
    { "model.input.0.layouts", "NHWC" },
    { "model.input.0.training_input_formats", "RGB" },
    { "model.input.0.input_height_alignment", "1" },
    { "model.input.0.batch_mode", "n_buf" },
    { "model.output.0.name", "output0" },
    { "model.output.0.dtype", "<class 'numpy.float32'>" },
    { "model.output.0.shape", "[1, 84, 8400]" },
    { "model.output.0.batch", "1" },
  };
  g_autofree char *path = tes_test_copy_fixture (TES_TEST_SHARED_DATA, SHARED_DIR "show_img_info_output.txt");

  /* 11 input keys and 6 output keys, as the SDK manual lists them */
  check_img_info (path, expected, G_N_ELEMENTS (expected), 11 + 6, 2 + 6 + 11 + 6);
}

/* One-buffer models print "Supported Batch"; copies through editors turn
 * tabs into spaces and add CRs. */
static void
test_variants (void)
{
  g_autofree char *path = tes_test_tmp_path ("one_buf.txt");
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = NULL;

  tes_test_write_file (path,
                       "Offline IMG Version: S1.0.9\r\n"
                       "Offline Model Size: 100\r\n"
                       "Offline Model Max Batch Numer: 4\r\n"
                       "Offline Model Supported Batch: [1, 2, 4]\r\n"
                       "Offline Model Variable Buffer Size: 64\r\n"
                       "\r\n"
                       "Offline_Model:\r\n"
                       "offline_model (\r\n"
                       "Input(0):\r\n"
                       "    name:    in0\r\n"
                       "    shape:\t[4, 3]   \r\n"
                       "Input(1):\r\n"
                       "    name:\tin1\r\n"
                       "Output(0):\r\n"
                       "    name:\tout0\r\n"
                       "    batch_mode:\tone_buf\r\n"
                       "    quantization:\t(0.5, 3)\r\n"
                       ")\r\n", -1);
  report = open_img_info (path, &error);
  g_assert_no_error (error);
  tes_test_assert_info (report, "model.supported_batch", "[1, 2, 4]");
  tes_test_assert_info (report, "model.suggested_batch", NULL);
  tes_test_assert_info (report, "model.max_batch_number", "4");
  tes_test_assert_info (report, "model.inputs", "2");
  tes_test_assert_info (report, "model.input.0.name", "in0");
  tes_test_assert_info (report, "model.input.0.shape", "[4, 3]");
  tes_test_assert_info (report, "model.input.1.name", "in1");
  tes_test_assert_info (report, "model.output.0.quantization", "(0.5, 3)");
  tes_test_assert_info (report, "model.output.0.batch_mode", "one_buf");
}

static void
test_bad_input (void)
{
  static const TesBadInput cases[] = {
    { "empty.txt", "", 0, TES_IMPORT_ERROR_EMPTY, ": no show_img_info.py output" },
    { "blank.txt", "\n\n", -1, TES_IMPORT_ERROR_EMPTY, ": no show_img_info.py output" },
    { "binary.txt", "\x7f" "ELF\x02\x01\x01\0\0\0\0", 12, TES_IMPORT_ERROR_INVALID, ":1: not text" },
    { "garbage.txt", "hello world\nmore words\n", -1, TES_IMPORT_ERROR_INVALID,
      ":1: no show_img_info.py model lines ('Offline Model Size: …', 'Input(0):' …); the file starts with 'hello world'" },
    { "labels-only.txt", "Colour: red\nSize: 3\n", -1, TES_IMPORT_ERROR_INVALID,
      ":1: no show_img_info.py model lines" },
    { "truncated.txt", "Offline Model Size: 1\nOffline_Model:\noffline_model (\nInput(0):\n    name:\timages\n", -1,
      TES_IMPORT_ERROR_TRUNCATED, ":5: the file ends inside the 'offline_model (' of line 3 (no ')')" },
    { "empty-block.txt", "Offline Model Size: 1\noffline_model (\nInput(0):\n", -1,
      TES_IMPORT_ERROR_TRUNCATED, ":3: the Input(0) block of line 3 has no 'key: value' lines" },
    { "empty-block2.txt", "Offline Model Size: 1\noffline_model (\nInput(0):\nOutput(0):\n    name:\to\n)\n", -1,
      TES_IMPORT_ERROR_TRUNCATED, ":4: the Input(0) block of line 3 has no 'key: value' lines" },
    { "no-colon.txt", "Offline Model Size: 1\nInput(0):\n    name images\n", -1,
      TES_IMPORT_ERROR_INVALID, ":3: expected '    key:<TAB>value' in the Input(0) block of line 2, got 'name images'" },
    { "outside.txt", "Offline Model Size: 1\n    name:\timages\n", -1,
      TES_IMPORT_ERROR_INVALID, ":2: indented line 'name:\\timages' outside an Input(i): or Output(i): block" },
    { "duplicate-key.txt", "Offline Model Size: 1\nInput(0):\n    name:\ta\n    name:\tb\n", -1,
      TES_IMPORT_ERROR_INVALID, ":4: model.input.0.name is already given on line 3" },
    { "duplicate-block.txt", "Offline Model Size: 1\nInput(0):\n    name:\ta\nInput(0):\n    name:\tb\n", -1,
      TES_IMPORT_ERROR_INVALID, ":4: Input(0) is already given on line 2" },
    { "duplicate-header.txt", "Offline Model Size: 1\nOffline Model Size: 2\n", -1,
      TES_IMPORT_ERROR_INVALID, ":2: model.size is already given on line 1" },
    { "no-value.txt", "Offline Model Size: 1\nOffline IMG Version:\n", -1,
      TES_IMPORT_ERROR_INVALID, ":2: 'Offline IMG Version:' has no value" },
    { "close.txt", "Offline Model Size: 1\n)\n", -1, TES_IMPORT_ERROR_INVALID, ":2: ')' without 'offline_model ('" },
    { "utf8.txt", "Offline Model Size: 1\nOffline IMG Version: \xff\xfe\n", -1, TES_IMPORT_ERROR_INVALID,
      ":2: not text (invalid UTF-8 or control characters; byte 22)" },
  };

  tes_test_assert_bad_inputs (tes_importer_registry_lookup ("sigmastar-img-info"), cases, G_N_ELEMENTS (cases));
}

/* Lines the tool does not print (a simulator's log, say) are skipped and
 * counted; an unknown "Label: value" line is kept under its own name. */
static void
test_recoveries (void)
{
  g_autofree char *path = tes_test_tmp_path ("with_log.txt");
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = NULL;

  tes_test_write_file (path,
                       "[SIM] loading model ...\n"
                       "Offline IMG Version: S1.0.9\n"
                       "Offline Model Size: 100\n"
                       "Offline Model Compression Ratio: 0.5\n"
                       "=== done ===\n"
                       "Offline_Model:\n"
                       "offline_model (\n"
                       "Output(0):\n"
                       "    name:\tout0\n"
                       ")\n", -1);
  report = open_img_info (path, &error);
  g_assert_no_error (error);
  tes_test_assert_info (report, "model.size", "100");
  tes_test_assert_info (report, "model.offline_model_compression_ratio", "0.5");
  tes_test_assert_info (report, "model.inputs", "0");
  tes_test_assert_info (report, "model.output.0.name", "out0");
  tes_test_assert_info (report, "warning.skipped_lines", "2 unrecognised lines skipped (first at line 1: '[SIM] loading model ...')");
}

/* Content decides: the output renamed to a name that says nothing is
 * still found, a file named like one is not claimed for its name. */
static void
check_sniff (const char *path)
{
  g_autofree char *renamed = tes_test_tmp_path ("model.log");
  g_autofree char *impostor = tes_test_tmp_path ("yolov8s_img_info.txt");
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  TesImporter *importer;
  gsize len;

  g_assert_true (g_file_get_contents (path, &text, &len, NULL));
  tes_test_write_file (renamed, text, len);
  importer = tes_importer_registry_choose (renamed, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tes_importer_get_name (importer), ==, "sigmastar-img-info");

  tes_test_write_file (impostor, "Model: yolov8s\nInput: camera\n", -1);
  g_assert_null (tes_importer_registry_choose (impostor, NULL, &error));
  g_assert_error (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_UNKNOWN_FORMAT);
}

static void
test_sniff (void)
{
  g_autofree char *path = tes_test_copy_fixture (TES_TEST_OWN_DATA, OWN_DIR "show_img_info_output.txt");

  check_sniff (path);
}

static void
test_sniff_fixture (void)
{
  g_autofree char *path = tes_test_copy_fixture (TES_TEST_SHARED_DATA, SHARED_DIR "show_img_info_output.txt");

  check_sniff (path);
}

/* The files as one report, each with the importer its content calls for. */
static TesReport *
open_by_content (const char * const *paths,
                 guint               n_paths)
{
  g_autoptr(GPtrArray) importers = g_ptr_array_new ();

  for (guint i = 0; i < n_paths; i++)
    {
      g_autoptr(GError) error = NULL;

      g_ptr_array_add (importers, tes_importer_registry_choose (paths[i], NULL, &error));
      g_assert_no_error (error);
    }

  return tes_test_import_files (paths, (TesImporter * const *)importers->pdata, n_paths, 0);
}

/* The model info, the get_op_time_cost.py 'each' listing and the
 * performance timeline JSON of one run open as one report, in any order:
 * its info has the model, its per-operator summary is the each listing
 * (one row per line of it), its slices are the layers; two views of the
 * same layers are never added up. The command line prints the listing
 * back byte for byte. */
static void
check_one_run (const char        *img,
               const char        *each,
               const char        *timeline,
               const TesTestInfo *model,
               guint              n_model,
               guint              row,
               const char        *row_label,
               double             row_share)
{
  g_autofree char *each_text = NULL;
  g_auto(GStrv) each_lines = NULL;
  const char *orders[][3] = {
    { img, each, timeline },
    { timeline, img, each },
    { each, timeline, img },
  };
  guint n_layers;

  g_assert_true (g_file_get_contents (each, &each_text, NULL, NULL));
  g_assert_true (g_str_has_suffix (each_text, "\n"));
  each_lines = g_strsplit (each_text, "\n", -1);
  n_layers = g_strv_length (each_lines) - 1;

  for (guint o = 0; o < G_N_ELEMENTS (orders); o++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TesReport) report = open_by_content (orders[o], 3);
      g_autoptr(GPtrArray) rows = NULL;
      TesReportCounts counts;
      gint64 layers = 0;
      g_assert_cmpuint (tes_report_get_n_sources (report), ==, 3);

      tes_test_assert_info_rows (report, model, n_model);
      tes_test_assert_info (report, "mode", "each");
      tes_test_assert_info (report, "clock_mhz", "900");

      tes_report_get_counts (report, &counts);
      g_assert_cmpint (counts.n_slices, ==, n_layers);
      for (guint id = 1; id <= tes_report_get_n_tracks (report); id++)
        layers += tes_report_get_track (report, id)->n_slices;
      g_assert_cmpint (layers, ==, n_layers);
      g_assert_cmpint (counts.n_operators, ==, n_layers + n_layers);

      rows = tes_report_summarize (report, TES_SUMMARY_EACH, TES_GROUP_BY_CATEGORY, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (rows->len, ==, n_layers);
      g_assert_cmpstr (((TesSummaryRow *)g_ptr_array_index (rows, row))->label, ==, row_label);
      g_assert_cmpfloat_with_epsilon (((TesSummaryRow *)g_ptr_array_index (rows, row))->share, row_share, 1e-9);
    }

  {
    g_auto(TesCliResult) r = { 0 };
    g_autofree char *slices = g_strdup_printf ("Slices:         %u\n", n_layers);
    g_autofree char *model_line = g_strdup_printf ("Info:           %s = %s\n", model[0].key, model[0].value);

    /* the each rows byte for byte, whatever the order */
    tes_test_run_cli (&r, "summary", "--mode", "each", timeline, img, each, NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_cmpstr (r.out, ==, each_text);

    tes_test_run_cli (&r, "info", img, each, timeline, NULL);
    g_assert_cmpint (r.status, ==, 0);
    tes_test_assert_contains (r.out, slices);
    tes_test_assert_contains (r.out, "Info:           mode = each\n");
    tes_test_assert_contains (r.out, model_line);
  }
}

/* Our own run: tests/data/sigmastar holds a timeline of six layers in the
 * tool's single-line array form, written at 900 MHz with 1 000 000 cycles
 * in all so that each share is cycles / 10 000, and the each listing
 * those shares give. */
static void
test_one_run (void)
{
  static const TesTestInfo model[] = {
    { "model.size", "3571712" },
    { "model.input.0.shape", "[1, 224, 224, 3]" },
    { "model.output.1.shape", "[1, 7, 7, 1280]" },
  };
  /* layer, type, total_cycle; back to back from cycle 0 */
  static const struct { const char *name; const char *type; gint64 cycles; } layers[] = {
    { "0 CONV_2D", "CONV_2D", 450000 }, { "1 CONV_2D", "CONV_2D", 180000 }, { "2 ADD", "ADD", 45000 },
    { "3 CONV_2D", "CONV_2D", 225000 }, { "4 RESHAPE", "RESHAPE", 10000 }, { "5 SOFTMAX", "SOFTMAX", 90000 },
  };
  /* per type: the sums of the layers' shares */
  static const struct { const char *type; double share; } types[] = {
    { "CONV_2D", 45.0 + 18.0 + 22.5 }, { "SOFTMAX", 9.0 }, { "ADD", 4.5 }, { "RESHAPE", 1.0 },
  };
  g_autofree char *img = tes_test_copy_fixture (TES_TEST_OWN_DATA, OWN_DIR "show_img_info_output.txt");
  g_autofree char *each = tes_test_copy_fixture (TES_TEST_OWN_DATA, OWN_DIR "op_time_each_mini.txt");
  g_autofree char *timeline = tes_test_copy_fixture (TES_TEST_OWN_DATA, OWN_DIR "performance_timeline_mini.json");
  const char *paths[] = { img, each, timeline };
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GArray) slices = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GError) error = NULL;
  const TesTrack *lane = NULL;
  const TesClock *clock;
  gint64 start = 0;

  check_one_run (img, each, timeline, model, G_N_ELEMENTS (model), 3, "3 CONV_2D", 22.5);

  report = open_by_content (paths, G_N_ELEMENTS (paths));

  /* the layers in cycles at 900 MHz: layer 5 starts at 1011.111 µs, which
   * is 909 999.9 cycles, and is taken as layer 4's end, 910 000 */
  for (guint id = 1; id <= tes_report_get_n_tracks (report); id++)
    if (tes_report_get_track (report, id)->n_slices > 0)
      lane = tes_report_get_track (report, id);
  g_assert_nonnull (lane);
  clock = tes_report_get_clock (report, lane->clock_id);
  g_assert_cmpint (clock->unit, ==, TES_TIME_UNIT_CYCLES);
  g_assert_cmpint (clock->ticks_per_second, ==, 900000000);
  slices = tes_test_get_slices (report, lane->id);
  g_assert_cmpuint (slices->len, ==, G_N_ELEMENTS (layers));
  for (guint i = 0; i < slices->len; i++)
    {
      const TesSlice *slice = &g_array_index (slices, TesSlice, i);

      g_assert_cmpstr (tes_report_get_string (report, slice->name), ==, layers[i].name);
      g_assert_cmpstr (tes_report_get_string (report, slice->category), ==, layers[i].type);
      g_assert_cmpint (slice->start, ==, start);
      g_assert_cmpint (slice->dur, ==, layers[i].cycles);
      start += layers[i].cycles;
    }
  g_assert_cmpint (start, ==, 1000000);

  rows = tes_report_summarize (report, TES_SUMMARY_TOTAL, TES_GROUP_BY_CATEGORY, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, G_N_ELEMENTS (types));
  for (guint i = 0; i < rows->len; i++)
    {
      const TesSummaryRow *row = g_ptr_array_index (rows, i);

      g_assert_cmpstr (row->label, ==, types[i].type);
      g_assert_cmpfloat_with_epsilon (row->share, types[i].share, 1e-9);
    }
}

/* The shared fixtures: YOLOv8s, 96 layers. */
static void
test_one_run_fixture (void)
{
  static const TesTestInfo model[] = {
    { "model.size", "11927552" },
    { "model.input.0.shape", "[1, 640, 640, 3]" },
    { "model.output.0.shape", "[1, 84, 8400]" },
    { "model.variable_buffer_size", "8601600" },
  };
  g_autofree char *img = tes_test_copy_fixture (TES_TEST_SHARED_DATA, SHARED_DIR "show_img_info_output.txt");
  g_autofree char *each = tes_test_copy_fixture (TES_TEST_SHARED_DATA, SHARED_DIR "yolov8s_op_time_each.txt");
  g_autofree char *timeline = tes_test_copy_fixture (TES_TEST_SHARED_DATA, SHARED_DIR "log_ctrl0.json");

  check_one_run (img, each, timeline, model, G_N_ELEMENTS (model), 77, "77 CONV_2D", 10.019);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tes_test_add (TES_TEST_OWN_DATA, "/tes/sigmastar-img-info/own", test_own);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/sigmastar-img-info/variants", test_variants);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/sigmastar-img-info/bad-input", test_bad_input);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/sigmastar-img-info/recoveries", test_recoveries);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/sigmastar-img-info/sniff", test_sniff);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/sigmastar-img-info/one-run", test_one_run);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/sigmastar-img-info/fixture", test_fixture);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/sigmastar-img-info/sniff-fixture", test_sniff_fixture);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/sigmastar-img-info/one-run-fixture", test_one_run_fixture);

  return g_test_run ();
}
