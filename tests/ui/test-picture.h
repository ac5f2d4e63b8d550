/* test-picture.h: what the picture's tests (test-picture*.c) share: the
 * worker, a layout waited for, a layout drawn at a scale, surfaces
 * compared, the screen's layout read by the text. */
#pragma once

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>
#include <sys/wait.h>

#include "tp-picture-raster.h"
#include "tp-document.h"
#include "tp-engine.h"
#include "tp-picture-layout.h"
#include "tp-picture-worker.h"
#include "tp-picture-screen.h"
#include "tp-picture-view.h"
#include "tp-samples.h"
#ifdef TP_HAVE_RENDER
#include "tp-render.h"
#endif
#include "tp-ui-test-util.h"
#include "../tp-test-ci.h"

/* A subprocess test gets this long. */
#define SUBPROCESS_TIMEOUT (60 * G_USEC_PER_SEC)

#define DOT "digraph tape {\n" \
            "  n0 [label=\"0 Parameter\"];\n" \
            "  n1 [label=\"1 Input\"];\n" \
            "  n2 [label=\"2 Mul\"];\n" \
            "  n0 -> n2; n1 -> n2;\n" \
            "}\n"

/* The test process's one picture worker, as an application owns one. */
static TpPictureWorker *worker;

typedef struct
{
  GMainLoop *loop;
  TpPictureLayout *layout;
  GError *error;
} Wait;

static inline void
layout_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      data)
{
  Wait *wait = data;

  wait->layout = tp_picture_worker_layout_finish (TP_PICTURE_WORKER (object), result, &wait->error);
  g_main_loop_quit (wait->loop);
}

static inline TpPictureLayout *
layout_sync (const char *dot,
             GError    **error)
{
  Wait wait = { g_main_loop_new (NULL, FALSE), NULL, NULL };

  tp_picture_worker_layout_async (worker, dot, NULL, layout_done_cb, &wait);
  g_main_loop_run (wait.loop);
  g_main_loop_unref (wait.loop);
  if (wait.error != NULL)
    g_propagate_error (error, wait.error);
  return wait.layout;
}

/* Pixels off by more than a tenth, for the pictures to count as the
 * same: at most one in 2000 (glyph edges where a label overlaps a line;
 * the app's drawing and the renderer's PNG come out of one graphviz
 * layout, drawn by two cairo programs). */
#define SAME_TOLERANCE 26
#define SAME_PIXELS(w, h) ((guint) ((gint64) (w) * (h) / 2000))

/* Pixels of two ARGB32 images (premultiplied, as cairo and GDK keep
 * them) of one size that differ by more than @tolerance in a channel. */
static inline guint
count_differences (const guint8 *a,
                   gsize         stride_a,
                   const guint8 *b,
                   gsize         stride_b,
                   int           width,
                   int           height,
                   int           tolerance)
{
  guint pixels = 0;

  for (int row = 0; row < height; row++)
    for (int col = 0; col < width; col++)
      {
        const guint8 *p = a + (gsize) row * stride_a + (gsize) col * 4;
        const guint8 *q = b + (gsize) row * stride_b + (gsize) col * 4;

        for (int c = 0; c < 4; c++)
          if (ABS ((int) p[c] - (int) q[c]) > tolerance)
            {
              pixels++;
              break;
            }
      }
  return pixels;
}

/* The screen's layout, by the text
 *
 * The oracle for the worker's screen layout (tp-picture-screen.h, done to
 * the parsed graph with cgraph): the same layout written as DOT
 * statements, as the app once edited the text.  After the engine's graph
 * and node defaults `graph [nodesep, ranksep]`, after its edge defaults
 * `node [margin]`, and the legend (the last statement, one node) out in
 * a graph of its own with the engine's defaults. */

#define LEGEND_START "\n  legend [id=\"legend\""

/* The end of the line that starts with @prefix (just past its '\n'),
 * searched from @from, or NULL. */
static inline const char *
after_line (const char *from,
            const char *prefix)
{
  const char *at = strstr (from, prefix);
  const char *end = at != NULL ? strchr (at, '\n') : NULL;

  return end != NULL ? end + 1 : NULL;
}

/* The node whose class names it the target: `  nN [id="nN", class="...
 * target..."`, or -1. */
static inline int
find_target (const char *dot)
{
  for (const char *at = strstr (dot, " target"); at != NULL; at = strstr (at + 1, " target"))
    {
      const char *line = at;
      const char *klass;

      while (line > dot && line[-1] != '\n')
        line--;
      klass = strstr (line, "class=\"");
      if (klass == NULL || klass > at || memchr (klass + 7, '"', (size_t) (at - klass - 7)) != NULL
          || (at[7] != '"' && at[7] != ' '))
        continue;
      while (*line == ' ')
        line++;
      if (line[0] == 'n' && g_ascii_isdigit (line[1]))
        return (int) strtol (line + 1, NULL, 10);
    }
  return -1;
}

typedef struct
{
  char *dot;          /* the graph, without its legend, set tighter */
  char *legend;       /* the legend alone as a graph, or NULL */
  int target;         /* the node the DOT marks as the target, or -1 */
} TextScreen;

static inline void
text_screen_init (TextScreen *self,
                  const char *dot)
{
  const char *graph_start = strstr (dot, "  graph [");
  const char *graph_end = graph_start != NULL ? after_line (graph_start, "  graph [") : NULL;
  const char *node_end = graph_end != NULL ? after_line (graph_end, "  node [") : NULL;
  const char *edge_end = node_end != NULL ? after_line (node_end, "  edge [") : NULL;
  const char *legend = edge_end != NULL ? strstr (edge_end, LEGEND_START) : NULL;
  GString *out;

  self->target = find_target (dot);
  self->legend = NULL;
  if (edge_end == NULL || !g_str_has_prefix (dot, "digraph "))
    {
      self->dot = g_strdup (dot);
      return;
    }
  out = g_string_new_len (dot, node_end - dot);
  g_string_append (out, "  graph [nodesep=" TP_SCREEN_NODESEP ", ranksep=" TP_SCREEN_RANKSEP "];\n");
  g_string_append_len (out, node_end, edge_end - node_end);
  g_string_append (out, "  node [margin=\"" TP_SCREEN_MARGIN "\"];\n");
  if (legend != NULL)
    {
      const char *legend_end = strstr (legend, ">];\n");

      g_string_append_len (out, edge_end, legend + 1 - edge_end);
      if (legend_end != NULL)
        {
          g_autoptr(GString) alone = g_string_new ("digraph legend {\n");

          g_string_append_len (alone, graph_start, edge_end - graph_start);
          g_string_append_len (alone, legend + 1, legend_end + 4 - (legend + 1));
          g_string_append (alone, "}\n");
          self->legend = g_string_free (g_steal_pointer (&alone), FALSE);
          g_string_append (out, legend_end + 4);
        }
    }
  else
    g_string_append (out, edge_end);
  self->dot = g_string_free (out, FALSE);
}

static inline void
text_screen_clear (TextScreen *self)
{
  g_clear_pointer (&self->dot, g_free);
  g_clear_pointer (&self->legend, g_free);
  self->target = -1;
}

static inline cairo_surface_t *
draw_at (TpPictureLayout *layout,
         double           zoom)
{
  int width = (int) (tp_picture_layout_get_width (layout) * zoom) + 1;
  int height = (int) (tp_picture_layout_get_height (layout) * zoom) + 1;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cairo_t *cr = cairo_create (surface);

  cairo_scale (cr, zoom, zoom);
  tp_picture_layout_draw (layout, cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

static inline gboolean
surfaces_equal (cairo_surface_t *a,
                cairo_surface_t *b)
{
  int height = cairo_image_surface_get_height (a);
  int stride = cairo_image_surface_get_stride (a);

  return cairo_image_surface_get_width (a) == cairo_image_surface_get_width (b)
         && height == cairo_image_surface_get_height (b)
         && memcmp (cairo_image_surface_get_data (a), cairo_image_surface_get_data (b),
                    (size_t) stride * (size_t) height) == 0;
}
