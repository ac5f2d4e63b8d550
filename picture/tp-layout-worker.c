/* tp-layout-worker.c: topos-layout-worker, the desktop app's graphviz
 * process.
 *
 * Graphviz never runs inside the app (see tp-picture-worker.c for why).
 * The app starts this program as `topos-layout-worker --serve` with
 * pipes on its standard input and output and sends it one request at a
 * time (tp-layout-protocol.h): lay a DOT text out, or write it as SVG or
 * PNG, or lay it out as the pane shows it (tp-picture-screen.h: set
 * tighter, its legend a graph of its own, both made to the graph cgraph
 * read).  A layout comes back as graphviz's own drawing operations (xdot,
 * tp_render_xdot), the node boxes for hit tests, and the fonts the
 * operations name, resolved as graphviz's text layout resolved them.  An
 * export comes back as the very bytes `topos --svg` or `topos --png`
 * write.  It runs at a lowered priority, links no GTK, and ends at the
 * end of its input.  Run by hand without --serve it says what it is. */
#include "tp-picture-config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>
#include <gvc.h>
#include <pango/pango.h>
#include <textspan.h>
#include <xdot.h>

#include "tp-engine.h"
#include "tp-layout-protocol.h"
#include "tp-picture-screen.h"
#include "tp-priority.h"
#include "tp-render.h"

/* Graphviz's own text sizing (libgvc exports it; no public header
 * declares it): it runs the text layout plugin on a span and leaves the
 * plugin's layout (a PangoLayout, with the pango plugin) in span->layout. */
extern pointf textspan_size (GVC_t *gvc, textspan_t *span);

static gboolean
read_all (int    fd,
          void  *data,
          gsize  length)
{
  char *p = data;

  while (length > 0)
    {
      ssize_t n = read (fd, p, length);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      p += n;
      length -= (gsize) n;
    }
  return TRUE;
}

static gboolean
write_all (int         fd,
           const void *data,
           gsize       length)
{
  const char *p = data;

  while (length > 0)
    {
      ssize_t n = write (fd, p, length);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      p += n;
      length -= (gsize) n;
    }
  return TRUE;
}

static void
put_u32 (GByteArray *out,
         guint32     v)
{
  g_byte_array_append (out, (const guint8 *) &v, sizeof v);
}

static void
put_f64 (GByteArray *out,
         double      v)
{
  g_byte_array_append (out, (const guint8 *) &v, sizeof v);
}

static void
put_bytes (GByteArray *out,
           const void *data,
           gsize       length)
{
  put_u32 (out, (guint32) length);
  g_byte_array_append (out, data, (guint) length);
}

/* {==== fonts ====} */

/* A context of our own for the text layout plugin (the renderer keeps
 * its own), and what each font name resolved to. */
static GVC_t *font_gvc;
static GHashTable *font_cache;   /* name -> Pango font description */

/* The Pango font description (family, weight, style, stretch; no size)
 * graphviz draws @name with: it resolves PostScript names through its
 * own table of equivalents, not fontconfig's aliases.  @name itself when
 * the text layout is not Pango's. */
static const char *
resolve_font (const char *name)
{
  const char *found = font_cache != NULL ? g_hash_table_lookup (font_cache, name) : NULL;
  textfont_t font = { 0 };
  textspan_t span = { 0 };
  char *description = NULL;

  if (found != NULL)
    return found;
  if (font_cache == NULL)
    font_cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  if (font_gvc == NULL)
    font_gvc = gvContext ();

  font.name = (char *) name;
  font.size = 14;
  span.str = (char *) "x";
  span.font = &font;
  span.just = 'l';
  if (font_gvc != NULL)
    textspan_size (font_gvc, &span);
  if (span.layout != NULL && span.free_layout != NULL && PANGO_IS_LAYOUT (span.layout))
    {
      const PangoFontDescription *desc = pango_layout_get_font_description (span.layout);

      if (desc != NULL)
        {
          PangoFontDescription *copy = pango_font_description_copy (desc);

          pango_font_description_unset_fields (copy, PANGO_FONT_MASK_SIZE);
          description = pango_font_description_to_string (copy);
          pango_font_description_free (copy);
        }
    }
  if (span.layout != NULL && span.free_layout != NULL)
    span.free_layout (span.layout);
  if (description == NULL)
    description = g_strdup (name);
  g_hash_table_insert (font_cache, g_strdup (name), description);
  return description;
}

/* The font names the drawing operations use, each once, with what they
 * resolve to. */
static void
put_fonts (GByteArray *out,
           const char *ops,
           gsize       length)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (gsize at = 0; at < length; at += strlen (ops + at) + 1)
    {
      g_autofree char *copy = g_strdup (ops + at);
      xdot *parsed = parseXDot (copy);

      for (int i = 0; parsed != NULL && i < parsed->cnt; i++)
        {
          const xdot_op *op = &parsed->ops[i];

          if (op->kind == xd_font && op->u.font.name != NULL
              && !g_hash_table_contains (seen, op->u.font.name))
            {
              char *name = g_strdup (op->u.font.name);

              g_ptr_array_add (names, name);
              g_hash_table_add (seen, name);
            }
        }
      if (parsed != NULL)
        freeXDot (parsed);
    }
  put_u32 (out, names->len);
  for (guint i = 0; i < names->len; i++)
    {
      const char *name = names->pdata[i];
      const char *description = resolve_font (name);

      put_bytes (out, name, strlen (name));
      put_bytes (out, description, strlen (description));
    }
}

/* {==== requests ====} */

/* The reply to a request of @kind (tp-layout-protocol.h) that @render
 * (NULL: out of memory) answered. */
static void
put_reply (guint32         kind,
           const TpRender *render,
           GByteArray     *out)
{
  GByteArray *payload = g_byte_array_new ();
  GByteArray *boxes = g_byte_array_new ();
  const char *diagnostics = render != NULL ? tp_render_diagnostics (render) : "out of memory";
  gboolean ok = render != NULL && tp_render_ok (render);
  guint32 n_boxes = 0;

  if (ok && kind == TP_LAYOUT_REQUEST_LAYOUT)
    {
      size_t length = 0;
      double dx = 0, dy = 0;
      const char *ops = tp_render_xdot (render, &length, &dx, &dy);

      /* the tape nodes' boxes, as the renderer found them */
      for (size_t k = 0; k < tp_render_n_boxes (render); k++)
        {
          guint32 i;
          double x, y, w, h;

          if (!tp_render_box (render, k, &i, &x, &y, &w, &h))
            continue;
          put_u32 (boxes, i);
          put_f64 (boxes, x);
          put_f64 (boxes, y);
          put_f64 (boxes, w);
          put_f64 (boxes, h);
          n_boxes++;
        }
      ok = ops != NULL;
      if (ok)
        {
          put_f64 (payload, dx);
          put_f64 (payload, dy);
          put_fonts (payload, ops, length);
          put_bytes (payload, ops, length);
        }
    }
  else if (ok && kind == TP_LAYOUT_REQUEST_SVG)
    {
      size_t length = 0;
      const char *svg = tp_render_svg (render, &length);

      ok = svg != NULL;
      if (ok)
        g_byte_array_append (payload, (const guint8 *) svg, (guint) length);
    }
  else if (ok)
    {
      size_t length = 0;
      /* The light and dark views' own backgrounds (RGBA), which the
       * picture's colours are chosen to read on. */
      static const double light[4] = { 1.0, 1.0, 1.0, 1.0 };
      static const double dark[4] = { 0x1e / 255.0, 0x1e / 255.0, 0x1e / 255.0, 1.0 };
      const double *background = kind == TP_LAYOUT_REQUEST_PNG_LIGHT ? light
                                 : kind == TP_LAYOUT_REQUEST_PNG_DARK ? dark : NULL;
      unsigned char *png = tp_render_png (render, TP_LAYOUT_EXPORT_PNG_SCALE, background, &length);

      ok = png != NULL;
      if (ok)
        g_byte_array_append (payload, png, (guint) length);
      else
        diagnostics = "the picture is too large for a PNG";
      free (png);
    }

  put_u32 (out, ok ? 1 : 0);
  put_u32 (out, render != NULL && tp_render_degraded (render));
  put_f64 (out, render != NULL ? tp_render_width (render) : 0);
  put_f64 (out, render != NULL ? tp_render_height (render) : 0);
  put_u32 (out, n_boxes);
  g_byte_array_append (out, boxes->data, boxes->len);
  put_bytes (out, diagnostics, strlen (diagnostics));
  put_bytes (out, payload->data, payload->len);
  g_byte_array_unref (boxes);
  g_byte_array_unref (payload);
}

typedef struct
{
  struct Agraph_s *legend;
  int target;
} Screen;

/* The edit hook of a screen layout: the graph as read, set as the
 * screen lays it out. */
static void
screen_edit (struct Agraph_s *graph,
             void            *data)
{
  Screen *screen = data;

  screen->legend = tp_screen_graph_split (graph, &screen->target);
}

static void
answer (guint32     kind,
        const char *dot,
        GByteArray *out)
{
  Screen screen = { NULL, -1 };
  TpRenderOptions options = {
    /* the engine already fitted its DOT to TP_PICTURE_BUDGET (and says
     * so, tp_session_picture_reduced): the renderer's default budget is
     * only its safety net for DOT from elsewhere */
    .budget = 0,
    .svg = kind == TP_LAYOUT_REQUEST_SVG,
    .draw = kind == TP_LAYOUT_REQUEST_PNG || kind == TP_LAYOUT_REQUEST_PNG_LIGHT
            || kind == TP_LAYOUT_REQUEST_PNG_DARK,
    .xdot = kind == TP_LAYOUT_REQUEST_LAYOUT || kind == TP_LAYOUT_REQUEST_SCREEN,
    .edit = kind == TP_LAYOUT_REQUEST_SCREEN ? screen_edit : NULL,
    .edit_data = &screen,
  };
  TpRender *render = tp_render_new (dot, &options);

  put_reply (kind == TP_LAYOUT_REQUEST_SCREEN ? TP_LAYOUT_REQUEST_LAYOUT : kind, render, out);
  tp_render_free (render);
  if (kind != TP_LAYOUT_REQUEST_SCREEN)
    return;
  put_u32 (out, screen.target >= 0 ? (guint32) screen.target : G_MAXUINT32);
  if (screen.legend != NULL)
    {
      TpRenderOptions alone = { .xdot = TRUE };
      GByteArray *legend = g_byte_array_new ();

      render = tp_render_new_graph (screen.legend, &alone);
      put_reply (TP_LAYOUT_REQUEST_LAYOUT, render, legend);
      put_bytes (out, legend->data, legend->len);
      g_byte_array_unref (legend);
      tp_render_free (render);
      agclose (screen.legend);
    }
  else
    put_u32 (out, 0);
}

/* Requests come on standard input; each reply goes out on what was
 * standard output, which itself goes to /dev/null, so nothing graphviz
 * might print can get into a reply.  Returns at the end of the input (the
 * app closed the pipe or went away): 0, or 1 on a broken request. */
static int
serve (void)
{
  int out = dup (STDOUT_FILENO);
  int null = open ("/dev/null", O_WRONLY);
  /* For the ui tests only: hold every layout back this long, so a test
   * can watch what the app shows while a layout is slow on any machine. */
  const char *delay = g_getenv ("TP_LAYOUT_WORKER_TEST_DELAY_MS");
  gulong delay_us = delay != NULL ? strtoul (delay, NULL, 10) * 1000 : 0;

  if (out < 0)
    return 1;
  if (null >= 0)
    {
      dup2 (null, STDOUT_FILENO);
      close (null);
    }
  for (;;)
    {
      guint32 head[2];
      GByteArray *reply;
      char *dot;
      gboolean sent;

      if (!read_all (STDIN_FILENO, head, sizeof head))
        return 0;
      if (head[0] < TP_LAYOUT_REQUEST_LAYOUT || head[0] > TP_LAYOUT_REQUEST_SCREEN
          || head[1] > TP_LAYOUT_MAX_DOT_BYTES || (dot = malloc ((gsize) head[1] + 1)) == NULL)
        return 1;
      if (!read_all (STDIN_FILENO, dot, head[1]))
        {
          free (dot);
          return 1;
        }
      dot[head[1]] = '\0';
      reply = g_byte_array_new ();
      if (delay_us > 0 && delay_us <= 10 * G_USEC_PER_SEC)
        g_usleep (delay_us);
      answer (head[0], dot, reply);
      free (dot);
      sent = write_all (out, &reply->len, sizeof reply->len) && write_all (out, reply->data, reply->len);
      g_byte_array_unref (reply);
      if (!sent)
        return 1;
    }
}

int
main (int   argc,
      char *argv[])
{
  if (argc != 2 || strcmp (argv[1], TP_LAYOUT_WORKER_MODE) != 0)
    {
      fprintf (stderr,
               "usage: %s " TP_LAYOUT_WORKER_MODE "\n"
               "The topos playground's graphviz worker: the desktop app starts it and\n"
               "sends it pictures to lay out on standard input.  Not for use by hand.\n",
               argc > 0 ? argv[0] : TP_LAYOUT_WORKER_NAME);
      return 2;
    }
  tp_priority_lower_process ();
  return serve ();
}
