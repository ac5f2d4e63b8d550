/* tp-lesson-pane.c: the Lessons pane (see tp-lesson-pane.h).
 *
 * Everything the pane says about the lesson is the lesson's or the
 * engine's: the title, the text and the goals' sentences are the
 * engine's spans made markup with every character escaped
 * (tp_lesson_markup), what a goal found is the engine's sentence shown as
 * plain text, and which goals are met is the grade's.  The pane grades
 * nothing itself: it shows the document's newest grade and gives the
 * student's answers to the document, which has the session graded
 * again. */
#include "config.h"

#include <glib/gi18n.h>

#include "tp-lesson-pane.h"

typedef struct
{
  GtkWidget *row;
  char *markup;                 /* the sentence's, escaped */
  GtkLabel *sentence;           /* the mark, then the sentence */
  GtkLabel *found;
  GtkLabel *hint;
  GPtrArray *choices;           /* GtkCheckButton, a question's */
  int state;
} GoalRow;

struct _TpLessonPane
{
  GtkBox parent_instance;

  TpDocument *document;
  TpLessonRef *lesson;          /* the one the pane shows */
  GtkLabel *error_label;
  GtkLabel *place_label;
  GtkLabel *title_label;
  GtkWidget *text_box;
  GtkWidget *goals_box;
  GtkWidget *hints_box;
  GtkLabel *status_label;
  GtkButton *hint_button;
  GtkButton *train_button;
  GtkButton *next_lesson_button;
  GtkButton *previous_button;
  GtkButton *next_button;
  GtkButton *solution_button;
  GtkScrolledWindow *scrolled[2];   /* the text's and the goals' */
  GArray *goals;                /* GoalRow */
  guint hints_shown;
  int index;
  guint n;
  guint goal_hints : 1;         /* every hint shown: the goals' own too */
  guint finished : 1;
  guint updating : 1;
};

G_DEFINE_FINAL_TYPE (TpLessonPane, tp_lesson_pane, GTK_TYPE_BOX)

enum {
  NAVIGATE,
  SHOW_SOLUTION,
  FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
goal_row_clear (gpointer data)
{
  GoalRow *row = data;

  g_clear_pointer (&row->choices, g_ptr_array_unref);
  g_clear_pointer (&row->markup, g_free);
}

static GtkLabel *
text_label (const char *markup,
            const char *css_class)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_markup (GTK_LABEL (label), markup);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  /* a wrapping label asks for no more than this: the pane's width decides */
  gtk_label_set_max_width_chars (GTK_LABEL (label), 30);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_set_halign (label, GTK_ALIGN_FILL);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  return GTK_LABEL (label);
}

static GtkLabel *
message_label (const TpLessonText *text,
               const char         *css_class)
{
  g_autofree char *markup = tp_lesson_markup (text);

  return text_label (markup, css_class);
}

static void
remove_children (GtkWidget *box)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (box)) != NULL)
    gtk_box_remove (GTK_BOX (box), child);
}

/* {==== the text ====} */

static void add_blocks (GtkWidget *box, const TpLessonBlock *blocks, size_t n);

static GtkWidget *
code_block (const char *code,
            size_t      length)
{
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  gsize trimmed = length > 0 && code[length - 1] == '\n' ? length - 1 : length;
  g_autofree char *escaped = g_markup_escape_text (code, (gssize) trimmed);
  g_autofree char *markup = g_strconcat ("<tt>", escaped, "</tt>", NULL);
  GtkLabel *label = text_label (markup, "lesson-code");

  gtk_label_set_wrap (label, FALSE);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (label));
  gtk_widget_add_css_class (scrolled, "lesson-code-block");
  return scrolled;
}

static GtkWidget *
list_block (const TpLessonBlock *block)
{
  GtkWidget *list = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);

  for (size_t i = 0; i < block->n_items; i++)
    {
      GtkWidget *item = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *inner = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
      g_autofree char *number = block->ordered ? g_strdup_printf ("%u.", (guint) (block->first + i))
                                               : g_strdup ("•");
      GtkWidget *marker = gtk_label_new (number);

      gtk_widget_set_valign (marker, GTK_ALIGN_START);
      gtk_widget_set_hexpand (inner, TRUE);
      add_blocks (inner, block->items[i].blocks, block->items[i].n_blocks);
      gtk_box_append (GTK_BOX (item), marker);
      gtk_box_append (GTK_BOX (item), inner);
      gtk_box_append (GTK_BOX (list), item);
    }
  return list;
}

static void
add_blocks (GtkWidget           *box,
            const TpLessonBlock *blocks,
            size_t               n)
{
  for (size_t i = 0; i < n; i++)
    {
      const TpLessonBlock *block = &blocks[i];

      switch (block->kind)
        {
        case TP_BLOCK_PARAGRAPH:
          gtk_box_append (GTK_BOX (box), GTK_WIDGET (message_label (&block->text, NULL)));
          break;
        case TP_BLOCK_CODE:
          gtk_box_append (GTK_BOX (box), code_block (block->code, block->code_length));
          break;
        case TP_BLOCK_LIST:
          gtk_box_append (GTK_BOX (box), list_block (block));
          break;
        }
    }
}

/* {==== the goals ====} */

static void
choice_toggled_cb (GtkCheckButton *button,
                   TpLessonPane   *self)
{
  if (self->updating || !gtk_check_button_get_active (button) || self->document == NULL)
    return;
  tp_document_set_answer (self->document,
                          GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "question")),
                          GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "choice")));
}

static void
add_goal (TpLessonPane       *self,
          const TpLessonGoal *goal)
{
  GoalRow row = { 0 };
  GtkWidget *inner = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkCheckButton *group = NULL;

  row.row = inner;
  row.state = TP_GOAL_UNGRADED;
  row.markup = tp_lesson_markup (&goal->sentence);
  row.sentence = message_label (&goal->sentence, NULL);
  row.found = text_label ("", "dim-label");
  row.hint = text_label ("", "lesson-hint");
  gtk_widget_add_css_class (inner, "lesson-goal");
  gtk_box_append (GTK_BOX (inner), GTK_WIDGET (row.sentence));
  if (goal->kind == TP_GOAL_QUESTION)
    {
      int answer = self->document != NULL ? tp_document_get_answer (self->document, goal->question) : -1;

      row.choices = g_ptr_array_new ();
      for (size_t c = 0; c < goal->n_choices; c++)
        {
          GtkWidget *button = gtk_check_button_new ();

          gtk_check_button_set_child (GTK_CHECK_BUTTON (button),
                                      GTK_WIDGET (message_label (&goal->choices[c], NULL)));
          if (group != NULL)
            gtk_check_button_set_group (GTK_CHECK_BUTTON (button), group);
          else
            group = GTK_CHECK_BUTTON (button);
          gtk_check_button_set_active (GTK_CHECK_BUTTON (button), answer == (int) c);
          g_object_set_data (G_OBJECT (button), "question", GUINT_TO_POINTER (goal->question));
          g_object_set_data (G_OBJECT (button), "choice", GINT_TO_POINTER ((int) c));
          g_signal_connect (button, "toggled", G_CALLBACK (choice_toggled_cb), self);
          g_ptr_array_add (row.choices, button);
          gtk_box_append (GTK_BOX (inner), button);
        }
    }
  gtk_box_append (GTK_BOX (inner), GTK_WIDGET (row.found));
  gtk_box_append (GTK_BOX (inner), GTK_WIDGET (row.hint));
  gtk_widget_set_visible (GTK_WIDGET (row.found), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (row.hint), FALSE);
  gtk_box_append (GTK_BOX (self->goals_box), inner);
  g_array_append_val (self->goals, row);
}

/* The goal's sentence after its mark: the pane's own markup, then the
 * lesson's, escaped. */
static void
set_mark (GoalRow *row,
          int      state)
{
  static const char *const marks[] = {
    "<span foreground=\"#2ec27e\" weight=\"bold\">✓</span>",
    "<span foreground=\"#e01b24\" weight=\"bold\">✗</span>",
    "<span weight=\"bold\">…</span>",
  };
  const char *names[] = {
    /* Translators: a lesson's goal, for a screen reader */
    N_("met"), N_("not met"), N_("not graded yet"),
  };
  g_autofree char *markup = g_strconcat (marks[state], " ", row->markup, NULL);

  row->state = state;
  gtk_label_set_markup (row->sentence, markup);
  gtk_widget_set_tooltip_text (GTK_WIDGET (row->sentence), gettext (names[state]));
  gtk_accessible_update_property (GTK_ACCESSIBLE (row->sentence), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  gettext (names[state]), -1);
}

/* {==== showing a grade ====} */

static void
tp_lesson_pane_update_buttons (TpLessonPane *self)
{
  size_t n_hints = 0;

  if (self->lesson != NULL)
    tp_lesson_hints (tp_lesson_ref_get (self->lesson), &n_hints);
  gtk_widget_set_sensitive (GTK_WIDGET (self->previous_button), self->index > 0);
  gtk_widget_set_sensitive (GTK_WIDGET (self->next_button),
                            self->index >= 0 && (guint) self->index + 1 < self->n);
  gtk_widget_set_sensitive (GTK_WIDGET (self->solution_button), self->lesson != NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->hint_button),
                            self->lesson != NULL && (self->hints_shown < n_hints || !self->goal_hints));
  gtk_widget_set_visible (GTK_WIDGET (self->next_lesson_button),
                          self->finished && self->index >= 0 && (guint) self->index + 1 < self->n);
}

static void
tp_lesson_pane_show_grade (TpLessonPane *self)
{
  const TpGrade *grade = self->document != NULL ? tp_document_get_grade (self->document) : NULL;
  gboolean was_finished = self->finished;
  gboolean ungraded = FALSE;
  guint n = self->goals->len;

  self->finished = grade != NULL && tp_grade_all_met (grade);
  for (guint k = 0; k < n; k++)
    {
      GoalRow *row = &g_array_index (self->goals, GoalRow, k);
      TpGoalResult r = { .state = TP_GOAL_UNGRADED };

      if (grade != NULL)
        tp_grade_goal (grade, k, &r);
      set_mark (row, r.state);
      ungraded |= grade != NULL && r.state == TP_GOAL_UNGRADED;
      gtk_label_set_text (row->found, r.state != TP_GOAL_MET && r.found_length > 0 ? r.found : "");
      gtk_widget_set_visible (GTK_WIDGET (row->found), r.state != TP_GOAL_MET && r.found_length > 0);
      if (r.hint != NULL && self->goal_hints)
        {
          g_autofree char *hint = tp_lesson_markup (r.hint);

          gtk_label_set_markup (row->hint, hint);
        }
      gtk_widget_set_visible (GTK_WIDGET (row->hint), r.hint != NULL && self->goal_hints);
    }
  if (grade == NULL)
    gtk_label_set_text (self->status_label, "");
  else if (self->finished)
    gtk_label_set_text (self->status_label, _("Lesson finished: every goal is met."));
  else
    {
      /* Translators: the Lessons pane's count; %1$u goals of %2$u are met */
      g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%1$u of %2$u goal met",
                                                            "%1$u of %2$u goals met", n),
                                               (guint) tp_grade_met (grade), n);

      gtk_label_set_text (self->status_label, text);
    }
  gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), "success");
  if (self->finished)
    gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "success");
  gtk_widget_set_visible (GTK_WIDGET (self->train_button), ungraded);
  tp_lesson_pane_update_buttons (self);
  if (self->finished && !was_finished)
    g_signal_emit (self, signals[FINISHED], 0);
}

static void
tp_lesson_pane_show_hints (TpLessonPane *self)
{
  size_t n_hints = 0;
  const TpLessonText *hints = tp_lesson_hints (tp_lesson_ref_get (self->lesson), &n_hints);

  remove_children (self->hints_box);
  for (guint i = 0; i < self->hints_shown && i < n_hints; i++)
    gtk_box_append (GTK_BOX (self->hints_box), GTK_WIDGET (message_label (&hints[i], "lesson-hint")));
}

/* The document's lesson, shown from the start (its text, its goals). */
static void
tp_lesson_pane_show_lesson (TpLessonPane *self)
{
  TpLessonRef *lesson = self->document != NULL ? tp_document_get_lesson (self->document) : NULL;
  const TpLessonGoal *goals;
  const TpLessonBlock *blocks;
  size_t n = 0;

  g_clear_pointer (&self->lesson, tp_lesson_ref_unref);
  self->lesson = tp_lesson_ref_ref (lesson);
  g_array_set_size (self->goals, 0);
  remove_children (self->text_box);
  remove_children (self->goals_box);
  remove_children (self->hints_box);
  self->hints_shown = 0;
  self->goal_hints = FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (self->scrolled); i++)
    gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (self->scrolled[i]), 0);
  self->finished = FALSE;
  if (lesson == NULL)
    {
      gtk_label_set_text (self->title_label, _("No lesson"));
      tp_lesson_pane_update_buttons (self);
      return;
    }
  {
    g_autofree char *title = tp_lesson_markup (tp_lesson_title (tp_lesson_ref_get (lesson)));

    gtk_label_set_markup (self->title_label, title);
  }
  blocks = tp_lesson_text (tp_lesson_ref_get (lesson), &n);
  add_blocks (self->text_box, blocks, n);
  goals = tp_lesson_goals (tp_lesson_ref_get (lesson), &n);
  self->updating = TRUE;
  for (size_t k = 0; k < n; k++)
    add_goal (self, &goals[k]);
  self->updating = FALSE;
}

static void
tp_lesson_pane_grade_changed_cb (TpLessonPane *self)
{
  if (tp_document_get_lesson (self->document) != self->lesson)
    tp_lesson_pane_show_lesson (self);
  tp_lesson_pane_show_grade (self);
}

/* {==== buttons ====} */

static void
hint_clicked_cb (TpLessonPane *self)
{
  size_t n_hints = 0;

  tp_lesson_hints (tp_lesson_ref_get (self->lesson), &n_hints);
  if (self->hints_shown < n_hints)
    self->hints_shown++;
  else
    self->goal_hints = TRUE;
  tp_lesson_pane_show_hints (self);
  tp_lesson_pane_show_grade (self);
}

static void
previous_clicked_cb (TpLessonPane *self)
{
  g_signal_emit (self, signals[NAVIGATE], 0, -1);
}

static void
next_clicked_cb (TpLessonPane *self)
{
  g_signal_emit (self, signals[NAVIGATE], 0, 1);
}

static void
solution_clicked_cb (TpLessonPane *self)
{
  g_signal_emit (self, signals[SHOW_SOLUTION], 0);
}

static void
train_clicked_cb (TpLessonPane *self)
{
  tp_document_grade_training (self->document);
}

static GtkButton *
button_new (TpLessonPane *self,
            const char   *label,
            const char   *name,
            GCallback     callback)
{
  GtkWidget *button = gtk_button_new_with_mnemonic (label);

  gtk_widget_set_name (button, name);
  g_signal_connect_swapped (button, "clicked", callback, self);
  return GTK_BUTTON (button);
}

static GtkLabel *
heading (GtkWidget  *box,
         const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "lesson-heading");
  gtk_box_append (GTK_BOX (box), label);
  return GTK_LABEL (label);
}

/* {==== GObject ====} */

static void
tp_lesson_pane_dispose (GObject *object)
{
  TpLessonPane *self = TP_LESSON_PANE (object);

  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_clear_object (&self->document);
  g_clear_pointer (&self->lesson, tp_lesson_ref_unref);
  G_OBJECT_CLASS (tp_lesson_pane_parent_class)->dispose (object);
}

static void
tp_lesson_pane_finalize (GObject *object)
{
  TpLessonPane *self = TP_LESSON_PANE (object);

  g_array_unref (self->goals);
  G_OBJECT_CLASS (tp_lesson_pane_parent_class)->finalize (object);
}

static void
tp_lesson_pane_class_init (TpLessonPaneClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tp_lesson_pane_dispose;
  object_class->finalize = tp_lesson_pane_finalize;
  /* Previous (-1) or Next (1) */
  signals[NAVIGATE] = g_signal_new ("navigate", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                    0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT);
  signals[SHOW_SOLUTION] = g_signal_new ("show-solution", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                         0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* every goal met, newly */
  signals[FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                    0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "lessonpane");
  gtk_widget_class_set_accessible_role (GTK_WIDGET_CLASS (klass), GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
tp_lesson_pane_init (TpLessonPane *self)
{
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *content = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  GtkWidget *goals_scrolled = gtk_scrolled_window_new ();
  GtkWidget *goals = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *spacer = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);

  self->goals = g_array_new (FALSE, TRUE, sizeof (GoalRow));
  g_array_set_clear_func (self->goals, goal_row_clear);
  self->index = -1;
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_widget_add_css_class (GTK_WIDGET (self), "lesson-pane");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Lesson"), -1);

  self->error_label = text_label ("", "error");
  gtk_label_set_selectable (self->error_label, TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);
  gtk_widget_add_css_class (GTK_WIDGET (self->error_label), "lesson-error");
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->error_label));

  gtk_widget_add_css_class (content, "lesson-content");
  gtk_widget_add_css_class (goals, "lesson-content");
  self->place_label = text_label ("", "dim-label");
  self->title_label = text_label ("", "lesson-title");
  self->text_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  self->goals_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  self->hints_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  self->status_label = text_label ("", "lesson-status");
  gtk_box_append (GTK_BOX (content), GTK_WIDGET (self->place_label));
  gtk_box_append (GTK_BOX (content), GTK_WIDGET (self->title_label));
  gtk_box_append (GTK_BOX (content), self->text_box);
  /* Translators: the Lessons pane's headings */
  heading (content, _("Hints"));
  gtk_box_append (GTK_BOX (content), self->hints_box);
  self->hint_button = button_new (self, _("Show a _Hint"), "hint", G_CALLBACK (hint_clicked_cb));
  gtk_widget_set_halign (GTK_WIDGET (self->hint_button), GTK_ALIGN_START);
  gtk_box_append (GTK_BOX (content), GTK_WIDGET (self->hint_button));

  /* the goals below the text, in sight while the text scrolls */
  heading (goals, _("Goals"));
  gtk_box_append (GTK_BOX (goals), self->goals_box);
  gtk_box_append (GTK_BOX (goals), GTK_WIDGET (self->status_label));
  self->train_button = button_new (self, _("Train an_d Check"), "train",
                                   G_CALLBACK (train_clicked_cb));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->train_button),
                               _("Train the program with its settings and grade the training goals"));
  gtk_widget_set_visible (GTK_WIDGET (self->train_button), FALSE);
  gtk_widget_set_halign (GTK_WIDGET (self->train_button), GTK_ALIGN_START);
  gtk_box_append (GTK_BOX (goals), GTK_WIDGET (self->train_button));
  self->next_lesson_button = button_new (self, _("_Go to the Next Lesson"), "next-lesson",
                                         G_CALLBACK (next_clicked_cb));
  gtk_widget_add_css_class (GTK_WIDGET (self->next_lesson_button), "suggested-action");
  gtk_widget_set_halign (GTK_WIDGET (self->next_lesson_button), GTK_ALIGN_START);
  gtk_widget_set_visible (GTK_WIDGET (self->next_lesson_button), FALSE);
  gtk_box_append (GTK_BOX (goals), GTK_WIDGET (self->next_lesson_button));

  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), content);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (goals_scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (goals_scrolled), goals);
  gtk_widget_add_css_class (goals_scrolled, "lesson-goals");
  self->scrolled[0] = GTK_SCROLLED_WINDOW (scrolled);
  self->scrolled[1] = GTK_SCROLLED_WINDOW (goals_scrolled);
  gtk_paned_set_start_child (GTK_PANED (paned), scrolled);
  gtk_paned_set_end_child (GTK_PANED (paned), goals_scrolled);
  gtk_paned_set_shrink_start_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (paned), FALSE);
  gtk_widget_set_size_request (scrolled, -1, 120);
  gtk_widget_set_size_request (goals_scrolled, -1, 120);
  gtk_paned_set_position (GTK_PANED (paned), 300);
  gtk_widget_set_vexpand (paned, TRUE);
  gtk_box_append (GTK_BOX (self), paned);

  gtk_widget_add_css_class (bar, "lesson-bar");
  /* Translators: the Lessons pane's buttons */
  self->previous_button = button_new (self, _("Pre_vious"), "previous", G_CALLBACK (previous_clicked_cb));
  self->next_button = button_new (self, _("_Next"), "next", G_CALLBACK (next_clicked_cb));
  self->solution_button = button_new (self, _("Show Sol_ution…"), "solution", G_CALLBACK (solution_clicked_cb));
  gtk_widget_set_hexpand (spacer, TRUE);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->previous_button));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->next_button));
  gtk_box_append (GTK_BOX (bar), spacer);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->solution_button));
  gtk_box_append (GTK_BOX (self), bar);
  tp_lesson_pane_show_lesson (self);
}

GtkWidget *
tp_lesson_pane_new (void)
{
  return g_object_new (TP_TYPE_LESSON_PANE, NULL);
}

void
tp_lesson_pane_set_document (TpLessonPane *self,
                             TpDocument   *document)
{
  g_return_if_fail (TP_IS_LESSON_PANE (self));

  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_set_object (&self->document, document);
  if (document != NULL)
    g_signal_connect_swapped (document, "grade-changed", G_CALLBACK (tp_lesson_pane_grade_changed_cb), self);
  tp_lesson_pane_show_lesson (self);
  tp_lesson_pane_show_grade (self);
}

void
tp_lesson_pane_set_place (TpLessonPane *self,
                          int           index,
                          guint         n)
{
  g_return_if_fail (TP_IS_LESSON_PANE (self));

  self->index = index;
  self->n = n;
  if (index >= 0)
    {
      /* Translators: where a lesson is in the built-in course */
      g_autofree char *text = g_strdup_printf (_("Lesson %d of %u"), index + 1, n);

      gtk_label_set_text (self->place_label, text);
    }
  else
    gtk_label_set_text (self->place_label, _("A lesson from a file"));
  tp_lesson_pane_update_buttons (self);
}

void
tp_lesson_pane_set_error (TpLessonPane *self,
                          const char   *message)
{
  g_return_if_fail (TP_IS_LESSON_PANE (self));

  if (message != NULL)
    {
      /* Translators: a lesson that could not be read; %s is the engine's
       * "LINE:COLUMN: message" */
      g_autofree char *text = g_strdup_printf (_("This lesson cannot be read: %s"), message);

      gtk_label_set_text (self->error_label, text);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
}

gboolean
tp_lesson_pane_get_finished (TpLessonPane *self)
{
  g_return_val_if_fail (TP_IS_LESSON_PANE (self), FALSE);

  return self->finished;
}

GtkLabel *
tp_lesson_pane_get_title_label (TpLessonPane *self)
{
  return self->title_label;
}

GtkLabel *
tp_lesson_pane_get_error_label (TpLessonPane *self)
{
  return self->error_label;
}

GtkLabel *
tp_lesson_pane_get_status_label (TpLessonPane *self)
{
  return self->status_label;
}

GtkWidget *
tp_lesson_pane_get_text_box (TpLessonPane *self)
{
  return self->text_box;
}

GtkWidget *
tp_lesson_pane_get_hints_box (TpLessonPane *self)
{
  return self->hints_box;
}

GtkButton *
tp_lesson_pane_get_button (TpLessonPane *self,
                           const char   *name)
{
  GtkButton *buttons[] = {
    self->previous_button, self->next_button, self->solution_button,
    self->hint_button, self->train_button, self->next_lesson_button,
  };

  for (guint i = 0; i < G_N_ELEMENTS (buttons); i++)
    if (g_str_equal (gtk_widget_get_name (GTK_WIDGET (buttons[i])), name))
      return buttons[i];
  return NULL;
}

guint
tp_lesson_pane_get_n_goals (TpLessonPane *self)
{
  return self->goals->len;
}

int
tp_lesson_pane_get_goal_state (TpLessonPane *self,
                               guint         k)
{
  g_return_val_if_fail (k < self->goals->len, TP_GOAL_UNGRADED);

  return g_array_index (self->goals, GoalRow, k).state;
}

GtkLabel *
tp_lesson_pane_get_goal_label (TpLessonPane *self,
                               guint         k)
{
  g_return_val_if_fail (k < self->goals->len, NULL);

  return g_array_index (self->goals, GoalRow, k).sentence;
}

GtkCheckButton *
tp_lesson_pane_get_choice (TpLessonPane *self,
                           guint         k,
                           guint         c)
{
  GoalRow *row;

  g_return_val_if_fail (k < self->goals->len, NULL);
  row = &g_array_index (self->goals, GoalRow, k);
  if (row->choices == NULL || c >= row->choices->len)
    return NULL;
  return g_ptr_array_index (row->choices, c);
}
