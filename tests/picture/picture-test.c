/* picture-test.c: the picture tests' shared helpers (picture-test.h). */
#define _GNU_SOURCE
#include "picture-test.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */


static void
scan_start (G_GNUC_UNUSED GMarkupParseContext *ctx, const char *element,
            const char **names, const char **values, gpointer data,
            G_GNUC_UNUSED GError **error)
{
  SvgScan *scan = data;
  const char *id = NULL, *klass = NULL;

  if (strcmp (element, "text") == 0)
    scan->texts++;
  if (strcmp (element, "g") != 0)
    return;
  for (int k = 0; names[k] != NULL; k++)
    if (strcmp (names[k], "id") == 0)
      id = values[k];
    else if (strcmp (names[k], "class") == 0)
      klass = values[k];
  if (id == NULL || klass == NULL)
    return;
  if (g_str_has_prefix (klass, "node ") && id[0] == 'n' && g_ascii_isdigit (id[1]))
    {
      g_assert_false (g_hash_table_contains (scan->nodes, id));
      g_hash_table_insert (scan->nodes, g_strdup (id), g_strdup (klass));
    }
  else if (g_str_has_prefix (klass, "edge ") && id[0] == 'e')
    {
      g_assert_false (g_hash_table_contains (scan->edges, id));
      g_hash_table_insert (scan->edges, g_strdup (id), g_strdup (klass));
    }
  else if (g_str_has_prefix (klass, "node ") && id[0] == 't' && g_ascii_isdigit (id[1]))
    {
      g_assert_false (g_hash_table_contains (scan->tangents, id));
      g_hash_table_insert (scan->tangents, g_strdup (id), g_strdup (klass));
    }
  else if (g_str_has_prefix (klass, "edge ") && g_str_has_prefix (id, "te"))
    {
      g_assert_false (g_hash_table_contains (scan->tangent_edges, id));
      g_hash_table_insert (scan->tangent_edges, g_strdup (id), g_strdup (klass));
    }
}

/* Parses svg as XML (failing the test if it is not well-formed) and
 * collects the node and edge groups. */
void
svg_scan (const char *svg, SvgScan *scan)
{
  static const GMarkupParser parser = { scan_start, NULL, NULL, NULL, NULL };
  GMarkupParseContext *ctx;
  GError *error = NULL;

  scan->nodes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  scan->edges = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  scan->tangents = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  scan->tangent_edges = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  scan->texts = 0;
  ctx = g_markup_parse_context_new (&parser, 0, scan, NULL);
  g_markup_parse_context_parse (ctx, svg, -1, &error);
  g_assert_no_error (error);
  g_markup_parse_context_end_parse (ctx, &error);
  g_assert_no_error (error);
  g_markup_parse_context_free (ctx);
}

void
svg_scan_clear (SvgScan *scan)
{
  g_hash_table_unref (scan->nodes);
  g_hash_table_unref (scan->edges);
  g_hash_table_unref (scan->tangents);
  g_hash_table_unref (scan->tangent_edges);
}

gboolean
has_class (const char *classes, const char *word)
{
  g_auto (GStrv) parts = g_strsplit (classes, " ", -1);
  return g_strv_contains ((const char *const *) parts, word);
}

char *
sample (const char *name)
{
  const char *dir = g_getenv ("TP_SAMPLES_DIR");
  char *path, *text = NULL;

  g_assert_nonnull (dir);
  path = g_build_filename (dir, name, NULL);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_free (path);
  return text;
}

TpSession *
compile (const char *src, const char *target, const char *observe)
{
  const char *obs[1] = { observe };
  TpChoices c = { .target = target, .observe = obs,
                  .n_observe = observe != NULL ? 1 : 0 };
  TpSession *s = tp_session_new ();

  g_assert_cmpint (tp_session_compile (s, src, strlen (src), &c), ==,
                   TP_STATUS_OK);
  return s;
}

TpRender *
render_ok (const char *dot)
{
  TpRender *r = tp_render_new (dot, NULL);

  g_assert_nonnull (r);
  if (!tp_render_ok (r) || tp_render_diagnostics (r)[0] != '\0')
    g_printerr ("diagnostics: %s\n", tp_render_diagnostics (r));
  g_assert_true (tp_render_ok (r));
  g_assert_cmpstr (tp_render_diagnostics (r), ==, "");
  return r;
}

/* Runs fn with standard output and standard error going to files, and
 * returns what was written to each (caller frees). */
void
capture_std (void (*fn) (gpointer), gpointer data, char **out, char **err)
{
  char *out_path = g_build_filename (g_get_tmp_dir (), "tp-picture-out-XXXXXX", NULL);
  char *err_path = g_build_filename (g_get_tmp_dir (), "tp-picture-err-XXXXXX", NULL);
  int out_fd = g_mkstemp (out_path), err_fd = g_mkstemp (err_path);
  int saved_out, saved_err;

  g_assert_cmpint (out_fd, >=, 0);
  g_assert_cmpint (err_fd, >=, 0);
  fflush (stdout);
  fflush (stderr);
  saved_out = dup (STDOUT_FILENO);
  saved_err = dup (STDERR_FILENO);
  dup2 (out_fd, STDOUT_FILENO);
  dup2 (err_fd, STDERR_FILENO);
  fn (data);
  fflush (stdout);
  fflush (stderr);
  dup2 (saved_out, STDOUT_FILENO);
  dup2 (saved_err, STDERR_FILENO);
  close (saved_out);
  close (saved_err);
  close (out_fd);
  close (err_fd);
  g_assert_true (g_file_get_contents (out_path, out, NULL, NULL));
  g_assert_true (g_file_get_contents (err_path, err, NULL, NULL));
  g_unlink (out_path);
  g_unlink (err_path);
  g_free (out_path);
  g_free (err_path);
}

/* Node count and operand links of the tape, from the derivative (or,
 * without one, the spec) reading: "   7  Mul            6, 4   []". */
void
tape_counts (TpSession *s, guint *nodes, guint *operands)
{
  const char *text = tp_session_reading (s, TP_READING_DERIVATIVE);
  g_auto (GStrv) lines = NULL;

  if (!g_regex_match_simple ("^ +0  ", text, G_REGEX_MULTILINE, 0))
    text = tp_session_reading (s, TP_READING_SPEC);
  lines = g_strsplit (text, "\n", -1);
  *nodes = *operands = 0;
  for (int k = 0; lines[k] != NULL; k++)
    {
      g_autoptr (GMatchInfo) m = NULL;
      g_autoptr (GRegex) re = g_regex_new ("^ *\\d+  \\S+ +([\\d, ]*\\d)?", 0, 0, NULL);
      if (!g_regex_match (re, lines[k], 0, &m))
        continue;
      (*nodes)++;
      {
        g_autofree char *ops = g_match_info_fetch (m, 1);
        if (ops != NULL && ops[0] != '\0')
          *operands += 1 + (guint) (strchr (ops, ',') != NULL);
      }
    }
}

/* The nodes the plan evaluates, from the plan reading. */
GHashTable *
planned (TpSession *s)
{
  g_auto (GStrv) lines = g_strsplit (tp_session_reading (s, TP_READING_PLAN), "\n", -1);
  GHashTable *set = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (int k = 0; lines[k] != NULL; k++)
    {
      unsigned index;
      if (sscanf (lines[k], "%u", &index) == 1)
        g_hash_table_add (set, g_strdup_printf ("n%u", index));
    }
  return set;
}


void
make_render (gpointer data)
{
  NewJob *job = data;
  job->render = tp_render_new (job->dot, NULL);
}

const Sample samples[] = {
  { "readme.tape", "loss", "error" },
  { "readme.tape", NULL, NULL },
  { "dense-layer.tape", "loss", "hidden" },
  { "classifier.tape", "loss", NULL },
  { "two-layers.tape", "loss", "h" },
  { "not-yet-a-scalar.tape", NULL, NULL },
};
const gsize n_samples = G_N_ELEMENTS (samples);
