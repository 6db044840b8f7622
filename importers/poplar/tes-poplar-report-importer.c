/* tes-poplar-report-importer.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-poplar-report"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "tes-info.h"
#include "tes-line-reader.h"
#include "tes-poplar-report-importer.h"
#include "tes-poplar-report-private.h"
#include "tes-text.h"

#include <math.h>
#include <string.h>

/* The text report Poplar prints with printProfileSummary() and TensorFlow
 * writes as Trace_Event_Report.rep (docs/formats/poplar.md):
 *
 *   Target:               key: value lines (IPUs, tiles, memory, clock, replicas)
 *   Graph:                key: value lines (vertices, edges, variables, compute sets)
 *   Memory Usage:         including/excluding gaps, by memory region, by data
 *                         type, vertex data by category and by type
 *     By Tile (Excluding Gaps):   histogram, Maximum lines, tiles out of memory
 *   Tile # N memory usage:        Memory Usage: for one tile
 *   Execution:            programs executed, total cycles, tile averages
 *                         (per IPU in newer SDKs), cycles by vertex type
 *   Execution Steps:      with showExecutionSteps: each IPU's program steps
 *                         and their cycles
 *
 * Any of them may be missing, repeated or elided with "." lines. Values go
 * to info rows (numbers without their thousands separators), per-tile data
 * types to tile_memory, cycles by vertex type to operators, the target's
 * tiles to the tiles table, execution steps to a track per IPU. */

struct _TesPoplarReportImporter
{
  TesImporter parent_instance;
};

G_DEFINE_FINAL_TYPE (TesPoplarReportImporter, tes_poplar_report_importer, TES_TYPE_IMPORTER)

/* Upper bounds that keep a damaged Target section from asking for
 * billions of tile rows. */
#define MAX_IPUS          4096
#define MAX_TILES_PER_IPU 65536
#define MAX_TILES         (1 << 22)

static void
vertex_row_clear (gpointer data)
{
  TesPoplarVertexRow *row = data;

  g_free (row->name);
}

static void
step_clear (gpointer data)
{
  TesPoplarStep *step = data;

  g_free (step->text);
}

static void
execution_free (gpointer data)
{
  TesPoplarExecution *exec = data;

  g_array_unref (exec->steps);
  g_free (exec->prefix);
  g_free (exec->label);
  g_free (exec->approx_us);
  g_ptr_array_unref (exec->programs);
  g_array_unref (exec->vertices);
  g_free (exec);
}

static void
category_clear (gpointer data)
{
  TesPoplarCategory *cat = data;

  g_free (cat->name);
}

static void
tile_block_free (gpointer data)
{
  TesPoplarTileBlock *block = data;

  g_array_unref (block->categories);
  g_free (block);
}

static void
parser_clear (TesPoplarReportParser *p)
{
  g_clear_pointer (&p->keys, g_hash_table_unref);
  g_clear_pointer (&p->prefix, g_free);
  g_clear_pointer (&p->subsection, g_free);
  g_clear_pointer (&p->memory_prefix, g_free);
  g_clear_pointer (&p->memory_base, g_free);
  g_clear_pointer (&p->exec_ipu_prefix, g_free);
  g_clear_pointer (&p->label, g_free);
  g_clear_pointer (&p->unknown_header, g_free);
  g_clear_pointer (&p->executions, g_ptr_array_unref);
  g_clear_pointer (&p->tiles, g_ptr_array_unref);
  g_clear_pointer (&p->tile_lines, g_hash_table_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TesPoplarReportParser, parser_clear)

static gboolean
is_elision (const char *text)
{
  if (g_str_equal (text, "…"))
    return TRUE;

  for (const char *s = text; *s; s++)
    if (*s != '.')
      return FALSE;

  return *text != '\0';
}

static void
add_warning (TesPoplarReportParser *p,
             const char            *text)
{
  g_autofree char *key = g_strdup_printf ("warning.%u", ++p->n_warnings);

  tes_cache_writer_set_info (p->writer, p->source_id, key, text);
}

/* ---- sections ---------------------------------------------------------- */

static void
discard_label (TesPoplarReportParser *p)
{
  if (p->label == NULL)
    return;

  if (p->n_skipped++ == 0)
    p->first_skipped = p->label_line;
  g_clear_pointer (&p->label, g_free);
}

static void
finish_unknown (TesPoplarReportParser *p)
{
  g_autofree char *text = NULL;

  if (p->unknown_header == NULL)
    return;

  text = g_strdup_printf ("line %u: unknown section '%s:' skipped (%u lines under it)",
                          p->unknown_header_line, p->unknown_header, p->unknown_lines);
  add_warning (p, text);
  g_clear_pointer (&p->unknown_header, g_free);
}

static gboolean
end_section (TesPoplarReportParser  *p,
             GError                **error)
{
  if (p->section == TES_POPLAR_SECTION_HISTOGRAM && !tes_poplar_report_finish_histogram (p, error))
    return FALSE;
  if (p->section == TES_POPLAR_SECTION_UNKNOWN)
    finish_unknown (p);

  p->section = TES_POPLAR_SECTION_NONE;
  p->tile = NULL;
  p->exec = NULL;
  p->in_vertex_data = FALSE;
  p->in_vertex_code = FALSE;
  p->memory_ipu = -1;
  p->step_ipu = 0;
  g_clear_pointer (&p->prefix, g_free);
  g_clear_pointer (&p->subsection, g_free);
  g_clear_pointer (&p->memory_prefix, g_free);
  g_clear_pointer (&p->memory_base, g_free);
  g_clear_pointer (&p->exec_ipu_prefix, g_free);

  return TRUE;
}

static char *
numbered (const char *base,
          guint       n)
{
  return n <= 1 ? g_strdup (base) : g_strdup_printf ("%s.%u", base, n);
}

static gboolean
begin_section (TesPoplarReportParser  *p,
               TesPoplarSection        section,
               char                   *prefix,
               GError                **error)
{
  if (!end_section (p, error))
    {
      g_free (prefix);
      return FALSE;
    }

  discard_label (p);
  p->section = section;
  p->prefix = prefix;
  p->n_sections++;

  return TRUE;
}

static gboolean
begin_memory (TesPoplarReportParser  *p,
              gint64                  tile,
              GError                **error)
{
  if (tile < 0)
    {
      if (!begin_section (p, TES_POPLAR_SECTION_MEMORY, numbered ("memory", ++p->n_memory), error))
        return FALSE;
      p->memory_base = g_strdup (p->prefix);
      return TRUE;
    }

  {
    gpointer first = g_hash_table_lookup (p->tile_lines, &tile);
    TesPoplarTileBlock *block;

    if (first != NULL)
      return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->path, p->line_no,
                                      _("memory usage of tile %" PRId64 " is printed twice (first on line %u)"),
                                      tile, GPOINTER_TO_UINT (first));

    if (!begin_section (p, TES_POPLAR_SECTION_MEMORY,
                        g_strdup_printf ("tile.%" G_GINT64_FORMAT ".memory", tile), error))
      return FALSE;

    block = g_new0 (TesPoplarTileBlock, 1);
    block->tile = tile;
    block->line = p->line_no;
    block->categories = g_array_new (FALSE, FALSE, sizeof (TesPoplarCategory));
    g_array_set_clear_func (block->categories, category_clear);
    g_ptr_array_add (p->tiles, block);
    g_hash_table_insert (p->tile_lines, g_memdup2 (&tile, sizeof tile), GUINT_TO_POINTER (p->line_no));

    p->tile = block;
    p->expect_memory_header = TRUE;
  }

  return TRUE;
}

static gboolean
begin_histogram (TesPoplarReportParser  *p,
                 GError                **error)
{
  g_autofree char *memory_prefix = NULL;
  g_autofree char *memory_base = NULL;
  g_autofree char *prefix = NULL;
  gint64 ipu = -1;

  /* Inside a Memory Usage section the histogram may be followed by more
   * of that section; one printed on its own (as in excerpts) stands alone.
   * Either way they are numbered in the order printed; one in an IPU's
   * block is that IPU's (memory.ipu.N.by_tile). */
  if (p->section == TES_POPLAR_SECTION_MEMORY && p->tile == NULL)
    {
      memory_prefix = g_strdup (p->prefix);
      memory_base = g_strdup (p->memory_base);
      ipu = p->memory_ipu;
    }

  ++p->n_histogram;
  prefix = ipu >= 0 ? g_strdup_printf ("%s.by_tile", memory_prefix) : numbered ("memory.by_tile", p->n_histogram);
  if (!begin_section (p, TES_POPLAR_SECTION_HISTOGRAM, g_steal_pointer (&prefix), error))
    return FALSE;

  p->memory_prefix = g_steal_pointer (&memory_prefix);
  p->memory_base = g_steal_pointer (&memory_base);
  p->memory_ipu = ipu;
  p->n_bins = 0;
  p->saw_maximum = FALSE;
  p->histogram_line = p->line_no;
  p->n_bin_rows = 0;
  p->bin_tiles = 0;
  p->bin_indent = G_MAXUINT;
  p->last_elided = FALSE;

  return TRUE;
}

static gboolean
begin_execution (TesPoplarReportParser  *p,
                 gboolean                take_label,
                 GError                **error)
{
  TesPoplarExecution *exec;
  g_autofree char *label = NULL;
  guint index = p->executions->len + 1;

  if (take_label)
    label = g_steal_pointer (&p->label);

  if (!begin_section (p, TES_POPLAR_SECTION_EXECUTION, numbered ("execution", index), error))
    return FALSE;

  exec = g_new0 (TesPoplarExecution, 1);
  exec->index = index;
  exec->prefix = g_strdup (p->prefix);
  exec->programs = g_ptr_array_new_with_free_func (g_free);
  exec->vertices = g_array_new (FALSE, FALSE, sizeof (TesPoplarVertexRow));
  exec->steps = g_array_new (FALSE, FALSE, sizeof (TesPoplarStep));
  g_array_set_clear_func (exec->steps, step_clear);
  exec->total_cycles = -1;
  g_array_set_clear_func (exec->vertices, vertex_row_clear);
  g_ptr_array_add (p->executions, exec);

  p->exec = exec;
  p->exec_state = TES_POPLAR_EXEC_START;

  if (label != NULL)
    {
      g_autofree char *key = g_strdup_printf ("%s.label", exec->prefix);

      exec->label = g_strdup (label);
      if (!tes_poplar_report_put_info (p, key, label, error))
        return FALSE;
    }

  return TRUE;
}

/* showExecutionSteps' list belongs to the execution printed above it. */
static gboolean
begin_steps (TesPoplarReportParser  *p,
             GError                **error)
{
  TesPoplarExecution *exec;

  if (p->executions->len == 0 && !begin_execution (p, FALSE, error))
    return FALSE;

  exec = g_ptr_array_index (p->executions, p->executions->len - 1);
  if (!begin_section (p, TES_POPLAR_SECTION_STEPS, g_strdup (exec->prefix), error))
    return FALSE;
  p->exec = exec;
  p->step_ipu = 0;

  return TRUE;
}

/* ---- dispatch ------------------------------------------------------------ */

static gboolean
parse_tile_header (const char *text,
                   gint64     *tile)
{
  g_autoptr(GString) norm = g_string_new (NULL);
  const char *s;

  if (!g_str_has_prefix (text, "Tile #"))
    return FALSE;
  s = tes_poplar_skip_spaces (text + strlen ("Tile #"));
  if (!tes_poplar_scan_number (s, &s, norm) || !tes_poplar_is_integer (norm->str))
    return FALSE;
  if (!g_str_equal (s, " memory usage:"))
    return FALSE;

  *tile = g_ascii_strtoll (norm->str, NULL, 10);
  return TRUE;
}

static gboolean
handle_top_level (TesPoplarReportParser  *p,
                  const char             *text,
                  guint                   indent,
                  GError                **error)
{
  g_autofree char *label = NULL;
  const char *value;

  if (tes_poplar_split_kv (text, &label, &value))
    {
      /* Execution figures printed without an "Execution:" header, as in
       * logs that label each run with a line of their own. */
      if (*value != '\0' && g_ascii_strcasecmp (label, "Total cycles") == 0)
        {
          gboolean handled;

          if (!begin_execution (p, TRUE, error))
            return FALSE;
          p->exec_state = TES_POPLAR_EXEC_METRICS;
          return tes_poplar_report_execution_line (p, text, &handled, error);
        }

      if (*value == '\0' && indent == 0)
        {
          discard_label (p);
          p->section = TES_POPLAR_SECTION_UNKNOWN;
          p->unknown_header = g_strdup (label);
          p->unknown_header_line = p->line_no;
          p->unknown_lines = 0;
          return TRUE;
        }
    }

  /* Free text (a log line, a label, a comment): may name the next run. */
  discard_label (p);
  p->label = g_strdup (text);
  p->label_line = p->line_no;

  return TRUE;
}

static gboolean
handle_line (TesPoplarReportParser  *p,
             const char             *text,
             guint                   indent,
             GError                **error)
{
  gint64 tile;
  gboolean expect_memory_header = p->expect_memory_header;

  p->expect_memory_header = FALSE;

  if (is_elision (text))
    return tes_poplar_report_add_elision (p, error);

  if (g_str_equal (text, "Target:"))
    return begin_section (p, TES_POPLAR_SECTION_TARGET, numbered ("target", ++p->n_target), error);
  if (g_str_equal (text, "Graph:"))
    return begin_section (p, TES_POPLAR_SECTION_GRAPH, numbered ("graph", ++p->n_graph), error);
  if (g_str_equal (text, "Memory Usage:"))
    {
      /* "Tile # N memory usage:" is followed by the tile's "Memory Usage:" */
      if (expect_memory_header && p->section == TES_POPLAR_SECTION_MEMORY)
        return TRUE;
      return begin_memory (p, -1, error);
    }
  if (parse_tile_header (text, &tile))
    {
      if (p->tiles_per_ipu > 0 && p->ipus > 0 && tile >= p->ipus * p->tiles_per_ipu)
        return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->path, p->line_no,
                                        _("tile %" PRId64 " is beyond the %" PRId64 " tiles of the target"),
                                        tile, p->ipus * p->tiles_per_ipu);
      return begin_memory (p, tile, error);
    }
  if (g_str_equal (text, "By Tile (Excluding Gaps):"))
    return begin_histogram (p, error);
  if (g_str_equal (text, "Execution:"))
    return begin_execution (p, FALSE, error);
  if (g_ascii_strcasecmp (text, "Execution Steps:") == 0)
    return begin_steps (p, error);
  if (g_str_equal (text, "Programs executed:"))
    {
      if (p->section != TES_POPLAR_SECTION_EXECUTION || p->exec_state != TES_POPLAR_EXEC_START)
        if (!begin_execution (p, FALSE, error))
          return FALSE;
      p->exec_state = TES_POPLAR_EXEC_PROGRAMS;
      return TRUE;
    }
  if (g_str_equal (text, "Cycles by vertex type:"))
    {
      if (p->section != TES_POPLAR_SECTION_EXECUTION)
        if (!begin_execution (p, FALSE, error))
          return FALSE;
      p->exec_state = TES_POPLAR_EXEC_VERTICES;
      return TRUE;
    }

  switch (p->section)
    {
    case TES_POPLAR_SECTION_TARGET:
    case TES_POPLAR_SECTION_GRAPH:
      if (indent > 0)
        return tes_poplar_report_key_value_line (p, text, error);
      break;

    case TES_POPLAR_SECTION_MEMORY:
      if (indent > 0)
        return tes_poplar_report_memory_line (p, text, error);
      break;

    case TES_POPLAR_SECTION_HISTOGRAM:
      if (indent > 0)
        return tes_poplar_report_histogram_line (p, text, indent, error);
      break;

    case TES_POPLAR_SECTION_EXECUTION:
      {
        gboolean handled;

        if (!tes_poplar_report_execution_line (p, text, &handled, error))
          return FALSE;
        if (handled)
          return TRUE;
      }
      break;

    case TES_POPLAR_SECTION_STEPS:
      if (indent > 0)
        return tes_poplar_report_step_line (p, text, error);
      break;

    case TES_POPLAR_SECTION_UNKNOWN:
      if (indent > 0)
        {
          p->unknown_lines++;
          return TRUE;
        }
      break;

    case TES_POPLAR_SECTION_NONE:
    default:
      break;
    }

  if (!end_section (p, error))
    return FALSE;

  return handle_top_level (p, text, indent, error);
}

static gboolean
handle_blank (TesPoplarReportParser  *p,
              GError                **error)
{
  discard_label (p);

  /* Target and Graph are single blocks; the other sections have blank
   * lines inside. */
  if (p->section == TES_POPLAR_SECTION_TARGET || p->section == TES_POPLAR_SECTION_GRAPH)
    return end_section (p, error);
  if (p->section == TES_POPLAR_SECTION_HISTOGRAM)
    p->last_elided = FALSE;

  return TRUE;
}

/* ---- output -------------------------------------------------------------- */

static gboolean
write_tiles (TesPoplarReportParser  *p,
             GError                **error)
{
  gint64 n_ipus = p->ipus;
  gint64 per_ipu = p->tiles_per_ipu;

  /* "Total Tiles" with the IPU count stands in for a missing "Tiles per IPU". */
  if (per_ipu <= 0 && p->total_tiles > 0 && n_ipus > 0 && p->total_tiles % n_ipus == 0)
    per_ipu = p->total_tiles / n_ipus;
  if (n_ipus <= 0 && per_ipu > 0)
    n_ipus = 1;

  if (n_ipus > MAX_IPUS || per_ipu > MAX_TILES_PER_IPU || n_ipus * per_ipu > MAX_TILES)
    return tes_import_fail (error, TES_IMPORT_ERROR_INVALID, p->path,
                            _("a target of %" PRId64 " IPUs with %" PRId64
                              " tiles each is beyond what Tessera accepts (%d IPUs, %d tiles per IPU)"),
                            n_ipus, per_ipu, MAX_IPUS, MAX_TILES_PER_IPU);

  for (gint64 ipu = 0; ipu < n_ipus && per_ipu > 0; ipu++)
    for (gint64 tile = 0; tile < per_ipu; tile++)
      tes_cache_writer_add_tile (p->writer, (int)ipu, (int)tile, p->memory_limit, 0);

  for (guint i = 0; i < p->tiles->len; i++)
    {
      const TesPoplarTileBlock *block = g_ptr_array_index (p->tiles, i);
      gint64 ipu = per_ipu > 0 ? block->tile / per_ipu : 0;
      gint64 tile = per_ipu > 0 ? block->tile % per_ipu : block->tile;
      gint64 tile_id;

      if (tile > G_MAXINT || ipu > G_MAXINT)
        return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->path, block->line,
                                        _("tile number %" PRId64 " is out of range"), block->tile);

      tile_id = tes_cache_writer_add_tile (p->writer, (int)ipu, (int)tile, p->memory_limit, 0);
      for (guint j = 0; j < block->categories->len; j++)
        {
          const TesPoplarCategory *cat = &g_array_index (block->categories, TesPoplarCategory, j);

          tes_cache_writer_add_tile_memory (p->writer, tile_id, cat->name, cat->bytes);
        }
    }

  return TRUE;
}

/* The clock the cycle figures count: the target's; else, from the first
 * run that prints "(approx N microseconds)", rounded to whole MHz. */
static gint64
make_clock (TesPoplarReportParser *p)
{
  gint64 hz = p->clock_hz;

  if (hz <= 0)
    {
      for (guint i = 0; i < p->executions->len && hz <= 0; i++)
        {
          const TesPoplarExecution *exec = g_ptr_array_index (p->executions, i);
          double us;

          if (exec->total_cycles <= 0 || exec->approx_us == NULL)
            continue;
          us = g_ascii_strtod (exec->approx_us, NULL);
          if (us > 0)
            {
              gint64 mhz = llround (exec->total_cycles / us);

              if (mhz <= 0)
                continue;
              hz = mhz * 1000000;
              tes_info_set_int (p->writer, p->source_id, "clock.derived_mhz", mhz);
            }
        }
    }

  if (hz <= 0)
    return 0;

  return tes_cache_writer_add_clock (p->writer, "Poplar IPU cycles", TES_TIME_UNIT_CYCLES, hz);
}

static void
write_executions (TesPoplarReportParser *p,
                  gint64                 clock_id)
{
  for (guint i = 0; i < p->executions->len; i++)
    {
      const TesPoplarExecution *exec = g_ptr_array_index (p->executions, i);
      g_autofree char *args = g_strdup_printf ("{\"execution\":%u}", exec->index);
      gint64 run_id = 0;

      if (exec->total_cycles >= 0)
        {
          g_autofree char *name = NULL;

          if (exec->programs->len > 0)
            {
              g_ptr_array_add (exec->programs, NULL);
              name = g_strjoinv (", ", (char **)exec->programs->pdata);
              g_ptr_array_remove_index (exec->programs, exec->programs->len - 1);
            }
          else if (exec->label != NULL)
            name = g_strdup (exec->label);
          else
            name = g_strdup_printf ("Execution %u", exec->index);

          run_id = tes_cache_writer_add_run (p->writer, name, clock_id, 0, exec->total_cycles);
        }

      for (guint j = 0; j < exec->vertices->len; j++)
        {
          const TesPoplarVertexRow *row = &g_array_index (exec->vertices, TesPoplarVertexRow, j);
          TesOperatorRow op = TES_OPERATOR_ROW_INIT;

          op.source_id = p->source_id;
          op.run_id = run_id;
          op.name = row->name;
          op.type = row->name;
          op.count = row->instances;
          op.total = row->cycles;
          op.clock_id = clock_id;
          op.share = row->share;
          op.args_json = args;
          tes_cache_writer_add_operator (p->writer, &op);
        }
    }
}

/* The program steps showExecutionSteps lists: a track per IPU, the steps
 * one after the other from 0 in the order listed, each as long as its
 * cycles; named as printed, categorised by the step's type (the text
 * before ':', "OnTileExecute"). Runs with steps in one report each get
 * their own tracks. */
static gboolean
write_steps (TesPoplarReportParser  *p,
             gint64                  clock_id,
             GError                **error)
{
  guint n_with_steps = 0;

  for (guint i = 0; i < p->executions->len; i++)
    if (((TesPoplarExecution *)g_ptr_array_index (p->executions, i))->steps->len > 0)
      n_with_steps++;

  if (n_with_steps == 0)
    return TRUE;
  if (clock_id == 0)
    {
      add_warning (p, "the execution steps were not made a trace: the report gives no clock "
                      "(no Target section, no 'approx N microseconds')");
      return TRUE;
    }

  for (guint i = 0; i < p->executions->len; i++)
    {
      const TesPoplarExecution *exec = g_ptr_array_index (p->executions, i);
      g_autoptr(GHashTable) tracks = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);

      for (guint j = 0; j < exec->steps->len; j++)
        {
          const TesPoplarStep *step = &g_array_index (exec->steps, TesPoplarStep, j);
          gint64 *lane = g_hash_table_lookup (tracks, &step->ipu);
          g_autofree char *args = NULL;
          const char *colon = strstr (step->text, ": ");
          g_autofree char *type = colon != NULL ? g_strndup (step->text, colon - step->text) : g_strdup (step->text);

          if (lane == NULL)
            {
              g_autofree char *name = n_with_steps == 1
                                      ? g_strdup_printf ("IPU %" G_GINT64_FORMAT, step->ipu)
                                      : g_strdup_printf ("IPU %" G_GINT64_FORMAT " (Execution %u)", step->ipu, exec->index);
              g_autofree char *native = g_strdup_printf ("execution.%u.ipu.%" G_GINT64_FORMAT, exec->index, step->ipu);

              /* lane[0]: the track, lane[1]: where its next step starts */
              lane = g_new0 (gint64, 2);
              lane[0] = tes_cache_writer_add_track (p->writer, 0, p->source_id, clock_id, TES_TRACK_IPU,
                                                    name, step->ipu, native);
              tes_cache_writer_set_track_tile (p->writer, lane[0], (gint)step->ipu, -1);
              g_hash_table_insert (tracks, g_memdup2 (&step->ipu, sizeof step->ipu), lane);
            }

          if (step->cycles > G_MAXINT64 / 2 - lane[1])
            return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->path, step->line,
                                            _("the steps of IPU %" PRId64 " add up to more cycles than Tessera accepts"),
                                            step->ipu);

          args = g_strdup_printf ("{\"step\":%" G_GINT64_FORMAT ",\"cycles\":%" G_GINT64_FORMAT
                                  ",\"execution\":%u}", step->step, step->cycles, exec->index);
          tes_cache_writer_add_slice (p->writer, lane[0], lane[1], step->cycles,
                                      tes_cache_writer_intern (p->writer, step->text),
                                      tes_cache_writer_intern (p->writer, type),
                                      TES_SLICE_FLAG_NONE, args, -1);
          lane[1] += step->cycles;
        }

      /* each IPU's number of steps and their cycles, to check against the
       * report's totals */
      {
        GHashTableIter iter;
        gpointer key, value;

        g_hash_table_iter_init (&iter, tracks);
        while (g_hash_table_iter_next (&iter, &key, &value))
          {
            gint64 ipu = *(gint64 *)key;
            guint n = 0;
            g_autofree char *n_key = g_strdup_printf ("%s.ipu.%" G_GINT64_FORMAT ".steps", exec->prefix, ipu);
            g_autofree char *c_key = g_strdup_printf ("%s.ipu.%" G_GINT64_FORMAT ".step_cycles", exec->prefix, ipu);

            for (guint j = 0; j < exec->steps->len; j++)
              if (g_array_index (exec->steps, TesPoplarStep, j).ipu == ipu)
                n++;
            tes_info_set_int (p->writer, p->source_id, n_key, n);
            tes_info_set_int (p->writer, p->source_id, c_key, ((gint64 *)value)[1]);
          }
      }
    }

  return TRUE;
}

/* ---- importer ------------------------------------------------------------ */

static guint
count_markers (const char *text)
{
  static const char *const prefixes[] = {
    "Tiles per IPU:",
    "Memory Per-Tile:",
    "Clock Speed (approx):",
    "Number of vertices:",
    "Number of compute sets:",
    "Including Gaps:",
    "By Tile (Excluding Gaps):",
    "Maximum (Including Gaps):",
    "Maximum (Excluding Gaps):",
    "Total cycles:",
    "Tile average compute cycles",
    "Total compute cycles",
    "Cycles by vertex type:",
    "By Data Type:",
    "By Memory Region:",
    "Programs executed:",
  };

  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    if (g_str_has_prefix (text, prefixes[i]))
      return 1u << i;

  if (g_str_has_suffix (text, "tile(s) out of memory"))
    return 1u << 20;
  if (g_str_has_prefix (text, "Tile #") && g_str_has_suffix (text, "memory usage:"))
    return 1u << 21;
  if (g_str_equal (text, "Execution:"))
    return 1u << 22;
  if (g_str_equal (text, "Total for all IPUs:"))
    return 1u << 23;
  if (g_str_equal (text, "Not Overlapped") || g_str_has_prefix (text, "Total After Overlapping:"))
    return 1u << 24;
  if (g_ascii_strcasecmp (text, "Execution Steps:") == 0)
    return 1u << 25;

  return 0;
}

static guint
tes_poplar_report_importer_sniff (TesImporter  *importer,
                                  const guint8 *head,
                                  gsize         head_len,
                                  const char   *basename)
{
  TesLineReader reader;
  const char *line;
  gsize len;
  guint markers = 0;
  guint n;

  if (memchr (head, '\0', head_len) != NULL)
    return 0;

  /* a JSON trace's head is thousands of short lines: never classify them */
  if (tes_head_is_json (head, head_len))
    return 0;

  tes_line_reader_init_for_head (&reader, head, head_len);

  while (tes_line_reader_next (&reader, &line, &len))
    {
      g_autofree char *text = NULL;

      if (len > 256)
        continue;

      text = g_strstrip (g_strndup (line, len));
      markers |= count_markers (text);
    }

  /* Several of the report's own lines: one alone ("Target:" with an IPU
   * count) is too little to tell. */
  n = (guint)__builtin_popcount (markers);
  if (n >= 3)
    return basename && g_str_has_suffix (basename, ".rep") ? 100 : 95;
  if (n == 2)
    return 80;

  return 0;
}

static gboolean
tes_poplar_report_importer_import (TesImporter       *importer,
                                   TesImportContext  *context,
                                   GError           **error)
{
  g_auto(TesLineReader) reader = { 0 };
  g_auto(TesPoplarReportParser) p = { 0 };
  const char *line;
  gsize len;
  gint64 clock_id;

  p.path = context->path;
  p.writer = context->writer;
  p.source_id = context->source_id;
  p.keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  p.executions = g_ptr_array_new_with_free_func (execution_free);
  p.tiles = g_ptr_array_new_with_free_func (tile_block_free);
  p.tile_lines = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  p.memory_ipu = -1;

  if (!tes_line_reader_init (&reader, context->path, error))
    return FALSE;

  while (tes_line_reader_next (&reader, &line, &len))
    {
      g_autofree char *text = NULL;
      guint indent = 0;

      p.line_no = reader.line_no;

      if (!tes_line_reader_check_utf8 (&reader, context->path, line, len, "a text report", error))
        return FALSE;

      while (indent < len && tes_is_space (line[indent]))
        indent++;
      text = g_strndup (line + indent, len - indent);
      g_strchomp (text);

      if (*text == '\0')
        {
          if (!handle_blank (&p, error))
            return FALSE;
        }
      else if (!handle_line (&p, text, indent, error))
        {
          tes_line_reader_note_cut (&reader, context->path, error);
          return FALSE;
        }

      if (!tes_line_reader_tick (&reader, context, 0.9, error))
        return FALSE;
    }

  /* A report cut short says so: a text tool ends its last line, and
   * Poplar ends each By Tile histogram with its Maximum lines. */
  if (p.section == TES_POPLAR_SECTION_HISTOGRAM && !p.saw_maximum)
    {
      g_autofree char *text = g_strdup_printf ("the file ends inside the By Tile histogram of line %u, "
                                               "before its Maximum lines: it is cut short",
                                               p.histogram_line);
      add_warning (&p, text);
    }
  else if (tes_line_reader_in_cut_line (&reader))
    {
      g_autofree char *text = g_strdup_printf ("the file ends inside line %u (no line end): "
                                               "it may be cut short", reader.line_no);
      add_warning (&p, text);
    }

  p.line_no = reader.line_no;
  if (!end_section (&p, error))
    return FALSE;
  discard_label (&p);

  if (p.n_sections == 0)
    {
      if (reader.len == 0 || p.n_skipped == 0)
        return tes_import_fail (error, TES_IMPORT_ERROR_EMPTY, context->path,
                                _("empty file (no Poplar report sections)"));

      return tes_import_fail (error, TES_IMPORT_ERROR_INVALID, context->path,
                              _("no Poplar report sections (Target:, Graph:, Memory Usage:, "
                                "Tile # N memory usage:, Execution: or Total cycles:) in %u lines"), reader.line_no);
    }

  if (p.n_skipped > 0)
    {
      g_autofree char *text = g_strdup_printf ("%u lines outside the report's sections were skipped "
                                               "(first on line %u)",
                                               p.n_skipped, p.first_skipped);
      add_warning (&p, text);
    }
  if (p.n_elided > 0)
    tes_info_set_int (p.writer, p.source_id, "elided_lines", p.n_elided);

  if (!write_tiles (&p, error))
    return FALSE;

  clock_id = make_clock (&p);
  write_executions (&p, clock_id);
  if (!write_steps (&p, clock_id, error))
    return FALSE;

  return TRUE;
}

static void
tes_poplar_report_importer_class_init (TesPoplarReportImporterClass *klass)
{
  TesImporterClass *importer_class = TES_IMPORTER_CLASS (klass);

  importer_class->name = "poplar-report";
  importer_class->title = "Graphcore Poplar text report";
  importer_class->version = 5;   /* 5: IPU lanes carry their IPU as a number */
  importer_class->sniff = tes_poplar_report_importer_sniff;
  importer_class->import = tes_poplar_report_importer_import;
}

static void
tes_poplar_report_importer_init (TesPoplarReportImporter *self)
{
}
