/* test-memory-window.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "tes-bsp-section.h"
#include "tes-memory-render.h"
#include "tes-memory-section.h"
#include "tes-tiles-layout.h"
#include "tes-tiles-section.h"
#include "tes-test-util.h"
#include "tes-ui-test-util.h"
#include "test-poplar-util.h"

/* The Memory section in the window, on a generated Poplar run: a click
 * on a histogram bin lists exactly its tiles; `tessera-cli render` draws
 * the same page. */
static void
test_memory_window_click (void)
{
  g_auto(Generated) g = { 0 };
  g_autofree char *compile = NULL;
  g_autofree char *listing = NULL;
  g_autoptr(GFile) a = NULL;
  g_autoptr(GFile) b = NULL;
  g_autoptr(GArray) rects = g_array_new (FALSE, FALSE, sizeof (TesMemoryBinRect));
  const TesMemoryModel *model;
  TesMemorySection *section;
  TesWindow *window;
  GtkWidget *page;
  cairo_surface_t *scratch;
  cairo_t *cr;
  int width;

  generate (&g, TES_TEST_OWN_DATA);
  compile = generated_path (&g, "compile_report.txt");
  listing = generated_path (&g, "archive_size.txt");
  a = g_file_new_for_path (compile);
  b = g_file_new_for_path (listing);

  window = g_object_ref (tes_window_new (NULL));
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  tes_window_open_files (window, (GFile *[]) { a, b }, 2, NULL);
  tes_ui_test_wait_for_page (window, "report");

  section = TES_MEMORY_SECTION (gtk_stack_get_child_by_name (tes_window_get_sections (window), "TesMemorySection"));
  g_assert_nonnull (section);
  gtk_stack_set_visible_child (tes_window_get_sections (window), GTK_WIDGET (section));
  model = tes_memory_section_get_model (section);
  g_assert_nonnull (model);
  g_assert_cmpuint (model->n_over, ==, json_object_get_int_member (g.truth, "out_of_memory"));

  /* where the page drew the bins: the same layout, drawn aside */
  {
    g_autoptr(GPtrArray) areas = tes_ui_test_find_widgets (window, GTK_TYPE_DRAWING_AREA);

    page = NULL;
    for (guint i = 0; i < areas->len; i++)
      if (gtk_widget_is_ancestor (g_ptr_array_index (areas, i), GTK_WIDGET (section)))
        page = g_ptr_array_index (areas, i);
  }
  g_assert_nonnull (page);
  tes_ui_test_wait_for_stable_size (page);
  width = gtk_widget_get_width (page);
  scratch = cairo_image_surface_create (CAIRO_FORMAT_RGB24, width, 10);
  cr = cairo_create (scratch);
  tes_memory_render_model (cr, model, TES_MEMORY_VIEW_ALL, width, rects);
  cairo_destroy (cr);
  cairo_surface_destroy (scratch);

  /* each bin with tiles: a click lists that many, each in the bin */
  for (guint i = 0; i < rects->len; i++)
    {
      const TesMemoryBinRect *rect = &g_array_index (rects, TesMemoryBinRect, i);
      const TesTileHistogramBin *bin = &g_array_index (model->histogram, TesTileHistogramBin, rect->bin);
      g_autofree char *expected = g_strdup_printf (" KB: %" G_GINT64_FORMAT " tile", bin->tiles);
      const char *text;

      if (bin->tiles == 0)
        continue;
      g_assert_true (tes_memory_section_click (section, rect->x + 10, rect->y + rect->height / 2));
      text = tes_memory_section_get_listing (section);
      tes_test_assert_contains (text, expected);
      /* one "ipu:tile (bytes)" per tile */
      {
        guint listed = 0;

        for (const char *p = text; (p = strstr (p, " B)")); p++)
          listed++;
        g_assert_cmpuint (listed, ==, bin->tiles);
      }
    }
  g_assert_false (tes_memory_section_click (section, 2, 2));

  tes_ui_test_close_window (window);
}

/* Tile Balance follows the trace's range: the whole run, then its first
 * step only. */
static void
test_tiles_window_follows (void)
{
  g_auto(Generated) g = { 0 };
  g_autofree char *execution = NULL;
  TesTilesSection *section;
  TesWorkspace *workspace;
  TesWindow *window;
  GPtrArray *balances;
  JsonObject *first;
  gint64 all = 0, start, end;

  generate (&g, TES_TEST_OWN_DATA);
  execution = generated_path (&g, "execution.json");
  window = tes_ui_test_open_window (execution, NULL);
  tes_ui_test_wait_for_page (window, "report");

  section = TES_TILES_SECTION (gtk_stack_get_child_by_name (tes_window_get_sections (window), "TesTilesSection"));
  g_assert_nonnull (section);
  gtk_stack_set_visible_child (tes_window_get_sections (window), GTK_WIDGET (section));
  balances = tes_tiles_section_get_balances (section);
  g_assert_nonnull (balances);
  g_assert_cmpuint (balances->len, ==, g.n_ipus);
  for (guint s = 0; s < 4; s++)
    all += ((TesTileBalance *)g_ptr_array_index (balances, 0))->cycles[s];

  /* IPU 0's first step, alone: fewer tile-cycles */
  first = json_array_get_object_element (json_object_get_array_member (g.truth, "steps"), 0);
  workspace = tes_section_get_workspace (TES_SECTION (section));
  tes_workspace_get_span (workspace, &start, &end);
  tes_workspace_set_visible (workspace, start, start + 1000);
  balances = tes_tiles_section_get_balances (section);
  {
    gint64 narrowed = 0;

    for (guint s = 0; s < 4; s++)
      narrowed += ((TesTileBalance *)g_ptr_array_index (balances, 0))->cycles[s];
    g_assert_cmpint (narrowed, <, all);
    g_assert_cmpint (narrowed, ==, json_object_get_int_member (first, "dur") *
                                   json_object_get_int_member (g.truth, "tiles_per_ipu"));
  }

  tes_ui_test_close_window (window);
}

/* The BSP heatmap on a generated run: one block per IPU with its tiles,
 * each cell coloured by the state the truth gives that tile in that step
 * (busy more than half the step, else idle); a click selects the step
 * under it; + magnifies the rows. */
static void
test_bsp_window_heatmap (void)
{
  g_auto(Generated) g = { 0 };
  g_autofree char *execution = NULL;
  TesBspSection *section;
  TesWorkspace *workspace;
  TesWindow *window;
  GPtrArray *ipus;
  JsonArray *steps;
  const TesBspIpu *ipu0;
  guint tiles_per_ipu, n_steps_ipu0 = 0, checked = 0;
  gint64 deadline, t0, t1, sel0, sel1;
  int width = 1400, height;
  cairo_surface_t *surface;
  cairo_t *cr;
  graphene_rect_t rect;
  guchar *data;
  int stride;

  generate (&g, TES_TEST_OWN_DATA);
  execution = generated_path (&g, "execution.json");
  window = tes_ui_test_open_window (execution, NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  tes_ui_test_wait_for_page (window, "report");

  section = TES_BSP_SECTION (gtk_stack_get_child_by_name (tes_window_get_sections (window), "TesBspSection"));
  g_assert_nonnull (section);
  gtk_stack_set_visible_child (tes_window_get_sections (window), GTK_WIDGET (section));
  deadline = g_get_monotonic_time () + TES_UI_TEST_WAIT_SECONDS * G_USEC_PER_SEC;
  while ((ipus = tes_bsp_section_get_ipus (section)) == NULL)
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("Timed out loading the BSP steps");
      g_main_context_iteration (NULL, FALSE);
    }

  tiles_per_ipu = (guint)json_object_get_int_member (g.truth, "tiles_per_ipu");
  steps = json_object_get_array_member (g.truth, "steps");
  g_assert_cmpuint (ipus->len, ==, g.n_ipus);
  ipu0 = g_ptr_array_index (ipus, 0);
  g_assert_cmpint (ipu0->ipu, ==, 0);
  g_assert_cmpuint (ipu0->n_tiles, ==, tiles_per_ipu);
  for (guint i = 0; i < json_array_get_length (steps); i++)
    n_steps_ipu0 += json_object_get_int_member (json_array_get_object_element (steps, i), "ipu") == 0;
  g_assert_cmpuint (ipu0->spans->len, ==, n_steps_ipu0);

  /* tall enough for a row per tile: each cell is one tile's */
  height = (int)(TES_BSP_LEGEND_HEIGHT + TES_BSP_AXIS_HEIGHT +
                 g.n_ipus * (TES_BSP_HEADER_HEIGHT + TES_BSP_BLOCK_GAP + 4 * tiles_per_ipu));
  workspace = tes_section_get_workspace (TES_SECTION (section));
  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, width, height);
  cr = cairo_create (surface);
  g_assert_true (tes_bsp_render (workspace, ipus, cr, width, height));
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  data = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);
  rect = tes_bsp_heat_rect (0, ipus->len, width, height);
  tes_workspace_get_visible (workspace, &t0, &t1);

  for (guint i = 0, s = 0; i < json_array_get_length (steps); i++)
    {
      JsonObject *step = json_array_get_object_element (steps, i);
      const TesBspSpan *span;
      JsonArray *cycles = json_object_get_array_member (step, "cycles");
      gint64 dur = json_object_get_int_member (step, "dur");
      const char *state = json_object_get_string_member (step, "state");
      double x0, x1;

      if (json_object_get_int_member (step, "ipu") != 0)
        continue;
      span = &g_array_index (ipu0->spans, TesBspSpan, s++);
      x0 = rect.origin.x + (double)(span->start - t0) / (t1 - t0) * rect.size.width;
      x1 = rect.origin.x + (double)(span->end - t0) / (t1 - t0) * rect.size.width;
      if (x1 - x0 < 4)
        continue;   /* too narrow to own a column whole */

      for (guint t = 0; t < tiles_per_ipu; t++)
        {
          gint64 busy = json_array_get_int_element (cycles, t);
          TesTileState expected = TES_TILE_STATE_IDLE;
          int y = (int)(rect.origin.y + (t + 0.5) * rect.size.height / tiles_per_ipu);
          guint32 pixel = *(guint32 *)(gpointer)(data + (gsize)y * stride + 4 * (int)((x0 + x1) / 2)) & 0xffffff;

          if (busy * 2 > dur)
            expected = g_str_equal (state, "compute") ? TES_TILE_STATE_COMPUTE :
                       g_str_equal (state, "exchange") ? TES_TILE_STATE_EXCHANGE : TES_TILE_STATE_SYNC;
          else if (busy * 2 == dur)
            continue;
          g_assert_cmphex (pixel, ==, tes_tile_state_color (expected));
          checked++;
        }
    }
  cairo_surface_destroy (surface);
  g_assert_cmpuint (checked, >, tiles_per_ipu * 10);

  /* a click on IPU 0's fourth step selects it */
  {
    GtkWidget *area = gtk_widget_get_first_child (gtk_widget_get_first_child (GTK_WIDGET (section)));
    const TesBspSpan *span = &g_array_index (ipu0->spans, TesBspSpan, 3);
    double w, h, x;
    graphene_rect_t shown;

    tes_ui_test_wait_for_stable_size (GTK_WIDGET (section));
    while (!GTK_IS_DRAWING_AREA (area))
      area = gtk_widget_get_first_child (area);
    w = gtk_widget_get_width (area);
    h = gtk_widget_get_height (area);
    shown = tes_bsp_heat_rect (0, ipus->len, w, h);
    x = shown.origin.x + ((span->start + span->end) / 2.0 - t0) / (t1 - t0) * shown.size.width;
    g_assert_true (tes_bsp_section_click (section, x, shown.origin.y + 2));
    g_assert_true (tes_workspace_get_selection (workspace, &sel0, &sel1));
    g_assert_cmpint (sel0, ==, span->start);
    g_assert_cmpint (sel1, ==, span->end);
    for (guint i = 0, n = 0; i < json_array_get_length (steps); i++)
      {
        JsonObject *step = json_array_get_object_element (steps, i);

        if (json_object_get_int_member (step, "ipu") == 0 && n++ == 3)
          g_assert_cmpint (tes_workspace_get_step (workspace), ==, json_object_get_int_member (step, "step"));
      }
    g_assert_false (tes_bsp_section_click (section, 2, 2));

    /* + twice: rows four times as tall, the view scrolls; 0 resets */
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (section), "bsp.magnify", "d", 2.0));
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (section), "bsp.magnify", "d", 2.0));
    g_assert_cmpfloat (tes_bsp_section_get_magnify (section), ==, 4);
    tes_ui_test_wait_for_stable_size (area);
    g_assert_cmpfloat (gtk_widget_get_height (area), >=, 3.5 * h);
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (section), "bsp.magnify", "d", 0.0));
    g_assert_cmpfloat (tes_bsp_section_get_magnify (section), ==, 1);
  }

  tes_ui_test_close_window (window);
}

int
main (int    argc,
      char **argv)
{
  tes_ui_test_init (&argc, &argv);

  tes_ui_test_add ("/tes/memory-window/click", test_memory_window_click);
  tes_ui_test_add ("/tes/tiles-window/follows", test_tiles_window_follows);
  tes_ui_test_add ("/tes/bsp-window/heatmap", test_bsp_window_heatmap);

  return tes_ui_test_run ();
}
