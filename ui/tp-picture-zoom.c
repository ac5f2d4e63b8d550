/* tp-picture-zoom.c: where the picture sits on the canvas, and the zoom
 * and pan that move it.
 *
 * A picture opens fitted when a node's first label line comes out
 * readable so (READABLE_LABEL_PX, times the text's scale), else its
 * forward band fitted when that is readable, else at the readable zoom
 * around the selection or the target; fitting never enlarges a small
 * graph past MAX_FIT_SCALE (more when the picture is shown alone).  The reader zooms with Ctrl+scroll,
 * the buttons or Ctrl+plus and Ctrl+minus in the picture, pans by
 * dragging, scrolling or with the arrows, fits with a double-click, and
 * selects a node with a click. */
#include "config.h"

#include <math.h>

#include "tp-picture-view-private.h"

/* Fitting never enlarges a small graph past this (tiled), or past
 * MAX_FIT_SCALE_PRESENTING when the picture is shown alone, for slides. */
#define MAX_FIT_SCALE 1.5
#define MAX_FIT_SCALE_PRESENTING 3.0
#define MIN_SCALE 0.05
#define MAX_SCALE 12.0
#define MARGIN 8.0
/* A picture opens at a zoom where a node's first label line (its index
 * and op, TP_SCREEN_LABEL_PT) is this many pixels tall: fitted when that
 * fits, else around the target, the rest a pan away. */
/* the engine's (tp_defaults), as the page's */
#define READABLE_LABEL_PX ((double) tp_defaults ()->readable_label_px)
/* Room around the forward band when it is fitted, picture pixels. */
#define BAND_MARGIN 12.0

/* The box of @layout's forward band (its nodes before the spec's node
 * count: the program, the gradient being appended after it), in picture
 * pixels; FALSE when it has no such node. */
static gboolean
tp_picture_view_forward_band (TpPictureView   *self,
                              TpPictureLayout *layout,
                              double          *x,
                              double          *y,
                              double          *w,
                              double          *h)
{
  guint n = layout == self->layout ? self->spec_nodes : self->next_spec_nodes;
  double x0 = G_MAXDOUBLE, y0 = G_MAXDOUBLE, x1 = -G_MAXDOUBLE, y1 = -G_MAXDOUBLE;

  for (guint node = 0; node < n && node <= G_MAXINT; node++)
    {
      double bx, by, bw, bh;

      if (!tp_picture_layout_node_bounds (layout, (int) node, &bx, &by, &bw, &bh))
        continue;
      x0 = MIN (x0, bx);
      y0 = MIN (y0, by);
      x1 = MAX (x1, bx + bw);
      y1 = MAX (y1, by + bh);
    }
  if (x1 < x0)
    return FALSE;
  *x = x0 - BAND_MARGIN;
  *y = y0 - BAND_MARGIN;
  *w = x1 - x0 + 2 * BAND_MARGIN;
  *h = y1 - y0 + 2 * BAND_MARGIN;
  return TRUE;
}

/* Puts picture point (@cx, @cy) in the middle of the canvas at @scale,
 * with no gap at an edge that need not be. */
static void
tp_picture_view_centre (double  w,
                        double  h,
                        double  lw,
                        double  lh,
                        double  scale,
                        double  cx,
                        double  cy,
                        double *ox,
                        double *oy)
{
  *ox = lw * scale <= w - 2 * MARGIN ? (w - lw * scale) / 2
        : CLAMP (w / 2 - cx * scale, w - MARGIN - lw * scale, MARGIN);
  *oy = lh * scale <= h - 2 * MARGIN ? (h - lh * scale) / 2
        : CLAMP (h / 2 - cy * scale, h - MARGIN - lh * scale, MARGIN);
}

/* The transform from @layout's picture pixels to canvas pixels.  Fitted
 * (a new picture, Fit once), it shows what can be read, at a zoom where
 * a node's first label line is at least READABLE_LABEL_PX times the text
 * scale tall: the whole picture when it is readable so, else the
 * forward band fitted when that is (and the node selected when Fit was
 * pressed, if any, is in it), else the readable zoom around that node,
 * else around the target.  Fit again shows the whole picture, however small. */
void
_tp_picture_view_get_transform_for (TpPictureView   *self,
                                    TpPictureLayout *layout,
                                    double          *scale,
                                    double          *ox,
                                    double          *oy)
{
  double w = self->canvas != NULL ? self->canvas->width : 0;
  double h = self->canvas != NULL ? self->canvas->height : 0;
  double lw, lh;

  if (layout == NULL)
    {
      *scale = 1;
      *ox = *oy = 0;
      return;
    }
  lw = tp_picture_layout_get_width (layout);
  lh = tp_picture_layout_get_height (layout);
  if (self->fit || (self->place_next && layout == self->next_layout))
    {
      gboolean keep_readable = self->place_next && layout == self->next_layout ? TRUE : self->readable;
      double readable = READABLE_LABEL_PX * self->text_scale / (TP_SCREEN_LABEL_PT * TP_PICTURE_PX_PER_PT);
      double most = self->presenting ? MAX_FIT_SCALE_PRESENTING : MAX_FIT_SCALE;
      double bx, by, bw, bh, band;
      gboolean selected = layout == self->layout && self->fit_node >= 0
                          && tp_picture_layout_node_bounds (layout, self->fit_node, &bx, &by, &bw, &bh);
      double sx = bx + bw / 2, sy = by + bh / 2;

      *scale = MIN (MIN ((w - 2 * MARGIN) / lw, (h - 2 * MARGIN) / lh), MAX (most, readable));
      *scale = MAX (*scale, MIN_SCALE);
      *ox = (w - lw * *scale) / 2;
      *oy = (h - lh * *scale) / 2;
      if (!keep_readable || *scale >= readable)
        return;
      if (tp_picture_view_forward_band (self, layout, &bx, &by, &bw, &bh)
          && (band = MIN ((w - 2 * MARGIN) / bw, (h - 2 * MARGIN) / bh)) >= readable
          && (!selected || (sx >= bx && sx <= bx + bw && sy >= by && sy <= by + bh)))
        {
          /* the forward band, fitted */
          *scale = MIN (band, MAX (most, readable));
          tp_picture_view_centre (w, h, lw, lh, *scale, bx + bw / 2, by + bh / 2, ox, oy);
          return;
        }
      /* readable around the selected node, else the target (else from
       * the top) */
      *scale = readable;
      if (!selected)
        {
          sx = lw / 2;
          sy = 0;
          if (tp_picture_layout_node_bounds (layout, tp_picture_layout_get_target (layout), &bx, &by, &bw, &bh))
            {
              sx = bx + bw / 2;
              sy = by + bh / 2;
            }
        }
      tp_picture_view_centre (w, h, lw, lh, *scale, sx, sy, ox, oy);
    }
  else
    {
      *scale = self->scale;
      *ox = self->offset_x;
      *oy = self->offset_y;
    }
}

/* The transform of the picture shown. */
void
_tp_picture_view_get_transform (TpPictureView *self,
                               double        *scale,
                               double        *ox,
                               double        *oy)
{
  _tp_picture_view_get_transform_for (self, self->layout, scale, ox, oy);
}

/* Zooms by @factor about the canvas point (@cx, @cy). */
static void
tp_picture_view_zoom_at (TpPictureView *self,
                         double         factor,
                         double         cx,
                         double         cy)
{
  double scale, ox, oy, next;

  _tp_picture_view_get_transform (self, &scale, &ox, &oy);
  next = CLAMP (scale * factor, MIN_SCALE, MAX_SCALE);
  self->offset_x = cx - (cx - ox) * next / scale;
  self->offset_y = cy - (cy - oy) * next / scale;
  self->scale = next;
  self->fit = FALSE;
  _tp_picture_view_moved (self);
}

/* Zooms about the middle of the canvas (the buttons, and Ctrl+plus or
 * Ctrl+minus while the picture has the keyboard focus). */
void
tp_picture_view_zoom_in (TpPictureView *self)
{
  g_return_if_fail (TP_IS_PICTURE_VIEW (self));

  tp_picture_view_zoom_at (self, 1.25,
                           gtk_widget_get_width (GTK_WIDGET (self->canvas)) / 2.0,
                           gtk_widget_get_height (GTK_WIDGET (self->canvas)) / 2.0);
}

void
tp_picture_view_zoom_out (TpPictureView *self)
{
  g_return_if_fail (TP_IS_PICTURE_VIEW (self));

  tp_picture_view_zoom_at (self, 0.8,
                           gtk_widget_get_width (GTK_WIDGET (self->canvas)) / 2.0,
                           gtk_widget_get_height (GTK_WIDGET (self->canvas)) / 2.0);
}

/* The arrows pan the picture that has the keyboard focus, a tenth of
 * the canvas a press (Shift: half). */
static gboolean
tp_picture_view_key_cb (TpPictureView         *self,
                        guint                  keyval,
                        guint                  keycode,
                        GdkModifierType        state,
                        GtkEventControllerKey *controller)
{
  double scale, ox, oy, dx = 0, dy = 0;
  double step = (state & GDK_SHIFT_MASK) ? 0.5 : 0.1;

  if (state & (GDK_CONTROL_MASK | GDK_ALT_MASK))
    return FALSE;
  switch (keyval)
    {
    case GDK_KEY_Left:
    case GDK_KEY_KP_Left:
      dx = 1;
      break;
    case GDK_KEY_Right:
    case GDK_KEY_KP_Right:
      dx = -1;
      break;
    case GDK_KEY_Up:
    case GDK_KEY_KP_Up:
      dy = 1;
      break;
    case GDK_KEY_Down:
    case GDK_KEY_KP_Down:
      dy = -1;
      break;
    default:
      return FALSE;
    }
  if (self->layout == NULL)
    return TRUE;
  _tp_picture_view_get_transform (self, &scale, &ox, &oy);
  self->scale = scale;
  self->offset_x = ox + dx * step * gtk_widget_get_width (GTK_WIDGET (self->canvas));
  self->offset_y = oy + dy * step * gtk_widget_get_height (GTK_WIDGET (self->canvas));
  self->fit = FALSE;
  _tp_picture_view_moved (self);
  return TRUE;
}

/* Where the picture's origin is on the canvas, in widget pixels. */
void
tp_picture_view_get_offset (TpPictureView *self,
                            double        *x,
                            double        *y)
{
  double scale;

  g_return_if_fail (TP_IS_PICTURE_VIEW (self));

  _tp_picture_view_get_transform (self, &scale, x, y);
}

/* Fit (the button, Ctrl+0 in the picture, a double-click): what can be
 * read fitted (see the transform above), around the node selected then;
 * pressed again at once, the whole picture, however small; again, what
 * can be read. */
void
tp_picture_view_zoom_fit (TpPictureView *self)
{
  g_return_if_fail (TP_IS_PICTURE_VIEW (self));

  if (self->fit && self->fit_pressed && self->readable)
    self->readable = FALSE;
  else
    {
      self->readable = TRUE;
      self->fit_node = self->document != NULL ? tp_document_get_selected_node (self->document) : -1;
    }
  self->fit = TRUE;
  self->fit_pressed = TRUE;
  self->place_next = FALSE;
  _tp_picture_view_moved (self);
}

/* The text's scale (the text size over its default, half as large
 * again presenting): the readable zoom grows with it, and a picture the
 * reader zoomed grows as the text does, about the canvas's middle. */
void
tp_picture_view_set_text_scale (TpPictureView *self,
                                double         scale)
{
  double factor;

  g_return_if_fail (TP_IS_PICTURE_VIEW (self));
  g_return_if_fail (scale > 0);

  if (self->text_scale == scale)
    return;
  factor = scale / self->text_scale;
  self->text_scale = scale;
  if (!self->fit && self->layout != NULL)
    tp_picture_view_zoom_at (self, factor,
                             gtk_widget_get_width (GTK_WIDGET (self->canvas)) / 2.0,
                             gtk_widget_get_height (GTK_WIDGET (self->canvas)) / 2.0);
  else
    _tp_picture_view_moved (self);
}

/* The height of a node's first label line the picture opens (and fits)
 * at, at the least, in canvas pixels. */
double
tp_picture_view_get_readable_height (TpPictureView *self)
{
  g_return_val_if_fail (TP_IS_PICTURE_VIEW (self), 0);

  return READABLE_LABEL_PX * self->text_scale;
}

/* One picture pixel per canvas pixel (a node's first line is then
 * TP_SCREEN_LABEL_PT points at 96 dpi), about the middle of the canvas. */
void
tp_picture_view_zoom_actual (TpPictureView *self)
{
  double scale, ox, oy;

  g_return_if_fail (TP_IS_PICTURE_VIEW (self));

  _tp_picture_view_get_transform (self, &scale, &ox, &oy);
  tp_picture_view_zoom_at (self, 1.0 / scale,
                           gtk_widget_get_width (GTK_WIDGET (self->canvas)) / 2.0,
                           gtk_widget_get_height (GTK_WIDGET (self->canvas)) / 2.0);
}

/* A new program is opened: its picture, when it comes, opens fitted if
 * it is readable so, else at the readable zoom around its target; the
 * picture shown until then stays where it is. */
void
tp_picture_view_place_next (TpPictureView *self)
{
  g_return_if_fail (TP_IS_PICTURE_VIEW (self));

  self->place_next = TRUE;
  self->fit_node = -1;
}

/* The height in canvas pixels of a node's first label line as shown:
 * TP_SCREEN_LABEL_PT points at 96 dpi, times the zoom. */
double
tp_picture_view_get_label_height (TpPictureView *self)
{
  g_return_val_if_fail (TP_IS_PICTURE_VIEW (self), 0);

  return TP_SCREEN_LABEL_PT * TP_PICTURE_PX_PER_PT * tp_picture_view_get_scale (self);
}

/* Shown alone (the focus layout, for slides): fitting may enlarge a
 * small graph further. */
void
tp_picture_view_set_presenting (TpPictureView *self,
                                gboolean       presenting)
{
  g_return_if_fail (TP_IS_PICTURE_VIEW (self));

  self->presenting = !!presenting;
  _tp_picture_view_moved (self);
}

static gboolean
tp_picture_view_scroll_cb (TpPictureView            *self,
                           double                    dx,
                           double                    dy,
                           GtkEventControllerScroll *scroll)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (scroll));
  double scale, ox, oy;

  if (self->layout == NULL)
    return FALSE;
  if (mods & GDK_CONTROL_MASK)
    {
      double x = gtk_widget_get_width (GTK_WIDGET (self->canvas)) / 2.0;
      double y = gtk_widget_get_height (GTK_WIDGET (self->canvas)) / 2.0;
      GdkEvent *event = gtk_event_controller_get_current_event (GTK_EVENT_CONTROLLER (scroll));

      if (event != NULL)
        {
          double wx, wy;
          graphene_point_t p;

          if (gdk_event_get_position (event, &wx, &wy)
              && gtk_widget_compute_point (GTK_WIDGET (gtk_widget_get_native (GTK_WIDGET (self))),
                                           GTK_WIDGET (self->canvas),
                                           &GRAPHENE_POINT_INIT ((float) wx, (float) wy), &p))
            {
              x = p.x;
              y = p.y;
            }
        }
      tp_picture_view_zoom_at (self, dy < 0 ? 1.1 : 1 / 1.1, x, y);
      return TRUE;
    }
  _tp_picture_view_get_transform (self, &scale, &ox, &oy);
  self->scale = scale;
  self->offset_x = ox - dx * 40;
  self->offset_y = oy - dy * 40;
  self->fit = FALSE;
  _tp_picture_view_moved (self);
  return TRUE;
}

static void
tp_picture_view_drag_begin_cb (TpPictureView  *self,
                               double          x,
                               double          y,
                               GtkGestureDrag *drag)
{
  double scale;

  _tp_picture_view_get_transform (self, &scale, &self->drag_x, &self->drag_y);
  self->dragged = FALSE;
}

static void
tp_picture_view_drag_update_cb (TpPictureView  *self,
                                double          dx,
                                double          dy,
                                GtkGestureDrag *drag)
{
  double scale, ox, oy;

  if (self->layout == NULL || (!self->dragged && dx * dx + dy * dy < 16))
    return;
  if (!self->dragged)
    {
      _tp_picture_view_get_transform (self, &scale, &ox, &oy);
      self->scale = scale;
      self->dragged = TRUE;
    }
  self->fit = FALSE;
  self->offset_x = self->drag_x + dx;
  self->offset_y = self->drag_y + dy;
  _tp_picture_view_moved (self);
}

static void
tp_picture_view_click_cb (TpPictureView   *self,
                          int              n_press,
                          double           x,
                          double           y,
                          GtkGestureClick *click)
{
  double scale, ox, oy;

  gtk_widget_grab_focus (GTK_WIDGET (self->canvas));
  if (self->layout == NULL || self->document == NULL || self->dragged)
    return;
  if (n_press == 2)
    {
      tp_picture_view_zoom_fit (self);
      return;
    }
  _tp_picture_view_get_transform (self, &scale, &ox, &oy);
  tp_document_set_selected_node (self->document,
                                 tp_picture_layout_node_at (self->layout, (x - ox) / scale, (y - oy) / scale));
}

/* Canvas pixels per picture pixel, as shown. */
double
tp_picture_view_get_scale (TpPictureView *self)
{
  double scale, ox, oy;

  g_return_val_if_fail (TP_IS_PICTURE_VIEW (self), 1.0);

  _tp_picture_view_get_transform (self, &scale, &ox, &oy);
  return scale;
}

/* Where the centre of @node's box is on the canvas, in canvas
 * coordinates (for tests); FALSE when the node is not drawn. */
gboolean
tp_picture_view_get_node_center (TpPictureView *self,
                                 int            node,
                                 double        *x,
                                 double        *y)
{
  double scale, ox, oy, bx, by, bw, bh;

  g_return_val_if_fail (TP_IS_PICTURE_VIEW (self), FALSE);

  if (self->layout == NULL || !tp_picture_layout_node_bounds (self->layout, node, &bx, &by, &bw, &bh))
    return FALSE;
  _tp_picture_view_get_transform (self, &scale, &ox, &oy);
  *x = ox + (bx + bw / 2) * scale;
  *y = oy + (by + bh / 2) * scale;
  return TRUE;
}

/* The canvas's zoom and pan: scrolling, the keys, dragging, clicking. */
void
_tp_picture_view_init_input (TpPictureView *self)
{
  GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  GtkEventController *keys = gtk_event_controller_key_new ();
  GtkGesture *drag = gtk_gesture_drag_new ();
  GtkGesture *click = gtk_gesture_click_new ();

  g_signal_connect_object (scroll, "scroll", G_CALLBACK (tp_picture_view_scroll_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->canvas), scroll);
  g_signal_connect_object (keys, "key-pressed", G_CALLBACK (tp_picture_view_key_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->canvas), keys);
  g_signal_connect_object (drag, "drag-begin", G_CALLBACK (tp_picture_view_drag_begin_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (drag, "drag-update", G_CALLBACK (tp_picture_view_drag_update_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->canvas), GTK_EVENT_CONTROLLER (drag));
  g_signal_connect_object (click, "released", G_CALLBACK (tp_picture_view_click_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->canvas), GTK_EVENT_CONTROLLER (click));
}
