/* tp-document.h: the program being read, and its readings.
 *
 * A TpDocument owns the source buffer, the reader's choices (target,
 * observe, exact), the file it came from, and the engine session.  It
 * recomputes every reading after a short debounce, off the main thread,
 * and keeps the last good readings when a program is refused.  Widgets
 * only observe it: they never call the engine themselves. */
#pragma once

#include <gtksourceview/gtksource.h>

#include "tp-drafts.h"
#include "tp-engine.h"
#include "tp-lesson.h"
#include "tp-readings.h"
#include "tp-types.h"

G_BEGIN_DECLS

#define TP_TYPE_DOCUMENT (tp_document_get_type ())

G_DECLARE_FINAL_TYPE (TpDocument, tp_document, TP, DOCUMENT, GObject)

/* The debounce between the last keystroke and the recompute, the
 * engine's (tp_defaults, the page's too).  A restarting (trailing)
 * debounce: while someone types without pausing, no reading is made for
 * a state they have already left. */
#define TP_RECOMPUTE_DELAY_MS (tp_defaults ()->debounce_ms)

TpDocument      *tp_document_new                      (void);
GtkSourceBuffer *tp_document_get_buffer               (TpDocument  *self);
char            *tp_document_dup_text                 (TpDocument  *self);
void             tp_document_set_text                 (TpDocument  *self,
                                                       const char  *text);
TpReadings      *tp_document_get_readings             (TpDocument  *self);
gboolean         tp_document_get_teaching             (TpDocument  *self);
gboolean         tp_document_get_teaching_pending     (TpDocument  *self);
gboolean         tp_document_get_stale                (TpDocument  *self);
gboolean         tp_document_get_busy                 (TpDocument  *self);
const char      *tp_document_get_diagnostic           (TpDocument  *self);
gboolean         tp_document_get_diagnostic_position  (TpDocument  *self,
                                                       guint       *line,
                                                       guint       *column);
const char      *tp_document_get_target               (TpDocument  *self);
void             tp_document_set_target               (TpDocument  *self,
                                                       const char  *target);
const char      *tp_document_get_observe              (TpDocument  *self);
void             tp_document_set_observe              (TpDocument  *self,
                                                       const char  *observe);
gboolean         tp_document_get_exact                (TpDocument  *self);
void             tp_document_set_exact                (TpDocument  *self,
                                                       gboolean     exact);
/* The compiler's passes (tp-document-passes.c): the exact rewrites
 * before the plan, forward mode's direction ("NAME", "NAME[i, j]", or
 * NULL for the seeded one), and the pass readings, made only when asked
 * for: want_pass gives the one of the readings on screen when it is
 * there, else asks the reader for it and returns NULL; "pass-ready"
 * (its TpReading) says when it came. */
gboolean         tp_document_get_optimize             (TpDocument  *self);
void             tp_document_set_optimize             (TpDocument  *self,
                                                       gboolean     optimize);
const char      *tp_document_get_direction            (TpDocument  *self);
void             tp_document_set_direction            (TpDocument  *self,
                                                       const char  *direction);
/* Rematerialisation: the statements named, or the engine's pick
 * (@automatic); "remat-changed" says when the choice changes. */
const char *const *tp_document_get_remat              (TpDocument  *self,
                                                       gboolean    *automatic);
void             tp_document_set_remat                (TpDocument  *self,
                                                       const char *const *names,
                                                       gboolean     automatic);
const TpPassReading *tp_document_want_pass            (TpDocument  *self,
                                                       TpPass       which);
int              tp_document_get_selected_node        (TpDocument  *self);
void             tp_document_set_selected_node        (TpDocument  *self,
                                                       int          node);
GFile           *tp_document_get_file                 (TpDocument  *self);
void             tp_document_set_file                 (TpDocument  *self,
                                                       GFile       *file);
char            *tp_document_dup_title                (TpDocument  *self);
const char      *tp_document_get_comment              (TpDocument  *self);
gboolean         tp_document_get_modified             (TpDocument  *self);
gboolean         tp_document_is_pristine              (TpDocument  *self);
void             tp_document_recompute_now            (TpDocument  *self);
void             tp_document_set_recompute_delay      (TpDocument  *self,
                                                       guint        delay_ms);

/* The lesson being taken (tp-document-lesson.c): its choices are the
 * compile's, and after each compile's teaching results the session is
 * graded against it ("grade-changed" is emitted).  Answering a question
 * grades again without compiling. */
void             tp_document_set_lesson               (TpDocument  *self,
                                                       TpLessonRef *lesson);
TpLessonRef     *tp_document_get_lesson               (TpDocument  *self);
void             tp_document_set_answer               (TpDocument  *self,
                                                       guint        question,
                                                       int          choice);
int              tp_document_get_answer               (TpDocument  *self,
                                                       guint        question);
/* The newest grade, or NULL (none yet, or no lesson). */
const TpGrade   *tp_document_get_grade                (TpDocument  *self);
/* Grades once more with the training goals trained (they are left
 * ungraded as the student types). */
void             tp_document_grade_training           (TpDocument  *self);

/* Statements and lines, from the engine's names list: line numbers are
 * 1-based source lines of the text the readings were made from. */
int              tp_document_node_for_line            (TpDocument  *self,
                                                       guint        line);
GArray          *tp_document_lines_for_node           (TpDocument  *self,
                                                       int          node);
gboolean         tp_document_source_for_node          (TpDocument   *self,
                                                       int           node,
                                                       TpSourceSpan *span);

/* Files.  Saves are atomic (write a temporary file, then rename). */
void             tp_document_load_async               (TpDocument          *self,
                                                       GFile               *file,
                                                       GCancellable        *cancellable,
                                                       GAsyncReadyCallback  callback,
                                                       gpointer             user_data);
gboolean         tp_document_load_finish              (TpDocument          *self,
                                                       GAsyncResult        *result,
                                                       GError             **error);
void             tp_document_save_async               (TpDocument          *self,
                                                       GFile               *file,
                                                       GCancellable        *cancellable,
                                                       GAsyncReadyCallback  callback,
                                                       gpointer             user_data);
gboolean         tp_document_save_finish              (TpDocument          *self,
                                                       GAsyncResult        *result,
                                                       GError             **error);

/* Drafts: unsaved edits kept in the application's drafts (tp-drafts.h). */
void             tp_document_set_drafts               (TpDocument  *self,
                                                       TpDrafts    *drafts);
const char      *tp_document_get_draft_id             (TpDocument  *self);
void             tp_document_save_draft_now           (TpDocument  *self);
void             tp_document_discard_draft            (TpDocument  *self);
gboolean         tp_document_restore_draft            (TpDocument  *self,
                                                       const char  *draft_id,
                                                       GError     **error);

G_END_DECLS
