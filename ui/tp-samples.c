/* tp-samples.c: the samples menu's programs.  The first five are the
 * original page's samples (docs/decisions.md D2), with the choices it
 * opens them with; the rest are teaching samples of our own. */
#include "config.h"

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "tp-samples.h"
#include "tp-types.h"

static const TpSample samples[] = {
  { "readme", N_("The README sample"), "loss", "error", FALSE },
  { "dense-layer", N_("A dense layer"), "loss", "hidden", FALSE },
  { "classifier", N_("A classifier"), "loss", NULL, FALSE },
  { "two-layers", N_("Two layers"), "loss", "h", FALSE },
  { "not-yet-a-scalar", N_("Not yet a scalar"), "y", NULL, FALSE },
  { "linear-regression", N_("Linear regression"), "loss", "error", TRUE },
  { "mlp", N_("A two-layer MLP with softmax cross-entropy"), "loss", "hidden", TRUE },
  { "attention", N_("An attention score"), "loss", "weights", TRUE },
};

const TpSample *
tp_samples_get (guint *n_samples)
{
  *n_samples = G_N_ELEMENTS (samples);
  return samples;
}

const TpSample *
tp_samples_lookup (const char *id)
{
  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    if (g_strcmp0 (samples[i].id, id) == 0)
      return &samples[i];
  return NULL;
}

/* The sample's program text, or NULL when there is no such sample. */
char *
tp_samples_dup_text (const char *id)
{
  g_autofree char *path = g_strdup_printf (TP_RESOURCE_PREFIX "/samples/%s.tape", id);
  g_autoptr(GBytes) bytes = g_resources_lookup_data (path, G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);

  if (bytes == NULL)
    return NULL;
  return g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
}
