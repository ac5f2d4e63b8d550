/* tp-render.h: the picture's renderer: DOT -> graphviz `dot` layout ->
 * a cairo recording, SVG text and PNG bytes.  Plain C on graphviz and
 * cairo, with neither GLib nor GTK nor the engine's internals, so the
 * command line uses it as well as the desktop app.
 *
 * ## How front ends must call it
 *
 * Graphviz is neither thread-safe (it keeps global state: the error hook,
 * plugin tables, static buffers) nor interruptible (a large layout runs
 * to its end).  Therefore:
 *
 * - tp_render_new is the only call that runs graphviz.  Call it from ONE
 *   background worker at a time, never on the main thread, never from
 *   two threads at once.  Drop its result when the DOT it was made from
 *   is no longer current; do not wait for it on the main thread.
 * - Inside a GTK app that worker must be a process, not a thread:
 *   graphviz lays text out with pango and harfbuzz, which crashed (about
 *   one test run in ten) while GTK drew text on the main thread.  The
 *   desktop app runs it in a worker program of its own,
 *   topos-layout-worker (picture/tp-layout-worker.c), and draws the
 *   xdot operations it sends back.  A program with no other pango user,
 *   such as the command line, may call it on any one thread.
 * - If a front end must be able to abandon a layout (a user typing fast
 *   into a big program), lay out in a child process it can kill, e.g.
 *   run `topos --svg` or `topos --png`, or fork and call tp_render_new in
 *   the child.  A thread cannot be stopped safely in the middle of
 *   graphviz.
 * - The node budget (TpRenderOptions.budget) bounds the work: a graph
 *   whose estimated layout cost is over it is not laid out; a short
 *   notice picture that says so is drawn instead and tp_render_degraded
 *   is true.  The engine's DOT already degrades below this budget
 *   (TP_PICTURE_BUDGET in tp-engine.h); this one is the renderer's own safety net.
 * - Everything else works on the finished, immutable TpRender and never
 *   touches graphviz: tp_render_draw replays a cairo recording surface,
 *   tp_render_png rasterises it, the getters read plain data.  One
 *   TpRender may be used from any single thread at a time, so the worker
 *   can hand it to the main thread for drawing.
 * - Graphviz 2.43 leaks memory in every layout (dot's virtual edges, its
 *   HTML-label parser, pango markup in its text layout): about 1 KB per
 *   node, 50 KB for the two-layers sample (valgrind, this renderer's
 *   own allocations all freed).  A front end that lays out on every
 *   keystroke for hours should do it in a worker process it recycles
 *   now and then (the same process it can kill).
 * - tp_render_new switches its own thread to the C numeric locale while
 *   graphviz runs (graphviz parses and prints numbers with the C library,
 *   and GTK calls setlocale), and restores it.  It sets graphviz's error
 *   hook for its duration: graphviz errors and warnings become the
 *   diagnostics text instead of going to standard error.
 *
 * ## Units
 *
 * Points (1/72 inch), origin at the top-left corner of the picture,
 * padding included.  A DOT's own resolution, size, viewport and rotation
 * are set aside, so the drawing is always the layout's box.  A desktop view at 96 dpi scales by 96/72 times its
 * zoom. */
#ifndef TP_RENDER_H
#define TP_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cairo.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The renderer's default budget, in the engine's layout cost units
 * (nodes + edges + ranks crossed by long edges, see tp_dot_cost): twice
 * the engine's own budget, so only DOT that did not come from the engine
 * (or a tighter caller) meets it. */
#define TP_RENDER_BUDGET 12000u

/* cgraph's graph (Agraph_t), for the callers that edit one. */
struct Agraph_s;

typedef struct
{
  uint32_t budget;    /* layout cost budget; 0 means TP_RENDER_BUDGET */
  bool svg;           /* also write the SVG text */
  bool draw;          /* also record the drawing for tp_render_draw/png */
  bool xdot;          /* also keep graphviz's drawing operations */
  /* Called by tp_render_new with the graph as read, before its cost is
   * estimated and it is laid out, where graphviz runs: it may set
   * attributes (agattr, agsafeset) and take nodes out.  NULL: none. */
  void (*edit) (struct Agraph_s *graph, void *data);
  void *edit_data;
} TpRenderOptions;

typedef struct _TpRender TpRender;

/* Lays out dot (NUL-terminated).  Returns NULL only when memory runs
 * out; otherwise check tp_render_ok.  options may be NULL: SVG and
 * drawing both, the default budget.  Runs graphviz: see above. */
TpRender      *tp_render_new          (const char *dot,
                                       const TpRenderOptions *options);
/* Lays out a graph the caller made with cgraph (an edit hook's, say) as
 * tp_render_new lays out what it reads; the graph stays the caller's
 * (the layout's attributes are set on it, its layout freed after).
 * Runs graphviz: call it where tp_render_new may be called. */
TpRender      *tp_render_new_graph    (struct Agraph_s *graph,
                                       const TpRenderOptions *options);
void           tp_render_free         (TpRender *render);

/* False when graphviz refused the DOT or failed; the diagnostics say
 * why and there is nothing to draw. */
bool           tp_render_ok           (const TpRender *render);
/* True when the graph was over the budget and a notice was laid out. */
bool           tp_render_degraded     (const TpRender *render);
/* Graphviz's errors and warnings and the renderer's own notes, one per
 * line; "" when there are none.  Borrowed. */
const char    *tp_render_diagnostics  (const TpRender *render);

/* The layout cost estimated before laying out (see TpRenderOptions). */
uint64_t       tp_render_cost         (const TpRender *render);

/* The picture's size in points. */
double         tp_render_width        (const TpRender *render);
double         tp_render_height       (const TpRender *render);

/* Draws the picture into cr at its current transform, one unit per
 * point, origin top-left; the background is left as it is (the picture
 * is transparent and reads on light and dark backgrounds).  Scale cr
 * for any zoom: the recording is vector data and replays sharply. */
void           tp_render_draw         (const TpRender *render, cairo_t *cr);

/* The SVG text (self-contained: no external stylesheet, image or font
 * file), or NULL when it was not asked for or the render failed.
 * Borrowed; *length may be NULL. */
const char    *tp_render_svg          (const TpRender *render,
                                       size_t *length);

/* Graphviz's own drawing of the picture as xdot drawing operations
 * (graphviz's xdot format, version 1.7: shapes, colours, styles, fonts
 * and text), or NULL when they were not asked for or the render failed.
 * The text is a run of NUL-terminated strings, one per drawn attribute
 * (_draw_, _ldraw_, _hdraw_, ... of the graph, its clusters, nodes and
 * edges) in the order graphviz's cairo renderer draws them; each starts
 * from xdot's default drawing state.  A transparent background is left
 * out, as tp_render_draw leaves it.  Coordinates are graphviz's, in
 * points with y up: a point (x, y) is at (x + *dx, *dy - y) in the
 * picture's units (dx and dy may be NULL).  Borrowed; *length (which
 * may be NULL) counts every NUL. */
const char    *tp_render_xdot         (const TpRender *render,
                                       size_t *length,
                                       double *dx,
                                       double *dy);

/* PNG bytes at scale pixels per point (96 dpi is 4/3), over background
 * (RGBA, 0..1) or transparent when background is NULL.  The image is
 * ceil(width * scale) by ceil(height * scale) pixels.  Returns a malloc'd
 * buffer the caller frees with free(), or NULL (failed render, nothing
 * recorded, an image over 2^28 pixels or 32767 on a side, no memory). */
unsigned char *tp_render_png          (const TpRender *render,
                                       double scale,
                                       const double *background,
                                       size_t *length);

/* The boxes of the nodes whose DOT id is `n{index}` (the engine's tape
 * nodes), for hit tests: the tape index of the node under (x, y) in
 * points, or -1; and the box of one tape node (false when it is not
 * drawn). */
int64_t        tp_render_node_at      (const TpRender *render,
                                       double x, double y);
bool           tp_render_node_bounds  (const TpRender *render,
                                       uint32_t index,
                                       double *x, double *y,
                                       double *width, double *height);
/* Every tape node's box in drawing order: the count, and box k's tape
 * index and bounds (false when k is out of range). */
size_t         tp_render_n_boxes      (const TpRender *render);
bool           tp_render_box          (const TpRender *render, size_t k,
                                       uint32_t *index,
                                       double *x, double *y,
                                       double *width, double *height);

#ifdef __cplusplus
}
#endif

#endif /* TP_RENDER_H */
