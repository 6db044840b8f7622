/* test-memory-window.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

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
  gtk_test_widget_wait_for_draw (page);
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

int
main (int    argc,
      char **argv)
{
  tes_ui_test_init (&argc, &argv);

  tes_ui_test_add ("/tes/memory-window/click", test_memory_window_click);
  tes_ui_test_add ("/tes/tiles-window/follows", test_tiles_window_follows);

  return tes_ui_test_run ();
}
