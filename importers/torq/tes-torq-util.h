/* tes-torq-util.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-importer.h"

G_BEGIN_DECLS

/* What the Synaptics Torq importers share. All of them may write into one
 * cache writer (the files of one run opened together): the clocks they use
 * are created once per writer, whichever file comes first, and warnings are
 * numbered across the files. */

typedef enum
{
  /* compile-time timeline CSVs: cycles at COMPILE_CLOCK_FREQ_MHZ */
  TES_TORQ_CLOCK_COMPILE_CYCLES,
  /* runtime and annotated CSVs: steady_clock µs */
  TES_TORQ_CLOCK_HOST_US,
  /* Perfetto trace and the Host Profile Overview: ns, same time base */
  TES_TORQ_CLOCK_HOST_NS,
  TES_TORQ_N_CLOCKS
} TesTorqClock;

/* python/torq/debug_info.py COMPILE_CLOCK_FREQ_MHZ = 100: the frequency the
 * Torq tools convert compile-time cycles with (10 ns a cycle). */
#define TES_TORQ_COMPILE_CLOCK_HZ G_GINT64_CONSTANT (100000000)

/* Lane order shared by every Torq importer (sort_index). */
enum
{
  TES_TORQ_SORT_DMA_IN   = 0,
  TES_TORQ_SORT_DMA_OUT  = 1,
  TES_TORQ_SORT_CDMA     = 2,
  TES_TORQ_SORT_SLICE    = 10,   /* + slice number */
  TES_TORQ_SORT_CSS      = 100,
  TES_TORQ_SORT_OTHER    = 200,
};

/* One source location: a file position, a name, or both. */
typedef struct
{
  char   *file;    /* NULL: not given (the annotated CSV's @L..C.. form) */
  char   *name;    /* NameLoc name, NULL if none */
  char   *alias;   /* #loc12 style reference, NULL if none */
  gint64  line;    /* 0: none */
  gint64  col;     /* 0: none */
} TesTorqLoc;

/* A slice on one of the lanes of a Torq importer's process. */
typedef struct
{
  const char *lane;       /* the lanes table's own copy */
  gint64      start;
  gint64      dur;
  char       *name;
  char       *category;
  char       *args;
} TesTorqRow;

gint64      tes_torq_get_clock        (TesCacheWriter   *writer,
                                       TesTorqClock      clock);
gint64      tes_torq_add_process      (TesImportContext *context,
                                       TesTorqClock      kind,
                                       const char       *name,
                                       gint64           *clock);
gint64      tes_torq_add_device       (TesImportContext *context,
                                       TesTorqClock      kind,
                                       const char       *name,
                                       gint64           *clock);
void        tes_torq_warn             (TesImportContext *context,
                                       const char       *format,
                                       ...) G_GNUC_PRINTF (2, 3);

GHashTable *tes_torq_lanes_new        (void);
const char *tes_torq_lanes_add        (GHashTable       *lanes,
                                       const char       *name,
                                       gint64            sort);
const char *tes_torq_lanes_add_unit   (GHashTable       *lanes,
                                       const char       *name,
                                       gint64            sort,
                                       const char       *within);
TesTorqRow *tes_torq_row_new          (GHashTable       *lanes,
                                       const char       *lane,
                                       gint64            sort);
void        tes_torq_row_free         (gpointer          data);
void        tes_torq_write_lanes      (TesImportContext *context,
                                       gint64            process,
                                       gint64            clock,
                                       GHashTable       *lanes,
                                       GPtrArray        *rows);

GArray     *tes_torq_loc_array_new    (void);
gsize       tes_torq_loc_extent       (const char       *text,
                                       gsize             len);
gboolean    tes_torq_parse_mlir_loc   (const char       *text,
                                       gsize             len,
                                       GArray           *locs);
gboolean    tes_torq_parse_short_loc  (const char       *text,
                                       gsize             len,
                                       GArray           *locs);
void        tes_torq_append_locs_json (GString          *json,
                                       GArray           *locs);

gboolean    tes_torq_parse_int        (const char       *text,
                                       gsize             len,
                                       gint64           *out);
gboolean    tes_torq_parse_duration   (const char       *text,
                                       gsize             len,
                                       gint64           *ns);
gboolean    tes_torq_parse_percent    (const char       *text,
                                       gsize             len,
                                       double           *percent);
gboolean    tes_torq_split_percent    (const char       *text,
                                       gsize            *len,
                                       double           *percent);

G_END_DECLS
