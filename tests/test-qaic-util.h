/* test-qaic-util.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "tes-report.h"
#include "tes-test-util.h"

G_BEGIN_DECLS

/* What the qaic test programs (test-qaic-*.c) share: the files they read
 * (ours in tests/data/qaic, the real Cloud AI SDK outputs in
 * ../shared/fixtures/real/qaic), importing with a named importer, and
 * bad input made from a good text. */

#define REAL_DIR "fixtures/real/qaic/"
#define OWN_DIR "qaic/"
#define STATS_OWN "aic-profiling-program-0-activation-0-inf-4.txt"
#define RUNNER_OWN "qaic-runner-stdout.txt"
#define LATENCY_OWN "latency_stats.txt"
#define TRACE_OWN "opstats_trace_mini.json"
#define STATS_FIXTURE "cloud-ai-sdk__Profiler.ipynb__aic-profiling-program-0-activation-0-inf-100.txt"
#define CELL13 "cloud-ai-sdk__Profiler.ipynb__cell13_qaic-runner_profiling_stdout.txt"
#define CELL17 "cloud-ai-sdk__Profiler-LLM.ipynb__cell17_qaic-runner_stdout.txt"
#define CELL18 "cloud-ai-sdk__Profiler.ipynb__cell18_qaic-runner_latency_stdout.txt"
#define CELL19 "cloud-ai-sdk__Profiler.ipynb__cell19_latency_stats_python3_output.txt"
#define STATS_FIXTURE_SHORT "aic-profiling-program-0-activation-0-inf-100.txt"

typedef struct
{
  const char *name;
  char       *contents;   /* freed by run_bad_cases() */
  gssize      len;
  int         code;
  const char *message;    /* substring, after the file name */
} BadCase;

TesReport *open_with      (const char  *path,
                           const char  *importer_name,
                           GError     **error);
char      *replace        (const char  *text,
                           const char  *old,
                           const char  *new_text);
char      *cut_after_line (const char  *text,
                           guint        n);
void       run_bad_cases  (const char  *importer_name,
                           BadCase     *cases,
                           guint        n_cases);

G_END_DECLS
