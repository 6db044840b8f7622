/* tes-poplar-export-importer.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-poplar-export"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tes-poplar-export-importer.h"

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "tes-import-error.h"
#include "tes-line-reader.h"
#include "tes-poplar-profile.h"

/* What tessera-pop-export (tools/tessera-pop-export.py) writes from a
 * PopVision profile.pop where the Poplar SDK is: JSON Lines, a header, then
 * tile, memory, run, step, liveness and block records, then an end record
 * that counts them (docs/formats/poplar.md, "tessera-poplar-export"). Each
 * line is parsed on its own, so the file is read as it streams; what it
 * holds fills the Poplar profile model, which one writer stores for this
 * format and the SDK's JSON/CBOR profiles alike (tes-poplar-profile.c). What
 * only a profile.pop has, the tile balance of each step and the Lightweight
 * Profiling blocks, is stored here after it. */

#define FORMAT_NAME "tessera-poplar-export"
#define FORMAT_VERSION 1

/* The same bounds as the text report's Target section, and the profile
 * reader's on the whole target (every per-tile array is that long, every
 * step too); bytes and cycles small enough that no sum over the tiles and
 * steps leaves 64 bits. */
#define MAX_IPUS 4096
#define MAX_TILES_PER_IPU 65536
#define MAX_TILES (1 << 18)
#define MAX_BYTES ((gint64)1 << 40)
#define MAX_CYCLES ((gint64)1 << 60)

struct _TesPoplarExportImporter
{
  TesImporter parent_instance;
};

G_DEFINE_FINAL_TYPE (TesPoplarExportImporter, tes_poplar_export_importer, TES_TYPE_IMPORTER)

/* One step's tile balance on one IPU, kept for the counter tracks. */
typedef struct
{
  gint64 at;
  double balance;
  double active_balance;
} Balance;

typedef struct
{
  gint64  from;
  gint64  to;
  char   *name;
  char   *kind;
} Block;

static void
block_clear (gpointer data)
{
  Block *b = data;

  g_free (b->name);
  g_free (b->kind);
}

typedef struct
{
  const char        *path;
  guint              line;
  GError           **error;

  TesPoplarProfile  *profile;

  gint               n_ipus;
  gint               tiles_per_ipu;
  guint              n_tiles;
  GArray            *tile_seen;      /* guint8 per tile */
  GHashTable        *categories;     /* name -> TesPoplarCategory* (the profile's) */
  gint64             always_live;
  gint64             not_always_live;
  gboolean           memory_seen;

  gint64             run;            /* the current run; -1 before the first */
  gint64             run_steps;      /* its steps so far */
  GHashTable        *programs;       /* "type\nname" -> index + 1 */
  GArray           **balances;       /* per IPU: Balance per step */

  GHashTable        *blocks;         /* global tile + 1 -> GArray of Block */
  gint64             n_liveness;

  GHashTable        *counts;         /* record kind -> count */
  gboolean           ended;
} Reader;

static void
reader_clear (Reader *r)
{
  g_clear_pointer (&r->profile, tes_poplar_profile_free);
  g_clear_pointer (&r->tile_seen, g_array_unref);
  g_clear_pointer (&r->categories, g_hash_table_unref);
  g_clear_pointer (&r->programs, g_hash_table_unref);
  if (r->balances != NULL)
    for (gint i = 0; i < r->n_ipus; i++)
      g_array_unref (r->balances[i]);
  g_clear_pointer (&r->balances, g_free);
  g_clear_pointer (&r->blocks, g_hash_table_unref);
  g_clear_pointer (&r->counts, g_hash_table_unref);
}

static gboolean
fail_code (Reader     *r,
           int         code,
           const char *format,
           ...) G_GNUC_PRINTF (3, 4);

static gboolean
fail_code (Reader     *r,
           int         code,
           const char *format,
           ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  return tes_import_fail_at_line (r->error, code, r->path, r->line, "%s", message);
}

#define fail(r, ...) fail_code ((r), TES_IMPORT_ERROR_INVALID, __VA_ARGS__)

/* ---- members, checked, their key path in every message ------------------- */

static JsonNode *
member (Reader     *r,
        JsonObject *o,
        const char *where,
        const char *key)
{
  JsonNode *n = json_object_get_member (o, key);

  if (n == NULL || JSON_NODE_HOLDS_NULL (n))
    fail (r, _("'%s' has no '%s'"), where, key);
  return n != NULL && !JSON_NODE_HOLDS_NULL (n) ? n : NULL;
}

static gboolean
node_int (Reader     *r,
          JsonNode   *n,
          const char *path,
          gint64      min,
          gint64      max,
          gint64     *out)
{
  gint64 v;

  if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_INT64)
    return fail (r, _("'%s' expects a whole number"), path);
  v = json_node_get_int (n);
  if (min == max && v != min)
    return fail (r, _("'%s' is %" PRId64 ", expected %" PRId64 " (a record lost or out of order?)"),
                 path, v, min);
  /* json-glib wraps a number beyond 64 bits round to a negative one */
  if (v < 0 && min >= 0)
    return fail (r, _("'%s' is negative or too large (%" PRId64 " to %" PRId64 ")"),
                 path, min, max);
  if (v < min || v > max)
    return fail (r, _("'%s' is %" PRId64 ", outside %" PRId64 " to %" PRId64),
                 path, v, min, max);
  *out = v;
  return TRUE;
}

static gboolean
get_int (Reader     *r,
         JsonObject *o,
         const char *where,
         const char *key,
         gint64      min,
         gint64      max,
         gint64     *out)
{
  g_autofree char *path = g_strdup_printf ("%s.%s", where, key);
  JsonNode *n = member (r, o, where, key);

  return n != NULL && node_int (r, n, path, min, max, out);
}

static gboolean
get_number (Reader     *r,
            JsonObject *o,
            const char *where,
            const char *key,
            double     *out)
{
  JsonNode *n = member (r, o, where, key);

  if (n == NULL)
    return FALSE;
  if (!JSON_NODE_HOLDS_VALUE (n) ||
      (json_node_get_value_type (n) != G_TYPE_INT64 && json_node_get_value_type (n) != G_TYPE_DOUBLE))
    return fail (r, _("'%s.%s' expects a number"), where, key);
  *out = json_node_get_double (n);
  return TRUE;
}

/* A string, or NULL (allowed) when @optional; FALSE on a wrong type. */
static gboolean
get_string (Reader      *r,
            JsonObject  *o,
            const char  *where,
            const char  *key,
            gboolean     optional,
            const char **out)
{
  JsonNode *n = json_object_get_member (o, key);

  *out = NULL;
  if (n == NULL || JSON_NODE_HOLDS_NULL (n))
    return optional || fail (r, _("'%s' has no '%s'"), where, key);
  if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
    return fail (r, _("'%s.%s' expects a string"), where, key);
  *out = json_node_get_string (n);
  return TRUE;
}

static JsonObject *
get_object (Reader     *r,
            JsonObject *o,
            const char *where,
            const char *key)
{
  JsonNode *n = member (r, o, where, key);

  if (n == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (n))
    {
      fail (r, _("'%s.%s' expects an object"), where, key);
      return NULL;
    }
  return json_node_get_object (n);
}

static JsonArray *
get_array (Reader     *r,
           JsonObject *o,
           const char *where,
           const char *key,
           guint       length)
{
  JsonNode *n = member (r, o, where, key);

  if (n == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_ARRAY (n))
    {
      fail (r, _("'%s.%s' expects an array"), where, key);
      return NULL;
    }
  if (json_array_get_length (json_node_get_array (n)) != length)
    {
      fail (r, _("'%s.%s' has %u entries, expected %u"), where, key,
            json_array_get_length (json_node_get_array (n)), length);
      return NULL;
    }
  return json_node_get_array (n);
}

static void
set_int64 (GArray *array,
           guint   index,
           gint64  value)
{
  if (array->len <= index)
    g_array_set_size (array, index + 1);
  g_array_index (array, gint64, index) = value;
}

/* ---- records ---------------------------------------------------------------- */

static gboolean
read_header (Reader     *r,
             JsonObject *o)
{
  TesPoplarProfile *p = r->profile;
  JsonObject *target;
  const char *format = NULL, *text = NULL;
  gint64 version, v;

  if (!json_object_has_member (o, "format") ||
      !get_string (r, o, "header", "format", FALSE, &format) || strcmp (format, FORMAT_NAME) != 0)
    {
      g_clear_error (r->error);
      return fail (r, _("not a %s file: its first line is not the header "
                   "{\"format\":\"%s\",\"version\":%d,…} that tessera-pop-export writes"),
                   FORMAT_NAME, FORMAT_NAME, FORMAT_VERSION);
    }
  if (!get_int (r, o, "header", "version", 1, G_MAXINT, &version))
    return FALSE;
  if (version > FORMAT_VERSION)
    return fail_code (r, TES_IMPORT_ERROR_UNSUPPORTED,
                      _("%s version %" PRId64 " was written by a newer tessera-pop-export; "
                      "this Tessera reads version %d"),
                      FORMAT_NAME, version, FORMAT_VERSION);

  if (!(target = get_object (r, o, "header", "target")))
    return FALSE;
  if (!get_int (r, target, "target", "ipus", 1, MAX_IPUS, &v))
    return FALSE;
  r->n_ipus = p->n_ipus = (gint)v;
  if (!get_int (r, target, "target", "tiles_per_ipu", 1, MAX_TILES_PER_IPU, &v))
    return FALSE;
  r->tiles_per_ipu = p->tiles_per_ipu = (gint)v;
  r->n_tiles = (guint)r->n_ipus * (guint)r->tiles_per_ipu;
  if (r->n_tiles > MAX_TILES)
    return fail (r, _("a target of %d IPUs of %d tiles is beyond the %d tiles Tessera accepts"),
                 r->n_ipus, r->tiles_per_ipu, MAX_TILES);
  if (!get_int (r, target, "target", "tiles", r->n_tiles, r->n_tiles, &v) ||
      !get_int (r, target, "target", "bytes_per_tile", 0, MAX_BYTES, &p->bytes_per_tile) ||
      !get_int (r, target, "target", "clock_hz", 1, 1000000000000, &p->clock_hz))
    return FALSE;
  if (!get_string (r, target, "target", "type", TRUE, &text))
    return FALSE;
  p->target_type = g_strdup (text);
  /* optional counts as libpva gives them, as info */
  {
    static const char *const keys[][2] = {
      { "replicas", "target.replicas" },
      { "num_ipus", "target.libpva.num_ipus" },
      { "num_tiles", "target.libpva.num_tiles" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
      {
        JsonNode *n = json_object_get_member (target, keys[i][0]);
        g_autofree char *s = NULL;

        if (n == NULL || JSON_NODE_HOLDS_NULL (n))
          continue;
        if (!get_int (r, target, "target", keys[i][0], 0, G_MAXINT, &v))
          return FALSE;
        s = g_strdup_printf ("%" G_GINT64_FORMAT, v);
        tes_poplar_profile_set_info (p, keys[i][1], s);
      }
  }

  if (json_object_has_member (o, "graph"))
    {
      JsonObject *graph = get_object (r, o, "header", "graph");

      if (graph == NULL || !get_int (r, graph, "graph", "compute_sets", 0, G_MAXINT64, &p->n_compute_sets))
        return FALSE;
    }

  /* what the export came from, as info */
  {
    static const char *const keys[][2] = {
      { "generator", "export.generator" },
      { "source", "export.source" },
      { "poplar_version", "poplar.version" },
      { "report_version", "poplar.report_version" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
      {
        if (!get_string (r, o, "header", keys[i][0], TRUE, &text))
          return FALSE;
        if (text != NULL)
          tes_poplar_profile_set_info (p, keys[i][1], text);
      }
  }

  r->tile_seen = g_array_new (FALSE, TRUE, sizeof (guint8));
  g_array_set_size (r->tile_seen, r->n_tiles);
  r->balances = g_new0 (GArray *, r->n_ipus);
  for (gint i = 0; i < r->n_ipus; i++)
    r->balances[i] = g_array_new (FALSE, FALSE, sizeof (Balance));
  return TRUE;
}

static gboolean
read_tile (Reader     *r,
           JsonObject *o)
{
  TesPoplarProfile *p = r->profile;
  JsonObject *categories;
  JsonObjectIter iter;
  const char *name;
  JsonNode *node;
  gint64 ipu, tile, including, excluding, always, not_always;
  guint index;

  if (!get_int (r, o, "tile", "ipu", 0, r->n_ipus - 1, &ipu) ||
      !get_int (r, o, "tile", "tile", 0, r->tiles_per_ipu - 1, &tile))
    return FALSE;
  index = (guint)(ipu * r->tiles_per_ipu + tile);
  if (g_array_index (r->tile_seen, guint8, index))
    return fail (r, _("IPU %" PRId64 " tile %" PRId64 " is given twice"), ipu, tile);
  g_array_index (r->tile_seen, guint8, index) = 1;

  if (!get_int (r, o, "tile", "including_gaps", 0, MAX_BYTES, &including) ||
      !get_int (r, o, "tile", "excluding_gaps", 0, including, &excluding) ||
      !get_int (r, o, "tile", "always_live", 0, MAX_BYTES, &always) ||
      !get_int (r, o, "tile", "not_always_live", 0, MAX_BYTES, &not_always) ||
      !(categories = get_object (r, o, "tile", "categories")))
    return FALSE;

  set_int64 (p->total_by_tile, index, excluding);
  set_int64 (p->including_gaps_by_tile, index, including);
  set_int64 (p->always_live_by_tile, index, always);
  set_int64 (p->not_always_live_max_by_tile, index, not_always);
  r->always_live += always;
  r->not_always_live += not_always;

  json_object_iter_init (&iter, categories);
  while (json_object_iter_next (&iter, &name, &node))
    {
      g_autofree char *path = g_strdup_printf ("tile.categories.%s", name);
      TesPoplarCategory *c;
      gint64 bytes;

      if (!node_int (r, node, path, 0, excluding, &bytes))
        return FALSE;
      if (!(c = g_hash_table_lookup (r->categories, name)))
        {
          c = tes_poplar_profile_add_category (p, name);
          g_hash_table_insert (r->categories, c->name, c);
        }
      set_int64 (c->bytes, index, bytes);
    }
  return TRUE;
}

static gboolean
read_memory (Reader     *r,
             JsonObject *o)
{
  gint64 always, not_always;

  if (!get_int (r, o, "memory", "always_live", 0, MAX_BYTES * MAX_TILES, &always) ||
      !get_int (r, o, "memory", "not_always_live", 0, MAX_BYTES * MAX_TILES, &not_always))
    return FALSE;
  /* the totals guard the tile records above them */
  if (always != r->always_live || not_always != r->not_always_live)
    return fail (r, _("'memory' totals (always live %" PRId64 ", not always live %" PRId64
                 ") are not the sums of the tile records above (%" PRId64 ", %" PRId64 ")"),
                 always, not_always, r->always_live, r->not_always_live);
  r->memory_seen = TRUE;
  return TRUE;
}

/* A number as the exporter printed it (Python's repr is the shortest text
 * that reads back the same), not the 17 digits g_ascii_dtostr gives. */
static const char *
shortest_number (char   *buf,
                 gsize   size,
                 double  v)
{
  for (int precision = 1; precision < 17; precision++)
    {
      char format[8];

      g_snprintf (format, sizeof format, "%%.%dg", precision);
      g_ascii_formatd (buf, size, format, v);
      if (g_ascii_strtod (buf, NULL) == v)
        return buf;
    }
  return g_ascii_dtostr (buf, size, v);
}

static gboolean
read_run (Reader     *r,
          JsonObject *o)
{
  TesPoplarProfile *p = r->profile;
  JsonNode *micro;
  gint64 run;

  if (!get_int (r, o, "run", "run", r->run + 1, r->run + 1, &run))
    return FALSE;
  r->run = run;
  r->run_steps = 0;
  p->has_simulation = TRUE;

  {
    g_autofree char *key = g_strdup_printf ("execution.run.%" G_GINT64_FORMAT ".first_step", run);
    g_autofree char *value = g_strdup_printf ("%u", p->steps->len);

    tes_poplar_profile_set_info (p, key, value);
  }

  micro = json_object_get_member (o, "microseconds");
  if (micro != NULL && !JSON_NODE_HOLDS_NULL (micro))
    {
      JsonArray *a = get_array (r, o, "run", "microseconds", 2);
      static const char *const ends[] = { "start", "end" };

      if (a == NULL)
        return FALSE;
      for (guint i = 0; i < 2; i++)
        {
          JsonNode *n = json_array_get_element (a, i);
          g_autofree char *key = g_strdup_printf ("execution.run.%" G_GINT64_FORMAT ".microseconds.%s",
                                                  run, ends[i]);
          char value[G_ASCII_DTOSTR_BUF_SIZE];

          if (!JSON_NODE_HOLDS_VALUE (n) ||
              (json_node_get_value_type (n) != G_TYPE_INT64 && json_node_get_value_type (n) != G_TYPE_DOUBLE))
            return fail (r, _("'run.microseconds[%u]' expects a number"), i);
          tes_poplar_profile_set_info (p, key, shortest_number (value, sizeof value, json_node_get_double (n)));
        }
    }
  return TRUE;
}

/* The program of a step: one per distinct (type, name). */
static gint64
program_of (Reader     *r,
            const char *type,
            const char *name)
{
  g_autofree char *key = g_strconcat (type, "\n", name, NULL);
  gpointer index = g_hash_table_lookup (r->programs, key);

  if (index == NULL)
    {
      tes_poplar_profile_add_program (r->profile, type, name);
      index = GUINT_TO_POINTER (r->profile->programs->len);
      g_hash_table_insert (r->programs, g_steal_pointer (&key), index);
    }
  return (gint64)GPOINTER_TO_UINT (index) - 1;
}

static gboolean
read_step (Reader     *r,
           JsonObject *o)
{
  TesPoplarProfile *p = r->profile;
  g_autoptr(GArray) cycles = NULL;
  g_autofree Balance *balance = NULL;
  TesPoplarStep *step;
  JsonArray *ipus;
  const char *type, *name;
  gint64 run, number, from = G_MAXINT64, to = 0;

  if (r->run < 0)
    return fail (r, _("a 'step' record before any 'run' record"));
  if (!get_int (r, o, "step", "run", r->run, r->run, &run) ||
      !get_int (r, o, "step", "step", r->run_steps, r->run_steps, &number) ||
      !get_string (r, o, "step", "type", FALSE, &type) ||
      !get_string (r, o, "step", "name", FALSE, &name) ||
      !(ipus = get_array (r, o, "step", "ipus", r->n_ipus)))
    return FALSE;

  cycles = g_array_new (FALSE, TRUE, sizeof (gint64));
  g_array_set_size (cycles, r->n_tiles);
  balance = g_new0 (Balance, r->n_ipus);
  for (gint i = 0; i < r->n_ipus; i++)
    {
      g_autofree char *where = g_strdup_printf ("step.ipus[%d]", i);
      JsonNode *n = json_array_get_element (ipus, i);
      JsonObject *ipu;
      JsonArray *tiles;
      gint64 v, ipu_from, ipu_to;

      if (!JSON_NODE_HOLDS_OBJECT (n))
        return fail (r, _("'%s' expects an object"), where);
      ipu = json_node_get_object (n);
      if (!get_int (r, ipu, where, "ipu", i, i, &v) ||
          !get_int (r, ipu, where, "from", 0, MAX_CYCLES, &ipu_from) ||
          !get_int (r, ipu, where, "to", ipu_from, MAX_CYCLES, &ipu_to) ||
          !get_int (r, ipu, where, "cycles", 0, MAX_CYCLES, &v) ||
          !get_number (r, ipu, where, "tile_balance", &balance[i].balance) ||
          !get_number (r, ipu, where, "active_tile_balance", &balance[i].active_balance) ||
          !(tiles = get_array (r, ipu, where, "tile_cycles", r->tiles_per_ipu)))
        return FALSE;
      balance[i].at = ipu_from;
      from = MIN (from, ipu_from);
      to = MAX (to, ipu_to);
      for (gint t = 0; t < r->tiles_per_ipu; t++)
        {
          JsonNode *cell = json_array_get_element (tiles, t);

          /* the message's key path is made only for a bad value: there
           * is one of these per tile and step */
          if (JSON_NODE_HOLDS_VALUE (cell) && json_node_get_value_type (cell) == G_TYPE_INT64 &&
              (v = json_node_get_int (cell)) >= 0 && v <= G_MAXUINT32)
            {
              g_array_index (cycles, gint64, i * r->tiles_per_ipu + t) = v;
              continue;
            }
          {
            g_autofree char *path = g_strdup_printf ("%s.tile_cycles[%d]", where, t);

            return node_int (r, cell, path, 0, G_MAXUINT32, &v) && FALSE;
          }
        }
    }

  step = tes_poplar_profile_add_step (p, program_of (r, type, name), from, to);
  g_array_unref (step->cycles_by_tile);
  step->cycles_by_tile = g_steal_pointer (&cycles);
  for (gint i = 0; i < r->n_ipus; i++)
    g_array_append_val (r->balances[i], balance[i]);
  r->run_steps++;
  return TRUE;
}

static gboolean
read_liveness (Reader     *r,
               JsonObject *o)
{
  gint64 step, bytes;
  const char *name;

  if (!get_int (r, o, "liveness", "step", r->n_liveness, r->n_liveness, &step) ||
      !get_string (r, o, "liveness", "name", TRUE, &name) ||
      !get_int (r, o, "liveness", "not_always_live", 0, MAX_BYTES * MAX_TILES, &bytes))
    return FALSE;
  g_array_append_val (r->profile->not_always_live_by_step, bytes);
  r->n_liveness++;
  return TRUE;
}

static const char *const block_kinds[] = { "common", "stream-copy", "overflow", "block-flush", "other" };

static gboolean
read_block (Reader     *r,
            JsonObject *o)
{
  const char *name, *kind;
  gint64 ipu, tile, from, to;
  gpointer key;
  GArray *blocks;
  Block block;

  if (!get_int (r, o, "block", "ipu", 0, r->n_ipus - 1, &ipu) ||
      !get_int (r, o, "block", "tile", 0, r->tiles_per_ipu - 1, &tile) ||
      !get_string (r, o, "block", "name", TRUE, &name) ||
      !get_string (r, o, "block", "kind", FALSE, &kind) ||
      !get_int (r, o, "block", "from", 0, MAX_CYCLES, &from) ||
      !get_int (r, o, "block", "to", from, MAX_CYCLES, &to))
    return FALSE;
  if (!g_strv_contains (block_kinds, kind))
    return fail (r, _("'block.kind' is '%s', not one of common, stream-copy, overflow, block-flush, other"), kind);

  key = GUINT_TO_POINTER ((guint)(ipu * r->tiles_per_ipu + tile) + 1);
  if (!(blocks = g_hash_table_lookup (r->blocks, key)))
    {
      blocks = g_array_new (FALSE, FALSE, sizeof (Block));
      g_array_set_clear_func (blocks, block_clear);
      g_hash_table_insert (r->blocks, key, blocks);
    }
  block.from = from;
  block.to = to;
  block.name = g_strdup (name != NULL ? name : kind);
  block.kind = g_strdup (kind);
  g_array_append_val (blocks, block);
  return TRUE;
}

/* The end record counts every other record: a file cut at a line boundary
 * is told from a whole one. */
static gboolean
read_end (Reader     *r,
          JsonObject *o)
{
  JsonObject *counts = get_object (r, o, "end", "counts");
  GHashTableIter iter;
  gpointer kind, n;
  guint listed = 0;

  if (counts == NULL)
    return FALSE;
  g_hash_table_iter_init (&iter, r->counts);
  while (g_hash_table_iter_next (&iter, &kind, &n))
    {
      gint64 v;

      if (!json_object_has_member (counts, kind))
        return fail (r, _("the 'end' record does not count the %u '%s' records above it"),
                     GPOINTER_TO_UINT (n), (const char *)kind);
      if (!get_int (r, counts, "end.counts", kind, 0, G_MAXINT64, &v))
        return FALSE;
      if (v != GPOINTER_TO_UINT (n))
        return fail_code (r, TES_IMPORT_ERROR_TRUNCATED,
                          _("the 'end' record counts %" PRId64 " '%s' records, the file has %u "
                          "(lines lost?)"), v, (const char *)kind, GPOINTER_TO_UINT (n));
      listed++;
    }
  if (json_object_get_size (counts) != listed)
    return fail_code (r, TES_IMPORT_ERROR_TRUNCATED,
                      _("the 'end' record counts kinds of records the file does not have (lines lost?)"));
  r->ended = TRUE;
  return TRUE;
}

static gboolean
read_record (Reader     *r,
             JsonObject *o)
{
  static const struct
  {
    const char *kind;
    gboolean  (*read) (Reader *, JsonObject *);
  } readers[] = {
    { "tile", read_tile },
    { "memory", read_memory },
    { "run", read_run },
    { "step", read_step },
    { "liveness", read_liveness },
    { "block", read_block },
  };
  const char *kind;

  if (!get_string (r, o, "record", "record", FALSE, &kind))
    return FALSE;
  if (strcmp (kind, "end") == 0)
    return read_end (r, o);

  for (guint i = 0; i < G_N_ELEMENTS (readers); i++)
    if (strcmp (kind, readers[i].kind) == 0)
      {
        g_hash_table_insert (r->counts, (gpointer)readers[i].kind,
                             GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (r->counts, readers[i].kind)) + 1));
        return readers[i].read (r, o);
      }

  return fail (r, _("unknown record '%s' (tiles, memory, runs, steps, liveness, blocks and end are known)"), kind);
}

/* ---- what the model does not hold ------------------------------------------- */

/* Each IPU's tile balance at each step (per cent of its tiles' cycles that
 * worked, as libpva gives it): two counter tracks per IPU, on the profile's
 * cycles clock (the same clock row as the writer's, by its name). */
static void
write_balances (Reader         *r,
                TesCacheWriter *writer,
                gint64          source_id)
{
  gint64 clock = tes_cache_writer_add_clock (writer, "Poplar IPU cycles", TES_TIME_UNIT_CYCLES,
                                             r->profile->clock_hz);

  for (gint i = 0; i < r->n_ipus; i++)
    {
      g_autofree char *name = g_strdup_printf ("IPU %d tile balance (%%)", i);
      g_autofree char *active_name = g_strdup_printf ("IPU %d active tile balance (%%)", i);
      gint64 track, active;

      if (r->balances[i]->len == 0)
        continue;
      track = tes_cache_writer_add_track (writer, 0, source_id, clock, TES_TRACK_COUNTER, name,
                                          1000 + 2 * i, NULL);
      active = tes_cache_writer_add_track (writer, 0, source_id, clock, TES_TRACK_COUNTER, active_name,
                                           1000 + 2 * i + 1, NULL);
      for (guint s = 0; s < r->balances[i]->len; s++)
        {
          const Balance *b = &g_array_index (r->balances[i], Balance, s);

          tes_cache_writer_add_counter_value (writer, track, b->at, b->balance);
          tes_cache_writer_add_counter_value (writer, active, b->at, b->active_balance);
        }
    }
}

static int
compare_uint (gconstpointer a,
              gconstpointer b)
{
  guint x = GPOINTER_TO_UINT (*(gconstpointer *)a), y = GPOINTER_TO_UINT (*(gconstpointer *)b);

  return (x > y) - (x < y);
}

/* Lightweight Profiling blocks: a lane per tile that has them, under one
 * track. Their cycles count from when the program was loaded, not from the
 * run's start, so they get a clock of their own. */
static void
write_blocks (Reader         *r,
              TesCacheWriter *writer,
              gint64          source_id)
{
  g_autoptr(GPtrArray) tiles = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;
  gint64 clock, parent;

  g_hash_table_iter_init (&iter, r->blocks);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (tiles, key);
  if (tiles->len == 0)
    return;
  g_ptr_array_sort (tiles, compare_uint);
  clock = tes_cache_writer_add_clock (writer, "IPU cycle counter (Lightweight Profiling)",
                                      TES_TIME_UNIT_CYCLES, r->profile->clock_hz);
  parent = tes_cache_writer_add_track (writer, 0, source_id, clock, TES_TRACK_DEVICE,
                                       "Lightweight Profiling blocks", 2000, NULL);
  for (guint i = 0; i < tiles->len; i++)
    {
      guint index = GPOINTER_TO_UINT (g_ptr_array_index (tiles, i)) - 1;
      GArray *blocks = g_hash_table_lookup (r->blocks, g_ptr_array_index (tiles, i));
      g_autofree char *name = g_strdup_printf ("IPU %u tile %u", index / r->tiles_per_ipu,
                                               index % r->tiles_per_ipu);
      g_autofree char *native = g_strdup_printf ("%u", index);
      gint64 lane = tes_cache_writer_add_track (writer, parent, source_id, clock, TES_TRACK_TILE,
                                                name, i, native);

      tes_cache_writer_set_track_tile (writer, lane, (gint)(index / r->tiles_per_ipu),
                                       (gint)(index % r->tiles_per_ipu));

      for (guint b = 0; b < blocks->len; b++)
        {
          const Block *block = &g_array_index (blocks, Block, b);

          tes_cache_writer_add_slice (writer, lane, block->from, block->to - block->from,
                                      tes_cache_writer_intern (writer, block->name),
                                      tes_cache_writer_intern (writer, block->kind),
                                      TES_SLICE_FLAG_NONE, NULL, 0);
        }
      tes_cache_writer_close_track (writer, lane);
    }
}

/* ---- the importer ----------------------------------------------------------- */

static guint
tes_poplar_export_importer_sniff (TesImporter  *importer,
                                  const guint8 *head,
                                  gsize         head_len,
                                  const char   *basename)
{
  const char *s = (const char *)head;
  const char *eol;
  g_autofree char *first = NULL;

  /* the header is the first line, and names the format in its first member */
  if (head_len >= 3 && memcmp (s, "\xef\xbb\xbf", 3) == 0)
    s += 3, head_len -= 3;
  eol = memchr (s, '\n', head_len);
  first = g_strndup (s, eol ? (gsize)(eol - s) : head_len);
  g_strstrip (first);
  if (g_str_has_prefix (first, "{\"format\":\"" FORMAT_NAME "\"") ||
      (first[0] == '{' && strstr (first, "\"" FORMAT_NAME "\"") != NULL && strstr (first, "\"format\"") != NULL))
    return 100;

  return 0;
}

static gboolean
tes_poplar_export_importer_import (TesImporter       *importer,
                                   TesImportContext  *context,
                                   GError           **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  Reader r = { 0 };
  TesLineReader lines;
  const char *line;
  gsize len;
  gboolean ok = TRUE;
  gboolean header = FALSE;

  if (!tes_line_reader_init (&lines, context->path, error))
    return FALSE;

  r.path = context->path;
  r.error = error;
  r.profile = tes_poplar_profile_new ();
  r.run = -1;
  r.categories = g_hash_table_new (g_str_hash, g_str_equal);
  r.programs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  r.blocks = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify)g_array_unref);
  r.counts = g_hash_table_new (g_str_hash, g_str_equal);

  while (ok && tes_line_reader_next (&lines, &line, &len))
    {
      g_autoptr(GError) parse_error = NULL;
      JsonNode *root;

      r.line = lines.line_no;
      if (len == 0 || (len == 1 && line[0] == '\r'))
        continue;
      if (r.ended)
        {
          ok = fail (&r, _("a line after the 'end' record"));
          break;
        }
      if (!json_parser_load_from_data (parser, line, (gssize)len, &parse_error))
        {
          ok = fail (&r, _("not a JSON record (%s)"), parse_error->message);
          break;
        }
      root = json_parser_get_root (parser);
      if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
        ok = fail (&r, _("a record must be a JSON object"));
      else if (!header)
        ok = header = read_header (&r, json_node_get_object (root));
      else
        ok = read_record (&r, json_node_get_object (root));

      if (context->progress != NULL && (lines.line_no & 255) == 0)
        tes_progress_update (context->progress, tes_line_reader_get_fraction (&lines), NULL);
      if (ok && context->cancellable != NULL && g_cancellable_set_error_if_cancelled (context->cancellable, error))
        ok = FALSE;
    }

  if (ok && !header)
    ok = tes_import_fail (error, TES_IMPORT_ERROR_EMPTY, context->path,
                          _("empty file (no %s header)"), FORMAT_NAME);
  if (ok && !r.ended)
    ok = tes_import_fail (error, TES_IMPORT_ERROR_TRUNCATED, context->path,
                          _("the file ends after line %u without its 'end' record (cut short?)"), lines.line_no);
  if (ok)
    for (guint t = 0; t < r.n_tiles; t++)
      if (!g_array_index (r.tile_seen, guint8, t))
        {
          ok = tes_import_fail (error, TES_IMPORT_ERROR_INVALID, context->path,
                                _("IPU %u tile %u has no 'tile' record"), t / r.tiles_per_ipu, t % r.tiles_per_ipu);
          break;
        }
  if (ok && !r.memory_seen)
    ok = tes_import_fail (error, TES_IMPORT_ERROR_INVALID, context->path, _("no 'memory' record"));

  if (ok)
    {
      g_autofree char *runs = g_strdup_printf ("%" G_GINT64_FORMAT, r.run + 1);

      tes_poplar_profile_set_info (r.profile, "execution.runs", runs);
      ok = tes_poplar_profile_write (r.profile, context->writer, context->source_id, error);
    }
  if (ok)
    {
      write_balances (&r, context->writer, context->source_id);
      write_blocks (&r, context->writer, context->source_id);
    }

  tes_line_reader_clear (&lines);
  reader_clear (&r);
  return ok;
}

static void
tes_poplar_export_importer_class_init (TesPoplarExportImporterClass *klass)
{
  TesImporterClass *importer_class = TES_IMPORTER_CLASS (klass);

  importer_class->name = "poplar-export";
  importer_class->title = "Graphcore PopVision profile.pop, exported by tessera-pop-export";
  importer_class->version = 2;   /* 2: runs and tile lanes carry their IPU (and tile) as numbers */
  importer_class->sniff = tes_poplar_export_importer_sniff;
  importer_class->import = tes_poplar_export_importer_import;
}

static void
tes_poplar_export_importer_init (TesPoplarExportImporter *self)
{
}
