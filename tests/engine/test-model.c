/* The teaching model the engine gives the front ends (tp-engine.h): the
 * short number format, grouped counts, the charts' axes, the
 * step-through's sentences and states, the defaults, the program's own
 * training settings, the training's trajectory, writing trained
 * parameters back into the program, and the live region's sentence. */
#include <math.h>

#include "tp-test-util.h"

static const char readme[] = "# the README sample\nw = parameter 0.0\n"
                             "x = input 2.0\ny = input 4.0\n"
                             "error = w * x - y\nloss = error * error\n";

static void
check_short (double value, const char *want)
{
  char text[TP_SHORT_NUMBER_MAX];
  size_t n = tp_short_number (value, text);

  g_assert_cmpstr (text, ==, want);
  g_assert_cmpuint (n, ==, strlen (want));
}

static void
test_short_number (void)
{
  check_short (0.0, "0");
  check_short (-0.0, "-0");
  check_short (16.0, "16");
  check_short (0.25, "0.25");
  check_short (0.6399999, "0.64");
  check_short (0.02559995, "0.0256");
  check_short (0.0010240042, "0.00102");
  check_short (0.001, "0.001");
  check_short (1234.5, "1235");
  check_short (99999.0, "99999");
  check_short (99999.7, "1e5");
  check_short (100000.0, "1e5");
  check_short (123456.0, "1.2e5");
  check_short (-2.5, "-2.5");
  check_short (4.4e-13, "4.4e-13");
  check_short (1e-10, "1e-10");
  check_short (0.000999, "1e-3");
  check_short (0.00095, "9.5e-4");
  /* the loss of a diverging run, once printed with forty digits */
  check_short (1794839200000000000000000000000000000000.0, "1.8e39");
  check_short (3.4028235e38, "3.4e38");
  check_short (1.4e-45, "1.4e-45");
  check_short ((double) NAN, "NaN");
  check_short ((double) INFINITY, "inf");
  check_short (-(double) INFINITY, "-inf");
  check_short (9.96, "9.96");
  check_short (9.996, "10");
}

static void
test_grouped_number (void)
{
  char text[27];

  tp_grouped_number (0, text);
  g_assert_cmpstr (text, ==, "0");
  tp_grouped_number (999, text);
  g_assert_cmpstr (text, ==, "999");
  tp_grouped_number (1000, text);
  g_assert_cmpstr (text, ==, "1,000");
  tp_grouped_number (2442657804u, text);
  g_assert_cmpstr (text, ==, "2,442,657,804");
  tp_grouped_number (UINT64_MAX, text);
  g_assert_cmpstr (text, ==, "18,446,744,073,709,551,615");
}

/* Every chart: at most six labelled ticks an axis, in order along it,
 * inside it, short labels. */
static void
check_chart (const TpChart *c)
{
  const TpTick *ticks[2] = { c->x_ticks, c->y_ticks };
  size_t n[2] = { c->n_x_ticks, c->n_y_ticks };

  g_assert_true (c->x_high > c->x_low);
  g_assert_true (c->y_high > c->y_low);
  for (int a = 0; a < 2; a++)
    {
      g_assert_cmpuint (n[a], >=, 1);
      g_assert_cmpuint (n[a], <=, 6);
      for (size_t k = 0; k < n[a]; k++)
        {
          g_assert_cmpfloat (ticks[a][k].at, >=, 0.0);
          g_assert_cmpfloat (ticks[a][k].at, <=, 1.0);
          g_assert_cmpuint (strlen (ticks[a][k].label), <=, 8);
          if (k > 0)
            g_assert_cmpfloat (ticks[a][k].at, >, ticks[a][k - 1].at);
        }
    }
}

static TpTrain *
train (const char *src, uint32_t steps, const char *rate)
{
  TpSession *s = tp_test_compile (src, NULL, NULL, TP_STATUS_OK);
  TpTrain *t = tp_session_train (s, steps, rate, strlen (rate));

  g_assert_nonnull (t);
  g_assert_true (tp_train_ok (t));
  tp_session_free (s);
  return t;
}

static void
test_charts (void)
{
  TpTrain *t = train (readme, 8, "0.1");
  /* w goes to -5 w each step: the loss grows 25-fold until it
   * overflows */
  TpTrain *diverging = train ("w = parameter 1.0\nloss = w * w\n", 40,
                              "3.0");
  TpSession *s = tp_test_compile (readme, NULL, NULL, TP_STATUS_OK);
  TpChart c;

  g_assert_true (tp_train_chart (t, &c));
  check_chart (&c);
  /* 16 down to about 1e-11: a log scale */
  g_assert_true (c.y_log);
  g_assert_cmpstr (c.y_ticks[0].label, ==, "1e-10");
  g_assert_cmpstr (c.x_ticks[c.n_x_ticks - 1].label, ==, "8");
  g_assert_cmpfloat (tp_chart_y (&c, c.y_low), ==, 0.0);
  g_assert_cmpfloat (fabs (tp_chart_y (&c, c.y_high) - 1.0), <, 1e-6);
  g_assert_true (isnan (tp_chart_y (&c, -1.0)));
  g_assert_true (isnan (tp_chart_y (&c, NAN)));
  /* a loss that overflows: short labels, a thinned log scale */
  g_assert_true (tp_train_chart (diverging, &c));
  check_chart (&c);
  g_assert_true (c.y_log);
  for (size_t k = 0; k < c.n_y_ticks; k++)
    g_assert_null (strstr (c.y_ticks[k].label, "0000"));
  /* the memory chart: steps along, live elements from 0 up */
  g_assert_true (tp_session_memory_chart (s, &c));
  check_chart (&c);
  g_assert_false (c.y_log);
  g_assert_cmpfloat (c.y_low, ==, 0.0);
  g_assert_cmpfloat (c.y_high, >=, 6.0);
  g_assert_cmpfloat (c.x_high, ==, 16.0);
  tp_train_free (t);
  tp_train_free (diverging);
  tp_session_free (s);
}

/* The step-through: one sentence a step, counted from 1, with the share
 * sentence for a share; every node's state equals the one-node answer. */
static void
test_steps (void)
{
  TpSession *s = tp_test_compile (readme, NULL, "error", TP_STATUS_OK);
  size_t n = tp_session_n_steps (s), len;
  const char *text;
  uint8_t states[64];
  uint64_t peak;
  uint32_t node;
  size_t at;
  gboolean shared = FALSE;

  g_assert_cmpuint (n, ==, 17);
  text = tp_session_step_text (s, 0, &len);
  TP_ASSERT_TEXT (text, len,
                   "step 1 of 17: node 0 Parameter (w), forward; "
                   "1 element live");
  for (size_t k = 0; k < n; k++)
    {
      TpStep step;
      char *sentence;

      g_assert_true (tp_session_step (s, k, &step));
      text = tp_session_step_text (s, k, &len);
      g_assert_nonnull (text);
      sentence = g_strndup (text, len);
      {
        char *head = g_strdup_printf ("step %zu of 17: node %u ", k + 1,
                                      step.node);
        g_assert_true (g_str_has_prefix (sentence, head));
        g_free (head);
      }
      if (strstr (sentence, "adds share 2"))
        {
          g_assert_cmpstr (sentence, ==,
                           "step 12 of 17: node 11 Add, gradient: d loss / "
                           "d error adds share 2, the one that flows back "
                           "through node 5 Mul (loss) (node 8 added to the "
                           "running sum, node 10); 6 elements live");
          shared = TRUE;
        }
      g_free (sentence);
      g_assert_true (tp_session_node_states (s, k, states, sizeof states));
      for (uint32_t i = 0; i < tp_session_n_nodes (s); i++)
        g_assert_cmpint (states[i], ==, tp_session_node_state (s, k, i));
    }
  g_assert_true (shared);
  g_assert_null (tp_session_step_text (s, n, &len));
  g_assert_false (tp_session_node_states (s, n, states, sizeof states));
  g_assert_true (tp_session_memory_peak (s, &peak, &node, &at));
  /* the peak is the largest live volume of the steps, first reached at
   * its step (7 elements: observing error keeps it to the end) */
  {
    uint64_t most = 0;
    size_t first = 0;
    TpStep step;
    for (size_t k = 0; k < n; k++)
      if (tp_session_step (s, k, &step) && step.live > most)
        {
          most = step.live;
          first = k;
        }
    g_assert_cmpuint (peak, ==, most);
    g_assert_cmpuint (at, ==, first);
    g_assert_true (tp_session_step (s, first, &step));
    g_assert_cmpuint (node, ==, step.node);
    g_assert_cmpuint (peak, ==, 7);
  }
  g_assert_cmpuint (tp_session_target (s), ==, 5);
  g_assert_cmpstr (tp_session_target_name (s), ==, "loss");
  g_assert_cmpstr (tp_session_display_name (s, 4), ==, "error");
  g_assert_null (tp_session_display_name (s, 3));
  g_assert_null (tp_session_display_name (s, 20));
  tp_session_free (s);
}

static void
check_settings (const char *src, uint32_t steps, const char *rate,
                gboolean from_program, uint32_t line)
{
  TpSession *s = tp_test_compile (src, NULL, NULL, TP_STATUS_OK);
  TpTrainSettings t;

  g_assert_true (tp_session_train_settings (s, &t));
  g_assert_cmpuint (t.steps, ==, steps);
  g_assert_cmpuint (t.learning_rate_length, ==, strlen (rate));
  g_assert_cmpint (strncmp (t.learning_rate, rate, strlen (rate)), ==, 0);
  g_assert_cmpint (t.from_program, ==, from_program);
  g_assert_cmpuint (t.line, ==, line);
  tp_session_free (s);
}

static void
test_settings (void)
{
  const TpDefaults *d = tp_defaults ();

  g_assert_cmpuint (d->train_steps, ==, 100);
  g_assert_cmpstr (d->train_rate, ==, "0.1");
  g_assert_cmpuint (d->fold_limit, >, d->fold_head + d->fold_tail);
  check_settings (readme, 100, "0.1", FALSE, 0);
  check_settings ("# xor\n# train it: topos --train 1000 --learning-rate 0.2 "
                  "resources/samples/xor.tape\nw = parameter 1.0\n"
                  "loss = w * w\n", 1000, "0.2", TRUE, 2);
  check_settings ("w = parameter 1.0\n  #   train it: --learning-rate=0.05 "
                  "--train=30\nloss = w * w\n", 30, "0.05", TRUE, 2);
  /* what cannot be read keeps its default; only the first line counts */
  check_settings ("# train it: topos --train lots --learning-rate fast\n"
                  "# train it: --train 5\nw = parameter 1.0\nloss = w * w\n",
                  100, "0.1", TRUE, 1);
  check_settings ("# train it: --train 20000\nw = parameter 1.0\n"
                  "loss = w * w\n", 100, "0.1", TRUE, 1);
  /* a comment after a statement is not the header */
  check_settings ("w = parameter 1.0 # train it: --train 5\nloss = w * w\n",
                  100, "0.1", FALSE, 0);
}

/* Looking at step k is exactly a training of k steps. */
static void
check_trajectory (const char *src, uint32_t steps, const char *rate)
{
  TpTrain *t = train (src, steps, rate);

  for (uint32_t k = 0; k <= tp_train_steps_run (t); k++)
    {
      TpTrain *shorter = train (src, k, rate);
      const char *at = tp_train_parameters_at (t, k);
      g_assert_nonnull (at);
      g_assert_cmpstr (at, ==, tp_train_parameters (shorter));
      tp_train_free (shorter);
    }
  g_assert_null (tp_train_parameters_at (t, tp_train_steps_run (t) + 1));
  tp_train_free (t);
}

static void
test_trajectory (void)
{
  check_trajectory (readme, 6, "0.1");
  check_trajectory ("w = parameter [3, 2]\nx = input [4, 3]\n"
                    "loss = sum(tanh(x @ w) * tanh(x @ w))\n", 7, "0.3");
  /* 2^20 elements over 6 steps: more than the training keeps, so odd
   * steps are replayed from the even ones */
  check_trajectory ("w = parameter [1024, 1024]\nloss = sum(w * w)\n", 5,
                    "0.25");
}

/* Each number of a values line in the short format. */
static gboolean
shorten (const GMatchInfo *match, GString *out, gpointer data)
{
  g_autofree char *number = g_match_info_fetch (match, 0);
  char text[TP_SHORT_NUMBER_MAX];

  (void) data;
  tp_short_number (g_ascii_strtod (number, NULL), text);
  g_string_append (out, text);
  return FALSE;
}

/* The parameters after k steps in the short format: the values lines of
 * tp_train_parameters_at, each number written by tp_short_number; a
 * blown-up training's numbers stay short ("-2.5e19", never twenty
 * digits), the last step included. */
static void
check_short_parameters (const char *src, uint32_t steps, const char *rate)
{
  TpTrain *t = train (src, steps, rate);
  GRegex *number = g_regex_new ("(?<![A-Za-z_0-9.])-?(?:inf|NaN|[0-9][0-9.]*(?:e[-+]?[0-9]+)?)",
                                0, 0, NULL);

  for (uint32_t k = 0; k <= tp_train_steps_run (t); k++)
    {
      g_autofree char *plain = g_strdup (tp_train_parameters_at (t, k));
      g_autofree char *want = g_regex_replace_eval (number, plain, -1, 0, 0, shorten, NULL, NULL);
      const char *got = tp_train_parameters_short_at (t, k);
      g_auto (GStrv) words = NULL;

      g_assert_nonnull (got);
      g_assert_cmpstr (got, ==, want);
      words = g_strsplit_set (got, " [],\n", -1);
      for (char **w = words; *w != NULL; w++)
        g_assert_cmpuint (strlen (*w), <=, 8);
    }
  g_assert_null (tp_train_parameters_short_at (t, tp_train_steps_run (t) + 1));
  g_regex_unref (number);
  tp_train_free (t);
}

static void
test_short_parameters (void)
{
  check_short_parameters ("w = parameter [3, 2]\nx = input [4, 3]\n"
                          "loss = sum(tanh(x @ w) * tanh(x @ w))\n", 4, "0.3");
  /* the README sample at rate 5: w grows 25-fold a step, past 1e19 */
  check_short_parameters (readme, 14, "5");
}

/* The trained parameters written back: the program reads again with them
 * as literals, and its loss is the training's at that step. */
static void
check_apply (const char *src, uint32_t k, const char *rate,
             const char *want_line)
{
  TpTrain *t = train (src, k + 2, rate);
  const char *why = NULL;
  char *applied = tp_train_apply (t, k, &why);
  TpSession *s;
  const float *loss;
  size_t n;

  g_assert_null (why);
  g_assert_nonnull (applied);
  g_assert_nonnull (strstr (applied, want_line));
  s = tp_test_compile (applied, NULL, NULL, TP_STATUS_OK);
  loss = tp_session_node_value (s, tp_session_target (s), NULL, NULL);
  g_assert_cmpfloat (loss[0], ==, tp_train_losses (t, &n)[k]);
  tp_string_free (applied);
  tp_session_free (s);
  tp_train_free (t);
}

static void
test_apply (void)
{
  TpTrain *t;
  const char *why = NULL;

  check_apply (readme, 3, "0.1", "\nw = parameter 1.984\n");
  check_apply ("w = parameter [2, 2]\nx = input [[1, 2], [3, 4]]\n"
               "loss = sum(x @ w)\n", 1, "0.5", "w = parameter [[");
  check_apply ("w = parameter [3]\nloss = sum(w * w)\n", 2, "0.1",
               "w = reshape(parameter [[");
  check_apply ("h = input [1, 2] @ parameter [2, 1]\nloss = sum(h * h)\n", 1,
               "0.1", "h = input [1, 2] @ parameter [[");
  /* a non-finite value cannot be written: 3e38 * 2 overflows, so w
   * becomes -inf after one step */
  t = train ("w = parameter 1.0\nloss = w * w\n", 4, "3e38");
  g_assert_cmpuint (tp_train_steps_run (t), ==, 1);
  g_assert_null (tp_train_apply (t, tp_train_steps_run (t), &why));
  g_assert_nonnull (why);
  tp_train_free (t);
}

static void
test_summary (void)
{
  TpTrain *t = train (readme, 3, "0.1");
  TpTrain *diverging = train ("w = parameter 3.0\nloss = exp(w * w)\n", 100,
                              "1.0");

  g_assert_cmpstr (tp_train_summary (t), ==,
                   "trained 3 steps: loss 16 to 0.00102");
  g_assert_true (g_str_has_prefix (tp_train_summary (diverging),
                                   "stopped at step "));
  g_assert_nonnull (strstr (tp_train_summary (diverging), " of 100: node "));
  g_assert_cmpuint (tp_train_steps_run (diverging), <, 100);
  tp_train_free (t);
  tp_train_free (diverging);
}

/* The picture with the fusion's kernels as clusters: every node drawn
 * once, the kernels of two nodes or more as clusters, no bands. */
static void
test_dot_kernels (void)
{
  TpSession *s = tp_test_compile ("w = parameter [2, 3]\nx = input [4, 2]\n"
                                  "h = tanh(x @ w)\nloss = sum(h * h)\n",
                                  NULL, NULL, TP_STATUS_OK);
  const char *dot = tp_session_dot_kernels (s);
  TpFusionSummary f;
  uint32_t clusters = 0;

  g_assert_true (g_str_has_prefix (dot, "digraph"));
  g_assert_null (strstr (dot, "cluster_forward"));
  for (const char *p = dot; (p = strstr (p, "subgraph cluster_kernel")); p++)
    clusters++;
  g_assert_true (tp_session_fusion (s, &f));
  g_assert_cmpuint (clusters, ==, f.n_fused);
  g_assert_cmpuint (clusters, >, 0);
  for (uint32_t i = 0; i < tp_session_n_nodes (s); i++)
    {
      char *id = g_strdup_printf ("[id=\"n%u\"", i);
      const char *at = strstr (dot, id);
      g_assert_nonnull (at);
      g_assert_null (strstr (at + 1, id));
      g_free (id);
    }
  /* the plain picture is untouched */
  g_assert_nonnull (strstr (tp_session_reading (s, TP_READING_DOT),
                            "cluster_forward"));
  tp_session_free (s);
}

/* The picture with forward mode's tangent band: a node t{i} for each
 * tangent node, in cluster "tangent"; the target's tangent marked; each
 * operand an edge (a program value from n{a}, a tangent from t{a}); the
 * plain picture untouched.  No parameter: no band.  A band that would
 * take the picture over its budget is left out, with a note. */
static void
test_dot_tangent (void)
{
  TpSession *s = tp_test_compile ("w = parameter [2, 3]\nx = input [4, 2]\n"
                                  "h = tanh(x @ w)\nloss = sum(h * h)\n",
                                  NULL, NULL, TP_STATUS_OK);
  TpSession *none = tp_test_compile ("x = input 2.0\ny = x * x\n", NULL,
                                     NULL, TP_STATUS_OK);
  GString *big = g_string_new ("a0 = parameter [2]\n");
  const char *dot = tp_session_dot_tangent (s);
  const char *band;
  TpForwardSummary f;
  char *json, *id;

  g_assert_true (g_str_has_prefix (dot, "digraph"));
  band = strstr (dot, "subgraph cluster_tangent");
  g_assert_nonnull (band);
  g_assert_nonnull (strstr (dot, "cluster_forward"));
  g_assert_nonnull (strstr (dot, "cluster_gradient"));
  g_assert_true (tp_session_forward (s, &f));
  g_assert_cmpuint (f.end, >, f.first);
  for (uint32_t i = f.first; i < f.end; i++)
    {
      const char *at;
      bool op;

      id = g_strdup_printf ("t%u [id=\"t%u\", class=\"", i, i);
      at = strstr (band, id);
      g_assert_nonnull (at);
      op = g_str_has_prefix (at + strlen (id), "op ");
      g_free (id);
      /* an op's first operand is an edge into it; a direction has none */
      id = g_strdup_printf (" -> t%u [id=\"te%u_0\"", i, i);
      g_assert_cmpint (strstr (dot, id) != NULL, ==, op);
      g_free (id);
    }
  id = g_strdup_printf ("t%u [id=\"t%u\", class=\"op tangent tangent-target\"",
                        f.tangent, f.tangent);
  g_assert_nonnull (strstr (dot, id));
  g_free (id);
  g_assert_nonnull (strstr (dot, "class=\"operand primal"));
  g_assert_nonnull (strstr (dot, "class=\"operand tangent"));
  g_assert_nonnull (strstr (dot, "class=\"source leaf tangent direction\""));
  g_assert_nonnull (strstr (dot, "id=\"legend-tangent\""));
  g_assert_null (strstr (tp_session_reading (s, TP_READING_DOT), "tangent"));
  json = tp_session_to_json_members (s, TP_JSON_MEMBER (TP_JSON_DOT_TANGENT));
  g_assert_true (g_str_has_prefix (json, "{\"dot_tangent\":\"digraph"));
  tp_string_free (json);

  g_assert_cmpstr (tp_session_dot_tangent (none), ==, "");
  json = tp_session_to_json_members (none, TP_JSON_MEMBER (TP_JSON_DOT_TANGENT));
  g_assert_cmpstr (json, ==, "{\"dot_tangent\":null}\n");
  tp_string_free (json);

  /* a chain whose picture fits its budget, but not with the band */
  for (int i = 1; i < 28; i++)
    g_string_append_printf (big, "a%d = tanh(a%d) * a0\n", i, i - 1);
  g_string_append (big, "loss = sum(a27)\n");
  tp_session_free (none);
  none = tp_test_compile (big->str, NULL, NULL, TP_STATUS_OK);
  dot = tp_session_dot_tangent (none);
  g_assert_null (strstr (tp_session_reading (none, TP_READING_DOT), "is reduced"));
  g_assert_null (strstr (dot, "cluster_tangent"));
  g_assert_nonnull (strstr (dot, "id=\"note-tangent\""));
  g_assert_nonnull (strstr (dot, "the tangent band is not drawn"));
  g_string_free (big, TRUE);
  tp_session_free (none);
  tp_session_free (s);
}

/* The live region's sentence: the summary's first line when the program
 * reads, the first diagnostic with its place when it is refused, and the
 * same text in the JSON. */
static void
test_announcement (void)
{
  TpSession *s = tp_test_compile (readme, NULL, NULL, TP_STATUS_OK);
  const char *summary = tp_session_reading (s, TP_READING_SUMMARY);
  GString *want = g_string_new ("the program reads: ");
  char *json;

  g_string_append_len (want, summary, (gssize) strcspn (summary, "\n"));
  g_assert_cmpstr (tp_session_announcement (s), ==, want->str);
  json = tp_session_to_json_members (s, TP_JSON_MEMBER (TP_JSON_ANNOUNCEMENT));
  g_string_prepend (want, "{\"announcement\":\"");
  g_string_append (want, "\"}\n");
  g_assert_cmpstr (json, ==, want->str);
  tp_string_free (json);
  tp_session_free (s);
  g_string_free (want, TRUE);

  s = tp_test_compile ("x = input [2]\ny = (\n", NULL, NULL,
                       TP_STATUS_REFUSED);
  g_assert_cmpstr (tp_session_announcement (s), ==,
                   "line 2, column 6: expected a value, found the end of the line");
  tp_session_free (s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/topos/model/short-number", test_short_number);
  g_test_add_func ("/topos/model/grouped-number", test_grouped_number);
  g_test_add_func ("/topos/model/charts", test_charts);
  g_test_add_func ("/topos/model/steps", test_steps);
  g_test_add_func ("/topos/model/settings", test_settings);
  g_test_add_func ("/topos/model/trajectory", test_trajectory);
  g_test_add_func ("/topos/model/apply", test_apply);
  g_test_add_func ("/topos/model/short-parameters", test_short_parameters);
  g_test_add_func ("/topos/model/summary", test_summary);
  g_test_add_func ("/topos/model/dot-kernels", test_dot_kernels);
  g_test_add_func ("/topos/model/dot-tangent", test_dot_tangent);
  g_test_add_func ("/topos/model/announcement", test_announcement);
  return g_test_run ();
}
