/* tes-poplar-profile-cbor.c: a CBOR profile as the JSON tree it stands for
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-poplar-profile"

#include "config.h"

#include <glib/gi18n-lib.h>

#include <inttypes.h>

#include <cbor.h>

#include "tes-import-error.h"
#include "tes-poplar-profile-private.h"

/* Poplar writes the same profile as CBOR when asked (TensorFlow's
 * use_poplar_cbor_report): maps, arrays, text, numbers. libcbor's
 * streaming decoder reads it one item at a time, so that every error can
 * name the byte it is at and no declared length is allocated before the
 * bytes behind it are seen; the tree is built here, as JSON nodes, so the
 * one profile reader serves both encodings. */

#define MAX_DEPTH 256

typedef struct
{
  JsonNode *node;        /* an array or an object */
  gint64    remaining;   /* items still to come (a map counts keys and values); -1: indefinite */
  gsize     start;       /* its byte */
  guint     depth;       /* 1: the document */
  char     *key;         /* an object's key, waiting for its value */
} Frame;

typedef struct
{
  const char *path;
  gsize       len;
  gsize       offset;    /* byte of the item being decoded */
  GArray     *stack;     /* Frame */
  JsonNode   *root;
  GString    *text;      /* an indefinite text string being gathered; NULL: none */
  gsize       text_start;
  GError     *error;
} Builder;

static void
fail (Builder    *b,
      int         code,
      const char *format,
      ...) G_GNUC_PRINTF (3, 4);

static void
fail (Builder    *b,
      int         code,
      const char *format,
      ...)
{
  g_autofree char *what = NULL;
  va_list args;

  if (b->error != NULL)
    return;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  tes_import_fail (&b->error, code, b->path, _("byte %" PRIu64 ": %s"), (guint64)b->offset, what);
}

static Frame *
top (Builder *b)
{
  return b->stack->len > 0 ? &g_array_index (b->stack, Frame, b->stack->len - 1) : NULL;
}

/* Closes every definite container whose last item has come. */
static void
pop_complete (Builder *b)
{
  Frame *f;

  while ((f = top (b)) != NULL && f->remaining == 0)
    {
      g_free (f->key);
      g_array_set_size (b->stack, b->stack->len - 1);
    }
}

/* @value goes into the container being read (taking ownership), or
 * becomes the document. */
static gboolean
add (Builder  *b,
     JsonNode *value)
{
  Frame *f = top (b);

  if (b->error != NULL)
    {
      json_node_unref (value);
      return FALSE;
    }

  if (f == NULL)
    {
      if (b->root != NULL)
        {
          json_node_unref (value);
          fail (b, TES_IMPORT_ERROR_INVALID, _("a second item after the end of the document"));
          return FALSE;
        }
      b->root = value;
      return TRUE;
    }

  if (JSON_NODE_HOLDS_OBJECT (f->node))
    {
      if (f->key == NULL)
        {
          if (!JSON_NODE_HOLDS_VALUE (value) || json_node_get_value_type (value) != G_TYPE_STRING)
            {
              json_node_unref (value);
              fail (b, TES_IMPORT_ERROR_INVALID,
                    _("a map key that is not a text string (in the map at byte %" PRIu64 ")"),
                    (guint64)f->start);
              return FALSE;
            }
          f->key = g_strdup (json_node_get_string (value));
          json_node_unref (value);
        }
      else
        {
          json_object_set_member (json_node_get_object (f->node), f->key, value);
          g_clear_pointer (&f->key, g_free);
        }
    }
  else
    json_array_add_element (json_node_get_array (f->node), value);

  if (f->remaining > 0)
    f->remaining--;
  pop_complete (b);

  return TRUE;
}

static void
add_int (Builder *b,
         gint64   v)
{
  JsonNode *node = json_node_new (JSON_NODE_VALUE);

  json_node_set_int (node, v);
  add (b, node);
}

static void
on_uint8 (void *ctx, uint8_t v) { add_int (ctx, v); }
static void
on_uint16 (void *ctx, uint16_t v) { add_int (ctx, v); }
static void
on_uint32 (void *ctx, uint32_t v) { add_int (ctx, v); }
static void
on_negint8 (void *ctx, uint8_t v) { add_int (ctx, -1 - (gint64)v); }
static void
on_negint16 (void *ctx, uint16_t v) { add_int (ctx, -1 - (gint64)v); }
static void
on_negint32 (void *ctx, uint32_t v) { add_int (ctx, -1 - (gint64)v); }

static void
on_uint64 (void     *ctx,
           uint64_t  v)
{
  if (v > G_MAXINT64)
    fail (ctx, TES_IMPORT_ERROR_INVALID, _("the integer %" PRIu64 " is too large"), (guint64)v);
  else
    add_int (ctx, (gint64)v);
}

static void
on_negint64 (void     *ctx,
             uint64_t  v)
{
  if (v > G_MAXINT64)
    fail (ctx, TES_IMPORT_ERROR_INVALID, _("the integer -1 - %" PRIu64 " is too small"), (guint64)v);
  else
    add_int (ctx, -1 - (gint64)v);
}

static void
add_double (Builder *b,
            double   v)
{
  JsonNode *node = json_node_new (JSON_NODE_VALUE);

  json_node_set_double (node, v);
  add (b, node);
}

static void
on_float (void *ctx, float v) { add_double (ctx, v); }
static void
on_double (void *ctx, double v) { add_double (ctx, v); }

static void
on_null (void *ctx)
{
  add (ctx, json_node_new (JSON_NODE_NULL));
}

static void
on_bool (void *ctx,
         bool  v)
{
  JsonNode *node = json_node_new (JSON_NODE_VALUE);

  json_node_set_boolean (node, v);
  add (ctx, node);
}

static void
on_tag (void     *ctx,
        uint64_t  tag)
{
  /* a tag only qualifies the item after it (55799 marks a CBOR file) */
}

static void
on_string (void           *ctx,
           cbor_data       data,
           size_t          len)
{
  Builder *b = ctx;
  JsonNode *node;

  if (b->text != NULL)
    {
      g_string_append_len (b->text, (const char *)data, len);
      return;
    }

  if (!g_utf8_validate_len ((const char *)data, len, NULL))
    {
      fail (b, TES_IMPORT_ERROR_INVALID, _("a text string that is not UTF-8"));
      return;
    }

  {
    g_autofree char *text = g_strndup ((const char *)data, len);

    node = json_node_new (JSON_NODE_VALUE);
    json_node_set_string (node, text);
    add (b, node);
  }
}

static void
on_string_start (void *ctx)
{
  Builder *b = ctx;

  if (b->text != NULL)
    {
      fail (b, TES_IMPORT_ERROR_INVALID, _("an indefinite text string inside another"));
      return;
    }
  b->text = g_string_new (NULL);
  b->text_start = b->offset;
}

static void
on_byte_string (void      *ctx,
                cbor_data  data,
                size_t     len)
{
  fail (ctx, TES_IMPORT_ERROR_INVALID, _("a byte string, which a Poplar profile does not hold"));
}

static void
on_byte_string_start (void *ctx)
{
  fail (ctx, TES_IMPORT_ERROR_INVALID, _("a byte string, which a Poplar profile does not hold"));
}

static void
open_container (Builder *b,
                gboolean map,
                gint64   items)
{
  JsonNode *node;
  Frame f = { 0 };
  Frame *parent = top (b);

  if (b->text != NULL)
    {
      fail (b, TES_IMPORT_ERROR_INVALID, _("an array or map inside an indefinite text string"));
      return;
    }
  /* every item takes a byte at least */
  if (items > 0 && (guint64)items > b->len - b->offset)
    {
      fail (b, TES_IMPORT_ERROR_TRUNCATED,
            _("%s of %" PRId64 " items, more than the %" PRIu64 " bytes left"),
            map ? _("a map") : _("an array"), map ? items / 2 : items, (guint64)(b->len - b->offset));
      return;
    }
  /* a container whose parent is complete leaves the stack before its own
   * items come, so the depth is counted, not the stack: the tree is freed
   * by recursion */
  f.depth = parent != NULL ? parent->depth + 1 : 1;
  if (f.depth > MAX_DEPTH)
    {
      fail (b, TES_IMPORT_ERROR_INVALID, _("arrays and maps nested more than %d deep"), MAX_DEPTH);
      return;
    }

  node = json_node_new (map ? JSON_NODE_OBJECT : JSON_NODE_ARRAY);
  if (map)
    json_node_take_object (node, json_object_new ());
  else
    json_node_take_array (node, json_array_new ());
  f.node = node;
  f.remaining = items;
  f.start = b->offset;

  /* the container is its parent's item now; its own items follow */
  if (!add (b, json_node_ref (node)))
    {
      json_node_unref (node);
      return;
    }
  if (items != 0)
    g_array_append_val (b->stack, f);
  json_node_unref (node);
}

static void
on_array_start (void   *ctx,
                size_t  size)
{
  open_container (ctx, FALSE, size > G_MAXINT64 ? G_MAXINT64 : (gint64)size);
}

static void
on_indef_array_start (void *ctx)
{
  open_container (ctx, FALSE, -1);
}

static void
on_map_start (void   *ctx,
              size_t  size)
{
  open_container (ctx, TRUE, size > G_MAXINT64 / 2 ? G_MAXINT64 : (gint64)size * 2);
}

static void
on_indef_map_start (void *ctx)
{
  open_container (ctx, TRUE, -1);
}

static void
on_indef_break (void *ctx)
{
  Builder *b = ctx;
  Frame *f = top (b);

  if (b->text != NULL)
    {
      g_autoptr(GString) text = g_steal_pointer (&b->text);
      JsonNode *node;

      if (!g_utf8_validate_len (text->str, text->len, NULL))
        {
          b->offset = b->text_start;
          fail (b, TES_IMPORT_ERROR_INVALID, _("a text string that is not UTF-8"));
          return;
        }
      node = json_node_new (JSON_NODE_VALUE);
      json_node_set_string (node, text->str);
      add (b, node);
      return;
    }

  if (f == NULL || f->remaining != -1)
    {
      fail (b, TES_IMPORT_ERROR_INVALID, _("a break outside an indefinite array, map or string"));
      return;
    }
  if (f->key != NULL)
    {
      fail (b, TES_IMPORT_ERROR_INVALID, _("the map at byte %" PRIu64 " ends after a key without its value"),
            (guint64)f->start);
      return;
    }

  f->remaining = 0;
  pop_complete (b);
  /* the parent counted this container when it opened */
}

static void
builder_clear (Builder *b)
{
  for (guint i = 0; i < b->stack->len; i++)
    g_free (g_array_index (b->stack, Frame, i).key);
  g_array_unref (b->stack);
  g_clear_pointer (&b->root, json_node_unref);
  if (b->text != NULL)
    g_string_free (b->text, TRUE);
  g_clear_error (&b->error);
}

JsonNode *
tes_poplar_cbor_to_json (const guint8  *data,
                         gsize          len,
                         const char    *path,
                         GError       **error)
{
  struct cbor_callbacks callbacks = cbor_empty_callbacks;
  Builder b = { 0 };
  JsonNode *root;

  callbacks.uint8 = on_uint8;
  callbacks.uint16 = on_uint16;
  callbacks.uint32 = on_uint32;
  callbacks.uint64 = on_uint64;
  callbacks.negint8 = on_negint8;
  callbacks.negint16 = on_negint16;
  callbacks.negint32 = on_negint32;
  callbacks.negint64 = on_negint64;
  callbacks.byte_string = on_byte_string;
  callbacks.byte_string_start = on_byte_string_start;
  callbacks.string = on_string;
  callbacks.string_start = on_string_start;
  callbacks.array_start = on_array_start;
  callbacks.indef_array_start = on_indef_array_start;
  callbacks.map_start = on_map_start;
  callbacks.indef_map_start = on_indef_map_start;
  callbacks.tag = on_tag;
  callbacks.float2 = on_float;
  callbacks.float4 = on_float;
  callbacks.float8 = on_double;
  callbacks.undefined = on_null;
  callbacks.null = on_null;
  callbacks.boolean = on_bool;
  callbacks.indef_break = on_indef_break;

  b.path = path;
  b.len = len;
  b.stack = g_array_new (FALSE, TRUE, sizeof (Frame));

  while (b.offset < len && b.error == NULL)
    {
      struct cbor_decoder_result r;

      if (b.root != NULL && b.stack->len == 0 && b.text == NULL)
        {
          fail (&b, TES_IMPORT_ERROR_INVALID, _("data after the end of the document"));
          break;
        }

      r = cbor_stream_decode (data + b.offset, len - b.offset, &callbacks, &b);
      if (r.status == CBOR_DECODER_NEDATA)
        fail (&b, TES_IMPORT_ERROR_TRUNCATED, _("the file ends in the middle of an item (it needs %" PRIu64
                                                " bytes, %" PRIu64 " are left)"),
              (guint64)r.required, (guint64)(len - b.offset));
      else if (r.status != CBOR_DECODER_FINISHED || r.read == 0)
        fail (&b, TES_IMPORT_ERROR_INVALID, _("not CBOR: a malformed or reserved initial byte 0x%02x"),
              data[b.offset]);
      else
        b.offset += r.read;
    }

  if (b.error == NULL && (b.stack->len > 0 || b.text != NULL))
    {
      gsize start = b.text != NULL ? b.text_start : top (&b)->start;

      b.offset = len;
      fail (&b, TES_IMPORT_ERROR_TRUNCATED,
            _("the file ends before the %s that starts at byte %" PRIu64 " is complete"),
            b.text != NULL ? _("text string") : JSON_NODE_HOLDS_OBJECT (top (&b)->node) ? _("map") : _("array"),
            (guint64)start);
    }
  if (b.error == NULL && b.root == NULL)
    tes_import_fail (&b.error, TES_IMPORT_ERROR_EMPTY, path, _("the file holds no CBOR item"));

  if (b.error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&b.error));
      builder_clear (&b);
      return NULL;
    }

  root = g_steal_pointer (&b.root);
  builder_clear (&b);

  return root;
}
