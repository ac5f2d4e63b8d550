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
 * This file is the widget, its layouts and which raster to ask for when;
 * where the picture sits, and the zoom, pan, selection and hit tests, are
 * tp-picture-zoom.c; the canvas that draws it is tp-picture-canvas.c.  The rasters themselves,
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

#include "tp-picture-view-private.h"

/* A layout that takes longer than this marks the picture stale. */
#define STALE_AFTER_MS 300

G_DEFINE_FINAL_TYPE (TpPictureView, tp_picture_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_DOCUMENT,
  PROP_BUSY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

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
void
_tp_picture_view_update_busy (TpPictureView *self)
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

  _tp_picture_view_get_transform_for (self, layout, &scale, &ox, &oy);
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
      self->spec_nodes = self->next_spec_nodes;
      tp_picture_view_set_legend (self, tp_picture_layout_get_legend (self->layout));
      if (self->place_next)
        {
          self->place_next = FALSE;
          self->fit = self->readable = TRUE;
          self->fit_pressed = FALSE;
        }
      gtk_widget_set_visible (GTK_WIDGET (self->degraded_label), tp_picture_view_get_degraded (self));
      tp_picture_view_show_message (self, NULL);
    }
  g_clear_pointer (&self->raster, tp_picture_raster_free);
  self->raster = raster;
  _tp_picture_view_update_busy (self);
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
  _tp_picture_view_update_raster (self);
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
    _tp_picture_view_update_raster (self);
  return G_SOURCE_REMOVE;
}

/* Asks for a raster when the canvas shows a part of the picture (the
 * next one, else the one shown) that no raster holds.  One at a time per
 * layout: when it comes this runs again. */
void
_tp_picture_view_update_raster (TpPictureView *self)
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
void
_tp_picture_view_moved (TpPictureView *self)
{
  _tp_picture_view_update_raster (self);
  gtk_widget_queue_draw (GTK_WIDGET (self->canvas));
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
  self->next_spec_nodes = self->dot_spec_nodes;
  _tp_picture_view_update_raster (self);
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
  _tp_picture_view_update_busy (self);
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
  _tp_picture_view_update_busy (self);
  tp_picture_worker_screen_async (self->worker, self->dot, self->cancellable,
                                  tp_picture_view_layout_cb, g_object_ref (self));
}

static void
tp_picture_view_readings_cb (TpPictureView *self)
{
  TpReadings *readings = self->document ? tp_document_get_readings (self->document) : NULL;
  const char *dot = readings != NULL ? tp_readings_get_text (readings, TP_READING_DOT) : "";

  /* Kernels as clusters, or the tangent band: the engine's DOT of them
   * (tp_session_dot_kernels, tp_session_dot_tangent), asked for only
   * while the toggle is on; the picture shown stays until it comes (and
   * without a parameter there is no band: the plain picture) */
  if (readings != NULL && (gtk_toggle_button_get_active (self->kernels_button)
                           || gtk_toggle_button_get_active (self->tangents_button)))
    {
      TpPass which = gtk_toggle_button_get_active (self->kernels_button) ? TP_PASS_KERNELS : TP_PASS_TANGENTS;
      const TpPassReading *other = tp_document_want_pass (self->document, which);

      if (other != NULL && other->text[0] != '\0')
        dot = other->text;
      else if (other == NULL && self->dot != NULL && self->dot[0] != '\0'
               && !tp_document_get_stale (self->document))
        return;
    }

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
          self->fit_pressed = FALSE;
          _tp_picture_view_moved (self);
        }
      return;
    }
  g_free (self->dot);
  self->dot = g_strdup (dot);
  self->dot_spec_nodes = readings != NULL ? readings->spec_nodes : 0;
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
      _tp_picture_view_update_busy (self);
      return;
    }
  /* Graphviz's time (and memory) is spent only on a picture someone
   * sees: a hidden pane lays out when it is shown. */
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    tp_picture_view_request_layout (self);
  else
    {
      self->pending = TRUE;
      _tp_picture_view_update_busy (self);
    }
}

/* The kernels and the tangent band are two pictures: one at a time. */
static void
tp_picture_view_kernels_cb (TpPictureView *self)
{
  if (gtk_toggle_button_get_active (self->kernels_button))
    gtk_toggle_button_set_active (self->tangents_button, FALSE);
  tp_picture_view_readings_cb (self);
}

static void
tp_picture_view_tangents_cb (TpPictureView *self)
{
  if (gtk_toggle_button_get_active (self->tangents_button))
    gtk_toggle_button_set_active (self->kernels_button, FALSE);
  tp_picture_view_readings_cb (self);
}

static void
tp_picture_view_pass_ready_cb (TpPictureView *self,
                               int            which)
{
  if (which == TP_PASS_KERNELS || which == TP_PASS_TANGENTS)
    tp_picture_view_readings_cb (self);
}

/* For tests: the tangent band toggle. */
GtkToggleButton *
tp_picture_view_get_tangents_button (TpPictureView *self)
{
  g_return_val_if_fail (TP_IS_PICTURE_VIEW (self), NULL);

  return self->tangents_button;
}

/* For tests: the kernels toggle. */
GtkToggleButton *
tp_picture_view_get_kernels_button (TpPictureView *self)
{
  g_return_val_if_fail (TP_IS_PICTURE_VIEW (self), NULL);

  return self->kernels_button;
}

/* The DOT shown or asked for (for tests). */
const char *
tp_picture_view_get_dot (TpPictureView *self)
{
  g_return_val_if_fail (TP_IS_PICTURE_VIEW (self), NULL);

  return self->dot;
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
      _tp_picture_view_get_transform (self, &scale, &ox, &oy);
      if (ox + x * scale < 0 || oy + y * scale < 0
          || ox + (x + w) * scale > cw || oy + (y + h) * scale > ch)
        {
          /* off the canvas (a zoom that does not show it all): pan */
          self->fit = FALSE;
          self->scale = scale;
          self->offset_x = cw / 2 - (x + w / 2) * scale;
          self->offset_y = ch / 2 - (y + h / 2) * scale;
          _tp_picture_view_update_raster (self);
        }
    }
  gtk_widget_queue_draw (GTK_WIDGET (self->canvas));
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

static void
tp_picture_view_zoom_fit_cb (TpPictureView *self)
{
  tp_picture_view_zoom_fit (self);
}

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
      g_signal_connect_object (document, "pass-ready",
                               G_CALLBACK (tp_picture_view_pass_ready_cb), self, G_CONNECT_SWAPPED);
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
  gtk_widget_class_bind_template_child (widget_class, TpPictureView, kernels_button);
  gtk_widget_class_bind_template_callback (widget_class, tp_picture_view_kernels_cb);
  gtk_widget_class_bind_template_child (widget_class, TpPictureView, tangents_button);
  gtk_widget_class_bind_template_callback (widget_class, tp_picture_view_tangents_cb);
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
  gtk_widget_init_template (GTK_WIDGET (self));
  self->fit = TRUE;
  self->readable = TRUE;
  self->scale = 1;
  self->text_scale = 1;
  self->fit_node = -1;
  self->canvas->view = self;
  gtk_drawing_area_set_draw_func (self->legend_area, tp_picture_view_draw_legend, self, NULL);
  g_signal_connect_object (self->canvas, "notify::scale-factor",
                           G_CALLBACK (_tp_picture_view_moved), self, G_CONNECT_SWAPPED);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->canvas),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Picture of the recorded graph"),
                                  -1);

  _tp_picture_view_init_input (self);

  tp_picture_view_show_message (self, _("The picture appears here."));
}
