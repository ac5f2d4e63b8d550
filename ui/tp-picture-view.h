/* tp-picture-view.h: the picture pane; the DOT reading laid out by
 * graphviz (ui/tp-render.h) and drawn as vectors with cairo, zoomable and
 * pannable. */
#pragma once

#include <gtk/gtk.h>

#include "tp-types.h"

G_BEGIN_DECLS

#define TP_TYPE_PICTURE_VIEW (tp_picture_view_get_type ())

G_DECLARE_FINAL_TYPE (TpPictureView, tp_picture_view, TP, PICTURE_VIEW, GtkWidget)

GtkWidget  *tp_picture_view_new            (void);
void        tp_picture_view_set_document   (TpPictureView *self,
                                            TpDocument    *document);
TpDocument *tp_picture_view_get_document   (TpPictureView *self);
gboolean    tp_picture_view_get_busy       (TpPictureView *self);
gboolean    tp_picture_view_has_picture    (TpPictureView *self);
void        tp_picture_view_zoom_fit       (TpPictureView *self);
void        tp_picture_view_set_presenting (TpPictureView *self,
                                            gboolean       presenting);
gboolean    tp_picture_view_get_degraded   (TpPictureView *self);
GtkWidget  *tp_picture_view_get_canvas     (TpPictureView *self);
gboolean    tp_picture_view_get_node_center (TpPictureView *self,
                                             int            node,
                                             double        *x,
                                             double        *y);
gboolean    tp_picture_view_get_selected_bounds (TpPictureView   *self,
                                                 graphene_rect_t *bounds);

G_END_DECLS
