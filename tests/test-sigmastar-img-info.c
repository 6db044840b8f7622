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

static char *
copy_shared (const char *name)
{
  g_autofree char *rel = g_strconcat ("fixtures/sigmastar/", name, NULL);
  g_autofree char *src = tes_test_shared_path (rel);

  return tes_test_copy_to_tmp (src, name);
}

static TesReport *
open_img_info (const char  *path,
               GError     **error)
{
  return tes_report_open (path, tes_importer_registry_lookup ("sigmastar-img-info"), 0, NULL, NULL, error);
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

static void
test_fixture (void)
{
  g_autofree char *path = copy_shared ("show_img_info_output.txt");
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = open_img_info (path, &error);
  g_autoptr(GPtrArray) info = NULL;
  TesReportCounts counts;

  g_assert_no_error (error);
  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_operators, ==, 0);
  g_assert_cmpint (counts.n_slices, ==, 0);
  g_assert_cmpint (counts.n_tracks, ==, 0);

  tes_test_assert_info (report, "model.img_version", "S1.0.9_verified_23051011");
  tes_test_assert_info (report, "model.size", "11927552");
  tes_test_assert_info (report, "model.max_batch_number", "1");
  tes_test_assert_info (report, "model.sdk_version", "S1.0.9_verified_23051011");
  tes_test_assert_info (report, "model.suggested_batch", "[1]");
  tes_test_assert_info (report, "model.supported_batch", NULL);
  tes_test_assert_info (report, "model.variable_buffer_size", "8601600");
  tes_test_assert_info (report, "model.inputs", "1");
  tes_test_assert_info (report, "model.outputs", "1");
  tes_test_assert_info (report, "model.input.0.name", "images");
  tes_test_assert_info (report, "model.input.0.dtype", "<class 'numpy.uint8'>");
  tes_test_assert_info (report, "model.input.0.shape", "[1, 640, 640, 3]");
  tes_test_assert_info (report, "model.input.0.layouts", "NHWC");
  tes_test_assert_info (report, "model.input.0.training_input_formats", "RGB");
  tes_test_assert_info (report, "model.input.0.input_height_alignment", "1");
  tes_test_assert_info (report, "model.input.0.batch_mode", "n_buf");
  tes_test_assert_info (report, "model.output.0.name", "output0");
  tes_test_assert_info (report, "model.output.0.dtype", "<class 'numpy.float32'>");
  tes_test_assert_info (report, "model.output.0.shape", "[1, 84, 8400]");
  tes_test_assert_info (report, "model.output.0.batch", "1");
  tes_test_assert_info (report, "warning.skipped_lines", NULL);

  /* 11 input keys and 6 output keys, as the SDK manual lists them */
  g_assert_cmpuint (check_tensor_lines (report, path), ==, 11 + 6);

  info = tes_report_get_info (report);
  g_assert_cmpuint (info->len, ==, 2 + 6 + 11 + 6);
}

static void
test_cli (void)
{
  g_autofree char *path = copy_shared ("show_img_info_output.txt");
  g_auto(TesCliResult) r = { 0 };

  tes_test_run_cli (&r, "info", path, NULL);
  g_assert_cmpint (r.status, ==, 0);
  tes_test_assert_contains (r.out, "Importer:       sigmastar-img-info (version 1)\n");
  tes_test_assert_contains (r.out, "Info:           model.size = 11927552\n");
  tes_test_assert_contains (r.out, "Info:           model.max_batch_number = 1\n");
  tes_test_assert_contains (r.out, "Info:           model.variable_buffer_size = 8601600\n");
  tes_test_assert_contains (r.out, "Info:           model.input.0.shape = [1, 640, 640, 3]\n");
  tes_test_assert_contains (r.out, "Info:           model.output.0.dtype = <class 'numpy.float32'>\n");

  tes_test_run_cli (&r, "summary", path, NULL);
  g_assert_cmpint (r.status, ==, 1);
  tes_test_assert_contains (r.err, "holds no operators and no slices");
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

typedef struct
{
  const char *name;
  const char *contents;
  gssize      len;
  int         code;
  const char *message;   /* substring, after the file name */
} BadCase;

static void
test_bad_input (void)
{
  static const BadCase cases[] = {
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
  TesImporter *importer = tes_importer_registry_lookup ("sigmastar-img-info");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
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
    }
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

static void
test_sniff (void)
{
  g_autofree char *path = copy_shared ("show_img_info_output.txt");
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

/* The model info, the get_op_time_cost.py 'each' listing and the
 * performance timeline JSON of one run open as one report, in any order:
 * its info has the model, its per-operator summary is the each listing,
 * its slices are the 96 layers. */
static void
test_one_run (void)
{
  g_autofree char *img = copy_shared ("show_img_info_output.txt");
  g_autofree char *each = copy_shared ("yolov8s_op_time_each.txt");
  g_autofree char *timeline = copy_shared ("log_ctrl0.json");
  g_autofree char *each_text = NULL;
  const char *orders[][3] = {
    { img, each, timeline },
    { timeline, img, each },
    { each, timeline, img },
  };

  g_assert_true (g_file_get_contents (each, &each_text, NULL, NULL));

  for (guint o = 0; o < G_N_ELEMENTS (orders); o++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TesReport) report = NULL;
      g_autoptr(GPtrArray) rows = NULL;
      TesImporter *importers[3];
      TesReportCounts counts;
      gint64 layers = 0;

      for (guint i = 0; i < 3; i++)
        {
          importers[i] = tes_importer_registry_choose (orders[o][i], NULL, &error);
          g_assert_no_error (error);
        }
      report = tes_report_open_files (orders[o], importers, 3, 0, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (tes_report_get_n_sources (report), ==, 3);

      tes_test_assert_info (report, "model.size", "11927552");
      tes_test_assert_info (report, "model.input.0.shape", "[1, 640, 640, 3]");
      tes_test_assert_info (report, "model.output.0.shape", "[1, 84, 8400]");
      tes_test_assert_info (report, "mode", "each");
      tes_test_assert_info (report, "clock_mhz", "900");

      tes_report_get_counts (report, &counts);
      g_assert_cmpint (counts.n_slices, ==, 96);
      for (guint id = 1; id <= tes_report_get_n_tracks (report); id++)
        layers += tes_report_get_track (report, id)->n_slices;
      g_assert_cmpint (layers, ==, 96);
      /* the listing's 96 rows and the timeline's 96 per-layer rows: two
       * views of the same layers, never added up */
      g_assert_cmpint (counts.n_operators, ==, 96 + 96);

      rows = tes_report_summarize (report, TES_SUMMARY_EACH, TES_GROUP_BY_CATEGORY, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (rows->len, ==, 96);
      g_assert_cmpstr (((TesSummaryRow *)g_ptr_array_index (rows, 77))->label, ==, "77 CONV_2D");
      g_assert_cmpfloat_with_epsilon (((TesSummaryRow *)g_ptr_array_index (rows, 77))->share, 10.019, 1e-9);
    }

  /* the command line: the each rows byte for byte, whatever the order */
  {
    g_auto(TesCliResult) r = { 0 };

    tes_test_run_cli (&r, "summary", "--mode", "each", timeline, img, each, NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_cmpstr (r.out, ==, each_text);

    tes_test_run_cli (&r, "info", img, each, timeline, NULL);
    g_assert_cmpint (r.status, ==, 0);
    tes_test_assert_contains (r.out, "Slices:         96\n");
    tes_test_assert_contains (r.out, "Info:           model.variable_buffer_size = 8601600\n");
    tes_test_assert_contains (r.out, "Info:           mode = each\n");
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tes/sigmastar-img-info/fixture", test_fixture);
  g_test_add_func ("/tes/sigmastar-img-info/cli", test_cli);
  g_test_add_func ("/tes/sigmastar-img-info/variants", test_variants);
  g_test_add_func ("/tes/sigmastar-img-info/bad-input", test_bad_input);
  g_test_add_func ("/tes/sigmastar-img-info/recoveries", test_recoveries);
  g_test_add_func ("/tes/sigmastar-img-info/sniff", test_sniff);
  g_test_add_func ("/tes/sigmastar-img-info/one-run", test_one_run);

  return g_test_run ();
}
