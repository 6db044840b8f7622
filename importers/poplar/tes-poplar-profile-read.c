/* tes-poplar-profile-read.c: SDK 1.x graph and execution profiles into the model
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-poplar-profile"

#include "config.h"

#include <glib/gi18n-lib.h>

#include <inttypes.h>

#include <math.h>
#include <string.h>

#include "tes-import-error.h"
#include "tes-poplar-profile-private.h"

/* The keys are those of Graphcore's "Poplar Profile Data" (SDK up to 2.1)
 * and of the scripts that read them (poplibs' tools/bench.py: the liveness;
 * plot_metric_variation.py: target, graph, byTile, simulation). Every key
 * is optional: a profile opens with what it has. A key that is there must
 * hold what the documentation says; otherwise the error names its path. */

/* Bounds that keep every sum Tessera forms of these figures in 64 bits:
 * tiles (178 IPUs of 1,472), a single figure, and one entry of a per-tile
 * or per-step array (1 TiB, or 10^12 cycles: some minutes of one step). */
#define MAX_TILES  (1 << 18)
#define MAX_FIGURE ((gint64)1 << 60)
#define MAX_ENTRY  ((gint64)1 << 40)

typedef struct
{
  TesPoplarProfile *profile;
  const char       *file;
  GString          *key;     /* the key path being read */
  GError          **error;
} Reader;

static gboolean
fail (Reader     *r,
      const char *format,
      ...) G_GNUC_PRINTF (2, 3);

static gboolean
fail (Reader     *r,
      const char *format,
      ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  return tes_import_fail (r->error, TES_IMPORT_ERROR_INVALID, r->file, "%s: %s",
                          r->key->len > 0 ? r->key->str : _("the document"), what);
}

static const char *
kind_of (JsonNode *node)
{
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return _("null");
  if (JSON_NODE_HOLDS_OBJECT (node))
    return _("an object");
  if (JSON_NODE_HOLDS_ARRAY (node))
    return _("an array");
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_STRING:
      return _("a string");
    case G_TYPE_BOOLEAN:
      return _("true or false");
    case G_TYPE_DOUBLE:
      return _("a fractional number");
    default:
      return _("a number");
    }
}

/* Enters @name of the object being read: the path grows by ".name"; leave
 * with path_leave (r, mark). */
static gsize
path_enter (Reader     *r,
            const char *name)
{
  gsize mark = r->key->len;

  if (r->key->len > 0)
    g_string_append_c (r->key, '.');
  g_string_append (r->key, name);

  return mark;
}

static gsize
path_index (Reader *r,
            guint   i)
{
  gsize mark = r->key->len;

  g_string_append_printf (r->key, "[%u]", i);

  return mark;
}

static void
path_leave (Reader *r,
            gsize   mark)
{
  g_string_truncate (r->key, mark);
}

static gboolean
want_object (Reader      *r,
             JsonNode    *node,
             JsonObject **out)
{
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return fail (r, _("expected an object, found %s"), kind_of (node));
  *out = json_node_get_object (node);
  return TRUE;
}

static gboolean
want_array (Reader     *r,
            JsonNode   *node,
            JsonArray **out)
{
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return fail (r, _("expected an array, found %s"), kind_of (node));
  *out = json_node_get_array (node);
  return TRUE;
}

/* A count, byte size or cycle count: a whole number ≥ 0. Poplar writes
 * them as integers; a JSON writer may add ".0", which is accepted when it
 * is whole. */
static gboolean
want_count_at_most (Reader   *r,
                    JsonNode *node,
                    gint64    max,
                    gint64   *out)
{
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64)
    *out = json_node_get_int (node);
  else if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_DOUBLE)
    {
      double v = json_node_get_double (node);

      if (!(v >= 0 && v < 9.2e18 && v == floor (v)))
        return fail (r, _("expected a whole number ≥ 0, found %g"), v);
      *out = (gint64)v;
    }
  else
    return fail (r, _("expected a whole number ≥ 0, found %s"), kind_of (node));

  if (*out < 0)
    return fail (r, _("expected a whole number ≥ 0, found %" PRId64), *out);
  if (*out > max)
    return fail (r, _("%" PRId64 " is more than Tessera reads (at most %" PRId64 ")"), *out, max);

  return TRUE;
}

static gboolean
want_count (Reader   *r,
            JsonNode *node,
            gint64   *out)
{
  return want_count_at_most (r, node, MAX_FIGURE, out);
}

static gboolean
want_string (Reader      *r,
             JsonNode    *node,
             const char **out)
{
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return fail (r, _("expected a string, found %s"), kind_of (node));
  *out = json_node_get_string (node);
  return TRUE;
}

static JsonNode *
member (JsonObject *object,
        const char *name)
{
  return object != NULL ? json_object_get_member (object, name) : NULL;
}

/* @name of @object, a count, into @out when present. */
static gboolean
read_count (Reader     *r,
            JsonObject *object,
            const char *name,
            gint64     *out)
{
  JsonNode *node = member (object, name);
  gsize mark;
  gboolean ok;

  if (node == NULL)
    return TRUE;

  mark = path_enter (r, name);
  ok = want_count (r, node, out);
  path_leave (r, mark);

  return ok;
}

/* A count that must fit the tile and IPU numbers (an int). */
static gboolean
read_small_count (Reader     *r,
                  JsonObject *object,
                  const char *name,
                  gint       *out)
{
  gint64 v = -1;
  gsize mark;

  if (!read_count (r, object, name, &v))
    return FALSE;
  if (v < 0)
    return TRUE;

  if (v > MAX_TILES)
    {
      mark = path_enter (r, name);
      fail (r, _("%" PRId64 " is more than Tessera reads (at most %d)"), v, MAX_TILES);
      path_leave (r, mark);
      return FALSE;
    }

  *out = (gint)v;
  return TRUE;
}

/* An array of counts (per tile, per step). */
static gboolean
read_counts (Reader     *r,
             JsonNode   *node,
             GArray     *out)
{
  JsonArray *array;

  if (!want_array (r, node, &array))
    return FALSE;

  g_array_set_size (out, 0);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      gsize mark = path_index (r, i);
      gint64 v;

      if (!want_count_at_most (r, json_array_get_element (array, i), MAX_ENTRY, &v))
        return FALSE;
      path_leave (r, mark);
      g_array_append_val (out, v);
    }

  return TRUE;
}

static gboolean
read_counts_member (Reader     *r,
                    JsonObject *object,
                    const char *name,
                    GArray     *out)
{
  JsonNode *node = member (object, name);
  gsize mark;
  gboolean ok;

  if (node == NULL)
    return TRUE;

  mark = path_enter (r, name);
  ok = read_counts (r, node, out);
  path_leave (r, mark);

  return ok;
}

/* { "names": [ … ] } */
static gboolean
read_names (Reader     *r,
            JsonObject *object,
            const char *name,
            GPtrArray  *out)
{
  JsonNode *node = member (object, name);
  JsonObject *inner;
  JsonArray *names;
  gsize mark;

  if (node == NULL)
    return TRUE;

  mark = path_enter (r, name);
  if (!want_object (r, node, &inner))
    return FALSE;
  if ((node = member (inner, "names")) != NULL)
    {
      gsize mark2 = path_enter (r, "names");

      if (!want_array (r, node, &names))
        return FALSE;
      g_ptr_array_set_size (out, 0);
      for (guint i = 0; i < json_array_get_length (names); i++)
        {
          gsize mark3 = path_index (r, i);
          const char *s;

          if (!want_string (r, json_array_get_element (names, i), &s))
            return FALSE;
          path_leave (r, mark3);
          g_ptr_array_add (out, g_strdup (s));
        }
      path_leave (r, mark2);
    }
  path_leave (r, mark);

  return TRUE;
}

static gboolean
read_target (Reader     *r,
             JsonObject *graph)
{
  TesPoplarProfile *p = r->profile;
  JsonNode *node = member (graph, "target");
  JsonObject *target;
  gint64 num_tiles = -1, clock = -1, bytes = -1;
  gsize mark;

  if (node == NULL)
    return TRUE;

  mark = path_enter (r, "target");
  if (!want_object (r, node, &target))
    return FALSE;

  if ((node = member (target, "type")) != NULL)
    {
      gsize m = path_enter (r, "type");
      const char *type;

      if (!want_string (r, node, &type))
        return FALSE;
      g_free (p->target_type);
      p->target_type = g_strdup (type);
      path_leave (r, m);
    }

  if (!read_small_count (r, target, "numIPUs", &p->n_ipus) ||
      !read_small_count (r, target, "tilesPerIPU", &p->tiles_per_ipu) ||
      !read_count (r, target, "numTiles", &num_tiles) ||
      !read_count (r, target, "bytesPerTile", &bytes))
    return FALSE;
  if (bytes >= 0)
    p->bytes_per_tile = bytes;

  /* in Hz; a JSON writer may print it with a fraction */
  if ((node = member (target, "clockFrequency")) != NULL)
    {
      gsize m = path_enter (r, "clockFrequency");

      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_DOUBLE &&
          json_node_get_double (node) >= 1 && json_node_get_double (node) < 1e15)
        clock = llround (json_node_get_double (node));
      else if (!want_count (r, node, &clock))
        return FALSE;
      if (clock <= 0)
        return fail (r, _("expected the clock in Hz, found 0"));
      p->clock_hz = clock;
      path_leave (r, m);
    }

  if (p->n_ipus > 0 && p->tiles_per_ipu > 0 && num_tiles >= 0 &&
      num_tiles != (gint64)p->n_ipus * p->tiles_per_ipu)
    {
      gsize m = path_enter (r, "numTiles");

      /* the error names the key: the path stays */
      (void)m;
      return fail (r, _("%" PRId64 " tiles, but numIPUs × tilesPerIPU is %d × %d"),
                   num_tiles, p->n_ipus, p->tiles_per_ipu);
    }
  /* a target that gives the total and one of the factors */
  if (num_tiles > 0 && p->n_ipus > 0 && p->tiles_per_ipu <= 0 && num_tiles % p->n_ipus == 0)
    p->tiles_per_ipu = (gint)(num_tiles / p->n_ipus);
  if (num_tiles > 0 && p->n_ipus <= 0 && p->tiles_per_ipu <= 0 && num_tiles <= MAX_TILES)
    {
      p->n_ipus = 1;
      p->tiles_per_ipu = (gint)num_tiles;
    }
  if (p->n_ipus > 0 && p->tiles_per_ipu > 0 && (gint64)p->n_ipus * p->tiles_per_ipu > MAX_TILES)
    return fail (r, _("%d IPUs of %d tiles are more tiles than Tessera reads (at most %d)"),
                 p->n_ipus, p->tiles_per_ipu, MAX_TILES);

  path_leave (r, mark);
  return TRUE;
}

static gboolean
read_graph_counts (Reader     *r,
                   JsonObject *graph)
{
  TesPoplarProfile *p = r->profile;
  JsonNode *node = member (graph, "graph");
  JsonObject *object;
  gsize mark;

  if (node == NULL)
    return TRUE;

  mark = path_enter (r, "graph");
  if (!want_object (r, node, &object) ||
      !read_count (r, object, "numVertices", &p->n_vertices) ||
      !read_count (r, object, "numEdges", &p->n_edges) ||
      !read_count (r, object, "numVars", &p->n_variables) ||
      !read_count (r, object, "numComputeSets", &p->n_compute_sets))
    return FALSE;
  path_leave (r, mark);

  return TRUE;
}

/* [ { "type": …, "name": …, "computeSet": … }, … ] */
static gboolean
read_programs (Reader     *r,
               JsonObject *object)
{
  TesPoplarProfile *p = r->profile;
  JsonNode *node = member (object, "programs");
  JsonArray *programs;
  gsize mark;

  if (node == NULL)
    return TRUE;

  mark = path_enter (r, "programs");
  if (!want_array (r, node, &programs))
    return FALSE;

  /* the execution profile may list them again: the first list wins */
  if (p->programs->len > 0)
    {
      path_leave (r, mark);
      return TRUE;
    }

  for (guint i = 0; i < json_array_get_length (programs); i++)
    {
      gsize m = path_index (r, i);
      JsonObject *program;
      const char *type = NULL, *name = NULL;
      gint64 cs = TES_POPLAR_UNKNOWN;
      TesPoplarProgram *added;

      if (!want_object (r, json_array_get_element (programs, i), &program))
        return FALSE;
      if ((node = member (program, "type")) != NULL)
        {
          gsize m2 = path_enter (r, "type");

          if (!want_string (r, node, &type))
            return FALSE;
          path_leave (r, m2);
        }
      if ((node = member (program, "name")) != NULL && !JSON_NODE_HOLDS_NULL (node))
        {
          gsize m2 = path_enter (r, "name");

          if (!want_string (r, node, &name))
            return FALSE;
          path_leave (r, m2);
        }
      if (!read_count (r, program, "computeSet", &cs))
        return FALSE;

      added = tes_poplar_profile_add_program (p, type, name);
      added->compute_set = cs;
      path_leave (r, m);
    }

  path_leave (r, mark);
  return TRUE;
}

/* memory.byCategory: { "variable": { "total": [per tile], … } or [per tile], … } */
static gboolean
read_categories (Reader     *r,
                 JsonObject *memory)
{
  JsonNode *node = member (memory, "byCategory");
  JsonObject *by_category;
  g_autoptr(GList) names = NULL;
  gsize mark;

  if (node == NULL)
    return TRUE;

  mark = path_enter (r, "byCategory");
  if (!want_object (r, node, &by_category))
    return FALSE;

  names = json_object_get_members (by_category);
  for (GList *l = names; l != NULL; l = l->next)
    {
      const char *name = l->data;
      JsonNode *value = json_object_get_member (by_category, name);
      TesPoplarCategory *category = tes_poplar_profile_add_category (r->profile, name);
      gsize m = path_enter (r, name);

      if (JSON_NODE_HOLDS_OBJECT (value))
        {
          JsonObject *inner = json_node_get_object (value);

          if (member (inner, "total") == NULL)
            return fail (r, _("expected its bytes per tile in \"total\""));
          if (!read_counts_member (r, inner, "total", category->bytes))
            return FALSE;
        }
      else if (!read_counts (r, value, category->bytes))
        return FALSE;
      path_leave (r, m);
    }

  path_leave (r, mark);
  return TRUE;
}

/* memory.liveness: alwaysLive.bytesByTile, notAlwaysLive.maxBytesByTile,
 * notAlwaysLive.bytes (per program step) or .bytesByTile (per step, per tile) */
static gboolean
read_liveness (Reader     *r,
               JsonObject *memory)
{
  TesPoplarProfile *p = r->profile;
  JsonNode *node = member (memory, "liveness");
  JsonObject *liveness, *part;
  gsize mark;

  if (node == NULL)
    return TRUE;

  mark = path_enter (r, "liveness");
  if (!want_object (r, node, &liveness))
    return FALSE;

  if ((node = member (liveness, "alwaysLive")) != NULL)
    {
      gsize m = path_enter (r, "alwaysLive");

      if (!want_object (r, node, &part) ||
          !read_counts_member (r, part, "bytesByTile", p->always_live_by_tile))
        return FALSE;
      path_leave (r, m);
    }

  if ((node = member (liveness, "notAlwaysLive")) != NULL)
    {
      gsize m = path_enter (r, "notAlwaysLive");
      JsonNode *steps;

      if (!want_object (r, node, &part) ||
          !read_counts_member (r, part, "maxBytesByTile", p->not_always_live_max_by_tile) ||
          !read_counts_member (r, part, "bytes", p->not_always_live_by_step))
        return FALSE;

      if ((steps = member (part, "bytesByTile")) != NULL)
        {
          gsize m2 = path_enter (r, "bytesByTile");
          JsonArray *array;

          if (!want_array (r, steps, &array))
            return FALSE;
          g_ptr_array_set_size (p->not_always_live_by_step_tile, 0);
          for (guint s = 0; s < json_array_get_length (array); s++)
            {
              gsize m3 = path_index (r, s);
              GArray *bytes = g_array_new (FALSE, TRUE, sizeof (gint64));

              g_ptr_array_add (p->not_always_live_by_step_tile, bytes);
              if (!read_counts (r, json_array_get_element (array, s), bytes))
                return FALSE;
              path_leave (r, m3);
            }
          path_leave (r, m2);
        }
      path_leave (r, m);
    }

  path_leave (r, mark);
  return TRUE;
}

static gboolean
read_memory (Reader     *r,
             JsonObject *graph)
{
  TesPoplarProfile *p = r->profile;
  JsonNode *node = member (graph, "memory");
  JsonObject *memory, *by_tile;
  gsize mark;

  if (node == NULL)
    return TRUE;

  mark = path_enter (r, "memory");
  if (!want_object (r, node, &memory))
    return FALSE;

  if ((node = member (memory, "byTile")) != NULL)
    {
      gsize m = path_enter (r, "byTile");

      if (!want_object (r, node, &by_tile) ||
          !read_counts_member (r, by_tile, "total", p->total_by_tile) ||
          !read_counts_member (r, by_tile, "totalIncludingGaps", p->including_gaps_by_tile))
        return FALSE;
      path_leave (r, m);
    }

  if (!read_categories (r, memory) || !read_liveness (r, memory))
    return FALSE;

  path_leave (r, mark);
  return TRUE;
}

static gboolean
read_graph (Reader     *r,
            JsonObject *graph)
{
  return read_target (r, graph) &&
         read_graph_counts (r, graph) &&
         read_names (r, graph, "vertexTypes", r->profile->vertex_types) &&
         read_names (r, graph, "computeSets", r->profile->compute_sets) &&
         read_programs (r, graph) &&
         read_memory (r, graph);
}

static gboolean
read_step (Reader     *r,
           JsonObject *object)
{
  TesPoplarProfile *p = r->profile;
  gint64 program = TES_POPLAR_UNKNOWN, from = -1, to = TES_POPLAR_UNKNOWN;
  const char *name = NULL, *type = NULL;
  TesPoplarStep *step;
  JsonNode *node;

  if (!read_count (r, object, "program", &program) ||
      !read_count (r, object, "cyclesFrom", &from) ||
      !read_count (r, object, "cyclesTo", &to))
    return FALSE;

  if (from < 0)
    return fail (r, _("a step without its start (\"cyclesFrom\")"));
  if (to >= 0 && to < from)
    {
      gsize m = path_enter (r, "cyclesTo");

      (void)m;
      return fail (r, _("%" PRId64 " is before cyclesFrom (%" PRId64 ")"), to, from);
    }

  if ((node = member (object, "name")) != NULL)
    {
      gsize m = path_enter (r, "name");

      if (!want_string (r, node, &name))
        return FALSE;
      path_leave (r, m);
    }
  if ((node = member (object, "type")) != NULL)
    {
      gsize m = path_enter (r, "type");

      if (!want_string (r, node, &type))
        return FALSE;
      path_leave (r, m);
    }

  step = tes_poplar_profile_add_step (p, program, from, to);
  step->name = g_strdup (name);
  step->type = g_strdup (type);

  return read_counts_member (r, object, "cyclesByTile", step->cycles_by_tile);
}

static gboolean
read_execution (Reader     *r,
                JsonObject *execution)
{
  TesPoplarProfile *p = r->profile;
  JsonNode *node;
  JsonObject *simulation;
  gsize mark;

  if ((node = member (execution, "profilerMode")) != NULL)
    {
      const char *mode;

      mark = path_enter (r, "profilerMode");
      if (!want_string (r, node, &mode))
        return FALSE;
      tes_poplar_profile_set_info (p, "execution.profiler_mode", mode);
      path_leave (r, mark);
    }

  if (!read_programs (r, execution))
    return FALSE;

  if ((node = member (execution, "simulation")) == NULL)
    return TRUE;

  mark = path_enter (r, "simulation");
  if (!want_object (r, node, &simulation) ||
      !read_count (r, simulation, "cycles", &p->total_cycles))
    return FALSE;
  p->has_simulation = TRUE;

  if ((node = member (simulation, "tileCycles")) != NULL)
    {
      gsize m = path_enter (r, "tileCycles");
      g_autoptr(GList) names = NULL;
      JsonObject *tile_cycles;

      if (!want_object (r, node, &tile_cycles))
        return FALSE;
      names = json_object_get_members (tile_cycles);
      for (GList *l = names; l != NULL; l = l->next)
        {
          gint64 v = -1;
          g_autofree char *key = g_strconcat ("execution.tile_cycles.", (const char *)l->data, NULL);
          g_autofree char *text = NULL;

          if (!read_count (r, tile_cycles, l->data, &v))
            return FALSE;
          text = g_strdup_printf ("%" PRId64, v);
          tes_poplar_profile_set_info (p, key, text);
        }
      path_leave (r, m);
    }

  if ((node = member (simulation, "steps")) != NULL)
    {
      gsize m = path_enter (r, "steps");
      JsonArray *steps;

      if (!want_array (r, node, &steps))
        return FALSE;
      g_ptr_array_set_size (p->steps, 0);
      for (guint i = 0; i < json_array_get_length (steps); i++)
        {
          gsize m2 = path_index (r, i);
          JsonObject *step;

          if (!want_object (r, json_array_get_element (steps, i), &step) || !read_step (r, step))
            return FALSE;
          path_leave (r, m2);
        }
      path_leave (r, m);
    }

  path_leave (r, mark);
  return TRUE;
}

static gboolean
looks_like_graph (JsonObject *object)
{
  return json_object_has_member (object, "target") || json_object_has_member (object, "memory") ||
         json_object_has_member (object, "vertexTypes") || json_object_has_member (object, "computeSets") ||
         json_object_has_member (object, "graph");
}

static gboolean
looks_like_execution (JsonObject *object)
{
  return json_object_has_member (object, "simulation") || json_object_has_member (object, "profilerMode");
}

TesPoplarParts
tes_poplar_profile_document_parts (JsonNode *root,
                                   gboolean *combined)
{
  JsonObject *object;
  TesPoplarParts parts = 0;

  *combined = FALSE;
  if (!JSON_NODE_HOLDS_OBJECT (root))
    return 0;

  object = json_node_get_object (root);
  if (json_object_has_member (object, "graphProfile") || json_object_has_member (object, "executionProfile"))
    {
      *combined = TRUE;
      if (json_object_has_member (object, "graphProfile"))
        parts |= TES_POPLAR_PART_GRAPH;
      if (json_object_has_member (object, "executionProfile"))
        parts |= TES_POPLAR_PART_EXECUTION;
      return parts;
    }

  if (looks_like_graph (object))
    parts |= TES_POPLAR_PART_GRAPH;
  if (looks_like_execution (object))
    parts |= TES_POPLAR_PART_EXECUTION;

  return parts;
}

gboolean
tes_poplar_profile_read_document (TesPoplarProfile  *profile,
                                  JsonNode          *root,
                                  const char        *path,
                                  TesPoplarParts    *parts,
                                  GError           **error)
{
  g_autoptr(GString) key = g_string_new (NULL);
  Reader r = { profile, path, key, error };
  JsonObject *object, *part;
  JsonNode *node;

  *parts = 0;
  if (!want_object (&r, root, &object))
    return FALSE;

  if (json_object_has_member (object, "graphProfile") || json_object_has_member (object, "executionProfile"))
    {
      if ((node = member (object, "graphProfile")) != NULL)
        {
          gsize m = path_enter (&r, "graphProfile");

          if (!want_object (&r, node, &part) || !read_graph (&r, part))
            return FALSE;
          path_leave (&r, m);
          *parts |= TES_POPLAR_PART_GRAPH;
        }
      if ((node = member (object, "executionProfile")) != NULL)
        {
          gsize m = path_enter (&r, "executionProfile");

          if (!want_object (&r, node, &part) || !read_execution (&r, part))
            return FALSE;
          path_leave (&r, m);
          *parts |= TES_POPLAR_PART_EXECUTION;
        }
    }
  else
    {
      if (looks_like_graph (object))
        {
          if (!read_graph (&r, object))
            return FALSE;
          *parts |= TES_POPLAR_PART_GRAPH;
        }
      if (looks_like_execution (object))
        {
          if (!read_execution (&r, object))
            return FALSE;
          *parts |= TES_POPLAR_PART_EXECUTION;
        }
    }

  if (*parts == 0)
    return tes_import_fail (error, TES_IMPORT_ERROR_INVALID, path,
                            _("not a Poplar profile: the document has none of graphProfile, executionProfile, "
                              "or a graph profile's (target, memory, graph) or execution profile's "
                              "(simulation, profilerMode) keys"));

  return TRUE;
}

/* One per-tile array against the tiles the target has. */
static gboolean
check_tiles (GArray      *array,
             guint        n_tiles,
             const char  *file,
             const char  *key,
             GError     **error)
{
  if (array->len == 0 || array->len == n_tiles)
    return TRUE;

  return tes_import_fail (error, TES_IMPORT_ERROR_INVALID, file,
                          _("%s: %u entries, but the target has %u tiles"), key, array->len, n_tiles);
}

gboolean
tes_poplar_profile_check (const TesPoplarProfile  *p,
                          const char              *graph_path,
                          const char              *graph_prefix,
                          const char              *execution_path,
                          const char              *execution_prefix,
                          GError                 **error)
{
  guint n = tes_poplar_profile_n_tiles (p);
  const char *memory = graph_path ? graph_path : execution_path;
  const char *gp = graph_prefix ? graph_prefix : "";
  const char *ep = execution_prefix ? execution_prefix : "";
  g_autofree char *k1 = g_strconcat (gp, "memory.byTile.total", NULL);
  g_autofree char *k2 = g_strconcat (gp, "memory.byTile.totalIncludingGaps", NULL);
  g_autofree char *k3 = g_strconcat (gp, "memory.liveness.alwaysLive.bytesByTile", NULL);
  g_autofree char *k4 = g_strconcat (gp, "memory.liveness.notAlwaysLive.maxBytesByTile", NULL);

  if (!(p->n_ipus > 0 && p->tiles_per_ipu > 0))
    {
      /* no target: the longest array sets the tiles */
      if (n > MAX_TILES)
        return tes_import_fail (error, TES_IMPORT_ERROR_INVALID, memory,
                                _("%u tiles (the longest per-tile array, without a target), more than "
                                  "Tessera reads (at most %d)"), n, MAX_TILES);
      return TRUE;
    }

  if (!check_tiles (p->total_by_tile, n, memory, k1, error) ||
      !check_tiles (p->including_gaps_by_tile, n, memory, k2, error) ||
      !check_tiles (p->always_live_by_tile, n, memory, k3, error) ||
      !check_tiles (p->not_always_live_max_by_tile, n, memory, k4, error))
    return FALSE;

  for (guint i = 0; i < p->categories->len; i++)
    {
      const TesPoplarCategory *c = g_ptr_array_index (p->categories, i);
      g_autofree char *key = g_strdup_printf ("%smemory.byCategory.%s", gp, c->name);

      if (!check_tiles (c->bytes, n, memory, key, error))
        return FALSE;
    }

  for (guint i = 0; i < p->not_always_live_by_step_tile->len; i++)
    {
      g_autofree char *key = g_strdup_printf ("%smemory.liveness.notAlwaysLive.bytesByTile[%u]", gp, i);

      if (!check_tiles (g_ptr_array_index (p->not_always_live_by_step_tile, i), n, memory, key, error))
        return FALSE;
    }

  for (guint i = 0; i < p->steps->len; i++)
    {
      const TesPoplarStep *step = g_ptr_array_index (p->steps, i);
      g_autofree char *key = g_strdup_printf ("%ssimulation.steps[%u].cyclesByTile", ep, i);

      if (!check_tiles (step->cycles_by_tile, n, execution_path ? execution_path : memory, key, error))
        return FALSE;
    }

  return TRUE;
}
