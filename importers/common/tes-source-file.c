/* tes-source-file.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-source-file"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tes-source-file.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>

static int
fail_not_regular (const char  *path,
                  mode_t       mode,
                  GError     **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
               _("%s: not a regular file (%s); Tessera reads only files"), path,
               S_ISDIR (mode) ? "a folder" :
               S_ISFIFO (mode) ? "a FIFO" :
               S_ISSOCK (mode) ? "a socket" :
               S_ISCHR (mode) ? "a character device" :
               S_ISBLK (mode) ? "a block device" : "not a file");
  return -1;
}

static int
fail_errno (const char  *path,
            int          errsv,
            GError     **error)
{
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
               "%s: %s", path, g_strerror (errsv));
  return -1;
}

/* Only regular files are read: a FIFO blocks the open and the reads, a
 * device may never end (/dev/zero), a socket cannot be opened, a folder is
 * not a report. The check comes before anything could block (stat), and
 * again on what was opened, without blocking, so that nothing swapped in
 * between is read. Returns a file descriptor open for reading, or -1. */
int
tes_source_file_open (const char  *path,
                      GError     **error)
{
  GStatBuf st;
  int fd;

  g_return_val_if_fail (path != NULL, -1);

  if (g_stat (path, &st) != 0)
    return fail_errno (path, errno, error);
  if (!S_ISREG (st.st_mode))
    return fail_not_regular (path, st.st_mode, error);

  if ((fd = g_open (path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0)) < 0)
    return fail_errno (path, errno, error);

  if (fstat (fd, &st) != 0)
    {
      int errsv = errno;

      close (fd);
      return fail_errno (path, errsv, error);
    }
  if (!S_ISREG (st.st_mode))
    {
      close (fd);
      return fail_not_regular (path, st.st_mode, error);
    }

  fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

/* Whether path is a regular file that can be read (else @error says why). */
gboolean
tes_source_file_check (const char  *path,
                       GError     **error)
{
  int fd = tes_source_file_open (path, error);

  if (fd < 0)
    return FALSE;
  close (fd);
  return TRUE;
}
