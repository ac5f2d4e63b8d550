/* tp-document-private.h: the document's instance, shared by
 * tp-document.c (the text, the choices, the readings),
 * tp-document-drafts.c (the drafts), tp-document-files.c (loading and
 * saving) and tp-document-lesson.c (the lesson and its grade). */
#pragma once

#include "tp-document.h"
#include "tp-reader.h"

G_BEGIN_DECLS

struct _TpDocument
{
  GObject parent_instance;

  /* Owned references */
  GtkSourceBuffer *buffer;
  TpReadings *readings;         /* the last good readings, or NULL */
  TpSession *session;           /* for tp_document_recompute_now */
  TpReader *reader;             /* the worker thread */
  GFile *file;
  char *target;
  char *observe;
  char *diagnostic;             /* "line:column: message", or NULL */
  TpDrafts *drafts;             /* the application's, or NULL */
  char *draft_id;
  char *comment;                /* the text's first comment, or NULL */
  TpLessonRef *lesson;          /* the lesson being taken, or NULL */
  GArray *answers;              /* gint32 per question, -1 unanswered */
  TpLessonGrade *grade;         /* the newest grade of the lesson */
  char *direction;              /* forward mode's, or NULL: seeded */
  char **remat;                 /* the statements rematerialised, or NULL */
  int pass_asked[TP_N_PASSES];  /* the generation each pass was asked of */

  guint diag_line;
  guint diag_column;
  int selected_node;
  int generation;               /* bumped by every change */
  int applied;                  /* the generation of the last result */
  guint text_serial;            /* bumped by every text change */
  guint readings_serial;        /* the text_serial the readings are of */
  int readings_generation;      /* the generation the readings are of */
  guint asked_serial;           /* the text_serial of the newest read asked */
  guint recompute_source;
  guint recompute_delay;        /* ms; TP_RECOMPUTE_DELAY_MS */
  guint draft_source;
  guint exact : 1;
  guint optimize : 1;
  guint remat_auto : 1;
  guint pass_asking : TP_N_PASSES;  /* a pass reading on its way */
  guint stale : 1;
  guint loading : 1;
  guint read_here : 1;          /* the last read was tp_document_recompute_now's */
  guint train_pending : 1;      /* Train and Check asked while a read was queued */
};

/* Something the readings depend on changed: read again after
 * @delay_ms (0 for the next idle). */
void _tp_document_queue_recompute (TpDocument *self,
                                   guint       delay_ms);

/* tp-document-drafts.c: writes a draft, a second after the last change */
void _tp_document_draft_cb (gpointer data);

/* tp-document-lesson.c */
void _tp_document_lesson_class_init (GObjectClass  *klass);
void _tp_document_lesson_finalize   (TpDocument    *self);
/* The lesson, answers and grading flags a read takes along. */
void _tp_document_lesson_read       (TpDocument    *self,
                                     TpRead        *read);
/* A grade of generation @generation (taken over; NULL: none came). */
void _tp_document_take_grade        (TpDocument    *self,
                                     int            generation,
                                     TpLessonGrade *grade);

/* tp-document-passes.c */
void _tp_document_passes_class_init (GObjectClass *klass);
void _tp_document_passes_init       (TpDocument   *self);

G_END_DECLS
