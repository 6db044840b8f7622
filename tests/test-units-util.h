/* test-units-util.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A vendor's parallel unit as the test reads it from the file itself:
 * its device's and its own name and the stretches it works (ns). */
typedef struct
{
  char   *device;
  char   *name;
  GArray *spans;   /* gint64[2] */
} TesTestUnit;

typedef struct
{
  GPtrArray *units;   /* TesTestUnit */
  gint64     start;   /* the run: the first row's start … */
  gint64     end;     /* … the last row's end (ns) */
} TesTestUnits;

void                tes_test_units_clear     (TesTestUnits       *units);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TesTestUnits, tes_test_units_clear)

void                tes_test_units_read_torq_timeline (TesTestUnits *units,
                                                       const char   *path);
void                tes_test_units_read_sigmastar     (TesTestUnits *units,
                                                       const char   *path);
const TesTestUnit  *tes_test_units_find      (const TesTestUnits *units,
                                              const char         *name);
gint64              tes_test_unit_busy       (const TesTestUnit  *unit,
                                              gint64              start,
                                              gint64              end);
char               *tes_test_write_sigmastar_two_cores (void);

G_END_DECLS
