/* tes-cache-syncer.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-cache-writer"

#include "config.h"

#include "tes-cache-syncer.h"

#include <errno.h>
#include <unistd.h>

/* The cache is synced before it is renamed into place, and what that sync
 * costs grows with the bytes written since the last one, however early
 * their writeback was started: on a virtual disk each MB waits for the
 * host's flush (1.5 ms per MB here, docs/benchmarks.md), so a 40 MB cache
 * waited 55–60 ms at the end of its import with both cores idle. This
 * thread syncs the file every few MB while the import still computes;
 * the final sync then waits only for what came since. */

struct _TesCacheSyncer
{
  int       fd;
  gsize     every;
  gsize     unsynced;    /* bytes noted since the last request */
  GThread  *thread;      /* started by the first request */
  GMutex    lock;
  GCond     cond;
  gboolean  requested;
  gboolean  stop;
  int       errsv;       /* the first failed sync's errno; 0: none */
  guint     runs;
};

static gpointer
sync_thread (gpointer data)
{
  TesCacheSyncer *self = data;

  g_mutex_lock (&self->lock);
  for (;;)
    {
      int errsv = 0;

      while (!self->requested && !self->stop)
        g_cond_wait (&self->cond, &self->lock);
      if (self->stop)
        break;
      self->requested = FALSE;
      g_mutex_unlock (&self->lock);

      while (fdatasync (self->fd) != 0)
        if ((errsv = errno) != EINTR)
          break;

      g_mutex_lock (&self->lock);
      self->runs++;
      if (errsv != 0 && errsv != EINTR && self->errsv == 0)
        self->errsv = errsv;
    }
  g_mutex_unlock (&self->lock);

  return NULL;
}

/* fd stays the caller's; a sync is asked for every @every bytes noted. */
TesCacheSyncer *
tes_cache_syncer_new (int   fd,
                      gsize every)
{
  TesCacheSyncer *self;

  g_return_val_if_fail (fd >= 0, NULL);
  g_return_val_if_fail (every > 0, NULL);

  self = g_new0 (TesCacheSyncer, 1);
  self->fd = fd;
  self->every = every;
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);

  return self;
}

/* Bytes handed on to be written. A request while a sync runs makes one
 * more once it is done, never a queue of them. */
void
tes_cache_syncer_note (TesCacheSyncer *self,
                       gsize           bytes)
{
  self->unsynced += bytes;
  if (self->unsynced < self->every)
    return;
  self->unsynced = 0;

  g_mutex_lock (&self->lock);
  if (self->thread == NULL && !self->stop)
    self->thread = g_thread_try_new ("tes-cache-sync", sync_thread, self, NULL);
  self->requested = TRUE;
  g_cond_signal (&self->cond);
  g_mutex_unlock (&self->lock);
}

/* Stops the thread, after the sync it may be making. */
static void
stop_thread (TesCacheSyncer *self)
{
  g_mutex_lock (&self->lock);
  self->stop = TRUE;
  g_cond_signal (&self->cond);
  g_mutex_unlock (&self->lock);
  g_clear_pointer (&self->thread, g_thread_join);
}

/* Waits for a sync under way, then syncs what is left, on the caller's
 * thread: FALSE with *errsv set when this or an earlier sync failed. */
gboolean
tes_cache_syncer_finish (TesCacheSyncer *self,
                         int            *errsv)
{
  stop_thread (self);

  while (self->errsv == 0 && fsync (self->fd) != 0)
    if (errno != EINTR)
      self->errsv = errno;

  *errsv = self->errsv;
  return self->errsv == 0;
}

/* How many syncs the thread made: for tests and the debug log. */
guint
tes_cache_syncer_get_runs (TesCacheSyncer *self)
{
  guint runs;

  g_mutex_lock (&self->lock);
  runs = self->runs;
  g_mutex_unlock (&self->lock);

  return runs;
}

void
tes_cache_syncer_free (TesCacheSyncer *self)
{
  if (self == NULL)
    return;

  stop_thread (self);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);
  g_free (self);
}
