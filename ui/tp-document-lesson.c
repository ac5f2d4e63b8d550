/* tp-document-lesson.c: the lesson a document's program is graded
 * against (docs/lessons.md).  The lesson goes along with every read: the
 * reader compiles with its choices (tp_lesson_choices) and, after the
 * teaching results, grades the session it compiled, so a keystroke costs
 * no compile of its own.  An answer to a question grades that session
 * again (tp_reader_grade), no compile either. */
#include "config.h"

#include "tp-document-private.h"

enum {
  GRADE_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

void
_tp_document_lesson_class_init (GObjectClass *klass)
{
  /* a new grade, or none (a lesson set or left) */
  signals[GRADE_CHANGED] =
    g_signal_new ("grade-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

void
_tp_document_lesson_finalize (TpDocument *self)
{
  g_clear_pointer (&self->grade, tp_lesson_grade_free);
  g_clear_pointer (&self->lesson, tp_lesson_ref_unref);
  g_clear_pointer (&self->answers, g_array_unref);
}

static void
tp_document_lesson_fill (TpDocument *self,
                         TpRead     *read,
                         guint       flags)
{
  read->lesson = tp_lesson_ref_ref (self->lesson);
  if (self->answers != NULL && self->answers->len > 0)
    {
      read->answers = g_memdup2 (self->answers->data, self->answers->len * sizeof (gint32));
      read->n_answers = self->answers->len;
    }
  read->grade_flags = flags;
}

void
_tp_document_lesson_read (TpDocument *self,
                          TpRead     *read)
{
  if (self->lesson == NULL)
    return;
  /* the read a Train and Check waited for trains */
  tp_document_lesson_fill (self, read, self->train_pending ? 0 : TP_GRADE_NO_TRAINING);
  self->train_pending = FALSE;
}

void
_tp_document_take_grade (TpDocument    *self,
                         int            generation,
                         TpLessonGrade *grade)
{
  if (grade == NULL)
    return;
  if (generation != self->generation || grade->lesson != self->lesson)
    {
      tp_lesson_grade_free (grade);
      return;
    }
  g_clear_pointer (&self->grade, tp_lesson_grade_free);
  self->grade = grade;
  g_signal_emit (self, signals[GRADE_CHANGED], 0);
}

/* Grades the last compile again, with @flags: on this thread when
 * tp_document_recompute_now made it, else on the reader's.  A read still
 * to come takes the answers along anyway, and a training asked for
 * rides on it (the text it grades is the newer one). */
static void
tp_document_regrade (TpDocument *self,
                     guint       flags)
{
  TpRead read = { 0 };

  if (self->lesson == NULL)
    return;
  if (self->recompute_source != 0)
    {
      if ((flags & TP_GRADE_NO_TRAINING) == 0)
        self->train_pending = TRUE;
      return;
    }
  tp_document_lesson_fill (self, &read, flags);
  if (self->read_here)
    {
      _tp_document_take_grade (self, self->generation, tp_read_grade (&read, self->session));
      tp_read_clear (&read);
    }
  else
    tp_reader_grade (self->reader, self->generation, &read);
}

void
tp_document_set_lesson (TpDocument  *self,
                        TpLessonRef *lesson)
{
  g_return_if_fail (TP_IS_DOCUMENT (self));

  if (lesson == self->lesson)
    return;
  g_clear_pointer (&self->grade, tp_lesson_grade_free);
  g_clear_pointer (&self->lesson, tp_lesson_ref_unref);
  g_clear_pointer (&self->answers, g_array_unref);
  self->train_pending = FALSE;
  self->lesson = tp_lesson_ref_ref (lesson);
  if (lesson != NULL)
    {
      size_t n = tp_lesson_n_questions (tp_lesson_ref_get (lesson));
      gint32 none = -1;

      self->answers = g_array_new (FALSE, FALSE, sizeof (gint32));
      for (size_t q = 0; q < n; q++)
        g_array_append_val (self->answers, none);
    }
  g_signal_emit (self, signals[GRADE_CHANGED], 0);
  /* the lesson's choices are the compile's */
  _tp_document_queue_recompute (self, 0);
}

TpLessonRef *
tp_document_get_lesson (TpDocument *self)
{
  g_return_val_if_fail (TP_IS_DOCUMENT (self), NULL);

  return self->lesson;
}

void
tp_document_set_answer (TpDocument *self,
                        guint       question,
                        int         choice)
{
  g_return_if_fail (TP_IS_DOCUMENT (self));

  if (self->answers == NULL || question >= self->answers->len
      || g_array_index (self->answers, gint32, question) == choice)
    return;
  g_array_index (self->answers, gint32, question) = choice;
  tp_document_regrade (self, TP_GRADE_NO_TRAINING);
}

int
tp_document_get_answer (TpDocument *self,
                        guint       question)
{
  g_return_val_if_fail (TP_IS_DOCUMENT (self), -1);

  if (self->answers == NULL || question >= self->answers->len)
    return -1;
  return g_array_index (self->answers, gint32, question);
}

const TpGrade *
tp_document_get_grade (TpDocument *self)
{
  g_return_val_if_fail (TP_IS_DOCUMENT (self), NULL);

  return self->grade != NULL ? self->grade->grade : NULL;
}

void
tp_document_grade_training (TpDocument *self)
{
  g_return_if_fail (TP_IS_DOCUMENT (self));

  tp_document_regrade (self, 0);
}
