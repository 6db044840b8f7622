/* tes-trace-summary-render.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "tes-painter.h"
#include "tes-share-chart-layout.h"
#include "tes-trace-layout.h"
#include "tes-trace-summary-render.h"

/* The Summary tab's two charts, drawn with cairo alone: each device's
 * time by category as one stacked bar, and one operator's durations as a
 * histogram (Tracy's Find Zone). */

#define FONT     "Sans 9"
#define INK      0x241f31
#define DIM_INK  0x77767b
#define BAR      14.0
#define ROW      (BAR + 22.0)

/* Returns the height drawn. */
double
tes_trace_draw_proportions (cairo_t   *cr,
                            GPtrArray *proportions,
                            double     width)
{
  TesPainter p;
  double y = 0;

  tes_painter_init (&p, cr, FONT);

  for (guint i = 0; proportions != NULL && i < proportions->len; i++)
    {
      const TesTraceProportion *proportion = g_ptr_array_index (proportions, i);
      g_autoptr(GString) legend = g_string_new (NULL);
      double x = 0;

      tes_painter_text (&p, proportion->device, 0, y, width, PANGO_ALIGN_LEFT, TRUE, INK);
      y += 16;

      for (guint j = 0; j < proportion->shares->len; j++)
        {
          const TesTraceShare *share = &g_array_index (proportion->shares, TesTraceShare, j);
          double w = width * share->share / 100.0;

          tes_painter_set_rgb (cr, tes_share_chart_palette[tes_trace_color_index (share->category)]);
          cairo_rectangle (cr, x, y, MAX (w, 1), BAR);
          cairo_fill (cr);
          x += w;
          if (j < 4)
            g_string_append_printf (legend, "%s%s %.1f %%", j ? "  ·  " : "", share->category, share->share);
        }
      if (proportion->shares->len > 4)
        /* Translators: the legend of a stacked bar names its four largest parts */
        g_string_append_printf (legend, _("  ·  %u more"), proportion->shares->len - 4);

      tes_painter_text (&p, legend->str, 0, y + BAR + 2, width, PANGO_ALIGN_LEFT, FALSE, DIM_INK);
      y += ROW + 8;
    }

  tes_painter_clear (&p);

  return y;
}

/* Bars of counts over duration bins, the shortest and longest below. */
double
tes_trace_draw_histogram (cairo_t            *cr,
                          GArray             *bins,
                          const char         *name,
                          TesTraceFormatFunc  format,
                          gpointer            data,
                          double              width,
                          double              height)
{
  g_autofree char *title = NULL;
  TesPainter p;
  guint most = 0, total = 0;
  double top, plot_height;

  tes_painter_init (&p, cr, FONT);

  for (guint i = 0; bins != NULL && i < bins->len; i++)
    {
      most = MAX (most, g_array_index (bins, TesTraceBin, i).count);
      total += g_array_index (bins, TesTraceBin, i).count;
    }

  /* Translators: the histogram's title: a slice name and how many there are */
  title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Durations of “%s”: %u slice",
                                        "Durations of “%s”: %u slices", total), name ? name : "", total);
  top = tes_painter_text (&p, title, 0, 0, width, PANGO_ALIGN_LEFT, TRUE, INK) + 6;
  plot_height = height - top - 18;

  if (bins != NULL && bins->len > 0 && most > 0 && plot_height > 8)
    {
      double bar = width / bins->len;
      g_autofree char *lo = format (g_array_index (bins, TesTraceBin, 0).lo, data);
      g_autofree char *hi = format (g_array_index (bins, TesTraceBin, bins->len - 1).hi - 1, data);

      tes_painter_set_rgb (cr, tes_share_chart_palette[tes_trace_color_index (name)]);
      for (guint i = 0; i < bins->len; i++)
        {
          guint count = g_array_index (bins, TesTraceBin, i).count;
          double h = count ? MAX (plot_height * count / most, 1) : 0;

          cairo_rectangle (cr, i * bar + 0.5, top + plot_height - h, MAX (bar - 1, 1), h);
        }
      cairo_fill (cr);

      tes_painter_text (&p, lo, 0, top + plot_height + 2, width / 2, PANGO_ALIGN_LEFT, FALSE, DIM_INK);
      tes_painter_text (&p, hi, width / 2, top + plot_height + 2, width / 2, PANGO_ALIGN_RIGHT, FALSE, DIM_INK);
    }

  tes_painter_clear (&p);

  return height;
}
