/* tp-document-files.c: a document's file: loading it (the text must be
 * UTF-8 without NULs; the choices kept with it come back from its GIO
 * metadata) and saving it atomically with a final newline. */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "tp-document-private.h"

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
  _tp_document_queue_recompute (self, 0);
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
