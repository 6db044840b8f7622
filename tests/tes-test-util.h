/* tes-test-util.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "tes-report-loader.h"

G_BEGIN_DECLS

/* What a test case reads: the project's own files (tests/data, generators
 * run at test time), which every clone has, or ../shared/fixtures, which
 * only the conformance suite reads (TES_TEST_SUITE=conformance). */
typedef enum
{
  TES_TEST_OWN_DATA,
  TES_TEST_SHARED_DATA,
} TesTestData;

void      tes_test_add          (TesTestData  data,
                                 const char  *path,
                                 GTestFunc    func);
gboolean  tes_test_is_conformance (void);
char     *tes_test_data_path    (const char  *name);
char     *tes_test_shared_path  (const char  *relative);
char     *tes_test_copy_to_tmp  (const char  *src,
                                 const char  *name);
char     *tes_test_copy_fixture (TesTestData  data,
                                 const char  *relative);
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

/* An info row as expected (value NULL: absent). */
typedef struct
{
  const char *key;
  const char *value;
} TesTestInfo;

void      tes_test_assert_info_rows (TesReport         *report,
                                     const TesTestInfo *rows,
                                     guint              n_rows);
void      tes_test_assert_cli_info  (TesReport         *report,
                                     const char        *path);

/* Two reports hold the same slices: every track's extent, each slice as
 * tes_report_get_slices() gives it, their args (every step-th) and the
 * lane summaries, field by field. */
void      tes_test_assert_same_slices (TesReport *a,
                                       TesReport *b,
                                       guint      args_step);

/* The trace tes_test_write_trace() writes starts here (1 ms). */
#define TES_TEST_TRACE_ORIGIN_NS 1000000

char      *tes_test_write_trace (const char *name);

/* Importing, where the test needs it to succeed or to fail. */
TesReport *tes_test_import              (const char          *path,
                                         TesImporter         *importer);
TesReport *tes_test_import_files        (const char * const  *paths,
                                         TesImporter * const *importers,
                                         guint                n_files,
                                         TesReportOpenFlags   flags);
void       tes_test_assert_import_fails (TesImporter         *importer,
                                         const char          *name,
                                         const char          *contents,
                                         gssize               len,
                                         int                  code,
                                         const char          *message);

/* A file that must not import, and what the error must say. */
typedef struct
{
  const char *name;
  const char *contents;
  gssize      len;       /* -1: a string */
  int         code;      /* TesImportError */
  const char *message;   /* what follows the path in the message */
} TesBadInput;

void       tes_test_assert_bad_inputs   (TesImporter         *importer,
                                         const TesBadInput   *cases,
                                         guint                n_cases);

/* Lookups that fail the test when the report lacks what is asked for. */
const TesTrack      *tes_test_find_track       (TesReport  *report,
                                                const char *parent,
                                                const char *name);
GArray              *tes_test_get_slices       (TesReport  *report,
                                                gint64      track_id);
const TesSummaryRow *tes_test_find_summary_row (GPtrArray  *rows,
                                                const char *label);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TesCliResult, tes_cli_result_clear)

G_END_DECLS
