/* tes-bsp-render.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
/* the pixels by state eight at a time where the processor has AVX2 */
#if defined(__x86_64__) && defined(__ELF__) && (defined(__clang__) || __GNUC__ >= 8)
#define BSP_PIXELS_AVX2 1
#include <immintrin.h>
#endif

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

/* One IPU's picture: its cells row by row (the grid keeps them column by
 * column, as it works them out), and the surface they are painted from
 * when they cannot be written into the target. */
typedef struct
{
  guint8          *states;      /* n_rows × width, a row after another */
  guint8          *levels;      /* by cycles: each cell's step of the scale, column by column */
  guint8          *level_rows;  /* the same, row by row */
  gsize            size;        /* bytes of each */
  cairo_surface_t *surfaces[2]; /* the cells at the picture's size, when painted: a
                                 * frame's and the last's, in turn */
  guint            turn;
} Picture;

static void
picture_free (Picture *picture)
{
  if (picture == NULL)
    return;

  g_free (picture->states);
  g_free (picture->levels);
  g_free (picture->level_rows);
  g_clear_pointer (&picture->surfaces[0], cairo_surface_destroy);
  g_clear_pointer (&picture->surfaces[1], cairo_surface_destroy);
  g_free (picture);
}

/* What a frame leaves the next: each IPU's cells and their picture, used
 * again while the size stays, so that panning allocates nothing. */
struct _TesBspFrame
{
  GPtrArray *grids;       /* TesBspGrid per IPU (NULL before the first) */
  GPtrArray *pictures;    /* Picture per IPU */
};

TesBspFrame *
tes_bsp_frame_new (void)
{
  TesBspFrame *frame = g_new0 (TesBspFrame, 1);

  frame->grids = g_ptr_array_new_with_free_func ((GDestroyNotify)tes_bsp_grid_free);
  frame->pictures = g_ptr_array_new_with_free_func ((GDestroyNotify)picture_free);

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

/* @n_rows bytes per column, @width columns, into rows of @width bytes:
 * sixteen by sixteen through SSE2 (sixteen columns read sixteen bytes at
 * a time, interleaved by bytes, pairs, fours and eights into sixteen
 * rows), the rest one by one. A picture then reads its cells as its
 * pixels go, row by row. */
static void
bytes_transpose (guint8       *to,
                 const guint8 *from,
                 guint         width,
                 guint         n_rows)
{
  guint c = 0, r = 0;

#ifdef __SSE2__
  for (; c + 16 <= width; c += 16)
    {
      for (r = 0; r + 16 <= n_rows; r += 16)
        {
          __m128i a[16], p[16], q[16], o[16];

#pragma GCC unroll 16
          for (guint i = 0; i < 16; i++)
            a[i] = _mm_loadu_si128 ((const void *)(from + (gsize)(c + i) * n_rows + r));
          /* p[k]: columns 2k and 2k + 1, rows 0-7; p[8 + k]: rows 8-15 */
#pragma GCC unroll 8
          for (guint k = 0; k < 8; k++)
            {
              p[k] = _mm_unpacklo_epi8 (a[2 * k], a[2 * k + 1]);
              p[8 + k] = _mm_unpackhi_epi8 (a[2 * k], a[2 * k + 1]);
            }
          /* q[4g + m]: columns 4m to 4m + 3, rows 4g to 4g + 3 */
#pragma GCC unroll 2
          for (guint h = 0; h < 2; h++)
#pragma GCC unroll 4
            for (guint m = 0; m < 4; m++)
              {
                q[8 * h + m] = _mm_unpacklo_epi16 (p[8 * h + 2 * m], p[8 * h + 2 * m + 1]);
                q[8 * h + 4 + m] = _mm_unpackhi_epi16 (p[8 * h + 2 * m], p[8 * h + 2 * m + 1]);
              }
          /* o[2P + n]: columns 8n to 8n + 7, rows 2P and 2P + 1 */
#pragma GCC unroll 4
          for (guint g = 0; g < 4; g++)
#pragma GCC unroll 2
            for (guint n = 0; n < 2; n++)
              {
                o[4 * g + n] = _mm_unpacklo_epi32 (q[4 * g + 2 * n], q[4 * g + 2 * n + 1]);
                o[4 * g + 2 + n] = _mm_unpackhi_epi32 (q[4 * g + 2 * n], q[4 * g + 2 * n + 1]);
              }
#pragma GCC unroll 8
          for (guint pair = 0; pair < 8; pair++)
            {
              _mm_storeu_si128 ((void *)(to + (gsize)(r + 2 * pair) * width + c),
                                _mm_unpacklo_epi64 (o[2 * pair], o[2 * pair + 1]));
              _mm_storeu_si128 ((void *)(to + (gsize)(r + 2 * pair + 1) * width + c),
                                _mm_unpackhi_epi64 (o[2 * pair], o[2 * pair + 1]));
            }
        }
      /* the last rows of these columns */
      for (guint i = c; i < c + 16; i++)
        for (guint y = r; y < n_rows; y++)
          to[(gsize)y * width + i] = from[(gsize)i * n_rows + y];
    }
#endif
  for (; c < width; c++)
    for (r = 0; r < n_rows; r++)
      to[(gsize)r * width + c] = from[(gsize)c * n_rows + r];
}

/* Where a picture's pixels go: @data is its pixel (0, 0), @stride bytes a
 * row; only [@x0, @x1) × [@y0, @y1) of it is written. */
typedef struct
{
  guchar *data;
  int     stride;
  int     x0, x1, y0, y1;
} Pixels;

/* One row of pixels, [@x0, @x1) of @line, from a row of cells: by state
 * (@levels NULL) or by cycles. Written past the cache where SSE2 has the
 * stores (a picture's pixels are read once, later, by whatever shows
 * them): no line read in first. */
static inline void
line_fill (guint32        *line,
           const guint8   *states,
           const guint8   *levels,
           const guint32  *palette,
           int             x0,
           int             x1)
{
  int x = x0;

#define PIXEL(x) (levels == NULL ? palette[states[x]] \
                  : states[x] == TES_BSP_NO_STATE ? 0xff000000 | NO_STEP_RGB : palette[levels[x]])
#ifdef __SSE2__
  for (; x < x1 && ((guintptr)(line + x) & 15) != 0; x++)
    line[x] = PIXEL (x);
  for (; x + 4 <= x1; x += 4)
    _mm_stream_si128 ((__m128i *)(gpointer)(line + x),
                      _mm_set_epi32 ((int)PIXEL (x + 3), (int)PIXEL (x + 2), (int)PIXEL (x + 1), (int)PIXEL (x)));
#endif
  for (; x < x1; x++)
    line[x] = PIXEL (x);
#undef PIXEL
}

#ifdef BSP_PIXELS_AVX2
/* line_fill () by state, eight pixels at a time: each cell's colour of a
 * vector of the five (four states, then no step for any byte past them)
 * by one permutation, written past the cache into @line and, unless
 * NULL, @also (the next row of pixels when it shows the same cells; both
 * on the same 32-byte boundaries). */
__attribute__ ((target ("avx2"))) static void
line_fill_states_avx2 (guint32        *line,
                       guint32        *also,
                       const guint8   *states,
                       const guint32  *palette,
                       int             x0,
                       int             x1)
{
  __m256i colours = _mm256_setr_epi32 ((int)palette[0], (int)palette[1], (int)palette[2], (int)palette[3],
                                       (int)palette[4], 0, 0, 0);
  int x = x0;

  for (; x < x1 && ((guintptr)(line + x) & 31) != 0; x++)
    {
      line[x] = palette[states[x]];
      if (also != NULL)
        also[x] = line[x];
    }
  for (; x + 8 <= x1; x += 8)
    {
      __m128i eight = _mm_min_epu8 (_mm_loadl_epi64 ((const void *)(states + x)), _mm_set1_epi8 (4));
      __m256i pixels = _mm256_permutevar8x32_epi32 (colours, _mm256_cvtepu8_epi32 (eight));

      _mm256_stream_si256 ((__m256i *)(gpointer)(line + x), pixels);
      if (also != NULL)
        _mm256_stream_si256 ((__m256i *)(gpointer)(also + x), pixels);
    }
  for (; x < x1; x++)
    {
      line[x] = palette[states[x]];
      if (also != NULL)
        also[x] = line[x];
    }
}
#endif

/* The cells of @grid as pixels, @height rows of them (a cell's row
 * repeated to fill them), the grid's columns wide: from the picture's
 * cells row by row (picture_cells ()), a row of pixels at a time. Their
 * colours by state, or by the cells' step of the scale of cycles. */
static void
pixels_fill (const TesBspGrid *grid,
             const Picture    *picture,
             TesBspColoring    coloring,
             int               height,
             const Pixels     *to)
{
  guint32 palette[256];

  /* a colour per state (no step: the background), or 256 steps of the
   * cycles' scale: a lookup per pixel */
  for (guint i = 0; i < 256; i++)
    palette[i] = 0xff000000 | (coloring == TES_BSP_COLOR_CYCLES ? tes_bsp_cycles_color (i / 255.0, 1.0)
                               : i <= TES_TILE_STATE_SYNC ? tes_tile_state_color (i) : NO_STEP_RGB);

#ifdef BSP_PIXELS_AVX2
  /* by state, AVX2: two rows of pixels showing the same cells at once */
  if (coloring != TES_BSP_COLOR_CYCLES && tes_bsp_have_avx2 ())
    {
      for (int y = to->y0; y < to->y1; y++)
        {
          guint row = (guint)((guint64)y * grid->n_rows / height);
          guint32 *line = (guint32 *)(gpointer)(to->data + (gsize)y * to->stride), *also = NULL;

          if (y + 1 < to->y1 && to->stride % 32 == 0 && (guint)((guint64)(y + 1) * grid->n_rows / height) == row)
            also = (guint32 *)(gpointer)(to->data + (gsize)++y * to->stride);
          line_fill_states_avx2 (line, also, picture->states + (gsize)row * grid->width, palette, to->x0, to->x1);
        }
      _mm_sfence ();
      return;
    }
#endif
  for (int y = to->y0; y < to->y1; y++)
    {
      guint row = (guint)((guint64)y * grid->n_rows / height);

      line_fill ((guint32 *)(gpointer)(to->data + (gsize)y * to->stride), picture->states + (gsize)row * grid->width,
                 coloring == TES_BSP_COLOR_CYCLES ? picture->level_rows + (gsize)row * grid->width : NULL, palette,
                 to->x0, to->x1);
    }
#ifdef __SSE2__
  _mm_sfence ();
#endif
}

/* The picture's cells row by row, from the grid's columns (each cell's
 * step of the scale of cycles too, by cycles). */
static void
picture_cells (const TesBspGrid *grid,
               TesBspColoring    coloring,
               double            max_cycles,
               Picture          *picture)
{
  gsize size = (gsize)grid->width * grid->n_rows;

  if (picture->size != size)
    {
      g_free (picture->states);
      g_free (picture->levels);
      g_free (picture->level_rows);
      picture->states = g_malloc (size);
      picture->levels = g_malloc (size);
      picture->level_rows = g_malloc (size);
      picture->size = size;
    }
  bytes_transpose (picture->states, grid->states, grid->width, grid->n_rows);
  if (coloring != TES_BSP_COLOR_CYCLES)
    return;

  for (gsize i = 0; i < size; i++)
    picture->levels[i] = max_cycles > 0 ? (guint8)MIN (grid->cycles[i] / max_cycles * 255.0 + 0.5, 255.0) : 0;
  bytes_transpose (picture->level_rows, picture->levels, grid->width, grid->n_rows);
}

/* Where @rect of the picture can be written into @cr's target itself: an
 * image surface of 32-bit pixels, drawn unscaled and moved by whole
 * pixels, @rect on whole pixels, the clip none or rectangles (@to: the
 * pixels of @rect inside the one that holds them all, or nothing). Else
 * the picture is painted (a recording surface, as the window's, a PDF, a
 * scaled export). */
static gboolean
target_pixels (cairo_t               *cr,
               const graphene_rect_t *rect,
               Pixels                *to)
{
  cairo_surface_t *target = cairo_get_target (cr);
  cairo_rectangle_list_t *clip;
  cairo_matrix_t m;
  double sx, sy, ox, oy;
  int x, y, w, h, left, top, right, bottom;

  if (cairo_surface_get_type (target) != CAIRO_SURFACE_TYPE_IMAGE ||
      (cairo_image_surface_get_format (target) != CAIRO_FORMAT_RGB24 &&
       cairo_image_surface_get_format (target) != CAIRO_FORMAT_ARGB32))
    return FALSE;
  cairo_surface_get_device_scale (target, &sx, &sy);
  cairo_surface_get_device_offset (target, &ox, &oy);
  cairo_get_matrix (cr, &m);
  if (sx != 1 || sy != 1 || m.xx != 1 || m.yy != 1 || m.xy != 0 || m.yx != 0)
    return FALSE;
  x = (int)(rect->origin.x + m.x0 + ox);
  y = (int)(rect->origin.y + m.y0 + oy);
  w = (int)rect->size.width;
  h = (int)rect->size.height;
  if (x != rect->origin.x + m.x0 + ox || y != rect->origin.y + m.y0 + oy || w != rect->size.width ||
      h != rect->size.height)
    return FALSE;

  /* the clip within the rectangle, in rectangles of whole pixels (one
   * that is not cannot be written to) */
  cairo_save (cr);
  cairo_rectangle (cr, rect->origin.x, rect->origin.y, w, h);
  cairo_clip (cr);
  clip = cairo_copy_clip_rectangle_list (cr);
  cairo_restore (cr);
  if (clip->status != CAIRO_STATUS_SUCCESS || clip->num_rectangles > 1)
    {
      cairo_rectangle_list_destroy (clip);
      return FALSE;
    }

  /* within the surface */
  left = MAX (x, 0);
  top = MAX (y, 0);
  right = MIN (x + w, cairo_image_surface_get_width (target));
  bottom = MIN (y + h, cairo_image_surface_get_height (target));
  if (clip->num_rectangles == 1)
    {
      const cairo_rectangle_t *c = &clip->rectangles[0];

      left = MAX (left, (int)(c->x + m.x0 + ox));
      top = MAX (top, (int)(c->y + m.y0 + oy));
      right = MIN (right, (int)(c->x + c->width + m.x0 + ox));
      bottom = MIN (bottom, (int)(c->y + c->height + m.y0 + oy));
    }
  else
    right = left;
  cairo_rectangle_list_destroy (clip);

  to->stride = cairo_image_surface_get_stride (target);
  to->data = cairo_image_surface_get_data (target) + (gssize)y * to->stride + (gssize)x * 4;
  to->x0 = MIN (left - x, w);
  to->x1 = MAX (right - x, to->x0);
  to->y0 = MIN (top - y, h);
  to->y1 = MAX (bottom - y, to->y0);

  return TRUE;
}

/* @picture into @rect of @cr: its pixels written into the target where it
 * can (@target_pixels, from target_pixels ()), else made at the picture's size (@height rows of
 * the grid's columns, kept for the next frame) and painted, a copy rather
 * than a resampling. */
static void
picture_draw (cairo_t               *cr,
              const TesBspGrid      *grid,
              Picture               *picture,
              TesBspColoring         coloring,
              const graphene_rect_t *rect,
              const Pixels          *target_pixels)
{
  int height = MAX ((int)rect->size.height, 1);
  cairo_surface_t *cells;
  Pixels to;

  if (target_pixels != NULL)
    {
      cairo_surface_t *target = cairo_get_target (cr);

      cairo_surface_flush (target);
      pixels_fill (grid, picture, coloring, height, target_pixels);
      cairo_surface_mark_dirty (target);
      return;
    }

  /* the window records the picture, and keeps the last frame's
   * recording until this one's replaces it: the surface it holds would
   * be copied for it before being written again, the other one not */
  picture->turn ^= 1;
  cells = picture->surfaces[picture->turn];
  if (cells == NULL || cairo_image_surface_get_width (cells) != (int)grid->width ||
      cairo_image_surface_get_height (cells) != height)
    {
      g_clear_pointer (&picture->surfaces[picture->turn], cairo_surface_destroy);
      picture->surfaces[picture->turn] = cells = cairo_image_surface_create (CAIRO_FORMAT_RGB24, (int)grid->width,
                                                                            height);
    }
  cairo_surface_flush (cells);
  to.data = cairo_image_surface_get_data (cells);
  to.stride = cairo_image_surface_get_stride (cells);
  to.x0 = 0;
  to.x1 = (int)grid->width;
  to.y0 = 0;
  to.y1 = height;
  pixels_fill (grid, picture, coloring, height, &to);
  cairo_surface_mark_dirty (cells);

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

/* Each IPU's cells. On the main loop: a frame reads the pyramid's sums,
 * about a row per column, no thread to start for it. */
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
      if (g_ptr_array_index (frame->pictures, i) == NULL)
        g_ptr_array_index (frame->pictures, i) = g_new0 (Picture, 1);
    }
}

/* The background, white, but under the pictures written into the target
 * (all of @rects, @n of them, one under another, on whole pixels), which
 * cover theirs: the rectangles around them. */
static void
paint_background (cairo_t               *cr,
                  const graphene_rect_t *rects,
                  guint                  n)
{
  double x0, y0, x1, y1, top;

  cairo_save (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  if (n == 0)
    {
      cairo_paint (cr);
      cairo_restore (cr);
      return;
    }

  /* the whole target, in case it is larger than the picture */
  cairo_clip_extents (cr, &x0, &y0, &x1, &y1);
  x0 = floor (x0), y0 = floor (y0), x1 = ceil (x1), y1 = ceil (y1);
  top = y0;
  for (guint i = 0; i < n; i++)
    {
      const graphene_rect_t *r = &rects[i];
      double bottom = r->origin.y + r->size.height;

      /* above, left and right of it */
      if (r->origin.y > top)
        cairo_rectangle (cr, x0, top, x1 - x0, r->origin.y - top);
      if (r->origin.x > x0)
        cairo_rectangle (cr, x0, r->origin.y, r->origin.x - x0, r->size.height);
      if (x1 > r->origin.x + r->size.width)
        cairo_rectangle (cr, r->origin.x + r->size.width, r->origin.y, x1 - r->origin.x - r->size.width, r->size.height);
      top = MAX (top, bottom);
    }
  if (y1 > top)
    cairo_rectangle (cr, x0, top, x1 - x0, y1 - top);
  cairo_fill (cr);
  cairo_restore (cr);
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
 * visible range. Every pixel of the target (its clip) is painted opaque:
 * what it held before does not show (the window's canvas does not clear
 * its image for it).
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
  guint n_ipus = ipus != NULL ? ipus->len : 0;
  graphene_rect_t *rects = g_newa (graphene_rect_t, MAX (n_ipus, 1));
  Pixels *pixels = g_newa (Pixels, MAX (n_ipus, 1));
  gboolean direct = n_ipus > 0;
  double max_cycles = 0;
  TesPainter p;
  gint64 t0, t1, origin = 0;

  tes_workspace_get_visible (workspace, &t0, &t1);
  tes_workspace_get_span (workspace, &origin, NULL);

  /* every IPU's cells first: one scale of cycles for all */
  if (n_ipus > 0)
    {
      g_ptr_array_set_size (frame->grids, n_ipus);
      g_ptr_array_set_size (frame->pictures, n_ipus);
      fill_grids (frame, ipus, coloring, t0, t1, width, height);
      for (guint i = 0; i < n_ipus; i++)
        max_cycles = MAX (max_cycles, ((TesBspGrid *)g_ptr_array_index (frame->grids, i))->max_cycles);
      for (guint i = 0; i < n_ipus; i++)
        {
          rects[i] = tes_bsp_heat_rect (i, n_ipus, width, height);
          picture_cells (g_ptr_array_index (frame->grids, i), coloring, max_cycles, g_ptr_array_index (frame->pictures, i));
          direct = direct && target_pixels (cr, &rects[i], &pixels[i]);
        }
    }

  cairo_save (cr);
  /* pictures written into the target cover their rectangles */
  paint_background (cr, rects, direct ? n_ipus : 0);
  tes_painter_init (&p, cr, FONT);
  if (coloring == TES_BSP_COLOR_CYCLES)
    draw_cycles_legend (&p, max_cycles);
  else
    draw_legend (&p);

  if (n_ipus == 0)
    tes_painter_text (&p, _("No BSP steps in this report"), TES_BSP_LABEL_WIDTH, TES_BSP_LEGEND_HEIGHT, width - TES_BSP_LABEL_WIDTH,
                      PANGO_ALIGN_LEFT, FALSE, DIM_INK);

  for (guint i = 0; i < n_ipus; i++)
    {
      const TesBspIpu *ipu = g_ptr_array_index (ipus, i);
      const graphene_rect_t *rect = &rects[i];
      g_autofree char *n_tiles = tes_format_grouped (ipu->n_tiles);
      /* Translators: an IPU (by its number) and its tiles */
      g_autofree char *title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "IPU %d · %s tile", "IPU %d · %s tiles",
                                                             ipu->n_tiles),
                                                ipu->ipu, n_tiles);
      g_autofree char *last = g_strdup_printf (_("tile %u"), MAX (ipu->n_tiles, 1) - 1);

      tes_painter_text (&p, title, TES_BSP_LABEL_WIDTH, rect->origin.y - TES_BSP_HEADER_HEIGHT + 2, rect->size.width,
                        PANGO_ALIGN_LEFT, TRUE, INK);
      tes_painter_text (&p, _("tile 0"), 4, rect->origin.y, TES_BSP_LABEL_WIDTH - 10, PANGO_ALIGN_RIGHT, FALSE, DIM_INK);
      tes_painter_text (&p, last, 4, rect->origin.y + rect->size.height - 14, TES_BSP_LABEL_WIDTH - 10,
                        PANGO_ALIGN_RIGHT, FALSE, DIM_INK);
      picture_draw (cr, g_ptr_array_index (frame->grids, i), g_ptr_array_index (frame->pictures, i), coloring, rect,
                    direct ? &pixels[i] : NULL);
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
