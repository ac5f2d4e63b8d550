/* The picture's limits and edges: diagnostics instead of stderr, the
 * budgets, a large gradient graph, the numeric locale, hit tests, the
 * same picture every time, nothing carried over, xdot and an edit. */
#define _GNU_SOURCE
#include "picture-test.h"

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
  for (gsize k = 0; k < n_samples; k++)
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
