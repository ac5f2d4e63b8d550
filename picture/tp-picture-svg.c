/* tp-picture-svg.c: cairo's SVG back into cairo (see tp-picture-svg.h).
 *
 * One pass with GMarkup.  Glyph symbols and clip paths become cairo
 * paths kept by id; a group with a "surfaceN" id inside <defs> is drawn
 * into a recording of its own, which a <pattern> names and a later fill
 * uses; everything else is drawn as it is read. */
#include "tp-picture-config.h"

#include <string.h>

#include "tp-picture-svg.h"

typedef struct
{
  gboolean surface;             /* a <g id="surfaceN"> with its own target */
  char *id;
  cairo_t *cr;                  /* the context drawn into below this group */
  gboolean has_fill;            /* the group's fill, for glyph uses */
  double fill[4];
} Frame;

typedef struct
{
  GHashTable *glyphs;           /* id -> cairo_path_t */
  GHashTable *clips;            /* id -> cairo_path_t */
  GHashTable *surfaces;         /* id -> cairo_surface_t (recording) */
  GHashTable *patterns;         /* pattern id -> surface id */
  GPtrArray *frames;            /* Frame, innermost last */
  cairo_t *root;                /* draws into the result */
  cairo_t *scratch;             /* builds paths to keep */
  cairo_t *pending;              /* glyph outlines appended, not yet filled */
  double pending_rgba[4];
  char *symbol;                 /* inside <symbol id>, else NULL */
  char *clip;                   /* inside <clipPath id> */
  char *pattern;                /* inside <pattern id> */
  int defs;                     /* depth of <defs> */
} Svg;

static void
frame_free (gpointer data)
{
  Frame *frame = data;

  g_free (frame->id);
  g_free (frame);
}

static cairo_t *
svg_cr (Svg *svg)
{
  for (guint i = svg->frames->len; i-- > 0;)
    {
      Frame *frame = g_ptr_array_index (svg->frames, i);

      if (frame->cr != NULL)
        return frame->cr;
    }
  return svg->root;
}

/* The innermost group fill (glyphs are filled with it), or black. */
static void
svg_group_fill (Svg    *svg,
                double *rgba)
{
  for (guint i = svg->frames->len; i-- > 0;)
    {
      Frame *frame = g_ptr_array_index (svg->frames, i);

      if (frame->has_fill)
        {
          memcpy (rgba, frame->fill, sizeof frame->fill);
          return;
        }
    }
  rgba[0] = rgba[1] = rgba[2] = 0;
  rgba[3] = 1;
}

/* Fills the glyph outlines gathered since the last flush: a run of
 * glyphs in one group shares one colour, so one fill draws them all. */
static void
flush_glyphs (Svg *svg)
{
  if (svg->pending == NULL)
    return;
  cairo_set_source_rgba (svg->pending, svg->pending_rgba[0], svg->pending_rgba[1],
                         svg->pending_rgba[2], svg->pending_rgba[3]);
  cairo_set_fill_rule (svg->pending, CAIRO_FILL_RULE_WINDING);
  cairo_fill (svg->pending);
  svg->pending = NULL;
}

static const char *
attr (const char **names,
      const char **values,
      const char  *name)
{
  for (guint i = 0; names[i] != NULL; i++)
    if (g_str_equal (names[i], name))
      return values[i];
  return NULL;
}

static double
number (const char **p)
{
  char *end;
  double v;

  while (**p == ' ' || **p == ',' || **p == '\n' || **p == '\t')
    (*p)++;
  v = g_ascii_strtod (*p, &end);
  *p = end;
  return v;
}

/* "url(#id)" -> "id" (in a new string), or NULL. */
static char *
url_id (const char *value)
{
  const char *start, *end;

  if (value == NULL || (start = strstr (value, "url(#")) == NULL)
    return NULL;
  start += strlen ("url(#");
  end = strchr (start, ')');
  return end != NULL ? g_strndup (start, (gsize) (end - start)) : NULL;
}

/* "rgb(73.3%,80%,93.3%)" (cairo writes percentages). */
static gboolean
parse_rgb (const char *value,
           double     *rgba)
{
  const char *p;

  if (value == NULL || !g_str_has_prefix (value, "rgb("))
    return FALSE;
  p = value + 4;
  for (guint i = 0; i < 3; i++)
    {
      rgba[i] = number (&p);
      if (*p == '%')
        {
          rgba[i] /= 100.0;
          p++;
        }
      else
        rgba[i] /= 255.0;
    }
  return TRUE;
}

/* The style attribute as key -> value. */
static GHashTable *
parse_style (const char *style)
{
  GHashTable *table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_auto(GStrv) parts = NULL;

  if (style == NULL)
    return table;
  parts = g_strsplit (style, ";", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      char *colon = strchr (parts[i], ':');

      if (colon == NULL)
        continue;
      *colon = '\0';
      g_hash_table_insert (table, g_strdup (g_strstrip (parts[i])), g_strdup (g_strstrip (colon + 1)));
    }
  return table;
}

/* cairo writes absolute M, L, C and Z only. */
static gboolean
append_path_data (cairo_t    *cr,
                  const char *d)
{
  const char *p = d;
  char command = 0;

  while (*p != '\0')
    {
      double x1, y1, x2, y2, x3, y3;

      while (*p == ' ' || *p == ',' || *p == '\n' || *p == '\t')
        p++;
      if (*p == '\0')
        break;
      if (g_ascii_isalpha (*p))
        command = *p++;
      switch (command)
        {
        case 'M':
          x1 = number (&p);
          y1 = number (&p);
          cairo_move_to (cr, x1, y1);
          command = 'L';
          break;
        case 'L':
          x1 = number (&p);
          y1 = number (&p);
          cairo_line_to (cr, x1, y1);
          break;
        case 'C':
          x1 = number (&p);
          y1 = number (&p);
          x2 = number (&p);
          y2 = number (&p);
          x3 = number (&p);
          y3 = number (&p);
          cairo_curve_to (cr, x1, y1, x2, y2, x3, y3);
          break;
        case 'Z':
        case 'z':
          cairo_close_path (cr);
          command = 0;
          break;
        default:
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
parse_matrix (const char     *value,
              cairo_matrix_t *m)
{
  const char *p;

  if (value == NULL || !g_str_has_prefix (value, "matrix("))
    return FALSE;
  p = value + strlen ("matrix(");
  m->xx = number (&p);
  m->yx = number (&p);
  m->xy = number (&p);
  m->yy = number (&p);
  m->x0 = number (&p);
  m->y0 = number (&p);
  return TRUE;
}

/* The element's geometry (path d or rect) as the current path of @cr. */
static gboolean
build_shape (cairo_t     *cr,
             const char  *element,
             const char **names,
             const char **values)
{
  cairo_new_path (cr);
  if (g_str_equal (element, "path"))
    return append_path_data (cr, attr (names, values, "d") != NULL ? attr (names, values, "d") : "");
  else
    {
      const char *x = attr (names, values, "x"), *y = attr (names, values, "y");
      const char *w = attr (names, values, "width"), *h = attr (names, values, "height");

      if (w == NULL || h == NULL)
        return FALSE;
      cairo_rectangle (cr, x != NULL ? g_ascii_strtod (x, NULL) : 0, y != NULL ? g_ascii_strtod (y, NULL) : 0,
                       g_ascii_strtod (w, NULL), g_ascii_strtod (h, NULL));
      return TRUE;
    }
}

static cairo_path_t *
keep_shape (Svg         *svg,
            const char  *element,
            const char **names,
            const char **values)
{
  cairo_matrix_t m;

  cairo_identity_matrix (svg->scratch);
  if (parse_matrix (attr (names, values, "transform"), &m))
    cairo_set_matrix (svg->scratch, &m);
  if (!build_shape (svg->scratch, element, names, values))
    return NULL;
  cairo_identity_matrix (svg->scratch);
  return cairo_copy_path (svg->scratch);
}

static void
apply_clip (Svg        *svg,
            cairo_t    *cr,
            const char *clip_path,
            const char *clip_rule)
{
  g_autofree char *id = url_id (clip_path);
  cairo_path_t *path = id != NULL ? g_hash_table_lookup (svg->clips, id) : NULL;

  if (path == NULL)
    return;
  cairo_new_path (cr);
  cairo_append_path (cr, path);
  cairo_set_fill_rule (cr, g_strcmp0 (clip_rule, "evenodd") == 0 ? CAIRO_FILL_RULE_EVEN_ODD
                                                                 : CAIRO_FILL_RULE_WINDING);
  cairo_clip (cr);
}

/* Sets the fill or stroke source from a style's paint and opacity;
 * FALSE for "none". */
static gboolean
set_paint (Svg        *svg,
           cairo_t    *cr,
           const char *paint,
           const char *opacity)
{
  double rgba[4] = { 0, 0, 0, 1 };
  g_autofree char *id = url_id (paint);

  if (g_strcmp0 (paint, "none") == 0)
    return FALSE;
  if (id != NULL)
    {
      const char *surface_id = g_hash_table_lookup (svg->patterns, id);
      cairo_surface_t *surface = surface_id != NULL ? g_hash_table_lookup (svg->surfaces, surface_id) : NULL;

      if (surface == NULL)
        return FALSE;
      cairo_set_source_surface (cr, surface, 0, 0);
      return TRUE;
    }
  parse_rgb (paint, rgba);
  if (opacity != NULL)
    rgba[3] = g_ascii_strtod (opacity, NULL);
  cairo_set_source_rgba (cr, rgba[0], rgba[1], rgba[2], rgba[3]);
  return TRUE;
}

static void
set_dash (cairo_t    *cr,
          const char *dasharray,
          const char *offset)
{
  double dashes[32];
  const char *p = dasharray;
  int n = 0;

  if (dasharray == NULL || g_str_equal (dasharray, "none"))
    return;
  while (*p != '\0' && n < 32)
    {
      const char *before = p;

      dashes[n] = number (&p);
      if (p == before)
        break;
      n++;
    }
  cairo_set_dash (cr, dashes, n, offset != NULL ? g_ascii_strtod (offset, NULL) : 0);
}

/* A path or rect drawn with its own style. */
static void
draw_shape (Svg         *svg,
            const char  *element,
            const char **names,
            const char **values)
{
  cairo_t *cr = svg_cr (svg);
  g_autoptr(GHashTable) style = parse_style (attr (names, values, "style"));
  const char *fill = g_hash_table_lookup (style, "fill");
  const char *stroke = g_hash_table_lookup (style, "stroke");
  cairo_matrix_t m;

  cairo_save (cr);
  if (parse_matrix (attr (names, values, "transform"), &m))
    cairo_transform (cr, &m);
  if (!build_shape (cr, element, names, values))
    {
      cairo_restore (cr);
      return;
    }
  /* SVG's default fill is black; the group's fill when it has one */
  if (fill == NULL)
    {
      double rgba[4];

      svg_group_fill (svg, rgba);
      cairo_set_source_rgba (cr, rgba[0], rgba[1], rgba[2], rgba[3]);
      cairo_fill_preserve (cr);
    }
  else if (set_paint (svg, cr, fill, g_hash_table_lookup (style, "fill-opacity")))
    {
      cairo_set_fill_rule (cr, g_strcmp0 (g_hash_table_lookup (style, "fill-rule"), "evenodd") == 0
                                 ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING);
      cairo_fill_preserve (cr);
    }
  if (stroke != NULL && set_paint (svg, cr, stroke, g_hash_table_lookup (style, "stroke-opacity")))
    {
      const char *width = g_hash_table_lookup (style, "stroke-width");
      const char *cap = g_hash_table_lookup (style, "stroke-linecap");
      const char *join = g_hash_table_lookup (style, "stroke-linejoin");
      const char *miter = g_hash_table_lookup (style, "stroke-miterlimit");

      cairo_set_line_width (cr, width != NULL ? g_ascii_strtod (width, NULL) : 1);
      cairo_set_line_cap (cr, g_strcmp0 (cap, "round") == 0 ? CAIRO_LINE_CAP_ROUND
                              : g_strcmp0 (cap, "square") == 0 ? CAIRO_LINE_CAP_SQUARE : CAIRO_LINE_CAP_BUTT);
      cairo_set_line_join (cr, g_strcmp0 (join, "round") == 0 ? CAIRO_LINE_JOIN_ROUND
                               : g_strcmp0 (join, "bevel") == 0 ? CAIRO_LINE_JOIN_BEVEL : CAIRO_LINE_JOIN_MITER);
      if (miter != NULL)
        cairo_set_miter_limit (cr, g_ascii_strtod (miter, NULL));
      set_dash (cr, g_hash_table_lookup (style, "stroke-dasharray"),
                g_hash_table_lookup (style, "stroke-dashoffset"));
      cairo_stroke_preserve (cr);
    }
  cairo_new_path (cr);
  cairo_restore (cr);
}

/* <use xlink:href="#glyphN-M" x y/>: the glyph's outline, filled with the
 * group's colour. */
static void
draw_use (Svg         *svg,
          const char **names,
          const char **values)
{
  const char *href = attr (names, values, "xlink:href");
  const char *x = attr (names, values, "x"), *y = attr (names, values, "y");
  cairo_path_t *glyph;
  cairo_t *cr = svg_cr (svg);
  double rgba[4];

  if (href == NULL || href[0] != '#')
    return;
  if (svg->pattern != NULL)
    {
      g_hash_table_insert (svg->patterns, g_strdup (svg->pattern), g_strdup (href + 1));
      return;
    }
  glyph = g_hash_table_lookup (svg->glyphs, href + 1);
  if (glyph == NULL)
    {
      cairo_surface_t *surface = g_hash_table_lookup (svg->surfaces, href + 1);

      if (surface != NULL)
        {
          cairo_set_source_surface (cr, surface, 0, 0);
          cairo_paint (cr);
        }
      return;
    }
  svg_group_fill (svg, rgba);
  if (svg->pending != NULL && (svg->pending != cr || memcmp (rgba, svg->pending_rgba, sizeof rgba) != 0))
    flush_glyphs (svg);
  if (svg->pending == NULL)
    {
      svg->pending = cr;
      memcpy (svg->pending_rgba, rgba, sizeof rgba);
      cairo_new_path (cr);
    }
  /* the path is kept in device space: translate only while appending */
  cairo_save (cr);
  cairo_translate (cr, x != NULL ? g_ascii_strtod (x, NULL) : 0, y != NULL ? g_ascii_strtod (y, NULL) : 0);
  cairo_append_path (cr, glyph);
  cairo_restore (cr);
}

static void
start_group (Svg         *svg,
             const char **names,
             const char **values)
{
  Frame *frame = g_new0 (Frame, 1);
  const char *id = attr (names, values, "id");
  g_autoptr(GHashTable) style = parse_style (attr (names, values, "style"));
  const char *fill = g_hash_table_lookup (style, "fill");
  cairo_t *cr;

  frame->id = g_strdup (id);
  if (id != NULL && g_str_has_prefix (id, "surface") && svg->defs > 0)
    {
      cairo_surface_t *recording = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, NULL);

      frame->surface = TRUE;
      frame->cr = cairo_create (recording);
      cairo_surface_destroy (recording);
    }
  cr = frame->cr != NULL ? frame->cr : svg_cr (svg);
  cairo_save (cr);
  if (fill != NULL && parse_rgb (fill, frame->fill))
    {
      const char *opacity = g_hash_table_lookup (style, "fill-opacity");

      frame->fill[3] = opacity != NULL ? g_ascii_strtod (opacity, NULL) : 1;
      frame->has_fill = TRUE;
    }
  apply_clip (svg, cr, attr (names, values, "clip-path"), attr (names, values, "clip-rule"));
  g_ptr_array_add (svg->frames, frame);
}

static void
end_group (Svg *svg)
{
  Frame *frame;
  cairo_t *cr;

  if (svg->frames->len == 0)
    return;
  frame = g_ptr_array_steal_index (svg->frames, svg->frames->len - 1);
  cr = frame->cr != NULL ? frame->cr : svg_cr (svg);
  cairo_restore (cr);
  if (frame->surface)
    {
      g_hash_table_insert (svg->surfaces, g_strdup (frame->id), cairo_surface_reference (cairo_get_target (frame->cr)));
      cairo_destroy (frame->cr);
    }
  frame_free (frame);
}

static void
start_element_cb (GMarkupParseContext  *context,
                  const char           *element,
                  const char          **names,
                  const char          **values,
                  gpointer              data,
                  GError              **error)
{
  Svg *svg = data;

  if (!g_str_equal (element, "use"))
    flush_glyphs (svg);
  if (g_str_equal (element, "defs"))
    svg->defs++;
  else if (g_str_equal (element, "g"))
    start_group (svg, names, values);
  else if (g_str_equal (element, "symbol"))
    svg->symbol = g_strdup (attr (names, values, "id"));
  else if (g_str_equal (element, "clipPath"))
    svg->clip = g_strdup (attr (names, values, "id"));
  else if (g_str_equal (element, "pattern"))
    svg->pattern = g_strdup (attr (names, values, "id"));
  else if (g_str_equal (element, "use"))
    draw_use (svg, names, values);
  else if (g_str_equal (element, "path") || g_str_equal (element, "rect"))
    {
      if (svg->symbol != NULL || svg->clip != NULL)
        {
          cairo_path_t *path = keep_shape (svg, element, names, values);

          if (path != NULL)
            g_hash_table_insert (svg->symbol != NULL ? svg->glyphs : svg->clips,
                                 g_strdup (svg->symbol != NULL ? svg->symbol : svg->clip), path);
        }
      else if (svg->pattern == NULL)
        draw_shape (svg, element, names, values);
    }
}

static void
end_element_cb (GMarkupParseContext  *context,
                const char           *element,
                gpointer              data,
                GError              **error)
{
  Svg *svg = data;

  if (!g_str_equal (element, "use"))
    flush_glyphs (svg);
  if (g_str_equal (element, "defs"))
    svg->defs--;
  else if (g_str_equal (element, "g"))
    end_group (svg);
  else if (g_str_equal (element, "symbol"))
    g_clear_pointer (&svg->symbol, g_free);
  else if (g_str_equal (element, "clipPath"))
    g_clear_pointer (&svg->clip, g_free);
  else if (g_str_equal (element, "pattern"))
    g_clear_pointer (&svg->pattern, g_free);
}

cairo_surface_t *
tp_picture_svg_replay (const char  *text,
                       gsize        length,
                       double       width,
                       double       height,
                       GError     **error)
{
  static const GMarkupParser parser = { start_element_cb, end_element_cb, NULL, NULL, NULL };
  cairo_rectangle_t extents = { 0, 0, width, height };
  cairo_surface_t *result = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, &extents);
  cairo_surface_t *scratch = cairo_recording_surface_create (CAIRO_CONTENT_ALPHA, NULL);
  Svg svg = {
    .glyphs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) cairo_path_destroy),
    .clips = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) cairo_path_destroy),
    .surfaces = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) cairo_surface_destroy),
    .patterns = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free),
    .frames = g_ptr_array_new (),
    .root = cairo_create (result),
    .scratch = cairo_create (scratch),
  };
  GMarkupParseContext *context = g_markup_parse_context_new (&parser, 0, &svg, NULL);
  gboolean ok;

  cairo_surface_destroy (scratch);
  ok = g_markup_parse_context_parse (context, text, (gssize) length, error)
       && g_markup_parse_context_end_parse (context, error);
  g_markup_parse_context_free (context);

  flush_glyphs (&svg);
  while (svg.frames->len > 0)
    end_group (&svg);
  g_ptr_array_unref (svg.frames);
  g_hash_table_unref (svg.glyphs);
  g_hash_table_unref (svg.clips);
  g_hash_table_unref (svg.surfaces);
  g_hash_table_unref (svg.patterns);
  g_free (svg.symbol);
  g_free (svg.clip);
  g_free (svg.pattern);
  cairo_destroy (svg.scratch);
  cairo_destroy (svg.root);

  if (ok && cairo_surface_status (result) != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_MARKUP_ERROR, G_MARKUP_ERROR_INVALID_CONTENT, "cairo: %s",
                   cairo_status_to_string (cairo_surface_status (result)));
      ok = FALSE;
    }
  if (!ok)
    {
      cairo_surface_destroy (result);
      return NULL;
    }
  return result;
}
