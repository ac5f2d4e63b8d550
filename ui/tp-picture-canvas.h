/* tp-picture-canvas.h: the picture pane's canvas, a widget of the pane's
 * own (tp-picture-view-private.h): it draws the raster the pane has made
 * and, on top, the step-through's node states and the selected node's
 * box, and tells the pane when its size or visibility changes. */
#pragma once

#include <gtk/gtk.h>

#include "tp-types.h"

G_BEGIN_DECLS

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

G_END_DECLS
