/* tp-lesson.h: a lesson (docs/lessons.md) as the desktop holds it.
 *
 * A TpLessonRef is a lesson the engine read (tp_lesson_parse), shared by
 * reference between the main thread and the reader thread, which grades
 * the session it compiled against it (tp-reader.h).  The built-in
 * course is the resources' lessons/ folder, in the order of its file
 * names, its messages translated (tp_lesson_translate with the
 * desktop's catalogue); a lesson from a file is shown as written.
 * tp_lesson_markup turns a message's spans into Pango markup in which
 * every character the lesson wrote is escaped: markup a lesson holds
 * shows as the characters it is. */
#pragma once

#include <gio/gio.h>

#include "tp-engine.h"

G_BEGIN_DECLS

typedef struct _TpLessonRef TpLessonRef;

/* Reads @bytes (translated when @translate).  NULL with *@error set to
 * the engine's "LINE:COLUMN: message" when the lesson is refused. */
TpLessonRef    *tp_lesson_ref_new     (GBytes       *bytes,
                                       gboolean      translate,
                                       char        **error);
TpLessonRef    *tp_lesson_ref_ref     (TpLessonRef  *self);
void            tp_lesson_ref_unref   (TpLessonRef  *self);
const TpLesson *tp_lesson_ref_get     (TpLessonRef  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TpLessonRef, tp_lesson_ref_unref)

/* The built-in course: its lessons' ids ("01-tape"), in order. */
guint           tp_course_n_lessons   (void);
const char     *tp_course_id          (guint         k);
/* The index of @id in the course, or -1. */
int             tp_course_find        (const char   *id);
TpLessonRef    *tp_course_load        (guint         k,
                                       char        **error);

/* A message as Pango markup: emphasis in italics, code in the code
 * font, a link as its text underlined (no link is followed), every
 * character escaped. */
char           *tp_lesson_markup      (const TpLessonText *text);

/* A lesson's grade, with the lesson it borrows from. */
typedef struct
{
  TpLessonRef *lesson;
  TpGrade *grade;
} TpLessonGrade;

TpLessonGrade  *tp_lesson_grade_new   (TpLessonRef  *lesson,
                                       TpGrade      *grade);
void            tp_lesson_grade_free  (TpLessonGrade *self);

G_END_DECLS
