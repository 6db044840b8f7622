/* test-huge-pages.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "tes-huge-pages.h"

/* tes_huge_pages_enable(), as both programs call it first thing: this
 * program runs itself as the child ("--child"), which calls it, then fills
 * 64 MiB with malloc() and says what glibc was started with (the
 * environment the kernel gave the program, /proc/self/environ, where glibc
 * cuts the text at the first ':' as it reads it), what its own environment
 * holds now, how much of its memory is in huge pages (AnonHugePages of
 * /proc/self/smaps_rollup), and the first byte of a small new block (which
 * glibc.malloc.perturb=N fills with N ^ 0xff). */

#define BIG (64 << 20)

/* GLIBC_TUNABLES as the program was started with it, "" when it was not */
static char *
started_with_tunables (void)
{
  g_autofree char *environ_text = NULL;
  gsize len;

  if (!g_file_get_contents ("/proc/self/environ", &environ_text, &len, NULL))
    return g_strdup ("?");

  for (const char *p = environ_text; p < environ_text + len; p += strlen (p) + 1)
    if (g_str_has_prefix (p, "GLIBC_TUNABLES="))
      return g_strdup (p + strlen ("GLIBC_TUNABLES="));

  return g_strdup ("");
}

static guint64
anon_huge_kb (void)
{
  g_autofree char *rollup = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/smaps_rollup", &rollup, NULL, NULL) ||
      !(line = strstr (rollup, "AnonHugePages:")))
    return 0;

  return g_ascii_strtoull (line + strlen ("AnonHugePages:"), NULL, 10);
}

static int
run_child (char **argv)
{
  g_autofree char *started = NULL;
  volatile char *big;
  volatile unsigned char *small;

  tes_huge_pages_enable (argv);

  big = malloc (BIG);
  g_assert_nonnull (big);
  for (gsize i = 0; i < BIG; i += 4096)
    big[i] = 1;

  small = malloc (4000);  /* past the tcache, which perturb does not reach */
  g_assert_nonnull (small);
  g_print ("small=%u\n", small[0]);
  free ((unsigned char *)small);

  started = started_with_tunables ();
  g_print ("started=%s\n", started);
  g_print ("now=%s\n", g_getenv ("GLIBC_TUNABLES") ? g_getenv ("GLIBC_TUNABLES") : "(unset)");
  g_print ("saved=%s\n", g_getenv ("TES_SAVED_GLIBC_TUNABLES") ? "set" : "(unset)");
  g_print ("huge_kb=%" G_GUINT64_FORMAT "\n", anon_huge_kb ());
  free ((char *)big);

  return 0;
}

typedef struct
{
  char   *started;
  char   *now;
  char   *saved;
  guint64 huge_kb;
  guint   small;
} Child;

static void
child_clear (Child *c)
{
  g_free (c->started);
  g_free (c->now);
  g_free (c->saved);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Child, child_clear)

/* Runs the child with GLIBC_TUNABLES and TESSERA_HUGE_PAGES as given
 * (NULL: unset). */
static void
run (Child      *c,
     const char *tunables,
     const char *huge_pages)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) env = g_get_environ ();
  g_auto(GStrv) lines = NULL;
  g_autofree char *out = NULL;
  char *argv[] = { (char *)"/proc/self/exe", (char *)"--child", NULL };
  int status = 0;

  env = g_environ_unsetenv (env, "GLIBC_TUNABLES");
  env = g_environ_unsetenv (env, "TESSERA_HUGE_PAGES");
  /* meson's, which would set glibc.malloc.perturb too */
  env = g_environ_unsetenv (env, "MALLOC_PERTURB_");
  if (tunables != NULL)
    env = g_environ_setenv (env, "GLIBC_TUNABLES", tunables, TRUE);
  if (huge_pages != NULL)
    env = g_environ_setenv (env, "TESSERA_HUGE_PAGES", huge_pages, TRUE);

  /* /proc/self/exe in the child is this program again */
  argv[0] = g_file_read_link ("/proc/self/exe", &error);
  g_assert_no_error (error);
  g_spawn_sync (NULL, argv, env, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status, &error);
  g_free (argv[0]);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);

  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (g_str_has_prefix (lines[i], "started="))
        c->started = g_strdup (lines[i] + strlen ("started="));
      else if (g_str_has_prefix (lines[i], "now="))
        c->now = g_strdup (lines[i] + strlen ("now="));
      else if (g_str_has_prefix (lines[i], "saved="))
        c->saved = g_strdup (lines[i] + strlen ("saved="));
      else if (g_str_has_prefix (lines[i], "small="))
        c->small = (guint)g_ascii_strtoull (lines[i] + strlen ("small="), NULL, 10);
      else if (g_str_has_prefix (lines[i], "huge_kb="))
        c->huge_kb = g_ascii_strtoull (lines[i] + strlen ("huge_kb="), NULL, 10);
    }
  g_assert_nonnull (c->started);
  g_assert_nonnull (c->now);
  g_assert_nonnull (c->saved);
  g_test_message ("GLIBC_TUNABLES=%s HUGE_PAGES=%s: started with \"%s\", now %s, %" G_GUINT64_FORMAT " KB in huge pages",
                  tunables ? tunables : "(unset)", huge_pages ? huge_pages : "(unset)",
                  c->started, c->now, c->huge_kb);
}

/* Where the kernel gives huge pages only on request the program restarts;
 * elsewhere there is nothing to see. */
static gboolean
skip_unless_on_request (void)
{
  g_autofree char *mode = NULL;

  if (!tes_huge_pages_can_enable ())
    {
      g_test_skip ("this build does not ask for huge pages (not glibc 2.35+, or a sanitizer's malloc)");
      return TRUE;
    }
  if (!g_file_get_contents ("/sys/kernel/mm/transparent_hugepage/enabled", &mode, NULL, NULL) ||
      strstr (mode, "[madvise]") == NULL)
    {
      g_test_skip ("the kernel does not give transparent huge pages on request (madvise) here");
      return TRUE;
    }

  return FALSE;
}

/* Restarted with the tunable, its own environment as it was given (unset,
 * or set and empty), and the big block in huge pages. */
static void
test_restart (void)
{
  g_auto(Child) c = { 0 };
  g_auto(Child) empty = { 0 };

  if (skip_unless_on_request ())
    return;

  run (&c, NULL, NULL);
  g_assert_cmpstr (c.started, ==, "glibc.malloc.hugetlb=1");
  g_assert_cmpstr (c.now, ==, "(unset)");
  g_assert_cmpstr (c.saved, ==, "(unset)");
  g_assert_cmpuint (c.huge_kb, >=, 2048);

  run (&empty, "", NULL);
  g_assert_cmpstr (empty.started, ==, "glibc.malloc.hugetlb=1");
  g_assert_cmpstr (empty.now, ==, "");
  g_assert_cmpstr (empty.saved, ==, "(unset)");
  g_assert_cmpuint (empty.huge_kb, >=, 2048);
}

/* Tunables the user gave are kept (and take effect), the one added after
 * them. */
static void
test_other_tunables (void)
{
  g_auto(Child) c = { 0 };

  if (skip_unless_on_request ())
    return;

  run (&c, "glibc.malloc.perturb=85", NULL);
  g_assert_cmpstr (c.started, ==, "glibc.malloc.perturb=85");
  g_assert_cmpuint (c.small, ==, 85 ^ 0xff);
  g_assert_cmpstr (c.now, ==, "glibc.malloc.perturb=85");
  g_assert_cmpstr (c.saved, ==, "(unset)");
  g_assert_cmpuint (c.huge_kb, >=, 2048);
}

/* TESSERA_HUGE_PAGES=0, or the user's own hugetlb setting: no restart, and
 * then the same block takes no huge page (what the restart changes). */
static void
test_left_alone (void)
{
  g_auto(Child) off = { 0 };
  g_auto(Child) given = { 0 };

  if (skip_unless_on_request ())
    return;

  run (&off, NULL, "0");
  g_assert_cmpstr (off.started, ==, "");
  g_assert_cmpstr (off.now, ==, "(unset)");
  g_assert_cmpuint (off.huge_kb, ==, 0);

  run (&given, "glibc.malloc.hugetlb=0", NULL);
  g_assert_cmpstr (given.started, ==, "glibc.malloc.hugetlb=0");
  g_assert_cmpstr (given.now, ==, "glibc.malloc.hugetlb=0");
  g_assert_cmpuint (given.huge_kb, ==, 0);
}

int
main (int    argc,
      char **argv)
{
  if (argc > 1 && g_str_equal (argv[1], "--child"))
    return run_child (argv);

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/huge-pages/restart", test_restart);
  g_test_add_func ("/huge-pages/other-tunables", test_other_tunables);
  g_test_add_func ("/huge-pages/left-alone", test_left_alone);

  return g_test_run ();
}
