/* tes-malloc.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tes-malloc.h"

#ifdef __GLIBC__
# include <malloc.h>
#endif

/* The most glibc serves from its heap (its own limit on 64-bit systems):
 * a 4K window's frame, 3840 × 2160 × 4 bytes, is just under */
#define HEAP_BLOCK_MAX (32 * 1024 * 1024)
/* freed memory kept before any is handed back */
#define KEEP_FREED (128 * 1024 * 1024)

/* Each frame of a window draws into images of its size, made and freed
 * again: by default glibc maps blocks of that size afresh and unmaps them
 * when freed, so each frame faulted in a few hundred new pages. On a
 * virtual machine whose page faults go through the host, that was most
 * of a frame's time (20-30 ms for a frame of 800 × 500 under Xvfb;
 * 7 ms with this, docs/benchmarks.md). Blocks up to 32 MB now come from
 * the heap, and freed memory is kept for the next ones up to 128 MB. Call
 * first thing in main(), as the window tests do. */
void
tes_malloc_keep_freed (void)
{
#ifdef __GLIBC__
  mallopt (M_MMAP_THRESHOLD, HEAP_BLOCK_MAX);
  mallopt (M_TRIM_THRESHOLD, KEEP_FREED);
#endif
}
