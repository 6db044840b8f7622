/* tes-test-util.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tes-test-util.h"

#include <string.h>
#include <sys/wait.h>

#include <gio/gio.h>

/* A file under tests/data. */
char *
tes_test_data_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "data", name, NULL);
}

/* A file under ../shared (the fixtures every developer and CI run has). */
char *
tes_test_shared_path (const char *relative)
{
  const char *dir = g_getenv ("TES_SHARED_DIR");

  if (dir == NULL)
    dir = TES_SHARED_DIR;

  return g_build_filename (dir, relative, NULL);
}

/* With G_TEST_OPTION_ISOLATE_DIRS each test case gets a fresh
 * $XDG_CACHE_HOME etc.; we keep scratch files under it too. */
char *
tes_test_tmp_path (const char *name)
{
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "..", "tes-test-tmp", NULL);
  g_autofree char *canon = g_canonicalize_filename (dir, NULL);

  g_assert_no_errno (g_mkdir_with_parents (canon, 0755));

  return g_build_filename (canon, name, NULL);
}

void
tes_test_write_file (const char *path,
                     const char *contents,
                     gssize      len)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, contents, len, &error);
  g_assert_no_error (error);
}

char *
tes_test_copy_to_tmp (const char *src,
                      const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  char *dest = tes_test_tmp_path (name);
  gsize len;

  g_file_get_contents (src, &contents, &len, &error);
  g_assert_no_error (error);
  tes_test_write_file (dest, contents, len);

  return dest;
}

gboolean
tes_test_run (const char * const  *argv,
              char               **out,
              char               **err,
              int                 *exit_status)
{
  g_autoptr(GError) error = NULL;
  int wait_status = 0;

  g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                out, err, &wait_status, &error);
  g_assert_no_error (error);

  g_assert_true (WIFEXITED (wait_status));
  *exit_status = WEXITSTATUS (wait_status);

  return *exit_status == 0;
}

void
tes_cli_result_clear (TesCliResult *r)
{
  g_clear_pointer (&r->out, g_free);
  g_clear_pointer (&r->err, g_free);
}

/* Runs tessera-cli with the NULL-terminated arguments; r keeps what it
 * printed and its exit status. */
void
tes_test_run_cli (TesCliResult *r,
                  ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  const char *cli = g_getenv ("TESSERA_CLI");
  const char *arg;
  va_list args;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (gpointer)cli);
  va_start (args, r);
  while ((arg = va_arg (args, const char *)))
    g_ptr_array_add (argv, (gpointer)arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  tes_cli_result_clear (r);
  tes_test_run ((const char * const *)argv->pdata, &r->out, &r->err, &r->status);
}

void
tes_test_assert_contains (const char *haystack,
                          const char *needle)
{
  if (haystack == NULL || strstr (haystack, needle) == NULL)
    g_error ("'%s' does not contain '%s'", haystack ? haystack : "(null)", needle);
}

/* The report's info value for key is exactly expected (NULL: absent). */
void
tes_test_assert_info (TesReport  *report,
                      const char *key,
                      const char *expected)
{
  g_autofree char *got = tes_report_lookup_info (report, key);

  if (g_strcmp0 (got, expected) != 0)
    g_error ("info %s is '%s', expected '%s'", key, got ? got : "(none)", expected ? expected : "(none)");
}
