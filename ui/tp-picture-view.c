/* tp-picture-view.c: the picture pane.
 *
 * Shows the layout of the document's DOT reading.  A new layout is asked
 * for whenever the DOT text changes and the pane is on screen (a hidden
 * pane asks when it is shown again); the request in flight is cancelled
 * and the old picture stays up until the new one is ready, so the pane
 * never flashes while a line is half typed.  The layout is vector data,
 * drawn at whatever scale the pane needs.  The picture fits the pane
 * until the reader zooms (Ctrl+scroll or the buttons) or pans (drag or
 * scroll); a click selects a node for the cross-reading highlight.
 *
 * This file is the canvas: the widget, zoom and pan, the selection and
 * hit tests, and which raster to ask for when.  The rasters themselves,
 * drawn off the main thread at the scale shown (typing must never wait
 * for a big picture to be drawn), are tp-picture-raster.c; the canvas
 * only puts one on screen, plus the selected node's box, drawn on top: a
 * selection never costs a raster.  A raster covers the part of the
 * picture on the canvas and a margin around it, within TP_RASTER_MAX_SIDE
 * and TP_RASTER_MAX_PIXELS, so a deep zoom stays cheap; a pan that nears
 * its edge, a zoom or a resize asks for a new one, one at a time, and
 * until it comes the old raster is shown scaled and moved to where it
 * belongs.  A new layout is shown only with its first raster (until then
 * the old picture stays, and the pane is busy), so hit tests, the
 * highlight and the picture always agree; that first raster holds only
 * what is on the canvas, to be quick, and the margin follows. */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "tp-document.h"
#include "tp-picture-worker.h"
#include "tp-picture-raster.h"
#include "tp-picture-screen.h"
#include "tp-picture-view.h"

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
#define READABLE_LABEL_PX 10.0
/* Picture pixels per point (96 dpi). */
#define PX_PER_PT (96.0 / 72.0)
/* A layout that takes longer than this marks the picture stale. */
#define STALE_AFTER_MS 300

/* The canvas: draws what the view gives it, and tells the view when its
 * size or visibility changes. */
#define TP_TYPE_PICTURE_CANVAS (tp_picture_canvas_get_type ())
G_DECLARE_FINAL_TYPE (TpPictureCanvas, tp_picture_canvas, TP, PICTURE_CANVAS, GtkWidget)

struct _TpPictureCanvas
{
  GtkWidget parent_instance;

  TpPictureView *view;          /* unowned; NULL once the view is disposed */
  int width;                    /* as last allocated; 0 before */
  int height;
  gboolean allocated;
};

G_DEFINE_FINAL_TYPE (TpPictureCanvas, tp_picture_canvas, GTK_TYPE_WIDGET)

struct _TpPictureView
{
  GtkWidget parent_instance;

  /* Template widgets */
  GtkWidget *box;
  GtkLabel *title_label;
  GtkLabel *stale_label;
  GtkLabel *degraded_label;
  gboolean reduced;             /* the engine reduced the DOT being shown */
  GtkWidget *export_button;
  GtkWidget *focus_button;
  GtkWidget *legend_button;
  GtkDrawingArea *legend_area;
  TpPictureCanvas *canvas;
  GtkLabel *message;

  /* Owned references */
  TpDocument *document;
  TpPictureWorker *worker;      /* the application's; lays the pictures out */
  TpPictureLayout *layout;      /* the picture shown */
  TpPictureLayout *next_layout; /* laid out, shown with its first raster */
  GCancellable *cancellable;    /* the layout in flight */
  char *dot;                    /* the DOT shown or asked for */
  TpPictureLayout *legend;      /* the legend of the picture shown */
  guint stale_timeout;          /* marks a slow layout stale */
  TpPictureRaster *raster;      /* of `layout`, or NULL */
  GCancellable *raster_cancellable;     /* the raster in flight */
  TpPictureLayout *raster_layout;       /* its layout */
  guint raster_generation;      /* of the raster in flight; 0 when none */
  guint n_generations;          /* rasters started */
  guint install_idle;           /* shows a next layout with nothing on the canvas */

  guint8 *node_states;          /* the step-through's, or NULL */
  guint n_node_states;

  double scale;                 /* when not fitting */
  double offset_x;              /* widget pixels */
  double offset_y;
  double drag_x;
  double drag_y;
  guint fit : 1;
  guint readable : 1;           /* fitting, but never below the readable zoom */
  guint place_next : 1;         /* the next layout opens readable */
  guint laying_out_stale : 1;   /* a layout has taken past STALE_AFTER_MS */
  guint busy : 1;
  guint dragged : 1;
  guint pending : 1;            /* dot waits for the pane to be shown */
  guint presenting : 1;         /* shown alone: fit may enlarge more */
};

G_DEFINE_FINAL_TYPE (TpPictureView, tp_picture_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_DOCUMENT,
  PROP_BUSY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The transform from @layout's picture pixels to canvas pixels. */
static void
tp_picture_view_get_transform_for (TpPictureView   *self,
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
      double readable = READABLE_LABEL_PX / (TP_SCREEN_LABEL_PT * PX_PER_PT);
      double bx, by, bw, bh;
      int target = tp_picture_layout_get_target (layout);

      *scale = MIN (MIN ((w - 2 * MARGIN) / lw, (h - 2 * MARGIN) / lh),
                    self->presenting ? MAX_FIT_SCALE_PRESENTING : MAX_FIT_SCALE);
      *scale = MAX (*scale, MIN_SCALE);
      *ox = (w - lw * *scale) / 2;
      *oy = (h - lh * *scale) / 2;
      if (keep_readable && *scale < readable)
        {
          /* too small to read whole: readable, around the target (else
           * from the top), and no gap at an edge that need not be */
          double cx = lw / 2, cy = 0;

          *scale = readable;
          if (tp_picture_layout_node_bounds (layout, target, &bx, &by, &bw, &bh))
            {
              cx = bx + bw / 2;
              cy = by + bh / 2;
            }
          *ox = lw * *scale <= w - 2 * MARGIN ? (w - lw * *scale) / 2
                : CLAMP (w / 2 - cx * *scale, w - MARGIN - lw * *scale, MARGIN);
          *oy = lh * *scale <= h - 2 * MARGIN ? (h - lh * *scale) / 2
                : CLAMP (h / 2 - cy * *scale, h - MARGIN - lh * *scale, MARGIN);
        }
    }
  else
    {
      *scale = self->scale;
      *ox = self->offset_x;
      *oy = self->offset_y;
    }
}

/* The transform of the picture shown. */
static void
tp_picture_view_get_transform (TpPictureView *self,
                               double        *scale,
                               double        *ox,
                               double        *oy)
{
  tp_picture_view_get_transform_for (self, self->layout, scale, ox, oy);
}

static void
tp_picture_view_set_busy (TpPictureView *self,
                          gboolean       busy)
{
  if (self->busy == !!busy)
    return;
  self->busy = !!busy;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

/* The stale badge: the program is refused (the document is stale), or
 * the picture shown is an older program's and the new one's layout has
 * taken a while (a quick one would only make the badge blink). */
static void
tp_picture_view_update_stale (TpPictureView *self)
{
  gboolean refused = self->document != NULL && tp_document_get_stale (self->document);
  gboolean stale = refused || (self->laying_out_stale && self->layout != NULL);

  gtk_widget_set_visible (GTK_WIDGET (self->stale_label), stale);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->stale_label),
                               refused ? _("The program is refused; this is the last picture that worked")
                                       : _("The picture of the current program is being laid out; this is the last one"));
  if (stale)
    gtk_widget_add_css_class (GTK_WIDGET (self), "stale");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "stale");
}

static gboolean
tp_picture_view_stale_timeout_cb (gpointer data)
{
  TpPictureView *self = data;

  self->stale_timeout = 0;
  self->laying_out_stale = TRUE;
  tp_picture_view_update_stale (self);
  return G_SOURCE_REMOVE;
}

/* Busy while the newest DOT's layout is being made, and then until its
 * first raster is on the canvas (a hidden canvas waits for nothing). */
static void
tp_picture_view_update_busy (TpPictureView *self)
{
  gboolean busy = self->cancellable != NULL
                  || (self->next_layout != NULL && self->canvas != NULL
                      && gtk_widget_get_mapped (GTK_WIDGET (self->canvas)));

  tp_picture_view_set_busy (self, busy);
  if (busy && self->stale_timeout == 0 && !self->laying_out_stale)
    self->stale_timeout = g_timeout_add (STALE_AFTER_MS, tp_picture_view_stale_timeout_cb, self);
  else if (!busy)
    {
      g_clear_handle_id (&self->stale_timeout, g_source_remove);
      if (self->laying_out_stale)
        {
          self->laying_out_stale = FALSE;
          tp_picture_view_update_stale (self);
        }
    }
}

static void
tp_picture_view_show_message (TpPictureView *self,
                              const char    *message)
{
  gtk_label_set_label (self->message, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->message), message != NULL);
}

/* The areas of @layout for a raster (tp_raster_get_areas), as the canvas
 * shows it now. */
static gboolean
tp_picture_view_get_areas (TpPictureView   *self,
                           TpPictureLayout *layout,
                           TpRasterArea    *visible,
                           TpRasterArea    *need,
                           TpRasterArea    *want)
{
  double scale, ox, oy;

  tp_picture_view_get_transform_for (self, layout, &scale, &ox, &oy);
  return tp_raster_get_areas (tp_picture_layout_get_width (layout), tp_picture_layout_get_height (layout),
                              scale, ox, oy, self->canvas->width, self->canvas->height,
                              gtk_widget_get_scale_factor (GTK_WIDGET (self->canvas)), visible, need, want);
}

static void tp_picture_view_set_legend (TpPictureView   *self,
                                        TpPictureLayout *legend);

/* Shows @raster (owned; NULL for none).  A raster of the next layout
 * makes it the layout shown, and its legend the legend's. */
static void
tp_picture_view_install (TpPictureView *self,
                         TpPictureRaster *raster)
{
  if (self->next_layout != NULL && (raster == NULL || tp_picture_raster_get_layout (raster) == self->next_layout))
    {
      g_clear_pointer (&self->layout, tp_picture_layout_unref);
      self->layout = g_steal_pointer (&self->next_layout);
      tp_picture_view_set_legend (self, tp_picture_layout_get_legend (self->layout));
      if (self->place_next)
        {
          self->place_next = FALSE;
          self->fit = self->readable = TRUE;
        }
      gtk_widget_set_visible (GTK_WIDGET (self->degraded_label), tp_picture_view_get_degraded (self));
      tp_picture_view_show_message (self, NULL);
    }
  g_clear_pointer (&self->raster, tp_picture_raster_free);
  self->raster = raster;
  tp_picture_view_update_busy (self);
  gtk_widget_queue_draw (GTK_WIDGET (self->canvas));
}

static void
tp_picture_view_cancel_raster (TpPictureView *self)
{
  g_cancellable_cancel (self->raster_cancellable);
  g_clear_object (&self->raster_cancellable);
  g_clear_pointer (&self->raster_layout, tp_picture_layout_unref);
  self->raster_generation = 0;
}

static void tp_picture_view_update_raster (TpPictureView *self);

static void
tp_picture_view_raster_cb (GObject      *object,
                           GAsyncResult *result,
                           gpointer      user_data)
{
  g_autoptr(TpPictureView) self = user_data;
  g_autoptr(GError) error = NULL;
  TpPictureLayout *job_layout;
  TpRasterArea job_area;
  guint job_generation;
  TpPictureRaster *raster = tp_picture_raster_new_finish (result, &job_layout, &job_generation, &job_area, &error);
  TpPictureLayout *current = self->next_layout != NULL ? self->next_layout : self->layout;

  if (job_generation == self->raster_generation)
    tp_picture_view_cancel_raster (self);         /* done: none in flight */
  if (raster == NULL)
    {
      /* cancelled (overtaken), or no memory for it: a new layout is
       * shown without a picture rather than never */
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_debug ("picture raster %dx%d: %s", job_area.width, job_area.height, error->message);
          if (self->canvas != NULL && job_layout == self->next_layout)
            tp_picture_view_install (self, NULL);
        }
      return;
    }
  if (self->canvas == NULL /* disposed */ || tp_picture_raster_get_layout (raster) != current
      || (self->raster != NULL && tp_picture_raster_get_layout (self->raster) == current
          && tp_picture_raster_get_generation (self->raster) > tp_picture_raster_get_generation (raster)))
    {
      tp_picture_raster_free (raster);
      return;
    }
  tp_picture_view_install (self, raster);
  /* the reader may have zoomed or panned meanwhile */
  tp_picture_view_update_raster (self);
}

static gboolean
tp_picture_view_install_idle_cb (gpointer data)
{
  TpPictureView *self = data;
  TpRasterArea visible, need, want;

  self->install_idle = 0;
  if (self->next_layout != NULL && self->canvas != NULL
      && !tp_picture_view_get_areas (self, self->next_layout, &visible, &need, &want))
    {
      tp_picture_view_cancel_raster (self);
      tp_picture_view_install (self, NULL);
    }
  else
    tp_picture_view_update_raster (self);
  return G_SOURCE_REMOVE;
}

/* Asks for a raster when the canvas shows a part of the picture (the
 * next one, else the one shown) that no raster holds.  One at a time per
 * layout: when it comes this runs again. */
static void
tp_picture_view_update_raster (TpPictureView *self)
{
  TpPictureLayout *layout = self->next_layout != NULL ? self->next_layout : self->layout;
  TpRasterArea visible, need, want;

  if (layout == NULL || self->canvas == NULL || !self->canvas->allocated
      || !gtk_widget_get_mapped (GTK_WIDGET (self->canvas)))
    return;
  if (!tp_picture_view_get_areas (self, layout, &visible, &need, &want))
    {
      /* None of it is on the canvas: nothing to rasterize, and the next
       * layout is shown as it is.  Not from here, which may be the
       * canvas's allocation: showing it changes the header. */
      if (self->next_layout != NULL && self->install_idle == 0)
        self->install_idle = g_idle_add (tp_picture_view_install_idle_cb, self);
      return;
    }
  if (self->raster != NULL && tp_picture_raster_get_layout (self->raster) == layout
      && tp_raster_area_covers (tp_picture_raster_get_area (self->raster), &need))
    return;
  if (self->raster_layout == layout)
    return;
  tp_picture_view_cancel_raster (self);

  self->raster_cancellable = g_cancellable_new ();
  self->raster_layout = tp_picture_layout_ref (layout);
  self->raster_generation = ++self->n_generations;
  /* A new picture is awaited (the pane is busy): its first raster holds
   * just what is on the canvas, the margin comes next. */
  tp_picture_raster_new_async (layout, layout == self->next_layout ? &visible : &want, self->raster_generation,
                               self->raster_cancellable, tp_picture_view_raster_cb, g_object_ref (self));
}

/* The transform changed (zoom, pan, fit, size): draw, and rasterize when
 * the raster no longer holds what the canvas shows. */
static void
tp_picture_view_moved (TpPictureView *self)
{
  tp_picture_view_update_raster (self);
  gtk_widget_queue_draw (GTK_WIDGET (self->canvas));
}

/* {==== drawing ====} */

/* TRUE when the window draws with GSK's cairo renderer. */
static gboolean
tp_picture_view_draws_with_cairo (TpPictureView *self)
{
  GtkNative *native = gtk_widget_get_native (GTK_WIDGET (self));
  GskRenderer *renderer = native != NULL ? gtk_native_get_renderer (native) : NULL;

  return renderer != NULL && GSK_IS_CAIRO_RENDERER (renderer);
}

/* The step-through's node states over the raster. */
static void
tp_picture_view_snapshot_states (TpPictureView *self,
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

void
tp_picture_view_set_node_states (TpPictureView *self,
                                 const guint8  *states,
                                 guint          n_states)
{
  g_return_if_fail (TP_IS_PICTURE_VIEW (self));

  g_clear_pointer (&self->node_states, g_free);
  self->n_node_states = states != NULL ? n_states : 0;
  self->node_states = g_memdup2 (states, self->n_node_states);
  gtk_widget_queue_draw (GTK_WIDGET (self->canvas));
}

guint8
tp_picture_view_get_node_state (TpPictureView *self,
                                guint          node)
{
  g_return_val_if_fail (TP_IS_PICTURE_VIEW (self), 0);

  return node < self->n_node_states ? self->node_states[node] : 0;
}

static void
tp_picture_view_snapshot_canvas (TpPictureView *self,
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
  tp_picture_view_get_transform (self, &scale, &ox, &oy);
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, 0, (float) width, (float) height));

  if (r != NULL && tp_picture_raster_get_layout (r) == self->layout)
    tp_picture_raster_snapshot (r, snapshot, scale, ox, oy, width, height, device,
                                tp_picture_view_draws_with_cairo (self));

  tp_picture_view_snapshot_states (self, snapshot, scale, ox, oy);
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

/* {==== the legend ====} */

/* The legend is laid out as a picture of its own, with the picture
 * (tp-picture-screen.h), and shown at its natural size in the legend
 * button's popover. */
static void
tp_picture_view_draw_legend (GtkDrawingArea *area,
                             cairo_t        *cr,
                             int             width,
                             int             height,
                             gpointer        data)
{
  TpPictureView *self = data;

  if (self->legend != NULL)
    tp_picture_layout_draw (self->legend, cr);
}

static void
tp_picture_view_set_legend (TpPictureView   *self,
                            TpPictureLayout *legend)
{
  if (legend == self->legend)
    return;
  g_clear_pointer (&self->legend, tp_picture_layout_unref);
  self->legend = legend != NULL ? tp_picture_layout_ref (legend) : NULL;
  gtk_widget_set_sensitive (self->legend_button, legend != NULL);
  if (legend != NULL)
    {
      gtk_drawing_area_set_content_width (self->legend_area, (int) ceil (tp_picture_layout_get_width (legend)));
      gtk_drawing_area_set_content_height (self->legend_area, (int) ceil (tp_picture_layout_get_height (legend)));
    }
  gtk_widget_queue_draw (GTK_WIDGET (self->legend_area));
}

/* {==== layouts ====} */

/* Drops a laid-out picture that waits for its raster (its DOT is no
 * longer current). */
static void
tp_picture_view_drop_next_layout (TpPictureView *self)
{
  if (self->next_layout == NULL)
    return;
  if (self->raster_layout == self->next_layout)
    tp_picture_view_cancel_raster (self);
  g_clear_pointer (&self->next_layout, tp_picture_layout_unref);
}

/* Shows @layout (owned) once its first raster is made; NULL clears the
 * picture at once. */
static void
tp_picture_view_set_layout (TpPictureView   *self,
                            TpPictureLayout *layout)
{
  tp_picture_view_drop_next_layout (self);
  if (layout == NULL)
    {
      tp_picture_view_cancel_raster (self);
      g_clear_pointer (&self->raster, tp_picture_raster_free);
      g_clear_pointer (&self->layout, tp_picture_layout_unref);
      gtk_widget_set_visible (GTK_WIDGET (self->degraded_label), FALSE);
      gtk_widget_queue_draw (GTK_WIDGET (self->canvas));
      return;
    }
  self->next_layout = layout;
  tp_picture_view_update_raster (self);
}

static void
tp_picture_view_layout_cb (GObject      *object,
                           GAsyncResult *result,
                           gpointer      user_data)
{
  g_autoptr(TpPictureView) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(TpPictureLayout) layout = tp_picture_worker_layout_finish (TP_PICTURE_WORKER (object), result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
      || g_task_get_cancellable (G_TASK (result)) != self->cancellable)
    return;                     /* a newer picture is on its way */

  g_clear_object (&self->cancellable);
  if (layout == NULL)
    tp_picture_view_show_message (self, error->message);
  else if (layout == self->layout)
    tp_picture_view_show_message (self, NULL);  /* the picture shown */
  else
    tp_picture_view_set_layout (self, g_steal_pointer (&layout));
  tp_picture_view_update_busy (self);
}

/* Asks the worker for the layout of self->dot as the screen shows it
 * (tp-picture-screen.h: its legend comes with it). */
static void
tp_picture_view_request_layout (TpPictureView *self)
{
  if (self->worker == NULL)
    return;                     /* asked for once the pane has a worker */
  self->pending = FALSE;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  tp_picture_view_update_busy (self);
  tp_picture_worker_screen_async (self->worker, self->dot, self->cancellable,
                                  tp_picture_view_layout_cb, g_object_ref (self));
}

static void
tp_picture_view_readings_cb (TpPictureView *self)
{
  TpReadings *readings = self->document ? tp_document_get_readings (self->document) : NULL;
  const char *dot = readings != NULL ? tp_readings_get_text (readings, TP_READING_DOT) : "";

  /* What the picture shows, for a screen reader: the engine's summary
   * and its spec, one line a node. */
  if (readings != NULL)
    {
      g_autofree char *alternative = g_strconcat (tp_readings_get_text (readings, TP_READING_SUMMARY),
                                                  tp_readings_get_text (readings, TP_READING_SPEC), NULL);

      gtk_accessible_update_property (GTK_ACCESSIBLE (self->canvas),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, alternative,
                                      -1);
    }
  else
    gtk_accessible_reset_property (GTK_ACCESSIBLE (self->canvas), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);

  if (g_strcmp0 (dot, self->dot) == 0 && dot[0] != '\0')
    {
      /* the same picture for a program opened: placed now */
      if (self->place_next && self->cancellable == NULL && self->next_layout == NULL)
        {
          self->place_next = FALSE;
          self->fit = self->readable = TRUE;
          tp_picture_view_moved (self);
        }
      return;
    }
  g_free (self->dot);
  self->dot = g_strdup (dot);
  self->reduced = readings != NULL && readings->picture_reduced;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  tp_picture_view_drop_next_layout (self);

  if (dot[0] == '\0')
    {
      self->pending = FALSE;
      tp_picture_view_set_layout (self, NULL);
      tp_picture_view_set_legend (self, NULL);
      tp_picture_view_show_message (self, readings == NULL
                                            ? _("The picture appears here.")
                                            : _("The picture appears once the engine writes the graph."));
      tp_picture_view_update_busy (self);
      return;
    }
  /* Graphviz's time (and memory) is spent only on a picture someone
   * sees: a hidden pane lays out when it is shown. */
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    tp_picture_view_request_layout (self);
  else
    {
      self->pending = TRUE;
      tp_picture_view_update_busy (self);
    }
}

static void
tp_picture_view_map (GtkWidget *widget)
{
  TpPictureView *self = TP_PICTURE_VIEW (widget);

  GTK_WIDGET_CLASS (tp_picture_view_parent_class)->map (widget);
  if (self->pending)
    tp_picture_view_request_layout (self);
}

static void
tp_picture_view_stale_cb (TpPictureView *self)
{
  tp_picture_view_update_stale (self);
}

/* Pans so the selected node is in view (when it is not already); the
 * highlight itself is drawn on the raster, not into it. */
static void
tp_picture_view_selected_cb (TpPictureView *self)
{
  double scale, ox, oy, x, y, w, h;
  double cw = gtk_widget_get_width (GTK_WIDGET (self->canvas));
  double ch = gtk_widget_get_height (GTK_WIDGET (self->canvas));
  int node = tp_document_get_selected_node (self->document);

  if (self->layout != NULL && node >= 0
      && tp_picture_layout_node_bounds (self->layout, node, &x, &y, &w, &h))
    {
      tp_picture_view_get_transform (self, &scale, &ox, &oy);
      if (ox + x * scale < 0 || oy + y * scale < 0
          || ox + (x + w) * scale > cw || oy + (y + h) * scale > ch)
        {
          /* off the canvas (a zoom that does not show it all): pan */
          self->fit = FALSE;
          self->scale = scale;
          self->offset_x = cw / 2 - (x + w / 2) * scale;
          self->offset_y = ch / 2 - (y + h / 2) * scale;
          tp_picture_view_update_raster (self);
        }
    }
  gtk_widget_queue_draw (GTK_WIDGET (self->canvas));
}

/* {==== zoom and pan ====} */

/* Zooms by @factor about the canvas point (@cx, @cy). */
static void
tp_picture_view_zoom_at (TpPictureView *self,
                         double         factor,
                         double         cx,
                         double         cy)
{
  double scale, ox, oy, next;

  tp_picture_view_get_transform (self, &scale, &ox, &oy);
  next = CLAMP (scale * factor, MIN_SCALE, MAX_SCALE);
  self->offset_x = cx - (cx - ox) * next / scale;
  self->offset_y = cy - (cy - oy) * next / scale;
  self->scale = next;
  self->fit = FALSE;
  tp_picture_view_moved (self);
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

static void
tp_picture_view_zoom_in_cb (TpPictureView *self)
{
  tp_picture_view_zoom_in (self);
}

static void
tp_picture_view_zoom_out_cb (TpPictureView *self)
{
  tp_picture_view_zoom_out (self);
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
  tp_picture_view_get_transform (self, &scale, &ox, &oy);
  self->scale = scale;
  self->offset_x = ox + dx * step * gtk_widget_get_width (GTK_WIDGET (self->canvas));
  self->offset_y = oy + dy * step * gtk_widget_get_height (GTK_WIDGET (self->canvas));
  self->fit = FALSE;
  tp_picture_view_moved (self);
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

  tp_picture_view_get_transform (self, &scale, x, y);
}

static void
tp_picture_view_zoom_fit_cb (TpPictureView *self)
{
  tp_picture_view_zoom_fit (self);
}

void
tp_picture_view_zoom_fit (TpPictureView *self)
{
  g_return_if_fail (TP_IS_PICTURE_VIEW (self));

  self->fit = TRUE;
  self->readable = FALSE;
  self->place_next = FALSE;
  tp_picture_view_moved (self);
}

/* One picture pixel per canvas pixel (a node's first line is then
 * TP_SCREEN_LABEL_PT points at 96 dpi), about the middle of the canvas. */
void
tp_picture_view_zoom_actual (TpPictureView *self)
{
  double scale, ox, oy;

  g_return_if_fail (TP_IS_PICTURE_VIEW (self));

  tp_picture_view_get_transform (self, &scale, &ox, &oy);
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
}

/* The height in canvas pixels of a node's first label line as shown:
 * TP_SCREEN_LABEL_PT points at 96 dpi, times the zoom. */
double
tp_picture_view_get_label_height (TpPictureView *self)
{
  g_return_val_if_fail (TP_IS_PICTURE_VIEW (self), 0);

  return TP_SCREEN_LABEL_PT * PX_PER_PT * tp_picture_view_get_scale (self);
}

/* Shown alone (the focus layout, for slides): fitting may enlarge a
 * small graph further. */
void
tp_picture_view_set_presenting (TpPictureView *self,
                                gboolean       presenting)
{
  g_return_if_fail (TP_IS_PICTURE_VIEW (self));

  self->presenting = !!presenting;
  tp_picture_view_moved (self);
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
  tp_picture_view_get_transform (self, &scale, &ox, &oy);
  self->scale = scale;
  self->offset_x = ox - dx * 40;
  self->offset_y = oy - dy * 40;
  self->fit = FALSE;
  tp_picture_view_moved (self);
  return TRUE;
}

static void
tp_picture_view_drag_begin_cb (TpPictureView  *self,
                               double          x,
                               double          y,
                               GtkGestureDrag *drag)
{
  double scale;

  tp_picture_view_get_transform (self, &scale, &self->drag_x, &self->drag_y);
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
      tp_picture_view_get_transform (self, &scale, &ox, &oy);
      self->scale = scale;
      self->dragged = TRUE;
    }
  self->fit = FALSE;
  self->offset_x = self->drag_x + dx;
  self->offset_y = self->drag_y + dy;
  tp_picture_view_moved (self);
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
  tp_picture_view_get_transform (self, &scale, &ox, &oy);
  tp_document_set_selected_node (self->document,
                                 tp_picture_layout_node_at (self->layout, (x - ox) / scale, (y - oy) / scale));
}

/* {==== the canvas ====} */

static void
tp_picture_canvas_snapshot (GtkWidget   *widget,
                            GtkSnapshot *snapshot)
{
  TpPictureCanvas *self = TP_PICTURE_CANVAS (widget);

  if (self->view != NULL)
    tp_picture_view_snapshot_canvas (self->view, snapshot);
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
    tp_picture_view_update_raster (self->view);
}

static void
tp_picture_canvas_map (GtkWidget *widget)
{
  TpPictureCanvas *self = TP_PICTURE_CANVAS (widget);

  GTK_WIDGET_CLASS (tp_picture_canvas_parent_class)->map (widget);
  if (self->view != NULL)
    {
      tp_picture_view_update_raster (self->view);
      tp_picture_view_update_busy (self->view);
    }
}

static void
tp_picture_canvas_unmap (GtkWidget *widget)
{
  TpPictureCanvas *self = TP_PICTURE_CANVAS (widget);

  GTK_WIDGET_CLASS (tp_picture_canvas_parent_class)->unmap (widget);
  if (self->view != NULL)
    tp_picture_view_update_busy (self->view);
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

/* {==== public ====} */

GtkWidget *
tp_picture_view_new (void)
{
  return g_object_new (TP_TYPE_PICTURE_VIEW, NULL);
}

void
tp_picture_view_set_document (TpPictureView *self,
                              TpDocument    *document)
{
  g_return_if_fail (TP_IS_PICTURE_VIEW (self));
  g_return_if_fail (!document || TP_IS_DOCUMENT (document));

  if (self->document == document)
    return;
  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_set_object (&self->document, document);
  if (document != NULL)
    {
      g_signal_connect_object (document, "notify::readings",
                               G_CALLBACK (tp_picture_view_readings_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (document, "notify::stale",
                               G_CALLBACK (tp_picture_view_stale_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (document, "notify::selected-node",
                               G_CALLBACK (tp_picture_view_selected_cb), self, G_CONNECT_SWAPPED);
    }
  g_clear_pointer (&self->dot, g_free);
  tp_picture_view_readings_cb (self);
  tp_picture_view_stale_cb (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
}

/* The worker that lays the pictures out: the application's (a pane with
 * none shows no picture until it has one). */
void
tp_picture_view_set_worker (TpPictureView   *self,
                            TpPictureWorker *worker)
{
  g_return_if_fail (TP_IS_PICTURE_VIEW (self));
  g_return_if_fail (worker == NULL || TP_IS_PICTURE_WORKER (worker));

  if (!g_set_object (&self->worker, worker))
    return;
  if (self->pending && worker != NULL && gtk_widget_get_mapped (GTK_WIDGET (self)))
    tp_picture_view_request_layout (self);
}

TpPictureWorker *
tp_picture_view_get_worker (TpPictureView *self)
{
  g_return_val_if_fail (TP_IS_PICTURE_VIEW (self), NULL);

  return self->worker;
}

TpDocument *
tp_picture_view_get_document (TpPictureView *self)
{
  g_return_val_if_fail (TP_IS_PICTURE_VIEW (self), NULL);

  return self->document;
}

/* TRUE while a layout of the newest DOT is being made. */
gboolean
tp_picture_view_get_busy (TpPictureView *self)
{
  g_return_val_if_fail (TP_IS_PICTURE_VIEW (self), FALSE);

  return self->busy;
}

gboolean
tp_picture_view_has_picture (TpPictureView *self)
{
  g_return_val_if_fail (TP_IS_PICTURE_VIEW (self), FALSE);

  return self->layout != NULL;
}

gboolean
tp_picture_view_get_degraded (TpPictureView *self)
{
  g_return_val_if_fail (TP_IS_PICTURE_VIEW (self), FALSE);

  /* the engine says whether it reduced its DOT; the renderer's notice
   * is only its safety net for DOT over twice the engine's budget */
  return self->layout != NULL && (self->reduced || tp_picture_layout_get_degraded (self->layout));
}

/* TRUE while the stale badge is up: the program is refused, or a slow
 * layout of the current one is on its way. */
gboolean
tp_picture_view_get_stale (TpPictureView *self)
{
  g_return_val_if_fail (TP_IS_PICTURE_VIEW (self), FALSE);

  return gtk_widget_get_visible (GTK_WIDGET (self->stale_label));
}

/* The drawing area (tests deliver pointer events to its gestures). */
GtkWidget *
tp_picture_view_get_canvas (TpPictureView *self)
{
  g_return_val_if_fail (TP_IS_PICTURE_VIEW (self), NULL);

  return GTK_WIDGET (self->canvas);
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
  tp_picture_view_get_transform (self, &scale, &ox, &oy);
  *x = ox + (bx + bw / 2) * scale;
  *y = oy + (by + bh / 2) * scale;
  return TRUE;
}

/* Rasters started so far (for tests and the benchmark: a selection or a
 * pan within the raster starts none). */
guint
tp_picture_view_get_n_rasters (TpPictureView *self)
{
  g_return_val_if_fail (TP_IS_PICTURE_VIEW (self), 0);

  return self->n_generations;
}

/* TRUE while a raster is being made (for tests). */
gboolean
tp_picture_view_is_rasterizing (TpPictureView *self)
{
  g_return_val_if_fail (TP_IS_PICTURE_VIEW (self), FALSE);

  return self->raster_generation != 0;
}

/* The raster shown, whole (the canvas draws it in tiles), or NULL; for
 * tests. */
GdkTexture *
tp_picture_view_get_texture (TpPictureView *self)
{
  g_return_val_if_fail (TP_IS_PICTURE_VIEW (self), NULL);

  return self->raster != NULL ? tp_picture_raster_get_texture (self->raster) : NULL;
}

/* Canvas pixels per picture pixel, as shown. */
double
tp_picture_view_get_scale (TpPictureView *self)
{
  double scale, ox, oy;

  g_return_val_if_fail (TP_IS_PICTURE_VIEW (self), 1.0);

  tp_picture_view_get_transform (self, &scale, &ox, &oy);
  return scale;
}

/* The selected node's box in picture pixels, for tests. */
gboolean
tp_picture_view_get_selected_bounds (TpPictureView   *self,
                                     graphene_rect_t *bounds)
{
  double x, y, w, h;

  g_return_val_if_fail (TP_IS_PICTURE_VIEW (self), FALSE);

  if (self->layout == NULL || self->document == NULL
      || !tp_picture_layout_node_bounds (self->layout, tp_document_get_selected_node (self->document),
                                         &x, &y, &w, &h))
    return FALSE;
  graphene_rect_init (bounds, (float) x, (float) y, (float) w, (float) h);
  return TRUE;
}

static void
tp_picture_view_dispose (GObject *object)
{
  TpPictureView *self = (TpPictureView *) object;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  tp_picture_view_cancel_raster (self);
  g_clear_handle_id (&self->install_idle, g_source_remove);
  g_clear_pointer (&self->raster, tp_picture_raster_free);
  g_clear_pointer (&self->next_layout, tp_picture_layout_unref);
  g_clear_pointer (&self->legend, tp_picture_layout_unref);
  g_clear_handle_id (&self->stale_timeout, g_source_remove);
  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_clear_object (&self->document);
  g_clear_object (&self->worker);
  if (self->canvas != NULL)
    self->canvas->view = NULL;
  gtk_widget_dispose_template (GTK_WIDGET (self), TP_TYPE_PICTURE_VIEW);

  G_OBJECT_CLASS (tp_picture_view_parent_class)->dispose (object);
}

static void
tp_picture_view_finalize (GObject *object)
{
  TpPictureView *self = (TpPictureView *) object;

  g_clear_pointer (&self->layout, tp_picture_layout_unref);
  g_free (self->dot);
  g_free (self->node_states);

  G_OBJECT_CLASS (tp_picture_view_parent_class)->finalize (object);
}

static void
tp_picture_view_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  TpPictureView *self = TP_PICTURE_VIEW (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tp_picture_view_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  TpPictureView *self = TP_PICTURE_VIEW (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      tp_picture_view_set_document (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tp_picture_view_class_init (TpPictureViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tp_picture_view_dispose;
  object_class->finalize = tp_picture_view_finalize;
  object_class->get_property = tp_picture_view_get_property;
  object_class->set_property = tp_picture_view_set_property;
  widget_class->map = tp_picture_view_map;

  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, TP_TYPE_DOCUMENT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (TP_TYPE_PICTURE_CANVAS);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "pictureview");
  gtk_widget_class_set_template_from_resource (widget_class, TP_RESOURCE_PREFIX "/ui/tp-picture-view.ui");
  gtk_widget_class_bind_template_child (widget_class, TpPictureView, box);
  gtk_widget_class_bind_template_child (widget_class, TpPictureView, title_label);
  gtk_widget_class_bind_template_child (widget_class, TpPictureView, stale_label);
  gtk_widget_class_bind_template_child (widget_class, TpPictureView, degraded_label);
  gtk_widget_class_bind_template_child (widget_class, TpPictureView, export_button);
  gtk_widget_class_bind_template_child (widget_class, TpPictureView, focus_button);
  gtk_widget_class_bind_template_child (widget_class, TpPictureView, legend_button);
  gtk_widget_class_bind_template_child (widget_class, TpPictureView, legend_area);
  gtk_widget_class_bind_template_child (widget_class, TpPictureView, canvas);
  gtk_widget_class_bind_template_child (widget_class, TpPictureView, message);
  gtk_widget_class_bind_template_callback (widget_class, tp_picture_view_zoom_in_cb);
  gtk_widget_class_bind_template_callback (widget_class, tp_picture_view_zoom_out_cb);
  gtk_widget_class_bind_template_callback (widget_class, tp_picture_view_zoom_fit_cb);
}

static void
tp_picture_view_init (TpPictureView *self)
{
  GtkEventController *scroll;
  GtkGesture *drag, *click;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->fit = TRUE;
  self->readable = TRUE;
  self->scale = 1;
  self->canvas->view = self;
  gtk_drawing_area_set_draw_func (self->legend_area, tp_picture_view_draw_legend, self, NULL);
  g_signal_connect_object (self->canvas, "notify::scale-factor",
                           G_CALLBACK (tp_picture_view_moved), self, G_CONNECT_SWAPPED);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->canvas),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Picture of the recorded graph"),
                                  -1);

  scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect_object (scroll, "scroll", G_CALLBACK (tp_picture_view_scroll_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->canvas), scroll);

  {
    GtkEventController *keys = gtk_event_controller_key_new ();

    g_signal_connect_object (keys, "key-pressed", G_CALLBACK (tp_picture_view_key_cb), self, G_CONNECT_SWAPPED);
    gtk_widget_add_controller (GTK_WIDGET (self->canvas), keys);
  }

  drag = gtk_gesture_drag_new ();
  g_signal_connect_object (drag, "drag-begin", G_CALLBACK (tp_picture_view_drag_begin_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (drag, "drag-update", G_CALLBACK (tp_picture_view_drag_update_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->canvas), GTK_EVENT_CONTROLLER (drag));

  click = gtk_gesture_click_new ();
  g_signal_connect_object (click, "released", G_CALLBACK (tp_picture_view_click_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->canvas), GTK_EVENT_CONTROLLER (click));

  tp_picture_view_show_message (self, _("The picture appears here."));
}
