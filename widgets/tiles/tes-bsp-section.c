/* tes-bsp-section.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-bsp-section"

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tes-bsp-section.h"
#include "tes-canvas.h"
#include "tes-bsp-render.h"
#include "tes-painter.h"
#include "tes-tiles-layout.h"

/* BSP: each IPU's tiles (rows) over the trace's visible range (columns),
 * coloured by what they did (compute, exchange, sync or idle) or by their
 * busy cycles. It follows the workspace, so zooming the trace zooms it;
 * + and − magnify the rows, 0 resets; a click, or the arrows and Enter,
 * select a tile's step, in the trace too; the workspace's IPU, tile and
 * step (an Insights finding's, another section's) select their cell.
 * Screen readers get what is in view and the cell selected. */

#define FONT        "Sans 9"
#define INK         0x241f31
#define DIM_INK     0x77767b
#define NO_STEP_RGB 0xf6f5f4
#define MAX_MAGNIFY 64.0

struct _TesBspSection
{
  TesSection      parent_instance;

  GtkToggleButton *by_state;
  GtkToggleButton *by_cycles;
  TesCanvas      *area;
  GtkWidget      *scrollbar;  /* beside area, when magnified */
  GtkAdjustment  *adjustment; /* the scrollbar's: the top of the view, in the magnified picture */
  GPtrArray      *ipus;       /* TesBspIpu, NULL until loaded */
  TesBspFrame    *frame;      /* the last frame's cells, for the next */
  GCancellable   *cancellable;
  double          magnify;
  TesBspColoring  coloring;

  /* the cell the keys move: an IPU (index in ipus), a tile, a step (index
   * in the IPU's spans) */
  gboolean        has_cursor;
  guint           cursor_ipu;
  guint           cursor_tile;
  guint           cursor_step;
  gboolean        writing;    /* the cursor going to the workspace: not back */
  guint           follow_id;  /* the workspace's cell, taken once its setters are done */
};

G_DEFINE_FINAL_TYPE (TesBspSection, tes_bsp_section, TES_TYPE_SECTION)

static const char * const bsp_views[] = { "bsp", "bsp-cycles", NULL };

static void follow_cell            (TesBspSection *self);
static void workspace_cell_changed (TesBspSection *self);

static gboolean
tes_bsp_section_render (TesWorkspace  *workspace,
                        const char    *view,
                        cairo_t       *cr,
                        int            width,
                        int            height,
                        GError       **error)
{
  g_autoptr(GPtrArray) ipus = NULL;

  if (!(ipus = tes_report_get_bsp_ipus (tes_workspace_get_report (workspace), TRUE, error)))
    return FALSE;

  return tes_bsp_render (workspace, ipus, g_strcmp0 (view, "bsp-cycles") == 0 ? TES_BSP_COLOR_CYCLES : TES_BSP_COLOR_STATE,
                         cr, width, height);
}

/* Export View draws the colouring shown. */
static const char *
tes_bsp_section_get_view_name (TesSection *section)
{
  return TES_BSP_SECTION (section)->coloring == TES_BSP_COLOR_CYCLES ? "bsp-cycles" : "bsp";
}

/* The first span ending after @t (spans in time order). */
static guint
span_after (GArray *spans,
            gint64  t)
{
  guint lo = 0, hi = spans->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (spans, TesBspSpan, mid).end <= t)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

/* Where the cursor's cell is drawn: its step's stretch of its tile's row. */
static gboolean
cursor_rect (TesBspSection   *self,
             double           width,
             double           height,
             graphene_rect_t *out)
{
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));
  const TesBspIpu *ipu;
  const TesBspSpan *span;
  graphene_rect_t rect;
  double x0, x1, row;
  guint rows, per_row;
  gint64 t0, t1;

  if (workspace == NULL || self->ipus == NULL || !self->has_cursor)
    return FALSE;

  ipu = g_ptr_array_index (self->ipus, self->cursor_ipu);
  span = &g_array_index (ipu->spans, TesBspSpan, self->cursor_step);
  rect = tes_bsp_heat_rect (self->cursor_ipu, self->ipus->len, width, height);
  tes_workspace_get_visible (workspace, &t0, &t1);
  if (t1 <= t0 || span->end <= t0 || span->start >= t1)
    return FALSE;

  x0 = rect.origin.x + (double)(MAX (span->start, t0) - t0) / (t1 - t0) * rect.size.width;
  x1 = rect.origin.x + (double)(MIN (span->end, t1) - t0) / (t1 - t0) * rect.size.width;
  /* rows as the grid makes them: tiles share one when more than pixels */
  per_row = tes_bsp_tiles_per_row (ipu->n_tiles, (guint)rect.size.height);
  rows = MAX ((ipu->n_tiles + per_row - 1) / per_row, 1);
  row = rect.size.height / rows;
  graphene_rect_init (out, x0 - 1, rect.origin.y + (double)(self->cursor_tile / per_row) * row - 1,
                      MAX (x1 - x0, 1) + 2, row + 2);

  return TRUE;
}

/* The picture's height: the view's, @magnify times (the scrollbar shows
 * the rest). */
static int
picture_height (TesBspSection *self)
{
  return (int)(gtk_widget_get_height (GTK_WIDGET (self->area)) * self->magnify);
}

static void
draw_cb (TesCanvas *area,
         cairo_t   *cr,
         int        width,
         int        view_height,
         gpointer   user_data)
{
  TesBspSection *self = user_data;
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));
  int height = picture_height (self);
  graphene_rect_t cell;

  /* nothing to show yet: transparent, as the canvas does not clear its
   * image (tes_bsp_render_frame () paints every pixel) */
  if (workspace == NULL || self->ipus == NULL)
    {
      cairo_set_operator (cr, CAIRO_OPERATOR_CLEAR);
      cairo_paint (cr);
      return;
    }

  cairo_translate (cr, 0, -floor (gtk_adjustment_get_value (self->adjustment)));
  tes_bsp_render_frame (self->frame, workspace, self->ipus, self->coloring, cr, width, height);
  if (cursor_rect (self, width, height, &cell))
    {
      cairo_set_line_width (cr, 2);
      cairo_set_source_rgb (cr, 0, 0, 0);
      cairo_rectangle (cr, cell.origin.x, cell.origin.y, cell.size.width, cell.size.height);
      cairo_stroke (cr);
      cairo_set_line_width (cr, 1);
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_rectangle (cr, cell.origin.x + 1.5, cell.origin.y + 1.5, MAX (cell.size.width - 3, 0),
                       MAX (cell.size.height - 3, 0));
      cairo_stroke (cr);

      /* its tile named left of its row, over the axis' labels */
      {
        g_autofree char *label = g_strdup_printf (_("tile %u"), self->cursor_tile);
        double y = CLAMP (cell.origin.y + cell.size.height / 2 - 8, 0, height - 16);
        TesPainter p;

        tes_painter_init (&p, cr, FONT);
        cairo_set_source_rgb (cr, 1, 1, 1);
        cairo_rectangle (cr, 0, y, TES_BSP_LABEL_WIDTH - 2, 16);
        cairo_fill (cr);
        tes_painter_text (&p, label, 4, y + 1, TES_BSP_LABEL_WIDTH - 10, PANGO_ALIGN_RIGHT, TRUE, INK);
        tes_painter_clear (&p);
      }
    }
}

/**
 * tes_bsp_section_describe:
 *
 * What the heatmap shows, in words: per IPU its tiles and the steps in
 * view, then the selected cell. Screen readers read it as the
 * heatmap's description.
 *
 * Returns: (transfer full): the text
 */
char *
tes_bsp_section_describe (TesBspSection *self)
{
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));
  g_autoptr(GString) text = g_string_new (NULL);
  gint64 t0, t1;

  g_return_val_if_fail (TES_IS_BSP_SECTION (self), NULL);

  if (workspace == NULL || self->ipus == NULL)
    return g_strdup (_("Loading the BSP steps…"));
  if (self->ipus->len == 0)
    return g_strdup (_("No BSP steps in this report"));

  tes_workspace_get_visible (workspace, &t0, &t1);
  for (guint i = 0; i < self->ipus->len; i++)
    {
      const TesBspIpu *ipu = g_ptr_array_index (self->ipus, i);
      guint first = span_after (ipu->spans, t0), last = first;
      g_autofree char *n_tiles = NULL, *in_view = NULL, *n_steps = NULL;

      while (last < ipu->spans->len && g_array_index (ipu->spans, TesBspSpan, last).start < t1)
        last++;
      n_tiles = tes_format_grouped (ipu->n_tiles);
      in_view = tes_format_grouped (last - first);
      n_steps = tes_format_grouped (ipu->spans->len);
      if (text->len > 0)
        g_string_append (text, "; ");
      /* Translators: an IPU of the BSP heatmap: its number, its tiles, then the steps in view of all it has */
      g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "IPU %d: %s tiles, %s of %s step in view",
                                                 "IPU %d: %s tiles, %s of %s steps in view", ipu->spans->len),
                              ipu->ipu, n_tiles, in_view, n_steps);
    }

  if (self->has_cursor)
    {
      const TesBspIpu *ipu = g_ptr_array_index (self->ipus, self->cursor_ipu);
      const TesBspStep *step = g_ptr_array_index (ipu->steps, self->cursor_step);
      const TesBspSpan *span = &g_array_index (ipu->spans, TesBspSpan, self->cursor_step);
      TesTileState state = self->cursor_tile < span->n_tiles ? MIN (span->tile_states[self->cursor_tile],
                                                                     TES_TILE_STATE_SYNC)
                                                             : TES_TILE_STATE_IDLE;
      g_autofree char *cycles = tes_format_grouped (self->cursor_tile < span->n_tiles && state != TES_TILE_STATE_IDLE
                                                    ? span->tile_cycles[self->cursor_tile] : 0);
      g_autofree char *step_cycles = tes_format_grouped (span->dur_cycles);

      /* Translators: the selected cell: IPU, tile, BSP step, the tile's state, its busy cycles and the step's */
      g_string_append_printf (text, _(". Selected: IPU %d, tile %u, step %" PRId64 ": %s, %s of %s cycles"),
                              ipu->ipu, self->cursor_tile, step->step, tes_tile_state_name (state), cycles,
                              step_cycles);
    }
  g_string_append_c (text, '.');

  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
update_description (TesBspSection *self)
{
  g_autofree char *text = tes_bsp_section_describe (self);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self->area), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}

static void
visible_changed (TesBspSection *self)
{
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
}

/* + and − make the picture taller than the view: the scrollbar's range
 * follows the view's height, whenever that changes (never set from a
 * frame). */
static void
configure_scroll (TesBspSection *self)
{
  double view = gtk_widget_get_height (GTK_WIDGET (self->area));
  double all = view * self->magnify;

  gtk_adjustment_configure (self->adjustment, CLAMP (gtk_adjustment_get_value (self->adjustment), 0, MAX (all - view, 0)),
                            0, all, 24, MAX (view * 0.9, 1), view);
  gtk_widget_set_visible (self->scrollbar, self->magnify > 1);
}

static void
area_resized (TesBspSection *self,
              int            width,
              int            height)
{
  configure_scroll (self);
}

static void
scroll_changed (TesBspSection *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
}

/* The wheel over the magnified heatmap moves it, as over its scrollbar. */
static gboolean
wheel_cb (TesBspSection *self,
          double         dx,
          double         dy)
{
  if (self->magnify <= 1 || dy == 0)
    return FALSE;

  gtk_adjustment_set_value (self->adjustment, gtk_adjustment_get_value (self->adjustment) +
                                              dy * gtk_adjustment_get_page_size (self->adjustment) / 8);
  return TRUE;
}

/* @user_data: the section, alive unless the load was cancelled */
static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  TesBspSection *self;
  GPtrArray *ipus;

  if (!(ipus = tes_bsp_load_ipus_finish (TES_REPORT (object), result, &error)))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("Cannot read the BSP steps: %s", error->message);
      return;
    }

  self = TES_BSP_SECTION (user_data);
  g_clear_pointer (&self->ipus, g_ptr_array_unref);
  self->ipus = ipus;
  /* the last frame's cells were other steps' */
  tes_bsp_frame_free (self->frame);
  self->frame = tes_bsp_frame_new ();
  self->has_cursor = FALSE;
  follow_cell (self);
  visible_changed (self);
}

static gboolean
tes_bsp_section_has_data (TesWorkspace *workspace)
{
  TesReportCounts counts;

  tes_report_get_counts (tes_workspace_get_report (workspace), &counts);

  return counts.n_bsp_steps > 0;
}

static void
tes_bsp_section_workspace_changed (TesSection   *section,
                                   TesWorkspace *old_workspace)
{
  TesBspSection *self = (TesBspSection *)section;
  TesWorkspace *workspace = tes_section_get_workspace (section);

  if (old_workspace != NULL)
    g_signal_handlers_disconnect_by_data (old_workspace, self);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->ipus, g_ptr_array_unref);

  if (workspace != NULL)
    {
      g_signal_connect_object (workspace, "notify::visible-start", G_CALLBACK (visible_changed),
                               self, G_CONNECT_SWAPPED);
      g_signal_connect_object (workspace, "notify::visible-end", G_CALLBACK (visible_changed),
                               self, G_CONNECT_SWAPPED);
      for (guint i = 0; i < 3; i++)
        {
          static const char * const props[] = { "notify::ipu", "notify::tile", "notify::step" };

          g_signal_connect_object (workspace, props[i], G_CALLBACK (workspace_cell_changed), self,
                                   G_CONNECT_SWAPPED);
        }
      self->cancellable = g_cancellable_new ();
      tes_bsp_load_ipus_async (tes_workspace_get_report (workspace), self->cancellable, load_cb, self);
    }

  self->has_cursor = FALSE;
  visible_changed (self);
}

/* The cursor's step, selected in the workspace (so the trace shows it):
 * its span, number, IPU and tile. */
static void
activate_cursor (TesBspSection *self)
{
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));
  const TesBspIpu *ipu;
  const TesBspSpan *span;

  if (workspace == NULL || self->ipus == NULL || !self->has_cursor)
    return;

  ipu = g_ptr_array_index (self->ipus, self->cursor_ipu);
  span = &g_array_index (ipu->spans, TesBspSpan, self->cursor_step);
  self->writing = TRUE;
  tes_workspace_set_selection (workspace, span->start, span->end);
  tes_workspace_set_step (workspace, ((const TesBspStep *)g_ptr_array_index (ipu->steps, self->cursor_step))->step);
  tes_workspace_set_ipu (workspace, ipu->ipu);
  tes_workspace_set_tile (workspace, (int)self->cursor_tile);
  self->writing = FALSE;
}

static void
set_cursor (TesBspSection *self,
            guint          ipu,
            guint          tile,
            guint          step)
{
  self->has_cursor = TRUE;
  self->cursor_ipu = ipu;
  self->cursor_tile = tile;
  self->cursor_step = step;
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
}

/* The cursor's step in the visible range (panned to it when out of
 * view), its row in the magnified picture's scrolled part. */
static void
reveal_cursor (TesBspSection *self)
{
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));
  const TesBspIpu *ipu = g_ptr_array_index (self->ipus, self->cursor_ipu);
  const TesBspSpan *span = &g_array_index (ipu->spans, TesBspSpan, self->cursor_step);
  graphene_rect_t cell;
  double top = gtk_adjustment_get_value (self->adjustment);
  double page = gtk_adjustment_get_page_size (self->adjustment);
  gint64 t0, t1;

  tes_workspace_get_visible (workspace, &t0, &t1);
  if (span->start >= t1 || span->end <= t0)
    {
      gint64 width = t1 - t0;

      tes_workspace_set_visible (workspace, span->start - width / 2, span->start - width / 2 + width);
    }
  if (self->magnify > 1 && cursor_rect (self, gtk_widget_get_width (GTK_WIDGET (self->area)), picture_height (self), &cell))
    {
      if (cell.origin.y < top)
        gtk_adjustment_set_value (self->adjustment, cell.origin.y);
      else if (cell.origin.y + cell.size.height > top + page)
        gtk_adjustment_set_value (self->adjustment, cell.origin.y + cell.size.height - page);
    }
}

/* The workspace's IPU, tile and BSP step, as the cursor (what is not set
 * stays: the cursor's, else the first tile, the first step in view). */
static void
follow_cell (TesBspSection *self)
{
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));
  const TesBspIpu *ipu;
  int ipu_number, tile, ipu_index, step;
  gint64 step_number, t0, t1;

  if (workspace == NULL || self->ipus == NULL || self->ipus->len == 0 || self->writing)
    return;

  ipu_number = tes_workspace_get_ipu (workspace);
  tile = tes_workspace_get_tile (workspace);
  step_number = tes_workspace_get_step (workspace);
  if (ipu_number < 0 && tile < 0 && step_number < 0)
    return;

  ipu_index = ipu_number >= 0 ? tes_bsp_find_ipu (self->ipus, ipu_number) : self->has_cursor ? (int)self->cursor_ipu : 0;
  if (ipu_index < 0)
    return;
  ipu = g_ptr_array_index (self->ipus, ipu_index);
  if (ipu->spans->len == 0)
    return;

  tes_workspace_get_visible (workspace, &t0, &t1);
  if ((step = tes_bsp_find_step (ipu, step_number)) < 0)
    step = self->has_cursor && self->cursor_ipu == (guint)ipu_index ? (int)self->cursor_step
                                                                     : (int)MIN (span_after (ipu->spans, t0),
                                                                                 ipu->spans->len - 1);
  if (tile < 0)
    tile = self->has_cursor ? (int)self->cursor_tile : 0;
  tile = MIN (tile, (int)MAX (ipu->n_tiles, 1) - 1);

  if (self->has_cursor && self->cursor_ipu == (guint)ipu_index && self->cursor_tile == (guint)tile &&
      self->cursor_step == (guint)step)
    return;
  set_cursor (self, (guint)ipu_index, (guint)tile, (guint)step);
  reveal_cursor (self);
}

static gboolean
follow_idle (gpointer user_data)
{
  TesBspSection *self = user_data;

  self->follow_id = 0;
  follow_cell (self);

  return G_SOURCE_REMOVE;
}

/* A finding sets the step, the IPU and the tile one after another: the
 * cell follows once all are set, not through a mix of old and new (whose
 * step could pan the range elsewhere). */
static void
workspace_cell_changed (TesBspSection *self)
{
  if (!self->writing && self->follow_id == 0)
    self->follow_id = g_idle_add_full (G_PRIORITY_DEFAULT, follow_idle, self, NULL);
}

/**
 * tes_bsp_section_move_cursor:
 * @steps: steps later (negative: earlier)
 * @tiles: tiles down (negative: up); past an IPU's last tile, the next IPU
 *
 * Moves the selected cell (the first tile and step in view when none is),
 * the view panning to keep it in sight.
 *
 * Returns: whether there is a cell to select
 */
gboolean
tes_bsp_section_move_cursor (TesBspSection *self,
                             int            steps,
                             int            tiles)
{
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));
  const TesBspIpu *ipu;
  gint64 t0, t1, start, tile;
  guint ipu_index, step;

  g_return_val_if_fail (TES_IS_BSP_SECTION (self), FALSE);

  if (workspace == NULL || self->ipus == NULL || self->ipus->len == 0)
    return FALSE;

  tes_workspace_get_visible (workspace, &t0, &t1);
  if (!self->has_cursor)
    {
      ipu = g_ptr_array_index (self->ipus, 0);
      if (ipu->spans->len == 0)
        return FALSE;
      set_cursor (self, 0, 0, MIN (span_after (ipu->spans, t0), ipu->spans->len - 1));
      return TRUE;
    }

  /* tiles run on from one IPU into the next */
  ipu_index = self->cursor_ipu;
  tile = (gint64)self->cursor_tile + tiles;
  while (tile < 0 && ipu_index > 0)
    tile += ((const TesBspIpu *)g_ptr_array_index (self->ipus, --ipu_index))->n_tiles;
  while (ipu_index + 1 < self->ipus->len &&
         tile >= ((const TesBspIpu *)g_ptr_array_index (self->ipus, ipu_index))->n_tiles)
    tile -= ((const TesBspIpu *)g_ptr_array_index (self->ipus, ipu_index++))->n_tiles;
  ipu = g_ptr_array_index (self->ipus, ipu_index);
  if (ipu->spans->len == 0)
    return FALSE;
  tile = CLAMP (tile, 0, (gint64)MAX (ipu->n_tiles, 1) - 1);

  /* the step at the same time in another IPU */
  start = g_array_index (((const TesBspIpu *)g_ptr_array_index (self->ipus, self->cursor_ipu))->spans, TesBspSpan,
                         self->cursor_step).start;
  step = ipu_index == self->cursor_ipu ? self->cursor_step : MIN (span_after (ipu->spans, start), ipu->spans->len - 1);
  step = (guint)CLAMP ((gint64)step + steps, 0, (gint64)ipu->spans->len - 1);
  set_cursor (self, ipu_index, (guint)tile, step);
  reveal_cursor (self);

  return TRUE;
}

/**
 * tes_bsp_section_activate:
 *
 * Selects the selected cell's step in the workspace, as a click on it
 * does (Enter).
 *
 * Returns: whether a cell is selected
 */
gboolean
tes_bsp_section_activate (TesBspSection *self)
{
  g_return_val_if_fail (TES_IS_BSP_SECTION (self), FALSE);

  activate_cursor (self);

  return self->has_cursor;
}

/**
 * tes_bsp_section_click:
 *
 * Selects the BSP step under (@x, @y) of the heatmap, and its tile: its
 * span in the workspace (so the trace shows it) and its number.
 *
 * Returns: whether a step was there
 */
gboolean
tes_bsp_section_click (TesBspSection *self,
                       double         x,
                       double         y)
{
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));
  double width = gtk_widget_get_width (GTK_WIDGET (self->area));
  double height = picture_height (self);
  gint64 t0, t1;

  g_return_val_if_fail (TES_IS_BSP_SECTION (self), FALSE);

  /* where in the (magnified) picture */
  y += floor (gtk_adjustment_get_value (self->adjustment));

  if (workspace == NULL || self->ipus == NULL)
    return FALSE;

  tes_workspace_get_visible (workspace, &t0, &t1);
  for (guint i = 0; i < self->ipus->len; i++)
    {
      const TesBspIpu *ipu = g_ptr_array_index (self->ipus, i);
      graphene_rect_t rect = tes_bsp_heat_rect (i, self->ipus->len, width, height);
      gint64 t;
      int span;

      if (!graphene_rect_contains_point (&rect, &GRAPHENE_POINT_INIT (x, y)))
        continue;

      t = t0 + (gint64)((x - rect.origin.x) / rect.size.width * (t1 - t0));
      if ((span = tes_bsp_span_at ((const TesBspSpan *)(gpointer)ipu->spans->data, ipu->spans->len, t)) < 0)
        return FALSE;

      /* the row's first tile */
      {
        guint per_row = tes_bsp_tiles_per_row (ipu->n_tiles, (guint)rect.size.height);
        guint rows = MAX ((ipu->n_tiles + per_row - 1) / per_row, 1);
        guint row = MIN ((guint)((y - rect.origin.y) / rect.size.height * rows), rows - 1);
        guint tile = row * per_row;

        set_cursor (self, i, MIN (tile, MAX (ipu->n_tiles, 1) - 1), (guint)span);
      }
      activate_cursor (self);
      return TRUE;
    }

  return FALSE;
}

static void
pressed_cb (TesBspSection *self,
            int            n_press,
            double         x,
            double         y)
{
  tes_bsp_section_click (self, x, y);
}

/* bsp.magnify(factor): rows @factor times taller; 0 resets. */
static void
magnify_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  TesBspSection *self = TES_BSP_SECTION (widget);
  double factor = g_variant_get_double (param);

  tes_bsp_section_set_magnify (self, factor == 0 ? 1 : self->magnify * factor);
}

/* bsp.move((steps, tiles)): the arrows */
static void
move_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  int steps, tiles;

  g_variant_get (param, "(ii)", &steps, &tiles);
  tes_bsp_section_move_cursor (TES_BSP_SECTION (widget), steps, tiles);
}

static void
activate_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *param)
{
  tes_bsp_section_activate (TES_BSP_SECTION (widget));
}

static void
coloring_toggled (TesBspSection *self)
{
  tes_bsp_section_set_coloring (self, gtk_toggle_button_get_active (self->by_cycles) ? TES_BSP_COLOR_CYCLES
                                                                                    : TES_BSP_COLOR_STATE);
}

static void
tes_bsp_section_dispose (GObject *object)
{
  TesBspSection *self = (TesBspSection *)object;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->follow_id, g_source_remove);
  g_clear_pointer (&self->ipus, g_ptr_array_unref);
  g_clear_pointer (&self->frame, tes_bsp_frame_free);
  self->area = NULL;
  gtk_widget_dispose_template (GTK_WIDGET (object), TES_TYPE_BSP_SECTION);

  G_OBJECT_CLASS (tes_bsp_section_parent_class)->dispose (object);
}

static void
tes_bsp_section_class_init (TesBspSectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  TesSectionClass *section_class = TES_SECTION_CLASS (klass);

  object_class->dispose = tes_bsp_section_dispose;

  section_class->title = _("BSP");
  section_class->icon_name = "view-app-grid-symbolic";
  section_class->views = bsp_views;
  section_class->has_data = tes_bsp_section_has_data;
  section_class->workspace_changed = tes_bsp_section_workspace_changed;
  section_class->render = tes_bsp_section_render;
  section_class->get_view = tes_bsp_section_get_view_name;

  g_type_ensure (TES_TYPE_CANVAS);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tessera/Tessera/widgets/tes-bsp-section.ui");
  gtk_widget_class_bind_template_child (widget_class, TesBspSection, by_state);
  gtk_widget_class_bind_template_child (widget_class, TesBspSection, by_cycles);
  gtk_widget_class_bind_template_child (widget_class, TesBspSection, area);
  gtk_widget_class_bind_template_child (widget_class, TesBspSection, scrollbar);
  gtk_widget_class_bind_template_child (widget_class, TesBspSection, adjustment);
  gtk_widget_class_bind_template_callback (widget_class, coloring_toggled);
  gtk_widget_class_bind_template_callback (widget_class, area_resized);
  gtk_widget_class_bind_template_callback (widget_class, scroll_changed);

  gtk_widget_class_install_action (widget_class, "bsp.magnify", "d", magnify_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, 0, "bsp.magnify", "d", 2.0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, 0, "bsp.magnify", "d", 2.0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, 0, "bsp.magnify", "d", 0.5);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, 0, "bsp.magnify", "d", 0.5);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, 0, "bsp.magnify", "d", 0.0);

  gtk_widget_class_install_action (widget_class, "bsp.move", "(ii)", move_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "bsp.move", "(ii)", -1, 0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "bsp.move", "(ii)", 1, 0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, 0, "bsp.move", "(ii)", 0, -1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, 0, "bsp.move", "(ii)", 0, 1);
  gtk_widget_class_install_action (widget_class, "bsp.activate", NULL, activate_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, 0, "bsp.activate", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, 0, "bsp.activate", NULL);
}

static void
tes_bsp_section_init (TesBspSection *self)
{
  GtkGesture *click = gtk_gesture_click_new ();
  GtkEventController *wheel = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);

  self->magnify = 1;
  self->frame = tes_bsp_frame_new ();
  gtk_widget_init_template (GTK_WIDGET (self));

  tes_canvas_set_funcs (self->area, NULL, draw_cb, self);
  /* its cells written as pixels straight into the window's image, which
   * every frame paints whole */
  tes_canvas_set_image (self->area, TRUE, TRUE);
  g_signal_connect_object (click, "pressed", G_CALLBACK (pressed_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->area), GTK_EVENT_CONTROLLER (click));
  g_signal_connect_object (wheel, "scroll", G_CALLBACK (wheel_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->area), wheel);
  update_description (self);
}

/* The IPUs' steps, once loaded (NULL before). */
GPtrArray *
tes_bsp_section_get_ipus (TesBspSection *self)
{
  g_return_val_if_fail (TES_IS_BSP_SECTION (self), NULL);

  return self->ipus;
}

double
tes_bsp_section_get_magnify (TesBspSection *self)
{
  g_return_val_if_fail (TES_IS_BSP_SECTION (self), 1);

  return self->magnify;
}

TesBspColoring
tes_bsp_section_get_coloring (TesBspSection *self)
{
  g_return_val_if_fail (TES_IS_BSP_SECTION (self), TES_BSP_COLOR_STATE);

  return self->coloring;
}

/* Colour the cells by state or by busy cycles. */
void
tes_bsp_section_set_coloring (TesBspSection  *self,
                              TesBspColoring  coloring)
{
  g_return_if_fail (TES_IS_BSP_SECTION (self));

  self->coloring = coloring;
  if (gtk_toggle_button_get_active (self->by_cycles) != (coloring == TES_BSP_COLOR_CYCLES))
    gtk_toggle_button_set_active (coloring == TES_BSP_COLOR_CYCLES ? self->by_cycles : self->by_state, TRUE);
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
}

/* Rows @magnify times as tall as the view fits (1: all tiles in view). */
void
tes_bsp_section_set_magnify (TesBspSection *self,
                             double         magnify)
{
  g_return_if_fail (TES_IS_BSP_SECTION (self));

  self->magnify = CLAMP (magnify, 1, MAX_MAGNIFY);
  configure_scroll (self);
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
}

/**
 * tes_bsp_section_get_cursor:
 * @ipu: (out): the selected cell's IPU number
 * @tile: (out): its tile
 * @step: (out): its BSP step number
 *
 * Returns: whether a cell is selected
 */
gboolean
tes_bsp_section_get_cursor (TesBspSection *self,
                            int           *ipu,
                            guint         *tile,
                            gint64        *step)
{
  const TesBspIpu *bsp_ipu;

  g_return_val_if_fail (TES_IS_BSP_SECTION (self), FALSE);

  if (self->ipus == NULL || !self->has_cursor)
    return FALSE;
  bsp_ipu = g_ptr_array_index (self->ipus, self->cursor_ipu);
  *ipu = bsp_ipu->ipu;
  *tile = self->cursor_tile;
  *step = ((const TesBspStep *)g_ptr_array_index (bsp_ipu->steps, self->cursor_step))->step;

  return TRUE;
}
