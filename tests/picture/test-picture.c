/* The picture: the engine's DOT drawn by real graphviz through the
 * renderer.  Structure (one node group per tape node, one edge per
 * operand, classes that match the plan), escaping of hostile names,
 * PNG and cairo output, diagnostics instead of stderr, the budgets, a
 * large gradient graph, the numeric locale and hit tests. */
#define _GNU_SOURCE
#include "picture-test.h"

/* ------------------------------------------------------------------ */
/* Structure and classes                                               */


static void
test_structure (void)
{
  for (gsize k = 0; k < n_samples; k++)
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

/* The picture with forward mode's tangent band, drawn by graphviz, for
 * every sample: the plain picture's nodes and edges, and one node group
 * per tangent node, in the tangent band's cluster, the target's tangent
 * marked once; every tangent edge ends at a tangent node. */
static void
test_tangent_band (void)
{
  for (gsize k = 0; k < n_samples; k++)
    {
      g_autofree char *src = sample (samples[k].file);
      TpSession *s = compile (src, samples[k].target, samples[k].observe);
      TpForwardSummary f;
      guint nodes, operands, targets = 0;
      SvgScan scan;
      GHashTableIter it;
      gpointer key, value;
      TpRender *r;

      g_test_message ("%s", samples[k].file);
      if (!tp_session_forward (s, &f))
        {
          g_assert_cmpstr (tp_session_dot_tangent (s), ==, "");
          tp_session_free (s);
          continue;
        }
      r = render_ok (tp_session_dot_tangent (s));
      tape_counts (s, &nodes, &operands);
      svg_scan (tp_render_svg (r, NULL), &scan);
      g_assert_cmpuint (g_hash_table_size (scan.nodes), ==, nodes);
      g_assert_cmpuint (g_hash_table_size (scan.edges), ==, operands);
      g_assert_cmpuint (g_hash_table_size (scan.tangents), ==, f.end - f.first);
      g_assert_cmpuint (g_hash_table_size (scan.tangent_edges), >, 0);
      for (guint i = f.first; i < f.end; i++)
        {
          g_autofree char *id = g_strdup_printf ("t%u", i);
          const char *klass = g_hash_table_lookup (scan.tangents, id);
          g_assert_nonnull (klass);
          g_assert_true (has_class (klass, "tangent"));
          targets += has_class (klass, "tangent-target") ? 1u : 0u;
          g_assert_cmpint (has_class (klass, "tangent-target"), ==, i == f.tangent);
        }
      g_assert_cmpuint (targets, ==, 1);
      g_hash_table_iter_init (&it, scan.tangent_edges);
      while (g_hash_table_iter_next (&it, &key, &value))
        {
          unsigned reader, slot;
          g_autofree char *id = NULL;
          g_assert_cmpint (sscanf (key, "te%u_%u", &reader, &slot), ==, 2);
          id = g_strdup_printf ("t%u", reader);
          g_assert_true (g_hash_table_contains (scan.tangents, id));
          g_assert_true (has_class (value, "primal") || has_class (value, "tangent"));
        }
      g_assert_nonnull (strstr (tp_render_svg (r, NULL), "id=\"tangent\""));
      svg_scan_clear (&scan);
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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/picture/structure", test_structure);
  g_test_add_func ("/picture/readme-classes", test_readme_classes);
  g_test_add_func ("/picture/tangent-band", test_tangent_band);
  g_test_add_func ("/picture/observe-moves", test_observe_moves);
  g_test_add_func ("/picture/escaping", test_escaping);
  g_test_add_func ("/picture/png", test_png);
  g_test_add_func ("/picture/cairo-draw", test_cairo_draw);
  return g_test_run ();
}
