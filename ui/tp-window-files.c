/* tp-window-files.c: what the window shows and how it goes: the samples
 * menu and the recent programs, opening a sample, a file (dropped, too)
 * or a draft, and closing, which asks first about unsaved changes. */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "tp-samples.h"
#include "tp-window-private.h"

/* {==== samples and recent files ====} */

void
_tp_window_build_samples_menu (TpWindow *self)
{
  g_autoptr(GMenu) reference = g_menu_new ();
  g_autoptr(GMenu) teaching = g_menu_new ();
  guint n = 0;
  const TpSample *samples = tp_samples_get (&n);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (gettext (samples[i].title), NULL);

      g_menu_item_set_action_and_target (item, "win.open-sample", "s", samples[i].id);
      g_menu_append_item (samples[i].teaching ? teaching : reference, item);
    }
  /* Translators: the samples menu's sections: the samples of the
   * original topos playground's page, then the playground's own */
  g_menu_append_section (self->samples_section, _("From the original playground"), G_MENU_MODEL (reference));
  g_menu_append_section (self->samples_section, _("Teaching samples"), G_MENU_MODEL (teaching));
}

static int
compare_recent (gconstpointer a,
                gconstpointer b)
{
  GtkRecentInfo *ia = *(GtkRecentInfo **) a;
  GtkRecentInfo *ib = *(GtkRecentInfo **) b;
  GDateTime *da = gtk_recent_info_get_modified (ia);
  GDateTime *db = gtk_recent_info_get_modified (ib);

  return g_date_time_compare (db, da);
}

/* The ten most recent .tape files, newest first. */
void
_tp_window_update_recent (TpWindow *self)
{
  GtkRecentManager *manager = gtk_recent_manager_get_default ();
  GList *items = gtk_recent_manager_get_items (manager);
  g_autoptr(GPtrArray) tapes = g_ptr_array_new_with_free_func ((GDestroyNotify) gtk_recent_info_unref);

  for (GList *l = items; l != NULL; l = l->next)
    {
      GtkRecentInfo *info = l->data;

      if (g_str_has_suffix (gtk_recent_info_get_uri (info), ".tape") && gtk_recent_info_exists (info))
        g_ptr_array_add (tapes, gtk_recent_info_ref (info));
    }
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
  g_ptr_array_sort (tapes, compare_recent);

  g_menu_remove_all (self->recent_section);
  for (guint i = 0; i < tapes->len && i < 10; i++)
    {
      GtkRecentInfo *info = g_ptr_array_index (tapes, i);
      g_autoptr(GFile) file = g_file_new_for_uri (gtk_recent_info_get_uri (info));
      g_autoptr(GFile) parent = g_file_get_parent (file);
      g_autofree char *where = parent != NULL ? g_file_get_parse_name (parent) : g_strdup ("");
      const char *home = g_get_home_dir ();
      g_autofree char *label = NULL;
      g_autoptr(GMenuItem) item = NULL;

      /* two programs of the same name in different folders read apart */
      if (home != NULL && g_str_has_prefix (where, home)
          && (where[strlen (home)] == '\0' || where[strlen (home)] == '/'))
        {
          char *tilde = g_strconcat ("~", where + strlen (home), NULL);

          g_free (where);
          where = tilde;
        }
      /* Translators: a recent program in the menu: its file's name, then its folder */
      label = g_strdup_printf (_("%s — %s"), gtk_recent_info_get_display_name (info), where);
      item = g_menu_item_new (label, NULL);

      g_menu_item_set_action_and_target (item, "win.open-recent", "s", gtk_recent_info_get_uri (info));
      g_menu_append_item (self->recent_section, item);
    }
  if (tapes->len == 0)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (_("No recent programs"), "win.no-recent");
      g_menu_append_item (self->recent_section, item);
    }
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.clear-recent", tapes->len > 0);
}

/* Forgets every recent program (the recent list of other applications'
 * files is left alone). */
void
_tp_window_clear_recent (TpWindow *self)
{
  GtkRecentManager *manager = gtk_recent_manager_get_default ();
  GList *items = gtk_recent_manager_get_items (manager);

  for (GList *l = items; l != NULL; l = l->next)
    if (g_str_has_suffix (gtk_recent_info_get_uri (l->data), ".tape"))
      gtk_recent_manager_remove_item (manager, gtk_recent_info_get_uri (l->data), NULL);
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
}

/* The recent programs' part of the recent menu (for tests). */
GMenuModel *
tp_window_get_recent_section (TpWindow *self)
{
  g_return_val_if_fail (TP_IS_WINDOW (self), NULL);

  return G_MENU_MODEL (self->recent_section);
}

/* {==== opening ====} */

/* Opens a sample here; the current text stays one undo away.  In a new
 * window (no text yet) the sample is where the window starts: Ctrl+Z
 * does not empty it. */
void
tp_window_open_sample (TpWindow   *self,
                       const char *sample_id)
{
  const TpSample *sample = tp_samples_lookup (sample_id);
  g_autofree char *text = tp_samples_dup_text (sample_id);
  GtkTextBuffer *buffer;
  gboolean fresh;

  g_return_if_fail (TP_IS_WINDOW (self));

  if (sample == NULL || text == NULL)
    {
      g_warning ("There is no sample called %s", sample_id);
      return;
    }
  g_free (self->sample_title);
  self->sample_title = g_strdup (gettext (sample->title));
  buffer = GTK_TEXT_BUFFER (tp_document_get_buffer (self->document));
  fresh = gtk_text_buffer_get_char_count (buffer) == 0;
  if (fresh)
    gtk_text_buffer_begin_irreversible_action (buffer);
  tp_document_set_text (self->document, text);
  if (fresh)
    gtk_text_buffer_end_irreversible_action (buffer);
  g_free (self->sample_comment);
  self->sample_comment = g_strdup (tp_document_get_comment (self->document));
  tp_document_set_file (self->document, NULL);
  tp_document_set_target (self->document, sample->target);
  tp_document_set_observe (self->document, sample->observe);
  gtk_text_buffer_set_modified (GTK_TEXT_BUFFER (tp_document_get_buffer (self->document)), FALSE);
  tp_document_set_selected_node (self->document, -1);
  _tp_window_update_title (self);
  g_settings_set_string (self->settings, "last-sample", sample_id);
  /* a new program's picture opens readable, not at the last one's zoom */
  tp_picture_view_place_next (TP_PICTURE_VIEW (self->panes[TP_PANE_PICTURE]));
}

static void
tp_window_load_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(TpWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!tp_document_load_finish (TP_DOCUMENT (object), result, &error))
    {
      GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
      GtkTextBuffer *buffer = GTK_TEXT_BUFFER (tp_document_get_buffer (self->document));
      gboolean empty = gtk_text_buffer_get_char_count (buffer) == 0 && tp_document_get_file (self->document) == NULL;
      GtkWidget *dialog = gtk_message_dialog_new (empty ? NULL : GTK_WINDOW (self), GTK_DIALOG_MODAL,
                                                  GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE,
                                                  _("Could not open the program"));

      gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", error->message);
      g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
      /* A window opened for this file and left with nothing in it goes:
       * the message stands alone (and keeps the application running
       * until it is read). */
      if (empty)
        {
          gtk_window_set_title (GTK_WINDOW (dialog), _("Topos Playground"));
          if (app != NULL)
            gtk_window_set_application (GTK_WINDOW (dialog), app);
          self->closing = TRUE;
          gtk_window_destroy (GTK_WINDOW (self));
        }
      gtk_window_present (GTK_WINDOW (dialog));
      return;
    }
  {
    GFile *file = tp_document_get_file (TP_DOCUMENT (object));
    g_autofree char *uri = g_file_get_uri (file);
    gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
  }
  tp_picture_view_place_next (TP_PICTURE_VIEW (self->panes[TP_PANE_PICTURE]));
}

/* The window of @application that shows @file, or NULL. */
TpWindow *
tp_window_find_for_file (GtkApplication *application,
                         GFile          *file)
{
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  for (GList *l = application != NULL ? gtk_application_get_windows (application) : NULL; l != NULL; l = l->next)
    {
      GFile *shown;

      if (!TP_IS_WINDOW (l->data))
        continue;
      shown = tp_document_get_file (TP_WINDOW (l->data)->document);
      if (shown != NULL && g_file_equal (shown, file))
        return l->data;
    }
  return NULL;
}

/* Brings forward the window that already shows @file: TRUE when there is
 * one (opening a file twice does not make a second window on it). */
gboolean
tp_window_present_for_file (GtkApplication *application,
                            GFile          *file)
{
  TpWindow *window = tp_window_find_for_file (application, file);

  if (window == NULL)
    return FALSE;
  gtk_window_present (GTK_WINDOW (window));
  return TRUE;
}

/* Loads @file into this window's document. */
void
tp_window_open_file (TpWindow *self,
                     GFile    *file)
{
  g_return_if_fail (TP_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  tp_document_load_async (self->document, file, NULL, tp_window_load_cb, g_object_ref (self));
}

/* Restores a draft kept after a crash; FALSE when it cannot be read. */
gboolean
tp_window_restore_draft (TpWindow   *self,
                         const char *draft_id)
{
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (TP_IS_WINDOW (self), FALSE);

  if (!tp_document_restore_draft (self->document, draft_id, &error))
    {
      g_warning ("Cannot restore draft %s: %s", draft_id, error->message);
      return FALSE;
    }
  return TRUE;
}

gboolean
_tp_window_drop_cb (GtkDropTarget *target,
                   const GValue  *value,
                   double         x,
                   double         y,
                   TpWindow      *self)
{
  GSList *files;
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;
  files = g_value_get_boxed (value);
  for (GSList *l = files; l != NULL; l = l->next)
    {
      TpWindow *window = self;

      if (tp_window_is_lesson_file (l->data))
        {
          tp_window_open_lesson_file (self, l->data);
          continue;
        }
      if (tp_window_present_for_file (app, l->data))
        continue;
      if (l != files || !tp_document_is_pristine (self->document))
        {
          window = tp_window_new (app);
          gtk_window_present (GTK_WINDOW (window));
        }
      tp_window_open_file (window, l->data);
    }
  return files != NULL;
}

/* {==== closing ====} */

/* Saves (asking for a name when the program has none) and closes. */
void
tp_window_save_and_close (TpWindow *self)
{
  g_return_if_fail (TP_IS_WINDOW (self));

  _tp_window_save_then_close (self);
}

/* Closes without saving; the unsaved edits' draft goes too. */
void
tp_window_discard_and_close (TpWindow *self)
{
  g_return_if_fail (TP_IS_WINDOW (self));

  tp_document_discard_draft (self->document);
  self->closing = TRUE;
  gtk_window_close (GTK_WINDOW (self));
}

static void
tp_window_close_response_cb (GtkDialog *dialog,
                             int        response,
                             TpWindow  *self)
{
  /* The dialog outlives this handler (its emission holds it) and may
   * outlive the window too: let go of the window first. */
  gtk_window_set_transient_for (GTK_WINDOW (dialog), NULL);
  gtk_window_destroy (GTK_WINDOW (dialog));
  switch (response)
    {
    case GTK_RESPONSE_ACCEPT:
      _tp_window_save_then_close (self);
      break;
    case GTK_RESPONSE_REJECT:
      tp_window_discard_and_close (self);
      break;
    default:
      break;
    }
}

gboolean
_tp_window_close_request (GtkWindow *window)
{
  TpWindow *self = TP_WINDOW (window);
  g_autofree char *title = NULL;
  GtkWidget *dialog;
  int width, height;

  gtk_window_get_default_size (window, &width, &height);
  g_settings_set_int (self->settings, "window-width", width);
  g_settings_set_int (self->settings, "window-height", height);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));

  if (self->closing || !tp_document_get_modified (self->document))
    return GTK_WINDOW_CLASS (g_type_class_peek (GTK_TYPE_APPLICATION_WINDOW))->close_request (window);

  title = tp_document_dup_title (self->document);
  dialog = gtk_message_dialog_new (window, GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE,
                                   /* Translators: %s is the program's title */
                                   _("Save changes to “%s” before closing?"), title);
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog),
                                            _("If you don’t save, your changes will be lost."));
  gtk_dialog_add_buttons (GTK_DIALOG (dialog),
                          _("_Cancel"), GTK_RESPONSE_CANCEL,
                          _("_Discard"), GTK_RESPONSE_REJECT,
                          _("_Save"), GTK_RESPONSE_ACCEPT,
                          NULL);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
  gtk_widget_add_css_class (gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), GTK_RESPONSE_REJECT),
                            "destructive-action");
  gtk_widget_add_css_class (gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT),
                            "suggested-action");
  g_signal_connect_object (dialog, "response", G_CALLBACK (tp_window_close_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
  return TRUE;
}
