/* test-insights-window.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "tes-bsp-section.h"
#include "tes-canvas.h"
#include "tes-export.h"
#include "tes-report-private.h"
#include "tes-test-pixels.h"
#include "tes-insights-section.h"
#include "tes-memory-section.h"
#include "tes-row-item.h"
#include "tes-summary-section.h"
#include "tes-tiles-section.h"
#include "tes-test-util.h"
#include "tes-trace-section.h"
#include "tes-ui-test-util.h"
#include "test-insights-util.h"

/* The Insights section in the window: on a Poplar run with findings
 * planted (gen-poplar-tiles.py) it is listed first in the sidebar once
 * computed, and a clean run has none; the keyboard moves from finding to
 * finding and Enter shows the finding's section with its tile, step and
 * range on the workspace, and Memory, BSP and Tile Balance select that
 * tile and step (and a click in them selects it on the workspace); on a
 * real PyTorch profiler trace
 * (tests/data/kineto) an idle gap pins its lane over its range in the
 * Execution Trace and a long operator filters the Summary to it. */

static TesWindow *
open_run (const char * const *paths)
{
  TesWindow *window = g_object_ref (tes_window_new (NULL));
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; paths[i] != NULL; i++)
    g_ptr_array_add (files, g_file_new_for_path (paths[i]));
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  tes_window_open_files (window, (GFile **)files->pdata, files->len, NULL);
  tes_ui_test_wait_for_page (window, "report");

  return window;
}

static gboolean
insights_computed (gpointer data)
{
  return !tes_insights_section_is_loading (data);
}

/* The section once its findings are computed. */
static TesInsightsSection *
wait_for_insights (TesWindow *window)
{
  GtkWidget *page = gtk_stack_get_child_by_name (tes_window_get_sections (window), "TesInsightsSection");

  g_assert_nonnull (page);
  tes_ui_test_wait_until (insights_computed, page, "the insights");
  g_assert_null (tes_insights_section_get_error (TES_INSIGHTS_SECTION (page)));

  return TES_INSIGHTS_SECTION (page);
}

/* The first page the sidebar lists: the stack's first visible page. */
static GtkWidget *
first_listed (TesWindow *window)
{
  g_autoptr(GtkSelectionModel) pages = gtk_stack_get_pages (tes_window_get_sections (window));

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (pages)); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (G_LIST_MODEL (pages), i);
      GtkStackPage *page = GTK_STACK_PAGE (item);

      if (gtk_stack_page_get_visible (page))
        return gtk_stack_page_get_child (page);
    }

  return NULL;
}

static const TesInsightRow *
row_at (TesInsightsSection *section,
        guint               position)
{
  g_autoptr(TesRowItem) item = g_list_model_get_item (tes_insights_section_get_rows (section), position);

  g_assert_nonnull (item);
  return tes_row_item_get (item);
}

/* The position of the first finding of @kind, else -1. */
static int
find_kind (TesInsightsSection *section,
           TesInsightKind      kind)
{
  GListModel *rows = tes_insights_section_get_rows (section);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    if (row_at (section, i)->insight->kind == kind)
      return (int)i;

  return -1;
}

static void
test_insights_window_first (void)
{
  g_auto(GStrv) planted = generate_insights_run ("insights-planted", TRUE);
  g_auto(GStrv) clean = generate_insights_run ("insights-clean", FALSE);
  TesWindow *window = open_run ((const char * const *)planted);
  TesInsightsSection *section = wait_for_insights (window);
  GtkStack *sections = tes_window_get_sections (window);

  /* findings: listed first, under its title, and the Summary stays shown */
  g_assert_cmpuint (tes_insights_section_get_insights (section)->len, >, 2);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (section)));
  g_assert_true (first_listed (window) == GTK_WIDGET (section));
  g_assert_cmpstr (gtk_stack_page_get_title (gtk_stack_get_page (sections, GTK_WIDGET (section))), ==, "Insights");
  g_assert_cmpstr (gtk_stack_get_visible_child_name (sections), ==, "TesSummarySection");
  tes_ui_test_close_window (window);

  /* none: not listed at all, the Summary first */
  window = open_run ((const char * const *)clean);
  section = wait_for_insights (window);
  g_assert_cmpuint (tes_insights_section_get_insights (section)->len, ==, 0);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (section)));
  g_assert_cmpstr (G_OBJECT_TYPE_NAME (first_listed (window)), ==, "TesSummarySection");
  tes_ui_test_close_window (window);
}

static void
assert_focus_is_row (TesWindow          *window,
                     TesInsightsSection *section,
                     guint               position)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));
  g_autofree char *found = NULL;

  g_assert_nonnull (focus);
  g_assert_true (gtk_widget_is_ancestor (focus, GTK_WIDGET (tes_insights_section_get_list (section))));
  /* what a screen reader hears of the focused row: its finding, whole */
  found = gtk_test_accessible_check_property (GTK_ACCESSIBLE (focus), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                              row_at (section, position)->accessible);
  if (found != NULL)
    g_error ("The focused row reads “%s”, not finding %u", found, position + 1);
}

/* Memory's marked tile is @ipu's @tile: by its getter, in words and in
 * the text below the page. */
static void
assert_memory_tile (TesMemorySection *memory,
                    int               ipu,
                    int               tile)
{
  const TesMemoryModel *model = tes_memory_section_get_model (memory);
  int selected = tes_memory_section_get_selected_tile (memory);
  g_autofree char *described = tes_memory_section_describe (memory);
  g_autofree char *name = g_strdup_printf ("IPU %d tile %d: ", ipu, tile);
  g_autofree char *said = g_strdup_printf ("; selected tile %s", name);

  g_assert_cmpint (selected, >=, 0);
  g_assert_cmpint (g_array_index (model->tiles, TesTile, selected).ipu, ==, ipu);
  g_assert_cmpint (g_array_index (model->tiles, TesTile, selected).tile, ==, tile);
  tes_test_assert_contains (described, said);
  g_assert_true (g_str_has_prefix (tes_memory_section_get_listing (memory), name));
}

/* The BSP section once its steps are loaded. */
static TesBspSection *
loaded_bsp (GtkStack *sections)
{
  TesBspSection *bsp = TES_BSP_SECTION (gtk_stack_get_child_by_name (sections, "TesBspSection"));

  tes_ui_test_wait_for_ipus (bsp);

  return bsp;
}

/* Tile Balance, shown, once its balances are worked out. */
static TesTilesSection *
shown_tiles (GtkStack *sections)
{
  TesTilesSection *tiles = TES_TILES_SECTION (gtk_stack_get_child_by_name (sections, "TesTilesSection"));

  gtk_stack_set_visible_child (sections, GTK_WIDGET (tiles));
  tes_ui_test_wait_for_balances (tiles);
  tes_ui_test_wait_for_stable_size (GTK_WIDGET (tiles));

  return tiles;
}

static void
assert_bsp_cell (TesBspSection *bsp,
                 int            ipu,
                 int            tile,
                 gint64         step)
{
  g_autofree char *described = NULL;
  g_autofree char *said = NULL;
  int cursor_ipu;
  guint cursor_tile;
  gint64 cursor_step;

  /* it follows once the workspace's setters are done: an idle later */
  tes_ui_test_spin (50);
  g_assert_true (tes_bsp_section_get_cursor (bsp, &cursor_ipu, &cursor_tile, &cursor_step));
  g_assert_cmpint (cursor_ipu, ==, ipu);
  g_assert_cmpint (cursor_step, ==, step);
  if (tile >= 0)
    g_assert_cmpint (cursor_tile, ==, tile);
  described = tes_bsp_section_describe (bsp);
  said = g_strdup_printf (". Selected: IPU %d, tile %u, step %" G_GINT64_FORMAT ": ", ipu, cursor_tile, step);
  tes_test_assert_contains (described, said);
}

static void
assert_tiles_tile (TesTilesSection *tiles,
                   int              ipu,
                   int              tile)
{
  g_autofree char *described = tes_tiles_section_describe (tiles);
  g_autofree char *said = g_strdup_printf (". Selected: IPU %d, tile %d, ", ipu, tile);
  int selected_ipu;

  g_assert_cmpint (tes_tiles_section_get_selected_tile (tiles, &selected_ipu), ==, tile);
  g_assert_cmpint (selected_ipu, ==, ipu);
  tes_test_assert_contains (described, said);
}

static void
count_cb (GObject    *object,
          GParamSpec *pspec,
          guint      *count)
{
  (*count)++;
}

/* Up and Down move from finding to finding; Enter
 * shows the first, the planted tiles over the limit, in Memory with the
 * worst tile chosen; a BSP step's finding chooses its IPU, step and range;
 * a hot tile's its tile in Tile Balance. */
static void
test_insights_window_activate (void)
{
  g_auto(GStrv) planted = generate_insights_run ("insights-planted", TRUE);
  TesWindow *window = open_run ((const char * const *)planted);
  TesInsightsSection *section = wait_for_insights (window);
  GtkStack *sections = tes_window_get_sections (window);
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (section));
  GtkWidget *list = GTK_WIDGET (tes_insights_section_get_list (section));
  const TesInsightTarget *t;
  gint64 start, end;
  int position;

  gtk_stack_set_visible_child (sections, GTK_WIDGET (section));
  tes_ui_test_wait_for_stable_size (GTK_WIDGET (section));

  g_assert_true (gtk_widget_grab_focus (list));
  assert_focus_is_row (window, section, 0);
  tes_test_press_key (gtk_root_get_focus (GTK_ROOT (window)), GDK_KEY_Down);
  assert_focus_is_row (window, section, 1);
  tes_test_press_key (gtk_root_get_focus (GTK_ROOT (window)), GDK_KEY_Up);
  assert_focus_is_row (window, section, 0);

  /* Enter on it */
  t = &row_at (section, 0)->insight->target;
  g_assert_cmpint (row_at (section, 0)->insight->kind, ==, TES_INSIGHT_TILES_OVER_LIMIT);
  tes_test_press_key (gtk_root_get_focus (GTK_ROOT (window)), GDK_KEY_Return);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (sections), ==, "TesMemorySection");
  g_assert_cmpint (tes_workspace_get_ipu (workspace), ==, t->ipu);
  g_assert_cmpint (tes_workspace_get_tile (workspace), ==, t->tile);
  /* the keyboard goes on in the Memory page's drawing (a TesCanvas, sized
   * by its layout) */
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (window)),
                                         gtk_stack_get_visible_child (sections)));
  g_assert_true (TES_IS_CANVAS (gtk_root_get_focus (GTK_ROOT (window))));
  /* its tile marked in Memory */
  assert_memory_tile (TES_MEMORY_SECTION (gtk_stack_get_visible_child (sections)), t->ipu, t->tile);

  /* the second finding's Show button does the same for its finding */
  gtk_stack_set_visible_child (sections, GTK_WIDGET (section));
  tes_ui_test_wait_for_stable_size (GTK_WIDGET (section));
  {
    g_autoptr(GPtrArray) buttons = tes_ui_test_find_widgets (window, GTK_TYPE_BUTTON);
    GtkWidget *show = NULL;

    for (guint i = 0; i < buttons->len && show == NULL; i++)
      {
        GtkWidget *button = g_ptr_array_index (buttons, i);

        if (gtk_widget_is_ancestor (button, list) && gtk_widget_get_mapped (button))
          show = button;
      }
    g_assert_nonnull (show);
    g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (show)), ==, row_at (section, 0)->show_label);
    tes_workspace_set_tile (workspace, -1);
    g_signal_emit_by_name (show, "clicked");
    g_assert_cmpstr (gtk_stack_get_visible_child_name (sections), ==, "TesMemorySection");
    g_assert_cmpint (tes_workspace_get_tile (workspace), ==, t->tile);
  }

  /* a step: its IPU, step and range, in BSP */
  position = find_kind (section, TES_INSIGHT_STEP_BALANCE);
  g_assert_cmpint (position, >=, 0);
  t = &row_at (section, position)->insight->target;
  g_assert_true (t->has_range && t->step >= 0);
  tes_insights_section_activate (section, position);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (sections), ==, "TesBspSection");
  g_assert_cmpint (tes_workspace_get_ipu (workspace), ==, t->ipu);
  g_assert_cmpint (tes_workspace_get_step (workspace), ==, t->step);
  g_assert_true (tes_workspace_get_selection (workspace, &start, &end));
  g_assert_cmpint (start, ==, t->start_ns);
  g_assert_cmpint (end, ==, t->end_ns);
  /* the cell of its IPU and step selected in BSP */
  assert_bsp_cell (loaded_bsp (sections), t->ipu, t->tile, t->step);

  /* the planted hot tiles: the busiest in Tile Balance */
  gtk_stack_set_visible_child (sections, GTK_WIDGET (section));
  position = find_kind (section, TES_INSIGHT_HOT_TILES);
  g_assert_cmpint (position, >=, 0);
  t = &row_at (section, position)->insight->target;
  g_assert_true (t->tile == 5 || t->tile == 17);
  tes_insights_section_activate (section, position);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (sections), ==, "TesTilesSection");
  g_assert_cmpint (tes_workspace_get_ipu (workspace), ==, t->ipu);
  g_assert_cmpint (tes_workspace_get_tile (workspace), ==, t->tile);
  /* its bar marked in Tile Balance */
  assert_tiles_tile (shown_tiles (sections), t->ipu, t->tile);

  tes_ui_test_close_window (window);
}

/* The workspace's tile and step set from code select them in Memory,
 * BSP and Tile Balance; a click in each makes its tile the workspace's,
 * once (setters notify only on change: no loop). */
static void
test_insights_window_follow (void)
{
  g_auto(GStrv) planted = generate_insights_run ("insights-follow", TRUE);
  TesWindow *window = open_run ((const char * const *)planted);
  TesInsightsSection *section = wait_for_insights (window);
  GtkStack *sections = tes_window_get_sections (window);
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (section));
  TesMemorySection *memory = TES_MEMORY_SECTION (gtk_stack_get_child_by_name (sections, "TesMemorySection"));
  const TesMemoryModel *model = tes_memory_section_get_model (memory);
  TesBspSection *bsp = loaded_bsp (sections);
  TesTilesSection *tiles;
  const TesTile *last;
  const TesBspIpu *bsp_ipu;
  const TesBspStep *step;
  guint notified = 0;

  g_signal_connect (workspace, "notify::tile", G_CALLBACK (count_cb), &notified);

  /* from code: the last IPU's last tile, then a step of it */
  g_assert_nonnull (model);
  last = &g_array_index (model->tiles, TesTile, model->tiles->len - 1);
  tes_workspace_set_ipu (workspace, last->ipu);
  tes_workspace_set_tile (workspace, last->tile);
  assert_memory_tile (memory, last->ipu, last->tile);
  bsp_ipu = g_ptr_array_index (tes_bsp_section_get_ipus (bsp), tes_bsp_find_ipu (tes_bsp_section_get_ipus (bsp),
                                                                                  last->ipu));
  step = g_ptr_array_index (bsp_ipu->steps, bsp_ipu->steps->len / 2);
  tes_workspace_set_step (workspace, step->step);
  assert_bsp_cell (bsp, last->ipu, last->tile, step->step);
  tiles = shown_tiles (sections);
  assert_tiles_tile (tiles, last->ipu, last->tile);
  /* none: none marked */
  tes_workspace_set_tile (workspace, -1);
  g_assert_cmpint (tes_memory_section_get_selected_tile (memory), ==, -1);
  g_assert_cmpint (tes_tiles_section_get_selected_tile (tiles, NULL), ==, -1);

  /* a click on Tile Balance's first chart, near its start */
  {
    GArray *charts = tes_tiles_section_get_charts (tiles);
    const TesTileChartRect *rect;
    const TesTileBalance *balance;
    g_autoptr(TesTileChart) chart = NULL;
    const TesTileActivity *clicked;

    g_assert_cmpuint (charts->len, >, 0);
    rect = &g_array_index (charts, TesTileChartRect, 0);
    balance = g_ptr_array_index (tes_tiles_section_get_balances (tiles), rect->balance);
    chart = tes_tile_chart_new (balance, rect->x, rect->y, rect->width, rect->height);
    clicked = &g_array_index (balance->tiles, TesTileActivity, tes_tile_chart_tile_at (chart, rect->x + 3));
    notified = 0;
    g_assert_true (tes_tiles_section_click (tiles, rect->x + 3, rect->y + rect->height / 2));
    g_assert_cmpint (tes_workspace_get_ipu (workspace), ==, clicked->ipu);
    g_assert_cmpint (tes_workspace_get_tile (workspace), ==, clicked->tile);
    g_assert_cmpuint (notified, ==, 1);
    assert_tiles_tile (tiles, clicked->ipu, clicked->tile);
    assert_memory_tile (memory, clicked->ipu, clicked->tile);
    g_assert_false (tes_tiles_section_click (tiles, 1, rect->y + rect->height / 2));
  }

  /* a click on Memory's chart of every tile, a third of the way along */
  gtk_stack_set_visible_child (sections, GTK_WIDGET (memory));
  tes_ui_test_wait_for_stable_size (GTK_WIDGET (memory));
  tes_ui_test_spin (100);
  {
    const TesMemoryPlot *plot = tes_memory_section_get_plot (memory);
    double x, y;
    int expected;
    const TesTile *tile;

    g_assert_cmpuint (plot->n_columns, >, 0);
    x = plot->x + plot->width / 3;
    y = plot->y + plot->height - 2;
    expected = tes_memory_model_tile_at (model, plot, x, y);
    g_assert_cmpint (expected, >=, 0);
    tile = &g_array_index (model->tiles, TesTile, expected);
    notified = 0;
    g_assert_true (tes_memory_section_click (memory, x, y));
    g_assert_cmpint (tes_workspace_get_ipu (workspace), ==, tile->ipu);
    g_assert_cmpint (tes_workspace_get_tile (workspace), ==, tile->tile);
    g_assert_cmpuint (notified, ==, 1);
    assert_memory_tile (memory, tile->ipu, tile->tile);
  }

  /* a click on the BSP heatmap (its first IPU's top rows): its cell is
   * the workspace's, and stays */
  gtk_stack_set_visible_child (sections, GTK_WIDGET (bsp));
  tes_ui_test_wait_for_stable_size (GTK_WIDGET (bsp));
  {
    int ipu;
    guint tile;
    gint64 number;

    notified = 0;
    g_assert_true (tes_bsp_section_click (bsp, gtk_widget_get_width (GTK_WIDGET (bsp)) / 2.0, 70));
    g_assert_true (tes_bsp_section_get_cursor (bsp, &ipu, &tile, &number));
    g_assert_cmpint (tes_workspace_get_ipu (workspace), ==, ipu);
    g_assert_cmpint (tes_workspace_get_tile (workspace), ==, (int)tile);
    g_assert_cmpint (tes_workspace_get_step (workspace), ==, number);
    g_assert_cmpuint (notified, <=, 1);
    assert_bsp_cell (bsp, ipu, (int)tile, number);
  }

  g_signal_handlers_disconnect_by_func (workspace, count_cb, &notified);
  tes_ui_test_close_window (window);
}

/* A real trace: an idle gap's lane pinned over its range; a long
 * operator's rows alone in the Summary. */
static void
test_insights_window_trace (void)
{
  g_autofree char *src = tes_test_data_path ("kineto/mi250_minitoy_train_ROCm6_2_kineto.json.gz");
  g_autofree char *path = tes_test_copy_to_tmp (src, "mi250_minitoy_train_ROCm6_2_kineto.json.gz");
  const char *paths[] = { path, NULL };
  TesWindow *window = open_run (paths);
  TesInsightsSection *section = wait_for_insights (window);
  GtkStack *sections = tes_window_get_sections (window);
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (section));
  const TesInsightTarget *t;
  gint64 start, end;
  int position;

  g_assert_true (first_listed (window) == GTK_WIDGET (section));

  position = find_kind (section, TES_INSIGHT_IDLE_GAPS);
  g_assert_cmpint (position, >=, 0);
  t = &row_at (section, position)->insight->target;
  g_assert_true (t->has_range && t->track_id > 0);
  tes_insights_section_activate (section, position);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (sections), ==, "TesTraceSection");
  tes_workspace_get_visible (workspace, &start, &end);
  g_assert_cmpint (start, ==, t->start_ns);
  g_assert_cmpint (end, ==, t->end_ns);
  g_assert_true (tes_workspace_get_selection (workspace, &start, &end));
  g_assert_cmpint (start, ==, t->start_ns);
  g_assert_cmpint (end, ==, t->end_ns);
  g_assert_true (tes_trace_view_get_lane_pinned (
    tes_trace_section_get_view (TES_TRACE_SECTION (gtk_stack_get_visible_child (sections))), t->track_id));
  /* the keyboard goes on in the trace */
  g_assert_true (gtk_root_get_focus (GTK_ROOT (window)) ==
                 GTK_WIDGET (tes_trace_section_get_view (TES_TRACE_SECTION (gtk_stack_get_visible_child (sections)))));

  position = find_kind (section, TES_INSIGHT_LONG_OPERATOR);
  g_assert_cmpint (position, >=, 0);
  {
    TesSummarySection *summary;
    GListModel *rows;

    t = &row_at (section, position)->insight->target;
    g_assert_nonnull (t->operator_name);
    tes_insights_section_activate (section, position);
    g_assert_cmpstr (gtk_stack_get_visible_child_name (sections), ==, "TesSummarySection");
    summary = TES_SUMMARY_SECTION (gtk_stack_get_visible_child (sections));
    tes_ui_test_wait_for_summary (summary);
    rows = tes_summary_section_get_rows (summary);
    g_assert_cmpuint (g_list_model_get_n_items (rows), >=, 1);
    for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
      {
        g_autoptr(TesRowItem) item = g_list_model_get_item (rows, i);
        const TesSummaryRow *row = tes_row_item_get (item);

        g_assert_true (g_strcmp0 (row->name, t->operator_name) == 0 || g_strcmp0 (row->type, t->operator_name) == 0 ||
                       g_strcmp0 (row->label, t->operator_name) == 0);
      }
  }

  tes_ui_test_close_window (window);
}

/* Export View of the Insights page draws the findings the section
 * computed: no query on the main thread (the old way computed them all
 * again there), and the picture is the command line's page. */
static void
test_insights_window_export (void)
{
  g_auto(GStrv) planted = generate_insights_run ("insights-export", TRUE);
  TesWindow *window = open_run ((const char * const *)planted);
  TesInsightsSection *section = wait_for_insights (window);
  TesReport *report = tes_window_get_report (window);
  g_autofree char *png = tes_test_tmp_path ("insights-export.png");
  g_autoptr(GFile) file = g_file_new_for_path (png);
  g_autoptr(GError) error = NULL;
  cairo_surface_t *exported, *rendered;
  cairo_t *cr;
  int width, height;

  gtk_stack_set_visible_child (tes_window_get_sections (window), GTK_WIDGET (section));
  tes_ui_test_wait_for_stable_size (GTK_WIDGET (section));
  tes_report_set_query_delay_for_testing (report, 1);
  g_assert_true (tes_window_export (window, file, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (tes_report_get_main_thread_queries_for_testing (report), ==, 0);

  /* the same page the render computes for itself (with queries) */
  exported = cairo_image_surface_create_from_png (png);
  width = cairo_image_surface_get_width (exported);
  height = cairo_image_surface_get_height (exported);
  rendered = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cr = cairo_create (rendered);
  g_assert_true (tes_section_type_render (TES_TYPE_INSIGHTS_SECTION, tes_window_get_workspace (window), NULL,
                                          cr, width, height, &error));
  g_assert_no_error (error);
  cairo_destroy (cr);
  g_assert_cmpuint (tes_report_get_main_thread_queries_for_testing (report), >, 0);
  g_assert_true (tes_test_same_rows (exported, 0, rendered, 0, height));
  cairo_surface_destroy (exported);
  cairo_surface_destroy (rendered);
  tes_report_set_query_delay_for_testing (report, 0);

  tes_ui_test_close_window (window);
}

int
main (int   argc,
      char *argv[])
{
  tes_ui_test_init (&argc, &argv);

  tes_ui_test_add ("/tes/insights-window/first", test_insights_window_first);
  tes_ui_test_add ("/tes/insights-window/activate", test_insights_window_activate);
  tes_ui_test_add ("/tes/insights-window/follow", test_insights_window_follow);
  tes_ui_test_add ("/tes/insights-window/trace", test_insights_window_trace);
  tes_ui_test_add ("/tes/insights-window/export", test_insights_window_export);

  return tes_ui_test_run ();
}
