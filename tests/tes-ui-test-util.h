/* tes-ui-test-util.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "tes-bsp-section.h"
#include "tes-summary-section.h"
#include "tes-tiles-section.h"
#include "tes-trace-view.h"
#include "tes-window.h"

G_BEGIN_DECLS

/* What the window tests share: cases in subprocesses with a deadline,
 * waiting on the main loop, finding widgets, and real pixels. */

#define TES_UI_TEST_WAIT_SECONDS 20

void            tes_ui_test_init                 (int           *argc,
                                                  char        ***argv);
void            tes_ui_test_add                  (const char    *path,
                                                  GTestFunc      func);
int             tes_ui_test_run                  (void);

typedef gboolean (*TesUiTestDone) (gpointer data);

gboolean        tes_ui_test_wake_cb              (gpointer       data);
void            tes_ui_test_wait_until           (TesUiTestDone  done,
                                                  gpointer       data,
                                                  const char    *what);
void            tes_ui_test_wait_longer_until    (TesUiTestDone  done,
                                                  gpointer       data,
                                                  const char    *what,
                                                  guint          times);
void            tes_ui_test_wait_for_page        (TesWindow     *window,
                                                  const char    *page);
GPtrArray      *tes_ui_test_wait_for_balances    (TesTilesSection *section);
GPtrArray      *tes_ui_test_wait_for_ipus        (TesBspSection *section);
void            tes_ui_test_wait_for_summary     (TesSummarySection *section);
void            tes_ui_test_spin                 (guint          ms);
void            tes_ui_test_wait_for_stable_size (GtkWidget     *widget);
gboolean        tes_ui_test_press_key_controller (GtkWidget     *widget,
                                                  guint          keyval);
GPtrArray      *tes_ui_test_find_widgets         (TesWindow     *window,
                                                  GType          type);
const char     *tes_ui_test_find_value_for_key   (TesWindow     *window,
                                                  const char    *key);
gboolean        tes_ui_test_has_label_containing (TesWindow     *window,
                                                  const char    *needle);
const TesTraceFrame *tes_ui_test_trace_frame     (TesTraceView  *view);
void            tes_ui_test_wait_for_frames      (GtkWidget     *widget);
TesWindow      *tes_ui_test_open_window          (const char    *path,
                                                  const char    *format);
void            tes_ui_test_close_window         (TesWindow     *window);

/* A widget drawn as the window draws it, in memory (cairo's ARGB32:
 * premultiplied B, G, R, A bytes on little-endian machines). */
typedef struct
{
  GdkTexture *texture;
  guchar     *data;
  gsize       stride;
  int         width;
  int         height;
} TesPixels;

void            tes_pixels_clear                 (TesPixels     *pixels);
void            tes_ui_test_render               (GtkWidget     *widget,
                                                  TesPixels     *pixels);
void            tes_ui_test_render_now           (GtkWidget     *widget,
                                                  TesPixels     *pixels);
const guchar   *tes_ui_test_pixel_at             (const TesPixels *pixels,
                                                  int            x,
                                                  int            y);
gboolean        tes_ui_test_pixel_is_color       (const guchar  *p,
                                                  const GdkRGBA *color);
guint           tes_ui_test_count_inked          (const TesPixels *pixels,
                                                  int            x0,
                                                  int            y0,
                                                  int            x1,
                                                  int            y1);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TesPixels, tes_pixels_clear)

G_END_DECLS
