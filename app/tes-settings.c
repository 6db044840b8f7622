/* tes-settings.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-settings"

#include "config.h"

#include "tes-paths.h"
#include "tes-settings.h"

/**
 * tes_settings_get:
 *
 * The application's settings (data/org.tessera.Tessera.gschema.xml): an
 * installed Tessera reads the schema where GLib looks; one run from its
 * build folder reads the one compiled there.
 *
 * Returns: (transfer none): the settings, shared by the process
 */
GSettings *
tes_settings_get (void)
{
  static GSettings *settings;

  if (settings == NULL)
    {
      GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
      g_autoptr(GSettingsSchemaSource) build_source = NULL;
      g_autoptr(GSettingsSchema) schema = NULL;
      const char *build_dir = tes_paths_get_schema_dir ();

      if (build_dir != NULL &&
          (build_source = g_settings_schema_source_new_from_directory (build_dir, source, FALSE, NULL)))
        schema = g_settings_schema_source_lookup (build_source, APPLICATION_ID, FALSE);

      if (schema == NULL && source != NULL)
        schema = g_settings_schema_source_lookup (source, APPLICATION_ID, TRUE);

      if (schema == NULL)
        g_error ("The settings schema %s is not installed", APPLICATION_ID);

      settings = g_settings_new_full (schema, NULL, NULL);
    }

  return settings;
}
