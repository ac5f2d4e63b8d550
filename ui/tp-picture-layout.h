/* tp-picture-layout.h: the seam between the picture pane and graphviz.
 *
 * A layout is made from the engine's DOT reading off the main thread and
 * is then immutable: the pane draws it with cairo at any scale, asks it
 * which node lies under the pointer and where a node is.  Graphviz is
 * neither thread-safe nor interruptible, so a backend lays out in one
 * place at a time (one worker, or a child process it can kill) and drops
 * the work of a DOT that is no longer current.
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
void             tp_picture_layout_draw         (TpPictureLayout      *self,
                                                 cairo_t              *cr,
                                                 gboolean              dark);
int              tp_picture_layout_node_at      (TpPictureLayout      *self,
                                                 double                x,
                                                 double                y);
gboolean         tp_picture_layout_node_bounds  (TpPictureLayout      *self,
                                                 int                   node,
                                                 double               *x,
                                                 double               *y,
                                                 double               *width,
                                                 double               *height);

/* Lays out @dot; @callback runs on the caller's main context.  Cancel
 * @cancellable to drop the work (a child process is killed). */
void             tp_picture_layout_new_async    (const char           *dot,
                                                 GCancellable         *cancellable,
                                                 GAsyncReadyCallback   callback,
                                                 gpointer              user_data);
TpPictureLayout *tp_picture_layout_new_finish   (GAsyncResult         *result,
                                                 GError              **error);

/* Writes the picture of @dot as "svg" or "png" to @file. */
void             tp_picture_export_async        (const char           *dot,
                                                 const char           *format,
                                                 GFile                *file,
                                                 GCancellable         *cancellable,
                                                 GAsyncReadyCallback   callback,
                                                 gpointer              user_data);
gboolean         tp_picture_export_finish       (GAsyncResult         *result,
                                                 GError              **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TpPictureLayout, tp_picture_layout_unref)

G_END_DECLS
