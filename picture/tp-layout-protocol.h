/* tp-layout-protocol.h: what the app and its layout worker process
 * (topos-layout-worker, tp-layout-worker.c) say to each other over the
 * worker's standard input and output.  Both ends are built from this
 * tree at once, so the numbers are native-endian and unversioned.
 *
 * A request is two guint32, (kind, length), then `length` bytes of DOT.
 * A reply is one guint32 length, then that many bytes:
 *
 *   guint32 ok, guint32 degraded, double width, double height (points),
 *   guint32 n_boxes, n_boxes x (guint32 node, double x, y, w, h),
 *   bytes diagnostics, bytes payload
 *
 * where "bytes" is a guint32 length and the bytes.  The payload of an
 * export is the file; that of a layout is
 *
 *   double dx, double dy          (tp_render_xdot's offsets)
 *   guint32 n_fonts, n_fonts x (bytes name, bytes description)
 *   bytes ops                     (tp_render_xdot's text)
 *
 * where each font name the ops use comes with the Pango font
 * description graphviz's text layout resolved it to ("Helvetica" may be
 * drawn with "DejaVu Sans"), so the app draws the very fonts graphviz
 * measured.
 *
 * A screen layout (the picture as the pane shows it, tp-picture-screen.h:
 * set tighter, its legend apart) is a layout's reply followed by
 *
 *   guint32 target                (the node tagged the target, G_MAXUINT32
 *                                  for none)
 *   bytes legend                  (the legend laid out alone: a whole
 *                                  layout reply, its own length not
 *                                  repeated; empty when there is none)
 */
#pragma once

enum
{
  TP_LAYOUT_REQUEST_LAYOUT = 1,
  TP_LAYOUT_REQUEST_SVG = 2,
  TP_LAYOUT_REQUEST_PNG = 3,          /* transparent, as `topos --png` */
  TP_LAYOUT_REQUEST_PNG_LIGHT = 4,    /* over the light style's background */
  TP_LAYOUT_REQUEST_PNG_DARK = 5,     /* over the dark style's */
  TP_LAYOUT_REQUEST_SCREEN = 6,       /* a layout as the pane shows it */
};

/* The worker's executable, and the argument that makes it serve. */
#define TP_LAYOUT_WORKER_NAME "topos-layout-worker"
#define TP_LAYOUT_WORKER_MODE "--serve"

#define TP_LAYOUT_MAX_DOT_BYTES (16u << 20)
#define TP_LAYOUT_MAX_REPLY_BYTES (512u << 20)

/* topos --png writes two pixels per point: the export does the same. */
#define TP_LAYOUT_EXPORT_PNG_SCALE 2.0
