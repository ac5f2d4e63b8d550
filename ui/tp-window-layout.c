/* tp-window-layout.c: the window's layouts: the six readings tiled, or
 * one alone (the focus layout, the choice kept in the settings), and
 * presenting (F11): the whole screen, every text half as large again.
 *
 * The window fits the screen it is on: it opens no larger than the
 * monitor's work area (the size the last window closed at, else the
 * default, clamped), and its minimum size allows it (the editor's width
 * is the reader's, the teaching panes give up their room when dragged
 * down or hidden with F9), presenting or not.  The editor opens at the
 * width last dragged to (kept in the settings), else at EDITOR_SHARE of
 * the window; the teaching panes at TEACH_SHARE of the height under the
 * controls. */
#include "config.h"

#include <gtk/gtk.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif

#include "tp-window-private.h"

#define EDITOR_SHARE 0.3
#define EDITOR_DEFAULT_MAX 460
#define TEACH_SHARE 0.33
/* a dragged editor width is kept once the drag has paused this long */
#define EDITOR_WIDTH_SAVE_MS 500

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

void
_tp_window_attach_tiled (TpWindow *self,
                         TpPane    p)
{
  gtk_grid_attach (tiled_cells[p].column == 0 ? self->left_grid : self->right_grid, self->panes[p],
                   0, tiled_cells[p].row, 1, tiled_cells[p].height);
}

void
_tp_window_place_panes (TpWindow *self)
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
          _tp_window_attach_tiled (self, (TpPane) p);
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
  _tp_window_place_panes (self);
  g_settings_set_enum (self->settings, "layout", focus ? 1 : 0);
  g_settings_set_enum (self->settings, "focus-pane", (int) pane);
  _tp_window_update_actions (self);
  g_object_notify (G_OBJECT (self), "focus-layout");
}

/* The picture's readable zoom follows the text: the text size over its
 * default, half as large again presenting. */
static void
tp_window_update_text_scale (TpWindow *self)
{
  g_autoptr(GVariant) standard = g_settings_get_default_value (self->settings, "font-size");
  double scale = (double) g_settings_get_int (self->settings, "font-size") / MAX (g_variant_get_int32 (standard), 1);

  tp_picture_view_set_text_scale (TP_PICTURE_VIEW (self->panes[TP_PANE_PICTURE]),
                                  self->presenting ? scale * 1.5 : scale);
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
  tp_window_update_text_scale (self);
  g_object_notify (G_OBJECT (self), "presenting");
}

static void tp_window_fit_monitor (TpWindow *self);

/* Leaving full screen some other way (the window manager) ends the
 * presentation too; left, the window is within its monitor again. */
void
_tp_window_fullscreened_cb (TpWindow *self)
{
  gboolean fullscreen = gtk_window_is_fullscreen (GTK_WINDOW (self));

  if (self->presenting && self->was_fullscreen && !fullscreen)
    tp_window_set_presenting (self, FALSE);
  if (self->was_fullscreen && !fullscreen)
    tp_window_fit_monitor (self);
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

void
_tp_window_switcher_clicked_cb (GtkToggleButton *button,
                                TpWindow        *self)
{
  TpPane pane = (TpPane) GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "pane"));

  if (gtk_toggle_button_get_active (button) && pane != self->focus_pane && self->focus_layout)
    tp_window_set_focus_layout (self, TRUE, pane);
  else if (!gtk_toggle_button_get_active (button) && pane == self->focus_pane)
    gtk_toggle_button_set_active (button, TRUE);
}

/* {==== the screen it is on ====} */

/* The work area of the monitor the window is on (the first monitor
 * before the window system has placed it). */
static gboolean
tp_window_get_workarea (TpWindow     *self,
                        GdkRectangle *area)
{
  GdkDisplay *display = gtk_widget_get_display (GTK_WIDGET (self));
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (self));
  g_autoptr(GdkMonitor) first = NULL;
  GdkMonitor *monitor = surface != NULL ? gdk_display_get_monitor_at_surface (display, surface) : NULL;

  if (monitor == NULL)
    {
      first = g_list_model_get_item (gdk_display_get_monitors (display), 0);
      monitor = first;
    }
  if (monitor == NULL)
    return FALSE;
#ifdef GDK_WINDOWING_X11
  if (GDK_IS_X11_MONITOR (monitor))
    {
      gdk_x11_monitor_get_workarea (monitor, area);
      return area->width > 0 && area->height > 0;
    }
#endif
  gdk_monitor_get_geometry (monitor, area);
  return area->width > 0 && area->height > 0;
}

/* Keeps the window's size within the work area of its monitor: its
 * surface is its size plus the shadow GTK draws around it. */
static void
tp_window_fit_monitor (TpWindow *self)
{
  GdkRectangle area;
  double left = 0, top = 0;
  int width, height, max_width, max_height;

  if (!tp_window_get_workarea (self, &area) || gtk_window_is_fullscreen (GTK_WINDOW (self))
      || gtk_window_is_maximized (GTK_WINDOW (self)))
    return;
  if (gtk_native_get_surface (GTK_NATIVE (self)) != NULL)
    gtk_native_get_surface_transform (GTK_NATIVE (self), &left, &top);
  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  max_width = area.width - 2 * (int) left;
  max_height = area.height - 2 * (int) top;
  if (width > max_width || height > max_height)
    gtk_window_set_default_size (GTK_WINDOW (self), MIN (width, max_width), MIN (height, max_height));
}

static void
tp_window_enter_monitor_cb (TpWindow *self)
{
  tp_window_fit_monitor (self);
}

static void
tp_window_realize_cb (TpWindow *self)
{
  tp_window_fit_monitor (self);
  g_signal_connect_object (gtk_native_get_surface (GTK_NATIVE (self)), "enter-monitor",
                           G_CALLBACK (tp_window_enter_monitor_cb), self, G_CONNECT_SWAPPED);
}

/* {==== the editor's width, the teaching panes' height ====} */

static void
tp_window_set_paned_position (TpWindow *self,
                              GtkPaned *paned,
                              int       position)
{
  self->placing = TRUE;
  gtk_paned_set_position (paned, position);
  self->placing = FALSE;
}

/* Once the window has its width: the editor's width, the one last
 * dragged to or a share of the window. */
static void
tp_window_place_editor (TpWindow *self)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self->paned));
  int kept = g_settings_get_int (self->settings, "editor-width");

  if (self->editor_placed || width <= 1)
    return;
  self->editor_placed = TRUE;
  tp_window_set_paned_position (self, self->paned,
                                kept > 0 ? kept : MIN ((int) (width * EDITOR_SHARE), EDITOR_DEFAULT_MAX));
}

static void
tp_window_save_editor_width_cb (gpointer data)
{
  TpWindow *self = data;

  self->editor_width_source = 0;
  g_settings_set_int (self->settings, "editor-width", gtk_paned_get_position (self->paned));
}

/* A width the reader dragged to is kept for the next window. */
static void
tp_window_editor_moved_cb (TpWindow *self)
{
  if (self->placing || !self->editor_placed)
    return;
  g_clear_handle_id (&self->editor_width_source, g_source_remove);
  self->editor_width_source = g_timeout_add_once (EDITOR_WIDTH_SAVE_MS, tp_window_save_editor_width_cb, self);
}

/* Once the window has its height: the teaching panes' share of it. */
static void
tp_window_place_teach (TpWindow *self)
{
  int height = gtk_widget_get_height (GTK_WIDGET (self->teach_paned));

  if (self->teach_placed || height <= 1)
    return;
  self->teach_placed = TRUE;
  tp_window_set_paned_position (self, self->teach_paned, (int) (height * (1 - TEACH_SHARE)));
}

static gboolean
tp_window_place_panes_cb (gpointer data)
{
  TpWindow *self = data;

  self->place_idle = 0;
  tp_window_place_editor (self);
  tp_window_place_teach (self);
  return G_SOURCE_REMOVE;
}

/* Once the paneds have their size (not from inside their allocation:
 * a position set there allocates their handles twice over). */
static void
tp_window_paned_sized_cb (TpWindow *self)
{
  if ((!self->editor_placed || !self->teach_placed) && self->place_idle == 0)
    self->place_idle = g_idle_add_full (G_PRIORITY_HIGH_IDLE, tp_window_place_panes_cb, self, NULL);
}

/* The teaching panes shown or not (F9); showing one of them (Alt+7 to
 * Alt+0) shows them.  Hidden, their room is the readings'. */
void
tp_window_set_teaching (TpWindow *self,
                        gboolean  teaching)
{
  g_return_if_fail (TP_IS_WINDOW (self));

  if (gtk_widget_get_visible (GTK_WIDGET (self->teach_panel)) == !!teaching)
    return;
  gtk_widget_set_visible (GTK_WIDGET (self->teach_panel), teaching);
  g_object_notify (G_OBJECT (self), "teaching");
}

gboolean
tp_window_get_teaching (TpWindow *self)
{
  g_return_val_if_fail (TP_IS_WINDOW (self), FALSE);

  /* (asked by the action before the template is built, too) */
  return self->teach_panel == NULL || gtk_widget_get_visible (GTK_WIDGET (self->teach_panel));
}

/* The editor wraps long lines (a comment, a sample's `# train it:` line)
 * at its width, by default; the choice is kept in the settings. */
static gboolean
wrap_from_setting (GValue   *value,
                   GVariant *variant,
                   gpointer  data)
{
  g_value_set_enum (value, g_variant_get_boolean (variant) ? GTK_WRAP_WORD_CHAR : GTK_WRAP_NONE);
  return TRUE;
}

static GVariant *
wrap_to_setting (const GValue       *value,
                 const GVariantType *type,
                 gpointer            data)
{
  return g_variant_new_boolean (g_value_get_enum (value) != GTK_WRAP_NONE);
}

void
_tp_window_init_layout (TpWindow *self)
{
  g_autoptr(GAction) wrap = g_settings_create_action (self->settings, "editor-wrap");

  g_signal_connect (self, "realize", G_CALLBACK (tp_window_realize_cb), NULL);
  g_signal_connect_object (self->paned, "notify::max-position",
                           G_CALLBACK (tp_window_paned_sized_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->teach_paned, "notify::max-position",
                           G_CALLBACK (tp_window_paned_sized_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->paned, "notify::position",
                           G_CALLBACK (tp_window_editor_moved_cb), self, G_CONNECT_SWAPPED);
  g_settings_bind_with_mapping (self->settings, "editor-wrap", tp_editor_get_view (self->editor), "wrap-mode",
                                G_SETTINGS_BIND_GET, wrap_from_setting, wrap_to_setting, NULL, NULL);
  g_action_map_add_action (G_ACTION_MAP (self), wrap);
  g_signal_connect_object (self->settings, "changed::font-size",
                           G_CALLBACK (tp_window_update_text_scale), self, G_CONNECT_SWAPPED);
  tp_window_update_text_scale (self);
}
