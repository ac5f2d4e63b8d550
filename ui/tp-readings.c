/* tp-readings.c: the readings snapshot, what the document's worker
 * copies out of the engine session after a read (see tp-readings.h). */
#include "config.h"

#include <string.h>

#include "tp-readings.h"

static TpReadings *
tp_readings_new (void)
{
  return g_atomic_rc_box_new0 (TpReadings);
}

/* Frees @n strings (some NULL) and their array. */
static void
tp_strings_free (char  **strings,
                 guint   n)
{
  for (guint i = 0; strings != NULL && i < n; i++)
    g_free (strings[i]);
  g_free (strings);
}

static void
tp_readings_clear (TpReadings *self)
{
  for (guint r = 0; r < TP_N_READINGS; r++)
    g_free (self->text[r]);
  for (guint i = 0; i < self->n_names; i++)
    {
      g_free (self->names[i].name);
      g_free (self->names[i].shape);
    }
  g_free (self->names);
  g_free (self->arguments);
  for (guint i = 0; i < self->n_gradients; i++)
    g_free (self->gradients[i].name);
  g_free (self->gradients);
  for (guint r = 0; r < TP_N_READINGS; r++)
    {
      g_free (self->map_lines[r]);
      g_free (self->map_refs[r]);
    }
  g_free (self->sources);
  for (guint r = 0; r < TP_N_READINGS; r++)
    {
      g_free (self->shown[r]);
      g_free (self->folds[r]);
    }
  tp_strings_free (self->display_names, self->n_nodes);
  g_free (self->train_rate);
  tp_teaching_free (self->teaching);
  tp_checked_free (self->checked);
  for (guint i = 0; i < TP_N_PASSES; i++)
    tp_pass_reading_free (self->passes[i]);
  g_free (self->source);
  g_free (self->target);
  g_free (self->observe);
}

TpReadings *
tp_readings_ref (TpReadings *self)
{
  return g_atomic_rc_box_acquire (self);
}

void
tp_readings_unref (TpReadings *self)
{
  g_atomic_rc_box_release_full (self, (GDestroyNotify) tp_readings_clear);
}

G_DEFINE_BOXED_TYPE (TpReadings, tp_readings, tp_readings_ref, tp_readings_unref)

const char *
tp_readings_get_text (TpReadings *self,
                      TpReading   which)
{
  g_return_val_if_fail (self != NULL, "");
  g_return_val_if_fail ((guint) which < TP_N_READINGS, "");

  if (which == TP_READING_CHECK)
    return self->checked != NULL ? self->checked->text : "";
  if (which == TP_READING_EXPLAIN)
    return self->teaching != NULL ? self->teaching->explain : "";
  if (which == TP_READING_MEMORY)
    return self->teaching != NULL ? self->teaching->memory : "";
  if (TP_PASS_IS_READING (which))
    return self->passes[TP_PASS_INDEX (which)] != NULL ? self->passes[TP_PASS_INDEX (which)]->text : "";
  return self->text[which] != NULL ? self->text[which] : "";
}

/* The teaching results of these readings' program, made after them (the
 * main thread's, once: taken over). */
void
tp_readings_attach_teaching (TpReadings *self,
                             TpTeaching *teaching)
{
  g_return_if_fail (self != NULL);

  tp_teaching_free (self->teaching);
  self->teaching = teaching;
}

void
tp_readings_attach_check (TpReadings *self,
                          TpChecked  *checked)
{
  g_return_if_fail (self != NULL);

  tp_checked_free (self->checked);
  self->checked = checked;
}

/* A pass reading of these readings' compile (taken over), made when it
 * was asked for (tp_document_want_pass). */
void
tp_readings_attach_pass (TpReadings    *self,
                         TpPassReading *pass)
{
  g_return_if_fail (self != NULL && pass != NULL);

  tp_pass_reading_free (self->passes[TP_PASS_INDEX (pass->which)]);
  self->passes[TP_PASS_INDEX (pass->which)] = pass;
}

/* Pass reading @which, or NULL while it was not asked for. */
const TpPassReading *
tp_readings_get_pass (TpReadings *self,
                      TpPass      which)
{
  g_return_val_if_fail (self != NULL && TP_IS_PASS (which), NULL);

  return self->passes[TP_PASS_INDEX (which)];
}

/* Node's sentence of the explain reading ("N Op: ..."), or NULL. */
const char *
tp_readings_get_explanation (TpReadings *self,
                             guint       node)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->teaching != NULL && node < self->teaching->n_nodes ? self->teaching->explanations[node] : NULL;
}

/* Node's value as the values reading writes it, or NULL (none, or past
 * the budget). */
const char *
tp_readings_get_value_text (TpReadings *self,
                            guint       node)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->teaching != NULL && node < self->teaching->n_nodes ? self->teaching->value_texts[node] : NULL;
}

/* Node's display name (tp_session_display_name, docs/decisions.md D9),
 * or NULL when no statement names it. */
const char *
tp_readings_get_display_name (TpReadings *self,
                              guint       node)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->display_names != NULL && node < self->n_nodes ? self->display_names[node] : NULL;
}

/* The display name of the parameter whose gradient @node is
 * (tp_session_gradients), or NULL when it is none's. */
const char *
tp_readings_get_gradient_of (TpReadings *self,
                             guint       node)
{
  g_return_val_if_fail (self != NULL, NULL);

  for (guint i = 0; i < self->n_gradients; i++)
    if (self->gradients[i].gradient == node)
      return self->gradients[i].name;
  return NULL;
}

/* The node StableHLO's `%arg{argument}` stands for, or -1. */
int
tp_readings_get_argument_node (TpReadings *self,
                               guint       argument)
{
  g_return_val_if_fail (self != NULL, -1);

  return argument < self->n_arguments && self->arguments[argument] <= G_MAXINT
           ? (int) self->arguments[argument] : -1;
}

/* Line @line of reading @which's map, or NULL past its lines. */
const TpMapLine *
tp_readings_get_map_line (TpReadings *self,
                          TpReading   which,
                          guint       line)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail ((guint) which < TP_N_READINGS, NULL);

  return line < self->n_map_lines[which] ? &self->map_lines[which][line] : NULL;
}

/* The token spans of line @line of reading @which, in line order. */
const TpMapRef *
tp_readings_get_map_refs (TpReadings *self,
                          TpReading   which,
                          guint       line,
                          guint      *n_refs)
{
  const TpMapLine *l = tp_readings_get_map_line (self, which, line);

  *n_refs = l != NULL ? l->n_refs : 0;
  return l != NULL && l->n_refs > 0 ? &self->map_refs[which][l->first_ref] : NULL;
}

/* The source span of the expression that recorded @node; FALSE for a
 * node no expression recorded. */
gboolean
tp_readings_get_source (TpReadings   *self,
                        guint         node,
                        TpSourceSpan *span)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (node >= self->n_nodes || self->sources[node].line == 0)
    return FALSE;
  *span = self->sources[node];
  return TRUE;
}

/* Copies the reading map, the spec node count, the source spans and
 * whether the picture was reduced out of @session. */
static void
tp_readings_copy_map (TpReadings      *self,
                      const TpSession *session)
{
  for (guint r = TP_READING_SPEC; r <= TP_READING_VALUES; r++)
    {
      size_t n_lines = tp_session_map_n_lines (session, (TpReading) r);
      size_t n_refs = tp_session_map_n_refs (session, (TpReading) r);

      self->n_map_lines[r] = (guint) n_lines;
      self->map_lines[r] = g_new (TpMapLine, n_lines + 1);
      self->map_refs[r] = g_new (TpMapRef, n_refs + 1);
      for (size_t i = 0; i < n_lines; i++)
        tp_session_map_line (session, (TpReading) r, i, &self->map_lines[r][i]);
      for (size_t i = 0; i < n_refs; i++)
        tp_session_map_ref (session, (TpReading) r, i, &self->map_refs[r][i]);
    }
  self->spec_nodes = tp_session_spec_nodes (session);
  self->n_nodes = tp_session_n_nodes (session);
  self->sources = g_new0 (TpSourceSpan, self->n_nodes + 1);
  for (guint i = 0; i < self->n_nodes; i++)
    if (!tp_session_source (session, i, &self->sources[i]))
      self->sources[i].line = 0;
  self->picture_reduced = tp_session_picture_reduced (session);
}

/* The elements of the value of line @line's node in the values reading
 * (the engine's node value), or 0 when the line has no node value. */
static guint64
tp_readings_line_elements (TpReadings      *self,
                           const TpSession *session,
                           TpReading        which,
                           guint            line,
                           gboolean        *elements)
{
  const TpMapLine *l = tp_readings_get_map_line (self, which, line);
  const uint32_t *dims = NULL;
  uint32_t rank = 0;
  guint64 n = 1;

  *elements = FALSE;
  if (which != TP_READING_VALUES || l == NULL || l->node == TP_MAP_NO_NODE
      || tp_session_node_value (session, l->node, &rank, &dims) == NULL)
    return 0;
  for (uint32_t a = 0; a < rank; a++)
    n *= dims[a];
  *elements = TRUE;
  return n;
}

typedef struct
{
  TpReadings *readings;
  const TpSession *session;
  TpReading which;
} FoldCount;

static guint64
tp_readings_fold_count (guint     line,
                        gboolean *elements,
                        gpointer  user_data)
{
  FoldCount *c = user_data;

  return tp_readings_line_elements (c->readings, c->session, c->which, line, elements);
}

/* Folds every line of each reading over TP_FOLD_LIMIT bytes, in the
 * worker thread (the map must be copied already). */
static void
tp_readings_fold (TpReadings      *self,
                  const TpSession *session)
{
  for (guint r = 0; r < TP_N_READINGS; r++)
    {
      FoldCount count = { self, session, (TpReading) r };

      if (self->text[r] != NULL)
        tp_fold_text (self->text[r], tp_readings_fold_count, &count,
                      &self->shown[r], &self->folds[r], &self->n_folds[r]);
    }
}

/* The text a pane shows: the reading with its long lines folded. */
const char *
tp_readings_get_shown_text (TpReadings *self,
                            TpReading   which)
{
  g_return_val_if_fail (self != NULL && (guint) which < TP_N_READINGS, "");

  return self->shown[which] != NULL ? self->shown[which] : tp_readings_get_text (self, which);
}

/* The fold of line @line of reading @which, or NULL when it is whole. */
const TpFold *
tp_readings_get_fold (TpReadings *self,
                      TpReading   which,
                      guint       line)
{
  if (self == NULL || (guint) which >= TP_N_READINGS)
    return NULL;
  return tp_fold_find (self->folds[which], self->n_folds[which], line);
}

/* Copies the six panes' readings, the names list, the map and the display
 * names out of a session that read @source (@length bytes) with the choices
 * given (kept for a training of the same program). */
TpReadings *
tp_readings_new_from_session (const TpSession *session,
                              const char      *source,
                              gsize            length,
                              const char      *target,
                              const char      *observe,
                              gboolean         exact)
{
  TpReadings *self = tp_readings_new ();
  const TpName *names;
  const uint32_t *arguments;
  size_t n_names = 0;
  size_t n_arguments = 0;

  /* the six panes' readings and the summary; the teaching readings come
   * after (tp-teaching.h) */
  for (guint r = 0; r <= TP_READING_SUMMARY; r++)
    self->text[r] = g_strdup (tp_session_reading (session, (TpReading) r));

  names = tp_session_names (session, &n_names);
  self->n_names = (guint) n_names;
  self->names = g_new0 (TpNameInfo, n_names + 1);
  for (size_t i = 0; i < n_names; i++)
    {
      GString *shape = g_string_new ("[");

      for (uint32_t a = 0; a < names[i].rank; a++)
        g_string_append_printf (shape, "%s%u", a ? ", " : "", names[i].dims[a]);
      g_string_append_c (shape, ']');
      self->names[i].name = g_strdup (names[i].name);
      self->names[i].shape = g_string_free (shape, FALSE);
      self->names[i].node = names[i].node;
      self->names[i].line = names[i].line;
      self->names[i].scalar = names[i].scalar;
      self->names[i].parameter = names[i].parameter;
    }
  {
    size_t n_gradients = 0;
    const TpGradient *gradients = tp_session_gradients (session, &n_gradients);

    self->n_gradients = (guint) n_gradients;
    self->gradients = g_new0 (TpGradientInfo, n_gradients + 1);
    for (size_t i = 0; i < n_gradients; i++)
      {
        self->gradients[i].name = g_strdup (gradients[i].name);
        self->gradients[i].parameter = gradients[i].parameter;
        self->gradients[i].gradient = gradients[i].gradient;
      }
  }
  arguments = tp_session_arguments (session, &n_arguments);
  self->n_arguments = (guint) n_arguments;
  self->arguments = g_new0 (guint, n_arguments + 1);
  for (size_t i = 0; i < n_arguments; i++)
    self->arguments[i] = arguments[i];
  tp_readings_copy_map (self, session);
  tp_readings_fold (self, session);
  self->display_names = g_new0 (char *, self->n_nodes + 1);
  for (guint i = 0; i < self->n_nodes; i++)
    self->display_names[i] = g_strdup (tp_session_display_name (session, i));
  {
    TpTrainSettings settings;

    if (tp_session_train_settings (session, &settings))
      {
        self->train_steps = settings.steps;
        self->train_rate = g_strndup (settings.learning_rate, settings.learning_rate_length);
        self->train_from_program = settings.from_program;
      }
    else
      {
        self->train_steps = tp_defaults ()->train_steps;
        self->train_rate = g_strdup (tp_defaults ()->train_rate);
      }
  }
  self->source = g_strndup (source, length);
  self->source_length = length;
  self->target = g_strdup (target);
  self->observe = g_strdup (observe);
  self->exact = exact;
  return self;
}
