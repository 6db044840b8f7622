/* tes-torq-perfetto-tracks.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-torq-perfetto"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "tes-import-error.h"
#include "tes-info.h"
#include "tes-json.h"
#include "tes-text.h"
#include "tes-torq-perfetto-private.h"
#include "tes-torq-util.h"

#include <math.h>
#include <string.h>

/* What a Perfetto trace's packets hold: TrackDescriptors become tracks
 * (parent_uuid -> parent track; no parent: a process), SLICE_BEGIN and
 * SLICE_END pairs slices on their track's stack, INSTANT events instants,
 * COUNTER events counter values, all in ns on the host clock; names and
 * categories interned per packet sequence are resolved. The "Host Profile
 * Overview" process of a Torq trace holds one slice per metric, named
 * "<metric>: <duration> (<percent>%)": those also become operator rows. */

typedef Perfetto__Protos__TracePacket     TracePacket;
typedef Perfetto__Protos__TrackDescriptor TrackDescriptor;
typedef Perfetto__Protos__TrackEvent      TrackEvent;

#define OVERVIEW_PROCESS "Host Profile Overview"

typedef struct
{
  GHashTable *names;        /* guint64* iid -> char* */
  GHashTable *categories;
  GHashTable *annotations;
} Sequence;

typedef struct
{
  gint64   ts;
  char    *name;
  guint32  category;
  char    *args;
} OpenSlice;

static void
open_slice_clear (gpointer data)
{
  OpenSlice *open = data;

  g_free (open->name);
  g_free (open->args);
}

typedef struct _Track Track;
struct _Track
{
  guint64       uuid;
  guint64       parent_uuid;   /* 0: none */
  char         *name;
  TesTrackKind  kind;
  guint         order;
  gint64        track_id;      /* 0 until created */
  gboolean      overview;      /* a child of the "Host Profile Overview" process */
  GArray       *open;          /* OpenSlice stack */
  GArray       *pending;       /* Event, seen before the track was created */
};

typedef struct
{
  gint64   ts;
  guint64  uuid;
  gint     type;
  char    *name;
  guint32  category;
  char    *args;
  double   value;
} Event;

static void
event_clear (gpointer data)
{
  Event *event = data;

  g_clear_pointer (&event->name, g_free);
  g_clear_pointer (&event->args, g_free);
}

static void
track_free (gpointer data)
{
  Track *track = data;

  g_free (track->name);
  g_clear_pointer (&track->open, g_array_unref);
  g_clear_pointer (&track->pending, g_array_unref);
  g_free (track);
}

static GHashTable *
iid_table_new (void)
{
  return g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
}

static void
sequence_free (gpointer data)
{
  Sequence *seq = data;

  g_hash_table_unref (seq->names);
  g_hash_table_unref (seq->categories);
  g_hash_table_unref (seq->annotations);
  g_free (seq);
}

static char *
lookup_iid (TesTorqPerfettoTrace *imp,
            GHashTable           *table,
            guint64               iid)
{
  const char *text = table ? g_hash_table_lookup (table, &iid) : NULL;

  if (text != NULL)
    return g_strdup (text);

  imp->n_unresolved_iids++;
  return g_strdup_printf ("iid %" G_GUINT64_FORMAT, iid);
}

static Sequence *
get_sequence (TesTorqPerfettoTrace *imp,
              guint                 id)
{
  Sequence *seq = g_hash_table_lookup (imp->sequences, GUINT_TO_POINTER (id));

  if (seq == NULL)
    {
      seq = g_new0 (Sequence, 1);
      seq->names = iid_table_new ();
      seq->categories = iid_table_new ();
      seq->annotations = iid_table_new ();
      g_hash_table_insert (imp->sequences, GUINT_TO_POINTER (id), seq);
    }

  return seq;
}

static char *
valid_text (const char *text)
{
  if (text == NULL)
    return NULL;
  if (g_utf8_validate (text, -1, NULL))
    return g_strdup (text);
  return g_utf8_make_valid (text, -1);
}

static void
intern (GHashTable *table,
        guint64     iid,
        const char *name)
{
  if (name != NULL)
    g_hash_table_insert (table, g_memdup2 (&iid, sizeof iid), valid_text (name));
}

static void
apply_interned (Sequence                             *seq,
                const Perfetto__Protos__InternedData *data)
{
  for (gsize i = 0; i < data->n_event_categories; i++)
    intern (seq->categories, data->event_categories[i]->iid, data->event_categories[i]->name);
  for (gsize i = 0; i < data->n_event_names; i++)
    intern (seq->names, data->event_names[i]->iid, data->event_names[i]->name);
  for (gsize i = 0; i < data->n_debug_annotation_names; i++)
    intern (seq->annotations, data->debug_annotation_names[i]->iid, data->debug_annotation_names[i]->name);
}

/* Source locations in Torq slice names: "Host Copy | @L9C10",
 * "Nss Program | nss_program_0 | @L10C10+@L11C10| Torq Kernels: [...]". */
static void
append_name_locations (GString    *json,
                       const char *name)
{
  g_auto(GStrv) parts = g_strsplit (name, "|", -1);
  g_autoptr(GArray) locs = tes_torq_loc_array_new ();

  for (guint i = 0; parts[i]; i++)
    {
      const char *part = parts[i];
      gsize len = strlen (part);

      tes_strip (&part, &len);
      if (len == 0)
        continue;
      if (!tes_torq_parse_short_loc (part, len, locs))
        tes_torq_parse_mlir_loc (part, len, locs);
    }

  if (locs->len > 0)
    tes_torq_append_locs_json (json, locs);
}

static char *
event_args (TesTorqPerfettoTrace *imp,
            Sequence             *seq,
            const TrackEvent     *te,
            const char           *name)
{
  g_autoptr(GString) json = g_string_new ("{");

  for (gsize i = 0; i < te->n_debug_annotations; i++)
    {
      const Perfetto__Protos__DebugAnnotation *a = te->debug_annotations[i];
      g_autofree char *key = a->name ? valid_text (a->name)
                             : a->has_name_iid ? lookup_iid (imp, seq->annotations, a->name_iid)
                             : g_strdup_printf ("arg %" G_GSIZE_FORMAT, i);

      if (a->string_value != NULL)
        {
          g_autofree char *text = valid_text (a->string_value);

          tes_json_member (json, key, text, -1);
        }
      else if (a->legacy_json_value != NULL)
        {
          g_autofree char *text = valid_text (a->legacy_json_value);

          tes_json_member (json, key, text, -1);
        }
      else
        {
          if (json->len > 1)
            g_string_append_c (json, ',');
          tes_json_append_string (json, key, -1);
          g_string_append_c (json, ':');
          if (a->has_bool_value)
            g_string_append (json, a->bool_value ? "true" : "false");
          else if (a->has_int_value)
            g_string_append_printf (json, "%" G_GINT64_FORMAT, (gint64)a->int_value);
          else if (a->has_uint_value)
            g_string_append_printf (json, "%" G_GUINT64_FORMAT, (guint64)a->uint_value);
          else if (a->has_double_value && isfinite (a->double_value))
            {
              char buf[G_ASCII_DTOSTR_BUF_SIZE];

              g_string_append (json, g_ascii_dtostr (buf, sizeof buf, a->double_value));
            }
          else if (a->has_pointer_value)
            g_string_append_printf (json, "\"0x%" G_GINT64_MODIFIER "x\"", (guint64)a->pointer_value);
          else
            g_string_append (json, "null");
        }
    }

  if (name != NULL)
    append_name_locations (json, name);

  if (json->len == 1)
    return NULL;

  g_string_append_c (json, '}');
  return g_string_free (g_steal_pointer (&json), FALSE);
}

/* "<metric>: <duration>[ (<percent>%)]" on the overview process. */
static void
add_overview_metric (TesTorqPerfettoTrace *imp,
                     const Track          *track,
                     const char           *name)
{
  const char *colon = g_strrstr (name, ": ");
  const char *value;
  gsize value_len;
  double percent;
  gint64 ns;

  if (colon == NULL)
    return;
  value = colon + 2;
  value_len = strlen (value);
  if (!tes_torq_split_percent (value, &value_len, &percent))
    return;
  if (!tes_torq_parse_duration (value, value_len, &ns))
    return;

  {
    g_autofree char *label = g_strndup (name, colon - name);
    g_autofree char *printed = g_strndup (value, value_len);

    if (isnan (percent))
      {
        g_autofree char *key = tes_info_key ("trace.overview.", label);

        tes_cache_writer_set_info (imp->writer, imp->context->source_id, key, printed);
        imp->n_overview_info++;
      }
    else
      {
        g_autoptr(GString) args = g_string_new ("{");
        TesOperatorRow op = TES_OPERATOR_ROW_INIT;

        tes_json_member (args, "printed", printed, -1);
        tes_json_member (args, "track", track->name, -1);
        g_string_append_c (args, '}');

        op.source_id = imp->context->source_id;
        op.name = label;
        op.type = label;
        op.total = ns;
        op.clock_id = imp->clock;
        op.share = percent;
        op.args_json = args->str;
        tes_cache_writer_add_operator (imp->writer, &op);
        imp->n_operators++;
      }
  }
}

static void
add_slice (TesTorqPerfettoTrace *imp,
           Track                *track,
           OpenSlice            *open,
           gint64                end,
           gboolean              unclosed)
{
  tes_cache_writer_add_slice (imp->writer, track->track_id, open->ts, end - open->ts,
                              tes_cache_writer_intern (imp->writer, open->name),
                              open->category,
                              unclosed ? TES_SLICE_FLAG_UNCLOSED : TES_SLICE_FLAG_NONE,
                              open->args, -1);
  imp->n_slices++;

  if (track->overview && !unclosed)
    add_overview_metric (imp, track, open->name);
}

/* Takes over the event's strings. */
static void
process_event (TesTorqPerfettoTrace *imp,
               Track                *track,
               Event                *event)
{
  switch (event->type)
    {
    case PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN:
      {
        OpenSlice open = { event->ts, g_steal_pointer (&event->name), event->category,
                           g_steal_pointer (&event->args) };

        g_array_append_val (track->open, open);
      }
      break;

    case PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END:
      if (track->open->len == 0)
        imp->n_unmatched_ends++;
      else
        {
          OpenSlice *open = &g_array_index (track->open, OpenSlice, track->open->len - 1);

          add_slice (imp, track, open, event->ts, FALSE);
          g_array_set_size (track->open, track->open->len - 1);
        }
      break;

    case PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT:
      tes_cache_writer_add_instant (imp->writer, track->track_id, event->ts,
                                    tes_cache_writer_intern (imp->writer, event->name),
                                    event->category, TES_INSTANT_SCOPE_THREAD, event->args);
      imp->n_instants++;
      break;

    case PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_COUNTER:
      tes_cache_writer_add_counter_value (imp->writer, track->track_id, event->ts, event->value);
      imp->n_counters++;
      break;

    default:
      imp->n_other_types++;
      break;
    }

  event_clear (event);
}

static void create_track (TesTorqPerfettoTrace *imp,
                          Track  *track,
                          gint64  parent_id);

static void
create_track (TesTorqPerfettoTrace *imp,
              Track                *track,
              gint64                parent_id)
{
  GPtrArray *children;
  Track *parent = track->parent_uuid ? g_hash_table_lookup (imp->tracks, &track->parent_uuid) : NULL;

  track->overview = parent != NULL && parent->track_id != 0 && parent->parent_uuid == 0 &&
                    g_strcmp0 (parent->name, OVERVIEW_PROCESS) == 0;
  {
    g_autofree char *native = g_strdup_printf ("%" G_GUINT64_FORMAT, track->uuid);

    track->track_id = tes_cache_writer_add_track (imp->writer, parent_id, imp->context->source_id, imp->clock,
                                                  track->kind, track->name, track->order, native);
  }

  if (track->pending != NULL)
    {
      for (guint i = 0; i < track->pending->len; i++)
        process_event (imp, track, &g_array_index (track->pending, Event, i));
      g_clear_pointer (&track->pending, g_array_unref);
    }

  /* children whose descriptors came first */
  if ((children = g_hash_table_lookup (imp->waiting, &track->uuid)) != NULL)
    {
      g_autoptr(GPtrArray) list = g_ptr_array_ref (children);

      g_hash_table_remove (imp->waiting, &track->uuid);
      for (guint i = 0; i < list->len; i++)
        create_track (imp, g_ptr_array_index (list, i), track->track_id);
    }
}

static Track *
track_new (guint64 uuid)
{
  Track *track = g_new0 (Track, 1);

  track->uuid = uuid;
  track->open = g_array_new (FALSE, TRUE, sizeof (OpenSlice));
  g_array_set_clear_func (track->open, open_slice_clear);
  return track;
}

static void
add_descriptor (TesTorqPerfettoTrace  *imp,
                const TrackDescriptor *td)
{
  guint64 uuid = td->has_uuid ? td->uuid : 0;
  Track *track = g_hash_table_lookup (imp->tracks, &uuid);
  Track *parent;

  imp->n_descriptors++;

  /* descriptors are re-emitted when incremental state is cleared */
  if (track != NULL && track->name != NULL)
    return;

  if (track == NULL)
    {
      track = track_new (uuid);
      g_hash_table_insert (imp->tracks, &track->uuid, track);
    }

  track->order = imp->order->len;
  g_ptr_array_add (imp->order, track);
  track->parent_uuid = td->has_parent_uuid ? td->parent_uuid : 0;
  if (td->name != NULL)
    track->name = valid_text (td->name);
  else if (td->static_name != NULL)
    track->name = valid_text (td->static_name);
  else if (td->process != NULL && td->process->process_name != NULL)
    track->name = valid_text (td->process->process_name);
  else if (td->thread != NULL && td->thread->thread_name != NULL)
    track->name = valid_text (td->thread->thread_name);
  else if (td->process != NULL && td->process->has_pid)
    track->name = g_strdup_printf ("Process %d", td->process->pid);
  else if (td->thread != NULL && td->thread->has_tid)
    track->name = g_strdup_printf ("Thread %d", td->thread->tid);
  else
    track->name = g_strdup_printf ("Track %" G_GUINT64_FORMAT, uuid);

  if (td->counter != NULL)
    track->kind = TES_TRACK_COUNTER;
  else if (td->thread != NULL)
    track->kind = TES_TRACK_THREAD;
  else if (td->process != NULL || track->parent_uuid == 0)
    track->kind = TES_TRACK_PROCESS;
  else
    track->kind = TES_TRACK_THREAD;

  if (track->parent_uuid == 0)
    create_track (imp, track, 0);
  else if ((parent = g_hash_table_lookup (imp->tracks, &track->parent_uuid)) != NULL && parent->track_id != 0)
    create_track (imp, track, parent->track_id);
  else
    {
      GPtrArray *list = g_hash_table_lookup (imp->waiting, &track->parent_uuid);

      if (list == NULL)
        {
          list = g_ptr_array_new ();
          g_hash_table_insert (imp->waiting, g_memdup2 (&track->parent_uuid, sizeof (guint64)), list);
        }
      g_ptr_array_add (list, track);
    }
}

static gboolean
add_event (TesTorqPerfettoTrace  *imp,
           Sequence              *seq,
           const TracePacket     *packet,
           GError               **error)
{
  const TrackEvent *te = packet->track_event;
  guint64 uuid = te->has_track_uuid ? te->track_uuid : 0;
  Track *track;
  Event event = { 0 };

  imp->n_events++;

  if (!packet->has_timestamp)
    {
      imp->n_no_timestamp++;
      return TRUE;
    }
  if (packet->has_timestamp_clock_id && packet->timestamp_clock_id >= 64)
    return tes_import_fail (error, TES_IMPORT_ERROR_UNSUPPORTED, imp->context->path,
                            _("packet %u (byte %" "zu" "): timestamps in sequence clock %u "
                              "(incremental timestamps) are not supported"),
                            imp->packet_no, imp->packet_offset, packet->timestamp_clock_id);
  if (packet->timestamp > (guint64)G_MAXINT64)
    return tes_import_fail (error, TES_IMPORT_ERROR_INVALID, imp->context->path,
                            _("packet %u (byte %" "zu" "): timestamp %" PRIu64 " out of range"),
                            imp->packet_no, imp->packet_offset, (guint64)packet->timestamp);

  event.ts = (gint64)packet->timestamp;
  event.uuid = uuid;
  event.type = te->has_type ? (gint)te->type : 0;
  imp->last_ts = MAX (imp->last_ts, event.ts);

  if (event.type == PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN ||
      event.type == PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT)
    {
      g_autoptr(GString) cats = g_string_new (NULL);

      if (te->name != NULL)
        event.name = valid_text (te->name);
      else if (te->has_name_iid)
        event.name = lookup_iid (imp, seq->names, te->name_iid);
      else
        event.name = g_strdup ("");

      for (gsize i = 0; i < te->n_categories; i++)
        {
          g_autofree char *cat = valid_text (te->categories[i]);

          if (cats->len > 0)
            g_string_append_c (cats, ',');
          g_string_append (cats, cat);
        }
      for (gsize i = 0; i < te->n_category_iids; i++)
        {
          g_autofree char *cat = lookup_iid (imp, seq->categories, te->category_iids[i]);

          if (cats->len > 0)
            g_string_append_c (cats, ',');
          g_string_append (cats, cat);
        }
      event.category = cats->len > 0 ? tes_cache_writer_intern (imp->writer, cats->str) : 0;
      event.args = event_args (imp, seq, te, event.name);
    }
  else if (event.type == PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_COUNTER)
    event.value = te->has_double_counter_value ? te->double_counter_value : (double)te->counter_value;

  track = g_hash_table_lookup (imp->tracks, &uuid);
  if (track != NULL && track->track_id != 0)
    process_event (imp, track, &event);
  else
    {
      if (track == NULL)
        {
          track = track_new (uuid);
          g_hash_table_insert (imp->tracks, &track->uuid, track);
        }
      if (track->pending == NULL)
        {
          track->pending = g_array_new (FALSE, TRUE, sizeof (Event));
          g_array_set_clear_func (track->pending, event_clear);
        }
      g_array_append_val (track->pending, event);
    }

  return TRUE;
}

/* ---- the trace --------------------------------------------------------- */

void
tes_torq_perfetto_trace_init (TesTorqPerfettoTrace *imp,
                              TesImportContext     *context)
{
  memset (imp, 0, sizeof *imp);
  imp->context = context;
  imp->writer = context->writer;
  imp->clock = tes_torq_get_clock (context->writer, TES_TORQ_CLOCK_HOST_NS);
  imp->tracks = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, track_free);
  imp->order = g_ptr_array_new ();
  imp->waiting = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify)g_ptr_array_unref);
  imp->sequences = g_hash_table_new_full (NULL, NULL, NULL, sequence_free);
  imp->last_ts = G_MININT64;
}

void
tes_torq_perfetto_trace_clear (TesTorqPerfettoTrace *imp)
{
  g_clear_pointer (&imp->sequences, g_hash_table_unref);
  g_clear_pointer (&imp->waiting, g_hash_table_unref);
  g_clear_pointer (&imp->order, g_ptr_array_unref);
  g_clear_pointer (&imp->tracks, g_hash_table_unref);
}

/* What one packet holds: interned names of its sequence, a track, an
 * event. */
gboolean
tes_torq_perfetto_trace_add_packet (TesTorqPerfettoTrace  *imp,
                                    const TracePacket     *packet,
                                    GError               **error)
{
  Sequence *seq = get_sequence (imp, packet->has_trusted_packet_sequence_id ? packet->trusted_packet_sequence_id : 0);

  if ((packet->has_incremental_state_cleared && packet->incremental_state_cleared) ||
      (packet->has_sequence_flags &&
       (packet->sequence_flags & PERFETTO__PROTOS__TRACE_PACKET__SEQUENCE_FLAGS__SEQ_INCREMENTAL_STATE_CLEARED)))
    {
      g_hash_table_remove_all (seq->names);
      g_hash_table_remove_all (seq->categories);
      g_hash_table_remove_all (seq->annotations);
    }
  if (packet->interned_data != NULL)
    apply_interned (seq, packet->interned_data);

  if (packet->track_descriptor != NULL)
    add_descriptor (imp, packet->track_descriptor);
  if (packet->track_event != NULL && !add_event (imp, seq, packet, error))
    return FALSE;

  return TRUE;
}

/* At the end of the trace: tracks whose parent never came, events on
 * tracks no descriptor defines, slices never ended. */
void
tes_torq_perfetto_trace_finish (TesTorqPerfettoTrace *imp)
{
  g_autoptr(GPtrArray) undescribed = g_ptr_array_new ();
  g_autoptr(GPtrArray) orphans = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer value;
  guint n_unclosed = 0;

  /* descriptors whose parent never came: top level */
  for (guint i = 0; i < imp->order->len; i++)
    {
      Track *track = g_ptr_array_index (imp->order, i);

      if (track->track_id == 0)
        g_ptr_array_add (orphans, track);
    }
  for (guint i = 0; i < orphans->len; i++)
    {
      Track *track = g_ptr_array_index (orphans, i);

      if (track->track_id == 0)
        {
          tes_torq_warn (imp->context, "track '%s' (uuid %" G_GUINT64_FORMAT ") names parent uuid %"
                         G_GUINT64_FORMAT ", which no descriptor defines; shown at the top level",
                         track->name, track->uuid, track->parent_uuid);
          track->kind = TES_TRACK_PROCESS;
          g_hash_table_remove (imp->waiting, &track->parent_uuid);
          create_track (imp, track, 0);
        }
    }

  /* events on tracks no descriptor defines (uuid 0: the trace's global
   * default track) */
  g_hash_table_iter_init (&iter, imp->tracks);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (((Track *)value)->track_id == 0)
      g_ptr_array_add (undescribed, value);
  for (guint i = 0; i < undescribed->len; i++)
    {
      Track *track = g_ptr_array_index (undescribed, i);

      track->name = track->uuid == 0 ? g_strdup ("Default track")
                                     : g_strdup_printf ("Track %" G_GUINT64_FORMAT, track->uuid);
      track->kind = TES_TRACK_PROCESS;
      track->order = imp->order->len;
      g_ptr_array_add (imp->order, track);
      if (track->uuid != 0)
        tes_torq_warn (imp->context, "events on track uuid %" G_GUINT64_FORMAT ", which no descriptor defines",
                       track->uuid);
      create_track (imp, track, 0);
    }

  /* slices begun but not ended: closed at the end of the trace */
  for (guint i = 0; i < imp->order->len; i++)
    {
      Track *track = g_ptr_array_index (imp->order, i);

      while (track->open->len > 0)
        {
          OpenSlice *open = &g_array_index (track->open, OpenSlice, track->open->len - 1);

          add_slice (imp, track, open, MAX (imp->last_ts, open->ts), TRUE);
          g_array_set_size (track->open, track->open->len - 1);
          n_unclosed++;
        }
    }

  if (n_unclosed > 0)
    tes_torq_warn (imp->context, "%u slice(s) begun but never ended, closed at the end of the trace", n_unclosed);
  if (imp->n_unmatched_ends > 0)
    tes_torq_warn (imp->context, "%u slice end(s) without a begin on their track, skipped", imp->n_unmatched_ends);
  if (imp->n_no_timestamp > 0)
    tes_torq_warn (imp->context, "%u track event(s) without a timestamp, skipped", imp->n_no_timestamp);
  if (imp->n_other_types > 0)
    tes_torq_warn (imp->context, "%u track event(s) of an unknown type, skipped", imp->n_other_types);
  if (imp->n_unresolved_iids > 0)
    tes_torq_warn (imp->context, "%u interned name(s) not defined on their packet sequence", imp->n_unresolved_iids);
}

