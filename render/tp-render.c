/* tp-render.c: DOT -> graphviz `dot` layout -> cairo recording, SVG, PNG.
 *
 * The cairo drawing goes through graphviz's "svg:cairo" device with an
 * external cairo context.  That device never writes to a file (unlike
 * "png:cairo", whose page end writes the encoded image to standard
 * output), but at the page end it shows the page and *finishes* the
 * target surface.  So the context given to graphviz targets a throwaway
 * tee surface whose only master is our recording surface: finishing the
 * tee releases the recording without finishing it, and the recording
 * can then be replayed any number of times at any scale.  Nothing global
 * (no stdout redirection) is involved. */
#define _POSIX_C_SOURCE 200809L

#include "tp-render.h"

#include <inttypes.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cairo-tee.h>
#include <gvc.h>
#include <cgraph.h>


/* The largest PNG: cairo's image limit on a side, and a total that keeps
 * one image under a gigabyte. */
#define PNG_MAX_SIDE 32767.0
#define PNG_MAX_PIXELS (1u << 28)

/* A growable byte string of the renderer's own: diagnostics, the notice's
 * DOT and PNG bytes.  After a failed allocation it stays failed and keeps
 * no data. */
typedef struct
{
  char *data;                /* NUL-terminated while len > 0 */
  size_t len, cap;
  bool failed;
} Text;

static void
text_add (Text *t, const char *bytes, size_t n)
{
  if (t->failed)
    return;
  if (t->len + n + 1 > t->cap)
    {
      size_t cap = t->cap > 0 ? t->cap : 256;
      char *grown;

      while (cap < t->len + n + 1)
        cap *= 2;
      grown = realloc (t->data, cap);
      if (grown == NULL)
        {
          free (t->data);
          *t = (Text) { .failed = true };
          return;
        }
      t->data = grown;
      t->cap = cap;
    }
  memcpy (t->data + t->len, bytes, n);
  t->len += n;
  t->data[t->len] = '\0';
}

static void
text_puts (Text *t, const char *s)
{
  text_add (t, s, strlen (s));
}

/* The string, owned by the caller ("" for an empty one), or NULL after a
 * failed allocation. */
static char *
text_steal (Text *t)
{
  char *s = t->failed ? NULL : t->data != NULL ? t->data : strdup ("");

  *t = (Text) { 0 };
  return s;
}

typedef struct
{
  uint32_t index;            /* tape node */
  double x, y, width, height;
} NodeBox;

struct _TpRender
{
  bool ok;
  bool degraded;
  uint64_t cost;
  double width;              /* points */
  double height;
  cairo_surface_t *recording;
  char *svg;
  size_t svg_len;
  char *xdot;                /* NUL-separated op strings (tp_render_xdot) */
  size_t xdot_len;
  double xdot_dx, xdot_dy;
  char *diagnostics;
  NodeBox *boxes;
  size_t n_boxes;
};

/* Graphviz's error hook has no user data; it is set only while
 * tp_render_new runs, and graphviz runs in one place at a time. */
static Text *capture;

/* The graphviz context, made on first use and kept for the process. */
static GVC_t *shared_gvc;

static int
capture_error (char *text)
{
  if (capture != NULL && text != NULL)
    text_puts (capture, text);
  return 0;
}

/* Reading DOT with stable object IDs.
 *
 * Cgraph's default ID discipline makes a named object's ID the address
 * of its interned name, and orders subgraphs by ID: so the two bands
 * (named clusters) come out in an order that depends on the heap, which
 * in a long-running app can differ from one layout to the next.  This
 * discipline hands out addresses in one block, in the order names are
 * first seen, so IDs (and every order derived from them) follow the DOT
 * text.  Names that do not fit in the block fall back to the default
 * discipline; objects without names always use it. */
typedef struct
{
  void *fallback;           /* the default discipline's state */
  char *block;              /* names, in first-seen order, 2-aligned */
  size_t used;
  size_t size;
  size_t *slots;            /* open addressing: offset + 1, or 0 */
  size_t n_slots;
  size_t n_names;
} NameIds;

static size_t stable_block_size;  /* for the next open: set by read_dot */

static size_t
name_hash (const char *text)
{
  size_t h = 5381;

  for (; *text != '\0'; text++)
    h = h * 33 + (unsigned char) *text;
  return h;
}

static void *
stable_open (Agraph_t *g, Agdisc_t *disc)
{
  NameIds *ids = calloc (1, sizeof *ids);

  if (ids == NULL)
    return NULL;
  ids->fallback = AgIdDisc.open (g, disc);
  ids->size = stable_block_size;
  ids->n_slots = 64;
  while (ids->n_slots < stable_block_size / 2)
    ids->n_slots *= 2;
  ids->block = ids->size > 0 ? malloc (ids->size) : NULL;
  ids->slots = calloc (ids->n_slots, sizeof *ids->slots);
  if (ids->block == NULL || ids->slots == NULL)
    ids->size = 0;          /* every name falls back */
  return ids;
}

static long
stable_map (void *state, int objtype, char *str, IDTYPE *id, int create)
{
  NameIds *ids = state;
  size_t len, h;

  if (str == NULL || ids->size == 0)
    return AgIdDisc.map (ids->fallback, objtype, str, id, create);
  len = strlen (str);
  for (h = name_hash (str) & (ids->n_slots - 1); ids->slots[h] != 0;
       h = (h + 1) & (ids->n_slots - 1))
    if (strcmp (ids->block + ids->slots[h] - 1, str) == 0)
      {
        *id = (IDTYPE) (uintptr_t) (ids->block + ids->slots[h] - 1);
        return 1;
      }
  /* New: keep it when there is room (and the table stays half empty). */
  if (create && ids->used + len + 2 <= ids->size
      && 2 * (ids->n_names + 1) <= ids->n_slots)
    {
      char *copy = ids->block + ids->used;
      memcpy (copy, str, len + 1);
      ids->slots[h] = ids->used + 1;
      ids->used += (len + 2) & ~(size_t) 1;
      ids->n_names++;
      *id = (IDTYPE) (uintptr_t) copy;
      return 1;
    }
  return AgIdDisc.map (ids->fallback, objtype, str, id, create);
}

static bool
in_block (const NameIds *ids, IDTYPE id)
{
  uintptr_t p = (uintptr_t) id, base = (uintptr_t) ids->block;

  return ids->block != NULL && p >= base && p < base + ids->size;
}

static long
stable_alloc (void *state, int objtype, IDTYPE id)
{
  NameIds *ids = state;
  return AgIdDisc.alloc (ids->fallback, objtype, id);
}

static void
stable_free (void *state, int objtype, IDTYPE id)
{
  NameIds *ids = state;

  if (!in_block (ids, id))
    AgIdDisc.free (ids->fallback, objtype, id);
}

static char *
stable_print (void *state, int objtype, IDTYPE id)
{
  NameIds *ids = state;
  return AgIdDisc.print (ids->fallback, objtype, id);
}

static void
stable_close (void *state)
{
  NameIds *ids = state;

  AgIdDisc.close (ids->fallback);
  free (ids->block);
  free (ids->slots);
  free (ids);
}

static void
stable_idregister (void *state, int objtype, void *obj)
{
  NameIds *ids = state;
  AgIdDisc.idregister (ids->fallback, objtype, obj);
}

static Agiddisc_t stable_id_disc = {
  stable_open, stable_map, stable_alloc, stable_free, stable_print,
  stable_close, stable_idregister,
};

typedef struct
{
  const char *data;
  size_t len;
  size_t pos;
} MemReader;

/* Hands the text to the DOT scanner a line at a time, as agmemread
 * does. */
static int
mem_read (void *chan, char *buf, int bufsize)
{
  MemReader *r = chan;
  int n = 0;

  while (n < bufsize && r->pos < r->len)
    {
      char c = r->data[r->pos++];
      buf[n++] = c;
      if (c == '\n')
        break;
    }
  return n;
}

static Agiodisc_t mem_io_disc;

/* agmemread with the stable ID discipline. */
static Agraph_t *
read_dot (const char *dot)
{
  MemReader reader = { dot, strlen (dot), 0 };
  Agdisc_t disc = { &AgMemDisc, &stable_id_disc, &mem_io_disc };

  mem_io_disc.afread = mem_read;
  mem_io_disc.putstr = AgIoDisc.putstr;
  mem_io_disc.flush = AgIoDisc.flush;
  stable_block_size = reader.len + 64;
  return agread (&reader, &disc);
}

/* Appends a line of our own to the diagnostics. */
static void
note (Text *diag, const char *text)
{
  if (diag->len > 0 && diag->data[diag->len - 1] != '\n')
    text_puts (diag, "\n");
  text_puts (diag, text);
  text_puts (diag, "\n");
}

static bool
is_false (const char *value)
{
  return value != NULL && (strcasecmp (value, "false") == 0
                           || strcasecmp (value, "no") == 0
                           || strcmp (value, "0") == 0);
}

/* The layout cost of g, estimated as the engine does (tp_dot_cost):
 * nodes + edges + the ranks each edge crosses beyond one, with ranks
 * from longest paths over the edges that constrain ranking and each
 * source sunk to just above its first reader.  Cycles (dot reverses an
 * edge to break them) are ignored.  UINT64_MAX when memory runs out. */
static uint64_t
estimate_cost (Agraph_t *g)
{
  size_t n = 0, n_edges = 0, head = 0, tail = 0;
  Agsym_t *constraint = agattr (g, AGEDGE, (char *) "constraint", NULL);
  uint32_t *rank, *indegree, *order;
  Agnode_t **node;
  uint64_t cost = 0;

  for (Agnode_t *v = agfstnode (g); v != NULL; v = agnxtnode (g, v))
    if ((size_t) AGSEQ (v) + 1 > n)
      n = (size_t) AGSEQ (v) + 1;
  rank = calloc (n + 1, sizeof *rank);
  indegree = calloc (n + 1, sizeof *indegree);
  order = calloc (n + 1, sizeof *order);
  node = calloc (n + 1, sizeof *node);
  if (rank == NULL || indegree == NULL || order == NULL || node == NULL)
    {
      cost = UINT64_MAX;
      goto out;
    }

#define CONSTRAINS(e) \
  (agtail (e) != aghead (e) \
   && (constraint == NULL || !is_false (agxget ((e), constraint))))

  for (Agnode_t *v = agfstnode (g); v != NULL; v = agnxtnode (g, v))
    {
      node[AGSEQ (v)] = v;
      for (Agedge_t *e = agfstout (g, v); e != NULL; e = agnxtout (g, e))
        {
          n_edges++;
          if (CONSTRAINS (e))
            indegree[AGSEQ (aghead (e))]++;
        }
    }
  /* Longest paths in Kahn's order; what a cycle holds back keeps 0. */
  for (Agnode_t *v = agfstnode (g); v != NULL; v = agnxtnode (g, v))
    if (indegree[AGSEQ (v)] == 0)
      order[tail++] = (uint32_t) AGSEQ (v);
  while (head < tail)
    {
      Agnode_t *v = node[order[head++]];
      for (Agedge_t *e = agfstout (g, v); e != NULL; e = agnxtout (g, e))
        if (CONSTRAINS (e))
          {
            uint32_t h = (uint32_t) AGSEQ (aghead (e));
            if (rank[AGSEQ (v)] + 1 > rank[h])
              rank[h] = rank[AGSEQ (v)] + 1;
            if (--indegree[h] == 0)
              order[tail++] = h;
          }
    }
  /* Sources sink to just above their first reader. */
  for (Agnode_t *v = agfstnode (g); v != NULL; v = agnxtnode (g, v))
    {
      uint32_t low = UINT32_MAX;
      bool source = true;
      for (Agedge_t *e = agfstin (g, v); e != NULL && source;
           e = agnxtin (g, e))
        source = !CONSTRAINS (e);
      if (!source)
        continue;
      for (Agedge_t *e = agfstout (g, v); e != NULL; e = agnxtout (g, e))
        if (CONSTRAINS (e) && rank[AGSEQ (aghead (e))] < low)
          low = rank[AGSEQ (aghead (e))];
      if (low != UINT32_MAX && low > 0)
        rank[AGSEQ (v)] = low - 1;
    }
#undef CONSTRAINS
  for (Agnode_t *v = agfstnode (g); v != NULL; v = agnxtnode (g, v))
    for (Agedge_t *e = agfstout (g, v); e != NULL; e = agnxtout (g, e))
      {
        uint32_t a = rank[AGSEQ (agtail (e))], b = rank[AGSEQ (aghead (e))];
        uint32_t span = a < b ? b - a : a - b;
        cost += span > 1 ? span - 1 : 0;
      }
  cost += (uint64_t) agnnodes (g) + n_edges;
out:
  free (rank);
  free (indegree);
  free (order);
  free (node);
  return cost;
}

/* The picture drawn instead of a graph over the budget. */
static char *
notice_dot (uint64_t nodes, uint64_t edges, uint64_t cost, uint32_t budget)
{
  static const char format[] =
    "digraph notice {\n"
    "  graph [bgcolor=\"transparent\", pad=0.15];\n"
    "  note [id=\"note\", class=\"note\", shape=box, "
    "style=\"rounded,filled\", fillcolor=\"#FFFFFF\", "
    "color=\"#EE3377\", penwidth=2, fontcolor=\"#222222\", "
    "fontname=\"Helvetica\", fontsize=12, "
    "label=<<B>this picture is too large to lay out</B><BR/>"
    "%" PRIu64 " nodes and %" PRIu64 " edges: layout cost %" PRIu64
    ", budget %" PRIu32
    "<BR/>read the spec and derivative readings instead>];\n}\n";
  int n = snprintf (NULL, 0, format, nodes, edges, cost, budget);
  char *dot = n >= 0 ? malloc ((size_t) n + 1) : NULL;

  if (dot != NULL)
    snprintf (dot, (size_t) n + 1, format, nodes, edges, cost, budget);
  return dot;
}

/* Graphviz's padding around the drawing, in points: the "pad" attribute
 * (inches, "x" or "x,y"), else its default of 4 points. */
static void
graph_pad (Agraph_t *g, double *px, double *py)
{
  const char *pad = agget (g, (char *) "pad");
  double x, y;
  int n = pad != NULL && pad[0] != '\0' ? sscanf (pad, "%lf,%lf", &x, &y) : 0;

  *px = *py = 4.0;
  if (n >= 1 && x >= 0)
    *px = *py = x * 72.0;
  if (n == 2 && y >= 0)
    *py = y * 72.0;
}

/* Tape node index from a DOT node name `n{index}`. */
static bool
tape_index (const char *name, uint32_t *index)
{
  char *end;
  unsigned long v;

  if (name == NULL || name[0] != 'n' || name[1] < '0' || name[1] > '9')
    return false;
  v = strtoul (name + 1, &end, 10);
  if (*end != '\0' || v > UINT32_MAX)
    return false;
  *index = (uint32_t) v;
  return true;
}

static bool
collect_boxes (TpRender *r, Agraph_t *g, double pad_x, double pad_y)
{
  boxf bb = GD_bb (g);
  size_t n = 0;

  r->boxes = malloc (((size_t) agnnodes (g) + 1) * sizeof *r->boxes);
  if (r->boxes == NULL)
    return false;
  for (Agnode_t *v = agfstnode (g); v != NULL; v = agnxtnode (g, v))
    {
      NodeBox *box = &r->boxes[n];
      if (!tape_index (agnameof (v), &box->index))
        continue;
      box->width = ND_width (v) * 72.0;
      box->height = ND_height (v) * 72.0;
      box->x = ND_coord (v).x - bb.LL.x + pad_x - box->width / 2;
      box->y = bb.UR.y - ND_coord (v).y + pad_y - box->height / 2;
      n++;
    }
  r->n_boxes = n;
  return true;
}

/* Replays graphviz's drawing into a recording surface (see the top of
 * the file for why a tee surface stands in between). */
static bool
record (TpRender *r, GVC_t *gvc, Agraph_t *g, Text *diag)
{
  cairo_rectangle_t extents = { 0, 0, r->width, r->height };
  cairo_surface_t *tee;
  cairo_t *cr;
  int rc;

  r->recording = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA,
                                                 &extents);
  tee = cairo_tee_surface_create (r->recording);
  cr = cairo_create (tee);
  rc = gvRenderContext (gvc, g, "svg:cairo", cr);
  cairo_destroy (cr);
  cairo_surface_destroy (tee);
  if (rc != 0 || cairo_surface_status (r->recording) != CAIRO_STATUS_SUCCESS)
    {
      note (diag, "graphviz could not draw the picture with cairo");
      cairo_surface_destroy (r->recording);
      r->recording = NULL;
      return false;
    }
  return true;
}

static bool
write_svg (TpRender *r, GVC_t *gvc, Agraph_t *g, Text *diag)
{
  char *data = NULL;
  unsigned int len = 0;

  if (gvRenderData (gvc, g, "svg", &data, &len) != 0 || data == NULL)
    {
      note (diag, "graphviz could not write the SVG");
      if (data != NULL)
        gvFreeRenderData (data);
      return false;
    }
  r->svg = malloc ((size_t) len + 1);
  if (r->svg != NULL)
    {
      memcpy (r->svg, data, len);
      r->svg[len] = '\0';
      r->svg_len = len;
    }
  gvFreeRenderData (data);
  return r->svg != NULL;
}

/* The attributes the xdot renderer writes, per kind of object, in the
 * order graphviz's emitter draws them: an edge's spline, its tail and
 * head arrows, then its labels. */
static const char *const graph_attrs[] = { "_draw_", "_ldraw_", NULL };
static const char *const node_attrs[] = { "_draw_", "_ldraw_", "_xldraw_", NULL };
static const char *const edge_attrs[] = {
  "_draw_", "_tdraw_", "_hdraw_", "_ldraw_", "_xldraw_", "_hldraw_", "_tldraw_", NULL,
};

/* Appends obj's non-empty drawing attributes, each with its NUL. */
static void
add_ops (Text *out, void *obj, const char *const *attrs)
{
  for (size_t i = 0; attrs[i] != NULL; i++)
    {
      const char *ops = agget (obj, (char *) attrs[i]);

      if (ops != NULL && ops[0] != '\0')
        text_add (out, ops, strlen (ops) + 1);
    }
}

/* A cluster's box and label, then the clusters inside it. */
static void
add_cluster_ops (Text *out, Agraph_t *g)
{
  for (int i = 1; i <= GD_n_cluster (g); i++)
    {
      Agraph_t *sub = GD_clust (g)[i];

      add_ops (out, sub, graph_attrs);
      add_cluster_ops (out, sub);
    }
}

/* Graphviz's drawing operations, in the order its emitter walks the
 * graph (emit_page, emit_clusters, then nodes and edges breadth first):
 * the xdot renderer attaches them to the objects as attributes. */
static bool
write_xdot (TpRender *r, GVC_t *gvc, Agraph_t *g, double pad_x, double pad_y,
            Text *diag)
{
  char *data = NULL;
  unsigned int len = 0;
  const char *bg = agget (g, (char *) "bgcolor");
  unsigned char *seen;
  size_t n_seq = 0;
  Text out = { 0 };

  /* version 1.7 writes the font's bold and italic flags ("t") */
  agsafeset (g, (char *) "xdotversion", (char *) "1.7", (char *) "");
  if (gvRenderData (gvc, g, "xdot", &data, &len) != 0)
    {
      note (diag, "graphviz could not write its drawing operations");
      if (data != NULL)
        gvFreeRenderData (data);
      return false;
    }
  if (data != NULL)
    gvFreeRenderData (data);

  for (Agnode_t *v = agfstnode (g); v != NULL; v = agnxtnode (g, v))
    if ((size_t) AGSEQ (v) + 1 > n_seq)
      n_seq = (size_t) AGSEQ (v) + 1;
  seen = calloc (n_seq + 1, 1);
  if (seen == NULL)
    return false;

  /* The background: the xdot device cannot draw "transparent" and
   * paints white instead; cairo's leaves it out. */
  if (bg == NULL || strcasecmp (bg, "transparent") != 0)
    add_ops (&out, g, (const char *const[]) { "_draw_", NULL });
  add_ops (&out, g, (const char *const[]) { "_ldraw_", NULL });
  add_cluster_ops (&out, g);
  for (Agnode_t *v = agfstnode (g); v != NULL; v = agnxtnode (g, v))
    {
      if (!seen[AGSEQ (v)])
        {
          seen[AGSEQ (v)] = 1;
          add_ops (&out, v, node_attrs);
        }
      for (Agedge_t *e = agfstout (g, v); e != NULL; e = agnxtout (g, e))
        {
          Agnode_t *head = aghead (e);

          if (!seen[AGSEQ (head)])
            {
              seen[AGSEQ (head)] = 1;
              add_ops (&out, head, node_attrs);
            }
          add_ops (&out, e, edge_attrs);
        }
    }
  free (seen);
  if (out.failed)
    return false;
  r->xdot_len = out.len;
  r->xdot = out.data != NULL ? out.data : calloc (1, 1);
  r->xdot_dx = pad_x - GD_bb (g).LL.x;
  r->xdot_dy = GD_bb (g).UR.y + pad_y;
  return r->xdot != NULL;
}

/* Checks the budget, lays out, records and writes @g (the caller's);
 * false when something failed (diag says what). */
static bool
render (TpRender *r, GVC_t *gvc, Agraph_t *g,
        const TpRenderOptions *options, Text *diag)
{
  uint32_t budget = options->budget != 0 ? options->budget : TP_RENDER_BUDGET;
  Agraph_t *notice_graph = NULL;
  char *notice = NULL;
  uint64_t cost;
  double pad_x, pad_y;
  bool ok = true;

  cost = estimate_cost (g);
  r->cost = cost;
  if (cost > budget)
    {
      notice = notice_dot ((uint64_t) agnnodes (g), (uint64_t) agnedges (g),
                           cost, budget);
      if (notice == NULL)
        return false;
      r->degraded = true;
      note (diag, "the graph is over the picture's budget; a notice is "
                  "drawn instead");
      g = notice_graph = read_dot (notice);
      free (notice);
      if (g == NULL)
        return false;
    }
  /* Points in, points out, upright: whatever the DOT says about
   * resolution, a size to scale to, or rotation is set aside, so the
   * drawing is exactly the layout's box. */
  agsafeset (g, (char *) "dpi", (char *) "72", (char *) "");
  agsafeset (g, (char *) "resolution", (char *) "72", (char *) "");
  agsafeset (g, (char *) "size", (char *) "", (char *) "");
  agsafeset (g, (char *) "viewport", (char *) "", (char *) "");
  agsafeset (g, (char *) "rotate", (char *) "0", (char *) "");
  agsafeset (g, (char *) "landscape", (char *) "false", (char *) "");
  if (gvLayout (gvc, g, "dot") != 0)
    {
      note (diag, "graphviz could not lay out the graph");
      if (notice_graph != NULL)
        agclose (notice_graph);
      return false;
    }
  graph_pad (g, &pad_x, &pad_y);
  r->width = GD_bb (g).UR.x - GD_bb (g).LL.x + 2 * pad_x;
  r->height = GD_bb (g).UR.y - GD_bb (g).LL.y + 2 * pad_y;
  ok = collect_boxes (r, g, pad_x, pad_y);
  if (ok && options->draw)
    ok = record (r, gvc, g, diag);
  if (ok && options->svg)
    ok = write_svg (r, gvc, g, diag);
  if (ok && options->xdot)
    ok = write_xdot (r, gvc, g, pad_x, pad_y, diag);
  gvFreeLayout (gvc, g);
  if (notice_graph != NULL)
    agclose (notice_graph);
  return ok;
}

/* Reads @dot (or takes @graph, the caller's), lets the edit hook change
 * it and renders it, with graphviz's numbers in the C locale and its
 * errors in the diagnostics. */
static TpRender *
render_new (const char *dot, Agraph_t *graph, const TpRenderOptions *options)
{
  static const TpRenderOptions defaults = { 0, true, true, false, NULL, NULL };
  TpRender *r = calloc (1, sizeof *r);
  locale_t c_numeric, old_locale = (locale_t) 0;
  agusererrf old_errf;
  agerrlevel_t old_level;
  Text diag = { 0 };

  if (r == NULL)
    return NULL;
  if (options == NULL)
    options = &defaults;

  c_numeric = newlocale (LC_NUMERIC_MASK, "C", (locale_t) 0);
  if (c_numeric != (locale_t) 0)
    old_locale = uselocale (c_numeric);
  capture = &diag;
  old_errf = agseterrf (capture_error);
  old_level = agseterr (AGWARN);

  /* One context for the process: creating one reads graphviz's plugin
   * configuration again (and leaks a little of it) every time. */
  if (shared_gvc == NULL)
    shared_gvc = gvContext ();
  if (shared_gvc == NULL)
    note (&diag, "graphviz could not start");
  else if (graph != NULL)
    r->ok = render (r, shared_gvc, graph, options, &diag);
  else if ((graph = read_dot (dot != NULL ? dot : "")) == NULL)
    note (&diag, "graphviz could not read the DOT text");
  else
    {
      if (options->edit != NULL)
        options->edit (graph, options->edit_data);
      r->ok = render (r, shared_gvc, graph, options, &diag);
      agclose (graph);
    }

  agseterrf (old_errf);
  agseterr (old_level);
  agreseterrors ();
  capture = NULL;
  if (c_numeric != (locale_t) 0)
    {
      uselocale (old_locale);
      freelocale (c_numeric);
    }

  if (!r->ok)
    {
      free (r->svg);
      r->svg = NULL;
      free (r->xdot);
      r->xdot = NULL;
      if (r->recording != NULL)
        cairo_surface_destroy (r->recording);
      r->recording = NULL;
      r->width = r->height = 0;
      r->n_boxes = 0;
    }
  r->diagnostics = text_steal (&diag);
  if (r->diagnostics == NULL)
    {
      tp_render_free (r);
      return NULL;
    }
  return r;
}

TpRender *
tp_render_new (const char *dot, const TpRenderOptions *options)
{
  return render_new (dot, NULL, options);
}

TpRender *
tp_render_new_graph (struct Agraph_s *graph, const TpRenderOptions *options)
{
  if (graph == NULL)
    return render_new ("", NULL, options);
  return render_new (NULL, graph, options);
}

void
tp_render_free (TpRender *r)
{
  if (r == NULL)
    return;
  if (r->recording != NULL)
    cairo_surface_destroy (r->recording);
  free (r->svg);
  free (r->xdot);
  free (r->boxes);
  free (r->diagnostics);
  free (r);
}

bool
tp_render_ok (const TpRender *r)
{
  return r->ok;
}

bool
tp_render_degraded (const TpRender *r)
{
  return r->degraded;
}

const char *
tp_render_diagnostics (const TpRender *r)
{
  return r->diagnostics != NULL ? r->diagnostics : "";
}

uint64_t
tp_render_cost (const TpRender *r)
{
  return r->cost;
}

double
tp_render_width (const TpRender *r)
{
  return r->width;
}

double
tp_render_height (const TpRender *r)
{
  return r->height;
}

void
tp_render_draw (const TpRender *r, cairo_t *cr)
{
  if (r->recording == NULL)
    return;
  cairo_save (cr);
  cairo_set_source_surface (cr, r->recording, 0, 0);
  cairo_rectangle (cr, 0, 0, r->width, r->height);
  cairo_fill (cr);
  cairo_restore (cr);
}

const char *
tp_render_svg (const TpRender *r, size_t *length)
{
  if (length != NULL)
    *length = r->svg != NULL ? r->svg_len : 0;
  return r->svg;
}

const char *
tp_render_xdot (const TpRender *r, size_t *length, double *dx, double *dy)
{
  if (length != NULL)
    *length = r->xdot != NULL ? r->xdot_len : 0;
  if (dx != NULL)
    *dx = r->xdot_dx;
  if (dy != NULL)
    *dy = r->xdot_dy;
  return r->xdot;
}

static cairo_status_t
png_write (void *closure, const unsigned char *data, unsigned int length)
{
  Text *out = closure;

  text_add (out, (const char *) data, length);
  return out->failed ? CAIRO_STATUS_NO_MEMORY : CAIRO_STATUS_SUCCESS;
}

unsigned char *
tp_render_png (const TpRender *r, double scale, const double *background,
               size_t *length)
{
  double w = ceil (r->width * scale), h = ceil (r->height * scale);
  cairo_surface_t *image;
  cairo_status_t status;
  unsigned char *bytes = NULL;
  cairo_t *cr;
  Text out = { 0 };

  if (length != NULL)
    *length = 0;
  if (r->recording == NULL || !(scale > 0) || !(w >= 1) || !(h >= 1)
      || w > PNG_MAX_SIDE || h > PNG_MAX_SIDE || w * h > PNG_MAX_PIXELS)
    return NULL;
  image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) w, (int) h);
  if (cairo_surface_status (image) != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (image);
      return NULL;
    }
  cr = cairo_create (image);
  if (background != NULL)
    {
      cairo_set_source_rgba (cr, background[0], background[1], background[2],
                             background[3]);
      cairo_paint (cr);
    }
  cairo_scale (cr, scale, scale);
  tp_render_draw (r, cr);
  cairo_destroy (cr);

  status = cairo_surface_write_to_png_stream (image, png_write, &out);
  cairo_surface_destroy (image);
  if (status == CAIRO_STATUS_SUCCESS && !out.failed && out.len > 0)
    {
      bytes = malloc (out.len);
      if (bytes != NULL)
        {
          memcpy (bytes, out.data, out.len);
          if (length != NULL)
            *length = out.len;
        }
    }
  free (out.data);
  return bytes;
}

int64_t
tp_render_node_at (const TpRender *r, double x, double y)
{
  /* Later nodes are drawn on top: look from the end. */
  for (size_t k = r->n_boxes; k-- > 0;)
    {
      const NodeBox *b = &r->boxes[k];
      if (x >= b->x && x <= b->x + b->width && y >= b->y
          && y <= b->y + b->height)
        return b->index;
    }
  return -1;
}

bool
tp_render_node_bounds (const TpRender *r, uint32_t index, double *x,
                       double *y, double *width, double *height)
{
  for (size_t k = 0; k < r->n_boxes; k++)
    if (r->boxes[k].index == index)
      {
        *x = r->boxes[k].x;
        *y = r->boxes[k].y;
        *width = r->boxes[k].width;
        *height = r->boxes[k].height;
        return true;
      }
  return false;
}

size_t
tp_render_n_boxes (const TpRender *r)
{
  return r != NULL ? r->n_boxes : 0;
}

bool
tp_render_box (const TpRender *r, size_t k, uint32_t *index, double *x,
               double *y, double *width, double *height)
{
  if (r == NULL || k >= r->n_boxes)
    return false;
  *index = r->boxes[k].index;
  *x = r->boxes[k].x;
  *y = r->boxes[k].y;
  *width = r->boxes[k].width;
  *height = r->boxes[k].height;
  return true;
}
