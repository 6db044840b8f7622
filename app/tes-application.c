/* tes-application.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-application"

#include "config.h"

#include "tes-application.h"

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
};

G_DEFINE_FINAL_TYPE (TesApplication, tes_application, GTK_TYPE_APPLICATION)

#define PLATFORM_DATA_FORMAT "tessera-format"

static const GOptionEntry option_entries[] = {
  { "format", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Read the files as this format instead of detecting it (see tessera-cli formats)"), N_("NAME") },
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

static void
tes_application_startup (GApplication *app)
{
  static const char *quit_accels[] = { "<Control>q", NULL };
  g_autoptr(GtkCssProvider) provider = NULL;

  G_APPLICATION_CLASS (tes_application_parent_class)->startup (app);

  provider = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (provider, "/org/tessera/Tessera/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (),
                                              GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);

  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.quit", quit_accels);
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
tes_application_finalize (GObject *object)
{
  TesApplication *self = (TesApplication *)object;

  g_clear_pointer (&self->local_format, g_free);
  g_clear_pointer (&self->format, g_free);

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
