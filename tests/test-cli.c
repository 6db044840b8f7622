/* test-cli.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include <json-glib/json-glib.h>

#include "tes-test-util.h"

static char *
fixture_copy (const char *name)
{
  g_autofree char *src = tes_test_data_path (name);

  return tes_test_copy_to_tmp (src, name);
}

static void
test_usage_errors (void)
{
  g_autofree char *each = fixture_copy ("yolov8s_op_time_each.txt");
  g_auto(TesCliResult) r = { 0 };

  tes_test_run_cli (&r, NULL);
  g_assert_cmpint (r.status, ==, 2);
  tes_test_assert_contains (r.err, "missing COMMAND");

  tes_test_run_cli (&r, "frobnicate", each, NULL);
  g_assert_cmpint (r.status, ==, 2);
  tes_test_assert_contains (r.err, "unknown command 'frobnicate'");

  tes_test_run_cli (&r, "info", NULL);
  g_assert_cmpint (r.status, ==, 2);
  tes_test_assert_contains (r.err, "missing FILE");

  tes_test_run_cli (&r, "info", each, each, NULL);
  g_assert_cmpint (r.status, ==, 2);
  tes_test_assert_contains (r.err, "is given twice");

  tes_test_run_cli (&r, "info", "--bogus", each, NULL);
  g_assert_cmpint (r.status, ==, 2);
  tes_test_assert_contains (r.err, "--bogus");

  tes_test_run_cli (&r, "summary", "--mode", "some", each, NULL);
  g_assert_cmpint (r.status, ==, 2);
  tes_test_assert_contains (r.err, "--mode must be 'total' or 'each', not 'some'");

  tes_test_run_cli (&r, "summary", "--by", "colour", each, NULL);
  g_assert_cmpint (r.status, ==, 2);
  tes_test_assert_contains (r.err, "--by must be 'category' or 'name'");

  tes_test_run_cli (&r, "info", "--format", "no-such-format", each, NULL);
  g_assert_cmpint (r.status, ==, 2);
  tes_test_assert_contains (r.err, "Unknown format 'no-such-format'");

  tes_test_run_cli (&r, "--help", NULL);
  g_assert_cmpint (r.status, ==, 0);
  tes_test_assert_contains (r.out, "summary [--mode total|each]");
}

static void
test_bad_input (void)
{
  g_autofree char *bad = tes_test_tmp_path ("bad_op_time.txt");
  g_autofree char *unknown = tes_test_tmp_path ("notes.txt");
  g_autofree char *cache = NULL;
  g_autofree char *expected = NULL;
  g_auto(TesCliResult) r = { 0 };

  tes_test_run_cli (&r, "info", "/nonexistent/dir/report.txt", NULL);
  g_assert_cmpint (r.status, ==, 1);
  tes_test_assert_contains (r.err, "/nonexistent/dir/report.txt");
  g_assert_cmpstr (r.out, ==, "");

  tes_test_write_file (bad, "0 CONV_2D 7.880%\n1 CONV_2D seven%\n", -1);
  tes_test_run_cli (&r, "summary", bad, NULL);
  g_assert_cmpint (r.status, ==, 1);
  expected = g_strdup_printf ("tessera-cli: %s:2: expected", bad);
  tes_test_assert_contains (r.err, expected);
  cache = g_strconcat (bad, ".tessera", NULL);
  g_assert_false (g_file_test (cache, G_FILE_TEST_EXISTS));

  tes_test_write_file (unknown, "just some notes\n", -1);
  tes_test_run_cli (&r, "info", unknown, NULL);
  g_assert_cmpint (r.status, ==, 1);
  tes_test_assert_contains (r.err, "not a format Tessera recognises");

  /* a FIFO would block a reader for ever: refused before it is opened */
  {
    g_autofree char *fifo = tes_test_tmp_path ("trace.json");
    g_autofree char *message = g_strdup_printf ("%s: not a regular file (a FIFO)", fifo);

    g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
    tes_test_run_cli (&r, "info", fifo, NULL);
    g_assert_cmpint (r.status, ==, 1);
    tes_test_assert_contains (r.err, message);
  }
}

/* compare: a run against itself changes nothing and passes the gate; a
 * copy with one operator 50 % slower fails it, naming that operator. */
static void
test_compare (void)
{
  g_autofree char *a = fixture_copy ("yolov8s_op_time_each.txt");
  g_autofree char *b = tes_test_tmp_path ("slower_each.txt");
  g_autofree char *text = NULL;
  g_autofree char *slower = NULL;
  g_auto(GStrv) lines = NULL;
  g_auto(TesCliResult) r = { 0 };

  g_assert_true (g_file_get_contents (a, &text, NULL, NULL));
  g_assert_true (g_str_has_prefix (text, "0 CONV_2D 7.880%\n"));
  slower = g_strconcat ("0 CONV_2D 11.820%\n", text + strlen ("0 CONV_2D 7.880%\n"), NULL);
  tes_test_write_file (b, slower, -1);

  tes_test_run_cli (&r, "compare", "--fail-if-slower", "5", a, a, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.err, ==, "");
  lines = g_strsplit (r.out, "\n", -1);
  /* A, B, a blank line, the header, then the 96 operators */
  g_assert_cmpuint (g_strv_length (lines), ==, 4 + 96 + 1);
  for (guint i = 4; lines[i] && *lines[i]; i++)
    tes_test_assert_contains (lines[i], " 0.000 %");
  g_clear_pointer (&lines, g_strfreev);

  tes_test_run_cli (&r, "compare", "--fail-if-slower", "10", a, b, NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_cmpstr (r.err, ==, "tessera-cli: 0 CONV_2D got slower by 50.0 %\n");
  lines = g_strsplit (r.out, "\n", -1);
  /* the largest change first */
  g_assert_true (g_str_has_prefix (lines[4], "0 CONV_2D "));
  tes_test_assert_contains (lines[4], "+50.0");
  g_clear_pointer (&lines, g_strfreev);

  /* without a gate the same diff passes */
  tes_test_run_cli (&r, "compare", a, b, NULL);
  g_assert_cmpint (r.status, ==, 0);

  tes_test_run_cli (&r, "compare", "--csv", a, b, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "a_name,a_type,b_name,b_type,a_share,b_share,delta,delta_percent\n"
                                          "0 CONV_2D,CONV_2D,0 CONV_2D,CONV_2D,7.880,11.820,3.940,50.00\n"));

  /* what cannot be compared is a usage error, not a regression */
  tes_test_run_cli (&r, "compare", a, "/nonexistent/run.txt", NULL);
  g_assert_cmpint (r.status, ==, 2);
  tes_test_assert_contains (r.err, "/nonexistent/run.txt");
  tes_test_run_cli (&r, "compare", a, NULL);
  g_assert_cmpint (r.status, ==, 2);
  tes_test_run_cli (&r, "compare", "--by", "colour", a, b, NULL);
  g_assert_cmpint (r.status, ==, 2);
}

/* A report is shared by sending its cache: it opens alone, its sources
 * gone, with the same numbers. */
static void
test_cache_alone (void)
{
  g_autofree char *each = fixture_copy ("yolov8s_op_time_each.txt");
  g_autofree char *cache = g_strconcat (each, ".tessera", NULL);
  g_autofree char *moved = tes_test_tmp_path ("shared-report.tessera");
  g_autofree char *summary = NULL;
  g_autofree char *expected = NULL;
  g_auto(TesCliResult) r = { 0 };

  tes_test_run_cli (&r, "summary", "--mode", "each", each, NULL);
  g_assert_cmpint (r.status, ==, 0);
  summary = g_strdup (r.out);

  g_assert_cmpint (g_unlink (each), ==, 0);
  g_assert_cmpint (g_rename (cache, moved), ==, 0);
  tes_test_run_cli (&r, "info", moved, NULL);
  g_assert_cmpint (r.status, ==, 0);
  expected = g_strdup_printf ("File:           %s\n", moved);
  tes_test_assert_contains (r.out, expected);
  tes_test_assert_contains (r.out, "Operators:      96\n");
  tes_test_run_cli (&r, "summary", "--mode", "each", moved, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, summary);

  /* a cache holds a whole report: it does not join other files */
  tes_test_run_cli (&r, "info", moved, moved, NULL);
  g_assert_cmpint (r.status, ==, 2);
  tes_test_assert_contains (r.err, "open it alone");

  /* a damaged cache is an error naming it, never a crash */
  tes_test_write_file (moved, "SQLite format 3", 16);
  tes_test_run_cli (&r, "info", moved, NULL);
  g_assert_cmpint (r.status, ==, 1);
  tes_test_assert_contains (r.err, moved);
}

/* The vendor's numbers, byte for byte. */
static void
test_summary_fidelity (void)
{
  g_autofree char *each = fixture_copy ("yolov8s_op_time_each.txt");
  g_autofree char *total = fixture_copy ("yolov8s_op_time_total.txt");
  g_autofree char *each_text = NULL;
  g_autofree char *total_text = NULL;
  g_auto(GStrv) csv_lines = NULL;
  g_auto(TesCliResult) r = { 0 };

  g_assert_true (g_file_get_contents (each, &each_text, NULL, NULL));
  g_assert_true (g_file_get_contents (total, &total_text, NULL, NULL));

  tes_test_run_cli (&r, "summary", "--mode", "each", each, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, each_text);

  tes_test_run_cli (&r, "summary", total, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, total_text);

  tes_test_run_cli (&r, "summary", "--mode", "total", each, NULL);
  g_assert_cmpint (r.status, ==, 0);
  tes_test_assert_contains (r.out, "CONV_2D 80.742%\nSOFTMAX 8.033%\n");

  tes_test_run_cli (&r, "summary", "--mode", "each", total, NULL);
  g_assert_cmpint (r.status, ==, 1);
  tes_test_assert_contains (r.err, "per-type totals only");

  tes_test_run_cli (&r, "summary", "--csv", "--by", "name", "--mode", "total", each, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "label,index,name,type,share_percent,total,count\n"
                                          "77 CONV_2D,,77 CONV_2D,CONV_2D,10.019,,1\n"));
  csv_lines = g_strsplit (r.out, "\n", -1);
  g_assert_cmpuint (g_strv_length (csv_lines), ==, 96 + 2);
}

static void
test_info_cache_cycle (void)
{
  g_autofree char *each = fixture_copy ("yolov8s_op_time_each.txt");
  g_autofree char *cache = g_strconcat (each, ".tessera", NULL);
  g_autofree char *text = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_auto(TesCliResult) r = { 0 };
  JsonObject *root;
  gsize len;

  tes_test_run_cli (&r, "info", each, NULL);
  g_assert_cmpint (r.status, ==, 0);
  tes_test_assert_contains (r.out, "Importer:       sigmastar-op-time (version 2)\n");
  tes_test_assert_contains (r.out, "Operators:      96\n");
  tes_test_assert_contains (r.out, "(written now)");
  g_assert_true (g_file_test (cache, G_FILE_TEST_IS_REGULAR));

  tes_test_run_cli (&r, "info", "--json", each, NULL);
  g_assert_cmpint (r.status, ==, 0);
  json_parser_load_from_data (parser, r.out, -1, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "importer"), ==, "sigmastar-op-time");
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (root, "counts"), "operators"), ==, 96);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (root, "counts"), "slices"), ==, 0);
  g_assert_true (json_object_get_boolean_member (json_object_get_object_member (root, "cache"), "reused"));
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (root, "cache"), "path"), ==, cache);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (root, "info"), "mode"), ==, "each");

  /* the source changes: rebuilt, then reused again */
  g_assert_true (g_file_get_contents (each, &text, &len, NULL));
  text[strlen ("0 CONV_2D 7.88")] = '1';
  tes_test_write_file (each, text, len);
  tes_test_run_cli (&r, "info", each, NULL);
  tes_test_assert_contains (r.out, "(written now)");
  tes_test_run_cli (&r, "summary", "--mode", "each", each, NULL);
  g_assert_true (g_str_has_prefix (r.out, "0 CONV_2D 7.881%\n"));
  tes_test_run_cli (&r, "info", each, NULL);
  tes_test_assert_contains (r.out, "(reused)");

  tes_test_run_cli (&r, "info", "--reimport", each, NULL);
  tes_test_assert_contains (r.out, "(written now)");
}

/* Files of one run open as one report with one cache, whatever their
 * order on the command line. */
static void
test_several_files (void)
{
  g_autofree char *each = fixture_copy ("yolov8s_op_time_each.txt");
  g_autofree char *total = fixture_copy ("yolov8s_op_time_total.txt");
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_auto(TesCliResult) r = { 0 };
  g_autofree char *source_line = NULL;
  JsonObject *root;
  JsonArray *sources;
  const char *cache;

  tes_test_run_cli (&r, "info", "--json", total, each, NULL);
  g_assert_cmpint (r.status, ==, 0);
  json_parser_load_from_data (parser, r.out, -1, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  sources = json_object_get_array_member (root, "sources");
  g_assert_cmpuint (json_array_get_length (sources), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (sources, 0), "path"), ==, total);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (sources, 1), "path"), ==, each);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (root, "counts"), "operators"), ==, 96 + 12);
  g_assert_false (json_object_get_boolean_member (json_object_get_object_member (root, "cache"), "reused"));
  cache = json_object_get_string_member (json_object_get_object_member (root, "cache"), "path");
  g_assert_true (strstr (cache, "yolov8s_op_time_each.txt+1-") != NULL);
  g_assert_true (g_str_has_suffix (cache, ".tessera"));
  g_assert_true (g_file_test (cache, G_FILE_TEST_IS_REGULAR));

  /* the other order: the same report, from the same cache */
  tes_test_run_cli (&r, "info", each, total, NULL);
  g_assert_cmpint (r.status, ==, 0);
  tes_test_assert_contains (r.out, "Operators:      108\n");
  tes_test_assert_contains (r.out, "(reused)");
  source_line = g_strdup_printf ("Source:         %s: SigmaStar get_op_time_cost.py (sigmastar-op-time, version 2)\n", each);
  tes_test_assert_contains (r.out, source_line);

  /* the two listings are two views of one run: each view comes from its
   * own file, never added up */
  {
    g_autofree char *each_text = NULL;
    g_autofree char *total_text = NULL;

    g_assert_true (g_file_get_contents (each, &each_text, NULL, NULL));
    g_assert_true (g_file_get_contents (total, &total_text, NULL, NULL));
    tes_test_run_cli (&r, "summary", each, total, NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_cmpstr (r.out, ==, total_text);
    tes_test_run_cli (&r, "summary", "--mode", "each", total, each, NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_cmpstr (r.out, ==, each_text);
  }

  /* a bad member fails the whole set, naming the file */
  tes_test_write_file (total, "CONV_2D 80.743%\nSOFTMAX\n", -1);
  tes_test_run_cli (&r, "info", each, total, NULL);
  g_assert_cmpint (r.status, ==, 1);
  {
    g_autofree char *expected = g_strdup_printf ("%s:2: expected", total);
    tes_test_assert_contains (r.err, expected);
  }
}

static void
test_formats (void)
{
  g_auto(TesCliResult) r = { 0 };

  tes_test_run_cli (&r, "formats", NULL);
  g_assert_cmpint (r.status, ==, 0);
  tes_test_assert_contains (r.out, "sigmastar-op-time");
}

/* cache --list names every cache of the user cache folder and the given
 * files' caches with their state; --clear FILE removes a file's cache,
 * --clear alone every cache in the user cache folder. */
static void
test_cache_command (void)
{
  g_autofree char *total = fixture_copy ("yolov8s_op_time_total.txt");
  g_autofree char *total_cache = g_strconcat (total, ".tessera", NULL);
  g_autofree char *ro_dir = tes_test_tmp_path ("cache-ro");
  g_autofree char *each = g_build_filename (ro_dir, "yolov8s_op_time_each.txt", NULL);
  g_autofree char *each_src = tes_test_data_path ("yolov8s_op_time_each.txt");
  g_autofree char *user_dir = g_build_filename (g_get_user_cache_dir (), "tessera", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *line = NULL;
  g_auto(TesCliResult) r = { 0 };
  gsize len;

  /* GLib isolates this case's folders in this process only */
  g_setenv ("XDG_CACHE_HOME", g_get_user_cache_dir (), TRUE);
  g_assert_true (g_file_get_contents (each_src, &contents, &len, NULL));
  g_assert_no_errno (g_mkdir_with_parents (ro_dir, 0755));
  tes_test_write_file (each, contents, len);
  g_assert_no_errno (g_chmod (ro_dir, 0555));

  tes_test_run_cli (&r, "info", total, NULL);
  g_assert_cmpint (r.status, ==, 0);
  tes_test_run_cli (&r, "info", each, NULL);
  g_assert_cmpint (r.status, ==, 0);

  /* the read-only folder's cache is in the user cache folder, the other
   * beside its file, both ok */
  tes_test_run_cli (&r, "cache", "--list", total, NULL);
  g_assert_cmpint (r.status, ==, 0);
  line = g_strdup_printf ("  %s  %s\n", total_cache, total);
  tes_test_assert_contains (r.out, line);
  g_assert_true (g_str_has_prefix (strstr (r.out, "\nok ") + 1, "ok "));
  tes_test_assert_contains (r.out, user_dir);
  tes_test_assert_contains (r.out, "op_time_each.txt.tessera  ");
  g_assert_null (strstr (r.out, "damaged"));
  g_assert_null (strstr (r.out, "stale"));

  /* a changed source makes its cache stale, a cut one is damaged */
  {
    g_autofree char *total_text = NULL;

    g_assert_true (g_file_get_contents (total, &total_text, NULL, NULL));
    g_clear_pointer (&line, g_free);
    line = g_strconcat (total_text, "\n", NULL);
    tes_test_write_file (total, line, -1);
  }
  tes_test_run_cli (&r, "cache", "--list", total, NULL);
  g_assert_cmpint (r.status, ==, 0);
  tes_test_assert_contains (r.out, "stale ");
  tes_test_assert_contains (r.out, "changed since the cache was written");
  g_assert_no_errno (truncate (total_cache, 4096));
  tes_test_run_cli (&r, "cache", "--list", total, NULL);
  g_assert_cmpint (r.status, ==, 0);
  tes_test_assert_contains (r.out, "damaged ");
  tes_test_assert_contains (r.out, "is damaged: ");

  /* --clear FILE: that file's cache only */
  tes_test_run_cli (&r, "cache", "--clear", total, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_clear_pointer (&line, g_free);
  line = g_strdup_printf ("Removed %s\n", total_cache);
  tes_test_assert_contains (r.out, line);
  g_assert_false (g_file_test (total_cache, G_FILE_TEST_EXISTS));
  tes_test_run_cli (&r, "cache", "--list", NULL);
  tes_test_assert_contains (r.out, "op_time_each.txt.tessera  ");

  /* a .tessera itself is not cleared: it may be all there is */
  tes_test_run_cli (&r, "cache", "--clear", total_cache, NULL);
  g_assert_cmpint (r.status, ==, 2);

  /* --clear: the whole user cache folder */
  tes_test_run_cli (&r, "cache", "--clear", NULL);
  g_assert_cmpint (r.status, ==, 0);
  tes_test_assert_contains (r.out, "Removed ");
  tes_test_run_cli (&r, "cache", "--list", NULL);
  g_assert_null (strstr (r.out, ".tessera"));

  tes_test_run_cli (&r, "cache", NULL);
  g_assert_cmpint (r.status, ==, 2);
  tes_test_assert_contains (r.err, "give --list or --clear");
  g_assert_no_errno (g_chmod (ro_dir, 0755));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tes/cli/usage-errors", test_usage_errors);
  g_test_add_func ("/tes/cli/bad-input", test_bad_input);
  g_test_add_func ("/tes/cli/summary-fidelity", test_summary_fidelity);
  g_test_add_func ("/tes/cli/info-cache-cycle", test_info_cache_cycle);
  g_test_add_func ("/tes/cli/several-files", test_several_files);
  g_test_add_func ("/tes/cli/cache-alone", test_cache_alone);
  g_test_add_func ("/tes/cli/compare", test_compare);
  g_test_add_func ("/tes/cli/formats", test_formats);
  g_test_add_func ("/tes/cli/cache-command", test_cache_command);

  return g_test_run ();
}
