/* tp-text-pane.c: shows one text reading of a TpDocument.
 *
 * The pane copies the engine's text verbatim and only decorates it:
 * derived lines, the differentiate divider, `kept` plan lines, the
 * summary lines, StableHLO's token colours, and the node selected
 * anywhere in the window.  Every one of these comes from the engine's
 * reading map (each line's node and role, each token's span, class and
 * node), which the readings carry: nothing is read back from the text.
 * This file is the widget, its style and its signals; the decoration is
 * tp-text-decor.c, the update in slices tp-text-update.c. */
#include "config.h"

#include <string.h>

#include "tp-style.h"
#include "tp-text-pane-private.h"
#include "tp-text-util.h"

G_DEFINE_FINAL_TYPE (TpTextPane, tp_text_pane, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_PANE,
  PROP_DOCUMENT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const struct
{
  const char *id;
  const char *title;
  const char *empty;
} panes[TP_N_PANES] = {
  { "spec", N_("Spec"), N_("The recorded tape appears here.") },
  { "derivative", N_("Derivative"), N_("The gradient appears here.") },
  { "plan", N_("Plan"), N_("The plan appears here.") },
  { "stablehlo", N_("StableHLO"), N_("No StableHLO was written for this program.") },
  { "values", N_("Values"), N_("The values appear here.") },
  { "picture", N_("Picture"), N_("The picture appears here.") },
};

const char *
tp_pane_get_title (TpPane pane)
{
  return (guint) pane < TP_N_PANES ? panes[pane].title : NULL;
}

const char *
tp_pane_get_id (TpPane pane)
{
  return (guint) pane < TP_N_PANES ? panes[pane].id : NULL;
}

gboolean
tp_pane_from_id (const char *id,
                 TpPane     *pane)
{
  for (guint p = 0; p < TP_N_PANES; p++)
    if (g_strcmp0 (id, panes[p].id) == 0)
      {
        *pane = (TpPane) p;
        return TRUE;
      }
  return FALSE;
}

static void
tp_text_pane_update_stale (TpTextPane *self)
{
  gboolean stale = self->document != NULL && tp_document_get_stale (self->document);

  gtk_widget_set_visible (GTK_WIDGET (self->stale_label), stale);
  if (stale)
    gtk_widget_add_css_class (GTK_WIDGET (self), "stale");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "stale");
}

/* The highlights and the source scheme follow the light or dark style
 * the pane is drawn with. */
static void
tp_text_pane_apply_style (TpTextPane *self)
{
  GtkTextTagTable *table = gtk_text_buffer_get_tag_table (GTK_TEXT_BUFFER (self->buffer));
  gboolean dark = tp_style_is_dark (GTK_WIDGET (self));
  const TpPalette *palette = tp_style_get_palette (dark);
  GtkSourceStyleScheme *scheme;

  if (self->styled && self->dark == dark)
    return;
  self->styled = TRUE;
  self->dark = !!dark;
  g_object_set (gtk_text_tag_table_lookup (table, "derived"), "foreground", palette->derived, NULL);
  g_object_set (gtk_text_tag_table_lookup (table, "divider"), "foreground", palette->derived, NULL);
  g_object_set (gtk_text_tag_table_lookup (table, "summary"), "foreground", palette->summary, NULL);
  g_object_set (gtk_text_tag_table_lookup (table, "kept"), "paragraph-background", palette->kept, NULL);
  g_object_set (gtk_text_tag_table_lookup (table, "selected"), "paragraph-background", palette->selected, NULL);
  g_object_set (gtk_text_tag_table_lookup (table, "selected-ref"), "background", palette->selected_ref, NULL);
  tp_style_apply_scheme (self->buffer, dark);
  scheme = gtk_source_buffer_get_style_scheme (self->buffer);
  _tp_text_pane_style_tokens (self, scheme);
}

static void
tp_text_pane_css_changed (GtkWidget         *widget,
                          GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (tp_text_pane_parent_class)->css_changed (widget, change);
  tp_text_pane_apply_style (TP_TEXT_PANE (widget));
}

/* TRUE when the pane draws with the dark palette (for tests). */
gboolean
tp_text_pane_get_dark (TpTextPane *self)
{
  g_return_val_if_fail (TP_IS_TEXT_PANE (self), FALSE);

  return self->dark;
}

/* {==== signals ====} */

static void
tp_text_pane_copy_clicked_cb (TpTextPane *self)
{
  g_autofree char *text = tp_text_pane_dup_reading (self);

  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text);
}

/* "show all": buffer line @line, when folded, is shown whole (up to
 * TP_FOLD_SHOW_ALL bytes; a longer one stays folded around that much of
 * its start).  Returns TRUE when the line was unfolded. */
gboolean
tp_text_pane_show_all (TpTextPane *self,
                       guint       line)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);
  const TpFold *fold;
  TpFold whole = { 0 };
  g_autofree char *text = NULL;
  const char *full;
  GtkTextIter a, b;

  g_return_val_if_fail (TP_IS_TEXT_PANE (self), FALSE);

  tp_text_pane_flush (self);
  fold = self->shown != NULL ? _tp_text_pane_fold (self, self->shown, line) : NULL;
  if (fold == NULL || fold->control == 0)
    return FALSE;
  full = tp_readings_get_text (self->shown, (TpReading) self->pane) + fold->offset;
  if (fold->length <= TP_FOLD_SHOW_ALL)
    text = tp_fold_line (full, fold->length, fold->length, 0, fold->count, fold->elements, FALSE, &whole);
  else
    text = tp_fold_line (full, fold->length, TP_FOLD_SHOW_ALL, TP_FOLD_TAIL, fold->count, fold->elements, FALSE, &whole);
  whole.line = fold->line;
  whole.offset = fold->offset;

  self->updating = TRUE;
  gtk_text_buffer_get_iter_at_line (buffer, &a, (int) line);
  b = a;
  if (!gtk_text_iter_ends_line (&b))
    gtk_text_iter_forward_to_line_end (&b);
  gtk_text_buffer_delete (buffer, &a, &b);
  gtk_text_buffer_insert (buffer, &a, text, -1);
  self->updating = FALSE;
  g_array_append_val (self->expanded, whole);
  self->dirty = TRUE;
  if (line < self->n_flags)
    _tp_text_decorate_lines (buffer, self->flags, (int) line, (int) line + 1);
  _tp_text_pane_show_selected (self);
  return TRUE;
}

/* A click on a "show all" control unfolds its line. */
static void
tp_text_pane_released_cb (GtkGestureClick *gesture,
                          int              n_press,
                          double           x,
                          double           y,
                          TpTextPane      *self)
{
  GtkTextView *view = GTK_TEXT_VIEW (self->view);
  GtkTextIter iter;
  int bx, by;

  gtk_text_view_window_to_buffer_coords (view, GTK_TEXT_WINDOW_WIDGET, (int) x, (int) y, &bx, &by);
  if (gtk_text_view_get_iter_at_location (view, &iter, bx, by)
      && gtk_text_iter_has_tag (&iter, self->show_all_tag))
    tp_text_pane_show_all (self, (guint) gtk_text_iter_get_line (&iter));
}

/* pane.show-all (the view's context menu): unfolds the cursor's line. */
static void
tp_text_pane_show_all_action (GtkWidget  *widget,
                              const char *action_name,
                              GVariant   *param)
{
  TpTextPane *self = TP_TEXT_PANE (widget);
  GtkTextIter iter;

  gtk_text_buffer_get_iter_at_mark (GTK_TEXT_BUFFER (self->buffer), &iter,
                                    gtk_text_buffer_get_insert (GTK_TEXT_BUFFER (self->buffer)));
  tp_text_pane_show_all (self, (guint) gtk_text_iter_get_line (&iter));
}

static void
tp_text_pane_cursor_moved_cb (TpTextPane *self)
{
  if (self->updating || self->document == NULL)
    return;
  if (!gtk_widget_has_focus (GTK_WIDGET (self->view)))
    return;                     /* only the reader's own moves select */
  tp_document_set_selected_node (self->document, _tp_text_pane_node_at_cursor (self));
}

/* A pane that is not on screen (the focus layout shows one) takes new
 * readings when it is shown: no work for text nobody sees. */
static void
tp_text_pane_readings_cb (TpTextPane *self)
{
  self->deferred = !gtk_widget_get_mapped (GTK_WIDGET (self));
  if (!self->deferred)
    _tp_text_pane_update_text (self);
}

static void
tp_text_pane_map (GtkWidget *widget)
{
  TpTextPane *self = TP_TEXT_PANE (widget);

  GTK_WIDGET_CLASS (tp_text_pane_parent_class)->map (widget);
  if (self->deferred)
    {
      self->deferred = FALSE;
      _tp_text_pane_update_text (self);
    }
}

/* {==== GObject ====} */

GtkWidget *
tp_text_pane_new (TpPane pane)
{
  return g_object_new (TP_TYPE_TEXT_PANE, "pane", pane, NULL);
}

static void
tp_text_pane_set_pane (TpTextPane *self,
                       TpPane      pane)
{
  self->pane = pane;
  _tp_text_pane_init_names (self);
  gtk_label_set_label (self->title_label, gettext (tp_pane_get_title (pane)));
  gtk_label_set_label (self->placeholder, gettext (panes[pane].empty));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->focus_button), "win.show-pane");
  gtk_actionable_set_action_target (GTK_ACTIONABLE (self->focus_button), "s", tp_pane_get_id (pane));
  gtk_widget_add_css_class (GTK_WIDGET (self), tp_pane_get_id (pane));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->view),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, gettext (tp_pane_get_title (pane)),
                                  -1);
  {
    g_autofree char *copy = g_strdup_printf (/* Translators: %s is a pane's title */ _("Copy the %s reading"), gettext (tp_pane_get_title (pane)));
    g_autofree char *alone = g_strdup_printf (/* Translators: %s is a pane's title */ _("Show the %s reading alone"), gettext (tp_pane_get_title (pane)));

    gtk_accessible_update_property (GTK_ACCESSIBLE (self->copy_button), GTK_ACCESSIBLE_PROPERTY_LABEL, copy, -1);
    gtk_accessible_update_property (GTK_ACCESSIBLE (self->focus_button), GTK_ACCESSIBLE_PROPERTY_LABEL, alone, -1);
  }
}

void
tp_text_pane_set_document (TpTextPane *self,
                           TpDocument *document)
{
  g_return_if_fail (TP_IS_TEXT_PANE (self));
  g_return_if_fail (!document || TP_IS_DOCUMENT (document));

  if (self->document == document)
    return;
  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_set_object (&self->document, document);
  if (document != NULL)
    {
      g_signal_connect_object (document, "notify::readings",
                               G_CALLBACK (tp_text_pane_readings_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (document, "notify::stale",
                               G_CALLBACK (tp_text_pane_update_stale), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (document, "notify::selected-node",
                               G_CALLBACK (_tp_text_pane_show_selected), self, G_CONNECT_SWAPPED);
    }
  _tp_text_pane_update_text (self);
  tp_text_pane_update_stale (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
}

TpDocument *
tp_text_pane_get_document (TpTextPane *self)
{
  g_return_val_if_fail (TP_IS_TEXT_PANE (self), NULL);

  return self->document;
}

TpPane
tp_text_pane_get_pane (TpTextPane *self)
{
  g_return_val_if_fail (TP_IS_TEXT_PANE (self), TP_PANE_SPEC);

  return self->pane;
}

/* The pane's reading as the engine wrote it, its folded lines whole (what
 * copying gives). */
char *
tp_text_pane_dup_reading (TpTextPane *self)
{
  g_return_val_if_fail (TP_IS_TEXT_PANE (self), NULL);

  tp_text_pane_flush (self);
  return g_strdup (self->shown != NULL ? tp_readings_get_text (self->shown, (TpReading) self->pane) : "");
}

/* The pane's text as shown (folded lines folded): an update under way
 * is finished first. */
char *
tp_text_pane_dup_text (TpTextPane *self)
{
  GtkTextIter start, end;

  g_return_val_if_fail (TP_IS_TEXT_PANE (self), NULL);

  tp_text_pane_flush (self);
  gtk_text_buffer_get_bounds (GTK_TEXT_BUFFER (self->buffer), &start, &end);
  return gtk_text_buffer_get_text (GTK_TEXT_BUFFER (self->buffer), &start, &end, TRUE);
}

GtkTextView *
tp_text_pane_get_view (TpTextPane *self)
{
  g_return_val_if_fail (TP_IS_TEXT_PANE (self), NULL);

  return GTK_TEXT_VIEW (self->view);
}

/* TRUE when some line carries the selection highlight (for tests). */
gboolean
tp_text_pane_is_selected_visible (TpTextPane *self)
{
  GtkTextTagTable *table = gtk_text_buffer_get_tag_table (GTK_TEXT_BUFFER (self->buffer));
  GtkTextTag *tag = gtk_text_tag_table_lookup (table, "selected");
  GtkTextIter iter;

  gtk_text_buffer_get_start_iter (GTK_TEXT_BUFFER (self->buffer), &iter);
  return gtk_text_iter_has_tag (&iter, tag) || gtk_text_iter_forward_to_tag_toggle (&iter, tag);
}

static void
tp_text_pane_dispose (GObject *object)
{
  TpTextPane *self = (TpTextPane *) object;

  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_clear_object (&self->document);
  _tp_text_pane_cancel_update (self);
  g_clear_handle_id (&self->divider_idle, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), TP_TYPE_TEXT_PANE);

  G_OBJECT_CLASS (tp_text_pane_parent_class)->dispose (object);
}

static void
tp_text_pane_finalize (GObject *object)
{
  TpTextPane *self = (TpTextPane *) object;

  g_clear_object (&self->buffer);
  g_clear_pointer (&self->shown, tp_readings_unref);
  g_clear_pointer (&self->flags, g_free);
  g_clear_pointer (&self->expanded, g_array_unref);

  G_OBJECT_CLASS (tp_text_pane_parent_class)->finalize (object);
}

static void
tp_text_pane_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  TpTextPane *self = TP_TEXT_PANE (object);

  switch (prop_id)
    {
    case PROP_PANE:
      g_value_set_int (value, (int) self->pane);
      break;
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tp_text_pane_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  TpTextPane *self = TP_TEXT_PANE (object);

  switch (prop_id)
    {
    case PROP_PANE:
      tp_text_pane_set_pane (self, (TpPane) g_value_get_int (value));
      break;
    case PROP_DOCUMENT:
      tp_text_pane_set_document (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tp_text_pane_class_init (TpTextPaneClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tp_text_pane_dispose;
  object_class->finalize = tp_text_pane_finalize;
  object_class->get_property = tp_text_pane_get_property;
  object_class->set_property = tp_text_pane_set_property;
  widget_class->css_changed = tp_text_pane_css_changed;
  widget_class->map = tp_text_pane_map;

  properties[PROP_PANE] =
    g_param_spec_int ("pane", NULL, NULL, 0, TP_PANE_VALUES, 0,
                      G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, TP_TYPE_DOCUMENT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (GTK_SOURCE_TYPE_VIEW);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "textpane");
  gtk_widget_class_set_template_from_resource (widget_class, TP_RESOURCE_PREFIX "/ui/tp-text-pane.ui");
  gtk_widget_class_bind_template_child (widget_class, TpTextPane, box);
  gtk_widget_class_bind_template_child (widget_class, TpTextPane, title_label);
  gtk_widget_class_bind_template_child (widget_class, TpTextPane, stale_label);
  gtk_widget_class_bind_template_child (widget_class, TpTextPane, copy_button);
  gtk_widget_class_bind_template_child (widget_class, TpTextPane, focus_button);
  gtk_widget_class_bind_template_child (widget_class, TpTextPane, scroller);
  gtk_widget_class_bind_template_child (widget_class, TpTextPane, view);
  gtk_widget_class_bind_template_child (widget_class, TpTextPane, placeholder);
  gtk_widget_class_bind_template_callback (widget_class, tp_text_pane_copy_clicked_cb);
  gtk_widget_class_install_action (widget_class, "pane.show-all", NULL, tp_text_pane_show_all_action);
}

static void
tp_text_pane_init (TpTextPane *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter start;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->divider_line = -1;
  self->buffer = gtk_source_buffer_new (NULL);
  buffer = GTK_TEXT_BUFFER (self->buffer);
  gtk_source_buffer_set_highlight_matching_brackets (self->buffer, FALSE);
  gtk_text_view_set_buffer (GTK_TEXT_VIEW (self->view), buffer);
  _tp_text_pane_create_tags (self);
  /* an underline changes no line's size */
  self->show_all_tag = gtk_text_buffer_create_tag (buffer, "show-all", "underline", PANGO_UNDERLINE_SINGLE, NULL);
  self->expanded = g_array_new (FALSE, FALSE, sizeof (TpFold));
  tp_text_pane_apply_style (self);
  gtk_text_buffer_get_start_iter (buffer, &start);
  gtk_text_buffer_create_mark (buffer, "selected-node", &start, TRUE);

  {
    GtkGesture *click = gtk_gesture_click_new ();
    g_autoptr(GMenu) menu = g_menu_new ();

    g_signal_connect_object (click, "released", G_CALLBACK (tp_text_pane_released_cb), self, 0);
    gtk_widget_add_controller (GTK_WIDGET (self->view), GTK_EVENT_CONTROLLER (click));
    g_menu_append (menu, _("Show All of This Line"), "pane.show-all");
    gtk_text_view_set_extra_menu (GTK_TEXT_VIEW (self->view), G_MENU_MODEL (menu));
  }

  g_signal_connect_object (buffer, "notify::cursor-position",
                           G_CALLBACK (tp_text_pane_cursor_moved_cb), self,
                           G_CONNECT_SWAPPED);
  tp_text_view_allocate_on_change (GTK_TEXT_VIEW (self->view), buffer, TRUE);
}
