/* tp-picture-layout.h: the seam between the picture pane and graphviz.
 *
 * A layout is made from the engine's DOT reading off the main thread and
 * is then immutable: the pane draws it with cairo at any scale, asks it
 * which node lies under the pointer and where a node is.  Graphviz is
 * neither thread-safe nor interruptible, so every layout and every export
 * of the app goes through one worker, one at a time (a worker process:
 * see tp-picture-layout.c); work for a DOT that is no longer
 * current is dropped (cancel its GCancellable).
 *
 * Units: "picture pixels", 96 per inch at zoom 1, origin top-left. */
#pragma once

#include <gio/gio.h>
#include <cairo.h>

G_BEGIN_DECLS

typedef struct _TpPictureLayout TpPictureLayout;

TpPictureLayout *tp_picture_layout_ref          (TpPictureLayout      *self);
void             tp_picture_layout_unref        (TpPictureLayout      *self);
double           tp_picture_layout_get_width    (TpPictureLayout      *self);
double           tp_picture_layout_get_height   (TpPictureLayout      *self);
/* Draws the picture (graphviz's own drawing operations) at one picture
 * pixel per user unit.  The picture is transparent: its colours read on
 * light and dark pages alike.  Safe from any thread, several at once
 * (the pane rasterizes in worker threads): a layout is immutable. */
void             tp_picture_layout_draw         (TpPictureLayout      *self,
                                                 cairo_t              *cr);
int              tp_picture_layout_node_at      (TpPictureLayout      *self,
                                                 double                x,
                                                 double                y);
gboolean         tp_picture_layout_node_bounds  (TpPictureLayout      *self,
                                                 int                   node,
                                                 double               *x,
                                                 double               *y,
                                                 double               *width,
                                                 double               *height);
/* TRUE when the DOT was over the renderer's own budget and a notice was
 * drawn instead (a safety net: the engine fits its DOT to
 * TP_PICTURE_BUDGET itself and says so, tp_session_picture_reduced). */
gboolean         tp_picture_layout_get_degraded (TpPictureLayout      *self);

/* Lays out @dot; @callback runs on the caller's main context.  Cancel
 * @cancellable to drop the work: a layout that has not started is
 * skipped, a short one that has is thrown away when done, a long one is
 * stopped. */
void             tp_picture_layout_new_async    (const char           *dot,
                                                 GCancellable         *cancellable,
                                                 GAsyncReadyCallback   callback,
                                                 gpointer              user_data);
TpPictureLayout *tp_picture_layout_new_finish   (GAsyncResult         *result,
                                                 GError              **error);

/* Writes the picture of @dot as "svg" or "png" to @file, atomically; the
 * bytes are those `topos --svg` and `topos --png` write for the same
 * program.  "png-light" and "png-dark" draw the PNG over the light or
 * the dark view's background instead of a transparent one (for slides). */
void             tp_picture_export_async        (const char           *dot,
                                                 const char           *format,
                                                 GFile                *file,
                                                 GCancellable         *cancellable,
                                                 GAsyncReadyCallback   callback,
                                                 gpointer              user_data);
gboolean         tp_picture_export_finish       (GAsyncResult         *result,
                                                 GError              **error);

/* How many requests graphviz has served (for the benchmark and tests: a
 * layout served from the cache does not count), and how many worker
 * processes were started for them. */
guint            tp_picture_layout_get_n_layouts (void);
guint            tp_picture_layout_get_n_workers (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TpPictureLayout, tp_picture_layout_unref)

G_END_DECLS
