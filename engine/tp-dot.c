/* tp-dot.c: the picture as graphviz DOT (see tp-dot.h for the design).
 *
 * Every label is an HTML-like label built here with its text escaped, so
 * a name or detail holding quotes, braces, '<', '|', '&' or backslashes
 * cannot break the DOT or the SVG graphviz writes from it; control
 * characters and invalid UTF-8 are replaced as in diagnostics. */
#include "tp-dot.h"
#include "tp-dot-private.h"

#include <string.h>

#include "tp-alloc.h"
#include "tp-lex.h"

typedef struct
{
  const TpDotInput *in;
  const TpTape *tape;
  const TpPlan *plan;
  uint32_t n;          /* nodes drawn: the whole tape or the forward band */
  bool differentiated;
  bool mirrored;       /* there is a gradient band */
  TpBuf *out;
} Dot;

void
tp_dot_put_html (TpBuf *out, const char *text, size_t max)
{
  size_t len = strlen (text), i = 0, chars = 0;

  while (i < len && chars < max)
    {
      switch (text[i])
        {
        case '&':
          tp_buf_puts (out, "&amp;");
          i++;
          break;
        case '<':
          tp_buf_puts (out, "&lt;");
          i++;
          break;
        case '>':
          tp_buf_puts (out, "&gt;");
          i++;
          break;
        case '"':
          tp_buf_puts (out, "&quot;");
          i++;
          break;
        case '\'':
          tp_buf_puts (out, "&#39;");
          i++;
          break;
        case '\\':
          /* Graphviz expands \N, \G, ... even in HTML-like labels, and
           * turns a doubled backslash into one. */
          tp_buf_puts (out, "\\\\");
          i++;
          break;
        default:
          if ((unsigned char) text[i] < 0x20 || text[i] == 0x7f)
            {
              /* As diagnostics show them, the backslash doubled. */
              static const char hex[] = "0123456789abcdef";
              unsigned char c = (unsigned char) text[i];
              tp_buf_puts (out, "\\\\u{");
              if (c >= 0x10)
                tp_buf_putc (out, hex[c >> 4]);
              tp_buf_putc (out, hex[c & 15]);
              tp_buf_putc (out, '}');
              i++;
            }
          else
            i += tp_lex_put_char (text + i, len - i, out);
          break;
        }
      chars++;
    }
  if (i < len)
    tp_buf_puts (out, "...");
}

/* A node's display name, as in the derivative divider: the statement's
 * name, or #index. */
static void
put_node_name (const Dot *d, TpNode node)
{
  const char *name = node < d->in->spec_nodes && d->in->names != NULL
                     ? d->in->names[node] : NULL;

  if (name != NULL)
    tp_dot_put_html (d->out, name, TEXT_MAX);
  else
    {
      tp_buf_putc (d->out, '#');
      tp_buf_u64 (d->out, node);
    }
}

static void
put_gradient_name (const Dot *d, uint32_t k)
{
  tp_buf_puts (d->out, "d ");
  tp_dot_put_html (d->out, d->in->target_name != NULL ? d->in->target_name : "?",
            TEXT_MAX);
  tp_buf_puts (d->out, " / d ");
  put_node_name (d, d->in->wrt[k]);
}

/* The describe reading's parameter text: axis=1, shape=[1, 2], ... */
static void
put_detail (const TpTape *t, TpNode i, TpBuf *out)
{
  const TpAttr *attr = &t->attr[i];

  switch ((TpAttrKind) tp_op_info[t->op[i]].attr)
    {
    case TP_ATTR_AXIS:
      tp_buf_puts (out, " axis=");
      tp_buf_u64 (out, attr->axis);
      break;
    case TP_ATTR_AXIS_EXTENT:
      tp_buf_puts (out, " axis=");
      tp_buf_u64 (out, attr->axis);
      tp_buf_puts (out, " extent=");
      tp_buf_u64 (out, attr->extent);
      break;
    case TP_ATTR_SHAPE:
      tp_buf_puts (out, " shape=");
      tp_buf_shape (out, &t->shape[i]);
      break;
    case TP_ATTR_ORDER:
      {
        uint32_t dims[TP_MAX_RANK];
        for (uint32_t k = 0; k < t->shape[i].rank; k++)
          dims[k] = t->attr[i].order[k];
        tp_buf_puts (out, " order=");
        tp_buf_dims (out, dims, t->shape[i].rank);
      }
      break;
    case TP_ATTR_NONE:
      break;
    }
}

/* A source filled with one value shows it: "= 2" for rank 0, "all 0"
 * for a larger fill.  Seeded payloads show nothing. */
static void
put_fill (const TpTape *t, TpNode i, TpBuf *out)
{
  const float *p = t->payload[i];
  uint64_t volume = tp_shape_volume (&t->shape[i]);
  uint32_t bits0, bits;

  if (p == NULL || volume == 0)
    return;
  memcpy (&bits0, &p[0], sizeof bits0);
  for (uint64_t k = 1; k < volume; k++)
    {
      memcpy (&bits, &p[k], sizeof bits);
      if (bits != bits0)
        return;
    }
  tp_buf_puts (out, volume == 1 && t->shape[i].rank == 0 ? " = " : " all ");
  tp_buf_f32 (out, p[0]);
}

static bool
is_derived (const Dot *d, TpNode i)
{
  return i >= d->in->spec_nodes;
}

static bool
is_skipped (const Dot *d, TpNode i)
{
  return !d->plan->wanted[i];
}

static bool
is_observed (const Dot *d, TpNode i)
{
  for (uint32_t k = 0; k < d->in->n_observe; k++)
    if (d->in->observe[k] == i)
      return true;
  return false;
}

/* The index k of the parameter whose gradient node i is, or -1. */
static int64_t
gradient_of (const Dot *d, TpNode i)
{
  if (!d->differentiated)
    return -1;
  for (uint32_t k = 0; k < d->in->n_wrt; k++)
    if (d->in->grads[k] == i)
      return k;
  return -1;
}

/* Whether a non-finite value is born at node i (the check reading). */
static bool
is_nonfinite (const Dot *d, TpNode i)
{
  return d->in->has_nonfinite && i == d->in->nonfinite;
}

/* The space-separated classes of node i, for the SVG and for tests. */
static void
put_node_classes (const Dot *d, TpNode i)
{
  TpBuf *out = d->out;
  const TpOpInfo *info = &tp_op_info[d->tape->op[i]];

  /* "source parameter", "source input", "source leaf": the keyword. */
  if (info->form == TP_FORM_SOURCE)
    {
      tp_buf_puts (out, "source ");
      tp_buf_puts (out, info->written);
    }
  else
    tp_buf_puts (out, "op");
  if (is_derived (d, i))
    tp_buf_puts (out, " derived");
  if (is_skipped (d, i))
    tp_buf_puts (out, " skipped");
  if (d->plan->readable[i])
    tp_buf_puts (out, " result");
  if (i == d->in->target)
    tp_buf_puts (out, " target");
  if (is_observed (d, i))
    tp_buf_puts (out, " observed");
  if (gradient_of (d, i) >= 0)
    tp_buf_puts (out, " gradient");
  if (d->differentiated && i == d->in->spec_nodes)
    tp_buf_puts (out, " seed");
  if (is_nonfinite (d, i))
    tp_buf_puts (out, " nonfinite");
}

/* Starts the tag line (small italics) or separates the next tag. */
static void
put_tag (TpBuf *out, bool *tagged, const char *text)
{
  tp_buf_puts (out, *tagged ? ", " : "<BR/><FONT POINT-SIZE=\"10\"><I>");
  *tagged = true;
  tp_buf_puts (out, text);
}

/* The label: "{index} {Op}" in bold, the statement's name, the shape and
 * detail (and a constant fill) in small type, then the tags. */
static void
put_node_label (const Dot *d, TpNode i)
{
  TpBuf *out = d->out;
  const TpTape *t = d->tape;
  int64_t grad = gradient_of (d, i);
  const char *name = i < d->in->spec_nodes && d->in->names != NULL
                     ? d->in->names[i] : NULL;
  bool tagged = false;

  tp_buf_puts (out, "<<B>");
  tp_buf_u64 (out, i);
  tp_buf_putc (out, ' ');
  tp_buf_puts (out, tp_op_info[t->op[i]].name);
  tp_buf_puts (out, "</B>");
  if (name != NULL)
    {
      tp_buf_puts (out, "<BR/><FONT POINT-SIZE=\"13\">");
      tp_dot_put_html (out, name, TEXT_MAX);
      tp_buf_puts (out, "</FONT>");
    }
  tp_buf_puts (out, "<BR/><FONT POINT-SIZE=\"9\">");
  tp_buf_shape (out, &t->shape[i]);
  put_detail (t, i, out);
  if (tp_tape_is_source (t, i))
    put_fill (t, i, out);
  tp_buf_puts (out, "</FONT>");

  /* Tags, in words, so no class depends on colour alone. */
  if (i == d->in->target)
    put_tag (out, &tagged, "target");
  if (d->differentiated && i == d->in->spec_nodes)
    put_tag (out, &tagged, "seed");
  if (grad >= 0)
    {
      put_tag (out, &tagged, "");
      put_gradient_name (d, (uint32_t) grad);
    }
  if (is_observed (d, i))
    put_tag (out, &tagged, "observed");
  if (is_skipped (d, i))
    put_tag (out, &tagged, "skipped");
  if (is_nonfinite (d, i))
    put_tag (out, &tagged, "non-finite born here");
  if (tagged)
    tp_buf_puts (out, "</I></FONT>");
  tp_buf_putc (out, '>');
}

static void
put_node (const Dot *d, TpNode i)
{
  TpBuf *out = d->out;
  TpOp op = (TpOp) d->tape->op[i];
  bool skipped = is_skipped (d, i);
  bool result = d->plan->readable[i];
  bool source = tp_tape_is_source (d->tape, i);
  const char *fill = is_derived (d, i) ? FILL_DERIVED
                     : op == TP_OP_PARAMETER ? FILL_PARAM
                     : op == TP_OP_INPUT ? FILL_INPUT
                     : op == TP_OP_LEAF ? FILL_LEAF : FILL_OP;

  tp_buf_puts (out, d->mirrored ? "    n" : "  n");
  tp_buf_u64 (out, i);
  tp_buf_puts (out, " [id=\"n");
  tp_buf_u64 (out, i);
  tp_buf_puts (out, "\", class=\"");
  put_node_classes (d, i);
  tp_buf_putc (out, '"');
  /* Shapes tell sources apart without colour: a parameter is stored
   * state (a cylinder), an input is fed in from above (a pentagon
   * pointing down), a leaf is a written-down constant (a note).  Ops
   * are rounded boxes (the default). */
  if (op == TP_OP_PARAMETER)
    tp_buf_puts (out, ", shape=cylinder");
  else if (op == TP_OP_INPUT)
    tp_buf_puts (out, ", shape=invhouse");
  else if (op == TP_OP_LEAF)
    tp_buf_puts (out, ", shape=note");
  /* A skipped node is a ghost: no fill, a dashed grey outline, grey
   * text, whatever else it is. */
  if (skipped)
    tp_buf_puts (out, source ? ", style=\"dashed\"" : ", style=\"rounded,dashed\"");
  else
    {
      if (source)
        tp_buf_puts (out, ", style=\"filled\"");
      if (strcmp (fill, FILL_OP) != 0)
        {
          tp_buf_puts (out, ", fillcolor=\"");
          tp_buf_puts (out, fill);
          tp_buf_putc (out, '"');
        }
    }
  if (result)
    tp_buf_puts (out, ", peripheries=2, penwidth=2, color=\"" LINE_RESULT "\"");
  else if (is_nonfinite (d, i))
    tp_buf_puts (out, ", penwidth=3, color=\"" LINE_NONFINITE "\"");
  if (skipped)
    tp_buf_puts (out, ", fontcolor=\"" MID "\"");
  tp_buf_puts (out, ", label=");
  put_node_label (d, i);
  tp_buf_puts (out, "];\n");
}

/* Operand order matters for these (the op's row): say which side is
 * which. */
static bool
ordered_operands (TpOp op)
{
  return tp_op_info[op].sides;
}

/* One edge per operand link of node i.  Forward edges point down; in
 * the mirrored gradient band an edge between two derived nodes is written
 * reader -> operand with dir=back, so dot ranks the reader above and the
 * arrow still points at the reader; an edge from a forward value into a
 * derived node is a saved value. */
static void
put_edges (const Dot *d, TpNode i)
{
  TpBuf *out = d->out;
  const TpTape *t = d->tape;
  TpOp op = (TpOp) t->op[i];
  uint32_t arity = tp_op_info[op].arity;

  for (uint32_t k = 0; k < arity; k++)
    {
      TpNode a = t->arg[i][k];
      bool gradient = is_derived (d, a);
      bool saved = !gradient && is_derived (d, i);
      bool back = gradient && d->mirrored;
      bool skipped = is_skipped (d, i);

      tp_buf_puts (out, "  n");
      tp_buf_u64 (out, back ? i : a);
      tp_buf_puts (out, " -> n");
      tp_buf_u64 (out, back ? a : i);
      tp_buf_puts (out, " [id=\"e");
      tp_buf_u64 (out, i);
      tp_buf_putc (out, '_');
      tp_buf_u64 (out, k);
      tp_buf_puts (out, "\", class=\"operand");
      tp_buf_puts (out, gradient ? " gradient" : saved ? " saved" : " forward");
      if (skipped)
        tp_buf_puts (out, " skipped");
      if (ordered_operands (op))
        tp_buf_puts (out, k == 0 ? " lhs" : " rhs");
      tp_buf_putc (out, '"');
      if (back)
        tp_buf_puts (out, ", dir=back");
      /* Gradient edges solid orange, saved values dashed magenta with an
       * open head, forward edges the default grey; an edge into a
       * skipped node fades (and is dotted unless it is already
       * dashed). */
      tp_buf_puts (out, skipped ? ", color=\"" LINE_SKIP "\""
                        : gradient ? ", color=\"" LINE_GRAD "\""
                        : saved ? ", color=\"" LINE_SAVED "\"" : "");
      if (saved)
        tp_buf_puts (out, ", style=dashed, arrowhead=empty");
      else if (skipped)
        tp_buf_puts (out, ", style=dotted");
      if (ordered_operands (op))
        {
          /* The label sits at the reader's end: the head, or the tail of
           * a reversed edge. */
          tp_buf_puts (out, back ? ", taillabel=\"" : ", headlabel=\"");
          tp_buf_puts (out, k == 0 ? "lhs" : "rhs");
          tp_buf_putc (out, '"');
        }
      tp_buf_puts (out, "];\n");
    }
}

static bool
has_op (const Dot *d, TpOp op, bool derived)
{
  for (TpNode i = 0; i < d->n; i++)
    if (d->tape->op[i] == op && is_derived (d, i) == derived)
      return true;
  return false;
}

/* The legend: one swatch per class present, then the edge kinds. */
static void
put_legend (const Dot *d)
{
  TpBuf *out = d->out;
  bool any_skipped = false, any_saved = false, any_ordered = false;
  bool any_forward_op = false;

  for (TpNode i = 0; i < d->n; i++)
    {
      any_skipped = any_skipped || is_skipped (d, i);
      any_ordered = any_ordered || ordered_operands ((TpOp) d->tape->op[i]);
      any_forward_op = any_forward_op
                       || (!is_derived (d, i) && !tp_tape_is_source (d->tape, i));
      for (uint32_t k = 0; k < tp_op_info[d->tape->op[i]].arity; k++)
        any_saved = any_saved || (is_derived (d, i)
                                  && !is_derived (d, d->tape->arg[i][k]));
    }

  tp_buf_puts (out,
               "  legend [id=\"legend\", class=\"legend\", shape=plain, "
               "style=solid, fontsize=10, label=<<TABLE BORDER=\"1\" STYLE=\"rounded\" "
               "COLOR=\"" MID "\" CELLBORDER=\"1\" CELLSPACING=\"3\" "
               "CELLPADDING=\"3\">\n"
               "<TR><TD BORDER=\"0\"><FONT COLOR=\"" MID "\"><B>legend"
               "</B></FONT></TD></TR>\n");
#define ROW(attrs, text) \
  tp_buf_puts (out, "<TR><TD " attrs ">" text "</TD></TR>\n")
  if (has_op (d, TP_OP_PARAMETER, false))
    ROW ("BGCOLOR=\"" FILL_PARAM "\" COLOR=\"" MID "\"",
         "parameter (cylinder)");
  if (has_op (d, TP_OP_INPUT, false))
    ROW ("BGCOLOR=\"" FILL_INPUT "\" COLOR=\"" MID "\"",
         "input (pentagon)");
  if (has_op (d, TP_OP_LEAF, false))
    ROW ("BGCOLOR=\"" FILL_LEAF "\" COLOR=\"" MID "\"",
         "leaf: a constant (note)");
  if (any_forward_op)
    ROW ("BGCOLOR=\"" FILL_OP "\" COLOR=\"" MID "\" STYLE=\"rounded\"",
         "forward op");
  if (d->mirrored)
    ROW ("BGCOLOR=\"" FILL_DERIVED "\" COLOR=\"" MID "\" STYLE=\"rounded\"",
         "appended by differentiate");
  ROW ("BORDER=\"3\" COLOR=\"" LINE_RESULT "\" BGCOLOR=\"#FFFFFF\"",
       "readable result (double border)");
  if (d->in->has_nonfinite && d->in->nonfinite < d->n)
    ROW ("BORDER=\"3\" COLOR=\"" LINE_NONFINITE "\" BGCOLOR=\"#FFFFFF\"",
         "non-finite value born here (red border, tagged)");
  if (any_skipped)
    ROW ("STYLE=\"dashed\" COLOR=\"" MID "\"",
         "<FONT COLOR=\"" MID "\">skipped: not evaluated by the plan</FONT>");
  tp_buf_puts (out, "<TR><TD BORDER=\"0\" ALIGN=\"LEFT\">");
  /* The edge kinds in words (ASCII: graphviz in wasm has no metrics for
   * other characters), each in its line's colour. */
  tp_buf_puts (out, "<FONT COLOR=\"" MID "\">grey arrow: operand, flows down"
                    "</FONT>");
  if (d->mirrored)
    tp_buf_puts (out, "<BR ALIGN=\"LEFT\"/><FONT COLOR=\"" LINE_GRAD "\">"
                      "orange arrow: gradient, flows up</FONT>");
  if (any_saved)
    tp_buf_puts (out, "<BR ALIGN=\"LEFT\"/><FONT COLOR=\"" LINE_SAVED "\">"
                      "dashed, open head: saved forward value, reused</FONT>");
  if (any_ordered)
    tp_buf_puts (out, "<BR ALIGN=\"LEFT\"/><FONT COLOR=\"" MID "\">"
                      "lhs, rhs: operand order</FONT>");
  tp_buf_puts (out, "<BR ALIGN=\"LEFT\"/></TD></TR>\n</TABLE>>];\n");
#undef ROW
}

/* The caption under the picture, like the summary line. */
static void
put_caption (const Dot *d, const char *note)
{
  TpBuf *out = d->out;
  const TpTape *t = d->tape;

  tp_buf_puts (out, "  label=<");
  tp_buf_u64 (out, t->len);
  tp_buf_puts (out, t->len == 1 ? " node recorded" : " nodes recorded");
  if (d->in->spec_nodes < t->len)
    {
      tp_buf_puts (out, " (");
      tp_buf_u64 (out, t->len - d->in->spec_nodes);
      tp_buf_puts (out, " appended by differentiate)");
    }
  tp_buf_puts (out, ", ");
  tp_buf_u64 (out, d->plan->n_wanted);
  tp_buf_puts (out, " evaluated by the plan, ");
  tp_buf_u64 (out, d->plan->n_results);
  tp_buf_puts (out, " readable; target ");
  tp_dot_put_html (out, d->in->target_name != NULL ? d->in->target_name : "?",
            TEXT_MAX);
  if (note != NULL)
    {
      tp_buf_puts (out, "<BR/>");
      tp_buf_puts (out, note);
    }
  tp_buf_puts (out, ">;\n");
}

static void
put_header (const Dot *d)
{
  TpBuf *out = d->out;

  tp_buf_puts (out,
               "digraph topos {\n"
               "  graph [rankdir=TB, newrank=true, bgcolor=\"transparent\", "
               "pad=0.15, nodesep=0.22, ranksep=0.32, fontname=\"" FONT "\", "
               "fontsize=10, fontcolor=\"" MID "\", labelloc=b, labeljust=l];\n"
               "  node [shape=box, style=\"rounded,filled\", "
               "fontname=\"" FONT "\", fontsize=11, fontcolor=\"" INK "\", "
               "color=\"" MID "\", fillcolor=\"" FILL_OP "\", margin=\"0.12,0.05\", "
               "height=0.3];\n"
               "  edge [color=\"" MID "\", penwidth=1.3, arrowsize=0.7, "
               "fontname=\"" FONT "\", fontsize=8, fontcolor=\"" MID "\", "
               "labelfontsize=8, labelfontcolor=\"" MID "\", "
               "labeldistance=1.4];\n");
}

/* The note a degraded picture carries, as a node of its own. */
static void
put_note (const Dot *d, uint64_t cost, uint32_t budget, bool forward_shown)
{
  TpBuf *out = d->out;
  const TpTape *t = d->tape;

  tp_buf_puts (out, "  note [id=\"note\", class=\"note\", shape=box, "
                    "style=\"rounded,filled\", fillcolor=\"#FFFFFF\", "
                    "color=\"" LINE_SAVED "\", penwidth=2, label=<<B>");
  if (forward_shown)
    {
      tp_buf_puts (out, "the gradient band is not drawn</B><BR/>");
      tp_buf_u64 (out, t->len - d->in->spec_nodes);
      tp_buf_puts (out, " nodes appended by differentiate would take the "
                        "picture over its budget");
    }
  else
    {
      tp_buf_puts (out, "this graph is too large to draw</B><BR/>");
      tp_buf_u64 (out, t->len);
      tp_buf_puts (out, " nodes recorded");
    }
  tp_buf_puts (out, "<BR/>(layout cost ");
  tp_buf_u64 (out, cost);
  tp_buf_puts (out, ", budget ");
  tp_buf_u64 (out, budget);
  tp_buf_puts (out, "): read the spec and derivative readings instead");
  for (uint32_t k = 0; d->differentiated && k < d->in->n_wrt && k < 8; k++)
    {
      tp_buf_puts (out, "<BR/>");
      put_gradient_name (d, k);
      tp_buf_puts (out, " is node ");
      tp_buf_u64 (out, d->in->grads[k]);
    }
  if (d->differentiated && d->in->n_wrt > 8)
    tp_buf_puts (out, "<BR/>...");
  tp_buf_puts (out, ">];\n");
}

/* Estimated layout cost: nodes + edges + the ranks long edges cross.
 * Ranks are longest paths over the same constraint edges the DOT has
 * (forward edges down, gradient edges reversed, saved values down), with
 * each forward source sunk to just above its first reader, as dot's
 * ranking tends to do.  Graphviz's positioning pass works on every rank
 * an edge crosses (a "virtual node"), which is what makes long edges
 * expensive. */
bool
tp_dot_forward_ranks (const TpTape *t, uint32_t spec, uint32_t *rank)
{
  uint32_t *low = tp_malloc (((size_t) spec + 1) * sizeof *low);

  if (low == NULL)
    return false;
  /* Forward band, in index (topological) order. */
  for (TpNode i = 0; i < spec; i++)
    {
      rank[i] = 0;
      for (uint32_t k = 0; k < tp_op_info[t->op[i]].arity; k++)
        if (rank[t->arg[i][k]] + 1 > rank[i])
          rank[i] = rank[t->arg[i][k]] + 1;
    }
  /* Each source sinks to just above its first reader. */
  for (TpNode i = 0; i < spec; i++)
    low[i] = UINT32_MAX;
  for (TpNode i = 0; i < spec; i++)
    for (uint32_t k = 0; k < tp_op_info[t->op[i]].arity; k++)
      if (rank[i] < low[t->arg[i][k]])
        low[t->arg[i][k]] = rank[i];
  for (TpNode i = 0; i < spec; i++)
    if (tp_tape_is_source (t, i) && low[i] != UINT32_MAX && low[i] > 0)
      rank[i] = low[i] - 1;
  tp_free (low);
  return true;
}

uint64_t
tp_dot_cost (const TpDotInput *in, bool forward_only)
{
  const TpTape *t = in->plan->tape;
  uint32_t spec = in->spec_nodes < t->len ? in->spec_nodes : t->len;
  uint32_t n = forward_only ? spec : t->len;
  uint32_t *rank = tp_malloc (((size_t) n + 1) * sizeof *rank);
  uint64_t cost = n;

  if (rank == NULL || !tp_dot_forward_ranks (t, spec, rank))
    {
      tp_free (rank);
      return UINT64_MAX;
    }
  /* Gradient band: readers come first (reversed edges), so walk down. */
  for (TpNode i = n; i-- > spec;)
    rank[i] = 0;
  for (TpNode i = n; i-- > spec;)
    {
      /* Readers are higher in the tape and already placed: first the
       * saved values pull node i down, then it pushes its gradient
       * operands below itself. */
      uint32_t arity = tp_op_info[t->op[i]].arity;
      for (uint32_t k = 0; k < arity; k++)
        if (t->arg[i][k] < spec && rank[t->arg[i][k]] + 1 > rank[i])
          rank[i] = rank[t->arg[i][k]] + 1;
      for (uint32_t k = 0; k < arity; k++)
        if (t->arg[i][k] >= spec && rank[i] + 1 > rank[t->arg[i][k]])
          rank[t->arg[i][k]] = rank[i] + 1;
    }
  for (TpNode i = 0; i < n; i++)
    for (uint32_t k = 0; k < tp_op_info[t->op[i]].arity; k++)
      {
        TpNode a = t->arg[i][k];
        uint32_t lo = rank[a] < rank[i] ? rank[a] : rank[i];
        uint32_t hi = rank[a] < rank[i] ? rank[i] : rank[a];
        cost += 1 + (hi - lo > 1 ? hi - lo - 1 : 0);
      }
  tp_free (rank);
  return cost;
}

/* The nodes grouped by the fusion's kernels: a cluster per kernel of two
 * nodes or more (in the order of each kernel's first node), then the
 * nodes that are a kernel alone or are not evaluated.  Each kernel's
 * nodes are chained once (next), so this is linear in the nodes. */
static void
put_kernels (const Dot *d)
{
  const uint32_t *k = d->in->kernels;
  TpBuf *out = d->out;
  uint32_t n_kernels = 0;
  TpNode *next, *last;
  uint32_t *count;

  for (TpNode i = 0; i < d->n; i++)
    if (k[i] != UINT32_MAX && k[i] >= n_kernels)
      n_kernels = k[i] + 1;
  next = tp_malloc (((size_t) d->n + 1) * sizeof *next);
  last = tp_malloc (((size_t) n_kernels + 1) * sizeof *last);
  count = tp_malloc (((size_t) n_kernels + 1) * sizeof *count);
  if (next == NULL || last == NULL || count == NULL)
    {
      out->failed = true;
      goto out;
    }
  memset (count, 0, ((size_t) n_kernels + 1) * sizeof *count);
  for (TpNode i = 0; i < d->n; i++)
    {
      next[i] = TP_NO_NODE;
      if (k[i] == UINT32_MAX)
        continue;
      if (count[k[i]]++ > 0)
        next[last[k[i]]] = i;
      last[k[i]] = i;
    }
  for (TpNode i = 0; i < d->n; i++)
    {
      /* a kernel's first node is the one whose kernel is not yet out */
      if (k[i] == UINT32_MAX || count[k[i]] < 2 || last[k[i]] == TP_NO_NODE)
        continue;
      tp_buf_puts (out, "  subgraph cluster_kernel");
      tp_buf_u64 (out, k[i]);
      tp_buf_puts (out, " {\n    id=\"kernel");
      tp_buf_u64 (out, k[i]);
      tp_buf_puts (out, "\"; class=\"kernel\"; label=\"kernel ");
      tp_buf_u64 (out, k[i]);
      tp_buf_puts (out, "\"; labelloc=t; labeljust=l; style=\"rounded,dashed\"; "
                        "color=\"" MID "\"; fontcolor=\"" MID "\";\n");
      for (TpNode j = i; j != TP_NO_NODE; j = next[j])
        put_node (d, j);
      tp_buf_puts (out, "  }\n");
      last[k[i]] = TP_NO_NODE;
    }
  for (TpNode i = 0; i < d->n; i++)
    if (k[i] == UINT32_MAX || count[k[i]] < 2)
      put_node (d, i);
out:
  tp_free (next);
  tp_free (last);
  tp_free (count);
}

bool
tp_dot_write (const TpDotInput *in, TpBuf *out)
{
  const TpTape *t = in->plan->tape;
  uint32_t budget = in->budget != 0 ? in->budget : TP_DOT_BUDGET;
  uint32_t spec = in->spec_nodes < t->len ? in->spec_nodes : t->len;
  Dot d;
  uint64_t cost, tangent_cost = 0;
  bool tangent;

  memset (&d, 0, sizeof d);
  d.in = in;
  d.tape = t;
  d.plan = in->plan;
  d.out = out;
  d.n = t->len;
  d.differentiated = in->grads != NULL && spec < t->len;
  d.mirrored = spec < t->len;

  put_header (&d);
  cost = tp_dot_cost (in, false);
  if (cost == UINT64_MAX)
    {
      out->failed = true;
      return false;
    }
  if (cost > budget)
    {
      uint64_t forward_cost = tp_dot_cost (in, true);
      bool forward = forward_cost <= budget && spec > 0;
      d.n = forward ? spec : 0;
      d.mirrored = false;
      put_caption (&d, "the picture is reduced: see the note");
      put_note (&d, cost, budget, forward);
      for (TpNode i = 0; i < d.n; i++)
        put_node (&d, i);
      for (TpNode i = 0; i < d.n; i++)
        put_edges (&d, i);
      if (d.n > 0)
        put_legend (&d);
      tp_buf_puts (out, "}\n");
      return true;
    }

  /* the tangent band, when asked for, if the picture can take it */
  if (in->tangent != NULL && in->kernels == NULL)
    {
      uint64_t band = tp_dot_tangent_cost (in);
      if (band == UINT64_MAX)
        {
          out->failed = true;
          return false;
        }
      tangent_cost = cost + band;
    }
  tangent = tangent_cost != 0 && tangent_cost <= budget;
  put_caption (&d, tangent ? "with the tangent band: the nodes forward mode records"
                   : tangent_cost != 0 ? "the tangent band is not drawn: see the note"
                   : NULL);
  if (tangent_cost != 0 && !tangent)
    tp_dot_tangent_note (in, tangent_cost, budget, out);
  if (in->kernels != NULL)
    {
      put_kernels (&d);
      goto paired;
    }
  if (d.mirrored)
    tp_buf_puts (out, "  subgraph cluster_forward {\n"
                      "    id=\"forward\"; class=\"band forward\"; "
                      "label=\"forward: the program, top down\"; "
                      "labelloc=t; labeljust=l; style=\"rounded\"; color=\"" MID "\";\n");
  for (TpNode i = 0; i < spec; i++)
    put_node (&d, i);
  if (d.mirrored)
    {
      tp_buf_puts (out, "  }\n  subgraph cluster_gradient {\n"
                        "    id=\"gradient\"; class=\"band gradient\"; "
                        "label=\"gradient: appended by differentiate, "
                        "bottom up\"; labelloc=t; labeljust=r; style=\"rounded\"; "
                        "color=\"" LINE_GRAD "\"; fontcolor=\"" LINE_GRAD "\";\n");
      for (TpNode i = spec; i < t->len; i++)
        put_node (&d, i);
      tp_buf_puts (out, "  }\n");
    }
paired:
  /* Each parameter level with its gradient, the point of the picture;
   * an invisible edge from one to the other keeps the forward band on
   * the left (dot lays a flat edge out left to right). */
  for (uint32_t k = 0; d.differentiated && k < in->n_wrt; k++)
    if (in->wrt[k] < spec && in->grads[k] >= spec && in->grads[k] < t->len)
      {
        tp_buf_puts (out, "  { rank=same; n");
        tp_buf_u64 (out, in->wrt[k]);
        tp_buf_puts (out, "; n");
        tp_buf_u64 (out, in->grads[k]);
        tp_buf_puts (out, "; }\n  n");
        tp_buf_u64 (out, in->wrt[k]);
        tp_buf_puts (out, " -> n");
        tp_buf_u64 (out, in->grads[k]);
        tp_buf_puts (out, " [id=\"pair");
        tp_buf_u64 (out, k);
        tp_buf_puts (out, "\", class=\"pairing\", style=invis, weight=0];\n");
      }
  for (TpNode i = 0; i < t->len; i++)
    put_edges (&d, i);
  if (tangent)
    tp_dot_put_tangent (in, out);
  put_legend (&d);
  if (tangent)
    tp_dot_tangent_legend (in, out);
  tp_buf_puts (out, "}\n");
  return false;
}
