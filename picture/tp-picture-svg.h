/* tp-picture-svg.h: replays the SVG that cairo's own SVG surface writes
 * as a cairo recording surface.
 *
 * The picture worker process (tp-picture-layout-render.c) draws the
 * renderer's recording (tp_render_draw) onto a cairo SVG surface and
 * sends the text; cairo writes every glyph as an outline path, so the
 * drawing arrives as plain vector paths, with no font and no text
 * layout left to do.  This reads back exactly that dialect (path, rect,
 * symbol/use, clipPath, pattern over a nested surface, group styles and
 * matrix transforms) and nothing more: it is not a general SVG reader.
 * Pure cairo and GLib: safe in any thread. */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

/* A recording surface with extents 0, 0, @width, @height (points), or
 * NULL with @error set when @svg is not cairo's SVG. */
cairo_surface_t *tp_picture_svg_replay (const char  *svg,
                                        gsize        length,
                                        double       width,
                                        double       height,
                                        GError     **error);

G_END_DECLS
