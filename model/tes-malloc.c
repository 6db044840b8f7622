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
 * of a frame's time (20-32 ms of CPU between two ticks under Xvfb; 8.6-12
 * ms with this, docs/benchmarks.md). Blocks up to 32 MB now come from the
 * heap, and freed memory is kept for the next ones up to 128 MB. Called
 * first thing by the programs that draw (the window, tessera-cli-render,
 * the benchmarks of their frames) and the window tests. Not by
 * tessera-cli: an import keeps more that way (a 1M-event trace's peak
 * 64-78 MB instead of 57-61, over half the file's 126 MB) for 0.15-0.3 s
 * less at 10M events. */
void
tes_malloc_keep_freed (void)
{
#ifdef __GLIBC__
  mallopt (M_MMAP_THRESHOLD, HEAP_BLOCK_MAX);
  mallopt (M_TRIM_THRESHOLD, KEEP_FREED);
#endif
}
