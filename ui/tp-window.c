/* tp-window.c: the playground window.
 *
 * The window builds its six panes around one TpDocument and keeps the
 * choice controls in step with the document's names list.  Its actions
 * (files, exports, layout, font size) live in tp-window-actions.c, its
 * layouts in tp-window-layout.c, opening and closing programs in
 * tp-window-files.c, readiness and screenshots in
 * tp-window-screenshot.c. */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "tp-application.h"
#include "tp-samples.h"
#include "tp-style.h"
#include "tp-window-private.h"

G_DEFINE_FINAL_TYPE (TpWindow, tp_window, GTK_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_EXACT,
  PROP_FOCUS_LAYOUT,
  PROP_PRESENTING,
  PROP_TEACHING,
  PROP_LESSONS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Translators: the Target drop-down's first choice: the engine's default target */
#define TARGET_DEFAULT  N_("the last scalar")
/* Translators: the Observe drop-down's first choice: observe no name */
#define OBSERVE_DEFAULT N_("nothing extra")
/* (both translated where shown, in tp_window_update_choices) */

/* {==== title and summary ====} */

/* What the window shows: the file's name; else the sample's title while
 * the program still calls itself what the sample does (its first
 * comment: a sample edited is still the sample); else the program's own
 * title, its first comment or "Untitled" (a sample's text replaced). */
char *
tp_window_dup_title (TpWindow *self)
{
  g_return_val_if_fail (TP_IS_WINDOW (self), NULL);

  if (tp_document_get_file (self->document) == NULL && self->sample_title != NULL
      && g_strcmp0 (tp_document_get_comment (self->document), self->sample_comment) == 0)
    return g_strdup (self->sample_title);
  return tp_document_dup_title (self->document);
}

void
_tp_window_update_title (TpWindow *self)
{
  g_autofree char *title = tp_window_dup_title (self);
  g_autofree char *full = NULL;
  GFile *file = tp_document_get_file (self->document);
  gboolean modified = tp_document_get_modified (self->document);
  full = g_strdup_printf ("%s%s", modified ? "• " : "", title);
  gtk_label_set_label (self->title_label, full);
  if (file != NULL)
    {
      g_autoptr(GFile) parent = g_file_get_parent (file);
      g_autofree char *where = parent != NULL ? g_file_get_parse_name (parent) : g_strdup ("");
      const char *home = g_get_home_dir ();

      if (home != NULL && g_str_has_prefix (where, home))
        {
          char *tilde = g_strconcat ("~", where + strlen (home), NULL);
          g_free (where);
          where = tilde;
        }
      gtk_label_set_label (self->subtitle_label, where);
    }
  else
    gtk_label_set_label (self->subtitle_label,
                         /* Translators: the subtitle of a program that has no file */
                         modified ? _("not saved yet")
                         /* Translators: the subtitle of a sample opened from the menu */
                         : self->sample_title != NULL ? _("a sample")
                         /* Translators: the application's name */
                         : _("Topos Playground"));
  g_free (full);
  /* Translators: the window's title: %s is the program's title (after a
   * "• " when it has unsaved changes), then the application's name */
  full = g_strdup_printf (_("%s – Topos Playground"), title);
  if (modified)
    {
      char *marked = g_strconcat ("• ", full, NULL);

      g_free (full);
      full = marked;
    }
  gtk_window_set_title (GTK_WINDOW (self), full);
}

static void
tp_window_update_summary (TpWindow *self)
{
  TpReadings *readings = tp_document_get_readings (self->document);
  g_autofree char *summary = NULL;

  if (readings != NULL)
    summary = g_strdup (tp_readings_get_text (readings, TP_READING_SUMMARY));
  else
    summary = g_strdup ("");
  g_strchomp (summary);
  if (tp_document_get_stale (self->document) && summary[0] != '\0')
    {
      /* Translators: before the summary line of the last reading that
       * worked, while the program is refused; the summary itself is the
       * engine's and stays as it is */
      char *stale = g_strdup_printf (_("(last good reading) %s"), summary);
      g_free (summary);
      summary = stale;
    }
  gtk_label_set_label (self->summary_label, summary);
}

static void
tp_window_update_busy (TpWindow *self)
{
  TpPictureView *picture = TP_PICTURE_VIEW (self->panes[TP_PANE_PICTURE]);
  gboolean busy = tp_document_get_busy (self->document) || tp_picture_view_get_busy (picture);

  gtk_spinner_set_spinning (self->busy_spinner, busy);
  gtk_widget_set_opacity (GTK_WIDGET (self->busy_spinner), busy ? 1.0 : 0.0);
}

/* {==== light and dark ====} */

/* The legend's swatches and the window's own marks follow the style. */
static void
tp_window_apply_style (TpWindow *self)
{
  gboolean dark = tp_style_is_dark (GTK_WIDGET (self));
  const TpPalette *palette = tp_style_get_palette (dark);
  g_autofree char *legend = NULL;

  if (self->dark == !!dark && gtk_label_get_label (self->legend_label)[0] != '\0')
    return;
  self->dark = !!dark;
  if (dark)
    gtk_widget_add_css_class (GTK_WIDGET (self), "dark");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "dark");
  legend = g_markup_printf_escaped ("<span foreground=\"%s\">■</span> %s   "
                                    "<span foreground=\"%s\">■</span> %s   "
                                    "<span foreground=\"%s\">■</span> %s",
                                    /* Translators: the legend of the readings' colours:
                                     * the nodes the differentiate step adds */
                                    palette->derived, _("appended by differentiate"),
                                    /* Translators: the legend: the plan's nodes marked
                                     * “kept” (the word the plan reading uses) */
                                    dark ? "#62a0ea" : "#3584e4", C_("legend", "kept"),
                                    /* Translators: the legend: the node selected in any pane */
                                    "#e5a50a", _("selected node"));
  gtk_label_set_markup (self->legend_label, legend);
}

static void
tp_window_css_changed (GtkWidget         *widget,
                       GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (tp_window_parent_class)->css_changed (widget, change);
  tp_window_apply_style (TP_WINDOW (widget));
}

/* {==== the choice controls ====} */

/* Makes @list hold @items, splicing only the run between the items both
 * start and end with: a name added to a long program is one row added,
 * not the whole list rebuilt (which a drop-down answers with tens of
 * milliseconds of work). */
static void
string_list_update (GtkStringList *list,
                    GPtrArray     *items)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (list));
  guint head = 0, tail = 0;

  while (head < n && head < items->len
         && g_strcmp0 (gtk_string_list_get_string (list, head), g_ptr_array_index (items, head)) == 0)
    head++;
  while (tail < n - head && tail < items->len - head
         && g_strcmp0 (gtk_string_list_get_string (list, n - 1 - tail),
                       g_ptr_array_index (items, items->len - 1 - tail)) == 0)
    tail++;
  if (head == n && n == items->len)
    return;
  {
    g_autoptr(GPtrArray) added = g_ptr_array_new ();

    for (guint i = head; i < items->len - tail; i++)
      g_ptr_array_add (added, g_ptr_array_index (items, i));
    g_ptr_array_add (added, NULL);
    gtk_string_list_splice (list, head, n - head - tail, (const char * const *) added->pdata);
  }
}

static guint
string_list_find (GtkStringList *list,
                  const char    *value)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (list));

  for (guint i = 1; value != NULL && i < n; i++)
    if (g_strcmp0 (gtk_string_list_get_string (list, i), value) == 0)
      return i;
  return 0;
}

/* Refills the target list (rank-0 names) and the observe list (every
 * name) from the names list, each name once, and shows the choices. */
static void
tp_window_update_choices (TpWindow *self)
{
  TpReadings *readings = tp_document_get_readings (self->document);
  g_autoptr(GPtrArray) targets = g_ptr_array_new ();
  g_autoptr(GPtrArray) observes = g_ptr_array_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) scalar = g_hash_table_new (g_str_hash, g_str_equal);

  g_ptr_array_add (targets, (gpointer) _(TARGET_DEFAULT));
  g_ptr_array_add (observes, (gpointer) _(OBSERVE_DEFAULT));
  for (guint i = 0; readings != NULL && i < readings->n_names; i++)
    {
      const TpNameInfo *name = &readings->names[i];

      /* a reassigned name resolves to its last assignment: it is a
       * target when that one is rank 0 */
      g_hash_table_insert (scalar, name->name, GINT_TO_POINTER (name->scalar));
      if (!g_hash_table_add (seen, name->name))
        continue;
      g_ptr_array_add (observes, name->name);
    }
  for (guint i = 1; i < observes->len; i++)
    if (GPOINTER_TO_INT (g_hash_table_lookup (scalar, g_ptr_array_index (observes, i))))
      g_ptr_array_add (targets, g_ptr_array_index (observes, i));

  self->updating_choices = TRUE;
  string_list_update (self->target_list, targets);
  string_list_update (self->observe_list, observes);
  gtk_drop_down_set_selected (self->target_dropdown,
                              string_list_find (self->target_list, tp_document_get_target (self->document)));
  gtk_drop_down_set_selected (self->observe_dropdown,
                              string_list_find (self->observe_list, tp_document_get_observe (self->document)));
  self->updating_choices = FALSE;
}

static void
tp_window_target_selected_cb (TpWindow *self)
{
  guint i = gtk_drop_down_get_selected (self->target_dropdown);

  if (self->updating_choices)
    return;
  tp_document_set_target (self->document,
                          i == 0 || i == GTK_INVALID_LIST_POSITION
                            ? NULL : gtk_string_list_get_string (self->target_list, i));
}

static void
tp_window_observe_selected_cb (TpWindow *self)
{
  guint i = gtk_drop_down_get_selected (self->observe_dropdown);

  if (self->updating_choices)
    return;
  tp_document_set_observe (self->document,
                           i == 0 || i == GTK_INVALID_LIST_POSITION
                             ? NULL : gtk_string_list_get_string (self->observe_list, i));
}

static void
tp_window_file_changed_cb (TpWindow *self)
{
  if (tp_document_get_file (self->document) != NULL)
    g_clear_pointer (&self->sample_title, g_free);
  _tp_window_update_title (self);
}

static void
tp_window_readings_cb (TpWindow *self)
{
  tp_window_update_choices (self);
  tp_window_update_summary (self);
}

/* {==== toasts ====} */

static void
tp_window_toast_hide_cb (gpointer data)
{
  TpWindow *self = data;

  self->toast_source = 0;
  gtk_revealer_set_reveal_child (self->toast_revealer, FALSE);
}

/* Says @text for a few seconds over the bottom of the window: what a
 * copy or an export did, which nothing else on screen shows. */
void
tp_window_show_toast (TpWindow   *self,
                      const char *text)
{
  g_return_if_fail (TP_IS_WINDOW (self));

  gtk_label_set_label (self->toast_label, text);
  gtk_revealer_set_reveal_child (self->toast_revealer, TRUE);
  g_clear_handle_id (&self->toast_source, g_source_remove);
  self->toast_source = g_timeout_add_once (4000, tp_window_toast_hide_cb, self);
}

/* The toast on show, or NULL. */
const char *
tp_window_get_toast (TpWindow *self)
{
  g_return_val_if_fail (TP_IS_WINDOW (self), NULL);

  return gtk_revealer_get_reveal_child (self->toast_revealer)
           ? gtk_label_get_label (self->toast_label) : NULL;
}

/* {==== focus ====} */

/* Remembers the reading that last had the keyboard focus: Ctrl+Shift+C
 * from the editor copies it. */
static void
tp_window_focus_changed_cb (TpWindow *self)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));

  for (guint p = 0; p < TP_N_PANES && focus != NULL; p++)
    if (focus == self->panes[p] || gtk_widget_is_ancestor (focus, self->panes[p]))
      self->last_reading = (TpPane) p;
}

static void
tp_window_menu_shown_cb (GtkPopover *popover,
                         TpWindow   *self)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));

  if (focus != NULL && !gtk_widget_is_ancestor (focus, GTK_WIDGET (popover)))
    g_set_weak_pointer (&self->menu_focus, focus);
}

/* A menu that closes gives the keyboard back to the widget that had it.
 * Left alone, GTK 4.8 keeps the focus on an item of the hidden popover
 * after a submenu item, and the window ignores every key until a click. */
static void
tp_window_menu_closed_cb (GtkPopover *popover,
                          TpWindow   *self)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));
  GtkWidget *back = self->menu_focus;

  if (focus != NULL && !gtk_widget_is_ancestor (focus, GTK_WIDGET (popover)) && focus != back)
    return;                     /* the menu's action moved the focus itself */
  if (back == NULL || gtk_widget_get_root (back) != GTK_ROOT (self) || !gtk_widget_get_mapped (back))
    back = GTK_WIDGET (tp_editor_get_view (self->editor));
  gtk_widget_grab_focus (back);
  g_clear_weak_pointer (&self->menu_focus);
}

/* GTK 4.8 leaves the button inside a menu button or a drop-down without
 * a name of its own: a screen reader says "toggle button". */
static void
tp_window_name_inner_button (GtkWidget  *widget,
                             const char *name)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_TOGGLE_BUTTON (child))
      gtk_accessible_update_property (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
}

static void
tp_window_watch_menu (TpWindow      *self,
                      GtkMenuButton *button,
                      const char    *name)
{
  GtkPopover *popover = gtk_menu_button_get_popover (button);

  tp_window_name_inner_button (GTK_WIDGET (button), name);
  g_signal_connect_object (popover, "show", G_CALLBACK (tp_window_menu_shown_cb), self, 0);
  g_signal_connect_object (popover, "closed", G_CALLBACK (tp_window_menu_closed_cb), self, 0);
}

/* {==== public ====} */

TpWindow *
tp_window_new (GtkApplication *application)
{
  return g_object_new (TP_TYPE_WINDOW, "application", application, NULL);
}

TpDocument *
tp_window_get_document (TpWindow *self)
{
  g_return_val_if_fail (TP_IS_WINDOW (self), NULL);

  return self->document;
}

GtkWidget *
tp_window_get_pane (TpWindow *self,
                    TpPane    pane)
{
  g_return_val_if_fail (TP_IS_WINDOW (self), NULL);
  g_return_val_if_fail ((guint) pane < TP_N_PANES, NULL);

  return self->panes[pane];
}

TpEditor *
tp_window_get_editor (TpWindow *self)
{
  g_return_val_if_fail (TP_IS_WINDOW (self), NULL);

  return self->editor;
}

const char *
tp_window_get_summary (TpWindow *self)
{
  g_return_val_if_fail (TP_IS_WINDOW (self), NULL);

  return gtk_label_get_label (self->summary_label);
}

GtkDropDown *
tp_window_get_target_dropdown (TpWindow *self)
{
  g_return_val_if_fail (TP_IS_WINDOW (self), NULL);

  return self->target_dropdown;
}

GtkDropDown *
tp_window_get_observe_dropdown (TpWindow *self)
{
  g_return_val_if_fail (TP_IS_WINDOW (self), NULL);

  return self->observe_dropdown;
}

TpTeachPanel *
tp_window_get_teach_panel (TpWindow *self)
{
  g_return_val_if_fail (TP_IS_WINDOW (self), NULL);

  return self->teach_panel;
}

GtkMenuButton *
tp_window_get_main_menu_button (TpWindow *self)
{
  g_return_val_if_fail (TP_IS_WINDOW (self), NULL);

  return self->primary_button;
}

/* {==== GObject ====} */

static void
tp_window_dispose (GObject *object)
{
  TpWindow *self = (TpWindow *) object;

  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_clear_handle_id (&self->toast_source, g_source_remove);
  g_clear_handle_id (&self->place_idle, g_source_remove);
  if (self->editor_width_source != 0)
    {
      /* a width dragged to just now is kept all the same */
      g_clear_handle_id (&self->editor_width_source, g_source_remove);
      g_settings_set_int (self->settings, "editor-width", gtk_paned_get_position (self->paned));
    }
  g_clear_weak_pointer (&self->menu_focus);
  /* GtkWindow unparents its own child and titlebar; disposing the
   * template here would leave it pointers to freed widgets. */

  G_OBJECT_CLASS (tp_window_parent_class)->dispose (object);
}

static void
tp_window_finalize (GObject *object)
{
  TpWindow *self = (TpWindow *) object;

  g_clear_object (&self->document);
  g_clear_object (&self->settings);
  g_clear_object (&self->jax_file);
  g_free (self->sample_title);
  g_free (self->sample_comment);

  G_OBJECT_CLASS (tp_window_parent_class)->finalize (object);
}

static void
tp_window_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  TpWindow *self = TP_WINDOW (object);

  switch (prop_id)
    {
    case PROP_EXACT:
      g_value_set_boolean (value, self->document != NULL && tp_document_get_exact (self->document));
      break;
    case PROP_FOCUS_LAYOUT:
      g_value_set_boolean (value, self->focus_layout);
      break;
    case PROP_PRESENTING:
      g_value_set_boolean (value, self->presenting);
      break;
    case PROP_TEACHING:
      g_value_set_boolean (value, tp_window_get_teaching (self));
      break;
    case PROP_LESSONS:
      g_value_set_boolean (value, tp_window_get_lessons (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tp_window_set_property (GObject      *object,
                        guint         prop_id,
                        const GValue *value,
                        GParamSpec   *pspec)
{
  TpWindow *self = TP_WINDOW (object);

  switch (prop_id)
    {
    case PROP_EXACT:
      if (self->document == NULL)
        break;
      tp_document_set_exact (self->document, g_value_get_boolean (value));
      g_settings_set_boolean (self->settings, "exact", g_value_get_boolean (value));
      break;
    case PROP_FOCUS_LAYOUT:
      if (self->focus_layout != g_value_get_boolean (value))
        tp_window_set_focus_layout (self, g_value_get_boolean (value), self->focus_pane);
      break;
    case PROP_PRESENTING:
      tp_window_set_presenting (self, g_value_get_boolean (value));
      break;
    case PROP_TEACHING:
      tp_window_set_teaching (self, g_value_get_boolean (value));
      break;
    case PROP_LESSONS:
      tp_window_set_lessons (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tp_window_exact_changed_cb (TpWindow *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EXACT]);
}

/* The window's program keeps its unsaved edits in its application's
 * drafts, and its picture is laid out by its application's picture
 * worker (a window of no TpApplication, in tests, keeps no drafts and is
 * given a worker by whoever made it). */
static void
tp_window_application_cb (TpWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  tp_document_set_drafts (self->document,
                          TP_IS_APPLICATION (app) ? tp_application_get_drafts (TP_APPLICATION (app)) : NULL);
  if (TP_IS_APPLICATION (app))
    tp_picture_view_set_worker (TP_PICTURE_VIEW (self->panes[TP_PANE_PICTURE]),
                                tp_application_get_picture_worker (TP_APPLICATION (app)));
}

static void
tp_window_class_init (TpWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = tp_window_dispose;
  object_class->finalize = tp_window_finalize;
  object_class->get_property = tp_window_get_property;
  object_class->set_property = tp_window_set_property;
  window_class->close_request = _tp_window_close_request;
  widget_class->css_changed = tp_window_css_changed;

  properties[PROP_EXACT] =
    g_param_spec_boolean ("exact", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FOCUS_LAYOUT] =
    g_param_spec_boolean ("focus-layout", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PRESENTING] =
    g_param_spec_boolean ("presenting", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TEACHING] =
    g_param_spec_boolean ("teaching", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* the Lessons pane shown (tp-window-lessons.c) */
  properties[PROP_LESSONS] =
    g_param_spec_boolean ("lessons", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (TP_TYPE_EDITOR);
  g_type_ensure (TP_TYPE_TEACH_PANEL);
  gtk_widget_class_set_template_from_resource (widget_class, TP_RESOURCE_PREFIX "/ui/tp-window.ui");
  gtk_widget_class_bind_template_child (widget_class, TpWindow, header_bar);
  gtk_widget_class_bind_template_child (widget_class, TpWindow, recent_button);
  gtk_widget_class_bind_template_child (widget_class, TpWindow, samples_button);
  gtk_widget_class_bind_template_child (widget_class, TpWindow, primary_button);
  gtk_widget_class_bind_template_child (widget_class, TpWindow, toast_revealer);
  gtk_widget_class_bind_template_child (widget_class, TpWindow, toast_label);
  gtk_widget_class_bind_template_child (widget_class, TpWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, TpWindow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, TpWindow, focus_toggle);
  gtk_widget_class_bind_template_child (widget_class, TpWindow, target_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TpWindow, target_list);
  gtk_widget_class_bind_template_child (widget_class, TpWindow, observe_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TpWindow, observe_list);
  gtk_widget_class_bind_template_child (widget_class, TpWindow, exact_check);
  gtk_widget_class_bind_template_child (widget_class, TpWindow, optimize_check);
  gtk_widget_class_bind_template_child (widget_class, TpWindow, pane_switcher);
  gtk_widget_class_bind_template_child (widget_class, TpWindow, busy_spinner);
  gtk_widget_class_bind_template_child (widget_class, TpWindow, paned);
  gtk_widget_class_bind_template_child (widget_class, TpWindow, teach_paned);
  gtk_widget_class_bind_template_child (widget_class, TpWindow, teach_panel);
  gtk_widget_class_bind_template_child (widget_class, TpWindow, editor);
  gtk_widget_class_bind_template_child (widget_class, TpWindow, layout_stack);
  gtk_widget_class_bind_template_child (widget_class, TpWindow, panes_grid);
  gtk_widget_class_bind_template_child (widget_class, TpWindow, left_grid);
  gtk_widget_class_bind_template_child (widget_class, TpWindow, right_grid);
  gtk_widget_class_bind_template_child (widget_class, TpWindow, focus_box);
  gtk_widget_class_bind_template_child (widget_class, TpWindow, summary_label);
  gtk_widget_class_bind_template_child (widget_class, TpWindow, legend_label);
  gtk_widget_class_bind_template_child (widget_class, TpWindow, samples_section);
  gtk_widget_class_bind_template_child (widget_class, TpWindow, recent_section);

  _tp_window_class_actions_init (widget_class);
  _tp_window_class_lessons_init (widget_class);
}

static void
tp_window_init (TpWindow *self)
{
  GtkDropTarget *drop;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->last_reading = TP_PANE_SPEC;

  self->settings = tp_settings_new ();
  self->document = tp_document_new ();
  tp_document_set_exact (self->document, g_settings_get_boolean (self->settings, "exact"));
  tp_editor_set_document (self->editor, self->document);
  _tp_window_init_passes (self);

  for (guint p = 0; p < TP_N_PANES; p++)
    {
      GtkWidget *button = gtk_toggle_button_new_with_label (gettext (tp_pane_get_title ((TpPane) p)));

      if (p == TP_PANE_PICTURE)
        {
          self->panes[p] = tp_picture_view_new ();
          tp_picture_view_set_document (TP_PICTURE_VIEW (self->panes[p]), self->document);
        }
      else
        {
          self->panes[p] = tp_text_pane_new ((TpPane) p);
          tp_text_pane_set_document (TP_TEXT_PANE (self->panes[p]), self->document);
        }
      gtk_widget_add_css_class (self->panes[p], "pane");
      gtk_widget_set_vexpand (self->panes[p], TRUE);
      gtk_widget_set_hexpand (self->panes[p], TRUE);
      _tp_window_attach_tiled (self, (TpPane) p);

      g_object_set_data (G_OBJECT (button), "pane", GINT_TO_POINTER (p));
      gtk_widget_set_tooltip_text (button, _("Show this reading (Alt+1 … Alt+6)"));
      g_signal_connect (button, "toggled", G_CALLBACK (_tp_window_switcher_clicked_cb), self);
      gtk_box_append (self->pane_switcher, button);
      self->switcher_buttons[p] = button;
    }

  tp_teach_panel_set_document (self->teach_panel, self->document);
  tp_teach_panel_set_picture (self->teach_panel, TP_PICTURE_VIEW (self->panes[TP_PANE_PICTURE]));
  g_signal_connect_object (self->document, "notify::readings",
                           G_CALLBACK (tp_window_readings_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->document, "notify::stale",
                           G_CALLBACK (tp_window_update_summary), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->document, "notify::target",
                           G_CALLBACK (tp_window_update_choices), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->document, "notify::observe",
                           G_CALLBACK (tp_window_update_choices), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->document, "notify::file",
                           G_CALLBACK (tp_window_file_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->document, "notify::modified",
                           G_CALLBACK (_tp_window_update_title), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->document, "notify::title",
                           G_CALLBACK (_tp_window_update_title), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->document, "notify::exact",
                           G_CALLBACK (tp_window_exact_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->document, "notify::busy",
                           G_CALLBACK (tp_window_update_busy), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->panes[TP_PANE_PICTURE], "notify::busy",
                           G_CALLBACK (tp_window_update_busy), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->target_dropdown, "notify::selected",
                           G_CALLBACK (tp_window_target_selected_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->observe_dropdown, "notify::selected",
                           G_CALLBACK (tp_window_observe_selected_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (gtk_recent_manager_get_default (), "changed",
                           G_CALLBACK (_tp_window_update_recent), self, G_CONNECT_SWAPPED);

  g_signal_connect (self, "notify::focus-widget", G_CALLBACK (tp_window_focus_changed_cb), NULL);
  g_signal_connect (self, "notify::fullscreened", G_CALLBACK (_tp_window_fullscreened_cb), NULL);
  g_signal_connect (self, "notify::application", G_CALLBACK (tp_window_application_cb), NULL);
  /* Translators: accessible names, as the menu buttons' and drop-downs'
   * own (the same words in tp-window.ui) */
  tp_window_watch_menu (self, self->recent_button, _("Recent programs"));
  tp_window_watch_menu (self, self->samples_button, _("Samples"));
  tp_window_watch_menu (self, self->primary_button, _("Main menu"));
  tp_window_name_inner_button (GTK_WIDGET (self->target_dropdown), _("Target"));
  tp_window_name_inner_button (GTK_WIDGET (self->observe_dropdown), _("Observe"));
  _tp_window_add_shortcuts (self);
  _tp_window_init_layout (self);
  _tp_window_init_lessons (self);

  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (_tp_window_drop_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

  _tp_window_build_samples_menu (self);
  _tp_window_update_recent (self);

  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
  self->focus_layout = g_settings_get_enum (self->settings, "layout") == 1;
  self->focus_pane = (TpPane) CLAMP (g_settings_get_enum (self->settings, "focus-pane"), 0, TP_N_PANES - 1);
  _tp_window_place_panes (self);

  _tp_window_update_title (self);
  tp_window_update_choices (self);
  tp_window_update_summary (self);
  tp_window_update_busy (self);
  tp_window_apply_style (self);
  _tp_window_update_actions (self);
  /* typing goes to the program first */
  gtk_window_set_focus (GTK_WINDOW (self), GTK_WIDGET (tp_editor_get_view (self->editor)));
}
