/* tes-test-util.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "tes-report.h"

G_BEGIN_DECLS

char     *tes_test_data_path    (const char  *name);
char     *tes_test_shared_path  (const char  *relative);
char     *tes_test_copy_to_tmp  (const char  *src,
                                 const char  *name);
char     *tes_test_tmp_path     (const char  *name);
void      tes_test_write_file   (const char  *path,
                                 const char  *contents,
                                 gssize       len);
gboolean  tes_test_run          (const char * const *argv,
                                 char       **out,
                                 char       **err,
                                 int         *exit_status);

/* What a run of tessera-cli (named by $TESSERA_CLI) printed. */
typedef struct
{
  char *out;
  char *err;
  int   status;
} TesCliResult;

void      tes_cli_result_clear      (TesCliResult *r);
void      tes_test_run_cli          (TesCliResult *r,
                                     ...) G_GNUC_NULL_TERMINATED;
void      tes_test_assert_contains  (const char   *haystack,
                                     const char   *needle);
void      tes_test_assert_info      (TesReport    *report,
                                     const char   *key,
                                     const char   *expected);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TesCliResult, tes_cli_result_clear)

G_END_DECLS
