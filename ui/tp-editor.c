/* tp-editor.c: edits a TpDocument's buffer.
 *
 * Shows the engine's diagnostic under the text as `line:column: message`
 * and underlines the refused spot (from the column to the end of the
 * token there).  Moving the cursor onto a statement selects its node for
 * the cross-reading highlight; the selected node's statements are
 * highlighted in turn, and the characters of the expression that
 * recorded it (the engine's source span), which is all an unnamed node
 * such as `x @ w` has.  Hovering a function name or a source keyword
 * shows its rule, as the language reference words it. */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>

#include "tp-document.h"
#include "tp-editor.h"
#include "tp-language-reference.h"
#include "tp-text-util.h"
#include "tp-style.h"

struct _TpEditor
{
  GtkWidget parent_instance;

  /* Template widgets */
  GtkWidget *box;
  GtkScrolledWindow *scroller;
  GtkSourceView *view;
  GtkRevealer *diagnostic_revealer;
  GtkButton *diagnostic_button;
  GtkLabel *diagnostic_label;

  /* Owned references */
  TpDocument *document;

  guint dark : 1;
};

G_DEFINE_FINAL_TYPE (TpEditor, tp_editor, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_DOCUMENT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The editor's own marks on the buffer; their colours follow the style
 * (tp_editor_apply_style). */
static GtkTextTag *
tp_editor_ensure_tag (GtkTextBuffer *buffer,
                      const char    *name)
{
  GtkTextTagTable *table = gtk_text_buffer_get_tag_table (buffer);
  GtkTextTag *tag = gtk_text_tag_table_lookup (table, name);

  if (tag != NULL)
    return tag;
  if (g_str_equal (name, "tp-error"))
    tag = gtk_text_buffer_create_tag (buffer, name, "underline", PANGO_UNDERLINE_ERROR, NULL);
  else
    tag = gtk_text_buffer_create_tag (buffer, name, NULL);
  return tag;
}

/* The source scheme and the marks' colours for the light or dark style
 * the editor is drawn with. */
static void
tp_editor_apply_style (TpEditor *self)
{
  GtkTextBuffer *buffer;
  const TpPalette *palette;
  GdkRGBA red;

  self->dark = !!tp_style_is_dark (GTK_WIDGET (self));
  if (self->document == NULL)
    return;
  palette = tp_style_get_palette (self->dark);
  buffer = GTK_TEXT_BUFFER (tp_document_get_buffer (self->document));
  gdk_rgba_parse (&red, palette->error);
  g_object_set (tp_editor_ensure_tag (buffer, "tp-error"), "underline-rgba", &red, NULL);
  g_object_set (tp_editor_ensure_tag (buffer, "tp-selected"), "paragraph-background", palette->selected, NULL);
  g_object_set (tp_editor_ensure_tag (buffer, "tp-selected-span"), "background", palette->selected_ref, NULL);
  tp_style_apply_scheme (GTK_SOURCE_BUFFER (buffer), self->dark);
}

static void
tp_editor_css_changed (GtkWidget         *widget,
                       GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (tp_editor_parent_class)->css_changed (widget, change);
  tp_editor_apply_style (TP_EDITOR (widget));
}

/* Puts @iter at 1-based @line and @column (in characters), clamped. */
static void
iter_at_position (GtkTextBuffer *buffer,
                  GtkTextIter   *iter,
                  guint          line,
                  guint          column)
{
  int n_lines = gtk_text_buffer_get_line_count (buffer);
  int l = CLAMP ((int) line - 1, 0, n_lines - 1);

  gtk_text_buffer_get_iter_at_line (buffer, iter, l);
  for (guint c = 1; c < column && !gtk_text_iter_ends_line (iter); c++)
    gtk_text_iter_forward_char (iter);
}

static void
tp_editor_update_diagnostic (TpEditor *self)
{
  GtkTextBuffer *buffer;
  GtkTextTag *tag;
  GtkTextIter start, end;
  const char *diagnostic;
  guint line = 0, column = 0;

  if (self->document == NULL)
    return;
  buffer = GTK_TEXT_BUFFER (tp_document_get_buffer (self->document));
  tag = tp_editor_ensure_tag (buffer, "tp-error");
  tp_text_buffer_remove_tag_present (buffer, tag);

  diagnostic = tp_document_get_diagnostic (self->document);
  gtk_revealer_set_reveal_child (self->diagnostic_revealer, diagnostic != NULL);
  gtk_label_set_label (self->diagnostic_label, diagnostic != NULL ? diagnostic : "");
  if (diagnostic == NULL)
    return;

  tp_document_get_diagnostic_position (self->document, &line, &column);
  iter_at_position (buffer, &start, line, column);
  end = start;
  if (gtk_text_iter_ends_line (&start))
    {
      /* Refused at the end of the line: mark the last character. */
      if (!gtk_text_iter_starts_line (&start))
        gtk_text_iter_backward_char (&start);
      else
        gtk_text_iter_forward_char (&end);
    }
  else if (g_unichar_isalnum (gtk_text_iter_get_char (&start)) || gtk_text_iter_get_char (&start) == '_'
           || gtk_text_iter_get_char (&start) == '.')
    {
      while (!gtk_text_iter_ends_line (&end)
             && (g_unichar_isalnum (gtk_text_iter_get_char (&end))
                 || gtk_text_iter_get_char (&end) == '_' || gtk_text_iter_get_char (&end) == '.'))
        gtk_text_iter_forward_char (&end);
    }
  else if (gtk_text_iter_get_char (&start) == '[')
    {
      while (!gtk_text_iter_ends_line (&end) && gtk_text_iter_get_char (&end) != ']')
        gtk_text_iter_forward_char (&end);
      if (!gtk_text_iter_ends_line (&end))
        gtk_text_iter_forward_char (&end);
    }
  else
    gtk_text_iter_forward_char (&end);
  gtk_text_buffer_apply_tag (buffer, tag, &start, &end);
}

static void
tp_editor_show_selected (TpEditor *self)
{
  GtkTextBuffer *buffer;
  GtkTextTag *tag;
  GtkTextIter start, end;
  g_autoptr(GArray) lines = NULL;
  TpSourceSpan span;
  int node;

  if (self->document == NULL)
    return;
  buffer = GTK_TEXT_BUFFER (tp_document_get_buffer (self->document));
  tag = tp_editor_ensure_tag (buffer, "tp-selected");
  tp_text_buffer_remove_tag_present (buffer, tag);
  tp_text_buffer_remove_tag_present (buffer, tp_editor_ensure_tag (buffer, "tp-selected-span"));

  node = tp_document_get_selected_node (self->document);
  if (tp_document_source_for_node (self->document, node, &span))
    {
      iter_at_position (buffer, &start, span.line, span.first);
      iter_at_position (buffer, &end, span.line, span.last + 1);
      gtk_text_buffer_apply_tag (buffer, tp_editor_ensure_tag (buffer, "tp-selected-span"), &start, &end);
      if (!gtk_widget_has_focus (GTK_WIDGET (self->view)))
        gtk_text_view_scroll_to_iter (GTK_TEXT_VIEW (self->view), &start, 0.05, FALSE, 0, 0);
    }
  lines = tp_document_lines_for_node (self->document, node);
  for (guint i = 0; i < lines->len; i++)
    {
      guint line = g_array_index (lines, guint, i);

      gtk_text_buffer_get_iter_at_line (buffer, &start, (int) line - 1);
      end = start;
      gtk_text_iter_forward_line (&end);
      gtk_text_buffer_apply_tag (buffer, tag, &start, &end);
    }
  if (lines->len > 0 && !gtk_widget_has_focus (GTK_WIDGET (self->view)))
    {
      gtk_text_buffer_get_iter_at_line (buffer, &start, (int) g_array_index (lines, guint, 0) - 1);
      gtk_text_view_scroll_to_iter (GTK_TEXT_VIEW (self->view), &start, 0.05, FALSE, 0, 0);
    }
}

static void
tp_editor_cursor_moved_cb (TpEditor *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter iter;

  if (self->document == NULL || !gtk_widget_has_focus (GTK_WIDGET (self->view)))
    return;
  buffer = GTK_TEXT_BUFFER (tp_document_get_buffer (self->document));
  gtk_text_buffer_get_iter_at_mark (buffer, &iter, gtk_text_buffer_get_insert (buffer));
  tp_document_set_selected_node (self->document,
                                 tp_document_node_for_line (self->document,
                                                            (guint) gtk_text_iter_get_line (&iter) + 1));
}

static void
tp_editor_diagnostic_clicked_cb (TpEditor *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter iter;
  guint line = 0, column = 0;

  if (self->document == NULL || !tp_document_get_diagnostic_position (self->document, &line, &column))
    return;
  buffer = GTK_TEXT_BUFFER (tp_document_get_buffer (self->document));
  iter_at_position (buffer, &iter, line, column);
  gtk_text_buffer_place_cursor (buffer, &iter);
  gtk_text_view_scroll_to_iter (GTK_TEXT_VIEW (self->view), &iter, 0.1, FALSE, 0, 0);
  gtk_widget_grab_focus (GTK_WIDGET (self->view));
}

GtkWidget *
tp_editor_new (void)
{
  return g_object_new (TP_TYPE_EDITOR, NULL);
}

void
tp_editor_set_document (TpEditor   *self,
                        TpDocument *document)
{
  g_return_if_fail (TP_IS_EDITOR (self));
  g_return_if_fail (!document || TP_IS_DOCUMENT (document));

  if (self->document == document)
    return;
  if (self->document != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->document, self);
      g_signal_handlers_disconnect_by_data (tp_document_get_buffer (self->document), self);
      g_signal_handlers_disconnect_by_data (tp_document_get_buffer (self->document), self->view);
    }
  g_set_object (&self->document, document);
  if (document != NULL)
    {
      GtkSourceBuffer *buffer = tp_document_get_buffer (document);

      gtk_text_view_set_buffer (GTK_TEXT_VIEW (self->view), GTK_TEXT_BUFFER (buffer));
      tp_text_view_allocate_on_change (GTK_TEXT_VIEW (self->view), GTK_TEXT_BUFFER (buffer), FALSE);
      g_signal_connect_object (document, "notify::diagnostic",
                               G_CALLBACK (tp_editor_update_diagnostic), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (document, "notify::readings",
                               G_CALLBACK (tp_editor_update_diagnostic), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (document, "notify::selected-node",
                               G_CALLBACK (tp_editor_show_selected), self, G_CONNECT_SWAPPED);
      /* new readings: the statement under the cursor may name a node now */
      g_signal_connect_object (document, "notify::readings",
                               G_CALLBACK (tp_editor_cursor_moved_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (buffer, "notify::cursor-position",
                               G_CALLBACK (tp_editor_cursor_moved_cb), self, G_CONNECT_SWAPPED);
      tp_editor_apply_style (self);
      tp_editor_update_diagnostic (self);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
}

TpDocument *
tp_editor_get_document (TpEditor *self)
{
  g_return_val_if_fail (TP_IS_EDITOR (self), NULL);

  return self->document;
}

GtkTextView *
tp_editor_get_view (TpEditor *self)
{
  g_return_val_if_fail (TP_IS_EDITOR (self), NULL);

  return GTK_TEXT_VIEW (self->view);
}

/* The diagnostic as shown ("" when the program reads). */
const char *
tp_editor_get_diagnostic_text (TpEditor *self)
{
  g_return_val_if_fail (TP_IS_EDITOR (self), NULL);

  return gtk_revealer_get_reveal_child (self->diagnostic_revealer)
           ? gtk_label_get_label (self->diagnostic_label) : "";
}

/* The source style scheme the program is shown with (for tests). */
const char *
tp_editor_get_scheme_id (TpEditor *self)
{
  GtkSourceStyleScheme *scheme;

  g_return_val_if_fail (TP_IS_EDITOR (self), NULL);

  if (self->document == NULL)
    return NULL;
  scheme = gtk_source_buffer_get_style_scheme (tp_document_get_buffer (self->document));
  return scheme != NULL ? gtk_source_style_scheme_get_id (scheme) : NULL;
}

/* TRUE when some text carries the error underline (for tests). */
gboolean
tp_editor_has_error_underline (TpEditor *self)
{
  GtkTextBuffer *buffer;
  GtkTextTag *tag;
  GtkTextIter iter;

  g_return_val_if_fail (TP_IS_EDITOR (self), FALSE);

  if (self->document == NULL)
    return FALSE;
  buffer = GTK_TEXT_BUFFER (tp_document_get_buffer (self->document));
  tag = tp_editor_ensure_tag (buffer, "tp-error");
  gtk_text_buffer_get_start_iter (buffer, &iter);
  return gtk_text_iter_has_tag (&iter, tag) || gtk_text_iter_forward_to_tag_toggle (&iter, tag);
}

static void
tp_editor_dispose (GObject *object)
{
  TpEditor *self = (TpEditor *) object;

  tp_editor_set_document (self, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), TP_TYPE_EDITOR);

  G_OBJECT_CLASS (tp_editor_parent_class)->dispose (object);
}

static void
tp_editor_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  TpEditor *self = TP_EDITOR (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tp_editor_set_property (GObject      *object,
                        guint         prop_id,
                        const GValue *value,
                        GParamSpec   *pspec)
{
  TpEditor *self = TP_EDITOR (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      tp_editor_set_document (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tp_editor_class_init (TpEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tp_editor_dispose;
  object_class->get_property = tp_editor_get_property;
  object_class->set_property = tp_editor_set_property;
  widget_class->css_changed = tp_editor_css_changed;

  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, TP_TYPE_DOCUMENT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (GTK_SOURCE_TYPE_VIEW);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "editor");
  gtk_widget_class_set_template_from_resource (widget_class, TP_RESOURCE_PREFIX "/ui/tp-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, TpEditor, box);
  gtk_widget_class_bind_template_child (widget_class, TpEditor, scroller);
  gtk_widget_class_bind_template_child (widget_class, TpEditor, view);
  gtk_widget_class_bind_template_child (widget_class, TpEditor, diagnostic_revealer);
  gtk_widget_class_bind_template_child (widget_class, TpEditor, diagnostic_button);
  gtk_widget_class_bind_template_child (widget_class, TpEditor, diagnostic_label);
  gtk_widget_class_bind_template_callback (widget_class, tp_editor_diagnostic_clicked_cb);
}

static gboolean
tp_editor_is_word_char (gunichar c)
{
  return c < 128 && (g_ascii_isalnum ((char) c) || c == '_');
}

/* Hover help for the word at @iter: the rule of a function name followed
 * by `(`, or of a source keyword followed by a shape or a number (as the
 * parser tells a keyword from a name), outside comments; else NULL. */
char *
tp_editor_dup_help_at (TpEditor          *self,
                       const GtkTextIter *iter)
{
  GtkTextIter start = *iter, end = *iter, next, line;
  g_autofree char *word = NULL;
  g_autofree char *before = NULL;
  const TpLanguageEntry *entry;
  gunichar c;

  g_return_val_if_fail (TP_IS_EDITOR (self), NULL);

  while (!gtk_text_iter_starts_line (&start))
    {
      GtkTextIter prev = start;

      gtk_text_iter_backward_char (&prev);
      if (!tp_editor_is_word_char (gtk_text_iter_get_char (&prev)))
        break;
      start = prev;
    }
  while (tp_editor_is_word_char (gtk_text_iter_get_char (&end)))
    gtk_text_iter_forward_char (&end);
  word = gtk_text_iter_get_slice (&start, &end);
  entry = tp_language_lookup (word);
  if (entry == NULL || g_ascii_isdigit (word[0]))
    return NULL;
  line = start;
  gtk_text_iter_set_line_offset (&line, 0);
  before = gtk_text_iter_get_slice (&line, &start);
  if (strchr (before, '#') != NULL)
    return NULL;                /* in a comment */
  next = end;
  while ((c = gtk_text_iter_get_char (&next)) == ' ' || c == '\t')
    gtk_text_iter_forward_char (&next);
  if (entry->kind == TP_LANGUAGE_FUNCTION ? c != '('
                                          : c != '[' && c != '.' && !(c < 128 && g_ascii_isdigit ((char) c)))
    return NULL;
  return tp_language_dup_summary (entry);
}

static gboolean
tp_editor_query_tooltip_cb (TpEditor   *self,
                            int         x,
                            int         y,
                            gboolean    keyboard,
                            GtkTooltip *tooltip,
                            GtkWidget  *widget)
{
  GtkTextView *view = GTK_TEXT_VIEW (widget);
  GtkTextIter iter;
  GdkRectangle area;
  g_autofree char *help = NULL;
  int bx, by;

  if (keyboard)
    {
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);

      gtk_text_buffer_get_iter_at_mark (buffer, &iter, gtk_text_buffer_get_insert (buffer));
    }
  else
    {
      gtk_text_view_window_to_buffer_coords (view, GTK_TEXT_WINDOW_WIDGET, x, y, &bx, &by);
      if (!gtk_text_view_get_iter_at_location (view, &iter, bx, by))
        return FALSE;
    }
  /* on the refused characters, the engine's whole diagnostic (its hint
   * of what to write included: it can be long, the tooltip wraps it) */
  if (self->document != NULL && tp_document_get_diagnostic (self->document) != NULL
      && gtk_text_iter_has_tag (&iter, tp_editor_ensure_tag (gtk_text_view_get_buffer (view), "tp-error")))
    help = g_strdup (tp_document_get_diagnostic (self->document));
  else
    help = tp_editor_dup_help_at (self, &iter);
  if (help == NULL)
    return FALSE;
  gtk_text_view_get_iter_location (view, &iter, &area);
  gtk_text_view_buffer_to_window_coords (view, GTK_TEXT_WINDOW_WIDGET, area.x, area.y, &area.x, &area.y);
  gtk_tooltip_set_tip_area (tooltip, &area);
  gtk_tooltip_set_text (tooltip, help);
  return TRUE;
}

/* Tab indents, as in any editor; Shift+Tab leaves the editor for the
 * control before it, so the keyboard can always get out. */
static gboolean
tp_editor_key_cb (TpEditor              *self,
                  guint                  keyval,
                  guint                  keycode,
                  GdkModifierType        state,
                  GtkEventControllerKey *controller)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  if ((keyval != GDK_KEY_ISO_Left_Tab && keyval != GDK_KEY_Tab)
      || (state & (GDK_CONTROL_MASK | GDK_ALT_MASK | GDK_SHIFT_MASK)) != GDK_SHIFT_MASK || root == NULL)
    return FALSE;
  gtk_widget_child_focus (GTK_WIDGET (root), GTK_DIR_TAB_BACKWARD);
  return TRUE;
}

static void
tp_editor_init (TpEditor *self)
{
  GtkEventController *keys = gtk_event_controller_key_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect_object (keys, "key-pressed", G_CALLBACK (tp_editor_key_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->view), keys);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self->view), TRUE);
  g_signal_connect_object (self->view, "query-tooltip", G_CALLBACK (tp_editor_query_tooltip_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->view),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Program"),
                                  -1);
}
