/* tp-drafts.c: the unsaved programs kept on disk (see tp-drafts.h).
 *
 * A draft is two files in the drafts folder, ID.tape (the text) and
 * ID.ini (the file it belongs to, the choices, when it was written),
 * each replaced atomically, readable by the user alone. */
#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gstdio.h>
#include <gio/gio.h>

#include "tp-drafts.h"

struct _TpDrafts
{
  GObject parent_instance;

  char *dir;
};

G_DEFINE_FINAL_TYPE (TpDrafts, tp_drafts, G_TYPE_OBJECT)

void
tp_draft_clear (TpDraft *draft)
{
  g_clear_pointer (&draft->text, g_free);
  g_clear_pointer (&draft->uri, g_free);
  g_clear_pointer (&draft->target, g_free);
  g_clear_pointer (&draft->observe, g_free);
  draft->exact = FALSE;
}

/**
 * tp_drafts_new:
 * @dir: (nullable): the folder; NULL for the user's state folder's
 *   topos-playground/drafts
 */
TpDrafts *
tp_drafts_new (const char *dir)
{
  TpDrafts *self = g_object_new (TP_TYPE_DRAFTS, NULL);

  self->dir = dir != NULL ? g_strdup (dir)
                          : g_build_filename (g_get_user_state_dir (), "topos-playground", "drafts", NULL);
  return self;
}

const char *
tp_drafts_get_dir (TpDrafts *self)
{
  g_return_val_if_fail (TP_IS_DRAFTS (self), NULL);

  return self->dir;
}

static char *
tp_drafts_path (TpDrafts   *self,
                const char *id,
                const char *suffix)
{
  g_autofree char *base = g_strconcat (id, suffix, NULL);

  return g_build_filename (self->dir, base, NULL);
}

/* A new id, for a document that has no draft yet. */
char *
tp_drafts_new_id (TpDrafts *self)
{
  g_return_val_if_fail (TP_IS_DRAFTS (self), NULL);

  return g_uuid_string_random ();
}

/**
 * tp_drafts_list:
 *
 * Returns: (transfer full): the ids of the drafts kept, in the order of
 *   their ids.
 */
char **
tp_drafts_list (TpDrafts *self)
{
  g_autoptr(GDir) d = NULL;
  g_autoptr(GPtrArray) ids = g_ptr_array_new ();
  const char *entry;

  g_return_val_if_fail (TP_IS_DRAFTS (self), NULL);

  d = g_dir_open (self->dir, 0, NULL);
  if (d != NULL)
    while ((entry = g_dir_read_name (d)) != NULL)
      if (g_str_has_suffix (entry, ".tape"))
        g_ptr_array_add (ids, g_strndup (entry, strlen (entry) - strlen (".tape")));
  g_ptr_array_sort (ids, (GCompareFunc) g_strcmp0);
  g_ptr_array_add (ids, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&ids), FALSE);
}

/* Writes @draft under @id, both files replaced atomically. */
gboolean
tp_drafts_save (TpDrafts       *self,
                const char     *id,
                const TpDraft  *draft,
                GError        **error)
{
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autofree char *tape = NULL;
  g_autofree char *info = NULL;
  g_autofree char *data = NULL;
  gsize length = 0;

  g_return_val_if_fail (TP_IS_DRAFTS (self), FALSE);
  g_return_val_if_fail (id != NULL && draft != NULL && draft->text != NULL, FALSE);

  if (g_mkdir_with_parents (self->dir, 0700) != 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   "cannot create %s: %s", self->dir, g_strerror (saved));
      return FALSE;
    }
  if (draft->uri != NULL)
    g_key_file_set_string (keyfile, "draft", "uri", draft->uri);
  if (draft->target != NULL)
    g_key_file_set_string (keyfile, "draft", "target", draft->target);
  if (draft->observe != NULL)
    g_key_file_set_string (keyfile, "draft", "observe", draft->observe);
  g_key_file_set_boolean (keyfile, "draft", "exact", draft->exact);
  g_key_file_set_int64 (keyfile, "draft", "saved", g_get_real_time () / G_USEC_PER_SEC);
  data = g_key_file_to_data (keyfile, &length, NULL);

  tape = tp_drafts_path (self, id, ".tape");
  info = tp_drafts_path (self, id, ".ini");
  return g_file_set_contents_full (tape, draft->text, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0600, error)
         && g_file_set_contents_full (info, data, (gssize) length, G_FILE_SET_CONTENTS_CONSISTENT, 0600, error);
}

/* Reads the draft @id into @draft (cleared first); FALSE when its text
 * cannot be read or is not UTF-8.  Choices that cannot be read are the
 * defaults. */
gboolean
tp_drafts_load (TpDrafts    *self,
                const char  *id,
                TpDraft     *draft,
                GError     **error)
{
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autofree char *tape = NULL;
  g_autofree char *info = NULL;

  g_return_val_if_fail (TP_IS_DRAFTS (self), FALSE);
  g_return_val_if_fail (id != NULL && draft != NULL, FALSE);

  tp_draft_clear (draft);
  tape = tp_drafts_path (self, id, ".tape");
  info = tp_drafts_path (self, id, ".ini");
  if (!g_file_get_contents (tape, &draft->text, NULL, error))
    return FALSE;
  if (!g_utf8_validate (draft->text, -1, NULL))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s is not UTF-8 text", tape);
      tp_draft_clear (draft);
      return FALSE;
    }
  g_key_file_load_from_file (keyfile, info, G_KEY_FILE_NONE, NULL);
  draft->uri = g_key_file_get_string (keyfile, "draft", "uri", NULL);
  draft->target = g_key_file_get_string (keyfile, "draft", "target", NULL);
  draft->observe = g_key_file_get_string (keyfile, "draft", "observe", NULL);
  draft->exact = g_key_file_get_boolean (keyfile, "draft", "exact", NULL);
  return TRUE;
}

void
tp_drafts_discard (TpDrafts   *self,
                   const char *id)
{
  g_autofree char *tape = NULL;
  g_autofree char *info = NULL;

  g_return_if_fail (TP_IS_DRAFTS (self));
  g_return_if_fail (id != NULL);

  tape = tp_drafts_path (self, id, ".tape");
  info = tp_drafts_path (self, id, ".ini");
  g_unlink (tape);
  g_unlink (info);
}

static void
tp_drafts_finalize (GObject *object)
{
  TpDrafts *self = (TpDrafts *) object;

  g_free (self->dir);

  G_OBJECT_CLASS (tp_drafts_parent_class)->finalize (object);
}

static void
tp_drafts_class_init (TpDraftsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tp_drafts_finalize;
}

static void
tp_drafts_init (TpDrafts *self)
{
}
