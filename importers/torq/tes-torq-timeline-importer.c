/* tes-torq-timeline-importer.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-torq-timeline"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tes-import-error.h"
#include "tes-info.h"
#include "tes-json.h"
#include "tes-line-reader.h"
#include "tes-text.h"
#include "tes-torq-timeline-importer.h"
#include "tes-torq-util.h"

#include <string.h>

/* The compile-time profile torq-compile writes with
 * --torq-enable-profiling (--torq-dump-profiling=trace.csv; ProfilingPass).
 * Two layouts, told apart by content:
 *
 *   v1 (tag 'initial', the one the user manual documents), no header:
 *     DI<i>,<start>,<end>,<location>,DMA_IN
 *     DO<i>,<start>,<end>,<location>,DMA_OUT
 *     S<i>,<start>,<end>,<location>,<op name>
 *   v2 (main), header "taskId, elapsed_time(us), timestamp(us), event,
 *     location, bytes"; the "(us)" columns hold the duration and the start
 *     in cycles; rows grouped by kind:
 *     <task>,<cycles>,<start cycle>,<event>,<location>,<bytes or empty>
 *
 * Locations are printed MLIR locations, unquoted, and may hold commas
 * (loc(fused[..., ...])), so a row is read field by field with the
 * location taken as one balanced loc(...). Values are cycles of the
 * compile clock (100 MHz, 10 ns a cycle, as the Torq tools convert them). */

struct _TesTorqTimelineImporter
{
  TesImporter parent_instance;
};

G_DEFINE_FINAL_TYPE (TesTorqTimelineImporter, tes_torq_timeline_importer, TES_TYPE_IMPORTER)

static const char * const v2_header[] = {
  "taskId", "elapsed_time(us)", "timestamp(us)", "event", "location", "bytes",
};

typedef enum
{
  LAYOUT_NONE,
  LAYOUT_V1,
  LAYOUT_V2,
} Layout;

/* Takes the next comma-terminated field from *pos. */
static gboolean
next_field (const char  *line,
            gsize        len,
            gsize       *pos,
            const char **field,
            gsize       *field_len)
{
  const char *comma;

  if (*pos > len)
    return FALSE;

  *field = line + *pos;
  comma = memchr (*field, ',', len - *pos);
  *field_len = comma ? (gsize)(comma - *field) : len - *pos;
  *pos += *field_len + 1;

  return comma != NULL;
}

typedef struct
{
  char    kind;           /* 'I' DMA in, 'O' DMA out, 'S' slice */
  char    id[24];
  gint64  start;
  gint64  end;
  const char *loc;
  gsize   loc_len;
  const char *op;
  gsize   op_len;
} V1Row;

/* NULL on success, else what is wrong. */
static const char *
parse_v1 (const char *line,
          gsize       len,
          V1Row      *row)
{
  const char *f;
  gsize fl;
  gsize pos = 0;
  gint64 index;

  row->kind = 0;
  if (!next_field (line, len, &pos, &f, &fl))
    return N_("expected 5 columns (ID, Start, End, Location, Op Type)");
  tes_strip (&f, &fl);
  if (fl >= 3 && f[0] == 'D' && (f[1] == 'I' || f[1] == 'O') && tes_torq_parse_int (f + 2, fl - 2, &index) && index >= 0)
    row->kind = f[1];
  else if (fl >= 2 && f[0] == 'S' && tes_torq_parse_int (f + 1, fl - 1, &index) && index >= 0)
    row->kind = 'S';
  else
    return N_("ID is not DI<n>, DO<n> or S<n>");
  if (fl >= sizeof row->id)
    return N_("ID is too long");
  memcpy (row->id, f, fl);
  row->id[fl] = '\0';

  if (!next_field (line, len, &pos, &f, &fl))
    return N_("expected 5 columns (ID, Start, End, Location, Op Type)");
  if (!tes_torq_parse_int (f, fl, &row->start) || row->start < 0)
    return N_("Start is not a cycle count");
  if (!next_field (line, len, &pos, &f, &fl))
    return N_("expected 5 columns (ID, Start, End, Location, Op Type)");
  if (!tes_torq_parse_int (f, fl, &row->end) || row->end < 0)
    return N_("End is not a cycle count");
  if (row->end < row->start)
    return N_("End is before Start");

  row->loc = line + pos;
  row->loc_len = pos <= len ? tes_torq_loc_extent (row->loc, len - pos) : 0;
  if (row->loc_len == 0)
    return N_("Location is not an MLIR location loc(...)");
  if (!g_utf8_validate_len (row->loc, row->loc_len, NULL))
    return N_("Location is not UTF-8 text");
  pos += row->loc_len;
  if (pos >= len || line[pos] != ',')
    return N_("expected 5 columns (ID, Start, End, Location, Op Type)");
  pos++;

  row->op = line + pos;
  row->op_len = len - pos;
  tes_strip (&row->op, &row->op_len);
  if (row->op_len == 0)
    return N_("Op Type is empty");
  if (memchr (row->op, ',', row->op_len) != NULL)
    return N_("expected 5 columns (ID, Start, End, Location, Op Type)");
  if (!g_utf8_validate_len (row->op, row->op_len, NULL))
    return N_("Op Type is not UTF-8 text");

  return NULL;
}

typedef struct
{
  gint64      task;
  gint64      dur;
  gint64      start;
  const char *event;
  gsize       event_len;
  const char *loc;
  gsize       loc_len;
  gint64      bytes;      /* -1: empty */
} V2Row;

static const char *
parse_v2 (const char *line,
          gsize       len,
          V2Row      *row)
{
  const char *f;
  gsize fl;
  gsize pos = 0;

  if (!next_field (line, len, &pos, &f, &fl))
    return N_("expected 6 columns (taskId, elapsed_time, timestamp, event, location, bytes)");
  if (!tes_torq_parse_int (f, fl, &row->task) || row->task < 0)
    return N_("taskId is not a number");
  if (!next_field (line, len, &pos, &f, &fl))
    return N_("expected 6 columns (taskId, elapsed_time, timestamp, event, location, bytes)");
  if (!tes_torq_parse_int (f, fl, &row->dur) || row->dur < 0)
    return N_("elapsed_time is not a cycle count");
  if (!next_field (line, len, &pos, &f, &fl))
    return N_("expected 6 columns (taskId, elapsed_time, timestamp, event, location, bytes)");
  if (!tes_torq_parse_int (f, fl, &row->start) || row->start < 0)
    return N_("timestamp is not a cycle count");
  if (row->start > G_MAXINT64 - row->dur)
    return N_("timestamp plus elapsed_time overflows");
  if (!next_field (line, len, &pos, &f, &fl))
    return N_("expected 6 columns (taskId, elapsed_time, timestamp, event, location, bytes)");
  tes_strip (&f, &fl);
  if (fl == 0)
    return N_("event is empty");
  if (!g_utf8_validate_len (f, fl, NULL))
    return N_("event is not UTF-8 text");
  row->event = f;
  row->event_len = fl;

  row->loc = line + pos;
  row->loc_len = pos <= len ? tes_torq_loc_extent (row->loc, len - pos) : 0;
  if (row->loc_len == 0)
    return N_("location is not an MLIR location loc(...)");
  if (!g_utf8_validate_len (row->loc, row->loc_len, NULL))
    return N_("location is not UTF-8 text");
  pos += row->loc_len;
  if (pos >= len || line[pos] != ',')
    return N_("expected 6 columns (taskId, elapsed_time, timestamp, event, location, bytes)");
  pos++;

  f = line + pos;
  fl = len - pos;
  tes_strip (&f, &fl);
  if (fl == 0)
    row->bytes = -1;
  else if (memchr (f, ',', fl) != NULL)
    return N_("expected 6 columns (taskId, elapsed_time, timestamp, event, location, bytes)");
  else if (!tes_torq_parse_int (f, fl, &row->bytes) || row->bytes < 0)
    return N_("bytes is not a byte count");

  return NULL;
}

static guint
tes_torq_timeline_importer_sniff (TesImporter  *importer,
                                  const guint8 *head,
                                  gsize         head_len,
                                  const char   *basename)
{
  TesLineReader reader;
  const char *line;
  gsize len;
  guint rows = 0;
  guint others = 0;
  gboolean first = TRUE;
  gboolean named = basename != NULL && (strstr (basename, "timeline") || strstr (basename, "trace"));

  /* a JSON trace's head is thousands of short lines: never classify them */
  if (tes_head_is_json (head, head_len))
    return 0;

  tes_line_reader_init_for_head (&reader, head, head_len);

  while (tes_line_reader_next (&reader, &line, &len))
    {
      V1Row row;

      if (tes_is_blank (line, len))
        continue;

      if (first && tes_line_has_fields (line, len, v2_header, G_N_ELEMENTS (v2_header)))
        return named ? 100 : 95;
      first = FALSE;

      if (parse_v1 (line, len, &row) == NULL)
        rows++;
      else
        others++;
    }

  if (rows == 0)
    return 0;
  if (others == 0)
    return rows >= 3 ? (named ? 100 : 90) : 60;
  if (rows >= 3 && others * 4 <= rows)
    return 60;

  return 0;
}

typedef struct
{
  TesImportContext *context;
  GPtrArray        *rows;          /* TesTorqRow */
  GHashTable       *lanes;         /* name -> sort index */
  GHashTable       *unknown;       /* events warned about */
  GPtrArray        *v1_slice_ends; /* end of the last row per v1 slice lane */
  gint64            end_cycle;
  gint64            bytes[3];      /* DMA In, DMA Out, CDMA */
  GHashTable       *tasks;
} Import;

static char *
location_args (const char *first_key,
               const char *first_value,
               gint64      task,
               gint64      bytes,
               const char *loc,
               gsize       loc_len)
{
  g_autoptr(GString) json = g_string_new ("{");
  g_autoptr(GArray) locs = tes_torq_loc_array_new ();

  if (first_key != NULL)
    tes_json_member (json, first_key, first_value, -1);
  if (task >= 0)
    tes_json_member_int (json, "task", task);
  if (bytes >= 0)
    tes_json_member_int (json, "bytes", bytes);
  tes_json_member (json, "location", loc, loc_len);
  if (tes_torq_parse_mlir_loc (loc, loc_len, locs))
    tes_torq_append_locs_json (json, locs);
  g_string_append_c (json, '}');

  return g_string_free (g_steal_pointer (&json), FALSE);
}

static void
add_v1_row (Import      *imp,
            const V1Row *v1)
{
  TesTorqRow row = { 0 };

  row.start = v1->start;
  row.dur = v1->end - v1->start;
  row.name = g_strndup (v1->op, v1->op_len);
  row.args = location_args ("id", v1->id, -1, -1, v1->loc, v1->loc_len);

  if (v1->kind == 'I')
    {
      row.lane = tes_torq_lanes_add_unit (imp->lanes, "DMA In", TES_TORQ_SORT_DMA_IN, NULL);
      row.category = g_strdup ("dma");
    }
  else if (v1->kind == 'O')
    {
      row.lane = tes_torq_lanes_add_unit (imp->lanes, "DMA Out", TES_TORQ_SORT_DMA_OUT, NULL);
      row.category = g_strdup ("dma");
    }
  else
    {
      guint lane;
      g_autofree char *name = NULL;

      /* The old layout does not say which slice ran the op: rows go on
       * a "Slices" lane, the unit "some slice works", overlapping ones
       * onto further lanes below it, which are no units of their own. */
      for (lane = 0; lane < imp->v1_slice_ends->len; lane++)
        if (*(gint64 *)g_ptr_array_index (imp->v1_slice_ends, lane) <= v1->start)
          break;
      if (lane == imp->v1_slice_ends->len)
        g_ptr_array_add (imp->v1_slice_ends, g_new0 (gint64, 1));
      *(gint64 *)g_ptr_array_index (imp->v1_slice_ends, lane) = v1->end;

      name = lane == 0 ? g_strdup ("Slices") : g_strdup_printf ("Slices #%u", lane + 1);
      row.lane = tes_torq_lanes_add_unit (imp->lanes, name, TES_TORQ_SORT_SLICE + lane, lane == 0 ? NULL : "Slices");
      row.category = g_strdup ("slice");
    }

  imp->end_cycle = MAX (imp->end_cycle, v1->end);
  g_ptr_array_add (imp->rows, g_memdup2 (&row, sizeof row));
}

static void
add_v2_row (Import      *imp,
            const V2Row *v2)
{
  g_autofree char *event = g_strndup (v2->event, v2->event_len);
  TesTorqRow row = { 0 };
  gint64 slice;

  row.start = v2->start;
  row.dur = v2->dur;
  row.args = location_args (NULL, NULL, v2->task, v2->bytes, v2->loc, v2->loc_len);

  if (g_str_equal (event, "DMA In"))
    {
      row.lane = tes_torq_lanes_add_unit (imp->lanes, "DMA In", TES_TORQ_SORT_DMA_IN, NULL);
      row.category = g_strdup ("dma");
      imp->bytes[0] += MAX (v2->bytes, 0);
    }
  else if (g_str_equal (event, "DMA Out"))
    {
      row.lane = tes_torq_lanes_add_unit (imp->lanes, "DMA Out", TES_TORQ_SORT_DMA_OUT, NULL);
      row.category = g_strdup ("dma");
      imp->bytes[1] += MAX (v2->bytes, 0);
    }
  else if (g_str_has_prefix (event, "CDMA"))
    {
      /* its three directions are one engine's */
      row.lane = tes_torq_lanes_add_unit (imp->lanes, "CDMA", TES_TORQ_SORT_CDMA, NULL);
      row.category = g_strdup ("cdma");
      imp->bytes[2] += MAX (v2->bytes, 0);
    }
  else if (g_str_has_prefix (event, "Slice ") &&
           tes_torq_parse_int (event + 6, strlen (event + 6), &slice) && slice >= 0 && slice < 64)
    {
      row.lane = tes_torq_lanes_add_unit (imp->lanes, event, TES_TORQ_SORT_SLICE + slice, NULL);
      row.category = g_strdup ("slice");
    }
  else if (g_str_equal (event, "CSS"))
    {
      row.lane = tes_torq_lanes_add_unit (imp->lanes, "CSS", TES_TORQ_SORT_CSS, NULL);
      row.category = g_strdup ("css");
    }
  else
    {
      /* A kind of row newer than this importer: kept on its own lane,
       * not counted as a unit (what ran it is unknown). */
      if (!g_hash_table_contains (imp->unknown, event))
        {
          g_hash_table_add (imp->unknown, g_strdup (event));
          tes_torq_warn (imp->context, "unknown event '%s' kept on a lane of its own", event);
        }
      row.lane = tes_torq_lanes_add (imp->lanes, event, TES_TORQ_SORT_OTHER + g_hash_table_size (imp->unknown));
      row.category = g_strdup ("other");
    }

  row.name = g_steal_pointer (&event);
  imp->end_cycle = MAX (imp->end_cycle, v2->start + v2->dur);
  g_hash_table_add (imp->tasks, GSIZE_TO_POINTER ((gsize)v2->task + 1));
  g_ptr_array_add (imp->rows, g_memdup2 (&row, sizeof row));
}

static gboolean
tes_torq_timeline_importer_import (TesImporter       *importer,
                                   TesImportContext  *context,
                                   GError           **error)
{
  g_auto(TesLineReader) reader = { 0 };
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (tes_torq_row_free);
  g_autoptr(GHashTable) lanes = tes_torq_lanes_new ();
  g_autoptr(GHashTable) unknown = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) tasks = g_hash_table_new (NULL, NULL);
  g_autoptr(GPtrArray) slice_ends = g_ptr_array_new_with_free_func (g_free);
  Import imp = { context, rows, lanes, unknown, slice_ends, 0, { 0, 0, 0 }, tasks };
  Layout layout = LAYOUT_NONE;
  const char *line;
  gsize len;
  gint64 clock;
  gint64 process;

  if (!tes_line_reader_init (&reader, context->path, error))
    return FALSE;

  while (tes_line_reader_next (&reader, &line, &len))
    {
      const char *problem;

      if (tes_is_blank (line, len))
        continue;

      if (layout == LAYOUT_NONE && tes_line_has_fields (line, len, v2_header, G_N_ELEMENTS (v2_header)))
        {
          layout = LAYOUT_V2;
          continue;
        }

      if (layout == LAYOUT_V2)
        {
          V2Row v2;

          if ((problem = parse_v2 (line, len, &v2)) == NULL)
            add_v2_row (&imp, &v2);
        }
      else
        {
          V1Row v1;

          if ((problem = parse_v1 (line, len, &v1)) == NULL)
            {
              layout = LAYOUT_V1;
              add_v1_row (&imp, &v1);
            }
          else if (layout == LAYOUT_NONE && v1.kind == 0)
            problem = N_("neither the header 'taskId, elapsed_time(us), timestamp(us), event, location, bytes' "
                      "nor a row 'ID,Start,End,Location,Op Type'");
        }

      if (problem != NULL)
        {
          g_autofree char *got = tes_describe_text (line, len, 80);

          if (layout == LAYOUT_NONE)
            return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, context->path, reader.line_no,
                                            "%s: '%s'", _(problem), got);
          return tes_line_reader_fail_row (&reader, context->path, error, "%s: '%s'", _(problem), got);
        }

      if (!tes_line_reader_tick (&reader, context, 0.8, error))
        return FALSE;
    }

  if (rows->len == 0)
    return tes_import_fail (error, TES_IMPORT_ERROR_EMPTY, context->path, _("no timeline rows (empty file?)"));

  /* the NPU, its engines the lanes */
  process = tes_torq_add_device (context, TES_TORQ_CLOCK_COMPILE_CYCLES, "Compile-time timeline", &clock);

  tes_torq_write_lanes (context, process, clock, lanes, rows);

  {
    TesCacheWriter *w = context->writer;
    gint64 source = context->source_id;

    tes_cache_writer_set_info (w, source, "timeline.layout",
                               layout == LAYOUT_V2
                               ? "v2: taskId, elapsed_time(us), timestamp(us), event, location, bytes (cycles)"
                               : "v1: ID, Start, End, Location, Op Type (cycles, no header)");
    tes_info_set_int (w, source, "timeline.rows", rows->len);
    tes_info_set_int (w, source, "timeline.end_cycle", imp.end_cycle);
    tes_cache_writer_set_info (w, source, "timeline.clock_mhz", "100");

    if (layout == LAYOUT_V2)
      {
        tes_info_set_int (w, source, "timeline.tasks", g_hash_table_size (tasks));
        tes_info_set_int (w, source, "timeline.bytes.dma_in", imp.bytes[0]);
        tes_info_set_int (w, source, "timeline.bytes.dma_out", imp.bytes[1]);
        tes_info_set_int (w, source, "timeline.bytes.cdma", imp.bytes[2]);
      }
  }

  return TRUE;
}

static void
tes_torq_timeline_importer_class_init (TesTorqTimelineImporterClass *klass)
{
  TesImporterClass *importer_class = TES_IMPORTER_CLASS (klass);

  importer_class->name = "torq-timeline";
  importer_class->title = "Synaptics Torq compile-time timeline CSV";
  importer_class->version = 2;   /* 2: engines are units (core tracks) */
  importer_class->sniff = tes_torq_timeline_importer_sniff;
  importer_class->import = tes_torq_timeline_importer_import;
}

static void
tes_torq_timeline_importer_init (TesTorqTimelineImporter *self)
{
}
