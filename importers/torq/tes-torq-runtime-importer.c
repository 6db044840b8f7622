/* tes-torq-runtime-importer.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-torq-runtime"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "tes-import-error.h"
#include "tes-info.h"
#include "tes-json.h"
#include "tes-line-reader.h"
#include "tes-text.h"
#include "tes-torq-runtime-importer.h"
#include "tes-torq-util.h"

#include <string.h>

/* The host runtime profile torq-run-module writes with
 * --torq_profile_host=runtime.csv (runtime/torq_hw TorqEventLog). Two
 * layouts, told apart by their header:
 *
 *   v1 (tag 'initial'): "actionIndex, elapsed_time(us), timestamp(us),
 *     event, location", one row per event, <TYPE>_START (or <TYPE>) and
 *     <TYPE>_END of one action sharing its actionIndex; the location is
 *     the action's printed MLIR location, unquoted (commas and ';').
 *   v2 (main): "dispatch_name,invocation_id,action_id,timestamp_us,event",
 *     <TYPE>_BEGIN / <TYPE>_END pairs properly nested per invocation: the
 *     scopes (INIT, DISPATCH, HAL calls; action_id -1) hold the actions.
 *
 * Every pair becomes one slice on the lane "Host" of the process "Host
 * runtime", in µs of the host's steady_clock; nesting follows the time. */

struct _TesTorqRuntimeImporter
{
  TesImporter parent_instance;
};

G_DEFINE_FINAL_TYPE (TesTorqRuntimeImporter, tes_torq_runtime_importer, TES_TYPE_IMPORTER)

static const char * const v1_header[] = {
  "actionIndex", "elapsed_time(us)", "timestamp(us)", "event", "location",
};

static const char * const v2_header[] = {
  "dispatch_name", "invocation_id", "action_id", "timestamp_us", "event",
};

typedef enum
{
  LAYOUT_NONE,
  LAYOUT_V1,
  LAYOUT_V2,
} Layout;

static Layout
header_layout (const char *line,
               gsize       len)
{
  if (tes_line_has_fields (line, len, v1_header, G_N_ELEMENTS (v1_header)))
    return LAYOUT_V1;
  if (tes_line_has_fields (line, len, v2_header, G_N_ELEMENTS (v2_header)))
    return LAYOUT_V2;

  return LAYOUT_NONE;
}

static gboolean
valid_event (const char *s,
             gsize       len)
{
  if (len == 0)
    return FALSE;

  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isalnum (s[i]) && s[i] != '_')
      return FALSE;

  return TRUE;
}

typedef struct
{
  gint64      action;
  gint64      ts;
  const char *event;
  gsize       event_len;
  const char *loc;
  gsize       loc_len;
} V1Row;

static const char *
parse_v1 (const char *line,
          gsize       len,
          V1Row      *row)
{
  const char *f[4];
  gsize fl[4];
  gint64 elapsed;
  gsize pos = 0;

  /* four plain fields, then the location up to the end of the line */
  for (guint i = 0; i < 4; i++)
    {
      const char *comma = pos < len ? memchr (line + pos, ',', len - pos) : NULL;

      if (comma == NULL)
        return N_("expected 5 columns (actionIndex, elapsed_time, timestamp, event, location)");
      f[i] = line + pos;
      fl[i] = (gsize)(comma - f[i]);
      pos += fl[i] + 1;
    }

  if (!tes_torq_parse_int (f[0], fl[0], &row->action) || row->action < 0)
    return N_("actionIndex is not a number");
  if (!tes_torq_parse_int (f[1], fl[1], &elapsed) || elapsed < 0)
    return N_("elapsed_time is not a number of µs");
  if (!tes_torq_parse_int (f[2], fl[2], &row->ts) || row->ts < 0)
    return N_("timestamp is not a number of µs");
  tes_strip (&f[3], &fl[3]);
  if (!valid_event (f[3], fl[3]))
    return N_("event is not an event name");
  row->event = f[3];
  row->event_len = fl[3];

  row->loc = line + pos;
  row->loc_len = len - pos;
  tes_strip (&row->loc, &row->loc_len);
  if (tes_torq_loc_extent (row->loc, row->loc_len) != row->loc_len)
    return N_("location is not an MLIR location loc(...)");
  if (!g_utf8_validate_len (row->loc, row->loc_len, NULL))
    return N_("location is not UTF-8 text");

  return NULL;
}

typedef struct
{
  const char *dispatch;
  gsize       dispatch_len;
  gint64      invocation;
  gint64      action;
  gint64      ts;
  const char *type;
  gsize       type_len;
  gboolean    begin;
} V2Row;

static const char *
parse_v2 (const char *line,
          gsize       len,
          V2Row      *row)
{
  const char *f[5];
  gsize fl[5];

  if (tes_split_fields (line, len, ',', f, fl, 5) != 5)
    return N_("expected 5 columns (dispatch_name, invocation_id, action_id, timestamp_us, event)");

  if (fl[0] == 0 || !g_utf8_validate_len (f[0], fl[0], NULL))
    return N_("dispatch_name is empty or not UTF-8 text");
  row->dispatch = f[0];
  row->dispatch_len = fl[0];
  if (!tes_torq_parse_int (f[1], fl[1], &row->invocation) || row->invocation < 0)
    return N_("invocation_id is not a number");
  if (!tes_torq_parse_int (f[2], fl[2], &row->action) || row->action < -1)
    return N_("action_id is not a number (or -1)");
  if (!tes_torq_parse_int (f[3], fl[3], &row->ts) || row->ts < 0)
    return N_("timestamp_us is not a number of µs");
  if (!valid_event (f[4], fl[4]))
    return N_("event is not an event name");

  if (fl[4] > 6 && memcmp (f[4] + fl[4] - 6, "_BEGIN", 6) == 0)
    {
      row->begin = TRUE;
      row->type_len = fl[4] - 6;
    }
  else if (fl[4] > 4 && memcmp (f[4] + fl[4] - 4, "_END", 4) == 0)
    {
      row->begin = FALSE;
      row->type_len = fl[4] - 4;
    }
  else
    return N_("event is neither <TYPE>_BEGIN nor <TYPE>_END");
  row->type = f[4];

  return NULL;
}

static guint
tes_torq_runtime_importer_sniff (TesImporter  *importer,
                                 const guint8 *head,
                                 gsize         head_len,
                                 const char   *basename)
{
  TesLineReader reader;
  const char *line;
  gsize len;
  Layout layout = LAYOUT_NONE;
  guint rows = 0;
  guint others = 0;

  tes_line_reader_init_for_head (&reader, head, head_len);

  while (tes_line_reader_next (&reader, &line, &len))
    {
      const char *problem;

      if (tes_is_blank (line, len))
        continue;

      if (layout == LAYOUT_NONE)
        {
          if ((layout = header_layout (line, len)) == LAYOUT_NONE)
            return 0;
          continue;
        }

      if (layout == LAYOUT_V1)
        {
          V1Row row;
          problem = parse_v1 (line, len, &row);
        }
      else
        {
          V2Row row;
          problem = parse_v2 (line, len, &row);
        }

      if (problem == NULL)
        rows++;
      else
        others++;
    }

  /* The header alone is the vendor's exact wording: claimed, so that a
   * damaged file gets an error naming its line. */
  if (layout == LAYOUT_NONE)
    return 0;
  if (others == 0 || rows >= others * 4)
    return 95;

  return 60;
}

/* One BEGIN/END pair. */
typedef struct
{
  gint64   start;
  gint64   end;
  char    *name;
  char    *type;         /* v1: the begin event; v2: the bare type */
  char    *dispatch;     /* v2 */
  gint64   invocation;   /* v2, -1 in v1 */
  gint64   action;       /* -1: a scope */
  char    *location;     /* v1 */
  guint    line;         /* of the begin */
  gboolean closed;
} Span;

static void
span_clear (gpointer data)
{
  Span *span = data;

  g_free (span->name);
  g_free (span->type);
  g_free (span->dispatch);
  g_free (span->location);
}

typedef struct
{
  GArray *open;          /* guint index into spans */
} Stream;

static void
stream_free (gpointer data)
{
  Stream *stream = data;

  g_array_unref (stream->open);
  g_free (stream);
}

typedef struct
{
  TesImportContext *context;
  TesLineReader    *reader;
  GArray           *spans;      /* Span */
  GHashTable       *streams;    /* "dispatch\ninvocation" (v2) or action (v1) -> Stream */
  GPtrArray        *dispatches; /* distinct dispatch names in order */
  GHashTable       *seen_dispatch;
  gint64            last_ts;
  guint             n_events;
} Import;

static Stream *
get_stream (Import     *imp,
            const char *key)
{
  Stream *stream = g_hash_table_lookup (imp->streams, key);

  if (stream == NULL)
    {
      stream = g_new0 (Stream, 1);
      stream->open = g_array_new (FALSE, FALSE, sizeof (guint));
      g_hash_table_insert (imp->streams, g_strdup (key), stream);
    }

  return stream;
}

static gboolean
add_v1_row (Import       *imp,
            const V1Row  *row,
            GError      **error)
{
  g_autofree char *key = g_strdup_printf ("%" G_GINT64_FORMAT, row->action);
  g_autofree char *event = g_strndup (row->event, row->event_len);
  Stream *stream = get_stream (imp, key);

  if (g_str_has_suffix (event, "_END"))
    {
      g_autofree char *type = g_strndup (event, strlen (event) - 4);
      g_autofree char *with_start = g_strconcat (type, "_START", NULL);
      Span *span;

      if (stream->open->len == 0)
        return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, imp->context->path, imp->reader->line_no,
                                        _("%s of action %" PRId64 " was not started"), event, row->action);

      /* <TYPE>_START ... <TYPE>_END, or <TYPE> ... <TYPE>_END (NSS_START
       * ... NSS_START_END); the pair is named <TYPE> */
      span = &g_array_index (imp->spans, Span, g_array_index (stream->open, guint, stream->open->len - 1));
      if (strcmp (span->type, type) != 0 && strcmp (span->type, with_start) != 0)
        return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, imp->context->path, imp->reader->line_no,
                                        _("%s does not end %s of action %" PRId64 " (line %u)"),
                                        event, span->type, row->action, span->line);
      if (row->ts < span->start)
        return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, imp->context->path, imp->reader->line_no,
                                        _("%s at %" PRId64 " µs is before its start at %" PRId64 " µs"),
                                        event, row->ts, span->start);

      g_free (span->name);
      span->name = g_steal_pointer (&type);
      span->end = row->ts;
      span->closed = TRUE;
      g_array_set_size (stream->open, stream->open->len - 1);
    }
  else
    {
      Span span = { 0 };
      guint index = imp->spans->len;

      if (stream->open->len > 0)
        {
          Span *other = &g_array_index (imp->spans, Span, g_array_index (stream->open, guint, 0));

          return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, imp->context->path, imp->reader->line_no,
                                          _("%s of action %" PRId64 " while its %s from line %u is still open"),
                                          event, row->action, other->type, other->line);
        }

      /* named by its end; until then (and if it never ends) by its begin */
      if (g_str_has_suffix (event, "_START"))
        span.name = g_strndup (event, strlen (event) - 6);
      else
        span.name = g_strdup (event);
      span.type = g_steal_pointer (&event);
      span.start = row->ts;
      span.end = row->ts;
      span.invocation = -1;
      span.action = row->action;
      span.location = g_strndup (row->loc, row->loc_len);
      span.line = imp->reader->line_no;
      g_array_append_val (imp->spans, span);
      g_array_append_val (stream->open, index);
    }

  return TRUE;
}

static gboolean
add_v2_row (Import       *imp,
            const V2Row  *row,
            GError      **error)
{
  g_autofree char *dispatch = g_strndup (row->dispatch, row->dispatch_len);
  g_autofree char *type = g_strndup (row->type, row->type_len);
  g_autofree char *key = g_strdup_printf ("%s\n%" G_GINT64_FORMAT, dispatch, row->invocation);
  Stream *stream = get_stream (imp, key);

  if (!g_hash_table_contains (imp->seen_dispatch, dispatch))
    {
      g_hash_table_add (imp->seen_dispatch, g_strdup (dispatch));
      if (!g_str_has_prefix (dispatch, "__"))
        g_ptr_array_add (imp->dispatches, g_strdup (dispatch));
    }

  if (row->begin)
    {
      Span span = { 0 };
      guint index = imp->spans->len;
      gboolean hal = g_str_has_prefix (dispatch, "__");

      /* HAL scopes log generic types (HAL_CALL): qualified with the scope
       * as the Torq annotate script does; a dispatch's outermost scope
       * names the dispatch. */
      if (hal)
        span.name = g_strdup_printf ("%s.%s", dispatch, type);
      else if (stream->open->len == 0)
        span.name = g_strdup_printf ("%s %s", type, dispatch);
      else
        span.name = g_strdup (type);
      span.start = row->ts;
      span.end = row->ts;
      span.dispatch = g_steal_pointer (&dispatch);
      span.invocation = row->invocation;
      span.action = row->action;
      span.type = g_steal_pointer (&type);
      span.line = imp->reader->line_no;
      g_array_append_val (imp->spans, span);
      g_array_append_val (stream->open, index);
    }
  else
    {
      Span *span;

      if (stream->open->len == 0)
        return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, imp->context->path, imp->reader->line_no,
                                        _("%s_END of invocation %" PRId64 " (%s) was not begun"),
                                        type, row->invocation, dispatch);

      span = &g_array_index (imp->spans, Span, g_array_index (stream->open, guint, stream->open->len - 1));
      if (strcmp (span->type, type) != 0 || span->action != row->action)
        return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, imp->context->path, imp->reader->line_no,
                                        _("%s_END (action %" PRId64 ") does not end %s_BEGIN "
                                          "(action %" PRId64 ", line %u), the innermost open event of invocation %" PRId64),
                                        type, row->action, span->type, span->action, span->line, row->invocation);
      if (row->ts < span->start)
        return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, imp->context->path, imp->reader->line_no,
                                        _("%s_END at %" PRId64 " µs is before its begin at %" PRId64 " µs"),
                                        type, row->ts, span->start);

      span->end = row->ts;
      span->closed = TRUE;
      g_array_set_size (stream->open, stream->open->len - 1);
    }

  return TRUE;
}

typedef struct
{
  guint  index;
  gint64 start;
  gint64 dur;
} Order;

static int
compare_order (gconstpointer a,
               gconstpointer b)
{
  const Order *oa = a;
  const Order *ob = b;

  if (oa->start != ob->start)
    return oa->start < ob->start ? -1 : 1;
  if (oa->dur != ob->dur)
    return oa->dur > ob->dur ? -1 : 1;
  return oa->index < ob->index ? -1 : (oa->index > ob->index);
}

/* Whether all spans nest on one lane: none starts inside another and
 * ends after it. */
static gboolean
nests_on_one_lane (GArray *spans)
{
  g_autoptr(GArray) order = g_array_sized_new (FALSE, FALSE, sizeof (Order), spans->len);
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (gint64));

  for (guint i = 0; i < spans->len; i++)
    {
      const Span *span = &g_array_index (spans, Span, i);
      Order o = { i, span->start, span->end - span->start };

      g_array_append_val (order, o);
    }
  g_array_sort (order, compare_order);

  for (guint i = 0; i < order->len; i++)
    {
      const Order *o = &g_array_index (order, Order, i);
      gint64 end = o->start + o->dur;

      while (stack->len > 0 && g_array_index (stack, gint64, stack->len - 1) <= o->start)
        g_array_set_size (stack, stack->len - 1);
      if (stack->len > 0 && end > g_array_index (stack, gint64, stack->len - 1))
        return FALSE;
      g_array_append_val (stack, end);
    }

  return TRUE;
}

static gboolean
tes_torq_runtime_importer_import (TesImporter       *importer,
                                  TesImportContext  *context,
                                  GError           **error)
{
  g_auto(TesLineReader) reader = { 0 };
  g_autoptr(GArray) spans = g_array_new (FALSE, TRUE, sizeof (Span));
  g_autoptr(GHashTable) streams = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, stream_free);
  g_autoptr(GPtrArray) dispatches = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) seen_dispatch = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) lanes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  Import imp = { context, &reader, spans, streams, dispatches, seen_dispatch, G_MININT64, 0 };
  Layout layout = LAYOUT_NONE;
  const char *line;
  gsize len;
  gint64 clock;
  gint64 process;
  gint64 host_lane = 0;
  gboolean one_lane;
  guint n_unclosed = 0;
  guint n_actions = 0;

  g_array_set_clear_func (spans, span_clear);

  if (!tes_line_reader_init (&reader, context->path, error))
    return FALSE;

  while (tes_line_reader_next (&reader, &line, &len))
    {
      const char *problem = NULL;
      gint64 ts = 0;

      if (tes_is_blank (line, len))
        continue;

      if (layout == LAYOUT_NONE)
        {
          if ((layout = header_layout (line, len)) == LAYOUT_NONE)
            {
              g_autofree char *got = tes_describe_text (line, len, 80);

              return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, context->path, reader.line_no,
                                              _("expected the header 'actionIndex, elapsed_time(us), timestamp(us), "
                                                "event, location' or 'dispatch_name,invocation_id,action_id,"
                                                "timestamp_us,event', got '%s'"), got);
            }
          continue;
        }

      if (layout == LAYOUT_V1)
        {
          V1Row row;

          if ((problem = parse_v1 (line, len, &row)) == NULL)
            {
              if (!add_v1_row (&imp, &row, error))
                return FALSE;
              ts = row.ts;
            }
        }
      else
        {
          V2Row row;

          if ((problem = parse_v2 (line, len, &row)) == NULL)
            {
              if (!add_v2_row (&imp, &row, error))
                return FALSE;
              ts = row.ts;
            }
        }

      if (problem != NULL)
        {
          g_autofree char *got = tes_describe_text (line, len, 80);

          return tes_line_reader_fail_row (&reader, context->path, error, "%s: '%s'", _(problem), got);
        }

      imp.last_ts = MAX (imp.last_ts, ts);
      imp.n_events++;

      if (!tes_line_reader_tick (&reader, context, 0.8, error))
        return FALSE;
    }

  if (layout == LAYOUT_NONE)
    return tes_import_fail (error, TES_IMPORT_ERROR_EMPTY, context->path, _("no header and no events (empty file?)"));
  if (spans->len == 0)
    return tes_import_fail (error, TES_IMPORT_ERROR_EMPTY, context->path, _("a header but no events"));

  /* Begun but never ended (the run stopped): closed at the last event. */
  for (guint i = 0; i < spans->len; i++)
    {
      Span *span = &g_array_index (spans, Span, i);

      if (!span->closed)
        {
          span->end = MAX (imp.last_ts, span->start);
          n_unclosed++;
        }
      n_actions += span->action >= 0;
    }
  if (n_unclosed > 0)
    {
      const Span *first = NULL;

      for (guint i = 0; i < spans->len && first == NULL; i++)
        if (!g_array_index (spans, Span, i).closed)
          first = &g_array_index (spans, Span, i);
      tes_torq_warn (context, "%u event(s) begun but never ended (the first on line %u), "
                     "closed at the last timestamp", n_unclosed, first->line);
    }

  one_lane = nests_on_one_lane (spans);
  if (!one_lane)
    tes_torq_warn (context, "events of different invocations overlap without nesting; "
                   "one lane per invocation instead of one for the host");

  process = tes_torq_add_process (context, TES_TORQ_CLOCK_HOST_US, "Host runtime", &clock);
  if (one_lane)
    host_lane = tes_cache_writer_add_track (context->writer, process, context->source_id, clock,
                                            TES_TRACK_THREAD, "Host", 0, "host");

  for (guint i = 0; i < spans->len; i++)
    {
      const Span *span = &g_array_index (spans, Span, i);
      g_autoptr(GString) args = g_string_new ("{");
      gint64 lane = host_lane;

      if (!one_lane)
        {
          g_autofree char *name = g_strdup_printf ("%s #%" G_GINT64_FORMAT, span->dispatch, span->invocation);

          lane = (gint64)GPOINTER_TO_SIZE (g_hash_table_lookup (lanes, name));
          if (lane == 0)
            {
              lane = tes_cache_writer_add_track (context->writer, process, context->source_id, clock,
                                                 TES_TRACK_THREAD, name, g_hash_table_size (lanes), name);
              g_hash_table_insert (lanes, g_steal_pointer (&name), GSIZE_TO_POINTER ((gsize)lane));
            }
        }

      if (layout == LAYOUT_V2)
        {
          tes_json_member (args, "dispatch", span->dispatch, -1);
          tes_json_member_int (args, "invocation", span->invocation);
          if (span->action >= 0)
            tes_json_member_int (args, "action", span->action);
        }
      else
        {
          g_autoptr(GArray) locs = tes_torq_loc_array_new ();

          tes_json_member_int (args, "action", span->action);
          tes_json_member (args, "location", span->location, -1);
          if (tes_torq_parse_mlir_loc (span->location, strlen (span->location), locs))
            tes_torq_append_locs_json (args, locs);
        }
      g_string_append_c (args, '}');

      /* the category is the bare event type: the summary's groups */
      tes_cache_writer_add_slice (context->writer, lane, span->start, span->end - span->start,
                                  tes_cache_writer_intern (context->writer, span->name),
                                  tes_cache_writer_intern (context->writer,
                                                           layout == LAYOUT_V2 ? span->type : span->name),
                                  span->closed ? TES_SLICE_FLAG_NONE : TES_SLICE_FLAG_UNCLOSED,
                                  args->str, (gssize)args->len);
    }

  {
    TesCacheWriter *w = context->writer;
    gint64 source = context->source_id;

    tes_cache_writer_set_info (w, source, "runtime.layout",
                               layout == LAYOUT_V2
                               ? "v2: dispatch_name,invocation_id,action_id,timestamp_us,event"
                               : "v1: actionIndex, elapsed_time(us), timestamp(us), event, location");
    tes_info_set_int (w, source, "runtime.events", imp.n_events);
    tes_info_set_int (w, source, "runtime.spans", spans->len);
    tes_info_set_int (w, source, "runtime.actions", n_actions);

    if (layout == LAYOUT_V2)
      {
        tes_info_set_int (w, source, "runtime.invocations", g_hash_table_size (streams));
        for (guint i = 0; i < dispatches->len; i++)
          {
            g_autofree char *key = g_strdup_printf ("runtime.dispatch.%u", i);

            tes_cache_writer_set_info (w, source, key, g_ptr_array_index (dispatches, i));
          }
      }
  }

  return TRUE;
}

static void
tes_torq_runtime_importer_class_init (TesTorqRuntimeImporterClass *klass)
{
  TesImporterClass *importer_class = TES_IMPORTER_CLASS (klass);

  importer_class->name = "torq-runtime";
  importer_class->title = "Synaptics Torq host runtime profile CSV";
  importer_class->version = 1;
  importer_class->sniff = tes_torq_runtime_importer_sniff;
  importer_class->import = tes_torq_runtime_importer_import;
}

static void
tes_torq_runtime_importer_init (TesTorqRuntimeImporter *self)
{
}
