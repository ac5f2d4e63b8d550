/* tp-picture-xdot.h: graphviz's own drawing of a picture, drawn with
 * cairo and Pango.
 *
 * The layout worker sends the drawing as graphviz's xdot operations
 * (tp_render_xdot: one run of operations per drawn attribute, in
 * graphviz's drawing order) and the Pango font description each font
 * name resolved to in graphviz; libxdot parses them, and this draws them
 * as graphviz's cairo renderer draws the same operations: the same
 * shapes, colours, line styles, fonts and text positions.  A drawing is
 * immutable once made and may be drawn from several threads at once:
 * text goes through the calling thread's own Pango font map (Pango's
 * default font maps are per thread). */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

typedef struct _TpPictureDrawing TpPictureDrawing;

/* @ops is tp_render_xdot's text (@length bytes, NUL-separated runs);
 * @fonts holds pairs of strings, a font name and its Pango description,
 * and ends with NULL.  (@dx, @dy) places graphviz's coordinates in
 * points, as tp_render_xdot says.  NULL with @error set when an
 * operation does not parse. */
TpPictureDrawing *tp_picture_drawing_new  (const char         *ops,
                                           gsize               length,
                                           double              dx,
                                           double              dy,
                                           const char *const  *fonts,
                                           GError            **error);
void              tp_picture_drawing_free (TpPictureDrawing   *self);
/* Draws at one point per user unit, origin top-left; the background is
 * left as it is.  Any thread. */
void              tp_picture_drawing_draw (const TpPictureDrawing *self,
                                           cairo_t                *cr);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TpPictureDrawing, tp_picture_drawing_free)

G_END_DECLS
