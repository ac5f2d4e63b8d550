/* The picture: the engine's DOT drawn by real graphviz through the
 * renderer.  Structure (one node group per tape node, one edge per
 * operand, classes that match the plan), escaping of hostile names,
 * PNG and cairo output, diagnostics instead of stderr, the budgets, a
 * large gradient graph, the numeric locale and hit tests. */
#define _GNU_SOURCE
#include <glib.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tp-diff.h"
#include "tp-dot.h"
#include "tp-engine.h"
#include "tp-parse.h"
#include "tp-plan.h"
#include "tp-render.h"

#include <cgraph.h>

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

typedef struct
{
  GHashTable *nodes;   /* "n3" -> class string */
  GHashTable *edges;   /* "e3_0" -> class string */
  guint texts;
} SvgScan;

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
}

/* Parses svg as XML (failing the test if it is not well-formed) and
 * collects the node and edge groups. */
static void
svg_scan (const char *svg, SvgScan *scan)
{
  static const GMarkupParser parser = { scan_start, NULL, NULL, NULL, NULL };
  GMarkupParseContext *ctx;
  GError *error = NULL;

  scan->nodes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  scan->edges = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  scan->texts = 0;
  ctx = g_markup_parse_context_new (&parser, 0, scan, NULL);
  g_markup_parse_context_parse (ctx, svg, -1, &error);
  g_assert_no_error (error);
  g_markup_parse_context_end_parse (ctx, &error);
  g_assert_no_error (error);
  g_markup_parse_context_free (ctx);
}

static void
svg_scan_clear (SvgScan *scan)
{
  g_hash_table_unref (scan->nodes);
  g_hash_table_unref (scan->edges);
}

static gboolean
has_class (const char *classes, const char *word)
{
  g_auto (GStrv) parts = g_strsplit (classes, " ", -1);
  return g_strv_contains ((const char *const *) parts, word);
}

static char *
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

static TpSession *
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

static TpRender *
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
static void
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
static void
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
static GHashTable *
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

/* ------------------------------------------------------------------ */
/* Structure and classes                                               */

typedef struct
{
  const char *file;
  const char *target;
  const char *observe;
} Sample;

static const Sample samples[] = {
  { "readme.tape", "loss", "error" },
  { "readme.tape", NULL, NULL },
  { "dense-layer.tape", "loss", "hidden" },
  { "classifier.tape", "loss", NULL },
  { "two-layers.tape", "loss", "h" },
  { "not-yet-a-scalar.tape", NULL, NULL },
};

static void
test_structure (void)
{
  for (gsize k = 0; k < G_N_ELEMENTS (samples); k++)
    {
      g_autofree char *src = sample (samples[k].file);
      TpSession *s = compile (src, samples[k].target, samples[k].observe);
      TpRender *r = render_ok (tp_session_reading (s, TP_READING_DOT));
      GHashTable *plan = planned (s);
      guint nodes, operands, skipped = 0;
      SvgScan scan;
      GHashTableIter it;
      gpointer key, value;

      g_test_message ("%s observe %s", samples[k].file,
                      samples[k].observe ? samples[k].observe : "-");
      tape_counts (s, &nodes, &operands);
      g_assert_cmpuint (nodes, >, 0);
      svg_scan (tp_render_svg (r, NULL), &scan);
      /* One node group per tape node, one edge per operand. */
      g_assert_cmpuint (g_hash_table_size (scan.nodes), ==, nodes);
      g_assert_cmpuint (g_hash_table_size (scan.edges), ==, operands);
      for (guint i = 0; i < nodes; i++)
        {
          g_autofree char *id = g_strdup_printf ("n%u", i);
          g_assert_true (g_hash_table_contains (scan.nodes, id));
        }
      /* A node is drawn skipped exactly when the plan does not evaluate
       * it; an edge into a skipped node is drawn skipped. */
      g_hash_table_iter_init (&it, scan.nodes);
      while (g_hash_table_iter_next (&it, &key, &value))
        {
          gboolean in_plan = g_hash_table_contains (plan, key);
          g_assert_cmpint (has_class (value, "skipped"), ==, !in_plan);
          skipped += !in_plan;
        }
      g_hash_table_iter_init (&it, scan.edges);
      while (g_hash_table_iter_next (&it, &key, &value))
        {
          unsigned reader, slot;
          g_autofree char *id = NULL;
          g_assert_cmpint (sscanf (key, "e%u_%u", &reader, &slot), ==, 2);
          id = g_strdup_printf ("n%u", reader);
          g_assert_cmpint (has_class (value, "skipped"), ==,
                           !g_hash_table_contains (plan, id));
        }
      /* The target and the observed node are results. */
      if (samples[k].observe != NULL)
        {
          int observed = 0;
          g_hash_table_iter_init (&it, scan.nodes);
          while (g_hash_table_iter_next (&it, &key, &value))
            if (has_class (value, "observed"))
              {
                observed++;
                g_assert_true (has_class (value, "result"));
              }
          g_assert_cmpint (observed, ==, 1);
        }
      g_test_message ("%u nodes, %u operands, %u skipped", nodes, operands,
                      skipped);
      svg_scan_clear (&scan);
      g_hash_table_unref (plan);
      tp_render_free (r);
      tp_session_free (s);
    }
}

/* README, observing error: the observed, target and gradient nodes, the
 * seed, the bands and the saved-value edges. */
static void
test_readme_classes (void)
{
  g_autofree char *src = sample ("readme.tape");
  TpSession *s = compile (src, "loss", "error");
  TpRender *r = render_ok (tp_session_reading (s, TP_READING_DOT));
  const char *svg = tp_render_svg (r, NULL);
  SvgScan scan;

  svg_scan (svg, &scan);
  g_assert_cmpstr (g_hash_table_lookup (scan.nodes, "n0"), ==,
                   "node source parameter");
  g_assert_cmpstr (g_hash_table_lookup (scan.nodes, "n1"), ==, "node source input");
  g_assert_cmpstr (g_hash_table_lookup (scan.nodes, "n4"), ==, "node op result observed");
  g_assert_cmpstr (g_hash_table_lookup (scan.nodes, "n5"), ==, "node op result target");
  g_assert_cmpstr (g_hash_table_lookup (scan.nodes, "n6"), ==,
                   "node source leaf derived seed");
  g_assert_cmpstr (g_hash_table_lookup (scan.nodes, "n20"), ==,
                   "node op derived result gradient");
  g_assert_cmpstr (g_hash_table_lookup (scan.nodes, "n22"), ==,
                   "node op derived skipped");
  /* Sub's operands say which side they are on; the mirrored gradient
   * edge and the saved value have classes of their own. */
  g_assert_cmpstr (g_hash_table_lookup (scan.edges, "e4_0"), ==,
                   "edge operand forward lhs");
  g_assert_cmpstr (g_hash_table_lookup (scan.edges, "e4_1"), ==,
                   "edge operand forward rhs");
  g_assert_cmpstr (g_hash_table_lookup (scan.edges, "e7_0"), ==,
                   "edge operand gradient");
  g_assert_cmpstr (g_hash_table_lookup (scan.edges, "e7_1"), ==,
                   "edge operand saved");
  g_assert_nonnull (strstr (svg, "d loss / d w"));
  g_assert_nonnull (strstr (svg, "id=\"forward\""));
  g_assert_nonnull (strstr (svg, "id=\"gradient\""));
  g_assert_nonnull (strstr (svg, "id=\"legend\""));
  /* Self-contained: no stylesheet, image or font file. */
  g_assert_null (strstr (svg, "<image"));
  g_assert_null (strstr (svg, "stylesheet"));
  g_assert_null (strstr (svg, "@import"));
  g_assert_null (strstr (svg, "url("));
  svg_scan_clear (&scan);
  tp_render_free (r);
  tp_session_free (s);
}

/* Observing a node changes only what docs/language.md says moves: the
 * observed node's class, the plan's skipped set and the counts in the
 * caption.  Compared line by line on the DOT. */
static char *
line_name (const char *line)
{
  const char *id = strstr (line, "[id=\"");

  while (*line == ' ')
    line++;
  if (id != NULL)
    return g_strndup (id + 5, strcspn (id + 5, "\""));
  return g_strndup (line, 7);
}

static void
check_observe_moves (const char *src, const char *observe,
                     const char *const *expect_changed)
{
  TpSession *a = compile (src, "loss", NULL);
  TpSession *b = compile (src, "loss", observe);
  g_auto (GStrv) la = g_strsplit (tp_session_reading (a, TP_READING_DOT), "\n", -1);
  g_auto (GStrv) lb = g_strsplit (tp_session_reading (b, TP_READING_DOT), "\n", -1);
  GPtrArray *changed = g_ptr_array_new_with_free_func (g_free);

  /* The lines only one of the two has, named by their id (or their
   * start), in the order they appear. */
  for (int side = 0; side < 2; side++)
    {
      char **mine = side == 0 ? lb : la, **other = side == 0 ? la : lb;
      for (guint k = 0; mine[k] != NULL; k++)
        if (!g_strv_contains ((const char *const *) other, mine[k]))
          {
            char *name = line_name (mine[k]);
            gboolean seen = FALSE;
            for (guint j = 0; j < changed->len && !seen; j++)
              seen = strcmp (changed->pdata[j], name) == 0;
            if (seen)
              g_free (name);
            else
              g_ptr_array_add (changed, name);
          }
    }
  g_ptr_array_add (changed, NULL);
  {
    g_autofree char *got = g_strjoinv (" ", (char **) changed->pdata);
    g_autofree char *want = g_strjoinv (" ", (char **) expect_changed);
    g_assert_cmpstr (got, ==, want);
  }
  g_ptr_array_unref (changed);
  tp_session_free (a);
  tp_session_free (b);
}

static void
test_observe_moves (void)
{
  /* README: error is evaluated anyway; observing it only marks it (and
   * one more result in the caption). */
  {
    g_autofree char *src = sample ("readme.tape");
    static const char *const moved[] = { "label=<", "n4", NULL };
    check_observe_moves (src, "error", moved);
  }
  /* A value nothing needs (u, node 3, reading w and the leaf 2.0, node
   * 2): observing it brings it and its leaf into the plan, so they and
   * the edges into u stop being skipped, the legend loses its "skipped"
   * row, and the caption counts 10 evaluated, 3 readable. */
  {
    static const char *const moved[] = {
      "label=<", "n2", "n3", "e3_0", "e3_1", "<TR><TD", NULL
    };
    check_observe_moves ("w = parameter 1.0\nloss = w * w\nu = w * 2.0\n",
                         "u", moved);
  }
}

/* ------------------------------------------------------------------ */
/* Escaping                                                            */

/* Hostile statement names, as a front end or a future language might
 * hand them over: DOT and HTML-label syntax, XML-breaking characters,
 * entities, control characters, invalid UTF-8, and a very long name. */
static const char *const hostile[] = {
  "a\"b\"c",
  "{x|y}|<z>",
  "<B>bold</B><BR/>",
  "back\\slash\\N\\G\\\\",
  "&amp;&lt;&#38;&",
  "]]><!--",
  "-- -> } digraph {",
  "tab\tnew\nline\x01\x7f",
  "bad \xff\xfe utf8 \xc3",
  "caf\xc3\xa9 \xe2\x88\x82",
  "'single' \"double\" `back`",
  NULL,   /* filled with a long name */
};

static void
test_escaping (void)
{
  static const char src[] =
    "w = parameter [2, 2]\nx = input [1, 2]\nb = leaf 0.5\n"
    "h = tanh(x @ w) * b\nd = h - x\nloss = sum(d * d) / 3.0\n";
  TpArena arena;
  TpProgram prog;
  TpPlan plan;
  TpDotInput in;
  TpNode wrt[4], grads[4], roots[5], observe[1];
  uint32_t n_wrt = 0, spec;
  const char **names;
  char long_name[400];
  TpBuf out;
  TpRender *r;
  SvgScan scan;
  const char *svg;

  memset (long_name, 'x', sizeof long_name - 1);
  long_name[sizeof long_name - 1] = '\0';
  tp_arena_init (&arena);
  tp_program_init (&prog, &arena);
  g_assert_true (tp_parse (&prog, src, strlen (src)));
  spec = prog.tape.len;
  for (TpNode i = 0; i < spec; i++)
    if (prog.tape.op[i] == TP_OP_PARAMETER)
      wrt[n_wrt++] = i;
  g_assert_true (tp_differentiate (&prog.tape, spec - 1, wrt, n_wrt, grads));
  roots[0] = spec - 1;
  for (uint32_t k = 0; k < n_wrt; k++)
    roots[1 + k] = grads[k];
  observe[0] = 3;
  g_assert_true (tp_plan_lower (&plan, &prog.tape, &arena, roots, 1 + n_wrt,
                                observe, 1, false));
  names = g_new0 (const char *, prog.tape.len);
  for (TpNode i = 0; i < spec; i++)
    names[i] = hostile[i % G_N_ELEMENTS (hostile)] != NULL
               ? hostile[i % G_N_ELEMENTS (hostile)] : long_name;

  memset (&in, 0, sizeof in);
  in.plan = &plan;
  in.spec_nodes = spec;
  in.names = names;
  in.target = spec - 1;
  in.target_name = "l\"o<s>s&";
  in.observe = observe;
  in.n_observe = 1;
  in.wrt = wrt;
  in.grads = grads;
  in.n_wrt = n_wrt;
  tp_buf_init (&out);
  tp_dot_write (&in, &out);
  g_assert_false (out.failed);

  /* Graphviz reads it without a complaint and writes well-formed SVG
   * with one node per tape node. */
  r = render_ok (out.data);
  svg = tp_render_svg (r, NULL);
  if (g_getenv ("TP_DUMP") != NULL)
    {
      g_file_set_contents ("/tmp/tp-escape.dot", out.data, -1, NULL);
      g_file_set_contents ("/tmp/tp-escape.svg", svg, -1, NULL);
    }
  svg_scan (svg, &scan);
  g_assert_cmpuint (g_hash_table_size (scan.nodes), ==, prog.tape.len);
  /* The names arrive as text, escaped, not as markup. */
  g_assert_nonnull (strstr (svg, "a&quot;b&quot;c"));
  g_assert_nonnull (strstr (svg, "{x|y}|&lt;z&gt;"));
  g_assert_nonnull (strstr (svg, "&lt;B&gt;bold&lt;/B&gt;&lt;BR/&gt;"));
  g_assert_nonnull (strstr (svg, "back\\slash\\N\\G\\\\"));
  g_assert_nonnull (strstr (svg, "&amp;amp;&amp;lt;&amp;#38;&amp;"));
  g_assert_nonnull (strstr (svg, "]]&gt;&lt;!&#45;&#45;"));
  g_assert_nonnull (strstr (svg, "tab\\u{9}new\\u{a}line\\u{1}\\u{7f}"));
  g_assert_nonnull (strstr (svg, "bad \xef\xbf\xbd\xef\xbf\xbd utf8 \xef\xbf\xbd"));
  g_assert_nonnull (strstr (svg, "caf\xc3\xa9 \xe2\x88\x82"));
  g_assert_nonnull (strstr (svg, "d l&quot;o&lt;s&gt;s&amp; / d "));
  /* A long name is cut. */
  g_assert_nonnull (strstr (svg, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..."));
  g_assert_null (strstr (svg, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"));
  svg_scan_clear (&scan);
  tp_render_free (r);
  tp_buf_clear (&out);
  g_free (names);
  tp_program_clear (&prog);
  tp_arena_reset (&arena);
}

/* ------------------------------------------------------------------ */
/* PNG and cairo                                                       */

typedef struct
{
  const unsigned char *data;
  size_t len, pos;
} PngReader;

static cairo_status_t
png_read (void *closure, unsigned char *data, unsigned int length)
{
  PngReader *p = closure;

  if (p->len - p->pos < length)
    return CAIRO_STATUS_READ_ERROR;
  memcpy (data, p->data + p->pos, length);
  p->pos += length;
  return CAIRO_STATUS_SUCCESS;
}

/* Counts pixels with any ink (alpha > 0). */
static guint
inked (cairo_surface_t *image)
{
  int w = cairo_image_surface_get_width (image);
  int h = cairo_image_surface_get_height (image);
  int stride = cairo_image_surface_get_stride (image);
  const unsigned char *px;
  guint n = 0;

  cairo_surface_flush (image);
  px = cairo_image_surface_get_data (image);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        guint32 v;
        memcpy (&v, px + y * stride + x * 4, 4);
        n += (v >> 24) != 0;
      }
  return n;
}

typedef struct
{
  TpRender *render;
  unsigned char *png;
  size_t len;
  double scale;
} PngJob;

static void
make_png (gpointer data)
{
  PngJob *job = data;
  job->png = tp_render_png (job->render, job->scale, NULL, &job->len);
}

static void
test_png (void)
{
  static const unsigned char signature[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
  g_autofree char *src = sample ("readme.tape");
  TpSession *s = compile (src, "loss", "error");
  TpRender *r = render_ok (tp_session_reading (s, TP_READING_DOT));
  const double scales[] = { 1.0, 4.0 / 3.0, 2.0 };

  g_assert_cmpfloat (tp_render_width (r), >, 100);
  g_assert_cmpfloat (tp_render_height (r), >, 100);
  for (gsize k = 0; k < G_N_ELEMENTS (scales); k++)
    {
      PngJob job = { r, NULL, 0, scales[k] };
      g_autofree char *out = NULL, *err = NULL;
      PngReader reader;
      cairo_surface_t *image;

      capture_std (make_png, &job, &out, &err);
      g_assert_cmpstr (out, ==, "");
      g_assert_cmpstr (err, ==, "");
      g_assert_nonnull (job.png);
      g_assert_cmpuint (job.len, >, 33);
      g_assert_true (memcmp (job.png, signature, sizeof signature) == 0);
      /* IHDR says the stated size... */
      g_assert_cmpuint (GUINT32_FROM_BE (*(guint32 *) (job.png + 16)), ==,
                        (guint) ceil (tp_render_width (r) * scales[k]));
      g_assert_cmpuint (GUINT32_FROM_BE (*(guint32 *) (job.png + 20)), ==,
                        (guint) ceil (tp_render_height (r) * scales[k]));
      /* ...and the image decodes to it, with a drawing on it. */
      reader.data = job.png;
      reader.len = job.len;
      reader.pos = 0;
      image = cairo_image_surface_create_from_png_stream (png_read, &reader);
      g_assert_cmpint (cairo_surface_status (image), ==, CAIRO_STATUS_SUCCESS);
      g_assert_cmpint (cairo_image_surface_get_width (image), ==,
                       (int) ceil (tp_render_width (r) * scales[k]));
      g_assert_cmpint (cairo_image_surface_get_height (image), ==,
                       (int) ceil (tp_render_height (r) * scales[k]));
      g_assert_cmpuint (inked (image), >, 1000);
      cairo_surface_destroy (image);
      free (job.png);
    }
  /* Over the size limit: no image, no crash. */
  g_assert_null (tp_render_png (r, 1000.0, NULL, NULL));
  g_assert_null (tp_render_png (r, 0.0, NULL, NULL));
  tp_render_free (r);
  tp_session_free (s);
}

/* Drawing into a caller's context at several scales: ink appears, more
 * at a larger scale, the context and its surface stay usable (graphviz
 * finished no surface of ours), and nothing is written to stdout. */
typedef struct
{
  const char *dot;
  TpRender *render;
} NewJob;

static void
make_render (gpointer data)
{
  NewJob *job = data;
  job->render = tp_render_new (job->dot, NULL);
}

static void
test_cairo_draw (void)
{
  g_autofree char *src = sample ("two-layers.tape");
  TpSession *s = compile (src, "loss", "h");
  NewJob job = { tp_session_reading (s, TP_READING_DOT), NULL };
  g_autofree char *out = NULL, *err = NULL;
  guint last = 0;

  capture_std (make_render, &job, &out, &err);
  g_assert_cmpstr (out, ==, "");
  g_assert_cmpstr (err, ==, "");
  g_assert_true (tp_render_ok (job.render));
  for (double scale = 0.25; scale <= 2.0; scale *= 2)
    {
      int w = (int) ceil (tp_render_width (job.render) * scale);
      int h = (int) ceil (tp_render_height (job.render) * scale);
      cairo_surface_t *image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
      cairo_t *cr = cairo_create (image);
      guint ink;

      cairo_scale (cr, scale, scale);
      tp_render_draw (job.render, cr);
      g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
      g_assert_cmpint (cairo_surface_status (image), ==, CAIRO_STATUS_SUCCESS);
      ink = inked (image);
      g_assert_cmpuint (ink, >, last);
      last = ink;
      /* Still usable: paint the corner and see it. */
      cairo_identity_matrix (cr);
      cairo_set_source_rgb (cr, 1, 0, 0);
      cairo_rectangle (cr, 0, 0, 1, 1);
      cairo_fill (cr);
      cairo_surface_flush (image);
      g_assert_cmpuint (cairo_image_surface_get_data (image)[2], ==, 255u);
      cairo_destroy (cr);
      cairo_surface_destroy (image);
    }
  tp_render_free (job.render);
  tp_session_free (s);
}

/* ------------------------------------------------------------------ */
/* Diagnostics, budgets, large graphs, locale, hit tests               */

static void
test_diagnostics (void)
{
  struct
  {
    const char *dot;
    gboolean ok;
    const char *says;
  } cases[] = {
    { "digraph { a -> ; }", FALSE, "syntax error" },
    { "this is not dot", FALSE, "syntax error" },
    { "", FALSE, "could not read" },
    { "digraph { a [shape=no_such_shape]; a -> b; }", TRUE, "no_such_shape" },
    { "digraph { a [label=<<B>unclosed>]; }", TRUE, "" },
  };

  for (gsize k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      NewJob job = { cases[k].dot, NULL };
      g_autofree char *out = NULL, *err = NULL;

      capture_std (make_render, &job, &out, &err);
      g_test_message ("%s -> %s", cases[k].dot, tp_render_diagnostics (job.render));
      g_assert_cmpstr (out, ==, "");
      g_assert_cmpstr (err, ==, "");
      g_assert_cmpint (tp_render_ok (job.render), ==, cases[k].ok);
      g_assert_nonnull (strstr (tp_render_diagnostics (job.render), cases[k].says));
      if (cases[k].says[0] == '\0')
        g_assert_cmpstr (tp_render_diagnostics (job.render), !=, "");
      if (!cases[k].ok)
        {
          g_assert_null (tp_render_svg (job.render, NULL));
          g_assert_null (tp_render_png (job.render, 1.0, NULL, NULL));
          g_assert_cmpfloat (tp_render_width (job.render), ==, 0);
        }
      tp_render_free (job.render);
    }
}

static void
test_renderer_budget (void)
{
  g_autofree char *src = sample ("two-layers.tape");
  TpSession *s = compile (src, "loss", "h");
  const char *dot = tp_session_reading (s, TP_READING_DOT);
  TpRenderOptions small = { .budget = 50, .svg = TRUE, .draw = TRUE };
  TpRender *r = tp_render_new (dot, &small);
  SvgScan scan;

  g_assert_true (tp_render_ok (r));
  g_assert_true (tp_render_degraded (r));
  g_assert_cmpuint (tp_render_cost (r), >, 50);
  g_assert_nonnull (strstr (tp_render_diagnostics (r), "budget"));
  svg_scan (tp_render_svg (r, NULL), &scan);
  g_assert_cmpuint (g_hash_table_size (scan.nodes), ==, 0);
  g_assert_nonnull (strstr (tp_render_svg (r, NULL), "too large to lay out"));
  svg_scan_clear (&scan);
  tp_render_free (r);

  /* Within the default budget, the same graph is drawn whole. */
  r = render_ok (dot);
  g_assert_false (tp_render_degraded (r));
  tp_render_free (r);
  tp_session_free (s);
}

/* A chain of layers, forward + gradient, of at least `nodes` nodes. */
static char *
chain_program (guint layers)
{
  GString *src = g_string_new ("x = input [4, 3]\nh0 = x\n");

  for (guint k = 1; k <= layers; k++)
    {
      g_string_append_printf (src, "w%u = parameter [3, 3]\n", k);
      if (k % 2 == 0)
        g_string_append_printf (src, "h%u = tanh(h%u @ w%u) * h%u\n", k, k - 1, k, k - 2);
      else
        g_string_append_printf (src, "h%u = sin(h%u @ w%u)\n", k, k - 1, k);
    }
  g_string_append_printf (src, "loss = sum(h%u * h%u)\n", layers, layers);
  return g_string_free (src, FALSE);
}

static void
test_engine_budget (void)
{
  g_autofree char *src = chain_program (6);
  TpArena arena;
  TpProgram prog;
  TpPlan plan;
  TpDotInput in;
  TpNode wrt[16], grads[16], roots[17];
  uint32_t n_wrt = 0, spec;
  uint64_t full, forward;
  TpBuf out;
  TpRender *r;
  SvgScan scan;

  tp_arena_init (&arena);
  tp_program_init (&prog, &arena);
  g_assert_true (tp_parse (&prog, src, strlen (src)));
  spec = prog.tape.len;
  for (TpNode i = 0; i < spec; i++)
    if (prog.tape.op[i] == TP_OP_PARAMETER)
      wrt[n_wrt++] = i;
  g_assert_true (tp_differentiate (&prog.tape, spec - 1, wrt, n_wrt, grads));
  roots[0] = spec - 1;
  memcpy (roots + 1, grads, n_wrt * sizeof *grads);
  g_assert_true (tp_plan_lower (&plan, &prog.tape, &arena, roots, 1 + n_wrt,
                                NULL, 0, false));
  memset (&in, 0, sizeof in);
  in.plan = &plan;
  in.spec_nodes = spec;
  in.target = spec - 1;
  in.target_name = "loss";
  in.wrt = wrt;
  in.grads = grads;
  in.n_wrt = n_wrt;
  full = tp_dot_cost (&in, false);
  forward = tp_dot_cost (&in, true);
  g_assert_cmpuint (forward, <, full);

  /* Whole: every node. */
  in.budget = (uint32_t) full;
  tp_buf_init (&out);
  tp_dot_write (&in, &out);
  g_assert_null (strstr (out.data, "class=\"note\""));
  r = render_ok (out.data);
  svg_scan (tp_render_svg (r, NULL), &scan);
  g_assert_cmpuint (g_hash_table_size (scan.nodes), ==, prog.tape.len);
  svg_scan_clear (&scan);
  tp_render_free (r);
  tp_buf_clear (&out);

  /* Over: the forward band and a note that says what is missing. */
  in.budget = (uint32_t) full - 1;
  tp_dot_write (&in, &out);
  g_assert_nonnull (strstr (out.data, "class=\"note\""));
  g_assert_nonnull (strstr (out.data, "the gradient band is not drawn"));
  g_assert_nonnull (strstr (out.data, "d loss / d #1 is node"));
  r = render_ok (out.data);
  svg_scan (tp_render_svg (r, NULL), &scan);
  g_assert_cmpuint (g_hash_table_size (scan.nodes), ==, spec);
  svg_scan_clear (&scan);
  tp_render_free (r);
  tp_buf_clear (&out);

  /* Far over: only the note. */
  in.budget = (uint32_t) forward - 1;
  tp_dot_write (&in, &out);
  g_assert_nonnull (strstr (out.data, "too large to draw"));
  r = render_ok (out.data);
  svg_scan (tp_render_svg (r, NULL), &scan);
  g_assert_cmpuint (g_hash_table_size (scan.nodes), ==, 0);
  svg_scan_clear (&scan);
  tp_render_free (r);
  tp_buf_clear (&out);

  tp_program_clear (&prog);
  tp_arena_reset (&arena);
}

/* A forward+gradient tape of several hundred nodes lays out (whole: it
 * is under the budget) and finishes.  Times are measured by
 * tests/bench/bench-layout, not asserted here. */
static void
test_large_gradient (void)
{
  g_autofree char *src = chain_program (20);
  TpSession *s = compile (src, "loss", NULL);
  TpRender *r = render_ok (tp_session_reading (s, TP_READING_DOT));
  guint nodes, operands;
  SvgScan scan;

  tape_counts (s, &nodes, &operands);
  g_test_message ("%u nodes, %u operands, cost %" G_GUINT64_FORMAT, nodes,
                  operands, tp_render_cost (r));
  g_assert_cmpuint (nodes, >, 350);
  g_assert_false (tp_render_degraded (r));
  svg_scan (tp_render_svg (r, NULL), &scan);
  g_assert_cmpuint (g_hash_table_size (scan.nodes), ==, nodes);
  g_assert_cmpuint (g_hash_table_size (scan.edges), ==, operands);
  svg_scan_clear (&scan);
  tp_render_free (r);
  tp_session_free (s);
}

/* Graphviz parses and prints numbers with the C library: under a locale
 * with a decimal comma the renderer must still read "1.3" as 1.3 and
 * write points in the SVG.  The locale is compiled into a temporary
 * directory when the system has none. */
static void
test_locale (void)
{
  g_autofree char *src = sample ("readme.tape");
  TpSession *s = compile (src, "loss", "error");
  const char *dot = tp_session_reading (s, TP_READING_DOT);
  TpRender *c_render = render_ok (dot), *r;
  g_autofree char *dir = NULL;

  if (setlocale (LC_ALL, "de_DE.UTF-8") == NULL)
    {
      g_autofree char *target = NULL;
      gint status = -1;
      dir = g_dir_make_tmp ("tp-locale-XXXXXX", NULL);
      target = g_build_filename (dir, "de_DE.UTF-8", NULL);
      {
        const char *argv[] = { "localedef", "-i", "de_DE", "-f", "UTF-8",
                               target, NULL };
        g_spawn_sync (NULL, (char **) argv, NULL,
                      G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL
                      | G_SPAWN_STDERR_TO_DEV_NULL,
                      NULL, NULL, NULL, NULL, &status, NULL);
      }
      g_setenv ("LOCPATH", dir, TRUE);
      if (setlocale (LC_ALL, "de_DE.UTF-8") == NULL)
        {
          g_test_skip ("no de_DE.UTF-8 locale and localedef could not make one");
          g_unsetenv ("LOCPATH");
          tp_render_free (c_render);
          tp_session_free (s);
          return;
        }
    }
  g_assert_cmpstr (localeconv ()->decimal_point, ==, ",");
  r = render_ok (dot);
  g_assert_cmpstr (localeconv ()->decimal_point, ==, ",");
  setlocale (LC_ALL, "C");
  /* Same layout, same SVG as under the C locale. */
  g_assert_cmpfloat (tp_render_width (r), ==, tp_render_width (c_render));
  g_assert_cmpfloat (tp_render_height (r), ==, tp_render_height (c_render));
  g_assert_cmpstr (tp_render_svg (r, NULL), ==, tp_render_svg (c_render, NULL));
  tp_render_free (r);
  tp_render_free (c_render);
  tp_session_free (s);
  if (dir != NULL)
    {
      g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", dir);
      g_unsetenv ("LOCPATH");
      g_assert_true (g_spawn_command_line_sync (cmd, NULL, NULL, NULL, NULL));
    }
}

static void
test_hit_test (void)
{
  g_autofree char *src = sample ("readme.tape");
  TpSession *s = compile (src, "loss", "error");
  TpRender *r = render_ok (tp_session_reading (s, TP_READING_DOT));
  double x, y, w, h;

  for (uint32_t i = 0; i < 23; i++)
    {
      g_assert_true (tp_render_node_bounds (r, i, &x, &y, &w, &h));
      g_assert_cmpfloat (x, >=, 0);
      g_assert_cmpfloat (y, >=, 0);
      g_assert_cmpfloat (x + w, <=, tp_render_width (r));
      g_assert_cmpfloat (y + h, <=, tp_render_height (r));
      g_assert_cmpint (tp_render_node_at (r, x + w / 2, y + h / 2), ==, i);
    }
  g_assert_false (tp_render_node_bounds (r, 23, &x, &y, &w, &h));
  g_assert_cmpint (tp_render_node_at (r, 0.5, 0.5), ==, -1);
  /* The parameter w sits level with its gradient, d loss / d w. */
  {
    double x0, y0, w0, h0, x20, y20, w20, h20;
    g_assert_true (tp_render_node_bounds (r, 0, &x0, &y0, &w0, &h0));
    g_assert_true (tp_render_node_bounds (r, 20, &x20, &y20, &w20, &h20));
    g_assert_cmpfloat (fabs ((y0 + h0 / 2) - (y20 + h20 / 2)), <, 1.0);
    /* Forward band on the left, gradient band on the right. */
    g_assert_cmpfloat (x0, <, x20);
  }
  tp_render_free (r);
  tp_session_free (s);
}

static void
test_deterministic (void)
{
  for (gsize k = 0; k < G_N_ELEMENTS (samples); k++)
    {
      g_autofree char *src = sample (samples[k].file);
      TpSession *a = compile (src, samples[k].target, samples[k].observe);
      TpSession *b = compile (src, samples[k].target, samples[k].observe);
      TpRender *ra = render_ok (tp_session_reading (a, TP_READING_DOT));
      TpRender *rb = render_ok (tp_session_reading (b, TP_READING_DOT));
      g_assert_cmpstr (tp_session_reading (a, TP_READING_DOT), ==,
                       tp_session_reading (b, TP_READING_DOT));
      g_assert_cmpstr (tp_render_svg (ra, NULL), ==, tp_render_svg (rb, NULL));
      tp_render_free (ra);
      tp_render_free (rb);
      tp_session_free (a);
      tp_session_free (b);
    }
}

/* Nothing carries over from one layout to the next: the README's SVG is
 * the same before and after a graph that sets padding, resolution, size,
 * direction and fonts of its own, and after a refused one. */
static void
test_no_carry_over (void)
{
  g_autofree char *src = sample ("readme.tape");
  TpSession *s = compile (src, "loss", "error");
  const char *dot = tp_session_reading (s, TP_READING_DOT);
  TpRender *before = render_ok (dot), *odd, *bad, *after;

  odd = tp_render_new ("digraph odd { graph [pad=2, dpi=300, size=\"1,1\", "
                       "rankdir=LR, fontname=Courier, nodesep=3]; "
                       "a -> b -> c; }", NULL);
  g_assert_true (tp_render_ok (odd));
  /* Its size and resolution are set aside: the PNG at one pixel per
   * point is the layout's box, not one inch. */
  {
    size_t len;
    unsigned char *png = tp_render_png (odd, 1.0, NULL, &len);
    g_assert_nonnull (png);
    g_assert_cmpfloat (tp_render_width (odd), >, 150);
    g_assert_cmpuint (GUINT32_FROM_BE (*(guint32 *) (png + 16)), ==,
                      (guint) ceil (tp_render_width (odd)));
    free (png);
  }
  bad = tp_render_new ("digraph { a -> }", NULL);
  g_assert_false (tp_render_ok (bad));
  after = render_ok (dot);
  g_assert_cmpstr (tp_render_svg (before, NULL), ==, tp_render_svg (after, NULL));
  g_assert_cmpfloat (tp_render_width (before), ==, tp_render_width (after));
  g_assert_cmpfloat (tp_render_height (before), ==, tp_render_height (after));
  tp_render_free (before);
  tp_render_free (odd);
  tp_render_free (bad);
  tp_render_free (after);
  tp_session_free (s);
}

/* The first run of xdot operations in @ops that holds @needle. */
static const char *
find_run (const char *ops,
          size_t      len,
          const char *needle)
{
  for (size_t at = 0; at < len; at += strlen (ops + at) + 1)
    if (strstr (ops + at, needle) != NULL)
      return ops + at;
  return NULL;
}

/* Graphviz's own drawing operations: asked for, they come as runs in
 * drawing order, the transparent background left out (the xdot device
 * would paint it white), bold text flagged, and the offsets put a node's
 * outline on its box. */
static void
test_xdot (void)
{
  static const char dot[] =
    "digraph g { graph [bgcolor=\"transparent\", pad=0.2];\n"
    "  n0 [shape=box, label=<<B>bold</B>>];\n"
    "  n1 [shape=box, style=dashed, label=\"plain\"];\n"
    "  n0 -> n1;\n}\n";
  TpRenderOptions plain = { 0 };
  TpRenderOptions with = { .xdot = true };
  TpRender *r = tp_render_new (dot, &plain);
  const char *ops, *box = NULL;
  size_t len = 0, runs = 0;
  double dx, dy, x, y, w, h, x0 = G_MAXDOUBLE, y0 = G_MAXDOUBLE, x1 = -G_MAXDOUBLE, y1 = -G_MAXDOUBLE;
  double px[4], py[4];

  g_assert_true (tp_render_ok (r));
  g_assert_null (tp_render_xdot (r, &len, NULL, NULL));
  g_assert_cmpuint (len, ==, 0);
  tp_render_free (r);

  r = tp_render_new (dot, &with);
  g_assert_true (tp_render_ok (r));
  ops = tp_render_xdot (r, &len, &dx, &dy);
  g_assert_nonnull (ops);
  g_assert_cmpuint (len, >, 0);
  g_assert_cmpint (ops[len - 1], ==, '\0');
  for (size_t at = 0; at < len; at += strlen (ops + at) + 1)
    {
      const char *run = ops + at;

      g_assert_cmpuint (strlen (run), >, 0);
      g_assert_null (strstr (run, "#ffffff"));    /* no white background */
      if (box == NULL && strstr (run, "p 4 ") != NULL)
        box = strstr (run, "p 4 ");
      runs++;
    }
  /* two nodes (outline, label), the graph's empty label is not a run,
   * the edge (spline, head) */
  g_assert_cmpuint (runs, ==, 6);
  /* the bold label says so, the plain one does not; n1 is dashed */
  g_assert_nonnull (strstr (find_run (ops, len, "-bold"), "t 1 "));
  g_assert_null (strstr (find_run (ops, len, "-plain"), "t 1 "));
  g_assert_nonnull (find_run (ops, len, "S 6 -dashed"));

  /* the first outline is n0's box, on n0's box */
  g_assert_nonnull (box);
  g_assert_cmpint (sscanf (box, "p 4 %lf %lf %lf %lf %lf %lf %lf %lf",
                           &px[0], &py[0], &px[1], &py[1], &px[2], &py[2], &px[3], &py[3]), ==, 8);
  for (int k = 0; k < 4; k++)
    {
      x0 = MIN (x0, px[k] + dx);
      x1 = MAX (x1, px[k] + dx);
      y0 = MIN (y0, dy - py[k]);
      y1 = MAX (y1, dy - py[k]);
    }
  g_assert_true (tp_render_node_bounds (r, 0, &x, &y, &w, &h));
  g_assert_cmpfloat (fabs (x0 - x), <, 0.5);
  g_assert_cmpfloat (fabs (y0 - y), <, 0.5);
  g_assert_cmpfloat (fabs (x1 - (x + w)), <, 0.5);
  g_assert_cmpfloat (fabs (y1 - (y + h)), <, 0.5);
  tp_render_free (r);

  /* a graph with a background keeps it, first */
  r = tp_render_new ("digraph g { graph [bgcolor=\"#ffffff\"]; a; }", &with);
  g_assert_true (tp_render_ok (r));
  ops = tp_render_xdot (r, &len, NULL, NULL);
  g_assert_nonnull (ops);
  g_assert_nonnull (strstr (ops, "#ffffff"));
  g_assert_nonnull (strstr (ops, "P 4 "));
  tp_render_free (r);

  /* a failed render has none */
  r = tp_render_new ("digraph { a -> }", &with);
  g_assert_false (tp_render_ok (r));
  g_assert_null (tp_render_xdot (r, NULL, NULL, NULL));
  tp_render_free (r);
}

/* The edit hook has the graph as read, before the budget and the
 * layout: attributes it sets are laid out as the DOT's own statements
 * would be, a node it takes out is not drawn.  A graph made with cgraph
 * is laid out as the same graph read from text. */
static void
edit_spacing (struct Agraph_s *graph, void *data)
{
  Agraph_t *g = graph;

  agattr (g, AGRAPH, (char *) "nodesep", (char *) "2");
  agdelnode (g, agnode (g, (char *) data, 0));
}

static void
test_edit_and_graph (void)
{
  const char *dot = "digraph g {\n  n0 -> n1;\n  n0 -> n2;\n  n3;\n}\n";
  const char *spaced = "digraph g {\n  graph [nodesep=2];\n  n0 -> n1;\n  n0 -> n2;\n}\n";
  TpRenderOptions edited = { .svg = true, .edit = edit_spacing, .edit_data = (void *) "n3" };
  TpRender *plain = tp_render_new (dot, NULL);
  TpRender *hooked = tp_render_new (dot, &edited);
  TpRender *text = tp_render_new (spaced, NULL);
  TpRender *made;
  Agraph_t *g;
  double x, y, w, h;

  g_assert_true (tp_render_ok (plain) && tp_render_ok (hooked) && tp_render_ok (text));
  g_assert_cmpfloat (tp_render_width (hooked), >, tp_render_width (plain) + 50);
  g_assert_cmpfloat (tp_render_width (hooked), ==, tp_render_width (text));
  g_assert_cmpfloat (tp_render_height (hooked), ==, tp_render_height (text));
  g_assert_true (tp_render_node_bounds (plain, 3, &x, &y, &w, &h));
  g_assert_false (tp_render_node_bounds (hooked, 3, &x, &y, &w, &h));
  g_assert_cmpstr (tp_render_svg (hooked, NULL), ==, tp_render_svg (text, NULL));

  g = agopen ((char *) "g", Agdirected, NULL);
  agattr (g, AGRAPH, (char *) "nodesep", (char *) "2");
  agedge (g, agnode (g, (char *) "n0", 1), agnode (g, (char *) "n1", 1), NULL, 1);
  agedge (g, agnode (g, (char *) "n0", 1), agnode (g, (char *) "n2", 1), NULL, 1);
  made = tp_render_new_graph (g, &edited);
  g_assert_true (tp_render_ok (made));
  g_assert_cmpfloat (tp_render_width (made), ==, tp_render_width (text));
  for (uint32_t n = 0; n < 3; n++)
    {
      double tx, ty, tw, th;

      g_assert_true (tp_render_node_bounds (made, n, &x, &y, &w, &h));
      g_assert_true (tp_render_node_bounds (text, n, &tx, &ty, &tw, &th));
      g_assert_cmpfloat (x, ==, tx);
      g_assert_cmpfloat (y, ==, ty);
    }
  /* the graph is still the caller's, laid out again the same */
  tp_render_free (made);
  made = tp_render_new_graph (g, NULL);
  g_assert_true (tp_render_ok (made));
  g_assert_cmpfloat (tp_render_width (made), ==, tp_render_width (text));
  agclose (g);
  tp_render_free (made);
  made = tp_render_new_graph (NULL, NULL);
  g_assert_false (tp_render_ok (made));
  tp_render_free (made);
  tp_render_free (plain);
  tp_render_free (hooked);
  tp_render_free (text);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/picture/structure", test_structure);
  g_test_add_func ("/picture/readme-classes", test_readme_classes);
  g_test_add_func ("/picture/observe-moves", test_observe_moves);
  g_test_add_func ("/picture/escaping", test_escaping);
  g_test_add_func ("/picture/png", test_png);
  g_test_add_func ("/picture/cairo-draw", test_cairo_draw);
  g_test_add_func ("/picture/diagnostics", test_diagnostics);
  g_test_add_func ("/picture/renderer-budget", test_renderer_budget);
  g_test_add_func ("/picture/engine-budget", test_engine_budget);
  g_test_add_func ("/picture/large-gradient", test_large_gradient);
  g_test_add_func ("/picture/locale", test_locale);
  g_test_add_func ("/picture/hit-test", test_hit_test);
  g_test_add_func ("/picture/deterministic", test_deterministic);
  g_test_add_func ("/picture/no-carry-over", test_no_carry_over);
  g_test_add_func ("/picture/xdot", test_xdot);
  g_test_add_func ("/picture/edit-and-graph", test_edit_and_graph);
  return g_test_run ();
}
