/* test-compare.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "tes-compare.h"
#include "tes-importer-registry.h"
#include "tes-test-util.h"

/* Two runs' operators side by side: the alignment (repeats, insertions,
 * deletions, renames) and the diff with its regression check. */

typedef struct
{
  gint a;
  gint b;
} Pair;

static void
assert_pairs (const char * const *a,
              const char * const *b,
              const Pair         *expected,
              guint               n_expected)
{
  g_autoptr(GArray) pairs = tes_compare_align (a, g_strv_length ((char **)a), b, g_strv_length ((char **)b));

  g_assert_cmpuint (pairs->len, ==, n_expected);
  for (guint i = 0; i < n_expected; i++)
    {
      g_assert_cmpint (g_array_index (pairs, Pair, i).a, ==, expected[i].a);
      g_assert_cmpint (g_array_index (pairs, Pair, i).b, ==, expected[i].b);
    }
}

static void
test_compare_align (void)
{
  /* an operator inserted: the ones after it still meet their twins */
  {
    const char *a[] = { "conv", "relu", "conv", "add", NULL };
    const char *b[] = { "conv", "relu", "pool", "conv", "add", NULL };
    const Pair expected[] = { { 0, 0 }, { 1, 1 }, { -1, 2 }, { 2, 3 }, { 3, 4 } };

    assert_pairs (a, b, expected, G_N_ELEMENTS (expected));
  }
  /* one removed */
  {
    const char *a[] = { "conv", "relu", "conv", "add", NULL };
    const char *b[] = { "conv", "conv", "add", NULL };
    const Pair expected[] = { { 0, 0 }, { 1, -1 }, { 2, 1 }, { 3, 2 } };

    assert_pairs (a, b, expected, G_N_ELEMENTS (expected));
  }
  /* repeats: the third conv has no twin */
  {
    const char *a[] = { "conv", "conv", "conv", "softmax", NULL };
    const char *b[] = { "conv", "conv", "softmax", NULL };
    const Pair expected[] = { { 0, 0 }, { 1, 1 }, { 2, -1 }, { 3, 2 } };

    assert_pairs (a, b, expected, G_N_ELEMENTS (expected));
  }
  /* renamed: one added, one removed, the rest in place */
  {
    const char *a[] = { "x", "y", "z", NULL };
    const char *b[] = { "x", "w", "z", NULL };
    const Pair expected[] = { { 0, 0 }, { -1, 1 }, { 1, -1 }, { 2, 2 } };

    assert_pairs (a, b, expected, G_N_ELEMENTS (expected));
  }
  /* moved, or totals listed by time: the same operators still meet */
  {
    const char *a[] = { "concat", "conv", "dma", "add", NULL };
    const char *b[] = { "conv", "add", "concat", "dma", "pool", NULL };
    const Pair expected[] = { { 0, 2 }, { 1, 0 }, { 2, 3 }, { -1, 4 }, { 3, 1 } };

    assert_pairs (a, b, expected, G_N_ELEMENTS (expected));
  }
  /* empty sides */
  {
    const char *none[] = { NULL };
    const char *b[] = { "x", NULL };
    const Pair expected[] = { { -1, 0 } };

    assert_pairs (none, b, expected, G_N_ELEMENTS (expected));
  }
}

/* Too long to align cell by cell: the k-th of each key meets the k-th,
 * and what one side lacks stands where it is. */
static void
test_compare_align_large (void)
{
  guint n = 6000;
  g_autoptr(GPtrArray) a = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) b = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) pairs = NULL;
  guint matched = 0;

  /* B is A rotated by one: nothing in common at either end */
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (a, g_strdup_printf ("op%u", i));
  g_ptr_array_add (b, g_strdup_printf ("op%u", n - 1));
  for (guint i = 0; i < n - 1; i++)
    g_ptr_array_add (b, g_strdup_printf ("op%u", i));

  pairs = tes_compare_align ((const char * const *)a->pdata, n, (const char * const *)b->pdata, n);
  for (guint i = 0; i < pairs->len; i++)
    {
      const Pair *pair = &g_array_index (pairs, Pair, i);

      if (pair->a >= 0 && pair->b >= 0)
        {
          g_assert_cmpstr (g_ptr_array_index (a, pair->a), ==, g_ptr_array_index (b, pair->b));
          matched++;
        }
    }
  g_assert_cmpuint (matched, ==, n);
  g_assert_cmpuint (pairs->len, ==, n);
}

static TesReport *
open_listing (const char *contents,
              const char *name)
{
  g_autofree char *path = tes_test_tmp_path (name);
  g_autoptr(GError) error = NULL;
  TesReport *report;

  tes_test_write_file (path, contents, -1);
  report = tes_report_import (path, tes_importer_registry_lookup ("sigmastar-op-time"), 0, NULL, NULL, &error);
  g_assert_no_error (error);

  return report;
}

/* A run compared with itself changes nothing; a copy with one operator
 * 50 % slower names it, and only it. */
static void
test_compare_rows (void)
{
  g_autofree char *src = tes_test_data_path ("yolov8s_op_time_each.txt");
  g_autofree char *text = NULL;
  g_autofree char *slower_text = NULL;
  g_autoptr(TesReport) a = NULL;
  g_autoptr(TesReport) b = NULL;
  g_autoptr(GPtrArray) a_rows = NULL;
  g_autoptr(GPtrArray) b_rows = NULL;
  g_autoptr(TesComparison) same = NULL;
  g_autoptr(TesComparison) diff = NULL;
  g_autoptr(GPtrArray) none = NULL;
  g_autoptr(GPtrArray) regressions = NULL;
  g_autoptr(GError) error = NULL;
  gboolean total_slower = TRUE;
  const TesCompareRow *top;

  g_assert_true (g_file_get_contents (src, &text, NULL, NULL));
  g_assert_true (g_str_has_prefix (text, "0 CONV_2D 7.880%\n"));
  slower_text = g_strconcat ("0 CONV_2D 11.820%\n", text + strlen ("0 CONV_2D 7.880%\n"), NULL);

  a = open_listing (text, "a_each.txt");
  b = open_listing (slower_text, "b_each.txt");
  a_rows = tes_report_summarize (a, TES_SUMMARY_EACH, TES_GROUP_BY_NAME, &error);
  g_assert_no_error (error);
  b_rows = tes_report_summarize (b, TES_SUMMARY_EACH, TES_GROUP_BY_NAME, &error);
  g_assert_no_error (error);

  same = tes_compare_rows (a, a_rows, a, a_rows, TES_COMPARE_BY_TYPE);
  g_assert_true (same->in_percent);
  g_assert_cmpuint (same->rows->len, ==, 96);
  for (guint i = 0; i < same->rows->len; i++)
    {
      const TesCompareRow *row = &g_array_index (same->rows, TesCompareRow, i);

      g_assert_nonnull (row->a);
      g_assert_true (row->a == row->b);
      g_assert_cmpfloat (row->delta, ==, 0);
    }
  none = tes_compare_regressions (same, 0, 1, &total_slower);
  g_assert_cmpuint (none->len, ==, 0);
  g_assert_false (total_slower);

  diff = tes_compare_rows (a, a_rows, b, b_rows, TES_COMPARE_BY_TYPE);
  tes_compare_sort_by_impact (diff);
  top = &g_array_index (diff->rows, TesCompareRow, 0);
  g_assert_cmpint (top->a->op_index, ==, 0);
  g_assert_cmpfloat_with_epsilon (top->delta, 3.94, 1e-9);
  g_assert_cmpfloat_with_epsilon (top->delta_pct, 50, 1e-9);
  g_assert_cmpfloat (g_array_index (diff->rows, TesCompareRow, 1).delta, ==, 0);

  regressions = tes_compare_regressions (diff, 10, 1, &total_slower);
  g_assert_cmpuint (regressions->len, ==, 1);
  g_assert_true (g_ptr_array_index (regressions, 0) == top);
  g_assert_false (total_slower);   /* 3.94 points of about 100 */
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tes_test_add (TES_TEST_OWN_DATA, "/tes/compare/align", test_compare_align);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/compare/align-large", test_compare_align_large);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/compare/rows", test_compare_rows);

  return g_test_run ();
}
