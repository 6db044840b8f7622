/* test-accessibility.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "tes-canvas.h"
#include "tes-compare-overview.h"
#include "tes-compare-section.h"
#include "tes-importer-registry.h"
#include "tes-insights-section.h"
#include "tes-row-item.h"
#include "tes-share-chart.h"
#include "tes-summary-section.h"
#include "tes-test-util.h"
#include "tes-trace-section.h"
#include "tes-ui-test-util.h"
#include "test-insights-util.h"

/* What assistive technologies see of the Summary and the Execution Trace,
 * on the trace tes_test_write_trace() writes: every custom widget and
 * every control without text has a role and a name, the drawn views
 * describe what they show and follow it, and the keyboard alone moves
 * their selection. GTK's test accessibility backend (GTK_A11Y=test) keeps
 * what the widgets tell; GTK 4.8 has no getter for it but
 * gtk_test_accessible_check_property(), which returns the value it found
 * when that is not the one asked for. */

typedef struct
{
  TesWindow    *window;
  TesWorkspace *workspace;
  TesReport    *report;
} Fixture;

static TesSection *
fixture_show (Fixture    *f,
              const char *section_name)
{
  GtkStack *sections = tes_window_get_sections (f->window);
  GtkWidget *section = gtk_stack_get_child_by_name (sections, section_name);

  g_assert_nonnull (section);
  gtk_stack_set_visible_child (sections, section);
  tes_ui_test_wait_for_stable_size (section);

  return TES_SECTION (section);
}

static void
fixture_open (Fixture *f)
{
  g_autofree char *path = tes_test_write_trace ("a11y-trace.json");
  TesSection *summary;

  f->window = tes_ui_test_open_window (path, NULL);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1200, 800);
  tes_ui_test_wait_for_page (f->window, "report");
  summary = fixture_show (f, "TesSummarySection");
  f->workspace = tes_section_get_workspace (summary);
  f->report = tes_workspace_get_report (f->workspace);
}

/* The accessible property's value as GTK's test backend prints it; NULL
 * when the widget never set it. */
static char *
dup_property (gpointer              widget,
              GtkAccessibleProperty property)
{
  if (!gtk_test_accessible_has_property (GTK_ACCESSIBLE (widget), property))
    return NULL;

  /* no name or description is this: what was found comes back */
  return gtk_test_accessible_check_property (GTK_ACCESSIBLE (widget), property, "\x01");
}

/* Spins until the widget's description holds @needle (descriptions
 * follow their widget from an idle). */
static char *
wait_for_description (gpointer    widget,
                      const char *needle)
{
  gint64 deadline = g_get_monotonic_time () + TES_UI_TEST_WAIT_SECONDS * G_USEC_PER_SEC;

  for (;;)
    {
      g_autofree char *description = dup_property (widget, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);

      if (description != NULL && strstr (description, needle) != NULL)
        return g_steal_pointer (&description);
      if (g_get_monotonic_time () > deadline)
        g_error ("The %s's description never said “%s”: it says “%s”", G_OBJECT_TYPE_NAME (widget), needle,
                 description ? description : "(nothing)");
      tes_ui_test_spin (20);
    }
}

static GtkWidget *find_first (GtkWidget *root,
                              GType      type);

/* A control shows no text of its own: an icon button, a drop-down. A
 * menu button's inner toggle is the menu button's, checked there. */
static gboolean
has_no_text (GtkWidget *widget)
{
  if (GTK_IS_MENU_BUTTON (gtk_widget_get_parent (widget)))
    return FALSE;
  if (GTK_IS_MENU_BUTTON (widget))
    return gtk_menu_button_get_label (GTK_MENU_BUTTON (widget)) == NULL;
  if (GTK_IS_BUTTON (widget) && !GTK_IS_CHECK_BUTTON (widget))
    return gtk_button_get_child (GTK_BUTTON (widget)) == NULL ||
           find_first (gtk_button_get_child (GTK_BUTTON (widget)), GTK_TYPE_LABEL) == NULL;

  return GTK_IS_DROP_DOWN (widget);
}

/* Walks a section's tree (a widget's accessible children are its
 * children in GTK 4.8) and checks that what a screen reader cannot name
 * from text has a role and a label. Returns how many it checked. */
static guint
walk (GtkWidget *widget,
      GString   *problems)
{
  const char *type = G_OBJECT_TYPE_NAME (widget);
  gboolean custom = g_str_has_prefix (type, "Tes");
  guint checked = 0;

  if (!gtk_widget_get_visible (widget))
    return 0;

  /* drop-downs and menu buttons are focused through an inner button */
  if (custom || GTK_IS_DRAWING_AREA (widget) || GTK_IS_COLUMN_VIEW (widget) ||
      ((gtk_widget_get_focusable (widget) || GTK_IS_DROP_DOWN (widget) || GTK_IS_MENU_BUTTON (widget)) &&
       has_no_text (widget)))
    {
      GtkAccessibleRole role = gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (widget));
      g_autofree char *label = dup_property (widget, GTK_ACCESSIBLE_PROPERTY_LABEL);

      /* what a custom widget draws itself, not a container of others */
      gboolean drawn = custom && gtk_widget_get_first_child (widget) == NULL;

      checked++;
      if ((drawn || !custom) &&
          (role == GTK_ACCESSIBLE_ROLE_GENERIC || role == GTK_ACCESSIBLE_ROLE_WIDGET ||
           role == GTK_ACCESSIBLE_ROLE_NONE || role == GTK_ACCESSIBLE_ROLE_PRESENTATION))
        g_string_append_printf (problems, "a %s has no role of its own (%d)\n", type, role);
      if (label == NULL || *label == '\0')
        g_string_append_printf (problems, "a %s has no label\n", type);
      /* the drawn views are operable by keyboard alone */
      if (drawn && !gtk_widget_get_focusable (widget))
        g_string_append_printf (problems, "a %s cannot take the focus\n", type);
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    checked += walk (child, problems);

  return checked;
}

static void
assert_tree_named (GtkWidget *section,
                   guint      at_least)
{
  g_autoptr(GString) problems = g_string_new (NULL);
  guint checked = walk (section, problems);

  if (problems->len > 0)
    g_error ("In the %s:\n%s", G_OBJECT_TYPE_NAME (section), problems->str);
  g_assert_cmpuint (checked, >=, at_least);
}

/* What a key does where the focus is, as the widget's own key controller
 * gets it (once done). */
static gboolean
press (gpointer widget,
       guint    keyval)
{
  gboolean handled = tes_ui_test_press_key_controller (GTK_WIDGET (widget), keyval);

  /* the trace looks for the slice an arrow goes to in a thread */
  while (TES_IS_TRACE_VIEW (widget) && tes_trace_view_is_stepping (widget))
    g_main_context_iteration (NULL, TRUE);

  return handled;
}

static GtkWidget *
find_first (GtkWidget *root,
            GType      type)
{
  g_autoptr(GPtrArray) found = g_ptr_array_new ();

  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *hit = find_first (child, type);

      if (hit != NULL)
        return hit;
    }

  return NULL;
}

/* The stack with a page named @name: the trace's Details and Summary tabs. */
static GtkWidget *
find_stack_with (GtkWidget  *root,
                 const char *name)
{
  if (GTK_IS_STACK (root) && gtk_stack_get_child_by_name (GTK_STACK (root), name) != NULL)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *hit = find_stack_with (child, name);

      if (hit != NULL)
        return hit;
    }

  return NULL;
}

/* The selected slice's name and track, from the workspace. */
static const char *
selected_name (Fixture *f,
               gint64  *track_id)
{
  const TesSliceRef *refs;
  guint n = 0;
  g_autoptr(GArray) slices = NULL;
  const TesTrack *track;

  refs = tes_workspace_get_selected_slices (f->workspace, &n);
  g_assert_cmpuint (n, ==, 1);
  track = tes_report_get_track (f->report, refs[0].track_id);
  slices = tes_report_get_slices (f->report, track->id, track->t_min, track->t_max, NULL);
  *track_id = track->id;
  for (guint i = 0; i < slices->len; i++)
    if (g_array_index (slices, TesSlice, i).index == refs[0].index)
      return tes_report_get_string (f->report, g_array_index (slices, TesSlice, i).name);

  g_assert_not_reached ();
}

static const char *
track_path (Fixture *f,
            gint64   track_id)
{
  static char path[128];
  const TesTrack *track = tes_report_get_track (f->report, track_id);
  const TesTrack *up = tes_report_get_track (f->report, track->parent_id);

  g_snprintf (path, sizeof path, "%s/%s", up ? up->name : "", track->name);
  return path;
}

/* The sections have roles and their titles as names, and every control
 * without text of the Summary and the trace a label. */
static void
test_a11y_tree (void)
{
  Fixture f = { 0 };
  TesSection *summary, *trace;
  GtkWidget *stack;

  fixture_open (&f);

  /* the header bar's controls: Open, Open Recent, the main menu */
  assert_tree_named (gtk_window_get_titlebar (GTK_WINDOW (f.window)), 2);

  summary = fixture_show (&f, "TesSummarySection");
  gtk_test_accessible_assert_role (summary, GTK_ACCESSIBLE_ROLE_GROUP);
  gtk_test_accessible_assert_property (summary, GTK_ACCESSIBLE_PROPERTY_LABEL, "Summary");
  /* the section, its chart, the operators' table */
  assert_tree_named (GTK_WIDGET (summary), 3);

  trace = fixture_show (&f, "TesTraceSection");
  gtk_test_accessible_assert_role (trace, GTK_ACCESSIBLE_ROLE_GROUP);
  gtk_test_accessible_assert_property (trace, GTK_ACCESSIBLE_PROPERTY_LABEL, "Execution Trace");
  gtk_test_accessible_assert_property (tes_trace_section_get_view (TES_TRACE_SECTION (trace)),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL, "Execution trace");
  /* the section, the view, the unit, two match buttons and the menu of
   * steps of ten, the keys' button, the statistics, the devices' bars (a
   * stack's pages are all in the tree; the durations histogram shows once
   * a slice is chosen) */
  assert_tree_named (GTK_WIDGET (trace), 9);

  /* the Summary tab's drawing says what it draws, per device */
  stack = find_stack_with (GTK_WIDGET (trace), "summary");
  gtk_stack_set_visible_child_name (GTK_STACK (stack), "summary");
  {
    GtkWidget *area = find_first (gtk_stack_get_child_by_name (GTK_STACK (stack), "summary"),
                                  TES_TYPE_CANVAS);
    g_autofree char *description = wait_for_description (area, "Device A:");

    tes_test_assert_contains (description, "Device B: sync 100.0 %");
  }

  tes_ui_test_close_window (f.window);
}

/* The trace view: its description follows the range, the lanes and the
 * selection; arrows move the selection from slice to slice and lane to
 * lane; Enter shows the slice's details. */
static void
test_a11y_trace_keys (void)
{
  Fixture f = { 0 };
  TesTraceSection *section;
  TesTraceView *view;
  g_autofree char *description = NULL;
  g_autofree char *lanes = NULL;
  g_autofree char *details = NULL;
  gint64 track = 0, first_track;
  guint n_lanes;

  fixture_open (&f);
  section = TES_TRACE_SECTION (fixture_show (&f, "TesTraceSection"));
  view = tes_trace_section_get_view (section);
  g_assert_true (gtk_widget_get_focusable (GTK_WIDGET (view)));
  gtk_test_accessible_assert_role (view, GTK_ACCESSIBLE_ROLE_GROUP);

  n_lanes = tes_ui_test_trace_frame (view)->lanes->len;
  lanes = g_strdup_printf ("%u lanes", n_lanes);
  description = wait_for_description (view, "No slice selected");
  tes_test_assert_contains (description, lanes);

  /* without a selection Left pans, as before; Down selects in the first
   * lane with slices the one nearest the middle of the view: add, of
   * Device A's core 0 (conv, dma, add) */
  g_assert_false (press (view, GDK_KEY_Left));
  g_assert_true (press (view, GDK_KEY_Down));
  g_assert_cmpstr (selected_name (&f, &track), ==, "add");
  g_assert_cmpstr (track_path (&f, track), ==, "Device A/core 0");
  first_track = track;
  g_clear_pointer (&description, g_free);
  description = wait_for_description (view, "Selected: add, at 200.000 µs, lasting 300.000 µs");

  /* Left and Right: the lane's slices in start order; past the last one
   * the selection stays */
  g_assert_true (press (view, GDK_KEY_Left));
  g_assert_cmpstr (selected_name (&f, &track), ==, "dma");
  g_assert_true (press (view, GDK_KEY_Left));
  g_assert_cmpstr (selected_name (&f, &track), ==, "conv");
  g_assert_true (press (view, GDK_KEY_Left));
  g_assert_cmpstr (selected_name (&f, &track), ==, "conv");
  g_assert_true (press (view, GDK_KEY_Right));
  g_assert_cmpstr (selected_name (&f, &track), ==, "dma");
  g_assert_cmpint (track, ==, first_track);
  g_clear_pointer (&description, g_free);
  description = wait_for_description (view, "Selected: dma");

  /* Down: the next lane's slice nearest the same moment, then Device B's */
  g_assert_true (press (view, GDK_KEY_Down));
  g_assert_cmpstr (selected_name (&f, &track), ==, "tiny");
  g_assert_cmpstr (track_path (&f, track), ==, "Device A/core 1");
  g_assert_true (press (view, GDK_KEY_Down));
  g_assert_cmpstr (selected_name (&f, &track), ==, "sync");
  g_assert_cmpstr (track_path (&f, track), ==, "Device B/core 0");
  g_assert_true (press (view, GDK_KEY_Up));
  g_assert_cmpstr (selected_name (&f, &track), ==, "tiny");
  g_assert_cmpstr (track_path (&f, track), ==, "Device A/core 1");
  g_assert_true (press (view, GDK_KEY_Down));
  g_clear_pointer (&description, g_free);
  description = wait_for_description (view, "Selected: sync, at 500.000 µs, lasting 500.000 µs");

  /* in the Flame view rows are depths: from conv, Down is dma inside it,
   * Right at that depth has nothing further in the lane */
  tes_trace_view_set_mode (view, TES_TRACE_FLAME);
  tes_ui_test_wait_for_stable_size (GTK_WIDGET (view));
  g_assert_true (press (view, GDK_KEY_Up));
  g_assert_true (press (view, GDK_KEY_Up));
  /* core 0's lower row holds dma alone */
  g_assert_cmpstr (selected_name (&f, &track), ==, "dma");
  g_assert_cmpstr (track_path (&f, track), ==, "Device A/core 0");
  g_assert_true (press (view, GDK_KEY_Up));
  g_assert_cmpstr (selected_name (&f, &track), ==, "conv");
  g_assert_true (press (view, GDK_KEY_Down));
  g_assert_cmpstr (selected_name (&f, &track), ==, "dma");
  g_assert_cmpstr (track_path (&f, track), ==, "Device A/core 0");
  g_assert_true (press (view, GDK_KEY_Right));
  g_assert_cmpstr (selected_name (&f, &track), ==, "dma");
  g_assert_true (press (view, GDK_KEY_Up));
  g_assert_cmpstr (selected_name (&f, &track), ==, "conv");
  g_assert_true (press (view, GDK_KEY_Right));
  g_assert_cmpstr (selected_name (&f, &track), ==, "add");
  tes_trace_view_set_mode (view, TES_TRACE_FLAT);
  while (g_strcmp0 (selected_name (&f, &track), "sync") != 0)
    g_assert_true (press (view, GDK_KEY_Down));
  g_clear_pointer (&description, g_free);
  description = wait_for_description (view, "Selected: sync");

  /* zooming: the range in the description follows, as the toolbar says it */
  {
    g_autofree char *before = g_strndup (description, strstr (description, ". ") - description);
    gint64 deadline = g_get_monotonic_time () + TES_UI_TEST_WAIT_SECONDS * G_USEC_PER_SEC;

    g_assert_true (g_str_has_prefix (before, "From "));
    g_assert_true (tes_ui_test_has_label_containing (f.window, before));
    tes_trace_view_zoom (view, 0.5);
    for (;;)
      {
        g_autofree char *now = dup_property (view, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
        g_autofree char *range = g_strndup (now, strstr (now, ". ") - now);

        if (!g_str_equal (range, before))
          {
            g_assert_true (tes_ui_test_has_label_containing (f.window, range));
            break;
          }
        g_assert_cmpint (g_get_monotonic_time (), <, deadline);
        tes_ui_test_spin (20);
      }
  }

  /* Enter: the Details tab, focused, on the selected slice */
  g_assert_true (press (view, GDK_KEY_Return));
  details = tes_trace_section_dup_details (section);
  tes_test_assert_contains (details, "sync\n");
  {
    GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (f.window));

    g_assert_true (GTK_IS_LABEL (focus));
    g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (focus)), ==, details);
    g_assert_true (gtk_widget_get_mapped (focus));
  }

  /* a slice another view selected: the view says no more than how many,
   * and the arrows start afresh (Left pans again) */
  {
    TesSliceRef other = { first_track, 0 };

    tes_workspace_set_selected_slices (f.workspace, &other, 1);
    g_clear_pointer (&description, g_free);
    description = wait_for_description (view, "1 slice selected");
    g_assert_false (press (view, GDK_KEY_Left));
  }

  tes_ui_test_close_window (f.window);
}

/* The share chart: Up and Down select a bar, its description says which,
 * Enter lists that type's operators in the table. */
static void
test_a11y_share_chart (void)
{
  Fixture f = { 0 };
  TesSummarySection *summary;
  TesShareChart *chart;
  GPtrArray *rows;
  const TesSummaryRow *second;
  g_autofree char *description = NULL;
  g_autofree char *expected = NULL;
  GListModel *table;
  guint n_all;

  fixture_open (&f);
  summary = TES_SUMMARY_SECTION (fixture_show (&f, "TesSummarySection"));
  tes_ui_test_wait_for_summary (summary);
  chart = TES_SHARE_CHART (find_first (GTK_WIDGET (summary), TES_TYPE_SHARE_CHART));
  gtk_test_accessible_assert_property (chart, GTK_ACCESSIBLE_PROPERTY_LABEL, "Time by operator type");
  g_assert_true (gtk_widget_get_focusable (GTK_WIDGET (chart)));
  rows = tes_share_chart_get_rows (chart);
  g_assert_cmpuint (rows->len, >=, 2);
  g_assert_cmpint (tes_share_chart_get_selected (chart), ==, -1);

  g_assert_true (press (chart, GDK_KEY_Down));
  g_assert_true (press (chart, GDK_KEY_Down));
  g_assert_cmpint (tes_share_chart_get_selected (chart), ==, 1);
  second = g_ptr_array_index (rows, 1);
  expected = g_strdup_printf ("Selected: %s %.3f %%, 2 of %u.", second->label, second->share, rows->len);
  description = dup_property (chart, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
  tes_test_assert_contains (description, expected);
  g_assert_true (press (chart, GDK_KEY_Up));
  g_assert_true (press (chart, GDK_KEY_Up));
  g_assert_cmpint (tes_share_chart_get_selected (chart), ==, 0);
  g_assert_true (press (chart, GDK_KEY_End));
  g_assert_cmpint (tes_share_chart_get_selected (chart), ==, (int)rows->len - 1);
  g_assert_true (press (chart, GDK_KEY_Home));
  g_assert_true (press (chart, GDK_KEY_Down));

  /* Enter: the table keeps that type's rows only */
  table = tes_summary_section_get_rows (summary);
  n_all = g_list_model_get_n_items (table);
  g_assert_true (press (chart, GDK_KEY_Return));
  g_assert_cmpuint (g_list_model_get_n_items (table), >, 0);
  g_assert_cmpuint (g_list_model_get_n_items (table), <, n_all);
  for (guint i = 0; i < g_list_model_get_n_items (table); i++)
    {
      g_autoptr(TesRowItem) item = g_list_model_get_item (table, i);
      const TesSummaryRow *row = tes_row_item_get (item);

      g_assert_cmpstr (row->type, ==, second->type ? second->type : second->label);
    }

  tes_ui_test_close_window (f.window);
}

/* Two runs compared: the view, both traces and the operators' table are
 * named, the traces apart by their runs. */
static void
test_a11y_compare (void)
{
  g_autofree char *a_path = tes_test_write_trace ("a11y-a.json");
  g_autofree char *b_path = tes_test_write_trace ("a11y-b.json");
  g_autoptr(TesReport) a = tes_test_import (a_path, tes_importer_registry_lookup ("chrome-json"));
  g_autoptr(TesReport) b = tes_test_import (b_path, tes_importer_registry_lookup ("chrome-json"));
  g_autoptr(TesWorkspace) wa = tes_workspace_new (a);
  g_autoptr(TesWorkspace) wb = tes_workspace_new (b);
  GtkWidget *view = tes_compare_section_new (wa, wb);
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());
  g_autofree char *label_a = NULL;
  g_autofree char *label_b = NULL;
  g_autofree char *summary_label = NULL;
  GtkWidget *summary = NULL;

  gtk_window_set_default_size (window, 1200, 800);
  gtk_window_set_child (window, view);
  gtk_window_present (window);
  tes_ui_test_wait_for_stable_size (view);

  gtk_test_accessible_assert_role (view, GTK_ACCESSIBLE_ROLE_GROUP);
  /* the comparison, two traces, the operators' table */
  assert_tree_named (view, 4);
  label_a = dup_property (tes_compare_section_get_trace (TES_COMPARE_SECTION (view), 0), GTK_ACCESSIBLE_PROPERTY_LABEL);
  label_b = dup_property (tes_compare_section_get_trace (TES_COMPARE_SECTION (view), 1), GTK_ACCESSIBLE_PROPERTY_LABEL);
  g_assert_true (g_str_has_prefix (label_a, "Execution trace of "));
  g_assert_cmpstr (label_a, !=, label_b);

  /* the Summary tab, once both runs are summed up off the main loop */
  for (guint i = 0; i < 500 && (summary = find_first (view, TES_TYPE_COMPARE_OVERVIEW)) == NULL; i++)
    tes_ui_test_spin (20);
  g_assert_nonnull (summary);
  gtk_test_accessible_assert_role (summary, GTK_ACCESSIBLE_ROLE_GROUP);
  summary_label = dup_property (summary, GTK_ACCESSIBLE_PROPERTY_LABEL);
  g_assert_cmpstr (summary_label, ==, "Both runs as a whole");

  gtk_window_destroy (window);
}

/* The Insights: the section and its list are named, and each finding's
 * row says the whole finding (GTK 4.8 has no name for a list item of its
 * own: the row's widget carries it), in rank order. */
static void
test_a11y_insights (void)
{
  g_auto(GStrv) paths = generate_insights_run ("a11y-insights", TRUE);
  g_autoptr(TesReportLoader) loader = tes_report_loader_new ();
  g_autoptr(TesReport) report = NULL;
  g_autoptr(TesWorkspace) workspace = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *view;
  TesInsightsSection *section;
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());
  GListModel *rows;
  GtkWidget *list;
  guint named = 0;

  for (guint i = 0; paths[i] != NULL; i++)
    tes_report_loader_add_file (loader, paths[i]);
  report = tes_report_loader_load (loader, NULL, &error);
  g_assert_no_error (error);
  workspace = tes_workspace_new (report);
  view = g_object_new (TES_TYPE_INSIGHTS_SECTION, "workspace", workspace, NULL);
  section = TES_INSIGHTS_SECTION (view);
  rows = tes_insights_section_get_rows (section);
  list = GTK_WIDGET (tes_insights_section_get_list (section));
  gtk_window_set_default_size (window, 1200, 800);
  gtk_window_set_child (window, view);
  gtk_window_present (window);
  for (guint i = 0; i < 1000 && tes_insights_section_is_loading (section); i++)
    tes_ui_test_spin (20);
  g_assert_false (tes_insights_section_is_loading (section));
  g_assert_true (gtk_widget_get_visible (view));
  tes_ui_test_wait_for_stable_size (view);

  gtk_test_accessible_assert_role (view, GTK_ACCESSIBLE_ROLE_GROUP);
  gtk_test_accessible_assert_property (view, GTK_ACCESSIBLE_PROPERTY_LABEL, "Insights");
  gtk_test_accessible_assert_property (list, GTK_ACCESSIBLE_PROPERTY_LABEL, "Findings, costliest first");
  /* the section; its Show buttons have text */
  assert_tree_named (view, 1);

  /* the rows shown, top down: finding 1, 2, … each whole */
  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL; row = gtk_widget_get_next_sibling (row))
    {
      g_autofree char *label = dup_property (row, GTK_ACCESSIBLE_PROPERTY_LABEL);
      g_autoptr(TesRowItem) item = NULL;

      if (label == NULL || !gtk_widget_get_child_visible (row))
        continue;
      item = g_list_model_get_item (rows, named);
      g_assert_nonnull (item);
      g_assert_cmpstr (label, ==, ((const TesInsightRow *)tes_row_item_get (item))->accessible);
      named++;
    }
  g_assert_cmpuint (named, >=, 3);

  gtk_window_destroy (window);
}

int
main (int    argc,
      char **argv)
{
  tes_ui_test_init (&argc, &argv);

  tes_ui_test_add ("/tes/a11y/tree", test_a11y_tree);
  tes_ui_test_add ("/tes/a11y/trace-keys", test_a11y_trace_keys);
  tes_ui_test_add ("/tes/a11y/share-chart", test_a11y_share_chart);
  tes_ui_test_add ("/tes/a11y/compare", test_a11y_compare);
  tes_ui_test_add ("/tes/a11y/insights", test_a11y_insights);

  return tes_ui_test_run ();
}
