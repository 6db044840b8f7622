/* tes-share-chart.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-share-chart"

#include "config.h"

#include "tes-share-chart.h"

#include <math.h>

#include <glib/gi18n.h>

/* A horizontal bar chart of time shares: one row per TesSummaryRow, with
 * its label, a bar scaled to the largest share and the share in percent.
 * Text is shaped once per data or style change; the geometry comes from
 * tes_share_chart_layout_new() on allocation; snapshot() only appends.
 * The keyboard selects a row (Up, Down, Home, End) and activates it
 * (Enter); screen readers read the rows and the selected one. */

#define NATURAL_BAR_AREA   320
#define MIN_LABEL_WIDTH    96
#define BAR_INSET          3

typedef struct
{
  PangoLayout *label;
  PangoLayout *value;
  GdkRGBA      color;
} RowText;

struct _TesShareChart
{
  GtkWidget             parent_instance;

  GPtrArray            *rows;        /* TesSummaryRow */

  /* Dropped on data and style changes */
  GArray               *texts;       /* RowText */
  GArray               *items;       /* TesShareChartItem */
  TesShareChartMetrics  metrics;
  int                   text_height;

  /* Dropped on allocation */
  TesShareChartLayout  *layout;

  char                 *font_key;
  GdkRGBA               fg;
  GdkRGBA               dim_fg;
  GdkRGBA               hover_bg;
  GdkRGBA               selected_bg;
  int                   hover;
  int                   selected;    /* -1: none */
};

enum {
  PROP_0,
  PROP_ROWS,
  PROP_SELECTED,
  N_PROPS
};

enum {
  ROW_ACTIVATED,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (TesShareChart, tes_share_chart, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void tes_share_chart_update_description (TesShareChart *self);

static GdkRGBA
palette_color (guint slot)
{
  guint32 rgb = tes_share_chart_palette[slot % TES_SHARE_CHART_N_COLORS];

  return (GdkRGBA) { ((rgb >> 16) & 0xff) / 255., ((rgb >> 8) & 0xff) / 255., (rgb & 0xff) / 255., 1 };
}

static void
row_text_clear (gpointer data)
{
  RowText *text = data;

  g_clear_object (&text->label);
  g_clear_object (&text->value);
}

static char *
format_share (double share)
{
  if (isnan (share))
    return g_strdup ("—");

  /* The precision the vendors print */
  return g_strdup_printf ("%.3f %%", share);
}

static void
tes_share_chart_drop_layout (TesShareChart *self)
{
  g_clear_pointer (&self->layout, tes_share_chart_layout_free);
}

static void
tes_share_chart_drop_text (TesShareChart *self)
{
  g_clear_pointer (&self->texts, g_array_unref);
  g_clear_pointer (&self->items, g_array_unref);
  tes_share_chart_drop_layout (self);
}

/* Shapes every label and value once; the row height follows the font. */
static void
tes_share_chart_ensure_text (TesShareChart *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  guint n_rows = self->rows ? self->rows->len : 0;
  g_autofree guint *slots = NULL;
  g_autofree const char **types = NULL;
  g_autofree double *shares = NULL;
  int text_height = 0;

  if (self->texts != NULL)
    return;

  slots = g_new0 (guint, n_rows);
  types = g_new0 (const char *, n_rows);
  shares = g_new0 (double, n_rows);
  for (guint i = 0; i < n_rows; i++)
    {
      const TesSummaryRow *row = g_ptr_array_index (self->rows, i);

      types[i] = row->type;
      shares[i] = row->share;
    }
  tes_share_chart_assign_colors (types, shares, n_rows, slots);

  self->texts = g_array_sized_new (FALSE, TRUE, sizeof (RowText), n_rows);
  g_array_set_clear_func (self->texts, row_text_clear);
  self->items = g_array_sized_new (FALSE, TRUE, sizeof (TesShareChartItem), n_rows);

  for (guint i = 0; i < n_rows; i++)
    {
      const TesSummaryRow *row = g_ptr_array_index (self->rows, i);
      g_autofree char *value = format_share (row->share);
      TesShareChartItem item = { 0 };
      RowText text = { 0 };
      int w, h;

      text.label = gtk_widget_create_pango_layout (widget, row->label);
      pango_layout_set_ellipsize (text.label, PANGO_ELLIPSIZE_END);
      pango_layout_set_single_paragraph_mode (text.label, TRUE);
      pango_layout_get_pixel_size (text.label, &w, &h);
      item.label_width = w;
      text_height = MAX (text_height, h);

      text.value = gtk_widget_create_pango_layout (widget, value);
      pango_layout_get_pixel_size (text.value, &w, &h);
      item.value_width = w;
      text_height = MAX (text_height, h);

      item.share = row->share;
      text.color = palette_color (slots[i]);

      g_array_append_val (self->texts, text);
      g_array_append_val (self->items, item);
    }

  if (text_height == 0)
    {
      g_autoptr(PangoLayout) probe = gtk_widget_create_pango_layout (widget, "Xg");
      pango_layout_get_pixel_size (probe, NULL, &text_height);
    }

  self->text_height = text_height;
  self->metrics.row_height = text_height + 2 * (BAR_INSET + 2);
  self->metrics.row_spacing = 2;
  self->metrics.padding = 18;
  self->metrics.column_spacing = 12;
  self->metrics.min_bar_area = 48;
  self->metrics.max_label_fraction = 0.4;
}

static void
tes_share_chart_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  TesShareChart *self = (TesShareChart *)widget;
  const TesShareChartItem *items;
  guint n_items;

  g_assert (TES_IS_SHARE_CHART (self));

  tes_share_chart_ensure_text (self);

  items = (const TesShareChartItem *)(gpointer)self->items->data;
  n_items = self->items->len;

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      double label_width = 0;
      double with_labels;

      for (guint i = 0; i < n_items; i++)
        label_width = MAX (label_width, ceil (items[i].label_width));

      with_labels = tes_share_chart_layout_measure_width (items, n_items, &self->metrics, 0);

      *minimum = ceil (with_labels - label_width + MIN (label_width, MIN_LABEL_WIDTH));
      *natural = ceil (tes_share_chart_layout_measure_width (items, n_items, &self->metrics, NATURAL_BAR_AREA));
    }
  else
    {
      *minimum = *natural = ceil (tes_share_chart_layout_measure_height (n_items, &self->metrics));
    }

  *minimum_baseline = -1;
  *natural_baseline = -1;
}

static void
tes_share_chart_size_allocate (GtkWidget *widget,
                               int        width,
                               int        height,
                               int        baseline)
{
  TesShareChart *self = (TesShareChart *)widget;

  g_assert (TES_IS_SHARE_CHART (self));

  tes_share_chart_ensure_text (self);
  tes_share_chart_drop_layout (self);

  self->layout = tes_share_chart_layout_new ((const TesShareChartItem *)(gpointer)self->items->data,
                                             self->items->len, &self->metrics, width);

  for (guint i = 0; i < self->layout->n_rows; i++)
    {
      const TesShareChartRow *row = &self->layout->rows[i];
      RowText *text = &g_array_index (self->texts, RowText, i);

      pango_layout_set_width (text->label,
                              row->label_truncated ? (int)(row->label_width * PANGO_SCALE) : -1);
    }
}

static void
append_text (GtkSnapshot   *snapshot,
             PangoLayout   *layout,
             double         x,
             double         y,
             const GdkRGBA *color)
{
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y));
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
}

static void
tes_share_chart_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  TesShareChart *self = (TesShareChart *)widget;
  int width = gtk_widget_get_width (widget);

  g_assert (TES_IS_SHARE_CHART (self));

  if (self->layout == NULL)
    return;

  for (guint i = 0; i < self->layout->n_rows; i++)
    {
      const TesShareChartRow *row = &self->layout->rows[i];
      const RowText *text = &g_array_index (self->texts, RowText, i);
      double text_y = row->y + floor ((row->height - self->text_height) / 2);

      if ((int)i == self->selected)
        gtk_snapshot_append_color (snapshot, &self->selected_bg,
                                   &GRAPHENE_RECT_INIT (0, row->y, width, row->height));
      else if ((int)i == self->hover)
        gtk_snapshot_append_color (snapshot, &self->hover_bg,
                                   &GRAPHENE_RECT_INIT (0, row->y, width, row->height));

      append_text (snapshot, text->label, row->label_x, text_y, &self->fg);

      if (row->bar_width > 0)
        gtk_snapshot_append_color (snapshot, &text->color,
                                   &GRAPHENE_RECT_INIT (row->bar_x, row->y + BAR_INSET,
                                                        row->bar_width, row->height - 2 * BAR_INSET));

      append_text (snapshot, text->value, row->value_x, text_y, &self->dim_fg);
    }

  /* the keyboard's place: the selected row, or the first before any */
  if ((gtk_widget_get_state_flags (widget) & GTK_STATE_FLAG_FOCUS_VISIBLE) && self->layout->n_rows > 0)
    {
      const TesShareChartRow *row = &self->layout->rows[MAX (self->selected, 0)];
      GskRoundedRect outline;
      GdkRGBA color = self->fg;
      const float widths[4] = { 1, 1, 1, 1 };

      color.alpha *= 0.6f;
      gsk_rounded_rect_init_from_rect (&outline, &GRAPHENE_RECT_INIT (0, row->y, width, row->height), 0);
      gtk_snapshot_append_border (snapshot, &outline, widths, (const GdkRGBA[4]) { color, color, color, color });
    }
}

static void
tes_share_chart_css_changed (GtkWidget         *widget,
                             GtkCssStyleChange *change)
{
  TesShareChart *self = (TesShareChart *)widget;
  const PangoFontDescription *font;
  g_autofree char *font_key = NULL;

  g_assert (TES_IS_SHARE_CHART (self));

  GTK_WIDGET_CLASS (tes_share_chart_parent_class)->css_changed (widget, change);

  /* GTK 4.8 has no gtk_widget_get_color(); the style context is the way to
   * read the CSS colour there. */
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &self->fg);
  self->dim_fg = self->fg;
  self->dim_fg.alpha *= 0.72f;
  self->hover_bg = self->fg;
  self->hover_bg.alpha *= 0.07f;
  self->selected_bg = self->fg;
  self->selected_bg.alpha *= 0.16f;

  /* State changes (hover, backdrop) come here too: shape the text again
   * only when the font changed. */
  font = pango_context_get_font_description (gtk_widget_get_pango_context (widget));
  font_key = font ? pango_font_description_to_string (font) : NULL;

  if (g_strcmp0 (self->font_key, font_key) != 0)
    {
      g_free (self->font_key);
      self->font_key = g_steal_pointer (&font_key);
      tes_share_chart_drop_text (self);
      gtk_widget_queue_resize (widget);
    }
  else
    {
      gtk_widget_queue_draw (widget);
    }
}

static void
tes_share_chart_set_hover (TesShareChart *self,
                           int            hover)
{
  if (self->hover == hover)
    return;

  self->hover = hover;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
tes_share_chart_motion_cb (TesShareChart            *self,
                           double                    x,
                           double                    y,
                           GtkEventControllerMotion *motion)
{
  g_assert (TES_IS_SHARE_CHART (self));

  tes_share_chart_set_hover (self, self->layout ? tes_share_chart_layout_hit_test (self->layout, y) : -1);
}

static void
tes_share_chart_leave_cb (TesShareChart            *self,
                          GtkEventControllerMotion *motion)
{
  g_assert (TES_IS_SHARE_CHART (self));

  tes_share_chart_set_hover (self, -1);
}

static gboolean
tes_share_chart_query_tooltip (GtkWidget  *widget,
                               int         x,
                               int         y,
                               gboolean    keyboard_tooltip,
                               GtkTooltip *tooltip)
{
  TesShareChart *self = (TesShareChart *)widget;
  g_autoptr(GString) markup = NULL;
  g_autofree char *share = NULL;
  g_autofree char *escaped = NULL;
  const TesSummaryRow *row;
  int index;

  g_assert (TES_IS_SHARE_CHART (self));

  if (self->layout == NULL || keyboard_tooltip)
    return FALSE;

  if ((index = tes_share_chart_layout_hit_test (self->layout, y)) < 0)
    return FALSE;

  row = g_ptr_array_index (self->rows, index);
  share = format_share (row->share);

  escaped = g_markup_escape_text (row->label, -1);
  markup = g_string_new (NULL);
  g_string_append_printf (markup, "<b>%s</b>", escaped);
  g_clear_pointer (&escaped, g_free);

  if (row->type != NULL && g_strcmp0 (row->type, row->label) != 0)
    {
      escaped = g_markup_escape_text (row->type, -1);
      /* Translators: the operator type in the chart's tooltip */
      g_string_append_printf (markup, "\n%s %s", _("Type:"), escaped);
    }

  /* Translators: the time share in the chart's tooltip */
  g_string_append_printf (markup, "\n%s %s", _("Share:"), share);

  if (row->count >= 0)
    /* Translators: how many operators or slices a row sums up */
    g_string_append_printf (markup, "\n%s %" G_GINT64_FORMAT, _("Count:"), row->count);

  gtk_tooltip_set_markup (tooltip, markup->str);

  return TRUE;
}

/* Up, Down, Home, End select a row; Enter (or Space) activates it. */
static gboolean
tes_share_chart_key_pressed_cb (TesShareChart         *self,
                                guint                  keyval,
                                guint                  keycode,
                                GdkModifierType        state,
                                GtkEventControllerKey *controller)
{
  int n_rows = self->rows ? (int)self->rows->len : 0;

  if (n_rows == 0 || (state & (GDK_CONTROL_MASK | GDK_ALT_MASK | GDK_SHIFT_MASK)) != 0)
    return FALSE;

  switch (keyval)
    {
    case GDK_KEY_Down: case GDK_KEY_KP_Down:
      tes_share_chart_set_selected (self, MIN (self->selected + 1, n_rows - 1));
      return TRUE;
    case GDK_KEY_Up: case GDK_KEY_KP_Up:
      tes_share_chart_set_selected (self, MAX (self->selected - 1, 0));
      return TRUE;
    case GDK_KEY_Home: case GDK_KEY_KP_Home:
      tes_share_chart_set_selected (self, 0);
      return TRUE;
    case GDK_KEY_End: case GDK_KEY_KP_End:
      tes_share_chart_set_selected (self, n_rows - 1);
      return TRUE;
    case GDK_KEY_Return: case GDK_KEY_KP_Enter: case GDK_KEY_ISO_Enter: case GDK_KEY_space:
      if (self->selected < 0)
        return FALSE;
      g_signal_emit (self, signals[ROW_ACTIVATED], 0, (guint)self->selected);
      return TRUE;
    default:
      return FALSE;
    }
}

/* A click selects the row under the pointer, as the keyboard does. */
static void
tes_share_chart_pressed_cb (TesShareChart   *self,
                            int              n_press,
                            double           x,
                            double           y,
                            GtkGestureClick *gesture)
{
  int index;

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (self->layout != NULL && (index = tes_share_chart_layout_hit_test (self->layout, y)) >= 0)
    {
      tes_share_chart_set_selected (self, index);
      if (n_press == 2)
        g_signal_emit (self, signals[ROW_ACTIVATED], 0, (guint)index);
    }
}

static void
tes_share_chart_dispose (GObject *object)
{
  TesShareChart *self = (TesShareChart *)object;

  tes_share_chart_drop_text (self);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_clear_pointer (&self->font_key, g_free);

  G_OBJECT_CLASS (tes_share_chart_parent_class)->dispose (object);
}

static void
tes_share_chart_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  TesShareChart *self = TES_SHARE_CHART (object);

  switch (prop_id)
    {
    case PROP_ROWS:
      g_value_set_boxed (value, self->rows);
      break;

    case PROP_SELECTED:
      g_value_set_int (value, self->selected);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tes_share_chart_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  TesShareChart *self = TES_SHARE_CHART (object);

  switch (prop_id)
    {
    case PROP_ROWS:
      tes_share_chart_set_rows (self, g_value_get_boxed (value));
      break;

    case PROP_SELECTED:
      tes_share_chart_set_selected (self, g_value_get_int (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tes_share_chart_class_init (TesShareChartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tes_share_chart_dispose;
  object_class->get_property = tes_share_chart_get_property;
  object_class->set_property = tes_share_chart_set_property;

  widget_class->measure = tes_share_chart_measure;
  widget_class->size_allocate = tes_share_chart_size_allocate;
  widget_class->snapshot = tes_share_chart_snapshot;
  widget_class->css_changed = tes_share_chart_css_changed;
  widget_class->query_tooltip = tes_share_chart_query_tooltip;

  /**
   * TesShareChart:rows:
   *
   * The rows to draw, TesSummaryRow as tes_report_summarize() returns
   * them, in the order they are drawn.
   */
  properties[PROP_ROWS] =
    g_param_spec_boxed ("rows", NULL, NULL,
                        G_TYPE_PTR_ARRAY,
                        (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /**
   * TesShareChart:selected:
   *
   * The row the keyboard or a click selected; -1 for none.
   */
  properties[PROP_SELECTED] =
    g_param_spec_int ("selected", NULL, NULL, -1, G_MAXINT, -1,
                      (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TesShareChart::row-activated:
   * @index: the row
   *
   * Enter on the selected row, or a double-click on a row.
   */
  signals[ROW_ACTIVATED] =
    g_signal_new ("row-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_set_css_name (widget_class, "sharechart");
  /* rows the keyboard moves through, not a still picture */
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
tes_share_chart_init (TesShareChart *self)
{
  GtkEventController *motion;
  GtkEventController *keys;
  GtkGesture *click;

  self->hover = -1;
  self->selected = -1;
  self->fg = (GdkRGBA) { 0, 0, 0, 1 };
  self->dim_fg = self->fg;
  self->hover_bg = (GdkRGBA) { 0, 0, 0, 0.08f };

  motion = gtk_event_controller_motion_new ();
  g_signal_connect_object (motion, "motion",
                           G_CALLBACK (tes_share_chart_motion_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (motion, "leave",
                           G_CALLBACK (tes_share_chart_leave_cb),
                           self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);

  keys = gtk_event_controller_key_new ();
  g_signal_connect_object (keys, "key-pressed", G_CALLBACK (tes_share_chart_key_pressed_cb),
                           self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);

  click = gtk_gesture_click_new ();
  g_signal_connect_object (click, "pressed", G_CALLBACK (tes_share_chart_pressed_cb),
                           self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));

  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  /* the focus outline comes and goes with the focus */
  g_signal_connect (self, "notify::has-focus", G_CALLBACK (gtk_widget_queue_draw), NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Time shares"),
                                  -1);
}

GtkWidget *
tes_share_chart_new (void)
{
  return g_object_new (TES_TYPE_SHARE_CHART, NULL);
}

/**
 * tes_share_chart_get_rows:
 *
 * Returns: (transfer none) (nullable): the rows drawn
 */
GPtrArray *
tes_share_chart_get_rows (TesShareChart *self)
{
  g_return_val_if_fail (TES_IS_SHARE_CHART (self), NULL);

  return self->rows;
}

/* Screen readers get the selected row and the first rows in words. */
static void
tes_share_chart_update_description (TesShareChart *self)
{
  g_autoptr(GString) description = g_string_new (NULL);

  if (self->rows != NULL && self->selected >= 0)
    {
      const TesSummaryRow *row = g_ptr_array_index (self->rows, self->selected);
      g_autofree char *share = format_share (row->share);

      /* Translators: the chart's selected row for screen readers: its label,
       * its share, its place among the rows */
      g_string_append_printf (description, _("Selected: %s %s, %d of %u. "),
                              row->label, share, self->selected + 1, self->rows->len);
    }

  for (guint i = 0; self->rows != NULL && i < MIN (self->rows->len, 5); i++)
    {
      const TesSummaryRow *row = g_ptr_array_index (self->rows, i);
      g_autofree char *share = format_share (row->share);

      g_string_append_printf (description, "%s%s %s", i ? ", " : "", row->label, share);
    }

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description->str,
                                  -1);
}

/**
 * tes_share_chart_set_rows:
 * @rows: (nullable): TesSummaryRow to draw; the chart keeps a reference
 *   and expects the array not to change afterwards
 */
void
tes_share_chart_set_rows (TesShareChart *self,
                          GPtrArray     *rows)
{
  g_return_if_fail (TES_IS_SHARE_CHART (self));

  if (self->rows == rows)
    return;

  if (rows != NULL)
    g_ptr_array_ref (rows);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  self->rows = rows;
  self->hover = -1;
  if (self->selected != -1)
    {
      self->selected = -1;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
    }

  tes_share_chart_drop_text (self);

  tes_share_chart_update_description (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ROWS]);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

/**
 * tes_share_chart_get_row_color:
 *
 * The colour of the bar of row @row: the hue of its type.
 */
void
tes_share_chart_get_row_color (TesShareChart *self,
                               guint          row,
                               GdkRGBA       *color)
{
  g_return_if_fail (TES_IS_SHARE_CHART (self));
  g_return_if_fail (self->rows != NULL && row < self->rows->len);
  g_return_if_fail (color != NULL);

  tes_share_chart_ensure_text (self);

  *color = g_array_index (self->texts, RowText, row).color;
}

/**
 * tes_share_chart_get_layout:
 *
 * Returns: (transfer none) (nullable): the geometry of the last
 *   allocation, or %NULL before the first one
 */
const TesShareChartLayout *
tes_share_chart_get_layout (TesShareChart *self)
{
  g_return_val_if_fail (TES_IS_SHARE_CHART (self), NULL);

  return self->layout;
}

int
tes_share_chart_get_selected (TesShareChart *self)
{
  g_return_val_if_fail (TES_IS_SHARE_CHART (self), -1);

  return self->selected;
}

/* Selects row @index (-1: none). */
void
tes_share_chart_set_selected (TesShareChart *self,
                              int            index)
{
  g_return_if_fail (TES_IS_SHARE_CHART (self));
  g_return_if_fail (index >= -1);

  if (index >= (int)(self->rows ? self->rows->len : 0))
    index = -1;
  if (self->selected == index)
    return;

  self->selected = index;
  tes_share_chart_update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));

  /* in a scrolled window, the selected row in view */
  if (index >= 0 && self->layout != NULL && index < (int)self->layout->n_rows)
    {
      GtkWidget *scrolled = gtk_widget_get_ancestor (GTK_WIDGET (self), GTK_TYPE_SCROLLED_WINDOW);
      const TesShareChartRow *row = &self->layout->rows[index];
      graphene_point_t top;

      if (scrolled != NULL &&
          gtk_widget_compute_point (GTK_WIDGET (self), gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scrolled)),
                                    &GRAPHENE_POINT_INIT (0, (float)row->y), &top))
        gtk_adjustment_clamp_page (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled)),
                                   top.y, top.y + row->height);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED]);
}
