/* tp-samples.c: the samples menu's programs and their choices, read from
 * the manifest resources/samples/samples.xml (the web page reads the same
 * file when it is built).  The first five are the original page's
 * samples (docs/decisions.md D2), with the choices it opens them with; the
 * rest are teaching samples of our own.  Titles are messages
 * (po/its/samples.its marks them for xgettext) and are translated here. */
#include "config.h"

#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "tp-samples.h"
#include "tp-types.h"

typedef struct
{
  GArray *samples;      /* TpSample, strings owned */
  TpSample current;
  GString *text;
  gboolean in_title;
} ManifestParse;

static const char *
attribute (const char **names, const char **values, const char *name)
{
  for (guint i = 0; names[i] != NULL; i++)
    if (g_str_equal (names[i], name))
      return values[i];
  return NULL;
}

static void
manifest_start (GMarkupParseContext *context G_GNUC_UNUSED,
                const char *element, const char **names,
                const char **values, gpointer data,
                GError **error G_GNUC_UNUSED)
{
  ManifestParse *mp = data;

  if (g_str_equal (element, "sample"))
    {
      const char *target = attribute (names, values, "target");
      const char *observe = attribute (names, values, "observe");

      memset (&mp->current, 0, sizeof mp->current);
      mp->current.id = g_strdup (attribute (names, values, "id"));
      /* An empty choice is no choice: the last scalar, nothing extra. */
      mp->current.target = target != NULL && *target != '\0' ? g_strdup (target) : NULL;
      mp->current.observe = observe != NULL && *observe != '\0' ? g_strdup (observe) : NULL;
      mp->current.teaching = g_strcmp0 (attribute (names, values, "teaching"), "true") == 0;
    }
  else if (g_str_equal (element, "title"))
    {
      mp->in_title = TRUE;
      g_string_truncate (mp->text, 0);
    }
}

static void
manifest_end (GMarkupParseContext *context G_GNUC_UNUSED,
              const char *element, gpointer data,
              GError **error G_GNUC_UNUSED)
{
  ManifestParse *mp = data;

  if (g_str_equal (element, "title"))
    {
      mp->current.title = g_strdup (_(mp->text->str));
      mp->in_title = FALSE;
    }
  else if (g_str_equal (element, "sample") && mp->current.id != NULL)
    g_array_append_val (mp->samples, mp->current);
}

static void
manifest_text (GMarkupParseContext *context G_GNUC_UNUSED,
               const char *text, gsize len, gpointer data,
               GError **error G_GNUC_UNUSED)
{
  ManifestParse *mp = data;

  if (mp->in_title)
    g_string_append_len (mp->text, text, (gssize) len);
}

/* The manifest, read once from the resources; the table lives as long as
 * the process. */
static gpointer
load_manifest (gpointer data G_GNUC_UNUSED)
{
  static const GMarkupParser parser = {
    manifest_start, manifest_end, manifest_text, NULL, NULL,
  };
  ManifestParse mp = { g_array_new (FALSE, TRUE, sizeof (TpSample)), { 0 },
                       g_string_new (NULL), FALSE };
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = g_resources_lookup_data (TP_RESOURCE_PREFIX "/samples/samples.xml",
                                                     G_RESOURCE_LOOKUP_FLAGS_NONE, &error);

  if (bytes != NULL)
    {
      g_autoptr(GMarkupParseContext) context = g_markup_parse_context_new (&parser, 0, &mp, NULL);
      gsize size;
      const char *xml = g_bytes_get_data (bytes, &size);

      if (!g_markup_parse_context_parse (context, xml, (gssize) size, &error)
          || !g_markup_parse_context_end_parse (context, &error))
        g_critical ("The samples manifest cannot be read: %s", error->message);
    }
  else
    g_critical ("The samples manifest is missing: %s", error->message);
  g_string_free (mp.text, TRUE);
  return mp.samples;
}

static GArray *
samples_table (void)
{
  static GOnce once = G_ONCE_INIT;

  return g_once (&once, load_manifest, NULL);
}

const TpSample *
tp_samples_get (guint *n_samples)
{
  GArray *samples = samples_table ();

  *n_samples = samples->len;
  return (const TpSample *) (gpointer) samples->data;
}

const TpSample *
tp_samples_lookup (const char *id)
{
  GArray *samples = samples_table ();

  for (guint i = 0; i < samples->len; i++)
    if (g_strcmp0 (g_array_index (samples, TpSample, i).id, id) == 0)
      return &g_array_index (samples, TpSample, i);
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
