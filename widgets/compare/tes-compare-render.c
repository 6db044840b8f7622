/* tes-compare-render.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-compare-render"

#include "config.h"

#include "tes-compare-render.h"
#include "tes-painter.h"
#include "tes-report.h"
#include "tes-section.h"

/* Two runs one above the other, each under a strip naming it and drawn
 * by its section's own render, as the window draws that section. */

#define FONT        "Sans 10"
#define STRIP       0xe8e8e8
#define STRIP_TEXT  0x202020

/* "A: report.txt, listing.txt": the side and its files' names. */
char *
tes_compare_render_title (TesWorkspace *workspace,
                          guint         side)
{
  const char * const *paths = tes_report_get_paths (tes_workspace_get_report (workspace));
  g_autoptr(GString) title = g_string_new (side == 0 ? "A: " : "B: ");

  for (guint i = 0; paths != NULL && paths[i] != NULL; i++)
    {
      g_autofree char *base = g_path_get_basename (paths[i]);

      if (i > 0)
        g_string_append (title, ", ");
      g_string_append (title, base);
    }

  return g_string_free (g_steal_pointer (&title), FALSE);
}

/* @a above @b in a @width × @height area at the origin of @cr, each in
 * @section_type's @view (see tes_section_type_render()). Link the two
 * workspaces first for their times to line up. */
gboolean
tes_compare_render (GType          section_type,
                    const char    *view,
                    TesWorkspace  *a,
                    TesWorkspace  *b,
                    cairo_t       *cr,
                    int            width,
                    int            height,
                    GError       **error)
{
  TesWorkspace *sides[2] = { a, b };
  int half = height / 2;

  g_return_val_if_fail (TES_IS_WORKSPACE (a) && TES_IS_WORKSPACE (b), FALSE);
  g_return_val_if_fail (cr != NULL, FALSE);

  if (half <= TES_COMPARE_RENDER_LABEL_HEIGHT)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "%d pixels are too few for two runs one above the other", height);
      return FALSE;
    }

  for (guint side = 0; side < 2; side++)
    {
      g_autofree char *title = tes_compare_render_title (sides[side], side);
      int top = side * half;
      int body = (side == 0 ? half : height - half) - TES_COMPARE_RENDER_LABEL_HEIGHT;
      TesPainter p;
      gboolean drawn;

      cairo_save (cr);
      cairo_rectangle (cr, 0, top, width, TES_COMPARE_RENDER_LABEL_HEIGHT);
      cairo_clip (cr);
      tes_painter_set_rgb (cr, STRIP);
      cairo_paint (cr);
      tes_painter_init (&p, cr, FONT);
      tes_painter_text (&p, title, 8, top + 4, width - 16, PANGO_ALIGN_LEFT, TRUE, STRIP_TEXT);
      tes_painter_clear (&p);
      cairo_restore (cr);

      cairo_save (cr);
      cairo_translate (cr, 0, top + TES_COMPARE_RENDER_LABEL_HEIGHT);
      cairo_rectangle (cr, 0, 0, width, body);
      cairo_clip (cr);
      drawn = tes_section_type_render (section_type, sides[side], view, cr, width, body, error);
      cairo_restore (cr);
      if (!drawn)
        return FALSE;
    }

  return TRUE;
}
