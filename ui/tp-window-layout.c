/* tp-window-layout.c: the window's layouts: the six readings tiled, or
 * one alone (the focus layout, the choice kept in the settings), and
 * presenting (F11): the whole screen, every text half as large again. */
#include "config.h"

#include "tp-window-private.h"

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
  g_object_notify (G_OBJECT (self), "presenting");
}

/* Leaving full screen some other way (the window manager) ends the
 * presentation too. */
void
_tp_window_fullscreened_cb (TpWindow *self)
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
