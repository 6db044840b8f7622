/* test-json.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "tes-json.h"
#include "tes-test-util.h"

/* tes_json_append_string skips plain bytes eight at a time: every byte
 * that needs escaping ('"', '\\', each control character) at every offset
 * of strings around the word size, read back by json-glib, gives the text
 * written, and the plain bytes (UTF-8 included) are kept as they are. */
static void
test_escape_every_offset (void)
{
  static const char special[] = "\"\\\n\t\r\x01\x1f";

  for (guint len = 0; len < 40; len++)
    for (guint at = 0; at <= len; at++)
      for (guint k = 0; k < sizeof special; k++)   /* the last: no special byte */
        {
          g_autoptr(GString) text = g_string_new (NULL);
          g_autoptr(GString) json = g_string_new (NULL);
          g_autoptr(JsonParser) parser = json_parser_new ();
          g_autoptr(GError) error = NULL;
          const char *back;

          while (text->len < at)
            g_string_append_c (text, text->len % 2 ? 'a' : 'z');
          if (k < sizeof special - 1)
            g_string_append_c (text, special[k]);
          for (guint i = 0; text->len < len; i++)
            g_string_append (text, i % 5 == 4 ? "é" : i % 7 == 6 ? "€" : "x");

          tes_json_append_string (json, text->str, text->len);
          json_parser_load_from_data (parser, json->str, json->len, &error);
          g_assert_no_error (error);
          back = json_node_get_string (json_parser_get_root (parser));
          g_assert_cmpstr (back, ==, text->str);
          /* nothing but the special byte is escaped */
          if (k == sizeof special - 1)
            g_assert_cmpuint (json->len, ==, text->len + 2);
        }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tes_test_add (TES_TEST_OWN_DATA, "/tes/json/escape-every-offset", test_escape_every_offset);

  return g_test_run ();
}
