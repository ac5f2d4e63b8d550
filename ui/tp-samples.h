/* tp-samples.h: the sample programs shipped in the resources. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  const char *id;          /* file name without .tape */
  const char *title;       /* N_(): gettext() it where it is shown */
  const char *target;      /* the reader's choices it opens with, or NULL */
  const char *observe;
  gboolean teaching;       /* ours, not the original page's */
} TpSample;

const TpSample *tp_samples_get    (guint      *n_samples);
const TpSample *tp_samples_lookup (const char *id);
char           *tp_samples_dup_text (const char *id);

G_END_DECLS
