/* tp-picture-layout.c: a picture laid out by graphviz in the worker
 * process, and drawn here from graphviz's own drawing operations.
 *
 * A layout is graphviz's xdot drawing operations, the fonts they name as
 * graphviz resolved them, and the node boxes for hit tests
 * (tp_render_node_bounds); tp-picture-xdot.c draws the operations with
 * cairo and Pango as graphviz's cairo renderer draws them, at any scale.
 * This file reads the worker's replies (tp-layout-protocol.h) into
 * layouts; tp-picture-worker.c talks to the worker. */
#include "tp-picture-config.h"

#include <string.h>

#include "tp-layout-protocol.h"
#include "tp-picture-layout.h"
#include "tp-picture-xdot.h"

/* Picture pixels (96 dpi) per point. */
#define PX_PER_PT (96.0 / 72.0)

typedef struct
{
  guint32 index;
  double x, y, width, height;   /* points */
} NodeBox;

struct _TpPictureLayout
{
  TpPictureDrawing *drawing;    /* graphviz's, in points */
  double width;                 /* points */
  double height;
  NodeBox *boxes;
  guint n_boxes;
  char *dot;                    /* the text it was made from (cache key) */
  gboolean degraded;
  gboolean screen;              /* laid out as the pane shows it */
  int target;                   /* a screen layout's target node, or -1 */
  TpPictureLayout *legend;      /* a screen layout's legend, or NULL */
};

TpPictureLayout *
tp_picture_layout_ref (TpPictureLayout *self)
{
  return g_atomic_rc_box_acquire (self);
}

static void
tp_picture_layout_clear (TpPictureLayout *self)
{
  g_clear_pointer (&self->drawing, tp_picture_drawing_free);
  g_clear_pointer (&self->boxes, g_free);
  g_clear_pointer (&self->dot, g_free);
  g_clear_pointer (&self->legend, tp_picture_layout_unref);
}

void
tp_picture_layout_unref (TpPictureLayout *self)
{
  g_atomic_rc_box_release_full (self, (GDestroyNotify) tp_picture_layout_clear);
}

double
tp_picture_layout_get_width (TpPictureLayout *self)
{
  return self->width * PX_PER_PT;
}

double
tp_picture_layout_get_height (TpPictureLayout *self)
{
  return self->height * PX_PER_PT;
}

gboolean
tp_picture_layout_get_degraded (TpPictureLayout *self)
{
  return self->degraded;
}

/* Draws graphviz's operations: vector data, sharp at any scale.  Any
 * thread may call it, several at once: the drawing is immutable. */
void
tp_picture_layout_draw (TpPictureLayout *self,
                        cairo_t         *cr)
{
  cairo_save (cr);
  cairo_scale (cr, PX_PER_PT, PX_PER_PT);
  cairo_rectangle (cr, 0, 0, self->width, self->height);
  cairo_clip (cr);
  tp_picture_drawing_draw (self->drawing, cr);
  cairo_restore (cr);
}

/* As tp_render_node_at: later nodes are drawn on top. */
int
tp_picture_layout_node_at (TpPictureLayout *self,
                           double           x,
                           double           y)
{
  x /= PX_PER_PT;
  y /= PX_PER_PT;
  for (guint k = self->n_boxes; k-- > 0;)
    {
      const NodeBox *b = &self->boxes[k];

      if (x >= b->x && x <= b->x + b->width && y >= b->y && y <= b->y + b->height)
        return b->index <= G_MAXINT ? (int) b->index : -1;
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
  for (guint k = 0; node >= 0 && k < self->n_boxes; k++)
    if (self->boxes[k].index == (guint32) node)
      {
        *x = self->boxes[k].x * PX_PER_PT;
        *y = self->boxes[k].y * PX_PER_PT;
        *width = self->boxes[k].width * PX_PER_PT;
        *height = self->boxes[k].height * PX_PER_PT;
        return TRUE;
      }
  return FALSE;
}

const char *
tp_picture_layout_get_dot (TpPictureLayout *self)
{
  return self->dot;
}

gboolean
tp_picture_layout_get_screen (TpPictureLayout *self)
{
  return self->screen;
}

int
tp_picture_layout_get_target (TpPictureLayout *self)
{
  return self->target;
}

TpPictureLayout *
tp_picture_layout_get_legend (TpPictureLayout *self)
{
  return self->legend;
}

/* {==== replies ====} */

/* Reads a reply's numbers and byte strings in order; once anything is
 * short, every read after gives zeros and `bad` stays set. */
typedef struct
{
  const guint8 *p;
  const guint8 *end;
  gboolean bad;
} Reader;

static void
take (Reader *r,
      void   *out,
      gsize   n)
{
  if (r->bad || (gsize) (r->end - r->p) < n)
    {
      r->bad = TRUE;
      memset (out, 0, n);
      return;
    }
  memcpy (out, r->p, n);
  r->p += n;
}

static const guint8 *
take_bytes (Reader  *r,
            guint32 *length)
{
  const guint8 *data;

  take (r, length, sizeof *length);
  if (r->bad || (gsize) (r->end - r->p) < *length)
    {
      r->bad = TRUE;
      *length = 0;
      return NULL;
    }
  data = r->p;
  r->p += *length;
  return data;
}

/* Reads one reply from @r (a layout's when @kind is a screen layout's,
 * the rest read by the caller). */
static gboolean
read_reply (Reader           *r_in,
            guint32           kind,
            const char       *dot,
            TpPictureLayout **layout_out,
            GBytes          **payload_out,
            GError          **error)
{
  Reader r = *r_in;
  guint32 ok, degraded, n_boxes, diag_len, payload_len;
  double width, height;
  const guint8 *diag, *payload;
  g_autofree NodeBox *boxes = NULL;
  g_autoptr(GError) inner = NULL;

  take (&r, &ok, sizeof ok);
  take (&r, &degraded, sizeof degraded);
  take (&r, &width, sizeof width);
  take (&r, &height, sizeof height);
  take (&r, &n_boxes, sizeof n_boxes);
  if (!r.bad && n_boxes > (gsize) (r.end - r.p) / (sizeof (guint32) + 4 * sizeof (double)))
    r.bad = TRUE;
  boxes = g_new0 (NodeBox, r.bad ? 1 : n_boxes + 1);
  for (guint32 k = 0; !r.bad && k < n_boxes; k++)
    {
      take (&r, &boxes[k].index, sizeof boxes[k].index);
      take (&r, &boxes[k].x, sizeof (double));
      take (&r, &boxes[k].y, sizeof (double));
      take (&r, &boxes[k].width, sizeof (double));
      take (&r, &boxes[k].height, sizeof (double));
    }
  diag = take_bytes (&r, &diag_len);
  payload = take_bytes (&r, &payload_len);
  *r_in = r;
  if (r.bad)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "the picture worker's answer is garbled");
      return FALSE;
    }
  if (!ok)
    {
      g_autofree char *why = g_strstrip (g_strndup ((const char *) diag, diag_len));

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   kind == TP_LAYOUT_REQUEST_LAYOUT || kind == TP_LAYOUT_REQUEST_SCREEN
                     ? "graphviz could not lay the picture out%s%s" : "graphviz could not draw the picture%s%s",
                   why[0] != '\0' ? ": " : "", why);
      return FALSE;
    }

  if (kind == TP_LAYOUT_REQUEST_LAYOUT || kind == TP_LAYOUT_REQUEST_SCREEN)
    {
      Reader p = { payload, payload + payload_len, FALSE };
      TpPictureDrawing *drawing = NULL;
      TpPictureLayout *layout;
      double dx, dy;
      guint32 n_fonts, ops_len;
      const guint8 *ops;
      g_autoptr(GPtrArray) fonts = g_ptr_array_new_with_free_func (g_free);

      take (&p, &dx, sizeof dx);
      take (&p, &dy, sizeof dy);
      take (&p, &n_fonts, sizeof n_fonts);
      for (guint32 k = 0; !p.bad && k < n_fonts; k++)
        for (guint half = 0; half < 2; half++)
          {
            guint32 n;
            const guint8 *text = take_bytes (&p, &n);

            if (text != NULL)
              g_ptr_array_add (fonts, g_strndup ((const char *) text, n));
          }
      g_ptr_array_add (fonts, NULL);
      ops = take_bytes (&p, &ops_len);
      if (!p.bad)
        drawing = tp_picture_drawing_new ((const char *) ops, ops_len, dx, dy,
                                          (const char *const *) fonts->pdata, &inner);
      if (drawing == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "the picture could not be read: %s",
                       inner != NULL ? inner->message : "the worker's answer is garbled");
          return FALSE;
        }
      layout = g_atomic_rc_box_new0 (TpPictureLayout);
      layout->drawing = drawing;
      layout->width = width;
      layout->height = height;
      layout->boxes = g_steal_pointer (&boxes);
      layout->n_boxes = n_boxes;
      layout->dot = g_strdup (dot);
      layout->degraded = degraded != 0;
      layout->screen = kind == TP_LAYOUT_REQUEST_SCREEN;
      layout->target = -1;
      *layout_out = layout;
    }
  else
    *payload_out = g_bytes_new (payload, payload_len);
  return TRUE;
}

gboolean
tp_picture_reply_read (GBytes           *bytes,
                       guint32           kind,
                       const char       *dot,
                       TpPictureLayout **layout,
                       GBytes          **payload,
                       GError          **error)
{
  Reader r = { g_bytes_get_data (bytes, NULL), NULL, FALSE };
  guint32 target = G_MAXUINT32, legend_len = 0;
  const guint8 *legend;

  r.end = r.p + g_bytes_get_size (bytes);
  if (!read_reply (&r, kind, dot, layout, payload, error))
    return FALSE;
  if (kind != TP_LAYOUT_REQUEST_SCREEN)
    return TRUE;
  take (&r, &target, sizeof target);
  legend = take_bytes (&r, &legend_len);
  if (!r.bad && legend_len > 0)
    {
      Reader inner = { legend, legend + legend_len, FALSE };
      g_autoptr(GError) why = NULL;

      /* a legend that could not be laid out is only missing */
      if (!read_reply (&inner, TP_LAYOUT_REQUEST_LAYOUT, "", &(*layout)->legend, NULL, &why))
        g_debug ("picture legend: %s", why->message);
    }
  if (r.bad)
    {
      g_clear_pointer (layout, tp_picture_layout_unref);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "the picture worker's answer is garbled");
      return FALSE;
    }
  (*layout)->target = target <= G_MAXINT ? (int) target : -1;
  return TRUE;
}
