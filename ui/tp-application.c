/* tp-application.c: the desktop application.
 *
 * `topos-playground [FILE...]` opens each file in a window; with no file
 * it restores the drafts left by a crash, or else opens the README
 * sample.  A second launch hands its files to the running instance, which
 * opens each in a new window.  `--screenshot OUT.png` runs standalone,
 * waits until every pane shows the current readings, writes the window
 * to OUT.png and quits.
 *
 * Light or dark: the "style" setting follows the system (the desktop
 * portal's color-scheme, which GTK 4.8 does not read by itself, else
 * whatever GTK was started with) or forces one; the choice is applied to
 * gtk-application-prefer-dark-theme, and every widget follows the style
 * it is drawn with (tp-style.h). */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include <gtksourceview/gtksource.h>

#include "tp-application.h"
#include "tp-document.h"
#include "tp-drafts.h"
#include "tp-picture-worker.h"
#include "tp-samples.h"
#include "tp-window.h"

extern void tp_register_resource (void);

struct _TpApplication
{
  GtkApplication parent_instance;

  /* Owned references */
  GSettings *settings;
  TpDrafts *drafts;             /* every window's unsaved programs */
  TpPictureWorker *pictures;    /* lays out every window's pictures */
  char *program_dir;            /* where the running program is */
  GtkCssProvider *font_css;
  GDBusProxy *portal;           /* org.freedesktop.portal.Settings */
  char *screenshot;             /* --screenshot, or NULL */
  gboolean failed;              /* the screenshot could not be written */
  gboolean started_dark;        /* gtk-application-prefer-dark-theme at startup */
  int system_dark;              /* the portal's preference: 1, 0, or -1 unknown */
  int style_override;           /* --style for this run, or -1 */
};

G_DEFINE_FINAL_TYPE (TpApplication, tp_application, GTK_TYPE_APPLICATION)

/* The resources, once.  GtkApplication's own startup looks for
 * gtk/help-overlay.ui under the resource base path (the Keyboard
 * Shortcuts window and Ctrl+?), so they are registered before it runs. */
static void
tp_ui_register_resources (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      tp_register_resource ();
      g_once_init_leave (&done, 1);
    }
}

/* The playground's own style scheme (topos-dark) ships in the resources,
 * but GtkSourceView reads schemes only from folders: it is written once
 * to the user's cache folder and that folder added to the search path.
 * Should that fail, the dark style falls back to Adwaita Dark. */
static void
tp_ui_add_style_schemes (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "topos-playground", "styles", NULL);
  g_autofree char *path = g_build_filename (dir, "topos-dark.xml", NULL);
  g_autoptr(GBytes) scheme = g_resources_lookup_data (TP_RESOURCE_PREFIX "/styles/topos-dark.xml",
                                                      G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
  g_autofree char *old = NULL;
  gsize old_length = 0;
  gsize length = 0;
  const char *data;

  if (scheme == NULL)
    return;
  data = g_bytes_get_data (scheme, &length);
  if (!g_file_get_contents (path, &old, &old_length, NULL)
      || old_length != length || memcmp (old, data, length) != 0)
    {
      if (g_mkdir_with_parents (dir, 0700) != 0
          || !g_file_set_contents (path, data, (gssize) length, NULL))
        return;
    }
  gtk_source_style_scheme_manager_prepend_search_path (gtk_source_style_scheme_manager_get_default (), dir);
}

void
tp_ui_init (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      GtkSourceLanguageManager *languages;
      const char * const *old_path;
      g_autoptr(GStrvBuilder) path = g_strv_builder_new ();
      g_auto(GStrv) new_path = NULL;
      GtkCssProvider *css;
      GdkDisplay *display = gdk_display_get_default ();

      tp_ui_register_resources ();
      gtk_source_init ();
      languages = gtk_source_language_manager_get_default ();
      old_path = gtk_source_language_manager_get_search_path (languages);
      g_strv_builder_add (path, "resource://" TP_RESOURCE_PREFIX "/language-specs/");
      g_strv_builder_addv (path, (const char **) old_path);
      new_path = g_strv_builder_end (path);
      gtk_source_language_manager_set_search_path (languages, (const char * const *) new_path);
      tp_ui_add_style_schemes ();

      if (display != NULL)
        {
          css = gtk_css_provider_new ();
          gtk_css_provider_load_from_resource (css, TP_RESOURCE_PREFIX "/style.css");
          gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (css),
                                                      GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
          g_object_unref (css);
          gtk_icon_theme_add_resource_path (gtk_icon_theme_get_for_display (display),
                                            TP_RESOURCE_PREFIX "/icons");
          /* Text is measured with hinted metrics, as it is drawn under
           * GSK's cairo renderer (and as graphviz measures the picture's
           * labels): with GTK 4.8's unhinted metrics, a text view's lines
           * at some sizes (12.67 px, the readings after one Ctrl+plus)
           * are laid out lower than their hinted glyphs reach, and the
           * renderer cuts the glyphs' tops by a pixel or two ("freed"
           * reads "treed"). */
          g_object_set (gtk_settings_get_for_display (display), "gtk-hint-font-metrics", TRUE, NULL);
        }
      g_once_init_leave (&done, 1);
    }
}

/**
 * tp_settings_new:
 *
 * The playground's settings.  When the schema is not installed (running
 * from the build tree), the schema compiled beside the build is used.
 *
 * Returns: (transfer full): a new #GSettings
 */
GSettings *
tp_settings_new (void)
{
  static GSettingsSchemaSource *build_source = NULL;
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, TP_APP_ID, TRUE);
  if (schema == NULL)
    {
      if (build_source == NULL)
        build_source = g_settings_schema_source_new_from_directory (TP_BUILD_SCHEMA_DIR, source,
                                                                    FALSE, NULL);
      if (build_source != NULL)
        schema = g_settings_schema_source_lookup (build_source, TP_APP_ID, TRUE);
    }
  if (schema == NULL)
    g_error ("The settings schema %s is not installed", TP_APP_ID);
  return g_settings_new_full (schema, NULL, NULL);
}

static void
tp_application_font_size_cb (TpApplication *self)
{
  int size = g_settings_get_int (self->settings, "font-size");
  /* Six readings share the width in the tiled layout: a point smaller
   * there keeps a plan line whole; one reading alone is shown larger, for
   * a projector. */
  /* Presenting (F11): the whole screen, and everything half as large
   * again, for the back of a classroom. */
  g_autofree char *css = g_strdup_printf ("textview.editor { font-size: %dpt; }\n"
                                          "textview.reading { font-size: %d.5pt; }\n"
                                          "window.focus-layout textview.reading { font-size: %dpt; }\n"
                                          "window.presenting { font-size: 1.5em; }\n"
                                          "window.presenting textview.editor { font-size: %dpt; }\n"
                                          "window.presenting textview.reading { font-size: %dpt; }\n"
                                          "window.presenting.focus-layout textview.reading { font-size: %dpt; }\n",
                                          size, MAX (size - 2, 5), size + 2,
                                          size * 3 / 2, MAX (size - 2, 5) * 3 / 2, (size + 2) * 3 / 2);

  gtk_css_provider_load_from_data (self->font_css, css, -1);
}

/* {==== light and dark ====} */

enum { STYLE_SYSTEM, STYLE_LIGHT, STYLE_DARK };

static void
tp_application_apply_style (TpApplication *self)
{
  GtkSettings *gtk_settings = gtk_settings_get_default ();
  gboolean dark;

  if (gtk_settings == NULL)
    return;
  switch (self->style_override >= 0 ? self->style_override : g_settings_get_enum (self->settings, "style"))
    {
    case STYLE_LIGHT:
      dark = FALSE;
      break;
    case STYLE_DARK:
      dark = TRUE;
      break;
    case STYLE_SYSTEM:
    default:
      dark = self->system_dark >= 0 ? self->system_dark == 1 : self->started_dark;
      break;
    }
  g_object_set (gtk_settings, "gtk-application-prefer-dark-theme", dark, NULL);
}

/* color-scheme: 1 prefers dark, 2 prefers light, 0 has no preference.
 * Older portals wrap the value in one more variant. */
static void
tp_application_set_color_scheme (TpApplication *self,
                                 GVariant      *value)
{
  g_autoptr(GVariant) inner = NULL;

  while (value != NULL && g_variant_is_of_type (value, G_VARIANT_TYPE_VARIANT))
    {
      GVariant *next = g_variant_get_variant (value);
      g_clear_pointer (&inner, g_variant_unref);
      inner = next;
      value = next;
    }
  if (value == NULL || !g_variant_is_of_type (value, G_VARIANT_TYPE_UINT32))
    return;
  self->system_dark = g_variant_get_uint32 (value) == 1 ? 1 : 0;
  tp_application_apply_style (self);
}

static void
tp_application_portal_signal_cb (GDBusProxy    *proxy,
                                 const char    *sender,
                                 const char    *signal,
                                 GVariant      *parameters,
                                 TpApplication *self)
{
  const char *ns = NULL;
  const char *key = NULL;
  g_autoptr(GVariant) value = NULL;

  if (g_strcmp0 (signal, "SettingChanged") != 0
      || !g_variant_is_of_type (parameters, G_VARIANT_TYPE ("(ssv)")))
    return;
  g_variant_get (parameters, "(&s&sv)", &ns, &key, &value);
  if (g_str_equal (ns, "org.freedesktop.appearance") && g_str_equal (key, "color-scheme"))
    tp_application_set_color_scheme (self, value);
}

static void
tp_application_portal_read_cb (GObject      *object,
                               GAsyncResult *result,
                               gpointer      user_data)
{
  g_autoptr(TpApplication) self = user_data;
  g_autoptr(GVariant) reply = g_dbus_proxy_call_finish (G_DBUS_PROXY (object), result, NULL);
  g_autoptr(GVariant) value = NULL;

  if (reply == NULL || !g_variant_is_of_type (reply, G_VARIANT_TYPE ("(v)")))
    return;                     /* no portal, or no such setting: keep GTK's */
  g_variant_get (reply, "(v)", &value);
  tp_application_set_color_scheme (self, value);
}

static void
tp_application_portal_cb (GObject      *object,
                          GAsyncResult *result,
                          gpointer      user_data)
{
  g_autoptr(TpApplication) self = user_data;
  GDBusProxy *portal = g_dbus_proxy_new_for_bus_finish (result, NULL);

  if (portal == NULL)
    return;                     /* no session bus: keep GTK's own preference */
  self->portal = portal;
  g_signal_connect_object (portal, "g-signal", G_CALLBACK (tp_application_portal_signal_cb), self, 0);
  g_dbus_proxy_call (portal, "Read", g_variant_new ("(ss)", "org.freedesktop.appearance", "color-scheme"),
                     G_DBUS_CALL_FLAGS_NONE, 2000, NULL,
                     tp_application_portal_read_cb, g_object_ref (self));
}

static TpWindow *
tp_application_new_window (TpApplication *self)
{
  TpWindow *window = tp_window_new (GTK_APPLICATION (self));

  gtk_window_present (GTK_WINDOW (window));
  return window;
}

static void
tp_application_screenshot_cb (GObject      *object,
                              GAsyncResult *result,
                              gpointer      user_data)
{
  g_autoptr(TpApplication) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!tp_window_screenshot_finish (TP_WINDOW (object), result, &error))
    {
      g_printerr ("topos-playground: %s\n", error->message);
      self->failed = TRUE;
    }
  g_application_quit (G_APPLICATION (self));
}

static void
tp_application_maybe_screenshot (TpApplication *self,
                                 TpWindow      *window)
{
  if (self->screenshot == NULL)
    return;
  tp_window_screenshot_async (window, self->screenshot, NULL,
                              tp_application_screenshot_cb, g_object_ref (self));
  g_clear_pointer (&self->screenshot, g_free);
}

static void
tp_application_activate (GApplication *app)
{
  TpApplication *self = TP_APPLICATION (app);
  GtkWindow *active = gtk_application_get_active_window (GTK_APPLICATION (app));
  g_auto(GStrv) drafts = NULL;
  TpWindow *window = NULL;

  if (active != NULL)
    {
      gtk_window_present (active);
      return;
    }
  /* Edits that were never saved come back first, and a toast says so. */
  if (self->screenshot == NULL)
    {
      guint n_restored = 0;

      drafts = tp_drafts_list (self->drafts);
      for (guint i = 0; drafts[i] != NULL; i++)
        {
          TpWindow *w = tp_application_new_window (self);

          if (tp_window_restore_draft (w, drafts[i]))
            {
              window = w;
              n_restored++;
            }
          else
            gtk_window_destroy (GTK_WINDOW (w));
        }
      if (n_restored > 0)
        {
          /* Translators: a toast when the playground starts again after
           * a crash; %u is the number of programs whose edits came back. */
          g_autofree char *said = g_strdup_printf (ngettext ("Recovered %u unsaved program",
                                                             "Recovered %u unsaved programs", n_restored),
                                                   n_restored);

          tp_window_show_toast (window, said);
        }
    }
  if (window == NULL)
    {
      window = tp_application_new_window (self);
      tp_window_open_sample (window, "readme");
    }
  tp_application_maybe_screenshot (self, window);
}

static void
tp_application_open (GApplication  *app,
                     GFile        **files,
                     int            n_files,
                     const char    *hint)
{
  TpApplication *self = TP_APPLICATION (app);
  TpWindow *window = NULL;

  for (int i = 0; i < n_files; i++)
    {
      /* a file that is open already: its window comes forward */
      if (tp_window_present_for_file (GTK_APPLICATION (app), files[i]))
        continue;
      window = tp_application_new_window (self);
      if (tp_window_is_lesson_file (files[i]))
        tp_window_open_lesson_file (window, files[i]);
      else
        tp_window_open_file (window, files[i]);
    }
  if (window != NULL)
    tp_application_maybe_screenshot (self, window);
}

static int
tp_application_handle_local_options (GApplication *app,
                                     GVariantDict *options)
{
  TpApplication *self = TP_APPLICATION (app);
  const char *screenshot = NULL;
  const char *style = NULL;

  if (g_variant_dict_lookup (options, "version", "b", NULL))
    {
      g_print ("topos-playground %s\n", PACKAGE_VERSION);
      return 0;
    }
  if (g_variant_dict_lookup (options, "style", "&s", &style))
    {
      static const char *const styles[] = { "system", "light", "dark" };

      for (guint i = 0; i < G_N_ELEMENTS (styles); i++)
        if (g_str_equal (style, styles[i]))
          self->style_override = (int) i;
      if (self->style_override < 0)
        {
          /* Translators: an error on the command line; “system”, “light”
           * and “dark” are the option's values and stay as they are; %s is
           * what was given instead. */
          g_autofree char *said = g_strdup_printf (_("--style is system, light or dark, not “%s”"), style);

          g_printerr ("topos-playground: %s\n", said);
          return 2;
        }
    }
  if (g_variant_dict_lookup (options, "screenshot", "^&ay", &screenshot))
    {
      /* A screenshot is its own process: it must not open its window in
       * (or hand its files to) a playground that is already running. */
      self->screenshot = g_strdup (screenshot);
      g_application_set_flags (app, g_application_get_flags (app) | G_APPLICATION_NON_UNIQUE);
    }
  /* A second launch with --style hands the style to the running
   * playground, for the rest of its run (the setting is left alone). */
  if (style != NULL && self->screenshot == NULL
      && g_application_register (app, NULL, NULL) && g_application_get_is_remote (app))
    g_action_group_activate_action (G_ACTION_GROUP (app), "style-for-run", g_variant_new_string (style));
  return -1;
}

static void
tp_application_style_for_run_action (GSimpleAction *action,
                                     GVariant      *param,
                                     gpointer       user_data)
{
  TpApplication *self = user_data;
  static const char *const styles[] = { "system", "light", "dark" };

  for (guint i = 0; i < G_N_ELEMENTS (styles); i++)
    if (g_str_equal (g_variant_get_string (param, NULL), styles[i]))
      {
        self->style_override = (int) i;
        tp_application_apply_style (self);
      }
}

static void
tp_application_quit_response_cb (GtkDialog *dialog,
                                 int        response,
                                 GPtrArray *modified)
{
  gtk_window_destroy (GTK_WINDOW (dialog));
  for (guint i = 0; i < modified->len && response != GTK_RESPONSE_CANCEL
                    && response != GTK_RESPONSE_DELETE_EVENT; i++)
    {
      TpWindow *window = g_ptr_array_index (modified, i);

      if (response == GTK_RESPONSE_ACCEPT)
        tp_window_save_and_close (window);
      else
        tp_window_discard_and_close (window);
    }
}

/* Closes every window.  With unsaved changes in more than one, a single
 * dialog asks about all of them (not one stacked dialog a window). */
static void
tp_application_quit_action (GSimpleAction *action,
                            GVariant      *param,
                            gpointer       user_data)
{
  GtkApplication *app = user_data;
  g_autoptr(GList) windows = g_list_copy (gtk_application_get_windows (app));
  GPtrArray *modified = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GString) titles = g_string_new (NULL);
  GtkWidget *dialog;

  for (GList *l = windows; l != NULL; l = l->next)
    if (TP_IS_WINDOW (l->data) && tp_document_get_modified (tp_window_get_document (l->data)))
      {
        g_autofree char *title = tp_window_dup_title (l->data);

        g_ptr_array_add (modified, g_object_ref (l->data));
        if (titles->len > 0)
          /* Translators: between two programs' titles in the list of
           * programs with unsaved changes */
          g_string_append (titles, C_("list of programs", ", "));
        /* Translators: one program's title, quoted, in that list */
        g_string_append_printf (titles, _("“%s”"), title);
      }
  /* the windows with nothing to ask about close at once; one with
   * unsaved changes asks for itself */
  for (GList *l = windows; l != NULL; l = l->next)
    if (modified->len != 1 ? !g_ptr_array_find (modified, l->data, NULL) : TRUE)
      gtk_window_close (l->data);
  if (modified->len < 2)
    {
      g_ptr_array_unref (modified);
      return;
    }
  dialog = gtk_message_dialog_new (g_ptr_array_index (modified, 0), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE,
                                   /* Translators: the question when quitting with
                                    * unsaved changes in %u windows (two or more) */
                                   ngettext ("Save changes to %u program before quitting?",
                                             "Save changes to %u programs before quitting?", modified->len),
                                   modified->len);
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog),
                                            /* Translators: %s is the list of the
                                             * programs' quoted titles, “a.tape”, “b.tape” */
                                            ngettext ("%s has unsaved changes. If you don’t save, they will be lost.",
                                                      "%s have unsaved changes. If you don’t save, they will be lost.",
                                                      modified->len),
                                            titles->str);
  gtk_dialog_add_buttons (GTK_DIALOG (dialog),
                          _("_Cancel"), GTK_RESPONSE_CANCEL,
                          _("_Discard All"), GTK_RESPONSE_REJECT,
                          _("_Save All"), GTK_RESPONSE_ACCEPT,
                          NULL);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
  gtk_widget_add_css_class (gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), GTK_RESPONSE_REJECT),
                            "destructive-action");
  gtk_widget_add_css_class (gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT),
                            "suggested-action");
  g_signal_connect_data (dialog, "response", G_CALLBACK (tp_application_quit_response_cb),
                         modified, (GClosureNotify) (void (*) (void)) g_ptr_array_unref, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
tp_application_new_window_action (GSimpleAction *action,
                                  GVariant      *param,
                                  gpointer       user_data)
{
  TpApplication *self = user_data;
  TpWindow *window = tp_application_new_window (self);
  g_autofree char *last = g_settings_get_string (self->settings, "last-sample");

  /* the sample last opened from the samples menu, else the README's */
  tp_window_open_sample (window, tp_samples_lookup (last) != NULL ? last : "readme");
}

static void
tp_application_about_action (GSimpleAction *action,
                             GVariant      *param,
                             gpointer       user_data)
{
  GtkApplication *app = user_data;
  static const char *authors[] = { "The topos playground authors", NULL };

  gtk_show_about_dialog (gtk_application_get_active_window (app),
                         /* Translators: the application's name */
                         "program-name", _("Topos Playground"),
                         "logo-icon-name", TP_APP_ID,
                         "version", PACKAGE_VERSION,
                         "comments", _("Write a small tensor program and read it six ways: "
                                       "spec, derivative, plan, StableHLO, values and picture."),
                         "license-type", GTK_LICENSE_MIT_X11,
                         "authors", authors,
                         /* Translators: your names and e-mail addresses, one a line */
                         "translator-credits", _("translator-credits"),
                         NULL);
}

static void
tp_application_startup (GApplication *app)
{
  TpApplication *self = TP_APPLICATION (app);
  static const GActionEntry entries[] = {
    { .name = "quit", .activate = tp_application_quit_action },
    { .name = "new-window", .activate = tp_application_new_window_action },
    { .name = "about", .activate = tp_application_about_action },
    { .name = "style-for-run", .activate = tp_application_style_for_run_action, .parameter_type = "s" },
  };
  static const char *quit_accels[] = { "<Control>q", NULL };
  static const char *new_window_accels[] = { "<Control>n", NULL };

  tp_ui_register_resources ();
  G_APPLICATION_CLASS (tp_application_parent_class)->startup (app);

  tp_ui_init ();
  g_action_map_add_action_entries (G_ACTION_MAP (app), entries, G_N_ELEMENTS (entries), app);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.new-window", new_window_accels);

  self->settings = tp_settings_new ();
  self->font_css = gtk_css_provider_new ();
  gtk_style_context_add_provider_for_display (gdk_display_get_default (),
                                              GTK_STYLE_PROVIDER (self->font_css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION + 1);
  g_signal_connect_object (self->settings, "changed::font-size",
                           G_CALLBACK (tp_application_font_size_cb), self, G_CONNECT_SWAPPED);
  tp_application_font_size_cb (self);

  {
    g_autoptr(GAction) style = g_settings_create_action (self->settings, "style");
    g_action_map_add_action (G_ACTION_MAP (app), style);
  }
  g_object_get (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", &self->started_dark, NULL);
  g_signal_connect_object (self->settings, "changed::style",
                           G_CALLBACK (tp_application_apply_style), self, G_CONNECT_SWAPPED);
  tp_application_apply_style (self);
  /* A screenshot shows the style it was started with. */
  if (self->screenshot == NULL)
    g_dbus_proxy_new_for_bus (G_BUS_TYPE_SESSION,
                              G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES,
                              NULL,
                              "org.freedesktop.portal.Desktop",
                              "/org/freedesktop/portal/desktop",
                              "org.freedesktop.portal.Settings",
                              NULL, tp_application_portal_cb, g_object_ref (self));
  gtk_window_set_default_icon_name (TP_APP_ID);
}

static void
tp_application_finalize (GObject *object)
{
  TpApplication *self = (TpApplication *) object;

  g_clear_object (&self->settings);
  g_clear_object (&self->drafts);
  g_clear_object (&self->pictures);
  g_free (self->program_dir);
  g_clear_object (&self->font_css);
  g_clear_object (&self->portal);
  g_free (self->screenshot);

  G_OBJECT_CLASS (tp_application_parent_class)->finalize (object);
}

static void
tp_application_class_init (TpApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->finalize = tp_application_finalize;
  app_class->startup = tp_application_startup;
  app_class->activate = tp_application_activate;
  app_class->open = tp_application_open;
  app_class->handle_local_options = tp_application_handle_local_options;
}

static void
tp_application_init (TpApplication *self)
{
  self->drafts = tp_drafts_new (NULL);
  self->system_dark = -1;
  self->style_override = -1;
  static const GOptionEntry options[] = {
    { "screenshot", 0, 0, G_OPTION_ARG_FILENAME, NULL,
      N_("Write a PNG of the window once every reading shows, then quit"),
      /* Translators: the placeholder for --screenshot's file name in --help */
      N_("OUT.png") },
    /* the values "system|light|dark" are the option's own: not translated */
    { "style", 0, 0, G_OPTION_ARG_STRING, NULL,
      N_("Light or dark for this run, whatever the setting says"), "system|light|dark" },
    { "version", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Print the version and quit"), NULL },
    { NULL },
  };

  /* GApplication translates the entries' descriptions (N_() above) in the
   * default domain; the parameter string and the summary are given
   * translated. */
  g_application_add_main_option_entries (G_APPLICATION (self), options);
  /* Translators: what follows the options in --help's usage line */
  g_application_set_option_context_parameter_string (G_APPLICATION (self), _("[FILE…]"));
  g_application_set_option_context_summary (G_APPLICATION (self),
                                            _("Read a tensor program six ways: spec, derivative, plan, "
                                              "StableHLO, values and picture."));
}

/* The unsaved programs of every window (tp-drafts.h). */
TpDrafts *
tp_application_get_drafts (TpApplication *self)
{
  g_return_val_if_fail (TP_IS_APPLICATION (self), NULL);

  return self->drafts;
}

/* The one picture worker of the application (tp-picture-worker.h),
 * made when first asked for: its program is looked for beside the
 * running program first. */
TpPictureWorker *
tp_application_get_picture_worker (TpApplication *self)
{
  g_return_val_if_fail (TP_IS_APPLICATION (self), NULL);

  if (self->pictures == NULL)
    self->pictures = tp_picture_worker_new (self->program_dir);
  return self->pictures;
}

/* TRUE when a --screenshot run could not write its picture. */
gboolean
tp_application_get_failed (TpApplication *self)
{
  g_return_val_if_fail (TP_IS_APPLICATION (self), TRUE);

  return self->failed;
}

/**
 * tp_application_new:
 * @argv0: (nullable): the program as it was started (argv[0]): the
 *   folder it is in, found once now (before anything changes the
 *   working folder), is where the app's sibling programs are looked for
 *   first
 */
TpApplication *
tp_application_new (const char *argv0)
{
  TpApplication *self = g_object_new (TP_TYPE_APPLICATION,
                                      "application-id", TP_APP_ID,
                                      "flags", G_APPLICATION_HANDLES_OPEN,
                                      "resource-base-path", TP_RESOURCE_PREFIX,
                                      NULL);
  g_autofree char *found = argv0 != NULL ? g_find_program_in_path (argv0) : NULL;

  if (found != NULL)
    {
      g_autofree char *path = g_canonicalize_filename (found, NULL);

      self->program_dir = g_path_get_dirname (path);
    }
  return self;
}
