/* test-application.c: the playground as one application.  A second
 * launch with a file (the real topos-playground binary, in a child
 * process) hands the file to the running instance, which opens it in a
 * new window; the child exits at once.  The instances meet on a private
 * D-Bus session bus (GTestDBus), never the desktop's. */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "tp-application.h"
#include "tp-document.h"
#include "tp-editor.h"
#include "tp-ui-test-util.h"
#include "tp-ui-test-keys.h"
#include "tp-window.h"

#define SUBPROCESS_TIMEOUT (60 * G_USEC_PER_SEC)

static guint
count_windows (GtkApplication *app)
{
  guint n = 0;

  for (GList *l = gtk_application_get_windows (app); l != NULL; l = l->next)
    if (TP_IS_WINDOW (l->data))
      n++;
  return n;
}

static TpWindow *
window_with_file (GtkApplication *app,
                  GFile          *file)
{
  for (GList *l = gtk_application_get_windows (app); l != NULL; l = l->next)
    {
      GFile *shown;

      if (!TP_IS_WINDOW (l->data))
        continue;
      shown = tp_document_get_file (tp_window_get_document (l->data));
      if (shown != NULL && g_file_equal (shown, file))
        return l->data;
    }
  return NULL;
}

typedef struct
{
  GtkApplication *app;
  GFile *file;
  GSubprocess *child;
  gboolean child_done;
} HandOff;

static void
child_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      data)
{
  HandOff *h = data;

  g_subprocess_wait_finish (G_SUBPROCESS (object), result, NULL);
  h->child_done = TRUE;
}

static gboolean
hand_off_done (gpointer data)
{
  HandOff *h = data;
  TpWindow *window = window_with_file (h->app, h->file);

  return h->child_done && window != NULL
         && tp_document_get_readings (tp_window_get_document (window)) != NULL;
}

static gboolean
first_window_ready (gpointer data)
{
  GtkApplication *app = data;
  GtkWindow *window = gtk_application_get_active_window (app);

  return window != NULL && tp_window_get_ready (TP_WINDOW (window));
}

/* The steps, run inside the first instance's own g_application_run (an
 * idle after its activate), so it registers, serves the hand-off and
 * shuts down as the real one does. */
static gboolean
second_launch_steps_cb (gpointer data)
{
  GtkApplication *app = data;
  GTestDBus *bus = g_object_get_data (G_OBJECT (app), "bus");
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autofree char *dir = g_dir_make_tmp ("topos-app-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "handed.tape", NULL);
  HandOff h = { app, NULL, NULL, FALSE };
  TpWindow *opened;

  g_assert_false (g_application_get_is_remote (G_APPLICATION (app)));
  g_assert_true (tp_test_wait_until (first_window_ready, app, 20));
  g_assert_cmpuint (count_windows (app), ==, 1);
  g_assert_true (g_file_set_contents (path, "a = parameter 2.0\nloss = a * a\n", -1, NULL));

  /* the second launch, as a reader would type it */
  h.file = g_file_new_for_path (path);
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_subprocess_launcher_setenv (launcher, "DBUS_SESSION_BUS_ADDRESS",
                                g_test_dbus_get_bus_address (bus), TRUE);
  h.child = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("TP_PLAYGROUND"), path, NULL);
  g_assert_no_error (error);
  g_subprocess_wait_async (h.child, NULL, child_done_cb, &h);
  g_assert_true (tp_test_wait_until (hand_off_done, &h, 30));

  /* the child handed over and left with success; this process opened
   * the file in a new window of its own */
  g_assert_true (g_subprocess_get_successful (h.child));
  g_assert_cmpuint (count_windows (app), ==, 2);
  opened = window_with_file (app, h.file);
  g_assert_nonnull (opened);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (opened)), ==, "handed.tape – Topos Playground");

  /* a second launch with no file only brings the playground forward */
  g_clear_object (&h.child);
  h.child_done = FALSE;
  h.child = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("TP_PLAYGROUND"), NULL);
  g_assert_no_error (error);
  g_subprocess_wait_async (h.child, NULL, child_done_cb, &h);
  g_assert_true (tp_test_wait_until (hand_off_done, &h, 30));
  g_assert_true (g_subprocess_get_successful (h.child));
  g_assert_cmpuint (count_windows (app), ==, 2);

  g_clear_object (&h.child);
  g_clear_object (&h.file);
  g_unlink (path);
  g_rmdir (dir);
  while (gtk_application_get_windows (app) != NULL)
    gtk_window_destroy (gtk_application_get_windows (app)->data);
  g_application_quit (G_APPLICATION (app));
  return G_SOURCE_REMOVE;
}

static void
activated_cb (GApplication *app)
{
  static gboolean once;

  if (!once)
    g_idle_add (second_launch_steps_cb, app);
  once = TRUE;
}

static void
test_application_second_launch (void)
{
  g_autofree char *daemon = NULL;

  if (g_test_subprocess ())
    {
      GTestDBus *bus = g_test_dbus_new (G_TEST_DBUS_NONE);
      TpApplication *app;
      char *args[] = { (char *) "topos-playground", NULL };

      g_test_dbus_up (bus);
      app = tp_application_new ();
      g_object_set_data (G_OBJECT (app), "bus", bus);
      g_signal_connect_after (app, "activate", G_CALLBACK (activated_cb), NULL);
      g_assert_cmpint (g_application_run (G_APPLICATION (app), 1, args), ==, 0);
      g_assert_finalize_object (app);
      g_test_dbus_down (bus);
      g_object_unref (bus);
      return;
    }
  daemon = g_find_program_in_path ("dbus-daemon");
  if (daemon == NULL)
    {
      g_test_skip ("no dbus-daemon for a private session bus");
      return;
    }
  if (g_getenv ("TP_PLAYGROUND") == NULL)
    {
      g_test_skip ("TP_PLAYGROUND (the topos-playground binary) is not set");
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* {==== the Keyboard Shortcuts window ====} */

static GtkWindow *
shown_shortcuts_window (void)
{
  g_autoptr(GList) toplevels = gtk_window_list_toplevels ();

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (GTK_IS_SHORTCUTS_WINDOW (l->data) && gtk_widget_get_mapped (l->data))
      return l->data;
  return NULL;
}

static gboolean
shortcuts_shown (gpointer data)
{
  return shown_shortcuts_window () != NULL;
}

static gboolean
shortcuts_hidden (gpointer data)
{
  return shown_shortcuts_window () == NULL;
}

/* Ctrl+?, pressed with the focus in the editor, and the main menu's item
 * both open the Keyboard Shortcuts window, and the key types nothing. */
static gboolean
shortcuts_window_steps_cb (gpointer data)
{
  GtkApplication *app = data;
  GtkWindow *window;
  GtkWidget *view;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;

  g_assert_true (tp_test_wait_until (first_window_ready, app, 20));
  window = gtk_application_get_active_window (app);
  g_assert_true (tp_test_focus_window (window));
  view = GTK_WIDGET (tp_editor_get_view (tp_window_get_editor (TP_WINDOW (window))));
  g_assert_true (gtk_widget_grab_focus (view));
  before = tp_document_dup_text (tp_window_get_document (TP_WINDOW (window)));

  g_assert_null (shown_shortcuts_window ());
  tp_test_press (NULL, "<Control>question");
  g_assert_true (tp_test_wait_until (shortcuts_shown, NULL, 20));
  after = tp_document_dup_text (tp_window_get_document (TP_WINDOW (window)));
  g_assert_cmpstr (after, ==, before);
  gtk_window_close (shown_shortcuts_window ());
  g_assert_true (tp_test_wait_until (shortcuts_hidden, NULL, 20));

  /* the menu item is not greyed out: its action is there and enabled */
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "show-help-overlay"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL));
  g_assert_true (tp_test_wait_until (shortcuts_shown, NULL, 20));
  gtk_window_close (shown_shortcuts_window ());

  while (gtk_application_get_windows (app) != NULL)
    gtk_window_destroy (gtk_application_get_windows (app)->data);
  g_application_quit (G_APPLICATION (app));
  return G_SOURCE_REMOVE;
}

static void
shortcuts_activated_cb (GApplication *app)
{
  static gboolean once;

  if (!once)
    g_idle_add (shortcuts_window_steps_cb, app);
  once = TRUE;
}

static void
test_application_shortcuts_window (void)
{
  if (g_test_subprocess ())
    {
      GTestDBus *bus = g_test_dbus_new (G_TEST_DBUS_NONE);
      TpApplication *app;
      char *args[] = { (char *) "topos-playground", NULL };

      g_test_dbus_up (bus);
      app = tp_application_new ();
      g_signal_connect_after (app, "activate", G_CALLBACK (shortcuts_activated_cb), NULL);
      g_assert_cmpint (g_application_run (G_APPLICATION (app), 1, args), ==, 0);
      g_assert_finalize_object (app);
      g_test_dbus_down (bus);
      g_object_unref (bus);
      return;
    }
  if (g_find_program_in_path ("dbus-daemon") == NULL)
    {
      g_test_skip ("no dbus-daemon for a private session bus");
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

int
main (int   argc,
      char *argv[])
{
  tp_test_init (&argc, &argv);

  g_test_add_func ("/ui/application/second-launch", test_application_second_launch);
  g_test_add_func ("/ui/application/shortcuts-window", test_application_shortcuts_window);

  return g_test_run ();
}
