/* tes-bench-util.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What the benchmarks print: one JSON object a line, which run-bench
 * collects into build/bench/results.json and docs/benchmarks.md. */
double  tes_bench_ms_since (gint64      start_us);
double  tes_bench_median   (GArray     *values);
/* the process's CPU time in ms (every thread's): what a step cost apart
 * from waiting for a core on a busy machine */
double  tes_bench_cpu_ms   (void);
void    tes_bench_emit     (const char *name,
                            double      value,
                            const char *unit,
                            double      baseline,
                            const char *baseline_name,
                            guint64     n,
                            const char *note);

G_END_DECLS
