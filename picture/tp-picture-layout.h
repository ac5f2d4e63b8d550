/* tp-picture-layout.h: a picture laid out by graphviz.
 *
 * A layout is made from the engine's DOT reading off the main thread (by
 * the application's picture worker, tp-picture-worker.h) and is then
 * immutable: the pane draws it with cairo at any scale, asks it which
 * node lies under the pointer and where a node is.
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
/* The DOT it was laid out from. */
const char      *tp_picture_layout_get_dot      (TpPictureLayout      *self);
/* TRUE for a layout as the pane shows it (tp-picture-screen.h): then its
 * target node (or -1), and its legend laid out alone (or NULL). */
gboolean         tp_picture_layout_get_screen   (TpPictureLayout      *self);
int              tp_picture_layout_get_target   (TpPictureLayout      *self);
TpPictureLayout *tp_picture_layout_get_legend   (TpPictureLayout      *self);

/* Reads the worker's reply to a request of @kind (tp-layout-protocol.h):
 * a layout of @dot in *layout, or an export's bytes in *payload.  FALSE,
 * with @error, when the reply says the request failed or is garbled.
 * For tp-picture-worker.c. */
gboolean         tp_picture_reply_read          (GBytes               *reply,
                                                 guint32               kind,
                                                 const char           *dot,
                                                 TpPictureLayout     **layout,
                                                 GBytes              **payload,
                                                 GError              **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TpPictureLayout, tp_picture_layout_unref)

G_END_DECLS
