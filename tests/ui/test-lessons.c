/* test-lessons.c: the Lessons pane as a student uses it, with real key
 * presses and clicks (XTest): lesson 1 opened with F8, its solution
 * typed key by key and every goal ticking, its question answered with a
 * radio button, Next and Previous, the solution behind its confirmation
 * (Escape keeps the program, Show Solution replaces it as one undoable
 * edit), the progress kept in GSettings, a lesson's passes applied to
 * the compile, and lessons from files: a hostile one whose markup shows
 * as text, a huge one and a malformed one refused with the engine's
 * message while the program stays.  What a goal's state is, is compared
 * with the engine's own grade of the same program.  Each case runs in a
 * subprocess of its own. */
#include "config.h"

#include <string.h>

#include "tp-document.h"
#include "tp-editor.h"
#include "tp-lesson-pane.h"
#include "tp-picture-raster.h"
#include "tp-ui-test-keys.h"
#include "tp-ui-test-util.h"
#include "tp-ui-test-window.h"
#include "tp-window.h"
#include "tp-window-private.h"

#define SUBPROCESS_TIMEOUT (120 * G_USEC_PER_SEC)

/* {==== helpers ====} */

static TpWindow *
window_focused (void)
{
  TpWindow *window = tp_test_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 780);
  g_assert_true (tp_test_focus_window (GTK_WINDOW (window)));
  return window;
}

static TpLessonPane *
pane_of (TpWindow *window)
{
  return tp_window_get_lesson_pane (window);
}

typedef struct
{
  TpWindow *window;
  guint goal;
  int state;
} GoalWait;

static gboolean
goal_is (gpointer data)
{
  GoalWait *w = data;
  TpLessonPane *pane = pane_of (w->window);

  return tp_document_get_grade (tp_window_get_document (w->window)) != NULL
         && w->goal < tp_lesson_pane_get_n_goals (pane)
         && tp_lesson_pane_get_goal_state (pane, w->goal) == w->state;
}

static void
wait_goal (TpWindow *window,
           guint     goal,
           int       state)
{
  GoalWait w = { window, goal, state };

  if (!tp_test_wait_until (goal_is, &w, 60))
    g_error ("goal %u is %d, not %d", goal, goal < tp_lesson_pane_get_n_goals (pane_of (window))
             ? tp_lesson_pane_get_goal_state (pane_of (window), goal) : -1, state);
}

static gboolean
graded (gpointer data)
{
  return tp_document_get_grade (tp_window_get_document (data)) != NULL;
}

/* The engine's grade of the document's text against its lesson, compiled
 * as the lesson says, with @answers. */
static TpGrade *
engine_grade (TpWindow      *window,
              const gint32  *answers,
              size_t         n_answers)
{
  TpDocument *document = tp_window_get_document (window);
  const TpLesson *lesson = tp_lesson_ref_get (tp_document_get_lesson (document));
  g_autofree char *source = tp_document_dup_text (document);
  TpSession *session = tp_session_new ();
  TpChoices choices = { 0 };
  TpGrade *grade;

  tp_lesson_choices (lesson, &choices);
  tp_session_compile (session, source, strlen (source), &choices);
  grade = tp_lesson_grade (lesson, session, answers, n_answers, TP_GRADE_NO_TRAINING);
  tp_session_free (session);
  return grade;
}

/* Every goal the pane shows is in the engine's state. */
static void
assert_pane_is_engine (TpWindow     *window,
                       const gint32 *answers,
                       size_t        n_answers)
{
  TpLessonPane *pane = pane_of (window);
  TpGrade *grade = engine_grade (window, answers, n_answers);

  g_assert_cmpuint (tp_lesson_pane_get_n_goals (pane), ==, tp_grade_n_goals (grade));
  for (guint k = 0; k < tp_grade_n_goals (grade); k++)
    {
      TpGoalResult r;

      g_assert_true (tp_grade_goal (grade, k, &r));
      g_assert_cmpint (tp_lesson_pane_get_goal_state (pane, k), ==, r.state);
    }
  tp_grade_free (grade);
}

static const char *
key_for (char c,
         char key[16])
{
  static const struct { char c; const char *name; } names[] = {
    { ' ', "space" }, { '=', "equal" }, { '*', "asterisk" }, { '\n', "Return" },
    { '.', "period" }, { '+', "plus" }, { '-', "minus" }, { '(', "parenleft" },
    { ')', "parenright" }, { ',', "comma" }, { '#', "numbersign" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (names[i].c == c)
      return names[i].name;
  g_snprintf (key, 16, "%c", c);
  return key;
}

/* Types @text into the editor, key by key. */
static void
type_text (TpWindow   *window,
           const char *text)
{
  gtk_widget_grab_focus (GTK_WIDGET (tp_editor_get_view (tp_window_get_editor (window))));
  for (const char *c = text; *c != '\0'; c++)
    {
      char key[16];

      tp_test_press (GTK_WIDGET (window), key_for (*c, key));
    }
}

static char *
lesson_title_text (guint index)
{
  g_autofree char *error = NULL;
  g_autoptr(TpLessonRef) lesson = tp_course_load (index, &error);
  const TpLessonText *title;

  g_assert_nonnull (lesson);
  title = tp_lesson_title (tp_lesson_ref_get (lesson));
  return g_strndup (title->source, title->source_length);
}

static gboolean
title_is (gpointer data)
{
  const char **pair = data;

  return g_strcmp0 (gtk_label_get_text (tp_lesson_pane_get_title_label (pane_of ((TpWindow *) pair[0]))),
                    pair[1]) == 0;
}

/* {==== a lesson walked ====} */

/* F8 opens lesson 1; its starting program fails goals; the solution's
 * line typed key by key ticks them, the question answered by a click
 * ticks the last, and the finished lesson says so, offers the next one
 * and is kept as finished. */
static void
lessons_walk (void)
{
  TpWindow *window = window_focused ();
  TpLessonPane *pane = pane_of (window);
  GSettings *settings = tp_settings_new ();
  TpDocument *document = tp_window_get_document (window);
  g_autofree char *title = lesson_title_text (0);
  g_auto(GStrv) finished = NULL;
  gint32 answers[1] = { 2 };

  g_assert_false (tp_window_get_lessons (window));
  tp_test_press (GTK_WIDGET (window), "F8");
  g_assert_true (tp_window_get_lessons (window));
  g_assert_cmpstr (gtk_label_get_text (tp_lesson_pane_get_title_label (pane)), ==, title);
  g_assert_true (tp_test_wait_until (graded, window, 60));
  /* reads, the question, square's value, six nodes */
  g_assert_cmpuint (tp_lesson_pane_get_n_goals (pane), ==, 4);
  wait_goal (window, 0, TP_GOAL_MET);
  wait_goal (window, 2, TP_GOAL_UNMET);
  assert_pane_is_engine (window, NULL, 0);
  g_assert_false (tp_lesson_pane_get_finished (pane));

  tp_test_press (GTK_WIDGET (window), "<Control>End");
  type_text (window, "square = y * y\n");
  wait_goal (window, 2, TP_GOAL_MET);
  wait_goal (window, 3, TP_GOAL_MET);
  assert_pane_is_engine (window, NULL, 0);
  g_assert_cmpint (tp_lesson_pane_get_goal_state (pane, 1), ==, TP_GOAL_UNMET);
  g_assert_false (tp_lesson_pane_get_finished (pane));

  /* the question: "3", the third choice, by a click */
  tp_test_click (GTK_WIDGET (tp_lesson_pane_get_choice (pane, 1, 2)), 8, 8);
  wait_goal (window, 1, TP_GOAL_MET);
  assert_pane_is_engine (window, answers, 1);
  g_assert_true (tp_lesson_pane_get_finished (pane));
  g_assert_cmpstr (gtk_label_get_text (tp_lesson_pane_get_status_label (pane)), ==,
                   "Lesson finished: every goal is met.");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (tp_lesson_pane_get_button (pane, "next-lesson"))));
  finished = g_settings_get_strv (settings, "lessons-finished");
  g_assert_true (g_strv_contains ((const char *const *) finished, "01-tape"));
  g_assert_cmpstr (g_settings_get_string (settings, "lesson-current"), ==, "01-tape");

  /* Next, by a click: lesson 2 with its own start, kept as current */
  {
    g_autofree char *second = lesson_title_text (1);
    const char *pair[2] = { (const char *) window, second };
    g_autofree char *text = NULL;
    size_t length = 0;

    tp_test_click (GTK_WIDGET (tp_lesson_pane_get_button (pane, "next-lesson")), 8, 8);
    g_assert_true (tp_test_wait_until (title_is, pair, 20));
    text = tp_document_dup_text (document);
    g_assert_cmpstr (text, ==, tp_lesson_start (tp_lesson_ref_get (tp_document_get_lesson (document)), &length));
    g_assert_cmpstr (g_settings_get_string (settings, "lesson-current"), ==, "02-accumulation");
    g_assert_false (tp_lesson_pane_get_finished (pane));
    g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (tp_lesson_pane_get_button (pane, "previous"))));
  }
  /* Previous: lesson 1 again, from its start, its goals graded afresh */
  {
    const char *pair[2] = { (const char *) window, title };

    tp_test_click (GTK_WIDGET (tp_lesson_pane_get_button (pane, "previous")), 8, 8);
    g_assert_true (tp_test_wait_until (title_is, pair, 20));
    wait_goal (window, 2, TP_GOAL_UNMET);
    g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (tp_lesson_pane_get_button (pane, "previous"))));
    g_assert_cmpstr (g_settings_get_string (settings, "lesson-current"), ==, "01-tape");
  }
  /* with the pane, the window still fits a 1280x720 projector */
  {
    int min_width = 0, min_height = 0;

    gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1, &min_width, NULL, NULL, NULL);
    gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_VERTICAL, min_width, &min_height, NULL, NULL, NULL);
    g_test_message ("the window with the Lessons pane: at least %dx%d", min_width, min_height);
    g_assert_cmpint (min_width, <=, 1280);
    g_assert_cmpint (min_height, <=, 720);
  }
  /* F8 hides the pane */
  tp_test_press (GTK_WIDGET (window), "F8");
  g_assert_false (tp_window_get_lessons (window));
  g_object_unref (settings);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* {==== the solution ====} */

static GtkWindow *
solution_dialog (void)
{
  g_autoptr(GList) windows = gtk_window_list_toplevels ();

  for (GList *l = windows; l != NULL; l = l->next)
    if (g_strcmp0 (gtk_widget_get_name (l->data), "lesson-solution-dialog") == 0
        && gtk_widget_get_mapped (l->data))
      return l->data;
  return NULL;
}

static gboolean
dialog_shown (gpointer data)
{
  return solution_dialog () != NULL && gtk_window_is_active (solution_dialog ());
}

static gboolean
dialog_gone (gpointer data)
{
  return solution_dialog () == NULL;
}

static gboolean
text_is (gpointer data)
{
  const char **pair = data;
  g_autofree char *text = tp_document_dup_text (tp_window_get_document ((TpWindow *) pair[0]));

  return g_strcmp0 (text, pair[1]) == 0;
}

/* Show Solution asks first: Escape keeps the program; Show Solution
 * replaces it, every goal but the question is met, and Ctrl+Z gives the
 * student's program back. */
static void
lessons_solution (void)
{
  TpWindow *window = window_focused ();
  TpLessonPane *pane = pane_of (window);
  TpDocument *document = tp_window_get_document (window);
  g_autofree char *start = NULL;
  const char *solution;
  size_t length = 0;

  tp_window_open_course_lesson (window, 0);
  g_assert_true (tp_test_wait_until (graded, window, 60));
  start = tp_document_dup_text (document);
  solution = tp_lesson_solution (tp_lesson_ref_get (tp_document_get_lesson (document)), &length);
  g_assert_cmpstr (start, !=, solution);

  tp_test_click (GTK_WIDGET (tp_lesson_pane_get_button (pane, "solution")), 8, 8);
  g_assert_true (tp_test_wait_until (dialog_shown, NULL, 20));
  tp_test_press (NULL, "Escape");
  g_assert_true (tp_test_wait_until (dialog_gone, NULL, 20));
  {
    g_autofree char *now = tp_document_dup_text (document);

    g_assert_cmpstr (now, ==, start);
  }

  tp_test_click (GTK_WIDGET (tp_lesson_pane_get_button (pane, "solution")), 8, 8);
  g_assert_true (tp_test_wait_until (dialog_shown, NULL, 20));
  {
    GtkWidget *button = gtk_dialog_get_widget_for_response (GTK_DIALOG (solution_dialog ()),
                                                            GTK_RESPONSE_ACCEPT);
    const char *pair[2] = { (const char *) window, solution };

    /* the button takes the keyboard, and a real Return presses it (a
     * click would outlive the dialog it closes) */
    gtk_widget_grab_focus (button);
    tp_test_press (NULL, "Return");
    g_assert_true (tp_test_wait_until (text_is, pair, 20));
  }
  g_assert_true (tp_test_focus_window (GTK_WINDOW (window)));
  wait_goal (window, 2, TP_GOAL_MET);
  wait_goal (window, 3, TP_GOAL_MET);
  g_assert_cmpint (tp_lesson_pane_get_goal_state (pane, 1), ==, TP_GOAL_UNMET);
  assert_pane_is_engine (window, NULL, 0);

  gtk_widget_grab_focus (GTK_WIDGET (tp_editor_get_view (tp_window_get_editor (window))));
  tp_test_press (GTK_WIDGET (window), "<Control>z");
  {
    const char *pair[2] = { (const char *) window, start };

    g_assert_true (tp_test_wait_until (text_is, pair, 20));
  }
  wait_goal (window, 2, TP_GOAL_UNMET);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* {==== progress and choices ====} */

static gboolean
place_is (gpointer data)
{
  const char **pair = data;

  return g_strcmp0 (gtk_label_get_text (tp_lesson_pane_get_title_label (pane_of ((TpWindow *) pair[0]))),
                    pair[1]) == 0;
}

/* A new window's F8 opens the lesson the settings keep as current; a
 * lesson's `## choices` (lesson 10: --optimize) are the compile's, so
 * its solution meets the optimiser's goal. */
static void
lessons_progress (void)
{
  GSettings *settings = tp_settings_new ();
  TpWindow *window;
  g_autofree char *title = lesson_title_text (9);
  const char *pair[2] = { NULL, title };
  TpDocument *document;
  size_t length = 0;
  const char *solution;

  g_assert_cmpint (tp_course_find ("10-rewrites"), ==, 9);
  g_settings_set_string (settings, "lesson-current", "10-rewrites");
  window = window_focused ();
  document = tp_window_get_document (window);
  pair[0] = (const char *) window;
  tp_test_press (GTK_WIDGET (window), "F8");
  g_assert_true (tp_test_wait_until (place_is, pair, 20));
  g_assert_true (tp_test_wait_until (graded, window, 60));

  solution = tp_lesson_solution (tp_lesson_ref_get (tp_document_get_lesson (document)), &length);
  tp_document_set_text (document, solution);
  {
    const TpLessonGoal *goals;
    size_t n = 0;
    gboolean removes = FALSE;

    goals = tp_lesson_goals (tp_lesson_ref_get (tp_document_get_lesson (document)), &n);
    for (size_t k = 0; k < n; k++)
      if (goals[k].kind == TP_GOAL_REMOVES)
        {
          removes = TRUE;
          wait_goal (window, (guint) k, TP_GOAL_MET);
        }
    g_assert_true (removes);
  }
  assert_pane_is_engine (window, NULL, 0);
  g_object_unref (settings);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Lesson 8's training goal waits, ungraded, as the student types; Train
 * and Check (a click) grades it, met for the solution. */
static void
lessons_training (void)
{
  TpWindow *window = window_focused ();
  TpLessonPane *pane = pane_of (window);
  TpDocument *document = tp_window_get_document (window);
  const TpLessonGoal *goals;
  size_t n = 0, length = 0;
  guint trains = G_MAXUINT;
  GtkWidget *button = GTK_WIDGET (tp_lesson_pane_get_button (pane, "train"));

  g_assert_cmpint (tp_course_find ("08-training"), ==, 7);
  tp_window_open_course_lesson (window, 7);
  g_assert_true (tp_test_wait_until (graded, window, 60));
  goals = tp_lesson_goals (tp_lesson_ref_get (tp_document_get_lesson (document)), &n);
  for (size_t k = 0; k < n; k++)
    if (goals[k].kind == TP_GOAL_TRAINS)
      trains = (guint) k;
  g_assert_cmpuint (trains, <, n);
  tp_document_set_text (document, tp_lesson_solution (tp_lesson_ref_get (tp_document_get_lesson (document)),
                                                      &length));
  wait_goal (window, trains, TP_GOAL_UNGRADED);
  g_assert_true (tp_test_wait_until (tp_test_window_mapped, button, 20));
  tp_test_click (button, 8, 8);
  wait_goal (window, trains, TP_GOAL_MET);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* {==== lessons from files ====} */

static const char hostile[] =
  "# <b>bold</b> &amp; <script>alert(1)</script>\n"
  "\n"
  "## text\n"
  "\n"
  "A <span foreground=\"red\">red</span> &amp; <b>x</b> <script>y</script>\n"
  "\n"
  "## start\n"
  "\n"
  "```tape\n"
  "w = parameter 1.0\n"
  "```\n"
  "\n"
  "## solution\n"
  "\n"
  "```tape\n"
  "w = parameter 1.0\n"
  "loss = w * w\n"
  "```\n"
  "\n"
  "## hints\n"
  "\n"
  "- <i>hint</i> &amp; <span foreground=\"blue\">blue</span>\n"
  "\n"
  "## goals\n"
  "\n"
  "reads\n"
  "  say: <b>reads</b> &lt;\n";

static GFile *
lesson_file (const char *name,
             const char *text,
             gsize       length)
{
  g_autofree char *path = g_build_filename (tp_test_state_dir, name, NULL);

  g_assert_true (g_file_set_contents (path, text, (gssize) length, NULL));
  return g_file_new_for_path (path);
}

/* A label shows @text as its characters, with no attribute from markup. */
static void
assert_plain (GtkLabel   *label,
              const char *text)
{
  PangoAttrList *attrs;

  g_assert_cmpstr (gtk_label_get_text (label), ==, text);
  attrs = pango_layout_get_attributes (gtk_label_get_layout (label));
  if (attrs != NULL)
    {
      g_autoptr(GSList) list = pango_attr_list_get_attributes (attrs);

      for (GSList *l = list; l != NULL; l = l->next)
        {
          PangoAttribute *a = l->data;

          g_assert_true (a->klass->type != PANGO_ATTR_WEIGHT && a->klass->type != PANGO_ATTR_FOREGROUND
                         && a->klass->type != PANGO_ATTR_STYLE);
        }
      g_slist_free_full (g_steal_pointer (&list), (GDestroyNotify) pango_attribute_destroy);
    }
}

static gboolean
has_lesson (gpointer data)
{
  return tp_document_get_lesson (tp_window_get_document (data)) != NULL;
}

static gboolean
error_shown (gpointer data)
{
  return gtk_widget_get_visible (GTK_WIDGET (tp_lesson_pane_get_error_label (pane_of (data))));
}

/* Markup in a lesson's title, text, hints and goals shows as the
 * characters the lesson wrote. */
static void
lessons_hostile (void)
{
  TpWindow *window = window_focused ();
  TpLessonPane *pane = pane_of (window);
  g_autoptr(GFile) file = lesson_file ("hostile.lesson", hostile, sizeof hostile - 1);
  GtkWidget *paragraph;

  tp_window_open_lesson_file (window, file);
  g_assert_true (tp_test_wait_until (has_lesson, window, 20));
  tp_test_settle (GTK_WIDGET (pane));
  assert_plain (tp_lesson_pane_get_title_label (pane), "<b>bold</b> &amp; <script>alert(1)</script>");
  paragraph = gtk_widget_get_first_child (tp_lesson_pane_get_text_box (pane));
  g_assert_true (GTK_IS_LABEL (paragraph));
  assert_plain (GTK_LABEL (paragraph), "A <span foreground=\"red\">red</span> &amp; <b>x</b> <script>y</script>");
  tp_test_click (GTK_WIDGET (tp_lesson_pane_get_button (pane, "hint")), 8, 8);
  paragraph = gtk_widget_get_first_child (tp_lesson_pane_get_hints_box (pane));
  g_assert_true (GTK_IS_LABEL (paragraph));
  assert_plain (GTK_LABEL (paragraph), "<i>hint</i> &amp; <span foreground=\"blue\">blue</span>");
  g_assert_true (tp_test_wait_until (graded, window, 60));
  wait_goal (window, 0, TP_GOAL_MET);
  /* the goal's label: the pane's mark, then the lesson's characters */
  g_assert_true (g_str_has_suffix (gtk_label_get_text (tp_lesson_pane_get_goal_label (pane, 0)),
                                   " <b>reads</b> &lt;"));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A huge lesson and a malformed one are refused with the engine's
 * "LINE:COLUMN: message"; the program and the lesson taken stay. */
static void
lessons_refused (void)
{
  TpWindow *window = window_focused ();
  TpLessonPane *pane = pane_of (window);
  TpDocument *document = tp_window_get_document (window);
  const char *program = "a = parameter 2.0\nb = a * a\n";
  gsize huge_length = (gsize) TP_LESSON_MAX_BYTES * 4;
  g_autofree char *huge = g_malloc (huge_length);
  const char *malformed = "# A lesson\n\n## text\n\nSome text.\n\n## nonsense\n";
  struct { const char *name; const char *text; gsize length; } cases[] = {
    { "huge.lesson", huge, huge_length },
    { "malformed.lesson", malformed, strlen (malformed) },
  };

  memset (huge, 'a', huge_length);
  memcpy (huge, "# Huge\n\n", 8);
  tp_document_set_text (document, program);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GFile) file = lesson_file (cases[i].name, cases[i].text, cases[i].length);
      /* what the engine says of the bytes the window reads (at most one
       * more than a lesson may hold) */
      TpLesson *lesson = tp_lesson_parse (cases[i].text, MIN (cases[i].length, TP_LESSON_MAX_BYTES + 1));
      const TpDiag *diag = tp_lesson_error (lesson);
      g_autofree char *expected = NULL;
      g_autofree char *text = NULL;

      g_assert_nonnull (diag);
      expected = g_strdup_printf ("This lesson cannot be read: %s:%u:%u: %s", cases[i].name,
                                  diag->line, diag->column, diag->message);
      tp_lesson_free (lesson);
      tp_lesson_pane_set_error (pane, NULL);
      tp_window_open_lesson_file (window, file);
      g_assert_true (tp_test_wait_until (error_shown, window, 20));
      g_assert_cmpstr (gtk_label_get_text (tp_lesson_pane_get_error_label (pane)), ==, expected);
      text = tp_document_dup_text (document);
      g_assert_cmpstr (text, ==, program);
      g_assert_null (tp_document_get_lesson (document));
    }
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A .lesson file dropped on the window opens as a lesson (the window's
 * drop handler, given the file list a drop gives). */
static void
lessons_drop (void)
{
  TpWindow *window = window_focused ();
  g_autoptr(GFile) file = lesson_file ("dropped.lesson", hostile, sizeof hostile - 1);
  GSList files = { file, NULL };
  GValue value = G_VALUE_INIT;
  g_autofree char *text = NULL;

  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_set_boxed (&value, &files);
  g_assert_true (_tp_window_drop_cb (NULL, &value, 10, 10, window));
  g_value_unset (&value);
  g_assert_true (tp_test_wait_until (has_lesson, window, 20));
  g_assert_true (tp_window_get_lessons (window));
  text = tp_document_dup_text (tp_window_get_document (window));
  g_assert_cmpstr (text, ==, "w = parameter 1.0\n");
  g_assert_cmpstr (gtk_label_get_text (tp_lesson_pane_get_title_label (pane_of (window))), ==,
                   "<b>bold</b> &amp; <script>alert(1)</script>");
  gtk_window_destroy (GTK_WINDOW (window));
}

typedef struct
{
  const char *path;
  void (*run) (void);
} LessonCase;

static const LessonCase cases[] = {
  { "/ui/lessons/walk", lessons_walk },
  { "/ui/lessons/solution", lessons_solution },
  { "/ui/lessons/progress", lessons_progress },
  { "/ui/lessons/training", lessons_training },
  { "/ui/lessons/hostile", lessons_hostile },
  { "/ui/lessons/refused", lessons_refused },
  { "/ui/lessons/drop", lessons_drop },
};

static void
run_case (gconstpointer data)
{
  const LessonCase *c = data;

  if (g_test_subprocess ())
    {
      c->run ();
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

int
main (int   argc,
      char *argv[])
{
  int status;

  tp_test_init (&argc, &argv);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_test_add_data_func (cases[i].path, &cases[i], run_case);
  status = g_test_run ();
  /* no raster thread may draw while the process exits */
  tp_picture_raster_wait_idle ();
  return status;
}
