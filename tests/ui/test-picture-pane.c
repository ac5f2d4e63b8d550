/* test-picture-pane.c: the picture pane under Xvfb: its rasters, made
 * off the main thread at the scale shown and bounded, never for a
 * selection; zoom and pan; a stale picture while a layout is under way. */
#include "test-picture.h"

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

  g_test_add_func ("/ui/picture/screen-dot", test_picture_screen_dot);
  g_test_add_func ("/ui/picture/pane-raster", test_picture_pane_raster);
  g_test_add_func ("/ui/picture/pane-zoom-pan", test_picture_pane_zoom_pan);
  g_test_add_func ("/ui/picture/pane-stale", test_picture_pane_stale_while_laying_out);

  status = g_test_run ();
  /* no raster thread may draw while the process exits */
  tp_picture_raster_wait_idle ();
  return status;
}
