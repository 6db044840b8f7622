/* tes-chrome-flavour-poplar.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-chrome"

#include "config.h"

#include "tes-chrome-flavour.h"
#include "tes-model-types.h"
#include "tes-poplar-profile.h"

#include <math.h>
#include <string.h>

/* The Poplar flavour: tile execution traces in Chrome JSON, one process
 * per IPU ("IPU N"), one thread per tile ("Tile N"), BSP steps as events
 * with their cycles in args. It lives beside the Chrome builder, not in
 * poplar/, because it reworks the builder's merged threads; what it reads
 * is Chrome JSON. With otherData.clock_mhz the trace is counted in IPU
 * cycles, each tile lane is linked from the tiles table, and an event's
 * args "step" adds its cycles to that BSP step of its IPU. */

/* BSP steps of the whole trace, as tiles report them */
static TesPoplarBsp *
bsp_of (TesChromeBuilder *b)
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
  /* as many IPUs as the cache stores with a run or a lane */
  return mt->process != NULL &&
         parse_numbered_name (tes_chrome_text (b, mt->process->name), "IPU", ipu) && *ipu < TES_MAX_IPUS &&
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

  b->flavour_data = tes_poplar_bsp_new ();
  b->flavour_data_free = (GDestroyNotify)tes_poplar_bsp_free;

  b->mhz = mhz >= 1 && mhz < 1e6 ? (gint64)llround (mhz) : 0;
  if (b->mhz > 0)
    b->clock_source = "otherData.clock_mhz; slice durations from args.cycles";
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
  g_autofree char *program = NULL;
  const char *v;
  gsize vl;
  gint ipu, tile;

  if (step_no < 0 || step_no > G_MAXINT32 || !poplar_tile_of (b, mt, &ipu, &tile) || tile < 0 || tile > 1 << 20)
    return;

  /* the program's name when args give a plain one, else the event's */
  if (tes_chrome_args_find (args, args_len, "program", &v, &vl) && vl >= 2 && v[0] == '"' &&
      memchr (v + 1, '\\', vl - 2) == NULL)
    program = g_strndup (v + 1, vl - 2);

  tes_poplar_bsp_add (bsp_of (b), ipu, step_no, program ? program : name, start, (guint)tile,
                      cycles, tes_poplar_tile_state (name));
}

/* One run per IPU, and its steps with one entry per tile of the IPU (the
 * tiles the trace names, busy or not). */
static void
write_bsp (TesChromeBuilder *b)
{
  g_autoptr(GPtrArray) threads = NULL;

  if (b->mhz <= 0 || tes_poplar_bsp_is_empty (bsp_of (b)))
    return;

  threads = tes_chrome_list_threads (b);
  for (guint i = 0; i < threads->len; i++)
    {
      gint ipu, tile;

      if (poplar_tile_of (b, g_ptr_array_index (threads, i), &ipu, &tile) && tile >= 0 && tile <= 1 << 20)
        tes_poplar_bsp_set_n_tiles (bsp_of (b), ipu, (guint)tile + 1);
    }

  tes_poplar_bsp_write (bsp_of (b), b->writer, b->clock_id);
}

/* An IPU process, with its number (what ties it to its runs), a tile
 * lane (linked from the tiles table). */
static TesTrackKind
process_kind (TesChromeBuilder       *b,
              TesChromeMergedProcess *mp,
              gint                   *ipu)
{
  gint number;

  if (!parse_numbered_name (tes_chrome_text (b, mp->name), "IPU", &number))
    return TES_TRACK_PROCESS;
  /* "IPU 5000" is drawn as named, numbered as none */
  if (number < TES_MAX_IPUS)
    *ipu = number;

  return TES_TRACK_IPU;
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
