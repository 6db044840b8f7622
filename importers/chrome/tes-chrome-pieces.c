/* tes-chrome-pieces.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-chrome"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>

#include "tes-chrome-parser.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

/* Reading a Chrome trace file: plain files are read with pread(), gzip
 * ones through a decompressing thread, and each piece of the file is
 * streamed through its own TesChromeParser into its own segment.
 *
 * Large plain files are parsed by several threads at once: the file is cut
 * into pieces at byte offsets that look like a boundary between two events
 * ("}" "," "{" with optional white space), and the threads take the pieces
 * in file order from a shared counter. Each piece is parsed by its own yajl
 * handle, fed a synthetic prefix ("[" or {"traceEvents":[) that puts it in
 * the events array. The guess is then checked exactly: the piece before a
 * cut must arrive at the cut between two events of the events array, with
 * the '}' before the cut closing an event. If it does not, that piece
 * carries on to the end of the file and the later pieces are thrown away,
 * so a bad guess costs time, never correctness. */

#define CHUNK_SIZE TES_SOURCE_HASH_BLOCK
#define MAX_THREADS 4
#define MAX_PIECES 1024
#define PIECES_PER_THREAD 4
#define MIN_PIECE_SIZE (4 * 1024 * 1024)

typedef struct
{
  TesChromeSegment *seg;
  int               fd;
  GInputStream     *stream;       /* gzip; only for segment 0 */
  GInputStream     *raw;          /* the compressed stream under it */
  guint64           start;
  guint64           stop_at;      /* G_MAXUINT64: the end of the file */
  guint64           brace;        /* offset of the '}' just before stop_at */
  const char       *prefix;
  GCancellable     *cancellable;
  gint             *abandon;      /* segments after this index stop */
  gsize            *consumed;
  TesProgress      *progress;
  guint64           total;
  TesChromeSpill   *spill;        /* NULL: the slices stay in memory */
  TesSourceHash    *hash;         /* the blocks read whole go there; NULL: none */
  TesChromeRecycle *recycle;      /* the parsing thread's; NULL: none */
  /* a gzip stream's job: where the segments it ends go, and the spill
   * file it makes for them (beside spill_near; NULL: none) */
  GPtrArray        *rolled;
  GPtrArray        *spills;
  const char       *spill_near;

  gboolean          object_form;
  gboolean          verified_end;
  GError           *error;
  guint64           error_offset; /* G_MAXUINT64: no offset */
} Job;

static gssize
read_chunk (Job      *job,
            guint8   *buf,
            gsize     want,
            guint64   pos,
            GError  **error)
{
  for (;;)
    {
      gssize n = pread (job->fd, buf, want, (off_t)pos);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int errsv = errno;
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                       _("read error at byte %" PRIu64 ": %s"), pos, g_strerror (errsv));
        }
      return n;
    }
}

/* gzip: a second thread decompresses the next blocks while this one
 * parses, through a ring of N_BLOCKS buffers. */
#define N_BLOCKS 4

typedef struct
{
  guint8  *data;
  gssize   len;        /* 0: end of the stream, -1: error */
  guint64  raw_pos;    /* compressed bytes read when it was filled */
  GError  *error;
} Block;

typedef struct
{
  GInputStream *stream;
  GInputStream *raw;
  GCancellable *cancellable;
  GAsyncQueue  *full;
  GAsyncQueue  *empty;
  gint          stop;
  GThread      *thread;
  Block         blocks[N_BLOCKS];
} Inflater;

static gpointer
inflate_blocks (gpointer data)
{
  Inflater *inf = data;
  GError *pending = NULL;
  gboolean at_end = FALSE;

  for (;;)
    {
      Block *block = g_async_queue_pop (inf->empty);
      gsize got = 0;

      if (g_atomic_int_get (&inf->stop))
        break;

      if (pending != NULL)
        {
          block->len = -1;
          block->error = g_steal_pointer (&pending);
          g_async_queue_push (inf->full, block);
          break;
        }

      while (!at_end && got < CHUNK_SIZE)
        {
          GError *error = NULL;
          gssize n = g_input_stream_read (inf->stream, block->data + got, CHUNK_SIZE - got,
                                          inf->cancellable, &error);

          /* a gzip stream cut short reads like a truncated file */
          if (n < 0 && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT))
            {
              g_clear_error (&error);
              n = 0;
            }
          if (n < 0)
            {
              pending = error;
              break;
            }
          if (n == 0)
            at_end = TRUE;
          got += n;
        }

      if (got == 0 && pending != NULL)
        {
          block->len = -1;
          block->error = g_steal_pointer (&pending);
          g_async_queue_push (inf->full, block);
          break;
        }

      block->len = got;
      block->raw_pos = g_seekable_tell (G_SEEKABLE (inf->raw));
      g_async_queue_push (inf->full, block);

      if (got == 0)
        break;
    }

  g_clear_error (&pending);
  return NULL;
}

static Inflater *
inflater_new (GInputStream *stream,
              GInputStream *raw,
              GCancellable *cancellable)
{
  Inflater *inf = g_new0 (Inflater, 1);

  inf->stream = stream;
  inf->raw = raw;
  inf->cancellable = cancellable;
  inf->full = g_async_queue_new ();
  inf->empty = g_async_queue_new ();
  for (guint i = 0; i < N_BLOCKS; i++)
    {
      inf->blocks[i].data = g_malloc (CHUNK_SIZE);
      g_async_queue_push (inf->empty, &inf->blocks[i]);
    }
  inf->thread = g_thread_new ("tes-chrome-inflate", inflate_blocks, inf);

  return inf;
}

static void
inflater_free (Inflater *inf)
{
  /* wake the thread if it waits for a buffer; it stops at once */
  g_atomic_int_set (&inf->stop, 1);
  for (guint i = 0; i < N_BLOCKS; i++)
    g_async_queue_push (inf->empty, &inf->blocks[N_BLOCKS - 1]);
  g_thread_join (inf->thread);

  for (guint i = 0; i < N_BLOCKS; i++)
    {
      g_free (inf->blocks[i].data);
      g_clear_error (&inf->blocks[i].error);
    }
  g_async_queue_unref (inf->full);
  g_async_queue_unref (inf->empty);
  g_free (inf);
}

/* A gzip stream cannot be cut beforehand: its one job ends its segment
 * between two events every TES_CHROME_MAX_PIECE_SIZE bytes it inflates,
 * and spills it as a cut piece's is spilled. */
static void
roll_segment (TesChromeParser *p,
              gpointer         user_data)
{
  Job *job = user_data;
  TesChromeSegment *next = tes_chrome_segment_new (job->rolled->len);

  next->recycle = job->seg->recycle;

  tes_chrome_segment_sort (job->seg);
  if (job->spill == NULL && job->spill_near != NULL)
    {
      if ((job->spill = tes_chrome_spill_new (job->spill_near)))
        g_ptr_array_add (job->spills, job->spill);
      job->spill_near = NULL;
    }
  if (job->spill != NULL)
    tes_chrome_spill_segment (job->spill, job->seg);

  job->seg->recycle = NULL;
  g_ptr_array_add (job->rolled, next);
  job->seg = next;
  tes_chrome_parser_set_segment (p, next);
}

static gpointer
run_job (gpointer user_data)
{
  Job *job = user_data;
  g_autoptr(TesChromeParser) p = tes_chrome_parser_new (job->seg);
  g_autofree guint8 *buf = NULL;
  guint64 pos = job->start;
  gint64 t0 = g_get_monotonic_time ();
  Inflater *inflater = NULL;
  Block *block = NULL;

  if (job->stream != NULL)
    {
      inflater = inflater_new (job->stream, job->raw, job->cancellable);
      tes_chrome_parser_set_roll (p, tes_chrome_max_piece_size (), roll_segment, job);
    }
  else
    buf = g_malloc (CHUNK_SIZE);

  job->error_offset = G_MAXUINT64;
  job->seg->recycle = job->recycle;

  if (job->prefix != NULL)
    {
      gsize plen = strlen (job->prefix);

      if (!tes_chrome_parser_feed (p, (const guint8 *)job->prefix, plen, job->start - plen, NULL, NULL))
        g_assert_not_reached ();
    }

  for (;;)
    {
      gsize want = CHUNK_SIZE;
      const guint8 *data;
      gssize n;

      if (g_cancellable_set_error_if_cancelled (job->cancellable, &job->error))
        break;
      if ((gint)job->seg->index > g_atomic_int_get (job->abandon))
        break;

      if (job->stop_at != G_MAXUINT64)
        {
          if (pos >= job->stop_at)
            {
              if (tes_chrome_parser_at_boundary (p, job->brace))
                {
                  job->verified_end = TRUE;
                  break;
                }

              /* The cut was not between two events: parse on alone. */
              job->stop_at = G_MAXUINT64;
              for (gint cur = g_atomic_int_get (job->abandon);
                   cur > (gint)job->seg->index &&
                   !g_atomic_int_compare_and_exchange (job->abandon, cur, (gint)job->seg->index);
                   cur = g_atomic_int_get (job->abandon))
                ;
              continue;
            }
          want = MIN (want, job->stop_at - pos);
        }

      if (inflater != NULL)
        {
          block = g_async_queue_pop (inflater->full);
          n = block->len;
          data = block->data;
          if (n < 0)
            g_propagate_prefixed_error (&job->error, g_steal_pointer (&block->error),
                                        "cannot decompress after byte %" G_GUINT64_FORMAT ": ", pos);
        }
      else
        {
          /* reads start where the fingerprint's blocks do, so that each
           * block read whole is hashed here and the file is not read a
           * second time for its fingerprint */
          want = MIN (want, CHUNK_SIZE - pos % CHUNK_SIZE);
          n = read_chunk (job, buf, want, pos, &job->error);
          data = buf;
          if (n > 0 && job->hash != NULL)
            tes_source_hash_add_block (job->hash, pos, buf, (gsize)n);
        }

      if (n < 0)
        break;
      if (n == 0)
        {
          tes_chrome_parser_finish (p, pos, &job->error_offset, &job->error);
          break;
        }

      if (!tes_chrome_parser_feed (p, data, n, pos, &job->error_offset, &job->error))
        break;

      pos += n;
      g_atomic_pointer_add (job->consumed, n);

      if (job->progress != NULL && job->total > 0)
        {
          double done = block ? (double)block->raw_pos : (double)g_atomic_pointer_get (job->consumed);

          tes_progress_update (job->progress, 0.85 * done / (double)job->total, NULL);
        }

      if (block != NULL)
        {
          g_async_queue_push (inflater->empty, block);
          block = NULL;
        }
    }

  g_clear_pointer (&inflater, inflater_free);

  job->object_form = tes_chrome_parser_object_form (p);

  if (job->error == NULL && (gint)job->seg->index <= g_atomic_int_get (job->abandon))
    {
      tes_chrome_segment_sort (job->seg);
      if (job->spill != NULL)
        tes_chrome_spill_segment (job->spill, job->seg);
    }
  /* the bin goes with the parsing thread */
  job->seg->recycle = NULL;

  g_debug ("segment %u: bytes %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT " in %.3f s",
           job->seg->index, job->start, pos, (g_get_monotonic_time () - t0) / 1e6);

  return NULL;
}

typedef struct
{
  Job  *jobs;
  guint n_jobs;
  gint  next;
} Pool;

/* Threads take the pieces in file order, one at a time. */
static void
pool_run (Pool        *pool,
          TesProgress *progress)
{
  TesChromeRecycle *bin = tes_chrome_recycle_new ();

  for (;;)
    {
      gint k = g_atomic_int_add (&pool->next, 1);

      if (k >= (gint)pool->n_jobs)
        break;
      pool->jobs[k].progress = progress;
      pool->jobs[k].recycle = bin;
      run_job (&pool->jobs[k]);
    }
  tes_chrome_recycle_free (bin);
}

/* Errors are left to the loader, whose own fill reads what is missing. */
static gpointer
hash_source (gpointer data)
{
  TesImportContext *context = data;

  tes_source_hash_fill (context->source_hash, context->path, context->cancellable, NULL);

  return NULL;
}

static gpointer
run_pieces (gpointer data)
{
  pool_run (data, NULL);
  return NULL;
}

static gboolean
is_ws (guint8 c)
{
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* Looks for "}" ws "," ws "{" ws '"' at or after from; returns the offset
 * of the '{' and sets *brace to the offset of the '}'. A boundary is
 * rarely more than a few KB away: 64 KB are read first, then up to a MB
 * (each read a fresh buffer's worth of pages). */
#define CUT_WINDOW (64 * 1024)

static guint64
find_cut_in (int      fd,
             guint64  from,
             guint64  size,
             gsize    window,
             guint64 *brace)
{
  g_autofree guint8 *buf = g_malloc (window);
  gssize n = pread (fd, buf, window, (off_t)from);

  if (n <= 0)
    return 0;

  for (gssize i = 0; i < n; i++)
    {
      gssize j;

      if (buf[i] != '}')
        continue;

      j = i + 1;
      while (j < n && is_ws (buf[j]))
        j++;
      if (j >= n || buf[j] != ',')
        continue;
      j++;
      while (j < n && is_ws (buf[j]))
        j++;
      if (j >= n || buf[j] != '{')
        continue;
      {
        gssize k = j + 1;

        while (k < n && is_ws (buf[k]))
          k++;
        if (k >= n || buf[k] != '"')
          continue;
      }

      if (from + j >= size)
        return 0;
      *brace = from + i;
      return from + j;
    }

  return 0;
}

static guint64
find_cut (int      fd,
          guint64  from,
          guint64  size,
          guint64 *brace)
{
  guint64 cut = find_cut_in (fd, from, size, CUT_WINDOW, brace);

  if (cut == 0 && from + CUT_WINDOW < size)
    cut = find_cut_in (fd, from, size, CHUNK_SIZE, brace);

  return cut;
}

/* Pieces of size / n_wanted, but where fewer than two per thread of that
 * size are left, each takes a 2 × n_threads-th of what remains, down to
 * TAIL_PIECE_SIZE: the threads then finish within a small piece of each
 * other, where the last of equal pieces left a core idle for up to a
 * piece's parse (50-80 ms of a 1M-event Kineto import). */
#define TAIL_PIECE_SIZE (2 * 1024 * 1024)

static guint
plan_cuts (int      fd,
           guint64  size,
           guint    n_wanted,
           guint    n_threads,
           guint64 *cuts,
           guint64 *braces)
{
  guint64 piece = size / n_wanted;
  guint n = 1;

  while (n < MAX_PIECES)
    {
      guint64 left = size - cuts[n - 1];
      guint64 step = MAX (MIN (piece, left / (2 * n_threads)), TAIL_PIECE_SIZE);
      guint64 brace = 0;
      guint64 cut;

      /* the last piece: what is left, unless it is worth cutting again */
      if (left < step + step / 2)
        break;
      cut = find_cut (fd, cuts[n - 1] + step, size, &brace);
      if (cut == 0 || cut <= cuts[n - 1])
        break;
      cuts[n] = cut;
      braces[n] = brace;
      n++;
    }

  return n;
}

static char
first_char (const guint8 *head,
            gsize         len)
{
  gsize i = 0;

  if (len >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF)
    i = 3;
  while (i < len && is_ws (head[i]))
    i++;

  return i < len ? (char)head[i] : 0;
}

static void
prefix_error (GError     **error,
              const char  *path,
              guint64      offset)
{
  if (offset == G_MAXUINT64)
    g_prefix_error (error, "%s: ", path);
  else
    g_prefix_error (error, _("%s: byte %" PRIu64 " (line %" PRIu64 "): "),
                    path, offset, tes_chrome_line_of_offset (path, offset));
}

/* Reads the whole file (decompressing gzip), in pieces by several threads
 * when it is large, into the segments of a trace. */
TesChromeTrace *
tes_chrome_parse_file (TesImportContext  *context,
                       GError           **error)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GInputStream) raw = NULL;
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(TesChromeTrace) trace = tes_chrome_trace_new ();
  GPtrArray *segments = trace->segments;
  guint8 head[64];
  gssize head_len;
  gboolean gzip;
  GStatBuf st;
  int fd;
  g_autofree guint64 *cuts = g_new0 (guint64, MAX_PIECES);
  g_autofree guint64 *braces = g_new0 (guint64, MAX_PIECES);
  guint n_segments = 1;
  g_autofree Job *jobs = g_new0 (Job, MAX_PIECES);
  GThread *threads[MAX_THREADS] = { NULL };
  GThread *hash_thread = NULL;
  Pool pool = { 0 };
  guint n_threads = 1;
  gint abandon = G_MAXINT;
  gsize consumed = 0;
  const char *prefix = NULL;
  guint n_valid;
  gint64 t_start = g_get_monotonic_time ();

  fd = g_open (context->path, O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0 || fstat (fd, &st) != 0)
    {
      int errsv = errno;

      if (fd >= 0)
        close (fd);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   "%s: %s", context->path, g_strerror (errsv));
      return NULL;
    }

  head_len = pread (fd, head, sizeof head, 0);
  gzip = head_len >= 2 && head[0] == 0x1f && head[1] == 0x8b;

  if (gzip)
    {
      g_autoptr(GZlibDecompressor) dec = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);

      file = g_file_new_for_path (context->path);
      if (!(raw = G_INPUT_STREAM (g_file_read (file, context->cancellable, error))))
        {
          close (fd);
          g_prefix_error (error, "%s: ", context->path);
          return NULL;
        }
      stream = g_converter_input_stream_new (raw, G_CONVERTER (dec));
    }
  else if (st.st_size >= TES_CHROME_SPLIT_MIN_SIZE)
    {
      char c = first_char (head, MAX (head_len, 0));

      n_threads = CLAMP (g_get_num_processors (), 1, MAX_THREADS);
      if (c == '[' || c == '{')
        {
          /* a few pieces per thread, so that a thread that runs slower (a
           * busy core) takes fewer of them; on one core too, pieces that
           * are spilled one by one */
          guint64 size = (guint64)st.st_size;
          guint64 n_wanted = MIN (n_threads * PIECES_PER_THREAD, size / MIN_PIECE_SIZE);

          n_wanted = MAX (n_wanted, (size + tes_chrome_max_piece_size () - 1) / tes_chrome_max_piece_size ());
          n_wanted = CLAMP (n_wanted, 1, MAX_PIECES);
          n_segments = plan_cuts (fd, st.st_size, n_wanted, n_threads, cuts, braces);
          prefix = c == '[' ? "[" : "{\"traceEvents\":[";
        }
    }
  n_threads = MIN (n_threads, n_segments);

  /* The pieces' slices wait on disk until the builder writes them, in a
   * file per parsing thread: threads writing one file take turns (its
   * inode's lock), and the kernel's copy into the page cache is a tenth of
   * an import's CPU. Pieces go to the files in turn, as the threads take
   * them in turn. */
  if (n_segments > 1 && (guint64)st.st_size >= tes_chrome_spill_min_size () && context->writer != NULL)
    for (guint t = 0; t < n_threads; t++)
      {
        TesChromeSpill *spill = tes_chrome_spill_new (tes_cache_writer_get_temp_path (context->writer));

        if (spill == NULL)
          break;
        g_ptr_array_add (trace->spills, spill);
      }

  for (guint k = 0; k < n_segments; k++)
    {
      Job *job = &jobs[k];

      g_ptr_array_add (segments, tes_chrome_segment_new (k));
      job->seg = g_ptr_array_index (segments, k);
      job->fd = fd;
      job->stream = k == 0 ? stream : NULL;
      job->raw = k == 0 ? raw : NULL;
      job->start = cuts[k];
      job->stop_at = k + 1 < n_segments ? cuts[k + 1] : G_MAXUINT64;
      job->brace = k + 1 < n_segments ? braces[k + 1] : 0;
      job->prefix = k > 0 ? prefix : NULL;
      job->cancellable = context->cancellable;
      job->abandon = &abandon;
      job->consumed = &consumed;
      job->total = st.st_size;
      job->spill = trace->spills->len > 0 ? g_ptr_array_index (trace->spills, k % trace->spills->len) : NULL;
      job->hash = gzip ? NULL : context->source_hash;
      if (job->stream != NULL)
        {
          job->rolled = segments;
          job->spills = trace->spills;
          if (context->writer != NULL && tes_chrome_spill_min_size () <= tes_chrome_max_piece_size ())
            job->spill_near = tes_cache_writer_get_temp_path (context->writer);
        }
    }

  /* a gzip file's bytes are not what the parse reads: they are hashed
   * beside it, as the loader hashes other sources */
  if (gzip && context->source_hash != NULL)
    hash_thread = g_thread_new ("tes-fingerprint", hash_source, context);

  pool.jobs = jobs;
  pool.n_jobs = n_segments;
  for (guint t = 1; t < n_threads; t++)
    threads[t] = g_thread_new ("tes-chrome-parse", run_pieces, &pool);
  pool_run (&pool, context->progress);
  for (guint t = 1; t < n_threads; t++)
    g_thread_join (threads[t]);
  if (hash_thread != NULL)
    g_thread_join (hash_thread);
  tes_chrome_give_back_memory ();

  close (fd);

  /* The chain of verified cuts decides which segments count. */
  for (n_valid = 1; n_valid <= n_segments; n_valid++)
    {
      Job *job = &jobs[n_valid - 1];

      if (job->error != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&job->error));
          prefix_error (error, context->path, job->error_offset);
          for (guint k = 0; k < n_segments; k++)
            g_clear_error (&jobs[k].error);
          return NULL;
        }
      if (!job->verified_end)
        break;
    }
  n_valid = MIN (n_valid, n_segments);

  for (guint k = 0; k < n_segments; k++)
    g_clear_error (&jobs[k].error);

  trace->n_valid = n_valid;
  trace->n_planned = n_segments;
  /* the segments a gzip stream's job ended all hold the file */
  if (gzip)
    trace->n_valid = trace->n_planned = segments->len;
  trace->gzip = gzip;
  trace->object_form = jobs[0].object_form;
  g_debug ("%s: parsed in %.3f s by %u thread(s), %u of %u pieces used",
           context->path, (g_get_monotonic_time () - t_start) / 1e6, n_threads, n_valid, n_segments);

  return g_steal_pointer (&trace);
}
