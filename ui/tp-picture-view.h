/* tp-picture-view.h: the picture pane; the DOT reading laid out by
 * graphviz (render/tp-render.h), rasterized from its vectors with cairo in a
 * worker thread at the scale shown, zoomable and pannable. */
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
void        tp_picture_view_set_worker     (TpPictureView   *self,
                                            TpPictureWorker *worker);
TpPictureWorker *tp_picture_view_get_worker (TpPictureView *self);
gboolean    tp_picture_view_get_busy       (TpPictureView *self);
gboolean    tp_picture_view_has_picture    (TpPictureView *self);
/* Kernels as clusters (the fusion's, tp_session_dot_kernels), and the
 * DOT shown or asked for; for tests. */
GtkToggleButton *tp_picture_view_get_kernels_button (TpPictureView *self);
GtkToggleButton *tp_picture_view_get_tangents_button (TpPictureView *self);
const char *tp_picture_view_get_dot        (TpPictureView *self);
void        tp_picture_view_zoom_fit       (TpPictureView *self);
void        tp_picture_view_zoom_actual    (TpPictureView *self);
void        tp_picture_view_place_next     (TpPictureView *self);
void        tp_picture_view_zoom_in        (TpPictureView *self);
void        tp_picture_view_zoom_out       (TpPictureView *self);
void        tp_picture_view_get_offset     (TpPictureView *self,
                                            double        *x,
                                            double        *y);
void        tp_picture_view_set_presenting (TpPictureView *self,
                                            gboolean       presenting);
void        tp_picture_view_set_text_scale (TpPictureView *self,
                                            double         scale);
double      tp_picture_view_get_readable_height (TpPictureView *self);
gboolean    tp_picture_view_get_degraded   (TpPictureView *self);
gboolean    tp_picture_view_get_stale      (TpPictureView *self);
GtkWidget  *tp_picture_view_get_canvas     (TpPictureView *self);
gboolean    tp_picture_view_get_node_center (TpPictureView *self,
                                             int            node,
                                             double        *x,
                                             double        *y);
gboolean    tp_picture_view_get_selected_bounds (TpPictureView   *self,
                                                 graphene_rect_t *bounds);
/* The step-through's styling: per node a TpNodeState (pending nodes are
 * veiled, live ones outlined green, freed ones greyed), optionally with
 * TP_PICTURE_NODE_EMPHASIS (a share and the gradient it goes to);
 * NULL clears it.  Drawn on top of the raster, like the selection. */
#define TP_PICTURE_NODE_EMPHASIS 0x10
void        tp_picture_view_set_node_states (TpPictureView *self,
                                             const guint8  *states,
                                             guint          n_states);
guint8      tp_picture_view_get_node_state  (TpPictureView *self,
                                             guint          node);
/* The raster the canvas shows (the picture is drawn off the main thread
 * into a texture), how many were started, and the scale shown: for tests
 * and the benchmark. */
GdkTexture *tp_picture_view_get_texture    (TpPictureView *self);
guint       tp_picture_view_get_n_rasters  (TpPictureView *self);
gboolean    tp_picture_view_is_rasterizing (TpPictureView *self);
double      tp_picture_view_get_scale      (TpPictureView *self);
double      tp_picture_view_get_label_height (TpPictureView *self);

G_END_DECLS
