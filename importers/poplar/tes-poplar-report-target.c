/* tes-poplar-report-target.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-poplar-report"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tes-poplar-report-private.h"
#include "tes-text.h"

#include <math.h>
#include <string.h>

/* The Target and Graph sections: "Label: value" lines; the first Target
 * gives the tiles, the memory limit and the clock the rest is counted in. */

typedef enum
{
  FIELD_COUNT,
  FIELD_MEMORY,
  FIELD_CLOCK,
} FieldKind;

typedef struct
{
  const char *label;
  const char *key;
  FieldKind   kind;
} Field;

static const Field target_fields[] = {
  { "Number of IPUs", "ipus", FIELD_COUNT },
  { "Tiles per IPU", "tiles_per_ipu", FIELD_COUNT },
  { "Total Tiles", "total_tiles", FIELD_COUNT },
  { "Memory Per-Tile", "memory_per_tile", FIELD_MEMORY },
  { "Memory per Tile", "memory_per_tile", FIELD_MEMORY },
  { "Total Memory", "total_memory", FIELD_MEMORY },
  { "Clock Speed (approx)", "clock", FIELD_CLOCK },
  { "Clock Speed", "clock", FIELD_CLOCK },
  { "Number of Replicas", "replicas", FIELD_COUNT },
  { "IPUs per Replica", "ipus_per_replica", FIELD_COUNT },
  { "Tiles per Replica", "tiles_per_replica", FIELD_COUNT },
  { "Memory per Replica", "memory_per_replica", FIELD_MEMORY },
};

static const Field graph_fields[] = {
  { "Number of vertices", "vertices", FIELD_COUNT },
  { "Number of edges", "edges", FIELD_COUNT },
  { "Number of variables", "variables", FIELD_COUNT },
  { "Number of compute sets", "compute_sets", FIELD_COUNT },
};

typedef struct
{
  const char *unit;
  double      factor;
} Unit;

static const Unit memory_units[] = {
  { "B", 1.0 }, { "kB", 1024.0 }, { "KB", 1024.0 }, { "K", 1024.0 },
  { "MB", 1024.0 * 1024.0 }, { "GB", 1024.0 * 1024.0 * 1024.0 },
};

static const Unit clock_units[] = {
  { "Hz", 1.0 }, { "kHz", 1e3 }, { "MHz", 1e6 }, { "GHz", 1e9 },
};

static gboolean
find_unit (const Unit *units,
           guint       n_units,
           const char *text,
           double     *factor)
{
  for (guint i = 0; i < n_units; i++)
    if (g_str_equal (units[i].unit, text))
      {
        *factor = units[i].factor;
        return TRUE;
      }

  return FALSE;
}

/* A value that starts with a number keeps its text, minus the thousands
 * separators of the number; any other value is kept as printed. */
static gboolean
normalize_value (TesPoplarReportParser  *p,
                 const char             *label,
                 const char             *value,
                 char                  **out,
                 GError                **error)
{
  g_autoptr(GString) norm = g_string_new (NULL);
  const char *end;

  if (!g_ascii_isdigit (*value))
    {
      *out = g_strdup (value);
      return TRUE;
    }

  if (!tes_poplar_scan_number (value, &end, norm))
    {
      g_autofree char *got = tes_describe_text (value, strlen (value), 60);

      return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->path, p->line_no,
                                      _("malformed number for '%s': '%s'"), label, got);
    }

  if (*end != '\0')
    g_string_append_printf (norm, "%s%s", tes_is_space (*end) ? " " : "", tes_poplar_skip_spaces (end));
  *out = g_string_free (g_steal_pointer (&norm), FALSE);

  return TRUE;
}

static gboolean
handle_field (TesPoplarReportParser  *p,
              const Field            *fields,
              guint                   n_fields,
              const char             *label,
              const char             *value,
              GError                **error)
{
  const Field *field = NULL;
  g_autoptr(GString) norm = g_string_new (NULL);
  g_autofree char *key = NULL;
  g_autofree char *stored = NULL;
  const char *end = value;
  const char *unit;
  gboolean first_target = p->section == TES_POPLAR_SECTION_TARGET && p->n_target == 1;
  double factor = 1.0;

  for (guint i = 0; i < n_fields && field == NULL; i++)
    if (g_ascii_strcasecmp (fields[i].label, label) == 0)
      field = &fields[i];

  if (field == NULL)
    {
      g_autofree char *slug = tes_poplar_slugify (label);

      key = g_strdup_printf ("%s.%s", p->prefix, slug);
      return normalize_value (p, label, value, &stored, error) &&
             tes_poplar_report_put_printed (p, key, stored, value, error);
    }

  key = g_strdup_printf ("%s.%s", p->prefix, field->key);

  if (!tes_poplar_scan_number (value, &end, norm))
    goto bad;
  unit = tes_poplar_skip_spaces (end);

  switch (field->kind)
    {
    case FIELD_COUNT:
      {
        gint64 n;

        if (*unit != '\0' || !tes_poplar_is_integer (norm->str))
          goto bad;
        n = g_ascii_strtoll (norm->str, NULL, 10);
        if (first_target && g_str_equal (field->key, "ipus"))
          p->ipus = n;
        else if (first_target && g_str_equal (field->key, "tiles_per_ipu"))
          p->tiles_per_ipu = n;
        else if (first_target && g_str_equal (field->key, "total_tiles"))
          p->total_tiles = n;
        stored = g_strdup (norm->str);
      }
      break;

    case FIELD_MEMORY:
      if (!find_unit (memory_units, G_N_ELEMENTS (memory_units), unit, &factor))
        goto bad;
      if (first_target && g_str_equal (field->key, "memory_per_tile"))
        p->memory_limit = (gint64)llround (g_ascii_strtod (norm->str, NULL) * factor);
      stored = g_strdup_printf ("%s %s", norm->str, unit);
      break;

    case FIELD_CLOCK:
      if (!find_unit (clock_units, G_N_ELEMENTS (clock_units), unit, &factor))
        goto bad;
      if (first_target)
        p->clock_hz = (gint64)llround (g_ascii_strtod (norm->str, NULL) * factor);
      stored = g_strdup_printf ("%s %s", norm->str, unit);
      break;

    default:
      g_assert_not_reached ();
    }

  return tes_poplar_report_put_printed (p, key, stored, value, error);

bad:
  {
    g_autofree char *got = tes_describe_text (value, strlen (value), 60);
    const char *expected = field->kind == FIELD_COUNT ? "a whole number" :
                           field->kind == FIELD_MEMORY ? "a size such as '256.0 kB'" :
                           "a frequency such as '1,600.0 MHz'";

    return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->path, p->line_no,
                                    _("'%s' expects %s, got '%s'"), label, expected, got);
  }
}

gboolean
tes_poplar_report_key_value_line (TesPoplarReportParser  *p,
                                  const char             *text,
                                  GError                **error)
{
  g_autofree char *label = NULL;
  const char *value;

  if (!tes_poplar_split_kv (text, &label, &value) || *value == '\0')
    {
      g_autofree char *got = tes_describe_text (text, strlen (text), 60);

      return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->path, p->line_no,
                                      _("expected '<label>: <value>' in the %s section, got '%s'"),
                                      p->section == TES_POPLAR_SECTION_TARGET ? "Target" : "Graph", got);
    }

  if (p->section == TES_POPLAR_SECTION_TARGET)
    return handle_field (p, target_fields, G_N_ELEMENTS (target_fields), label, value, error);
  else
    return handle_field (p, graph_fields, G_N_ELEMENTS (graph_fields), label, value, error);
}

