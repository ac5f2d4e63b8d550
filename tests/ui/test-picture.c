/* test-picture.c: the picture's layout seam: a DOT graph is laid out off
 * the main thread by the renderer, hit-tested by node, superseded
 * cleanly, kept for reuse, reduced over the budget, and exported exactly
 * as the command line exports it; drawn from several threads at once
 * safely; and the pane's rasters, made off the main thread, at the scale
 * shown and bounded, never for a selection. */
#include "test-picture.h"

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
 * The oracle (TextScreen, test-picture.h) against the worker. */

int
main (int   argc,
      char *argv[])
{
  int status;

  tp_test_init (&argc, &argv);
  worker = tp_picture_worker_new (NULL);

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
  g_test_add_func ("/ui/picture/worker-program", test_picture_worker_program);
  g_test_add_func ("/ui/picture/worker-missing", test_picture_worker_missing);
  g_test_add_func ("/ui/picture/worker-beside-program", test_picture_worker_beside_program);
  g_test_add_func ("/ui/picture/draw-threads", test_picture_draw_threads);
#ifdef TP_HAVE_RENDER
  g_test_add_func ("/ui/picture/draw-matches-renderer", test_picture_draw_matches_renderer);
#endif

  status = g_test_run ();
  /* no raster thread may draw while the process exits */
  tp_picture_raster_wait_idle ();
  return status;
}
