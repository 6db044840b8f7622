/* tes-application.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-application"

#include "config.h"

#include "tes-application.h"

#include "tes-settings.h"
#include "tes-window.h"

#include <glib/gi18n.h>

struct _TesApplication
{
  GtkApplication  parent_instance;

  /* --format as this process was given it */
  char           *local_format;

  /* --format of the invocation being handled, which may come from another
   * process through the platform data */
  char           *format;
  gboolean        in_emit;

  /* --compare, likewise */
  gboolean        local_compare;
  gboolean        compare;

  /* the desktop's org.gnome.desktop.interface, NULL without that schema */
  GSettings      *interface_settings;
};

G_DEFINE_FINAL_TYPE (TesApplication, tes_application, GTK_TYPE_APPLICATION)

#define PLATFORM_DATA_FORMAT "tessera-format"
#define PLATFORM_DATA_COMPARE "tessera-compare"

static const GOptionEntry option_entries[] = {
  { "format", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Read the files as this format instead of detecting it (see tessera-cli formats)"), N_("NAME") },
  { "compare", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Compare the two reports given side by side"), NULL },
  { "version", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Print the version and exit"), NULL },
  { NULL }
};

static const char *
tes_application_get_format (TesApplication *self)
{
  return self->in_emit ? self->format : self->local_format;
}

static int
tes_application_handle_local_options (GApplication *app,
                                      GVariantDict *options)
{
  TesApplication *self = (TesApplication *)app;

  g_assert (TES_IS_APPLICATION (self));

  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("tessera %s\n", PACKAGE_VERSION);
      return 0;
    }

  g_clear_pointer (&self->local_format, g_free);
  g_variant_dict_lookup (options, "format", "s", &self->local_format);
  self->local_compare = g_variant_dict_contains (options, "compare");

  return G_APPLICATION_CLASS (tes_application_parent_class)->handle_local_options (app, options);
}

/* Carries --format to the primary instance when one is running already. */
static void
tes_application_add_platform_data (GApplication    *app,
                                   GVariantBuilder *builder)
{
  TesApplication *self = (TesApplication *)app;

  g_assert (TES_IS_APPLICATION (self));

  G_APPLICATION_CLASS (tes_application_parent_class)->add_platform_data (app, builder);

  if (self->local_format != NULL)
    g_variant_builder_add (builder, "{sv}", PLATFORM_DATA_FORMAT,
                           g_variant_new_string (self->local_format));
  if (self->local_compare)
    g_variant_builder_add (builder, "{sv}", PLATFORM_DATA_COMPARE, g_variant_new_boolean (TRUE));
}

static void
tes_application_before_emit (GApplication *app,
                             GVariant     *platform_data)
{
  TesApplication *self = (TesApplication *)app;

  g_assert (TES_IS_APPLICATION (self));

  G_APPLICATION_CLASS (tes_application_parent_class)->before_emit (app, platform_data);

  g_clear_pointer (&self->format, g_free);
  g_variant_lookup (platform_data, PLATFORM_DATA_FORMAT, "s", &self->format);
  self->compare = FALSE;
  g_variant_lookup (platform_data, PLATFORM_DATA_COMPARE, "b", &self->compare);
  self->in_emit = TRUE;
}

static void
tes_application_after_emit (GApplication *app,
                            GVariant     *platform_data)
{
  TesApplication *self = (TesApplication *)app;

  g_assert (TES_IS_APPLICATION (self));

  self->in_emit = FALSE;
  g_clear_pointer (&self->format, g_free);

  G_APPLICATION_CLASS (tes_application_parent_class)->after_emit (app, platform_data);
}

static void
tes_application_activate (GApplication *app)
{
  GtkWindow *window;

  g_assert (TES_IS_APPLICATION (app));

  /* Started without files: show what Tessera does, on the bundled demo */
  if (!(window = gtk_application_get_active_window (GTK_APPLICATION (app))))
    {
      g_autoptr(GFile) demo = tes_window_find_demo ();

      window = GTK_WINDOW (tes_window_new (GTK_APPLICATION (app)));
      if (g_file_query_exists (demo, NULL))
        tes_window_open (TES_WINDOW (window), demo, NULL);
    }

  gtk_window_present (window);
}

static void
tes_application_open (GApplication  *app,
                      GFile        **files,
                      int            n_files,
                      const char    *hint)
{
  TesApplication *self = (TesApplication *)app;
  GtkWindow *active;
  TesWindow *window;

  g_assert (TES_IS_APPLICATION (self));

  if (self->in_emit ? self->compare : self->local_compare)
    {
      TesCompareWindow *compare;

      if (n_files != 2)
        {
          g_printerr (_("--compare takes two reports, not %d\n"), n_files);
          return;
        }

      compare = tes_compare_window_new (GTK_APPLICATION (app));
      tes_compare_window_open (compare, NULL, files[0], files[1], tes_application_get_format (self));
      gtk_window_present (GTK_WINDOW (compare));
      return;
    }

  active = gtk_application_get_active_window (GTK_APPLICATION (app));

  /* The files given together are one run: one window, one report. It goes
   * into a window that shows nothing yet, if there is one. */
  if (TES_IS_WINDOW (active) && tes_window_get_file (TES_WINDOW (active)) == NULL)
    window = TES_WINDOW (active);
  else
    window = tes_window_new (GTK_APPLICATION (app));

  tes_window_open_files (window, files, (guint)n_files, tes_application_get_format (self));
  gtk_window_present (GTK_WINDOW (window));
}

/* GTK 4.8 has no style manager: the desktop's light or dark preference is
 * org.gnome.desktop.interface's color-scheme, where that schema exists
 * (GNOME 42 and later); the "theme" setting can override it. */
static GSettings *
interface_settings_new (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source == NULL ||
      !(schema = g_settings_schema_source_lookup (source, "org.gnome.desktop.interface", TRUE)) ||
      !g_settings_schema_has_key (schema, "color-scheme"))
    return NULL;

  return g_settings_new_full (schema, NULL, NULL);
}

static void
tes_application_update_style (TesApplication *self)
{
  g_autofree char *theme = g_settings_get_string (tes_settings_get (), "theme");
  GtkSettings *gtk_settings = gtk_settings_get_default ();
  gboolean dark;

  if (g_str_equal (theme, "dark"))
    dark = TRUE;
  else if (g_str_equal (theme, "light"))
    dark = FALSE;
  else if (self->interface_settings != NULL)
    {
      g_autofree char *scheme = g_settings_get_string (self->interface_settings, "color-scheme");

      dark = g_str_equal (scheme, "prefer-dark");
    }
  else
    {
      /* nothing to follow: what GTK's own settings say */
      gtk_settings_reset_property (gtk_settings, "gtk-application-prefer-dark-theme");
      return;
    }

  g_object_set (gtk_settings, "gtk-application-prefer-dark-theme", dark, NULL);
}

static void
tes_application_startup (GApplication *app)
{
  TesApplication *self = (TesApplication *)app;
  static const struct {
    const char *action;
    const char *accels[2];
  } accels[] = {
    { "app.quit", { "<Control>q", NULL } },
    { "win.open", { "<Control>o", NULL } },
    { "win.export", { "<Control>e", NULL } },
  };
  g_autoptr(GtkCssProvider) provider = NULL;
  g_autoptr(GAction) theme = NULL;

  G_APPLICATION_CLASS (tes_application_parent_class)->startup (app);

  provider = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (provider, "/org/tessera/Tessera/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (),
                                              GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);

  /* the icon is in the resources too, so an uninstalled build has it */
  gtk_window_set_default_icon_name (APPLICATION_ID);

  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), accels[i].action, accels[i].accels);

  theme = g_settings_create_action (tes_settings_get (), "theme");
  g_action_map_add_action (G_ACTION_MAP (app), theme);

  self->interface_settings = interface_settings_new ();
  if (self->interface_settings != NULL)
    g_signal_connect_object (self->interface_settings, "changed::color-scheme",
                             G_CALLBACK (tes_application_update_style),
                             self, G_CONNECT_SWAPPED);
  g_signal_connect_object (tes_settings_get (), "changed::theme",
                           G_CALLBACK (tes_application_update_style),
                           self, G_CONNECT_SWAPPED);
  tes_application_update_style (self);
}

static void
tes_application_quit_action (GSimpleAction *action,
                             GVariant      *param,
                             gpointer       user_data)
{
  TesApplication *self = user_data;
  GList *windows;

  g_assert (TES_IS_APPLICATION (self));

  /* Closing each window cancels what it was opening */
  while ((windows = gtk_application_get_windows (GTK_APPLICATION (self))))
    gtk_window_destroy (windows->data);

  g_application_quit (G_APPLICATION (self));
}

static void
tes_application_about_action (GSimpleAction *action,
                              GVariant      *param,
                              gpointer       user_data)
{
  static const char *developers[] = { "The Tessera developers", NULL };
  TesApplication *self = user_data;

  g_assert (TES_IS_APPLICATION (self));

  gtk_show_about_dialog (gtk_application_get_active_window (GTK_APPLICATION (self)),
                         "program-name", _("Tessera"),
                         "logo-icon-name", APPLICATION_ID,
                         "version", PACKAGE_VERSION,
                         "comments", _("See where the time of an AI accelerator profile goes"),
                         "copyright", "© 2026 The Tessera developers",
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "authors", developers,
                         /* Translators: your name and e-mail address, one translator per line */
                         "translator-credits", _("translator-credits"),
                         NULL);
}

static void
tes_application_finalize (GObject *object)
{
  TesApplication *self = (TesApplication *)object;

  g_clear_pointer (&self->local_format, g_free);
  g_clear_pointer (&self->format, g_free);
  g_clear_object (&self->interface_settings);

  G_OBJECT_CLASS (tes_application_parent_class)->finalize (object);
}

static void
tes_application_class_init (TesApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->finalize = tes_application_finalize;

  app_class->handle_local_options = tes_application_handle_local_options;
  app_class->add_platform_data = tes_application_add_platform_data;
  app_class->before_emit = tes_application_before_emit;
  app_class->after_emit = tes_application_after_emit;
  app_class->startup = tes_application_startup;
  app_class->activate = tes_application_activate;
  app_class->open = tes_application_open;
}

static void
tes_application_init (TesApplication *self)
{
  static const GActionEntry actions[] = {
    { "quit", tes_application_quit_action },
    { "about", tes_application_about_action },
  };

  g_action_map_add_action_entries (G_ACTION_MAP (self), actions, G_N_ELEMENTS (actions), self);
  g_application_add_main_option_entries (G_APPLICATION (self), option_entries);
  g_application_set_option_context_parameter_string (G_APPLICATION (self), _("[FILE…]"));
  g_application_set_option_context_summary (G_APPLICATION (self),
                                            _("Open accelerator profiles and see where their time goes."));
}

TesApplication *
tes_application_new (void)
{
  return g_object_new (TES_TYPE_APPLICATION,
                       "application-id", APPLICATION_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", "/org/tessera/Tessera",
                       NULL);
}
