/* tp-picture-raster.h: the picture pane's rasters: a part of a laid-out
 * picture drawn into an image, off the main thread, at the scale the
 * canvas shows (tp-picture-raster.c), and put on the canvas as textures.
 * The canvas itself (zoom, pan, selection, hit tests, which raster to
 * ask for and when) is tp-picture-view.c. */
#pragma once

#include <gtk/gtk.h>

#include "tp-picture-layout.h"

G_BEGIN_DECLS

/* Device pixels: a raster is at most this wide and high, and this big,
 * margin included; the part on the canvas is always rasterized. */
#define TP_RASTER_MAX_SIDE 4096
#define TP_RASTER_MAX_PIXELS (8 << 20)

/* A part of the picture drawn at a scale: raster pixels of the picture
 * drawn at `scale` raster pixels per picture pixel, from its top left. */
typedef struct
{
  double scale;
  int x;
  int y;
  int width;
  int height;
} TpRasterArea;

/* A finished raster: immutable once made (in a raster thread). */
typedef struct _TpPictureRaster TpPictureRaster;

/* TRUE when @a holds all of @b, at the same scale. */
gboolean         tp_raster_area_covers            (const TpRasterArea *a,
                                                   const TpRasterArea *b);
/* For a picture of @width x @height picture pixels drawn at @scale canvas
 * pixels per picture pixel with its top left at (@ox, @oy) on a canvas of
 * @canvas_width x @canvas_height (canvas pixels, @device device pixels
 * each): the part on the canvas (@visible), what a raster must hold not
 * to be made again (@need: that and half the margin), and what to
 * rasterize when it does not (@want: that and a margin, up to a canvas
 * on every side within the caps), all in device pixels.  FALSE when none
 * of the picture is on the canvas. */
gboolean         tp_raster_get_areas              (double              width,
                                                   double              height,
                                                   double              scale,
                                                   double              ox,
                                                   double              oy,
                                                   double              canvas_width,
                                                   double              canvas_height,
                                                   double              device,
                                                   TpRasterArea       *visible,
                                                   TpRasterArea       *need,
                                                   TpRasterArea       *want);

/* Draws @area of @layout in GIO's thread pool, at a lowered priority;
 * @generation comes back with it.  Cancel @cancellable to drop it. */
/* Returns once no raster is being drawn; call before the process exits. */
void             tp_picture_raster_wait_idle      (void);
void             tp_picture_raster_new_async      (TpPictureLayout    *layout,
                                                   const TpRasterArea *area,
                                                   guint               generation,
                                                   GCancellable       *cancellable,
                                                   GAsyncReadyCallback callback,
                                                   gpointer            user_data);
/* The raster, or NULL with @error set (cancelled, or no memory); either
 * way the request's layout (borrowed, for as long as @result lives),
 * generation and area. */
TpPictureRaster *tp_picture_raster_new_finish     (GAsyncResult       *result,
                                                   TpPictureLayout   **layout,
                                                   guint              *generation,
                                                   TpRasterArea       *area,
                                                   GError            **error);
void             tp_picture_raster_free           (TpPictureRaster    *self);

TpPictureLayout *tp_picture_raster_get_layout     (const TpPictureRaster *self);
const TpRasterArea *tp_picture_raster_get_area    (const TpPictureRaster *self);
guint            tp_picture_raster_get_generation (const TpPictureRaster *self);
/* The whole raster as one texture (tests; the canvas draws tiles). */
GdkTexture      *tp_picture_raster_get_texture    (const TpPictureRaster *self);

/* Puts the raster on a canvas of @width x @height canvas pixels
 * (@device device pixels each) where the picture is shown at @scale with
 * its top left at (@ox, @oy): pixel for pixel when it was made at this
 * scale, stretched until the next one comes when not.  @cairo: the window
 * draws with GSK's cairo renderer. */
void             tp_picture_raster_snapshot       (TpPictureRaster    *self,
                                                   GtkSnapshot        *snapshot,
                                                   double              scale,
                                                   double              ox,
                                                   double              oy,
                                                   int                 width,
                                                   int                 height,
                                                   double              device,
                                                   gboolean            cairo);

G_END_DECLS
