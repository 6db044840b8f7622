/* tes-chrome-parser.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-chrome"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tes-chrome-parser-private.h"
#include "tes-chrome-scan-private.h"
#include "tes-json.h"

#include <string.h>

/* Streaming parse of Chrome Trace Event JSON with yajl's callbacks: no
 * document tree is ever built; each event is assembled from the callbacks
 * into a TesChromeEvent and handed to its segment
 * (tes_chrome_segment_add_event) the moment its '}' arrives. The args
 * object is kept as compact JSON text; "otherData" and "metadata" go to
 * the segment's info, and so do the scalar members of each object of the
 * PyTorch profiler's "deviceProperties" array, as
 * "deviceProperties.<index>.<key>". */

/* tes_chrome_parser_set_scan() */
static gboolean default_scan = TRUE;
static gboolean default_decode = TRUE;

static int
fail (TesChromeParser *p,
      GQuark           domain,
      int              code,
      const char      *message)
{
  if (p->error == NULL)
    g_set_error_literal (&p->error, domain, code, message);
  return 0;
}

static void
push (TesChromeParser *p,
      FrameKind        kind)
{
  g_assert (p->n_frames < G_N_ELEMENTS (p->frames));
  p->frames[p->n_frames].kind = kind;
  p->frames[p->n_frames].nest = 1;
  p->n_frames++;
}

static void
capture_comma (TesChromeParser *p)
{
  if (p->need_comma)
    tes_json_append_char (p->ev.args, ',');
}

static void
bad_type (TesChromeParser *p)
{
  tes_chrome_segment_warn (p->seg, TES_CHROME_W_BAD_TYPE, p->ev.offset);
}

/* The common case of a time in µs as a number, "1700000001187.779":
 * at most 15 digits before the point and 3 after, in ns without
 * tes_decimal_parse()'s general path (a quarter of the replay's time);
 * anything else (a sign, an exponent, finer than 1 ns) goes that way. */
static inline gboolean
plain_us (const char *s,
          gsize       len,
          gint64     *ns)
{
  return scan_plain_us ((const guint8 *)s, len, 0, ns) == len;
}

static void
time_field (TesChromeParser *p,
            guint32          flag,
            gint64          *field,
            ValueType        type,
            const char      *s,
            gsize            len)
{
  gint64 v;

  if (type == V_NULL)
    return;
  if (type != V_NUMBER && type != V_STRING)
    {
      bad_type (p);
      return;
    }

  if (type == V_NUMBER && plain_us (s, len, &v))
    {
      *field = v;
      p->ev.flags |= flag;
      return;
    }

  switch (tes_decimal_parse (s, len, 3, &v))
    {
    case TES_DECIMAL_ROUNDED:
      p->ev.flags |= TES_CHROME_EV_ROUNDED;
      G_GNUC_FALLTHROUGH;
    case TES_DECIMAL_OK:
      *field = v;
      p->ev.flags |= flag;
      break;
    case TES_DECIMAL_RANGE:
      p->ev.flags |= TES_CHROME_EV_RANGE;
      break;
    case TES_DECIMAL_INVALID:
    default:
      bad_type (p);
      break;
    }
}

static void
id_field (TesChromeParser *p,
          guint32          has_flag,
          GString         *into,
          ValueType        type,
          const char      *s,
          gsize            len)
{
  if (type != V_NUMBER && type != V_STRING)
    {
      if (type != V_NULL)
        bad_type (p);
      return;
    }

  g_string_truncate (into, 0);
  g_string_append_len (into, s, len);
  p->ev.flags |= has_flag;
}

static void
process_id_field (TesChromeParser *p,
                  gint64          *field,
                  guint32          has_flag,
                  guint32          str_flag,
                  ValueType        type,
                  const char      *s,
                  gsize            len)
{
  gint64 v;

  /* the common case: a non-negative integer, read without the general
   * decimal parser */
  if (type == V_NUMBER && scan_plain_integer ((const guint8 *)s, len, 0, &v) == len)
    {
      *field = v;
      p->ev.flags = (p->ev.flags | has_flag) & ~str_flag;
      return;
    }

  if (type == V_NUMBER && tes_decimal_parse (s, len, 0, &v) == TES_DECIMAL_OK)
    {
      *field = v;
      p->ev.flags = (p->ev.flags | has_flag) & ~str_flag;
    }
  else if (type == V_NUMBER || type == V_STRING)
    {
      *field = tes_chrome_strings_intern (&p->seg->strings, s, len);
      p->ev.flags |= has_flag | str_flag;
    }
  else if (type != V_NULL)
    bad_type (p);
}

static void
event_field (TesChromeParser *p,
             ValueType        type,
             const char      *s,
             gsize            len)
{
  TesChromeEvent *ev = &p->ev;

  switch (p->key)
    {
    case K_PH:
      if (type == V_STRING)
        ev->ph = len == 1 ? s[0] : '?';
      else
        bad_type (p);
      break;
    case K_NAME:
    case K_CAT:
      if (type == V_STRING || type == V_NUMBER)
        {
          guint32 id = tes_chrome_strings_intern (&p->seg->strings, s, len);

          if (p->key == K_NAME)
            ev->name = id;
          else
            ev->cat = id;
        }
      else if (type != V_NULL)
        bad_type (p);
      break;
    case K_PID:
      process_id_field (p, &ev->pid, TES_CHROME_EV_HAS_PID, TES_CHROME_EV_PID_STR, type, s, len);
      break;
    case K_TID:
      process_id_field (p, &ev->tid, TES_CHROME_EV_HAS_TID, TES_CHROME_EV_TID_STR, type, s, len);
      break;
    case K_TS:
      time_field (p, TES_CHROME_EV_HAS_TS, &ev->ts, type, s, len);
      break;
    case K_DUR:
      time_field (p, TES_CHROME_EV_HAS_DUR, &ev->dur, type, s, len);
      break;
    case K_TTS:
      time_field (p, TES_CHROME_EV_HAS_TTS, &ev->tts, type, s, len);
      break;
    case K_TDUR:
      time_field (p, TES_CHROME_EV_HAS_TDUR, &ev->tdur, type, s, len);
      break;
    case K_ID:
      id_field (p, TES_CHROME_EV_HAS_ID, p->ev.id, type, s, len);
      break;
    case K_BIND_ID:
      id_field (p, TES_CHROME_EV_HAS_BIND, p->ev.bind, type, s, len);
      break;
    case K_SCOPE:
      id_field (p, TES_CHROME_EV_HAS_SCOPE, p->ev.scope, type, s, len);
      break;
    case K_S:
      if (type == V_STRING && len >= 1)
        ev->s = s[0];
      else if (type != V_NULL)
        bad_type (p);
      break;
    case K_BP:
      /* the binding point changes which slice a flow arrow attaches to,
       * not its time; nothing to keep */
      break;
    case K_FLOW_IN:
      if (type == V_TRUE)
        ev->flags |= TES_CHROME_EV_FLOW_IN;
      break;
    case K_FLOW_OUT:
      if (type == V_TRUE)
        ev->flags |= TES_CHROME_EV_FLOW_OUT;
      break;
    case K_ARGS:
    case K_ID2:
      if (type != V_NULL)
        bad_type (p);
      break;
    case K_NONE:
    case K_TRACE_EVENTS:
    case K_DISPLAY_TIME_UNIT:
    case K_OTHER_DATA:
    case K_METADATA:
    case K_LOCAL:
    case K_GLOBAL:
    case K_OTHER:
    default:
      break;
    }
}

int
tes_chrome_parser_on_scalar (TesChromeParser *p,
                             ValueType        type,
                             const char      *s,
                             gsize            len)
{
  Frame *f;

  p->last_token = offset_now (p);
  if (p->n_frames == 0)
    return fail (p, TES_IMPORT_ERROR, TES_IMPORT_ERROR_INVALID,
                 _("not a Chrome trace: the document is a single value, not an array or object"));

  f = top (p);

  if (G_LIKELY (f->kind == F_EVENT))
    {
      event_field (p, type, s, len);
      return 1;
    }

  switch (f->kind)
    {
    case F_CAPTURE:
      capture_comma (p);
      switch (type)
        {
        case V_NULL: tes_json_append_raw (p->ev.args, "null", 4); break;
        case V_FALSE: tes_json_append_raw (p->ev.args, "false", 5); break;
        case V_TRUE: tes_json_append_raw (p->ev.args, "true", 4); break;
        case V_NUMBER: tes_json_append_raw (p->ev.args, s, len); break;
        case V_STRING: tes_json_append_string (p->ev.args, s, (gssize)len); break;
        default: break;
        }
      p->need_comma = TRUE;
      break;

    case F_SKIP:
      break;

    case F_EVENTS:
      tes_chrome_segment_warn (p->seg, TES_CHROME_W_NOT_OBJECT, offset_now (p));
      break;

    case F_TOP_OBJECT:
      if (p->key == K_DISPLAY_TIME_UNIT && type == V_STRING)
        p->seg->display_time_unit = tes_chrome_strings_intern (&p->seg->strings, s, len);
      break;

    case F_ID2:
      if (p->key == K_LOCAL || p->key == K_GLOBAL)
        {
          id_field (p, TES_CHROME_EV_HAS_ID, p->ev.id, type, s, len);
          p->ev.flags &= ~(TES_CHROME_EV_ID_LOCAL | TES_CHROME_EV_ID_GLOBAL);
          p->ev.flags |= p->key == K_LOCAL ? TES_CHROME_EV_ID_LOCAL : TES_CHROME_EV_ID_GLOBAL;
        }
      break;

    case F_OTHER:
      if (type != V_NULL && p->seg->info->len < 512)
        {
          g_ptr_array_add (p->seg->info, g_strdup_printf ("%s.%s", p->other_prefix->str, p->other_key->str));
          if (type == V_STRING || type == V_NUMBER)
            g_ptr_array_add (p->seg->info, g_strndup (s, len));
          else
            g_ptr_array_add (p->seg->info, g_strdup (type == V_TRUE ? "true" : "false"));
        }
      break;

    case F_TOP:
    default:
      break;
    }

  return 1;
}

static int
cb_null (void *ctx)
{
  return tes_chrome_parser_on_scalar (ctx, V_NULL, NULL, 0);
}

static int
cb_boolean (void *ctx,
            int   value)
{
  return tes_chrome_parser_on_scalar (ctx, value ? V_TRUE : V_FALSE, NULL, 0);
}

static int
cb_number (void       *ctx,
           const char *s,
           size_t      len)
{
  return tes_chrome_parser_on_scalar (ctx, V_NUMBER, s, len);
}

static int
cb_string (void                *ctx,
           const unsigned char *s,
           size_t               len)
{
  return tes_chrome_parser_on_scalar (ctx, V_STRING, (const char *)s, len);
}

static void
begin_event (TesChromeParser *p)
{
  /* the decoded fields, not the text buffers after them */
  memset (&p->ev, 0, G_STRUCT_OFFSET (TesChromeEvent, args));
  p->ev.offset = offset_now (p) - 1;
  g_string_truncate (p->ev.args, 0);
}

int
tes_chrome_parser_on_start (TesChromeParser *p,
                            gboolean         is_map)
{
  Frame *f;

  p->last_token = offset_now (p);
  if (++p->depth > TES_CHROME_MAX_DEPTH)
    {
      g_autofree char *msg = g_strdup_printf (_("containers nested deeper than %d levels"),
                                              TES_CHROME_MAX_DEPTH);
      return fail (p, TES_IMPORT_ERROR, TES_IMPORT_ERROR_INVALID, msg);
    }

  if (p->n_frames == 0)
    {
      p->saw_top = TRUE;
      if (is_map)
        {
          p->object_form = TRUE;
          push (p, F_TOP_OBJECT);
        }
      else
        {
          p->saw_events = TRUE;
          push (p, F_EVENTS);
        }
      return 1;
    }

  f = top (p);

  switch (f->kind)
    {
    case F_CAPTURE:
      capture_comma (p);
      tes_json_append_char (p->ev.args, is_map ? '{' : '[');
      p->need_comma = FALSE;
      f->nest++;
      break;

    case F_SKIP:
      f->nest++;
      break;

    case F_TOP_OBJECT:
      if (p->key == K_TRACE_EVENTS && !is_map)
        {
          p->saw_events = TRUE;
          push (p, F_EVENTS);
        }
      else if (is_map && (p->key == K_OTHER_DATA || p->key == K_METADATA))
        {
          g_string_assign (p->other_prefix, p->key == K_OTHER_DATA ? "otherData" : "metadata");
          push (p, F_OTHER);
        }
      else if (is_map && p->key == K_DISTRIBUTED_INFO)
        {
          g_string_assign (p->other_prefix, "distributedInfo");
          push (p, F_OTHER);
        }
      else if (!is_map && p->key == K_DEVICE_PROPERTIES)
        push (p, F_DEVICES);
      else
        push (p, F_SKIP);
      break;

    case F_DEVICES:
      if (is_map)
        {
          g_string_printf (p->other_prefix, "deviceProperties.%u", p->n_devices++);
          push (p, F_OTHER);
        }
      else
        push (p, F_SKIP);
      break;

    case F_EVENTS:
      if (is_map)
        {
          push (p, F_EVENT);
          begin_event (p);
        }
      else
        {
          tes_chrome_segment_warn (p->seg, TES_CHROME_W_NOT_OBJECT, offset_now (p) - 1);
          push (p, F_SKIP);
        }
      break;

    case F_EVENT:
      if (p->key == K_ARGS && is_map)
        {
          g_string_truncate (p->ev.args, 0);
          tes_json_append_char (p->ev.args, '{');
          p->need_comma = FALSE;
          push (p, F_CAPTURE);
        }
      else if (p->key == K_ID2 && is_map)
        push (p, F_ID2);
      else
        {
          if (p->key != K_OTHER)
            bad_type (p);
          push (p, F_SKIP);
        }
      break;

    case F_ID2:
    case F_OTHER:
    case F_TOP:
    default:
      push (p, F_SKIP);
      break;
    }

  return 1;
}

/* The event in p->ev ended just before end: to its segment. */
void
tes_chrome_parser_event_done (TesChromeParser *p,
                              guint64          end)
{
  p->last_token = end;
  p->last_event_end = end;
  p->key = K_NONE;
  if (p->ev.args_text == NULL)
    {
      p->ev.args_text = p->ev.args->str;
      p->ev.args_len = p->ev.args->len;
    }
  tes_chrome_segment_add_event (p->seg, &p->ev);
  p->ev.args_text = NULL;
  if (p->roll != NULL && p->last_event_end - p->roll_from >= p->roll_every)
    {
      p->roll_from = p->last_event_end;
      p->roll (p, p->roll_data);
    }
}

int
tes_chrome_parser_on_end (TesChromeParser *p,
                          gboolean         is_map)
{
  Frame *f = top (p);

  p->last_token = offset_now (p);
  p->depth--;

  switch (f->kind)
    {
    case F_CAPTURE:
      tes_json_append_char (p->ev.args, is_map ? '}' : ']');
      p->need_comma = TRUE;
      if (--f->nest == 0)
        {
          p->n_frames--;
          /* {} carries nothing */
          if (p->ev.args->len > 2)
            p->ev.flags |= TES_CHROME_EV_HAS_ARGS;
        }
      break;

    case F_SKIP:
      if (--f->nest == 0)
        p->n_frames--;
      break;

    case F_EVENT:
      p->n_frames--;
      tes_chrome_parser_event_done (p, offset_now (p));
      break;

    case F_TOP_OBJECT:
    case F_EVENTS:
    case F_ID2:
    case F_OTHER:
    case F_DEVICES:
    case F_TOP:
    default:
      p->n_frames--;
      break;
    }

  p->key = K_NONE;
  return 1;
}

static int
cb_start_map (void *ctx)
{
  return tes_chrome_parser_on_start (ctx, TRUE);
}

static int
cb_end_map (void *ctx)
{
  return tes_chrome_parser_on_end (ctx, TRUE);
}

static int
cb_start_array (void *ctx)
{
  return tes_chrome_parser_on_start (ctx, FALSE);
}

static int
cb_end_array (void *ctx)
{
  return tes_chrome_parser_on_end (ctx, FALSE);
}

int
tes_chrome_parser_on_key (TesChromeParser *p,
                          const char      *key,
                          gsize            len)
{
  Frame *f = top (p);

  p->last_token = offset_now (p);

  /* by far the most frequent case first */
  if (G_LIKELY (f->kind == F_EVENT))
    {
      p->key = tes_chrome_match_event_key (key, len);
      return 1;
    }

  switch (f->kind)
    {
    case F_CAPTURE:
      capture_comma (p);
      tes_json_append_string (p->ev.args, key, (gssize)len);
      tes_json_append_char (p->ev.args, ':');
      p->need_comma = FALSE;
      break;

    case F_SKIP:
      break;

    case F_TOP_OBJECT:
      if (len == 11 && memcmp (key, "traceEvents", 11) == 0)
        p->key = K_TRACE_EVENTS;
      else if (len == 15 && memcmp (key, "displayTimeUnit", 15) == 0)
        p->key = K_DISPLAY_TIME_UNIT;
      else if (len == 9 && memcmp (key, "otherData", 9) == 0)
        p->key = K_OTHER_DATA;
      else if (len == 8 && memcmp (key, "metadata", 8) == 0)
        p->key = K_METADATA;
      else if (len == 16 && memcmp (key, "deviceProperties", 16) == 0)
        p->key = K_DEVICE_PROPERTIES;
      else if (len == 15 && memcmp (key, "distributedInfo", 15) == 0)
        p->key = K_DISTRIBUTED_INFO;
      else
        p->key = K_OTHER;
      break;

    case F_ID2:
      if (len == 5 && memcmp (key, "local", 5) == 0)
        p->key = K_LOCAL;
      else if (len == 6 && memcmp (key, "global", 6) == 0)
        p->key = K_GLOBAL;
      else
        p->key = K_OTHER;
      break;

    case F_OTHER:
      g_string_truncate (p->other_key, 0);
      g_string_append_len (p->other_key, key, MIN (len, 64));
      break;

    case F_EVENTS:
    case F_TOP:
    default:
      break;
    }

  return 1;
}

static int
cb_map_key (void                *ctx,
            const unsigned char *k,
            size_t               len)
{
  return tes_chrome_parser_on_key (ctx, (const char *)k, len);
}

static const yajl_callbacks callbacks = {
  cb_null,
  cb_boolean,
  NULL,
  NULL,
  cb_number,
  cb_string,
  cb_start_map,
  cb_map_key,
  cb_end_map,
  cb_start_array,
  cb_end_array,
};

/* ---- the parser -------------------------------------------------------- */

TesChromeParser *
tes_chrome_parser_new (TesChromeSegment *seg)
{
  TesChromeParser *p = g_new0 (TesChromeParser, 1);

  p->seg = seg;
  p->yajl = yajl_alloc (&callbacks, NULL, p);
  p->ev.args = g_string_sized_new (256);
  p->ev.id = g_string_new (NULL);
  p->ev.bind = g_string_new (NULL);
  p->ev.scope = g_string_new (NULL);
  p->other_prefix = g_string_new (NULL);
  p->other_key = g_string_new (NULL);
  tes_chrome_scan_init (&p->scan);
  p->scan_enabled = default_scan;
  p->decode_enabled = default_scan && default_decode;

  return p;
}

void
tes_chrome_parser_set_roll (TesChromeParser   *p,
                            guint64            every,
                            TesChromeRollFunc  func,
                            gpointer           user_data)
{
  p->roll = func;
  p->roll_data = user_data;
  p->roll_every = MAX (every, 1);
}

/* Between two events only (from the roll function): the next events go to
 * segment; what the last one left open (a B, an async begin) stays in the
 * old one, for the builder to join as across a cut. */
void
tes_chrome_parser_set_segment (TesChromeParser  *p,
                               TesChromeSegment *seg)
{
  p->seg = seg;
}

void
tes_chrome_parser_free (TesChromeParser *p)
{
  if (p == NULL)
    return;

  g_clear_pointer (&p->yajl, yajl_free);
  g_string_free (p->ev.args, TRUE);
  g_string_free (p->ev.id, TRUE);
  g_string_free (p->ev.bind, TRUE);
  g_string_free (p->ev.scope, TRUE);
  g_string_free (p->other_prefix, TRUE);
  g_string_free (p->other_key, TRUE);
  tes_chrome_scan_clear (&p->scan);
  g_clear_error (&p->error);
  g_free (p);
}

/* For tests: whether parsers created from now on leave whole events to
 * the scanner (the default) or give yajl every byte. */
void
tes_chrome_parser_set_scan (gboolean enabled)
{
  default_scan = enabled;
}

/* For tests: whether parsers created from now on decode the common events
 * in one pass (the default) or leave every event to the scanner. */
void
tes_chrome_parser_set_decode (gboolean enabled)
{
  default_decode = enabled;
}

/* Whether the stream has just closed an event of the events array whose
 * '}' is at brace: where the piece after it was cut. */
gboolean
tes_chrome_parser_at_boundary (TesChromeParser *p,
                               guint64          brace)
{
  return p->n_frames > 0 && top (p)->kind == F_EVENTS && p->last_event_end == brace + 1;
}

/* The end of the file, at offset. */
gboolean
tes_chrome_parser_finish (TesChromeParser  *p,
                          guint64           offset,
                          guint64          *error_offset,
                          GError          **error)
{
  yajl_status st = yajl_complete_parse (p->yajl);

  *error_offset = offset;

  if (st == yajl_status_ok && p->n_frames == 0 && p->saw_top)
    return TRUE;

  if (p->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&p->error));
      return FALSE;
    }

  if (!p->saw_top)
    {
      *error_offset = G_MAXUINT64;
      g_set_error_literal (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_EMPTY, _("no JSON in the file"));
      return FALSE;
    }

  if (!p->saw_events)
    {
      g_set_error_literal (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_TRUNCATED,
                           _("the file ends before any trace event"));
      return FALSE;
    }

  /* The format allows a trace without its closing ]: keep every complete
   * event, drop one cut in half. */
  for (guint i = 0; i < p->n_frames; i++)
    if (p->frames[i].kind == F_EVENT)
      {
        tes_chrome_segment_warn (p->seg, TES_CHROME_W_PARTIAL_EVENT, p->ev.offset);
        break;
      }
  tes_chrome_segment_warn (p->seg, TES_CHROME_W_TRUNCATED, offset);

  return TRUE;
}

gboolean
tes_chrome_parser_object_form (TesChromeParser *p)
{
  return p->object_form;
}
