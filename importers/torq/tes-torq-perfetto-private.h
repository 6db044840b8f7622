/* tes-torq-perfetto-private.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "perfetto_trace.pb-c.h"
#include "tes-importer.h"

G_BEGIN_DECLS

/* The Perfetto importer reads the framing of the trace and decodes its
 * packets one at a time (tes-torq-perfetto-importer.c); what they hold,
 * tracks and their events, becomes rows in tes-torq-perfetto-tracks.c. */

typedef struct
{
  TesImportContext *context;
  TesCacheWriter   *writer;
  gint64            clock;
  GHashTable       *tracks;       /* guint64* uuid -> its track */
  GPtrArray        *order;        /* the tracks, in descriptor order */
  GHashTable       *waiting;      /* guint64* parent uuid -> the tracks waiting for it */
  GHashTable       *sequences;    /* uint seq id -> its interned names */
  gint64            last_ts;
  guint             packet_no;
  gsize             packet_offset;
  /* counts */
  guint             n_descriptors;
  guint             n_events;
  guint             n_slices;
  guint             n_instants;
  guint             n_counters;
  guint             n_unmatched_ends;
  guint             n_no_timestamp;
  guint             n_other_types;
  guint             n_unresolved_iids;
  guint             n_operators;
  guint             n_overview_info;
} TesTorqPerfettoTrace;

void     tes_torq_perfetto_trace_init       (TesTorqPerfettoTrace                 *trace,
                                             TesImportContext                     *context);
void     tes_torq_perfetto_trace_clear      (TesTorqPerfettoTrace                 *trace);
gboolean tes_torq_perfetto_trace_add_packet (TesTorqPerfettoTrace                 *trace,
                                             const Perfetto__Protos__TracePacket  *packet,
                                             GError                              **error);
void     tes_torq_perfetto_trace_finish     (TesTorqPerfettoTrace                 *trace);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TesTorqPerfettoTrace, tes_torq_perfetto_trace_clear)

G_END_DECLS
