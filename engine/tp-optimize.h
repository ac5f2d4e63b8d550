/* tp-optimize.h: exact rewrites of the differentiated tape (docs/language.md,
 * optimized; docs/decisions.md D22).
 *
 * A rewrite is made only when the rewritten program gives every value bit
 * for bit, for every input, -0, the infinities and NaN included: the
 * identities x * 1, 1 * x, x / 1, x - 0, -0 + x, x + -0, a Broadcast or
 * Reshape to its operand's own shape, a Permute of a Permute that undoes
 * it (or one in the identity order), the folding of a node whose operands
 * are all Leafs (by the interpreter's own kernel, into a Leaf), common
 * subexpressions and the nodes that no result reads any more.  The
 * tempting rewrites that are not exact (0 + x, x * 0, x - x, a sum
 * reassociated) are kept, each with why.
 *
 * The optimised tape keeps the recorded node numbers: a node that
 * becomes another is left where it is and no longer read, a folded node
 * becomes a Leaf in place.  Every operand still has a smaller index. */
#ifndef TP_OPTIMIZE_H
#define TP_OPTIMIZE_H

#if !defined (TP_ENGINE_COMPILATION) && !defined (TP_ENGINE_INTERNAL)
#error "tp-optimize.h is internal to the engine: outside it, include tp-engine.h"
#endif

#include <stdbool.h>
#include <stdint.h>

#include "tp-alloc.h"
#include "tp-buf.h"
#include "tp-map.h"
#include "tp-plan.h"
#include "tp-tape.h"

/* The rules, made and refused; their names are the JSON's "rule". */
typedef enum
{
  TP_RULE_TIMES_ONE,       /* x * 1 */
  TP_RULE_ONE_TIMES,       /* 1 * x */
  TP_RULE_OVER_ONE,        /* x / 1 */
  TP_RULE_MINUS_ZERO,      /* x - 0 */
  TP_RULE_NEG_ZERO_PLUS,   /* -0 + x */
  TP_RULE_PLUS_NEG_ZERO,   /* x + -0 */
  TP_RULE_SAME_SHAPE,      /* a Broadcast or Reshape to its operand's shape */
  TP_RULE_IDENTITY_ORDER,  /* a Permute in the identity order */
  TP_RULE_TRANSPOSES,      /* a Permute of a Permute that undoes it */
  TP_RULE_FOLD,            /* every operand a Leaf: computed now */
  TP_RULE_COMMON,          /* the same op, attribute and operands as another */
  TP_RULE_DEAD,            /* no result reads it any more */
  /* refused */
  TP_RULE_ZERO_PLUS,       /* 0 + x */
  TP_RULE_PLUS_ZERO,       /* x + 0 */
  TP_RULE_TIMES_ZERO,      /* x * 0, 0 * x */
  TP_RULE_SELF_MINUS,      /* x - x */
  TP_RULE_REASSOCIATE,     /* (x + a) + b as x + (a + b) */
  TP_RULE_FOLD_BIG,        /* a fold whose constant would be too big */
  TP_N_RULES
} TpRule;

/* The optimized reading lists the first this many node lines, rewrites
 * and refusals, each list then saying how many more there are (the JSON
 * has them all). */
#define TP_OPTIMIZED_TEXT_LINES 8192u

/* A folded constant that is not one value repeated is written out in the
 * StableHLO module: past this many elements the node is not folded. */
#define TP_FOLD_ELEMENTS 4096u

typedef struct
{
  TpNode node;
  uint8_t rule;            /* TpRule */
  TpNode becomes;          /* the node it is replaced by; itself for a fold;
                              TP_NO_NODE for a dead node or a refusal */
} TpRewrite;

typedef struct
{
  TpTape tape;             /* the optimised tape (shapes and attributes
                              shared with the recorded one) */
  TpNode *becomes;         /* per node: the node its readers read now */
  TpRewrite *rewrites;     /* in node order, the dead ones last */
  uint32_t n_rewrites;
  TpRewrite *kept;         /* the refused ones, in node order */
  uint32_t n_kept;
  uint8_t *before;         /* per node: the recorded tape's plan evaluates it */
  uint8_t *after;          /* per node: the optimised tape's plan does */
  uint32_t nodes_before;
  uint32_t nodes_after;
  TpNode *results;         /* the roots then the observed, read through
                              what they became: the optimised plan's */
  uint32_t n_roots;
  uint32_t n_observe;
  uint64_t work_before;
  uint64_t work_after;
  uint32_t spec_nodes;
} TpOptimized;

/* Test hook (tp_testing_fold_zero_add): also rewrites 0 + x into x, which
 * is wrong for x = -0. */
extern bool tp_optimize_wrong_zero_add;

/* Rewrites tape's copy (whose results are roots and observe, as for
 * tp_plan_lower); what each plan evaluates is the results' ancestors
 * (the optimised tape's plan itself is tp_plan_lower's, on o->tape and
 * o->results).  False when memory runs out. */
bool tp_optimize          (TpOptimized *o, const TpTape *tape,
                           uint32_t spec_nodes, TpArena *arena,
                           const TpNode *roots, uint32_t n_roots,
                           const TpNode *observe, uint32_t n_observe,
                           bool exact);
const char *tp_rule_name  (TpRule rule);
/* Why a refused rule is not exact (NULL for one that is). */
const char *tp_rule_why   (TpRule rule);
/* The optimized reading (mapped into map unless it is NULL). */
void tp_optimize_describe (const TpOptimized *o, TpBuf *out, TpMap *map);
/* {"nodes_before": ..., "rewrites": [...], "kept": [...]}; o NULL writes
 * the empty one. */
void tp_optimize_json     (const TpOptimized *o, TpBuf *out);

#endif /* TP_OPTIMIZE_H */
