/* test-window-a11y.c: the window under Xvfb for its accessibility
 * (names, the tab order, contrast) and what follows: undo, export, the
 * remembered size, dialogs opened from the editor, the picture by keys,
 * recent files, stale lines.  Every case that maps a window runs in its
 * own subprocess. */
#include "test-window.h"

/* {==== accessibility ====} */

static gboolean
role_is_control (GtkAccessibleRole role)
{
  switch (role)
    {
    case GTK_ACCESSIBLE_ROLE_BUTTON:
    case GTK_ACCESSIBLE_ROLE_CHECKBOX:
    case GTK_ACCESSIBLE_ROLE_COMBO_BOX:
    case GTK_ACCESSIBLE_ROLE_IMG:
    case GTK_ACCESSIBLE_ROLE_LINK:
    case GTK_ACCESSIBLE_ROLE_MENU_ITEM:
    case GTK_ACCESSIBLE_ROLE_RADIO:
    case GTK_ACCESSIBLE_ROLE_SEARCH_BOX:
    case GTK_ACCESSIBLE_ROLE_SLIDER:
    case GTK_ACCESSIBLE_ROLE_SPIN_BUTTON:
    case GTK_ACCESSIBLE_ROLE_SWITCH:
    case GTK_ACCESSIBLE_ROLE_TAB:
    case GTK_ACCESSIBLE_ROLE_TEXT_BOX:
      return TRUE;
    default:
      return FALSE;
    }
}

/* The label a button or check button shows, its mnemonic's underscore
 * taken out: the name it should have. */
static char *
shown_label (GtkWidget *widget)
{
  const char *label = NULL;
  GString *plain;

  if (GTK_IS_BUTTON (widget) && gtk_button_get_use_underline (GTK_BUTTON (widget)))
    label = gtk_button_get_label (GTK_BUTTON (widget));
  else if (GTK_IS_CHECK_BUTTON (widget) && gtk_check_button_get_use_underline (GTK_CHECK_BUTTON (widget)))
    label = gtk_check_button_get_label (GTK_CHECK_BUTTON (widget));
  else if (GTK_IS_MENU_BUTTON (widget) && gtk_menu_button_get_use_underline (GTK_MENU_BUTTON (widget)))
    label = gtk_menu_button_get_label (GTK_MENU_BUTTON (widget));
  if (label == NULL)
    return NULL;
  plain = g_string_new (NULL);
  for (const char *c = label; *c != '\0'; c++)
    if (*c != '_' || c[1] == '_')
      g_string_append_c (plain, *c == '_' ? c++[1] : *c);
  return g_string_free (plain, FALSE);
}

/* Walks the accessible tree under @widget (in GTK 4.8, the widget tree):
 * every control on screen has a name of its own (a label, or a label
 * widget that names it); one with a mnemonic is named without the
 * underscore.  Adds what it finds wrong to @problems. */
static void
check_names (GtkWidget *widget,
             GString   *problems,
             guint     *n_controls)
{
  GtkAccessible *accessible = GTK_ACCESSIBLE (widget);
  GtkAccessibleRole role = gtk_accessible_get_accessible_role (accessible);
  g_autofree char *plain = shown_label (widget);

  if (!gtk_widget_get_mapped (widget))
    return;
  if (role_is_control (role))
    {
      gboolean named = gtk_test_accessible_has_property (accessible, GTK_ACCESSIBLE_PROPERTY_LABEL)
                       || gtk_test_accessible_has_relation (accessible, GTK_ACCESSIBLE_RELATION_LABELLED_BY);

      (*n_controls)++;
      if (!named)
        g_string_append_printf (problems, "unnamed %s (%s)\n", G_OBJECT_TYPE_NAME (widget),
                                gtk_widget_get_tooltip_text (widget) != NULL
                                  ? gtk_widget_get_tooltip_text (widget) : "no tooltip");
      else if (gtk_test_accessible_has_property (accessible, GTK_ACCESSIBLE_PROPERTY_LABEL))
        {
          /* GTK 4.8's check hands back the value it found when it is not
           * the one asked for: that is the name */
          g_autofree char *name = gtk_test_accessible_check_property (accessible, GTK_ACCESSIBLE_PROPERTY_LABEL,
                                                                      "\001");

          if (name == NULL || name[0] == '\0' || strchr (name, '_') != NULL || g_str_has_suffix (name, "-symbolic"))
            g_string_append_printf (problems, "%s named “%s”\n", G_OBJECT_TYPE_NAME (widget),
                                    name != NULL ? name : "");
        }
    }
  if (plain != NULL)
    {
      g_autofree char *wrong = gtk_test_accessible_check_property (accessible, GTK_ACCESSIBLE_PROPERTY_LABEL, plain);

      if (wrong != NULL)
        g_string_append_printf (problems, "%s “%s”: %s\n", G_OBJECT_TYPE_NAME (widget), plain, wrong);
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    check_names (child, problems, n_controls);
}

/* Every control has an accessible name, in the tiled and the focus
 * layout; the picture says what it shows. */
static void
test_window_accessible_names (void)
{
  if (g_test_subprocess ())
    {
      TpWindow *window;
      g_autoptr(GString) problems = g_string_new (NULL);
      GtkAccessible *canvas = NULL;
      guint n_controls = 0;

      /* GTK_A11Y=none gives widgets no accessible context at all; the
       * test backend keeps one in this process (no AT-SPI bus).  GTK
       * reads the variable when it makes the first context. */
      g_setenv ("GTK_A11Y", "test", TRUE);
      window = window_new_on_readme ();
      g_assert_true (tp_test_focus_window (GTK_WINDOW (window)));
      g_assert_true (tp_test_wait_until (window_ready, window, 20));
      check_names (GTK_WIDGET (window), problems, &n_controls);
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "plan"));
      g_assert_true (tp_test_wait_until (window_ready, window, 20));
      check_names (GTK_WIDGET (window), problems, &n_controls);
      /* each teaching pane under the readings */
      for (guint i = 0; i < 4; i++)
        {
          static const char *pages[] = { "memory", "steps", "train", "check" };

          g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", pages[i]));
          g_assert_true (tp_test_wait_until (window_ready, window, 20));
          check_names (GTK_WIDGET (window), problems, &n_controls);
        }
      g_assert_cmpstr (problems->str, ==, "");
      g_assert_cmpuint (n_controls, >, 30);

      /* the picture: an image whose description is the engine's spec */
      canvas = GTK_ACCESSIBLE (tp_picture_view_get_canvas (TP_PICTURE_VIEW (tp_window_get_pane (window, TP_PANE_PICTURE))));
      g_assert_cmpint (gtk_accessible_get_accessible_role (canvas), ==, GTK_ACCESSIBLE_ROLE_IMG);
      {
        TpReadings *readings = tp_document_get_readings (tp_window_get_document (window));
        g_autofree char *wrong = NULL;
        g_autofree char *expected = g_strconcat (tp_readings_get_text (readings, TP_READING_SUMMARY),
                                                 tp_readings_get_text (readings, TP_READING_SPEC), NULL);

        wrong = gtk_test_accessible_check_property (canvas, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, expected);
        g_assert_null (wrong);
      }

      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
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

/* Ctrl+Tab (Tab itself types into the editor) goes through the readings
 * in the order they are on screen: down the left column, then the
 * picture and StableHLO on the right. */
static void
test_window_tab_order (void)
{
  if (g_test_subprocess ())
    {
      TpWindow *window = window_new_on_readme ();
      static const TpPane expected[] = {
        TP_PANE_SPEC, TP_PANE_DERIVATIVE, TP_PANE_PLAN, TP_PANE_VALUES, TP_PANE_PICTURE, TP_PANE_STABLEHLO,
      };
      g_autoptr(GString) order = g_string_new (NULL);
      g_autoptr(GString) want = g_string_new (NULL);
      int last = -1;
      guint seen = 0;

      g_assert_true (tp_test_focus_window (GTK_WINDOW (window)));
      g_assert_true (tp_test_wait_until (window_ready, window, 20));
      g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (tp_editor_get_view (tp_window_get_editor (window)))));
      for (guint i = 0; i < 80 && seen < TP_N_PANES; i++)
        {
          int pane;

          tp_test_press (GTK_WIDGET (window), "<Control>Tab");
          pane = pane_with_focus (window);
          if (pane >= 0 && pane != last)
            {
              g_string_append_printf (order, "%s ", tp_pane_get_id ((TpPane) pane));
              seen++;
            }
          last = pane;
        }
      for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
        g_string_append_printf (want, "%s ", tp_pane_get_id (expected[i]));
      g_assert_cmpstr (order->str, ==, want->str);

      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static double
linear (double c)
{
  return c <= 0.03928 ? c / 12.92 : pow ((c + 0.055) / 1.055, 2.4);
}

static double
luminance (const GdkRGBA *c)
{
  return 0.2126 * linear (c->red) + 0.7152 * linear (c->green) + 0.0722 * linear (c->blue);
}

/* WCAG's contrast ratio of two opaque colours. */
static double
contrast (const GdkRGBA *a,
          const GdkRGBA *b)
{
  double la = luminance (a), lb = luminance (b);

  return (MAX (la, lb) + 0.05) / (MIN (la, lb) + 0.05);
}

static GdkRGBA
blend (const char    *over,
       const GdkRGBA *under)
{
  GdkRGBA c, out;

  g_assert_true (gdk_rgba_parse (&c, over));
  out.red = c.alpha * c.red + (1 - c.alpha) * under->red;
  out.green = c.alpha * c.green + (1 - c.alpha) * under->green;
  out.blue = c.alpha * c.blue + (1 - c.alpha) * under->blue;
  out.alpha = 1;
  return out;
}

/* In the dark style, every colour the editor and the readings draw text
 * in (the scheme's, for every style the tape language and the StableHLO
 * colouring use, and the palette's) has a contrast of at least 4.5:1 on
 * the plain background and on each highlight. */
static void
test_window_dark_contrast (void)
{
  static const char *const styles[] = {
    "text", "def:comment", "def:keyword", "def:builtin", "def:number", "def:special-constant",
    "def:identifier", "def:operator", "def:function", "def:type", "def:preprocessor",
    "def:floating-point",
  };
  g_autoptr(GtkSourceBuffer) buffer = gtk_source_buffer_new (NULL);
  const TpPalette *palette = tp_style_get_palette (TRUE);
  GtkSourceStyleScheme *scheme;
  g_autofree char *text_bg = NULL;
  g_autofree char *text_fg = NULL;
  GdkRGBA base, backgrounds[4];
  g_autoptr(GArray) colours = g_array_new (FALSE, FALSE, sizeof (GdkRGBA));
  g_autoptr(GString) low = g_string_new (NULL);
  double worst = 100;

  tp_style_apply_scheme (buffer, TRUE);
  scheme = gtk_source_buffer_get_style_scheme (buffer);
  g_assert_nonnull (scheme);
  g_assert_cmpstr (gtk_source_style_scheme_get_id (scheme), ==, "topos-dark");
  g_object_get (gtk_source_style_scheme_get_style (scheme, "text"),
                "background", &text_bg, "foreground", &text_fg, NULL);
  g_assert_true (gdk_rgba_parse (&base, text_bg));
  backgrounds[0] = base;
  backgrounds[1] = blend (palette->selected, &base);
  backgrounds[2] = blend (palette->selected_ref, &base);
  backgrounds[3] = blend (palette->kept, &base);

  for (guint i = 0; i < G_N_ELEMENTS (styles); i++)
    {
      GtkSourceStyle *style = gtk_source_style_scheme_get_style (scheme, styles[i]);
      g_autofree char *fg = NULL;
      gboolean set = FALSE;
      GdkRGBA c;

      g_assert_nonnull (style);
      g_object_get (style, "foreground-set", &set, "foreground", &fg, NULL);
      g_assert_true (gdk_rgba_parse (&c, set ? fg : text_fg));
      g_array_append_val (colours, c);
    }
  {
    GdkRGBA c;

    g_assert_true (gdk_rgba_parse (&c, palette->derived));
    g_array_append_val (colours, c);
    g_assert_true (gdk_rgba_parse (&c, palette->summary));
    g_array_append_val (colours, c);
  }
  for (guint i = 0; i < colours->len; i++)
    for (guint b = 0; b < G_N_ELEMENTS (backgrounds); b++)
      {
        double ratio = contrast (&g_array_index (colours, GdkRGBA, i), &backgrounds[b]);

        worst = MIN (worst, ratio);
        if (ratio < 4.5)
          g_string_append_printf (low, "colour %u on background %u: %.2f\n", i, b, ratio);
      }
  g_test_message ("lowest contrast in the dark style: %.2f:1", worst);
  g_assert_cmpstr (low->str, ==, "");
}

/* Ctrl+Z in a new window does not take its sample away; it still undoes
 * an edit, and a sample opened over a program brings the program back. */
static void
test_window_undo_keeps_sample (void)
{
  if (g_test_subprocess ())
    {
      GtkWidget *view = NULL;
      TpWindow *window = window_focused_in_editor (&view);
      TpDocument *document = tp_window_get_document (window);
      GtkSourceBuffer *buffer = tp_document_get_buffer (document);
      g_autofree char *sample = tp_document_dup_text (document);
      g_autofree char *now = NULL;

      g_assert_cmpuint (strlen (sample), >, 0);
      g_assert_false (gtk_text_buffer_get_can_undo (GTK_TEXT_BUFFER (buffer)));
      tp_test_press (GTK_WIDGET (window), "<Control>z");
      now = tp_document_dup_text (document);
      g_assert_cmpstr (now, ==, sample);

      tp_test_press (GTK_WIDGET (window), "q");
      g_free (now);
      now = tp_document_dup_text (document);
      g_assert_cmpuint (strlen (now), ==, strlen (sample) + 1);
      tp_test_press (GTK_WIDGET (window), "<Control>z");
      g_free (now);
      now = tp_document_dup_text (document);
      g_assert_cmpstr (now, ==, sample);

      tp_window_open_sample (window, "dense-layer");
      g_free (now);
      now = tp_document_dup_text (document);
      g_assert_cmpstr (now, !=, sample);
      tp_test_press (GTK_WIDGET (window), "<Control>z");
      g_free (now);
      now = tp_document_dup_text (document);
      g_assert_cmpstr (now, ==, sample);

      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

typedef struct
{
  TpWindow *window;
  const char *toast;
} ToastWait;

static gboolean
toast_says (gpointer data)
{
  ToastWait *w = data;

  return g_strcmp0 (tp_window_get_toast (w->window), w->toast) == 0;
}

/* The corner pixel of a PNG, as straight (not premultiplied) RGBA. */
static guint32
png_corner (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkTexture) texture = gdk_texture_new_from_filename (path, &error);
  g_autofree guchar *pixels = NULL;
  int width;

  g_assert_no_error (error);
  width = gdk_texture_get_width (texture);
  pixels = g_malloc ((gsize) width * 4 * (gsize) gdk_texture_get_height (texture));
  gdk_texture_download (texture, pixels, (gsize) width * 4);
  /* GDK_MEMORY_DEFAULT: B, G, R, A */
  return (guint32) pixels[2] << 24 | (guint32) pixels[1] << 16 | (guint32) pixels[0] << 8 | pixels[3];
}

/* Exports say so in a toast; a PNG offers a transparent, light or dark
 * background. */
static void
test_window_export (void)
{
  if (g_test_subprocess ())
    {
      TpWindow *window = window_new_on_readme ();
      g_autofree char *dir = g_dir_make_tmp ("topos-export-XXXXXX", NULL);
      static const struct { const char *format; const char *name; guint32 corner; } pngs[] = {
        { "png", "clear.png", 0x00000000 },
        { "png-light", "light.png", 0xffffffff },
        { "png-dark", "dark.png", 0x1e1e1eff },
      };
      g_autofree char *mlir_path = g_build_filename (dir, "program.mlir", NULL);
      g_autoptr(GFile) mlir = g_file_new_for_path (mlir_path);
      g_autofree char *written = NULL;
      ToastWait wait = { window, NULL };

      gtk_window_present (GTK_WINDOW (window));
      for (guint i = 0; i < G_N_ELEMENTS (pngs); i++)
        {
          g_autofree char *path = g_build_filename (dir, pngs[i].name, NULL);
          g_autoptr(GFile) file = g_file_new_for_path (path);
          g_autofree char *said = g_strdup_printf ("Exported %s", pngs[i].name);

          tp_window_export (window, pngs[i].format, file);
          wait.toast = said;
          g_assert_true (tp_test_wait_until (toast_says, &wait, 30));
          g_assert_cmphex (png_corner (path), ==, pngs[i].corner);
          g_unlink (path);
        }

      tp_window_export (window, "mlir", mlir);
      wait.toast = "Exported program.mlir";
      g_assert_true (tp_test_wait_until (toast_says, &wait, 30));
      g_assert_true (g_file_get_contents (mlir_path, &written, NULL, NULL));
      g_assert_cmpstr (written, ==,
                       tp_readings_get_text (tp_document_get_readings (tp_window_get_document (window)),
                                             TP_READING_STABLEHLO));
      g_unlink (mlir_path);
      g_rmdir (dir);

      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* A new window opens at the size the last one closed at. */
static void
test_window_remembers_size (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr(GSettings) settings = tp_settings_new ();
      TpWindow *window;
      int width = 0, height = 0;

      g_settings_set_int (settings, "window-width", 900);
      g_settings_set_int (settings, "window-height", 640);
      window = window_new_on_readme ();
      gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
      g_assert_cmpint (width, ==, 900);
      g_assert_cmpint (height, ==, 640);

      gtk_window_present (GTK_WINDOW (window));
      gtk_window_set_default_size (GTK_WINDOW (window), 1100, 700);
      gtk_window_close (GTK_WINDOW (window));
      g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 1100);
      g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 700);
      g_assert_false (g_settings_get_boolean (settings, "window-maximized"));

      window = window_new_on_readme ();
      gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
      g_assert_cmpint (width, ==, 1100);
      g_assert_cmpint (height, ==, 700);
      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static GtkWindow *
shown_file_chooser (void)
{
  g_autoptr(GList) toplevels = gtk_window_list_toplevels ();

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (GTK_IS_FILE_CHOOSER_DIALOG (l->data) && gtk_widget_get_mapped (l->data))
      return l->data;
  return NULL;
}

static gboolean
file_chooser_shown (gpointer data)
{
  return shown_file_chooser () != NULL;
}

static gboolean
chooser_has_folder (gpointer data)
{
  GtkWindow *chooser = shown_file_chooser ();
  g_autoptr(GFile) folder = chooser != NULL ? gtk_file_chooser_get_current_folder (GTK_FILE_CHOOSER (chooser)) : NULL;

  return folder != NULL;
}

static gboolean
window_gone (gpointer data)
{
  return *(TpWindow **) data == NULL;
}

static const struct
{
  const char *keys;
  const char *title;
} dialog_shortcuts[] = {
  { "<Control>o", "Open a Program" },
  { "<Control>s", "Save the Program" },
  { "<Control><Shift>s", "Save the Program" },
  { "<Control>e", "Export the Picture" },
  { "<Control><Shift>e", "Export the Picture" },
  { "<Control><Shift>m", "Export the StableHLO" },
};

/* Each shortcut that opens a file dialog does so from the editor and
 * types nothing (one process a shortcut: GTK 4.8's file chooser reports
 * a folder load cancelled by a quick close as an error dialog of its
 * own, which would take the next key). */
static void
test_window_dialog_shortcut_from_editor (gconstpointer data)
{
  guint i = GPOINTER_TO_UINT (data);

  if (g_test_subprocess ())
    {
      GtkWidget *view = NULL;
      TpWindow *window = window_focused_in_editor (&view);
      TpDocument *document = tp_window_get_document (window);
      g_autofree char *sample = tp_document_dup_text (document);
      g_autofree char *now = NULL;

      g_assert_null (shown_file_chooser ());
      tp_test_press (NULL, dialog_shortcuts[i].keys);
      g_assert_true (tp_test_wait_until (file_chooser_shown, NULL, 20));
      g_assert_cmpstr (gtk_window_get_title (shown_file_chooser ()), ==, dialog_shortcuts[i].title);
      {
        /* a program with no file: the dialog starts in the documents
         * folder (else home), not where the playground was started */
        g_autoptr(GFile) folder = NULL;
        g_autofree char *where = NULL;

        g_assert_true (tp_test_wait_until (chooser_has_folder, NULL, 20));
        folder = gtk_file_chooser_get_current_folder (GTK_FILE_CHOOSER (shown_file_chooser ()));
        where = g_file_get_path (folder);
        g_autofree char *cwd = g_get_current_dir ();
        const char *documents = g_get_user_special_dir (G_USER_DIRECTORY_DOCUMENTS);

        g_assert_cmpstr (where, !=, cwd);
        g_assert_cmpstr (where, ==, documents != NULL && g_file_test (documents, G_FILE_TEST_IS_DIR)
                                      ? documents : g_get_home_dir ());
      }
      now = tp_document_dup_text (document);
      g_assert_cmpstr (now, ==, sample);
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* Ctrl+W from the editor closes the window. */
static void
test_window_close_shortcut_from_editor (void)
{
  if (g_test_subprocess ())
    {
      GtkWidget *view = NULL;
      TpWindow *window = window_focused_in_editor (&view);

      g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
      tp_test_press (NULL, "<Control>w");
      g_assert_true (tp_test_wait_until (window_gone, &window, 20));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* With the keyboard in the picture, Ctrl+plus, Ctrl+minus and Ctrl+0
 * zoom it (not the text) and the arrows pan it; Ctrl+1 shows it at 100%
 * from anywhere. */
static void
test_window_picture_keyboard (void)
{
  if (g_test_subprocess ())
    {
      GtkWidget *view = NULL;
      TpWindow *window = window_focused_in_editor (&view);
      TpPictureView *picture = TP_PICTURE_VIEW (tp_window_get_pane (window, TP_PANE_PICTURE));
      GtkWidget *canvas = tp_picture_view_get_canvas (picture);
      g_autoptr(GSettings) settings = tp_settings_new ();
      double fit, x0, y0, x1, y1;

      g_assert_true (tp_test_wait_until (window_ready, window, 30));
      g_assert_true (gtk_widget_grab_focus (canvas));
      /* it opens readable; Ctrl+0 fits it */
      g_assert_cmpfloat (tp_picture_view_get_label_height (picture), >=, 9);
      tp_test_press (GTK_WIDGET (window), "<Control>0");
      fit = tp_picture_view_get_scale (picture);
      g_assert_cmpfloat (fit, >, 0);

      tp_test_press (GTK_WIDGET (window), "<Control>plus");
      g_assert_cmpfloat_with_epsilon (tp_picture_view_get_scale (picture), fit * 1.25, 1e-9);
      tp_test_press (GTK_WIDGET (window), "<Control>minus");
      tp_test_press (GTK_WIDGET (window), "<Control>minus");
      g_assert_cmpfloat_with_epsilon (tp_picture_view_get_scale (picture), fit * 0.8, 1e-9);
      g_assert_cmpint (g_settings_get_int (settings, "font-size"), ==, 10);

      tp_picture_view_get_offset (picture, &x0, &y0);
      tp_test_press (GTK_WIDGET (window), "Right");
      tp_test_press (GTK_WIDGET (window), "Down");
      tp_picture_view_get_offset (picture, &x1, &y1);
      g_assert_cmpfloat_with_epsilon (x1, x0 - 0.1 * gtk_widget_get_width (canvas), 1e-9);
      g_assert_cmpfloat_with_epsilon (y1, y0 - 0.1 * gtk_widget_get_height (canvas), 1e-9);
      g_assert_true (gtk_widget_has_focus (canvas));

      tp_test_press (GTK_WIDGET (window), "<Control>0");
      g_assert_cmpfloat_with_epsilon (tp_picture_view_get_scale (picture), fit, 1e-9);
      g_assert_cmpint (g_settings_get_int (settings, "font-size"), ==, 10);

      /* Ctrl+1: 100%, with the keyboard anywhere */
      g_assert_true (gtk_widget_grab_focus (view));
      tp_test_press (GTK_WIDGET (window), "<Control>1");
      g_assert_cmpfloat_with_epsilon (tp_picture_view_get_scale (picture), 1.0, 1e-9);
      g_assert_true (gtk_widget_has_focus (view));

      /* a new program opens readable, not at the last one's zoom */
      g_assert_true (gtk_widget_grab_focus (canvas));
      tp_test_press (GTK_WIDGET (window), "<Control>plus");
      g_assert_cmpfloat (tp_picture_view_get_scale (picture), >, 1.2);
      tp_window_open_sample (window, "dense-layer");
      tp_window_recompute_now (window);
      g_assert_true (tp_test_wait_until (window_ready, window, 30));
      g_assert_cmpfloat (tp_picture_view_get_scale (picture), <, 1.2);
      g_assert_cmpfloat (tp_picture_view_get_label_height (picture), >=, 9);

      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* In the default tiled window, every sample's picture opens with its
 * node labels (a node's first line) at least 9 pixels tall: fitted when
 * that is readable, else around the target, which is on the canvas.
 * Fitting stays a key away.  Prints the heights (the report's figures). */
static void
test_window_picture_readable (void)
{
  if (g_test_subprocess ())
    {
      static const char *const samples[] = { "readme", "two-layers", "mlp", "attention" };
      TpWindow *window = tp_test_window_new ();
      TpPictureView *picture = TP_PICTURE_VIEW (tp_window_get_pane (window, TP_PANE_PICTURE));
      GtkWidget *canvas = tp_picture_view_get_canvas (picture);

      gtk_window_set_default_size (GTK_WINDOW (window), 1280, 820);
      gtk_window_present (GTK_WINDOW (window));
      for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
        {
          double x, y, opened, fitted;

          tp_window_open_sample (window, samples[i]);
          tp_window_recompute_now (window);
          g_assert_true (tp_test_wait_until (picture_shown, window, 30));
          g_assert_true (tp_test_wait_until (window_ready, window, 30));
          opened = tp_picture_view_get_label_height (picture);
          g_assert_cmpfloat (opened, >=, 9);
          /* the README sample's target, loss (node 5), is in view */
          if (g_str_equal (samples[i], "readme"))
            {
              g_assert_true (tp_picture_view_get_node_center (picture, 5, &x, &y));
              g_assert_cmpfloat (x, >=, 0);
              g_assert_cmpfloat (x, <=, gtk_widget_get_width (canvas));
              g_assert_cmpfloat (y, >=, 0);
              g_assert_cmpfloat (y, <=, gtk_widget_get_height (canvas));
            }
          tp_picture_view_zoom_fit (picture);
          fitted = tp_picture_view_get_label_height (picture);
          g_assert_cmpfloat (fitted, <=, opened);
          g_test_message ("%s: canvas %dx%d, labels %.1f px as opened, %.1f px fitted", samples[i],
                          gtk_widget_get_width (canvas), gtk_widget_get_height (canvas), opened, fitted);
          /* the next sample opens readable again */
        }
      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* The derivative's note (why there is none) wraps at the pane's width
 * rather than running off it; the lines of a reading do not. */
static void
test_window_note_wraps (void)
{
  if (g_test_subprocess ())
    {
      TpWindow *window = tp_test_window_new ();
      GtkTextView *view = tp_text_pane_get_view (TP_TEXT_PANE (tp_window_get_pane (window, TP_PANE_DERIVATIVE)));
      GtkTextView *spec = tp_text_pane_get_view (TP_TEXT_PANE (tp_window_get_pane (window, TP_PANE_SPEC)));
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
      GtkTextIter start, display_end, line_end;
      GtkTextTag *note;
      GtkWrapMode wrap;

      gtk_window_set_default_size (GTK_WINDOW (window), 1280, 820);
      tp_window_open_sample (window, "not-yet-a-scalar");
      gtk_window_present (GTK_WINDOW (window));
      tp_window_recompute_now (window);
      g_assert_true (tp_test_wait_until (window_ready, window, 30));
      g_assert_cmpint (gtk_text_view_get_wrap_mode (spec), ==, GTK_WRAP_NONE);
      gtk_text_buffer_get_start_iter (buffer, &start);
      note = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), "note");
      g_assert_nonnull (note);
      g_assert_true (gtk_text_iter_has_tag (&start, note));
      g_object_get (note, "wrap-mode", &wrap, NULL);
      g_assert_cmpint (wrap, ==, GTK_WRAP_WORD_CHAR);
      /* laid out on more than one line of the screen */
      display_end = line_end = start;
      gtk_text_iter_forward_to_line_end (&line_end);
      g_assert_true (gtk_text_view_forward_display_line_end (view, &display_end));
      g_assert_cmpint (gtk_text_iter_get_offset (&display_end), <, gtk_text_iter_get_offset (&line_end));
      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* g_ptr_array_sort hands the compare function pointers to the elements. */
static int
compare_labels (gconstpointer a,
                gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

static char *
recent_labels (TpWindow *window)
{
  GMenuModel *section = tp_window_get_recent_section (window);
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);

  for (int i = 0; i < g_menu_model_get_n_items (section); i++)
    {
      char *label = NULL;

      g_menu_model_get_item_attribute (section, i, G_MENU_ATTRIBUTE_LABEL, "s", &label);
      g_ptr_array_add (labels, label);
    }
  g_ptr_array_sort (labels, compare_labels);
  g_ptr_array_add (labels, NULL);
  return g_strjoinv ("|", (char **) labels->pdata);
}

typedef struct
{
  TpWindow *window;
  const char *labels;
} RecentWait;

static gboolean
recent_shows (gpointer data)
{
  RecentWait *w = data;
  g_autofree char *labels = recent_labels (w->window);

  return g_strcmp0 (labels, w->labels) == 0;
}

/* Recent programs of the same name read apart by their folders, and the
 * list can be cleared. */
static void
test_window_recent (void)
{
  if (g_test_subprocess ())
    {
      g_autofree char *dir = g_dir_make_tmp ("topos-recent-XXXXXX", NULL);
      g_autofree char *a = g_build_filename (dir, "a", NULL);
      g_autofree char *b = g_build_filename (dir, "b", NULL);
      g_autofree char *pa = g_build_filename (a, "prog.tape", NULL);
      g_autofree char *pb = g_build_filename (b, "prog.tape", NULL);
      g_autofree char *ua = g_filename_to_uri (pa, NULL, NULL);
      g_autofree char *ub = g_filename_to_uri (pb, NULL, NULL);
      g_autofree char *expected = g_strdup_printf ("prog.tape — %s|prog.tape — %s", a, b);
      GtkRecentManager *manager = gtk_recent_manager_get_default ();
      TpWindow *window;
      RecentWait wait;

      g_assert_cmpint (g_mkdir (a, 0700), ==, 0);
      g_assert_cmpint (g_mkdir (b, 0700), ==, 0);
      g_assert_true (g_file_set_contents (pa, "a = parameter 1.0\n", -1, NULL));
      g_assert_true (g_file_set_contents (pb, "b = parameter 1.0\n", -1, NULL));
      window = window_new_on_readme ();
      gtk_window_present (GTK_WINDOW (window));
      wait.window = window;
      wait.labels = "No recent programs";
      g_assert_true (recent_shows (&wait));

      g_assert_true (gtk_recent_manager_add_item (manager, ua));
      g_assert_true (gtk_recent_manager_add_item (manager, ub));
      wait.labels = expected;
      if (!tp_test_wait_until (recent_shows, &wait, 20))
        {
          g_autofree char *shown = recent_labels (window);
          g_printerr ("recent shows: %s\n", shown);
        }
      g_assert_true (recent_shows (&wait));

      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.clear-recent", NULL));
      wait.labels = "No recent programs";
      g_assert_true (tp_test_wait_until (recent_shows, &wait, 20));

      gtk_window_destroy (GTK_WINDOW (window));
      g_unlink (pa);
      g_unlink (pb);
      g_rmdir (a);
      g_rmdir (b);
      g_rmdir (dir);
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static void
cursor_to_line (TpDocument *document,
                int         line)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (tp_document_get_buffer (document));
  GtkTextIter iter;

  gtk_text_buffer_get_iter_at_line (buffer, &iter, line - 1);
  gtk_text_buffer_place_cursor (buffer, &iter);
}

/* While the text is refused, the cursor's line does not pick a node of
 * the last good program by number (the lines have moved); once the text
 * reads again, the statement under the cursor is selected without the
 * cursor having to move. */
static void
test_window_stale_lines (void)
{
  if (g_test_subprocess ())
    {
      GtkWidget *view = NULL;
      TpWindow *window = window_focused_in_editor (&view);
      TpDocument *document = tp_window_get_document (window);
      GtkTextBuffer *buffer = GTK_TEXT_BUFFER (tp_document_get_buffer (document));
      GtkTextIter iter;
      int w_node;

      cursor_to_line (document, 2);           /* w = parameter 0.0 */
      w_node = tp_document_get_selected_node (document);
      g_assert_cmpint (w_node, >=, 0);
      g_assert_cmpint (tp_document_node_for_line (document, 3), !=, w_node);

      /* a half-typed line above: refused, and every line moves down */
      gtk_text_buffer_get_start_iter (buffer, &iter);
      gtk_text_buffer_insert_interactive (buffer, &iter, "q = \n", -1, TRUE);
      tp_window_recompute_now (window);
      g_assert_true (tp_document_get_stale (document));
      cursor_to_line (document, 4);           /* x = input 2.0, was line 3 */
      cursor_to_line (document, 3);           /* w, was line 2 */
      g_assert_cmpint (tp_document_get_selected_node (document), ==, -1);
      g_assert_cmpint (tp_document_node_for_line (document, 3), ==, -1);

      /* finished: it reads, and the cursor's statement is selected */
      gtk_text_buffer_get_iter_at_line_offset (buffer, &iter, 0, 4);
      gtk_text_buffer_insert_interactive (buffer, &iter, "input 1.0", -1, TRUE);
      cursor_to_line (document, 3);
      g_assert_cmpint (tp_document_get_selected_node (document), ==, -1);
      tp_window_recompute_now (window);
      g_assert_false (tp_document_get_stale (document));
      g_assert_cmpint (tp_document_node_for_line (document, 3), >=, 0);
      g_assert_cmpint (tp_document_get_selected_node (document), ==, tp_document_node_for_line (document, 3));

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

  g_test_add_func ("/ui/window/picture-readable", test_window_picture_readable);
  g_test_add_func ("/ui/window/note-wraps", test_window_note_wraps);
  g_test_add_func ("/ui/window/accessible-names", test_window_accessible_names);
  g_test_add_func ("/ui/window/tab-order", test_window_tab_order);
  g_test_add_func ("/ui/window/dark-contrast", test_window_dark_contrast);
  g_test_add_func ("/ui/window/undo-keeps-sample", test_window_undo_keeps_sample);
  g_test_add_func ("/ui/window/export", test_window_export);
  g_test_add_func ("/ui/window/remembers-size", test_window_remembers_size);
  g_test_add_func ("/ui/window/close-shortcut-from-editor", test_window_close_shortcut_from_editor);
  g_test_add_func ("/ui/window/picture-keyboard", test_window_picture_keyboard);
  g_test_add_func ("/ui/window/recent", test_window_recent);
  g_test_add_func ("/ui/window/stale-lines", test_window_stale_lines);
  for (guint i = 0; i < G_N_ELEMENTS (dialog_shortcuts); i++)
    {
      g_autofree char *path = g_strdup_printf ("/ui/window/dialog-shortcut-from-editor/%u", i);

      g_test_add_data_func (path, GUINT_TO_POINTER (i), test_window_dialog_shortcut_from_editor);
    }

  status = g_test_run ();
  /* no raster thread may draw while the process exits */
  tp_picture_raster_wait_idle ();
  return status;
}
