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

/* The cache's summaries take columns of 2^shift ticks with a shift for a
 * division: the same buckets as the general code, on random slices
 * (nested, instants, reaching past either end) and on a span of 2^63. */
static void
test_pow2_matches (void)
{
  static const struct { gint64 t0; guint shift; guint n; } cases[] = {
    { 0, 0, 16 },
    { -1000, 3, 64 },
    { 123456789, 10, 4096 },
    { -((gint64)1 << 62), 61, 4 },      /* the last edge is 2^63 ticks from t0 */
  };
  g_autoptr(GRand) rand = g_rand_new_with_seed (14);

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      gint64 t0 = cases[c].t0;
      guint n = cases[c].n;
      gint64 t1 = (gint64)((guint64)t0 + ((guint64)n << cases[c].shift));
      double span = (double)((guint64)n << cases[c].shift);
      g_autofree TesLaneBucket *a = g_new0 (TesLaneBucket, n);
      g_autofree TesLaneBucket *b = g_new0 (TesLaneBucket, n);

      for (guint i = 0; i < 20000; i++)
        {
          /* a double, then checked: t0 + 1.1 × 2^63 would not fit */
          double at = (double)t0 + g_rand_double_range (rand, -0.1, 1.1) * span;
          gint64 start = at > -9.2e18 && at < 9.2e18 ? (gint64)at : t0;
          gint64 dur = (gint64)(g_rand_double (rand) * g_rand_double (rand) * span * 0.05);
          guint depth = g_rand_int_range (rand, 0, 3);

          if (i % 7 == 0)
            dur = 0;
          if (i % 11 == 0)
            start = t0 + (gint64)((guint64)g_rand_int_range (rand, 0, n) << cases[c].shift);
          if (start > G_MAXINT64 - dur)
            continue;
          tes_lane_add_slice (a, n, t0, t1, start, dur, i + 1, depth);
          tes_lane_add_slice_pow2 (b, n, t0, cases[c].shift, start, dur, i + 1, depth);
        }

      for (guint i = 0; i < n; i++)
        {
          g_assert_cmpint (a[i].busy, ==, b[i].busy);
          g_assert_cmpint (a[i].dominant_time, ==, b[i].dominant_time);
          g_assert_cmpuint (a[i].count, ==, b[i].count);
          g_assert_cmpuint (a[i].dominant, ==, b[i].dominant);
          g_assert_cmpuint (a[i].max_depth, ==, b[i].max_depth);
        }
      /* the slices did land in these columns */
      g_assert_cmpuint (a[0].count + a[n - 1].count, >, 0);
    }
}

/* The definition of folding a summary bucket into columns, written out
 * plainly in 128 bits (edges listed, columns found by walking them): what
 * tes_lane_add_bucket() and tes_lane_add_level() must give. */
static void
ref_add_bucket (TesLaneBucket       *buckets,
                guint                n,
                gint64               t0,
                gint64               t1,
                gint64               lo,
                gint64               hi,
                const TesLaneBucket *src)
{
  g_autofree gint64 *edge = g_new (gint64, n + 1);
  gint64 vis_lo = MAX (lo, t0), vis_hi = MIN (hi, t1);
  __int128 visible_busy, given = 0;
  guint first = 0, last = 0;

  if (src->count == 0 || vis_hi <= vis_lo)
    return;
  for (guint b = 0; b <= n; b++)
    edge[b] = (gint64)((__int128)t0 + ((__int128)t1 - t0) * b / n);
  /* the last column starting at or before a time; t0's is the first,
   * however many empty columns share its edge */
  for (guint b = 0; b < n; b++)
    {
      if (edge[b] <= vis_lo && vis_lo > t0)
        first = b;
      if (edge[b] <= vis_hi - 1 && vis_hi - 1 > t0)
        last = b;
    }
  visible_busy = (__int128)src->busy * ((__int128)vis_hi - vis_lo) / ((__int128)hi - lo);
  for (guint b = first; b <= last; b++)
    {
      __int128 width = MAX (0, MIN (vis_hi, edge[b + 1]) - MAX (vis_lo, edge[b]));
      __int128 share = b == last ? visible_busy - given : visible_busy * width / ((__int128)vis_hi - vis_lo);
      gint64 dom = (gint64)((__int128)src->dominant_time * width / ((__int128)hi - lo));

      given += share;
      buckets[b].busy += (gint64)share;
      buckets[b].count += src->count;
      buckets[b].max_depth = MAX (buckets[b].max_depth, src->max_depth);
      if (src->dominant != 0 && (buckets[b].dominant == 0 || dom > buckets[b].dominant_time))
        {
          buckets[b].dominant = src->dominant;
          buckets[b].dominant_time = dom;
        }
    }
}

/* A summary level folded into columns by tes_lane_add_level() and bucket
 * by bucket by tes_lane_add_bucket() gives what the definition gives:
 * columns wider and narrower than the level's buckets, fewer ticks than
 * columns (empty columns), windows cutting buckets, spans near 2^63. */
static void
test_add_level_matches (void)
{
  static const struct { gint64 base; guint shift; guint n_level; guint n; double zoom; } cases[] = {
    { 0, 10, 3000, 1680, 1.0 },          /* columns a little wider than buckets */
    { -5000, 4, 5000, 700, 0.01 },       /* columns narrower than buckets */
    { 17, 0, 900, 1200, 1.0 },           /* fewer ticks than columns */
    { 1000, 12, 64, 333, 3.0 },          /* a window wider than the level */
    { -((gint64)1 << 62), 56, 120, 1000, 1.0 },  /* 2^62.9 ticks: the 128-bit edges */
  };
  g_autoptr(GRand) rand = g_rand_new_with_seed (27);

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    for (guint w = 0; w < 20; w++)
      {
        guint n = cases[c].n, n_level = cases[c].n_level, shift = cases[c].shift;
        gint64 base = cases[c].base;
        double level_span = (double)n_level * (double)((guint64)1 << shift);
        g_autofree TesLaneBucket *level = g_new0 (TesLaneBucket, n_level);
        g_autofree TesLaneBucket *ref = g_new0 (TesLaneBucket, n);
        g_autofree TesLaneBucket *one = g_new0 (TesLaneBucket, n);
        g_autofree TesLaneBucket *all = g_new0 (TesLaneBucket, n);
        double from = g_rand_double_range (rand, -0.1, 0.9);
        gint64 t0 = base + (gint64)(from * level_span);
        /* within int64 near 2^63 */
        gint64 t1 = (gint64)MIN ((__int128)t0 + MAX ((gint64)(cases[c].zoom * level_span *
                                                               g_rand_double_range (rand, 0.05, 1)), 1),
                                 (__int128)G_MAXINT64);
        gint64 first, last;

        for (guint i = 0; i < n_level; i++)
          {
            gint64 width = (gint64)1 << shift;

            /* some buckets empty, as between a lane's slices */
            if (g_rand_int_range (rand, 0, 5) == 0)
              continue;
            level[i].busy = (gint64)(g_rand_double (rand) * (double)width);
            level[i].dominant_time = (gint64)(g_rand_double (rand) * (double)level[i].busy);
            level[i].count = g_rand_int_range (rand, 1, 50);
            level[i].dominant = g_rand_int_range (rand, 0, 9);
            level[i].max_depth = g_rand_int_range (rand, 0, 4);
          }

        first = t0 <= base ? 0 : (gint64)(((__int128)t0 - base) >> shift);
        last = t1 <= base ? -1 : (gint64)MIN ((gint64)n_level - 1, ((__int128)t1 - 1 - base) >> shift);
        for (gint64 i = first; i <= last; i++)
          {
            gint64 lo = base + (i << shift);

            ref_add_bucket (ref, n, t0, t1, lo, lo + ((gint64)1 << shift), &level[i]);
            tes_lane_add_bucket (one, n, t0, t1, lo, lo + ((gint64)1 << shift), &level[i]);
          }
        if (first <= last)
          tes_lane_add_level (all, n, t0, t1, level, base, shift, first, last);

        for (guint i = 0; i < n; i++)
          {
            g_assert_cmpint (one[i].busy, ==, ref[i].busy);
            g_assert_cmpint (one[i].dominant_time, ==, ref[i].dominant_time);
            g_assert_cmpuint (one[i].count, ==, ref[i].count);
            g_assert_cmpuint (one[i].dominant, ==, ref[i].dominant);
            g_assert_cmpuint (one[i].max_depth, ==, ref[i].max_depth);
          }
        g_assert_cmpmem (all, n * sizeof (TesLaneBucket), ref, n * sizeof (TesLaneBucket));
      }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/tes/lane/bounds-partition", test_bounds_partition);
  g_test_add_func ("/tes/lane/merge-into-columns", test_merge_into_columns);
  g_test_add_func ("/tes/lane/long-slice", test_long_slice);
  g_test_add_func ("/tes/lane/pow2-matches", test_pow2_matches);
  g_test_add_func ("/tes/lane/add-level-matches", test_add_level_matches);

  return g_test_run ();
}
