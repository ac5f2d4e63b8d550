/* tp-window.c: the playground window.
 *
 * The window builds its six panes around one TpDocument and keeps the
 * choice controls in step with the document's names list.  Its actions
 * (files, exports, layout, font size) live in tp-window-actions.c. */
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
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Translators: the Target drop-down's first choice: the engine's default target */
#define TARGET_DEFAULT  N_("the last scalar")
/* Translators: the Observe drop-down's first choice: observe no name */
#define OBSERVE_DEFAULT N_("nothing extra")
/* (both translated where shown, in tp_window_update_choices) */

/* {==== title and summary ====} */

/* What the window shows: the file's name, else the sample's title. */
char *
tp_window_dup_title (TpWindow *self)
{
  g_return_val_if_fail (TP_IS_WINDOW (self), NULL);

  if (tp_document_get_file (self->document) == NULL && self->sample_title != NULL)
    return g_strdup (self->sample_title);
  return tp_document_dup_title (self->document);
}

static void
tp_window_update_title (TpWindow *self)
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
  tp_window_update_title (self);
}

static void
tp_window_readings_cb (TpWindow *self)
{
  tp_window_update_choices (self);
  tp_window_update_summary (self);
}

/* {==== layout ====} */

/* The tiled layout: the text readings down the left half, the picture
 * over StableHLO on the right, the picture with the larger share (each
 * column is a grid of 20 homogeneous rows, so the spans give the
 * proportions).  Each column is its own grid so that Tab, which goes
 * top to bottom and then left to right within a grid, reads the left
 * column down before the right one, as the eye does. */
static const struct
{
  int column;
  int row;
  int height;
} tiled_cells[TP_N_PANES] = {
  [TP_PANE_SPEC] = { 0, 0, 5 },
  [TP_PANE_DERIVATIVE] = { 0, 5, 5 },
  [TP_PANE_PLAN] = { 0, 10, 5 },
  [TP_PANE_VALUES] = { 0, 15, 5 },
  [TP_PANE_PICTURE] = { 1, 0, 12 },
  [TP_PANE_STABLEHLO] = { 1, 12, 8 },
};

static void
tp_window_attach_tiled (TpWindow *self,
                        TpPane    p)
{
  gtk_grid_attach (tiled_cells[p].column == 0 ? self->left_grid : self->right_grid, self->panes[p],
                   0, tiled_cells[p].row, 1, tiled_cells[p].height);
}

static void
tp_window_place_panes (TpWindow *self)
{
  for (guint p = 0; p < TP_N_PANES; p++)
    {
      GtkWidget *pane = self->panes[p];
      GtkWidget *parent = gtk_widget_get_parent (pane);
      gboolean focused = self->focus_layout && p == self->focus_pane;

      g_object_ref (pane);
      if (parent == GTK_WIDGET (self->focus_box) && !focused)
        {
          gtk_box_remove (self->focus_box, pane);
          tp_window_attach_tiled (self, (TpPane) p);
        }
      else if (GTK_IS_GRID (parent) && focused)
        {
          gtk_grid_remove (GTK_GRID (parent), pane);
          gtk_box_append (self->focus_box, pane);
        }
      g_object_unref (pane);
      gtk_widget_set_visible (pane, TRUE);
      gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->switcher_buttons[p]), p == self->focus_pane);
    }
  gtk_stack_set_visible_child_name (self->layout_stack, self->focus_layout ? "focus" : "tiled");
  if (self->focus_layout)
    gtk_widget_add_css_class (GTK_WIDGET (self), "focus-layout");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "focus-layout");
  gtk_widget_set_visible (GTK_WIDGET (self->pane_switcher), self->focus_layout);
  tp_picture_view_set_presenting (TP_PICTURE_VIEW (self->panes[TP_PANE_PICTURE]),
                                  self->focus_layout && self->focus_pane == TP_PANE_PICTURE);
}

/* Shows all six readings (tiled) or @pane alone (focus); the choice is
 * kept in the settings. */
void
tp_window_set_focus_layout (TpWindow *self,
                            gboolean  focus,
                            TpPane    pane)
{
  g_return_if_fail (TP_IS_WINDOW (self));
  g_return_if_fail ((guint) pane < TP_N_PANES);

  self->focus_layout = !!focus;
  self->focus_pane = pane;
  tp_window_place_panes (self);
  g_settings_set_enum (self->settings, "layout", focus ? 1 : 0);
  g_settings_set_enum (self->settings, "focus-pane", (int) pane);
  _tp_window_update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOCUS_LAYOUT]);
}

/* Presenting (F11): the window takes the whole screen and every text is
 * half as large again; F11 again (or leaving full screen) ends it. */
void
tp_window_set_presenting (TpWindow *self,
                          gboolean  presenting)
{
  g_return_if_fail (TP_IS_WINDOW (self));

  if (self->presenting == !!presenting)
    return;
  self->presenting = !!presenting;
  if (presenting)
    {
      gtk_widget_add_css_class (GTK_WIDGET (self), "presenting");
      gtk_window_fullscreen (GTK_WINDOW (self));
    }
  else
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self), "presenting");
      gtk_window_unfullscreen (GTK_WINDOW (self));
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PRESENTING]);
}

/* Leaving full screen some other way (the window manager) ends the
 * presentation too. */
static void
tp_window_fullscreened_cb (TpWindow *self)
{
  gboolean fullscreen = gtk_window_is_fullscreen (GTK_WINDOW (self));

  if (self->presenting && self->was_fullscreen && !fullscreen)
    tp_window_set_presenting (self, FALSE);
  self->was_fullscreen = !!fullscreen;
}

gboolean
tp_window_get_presenting (TpWindow *self)
{
  g_return_val_if_fail (TP_IS_WINDOW (self), FALSE);

  return self->presenting;
}

gboolean
tp_window_get_focus_layout (TpWindow *self)
{
  g_return_val_if_fail (TP_IS_WINDOW (self), FALSE);

  return self->focus_layout;
}

static void
tp_window_switcher_clicked_cb (GtkToggleButton *button,
                               TpWindow        *self)
{
  TpPane pane = (TpPane) GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "pane"));

  if (gtk_toggle_button_get_active (button) && pane != self->focus_pane && self->focus_layout)
    tp_window_set_focus_layout (self, TRUE, pane);
  else if (!gtk_toggle_button_get_active (button) && pane == self->focus_pane)
    gtk_toggle_button_set_active (button, TRUE);
}

/* {==== samples and recent files ====} */

static void
tp_window_build_samples_menu (TpWindow *self)
{
  g_autoptr(GMenu) reference = g_menu_new ();
  g_autoptr(GMenu) teaching = g_menu_new ();
  guint n = 0;
  const TpSample *samples = tp_samples_get (&n);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (gettext (samples[i].title), NULL);

      g_menu_item_set_action_and_target (item, "win.open-sample", "s", samples[i].id);
      g_menu_append_item (samples[i].teaching ? teaching : reference, item);
    }
  /* Translators: the samples menu's sections: the samples of the
   * original topos playground's page, then the playground's own */
  g_menu_append_section (self->samples_section, _("From the original playground"), G_MENU_MODEL (reference));
  g_menu_append_section (self->samples_section, _("Teaching samples"), G_MENU_MODEL (teaching));
}

static int
compare_recent (gconstpointer a,
                gconstpointer b)
{
  GtkRecentInfo *ia = *(GtkRecentInfo **) a;
  GtkRecentInfo *ib = *(GtkRecentInfo **) b;
  GDateTime *da = gtk_recent_info_get_modified (ia);
  GDateTime *db = gtk_recent_info_get_modified (ib);

  return g_date_time_compare (db, da);
}

/* The ten most recent .tape files, newest first. */
void
_tp_window_update_recent (TpWindow *self)
{
  GtkRecentManager *manager = gtk_recent_manager_get_default ();
  GList *items = gtk_recent_manager_get_items (manager);
  g_autoptr(GPtrArray) tapes = g_ptr_array_new_with_free_func ((GDestroyNotify) gtk_recent_info_unref);

  for (GList *l = items; l != NULL; l = l->next)
    {
      GtkRecentInfo *info = l->data;

      if (g_str_has_suffix (gtk_recent_info_get_uri (info), ".tape") && gtk_recent_info_exists (info))
        g_ptr_array_add (tapes, gtk_recent_info_ref (info));
    }
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
  g_ptr_array_sort (tapes, compare_recent);

  g_menu_remove_all (self->recent_section);
  for (guint i = 0; i < tapes->len && i < 10; i++)
    {
      GtkRecentInfo *info = g_ptr_array_index (tapes, i);
      g_autoptr(GFile) file = g_file_new_for_uri (gtk_recent_info_get_uri (info));
      g_autoptr(GFile) parent = g_file_get_parent (file);
      g_autofree char *where = parent != NULL ? g_file_get_parse_name (parent) : g_strdup ("");
      const char *home = g_get_home_dir ();
      g_autofree char *label = NULL;
      g_autoptr(GMenuItem) item = NULL;

      /* two programs of the same name in different folders read apart */
      if (home != NULL && g_str_has_prefix (where, home)
          && (where[strlen (home)] == '\0' || where[strlen (home)] == '/'))
        {
          char *tilde = g_strconcat ("~", where + strlen (home), NULL);

          g_free (where);
          where = tilde;
        }
      /* Translators: a recent program in the menu: its file's name, then its folder */
      label = g_strdup_printf (_("%s — %s"), gtk_recent_info_get_display_name (info), where);
      item = g_menu_item_new (label, NULL);

      g_menu_item_set_action_and_target (item, "win.open-recent", "s", gtk_recent_info_get_uri (info));
      g_menu_append_item (self->recent_section, item);
    }
  if (tapes->len == 0)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (_("No recent programs"), "win.no-recent");
      g_menu_append_item (self->recent_section, item);
    }
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.clear-recent", tapes->len > 0);
}

/* Forgets every recent program (the recent list of other applications'
 * files is left alone). */
void
_tp_window_clear_recent (TpWindow *self)
{
  GtkRecentManager *manager = gtk_recent_manager_get_default ();
  GList *items = gtk_recent_manager_get_items (manager);

  for (GList *l = items; l != NULL; l = l->next)
    if (g_str_has_suffix (gtk_recent_info_get_uri (l->data), ".tape"))
      gtk_recent_manager_remove_item (manager, gtk_recent_info_get_uri (l->data), NULL);
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
}

/* The recent programs' part of the recent menu (for tests). */
GMenuModel *
tp_window_get_recent_section (TpWindow *self)
{
  g_return_val_if_fail (TP_IS_WINDOW (self), NULL);

  return G_MENU_MODEL (self->recent_section);
}

/* {==== opening ====} */

/* Opens a sample here; the current text stays one undo away.  In a new
 * window (no text yet) the sample is where the window starts: Ctrl+Z
 * does not empty it. */
void
tp_window_open_sample (TpWindow   *self,
                       const char *sample_id)
{
  const TpSample *sample = tp_samples_lookup (sample_id);
  g_autofree char *text = tp_samples_dup_text (sample_id);
  GtkTextBuffer *buffer;
  gboolean fresh;

  g_return_if_fail (TP_IS_WINDOW (self));

  if (sample == NULL || text == NULL)
    {
      g_warning ("There is no sample called %s", sample_id);
      return;
    }
  g_free (self->sample_title);
  self->sample_title = g_strdup (gettext (sample->title));
  buffer = GTK_TEXT_BUFFER (tp_document_get_buffer (self->document));
  fresh = gtk_text_buffer_get_char_count (buffer) == 0;
  if (fresh)
    gtk_text_buffer_begin_irreversible_action (buffer);
  tp_document_set_text (self->document, text);
  if (fresh)
    gtk_text_buffer_end_irreversible_action (buffer);
  tp_document_set_file (self->document, NULL);
  tp_document_set_target (self->document, sample->target);
  tp_document_set_observe (self->document, sample->observe);
  gtk_text_buffer_set_modified (GTK_TEXT_BUFFER (tp_document_get_buffer (self->document)), FALSE);
  tp_document_set_selected_node (self->document, -1);
  g_settings_set_string (self->settings, "last-sample", sample_id);
  /* a new program's picture opens readable, not at the last one's zoom */
  tp_picture_view_place_next (TP_PICTURE_VIEW (self->panes[TP_PANE_PICTURE]));
}

static void
tp_window_load_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(TpWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!tp_document_load_finish (TP_DOCUMENT (object), result, &error))
    {
      GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
      GtkTextBuffer *buffer = GTK_TEXT_BUFFER (tp_document_get_buffer (self->document));
      gboolean empty = gtk_text_buffer_get_char_count (buffer) == 0 && tp_document_get_file (self->document) == NULL;
      GtkWidget *dialog = gtk_message_dialog_new (empty ? NULL : GTK_WINDOW (self), GTK_DIALOG_MODAL,
                                                  GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE,
                                                  _("Could not open the program"));

      gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", error->message);
      g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
      /* A window opened for this file and left with nothing in it goes:
       * the message stands alone (and keeps the application running
       * until it is read). */
      if (empty)
        {
          gtk_window_set_title (GTK_WINDOW (dialog), _("Topos Playground"));
          if (app != NULL)
            gtk_window_set_application (GTK_WINDOW (dialog), app);
          self->closing = TRUE;
          gtk_window_destroy (GTK_WINDOW (self));
        }
      gtk_window_present (GTK_WINDOW (dialog));
      return;
    }
  {
    GFile *file = tp_document_get_file (TP_DOCUMENT (object));
    g_autofree char *uri = g_file_get_uri (file);
    gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
  }
  tp_picture_view_place_next (TP_PICTURE_VIEW (self->panes[TP_PANE_PICTURE]));
}

/* The window of @application that shows @file, or NULL. */
TpWindow *
tp_window_find_for_file (GtkApplication *application,
                         GFile          *file)
{
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  for (GList *l = application != NULL ? gtk_application_get_windows (application) : NULL; l != NULL; l = l->next)
    {
      GFile *shown;

      if (!TP_IS_WINDOW (l->data))
        continue;
      shown = tp_document_get_file (TP_WINDOW (l->data)->document);
      if (shown != NULL && g_file_equal (shown, file))
        return l->data;
    }
  return NULL;
}

/* Brings forward the window that already shows @file: TRUE when there is
 * one (opening a file twice does not make a second window on it). */
gboolean
tp_window_present_for_file (GtkApplication *application,
                            GFile          *file)
{
  TpWindow *window = tp_window_find_for_file (application, file);

  if (window == NULL)
    return FALSE;
  gtk_window_present (GTK_WINDOW (window));
  return TRUE;
}

/* Loads @file into this window's document. */
void
tp_window_open_file (TpWindow *self,
                     GFile    *file)
{
  g_return_if_fail (TP_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  tp_document_load_async (self->document, file, NULL, tp_window_load_cb, g_object_ref (self));
}

/* Restores a draft kept after a crash; FALSE when it cannot be read. */
gboolean
tp_window_restore_draft (TpWindow   *self,
                         const char *draft_id)
{
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (TP_IS_WINDOW (self), FALSE);

  if (!tp_document_restore_draft (self->document, draft_id, &error))
    {
      g_warning ("Cannot restore draft %s: %s", draft_id, error->message);
      return FALSE;
    }
  return TRUE;
}

static gboolean
tp_window_drop_cb (GtkDropTarget *target,
                   const GValue  *value,
                   double         x,
                   double         y,
                   TpWindow      *self)
{
  GSList *files;
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;
  files = g_value_get_boxed (value);
  for (GSList *l = files; l != NULL; l = l->next)
    {
      TpWindow *window = self;

      if (tp_window_present_for_file (app, l->data))
        continue;
      if (l != files || !tp_document_is_pristine (self->document))
        {
          window = tp_window_new (app);
          gtk_window_present (GTK_WINDOW (window));
        }
      tp_window_open_file (window, l->data);
    }
  return files != NULL;
}

/* {==== closing ====} */

/* Saves (asking for a name when the program has none) and closes. */
void
tp_window_save_and_close (TpWindow *self)
{
  g_return_if_fail (TP_IS_WINDOW (self));

  _tp_window_save_then_close (self);
}

/* Closes without saving; the unsaved edits' draft goes too. */
void
tp_window_discard_and_close (TpWindow *self)
{
  g_return_if_fail (TP_IS_WINDOW (self));

  tp_document_discard_draft (self->document);
  self->closing = TRUE;
  gtk_window_close (GTK_WINDOW (self));
}

static void
tp_window_close_response_cb (GtkDialog *dialog,
                             int        response,
                             TpWindow  *self)
{
  /* The dialog outlives this handler (its emission holds it) and may
   * outlive the window too: let go of the window first. */
  gtk_window_set_transient_for (GTK_WINDOW (dialog), NULL);
  gtk_window_destroy (GTK_WINDOW (dialog));
  switch (response)
    {
    case GTK_RESPONSE_ACCEPT:
      _tp_window_save_then_close (self);
      break;
    case GTK_RESPONSE_REJECT:
      tp_window_discard_and_close (self);
      break;
    default:
      break;
    }
}

static gboolean
tp_window_close_request (GtkWindow *window)
{
  TpWindow *self = TP_WINDOW (window);
  g_autofree char *title = NULL;
  GtkWidget *dialog;
  int width, height;

  gtk_window_get_default_size (window, &width, &height);
  g_settings_set_int (self->settings, "window-width", width);
  g_settings_set_int (self->settings, "window-height", height);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));

  if (self->closing || !tp_document_get_modified (self->document))
    return GTK_WINDOW_CLASS (tp_window_parent_class)->close_request (window);

  title = tp_document_dup_title (self->document);
  dialog = gtk_message_dialog_new (window, GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE,
                                   /* Translators: %s is the program's title */
                                   _("Save changes to “%s” before closing?"), title);
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog),
                                            _("If you don’t save, your changes will be lost."));
  gtk_dialog_add_buttons (GTK_DIALOG (dialog),
                          _("_Cancel"), GTK_RESPONSE_CANCEL,
                          _("_Discard"), GTK_RESPONSE_REJECT,
                          _("_Save"), GTK_RESPONSE_ACCEPT,
                          NULL);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
  gtk_widget_add_css_class (gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), GTK_RESPONSE_REJECT),
                            "destructive-action");
  gtk_widget_add_css_class (gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT),
                            "suggested-action");
  g_signal_connect_object (dialog, "response", G_CALLBACK (tp_window_close_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
  return TRUE;
}

/* {==== readiness and screenshots ====} */

/* TRUE when every pane shows the readings of the current text. */
gboolean
tp_window_get_ready (TpWindow *self)
{
  g_return_val_if_fail (TP_IS_WINDOW (self), FALSE);

  if (tp_document_get_busy (self->document)
      || tp_picture_view_get_busy (TP_PICTURE_VIEW (self->panes[TP_PANE_PICTURE]))
      || !gtk_widget_get_mapped (GTK_WIDGET (self)))
    return FALSE;
  for (guint p = TP_PANE_SPEC; p <= TP_PANE_VALUES; p++)
    if (tp_text_pane_get_busy (TP_TEXT_PANE (self->panes[p])))
      return FALSE;
  return TRUE;
}

/* Reads the current text at once and brings every text pane up to date
 * before returning (the picture's layout still comes from its worker):
 * the recompute-now hook of the tests. */
void
tp_window_recompute_now (TpWindow *self)
{
  g_return_if_fail (TP_IS_WINDOW (self));

  tp_document_recompute_now (self->document);
  for (guint p = TP_PANE_SPEC; p <= TP_PANE_VALUES; p++)
    tp_text_pane_flush (TP_TEXT_PANE (self->panes[p]));
}

/* Renders the window as it is into a PNG (GTK's own snapshot, no screen
 * grab). */
gboolean
tp_window_save_png (TpWindow    *self,
                    const char  *path,
                    GError     **error)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (GTK_WIDGET (self));
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (self));
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));
  double left, top;

  /* The window's paintable includes the shadow of its client-side
   * decorations: drawn at its own size and cropped to the window, one
   * pixel for one (drawn into the window's size it would be scaled). */
  gtk_native_get_surface_transform (GTK_NATIVE (self), &left, &top);
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot),
                          MAX (gdk_paintable_get_intrinsic_width (paintable), width),
                          MAX (gdk_paintable_get_intrinsic_height (paintable), height));
  node = gtk_snapshot_free_to_node (snapshot);
  if (node == NULL || renderer == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("the window has nothing to draw yet"));
      return FALSE;
    }
  texture = gsk_renderer_render_texture (renderer, node,
                                         &GRAPHENE_RECT_INIT ((float) left, (float) top,
                                                              (float) width, (float) height));
  if (!gdk_texture_save_to_png (texture, path))
    {
      /* Translators: --screenshot's error; %s is the PNG's path */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("cannot write %s"), path);
      return FALSE;
    }
  return TRUE;
}

typedef struct
{
  char *path;
  guint tick_id;
  guint frames;                 /* frames drawn since the window was ready */
  gint64 started;
} ScreenshotState;

static void
screenshot_state_free (gpointer data)
{
  ScreenshotState *state = data;

  g_free (state->path);
  g_free (state);
}

static gboolean
tp_window_screenshot_tick_cb (GtkWidget     *widget,
                              GdkFrameClock *clock,
                              gpointer       user_data)
{
  GTask *task = user_data;
  ScreenshotState *state = g_task_get_task_data (task);
  TpWindow *self = TP_WINDOW (widget);
  g_autoptr(GError) error = NULL;
  gboolean timed_out = g_get_monotonic_time () - state->started > 20 * G_USEC_PER_SEC;

  if (!tp_window_get_ready (self) && !timed_out)
    {
      state->frames = 0;
      gtk_widget_queue_draw (widget);
      return G_SOURCE_CONTINUE;
    }
  /* Let the last readings draw before the snapshot. */
  if (++state->frames < 3 && !timed_out)
    {
      gtk_widget_queue_draw (widget);
      return G_SOURCE_CONTINUE;
    }
  /* The first frames of a new window may come before the window system
   * has shown it: then there is nothing to snapshot yet. */
  if (!tp_window_save_png (self, state->path, &error) && !timed_out)
    {
      gtk_widget_queue_draw (widget);
      return G_SOURCE_CONTINUE;
    }
  state->tick_id = 0;
  if (error == NULL)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, g_steal_pointer (&error));
  return G_SOURCE_REMOVE;
}

/* Waits until every pane shows the current readings, then writes a PNG
 * of the window to @path. */
void
tp_window_screenshot_async (TpWindow            *self,
                            const char          *path,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  GTask *task;
  ScreenshotState *state;

  g_return_if_fail (TP_IS_WINDOW (self));
  g_return_if_fail (path != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tp_window_screenshot_async);
  state = g_new0 (ScreenshotState, 1);
  state->path = g_strdup (path);
  state->started = g_get_monotonic_time ();
  g_task_set_task_data (task, state, screenshot_state_free);
  state->tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), tp_window_screenshot_tick_cb,
                                                 task, g_object_unref);
}

gboolean
tp_window_screenshot_finish (TpWindow      *self,
                             GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
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
  g_free (self->sample_title);

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
  window_class->close_request = tp_window_close_request;
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
      tp_window_attach_tiled (self, (TpPane) p);

      g_object_set_data (G_OBJECT (button), "pane", GINT_TO_POINTER (p));
      gtk_widget_set_tooltip_text (button, _("Show this reading (Alt+1 … Alt+6)"));
      g_signal_connect (button, "toggled", G_CALLBACK (tp_window_switcher_clicked_cb), self);
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
                           G_CALLBACK (tp_window_update_title), self, G_CONNECT_SWAPPED);
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
  g_signal_connect (self, "notify::fullscreened", G_CALLBACK (tp_window_fullscreened_cb), NULL);
  g_signal_connect (self, "notify::application", G_CALLBACK (tp_window_application_cb), NULL);
  /* Translators: accessible names, as the menu buttons' and drop-downs'
   * own (the same words in tp-window.ui) */
  tp_window_watch_menu (self, self->recent_button, _("Recent programs"));
  tp_window_watch_menu (self, self->samples_button, _("Samples"));
  tp_window_watch_menu (self, self->primary_button, _("Main menu"));
  tp_window_name_inner_button (GTK_WIDGET (self->target_dropdown), _("Target"));
  tp_window_name_inner_button (GTK_WIDGET (self->observe_dropdown), _("Observe"));
  _tp_window_add_shortcuts (self);

  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (tp_window_drop_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

  tp_window_build_samples_menu (self);
  _tp_window_update_recent (self);

  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
  self->focus_layout = g_settings_get_enum (self->settings, "layout") == 1;
  self->focus_pane = (TpPane) CLAMP (g_settings_get_enum (self->settings, "focus-pane"), 0, TP_N_PANES - 1);
  tp_window_place_panes (self);

  tp_window_update_title (self);
  tp_window_update_choices (self);
  tp_window_update_summary (self);
  tp_window_update_busy (self);
  tp_window_apply_style (self);
  _tp_window_update_actions (self);
  /* typing goes to the program first */
  gtk_window_set_focus (GTK_WINDOW (self), GTK_WIDGET (tp_editor_get_view (self->editor)));
}
