/* tes-ui-test-util.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <locale.h>
#include <string.h>

#include "tes-malloc.h"
#include "tes-ui-test-util.h"

/* Each case runs in a subprocess with a deadline: a main loop that never
 * gets where it should fails the case instead of hanging the suite. */
#define TES_UI_TEST_CASE_SECONDS 30


gboolean
tes_ui_test_wake_cb (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* Spins the main loop until done says so; fails the case, naming what it
 * waited for, after TES_UI_TEST_WAIT_SECONDS. */
void
tes_ui_test_wait_until (TesUiTestDone  done,
                        gpointer       data,
                        const char    *what)
{
  tes_ui_test_wait_longer_until (done, data, what, 1);
}

/* As tes_ui_test_wait_until (), with times the time: for work that takes
 * a few imports and a computation over both. */
void
tes_ui_test_wait_longer_until (TesUiTestDone  done,
                               gpointer       data,
                               const char    *what,
                               guint          times)
{
  gint64 deadline = g_get_monotonic_time () + (gint64)times * TES_UI_TEST_WAIT_SECONDS * G_USEC_PER_SEC;
  guint wake = g_timeout_add (10, tes_ui_test_wake_cb, NULL);

  while (!done (data))
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("Timed out waiting for %s", what);
      g_main_context_iteration (NULL, TRUE);
    }

  g_source_remove (wake);
}

typedef struct
{
  TesWindow  *window;
  const char *page;
} PageWait;

static gboolean
page_shown (gpointer data)
{
  PageWait *wait = data;

  return g_strcmp0 (tes_window_get_page (wait->window), wait->page) == 0;
}

/* Spins the main loop until the window shows page. */
void
tes_ui_test_wait_for_page (TesWindow  *window,
                           const char *page)
{
  PageWait wait = { window, page };
  g_autofree char *what = g_strdup_printf ("page '%s'", page);

  tes_ui_test_wait_until (page_shown, &wait, what);
}

static gboolean
balances_ready (gpointer data)
{
  return tes_tiles_section_get_balances (data) != NULL && !tes_tiles_section_get_updating (data);
}

/* Tile Balance's balances for the range asked for, once worked out (in a
 * thread). */
GPtrArray *
tes_ui_test_wait_for_balances (TesTilesSection *section)
{
  tes_ui_test_wait_until (balances_ready, section, "the tiles' balance");

  return tes_tiles_section_get_balances (section);
}

static gboolean
ipus_loaded (gpointer data)
{
  return tes_bsp_section_get_ipus (data) != NULL;
}

/* The BSP section's IPUs, once their steps are loaded. */
GPtrArray *
tes_ui_test_wait_for_ipus (TesBspSection *section)
{
  tes_ui_test_wait_until (ipus_loaded, section, "the BSP steps");

  return tes_bsp_section_get_ipus (section);
}

static gboolean
summary_loaded (gpointer data)
{
  return !tes_summary_section_is_loading (data);
}

/* The Summary section once its tables came from its worker. */
void
tes_ui_test_wait_for_summary (TesSummarySection *section)
{
  tes_ui_test_wait_until (summary_loaded, section, "the summary");
}

void
tes_ui_test_spin (guint ms)
{
  gint64 until = g_get_monotonic_time () + ms * 1000;
  guint wake = g_timeout_add (10, tes_ui_test_wake_cb, NULL);

  while (g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, TRUE);

  g_source_remove (wake);
}

/* Sends @keyval to @widget's own key controller (the trace's arrows,
 * which are not shortcuts), as GTK would with the focus there; whether it
 * took the key. What the key starts is not waited for. */
gboolean
tes_ui_test_press_key_controller (GtkWidget *widget,
                                  guint      keyval)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);
      gboolean handled = FALSE;

      if (!GTK_IS_EVENT_CONTROLLER_KEY (controller))
        continue;
      g_signal_emit_by_name (controller, "key-pressed", keyval, 0, (GdkModifierType)0, &handled);
      return handled;
    }

  g_error ("A %s takes no keys", G_OBJECT_TYPE_NAME (widget));
}

/* Waits until @widget has drawn at a size that no longer changes: a window
 * grows to its content's minimum after its first frames. */
void
tes_ui_test_wait_for_stable_size (GtkWidget *widget)
{
  gint64 deadline = g_get_monotonic_time () + TES_UI_TEST_WAIT_SECONDS * G_USEC_PER_SEC;
  int width = -1, height = -1;

  while (width != gtk_widget_get_width (widget) || height != gtk_widget_get_height (widget))
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("Timed out waiting for a %s to keep its size", G_OBJECT_TYPE_NAME (widget));
      width = gtk_widget_get_width (widget);
      height = gtk_widget_get_height (widget);
      gtk_widget_queue_draw (widget);
      gtk_test_widget_wait_for_draw (widget);
      tes_ui_test_spin (100);
    }
}

static void
collect_widgets (GtkWidget *widget,
                 GType      type,
                 GPtrArray *found)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    g_ptr_array_add (found, widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_widgets (child, type, found);
}

/* The trace builds its frames in a thread: the frame of what @view shows
 * now, once built (the main loop runs meanwhile). */
const TesTraceFrame *
tes_ui_test_trace_frame (TesTraceView *view)
{
  gint64 deadline = g_get_monotonic_time () + TES_UI_TEST_WAIT_SECONDS * G_USEC_PER_SEC;
  guint wake = g_timeout_add (5, tes_ui_test_wake_cb, NULL);

  while (tes_trace_view_is_frame_pending (view))
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("Timed out waiting for the trace's frame");
      g_main_context_iteration (NULL, TRUE);
    }
  g_source_remove (wake);

  return tes_trace_view_get_frame (view);
}

/* Every trace view in @widget with the frame of what it shows now. */
void
tes_ui_test_wait_for_frames (GtkWidget *widget)
{
  g_autoptr(GPtrArray) views = g_ptr_array_new ();

  collect_widgets (widget, TES_TYPE_TRACE_VIEW, views);
  for (guint i = 0; i < views->len; i++)
    if (gtk_widget_get_width (g_ptr_array_index (views, i)) > 0)
      tes_ui_test_trace_frame (g_ptr_array_index (views, i));
}

GPtrArray *
tes_ui_test_find_widgets (TesWindow *window,
                          GType      type)
{
  GPtrArray *found = g_ptr_array_new ();

  collect_widgets (GTK_WIDGET (window), type, found);

  return found;
}

/* The label right after the one reading key: a value in the info grid. */
const char *
tes_ui_test_find_value_for_key (TesWindow  *window,
                                const char *key)
{
  g_autoptr(GPtrArray) labels = tes_ui_test_find_widgets (window, GTK_TYPE_LABEL);

  for (guint i = 0; i + 1 < labels->len; i++)
    if (g_str_equal (gtk_label_get_text (g_ptr_array_index (labels, i)), key))
      return gtk_label_get_text (g_ptr_array_index (labels, i + 1));

  return NULL;
}

gboolean
tes_ui_test_has_label_containing (TesWindow  *window,
                                  const char *needle)
{
  g_autoptr(GPtrArray) labels = tes_ui_test_find_widgets (window, GTK_TYPE_LABEL);

  for (guint i = 0; i < labels->len; i++)
    {
      GtkWidget *label = g_ptr_array_index (labels, i);

      if (gtk_widget_is_visible (label) &&
          strstr (gtk_label_get_text (GTK_LABEL (label)), needle) != NULL)
        return TRUE;
    }

  return FALSE;
}

TesWindow *
tes_ui_test_open_window (const char *path,
                         const char *format)
{
  TesWindow *window = g_object_ref (tes_window_new (NULL));
  g_autoptr(GFile) file = g_file_new_for_path (path);

  gtk_window_present (GTK_WINDOW (window));
  tes_window_open (window, file, format);

  return window;
}

void
tes_ui_test_close_window (TesWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_finalize_object (window);
}

void
tes_pixels_clear (TesPixels *pixels)
{
  g_clear_object (&pixels->texture);
  g_clear_pointer (&pixels->data, g_free);
}


/* Draws widget as the window does, into memory (cairo's ARGB32:
 * premultiplied B, G, R, A bytes on little-endian machines), once the
 * trace's frames of what it shows are built. */
void
tes_ui_test_render (GtkWidget *widget,
                    TesPixels *pixels)
{
  /* the trace's frames drawn, not the last ones */
  tes_ui_test_wait_for_frames (widget);
  tes_ui_test_render_now (widget, pixels);
}

/* The same as it is now, frames still being built or not. */
void
tes_ui_test_render_now (GtkWidget *widget,
                        TesPixels *pixels)
{
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  GtkSnapshot *snapshot;
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));

  gtk_test_widget_wait_for_draw (widget);
  paintable = gtk_widget_paintable_new (widget);
  snapshot = gtk_snapshot_new ();
  pixels->width = gtk_widget_get_width (widget);
  pixels->height = gtk_widget_get_height (widget);
  g_assert_cmpint (pixels->width, >, 0);
  g_assert_cmpint (pixels->height, >, 0);

  gdk_paintable_snapshot (paintable, snapshot, pixels->width, pixels->height);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);

  pixels->texture = gsk_renderer_render_texture (renderer, node,
                                                 &GRAPHENE_RECT_INIT (0, 0, pixels->width, pixels->height));
  g_assert_cmpint (gdk_texture_get_width (pixels->texture), ==, pixels->width);

  pixels->stride = pixels->width * 4;
  pixels->data = g_malloc (pixels->stride * pixels->height);
  gdk_texture_download (pixels->texture, pixels->data, pixels->stride);
}

const guchar *
tes_ui_test_pixel_at (const TesPixels *pixels,
                      int           x,
                      int           y)
{
  g_assert_cmpint (x, >=, 0);
  g_assert_cmpint (y, >=, 0);
  g_assert_cmpint (x, <, pixels->width);
  g_assert_cmpint (y, <, pixels->height);

  return pixels->data + y * pixels->stride + x * 4;
}

gboolean
tes_ui_test_pixel_is_color (const guchar  *p,
                            const GdkRGBA *color)
{
  return p[3] == 255 &&
         ABS (p[2] - (int)(color->red * 255 + 0.5)) <= 2 &&
         ABS (p[1] - (int)(color->green * 255 + 0.5)) <= 2 &&
         ABS (p[0] - (int)(color->blue * 255 + 0.5)) <= 2;
}

guint
tes_ui_test_count_inked (const TesPixels *pixels,
                         int           x0,
                         int           y0,
                         int           x1,
                         int           y1)
{
  guint n = 0;

  for (int y = MAX (y0, 0); y < MIN (y1, pixels->height); y++)
    for (int x = MAX (x0, 0); x < MIN (x1, pixels->width); x++)
      n += tes_ui_test_pixel_at (pixels, x, y)[3] > 128;

  return n;
}

/* GTK 4.8 sometimes measures a label of its own (in the shortcuts window,
 * under load) below zero, warns, clamps it to 0 and carries on; that
 * warning alone must not fail a case. Everything else stays fatal. */
static gboolean
is_gtk_label_size_noise (const char *domain,
                         const char *message)
{
  return g_strcmp0 (domain, "Gtk") == 0 && message != NULL &&
         g_str_has_prefix (message, "GtkLabel ") &&
         strstr (message, " reported min width -") != NULL &&
         g_str_has_suffix (message, ", but sizes must be >= 0");
}

static GLogWriterOutput
tes_ui_test_log_writer (GLogLevelFlags   log_level,
                        const GLogField *fields,
                        gsize            n_fields,
                        gpointer         user_data)
{
  const char *domain = NULL;
  const char *message = NULL;

  for (gsize i = 0; i < n_fields; i++)
    {
      if (g_str_equal (fields[i].key, "GLIB_DOMAIN") && fields[i].length < 0)
        domain = fields[i].value;
      else if (g_str_equal (fields[i].key, "MESSAGE") && fields[i].length < 0)
        message = fields[i].value;
    }

  if ((log_level & G_LOG_LEVEL_WARNING) && is_gtk_label_size_noise (domain, message))
    return G_LOG_WRITER_HANDLED;

  return g_log_writer_default (log_level, fields, n_fields, user_data);
}

/* the same for warnings through g_log(), which decides on fatality first */
static gboolean
tes_ui_test_fatal_handler (const char     *domain,
                           GLogLevelFlags  log_level,
                           const char     *message,
                           gpointer        user_data)
{
  return !is_gtk_label_size_noise (domain, message);
}

/* The MIME database of the system, found before the dirs are isolated */
static char **system_mime_dirs;

static void
run_case (gconstpointer data)
{
  GTestFunc func = (GTestFunc)data;

  if (g_test_subprocess ())
    {
      /* GTK's own icons are SVG, which gdk-pixbuf recognises through the
       * MIME database: let it see the system's, nothing else of it. */
      g_content_type_set_mime_dirs ((const char * const *)system_mime_dirs);
      g_test_log_set_fatal_handler (tes_ui_test_fatal_handler, NULL);
      func ();
      return;
    }

  g_test_trap_subprocess (NULL, TES_UI_TEST_CASE_SECONDS * G_USEC_PER_SEC,
                          G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

void
tes_ui_test_add (const char *path,
                 GTestFunc   func)
{
  g_test_add_data_func (path, (gconstpointer)func, run_case);
}


/* Window tests run GTK in isolated dirs, each case in a subprocess. */
void
tes_ui_test_init (int    *argc,
                  char ***argv)
{
  /* Cases run in subprocesses, which inherit the isolated dirs: hand the
   * system's on to them. */
  if (!g_getenv ("TES_TEST_SYSTEM_DATA_DIRS"))
    {
      g_autofree char *joined = g_strjoinv (":", (char **)g_get_system_data_dirs ());
      g_setenv ("TES_TEST_SYSTEM_DATA_DIRS", joined, TRUE);
    }
  system_mime_dirs = g_strsplit (g_getenv ("TES_TEST_SYSTEM_DATA_DIRS"), ":", -1);
  for (guint i = 0; system_mime_dirs[i] != NULL; i++)
    {
      char *dir = g_build_filename (system_mime_dirs[i], "mime", NULL);

      g_free (system_mime_dirs[i]);
      system_mime_dirs[i] = dir;
    }

  /* what the window's program does first */
  tes_malloc_keep_freed ();

  /* gtk_test_init() calls g_test_init() without options, which would drop
   * G_TEST_OPTION_ISOLATE_DIRS; do what it does by hand. No accessibility
   * bus under Xvfb: GTK's test backend keeps what widgets tell assistive
   * technologies, for gtk_test_accessible_*() to check. */
  g_log_set_writer_func (tes_ui_test_log_writer, NULL, NULL);
  g_test_init (argc, argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_setenv ("GTK_A11Y", "test", TRUE);
  gtk_disable_setlocale ();
  setlocale (LC_ALL, "C.UTF-8");
  gtk_init ();
}

int
tes_ui_test_run (void)
{
  int status = g_test_run ();

  g_strfreev (system_mime_dirs);

  return status;
}
