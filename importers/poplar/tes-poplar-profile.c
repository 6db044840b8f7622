/* tes-poplar-profile.c: a Poplar profile in memory, and its writer
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-poplar-profile"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tes-poplar-profile.h"

#include <string.h>

#include "tes-info.h"

static void
program_free (gpointer data)
{
  TesPoplarProgram *program = data;

  g_free (program->type);
  g_free (program->name);
  g_free (program);
}

static void
category_free (gpointer data)
{
  TesPoplarCategory *category = data;

  g_free (category->name);
  g_array_unref (category->bytes);
  g_free (category);
}

static void
step_free (gpointer data)
{
  TesPoplarStep *step = data;

  g_free (step->name);
  g_free (step->type);
  g_array_unref (step->cycles_by_tile);
  g_free (step);
}

static GArray *
int64_array_new (void)
{
  return g_array_new (FALSE, TRUE, sizeof (gint64));
}

TesPoplarProfile *
tes_poplar_profile_new (void)
{
  TesPoplarProfile *profile = g_new0 (TesPoplarProfile, 1);

  profile->n_vertices = TES_POPLAR_UNKNOWN;
  profile->n_edges = TES_POPLAR_UNKNOWN;
  profile->n_variables = TES_POPLAR_UNKNOWN;
  profile->n_compute_sets = TES_POPLAR_UNKNOWN;
  profile->total_cycles = TES_POPLAR_UNKNOWN;
  profile->compute_sets = g_ptr_array_new_with_free_func (g_free);
  profile->vertex_types = g_ptr_array_new_with_free_func (g_free);
  profile->programs = g_ptr_array_new_with_free_func (program_free);
  profile->total_by_tile = int64_array_new ();
  profile->including_gaps_by_tile = int64_array_new ();
  profile->categories = g_ptr_array_new_with_free_func (category_free);
  profile->always_live_by_tile = int64_array_new ();
  profile->not_always_live_max_by_tile = int64_array_new ();
  profile->not_always_live_by_step = int64_array_new ();
  profile->not_always_live_by_step_tile = g_ptr_array_new_with_free_func ((GDestroyNotify)g_array_unref);
  profile->steps = g_ptr_array_new_with_free_func (step_free);
  profile->info_keys = g_ptr_array_new_with_free_func (g_free);
  profile->info_values = g_ptr_array_new_with_free_func (g_free);

  return profile;
}

void
tes_poplar_profile_free (TesPoplarProfile *profile)
{
  if (profile == NULL)
    return;

  g_free (profile->target_type);
  g_ptr_array_unref (profile->compute_sets);
  g_ptr_array_unref (profile->vertex_types);
  g_ptr_array_unref (profile->programs);
  g_array_unref (profile->total_by_tile);
  g_array_unref (profile->including_gaps_by_tile);
  g_ptr_array_unref (profile->categories);
  g_array_unref (profile->always_live_by_tile);
  g_array_unref (profile->not_always_live_max_by_tile);
  g_array_unref (profile->not_always_live_by_step);
  g_ptr_array_unref (profile->not_always_live_by_step_tile);
  g_ptr_array_unref (profile->steps);
  g_ptr_array_unref (profile->info_keys);
  g_ptr_array_unref (profile->info_values);
  g_free (profile);
}

TesPoplarProgram *
tes_poplar_profile_add_program (TesPoplarProfile *profile,
                                const char       *type,
                                const char       *name)
{
  TesPoplarProgram *program = g_new0 (TesPoplarProgram, 1);

  program->type = g_strdup (type);
  program->name = g_strdup (name);
  program->compute_set = TES_POPLAR_UNKNOWN;
  g_ptr_array_add (profile->programs, program);

  return program;
}

TesPoplarCategory *
tes_poplar_profile_add_category (TesPoplarProfile *profile,
                                 const char       *name)
{
  TesPoplarCategory *category = g_new0 (TesPoplarCategory, 1);

  category->name = g_strdup (name);
  category->bytes = int64_array_new ();
  g_ptr_array_add (profile->categories, category);

  return category;
}

TesPoplarStep *
tes_poplar_profile_add_step (TesPoplarProfile *profile,
                             gint64            program,
                             gint64            cycles_from,
                             gint64            cycles_to)
{
  TesPoplarStep *step = g_new0 (TesPoplarStep, 1);

  step->program = program;
  step->cycles_from = cycles_from;
  step->cycles_to = cycles_to;
  step->cycles_by_tile = int64_array_new ();
  g_ptr_array_add (profile->steps, step);

  return step;
}

void
tes_poplar_profile_set_info (TesPoplarProfile *profile,
                             const char       *key,
                             const char       *value)
{
  for (guint i = 0; i < profile->info_keys->len; i++)
    if (strcmp (g_ptr_array_index (profile->info_keys, i), key) == 0)
      {
        g_free (profile->info_values->pdata[i]);
        profile->info_values->pdata[i] = g_strdup (value);
        return;
      }

  g_ptr_array_add (profile->info_keys, g_strdup (key));
  g_ptr_array_add (profile->info_values, g_strdup (value));
}

guint
tes_poplar_profile_n_tiles (const TesPoplarProfile *profile)
{
  guint n = 0;

  if (profile->n_ipus > 0 && profile->tiles_per_ipu > 0)
    return (guint)profile->n_ipus * (guint)profile->tiles_per_ipu;

  n = MAX (n, profile->total_by_tile->len);
  n = MAX (n, profile->including_gaps_by_tile->len);
  n = MAX (n, profile->always_live_by_tile->len);
  n = MAX (n, profile->not_always_live_max_by_tile->len);
  for (guint i = 0; i < profile->categories->len; i++)
    n = MAX (n, ((TesPoplarCategory *)g_ptr_array_index (profile->categories, i))->bytes->len);
  for (guint i = 0; i < profile->not_always_live_by_step_tile->len; i++)
    n = MAX (n, ((GArray *)g_ptr_array_index (profile->not_always_live_by_step_tile, i))->len);
  for (guint i = 0; i < profile->steps->len; i++)
    n = MAX (n, ((TesPoplarStep *)g_ptr_array_index (profile->steps, i))->cycles_by_tile->len);

  return n;
}

TesTileState
tes_poplar_tile_state (const char *program)
{
  if (program == NULL)
    return TES_TILE_STATE_COMPUTE;
  if (strstr (program, "Sync"))
    return TES_TILE_STATE_SYNC;
  if (strstr (program, "Exchange") || strstr (program, "Copy"))
    return TES_TILE_STATE_EXCHANGE;
  return TES_TILE_STATE_COMPUTE;
}

/* ---- BSP steps ---------------------------------------------------------- */

/* What one BSP step of one IPU did on each of its tiles. */
typedef struct
{
  gint     ipu;
  gint64   step;
  gint64   start;
  gint64   end;
  char    *program;
  GArray  *cycles;   /* guint32 per tile */
  GArray  *states;   /* guint8 per tile, TesTileState */
} BspStep;

struct _TesPoplarBsp
{
  GHashTable *steps;     /* (ipu << 32 | step) -> BspStep* */
  GHashTable *n_tiles;   /* ipu -> tiles */
};

static void
bsp_step_free (gpointer data)
{
  BspStep *step = data;

  g_free (step->program);
  g_array_unref (step->cycles);
  g_array_unref (step->states);
  g_free (step);
}

TesPoplarBsp *
tes_poplar_bsp_new (void)
{
  TesPoplarBsp *bsp = g_new0 (TesPoplarBsp, 1);

  bsp->steps = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, bsp_step_free);
  bsp->n_tiles = g_hash_table_new (NULL, NULL);

  return bsp;
}

void
tes_poplar_bsp_free (TesPoplarBsp *bsp)
{
  if (bsp == NULL)
    return;

  g_hash_table_unref (bsp->steps);
  g_hash_table_unref (bsp->n_tiles);
  g_free (bsp);
}

gboolean
tes_poplar_bsp_is_empty (TesPoplarBsp *bsp)
{
  return g_hash_table_size (bsp->steps) == 0;
}

void
tes_poplar_bsp_set_n_tiles (TesPoplarBsp *bsp,
                            gint          ipu,
                            guint         n_tiles)
{
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (bsp->n_tiles, GINT_TO_POINTER (ipu)));

  g_hash_table_insert (bsp->n_tiles, GINT_TO_POINTER (ipu), GUINT_TO_POINTER (MAX (n, n_tiles)));
}

void
tes_poplar_bsp_add (TesPoplarBsp *bsp,
                    gint          ipu,
                    gint64        step_no,
                    const char   *program,
                    gint64        start,
                    guint         tile,
                    gint64        cycles,
                    TesTileState  state)
{
  gint64 key = ((gint64)ipu << 32) | step_no;
  BspStep *step;

  if (!(step = g_hash_table_lookup (bsp->steps, &key)))
    {
      step = g_new0 (BspStep, 1);
      step->ipu = ipu;
      step->step = step_no;
      step->start = start;
      step->end = start + cycles;
      step->program = g_strdup (program);
      step->cycles = g_array_new (FALSE, TRUE, sizeof (guint32));
      step->states = g_array_new (FALSE, TRUE, sizeof (guint8));
      g_hash_table_insert (bsp->steps, g_memdup2 (&key, sizeof key), step);
    }

  step->start = MIN (step->start, start);
  step->end = MAX (step->end, start + cycles);
  if (tile >= step->cycles->len)
    {
      g_array_set_size (step->cycles, tile + 1);
      g_array_set_size (step->states, tile + 1);
    }
  g_array_index (step->cycles, guint32, tile) += (guint32)CLAMP (cycles, 0, G_MAXUINT32);
  g_array_index (step->states, guint8, tile) = state;
}

static int
compare_bsp_steps (gconstpointer a,
                   gconstpointer b)
{
  const BspStep *sa = *(BspStep * const *)a;
  const BspStep *sb = *(BspStep * const *)b;

  if (sa->ipu != sb->ipu)
    return sa->ipu < sb->ipu ? -1 : 1;
  return (sa->step > sb->step) - (sa->step < sb->step);
}

/* One run per IPU, and its steps with one entry per tile of the IPU (busy
 * or not). */
void
tes_poplar_bsp_write (TesPoplarBsp   *bsp,
                      TesCacheWriter *writer,
                      gint64          clock_id)
{
  g_autoptr(GPtrArray) steps = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer value;
  gint64 run_id = 0;
  gint run_ipu = -1;

  g_hash_table_iter_init (&iter, bsp->steps);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (steps, value);

  g_ptr_array_sort (steps, compare_bsp_steps);

  for (guint i = 0; i < steps->len; i++)
    {
      BspStep *step = g_ptr_array_index (steps, i);
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (bsp->n_tiles, GINT_TO_POINTER (step->ipu)));

      if (step->ipu != run_ipu)
        {
          g_autofree char *name = g_strdup_printf ("IPU %d", step->ipu);
          gint64 end = step->end;

          for (guint k = i; k < steps->len && ((BspStep *)g_ptr_array_index (steps, k))->ipu == step->ipu; k++)
            end = MAX (end, ((BspStep *)g_ptr_array_index (steps, k))->end);
          run_id = tes_cache_writer_add_run (writer, name, clock_id, step->start, end);
          tes_cache_writer_set_run_ipu (writer, run_id, step->ipu);
          run_ipu = step->ipu;
        }

      n = MAX (n, step->cycles->len);
      g_array_set_size (step->cycles, n);
      g_array_set_size (step->states, n);
      tes_cache_writer_add_bsp_step (writer, run_id, step->step, clock_id, step->start,
                                     step->end - step->start, step->program, n,
                                     (const guint32 *)(gpointer)step->cycles->data,
                                     (const guint8 *)step->states->data);
    }
}

/* ---- The writer ---------------------------------------------------------- */

static gint64
at (GArray *array,
    guint   i)
{
  return i < array->len ? g_array_index (array, gint64, i) : 0;
}

static gint64
sum (GArray *array)
{
  gint64 total = 0;

  for (guint i = 0; i < array->len; i++)
    total += g_array_index (array, gint64, i);

  return total;
}

static const char *
step_name (const TesPoplarProfile *profile,
           const TesPoplarStep    *step)
{
  const TesPoplarProgram *program = NULL;

  if (step->name != NULL)
    return step->name;
  if (step->program >= 0 && step->program < profile->programs->len)
    program = g_ptr_array_index (profile->programs, step->program);
  if (program != NULL && program->name != NULL)
    return program->name;
  if (program != NULL && program->compute_set >= 0 && program->compute_set < profile->compute_sets->len)
    return g_ptr_array_index (profile->compute_sets, program->compute_set);
  if (step->type != NULL)
    return step->type;
  if (program != NULL && program->type != NULL)
    return program->type;
  return "step";
}

static const char *
step_type (const TesPoplarProfile *profile,
           const TesPoplarStep    *step)
{
  if (step->type != NULL)
    return step->type;
  if (step->program >= 0 && step->program < profile->programs->len)
    return ((TesPoplarProgram *)g_ptr_array_index (profile->programs, step->program))->type;
  return NULL;
}

/* What a step lasts on one IPU: its busiest tile there, else the step's
 * own span when the profile gives no cycles per tile. */
static gint64
step_cycles_on_ipu (const TesPoplarStep *step,
                    guint                first_tile,
                    guint                n_tiles)
{
  gint64 longest = 0;

  if (step->cycles_by_tile->len == 0)
    return step->cycles_to >= step->cycles_from ? step->cycles_to - step->cycles_from : 0;

  for (guint t = first_tile; t < first_tile + n_tiles && t < step->cycles_by_tile->len; t++)
    longest = MAX (longest, g_array_index (step->cycles_by_tile, gint64, t));

  return longest;
}

typedef struct
{
  const TesPoplarProfile *profile;
  TesCacheWriter         *writer;
  gint64                  source_id;
  guint                   n_tiles;
  guint                   tiles_per_ipu;
  guint                   n_ipus;
  gint64                  clock_id;
  gint64                 *ipu_tracks;   /* per IPU, 0: none yet */
  gint64                 *tile_tracks;  /* per tile, 0: none */
} Writing;

static void
set_info (Writing    *w,
          const char *key,
          const char *value)
{
  tes_cache_writer_set_info (w->writer, w->source_id, key, value);
}

static void
set_info_int (Writing    *w,
              const char *key,
              gint64      value)
{
  if (value >= 0)
    tes_info_set_int (w->writer, w->source_id, key, value);
}

static gint64
clock_of (Writing *w)
{
  if (w->clock_id == 0)
    {
      gint64 hz = w->profile->clock_hz;

      if (hz <= 0)
        {
          /* cycles stay cycles; only their conversion to time is assumed */
          hz = 1000000000;
          tes_cache_writer_add_warning (w->writer, w->source_id,
                                        _("The profile gives no clock frequency (target.clockFrequency): "
                                          "its cycles are placed on the time axis at 1 GHz"));
        }
      w->clock_id = tes_cache_writer_add_clock (w->writer, "Poplar IPU cycles", TES_TIME_UNIT_CYCLES, hz);
    }

  return w->clock_id;
}

static gint64
ipu_track (Writing *w,
           guint    ipu)
{
  if (w->ipu_tracks[ipu] == 0)
    {
      g_autofree char *name = g_strdup_printf ("IPU %u", ipu);
      g_autofree char *native = g_strdup_printf ("%u", ipu);

      w->ipu_tracks[ipu] = tes_cache_writer_add_track (w->writer, 0, w->source_id, clock_of (w), TES_TRACK_IPU,
                                                       name, ipu, native);
      tes_cache_writer_set_track_tile (w->writer, w->ipu_tracks[ipu], (gint)ipu, -1);
    }

  return w->ipu_tracks[ipu];
}

static void
write_info (Writing *w)
{
  const TesPoplarProfile *p = w->profile;

  if (p->target_type != NULL)
    set_info (w, "target.type", p->target_type);
  if (p->n_ipus > 0)
    set_info_int (w, "target.ipus", p->n_ipus);
  if (p->tiles_per_ipu > 0)
    set_info_int (w, "target.tiles_per_ipu", p->tiles_per_ipu);
  if (w->n_tiles > 0)
    set_info_int (w, "target.total_tiles", w->n_tiles);
  if (p->bytes_per_tile > 0)
    set_info_int (w, "target.bytes_per_tile", p->bytes_per_tile);
  if (p->clock_hz > 0)
    set_info_int (w, "target.clock_hz", p->clock_hz);

  set_info_int (w, "graph.vertices", p->n_vertices);
  set_info_int (w, "graph.edges", p->n_edges);
  set_info_int (w, "graph.variables", p->n_variables);
  set_info_int (w, "graph.compute_sets", p->n_compute_sets);
  if (p->vertex_types->len > 0)
    set_info_int (w, "graph.vertex_types", p->vertex_types->len);
  if (p->programs->len > 0)
    set_info_int (w, "graph.programs", p->programs->len);

  if (p->total_by_tile->len > 0)
    set_info_int (w, "memory.excluding_gaps", sum (p->total_by_tile));
  if (p->including_gaps_by_tile->len > 0)
    set_info_int (w, "memory.including_gaps", sum (p->including_gaps_by_tile));
  for (guint i = 0; i < p->categories->len; i++)
    {
      const TesPoplarCategory *c = g_ptr_array_index (p->categories, i);
      g_autofree char *key = g_strconcat ("memory.category.", c->name, NULL);

      set_info_int (w, key, sum (c->bytes));
    }

  if (p->always_live_by_tile->len > 0)
    set_info_int (w, "liveness.always_live", sum (p->always_live_by_tile));
  if (p->not_always_live_max_by_tile->len > 0)
    set_info_int (w, "liveness.not_always_live_max", sum (p->not_always_live_max_by_tile));
  /* the program step where the most is live at once */
  {
    guint n_steps = MAX (p->not_always_live_by_step->len, p->not_always_live_by_step_tile->len);
    gint64 peak = -1;
    guint peak_step = 0;

    for (guint s = 0; s < n_steps; s++)
      {
        gint64 bytes = s < p->not_always_live_by_step_tile->len
                         ? sum (g_ptr_array_index (p->not_always_live_by_step_tile, s))
                         : at (p->not_always_live_by_step, s);

        if (bytes > peak)
          {
            peak = bytes;
            peak_step = s;
          }
      }
    if (peak >= 0)
      {
        set_info_int (w, "liveness.not_always_live_peak", peak);
        set_info_int (w, "liveness.not_always_live_peak_step", peak_step);
      }
  }

  if (p->has_simulation)
    {
      set_info_int (w, "execution.total_cycles", p->total_cycles);
      set_info_int (w, "execution.steps", p->steps->len);
    }

  for (guint i = 0; i < p->info_keys->len; i++)
    set_info (w, g_ptr_array_index (p->info_keys, i), g_ptr_array_index (p->info_values, i));

  /* a row per tile: last, so that the Summary lists them after the rest */
  for (guint t = 0; t < w->n_tiles; t++)
    {
      if (t < p->always_live_by_tile->len)
        {
          g_autofree char *key = g_strdup_printf ("tile.%u.liveness.always_live", t);

          set_info_int (w, key, at (p->always_live_by_tile, t));
        }
      if (t < p->not_always_live_max_by_tile->len)
        {
          g_autofree char *key = g_strdup_printf ("tile.%u.liveness.not_always_live_max", t);

          set_info_int (w, key, at (p->not_always_live_max_by_tile, t));
        }
    }
}

/* Each category's bytes, then what byTile.total counts beyond them
 * ("other"), then the gaps (totalIncludingGaps − total): the tile's rows
 * add up to its bytes including gaps. */
static void
write_tile_memory (Writing *w,
                   guint    tile,
                   gint64   tile_id)
{
  const TesPoplarProfile *p = w->profile;
  gint64 claimed = 0;

  for (guint i = 0; i < p->categories->len; i++)
    {
      const TesPoplarCategory *c = g_ptr_array_index (p->categories, i);
      gint64 bytes = at (c->bytes, tile);

      if (bytes > 0)
        tes_cache_writer_add_tile_memory (w->writer, tile_id, c->name, bytes);
      claimed += bytes;
    }

  if (tile < p->total_by_tile->len && at (p->total_by_tile, tile) > claimed)
    tes_cache_writer_add_tile_memory (w->writer, tile_id, "other", at (p->total_by_tile, tile) - claimed);

  if (tile < p->including_gaps_by_tile->len && tile < p->total_by_tile->len &&
      at (p->including_gaps_by_tile, tile) > at (p->total_by_tile, tile))
    tes_cache_writer_add_tile_memory (w->writer, tile_id, "gaps",
                                      at (p->including_gaps_by_tile, tile) - at (p->total_by_tile, tile));
}

static gboolean
tile_is_busy (const TesPoplarProfile *p,
              guint                   tile)
{
  for (guint s = 0; s < p->steps->len; s++)
    if (at (((TesPoplarStep *)g_ptr_array_index (p->steps, s))->cycles_by_tile, tile) > 0)
      return TRUE;

  return FALSE;
}

/* An IPU's track has a lane per tile that ever works (linked from the
 * tiles table) with a slice per step it works in; steps the profile gives
 * no cycles per tile for are slices of the IPU's own track. */
static void
write_trace (Writing *w)
{
  const TesPoplarProfile *p = w->profile;

  for (guint ipu = 0; ipu < w->n_ipus; ipu++)
    {
      guint first = ipu * w->tiles_per_ipu;
      gint64 track = ipu_track (w, ipu);

      for (guint s = 0; s < p->steps->len; s++)
        {
          const TesPoplarStep *step = g_ptr_array_index (p->steps, s);
          gint64 dur = step_cycles_on_ipu (step, first, w->tiles_per_ipu);
          const char *type = step_type (p, step);

          /* with cycles per tile the tiles' lanes hold the step, and the
           * IPU's row shows it from the BSP steps: once is enough, or the
           * Summary would count it twice */
          if (step->cycles_by_tile->len > 0)
            continue;
          tes_cache_writer_add_slice (w->writer, track, step->cycles_from, dur,
                                      tes_cache_writer_intern (w->writer, step_name (p, step)),
                                      type ? tes_cache_writer_intern (w->writer, type) : 0,
                                      TES_SLICE_FLAG_NONE, NULL, 0);
        }
      tes_cache_writer_close_track (w->writer, track);

      for (guint t = first; t < first + w->tiles_per_ipu && t < w->n_tiles; t++)
        {
          g_autofree char *name = NULL;
          g_autofree char *native = NULL;
          gint64 lane;

          if (!tile_is_busy (p, t))
            continue;

          name = g_strdup_printf ("Tile %u", t - first);
          native = g_strdup_printf ("%u", t);
          lane = tes_cache_writer_add_track (w->writer, track, w->source_id, clock_of (w), TES_TRACK_TILE,
                                             name, t - first + 1, native);
          w->tile_tracks[t] = lane;

          for (guint s = 0; s < p->steps->len; s++)
            {
              const TesPoplarStep *step = g_ptr_array_index (p->steps, s);
              gint64 cycles = at (step->cycles_by_tile, t);
              const char *type = step_type (p, step);

              if (cycles <= 0)
                continue;
              tes_cache_writer_add_slice (w->writer, lane, step->cycles_from, cycles,
                                          tes_cache_writer_intern (w->writer, step_name (p, step)),
                                          type ? tes_cache_writer_intern (w->writer, type) : 0,
                                          TES_SLICE_FLAG_NONE, NULL, 0);
            }
          tes_cache_writer_close_track (w->writer, lane);
        }
    }
}

static void
write_bsp (Writing *w)
{
  const TesPoplarProfile *p = w->profile;
  g_autoptr(TesPoplarBsp) bsp = tes_poplar_bsp_new ();

  for (guint s = 0; s < p->steps->len; s++)
    {
      const TesPoplarStep *step = g_ptr_array_index (p->steps, s);
      const char *name = step_name (p, step);
      const char *type = step_type (p, step);
      TesTileState state = tes_poplar_tile_state (type ? type : name);

      for (guint t = 0; t < step->cycles_by_tile->len && t < w->n_tiles; t++)
        {
          gint64 cycles = g_array_index (step->cycles_by_tile, gint64, t);

          if (cycles > 0)
            tes_poplar_bsp_add (bsp, t / w->tiles_per_ipu, s, name, step->cycles_from,
                                t % w->tiles_per_ipu, cycles, state);
        }
    }

  for (guint ipu = 0; ipu < w->n_ipus; ipu++)
    tes_poplar_bsp_set_n_tiles (bsp, ipu, MIN (w->tiles_per_ipu, w->n_tiles - ipu * w->tiles_per_ipu));

  if (!tes_poplar_bsp_is_empty (bsp))
    tes_poplar_bsp_write (bsp, w->writer, clock_of (w));
}

/* Not-always-live bytes at each program step: per IPU when the profile
 * gives them per tile, else one track for the whole target. A step is
 * placed where the simulation's step of that index starts when the
 * simulation has as many steps, else at its index (one cycle per step). */
static void
write_liveness (Writing *w)
{
  const TesPoplarProfile *p = w->profile;
  guint n_steps = MAX (p->not_always_live_by_step->len, p->not_always_live_by_step_tile->len);
  gboolean timed = n_steps > 0 && p->steps->len >= n_steps;
  const char *name = "Not-always-live bytes";

  if (n_steps == 0)
    return;

  if (p->not_always_live_by_step_tile->len > 0)
    {
      for (guint ipu = 0; ipu < w->n_ipus; ipu++)
        {
          gint64 counter = tes_cache_writer_add_track (w->writer, ipu_track (w, ipu), w->source_id, clock_of (w),
                                                       TES_TRACK_COUNTER, name, 0, NULL);

          for (guint s = 0; s < p->not_always_live_by_step_tile->len; s++)
            {
              GArray *bytes = g_ptr_array_index (p->not_always_live_by_step_tile, s);
              gint64 total = 0;
              gint64 ts = timed ? ((TesPoplarStep *)g_ptr_array_index (p->steps, s))->cycles_from : s;

              for (guint t = ipu * w->tiles_per_ipu; t < (ipu + 1) * w->tiles_per_ipu && t < bytes->len; t++)
                total += g_array_index (bytes, gint64, t);
              tes_cache_writer_add_counter_value (w->writer, counter, ts, (double)total);
            }
        }
    }
  else
    {
      gint64 counter = tes_cache_writer_add_track (w->writer, 0, w->source_id, clock_of (w),
                                                   TES_TRACK_COUNTER, name, w->n_ipus, NULL);

      for (guint s = 0; s < p->not_always_live_by_step->len; s++)
        {
          gint64 ts = timed ? ((TesPoplarStep *)g_ptr_array_index (p->steps, s))->cycles_from : s;

          tes_cache_writer_add_counter_value (w->writer, counter, ts,
                                              (double)g_array_index (p->not_always_live_by_step, gint64, s));
        }
    }
}

gboolean
tes_poplar_profile_write (const TesPoplarProfile  *profile,
                          TesCacheWriter          *writer,
                          gint64                   source_id,
                          GError                 **error)
{
  g_autofree gint64 *ipu_tracks = NULL;
  g_autofree gint64 *tile_tracks = NULL;
  Writing w = { 0 };

  g_return_val_if_fail (profile != NULL, FALSE);
  g_return_val_if_fail (TES_IS_CACHE_WRITER (writer), FALSE);

  w.profile = profile;
  w.writer = writer;
  w.source_id = source_id;
  w.n_tiles = tes_poplar_profile_n_tiles (profile);
  w.tiles_per_ipu = profile->tiles_per_ipu > 0 ? (guint)profile->tiles_per_ipu : MAX (w.n_tiles, 1);
  w.n_ipus = (w.n_tiles + w.tiles_per_ipu - 1) / w.tiles_per_ipu;
  ipu_tracks = g_new0 (gint64, w.n_ipus + 1);
  tile_tracks = g_new0 (gint64, w.n_tiles + 1);
  w.ipu_tracks = ipu_tracks;
  w.tile_tracks = tile_tracks;

  write_info (&w);

  if (profile->has_simulation && profile->steps->len > 0)
    {
      write_trace (&w);
      write_bsp (&w);
    }
  write_liveness (&w);

  for (guint t = 0; t < w.n_tiles; t++)
    {
      gint64 tile_id = tes_cache_writer_add_tile (writer, t / w.tiles_per_ipu, t % w.tiles_per_ipu,
                                                  profile->bytes_per_tile, tile_tracks[t]);

      write_tile_memory (&w, t, tile_id);
    }

  return TRUE;
}
