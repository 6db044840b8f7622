/* tes-huge-pages.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-huge-pages"

#include "config.h"

#include "tes-huge-pages.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* An import fills and empties memory by the gigabyte (a 10M-event trace's
 * slices are parsed, spilled, read back and packed into chunks), and where
 * the kernel hands out transparent huge pages only on request (the
 * "madvise" mode, as on Debian and most virtual machines) every 4 KiB of it
 * costs a page fault: on a virtual machine a 10M-event import spent as much
 * time in those as in parsing (docs/benchmarks.md). glibc asks for huge
 * pages for its big blocks and heap when its tunable glibc.malloc.hugetlb
 * is 1, and it reads tunables only as a program starts, so the program
 * starts once more with it set, before it has done anything else. */

#define TUNABLE "glibc.malloc.hugetlb"
/* set for the restarted program: what GLIBC_TUNABLES was before, "=" and
 * its value, or "" when it was not set */
#define SAVED "TES_SAVED_GLIBC_TUNABLES"

/* Sanitizers bring their own malloc, which the tunable does not reach. */
#if defined(__SANITIZE_ADDRESS__)
# define TES_SANITIZED 1
#elif defined(__has_feature)
# if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#  define TES_SANITIZED 1
# endif
#endif

#if defined(__linux__) && defined(__GLIBC__) && !defined(TES_SANITIZED)
# if __GLIBC_PREREQ(2, 35)
#  define TES_CAN_RESTART 1
# endif
#endif

#ifdef TES_CAN_RESTART
/* value: what GLIBC_TUNABLES was ("=" and its value) or "" (unset) */
static void
put_back (const char *value)
{
  if (*value == '=')
    g_setenv ("GLIBC_TUNABLES", value + 1, TRUE);
  else
    g_unsetenv ("GLIBC_TUNABLES");
  g_unsetenv (SAVED);
}

/* Only where pages are given on request: "always" gives them anyway and
 * "never" not at all. */
static gboolean
huge_pages_on_request (void)
{
  g_autofree char *mode = NULL;

  if (!g_file_get_contents ("/sys/kernel/mm/transparent_hugepage/enabled", &mode, NULL, NULL))
    return FALSE;

  return strstr (mode, "[madvise]") != NULL;
}
#endif

/* Whether this build can ask for huge pages at all (glibc 2.35 or later on
 * Linux, and no sanitizer's malloc). */
gboolean
tes_huge_pages_can_enable (void)
{
#ifdef TES_CAN_RESTART
  return TRUE;
#else
  return FALSE;
#endif
}

/* Call first thing in main(): returns at once where it has nothing to do,
 * else restarts the program (argv as given) with the tunable set. Back in
 * the restarted program, it puts GLIBC_TUNABLES back as it was, so that
 * the programs this one starts see the environment it was given. Set
 * TESSERA_HUGE_PAGES=0 to leave the program as it is. */
void
tes_huge_pages_enable (char **argv)
{
#ifdef TES_CAN_RESTART
  const char *preload = g_getenv ("LD_PRELOAD");
  g_autofree char *saved = g_strdup (g_getenv (SAVED));
  g_autofree char *tunables = g_strdup (g_getenv ("GLIBC_TUNABLES"));
  g_autofree char *was = NULL;
  g_autofree char *with = NULL;

  if (saved != NULL)
    {
      put_back (saved);
      return;
    }

  if (g_strcmp0 (g_getenv ("TESSERA_HUGE_PAGES"), "0") == 0 ||
      (tunables != NULL && strstr (tunables, TUNABLE) != NULL) ||
      /* valgrind would not follow into the restarted program */
      (preload != NULL && strstr (preload, "vgpreload") != NULL) ||
      argv == NULL || argv[0] == NULL ||
      !huge_pages_on_request ())
    return;

  with = tunables != NULL && *tunables != '\0'
         ? g_strconcat (tunables, ":" TUNABLE "=1", NULL)
         : g_strdup (TUNABLE "=1");
  was = tunables != NULL ? g_strconcat ("=", tunables, NULL) : g_strdup ("");
  g_setenv (SAVED, was, TRUE);
  g_setenv ("GLIBC_TUNABLES", with, TRUE);

  execv ("/proc/self/exe", argv);

  /* could not: go on as we are */
  g_debug ("cannot restart with huge pages: %s", g_strerror (errno));
  put_back (was);
#else
  (void)argv;
#endif
}
