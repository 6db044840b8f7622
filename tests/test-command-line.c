/* test-command-line.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <glib/gstdio.h>

#include "tes-test-util.h"

/* Both programs' command lines: "--" ends the options (of every command
 * of tessera-cli, and of tessera), so that a file may start with '-', and
 * tessera-cli --help lists every command it runs (the list its
 * unknown-command error gives, taken from the commands it dispatches);
 * and tessera refuses a FIFO at once, as tessera-cli does
 * (test-bad-input). */

/* tessera-cli ARGS… run in dir (a file named "--x" is only given as such
 * relative to it). */
static void
run_cli_in (TesCliResult *r,
            const char   *dir,
            ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  const char *arg;
  int wait_status = 0;
  va_list args;

  g_ptr_array_add (argv, (gpointer)g_getenv ("TESSERA_CLI"));
  va_start (args, dir);
  while ((arg = va_arg (args, const char *)))
    g_ptr_array_add (argv, (gpointer)arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  tes_cli_result_clear (r);
  g_spawn_sync (dir, (char **)argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                &r->out, &r->err, &wait_status, &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  r->status = WEXITSTATUS (wait_status);
}

/* The commands --help lists under "Commands:". */
static GPtrArray *
help_commands (void)
{
  g_auto(TesCliResult) r = { 0 };
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) lines = NULL;
  gboolean in_list = FALSE;

  tes_test_run_cli (&r, "--help", NULL);
  g_assert_cmpint (r.status, ==, 0);
  lines = g_strsplit (r.out, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      if (g_str_equal (lines[i], "Commands:"))
        in_list = TRUE;
      else if (in_list && lines[i][0] == '\0')
        break;
      else if (in_list && g_str_has_prefix (lines[i], "  ") && g_ascii_isalpha (lines[i][2]))
        {
          const char *end = lines[i] + 2;

          while (g_ascii_isalpha (*end))
            end++;
          g_ptr_array_add (names, g_strndup (lines[i] + 2, end - (lines[i] + 2)));
        }
    }

  return names;
}

/* The commands tessera-cli runs, as its error for an unknown one names
 * them. */
static GPtrArray *
run_commands (void)
{
  g_auto(TesCliResult) r = { 0 };
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *list;
  g_autofree char *line = NULL;
  g_auto(GStrv) parts = NULL;

  tes_test_run_cli (&r, "no-such-command", NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull ((list = strstr (r.err, "the commands: ")));
  list += strlen ("the commands: ");
  line = g_strndup (list, strcspn (list, "\n"));
  parts = g_strsplit (line, ", ", -1);
  for (guint i = 0; parts[i]; i++)
    g_ptr_array_add (names, g_strdup (parts[i]));

  return names;
}

static gboolean
has_name (GPtrArray  *names,
          const char *name)
{
  return g_ptr_array_find_with_equal_func (names, name, g_str_equal, NULL);
}

static void
test_help_lists_every_command (void)
{
  g_autoptr(GPtrArray) listed = help_commands ();
  g_autoptr(GPtrArray) run = run_commands ();

  g_assert_cmpuint (run->len, >=, 6);
  for (guint i = 0; i < run->len; i++)
    if (!has_name (listed, g_ptr_array_index (run, i)))
      g_error ("tessera-cli --help does not list its command '%s'", (char *)g_ptr_array_index (run, i));
  for (guint i = 0; i < listed->len; i++)
    if (!has_name (run, g_ptr_array_index (listed, i)))
      g_error ("tessera-cli --help lists '%s', which it does not run", (char *)g_ptr_array_index (listed, i));
}

/* What a command prints for the fixture named "--op.txt" (or, for
 * memory, "--report.txt") after "--". */
typedef struct
{
  const char *command;
  const char *file;
  const char *expected_out;
} DashCase;

static const DashCase dash_cases[] = {
  { "info", "--op.txt", "File:           --op.txt\n" },
  { "summary", "--op.txt", "CONV_2D 80.743%\n" },
  { "compare", "--op.txt", "A: --op.txt  total 99.998 %\n" },
  { "memory", "--report.txt", "Tiles out of memory: 1 (as the report prints it)\n" },
};

static void
test_double_dash_ends_options (void)
{
  g_autofree char *op = tes_test_copy_fixture (TES_TEST_OWN_DATA, "yolov8s_op_time_total.txt");
  g_autofree char *report = tes_test_copy_fixture (TES_TEST_OWN_DATA, "poplar/compile_report_small.txt");
  g_autofree char *dir = g_path_get_dirname (op);
  g_autofree char *dash_op = g_build_filename (dir, "--op.txt", NULL);
  g_autofree char *dash_report = g_build_filename (dir, "--report.txt", NULL);
  g_autoptr(GPtrArray) commands = help_commands ();
  g_auto(TesCliResult) r = { 0 };

  g_assert_no_errno (g_rename (op, dash_op));
  g_assert_no_errno (g_rename (report, dash_report));

  for (guint i = 0; i < G_N_ELEMENTS (dash_cases); i++)
    {
      const DashCase *c = &dash_cases[i];
      gboolean two = g_str_equal (c->command, "compare");

      /* without "--" the file is an option nobody knows */
      run_cli_in (&r, dir, c->command, c->file, two ? c->file : NULL, NULL);
      g_assert_cmpint (r.status, ==, 2);
      tes_test_assert_contains (r.err, "Unknown option");

      run_cli_in (&r, dir, c->command, "--", c->file, two ? c->file : NULL, NULL);
      if (r.status != 0)
        g_error ("tessera-cli %s -- %s: exit %d: %s", c->command, c->file, r.status, r.err);
      tes_test_assert_contains (r.out, c->expected_out);
    }

  /* every other command takes "--" too: whatever it makes of the file,
   * the file is not taken for an option */
  for (guint i = 0; i < commands->len; i++)
    {
      const char *command = g_ptr_array_index (commands, i);

      if (g_str_equal (command, "formats"))
        continue;
      run_cli_in (&r, dir, command, "--", "--op.txt", "--op.txt", NULL);
      if (strstr (r.err, "Unknown option --op.txt") != NULL)
        g_error ("tessera-cli %s does not end its options at --: %s", command, r.err);
    }
}

/* What tessera ARGS… printed on stderr, run in dir for 10 s (the window
 * stays open, so it is stopped then), on its own: no session bus to find
 * another instance on, warnings not fatal. NULL without tessera (a build
 * without GTK) or a display. */
static char *
run_app_in (const char *dir,
            ...)
{
  const char *app = g_getenv ("TESSERA_APP");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(GStrv) env = g_get_environ ();
  g_autoptr(GError) error = NULL;
  char *err = NULL;
  const char *arg;
  int wait_status;
  va_list args;

  if (app == NULL || g_getenv ("DISPLAY") == NULL)
    return NULL;

  g_ptr_array_add (argv, (gpointer)"timeout");
  g_ptr_array_add (argv, (gpointer)"10");
  g_ptr_array_add (argv, (gpointer)app);
  va_start (args, dir);
  while ((arg = va_arg (args, const char *)))
    g_ptr_array_add (argv, (gpointer)arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  env = g_environ_unsetenv (env, "G_DEBUG");
  env = g_environ_setenv (env, "DBUS_SESSION_BUS_ADDRESS", "disabled:", TRUE);
  g_spawn_sync (dir, (char **)argv->pdata, env, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                NULL, NULL, NULL, &err, &wait_status, &error);
  g_assert_no_error (error);

  return err;
}

static char *
tmp_dir (void)
{
  g_autofree char *probe = tes_test_tmp_path ("probe");

  return g_path_get_dirname (probe);
}

/* tessera -- --missing.txt: the window says it cannot open
 * DIR/--missing.txt, and no file named "--" is tried. */
static void
test_app_double_dash (void)
{
  g_autofree char *dir = tmp_dir ();
  g_autofree char *missing = g_build_filename (dir, "--missing.txt", NULL);
  /* as the window names a file it cannot open: "PATH: …" */
  g_autofree char *dash = g_strconcat (dir, G_DIR_SEPARATOR_S "--:", NULL);
  g_autofree char *err = run_app_in (dir, "--", "--missing.txt", NULL);

  if (err == NULL)
    {
      g_test_skip ("no tessera (built without GTK) or no display");
      return;
    }

  tes_test_assert_contains (err, missing);
  if (strstr (err, dash) != NULL)
    g_error ("tessera took \"--\" for a file: %s", err);
}

/* tessera FIFO: the window refuses it at once, rather than waiting for a
 * writer that never comes. */
static void
test_app_not_a_file (void)
{
  g_autofree char *dir = tmp_dir ();
  g_autofree char *fifo = g_build_filename (dir, "fifo", NULL);
  g_autofree char *expected = g_strdup_printf ("%s: not a regular file (a FIFO)", fifo);
  g_autofree char *err = NULL;

  g_assert_no_errno (mkfifo (fifo, 0600));
  if ((err = run_app_in (dir, fifo, NULL)) == NULL)
    {
      g_test_skip ("no tessera (built without GTK) or no display");
      return;
    }

  tes_test_assert_contains (err, expected);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tes_test_add (TES_TEST_OWN_DATA, "/tes/command-line/help-lists-every-command", test_help_lists_every_command);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/command-line/double-dash-ends-options", test_double_dash_ends_options);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/command-line/app-double-dash", test_app_double_dash);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/command-line/app-not-a-file", test_app_not_a_file);

  return g_test_run ();
}
