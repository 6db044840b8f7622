/* test-tiles-window.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "tes-bsp-section.h"
#include "tes-canvas.h"
#include "tes-importer-registry.h"
#include "tes-tiles-layout.h"
#include "tes-tiles-section.h"
#include "tes-test-util.h"
#include "tes-ui-test-util.h"
#include "test-poplar-util.h"

/* BSP and Tile Balance in a window: their size comes from their layout
 * (measure ()), never from a frame; a step selected in the heatmap is
 * the only one Tile Balance counts; the window's figures are
 * `tessera-cli tiles`'s. */

static GtkWidget *
find_widget (GtkWidget *widget,
             GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, type);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static GtkWidget *
show_section (TesWindow  *window,
              const char *name)
{
  GtkWidget *section = gtk_stack_get_child_by_name (tes_window_get_sections (window), name);

  g_assert_nonnull (section);
  gtk_stack_set_visible_child (tes_window_get_sections (window), section);

  return section;
}

/* Tile Balance is as tall as its layout at its width, asked by measure ()
 * before anything is drawn, and a frame does not change it. (Its drawing
 * area was 0 high until its first frame set its height, then laid the
 * window out again after each.) */
static void
test_tiles_window_height (void)
{
  g_auto(Generated) g = { 0 };
  g_autofree char *execution = NULL;
  TesTilesSection *section;
  TesWorkspace *workspace;
  GtkWidget *canvas;
  TesWindow *window;
  GPtrArray *balances;
  int width, natural = 0, minimum = 0, expected, allocated;

  generate (&g, TES_TEST_OWN_DATA);
  execution = generated_path (&g, "execution.json");
  window = tes_ui_test_open_window (execution, NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  tes_ui_test_wait_for_page (window, "report");
  section = TES_TILES_SECTION (show_section (window, "TesTilesSection"));
  balances = tes_ui_test_wait_for_balances (section);
  g_assert_cmpuint (balances->len, ==, g.n_ipus);
  workspace = tes_section_get_workspace (TES_SECTION (section));
  canvas = find_widget (GTK_WIDGET (section), TES_TYPE_CANVAS);
  g_assert_nonnull (canvas);

  /* what the layout says, from the widget's size request alone */
  width = 640;
  gtk_widget_measure (canvas, GTK_ORIENTATION_VERTICAL, width, &minimum, &natural, NULL, NULL);
  expected = tes_tiles_render_height (workspace, balances, width, FALSE);
  g_assert_cmpint (expected, >, 200 * (int)g.n_ipus);
  g_assert_cmpint (natural, ==, expected);
  g_assert_cmpint (minimum, ==, expected);

  /* shown: allocated that height at its width, the same after more frames */
  tes_ui_test_wait_for_stable_size (canvas);
  allocated = gtk_widget_get_height (canvas);
  g_assert_cmpint (allocated, ==, tes_tiles_render_height (workspace, balances, gtk_widget_get_width (canvas), FALSE));
  for (guint i = 0; i < 3; i++)
    {
      gtk_widget_queue_draw (canvas);
      gtk_test_widget_wait_for_draw (canvas);
      g_assert_cmpint (gtk_widget_get_height (canvas), ==, allocated);
    }

  tes_ui_test_close_window (window);
}

/* Magnified, the heatmap is as many times as tall as its view, whatever
 * the view's height: the window grown, the picture grows with it. (It
 * kept the height of the view when + was pressed.) */
static void
test_bsp_window_magnify_follows_size (void)
{
  g_auto(Generated) g = { 0 };
  g_autofree char *execution = NULL;
  TesBspSection *section;
  GtkAdjustment *adjustment;
  GtkWidget *canvas, *bar;
  TesWindow *window;
  int before;

  generate (&g, TES_TEST_OWN_DATA);
  execution = generated_path (&g, "execution.json");
  window = tes_ui_test_open_window (execution, NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 600);
  tes_ui_test_wait_for_page (window, "report");
  section = TES_BSP_SECTION (show_section (window, "TesBspSection"));
  tes_ui_test_wait_for_ipus (section);
  canvas = find_widget (GTK_WIDGET (section), TES_TYPE_CANVAS);
  bar = find_widget (GTK_WIDGET (section), GTK_TYPE_SCROLLBAR);
  adjustment = gtk_scrollbar_get_adjustment (GTK_SCROLLBAR (bar));
  tes_ui_test_wait_for_stable_size (canvas);
  g_assert_false (gtk_widget_get_visible (bar));

  tes_bsp_section_set_magnify (section, 4);
  tes_ui_test_wait_for_stable_size (canvas);
  before = gtk_widget_get_height (canvas);
  g_assert_true (gtk_widget_get_visible (bar));
  g_assert_cmpfloat (gtk_adjustment_get_page_size (adjustment), ==, gtk_widget_get_height (canvas));
  g_assert_cmpfloat (gtk_adjustment_get_upper (adjustment), ==, 4.0 * gtk_widget_get_height (canvas));

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 900);
  tes_ui_test_wait_for_stable_size (canvas);
  g_assert_cmpint (gtk_widget_get_height (canvas), >, before);
  g_assert_cmpfloat (gtk_adjustment_get_page_size (adjustment), ==, gtk_widget_get_height (canvas));
  g_assert_cmpfloat (gtk_adjustment_get_upper (adjustment), ==, 4.0 * gtk_widget_get_height (canvas));

  /* the keys keep the cell they move in view: down past the view's last row */
  gtk_adjustment_set_value (adjustment, 0);
  g_assert_true (tes_bsp_section_move_cursor (section, 0, 0));
  g_assert_true (tes_bsp_section_move_cursor (section, 0, (int)json_object_get_int_member (g.truth, "tiles_per_ipu") - 1));
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), >, 0);
  g_assert_true (tes_bsp_section_move_cursor (section, 0, -(int)json_object_get_int_member (g.truth, "tiles_per_ipu")));
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), <, gtk_widget_get_height (canvas));

  /* a click lands on the cell the magnified picture shows there */
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment));
  g_assert_true (tes_bsp_section_click (section, gtk_widget_get_width (canvas) / 2.0, gtk_widget_get_height (canvas) - 30));
  g_assert_cmpint (tes_workspace_get_ipu (tes_section_get_workspace (TES_SECTION (section))), ==, (int)g.n_ipus - 1);

  tes_bsp_section_set_magnify (section, 1);
  tes_ui_test_wait_for_stable_size (canvas);
  g_assert_false (gtk_widget_get_visible (bar));

  tes_ui_test_close_window (window);
}

/* Three BSP steps of IPU 0's two tiles, each starting where the last
 * ends, as a Poplar tile trace gives them (written for this test after
 * tests/gen-poplar-tiles.py's format, whose steps leave gaps): at 1 GHz,
 * step 0 lasts 1,000 cycles, step 1 starts at 1 µs. */
static const char contiguous_steps[] =
  "{\"otherData\":{\"clock_mhz\":1000},\"traceEvents\":[\n"
  "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,\"args\":{\"name\":\"IPU 0\"}},\n"
  "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":0,\"tid\":0,\"args\":{\"name\":\"Tile 0\"}},\n"
  "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":0,\"tid\":1,\"args\":{\"name\":\"Tile 1\"}},\n"
  "{\"ph\":\"X\",\"name\":\"OnTileExecute\",\"cat\":\"bsp\",\"pid\":0,\"tid\":0,\"ts\":0,\"dur\":1,\"args\":{\"cycles\":1000,\"step\":0}},\n"
  "{\"ph\":\"X\",\"name\":\"OnTileExecute\",\"cat\":\"bsp\",\"pid\":0,\"tid\":1,\"ts\":0,\"dur\":0.5,\"args\":{\"cycles\":500,\"step\":0}},\n"
  "{\"ph\":\"X\",\"name\":\"DoExchange\",\"cat\":\"bsp\",\"pid\":0,\"tid\":0,\"ts\":1,\"dur\":0.8,\"args\":{\"cycles\":800,\"step\":1}},\n"
  "{\"ph\":\"X\",\"name\":\"DoExchange\",\"cat\":\"bsp\",\"pid\":0,\"tid\":1,\"ts\":1,\"dur\":0.8,\"args\":{\"cycles\":800,\"step\":1}},\n"
  "{\"ph\":\"X\",\"name\":\"Sync\",\"cat\":\"bsp\",\"pid\":0,\"tid\":0,\"ts\":1.8,\"dur\":0.2,\"args\":{\"cycles\":200,\"step\":2}},\n"
  "{\"ph\":\"X\",\"name\":\"Sync\",\"cat\":\"bsp\",\"pid\":0,\"tid\":1,\"ts\":1.8,\"dur\":0.2,\"args\":{\"cycles\":200,\"step\":2}}\n"
  "]}\n";

/* A step selected in the heatmap: Tile Balance counts that step alone,
 * once per tile, not the next, which starts where it ends. (The section
 * widened the range by 1 ns, and took the next step in.) */
static void
test_bsp_step_balance (void)
{
  g_autofree char *path = tes_test_tmp_path ("contiguous-steps.json");
  TesBspSection *bsp;
  TesTilesSection *tiles;
  TesWorkspace *workspace;
  GPtrArray *ipus, *balances;
  const TesBspIpu *ipu0;
  const TesTileBalance *balance;
  TesWindow *window;
  gint64 t0, t1;

  tes_test_write_file (path, contiguous_steps, -1);
  window = tes_ui_test_open_window (path, NULL);
  tes_ui_test_wait_for_page (window, "report");
  bsp = TES_BSP_SECTION (show_section (window, "TesBspSection"));
  ipus = tes_ui_test_wait_for_ipus (bsp);
  g_assert_cmpuint (ipus->len, ==, 1);
  ipu0 = g_ptr_array_index (ipus, 0);
  g_assert_cmpuint (ipu0->spans->len, ==, 3);

  /* the first step: the second starts where it ends */
  tes_workspace_set_visible (tes_section_get_workspace (TES_SECTION (bsp)), 0, 2000);
  g_assert_true (tes_bsp_section_move_cursor (bsp, 0, 0));
  g_assert_true (tes_bsp_section_activate (bsp));
  workspace = tes_section_get_workspace (TES_SECTION (bsp));
  g_assert_true (tes_workspace_get_selection (workspace, &t0, &t1));
  g_assert_cmpint (t0, ==, 0);
  g_assert_cmpint (t1, ==, 1000);
  g_assert_cmpint (g_array_index (ipu0->spans, TesBspSpan, 1).start, ==, t1);

  tiles = TES_TILES_SECTION (show_section (window, "TesTilesSection"));
  balances = tes_ui_test_wait_for_balances (tiles);
  g_assert_cmpuint (balances->len, ==, 1);
  balance = g_ptr_array_index (balances, 0);
  g_assert_cmpuint (balance->tiles->len, ==, 2);
  for (guint t = 0; t < balance->tiles->len; t++)
    {
      const TesTileActivity *tile = &g_array_index (balance->tiles, TesTileActivity, t);

      g_assert_cmpuint (tile->n_steps, ==, 1);
      g_assert_cmpint (tile->cycles[TES_TILE_STATE_COMPUTE], ==, t == 0 ? 1000 : 500);
      g_assert_cmpint (tile->cycles[TES_TILE_STATE_EXCHANGE], ==, 0);
      g_assert_cmpint (tes_tile_activity_busy (tile) + tile->cycles[TES_TILE_STATE_IDLE], ==, 1000);
    }

  tes_ui_test_close_window (window);
}

/* The window's Tile Balance over the whole run is what `tessera-cli
 * tiles` prints for the file: each core's busy and idle time. */
static void
test_tiles_window_is_cli (void)
{
  g_autofree char *path = tes_test_copy_fixture (TES_TEST_OWN_DATA, "qaic/opstats_trace_mini.json");
  g_auto(TesCliResult) cli = { 0 };
  g_auto(GStrv) lines = NULL;
  TesTilesSection *section;
  GPtrArray *balances;
  TesWindow *window;
  guint n = 0;

  tes_test_run_cli (&cli, "tiles", "--csv", path, NULL);
  g_assert_cmpint (cli.status, ==, 0);
  lines = g_strsplit (cli.out, "\n", -1);

  window = tes_ui_test_open_window (path, NULL);
  tes_ui_test_wait_for_page (window, "report");
  section = TES_TILES_SECTION (show_section (window, "TesTilesSection"));
  balances = tes_ui_test_wait_for_balances (section);
  for (guint b = 0; b < balances->len; b++)
    {
      const TesTileBalance *balance = g_ptr_array_index (balances, b);

      for (guint t = 0; t < balance->tiles->len; t++)
        {
          const TesTileActivity *unit = &g_array_index (balance->tiles, TesTileActivity, t);
          g_autofree char *line = g_strdup_printf (",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT,
                                                   tes_tile_activity_busy (unit), unit->cycles[TES_TILE_STATE_IDLE]);
          gboolean found = FALSE;

          for (guint i = 1; lines[i] != NULL && !found; i++)
            found = g_str_has_suffix (lines[i], line) && strstr (lines[i], ",,") == NULL;
          g_assert_true (found);
          n++;
        }
    }
  g_assert_cmpuint (n, ==, 2);

  tes_ui_test_close_window (window);
}

int
main (int    argc,
      char **argv)
{
  tes_ui_test_init (&argc, &argv);

  tes_ui_test_add ("/tes/tiles-window/height", test_tiles_window_height);
  tes_ui_test_add ("/tes/tiles-window/is-cli", test_tiles_window_is_cli);
  tes_ui_test_add ("/tes/bsp-window/magnify-follows-size", test_bsp_window_magnify_follows_size);
  tes_ui_test_add ("/tes/bsp-window/step-balance", test_bsp_step_balance);

  return tes_ui_test_run ();
}
