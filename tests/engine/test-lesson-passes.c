/* Lessons on the compiler's passes (docs/lessons.md): the goals that
 * read the rewrites, the fusion, the rematerialisation and forward mode,
 * each graded met and unmet; a lesson's `## choices` (the seam, the
 * JSON, a program compiled with other passes); and what these goals
 * cost.  The choices' refusals are test-lesson-refusals.c's. */
#include "tp-lesson-test.h"

#define README "w = parameter 0.0\nx = input 2.0\ny = input 4.0\n" \
               "error = w * x - y\nloss = error * error\n"

/* Residual chains of two and three layers (resources/lessons/12). */
#define CHAIN2 "x = input [2, 2]\nw1 = parameter [2, 2]\n" \
               "h1 = tanh(x @ w1) + x\nw2 = parameter [2, 2]\n" \
               "h2 = tanh(h1 @ w2) + h1\n"
#define CHAIN3 CHAIN2 "w3 = parameter [2, 2]\nh3 = tanh(h2 @ w3) + h2\n"

static void
test_removes (void)
{
  /* The README's optimized reading: 17 nodes evaluated before, 12 after;
   * the summary is there with or without --optimize. */
  grades ("optimized removes 5\noptimized removes at least 6\n"
          "optimized removes at most 5\n",
          README,
          "met: the optimizer removes 5 nodes (17 evaluated before the "
          "rewrites, 12 after)\n"
          "unmet: the optimizer removes 5 nodes (17 evaluated before the "
          "rewrites, 12 after)\n"
          "met: the optimizer removes 5 nodes (17 evaluated before the "
          "rewrites, 12 after)\n");
  grades_with ("--optimize", "optimized removes 5\n", README,
               "met: the optimizer removes 5 nodes (17 evaluated before the "
               "rewrites, 12 after)\n");
  /* resources/lessons/10: `h + 0.0` is kept, `h - 0.0` rewritten */
  grades_with ("--optimize", "optimized removes at least 9\n",
               "w = parameter 0.5\nx = input 2.0\nh = tanh(w * x)\n"
               "z = h + 0.0\nloss = z * z\n",
               "unmet: the optimizer removes 7 nodes (24 evaluated before the "
               "rewrites, 17 after)\n");
  grades_with ("--optimize", "optimized removes at least 9\n",
               "w = parameter 0.5\nx = input 2.0\nh = tanh(w * x)\n"
               "z = h - 0.0\nloss = z * z\n",
               "met: the optimizer removes 9 nodes (24 evaluated before the "
               "rewrites, 15 after)\n");
  /* nothing to remove: one node */
  grades ("optimized removes 0\noptimized removes at least 1\n",
          "w = parameter 1.0\n",
          "met: the optimizer removes 0 nodes (2 evaluated before the "
          "rewrites, 2 after)\n"
          "unmet: the optimizer removes 0 nodes (2 evaluated before the "
          "rewrites, 2 after)\n");
}

static void
test_fusion (void)
{
  /* The README: 3 kernels that compute, 2 of several nodes; 36 bytes
   * fused, 132 unfused (docs/language.md, fusion). */
  grades ("fusion kernels 3\nfusion kernels at most 2\nfusion bytes 36\n"
          "fusion bytes at least 37\n",
          README,
          "met: the fusion makes 3 kernels that compute (2 of several "
          "nodes)\n"
          "unmet: the fusion makes 3 kernels that compute (2 of several "
          "nodes)\n"
          "met: the kernels move 36 bytes (132 unfused)\n"
          "unmet: the kernels move 36 bytes (132 unfused)\n");
  /* resources/lessons/11: a scale before a MatMul is a kernel of its
   * own, after it joins the chain */
  grades ("fusion kernels at most 2\nfusion bytes at most 260\n",
          "x = input [4, 4]\nm = input [4, 4]\nscaled = x * 2.0\n"
          "y = tanh(scaled @ m)\nout = sum(y * y)\n",
          "unmet: the fusion makes 3 kernels that compute (2 of several "
          "nodes)\n"
          "unmet: the kernels move 388 bytes (780 unfused)\n");
  grades ("fusion kernels at most 2\nfusion bytes at most 260\n",
          "x = input [4, 4]\nm = input [4, 4]\n"
          "y = tanh((x @ m) * 2.0)\nout = sum(y * y)\n",
          "met: the fusion makes 2 kernels that compute (1 of several "
          "nodes)\n"
          "met: the kernels move 260 bytes (780 unfused)\n");
  /* The fusion is of the plan the lesson's choices make: the optimised
   * README moves fewer bytes. */
  grades_with ("--optimize", "fusion kernels 3\nfusion bytes 36\n", README,
               "met: the fusion makes 3 kernels that compute (2 of several "
               "nodes)\n"
               "met: the kernels move 36 bytes (96 unfused)\n");
}

#define FORWARD_64 "the whole gradient, 64 parameter elements: forward mode " \
  "29,057 estimated multiply-adds (the program's 321, then a tangent pass " \
  "of 449 for each element), reverse mode 1,282 (the program's, then one " \
  "backward pass of 961): reverse mode is cheaper here: one backward pass " \
  "gives every element's gradient, where forward mode needs a pass per " \
  "element"

static void
test_forward (void)
{
  /* The README: forward mode 11, reverse mode 17 (docs/language.md,
   * forward). */
  grades ("forward agrees\nforward cheaper\nreverse cheaper\n", README,
          "met: they agree: the two differ by 0, within the tolerance "
          "0.0012 (1e-4 times the largest of 1, |tangent| and sum |g * v|)\n"
          "met: the whole gradient, 1 parameter element: forward mode 11 "
          "estimated multiply-adds (the program's 6, then a tangent pass of "
          "5 for the element), reverse mode 17 (the program's, then one "
          "backward pass of 11): forward mode is cheaper here: its one "
          "tangent pass costs less than the backward pass\n"
          "unmet: the whole gradient, 1 parameter element: forward mode 11 "
          "estimated multiply-adds (the program's 6, then a tangent pass of "
          "5 for the element), reverse mode 17 (the program's, then one "
          "backward pass of 11): forward mode is cheaper here: its one "
          "tangent pass costs less than the backward pass\n");
  /* resources/lessons/09's start: 64 elements, reverse mode wins */
  grades_with ("--direction t", "forward agrees\nforward cheaper\n"
               "reverse cheaper\n",
               "t = parameter [8, 8]\nx = input [8, 8]\n"
               "y = sin(x * t) * t\nloss = sum(y)\n",
               "met: they agree: the two differ by 0, within the tolerance "
               "1e-4 (1e-4 times the largest of 1, |tangent| and sum "
               "|g * v|)\n"
               "unmet: " FORWARD_64 "\n"
               "met: " FORWARD_64 "\n");
  /* A value that is not finite: no agreement. */
  grades ("forward agrees\n", "w = parameter 1.0\nloss = ln(w - 1.0)\n",
          "unmet: they cannot agree: a value is not finite\n");
  /* No parameter: the reading's one line; a target of rank 1: nothing
   * to compare with, and no cost to compare. */
  grades ("forward agrees\nforward cheaper\n", "x = input 2.0\ny = x * x\n",
          "unmet: there is no parameter to take a direction in: declare one "
          "with `w = parameter [2, 2]`.\n"
          "unmet: there is no parameter to take a direction in: declare one "
          "with `w = parameter [2, 2]`.\n");
  grades ("forward agrees\nreverse cheaper\n",
          "w = parameter [2]\ny = w * w\n",
          "unmet: there is no gradient to compare with: `y` has shape [2], "
          "and reverse mode needs a rank-0 target (one backward pass per "
          "element of it, 2 here)\n"
          "unmet: there is no gradient to compare with: `y` has shape [2], "
          "and reverse mode needs a rank-0 target (one backward pass per "
          "element of it, 2 here)\n");
}

static void
test_remat (void)
{
  /* resources/lessons/12: auto lowers the three-layer chain's peak from
   * 49 to 41 elements, and finds nothing for two layers. */
  grades_with ("--remat auto", "remat saves 8\nremat saves at least 9\n"
               "peak 41\n",
               CHAIN3 "loss = sum(h3 * h3)\n",
               "met: auto recomputes #3, h1, h2 and #11 for the gradient: the "
               "peak goes from 49 elements to 41 elements, for 16 more "
               "multiply-adds.\n"
               "unmet: auto recomputes #3, h1, h2 and #11 for the gradient: the "
               "peak goes from 49 elements to 41 elements, for 16 more "
               "multiply-adds.\n"
               "met: the plan's peak live volume is 41 elements, at node 18 "
               "Add\n");
  grades_with ("--remat auto", "remat saves at least 1\nremat saves 0\n",
               CHAIN2 "loss = sum(h2 * h2)\n",
               "unmet: auto found no nodes to recompute that lower the peak of "
               "37 elements.\n"
               "met: auto found no nodes to recompute that lower the peak of "
               "37 elements.\n");
  /* By name: h1 takes the two-layer chain from 37 to 33. */
  grades_with ("--remat h1", "remat saves 4\npeak 33\n",
               CHAIN2 "loss = sum(h2 * h2)\n",
               "met: Recomputing h1 for the gradient takes the peak from 37 "
               "elements to 33 elements, for 4 more multiply-adds.\n"
               "met: the plan's peak live volume is 33 elements, at node 14 "
               "Add\n");
  /* A name that is no candidate recomputes nothing. */
  grades_with ("--remat loss", "remat saves at least 1\n",
               CHAIN2 "loss = sum(h2 * h2)\n",
               "unmet: None of the named nodes can be recomputed: a node can be "
               "when it is computed, not a result, and read by the forward "
               "pass and by the gradient.\n");
}

/* Compiles program with the given choices and grades it against a
 * lesson with choices `lesson_choices`: every result, a line each. */
static char *
graded_as (const char *lesson_choices, const char *goals, const char *program,
           const TpChoices *compile)
{
  char *text = lesson_with_choices (goals, lesson_choices);
  TpLesson *l = good_lesson (text);
  TpSession *s = tp_session_new ();
  TpGrade *g;
  GString *out = g_string_new (NULL);

  tp_session_compile (s, program, strlen (program), compile);
  g = tp_lesson_grade (l, s, (int32_t[]) { 0 }, 1, 0);
  g_assert_nonnull (g);
  for (size_t k = 0; k < tp_grade_n_goals (g); k++)
    {
      TpGoalResult r;
      g_assert_true (tp_grade_goal (g, k, &r));
      g_string_append_printf (out, "%s: %s\n",
                              r.state == TP_GOAL_MET ? "met" : "unmet", r.found);
    }
  tp_grade_free (g);
  tp_session_free (s);
  tp_lesson_free (l);
  g_free (text);
  return g_string_free (out, FALSE);
}

/* A program compiled with other passes than the lesson's: the goals
 * about it are unmet and say how; `reads` and questions are graded. */
static void
test_other_choices (void)
{
  const char *goals = "reads\npeak 6\noptimized removes 5\n"
                      "question: Q?\n  right: a\n  wrong: b\n";
  const char *h1[] = { "h1" }, *both[] = { "h2", "h1" }, *alias[] = { "h1", "g" };
  char *got;

  got = graded_as ("--optimize", goals, README, NULL);
  g_assert_cmpstr (got, ==,
                   "met: \n"
                   "unmet: the lesson grades its programs compiled with "
                   "`--optimize`; this one was compiled with no pass\n"
                   "unmet: the lesson grades its programs compiled with "
                   "`--optimize`; this one was compiled with no pass\n"
                   "met: \n");
  g_free (got);
  /* A lesson without choices wants the plain program. */
  {
    char *text = lesson_with ("Some text.", "peak 6\n");
    TpLesson *l = good_lesson (text);
    TpSession *s = tp_session_new ();
    TpChoices c = { .remat_auto = true };
    TpGrade *g;
    TpGoalResult r;

    tp_session_compile (s, README, strlen (README), &c);
    g = tp_lesson_grade (l, s, NULL, 0, 0);
    g_assert_true (tp_grade_goal (g, 0, &r));
    g_assert_cmpint (r.state, ==, TP_GOAL_UNMET);
    g_assert_cmpstr (r.found, ==, "the lesson grades its programs compiled "
                     "with no pass; this one was compiled with `--remat "
                     "auto`");
    tp_grade_free (g);
    tp_session_free (s);
    tp_lesson_free (l);
    g_free (text);
  }
  /* Names: the same set in any order matches; another set does not. */
  got = graded_as ("--remat h1, h2", "peak at most 100\n",
                   CHAIN2 "loss = sum(h2 * h2)\n",
                   &(TpChoices) { .remat = both, .n_remat = 2 });
  g_assert_cmpstr (got, ==, "met: the plan's peak live volume is 37 "
                   "elements, at node 16 Mul\n");
  g_free (got);
  got = graded_as ("--remat h1, h2", "peak at most 100\n",
                   CHAIN2 "loss = sum(h2 * h2)\n",
                   &(TpChoices) { .remat = h1, .n_remat = 1 });
  g_assert_cmpstr (got, ==, "unmet: the lesson grades its programs compiled "
                   "with `--remat h1, h2`; this one was compiled with "
                   "`--remat h1`\n");
  g_free (got);
  /* Two names of one node are one node to recompute. */
  got = graded_as ("--remat h1, g", "peak at most 100\n",
                   CHAIN2 "g = h1\nloss = sum(h2 * h2)\n",
                   &(TpChoices) { .remat = alias, .n_remat = 2 });
  g_assert_true (g_str_has_prefix (got, "met: "));
  g_free (got);
  /* The direction, when the lesson sets one; and auto against names. */
  got = graded_as ("--direction w", "forward agrees\n", README,
                   &(TpChoices) { .direction = "w[]" });
  g_assert_cmpstr (got, ==, "unmet: the lesson grades its programs compiled "
                   "with `--direction w`; this one was compiled with "
                   "`--direction w[]`\n");
  g_free (got);
  got = graded_as ("--remat auto\n--optimize", "peak at most 100\n",
                   CHAIN2 "loss = sum(h2 * h2)\n",
                   &(TpChoices) { .optimize = true, .remat = h1, .n_remat = 1 });
  g_assert_cmpstr (got, ==, "unmet: the lesson grades its programs compiled "
                   "with `--optimize`, `--remat auto`; this one was compiled "
                   "with `--optimize`, `--remat h1`\n");
  g_free (got);
  /* A front end's own direction is fine when the lesson sets none. */
  got = graded_as ("--optimize", "forward agrees\n", README,
                   &(TpChoices) { .optimize = true, .direction = "w" });
  g_assert_true (g_str_has_prefix (got, "met: they agree"));
  g_free (got);
}

/* tp_lesson_choices writes the passes (off when the lesson sets none)
 * and a direction only when it sets one; the rest is the caller's. */
static void
test_choices_seam (void)
{
  const char *obs[] = { "error" };
  char *text = lesson_with_choices ("reads", "--remat h1, h2\n\n"
                                    "--direction w[1, 0]\n--optimize");
  TpLesson *l = good_lesson (text);
  TpChoices c = { .target = "loss", .observe = obs, .n_observe = 1,
                  .exact = true, .remat_auto = true, .direction = "q" };
  TP_AUTO_STRING *json = tp_lesson_to_json (l);

  tp_lesson_choices (l, &c);
  g_assert_true (c.optimize);
  g_assert_false (c.remat_auto);
  g_assert_cmpuint (c.n_remat, ==, 2);
  g_assert_cmpstr (c.remat[0], ==, "h1");
  g_assert_cmpstr (c.remat[1], ==, "h2");
  g_assert_cmpstr (c.direction, ==, "w[1, 0]");
  g_assert_cmpstr (c.target, ==, "loss");
  g_assert_true (c.observe == obs && c.n_observe == 1 && c.exact);
  g_assert_nonnull (strstr (json, ",\"choices\":{\"optimize\":true,\"remat\":"
                            "[\"h1\",\"h2\"],\"direction\":\"w[1, 0]\"},"));
  tp_lesson_free (l);
  g_free (text);

  text = lesson_with ("Some text.", "reads");
  l = good_lesson (text);
  c = (TpChoices) { .optimize = true, .remat_auto = true, .remat = obs,
                    .n_remat = 1, .direction = "q" };
  tp_lesson_choices (l, &c);
  g_assert_false (c.optimize || c.remat_auto);
  g_assert_cmpuint (c.n_remat, ==, 0);
  g_assert_cmpstr (c.direction, ==, "q");
  {
    TP_AUTO_STRING *plain = tp_lesson_to_json (l);
    g_assert_nonnull (strstr (plain, ",\"choices\":{\"optimize\":false,"
                              "\"remat\":null,\"direction\":null},"));
  }
  tp_lesson_free (l);
  g_free (text);

  text = lesson_with_choices ("reads", "--remat auto");
  l = good_lesson (text);
  tp_lesson_choices (l, &c);
  g_assert_true (c.remat_auto);
  {
    TP_AUTO_STRING *automatic = tp_lesson_to_json (l);
    g_assert_nonnull (strstr (automatic, "\"remat\":\"auto\""));
  }
  tp_lesson_free (l);
  g_free (text);
}

/* The engine's sentences of the new goals. */
static void
test_sentences (void)
{
  char *text = lesson_with_choices ("optimized removes at least 2\n"
                                    "fusion kernels at most 3\n"
                                    "fusion bytes 36\nforward agrees\n"
                                    "forward cheaper\nreverse cheaper\n"
                                    "remat saves at least 8\n",
                                    "--remat auto");
  TpLesson *l = good_lesson (text);
  size_t n;
  const TpLessonGoal *goals = tp_lesson_goals (l, &n);
  GString *out = g_string_new (NULL);

  for (size_t k = 0; k < n; k++)
    {
      g_assert_true (goals[k].engine_sentence);
      g_assert_cmpstr (tp_goal_kind_name (goals[k].kind), !=, NULL);
      g_string_append_printf (out, "%s\n", goals[k].sentence.source);
    }
  g_assert_cmpstr (out->str, ==,
                   "the optimizer removes at least 2 nodes\n"
                   "the fusion makes at most 3 kernels that compute\n"
                   "the fused kernels move 36 bytes\n"
                   "forward mode's tangent agrees with reverse mode's "
                   "gradients\n"
                   "forward mode computes the whole gradient with less work "
                   "than reverse mode\n"
                   "reverse mode computes the whole gradient with less work "
                   "than forward mode\n"
                   "rematerialising lowers the peak live volume by at least 8 "
                   "elements\n");
  g_assert_cmpint (goals[6].kind, ==, TP_GOAL_SAVES);
  g_assert_cmpstr (tp_goal_kind_name (TP_GOAL_SAVES), ==, "remat saves");
  g_assert_cmpstr (tp_goal_kind_name (TP_GOAL_FORWARD_CHEAPER), ==,
                   "forward cheaper");
  g_assert_null (tp_goal_kind_name (TP_N_GOAL_KINDS));
  g_string_free (out, TRUE);
  tp_lesson_free (l);
  g_free (text);
}

/* Each goal pays for its pass once, and grading again pays nothing. */
static void
test_cost (void)
{
  struct
  {
    const char *goals;
    TpComputation pays;
  } rows[] = {
    { "optimized removes 5\noptimized removes at least 1\n",
      TP_COMPUTED_OPTIMIZE },
    { "fusion kernels 3\nfusion bytes 36\n", TP_COMPUTED_FUSION },
    { "forward agrees\nforward cheaper\nreverse cheaper\n",
      TP_COMPUTED_FORWARD },
  };

  for (size_t k = 0; k < G_N_ELEMENTS (rows); k++)
    {
      char *text = lesson_with ("Some text.", rows[k].goals);
      TpLesson *l = good_lesson (text);
      TpSession *s = tp_test_compile (README, NULL, NULL, TP_STATUS_OK);
      for (int again = 0; again < 2; again++)
        {
          TpGrade *g = tp_lesson_grade (l, s, NULL, 0, 0);
          g_assert_nonnull (g);
          tp_grade_free (g);
          g_assert_cmpuint (tp_session_computed (s, rows[k].pays), ==, 1);
          for (size_t j = 0; j < G_N_ELEMENTS (rows); j++)
            if (j != k)
              g_assert_cmpuint (tp_session_computed (s, rows[j].pays), ==, 0);
          g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_CHECK), ==, 0);
          g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_JAX), ==, 0);
        }
      tp_session_free (s);
      tp_lesson_free (l);
      g_free (text);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/topos/lessons/passes/removes", test_removes);
  g_test_add_func ("/topos/lessons/passes/fusion", test_fusion);
  g_test_add_func ("/topos/lessons/passes/forward", test_forward);
  g_test_add_func ("/topos/lessons/passes/remat", test_remat);
  g_test_add_func ("/topos/lessons/passes/other-choices", test_other_choices);
  g_test_add_func ("/topos/lessons/passes/choices-seam", test_choices_seam);
  g_test_add_func ("/topos/lessons/passes/sentences", test_sentences);
  g_test_add_func ("/topos/lessons/passes/cost", test_cost);
  return g_test_run ();
}
