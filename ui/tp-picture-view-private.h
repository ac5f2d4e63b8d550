/* tp-picture-view-private.h: the picture pane's instance, shared by its
 * files: tp-picture-view.c (the widget, its layouts and rasters, the
 * legend), tp-picture-zoom.c (where the picture sits on the canvas, and
 * the zoom and pan that move it) and tp-picture-canvas.c (the canvas
 * widget and what it draws). */
#pragma once

#include "tp-document.h"
#include "tp-picture-canvas.h"
#include "tp-picture-raster.h"
#include "tp-picture-screen.h"
#include "tp-picture-view.h"
#include "tp-picture-worker.h"

G_BEGIN_DECLS

/* Picture pixels per point (96 dpi). */
#define TP_PICTURE_PX_PER_PT (96.0 / 72.0)

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
  GtkToggleButton *kernels_button;  /* the fusion's kernels as clusters */
  GtkToggleButton *tangents_button; /* forward mode's tangent band */
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

  double text_scale;            /* the text's size over its default */
  int fit_node;                 /* selected when Fit was pressed, or -1 */
  guint spec_nodes;             /* the forward band's nodes, of `layout` */
  guint next_spec_nodes;        /* of `next_layout` */
  guint dot_spec_nodes;         /* of `dot` */
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
  guint fit_pressed : 1;        /* the placement is Fit's: pressed again, the whole picture */
};

/* tp-picture-zoom.c */
void _tp_picture_view_get_transform_for (TpPictureView   *self,
                                         TpPictureLayout *layout,
                                         double          *scale,
                                         double          *ox,
                                         double          *oy);
void _tp_picture_view_get_transform     (TpPictureView   *self,
                                         double          *scale,
                                         double          *ox,
                                         double          *oy);
void _tp_picture_view_init_input        (TpPictureView   *self);

/* tp-picture-view.c */
void _tp_picture_view_update_raster     (TpPictureView   *self);
void _tp_picture_view_update_busy       (TpPictureView   *self);
void _tp_picture_view_moved             (TpPictureView   *self);

G_END_DECLS
