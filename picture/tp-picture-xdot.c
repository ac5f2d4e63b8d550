/* tp-picture-xdot.c: see tp-picture-xdot.h.
 *
 * What "as graphviz's cairo renderer draws them" means, operation by
 * operation (graphviz 2.43's cairo plugin, which draws the command
 * line's PNG):
 *
 * - Every run starts from xdot's default state: black pen and fill,
 *   solid lines one point wide, 14-point Times-Roman.
 * - A filled shape (E, P, b) is filled with the fill colour and then
 *   outlined with the pen; an unfilled one (e, p, B, L) is outlined.
 *   Polygons are closed, Béziers and polylines are not.
 * - Dashes are 6 on, 6 off; dots 2 on, 6 off; "bold" is two points wide.
 * - Text (T) is laid out by Pango at 96 dpi with hinted metrics, the
 *   fonts resolved as graphviz resolved them, bold and italic from the
 *   "t" flags, and drawn scaled by 72/96 so a font size is in points.  It
 *   is placed as graphviz places it: its left edge at x, or x less half
 *   or all of graphviz's width for centred or right-aligned text; its
 *   baseline on y.
 *
 * The style a broken HTML table border writes in graphviz 2.43 ("dashed("
 * followed by the names of every style) reads by its name, as the cairo
 * renderer reads it. */
#include "tp-picture-config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gio/gio.h>
#include <pango/pangocairo.h>
#include <xdot.h>

#include "tp-picture-xdot.h"

/* Graphviz lays text out at this resolution, in Pango units. */
#define FONT_DPI 96.0
#define POINTS_PER_INCH 72.0

struct _TpPictureDrawing
{
  xdot **runs;
  guint n_runs;
  double dx;
  double dy;
  GHashTable *fonts;            /* font name -> Pango description */
};

void
tp_picture_drawing_free (TpPictureDrawing *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < self->n_runs; i++)
    freeXDot (self->runs[i]);
  g_free (self->runs);
  g_clear_pointer (&self->fonts, g_hash_table_unref);
  g_free (self);
}

TpPictureDrawing *
tp_picture_drawing_new (const char         *ops,
                        gsize               length,
                        double              dx,
                        double              dy,
                        const char *const  *fonts,
                        GError            **error)
{
  g_autoptr(TpPictureDrawing) self = g_new0 (TpPictureDrawing, 1);
  g_autoptr(GPtrArray) runs = g_ptr_array_new ();
  gsize at = 0;

  self->dx = dx;
  self->dy = dy;
  self->fonts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint i = 0; fonts != NULL && fonts[i] != NULL && fonts[i + 1] != NULL; i += 2)
    g_hash_table_replace (self->fonts, g_strdup (fonts[i]), g_strdup (fonts[i + 1]));

  while (at < length)
    {
      const char *end = memchr (ops + at, '\0', length - at);
      g_autofree char *run = NULL;
      xdot *parsed;

      if (end == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "the drawing operations are cut short");
          goto fail;
        }
      run = g_strndup (ops + at, (gsize) (end - (ops + at)));
      at = (gsize) (end - ops) + 1;
      if (run[0] == '\0')
        continue;
      parsed = parseXDot (run);
      if (parsed == NULL || (parsed->flags & XDOT_PARSE_ERROR))
        {
          if (parsed != NULL)
            freeXDot (parsed);
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "graphviz's drawing operations do not parse");
          goto fail;
        }
      g_ptr_array_add (runs, parsed);
    }
  self->n_runs = runs->len;
  self->runs = (xdot **) g_ptr_array_free (g_steal_pointer (&runs), FALSE);
  return g_steal_pointer (&self);

fail:
  for (guint i = 0; i < runs->len; i++)
    freeXDot (runs->pdata[i]);
  return NULL;
}

/* {==== state ====} */

typedef enum
{
  DASH_NONE,
  DASH_DASHED,
  DASH_DOTTED,
} Dash;

typedef struct
{
  cairo_pattern_t *pen;         /* owned */
  cairo_pattern_t *fill;        /* owned */
  gboolean pen_clear;           /* fully transparent: nothing to stroke */
  gboolean fill_clear;
  double width;
  Dash dash;
  const char *font;             /* borrowed from the ops */
  double size;
  unsigned int flags;           /* xdot's "t": bold 1, italic 2, ... */
} State;

/* A colour as graphviz's xdot writes one: #rrggbb or #rrggbbaa, or a
 * name (X11's, as graphviz's default colour scheme). */
static void
parse_color (const char *text,
             double      rgba[4])
{
  size_t n = text != NULL ? strlen (text) : 0;

  rgba[0] = rgba[1] = rgba[2] = 0;
  rgba[3] = 1;
  if (text == NULL)
    return;
  if (text[0] == '#' && (n == 7 || n == 9) && strspn (text + 1, "0123456789abcdefABCDEF") == n - 1)
    {
      for (size_t i = 0; i < (n - 1) / 2; i++)
        {
          char hex[3] = { text[1 + 2 * i], text[2 + 2 * i], '\0' };

          rgba[i] = (double) strtol (hex, NULL, 16) / 255.0;
        }
      return;
    }
  if (g_ascii_strcasecmp (text, "transparent") == 0 || g_ascii_strcasecmp (text, "none") == 0)
    {
      rgba[3] = 0;
      return;
    }
  {
    PangoColor color;

    if (pango_color_parse (&color, text))
      {
        rgba[0] = color.red / 65535.0;
        rgba[1] = color.green / 65535.0;
        rgba[2] = color.blue / 65535.0;
      }
  }
}

static cairo_pattern_t *
solid_pattern (const char *text,
               gboolean   *clear)
{
  double rgba[4];

  parse_color (text, rgba);
  *clear = rgba[3] <= 0;
  return cairo_pattern_create_rgba (rgba[0], rgba[1], rgba[2], rgba[3]);
}

/* A gradient ("[...]" or "(...)" in xdot), in picture points. */
static cairo_pattern_t *
gradient_pattern (const TpPictureDrawing *self,
                  const xdot_color       *color,
                  gboolean               *clear)
{
  cairo_pattern_t *pattern;
  const xdot_color_stop *stops;
  int n_stops;

  *clear = FALSE;
  if (color->type == xd_linear)
    {
      const xdot_linear_grad *g = &color->u.ling;

      pattern = cairo_pattern_create_linear (g->x0 + self->dx, self->dy - g->y0,
                                             g->x1 + self->dx, self->dy - g->y1);
      stops = g->stops;
      n_stops = g->n_stops;
    }
  else if (color->type == xd_radial)
    {
      const xdot_radial_grad *g = &color->u.ring;

      pattern = cairo_pattern_create_radial (g->x0 + self->dx, self->dy - g->y0, g->r0,
                                             g->x1 + self->dx, self->dy - g->y1, g->r1);
      stops = g->stops;
      n_stops = g->n_stops;
    }
  else
    return solid_pattern (color->u.clr, clear);
  for (int i = 0; i < n_stops; i++)
    {
      double rgba[4];

      parse_color (stops[i].color, rgba);
      cairo_pattern_add_color_stop_rgba (pattern, stops[i].frac, rgba[0], rgba[1], rgba[2], rgba[3]);
    }
  return pattern;
}

static void
set_pattern (cairo_pattern_t **slot,
             cairo_pattern_t  *pattern)
{
  g_clear_pointer (slot, cairo_pattern_destroy);
  *slot = pattern;
}

static void
set_style (State      *state,
           const char *style)
{
  size_t name = strcspn (style, "(");

  if (strncmp (style, "setlinewidth", name) == 0 && name == strlen ("setlinewidth") && style[name] == '(')
    {
      double width = g_ascii_strtod (style + name + 1, NULL);

      if (width >= 0 && width < 1000)
        state->width = width;
    }
  else if (name == 5 && strncmp (style, "solid", 5) == 0)
    state->dash = DASH_NONE;
  else if (name == 6 && strncmp (style, "dashed", 6) == 0)
    state->dash = DASH_DASHED;
  else if (name == 6 && strncmp (style, "dotted", 6) == 0)
    state->dash = DASH_DOTTED;
  else if (name == 4 && strncmp (style, "bold", 4) == 0)
    state->width = 2;
}

/* {==== shapes ====} */

/* Fills (when @filled) and strokes the path, as the cairo renderer
 * does. */
static void
paint_path (cairo_t     *cr,
            const State *state,
            gboolean     filled)
{
  static const double dashed[] = { 6.0 };
  static const double dotted[] = { 2.0, 6.0 };

  if (filled && !state->fill_clear)
    {
      cairo_set_source (cr, state->fill);
      cairo_fill_preserve (cr);
    }
  if (!state->pen_clear)
    {
      if (state->dash == DASH_DASHED)
        cairo_set_dash (cr, dashed, G_N_ELEMENTS (dashed), 0);
      else if (state->dash == DASH_DOTTED)
        cairo_set_dash (cr, dotted, G_N_ELEMENTS (dotted), 0);
      else
        cairo_set_dash (cr, NULL, 0, 0);
      cairo_set_line_width (cr, state->width);
      cairo_set_source (cr, state->pen);
      cairo_stroke (cr);
    }
  cairo_new_path (cr);
}

static void
path_points (const TpPictureDrawing *self,
             cairo_t                *cr,
             const xdot_polyline    *points,
             gboolean                bezier)
{
  const xdot_point *p = points->pts;

  if (points->cnt <= 0)
    return;
  cairo_move_to (cr, p[0].x + self->dx, self->dy - p[0].y);
  if (bezier)
    for (int i = 1; i + 2 < points->cnt; i += 3)
      cairo_curve_to (cr, p[i].x + self->dx, self->dy - p[i].y,
                      p[i + 1].x + self->dx, self->dy - p[i + 1].y,
                      p[i + 2].x + self->dx, self->dy - p[i + 2].y);
  else
    for (int i = 1; i < points->cnt; i++)
      cairo_line_to (cr, p[i].x + self->dx, self->dy - p[i].y);
}

static void
draw_ellipse (const TpPictureDrawing *self,
              cairo_t                *cr,
              const State            *state,
              const xdot_rect        *e,
              gboolean                filled)
{
  cairo_matrix_t matrix;

  if (!(e->w > 0) || !(e->h > 0))
    return;
  cairo_get_matrix (cr, &matrix);
  cairo_translate (cr, e->x + self->dx, self->dy - e->y);
  cairo_scale (cr, e->w, e->h);
  cairo_move_to (cr, 1, 0);
  cairo_arc (cr, 0, 0, 1, 0, 2 * G_PI);
  cairo_set_matrix (cr, &matrix);
  paint_path (cr, state, filled);
}

/* {==== text ====} */

/* This thread's Pango context: on the thread's own default font map
 * (per thread since Pango 1.32.6, so any thread may draw text), set up
 * as graphviz sets up the one it measures text with. */
static GPrivate text_context = G_PRIVATE_INIT (g_object_unref);

static PangoContext *
get_text_context (void)
{
  PangoContext *context = g_private_get (&text_context);

  if (context == NULL)
    {
      cairo_font_options_t *options = cairo_font_options_create ();

      context = pango_font_map_create_context (pango_cairo_font_map_get_default ());
      cairo_font_options_set_antialias (options, CAIRO_ANTIALIAS_GRAY);
      cairo_font_options_set_hint_style (options, CAIRO_HINT_STYLE_FULL);
      cairo_font_options_set_hint_metrics (options, CAIRO_HINT_METRICS_ON);
      cairo_font_options_set_subpixel_order (options, CAIRO_SUBPIXEL_ORDER_BGR);
      pango_cairo_context_set_font_options (context, options);
      pango_cairo_context_set_resolution (context, FONT_DPI);
      cairo_font_options_destroy (options);
      g_private_set (&text_context, context);
    }
  return context;
}

static void
draw_text (const TpPictureDrawing *self,
           cairo_t                *cr,
           const State            *state,
           const xdot_text        *text)
{
  const char *font = state->font != NULL ? state->font : "Times-Roman";
  const char *description = g_hash_table_lookup (self->fonts, font);
  PangoLayout *layout;
  PangoFontDescription *desc;
  PangoAttrList *attrs = NULL;
  double scale = POINTS_PER_INCH / FONT_DPI;
  double x = text->x + self->dx;
  double y = self->dy - text->y;

  if (text->text == NULL || text->text[0] == '\0' || state->pen_clear || !(state->size > 0))
    return;
  if (!g_utf8_validate (text->text, -1, NULL))
    return;
  layout = pango_layout_new (get_text_context ());
  desc = pango_font_description_from_string (description != NULL ? description : font);
  pango_font_description_set_size (desc, (gint) (MIN (state->size, 10000.0) * PANGO_SCALE));
  pango_layout_set_font_description (layout, desc);
  pango_layout_set_text (layout, text->text, -1);
  if (state->flags & 0x27)
    {
      attrs = pango_attr_list_new ();
      if (state->flags & 0x01)
        pango_attr_list_insert (attrs, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
      if (state->flags & 0x02)
        pango_attr_list_insert (attrs, pango_attr_style_new (PANGO_STYLE_ITALIC));
      if (state->flags & 0x04)
        pango_attr_list_insert (attrs, pango_attr_underline_new (PANGO_UNDERLINE_SINGLE));
      if (state->flags & 0x20)
        pango_attr_list_insert (attrs, pango_attr_strikethrough_new (TRUE));
      pango_layout_set_attributes (layout, attrs);
    }

  if (text->align == xd_center)
    x -= text->width / 2;
  else if (text->align == xd_right)
    x -= text->width;
  y -= pango_layout_get_baseline (layout) * scale / PANGO_SCALE;

  cairo_set_source (cr, state->pen);
  cairo_move_to (cr, x, y);
  cairo_save (cr);
  cairo_scale (cr, scale, scale);
  pango_cairo_show_layout (cr, layout);
  cairo_restore (cr);
  cairo_new_path (cr);

  if (attrs != NULL)
    pango_attr_list_unref (attrs);
  pango_font_description_free (desc);
  g_object_unref (layout);
}

/* {==== drawing ====} */

static void
draw_run (const TpPictureDrawing *self,
          cairo_t                *cr,
          const xdot             *run)
{
  State state = {
    .width = 1,
    .dash = DASH_NONE,
    .font = "Times-Roman",
    .size = 14,
  };

  state.pen = cairo_pattern_create_rgb (0, 0, 0);
  state.fill = cairo_pattern_create_rgb (0, 0, 0);
  for (int i = 0; i < run->cnt; i++)
    {
      const xdot_op *op = &run->ops[i];

      switch (op->kind)
        {
        case xd_filled_ellipse:
        case xd_unfilled_ellipse:
          draw_ellipse (self, cr, &state, &op->u.ellipse, op->kind == xd_filled_ellipse);
          break;
        case xd_filled_polygon:
        case xd_unfilled_polygon:
          path_points (self, cr, &op->u.polygon, FALSE);
          cairo_close_path (cr);
          paint_path (cr, &state, op->kind == xd_filled_polygon);
          break;
        case xd_filled_bezier:
        case xd_unfilled_bezier:
          path_points (self, cr, &op->u.bezier, TRUE);
          paint_path (cr, &state, op->kind == xd_filled_bezier);
          break;
        case xd_polyline:
          path_points (self, cr, &op->u.polyline, FALSE);
          paint_path (cr, &state, FALSE);
          break;
        case xd_text:
          draw_text (self, cr, &state, &op->u.text);
          break;
        case xd_fill_color:
          set_pattern (&state.fill, solid_pattern (op->u.color, &state.fill_clear));
          break;
        case xd_pen_color:
          set_pattern (&state.pen, solid_pattern (op->u.color, &state.pen_clear));
          break;
        case xd_grad_fill_color:
          set_pattern (&state.fill, gradient_pattern (self, &op->u.grad_color, &state.fill_clear));
          break;
        case xd_grad_pen_color:
          set_pattern (&state.pen, gradient_pattern (self, &op->u.grad_color, &state.pen_clear));
          break;
        case xd_font:
          state.font = op->u.font.name;
          state.size = op->u.font.size;
          break;
        case xd_style:
          if (op->u.style != NULL)
            set_style (&state, op->u.style);
          break;
        case xd_fontchar:
          state.flags = op->u.fontchar;
          break;
        case xd_image:
        default:
          /* images are not drawn: the engine's pictures have none */
          break;
        }
    }
  cairo_pattern_destroy (state.pen);
  cairo_pattern_destroy (state.fill);
}

void
tp_picture_drawing_draw (const TpPictureDrawing *self,
                         cairo_t                *cr)
{
  cairo_save (cr);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_BUTT);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_MITER);
  cairo_new_path (cr);
  for (guint i = 0; i < self->n_runs; i++)
    draw_run (self, cr, self->runs[i]);
  cairo_restore (cr);
}
