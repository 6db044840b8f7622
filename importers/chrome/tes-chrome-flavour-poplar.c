/* tes-chrome-flavour-poplar.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-chrome"

#include "config.h"

#include "tes-chrome-flavour.h"

#include <math.h>
#include <string.h>

/* The Poplar flavour: tile execution traces in Chrome JSON, one process
 * per IPU ("IPU N"), one thread per tile ("Tile N"), BSP steps as events
 * with their cycles in args. It lives beside the Chrome builder, not in
 * poplar/, because it reworks the builder's merged threads; what it reads
 * is Chrome JSON. With otherData.clock_mhz the trace is counted in IPU
 * cycles, each tile lane is linked from the tiles table, and an event's
 * args "step" adds its cycles to that BSP step of its IPU. */

/* Poplar: what one BSP step of one IPU did on each of its tiles. */
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

static void
bsp_step_free (gpointer data)
{
  BspStep *step = data;

  g_free (step->program);
  g_array_unref (step->cycles);
  g_array_unref (step->states);
  g_free (step);
}

/* (ipu << 32 | step) -> BspStep*, of the whole trace */
static GHashTable *
steps_of (TesChromeBuilder *b)
{
  return b->flavour_data;
}

/* "IPU 3" -> 3, "Tile 17" -> 17: the names a Poplar tile trace gives its
 * processes and threads. */
static gboolean
parse_numbered_name (const char *name,
                     const char *word,
                     gint       *out)
{
  gsize n = strlen (word);
  gint64 v = 0;
  const char *s;

  if (name == NULL || strncmp (name, word, n) != 0 || name[n] != ' ')
    return FALSE;

  s = name + n + 1;
  if (!g_ascii_isdigit (*s))
    return FALSE;
  for (; g_ascii_isdigit (*s); s++)
    if ((v = v * 10 + (*s - '0')) > G_MAXINT)
      return FALSE;
  if (*s != '\0')
    return FALSE;

  *out = (gint)v;
  return TRUE;
}

static gboolean
poplar_tile_of (TesChromeBuilder      *b,
                TesChromeMergedThread *mt,
                gint                  *ipu,
                gint                  *tile)
{
  return mt->process != NULL &&
         parse_numbered_name (tes_chrome_text (b, mt->process->name), "IPU", ipu) &&
         parse_numbered_name (tes_chrome_text (b, mt->name), "Tile", tile);
}

/* Threads "Tile N" under processes "IPU N". */
static gboolean
detect (TesChromeBuilder *b,
        guint             n_claimed,
        guint             n_sampled)
{
  g_autoptr(GPtrArray) threads = tes_chrome_list_threads (b);

  for (guint i = 0; i < threads->len; i++)
    {
      TesChromeMergedThread *mt = g_ptr_array_index (threads, i);
      gint ipu, tile;

      if ((mt->used || tes_chrome_thread_has_slices (mt)) && poplar_tile_of (b, mt, &ipu, &tile))
        return TRUE;
    }

  return FALSE;
}

/* A Poplar tile trace counts cycles; its clock is otherData.clock_mhz when
 * the writer gives it (whole MHz), else the trace stays in ns. */
static void
prepare (TesChromeBuilder *b)
{
  const char *given = tes_chrome_other_data (b, "otherData.clock_mhz");
  double mhz = given ? g_ascii_strtod (given, NULL) : 0;

  b->flavour_data = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, bsp_step_free);
  b->flavour_data_free = (GDestroyNotify)g_hash_table_unref;

  b->mhz = mhz >= 1 && mhz < 1e6 ? (gint64)llround (mhz) : 0;
  if (b->mhz > 0)
    b->clock_source = "otherData.clock_mhz; slice durations from args.cycles";
}

/* The state a tile is in while a Poplar program of that kind runs. */
static TesTileState
poplar_tile_state (const char *program)
{
  if (program == NULL)
    return TES_TILE_STATE_COMPUTE;
  if (strstr (program, "Sync"))
    return TES_TILE_STATE_SYNC;
  if (strstr (program, "Exchange") || strstr (program, "Copy"))
    return TES_TILE_STATE_EXCHANGE;
  return TES_TILE_STATE_COMPUTE;
}

/* A tile's event with an args "step" adds its cycles to that BSP step of
 * its IPU; tiles with no event in a step stay idle there. */
static void
bsp_add (TesChromeBuilder      *b,
         TesChromeMergedThread *mt,
         const char            *args,
         gsize                  args_len,
         const char            *name,
         gint64                 start,
         gint64                 cycles)
{
  gint64 step_no = tes_chrome_args_cycles (args, args_len, "step");
  BspStep *step;
  gint ipu, tile;
  gint64 key;

  if (step_no < 0 || step_no > G_MAXINT32 || !poplar_tile_of (b, mt, &ipu, &tile) || tile < 0 || tile > 1 << 20)
    return;

  key = ((gint64)ipu << 32) | step_no;
  if (!(step = g_hash_table_lookup (steps_of (b), &key)))
    {
      const char *v;
      gsize vl;

      step = g_new0 (BspStep, 1);
      step->ipu = ipu;
      step->step = step_no;
      step->start = start;
      step->end = start + cycles;
      step->cycles = g_array_new (FALSE, TRUE, sizeof (guint32));
      step->states = g_array_new (FALSE, TRUE, sizeof (guint8));
      /* the program's name when args give a plain one, else the event's */
      if (tes_chrome_args_find (args, args_len, "program", &v, &vl) && vl >= 2 && v[0] == '"' &&
          memchr (v + 1, '\\', vl - 2) == NULL)
        step->program = g_strndup (v + 1, vl - 2);
      else
        step->program = g_strdup (name);
      g_hash_table_insert (steps_of (b), g_memdup2 (&key, sizeof key), step);
    }

  step->start = MIN (step->start, start);
  step->end = MAX (step->end, start + cycles);
  if ((guint)tile >= step->cycles->len)
    {
      g_array_set_size (step->cycles, tile + 1);
      g_array_set_size (step->states, tile + 1);
    }
  g_array_index (step->cycles, guint32, tile) += (guint32)MIN (cycles, G_MAXUINT32);
  g_array_index (step->states, guint8, tile) = poplar_tile_state (name);
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

/* One run per IPU, and its steps with one entry per tile of the IPU (the
 * tiles the trace names, busy or not). */
static void
write_bsp (TesChromeBuilder *b)
{
  g_autoptr(GPtrArray) threads = tes_chrome_list_threads (b);
  g_autoptr(GPtrArray) steps = g_ptr_array_new ();
  g_autoptr(GHashTable) n_tiles = g_hash_table_new (NULL, NULL);
  GHashTableIter iter;
  gpointer value;
  gint64 run_id = 0;
  gint run_ipu = -1;

  g_hash_table_iter_init (&iter, steps_of (b));
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (steps, value);

  if (b->mhz <= 0 || steps->len == 0)
    return;

  for (guint i = 0; i < threads->len; i++)
    {
      gint ipu, tile;

      if (poplar_tile_of (b, g_ptr_array_index (threads, i), &ipu, &tile) && tile >= 0 && tile <= 1 << 20)
        {
          guint n = GPOINTER_TO_UINT (g_hash_table_lookup (n_tiles, GINT_TO_POINTER (ipu)));
          g_hash_table_insert (n_tiles, GINT_TO_POINTER (ipu), GUINT_TO_POINTER (MAX (n, (guint)tile + 1)));
        }
    }

  g_ptr_array_sort (steps, compare_bsp_steps);

  for (guint i = 0; i < steps->len; i++)
    {
      BspStep *step = g_ptr_array_index (steps, i);
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (n_tiles, GINT_TO_POINTER (step->ipu)));

      if (step->ipu != run_ipu)
        {
          g_autofree char *name = g_strdup_printf ("IPU %d", step->ipu);
          gint64 end = step->end;

          for (guint k = i; k < steps->len && ((BspStep *)g_ptr_array_index (steps, k))->ipu == step->ipu; k++)
            end = MAX (end, ((BspStep *)g_ptr_array_index (steps, k))->end);
          run_id = tes_cache_writer_add_run (b->writer, name, b->clock_id, step->start, end);
          run_ipu = step->ipu;
        }

      n = MAX (n, step->cycles->len);
      g_array_set_size (step->cycles, n);
      g_array_set_size (step->states, n);
      tes_cache_writer_add_bsp_step (b->writer, run_id, step->step, b->clock_id, step->start,
                                     step->end - step->start, step->program, n,
                                     (const guint32 *)(gpointer)step->cycles->data,
                                     (const guint8 *)step->states->data);
    }
}

/* An IPU process, a tile lane (linked from the tiles table). */
static TesTrackKind
process_kind (TesChromeBuilder       *b,
              TesChromeMergedProcess *mp)
{
  gint ipu;

  return parse_numbered_name (tes_chrome_text (b, mp->name), "IPU", &ipu) ? TES_TRACK_IPU
                                                                                  : TES_TRACK_PROCESS;
}

static gboolean
thread_track (TesChromeBuilder      *b,
              TesChromeMergedThread *mt,
              gint64                 parent,
              gint64                 sort_index,
              const char            *native_id)
{
  gint ipu, tile;

  if (!poplar_tile_of (b, mt, &ipu, &tile))
    return FALSE;

  mt->track_id = tes_chrome_add_track (b, parent, TES_TRACK_TILE, tes_chrome_text (b, mt->name),
                                               sort_index, native_id);
  tes_cache_writer_add_tile (b->writer, ipu, tile, 0, mt->track_id);
  return TRUE;
}

/* In cycles: the step's cycles as the tool counted them, the start from
 * ts (within a cycle: ts is rounded to the ns first). */
static void
slice (TesChromeBuilder      *b,
       TesChromeMergedThread *mt,
       TesChromePart         *part,
       const TesChromeSlice  *sl,
       const char            *args,
       gint64                *start,
       gint64                *dur,
       guint32               *category)
{
  guint32 name = tes_chrome_gid (b, part->seg, sl->name);
  gint ipu, tile;
  gint64 cycles;

  if (b->mhz <= 0)
    return;

  cycles = tes_chrome_args_cycles (args, sl->args_len, "cycles");
  *start = tes_chrome_ticks (b, sl->start);
  *dur = cycles >= 0 ? cycles : tes_chrome_ticks (b, sl->start + sl->dur) - *start;
  /* A tile's slice is a program step of one type (OnTileExecute,
   * DoExchange, Sync…): that type is what PopVision's cycle proportions
   * add up, so it is the category, not the trace's one "bsp" for all. */
  if (poplar_tile_of (b, mt, &ipu, &tile))
    *category = tes_chrome_wid (b, name);
  bsp_add (b, mt, args, sl->args_len, tes_chrome_text (b, name), *start, *dur);
}

const TesChromeFlavour tes_chrome_flavour_poplar = {
  .title = "Graphcore Poplar tile execution trace",
  .detect = detect,
  .prepare = prepare,
  .process_kind = process_kind,
  .thread_track = thread_track,
  .slice = slice,
  .rows_written = write_bsp,
};
