/* test-units-util.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "tes-test-util.h"
#include "test-units-util.h"

/* What Tile Balance should show for a vendor's cores and engines,
 * worked out here from the files' rows with none of Tessera's code. */

static void
unit_free (gpointer data)
{
  TesTestUnit *unit = data;

  g_free (unit->device);
  g_free (unit->name);
  g_array_unref (unit->spans);
  g_free (unit);
}

void
tes_test_units_clear (TesTestUnits *units)
{
  g_clear_pointer (&units->units, g_ptr_array_unref);
}

static void
units_init (TesTestUnits *units)
{
  units->units = g_ptr_array_new_with_free_func (unit_free);
  units->start = G_MAXINT64;
  units->end = G_MININT64;
}

const TesTestUnit *
tes_test_units_find (const TesTestUnits *units,
                     const char         *name)
{
  for (guint i = 0; i < units->units->len; i++)
    {
      const TesTestUnit *unit = g_ptr_array_index (units->units, i);

      if (g_str_equal (unit->name, name))
        return unit;
    }

  return NULL;
}

/* A row of the run; unit NULL: a row no unit ran (it still spans the run). */
static void
add_span (TesTestUnits *units,
          const char   *device,
          const char   *name,
          gint64        start,
          gint64        end)
{
  TesTestUnit *unit = name != NULL ? (TesTestUnit *)tes_test_units_find (units, name) : NULL;
  gint64 span[2] = { start, end };

  units->start = MIN (units->start, start);
  units->end = MAX (units->end, end);
  if (name == NULL)
    return;
  if (unit == NULL)
    {
      unit = g_new0 (TesTestUnit, 1);
      unit->device = g_strdup (device);
      unit->name = g_strdup (name);
      unit->spans = g_array_new (FALSE, FALSE, sizeof span);
      g_ptr_array_add (units->units, unit);
    }
  g_array_append_vals (unit->spans, span, 1);
}

static int
compare_starts (gconstpointer a,
                gconstpointer b)
{
  gint64 x = *(const gint64 *)a, y = *(const gint64 *)b;

  return (x > y) - (x < y);
}

/* The length of the union of the unit's stretches within [start, end). */
gint64
tes_test_unit_busy (const TesTestUnit *unit,
                    gint64             start,
                    gint64             end)
{
  g_autoptr(GArray) spans = g_array_copy (unit->spans);
  gint64 busy = 0, reach = start;

  g_array_sort (spans, compare_starts);
  for (guint i = 0; i < spans->len; i++)
    {
      const gint64 *span = &g_array_index (spans, gint64, 2 * i);
      gint64 from = MAX (span[0], reach), to = MIN (span[1], end);

      if (to > from)
        {
          busy += to - from;
          reach = to;
        }
    }

  return busy;
}

/* timeline.csv of torq-compile, either layout: cycles at 100 MHz (10 ns).
 * The units are the engines the rows name: DMA In, DMA Out, CDMA (its
 * three directions), Slice N, CSS; the old layout's slice rows are one
 * unit "Slices" (it does not say which slice). */
void
tes_test_units_read_torq_timeline (TesTestUnits *units,
                                   const char   *path)
{
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;

  units_init (units);
  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) f = g_strsplit (g_strchomp (lines[i]), ",", 5);
      const char *unit = NULL;
      gint64 start, end;

      if (g_strv_length (f) < 5 || g_str_has_prefix (f[0], "taskId"))
        continue;

      if (f[0][0] == 'D' || f[0][0] == 'S')
        {
          /* v1: ID, start, end, location (commas and all), op type */
          start = g_ascii_strtoll (f[1], NULL, 10);
          end = g_ascii_strtoll (f[2], NULL, 10);
          unit = f[0][1] == 'I' ? "DMA In" : f[0][1] == 'O' ? "DMA Out" : "Slices";
        }
      else
        {
          /* v2: task, duration, start, event, … */
          start = g_ascii_strtoll (f[2], NULL, 10);
          end = start + g_ascii_strtoll (f[1], NULL, 10);
          if (g_str_has_prefix (f[3], "CDMA"))
            unit = "CDMA";
          else if (g_str_equal (f[3], "DMA In") || g_str_equal (f[3], "DMA Out") ||
                   g_str_has_prefix (f[3], "Slice ") || g_str_equal (f[3], "CSS"))
            unit = f[3];
        }
      add_span (units, "Compile-time timeline", unit, start * 10, end * 10);
    }
}

static gint64
member_int (JsonObject *o,
            const char *name)
{
  return (gint64)llround (json_object_get_double_member (o, name));
}

/* performance_timeline.py's JSON: a process per core ("core<N>_…"), each
 * layer total_cycle long from its ts, at the frequency the file implies
 * (the sum of the cycles over the sum of dur, whole MHz). */
void
tes_test_units_read_sigmastar (TesTestUnits *units,
                               const char   *path)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) cores = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  JsonNode *root;
  JsonArray *events;
  double cycles = 0, dur = 0;
  gint64 mhz;

  units_init (units);
  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  root = json_parser_get_root (parser);
  events = JSON_NODE_HOLDS_ARRAY (root) ? json_node_get_array (root)
                                        : json_object_get_array_member (json_node_get_object (root), "traceEvents");

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);
      const char *ph = json_object_get_string_member (e, "ph");

      if (g_str_equal (ph, "M") && g_str_equal (json_object_get_string_member (e, "name"), "process_name"))
        {
          const char *name = json_object_get_string_member (json_object_get_object_member (e, "args"), "name");
          const char *core = strstr (name, "core");
          gint64 *pid = g_new (gint64, 1);

          g_assert_nonnull (core);
          *pid = json_object_get_int_member (e, "pid");
          g_hash_table_insert (cores, pid, g_strdup_printf ("Core %d", atoi (core + 4)));
        }
      else if (g_str_equal (ph, "X"))
        {
          cycles += (double)member_int (json_object_get_object_member (e, "args"), "total_cycle");
          dur += json_object_get_double_member (e, "dur");
        }
    }
  g_assert_cmpfloat (dur, >, 0);
  mhz = (gint64)llround (cycles / dur);

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);
      gint64 pid, start;

      if (!g_str_equal (json_object_get_string_member (e, "ph"), "X"))
        continue;
      pid = json_object_get_int_member (e, "pid");
      start = (gint64)llround (json_object_get_double_member (e, "ts") * 1000);
      add_span (units, "SigmaStar IPU", g_hash_table_lookup (cores, &pid), start,
                start + member_int (json_object_get_object_member (e, "args"), "total_cycle") * 1000 / mhz);
    }
}

/* A performance_timeline.py run of both cores (-c0 and -c1), at 800 MHz,
 * each layer's cycles its dur: core 0 works 0-150 and 200-300 µs,
 * core 1 20-110 and 300-340 µs. */
char *
tes_test_write_sigmastar_two_cores (void)
{
  static const struct { int core; int ts; int dur; const char *name; } layers[] = {
    { 0, 0, 100, "0 CONV_2D" }, { 0, 100, 50, "1 ADD" }, { 0, 200, 100, "2 CONV_2D" },
    { 1, 20, 30, "0 CONV_2D" }, { 1, 50, 60, "1 MUL" }, { 1, 300, 40, "2 SOFTMAX" },
  };
  g_autoptr(GString) json = g_string_new ("[");
  char *path = tes_test_tmp_path ("two_cores.json");

  for (int core = 0; core < 2; core++)
    g_string_append_printf (json,
                            "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %d, \"args\": {\"name\": \"core%d_Performance_TimeLine\"}}, "
                            "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %d, \"tid\": 0, \"args\": {\"name\": \"core%d_layer_timeline\"}}, ",
                            core, core, core, core);
  for (guint i = 0; i < G_N_ELEMENTS (layers); i++)
    g_string_append_printf (json,
                            "%s{\"name\": \"%s\", \"ph\": \"X\", \"pid\": %d, \"tid\": 0, \"ts\": %d.0, \"dur\": %d.0, "
                            "\"args\": {\"total_cycle\": %d, \"conv_cycle_percent\": 50.0, \"vector_cycle_percent\": 10.0, "
                            "\"dma_load_cycle_percent\": 20.0, \"dma_store_cycle_percent\": 5.0}}",
                            i > 0 ? ", " : "", layers[i].name, layers[i].core, layers[i].ts, layers[i].dur,
                            layers[i].dur * 800);
  g_string_append (json, "]");
  tes_test_write_file (path, json->str, json->len);

  return path;
}
