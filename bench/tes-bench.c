/* tes-bench.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Times the data model against plain SQLite rows, both built in the same
 * run from the same synthetic slices. Prints one JSON object per line:
 * name, value, unit, baseline, baseline_name, ratio (value / baseline, so
 * below 1 is better), n and a note. bench/run-bench collects them.
 *
 *   tes-bench --slices 1000000 --out build/bench-data
 */

#define G_LOG_DOMAIN "tes-bench"

#include "config.h"

#include "tes-huge-pages.h"
#include "tes-cache-writer.h"
#include "tes-report.h"
#include "tes-bench-util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <sqlite3.h>

#define N_DEVICES       2
#define N_CORES         4
#define N_TRACKS        (N_DEVICES * N_CORES)
#define MAX_DEPTH       4
#define N_WINDOWS       100
#define WINDOW_SLICES   1000
#define LANE_BUCKETS    1200
#define N_REPEATS       5

/* The operator names of ../shared/bench/gen_chrome_trace.py. */
static const char * const op_names[] = {
  "Conv2D", "MatMul", "Softmax", "LayerNorm", "Add", "Mul", "Transpose",
  "Concat", "Gelu", "Reshape", "ReduceSum", "Embedding", "StreamCopy",
  "DoExchange", "Sync", "OnTileExecute", "DMA_IN", "DMA_OUT",
};

static const char * const categories[] = { "op", "dma", "sync" };

/* Share of the slices each core track gets: accelerator cores are rarely
 * equally busy, and the lane benchmark wants one clearly biggest track. */
static const guint track_weights[N_TRACKS] = { 3, 2, 2, 1, 1, 1, 1, 1 };

typedef struct
{
  gint64  start;        /* ns */
  gint64  dur;
  gsize   args_offset;  /* into Trace.args */
  guint16 args_len;
  guint8  track;        /* 0 .. N_TRACKS - 1 */
  guint8  name;         /* index into op_names */
  guint8  depth;
} GenSlice;

typedef struct
{
  gint64  t_min;
  gint64  t_max;
  gint64  max_dur;
  guint64 n;
  gint64  id;           /* track id in the cache; the plain table uses it too */
} GenTrack;

typedef struct
{
  GArray   *slices;     /* GenSlice, track by track, start order in a track */
  GString  *args;
  GenTrack  tracks[N_TRACKS];
  guint64   n;
} Trace;

typedef struct
{
  gint64 track_id;
  gint64 t0;
  gint64 t1;
  gint64 lo;            /* t0 minus the track's longest slice */
} Window;

static void
trace_free (Trace *trace)
{
  g_array_unref (trace->slices);
  g_string_free (trace->args, TRUE);
  g_free (trace);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Trace, trace_free)

static guint
category_of (guint name)
{
  const char *op = op_names[name];

  if (g_str_has_prefix (op, "DMA_") || strcmp (op, "StreamCopy") == 0)
    return 1;
  if (strcmp (op, "Sync") == 0 || strcmp (op, "DoExchange") == 0)
    return 2;
  return 0;
}

/* The same walk as gen_chrome_trace.py: a stack of open spans, children
 * placed inside their parent, nesting at most MAX_DEPTH deep. */
static void
generate_track (Trace   *trace,
                GRand   *rand,
                guint    track,
                guint64  n)
{
  GenTrack *info = &trace->tracks[track];
  gint64 stack[MAX_DEPTH];
  guint depth = 0;
  gint64 clock = g_rand_int_range (rand, 0, 50000);
  guint64 written = 0;

  info->t_min = G_MAXINT64;
  info->t_max = G_MININT64;
  info->max_dur = 0;
  info->n = n;

  while (written < n)
    {
      GenSlice s;
      gint64 room;
      double frac;
      gboolean opens;

      while (depth > 0 && stack[depth - 1] <= clock)
        depth--;

      room = depth > 0 ? stack[depth - 1] - clock : g_rand_int_range (rand, 20000, 400000);
      if (room <= 2)
        {
          clock = depth > 0 ? stack[depth - 1] : clock + 1000;
          continue;
        }

      if (depth + 1 < MAX_DEPTH && g_rand_double (rand) < 0.5)
        frac = g_rand_double_range (rand, 0.2, 0.9);
      else
        frac = g_rand_double_range (rand, 0.05, 0.5);

      s.start = clock;
      s.dur = MAX (1, (gint64)(room * frac));
      s.track = (guint8)track;
      s.name = (guint8)g_rand_int_range (rand, 0, G_N_ELEMENTS (op_names));
      s.depth = (guint8)depth;
      s.args_offset = trace->args->len;
      g_string_append_printf (trace->args, "{\"op\":\"%s\",\"bytes\":%d}",
                              op_names[s.name], g_rand_int_range (rand, 64, 1 << 24));
      s.args_len = (guint16)(trace->args->len - s.args_offset);
      g_string_append_c (trace->args, '\0');
      g_array_append_val (trace->slices, s);

      info->t_min = MIN (info->t_min, s.start);
      info->t_max = MAX (info->t_max, s.start + s.dur);
      info->max_dur = MAX (info->max_dur, s.dur);

      opens = depth + 1 < MAX_DEPTH && g_rand_double (rand) < 0.5;
      if (opens)
        stack[depth++] = clock + s.dur;
      else
        clock += s.dur;

      clock += g_rand_int_range (rand, 1, 2000);
      written++;
    }
}

static Trace *
generate_trace (guint64 n,
                guint32 seed)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  Trace *trace = g_new0 (Trace, 1);
  guint weight_sum = 0;
  guint64 given = 0;

  trace->n = n;
  trace->slices = g_array_sized_new (FALSE, FALSE, sizeof (GenSlice), n);
  trace->args = g_string_sized_new (n * 40);

  for (guint t = 0; t < N_TRACKS; t++)
    weight_sum += track_weights[t];

  for (guint t = 0; t < N_TRACKS; t++)
    {
      guint64 share = t + 1 < N_TRACKS ? n * track_weights[t] / weight_sum : n - given;

      generate_track (trace, rand, t, share);
      given += share;
      /* The ids write_cache gets: each device track precedes its cores. */
      trace->tracks[t].id = 1 + (t / N_CORES) * (N_CORES + 1) + 1 + t % N_CORES;
    }

  return trace;
}

static double
file_mb (const char *path)
{
  GStatBuf st;

  if (g_stat (path, &st) != 0)
    return 0.0;

  return st.st_size / (1024.0 * 1024.0);
}

/* A field of /proc/self/status in KiB (VmRSS, VmHWM), or -1. */
static gint64
status_kb (const char *field)
{
  g_autofree char *text = NULL;
  g_autofree char *key = g_strconcat ("\n", field, ":", NULL);
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &text, NULL, NULL) ||
      !(line = strstr (text, key)))
    return -1;

  return g_ascii_strtoll (line + strlen (key), NULL, 10);
}

/* Resets VmHWM to the current RSS (Linux 4.0+), so that the peak seen
 * after a step is the step's own. */
static gboolean
reset_peak_rss (void)
{
  int fd = open ("/proc/self/clear_refs", O_WRONLY);
  gboolean ok;

  if (fd < 0)
    return FALSE;
  ok = write (fd, "5", 1) == 1;
  close (fd);

  return ok;
}

typedef struct
{
  gint64   rss_kb;
  gboolean reset;
} PeakProbe;

static void
peak_probe_start (PeakProbe *probe)
{
  probe->reset = reset_peak_rss ();
  probe->rss_kb = status_kb ("VmRSS");
}

/* How far the peak RSS rose above the RSS at peak_probe_start(), in MB. */
static double
peak_probe_mb (const PeakProbe *probe)
{
  gint64 hwm = status_kb ("VmHWM");

  if (hwm < 0 || probe->rss_kb < 0)
    return 0.0;

  return MAX (0, hwm - probe->rss_kb) / 1024.0;
}

static gboolean
sql_exec (sqlite3     *db,
          const char  *sql,
          GError     **error)
{
  char *errmsg = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &errmsg) != SQLITE_OK)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "SQLite: %s (in %.40s...)",
                   errmsg ? errmsg : sqlite3_errmsg (db), sql);
      sqlite3_free (errmsg);
      return FALSE;
    }

  return TRUE;
}

static gboolean
sql_prepare (sqlite3       *db,
             const char    *sql,
             sqlite3_stmt **stmt,
             GError       **error)
{
  if (sqlite3_prepare_v2 (db, sql, -1, stmt, NULL) != SQLITE_OK)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "SQLite: %s (in %.40s...)",
                   sqlite3_errmsg (db), sql);
      return FALSE;
    }

  return TRUE;
}

/* a. The cache as an importer writes it: every slice through
 * add_slice, then commit (sort, nest, chunk, index, fsync, rename). */
static gboolean
write_cache (const Trace *trace,
             const char  *path,
             double      *ms,
             GError     **error)
{
  g_autoptr(TesCacheWriter) writer = NULL;
  g_autofree char *stamp_path = g_strdup (path);
  g_autofree char *stamp_fingerprint = g_strdup ("0000000000000000");
  TesSourceStamp stamp = { stamp_path, 0, 0, stamp_fingerprint };
  guint32 name_ids[G_N_ELEMENTS (op_names)];
  guint32 category_ids[G_N_ELEMENTS (categories)];
  gint64 source_id, clock_id;
  gint64 start;

  start = g_get_monotonic_time ();

  if (!(writer = tes_cache_writer_new (path, error)))
    return FALSE;

  source_id = tes_cache_writer_add_source (writer, &stamp, "tes-bench", 1, "synthetic");
  clock_id = tes_cache_writer_add_clock (writer, "ns", TES_TIME_UNIT_NS, G_GINT64_CONSTANT (1000000000));

  for (guint d = 0; d < N_DEVICES; d++)
    {
      g_autofree char *device_name = g_strdup_printf ("Device %u", d);
      gint64 device = tes_cache_writer_add_track (writer, 0, source_id, clock_id, TES_TRACK_DEVICE,
                                                  device_name, d, NULL);

      for (guint c = 0; c < N_CORES; c++)
        {
          g_autofree char *core_name = g_strdup_printf ("core %u", c);
          g_autofree char *native_id = g_strdup_printf ("%u:%u", d, c);

          gint64 id = tes_cache_writer_add_track (writer, device, source_id, clock_id, TES_TRACK_CORE,
                                                  core_name, c, native_id);

          /* The plain rows use the ids generate_trace predicted. */
          g_assert (id == trace->tracks[d * N_CORES + c].id);
        }
    }

  for (guint i = 0; i < G_N_ELEMENTS (op_names); i++)
    name_ids[i] = tes_cache_writer_intern (writer, op_names[i]);
  for (guint i = 0; i < G_N_ELEMENTS (categories); i++)
    category_ids[i] = tes_cache_writer_intern (writer, categories[i]);

  for (guint i = 0; i < trace->slices->len; i++)
    {
      const GenSlice *s = &g_array_index (trace->slices, GenSlice, i);

      tes_cache_writer_add_slice (writer, trace->tracks[s->track].id, s->start, s->dur,
                                  name_ids[s->name], category_ids[category_of (s->name)],
                                  TES_SLICE_FLAG_NONE,
                                  trace->args->str + s->args_offset, s->args_len);
    }

  if (!tes_cache_writer_commit (writer, NULL, error))
    return FALSE;

  *ms = tes_bench_ms_since (start);
  return TRUE;
}

/* a. baseline: one row per slice, as design-notes.md measured it. */
static gboolean
write_plain (const Trace  *trace,
             const char   *path,
             double       *ms,
             double       *insert_ms,
             double       *index_ms,
             GError      **error)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *insert = NULL;
  gint64 start, index_start;
  gboolean ok = FALSE;

  start = g_get_monotonic_time ();

  if (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "Cannot open %s: %s", path, sqlite3_errmsg (db));
      goto out;
    }

  if (!sql_exec (db,
                 "PRAGMA journal_mode = OFF;"
                 "PRAGMA synchronous = OFF;"
                 "CREATE TABLE plain (track INTEGER NOT NULL, name TEXT NOT NULL, ts INTEGER NOT NULL,"
                 "                    dur INTEGER NOT NULL, depth INTEGER NOT NULL, args TEXT);"
                 "BEGIN;",
                 error) ||
      !sql_prepare (db, "INSERT INTO plain (track, name, ts, dur, depth, args) VALUES (?, ?, ?, ?, ?, ?)",
                    &insert, error))
    goto out;

  for (guint i = 0; i < trace->slices->len; i++)
    {
      const GenSlice *s = &g_array_index (trace->slices, GenSlice, i);

      sqlite3_bind_int64 (insert, 1, trace->tracks[s->track].id);
      sqlite3_bind_text (insert, 2, op_names[s->name], -1, SQLITE_STATIC);
      sqlite3_bind_int64 (insert, 3, s->start);
      sqlite3_bind_int64 (insert, 4, s->dur);
      sqlite3_bind_int (insert, 5, s->depth);
      sqlite3_bind_text (insert, 6, trace->args->str + s->args_offset, s->args_len, SQLITE_STATIC);
      if (sqlite3_step (insert) != SQLITE_DONE)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "Inserting row %u: %s", i, sqlite3_errmsg (db));
          goto out;
        }
      sqlite3_reset (insert);
    }

  g_clear_pointer (&insert, sqlite3_finalize);
  if (!sql_exec (db, "COMMIT", error))
    goto out;
  *insert_ms = tes_bench_ms_since (start);

  index_start = g_get_monotonic_time ();
  if (!sql_exec (db, "CREATE INDEX plain_track_ts ON plain (track, ts)", error))
    goto out;
  *index_ms = tes_bench_ms_since (index_start);

  ok = sqlite3_close (db) == SQLITE_OK;
  db = NULL;
  *ms = tes_bench_ms_since (start);

out:
  sqlite3_finalize (insert);
  sqlite3_close (db);
  return ok;
}

/* The cache writer syncs its file before the rename; the plain baseline
 * (synchronous = OFF) does not. Measured apart so the note can say it. */
static double
sync_ms (const char *path)
{
  gint64 start = g_get_monotonic_time ();
  int fd = open (path, O_RDWR);

  if (fd < 0)
    return 0.0;
  fsync (fd);
  close (fd);

  return tes_bench_ms_since (start);
}

static gboolean
open_plain (const char  *path,
            sqlite3    **db,
            GError     **error)
{
  if (sqlite3_open_v2 (path, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "Cannot open %s: %s", path, sqlite3_errmsg (*db));
      g_clear_pointer (db, sqlite3_close);
      return FALSE;
    }

  return TRUE;
}

/* b. From nothing to a report that can answer queries (tracks, clocks,
 * strings and counts loaded). */
static gboolean
bench_reopen (const char  *cache_path,
              const char  *plain_path,
              GArray      *ms,
              GArray      *baseline_ms,
              GError     **error)
{
  for (guint r = 0; r < N_REPEATS; r++)
    {
      g_autoptr(TesReport) report = NULL;
      gint64 start = g_get_monotonic_time ();

      if (!(report = tes_report_open_cache (cache_path, error)))
        return FALSE;
      tes_bench_add_since (ms, start);
    }

  /* Baseline: open the row database and count its rows, the least a
   * viewer over plain rows must do to know what it holds. count(*) walks
   * the smallest b-tree (the index), so it grows with the row count. */
  for (guint r = 0; r < N_REPEATS; r++)
    {
      sqlite3 *db = NULL;
      sqlite3_stmt *stmt = NULL;
      gint64 start = g_get_monotonic_time ();
      gint64 count = -1;

      if (!open_plain (plain_path, &db, error))
        return FALSE;
      if (!sql_prepare (db, "SELECT count(*) FROM plain", &stmt, error))
        {
          sqlite3_close (db);
          return FALSE;
        }
      if (sqlite3_step (stmt) == SQLITE_ROW)
        count = sqlite3_column_int64 (stmt, 0);
      sqlite3_finalize (stmt);
      tes_bench_add_since (baseline_ms, start);
      sqlite3_close (db);

      if (count < 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "Counting the rows of %s failed", plain_path);
          return FALSE;
        }
    }

  return TRUE;
}

static GArray *
make_windows (const Trace *trace,
              guint32      seed)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  GArray *windows = g_array_new (FALSE, FALSE, sizeof (Window));

  for (guint i = 0; i < N_WINDOWS; i++)
    {
      const GenTrack *track = &trace->tracks[i % N_TRACKS];
      gint64 span = track->t_max - track->t_min;
      gint64 width = MAX (1, (gint64)((double)span * WINDOW_SLICES / MAX (track->n, 1)));
      Window w;

      w.track_id = track->id;
      w.t0 = track->t_min + (gint64)(g_rand_double (rand) * MAX (0, span - width));
      w.t1 = w.t0 + width;
      w.lo = w.t0 - track->max_dur;
      g_array_append_val (windows, w);
    }

  return windows;
}

/* c. 100 windows of about 1 000 slices, round robin over the tracks. */
static gboolean
bench_windows (TesReport   *report,
               sqlite3     *db,
               GArray      *windows,
               GArray      *ms,
               GArray      *baseline_ms,
               guint64     *n_model,
               guint64     *n_plain,
               GError     **error)
{
  for (guint r = 0; r < N_REPEATS; r++)
    {
      gint64 start = g_get_monotonic_time ();

      *n_model = 0;
      for (guint i = 0; i < windows->len; i++)
        {
          const Window *w = &g_array_index (windows, Window, i);
          g_autoptr(GArray) slices = NULL;

          if (!(slices = tes_report_get_slices (report, w->track_id, w->t0, w->t1, error)))
            return FALSE;
          *n_model += slices->len;
        }
      tes_bench_add_since (ms, start);
    }

  /* Baseline: the same overlap test in SQL. A slice overlapping [t0, t1]
   * starts no earlier than t0 minus the track's longest slice, which
   * gives the (track, ts) index a lower bound to seek to. */
  for (guint r = 0; r < N_REPEATS; r++)
    {
      sqlite3_stmt *stmt = NULL;
      gint64 start = g_get_monotonic_time ();
      gint64 checksum = 0;

      if (!sql_prepare (db,
                        "SELECT ts, dur, name, depth FROM plain "
                        "WHERE track = ?1 AND ts >= ?2 AND ts <= ?3 AND ts + dur >= ?4 ORDER BY ts",
                        &stmt, error))
        return FALSE;

      *n_plain = 0;
      for (guint i = 0; i < windows->len; i++)
        {
          const Window *w = &g_array_index (windows, Window, i);

          sqlite3_reset (stmt);
          sqlite3_bind_int64 (stmt, 1, w->track_id);
          sqlite3_bind_int64 (stmt, 2, w->lo);
          sqlite3_bind_int64 (stmt, 3, w->t1);
          sqlite3_bind_int64 (stmt, 4, w->t0);
          while (sqlite3_step (stmt) == SQLITE_ROW)
            {
              checksum += sqlite3_column_int64 (stmt, 0) + sqlite3_column_int64 (stmt, 1);
              checksum += sqlite3_column_bytes (stmt, 2) + sqlite3_column_int (stmt, 3);
              (*n_plain)++;
            }
        }
      sqlite3_finalize (stmt);
      tes_bench_add_since (baseline_ms, start);
      g_debug ("window checksum %" G_GINT64_FORMAT, checksum);
    }

  return TRUE;
}

/* d. One lane of LANE_BUCKETS pixel columns over the whole track. */
static gboolean
bench_lane (TesReport   *report,
            sqlite3     *db,
            gint64       track_id,
            GArray      *ms,
            GArray      *baseline_ms,
            GError     **error)
{
  const TesTrack *track = tes_report_get_track (report, track_id);

  for (guint r = 0; r < N_REPEATS; r++)
    {
      g_autoptr(GArray) buckets = NULL;
      gint64 start = g_get_monotonic_time ();

      if (!(buckets = tes_report_get_lane (report, track_id, track->t_min, track->t_max,
                                           LANE_BUCKETS, error)))
        return FALSE;
      tes_bench_add_since (ms, start);
    }

  /* Baseline: only reading the track's rows in order, no bucketing. */
  for (guint r = 0; r < N_REPEATS; r++)
    {
      sqlite3_stmt *stmt = NULL;
      gint64 start = g_get_monotonic_time ();
      gint64 checksum = 0;

      if (!sql_prepare (db, "SELECT ts, dur FROM plain WHERE track = ? ORDER BY ts", &stmt, error))
        return FALSE;
      sqlite3_bind_int64 (stmt, 1, track_id);
      while (sqlite3_step (stmt) == SQLITE_ROW)
        checksum += sqlite3_column_int64 (stmt, 0) + sqlite3_column_int64 (stmt, 1);
      sqlite3_finalize (stmt);
      tes_bench_add_since (baseline_ms, start);
      g_debug ("lane checksum %" G_GINT64_FORMAT, checksum);
    }

  return TRUE;
}

/* e. Count, total and self time per name over the whole span. */
static gboolean
bench_aggregate (TesReport   *report,
                 sqlite3     *db,
                 GArray      *ms,
                 GArray      *cpu_ms,
                 GArray      *baseline_ms,
                 gint64      *model_count,
                 gint64      *model_total,
                 gint64      *plain_count,
                 gint64      *plain_total,
                 GError     **error)
{
  for (guint r = 0; r < N_REPEATS; r++)
    {
      g_autoptr(GArray) aggs = NULL;
      gint64 start = g_get_monotonic_time ();
      double cpu = tes_bench_cpu_ms ();

      if (!(aggs = tes_report_aggregate_slices (report, NULL, 0, 1, G_MININT64, G_MAXINT64,
                                                TES_GROUP_BY_NAME, NULL, error)))
        return FALSE;
      tes_bench_add_since (ms, start);
      cpu = tes_bench_cpu_ms () - cpu;
      g_array_append_val (cpu_ms, cpu);

      *model_count = 0;
      *model_total = 0;
      for (guint i = 0; i < aggs->len; i++)
        {
          *model_count += g_array_index (aggs, TesAggregate, i).count;
          *model_total += g_array_index (aggs, TesAggregate, i).total;
        }
    }

  /* Baseline: count and total only; rows carry no self time, and
   * deriving it in SQL would need a self-join. */
  for (guint r = 0; r < N_REPEATS; r++)
    {
      sqlite3_stmt *stmt = NULL;
      gint64 start = g_get_monotonic_time ();

      if (!sql_prepare (db, "SELECT name, count(*), sum(dur) FROM plain GROUP BY name", &stmt, error))
        return FALSE;

      *plain_count = 0;
      *plain_total = 0;
      while (sqlite3_step (stmt) == SQLITE_ROW)
        {
          *plain_count += sqlite3_column_int64 (stmt, 1);
          *plain_total += sqlite3_column_int64 (stmt, 2);
        }
      sqlite3_finalize (stmt);
      tes_bench_add_since (baseline_ms, start);
    }

  return TRUE;
}

static void
remove_file (const char *path)
{
  if (g_unlink (path) != 0 && errno != ENOENT)
    g_printerr ("tes-bench: cannot remove %s: %s\n", path, g_strerror (errno));
}

static gboolean
run (guint64      n,
     const char  *out_dir,
     guint32      seed,
     gboolean     keep,
     GError     **error)
{
  g_autoptr(Trace) trace = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GArray) windows = NULL;
  g_autofree char *cache_name = g_strdup_printf ("tes-bench-%" G_GUINT64_FORMAT ".tessera", n);
  g_autofree char *plain_name = g_strdup_printf ("tes-bench-%" G_GUINT64_FORMAT "-plain.sqlite", n);
  g_autofree char *cache_path = g_build_filename (out_dir, cache_name, NULL);
  g_autofree char *plain_path = g_build_filename (out_dir, plain_name, NULL);
  g_autofree char *note = NULL;
  sqlite3 *db = NULL;
  double ms, baseline_ms, insert_ms = 0, index_ms = 0;
  g_autoptr(GArray) runs = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) cpu_runs = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) baseline_runs = g_array_new (FALSE, FALSE, sizeof (double));
  double cache_peak_mb, plain_peak_mb;
  PeakProbe probe;
  guint64 n_model = 0, n_plain = 0;
  gint64 model_count = 0, model_total = 0, plain_count = 0, plain_total = 0;
  guint biggest = 0;
  gint64 start;
  gboolean ok = FALSE;

  if (g_mkdir_with_parents (out_dir, 0755) != 0)
    {
      int errsv = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   "Cannot create %s: %s", out_dir, g_strerror (errsv));
      return FALSE;
    }
  remove_file (cache_path);
  remove_file (plain_path);

  g_printerr ("tes-bench: generating %" G_GUINT64_FORMAT " slices...\n", n);
  start = g_get_monotonic_time ();
  trace = generate_trace (n, seed);
  g_printerr ("tes-bench: generated in %.0f ms (%.0f MB of args)\n",
              tes_bench_ms_since (start), trace->args->len / (1024.0 * 1024.0));

  g_printerr ("tes-bench: writing the plain-row baseline...\n");
  peak_probe_start (&probe);
  if (!write_plain (trace, plain_path, &baseline_ms, &insert_ms, &index_ms, error))
    goto out;
  plain_peak_mb = peak_probe_mb (&probe);

  g_printerr ("tes-bench: writing the cache...\n");
  peak_probe_start (&probe);
  if (!write_cache (trace, cache_path, &ms, error))
    goto out;
  cache_peak_mb = peak_probe_mb (&probe);

  note = g_strdup_printf ("baseline = insert %.0f ms + CREATE INDEX %.0f ms; the cache includes its fsync, "
                          "the baseline does not (fsync of the row file afterwards: %.0f ms)",
                          insert_ms, index_ms, sync_ms (plain_path));
  tes_bench_emit ("cache write", ms, "ms", baseline_ms, "SQLite rows: INSERT per slice + CREATE INDEX (track, ts)", n, note);
  g_clear_pointer (&note, g_free);

  tes_bench_emit ("cache write memory", cache_peak_mb, "MB", plain_peak_mb, "SQLite rows: insert + index", n,
        probe.reset ? "rise of the peak RSS during the write, input excluded"
                    : "rise of the peak RSS (could not reset VmHWM: an upper bound)");

  tes_bench_emit ("cache size", file_mb (cache_path), "MB", file_mb (plain_path), "SQLite rows file with index", n,
        "args JSON in both; the cache also holds lane summaries");

  g_printerr ("tes-bench: reopening...\n");
  if (!bench_reopen (cache_path, plain_path, runs, baseline_runs, error))
    goto out;
  tes_bench_emit_runs ("reopen", runs, "ms", baseline_runs, "SQLite rows: open + SELECT count(*)", n,
                       "file in the page cache");

  if (!(report = tes_report_open_cache (cache_path, error)) ||
      !open_plain (plain_path, &db, error))
    goto out;

  g_printerr ("tes-bench: window queries...\n");
  windows = make_windows (trace, seed + 6);
  g_array_set_size (runs, 0);
  g_array_set_size (baseline_runs, 0);
  if (!bench_windows (report, db, windows, runs, baseline_runs, &n_model, &n_plain, error))
    goto out;
  note = g_strdup_printf ("%.0f slices per window on average (SQL: %.0f)%s",
                          (double)n_model / N_WINDOWS, (double)n_plain / N_WINDOWS,
                          n_model == n_plain ? "" : " MISMATCH");
  tes_bench_emit_runs ("100 window queries", runs, "ms", baseline_runs, "SQL on rows with the (track, ts) index", n, note);
  g_clear_pointer (&note, g_free);

  for (guint t = 1; t < N_TRACKS; t++)
    if (trace->tracks[t].n > trace->tracks[biggest].n)
      biggest = t;

  g_printerr ("tes-bench: lane...\n");
  g_array_set_size (runs, 0);
  g_array_set_size (baseline_runs, 0);
  if (!bench_lane (report, db, trace->tracks[biggest].id, runs, baseline_runs, error))
    goto out;
  note = g_strdup_printf ("track of %" G_GUINT64_FORMAT " slices; baseline reads the rows only, no bucketing",
                          trace->tracks[biggest].n);
  tes_bench_emit_runs ("lane, 1200 buckets", runs, "ms", baseline_runs, "SQL: SELECT ts, dur of the track ORDER BY ts", n, note);
  g_clear_pointer (&note, g_free);

  g_printerr ("tes-bench: aggregate...\n");
  g_array_set_size (runs, 0);
  g_array_set_size (baseline_runs, 0);
  if (!bench_aggregate (report, db, runs, cpu_runs, baseline_runs, &model_count, &model_total,
                        &plain_count, &plain_total, error))
    goto out;
  note = g_strdup_printf ("model also sums self time; %s; CPU time median %.3g ms, every thread's",
                          model_count == plain_count && model_total == plain_total
                            ? "counts and totals agree" : "counts or totals DIFFER", tes_bench_median (cpu_runs));
  tes_bench_emit_runs ("aggregate by name", runs, "ms", baseline_runs, "SQL: GROUP BY name, count(*), sum(dur)", n, note);
  g_clear_pointer (&note, g_free);

  if (n_model != n_plain)
    g_printerr ("tes-bench: window queries returned %" G_GUINT64_FORMAT " slices, SQL %" G_GUINT64_FORMAT "\n",
                n_model, n_plain);
  if (model_count != plain_count || model_total != plain_total)
    g_printerr ("tes-bench: aggregate %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT
                " vs SQL %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT "\n",
                model_count, model_total, plain_count, plain_total);

  ok = TRUE;

out:
  sqlite3_close (db);
  g_clear_object (&report);
  if (!keep)
    {
      remove_file (cache_path);
      remove_file (plain_path);
    }

  return ok;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out_dir = NULL;
  gint64 n = 1000000;
  gint seed = 1;
  gboolean keep = FALSE;
  GOptionEntry entries[] = {
    { "slices", 'n', 0, G_OPTION_ARG_INT64, &n, "Number of slices (default 1000000)", "N" },
    { "out", 'o', 0, G_OPTION_ARG_FILENAME, &out_dir, "Folder for the scratch databases", "DIR" },
    { "seed", 0, 0, G_OPTION_ARG_INT, &seed, "Seed of the generator (default 1)", "SEED" },
    { "keep", 0, 0, G_OPTION_ARG_NONE, &keep, "Keep the databases afterwards", NULL },
    { NULL }
  };

  /* as the programs do, so that what it measures is what they run */
  tes_huge_pages_enable (argv);
  context = g_option_context_new ("- time the Tessera data model against plain SQLite rows");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("tes-bench: %s\n", error->message);
      return 2;
    }

  if (n < N_TRACKS * WINDOW_SLICES)
    {
      g_printerr ("tes-bench: --slices must be at least %d\n", N_TRACKS * WINDOW_SLICES);
      return 2;
    }

  if (out_dir == NULL)
    out_dir = g_strdup (".");

  if (!run ((guint64)n, out_dir, (guint32)seed, keep, &error))
    {
      g_printerr ("tes-bench: %s\n", error->message);
      return 1;
    }

  return 0;
}
