/* test-picture.c: the picture's layout seam: a DOT graph is laid out off
 * the main thread, hit-tested by node and superseded cleanly. */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "tp-picture-layout.h"
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
  tp_picture_layout_draw (wait.layout, cr, FALSE);
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

int
main (int   argc,
      char *argv[])
{
  tp_test_init (&argc, &argv);

  g_test_add_func ("/ui/picture/layout", test_picture_layout);
  g_test_add_func ("/ui/picture/cancel", test_picture_cancel);
  g_test_add_func ("/ui/picture/bad-dot", test_picture_bad_dot);
  g_test_add_func ("/ui/picture/export", test_picture_export);

  return g_test_run ();
}
