/* tp-picture-canvas.c: the picture pane's canvas (see
 * tp-picture-canvas.h).  It only puts on screen what the pane has
 * made: the raster of the picture shown (cut into tiles,
 * tp-picture-raster.c), the step-through's node states and the
 * selected node's box, drawn on top, so a selection never costs a
 * raster. */
#include "config.h"

#include "tp-picture-view-private.h"

G_DEFINE_FINAL_TYPE (TpPictureCanvas, tp_picture_canvas, GTK_TYPE_WIDGET)

/* TRUE when the window draws with GSK's cairo renderer. */
static gboolean
tp_picture_canvas_draws_with_cairo (TpPictureView *self)
{
  GtkNative *native = gtk_widget_get_native (GTK_WIDGET (self));
  GskRenderer *renderer = native != NULL ? gtk_native_get_renderer (native) : NULL;

  return renderer != NULL && GSK_IS_CAIRO_RENDERER (renderer);
}

/* The step-through's node states over the raster. */
static void
tp_picture_canvas_draw_states (TpPictureView *self,
                               GtkSnapshot   *snapshot,
                               double         scale,
                               double         ox,
                               double         oy)
{
  const GdkRGBA veil = { 1.0f, 1.0f, 1.0f, 0.62f };
  const GdkRGBA grey = { 0.45f, 0.45f, 0.45f, 0.40f };
  const GdkRGBA live = { 0.15f, 0.64f, 0.41f, 1.0f };
  const GdkRGBA strong = { 0.57f, 0.25f, 0.67f, 1.0f };

  for (guint node = 0; node < self->n_node_states; node++)
    {
      guint8 state = self->node_states[node];
      double x, y, w, h, line = MAX (2.0, 1.0 * scale);
      graphene_rect_t box;
      GskRoundedRect outline;
      const GdkRGBA *edge = NULL;

      if (state == 0 || !tp_picture_layout_node_bounds (self->layout, (int) node, &x, &y, &w, &h))
        continue;
      box = GRAPHENE_RECT_INIT ((float) (ox + x * scale), (float) (oy + y * scale),
                                (float) (w * scale), (float) (h * scale));
      switch (state & ~TP_PICTURE_NODE_EMPHASIS)
        {
        case TP_NODE_PENDING:
          gtk_snapshot_append_color (snapshot, &veil, &box);
          break;
        case TP_NODE_FREED:
          gtk_snapshot_append_color (snapshot, &grey, &box);
          break;
        case TP_NODE_LIVE:
          edge = &live;
          break;
        default:
          break;
        }
      if (state & TP_PICTURE_NODE_EMPHASIS)
        {
          edge = &strong;
          line *= 2;
        }
      if (edge == NULL)
        continue;
      graphene_rect_inset (&box, (float) (-line / 2), (float) (-line / 2));
      gsk_rounded_rect_init_from_rect (&outline, &box, 0);
      gtk_snapshot_append_border (snapshot, &outline,
                                  (const float[4]) { (float) line, (float) line, (float) line, (float) line },
                                  (const GdkRGBA[4]) { *edge, *edge, *edge, *edge });
    }
}

/* The picture shown, where the pane has it: its raster, the
 * step-through's node states, the selected node's box. */
static void
tp_picture_canvas_draw_picture (TpPictureView *self,
                                GtkSnapshot   *snapshot)
{
  int width = self->canvas->width;
  int height = self->canvas->height;
  double device = gtk_widget_get_scale_factor (GTK_WIDGET (self->canvas));
  TpPictureRaster *r = self->raster;
  double scale, ox, oy, x, y, w, h;
  int node;

  if (self->layout == NULL || width <= 0 || height <= 0)
    return;
  _tp_picture_view_get_transform (self, &scale, &ox, &oy);
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, 0, (float) width, (float) height));

  if (r != NULL && tp_picture_raster_get_layout (r) == self->layout)
    tp_picture_raster_snapshot (r, snapshot, scale, ox, oy, width, height, device,
                                tp_picture_canvas_draws_with_cairo (self));

  tp_picture_canvas_draw_states (self, snapshot, scale, ox, oy);
  /* the selected node: cheap, drawn on top, never rasterized */
  node = self->document != NULL ? tp_document_get_selected_node (self->document) : -1;
  if (node >= 0 && tp_picture_layout_node_bounds (self->layout, node, &x, &y, &w, &h))
    {
      const double pad = 4;
      double line = MAX (3.0, 1.5 * scale);    /* 3 canvas pixels, at least 1.5 picture pixels */
      const GdkRGBA fill = { 0.96f, 0.62f, 0.04f, 0.25f };
      const GdkRGBA edge = { 0.90f, 0.45f, 0.0f, 1.0f };
      graphene_rect_t box = GRAPHENE_RECT_INIT ((float) (ox + (x - pad) * scale), (float) (oy + (y - pad) * scale),
                                                (float) ((w + 2 * pad) * scale), (float) ((h + 2 * pad) * scale));
      GskRoundedRect outline;

      gtk_snapshot_append_color (snapshot, &fill, &box);
      /* the line is centred on the box's edge, as a stroke would be */
      graphene_rect_inset (&box, (float) (-line / 2), (float) (-line / 2));
      gsk_rounded_rect_init_from_rect (&outline, &box, 0);
      gtk_snapshot_append_border (snapshot, &outline,
                                  (const float[4]) { (float) line, (float) line, (float) line, (float) line },
                                  (const GdkRGBA[4]) { edge, edge, edge, edge });
    }
  gtk_snapshot_pop (snapshot);
}

static void
tp_picture_canvas_snapshot (GtkWidget   *widget,
                            GtkSnapshot *snapshot)
{
  TpPictureCanvas *self = TP_PICTURE_CANVAS (widget);

  if (self->view != NULL)
    tp_picture_canvas_draw_picture (self->view, snapshot);
}

static void
tp_picture_canvas_size_allocate (GtkWidget *widget,
                                 int        width,
                                 int        height,
                                 int        baseline)
{
  TpPictureCanvas *self = TP_PICTURE_CANVAS (widget);

  self->width = width;
  self->height = height;
  self->allocated = TRUE;
  if (self->view != NULL)
    _tp_picture_view_update_raster (self->view);
}

static void
tp_picture_canvas_map (GtkWidget *widget)
{
  TpPictureCanvas *self = TP_PICTURE_CANVAS (widget);

  GTK_WIDGET_CLASS (tp_picture_canvas_parent_class)->map (widget);
  if (self->view != NULL)
    {
      _tp_picture_view_update_raster (self->view);
      _tp_picture_view_update_busy (self->view);
    }
}

static void
tp_picture_canvas_unmap (GtkWidget *widget)
{
  TpPictureCanvas *self = TP_PICTURE_CANVAS (widget);

  GTK_WIDGET_CLASS (tp_picture_canvas_parent_class)->unmap (widget);
  if (self->view != NULL)
    _tp_picture_view_update_busy (self->view);
}

static void
tp_picture_canvas_class_init (TpPictureCanvasClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  widget_class->snapshot = tp_picture_canvas_snapshot;
  widget_class->size_allocate = tp_picture_canvas_size_allocate;
  widget_class->map = tp_picture_canvas_map;
  widget_class->unmap = tp_picture_canvas_unmap;
  gtk_widget_class_set_css_name (widget_class, "picturecanvas");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
tp_picture_canvas_init (TpPictureCanvas *self)
{
}
