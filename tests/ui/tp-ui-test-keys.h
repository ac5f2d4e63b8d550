/* tp-ui-test-keys.h: real key presses for the UI tests.
 *
 * XTest has the X server (Xvfb) itself send the key events, so they reach
 * GTK the way a person's do: through GDK to the focused window, its
 * capture phase, the focused widget and back up.  A shortcut that the
 * editor eats fails a test that presses it here. */
#pragma once

#include <X11/XKBlib.h>
#include <X11/extensions/XTest.h>
#include <gdk/x11/gdkx.h>

#include "tp-ui-test-util.h"

static gboolean
tp_test_window_active (gpointer data)
{
  return gtk_window_is_active (data);
}

static gboolean
tp_test_window_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data);
}

static Display *
tp_test_xdisplay (void)
{
  GdkDisplay *display = gdk_display_get_default ();

  g_assert_true (GDK_IS_X11_DISPLAY (display));
  return gdk_x11_display_get_xdisplay (display);
}

/* Shows @window, gives it the X keyboard focus and waits until GTK knows
 * it has the focus. */
static inline gboolean
tp_test_focus_window (GtkWindow *window)
{
  Display *dpy = tp_test_xdisplay ();
  GdkSurface *surface;

  gtk_window_present (window);
  if (!tp_test_wait_until (tp_test_window_mapped, window, 20))
    return FALSE;
  surface = gtk_native_get_surface (GTK_NATIVE (window));
  XSetInputFocus (dpy, gdk_x11_surface_get_xid (surface), RevertToParent, CurrentTime);
  XSync (dpy, False);
  return tp_test_wait_until (tp_test_window_active, window, 20);
}

typedef struct
{
  guint keycode;
  gboolean seen;
} TpTestKeyWait;

static void
tp_test_key_released_cb (GtkEventControllerKey *controller,
                         guint                  keyval,
                         guint                  keycode,
                         GdkModifierType        state,
                         TpTestKeyWait         *wait)
{
  if (keycode == wait->keycode)
    wait->seen = TRUE;
}

static gboolean
tp_test_key_seen (gpointer data)
{
  return ((TpTestKeyWait *) data)->seen;
}

static void
tp_test_fake_key (Display *dpy,
                  KeyCode  code,
                  gboolean press)
{
  g_assert_cmpuint (code, !=, 0);
  XTestFakeKeyEvent (dpy, code, press ? True : False, CurrentTime);
}

/* Presses and releases @accel (gtk_accelerator_parse's syntax) as a
 * person would: the modifiers down, the key down and up, the modifiers
 * up.  With @watch (a window, or a popover that has the keyboard),
 * returns once @watch has seen the last key go up, so the press has been
 * handled; with NULL (the keys move the keyboard elsewhere), once the
 * server has sent the events. */
static inline void
tp_test_press (GtkWidget  *watch,
               const char *accel)
{
  static const struct { GdkModifierType mask; KeySym sym; } modifiers[] = {
    { GDK_CONTROL_MASK, XK_Control_L },
    { GDK_SHIFT_MASK, XK_Shift_L },
    { GDK_ALT_MASK, XK_Alt_L },
  };
  Display *dpy = tp_test_xdisplay ();
  guint keyval = 0;
  GdkModifierType mods = 0;
  KeyCode code, held[G_N_ELEMENTS (modifiers)];
  guint n_held = 0;
  TpTestKeyWait wait = { 0, FALSE };
  GtkEventController *observer = NULL;

  g_assert_true (gtk_accelerator_parse (accel, &keyval, &mods));
  code = XKeysymToKeycode (dpy, (KeySym) keyval);
  g_assert_cmpuint (code, !=, 0);
  /* a symbol on the shifted level of its key (?, +) needs Shift */
  if (XkbKeycodeToKeysym (dpy, code, 0, 0) != (KeySym) keyval)
    mods |= GDK_SHIFT_MASK;

  for (guint i = 0; i < G_N_ELEMENTS (modifiers); i++)
    if (mods & modifiers[i].mask)
      held[n_held++] = XKeysymToKeycode (dpy, modifiers[i].sym);
  wait.keycode = n_held > 0 ? held[0] : code;
  if (watch != NULL)
    {
      observer = gtk_event_controller_key_new ();
      gtk_event_controller_set_propagation_phase (observer, GTK_PHASE_CAPTURE);
      g_signal_connect (observer, "key-released", G_CALLBACK (tp_test_key_released_cb), &wait);
      gtk_widget_add_controller (watch, observer);
    }

  for (guint i = 0; i < n_held; i++)
    tp_test_fake_key (dpy, held[i], TRUE);
  tp_test_fake_key (dpy, code, TRUE);
  tp_test_fake_key (dpy, code, FALSE);
  for (guint i = n_held; i > 0; i--)
    tp_test_fake_key (dpy, held[i - 1], FALSE);
  XSync (dpy, False);

  if (observer != NULL)
    {
      g_assert_true (tp_test_wait_until (tp_test_key_seen, &wait, 20));
      gtk_widget_remove_controller (watch, observer);
    }
}

typedef struct
{
  gboolean seen;
} TpTestClickWait;

static gboolean
tp_test_button_released_cb (GtkEventControllerLegacy *controller,
                            GdkEvent                 *event,
                            TpTestClickWait          *wait)
{
  if (gdk_event_get_event_type (event) == GDK_BUTTON_RELEASE)
    wait->seen = TRUE;
  return FALSE;
}

static gboolean
tp_test_click_seen (gpointer data)
{
  return ((TpTestClickWait *) data)->seen;
}

static void
tp_test_frame_painted_cb (GdkFrameClock *clock,
                          guint         *painted)
{
  if (++*painted < 2)
    gdk_frame_clock_request_phase (clock, GDK_FRAME_CLOCK_PHASE_PAINT);
}

static gboolean
tp_test_two_frames (gpointer data)
{
  return *(guint *) data >= 2;
}

/* Waits until @widget's window has painted two frames: a layout asked for
 * (a label that changed, a pane that grew) is then done, and @widget is
 * where its allocation says. */
static inline void
tp_test_settle (GtkWidget *widget)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);
  guint painted = 0;
  gulong id;

  if (clock == NULL)
    return;
  id = g_signal_connect (clock, "after-paint",
                         G_CALLBACK (tp_test_frame_painted_cb), &painted);
  gtk_widget_queue_draw (widget);
  gdk_frame_clock_request_phase (clock, GDK_FRAME_CLOCK_PHASE_PAINT);
  g_assert_true (tp_test_wait_until (tp_test_two_frames, &painted, 20));
  g_signal_handler_disconnect (clock, id);
}

/* Clicks the first button at (@x, @y) of @widget as a person would: the
 * X server moves the pointer there and presses and releases the button;
 * returns once @widget has seen the release.  The layout is settled
 * first, so the point is where the widget is on screen. */
static inline void
tp_test_click (GtkWidget *widget,
               double     x,
               double     y)
{
  Display *dpy;

  tp_test_settle (widget);
  dpy = tp_test_xdisplay ();
  GtkNative *native = gtk_widget_get_native (widget);
  GdkSurface *surface = gtk_native_get_surface (native);
  graphene_point_t at = GRAPHENE_POINT_INIT ((float) x, (float) y), in;
  double sx = 0, sy = 0;
  int rx = 0, ry = 0;
  Window child;
  TpTestClickWait wait = { FALSE };
  GtkEventController *observer = gtk_event_controller_legacy_new ();

  g_assert_true (gtk_widget_compute_point (widget, GTK_WIDGET (native), &at, &in));
  gtk_native_get_surface_transform (native, &sx, &sy);
  XTranslateCoordinates (dpy, gdk_x11_surface_get_xid (surface), DefaultRootWindow (dpy),
                         (int) ((double) in.x + sx), (int) ((double) in.y + sy), &rx, &ry, &child);
  gtk_event_controller_set_propagation_phase (observer, GTK_PHASE_CAPTURE);
  g_signal_connect (observer, "event", G_CALLBACK (tp_test_button_released_cb), &wait);
  gtk_widget_add_controller (widget, observer);
  XTestFakeMotionEvent (dpy, -1, rx, ry, CurrentTime);
  XTestFakeButtonEvent (dpy, 1, True, CurrentTime);
  XTestFakeButtonEvent (dpy, 1, False, CurrentTime);
  XSync (dpy, False);
  g_assert_true (tp_test_wait_until (tp_test_click_seen, &wait, 20));
  gtk_widget_remove_controller (widget, observer);
}
