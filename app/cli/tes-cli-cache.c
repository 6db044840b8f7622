/* tes-cli-cache.c: tessera-cli cache: list the report caches Tessera knows, or remove them
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tessera-cli"

#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

#include "tes-cache.h"
#include "tes-cli-private.h"

static gboolean
is_cache_path (const char *path)
{
  return g_str_has_suffix (path, ".tessera");
}

static void
add_unique (GPtrArray  *paths,
            const char *path)
{
  for (guint i = 0; i < paths->len; i++)
    if (g_str_equal (g_ptr_array_index (paths, i), path))
      return;

  g_ptr_array_add (paths, g_strdup (path));
}

/* One line per cache: its state, size, path and sources; why, on the next
 * line, when it is not ok. */
static void
print_cache (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) sources = NULL;
  g_autofree char *size = NULL;
  g_autofree char *joined = NULL;
  TesCacheState state;
  GStatBuf st;

  state = tes_cache_get_state (path, &sources, &error);
  size = g_format_size (g_stat (path, &st) == 0 ? (guint64)st.st_size : 0);
  /* GLib puts a no-break space before the unit; the command line is ASCII */
  {
    char *nbsp = strstr (size, "\u00a0");

    if (nbsp != NULL)
      {
        nbsp[0] = ' ';
        memmove (nbsp + 1, nbsp + 2, strlen (nbsp + 2) + 1);
      }
  }
  joined = sources != NULL && sources[0] != NULL ? g_strjoinv (", ", sources) : g_strdup ("-");

  printf ("%-8s %10s  %s  %s\n", tes_cache_state_to_string (state), size, path, joined);
  if (error != NULL)
    printf ("         %s\n", error->message);
}

static int
list_caches (const char * const *files,
             guint               n_files)
{
  g_autoptr(GPtrArray) caches = tes_cache_list_user_caches ();
  g_autoptr(GPtrArray) shown = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) without = g_ptr_array_new ();

  for (guint i = 0; i < caches->len; i++)
    add_unique (shown, g_ptr_array_index (caches, i));

  for (guint i = 0; i < n_files; i++)
    {
      g_auto(GStrv) candidates = NULL;
      gboolean found = FALSE;

      if (is_cache_path (files[i]))
        {
          if (!g_file_test (files[i], G_FILE_TEST_IS_REGULAR))
            {
              fprintf (stderr, "tessera-cli: %s: no such cache\n", files[i]);
              return TES_CLI_EXIT_BAD_INPUT;
            }
          add_unique (shown, files[i]);
          continue;
        }

      candidates = tes_cache_candidates_for_source (files[i]);
      for (guint j = 0; candidates[j] != NULL; j++)
        if (g_file_test (candidates[j], G_FILE_TEST_IS_REGULAR))
          {
            add_unique (shown, candidates[j]);
            found = TRUE;
          }
      if (!found)
        g_ptr_array_add (without, (gpointer)files[i]);
    }

  printf ("%-8s %10s  %s  %s\n", "STATE", "SIZE", "CACHE", "SOURCES");
  for (guint i = 0; i < shown->len; i++)
    print_cache (g_ptr_array_index (shown, i));
  for (guint i = 0; i < without->len; i++)
    printf ("%-8s %10s  %s  %s\n", "none", "-", "-", (const char *)g_ptr_array_index (without, i));

  return TES_CLI_EXIT_OK;
}

static gboolean
remove_cache (const char  *path,
              GError     **error)
{
  tes_cache_remove_stale_temps (path);

  if (g_unlink (path) != 0)
    {
      int errsv = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   "Cannot remove %s: %s", path, g_strerror (errsv));
      return FALSE;
    }

  printf ("Removed %s\n", path);
  return TRUE;
}

/* The given files' caches (where they were written: beside the file or in
 * the user cache folder), or every cache in the user cache folder. A
 * .tessera given on its own may be the only copy of its report: that is
 * for rm, not for clearing caches. */
static int
clear_caches (const char * const *files,
              guint               n_files)
{
  g_autoptr(GError) error = NULL;

  if (n_files == 0)
    {
      g_autoptr(GPtrArray) caches = tes_cache_list_user_caches ();
      g_autofree char *dir = tes_cache_get_user_dir ();
      g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
      const char *name;

      for (guint i = 0; i < caches->len; i++)
        if (!remove_cache (g_ptr_array_index (caches, i), &error))
          return tes_cli_input_error (error);

      /* temp files of imports killed before their cache was written */
      while (d != NULL && (name = g_dir_read_name (d)))
        {
          const char *tmp = strstr (name, ".tessera.tmp-");

          if (tmp != NULL)
            {
              g_autofree char *base = g_strndup (name, (gsize)(tmp - name) + strlen (".tessera"));
              g_autofree char *cache = g_build_filename (dir, base, NULL);

              tes_cache_remove_stale_temps (cache);
            }
        }

      return TES_CLI_EXIT_OK;
    }

  for (guint i = 0; i < n_files; i++)
    {
      g_auto(GStrv) candidates = NULL;
      gboolean found = FALSE;

      if (is_cache_path (files[i]))
        return tes_cli_usage_error ("cache: %s is a report cache itself, perhaps the only copy of "
                                    "its report; remove it with rm", files[i]);

      candidates = tes_cache_candidates_for_source (files[i]);
      for (guint j = 0; candidates[j] != NULL; j++)
        if (g_file_test (candidates[j], G_FILE_TEST_IS_REGULAR))
          {
            if (!remove_cache (candidates[j], &error))
              return tes_cli_input_error (error);
            found = TRUE;
          }
      if (!found)
        printf ("No cache for %s\n", files[i]);
    }

  return TES_CLI_EXIT_OK;
}

int
tes_cli_cache (int    argc,
               char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  gboolean list = FALSE;
  gboolean clear = FALSE;
  GOptionEntry entries[] = {
    { "list", 0, 0, G_OPTION_ARG_NONE, &list, "List the caches in the user cache folder and the FILEs' caches", NULL },
    { "clear", 0, 0, G_OPTION_ARG_NONE, &clear, "Remove the FILEs' caches, or every cache in the user cache folder", NULL },
    { NULL }
  };

  context = g_option_context_new ("cache --list|--clear [FILE…]");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return tes_cli_usage_error ("%s", error->message);

  /* "--" ends the options (GOption keeps it when a FILE after it starts
   * with '-') */
  for (int i = 2; i < argc; i++)
    if (g_str_equal (argv[i], "--"))
      {
        memmove (&argv[i], &argv[i + 1], (gsize)(argc - i) * sizeof (char *));
        argc--;
        break;
      }

  if (list == clear)
    return tes_cli_usage_error ("cache: give --list or --clear");

  if (list)
    return list_caches ((const char * const *)&argv[2], (guint)(argc - 2));

  return clear_caches ((const char * const *)&argv[2], (guint)(argc - 2));
}
