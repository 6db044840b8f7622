/* tes-trace-section.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-trace-section"

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "tes-canvas.h"
#include "tes-row-item.h"
#include "tes-table.h"
#include "tes-trace-details.h"
#include "tes-trace-render.h"
#include "tes-trace-section.h"
#include "tes-trace-summary-render.h"

/* The Execution Trace: every timed slice of the report on lanes per
 * device and unit, flat or as a flame graph, with the selected slice's
 * details below. The range and the selection are the workspace's. */

struct _TesTraceSection
{
  TesSection      parent_instance;

  TesTraceView   *view;
  GtkScrollbar   *scrollbar;
  GtkWidget      *ipu_box;
  GtkDropDown    *ipu_dropdown;
  GtkStringList  *ipu_names;
  GArray         *ipu_tracks;    /* gint64: the IPU of each ipu_dropdown item but the first */
  GtkToggleButton *flat_button;
  GtkToggleButton *flame_button;
  GtkCheckButton *text_check;
  GtkCheckButton *flows_check;
  GtkCheckButton *runs_check;
  GtkCheckButton *syncs_check;
  GtkCheckButton *separate_check;
  GtkCheckButton *balance_check;
  GtkCheckButton *groups_check;
  GtkCheckButton *terminals_check;
  GtkCheckButton *external_syncs_check;
  GtkCheckButton *sync_ans_check;
  GtkCheckButton *flushes_check;
  GtkCheckButton *relative_check;
  GtkCheckButton *aggregate_check;
  GtkDropDown    *unit_dropdown;
  GtkLabel       *range_label;
  GtkLabel       *details_label;
  GtkLabel       *shortcuts_label;
  GtkMenuButton  *shortcuts_button;
  GtkSearchEntry *search_entry;
  GtkLabel       *match_label;
  GtkStack       *bottom_stack;
  GtkLabel       *summary_title;
  GtkColumnView  *stats_view;
  GtkColumnViewColumn *stat_columns[7];   /* by STAT_*, the view's */
  TesCanvas      *proportions_area;
  GtkDrawingArea *histogram_area;

  /* the Summary tab: rebuilt in a thread a moment after the range or the
   * selection last moved, while the tab is shown */
  GListStore     *stats;
  GPtrArray      *proportions;
  GArray         *histogram;
  char           *histogram_name;
  guint32         histogram_name_id;
  guint           summary_source;
  GCancellable   *summary_cancellable;
  GCancellable   *histogram_cancellable;
  gboolean        summary_loading;
  GCancellable   *details_cancellable;  /* while the selected slice's details are read */
};

enum {
  STAT_NAME,
  STAT_COUNT,
  STAT_TOTAL,
  STAT_SELF,
  STAT_MEAN,
  STAT_MIN,
  STAT_MAX,
  N_STAT_COLUMNS
};

G_DEFINE_FINAL_TYPE (TesTraceSection, tes_trace_section, TES_TYPE_SECTION)

static const char * const trace_views[] = { "trace", "flame", NULL };

static gboolean
tes_trace_section_has_data (TesWorkspace *workspace)
{
  TesReportCounts counts;

  tes_report_get_counts (tes_workspace_get_report (workspace), &counts);

  return counts.n_slices > 0;
}

static gboolean
tes_trace_section_render (TesWorkspace  *workspace,
                          const char    *view,
                          cairo_t       *cr,
                          int            width,
                          int            height,
                          GError       **error)
{
  TesTraceMode mode = g_strcmp0 (view, "flame") == 0 ? TES_TRACE_FLAME : TES_TRACE_FLAT;

  return tes_trace_render (workspace, mode, cr, width, height, error);
}

static char *
format_time_since_start (TesWorkspace *workspace,
                         gint64        ns)
{
  gint64 origin = 0;

  tes_workspace_get_span (workspace, &origin, NULL);

  return tes_workspace_format_duration (workspace, ns - origin);
}

static void
tes_trace_section_update_range (TesTraceSection *self)
{
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));
  g_autofree char *from = NULL;
  g_autofree char *width = NULL;
  g_autofree char *text = NULL;
  gint64 t0, t1;

  if (workspace == NULL)
    return;

  tes_workspace_get_visible (workspace, &t0, &t1);
  from = format_time_since_start (workspace, t0);
  width = tes_workspace_format_duration (workspace, t1 - t0);
  /* Translators: the visible range: its start since the run's start, and its width */
  text = g_strdup_printf (_("From %s, %s shown"), from, width);
  gtk_label_set_label (self->range_label, text);
  /* whole, when a narrow window shortens the label */
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->range_label), text);
}

/* What the Details pane says of the selected slice (plain text), read
 * from the cache at once. */
char *
tes_trace_section_dup_details (TesTraceSection *self)
{
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));
  g_autoptr(TesTraceDetails) details = NULL;
  g_autofree char *start = NULL;
  const TesTraceBox *box;
  gint64 track_id = 0;
  guint n_selected = 0;

  g_return_val_if_fail (TES_IS_TRACE_SECTION (self), NULL);

  if (workspace == NULL)
    return g_strdup ("");

  tes_workspace_get_selected_slices (workspace, &n_selected);
  if (n_selected == 0 || !(box = tes_trace_view_get_selected_box (self->view, &track_id)))
    return g_strdup (_("Click a slice to see its details; Shift+drag selects a span."));

  details = tes_trace_details_read (tes_workspace_get_report (workspace), track_id, box);
  start = format_time_since_start (workspace, box->start);

  return tes_trace_details_format (workspace, track_id, box, start, details);
}

static void
details_read_cb (GObject      *source_object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(TesTraceDetails) details = tes_trace_details_read_finish (TES_REPORT (source_object), result, NULL);
  TesTraceSection *self = user_data;
  TesWorkspace *workspace;
  g_autofree char *start = NULL;
  g_autofree char *text = NULL;
  const TesTraceBox *box;
  gint64 track_id = 0;

  /* cancelled: another slice's, or the section gone */
  if (details == NULL)
    return;

  g_clear_object (&self->details_cancellable);
  workspace = tes_section_get_workspace (TES_SECTION (self));
  if (workspace == NULL || !(box = tes_trace_view_get_selected_box (self->view, &track_id)))
    return;
  start = format_time_since_start (workspace, box->start);
  text = tes_trace_details_format (workspace, track_id, box, start, details);
  gtk_label_set_label (self->details_label, text);
}

/* The Details pane follows the selection; what it says of a slice is
 * read in a thread (the cache may be slow: arrows and clicks never wait
 * on it). */
static void
tes_trace_section_update_details (TesTraceSection *self)
{
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));
  const TesTraceBox *box;
  gint64 track_id = 0;
  guint n_selected = 0;

  g_cancellable_cancel (self->details_cancellable);
  g_clear_object (&self->details_cancellable);
  if (workspace != NULL)
    tes_workspace_get_selected_slices (workspace, &n_selected);
  if (n_selected == 0 || !(box = tes_trace_view_get_selected_box (self->view, &track_id)))
    {
      g_autofree char *prompt = tes_trace_section_dup_details (self);

      gtk_label_set_label (self->details_label, prompt);
      return;
    }

  self->details_cancellable = g_cancellable_new ();
  tes_trace_details_read_async (tes_workspace_get_report (workspace), track_id, box, self->details_cancellable,
                                details_read_cb, self);
}

static void tes_trace_section_update_stat_unit (TesTraceSection *self);

static void
tes_trace_section_sync_unit (TesTraceSection *self)
{
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));

  if (workspace != NULL)
    gtk_drop_down_set_selected (self->unit_dropdown, tes_workspace_get_time_unit (workspace));
  tes_trace_section_update_range (self);
  tes_trace_section_update_details (self);
  tes_trace_section_update_stat_unit (self);
}

static void
tes_trace_section_unit_changed_cb (TesTraceSection *self,
                                   GParamSpec      *pspec,
                                   GtkDropDown     *dropdown)
{
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));
  TesTimeUnit unit = gtk_drop_down_get_selected (dropdown);
  g_autofree char *why = NULL;

  if (workspace == NULL || unit == tes_workspace_get_time_unit (workspace))
    return;

  /* a report without a clock cannot count cycles: say why, stay put */
  if (!tes_workspace_time_unit_available (workspace, unit, &why))
    {
      gtk_widget_set_tooltip_text (GTK_WIDGET (dropdown), why);
      gtk_drop_down_set_selected (dropdown, tes_workspace_get_time_unit (workspace));
      return;
    }

  gtk_widget_set_tooltip_text (GTK_WIDGET (dropdown), _("Time unit"));
  tes_workspace_set_time_unit (workspace, unit);
}

static void
tes_trace_section_mode_toggled_cb (TesTraceSection *self,
                                   GtkToggleButton *button)
{
  if (!gtk_toggle_button_get_active (button))
    return;

  tes_trace_view_set_mode (self->view, button == self->flame_button ? TES_TRACE_FLAME : TES_TRACE_FLAT);
}


/* The Summary tab */

static char *
format_for_workspace (gint64   ns,
                      gpointer data)
{
  return tes_workspace_format_duration (data, ns);
}

static char *
stat_cell (gconstpointer row,
           guint         column,
           gpointer      data)
{
  TesTraceSection *self = data;
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));
  const TesTraceStat *stat = row;
  gint64 values[] = { 0, stat->count, stat->total, stat->self, stat->mean, stat->min, stat->max };

  if (column == STAT_NAME)
    return g_strdup (stat->name ? stat->name : "");
  if (column == STAT_COUNT)
    return tes_format_grouped ((double)stat->count);

  /* the unit is in the column's header */
  return workspace ? tes_workspace_format_figure (workspace, values[column]) : g_strdup ("");
}

static const char * const stat_titles[] = {
  N_("Name"), N_("Count"), N_("Total"), N_("Self"), N_("Mean"), N_("Min"), N_("Max"),
};

/* The durations' headers name the workspace's unit, and their cells are
 * written again in it. */
static void
tes_trace_section_update_stat_unit (TesTraceSection *self)
{
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->stats));

  for (guint c = STAT_TOTAL; c < N_STAT_COLUMNS; c++)
    {
      g_autofree char *title = NULL;

      if (workspace != NULL)
        /* Translators: a column of durations and the unit they are in: "Total (ms)" */
        title = g_strdup_printf (_("%s (%s)"), _(stat_titles[c]),
                                 tes_time_unit_to_string (tes_workspace_get_time_unit (workspace)));
      gtk_column_view_column_set_title (self->stat_columns[c], title ? title : _(stat_titles[c]));
    }
  if (n > 0)
    g_list_model_items_changed (G_LIST_MODEL (self->stats), 0, n, n);
}

static int
stat_compare (gconstpointer a,
              gconstpointer b,
              guint         column,
              gpointer      data)
{
  const TesTraceStat *x = a, *y = b;
  gint64 vx[] = { 0, x->count, x->total, x->self, x->mean, x->min, x->max };
  gint64 vy[] = { 0, y->count, y->total, y->self, y->mean, y->min, y->max };

  if (column == STAT_NAME)
    return g_utf8_collate (x->name ? x->name : "", y->name ? y->name : "");

  return vx[column] < vy[column] ? -1 : vx[column] > vy[column];
}

/* What the Summary describes: the selected span, else the visible range. */
static void
summary_range (TesTraceSection *self,
               gint64          *t0,
               gint64          *t1,
               gboolean        *is_selection)
{
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));

  *is_selection = tes_workspace_get_selection (workspace, t0, t1);
  if (!*is_selection)
    tes_workspace_get_visible (workspace, t0, t1);
}

typedef struct
{
  gint64      t0;
  gint64      t1;
  GPtrArray  *stats;
  GPtrArray  *proportions;
} SummaryJob;

static void
summary_job_free (gpointer data)
{
  SummaryJob *job = data;

  g_clear_pointer (&job->stats, g_ptr_array_unref);
  g_clear_pointer (&job->proportions, g_ptr_array_unref);
  g_free (job);
}

static void
summary_worker (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  TesReport *report = source_object;
  SummaryJob *job = task_data;
  GError *error = NULL;

  if (!(job->stats = tes_trace_summary_stats (report, job->t0, job->t1, cancellable, &error)) ||
      !(job->proportions = tes_trace_summary_proportions (report, job->t0, job->t1, cancellable, &error)))
    {
      g_task_return_error (task, error);
      return;
    }

  g_task_return_boolean (task, TRUE);
}

/* The pictures in words, for screen readers: each device's three largest
 * categories. */
static void
describe_proportions (TesTraceSection *self)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; self->proportions != NULL && i < self->proportions->len; i++)
    {
      const TesTraceProportion *proportion = g_ptr_array_index (self->proportions, i);

      g_string_append_printf (text, "%s%s:", i ? "; " : "", proportion->device);
      for (guint j = 0; j < MIN (proportion->shares->len, 3); j++)
        {
          const TesTraceShare *share = &g_array_index (proportion->shares, TesTraceShare, j);

          g_string_append_printf (text, "%s %s %.1f %%", j ? "," : "", share->category, share->share);
        }
    }

  gtk_accessible_update_property (GTK_ACCESSIBLE (self->proportions_area),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text->str,
                                  -1);
}

/* The histogram's slices, shortest and longest bin, and where most are. */
static void
describe_histogram (TesTraceSection *self)
{
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));
  g_autofree char *text = NULL;
  g_autofree char *lo = NULL;
  g_autofree char *hi = NULL;
  g_autofree char *mode_lo = NULL;
  g_autofree char *mode_hi = NULL;
  const TesTraceBin *mode = NULL;
  guint n = 0;

  if (workspace == NULL || self->histogram == NULL || self->histogram->len == 0)
    return;

  for (guint i = 0; i < self->histogram->len; i++)
    {
      const TesTraceBin *bin = &g_array_index (self->histogram, TesTraceBin, i);

      n += bin->count;
      if (mode == NULL || bin->count > mode->count)
        mode = bin;
    }
  lo = tes_workspace_format_duration (workspace, g_array_index (self->histogram, TesTraceBin, 0).lo);
  hi = tes_workspace_format_duration (workspace,
                                      g_array_index (self->histogram, TesTraceBin, self->histogram->len - 1).hi);
  mode_lo = tes_workspace_format_duration (workspace, mode->lo);
  mode_hi = tes_workspace_format_duration (workspace, mode->hi);
  /* Translators: the durations histogram for screen readers: the slices'
   * name, how many, the shortest and longest, the fullest bin */
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%s: %u slice from %s to %s, most between %s and %s",
                                       "%s: %u slices from %s to %s, most between %s and %s", n),
                          self->histogram_name, n, lo, hi, mode_lo, mode_hi);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->histogram_area),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text,
                                  -1);
}

static void
summary_done_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(TesTraceSection) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  SummaryJob *job = g_task_get_task_data (G_TASK (result));

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        gtk_label_set_label (self->summary_title, error->message);
      return;
    }

  g_clear_object (&self->summary_cancellable);
  self->summary_loading = FALSE;

  /* the items own the rows from here on */
  g_ptr_array_set_free_func (job->stats, NULL);
  for (guint i = 0; i < job->stats->len; i++)
    g_ptr_array_add (items, tes_row_item_new (g_ptr_array_index (job->stats, i), (GDestroyNotify)tes_trace_stat_free));
  g_list_store_splice (self->stats, 0, g_list_model_get_n_items (G_LIST_MODEL (self->stats)),
                       items->pdata, items->len);

  g_clear_pointer (&self->proportions, g_ptr_array_unref);
  self->proportions = g_steal_pointer (&job->proportions);
  describe_proportions (self);
  gtk_widget_queue_draw (GTK_WIDGET (self->proportions_area));
  gtk_widget_queue_resize (GTK_WIDGET (self->proportions_area));
}

static gboolean
tes_trace_section_run_summary (gpointer data)
{
  TesTraceSection *self = data;
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));
  g_autoptr(GTask) task = NULL;
  g_autofree char *from = NULL;
  g_autofree char *width = NULL;
  g_autofree char *title = NULL;
  SummaryJob *job;
  gboolean is_selection;

  self->summary_source = 0;
  if (workspace == NULL)
    return G_SOURCE_REMOVE;

  job = g_new0 (SummaryJob, 1);
  summary_range (self, &job->t0, &job->t1, &is_selection);

  from = format_time_since_start (workspace, job->t0);
  width = tes_workspace_format_duration (workspace, job->t1 - job->t0);
  title = is_selection
    /* Translators: what the trace's Summary tab describes: a span from a time, its length */
    ? g_strdup_printf (_("The selection: from %s, %s"), from, width)
    : g_strdup_printf (_("The visible range: from %s, %s"), from, width);
  gtk_label_set_label (self->summary_title, title);

  g_cancellable_cancel (self->summary_cancellable);
  g_clear_object (&self->summary_cancellable);
  self->summary_cancellable = g_cancellable_new ();
  self->summary_loading = TRUE;

  task = g_task_new (tes_workspace_get_report (workspace), self->summary_cancellable,
                     summary_done_cb, g_object_ref (self));
  g_task_set_source_tag (task, tes_trace_section_run_summary);
  g_task_set_task_data (task, job, summary_job_free);
  g_task_run_in_thread (task, summary_worker);

  return G_SOURCE_REMOVE;
}

/* The Summary follows the range and the selection, once they rest. */
static void
tes_trace_section_schedule_summary (TesTraceSection *self)
{
  if (tes_section_get_workspace (TES_SECTION (self)) == NULL ||
      g_strcmp0 (gtk_stack_get_visible_child_name (self->bottom_stack), "summary") != 0)
    return;

  g_clear_handle_id (&self->summary_source, g_source_remove);
  self->summary_loading = TRUE;
  self->summary_source = g_timeout_add (120, tes_trace_section_run_summary, self);
}

static void
histogram_worker (GTask        *task,
                  gpointer      source_object,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  g_autoptr(GArray) durations = NULL;
  GError *error = NULL;

  if (!(durations = tes_report_get_durations (source_object, GPOINTER_TO_UINT (task_data), cancellable, &error)))
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, tes_trace_histogram (durations, 40), (GDestroyNotify)g_array_unref);
}

static void
histogram_done_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(TesTraceSection) self = user_data;
  g_autoptr(GError) error = NULL;
  GArray *bins = g_task_propagate_pointer (G_TASK (result), &error);

  if (bins == NULL)
    return;

  g_clear_pointer (&self->histogram, g_array_unref);
  self->histogram = bins;
  describe_histogram (self);
  /* its room goes to the devices' bars until a slice's name has one */
  gtk_widget_set_visible (GTK_WIDGET (self->histogram_area), bins->len > 0);
  gtk_widget_queue_draw (GTK_WIDGET (self->histogram_area));
}

/* The histogram shows the durations of the selected slice's name over
 * the whole run. */
static void
tes_trace_section_update_histogram (TesTraceSection *self)
{
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));
  const TesTraceBox *box;
  g_autoptr(GTask) task = NULL;

  if (workspace == NULL || !(box = tes_trace_view_get_selected_box (self->view, NULL)) ||
      box->name == 0 || box->name == self->histogram_name_id)
    return;

  self->histogram_name_id = box->name;
  g_free (self->histogram_name);
  self->histogram_name = g_strdup (tes_report_get_string (tes_workspace_get_report (workspace), box->name));

  g_cancellable_cancel (self->histogram_cancellable);
  g_clear_object (&self->histogram_cancellable);
  self->histogram_cancellable = g_cancellable_new ();
  task = g_task_new (tes_workspace_get_report (workspace), self->histogram_cancellable,
                     histogram_done_cb, g_object_ref (self));
  g_task_set_task_data (task, GUINT_TO_POINTER (box->name), NULL);
  g_task_run_in_thread (task, histogram_worker);
}

/* The bars' height at @width: their layout, measured on a scratch surface. */
static int
proportions_height (TesCanvas *canvas,
                    int        width,
                    gpointer   user_data)
{
  TesTraceSection *self = user_data;
  cairo_surface_t *scratch = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 1, 1);
  cairo_t *cr = cairo_create (scratch);
  double used = tes_trace_draw_proportions (cr, self->proportions, width);

  cairo_destroy (cr);
  cairo_surface_destroy (scratch);

  return (int)ceil (used);
}

static void
draw_proportions (TesCanvas *canvas,
                  cairo_t   *cr,
                  int        width,
                  int        height,
                  gpointer   user_data)
{
  TesTraceSection *self = user_data;

  tes_trace_draw_proportions (cr, self->proportions, width);
}

static void
draw_histogram (GtkDrawingArea *area,
                cairo_t        *cr,
                int             width,
                int             height,
                gpointer        user_data)
{
  TesTraceSection *self = user_data;
  TesWorkspace *workspace = tes_section_get_workspace (TES_SECTION (self));

  if (workspace == NULL || self->histogram_name == NULL)
    return;

  tes_trace_draw_histogram (cr, self->histogram, self->histogram_name, format_for_workspace, workspace,
                            width, height);
}

/* The Summary tab as text, tab-separated (what tests and Copy read). */
char *
tes_trace_section_dup_summary (TesTraceSection *self)
{
  TesWorkspace *workspace;
  g_autoptr(GPtrArray) stats = g_ptr_array_new ();
  GListModel *model;

  g_return_val_if_fail (TES_IS_TRACE_SECTION (self), NULL);

  if (!(workspace = tes_section_get_workspace (TES_SECTION (self))))
    return g_strdup ("");

  model = G_LIST_MODEL (self->stats);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(TesRowItem) item = g_list_model_get_item (model, i);

      g_ptr_array_add (stats, (gpointer)tes_row_item_get (item));
    }

  return tes_trace_summary_to_text (stats, self->proportions, format_for_workspace, workspace);
}

gboolean
tes_trace_section_is_summary_loading (TesTraceSection *self)
{
  g_return_val_if_fail (TES_IS_TRACE_SECTION (self), FALSE);

  return self->summary_loading;
}

static void
tes_trace_section_update_matches (TesTraceSection *self)
{
  g_autofree char *error_message = NULL;
  g_autofree char *text = NULL;
  gboolean searching = FALSE;
  guint n = tes_trace_view_get_n_matches (self->view);
  int current = tes_trace_view_get_current_match (self->view);

  g_object_get (self->view, "searching", &searching, "search-error", &error_message, NULL);

  if (error_message != NULL)
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->search_entry), "error");
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->search_entry), error_message);
    }
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->search_entry), "error");

  if (searching)
    text = g_strdup (_("Searching…"));
  else if (*gtk_editable_get_text (GTK_EDITABLE (self->search_entry)) == '\0' || error_message != NULL)
    text = g_strdup ("");
  else if (n == 0)
    text = g_strdup (_("No match"));
  else if (current < 0)
    {
      g_autofree char *count = tes_format_grouped (n);

      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s match", "%s matches", n), count);
    }
  else
    {
      g_autofree char *at = tes_format_grouped (current + 1);
      g_autofree char *count = tes_format_grouped (n);

      /* Translators: the match stepped to, of all matches (both grouped) */
      text = g_strdup_printf (_("%s of %s"), at, count);
    }

  gtk_label_set_label (self->match_label, text);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "trace.step-match", n > 0);
}

static void
tes_trace_section_search_changed_cb (TesTraceSection *self,
                                     GtkSearchEntry  *entry)
{
  tes_trace_view_set_search (self->view, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

static void
tes_trace_section_search_activate_cb (TesTraceSection *self,
                                      GtkSearchEntry  *entry)
{
  tes_trace_view_step_match (self->view, 1);
}

/* Shift+Enter in the search entry: the previous match. */
static gboolean
tes_trace_section_search_key_cb (TesTraceSection       *self,
                                 guint                  keyval,
                                 guint                  keycode,
                                 GdkModifierType        state,
                                 GtkEventControllerKey *controller)
{
  if ((keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter) && (state & GDK_SHIFT_MASK))
    {
      tes_trace_view_step_match (self->view, -1);
      return TRUE;
    }

  return FALSE;
}

static void
tes_trace_section_step_match_action (GtkWidget  *widget,
                                     const char *action_name,
                                     GVariant   *param)
{
  TesTraceSection *self = TES_TRACE_SECTION (widget);

  tes_trace_view_step_match (self->view, g_variant_get_int32 (param));
}

static void
tes_trace_section_find_action (GtkWidget  *widget,
                               const char *action_name,
                               GVariant   *param)
{
  TesTraceSection *self = TES_TRACE_SECTION (widget);

  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

/* Select IPU: every IPU's lanes (the first item) or one IPU's. */
static void
tes_trace_section_ipu_changed_cb (TesTraceSection *self)
{
  guint selected = gtk_drop_down_get_selected (self->ipu_dropdown);

  if (self->ipu_tracks == NULL)
    return;
  tes_trace_view_set_only_ipu (self->view, selected > 0 && selected <= self->ipu_tracks->len
                                             ? g_array_index (self->ipu_tracks, gint64, selected - 1) : 0);
}

/* The IPUs to select from, shown when the report has two or more. */
static void
tes_trace_section_fill_ipus (TesTraceSection *self,
                             TesReport       *report)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();

  g_array_set_size (self->ipu_tracks, 0);
  for (gint64 id = 1; report != NULL && id <= tes_report_get_n_tracks (report); id++)
    {
      const TesTrack *track = tes_report_get_track (report, id);

      if (track->kind == TES_TRACK_IPU && track->parent_id == 0)
        {
          g_array_append_val (self->ipu_tracks, id);
          g_ptr_array_add (names, track->name);
        }
    }
  g_ptr_array_add (names, NULL);

  gtk_string_list_splice (self->ipu_names, 0, g_list_model_get_n_items (G_LIST_MODEL (self->ipu_names)), NULL);
  gtk_string_list_append (self->ipu_names, _("All IPUs"));
  gtk_string_list_splice (self->ipu_names, 1, 0, (const char * const *)names->pdata);
  gtk_drop_down_set_selected (self->ipu_dropdown, 0);
  gtk_widget_set_visible (self->ipu_box, self->ipu_tracks->len > 1);
}

/* The View menu's options that depend on what the report holds: Show
 * External Syncs and Show SyncAns where it names such steps, Group
 * Executions where its steps have call paths, Lightweight Profiling's
 * (Show Buffer Flushes, Aggregate StreamCopy Blocks, Show Relative Cycles)
 * where it has blocks. */
static void
tes_trace_section_fill_options (TesTraceSection *self,
                                TesReport       *report)
{
  TesTraceHide kinds = report ? tes_trace_hideable (report) : 0;
  gint64 first_block;
  gboolean lwp = report != NULL && tes_trace_lwp_start (report, &first_block);

  gtk_widget_set_visible (GTK_WIDGET (self->external_syncs_check), (kinds & TES_TRACE_HIDE_EXTERNAL_SYNCS) != 0);
  gtk_widget_set_visible (GTK_WIDGET (self->sync_ans_check), (kinds & TES_TRACE_HIDE_SYNC_ANS) != 0);
  gtk_widget_set_visible (GTK_WIDGET (self->groups_check), report != NULL && tes_trace_path_levels (report) > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->flushes_check), lwp);
  gtk_widget_set_visible (GTK_WIDGET (self->relative_check), lwp);
  gtk_widget_set_visible (GTK_WIDGET (self->aggregate_check), lwp);
}

static void
tes_trace_section_workspace_changed (TesSection   *section,
                                     TesWorkspace *old_workspace)
{
  TesTraceSection *self = (TesTraceSection *)section;
  TesWorkspace *workspace = tes_section_get_workspace (section);

  if (old_workspace != NULL)
    g_signal_handlers_disconnect_by_data (old_workspace, self);

  tes_trace_view_set_workspace (self->view, workspace);
  tes_trace_section_fill_ipus (self, workspace ? tes_workspace_get_report (workspace) : NULL);
  tes_trace_section_fill_options (self, workspace ? tes_workspace_get_report (workspace) : NULL);

  if (workspace == NULL)
    return;

  g_signal_connect_object (workspace, "notify::visible-start", G_CALLBACK (tes_trace_section_update_range),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (workspace, "notify::visible-end", G_CALLBACK (tes_trace_section_update_range),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (workspace, "notify::time-unit", G_CALLBACK (tes_trace_section_sync_unit),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (workspace, "notify::selected-slices", G_CALLBACK (tes_trace_section_update_details),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (workspace, "notify::selected-slices", G_CALLBACK (tes_trace_section_update_histogram),
                           self, G_CONNECT_SWAPPED);
  for (guint i = 0; i < 5; i++)
    {
      static const char * const props[] = { "visible-start", "visible-end", "has-selection",
                                            "selection-start", "selection-end" };
      g_autofree char *signal = g_strdup_printf ("notify::%s", props[i]);

      g_signal_connect_object (workspace, signal, G_CALLBACK (tes_trace_section_schedule_summary),
                               self, G_CONNECT_SWAPPED);
    }
  tes_trace_section_sync_unit (self);
  tes_trace_section_schedule_summary (self);
}

/* Enter on the selected slice: the Details tab, focused, so that its text
 * is read and can be copied. */
static void
tes_trace_section_activate_slice_cb (TesTraceSection *self,
                                     TesTraceView    *view)
{
  gtk_stack_set_visible_child_name (self->bottom_stack, "details");
  gtk_widget_grab_focus (GTK_WIDGET (self->details_label));
}

static void
tes_trace_section_shortcuts_action (GtkWidget  *widget,
                                    const char *action_name,
                                    GVariant   *param)
{
  TesTraceSection *self = TES_TRACE_SECTION (widget);

  gtk_menu_button_popup (self->shortcuts_button);
}

/* Shown, the trace takes the keys: W/S/A/D work at once. */
static void
tes_trace_section_map (GtkWidget *widget)
{
  TesTraceSection *self = TES_TRACE_SECTION (widget);

  GTK_WIDGET_CLASS (tes_trace_section_parent_class)->map (widget);

  gtk_widget_grab_focus (GTK_WIDGET (self->view));
}

static void
tes_trace_section_dispose (GObject *object)
{
  TesTraceSection *self = TES_TRACE_SECTION (object);

  g_clear_handle_id (&self->summary_source, g_source_remove);
  g_cancellable_cancel (self->summary_cancellable);
  g_clear_object (&self->summary_cancellable);
  g_cancellable_cancel (self->histogram_cancellable);
  g_clear_object (&self->histogram_cancellable);
  g_cancellable_cancel (self->details_cancellable);
  g_clear_object (&self->details_cancellable);

  gtk_widget_dispose_template (GTK_WIDGET (object), TES_TYPE_TRACE_SECTION);

  g_clear_pointer (&self->ipu_tracks, g_array_unref);
  g_clear_object (&self->stats);
  g_clear_pointer (&self->proportions, g_ptr_array_unref);
  g_clear_pointer (&self->histogram, g_array_unref);
  g_clear_pointer (&self->histogram_name, g_free);

  G_OBJECT_CLASS (tes_trace_section_parent_class)->dispose (object);
}

static const char *
tes_trace_section_get_view_name (TesSection *section)
{
  return tes_trace_view_get_mode (TES_TRACE_SECTION (section)->view) == TES_TRACE_FLAME ? "flame" : "trace";
}

static void
tes_trace_section_class_init (TesTraceSectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  TesSectionClass *section_class = TES_SECTION_CLASS (klass);

  object_class->dispose = tes_trace_section_dispose;

  widget_class->map = tes_trace_section_map;

  section_class->title = _("Execution Trace");
  section_class->icon_name = "view-continuous-symbolic";
  section_class->views = trace_views;
  section_class->has_data = tes_trace_section_has_data;
  section_class->workspace_changed = tes_trace_section_workspace_changed;
  section_class->render = tes_trace_section_render;
  section_class->get_view = tes_trace_section_get_view_name;

  g_type_ensure (TES_TYPE_CANVAS);
  g_type_ensure (TES_TYPE_TRACE_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/tessera/Tessera/widgets/tes-trace-section.ui");
  gtk_widget_class_bind_template_child (widget_class, TesTraceSection, view);
  gtk_widget_class_bind_template_child (widget_class, TesTraceSection, scrollbar);
  gtk_widget_class_bind_template_child (widget_class, TesTraceSection, ipu_box);
  gtk_widget_class_bind_template_child (widget_class, TesTraceSection, ipu_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TesTraceSection, ipu_names);
  gtk_widget_class_bind_template_child (widget_class, TesTraceSection, flat_button);
  gtk_widget_class_bind_template_child (widget_class, TesTraceSection, flame_button);
  gtk_widget_class_bind_template_child (widget_class, TesTraceSection, text_check);
  gtk_widget_class_bind_template_child (widget_class, TesTraceSection, flows_check);
  gtk_widget_class_bind_template_child (widget_class, TesTraceSection, runs_check);
  gtk_widget_class_bind_template_child (widget_class, TesTraceSection, syncs_check);
  gtk_widget_class_bind_template_child (widget_class, TesTraceSection, separate_check);
  gtk_widget_class_bind_template_child (widget_class, TesTraceSection, balance_check);
  gtk_widget_class_bind_template_child (widget_class, TesTraceSection, groups_check);
  gtk_widget_class_bind_template_child (widget_class, TesTraceSection, terminals_check);
  gtk_widget_class_bind_template_child (widget_class, TesTraceSection, external_syncs_check);
  gtk_widget_class_bind_template_child (widget_class, TesTraceSection, sync_ans_check);
  gtk_widget_class_bind_template_child (widget_class, TesTraceSection, flushes_check);
  gtk_widget_class_bind_template_child (widget_class, TesTraceSection, relative_check);
  gtk_widget_class_bind_template_child (widget_class, TesTraceSection, aggregate_check);
  gtk_widget_class_bind_template_child (widget_class, TesTraceSection, unit_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TesTraceSection, range_label);
  gtk_widget_class_bind_template_child (widget_class, TesTraceSection, details_label);
  gtk_widget_class_bind_template_child (widget_class, TesTraceSection, shortcuts_label);
  gtk_widget_class_bind_template_child (widget_class, TesTraceSection, shortcuts_button);
  gtk_widget_class_bind_template_child (widget_class, TesTraceSection, search_entry);
  gtk_widget_class_bind_template_child (widget_class, TesTraceSection, match_label);
  gtk_widget_class_bind_template_child (widget_class, TesTraceSection, bottom_stack);
  gtk_widget_class_bind_template_child (widget_class, TesTraceSection, summary_title);
  gtk_widget_class_bind_template_child (widget_class, TesTraceSection, stats_view);
  gtk_widget_class_bind_template_child (widget_class, TesTraceSection, proportions_area);
  gtk_widget_class_bind_template_child (widget_class, TesTraceSection, histogram_area);
  gtk_widget_class_bind_template_callback (widget_class, tes_trace_section_schedule_summary);
  gtk_widget_class_bind_template_callback (widget_class, tes_trace_section_ipu_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, tes_trace_section_search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, tes_trace_section_search_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, tes_trace_section_mode_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, tes_trace_section_unit_changed_cb);

  gtk_widget_class_install_action (widget_class, "trace.shortcuts", NULL, tes_trace_section_shortcuts_action);
  gtk_widget_class_install_action (widget_class, "trace.step-match", "i", tes_trace_section_step_match_action);
  gtk_widget_class_install_action (widget_class, "trace.find", NULL, tes_trace_section_find_action);
}

static void
tes_trace_section_init (TesTraceSection *self)
{
  self->ipu_tracks = g_array_new (FALSE, FALSE, sizeof (gint64));
  gtk_widget_init_template (GTK_WIDGET (self));

  gtk_scrollbar_set_adjustment (self->scrollbar, tes_trace_view_get_vadjustment (self->view));

  {
    TesTableColumn columns[N_STAT_COLUMNS];
    GtkColumnViewColumn **added = self->stat_columns;
    GtkSortListModel *sorted;

    G_STATIC_ASSERT (G_N_ELEMENTS (stat_titles) == N_STAT_COLUMNS);
    G_STATIC_ASSERT (G_N_ELEMENTS (self->stat_columns) == N_STAT_COLUMNS);
    for (guint c = 0; c < N_STAT_COLUMNS; c++)
      columns[c] = (TesTableColumn) { _(stat_titles[c]), c != STAT_NAME, c == STAT_NAME };
    self->stats = g_list_store_new (TES_TYPE_ROW_ITEM);
    tes_table_add_columns (self->stats_view, columns, N_STAT_COLUMNS, stat_cell, stat_compare, self, added);
    /* names readable when the figures take the width: they scroll */
    gtk_column_view_column_set_fixed_width (added[STAT_NAME], 160);
    sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->stats)),
                                      g_object_ref (gtk_column_view_get_sorter (self->stats_view)));
    gtk_column_view_set_model (self->stats_view, GTK_SELECTION_MODEL (gtk_no_selection_new (G_LIST_MODEL (sorted))));
    /* largest total first, as the rows come */
    gtk_column_view_sort_by_column (self->stats_view, added[STAT_TOTAL], GTK_SORT_DESCENDING);
  }
  tes_canvas_set_funcs (self->proportions_area, proportions_height, draw_proportions, self);
  gtk_drawing_area_set_draw_func (self->histogram_area, draw_histogram, self, NULL);
  g_object_bind_property (self->text_check, "active", self->view, "show-text", G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->flows_check, "active", self->view, "show-flows", G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->runs_check, "active", self->view, "show-runs", G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->syncs_check, "active", self->view, "group-syncs", G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->separate_check, "active", self->view, "separate-overlaps", G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->balance_check, "active", self->view, "tile-balance", G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->groups_check, "active", self->view, "group-executions", G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->terminals_check, "active", self->view, "show-terminals", G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->external_syncs_check, "active", self->view, "show-external-syncs", G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->sync_ans_check, "active", self->view, "show-sync-ans", G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->flushes_check, "active", self->view, "show-buffer-flushes", G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->relative_check, "active", self->view, "relative-cycles", G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->aggregate_check, "active", self->view, "aggregate-stream-copies", G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->view, "scrollable", self->scrollbar, "visible", G_BINDING_SYNC_CREATE);

  /* like the trace's keys, these work whatever has the focus while the
   * section is shown */
  {
    GtkEventController *shortcuts = gtk_shortcut_controller_new ();

    gtk_shortcut_controller_set_scope (GTK_SHORTCUT_CONTROLLER (shortcuts), GTK_SHORTCUT_SCOPE_GLOBAL);
    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                          gtk_shortcut_new (gtk_shortcut_trigger_parse_string ("<Control>f"),
                                                            gtk_named_action_new ("trace.find")));
    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                          gtk_shortcut_new (gtk_shortcut_trigger_parse_string ("question|<Shift>question"),
                                                            gtk_named_action_new ("trace.shortcuts")));
    gtk_widget_add_controller (GTK_WIDGET (self), shortcuts);
  }

  {
    GtkEventController *controller = gtk_event_controller_key_new ();

    g_signal_connect_object (controller, "key-pressed", G_CALLBACK (tes_trace_section_search_key_cb),
                             self, G_CONNECT_SWAPPED);
    gtk_widget_add_controller (GTK_WIDGET (self->search_entry), controller);
  }
  for (guint i = 0; i < 4; i++)
    {
      static const char * const props[] = { "n-matches", "current-match", "searching", "search-error" };
      g_autofree char *signal = g_strdup_printf ("notify::%s", props[i]);

      g_signal_connect_object (self->view, signal, G_CALLBACK (tes_trace_section_update_matches),
                               self, G_CONNECT_SWAPPED);
    }
  tes_trace_section_update_matches (self);
  g_signal_connect_object (self->view, "activate-slice", G_CALLBACK (tes_trace_section_activate_slice_cb),
                           self, G_CONNECT_SWAPPED);

  gtk_label_set_markup (self->shortcuts_label,
                        _("<b>W</b> / <b>S</b>\tzoom in / out around the pointer\n"
                          "<b>A</b> / <b>D</b>\tpan left / right\n"
                          "<b>Home</b>, <b>0</b>\tshow the whole run\n"
                          "<b>F</b>\tzoom to the selection\n"
                          "<b>Esc</b>\tclear the selection\n"
                          "<b>←</b> / <b>→</b>\tprevious / next slice of the lane (none selected: pan)\n"
                          "<b>↑</b> / <b>↓</b>\tthe slice in the row above / below\n"
                          "<b>Enter</b>\tthe selected slice’s details\n"
                          "<b>Ctrl+F</b>\tfind; <b>Enter</b> / <b>Shift+Enter</b> next / previous match\n"
                          "Drag\tpan\n"
                          "Shift+drag\tselect a time span\n"
                          "Ctrl+wheel\tzoom\n"
                          "Wheel\tscroll the lanes\n"
                          "Click\tselect a slice; on a group's name, fold it\n"
                          "Double-click\tzoom to the slice\n"
                          "Shift+click\tzoom to the span from the selected slice"));
  tes_trace_section_update_details (self);
}

GtkWidget *
tes_trace_section_new (void)
{
  return g_object_new (TES_TYPE_TRACE_SECTION, NULL);
}

/**
 * tes_trace_section_get_view:
 *
 * Returns: (transfer none): the trace canvas
 */
TesTraceView *
tes_trace_section_get_view (TesTraceSection *self)
{
  g_return_val_if_fail (TES_IS_TRACE_SECTION (self), NULL);

  return self->view;
}
