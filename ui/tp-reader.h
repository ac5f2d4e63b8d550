/* tp-reader.h: reading a program off the main thread.
 *
 * A TpRead is one read: the text and the choices going in, the readings
 * (tp-readings.h) or the first diagnostic coming out.  A TpReader is the
 * worker thread that runs them, one at a time, with an engine session of
 * its own, and hands each result back to the main context of the thread
 * that made it.  A read asked for under a generation that is no longer
 * the newest is skipped, queued or done: the owner only ever sees the
 * results of the newest. */
#pragma once

#include <glib-object.h>

#include "tp-engine.h"
#include "tp-lesson.h"
#include "tp-readings.h"

G_BEGIN_DECLS

typedef struct
{
  /* what to read */
  char *source;
  gsize length;
  char *target;
  char *observe;
  gboolean exact;
  /* the lesson being taken, or NULL: its choices are the compile's, and
   * the session is graded against it after the teaching results, with
   * the student's answers (tp_lesson_grade) */
  TpLessonRef *lesson;
  gint32 *answers;
  guint n_answers;
  guint grade_flags;

  /* what came out */
  TpStatus status;
  TpReadings *readings;         /* when status is TP_STATUS_OK */
  guint line;                   /* else the first diagnostic */
  guint column;
  char *message;
} TpRead;

void tp_read_run   (TpRead    *read,
                    TpSession *session);
/* The teaching results of the program @session last read, made on the
 * calling thread (the document's tp_document_recompute_now). */
void tp_read_teach (TpSession   *session,
                    TpTeaching **teaching,
                    TpChecked  **checked);
/* @read's lesson's grade of the program @session last read, or NULL. */
TpLessonGrade *tp_read_grade (TpRead    *read,
                              TpSession *session);
void tp_read_clear (TpRead    *read);

typedef struct _TpReader TpReader;

/* A read is done: @read is the reader's until the function returns. */
typedef void (*TpReaderDoneFunc) (GObject *owner,
                                  int      generation,
                                  TpRead  *read);

/* A read's teaching results and its lesson's grade: any may be NULL
 * (stopped by a newer read, or none).  Taken over. */
typedef void (*TpReaderTeachFunc) (GObject       *owner,
                                   int            generation,
                                   TpTeaching    *teaching,
                                   TpChecked     *checked,
                                   TpLessonGrade *grade);

TpReader *tp_reader_new  (GObject           *owner,
                          TpReaderDoneFunc   done,
                          TpReaderTeachFunc  teach);
void      tp_reader_push (TpReader         *self,
                          int               generation,
                          TpRead           *read);
/* Grades the session's last compile, generation @generation's, against
 * @read's lesson and answers (the student answered a question): no
 * compile.  Posted as teaching results with only the grade. */
void      tp_reader_grade (TpReader        *self,
                           int              generation,
                           TpRead          *read);
void      tp_reader_free (TpReader         *self);

G_END_DECLS
