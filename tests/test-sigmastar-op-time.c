/* test-sigmastar-op-time.c
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

static TesReport *
open_fixture (const char  *name,
              GError     **error)
{
  g_autofree char *copy = tes_test_copy_fixture (TES_TEST_OWN_DATA, name);
  TesImporter *importer = tes_importer_registry_lookup ("sigmastar-op-time");

  g_assert_nonnull (importer);
  return tes_report_import (copy, importer, 0, NULL, NULL, error);
}

typedef struct
{
  gint64  index;
  char   *type;
  char   *percent;   /* as printed */
} VendorRow;

/* Reads a vendor listing with Python's str.split() semantics, kept apart
 * from the importer's parser on purpose. */
static GPtrArray *
read_vendor_rows (const char *name)
{
  g_autofree char *path = tes_test_data_path (name);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  GPtrArray *rows = g_ptr_array_new ();

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_auto(GStrv) f = g_strsplit_set (g_strstrip (lines[i]), " ", -1);
      guint n = g_strv_length (f);
      VendorRow *row;

      if (n == 0 || f[0][0] == '\0')
        continue;
      row = g_new0 (VendorRow, 1);
      row->index = n == 3 ? g_ascii_strtoll (f[0], NULL, 10) : -1;
      row->type = g_strdup (f[n - 2]);
      row->percent = g_strndup (f[n - 1], strlen (f[n - 1]) - 1);
      g_ptr_array_add (rows, row);
    }

  return rows;
}

static void
vendor_rows_free (GPtrArray *rows)
{
  for (guint i = 0; i < rows->len; i++)
    {
      VendorRow *row = g_ptr_array_index (rows, i);
      g_free (row->type);
      g_free (row->percent);
      g_free (row);
    }
  g_ptr_array_unref (rows);
}

static void
test_each_fixture (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = open_fixture ("yolov8s_op_time_each.txt", &error);
  g_autoptr(GPtrArray) rows = NULL;
  g_autofree char *mode = NULL;
  GPtrArray *vendor = read_vendor_rows ("yolov8s_op_time_each.txt");
  TesReportCounts counts;

  g_assert_no_error (error);
  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_operators, ==, 96);
  g_assert_cmpint (counts.n_slices, ==, 0);
  mode = tes_report_lookup_info (report, "mode");
  g_assert_cmpstr (mode, ==, "each");

  rows = tes_report_summarize (report, TES_SUMMARY_EACH, TES_GROUP_BY_CATEGORY, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, vendor->len);
  for (guint i = 0; i < rows->len; i++)
    {
      const TesSummaryRow *row = g_ptr_array_index (rows, i);
      const VendorRow *v = g_ptr_array_index (vendor, i);
      g_autofree char *printed = g_strdup_printf ("%.3f", row->share);
      g_autofree char *label = g_strdup_printf ("%" G_GINT64_FORMAT " %s", v->index, v->type);

      g_assert_cmpint (row->op_index, ==, v->index);
      g_assert_cmpstr (row->type, ==, v->type);
      g_assert_cmpstr (row->label, ==, label);
      g_assert_cmpstr (printed, ==, v->percent);
    }

  /* named rows */
  g_assert_cmpstr (((TesSummaryRow *)g_ptr_array_index (rows, 77))->label, ==, "77 CONV_2D");
  g_assert_cmpfloat_with_epsilon (((TesSummaryRow *)g_ptr_array_index (rows, 77))->share, 10.019, 1e-9);
  g_assert_cmpstr (((TesSummaryRow *)g_ptr_array_index (rows, 95))->type, ==, "Fix2Float");

  vendor_rows_free (vendor);
}

static void
test_total_fixture (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = open_fixture ("yolov8s_op_time_total.txt", &error);
  g_autoptr(GPtrArray) rows = NULL;
  GPtrArray *vendor = read_vendor_rows ("yolov8s_op_time_total.txt");

  g_assert_no_error (error);
  rows = tes_report_summarize (report, TES_SUMMARY_TOTAL, TES_GROUP_BY_CATEGORY, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, 12);
  for (guint i = 0; i < rows->len; i++)
    {
      const TesSummaryRow *row = g_ptr_array_index (rows, i);
      const VendorRow *v = g_ptr_array_index (vendor, i);
      g_autofree char *printed = g_strdup_printf ("%.3f", row->share);

      g_assert_cmpstr (row->label, ==, v->type);
      g_assert_cmpstr (printed, ==, v->percent);
      g_assert_cmpint (row->count, ==, -1);   /* the listing does not say */
    }

  /* A per-type listing has no per-operator rows to show. */
  g_assert_null (tes_report_summarize (report, TES_SUMMARY_EACH, TES_GROUP_BY_CATEGORY, &error));
  g_assert_error (error, TES_REPORT_ERROR, TES_REPORT_ERROR_NO_DATA);

  vendor_rows_free (vendor);
}

/* The fidelity check: per-type totals recomputed from the 'each'
 * listing equal the vendor's 'total' listing to 0.001 percentage points,
 * in the same order. (The each rows are rounded to 3 decimals, so their
 * sums can differ from the vendor's own total in the last digit.) */
static void
test_total_from_each (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = open_fixture ("yolov8s_op_time_each.txt", &error);
  g_autoptr(GPtrArray) rows = NULL;
  GPtrArray *vendor = read_vendor_rows ("yolov8s_op_time_total.txt");
  double max_diff = 0;

  g_assert_no_error (error);
  rows = tes_report_summarize (report, TES_SUMMARY_TOTAL, TES_GROUP_BY_CATEGORY, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, vendor->len);

  for (guint i = 0; i < rows->len; i++)
    {
      const TesSummaryRow *row = g_ptr_array_index (rows, i);
      const VendorRow *v = g_ptr_array_index (vendor, i);
      double diff = fabs (row->share - g_ascii_strtod (v->percent, NULL));

      g_assert_cmpstr (row->label, ==, v->type);
      g_assert_cmpfloat (diff, <=, 0.001 + 1e-9);
      max_diff = MAX (max_diff, diff);
    }

  /* grouping really summed: CONV_2D is 80.742 from the rows, 80.743 printed */
  g_assert_cmpfloat (max_diff, >, 0.0);
  g_assert_cmpint (((TesSummaryRow *)g_ptr_array_index (rows, 0))->count, ==, 64);

  vendor_rows_free (vendor);
}

static void
test_bad_input (void)
{
  static const TesBadInput cases[] = {
    { "empty.txt", "", 0, TES_IMPORT_ERROR_EMPTY, ": no operator rows" },
    { "blank.txt", "\n  \n", -1, TES_IMPORT_ERROR_EMPTY, ": no operator rows" },
    { "nonnumeric.txt", "0 CONV_2D 1.000%\n1 ADD 2.000%\n2 ADD abc%\n", -1, TES_IMPORT_ERROR_INVALID, ":3: expected" },
    { "truncated.txt", "0 CONV_2D 1.000%\n1 ADD 2.0", -1, TES_IMPORT_ERROR_TRUNCATED, ":2: the file is cut short inside its last line: expected" },
    { "columns.txt", "0 CONV_2D 1.000% extra\n", -1, TES_IMPORT_ERROR_INVALID, ":1: expected" },
    { "mixed.txt", "0 CONV_2D 1.000%\nADD 2.000%\n", -1, TES_IMPORT_ERROR_INVALID, ":2: per-type row in a listing whose line 1" },
    { "duplicate.txt", "0 CONV_2D 1.000%\n0 ADD 2.000%\n", -1, TES_IMPORT_ERROR_INVALID, ":2: operator index 0 already listed on line 1" },
    { "over.txt", "ADD 100.5%\n", -1, TES_IMPORT_ERROR_INVALID, ":1: share 100.500% is above 100%" },
    { "negative.txt", "ADD -1.000%\n", -1, TES_IMPORT_ERROR_INVALID, ":1: expected" },
    { "nan.txt", "ADD nan%\n", -1, TES_IMPORT_ERROR_INVALID, ":1: expected" },
    { "utf8.txt", "0 CONV_2D 1.000%\n1 A\xff\xfe 2.000%\n", -1, TES_IMPORT_ERROR_INVALID, ":2: invalid UTF-8 (byte 17)" },
    { "binary.txt", "\x7f" "ELF\x02\x01\x01\0\0\0\0", 12, TES_IMPORT_ERROR_INVALID, ":1:" },
  };

  tes_test_assert_bad_inputs (tes_importer_registry_lookup ("sigmastar-op-time"), cases, G_N_ELEMENTS (cases));
}

/* Windows line ends, trailing spaces and blank lines are what the vendor
 * tool's output looks like after a copy through other tools. */
static void
test_tolerated_layout (void)
{
  g_autofree char *path = tes_test_tmp_path ("crlf_op_time.txt");
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GPtrArray) rows = NULL;

  tes_test_write_file (path, "\r\nCONV_2D 60.000%  \r\n\r\nADD 40.000%\r\n", -1);
  report = tes_report_import (path, tes_importer_registry_lookup ("sigmastar-op-time"), 0, NULL, NULL, &error);
  g_assert_no_error (error);
  rows = tes_report_summarize (report, TES_SUMMARY_TOTAL, TES_GROUP_BY_CATEGORY, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, 2);
  g_assert_cmpstr (((TesSummaryRow *)g_ptr_array_index (rows, 1))->label, ==, "ADD");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tes_test_add (TES_TEST_OWN_DATA, "/tes/sigmastar-op-time/each", test_each_fixture);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/sigmastar-op-time/total", test_total_fixture);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/sigmastar-op-time/total-from-each", test_total_from_each);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/sigmastar-op-time/bad-input", test_bad_input);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/sigmastar-op-time/tolerated-layout", test_tolerated_layout);

  return g_test_run ();
}
