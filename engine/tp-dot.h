/* tp-dot.h: the picture's source, a graphviz DOT graph of the tape.
 *
 * The DOT text carries everything visual (shapes, colours, classes, the
 * legend, the caption), so the desktop renderer (render/tp-render.h) and the
 * web page (graphviz compiled to wasm) draw the same picture from it.
 *
 * The picture, in short:
 * - one node per tape node, id `n{index}`, label "{index} {Op}" over the
 *   statement's name and "{shape} {detail}"; edges in operand order, the
 *   operand position ("lhs", "rhs") written where it matters;
 * - forward nodes form one band (cluster "forward") that flows top to
 *   bottom, sources at the top; nodes appended by differentiate form a
 *   second band (cluster "gradient") that is mirrored: the seed sits at
 *   the bottom beside the loss and each parameter's gradient at the top
 *   beside its parameter, so gradient edges point upward;
 * - an edge from a forward value into a gradient node that reuses it (a
 *   "saved value") is dashed magenta with an open arrowhead.  Because the
 *   gradient band is mirrored, these edges stay a rank or two long, which
 *   is what keeps graphviz's dot layout fast (the unmirrored picture puts
 *   them across the whole graph and dot's positioning blows up);
 * - classes: parameter/input/leaf (own shapes and fills), derived,
 *   skipped (not in the plan: no fill, dashed, grey), result (readable at
 *   the end of the plan: double border), observed, target, gradient
 *   ("d loss / d w"), seed; a legend lists the ones present.
 *
 * - forward mode's tangent nodes can be drawn as a third band (cluster
 *   "tangent", ids t{index}: their numbers are the forward reading's,
 *   which differentiate's nodes share), top down, each parameter's
 *   direction level with it; the program's values a tangent rule reads
 *   come in from the forward band, dashed.
 *
 * Over the budget (a layout cost estimate, not only a node count) the
 * picture degrades: the forward band alone with a note, or only a note;
 * a tangent band that would take it over is left out, with a note.
 * The note says so in the picture. */
#ifndef TP_DOT_H
#define TP_DOT_H

#if !defined (TP_ENGINE_COMPILATION) && !defined (TP_ENGINE_INTERNAL)
#error "tp-dot.h is internal to the engine: outside it, include tp-engine.h"
#endif

#include <stdbool.h>

#include "tp-buf.h"
#include "tp-engine.h"
#include "tp-plan.h"

/* The default budget, in layout cost units: nodes + edges + the ranks
 * long edges cross (an estimate of graphviz's virtual nodes).  About 450
 * to 550 nodes of forward+gradient tape; measured on a busy 2-core
 * machine, a picture near the budget lays out in 0.2 to 0.6 s, and a
 * 1,000-node one (cost about 30,000) would take 1 to 4 s, so it is
 * reduced to its forward band (tests/bench/bench-layout prints the
 * figures). */
#define TP_DOT_BUDGET TP_PICTURE_BUDGET

/* Forward mode's tangent tape, for the tangent band. */
typedef struct
{
  const TpTape *tape;          /* the program's nodes (numbered as the
                                  picture's), then the tangent nodes */
  const TpProvenance *why;     /* per tangent node: why it was recorded */
  const TpNode *tan;           /* per program node: its tangent node, or
                                  TP_NO_NODE */
  TpNode tangent;              /* the target's tangent node */
} TpDotTangent;

/* What the picture shows besides the tape itself. */
typedef struct
{
  const TpPlan *plan;          /* its tape is the one drawn */
  uint32_t spec_nodes;         /* nodes at or after this are derived */
  const char *const *names;    /* per node: the statement naming it, or NULL */
  TpNode target;
  const char *target_name;
  const TpNode *observe;       /* observed nodes */
  uint32_t n_observe;
  const TpNode *wrt;           /* parameters, declaration order */
  const TpNode *grads;         /* their gradients; NULL when none */
  uint32_t n_wrt;
  uint32_t budget;             /* layout cost budget; 0 means TP_DOT_BUDGET */
  bool has_nonfinite;          /* a non-finite value is born at ... */
  TpNode nonfinite;            /* ... this node, marked in the picture */
  /* NULL, or per node the fusion's kernel (UINT32_MAX for none): each
   * kernel of two nodes or more is drawn as a cluster of its own,
   * instead of the forward and gradient bands */
  const uint32_t *kernels;
  /* NULL, or the tangent tape drawn as a third band (not with kernels) */
  const TpDotTangent *tangent;
} TpDotInput;

/* Appends the DOT text and returns whether it was reduced (over the
 * budget: the forward band alone, or only the note).  Deterministic and
 * locale-free; on allocation failure out->failed is set. */
bool     tp_dot_write (const TpDotInput *in, TpBuf *out);

/* The layout cost estimate tp_dot_write compares with the budget (for the
 * benchmark and tests).  UINT64_MAX when memory runs out. */
uint64_t tp_dot_cost  (const TpDotInput *in, bool forward_only);

#endif /* TP_DOT_H */
