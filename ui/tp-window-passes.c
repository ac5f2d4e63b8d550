/* tp-window-passes.c: the window's part of the compiler's passes:
 * the Optimise choice beside Exact numerics (kept in GSettings for new
 * windows, as Exact is), "Copy as JAX" and "Save as JAX…", and Copy
 * Reading's Optimised, Fusion and Forward, which ask the document for
 * their reading only then (tp_document_want_pass) and finish when it
 * comes. */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "tp-window-private.h"

static void
tp_window_optimize_changed_cb (TpWindow *self)
{
  g_settings_set_boolean (self->settings, "optimize", tp_document_get_optimize (self->document));
}

/* Copy and Save as JAX need readings of a program that reads. */
static void
tp_window_update_jax_actions (TpWindow *self)
{
  gboolean ok = tp_document_get_readings (self->document) != NULL && !tp_document_get_stale (self->document);
  const char *const names[] = { "copy-jax", "save-jax", "copy-pass" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self), names[i])), ok);
}

static void
tp_window_jax_saved_cb (GObject      *object,
                        GAsyncResult *result,
                        gpointer      user_data)
{
  g_autoptr(TpWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!g_file_replace_contents_finish (G_FILE (object), result, NULL, &error))
    _tp_window_show_error (self, _("Could not save the program in JAX"), error);
  else
    {
      g_autofree char *name = g_file_get_basename (G_FILE (object));
      /* Translators: a toast; %s is the saved file's name */
      g_autofree char *said = g_strdup_printf (_("Saved %s"), name);

      tp_window_show_toast (self, said);
    }
}

/* What waits for the jax reading, done with @pass. */
static void
tp_window_jax_done (TpWindow            *self,
                    const TpPassReading *pass)
{
  if (self->jax_copy)
    {
      guint lines = 0;
      g_autofree char *said = NULL;

      self->jax_copy = FALSE;
      for (const char *p = pass->text; *p != '\0'; p++)
        lines += *p == '\n';
      gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), pass->text);
      /* Translators: a toast */
      said = g_strdup_printf (ngettext ("Copied the program in JAX: %u line of Python",
                                        "Copied the program in JAX: %u lines of Python", lines), lines);
      tp_window_show_toast (self, said);
    }
  if (self->jax_file != NULL)
    {
      g_autoptr(GFile) file = g_steal_pointer (&self->jax_file);
      g_autoptr(GBytes) bytes = g_bytes_new (pass->text, strlen (pass->text));

      g_file_replace_contents_bytes_async (file, bytes, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, NULL,
                                           tp_window_jax_saved_cb, g_object_ref (self));
    }
}

/* Asks for the jax reading of the readings on screen; what waits for it
 * is done at once when it is there, else when it comes.  A program that
 * does not read (any more) gives none. */
static void
tp_window_want_jax (TpWindow *self)
{
  const TpPassReading *pass;

  if (!self->jax_copy && self->jax_file == NULL)
    return;
  if (tp_document_get_stale (self->document) || tp_document_get_readings (self->document) == NULL)
    {
      self->jax_copy = FALSE;
      g_clear_object (&self->jax_file);
      tp_window_show_toast (self, _("Not now: the program does not read"));
      return;
    }
  pass = tp_document_want_pass (self->document, TP_PASS_JAX);
  if (pass != NULL)
    tp_window_jax_done (self, pass);
}

static const struct
{
  const char *id;
  TpPass pass;
  const char *title;
} copied_passes[] = {
  { "optimized", TP_PASS_OPTIMIZED, N_("Optimised") },
  { "fusion", TP_PASS_FUSION, N_("Fusion") },
  { "forward", TP_PASS_FORWARD, N_("Forward") },
};

/* Copy Reading of a pass reading: copied when it is there. */
static void
tp_window_want_copy (TpWindow *self)
{
  const TpPassReading *pass;

  if (self->copy_pass == 0)
    return;
  if (tp_document_get_stale (self->document) || tp_document_get_readings (self->document) == NULL)
    {
      self->copy_pass = 0;
      tp_window_show_toast (self, _("Not now: the program does not read"));
      return;
    }
  pass = tp_document_want_pass (self->document, (TpPass) self->copy_pass);
  if (pass == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (copied_passes); i++)
    if (copied_passes[i].pass == pass->which)
      {
        /* Translators: a toast; %s is a pane's title, as for the six */
        g_autofree char *said = g_strdup_printf (_("Copied the %s reading"), gettext (copied_passes[i].title));

        gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), pass->text);
        tp_window_show_toast (self, said);
      }
  self->copy_pass = 0;
}

static void
tp_window_copy_pass_cb (GSimpleAction *action,
                        GVariant      *param,
                        gpointer       user_data)
{
  TpWindow *self = user_data;
  const char *id = g_variant_get_string (param, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (copied_passes); i++)
    if (g_str_equal (id, copied_passes[i].id))
      {
        self->copy_pass = (guint) copied_passes[i].pass & 0x1f;
        tp_window_want_copy (self);
      }
}

static void
tp_window_pass_ready_cb (TpWindow *self,
                         int       which)
{
  if (which == TP_PASS_JAX)
    tp_window_want_jax (self);
  else if (self->copy_pass != 0 && which == (int) self->copy_pass)
    tp_window_want_copy (self);
}

static void
tp_window_readings_changed_cb (TpWindow *self)
{
  tp_window_update_jax_actions (self);
  /* newer readings while waiting: their jax reading */
  if (!tp_document_get_busy (self->document))
    {
      tp_window_want_jax (self);
      tp_window_want_copy (self);
    }
}

static void
tp_window_copy_jax_cb (GSimpleAction *action,
                       GVariant      *param,
                       gpointer       user_data)
{
  TpWindow *self = user_data;

  self->jax_copy = TRUE;
  tp_window_want_jax (self);
}

/**
 * tp_window_save_jax:
 *
 * Writes the program in JAX (the jax reading of the readings on screen,
 * made now) to @file; a toast says when it is saved, a dialog when it
 * could not be.  What "Save as JAX…" does with the file chosen.
 */
void
tp_window_save_jax (TpWindow *self,
                    GFile    *file)
{
  g_return_if_fail (TP_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  g_set_object (&self->jax_file, file);
  tp_window_want_jax (self);
}

static void
tp_window_save_jax_response_cb (GtkNativeDialog *native,
                                int              response,
                                TpWindow        *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));

      if (file != NULL)
        tp_window_save_jax (self, file);
    }
  gtk_native_dialog_destroy (native);
  g_object_unref (native);
}

static void
tp_window_save_jax_cb (GSimpleAction *action,
                       GVariant      *param,
                       gpointer       user_data)
{
  TpWindow *self = user_data;
  g_autofree char *base = g_strdelimit (tp_document_dup_title (self->document), "/\\", '-');
  g_autofree char *name = NULL;
  GtkFileFilter *filter = gtk_file_filter_new ();
  GtkFileChooserNative *native;
  char *dot = tp_document_get_file (self->document) != NULL ? strrchr (base, '.') : NULL;

  if (dot != NULL)
    *dot = '\0';
  name = g_strconcat (base, ".py", NULL);
  /* Translators: the file chooser's filter for .py files */
  gtk_file_filter_set_name (filter, _("Python programs"));
  gtk_file_filter_add_pattern (filter, "*.py");
  native = gtk_file_chooser_native_new (_("Save the Program in JAX"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (native), filter);
  g_object_unref (filter);
  _tp_window_set_start_folder (self, GTK_FILE_CHOOSER (native));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (native), name);
  g_signal_connect (native, "response", G_CALLBACK (tp_window_save_jax_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

void
_tp_window_init_passes (TpWindow *self)
{
  static const GActionEntry entries[] = {
    { "copy-jax", tp_window_copy_jax_cb, NULL, NULL, NULL, { 0 } },
    { "save-jax", tp_window_save_jax_cb, NULL, NULL, NULL, { 0 } },
    { "copy-pass", tp_window_copy_pass_cb, "s", NULL, NULL, { 0 } },
  };
  g_autoptr(GPropertyAction) optimize = NULL;

  tp_document_set_optimize (self->document, g_settings_get_boolean (self->settings, "optimize"));
  optimize = g_property_action_new ("optimize", self->document, "optimize");
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (optimize));
  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);
  g_signal_connect_object (self->document, "notify::optimize",
                           G_CALLBACK (tp_window_optimize_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->document, "notify::readings",
                           G_CALLBACK (tp_window_readings_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->document, "notify::stale",
                           G_CALLBACK (tp_window_readings_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->document, "pass-ready",
                           G_CALLBACK (tp_window_pass_ready_cb), self, G_CONNECT_SWAPPED);
  tp_window_update_jax_actions (self);
}
