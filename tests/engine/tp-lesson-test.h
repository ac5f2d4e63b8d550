/* tp-lesson-test.h: helpers of the lesson tests (test-lessons.c,
 * test-lesson-refusals.c): reading lessons, asserting a refusal whole, a
 * lesson around a text and a goals section, grading one, and the spans'
 * properties. */
#ifndef TP_LESSON_TEST_H
#define TP_LESSON_TEST_H

#include "tp-test-util.h"

static inline TpLesson *
read_lesson (const char *text)
{
  TpLesson *l = tp_lesson_parse (text, strlen (text));

  g_assert_nonnull (l);
  return l;
}

/* A lesson that reads; fails the test with its refusal otherwise. */
static inline TpLesson *
good_lesson (const char *text)
{
  TpLesson *l = read_lesson (text);
  const TpDiag *d = tp_lesson_error (l);

  if (d != NULL)
    g_error ("lesson refused: %u:%u: %s\n%s", d->line, d->column, d->message,
             text);
  return l;
}

static inline char *
refusal_of (const char *text, size_t len)
{
  TpLesson *l = tp_lesson_parse (text, len);
  const TpDiag *d;
  char *got;

  g_assert_nonnull (l);
  d = tp_lesson_error (l);
  if (d == NULL)
    g_printerr ("not refused:\n%.*s\n", (int) (len < 2000 ? len : 2000), text);
  g_assert_nonnull (d);
  g_assert_null (tp_lesson_title (l));
  got = g_strdup_printf ("%u:%u: %s", d->line, d->column, d->message);
  tp_lesson_free (l);
  return got;
}

static inline void
refused (const char *text, const char *expect)
{
  char *got = refusal_of (text, strlen (text));

  if (strcmp (got, expect) != 0)
    g_printerr ("lesson:\n%s\ngot: %s\n", text, got);
  g_assert_cmpstr (got, ==, expect);
  g_free (got);
}

/* A whole lesson around a text section and a goals section. */
static inline char *
lesson_with (const char *text, const char *goals)
{
  return g_strdup_printf ("# A lesson\n\n## text\n\n%s\n\n## start\n\n```\n"
                          "w = parameter 0.0\nloss = w * w\n```\n\n"
                          "## solution\n\n```\nw = parameter 1.0\n"
                          "loss = w * w\n```\n\n## goals\n\n%s\n",
                          text, goals);
}

static inline void
refused_text (const char *text, const char *expect)
{
  char *l = lesson_with (text, "reads");

  refused (l, expect);
  g_free (l);
}

static inline void
refused_goals (const char *goals, const char *expect)
{
  char *l = lesson_with ("Some text.", goals);

  refused (l, expect);
  g_free (l);
}

/* The line in lesson_with's lessons where the text section starts, and
 * where the goals start. */
#define TEXT_LINE 5
#define GOALS_LINE 23

/* The same with a `## choices` section after the goals (so the goals
 * start at GOALS_LINE still). */
static inline char *
lesson_with_choices (const char *goals, const char *choices)
{
  return g_strdup_printf ("# A lesson\n\n## text\n\nSome text.\n\n## start\n\n"
                          "```\nw = parameter 0.0\nloss = w * w\n```\n\n"
                          "## solution\n\n```\nw = parameter 1.0\n"
                          "loss = w * w\n```\n\n## goals\n\n%s\n\n"
                          "## choices\n\n%s\n", goals, choices);
}

/* Each goal's result as "met|unmet|ungraded: found", a line each, for
 * program compiled with the lesson's choices (as a front end does). */
static inline char *
graded (const char *lesson_text, const char *program, const int32_t *answers,
        size_t n_answers, uint32_t flags)
{
  TpLesson *l = good_lesson (lesson_text);
  TpSession *s = tp_session_new ();
  TpGrade *g;
  GString *out = g_string_new (NULL);
  static const char *const states[] = { "met", "unmet", "ungraded" };
  TpChoices choices = { 0 };

  tp_lesson_choices (l, &choices);
  tp_session_compile (s, program, strlen (program), &choices);
  g = tp_lesson_grade (l, s, answers, n_answers, flags);
  g_assert_nonnull (g);
  g_assert_cmpuint (tp_grade_n_goals (g), >, 0);
  for (size_t k = 0; k < tp_grade_n_goals (g); k++)
    {
      TpGoalResult r;
      g_assert_true (tp_grade_goal (g, k, &r));
      g_assert_cmpuint (strlen (r.found), ==, r.found_length);
      g_string_append_printf (out, "%s: %s\n", states[r.state], r.found);
      g_assert_true (r.hint == NULL || r.state == TP_GOAL_UNMET);
    }
  g_assert_false (tp_grade_goal (g, tp_grade_n_goals (g), &(TpGoalResult) { 0 }));
  tp_grade_free (g);
  tp_session_free (s);
  tp_lesson_free (l);
  return g_string_free (out, FALSE);
}

static inline void
grades (const char *goals, const char *program, const char *expect)
{
  char *l = lesson_with ("Some text.", goals);
  char *got = graded (l, program, NULL, 0, 0);

  g_assert_cmpstr (got, ==, expect);
  g_free (got);
  g_free (l);
}

/* The same for a lesson with choices. */
static inline void
grades_with (const char *choices, const char *goals, const char *program,
             const char *expect)
{
  char *l = lesson_with_choices (goals, choices);
  char *got = graded (l, program, NULL, 0, 0);

  if (strcmp (got, expect) != 0)
    g_printerr ("choices %s, goals:\n%s\ngot:\n%s", choices, goals, got);
  g_assert_cmpstr (got, ==, expect);
  g_free (got);
  g_free (l);
}

static inline char *
slurp (const char *path, size_t *len)
{
  char *text;
  GError *error = NULL;

  if (!g_file_get_contents (path, &text, len, &error))
    g_error ("%s", error->message);
  return text;
}

/* Every span of every message is plain text: valid UTF-8, no control
 * characters, a link's address http(s) and nothing else. */
static inline void
check_spans (const TpLessonText *t)
{
  g_assert_cmpuint (strlen (t->source), ==, t->source_length);
  for (size_t k = 0; k < t->n_spans; k++)
    {
      const TpSpan *s = &t->spans[k];
      g_assert_cmpuint (strlen (s->text), ==, s->length);
      g_assert_true (g_utf8_validate (s->text, (gssize) s->length, NULL));
      for (size_t i = 0; i < s->length; i++)
        g_assert_cmpint ((unsigned char) s->text[i], >=, 0x20);
      g_assert_true ((s->url != NULL) == (s->kind == TP_SPAN_LINK));
      if (s->url != NULL)
        g_assert_true (g_str_has_prefix (s->url, "https://")
                       || g_str_has_prefix (s->url, "http://"));
    }
}

static inline void
check_lesson_spans (const TpLesson *l)
{
  for (size_t k = 0; k < tp_lesson_n_messages (l); k++)
    check_spans (tp_lesson_message (l, k));
}

/* The one paragraph of a lesson's text, joined span by span as
 * "kind:text" pieces. */
static inline char *
paragraph_spans (const TpLesson *l)
{
  size_t n;
  const TpLessonBlock *b = tp_lesson_text (l, &n);
  GString *out = g_string_new (NULL);
  static const char *const kinds[] = { "text", "em", "code", "link" };

  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpint (b->kind, ==, TP_BLOCK_PARAGRAPH);
  for (size_t k = 0; k < b->text.n_spans; k++)
    {
      const TpSpan *s = &b->text.spans[k];
      g_string_append_printf (out, "%s%s:%s", k > 0 ? "|" : "", kinds[s->kind],
                              s->text);
      if (s->url != NULL)
        g_string_append_printf (out, "->%s", s->url);
    }
  return g_string_free (out, FALSE);
}

static inline void
spans_are (const char *text, const char *expect)
{
  char *lesson = lesson_with (text, "reads");
  TpLesson *l = good_lesson (lesson);
  char *got = paragraph_spans (l);

  check_lesson_spans (l);
  g_assert_cmpstr (got, ==, expect);
  g_free (got);
  tp_lesson_free (l);
  g_free (lesson);
}

#endif /* TP_LESSON_TEST_H */
