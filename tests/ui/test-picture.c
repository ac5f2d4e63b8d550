/* test-picture.c: the picture's layout seam: a DOT graph is laid out off
 * the main thread by the renderer, hit-tested by node, superseded
 * cleanly, kept for reuse, reduced over the budget, and exported exactly
 * as the command line exports it. */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "tp-engine.h"
#include "tp-picture-layout.h"
#ifdef TP_HAVE_RENDER
#include "tp-render.h"
#endif
#include "tp-ui-test-util.h"

#define DOT "digraph tape {\n" \
            "  n0 [label=\"0 Parameter\"];\n" \
            "  n1 [label=\"1 Input\"];\n" \
            "  n2 [label=\"2 Mul\"];\n" \
            "  n0 -> n2; n1 -> n2;\n" \
            "}\n"

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

  wait->layout = tp_picture_layout_new_finish (result, &wait->error);
  g_main_loop_quit (wait->loop);
}

static void
test_picture_layout (void)
{
  Wait wait = { g_main_loop_new (NULL, FALSE), NULL, NULL };
  double x, y, w, h;
  cairo_surface_t *surface;
  cairo_t *cr;

  tp_picture_layout_new_async (DOT, NULL, layout_done_cb, &wait);
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

  tp_picture_layout_new_async (DOT, cancellable, layout_done_cb, &wait);
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

  tp_picture_layout_new_async ("digraph { n0 -> }", NULL, layout_done_cb, &wait);
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

  tp_picture_export_finish (result, &wait->error);
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

      tp_picture_export_async (DOT, formats[i], file, NULL, export_done_cb, &wait);
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

  tp_picture_layout_new_async (dot, NULL, layout_done_cb, &wait);
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
  before = tp_picture_layout_get_n_layouts ();
  second = layout_sync (dot, &error);
  g_assert_no_error (error);
  g_assert_true (first == second);
  g_assert_cmpuint (tp_picture_layout_get_n_layouts (), ==, before);
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
 * with its note, and flagged. */
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
  g_assert_nonnull (strstr (tp_session_reading (session, TP_READING_DOT), "id=\"note\""));
  layout = layout_sync (tp_session_reading (session, TP_READING_DOT), &error);
  g_assert_no_error (error);
  g_assert_true (tp_picture_layout_get_degraded (layout));
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
      g_test_skip ("TP_TOPOS and TP_SAMPLES_DIR are not set");
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

      tp_picture_export_async (tp_session_reading (session, TP_READING_DOT), formats[i], file, NULL,
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

#ifdef TP_HAVE_RENDER
/* The picture the app draws is the renderer's own drawing: laid out and
 * drawn in the worker process, sent as outlines, replayed here, it
 * matches tp_render_draw in this process pixel for pixel but for the
 * anti-aliasing of glyph edges. */
static void
test_picture_replay_matches_renderer (void)
{
  const char *samples = g_getenv ("TP_SAMPLES_DIR");
  g_autofree char *program = NULL;
  g_autofree char *source = NULL;
  g_autoptr(GError) error = NULL;
  TpSession *session = tp_session_new ();
  TpPictureLayout *layout;
  TpRender *render;
  cairo_surface_t *ours, *theirs;
  gsize length = 0;
  int width, height;
  double x, y, w, h, rx, ry, rw, rh;

  if (samples == NULL)
    {
      g_test_skip ("TP_SAMPLES_DIR is not set");
      return;
    }
  program = g_build_filename (samples, "two-layers.tape", NULL);
  g_assert_true (g_file_get_contents (program, &source, &length, NULL));
  g_assert_cmpint (tp_session_compile (session, source, length, NULL), ==, TP_STATUS_OK);
  layout = layout_sync (tp_session_reading (session, TP_READING_DOT), &error);
  g_assert_no_error (error);
  render = tp_render_new (tp_session_reading (session, TP_READING_DOT), NULL);
  g_assert_true (tp_render_ok (render));

  /* same size, same boxes */
  g_assert_cmpfloat_with_epsilon (tp_picture_layout_get_width (layout), tp_render_width (render) * 96 / 72, 1e-6);
  g_assert_cmpfloat_with_epsilon (tp_picture_layout_get_height (layout), tp_render_height (render) * 96 / 72, 1e-6);
  for (int node = 0; node < 40; node++)
    {
      gboolean a = tp_picture_layout_node_bounds (layout, node, &x, &y, &w, &h);
      gboolean b = tp_render_node_bounds (render, (uint32_t) node, &rx, &ry, &rw, &rh);

      g_assert_cmpint (a, ==, b);
      if (a)
        {
          g_assert_cmpfloat_with_epsilon (x, rx * 96 / 72, 1e-6);
          g_assert_cmpfloat_with_epsilon (h, rh * 96 / 72, 1e-6);
          g_assert_cmpint (tp_picture_layout_node_at (layout, x + w / 2, y + h / 2), ==, node);
        }
    }

  /* same pixels at 1.5x */
  width = (int) (tp_picture_layout_get_width (layout) * 1.5) + 1;
  height = (int) (tp_picture_layout_get_height (layout) * 1.5) + 1;
  ours = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  theirs = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  {
    cairo_t *cr = cairo_create (ours);
    cairo_scale (cr, 1.5, 1.5);
    tp_picture_layout_draw (layout, cr);
    cairo_destroy (cr);
    cr = cairo_create (theirs);
    cairo_scale (cr, 1.5 * 96 / 72, 1.5 * 96 / 72);
    tp_render_draw (render, cr);
    cairo_destroy (cr);
  }
  cairo_surface_flush (ours);
  cairo_surface_flush (theirs);
  {
    int pixels = 0;

    for (int row = 0; row < height; row++)
      for (int col = 0; col < width; col++)
        {
          const guint8 *a = cairo_image_surface_get_data (ours) + row * cairo_image_surface_get_stride (ours) + col * 4;
          const guint8 *b = cairo_image_surface_get_data (theirs) + row * cairo_image_surface_get_stride (theirs) + col * 4;

          if (ABS ((int) a[3] - (int) b[3]) > 64)
            pixels++;
        }
    /* glyph edges: outlines filled as paths against glyphs rasterised */
    g_test_message ("%d of %d pixels differ", pixels, width * height);
    g_assert_cmpint (pixels, <, width * height / 100);
  }
  cairo_surface_destroy (ours);
  cairo_surface_destroy (theirs);
  tp_render_free (render);
  tp_picture_layout_unref (layout);
  tp_session_free (session);
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
  workers = tp_picture_layout_get_n_workers ();

  tp_picture_layout_new_async (big->str, cancellable, layout_done_cb, &wait);
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
  g_assert_cmpuint (tp_picture_layout_get_n_workers (), ==, workers + 1);
  g_main_loop_unref (wait.loop);
}

int
main (int   argc,
      char *argv[])
{
  tp_test_init (&argc, &argv);

  g_test_add_func ("/ui/picture/layout", test_picture_layout);
  g_test_add_func ("/ui/picture/cancel", test_picture_cancel);
  g_test_add_func ("/ui/picture/bad-dot", test_picture_bad_dot);
  g_test_add_func ("/ui/picture/export", test_picture_export);
  g_test_add_func ("/ui/picture/export-matches-cli", test_picture_export_matches_cli);
  g_test_add_func ("/ui/picture/cache", test_picture_cache);
  g_test_add_func ("/ui/picture/vector", test_picture_vector);
  g_test_add_func ("/ui/picture/budget", test_picture_budget);
  g_test_add_func ("/ui/picture/engine-reduced", test_picture_engine_reduced);
  g_test_add_func ("/ui/picture/stale-killed", test_picture_stale_killed);
#ifdef TP_HAVE_RENDER
  g_test_add_func ("/ui/picture/replay-matches-renderer", test_picture_replay_matches_renderer);
#endif

  return g_test_run ();
}
