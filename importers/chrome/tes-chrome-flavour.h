/* tes-chrome-flavour.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-chrome-builder-private.h"

G_BEGIN_DECLS

/* A vendor's flavour of Chrome JSON: how the builder tells it from the
 * trace, and what it adds to or changes in the generic mapping. The
 * builder tries the flavours in the order of tes_chrome_flavours; a trace
 * none of them claims is generic. Every hook may be NULL. */
struct _TesChromeFlavour
{
  const char   *title;              /* info "flavour" */

  /* Telling it: whether one of the first events' args look like this
   * flavour's (an event counts for the first flavour that claims it),
   * then whether the trace is this flavour, given how many of the
   * n_sampled events it claimed. */
  gboolean      (*claims_args)     (const char              *args,
                                    gsize                    len);
  gboolean      (*detect)          (TesChromeBuilder        *b,
                                    guint                    n_claimed,
                                    guint                    n_sampled);

  /* Before the tracks: its state (b->flavour_data) and, for a flavour
   * that counts cycles, the clock (b->mhz and b->clock_source). */
  void          (*prepare)         (TesChromeBuilder        *b);

  /* Tracks: its own before the processes' (it returns how many, they
   * come first), a process's kind (an IPU's with its number in ipu,
   * which starts at -1), a thread's track made by the flavour (TRUE)
   * instead of the builder. */
  guint         (*add_tracks)      (TesChromeBuilder        *b);
  TesTrackKind  (*process_kind)    (TesChromeBuilder        *b,
                                    TesChromeMergedProcess  *mp,
                                    gint                    *ipu);
  gboolean      (*thread_track)    (TesChromeBuilder        *b,
                                    TesChromeMergedThread   *mt,
                                    gint64                   parent,
                                    gint64                   sort_index,
                                    const char              *native_id);

  /* Rows: a thread's slices written by the flavour instead of the
   * builder (its parts loaded whole), one slice's start, duration and
   * category changed before the builder writes it (args: its args_len
   * bytes of args text), and rows of its own once every thread's slices
   * are written and once every row is. */
  void          (*write_thread)    (TesChromeBuilder        *b,
                                    TesChromeMergedThread   *mt);
  void          (*slice)           (TesChromeBuilder        *b,
                                    TesChromeMergedThread   *mt,
                                    TesChromePart           *part,
                                    const TesChromeSlice    *slice,
                                    const char              *args,
                                    gint64                  *start,
                                    gint64                  *dur,
                                    guint32                 *category);
  /* the track a slice goes to, asked right after slice() (kineto:
   * a stream's annotations beside the stream); NULL: the thread's */
  gint64        (*slice_track)     (TesChromeBuilder        *b,
                                    TesChromeMergedThread   *mt);
  void          (*threads_written) (TesChromeBuilder        *b);
  void          (*rows_written)    (TesChromeBuilder        *b);
};

guint tes_chrome_flavour_claim (const char *args,
                                gsize       len);

/* tes-chrome-kernels.c: an operator's kernels, summed by name (gid),
 * first launched first, for the framework flavours */
typedef struct
{
  guint32 name;
  gint64  count;
  gint64  total;
} TesChromeKernelSum;

typedef struct
{
  GArray     *sums;       /* TesChromeKernelSum */
  GHashTable *index;      /* name gid -> index + 1; NULL while there are few */
} TesChromeKernels;

void tes_chrome_kernels_init        (TesChromeKernels       *k);
void tes_chrome_kernels_clear       (TesChromeKernels       *k);
void tes_chrome_kernels_add         (TesChromeKernels       *k,
                                     guint32                 name,
                                     gint64                  dur);
/* v in decimal, as "%" G_GINT64_FORMAT prints it, without printf */
void tes_chrome_append_int          (GString                *out,
                                     gint64                  v);
/* ns as milliseconds to the µs, half away from zero ("1.235 ms") */
void tes_chrome_append_ms           (GString                *out,
                                     gint64                  ns);
/* "; kernels: <name> ×<count> <ms>, …" for the heaviest three (longest
 * first, then by name; names cut at 60 characters), ", N more" */
void tes_chrome_kernels_append_text (TesChromeBuilder       *b,
                                     const TesChromeKernels *k,
                                     GString                *out);
/* [{"name":…,"count":…,"device_ns":…},…] in launch order */
void tes_chrome_kernels_append_json (TesChromeBuilder       *b,
                                     const TesChromeKernels *k,
                                     GString                *out);

/* tes-chrome-flavour-sigmastar.c: SigmaStar performance_timeline.py */
extern const TesChromeFlavour tes_chrome_flavour_sigmastar;
/* tes-chrome-flavour-qaic.c: Qualcomm qaic-opstats traces */
extern const TesChromeFlavour tes_chrome_flavour_qaic;
/* tes-chrome-flavour-poplar.c: Graphcore Poplar tile execution traces */
extern const TesChromeFlavour tes_chrome_flavour_poplar;
/* tes-chrome-flavour-kineto.c: PyTorch profiler (Kineto) traces */
extern const TesChromeFlavour tes_chrome_flavour_kineto;
/* tes-chrome-flavour-onnxruntime.c: ONNX Runtime profiles */
extern const TesChromeFlavour tes_chrome_flavour_onnxruntime;
/* tes-chrome-flavour-tensorflow.c: TensorFlow's profiler (TensorBoard's
 * trace viewer JSON) and TF1's client.timeline */
extern const TesChromeFlavour tes_chrome_flavour_tensorflow;
extern const TesChromeFlavour tes_chrome_flavour_tf_timeline;
/* The rest */
extern const TesChromeFlavour tes_chrome_flavour_generic;

G_END_DECLS
