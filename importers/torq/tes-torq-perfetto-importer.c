/* tes-torq-perfetto-importer.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-torq-perfetto"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tes-import-error.h"
#include "tes-info.h"
#include "tes-torq-perfetto-importer.h"
#include "tes-torq-perfetto-private.h"

#include <string.h>

/* Perfetto protobuf traces (.pb) as the Torq tools write them
 * (scripts/annotate_profiling.py ... out.pb, python/torq/model_profiler/
 * perfetto_logger.py), and TrackEvent traces in general: a Trace is a
 * sequence of TracePacket fields (field 1, length-delimited). Each packet
 * is decoded with protobuf-c from proto/perfetto_trace.proto, a subset of
 * Perfetto's own .proto files compiled at build time; only the framing
 * between packets (tag and length of field 1) is read here, so that a
 * large trace is decoded one packet at a time and an error can name the
 * packet and its byte offset.
 * What the packets hold becomes rows in tes-torq-perfetto-tracks.c. */

struct _TesTorqPerfettoImporter
{
  TesImporter parent_instance;
};

G_DEFINE_FINAL_TYPE (TesTorqPerfettoImporter, tes_torq_perfetto_importer, TES_TYPE_IMPORTER)

typedef Perfetto__Protos__TracePacket     TracePacket;

static void
trace_packet_free (TracePacket *packet)
{
  perfetto__protos__trace_packet__free_unpacked (packet, NULL);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TracePacket, trace_packet_free)

/* ------------------------------------------------------------------------
 * Framing
 * ------------------------------------------------------------------------ */

static gboolean
read_varint (const guint8 *data,
             gsize         len,
             gsize        *pos,
             guint64      *out)
{
  guint64 value = 0;

  for (guint shift = 0; shift < 64; shift += 7)
    {
      guint8 b;

      if (*pos >= len)
        return FALSE;
      b = data[(*pos)++];
      value |= (guint64)(b & 0x7f) << shift;
      if ((b & 0x80) == 0)
        {
          *out = value;
          return TRUE;
        }
    }

  return FALSE;
}

typedef enum
{
  FRAME_PACKET,
  FRAME_END,
  FRAME_TRUNCATED,
  FRAME_NOT_A_PACKET,
} FrameResult;

/* The next packet's bytes at *pos (a Trace's field 1). */
static FrameResult
next_frame (const guint8  *data,
            gsize          len,
            gsize         *pos,
            const guint8 **packet,
            gsize         *packet_len)
{
  guint64 tag;
  guint64 size;

  if (*pos >= len)
    return FRAME_END;
  if (!read_varint (data, len, pos, &tag))
    return FRAME_TRUNCATED;
  if (tag != ((1 << 3) | 2))
    return FRAME_NOT_A_PACKET;
  if (!read_varint (data, len, pos, &size))
    return FRAME_TRUNCATED;
  if (size > len - *pos)
    return FRAME_TRUNCATED;

  *packet = data + *pos;
  *packet_len = (gsize)size;
  *pos += (gsize)size;
  return FRAME_PACKET;
}

static guint
tes_torq_perfetto_importer_sniff (TesImporter  *importer,
                                  const guint8 *head,
                                  gsize         head_len,
                                  const char   *basename)
{
  gsize pos = 0;
  guint packets = 0;
  guint track_packets = 0;
  gboolean named;

  if (head_len < 2 || head[0] != 0x0a)
    return 0;

  while (packets < 32)
    {
      g_autoptr(TracePacket) packet = NULL;
      const guint8 *bytes;
      gsize n;
      FrameResult res = next_frame (head, head_len, &pos, &bytes, &n);

      if (res == FRAME_END || res == FRAME_TRUNCATED)
        break;   /* the head may stop inside a packet */
      if (res == FRAME_NOT_A_PACKET)
        return 0;
      if (!(packet = perfetto__protos__trace_packet__unpack (NULL, n, bytes)))
        return 0;
      packets++;
      if (packet->track_descriptor != NULL || packet->track_event != NULL)
        track_packets++;
    }

  if (packets == 0 || track_packets == 0)
    return 0;

  named = basename != NULL &&
          (g_str_has_suffix (basename, ".pb") || g_str_has_suffix (basename, ".pftrace") ||
           g_str_has_suffix (basename, ".perfetto-trace"));

  return named ? 100 : (track_packets >= 2 ? 90 : 60);
}

static void
set_count (TesTorqPerfettoTrace *imp,
           const char           *key,
           guint                 value)
{
  tes_info_set_int (imp->writer, imp->context->source_id, key, value);
}

static gboolean
tes_torq_perfetto_importer_import (TesImporter       *importer,
                                   TesImportContext  *context,
                                   GError           **error)
{
  g_autoptr(GMappedFile) mapped = NULL;
  g_auto(TesTorqPerfettoTrace) imp = { 0 };
  const guint8 *data;
  gsize len;
  gsize pos = 0;

  if (!(mapped = g_mapped_file_new (context->path, FALSE, error)))
    return FALSE;
  data = (const guint8 *)g_mapped_file_get_contents (mapped);
  len = g_mapped_file_get_length (mapped);

  if (len == 0)
    return tes_import_fail (error, TES_IMPORT_ERROR_EMPTY, context->path, _("empty file"));

  tes_torq_perfetto_trace_init (&imp, context);

  for (;;)
    {
      g_autoptr(TracePacket) packet = NULL;
      const guint8 *bytes;
      gsize n;
      gsize at = pos;
      FrameResult res = next_frame (data, len, &pos, &bytes, &n);

      if (res == FRAME_END)
        break;
      imp.packet_no++;
      imp.packet_offset = at;

      if (res == FRAME_TRUNCATED)
        return tes_import_fail (error, TES_IMPORT_ERROR_TRUNCATED, context->path,
                                _("packet %u (byte %" "zu" "): the file ends inside it"), imp.packet_no, at);
      if (res == FRAME_NOT_A_PACKET)
        return tes_import_fail (error, TES_IMPORT_ERROR_INVALID, context->path,
                                _("byte %" "zu" ": not a Perfetto trace (expected a TracePacket, field 1)"),
                                at);
      if (!(packet = perfetto__protos__trace_packet__unpack (NULL, n, bytes)))
        return tes_import_fail (error, TES_IMPORT_ERROR_INVALID, context->path,
                                _("packet %u (byte %" "zu" ", %" "zu" " bytes): not a valid "
                                  "TracePacket"), imp.packet_no, at, n);

      if (!tes_torq_perfetto_trace_add_packet (&imp, packet, error))
        return FALSE;

      if (context->progress != NULL && (imp.packet_no & 4095) == 0)
        tes_progress_update (context->progress, 0.9 * pos / len, NULL);
      if ((imp.packet_no & 1023) == 0 && g_cancellable_set_error_if_cancelled (context->cancellable, error))
        return FALSE;
    }

  if (imp.n_descriptors == 0 && imp.n_events == 0)
    return tes_import_fail (error, TES_IMPORT_ERROR_EMPTY, context->path,
                            _("%u packet(s), but no tracks and no track events"), imp.packet_no);

  tes_torq_perfetto_trace_finish (&imp);

  set_count (&imp, "trace.packets", imp.packet_no);
  set_count (&imp, "trace.track_descriptors", imp.n_descriptors);
  set_count (&imp, "trace.tracks", imp.order->len);
  set_count (&imp, "trace.track_events", imp.n_events);
  set_count (&imp, "trace.slices", imp.n_slices);
  if (imp.n_instants > 0)
    set_count (&imp, "trace.instants", imp.n_instants);
  if (imp.n_counters > 0)
    set_count (&imp, "trace.counter_values", imp.n_counters);
  set_count (&imp, "trace.sequences",
             g_hash_table_size (imp.sequences) - g_hash_table_contains (imp.sequences, NULL));
  if (imp.n_operators > 0)
    set_count (&imp, "trace.overview.metrics", imp.n_operators);

  return TRUE;
}

static void
tes_torq_perfetto_importer_class_init (TesTorqPerfettoImporterClass *klass)
{
  TesImporterClass *importer_class = TES_IMPORTER_CLASS (klass);

  importer_class->name = "torq-perfetto";
  importer_class->title = "Perfetto protobuf trace (Synaptics Torq host profile)";
  importer_class->version = 1;
  importer_class->sniff = tes_torq_perfetto_importer_sniff;
  importer_class->import = tes_torq_perfetto_importer_import;
}

static void
tes_torq_perfetto_importer_init (TesTorqPerfettoImporter *self)
{
}
