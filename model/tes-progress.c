/* tes-progress.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-progress"

#include "config.h"

#include "tes-progress.h"

/* Workers call tes_progress_update() as often as they like; the values go
 * under a mutex and at most one idle callback per burst carries the change
 * to the thread that created the object, where "notify" is emitted. */
struct _TesProgress
{
  GObject       parent_instance;

  GMutex        mutex;
  GMainContext *context;
  double        fraction;
  double        range_start;   /* updates map 0..1 into this range */
  double        range_end;
  char         *message;
  guint         notify_pending : 1;
};

enum {
  PROP_0,
  PROP_FRACTION,
  PROP_MESSAGE,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (TesProgress, tes_progress, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static void
tes_progress_finalize (GObject *object)
{
  TesProgress *self = (TesProgress *)object;

  g_clear_pointer (&self->message, g_free);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_mutex_clear (&self->mutex);

  G_OBJECT_CLASS (tes_progress_parent_class)->finalize (object);
}

static void
tes_progress_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  TesProgress *self = TES_PROGRESS (object);

  switch (prop_id)
    {
    case PROP_FRACTION:
      g_value_set_double (value, tes_progress_get_fraction (self));
      break;

    case PROP_MESSAGE:
      g_value_take_string (value, tes_progress_dup_message (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tes_progress_class_init (TesProgressClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tes_progress_finalize;
  object_class->get_property = tes_progress_get_property;

  properties[PROP_FRACTION] =
    g_param_spec_double ("fraction", NULL, NULL,
                         0.0, 1.0, 0.0,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_MESSAGE] =
    g_param_spec_string ("message", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tes_progress_init (TesProgress *self)
{
  g_mutex_init (&self->mutex);
  self->range_end = 1.0;
  self->context = g_main_context_ref_thread_default ();
}

TesProgress *
tes_progress_new (void)
{
  return g_object_new (TES_TYPE_PROGRESS, NULL);
}

double
tes_progress_get_fraction (TesProgress *self)
{
  double fraction;

  g_return_val_if_fail (TES_IS_PROGRESS (self), 0.0);

  g_mutex_lock (&self->mutex);
  fraction = self->fraction;
  g_mutex_unlock (&self->mutex);

  return fraction;
}

char *
tes_progress_dup_message (TesProgress *self)
{
  char *message;

  g_return_val_if_fail (TES_IS_PROGRESS (self), NULL);

  g_mutex_lock (&self->mutex);
  message = g_strdup (self->message);
  g_mutex_unlock (&self->mutex);

  return message;
}

static gboolean
tes_progress_notify_cb (gpointer data)
{
  TesProgress *self = data;

  g_mutex_lock (&self->mutex);
  self->notify_pending = FALSE;
  g_mutex_unlock (&self->mutex);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRACTION]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MESSAGE]);

  return G_SOURCE_REMOVE;
}

void
tes_progress_update (TesProgress *self,
                     double       fraction,
                     const char  *message)
{
  gboolean schedule = FALSE;

  g_return_if_fail (TES_IS_PROGRESS (self));

  g_mutex_lock (&self->mutex);
  fraction = self->range_start + CLAMP (fraction, 0.0, 1.0) * (self->range_end - self->range_start);
  if (fraction != self->fraction || (message != NULL && g_strcmp0 (message, self->message) != 0))
    {
      self->fraction = fraction;
      if (message != NULL && g_strcmp0 (message, self->message) != 0)
        {
          g_free (self->message);
          self->message = g_strdup (message);
        }
      schedule = !self->notify_pending;
      self->notify_pending = TRUE;
    }
  g_mutex_unlock (&self->mutex);

  if (schedule)
    {
      GSource *source = g_idle_source_new ();

      g_source_set_callback (source, tes_progress_notify_cb, g_object_ref (self), g_object_unref);
      g_source_set_static_name (source, "[tes-progress]");
      g_source_attach (source, self->context);
      g_source_unref (source);
    }
}

/* Several steps share one bar (say, the files of a group): while a step
 * runs, its updates from 0 to 1 move the bar from start to end. */
void
tes_progress_set_range (TesProgress *self,
                        double       start,
                        double       end)
{
  g_return_if_fail (TES_IS_PROGRESS (self));
  g_return_if_fail (0.0 <= start && start <= end && end <= 1.0);

  g_mutex_lock (&self->mutex);
  self->range_start = start;
  self->range_end = end;
  g_mutex_unlock (&self->mutex);
}
