/* tp-dot-tangent.c: forward mode's tangent nodes as the picture's third
 * band (tp-dot.h).
 *
 * The tangent tape numbers its nodes from the spec's node count, as
 * differentiate numbers its own, so a tangent node's id is t{index}
 * (n{index} may be a gradient node of the same number).  The band flows
 * top down like the program: a tangent rule reads its operands' tangents
 * from the band (teal arrows) and the program's values from the forward
 * band (teal, dashed, open head).  Each parameter's direction (the Leaf
 * its tangent starts from) sits level with the parameter. */
#include "tp-dot-private.h"

#include <string.h>

#include "tp-alloc.h"

static bool
is_tangent (const TpDotInput *in, TpNode i)
{
  return i >= in->spec_nodes;
}

/* Ranks as dot would give them: the forward band's, then each tangent
 * node one below its lowest operand (the directions level with their
 * parameters). */
uint64_t
tp_dot_tangent_cost (const TpDotInput *in)
{
  const TpTape *t = in->tangent->tape;
  uint32_t spec = in->spec_nodes;
  uint32_t *rank = tp_malloc (((size_t) t->len + 1) * sizeof *rank);
  uint64_t cost = 0;

  if (rank == NULL || !tp_dot_forward_ranks (t, spec, rank))
    {
      tp_free (rank);
      return UINT64_MAX;
    }
  for (TpNode i = spec; i < t->len; i++)
    {
      const TpProvenance *why = &in->tangent->why[i - spec];
      rank[i] = why->role == TP_PROVENANCE_SEED && why->of < spec
                ? rank[why->of] : 0;
      for (uint32_t k = 0; k < tp_op_info[t->op[i]].arity; k++)
        if (rank[t->arg[i][k]] + 1 > rank[i])
          rank[i] = rank[t->arg[i][k]] + 1;
      cost++;
      for (uint32_t k = 0; k < tp_op_info[t->op[i]].arity; k++)
        {
          /* an edge from the forward band crosses between clusters,
           * which costs dot's positioning about twice as much (measured:
           * tests/bench/bench-layout) */
          uint32_t span = rank[i] - rank[t->arg[i][k]];
          uint64_t crossed = 1 + (span > 1 ? span - 1 : 0);
          cost += is_tangent (in, t->arg[i][k]) ? crossed : 2 * crossed;
        }
    }
  tp_free (rank);
  return cost;
}

/* The program node's name, as the picture's labels give it: the
 * statement's name, or #index. */
static void
put_program_name (const TpDotInput *in, TpNode node, TpBuf *out)
{
  const char *name = node < in->spec_nodes && in->names != NULL
                     ? in->names[node] : NULL;

  if (name != NULL)
    tp_dot_put_html (out, name, TEXT_MAX);
  else
    {
      tp_buf_putc (out, '#');
      tp_buf_u64 (out, node);
    }
}

/* "{index} {Op}" in bold; what the node is the tangent of; its shape
 * (and a direction's one value); the tags. */
static void
put_label (const TpDotInput *in, TpNode i, TpBuf *out)
{
  const TpDotTangent *g = in->tangent;
  const TpProvenance *why = &g->why[i - in->spec_nodes];
  const TpTape *t = g->tape;

  tp_buf_puts (out, "<<B>");
  tp_buf_u64 (out, i);
  tp_buf_putc (out, ' ');
  tp_buf_puts (out, tp_op_info[t->op[i]].name);
  tp_buf_puts (out, "</B><BR/><FONT POINT-SIZE=\"13\">");
  if (why->role == TP_PROVENANCE_SEED)
    tp_buf_puts (out, "v for ");
  else if (why->role == TP_PROVENANCE_RULE)
    tp_buf_puts (out, g->tan[why->of] == i ? "t " : "in t ");
  else                          /* a target no parameter reaches */
    tp_buf_puts (out, "zero t ");
  put_program_name (in, why->of, out);
  tp_buf_puts (out, "</FONT><BR/><FONT POINT-SIZE=\"9\">");
  tp_buf_shape (out, &t->shape[i]);
  if (why->role == TP_PROVENANCE_SEED && t->payload[i] != NULL
      && tp_shape_volume (&t->shape[i]) == 1)
    {
      tp_buf_puts (out, " = ");
      tp_buf_f32 (out, t->payload[i][0]);
    }
  tp_buf_puts (out, "</FONT>");
  if (i == g->tangent)
    {
      tp_buf_puts (out, "<BR/><FONT POINT-SIZE=\"10\"><I>the tangent of ");
      tp_dot_put_html (out, in->target_name != NULL ? in->target_name : "?",
                       TEXT_MAX);
      tp_buf_puts (out, " along v</I></FONT>");
    }
  else if (why->role == TP_PROVENANCE_SEED)
    tp_buf_puts (out, "<BR/><FONT POINT-SIZE=\"10\"><I>direction</I></FONT>");
  tp_buf_putc (out, '>');
}

static void
put_node (const TpDotInput *in, TpNode i, TpBuf *out)
{
  const TpDotTangent *g = in->tangent;
  TpOp op = (TpOp) g->tape->op[i];
  bool seed = g->why[i - in->spec_nodes].role == TP_PROVENANCE_SEED;

  tp_buf_puts (out, "    t");
  tp_buf_u64 (out, i);
  tp_buf_puts (out, " [id=\"t");
  tp_buf_u64 (out, i);
  tp_buf_puts (out, op == TP_OP_LEAF ? "\", class=\"source leaf tangent"
                                     : "\", class=\"op tangent");
  if (seed)
    tp_buf_puts (out, " direction");
  if (i == g->tangent)
    tp_buf_puts (out, " tangent-target");
  tp_buf_puts (out, "\", fillcolor=\"" FILL_TANGENT "\"");
  if (op == TP_OP_LEAF)
    tp_buf_puts (out, ", shape=note, style=\"filled\"");
  if (i == g->tangent)
    tp_buf_puts (out, ", peripheries=2, penwidth=2, color=\"" LINE_TANGENT "\"");
  tp_buf_puts (out, ", label=");
  put_label (in, i, out);
  tp_buf_puts (out, "];\n");
}

static void
put_edges (const TpDotInput *in, TpNode i, TpBuf *out)
{
  const TpTape *t = in->tangent->tape;
  TpOp op = (TpOp) t->op[i];

  for (uint32_t k = 0; k < tp_op_info[op].arity; k++)
    {
      TpNode a = t->arg[i][k];
      bool primal = !is_tangent (in, a);

      tp_buf_puts (out, primal ? "  n" : "  t");
      tp_buf_u64 (out, a);
      tp_buf_puts (out, " -> t");
      tp_buf_u64 (out, i);
      tp_buf_puts (out, " [id=\"te");
      tp_buf_u64 (out, i);
      tp_buf_putc (out, '_');
      tp_buf_u64 (out, k);
      tp_buf_puts (out, primal ? "\", class=\"operand primal" : "\", class=\"operand tangent");
      if (tp_op_info[op].sides)
        tp_buf_puts (out, k == 0 ? " lhs" : " rhs");
      tp_buf_puts (out, "\", color=\"" LINE_TANGENT "\"");
      if (primal)
        tp_buf_puts (out, ", style=dashed, arrowhead=empty");
      if (tp_op_info[op].sides)
        tp_buf_puts (out, k == 0 ? ", headlabel=\"lhs\"" : ", headlabel=\"rhs\"");
      tp_buf_puts (out, "];\n");
    }
}

void
tp_dot_put_tangent (const TpDotInput *in, TpBuf *out)
{
  const TpDotTangent *g = in->tangent;
  const TpTape *t = g->tape;

  tp_buf_puts (out, "  subgraph cluster_tangent {\n"
                    "    id=\"tangent\"; class=\"band tangent\"; "
                    "label=\"tangent: recorded by forward mode along v, "
                    "top down\"; labelloc=t; labeljust=l; style=\"rounded\"; "
                    "color=\"" LINE_TANGENT "\"; fontcolor=\"" LINE_TANGENT "\";\n");
  for (TpNode i = in->spec_nodes; i < t->len; i++)
    put_node (in, i, out);
  tp_buf_puts (out, "  }\n");
  for (TpNode i = in->spec_nodes; i < t->len; i++)
    put_edges (in, i, out);
  /* Each direction level with its parameter, on the parameter's left (a
   * flat edge runs left to right). */
  for (TpNode i = in->spec_nodes; i < t->len; i++)
    {
      const TpProvenance *why = &g->why[i - in->spec_nodes];
      if (why->role != TP_PROVENANCE_SEED || why->of >= in->spec_nodes)
        continue;
      tp_buf_puts (out, "  { rank=same; t");
      tp_buf_u64 (out, i);
      tp_buf_puts (out, "; n");
      tp_buf_u64 (out, why->of);
      tp_buf_puts (out, "; }\n  t");
      tp_buf_u64 (out, i);
      tp_buf_puts (out, " -> n");
      tp_buf_u64 (out, why->of);
      tp_buf_puts (out, " [id=\"tpair");
      tp_buf_u64 (out, i);
      tp_buf_puts (out, "\", class=\"pairing\", style=invis, weight=0];\n");
    }
}

void
tp_dot_tangent_legend (const TpDotInput *in, TpBuf *out)
{
  (void) in;
  tp_buf_puts (out,
               "  legend_tangent [id=\"legend-tangent\", class=\"legend\", "
               "shape=plain, style=solid, fontsize=10, label=<<TABLE "
               "BORDER=\"1\" STYLE=\"rounded\" COLOR=\"" MID "\" "
               "CELLBORDER=\"1\" CELLSPACING=\"3\" CELLPADDING=\"3\">\n"
               "<TR><TD BORDER=\"0\"><FONT COLOR=\"" MID "\"><B>tangent band"
               "</B></FONT></TD></TR>\n"
               "<TR><TD BGCOLOR=\"" FILL_TANGENT "\" COLOR=\"" MID "\" "
               "STYLE=\"rounded\">recorded by forward mode</TD></TR>\n"
               "<TR><TD BORDER=\"0\" ALIGN=\"LEFT\"><FONT COLOR=\""
               LINE_TANGENT "\">teal arrow: tangent, flows down</FONT>"
               "<BR ALIGN=\"LEFT\"/><FONT COLOR=\"" LINE_TANGENT "\">"
               "dashed, open head: a program value a tangent rule reads"
               "</FONT><BR ALIGN=\"LEFT\"/><FONT COLOR=\"" MID "\">"
               "t x: the tangent of x; v for w: the direction's part for w"
               "</FONT><BR ALIGN=\"LEFT\"/></TD></TR>\n</TABLE>>];\n");
}

void
tp_dot_tangent_note (const TpDotInput *in, uint64_t cost, uint32_t budget,
                     TpBuf *out)
{
  tp_buf_puts (out, "  note_tangent [id=\"note-tangent\", class=\"note\", "
                    "shape=box, style=\"rounded,filled\", fillcolor=\"#FFFFFF\", "
                    "color=\"" LINE_TANGENT "\", penwidth=2, label=<<B>"
                    "the tangent band is not drawn</B><BR/>");
  tp_buf_u64 (out, in->tangent->tape->len - in->spec_nodes);
  tp_buf_puts (out, " nodes recorded by forward mode would take the picture "
                    "over its budget<BR/>(layout cost ");
  tp_buf_u64 (out, cost);
  tp_buf_puts (out, ", budget ");
  tp_buf_u64 (out, budget);
  tp_buf_puts (out, "): read the forward reading instead>];\n");
}
