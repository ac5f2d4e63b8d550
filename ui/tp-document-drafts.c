/* tp-document-drafts.c: the document's drafts, unsaved edits kept in
 * the application's drafts (tp-drafts.h) so that they survive a crash. */
#include "config.h"

#include "tp-document-private.h"

/* {==== drafts ====} */

/* The application's drafts (tp-drafts.h): a document with unsaved edits
 * keeps one there, written a second after the last change; none is kept
 * without a TpDrafts. */
void
tp_document_set_drafts (TpDocument *self,
                        TpDrafts   *drafts)
{
  g_return_if_fail (TP_IS_DOCUMENT (self));
  g_return_if_fail (drafts == NULL || TP_IS_DRAFTS (drafts));

  g_set_object (&self->drafts, drafts);
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
 * Writes the text and the choices to the drafts, so that unsaved edits
 * survive a crash.
 */
void
tp_document_save_draft_now (TpDocument *self)
{
  g_autoptr(GError) error = NULL;
  TpDraft draft = { 0 };

  g_return_if_fail (TP_IS_DOCUMENT (self));

  g_clear_handle_id (&self->draft_source, g_source_remove);
  if (self->drafts == NULL)
    return;
  if (self->draft_id == NULL)
    self->draft_id = tp_drafts_new_id (self->drafts);
  draft.text = tp_document_dup_text (self);
  draft.uri = self->file != NULL ? g_file_get_uri (self->file) : NULL;
  draft.target = g_strdup (self->target);
  draft.observe = g_strdup (self->observe);
  draft.exact = self->exact;
  if (!tp_drafts_save (self->drafts, self->draft_id, &draft, &error))
    g_warning ("Cannot keep a draft: %s", error->message);
  tp_draft_clear (&draft);
}

void
tp_document_discard_draft (TpDocument *self)
{
  g_return_if_fail (TP_IS_DOCUMENT (self));

  g_clear_handle_id (&self->draft_source, g_source_remove);
  if (self->draft_id != NULL)
    {
      if (self->drafts != NULL)
        tp_drafts_discard (self->drafts, self->draft_id);
      g_clear_pointer (&self->draft_id, g_free);
    }
}

/**
 * tp_document_restore_draft:
 *
 * Loads the draft @draft_id from the document's drafts.  The document
 * takes the draft over (it keeps its id) and is marked modified.
 */
gboolean
tp_document_restore_draft (TpDocument  *self,
                           const char  *draft_id,
                           GError     **error)
{
  TpDraft draft = { 0 };

  g_return_val_if_fail (TP_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (draft_id != NULL, FALSE);

  if (self->drafts == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "the document keeps no drafts");
      return FALSE;
    }
  if (!tp_drafts_load (self->drafts, draft_id, &draft, error))
    return FALSE;

  g_object_freeze_notify (G_OBJECT (self));
  self->loading = TRUE;
  /* the draft is where the window starts: Ctrl+Z does not empty it */
  gtk_text_buffer_begin_irreversible_action (GTK_TEXT_BUFFER (self->buffer));
  gtk_text_buffer_set_text (GTK_TEXT_BUFFER (self->buffer), draft.text, -1);
  gtk_text_buffer_end_irreversible_action (GTK_TEXT_BUFFER (self->buffer));
  self->loading = FALSE;
  if (draft.uri != NULL)
    {
      g_autoptr(GFile) file = g_file_new_for_uri (draft.uri);
      tp_document_set_file (self, file);
    }
  tp_document_set_target (self, draft.target);
  tp_document_set_observe (self, draft.observe);
  tp_document_set_exact (self, draft.exact);
  g_free (self->draft_id);
  self->draft_id = g_strdup (draft_id);
  gtk_text_buffer_set_modified (GTK_TEXT_BUFFER (self->buffer), TRUE);
  g_clear_handle_id (&self->draft_source, g_source_remove);
  _tp_document_queue_recompute (self, 0);
  g_object_thaw_notify (G_OBJECT (self));
  tp_draft_clear (&draft);
  return TRUE;
}

void
_tp_document_draft_cb (gpointer data)
{
  TpDocument *self = data;

  self->draft_source = 0;
  if (gtk_text_buffer_get_modified (GTK_TEXT_BUFFER (self->buffer)))
    tp_document_save_draft_now (self);
}
