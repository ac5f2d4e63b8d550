/* tp-lesson-pane.h: the Lessons pane beside the editor: a lesson's title
 * and text (the engine's blocks and spans, every character escaped), its
 * goals ticked by each grade the document gets (tp-document.h), its
 * questions answered with radio buttons, hints one at a time, Previous
 * and Next, and the solution behind a confirmation. */
#pragma once

#include <gtk/gtk.h>

#include "tp-document.h"

G_BEGIN_DECLS

#define TP_TYPE_LESSON_PANE (tp_lesson_pane_get_type ())

G_DECLARE_FINAL_TYPE (TpLessonPane, tp_lesson_pane, TP, LESSON_PANE, GtkBox)

GtkWidget *tp_lesson_pane_new              (void);
void       tp_lesson_pane_set_document     (TpLessonPane *self,
                                            TpDocument   *document);
/* Where the document's lesson is in the course (@index of @n), or -1 for
 * a lesson from a file; what Previous and Next can do. */
void       tp_lesson_pane_set_place        (TpLessonPane *self,
                                            int           index,
                                            guint         n);
/* A refused lesson's message ("LINE:COLUMN: message"), shown over the
 * lesson, or NULL. */
void       tp_lesson_pane_set_error        (TpLessonPane *self,
                                            const char   *message);
/* Whether the newest grade meets every goal. */
gboolean   tp_lesson_pane_get_finished     (TpLessonPane *self);

/* For tests */
GtkLabel  *tp_lesson_pane_get_title_label  (TpLessonPane *self);
GtkLabel  *tp_lesson_pane_get_error_label  (TpLessonPane *self);
GtkLabel  *tp_lesson_pane_get_status_label (TpLessonPane *self);
GtkWidget *tp_lesson_pane_get_text_box     (TpLessonPane *self);
GtkWidget *tp_lesson_pane_get_hints_box    (TpLessonPane *self);
GtkButton *tp_lesson_pane_get_button       (TpLessonPane *self,
                                            const char   *name);
guint      tp_lesson_pane_get_n_goals      (TpLessonPane *self);
/* Goal @k's state (a TpGoalState; TP_GOAL_UNGRADED before a grade), its
 * sentence's label and a question's choice @c. */
int        tp_lesson_pane_get_goal_state   (TpLessonPane *self,
                                            guint         k);
GtkLabel  *tp_lesson_pane_get_goal_label   (TpLessonPane *self,
                                            guint         k);
GtkCheckButton *tp_lesson_pane_get_choice  (TpLessonPane *self,
                                            guint         k,
                                            guint         c);

G_END_DECLS
