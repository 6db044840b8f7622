/* test-poplar-util.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include <sqlite3.h>

#include "tes-report.h"
#include "tes-test-util.h"

G_BEGIN_DECLS

/* What the Poplar test programs (test-poplar-*.c) share: imports from a
 * copy, the cache's per-tile tables read with SQLite apart from
 * TesReport, and a generator's files and truth. */

/* tile_memory rows expected of one tile, as printed in a hand-written
 * report or listing. */
typedef struct
{
  const char *category;
  gint64      bytes;
} MemoryRow;

/* A generator's three files and its truth, in a fresh folder: ours
 * (tests/gen-poplar-tiles.py) or, for the conformance suite, the shared
 * one; both write truth.json with the keys the checks share. */
typedef struct
{
  TesTestData  data;
  char        *dir;
  JsonParser  *parser;
  JsonObject  *truth;
  guint        n_ipus;
  guint        host_tracks;   /* tracks besides the IPUs' and tiles' */
} Generated;

TesReport *open_copy            (TesTestData          data,
                                 const char          *relative,
                                 const char          *importer_name,
                                 GError             **error);
sqlite3   *open_cache           (TesReport           *report);
gint64     query_int            (sqlite3             *db,
                                 const char          *sql,
                                 ...) G_GNUC_PRINTF (2, 3);
gint64     tile_bytes           (sqlite3             *db,
                                 int                  ipu,
                                 int                  tile,
                                 gboolean             sections);
gint64     tile_category        (sqlite3             *db,
                                 int                  ipu,
                                 int                  tile,
                                 const char          *category);
void       assert_tile_memory   (sqlite3             *db,
                                 int                  ipu,
                                 int                  tile,
                                 const MemoryRow     *rows,
                                 gsize                n_rows,
                                 gint64               total);
void       assert_cli_info      (TesTestData          data,
                                 const char          *relative,
                                 const char * const  *lines);

void       generated_clear      (Generated           *g);
void       generate             (Generated           *g,
                                 TesTestData          data);
void       generate_seeded      (Generated           *g,
                                 TesTestData          data,
                                 guint                seed);
char      *generated_path       (Generated           *g,
                                 const char          *name);
JsonArray *truth_tiles          (Generated           *g);
void       assert_listing_tiles (Generated           *g,
                                 sqlite3             *db);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Generated, generated_clear)

G_END_DECLS
