/* tp-picture-layout-dot.c: the picture laid out by graphviz's `dot`
 * program in a child process.
 *
 * This backend serves only a build without the GTK-free renderer
 * (ui/tp-render.h, which needs graphviz's libraries); it needs nothing
 * but the `dot` binary.  It draws a raster, so it is sharp only up to 2x.  One child lays out and
 * rasterises the graph (PNG at 2x for sharp zooming) and prints the plain
 * layout on standard output, which gives every node's box for hit tests.
 * A child can be killed, so a stale layout costs nothing once cancelled.
 * The PNG is decoded in a GTask thread, never on the main thread. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include <glib/gstdio.h>

#include "tp-picture-layout.h"

#define DPI 192.0            /* raster resolution: 2x of the picture's 96 */
#define PAD_POINTS 4.0       /* graphviz's default pad, when the raster cannot tell */
#define MAX_DOT_BYTES (4u << 20)

typedef struct
{
  int node;                  /* from the id `n{index}`; -1 otherwise */
  double x, y, width, height;  /* box in picture pixels, top-left origin */
} NodeBox;

struct _TpPictureLayout
{
  cairo_surface_t *image;    /* at DPI */
  double width;              /* picture pixels */
  double height;
  GArray *nodes;             /* NodeBox */
};

TpPictureLayout *
tp_picture_layout_ref (TpPictureLayout *self)
{
  return g_atomic_rc_box_acquire (self);
}

static void
tp_picture_layout_clear (TpPictureLayout *self)
{
  g_clear_pointer (&self->image, cairo_surface_destroy);
  g_clear_pointer (&self->nodes, g_array_unref);
}

void
tp_picture_layout_unref (TpPictureLayout *self)
{
  g_atomic_rc_box_release_full (self, (GDestroyNotify) tp_picture_layout_clear);
}

double
tp_picture_layout_get_width (TpPictureLayout *self)
{
  return self->width;
}

double
tp_picture_layout_get_height (TpPictureLayout *self)
{
  return self->height;
}

gboolean
tp_picture_layout_get_degraded (TpPictureLayout *self)
{
  return FALSE;
}

static guint n_layouts;      /* atomic */

guint
tp_picture_layout_get_n_layouts (void)
{
  return (guint) g_atomic_int_get (&n_layouts);
}

/* Every layout runs `dot` in a process of its own. */
guint
tp_picture_layout_get_n_workers (void)
{
  return (guint) g_atomic_int_get (&n_layouts);
}

/* Draws at one picture pixel per user unit. */
void
tp_picture_layout_draw (TpPictureLayout *self,
                        cairo_t         *cr)
{
  cairo_save (cr);
  /* The DOT may set its own dpi: scale by what the raster really is. */
  cairo_scale (cr, self->width / cairo_image_surface_get_width (self->image),
               self->height / cairo_image_surface_get_height (self->image));
  cairo_set_source_surface (cr, self->image, 0, 0);
  cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_GOOD);
  cairo_paint (cr);
  cairo_restore (cr);
}

int
tp_picture_layout_node_at (TpPictureLayout *self,
                           double           x,
                           double           y)
{
  for (guint i = 0; i < self->nodes->len; i++)
    {
      const NodeBox *b = &g_array_index (self->nodes, NodeBox, i);

      if (b->node >= 0 && x >= b->x && x < b->x + b->width && y >= b->y && y < b->y + b->height)
        return b->node;
    }
  return -1;
}

gboolean
tp_picture_layout_node_bounds (TpPictureLayout *self,
                               int              node,
                               double          *x,
                               double          *y,
                               double          *width,
                               double          *height)
{
  for (guint i = 0; i < self->nodes->len; i++)
    {
      const NodeBox *b = &g_array_index (self->nodes, NodeBox, i);

      if (b->node == node)
        {
          *x = b->x;
          *y = b->y;
          *width = b->width;
          *height = b->height;
          return TRUE;
        }
    }
  return FALSE;
}

/* Reads a decimal number of `dot -Tplain` (always C-locale). */
static gboolean
read_number (const char **p,
             double      *out)
{
  char *end;

  while (**p == ' ')
    (*p)++;
  *out = g_ascii_strtod (*p, &end);
  if (end == *p)
    return FALSE;
  *p = end;
  return TRUE;
}

/* A node id, quoted or bare; @p is left after it. */
static char *
read_id (const char **p)
{
  const char *s;

  while (**p == ' ')
    (*p)++;
  s = *p;
  if (*s == '"')
    {
      s++;
      *p = strchr (s, '"');
      if (*p == NULL)
        return NULL;
      (*p)++;
      return g_strndup (s, (gsize) (*p - s - 1));
    }
  while (**p != ' ' && **p != '\0')
    (*p)++;
  return g_strndup (s, (gsize) (*p - s));
}

/* Parses the plain layout: `graph scale w h` and `node id x y w h ...`
 * in inches with the origin at the bottom left. */
static gboolean
parse_plain (TpPictureLayout *self,
             const char      *plain,
             double           image_width)
{
  g_auto(GStrv) lines = g_strsplit (plain, "\n", -1);
  double graph_h = 0;
  double pad = PAD_POINTS / 72.0 * 96.0;

  self->nodes = g_array_new (FALSE, FALSE, sizeof (NodeBox));
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *p = lines[i];

      if (g_str_has_prefix (p, "graph "))
        {
          double scale, w, h;

          p += strlen ("graph ");
          if (!read_number (&p, &scale) || !read_number (&p, &w) || !read_number (&p, &h))
            return FALSE;
          graph_h = h;
          /* The raster is the drawing plus the graph's pad on each side
           * (the DOT may set its own): read the pad off the raster. */
          if (image_width > w * DPI)
            pad = (image_width / DPI - w) / 2 * 96.0;
          self->width = w * 96.0 + 2 * pad;
          self->height = h * 96.0 + 2 * pad;
        }
      else if (g_str_has_prefix (p, "node "))
        {
          g_autofree char *id = NULL;
          NodeBox box = { -1, 0, 0, 0, 0 };
          double x, y, w, h;

          p += strlen ("node ");
          id = read_id (&p);
          if (id == NULL || !read_number (&p, &x) || !read_number (&p, &y)
              || !read_number (&p, &w) || !read_number (&p, &h))
            continue;
          if (id[0] == 'n' && g_ascii_isdigit (id[1]))
            {
              char *end;
              long v = strtol (id + 1, &end, 10);

              if (*end == '\0' && v <= G_MAXINT)
                box.node = (int) v;
            }
          box.width = w * 96.0;
          box.height = h * 96.0;
          box.x = (x - w / 2) * 96.0 + pad;
          box.y = (graph_h - y - h / 2) * 96.0 + pad;
          g_array_append_val (self->nodes, box);
        }
    }
  return self->width > 0 && self->height > 0;
}

/* {==== layout ====} */

typedef struct
{
  char *png_path;
  char *plain;
  GSubprocess *process;
  gulong cancel_id;
} LayoutState;

static void
layout_state_free (gpointer data)
{
  LayoutState *state = data;

  if (state->png_path != NULL)
    g_unlink (state->png_path);
  g_free (state->png_path);
  g_free (state->plain);
  g_clear_object (&state->process);
  g_free (state);
}

static void
kill_process_cb (GCancellable *cancellable,
                 gpointer      data)
{
  g_subprocess_force_exit (G_SUBPROCESS (data));
}

static void
decode_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  LayoutState *state = task_data;
  TpPictureLayout *layout = g_atomic_rc_box_new0 (TpPictureLayout);

  layout->image = cairo_image_surface_create_from_png (state->png_path);
  if (cairo_surface_status (layout->image) != CAIRO_STATUS_SUCCESS
      || !parse_plain (layout, state->plain, cairo_image_surface_get_width (layout->image)))
    {
      tp_picture_layout_unref (layout);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                               "graphviz wrote no picture");
      return;
    }
  g_task_return_pointer (task, layout, (GDestroyNotify) tp_picture_layout_unref);
}

static void
layout_communicate_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  LayoutState *state = g_task_get_task_data (task);
  GSubprocess *process = G_SUBPROCESS (object);
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;

  g_cancellable_disconnect (g_task_get_cancellable (task), state->cancel_id);
  state->cancel_id = 0;
  if (!g_subprocess_communicate_utf8_finish (process, result, &state->plain, &err, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (g_task_return_error_if_cancelled (task))
    return;
  if (!g_subprocess_get_if_exited (process) || g_subprocess_get_exit_status (process) != 0)
    {
      g_strstrip (err);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED,
                               "graphviz could not lay the picture out%s%s",
                               err[0] ? ": " : "", err);
      return;
    }
  g_task_run_in_thread (task, decode_thread);
}

void
tp_picture_layout_new_async (const char          *dot,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  g_autoptr(GError) error = NULL;
  g_autofree char *dpi = g_strdup_printf ("-Gdpi=%d", (int) DPI);
  LayoutState *state = g_new0 (LayoutState, 1);
  int fd;

  g_task_set_source_tag (task, tp_picture_layout_new_async);
  g_task_set_task_data (task, state, layout_state_free);
  g_atomic_int_inc (&n_layouts);
  if (strlen (dot) > MAX_DOT_BYTES)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                               "the graph is too large to draw");
      return;
    }
  fd = g_file_open_tmp ("topos-picture-XXXXXX.png", &state->png_path, &error);
  if (fd < 0)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  close (fd);
  state->process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE
                                     | G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                     | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                                     &error,
                                     "dot", dpi, "-Gbgcolor=transparent",
                                     "-Tpng", "-o", state->png_path, "-Tplain",
                                     NULL);
  if (state->process == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (cancellable != NULL)
    state->cancel_id = g_cancellable_connect (cancellable, G_CALLBACK (kill_process_cb),
                                              state->process, NULL);
  g_subprocess_communicate_utf8_async (state->process, dot, NULL,
                                       layout_communicate_cb, g_steal_pointer (&task));
}

TpPictureLayout *
tp_picture_layout_new_finish (GAsyncResult  *result,
                              GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* {==== export ====} */

static void
export_communicate_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GSubprocess *process = G_SUBPROCESS (object);
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;

  if (!g_subprocess_communicate_utf8_finish (process, result, NULL, &err, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else if (!g_subprocess_get_if_exited (process) || g_subprocess_get_exit_status (process) != 0)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED,
                             "graphviz could not draw the picture: %s", g_strstrip (err));
  else
    g_task_return_boolean (task, TRUE);
}

void
tp_picture_export_async (const char          *dot,
                         const char          *format,
                         GFile               *file,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *type = g_strconcat ("-T", format, NULL);

  g_task_set_source_tag (task, tp_picture_export_async);
  if (path == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                               "pictures are exported to local files only");
      return;
    }
  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                              &error, "dot", type, "-o", path, NULL);
  if (process == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  g_subprocess_communicate_utf8_async (process, dot, cancellable,
                                       export_communicate_cb, g_steal_pointer (&task));
}

gboolean
tp_picture_export_finish (GAsyncResult  *result,
                          GError       **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}
