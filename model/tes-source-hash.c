/* tes-source-hash.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-cache"

#include "config.h"

#include "tes-cache-private.h"
#include "tes-source-hash.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

/* Each block's hash is tes_cache_hash64 () of its bytes; the fingerprint
 * is tes_cache_hash64 () of the blocks' hashes (64-bit little-endian, in
 * file order) seeded with the size. A block is claimed before it is
 * hashed, so that two readers never both hash it; whoever finishes reads
 * what nobody hashed (docs/cache-schema.md, "Sources"). */
struct _TesSourceHash
{
  guint64  size;
  guint64  n_blocks;
  guint64 *hashes;
  gint    *claimed;     /* per block, 1 once some reader took it */
  guint    n_filled;    /* blocks read by tes_source_hash_fill () */
};

TesSourceHash *
tes_source_hash_new (guint64 size)
{
  TesSourceHash *self = g_new0 (TesSourceHash, 1);

  self->size = size;
  self->n_blocks = (size + TES_SOURCE_HASH_BLOCK - 1) / TES_SOURCE_HASH_BLOCK;
  self->hashes = g_new0 (guint64, MAX (self->n_blocks, 1));
  self->claimed = g_new0 (gint, MAX (self->n_blocks, 1));

  return self;
}

void
tes_source_hash_free (TesSourceHash *self)
{
  if (self == NULL)
    return;

  g_free (self->hashes);
  g_free (self->claimed);
  g_free (self);
}

static inline gsize
block_len (TesSourceHash *self,
           guint64        block)
{
  return (gsize)MIN ((guint64)TES_SOURCE_HASH_BLOCK, self->size - block * TES_SOURCE_HASH_BLOCK);
}

/* data, len: the bytes at offset as read. Only a whole block counts (a
 * read that starts where a block does and holds all of it); returns
 * whether the block is hashed now, by this call or an earlier one. Any
 * thread may call it. */
gboolean
tes_source_hash_add_block (TesSourceHash *self,
                           guint64        offset,
                           const guint8  *data,
                           gsize          len)
{
  guint64 block = offset / TES_SOURCE_HASH_BLOCK;

  if (offset % TES_SOURCE_HASH_BLOCK != 0 || block >= self->n_blocks || len < block_len (self, block))
    return FALSE;
  if (g_atomic_int_compare_and_exchange (&self->claimed[block], 0, 1))
    self->hashes[block] = tes_cache_hash64 (data, block_len (self, block), 0);

  return TRUE;
}

static gboolean
read_block (int            fd,
            const char    *path,
            guint64        offset,
            guint8        *buf,
            gsize          want,
            gsize         *got,
            GError       **error)
{
  *got = 0;
  while (*got < want)
    {
      gssize n = pread (fd, buf + *got, want - *got, (off_t)(offset + *got));

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int errsv = errno;

          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv),
                       "Failed to read from file \u201c%s\u201d at byte %" PRIu64 ": %s",
                       path, offset + *got, g_strerror (errsv));
          return FALSE;
        }
      if (n == 0)
        break;   /* shorter than when it was stat'ed: its bytes as they are */
      *got += (gsize)n;
    }

  return TRUE;
}

static gboolean
fill_fd (TesSourceHash  *self,
         int             fd,
         const char     *path,
         GCancellable   *cancellable,
         GError        **error)
{
  g_autofree guint8 *buf = NULL;

  for (guint64 b = 0; b < self->n_blocks; b++)
    {
      gsize got;

      if (!g_atomic_int_compare_and_exchange (&self->claimed[b], 0, 1))
        continue;
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          g_atomic_int_set (&self->claimed[b], 0);
          return FALSE;
        }
      if (buf == NULL)
        buf = g_malloc (TES_SOURCE_HASH_BLOCK);
      if (!read_block (fd, path, b * TES_SOURCE_HASH_BLOCK, buf, block_len (self, b), &got, error))
        {
          g_atomic_int_set (&self->claimed[b], 0);
          return FALSE;
        }
      self->hashes[b] = tes_cache_hash64 (buf, got, 0);
      self->n_filled++;
      tes_cache_count_fingerprint_bytes (got);
    }

  return TRUE;
}

static int
open_source (const char  *path,
             GError     **error)
{
  int fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);

  if (fd < 0)
    {
      int errsv = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv),
                   "Failed to open file \u201c%s\u201d: open() failed: %s", path, g_strerror (errsv));
    }
  return fd;
}

static gboolean
all_claimed (TesSourceHash *self)
{
  for (guint64 b = 0; b < self->n_blocks; b++)
    if (g_atomic_int_get (&self->claimed[b]) == 0)
      return FALSE;
  return TRUE;
}

/* Reads and hashes the blocks nobody hashed yet (none: the file is not
 * opened). Safe beside readers that add blocks. */
gboolean
tes_source_hash_fill (TesSourceHash  *self,
                      const char     *path,
                      GCancellable   *cancellable,
                      GError        **error)
{
  gboolean ok;
  int fd;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (all_claimed (self))
    return TRUE;
  if ((fd = open_source (path, error)) < 0)
    return FALSE;
  tes_cache_count_fingerprint_read ();
  ok = fill_fd (self, fd, path, cancellable, error);
  close (fd);

  return ok;
}

/* How many blocks tes_source_hash_fill () had to read. */
guint
tes_source_hash_get_n_filled (TesSourceHash *self)
{
  return self->n_filled;
}

/* The fingerprint, once every block is hashed (after fill, and after the
 * threads that added blocks were joined). */
char *
tes_source_hash_finish (TesSourceHash *self)
{
  g_autofree guint64 *le = g_new (guint64, MAX (self->n_blocks, 1));

  for (guint64 b = 0; b < self->n_blocks; b++)
    {
      g_return_val_if_fail (g_atomic_int_get (&self->claimed[b]) == 1, NULL);
      le[b] = GUINT64_TO_LE (self->hashes[b]);
    }

  return g_strdup_printf ("%016" G_GINT64_MODIFIER "x",
                          tes_cache_hash64 ((const guint8 *)le, self->n_blocks * sizeof (guint64), self->size));
}

char *
tes_cache_fingerprint_bytes (const guint8 *data,
                             gsize         len)
{
  g_autoptr(TesSourceHash) hash = tes_source_hash_new (len);

  for (gsize at = 0; at < len; at += TES_SOURCE_HASH_BLOCK)
    tes_source_hash_add_block (hash, at, data + at, MIN ((gsize)TES_SOURCE_HASH_BLOCK, len - at));

  return tes_source_hash_finish (hash);
}

/* Read by blocks rather than mapping the file: a mapping's pages count as
 * resident once touched, as much as the whole file for a big trace, and a
 * file truncated while mapped would kill the process with SIGBUS. */
char *
tes_cache_fingerprint_file (const char    *path,
                            GCancellable  *cancellable,
                            GError       **error)
{
  g_autoptr(TesSourceHash) hash = NULL;
  struct stat st;
  gboolean ok;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  if ((fd = open_source (path, error)) < 0)
    return NULL;
  if (fstat (fd, &st) != 0)
    {
      int errsv = errno;

      close (fd);
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv),
                   "Failed to read from file \u201c%s\u201d: %s", path, g_strerror (errsv));
      return NULL;
    }

  tes_cache_count_fingerprint_read ();
  hash = tes_source_hash_new ((guint64)st.st_size);
  ok = fill_fd (hash, fd, path, cancellable, error);
  close (fd);

  return ok ? tes_source_hash_finish (hash) : NULL;
}
