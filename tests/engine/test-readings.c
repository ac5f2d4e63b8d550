/* The session's readings: seeded payloads, values display, target and
 * observe resolution, the summary line, the names list and the JSON. */
#include <stdarg.h>

#include "tp-test-util.h"

static void
test_seed_draws (void)
{
  /* docs/language.md, Sources: the first draws of seeds 2, 3 and 4. */
  tp_test_reading ("a = parameter [6]\nb = input [6]\nc = leaf [2, 3]\n",
                   NULL, NULL, TP_READING_VALUES,
                   "a            [6]        [0.18237947, 0.49829936, 0.19127616, "
                   "0.5308383, -0.37682262, -0.30675545]\n"
                   "b            [6]        [-0.7730993, 0.40058702, 0.22594936, "
                   "-0.8542665, -0.5671218, 0.27244464]\n"
                   "c            [2, 3]     [[-0.13708836, 0.7848137, 0.7182343], "
                   "[-0.016451472, -0.21083902, 0.17343669]]\n");
  /* Rank 0 and numbers: [] uses up a seed and holds 0; a number does not
   * draw. */
  tp_test_reading ("a = parameter []\nn = input 1.5\nb = leaf [2]\n",
                   NULL, NULL, TP_READING_VALUES,
                   "a            []         0\n"
                   "n            []         1.5\n"
                   "b            [2]        [-0.7730993, 0.40058702]\n"
                   "\n"
                   "d n / d a      0\n");
}

static void
test_literal_draws_no_seed (void)
{
  /* docs/decisions.md D21: a literal before seeded sources leaves their
   * payloads as they were without it. */
  tp_test_reading ("k = leaf [[1, -2.5], [0.5, 3e2]]\n"
                   "a = parameter [6]\nq = input [[-0, 1]]\nb = input [6]\n",
                   NULL, NULL, TP_READING_VALUES,
                   "k            [2, 2]     [[1, -2.5], [0.5, 300]]\n"
                   "a            [6]        [0.18237947, 0.49829936, 0.19127616, "
                   "0.5308383, -0.37682262, -0.30675545]\n"
                   "q            [1, 2]     [[-0, 1]]\n"
                   "b            [6]        [-0.7730993, 0.40058702, 0.22594936, "
                   "-0.8542665, -0.5671218, 0.27244464]\n");
  /* Row-major at any rank; rank 1 is a reshape of a one-row literal. */
  tp_test_reading ("t = leaf [ [[1, 2], [3, 4]] , [[5, 6], [7, 8]] ]\n"
                   "v = reshape(leaf [[0, 1, 1, 0]], [4])\n",
                   NULL, NULL, TP_READING_VALUES,
                   "t            [2, 2, 2]  [[[1, 2], [3, 4]], [[5, 6], [7, 8]]]\n"
                   "v            [4]        [0, 1, 1, 0]\n");
  /* A single bracket level is still a shape. */
  tp_test_reading ("s = leaf [2, 3]\n", NULL, NULL, TP_READING_SPEC,
                   "   0  Leaf                              [2, 3]\n"
                   "tape: 1 node, 0 parameters, 0 inputs\n");
}

static void
test_values_display (void)
{
  tp_test_reading ("x = input 2.0\ny = x * x\nz = -(x - x)\nw = 1e20 + 0.0000001\n"
                   "q = 1.0 / 0.0\nr = 0.0 / 0.0\n", NULL, NULL,
                   TP_READING_VALUES,
                   "x            []         2\n"
                   "y            []         4\n"
                   "z            []         -0\n"
                   "w            []         100000000000000000000\n"
                   "q            []         inf\n"
                   "r            []         NaN\n");
  /* A reassigned name prints its last value on both lines, each line with
   * its own shape. */
  tp_test_reading ("a = 1.0\nb = a\na = input [2]\n", NULL, NULL,
                   TP_READING_VALUES,
                   "a            []         [0.18237947, 0.49829936]\n"
                   "b            []         1\n"
                   "a            [2]        [0.18237947, 0.49829936]\n");
  /* Long names and shapes are not cut. */
  tp_test_reading ("a_rather_long_name = leaf [1, 1, 1, 1]\n", NULL, NULL,
                   TP_READING_VALUES,
                   "a_rather_long_name [1, 1, 1, 1] [[[[0.18237947]]]]\n");
}

static void
test_summarised_values (void)
{
  /* A tensor beyond the reading's budget is summarised, not printed whole. */
  TpSession *s = tp_test_compile ("a = leaf [1024, 1024]\nb = a\nc = a\n",
                                  NULL, NULL, TP_STATUS_OK);
  const char *v = tp_session_reading (s, TP_READING_VALUES);
  const char *c = strstr (v, "\nc ");

  g_assert_nonnull (c);
  g_assert_cmpuint (strlen (c), <, 4096);
  g_assert_nonnull (strstr (c, ", ..., "));
  g_assert_cmpuint (strlen (v), <, 16u << 20);
  tp_session_free (s);
}

/* Plan lines are the spec line padded to 52, a space, the liveness; the
 * arguments alternate spec line and liveness, then the summary. */
static char *
plan_text (const char *first, ...)
{
  GString *out = g_string_new (NULL);
  const char *line = first;
  va_list ap;

  va_start (ap, first);
  while (line != NULL)
    {
      const char *live = va_arg (ap, const char *);
      g_string_append_printf (out, "%-52s %s\n", line, live);
      line = va_arg (ap, const char *);
    }
  g_string_append (out, va_arg (ap, const char *));
  va_end (ap);
  return g_string_free (out, FALSE);
}

static void
test_target_resolution (void)
{
  char *plan;
  const char *src = "x = input 2.0\ny = x * x\nz = x + 1.0\nv = input [2]\n";

  tp_test_reading (src, NULL, NULL, TP_READING_SUMMARY,
                   "5 nodes recorded, 3 scheduled, 1 readable; differentiating z\n");
  tp_test_reading (src, "y", NULL, TP_READING_SUMMARY,
                   "5 nodes recorded, 2 scheduled, 1 readable; differentiating y\n");
  tp_test_reading (src, "nonesuch", NULL, TP_READING_SUMMARY,
                   "5 nodes recorded, 3 scheduled, 1 readable; differentiating z\n");
  tp_test_reading (src, "z", "y", TP_READING_SUMMARY,
                   "5 nodes recorded, 4 scheduled, 2 readable; "
                   "differentiating z, observing y\n");
  tp_test_reading (src, "z", "z", TP_READING_SUMMARY,
                   "5 nodes recorded, 3 scheduled, 1 readable; differentiating z\n");
  tp_test_reading (src, "z", "nonesuch", TP_READING_SUMMARY,
                   "5 nodes recorded, 3 scheduled, 1 readable; differentiating z\n");
  /* No scalar at all: the last statement. */
  tp_test_reading ("a = input [2]\nb = input [3]\n", NULL, NULL,
                   TP_READING_SUMMARY,
                   "2 nodes recorded, 1 scheduled, 1 readable; differentiating b\n");
  /* A name resolves to its last assignment. */
  plan = plan_text ("   2  Input                             [3]", "kept",
                    NULL,
                    "plan: forward; 1 of 3 nodes evaluated, 1 readable\n"
                    "live volume: peak 3 elements at node 2, retain-all 3\n");
  tp_test_reading ("a = input 1.0\nb = input 2.0\na = input [3]\n", "a", NULL,
                   TP_READING_PLAN, plan);
  g_free (plan);
}

/* Decision 10.9, in the summary too: an observed node is named by the
 * first statement bound to it, and two names of one node are one value. */
static void
test_observe_display_name (void)
{
  const char *src = "w = parameter 1.0\nh = w * 2.0\ng = h\nloss = g * g\n";
  const char *observe[2] = { "g", "h" };
  TpChoices both = { .target = NULL, .observe = observe, .n_observe = 2, .exact = false };
  TpSession *s;

  tp_test_reading (src, NULL, "g", TP_READING_SUMMARY,
                   "16 nodes recorded, 13 scheduled, 3 readable; "
                   "differentiating loss, observing h\n");
  tp_test_reading (src, NULL, "h", TP_READING_SUMMARY,
                   "16 nodes recorded, 13 scheduled, 3 readable; "
                   "differentiating loss, observing h\n");
  s = tp_session_new ();
  g_assert_cmpint (tp_session_compile (s, src, strlen (src), &both), ==,
                   TP_STATUS_OK);
  g_assert_cmpstr (tp_session_reading (s, TP_READING_SUMMARY), ==,
                   "16 nodes recorded, 13 scheduled, 3 readable; "
                   "differentiating loss, observing h\n");
  tp_session_free (s);
}

static void
test_plan_observe (void)
{
  const char *src = "x = input 2.0\ny = x * x\nz = y + 1.0\n";
  const char *summary = "plan: forward; 4 of 4 nodes evaluated, %s readable\n"
                        "live volume: peak 3 elements at node 3, retain-all 4\n";
  char *tail = g_strdup_printf (summary, "1");
  char *plan = plan_text ("   0  Input                             []",
                          "freed after 1",
                          "   1  Mul            0, 0               []",
                          "freed after 3",
                          "   2  Leaf                              []",
                          "freed after 3",
                          "   3  Add            1, 2               []",
                          "kept", NULL, tail);

  tp_test_reading (src, NULL, NULL, TP_READING_PLAN, plan);
  g_free (plan);
  g_free (tail);
  /* Observing y turns its line into kept and adds a readable result. */
  tail = g_strdup_printf (summary, "2");
  plan = plan_text ("   0  Input                             []",
                    "freed after 1",
                    "   1  Mul            0, 0               []", "kept",
                    "   2  Leaf                              []",
                    "freed after 3",
                    "   3  Add            1, 2               []", "kept",
                    NULL, tail);
  tp_test_reading (src, NULL, "y", TP_READING_PLAN, plan);
  g_free (plan);
  g_free (tail);
}

static void
test_names (void)
{
  TpSession *s = tp_test_compile ("w = parameter [2, 3]\nx = input 1.0\n"
                                  "v = w\nw = sum(w)\n", NULL, NULL,
                                  TP_STATUS_OK);
  size_t n;
  const TpName *names = tp_session_names (s, &n);

  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpstr (names[0].name, ==, "w");
  g_assert_cmpuint (names[0].node, ==, 0);
  g_assert_cmpuint (names[0].rank, ==, 2);
  g_assert_cmpuint (names[0].dims[0], ==, 2);
  g_assert_cmpuint (names[0].dims[1], ==, 3);
  g_assert_false (names[0].scalar);
  g_assert_true (names[0].parameter);
  g_assert_cmpstr (names[1].name, ==, "x");
  g_assert_true (names[1].scalar);
  g_assert_false (names[1].parameter);
  g_assert_cmpstr (names[2].name, ==, "v");
  g_assert_cmpuint (names[2].node, ==, 0);
  g_assert_true (names[2].parameter);
  g_assert_cmpstr (names[3].name, ==, "w");
  g_assert_cmpuint (names[3].node, ==, 2);
  g_assert_cmpuint (names[0].line, ==, 1);
  g_assert_cmpuint (names[3].line, ==, 4);
  g_assert_true (names[3].scalar);
  g_assert_false (names[3].parameter);
  tp_session_free (s);

  /* The StableHLO arguments: wanted parameters, then wanted inputs. */
  s = tp_test_compile ("x = input 2.0\nw = parameter 1.0\nu = input 3.0\n"
                       "loss = w * x\n", NULL, NULL, TP_STATUS_OK);
  {
    size_t n_args;
    const uint32_t *args = tp_session_arguments (s, &n_args);
    g_assert_cmpuint (n_args, ==, 2);
    g_assert_cmpuint (args[0], ==, 1);
    g_assert_cmpuint (args[1], ==, 0);
  }
  tp_session_free (s);
}

static void
test_json (void)
{
  TpSession *s = tp_test_compile ("x = input 2.0\ny = x * x\nq = \"\"", NULL,
                                  NULL, TP_STATUS_REFUSED);
  char *json = tp_session_to_json (s);

  g_assert_nonnull (strstr (json, "\"diagnostics\":[{\"line\":3,\"column\":5,"
                                  "\"message\":\"unexpected `\\\"`\"}]"));
  g_assert_nonnull (strstr (json, "\"names\":[]"));
  g_assert_nonnull (strstr (json, "\"spec\":\"\""));
  tp_string_free (json);
  tp_session_free (s);

  s = tp_test_compile ("x = input 2.0\ny = x / 0.0\nz = input [2]\n", NULL,
                       NULL, TP_STATUS_OK);
  json = tp_session_to_json (s);
  g_assert_nonnull (strstr (json, "\"names\":[{\"name\":\"x\",\"node\":0,"
                                  "\"shape\":[],\"scalar\":true,"
                                  "\"parameter\":false},"));
  g_assert_nonnull (strstr (json, "\"tensors\":{\"x\":{\"shape\":[],"
                                  "\"data\":[2]},\"y\":{\"shape\":[],"
                                  "\"data\":[\"inf\"]},\"z\":{\"shape\":[2],"
                                  "\"data\":[0.18237947,0.49829936]}}"));
  g_assert_nonnull (strstr (json, "\"diagnostics\":[]"));
  g_assert_nonnull (strstr (json, "\"target\":\"y\""));
  /* No top-level gradients object (the check's "gradients" is a list). */
  g_assert_null (strstr (json, "\"gradients\":{"));
  g_assert_nonnull (strstr (json, "\"check\":{\"outcome\":\"unchecked\",\"verdict\":\"no derivative to check\",\"gradients\":[],"));
  tp_string_free (json);
  tp_session_free (s);
}

static void
test_recompile_reuses_session (void)
{
  TpSession *s = tp_session_new ();
  const char *good = "a = input 1.0\n";

  for (int k = 0; k < 3; k++)
    {
      g_assert_cmpint (tp_session_compile (s, good, strlen (good), NULL), ==,
                       TP_STATUS_OK);
      g_assert_cmpstr (tp_session_reading (s, TP_READING_VALUES), ==,
                       "a            []         1\n");
      g_assert_cmpint (tp_session_compile (s, "a = ", 4, NULL), ==,
                       TP_STATUS_REFUSED);
      g_assert_cmpstr (tp_session_reading (s, TP_READING_VALUES), ==, "");
    }
  tp_session_free (s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/topos/readings/seed-draws", test_seed_draws);
  g_test_add_func ("/topos/readings/literal-draws-no-seed",
                   test_literal_draws_no_seed);
  g_test_add_func ("/topos/readings/values-display", test_values_display);
  g_test_add_func ("/topos/readings/summarised-values", test_summarised_values);
  g_test_add_func ("/topos/readings/target", test_target_resolution);
  g_test_add_func ("/topos/readings/plan-observe", test_plan_observe);
  g_test_add_func ("/topos/readings/observe-display-name",
                   test_observe_display_name);
  g_test_add_func ("/topos/readings/names", test_names);
  g_test_add_func ("/topos/readings/json", test_json);
  g_test_add_func ("/topos/readings/recompile", test_recompile_reuses_session);
  return g_test_run ();
}
