/* test-application.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <locale.h>
#include <string.h>

#include <gtk/gtk.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "tes-application.h"
#include "tes-bsp-section.h"
#include "tes-compare-layout.h"
#include "tes-insights-layout.h"
#include "tes-memory-section.h"
#include "tes-paths.h"
#include "tes-settings.h"
#include "tes-share-chart.h"
#include "tes-summary-layout.h"
#include "tes-test-util.h"
#include "tes-trace-section.h"
#include "tes-ui-test-util.h"
#include "tes-window.h"

/* The application around the windows: its icon, menu, About dialog,
 * shortcuts window, style, the settings it keeps, Export and Delete
 * Cache, and the German translation. Each case runs a TesApplication in
 * its own process. */

static TesApplication *
app_start (void)
{
  TesApplication *app = tes_application_new ();
  g_autoptr(GError) error = NULL;

  /* no bus name to own: the cases share the session */
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);

  return app;
}

static void
app_stop (TesApplication *app)
{
  g_action_group_activate_action (G_ACTION_GROUP (app), "quit", NULL);
  g_assert_null (gtk_application_get_windows (GTK_APPLICATION (app)));
  /* GTK keeps a reference of its own until the shutdown that only
   * g_application_run() emits */
  g_object_unref (app);
}

/* The window the application opens path in, showing its report. */
static TesWindow *
app_open (TesApplication *app,
          const char     *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  TesWindow *window;

  g_application_open (G_APPLICATION (app), &file, 1, "");
  window = TES_WINDOW (gtk_application_get_windows (GTK_APPLICATION (app))->data);
  tes_ui_test_wait_for_page (window, "report");

  return window;
}

static char *
copy_demo (void)
{
  g_autofree char *src = tes_test_data_path ("yolov8s_op_time_each.txt");

  return tes_test_copy_to_tmp (src, "yolov8s_op_time_each.txt");
}

static void
collect (GtkWidget *widget,
         GType      type,
         GPtrArray *found)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    g_ptr_array_add (found, widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    collect (child, type, found);
}

/* Widgets of type under any widget (tes_ui_test_find_widgets() takes
 * windows only). */
static GPtrArray *
find_under (GtkWidget *widget,
            GType      type)
{
  GPtrArray *found = g_ptr_array_new ();

  collect (widget, type, found);

  return found;
}

static GtkWindow *
find_toplevel (GType type)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (window, type))
        return window;
    }

  return NULL;
}

static GtkWidget *
primary_menu_button (TesWindow *window)
{
  g_autoptr(GPtrArray) buttons = tes_ui_test_find_widgets (window, GTK_TYPE_MENU_BUTTON);

  for (guint i = 0; i < buttons->len; i++)
    if (gtk_menu_button_get_primary (g_ptr_array_index (buttons, i)))
      return g_ptr_array_index (buttons, i);

  return NULL;
}

/* The application's icon, in the window and for the shell, and the
 * theme finds it (from the resources when not installed). */
static void
test_app_icon (void)
{
  TesApplication *app = app_start ();
  g_autofree char *demo = copy_demo ();
  TesWindow *window = app_open (app, demo);
  GtkIconTheme *theme = gtk_icon_theme_get_for_display (gtk_widget_get_display (GTK_WIDGET (window)));
  const char * const names[] = { APPLICATION_ID, APPLICATION_ID "-symbolic" };

  g_assert_cmpstr (gtk_window_get_icon_name (GTK_WINDOW (window)), ==, APPLICATION_ID);
  g_assert_cmpstr (gtk_window_get_default_icon_name (), ==, APPLICATION_ID);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(GtkIconPaintable) icon = NULL;
      g_autoptr(GFile) file = NULL;
      g_autofree char *uri = NULL;

      g_assert_true (gtk_icon_theme_has_icon (theme, names[i]));
      icon = gtk_icon_theme_lookup_icon (theme, names[i], NULL, 64, 1, GTK_TEXT_DIR_NONE, 0);
      file = gtk_icon_paintable_get_file (icon);
      uri = g_file_get_uri (file);
      g_assert_true (g_str_has_prefix (uri, "resource:///org/tessera/Tessera/icons/"));
      g_assert_true (g_str_has_suffix (uri, ".svg"));
    }

  app_stop (app);
}

/* Help ▸ About: name, version, logo, licence. */
static void
test_app_about (void)
{
  TesApplication *app = app_start ();
  g_autofree char *demo = copy_demo ();
  GtkAboutDialog *about;

  app_open (app, demo);
  g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);

  about = GTK_ABOUT_DIALOG (find_toplevel (GTK_TYPE_ABOUT_DIALOG));
  g_assert_nonnull (about);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (about)));
  g_assert_cmpstr (gtk_about_dialog_get_program_name (about), ==, "Tessera");
  g_assert_cmpstr (gtk_about_dialog_get_version (about), ==, PACKAGE_VERSION);
  g_assert_cmpstr (gtk_about_dialog_get_logo_icon_name (about), ==, APPLICATION_ID);
  g_assert_cmpint (gtk_about_dialog_get_license_type (about), ==, GTK_LICENSE_GPL_3_0);

  gtk_window_destroy (GTK_WINDOW (about));
  app_stop (app);
}

typedef struct
{
  guint           keyval;
  GdkModifierType modifiers;
} Key;

/* The keypad's keys count as the main ones, and a symbol typed with
 * Shift (?) as the symbol: the shortcuts window lists each once. */
static Key
key_normalize (guint           keyval,
               GdkModifierType modifiers)
{
  static const struct { guint from, to; } same[] = {
    { GDK_KEY_KP_0, GDK_KEY_0 }, { GDK_KEY_KP_Enter, GDK_KEY_Return },
    { GDK_KEY_ISO_Enter, GDK_KEY_Return }, { GDK_KEY_KP_Home, GDK_KEY_Home },
    { GDK_KEY_KP_Left, GDK_KEY_Left }, { GDK_KEY_KP_Right, GDK_KEY_Right },
  };
  gunichar c;
  Key key;

  for (guint i = 0; i < G_N_ELEMENTS (same); i++)
    if (keyval == same[i].from)
      keyval = same[i].to;

  c = gdk_keyval_to_unicode (keyval);
  if (g_unichar_isgraph (c) && !g_unichar_isalnum (c))
    modifiers &= ~GDK_SHIFT_MASK;

  key.keyval = gdk_keyval_to_lower (keyval);
  key.modifiers = modifiers & gtk_accelerator_get_default_mod_mask ();

  return key;
}

static void
add_trigger_keys (GtkShortcutTrigger *trigger,
                  GArray             *keys)
{
  if (GTK_IS_ALTERNATIVE_TRIGGER (trigger))
    {
      add_trigger_keys (gtk_alternative_trigger_get_first (GTK_ALTERNATIVE_TRIGGER (trigger)), keys);
      add_trigger_keys (gtk_alternative_trigger_get_second (GTK_ALTERNATIVE_TRIGGER (trigger)), keys);
    }
  else if (GTK_IS_KEYVAL_TRIGGER (trigger))
    {
      Key key = key_normalize (gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)),
                               gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)));

      g_array_append_val (keys, key);
    }
}

/* Every key Tessera's own widgets bind to actions (their shortcut
 * controllers, class bindings and the global ones of their children
 * included), with the widget's type for messages. */
static void
collect_bound_keys (GtkWidget *widget,
                    GArray    *keys,
                    GPtrArray *owners)
{
  if (g_str_has_prefix (G_OBJECT_TYPE_NAME (widget), "Tes"))
    {
      g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

      for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
        {
          g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

          if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
            continue;

          for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
            {
              g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);

              GtkShortcutAction *action = gtk_shortcut_get_action (shortcut);

              /* GTK's own signal bindings (focus moves, Enter, the
               * inspector) and mnemonics are not Tessera's to list */
              if (!GTK_IS_NAMED_ACTION (action) && !GTK_IS_CALLBACK_ACTION (action))
                continue;

              add_trigger_keys (gtk_shortcut_get_trigger (shortcut), keys);
              while (owners->len < keys->len)
                g_ptr_array_add (owners, (gpointer)G_OBJECT_TYPE_NAME (widget));
            }
        }
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    collect_bound_keys (child, keys, owners);
}

static gboolean
keys_contain (GArray *keys,
              Key     key)
{
  for (guint i = 0; i < keys->len; i++)
    if (g_array_index (keys, Key, i).keyval == key.keyval &&
        g_array_index (keys, Key, i).modifiers == key.modifiers)
      return TRUE;

  return FALSE;
}

/* Ctrl+? shows the shortcuts window, which lists every key the window and
 * its sections (the Execution Trace's too) bind, and the application's. */
static void
test_app_shortcuts (void)
{
  TesApplication *app = app_start ();
  g_autofree char *trace = tes_test_write_trace ("shortcuts-trace.json");
  g_autoptr(GArray) listed = g_array_new (FALSE, FALSE, sizeof (Key));
  g_autoptr(GArray) bound = g_array_new (FALSE, FALSE, sizeof (Key));
  g_autoptr(GPtrArray) owners = g_ptr_array_new ();
  g_autoptr(GPtrArray) shortcuts = NULL;
  g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.show-help-overlay");
  g_auto(GStrv) actions = gtk_application_list_action_descriptions (GTK_APPLICATION (app));
  GtkShortcutsWindow *overlay;
  TesWindow *window;

  g_assert_true (g_strv_contains ((const char * const *)accels, "<Control>question"));

  window = app_open (app, trace);
  g_assert_nonnull (gtk_stack_get_child_by_name (tes_window_get_sections (window), "TesTraceSection"));

  overlay = gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window));
  g_assert_nonnull (overlay);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (overlay)));

  shortcuts = find_under (GTK_WIDGET (overlay), GTK_TYPE_SHORTCUTS_SHORTCUT);
  g_assert_cmpuint (shortcuts->len, >, 10);
  for (guint i = 0; i < shortcuts->len; i++)
    {
      g_autofree char *accelerator = NULL;
      g_auto(GStrv) each = NULL;

      g_object_get (g_ptr_array_index (shortcuts, i), "accelerator", &accelerator, NULL);
      each = g_strsplit (accelerator, " ", -1);
      for (guint j = 0; each[j] != NULL; j++)
        {
          guint keyval;
          GdkModifierType modifiers;
          Key key;

          g_assert_true (gtk_accelerator_parse (each[j], &keyval, &modifiers));
          key = key_normalize (keyval, modifiers);
          g_array_append_val (listed, key);
        }
    }

  collect_bound_keys (GTK_WIDGET (window), bound, owners);
  g_assert_cmpuint (bound->len, >=, 10);
  for (guint i = 0; i < bound->len; i++)
    {
      Key key = g_array_index (bound, Key, i);
      g_autofree char *name = gtk_accelerator_name (key.keyval, key.modifiers);

      if (!keys_contain (listed, key))
        g_error ("%s binds %s, which the shortcuts window does not list", (char *)owners->pdata[i], name);
    }

  /* and the application's accels */
  for (char **a = actions; *a; a++)
    {
      g_auto(GStrv) app_accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), *a);

      for (guint j = 0; app_accels[j] != NULL; j++)
        {
          guint keyval;
          GdkModifierType modifiers;

          g_assert_true (gtk_accelerator_parse (app_accels[j], &keyval, &modifiers));
          if (!keys_contain (listed, key_normalize (keyval, modifiers)))
            g_error ("%s (%s) is missing from the shortcuts window", app_accels[j], *a);
        }
    }

  gtk_window_destroy (GTK_WINDOW (overlay));
  app_stop (app);
}

/* The actions the menu model names, submenus and sections included. */
static void
collect_menu (GMenuModel *model,
              GPtrArray  *actions,
              GPtrArray  *customs)
{
  for (int i = 0; i < g_menu_model_get_n_items (model); i++)
    {
      g_autoptr(GMenuLinkIter) links = g_menu_model_iterate_item_links (model, i);
      char *action = NULL;
      char *custom = NULL;

      if (g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_ACTION, "s", &action))
        g_ptr_array_add (actions, action);
      if (g_menu_model_get_item_attribute (model, i, "custom", "s", &custom))
        g_ptr_array_add (customs, custom);

      while (g_menu_link_iter_next (links))
        {
          g_autoptr(GMenuModel) link = g_menu_link_iter_get_value (links);

          collect_menu (link, actions, customs);
        }
    }
}

/* The menu item reading label (mnemonics taken out). */
static GtkWidget *
find_menu_item (GtkWidget  *popover,
                const char *label)
{
  g_autoptr(GPtrArray) all = find_under (popover, GTK_TYPE_WIDGET);

  for (guint i = 0; i < all->len; i++)
    {
      GObject *item = g_ptr_array_index (all, i);
      g_autofree char *text = NULL;

      if (g_object_class_find_property (G_OBJECT_GET_CLASS (item), "text") == NULL ||
          !GTK_IS_ACTIONABLE (item))
        continue;
      g_object_get (item, "text", &text, NULL);
      if (g_strcmp0 (text, label) == 0)
        return GTK_WIDGET (item);
    }

  g_error ("No menu item reads “%s”", label);
  return NULL;
}

/* The main menu: Open, Open Folder, Open Recent, Compare With, Export, Delete Cache, Style, Keyboard Shortcuts, About; the commands
 * that need a report are greyed out without one. */
static void
test_app_menu (void)
{
  static const char * const expected[] = {
    "win.open", "win.open-folder", "win.open-recent", "win.compare", "win.export", "win.delete-cache", "app.theme",
    "win.show-help-overlay", "app.about",
  };
  TesApplication *app = app_start ();
  g_autofree char *demo = copy_demo ();
  g_autoptr(GPtrArray) actions = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) customs = g_ptr_array_new_with_free_func (g_free);
  TesWindow *window = app_open (app, demo);
  GtkWidget *button = primary_menu_button (window);
  GtkWidget *popover;

  g_assert_nonnull (button);
  collect_menu (gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (button)), actions, customs);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    if (!g_ptr_array_find_with_equal_func (actions, expected[i], g_str_equal, NULL))
      g_error ("The main menu has no %s", expected[i]);

  popover = GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button)));
  /* the recent report by its name, underscores and all */
  g_assert_nonnull (find_menu_item (popover, "yolov8s_op_time_each.txt"));

  /* a report is open: Export and Delete Cache work */
  gtk_menu_button_popup (GTK_MENU_BUTTON (button));
  tes_ui_test_spin (50);
  g_assert_true (gtk_widget_is_sensitive (find_menu_item (popover, "Export View…")));
  g_assert_true (gtk_widget_is_sensitive (find_menu_item (popover, "Delete Cache")));
  g_assert_true (gtk_widget_is_sensitive (find_menu_item (popover, "Compare With…")));
  gtk_menu_button_popdown (GTK_MENU_BUTTON (button));

  /* a window with nothing open */
  window = tes_window_new (GTK_APPLICATION (app));
  gtk_window_present (GTK_WINDOW (window));
  g_assert_cmpstr (tes_window_get_page (window), ==, "empty");
  button = primary_menu_button (window);
  popover = GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button)));
  gtk_menu_button_popup (GTK_MENU_BUTTON (button));
  tes_ui_test_spin (50);
  g_assert_false (gtk_widget_is_sensitive (find_menu_item (popover, "Export View…")));
  g_assert_false (gtk_widget_is_sensitive (find_menu_item (popover, "Delete Cache")));
  g_assert_false (gtk_widget_is_sensitive (find_menu_item (popover, "Compare With…")));
  gtk_menu_button_popdown (GTK_MENU_BUTTON (button));

  app_stop (app);
}

static GSettings *
interface_settings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = source ? g_settings_schema_source_lookup (source, "org.gnome.desktop.interface", TRUE) : NULL;

  if (schema == NULL || !g_settings_schema_has_key (schema, "color-scheme"))
    return NULL;

  return g_settings_new_full (schema, NULL, NULL);
}

static gboolean
prefers_dark (void)
{
  gboolean dark;

  /* the settings' signals come through the main loop */
  tes_ui_test_spin (20);
  g_object_get (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", &dark, NULL);

  return dark;
}

/* Dark follows the desktop's color-scheme unless the style setting (the
 * menu's Style) says light or dark. */
static void
test_app_style (void)
{
  g_autoptr(GSettings) desktop = interface_settings ();
  GSettings *settings = tes_settings_get ();
  TesApplication *app;

  if (desktop == NULL)
    {
      g_test_skip ("No org.gnome.desktop.interface with color-scheme (gsettings-desktop-schemas, which scripts/install-deps installs)");
      return;
    }

  g_settings_set_string (desktop, "color-scheme", "prefer-dark");
  app = app_start ();
  g_assert_true (prefers_dark ());

  g_settings_set_string (desktop, "color-scheme", "default");
  g_assert_false (prefers_dark ());
  g_settings_set_string (desktop, "color-scheme", "prefer-light");
  g_assert_false (prefers_dark ());

  g_action_group_activate_action (G_ACTION_GROUP (app), "theme", g_variant_new_string ("dark"));
  g_assert_cmpstr (g_settings_get_string (settings, "theme"), ==, "dark");
  g_assert_true (prefers_dark ());

  g_settings_set_string (settings, "theme", "light");
  g_settings_set_string (desktop, "color-scheme", "prefer-dark");
  g_assert_false (prefers_dark ());

  g_settings_set_string (settings, "theme", "system");
  g_assert_true (prefers_dark ());
  {
    g_autoptr(GVariant) state = g_action_group_get_action_state (G_ACTION_GROUP (app), "theme");

    g_assert_cmpstr (g_variant_get_string (state, NULL), ==, "system");
  }

  app_stop (app);
}

/* New windows take the size of the last one closed. */
static void
test_app_window_size (void)
{
  GSettings *settings = tes_settings_get ();
  TesApplication *app = app_start ();
  g_autofree char *demo = copy_demo ();
  TesWindow *window;
  int width, height;

  g_settings_set_int (settings, "window-width", 900);
  g_settings_set_int (settings, "window-height", 640);

  window = app_open (app, demo);
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_assert_cmpint (width, ==, 900);
  g_assert_cmpint (height, ==, 640);

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  gtk_window_close (GTK_WINDOW (window));
  tes_ui_test_spin (20);
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 1000);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 700);
  /* (maximizing needs a window manager, which Xvfb has not) */
  g_assert_false (g_settings_get_boolean (settings, "window-maximized"));

  app_stop (app);
}

/* The unit chosen last applies to the next report that has it. */
static void
test_app_time_unit (void)
{
  GSettings *settings = tes_settings_get ();
  TesApplication *app = app_start ();
  g_autofree char *trace = tes_test_write_trace ("unit-trace.json");
  TesWindow *window;
  TesTimeUnit native;

  g_assert_cmpstr (g_settings_get_string (settings, "time-unit"), ==, "auto");

  window = app_open (app, trace);
  native = tes_workspace_get_time_unit (tes_window_get_workspace (window));
  tes_workspace_set_time_unit (tes_window_get_workspace (window),
                               native == TES_TIME_UNIT_NS ? TES_TIME_UNIT_US : TES_TIME_UNIT_NS);
  g_assert_cmpstr (g_settings_get_string (settings, "time-unit"), ==, native == TES_TIME_UNIT_NS ? "us" : "ns");

  gtk_window_destroy (GTK_WINDOW (window));
  window = app_open (app, trace);
  g_assert_cmpint (tes_workspace_get_time_unit (tes_window_get_workspace (window)), ==,
                   native == TES_TIME_UNIT_NS ? TES_TIME_UNIT_US : TES_TIME_UNIT_NS);

  /* a unit the report lacks leaves it its own */
  g_settings_set_string (settings, "time-unit", "cycles");
  gtk_window_destroy (GTK_WINDOW (window));
  window = app_open (app, trace);
  g_assert_cmpint (tes_workspace_get_time_unit (tes_window_get_workspace (window)), ==, native);

  app_stop (app);
}

/* The section shown, once laid out: Export draws it at its size. */
static void
wait_for_section_size (TesWindow *window)
{
  GtkWidget *section = gtk_stack_get_visible_child (tes_window_get_sections (window));
  gint64 deadline = g_get_monotonic_time () + TES_UI_TEST_WAIT_SECONDS * G_USEC_PER_SEC;

  while (gtk_widget_get_width (section) < 16 || gtk_widget_get_height (section) < 16)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      tes_ui_test_spin (20);
    }
}

static cairo_surface_t *
render_section (TesWindow  *window,
                const char *view)
{
  GtkWidget *section = gtk_stack_get_visible_child (tes_window_get_sections (window));
  int width = gtk_widget_get_width (section);
  int height = gtk_widget_get_height (section);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  g_autoptr(GError) error = NULL;
  cairo_t *cr = cairo_create (surface);

  g_assert_true (tes_section_type_render (G_OBJECT_TYPE (section), tes_window_get_workspace (window),
                                          view, cr, width, height, &error));
  g_assert_no_error (error);
  cairo_destroy (cr);
  cairo_surface_flush (surface);

  return surface;
}

static void
assert_same_pixels (cairo_surface_t *a,
                    cairo_surface_t *b)
{
  int height = cairo_image_surface_get_height (a);
  int stride = cairo_image_surface_get_stride (a);

  g_assert_cmpint (cairo_image_surface_get_width (a), ==, cairo_image_surface_get_width (b));
  g_assert_cmpint (height, ==, cairo_image_surface_get_height (b));
  g_assert_cmpmem (cairo_image_surface_get_data (a), stride * height,
                   cairo_image_surface_get_data (b), stride * height);
}

static void
export_to (TesWindow  *window,
           const char *name,
           const char *magic)
{
  g_autofree char *path = tes_test_tmp_path (name);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize len;

  g_assert_true (tes_window_export (window, file, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  g_assert_cmpuint (len, >, strlen (magic));
  g_assert_cmpmem (contents, strlen (magic), magic, strlen (magic));
}

/* Export draws the section shown as the CLI's render does, at its size,
 * in its view, and refuses a name it cannot tell the format of. */
static void
test_app_export (void)
{
  TesApplication *app = app_start ();
  g_autofree char *demo = copy_demo ();
  g_autofree char *trace = tes_test_write_trace ("export-trace.json");
  g_autofree char *profile = tes_test_copy_fixture (TES_TEST_OWN_DATA, "poplar/profile-doc-combined.json");
  g_autofree char *png = tes_test_tmp_path ("export.png");
  g_autofree char *bad = tes_test_tmp_path ("export.bmp");
  g_autoptr(GFile) bad_file = g_file_new_for_path (bad);
  g_autoptr(GError) error = NULL;
  TesWindow *window = app_open (app, demo);
  GtkStack *sections = tes_window_get_sections (window);

  wait_for_section_size (window);
  export_to (window, "export.png", "\x89PNG");
  export_to (window, "export.svg", "<?xml");
  export_to (window, "export.pdf", "%PDF");

  /* the PNG is the section's own drawing, pixel for pixel */
  {
    cairo_surface_t *exported = cairo_image_surface_create_from_png (png);
    cairo_surface_t *rendered = render_section (window, "summary");

    assert_same_pixels (exported, rendered);
    cairo_surface_destroy (exported);
    cairo_surface_destroy (rendered);
  }

  g_assert_false (tes_window_export (window, bad_file, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME);
  g_assert_false (g_file_test (bad, G_FILE_TEST_EXISTS));

  /* the trace in flame view exports as --view flame */
  tes_ui_test_close_window (g_object_ref (window));
  window = app_open (app, trace);
  sections = tes_window_get_sections (window);
  gtk_stack_set_visible_child_name (sections, "TesTraceSection");
  wait_for_section_size (window);
  tes_trace_view_set_mode (tes_trace_section_get_view (TES_TRACE_SECTION (gtk_stack_get_visible_child (sections))),
                           TES_TRACE_FLAME);
  tes_ui_test_spin (100);
  export_to (window, "export.png", "\x89PNG");
  {
    cairo_surface_t *exported = cairo_image_surface_create_from_png (png);
    cairo_surface_t *rendered = render_section (window, "flame");

    assert_same_pixels (exported, rendered);
    cairo_surface_destroy (exported);
    cairo_surface_destroy (rendered);
  }

  /* BSP coloured by cycles exports as --view bsp-cycles, by state as bsp;
   * the Memory page as --view memory */
  tes_ui_test_close_window (g_object_ref (window));
  window = app_open (app, profile);
  sections = tes_window_get_sections (window);
  gtk_stack_set_visible_child_name (sections, "TesBspSection");
  wait_for_section_size (window);
  {
    TesBspSection *bsp = TES_BSP_SECTION (gtk_stack_get_visible_child (sections));

    tes_ui_test_wait_for_ipus (bsp);
    for (guint i = 0; i < 2; i++)
      {
        const char *view = i == 0 ? "bsp-cycles" : "bsp";
        cairo_surface_t *exported, *rendered, *other;

        tes_bsp_section_set_coloring (bsp, i == 0 ? TES_BSP_COLOR_CYCLES : TES_BSP_COLOR_STATE);
        g_assert_cmpstr (tes_section_get_view (TES_SECTION (bsp)), ==, view);
        tes_ui_test_spin (100);
        export_to (window, "export.png", "\x89PNG");
        exported = cairo_image_surface_create_from_png (png);
        rendered = render_section (window, view);
        other = render_section (window, i == 0 ? "bsp" : "bsp-cycles");
        assert_same_pixels (exported, rendered);
        /* and the two colourings differ, so the test can tell them apart */
        g_assert_true (memcmp (cairo_image_surface_get_data (exported), cairo_image_surface_get_data (other),
                               cairo_image_surface_get_stride (other) * cairo_image_surface_get_height (other)) != 0);
        cairo_surface_destroy (exported);
        cairo_surface_destroy (rendered);
        cairo_surface_destroy (other);
      }
  }
  gtk_stack_set_visible_child_name (sections, "TesMemorySection");
  wait_for_section_size (window);
  g_assert_cmpstr (tes_section_get_view (TES_SECTION (gtk_stack_get_visible_child (sections))), ==, "memory");
  export_to (window, "export.png", "\x89PNG");
  {
    cairo_surface_t *exported = cairo_image_surface_create_from_png (png);
    cairo_surface_t *rendered = render_section (window, "memory");

    assert_same_pixels (exported, rendered);
    cairo_surface_destroy (exported);
    cairo_surface_destroy (rendered);
  }

  app_stop (app);
}

/* Delete Cache removes the cache and imports the sources again; a cache
 * without its sources goes only when the user confirms. */
static void
test_app_delete_cache (void)
{
  TesApplication *app = app_start ();
  g_autofree char *demo = copy_demo ();
  g_autofree char *cache = NULL;
  GtkMessageDialog *dialog;
  TesWindow *window = app_open (app, demo);

  cache = g_strdup (tes_report_get_cache_path (tes_window_get_report (window)));
  g_assert_true (g_file_test (cache, G_FILE_TEST_IS_REGULAR));

  gtk_widget_activate_action (GTK_WIDGET (window), "win.delete-cache", NULL);
  g_assert_cmpstr (tes_window_get_page (window), ==, "loading");
  g_assert_true (tes_ui_test_has_label_containing (window, "Cache deleted: importing"));
  tes_ui_test_wait_for_page (window, "report");
  g_assert_false (tes_report_get_cache_reused (tes_window_get_report (window)));
  g_assert_true (g_file_test (cache, G_FILE_TEST_IS_REGULAR));

  /* the cache alone: asks, and Cancel keeps it */
  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_no_errno (g_unlink (demo));
  window = app_open (app, cache);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.delete-cache", NULL);
  dialog = GTK_MESSAGE_DIALOG (find_toplevel (GTK_TYPE_MESSAGE_DIALOG));
  g_assert_nonnull (dialog);
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  g_assert_true (g_file_test (cache, G_FILE_TEST_IS_REGULAR));
  g_assert_cmpstr (tes_window_get_page (window), ==, "report");

  gtk_widget_activate_action (GTK_WIDGET (window), "win.delete-cache", NULL);
  dialog = GTK_MESSAGE_DIALOG (find_toplevel (GTK_TYPE_MESSAGE_DIALOG));
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
  g_assert_false (g_file_test (cache, G_FILE_TEST_EXISTS));
  g_assert_cmpstr (tes_window_get_page (window), ==, "empty");

  app_stop (app);
}

/* A German locale of our own: a bare machine may have only C.UTF-8. */
static char *
make_german_locale (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("tes-locale-XXXXXX", &error);
  g_autofree char *target = NULL;

  g_assert_no_error (error);
  target = g_build_filename (dir, "de_DE.UTF-8", NULL);
  {
    const char *argv[] = { "localedef", "-i", "de_DE", "-f", "UTF-8", target, NULL };

    /* it may warn and exit non-zero, and yet write the locale */
    g_spawn_sync (NULL, (char **)argv, NULL,
                  G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                  NULL, NULL, NULL, NULL, NULL, &error);
    g_assert_no_error (error);
  }
  g_assert_true (g_file_test (target, G_FILE_TEST_IS_DIR));

  return dir;
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)))
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

/* In German, the window speaks German (translations found where the
 * build put them) and writes numbers the German way. */
static void
test_app_german (void)
{
  g_autofree char *locales = make_german_locale ();
  g_autofree char *demo = copy_demo ();
  TesApplication *app;
  TesWindow *window;

  g_setenv ("LOCPATH", locales, TRUE);
  g_setenv ("LANGUAGE", "de", TRUE);
  g_assert_nonnull (setlocale (LC_ALL, "de_DE.UTF-8"));
  bindtextdomain (GETTEXT_PACKAGE, tes_paths_get_locale_dir ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = app_start ();
  window = TES_WINDOW (tes_window_new (GTK_APPLICATION (app)));
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (tes_ui_test_has_label_containing (window, "Kein Bericht geöffnet"));
  gtk_window_destroy (GTK_WINDOW (window));

  window = app_open (app, demo);
  g_assert_cmpstr (gtk_stack_page_get_title (gtk_stack_get_page (tes_window_get_sections (window),
                                                                 gtk_stack_get_visible_child (tes_window_get_sections (window)))),
                   ==, "Übersicht");
  /* the operators' shares, 7.880 % in English */
  {
    gint64 deadline = g_get_monotonic_time () + TES_UI_TEST_WAIT_SECONDS * G_USEC_PER_SEC;

    while (!tes_ui_test_has_label_containing (window, "7,880 %"))
      {
        g_assert_cmpint (g_get_monotonic_time (), <, deadline);
        tes_ui_test_spin (20);
      }
  }

  /* what screen readers hear is German too, numbers included */
  {
    g_autoptr(GPtrArray) charts = tes_ui_test_find_widgets (window, TES_TYPE_SHARE_CHART);
    TesShareChart *chart;
    g_autofree char *description = NULL;

    g_assert_cmpuint (charts->len, ==, 1);
    chart = g_ptr_array_index (charts, 0);
    gtk_test_accessible_assert_property (chart, GTK_ACCESSIBLE_PROPERTY_LABEL, "Zeit je Operatortyp");
    tes_share_chart_set_selected (chart, 0);
    /* no description is this: the one set comes back */
    description = gtk_test_accessible_check_property (GTK_ACCESSIBLE (chart), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, "\x01");
    g_assert_true (g_str_has_prefix (description, "Ausgewählt: CONV_2D 80,742 %, 1 von "));
  }

  /* a finding's evidence under German labels (Kachel, not tile), its
   * keys those of --json still, and the compare window's quiet line */
  {
    g_auto(GVariantBuilder) ev = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE_VARDICT);
    g_autoptr(GVariant) evidence = NULL;
    g_autofree char *text = NULL;
    g_autofree char *quiet = NULL;
    g_autoptr(GPtrArray) none = g_ptr_array_new ();

    g_variant_builder_add (&ev, "{sv}", "a", g_variant_new_int64 (1000));
    g_variant_builder_add (&ev, "{sv}", "b", g_variant_new_int64 (2500));
    g_variant_builder_add (&ev, "{sv}", "hot_tiles", g_variant_new_int64 (2));
    g_variant_builder_add (&ev, "{sv}", "idle_ns", g_variant_new_int64 (1250000));
    g_variant_builder_add (&ev, "{sv}", "share_percent", g_variant_new_double (12.34));
    evidence = g_variant_ref_sink (g_variant_builder_end (&ev));
    text = tes_insights_evidence_text (evidence);
    g_assert_cmpstr (text, ==, "A 1.000, B 2.500, heiße Kacheln 2, Leerlauf 1,250 ms, Anteil 12,3 %");
    g_assert_true (g_variant_lookup (evidence, "hot_tiles", "x", NULL));
    quiet = tes_compare_findings_headline (none);
    g_assert_true (g_str_has_prefix (quiet, "Keine Befunde: B ist nicht langsamer als A"));
  }

  /* cycles grouped the German way in the window; the C locale, which the
   * command line keeps for numbers, groups with commas */
  {
    g_autofree char *cycles = tes_format_duration (1234567, TES_TIME_UNIT_CYCLES);
    g_autofree char *c_cycles = NULL;
    /* a compared time: µs, grouped, with the German decimal comma */
    TesCompareScale scale = tes_compare_scale_choose (FALSE, TES_TIME_UNIT_NS, 1234567);
    g_autofree char *compared = tes_compare_scale_format (&scale, 1234567, TRUE);

    g_assert_cmpstr (cycles, ==, "1.234.567 cycles");
    g_assert_cmpstr (compared, ==, "+1.234,567");
    setlocale (LC_NUMERIC, "C");
    c_cycles = tes_format_duration (1234567, TES_TIME_UNIT_CYCLES);
    g_assert_cmpstr (c_cycles, ==, "1,234,567 cycles");
  }

  /* an importer's error in German, naming the file */
  {
    g_autofree char *empty = tes_test_tmp_path ("leer.txt");
    g_autoptr(GFile) file = NULL;
    g_autofree char *expected = NULL;

    tes_test_write_file (empty, "", 0);
    file = g_file_new_for_path (empty);
    expected = g_strdup_printf ("%s: leere Datei", empty);
    /* the window logs it too */
    g_test_expect_message ("tes-window", G_LOG_LEVEL_WARNING, "*: leere Datei");
    g_application_open (G_APPLICATION (app), &file, 1, "");
    window = TES_WINDOW (gtk_application_get_windows (GTK_APPLICATION (app))->data);
    tes_ui_test_wait_for_page (window, "error");
    g_test_assert_expected_messages ();
    g_assert_true (tes_ui_test_has_label_containing (window, expected));
  }

  app_stop (app);
  setlocale (LC_ALL, "C.UTF-8");
  remove_tree (locales);
}

/* Exporting CSV from the window writes numbers as the command line does,
 * whatever the locale. */
static void
test_app_csv_locale (void)
{
  g_autofree char *locales = make_german_locale ();
  TesSummaryRow row = { 0, (char *)"conv", (char *)"CONV_2D", (char *)"0 CONV_2D", 7.88, 1234, 1, 0 };
  const TesSummaryRow *rows[] = { &row };
  g_autofree char *csv = NULL;
  g_autofree char *previous = g_strdup (setlocale (LC_ALL, NULL));

  g_setenv ("LOCPATH", locales, TRUE);
  g_assert_nonnull (setlocale (LC_ALL, "de_DE.UTF-8"));
  csv = tes_summary_rows_to_csv (rows, 1, "ns");
  setlocale (LC_ALL, previous);
  g_unsetenv ("LOCPATH");
  remove_tree (locales);

  tes_test_assert_contains (csv, ",7.880,1234,1\r\n");
}

int
main (int    argc,
      char **argv)
{
  /* The desktop's settings schemas, for the style case: found before the
   * test isolates the data folders, kept for the cases' processes. */
  if (g_getenv ("GSETTINGS_SCHEMA_DIR") == NULL)
    {
      const char * const *dirs = g_get_system_data_dirs ();

      for (guint i = 0; dirs[i] != NULL; i++)
        {
          g_autofree char *dir = g_build_filename (dirs[i], "glib-2.0", "schemas", NULL);
          g_autofree char *compiled = g_build_filename (dir, "gschemas.compiled", NULL);

          if (g_file_test (compiled, G_FILE_TEST_IS_REGULAR))
            {
              g_setenv ("GSETTINGS_SCHEMA_DIR", dir, TRUE);
              break;
            }
        }
    }

  tes_ui_test_init (&argc, &argv);

  tes_ui_test_add ("/tes/app/icon", test_app_icon);
  tes_ui_test_add ("/tes/app/about", test_app_about);
  tes_ui_test_add ("/tes/app/shortcuts", test_app_shortcuts);
  tes_ui_test_add ("/tes/app/menu", test_app_menu);
  tes_ui_test_add ("/tes/app/style", test_app_style);
  tes_ui_test_add ("/tes/app/window-size", test_app_window_size);
  tes_ui_test_add ("/tes/app/time-unit", test_app_time_unit);
  tes_ui_test_add ("/tes/app/export", test_app_export);
  tes_ui_test_add ("/tes/app/delete-cache", test_app_delete_cache);
  tes_ui_test_add ("/tes/app/german", test_app_german);
  g_test_add_func ("/tes/app/csv-locale", test_app_csv_locale);

  return tes_ui_test_run ();
}
