/* tp-document.c: the program, its choices, its readings, its file.
 *
 * A change bumps a generation counter and (re)arms a debounce timer;
 * when it fires, a snapshot of the text and the choices goes to the
 * document's reader (tp-reader.h: one worker thread with its own engine
 * session).  The result comes back to the main context and is applied
 * only if its generation is still the current one, so a stale edit's
 * readings are dropped.  Unsaved edits are kept in the application's
 * drafts (tp-drafts.h). */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "tp-document-private.h"
#include "tp-reader.h"

#define TP_DRAFT_DELAY_MS 1000

/* {==== the document ====} */


G_DEFINE_FINAL_TYPE (TpDocument, tp_document, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_BUFFER,
  PROP_READINGS,
  PROP_TEACHING,
  PROP_STALE,
  PROP_BUSY,
  PROP_DIAGNOSTIC,
  PROP_TARGET,
  PROP_OBSERVE,
  PROP_EXACT,
  PROP_OPTIMIZE,
  PROP_DIRECTION,
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

/* A finished read: new readings, or a diagnostic with the old readings
 * kept and marked stale.  @text_serial is the text's change count when
 * it was asked for. */
static void
tp_document_apply_read (TpDocument *self,
                        int         generation,
                        guint       text_serial,
                        TpRead     *read)
{
  gboolean was_busy = tp_document_get_busy (self);

  if (generation != self->generation)
    return;                     /* a newer edit is on its way */
  self->applied = generation;

  g_object_freeze_notify (G_OBJECT (self));
  if (read->status == TP_STATUS_OK)
    {
      g_clear_pointer (&self->readings, tp_readings_unref);
      self->readings = g_steal_pointer (&read->readings);
      self->readings_serial = text_serial;
      self->readings_generation = generation;
      tp_document_set_diagnostic (self, 0, 0, NULL);
      tp_document_set_stale (self, FALSE);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_READINGS]);
    }
  else
    {
      tp_document_set_diagnostic (self, read->line, read->column, read->message);
      tp_document_set_stale (self, self->readings != NULL);
    }
  tp_document_set_busy_changed (self, was_busy);
  g_object_thaw_notify (G_OBJECT (self));
}

/* The reader's result: each generation's text serial is kept beside it
 * (the read itself knows nothing of the buffer). */
static void
tp_document_read_done_cb (GObject *owner,
                          int      generation,
                          TpRead  *read)
{
  TpDocument *self = TP_DOCUMENT (owner);

  if (generation == self->generation)
    tp_document_apply_read (self, generation, self->asked_serial, read);
}

/* The teaching results of a read (tp-teaching.h), after its readings:
 * attached to them while they are the newest. */
static void
tp_document_attach_teaching (TpDocument *self,
                             int         generation,
                             TpTeaching *teaching,
                             TpChecked  *checked)
{
  if (generation != self->generation || self->readings == NULL
      || self->readings_generation != generation || (teaching == NULL && checked == NULL))
    {
      tp_teaching_free (teaching);
      tp_checked_free (checked);
      return;
    }
  if (teaching != NULL)
    tp_readings_attach_teaching (self->readings, teaching);
  if (checked != NULL)
    tp_readings_attach_check (self->readings, checked);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEACHING]);
}

static void
tp_document_teach_cb (GObject       *owner,
                      int            generation,
                      TpTeaching    *teaching,
                      TpChecked     *checked,
                      TpLessonGrade *grade)
{
  tp_document_attach_teaching (TP_DOCUMENT (owner), generation, teaching, checked);
  _tp_document_take_grade (TP_DOCUMENT (owner), generation, grade);
}

/* What to read now: the text and the choices. */
static void
tp_document_new_read (TpDocument *self,
                      TpRead     *read)
{
  GtkTextIter start, end;

  *read = (TpRead) { 0 };
  gtk_text_buffer_get_bounds (GTK_TEXT_BUFFER (self->buffer), &start, &end);
  read->source = gtk_text_buffer_get_text (GTK_TEXT_BUFFER (self->buffer), &start, &end, TRUE);
  read->length = strlen (read->source);
  read->target = g_strdup (self->target);
  read->observe = g_strdup (self->observe);
  read->exact = self->exact;
  read->optimize = self->optimize;
  read->direction = g_strdup (self->direction);
  read->remat = g_strdupv (self->remat);
  read->remat_auto = self->remat_auto;
  _tp_document_lesson_read (self, read);
}

static void
tp_document_recompute_cb (gpointer data)
{
  TpDocument *self = data;
  TpRead read;

  self->recompute_source = 0;
  self->read_here = FALSE;
  tp_document_new_read (self, &read);
  self->asked_serial = self->text_serial;
  tp_reader_push (self->reader, self->generation, &read);
}

/* Something the readings depend on changed: forget the generation in
 * flight and read again after @delay_ms (0 for the next idle). */
void
_tp_document_queue_recompute (TpDocument *self,
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
  TpRead read;

  g_return_if_fail (TP_IS_DOCUMENT (self));

  g_clear_handle_id (&self->recompute_source, g_source_remove);
  self->generation++;
  if (self->session == NULL)
    self->session = tp_session_new ();
  tp_document_new_read (self, &read);
  tp_read_run (&read, self->session);
  /* before the readings are applied: a pass asked for as they come is
   * copied from this session (tp-document-passes.c) */
  self->read_here = TRUE;
  tp_document_apply_read (self, self->generation, self->text_serial, &read);
  if (read.status == TP_STATUS_OK)
    {
      TpTeaching *teaching = NULL;
      TpChecked *checked = NULL;

      tp_read_teach (self->session, &teaching, &checked);
      tp_document_attach_teaching (self, self->generation, teaching, checked);
    }
  self->read_here = TRUE;
  _tp_document_take_grade (self, self->generation, tp_read_grade (&read, self->session));
  tp_read_clear (&read);
}

/* {==== buffer signals ====} */

#define COMMENT_LINES 50
#define COMMENT_CHARS 60

/* The text's first line that is not blank, when it is a comment: what the
 * program calls itself (at most COMMENT_CHARS characters), or NULL. */
static char *
tp_document_first_comment (TpDocument *self)
{
  GtkTextIter line, end;

  gtk_text_buffer_get_start_iter (GTK_TEXT_BUFFER (self->buffer), &line);
  for (guint i = 0; i < COMMENT_LINES; i++)
    {
      g_autofree char *text = NULL;
      char *words;

      end = line;
      if (!gtk_text_iter_ends_line (&end))
        gtk_text_iter_forward_to_line_end (&end);
      if (gtk_text_iter_get_line_offset (&end) > 4 * COMMENT_CHARS)
        gtk_text_iter_set_line_offset (&end, 4 * COMMENT_CHARS);
      text = gtk_text_iter_get_slice (&line, &end);
      words = g_strstrip (text);
      if (words[0] == '\0')
        {
          if (!gtk_text_iter_forward_line (&line))
            return NULL;
          continue;
        }
      if (words[0] != '#')
        return NULL;
      words = g_strstrip (words + 1);
      if (words[0] == '\0')
        return NULL;
      if (g_utf8_strlen (words, -1) > COMMENT_CHARS)
        {
          char *cut = g_utf8_offset_to_pointer (words, COMMENT_CHARS);

          /* Translators: a title cut short; %s is its start */
          return g_strdup_printf (_("%s…"), g_strstrip (g_strndup (words, (gsize) (cut - words))));
        }
      return g_strdup (words);
    }
  return NULL;
}

static void
tp_document_update_comment (TpDocument *self)
{
  g_autofree char *comment = tp_document_first_comment (self);

  if (g_strcmp0 (comment, self->comment) == 0)
    return;
  g_free (self->comment);
  self->comment = g_steal_pointer (&comment);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

static void
tp_document_changed_cb (TpDocument    *self,
                        GtkTextBuffer *buffer)
{
  self->text_serial++;
  tp_document_update_comment (self);
  if (self->loading)
    return;
  _tp_document_queue_recompute (self, self->recompute_delay);
  if (gtk_text_buffer_get_modified (buffer))
    {
      g_clear_handle_id (&self->draft_source, g_source_remove);
      self->draft_source = g_timeout_add_once (TP_DRAFT_DELAY_MS, _tp_document_draft_cb, self);
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
  g_clear_pointer (&self->reader, tp_reader_free);

  G_OBJECT_CLASS (tp_document_parent_class)->dispose (object);
}

static void
tp_document_finalize (GObject *object)
{
  TpDocument *self = (TpDocument *) object;

  g_clear_object (&self->buffer);
  g_clear_pointer (&self->readings, tp_readings_unref);
  g_clear_pointer (&self->session, tp_session_free);
  g_clear_object (&self->file);
  g_free (self->target);
  g_free (self->observe);
  g_free (self->direction);
  g_strfreev (self->remat);
  g_free (self->diagnostic);
  g_free (self->draft_id);
  g_free (self->comment);
  g_clear_object (&self->drafts);
  _tp_document_lesson_finalize (self);

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
    case PROP_TEACHING:
      g_value_set_boolean (value, tp_document_get_teaching (self));
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
    case PROP_OPTIMIZE:
      g_value_set_boolean (value, self->optimize);
      break;
    case PROP_DIRECTION:
      g_value_set_string (value, self->direction);
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
    case PROP_OPTIMIZE:
      tp_document_set_optimize (self, g_value_get_boolean (value));
      break;
    case PROP_DIRECTION:
      tp_document_set_direction (self, g_value_get_string (value));
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
  _tp_document_lesson_class_init (object_class);
  _tp_document_passes_class_init (object_class);

  properties[PROP_BUFFER] =
    g_param_spec_object ("buffer", NULL, NULL, GTK_SOURCE_TYPE_BUFFER, ro);
  properties[PROP_READINGS] =
    g_param_spec_boxed ("readings", NULL, NULL, TP_TYPE_READINGS, ro);
  /* notified when the readings' teaching results come (tp-teaching.h) */
  properties[PROP_TEACHING] =
    g_param_spec_boolean ("teaching", NULL, NULL, FALSE, ro);
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
  /* the exact rewrites before the plan; forward mode's direction
   * (tp-document-passes.c) */
  properties[PROP_OPTIMIZE] =
    g_param_spec_boolean ("optimize", NULL, NULL, FALSE, rw);
  properties[PROP_DIRECTION] =
    g_param_spec_string ("direction", NULL, NULL, NULL, rw);
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
  self->reader = tp_reader_new (G_OBJECT (self), tp_document_read_done_cb, tp_document_teach_cb);
  _tp_document_passes_init (self);

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

/* Whether the readings have their teaching results (all but the check,
 * which may come after or not at all: tp_readings_get_text of the check
 * is "" until then). */
gboolean
tp_document_get_teaching (TpDocument *self)
{
  g_return_val_if_fail (TP_IS_DOCUMENT (self), FALSE);

  return self->readings != NULL && self->readings->teaching != NULL;
}

/* Whether the current readings still wait for a teaching result (the
 * check last): none is waited for the last good readings of a refused
 * program. */
gboolean
tp_document_get_teaching_pending (TpDocument *self)
{
  g_return_val_if_fail (TP_IS_DOCUMENT (self), FALSE);

  return self->readings != NULL && !self->stale
         && (self->readings->teaching == NULL || self->readings->checked == NULL);
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
      _tp_document_queue_recompute (self, 0);
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
      _tp_document_queue_recompute (self, 0);
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
  _tp_document_queue_recompute (self, 0);
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

/* The file's display name; with no file, the program's first comment
 * (tp_document_get_comment), else "Untitled". */
char *
tp_document_dup_title (TpDocument *self)
{
  g_return_val_if_fail (TP_IS_DOCUMENT (self), NULL);

  if (self->file != NULL)
    {
      g_autofree char *base = g_file_get_basename (self->file);
      return g_filename_display_name (base);
    }
  if (self->comment != NULL)
    return g_strdup (self->comment);
  return g_strdup (_("Untitled"));
}

/* The text's first line that is not blank, when it is a comment, as a
 * title (its '#' and spaces taken off, long ones cut); NULL for none. */
const char *
tp_document_get_comment (TpDocument *self)
{
  g_return_val_if_fail (TP_IS_DOCUMENT (self), NULL);

  return self->comment;
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
