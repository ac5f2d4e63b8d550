/* tp-document.h: the program being read, and its readings.
 *
 * A TpDocument owns the source buffer, the reader's choices (target,
 * observe, exact), the file it came from, and the engine session.  It
 * recomputes every reading after a short debounce, off the main thread,
 * and keeps the last good readings when a program is refused.  Widgets
 * only observe it: they never call the engine themselves. */
#pragma once

#include <gtksourceview/gtksource.h>

#include "tp-engine.h"
#include "tp-types.h"

G_BEGIN_DECLS

/* One statement of the names list, copied out of the engine. */
typedef struct
{
  char *name;
  char *shape;        /* "[2, 2]", "[]" for rank 0 */
  guint node;
  guint line;         /* the statement's 1-based source line */
  gboolean scalar;
  gboolean parameter;
} TpNameInfo;

/* A line of a reading over TP_FOLD_LIMIT bytes is shown folded: its
 * start, " … ", its end, then a count and a "show all" control (the
 * suffix).  Decided in the worker thread from the text's line lengths,
 * so no multi-megabyte line reaches the main thread's text views.  The
 * map's byte offsets refer to the full line: tp_fold_to_shown and
 * tp_fold_to_full translate. */
#define TP_FOLD_LIMIT 4000
#define TP_FOLD_HEAD 600
#define TP_FOLD_TAIL 240
/* "show all" shows a line whole up to this many bytes, else folded
 * around this much of its start */
#define TP_FOLD_SHOW_ALL 32768

typedef struct
{
  guint line;
  gsize offset;       /* the full line's start in the reading's text */
  gsize length;       /* the full line's bytes, its '\n' not counted */
  gsize head;         /* bytes of its start shown */
  gsize tail;         /* bytes of its end shown */
  gsize marker;       /* bytes of the " … " between them (0: not folded) */
  gsize suffix;       /* bytes after the tail: the count and the control */
  gsize control;      /* of which the "show all" control, at the end */
  guint64 count;      /* elements (values), else characters */
  gboolean elements;
} TpFold;

/* An immutable snapshot of every reading of one successful compile.
 * Reference counted; safe to share between threads. */
struct _TpReadings
{
  char *text[TP_N_READINGS];
  TpNameInfo *names;
  guint n_names;
  guint *arguments;   /* the node of StableHLO's %arg0, %arg1, ... */
  guint n_arguments;
  /* the engine's reading map (tp-engine.h), copied out per reading:
   * panes colour, decorate and cross-highlight from it alone */
  TpMapLine *map_lines[TP_N_READINGS];
  guint n_map_lines[TP_N_READINGS];
  TpMapRef *map_refs[TP_N_READINGS];
  guint spec_nodes;   /* nodes at or after it were appended by differentiate */
  TpSourceSpan *sources;  /* per node; line 0 for none */
  /* what the panes show: the text with its long lines folded (NULL
   * when no line is), and the folds, in line order */
  char *shown[TP_N_READINGS];
  TpFold *folds[TP_N_READINGS];
  guint n_folds[TP_N_READINGS];
  guint n_nodes;
  gboolean picture_reduced;
  /* the teaching panes' facts, copied out of the session as they are:
   * the check's outcome and verdict, each node's explain sentence, the
   * schedule (steps, and per node its step or G_MAXUINT), why
   * differentiate recorded each node, and each node's value as the
   * values reading writes it (NULL past TP_STEP_VALUE_BUDGET) */
  TpCheckSummary check;         /* its verdict points into check_verdict */
  char *check_verdict;
  char **explanations;          /* n_nodes, NULL for none */
  TpStep *steps;
  guint n_steps;
  guint *node_steps;            /* n_nodes */
  TpOrigin *origins;            /* n_nodes; NULL when none */
  char **value_texts;           /* n_nodes */
  /* what the readings were made from, for a training of the same
   * program off the main thread */
  char *source;
  gsize source_length;
  char *target;
  char *observe;
  gboolean exact;
};

/* Elements of one node's value written in full for the step-through (a
 * bigger value is summarised), and the elements written for all nodes
 * together before the rest are left out. */
#define TP_STEP_VALUE_ELEMENTS 64
#define TP_STEP_VALUE_BUDGET (1u << 18)

#define TP_TYPE_READINGS (tp_readings_get_type ())

GType       tp_readings_get_type (void) G_GNUC_CONST;
TpReadings *tp_readings_ref      (TpReadings *self);
void        tp_readings_unref    (TpReadings *self);
const char *tp_readings_get_text (TpReadings *self,
                                  TpReading   which);
int         tp_readings_get_argument_node (TpReadings *self,
                                           guint       argument);
const TpMapLine *tp_readings_get_map_line (TpReadings *self,
                                           TpReading   which,
                                           guint       line);
const TpMapRef  *tp_readings_get_map_refs (TpReadings *self,
                                           TpReading   which,
                                           guint       line,
                                           guint      *n_refs);
gboolean    tp_readings_get_source    (TpReadings   *self,
                                       guint         node,
                                       TpSourceSpan *span);
const char *tp_readings_get_explanation (TpReadings *self,
                                         guint       node);
const char *tp_readings_get_value_text (TpReadings *self,
                                        guint       node);
TpNodeState tp_readings_get_node_state (TpReadings *self,
                                        guint       step,
                                        guint       node);
const char *tp_readings_get_shown_text (TpReadings *self,
                                        TpReading   which);
const TpFold *tp_readings_get_fold    (TpReadings   *self,
                                       TpReading     which,
                                       guint         line);
char       *tp_fold_line              (const char   *line,
                                       gsize         length,
                                       gsize         head_max,
                                       gsize         tail_max,
                                       guint64       count,
                                       gboolean      elements,
                                       gboolean      offer,
                                       TpFold       *fold);
gsize       tp_fold_to_shown          (const TpFold *fold,
                                       gsize         at);
gssize      tp_fold_to_full           (const TpFold *fold,
                                       gsize         at);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TpReadings, tp_readings_unref)

#define TP_TYPE_DOCUMENT (tp_document_get_type ())

G_DECLARE_FINAL_TYPE (TpDocument, tp_document, TP, DOCUMENT, GObject)

/* The debounce between the last keystroke and the recompute.  A
 * restarting (trailing) debounce: while someone types without pausing,
 * no reading is made for a state they have already left. */
#define TP_RECOMPUTE_DELAY_MS 120

TpDocument      *tp_document_new                      (void);
GtkSourceBuffer *tp_document_get_buffer               (TpDocument  *self);
char            *tp_document_dup_text                 (TpDocument  *self);
void             tp_document_set_text                 (TpDocument  *self,
                                                       const char  *text);
TpReadings      *tp_document_get_readings             (TpDocument  *self);
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
int              tp_document_get_selected_node        (TpDocument  *self);
void             tp_document_set_selected_node        (TpDocument  *self,
                                                       int          node);
GFile           *tp_document_get_file                 (TpDocument  *self);
void             tp_document_set_file                 (TpDocument  *self,
                                                       GFile       *file);
char            *tp_document_dup_title                (TpDocument  *self);
gboolean         tp_document_get_modified             (TpDocument  *self);
gboolean         tp_document_is_pristine              (TpDocument  *self);
void             tp_document_recompute_now            (TpDocument  *self);
void             tp_document_set_recompute_delay      (TpDocument  *self,
                                                       guint        delay_ms);

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

/* Drafts: unsaved edits kept in the user's state directory. */
const char      *tp_document_get_draft_id             (TpDocument  *self);
void             tp_document_save_draft_now           (TpDocument  *self);
void             tp_document_discard_draft            (TpDocument  *self);
gboolean         tp_document_restore_draft            (TpDocument  *self,
                                                       const char  *draft_id,
                                                       GError     **error);
char           **tp_document_list_drafts              (void);
char            *tp_document_dup_drafts_dir           (void);

G_END_DECLS
