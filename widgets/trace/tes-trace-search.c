/* tes-trace-search.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "tes-trace-search.h"

typedef struct
{
  GArray *indexes;   /* guint32, ascending (index order is start order) */
  GArray *starts;    /* gint64 ns, ascending, one per index */
} LaneMatches;

struct _TesTraceMatches
{
  GArray     *all;     /* TesTraceMatch, by start then track */
  GHashTable *lanes;   /* track id -> LaneMatches */
};

static void
lane_matches_free (gpointer data)
{
  LaneMatches *lane = data;

  g_array_unref (lane->indexes);
  g_array_unref (lane->starts);
  g_free (lane);
}

static int
compare_matches (gconstpointer a,
                 gconstpointer b)
{
  const TesTraceMatch *x = a, *y = b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  if (x->track_id != y->track_id)
    return x->track_id < y->track_id ? -1 : 1;

  return x->index < y->index ? -1 : x->index > y->index;
}

/* @found: what tes_report_search() returned. */
TesTraceMatches *
tes_trace_matches_new (TesReport *report,
                       GArray    *found)
{
  TesTraceMatches *matches = g_new0 (TesTraceMatches, 1);

  matches->all = g_array_sized_new (FALSE, FALSE, sizeof (TesTraceMatch), found->len);
  matches->lanes = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, lane_matches_free);

  for (guint i = 0; i < found->len; i++)
    {
      const TesSearchMatch *hit = &g_array_index (found, TesSearchMatch, i);
      const TesTrack *track = tes_report_get_track (report, hit->track_id);
      TesTraceMatch match = {
        .track_id = hit->track_id,
        .index = hit->index,
        .start = tes_report_convert_time (report, track ? track->clock_id : 0, 0, hit->start),
      };
      LaneMatches *lane = g_hash_table_lookup (matches->lanes, &hit->track_id);

      if (lane == NULL)
        {
          lane = g_new0 (LaneMatches, 1);
          lane->indexes = g_array_new (FALSE, FALSE, sizeof (guint32));
          lane->starts = g_array_new (FALSE, FALSE, sizeof (gint64));
          g_hash_table_insert (matches->lanes, g_memdup2 (&hit->track_id, sizeof (gint64)), lane);
        }
      g_array_append_val (lane->indexes, match.index);
      g_array_append_val (lane->starts, match.start);
      g_array_append_val (matches->all, match);
    }

  g_array_sort (matches->all, compare_matches);

  return matches;
}

void
tes_trace_matches_free (TesTraceMatches *matches)
{
  if (matches == NULL)
    return;

  g_array_unref (matches->all);
  g_hash_table_unref (matches->lanes);
  g_free (matches);
}

/* Shares the matches' tables (they are never changed once built): a
 * frame built in a thread keeps them while the view moves on to others. */
TesTraceMatches *
tes_trace_matches_copy (const TesTraceMatches *matches)
{
  TesTraceMatches *copy;

  if (matches == NULL)
    return NULL;

  copy = g_new0 (TesTraceMatches, 1);
  copy->all = g_array_ref (matches->all);
  copy->lanes = g_hash_table_ref (matches->lanes);

  return copy;
}

guint
tes_trace_matches_get_n (const TesTraceMatches *matches)
{
  return matches ? matches->all->len : 0;
}

const TesTraceMatch *
tes_trace_matches_get (const TesTraceMatches *matches,
                       guint                  i)
{
  g_return_val_if_fail (matches != NULL && i < matches->all->len, NULL);

  return &g_array_index (matches->all, TesTraceMatch, i);
}

/* The first position in a sorted array of guint32 or gint64 holding a
 * value at or above @value. */
static guint
lower_bound_u32 (GArray  *array,
                 guint32  value)
{
  guint lo = 0, hi = array->len;

  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;

      if (g_array_index (array, guint32, mid) < value)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

static guint
lower_bound_i64 (GArray *array,
                 gint64  value)
{
  guint lo = 0, hi = array->len;

  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;

      if (g_array_index (array, gint64, mid) < value)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

gboolean
tes_trace_matches_has_slice (const TesTraceMatches *matches,
                             gint64                 track_id,
                             guint32                index)
{
  LaneMatches *lane;
  guint at;

  if (matches == NULL || !(lane = g_hash_table_lookup (matches->lanes, &track_id)))
    return FALSE;

  at = lower_bound_u32 (lane->indexes, index);

  return at < lane->indexes->len && g_array_index (lane->indexes, guint32, at) == index;
}

/* Whether a match of the lane starts in [start, end): what a pixel
 * column drawn from the lane summaries needs to know. */
gboolean
tes_trace_matches_any_between (const TesTraceMatches *matches,
                               gint64                 track_id,
                               gint64                 start,
                               gint64                 end)
{
  LaneMatches *lane;
  guint at;

  if (matches == NULL || !(lane = g_hash_table_lookup (matches->lanes, &track_id)))
    return FALSE;

  at = lower_bound_i64 (lane->starts, start);

  return at < lane->starts->len && g_array_index (lane->starts, gint64, at) < end;
}

/* The first match starting at or after @ns (n when there is none). */
guint
tes_trace_matches_first_after (const TesTraceMatches *matches,
                               gint64                 ns)
{
  guint lo = 0, hi;

  if (matches == NULL)
    return 0;

  hi = matches->all->len;
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;

      if (g_array_index (matches->all, TesTraceMatch, mid).start < ns)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}

/* Where Enter (+1), Shift+Enter (-1) and the double arrows (±10) go from
 * @current (-1: none yet), wrapping around the ends. */
guint
tes_trace_matches_step (const TesTraceMatches *matches,
                        int                    current,
                        int                    delta)
{
  int n = (int)tes_trace_matches_get_n (matches);
  int next;

  g_return_val_if_fail (n > 0, 0);

  if (current < 0)
    next = delta > 0 ? delta - 1 : n + delta;
  else
    next = current + delta;

  next %= n;
  if (next < 0)
    next += n;

  return (guint)next;
}

/* "/regex/" is a regular expression, anything else plain text. */
gboolean
tes_trace_parse_search (const char  *text,
                        char       **pattern,
                        gboolean    *is_regex)
{
  gsize len = strlen (text);

  *is_regex = len >= 2 && text[0] == '/' && text[len - 1] == '/';
  *pattern = *is_regex ? g_strndup (text + 1, len - 2) : g_strdup (text);

  return **pattern != '\0';
}
