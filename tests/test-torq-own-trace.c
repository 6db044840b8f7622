/* test-torq-own-trace.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "perfetto_trace.pb-c.h"
#include "tes-test-util.h"
#include "test-torq-own-trace.h"

/* Encoded with the torq-perfetto importer's own compiled proto (see
 * test-torq-own-trace.h). */

const OwnTrack own_tracks[] = {
  { 1, 0, "Host" },
  { 2, 1, "Host Copy" },
  { 3, 1, "Host Program" },
  { 10, 0, "NPU Task Breakdown" },
  { 11, 10, "NSS CFG Tasks (Compile)" },
  { 12, 10, "Slice 0 Tasks" },
  { 20, 0, "Host Profile Overview" },
  { 21, 20, "Metrics" },
};

const OwnSlice own_slices[] = {
  { 2, "Host Copy | @L9C10", NULL, 5000070000, 5000100000 },
  { 2, "Host Copy | tiny/logits", NULL, 5000460000, 5000480000 },
  { 3, "Host Program | @L20C3", "host", 5000400000, 5000495000 },
  { 3, "Nss Start | @L20C3", "host", 5000410000, 5000415000 },
  { 11, "Nss Cfg | Task: 0 | @L3C5", NULL, 5000100000, 5000110000 },
  { 12, "Nss Program | conv2d_0 | @L10C10+@L13C10", "npu", 5000100000, 5000290000 },
  { 12, "WAITING", NULL, 5000290000, 5000290000 },
  { 21, "OVERALL: 380.000\xc2\xb5s", "overview", 5000500000, 5000500000 },
  { 21, "HAL total: 300.000\xc2\xb5s (78.95%)", "overview", 5000500000, 5000500000 },
  { 21, "DMA total: 90.000\xc2\xb5s (23.68%)", "overview", 5000500000, 5000500000 },
  { 21, "HOST COPY total: 50.000\xc2\xb5s (13.16%)", "overview", 5000500000, 5000500000 },
  { 21, "IDLE: 0ns (0.00%)", "overview", 5000500000, 5000500000 },
};

/* sent as interned strings (InternedData of the one packet sequence) */
#define OWN_INTERNED_NAME "WAITING"
#define OWN_INTERNED_CATEGORY "npu"
#define OWN_SEQUENCE 1

/* one instant on the Host track */
#define OWN_INSTANT_TS G_GINT64_CONSTANT (5000050000)

typedef struct
{
  gint64 ts;
  gint   phase;      /* 0 an end, 1 a zero-length slice or the instant, 2 a begin */
  gint64 order;      /* within a phase: ends inner first, begins outer first */
  gint   slice;      /* index in own_slices, -1: the instant */
} OwnEvent;

static int
compare_own_events (gconstpointer a,
                    gconstpointer b)
{
  const OwnEvent *ea = a;
  const OwnEvent *eb = b;

  if (ea->ts != eb->ts)
    return ea->ts < eb->ts ? -1 : 1;
  if (ea->phase != eb->phase)
    return ea->phase - eb->phase;
  if (ea->order != eb->order)
    return ea->order < eb->order ? -1 : 1;
  return ea->slice - eb->slice;
}

/* Appends one Trace.packet field (tag 0x0a, varint length, bytes). */
static void
append_packet (GByteArray                          *trace,
               const Perfetto__Protos__TracePacket *packet)
{
  gsize len = perfetto__protos__trace_packet__get_packed_size (packet);
  g_autofree guint8 *bytes = g_malloc (MAX (len, 1));
  guint8 tag = 0x0a;
  guint64 v = len;

  perfetto__protos__trace_packet__pack (packet, bytes);
  g_byte_array_append (trace, &tag, 1);
  do
    {
      guint8 b = (v & 0x7f) | (v > 0x7f ? 0x80 : 0);

      g_byte_array_append (trace, &b, 1);
      v >>= 7;
    }
  while (v != 0);
  g_byte_array_append (trace, bytes, len);
}

static void
append_event (GByteArray *trace,
              gint64      ts,
              guint64     track_uuid,
              int         type,
              const char *name,
              const char *category)
{
  Perfetto__Protos__TracePacket packet = PERFETTO__PROTOS__TRACE_PACKET__INIT;
  Perfetto__Protos__TrackEvent event = PERFETTO__PROTOS__TRACK_EVENT__INIT;
  Perfetto__Protos__DebugAnnotation task = PERFETTO__PROTOS__DEBUG_ANNOTATION__INIT;
  Perfetto__Protos__DebugAnnotation kernel = PERFETTO__PROTOS__DEBUG_ANNOTATION__INIT;
  Perfetto__Protos__DebugAnnotation *annotations[] = { &task, &kernel };
  uint64_t category_iid = 1;
  char *categories[] = { (char *)category };

  packet.has_timestamp = TRUE;
  packet.timestamp = (uint64_t)ts;
  packet.has_trusted_packet_sequence_id = TRUE;
  packet.trusted_packet_sequence_id = OWN_SEQUENCE;
  packet.track_event = &event;
  event.has_type = TRUE;
  event.type = type;
  event.has_track_uuid = TRUE;
  event.track_uuid = track_uuid;

  if (g_strcmp0 (name, OWN_INTERNED_NAME) == 0)
    {
      event.has_name_iid = TRUE;
      event.name_iid = 1;
    }
  else
    event.name = (char *)name;
  if (g_strcmp0 (category, OWN_INTERNED_CATEGORY) == 0)
    {
      event.n_category_iids = 1;
      event.category_iids = &category_iid;
    }
  else if (category != NULL)
    {
      event.n_categories = 1;
      event.categories = categories;
    }

  /* the NPU program carries debug annotations */
  if (name != NULL && g_str_has_prefix (name, "Nss Program"))
    {
      task.name = (char *)"task";
      task.has_int_value = TRUE;
      task.int_value = 4;
      kernel.name = (char *)"kernel";
      kernel.string_value = (char *)"conv2d_0";
      event.n_debug_annotations = G_N_ELEMENTS (annotations);
      event.debug_annotations = annotations;
    }

  append_packet (trace, &packet);
}

/* Writes our trace to a scratch file host_trace.pb and returns its path. */
char *
write_own_trace (void)
{
  g_autoptr(GByteArray) trace = g_byte_array_new ();
  g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (OwnEvent));
  char *path = tes_test_tmp_path ("host_trace.pb");

  for (guint i = 0; i < G_N_ELEMENTS (own_tracks); i++)
    {
      Perfetto__Protos__TracePacket packet = PERFETTO__PROTOS__TRACE_PACKET__INIT;
      Perfetto__Protos__TrackDescriptor td = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
      Perfetto__Protos__InternedData interned = PERFETTO__PROTOS__INTERNED_DATA__INIT;
      Perfetto__Protos__EventName name = PERFETTO__PROTOS__EVENT_NAME__INIT;
      Perfetto__Protos__EventCategory category = PERFETTO__PROTOS__EVENT_CATEGORY__INIT;
      Perfetto__Protos__EventName *names[] = { &name };
      Perfetto__Protos__EventCategory *categories[] = { &category };

      packet.has_trusted_packet_sequence_id = TRUE;
      packet.trusted_packet_sequence_id = OWN_SEQUENCE;
      packet.track_descriptor = &td;
      td.has_uuid = TRUE;
      td.uuid = own_tracks[i].uuid;
      td.name = (char *)own_tracks[i].name;
      if (own_tracks[i].parent_uuid != 0)
        {
          td.has_parent_uuid = TRUE;
          td.parent_uuid = own_tracks[i].parent_uuid;
        }

      /* the first packet starts the sequence and interns its strings */
      if (i == 0)
        {
          packet.has_incremental_state_cleared = TRUE;
          packet.incremental_state_cleared = TRUE;
          packet.interned_data = &interned;
          name.has_iid = TRUE;
          name.iid = 1;
          name.name = (char *)OWN_INTERNED_NAME;
          category.has_iid = TRUE;
          category.iid = 1;
          category.name = (char *)OWN_INTERNED_CATEGORY;
          interned.n_event_names = 1;
          interned.event_names = names;
          interned.n_event_categories = 1;
          interned.event_categories = categories;
        }
      append_packet (trace, &packet);
    }

  /* begins and ends in time order, nesting kept */
  for (guint i = 0; i < G_N_ELEMENTS (own_slices); i++)
    {
      const OwnSlice *s = &own_slices[i];

      if (s->start == s->end)
        g_array_append_val (events, ((OwnEvent) { s->start, 1, 0, (gint)i }));
      else
        {
          g_array_append_val (events, ((OwnEvent) { s->start, 2, -s->end, (gint)i }));
          g_array_append_val (events, ((OwnEvent) { s->end, 0, -s->start, (gint)i }));
        }
    }
  g_array_append_val (events, ((OwnEvent) { OWN_INSTANT_TS, 1, 0, -1 }));
  g_array_sort (events, compare_own_events);

  for (guint i = 0; i < events->len; i++)
    {
      const OwnEvent *e = &g_array_index (events, OwnEvent, i);
      const OwnSlice *s = e->slice >= 0 ? &own_slices[e->slice] : NULL;

      if (s == NULL)
        append_event (trace, e->ts, 1, PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT, "inference start", NULL);
      else if (e->phase == 1 || e->phase == 2)
        append_event (trace, s->start, s->track_uuid, PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN,
                      s->name, s->category);
      if (s != NULL && (e->phase == 0 || e->phase == 1))
        append_event (trace, s->end, s->track_uuid, PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END, NULL, NULL);
    }

  tes_test_write_file (path, (const char *)trace->data, trace->len);
  return path;
}

