/* tes-cli-memory.c: tessera-cli memory and tiles: tile memory and tile activity
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tessera-cli"

#include "config.h"

#include <stdio.h>

#include "tes-cli-private.h"
#include "tes-workspace.h"

/* the text table's unit column on a device's own line */
#define DEVICE_UNION "(union)"

/* "report" for the report's first histogram, "report.N" for the next,
 * as its info keys are numbered; "per-tile" for Tessera's binning. */
static char *
histogram_source (guint histogram)
{
  if (histogram == 0)
    return g_strdup ("per-tile");
  if (histogram == 1)
    return g_strdup ("report");
  return g_strdup_printf ("report.%u", histogram);
}

static void
print_histogram (const TesTileHistogramBin *bins,
                 guint                      n_bins,
                 gboolean                   csv)
{
  for (guint b = 0; b < n_bins; b++)
    {
      const TesTileHistogramBin *bin = &bins[b];
      g_autofree char *source = histogram_source (bin->histogram);

      if (!csv && (b == 0 || bin->histogram != bins[b - 1].histogram || bin->ipu != bins[b - 1].ipu))
        {
          g_autofree char *ipu = bin->ipu >= 0 ? g_strdup_printf (", IPU %d", bin->ipu) : g_strdup ("");

          if (bin->histogram == 0)
            printf ("Histogram (binned from the per-tile totals, %" G_GINT64_FORMAT " KB bins%s):\n",
                    (bin->upper - bin->lower) / 1024, ipu);
          else if (bin->histogram == 1)
            printf ("Histogram (printed by the report%s):\n", ipu);
          else
            printf ("Histogram %u (printed by the report%s):\n", bin->histogram, ipu);
          printf ("  %10s %10s %10s\n", "lower KB", "upper KB", "tiles");
        }

      if (csv)
        {
          printf ("bin,%s,", source);
          if (bin->ipu >= 0)
            printf ("%d", bin->ipu);
          printf (",,%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",\n",
                  bin->lower / 1024, bin->upper / 1024, bin->tiles);
          continue;
        }

      printf ("  %10" G_GINT64_FORMAT " %10" G_GINT64_FORMAT " %10" G_GINT64_FORMAT "\n",
              bin->lower / 1024, bin->upper / 1024, bin->tiles);
    }
}

static void
print_histogram_mismatches (GArray   *mismatches,
                            guint     n_checked,
                            gboolean  csv)
{
  if (!csv && mismatches->len == 0)
    printf ("The per-tile totals of all %u tiles agree with the printed histogram.\n", n_checked);

  for (guint i = 0; i < mismatches->len; i++)
    {
      const TesTileHistogramMismatch *m = &g_array_index (mismatches, TesTileHistogramMismatch, i);

      if (csv)
        {
          printf ("mismatch,per-tile,,,");
          if (m->lower >= 0)
            printf ("%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT, m->lower / 1024, m->upper / 1024);
          else
            putchar (',');
          printf (",%" G_GINT64_FORMAT ",\n", m->binned);
        }
      else if (m->lower >= 0)
        printf ("Mismatch: %" G_GINT64_FORMAT " - %" G_GINT64_FORMAT " KB: the report prints %" G_GINT64_FORMAT
                " tiles, the per-tile totals put %" G_GINT64_FORMAT " there\n",
                m->lower / 1024, m->upper / 1024, m->printed, m->binned);
      else
        printf ("Mismatch: the per-tile totals of %" G_GINT64_FORMAT " tiles fall in no printed bin\n", m->binned);
    }
}

/* The histograms a text report printed, each line as printed, with its
 * Maximum and out-of-memory lines. */
static void
print_printed_histograms (TesReport *report)
{
  for (guint n = 1;; n++)
    {
      g_auto(GStrv) lines = tes_report_get_printed_histogram (report, n, NULL);

      if (lines == NULL)
        break;
      printf ("As the report prints it (histogram %u):\n", n);
      for (guint i = 0; lines[i] != NULL; i++)
        printf ("  %s\n", lines[i]);
    }
}

/* tessera-cli memory: the tile histogram (the report's, checked against
 * the per-tile totals when both exist; else binned from those), the tiles
 * out of memory and the heaviest tiles. */
static void
print_memory_summary (TesReport *report,
                      GArray    *tiles,
                      GArray    *printed,
                      gboolean   csv)
{
  const TesTile *all = (const TesTile *)(gpointer)tiles->data;
  g_autoptr(GArray) heaviest = tes_tiles_heaviest (all, tiles->len, 5);
  g_autofree char *printed_oom = tes_report_lookup_info (report, "memory.by_tile.tiles_out_of_memory");
  gboolean limits = tiles->len > 0;
  gboolean every_tile;
  guint n_known = 0;
  guint oom;

  for (guint i = 0; i < tiles->len; i++)
    {
      n_known += all[i].has_memory;
      limits &= all[i].memory_limit > 0;
    }
  every_tile = tiles->len > 0 && n_known == tiles->len;

  if (csv)
    printf ("record,source,ipu,tile,lower_kb,upper_kb,tiles,bytes\n");

  if (printed->len > 0)
    {
      print_histogram ((const TesTileHistogramBin *)(gpointer)printed->data, printed->len, csv);
      if (every_tile)
        {
          g_autoptr(GArray) mismatches = tes_tile_histogram_check ((const TesTileHistogramBin *)(gpointer)printed->data,
                                                                   printed->len, all, tiles->len);

          print_histogram_mismatches (mismatches, tiles->len, csv);
        }
      else if (!csv)
        printf ("Not checked against the tiles: %u of %u have their bytes (the size -A listing has them all).\n",
                n_known, tiles->len);
    }
  else
    {
      g_autoptr(GArray) binned = tes_tile_histogram_from_tiles (all, tiles->len, -1);

      print_histogram ((const TesTileHistogramBin *)(gpointer)binned->data, binned->len, csv);
    }

  /* the count from the tiles when every tile has its bytes and limit,
   * the report's own beside it */
  oom = tes_tiles_count_out_of_memory (all, tiles->len);
  if (csv)
    {
      if (printed_oom != NULL)
        printf ("out_of_memory,report,,,,,%s,\n", printed_oom);
      if (every_tile && limits)
        printf ("out_of_memory,per-tile,,,,,%u,\n", oom);
    }
  else if (every_tile && limits)
    {
      printf ("Tiles out of memory: %u of %u\n", oom, tiles->len);
      if (printed_oom != NULL && g_ascii_strtoll (printed_oom, NULL, 10) != oom)
        printf ("Mismatch: the report prints %s tiles out of memory, the per-tile totals give %u\n", printed_oom, oom);
    }
  else if (printed_oom != NULL)
    printf ("Tiles out of memory: %s (as the report prints it)\n", printed_oom);
  else
    printf ("Tiles out of memory: unknown (%s)\n",
            limits ? "not every tile's bytes are known" : "no per-tile memory limit: the compile report's Target gives it");

  if (!csv)
    print_printed_histograms (report);

  if (!csv && heaviest->len > 0)
    {
      if (every_tile)
        printf ("Heaviest tiles:\n");
      else
        printf ("Heaviest tiles (of those whose bytes the report details):\n");
      printf ("  %5s %6s %12s\n", "IPU", "tile", "bytes");
    }
  for (guint i = 0; i < heaviest->len; i++)
    {
      const TesTile *tile = &g_array_index (heaviest, TesTile, i);

      if (csv)
        printf ("top,per-tile,%d,%d,,,,%" G_GINT64_FORMAT "\n", tile->ipu, tile->tile, tile->total_bytes);
      else
        printf ("  %5d %6d %12" G_GINT64_FORMAT "\n", tile->ipu, tile->tile, tile->total_bytes);
    }
}

static gint
compare_categories (gconstpointer a,
                    gconstpointer b,
                    gpointer      user_data)
{
  TesReport *report = user_data;
  guint32 x = *(const guint32 *)a;
  guint32 y = *(const guint32 *)b;
  gboolean x_section = tes_report_get_string (report, x)[0] == '.';
  gboolean y_section = tes_report_get_string (report, y)[0] == '.';

  /* ELF sections, then the report's data types: each in first-seen order,
   * which does not depend on the order the files were given in */
  if (x_section != y_section)
    return x_section ? -1 : 1;
  return (x > y) - (x < y);
}

/* tessera-cli memory --tiles: a row per tile, a column per category. */
static gboolean
print_tile_memory (TesReport *report,
                   GArray    *tiles,
                   gboolean   csv,
                   GError   **error)
{
  g_autoptr(GArray) rows = tes_report_get_tile_memory (report, 0, error);
  g_autoptr(GHashTable) tile_index = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr(GHashTable) category_index = g_hash_table_new (NULL, NULL);
  g_autoptr(GArray) categories = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree gint64 *bytes = NULL;
  g_autofree int *widths = NULL;

  if (rows == NULL)
    return FALSE;

  for (guint i = 0; i < tiles->len; i++)
    g_hash_table_insert (tile_index, &g_array_index (tiles, TesTile, i).id, GUINT_TO_POINTER (i));
  for (guint r = 0; r < rows->len; r++)
    {
      guint32 category = g_array_index (rows, TesTileMemory, r).category;

      if (!g_hash_table_contains (category_index, GUINT_TO_POINTER (category)))
        {
          g_hash_table_add (category_index, GUINT_TO_POINTER (category));
          g_array_append_val (categories, category);
        }
    }
  g_array_sort_with_data (categories, compare_categories, report);
  for (guint c = 0; c < categories->len; c++)
    g_hash_table_insert (category_index, GUINT_TO_POINTER (g_array_index (categories, guint32, c)), GUINT_TO_POINTER (c));

  /* -1: the tile has no row of that category */
  bytes = g_new (gint64, MAX ((gsize)tiles->len * categories->len, 1));
  for (gsize i = 0; i < (gsize)tiles->len * categories->len; i++)
    bytes[i] = -1;
  for (guint r = 0; r < rows->len; r++)
    {
      const TesTileMemory *row = &g_array_index (rows, TesTileMemory, r);
      guint t = GPOINTER_TO_UINT (g_hash_table_lookup (tile_index, &row->tile_id));
      guint c = GPOINTER_TO_UINT (g_hash_table_lookup (category_index, GUINT_TO_POINTER (row->category)));

      bytes[(gsize)t * categories->len + c] = row->bytes;
    }

  widths = g_new (int, MAX (categories->len, 1));
  if (csv)
    printf ("ipu,tile,total_bytes");
  else
    printf ("%5s %6s %12s", "IPU", "tile", "total bytes");
  for (guint c = 0; c < categories->len; c++)
    {
      const char *name = tes_report_get_string (report, g_array_index (categories, guint32, c));

      widths[c] = MAX ((int)g_utf8_strlen (name, -1), 10);
      if (csv)
        {
          putchar (',');
          tes_cli_print_csv_field (name);
        }
      else
        printf (" %*s", widths[c], name);
    }
  putchar ('\n');

  for (guint t = 0; t < tiles->len; t++)
    {
      const TesTile *tile = &g_array_index (tiles, TesTile, t);
      g_autoptr(GString) line = g_string_new (NULL);

      if (!tile->has_memory)
        continue;
      if (csv)
        g_string_printf (line, "%d,%d,%" G_GINT64_FORMAT, tile->ipu, tile->tile, tile->total_bytes);
      else
        g_string_printf (line, "%5d %6d %12" G_GINT64_FORMAT, tile->ipu, tile->tile, tile->total_bytes);
      for (guint c = 0; c < categories->len; c++)
        {
          gint64 v = bytes[(gsize)t * categories->len + c];

          if (csv && v >= 0)
            g_string_append_printf (line, ",%" G_GINT64_FORMAT, v);
          else if (csv)
            g_string_append_c (line, ',');
          else if (v >= 0)
            g_string_append_printf (line, " %*" G_GINT64_FORMAT, widths[c], v);
          else
            g_string_append_printf (line, " %*s", widths[c], "");
        }
      /* text: no blanks after a tile's last category */
      puts (csv ? line->str : g_strchomp (line->str));
    }

  return TRUE;
}

int
tes_cli_memory (int    argc,
                char **argv)
{
  g_auto(TesCliOptions) options = { 0 };
  GOptionEntry entries[] = {
    { "tiles", 0, 0, G_OPTION_ARG_NONE, &options.tiles, "One row per tile: its bytes by category", NULL },
    { "csv", 0, 0, G_OPTION_ARG_NONE, &options.csv, "Print CSV", NULL },
    { NULL }
  };
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GArray) tiles = NULL;
  g_autoptr(GArray) printed = NULL;
  g_autoptr(GError) error = NULL;
  const char * const *paths = NULL;
  gboolean any_memory = FALSE;
  guint n_paths = 0;
  int status;

  if ((status = tes_cli_parse_command_line ("memory", "FILE…", &argc, &argv, &options, entries, &paths, &n_paths)) != TES_CLI_EXIT_OK)
    return status;

  if (!(report = tes_cli_open_report (paths, n_paths, &options, &error)))
    return tes_cli_report_error (error);

  if (!(tiles = tes_report_get_tiles (report, &error)) || !(printed = tes_report_get_tile_histogram (report, &error)))
    return tes_cli_input_error (error);

  for (guint i = 0; i < tiles->len; i++)
    any_memory |= g_array_index (tiles, TesTile, i).has_memory;
  if (!any_memory && (options.tiles || printed->len == 0))
    {
      fprintf (stderr, "tessera-cli: %s: no memory per tile (a Poplar compile report or size -A listing has it)\n",
               paths[0]);
      return TES_CLI_EXIT_BAD_INPUT;
    }

  if (!options.tiles)
    print_memory_summary (report, tiles, printed, options.csv);
  else if (!print_tile_memory (report, tiles, options.csv, &error))
    return tes_cli_input_error (error);

  return TES_CLI_EXIT_OK;
}

static const char *
track_name (TesReport *report,
            gint64     id)
{
  const TesTrack *track = id != 0 ? tes_report_get_track (report, id) : NULL;

  return track != NULL && track->name != NULL ? track->name : "";
}

/* Left-aligned in width characters (names may be UTF-8). */
static void
print_padded (const char *text,
              glong       width)
{
  fputs (text, stdout);
  for (glong n = g_utf8_strlen (text, -1); n < width; n++)
    putchar (' ');
}

/* One line of the units' table (unit_name "" for the device as a whole). */
static void
print_unit_row (const char *device,
                const char *unit_name,
                gint64      busy,
                gint64      idle,
                glong       device_width,
                glong       unit_width,
                gboolean    csv)
{
  if (csv)
    {
      tes_cli_print_csv_field (device);
      putchar (',');
      tes_cli_print_csv_field (unit_name);
      printf (",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "\n", busy, idle);
      return;
    }

  print_padded (device, device_width + 1);
  print_padded (*unit_name != '\0' ? unit_name : DEVICE_UNION, unit_width + 1);
  printf ("%14" G_GINT64_FORMAT " %14" G_GINT64_FORMAT " %6.1f%%\n", busy, idle,
          busy + idle > 0 ? 100.0 * (double)busy / (double)(busy + idle) : 0.0);
}

/* A vendor's parallel units (qaic cores, Torq engines, SigmaStar cores,
 * a GPU's streams): by device, the device as a whole first (busy: the
 * union of its units' work, so overlapping streams count once), then its
 * units, named as the report names them, the ns each worked and waited
 * in the range. */
static void
print_unit_activity (TesReport *report,
                     GArray    *activity,
                     GArray    *devices,
                     gboolean   csv)
{
  glong device_width = 6, unit_width = sizeof DEVICE_UNION - 1;

  if (csv)
    printf ("device,unit,busy_ns,idle_ns\n");
  for (guint i = 0; i < activity->len && !csv; i++)
    {
      const TesTileActivity *row = &g_array_index (activity, TesTileActivity, i);
      g_autofree char *device = tes_report_dup_unit_device_name (report, row->track_id);

      device_width = MAX (device_width, g_utf8_strlen (device, -1));
      unit_width = MAX (unit_width, g_utf8_strlen (track_name (report, row->track_id), -1));
    }
  if (!csv)
    {
      print_padded ("device", device_width + 1);
      print_padded ("unit", unit_width + 1);
      printf ("%14s %14s %7s\n", "busy ns", "idle ns", "busy %");
    }

  for (guint i = 0; i < activity->len; i++)
    {
      const TesTileActivity *row = &g_array_index (activity, TesTileActivity, i);
      g_autofree char *device = tes_report_dup_unit_device_name (report, row->track_id);

      /* before a device's first unit, the device; a unit only computes or waits */
      if (row->tile == 0 && (guint)row->ipu < devices->len)
        {
          const TesTileActivity *all = &g_array_index (devices, TesTileActivity, row->ipu);

          print_unit_row (device, "", all->cycles[TES_TILE_STATE_COMPUTE], all->cycles[TES_TILE_STATE_IDLE],
                          device_width, unit_width, csv);
        }
      print_unit_row (device, track_name (report, row->track_id), row->cycles[TES_TILE_STATE_COMPUTE],
                      row->cycles[TES_TILE_STATE_IDLE], device_width, unit_width, csv);
    }
}

/* tessera-cli tiles: each tile's cycles by state over the BSP steps that
 * start in --range (all by default); for a report without BSP steps, each
 * parallel unit's busy and idle ns in the range (the whole run by
 * default), as Tile Balance counts them. */
int
tes_cli_tiles (int    argc,
               char **argv)
{
  g_auto(TesCliOptions) options = { 0 };
  GOptionEntry entries[] = {
    { "range", 0, 0, G_OPTION_ARG_STRING, &options.range, "A time since the run's start: the BSP steps that start in it, or the cores' and engines' time in it", "START:END" },
    { "csv", 0, 0, G_OPTION_ARG_NONE, &options.csv, "Print CSV", NULL },
    { NULL }
  };
  g_autoptr(TesReport) report = NULL;
  g_autoptr(TesWorkspace) workspace = NULL;
  g_autoptr(GArray) activity = NULL;
  g_autoptr(GArray) devices = NULL;
  g_autoptr(GError) error = NULL;
  const char * const *paths = NULL;
  gint64 t0 = 0, t1 = 0;
  guint n_paths = 0;
  int status;

  if ((status = tes_cli_parse_command_line ("tiles", "FILE…", &argc, &argv, &options, entries, &paths, &n_paths)) != TES_CLI_EXIT_OK)
    return status;

  if (!(report = tes_cli_open_report (paths, n_paths, &options, &error)))
    return tes_cli_report_error (error);

  /* the whole run by default, as the window's Tile Balance first shows it */
  workspace = tes_workspace_new (report);
  if (options.range != NULL && !tes_workspace_parse_range (workspace, options.range, &t0, &t1, &error))
    return tes_cli_usage_error ("tiles: --range %s", error->message);
  if (options.range == NULL && !tes_workspace_get_span (workspace, &t0, &t1))
    t0 = t1 = 0;

  if (!(activity = tes_report_get_balance_activity (report, NULL, t0, t1, &devices, &error)))
    return tes_cli_input_error (error);
  if (activity->len == 0)
    {
      fprintf (stderr, "tessera-cli: %s: no BSP steps (a Poplar tile execution trace has them) "
               "and no parallel units (cores, engines)\n", paths[0]);
      return TES_CLI_EXIT_BAD_INPUT;
    }
  if (devices != NULL)
    {
      print_unit_activity (report, activity, devices, options.csv);
      return TES_CLI_EXIT_OK;
    }

  if (options.csv)
    printf ("ipu,tile,compute,exchange,sync,idle\n");
  else
    printf ("%5s %6s %12s %12s %12s %12s\n", "IPU", "tile", "compute", "exchange", "sync", "idle");

  for (guint i = 0; i < activity->len; i++)
    {
      const TesTileActivity *row = &g_array_index (activity, TesTileActivity, i);

      const gint64 *cycles = row->cycles;

      if (options.csv)
        printf ("%d,%d,%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "\n",
                row->ipu, row->tile, cycles[TES_TILE_STATE_COMPUTE], cycles[TES_TILE_STATE_EXCHANGE],
                cycles[TES_TILE_STATE_SYNC], cycles[TES_TILE_STATE_IDLE]);
      else
        printf ("%5d %6d %12" G_GINT64_FORMAT " %12" G_GINT64_FORMAT " %12" G_GINT64_FORMAT " %12" G_GINT64_FORMAT "\n",
                row->ipu, row->tile, cycles[TES_TILE_STATE_COMPUTE], cycles[TES_TILE_STATE_EXCHANGE],
                cycles[TES_TILE_STATE_SYNC], cycles[TES_TILE_STATE_IDLE]);
    }

  return TES_CLI_EXIT_OK;
}
