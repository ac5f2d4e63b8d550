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
  gboolean optimize;            /* the exact rewrites before the plan */
  char *direction;              /* forward mode's, NULL for the seeded one */
  char **remat;                 /* statements to rematerialise, or NULL */
  gboolean remat_auto;          /* the engine picks them */
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

/* A pass reading of generation @generation's compile (taken over), or
 * NULL when that compile is no longer the session's or was refused. */
typedef void (*TpReaderPassFunc) (GObject       *owner,
                                  int            generation,
                                  TpPass         which,
                                  TpPassReading *pass);

TpReader *tp_reader_new  (GObject           *owner,
                          TpReaderDoneFunc   done,
                          TpReaderTeachFunc  teach);
/* Where pass readings go (tp_reader_pass). */
void      tp_reader_set_pass_func (TpReader         *self,
                                   TpReaderPassFunc  pass);
void      tp_reader_push (TpReader         *self,
                          int               generation,
                          TpRead           *read);
/* Grades the session's last compile, generation @generation's, against
 * @read's lesson and answers (the student answered a question): no
 * compile.  Posted as teaching results with only the grade. */
void      tp_reader_grade (TpReader        *self,
                           int              generation,
                           TpRead          *read);
/* Copies pass reading @which out of the session's last compile, when
 * that is still generation @generation's (no newer read was pushed):
 * after the reads and teaching queued before it.  Posted to the pass
 * function, NULL when the compile is gone. */
void      tp_reader_pass (TpReader         *self,
                          int               generation,
                          TpPass            which);
void      tp_reader_free (TpReader         *self);

G_END_DECLS
