/* tes-insights-layout.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "tes-insights-layout.h"
#include "tes-sections.h"

/* List items shown per list of the evidence; the rest is counted. */
#define EVIDENCE_ITEMS_SHOWN 3

/* The area's title, as the section groups findings (docs/insights.md's
 * areas). */
const char *
tes_insights_area_title (const char *area)
{
  if (g_strcmp0 (area, "memory") == 0)
    return _("Memory");
  if (g_strcmp0 (area, "bsp") == 0)
    return _("BSP and tiles");
  if (g_strcmp0 (area, "execution") == 0)
    return _("Execution");
  if (g_strcmp0 (area, "compare") == 0)
    return _("Two runs");
  return area;
}

/* The area's colour in the picture (tes-share-chart-layout.c's palette). */
guint32
tes_insights_area_color (const char *area)
{
  if (g_strcmp0 (area, "memory") == 0)
    return 0x9141ac;  /* purple */
  if (g_strcmp0 (area, "bsp") == 0)
    return 0x2190a4;  /* teal */
  if (g_strcmp0 (area, "compare") == 0)
    return 0xe01b24;  /* red */
  return 0xff7800;    /* orange: execution */
}

/* The title of the section that shows @view ("memory-tiles": Memory), as
 * the sidebar names it. */
const char *
tes_insights_view_title (const char *view)
{
  GType type = tes_sections_lookup (view != NULL ? view : "summary", NULL);

  return type != G_TYPE_INVALID ? tes_section_type_get_title (type) : view;
}

/* What the window calls each evidence key (docs/insights.md's), shown in
 * the user's language; the keys themselves stay the stable names of
 * `--json`. The unit goes to the value ("idle_ns" is "idle 1.250 ms"). */
static const struct {
  const char *key;
  const char *label;
} evidence_labels[] = {
  /* Translators: the labels of a finding's evidence ("A 1,234, B 2,345");
   * A and B are the two runs compared */
  { "a", N_("A") },
  { "a_bytes", N_("A bytes") },
  { "a_ns", N_("A") },
  /* Translators: how many tiles are over their limit in run A */
  { "a_out_of_memory", N_("A out of memory") },
  { "active_tiles", N_("active tiles") },
  { "all_tile_cycles", N_("all tile cycles") },
  { "always_live_bytes", N_("always live bytes") },
  { "b", N_("B") },
  { "b_bytes", N_("B bytes") },
  { "b_limit_bytes", N_("B limit bytes") },
  { "b_ns", N_("B") },
  { "b_out_of_memory", N_("B out of memory") },
  /* Translators: tiles sorted into a histogram's bin */
  { "binned", N_("binned") },
  { "bins", N_("bins") },
  { "busy_cycles", N_("busy cycles") },
  { "busy_ns", N_("busy") },
  { "bytes", N_("bytes") },
  { "categories", N_("categories") },
  { "category", N_("category") },
  { "category_bytes", N_("category bytes") },
  { "count", N_("count") },
  { "cycles", N_("cycles") },
  { "delta", N_("delta") },
  { "delta_bytes", N_("delta bytes") },
  { "delta_percent", N_("delta") },
  { "device", N_("device") },
  { "device_ns", N_("device") },
  /* Translators: a duration */
  { "dur_ns", N_("dur") },
  { "factor", N_("factor") },
  { "first_ns", N_("first") },
  { "gaps", N_("gaps") },
  { "heaviest", N_("heaviest") },
  { "heaviest_bytes", N_("heaviest bytes") },
  { "histogram", N_("histogram") },
  { "host_ns", N_("host") },
  { "hot_tiles", N_("hot tiles") },
  { "idle_cycles", N_("idle cycles") },
  { "idle_ns", N_("idle") },
  { "idle_percent", N_("idle") },
  { "idle_tiles", N_("idle tiles") },
  { "ipu", N_("ipu") },
  { "ipu_mean_busy_cycles", N_("ipu mean busy cycles") },
  { "largest", N_("largest") },
  { "last_ns", N_("last") },
  { "limit_bytes", N_("limit bytes") },
  { "lower_bytes", N_("lower bytes") },
  { "max_cycles", N_("max cycles") },
  { "mean_bytes", N_("mean bytes") },
  { "mean_cycles", N_("mean cycles") },
  { "median_ns", N_("median") },
  { "name", N_("name") },
  { "newly_out_of_memory", N_("newly out of memory") },
  { "operator", N_("operator") },
  { "over_bytes", N_("over bytes") },
  /* Translators: tiles a printed histogram's bin says it holds */
  { "printed", N_("printed") },
  { "ratio", N_("ratio") },
  { "share_percent", N_("share") },
  { "start_ns", N_("start") },
  { "step", N_("step") },
  { "steps", N_("steps") },
  { "tile", N_("tile") },
  { "tile_balance_percent", N_("tile balance") },
  { "tile_cycles", N_("tile cycles") },
  { "tiles", N_("tiles") },
  { "tiles_off", N_("tiles off") },
  { "total_bytes", N_("total bytes") },
  { "total_cycles", N_("total cycles") },
  { "total_ns", N_("total") },
  { "type", N_("type") },
  /* Translators: a unit of a device (a stream, a core) */
  { "unit", N_("unit") },
  { "upper_bytes", N_("upper bytes") },
};

/* The label of @key, translated; a key not in the table (a new one) reads
 * as its words ("idle_ns": "idle"). */
static char *
evidence_key_text (const char *key)
{
  g_autofree char *stem = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (evidence_labels); i++)
    if (g_str_equal (key, evidence_labels[i].key))
      return g_strdup (_(evidence_labels[i].label));

  if (g_str_has_suffix (key, "_ns"))
    stem = g_strndup (key, strlen (key) - 3);
  else if (g_str_has_suffix (key, "_percent"))
    stem = g_strndup (key, strlen (key) - 8);
  else
    stem = g_strdup (key);

  return g_strdelimit (g_steal_pointer (&stem), "_", ' ');
}

static char *
evidence_value_text (const char *key,
                     GVariant   *value)
{
  double v;

  if (g_variant_is_of_type (value, G_VARIANT_TYPE_STRING))
    return g_strdup (g_variant_get_string (value, NULL));
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_INT64))
    v = (double)g_variant_get_int64 (value);
  else if (g_variant_is_of_type (value, G_VARIANT_TYPE_DOUBLE))
    v = g_variant_get_double (value);
  else if (g_variant_is_of_type (value, G_VARIANT_TYPE_BOOLEAN))
    return g_strdup (g_variant_get_boolean (value) ? _("yes") : _("no"));
  else
    return g_variant_print (value, FALSE);

  if (g_str_has_suffix (key, "_ns"))
    return tes_insight_format_ns (v);
  if (g_str_has_suffix (key, "_percent"))
    return g_strdup_printf ("%.1f %%", v);
  /* whole figures (bytes, cycles, counts) grouped; ratios to 3 digits */
  if (v == floor (v) && fabs (v) < 1e15)
    return tes_format_grouped (v);
  return fabs (v) < 1000 ? g_strdup_printf ("%.3g", v) : tes_format_grouped_fixed (v, 1);
}

/* "key value, key value" of an a{sv}'s figures; its lists go to @lists. */
static void
append_figures (GString    *out,
                GVariant   *dict,
                GPtrArray  *lists,
                GPtrArray  *list_keys)
{
  GVariantIter iter;
  const char *key;
  GVariant *value;
  gboolean first = TRUE;

  g_variant_iter_init (&iter, dict);
  while (g_variant_iter_next (&iter, "{&sv}", &key, &value))
    {
      if (g_variant_is_of_type (value, G_VARIANT_TYPE ("aa{sv}")))
        {
          if (lists != NULL)
            {
              g_ptr_array_add (list_keys, (gpointer)key);
              g_ptr_array_add (lists, g_variant_ref (value));
            }
        }
      /* an empty name (the operators' total) says nothing */
      else if (!g_variant_is_of_type (value, G_VARIANT_TYPE_STRING) || *g_variant_get_string (value, NULL) != '\0')
        {
          g_autofree char *name = evidence_key_text (key);
          g_autofree char *text = evidence_value_text (key, value);

          g_string_append_printf (out, "%s%s %s", first ? "" : ", ", name, text);
          first = FALSE;
        }
      g_variant_unref (value);
    }
}

/**
 * tes_insights_evidence_text:
 * @evidence: a finding's a{sv}
 *
 * The numbers: its figures on the first line ("idle 1.250 ms, gaps 3"),
 * then each list's name and its first items, one per line ("largest:",
 * "  • start 2.000 ms, dur 400.000 µs", …, "  (+2 more)"). Keys are
 * docs/insights.md's, units on the values.
 *
 * Returns: (transfer full): the text
 */
char *
tes_insights_evidence_text (GVariant *evidence)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GPtrArray) lists = g_ptr_array_new_with_free_func ((GDestroyNotify)g_variant_unref);
  g_autoptr(GPtrArray) list_keys = g_ptr_array_new ();

  g_return_val_if_fail (evidence != NULL, NULL);

  append_figures (out, evidence, lists, list_keys);
  for (guint i = 0; i < lists->len; i++)
    {
      GVariant *list = g_ptr_array_index (lists, i);
      gsize n = g_variant_n_children (list);
      g_autofree char *name = evidence_key_text (g_ptr_array_index (list_keys, i));

      if (n == 0)
        continue;
      g_string_append_printf (out, "%s%s:", out->len ? "\n" : "", name);
      for (gsize j = 0; j < MIN (n, EVIDENCE_ITEMS_SHOWN); j++)
        {
          g_autoptr(GVariant) item = g_variant_get_child_value (list, j);

          g_string_append (out, "\n  • ");
          append_figures (out, item, NULL, NULL);
        }
      if (n > EVIDENCE_ITEMS_SHOWN)
        {
          g_string_append (out, "\n  ");
          /* Translators: after the first items of a list of a finding's evidence */
          g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "(+%u more)", "(+%u more)",
                                                    n - EVIDENCE_ITEMS_SHOWN),
                                  (guint)(n - EVIDENCE_ITEMS_SHOWN));
        }
    }

  return g_string_free (g_steal_pointer (&out), FALSE);
}

/**
 * tes_insights_target_text:
 *
 * Where activating @insight goes and what it selects there: "Memory: IPU
 * 0, tile 20", "Execution Trace: lane “stream 7”, 1.200 ms".
 *
 * Returns: (transfer full): the text
 */
char *
tes_insights_target_text (const TesInsight *insight)
{
  const TesInsightTarget *t;
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *joined = NULL;

  g_return_val_if_fail (insight != NULL, NULL);

  t = &insight->target;
  if (t->in_b)
    g_ptr_array_add (parts, g_strdup (_("run B")));
  if (t->ipu >= 0)
    g_ptr_array_add (parts, g_strdup_printf (_("IPU %d"), t->ipu));
  if (t->tile >= 0)
    g_ptr_array_add (parts, g_strdup_printf (_("tile %d"), t->tile));
  if (t->step >= 0)
    g_ptr_array_add (parts, g_strdup_printf (_("step %" PRId64), t->step));
  if (t->lane != NULL)
    g_ptr_array_add (parts, g_strdup_printf (_("lane “%s”"), t->lane));
  if (t->operator_name != NULL)
    g_ptr_array_add (parts, g_strdup_printf (_("operator “%s”"), t->operator_name));
  if (t->has_range)
    {
      g_autofree char *length = tes_insight_format_ns ((double)(t->end_ns - t->start_ns));

      /* Translators: the range a finding shows, by its length */
      g_ptr_array_add (parts, g_strdup_printf (_("%s shown"), length));
    }
  g_ptr_array_add (parts, NULL);
  joined = g_strjoinv (", ", (char **)parts->pdata);

  if (*joined == '\0')
    return g_strdup (tes_insights_view_title (t->view));
  /* Translators: a section's title, then what a finding selects in it */
  return g_strdup_printf (_("%s: %s"), tes_insights_view_title (t->view), joined);
}

void
tes_insight_row_free (TesInsightRow *row)
{
  if (row == NULL)
    return;
  g_free (row->area);
  g_free (row->cost);
  g_free (row->share);
  g_free (row->head);
  g_free (row->sentence);
  g_free (row->evidence);
  g_free (row->target);
  g_free (row->show_label);
  g_free (row->accessible);
  g_free (row);
}

/* The evidence as screen readers read it, on one line: "hot tiles: ipu
 * 0, tile 5…; ipu 0, tile 17…". */
static char *
one_line (const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  GString *out = g_string_new (NULL);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];

      while (*line == ' ')
        line++;
      if (g_str_has_prefix (line, "• "))
        line += strlen ("• ");
      if (out->len > 0)
        g_string_append (out, out->str[out->len - 1] == ':' ? " " : "; ");
      g_string_append (out, line);
    }

  return g_string_free (out, FALSE);
}

static int
compare_ranks (gconstpointer a,
               gconstpointer b)
{
  const TesInsightRow *ra = *(TesInsightRow * const *)a;
  const TesInsightRow *rb = *(TesInsightRow * const *)b;

  return (ra->rank > rb->rank) - (ra->rank < rb->rank);
}

static TesInsightRow *
row_new (const TesInsight *insight)
{
  TesInsightRow *row = g_new0 (TesInsightRow, 1);
  g_autofree char *evidence_line = NULL;

  row->insight = insight;
  row->rank = insight->rank;
  row->area = g_strdup (tes_insights_area_title (tes_insight_kind_get_area (insight->kind)));
  row->cost = tes_insight_format_cost (insight);
  /* Translators: a finding's share of the whole its kind names */
  row->share = g_strdup_printf (_("%.1f %% share"), insight->share);
  /* two runs' findings are only listed where both runs are shown: their
   * area would repeat the window's title on every row */
  if (g_strcmp0 (tes_insight_kind_get_area (insight->kind), "compare") == 0)
    row->head = g_strdup_printf ("%s · %s", row->cost, row->share);
  else
    row->head = g_strdup_printf ("%s · %s · %s", row->cost, row->share, row->area);
  row->sentence = g_strdup (insight->sentence);
  row->evidence = tes_insights_evidence_text (insight->evidence);
  row->target = tes_insights_target_text (insight);
  /* Translators: a finding's button; %s is a section's title */
  row->show_label = g_strdup_printf (_("Show in %s"), tes_insights_view_title (insight->target.view));

  evidence_line = one_line (row->evidence);
  /* Translators: what screen readers say of a finding: its rank, area,
   * cost and share, its sentence, its evidence and where it is shown */
  row->accessible = g_strdup_printf (_("Finding %u, %s: %s, %s. %s Evidence: %s. Activate to show %s."),
                                     row->rank, row->area, row->cost, row->share, row->sentence,
                                     evidence_line, row->target);

  return row;
}

/**
 * tes_insights_layout_rows:
 * @insights: (element-type TesInsight): tes_insights_compute()'s findings
 *
 * The section's rows, one per finding in rank order (the costliest first:
 * the order `tessera-cli insights` prints them). They borrow the findings.
 *
 * Returns: (transfer full) (element-type TesInsightRow): the rows
 */
GPtrArray *
tes_insights_layout_rows (GPtrArray *insights)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify)tes_insight_row_free);

  g_return_val_if_fail (insights != NULL, rows);

  for (guint i = 0; i < insights->len; i++)
    g_ptr_array_add (rows, row_new (g_ptr_array_index (insights, i)));
  /* compute ranks them already; the ranks say the order whatever is given */
  g_ptr_array_sort (rows, compare_ranks);

  return rows;
}

/**
 * tes_insights_layout_headline:
 *
 * The line above the findings: how many in each area ("4 findings: 2 in
 * Memory, 2 in BSP and tiles"), or that there are none.
 *
 * Returns: (transfer full): the text
 */
char *
tes_insights_layout_headline (GPtrArray *insights)
{
  static const char * const areas[] = { "memory", "bsp", "execution", "compare" };
  g_autoptr(GString) out = g_string_new (NULL);
  guint counts[G_N_ELEMENTS (areas)] = { 0 };

  g_return_val_if_fail (insights != NULL, NULL);

  if (insights->len == 0)
    return g_strdup (_("No findings: nothing in this run crosses a threshold."));

  for (guint i = 0; i < insights->len; i++)
    {
      const TesInsight *insight = g_ptr_array_index (insights, i);
      const char *area = tes_insight_kind_get_area (insight->kind);

      for (guint a = 0; a < G_N_ELEMENTS (areas); a++)
        if (g_str_equal (area, areas[a]))
          counts[a]++;
    }

  g_string_printf (out, g_dngettext (GETTEXT_PACKAGE, "%u finding, costliest first",
                                     "%u findings, costliest first", insights->len),
                   insights->len);
  g_string_append (out, ": ");
  for (guint a = 0, listed = 0; a < G_N_ELEMENTS (areas); a++)
    if (counts[a] > 0)
      {
        if (listed++ > 0)
          g_string_append (out, ", ");
        /* Translators: how many findings are in an area ("2 in Memory") */
        g_string_append_printf (out, _("%u in %s"), counts[a], tes_insights_area_title (areas[a]));
      }

  return g_string_free (g_steal_pointer (&out), FALSE);
}
