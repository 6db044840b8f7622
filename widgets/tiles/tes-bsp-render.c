/* tes-bsp-render.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "tes-bsp-render.h"
#include "tes-painter.h"
#include "tes-tiles-layout.h"

/* The BSP heatmap's picture, drawn alike in the window and by
 * `tessera-cli render --view bsp|bsp-cycles`: a legend, per IPU its cells
 * from the pyramid, the range's ends. */

#define FONT        "Sans 9"
#define INK         0x241f31
#define DIM_INK     0x77767b
#define NO_STEP_RGB 0xf6f5f4

/* Colouring by cycles: the scale from none to the most of a cell. */
static void
draw_cycles_legend (TesPainter *p,
                    double      max_cycles)
{
  g_autofree char *grouped = tes_format_grouped (max_cycles);
  /* Translators: the top of the scale of busy cycles, grouped as the locale groups digits */
  g_autofree char *top = g_strdup_printf (_("%s cycles"), grouped);
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

/* Each IPU's cells, and their picture when it needs no other IPU's (by
 * state). On the main loop: a frame reads the pyramid's sums, about a row
 * per column, no thread to start for it. */
static void
fill_grids (TesBspFrame    *frame,
            GPtrArray      *ipus,
            TesBspColoring  coloring,
            gint64          t0,
            gint64          t1,
            int             width,
            int             height)
{
  for (guint i = 0; i < ipus->len; i++)
    {
      const TesBspIpu *ipu = g_ptr_array_index (ipus, i);
      graphene_rect_t rect = tes_bsp_heat_rect (i, ipus->len, width, height);

      /* by state, the cells' cycles are not drawn */
      g_ptr_array_index (frame->grids, i) = tes_bsp_pyramid_grid_reuse (ipu->pyramid, g_ptr_array_index (frame->grids, i),
                                                                        t0, t1, (guint)rect.size.width,
                                                                        (guint)rect.size.height,
                                                                        coloring == TES_BSP_COLOR_CYCLES);
      if (coloring == TES_BSP_COLOR_STATE)
        picture_fill (g_ptr_array_index (frame->grids, i), coloring, 0, MAX ((int)rect.size.height, 1),
                      (cairo_surface_t **)&g_ptr_array_index (frame->pictures, i));
    }
}

/* @ipus as tes_report_get_bsp_ipus() gives them, over the workspace's visible
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
 * Draws @ipus (as tes_report_get_bsp_ipus() gives them) over the workspace's
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

  /* every IPU's cells first: one scale of cycles for all */
  if (ipus != NULL && ipus->len > 0)
    {
      g_ptr_array_set_size (frame->grids, ipus->len);
      g_ptr_array_set_size (frame->pictures, ipus->len);
      fill_grids (frame, ipus, coloring, t0, t1, width, height);
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
      g_autofree char *n_tiles = tes_format_grouped (ipu->n_tiles);
      /* Translators: an IPU (by its number) and its tiles */
      g_autofree char *title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "IPU %d · %s tile", "IPU %d · %s tiles",
                                                             ipu->n_tiles),
                                                ipu->ipu, n_tiles);
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
