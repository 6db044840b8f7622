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
#include "tes-painter.h"
#include "tes-tiles-layout.h"

/* BSP: each IPU's tiles (rows) over the trace's visible range (columns),
 * coloured by what they did (compute, exchange, sync or idle) or by their
 * busy cycles. It follows the workspace, so zooming the trace zooms it;
 * + and − magnify the rows, 0 resets; a click, or the arrows and Enter,
 * select a tile's step, in the trace too. Screen readers get what is in
 * view and the cell selected. */

#define FONT        "Sans 9"
#define INK         0x241f31
#define DIM_INK     0x77767b
#define NO_STEP_RGB 0xf6f5f4
#define MAX_MAGNIFY 64.0

struct _TesBspSection
{
  TesSection      parent_instance;

  GtkWidget      *box;
  GtkToggleButton *by_state;
  GtkToggleButton *by_cycles;
  GtkWidget      *scrolled;   /* in box */
  GtkDrawingArea *area;       /* in scrolled */
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
};

G_DEFINE_FINAL_TYPE (TesBspSection, tes_bsp_section, TES_TYPE_SECTION)

static const char * const bsp_views[] = { "bsp", "bsp-cycles", NULL };

/* Colouring by cycles: the scale from none to the most of a cell. */
static void
draw_cycles_legend (TesPainter *p,
                    double      max_cycles)
{
  g_autofree char *top = g_strdup_printf (_("%.0f cycles"), max_cycles);
  double x = TES_BSP_LABEL_WIDTH;
  const char *label = _("Busy cycles per tile:");
  cairo_pattern_t *ramp = cairo_pattern_create_linear (0, 0, 1, 0);

  tes_painter_text (p, label, x, 8, 300, PANGO_ALIGN_LEFT, FALSE, INK);
  x += tes_painter_text_width (p, label) + 8;
  tes_painter_text (p, "0", x, 8, 40, PANGO_ALIGN_LEFT, FALSE, INK);
  x += tes_painter_text_width (p, "0") + 6;
  for (int i = 0; i <= 16; i++)
    {
      guint32 rgb = tes_bsp_cycles_color (i / 16.0, 1.0);

      cairo_pattern_add_color_stop_rgb (ramp, i / 16.0, ((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0,
                                        (rgb & 0xff) / 255.0);
    }
  cairo_save (p->cr);
  cairo_translate (p->cr, x, 10);
  cairo_scale (p->cr, 160, 12);
  cairo_rectangle (p->cr, 0, 0, 1, 1);
  cairo_set_source (p->cr, ramp);
  cairo_fill (p->cr);
  cairo_restore (p->cr);
  cairo_pattern_destroy (ramp);
  tes_painter_text (p, top, x + 166, 8, 300, PANGO_ALIGN_LEFT, FALSE, INK);
}

static void
draw_legend (TesPainter *p)
{
  static const TesTileState order[] = {
    TES_TILE_STATE_COMPUTE, TES_TILE_STATE_EXCHANGE, TES_TILE_STATE_SYNC, TES_TILE_STATE_IDLE,
  };
  double x = TES_BSP_LABEL_WIDTH;

  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      const char *name = tes_tile_state_name (order[i]);

      tes_painter_set_rgb (p->cr, tes_tile_state_color (order[i]));
      cairo_rectangle (p->cr, x, 10, 12, 12);
      cairo_fill (p->cr);
      tes_painter_text (p, name, x + 16, 8, 200, PANGO_ALIGN_LEFT, FALSE, INK);
      x += 16 + tes_painter_text_width (p, name) + 18;
    }
}

/* What a frame leaves the next: each IPU's cells and their picture, used
 * again while the size stays, so that panning allocates nothing. */
struct _TesBspFrame
{
  GPtrArray *grids;       /* TesBspGrid per IPU (NULL before the first) */
  GPtrArray *pictures;    /* cairo_surface_t per IPU */
};

TesBspFrame *
tes_bsp_frame_new (void)
{
  TesBspFrame *frame = g_new0 (TesBspFrame, 1);

  frame->grids = g_ptr_array_new_with_free_func ((GDestroyNotify)tes_bsp_grid_free);
  frame->pictures = g_ptr_array_new_with_free_func ((GDestroyNotify)cairo_surface_destroy);

  return frame;
}

void
tes_bsp_frame_free (TesBspFrame *frame)
{
  if (frame == NULL)
    return;

  g_ptr_array_unref (frame->grids);
  g_ptr_array_unref (frame->pictures);
  g_free (frame);
}

/* The cells, one per device pixel, into @picture (made again when its
 * size is not @height rows of the grid's columns): the cells at the
 * picture's size, rows repeated to fill it, to be drawn unscaled, a copy
 * rather than a resampling. */
static void
picture_fill (const TesBspGrid      *grid,
              TesBspColoring         coloring,
              double                 max_cycles,
              int                    height,
              cairo_surface_t      **picture)
{
  cairo_surface_t *cells = *picture;
  guchar *data;
  int stride;
  guint32 palette[256];
  guint last_row = G_MAXUINT;

  if (cells == NULL || cairo_image_surface_get_width (cells) != (int)grid->width ||
      cairo_image_surface_get_height (cells) != height)
    {
      g_clear_pointer (picture, cairo_surface_destroy);
      *picture = cells = cairo_image_surface_create (CAIRO_FORMAT_RGB24, (int)grid->width, height);
    }
  /* (a picture a recording surface still holds is copied for it first) */
  cairo_surface_flush (cells);
  data = cairo_image_surface_get_data (cells);
  stride = cairo_image_surface_get_stride (cells);

  /* a colour per state (no step: the background), or 256 steps of the
   * cycles' scale: a lookup per pixel */
  for (guint i = 0; i < 256; i++)
    palette[i] = coloring == TES_BSP_COLOR_CYCLES ? tes_bsp_cycles_color (i / 255.0, 1.0)
                 : i <= TES_TILE_STATE_SYNC ? tes_tile_state_color (i) : NO_STEP_RGB;

  /* the cells go column by column, the picture row by row: a block of
   * columns at a time, so that the columns read stay in the cache */
  for (guint first = 0; first < grid->width; first += 64)
    {
      guint n = MIN (64, grid->width - first);

      last_row = G_MAXUINT;
      for (int y = 0; y < height; y++)
        {
          guint row = (guint)((guint64)y * grid->n_rows / height);
          guint32 *line = (guint32 *)(gpointer)(data + (gsize)y * stride) + first;
          const guint8 *states = grid->states + (gsize)first * grid->n_rows + row;
          const float *cycles = grid->cycles + (gsize)first * grid->n_rows + row;

          if (row == last_row)
            {
              memcpy (line, line - stride / 4, n * sizeof (guint32));
              continue;
            }
          last_row = row;
          if (coloring == TES_BSP_COLOR_CYCLES)
            for (guint i = 0; i < n; i++)
              line[i] = states[(gsize)i * grid->n_rows] == TES_BSP_NO_STATE ? NO_STEP_RGB
                        : palette[max_cycles > 0 ? (guint)MIN (cycles[(gsize)i * grid->n_rows] / max_cycles * 255.0 + 0.5, 255.0)
                                                 : 0];
          else
            for (guint i = 0; i < n; i++)
              line[i] = palette[states[(gsize)i * grid->n_rows]];
        }
    }
  cairo_surface_mark_dirty (cells);
}

/* @picture (picture_fill()) into @rect. */
static void
picture_paint (cairo_t               *cr,
               const TesBspGrid      *grid,
               cairo_surface_t       *cells,
               const graphene_rect_t *rect)
{
  int height = cairo_image_surface_get_height (cells);

  cairo_save (cr);
  cairo_rectangle (cr, rect->origin.x, rect->origin.y, rect->size.width, rect->size.height);
  cairo_clip (cr);
  cairo_translate (cr, rect->origin.x, rect->origin.y);
  cairo_scale (cr, rect->size.width / grid->width, rect->size.height / height);
  cairo_set_source_surface (cr, cells, 0, 0);
  cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
  cairo_paint (cr);
  cairo_restore (cr);
}

/* Every other IPU's cells, from @first on, and their picture when it
 * needs no other IPU's (by state): a frame's two halves. */
typedef struct
{
  GPtrArray *ipus;
  GPtrArray *grids;
  GPtrArray *pictures;
  TesBspColoring coloring;
  gint64     t0;
  gint64     t1;
  int        width;
  int        height;
  guint      first;
} GridJob;

static gpointer
grid_job_run (gpointer data)
{
  const GridJob *job = data;

  for (guint i = job->first; i < job->ipus->len; i += 2)
    {
      const TesBspIpu *ipu = g_ptr_array_index (job->ipus, i);
      graphene_rect_t rect = tes_bsp_heat_rect (i, job->ipus->len, job->width, job->height);

      /* by state, the cells' cycles are not drawn */
      g_ptr_array_index (job->grids, i) = tes_bsp_pyramid_grid_reuse (ipu->pyramid, g_ptr_array_index (job->grids, i),
                                                                      job->t0, job->t1, (guint)rect.size.width,
                                                                      (guint)rect.size.height,
                                                                      job->coloring == TES_BSP_COLOR_CYCLES);
      if (job->coloring == TES_BSP_COLOR_STATE)
        picture_fill (g_ptr_array_index (job->grids, i), job->coloring, 0, MAX ((int)rect.size.height, 1),
                      (cairo_surface_t **)&g_ptr_array_index (job->pictures, i));
    }

  return NULL;
}

/* @ipus as tes_bsp_load_ipus() gives them, over the workspace's visible
 * range. */
gboolean
tes_bsp_render (TesWorkspace   *workspace,
                GPtrArray      *ipus,
                TesBspColoring  coloring,
                cairo_t        *cr,
                int             width,
                int             height)
{
  TesBspFrame *frame = tes_bsp_frame_new ();
  gboolean ok = tes_bsp_render_frame (frame, workspace, ipus, coloring, cr, width, height);

  tes_bsp_frame_free (frame);

  return ok;
}

/**
 * tes_bsp_render_frame:
 * @frame: what the last frame left, for this one to use again
 *
 * Draws @ipus (as tes_bsp_load_ipus() gives them) over the workspace's
 * visible range.
 */
gboolean
tes_bsp_render_frame (TesBspFrame    *frame,
                      TesWorkspace   *workspace,
                      GPtrArray      *ipus,
                      TesBspColoring  coloring,
                      cairo_t        *cr,
                      int             width,
                      int             height)
{
  double max_cycles = 0;
  TesPainter p;
  gint64 t0, t1, origin = 0;

  tes_workspace_get_visible (workspace, &t0, &t1);
  tes_workspace_get_span (workspace, &origin, NULL);

  /* every IPU's cells first (one scale of cycles for all), the IPUs
   * shared between this thread and another */
  if (ipus != NULL && ipus->len > 0)
    {
      GridJob mine = { ipus, frame->grids, frame->pictures, coloring, t0, t1, width, height, 0 };
      GridJob theirs = { ipus, frame->grids, frame->pictures, coloring, t0, t1, width, height, 1 };
      GThread *helper = NULL;

      g_ptr_array_set_size (frame->grids, ipus->len);
      g_ptr_array_set_size (frame->pictures, ipus->len);
      if (ipus->len > 1)
        helper = g_thread_new ("tes-bsp-cells", grid_job_run, &theirs);
      grid_job_run (&mine);
      if (helper != NULL)
        g_thread_join (helper);
      for (guint i = 0; i < ipus->len; i++)
        max_cycles = MAX (max_cycles, ((TesBspGrid *)g_ptr_array_index (frame->grids, i))->max_cycles);
      /* by cycles, on one scale for all */
      for (guint i = 0; coloring == TES_BSP_COLOR_CYCLES && i < ipus->len; i++)
        picture_fill (g_ptr_array_index (frame->grids, i), coloring, max_cycles,
                      MAX ((int)tes_bsp_heat_rect (i, ipus->len, width, height).size.height, 1),
                      (cairo_surface_t **)&g_ptr_array_index (frame->pictures, i));
    }

  cairo_save (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  tes_painter_init (&p, cr, FONT);
  if (coloring == TES_BSP_COLOR_CYCLES)
    draw_cycles_legend (&p, max_cycles);
  else
    draw_legend (&p);

  if (ipus == NULL || ipus->len == 0)
    tes_painter_text (&p, _("No BSP steps in this report"), TES_BSP_LABEL_WIDTH, TES_BSP_LEGEND_HEIGHT, width - TES_BSP_LABEL_WIDTH,
                      PANGO_ALIGN_LEFT, FALSE, DIM_INK);

  for (guint i = 0; ipus != NULL && i < ipus->len; i++)
    {
      const TesBspIpu *ipu = g_ptr_array_index (ipus, i);
      graphene_rect_t rect = tes_bsp_heat_rect (i, ipus->len, width, height);
      g_autofree char *title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "IPU %d · %u tile", "IPU %d · %u tiles",
                                                             ipu->n_tiles),
                                                ipu->ipu, ipu->n_tiles);
      g_autofree char *last = g_strdup_printf (_("tile %u"), MAX (ipu->n_tiles, 1) - 1);

      tes_painter_text (&p, title, TES_BSP_LABEL_WIDTH, rect.origin.y - TES_BSP_HEADER_HEIGHT + 2, rect.size.width,
                        PANGO_ALIGN_LEFT, TRUE, INK);
      tes_painter_text (&p, _("tile 0"), 4, rect.origin.y, TES_BSP_LABEL_WIDTH - 10, PANGO_ALIGN_RIGHT, FALSE, DIM_INK);
      tes_painter_text (&p, last, 4, rect.origin.y + rect.size.height - 14, TES_BSP_LABEL_WIDTH - 10,
                        PANGO_ALIGN_RIGHT, FALSE, DIM_INK);
      picture_paint (cr, g_ptr_array_index (frame->grids, i), g_ptr_array_index (frame->pictures, i), &rect);
    }

  /* the range shown, since the run's start */
  {
    g_autofree char *from = tes_workspace_format_duration (workspace, t0 - origin);
    g_autofree char *to = tes_workspace_format_duration (workspace, t1 - origin);
    double y = height - TES_BSP_AXIS_HEIGHT + 2;

    tes_painter_text (&p, from, TES_BSP_LABEL_WIDTH, y, 200, PANGO_ALIGN_LEFT, FALSE, DIM_INK);
    tes_painter_text (&p, to, width - TES_BSP_MARGIN - 200, y, 200, PANGO_ALIGN_RIGHT, FALSE, DIM_INK);
  }

  tes_painter_clear (&p);
  cairo_restore (cr);

  return cairo_status (cr) == CAIRO_STATUS_SUCCESS;
}

static gboolean
tes_bsp_section_render (TesWorkspace  *workspace,
                        const char    *view,
                        cairo_t       *cr,
                        int            width,
                        int            height,
                        GError       **error)
{
  g_autoptr(GPtrArray) ipus = NULL;

  if (!(ipus = tes_bsp_load_ipus (tes_workspace_get_report (workspace), error)))
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

static void
draw_cb (GtkDrawingArea *area,
         cairo_t        *cr,
         int             width,
         int             height,
         gpointer        user_data)
{
  TesBspSection *self = user_data;
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));
  graphene_rect_t cell;

  if (workspace == NULL || self->ipus == NULL)
    return;

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

      while (last < ipu->spans->len && g_array_index (ipu->spans, TesBspSpan, last).start < t1)
        last++;
      if (text->len > 0)
        g_string_append (text, "; ");
      /* Translators: an IPU of the BSP heatmap: its number, its tiles, then the steps in view of all it has */
      g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "IPU %d: %u tiles, %u of %u step in view",
                                                 "IPU %d: %u tiles, %u of %u steps in view", ipu->spans->len),
                              ipu->ipu, ipu->n_tiles, last - first, ipu->spans->len);
    }

  if (self->has_cursor)
    {
      const TesBspIpu *ipu = g_ptr_array_index (self->ipus, self->cursor_ipu);
      const TesBspStep *step = g_ptr_array_index (ipu->steps, self->cursor_step);
      const TesBspSpan *span = &g_array_index (ipu->spans, TesBspSpan, self->cursor_step);
      TesTileState state = self->cursor_tile < span->n_tiles ? MIN (span->tile_states[self->cursor_tile],
                                                                     TES_TILE_STATE_SYNC)
                                                             : TES_TILE_STATE_IDLE;
      guint32 cycles = self->cursor_tile < span->n_tiles && state != TES_TILE_STATE_IDLE
                       ? span->tile_cycles[self->cursor_tile] : 0;

      /* Translators: the selected cell: IPU, tile, BSP step, the tile's state, its busy cycles and the step's */
      g_string_append_printf (text, _(". Selected: IPU %d, tile %u, step %" PRId64 ": %s, %u of %"
                                      PRId64 " cycles"),
                              ipu->ipu, self->cursor_tile, step->step, tes_tile_state_name (state), cycles,
                              span->dur_cycles);
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

/* + and − make the rows taller than the view: it scrolls. */
static void
update_height (TesBspSection *self)
{
  int view = gtk_widget_get_height (self->scrolled);

  gtk_drawing_area_set_content_height (self->area, self->magnify > 1 ? (int)(MAX (view, 200) * self->magnify) : 0);
  gtk_widget_set_vexpand (GTK_WIDGET (self->area), TRUE);
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
  self->has_cursor = FALSE;
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
  tes_workspace_set_selection (workspace, span->start, span->end);
  tes_workspace_set_step (workspace, ((const TesBspStep *)g_ptr_array_index (ipu->steps, self->cursor_step))->step);
  tes_workspace_set_ipu (workspace, ipu->ipu);
  tes_workspace_set_tile (workspace, (int)self->cursor_tile);
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
  const TesBspSpan *span;
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

  /* keep it in view */
  span = &g_array_index (ipu->spans, TesBspSpan, step);
  if (span->start >= t1 || span->end <= t0)
    {
      gint64 width = t1 - t0;

      tes_workspace_set_visible (workspace, span->start - width / 2, span->start - width / 2 + width);
    }

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
  double height = gtk_widget_get_height (GTK_WIDGET (self->area));
  gint64 t0, t1;

  g_return_val_if_fail (TES_IS_BSP_SECTION (self), FALSE);

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
  g_clear_pointer (&self->ipus, g_ptr_array_unref);
  g_clear_pointer (&self->frame, tes_bsp_frame_free);
  self->area = NULL;
  self->scrolled = NULL;
  g_clear_pointer (&self->box, gtk_widget_unparent);

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
  GtkWidget *toolbar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *linked = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);

  self->magnify = 1;
  self->frame = tes_bsp_frame_new ();
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  /* the colouring: by state or by cycles */
  gtk_widget_set_margin_start (toolbar, 6);
  gtk_widget_set_margin_top (toolbar, 6);
  gtk_widget_set_margin_bottom (toolbar, 6);
  gtk_box_append (GTK_BOX (toolbar), gtk_label_new (_("Colour by")));
  gtk_widget_add_css_class (linked, "linked");
  self->by_state = GTK_TOGGLE_BUTTON (gtk_toggle_button_new_with_label (_("State")));
  self->by_cycles = GTK_TOGGLE_BUTTON (gtk_toggle_button_new_with_label (_("Cycles")));
  gtk_toggle_button_set_group (self->by_cycles, self->by_state);
  gtk_toggle_button_set_active (self->by_state, TRUE);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->by_state), _("Compute, exchange, sync or idle"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->by_cycles), _("Busy cycles per tile, on a scale"));
  g_signal_connect_object (self->by_cycles, "toggled", G_CALLBACK (coloring_toggled), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (linked), GTK_WIDGET (self->by_state));
  gtk_box_append (GTK_BOX (linked), GTK_WIDGET (self->by_cycles));
  gtk_box_append (GTK_BOX (toolbar), linked);
  gtk_box_append (GTK_BOX (self->box), toolbar);

  self->scrolled = gtk_scrolled_window_new ();
  /* a picture to assistive technologies, described in words */
  self->area = g_object_new (GTK_TYPE_DRAWING_AREA, "accessible-role", GTK_ACCESSIBLE_ROLE_IMG, NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->area), GTK_ACCESSIBLE_PROPERTY_LABEL, _("BSP heatmap"), -1);
  gtk_widget_set_focusable (GTK_WIDGET (self->area), TRUE);
  gtk_widget_set_focus_on_click (GTK_WIDGET (self->area), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self->area), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self->area), TRUE);
  gtk_drawing_area_set_draw_func (self->area, draw_cb, self, NULL);
  g_signal_connect_object (click, "pressed", G_CALLBACK (pressed_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->area), GTK_EVENT_CONTROLLER (click));
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scrolled), GTK_WIDGET (self->area));
  gtk_widget_set_vexpand (self->scrolled, TRUE);
  gtk_box_append (GTK_BOX (self->box), self->scrolled);
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
  update_height (self);
  gtk_widget_queue_draw (GTK_WIDGET (self->area));
}
