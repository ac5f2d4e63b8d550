/* test-classroom.c: the playground on a projector.  A lecturer's
 * 1280x720 screen (meson runs this test under an Xvfb screen of its own
 * that size, TP_TEST_SCREEN) and two windows side by side on a 1920-px
 * one: the window fits its monitor in every layout, presenting or not;
 * F11 presents within the screen and leaving gives the window back its
 * size; the picture stays readable and its readable zoom follows the
 * text; the derivative opens at its divider; Ctrl+Tab goes reading to
 * reading and Shift+Tab leaves the editor; every shortcut is in the
 * Keyboard Shortcuts window; the editor wraps and keeps its width; the
 * memory chart names its bars; the title follows the program.  Each
 * case runs the real application (its styles: presenting's larger text
 * comes from it) in a subprocess, on a private D-Bus session bus. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "tp-picture-raster.h"
#include "tp-application.h"
#include "tp-document.h"
#include "tp-editor.h"
#include "tp-memory-chart.h"
#include "tp-picture-view.h"
#include "tp-teach-panel.h"
#include "tp-text-pane.h"
#include "tp-ui-test-util.h"
#include "../tp-test-ci.h"
#include "tp-ui-test-keys.h"
#include "tp-window.h"

#define SUBPROCESS_TIMEOUT (120 * G_USEC_PER_SEC)
/* Two windows side by side on a 1920-px screen. */
#define SIDE_BY_SIDE_WIDTH 940

/* {==== helpers ====} */

static TpWindow *
active_window (GtkApplication *app)
{
  GtkWindow *window = gtk_application_get_active_window (app);

  return TP_IS_WINDOW (window) ? TP_WINDOW (window) : NULL;
}

static gboolean
first_window_ready (gpointer data)
{
  TpWindow *window = active_window (data);

  return window != NULL && tp_window_get_ready (window);
}

static void
painted_cb (GdkFrameClock *clock,
            guint         *frames)
{
  (*frames)++;
}

static gboolean
frames_painted (gpointer data)
{
  return *(guint *) data >= 3;
}

/* Runs until @window has drawn a few frames: a change of layout, style
 * or size is then measured and allocated. */
static void
settle (TpWindow *window)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  guint frames = 0;
  gulong id;

  g_assert_nonnull (clock);
  id = g_signal_connect (clock, "after-paint", G_CALLBACK (painted_cb), &frames);
  for (guint i = 0; i < 3; i++)
    gtk_widget_queue_draw (GTK_WIDGET (window));
  g_assert_true (tp_test_wait_until (frames_painted, &frames, 20));
  g_signal_handler_disconnect (clock, id);
}

/* The monitor the window is on; under the test's own screen it is the
 * size meson gave it. */
static void
window_monitor (TpWindow     *window,
                GdkRectangle *area)
{
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (window));
  GdkMonitor *monitor = gdk_display_get_monitor_at_surface (gtk_widget_get_display (GTK_WIDGET (window)), surface);
  const char *expected = g_getenv ("TP_TEST_SCREEN");

  g_assert_nonnull (monitor);
  gdk_monitor_get_geometry (monitor, area);
  if (expected != NULL)
    {
      g_autofree char *size = g_strdup_printf ("%dx%d", area->width, area->height);

      g_assert_cmpstr (size, ==, expected);
    }
}

/* The window's surface: its size on the screen. */
static void
surface_size (TpWindow *window,
              int      *width,
              int      *height)
{
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (window));

  *width = gdk_surface_get_width (surface);
  *height = gdk_surface_get_height (surface);
}

static int
pane_with_focus (TpWindow *window)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));

  for (guint p = 0; p < TP_N_PANES && focus != NULL; p++)
    if (gtk_widget_is_ancestor (focus, tp_window_get_pane (window, (TpPane) p)))
      return (int) p;
  return -1;
}

static void
quit_now (GtkApplication *app)
{
  while (gtk_application_get_windows (app) != NULL)
    gtk_window_destroy (gtk_application_get_windows (app)->data);
  g_application_quit (G_APPLICATION (app));
}

static void
steps_activated_cb (GApplication *app)
{
  GSourceFunc steps = g_object_get_data (G_OBJECT (app), "steps");

  if (steps != NULL)
    g_idle_add (steps, app);
  g_object_set_data (G_OBJECT (app), "steps", NULL);
}

/* Runs the playground (its README window) on a private bus, in a
 * subprocess, with @steps in an idle after its first activate. */
static void
run_steps (gconstpointer data)
{
  GSourceFunc steps = (GSourceFunc) (void (*) (void)) data;

  if (g_test_subprocess ())
    {
      GTestDBus *bus = g_test_dbus_new (G_TEST_DBUS_NONE);
      TpApplication *app;
      char *args[] = { (char *) "topos-playground", NULL };

      g_test_dbus_up (bus);
      app = tp_application_new (NULL);
      g_object_set_data (G_OBJECT (app), "steps", steps);
      g_signal_connect_after (app, "activate", G_CALLBACK (steps_activated_cb), NULL);
      g_assert_cmpint (g_application_run (G_APPLICATION (app), 1, args), ==, 0);
      g_assert_finalize_object (app);
      g_test_dbus_down (bus);
      g_object_unref (bus);
      return;
    }
  if (g_find_program_in_path ("dbus-daemon") == NULL)
    {
      tp_test_cannot_run ("no dbus-daemon for a private session bus");
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* {==== the window fits the screen ====} */

/* In every layout (tiled; each reading alone) with each teaching pane
 * shown, presenting or not, the window's minimum size fits its monitor,
 * and so does the window; not presenting, two windows fit side by side
 * on a 1920-px screen.  The window opens no larger than the monitor. */
static gboolean
geometry_steps_cb (gpointer data)
{
  GtkApplication *app = data;
  TpWindow *window;
  GdkRectangle monitor;
  int width, height, widest = 0, widest_presenting = 0;

  g_assert_true (tp_test_wait_until (first_window_ready, app, 30));
  window = active_window (app);
  settle (window);
  window_monitor (window, &monitor);
  surface_size (window, &width, &height);
  g_test_message ("monitor %dx%d, window %dx%d", monitor.width, monitor.height, width, height);
  g_assert_cmpint (width, <=, monitor.width);
  g_assert_cmpint (height, <=, monitor.height);

  for (guint presenting = 0; presenting < 2; presenting++)
    for (int layout = -1; layout < TP_N_PANES; layout++)
      for (guint page = 0; page < TP_N_TEACH; page++)
        {
          int min_w = 0, min_h = 0, nat;

          tp_window_set_presenting (window, presenting != 0);
          tp_window_set_focus_layout (window, layout >= 0, layout >= 0 ? (TpPane) layout : TP_PANE_PICTURE);
          tp_teach_panel_show (tp_window_get_teach_panel (window), (TpTeachPage) page);
          settle (window);
          gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1, &min_w, &nat, NULL, NULL);
          gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_VERTICAL, -1, &min_h, &nat, NULL, NULL);
          surface_size (window, &width, &height);
          if (min_w > monitor.width || min_h > monitor.height || width > monitor.width || height > monitor.height
              || (!presenting && min_w > SIDE_BY_SIDE_WIDTH))
            g_test_message ("presenting %u, layout %d, pane %u: minimum %dx%d, window %dx%d",
                            presenting, layout, page, min_w, min_h, width, height);
          g_assert_cmpint (min_w, <=, monitor.width);
          g_assert_cmpint (min_h, <=, monitor.height);
          g_assert_cmpint (width, <=, monitor.width);
          g_assert_cmpint (height, <=, monitor.height);
          if (!presenting)
            {
              g_assert_cmpint (min_w, <=, SIDE_BY_SIDE_WIDTH);
              widest = MAX (widest, min_w);
            }
          else
            widest_presenting = MAX (widest_presenting, min_w);
        }
  g_test_message ("widest minimum: %d px, presenting %d px", widest, widest_presenting);
  tp_window_set_presenting (window, FALSE);
  quit_now (app);
  return G_SOURCE_REMOVE;
}

/* F11 with the focus layout and the Steps pane (then Check) presents
 * within the screen, the picture's labels grown with the text; F11 again
 * gives the window back the size it had. */
static gboolean
present_steps_cb (gpointer data)
{
  GtkApplication *app = data;
  TpWindow *window;
  TpPictureView *picture;
  GdkRectangle monitor;
  int width, height, before_w, before_h;
  double readable;

  g_assert_true (tp_test_wait_until (first_window_ready, app, 30));
  window = active_window (app);
  picture = TP_PICTURE_VIEW (tp_window_get_pane (window, TP_PANE_PICTURE));
  g_assert_true (tp_test_focus_window (GTK_WINDOW (window)));
  settle (window);
  window_monitor (window, &monitor);
  readable = tp_picture_view_get_readable_height (picture);

  for (guint round = 0; round < 2; round++)
    {
      tp_test_press (GTK_WIDGET (window), "<Control>l");
      g_assert_true (tp_window_get_focus_layout (window));
      tp_test_press (GTK_WIDGET (window), round == 0 ? "<Alt>9" : "<Alt>7");
      g_assert_cmpint (tp_teach_panel_get_page (tp_window_get_teach_panel (window)), ==,
                       round == 0 ? TP_TEACH_STEPS : TP_TEACH_CHECK);
      tp_test_press (GTK_WIDGET (window), "<Alt>6");
      settle (window);
      surface_size (window, &before_w, &before_h);

      tp_test_press (GTK_WIDGET (window), "F11");
      g_assert_true (tp_window_get_presenting (window));
      settle (window);
      surface_size (window, &width, &height);
      g_test_message ("presenting: window %dx%d on a %dx%d monitor", width, height, monitor.width, monitor.height);
      g_assert_cmpint (width, <=, monitor.width);
      g_assert_cmpint (height, <=, monitor.height);
      /* the readable labels are half as large again, like the text */
      g_assert_cmpfloat_with_epsilon (tp_picture_view_get_readable_height (picture), readable * 1.5, 1e-9);
      g_assert_cmpfloat (tp_picture_view_get_label_height (picture), >=, readable * 1.5 - 1e-6);

      g_assert_true (tp_test_focus_window (GTK_WINDOW (window)));
      tp_test_press (GTK_WIDGET (window), "F11");
      g_assert_false (tp_window_get_presenting (window));
      settle (window);
      surface_size (window, &width, &height);
      g_test_message ("left: window %dx%d, %dx%d before", width, height, before_w, before_h);
      g_assert_cmpint (width, ==, before_w);
      g_assert_cmpint (height, ==, before_h);
      g_assert_cmpint (width, <=, monitor.width);
      g_assert_cmpfloat_with_epsilon (tp_picture_view_get_readable_height (picture), readable, 1e-9);
      tp_window_set_focus_layout (window, FALSE, TP_PANE_PICTURE);
      settle (window);
    }
  quit_now (app);
  return G_SOURCE_REMOVE;
}

/* The teaching panes fold away (F9) and come back with a pane's key; the
 * readings get their room: the picture grows. */
static gboolean
teaching_steps_cb (gpointer data)
{
  GtkApplication *app = data;
  TpWindow *window;
  GtkWidget *canvas;
  int with;

  g_assert_true (tp_test_wait_until (first_window_ready, app, 30));
  window = active_window (app);
  canvas = tp_picture_view_get_canvas (TP_PICTURE_VIEW (tp_window_get_pane (window, TP_PANE_PICTURE)));
  g_assert_true (tp_test_focus_window (GTK_WINDOW (window)));
  settle (window);
  g_assert_true (tp_window_get_teaching (window));
  with = gtk_widget_get_height (canvas);
  tp_test_press (GTK_WIDGET (window), "F9");
  g_assert_false (tp_window_get_teaching (window));
  settle (window);
  g_test_message ("picture %d px tall with the teaching panes, %d px without", with, gtk_widget_get_height (canvas));
  g_assert_cmpint (gtk_widget_get_height (canvas), >, with + 60);
  tp_test_press (GTK_WIDGET (window), "<Alt>8");
  g_assert_true (tp_window_get_teaching (window));
  settle (window);
  g_assert_cmpint (gtk_widget_get_height (canvas), ==, with);
  quit_now (app);
  return G_SOURCE_REMOVE;
}

/* {==== the picture stays readable ====} */

/* The MLP (86 nodes) presented, alone: it opens, and Fit fits, at a zoom
 * where the labels are readable from the back (the readable zoom times
 * the text's scale), not shrunk whole; Fit again shows it whole; a
 * larger text size makes the readable labels larger. */
static gboolean
readable_steps_cb (gpointer data)
{
  GtkApplication *app = data;
  TpWindow *window;
  TpPictureView *picture;
  GtkWidget *canvas;
  g_autoptr(GSettings) settings = tp_settings_new ();
  double readable, whole;

  g_assert_true (tp_test_wait_until (first_window_ready, app, 30));
  window = active_window (app);
  picture = TP_PICTURE_VIEW (tp_window_get_pane (window, TP_PANE_PICTURE));
  canvas = tp_picture_view_get_canvas (picture);
  tp_window_set_focus_layout (window, TRUE, TP_PANE_PICTURE);
  tp_window_set_presenting (window, TRUE);
  tp_window_open_sample (window, "mlp");
  g_assert_true (tp_test_wait_until (first_window_ready, app, 30));
  settle (window);
  readable = tp_picture_view_get_readable_height (picture);
  g_test_message ("canvas %dx%d, readable %.1f px, labels %.1f px as opened", gtk_widget_get_width (canvas),
                  gtk_widget_get_height (canvas), readable, tp_picture_view_get_label_height (picture));
  g_assert_cmpfloat (readable, >=, 15 - 1e-9);
  g_assert_cmpfloat (tp_picture_view_get_label_height (picture), >=, readable - 1e-6);

  g_assert_true (gtk_widget_grab_focus (canvas));
  tp_test_press (GTK_WIDGET (window), "<Control>plus");
  tp_test_press (GTK_WIDGET (window), "<Control>0");
  g_assert_cmpfloat (tp_picture_view_get_label_height (picture), >=, readable - 1e-6);
  tp_test_press (GTK_WIDGET (window), "<Control>0");
  whole = tp_picture_view_get_label_height (picture);
  g_test_message ("fitted whole: labels %.1f px", whole);
  g_assert_cmpfloat (whole, <, readable);
  tp_test_press (GTK_WIDGET (window), "<Control>0");
  g_assert_cmpfloat (tp_picture_view_get_label_height (picture), >=, readable - 1e-6);

  /* a larger text: larger readable labels */
  g_settings_set_int (settings, "font-size", 12);
  g_assert_cmpfloat_with_epsilon (tp_picture_view_get_readable_height (picture), readable * 1.2, 1e-9);
  g_assert_cmpfloat (tp_picture_view_get_label_height (picture), >=, readable * 1.2 - 1e-6);
  g_settings_reset (settings, "font-size");
  tp_window_set_presenting (window, FALSE);
  quit_now (app);
  return G_SOURCE_REMOVE;
}

/* {==== the panes ====} */

/* The derivative pane opens at its divider, the gradient under it. */
static gboolean
derivative_steps_cb (gpointer data)
{
  GtkApplication *app = data;
  TpWindow *window;
  GtkTextView *view;
  GtkTextBuffer *buffer;
  TpReadings *readings;
  GtkAdjustment *adjustment;
  GtkTextIter iter, top;
  GdkRectangle visible;
  int y = 0, height = 0;
  guint divider;

  g_assert_true (tp_test_wait_until (first_window_ready, app, 30));
  window = active_window (app);
  settle (window);
  view = tp_text_pane_get_view (TP_TEXT_PANE (tp_window_get_pane (window, TP_PANE_DERIVATIVE)));
  buffer = gtk_text_view_get_buffer (view);
  readings = tp_document_get_readings (tp_window_get_document (window));
  for (divider = 0; tp_readings_get_map_line (readings, TP_READING_DERIVATIVE, divider) != NULL; divider++)
    if (tp_readings_get_map_line (readings, TP_READING_DERIVATIVE, divider)->role == TP_ROLE_DIVIDER)
      break;
  g_assert_nonnull (tp_readings_get_map_line (readings, TP_READING_DERIVATIVE, divider));
  gtk_text_buffer_get_iter_at_line (buffer, &iter, (int) divider);
  gtk_text_view_get_line_yrange (view, &iter, &y, &height);
  adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (view));
  /* the view scrolls there smoothly: until it stands still */
  for (double last = -1; last != gtk_adjustment_get_value (adjustment);)
    {
      last = gtk_adjustment_get_value (adjustment);
      settle (window);
    }
  gtk_text_view_get_visible_rect (view, &visible);
  gtk_text_view_get_line_at_y (view, &top, visible.y, NULL);
  g_test_message ("divider on line %u at y %d; scrolled to %.0f (page %.0f of %.0f), line %d at the top", divider, y,
                  gtk_adjustment_get_value (adjustment), gtk_adjustment_get_page_size (adjustment),
                  gtk_adjustment_get_upper (adjustment), gtk_text_iter_get_line (&top));
  g_assert_cmpint (y, >, 0);
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), >, 0);
  /* the divider is at the top of the pane, whole (or the pane is at its
   * end, the divider in sight) */
  if (gtk_adjustment_get_value (adjustment) + gtk_adjustment_get_page_size (adjustment)
      < gtk_adjustment_get_upper (adjustment) - 1)
    {
      g_assert_cmpint (y, >=, visible.y);
      g_assert_cmpint (y - visible.y, <, height);
    }
  else
    g_assert_cmpint (gtk_text_iter_get_line (&top), <=, (int) divider);
  quit_now (app);
  return G_SOURCE_REMOVE;
}

/* Ctrl+Tab goes from reading to reading, one press each, in screen
 * order and round; Ctrl+Shift+Tab goes back; in the focus layout each
 * press shows the next reading alone.  Shift+Tab leaves the editor
 * (Tab indents in it). */
static gboolean
keyboard_steps_cb (gpointer data)
{
  GtkApplication *app = data;
  static const TpPane order[] = {
    TP_PANE_SPEC, TP_PANE_DERIVATIVE, TP_PANE_PLAN, TP_PANE_VALUES, TP_PANE_PICTURE, TP_PANE_STABLEHLO,
  };
  TpWindow *window;
  GtkWidget *editor;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;

  g_assert_true (tp_test_wait_until (first_window_ready, app, 30));
  window = active_window (app);
  editor = GTK_WIDGET (tp_editor_get_view (tp_window_get_editor (window)));
  g_assert_true (tp_test_focus_window (GTK_WINDOW (window)));
  g_assert_true (gtk_widget_grab_focus (editor));

  for (guint i = 0; i <= G_N_ELEMENTS (order); i++)
    {
      tp_test_press (GTK_WIDGET (window), "<Control>Tab");
      g_assert_cmpint (pane_with_focus (window), ==, order[i % G_N_ELEMENTS (order)]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      tp_test_press (GTK_WIDGET (window), "<Control><Shift>Tab");
      g_assert_cmpint (pane_with_focus (window), ==, order[(G_N_ELEMENTS (order) - 1 - i) % G_N_ELEMENTS (order)]);
    }

  tp_window_set_focus_layout (window, TRUE, TP_PANE_SPEC);
  g_assert_true (gtk_widget_grab_focus (editor));
  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      tp_test_press (GTK_WIDGET (window), "<Control>Tab");
      g_assert_cmpint (pane_with_focus (window), ==, order[i]);
      g_assert_true (tp_window_get_focus_layout (window));
      g_assert_true (gtk_widget_get_mapped (tp_window_get_pane (window, order[i])));
    }
  tp_window_set_focus_layout (window, FALSE, TP_PANE_SPEC);

  /* Tab indents; Shift+Tab leaves, typing nothing */
  g_assert_true (gtk_widget_grab_focus (editor));
  before = tp_document_dup_text (tp_window_get_document (window));
  tp_test_press (GTK_WIDGET (window), "<Shift>Tab");
  g_assert_false (gtk_widget_has_focus (editor));
  g_assert_nonnull (gtk_root_get_focus (GTK_ROOT (window)));
  after = tp_document_dup_text (tp_window_get_document (window));
  g_assert_cmpstr (after, ==, before);
  g_assert_true (gtk_widget_grab_focus (editor));
  tp_test_press (GTK_WIDGET (window), "Tab");
  g_assert_true (gtk_widget_has_focus (editor));
  g_clear_pointer (&after, g_free);
  after = tp_document_dup_text (tp_window_get_document (window));
  g_assert_cmpstr (after, !=, before);
  quit_now (app);
  return G_SOURCE_REMOVE;
}

/* {==== the shortcuts window lists every shortcut ====} */

/* A key and its modifiers as one number, Shift+Tab's ISO_Left_Tab as
 * Tab, letters in lower case. */
static guint64
key_id (guint           keyval,
        GdkModifierType mods)
{
  if (keyval == GDK_KEY_ISO_Left_Tab)
    {
      keyval = GDK_KEY_Tab;
      mods |= GDK_SHIFT_MASK;
    }
  mods &= GDK_CONTROL_MASK | GDK_SHIFT_MASK | GDK_ALT_MASK;
  return ((guint64) mods << 32) | gdk_keyval_to_lower (keyval);
}

/* Every key the Keyboard Shortcuts window shows, from its accelerators
 * ("<ctrl>plus <ctrl>minus", "<alt>1...<alt>6"). */
static void
collect_listed (GtkWidget  *widget,
                GHashTable *listed)
{
  if (GTK_IS_SHORTCUTS_SHORTCUT (widget))
    {
      g_autofree char *accelerator = NULL;
      g_auto(GStrv) tokens = NULL;

      g_object_get (widget, "accelerator", &accelerator, NULL);
      tokens = g_strsplit (accelerator != NULL ? accelerator : "", " ", -1);
      for (guint i = 0; tokens[i] != NULL; i++)
        {
          g_auto(GStrv) range = g_strsplit (tokens[i], "...", 2);
          guint first = 0, last = 0;
          GdkModifierType mods = 0, last_mods = 0;

          if (range[0] == NULL || range[0][0] == '\0' || !gtk_accelerator_parse (range[0], &first, &mods))
            continue;
          last = first;
          if (range[1] != NULL)
            g_assert_true (gtk_accelerator_parse (range[1], &last, &last_mods));
          for (guint k = first; k != 0 && k <= last; k++)
            g_hash_table_add (listed, GSIZE_TO_POINTER ((gsize) key_id (k, mods)));
        }
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    collect_listed (child, listed);
}

/* The window's mnemonics (Alt+letter on its labels and buttons), menus
 * left out: their keys work only in the open menu. */
static void
collect_mnemonics (GtkWidget *widget,
                   GArray    *keys)
{
  if (GTK_IS_POPOVER (widget))
    return;
  if (GTK_IS_LABEL (widget) && gtk_label_get_use_underline (GTK_LABEL (widget))
      && gtk_label_get_mnemonic_keyval (GTK_LABEL (widget)) != GDK_KEY_VoidSymbol)
    {
      guint keyval = gtk_label_get_mnemonic_keyval (GTK_LABEL (widget));

      g_array_append_val (keys, keyval);
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    collect_mnemonics (child, keys);
}

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

/* Every action the window's shortcuts run has a key of its in the
 * Keyboard Shortcuts window (Ctrl+Tab among them), and so have the
 * application's accelerators and every mnemonic (the Train pane's
 * Alt+P, Alt+L and Alt+K among them), each mnemonic once in the window;
 * and no key the shortcuts window shows with Ctrl or Alt (or a function
 * key) is one nothing has. */
static gboolean
shortcuts_steps_cb (gpointer data)
{
  GtkApplication *app = data;
  g_autoptr(GHashTable) listed = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) bound = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) missing = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GArray) mnemonics = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GListModel) controllers = NULL;
  GtkShortcutController *shortcuts = NULL;
  TpWindow *window;
  GHashTableIter iter;
  gpointer key;

  g_assert_true (tp_test_wait_until (first_window_ready, app, 30));
  window = active_window (app);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL));
  g_assert_true (tp_test_wait_until (shortcuts_shown, NULL, 20));
  collect_listed (GTK_WIDGET (shown_shortcuts_window ()), listed);
  g_assert_cmpuint (g_hash_table_size (listed), >, 40);

  /* the window's shortcuts, action by action */
  controllers = gtk_widget_observe_controllers (GTK_WIDGET (window));
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_SHORTCUT_CONTROLLER (controller)
          && g_strcmp0 (gtk_event_controller_get_name (GTK_EVENT_CONTROLLER (controller)), "tp-window-shortcuts") == 0)
        shortcuts = GTK_SHORTCUT_CONTROLLER (controller);
    }
  g_assert_nonnull (shortcuts);
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (shortcuts)); i++)
    {
      g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (shortcuts), i);
      GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);
      GtkShortcutAction *action = gtk_shortcut_get_action (shortcut);
      GVariant *arguments = gtk_shortcut_get_arguments (shortcut);
      g_autofree char *name = g_strdup_printf ("%s %s", gtk_named_action_get_action_name (GTK_NAMED_ACTION (action)),
                                               arguments != NULL ? g_variant_get_string (arguments, NULL) : "");
      guint64 id;

      g_assert_true (GTK_IS_KEYVAL_TRIGGER (trigger));
      id = key_id (gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)),
                   gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)));
      g_hash_table_add (bound, GSIZE_TO_POINTER ((gsize) id));
      if (g_hash_table_contains (listed, GSIZE_TO_POINTER ((gsize) id)))
        g_hash_table_replace (missing, g_strdup (name), GINT_TO_POINTER (2));
      else if (!g_hash_table_contains (missing, name))
        g_hash_table_insert (missing, g_strdup (name), GINT_TO_POINTER (1));
    }
  g_hash_table_iter_init (&iter, missing);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (GPOINTER_TO_INT (g_hash_table_lookup (missing, key)) == 1)
      g_test_message ("not in the shortcuts window: %s", (const char *) key);
  g_hash_table_iter_init (&iter, missing);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (missing, key)), ==, 2);
  g_assert_true (g_hash_table_contains (listed, GSIZE_TO_POINTER ((gsize) key_id (GDK_KEY_Tab, GDK_CONTROL_MASK))));

  /* the application's accelerators */
  {
    static const char *const actions[] = { "app.quit", "app.new-window" };

    for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
      {
        g_auto(GStrv) accels = gtk_application_get_accels_for_action (app, actions[i]);
        guint keyval = 0;
        GdkModifierType mods = 0;

        g_assert_nonnull (accels[0]);
        g_assert_true (gtk_accelerator_parse (accels[0], &keyval, &mods));
        g_assert_true (g_hash_table_contains (listed, GSIZE_TO_POINTER ((gsize) key_id (keyval, mods))));
        g_hash_table_add (bound, GSIZE_TO_POINTER ((gsize) key_id (keyval, mods)));
      }
  }

  /* the mnemonics, once each */
  collect_mnemonics (GTK_WIDGET (window), mnemonics);
  g_assert_cmpuint (mnemonics->len, >=, 11);
  for (guint i = 0; i < mnemonics->len; i++)
    {
      guint keyval = g_array_index (mnemonics, guint, i);
      guint64 id = key_id (keyval, GDK_ALT_MASK);

      g_test_message ("mnemonic Alt+%s", gdk_keyval_name (keyval));
      g_assert_true (g_hash_table_contains (listed, GSIZE_TO_POINTER ((gsize) id)));
      g_assert_false (g_hash_table_contains (bound, GSIZE_TO_POINTER ((gsize) id)));
      g_hash_table_add (bound, GSIZE_TO_POINTER ((gsize) id));
    }
  /* the Train pane's, which the shortcuts window once left out */
  g_assert_true (g_hash_table_contains (bound, GSIZE_TO_POINTER ((gsize) key_id (GDK_KEY_p, GDK_ALT_MASK))));
  g_assert_true (g_hash_table_contains (bound, GSIZE_TO_POINTER ((gsize) key_id (GDK_KEY_l, GDK_ALT_MASK))));
  g_assert_true (g_hash_table_contains (bound, GSIZE_TO_POINTER ((gsize) key_id (GDK_KEY_k, GDK_ALT_MASK))));

  /* and nothing listed that nothing has (the text view's own undo and
   * redo aside) */
  g_hash_table_add (bound, GSIZE_TO_POINTER ((gsize) key_id (GDK_KEY_z, GDK_CONTROL_MASK)));
  g_hash_table_add (bound, GSIZE_TO_POINTER ((gsize) key_id (GDK_KEY_z, GDK_CONTROL_MASK | GDK_SHIFT_MASK)));
  g_hash_table_iter_init (&iter, listed);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      guint64 id = (guint64) GPOINTER_TO_SIZE (key);
      guint keyval = (guint) (id & 0xffffffffu);
      GdkModifierType mods = (GdkModifierType) (id >> 32);

      if ((mods & (GDK_CONTROL_MASK | GDK_ALT_MASK)) != 0 || (keyval >= GDK_KEY_F1 && keyval <= GDK_KEY_F35))
        {
          if (!g_hash_table_contains (bound, key))
            g_test_message ("listed, but nothing has it: %s", gtk_accelerator_name (keyval, mods));
          g_assert_true (g_hash_table_contains (bound, key));
        }
    }
  gtk_window_close (shown_shortcuts_window ());
  quit_now (app);
  return G_SOURCE_REMOVE;
}

/* {==== the editor, the memory chart, the title ====} */

/* The editor wraps long lines by default, and the View menu's toggle
 * (kept in the settings) stops it; it opens wider than before, at a
 * share of the window, and a width dragged to is kept for the next
 * window. */
static gboolean
editor_steps_cb (gpointer data)
{
  GtkApplication *app = data;
  g_autoptr(GSettings) settings = tp_settings_new ();
  TpWindow *window;
  TpEditor *editor;
  GtkWidget *paned;
  int width;

  g_assert_true (tp_test_wait_until (first_window_ready, app, 30));
  window = active_window (app);
  settle (window);
  editor = tp_window_get_editor (window);
  g_assert_cmpint (gtk_text_view_get_wrap_mode (tp_editor_get_view (editor)), !=, GTK_WRAP_NONE);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.editor-wrap", NULL));
  g_assert_false (g_settings_get_boolean (settings, "editor-wrap"));
  g_assert_cmpint (gtk_text_view_get_wrap_mode (tp_editor_get_view (editor)), ==, GTK_WRAP_NONE);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.editor-wrap", NULL));
  g_assert_cmpint (gtk_text_view_get_wrap_mode (tp_editor_get_view (editor)), !=, GTK_WRAP_NONE);

  width = gtk_widget_get_width (GTK_WIDGET (editor));
  g_test_message ("editor %d px wide in a %d px window", width, gtk_widget_get_width (GTK_WIDGET (window)));
  g_assert_cmpint (width, >=, 350);
  g_assert_cmpint (g_settings_get_int (settings, "editor-width"), ==, 0);

  /* a drag (the paned's position set as a drag sets it) is kept */
  paned = gtk_widget_get_ancestor (GTK_WIDGET (editor), GTK_TYPE_PANED);
  gtk_paned_set_position (GTK_PANED (paned), 300);
  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_cmpint (g_settings_get_int (settings, "editor-width"), ==, 300);
  g_action_group_activate_action (G_ACTION_GROUP (app), "new-window", NULL);
  window = active_window (app);
  g_assert_nonnull (window);
  g_assert_true (tp_test_wait_until (first_window_ready, app, 30));
  settle (window);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (tp_window_get_editor (window))), ==, 300);
  g_settings_reset (settings, "editor-width");
  quit_now (app);
  return G_SOURCE_REMOVE;
}

/* The memory chart names its bars as the engine names the buffers (the
 * statement's name, the gradient of a parameter) and, at the default
 * split of a 720-px screen, shows more than two of them. */
static gboolean
memory_steps_cb (gpointer data)
{
  GtkApplication *app = data;
  TpWindow *window;
  TpMemoryChart *chart;
  TpReadings *readings;
  gboolean named = FALSE, gradient = FALSE;

  g_assert_true (tp_test_wait_until (first_window_ready, app, 30));
  window = active_window (app);
  tp_teach_panel_show (tp_window_get_teach_panel (window), TP_TEACH_MEMORY);
  settle (window);
  chart = TP_MEMORY_CHART (tp_teach_panel_get_memory_chart (tp_window_get_teach_panel (window)));
  readings = tp_document_get_readings (tp_window_get_document (window));
  g_test_message ("%u bars in sight", tp_memory_chart_get_n_bars_shown (chart));
  g_assert_cmpuint (tp_memory_chart_get_n_bars_shown (chart), >, 2);
  g_assert_nonnull (readings->teaching);
  for (guint k = 0; k < readings->teaching->n_steps; k++)
    {
      g_autofree char *label = tp_memory_chart_dup_bar_label (chart, k);
      guint node = readings->teaching->steps[k].node;
      const char *name = tp_readings_get_display_name (readings, node);
      const char *of = tp_readings_get_gradient_of (readings, node);

      if (name != NULL)
        g_assert_cmpstr (label, ==, name);
      if (g_strcmp0 (label, "loss") == 0)
        named = TRUE;
      if (of != NULL && name == NULL)
        {
          g_autofree char *expected = g_strdup_printf ("grad %s", of);

          g_assert_cmpstr (label, ==, expected);
          gradient = TRUE;
        }
    }
  g_assert_true (named);
  g_assert_true (gradient);
  quit_now (app);
  return G_SOURCE_REMOVE;
}

/* The title: the sample's while the program is the sample (edited too);
 * once its text is replaced, the program's first comment, else
 * "Untitled". */
static gboolean
title_steps_cb (gpointer data)
{
  GtkApplication *app = data;
  TpWindow *window;
  TpDocument *document;
  GtkTextBuffer *buffer;
  GtkTextIter end;

  g_assert_true (tp_test_wait_until (first_window_ready, app, 30));
  window = active_window (app);
  document = tp_window_get_document (window);
  buffer = GTK_TEXT_BUFFER (tp_document_get_buffer (document));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "The README sample – Topos Playground");

  gtk_text_buffer_get_end_iter (buffer, &end);
  gtk_text_buffer_insert (buffer, &end, "twice = loss * 2.0\n", -1);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "• The README sample – Topos Playground");

  tp_document_set_text (document, "x = input 1.0\ny = x * x\n");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "• Untitled – Topos Playground");
  tp_document_set_text (document, "\n# my reverse-mode demo\nx = input 1.0\ny = x * x\n");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "• my reverse-mode demo – Topos Playground");
  tp_window_open_sample (window, "mlp");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "A two-layer MLP with softmax cross-entropy – Topos Playground");
  gtk_text_buffer_set_modified (buffer, FALSE);
  quit_now (app);
  return G_SOURCE_REMOVE;
}

int
main (int   argc,
      char *argv[])
{
  static const struct
  {
    const char *path;
    GSourceFunc steps;
  } cases[] = {
    { "/ui/classroom/geometry", geometry_steps_cb },
    { "/ui/classroom/present", present_steps_cb },
    { "/ui/classroom/teaching-panes", teaching_steps_cb },
    { "/ui/classroom/picture-readable", readable_steps_cb },
    { "/ui/classroom/derivative-divider", derivative_steps_cb },
    { "/ui/classroom/keyboard", keyboard_steps_cb },
    { "/ui/classroom/shortcuts-listed", shortcuts_steps_cb },
    { "/ui/classroom/editor", editor_steps_cb },
    { "/ui/classroom/memory-names", memory_steps_cb },
    { "/ui/classroom/title", title_steps_cb },
  };
  int status;

  tp_test_init (&argc, &argv);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_test_add_data_func (cases[i].path, (gconstpointer) (void (*) (void)) cases[i].steps, run_steps);
  status = g_test_run ();
  /* no raster thread may draw while the process exits */
  tp_picture_raster_wait_idle ();
  return status;
}
