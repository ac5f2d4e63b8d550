/* tp-readings.h: the readings snapshot.
 *
 * What the document's worker thread copies out of its engine session
 * after a read: every reading's text (and the text the panes show, its
 * long lines folded: tp-fold.h), the names list, StableHLO's arguments,
 * the reading map, and the teaching panes' facts.  Immutable once made
 * and reference counted, so the worker hands it to the main thread and
 * the panes share it; nothing here is worked out from a reading's text. */
#pragma once

#include <glib-object.h>

#include "tp-engine.h"
#include "tp-fold.h"
#include "tp-pass-reading.h"
#include "tp-teaching.h"
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

/* One parameter's gradient, copied out of the engine (tp_session_gradients):
 * its display name (docs/decisions.md D9) names the gradient node. */
typedef struct
{
  char *name;
  guint parameter;
  guint gradient;
} TpGradientInfo;

/* An immutable snapshot of every reading of one successful compile.
 * Reference counted; safe to share between threads. */
struct _TpReadings
{
  char *text[TP_N_READINGS];
  TpNameInfo *names;
  guint n_names;
  guint *arguments;   /* the node of StableHLO's %arg0, %arg1, ... */
  guint n_arguments;
  TpGradientInfo *gradients;  /* per parameter, in declaration order */
  guint n_gradients;
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
  char **display_names;         /* n_nodes: tp_session_display_name, NULL for none */
  /* the program's own training (tp_session_train_settings: its `# train
   * it:` line, else the engine's defaults) */
  guint train_steps;
  char *train_rate;
  gboolean train_from_program;
  /* the teaching results, attached on the main thread once the reader
   * has made them after the readings (NULL until then: tp-teaching.h) */
  TpTeaching *teaching;
  TpChecked *checked;
  /* the pass readings asked for so far (tp-pass-reading.h), attached on
   * the main thread: NULL until a pane or an action asks */
  TpPassReading *passes[TP_N_PASSES];
  /* what the readings were made from, for a training of the same
   * program off the main thread */
  char *source;
  gsize source_length;
  char *target;
  char *observe;
  gboolean exact;
};

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
const char *tp_readings_get_gradient_of (TpReadings *self,
                                         guint       node);
const char *tp_readings_get_display_name (TpReadings *self,
                                          guint       node);
void        tp_readings_attach_teaching (TpReadings *self,
                                         TpTeaching *teaching);
void        tp_readings_attach_check    (TpReadings *self,
                                         TpChecked  *checked);
void        tp_readings_attach_pass     (TpReadings    *self,
                                         TpPassReading *pass);
const TpPassReading *tp_readings_get_pass (TpReadings *self,
                                           TpPass      which);
const char *tp_readings_get_shown_text (TpReadings *self,
                                        TpReading   which);
const TpFold *tp_readings_get_fold    (TpReadings   *self,
                                       TpReading     which,
                                       guint         line);
TpReadings *tp_readings_new_from_session (const TpSession *session,
                                          const char      *source,
                                          gsize            length,
                                          const char      *target,
                                          const char      *observe,
                                          gboolean         exact);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TpReadings, tp_readings_unref)


G_END_DECLS
