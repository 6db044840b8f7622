/* tes-torq-util.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-torq-util"

#include "config.h"

#include "tes-decimal.h"
#include "tes-json.h"
#include "tes-text.h"
#include "tes-torq-util.h"

#include <math.h>
#include <string.h>

/* The report's clock of that kind: the writer hands every Torq file of a
 * report the same clock for the same name, unit and rate. */
gint64
tes_torq_get_clock (TesCacheWriter *writer,
                    TesTorqClock    clock)
{
  g_return_val_if_fail (TES_IS_CACHE_WRITER (writer), 0);

  switch (clock)
    {
    case TES_TORQ_CLOCK_COMPILE_CYCLES:
      return tes_cache_writer_add_clock (writer, "Torq compile-time cycles (100 MHz)",
                                         TES_TIME_UNIT_CYCLES, TES_TORQ_COMPILE_CLOCK_HZ);
    case TES_TORQ_CLOCK_HOST_US:
      return tes_cache_writer_add_clock (writer, "Torq host time (µs)", TES_TIME_UNIT_US, 1000000);
    case TES_TORQ_CLOCK_HOST_NS:
      return tes_cache_writer_add_clock (writer, "Torq host time (ns)", TES_TIME_UNIT_NS, 1000000000);
    case TES_TORQ_N_CLOCKS:
    default:
      g_return_val_if_reached (0);
    }
}

static gint64
add_root (TesImportContext *context,
          TesTorqClock      clock_kind,
          TesTrackKind      kind,
          const char       *name,
          gint64           *clock)
{
  g_autofree char *base = g_path_get_basename (context->path);

  *clock = tes_torq_get_clock (context->writer, clock_kind);
  return tes_cache_writer_add_track (context->writer, 0, context->source_id, *clock,
                                     kind, name, 0, base);
}

/* The process track a Torq file's lanes go under: named name, the file's
 * base name its native id, on the report's clock of that kind (*clock). */
gint64
tes_torq_add_process (TesImportContext *context,
                      TesTorqClock      kind,
                      const char       *name,
                      gint64           *clock)
{
  return add_root (context, kind, TES_TRACK_PROCESS, name, clock);
}

/* The same for a file whose lanes are the NPU's engines
 * (tes_torq_lanes_add_unit ()): a device, so that its units are
 * counted per device (Tile Balance). */
gint64
tes_torq_add_device (TesImportContext *context,
                     TesTorqClock      kind,
                     const char       *name,
                     gint64           *clock)
{
  return add_root (context, kind, TES_TRACK_DEVICE, name, clock);
}

/* Records a recovered problem as info "warning.N" (numbered across all
 * the Torq files of the report), prefixed with the file's name. */
void
tes_torq_warn (TesImportContext *context,
               const char       *format,
               ...)
{
  g_autofree char *message = NULL;
  g_autofree char *text = NULL;
  g_autofree char *base = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  base = g_path_get_basename (context->path);
  text = g_strdup_printf ("%s: %s", base, message);
  tes_cache_writer_add_warning (context->writer, context->source_id, text);
  g_debug ("%s", text);
}

/* ------------------------------------------------------------------------
 * Lanes
 * ------------------------------------------------------------------------ */

typedef struct
{
  gint64        sort;
  TesTrackKind  kind;
  char         *within;   /* the unit lane it belongs to, or NULL */
} Lane;

static void
lane_free (gpointer data)
{
  Lane *lane = data;

  g_free (lane->within);
  g_free (lane);
}

/* name -> Lane of one process; the lanes are made once every row is
 * known, in the order shared by every Torq importer (TES_TORQ_SORT_*),
 * then by name. */
GHashTable *
tes_torq_lanes_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, lane_free);
}

static const char *
lanes_add (GHashTable   *lanes,
           const char   *name,
           gint64        sort,
           TesTrackKind  kind,
           const char   *within)
{
  gpointer key = NULL;

  if (!g_hash_table_lookup_extended (lanes, name, &key, NULL))
    {
      Lane *lane = g_new0 (Lane, 1);

      lane->sort = sort;
      lane->kind = kind;
      lane->within = g_strdup (within);
      key = g_strdup (name);
      g_hash_table_insert (lanes, key, lane);
    }

  return key;
}

/* The lane keeps the sort index it was first added with. */
const char *
tes_torq_lanes_add (GHashTable *lanes,
                    const char *name,
                    gint64      sort)
{
  return lanes_add (lanes, name, sort, TES_TRACK_LANE, NULL);
}

/* A lane that is one of the NPU's parallel units (a DMA engine, a slice,
 * the CSS), whose rows are that unit's work: a core track, so Tile Balance
 * counts it. @within: NULL, or the unit (added before, with a lower sort
 * index) whose work this lane holds too (its overflow lane); it goes
 * below that unit's track and is no unit of its own. */
const char *
tes_torq_lanes_add_unit (GHashTable *lanes,
                         const char *name,
                         gint64      sort,
                         const char *within)
{
  return lanes_add (lanes, name, sort, within != NULL ? TES_TRACK_LANE : TES_TRACK_CORE, within);
}

TesTorqRow *
tes_torq_row_new (GHashTable *lanes,
                  const char *lane,
                  gint64      sort)
{
  TesTorqRow *row = g_new0 (TesTorqRow, 1);

  row->lane = tes_torq_lanes_add (lanes, lane, sort);
  return row;
}

void
tes_torq_row_free (gpointer data)
{
  TesTorqRow *row = data;

  g_free (row->name);
  g_free (row->category);
  g_free (row->args);
  g_free (row);
}

static int
compare_lanes (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  GHashTable *lanes = user_data;
  const char *la = *(const char * const *)a;
  const char *lb = *(const char * const *)b;
  gint64 sa = ((Lane *)g_hash_table_lookup (lanes, la))->sort;
  gint64 sb = ((Lane *)g_hash_table_lookup (lanes, lb))->sort;

  if (sa != sb)
    return sa < sb ? -1 : 1;
  return strcmp (la, lb);
}

/* One track per lane under process (or under the unit it belongs to),
 * then the rows as slices, in order. */
void
tes_torq_write_lanes (TesImportContext *context,
                      gint64            process,
                      gint64            clock,
                      GHashTable       *lanes,
                      GPtrArray        *rows)
{
  TesCacheWriter *w = context->writer;
  g_autoptr(GHashTable) tracks = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree const char **names = NULL;
  guint n_lanes;

  names = (const char **)g_hash_table_get_keys_as_array (lanes, &n_lanes);
  g_qsort_with_data (names, n_lanes, sizeof (char *), compare_lanes, lanes);
  for (guint i = 0; i < n_lanes; i++)
    {
      const Lane *lane = g_hash_table_lookup (lanes, names[i]);
      gint64 parent = lane->within != NULL ? (gint64)GPOINTER_TO_SIZE (g_hash_table_lookup (tracks, lane->within)) : 0;
      gint64 track = tes_cache_writer_add_track (w, parent != 0 ? parent : process, context->source_id, clock,
                                                 lane->kind, names[i], lane->sort, names[i]);

      g_hash_table_insert (tracks, (gpointer)names[i], GSIZE_TO_POINTER ((gsize)track));
    }

  for (guint i = 0; i < rows->len; i++)
    {
      const TesTorqRow *row = g_ptr_array_index (rows, i);
      gint64 track = (gint64)GPOINTER_TO_SIZE (g_hash_table_lookup (tracks, row->lane));

      tes_cache_writer_add_slice (w, track, row->start, row->dur,
                                  tes_cache_writer_intern (w, row->name),
                                  tes_cache_writer_intern (w, row->category),
                                  TES_SLICE_FLAG_NONE, row->args, -1);
    }
}

/* ------------------------------------------------------------------------
 * Source locations
 * ------------------------------------------------------------------------ */

static void
loc_clear (gpointer data)
{
  TesTorqLoc *loc = data;

  g_clear_pointer (&loc->file, g_free);
  g_clear_pointer (&loc->name, g_free);
  g_clear_pointer (&loc->alias, g_free);
}

GArray *
tes_torq_loc_array_new (void)
{
  GArray *locs = g_array_new (FALSE, TRUE, sizeof (TesTorqLoc));

  g_array_set_clear_func (locs, loc_clear);
  return locs;
}

typedef struct
{
  const char *s;
  gsize       len;
  gsize       pos;
  GArray     *locs;
  guint       depth;
} LocParser;

static void
skip_ws (LocParser *p)
{
  while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t'))
    p->pos++;
}

static gboolean
accept (LocParser  *p,
        const char *word)
{
  gsize n = strlen (word);

  skip_ws (p);
  if (p->len - p->pos >= n && memcmp (p->s + p->pos, word, n) == 0)
    {
      p->pos += n;
      return TRUE;
    }

  return FALSE;
}

/* A keyword only when not followed by more identifier characters. */
static gboolean
accept_word (LocParser  *p,
             const char *word)
{
  gsize save = p->pos;
  gsize end;

  if (!accept (p, word))
    return FALSE;

  end = p->pos;
  if (end < p->len && (g_ascii_isalnum (p->s[end]) || p->s[end] == '_'))
    {
      p->pos = save;
      return FALSE;
    }

  return TRUE;
}

/* An MLIR string literal: "..." with \" \\ \n \t and \XX hex escapes. */
static char *
parse_string (LocParser *p)
{
  g_autoptr(GString) out = g_string_new (NULL);

  skip_ws (p);
  if (p->pos >= p->len || p->s[p->pos] != '"')
    return NULL;
  p->pos++;

  while (p->pos < p->len)
    {
      char c = p->s[p->pos++];

      if (c == '"')
        return g_string_free (g_steal_pointer (&out), FALSE);

      if (c != '\\')
        {
          g_string_append_c (out, c);
          continue;
        }

      if (p->pos >= p->len)
        return NULL;
      c = p->s[p->pos++];
      if (c == 'n')
        g_string_append_c (out, '\n');
      else if (c == 't')
        g_string_append_c (out, '\t');
      else if (g_ascii_isxdigit (c) && p->pos < p->len && g_ascii_isxdigit (p->s[p->pos]))
        {
          g_string_append_c (out, (char)(g_ascii_xdigit_value (c) * 16 + g_ascii_xdigit_value (p->s[p->pos])));
          p->pos++;
        }
      else
        g_string_append_c (out, c);
    }

  return NULL;
}

static gboolean
parse_uint (LocParser *p,
            gint64    *out)
{
  gsize start;

  skip_ws (p);
  start = p->pos;
  *out = 0;
  while (p->pos < p->len && g_ascii_isdigit (p->s[p->pos]))
    {
      if (*out > (G_MAXINT64 - 9) / 10)
        return FALSE;
      *out = *out * 10 + (p->s[p->pos++] - '0');
    }

  return p->pos > start;
}

/* Skips a balanced <...> (fused metadata), minding strings. */
static gboolean
skip_angle (LocParser *p)
{
  guint depth = 0;

  while (p->pos < p->len)
    {
      char c = p->s[p->pos];

      if (c == '"')
        {
          g_autofree char *ignored = parse_string (p);

          if (ignored == NULL)
            return FALSE;
          continue;
        }

      p->pos++;
      if (c == '<')
        depth++;
      else if (c == '>' && --depth == 0)
        return TRUE;
    }

  return FALSE;
}

static gboolean parse_node (LocParser *p,
                            const char *name);

/* After "file":line:col an optional range end: " to :col" or " to line:col". */
static void
skip_range (LocParser *p)
{
  gsize save = p->pos;
  gint64 ignored;

  if (!accept_word (p, "to"))
    return;

  skip_ws (p);
  if (parse_uint (p, &ignored))
    {
      if (!accept (p, ":") || !parse_uint (p, &ignored))
        p->pos = save;
      return;
    }
  if (!accept (p, ":") || !parse_uint (p, &ignored))
    p->pos = save;
}

static gboolean
parse_node (LocParser  *p,
            const char *name)
{
  g_autofree char *str = NULL;

  if (++p->depth > 64)
    return FALSE;

  skip_ws (p);

  if (accept_word (p, "unknown") || accept (p, "?"))
    {
      if (name != NULL)
        {
          TesTorqLoc loc = { 0 };

          loc.name = g_strdup (name);
          g_array_append_val (p->locs, loc);
        }
      p->depth--;
      return TRUE;
    }

  if (accept_word (p, "callsite"))
    {
      if (!accept (p, "(") || !parse_node (p, name) || !accept_word (p, "at") ||
          !parse_node (p, NULL) || !accept (p, ")"))
        return FALSE;
      p->depth--;
      return TRUE;
    }

  if (accept_word (p, "fused"))
    {
      skip_ws (p);
      if (p->pos < p->len && p->s[p->pos] == '<' && !skip_angle (p))
        return FALSE;
      if (!accept (p, "["))
        return FALSE;
      if (!accept (p, "]"))
        {
          do
            {
              if (!parse_node (p, name))
                return FALSE;
            }
          while (accept (p, ","));
          if (!accept (p, "]"))
            return FALSE;
        }
      p->depth--;
      return TRUE;
    }

  skip_ws (p);
  if (p->pos < p->len && p->s[p->pos] == '#')
    {
      gsize start = p->pos++;
      TesTorqLoc loc = { 0 };

      while (p->pos < p->len && (g_ascii_isalnum (p->s[p->pos]) || p->s[p->pos] == '_' || p->s[p->pos] == '.'))
        p->pos++;
      if (p->pos == start + 1)
        return FALSE;
      loc.alias = g_strndup (p->s + start, p->pos - start);
      loc.name = g_strdup (name);
      g_array_append_val (p->locs, loc);
      p->depth--;
      return TRUE;
    }

  if ((str = parse_string (p)) == NULL)
    return FALSE;

  if (accept (p, ":"))
    {
      TesTorqLoc loc = { 0 };

      if (!parse_uint (p, &loc.line) || !accept (p, ":") || !parse_uint (p, &loc.col))
        return FALSE;
      skip_range (p);
      loc.file = g_steal_pointer (&str);
      loc.name = g_strdup (name);
      g_array_append_val (p->locs, loc);
    }
  else if (accept (p, "("))
    {
      /* NameLoc with a child location: the name goes onto its entries */
      guint before = p->locs->len;

      if (!parse_node (p, str) || !accept (p, ")"))
        return FALSE;
      if (p->locs->len == before)
        {
          TesTorqLoc loc = { 0 };

          loc.name = g_steal_pointer (&str);
          g_array_append_val (p->locs, loc);
        }
    }
  else
    {
      TesTorqLoc loc = { 0 };

      loc.name = g_steal_pointer (&str);
      g_array_append_val (p->locs, loc);
    }

  p->depth--;
  return TRUE;
}

/* If text starts with an MLIR location "loc(...)", the length of it
 * (through its closing parenthesis, minding string literals); else 0. */
gsize
tes_torq_loc_extent (const char *text,
                     gsize       len)
{
  guint depth = 0;
  gboolean in_string = FALSE;

  if (len < 5 || memcmp (text, "loc(", 4) != 0)
    return 0;

  for (gsize i = 3; i < len; i++)
    {
      char c = text[i];

      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
          continue;
        }

      if (c == '"')
        in_string = TRUE;
      else if (c == '\n' || c == '\r')
        return 0;
      else if (c == '(')
        depth++;
      else if (c == ')' && --depth == 0)
        return i + 1;
    }

  return 0;
}

/* Parses one printed MLIR location — loc(unknown), loc("f":l:c),
 * loc(fused[...]), loc(fused<...>[...]), loc("name"), loc("name"(child)),
 * loc(callsite(a at b)), loc(#alias) — appending its file positions and
 * names to locs in order (a callsite gives the callee, then the caller).
 * The whole text must be the location. */
gboolean
tes_torq_parse_mlir_loc (const char *text,
                         gsize       len,
                         GArray     *locs)
{
  LocParser p = { text, len, 0, locs, 0 };
  guint before = locs->len;

  if (accept (&p, "loc(") && parse_node (&p, NULL) && accept (&p, ")"))
    {
      skip_ws (&p);
      if (p.pos == len)
        return TRUE;
    }

  g_array_set_size (locs, before);
  return FALSE;
}

/* The Torq tools' pretty form (debug_info.py pretty_print_location):
 * "@L10C10+@L11C10", line and column of each file position joined by '+'.
 * The file is not named. */
gboolean
tes_torq_parse_short_loc (const char *text,
                          gsize       len,
                          GArray     *locs)
{
  LocParser p = { text, len, 0, locs, 0 };
  guint before = locs->len;

  if (len == 0)
    return FALSE;

  do
    {
      TesTorqLoc loc = { 0 };

      if (p.pos >= len || text[p.pos] != '@' || ++p.pos >= len || text[p.pos++] != 'L' ||
          !parse_uint (&p, &loc.line) || p.pos >= len || text[p.pos++] != 'C' ||
          !parse_uint (&p, &loc.col))
        {
          g_array_set_size (locs, before);
          return FALSE;
        }
      g_array_append_val (locs, loc);
    }
  while (p.pos < len && text[p.pos++] == '+');

  if (p.pos != len || text[len - 1] == '+')
    {
      g_array_set_size (locs, before);
      return FALSE;
    }

  return TRUE;
}

/* Appends "loc":[{"file":..,"line":..,"col":..},{"name":..}, ...] to an
 * open JSON object. */
void
tes_torq_append_locs_json (GString *json,
                           GArray  *locs)
{
  tes_json_key (json, "loc");
  g_string_append_c (json, '[');

  for (guint i = 0; i < locs->len; i++)
    {
      const TesTorqLoc *loc = &g_array_index (locs, TesTorqLoc, i);

      if (i > 0)
        g_string_append_c (json, ',');
      g_string_append_c (json, '{');
      if (loc->name != NULL)
        tes_json_member (json, "name", loc->name, -1);
      if (loc->alias != NULL)
        tes_json_member (json, "alias", loc->alias, -1);
      if (loc->file != NULL)
        tes_json_member (json, "file", loc->file, -1);
      if (loc->line > 0)
        {
          tes_json_member_int (json, "line", loc->line);
          tes_json_member_int (json, "col", loc->col);
        }
      g_string_append_c (json, '}');
    }

  g_string_append_c (json, ']');
}

/* ------------------------------------------------------------------------
 * Numbers and text
 * ------------------------------------------------------------------------ */

/* A decimal integer, optionally negative, surrounding blanks allowed. */
gboolean
tes_torq_parse_int (const char *text,
                    gsize       len,
                    gint64     *out)
{
  gboolean negative = FALSE;
  guint64 value = 0;
  gsize i = 0;

  tes_strip (&text, &len);
  if (len > 0 && text[0] == '-')
    {
      negative = TRUE;
      i = 1;
    }
  if (i >= len)
    return FALSE;

  for (; i < len; i++)
    {
      if (!g_ascii_isdigit (text[i]))
        return FALSE;
      if (value > ((guint64)G_MAXINT64 - 9) / 10)
        return FALSE;
      value = value * 10 + (guint64)(text[i] - '0');
    }

  *out = negative ? -(gint64)value : (gint64)value;
  return TRUE;
}

/* A duration as the Torq tools print it (perfetto_logger.py
 * format_time_duration): "0ns", "453.000µs", "12.386ms", "1.234s"; "us"
 * and U+03BC are taken for µ. Converted to ns exactly (rounded to the
 * nearest ns when more digits are given than ns resolve). */
gboolean
tes_torq_parse_duration (const char *text,
                         gsize       len,
                         gint64     *ns)
{
  static const struct { const char *unit; gint64 scale; } units[] = {
    { "ns", 1 },
    { "\xc2\xb5s", 1000 },
    { "\xce\xbcs", 1000 },
    { "us", 1000 },
    { "ms", 1000000 },
    { "s", 1000000000 },
  };
  gint64 scale = 0;
  guint64 whole = 0;
  guint64 frac = 0;
  guint64 frac_scale = 1;
  gsize i = 0;
  gsize digits_end;

  tes_strip (&text, &len);

  while (i < len && g_ascii_isdigit (text[i]))
    {
      if (whole > G_MAXUINT64 / 10 - 1)
        return FALSE;
      whole = whole * 10 + (guint64)(text[i++] - '0');
    }
  if (i == 0)
    return FALSE;

  if (i < len && text[i] == '.')
    {
      gsize start = ++i;

      while (i < len && g_ascii_isdigit (text[i]))
        {
          if (frac_scale <= G_GUINT64_CONSTANT (100000000000000000))
            {
              frac = frac * 10 + (guint64)(text[i] - '0');
              frac_scale *= 10;
            }
          i++;
        }
      if (i == start)
        return FALSE;
    }
  digits_end = i;

  for (guint u = 0; u < G_N_ELEMENTS (units); u++)
    if (len - digits_end == strlen (units[u].unit) &&
        memcmp (text + digits_end, units[u].unit, len - digits_end) == 0)
      scale = units[u].scale;
  if (scale == 0)
    return FALSE;

  if (whole > (guint64)G_MAXINT64 / (guint64)scale)
    return FALSE;

  /* frac / frac_scale * scale, rounded; frac_scale <= 1e18 and scale <= 1e9 */
  {
    double part = (double)frac * (double)scale / (double)frac_scale;
    guint64 rounded;

    if (frac_scale <= 1000000000 && ((guint64)scale % frac_scale == 0))
      rounded = frac * ((guint64)scale / frac_scale);
    else
      rounded = (guint64)llround (part);

    if (whole * (guint64)scale > (guint64)G_MAXINT64 - rounded)
      return FALSE;
    *ns = (gint64)(whole * (guint64)scale + rounded);
  }

  return TRUE;
}

/* "3.53%", white space around it allowed. */
gboolean
tes_torq_parse_percent (const char *text,
                        gsize       len,
                        double     *percent)
{
  tes_strip (&text, &len);
  return tes_parse_percent (text, len, percent);
}

/* "<value> (<percent>%)": the percentage at the end of text (NaN when it
 * has none) and, in *len, the length of what comes before it. FALSE when
 * text ends in a parenthesis that is not a percentage. */
gboolean
tes_torq_split_percent (const char *text,
                        gsize      *len,
                        double     *percent)
{
  const char *open;

  *percent = NAN;
  if (*len == 0 || text[*len - 1] != ')')
    return TRUE;

  open = g_strrstr_len (text, *len, " (");
  if (open == NULL || !tes_torq_parse_percent (open + 2, (gsize)(text + *len - 1 - (open + 2)), percent))
    return FALSE;

  *len = (gsize)(open - text);
  return TRUE;
}
