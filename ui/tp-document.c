/* tp-document.c: the program, its choices, its readings, its file.
 *
 * Recompute scheduling follows GNOME Text Editor's statistics object: a
 * change bumps a generation counter and (re)arms a debounce timer; when it
 * fires, a snapshot of the text and the choices goes to one worker thread
 * that owns its own engine session.  The result comes back to the main
 * context and is applied only if its generation is still the current one,
 * so a stale edit's readings are dropped.  The worker also skips requests
 * that went stale while they were queued. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "tp-document.h"
#include "tp-priority.h"

#define TP_DRAFT_DELAY_MS 1000

/* {==== readings snapshot ====} */

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
  g_free (self->check_verdict);
  tp_strings_free (self->explanations, self->n_nodes);
  g_free (self->steps);
  g_free (self->node_steps);
  g_free (self->origins);
  tp_strings_free (self->value_texts, self->n_nodes);
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

  return self->text[which] != NULL ? self->text[which] : "";
}

/* Node's sentence of the explain reading ("N Op: ..."), or NULL. */
const char *
tp_readings_get_explanation (TpReadings *self,
                             guint       node)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->explanations != NULL && node < self->n_nodes ? self->explanations[node] : NULL;
}

/* Node's value as the values reading writes it, or NULL (none, or past
 * the budget). */
const char *
tp_readings_get_value_text (TpReadings *self,
                            guint       node)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->value_texts != NULL && node < self->n_nodes ? self->value_texts[node] : NULL;
}

/* Node's state after step @step, by the seam's definition
 * (tp_session_node_state): pending before its step, live up to its
 * step's last, freed after. */
TpNodeState
tp_readings_get_node_state (TpReadings *self,
                            guint       step,
                            guint       node)
{
  guint at;

  g_return_val_if_fail (self != NULL, TP_NODE_UNEVALUATED);

  if (step >= self->n_steps || node >= self->n_nodes || self->node_steps == NULL
      || self->node_steps[node] == G_MAXUINT)
    return TP_NODE_UNEVALUATED;
  at = self->node_steps[node];
  if (step < at)
    return TP_NODE_PENDING;
  return step <= self->steps[at].last ? TP_NODE_LIVE : TP_NODE_FREED;
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

/* {==== folding long lines ====} */

/* Builds the folded form of @line (@length bytes, no '\n'): at most
 * @head_max bytes of its start and @tail_max of its end, cut after a
 * space where one is near so no number is split, and always on a UTF-8
 * character boundary, then " … ", the end, and the count with the "show
 * all" control (when @offer).  A line that fits in head_max + tail_max is kept whole,
 * with no marker and no suffix.  Fills @fold but its line and offset. */
char *
tp_fold_line (const char *line,
              gsize       length,
              gsize       head_max,
              gsize       tail_max,
              guint64     count,
              gboolean    elements,
              gboolean    offer,
              TpFold     *fold)
{
  /* Translators: between the start and the end of a folded line */
  const char *marker = _(" … ");
  /* Translators: the control that unfolds a folded line */
  const char *control = offer ? _("show all") : "";
  g_autofree char *counted = NULL;
  g_autofree char *number = NULL;
  gsize head, tail;
  GString *s;

  fold->length = length;
  fold->count = count;
  fold->elements = elements;
  if (length <= head_max + tail_max)
    {
      fold->head = length;
      fold->tail = fold->marker = fold->suffix = fold->control = 0;
      return g_strndup (line, length);
    }
  head = head_max;
  for (gsize k = 0; k < 40 && head - k > 0; k++)
    if (line[head - k - 1] == ' ')
      {
        head -= k;
        break;
      }
  while (head > 0 && (line[head] & 0xc0) == 0x80)
    head--;
  tail = length - tail_max;
  for (gsize k = 0; k < 40 && tail + k < length; k++)
    if (line[tail + k] == ' ')
      {
        tail += k + 1;
        break;
      }
  while (tail < length && (line[tail] & 0xc0) == 0x80)
    tail++;
  number = g_strdup_printf ("%" G_GUINT64_FORMAT, count);
  if (elements)
    /* Translators: after a folded values line; %s is a number */
    counted = g_strdup_printf (ngettext ("   [%s element] ", "   [%s elements] ", (gulong) MIN (count, G_MAXULONG)), number);
  else
    /* Translators: after a folded line; %s is a number */
    counted = g_strdup_printf (ngettext ("   [%s character] ", "   [%s characters] ", (gulong) MIN (count, G_MAXULONG)), number);
  s = g_string_sized_new (head + (length - tail) + 64);
  g_string_append_len (s, line, (gssize) head);
  g_string_append (s, marker);
  g_string_append_len (s, line + tail, (gssize) (length - tail));
  g_string_append (s, counted);
  g_string_append (s, control);
  fold->head = head;
  fold->tail = length - tail;
  fold->marker = strlen (marker);
  fold->control = strlen (control);
  fold->suffix = strlen (counted) + fold->control;
  return g_string_free (s, FALSE);
}

/* A byte offset of the full line as an offset of the shown line: a
 * place in the hidden middle goes to the marker's start. */
gsize
tp_fold_to_shown (const TpFold *fold,
                  gsize         at)
{
  if (at <= fold->head)
    return at;
  if (at < fold->length - fold->tail)
    return fold->head;
  return MIN (at, fold->length) - (fold->length - fold->tail) + fold->head + fold->marker;
}

/* A byte offset of the shown line as one of the full line, or -1 in the
 * marker and the suffix. */
gssize
tp_fold_to_full (const TpFold *fold,
                 gsize         at)
{
  if (at <= fold->head && (at < fold->head || fold->marker == 0))
    return (gssize) at;
  if (at < fold->head + fold->marker)
    return -1;
  at -= fold->head + fold->marker;
  if (at >= fold->tail)
    return -1;
  return (gssize) (fold->length - fold->tail + at);
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

/* Folds every line of each reading over TP_FOLD_LIMIT bytes, in the
 * worker thread (the map must be copied already). */
static void
tp_readings_fold (TpReadings      *self,
                  const TpSession *session)
{
  for (guint r = 0; r < TP_N_READINGS; r++)
    {
      const char *text = self->text[r];
      GString *shown = NULL;
      GArray *folds = NULL;
      const char *p = text;
      guint line = 0;

      if (text == NULL)
        continue;
      for (;; line++)
        {
          const char *nl = strchr (p, '\n');
          gsize len = nl != NULL ? (gsize) (nl - p) : strlen (p);

          if (len > TP_FOLD_LIMIT)
            {
              TpFold fold = { 0 };
              gboolean elements = FALSE;
              guint64 count = tp_readings_line_elements (self, session, (TpReading) r, line, &elements);
              g_autofree char *folded = NULL;

              if (!elements)
                count = (guint64) g_utf8_strlen (p, (gssize) len);
              folded = tp_fold_line (p, len, TP_FOLD_HEAD, TP_FOLD_TAIL, count, elements, TRUE, &fold);
              fold.line = line;
              fold.offset = (gsize) (p - text);
              if (shown == NULL)
                {
                  shown = g_string_sized_new (65536);
                  g_string_append_len (shown, text, (gssize) (p - text));
                  folds = g_array_new (FALSE, FALSE, sizeof (TpFold));
                }
              g_string_append (shown, folded);
              g_array_append_val (folds, fold);
            }
          else if (shown != NULL)
            g_string_append_len (shown, p, (gssize) len);
          if (nl == NULL)
            break;
          if (shown != NULL)
            g_string_append_c (shown, '\n');
          p = nl + 1;
        }
      if (shown != NULL)
        {
          self->shown[r] = g_string_free (shown, FALSE);
          self->n_folds[r] = folds->len;
          self->folds[r] = (TpFold *) (void *) g_array_free (folds, FALSE);
        }
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
  guint lo = 0, hi;

  if (self == NULL || (guint) which >= TP_N_READINGS)
    return NULL;
  hi = self->n_folds[which];
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;

      if (self->folds[which][mid].line == line)
        return &self->folds[which][mid];
      if (self->folds[which][mid].line < line)
        lo = mid + 1;
      else
        hi = mid;
    }
  return NULL;
}

/* The check's summary, the sentences, the schedule, the origins and the
 * node values, for the check, memory and step-through panes. */
static void
tp_readings_copy_teaching (TpReadings      *self,
                           const TpSession *session)
{
  guint64 budget = TP_STEP_VALUE_BUDGET;
  gboolean origins = TRUE;

  if (tp_session_check_summary (session, &self->check))
    {
      self->check_verdict = g_strndup (self->check.verdict, self->check.verdict_length);
      self->check.verdict = self->check_verdict;
    }
  else
    self->check.outcome = TP_OUTCOME_UNCHECKED;
  self->explanations = g_new0 (char *, self->n_nodes + 1);
  self->node_steps = g_new (guint, self->n_nodes + 1);
  self->origins = g_new0 (TpOrigin, self->n_nodes + 1);
  self->value_texts = g_new0 (char *, self->n_nodes + 1);
  for (guint i = 0; i < self->n_nodes; i++)
    {
      size_t length = 0;
      const char *sentence = tp_session_explanation (session, i, &length);
      size_t k;
      uint32_t rank = 0;
      const uint32_t *dims = NULL;

      if (sentence != NULL)
        self->explanations[i] = g_strndup (sentence, length);
      self->node_steps[i] = tp_session_node_step (session, i, &k) ? (guint) k : G_MAXUINT;
      if (origins && !tp_session_origin (session, i, &self->origins[i]))
        origins = FALSE;
      if (budget > 0 && tp_session_node_value (session, i, &rank, &dims) != NULL)
        {
          char *text = tp_session_node_value_text (session, i, TP_STEP_VALUE_ELEMENTS);
          guint64 volume = 1;

          for (uint32_t d = 0; d < rank; d++)
            volume *= dims[d];
          self->value_texts[i] = g_strdup (text);
          tp_string_free (text);
          budget -= MIN (budget, MIN (volume, TP_STEP_VALUE_ELEMENTS));
        }
    }
  if (!origins)
    g_clear_pointer (&self->origins, g_free);
  self->n_steps = (guint) tp_session_n_steps (session);
  self->steps = g_new0 (TpStep, self->n_steps + 1);
  for (guint k = 0; k < self->n_steps; k++)
    tp_session_step (session, k, &self->steps[k]);
}

/* Copies every reading and the names list out of a session that read. */
static TpReadings *
tp_readings_new_from_session (const TpSession *session)
{
  TpReadings *self = tp_readings_new ();
  const TpName *names;
  const uint32_t *arguments;
  size_t n_names = 0;
  size_t n_arguments = 0;

  for (guint r = 0; r < TP_N_READINGS; r++)
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
  arguments = tp_session_arguments (session, &n_arguments);
  self->n_arguments = (guint) n_arguments;
  self->arguments = g_new0 (guint, n_arguments + 1);
  for (size_t i = 0; i < n_arguments; i++)
    self->arguments[i] = arguments[i];
  tp_readings_copy_map (self, session);
  tp_readings_fold (self, session);
  tp_readings_copy_teaching (self, session);
  return self;
}

/* {==== the worker ====} */

/* Shared by the document and its in-flight requests; the session is only
 * ever touched by the worker thread. */
typedef struct
{
  TpSession *session;
  int latest;                   /* atomic: the newest generation asked for */
} TpCompiler;

static void
tp_compiler_clear (TpCompiler *compiler)
{
  g_clear_pointer (&compiler->session, tp_session_free);
}

typedef struct
{
  TpCompiler *compiler;
  GWeakRef document;
  int generation;
  guint text_serial;            /* the text's change count when asked */

  /* what to read */
  char *source;
  gsize length;
  char *target;
  char *observe;
  gboolean exact;

  /* what came out */
  TpStatus status;
  TpReadings *readings;
  guint line;
  guint column;
  char *message;
} TpRequest;

static void
tp_request_free (gpointer data)
{
  TpRequest *req = data;

  g_atomic_rc_box_release_full (req->compiler, (GDestroyNotify) tp_compiler_clear);
  g_weak_ref_clear (&req->document);
  g_free (req->source);
  g_free (req->target);
  g_free (req->observe);
  g_clear_pointer (&req->readings, tp_readings_unref);
  g_free (req->message);
  g_free (req);
}

/* Compiles with a session and copies out what the document needs; used by
 * the worker and by tp_document_recompute_now alike. */
static void
tp_request_run (TpRequest *req,
                TpSession *session)
{
  const char *observe[1] = { req->observe };
  TpChoices choices = {
    .target = req->target,
    .observe = observe,
    .n_observe = req->observe != NULL ? 1 : 0,
    .exact = req->exact,
  };

  req->status = tp_session_compile (session, req->source, req->length, &choices);
  if (req->status == TP_STATUS_OK)
    {
      req->readings = tp_readings_new_from_session (session);
      req->readings->source = g_strndup (req->source, req->length);
      req->readings->source_length = req->length;
      req->readings->target = g_strdup (req->target);
      req->readings->observe = g_strdup (req->observe);
      req->readings->exact = req->exact;
    }
  else
    {
      size_t n = 0;
      const TpDiag *diags = tp_session_diags (session, &n);

      if (n > 0)
        {
          req->line = diags[0].line;
          req->column = diags[0].column;
          req->message = g_strdup (diags[0].message);
        }
      else
        req->message = g_strdup (_("the program could not be read"));
    }
}

static void tp_document_apply_request (TpDocument *self,
                                       TpRequest  *req);

static gboolean
tp_document_request_done_cb (gpointer data)
{
  TpRequest *req = data;
  g_autoptr(TpDocument) self = g_weak_ref_get (&req->document);

  if (self != NULL)
    tp_document_apply_request (self, req);
  return G_SOURCE_REMOVE;
}

static void
tp_document_worker_func (gpointer data,
                         gpointer user_data)
{
  TpRequest *req = data;
  GMainContext *context = user_data;
  int priority;

  /* Skip a request that a newer edit overtook while it waited. */
  if (g_atomic_int_get (&req->compiler->latest) != req->generation)
    {
      tp_request_free (req);
      return;
    }
  /* the pool shares its threads with GLib's others: lowered for the
   * reading only (tp-priority.h) */
  priority = tp_priority_lower_thread ();
  if (req->compiler->session == NULL)
    req->compiler->session = tp_session_new ();
  if (req->compiler->session == NULL)
    {
      req->status = TP_STATUS_NO_MEMORY;
      req->line = req->column = 1;
      req->message = g_strdup (_("out of memory"));
    }
  else
    tp_request_run (req, req->compiler->session);
  tp_priority_restore_thread (priority);
  g_main_context_invoke_full (context, G_PRIORITY_DEFAULT,
                              tp_document_request_done_cb, req,
                              tp_request_free);
}

/* {==== the document ====} */

struct _TpDocument
{
  GObject parent_instance;

  /* Owned references */
  GtkSourceBuffer *buffer;
  TpReadings *readings;         /* the last good readings, or NULL */
  TpSession *session;           /* for tp_document_recompute_now */
  TpCompiler *compiler;
  GThreadPool *pool;
  GMainContext *context;
  GFile *file;
  char *target;
  char *observe;
  char *diagnostic;             /* "line:column: message", or NULL */
  char *draft_id;

  guint diag_line;
  guint diag_column;
  int selected_node;
  int generation;               /* bumped by every change */
  int applied;                  /* the generation of the last result */
  guint text_serial;            /* bumped by every text change */
  guint readings_serial;        /* the text_serial the readings are of */
  guint recompute_source;
  guint recompute_delay;        /* ms; TP_RECOMPUTE_DELAY_MS */
  guint draft_source;
  guint exact : 1;
  guint stale : 1;
  guint loading : 1;
};

G_DEFINE_FINAL_TYPE (TpDocument, tp_document, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_BUFFER,
  PROP_READINGS,
  PROP_STALE,
  PROP_BUSY,
  PROP_DIAGNOSTIC,
  PROP_TARGET,
  PROP_OBSERVE,
  PROP_EXACT,
  PROP_SELECTED_NODE,
  PROP_FILE,
  PROP_TITLE,
  PROP_MODIFIED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

TpDocument *
tp_document_new (void)
{
  return g_object_new (TP_TYPE_DOCUMENT, NULL);
}

static void
tp_document_set_busy_changed (TpDocument *self,
                              gboolean    was_busy)
{
  if (was_busy != tp_document_get_busy (self))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
tp_document_set_diagnostic (TpDocument *self,
                            guint       line,
                            guint       column,
                            const char *message)
{
  char *text = message != NULL ? g_strdup_printf ("%u:%u: %s", line, column, message) : NULL;

  self->diag_line = line;
  self->diag_column = column;
  if (g_strcmp0 (text, self->diagnostic) == 0)
    {
      g_free (text);
      return;
    }
  g_free (self->diagnostic);
  self->diagnostic = text;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DIAGNOSTIC]);
}

static void
tp_document_set_stale (TpDocument *self,
                       gboolean    stale)
{
  if (self->stale == !!stale)
    return;
  self->stale = !!stale;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STALE]);
}

/* A finished compile: new readings, or a diagnostic with the old
 * readings kept and marked stale. */
static void
tp_document_apply_request (TpDocument *self,
                           TpRequest  *req)
{
  gboolean was_busy = tp_document_get_busy (self);

  if (req->generation != self->generation)
    return;                     /* a newer edit is on its way */
  self->applied = req->generation;

  g_object_freeze_notify (G_OBJECT (self));
  if (req->status == TP_STATUS_OK)
    {
      g_clear_pointer (&self->readings, tp_readings_unref);
      self->readings = g_steal_pointer (&req->readings);
      self->readings_serial = req->text_serial;
      tp_document_set_diagnostic (self, 0, 0, NULL);
      tp_document_set_stale (self, FALSE);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_READINGS]);
    }
  else
    {
      tp_document_set_diagnostic (self, req->line, req->column, req->message);
      tp_document_set_stale (self, self->readings != NULL);
    }
  tp_document_set_busy_changed (self, was_busy);
  g_object_thaw_notify (G_OBJECT (self));
}

static TpRequest *
tp_document_new_request (TpDocument *self)
{
  TpRequest *req = g_new0 (TpRequest, 1);
  GtkTextIter start, end;

  req->compiler = g_atomic_rc_box_acquire (self->compiler);
  g_weak_ref_init (&req->document, self);
  req->generation = self->generation;
  req->text_serial = self->text_serial;
  gtk_text_buffer_get_bounds (GTK_TEXT_BUFFER (self->buffer), &start, &end);
  req->source = gtk_text_buffer_get_text (GTK_TEXT_BUFFER (self->buffer), &start, &end, TRUE);
  req->length = strlen (req->source);
  req->target = g_strdup (self->target);
  req->observe = g_strdup (self->observe);
  req->exact = self->exact;
  return req;
}

static void
tp_document_recompute_cb (gpointer data)
{
  TpDocument *self = data;
  g_autoptr(GError) error = NULL;
  TpRequest *req;

  self->recompute_source = 0;
  req = tp_document_new_request (self);
  g_atomic_int_set (&self->compiler->latest, req->generation);
  if (!g_thread_pool_push (self->pool, req, &error))
    {
      g_warning ("Cannot start the reading worker: %s", error->message);
      tp_request_free (req);
    }
}

/* Something the readings depend on changed: forget the generation in
 * flight and read again after @delay_ms (0 for the next idle). */
static void
tp_document_queue_recompute (TpDocument *self,
                             guint       delay_ms)
{
  gboolean was_busy = tp_document_get_busy (self);

  self->generation++;
  g_clear_handle_id (&self->recompute_source, g_source_remove);
  self->recompute_source = g_timeout_add_once (delay_ms, tp_document_recompute_cb, self);
  tp_document_set_busy_changed (self, was_busy);
}

/**
 * tp_document_recompute_now:
 *
 * Reads the current text on the calling (main) thread at once, dropping
 * any pending or in-flight recompute.  For tests and for file loading.
 */
void
tp_document_recompute_now (TpDocument *self)
{
  TpRequest *req;

  g_return_if_fail (TP_IS_DOCUMENT (self));

  g_clear_handle_id (&self->recompute_source, g_source_remove);
  self->generation++;
  g_atomic_int_set (&self->compiler->latest, self->generation);
  if (self->session == NULL)
    self->session = tp_session_new ();
  req = tp_document_new_request (self);
  if (self->session != NULL)
    tp_request_run (req, self->session);
  else
    {
      req->status = TP_STATUS_NO_MEMORY;
      req->line = req->column = 1;
      req->message = g_strdup (_("out of memory"));
    }
  tp_document_apply_request (self, req);
  tp_request_free (req);
}

/* {==== drafts ====} */

char *
tp_document_dup_drafts_dir (void)
{
  return g_build_filename (g_get_user_state_dir (), "topos-playground", "drafts", NULL);
}

static char *
tp_document_draft_path (const char *draft_id,
                        const char *suffix)
{
  g_autofree char *dir = tp_document_dup_drafts_dir ();
  g_autofree char *base = g_strconcat (draft_id, suffix, NULL);

  return g_build_filename (dir, base, NULL);
}

const char *
tp_document_get_draft_id (TpDocument *self)
{
  g_return_val_if_fail (TP_IS_DOCUMENT (self), NULL);

  return self->draft_id;
}

/**
 * tp_document_save_draft_now:
 *
 * Writes the text and the choices to the drafts directory, so that
 * unsaved edits survive a crash.  Both files are replaced atomically.
 */
void
tp_document_save_draft_now (TpDocument *self)
{
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = tp_document_dup_drafts_dir ();
  g_autofree char *text = NULL;
  g_autofree char *tape = NULL;
  g_autofree char *info = NULL;
  g_autofree char *data = NULL;
  gsize length = 0;

  g_return_if_fail (TP_IS_DOCUMENT (self));

  g_clear_handle_id (&self->draft_source, g_source_remove);
  if (self->draft_id == NULL)
    self->draft_id = g_uuid_string_random ();
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      g_warning ("Cannot create %s: %s", dir, g_strerror (errno));
      return;
    }
  text = tp_document_dup_text (self);
  if (self->file != NULL)
    {
      g_autofree char *uri = g_file_get_uri (self->file);
      g_key_file_set_string (keyfile, "draft", "uri", uri);
    }
  if (self->target != NULL)
    g_key_file_set_string (keyfile, "draft", "target", self->target);
  if (self->observe != NULL)
    g_key_file_set_string (keyfile, "draft", "observe", self->observe);
  g_key_file_set_boolean (keyfile, "draft", "exact", self->exact);
  g_key_file_set_int64 (keyfile, "draft", "saved", g_get_real_time () / G_USEC_PER_SEC);
  data = g_key_file_to_data (keyfile, &length, NULL);

  tape = tp_document_draft_path (self->draft_id, ".tape");
  info = tp_document_draft_path (self->draft_id, ".ini");
  if (!g_file_set_contents_full (tape, text, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0600, &error)
      || !g_file_set_contents_full (info, data, (gssize) length,
                                    G_FILE_SET_CONTENTS_CONSISTENT, 0600, &error))
    g_warning ("Cannot keep a draft: %s", error->message);
}

void
tp_document_discard_draft (TpDocument *self)
{
  g_return_if_fail (TP_IS_DOCUMENT (self));

  g_clear_handle_id (&self->draft_source, g_source_remove);
  if (self->draft_id != NULL)
    {
      g_autofree char *tape = tp_document_draft_path (self->draft_id, ".tape");
      g_autofree char *info = tp_document_draft_path (self->draft_id, ".ini");

      g_unlink (tape);
      g_unlink (info);
      g_clear_pointer (&self->draft_id, g_free);
    }
}

/**
 * tp_document_list_drafts:
 *
 * Returns: (transfer full): the ids of the drafts kept in the state
 *   directory, oldest first.
 */
char **
tp_document_list_drafts (void)
{
  g_autofree char *dir = tp_document_dup_drafts_dir ();
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) ids = g_ptr_array_new ();
  const char *entry;

  if (d != NULL)
    while ((entry = g_dir_read_name (d)) != NULL)
      if (g_str_has_suffix (entry, ".tape"))
        g_ptr_array_add (ids, g_strndup (entry, strlen (entry) - strlen (".tape")));
  g_ptr_array_sort (ids, (GCompareFunc) g_strcmp0);
  g_ptr_array_add (ids, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&ids), FALSE);
}

/**
 * tp_document_restore_draft:
 *
 * Loads a draft kept by tp_document_save_draft_now.  The document takes
 * the draft over (it keeps its id) and is marked modified.
 */
gboolean
tp_document_restore_draft (TpDocument  *self,
                           const char  *draft_id,
                           GError     **error)
{
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autofree char *tape = NULL;
  g_autofree char *info = NULL;
  g_autofree char *text = NULL;
  g_autofree char *uri = NULL;
  g_autofree char *target = NULL;
  g_autofree char *observe = NULL;

  g_return_val_if_fail (TP_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (draft_id != NULL, FALSE);

  tape = tp_document_draft_path (draft_id, ".tape");
  info = tp_document_draft_path (draft_id, ".ini");
  if (!g_file_get_contents (tape, &text, NULL, error))
    return FALSE;
  if (!g_utf8_validate (text, -1, NULL))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s is not UTF-8 text", tape);
      return FALSE;
    }
  g_key_file_load_from_file (keyfile, info, G_KEY_FILE_NONE, NULL);
  uri = g_key_file_get_string (keyfile, "draft", "uri", NULL);
  target = g_key_file_get_string (keyfile, "draft", "target", NULL);
  observe = g_key_file_get_string (keyfile, "draft", "observe", NULL);

  g_object_freeze_notify (G_OBJECT (self));
  self->loading = TRUE;
  /* the draft is where the window starts: Ctrl+Z does not empty it */
  gtk_text_buffer_begin_irreversible_action (GTK_TEXT_BUFFER (self->buffer));
  gtk_text_buffer_set_text (GTK_TEXT_BUFFER (self->buffer), text, -1);
  gtk_text_buffer_end_irreversible_action (GTK_TEXT_BUFFER (self->buffer));
  self->loading = FALSE;
  if (uri != NULL)
    {
      g_autoptr(GFile) file = g_file_new_for_uri (uri);
      tp_document_set_file (self, file);
    }
  tp_document_set_target (self, target);
  tp_document_set_observe (self, observe);
  tp_document_set_exact (self, g_key_file_get_boolean (keyfile, "draft", "exact", NULL));
  g_free (self->draft_id);
  self->draft_id = g_strdup (draft_id);
  gtk_text_buffer_set_modified (GTK_TEXT_BUFFER (self->buffer), TRUE);
  g_clear_handle_id (&self->draft_source, g_source_remove);
  tp_document_queue_recompute (self, 0);
  g_object_thaw_notify (G_OBJECT (self));
  return TRUE;
}

static void
tp_document_draft_cb (gpointer data)
{
  TpDocument *self = data;

  self->draft_source = 0;
  if (gtk_text_buffer_get_modified (GTK_TEXT_BUFFER (self->buffer)))
    tp_document_save_draft_now (self);
}

/* {==== buffer signals ====} */

static void
tp_document_changed_cb (TpDocument    *self,
                        GtkTextBuffer *buffer)
{
  self->text_serial++;
  if (self->loading)
    return;
  tp_document_queue_recompute (self, self->recompute_delay);
  if (gtk_text_buffer_get_modified (buffer))
    {
      g_clear_handle_id (&self->draft_source, g_source_remove);
      self->draft_source = g_timeout_add_once (TP_DRAFT_DELAY_MS, tp_document_draft_cb, self);
    }
}

static void
tp_document_modified_changed_cb (TpDocument    *self,
                                 GtkTextBuffer *buffer)
{
  if (!gtk_text_buffer_get_modified (buffer))
    tp_document_discard_draft (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODIFIED]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

/* {==== GObject ====} */

static void
tp_document_dispose (GObject *object)
{
  TpDocument *self = (TpDocument *) object;

  g_clear_handle_id (&self->recompute_source, g_source_remove);
  /* Keep the draft on disk if there are unsaved edits: that is the point. */
  if (self->draft_source != 0 && gtk_text_buffer_get_modified (GTK_TEXT_BUFFER (self->buffer)))
    tp_document_save_draft_now (self);
  g_clear_handle_id (&self->draft_source, g_source_remove);
  if (self->pool != NULL)
    {
      /* Queued requests are dropped; one in flight finishes on its own
       * and finds the document gone. */
      g_thread_pool_free (self->pool, TRUE, FALSE);
      self->pool = NULL;
    }

  G_OBJECT_CLASS (tp_document_parent_class)->dispose (object);
}

static void
tp_document_finalize (GObject *object)
{
  TpDocument *self = (TpDocument *) object;

  g_clear_object (&self->buffer);
  g_clear_pointer (&self->readings, tp_readings_unref);
  g_clear_pointer (&self->session, tp_session_free);
  g_atomic_rc_box_release_full (self->compiler, (GDestroyNotify) tp_compiler_clear);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_clear_object (&self->file);
  g_free (self->target);
  g_free (self->observe);
  g_free (self->diagnostic);
  g_free (self->draft_id);

  G_OBJECT_CLASS (tp_document_parent_class)->finalize (object);
}

static void
tp_document_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  TpDocument *self = TP_DOCUMENT (object);

  switch (prop_id)
    {
    case PROP_BUFFER:
      g_value_set_object (value, self->buffer);
      break;
    case PROP_READINGS:
      g_value_set_boxed (value, self->readings);
      break;
    case PROP_STALE:
      g_value_set_boolean (value, self->stale);
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, tp_document_get_busy (self));
      break;
    case PROP_DIAGNOSTIC:
      g_value_set_string (value, self->diagnostic);
      break;
    case PROP_TARGET:
      g_value_set_string (value, self->target);
      break;
    case PROP_OBSERVE:
      g_value_set_string (value, self->observe);
      break;
    case PROP_EXACT:
      g_value_set_boolean (value, self->exact);
      break;
    case PROP_SELECTED_NODE:
      g_value_set_int (value, self->selected_node);
      break;
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;
    case PROP_TITLE:
      g_value_take_string (value, tp_document_dup_title (self));
      break;
    case PROP_MODIFIED:
      g_value_set_boolean (value, tp_document_get_modified (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tp_document_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  TpDocument *self = TP_DOCUMENT (object);

  switch (prop_id)
    {
    case PROP_TARGET:
      tp_document_set_target (self, g_value_get_string (value));
      break;
    case PROP_OBSERVE:
      tp_document_set_observe (self, g_value_get_string (value));
      break;
    case PROP_EXACT:
      tp_document_set_exact (self, g_value_get_boolean (value));
      break;
    case PROP_SELECTED_NODE:
      tp_document_set_selected_node (self, g_value_get_int (value));
      break;
    case PROP_FILE:
      tp_document_set_file (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tp_document_class_init (TpDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = tp_document_dispose;
  object_class->finalize = tp_document_finalize;
  object_class->get_property = tp_document_get_property;
  object_class->set_property = tp_document_set_property;

  properties[PROP_BUFFER] =
    g_param_spec_object ("buffer", NULL, NULL, GTK_SOURCE_TYPE_BUFFER, ro);
  properties[PROP_READINGS] =
    g_param_spec_boxed ("readings", NULL, NULL, TP_TYPE_READINGS, ro);
  properties[PROP_STALE] =
    g_param_spec_boolean ("stale", NULL, NULL, FALSE, ro);
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE, ro);
  properties[PROP_DIAGNOSTIC] =
    g_param_spec_string ("diagnostic", NULL, NULL, NULL, ro);
  properties[PROP_TARGET] =
    g_param_spec_string ("target", NULL, NULL, NULL, rw);
  properties[PROP_OBSERVE] =
    g_param_spec_string ("observe", NULL, NULL, NULL, rw);
  properties[PROP_EXACT] =
    g_param_spec_boolean ("exact", NULL, NULL, FALSE, rw);
  properties[PROP_SELECTED_NODE] =
    g_param_spec_int ("selected-node", NULL, NULL, -1, G_MAXINT, -1, rw);
  properties[PROP_FILE] =
    g_param_spec_object ("file", NULL, NULL, G_TYPE_FILE, rw);
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL, ro);
  properties[PROP_MODIFIED] =
    g_param_spec_boolean ("modified", NULL, NULL, FALSE, ro);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tp_document_init (TpDocument *self)
{
  GtkSourceLanguageManager *languages = gtk_source_language_manager_get_default ();
  GtkSourceLanguage *tape = gtk_source_language_manager_get_language (languages, "tape");

  self->selected_node = -1;
  self->recompute_delay = TP_RECOMPUTE_DELAY_MS;
  self->buffer = gtk_source_buffer_new_with_language (tape);
  gtk_source_buffer_set_highlight_matching_brackets (self->buffer, TRUE);
  self->compiler = g_atomic_rc_box_new0 (TpCompiler);
  self->context = g_main_context_ref_thread_default ();
  self->pool = g_thread_pool_new (tp_document_worker_func, self->context, 1, FALSE, NULL);

  /* after the buffer's own handler, which marks it modified */
  g_signal_connect_object (self->buffer, "changed",
                           G_CALLBACK (tp_document_changed_cb), self,
                           G_CONNECT_SWAPPED | G_CONNECT_AFTER);
  g_signal_connect_object (self->buffer, "modified-changed",
                           G_CALLBACK (tp_document_modified_changed_cb), self,
                           G_CONNECT_SWAPPED);
}

/* {==== accessors ====} */

/* The debounce after a text change; the benchmark sets 0 to time the
 * reading itself. */
void
tp_document_set_recompute_delay (TpDocument *self,
                                 guint       delay_ms)
{
  g_return_if_fail (TP_IS_DOCUMENT (self));

  self->recompute_delay = delay_ms;
}

GtkSourceBuffer *
tp_document_get_buffer (TpDocument *self)
{
  g_return_val_if_fail (TP_IS_DOCUMENT (self), NULL);

  return self->buffer;
}

char *
tp_document_dup_text (TpDocument *self)
{
  GtkTextIter start, end;

  g_return_val_if_fail (TP_IS_DOCUMENT (self), NULL);

  gtk_text_buffer_get_bounds (GTK_TEXT_BUFFER (self->buffer), &start, &end);
  return gtk_text_buffer_get_text (GTK_TEXT_BUFFER (self->buffer), &start, &end, TRUE);
}

/**
 * tp_document_set_text:
 *
 * Replaces the whole text as one undoable step (a sample, a test).
 */
void
tp_document_set_text (TpDocument *self,
                      const char *text)
{
  GtkTextBuffer *buffer;
  GtkTextIter start, end;

  g_return_if_fail (TP_IS_DOCUMENT (self));
  g_return_if_fail (text != NULL);

  buffer = GTK_TEXT_BUFFER (self->buffer);
  gtk_text_buffer_begin_user_action (buffer);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_text_buffer_delete (buffer, &start, &end);
  gtk_text_buffer_insert (buffer, &start, text, -1);
  gtk_text_buffer_end_user_action (buffer);
  gtk_text_buffer_get_start_iter (buffer, &start);
  gtk_text_buffer_place_cursor (buffer, &start);
}

TpReadings *
tp_document_get_readings (TpDocument *self)
{
  g_return_val_if_fail (TP_IS_DOCUMENT (self), NULL);

  return self->readings;
}

gboolean
tp_document_get_stale (TpDocument *self)
{
  g_return_val_if_fail (TP_IS_DOCUMENT (self), FALSE);

  return self->stale;
}

/* TRUE while the readings lag behind the text: a recompute is queued or
 * running. */
gboolean
tp_document_get_busy (TpDocument *self)
{
  g_return_val_if_fail (TP_IS_DOCUMENT (self), FALSE);

  return self->applied != self->generation;
}

const char *
tp_document_get_diagnostic (TpDocument *self)
{
  g_return_val_if_fail (TP_IS_DOCUMENT (self), NULL);

  return self->diagnostic;
}

gboolean
tp_document_get_diagnostic_position (TpDocument *self,
                                     guint      *line,
                                     guint      *column)
{
  g_return_val_if_fail (TP_IS_DOCUMENT (self), FALSE);

  if (line != NULL)
    *line = self->diag_line;
  if (column != NULL)
    *column = self->diag_column;
  return self->diagnostic != NULL;
}

const char *
tp_document_get_target (TpDocument *self)
{
  g_return_val_if_fail (TP_IS_DOCUMENT (self), NULL);

  return self->target;
}

static gboolean
tp_document_set_choice (char       **field,
                        const char  *value)
{
  if (value != NULL && value[0] == '\0')
    value = NULL;
  if (g_strcmp0 (*field, value) == 0)
    return FALSE;
  g_free (*field);
  *field = g_strdup (value);
  return TRUE;
}

/* NULL or "" chooses "the last scalar". */
void
tp_document_set_target (TpDocument *self,
                        const char *target)
{
  g_return_if_fail (TP_IS_DOCUMENT (self));

  if (tp_document_set_choice (&self->target, target))
    {
      tp_document_queue_recompute (self, 0);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TARGET]);
    }
}

const char *
tp_document_get_observe (TpDocument *self)
{
  g_return_val_if_fail (TP_IS_DOCUMENT (self), NULL);

  return self->observe;
}

/* NULL or "" observes "nothing extra". */
void
tp_document_set_observe (TpDocument *self,
                         const char *observe)
{
  g_return_if_fail (TP_IS_DOCUMENT (self));

  if (tp_document_set_choice (&self->observe, observe))
    {
      tp_document_queue_recompute (self, 0);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OBSERVE]);
    }
}

gboolean
tp_document_get_exact (TpDocument *self)
{
  g_return_val_if_fail (TP_IS_DOCUMENT (self), FALSE);

  return self->exact;
}

void
tp_document_set_exact (TpDocument *self,
                       gboolean    exact)
{
  g_return_if_fail (TP_IS_DOCUMENT (self));

  if (self->exact == !!exact)
    return;
  self->exact = !!exact;
  tp_document_queue_recompute (self, 0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EXACT]);
}

int
tp_document_get_selected_node (TpDocument *self)
{
  g_return_val_if_fail (TP_IS_DOCUMENT (self), -1);

  return self->selected_node;
}

/* The node every pane highlights; -1 for none. */
void
tp_document_set_selected_node (TpDocument *self,
                               int         node)
{
  g_return_if_fail (TP_IS_DOCUMENT (self));

  node = MAX (node, -1);
  if (self->selected_node == node)
    return;
  self->selected_node = node;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_NODE]);
}

GFile *
tp_document_get_file (TpDocument *self)
{
  g_return_val_if_fail (TP_IS_DOCUMENT (self), NULL);

  return self->file;
}

void
tp_document_set_file (TpDocument *self,
                      GFile      *file)
{
  g_return_if_fail (TP_IS_DOCUMENT (self));
  g_return_if_fail (!file || G_IS_FILE (file));

  if (g_set_object (&self->file, file))
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILE]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
    }
}

/* The file's display name, or "Untitled". */
char *
tp_document_dup_title (TpDocument *self)
{
  g_return_val_if_fail (TP_IS_DOCUMENT (self), NULL);

  if (self->file != NULL)
    {
      g_autofree char *base = g_file_get_basename (self->file);
      return g_filename_display_name (base);
    }
  return g_strdup (_("Untitled"));
}

gboolean
tp_document_get_modified (TpDocument *self)
{
  g_return_val_if_fail (TP_IS_DOCUMENT (self), FALSE);

  return gtk_text_buffer_get_modified (GTK_TEXT_BUFFER (self->buffer));
}

/* No file and no unsaved edits: opening something may replace it. */
gboolean
tp_document_is_pristine (TpDocument *self)
{
  g_return_val_if_fail (TP_IS_DOCUMENT (self), FALSE);

  return self->file == NULL && !tp_document_get_modified (self);
}

/* {==== statements and lines ====} */

/* The readings' lines are those of the text they were read from: once
 * the text has changed (a line half typed, refused; an edit not read
 * yet), a line number no longer names the same statement. */
static gboolean
tp_document_lines_current (TpDocument *self)
{
  return self->readings != NULL && self->readings_serial == self->text_serial;
}

/**
 * tp_document_node_for_line:
 *
 * Returns: the node the statement on @line (1-based) binds, or -1 (also
 *   while the readings are of an older text).
 */
int
tp_document_node_for_line (TpDocument *self,
                           guint       line)
{
  g_return_val_if_fail (TP_IS_DOCUMENT (self), -1);

  if (!tp_document_lines_current (self))
    return -1;
  for (guint k = 0; k < self->readings->n_names; k++)
    if (self->readings->names[k].line == line)
      return (int) self->readings->names[k].node;
  return -1;
}

/**
 * tp_document_lines_for_node:
 *
 * Returns: (transfer full): the 1-based lines (guint) of the statements
 *   that bind @node.
 */
GArray *
tp_document_lines_for_node (TpDocument *self,
                            int         node)
{
  GArray *lines = g_array_new (FALSE, FALSE, sizeof (guint));

  g_return_val_if_fail (TP_IS_DOCUMENT (self), lines);

  for (guint k = 0; tp_document_lines_current (self) && node >= 0 && k < self->readings->n_names; k++)
    if ((int) self->readings->names[k].node == node)
      g_array_append_val (lines, self->readings->names[k].line);
  return lines;
}

/**
 * tp_document_source_for_node:
 *
 * Returns: whether @node was recorded by an expression of the current
 *   text; @span is then its characters (from the engine's sources).
 */
gboolean
tp_document_source_for_node (TpDocument   *self,
                             int           node,
                             TpSourceSpan *span)
{
  g_return_val_if_fail (TP_IS_DOCUMENT (self), FALSE);

  return tp_document_lines_current (self) && node >= 0
         && tp_readings_get_source (self->readings, (guint) node, span);
}

/* {==== files ====} */

/* The choices kept with a saved file, in its GIO metadata (as GNOME's
 * text editor keeps a file's cursor): the target and the observed value,
 * "" for the default.  Where the file system or the session keeps no
 * metadata, the file opens with the defaults. */
#define TP_METADATA_TARGET "metadata::topos-playground-target"
#define TP_METADATA_OBSERVE "metadata::topos-playground-observe"

static void
tp_document_load_metadata_cb (GObject      *object,
                              GAsyncResult *result,
                              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  TpDocument *self = g_task_get_source_object (task);
  g_autoptr(GFileInfo) info = g_file_query_info_finish (G_FILE (object), result, NULL);

  if (info != NULL && g_file_info_has_attribute (info, TP_METADATA_TARGET))
    {
      const char *target = g_file_info_get_attribute_string (info, TP_METADATA_TARGET);
      const char *observe = g_file_info_get_attribute_string (info, TP_METADATA_OBSERVE);

      tp_document_set_target (self, target != NULL && target[0] != '\0' ? target : NULL);
      tp_document_set_observe (self, observe != NULL && observe[0] != '\0' ? observe : NULL);
    }
  g_task_return_boolean (task, TRUE);
}

static void
tp_document_load_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  TpDocument *self = g_task_get_source_object (task);
  GFile *file = G_FILE (object);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;

  if (!g_file_load_contents_finish (file, result, &contents, &length, NULL, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (!g_utf8_validate_len (contents, length, NULL) || memchr (contents, '\0', length) != NULL)
    {
      g_autofree char *name = g_file_get_parse_name (file);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                               /* Translators: %s is the file's name */
                               _("%s is not a text file"), name);
      return;
    }

  tp_document_discard_draft (self);
  self->loading = TRUE;
  gtk_text_buffer_begin_irreversible_action (GTK_TEXT_BUFFER (self->buffer));
  gtk_text_buffer_set_text (GTK_TEXT_BUFFER (self->buffer), contents, (int) length);
  gtk_text_buffer_end_irreversible_action (GTK_TEXT_BUFFER (self->buffer));
  self->loading = FALSE;
  {
    GtkTextIter start;
    gtk_text_buffer_get_start_iter (GTK_TEXT_BUFFER (self->buffer), &start);
    gtk_text_buffer_place_cursor (GTK_TEXT_BUFFER (self->buffer), &start);
  }
  gtk_text_buffer_set_modified (GTK_TEXT_BUFFER (self->buffer), FALSE);
  tp_document_set_file (self, file);
  tp_document_queue_recompute (self, 0);
  {
    GCancellable *cancellable = g_task_get_cancellable (task);

    g_file_query_info_async (file, TP_METADATA_TARGET "," TP_METADATA_OBSERVE, G_FILE_QUERY_INFO_NONE,
                             G_PRIORITY_DEFAULT, cancellable,
                             tp_document_load_metadata_cb, g_steal_pointer (&task));
  }
}

void
tp_document_load_async (TpDocument          *self,
                        GFile               *file,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (TP_IS_DOCUMENT (self));
  g_return_if_fail (G_IS_FILE (file));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tp_document_load_async);
  g_file_load_contents_async (file, cancellable, tp_document_load_cb, task);
}

gboolean
tp_document_load_finish (TpDocument    *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

typedef struct
{
  GFile *file;
  GBytes *bytes;
  guint text_serial;            /* the text's change count when saved */
} SaveState;

static void
save_state_free (gpointer data)
{
  SaveState *state = data;

  g_clear_object (&state->file);
  g_clear_pointer (&state->bytes, g_bytes_unref);
  g_free (state);
}

/* The file is saved whether or not its metadata could be kept. */
static void
tp_document_save_metadata_cb (GObject      *object,
                              GAsyncResult *result,
                              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;

  g_file_set_attributes_finish (G_FILE (object), result, NULL, NULL);
  g_task_return_boolean (task, TRUE);
}

static void
tp_document_save_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  TpDocument *self = g_task_get_source_object (task);
  SaveState *state = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (!g_file_replace_contents_finish (G_FILE (object), result, NULL, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  tp_document_set_file (self, state->file);
  /* Only what was written is saved: edits made meanwhile stay modified. */
  if (state->text_serial == self->text_serial)
    gtk_text_buffer_set_modified (GTK_TEXT_BUFFER (self->buffer), FALSE);
  {
    g_autoptr(GFileInfo) info = g_file_info_new ();
    GCancellable *cancellable = g_task_get_cancellable (task);

    g_file_info_set_attribute_string (info, TP_METADATA_TARGET, self->target != NULL ? self->target : "");
    g_file_info_set_attribute_string (info, TP_METADATA_OBSERVE, self->observe != NULL ? self->observe : "");
    g_file_set_attributes_async (state->file, info, G_FILE_QUERY_INFO_NONE, G_PRIORITY_DEFAULT,
                                 cancellable, tp_document_save_metadata_cb,
                                 g_steal_pointer (&task));
  }
}

/* Writes the text to @file (or the document's file) atomically: GIO
 * writes a temporary file beside it and renames it over the old one.
 * A text file ends with a newline: one is added when the text has none
 * (the text in the editor stays as it is). */
void
tp_document_save_async (TpDocument          *self,
                        GFile               *file,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  GTask *task;
  SaveState *state;
  char *text;

  g_return_if_fail (TP_IS_DOCUMENT (self));
  g_return_if_fail (!file || G_IS_FILE (file));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tp_document_save_async);
  if (file == NULL)
    file = self->file;
  if (file == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
                               _("the program has no file yet"));
      g_object_unref (task);
      return;
    }
  text = tp_document_dup_text (self);
  if (text[0] != '\0' && !g_str_has_suffix (text, "\n"))
    {
      char *ended = g_strconcat (text, "\n", NULL);

      g_free (text);
      text = ended;
    }
  state = g_new0 (SaveState, 1);
  state->file = g_object_ref (file);
  state->bytes = g_bytes_new_take (text, strlen (text));
  state->text_serial = self->text_serial;
  g_task_set_task_data (task, state, save_state_free);
  g_file_replace_contents_bytes_async (file, state->bytes, NULL, FALSE,
                                       G_FILE_CREATE_REPLACE_DESTINATION,
                                       cancellable, tp_document_save_cb, task);
}

gboolean
tp_document_save_finish (TpDocument    *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
