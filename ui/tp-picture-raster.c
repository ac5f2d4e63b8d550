/* tp-picture-raster.c: see tp-picture-raster.h.
 *
 * Drawing a big picture takes tens of milliseconds, too long for the main
 * thread (typing must never wait), so a raster thread (GIO's pool, at a
 * lowered priority) draws the part of the picture the canvas needs into
 * an image at the scale shown, the display's scale factor included.  The
 * image is also cut into TILE-sized textures sharing its pixels, and when
 * much of it is off the canvas only the tiles on it are drawn: GSK's
 * cairo renderer copies all of a texture's pixels on every frame (in GTK
 * 4.8), so a 1300x1900 raster costs some 20 ms a frame, the tiles on a
 * 970x620 canvas a third of that; GL renderers upload each texture once.
 * With the cairo renderer the raster goes on screen as an image surface
 * in a cairo node instead, which is only composited. */
#include "config.h"

#include <math.h>

#include "tp-picture-raster.h"
#include "tp-priority.h"

#define TILE 128

struct _TpPictureRaster
{
  TpPictureLayout *layout;
  TpRasterArea area;
  guint generation;
  cairo_surface_t *surface;     /* the pixels (the textures share them) */
  GskRenderNode *node;          /* the whole raster as a cairo node, made
                                 * on first use (GSK's cairo renderer) */
  GdkTexture *texture;          /* the whole raster */
  GdkTexture **tiles;           /* TILE x TILE views of it, row by row */
  guint n_columns;
  guint n_rows;
};

/* What a raster thread is asked for. */
typedef struct
{
  TpPictureLayout *layout;
  TpRasterArea area;
  guint generation;
} RasterJob;

void
tp_picture_raster_free (TpPictureRaster *raster)
{
  if (raster == NULL)
    return;
  for (guint i = 0; raster->tiles != NULL && i < raster->n_columns * raster->n_rows; i++)
    g_clear_object (&raster->tiles[i]);
  g_free (raster->tiles);
  g_clear_object (&raster->texture);
  g_clear_pointer (&raster->node, gsk_render_node_unref);
  g_clear_pointer (&raster->surface, cairo_surface_destroy);
  g_clear_pointer (&raster->layout, tp_picture_layout_unref);
  g_free (raster);
}

static void
raster_job_free (RasterJob *job)
{
  tp_picture_layout_unref (job->layout);
  g_free (job);
}

gboolean
tp_raster_area_covers (const TpRasterArea *a,
                       const TpRasterArea *b)
{
  return fabs (a->scale - b->scale) <= 1e-9 * b->scale
         && a->x <= b->x && a->y <= b->y
         && a->x + a->width >= b->x + b->width
         && a->y + a->height >= b->y + b->height;
}

/* The raster thread: draws the layout into an image, and wraps the image's
 * pixels (cairo's ARGB32, premultiplied, native endian: GDK's default
 * format) in textures without copying them. */
static void
raster_make (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  const RasterJob *job = task_data;
  const TpRasterArea *area = &job->area;
  cairo_surface_t *surface;
  cairo_t *cr;
  GBytes *bytes;
  gsize stride;
  TpPictureRaster *raster;

  if (g_task_return_error_if_cancelled (task))
    return;
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, area->width, area->height);
  if (cairo_surface_status (surface) != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (surface);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NO_SPACE, "no memory for the picture");
      return;
    }
  cr = cairo_create (surface);
  cairo_translate (cr, -area->x, -area->y);
  cairo_scale (cr, area->scale, area->scale);
  tp_picture_layout_draw (job->layout, cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  if (g_task_return_error_if_cancelled (task))
    {
      cairo_surface_destroy (surface);
      return;
    }

  stride = (gsize) cairo_image_surface_get_stride (surface);
  bytes = g_bytes_new_with_free_func (cairo_image_surface_get_data (surface), stride * (gsize) area->height,
                                      (GDestroyNotify) cairo_surface_destroy, surface);
  raster = g_new0 (TpPictureRaster, 1);
  raster->layout = tp_picture_layout_ref (job->layout);
  raster->area = *area;
  raster->generation = job->generation;
  raster->surface = cairo_surface_reference (surface);
  raster->texture = gdk_memory_texture_new (area->width, area->height, GDK_MEMORY_DEFAULT, bytes, stride);
  raster->n_columns = (guint) (area->width + TILE - 1) / TILE;
  raster->n_rows = (guint) (area->height + TILE - 1) / TILE;
  raster->tiles = g_new0 (GdkTexture *, raster->n_columns * raster->n_rows);
  for (guint row = 0; row < raster->n_rows; row++)
    for (guint col = 0; col < raster->n_columns; col++)
      {
        int x = (int) col * TILE, y = (int) row * TILE;
        int w = MIN (TILE, area->width - x), h = MIN (TILE, area->height - y);
        gsize offset = (gsize) y * stride + (gsize) x * 4;
        g_autoptr(GBytes) tile = g_bytes_new_from_bytes (bytes, offset, (gsize) (h - 1) * stride + (gsize) w * 4);

        raster->tiles[row * raster->n_columns + col] = gdk_memory_texture_new (w, h, GDK_MEMORY_DEFAULT, tile, stride);
      }
  g_bytes_unref (bytes);
  g_task_return_pointer (task, raster, (GDestroyNotify) tp_picture_raster_free);
}

/* Rasters being drawn, so a process can wait for them before it exits:
 * the C library's exit handlers free what Pango and HarfBuzz draw with,
 * under a thread still drawing. */
static GMutex busy_lock;
static GCond busy_done;
static guint busy;

/* GIO's shared thread, lowered for the raster only (tp-priority.h). */
static void
raster_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  int priority = tp_priority_lower_thread ();

  raster_make (task, source_object, task_data, cancellable);
  tp_priority_restore_thread (priority);
  g_mutex_lock (&busy_lock);
  if (--busy == 0)
    g_cond_broadcast (&busy_done);
  g_mutex_unlock (&busy_lock);
}

void
tp_picture_raster_wait_idle (void)
{
  g_mutex_lock (&busy_lock);
  while (busy > 0)
    g_cond_wait (&busy_done, &busy_lock);
  g_mutex_unlock (&busy_lock);
}

gboolean
tp_raster_get_areas (double        width,
                     double        height,
                     double        scale,
                     double        ox,
                     double        oy,
                     double        canvas_width,
                     double        canvas_height,
                     double        device,
                     TpRasterArea *visible,
                     TpRasterArea *need,
                     TpRasterArea *want)
{
  double cw = canvas_width * device;
  double ch = canvas_height * device;
  double r = scale * device;
  double full_w = MIN (ceil (width * r), G_MAXINT / 4);
  double full_h = MIN (ceil (height * r), G_MAXINT / 4);
  double x0, y0, x1, y1, vw, vh, mx, my;

  x0 = MAX (floor (-ox * device), 0);
  y0 = MAX (floor (-oy * device), 0);
  x1 = MIN (ceil (cw - ox * device), full_w);
  y1 = MIN (ceil (ch - oy * device), full_h);
  if (x1 <= x0 || y1 <= y0)
    return FALSE;
  vw = x1 - x0;
  vh = y1 - y0;
  /* up to a canvas on every side, within the caps */
  mx = MIN (cw, MAX (0, floor ((TP_RASTER_MAX_SIDE - vw) / 2)));
  my = MIN (ch, MAX (0, floor ((TP_RASTER_MAX_SIDE - vh) / 2)));
  while ((vw + 2 * mx) * (vh + 2 * my) > TP_RASTER_MAX_PIXELS && (mx > 0 || my > 0))
    {
      mx = floor (mx * 0.8);
      my = floor (my * 0.8);
    }

  visible->scale = want->scale = need->scale = r;
  visible->x = (int) x0;
  visible->y = (int) y0;
  visible->width = (int) vw;
  visible->height = (int) vh;
  want->x = (int) MAX (x0 - mx, 0);
  want->y = (int) MAX (y0 - my, 0);
  want->width = (int) MIN (x1 + mx, full_w) - want->x;
  want->height = (int) MIN (y1 + my, full_h) - want->y;
  /* a pan rasterizes again when half the margin is left, so the new
   * raster is usually there before its pixels are needed */
  need->x = (int) MAX (x0 - floor (mx / 2), 0);
  need->y = (int) MAX (y0 - floor (my / 2), 0);
  need->width = (int) MIN (x1 + floor (mx / 2), full_w) - need->x;
  need->height = (int) MIN (y1 + floor (my / 2), full_h) - need->y;
  return TRUE;
}

void
tp_picture_raster_new_async (TpPictureLayout    *layout,
                             const TpRasterArea *area,
                             guint               generation,
                             GCancellable       *cancellable,
                             GAsyncReadyCallback callback,
                             gpointer            user_data)
{
  RasterJob *job = g_new0 (RasterJob, 1);
  GTask *task;

  job->layout = tp_picture_layout_ref (layout);
  job->area = *area;
  job->generation = generation;
  /* no source object: the task may be let go in the raster thread, and
   * a widget must not be finalized there */
  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, tp_picture_raster_new_async);
  g_task_set_task_data (task, job, (GDestroyNotify) raster_job_free);
  g_mutex_lock (&busy_lock);
  busy++;
  g_mutex_unlock (&busy_lock);
  g_task_run_in_thread (task, raster_thread);
  g_object_unref (task);
}

TpPictureRaster *
tp_picture_raster_new_finish (GAsyncResult     *result,
                              TpPictureLayout **layout,
                              guint            *generation,
                              TpRasterArea     *area,
                              GError          **error)
{
  const RasterJob *job = g_task_get_task_data (G_TASK (result));

  *layout = job->layout;
  *generation = job->generation;
  *area = job->area;
  return g_task_propagate_pointer (G_TASK (result), error);
}

TpPictureLayout *
tp_picture_raster_get_layout (const TpPictureRaster *self)
{
  return self->layout;
}

const TpRasterArea *
tp_picture_raster_get_area (const TpPictureRaster *self)
{
  return &self->area;
}

guint
tp_picture_raster_get_generation (const TpPictureRaster *self)
{
  return self->generation;
}

GdkTexture *
tp_picture_raster_get_texture (const TpPictureRaster *self)
{
  return self->texture;
}

/* @v on the nearest device pixel. */
static double
snap (double v,
      double device)
{
  return round (v * device) / device;
}

/* The raster as a cairo node, one raster pixel per unit. */
static GskRenderNode *
raster_node_new (const TpPictureRaster *r)
{
  GskRenderNode *node = gsk_cairo_node_new (&GRAPHENE_RECT_INIT (0, 0, (float) r->area.width,
                                                                 (float) r->area.height));
  cairo_t *cr = gsk_cairo_node_get_draw_context (node);

  cairo_set_source_surface (cr, r->surface, 0, 0);
  cairo_paint (cr);
  cairo_destroy (cr);
  return node;
}

void
tp_picture_raster_snapshot (TpPictureRaster *r,
                            GtkSnapshot     *snapshot,
                            double           scale,
                            double           ox,
                            double           oy,
                            int              width,
                            int              height,
                            double           device,
                            gboolean         cairo)
{
  /* Raster pixel p lies at o + p / r->area.scale * scale on the canvas
   * (1 / device when it was made at this scale, else it is stretched
   * until the next raster comes).  Edges are put on device pixels, so
   * tiles meet without a seam and a raster at this scale is drawn pixel
   * for pixel.  A raster mostly on the canvas (a fitted picture) is drawn
   * whole, one with much of it off the canvas (the margin of a zoomed
   * one) by the tiles on it. */
  double k = scale / r->area.scale;
  double left = snap (ox + r->area.x * k, device);
  double top = snap (oy + r->area.y * k, device);
  double right = snap (ox + (r->area.x + r->area.width) * k, device);
  double bottom = snap (oy + (r->area.y + r->area.height) * k, device);
  double shown = MAX (MIN (right, width) - MAX (left, 0), 0) * MAX (MIN (bottom, height) - MAX (top, 0), 0);

  if (cairo)
    {
      /* GSK's cairo renderer (GTK 4.8) converts every pixel of a
       * texture on every frame that draws it; an image surface in a
       * cairo node is composited, and only where the frame changed */
      if (r->node == NULL)
        r->node = raster_node_new (r);
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float) left, (float) top));
      gtk_snapshot_scale (snapshot, (float) ((right - left) / r->area.width),
                          (float) ((bottom - top) / r->area.height));
      gtk_snapshot_append_node (snapshot, r->node);
      gtk_snapshot_restore (snapshot);
    }
  else if (shown >= 0.6 * (right - left) * (bottom - top))
    gtk_snapshot_append_texture (snapshot, r->texture,
                                 &GRAPHENE_RECT_INIT ((float) left, (float) top,
                                                      (float) (right - left), (float) (bottom - top)));
  else
    for (guint row = 0; row < r->n_rows; row++)
      {
        double y0 = snap (oy + (r->area.y + (int) row * TILE) * k, device);
        double y1 = snap (oy + (r->area.y + MIN ((int) (row + 1) * TILE, r->area.height)) * k, device);

        if (y1 <= 0 || y0 >= height || y1 <= y0)
          continue;
        for (guint col = 0; col < r->n_columns; col++)
          {
            double x0 = snap (ox + (r->area.x + (int) col * TILE) * k, device);
            double x1 = snap (ox + (r->area.x + MIN ((int) (col + 1) * TILE, r->area.width)) * k, device);

            if (x1 <= 0 || x0 >= width || x1 <= x0)
              continue;
            gtk_snapshot_append_texture (snapshot, r->tiles[row * r->n_columns + col],
                                         &GRAPHENE_RECT_INIT ((float) x0, (float) y0,
                                                              (float) (x1 - x0), (float) (y1 - y0)));
          }
      }
}
