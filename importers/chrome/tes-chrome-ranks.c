/* tes-chrome-ranks.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The ranks of one distributed job: several PyTorch profiler traces
 * opened as one report. Each file's tracks go under a group "Rank N"
 * (rank from distributedInfo.rank, else a "rank-N"/"rank_N" in the file
 * name, else the lowest rank no other file holds, in file order), each
 * file gets a clock of its own whose offset_ns puts its first
 * ProfilerStep# start on that of the lowest rank, its steps become runs
 * "Rank N ProfilerStep#M", and report info "steps.<step>" sets each
 * rank's duration of the step side by side and names the slowest rank.
 * Which rank a file is can only be told once every file was read, so
 * the grouping is finished by a commit hook. Info values are data, kept
 * in English as the other importers' are; errors are translated. */

#define G_LOG_DOMAIN "tes-chrome"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>

#include "tes-chrome-builder-private.h"
#include "tes-import-error.h"
#include "tes-info.h"

#define RANKS_KEY "tes-chrome-ranks"

typedef enum
{
  FROM_INFO,
  FROM_NAME,
  FROM_ORDER,
} RankFrom;

typedef struct
{
  gint64     source_id;
  char      *path;
  gint64     clock_id;
  gint64     group_track;
  gint64     rank;        /* -1: not yet known */
  RankFrom   from;
  gint64     name_rank;   /* from the file name, -1: none */
  gint64     world_size;  /* -1: not given */
  GArray    *steps;       /* gint64 pairs: start, end */
  GPtrArray *step_names;
} RankSource;

static void
rank_source_free (gpointer data)
{
  RankSource *r = data;

  g_free (r->path);
  g_array_unref (r->steps);
  g_ptr_array_unref (r->step_names);
  g_free (r);
}

static gint64
parse_rank (const char *text)
{
  char *end = NULL;
  gint64 v;

  if (text == NULL || !g_ascii_isdigit (text[0]))
    return -1;
  v = g_ascii_strtoll (text, &end, 10);

  return *end == '\0' && v >= 0 && v < G_MAXINT32 ? v : -1;
}

/* "rank-3", "rank_3", "rank3" (HTA's sampled_rank-1, rank-34.Jul_15…) */
static gint64
rank_of_name (const char *path)
{
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *lower = g_ascii_strdown (base, -1);
  const char *at = lower;
  gint64 rank = -1;

  while ((at = strstr (at, "rank")) != NULL)
    {
      const char *p = at + 4;

      if (*p == '-' || *p == '_')
        p++;
      if (g_ascii_isdigit (*p))
        rank = g_ascii_strtoll (p, NULL, 10);
      at += 4;
    }

  return rank >= 0 && rank < G_MAXINT32 ? rank : -1;
}

/* distributedInfo.<key> wherever the parser met it (top-level keys after
 * traceEvents land in a later piece) */
static const char *
distributed_info (TesChromeBuilder *b,
                  const char       *key)
{
  for (guint k = 0; k < b->n_segs; k++)
    {
      const char *v = tes_info_list_lookup (b->segs[k]->info, key);

      if (v != NULL)
        return v;
    }

  return NULL;
}

/* Before the file's tracks are written: in a report of several files,
 * a clock of the file's own (so that it can be moved) and its group. */
void
tes_chrome_ranks_prepare (TesChromeBuilder *b)
{
  g_autofree char *base = NULL;

  if (b->context->n_sources < 2 || b->clock_source != NULL)
    return;

  base = g_path_get_basename (b->context->path);
  b->clock_name = g_strdup_printf ("ts %s", base);
  b->clock_id = tes_cache_writer_add_clock (b->writer, b->clock_name, TES_TIME_UNIT_NS, 1000000000);
  b->root_track = tes_cache_writer_add_track (b->writer, 0, b->context->source_id, b->clock_id,
                                              TES_TRACK_PROCESS, "Rank", 0, NULL);
}

static gint
compare_ranks (gconstpointer a,
               gconstpointer b)
{
  const RankSource *x = *(RankSource * const *)a, *y = *(RankSource * const *)b;

  return (x->rank > y->rank) - (x->rank < y->rank);
}

static gboolean
rank_taken (GPtrArray *ranks,
            gint64     rank)
{
  for (guint i = 0; i < ranks->len; i++)
    if (((RankSource *)g_ptr_array_index (ranks, i))->rank == rank)
      return TRUE;

  return FALSE;
}

static const char *
from_text (RankFrom from)
{
  return from == FROM_INFO ? "distributedInfo.rank" : from == FROM_NAME ? "file name" : "file order";
}

static gint64
first_step (const RankSource *r)
{
  gint64 first = G_MAXINT64;

  for (guint i = 0; i < r->steps->len; i++)
    first = MIN (first, g_array_index (r->steps, gint64, 2 * i));

  return first;
}

static gboolean
finish_ranks (TesCacheWriter  *writer,
              gpointer         data,
              GError         **error)
{
  GPtrArray *ranks = data;
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autofree guint *slowest_in = NULL;
  const RankSource *ref = NULL;
  gint64 world_size = -1;
  const char *world_path = NULL;

  /* ranks the files say, then the lowest free ones in file order */
  for (guint i = 0; i < ranks->len; i++)
    {
      RankSource *r = g_ptr_array_index (ranks, i);

      if (r->rank < 0 && r->name_rank >= 0)
        {
          r->rank = r->name_rank;
          r->from = FROM_NAME;
        }
      if (r->world_size >= 0)
        {
          if (world_size >= 0 && r->world_size != world_size)
            return tes_import_fail (error, TES_IMPORT_ERROR_INVALID, r->path,
                                    _("distributedInfo.world_size is %d but %s says %d: the traces are not of one job"),
                                    (int)r->world_size, world_path, (int)world_size);
          world_size = r->world_size;
          world_path = r->path;
        }
    }
  for (guint i = 0; i < ranks->len; i++)
    for (guint j = i + 1; j < ranks->len; j++)
      {
        RankSource *x = g_ptr_array_index (ranks, i), *y = g_ptr_array_index (ranks, j);

        if (x->rank >= 0 && x->rank == y->rank)
          return tes_import_fail (error, TES_IMPORT_ERROR_INVALID, y->path,
                                  _("rank %d (%s) is also %s's (%s): two traces of one rank"),
                                  (int)y->rank, from_text (y->from), x->path, from_text (x->from));
      }
  for (guint i = 0; i < ranks->len; i++)
    {
      RankSource *r = g_ptr_array_index (ranks, i);
      gint64 free_rank = 0;

      if (r->rank >= 0)
        continue;
      while (rank_taken (ranks, free_rank))
        free_rank++;
      r->rank = free_rank;
      r->from = FROM_ORDER;
    }
  for (guint i = 0; i < ranks->len; i++)
    {
      RankSource *r = g_ptr_array_index (ranks, i);

      if (world_size >= 0 && r->rank >= world_size)
        return tes_import_fail (error, TES_IMPORT_ERROR_INVALID, r->path,
                                _("rank %d (%s) is not below distributedInfo.world_size %d"),
                                (int)r->rank, from_text (r->from), (int)world_size);
    }

  g_ptr_array_sort (ranks, compare_ranks);

  /* one time base: every first step where the lowest rank's starts */
  for (guint i = 0; i < ranks->len && ref == NULL; i++)
    if (((RankSource *)g_ptr_array_index (ranks, i))->steps->len > 0)
      ref = g_ptr_array_index (ranks, i);

  {
    g_autofree char *n = g_strdup_printf ("%u", ranks->len);

    tes_cache_writer_set_info (writer, 0, "ranks", n);
  }
  for (guint i = 0; i < ranks->len; i++)
    {
      RankSource *r = g_ptr_array_index (ranks, i);
      g_autofree char *group = g_strdup_printf ("Rank %" G_GINT64_FORMAT, r->rank);
      g_autofree char *prefix = g_strdup_printf ("%s ", group);
      g_autofree char *key = NULL, *value = NULL;
      g_autofree char *base = g_path_get_basename (r->path);

      tes_cache_writer_rename_track (writer, r->group_track, group, r->rank);
      tes_cache_writer_prefix_runs (writer, r->clock_id, prefix);

      key = g_strdup_printf ("%s.file", group);
      tes_cache_writer_set_info (writer, 0, key, base);
      g_free (key);
      key = g_strdup_printf ("%s.rank_from", group);
      tes_cache_writer_set_info (writer, 0, key, from_text (r->from));
      g_free (key);
      key = g_strdup_printf ("%s.offset", group);
      if (ref != NULL && r->steps->len > 0)
        {
          gint64 offset = first_step (ref) - first_step (r);

          tes_cache_writer_set_clock_offset (writer, r->clock_id, offset);
          value = tes_chrome_format_ms (offset);
        }
      else
        value = g_strdup ("not aligned: no ProfilerStep#");
      tes_cache_writer_set_info (writer, 0, key, value);

      for (guint s = 0; s < r->step_names->len; s++)
        if (!g_ptr_array_find_with_equal_func (names, g_ptr_array_index (r->step_names, s), g_str_equal, NULL))
          g_ptr_array_add (names, g_ptr_array_index (r->step_names, s));
    }

  /* each step's duration on every rank, and the slowest */
  slowest_in = g_new0 (guint, ranks->len);
  for (guint s = 0; s < names->len; s++)
    {
      const char *name = g_ptr_array_index (names, s);
      g_autoptr(GString) text = g_string_new (NULL);
      g_autofree char *key = g_strdup_printf ("steps.%s", name);
      gint64 slowest = -1, longest = -1;
      guint slowest_index = 0;

      for (guint i = 0; i < ranks->len; i++)
        {
          RankSource *r = g_ptr_array_index (ranks, i);
          guint at;

          g_string_append_printf (text, "%srank %" G_GINT64_FORMAT " ", i > 0 ? ", " : "", r->rank);
          if (g_ptr_array_find_with_equal_func (r->step_names, name, g_str_equal, &at))
            {
              const gint64 *span = &g_array_index (r->steps, gint64, 2 * at);
              g_autofree char *ms = tes_chrome_format_ms (span[1] - span[0]);

              g_string_append (text, ms);
              if (span[1] - span[0] > longest)
                {
                  longest = span[1] - span[0];
                  slowest = r->rank;
                  slowest_index = i;
                }
            }
          else
            g_string_append (text, "none");
        }
      if (ranks->len > 1)
        g_string_append_printf (text, "; slowest rank %" G_GINT64_FORMAT, slowest);
      if (slowest >= 0)
        slowest_in[slowest_index]++;
      tes_cache_writer_set_info (writer, 0, key, text->str);
    }

  /* the rank the job waits for most often (the lowest on a tie) */
  if (ranks->len > 1 && names->len > 0)
    {
      guint most = 0;
      g_autofree char *text = NULL;

      for (guint i = 1; i < ranks->len; i++)
        if (slowest_in[i] > slowest_in[most])
          most = i;
      text = g_strdup_printf ("rank %" G_GINT64_FORMAT " (slowest in %u of %u steps)",
                              ((RankSource *)g_ptr_array_index (ranks, most))->rank, slowest_in[most], names->len);
      tes_cache_writer_set_info (writer, 0, "steps.slowest_rank", text);
    }

  return TRUE;
}

/* Once the file's rows are written: what the commit hook needs of it. */
void
tes_chrome_ranks_register (TesChromeBuilder *b,
                           GArray           *steps,
                           GPtrArray        *step_names)
{
  GPtrArray *ranks;
  RankSource *r;

  if (b->root_track == 0)
    return;

  if (!(ranks = g_object_get_data (G_OBJECT (b->writer), RANKS_KEY)))
    {
      ranks = g_ptr_array_new_with_free_func (rank_source_free);
      g_object_set_data_full (G_OBJECT (b->writer), RANKS_KEY, ranks, (GDestroyNotify)g_ptr_array_unref);
      tes_cache_writer_add_commit_hook (b->writer, finish_ranks, g_ptr_array_ref (ranks),
                                        (GDestroyNotify)g_ptr_array_unref);
    }

  r = g_new0 (RankSource, 1);
  r->source_id = b->context->source_id;
  r->path = g_strdup (b->context->path);
  r->clock_id = b->clock_id;
  r->group_track = b->root_track;
  r->rank = parse_rank (distributed_info (b, "distributedInfo.rank"));
  r->from = FROM_INFO;
  r->name_rank = rank_of_name (b->context->path);
  r->world_size = parse_rank (distributed_info (b, "distributedInfo.world_size"));
  r->steps = g_array_ref (steps);
  r->step_names = g_ptr_array_ref (step_names);
  g_ptr_array_add (ranks, r);
}
