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
#include "test-poplar-util.h"

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

/* Each operator type's time in a Torq timeline (ID, start, end, location,
 * op type; cycles): its DMA rows (IDs D…) are category "dma", the rest
 * "slice"; the run spans from the first start to the last end. */
typedef struct
{
  gint64 dma;
  gint64 slice;
  gint64 start;
  gint64 end;
} TimelineTruth;

static void
read_timeline (const char    *text,
               TimelineTruth *truth)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  *truth = (TimelineTruth) { 0, 0, G_MAXINT64, G_MININT64 };
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) fields = g_strsplit (lines[i], ",", 4);
      gint64 start, end;

      if (g_strv_length (fields) < 4)
        continue;
      start = g_ascii_strtoll (fields[1], NULL, 10);
      end = g_ascii_strtoll (fields[2], NULL, 10);
      if (fields[0][0] == 'D')
        truth->dma += end - start;
      else
        truth->slice += end - start;
      truth->start = MIN (truth->start, start);
      truth->end = MAX (truth->end, end);
    }
}

static const TesCompareShare *
find_share (const TesCompareSummary *summary,
            const char              *type)
{
  for (guint i = 0; i < summary->shares->len; i++)
    if (g_str_equal (g_array_index (summary->shares, TesCompareShare, i).type, type))
      return &g_array_index (summary->shares, TesCompareShare, i);

  g_error ("No share for %s", type);
}

/* Two runs of one clock compare in cycles: a copy with one operator 50 %
 * slower adds its extra cycles to the total, the span and its type's
 * share; against itself nothing changes; against a trace in µs, both are
 * in ns. */
static void
test_compare_summary_cycles (void)
{
  g_autofree char *a_path = tes_test_copy_fixture (TES_TEST_OWN_DATA, "torq/timeline_v1.csv");
  g_autofree char *b_path = tes_test_tmp_path ("timeline_slower.csv");
  g_autofree char *trace_path = tes_test_write_trace ("summary-trace.json");
  g_autofree char *text = NULL;
  g_autofree char *slower_text = NULL;
  g_autofree char *mhz = NULL;
  g_autoptr(GString) slower = NULL;
  g_autoptr(TesReport) a = NULL;
  g_autoptr(TesReport) b = NULL;
  g_autoptr(TesReport) trace = NULL;
  g_autoptr(TesCompareSummary) same = NULL;
  g_autoptr(TesCompareSummary) diff = NULL;
  g_autoptr(TesCompareSummary) mixed = NULL;
  g_autoptr(GError) error = NULL;
  TimelineTruth ta, tb;
  const TesCompareShare *share;
  double a_total, b_total;

  g_assert_true (g_file_get_contents (a_path, &text, NULL, NULL));
  /* depthwise_conv2d, 1800 cycles, 50 % slower: nothing else on its lane after it */
  slower = g_string_new (text);
  g_assert_cmpuint (g_string_replace (slower, "S4,4200,6000,", "S4,4200,6900,", 1), ==, 1);
  slower_text = g_string_free (g_steal_pointer (&slower), FALSE);
  tes_test_write_file (b_path, slower_text, -1);
  read_timeline (text, &ta);
  read_timeline (slower_text, &tb);
  g_assert_cmpint (tb.slice - ta.slice, ==, 900);

  a = tes_test_import (a_path, tes_importer_registry_lookup ("torq-timeline"));
  b = tes_test_import (b_path, tes_importer_registry_lookup ("torq-timeline"));
  mhz = tes_report_lookup_info (a, "timeline.clock_mhz");
  g_assert_nonnull (mhz);

  same = tes_compare_summarize (a, a, &error);
  g_assert_no_error (error);
  g_assert_cmpint (same->unit, ==, TES_TIME_UNIT_CYCLES);
  g_assert_cmpint (same->cycles_rate, ==, g_ascii_strtoll (mhz, NULL, 10) * 1000000);
  g_assert_cmpfloat (same->a_total, ==, ta.dma + ta.slice);
  g_assert_cmpfloat (same->b_total, ==, same->a_total);
  g_assert_cmpfloat (tes_compare_percent (same->a_total, same->b_total), ==, 0);
  g_assert_cmpuint (same->shares->len, ==, 2);
  for (guint i = 0; i < same->shares->len; i++)
    {
      const TesCompareShare *s = &g_array_index (same->shares, TesCompareShare, i);

      g_assert_true (s->in_a && s->in_b);
      g_assert_cmpfloat (s->a_share, ==, s->b_share);
    }
  g_assert_false (same->has_memory);

  diff = tes_compare_summarize (a, b, &error);
  g_assert_no_error (error);
  g_assert_cmpint (diff->unit, ==, TES_TIME_UNIT_CYCLES);
  g_assert_cmpfloat (diff->a_total, ==, ta.dma + ta.slice);
  g_assert_cmpfloat (diff->b_total, ==, tb.dma + tb.slice);
  g_assert_cmpfloat (diff->a_span, ==, ta.end - ta.start);
  g_assert_cmpfloat (diff->b_span, ==, tb.end - tb.start);
  g_assert_cmpfloat_with_epsilon (tes_compare_percent (diff->a_total, diff->b_total),
                                  100.0 * 900 / (ta.dma + ta.slice), 1e-9);
  /* the larger share first; the slower type's grows, the other's shrinks */
  g_assert_cmpstr (g_array_index (diff->shares, TesCompareShare, 0).type, ==, "slice");
  share = find_share (diff, "slice");
  g_assert_cmpfloat_with_epsilon (share->a_share, 100.0 * ta.slice / (ta.dma + ta.slice), 1e-3);
  g_assert_cmpfloat_with_epsilon (share->b_share, 100.0 * tb.slice / (tb.dma + tb.slice), 1e-3);
  share = find_share (diff, "dma");
  g_assert_cmpfloat (share->b_share, <, share->a_share);
  {
    g_autofree char *text_a = tes_compare_summary_format (diff, diff->a_total, TES_TIME_UNIT_MS);

    tes_test_assert_contains (text_a, "cycles");
  }

  /* a trace in µs and one in cycles: the common base, ns */
  trace = tes_test_import (trace_path, tes_importer_registry_lookup ("chrome-json"));
  mixed = tes_compare_summarize (a, trace, &error);
  g_assert_no_error (error);
  g_assert_cmpint (mixed->unit, ==, TES_TIME_UNIT_NS);
  a_total = (ta.dma + ta.slice) * (1e9 / (g_ascii_strtod (mhz, NULL) * 1e6));
  g_assert_cmpfloat (mixed->a_total, ==, a_total);
  /* the trace: conv (less the dma inside it), dma, add, sync and 1000 tiny slices of 0.1 µs */
  b_total = (100 + 300 + 500) * 1000 + 1000 * 100;
  g_assert_cmpfloat (mixed->b_total, ==, b_total);
  g_assert_cmpfloat (mixed->b_span, ==, (2000 + 999 / 5 + 0.8 + 0.1 - 1000) * 1000);
  share = find_share (mixed, "op");
  g_assert_false (share->in_a);
  g_assert_true (share->in_b);
  g_assert_cmpfloat (share->a_share, ==, 0);
}

/* A run printed as shares only has no total; its types' shares still
 * compare. */
static void
test_compare_summary_shares (void)
{
  g_autofree char *src = tes_test_data_path ("yolov8s_op_time_each.txt");
  g_autofree char *text = NULL;
  g_autofree char *slower_text = NULL;
  g_autoptr(TesReport) a = NULL;
  g_autoptr(TesReport) b = NULL;
  g_autoptr(TesCompareSummary) diff = NULL;
  g_autoptr(GError) error = NULL;
  const TesCompareShare *conv;

  g_assert_true (g_file_get_contents (src, &text, NULL, NULL));
  slower_text = g_strconcat ("0 CONV_2D 11.820%\n", text + strlen ("0 CONV_2D 7.880%\n"), NULL);
  a = open_listing (text, "summary_a_each.txt");
  b = open_listing (slower_text, "summary_b_each.txt");

  diff = tes_compare_summarize (a, b, &error);
  g_assert_no_error (error);
  g_assert_true (isnan (diff->a_total) && isnan (diff->b_total));
  g_assert_true (isnan (diff->a_span));
  conv = find_share (diff, "CONV_2D");
  g_assert_cmpfloat_with_epsilon (conv->b_share - conv->a_share, 11.82 - 7.88, 1e-9);
  for (guint i = 0; i < diff->shares->len; i++)
    {
      const TesCompareShare *s = &g_array_index (diff->shares, TesCompareShare, i);

      if (s != conv)
        g_assert_cmpfloat_with_epsilon (s->a_share, s->b_share, 1e-9);
    }
}

static TesReport *
open_generated_run (Generated *g)
{
  g_autofree char *report = generated_path (g, "compile_report.txt");
  g_autofree char *listing = generated_path (g, "archive_size.txt");
  g_autofree char *trace = generated_path (g, "execution.json");
  const char *paths[] = { report, listing, trace };
  TesImporter *importers[] = { tes_importer_registry_lookup ("poplar-report"),
                               tes_importer_registry_lookup ("poplar-size-listing"),
                               tes_importer_registry_lookup ("chrome-json") };

  return tes_test_import_files (paths, importers, 3, TES_REPORT_OPEN_REIMPORT);
}

static JsonObject *
truth_tile (Generated *g,
            gint       ipu,
            gint       tile)
{
  JsonArray *tiles = truth_tiles (g);

  for (guint i = 0; i < json_array_get_length (tiles); i++)
    {
      JsonObject *t = json_array_get_object_element (tiles, i);

      if (json_object_get_int_member (t, "ipu") == ipu && json_object_get_int_member (t, "tile") == tile)
        return t;
    }

  return NULL;
}

/* A category's bytes in a generated run: an ELF section's over every
 * tile (the listing), a data type's over the tiles the report details. */
static gint64
truth_category (Generated  *g,
                const char *category)
{
  JsonArray *tiles = truth_tiles (g);
  JsonArray *top = json_object_get_array_member (g->truth, "top_tiles");
  gint64 bytes = 0;

  if (category[0] == '.')
    {
      for (guint i = 0; i < json_array_get_length (tiles); i++)
        {
          JsonObject *sections = json_object_get_object_member (json_array_get_object_element (tiles, i), "sections");

          if (json_object_has_member (sections, category))
            bytes += json_object_get_int_member (sections, category);
        }
      return bytes;
    }

  for (guint i = 0; i < json_array_get_length (top); i++)
    {
      JsonObject *t = json_array_get_object_element (tiles, json_array_get_int_element (top, i));
      JsonObject *types = json_object_get_object_member (t, "data_types");

      if (json_object_has_member (types, category))
        bytes += json_object_get_int_member (types, category);
    }

  return bytes;
}

static gboolean
truth_over (Generated  *g,
            JsonObject *t)
{
  return json_object_get_int_member (t, "total") > json_object_get_int_member (g->truth, "tile_memory_bytes");
}

/* Two generated Poplar runs (compile report, listing and trace) of
 * different seeds, so of different tiles out of memory and clocks: each
 * category's bytes, the tiles that went over their limit or came back
 * under it and the most grown are the truths'; the times compare in ns. */
static void
test_compare_summary_memory (void)
{
  g_auto(Generated) ga = { 0 };
  g_auto(Generated) gb = { 0 };
  g_autoptr(TesReport) a = NULL;
  g_autoptr(TesReport) b = NULL;
  g_autoptr(TesCompareSummary) summary = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) growths = g_array_new (FALSE, FALSE, sizeof (TesCompareTile));
  JsonArray *tiles;
  guint newly = 0, no_longer = 0;
  gint64 a_bytes = 0, b_bytes = 0;

  generate_seeded (&ga, TES_TEST_OWN_DATA, 7);
  generate_seeded (&gb, TES_TEST_OWN_DATA, 8);
  g_assert_cmpfloat (json_object_get_double_member (ga.truth, "clock_mhz"), !=,
                     json_object_get_double_member (gb.truth, "clock_mhz"));
  a = open_generated_run (&ga);
  b = open_generated_run (&gb);

  summary = tes_compare_summarize (a, b, &error);
  g_assert_no_error (error);
  g_assert_cmpint (summary->unit, ==, TES_TIME_UNIT_NS);
  g_assert_true (summary->has_memory);
  g_assert_cmpuint (summary->a_out_of_memory, ==, json_object_get_int_member (ga.truth, "out_of_memory"));
  g_assert_cmpuint (summary->b_out_of_memory, ==, json_object_get_int_member (gb.truth, "out_of_memory"));

  /* every section and data type, each with both truths' bytes */
  g_assert_cmpuint (summary->memory->len, >, 8);
  for (guint i = 0; i < summary->memory->len; i++)
    {
      const TesCompareMemory *m = &g_array_index (summary->memory, TesCompareMemory, i);

      g_assert_cmpint (m->a_bytes, ==, truth_category (&ga, m->category));
      g_assert_cmpint (m->b_bytes, ==, truth_category (&gb, m->category));
      g_assert_cmpint (m->a_bytes, >, 0);
      /* sections first */
      if (i > 0)
        g_assert_true (m->category[0] != '.' ||
                       g_array_index (summary->memory, TesCompareMemory, i - 1).category[0] == '.');
    }

  tiles = truth_tiles (&ga);
  for (guint i = 0; i < json_array_get_length (tiles); i++)
    {
      JsonObject *ta = json_array_get_object_element (tiles, i);
      gint ipu = json_object_get_int_member (ta, "ipu"), tile = json_object_get_int_member (ta, "tile");
      JsonObject *tb = truth_tile (&gb, ipu, tile);
      TesCompareTile grown = { ipu, tile, json_object_get_int_member (ta, "total"),
                               json_object_get_int_member (tb, "total"), 0, 0 };

      a_bytes += grown.a_bytes;
      b_bytes += grown.b_bytes;
      if (grown.b_bytes > grown.a_bytes)
        g_array_append_val (growths, grown);

      if (truth_over (&gb, tb) && !truth_over (&ga, ta))
        {
          const TesCompareTile *t = &g_array_index (summary->newly_out, TesCompareTile, newly++);

          g_assert_cmpint (t->ipu, ==, ipu);
          g_assert_cmpint (t->tile, ==, tile);
          g_assert_cmpint (t->b_bytes, ==, grown.b_bytes);
          g_assert_cmpint (t->b_limit, ==, json_object_get_int_member (gb.truth, "tile_memory_bytes"));
        }
      if (truth_over (&ga, ta) && !truth_over (&gb, tb))
        {
          const TesCompareTile *t = &g_array_index (summary->no_longer_out, TesCompareTile, no_longer++);

          g_assert_cmpint (t->ipu, ==, ipu);
          g_assert_cmpint (t->tile, ==, tile);
          g_assert_cmpint (t->a_bytes, ==, grown.a_bytes);
        }
    }
  /* seeds 7 and 8 overfill different tiles */
  g_assert_cmpuint (newly, >, 0);
  g_assert_cmpuint (no_longer, >, 0);
  g_assert_cmpuint (summary->newly_out->len, ==, newly);
  g_assert_cmpuint (summary->no_longer_out->len, ==, no_longer);
  g_assert_cmpint (summary->a_bytes, ==, a_bytes);
  g_assert_cmpint (summary->b_bytes, ==, b_bytes);

  /* the most grown first, as many as fit */
  g_assert_cmpuint (summary->growths->len, ==, MIN (growths->len, TES_COMPARE_MAX_GROWTHS));
  for (guint i = 0; i < summary->growths->len; i++)
    {
      const TesCompareTile *t = &g_array_index (summary->growths, TesCompareTile, i);
      guint larger = 0;

      for (guint j = 0; j < growths->len; j++)
        {
          const TesCompareTile *u = &g_array_index (growths, TesCompareTile, j);

          larger += u->b_bytes - u->a_bytes > t->b_bytes - t->a_bytes;
          if (u->ipu == t->ipu && u->tile == t->tile)
            g_assert_cmpint (u->b_bytes - u->a_bytes, ==, t->b_bytes - t->a_bytes);
        }
      g_assert_cmpuint (larger, <=, i);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tes_test_add (TES_TEST_OWN_DATA, "/tes/compare/align", test_compare_align);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/compare/align-large", test_compare_align_large);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/compare/rows", test_compare_rows);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/compare/summary/cycles", test_compare_summary_cycles);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/compare/summary/shares", test_compare_summary_shares);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/compare/summary/memory", test_compare_summary_memory);

  return g_test_run ();
}
