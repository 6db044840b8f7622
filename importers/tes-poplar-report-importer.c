/* tes-poplar-report-importer.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-poplar-report"

#include "config.h"

#include "tes-line-reader.h"
#include "tes-poplar-report-importer.h"

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
 *   Execution:            programs executed, total cycles, tile averages,
 *                         cycles by vertex type
 *
 * Any of them may be missing, repeated or elided with "." lines. Values go
 * to info rows (numbers without their thousands separators), per-tile data
 * types to tile_memory, cycles by vertex type to operators, the target's
 * tiles to the tiles table. */

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

typedef enum
{
  SECTION_NONE,
  SECTION_TARGET,
  SECTION_GRAPH,
  SECTION_MEMORY,
  SECTION_HISTOGRAM,
  SECTION_EXECUTION,
  SECTION_UNKNOWN,
} Section;

typedef enum
{
  EXEC_START,
  EXEC_PROGRAMS,
  EXEC_METRICS,
  EXEC_VERTICES,
} ExecState;

typedef struct
{
  char   *name;
  gint64  instances;   /* -1: not printed */
  gint64  cycles;
  double  share;       /* NaN: not printed */
} VertexRow;

typedef struct
{
  guint      index;
  char      *prefix;
  char      *label;
  GPtrArray *programs;
  gint64     total_cycles;   /* -1: not printed */
  char      *approx_us;      /* as printed, NULL: not printed */
  GArray    *vertices;       /* VertexRow */
} Execution;

typedef struct
{
  char   *name;
  gint64  bytes;
} Category;

typedef struct
{
  gint64  tile;              /* as printed: numbered across all IPUs */
  guint   line;
  GArray *categories;        /* Category */
} TileBlock;

typedef struct
{
  const char     *path;
  TesCacheWriter *writer;
  gint64          source_id;
  guint           line_no;
  GHashTable     *keys;            /* info key -> line it came from */

  Section         section;
  guint           n_sections;
  guint           n_target;
  guint           n_graph;
  guint           n_memory;
  guint           n_histogram;
  char           *prefix;          /* info key prefix of the current section */

  /* Memory Usage */
  TileBlock      *tile;            /* NULL: the whole graph */
  gboolean        expect_memory_header;
  char           *subsection;      /* key part of the current list */
  gboolean        in_vertex_data;
  char           *memory_prefix;   /* the memory section a histogram is in */

  /* By Tile (Excluding Gaps) */
  guint           n_bins;
  guint           n_bin_rows;      /* bins and elision marks */
  gint64          bin_tiles;
  guint           bin_indent;      /* of the "Range (KB)" header */
  gboolean        last_elided;

  /* Execution */
  Execution      *exec;
  ExecState       exec_state;

  /* Text outside any section */
  char           *label;
  guint           label_line;
  guint           n_skipped;
  guint           first_skipped;
  guint           unknown_header_line;
  guint           unknown_lines;
  char           *unknown_header;
  guint           n_elided;
  guint           n_warnings;

  /* The first Target section */
  gint64          ipus;
  gint64          tiles_per_ipu;
  gint64          total_tiles;
  gint64          memory_limit;
  gint64          clock_hz;

  GPtrArray      *executions;      /* Execution */
  GPtrArray      *tiles;           /* TileBlock */
  GHashTable     *tile_lines;      /* tile number -> line of its block */
} Parser;

static void
vertex_row_clear (gpointer data)
{
  VertexRow *row = data;

  g_free (row->name);
}

static void
execution_free (gpointer data)
{
  Execution *exec = data;

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
  Category *cat = data;

  g_free (cat->name);
}

static void
tile_block_free (gpointer data)
{
  TileBlock *block = data;

  g_array_unref (block->categories);
  g_free (block);
}

static void
parser_clear (Parser *p)
{
  g_clear_pointer (&p->keys, g_hash_table_unref);
  g_clear_pointer (&p->prefix, g_free);
  g_clear_pointer (&p->subsection, g_free);
  g_clear_pointer (&p->memory_prefix, g_free);
  g_clear_pointer (&p->label, g_free);
  g_clear_pointer (&p->unknown_header, g_free);
  g_clear_pointer (&p->executions, g_ptr_array_unref);
  g_clear_pointer (&p->tiles, g_ptr_array_unref);
  g_clear_pointer (&p->tile_lines, g_hash_table_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Parser, parser_clear)

static gboolean
fail (Parser      *p,
      GError     **error,
      int          code,
      const char  *format,
      ...) G_GNUC_PRINTF (4, 5);

static gboolean
fail (Parser      *p,
      GError     **error,
      int          code,
      const char  *format,
      ...)
{
  va_list args;

  va_start (args, format);
  tes_set_error_at_line_valist (error, code, p->path, p->line_no, format, args);
  va_end (args);

  return FALSE;
}

static gboolean
is_space (char c)
{
  return c == ' ' || c == '\t';
}

static const char *
skip_spaces (const char *s)
{
  while (is_space (*s))
    s++;
  return s;
}

/* A number as Poplar prints it: digits, optionally grouped by ',' in
 * threes, with an optional fraction. The digits without separators are
 * appended to norm. Returns FALSE when s does not start with a digit or the
 * grouping is broken (e.g. a line cut inside "23,878,3"). */
static gboolean
scan_number (const char  *s,
             const char **end,
             GString     *norm)
{
  const char *q = s;
  guint lead = 0;
  guint digits = 0;

  *end = s;
  if (!g_ascii_isdigit (*q))
    return FALSE;

  while (g_ascii_isdigit (*q))
    {
      g_string_append_c (norm, *q++);
      lead++;
    }
  digits = lead;

  if (*q == ',' && g_ascii_isdigit (q[1]))
    {
      if (lead > 3)
        return FALSE;

      while (*q == ',')
        {
          for (guint i = 1; i <= 3; i++)
            if (!g_ascii_isdigit (q[i]))
              return FALSE;
          if (g_ascii_isdigit (q[4]))
            return FALSE;
          g_string_append_len (norm, q + 1, 3);
          digits += 3;
          q += 4;
        }
    }

  if (digits > 18)
    return FALSE;

  if (*q == '.' && g_ascii_isdigit (q[1]))
    {
      g_string_append_c (norm, *q++);
      while (g_ascii_isdigit (*q))
        g_string_append_c (norm, *q++);
    }

  *end = q;
  return TRUE;
}

static gboolean
is_integer (const char *norm)
{
  return strchr (norm, '.') == NULL;
}

/* "Tile average compute cycles (including idle threads)" ->
 * "tile_average_compute_cycles_including_idle_threads" */
static char *
slugify (const char *label)
{
  char *slug = tes_slugify (label);

  if (*slug != '\0')
    return slug;

  g_free (slug);
  return g_strdup ("value");
}

/* Splits "Label:  value" at the first ':' that ends the text or is
 * followed by white space (so "poplin::Conv" stays whole). The label is
 * trimmed; the value is trimmed and may be empty (a header). */
static gboolean
split_kv (const char  *text,
          char       **label,
          const char **value)
{
  for (const char *s = text; *s; s++)
    {
      if (*s == ':' && (s[1] == '\0' || is_space (s[1])))
        {
          if (s == text)
            return FALSE;
          *label = g_strstrip (g_strndup (text, s - text));
          *value = skip_spaces (s + 1);
          return **label != '\0';
        }
    }

  return FALSE;
}

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

static gboolean
put_info (Parser      *p,
          const char  *key,
          const char  *value,
          GError     **error)
{
  gpointer first = g_hash_table_lookup (p->keys, key);

  if (first != NULL)
    return fail (p, error, TES_IMPORT_ERROR_INVALID,
                 "'%s' is printed twice in one section (first on line %u)",
                 key, GPOINTER_TO_UINT (first));

  g_hash_table_insert (p->keys, g_strdup (key), GUINT_TO_POINTER (p->line_no));
  tes_cache_writer_set_info (p->writer, p->source_id, key, value);
  return TRUE;
}

static void
add_warning (Parser     *p,
             const char *text)
{
  g_autofree char *key = g_strdup_printf ("warning.%u", ++p->n_warnings);

  tes_cache_writer_set_info (p->writer, p->source_id, key, text);
}

/* Parentheses left open mean a line cut short. */
static gboolean
check_balanced (Parser      *p,
                const char  *text,
                GError     **error)
{
  int depth = 0;

  for (const char *s = text; *s; s++)
    {
      if (*s == '(')
        depth++;
      else if (*s == ')' && --depth < 0)
        break;
    }

  if (depth != 0)
    {
      g_autofree char *got = tes_describe_text (text, strlen (text), 60);

      return fail (p, error, TES_IMPORT_ERROR_INVALID,
                   "unbalanced parentheses in '%s' (line cut short?)", got);
    }

  return TRUE;
}

static gboolean
parse_bytes (Parser      *p,
             const char  *label,
             const char  *value,
             gint64      *bytes,
             char       **norm_out,
             GError     **error)
{
  g_autoptr(GString) norm = g_string_new (NULL);
  const char *end;

  if (!scan_number (value, &end, norm) || !is_integer (norm->str) ||
      !g_str_equal (skip_spaces (end), "B"))
    {
      g_autofree char *got = tes_describe_text (value, strlen (value), 60);

      return fail (p, error, TES_IMPORT_ERROR_INVALID,
                   "expected a size in bytes ('<number> B') for '%s', got '%s'", label, got);
    }

  *bytes = g_ascii_strtoll (norm->str, NULL, 10);
  if (norm_out != NULL)
    *norm_out = g_string_free (g_steal_pointer (&norm), FALSE);

  return TRUE;
}

/* ---- sections ---------------------------------------------------------- */

static void
discard_label (Parser *p)
{
  if (p->label == NULL)
    return;

  if (p->n_skipped++ == 0)
    p->first_skipped = p->label_line;
  g_clear_pointer (&p->label, g_free);
}

static void
finish_unknown (Parser *p)
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
finish_histogram (Parser  *p,
                  GError **error)
{
  g_autofree char *bins_key = g_strdup_printf ("%s.bins", p->prefix);
  g_autofree char *tiles_key = g_strdup_printf ("%s.tiles", p->prefix);
  g_autofree char *bins = g_strdup_printf ("%u", p->n_bins);
  g_autofree char *tiles = g_strdup_printf ("%" G_GINT64_FORMAT, p->bin_tiles);

  return put_info (p, bins_key, bins, error) && put_info (p, tiles_key, tiles, error);
}

static gboolean
end_section (Parser  *p,
             GError **error)
{
  if (p->section == SECTION_HISTOGRAM && !finish_histogram (p, error))
    return FALSE;
  if (p->section == SECTION_UNKNOWN)
    finish_unknown (p);

  p->section = SECTION_NONE;
  p->tile = NULL;
  p->exec = NULL;
  p->in_vertex_data = FALSE;
  g_clear_pointer (&p->prefix, g_free);
  g_clear_pointer (&p->subsection, g_free);
  g_clear_pointer (&p->memory_prefix, g_free);

  return TRUE;
}

static char *
numbered (const char *base,
          guint       n)
{
  return n <= 1 ? g_strdup (base) : g_strdup_printf ("%s.%u", base, n);
}

static gboolean
begin_section (Parser   *p,
               Section   section,
               char     *prefix,
               GError  **error)
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
begin_memory (Parser  *p,
              gint64   tile,
              GError **error)
{
  if (tile < 0)
    return begin_section (p, SECTION_MEMORY, numbered ("memory", ++p->n_memory), error);

  {
    gpointer first = g_hash_table_lookup (p->tile_lines, &tile);
    TileBlock *block;

    if (first != NULL)
      return fail (p, error, TES_IMPORT_ERROR_INVALID,
                   "memory usage of tile %" G_GINT64_FORMAT " is printed twice (first on line %u)",
                   tile, GPOINTER_TO_UINT (first));

    if (!begin_section (p, SECTION_MEMORY,
                        g_strdup_printf ("tile.%" G_GINT64_FORMAT ".memory", tile), error))
      return FALSE;

    block = g_new0 (TileBlock, 1);
    block->tile = tile;
    block->line = p->line_no;
    block->categories = g_array_new (FALSE, FALSE, sizeof (Category));
    g_array_set_clear_func (block->categories, category_clear);
    g_ptr_array_add (p->tiles, block);
    g_hash_table_insert (p->tile_lines, g_memdup2 (&tile, sizeof tile), GUINT_TO_POINTER (p->line_no));

    p->tile = block;
    p->expect_memory_header = TRUE;
  }

  return TRUE;
}

static gboolean
begin_histogram (Parser  *p,
                 GError **error)
{
  g_autofree char *memory_prefix = NULL;

  /* Inside a Memory Usage section the histogram may be followed by more
   * of that section; one printed on its own (as in excerpts) stands alone.
   * Either way they are numbered in the order printed. */
  if (p->section == SECTION_MEMORY && p->tile == NULL)
    memory_prefix = g_strdup (p->prefix);

  if (!begin_section (p, SECTION_HISTOGRAM, numbered ("memory.by_tile", ++p->n_histogram), error))
    return FALSE;

  p->memory_prefix = g_steal_pointer (&memory_prefix);
  p->n_bins = 0;
  p->n_bin_rows = 0;
  p->bin_tiles = 0;
  p->bin_indent = G_MAXUINT;
  p->last_elided = FALSE;

  return TRUE;
}

static gboolean
begin_execution (Parser   *p,
                 gboolean  take_label,
                 GError  **error)
{
  Execution *exec;
  g_autofree char *label = NULL;
  guint index = p->executions->len + 1;

  if (take_label)
    label = g_steal_pointer (&p->label);

  if (!begin_section (p, SECTION_EXECUTION, numbered ("execution", index), error))
    return FALSE;

  exec = g_new0 (Execution, 1);
  exec->index = index;
  exec->prefix = g_strdup (p->prefix);
  exec->programs = g_ptr_array_new_with_free_func (g_free);
  exec->vertices = g_array_new (FALSE, FALSE, sizeof (VertexRow));
  exec->total_cycles = -1;
  g_array_set_clear_func (exec->vertices, vertex_row_clear);
  g_ptr_array_add (p->executions, exec);

  p->exec = exec;
  p->exec_state = EXEC_START;

  if (label != NULL)
    {
      g_autofree char *key = g_strdup_printf ("%s.label", exec->prefix);

      exec->label = g_strdup (label);
      if (!put_info (p, key, label, error))
        return FALSE;
    }

  return TRUE;
}

/* ---- Target and Graph ---------------------------------------------------- */

typedef enum
{
  FIELD_COUNT,
  FIELD_MEMORY,
  FIELD_CLOCK,
} FieldKind;

typedef struct
{
  const char *label;
  const char *key;
  FieldKind   kind;
} Field;

static const Field target_fields[] = {
  { "Number of IPUs", "ipus", FIELD_COUNT },
  { "Tiles per IPU", "tiles_per_ipu", FIELD_COUNT },
  { "Total Tiles", "total_tiles", FIELD_COUNT },
  { "Memory Per-Tile", "memory_per_tile", FIELD_MEMORY },
  { "Memory per Tile", "memory_per_tile", FIELD_MEMORY },
  { "Total Memory", "total_memory", FIELD_MEMORY },
  { "Clock Speed (approx)", "clock", FIELD_CLOCK },
  { "Clock Speed", "clock", FIELD_CLOCK },
  { "Number of Replicas", "replicas", FIELD_COUNT },
  { "IPUs per Replica", "ipus_per_replica", FIELD_COUNT },
  { "Tiles per Replica", "tiles_per_replica", FIELD_COUNT },
  { "Memory per Replica", "memory_per_replica", FIELD_MEMORY },
};

static const Field graph_fields[] = {
  { "Number of vertices", "vertices", FIELD_COUNT },
  { "Number of edges", "edges", FIELD_COUNT },
  { "Number of variables", "variables", FIELD_COUNT },
  { "Number of compute sets", "compute_sets", FIELD_COUNT },
};

typedef struct
{
  const char *unit;
  double      factor;
} Unit;

static const Unit memory_units[] = {
  { "B", 1.0 }, { "kB", 1024.0 }, { "KB", 1024.0 }, { "K", 1024.0 },
  { "MB", 1024.0 * 1024.0 }, { "GB", 1024.0 * 1024.0 * 1024.0 },
};

static const Unit clock_units[] = {
  { "Hz", 1.0 }, { "kHz", 1e3 }, { "MHz", 1e6 }, { "GHz", 1e9 },
};

static gboolean
find_unit (const Unit *units,
           guint       n_units,
           const char *text,
           double     *factor)
{
  for (guint i = 0; i < n_units; i++)
    if (g_str_equal (units[i].unit, text))
      {
        *factor = units[i].factor;
        return TRUE;
      }

  return FALSE;
}

/* A value that starts with a number keeps its text, minus the thousands
 * separators of the number; any other value is kept as printed. */
static gboolean
normalize_value (Parser      *p,
                 const char  *label,
                 const char  *value,
                 char       **out,
                 GError     **error)
{
  g_autoptr(GString) norm = g_string_new (NULL);
  const char *end;

  if (!g_ascii_isdigit (*value))
    {
      *out = g_strdup (value);
      return TRUE;
    }

  if (!scan_number (value, &end, norm))
    {
      g_autofree char *got = tes_describe_text (value, strlen (value), 60);

      return fail (p, error, TES_IMPORT_ERROR_INVALID, "malformed number for '%s': '%s'", label, got);
    }

  if (*end != '\0')
    g_string_append_printf (norm, "%s%s", is_space (*end) ? " " : "", skip_spaces (end));
  *out = g_string_free (g_steal_pointer (&norm), FALSE);

  return TRUE;
}

static gboolean
handle_field (Parser       *p,
              const Field  *fields,
              guint         n_fields,
              const char   *label,
              const char   *value,
              GError      **error)
{
  const Field *field = NULL;
  g_autoptr(GString) norm = g_string_new (NULL);
  g_autofree char *key = NULL;
  g_autofree char *stored = NULL;
  const char *end = value;
  const char *unit;
  gboolean first_target = p->section == SECTION_TARGET && p->n_target == 1;
  double factor = 1.0;

  for (guint i = 0; i < n_fields && field == NULL; i++)
    if (g_ascii_strcasecmp (fields[i].label, label) == 0)
      field = &fields[i];

  if (field == NULL)
    {
      g_autofree char *slug = slugify (label);

      key = g_strdup_printf ("%s.%s", p->prefix, slug);
      return normalize_value (p, label, value, &stored, error) && put_info (p, key, stored, error);
    }

  key = g_strdup_printf ("%s.%s", p->prefix, field->key);

  if (!scan_number (value, &end, norm))
    goto bad;
  unit = skip_spaces (end);

  switch (field->kind)
    {
    case FIELD_COUNT:
      {
        gint64 n;

        if (*unit != '\0' || !is_integer (norm->str))
          goto bad;
        n = g_ascii_strtoll (norm->str, NULL, 10);
        if (first_target && g_str_equal (field->key, "ipus"))
          p->ipus = n;
        else if (first_target && g_str_equal (field->key, "tiles_per_ipu"))
          p->tiles_per_ipu = n;
        else if (first_target && g_str_equal (field->key, "total_tiles"))
          p->total_tiles = n;
        stored = g_strdup (norm->str);
      }
      break;

    case FIELD_MEMORY:
      if (!find_unit (memory_units, G_N_ELEMENTS (memory_units), unit, &factor))
        goto bad;
      if (first_target && g_str_equal (field->key, "memory_per_tile"))
        p->memory_limit = (gint64)llround (g_ascii_strtod (norm->str, NULL) * factor);
      stored = g_strdup_printf ("%s %s", norm->str, unit);
      break;

    case FIELD_CLOCK:
      if (!find_unit (clock_units, G_N_ELEMENTS (clock_units), unit, &factor))
        goto bad;
      if (first_target)
        p->clock_hz = (gint64)llround (g_ascii_strtod (norm->str, NULL) * factor);
      stored = g_strdup_printf ("%s %s", norm->str, unit);
      break;

    default:
      g_assert_not_reached ();
    }

  return put_info (p, key, stored, error);

bad:
  {
    g_autofree char *got = tes_describe_text (value, strlen (value), 60);
    const char *expected = field->kind == FIELD_COUNT ? "a whole number" :
                           field->kind == FIELD_MEMORY ? "a size such as '256.0 kB'" :
                           "a frequency such as '1,600.0 MHz'";

    return fail (p, error, TES_IMPORT_ERROR_INVALID,
                 "'%s' expects %s, got '%s'", label, expected, got);
  }
}

static gboolean
handle_key_value_line (Parser      *p,
                       const char  *text,
                       GError     **error)
{
  g_autofree char *label = NULL;
  const char *value;

  if (!split_kv (text, &label, &value) || *value == '\0')
    {
      g_autofree char *got = tes_describe_text (text, strlen (text), 60);

      return fail (p, error, TES_IMPORT_ERROR_INVALID,
                   "expected '<label>: <value>' in the %s section, got '%s'",
                   p->section == SECTION_TARGET ? "Target" : "Graph", got);
    }

  if (p->section == SECTION_TARGET)
    return handle_field (p, target_fields, G_N_ELEMENTS (target_fields), label, value, error);
  else
    return handle_field (p, graph_fields, G_N_ELEMENTS (graph_fields), label, value, error);
}

/* ---- Memory Usage -------------------------------------------------------- */

static gboolean
add_memory_entry (Parser      *p,
                  const char  *name,
                  const char  *value,
                  GError     **error)
{
  g_autofree char *norm = NULL;
  g_autofree char *key = NULL;
  gint64 bytes = 0;

  if (!parse_bytes (p, name, value, &bytes, &norm, error))
    return FALSE;

  if (p->subsection == NULL)
    {
      g_autofree char *slug = slugify (name);

      key = g_strdup_printf ("%s.%s", p->prefix, slug);
    }
  else
    key = g_strdup_printf ("%s.%s.%s", p->prefix, p->subsection, name);

  /* A tile's data types are its rows in the per-tile memory table. */
  if (p->tile != NULL && g_strcmp0 (p->subsection, "data_type") == 0)
    {
      Category cat = { g_strdup (name), bytes };

      for (guint i = 0; i < p->tile->categories->len; i++)
        if (g_str_equal (g_array_index (p->tile->categories, Category, i).name, name))
          {
            g_free (cat.name);
            return fail (p, error, TES_IMPORT_ERROR_INVALID,
                         "data type '%s' is printed twice for tile %" G_GINT64_FORMAT,
                         name, p->tile->tile);
          }

      g_array_append_val (p->tile->categories, cat);
      return TRUE;
    }

  return put_info (p, key, norm, error);
}

static gboolean
set_subsection (Parser      *p,
                const char  *header,
                GError     **error)
{
  const char *sub = NULL;
  g_autofree char *slug = NULL;

  if (g_ascii_strcasecmp (header, "Total") == 0 ||
      g_ascii_strcasecmp (header, "Excluding Gaps") == 0)
    {
      p->in_vertex_data = FALSE;
    }
  else if (g_ascii_strcasecmp (header, "By Memory Region") == 0)
    {
      p->in_vertex_data = FALSE;
      sub = "region";
    }
  else if (g_ascii_strcasecmp (header, "By Data Type") == 0)
    {
      p->in_vertex_data = FALSE;
      sub = "data_type";
    }
  else if (g_str_has_prefix (header, "Vertex Data"))
    {
      const char *open = strchr (header, '(');
      g_autoptr(GString) norm = g_string_new (NULL);
      g_autofree char *key = NULL;
      const char *end;

      if (open != NULL)
        {
          if (!scan_number (open + 1, &end, norm) || !is_integer (norm->str) ||
              !g_str_equal (skip_spaces (end), "B)"))
            {
              g_autofree char *got = tes_describe_text (header, strlen (header), 60);

              return fail (p, error, TES_IMPORT_ERROR_INVALID,
                           "expected 'Vertex Data (<bytes>B):', got '%s:'", got);
            }
          key = g_strdup_printf ("%s.vertex_data", p->prefix);
          if (!put_info (p, key, norm->str, error))
            return FALSE;
        }
      p->in_vertex_data = TRUE;
      sub = "vertex_data";
    }
  else if (g_ascii_strcasecmp (header, "By Category") == 0)
    sub = p->in_vertex_data ? "vertex_data.category" : "category";
  else if (g_ascii_strcasecmp (header, "By Type") == 0)
    sub = p->in_vertex_data ? "vertex_data.type" : "type";
  else
    {
      p->in_vertex_data = FALSE;
      sub = slug = slugify (header);
    }

  g_free (p->subsection);
  p->subsection = g_strdup (sub);

  return TRUE;
}

/* "poprand::SetSeedSupervisor      34,048 B": a name, then a size. */
static gboolean
split_named_size (const char  *text,
                  char       **name,
                  char       **value)
{
  gsize len = strlen (text);
  gsize i;

  if (len < 3 || text[len - 1] != 'B')
    return FALSE;

  i = len - 1;
  while (i > 0 && is_space (text[i - 1]))
    i--;
  while (i > 0 && (g_ascii_isdigit (text[i - 1]) || text[i - 1] == ',' || text[i - 1] == '.'))
    i--;
  if (i == 0 || !is_space (text[i - 1]) || !g_ascii_isdigit (text[i]))
    return FALSE;

  *value = g_strdup (text + i);
  *name = g_strstrip (g_strndup (text, i));
  return **name != '\0';
}

static gboolean
handle_memory_line (Parser      *p,
                    const char  *text,
                    GError     **error)
{
  g_autofree char *label = NULL;
  g_autofree char *name = NULL;
  g_autofree char *size = NULL;
  const char *value;

  if (split_kv (text, &label, &value))
    {
      if (*value == '\0')
        return set_subsection (p, label, error);

      if (g_ascii_strcasecmp (label, "Including Gaps") == 0 ||
          g_ascii_strcasecmp (label, "Excluding Gaps") == 0)
        {
          g_autofree char *saved = g_steal_pointer (&p->subsection);
          gboolean ok = add_memory_entry (p, label, value, error);

          p->subsection = g_steal_pointer (&saved);
          return ok;
        }

      return add_memory_entry (p, label, value, error);
    }

  if (p->subsection != NULL && split_named_size (text, &name, &size))
    return add_memory_entry (p, name, size, error);

  {
    g_autofree char *got = tes_describe_text (text, strlen (text), 60);

    return fail (p, error, TES_IMPORT_ERROR_INVALID,
                 "expected '<label>: <bytes> B' or '<name> <bytes> B' in Memory Usage, got '%s'", got);
  }
}

/* ---- By Tile (Excluding Gaps) -------------------------------------------- */

static gboolean
parse_bin_row (const char *text,
               gint64     *count)
{
  g_autoptr(GString) norm = g_string_new (NULL);
  const char *s = text;

  if (!scan_number (s, &s, norm) || !is_integer (norm->str))
    return FALSE;
  s = skip_spaces (s);
  if (*s++ != '-')
    return FALSE;
  s = skip_spaces (s);
  g_string_truncate (norm, 0);
  if (!scan_number (s, &s, norm) || !is_integer (norm->str))
    return FALSE;
  if (!is_space (*s))
    return FALSE;
  s = skip_spaces (s);
  while (*s == '*')
    s++;
  s = skip_spaces (s);
  g_string_truncate (norm, 0);
  if (!scan_number (s, &s, norm) || !is_integer (norm->str) || *s != '\0')
    return FALSE;

  *count = g_ascii_strtoll (norm->str, NULL, 10);
  return TRUE;
}

/* "49,184 (48.0 K) on tile 0" */
static gboolean
handle_maximum (Parser      *p,
                const char  *label,
                const char  *value,
                GError     **error)
{
  g_autoptr(GString) bytes = g_string_new (NULL);
  g_autoptr(GString) k = g_string_new (NULL);
  g_autoptr(GString) tile = g_string_new (NULL);
  g_autofree char *slug = slugify (label);
  g_autofree char *key = g_strdup_printf ("%s.%s", p->prefix, slug);
  const char *s = value;

  if (!scan_number (s, &s, bytes) || !is_integer (bytes->str))
    goto bad;
  s = skip_spaces (s);
  if (*s == '(')
    {
      s = skip_spaces (s + 1);
      if (!scan_number (s, &s, k))
        goto bad;
      s = skip_spaces (s);
      if (*s == 'K')
        s++;
      if (*s++ != ')')
        goto bad;
      s = skip_spaces (s);
    }
  if (g_str_has_prefix (s, "on tile"))
    {
      s = skip_spaces (s + strlen ("on tile"));
      if (!scan_number (s, &s, tile) || !is_integer (tile->str))
        goto bad;
    }
  if (*skip_spaces (s) != '\0')
    goto bad;

  if (!put_info (p, key, bytes->str, error))
    return FALSE;
  if (k->len > 0)
    {
      g_autofree char *k_key = g_strconcat (key, ".k", NULL);

      if (!put_info (p, k_key, k->str, error))
        return FALSE;
    }
  if (tile->len > 0)
    {
      g_autofree char *tile_key = g_strconcat (key, ".tile", NULL);

      if (!put_info (p, tile_key, tile->str, error))
        return FALSE;
    }

  return TRUE;

bad:
  {
    g_autofree char *got = tes_describe_text (value, strlen (value), 60);

    return fail (p, error, TES_IMPORT_ERROR_INVALID,
                 "expected '<bytes> (<KB> K) on tile <N>' after '%s:', got '%s'", label, got);
  }
}

static gboolean
handle_histogram_line (Parser      *p,
                       const char  *text,
                       guint        indent,
                       GError     **error)
{
  g_autofree char *label = NULL;
  const char *value;
  gint64 count;

  p->last_elided = FALSE;

  if (g_str_has_prefix (text, "Range ("))
    {
      g_autofree char *key = g_strdup_printf ("%s.header", p->prefix);

      p->bin_indent = indent;
      return put_info (p, key, text, error);
    }

  if (g_str_has_suffix (text, "tile(s) out of memory"))
    {
      g_autoptr(GString) norm = g_string_new (NULL);
      g_autofree char *key = g_strdup_printf ("%s.tiles_out_of_memory", p->prefix);
      const char *end;

      if (!scan_number (text, &end, norm) || !is_integer (norm->str) ||
          !g_str_equal (skip_spaces (end), "tile(s) out of memory"))
        return fail (p, error, TES_IMPORT_ERROR_INVALID,
                     "expected '<N> tile(s) out of memory'");

      return put_info (p, key, norm->str, error);
    }

  if (g_str_has_prefix (text, "Maximum") && split_kv (text, &label, &value) && *value != '\0')
    return handle_maximum (p, label, value, error);

  if (g_ascii_isdigit (*text))
    {
      g_autofree char *key = NULL;
      g_autofree char *row = NULL;
      guint pad = p->bin_indent != G_MAXUINT && indent > p->bin_indent ? indent - p->bin_indent : 0;

      if (!parse_bin_row (text, &count))
        {
          g_autofree char *got = tes_describe_text (text, strlen (text), 60);

          return fail (p, error, TES_IMPORT_ERROR_INVALID,
                       "expected a histogram row '<from> - <to> <bar> <count>', got '%s'", got);
        }

      /* Kept as printed, so the histogram can be shown as the tool did:
       * indented as far as it is beyond the header, which right-aligns the
       * ranges under "Range (KB)". */
      key = g_strdup_printf ("%s.bin.%03u", p->prefix, ++p->n_bin_rows);
      row = g_strdup_printf ("%*s%s", (int)MIN (pad, 64), "", text);
      p->n_bins++;
      p->bin_tiles += count;
      return put_info (p, key, row, error);
    }

  /* Another list of the Memory Usage section the histogram was part of. */
  if (p->memory_prefix != NULL && split_kv (text, &label, &value))
    {
      g_autofree char *memory_prefix = g_steal_pointer (&p->memory_prefix);

      if (!finish_histogram (p, error))
        return FALSE;
      p->section = SECTION_MEMORY;
      g_free (p->prefix);
      p->prefix = g_steal_pointer (&memory_prefix);
      return handle_memory_line (p, text, error);
    }

  {
    g_autofree char *got = tes_describe_text (text, strlen (text), 60);

    return fail (p, error, TES_IMPORT_ERROR_INVALID,
                 "unexpected line in By Tile (Excluding Gaps): '%s'", got);
  }
}

static gboolean
add_elision (Parser  *p,
             GError **error)
{
  p->n_elided++;

  if (p->section == SECTION_HISTOGRAM && !p->last_elided)
    {
      /* not a bin: it marks where the report left rows out */
      g_autofree char *key = g_strdup_printf ("%s.bin.%03u", p->prefix, ++p->n_bin_rows);

      p->last_elided = TRUE;
      return put_info (p, key, "...", error);
    }

  return TRUE;
}

/* ---- Execution ----------------------------------------------------------- */

static gboolean
is_metric_label (const char *label)
{
  g_autofree char *lower = g_ascii_strdown (label, -1);

  return strstr (lower, "cycles") != NULL || strstr (lower, "balance") != NULL ||
         g_str_has_prefix (lower, "total ") || g_str_has_prefix (lower, "tile average");
}

/* "(approx 5,023.9 microseconds)", "(0.1% of total)" */
static gboolean
handle_metric (Parser      *p,
               const char  *label,
               const char  *value,
               GError     **error)
{
  g_autoptr(GString) norm = g_string_new (NULL);
  g_autofree char *slug = slugify (label);
  g_autofree char *key = g_strdup_printf ("%s.%s", p->exec->prefix, slug);
  gboolean total = g_ascii_strcasecmp (label, "Total cycles") == 0;
  const char *rest;

  if (!check_balanced (p, value, error))
    return FALSE;

  if (!g_ascii_isdigit (*value))
    {
      if (total)
        goto bad;
      return put_info (p, key, value, error);
    }

  if (!scan_number (value, &rest, norm))
    goto bad;
  rest = skip_spaces (rest);

  if (total)
    {
      if (!is_integer (norm->str))
        goto bad;
      p->exec->total_cycles = g_ascii_strtoll (norm->str, NULL, 10);
    }

  if (*rest == '%')
    {
      g_string_append_c (norm, '%');
      rest = skip_spaces (rest + 1);
    }

  if (!put_info (p, key, norm->str, error))
    return FALSE;

  if (*rest == '\0')
    return TRUE;

  {
    g_autoptr(GString) inner = g_string_new (NULL);
    const char *end;

    if (g_str_has_prefix (rest, "(approx ") &&
        scan_number (rest + strlen ("(approx "), &end, inner) &&
        g_str_equal (end, " microseconds)"))
      {
        g_autofree char *us_key = g_strconcat (key, ".approx_us", NULL);

        if (total)
          p->exec->approx_us = g_strdup (inner->str);
        return put_info (p, us_key, inner->str, error);
      }

    g_string_truncate (inner, 0);
    if (rest[0] == '(' &&
        scan_number (rest + 1, &end, inner) &&
        g_str_equal (end, "% of total)"))
      {
        g_autofree char *share_key = g_strconcat (key, ".share", NULL);

        return put_info (p, share_key, inner->str, error);
      }
  }

  {
    g_autofree char *note_key = g_strconcat (key, ".note", NULL);

    return put_info (p, note_key, rest, error);
  }

bad:
  {
    g_autofree char *got = tes_describe_text (value, strlen (value), 60);

    return fail (p, error, TES_IMPORT_ERROR_INVALID, "'%s' expects a whole number of cycles, got '%s'", label, got);
  }
}

/* "popops::Zero2d<float>   (14592 instances):   17,612,544 [(12.5%)]" */
static gboolean
handle_vertex_row (Parser      *p,
                   const char  *label,
                   const char  *value,
                   GError     **error)
{
  g_autoptr(GString) instances = g_string_new (NULL);
  g_autoptr(GString) cycles = g_string_new (NULL);
  g_autoptr(GString) share = g_string_new (NULL);
  const char *open = strrchr (label, '(');
  const char *s;
  VertexRow row = { NULL, -1, -1, NAN };

  if (open == NULL || open == label)
    goto bad;
  s = open + 1;
  if (!scan_number (s, &s, instances) || !is_integer (instances->str))
    goto bad;
  s = skip_spaces (s);
  if (!g_str_equal (s, "instances)") && !g_str_equal (s, "instance)"))
    goto bad;

  s = value;
  if (!scan_number (s, &s, cycles) || !is_integer (cycles->str))
    goto bad;
  s = skip_spaces (s);
  if (*s != '\0')
    {
      gboolean paren = *s == '(';

      if (paren)
        s = skip_spaces (s + 1);
      if (!scan_number (s, &s, share) || *s++ != '%')
        goto bad;
      s = skip_spaces (s);
      if (paren && *s++ != ')')
        goto bad;
      if (*skip_spaces (s) != '\0')
        goto bad;
    }

  row.name = g_strstrip (g_strndup (label, open - label));
  if (*row.name == '\0')
    {
      g_free (row.name);
      goto bad;
    }
  row.instances = g_ascii_strtoll (instances->str, NULL, 10);
  row.cycles = g_ascii_strtoll (cycles->str, NULL, 10);
  if (share->len > 0)
    row.share = g_ascii_strtod (share->str, NULL);
  g_array_append_val (p->exec->vertices, row);

  return TRUE;

bad:
  {
    g_autofree char *got = tes_describe_text (value, strlen (value), 60);
    g_autofree char *got_label = tes_describe_text (label, strlen (label), 60);

    return fail (p, error, TES_IMPORT_ERROR_INVALID,
                 "expected '<vertex type> (<N> instances): <cycles>', got '%s: %s'", got_label, got);
  }
}

/* Returns FALSE with *handled unset when the line is not part of the
 * execution section (it then ends the section). */
static gboolean
handle_execution_line (Parser      *p,
                       const char  *text,
                       gboolean    *handled,
                       GError     **error)
{
  g_autofree char *label = NULL;
  const char *value = NULL;
  gboolean kv = split_kv (text, &label, &value) && *value != '\0';

  *handled = TRUE;

  /* A second "Total cycles" starts the next run. */
  if (kv && p->exec->total_cycles >= 0 && g_ascii_strcasecmp (label, "Total cycles") == 0)
    {
      *handled = FALSE;
      return TRUE;
    }

  if (kv && (g_str_has_suffix (label, "instances)") || g_str_has_suffix (label, "instance)")))
    {
      p->exec_state = EXEC_VERTICES;
      return handle_vertex_row (p, label, value, error);
    }

  if (kv && is_metric_label (label))
    {
      p->exec_state = EXEC_METRICS;
      return handle_metric (p, label, value, error);
    }

  if (p->exec_state == EXEC_PROGRAMS)
    {
      g_autofree char *key = NULL;
      g_autofree char *name = g_strdup (text);
      gsize len = strlen (name);

      /* The list is printed as "<name>." */
      if (len > 1 && name[len - 1] == '.')
        name[len - 1] = '\0';

      g_ptr_array_add (p->exec->programs, g_strdup (name));
      key = g_strdup_printf ("%s.program.%u", p->exec->prefix, p->exec->programs->len);
      return put_info (p, key, name, error);
    }

  *handled = FALSE;
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
  s = skip_spaces (text + strlen ("Tile #"));
  if (!scan_number (s, &s, norm) || !is_integer (norm->str))
    return FALSE;
  if (!g_str_equal (s, " memory usage:"))
    return FALSE;

  *tile = g_ascii_strtoll (norm->str, NULL, 10);
  return TRUE;
}

static gboolean
handle_top_level (Parser      *p,
                  const char  *text,
                  guint        indent,
                  GError     **error)
{
  g_autofree char *label = NULL;
  const char *value;

  if (split_kv (text, &label, &value))
    {
      /* Execution figures printed without an "Execution:" header, as in
       * logs that label each run with a line of their own. */
      if (*value != '\0' && g_ascii_strcasecmp (label, "Total cycles") == 0)
        {
          gboolean handled;

          if (!begin_execution (p, TRUE, error))
            return FALSE;
          p->exec_state = EXEC_METRICS;
          return handle_execution_line (p, text, &handled, error);
        }

      if (*value == '\0' && indent == 0)
        {
          discard_label (p);
          p->section = SECTION_UNKNOWN;
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
handle_line (Parser      *p,
             const char  *text,
             guint        indent,
             GError     **error)
{
  gint64 tile;
  gboolean expect_memory_header = p->expect_memory_header;

  p->expect_memory_header = FALSE;

  if (is_elision (text))
    return add_elision (p, error);

  if (g_str_equal (text, "Target:"))
    return begin_section (p, SECTION_TARGET, numbered ("target", ++p->n_target), error);
  if (g_str_equal (text, "Graph:"))
    return begin_section (p, SECTION_GRAPH, numbered ("graph", ++p->n_graph), error);
  if (g_str_equal (text, "Memory Usage:"))
    {
      /* "Tile # N memory usage:" is followed by the tile's "Memory Usage:" */
      if (expect_memory_header && p->section == SECTION_MEMORY)
        return TRUE;
      return begin_memory (p, -1, error);
    }
  if (parse_tile_header (text, &tile))
    {
      if (p->tiles_per_ipu > 0 && p->ipus > 0 && tile >= p->ipus * p->tiles_per_ipu)
        return fail (p, error, TES_IMPORT_ERROR_INVALID,
                     "tile %" G_GINT64_FORMAT " is beyond the %" G_GINT64_FORMAT " tiles of the target",
                     tile, p->ipus * p->tiles_per_ipu);
      return begin_memory (p, tile, error);
    }
  if (g_str_equal (text, "By Tile (Excluding Gaps):"))
    return begin_histogram (p, error);
  if (g_str_equal (text, "Execution:"))
    return begin_execution (p, FALSE, error);
  if (g_str_equal (text, "Programs executed:"))
    {
      if (p->section != SECTION_EXECUTION || p->exec_state != EXEC_START)
        if (!begin_execution (p, FALSE, error))
          return FALSE;
      p->exec_state = EXEC_PROGRAMS;
      return TRUE;
    }
  if (g_str_equal (text, "Cycles by vertex type:"))
    {
      if (p->section != SECTION_EXECUTION)
        if (!begin_execution (p, FALSE, error))
          return FALSE;
      p->exec_state = EXEC_VERTICES;
      return TRUE;
    }

  switch (p->section)
    {
    case SECTION_TARGET:
    case SECTION_GRAPH:
      if (indent > 0)
        return handle_key_value_line (p, text, error);
      break;

    case SECTION_MEMORY:
      if (indent > 0)
        return handle_memory_line (p, text, error);
      break;

    case SECTION_HISTOGRAM:
      if (indent > 0)
        return handle_histogram_line (p, text, indent, error);
      break;

    case SECTION_EXECUTION:
      {
        gboolean handled;

        if (!handle_execution_line (p, text, &handled, error))
          return FALSE;
        if (handled)
          return TRUE;
      }
      break;

    case SECTION_UNKNOWN:
      if (indent > 0)
        {
          p->unknown_lines++;
          return TRUE;
        }
      break;

    case SECTION_NONE:
    default:
      break;
    }

  if (!end_section (p, error))
    return FALSE;

  return handle_top_level (p, text, indent, error);
}

static gboolean
handle_blank (Parser  *p,
              GError **error)
{
  discard_label (p);

  /* Target and Graph are single blocks; the other sections have blank
   * lines inside. */
  if (p->section == SECTION_TARGET || p->section == SECTION_GRAPH)
    return end_section (p, error);
  if (p->section == SECTION_HISTOGRAM)
    p->last_elided = FALSE;

  return TRUE;
}

/* ---- output -------------------------------------------------------------- */

static gboolean
write_tiles (Parser  *p,
             GError **error)
{
  gint64 n_ipus = p->ipus;
  gint64 per_ipu = p->tiles_per_ipu;

  /* "Total Tiles" with the IPU count stands in for a missing "Tiles per IPU". */
  if (per_ipu <= 0 && p->total_tiles > 0 && n_ipus > 0 && p->total_tiles % n_ipus == 0)
    per_ipu = p->total_tiles / n_ipus;
  if (n_ipus <= 0 && per_ipu > 0)
    n_ipus = 1;

  if (n_ipus > MAX_IPUS || per_ipu > MAX_TILES_PER_IPU || n_ipus * per_ipu > MAX_TILES)
    {
      g_set_error (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_INVALID,
                   "%s: a target of %" G_GINT64_FORMAT " IPUs with %" G_GINT64_FORMAT
                   " tiles each is beyond what Tessera accepts (%d IPUs, %d tiles per IPU)",
                   p->path, n_ipus, per_ipu, MAX_IPUS, MAX_TILES_PER_IPU);
      return FALSE;
    }

  for (gint64 ipu = 0; ipu < n_ipus && per_ipu > 0; ipu++)
    for (gint64 tile = 0; tile < per_ipu; tile++)
      tes_cache_writer_add_tile (p->writer, (int)ipu, (int)tile, p->memory_limit, 0);

  for (guint i = 0; i < p->tiles->len; i++)
    {
      const TileBlock *block = g_ptr_array_index (p->tiles, i);
      gint64 ipu = per_ipu > 0 ? block->tile / per_ipu : 0;
      gint64 tile = per_ipu > 0 ? block->tile % per_ipu : block->tile;
      gint64 tile_id;

      if (tile > G_MAXINT || ipu > G_MAXINT)
        {
          g_set_error (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_INVALID,
                       "%s:%u: tile number %" G_GINT64_FORMAT " is out of range",
                       p->path, block->line, block->tile);
          return FALSE;
        }

      tile_id = tes_cache_writer_add_tile (p->writer, (int)ipu, (int)tile, p->memory_limit, 0);
      for (guint j = 0; j < block->categories->len; j++)
        {
          const Category *cat = &g_array_index (block->categories, Category, j);

          tes_cache_writer_add_tile_memory (p->writer, tile_id, cat->name, cat->bytes);
        }
    }

  return TRUE;
}

/* The clock the cycle figures count: the target's; else, from the first
 * run that prints "(approx N microseconds)", rounded to whole MHz. */
static gint64
make_clock (Parser *p)
{
  gint64 hz = p->clock_hz;

  if (hz <= 0)
    {
      for (guint i = 0; i < p->executions->len && hz <= 0; i++)
        {
          const Execution *exec = g_ptr_array_index (p->executions, i);
          double us;

          if (exec->total_cycles <= 0 || exec->approx_us == NULL)
            continue;
          us = g_ascii_strtod (exec->approx_us, NULL);
          if (us > 0)
            {
              g_autofree char *text = NULL;
              gint64 mhz = llround (exec->total_cycles / us);

              if (mhz <= 0)
                continue;
              hz = mhz * 1000000;
              text = g_strdup_printf ("%" G_GINT64_FORMAT, mhz);
              tes_cache_writer_set_info (p->writer, p->source_id, "clock.derived_mhz", text);
            }
        }
    }

  if (hz <= 0)
    return 0;

  return tes_cache_writer_add_clock (p->writer, "Poplar IPU cycles", TES_TIME_UNIT_CYCLES, hz);
}

static void
write_executions (Parser *p,
                  gint64  clock_id)
{
  for (guint i = 0; i < p->executions->len; i++)
    {
      const Execution *exec = g_ptr_array_index (p->executions, i);
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
          const VertexRow *row = &g_array_index (exec->vertices, VertexRow, j);
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
  gboolean cut = head_len >= TES_SNIFF_SIZE;

  if (memchr (head, '\0', head_len) != NULL)
    return 0;

  tes_line_reader_init_for_data (&reader, (const char *)head, head_len);

  while (tes_line_reader_next (&reader, &line, &len))
    {
      g_autofree char *text = NULL;

      if (cut && reader.pos >= head_len && head[head_len - 1] != '\n')
        break;
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
  g_auto(Parser) p = { 0 };
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

  if (!tes_line_reader_init (&reader, context->path, error))
    return FALSE;

  while (tes_line_reader_next (&reader, &line, &len))
    {
      g_autofree char *text = NULL;
      guint indent = 0;

      p.line_no = reader.line_no;

      if (memchr (line, '\0', len) != NULL)
        return fail (&p, error, TES_IMPORT_ERROR_INVALID, "binary data (NUL byte), not a text report");

      if (!g_utf8_validate_len (line, len, NULL))
        return fail (&p, error, TES_IMPORT_ERROR_INVALID,
                     "invalid UTF-8 (byte %" G_GSIZE_FORMAT ")", reader.line_offset);

      while (indent < len && is_space (line[indent]))
        indent++;
      text = g_strndup (line + indent, len - indent);
      g_strchomp (text);

      if (*text == '\0')
        {
          if (!handle_blank (&p, error))
            return FALSE;
        }
      else if (!handle_line (&p, text, indent, error))
        return FALSE;

      if (context->progress != NULL && (reader.line_no & 1023) == 0)
        tes_progress_update (context->progress, 0.9 * tes_line_reader_get_fraction (&reader), NULL);

      if (g_cancellable_set_error_if_cancelled (context->cancellable, error))
        return FALSE;
    }

  p.line_no = reader.line_no;
  if (!end_section (&p, error))
    return FALSE;
  discard_label (&p);

  if (p.n_sections == 0)
    {
      if (reader.len == 0 || p.n_skipped == 0)
        {
          g_set_error (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_EMPTY,
                       "%s: empty file (no Poplar report sections)", context->path);
          return FALSE;
        }

      g_set_error (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_INVALID,
                   "%s: no Poplar report sections (Target:, Graph:, Memory Usage:, "
                   "Tile # N memory usage:, Execution: or Total cycles:) in %u lines",
                   context->path, reader.line_no);
      return FALSE;
    }

  if (p.n_skipped > 0)
    {
      g_autofree char *text = g_strdup_printf ("%u lines outside the report's sections were skipped "
                                               "(first on line %u)",
                                               p.n_skipped, p.first_skipped);
      add_warning (&p, text);
    }
  if (p.n_elided > 0)
    {
      g_autofree char *text = g_strdup_printf ("%u", p.n_elided);

      tes_cache_writer_set_info (p.writer, p.source_id, "elided_lines", text);
    }

  if (!write_tiles (&p, error))
    return FALSE;

  clock_id = make_clock (&p);
  write_executions (&p, clock_id);

  return TRUE;
}

static void
tes_poplar_report_importer_class_init (TesPoplarReportImporterClass *klass)
{
  TesImporterClass *importer_class = TES_IMPORTER_CLASS (klass);

  importer_class->name = "poplar-report";
  importer_class->title = "Graphcore Poplar text report";
  importer_class->version = 1;
  importer_class->sniff = tes_poplar_report_importer_sniff;
  importer_class->import = tes_poplar_report_importer_import;
}

static void
tes_poplar_report_importer_init (TesPoplarReportImporter *self)
{
}
