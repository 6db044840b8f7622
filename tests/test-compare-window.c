/* test-compare-window.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "tes-compare-overview.h"
#include "tes-compare-section.h"
#include "tes-compare-window.h"
#include "tes-importer-registry.h"
#include "tes-row-item.h"
#include "tes-sections.h"
#include "tes-test-util.h"
#include "tes-ui-test-util.h"
#include "test-poplar-util.h"

/* Two runs side by side: the trace tes_test_write_trace() writes, and the
 * same run later on its clock with "add" 50 % slower and "dma" gone. */

#define B_SHIFT_US 5000

typedef struct
{
  GtkWindow      *window;
  TesCompareSection *view;
  TesWorkspace   *a;
  TesWorkspace   *b;
} Fixture;

static char *
write_slower_run (void)
{
  g_autofree char *a_path = tes_test_write_trace ("compare-a.json");
  char *b_path = tes_test_tmp_path ("compare-b.json");
  g_autofree char *json = NULL;
  g_autoptr(GString) b = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GRegex) ts = g_regex_new ("\"ts\":([0-9]+)", 0, 0, NULL);
  g_autoptr(GString) shifted = g_string_new (NULL);
  const char *p;
  g_autoptr(GMatchInfo) match = NULL;

  g_assert_true (g_file_get_contents (a_path, &json, NULL, &error));
  g_assert_no_error (error);
  b = g_string_new (json);
  g_assert_cmpuint (g_string_replace (b, "\"name\":\"add\",\"cat\":\"op\",\"ph\":\"X\",\"ts\":1200,\"dur\":300",
                                      "\"name\":\"add\",\"cat\":\"op\",\"ph\":\"X\",\"ts\":1200,\"dur\":450", 0), ==, 1);
  g_assert_cmpuint (g_string_replace (b, "{\"name\":\"dma\",\"cat\":\"dma\",\"ph\":\"X\",\"ts\":1010,\"dur\":50,\"pid\":1,\"tid\":1},",
                                      "", 0), ==, 1);

  /* the same stretch of work B_SHIFT_US later on B's clock */
  p = b->str;
  g_regex_match (ts, b->str, 0, &match);
  while (g_match_info_matches (match))
    {
      int start, end;
      g_autofree char *digits = g_match_info_fetch (match, 1);

      g_match_info_fetch_pos (match, 1, &start, &end);
      g_string_append_len (shifted, p, b->str + start - p);
      g_string_append_printf (shifted, "%" G_GINT64_FORMAT, g_ascii_strtoll (digits, NULL, 10) + B_SHIFT_US);
      p = b->str + end;
      g_match_info_next (match, NULL);
    }
  g_string_append (shifted, p);
  tes_test_write_file (b_path, shifted->str, shifted->len);

  return b_path;
}

/* Both runs read by the section's thread (or its error shown). */
static const TesCompareModel *
wait_for_model (TesCompareSection *section)
{
  gint64 deadline = g_get_monotonic_time () + TES_UI_TEST_WAIT_SECONDS * G_USEC_PER_SEC;

  while (tes_compare_section_get_model (section) == NULL && tes_compare_section_get_error (section) == NULL)
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("Timed out waiting for the runs to be read");
      g_main_context_iteration (NULL, FALSE);
    }
  g_assert_null (tes_compare_section_get_error (section));

  return tes_compare_section_get_model (section);
}

/* Run A against @b_path, or against write_slower_run()'s B. */
static void
fixture_open_with (Fixture    *f,
                   const char *b_run)
{
  g_autofree char *a_path = tes_test_write_trace ("compare-a.json");
  g_autofree char *b_path = b_run ? g_strdup (b_run) : write_slower_run ();
  g_autoptr(TesReport) a = tes_test_import (a_path, tes_importer_registry_lookup ("chrome-json"));
  g_autoptr(TesReport) b = tes_test_import (b_path, tes_importer_registry_lookup ("chrome-json"));

  f->a = tes_workspace_new (a);
  f->b = tes_workspace_new (b);
  f->view = TES_COMPARE_SECTION (tes_compare_section_new (f->a, f->b));
  f->window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (f->window, 1200, 800);
  gtk_window_set_child (f->window, GTK_WIDGET (f->view));
  gtk_window_present (f->window);
  for (guint side = 0; side < 2; side++)
    {
      gtk_test_widget_wait_for_draw (GTK_WIDGET (tes_compare_section_get_trace (f->view, side)));
      g_assert_nonnull (tes_ui_test_trace_frame (tes_compare_section_get_trace (f->view, side)));
    }
  wait_for_model (f->view);
}

static void
fixture_open (Fixture *f)
{
  fixture_open_with (f, NULL);
}

static void
fixture_close (Fixture *f)
{
  gtk_window_destroy (f->window);
  g_clear_object (&f->a);
  g_clear_object (&f->b);
}

/* Zooming and panning one run moves the other over the same stretch of
 * its own run, and both draw what they show. */
static void
test_compare_window_linked (void)
{
  Fixture f = { 0 };
  gint64 a_start, a_end, b_start, b_end, a_span, b_span;

  fixture_open (&f);

  tes_workspace_get_span (f.a, &a_span, NULL);
  tes_workspace_get_span (f.b, &b_span, NULL);
  g_assert_cmpint (b_span - a_span, ==, B_SHIFT_US * 1000);

  tes_trace_view_zoom (tes_compare_section_get_trace (f.view, 0), 4.0);
  tes_trace_view_pan (tes_compare_section_get_trace (f.view, 0), 0.25);
  tes_workspace_get_visible (f.a, &a_start, &a_end);
  tes_workspace_get_visible (f.b, &b_start, &b_end);
  g_assert_cmpint (a_end - a_start, <, (gint64)(1500 * 1000));
  g_assert_cmpint (b_start - a_start, ==, B_SHIFT_US * 1000);
  g_assert_cmpint (b_end - a_end, ==, B_SHIFT_US * 1000);

  /* and back: B's keys move A */
  tes_trace_view_zoom (tes_compare_section_get_trace (f.view, 1), 0.5);
  tes_workspace_get_visible (f.a, &a_start, &a_end);
  tes_workspace_get_visible (f.b, &b_start, &b_end);
  g_assert_cmpint (b_start - a_start, ==, B_SHIFT_US * 1000);
  g_assert_cmpint (b_end - b_start, ==, a_end - a_start);

  for (guint side = 0; side < 2; side++)
    {
      TesTraceView *trace = tes_compare_section_get_trace (f.view, side);
      const TesTraceFrame *frame;

      gtk_test_widget_wait_for_draw (GTK_WIDGET (trace));
      frame = tes_ui_test_trace_frame (trace);
      g_assert_cmpint (frame->scale.t0, ==, side == 0 ? a_start : b_start);
      g_assert_cmpint (frame->scale.t1, ==, side == 0 ? a_end : b_end);
    }

  /* side by side instead of one above the other */
  tes_compare_section_set_vertical (f.view, FALSE);
  gtk_test_widget_wait_for_draw (GTK_WIDGET (f.view));
  {
    graphene_rect_t ra, rb;

    g_assert_true (gtk_widget_compute_bounds (GTK_WIDGET (tes_compare_section_get_trace (f.view, 0)),
                                              GTK_WIDGET (f.view), &ra));
    g_assert_true (gtk_widget_compute_bounds (GTK_WIDGET (tes_compare_section_get_trace (f.view, 1)),
                                              GTK_WIDGET (f.view), &rb));
    g_assert_cmpfloat (rb.origin.x, >=, ra.origin.x + ra.size.width);
    g_assert_cmpfloat (fabsf (rb.origin.y - ra.origin.y), <, 1);
  }

  fixture_close (&f);
}

static void
wait_for_searches (Fixture *f)
{
  gint64 deadline = g_get_monotonic_time () + TES_UI_TEST_WAIT_SECONDS * G_USEC_PER_SEC;

  for (guint side = 0; side < 2; side++)
    {
      gboolean searching = TRUE;

      while (searching)
        {
          g_object_get (tes_compare_section_get_trace (f->view, side), "searching", &searching, NULL);
          if (g_get_monotonic_time () > deadline)
            g_error ("Timed out waiting for the search");
          g_main_context_iteration (NULL, FALSE);
        }
    }
}

/* Chooses the diff's row of @name and waits for both traces to find it. */
static void
select_row_named (Fixture    *f,
                  const char *name)
{
  GListModel *rows = tes_compare_section_get_rows (f->view);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(TesRowItem) item = g_list_model_get_item (rows, i);
      const TesCompareRow *r = tes_row_item_get (item);

      if (g_strcmp0 ((r->a ? r->a : r->b)->name, name) == 0)
        {
          tes_compare_section_select_row (f->view, i);
          wait_for_searches (f);
          return;
        }
    }
  g_error ("No row for %s in the diff", name);
}

/* The diff lists the slower operator first, the removed one, and a row
 * chosen finds that operator, whole, in both traces. */
static void
test_compare_window_diff (void)
{
  Fixture f = { 0 };
  GListModel *rows;
  g_autoptr(TesRowItem) first = NULL;
  const TesCompareRow *row;
  gboolean removed_dma = FALSE;

  fixture_open (&f);

  rows = tes_compare_section_get_rows (f.view);
  g_assert_cmpuint (g_list_model_get_n_items (rows), >=, 4);
  first = g_list_model_get_item (rows, 0);
  row = tes_row_item_get (first);
  g_assert_cmpstr (row->a->name, ==, "add");
  g_assert_cmpfloat (row->a_value, ==, 300000);
  g_assert_cmpfloat (row->b_value, ==, 450000);
  g_assert_cmpfloat (row->delta_pct, ==, 50);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(TesRowItem) item = g_list_model_get_item (rows, i);
      const TesCompareRow *r = tes_row_item_get (item);

      if (r->a != NULL && r->b == NULL && g_strcmp0 (r->a->name, "dma") == 0)
        removed_dma = TRUE;
      /* conv's own time grows by the dma it no longer waits on */
      else if (r->a != NULL && r->b != NULL && g_strcmp0 (r->a->name, "conv") == 0)
        g_assert_cmpfloat (r->delta, ==, 50000);
      else if (r->a != NULL && r->b != NULL && g_strcmp0 (r->a->name, "add") != 0)
        g_assert_cmpfloat (r->delta, ==, 0);
      else
        g_assert_true (r->a != NULL && r->b != NULL);
    }
  g_assert_true (removed_dma);

  tes_compare_section_select_row (f.view, 0);
  wait_for_searches (&f);
  for (guint side = 0; side < 2; side++)
    g_assert_cmpuint (tes_trace_view_get_n_matches (tes_compare_section_get_trace (f.view, side)), ==, 1);

  /* "tiny" is 1000 slices in each, not "tiny" within other names */
  select_row_named (&f, "tiny");
  for (guint side = 0; side < 2; side++)
    g_assert_cmpuint (tes_trace_view_get_n_matches (tes_compare_section_get_trace (f.view, side)), ==, 1000);

  /* the removed operator is found in A only */
  select_row_named (&f, "dma");
  g_assert_cmpuint (tes_trace_view_get_n_matches (tes_compare_section_get_trace (f.view, 0)), ==, 1);
  g_assert_cmpuint (tes_trace_view_get_n_matches (tes_compare_section_get_trace (f.view, 1)), ==, 0);

  fixture_close (&f);
}

/* The summary tab: loaded off the main loop, B's total is A's plus what
 * "add" lost (the dma B dropped is conv's own time there), on the common
 * time base, and the tab shows it. */
static void
test_compare_window_summary (void)
{
  Fixture f = { 0 };
  gint64 deadline = g_get_monotonic_time () + TES_UI_TEST_WAIT_SECONDS * G_USEC_PER_SEC;
  const TesCompareSummary *summary;
  const TesComparison *comparison;
  const TesCompareRow *add = NULL;
  g_autoptr(GPtrArray) labels = NULL;
  g_autofree char *delta = NULL;
  g_autofree char *a_title = NULL;
  gboolean shown = FALSE, titled = FALSE;
  const TesCompareModel *model;

  fixture_open (&f);
  g_assert_cmpstr (tes_section_get_view (TES_SECTION (f.view)), ==, "compare");
  /* chosen while it loads (or once loaded), the tab shows the summary,
   * which Export View draws */
  tes_compare_section_set_page (f.view, "summary");
  g_assert_cmpstr (tes_section_get_view (TES_SECTION (f.view)), ==, "compare-summary");
  while ((summary = tes_compare_section_get_summary (f.view)) == NULL)
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("Timed out waiting for the summary");
      g_main_context_iteration (NULL, FALSE);
    }

  comparison = tes_compare_section_get_comparison (f.view);
  for (guint i = 0; i < comparison->rows->len; i++)
    {
      const TesCompareRow *row = &g_array_index (comparison->rows, TesCompareRow, i);

      if (row->a && g_strcmp0 (row->a->name, "add") == 0)
        add = row;
    }
  g_assert_nonnull (add);
  g_assert_cmpint (summary->unit, ==, TES_TIME_UNIT_NS);
  g_assert_cmpfloat (summary->b_total - summary->a_total, ==, add->delta);
  g_assert_cmpfloat (summary->a_total, ==, comparison->a_total);
  g_assert_false (summary->has_memory);

  gtk_test_widget_wait_for_draw (GTK_WIDGET (f.view));
  /* 1.5 ms of operators: µs, named in the header, the figures without it */
  model = tes_compare_section_get_model (f.view);
  g_assert_cmpstr (model->summary_scale.unit, ==, "µs");
  delta = tes_compare_scale_format (&model->summary_scale, summary->b_total - summary->a_total, TRUE);
  g_assert_cmpstr (delta, ==, "+150.000");
  a_title = g_strdup_printf ("A (%s)", model->summary_scale.unit);
  labels = tes_ui_test_find_widgets ((TesWindow *)f.window, GTK_TYPE_LABEL);
  for (guint i = 0; i < labels->len; i++)
    {
      GtkWidget *label = g_ptr_array_index (labels, i);

      /* the Δ of the total, signed and red: B is slower */
      if (gtk_widget_get_ancestor (label, TES_TYPE_COMPARE_OVERVIEW) != NULL &&
          g_str_equal (gtk_label_get_label (GTK_LABEL (label)), a_title))
        titled = TRUE;
      if (gtk_widget_get_ancestor (label, TES_TYPE_COMPARE_OVERVIEW) != NULL &&
          g_str_equal (gtk_label_get_label (GTK_LABEL (label)), delta))
        {
          g_assert_true (gtk_widget_has_css_class (label, "error"));
          g_assert_true (gtk_widget_is_drawable (label));
          shown = TRUE;
        }
    }
  g_assert_true (shown);
  g_assert_true (titled);

  fixture_close (&f);
}

#define ADD_MOVED_US 100

/* The view's button of that label, mnemonic and all. */
static GtkWidget *
find_button (Fixture    *f,
             const char *label)
{
  g_autoptr(GPtrArray) buttons = tes_ui_test_find_widgets ((TesWindow *)f->window, GTK_TYPE_BUTTON);

  for (guint i = 0; i < buttons->len; i++)
    if (g_strcmp0 (gtk_button_get_label (g_ptr_array_index (buttons, i)), label) == 0)
      return g_ptr_array_index (buttons, i);

  g_error ("No button %s", label);
}

static void
wait_for_alignment (Fixture *f)
{
  gint64 deadline = g_get_monotonic_time () + TES_UI_TEST_WAIT_SECONDS * G_USEC_PER_SEC;

  while (tes_compare_section_get_aligning (f->view))
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("Timed out aligning");
      g_main_context_iteration (NULL, FALSE);
    }
}

/* x of @t (ns) in the trace of @side as last drawn. */
static double
trace_x (Fixture *f,
         guint    side,
         gint64   t)
{
  TesTraceView *trace = tes_compare_section_get_trace (f->view, side);

  gtk_test_widget_wait_for_draw (GTK_WIDGET (trace));
  return tes_trace_scale_x (&tes_ui_test_trace_frame (trace)->scale, t);
}

/* Aligned on "add", which B runs ADD_MOVED_US later into its run, the
 * operator's start is at one x in both traces (and in view); aligned on
 * the runs' starts again, those are. */
static void
test_compare_window_align (void)
{
  g_autofree char *b_path = write_slower_run ();
  g_autofree char *json = NULL;
  g_autofree char *moved_from = g_strdup_printf ("\"name\":\"add\",\"cat\":\"op\",\"ph\":\"X\",\"ts\":%d,", 1200 + B_SHIFT_US);
  g_autofree char *moved_to = g_strdup_printf ("\"name\":\"add\",\"cat\":\"op\",\"ph\":\"X\",\"ts\":%d,",
                                               1200 + B_SHIFT_US + ADD_MOVED_US);
  g_autoptr(GString) moved = NULL;
  gint64 a_add = 1200 * 1000, b_add = (1200 + B_SHIFT_US + ADD_MOVED_US) * 1000;
  gint64 a_start, b_start;
  Fixture f = { 0 };
  GtkWidget *align_operator, *align_start;
  double width;

  g_assert_true (g_file_get_contents (b_path, &json, NULL, NULL));
  moved = g_string_new (json);
  g_assert_cmpuint (g_string_replace (moved, moved_from, moved_to, 0), ==, 1);
  tes_test_write_file (b_path, moved->str, moved->len);
  fixture_open_with (&f, b_path);
  tes_workspace_get_span (f.a, &a_start, NULL);
  tes_workspace_get_span (f.b, &b_start, NULL);
  width = tes_ui_test_trace_frame (tes_compare_section_get_trace (f.view, 0))->scale.width;

  /* zoomed in, so that 100 µs are many pixels */
  tes_trace_view_zoom (tes_compare_section_get_trace (f.view, 0), 8.0);
  g_assert_cmpfloat (fabs (trace_x (&f, 0, a_add) - trace_x (&f, 1, b_add)), >, 20);

  /* nothing chosen, nothing to align on; aligned on the starts already */
  align_operator = find_button (&f, "Align on _Operator");
  align_start = find_button (&f, "Align on _Start");
  g_assert_false (gtk_widget_get_sensitive (align_operator));
  g_assert_false (gtk_widget_get_sensitive (align_start));
  select_row_named (&f, "add");
  g_assert_true (gtk_widget_get_sensitive (align_operator));
  g_signal_emit_by_name (align_operator, "clicked");
  wait_for_alignment (&f);
  g_assert_cmpfloat (fabs (trace_x (&f, 0, a_add) - trace_x (&f, 1, b_add)), <, 1);
  g_assert_cmpfloat (trace_x (&f, 0, a_add), >, 0);
  g_assert_cmpfloat (trace_x (&f, 0, a_add), <, width);

  /* and the runs' starts meet again */
  g_assert_true (gtk_widget_get_sensitive (align_start));
  g_signal_emit_by_name (align_start, "clicked");
  g_assert_false (gtk_widget_get_sensitive (align_start));
  g_assert_cmpfloat (fabs (trace_x (&f, 0, a_start) - trace_x (&f, 1, b_start)), <, 1);
  g_assert_cmpfloat (fabs (trace_x (&f, 0, a_add) - trace_x (&f, 1, b_add)), >, 20);

  /* a row double-clicked aligns on its operator too */
  {
    g_autoptr(GPtrArray) tables = tes_ui_test_find_widgets ((TesWindow *)f.window, GTK_TYPE_COLUMN_VIEW);
    GListModel *rows = tes_compare_section_get_rows (f.view);
    guint add = GTK_INVALID_LIST_POSITION;

    for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
      {
        g_autoptr(TesRowItem) item = g_list_model_get_item (rows, i);

        if (g_strcmp0 (((const TesCompareRow *)tes_row_item_get (item))->a->name, "add") == 0)
          add = i;
      }
    g_assert_cmpuint (tables->len, ==, 1);
    g_signal_emit_by_name (g_ptr_array_index (tables, 0), "activate", add);
    wait_for_alignment (&f);
    g_assert_true (gtk_widget_get_sensitive (align_start));
    g_assert_cmpfloat (fabs (trace_x (&f, 0, a_add) - trace_x (&f, 1, b_add)), <, 1);
  }

  fixture_close (&f);
}

static void
wait_for_compare_page (TesCompareWindow *window,
                       const char       *page)
{
  gint64 deadline = g_get_monotonic_time () + TES_UI_TEST_WAIT_SECONDS * G_USEC_PER_SEC;

  while (g_str_equal (tes_compare_window_get_page (window), "loading"))
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("Timed out opening the comparison");
      g_main_context_iteration (NULL, FALSE);
    }
  g_assert_cmpstr (tes_compare_window_get_page (window), ==, page);
}

/* From the report window: its report against another run, in a window of
 * their own; a run that cannot be read says which file and why. */
static void
test_compare_window_from_report (void)
{
  g_autofree char *a_path = tes_test_write_trace ("compare-a.json");
  g_autofree char *b_path = write_slower_run ();
  g_autofree char *bad_path = tes_test_tmp_path ("compare-bad.json");
  g_autoptr(GPtrArray) b_files = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) bad_files = g_ptr_array_new_with_free_func (g_object_unref);
  TesWindow *window = tes_ui_test_open_window (a_path, NULL);
  TesCompareWindow *compare;
  const TesComparison *comparison;
  g_autoptr(GPtrArray) labels = NULL;
  gboolean named = FALSE;

  tes_ui_test_wait_for_page (window, "report");
  g_ptr_array_add (b_files, g_file_new_for_path (b_path));
  compare = tes_window_compare (window, b_files);
  wait_for_compare_page (compare, "compare");
  wait_for_model (tes_compare_window_get_section (compare));
  comparison = tes_compare_section_get_comparison (tes_compare_window_get_section (compare));
  g_assert_nonnull (comparison);
  g_assert_nonnull (strstr (gtk_window_get_title (GTK_WINDOW (compare)), "compare-b.json"));
  /* A is the report window's own, not a second import */
  g_assert_true (tes_workspace_get_report (tes_trace_view_get_workspace (
                   tes_compare_section_get_trace (tes_compare_window_get_section (compare), 0))) ==
                 tes_window_get_report (window));
  gtk_window_destroy (GTK_WINDOW (compare));

  tes_test_write_file (bad_path, "[{\"name\":\"x\",\"ph\":\"X\",\"ts\":1,", -1);
  g_ptr_array_add (bad_files, g_file_new_for_path (bad_path));
  compare = tes_window_compare (window, bad_files);
  wait_for_compare_page (compare, "error");
  labels = tes_ui_test_find_widgets ((TesWindow *)compare, GTK_TYPE_LABEL);
  for (guint i = 0; i < labels->len; i++)
    if (strstr (gtk_label_get_label (g_ptr_array_index (labels, i)), "compare-bad.json"))
      named = TRUE;
  g_assert_true (named);
  gtk_window_destroy (GTK_WINDOW (compare));

  tes_ui_test_close_window (window);
}

static const TesCompareSummary *
wait_for_summary (TesCompareWindow *window)
{
  gint64 deadline = g_get_monotonic_time () + TES_UI_TEST_WAIT_SECONDS * G_USEC_PER_SEC;
  const TesCompareSummary *summary;

  while ((summary = tes_compare_section_get_summary (tes_compare_window_get_section (window))) == NULL)
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("Timed out waiting for the summary");
      g_main_context_iteration (NULL, FALSE);
    }

  return summary;
}

/* Compare With… picks several files of the other run (report and
 * listing): they open as one run beside the report window's own. */
static void
test_compare_window_chosen_set (void)
{
  g_auto(Generated) ga = { 0 };
  g_auto(Generated) gb = { 0 };
  g_autoptr(GPtrArray) a_files = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) b_files = g_ptr_array_new_with_free_func (g_object_unref);
  TesWindow *window = g_object_ref (tes_window_new (NULL));
  TesCompareWindow *compare;
  const TesCompareSummary *summary;
  const char * const *b_paths;
  gboolean section = FALSE;

  generate_seeded (&ga, TES_TEST_OWN_DATA, 7);
  generate_seeded (&gb, TES_TEST_OWN_DATA, 8);
  g_ptr_array_add (a_files, g_file_new_build_filename (ga.dir, "compile_report.txt", NULL));
  g_ptr_array_add (a_files, g_file_new_build_filename (ga.dir, "archive_size.txt", NULL));
  g_ptr_array_add (b_files, g_file_new_build_filename (gb.dir, "compile_report.txt", NULL));
  g_ptr_array_add (b_files, g_file_new_build_filename (gb.dir, "archive_size.txt", NULL));
  gtk_window_present (GTK_WINDOW (window));
  tes_window_open_files (window, (GFile **)a_files->pdata, a_files->len, NULL);
  tes_ui_test_wait_for_page (window, "report");

  compare = tes_window_compare (window, b_files);
  wait_for_compare_page (compare, "compare");
  tes_test_assert_contains (gtk_window_get_title (GTK_WINDOW (compare)), " ↔ compile_report.txt, archive_size.txt");
  g_assert_true (tes_compare_window_get_report (compare, 0) == tes_window_get_report (window));
  b_paths = tes_report_get_paths (tes_compare_window_get_report (compare, 1));
  g_assert_cmpuint (g_strv_length ((char **)b_paths), ==, 2);
  summary = wait_for_summary (compare);
  for (guint i = 0; i < summary->memory->len; i++)
    {
      const TesCompareMemory *m = &g_array_index (summary->memory, TesCompareMemory, i);

      /* .data is the listing's: B's listing was read with its report */
      section |= g_str_equal (m->category, ".data") && m->b_bytes > 0;
    }
  g_assert_true (section);
  g_assert_cmpuint (summary->b_out_of_memory, ==, json_object_get_int_member (gb.truth, "out_of_memory"));

  gtk_window_destroy (GTK_WINDOW (compare));
  tes_ui_test_close_window (window);
}

/* Each run several files, "report,listing" as on the command line: both
 * files of each open as one run, so the summary has the listing's
 * sections and the report's data types, and the tiles gone over. */
static void
test_compare_window_sets (void)
{
  g_auto(Generated) ga = { 0 };
  g_auto(Generated) gb = { 0 };
  g_autofree char *a_run = NULL;
  g_autofree char *b_run = NULL;
  g_autoptr(GFile) a_file = NULL;
  g_autoptr(GFile) b_file = NULL;
  TesCompareWindow *window = tes_compare_window_new (NULL);
  const TesCompareSummary *summary;
  gboolean section = FALSE, data_type = FALSE;

  generate_seeded (&ga, TES_TEST_OWN_DATA, 7);
  generate_seeded (&gb, TES_TEST_OWN_DATA, 8);
  a_run = g_strdup_printf ("%s/compile_report.txt,archive_size.txt", ga.dir);
  b_run = g_strdup_printf ("%s/compile_report.txt,%s/archive_size.txt", gb.dir, gb.dir);
  a_file = g_file_new_for_path (a_run);
  b_file = g_file_new_for_path (b_run);

  tes_compare_window_open (window, NULL, a_file, b_file, NULL);
  tes_test_assert_contains (gtk_window_get_title (GTK_WINDOW (window)), "compile_report.txt, archive_size.txt ↔ ");
  gtk_window_present (GTK_WINDOW (window));
  wait_for_compare_page (window, "compare");

  summary = wait_for_summary (window);
  g_assert_true (summary->has_memory);
  for (guint i = 0; i < summary->memory->len; i++)
    {
      const TesCompareMemory *m = &g_array_index (summary->memory, TesCompareMemory, i);

      section |= g_str_equal (m->category, ".data") && m->a_bytes > 0 && m->b_bytes > 0;
      data_type |= g_str_equal (m->category, "Variables") && m->a_bytes > 0 && m->b_bytes > 0;
    }
  g_assert_true (section && data_type);
  g_assert_cmpuint (summary->newly_out->len, >, 0);
  g_assert_cmpuint (summary->a_out_of_memory, ==, json_object_get_int_member (ga.truth, "out_of_memory"));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The Compare section is listed with the others and has data only for
 * two linked runs; it reads them in a thread: built, it shows a spinner
 * at once, and its table's titles name the unit once they are read. */
static void
test_compare_window_section (void)
{
  g_autofree char *a_path = tes_test_write_trace ("compare-a.json");
  g_autofree char *b_path = write_slower_run ();
  g_autoptr(TesReport) a = tes_test_import (a_path, tes_importer_registry_lookup ("chrome-json"));
  g_autoptr(TesReport) b = tes_test_import (b_path, tes_importer_registry_lookup ("chrome-json"));
  g_autoptr(TesWorkspace) wa = tes_workspace_new (a);
  g_autoptr(TesWorkspace) wb = tes_workspace_new (b);
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());
  TesCompareSection *section;
  const TesCompareModel *model;
  gboolean listed = FALSE;
  GType type;

  for (guint i = 0; (type = tes_sections_get_type_at (i)) != G_TYPE_INVALID; i++)
    listed |= type == TES_TYPE_COMPARE_SECTION;
  g_assert_true (listed);
  g_assert_false (tes_section_type_has_data (TES_TYPE_COMPARE_SECTION, wa));

  section = TES_COMPARE_SECTION (tes_compare_section_new (wa, wb));
  g_assert_true (tes_section_type_has_data (TES_TYPE_COMPARE_SECTION, wa));
  /* nothing read on the main thread: the diff comes later */
  g_assert_null (tes_compare_section_get_model (section));
  g_assert_null (tes_compare_section_get_comparison (section));
  gtk_window_set_default_size (window, 1200, 800);
  gtk_window_set_child (window, GTK_WIDGET (section));
  gtk_window_present (window);

  model = wait_for_model (section);
  g_assert_cmpuint (model->comparison->rows->len, >=, 4);
  {
    g_autoptr(GPtrArray) tables = tes_ui_test_find_widgets ((TesWindow *)window, GTK_TYPE_COLUMN_VIEW);
    GListModel *columns = gtk_column_view_get_columns (GTK_COLUMN_VIEW (g_ptr_array_index (tables, 0)));
    g_autoptr(GtkColumnViewColumn) b_column = g_list_model_get_item (columns, TES_COMPARE_COLUMN_B);
    g_autofree char *expected = g_strdup_printf ("B (%s)", model->scale.unit);

    g_assert_cmpstr (model->scale.unit, ==, "µs");
    g_assert_cmpstr (gtk_column_view_column_get_title (b_column), ==, expected);
  }

  /* unlinked, it has nothing to show and says so */
  tes_workspace_unlink (wa);
  tes_section_set_workspace (TES_SECTION (section), NULL);
  tes_section_set_workspace (TES_SECTION (section), wa);
  g_assert_nonnull (tes_compare_section_get_error (section));

  gtk_window_destroy (window);
}

/* A run whose operators cannot be read (its cache lost their table after
 * it was opened): the section says so, naming the run, where the tables
 * would be, and the window has nothing to set side by side. */
static void
test_compare_window_error (void)
{
  g_autofree char *src = tes_test_data_path ("yolov8s_op_time_each.txt");
  g_autofree char *a_path = tes_test_copy_to_tmp (src, "compare-a-each.txt");
  g_autofree char *b_path = tes_test_copy_to_tmp (src, "compare-b-each.txt");
  g_autoptr(TesReport) a = tes_test_import (a_path, tes_importer_registry_lookup ("sigmastar-op-time"));
  g_autoptr(TesReport) b = tes_test_import (b_path, tes_importer_registry_lookup ("sigmastar-op-time"));
  g_autoptr(TesWorkspace) wa = tes_workspace_new (a);
  g_autoptr(TesWorkspace) wb = tes_workspace_new (b);
  g_autoptr(GPtrArray) labels = NULL;
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());
  gint64 deadline = g_get_monotonic_time () + TES_UI_TEST_WAIT_SECONDS * G_USEC_PER_SEC;
  TesCompareSection *section;
  const char *error;
  gboolean shown = FALSE;
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open_v2 (tes_report_get_cache_path (b), &db, SQLITE_OPEN_READWRITE, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "DROP TABLE operators", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);

  section = TES_COMPARE_SECTION (tes_compare_section_new (wa, wb));
  gtk_window_set_default_size (window, 1000, 700);
  gtk_window_set_child (window, GTK_WIDGET (section));
  gtk_window_present (window);
  while ((error = tes_compare_section_get_error (section)) == NULL)
    {
      g_assert_null (tes_compare_section_get_model (section));
      if (g_get_monotonic_time () > deadline)
        g_error ("Timed out waiting for the error");
      g_main_context_iteration (NULL, FALSE);
    }
  tes_test_assert_contains (error, "B: compare-b-each.txt");
  tes_test_assert_contains (error, "operators");
  g_assert_false (tes_compare_section_get_has_traces (section));

  gtk_test_widget_wait_for_draw (GTK_WIDGET (section));
  labels = tes_ui_test_find_widgets ((TesWindow *)window, GTK_TYPE_LABEL);
  for (guint i = 0; i < labels->len; i++)
    if (g_str_equal (gtk_label_get_label (g_ptr_array_index (labels, i)), error) &&
        gtk_widget_is_drawable (g_ptr_array_index (labels, i)))
      shown = TRUE;
  g_assert_true (shown);

  gtk_window_destroy (window);
}

int
main (int    argc,
      char **argv)
{
  tes_ui_test_init (&argc, &argv);

  tes_ui_test_add ("/tes/compare-window/section", test_compare_window_section);
  tes_ui_test_add ("/tes/compare-window/error", test_compare_window_error);
  tes_ui_test_add ("/tes/compare-window/linked", test_compare_window_linked);
  tes_ui_test_add ("/tes/compare-window/diff", test_compare_window_diff);
  tes_ui_test_add ("/tes/compare-window/summary", test_compare_window_summary);
  tes_ui_test_add ("/tes/compare-window/align", test_compare_window_align);
  tes_ui_test_add ("/tes/compare-window/sets", test_compare_window_sets);
  tes_ui_test_add ("/tes/compare-window/chosen-set", test_compare_window_chosen_set);
  tes_ui_test_add ("/tes/compare-window/from-report", test_compare_window_from_report);

  return tes_ui_test_run ();
}
