/* Lessons (docs/lessons.md): the course in resources/lessons (every
 * start fails a goal, every solution meets them all), each goal kind
 * graded, what grading costs, translation, the JSON, and allocation
 * failures.  The refusals and hostile lessons are test-lesson-refusals.c's. */
#include "tp-lesson-test.h"

#include <stdio.h>

/* ---- the course -------------------------------------------------------- */

/* Every goal's state for program (with the answers given). */
static size_t
met_goals (const TpLesson *l, const char *program, size_t len,
           const int32_t *answers, size_t n_answers, bool *all_met)
{
  TpSession *s = tp_session_new ();
  TpGrade *g;
  size_t met;
  TpChoices choices = { 0 };

  tp_lesson_choices (l, &choices);
  tp_session_compile (s, program, len, &choices);
  g = tp_lesson_grade (l, s, answers, n_answers, 0);
  g_assert_nonnull (g);
  met = tp_grade_met (g);
  *all_met = tp_grade_all_met (g);
  g_assert_cmpuint (met, <=, tp_grade_n_goals (g));
  g_assert_true (*all_met == (met == tp_grade_n_goals (g)));
  tp_grade_free (g);
  tp_session_free (s);
  return met;
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static void
test_course (void)
{
  char *dir = g_test_build_filename (G_TEST_DIST, "..", "resources",
                                     "lessons", NULL);
  GDir *d = g_dir_open (dir, 0, NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, ".lesson"))
      g_ptr_array_add (names, g_strdup (name));
  g_dir_close (d);
  g_ptr_array_sort (names, compare_names);
  /* 1 to 12 of the course, numbered in their names, in order */
  g_assert_cmpuint (names->len, >=, 12);
  for (guint k = 0; k < names->len; k++)
    {
      const char *n = g_ptr_array_index (names, k);
      char *path = g_build_filename (dir, n, NULL), *text, *prefix;
      size_t len, start_len, solution_len, n_goals, met;
      const char *start, *solution;
      TpLesson *l;
      int32_t answers[TP_LESSON_MAX_GOALS];
      size_t n_questions;
      bool all_met;
      const TpLessonGoal *goals;
      TpSession *s;

      prefix = g_strdup_printf ("%02u-", k + 1);
      g_assert_true (g_str_has_prefix (n, prefix));
      g_free (prefix);
      text = slurp (path, &len);
      l = good_lesson (text);
      g_assert_nonnull (tp_lesson_title (l));
      start = tp_lesson_start (l, &start_len);
      solution = tp_lesson_solution (l, &solution_len);
      g_assert_true (start_len != solution_len
                     || memcmp (start, solution, start_len) != 0);
      /* The solution reads; so does the start (a lesson's task is never
       * a typo). */
      s = tp_test_compile (solution, NULL, NULL, TP_STATUS_OK);
      tp_session_free (s);
      s = tp_test_compile (start, NULL, NULL, TP_STATUS_OK);
      tp_session_free (s);
      /* A lesson with choices grades only programs compiled with them:
       * its solution compiled without them meets no goal about it. */
      {
        TpChoices mine = { 0 }, none = { 0 };
        tp_lesson_choices (l, &mine);
        if (mine.optimize || mine.remat_auto || mine.n_remat > 0
            || mine.direction != NULL)
          {
            TpGrade *g;
            const TpLessonGoal *gs = tp_lesson_goals (l, &n_goals);
            s = tp_session_new ();
            tp_session_compile (s, solution, solution_len, &none);
            g = tp_lesson_grade (l, s, NULL, 0, 0);
            for (size_t j = 0; j < n_goals; j++)
              {
                TpGoalResult r;
                g_assert_true (tp_grade_goal (g, j, &r));
                if (gs[j].kind == TP_GOAL_QUESTION || gs[j].kind == TP_GOAL_READS)
                  continue;
                g_assert_cmpint (r.state, ==, TP_GOAL_UNMET);
                g_assert_true (g_str_has_prefix (r.found, "the lesson grades "
                                                 "its programs compiled with "));
              }
            tp_grade_free (g);
            tp_session_free (s);
          }
      }
      /* The start fails a goal, even with every question answered right:
       * the student has a program to change.  The solution with its
       * right answers meets every goal. */
      n_questions = tp_lesson_right_answers (l, answers, G_N_ELEMENTS (answers));
      met_goals (l, start, start_len, NULL, 0, &all_met);
      g_assert_false (all_met);
      met_goals (l, start, start_len, answers, n_questions, &all_met);
      g_assert_false (all_met);
      g_assert_cmpuint (n_questions, ==, tp_lesson_n_questions (l));
      met = met_goals (l, solution, solution_len, answers, n_questions,
                       &all_met);
      if (!all_met)
        g_error ("%s: the solution meets %zu goals, not all", n, met);
      /* Every goal of the course says what it asks, in words a translator
       * sees; each question has at least one hint-free wrong choice. */
      goals = tp_lesson_goals (l, &n_goals);
      g_assert_cmpuint (n_goals, >=, 2);
      for (size_t g = 0; g < n_goals; g++)
        g_assert_false (goals[g].engine_sentence);
      g_assert_cmpuint (tp_lesson_n_messages (l), >=, 2 * n_goals);
      /* The wrong answers fail the questions. */
      for (size_t q = 0; q < n_questions; q++)
        {
          int32_t wrong[TP_LESSON_MAX_GOALS];
          memcpy (wrong, answers, sizeof wrong);
          wrong[q] = answers[q] == 0 ? 1 : 0;
          met_goals (l, solution, solution_len, wrong, n_questions, &all_met);
          g_assert_false (all_met);
        }
      if (g_test_verbose ())
        g_printerr ("%s: start meets %zu of %zu goals\n", n,
                    met_goals (l, start, start_len, NULL, 0, &all_met),
                    n_goals);
      tp_lesson_free (l);
      g_free (text);
      g_free (path);
    }
  g_ptr_array_unref (names);
  g_free (dir);
}

/* ---- grading ----------------------------------------------------------- */

#define README "w = parameter 0.0\nx = input 2.0\ny = input 4.0\n" \
               "error = w * x - y\nloss = error * error\n"

static void
test_grade_goals (void)
{
  grades ("reads\nvalue loss = 16\nvalue loss = 15.9 within 0.2\n"
          "value loss = 15.9\nvalue error = -4\nvalue nothing = 1\n"
          "shape loss = []\nshape loss = [1]\n",
          README,
          "met: \n"
          "met: `loss` is 16\n"
          "met: `loss` is 16\n"
          "unmet: `loss` is 16\n"
          "met: `error` is -4\n"
          "unmet: there is no statement named `nothing`\n"
          "met: `loss` has shape []\n"
          "unmet: `loss` has shape []\n");
  grades ("value h = [[1, 2], [3, 4]]\nvalue h = [1, 2, 3, 4]\nvalue h = 2.5\n"
          "value g = 2.5\nvalue h = [[1, 2], [3, 4.5]] within 0.5\n"
          "shape h = [2, 2]\n",
          "h = leaf [[1, 2], [3, 4]]\ng = leaf [[2.5, 2.5]]\n",
          "met: `h` is [[1, 2], [3, 4]]\n"
          "unmet: `h` is [[1, 2], [3, 4]]\n"
          "unmet: `h` is [[1, 2], [3, 4]]\n"
          "met: `g` is [[2.5, 2.5]]\n"
          "met: `h` is [[1, 2], [3, 4]]\n"
          "met: `h` has shape [2, 2]\n");
  grades ("value n = NaN\nvalue i = inf\nvalue j = -inf\nvalue n = 0 within 1e9\n"
          "finite\nnonfinite at n\nnonfinite at i\n",
          "z = leaf 0.0\nn = z / z\ni = leaf 1e99\nj = -i\n",
          "met: `n` is NaN\nmet: `i` is inf\nmet: `j` is -inf\n"
          "unmet: `n` is NaN\n"
          "unmet: node 1 Div, in the statement `n`, is the first value that "
          "is not finite: NaN\n"
          "met: node 1 Div, in the statement `n`, is the first value that is "
          "not finite: NaN\n"
          "unmet: node 1 Div, in the statement `n`, is the first value that "
          "is not finite: NaN\n");
  /* The plan: the README keeps loss, frees error, and a value no result
   * needs is skipped. */
  grades ("plan keeps loss\nplan frees error\nplan skips report\n"
          "plan keeps error\nplan frees report\nplan skips loss\n",
          README "report = w + 0.0\nloss = error * error\n",
          "met: the plan keeps `loss`\n"
          "met: the plan frees `error` after node 11\n"
          "met: the plan does not evaluate `report`\n"
          "unmet: the plan frees `error` after node 11\n"
          "unmet: the plan does not evaluate `report`\n"
          "unmet: the plan keeps `loss`\n");
  grades ("derivative appends 17\nderivative appends at most 16\n"
          "derivative appends at least 17\nderivative uses Add\n"
          "derivative uses Step\nprogram uses Mul\nprogram uses Add\n"
          "program records 6\nprogram records at most 5\n"
          "peak 6\npeak at least 7\ncheck agrees\nfinite\n",
          README,
          "met: differentiate appends 17 nodes\n"
          "unmet: differentiate appends 17 nodes\n"
          "met: differentiate appends 17 nodes\n"
          "met: the derivative records `Add` first at node 10\n"
          "unmet: the derivative records no `Step` node\n"
          "met: the program records `Mul` first at node 3\n"
          "unmet: the program records no `Add` node\n"
          "met: the program records 6 nodes\n"
          "unmet: the program records 6 nodes\n"
          "met: the plan's peak live volume is 6 elements, at node 8 Mul\n"
          "unmet: the plan's peak live volume is 6 elements, at node 8 Mul\n"
          "met: all gradients agree with finite differences\n"
          "met: every value is finite\n");
  /* No derivative: what the derivative reading says. */
  grades ("derivative appends 0\nderivative uses Leaf\ncheck agrees\n",
          "x = input [2]\ny = x * x\n",
          "unmet: `y` has shape [2] and a gradient needs a rank-0 target: "
          "wrap it in `sum(...)`, or pick another target.\n"
          "unmet: `y` has shape [2] and a gradient needs a rank-0 target: "
          "wrap it in `sum(...)`, or pick another target.\n"
          "unmet: no derivative to check\n");
  /* The check catches f32 losing a share (resources/lessons/06). */
  grades ("check agrees\n",
          "w = parameter 1.0\nbig = leaf 100000000.0\n"
          "loss = w * big - w * big + w\n",
          "unmet: 1 gradient differs from finite differences\n");
  /* A refused program: `reads` says why, every goal on the program is
   * unmet, a question is still graded. */
  grades ("reads\nvalue loss = 16\ncheck agrees\nquestion: Which?\n"
          "  right: a\n  wrong: b\n",
          "w = parameter 0.0\nloss = w * ww\n",
          "unmet: 2:12: `ww` is not defined yet; did you mean `w`?\n"
          "unmet: the program does not read\n"
          "unmet: the program does not read\n"
          "unmet: not answered yet\n");
}

static void
test_grade_training (void)
{
  const char *lesson = "trains below 0.001\ntrains below 0.0000000001\nreads\n";
  char *text = lesson_with ("Some text.", lesson), *got;

  /* The README trains with the defaults (100 steps at 0.1): loss 16 to
   * nearly 0; training goals share one training. */
  got = graded (text, README, NULL, 0, 0);
  g_assert_cmpstr (got, ==,
                   "met: trained 100 steps: loss 16 to 0\n"
                   "met: trained 100 steps: loss 16 to 0\n"
                   "met: \n");
  g_free (got);
  got = graded (text, README "# train it: topos --train 3\n", NULL, 0, 0);
  g_assert_cmpstr (got, ==,
                   "unmet: trained 3 steps: loss 16 to 0.00102\n"
                   "unmet: trained 3 steps: loss 16 to 0.00102\n"
                   "met: \n");
  g_free (got);
  got = graded (text, README, NULL, 0, TP_GRADE_NO_TRAINING);
  g_assert_cmpstr (got, ==, "ungraded: \nungraded: \nmet: \n");
  g_free (got);
  got = graded (text, "x = input 2.0\nloss = x * x\n", NULL, 0, 0);
  g_assert_cmpstr (got, ==,
                   "unmet: there is nothing to train: there is no parameter "
                   "to differentiate with respect to: declare one with "
                   "`w = parameter [2, 2]`.\n"
                   "unmet: there is nothing to train: there is no parameter "
                   "to differentiate with respect to: declare one with "
                   "`w = parameter [2, 2]`.\n"
                   "met: \n");
  g_free (got);
  /* A training a NaN stops is not met. */
  got = graded (text, "w = parameter 1.0\nloss = ln(w - 2.0)\n", NULL, 0, 0);
  g_assert_true (g_str_has_prefix (got, "unmet: stopped at step 0 of 100"));
  g_free (got);
  g_free (text);
}

static void
test_grade_questions (void)
{
  char *text = lesson_with ("Some text.",
                            "question: First?\n  wrong: a\n  right: b\n"
                            "  hint: not a\nreads\n"
                            "question: Second?\n  about: plan\n  right: c\n"
                            "  wrong: d\n  wrong: e\n");
  TpLesson *l = good_lesson (text);
  int32_t answers[4];
  size_t n;
  const TpLessonGoal *goals = tp_lesson_goals (l, &n);
  char *got;

  g_assert_cmpuint (tp_lesson_n_questions (l), ==, 2);
  g_assert_cmpuint (goals[0].question, ==, 0);
  g_assert_cmpuint (goals[2].question, ==, 1);
  g_assert_cmpint (goals[0].about, ==, TP_N_READINGS);
  g_assert_cmpint (goals[2].about, ==, TP_READING_PLAN);
  g_assert_cmpuint (goals[2].n_choices, ==, 3);
  g_assert_cmpstr (goals[2].choices[2].source, ==, "e");
  g_assert_cmpstr (goals[0].sentence.source, ==, "First?");
  g_assert_false (goals[0].engine_sentence);
  g_assert_cmpuint (tp_lesson_right_answers (l, answers, 4), ==, 2);
  g_assert_cmpint (answers[0], ==, 1);
  g_assert_cmpint (answers[1], ==, 0);
  got = graded (text, README, answers, 2, 0);
  g_assert_cmpstr (got, ==, "met: \nmet: \nmet: \n");
  g_free (got);
  got = graded (text, README, (int32_t[]) { 0, 2 }, 2, 0);
  g_assert_cmpstr (got, ==, "unmet: that is not the answer\nmet: \n"
                   "unmet: that is not the answer\n");
  g_free (got);
  got = graded (text, README, (int32_t[]) { -1, 3 }, 2, 0);
  g_assert_cmpstr (got, ==, "unmet: not answered yet\nmet: \n"
                   "unmet: not answered yet\n");
  g_free (got);
  got = graded (text, README, (int32_t[]) { 1 }, 1, 0);
  g_assert_cmpstr (got, ==, "met: \nmet: \nunmet: not answered yet\n");
  g_free (got);
  {
    /* The hint of an unmet goal, none for a met one. */
    TpSession *s = tp_test_compile (README, NULL, NULL, TP_STATUS_OK);
    TpGrade *g = tp_lesson_grade (l, s, (int32_t[]) { 0 }, 1, 0);
    TpGoalResult r;
    g_assert_true (tp_grade_goal (g, 0, &r));
    g_assert_cmpint (r.state, ==, TP_GOAL_UNMET);
    g_assert_true (r.sentence == &goals[0].sentence);
    g_assert_true (r.hint == goals[0].hint);
    g_assert_cmpstr (r.hint->source, ==, "not a");
    g_assert_true (tp_grade_goal (g, 1, &r));
    g_assert_null (r.hint);
    g_assert_false (tp_grade_all_met (g));
    g_assert_cmpuint (tp_grade_met (g), ==, 1);
    tp_grade_free (g);
    g = tp_lesson_grade (l, s, answers, 2, 0);
    g_assert_true (tp_grade_goal (g, 0, &r));
    g_assert_null (r.hint);
    g_assert_true (tp_grade_all_met (g));
    tp_grade_free (g);
    tp_session_free (s);
  }
  tp_lesson_free (l);
  g_free (text);
}

/* The engine's own sentences, for goals without `say:`. */
static void
test_engine_sentences (void)
{
  char *text = lesson_with ("Some text.",
                            "reads\nvalue loss = 0 within 0.5\nshape h = [2, 3]\n"
                            "plan keeps loss\nplan frees error\nplan skips r\n"
                            "derivative appends at most 20\nderivative uses Add\n"
                            "program uses Tanh\nprogram records 6\n"
                            "check agrees\nfinite\nnonfinite at score\n"
                            "trains below 0.01\npeak at least 3\n");
  TpLesson *l = good_lesson (text);
  size_t n;
  const TpLessonGoal *goals = tp_lesson_goals (l, &n);
  GString *out = g_string_new (NULL);

  for (size_t k = 0; k < n; k++)
    {
      g_assert_true (goals[k].engine_sentence);
      g_assert_cmpuint (goals[k].line, ==, GOALS_LINE + k);
      g_string_append_printf (out, "%s: %s\n", goals[k].written,
                              goals[k].sentence.source);
    }
  g_assert_cmpstr (out->str, ==,
                   "reads: the program reads\n"
                   "value loss = 0 within 0.5: `loss` is 0 within 0.5\n"
                   "shape h = [2, 3]: `h` has shape [2, 3]\n"
                   "plan keeps loss: the plan keeps `loss` to the end\n"
                   "plan frees error: the plan frees `error` after its last "
                   "reader\n"
                   "plan skips r: the plan does not evaluate `r`\n"
                   "derivative appends at most 20: differentiate appends at "
                   "most 20 nodes\n"
                   "derivative uses Add: the derivative uses `Add`\n"
                   "program uses Tanh: the program uses `Tanh`\n"
                   "program records 6: the program records 6 nodes\n"
                   "check agrees: the gradient check agrees with finite "
                   "differences\n"
                   "finite: every value is finite\n"
                   "nonfinite at score: the first value that is not finite is "
                   "born in `score`\n"
                   "trains below 0.01: training with the program's settings "
                   "brings the target below 0.01\n"
                   "peak at least 3: the plan's peak live volume is at least 3 "
                   "elements\n");
  /* Only the lesson's own words are messages: the title and the text. */
  g_assert_cmpuint (tp_lesson_n_messages (l), ==, 2);
  g_string_free (out, TRUE);
  tp_lesson_free (l);
  g_free (text);
}

/* Grading pays for what the goals read, from the session the front end
 * compiled, and grading again pays nothing new. */
static void
test_grade_cost (void)
{
  char *cheap = lesson_with ("Some text.", "reads\nshape loss = []\n"
                             "derivative appends 17\nprogram uses Mul\n");
  char *values = lesson_with ("Some text.", "value loss = 16\nplan keeps loss\n");
  char *check = lesson_with ("Some text.", "check agrees\n");
  TpLesson *a = good_lesson (cheap), *b = good_lesson (values),
           *c = good_lesson (check);
  TpSession *s = tp_test_compile (README, NULL, NULL, TP_STATUS_OK);
  TpGrade *g;

  g = tp_lesson_grade (a, s, NULL, 0, 0);
  g_assert_true (tp_grade_all_met (g));
  tp_grade_free (g);
  for (int w = 0; w < TP_N_COMPUTATIONS; w++)
    g_assert_cmpuint (tp_session_computed (s, (TpComputation) w), ==, 0);
  g = tp_lesson_grade (b, s, NULL, 0, 0);
  g_assert_true (tp_grade_all_met (g));
  tp_grade_free (g);
  g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_INTERPRETER), ==, 1);
  g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_PLAN), ==, 1);
  g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_CHECK), ==, 0);
  g = tp_lesson_grade (b, s, NULL, 0, 0);
  tp_grade_free (g);
  g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_INTERPRETER), ==, 1);
  g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_PLAN), ==, 1);
  g = tp_lesson_grade (c, s, NULL, 0, 0);
  g_assert_true (tp_grade_all_met (g));
  tp_grade_free (g);
  g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_CHECK), ==, 1);
  g = tp_lesson_grade (c, s, NULL, 0, 0);
  tp_grade_free (g);
  g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_CHECK), ==, 1);
  tp_session_free (s);
  tp_lesson_free (a);
  tp_lesson_free (b);
  tp_lesson_free (c);
  g_free (cheap);
  g_free (values);
  g_free (check);
}

static bool
always (void *data)
{
  (void) data;
  return true;
}

/* An interrupted check leaves its goal ungraded, and says so. */
static void
test_grade_interrupted (void)
{
  char *text = lesson_with ("Some text.", "check agrees\nreads\n");
  TpLesson *l = good_lesson (text);
  TpSession *s = tp_test_compile (README, NULL, NULL, TP_STATUS_OK);
  TpGrade *g;
  TpGoalResult r;

  tp_session_set_interrupt (s, always, NULL);
  g = tp_lesson_grade (l, s, NULL, 0, 0);
  g_assert_nonnull (g);
  g_assert_true (tp_grade_interrupted (g));
  g_assert_true (tp_grade_goal (g, 0, &r));
  g_assert_cmpint (r.state, ==, TP_GOAL_UNGRADED);
  g_assert_true (tp_grade_goal (g, 1, &r));
  g_assert_cmpint (r.state, ==, TP_GOAL_MET);
  g_assert_false (tp_grade_all_met (g));
  tp_grade_free (g);
  tp_session_set_interrupt (s, NULL, NULL);
  g = tp_lesson_grade (l, s, NULL, 0, 0);
  g_assert_false (tp_grade_interrupted (g));
  g_assert_true (tp_grade_all_met (g));
  tp_grade_free (g);
  tp_session_free (s);
  tp_lesson_free (l);
  g_free (text);
}

/* ---- translation and JSON --------------------------------------------- */

static const char *
to_french (const char *msgid, void *data)
{
  static const char *const table[][2] = {
    { "A lesson", "Une *le\xc3\xa7on*" },
    { "Some `code` here.", "Du `code` ici." },
    { "The program reads.", "Le programme se lit." },
    { "Which one?", "Un *ouvert" },           /* refused: kept */
    { "b", "b\nb" },
  };

  (*(int *) data)++;
  for (size_t k = 0; k < G_N_ELEMENTS (table); k++)
    if (strcmp (msgid, table[k][0]) == 0)
      return table[k][1];
  return NULL;
}

static void
test_translate (void)
{
  char *text = lesson_with ("Some `code`\nhere.",
                            "reads\n  say: The program reads.\n"
                            "question: Which one?\n  right: a\n  wrong: b\n");
  TpLesson *l = good_lesson (text);
  const TpLessonText *title = tp_lesson_title (l);
  size_t n;
  const TpLessonBlock *b = tp_lesson_text (l, &n);
  const TpLessonGoal *goals = tp_lesson_goals (l, &n);
  GString *ids = g_string_new (NULL);
  int asked = 0;

  for (size_t k = 0; k < tp_lesson_n_messages (l); k++)
    g_string_append_printf (ids, "%u %s\n", tp_lesson_message (l, k)->line,
                            tp_lesson_message (l, k)->source);
  g_assert_cmpstr (ids->str, ==, "1 A lesson\n5 Some `code` here.\n"
                   "25 The program reads.\n26 Which one?\n27 a\n28 b\n");
  g_assert_null (tp_lesson_message (l, 6));
  g_assert_cmpint (tp_lesson_translate (l, to_french, &asked), ==, 1);
  g_assert_cmpint (asked, ==, 6);
  /* The same structs, new words, read by the same rules. */
  g_assert_true (title == tp_lesson_title (l));
  g_assert_cmpstr (title->source, ==, "Une *le\xc3\xa7on*");
  g_assert_cmpuint (title->n_spans, ==, 2);
  g_assert_cmpstr (title->spans[1].text, ==, "le\xc3\xa7on");
  g_assert_cmpint (title->spans[1].kind, ==, TP_SPAN_EMPHASIS);
  g_assert_cmpstr (b->text.source, ==, "Du `code` ici.");
  g_assert_cmpstr (goals[0].sentence.source, ==, "Le programme se lit.");
  g_assert_cmpstr (goals[1].sentence.source, ==, "Which one?");
  g_assert_cmpstr (goals[1].choices[1].source, ==, "b b");
  g_assert_cmpuint (goals[1].choices[1].line, ==, 28);
  check_lesson_spans (l);
  g_string_free (ids, TRUE);
  tp_lesson_free (l);
  g_free (text);
}

static const char *
to_markup (const char *msgid, void *data)
{
  (void) msgid, (void) data;
  return "<b onclick=\"x\">[a](javascript:x)</b>";
}

static const char *
to_html (const char *msgid, void *data)
{
  (void) msgid, (void) data;
  return "<script>alert(1)</script>";
}

static void
test_translate_hostile (void)
{
  char *text = lesson_with ("Some text.", "reads\n  say: ok\n");
  TpLesson *l = good_lesson (text);

  /* refused (a `javascript:` link): every message keeps its words */
  g_assert_cmpint (tp_lesson_translate (l, to_markup, NULL), ==, 3);
  g_assert_cmpstr (tp_lesson_title (l)->source, ==, "A lesson");
  g_assert_cmpint (tp_lesson_translate (l, to_html, NULL), ==, 0);
  g_assert_cmpstr (tp_lesson_title (l)->spans[0].text, ==,
                   "<script>alert(1)</script>");
  check_lesson_spans (l);
  tp_lesson_free (l);
  g_free (text);
}

static void
test_json (void)
{
  const char *text =
    "# T *e*\n\n## text\n\nA [l](https://a.org/) `c`.\n\n- i\n\n1. j\n\n"
    "```tape\nx\n```\n\n## start\n\n```\nw = parameter 0.0\n```\n\n"
    "## solution\n\n```\nw = parameter 1.0\n```\n\n## hints\n\n- h\n\n"
    "## goals\n\nvalue w = 1\n  say: S\n  hint: H\n"
    "question: Q?\n  about: plan\n  right: r\n  wrong: w\n";
  TpLesson *l = good_lesson (text);
  TP_AUTO_STRING *json = tp_lesson_to_json (l);
  TpSession *s = tp_test_compile ("w = parameter 0.0\n", NULL, NULL,
                                  TP_STATUS_OK);
  TpGrade *g = tp_lesson_grade (l, s, (int32_t[]) { 0 }, 1, 0);
  TP_AUTO_STRING *graded_json = tp_grade_to_json (g);

  g_assert_cmpstr (json, ==,
    "{\"title\":{\"line\":1,\"source\":\"T *e*\",\"spans\":[{\"kind\":\"text\","
    "\"text\":\"T \"},{\"kind\":\"emphasis\",\"text\":\"e\"}]},"
    "\"text\":[{\"kind\":\"paragraph\",\"text\":{\"line\":5,\"source\":"
    "\"A [l](https://a.org/) `c`.\",\"spans\":[{\"kind\":\"text\",\"text\":"
    "\"A \"},{\"kind\":\"link\",\"text\":\"l\",\"url\":\"https://a.org/\"},"
    "{\"kind\":\"text\",\"text\":\" \"},{\"kind\":\"code\",\"text\":\"c\"},"
    "{\"kind\":\"text\",\"text\":\".\"}]},\"line\":5},"
    "{\"kind\":\"list\",\"ordered\":false,\"first\":0,\"items\":[[{\"kind\":"
    "\"paragraph\",\"text\":{\"line\":7,\"source\":\"i\",\"spans\":[{\"kind\":"
    "\"text\",\"text\":\"i\"}]},\"line\":7}]],\"line\":7},"
    "{\"kind\":\"list\",\"ordered\":true,\"first\":1,\"items\":[[{\"kind\":"
    "\"paragraph\",\"text\":{\"line\":9,\"source\":\"j\",\"spans\":[{\"kind\":"
    "\"text\",\"text\":\"j\"}]},\"line\":9}]],\"line\":9},"
    "{\"kind\":\"code\",\"info\":\"tape\",\"code\":\"x\\n\",\"line\":11}],"
    "\"start\":\"w = parameter 0.0\\n\",\"solution\":\"w = parameter 1.0\\n\","
    "\"choices\":{\"optimize\":false,\"remat\":null,\"direction\":null},"
    "\"hints\":[{\"line\":29,\"source\":\"h\",\"spans\":[{\"kind\":\"text\","
    "\"text\":\"h\"}]}],"
    "\"goals\":[{\"kind\":\"value\",\"line\":33,\"written\":\"value w = 1\","
    "\"sentence\":{\"line\":34,\"source\":\"S\",\"spans\":[{\"kind\":\"text\","
    "\"text\":\"S\"}]},\"engine_sentence\":false,\"hint\":{\"line\":35,"
    "\"source\":\"H\",\"spans\":[{\"kind\":\"text\",\"text\":\"H\"}]},"
    "\"question\":null},"
    "{\"kind\":\"question\",\"line\":36,\"written\":\"question: Q?\","
    "\"sentence\":{\"line\":36,\"source\":\"Q?\",\"spans\":[{\"kind\":\"text\","
    "\"text\":\"Q?\"}]},\"engine_sentence\":false,\"hint\":null,"
    "\"question\":{\"number\":0,\"about\":\"plan\",\"choices\":[{\"line\":38,"
    "\"source\":\"r\",\"spans\":[{\"kind\":\"text\",\"text\":\"r\"}]},"
    "{\"line\":39,\"source\":\"w\",\"spans\":[{\"kind\":\"text\",\"text\":"
    "\"w\"}]}]}}],\"questions\":1}\n");
  g_assert_cmpstr (graded_json, ==,
    "{\"all_met\":false,\"met\":1,\"interrupted\":false,\"goals\":["
    "{\"state\":\"unmet\",\"found\":\"`w` is 0\"},"
    "{\"state\":\"met\",\"found\":\"\"}]}\n");
  tp_grade_free (g);
  tp_session_free (s);
  tp_lesson_free (l);
  {
    TpLesson *bad = read_lesson ("# T\n## nope\n");
    TP_AUTO_STRING *err = tp_lesson_to_json (bad);
    g_assert_cmpstr (err, ==, "{\"error\":{\"line\":2,\"column\":4,"
                     "\"message\":\"no section is called `nope`: the sections "
                     "are text, start, solution, hints, choices and goals\"}}\n");
    tp_lesson_free (bad);
  }
}

/* ---- allocation failures ---------------------------------------------- */

static struct
{
  long countdown;       /* allocations left before one fails; -1 never */
  long live;
} mem;

static void *
failing_malloc (size_t size)
{
  void *p;

  if (mem.countdown == 0)
    {
      mem.countdown = -1;
      return NULL;
    }
  if (mem.countdown > 0)
    mem.countdown--;
  p = malloc (size);
  if (p != NULL)
    mem.live++;
  return p;
}

static void *
failing_realloc (void *ptr, size_t size)
{
  if (mem.countdown == 0)
    {
      mem.countdown = -1;
      return NULL;
    }
  if (mem.countdown > 0)
    mem.countdown--;
  if (ptr == NULL)
    mem.live++;
  return realloc (ptr, size);
}

static void
failing_free (void *ptr)
{
  if (ptr != NULL)
    mem.live--;
  free (ptr);
}

static const TpAllocator failing = { failing_malloc, failing_realloc,
                                     failing_free };

static const char *
upper_title (const char *msgid, void *data)
{
  (void) data;
  return strcmp (msgid, "One share at a time") == 0 ? "ONE SHARE" : NULL;
}

/* Failing the Nth allocation gives NULL or the lesson itself, and leaks
 * nothing; so do translating and the JSON. */
static void
test_alloc (void)
{
  char *path = g_test_build_filename (G_TEST_DIST, "..", "resources",
                                      "lessons", "02-accumulation.lesson",
                                      NULL);
  size_t len;
  char *text = slurp (path, &len);
  TpLesson *whole = tp_lesson_parse (text, len);
  TP_AUTO_STRING *want = tp_lesson_to_json (whole);
  bool done = false;
  long n;

  g_assert_null (tp_lesson_error (whole));
  for (n = 0; !done; n++)
    {
      TpLesson *l;
      char *json;
      long kept;

      mem.countdown = n;
      mem.live = 0;
      l = tp_lesson_parse_with_allocator (text, len, &failing);
      if (l == NULL)
        {
          g_assert_cmpint (mem.live, ==, 0);
          continue;
        }
      json = tp_lesson_to_json (l);
      if (json != NULL)
        g_assert_cmpstr (json, ==, want);
      tp_string_free (json);
      kept = tp_lesson_translate (l, upper_title, NULL);
      g_assert_true (kept == 0 || kept == -1);
      g_assert_cmpstr (tp_lesson_title (l)->source, ==,
                       kept == 0 ? "ONE SHARE" : "One share at a time");
      done = mem.countdown >= 0;
      tp_lesson_free (l);
      g_assert_cmpint (mem.live, ==, 0);
    }
  /* every allocation failed once: the arena's chunks, the JSON's buffer,
   * the translation's arrays */
  g_assert_cmpint (n, >, 10);
  mem.countdown = -1;
  tp_lesson_free (whole);
  g_free (text);
  g_free (path);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/topos/lessons/course", test_course);
  g_test_add_func ("/topos/lessons/grade/goals", test_grade_goals);
  g_test_add_func ("/topos/lessons/grade/training", test_grade_training);
  g_test_add_func ("/topos/lessons/grade/questions", test_grade_questions);
  g_test_add_func ("/topos/lessons/grade/cost", test_grade_cost);
  g_test_add_func ("/topos/lessons/grade/interrupted", test_grade_interrupted);
  g_test_add_func ("/topos/lessons/engine-sentences", test_engine_sentences);
  g_test_add_func ("/topos/lessons/translate", test_translate);
  g_test_add_func ("/topos/lessons/translate-hostile", test_translate_hostile);
  g_test_add_func ("/topos/lessons/json", test_json);
  g_test_add_func ("/topos/lessons/alloc", test_alloc);
  return g_test_run ();
}
