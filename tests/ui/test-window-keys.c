/* test-window-keys.c: the window's shortcuts, pressed as keys (XTest)
 * under Xvfb.  Every case that maps a window runs in its own
 * subprocess. */
#include "test-window.h"

/* {==== shortcuts, pressed as keys ====} */

static gboolean
pane_is_tiled (TpWindow *window,
               TpPane    pane)
{
  return GTK_IS_GRID (gtk_widget_get_parent (tp_window_get_pane (window, pane)));
}

/* Every window shortcut works with the focus in the editor, pressed as a
 * key, and none of them types into the program. */
static void
test_window_shortcuts_from_editor (void)
{
  if (g_test_subprocess ())
    {
      GtkWidget *view = NULL;
      TpWindow *window = window_focused_in_editor (&view);
      TpDocument *document = tp_window_get_document (window);
      GtkTextBuffer *buffer = GTK_TEXT_BUFFER (tp_document_get_buffer (document));
      g_autoptr(GSettings) settings = tp_settings_new ();
      g_autofree char *sample = tp_document_dup_text (document);
      g_autofree char *edited = NULL;
      g_autofree char *copied = NULL;
      g_autofree char *now = NULL;
      TpReadings *readings;

      /* Ctrl+Shift+X toggles exact, both ways */
      g_assert_false (tp_document_get_exact (document));
      tp_test_press (GTK_WIDGET (window), "<Control><Shift>x");
      g_assert_true (tp_document_get_exact (document));
      tp_test_press (GTK_WIDGET (window), "<Control><Shift>x");
      g_assert_false (tp_document_get_exact (document));

      /* Ctrl+Return on a saved-looking text: nothing typed, not modified */
      g_assert_false (gtk_text_buffer_get_modified (buffer));
      tp_test_press (GTK_WIDGET (window), "<Control>Return");
      now = tp_document_dup_text (document);
      g_assert_cmpstr (now, ==, sample);
      g_assert_false (gtk_text_buffer_get_modified (buffer));

      /* ... and after an edit it reads the new text at once */
      type_at_end (document, "twice = loss * 2.0\n");
      g_assert_true (tp_document_get_busy (document));
      edited = tp_document_dup_text (document);
      tp_test_press (GTK_WIDGET (window), "<Control>Return");
      g_assert_false (tp_document_get_busy (document));
      readings = tp_document_get_readings (document);
      g_assert_nonnull (strstr (tp_readings_get_text (readings, TP_READING_VALUES), "twice"));
      g_free (now);
      now = tp_document_dup_text (document);
      g_assert_cmpstr (now, ==, edited);

      /* Alt+1 … Alt+6 show each reading alone; again, all six */
      for (guint p = 0; p < TP_N_PANES; p++)
        {
          g_autofree char *key = g_strdup_printf ("<Alt>%u", p + 1);

          tp_test_press (GTK_WIDGET (window), key);
          g_assert_true (tp_window_get_focus_layout (window));
          g_assert_false (pane_is_tiled (window, (TpPane) p));
          tp_test_press (GTK_WIDGET (window), key);
          g_assert_false (tp_window_get_focus_layout (window));
          g_assert_true (pane_is_tiled (window, (TpPane) p));
        }

      /* Ctrl+L: one at a time and back */
      tp_test_press (GTK_WIDGET (window), "<Control>l");
      g_assert_true (tp_window_get_focus_layout (window));
      tp_test_press (GTK_WIDGET (window), "<Control>l");
      g_assert_false (tp_window_get_focus_layout (window));

      /* Ctrl+plus, Ctrl+minus, Ctrl+0: the text size */
      g_assert_cmpint (g_settings_get_int (settings, "font-size"), ==, 10);
      tp_test_press (GTK_WIDGET (window), "<Control>plus");
      g_assert_cmpint (g_settings_get_int (settings, "font-size"), ==, 11);
      tp_test_press (GTK_WIDGET (window), "<Control>minus");
      tp_test_press (GTK_WIDGET (window), "<Control>minus");
      g_assert_cmpint (g_settings_get_int (settings, "font-size"), ==, 9);
      tp_test_press (GTK_WIDGET (window), "<Control>0");
      g_assert_cmpint (g_settings_get_int (settings, "font-size"), ==, 10);

      /* Ctrl+Shift+C from the editor copies the reading that last had
       * the focus, and says which */
      gdk_clipboard_set_text (gtk_widget_get_clipboard (view), "before");
      g_assert_null (tp_window_get_toast (window));
      tp_test_press (GTK_WIDGET (window), "<Control><Shift>c");
      copied = clipboard_text (view);
      g_assert_cmpstr (copied, ==, tp_readings_get_text (readings, TP_READING_SPEC));
      g_assert_cmpstr (tp_window_get_toast (window), ==, "Copied the Spec reading");
      g_assert_true (gtk_widget_child_focus (tp_window_get_pane (window, TP_PANE_PLAN), GTK_DIR_TAB_FORWARD));
      g_assert_true (gtk_widget_grab_focus (view));
      tp_test_press (GTK_WIDGET (window), "<Control><Shift>c");
      g_free (copied);
      copied = clipboard_text (view);
      g_assert_cmpstr (copied, ==, tp_readings_get_text (readings, TP_READING_PLAN));
      g_assert_cmpstr (tp_window_get_toast (window), ==, "Copied the Plan reading");

      /* none of it typed into the program, and the focus stayed */
      g_free (now);
      now = tp_document_dup_text (document);
      g_assert_cmpstr (now, ==, edited);
      g_assert_true (gtk_widget_has_focus (view));

      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static gboolean
font_size_is_9 (gpointer data)
{
  return g_settings_get_int (data, "font-size") == 9;
}

static gboolean
font_size_is_10 (gpointer data)
{
  return g_settings_get_int (data, "font-size") == 10;
}

static gboolean
toast_shown (gpointer data)
{
  return tp_window_get_toast (data) != NULL;
}

/* A submenu has opened when the keyboard focus is on one of its items
 * and the pages have stopped sliding: the items' mnemonics then work. */
static gboolean
submenu_focused (gpointer data)
{
  GtkWidget *focus = gtk_root_get_focus (data);
  GtkWidget *stack = focus != NULL ? gtk_widget_get_ancestor (focus, GTK_TYPE_STACK) : NULL;
  const char *page = stack != NULL ? gtk_stack_get_visible_child_name (GTK_STACK (stack)) : NULL;

  /* while the pages slide, a letter both show underlined only moves the
   * focus between them */
  return page != NULL && !g_str_equal (page, "main") && !gtk_stack_get_transition_running (GTK_STACK (stack))
         && gtk_widget_is_ancestor (focus, gtk_stack_get_visible_child (GTK_STACK (stack)));
}

/* F10 opens the main menu, as a person would. */
static void
open_main_menu (TpWindow *window)
{
  GtkWidget *menu = GTK_WIDGET (gtk_menu_button_get_popover (tp_window_get_main_menu_button (window)));

  g_assert_false (gtk_widget_get_mapped (menu));
  tp_test_press (NULL, "F10");
  g_assert_true (tp_test_wait_until (tp_test_window_mapped, menu, 20));
}

/* After an item of a main-menu submenu, chosen with the keyboard (F10,
 * then the items' mnemonics), the focus is back in the editor and the
 * keyboard works at once. */
static void
test_window_menu_gives_keyboard_back (void)
{
  if (g_test_subprocess ())
    {
      GtkWidget *view = NULL;
      TpWindow *window = window_focused_in_editor (&view);
      TpDocument *document = tp_window_get_document (window);
      g_autoptr(GSettings) settings = tp_settings_new ();
      g_autofree char *sample = tp_document_dup_text (document);
      g_autofree char *now = NULL;
      GtkWidget *menu = GTK_WIDGET (gtk_menu_button_get_popover (tp_window_get_main_menu_button (window)));

      /* Text Size ▸ Smaller */
      open_main_menu (window);
      tp_test_press (menu, "t");
      g_assert_true (tp_test_wait_until (submenu_focused, window, 20));
      tp_test_press (NULL, "s");
      g_assert_true (tp_test_wait_until (font_size_is_9, settings, 20));
      g_assert_true (gtk_root_get_focus (GTK_ROOT (window)) == view);
      tp_test_press (GTK_WIDGET (window), "<Alt>3");
      g_assert_true (tp_window_get_focus_layout (window));
      g_assert_false (pane_is_tiled (window, TP_PANE_PLAN));

      /* Text Size ▸ Reset */
      open_main_menu (window);
      tp_test_press (menu, "t");
      g_assert_true (tp_test_wait_until (submenu_focused, window, 20));
      tp_test_press (NULL, "r");
      g_assert_true (tp_test_wait_until (font_size_is_10, settings, 20));
      g_assert_true (gtk_root_get_focus (GTK_ROOT (window)) == view);
      tp_test_press (GTK_WIDGET (window), "<Control>l");
      g_assert_false (tp_window_get_focus_layout (window));

      /* Copy Reading ▸ Plan */
      open_main_menu (window);
      tp_test_press (menu, "c");
      g_assert_true (tp_test_wait_until (submenu_focused, window, 20));
      tp_test_press (NULL, "l");
      g_assert_true (tp_test_wait_until (toast_shown, window, 20));
      g_assert_cmpstr (tp_window_get_toast (window), ==, "Copied the Plan reading");
      g_assert_true (gtk_root_get_focus (GTK_ROOT (window)) == view);
      tp_test_press (GTK_WIDGET (window), "<Alt>6");
      g_assert_true (tp_window_get_focus_layout (window));
      g_assert_false (pane_is_tiled (window, TP_PANE_PICTURE));

      /* typing goes to the program again */
      tp_test_press (GTK_WIDGET (window), "z");
      g_assert_true (gtk_widget_has_focus (view));
      now = tp_document_dup_text (document);
      g_assert_cmpuint (strlen (now), ==, strlen (sample) + 1);

      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

int
main (int   argc,
      char *argv[])
{
  int status;

  tp_test_init (&argc, &argv);

  g_test_add_func ("/ui/window/shortcuts-from-editor", test_window_shortcuts_from_editor);
  g_test_add_func ("/ui/window/menu-gives-keyboard-back", test_window_menu_gives_keyboard_back);

  status = g_test_run ();
  /* no raster thread may draw while the process exits */
  tp_picture_raster_wait_idle ();
  return status;
}
