/* tes-tensorrt-records.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-importer.h"

G_BEGIN_DECLS

/* trtexec's --exportProfile and --exportTimes files are JSON arrays of
 * flat objects, one a line. TesTrtRecords reads one such array and hands
 * over each object with its members' values as printed: strings decoded,
 * numbers as their text, so that every figure stays the one trtexec wrote. */

typedef enum
{
  TES_TRT_STRING,
  TES_TRT_NUMBER,
  TES_TRT_LITERAL,   /* true, false, null */
} TesTrtKind;

typedef struct
{
  char       *key;
  char       *value;   /* decoded string, or the number's or literal's text */
  gsize       len;
  TesTrtKind  kind;
} TesTrtMember;

typedef struct
{
  const char *path;
  const char *data;
  gsize       len;
  guint       index;       /* 1-based number of the record being read */
  gsize       offset;      /* byte offset of its '{' */
  gsize       pos;         /* where reading stands (or went wrong) */
  gboolean    started;
  GArray     *members;     /* TesTrtMember */
  GString    *buf;
} TesTrtRecords;

/* Longest string a record may hold: a fused layer's name runs to
 * kilobytes, never near this. */
#define TES_TRT_MAX_STRING (1024 * 1024)

void                tes_trt_records_init     (TesTrtRecords      *records,
                                              const char         *path,
                                              const char         *data,
                                              gsize               len);
void                tes_trt_records_clear    (TesTrtRecords      *records);
typedef enum
{
  TES_TRT_ERROR = -1,
  TES_TRT_END,
  TES_TRT_RECORD,
} TesTrtNext;

/* Reads the next object into records->members. */
TesTrtNext          tes_trt_records_next     (TesTrtRecords      *records,
                                              GError            **error);
const TesTrtMember *tes_trt_records_lookup   (TesTrtRecords      *records,
                                              const char         *key);
gboolean            tes_trt_records_fail     (TesTrtRecords      *records,
                                              GError            **error,
                                              int                 code,
                                              const char         *format,
                                              ...) G_GNUC_PRINTF (4, 5);
gboolean            tes_trt_records_number   (TesTrtRecords      *records,
                                              const char         *key,
                                              gboolean            required,
                                              const TesTrtMember **member,
                                              GError            **error);
guint               tes_trt_sniff            (const guint8       *head,
                                              gsize               head_len,
                                              const char * const *keys,
                                              guint               n_keys);
gboolean            tes_trt_records_tick     (TesTrtRecords      *records,
                                              TesImportContext   *context,
                                              GError            **error);
void                tes_trt_append_args      (GString            *json,
                                              TesTrtRecords      *records,
                                              const char * const *skip);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TesTrtRecords, tes_trt_records_clear)

G_END_DECLS
