/* test-picture.c: the picture's layout seam: a DOT graph is laid out off
 * the main thread by the renderer, hit-tested by node, superseded
 * cleanly, kept for reuse, reduced over the budget, and exported exactly
 * as the command line exports it; drawn from several threads at once
 * safely; and the pane's rasters, made off the main thread, at the scale
 * shown and bounded, never for a selection. */
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

static void
layout_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      data)
{
  Wait *wait = data;

  wait->layout = tp_picture_worker_layout_finish (TP_PICTURE_WORKER (object), result, &wait->error);
  g_main_loop_quit (wait->loop);
}

static void
test_picture_layout (void)
{
  Wait wait = { g_main_loop_new (NULL, FALSE), NULL, NULL };
  double x, y, w, h;
  cairo_surface_t *surface;
  cairo_t *cr;

  tp_picture_worker_layout_async (worker, DOT, NULL, layout_done_cb, &wait);
  g_main_loop_run (wait.loop);
  g_assert_no_error (wait.error);
  g_assert_nonnull (wait.layout);
  g_assert_cmpfloat (tp_picture_layout_get_width (wait.layout), >, 50);
  g_assert_cmpfloat (tp_picture_layout_get_height (wait.layout), >, 50);

  /* every node has a box, and the box's centre finds the node */
  for (int node = 0; node < 3; node++)
    {
      g_assert_true (tp_picture_layout_node_bounds (wait.layout, node, &x, &y, &w, &h));
      g_assert_cmpint (tp_picture_layout_node_at (wait.layout, x + w / 2, y + h / 2), ==, node);
    }
  g_assert_false (tp_picture_layout_node_bounds (wait.layout, 3, &x, &y, &w, &h));
  g_assert_cmpint (tp_picture_layout_node_at (wait.layout, -10, -10), ==, -1);
  /* sources above their reader: the picture reads top to bottom */
  tp_picture_layout_node_bounds (wait.layout, 2, &x, &y, &w, &h);
  {
    double x0, y0, w0, h0;
    tp_picture_layout_node_bounds (wait.layout, 0, &x0, &y0, &w0, &h0);
    g_assert_cmpfloat (y0, <, y);
  }

  /* it draws into any cairo context */
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 400, 300);
  cr = cairo_create (surface);
  tp_picture_layout_draw (wait.layout, cr);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);

  tp_picture_layout_unref (wait.layout);
  g_main_loop_unref (wait.loop);
}

/* A cancelled layout reports cancellation, never a stale picture. */
static void
test_picture_cancel (void)
{
  Wait wait = { g_main_loop_new (NULL, FALSE), NULL, NULL };
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();

  tp_picture_worker_layout_async (worker, DOT, cancellable, layout_done_cb, &wait);
  g_cancellable_cancel (cancellable);
  g_main_loop_run (wait.loop);
  g_assert_null (wait.layout);
  g_assert_error (wait.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&wait.error);
  g_main_loop_unref (wait.loop);
}

static void
test_picture_bad_dot (void)
{
  Wait wait = { g_main_loop_new (NULL, FALSE), NULL, NULL };

  tp_picture_worker_layout_async (worker, "digraph { n0 -> }", NULL, layout_done_cb, &wait);
  g_main_loop_run (wait.loop);
  g_assert_null (wait.layout);
  g_assert_nonnull (wait.error);
  g_clear_error (&wait.error);
  g_main_loop_unref (wait.loop);
}

static void
export_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      data)
{
  Wait *wait = data;

  tp_picture_worker_export_finish (TP_PICTURE_WORKER (object), result, &wait->error);
  g_main_loop_quit (wait->loop);
}

static void
test_picture_export (void)
{
  static const char *const formats[] = { "svg", "png" };
  g_autofree char *dir = g_dir_make_tmp ("topos-export-XXXXXX", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      Wait wait = { g_main_loop_new (NULL, FALSE), NULL, NULL };
      g_autofree char *name = g_strconcat ("picture.", formats[i], NULL);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autoptr(GFile) file = g_file_new_for_path (path);
      g_autofree char *contents = NULL;
      gsize length = 0;

      tp_picture_worker_export_async (worker, DOT, formats[i], file, NULL, export_done_cb, &wait);
      g_main_loop_run (wait.loop);
      g_assert_no_error (wait.error);
      g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
      if (i == 0)
        g_assert_nonnull (g_strstr_len (contents, (gssize) length, "<svg"));
      else
        g_assert_true (memcmp (contents, "\x89PNG\r\n\x1a\n", 8) == 0);
      g_unlink (path);
      g_main_loop_unref (wait.loop);
    }
  g_rmdir (dir);
}

static TpPictureLayout *
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

/* The same DOT twice is laid out once: graphviz leaks with every layout,
 * and undo or a choice flipped back must not pay again. */
static void
test_picture_cache (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dot = g_strconcat (DOT, "/* cache */\n", NULL);
  TpPictureLayout *first, *second;
  guint before;

  first = layout_sync (dot, &error);
  g_assert_no_error (error);
  before = tp_picture_worker_get_n_layouts (worker);
  second = layout_sync (dot, &error);
  g_assert_no_error (error);
  g_assert_true (first == second);
  g_assert_cmpuint (tp_picture_worker_get_n_layouts (worker), ==, before);
  tp_picture_layout_unref (first);
  tp_picture_layout_unref (second);
}

/* The drawing is vector data: drawn at 8x, a node's edge is as sharp as
 * at 1x (a hard edge: few partly covered pixels along a scan line). */
static void
test_picture_vector (void)
{
  g_autoptr(GError) error = NULL;
  TpPictureLayout *layout = layout_sync (DOT, &error);
  double x, y, w, h;
  const double zoom = 8;
  cairo_surface_t *surface;
  cairo_t *cr;
  int width, height, stride, row, partial = 0;
  unsigned char *data;

  g_assert_no_error (error);
  g_assert_true (tp_picture_layout_node_bounds (layout, 2, &x, &y, &w, &h));
  width = (int) (tp_picture_layout_get_width (layout) * zoom) + 1;
  height = (int) (tp_picture_layout_get_height (layout) * zoom) + 1;
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cr = cairo_create (surface);
  cairo_scale (cr, zoom, zoom);
  tp_picture_layout_draw (layout, cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  data = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);
  /* along the row through the node's middle, count pixels that are
   * neither empty nor opaque: a bitmap scaled up 8x smears each edge over
   * several pixels, vectors over one or two */
  row = (int) ((y + h / 2) * zoom);
  for (int col = (int) (x * zoom) - 20; col < (int) ((x + w / 4) * zoom); col++)
    {
      guint8 alpha = data[row * stride + col * 4 + 3];
      if (alpha > 16 && alpha < 239)
        partial++;
    }
  g_assert_cmpint (partial, <=, 6);
  cairo_surface_destroy (surface);
  tp_picture_layout_unref (layout);
}

/* Over the budget the picture is reduced, and says so. */
static void
test_picture_budget (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) big = g_string_new ("digraph big {\n");
  TpPictureLayout *layout;

  /* not the engine's: the renderer's own safety net draws a notice */
  for (guint i = 0; i < 7000; i++)
    g_string_append_printf (big, "  n%u -> n%u;\n", i, i + 1);
  g_string_append (big, "}\n");
  layout = layout_sync (big->str, &error);
  g_assert_no_error (error);
  g_assert_true (tp_picture_layout_get_degraded (layout));
  g_assert_cmpint (tp_picture_layout_node_at (layout, 10, 10), ==, -1);
  tp_picture_layout_unref (layout);

  layout = layout_sync (DOT, &error);
  g_assert_no_error (error);
  g_assert_false (tp_picture_layout_get_degraded (layout));
  tp_picture_layout_unref (layout);
}

/* The engine's reduced picture (a program far over the budget) is drawn
 * with its note, and the engine flags it. */
static void
test_picture_engine_reduced (void)
{
  g_autoptr(GString) program = g_string_new ("x = input [4, 8]\n");
  g_autoptr(GError) error = NULL;
  TpSession *session = tp_session_new ();
  TpPictureLayout *layout;
  const char *prev = "x";
  char name[32];

  for (guint i = 0; i < 150; i++)
    {
      g_string_append_printf (program, "w%u = parameter [8, 8]\nh%u = tanh(%s @ w%u) + %s\n",
                              i, i, prev, i, prev);
      g_snprintf (name, sizeof name, "h%u", i);
      prev = g_intern_string (name);
    }
  g_string_append_printf (program, "loss = sum(%s * %s)\n", prev, prev);
  g_assert_cmpint (tp_session_compile (session, program->str, program->len, NULL), ==, TP_STATUS_OK);
  /* the engine says it reduced the picture; the renderer, within its
   * own budget, lays the reduced DOT out as it is */
  g_assert_true (tp_session_picture_reduced (session));
  layout = layout_sync (tp_session_reading (session, TP_READING_DOT), &error);
  g_assert_no_error (error);
  g_assert_false (tp_picture_layout_get_degraded (layout));
  /* the forward band is drawn: node 0 (the input) has a box */
  {
    double x, y, w, h;
    g_assert_true (tp_picture_layout_node_bounds (layout, 0, &x, &y, &w, &h));
  }
  tp_picture_layout_unref (layout);
  tp_session_free (session);
}

static void
run_topos (const char *flag,
           const char *out,
           const char *program)
{
  const char *topos = g_getenv ("TP_TOPOS");
  g_autoptr(GError) error = NULL;
  int status = 0;

  if (!g_spawn_sync (NULL, (char *[]) { (char *) topos, (char *) flag, (char *) out, (char *) program, NULL },
                     NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, &error))
    g_error ("cannot run %s: %s", topos, error->message);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

/* An export writes the very bytes `topos --svg` and `topos --png` write
 * for the same program. */
static void
test_picture_export_matches_cli (void)
{
  static const char *const formats[] = { "svg", "png" };
  const char *samples = g_getenv ("TP_SAMPLES_DIR");
  g_autofree char *program = NULL;
  g_autofree char *source = NULL;
  g_autofree char *dir = g_dir_make_tmp ("topos-export-XXXXXX", NULL);
  TpSession *session = tp_session_new ();
  gsize length = 0;

  if (g_getenv ("TP_TOPOS") == NULL || samples == NULL)
    {
      tp_test_cannot_run ("TP_TOPOS and TP_SAMPLES_DIR are not set");
      return;
    }
  program = g_build_filename (samples, "two-layers.tape", NULL);
  g_assert_true (g_file_get_contents (program, &source, &length, NULL));
  g_assert_cmpint (tp_session_compile (session, source, length, NULL), ==, TP_STATUS_OK);
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      Wait wait = { g_main_loop_new (NULL, FALSE), NULL, NULL };
      g_autofree char *ours = g_strdup_printf ("%s/app.%s", dir, formats[i]);
      g_autofree char *cli = g_strdup_printf ("%s/cli.%s", dir, formats[i]);
      g_autofree char *flag = g_strdup_printf ("--%s", formats[i]);
      g_autoptr(GFile) file = g_file_new_for_path (ours);
      g_autofree char *a = NULL;
      g_autofree char *b = NULL;
      gsize la = 0, lb = 0;

      tp_picture_worker_export_async (worker, tp_session_reading (session, TP_READING_DOT), formats[i], file, NULL,
                               export_done_cb, &wait);
      g_main_loop_run (wait.loop);
      g_assert_no_error (wait.error);
      run_topos (flag, cli, program);
      g_assert_true (g_file_get_contents (ours, &a, &la, NULL));
      g_assert_true (g_file_get_contents (cli, &b, &lb, NULL));
      g_assert_cmpuint (la, >, 1000);
      g_assert_cmpuint (la, ==, lb);
      g_assert_true (memcmp (a, b, la) == 0);
      g_unlink (ours);
      g_unlink (cli);
      g_main_loop_unref (wait.loop);
    }
  g_rmdir (dir);
  tp_session_free (session);
}

/* Pixels of two ARGB32 images (premultiplied, as cairo and GDK keep
 * them) of one size that differ by more than @tolerance in a channel. */
static guint
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

/* Pixels off by more than a tenth, for the pictures to count as the
 * same: at most one in 2000 (glyph edges where a label overlaps a line;
 * the app's drawing and the renderer's PNG come out of one graphviz
 * layout, drawn by two cairo programs). */
#define SAME_TOLERANCE 26
#define SAME_PIXELS(w, h) ((guint) ((gint64) (w) * (h) / 2000))

#ifdef TP_HAVE_RENDER
typedef struct
{
  const guint8 *data;
  gsize length;
  gsize at;
} PngReader;

static cairo_status_t
png_read_cb (void          *closure,
             unsigned char *data,
             unsigned int   length)
{
  PngReader *r = closure;

  if (r->length - r->at < length)
    return CAIRO_STATUS_READ_ERROR;
  memcpy (data, r->data + r->at, length);
  r->at += length;
  return CAIRO_STATUS_SUCCESS;
}

/* The renderer's PNG of @render (the bytes `topos --png` writes, at
 * @scale pixels per point), decoded. */
static cairo_surface_t *
renderer_png (TpRender *render,
              double    scale)
{
  size_t length = 0;
  unsigned char *png = tp_render_png (render, scale, NULL, &length);
  PngReader reader = { png, length, 0 };
  cairo_surface_t *image;

  g_assert_nonnull (png);
  image = cairo_image_surface_create_from_png_stream (png_read_cb, &reader);
  g_assert_cmpint (cairo_surface_status (image), ==, CAIRO_STATUS_SUCCESS);
  free (png);
  return image;
}

/* The picture the app draws is graphviz's own: laid out in the worker
 * process, sent as xdot operations and drawn here with cairo and Pango,
 * every sample comes out as the renderer's PNG (what `topos --png`
 * writes) at the same scale, with the same size and node boxes. */
static void
test_picture_draw_matches_renderer (void)
{
  const char *samples = g_getenv ("TP_SAMPLES_DIR");
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *entry;

  if (samples == NULL)
    {
      tp_test_cannot_run ("TP_SAMPLES_DIR is not set");
      return;
    }
  dir = g_dir_open (samples, 0, NULL);
  g_assert_nonnull (dir);
  while ((entry = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (entry, ".tape"))
      g_ptr_array_add (names, g_strdup (entry));
  g_assert_cmpuint (names->len, >=, 5);

  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *program = g_build_filename (samples, names->pdata[i], NULL);
      g_autofree char *source = NULL;
      g_autoptr(GError) error = NULL;
      TpSession *session = tp_session_new ();
      TpPictureLayout *layout;
      TpRender *render;
      cairo_surface_t *ours, *theirs;
      gsize length = 0;
      int width, height, n_nodes = 0;
      guint differ;
      double x, y, w, h, rx, ry, rw, rh;
      /* canvas pixels per picture pixel: two, one and 4/3 pixels per
       * point.  At a scale between whole pixels per point, cairo's replay
       * of a recording (the renderer's PNG) parts from a direct drawing
       * along antialiased edges (about 2% of the pixels at 4/3): there,
       * ours goes through a recording in points too, replayed as
       * tp_render_draw replays the renderer's. */
      static const double zooms[] = { 1.5, 0.75, 1.0 };

      g_assert_true (g_file_get_contents (program, &source, &length, NULL));
      g_assert_cmpint (tp_session_compile (session, source, length, NULL), ==, TP_STATUS_OK);
      layout = layout_sync (tp_session_reading (session, TP_READING_DOT), &error);
      g_assert_no_error (error);
      render = tp_render_new (tp_session_reading (session, TP_READING_DOT), NULL);
      g_assert_true (tp_render_ok (render));

      /* same size, same boxes */
      g_assert_cmpfloat_with_epsilon (tp_picture_layout_get_width (layout), tp_render_width (render) * 96 / 72, 1e-6);
      g_assert_cmpfloat_with_epsilon (tp_picture_layout_get_height (layout), tp_render_height (render) * 96 / 72, 1e-6);
      for (int node = 0; node < 400; node++)
        {
          gboolean a = tp_picture_layout_node_bounds (layout, node, &x, &y, &w, &h);
          gboolean b = tp_render_node_bounds (render, (uint32_t) node, &rx, &ry, &rw, &rh);

          g_assert_cmpint (a, ==, b);
          if (a)
            {
              n_nodes++;
              g_assert_cmpfloat_with_epsilon (x, rx * 96 / 72, 1e-6);
              g_assert_cmpfloat_with_epsilon (h, rh * 96 / 72, 1e-6);
              g_assert_cmpint (tp_picture_layout_node_at (layout, x + w / 2, y + h / 2), ==, node);
            }
        }
      g_assert_cmpint (n_nodes, >, 0);

      /* same pixels */
      for (guint z = 0; z < G_N_ELEMENTS (zooms); z++)
        {
          double zoom = zooms[z];

          theirs = renderer_png (render, zoom * 96 / 72);
          width = cairo_image_surface_get_width (theirs);
          height = cairo_image_surface_get_height (theirs);
          g_assert_cmpint (abs (width - (int) ceil (tp_picture_layout_get_width (layout) * zoom)), <=, 1);
          ours = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
          {
            cairo_t *cr = cairo_create (ours);

            if (zoom == 1.0)
              {
                cairo_rectangle_t points = { 0, 0, tp_render_width (render), tp_render_height (render) };
                cairo_surface_t *recording = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, &points);
                cairo_t *rc = cairo_create (recording);

                cairo_scale (rc, 72.0 / 96, 72.0 / 96);
                tp_picture_layout_draw (layout, rc);
                cairo_destroy (rc);
                cairo_scale (cr, zoom * 96 / 72, zoom * 96 / 72);
                cairo_set_source_surface (cr, recording, 0, 0);
                cairo_rectangle (cr, 0, 0, points.width, points.height);
                cairo_fill (cr);
                cairo_surface_destroy (recording);
              }
            else
              {
                cairo_scale (cr, zoom, zoom);
                tp_picture_layout_draw (layout, cr);
              }
            cairo_destroy (cr);
          }
          cairo_surface_flush (ours);
          differ = count_differences (cairo_image_surface_get_data (ours), (gsize) cairo_image_surface_get_stride (ours),
                                      cairo_image_surface_get_data (theirs), (gsize) cairo_image_surface_get_stride (theirs),
                                      width, height, SAME_TOLERANCE);
          g_test_message ("%s at %g: %u of %d pixels differ", (const char *) names->pdata[i], zoom, differ,
                          width * height);
          g_assert_cmpuint (differ, <=, SAME_PIXELS (width, height));
          cairo_surface_destroy (ours);
          cairo_surface_destroy (theirs);
        }

      tp_render_free (render);
      tp_picture_layout_unref (layout);
      tp_session_free (session);
    }
}
#endif

/* A long layout that went stale is not waited for: the worker is killed
 * and replaced, and the next picture comes at once. */
static void
test_picture_stale_killed (void)
{
  g_autoptr(GString) big = g_string_new ("digraph slow {\n");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  Wait wait = { g_main_loop_new (NULL, FALSE), NULL, NULL };
  TpPictureLayout *small;
  guint workers;
  guint32 seed = 1;
  gint64 start;

  /* about 1100 nodes, under the budget, about a second of layout */
  for (guint i = 0; i < 1100; i++)
    g_string_append_printf (big, "  n%u [label=\"node %u with a longer label\"];\n", i, i);
  for (guint i = 1; i < 1100; i++)
    for (guint k = 0; k < 2; k++)
      {
        guint lo = i > 40 ? i - 40 : 0;

        seed = seed * 1103515245u + 12345u;
        g_string_append_printf (big, "  n%u -> n%u;\n", lo + (seed >> 16) % (i - lo), i);
      }
  g_string_append (big, "}\n");

  /* the worker is up and warm */
  small = layout_sync (DOT, &error);
  g_assert_no_error (error);
  tp_picture_layout_unref (small);
  workers = tp_picture_worker_get_n_workers (worker);

  tp_picture_worker_layout_async (worker, big->str, cancellable, layout_done_cb, &wait);
  start = g_get_monotonic_time ();
  while (g_get_monotonic_time () - start < 100 * 1000)
    g_main_context_iteration (NULL, FALSE);
  g_cancellable_cancel (cancellable);
  {
    g_autofree char *other = g_strconcat (DOT, "/* after the stale one */\n", NULL);

    small = layout_sync (other, &error);
  }
  g_assert_no_error (error);
  g_assert_nonnull (small);
  tp_picture_layout_unref (small);
  /* the stale one reported cancellation, never a picture */
  if (wait.layout == NULL && wait.error == NULL)
    g_main_loop_run (wait.loop);
  g_assert_null (wait.layout);
  g_assert_error (wait.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&wait.error);
  g_assert_cmpuint (tp_picture_worker_get_n_workers (worker), ==, workers + 1);
  g_main_loop_unref (wait.loop);
}

/* {==== the worker program ====} */

/* The worker is a program of its own with one explicit mode: run without
 * it, it says what it is and stops; fed a broken request, it stops with
 * a failure, never a crash; fed a good one, it answers. */
static void
test_picture_worker_program (void)
{
  const char *program = g_getenv ("TP_LAYOUT_WORKER");
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  g_autofree char *out = NULL;
  int status = 0;

  if (program == NULL)
    {
      tp_test_cannot_run ("TP_LAYOUT_WORKER is not set");
      return;
    }
  g_assert_true (g_spawn_sync (NULL, (char *[]) { (char *) program, NULL }, NULL, G_SPAWN_DEFAULT,
                               NULL, NULL, NULL, &err, &status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 2);
  g_assert_nonnull (strstr (err, "--serve"));

  {
    /* a request of an unknown kind, then one cut short */
    static const guint32 unknown[2] = { 77, 3 };
    static const guint32 short_one[2] = { 1, 1000 };
    const void *requests[] = { unknown, short_one };

    for (guint i = 0; i < G_N_ELEMENTS (requests); i++)
      {
        g_autoptr(GSubprocess) process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_SILENCE,
                                                           &error, program, "--serve", NULL);
        GOutputStream *in;

        g_assert_no_error (error);
        in = g_subprocess_get_stdin_pipe (process);
        g_assert_true (g_output_stream_write_all (in, requests[i], 2 * sizeof (guint32), NULL, NULL, &error));
        g_assert_true (g_output_stream_write_all (in, "digraph", 7, NULL, NULL, &error));
        g_assert_no_error (error);
        g_assert_true (g_output_stream_close (in, NULL, &error));
        g_assert_true (g_subprocess_wait (process, NULL, &error));
        g_assert_true (g_subprocess_get_if_exited (process));
        g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 1);
      }
  }

  {
    /* a layout: the reply says ok, and the input's end ends it cleanly */
    g_autoptr(GSubprocess) process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE,
                                                       &error, program, "--serve", NULL);
    guint32 head[2] = { 1, (guint32) strlen (DOT) };
    guint32 length = 0, ok = 0;
    gsize got = 0;
    g_autofree guint8 *reply = NULL;

    g_assert_no_error (error);
    g_assert_true (g_output_stream_write_all (g_subprocess_get_stdin_pipe (process), head, sizeof head, NULL, NULL, &error));
    g_assert_true (g_output_stream_write_all (g_subprocess_get_stdin_pipe (process), DOT, head[1], NULL, NULL, &error));
    g_assert_true (g_input_stream_read_all (g_subprocess_get_stdout_pipe (process), &length, sizeof length, &got, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (got, ==, sizeof length);
    g_assert_cmpuint (length, >, 100);
    reply = g_malloc (length);
    g_assert_true (g_input_stream_read_all (g_subprocess_get_stdout_pipe (process), reply, length, &got, NULL, &error));
    g_assert_cmpuint (got, ==, length);
    memcpy (&ok, reply, sizeof ok);
    g_assert_cmpuint (ok, ==, 1);
    g_assert_true (g_output_stream_close (g_subprocess_get_stdin_pipe (process), NULL, &error));
    g_assert_true (g_subprocess_wait (process, NULL, &error));
    g_assert_true (g_subprocess_get_if_exited (process));
    g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 0);
  }
}

/* No worker to be found: a layout fails with a message, the app goes on. */
static void
test_picture_worker_missing (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr(GError) error = NULL;
      TpPictureLayout *layout;

      g_setenv ("TP_LAYOUT_WORKER", "/nonexistent/topos-layout-worker", TRUE);
      layout = layout_sync (DOT, &error);
      g_assert_null (layout);
      g_assert_nonnull (error);
      g_assert_nonnull (strstr (error->message, "worker"));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* The worker program is found beside the running program, from argv[0]
 * as the program was started (a path relative to the folder it was
 * started in, resolved once: the folder may change later), with no
 * TP_LAYOUT_WORKER to name it; and it lays out. */
static void
test_picture_worker_beside_program (void)
{
  if (g_test_subprocess ())
    {
      const char *playground = g_getenv ("TP_PLAYGROUND");
      g_autofree char *bin = NULL;
      g_autofree char *top = NULL;
      g_autofree char *bin_name = NULL;
      g_autofree char *relative = NULL;
      g_autofree char *expected = NULL;
      g_autofree char *found = NULL;
      g_autoptr(TpApplication) app = NULL;
      g_autoptr(GError) error = NULL;
      TpPictureWorker *theirs;
      TpPictureLayout *layout;
      Wait wait = { g_main_loop_new (NULL, FALSE), NULL, NULL };

      if (playground == NULL)
        {
          tp_test_cannot_run ("TP_PLAYGROUND is not set");
          return;
        }
      g_unsetenv ("TP_LAYOUT_WORKER");
      bin = g_path_get_dirname (playground);
      top = g_path_get_dirname (bin);
      bin_name = g_path_get_basename (bin);
      relative = g_build_filename (bin_name, "topos-playground", NULL);
      expected = g_build_filename (bin, "topos-layout-worker", NULL);
      g_assert_cmpint (g_chdir (top), ==, 0);
      app = tp_application_new (relative);
      g_assert_cmpint (g_chdir ("/"), ==, 0);
      theirs = tp_application_get_picture_worker (app);
      g_assert_true (theirs == tp_application_get_picture_worker (app));
      found = tp_picture_worker_find_program (theirs, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (found, ==, expected);

      tp_picture_worker_layout_async (theirs, DOT, NULL, layout_done_cb, &wait);
      g_main_loop_run (wait.loop);
      g_assert_no_error (wait.error);
      layout = wait.layout;
      g_assert_nonnull (layout);
      g_assert_cmpuint (tp_picture_worker_get_n_workers (theirs), ==, 1);
      tp_picture_layout_unref (layout);
      g_main_loop_unref (wait.loop);

      /* a program with no worker beside it, and none named: a message */
      {
        g_autoptr(TpPictureWorker) none = tp_picture_worker_new ("/nonexistent");
        g_autofree char *missing = tp_picture_worker_find_program (none, &error);

        if (missing != NULL)
          g_test_message ("an installed worker was found: %s", missing);
        else
          g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
      }
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* {==== drawing from threads ====} */

typedef struct
{
  TpPictureLayout *layout;
  cairo_surface_t *reference;
  gboolean same;
} DrawThread;

static cairo_surface_t *
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

static gboolean
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

static gpointer
draw_thread (gpointer data)
{
  DrawThread *t = data;

  t->same = TRUE;
  for (guint i = 0; i < 20; i++)
    {
      cairo_surface_t *surface = draw_at (t->layout, 1.5);

      t->same = t->same && surfaces_equal (surface, t->reference);
      cairo_surface_destroy (surface);
    }
  return NULL;
}

/* One layout may be drawn from several threads at once (the picture pane
 * rasterizes in worker threads, and every window shares the cached
 * layout), each with its own Pango font map: each draw is the same
 * picture. */
static void
test_picture_draw_threads (void)
{
  g_autoptr(GError) error = NULL;
  TpPictureLayout *layout = layout_sync (DOT, &error);
  DrawThread threads[4];
  GThread *handles[G_N_ELEMENTS (threads)];
  cairo_surface_t *reference;

  g_assert_no_error (error);
  reference = draw_at (layout, 1.5);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      threads[i] = (DrawThread) { layout, reference, FALSE };
      handles[i] = g_thread_new ("draw", draw_thread, &threads[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      g_thread_join (handles[i]);
      g_assert_true (threads[i].same);
    }
  cairo_surface_destroy (reference);
  tp_picture_layout_unref (layout);
}

/* {==== the screen's layout, by the text ====}
 *
 * The oracle for the worker's screen layout (tp-picture-screen.h, done to
 * the parsed graph with cgraph): the same layout written as DOT
 * statements, as the app once edited the text.  After the engine's graph
 * and node defaults `graph [nodesep, ranksep]`, after its edge defaults
 * `node [margin]`, and the legend (the last statement, one node) out in
 * a graph of its own with the engine's defaults. */

typedef struct
{
  char *dot;          /* the graph, without its legend, set tighter */
  char *legend;       /* the legend alone as a graph, or NULL */
  int target;         /* the node the DOT marks as the target, or -1 */
} TextScreen;


#define LEGEND_START "\n  legend [id=\"legend\""

/* The end of the line that starts with @prefix (just past its '\n'),
 * searched from @from, or NULL. */
static const char *
after_line (const char *from,
            const char *prefix)
{
  const char *at = strstr (from, prefix);
  const char *end = at != NULL ? strchr (at, '\n') : NULL;

  return end != NULL ? end + 1 : NULL;
}

/* The node whose class names it the target: `  nN [id="nN", class="...
 * target..."`, or -1. */
static int
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

static void
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

static void
text_screen_clear (TextScreen *self)
{
  g_clear_pointer (&self->dot, g_free);
  g_clear_pointer (&self->legend, g_free);
  self->target = -1;
}

/* {==== the pane ====} */

typedef struct
{
  TpDocument *document;
  TpPictureView *view;
  GtkWidget *window;
} Pane;

static void
pane_open (Pane       *pane,
           const char *text)
{
  pane->document = tp_document_new ();
  tp_document_set_text (pane->document, text);
  tp_document_recompute_now (pane->document);
  pane->view = TP_PICTURE_VIEW (tp_picture_view_new ());
  tp_picture_view_set_worker (pane->view, worker);
  tp_picture_view_set_document (pane->view, pane->document);
  pane->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (pane->window), 800, 600);
  gtk_window_set_child (GTK_WINDOW (pane->window), GTK_WIDGET (pane->view));
  gtk_window_present (GTK_WINDOW (pane->window));
}

static void
pane_close (Pane *pane)
{
  gtk_window_destroy (GTK_WINDOW (pane->window));
  g_clear_object (&pane->document);
}

/* Shown: the picture of the newest text is on the canvas, and no raster
 * is on its way. */
static gboolean
pane_settled (gpointer data)
{
  Pane *pane = data;

  return !tp_picture_view_get_busy (pane->view) && tp_picture_view_has_picture (pane->view)
         && tp_picture_view_get_texture (pane->view) != NULL && !tp_picture_view_is_rasterizing (pane->view);
}

/* The layout of @dot as the pane lays it out (tp-picture-screen.h). */
static TpPictureLayout *
screen_layout_sync (const char  *dot,
                    GError     **error)
{
  Wait wait = { g_main_loop_new (NULL, FALSE), NULL, NULL };

  tp_picture_worker_screen_async (worker, dot, NULL, layout_done_cb, &wait);
  g_main_loop_run (wait.loop);
  g_main_loop_unref (wait.loop);
  if (wait.error != NULL)
    g_propagate_error (error, wait.error);
  return wait.layout;
}

static gboolean
pane_idle (gpointer data)
{
  Pane *pane = data;

  return !tp_picture_view_get_busy (pane->view) && !tp_picture_view_is_rasterizing (pane->view);
}

static void
pane_run (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
}

static void
frame_painted_cb (GdkFrameClock *clock,
                  gboolean      *painted)
{
  *painted = TRUE;
}

static gboolean
is_true (gpointer data)
{
  return *(gboolean *) data;
}

/* Runs until @widget's window has painted a frame. */
static void
pane_wait_frame (GtkWidget *widget)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);
  gboolean painted = FALSE;
  gulong id = g_signal_connect (clock, "after-paint", G_CALLBACK (frame_painted_cb), &painted);

  gtk_widget_queue_draw (widget);
  g_assert_true (tp_test_wait_until (is_true, &painted, 10));
  g_signal_handler_disconnect (clock, id);
}

static GtkWidget *
find_button (GtkWidget  *widget,
             const char *icon)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_icon_name (GTK_BUTTON (widget)), icon) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_button (child, icon);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkGesture *
find_gesture (GtkWidget *widget,
              GType      type)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (controller, type))
        return GTK_GESTURE (controller);
    }
  return NULL;
}

/* How many nodes in @node draw a raster of @width x @height pixels: a
 * texture node that size in canvas pixels (@device pixels each), or (with
 * GSK's cairo renderer, where the pane draws its raster as a cairo node)
 * a cairo node that size in raster pixels.  Icons and other drawing in
 * the window are neither. */
static guint
count_rasters (GskRenderNode *node,
               int            width,
               int            height,
               double         device)
{
  guint n = 0;
  graphene_rect_t bounds;

  if (node == NULL)
    return 0;
  gsk_render_node_get_bounds (node, &bounds);
  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_TEXTURE_NODE:
      return fabs ((double) bounds.size.width * device - width) <= 1.0
             && fabs ((double) bounds.size.height * device - height) <= 1.0;
    case GSK_CAIRO_NODE:
      return fabs ((double) bounds.size.width - width) <= 1.0 && fabs ((double) bounds.size.height - height) <= 1.0;
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        n += count_rasters (gsk_container_node_get_child (node, i), width, height, device);
      return n;
    case GSK_CLIP_NODE:
      return count_rasters (gsk_clip_node_get_child (node), width, height, device);
    case GSK_ROUNDED_CLIP_NODE:
      return count_rasters (gsk_rounded_clip_node_get_child (node), width, height, device);
    case GSK_TRANSFORM_NODE:
      return count_rasters (gsk_transform_node_get_child (node), width, height, device);
    case GSK_OPACITY_NODE:
      return count_rasters (gsk_opacity_node_get_child (node), width, height, device);
    case GSK_DEBUG_NODE:
      return count_rasters (gsk_debug_node_get_child (node), width, height, device);
    default:
      return 0;
    }
}

/* A new layout is rasterized off the main thread at the scale shown: the
 * pane is busy until the raster is up, the raster is the fitted picture
 * at the display's scale, and the window's own snapshot (what
 * --screenshot saves) holds it.  A selection draws its box over the
 * raster and rasterizes nothing. */
static void
test_picture_pane_raster (void)
{
  g_autofree char *text = tp_samples_dup_text ("readme");
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  GtkSnapshot *snapshot;
  TpPictureLayout *layout;
  GdkTexture *texture;
  Pane pane = { NULL };
  double scale, device;
  guint rasters;

  pane_open (&pane, text);
  g_assert_true (tp_test_wait_until (pane_settled, &pane, 20));
  g_assert_false (tp_picture_view_get_busy (pane.view));
  texture = tp_picture_view_get_texture (pane.view);
  g_assert_nonnull (texture);

  /* the whole picture, fitted, at the display's scale, within a pixel */
  layout = screen_layout_sync (tp_readings_get_text (tp_document_get_readings (pane.document), TP_READING_DOT), &error);
  g_assert_no_error (error);
  scale = tp_picture_view_get_scale (pane.view);
  device = gtk_widget_get_scale_factor (tp_picture_view_get_canvas (pane.view));
  g_test_message ("raster %dx%d for a %.0fx%.0f picture at %.3f, device scale %g",
                  gdk_texture_get_width (texture), gdk_texture_get_height (texture),
                  tp_picture_layout_get_width (layout), tp_picture_layout_get_height (layout), scale, device);
  g_assert_cmpfloat (scale, >, 0.1);
  g_assert_cmpfloat (fabs (gdk_texture_get_width (texture) - tp_picture_layout_get_width (layout) * scale * device), <=, 1.0);
  g_assert_cmpfloat (fabs (gdk_texture_get_height (texture) - tp_picture_layout_get_height (layout) * scale * device), <=, 1.0);
  tp_picture_layout_unref (layout);
  {
    /* and it is the layout's drawing at that scale, made in a raster
     * thread as on this one (draw-matches-renderer compares that drawing
     * with the renderer's PNG) */
    TpPictureLayout *same = screen_layout_sync (tp_readings_get_text (tp_document_get_readings (pane.document),
                                                                      TP_READING_DOT), &error);
    cairo_surface_t *direct = draw_at (same, scale * device);
    int w = MIN (gdk_texture_get_width (texture), cairo_image_surface_get_width (direct));
    int h = MIN (gdk_texture_get_height (texture), cairo_image_surface_get_height (direct));
    gsize stride = (gsize) gdk_texture_get_width (texture) * 4;
    g_autofree guint8 *pixels = g_malloc (stride * (gsize) gdk_texture_get_height (texture));
    guint differ;

    g_assert_no_error (error);
    gdk_texture_download (texture, pixels, stride);
    differ = count_differences (pixels, stride, cairo_image_surface_get_data (direct),
                                (gsize) cairo_image_surface_get_stride (direct), w, h, SAME_TOLERANCE);
    g_test_message ("the raster: %u of %d pixels differ from the layout's drawing", differ, w * h);
    g_assert_cmpuint (differ, <=, SAME_PIXELS (w, h));
    cairo_surface_destroy (direct);
    tp_picture_layout_unref (same);
  }

  /* the window's snapshot (as --screenshot takes it, once the window
   * has drawn) draws the raster, once */
  pane_wait_frame (pane.window);
  paintable = gtk_widget_paintable_new (pane.window);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot),
                          gtk_widget_get_width (pane.window), gtk_widget_get_height (pane.window));
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_cmpuint (count_rasters (node, gdk_texture_get_width (texture), gdk_texture_get_height (texture), device),
                    ==, 1);

  /* selections: drawn on top, no raster */
  rasters = tp_picture_view_get_n_rasters (pane.view);
  for (int n = 0; n < 6; n++)
    {
      graphene_rect_t bounds;

      tp_document_set_selected_node (pane.document, n);
      g_assert_true (tp_picture_view_get_selected_bounds (pane.view, &bounds));
      g_assert_false (tp_picture_view_is_rasterizing (pane.view));
      pane_run (30);
    }
  tp_document_set_selected_node (pane.document, -1);
  pane_run (30);
  g_assert_cmpuint (tp_picture_view_get_n_rasters (pane.view), ==, rasters);
  g_assert_true (tp_picture_view_get_texture (pane.view) == texture);
  g_assert_false (tp_picture_view_get_busy (pane.view));

  pane_close (&pane);
}

/* Zoomed in, a raster holds the canvas and a margin, never the whole
 * picture; a pan within the margin rasterizes nothing, one beyond it does,
 * and neither makes the pane busy.  A new layout does, until its raster
 * is up. */
static void
test_picture_pane_zoom_pan (void)
{
  g_autofree char *text = tp_samples_dup_text ("readme");
  g_autofree char *changed = NULL;
  g_autoptr(GError) error = NULL;
  TpPictureLayout *layout;
  GtkWidget *canvas, *zoom_in;
  GtkGesture *drag;
  GdkTexture *texture;
  Pane pane = { NULL };
  double device, canvas_w;
  guint rasters;
  int w, h;

  pane_open (&pane, text);
  g_assert_true (tp_test_wait_until (pane_settled, &pane, 20));
  canvas = tp_picture_view_get_canvas (pane.view);
  device = gtk_widget_get_scale_factor (canvas);
  canvas_w = gtk_widget_get_width (canvas) * device;
  zoom_in = find_button (GTK_WIDGET (pane.view), "zoom-in-symbolic");
  drag = find_gesture (canvas, GTK_TYPE_GESTURE_DRAG);
  g_assert_nonnull (zoom_in);
  g_assert_nonnull (drag);

  /* zoom in about ten times over: not busy, and the raster is bounded */
  for (int k = 0; k < 10; k++)
    {
      g_signal_emit_by_name (zoom_in, "clicked");
      g_assert_false (tp_picture_view_get_busy (pane.view));
      pane_run (10);
    }
  g_assert_true (tp_test_wait_until (pane_settled, &pane, 20));
  texture = tp_picture_view_get_texture (pane.view);
  w = gdk_texture_get_width (texture);
  h = gdk_texture_get_height (texture);
  g_assert_cmpint (w, <=, 4096);
  g_assert_cmpint (h, <=, 4096);
  g_assert_cmpint ((gint64) w * h, <=, 8 << 20);
  g_assert_cmpfloat (w, >, canvas_w + 100);    /* a margin */
  layout = screen_layout_sync (tp_readings_get_text (tp_document_get_readings (pane.document), TP_READING_DOT), &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (w, <, tp_picture_layout_get_width (layout) * tp_picture_view_get_scale (pane.view) * device - 100);
  tp_picture_layout_unref (layout);

  /* a short pan: the raster holds it */
  rasters = tp_picture_view_get_n_rasters (pane.view);
  g_signal_emit_by_name (drag, "drag-begin", 400.0, 300.0);
  g_signal_emit_by_name (drag, "drag-update", 30.0, 20.0);
  pane_run (50);
  g_assert_cmpuint (tp_picture_view_get_n_rasters (pane.view), ==, rasters);
  g_assert_true (tp_picture_view_get_texture (pane.view) == texture);

  /* a long one: a new raster, the old one shown meanwhile, not busy */
  g_signal_emit_by_name (drag, "drag-update", gtk_widget_get_width (canvas) * 1.5, 20.0);
  g_signal_emit_by_name (drag, "drag-end", gtk_widget_get_width (canvas) * 1.5, 20.0);
  g_assert_cmpuint (tp_picture_view_get_n_rasters (pane.view), ==, rasters + 1);
  g_assert_true (tp_picture_view_get_texture (pane.view) == texture);
  g_assert_false (tp_picture_view_get_busy (pane.view));
  g_assert_true (tp_test_wait_until (pane_settled, &pane, 20));
  g_assert_true (tp_picture_view_get_texture (pane.view) != texture);

  /* a new layout: busy until its raster is up */
  texture = tp_picture_view_get_texture (pane.view);
  changed = g_strconcat (text, "twice = loss * 2.0\n", NULL);
  tp_document_set_text (pane.document, changed);
  tp_document_recompute_now (pane.document);
  g_assert_true (tp_picture_view_get_busy (pane.view));
  g_assert_true (tp_picture_view_get_texture (pane.view) == texture);
  g_assert_true (tp_test_wait_until (pane_settled, &pane, 20));
  g_assert_true (tp_picture_view_get_texture (pane.view) != texture);

  /* panned right off the picture, a new layout has nothing to rasterize:
   * it is taken as it is, and rasterized once it is back in view */
  rasters = tp_picture_view_get_n_rasters (pane.view);
  g_signal_emit_by_name (drag, "drag-begin", 400.0, 300.0);
  g_signal_emit_by_name (drag, "drag-update", gtk_widget_get_width (canvas) * 100.0, 0.0);
  g_signal_emit_by_name (drag, "drag-end", gtk_widget_get_width (canvas) * 100.0, 0.0);
  g_clear_pointer (&changed, g_free);
  changed = g_strconcat (text, "thrice = loss * 3.0\n", NULL);
  tp_document_set_text (pane.document, changed);
  tp_document_recompute_now (pane.document);
  g_assert_true (tp_test_wait_until (pane_idle, &pane, 20));
  g_assert_null (tp_picture_view_get_texture (pane.view));
  g_assert_cmpuint (tp_picture_view_get_n_rasters (pane.view), ==, rasters);
  tp_picture_view_zoom_fit (pane.view);
  g_assert_true (tp_test_wait_until (pane_settled, &pane, 20));
  g_assert_cmpuint (tp_picture_view_get_n_rasters (pane.view), ==, rasters + 1);

  pane_close (&pane);
}

/* A new program whose layout takes a while (thirty chained statements:
 * about two seconds of graphviz here) keeps the last picture up with the
 * stale badge until its own is shown; a quick one shows no badge. */
/* Run in a process of its own whose layout worker holds every layout
 * back 600 ms (TP_LAYOUT_WORKER_TEST_DELAY_MS), so the layout is slow
 * however fast the machine. */
static void
test_picture_pane_stale_while_laying_out (void)
{
  if (!g_test_subprocess ())
    {
      g_test_trap_subprocess (NULL, 120 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDERR);
      g_test_trap_assert_passed ();
      return;
    }
  g_setenv ("TP_LAYOUT_WORKER_TEST_DELAY_MS", "600", TRUE);
  {
  g_autofree char *text = tp_samples_dup_text ("readme");
  g_autoptr(GString) slow = g_string_new ("x = input [2]\na0 = parameter [2]\n");
  Pane pane = { NULL };
  gint64 start;

  for (guint i = 1; i < 30; i++)
    g_string_append_printf (slow, "a%u = tanh(a%u) * x + a%u\n", i, i - 1, i - 1);
  g_string_append (slow, "loss = sum(a29)\n");

  pane_open (&pane, text);
  g_assert_true (tp_test_wait_until (pane_settled, &pane, 20));
  g_assert_false (tp_picture_view_get_stale (pane.view));

  tp_document_set_text (pane.document, slow->str);
  tp_document_recompute_now (pane.document);
  g_assert_true (tp_picture_view_get_busy (pane.view));
  start = g_get_monotonic_time ();
  while (g_get_monotonic_time () - start < 400 * 1000)
    g_main_context_iteration (NULL, FALSE);
  g_assert_true (tp_picture_view_get_busy (pane.view));
  g_assert_true (tp_picture_view_get_stale (pane.view));
  g_assert_true (tp_picture_view_has_picture (pane.view));
  g_assert_true (tp_test_wait_until (pane_settled, &pane, 60));
  g_assert_false (tp_picture_view_get_stale (pane.view));

  /* back to the README sample: laid out already, no badge at all */
  tp_document_set_text (pane.document, text);
  tp_document_recompute_now (pane.document);
  g_assert_true (tp_test_wait_until (pane_settled, &pane, 20));
  g_assert_false (tp_picture_view_get_stale (pane.view));
  pane_close (&pane);
  }
}

/* The same picture: the same size, the same node boxes and the same
 * pixels, drawn one picture pixel a pixel. */
static void
assert_same_picture (TpPictureLayout *a,
                     TpPictureLayout *b)
{
  double x, y, w, h, bx, by, bw, bh;
  cairo_surface_t *da, *db;

  g_assert_cmpfloat (tp_picture_layout_get_width (a), ==, tp_picture_layout_get_width (b));
  g_assert_cmpfloat (tp_picture_layout_get_height (a), ==, tp_picture_layout_get_height (b));
  for (int node = 0; node < 400; node++)
    {
      gboolean in_a = tp_picture_layout_node_bounds (a, node, &x, &y, &w, &h);

      g_assert_cmpint (in_a, ==, tp_picture_layout_node_bounds (b, node, &bx, &by, &bw, &bh));
      if (in_a)
        {
          g_assert_cmpfloat (x, ==, bx);
          g_assert_cmpfloat (y, ==, by);
          g_assert_cmpfloat (w, ==, bw);
          g_assert_cmpfloat (h, ==, bh);
        }
    }
  da = draw_at (a, 1.0);
  db = draw_at (b, 1.0);
  g_assert_true (surfaces_equal (da, db));
  cairo_surface_destroy (da);
  cairo_surface_destroy (db);
}

/* The screen's layout (tp-picture-screen.h), which the worker makes of
 * the graph it read: for every sample, the picture and its legend are
 * those of the same layout written as DOT statements (the oracle above),
 * pixel for pixel; the target is the node the DOT tags; the nodes are
 * the engine's; the picture is smaller than the export's. */
static void
test_picture_screen_dot (void)
{
  const char *samples = g_getenv ("TP_SAMPLES_DIR");
  g_autoptr(GDir) dir = NULL;
  const char *entry;
  guint n = 0;

  if (samples == NULL)
    {
      tp_test_cannot_run ("TP_SAMPLES_DIR is not set");
      return;
    }
  dir = g_dir_open (samples, 0, NULL);
  g_assert_nonnull (dir);
  while ((entry = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *program = g_build_filename (samples, entry, NULL);
      g_autofree char *text = NULL;
      gsize length = 0;
      TpSession *session;
      const char *dot;
      TextScreen oracle;
      TpPictureLayout *whole, *screen, *by_text, *legend_by_text;
      g_autoptr(GError) error = NULL;
      double x, y, w, h;

      if (!g_str_has_suffix (entry, ".tape"))
        continue;
      n++;
      session = tp_session_new ();
      g_assert_true (g_file_get_contents (program, &text, &length, NULL));
      g_assert_cmpint (tp_session_compile (session, text, length, NULL), ==, TP_STATUS_OK);
      dot = tp_session_reading (session, TP_READING_DOT);
      text_screen_init (&oracle, dot);
      g_assert_nonnull (strstr (dot, "\n  legend [id=\"legend\""));
      g_assert_null (strstr (oracle.dot, "legend [id="));
      g_assert_nonnull (oracle.legend);

      screen = screen_layout_sync (dot, &error);
      g_assert_no_error (error);
      g_assert_true (tp_picture_layout_get_screen (screen));
      by_text = layout_sync (oracle.dot, &error);
      g_assert_no_error (error);
      legend_by_text = layout_sync (oracle.legend, &error);
      g_assert_no_error (error);
      whole = layout_sync (dot, &error);
      g_assert_no_error (error);

      assert_same_picture (screen, by_text);
      g_assert_nonnull (tp_picture_layout_get_legend (screen));
      assert_same_picture (tp_picture_layout_get_legend (screen), legend_by_text);
      g_assert_cmpint (tp_picture_layout_get_target (screen), ==, oracle.target);
      g_assert_cmpint (tp_picture_layout_get_target (screen), >=, 0);
      if (g_str_equal (entry, "readme.tape"))
        g_assert_cmpint (tp_picture_layout_get_target (screen), ==, 5);
      g_assert_cmpint (tp_picture_layout_get_target (whole), ==, -1);
      g_assert_null (tp_picture_layout_get_legend (whole));

      g_assert_cmpfloat (tp_picture_layout_get_width (screen) * tp_picture_layout_get_height (screen), <,
                         0.8 * tp_picture_layout_get_width (whole) * tp_picture_layout_get_height (whole));
      g_assert_cmpfloat (tp_picture_layout_get_width (tp_picture_layout_get_legend (screen)), >, 100);
      for (int node = 0; node < 400; node++)
        g_assert_cmpint (tp_picture_layout_node_bounds (whole, node, &x, &y, &w, &h), ==,
                         tp_picture_layout_node_bounds (screen, node, &x, &y, &w, &h));
      g_test_message ("%s: %.0fx%.0f px on screen, %.0fx%.0f exported", entry,
                      tp_picture_layout_get_width (screen), tp_picture_layout_get_height (screen),
                      tp_picture_layout_get_width (whole), tp_picture_layout_get_height (whole));
      tp_picture_layout_unref (whole);
      tp_picture_layout_unref (screen);
      tp_picture_layout_unref (by_text);
      tp_picture_layout_unref (legend_by_text);
      text_screen_clear (&oracle);
      tp_session_free (session);
    }
  g_assert_cmpuint (n, >=, 10);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  tp_test_init (&argc, &argv);
  worker = tp_picture_worker_new (NULL);

  g_test_add_func ("/ui/picture/layout", test_picture_layout);
  g_test_add_func ("/ui/picture/screen-dot", test_picture_screen_dot);
  g_test_add_func ("/ui/picture/cancel", test_picture_cancel);
  g_test_add_func ("/ui/picture/bad-dot", test_picture_bad_dot);
  g_test_add_func ("/ui/picture/export", test_picture_export);
  g_test_add_func ("/ui/picture/export-matches-cli", test_picture_export_matches_cli);
  g_test_add_func ("/ui/picture/cache", test_picture_cache);
  g_test_add_func ("/ui/picture/vector", test_picture_vector);
  g_test_add_func ("/ui/picture/budget", test_picture_budget);
  g_test_add_func ("/ui/picture/engine-reduced", test_picture_engine_reduced);
  g_test_add_func ("/ui/picture/stale-killed", test_picture_stale_killed);
  g_test_add_func ("/ui/picture/worker-program", test_picture_worker_program);
  g_test_add_func ("/ui/picture/worker-missing", test_picture_worker_missing);
  g_test_add_func ("/ui/picture/worker-beside-program", test_picture_worker_beside_program);
  g_test_add_func ("/ui/picture/draw-threads", test_picture_draw_threads);
  g_test_add_func ("/ui/picture/pane-raster", test_picture_pane_raster);
  g_test_add_func ("/ui/picture/pane-zoom-pan", test_picture_pane_zoom_pan);
  g_test_add_func ("/ui/picture/pane-stale", test_picture_pane_stale_while_laying_out);
#ifdef TP_HAVE_RENDER
  g_test_add_func ("/ui/picture/draw-matches-renderer", test_picture_draw_matches_renderer);
#endif

  status = g_test_run ();
  /* no raster thread may draw while the process exits */
  tp_picture_raster_wait_idle ();
  return status;
}
