/* test-memory-window.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "tes-bsp-section.h"
#include "tes-canvas.h"
#include "tes-memory-render.h"
#include "tes-memory-section.h"
#include "tes-tiles-layout.h"
#include "tes-tiles-section.h"
#include "tes-test-pixels.h"
#include "tes-test-util.h"
#include "tes-ui-test-util.h"
#include "test-poplar-util.h"
#include "test-units-util.h"

static int
compare_first (gconstpointer a,
               gconstpointer b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return x < y ? -1 : x > y;
}

/* IPU @ipu's @n-th step in the generator's truth. */
static JsonObject *
truth_step (JsonArray *steps,
            gint64     ipu,
            guint      n)
{
  for (guint i = 0, k = 0; i < json_array_get_length (steps); i++)
    {
      JsonObject *step = json_array_get_object_element (steps, i);

      if (json_object_get_int_member (step, "ipu") == ipu && k++ == n)
        return step;
    }
  g_assert_not_reached ();
}

/* What the heatmap's description says of a selected cell, from the truth. */
/* @n with a ',' between groups of three digits, as the C locale's
 * numbers are grouped (written here, not through tes_format_grouped). */
static char *
comma_grouped (gint64 n)
{
  g_autofree char *digits = g_strdup_printf ("%" G_GINT64_FORMAT, n);
  GString *out = g_string_new (NULL);
  gsize len = strlen (digits);

  for (gsize i = 0; i < len; i++)
    {
      if (i > 0 && (len - i) % 3 == 0)
        g_string_append_c (out, ',');
      g_string_append_c (out, digits[i]);
    }

  return g_string_free (out, FALSE);
}

static char *
expected_cell (JsonObject *step,
               guint       tile)
{
  gint64 busy = json_array_get_int_element (json_object_get_array_member (step, "cycles"), tile);
  const char *state = json_object_get_string_member (step, "state");
  TesTileState s = busy == 0 ? TES_TILE_STATE_IDLE :
                   g_str_equal (state, "compute") ? TES_TILE_STATE_COMPUTE :
                   g_str_equal (state, "exchange") ? TES_TILE_STATE_EXCHANGE : TES_TILE_STATE_SYNC;
  g_autofree char *busy_text = comma_grouped (busy);
  g_autofree char *dur_text = comma_grouped (json_object_get_int_member (step, "dur"));


  return g_strdup_printf ("Selected: IPU %d, tile %u, step %d: %s, %s of %s cycles",
                          (int)json_object_get_int_member (step, "ipu"), tile,
                          (int)json_object_get_int_member (step, "step"), tes_tile_state_name (s), busy_text,
                          dur_text);
}

/* The first widget of @type in @widget's tree (@widget itself included). */
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

/* An accessible property's value as a string ("" when unset): GTK 4.8
 * reads them only through its test API, which returns the value when it
 * differs from the one asked. */
static char *
accessible_property (GtkWidget             *widget,
                     GtkAccessibleProperty  property)
{
  char *value;

  if (!gtk_test_accessible_has_property (GTK_ACCESSIBLE (widget), property))
    return g_strdup ("");
  value = gtk_test_accessible_check_property (GTK_ACCESSIBLE (widget), property, "\x01");

  return value != NULL ? value : g_strdup ("\x01");
}

/* The accessible pictures in @section's tree (role IMG), each labelled,
 * described and focusable. */
static GPtrArray *
assert_accessible_pictures (GtkWidget *section)
{
  GPtrArray *found = g_ptr_array_new ();
  GPtrArray *queue = g_ptr_array_new ();

  g_ptr_array_add (queue, section);
  for (guint i = 0; i < queue->len; i++)
    {
      GtkWidget *widget = g_ptr_array_index (queue, i);

      if (gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (widget)) == GTK_ACCESSIBLE_ROLE_IMG)
        {
          g_autofree char *label = accessible_property (widget, GTK_ACCESSIBLE_PROPERTY_LABEL);
          g_autofree char *description = accessible_property (widget, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);

          g_assert_cmpuint (strlen (label), >, 0);
          g_assert_cmpuint (strlen (description), >, 0);
          g_assert_true (gtk_widget_get_focusable (widget));
          g_ptr_array_add (found, widget);
        }
      for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
        g_ptr_array_add (queue, child);
    }
  g_ptr_array_unref (queue);

  return found;
}

/* @keyval typed on @widget, given the focus: the first binding of it
 * on the widget or an ancestor runs, as a key press bubbles up (GTK 4.8
 * has no public way to synthesize the event itself). */
static void
press_key (GtkWidget *widget,
           guint      keyval)
{
  g_assert_true (gtk_widget_grab_focus (widget));
  g_assert_true (gtk_widget_has_focus (widget));
  {
    g_autoptr(GtkShortcutTrigger) trigger = gtk_keyval_trigger_new (keyval, 0);
    gboolean done = FALSE;

    for (GtkWidget *w = widget; w != NULL && !done; w = gtk_widget_get_parent (w))
      {
        g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (w);

        for (guint i = 0; i < g_list_model_get_n_items (controllers) && !done; i++)
          {
            g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

            if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
              continue;
            for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)) && !done; j++)
              {
                g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);

                if (gtk_shortcut_trigger_equal (gtk_shortcut_get_trigger (shortcut), trigger) &&
                    GTK_IS_NAMED_ACTION (gtk_shortcut_get_action (shortcut)))
                  done = gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut), 0, w,
                                                       gtk_shortcut_get_arguments (shortcut));
              }
          }
      }
    g_assert_true (done);
  }
}

/* A window on a generated Poplar run's compile report and size -A
 * listing, its report shown; @width, @height: its default size, or 0 for
 * the one it keeps in its settings. */
static TesWindow *
open_compile_and_listing (Generated *g,
                          int        width,
                          int        height)
{
  g_autofree char *compile = generated_path (g, "compile_report.txt");
  g_autofree char *listing = generated_path (g, "archive_size.txt");
  g_autoptr(GFile) a = g_file_new_for_path (compile);
  g_autoptr(GFile) b = g_file_new_for_path (listing);
  TesWindow *window = g_object_ref (tes_window_new (NULL));

  if (width > 0)
    gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  tes_window_open_files (window, (GFile *[]) { a, b }, 2, NULL);
  tes_ui_test_wait_for_page (window, "report");

  return window;
}

/* A Poplar compile report lists vertex types (under "Memory · vertex
 * data · type") as keys hundreds of pixels long: the Summary shows them
 * shortened, so that they do not make the
 * window wider than the screen (it took 1,561 px for this run). */
static void
test_memory_window_summary_width (void)
{
  g_auto(Generated) g = { 0 };
  GtkWidget *summary;
  TesWindow *window;
  int minimum, natural, longest = 0;

  generate (&g, TES_TEST_OWN_DATA);
  window = open_compile_and_listing (&g, 0, 0);

  summary = gtk_stack_get_child_by_name (tes_window_get_sections (window), "TesSummarySection");
  g_assert_nonnull (summary);
  /* the report does hold such keys */
  {
    g_autoptr(GPtrArray) labels = tes_ui_test_find_widgets (window, GTK_TYPE_LABEL);

    for (guint i = 0; i < labels->len; i++)
      if (gtk_widget_is_ancestor (g_ptr_array_index (labels, i), summary) &&
          strstr (gtk_label_get_text (g_ptr_array_index (labels, i)), "popops::Reduce<") != NULL)
        {
          PangoLayout *layout = gtk_widget_create_pango_layout (g_ptr_array_index (labels, i),
                                                                gtk_label_get_text (g_ptr_array_index (labels, i)));
          int text_width;

          pango_layout_get_pixel_size (layout, &text_width, NULL);
          longest = MAX (longest, text_width);
          g_object_unref (layout);
        }
  }
  g_assert_cmpint (longest, >, 300);

  gtk_widget_measure (summary, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, NULL, NULL);
  g_assert_cmpint (minimum, <, 800);

  tes_ui_test_close_window (window);
}

/* A text report gives the histogram's counts, not each tile's bytes: a
 * bin picked says the count the histogram shows (1,380 tiles from 0 to
 * 4 KB, as profile_summary_sdk3_stdout.txt prints), and why none are
 * listed, not "0 tiles". */
static void
test_memory_window_printed_bin (void)
{
  g_autofree char *path = tes_test_copy_fixture (TES_TEST_OWN_DATA, "poplar/profile_summary_sdk3_stdout.txt");
  TesMemorySection *section;
  TesWindow *window;
  const char *text;

  window = tes_ui_test_open_window (path, NULL);
  tes_ui_test_wait_for_page (window, "report");
  section = TES_MEMORY_SECTION (gtk_stack_get_child_by_name (tes_window_get_sections (window), "TesMemorySection"));
  g_assert_nonnull (section);
  g_assert_true (tes_memory_section_select_bin (section, 0));
  text = tes_memory_section_get_listing (section);
  tes_test_assert_contains (text, "0 - 4 KB: 1,380 tiles");
  tes_test_assert_contains (text, "no tile’s bytes");
  g_assert_true (tes_memory_section_select_bin (section, 2));
  tes_test_assert_contains (tes_memory_section_get_listing (section), "8 - 12 KB: 1 tile\n");

  tes_ui_test_close_window (window);
}

/* The descendant of @widget drawn as a picture (accessible role img). */
static GtkWidget *
find_picture (GtkWidget *widget)
{
  if (gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (widget)) == GTK_ACCESSIBLE_ROLE_IMG)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_picture (child);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* The Memory page is as tall as its layout at the width it is given,
 * from its measure, before it is ever drawn (it used to set its height
 * from its draw function, and was 0 high until then). */
static void
test_memory_window_page_height (void)
{
  g_auto(Generated) g = { 0 };
  const TesMemoryModel *model;
  GtkWidget *section, *page;
  TesWindow *window;

  generate (&g, TES_TEST_OWN_DATA);
  window = open_compile_and_listing (&g, 1200, 800);
  section = gtk_stack_get_child_by_name (tes_window_get_sections (window), "TesMemorySection");
  g_assert_nonnull (section);
  g_assert_false (gtk_widget_get_mapped (section));
  model = tes_memory_section_get_model (TES_MEMORY_SECTION (section));
  g_assert_nonnull (model);
  page = find_picture (section);
  g_assert_nonnull (page);

  for (int width = 500; width <= 1500; width += 500)
    {
      cairo_surface_t *scratch = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 1, 1);
      cairo_t *cr = cairo_create (scratch);
      int expected = (int)ceil (tes_memory_render_model (cr, model, TES_MEMORY_VIEW_ALL, width, NULL));
      int minimum = -1, natural = -1;

      cairo_destroy (cr);
      cairo_surface_destroy (scratch);
      g_assert_cmpint (expected, >, 200);
      gtk_widget_measure (page, GTK_ORIENTATION_VERTICAL, width, &minimum, &natural, NULL, NULL);
      g_assert_cmpint (minimum, ==, expected);
      g_assert_cmpint (natural, ==, expected);
    }

  tes_ui_test_close_window (window);
}

/* The Memory section in the window, on a generated Poplar run: a click
 * on a histogram bin lists exactly its tiles; `tessera-cli render` draws
 * the same page. */
static void
test_memory_window_click (void)
{
  g_auto(Generated) g = { 0 };
  g_autoptr(GArray) rects = g_array_new (FALSE, FALSE, sizeof (TesMemoryBinRect));
  const TesMemoryModel *model;
  TesMemorySection *section;
  TesWindow *window;
  GtkWidget *page;
  cairo_surface_t *scratch;
  cairo_t *cr;
  int width, last_bin = -1;

  generate (&g, TES_TEST_OWN_DATA);
  window = open_compile_and_listing (&g, 1200, 800);

  section = TES_MEMORY_SECTION (gtk_stack_get_child_by_name (tes_window_get_sections (window), "TesMemorySection"));
  g_assert_nonnull (section);
  gtk_stack_set_visible_child (tes_window_get_sections (window), GTK_WIDGET (section));
  model = tes_memory_section_get_model (section);
  g_assert_nonnull (model);
  g_assert_cmpuint (model->n_over, ==, json_object_get_int_member (g.truth, "out_of_memory"));

  /* where the page drew the bins: the same layout, drawn aside */
  page = find_picture (GTK_WIDGET (section));
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
      g_autofree char *n_tiles = tes_format_grouped (bin->tiles);
      g_autofree char *expected = g_strdup_printf (" KB: %s tile", n_tiles);
      const char *text;

      if (bin->tiles == 0)
        continue;
      g_assert_true (tes_memory_section_click (section, rect->x + 10, rect->y + rect->height / 2));
      last_bin = (int)rect->bin;
      text = tes_memory_section_get_listing (section);
      tes_test_assert_contains (text, expected);
      /* one "ipu:tile (bytes)" per tile */
      {
        guint listed = 0;

        for (const char *p = text; (p = strstr (p, " B)")); p++)
          {
            /* its bytes grouped, as every figure of the window */
            const char *open = p;
            g_autofree char *figure = NULL;
            g_autoptr(GString) digits = g_string_new (NULL);
            g_autofree char *grouped = NULL;

            while (open > text && open[-1] != '(')
              open--;
            figure = g_strndup (open, p - open);
            for (const char *c = figure; *c; c++)
              if (*c != ',')
                g_string_append_c (digits, *c);
            grouped = tes_format_grouped (g_ascii_strtod (digits->str, NULL));
            g_assert_cmpstr (figure, ==, grouped);
            g_assert_cmpint (g_ascii_strtoll (digits->str, NULL, 10), >=, 1000);
            listed++;
          }
        g_assert_cmpuint (listed, ==, bin->tiles);
      }
    }
  g_assert_false (tes_memory_section_click (section, 2, 2));

  /* to assistive technologies: the page, labelled and described from
   * the truth's figures; ← and Enter list the bin before the last one
   * clicked */
  {
    g_autoptr(GPtrArray) pictures = assert_accessible_pictures (GTK_WIDGET (section));
    g_autofree char *label = accessible_property (page, GTK_ACCESSIBLE_PROPERTY_LABEL);
    g_autofree char *description = accessible_property (page, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
    JsonObject *top = json_array_get_object_element (truth_tiles (&g), (guint)json_array_get_int_element (
                                                       json_object_get_array_member (g.truth, "top_tiles"), 0));
    g_autofree char *n_tiles = tes_format_grouped (json_array_get_length (truth_tiles (&g)));
    g_autofree char *counts = g_strdup_printf ("%s tiles, %d out of memory", n_tiles,
                                               (int)json_object_get_int_member (g.truth, "out_of_memory"));
    g_autofree char *heaviest = g_strdup_printf ("most used tile %d:%d: %d KB", (int)json_object_get_int_member (top, "ipu"),
                                                 (int)json_object_get_int_member (top, "tile"),
                                                 (int)(json_object_get_int_member (top, "total") / 1024));
    const TesTileHistogramBin *bin;
    g_autoptr(GArray) tiles = NULL;
    g_autofree char *expected = NULL;

    g_assert_cmpuint (pictures->len, ==, 1);
    g_assert_true (g_ptr_array_index (pictures, 0) == page);
    g_assert_cmpstr (label, ==, "Memory by tile");
    tes_test_assert_contains (description, counts);
    tes_test_assert_contains (description, heaviest);

    g_assert_cmpint (last_bin, >, 0);
    press_key (page, GDK_KEY_Left);
    press_key (page, GDK_KEY_Return);
    bin = &g_array_index (model->histogram, TesTileHistogramBin, last_bin - 1);
    tiles = tes_memory_model_tiles_in (model, bin);
    expected = g_strdup_printf ("%" G_GINT64_FORMAT " - %" G_GINT64_FORMAT " KB: %u tile", bin->lower / 1024,
                                bin->upper / 1024, tiles->len);
    tes_test_assert_contains (tes_memory_section_get_listing (section), expected);
    g_clear_pointer (&description, g_free);
    description = accessible_property (page, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
    tes_test_assert_contains (description, expected);
  }

  tes_ui_test_close_window (window);
}

/* Once the stack's transition away from it is over. */
static gboolean
section_unmapped (gpointer data)
{
  return !gtk_widget_get_mapped (data);
}

/* A window on @path showing its Tile Balance. */
static TesTilesSection *
open_tiles_section (const char  *path,
                    TesWindow  **window)
{
  TesTilesSection *section;

  *window = tes_ui_test_open_window (path, NULL);
  tes_ui_test_wait_for_page (*window, "report");
  section = TES_TILES_SECTION (gtk_stack_get_child_by_name (tes_window_get_sections (*window), "TesTilesSection"));
  g_assert_nonnull (section);
  gtk_stack_set_visible_child (tes_window_get_sections (*window), GTK_WIDGET (section));

  return section;
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
  section = open_tiles_section (execution, &window);
  balances = tes_ui_test_wait_for_balances (section);
  g_assert_nonnull (balances);
  g_assert_cmpuint (balances->len, ==, g.n_ipus);
  for (guint s = 0; s < 4; s++)
    all += ((TesTileBalance *)g_ptr_array_index (balances, 0))->cycles[s];

  /* IPU 0's first step, alone: fewer tile-cycles */
  first = json_array_get_object_element (json_object_get_array_member (g.truth, "steps"), 0);
  workspace = tes_section_get_workspace (TES_SECTION (section));
  tes_workspace_get_span (workspace, &start, &end);
  tes_workspace_set_visible (workspace, start, start + 1000);
  balances = tes_ui_test_wait_for_balances (section);
  {
    gint64 narrowed = 0;

    for (guint s = 0; s < 4; s++)
      narrowed += ((TesTileBalance *)g_ptr_array_index (balances, 0))->cycles[s];
    g_assert_cmpint (narrowed, <, all);
    g_assert_cmpint (narrowed, ==, json_object_get_int_member (first, "dur") *
                                   json_object_get_int_member (g.truth, "tiles_per_ipu"));
  }

  /* the whole run again, to assistive technologies: IPU 0's shares and
   * its least and most busy tiles as the truth gives them; ↓ ↓ ↑ and
   * Enter select its least busy tile */
  tes_workspace_set_visible (workspace, start, end);
  balances = tes_ui_test_wait_for_balances (section);
  {
    GtkWidget *area = find_widget (GTK_WIDGET (section), TES_TYPE_CANVAS);
    g_autoptr(GPtrArray) pictures = assert_accessible_pictures (GTK_WIDGET (section));
    g_autofree char *label = accessible_property (area, GTK_ACCESSIBLE_PROPERTY_LABEL);
    g_autofree char *description = accessible_property (area, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
    guint tiles_per_ipu = (guint)json_object_get_int_member (g.truth, "tiles_per_ipu");
    g_autofree gint64 *busy = g_new0 (gint64, tiles_per_ipu);
    JsonArray *steps = json_object_get_array_member (g.truth, "steps");
    const TesTileBalance *ipu0 = g_ptr_array_index (balances, 0);
    gint64 compute = 0, total = 0, least = G_MAXINT64, most = 0;
    g_autofree char *share = NULL, *extremes = NULL, *selected = NULL, *chart = NULL;
    gint64 all_busy = 0;
    int least_tile = g_array_index (ipu0->least, TesTileActivity, 0).tile;

    for (guint i = 0; i < json_array_get_length (steps); i++)
      {
        JsonObject *step = json_array_get_object_element (steps, i);
        JsonArray *cycles = json_object_get_array_member (step, "cycles");

        if (json_object_get_int_member (step, "ipu") != 0)
          continue;
        total += json_object_get_int_member (step, "dur") * tiles_per_ipu;
        for (guint t = 0; t < tiles_per_ipu; t++)
          {
            busy[t] += json_array_get_int_element (cycles, t);
            if (g_str_equal (json_object_get_string_member (step, "state"), "compute"))
              compute += json_array_get_int_element (cycles, t);
          }
      }
    for (guint t = 0; t < tiles_per_ipu; t++)
      {
        least = MIN (least, busy[t]);
        most = MAX (most, busy[t]);
      }
    share = g_strdup_printf ("IPU 0 · %u tiles: Compute %.1f %%", tiles_per_ipu, 100.0 * compute / total);
    extremes = g_strdup_printf ("least busy tile %d, most busy tile %d", least_tile,
                                g_array_index (ipu0->most, TesTileActivity, 0).tile);

    g_assert_cmpuint (pictures->len, ==, 1);
    g_assert_true (g_ptr_array_index (pictures, 0) == area);
    g_assert_cmpstr (label, ==, "Tile balance");
    tes_test_assert_contains (description, share);
    tes_test_assert_contains (description, extremes);
    /* and its chart of every tile: the mean, lowest and highest busy share */
    for (guint t = 0; t < tiles_per_ipu; t++)
      all_busy += busy[t];
    chart = g_strdup_printf ("a chart of each one's busy share in order: mean %.1f %%, lowest %.1f %%, highest %.1f %%",
                             100.0 * all_busy / total, 100.0 * least * tiles_per_ipu / total,
                             100.0 * most * tiles_per_ipu / total);
    tes_test_assert_contains (description, chart);
    g_assert_cmpint (busy[least_tile], ==, least);
    g_assert_cmpint (busy[g_array_index (ipu0->most, TesTileActivity, 0).tile], ==, most);

    press_key (area, GDK_KEY_Down);
    press_key (area, GDK_KEY_Down);
    press_key (area, GDK_KEY_Up);
    press_key (area, GDK_KEY_Return);
    g_assert_cmpint (tes_workspace_get_ipu (workspace), ==, 0);
    g_assert_cmpint (tes_workspace_get_tile (workspace), ==, least_tile);
    g_clear_pointer (&description, g_free);
    description = accessible_property (area, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
    selected = g_strdup_printf ("Selected: IPU 0, tile %d,", least_tile);
    tes_test_assert_contains (description, selected);
  }

  /* hidden, it reads no steps while the range moves; shown, it catches up */
  {
    GtkWidget *summary = gtk_stack_get_child_by_name (tes_window_get_sections (window), "TesSummarySection");
    gint64 before = 0, after = 0;

    g_assert_nonnull (summary);
    gtk_stack_set_visible_child (tes_window_get_sections (window), summary);
    tes_ui_test_wait_until (section_unmapped, section, "the stack's transition to end");
    balances = tes_ui_test_wait_for_balances (section);
    tes_workspace_set_visible (workspace, start, start + 1000);
    g_assert_true (tes_ui_test_wait_for_balances (section) == balances);
    for (guint s = 0; s < 4; s++)
      before += ((TesTileBalance *)g_ptr_array_index (balances, 0))->cycles[s];
    gtk_stack_set_visible_child (tes_window_get_sections (window), GTK_WIDGET (section));
    balances = tes_ui_test_wait_for_balances (section);
    for (guint s = 0; s < 4; s++)
      after += ((TesTileBalance *)g_ptr_array_index (balances, 0))->cycles[s];
    g_assert_cmpint (before, ==, all);
    g_assert_cmpint (after, ==, json_object_get_int_member (first, "dur") *
                                json_object_get_int_member (g.truth, "tiles_per_ipu"));
  }

  tes_ui_test_close_window (window);
}

/* Tile Balance of a run that is not Poplar's: a qaic opstats trace's
 * cores, each busy while it or one of its HVX, HMX or DMA threads runs
 * (the union of their events, from the file itself), named as the trace
 * names them. */
static void
test_tiles_window_units (void)
{
  g_autofree char *trace = tes_test_copy_fixture (TES_TEST_OWN_DATA, "qaic/opstats_trace_mini.json");
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  TesTilesSection *section;
  GPtrArray *balances;
  JsonArray *events;
  TesWindow *window;
  gint64 expected[2] = { 0, 0 };

  /* per device (pid), the union of its core's events (tid 64 is the
   * device's P2P thread, not a core's) in ns */
  json_parser_load_from_file (parser, trace, &error);
  g_assert_no_error (error);
  events = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "traceEvents");
  for (gint64 pid = 0; pid < 2; pid++)
    {
      gint64 reach = G_MININT64;
      g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, 2 * sizeof (gint64));

      for (guint i = 0; i < json_array_get_length (events); i++)
        {
          JsonObject *e = json_array_get_object_element (events, i);
          gint64 span[2];

          if (!g_str_equal (json_object_get_string_member (e, "ph"), "X") ||
              json_object_get_int_member (e, "pid") != pid || json_object_get_int_member (e, "tid") == 64)
            continue;
          span[0] = (gint64)(json_object_get_double_member (e, "ts") * 1000);
          span[1] = span[0] + (gint64)(json_object_get_double_member (e, "dur") * 1000);
          g_array_append_vals (spans, span, 1);
        }
      g_array_sort (spans, compare_first);
      for (guint i = 0; i < spans->len; i++)
        {
          const gint64 *span = &g_array_index (spans, gint64, 2 * i);

          if (span[1] > reach)
            {
              expected[pid] += span[1] - MAX (span[0], reach);
              reach = span[1];
            }
        }
    }
  g_assert_cmpint (expected[0], >, 0);

  section = open_tiles_section (trace, &window);
  balances = tes_ui_test_wait_for_balances (section);
  g_assert_nonnull (balances);
  g_assert_cmpuint (balances->len, ==, 2);
  for (guint d = 0; d < 2; d++)
    {
      const TesTileBalance *balance = g_ptr_array_index (balances, d);
      const TesTileActivity *core = &g_array_index (balance->least, TesTileActivity, 0);

      g_assert_cmpuint (balance->n_tiles, ==, 1);
      g_assert_cmpint (tes_tile_activity_busy (core), ==, expected[d]);
      g_assert_cmpint (balance->cycles[TES_TILE_STATE_COMPUTE], ==, expected[d]);
      g_assert_cmpint (balance->cycles[TES_TILE_STATE_IDLE], >, 0);
    }
  {
    GtkWidget *area = find_widget (GTK_WIDGET (section), TES_TYPE_CANVAS);
    g_autofree char *description = accessible_property (area, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);

    tes_test_assert_contains (description, "QAic device 0 · 1 core: Busy");
    tes_test_assert_contains (description, "QAic device 1 · 1 core: Busy");
    tes_test_assert_contains (description, "least busy Core 0, most busy Core 0");
    press_key (area, GDK_KEY_Down);
    g_clear_pointer (&description, g_free);
    description = accessible_property (area, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
    tes_test_assert_contains (description, "Selected: QAic device 0, Core 0, ");
  }

  tes_ui_test_close_window (window);
}

/* Tile Balance of a Torq compile-time timeline's engines and of a
 * SigmaStar run's two cores: each unit busy for the union of its rows
 * (read from the file by test-units-util.c), the least and the most busy
 * named, "engines" or "cores" as the units are, and the device's bar the
 * union of its units' work. */
static void
test_tiles_window_engines (void)
{
  g_autofree char *torq = tes_test_copy_fixture (TES_TEST_OWN_DATA, "torq/timeline_v2.csv");
  g_autofree char *sigmastar = tes_test_write_sigmastar_two_cores ();
  const struct
  {
    const char *path;
    const char *title;
  } cases[] = {
    { torq, "Compile-time timeline · 6 engines: Busy (union of its units) " },
    { sigmastar, "SigmaStar IPU · 2 cores: Busy (union of its units) " },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_auto(TesTestUnits) expected = { 0 };
      const TesTestUnit *least = NULL, *most = NULL;
      const TesTileBalance *balance;
      TesTilesSection *section;
      GPtrArray *balances;
      TesWindow *window;
      GtkWidget *area;
      g_autofree char *description = NULL;
      g_autofree char *names = NULL;

      if (c == 0)
        tes_test_units_read_torq_timeline (&expected, cases[c].path);
      else
        tes_test_units_read_sigmastar (&expected, cases[c].path);
      for (guint i = 0; i < expected.units->len; i++)
        {
          const TesTestUnit *unit = g_ptr_array_index (expected.units, i);
          gint64 busy = tes_test_unit_busy (unit, G_MININT64, G_MAXINT64);

          if (least == NULL || busy < tes_test_unit_busy (least, G_MININT64, G_MAXINT64))
            least = unit;
          if (most == NULL || busy > tes_test_unit_busy (most, G_MININT64, G_MAXINT64))
            most = unit;
        }

      section = open_tiles_section (cases[c].path, &window);
      balances = tes_ui_test_wait_for_balances (section);
      g_assert_nonnull (balances);
      g_assert_cmpuint (balances->len, ==, 1);
      balance = g_ptr_array_index (balances, 0);
      g_assert_cmpuint (balance->n_tiles, ==, expected.units->len);
      for (guint i = 0; i < balance->least->len; i++)
        {
          const TesTileActivity *row = &g_array_index (balance->least, TesTileActivity, i);
          TesReport *report = tes_workspace_get_report (tes_section_get_workspace (TES_SECTION (section)));
          const TesTestUnit *unit = tes_test_units_find (&expected, tes_report_get_track (report, row->track_id)->name);

          g_assert_nonnull (unit);
          g_assert_cmpint (tes_tile_activity_busy (row), ==, tes_test_unit_busy (unit, G_MININT64, G_MAXINT64));
        }
      /* the device's bar: its own busy time, the union of its units'
       * (SigmaStar: core 0 at 0-150 and 200-300 µs, core 1 at 20-110 and
       * 300-340 µs, 290 µs in all, less than their 380 µs summed) */
      g_assert_true (balance->has_union);
      if (c == 1)
        g_assert_cmpint (balance->union_cycles[TES_TILE_STATE_COMPUTE], ==, 290000);

      area = find_widget (GTK_WIDGET (section), TES_TYPE_CANVAS);
      description = accessible_property (area, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
      tes_test_assert_contains (description, cases[c].title);
      g_assert_null (strstr (description, "Exchange"));
      names = g_strdup_printf ("least busy %s, most busy %s", least->name, most->name);
      tes_test_assert_contains (description, names);
      if (c == 0)
        {
          /* busy time in the trace's unit: the timeline's cycles (10 ns) */
          g_autofree char *selected = g_strdup_printf ("Selected: Compile-time timeline, %s, %" G_GINT64_FORMAT " cycles busy",
                                                       least->name, tes_test_unit_busy (least, G_MININT64, G_MAXINT64) / 10);

          g_assert_cmpint (tes_test_unit_busy (least, G_MININT64, G_MAXINT64), <, 10000);   /* no digit groups */
          press_key (area, GDK_KEY_Down);
          g_clear_pointer (&description, g_free);
          description = accessible_property (area, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
          tes_test_assert_contains (description, selected);
        }

      tes_ui_test_close_window (window);
    }
}

/* The ranks of one job (HTA's sampled_rank-0 and -1, opened as their
 * folder): a balance per rank's GPU, its five streams, titled after the
 * rank; each stream's busy time is checked against Python's json by
 * test-ranks.py (tessera-cli tiles). */
static void
test_tiles_window_ranks (void)
{
  g_autofree char *src0 = tes_test_data_path ("kineto/sampled_rank-0.json.gz");
  g_autofree char *src1 = tes_test_data_path ("kineto/sampled_rank-1.json.gz");
  g_autofree char *rank0 = tes_test_copy_to_tmp (src0, "sampled_rank-0.json.gz");
  g_autofree char *rank1 = tes_test_copy_to_tmp (src1, "sampled_rank-1.json.gz");
  g_autofree char *folder = g_path_get_dirname (rank0);
  g_autofree char *description = NULL;
  TesTilesSection *section;
  TesWindow *window;
  GPtrArray *balances;
  GtkWidget *area;

  section = open_tiles_section (folder, &window);
  balances = tes_ui_test_wait_for_balances (section);
  g_assert_nonnull (balances);
  g_assert_cmpuint (balances->len, ==, 2);
  for (guint i = 0; i < balances->len; i++)
    g_assert_cmpuint (((TesTileBalance *)g_ptr_array_index (balances, i))->n_tiles, ==, 5);

  area = find_widget (GTK_WIDGET (section), TES_TYPE_CANVAS);
  description = accessible_property (area, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
  tes_test_assert_contains (description, "Rank 0 · GPU 0 · 5 streams");

  tes_ui_test_close_window (window);
}

/* The BSP heatmap on a generated run: one block per IPU with its tiles,
 * each cell coloured by the state the truth gives that tile in that step
 * at that time (all tiles start the step together: at the step's middle,
 * a tile busy more than half the step is in its state, else idle); a
 * click selects the step under it; + magnifies the rows. */
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
  gint64 t0, t1, sel0, sel1;
  int width = 1400, height;
  cairo_surface_t *surface, *by_cycles;
  g_autoptr(GArray) shades = g_array_new (FALSE, FALSE, 2 * sizeof (double));
  cairo_t *cr;
  graphene_rect_t rect;

  generate (&g, TES_TEST_OWN_DATA);
  execution = generated_path (&g, "execution.json");
  window = tes_ui_test_open_window (execution, NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  tes_ui_test_wait_for_page (window, "report");

  section = TES_BSP_SECTION (gtk_stack_get_child_by_name (tes_window_get_sections (window), "TesBspSection"));
  g_assert_nonnull (section);
  gtk_stack_set_visible_child (tes_window_get_sections (window), GTK_WIDGET (section));
  ipus = tes_ui_test_wait_for_ipus (section);

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
  g_assert_true (tes_bsp_render (workspace, ipus, TES_BSP_COLOR_STATE, cr, width, height));
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  rect = tes_bsp_heat_rect (0, ipus->len, width, height);
  /* the same, coloured by cycles */
  by_cycles = cairo_image_surface_create (CAIRO_FORMAT_RGB24, width, height);
  cr = cairo_create (by_cycles);
  g_assert_true (tes_bsp_render (workspace, ipus, TES_BSP_COLOR_CYCLES, cr, width, height));
  cairo_destroy (cr);
  cairo_surface_flush (by_cycles);
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
          guint32 pixel = tes_test_pixel (surface, (int)((x0 + x1) / 2), y);

          /* where the tile stops, too near the middle column to tell */
          if (ABS ((double)busy / dur - 0.5) * (x1 - x0) < 2)
            continue;
          if (busy * 2 > dur)
            expected = g_str_equal (state, "compute") ? TES_TILE_STATE_COMPUTE :
                       g_str_equal (state, "exchange") ? TES_TILE_STATE_EXCHANGE : TES_TILE_STATE_SYNC;
          g_assert_cmphex (pixel, ==, tes_tile_state_color (expected));
          checked++;

          /* by cycles: the scale's dark end for none, lighter for more
           * (at the middle: busy all the column past half the step) */
          {
            guint32 c = tes_test_pixel (by_cycles, (int)((x0 + x1) / 2), y);
            double luma = 0.2126 * (c >> 16) + 0.7152 * ((c >> 8) & 0xff) + 0.0722 * (c & 0xff);
            double pair[2] = { (double)busy / dur, luma };

            if (busy * 2 < dur)
              g_assert_cmphex (c, ==, tes_bsp_cycles_color (0, 1));
            g_array_append_vals (shades, pair, 1);
          }
        }
    }

  /* through a recording surface, as the window's snapshot draws: the
   * cells painted from a picture of their own rather than written into
   * the target, pixel for pixel the same */
  for (guint by = 0; by < 2; by++)
    {
      cairo_surface_t *recording = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, NULL);
      cairo_surface_t *replayed = cairo_image_surface_create (CAIRO_FORMAT_RGB24, width, height);
      cairo_t *replay;

      cr = cairo_create (recording);
      g_assert_true (tes_bsp_render (workspace, ipus, by ? TES_BSP_COLOR_CYCLES : TES_BSP_COLOR_STATE, cr, width, height));
      cairo_destroy (cr);
      replay = cairo_create (replayed);
      cairo_set_source_surface (replay, recording, 0, 0);
      cairo_paint (replay);
      cairo_destroy (replay);
      cairo_surface_flush (replayed);
      g_assert_cmpuint (tes_test_count_differing (replayed, by ? by_cycles : surface, 0, 0, width, height), ==, 0);
      cairo_surface_destroy (replayed);
      cairo_surface_destroy (recording);
    }
  cairo_surface_destroy (surface);

  /* tessera-cli render --view bsp-cycles: the same cells */
  {
    g_auto(TesCliResult) cli = { 0 };
    g_autofree char *png = tes_test_tmp_path ("bsp-cycles.png");
    g_autofree char *w = g_strdup_printf ("%d", width), *h = g_strdup_printf ("%d", height);
    cairo_surface_t *drawn;
    guint differ = 0;

    tes_test_run_cli (&cli, "render", "--view", "bsp-cycles", "--width", w, "--height", h, "--out", png, execution,
                      NULL);
    g_assert_cmpint (cli.status, ==, 0);
    drawn = cairo_image_surface_create_from_png (png);
    g_assert_cmpint (cairo_surface_status (drawn), ==, CAIRO_STATUS_SUCCESS);
    for (guint i = 0; i < ipus->len; i++)
      {
        graphene_rect_t heat = tes_bsp_heat_rect (i, ipus->len, width, height);

        differ += tes_test_count_differing (drawn, by_cycles, (int)heat.origin.x, (int)heat.origin.y,
                                            (int)(heat.origin.x + heat.size.width),
                                            (int)(heat.origin.y + heat.size.height));
      }
    g_assert_cmpuint (differ, ==, 0);
    cairo_surface_destroy (drawn);
  }
  cairo_surface_destroy (by_cycles);
  /* busy longer never darker, and the busiest far lighter than idle */
  g_array_sort (shades, compare_first);
  for (guint i = 1; i < shades->len; i++)
    g_assert_cmpfloat (g_array_index (shades, double, 2 * i + 1), >=, g_array_index (shades, double, 2 * i - 1) - 1);
  g_assert_cmpfloat (g_array_index (shades, double, 2 * shades->len - 1), >, g_array_index (shades, double, 1) + 100);
  g_assert_cmpuint (checked, >, tiles_per_ipu * 10);

  /* the window shows what tes_bsp_render () draws at its size: its
   * canvas draws into an image shown as a texture, pixel for pixel */
  {
    GtkWidget *area = find_widget (GTK_WIDGET (section), TES_TYPE_CANVAS);
    g_auto(TesPixels) shown = { 0 };
    cairo_surface_t *expected;
    guint differ = 0;

    tes_ui_test_wait_for_stable_size (GTK_WIDGET (section));
    /* the canvas draws over its last images without clearing them: by
     * cycles first, twice (both images), then by state, every pixel of
     * which must be the state frame's */
    tes_bsp_section_set_coloring (section, TES_BSP_COLOR_CYCLES);
    for (guint i = 0; i < 2; i++)
      {
        g_auto(TesPixels) cycles_shown = { 0 };

        tes_ui_test_render_now (area, &cycles_shown);
      }
    tes_bsp_section_set_coloring (section, TES_BSP_COLOR_STATE);
    tes_ui_test_render_now (area, &shown);
    expected = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, shown.width, shown.height);
    cr = cairo_create (expected);
    g_assert_true (tes_bsp_render (workspace, ipus, TES_BSP_COLOR_STATE, cr, shown.width, shown.height));
    cairo_destroy (cr);
    cairo_surface_flush (expected);
    for (int y = 0; y < shown.height; y++)
      differ += memcmp (tes_ui_test_pixel_at (&shown, 0, y),
                        cairo_image_surface_get_data (expected) + (gsize)y * cairo_image_surface_get_stride (expected),
                        (gsize)shown.width * 4) != 0;
    g_assert_cmpuint (differ, ==, 0);
    cairo_surface_destroy (expected);
  }

  /* a click on IPU 0's fourth step selects it */
  {
    GtkWidget *area = find_widget (GTK_WIDGET (section), TES_TYPE_CANVAS);
    const TesBspSpan *span = &g_array_index (ipu0->spans, TesBspSpan, 3);
    double w, h, x;
    graphene_rect_t shown;

    tes_ui_test_wait_for_stable_size (GTK_WIDGET (section));
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

    /* to assistive technologies: one picture, labelled, describing the
     * steps in view and the cell the click selected (tile 0, step 3) */
    {
      g_autoptr(GPtrArray) pictures = assert_accessible_pictures (GTK_WIDGET (section));
      g_autofree char *label = accessible_property (area, GTK_ACCESSIBLE_PROPERTY_LABEL);
      g_autofree char *description = accessible_property (area, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
      g_autofree char *in_view = g_strdup_printf ("IPU 0: %u tiles, %u of %u steps in view", tiles_per_ipu,
                                                  n_steps_ipu0, n_steps_ipu0);
      g_autofree char *cell = expected_cell (truth_step (steps, 0, 3), 0);

      g_assert_cmpuint (pictures->len, ==, 1);
      g_assert_true (g_ptr_array_index (pictures, 0) == area);
      g_assert_cmpstr (label, ==, "BSP heatmap");
      tes_test_assert_contains (description, in_view);
      tes_test_assert_contains (description, cell);
    }

    /* the keys: → the next step, ↓ the next tile, Enter selects it */
    press_key (area, GDK_KEY_Right);
    press_key (area, GDK_KEY_Down);
    press_key (area, GDK_KEY_Down);
    press_key (area, GDK_KEY_Up);
    press_key (area, GDK_KEY_Return);
    {
      const TesBspSpan *next = &g_array_index (ipu0->spans, TesBspSpan, 4);
      g_autofree char *description = accessible_property (area, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
      g_autofree char *cell = expected_cell (truth_step (steps, 0, 4), 1);

      g_assert_true (tes_workspace_get_selection (workspace, &sel0, &sel1));
      g_assert_cmpint (sel0, ==, next->start);
      g_assert_cmpint (sel1, ==, next->end);
      g_assert_cmpint (tes_workspace_get_step (workspace), ==,
                       json_object_get_int_member (truth_step (steps, 0, 4), "step"));
      g_assert_cmpint (tes_workspace_get_tile (workspace), ==, 1);
      tes_test_assert_contains (description, cell);
    }
    /* down past IPU 0's last tile: IPU 1's first */
    for (guint i = 0; i < tiles_per_ipu - 1; i++)
      press_key (area, GDK_KEY_Down);
    press_key (area, GDK_KEY_Return);
    g_assert_cmpint (tes_workspace_get_ipu (workspace), ==, 1);
    g_assert_cmpint (tes_workspace_get_tile (workspace), ==, 0);

    /* the toggle colours by cycles */
    {
      GtkWidget *button = find_widget (GTK_WIDGET (section), GTK_TYPE_TOGGLE_BUTTON);

      g_assert_cmpint (tes_bsp_section_get_coloring (section), ==, TES_BSP_COLOR_STATE);
      button = gtk_widget_get_next_sibling (button);
      g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (button)), ==, "Cycles");
      gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (button), TRUE);
      g_assert_cmpint (tes_bsp_section_get_coloring (section), ==, TES_BSP_COLOR_CYCLES);
      tes_bsp_section_set_coloring (section, TES_BSP_COLOR_STATE);
      g_assert_false (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (button)));
    }

    /* + twice: rows four times as tall, the view scrolls; 0 resets */
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (section), "bsp.magnify", "d", 2.0));
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (section), "bsp.magnify", "d", 2.0));
    g_assert_cmpfloat (tes_bsp_section_get_magnify (section), ==, 4);
    tes_ui_test_wait_for_stable_size (area);
    {
      GtkWidget *bar = find_widget (GTK_WIDGET (section), GTK_TYPE_SCROLLBAR);
      GtkAdjustment *adjustment = gtk_scrollbar_get_adjustment (GTK_SCROLLBAR (bar));

      g_assert_true (gtk_widget_get_visible (bar));
      g_assert_cmpfloat (gtk_adjustment_get_upper (adjustment), >=, 3.5 * h);
    }
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
  tes_ui_test_add ("/tes/memory-window/page-height", test_memory_window_page_height);
  tes_ui_test_add ("/tes/memory-window/printed-bin", test_memory_window_printed_bin);
  tes_ui_test_add ("/tes/memory-window/summary-width", test_memory_window_summary_width);
  tes_ui_test_add ("/tes/tiles-window/follows", test_tiles_window_follows);
  tes_ui_test_add ("/tes/tiles-window/units", test_tiles_window_units);
  tes_ui_test_add ("/tes/tiles-window/engines", test_tiles_window_engines);
  tes_ui_test_add ("/tes/tiles-window/ranks", test_tiles_window_ranks);
  tes_ui_test_add ("/tes/bsp-window/heatmap", test_bsp_window_heatmap);

  return tes_ui_test_run ();
}
