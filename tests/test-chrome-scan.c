/* test-chrome-scan.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "tes-chrome-parser.h"
#include "tes-report.h"
#include "tes-test-util.h"
#include "test-chrome-util.h"

/* The Chrome parser's fast paths against yajl alone: the one-pass event
 * decoder (tes-chrome-decode.c) and the scanner whose tokens are replayed
 * (tes-chrome-scan.c) must give the same reports, or fail with the same
 * messages at the same bytes, on traces of every shape, damaged copies
 * of them and the real traces of tests/data. */

/* Events in every shape the scanner takes or leaves to yajl: escapes
 * (surrogate pairs, \u0000, \/), raw UTF-8, the four kinds of white space
 * and others, numbers in every JSON form, nested and empty args, every
 * phase that keeps something, ids as objects, events split by lines. */
static char *
scan_trace (guint n)
{
  static const char * const args[] = {
    "{}",
    "{\"a\":1}",
    "{\"s\":\"x\\ny\\t\\\"q\\\" \\/ \\\\\",\"n\":-0.5e+3,\"b\":true,\"z\":null,\"f\":false,\"e\":1E2}",
    "{\"nested\":{\"l\":[1,2,[3,{\"q\":\"\\u0041\\u00ff\\u0800\"}]],\"e\":[],\"o\":{}},\"u\":\"\xc3\xa9\xe4\xb8\xad\"}",
    "{ \"op\" : \"Conv2D\" ,\r\n \"bytes\" : 1234 }",
    "{\"nul\":\"a\\u0000b\",\"pair\":\"\\ud83d\\ude00\",\"lone\":\"\\udc00\"}",
    "{\"v\":\"tab\\there\"}",
    /* the PyTorch profiler's: indented lines, runs of white space longer
     * than the scanner's 16-byte words, keys with spaces, long names */
    "{\n                        \"External id\": 262, \"grid\": [108, 1, 1],\t\"q\" :\r\n\"\",\n"
    "      \"kernel\": \"void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)"
    "::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar)\xc3\xa9 {lambda(float)#1}\", \"e\": {  }\n    }",
  };
  static const char * const seps[] = { ",", ",\n", " ,\n ", ",\r\n", "\t,\t", ",\f",
                                       ",\n                                  " };
  GString *s = g_string_new ("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"a\":\"b\\u00e9\",\"n\":1},"
                             "\"stackFrames\":{\"1\":{\"name\":\"f\"}},\"traceEvents\":[\n"
                             "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":2,"
                             "\"args\":{\"name\":\"core \\ud83d\\ude00\"}}");
  gint64 ts = 0;

  for (guint i = 0; i < n; i++)
    {
      ts += 1 + i % 13;
      g_string_append (s, seps[i % G_N_ELEMENTS (seps)]);
      switch (i % 10)
        {
        case 0:
        case 1:
        case 2:
          g_string_append_printf (s, "{\"ph\":\"X\",\"name\":\"op%u\",\"cat\":\"c%u\",\"pid\":1,\"tid\":%u,"
                                  "\"ts\":%" G_GINT64_FORMAT ".%03u,\"dur\":%u,\"args\":%s}",
                                  i % 7, i % 3, i % 3, ts, i % 1000, i % 31, args[i % G_N_ELEMENTS (args)]);
          break;
        case 3:
          g_string_append_printf (s, "{\"ph\":\"B\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":%" G_GINT64_FORMAT "},\n"
                                  "{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":%" G_GINT64_FORMAT ",\"args\":%s}",
                                  ts, ts + 3, args[(i / 8) % G_N_ELEMENTS (args)]);
          break;
        case 4:
          g_string_append_printf (s, "{\"ph\":\"C\",\"name\":\"ctr\",\"pid\":1,\"ts\":%" G_GINT64_FORMAT ","
                                  "\"args\":{\"v\":%u,\"w\":\"%u\"}}", ts, i, i);
          break;
        case 5:
          g_string_append_printf (s, "{\"ph\":\"i\",\"name\":\"inst\",\"s\":\"%c\",\"pid\":1,\"tid\":2,"
                                  "\"ts\":%" G_GINT64_FORMAT ",\"tts\":%" G_GINT64_FORMAT "}",
                                  "tpg"[i % 3], ts, ts);
          break;
        case 6:
          g_string_append_printf (s, "{\"ph\":\"b\",\"name\":\"as\",\"cat\":\"c\",\"id\":\"0x%x\",\"pid\":1,\"tid\":2,"
                                  "\"ts\":%" G_GINT64_FORMAT "}, {\"ph\":\"e\",\"name\":\"as\",\"cat\":\"c\","
                                  "\"id2\":{\"local\":\"0x%x\"},\"pid\":1,\"tid\":2,\"ts\":%" G_GINT64_FORMAT "}",
                                  i, ts, i, ts + 5);
          break;
        case 8:
          /* what the one-pass decoder reads: the PyTorch profiler's
           * layout, string and large ids, times in every form */
          g_string_append_printf (s, "{\n    \"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\xc3\xa9%u\", "
                                  "\"pid\": \"%s\", \"tid\": %s,\n    \"ts\": %s, \"dur\": %s,\n"
                                  "    \"args\": {\n      \"External id\": %u, \"grid\": [1, 2, 3], \"o\": {}\n    }\n  }",
                                  i % 5, (const char *[]) { "GPU 0", "p\\u00e9", "", "7" }[i / 10 % 4],
                                  (const char *[]) { "0", "4294967295", "123456789012345678", "1234567890123456789",
                                                     "12345678901234567890", "\"t\"", "-3", "7.0" }[i / 10 % 8],
                                  (const char *[]) { "1.5", "1.2345", "1e3", "0.001", "123456789012345", "1234567890123456",
                                                     "\"5\"", "null" }[i / 10 % 8],
                                  (const char *[]) { "0", "2.25", "-1", "1.0", "0.5E1" }[i / 10 % 5],
                                  i);
          break;
        case 9:
          /* keys the decoder skips or leaves to the scanner */
          g_string_append_printf (s, "{\"ph\":\"%s\",\"name\":%s,\"pid\":1,\"tid\":1,\"ts\":%" G_GINT64_FORMAT ","
                                  "\"s\":\"%s\",\"bp\":%s,\"x\":{\"y\":[{},[]]},\"id\":%s,\"args\":{\"a\":1},"
                                  "\"args\":%s,\"flow_in\":%s,\"n\\u0061me\":\"q\"}",
                                  (const char *[]) { "i", "Xx", "\\u0058", "" }[i / 10 % 4],
                                  (const char *[]) { "\"n\"", "3", "null", "\"a\\\"b\"" }[i / 10 % 4],
                                  ts, (const char *[]) { "g", "", "p" }[i / 10 % 3],
                                  (const char *[]) { "\"e\"", "{}", "1", "[]" }[i / 10 % 4],
                                  (const char *[]) { "\"0x1\"", "12", "1.5e2", "{}" }[i / 10 % 4],
                                  (const char *[]) { "{}", "{\"b\":\"\\/\"}", "null", "[1]", "{\"c\" : true}" }[i / 10 % 5],
                                  (const char *[]) { "true", "false", "1" }[i / 10 % 3]);
          break;
        default:
          g_string_append_printf (s, "{ \"ph\" : \"X\" ,\n \"name\":\"sp ace\", \"pid\":\"str\", \"tid\":%u, "
                                  "\"ts\":\"%" G_GINT64_FORMAT "\", \"dur\":1e1, \"bind_id\":%u, \"flow_out\":true }",
                                  i % 4, ts, i);
          break;
        }
    }
  g_string_append (s, "\n],\"metadata\":{\"x\":\"y\"}}\n");

  return g_string_free (s, FALSE);
}

typedef enum
{
  PARSE_YAJL,        /* yajl reads every event */
  PARSE_SCAN,        /* the scanner's tokens, replayed */
  PARSE_DECODE,      /* the one-pass decoder first (the default) */
} ParseMode;

static TesReport *
import_scanned (const char  *path,
                ParseMode    mode,
                GError     **error)
{
  TesReport *report;

  tes_chrome_parser_set_scan (mode != PARSE_YAJL);
  tes_chrome_parser_set_decode (mode == PARSE_DECODE);
  report = import (path, error);
  tes_chrome_parser_set_scan (TRUE);
  tes_chrome_parser_set_decode (TRUE);

  return report;
}

/* The same import through the given path and through yajl alone (b, or
 * its error): both fail with the same message, or both give the same
 * report. */
static void
assert_parse_same (const char   *path,
                   ParseMode     mode,
                   TesReport    *b,
                   const GError *error_yajl,
                   guint         args_step)
{
  g_autoptr(GError) error_scan = NULL;
  g_autoptr(TesReport) a = import_scanned (path, mode, &error_scan);

  if (b == NULL)
    {
      g_assert_null (a);
      g_assert_cmpstr (error_scan->message, ==, error_yajl->message);
      return;
    }

  g_assert_no_error (error_scan);
  for (guint f = 0; f < CHROME_N_FIGURES; f++)
    g_assert_cmpint (report_figure (a, chrome_figures[f]), ==, report_figure (b, chrome_figures[f]));
  tes_test_assert_same_slices (a, b, args_step);
  {
    g_autoptr(GPtrArray) ia = tes_report_get_info (a);
    g_autoptr(GPtrArray) ib = tes_report_get_info (b);

    g_assert_cmpuint (ia->len, ==, ib->len);
    for (guint i = 0; i < ia->len; i++)
      {
        const TesInfoEntry *x = g_ptr_array_index (ia, i);
        const TesInfoEntry *y = g_ptr_array_index (ib, i);

        g_assert_cmpstr (x->key, ==, y->key);
        if (!g_str_equal (x->key, "import_us"))
          g_assert_cmpstr (x->value, ==, y->value);
      }
  }
}

/* The scanner and the decoder each give what yajl alone gives, the args
 * of every args_step-th slice included. */
static void
assert_parsed_same (const char *path,
                    guint       args_step)
{
  g_autoptr(GError) error_yajl = NULL;
  g_autoptr(TesReport) b = import_scanned (path, PARSE_YAJL, &error_yajl);

  assert_parse_same (path, PARSE_DECODE, b, error_yajl, args_step);
  assert_parse_same (path, PARSE_SCAN, b, error_yajl, args_step);
}

static void
assert_scan_same (const char *path)
{
  assert_parsed_same (path, 1);
}

/* The scanner and the one-pass decoder that spare yajl the plain events
 * give what yajl alone gives: on a trace of every shape, and on 120 damaged copies of it
 * (bytes inserted, deleted, changed, the file cut), where the errors must
 * read the same, byte and line included. */
static void
test_scan (void)
{
  static const char * const inserts[] = {
    "\v", "\f", "\\", "\"", "}", "{", ",", "\x80", "\xc3", "]", "[", ":", "-", "0", "e", ".",
    "\\u", "\\ud800", "NaN", "tru", "\x1f", " ",
  };
  g_autofree char *path = tes_test_tmp_path ("scan.json");
  g_autofree char *text = scan_trace (250);
  gsize len = strlen (text);
  /* errors where yajl takes over from the scanner, or right after a '}'
   * (where it is given the next slice): a missing '}' or ',', a '}' and
   * then a control character inside a string */
  static const char * const broken[] = {
    "[{\"ph\":\"X\",\"ts\":1,\"pid\":1,\"tid\":1},\n{\"ph\":\"X\",\"ts\":2,\"args\":{\"a\":1}{\"ph\":\"X\"}]",
    "[{\"ph\":\"X\",\"ts\":1,\"pid\":1,\"tid\":1},{\"ph\":\"X\",\"ts\":2} {\"ph\":\"X\",\"ts\":3}]",
    "[{\"ph\":\"X\",\"ts\":1,\"pid\":1,\"tid\":1},{\"ph\":\"X\",\"ts\":2,\"name\":\"a}b\x01\"}]",
    "{\"otherData\":{\"a\":{}},\"traceEvents\":[{\"ph\":\"X\",\"ts\":1},{\"ph\":\"X\",\"ts\":2,\"args\":[}]}",
  };
  g_autoptr(GRand) rand = g_rand_new_with_seed (14);
  guint failed = 0;

  for (guint i = 0; i < G_N_ELEMENTS (broken); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TesReport) report = NULL;

      tes_test_write_file (path, broken[i], -1);
      assert_scan_same (path);
      report = import (path, &error);
      g_assert_null (report);
    }

  tes_test_write_file (path, text, len);
  assert_scan_same (path);
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(TesReport) report = import (path, &error);

    g_assert_no_error (error);
    g_assert_cmpint (report_figure (report, "slices"), >, 150);
  }

  for (guint k = 0; k < 120; k++)
    {
      g_autoptr(GString) damaged = g_string_new_len (text, len);
      guint n = 1 + k % 3;

      for (guint m = 0; m < n; m++)
        {
          guint at = g_rand_int_range (rand, 0, damaged->len);

          switch (g_rand_int_range (rand, 0, 4))
            {
            case 0:
              g_string_insert (damaged, at, inserts[g_rand_int_range (rand, 0, G_N_ELEMENTS (inserts))]);
              break;
            case 1:
              g_string_erase (damaged, at, MIN (damaged->len - at, 1 + k % 3));
              break;
            case 2:
              damaged->str[at] = (char)g_rand_int_range (rand, 1, 256);
              break;
            default:
              g_string_truncate (damaged, at);
              break;
            }
        }

      tes_test_write_file (path, damaged->str, damaged->len);
      assert_scan_same (path);
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(TesReport) report = import (path, &error);

        failed += report == NULL;
      }
    }

  /* the damage did break some, not all */
  g_test_message ("%u of 120 damaged traces fail", failed);
  g_assert_cmpuint (failed, >, 12);
  g_assert_cmpuint (failed, <, 108);
}

/* The same on the real traces the tools wrote (tests/data, with their
 * PROVENANCE): every event the decoder takes gives what yajl gives. The
 * args of every 13th slice are compared: a lookup each, which for all of
 * them took 40 s here. */
static void
test_scan_real (void)
{
  static const char * const dirs[] = { "chrome", "kineto", "onnxruntime", "tensorflow", "qaic" };
  guint n = 0;

  for (guint d = 0; d < G_N_ELEMENTS (dirs); d++)
    {
      g_autofree char *dir_path = tes_test_data_path (dirs[d]);
      g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
      const char *name;

      g_assert_nonnull (dir);
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *relative = NULL;
          g_autofree char *path = NULL;

          if (!g_str_has_suffix (name, ".json") && !g_str_has_suffix (name, ".json.gz"))
            continue;
          relative = g_build_filename (dirs[d], name, NULL);
          path = tes_test_copy_fixture (TES_TEST_OWN_DATA, relative);
          g_test_message ("%s", relative);
          assert_parsed_same (path, 13);
          n++;
        }
    }
  g_assert_cmpuint (n, >=, 20);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tes_test_add (TES_TEST_OWN_DATA, "/tes/chrome/scan", test_scan);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/chrome/scan-real", test_scan_real);

  return g_test_run ();
}
