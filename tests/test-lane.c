/* test-lane.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tes-lane.h"

static void
test_bounds_partition (void)
{
  const gint64 t0 = -7, t1 = 1000003;
  const guint n = 1200;
  gint64 prev_hi = t0;

  for (guint b = 0; b < n; b++)
    {
      gint64 lo, hi;

      tes_lane_bucket_bounds (t0, t1, n, b, &lo, &hi);
      g_assert_cmpint (lo, ==, prev_hi);
      g_assert_cmpint (hi, >=, lo);
      prev_hi = hi;
    }
  g_assert_cmpint (prev_hi, ==, t1);
}

static void
test_merge_into_columns (void)
{
  TesLaneBucket b[10] = { 0 };

  /* 10 columns of 10 ticks over [0, 100) */
  tes_lane_add_slice (b, 10, 0, 100, 0, 25, 1, 0);     /* columns 0,1,2 */
  tes_lane_add_slice (b, 10, 0, 100, 25, 3, 2, 0);     /* column 2 */
  tes_lane_add_slice (b, 10, 0, 100, 26, 1, 3, 1);     /* nested, column 2 */
  tes_lane_add_slice (b, 10, 0, 100, 55, 0, 4, 0);     /* instant-like, column 5 */
  tes_lane_add_slice (b, 10, 0, 100, 200, 5, 5, 0);    /* outside */
  tes_lane_add_slice (b, 10, 0, 100, -50, 50, 6, 0);   /* ends exactly at t0 */

  g_assert_cmpint (b[0].busy, ==, 10);
  g_assert_cmpint (b[1].busy, ==, 10);
  g_assert_cmpint (b[2].busy, ==, 5 + 3);
  g_assert_cmpuint (b[2].count, ==, 3);
  g_assert_cmpuint (b[2].max_depth, ==, 1);
  g_assert_cmpuint (b[2].dominant, ==, 1);   /* 5 ticks of name 1 beat 3 of name 2 */
  g_assert_cmpuint (b[0].count, ==, 1);
  g_assert_cmpuint (b[3].count, ==, 0);
  g_assert_cmpuint (b[5].count, ==, 1);
  g_assert_cmpint (b[5].busy, ==, 0);
  g_assert_cmpuint (b[5].dominant, ==, 4);
  g_assert_cmpuint (b[9].count, ==, 0);
}

/* Ten million ticks of one slice into 1200 columns: every column full. */
static void
test_long_slice (void)
{
  TesLaneBucket b[1200] = { 0 };
  gint64 total = 0;

  tes_lane_add_slice (b, 1200, 0, 10000000, -5, 20000000, 9, 0);
  for (guint i = 0; i < 1200; i++)
    {
      gint64 lo, hi;

      tes_lane_bucket_bounds (0, 10000000, 1200, i, &lo, &hi);
      g_assert_cmpint (b[i].busy, ==, hi - lo);
      total += b[i].busy;
    }
  g_assert_cmpint (total, ==, 10000000);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/tes/lane/bounds-partition", test_bounds_partition);
  g_test_add_func ("/tes/lane/merge-into-columns", test_merge_into_columns);
  g_test_add_func ("/tes/lane/long-slice", test_long_slice);

  return g_test_run ();
}
