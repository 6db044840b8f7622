/* tes-poplar-profile.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "tes-cache-writer.h"
#include "tes-model-types.h"

G_BEGIN_DECLS

/* A Graphcore Poplar profile in memory, whatever file it came from (the
 * SDK 1.x graph and execution profiles in JSON or CBOR, a profile.pop), and
 * the one writer of it into the report cache. A reader fills the fields it
 * finds and leaves the others unknown; the writer writes what is known.
 *
 * Tiles are numbered across the whole target, as Poplar numbers them
 * (IPU i's tile t is tile i × tiles_per_ipu + t); every per-tile array is
 * indexed so. What goes where in the cache is in docs/formats/poplar.md
 * ("poplar-profile").
 *
 * Use: tes_poplar_profile_new (), set the target and graph fields, append
 * gint64 figures to the arrays (g_array_append_val), add programs,
 * categories and steps with the add functions (they return the new entry
 * to fill), then tes_poplar_profile_write () from an importer's import().
 * The writer trusts the model: a per-tile array should have as many
 * entries as there are tiles (a shorter one reads as 0 past its end; the
 * SDK 1.x reader refuses a mismatch, naming the key); figures should stay
 * below 2^40 per entry so that sums over tiles fit in 64 bits. */

/* "Unknown" for the gint64 figures below. */
#define TES_POPLAR_UNKNOWN (-1)

/* One program of the graph (graphProfile.programs[i]). */
typedef struct
{
  char   *type;          /* "OnTileExecute", "DoExchange", "Sync", …; NULL: not given */
  char   *name;          /* NULL: not given */
  gint64  compute_set;   /* index into compute_sets; TES_POPLAR_UNKNOWN: none */
} TesPoplarProgram;

/* One storage category's bytes on each tile (graphProfile.memory.byCategory). */
typedef struct
{
  char   *name;          /* the vendor's name, verbatim ("variable", "vertexCode", …) */
  GArray *bytes;         /* gint64 per tile */
} TesPoplarCategory;

/* One step of the simulated execution (executionProfile.simulation.steps[i]). */
typedef struct
{
  gint64  program;         /* index into programs; TES_POPLAR_UNKNOWN: none */
  char   *name;            /* NULL: the program's name, else its type */
  char   *type;            /* NULL: the program's type */
  gint64  cycles_from;     /* start, in cycles */
  gint64  cycles_to;       /* end; TES_POPLAR_UNKNOWN: not given */
  GArray *cycles_by_tile;  /* gint64 per tile; may be empty */
} TesPoplarStep;

typedef struct
{
  /* Target (graphProfile.target). 0 / NULL: unknown. */
  char       *target_type;           /* "IPU", "IPU_MODEL", "CPU" */
  gint        n_ipus;
  gint        tiles_per_ipu;
  gint64      bytes_per_tile;
  gint64      clock_hz;

  /* Graph (graphProfile.graph): TES_POPLAR_UNKNOWN when not given. */
  gint64      n_vertices;
  gint64      n_edges;
  gint64      n_variables;
  gint64      n_compute_sets;

  GPtrArray  *compute_sets;          /* char* names, by id */
  GPtrArray  *vertex_types;          /* char* names, by id */
  GPtrArray  *programs;              /* TesPoplarProgram*, by id */

  /* Memory per tile (graphProfile.memory); empty arrays: not given. */
  GArray     *total_by_tile;         /* gint64: excluding gaps (byTile.total) */
  GArray     *including_gaps_by_tile;/* gint64: byTile.totalIncludingGaps */
  GPtrArray  *categories;            /* TesPoplarCategory* */

  /* Liveness (graphProfile.memory.liveness); empty arrays: not given. */
  GArray     *always_live_by_tile;            /* gint64 */
  GArray     *not_always_live_max_by_tile;    /* gint64 */
  GArray     *not_always_live_by_step;        /* gint64: the whole target's, per program step */
  GPtrArray  *not_always_live_by_step_tile;   /* GArray (gint64 per tile) per program step */

  /* Simulation (executionProfile.simulation). */
  gboolean    has_simulation;
  gint64      total_cycles;          /* simulation.cycles; TES_POPLAR_UNKNOWN: not given */
  GPtrArray  *steps;                 /* TesPoplarStep* in execution order */

  /* Anything else worth showing, as info rows: key → value. */
  GPtrArray  *info_keys;             /* char*, in insertion order */
  GPtrArray  *info_values;           /* char*, same index */
} TesPoplarProfile;

TesPoplarProfile  *tes_poplar_profile_new        (void);
void               tes_poplar_profile_free       (TesPoplarProfile       *profile);

TesPoplarProgram  *tes_poplar_profile_add_program  (TesPoplarProfile     *profile,
                                                    const char           *type,
                                                    const char           *name);
TesPoplarCategory *tes_poplar_profile_add_category (TesPoplarProfile     *profile,
                                                    const char           *name);
TesPoplarStep     *tes_poplar_profile_add_step     (TesPoplarProfile     *profile,
                                                    gint64                program,
                                                    gint64                cycles_from,
                                                    gint64                cycles_to);
void               tes_poplar_profile_set_info     (TesPoplarProfile     *profile,
                                                    const char           *key,
                                                    const char           *value);

/* How many tiles the profile covers: n_ipus × tiles_per_ipu when the target
 * gives them, else the longest per-tile array. */
guint              tes_poplar_profile_n_tiles      (const TesPoplarProfile *profile);

/* Writes the profile into @writer, its info rows under @source_id: target
 * and graph info, one tiles row per tile (memory limit bytes_per_tile),
 * tile_memory rows (each category, "other" for bytes no category claims,
 * "gaps"), liveness as info and a counter track per IPU, and, with a
 * simulation, a run "IPU n" per IPU with its bsp_steps and an Execution
 * Trace track "IPU n" with a lane "Tile t" per tile that works (a step
 * without cycles per tile is a slice of the IPU's own track). */
gboolean           tes_poplar_profile_write        (const TesPoplarProfile *profile,
                                                    TesCacheWriter         *writer,
                                                    gint64                  source_id,
                                                    GError                **error);

/* The state a tile is in while a Poplar program of that type (or name)
 * runs: Sync → sync, exchanges and copies → exchange, else compute. */
TesTileState       tes_poplar_tile_state           (const char             *program);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TesPoplarProfile, tes_poplar_profile_free)

/* BSP steps as tiles report them, one tile at a time and in any order,
 * written as one run "IPU n" per IPU with its bsp_steps rows: what the
 * Poplar tile-trace flavour of the Chrome importer and the profile writer
 * share. */
typedef struct _TesPoplarBsp TesPoplarBsp;

TesPoplarBsp      *tes_poplar_bsp_new              (void);
void               tes_poplar_bsp_free             (TesPoplarBsp           *bsp);
/* Adds @cycles of @tile to step @step of @ipu, which starts at @start (the
 * earliest start given wins) and is named @program (the first given). */
void               tes_poplar_bsp_add              (TesPoplarBsp           *bsp,
                                                    gint                    ipu,
                                                    gint64                  step,
                                                    const char             *program,
                                                    gint64                  start,
                                                    guint                   tile,
                                                    gint64                  cycles,
                                                    TesTileState            state);
/* An IPU has at least @n_tiles tiles (idle ones included). */
void               tes_poplar_bsp_set_n_tiles      (TesPoplarBsp           *bsp,
                                                    gint                    ipu,
                                                    guint                   n_tiles);
gboolean           tes_poplar_bsp_is_empty         (TesPoplarBsp           *bsp);
void               tes_poplar_bsp_write            (TesPoplarBsp           *bsp,
                                                    TesCacheWriter         *writer,
                                                    gint64                  clock_id);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TesPoplarBsp, tes_poplar_bsp_free)

G_END_DECLS
