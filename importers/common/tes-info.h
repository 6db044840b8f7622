/* tes-info.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-cache-writer.h"

G_BEGIN_DECLS

/* Report info rows: keys made from the labels vendors print, and a list of
 * rows kept in file order until the whole file has been read. */

char       *tes_slugify           (const char     *text);
char       *tes_info_key          (const char     *prefix,
                                   const char     *label);
void        tes_info_set_int      (TesCacheWriter *writer,
                                   gint64          source_id,
                                   const char     *key,
                                   gint64          value);

/* key, value, key, value, … */
GPtrArray  *tes_info_list_new     (void);
void        tes_info_list_add     (GPtrArray      *list,
                                   char           *key,
                                   const char     *value);
void        tes_info_list_add_int (GPtrArray      *list,
                                   char           *key,
                                   gint64          value);
const char *tes_info_list_lookup  (GPtrArray      *list,
                                   const char     *key);
void        tes_info_list_write   (GPtrArray      *list,
                                   TesCacheWriter *writer,
                                   gint64          source_id);

G_END_DECLS
