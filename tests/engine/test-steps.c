/* The step-through seam (tp-engine.h): the schedule, each node's state at
 * each step, why differentiate recorded each node, and each node's
 * sentence.
 *
 * Checked, for every sample and a few hand-written programs, against what
 * the readings themselves say: the schedule is the plan reading's node
 * lines in order; a node is live from its step to the step of the node
 * its plan line says it is "freed after" (or to the end when kept); every
 * share is an Add whose operands are the running sum and the share, and
 * the shares into one gradient count 1, 2, ...; each parameter's
 * gradient node is the last share into it (or its zero start); the
 * explanation is the explain reading's line. */
#include <stdlib.h>

#include "tp-test-util.h"

static char **
lines_of (const TpSession *s, TpReading which)
{
  return g_strsplit (tp_session_reading (s, which), "\n", -1);
}

/* The plan line's index and what it says of the buffer: the node it is
 * freed after, or -1 when kept. */
static gboolean
plan_line (const char *line, guint *node, gint64 *freed_after)
{
  char *end;
  const char *at;

  while (*line == ' ')
    line++;
  if (!g_ascii_isdigit (*line))
    return FALSE;
  *node = (guint) strtoul (line, &end, 10);
  at = strstr (end, "freed after ");
  if (at != NULL)
    *freed_after = strtoll (at + strlen ("freed after "), NULL, 10);
  else
    {
      g_assert_nonnull (strstr (end, "kept"));
      *freed_after = -1;
    }
  return TRUE;
}

static void
check_program (const char *src)
{
  TpSession *s = tp_test_compile (src, NULL, NULL, TP_STATUS_OK);
  char **plan = lines_of (s, TP_READING_PLAN);
  char **explain = lines_of (s, TP_READING_EXPLAIN);
  size_t n = tp_session_n_steps (s), k = 0, n_grads;
  uint32_t n_nodes = tp_session_n_nodes (s);
  const TpGradient *grads = tp_session_gradients (s, &n_grads);
  guint *step_of = g_new (guint, n_nodes);
  TpStep st;
  TpOrigin o;

  for (uint32_t i = 0; i < n_nodes; i++)
    step_of[i] = G_MAXUINT;
  /* The schedule is the plan's node lines, in order. */
  for (guint l = 0; plan[l] != NULL; l++)
    {
      guint node;
      gint64 freed_after;
      if (!plan_line (plan[l], &node, &freed_after))
        continue;
      g_assert_true (tp_session_step (s, k, &st));
      g_assert_cmpuint (st.node, ==, node);
      g_assert_cmpint (st.gradient, ==, node >= tp_session_spec_nodes (s));
      g_assert_cmpint (st.kept, ==, freed_after < 0);
      step_of[node] = (guint) k;
      k++;
    }
  g_assert_cmpuint (k, ==, n);
  g_assert_false (tp_session_step (s, n, &st));
  /* Each buffer is live from its step to the step of the node it is
   * freed after (now known for every node), or to the end. */
  k = 0;
  for (guint l = 0; plan[l] != NULL; l++)
    {
      guint node;
      gint64 freed_after;
      size_t at;
      if (!plan_line (plan[l], &node, &freed_after))
        continue;
      g_assert_true (tp_session_step (s, k, &st));
      g_assert_true (tp_session_node_step (s, node, &at));
      g_assert_cmpuint (at, ==, k);
      g_assert_cmpuint (st.last, ==, freed_after < 0 ? n - 1
                                     : step_of[freed_after]);
      for (size_t j = 0; j < n; j++)
        g_assert_cmpint (tp_session_node_state (s, j, node), ==,
                         j < k ? TP_NODE_PENDING
                         : j <= st.last ? TP_NODE_LIVE : TP_NODE_FREED);
      k++;
    }
  for (uint32_t i = 0; i < n_nodes; i++)
    if (step_of[i] == G_MAXUINT)
      {
        size_t at;
        g_assert_false (tp_session_node_step (s, i, &at));
        g_assert_cmpint (tp_session_node_state (s, 0, i), ==,
                         TP_NODE_UNEVALUATED);
      }
  /* Live volume at each step: the buffers live then. */
  for (size_t j = 0; j < n; j++)
    {
      uint64_t live = 0;
      for (size_t m = 0; m < n; m++)
        {
          TpStep b;
          g_assert_true (tp_session_step (s, m, &b));
          if (tp_session_node_state (s, j, b.node) == TP_NODE_LIVE)
            live += b.elements;
        }
      g_assert_true (tp_session_step (s, j, &st));
      g_assert_cmpuint (st.live, ==, live);
    }
  /* Origins: forward nodes are the program's; shares add up in order. */
  {
    guint *count = g_new0 (guint, n_nodes);
    for (uint32_t i = 0; i < n_nodes; i++)
      {
        g_assert_true (tp_session_origin (s, i, &o));
        g_assert_cmpint (o.role == TP_ORIGIN_FORWARD, ==,
                         i < tp_session_spec_nodes (s));
        if (o.role != TP_ORIGIN_SHARE)
          continue;
        TpOrigin sum;
        g_assert_true (tp_session_origin (s, o.sum, &sum));
        g_assert_true (sum.role == TP_ORIGIN_ZERO
                       || sum.role == TP_ORIGIN_SHARE);
        g_assert_cmpuint (sum.of, ==, o.of);
        g_assert_cmpuint (o.count, ==, ++count[o.of]);
        g_assert_cmpuint (o.share, <, i);
        g_assert_cmpuint (o.sum, <, i);
        g_assert_cmpuint (o.from, <, tp_session_spec_nodes (s));
      }
    g_free (count);
  }
  for (size_t g = 0; g < n_grads; g++)
    {
      g_assert_true (tp_session_origin (s, grads[g].gradient, &o));
      g_assert_cmpuint (o.of, ==, grads[g].parameter);
      g_assert_true (o.role == TP_ORIGIN_SHARE || o.role == TP_ORIGIN_ZERO
                     || o.role == TP_ORIGIN_UNREACHED);
    }
  g_assert_false (tp_session_origin (s, n_nodes, &o));
  /* The explanation is the explain reading's line. */
  for (uint32_t i = 0; i < n_nodes && explain[i] != NULL; i++)
    {
      size_t len;
      const char *e = tp_session_explanation (s, i, &len);
      g_assert_nonnull (e);
      g_assert_cmpuint (len, ==, strlen (explain[i]));
      g_assert_true (strncmp (e, explain[i], len) == 0);
    }
  g_free (step_of);
  g_strfreev (plan);
  g_strfreev (explain);
  tp_session_free (s);
}

static void
test_samples (void)
{
  char *dir = g_test_build_filename (G_TEST_DIST, "..", "resources",
                                     "samples", NULL);
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *f;
  guint n = 0;

  g_assert_nonnull (d);
  while ((f = g_dir_read_name (d)) != NULL)
    {
      char *path, *text;
      if (!g_str_has_suffix (f, ".tape"))
        continue;
      path = g_build_filename (dir, f, NULL);
      g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
      check_program (text);
      g_free (text);
      g_free (path);
      n++;
    }
  g_assert_cmpuint (n, >=, 8);
  g_dir_close (d);
  g_free (dir);
}

static void
test_programs (void)
{
  /* no derivative; a parameter the loss does not use; observing keeps */
  check_program ("x = input [2, 2]\ny = tanh(x)\n");
  check_program ("w = parameter [2]\nv = parameter 1.0\nloss = sum(w * w)\n");
  check_program ("w = parameter [2, 2]\nx = input [1, 2]\n"
                 "h = tanh(x @ w)\nloss = sum(h * h)\n");
}

/* The README sample, by hand: the first share into d loss / d error. */
static void
test_readme (void)
{
  TpSession *s = tp_test_compile ("w = parameter 2.0\nx = input 3.0\n"
                                  "y = input 2.0\nprediction = w * x\n"
                                  "error = prediction - y\n"
                                  "loss = error * error\n",
                                  NULL, NULL, TP_STATUS_OK);
  TpOrigin o;
  size_t len;
  const char *e;

  g_assert_true (tp_session_origin (s, 6, &o));
  g_assert_cmpint (o.role, ==, TP_ORIGIN_SEED);
  g_assert_cmpuint (o.of, ==, 5);
  g_assert_true (tp_session_origin (s, 10, &o));
  g_assert_cmpint (o.role, ==, TP_ORIGIN_SHARE);
  g_assert_cmpuint (o.of, ==, 4);
  g_assert_cmpuint (o.from, ==, 5);
  g_assert_cmpuint (o.share, ==, 7);
  g_assert_cmpuint (o.sum, ==, 9);
  g_assert_cmpuint (o.count, ==, 1);
  e = tp_session_explanation (s, 10, &len);
  g_assert_nonnull (e);
  g_assert_true (g_str_has_prefix (e, "10 Add: d loss / d error adds share 1"));
  g_assert_cmpint (e[len], ==, '\n');
  tp_session_free (s);
}

static void
test_refused (void)
{
  TpSession *s = tp_test_compile ("x = \n", NULL, NULL, TP_STATUS_REFUSED);
  TpStep st;
  TpOrigin o;
  size_t len, k;

  g_assert_cmpuint (tp_session_n_steps (s), ==, 0);
  g_assert_false (tp_session_step (s, 0, &st));
  g_assert_false (tp_session_node_step (s, 0, &k));
  g_assert_cmpint (tp_session_node_state (s, 0, 0), ==, TP_NODE_UNEVALUATED);
  g_assert_false (tp_session_origin (s, 0, &o));
  g_assert_null (tp_session_explanation (s, 0, &len));
  tp_session_free (s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/steps/samples", test_samples);
  g_test_add_func ("/steps/programs", test_programs);
  g_test_add_func ("/steps/readme", test_readme);
  g_test_add_func ("/steps/refused", test_refused);
  return g_test_run ();
}
