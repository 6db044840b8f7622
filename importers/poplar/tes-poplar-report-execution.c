/* tes-poplar-report-execution.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-poplar-report"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "tes-poplar-report-private.h"
#include "tes-text.h"

#include <math.h>
#include <string.h>

/* Execution: the programs a run executed, its cycle figures (for the
 * whole run, then per IPU in "IPU N:" blocks where there are several), its
 * cycles by vertex type (the operator rows), and the program steps that
 * showExecutionSteps lists. */

/* Parentheses left open mean a line cut short. */
static gboolean
check_balanced (TesPoplarReportParser  *p,
                const char             *text,
                GError                **error)
{
  int depth = 0;

  for (const char *s = text; *s; s++)
    {
      if (*s == '(')
        depth++;
      else if (*s == ')' && --depth < 0)
        break;
    }

  if (depth != 0)
    {
      g_autofree char *got = tes_describe_text (text, strlen (text), 60);

      return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->path, p->line_no,
                                      _("unbalanced parentheses in '%s' (line cut short?)"), got);
    }

  return TRUE;
}

static gboolean
is_metric_label (const char *label)
{
  g_autofree char *lower = g_ascii_strdown (label, -1);

  return strstr (lower, "cycles") != NULL || strstr (lower, "balance") != NULL ||
         g_str_has_prefix (lower, "total ") || g_str_has_prefix (lower, "tile average");
}

/* "(approx 5,023.9 microseconds)", "(0.1% of total)" */
static gboolean
handle_metric (TesPoplarReportParser  *p,
               const char             *label,
               const char             *value,
               GError                **error)
{
  g_autoptr(GString) norm = g_string_new (NULL);
  g_autofree char *slug = tes_poplar_slugify (label);
  g_autofree char *key = g_strdup_printf ("%s.%s", p->exec_ipu_prefix != NULL ? p->exec_ipu_prefix
                                                                              : p->exec->prefix, slug);
  /* an IPU's own total is not the run's */
  gboolean total = g_ascii_strcasecmp (label, "Total cycles") == 0 && p->exec_ipu_prefix == NULL;
  gboolean cycles = g_ascii_strcasecmp (label, "Total cycles") == 0;
  const char *rest;

  if (!check_balanced (p, value, error))
    return FALSE;

  if (!g_ascii_isdigit (*value))
    {
      if (cycles)
        goto bad;
      return tes_poplar_report_put_info (p, key, value, error);
    }

  if (!tes_poplar_scan_number (value, &rest, norm))
    goto bad;
  rest = tes_poplar_skip_spaces (rest);

  if (cycles && !tes_poplar_is_integer (norm->str))
    goto bad;
  if (total)
    p->exec->total_cycles = g_ascii_strtoll (norm->str, NULL, 10);

  if (*rest == '%')
    {
      g_string_append_c (norm, '%');
      rest = tes_poplar_skip_spaces (rest + 1);
    }

  if (!tes_poplar_report_put_printed (p, key, norm->str, value, error))
    return FALSE;

  if (*rest == '\0')
    return TRUE;

  {
    g_autoptr(GString) inner = g_string_new (NULL);
    const char *end;

    if (g_str_has_prefix (rest, "(approx ") &&
        tes_poplar_scan_number (rest + strlen ("(approx "), &end, inner) &&
        g_str_equal (end, " microseconds)"))
      {
        g_autofree char *us_key = g_strconcat (key, ".approx_us", NULL);

        if (total)
          p->exec->approx_us = g_strdup (inner->str);
        return tes_poplar_report_put_info (p, us_key, inner->str, error);
      }

    g_string_truncate (inner, 0);
    if (rest[0] == '(' &&
        tes_poplar_scan_number (rest + 1, &end, inner) &&
        g_str_equal (end, "% of total)"))
      {
        g_autofree char *share_key = g_strconcat (key, ".share", NULL);

        return tes_poplar_report_put_info (p, share_key, inner->str, error);
      }
  }

  {
    g_autofree char *note_key = g_strconcat (key, ".note", NULL);

    return tes_poplar_report_put_info (p, note_key, rest, error);
  }

bad:
  {
    g_autofree char *got = tes_describe_text (value, strlen (value), 60);

    return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->path, p->line_no,
                                    _("'%s' expects a whole number of cycles, got '%s'"), label, got);
  }
}

/* "popops::Zero2d<float>   (14592 instances):   17,612,544 [(12.5%)]" */
static gboolean
handle_vertex_row (TesPoplarReportParser  *p,
                   const char             *label,
                   const char             *value,
                   GError                **error)
{
  g_autoptr(GString) instances = g_string_new (NULL);
  g_autoptr(GString) cycles = g_string_new (NULL);
  g_autoptr(GString) share = g_string_new (NULL);
  const char *open = strrchr (label, '(');
  const char *s;
  TesPoplarVertexRow row = { NULL, -1, -1, NAN };

  if (open == NULL || open == label)
    goto bad;
  s = open + 1;
  if (!tes_poplar_scan_number (s, &s, instances) || !tes_poplar_is_integer (instances->str))
    goto bad;
  s = tes_poplar_skip_spaces (s);
  if (!g_str_equal (s, "instances)") && !g_str_equal (s, "instance)"))
    goto bad;

  s = value;
  if (!tes_poplar_scan_number (s, &s, cycles) || !tes_poplar_is_integer (cycles->str))
    goto bad;
  s = tes_poplar_skip_spaces (s);
  if (*s != '\0')
    {
      gboolean paren = *s == '(';

      if (paren)
        s = tes_poplar_skip_spaces (s + 1);
      if (!tes_poplar_scan_number (s, &s, share) || *s++ != '%')
        goto bad;
      s = tes_poplar_skip_spaces (s);
      if (paren && *s++ != ')')
        goto bad;
      if (*tes_poplar_skip_spaces (s) != '\0')
        goto bad;
    }

  row.name = g_strstrip (g_strndup (label, open - label));
  if (*row.name == '\0')
    {
      g_free (row.name);
      goto bad;
    }
  row.instances = g_ascii_strtoll (instances->str, NULL, 10);
  row.cycles = g_ascii_strtoll (cycles->str, NULL, 10);
  if (share->len > 0)
    row.share = g_ascii_strtod (share->str, NULL);
  g_array_append_val (p->exec->vertices, row);

  return TRUE;

bad:
  {
    g_autofree char *got = tes_describe_text (value, strlen (value), 60);
    g_autofree char *got_label = tes_describe_text (label, strlen (label), 60);

    return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->path, p->line_no,
                                    _("expected '<vertex type> (<N> instances): <cycles>', got '%s: %s'"), got_label, got);
  }
}

/* Returns FALSE with *handled unset when the line is not part of the
 * execution section (it then ends the section). */
gboolean
tes_poplar_report_execution_line (TesPoplarReportParser  *p,
                                  const char             *text,
                                  gboolean               *handled,
                                  GError                **error)
{
  g_autofree char *label = NULL;
  const char *value = NULL;
  gboolean kv = tes_poplar_split_kv (text, &label, &value) && *value != '\0';

  gint64 ipu;

  *handled = TRUE;

  if (tes_poplar_parse_ipu_header (text, &ipu))
    {
      if (ipu >= 4096)
        return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->path, p->line_no,
                                        _("IPU %" PRId64 " is beyond what Tessera accepts (4096 IPUs)"), ipu);
      g_free (p->exec_ipu_prefix);
      p->exec_ipu_prefix = g_strdup_printf ("%s.ipu.%" G_GINT64_FORMAT, p->exec->prefix, ipu);
      p->exec_state = TES_POPLAR_EXEC_METRICS;
      return TRUE;
    }

  /* A second "Total cycles" starts the next run. */
  if (kv && p->exec->total_cycles >= 0 && p->exec_ipu_prefix == NULL &&
      g_ascii_strcasecmp (label, "Total cycles") == 0)
    {
      *handled = FALSE;
      return TRUE;
    }

  if (kv && (g_str_has_suffix (label, "instances)") || g_str_has_suffix (label, "instance)")))
    {
      p->exec_state = TES_POPLAR_EXEC_VERTICES;
      return handle_vertex_row (p, label, value, error);
    }

  if (kv && is_metric_label (label))
    {
      p->exec_state = TES_POPLAR_EXEC_METRICS;
      return handle_metric (p, label, value, error);
    }

  if (p->exec_state == TES_POPLAR_EXEC_PROGRAMS)
    {
      g_autofree char *key = NULL;
      g_autofree char *name = g_strdup (text);
      gsize len = strlen (name);

      /* The list is printed as "<name>." */
      if (len > 1 && name[len - 1] == '.')
        name[len - 1] = '\0';

      g_ptr_array_add (p->exec->programs, g_strdup (name));
      key = g_strdup_printf ("%s.program.%u", p->exec->prefix, p->exec->programs->len);
      return tes_poplar_report_put_info (p, key, name, error);
    }

  *handled = FALSE;
  return TRUE;
}


/* ---- Execution Steps ------------------------------------------------------ */

/* "IPU 0:", the column header "Step  Cycles  Program step", and rows
 * "<step> <cycles> <program step as printed>". */
gboolean
tes_poplar_report_step_line (TesPoplarReportParser  *p,
                             const char             *text,
                             GError                **error)
{
  g_autoptr(GString) step = g_string_new (NULL);
  g_autoptr(GString) cycles = g_string_new (NULL);
  TesPoplarStep row = { 0 };
  const char *s = text;
  gint64 ipu;

  if (tes_poplar_parse_ipu_header (text, &ipu))
    {
      if (ipu >= 4096)
        return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->path, p->line_no,
                                        _("IPU %" PRId64 " is beyond what Tessera accepts (4096 IPUs)"), ipu);
      p->step_ipu = ipu;
      return TRUE;
    }

  if (g_str_has_prefix (text, "Step") && strstr (text, "Cycles") != NULL)
    return TRUE;

  if (!tes_poplar_scan_number (s, &s, step) || !tes_poplar_is_integer (step->str) || !tes_is_space (*s))
    goto bad;
  s = tes_poplar_skip_spaces (s);
  if (!tes_poplar_scan_number (s, &s, cycles) || !tes_poplar_is_integer (cycles->str) || !tes_is_space (*s))
    goto bad;
  s = tes_poplar_skip_spaces (s);
  if (*s == '\0')
    goto bad;

  row.ipu = p->step_ipu;
  row.step = g_ascii_strtoll (step->str, NULL, 10);
  row.cycles = g_ascii_strtoll (cycles->str, NULL, 10);
  row.line = p->line_no;

  /* Steps are listed in the order they ran, numbered from 1 per IPU. */
  for (guint i = p->exec->steps->len; i-- > 0;)
    {
      const TesPoplarStep *prev = &g_array_index (p->exec->steps, TesPoplarStep, i);

      if (prev->ipu != row.ipu)
        continue;
      if (prev->step >= row.step)
        return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->path, p->line_no,
                                        _("step %" PRId64 " of IPU %" PRId64 " is listed after its step %" PRId64
                                          " (line %u): the steps are not in order"),
                                        row.step, row.ipu, prev->step, prev->line);
      break;
    }

  row.text = g_strdup (s);
  g_array_append_val (p->exec->steps, row);
  return TRUE;

bad:
  {
    g_autofree char *got = tes_describe_text (text, strlen (text), 60);

    return tes_import_fail_at_line (error, TES_IMPORT_ERROR_INVALID, p->path, p->line_no,
                                    _("expected an execution step '<step> <cycles> <program step>', got '%s'"), got);
  }
}
