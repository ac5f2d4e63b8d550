/* Forward mode (docs/language.md, forward): the tangent tape's value is
 * the reverse-mode gradients' dot product with the direction and a
 * central difference of the target along it (the check's double
 * interpreter), on every sample and golden program and a program per op;
 * the direction as asked for; the reading, its map and its step-through;
 * and both new stages paid for only when read. */
#include <math.h>

#include "tp-test-util.h"

#include "tp-dinterp.h"
#include "tp-session-private.h"

/* One or two ops each, so that a wrong tangent rule names its op; every
 * op of the language and every composite. */
static const char *const per_op[] = {
  "a = parameter [2, 3]\nb = input [2, 3]\nloss = sum(a + b)\n",
  "a = parameter [2, 3]\nb = parameter [2, 3]\nloss = sum(a - b * b)\n",
  "a = parameter [2, 3]\nb = input [2, 3]\nloss = sum(a * b)\n",
  "a = parameter [2, 3]\nb = parameter [2, 3]\nloss = sum(a / (b * b + 1.0))\n",
  "a = parameter [2, 3]\nb = input [2, 3]\nloss = sum(b / (a * a + 1.0))\n",
  "a = parameter [4]\nloss = sum(-a)\n",
  "a = parameter [2, 2]\nloss = sum(exp(a))\n",
  "a = parameter [2, 2]\nloss = sum(ln(a * a + 0.5))\n",
  "a = parameter [3]\nloss = sum(sqrt(a * a + 0.25))\n",
  "a = parameter [3, 2]\nloss = sum(tanh(a))\n",
  "a = parameter [3, 2]\nloss = sum(sin(a))\n",
  "a = parameter [3, 2]\nloss = sum(cos(a))\n",
  "a = parameter [2, 3]\nb = parameter [3, 4]\nloss = sum(a @ b)\n",
  "a = parameter [2, 3]\nb = input [3, 4]\nloss = sum(tanh(a @ b))\n",
  "a = input [2, 3]\nb = parameter [3, 4]\nloss = sum(tanh(a @ b))\n",
  "a = parameter [3, 4]\nloss = sum(sum_along(a, 0) * sum_along(a, 0))\n",
  "a = parameter [2, 3, 4]\nb = sum_along(a, 1)\nloss = sum(b * b)\n",
  "a = parameter 0.5\nb = broadcast(a, [2, 3])\nc = input [2, 3]\n"
  "loss = sum(b * c)\n",
  "a = parameter [2, 2]\nb = parameter 2.0\n"
  "loss = sum(a * b + b / (a * a + 1.0) - 3.0)\n",
  "a = parameter [2, 3]\nb = reshape(a, [3, 2])\nc = reshape(b, [6])\n"
  "loss = sum(c * c)\n",
  "a = parameter [2, 3]\nb = input [2, 3]\nloss = sum(transpose(a) @ b)\n",
  "a = parameter [3, 3]\nloss = sum(relu(a) * relu(a))\n",
  "a = parameter [3, 4]\nloss = sum(log_softmax(a, 1) * log_softmax(a, 1))\n",
  "a = parameter [3, 4]\nb = input [3, 4]\nloss = sum(log_softmax(a, 0) * b)\n",
  "a = parameter [3, 4]\nb = logsumexp(a, 1)\nloss = sum(b * b)\n",
  "a = parameter [5]\nloss = logsumexp(a, 0)\n",
  "a = parameter [2, 5]\nb = input [2, 5]\nloss = sum(softmax(a, 1) * b)\n",
  "a = parameter [4, 3]\nm = mean_along(a, 1)\nloss = sum(m * m)\n",
  "w = parameter 0.5\n",
  "w = parameter [2]\nv = parameter [3]\nloss = sum(w * w)\n",
  "w = parameter 0.5\nx = input [2]\nloss = sum(x)\n",
};

static TpSession *
compile_with (const char *src, const char *target, const char *direction)
{
  TpChoices c = { .target = target, .direction = direction };
  TpSession *s = tp_session_new ();

  g_assert_cmpint (tp_session_compile (s, src, strlen (src), &c), ==,
                   TP_STATUS_OK);
  return s;
}

/* The central difference of the target along the session's direction,
 * in double: parameter by parameter (the derivative is linear in the
 * direction), each step the check's, cbrt(eps) * max(1, max |p|).  False
 * (and nothing) when a run took another branch of a Maximum. */
static bool
numeric_along (TpSession *s, double *out)
{
  TpArena arena;
  TpDInterp d;
  double sum = 0.0;
  bool kink = false;

  tp_arena_init (&arena);
  g_assert_true (tp_dinterp_init (&d, &s->prog.tape, s->target, &arena));
  g_assert_true (tp_dinterp_run_base (&d));
  for (uint32_t k = 0; k < s->n_wrt; k++)
    {
      TpNode p = s->wrt[k];
      uint64_t n = tp_shape_volume (&s->prog.tape.shape[p]);
      const float *v = s->fwd.direction.v[k];
      double *value, top = 1.0, h, up, down;
      double *base;

      if (!d.anc[p])
        continue;
      value = tp_dinterp_select (&d, p);
      g_assert_nonnull (value);
      base = d.base[p];
      for (uint64_t e = 0; e < n; e++)
        top = fmax (top, fabs (base[e]));
      h = cbrt (2.220446049250313e-16) * top;
      for (uint64_t e = 0; e < n; e++)
        value[e] = base[e] + h * (double) v[e];
      up = tp_dinterp_run (&d, &kink);
      for (uint64_t e = 0; e < n; e++)
        value[e] = base[e] - h * (double) v[e];
      down = tp_dinterp_run (&d, &kink);
      memcpy (value, base, (size_t) n * sizeof *value);
      sum += (up - down) / (2.0 * h);
    }
  tp_arena_reset (&arena);
  *out = sum;
  return !kink && isfinite (sum);
}

/* Tangent, reverse mode and finite differences agree on src; returns
 * whether a finite difference was compared (false at a kink). */
static bool
agrees (const char *name, const char *src, const char *target,
        const char *direction)
{
  TpSession *s = compile_with (src, target, direction);
  TpForwardSummary f;
  double numeric, t, err;
  bool smooth;
  const float *tangent;

  g_assert_nonnull (strstr (tp_session_reading (s, TP_READING_FORWARD),
                            "nodes appended by forward mode"));
  g_assert_true (tp_session_forward (s, &f));
  g_assert_cmpuint (f.tangent, !=, TP_MAP_NO_NODE);
  g_assert_cmpuint (f.first, ==, tp_session_spec_nodes (s));
  g_assert_cmpuint (tp_session_forward_n_steps (s), ==, f.end - f.first);
  if (tp_session_target (s) != TP_MAP_NO_NODE
      && tp_session_gradients (s, NULL) == NULL)
    {
      g_assert_false (f.compared);
      tp_session_free (s);
      return false;
    }
  g_assert_true (f.compared);
  tangent = tp_session_forward_value (s, f.tangent, NULL, NULL);
  g_assert_nonnull (tangent);
  t = tangent[0];
  if (!isfinite (t))
    {
      /* a NaN or an infinity: they cannot agree, and the reading says so */
      g_assert_false (f.agrees);
      g_assert_nonnull (strstr (tp_session_reading (s, TP_READING_FORWARD),
                                "they cannot agree"));
      tp_session_free (s);
      return false;
    }
  if (!f.agrees)
    g_printerr ("%s: tangent %.9g, reverse %.9g\n", name, t, f.reverse);
  g_assert_true (f.agrees);
  g_assert_cmpfloat (fabs (t - f.reverse), <=,
                     1e-4 * fmax (1.0, fmax (fabs (t), fabs (f.reverse))));
  smooth = numeric_along (s, &numeric);
  err = fabs (t - numeric) / fmax (1.0, fmax (fabs (t), fabs (numeric)));
  if (smooth && !(err <= 1e-3))
    g_printerr ("%s: tangent %.9g, central difference %.9g\n", name, t,
                numeric);
  g_assert_true (!smooth || err <= 1e-3);
  tp_session_free (s);
  return smooth;
}

static void
test_per_op (void)
{
  guint smooth = 0;

  for (size_t k = 0; k < G_N_ELEMENTS (per_op); k++)
    {
      char name[32];
      g_snprintf (name, sizeof name, "per_op[%zu]", k);
      smooth += agrees (name, per_op[k], NULL, NULL);
      /* and along every parameter's first element */
      smooth += agrees (name, per_op[k], NULL, "a");
    }
  /* every program but the relu one and the three without a gradient of a
   * parameter element ("w = parameter 0.5" alone, an unused parameter, a
   * target no parameter reaches) reaches the comparison */
  g_assert_cmpuint (smooth, >=, 2 * (G_N_ELEMENTS (per_op) - 4));
}

/* Every .tape in dir that has a parameter, read with its .args when
 * there is one; *smooth counts those a finite difference checked. */
static guint
check_dir (const char *dir, guint *smooth)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *entry;
  guint n = 0;

  g_assert_nonnull (d);
  while ((entry = g_dir_read_name (d)) != NULL)
    {
      char *path, *src, *args_path, *args = NULL, *target = NULL;
      if (!g_str_has_suffix (entry, ".tape"))
        continue;
      path = g_build_filename (dir, entry, NULL);
      g_assert_true (g_file_get_contents (path, &src, NULL, NULL));
      args_path = g_strndup (path, strlen (path) - 5);
      {
        char *with = g_strconcat (args_path, ".args", NULL);
        if (g_file_get_contents (with, &args, NULL, NULL))
          {
            char **words = g_strsplit_set (args, " \n", -1);
            for (guint w = 0; words[w] != NULL; w++)
              if (strcmp (words[w], "--target") == 0 && words[w + 1] != NULL)
                target = g_strdup (words[w + 1]);
            g_strfreev (words);
          }
        g_free (with);
      }
      {
        TpSession *probe = tp_session_new ();
        TpChoices c = { .target = target };
        bool reads = tp_session_compile (probe, src, strlen (src), &c)
                     == TP_STATUS_OK;
        bool has_parameter = reads && probe->n_wrt > 0;
        tp_session_free (probe);
        if (has_parameter)
          {
            *smooth += agrees (entry, src, target, NULL);
            n++;
          }
      }
      g_free (args);
      g_free (target);
      g_free (args_path);
      g_free (src);
      g_free (path);
    }
  g_dir_close (d);
  return n;
}

static void
test_samples_and_golden (void)
{
  char *samples = g_test_build_filename (G_TEST_DIST, "..", "resources",
                                         "samples", NULL);
  char *golden = g_test_build_filename (G_TEST_DIST, "golden", NULL);

  guint smooth = 0;

  g_assert_cmpuint (check_dir (samples, &smooth), >=, 12);
  g_printerr ("# %u of the samples checked by finite differences\n", smooth);
  g_assert_cmpuint (smooth, >=, 10);
  smooth = 0;
  g_assert_cmpuint (check_dir (golden, &smooth), >=, 15);
  g_printerr ("# %u of the golden programs checked by finite differences\n",
              smooth);
  g_assert_cmpuint (smooth, >=, 12);
  g_free (samples);
  g_free (golden);
}

/* The 1,000-line chain: many parameter elements, where reverse mode is
 * cheaper; and one parameter spread over many elements, where forward
 * mode is. */
static void
test_crossover (void)
{
  char *chain = tp_test_chain (20, "", "");
  TpSession *s = compile_with (chain, NULL, NULL);
  TpForwardSummary f;

  g_assert_true (tp_session_forward (s, &f));
  g_assert_true (f.agrees);
  g_assert_cmpuint (f.work_forward, >, 100 * f.work_reverse);
  g_assert_nonnull (g_strstr_len (f.cost, (gssize) f.cost_length,
                                  "reverse mode is cheaper here"));
  tp_session_free (s);
  g_free (chain);

  s = compile_with ("t = parameter 0.5\nx = input [64, 64]\n"
                    "y = sin(x * t) * t\nloss = sum(y)\n", NULL, NULL);
  g_assert_true (tp_session_forward (s, &f));
  g_assert_true (f.agrees);
  g_assert_cmpuint (f.work_forward, <, f.work_reverse);
  g_assert_nonnull (g_strstr_len (f.cost, (gssize) f.cost_length,
                                  "forward mode is cheaper here"));
  tp_session_free (s);
}

static void
test_directions (void)
{
  static const char src[] = "w = parameter [2, 3]\nb = parameter 0.5\n"
                            "x = input [4, 2]\nloss = sum(tanh(x @ w) * b)\n";
  static const struct
  {
    const char *asked;
    const char *says;       /* in the reading; NULL: a one-hot direction */
    uint32_t param;
    uint64_t element;
  } cases[] = {
    { "w", NULL, 0, 0 },
    { "w[1, 2]", NULL, 0, 5 },
    { "  w [0,1] ", NULL, 0, 1 },
    { "b", NULL, 1, 0 },
    { "b[]", NULL, 1, 0 },
    { "q", "direction: `q` is no parameter; the parameters are w, b; the "
           "seeded direction is used instead\n", 0, 0 },
    { "w[2, 0]", "direction: `w[2, 0]` is outside w's shape [2, 3]; the "
                 "seeded direction is used instead\n", 0, 0 },
    { "w[1]", "direction: w has shape [2, 3]: an element of it takes 2 "
              "indices, not 1; the seeded direction is used instead\n", 0, 0 },
    { "w[1, x]", "direction: `w[1, x]` is not a parameter element: write "
                 "NAME or NAME[i, j]; the seeded direction is used "
                 "instead\n", 0, 0 },
    { "w[1, 2] b", "direction: `w[1, 2] b` is not a parameter element: "
                   "write NAME or NAME[i, j]; the seeded direction is used "
                   "instead\n", 0, 0 },
  };

  for (size_t k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      TpSession *s = compile_with (src, NULL, cases[k].asked);
      const char *text = tp_session_reading (s, TP_READING_FORWARD);
      TpForwardSummary f;
      const TpGradient *g = tp_session_gradients (s, NULL);

      g_assert_true (tp_session_forward (s, &f));
      g_assert_true (f.agrees);
      if (cases[k].says != NULL)
        {
          g_assert_nonnull (strstr (text, cases[k].says));
          g_assert_false (f.one_hot);
          g_assert_nonnull (f.direction_error);
          tp_session_free (s);
          continue;
        }
      g_assert_true (f.one_hot);
      g_assert_null (f.direction_error);
      /* the tangent along a one-hot direction is that gradient element */
      {
        const float *grad = tp_session_node_value (s,
                                                   g[cases[k].param].gradient,
                                                   NULL, NULL);
        const float *t = tp_session_forward_value (s, f.tangent, NULL, NULL);
        g_assert_cmpfloat (fabs (t[0] - grad[cases[k].element]), <=,
                           1e-6 * fmax (1.0, fabs (t[0])));
        g_assert_cmpfloat (f.reverse, ==, grad[cases[k].element]);
      }
      tp_session_free (s);
    }
}

/* The README program's reading, whole: the derivative reading's format,
 * then the direction, the two values and the costs. */
static void
test_reading (void)
{
  static const char readme[] = "w = parameter 0.0\nx = input 2.0\n"
                               "y = input 4.0\nerror = w * x - y\n"
                               "loss = error * error\n";
  TpSession *s = compile_with (readme, NULL, NULL);
  const char *text = tp_session_reading (s, TP_READING_FORWARD);
  size_t lines = 0, length;
  TpMapLine ml;
  TpMapRef ref;
  const char *step;

  g_assert_cmpstr (text, ==,
    "   0  Parameter                         []\n"
    "   1  Input                             []\n"
    "   2  Input                             []\n"
    "   3  Mul            0, 1               []\n"
    "   4  Sub            3, 2               []\n"
    "   5  Mul            4, 4               []\n"
    "-- 5 nodes appended by forward mode: the tangent of loss along v is node 10\n"
    "   6  Leaf                              []\n"
    "   7  Mul            6, 1               []\n"
    "   8  Mul            7, 4               []\n"
    "   9  Mul            4, 7               []\n"
    "  10  Add            8, 9               []\n"
    "tape: 11 nodes, 1 parameter, 2 inputs\n"
    "\n"
    "direction v, seeded: each element one of -1, -0.75, -0.5, -0.25, 0.25, 0.5, 0.75, 1\n"
    "w            []         0.75\n"
    "forward mode: the tangent of loss along v is node 10, -12\n"
    "reverse mode: the gradients' dot product with v, the sum of d loss / d p * v over every parameter element (in double, parameter by parameter, element by element), is -12\n"
    "they agree: the two differ by 0, within the tolerance 0.0012 (1e-4 times the largest of 1, |tangent| and sum |g * v|)\n"
    "the whole gradient, 1 parameter element: forward mode 11 estimated multiply-adds (the program's 6, then a tangent pass of 5 for the element), reverse mode 17 (the program's, then one backward pass of 11): forward mode is cheaper here: its one tangent pass costs less than the backward pass\n");
  for (const char *p = text; *p != '\0'; p++)
    lines += *p == '\n';
  g_assert_cmpuint (tp_session_map_n_lines (s, TP_READING_FORWARD), ==, lines);
  g_assert_true (tp_session_map_line (s, TP_READING_FORWARD, 6, &ml));
  g_assert_cmpint (ml.role, ==, TP_ROLE_DIVIDER);
  g_assert_true (tp_session_map_line (s, TP_READING_FORWARD, 8, &ml));
  g_assert_cmpint (ml.role, ==, TP_ROLE_DERIVED);
  g_assert_cmpuint (ml.node, ==, 7);
  /* "6, 1" on node 7's line: the direction's Leaf, then x */
  g_assert_true (tp_session_map_ref_at (s, TP_READING_FORWARD, 8, 21, &ref));
  g_assert_cmpuint (ref.node, ==, 6);
  g_assert_cmpint (ref.klass, ==, TP_TOKEN_OPERAND);
  g_assert_cmpuint (tp_session_forward_n_steps (s), ==, 5);
  step = tp_session_forward_step_text (s, 0, &length);
  TP_ASSERT_TEXT (step, length,
                   "tangent step 1 of 5: node 6 Leaf: the direction's part "
                   "for w, where its tangent starts; gives 0.75");
  step = tp_session_forward_step_text (s, 4, &length);
  TP_ASSERT_TEXT (step, length,
                   "tangent step 5 of 5: node 10 Add, the tangent rule of "
                   "node 5 Mul (loss): ta * b + a * tb, the product rule; "
                   "the tangent of loss; gives -12");
  g_assert_null (tp_session_forward_step_text (s, 5, &length));
  tp_session_free (s);
}

/* No parameter; a target that is not rank 0; a target no parameter
 * reaches. */
static void
test_without_gradient (void)
{
  TpSession *s = compile_with ("x = input [2]\ny = x * 2.0\n", NULL, NULL);
  TpForwardSummary f;

  g_assert_cmpstr (tp_session_reading (s, TP_READING_FORWARD), ==,
                   "there is no parameter to take a direction in: declare "
                   "one with `w = parameter [2, 2]`.\n");
  g_assert_false (tp_session_forward (s, &f));
  tp_session_free (s);

  s = compile_with ("w = parameter [2, 2]\nx = input [2, 2]\ny = x @ w\n",
                    NULL, NULL);
  g_assert_true (tp_session_forward (s, &f));
  g_assert_false (f.compared);
  g_assert_nonnull (strstr (tp_session_reading (s, TP_READING_FORWARD),
                            "reverse mode needs a rank-0 target (one "
                            "backward pass per element of it, 4 here)"));
  {
    uint32_t rank;
    const uint32_t *dims;
    const float *t = tp_session_forward_value (s, f.tangent, &rank, &dims);
    const float *x = tp_session_node_value (s, 1, NULL, NULL);
    const float *v = s->fwd.direction.v[0];
    g_assert_cmpuint (rank, ==, 2);
    /* the tangent of x @ w along v is x @ v, in the matmul's own order */
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < 2; j++)
        g_assert_cmpfloat (t[i * 2 + j], ==,
                           x[i * 2] * v[j] + x[i * 2 + 1] * v[2 + j]);
  }
  tp_session_free (s);

  s = compile_with ("w = parameter 0.5\nx = input 2.0\nloss = x * x\n",
                    NULL, NULL);
  g_assert_true (tp_session_forward (s, &f));
  g_assert_true (f.agrees);
  g_assert_cmpfloat (f.reverse, ==, 0.0);
  g_assert_nonnull (strstr (tp_session_reading (s, TP_READING_FORWARD),
                            "-- 1 nodes appended by forward mode"));
  tp_session_free (s);
}

/* Reading anything else builds neither stage; each is built once, when
 * it is asked for; the JAX program does not build the tangent tape. */
static void
test_lazy (void)
{
  static const char src[] = "w = parameter [2, 3]\nx = input [4, 2]\n"
                            "loss = sum(tanh(x @ w))\n";
  TpSession *s = compile_with (src, NULL, NULL);
  char *json;

  for (int r = 0; r < TP_N_READINGS; r++)
    if (r != TP_READING_FORWARD && r != TP_READING_JAX)
      tp_session_reading (s, (TpReading) r);
  json = tp_session_to_json_without_map (s);
  g_assert_null (strstr (json, "\"forward\":{"));
  g_assert_null (strstr (json, "\"jax\":"));
  tp_string_free (json);
  g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_FORWARD), ==, 0);
  g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_JAX), ==, 0);
  tp_session_reading (s, TP_READING_JAX);
  g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_JAX), ==, 1);
  g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_FORWARD), ==, 0);
  tp_session_reading (s, TP_READING_FORWARD);
  json = tp_session_to_json_members (s, TP_JSON_MEMBER (TP_JSON_FORWARD));
  g_assert_nonnull (strstr (json, "{\"forward\":{\"direction\":{\"w\":"));
  g_assert_nonnull (strstr (json, "\"agrees\":true"));
  tp_string_free (json);
  g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_FORWARD), ==, 1);
  g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_JAX), ==, 1);
  tp_session_free (s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/forward/per-op", test_per_op);
  g_test_add_func ("/forward/samples-and-golden", test_samples_and_golden);
  g_test_add_func ("/forward/crossover", test_crossover);
  g_test_add_func ("/forward/directions", test_directions);
  g_test_add_func ("/forward/reading", test_reading);
  g_test_add_func ("/forward/without-gradient", test_without_gradient);
  g_test_add_func ("/forward/lazy", test_lazy);
  return g_test_run ();
}
