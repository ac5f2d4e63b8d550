/* tp-explain.h: the explain reading, one sentence per node
 * (docs/language.md, explain). */
#ifndef TP_EXPLAIN_H
#define TP_EXPLAIN_H

#if !defined (TP_ENGINE_COMPILATION) && !defined (TP_ENGINE_INTERNAL)
#error "tp-explain.h is internal to the engine: outside it, include tp-engine.h"
#endif

#include <stdbool.h>
#include <stdint.h>

#include "tp-alloc.h"
#include "tp-buf.h"
#include "tp-plan.h"

/* The most nodes explained; past it one line says how many were not. */
#define TP_EXPLAIN_NODES 8192u

typedef struct
{
  const TpPlan *plan;          /* its tape is the one explained */
  uint32_t spec_nodes;
  const char *const *names;    /* per node: its display name, or NULL */
  TpNode target;
  const char *target_name;
  const TpNode *wrt;
  const TpNode *grads;         /* NULL when nothing was differentiated */
  uint32_t n_wrt;
} TpExplainInput;

/* Which step of differentiate's walk recorded a node it appended (as
 * differentiate noted it: TpProvenance in tp-tape.h). */
typedef enum
{
  TP_EXPLAIN_NONE,        /* a forward node, or one with no account */
  TP_EXPLAIN_SEED,
  TP_EXPLAIN_RULE,        /* of forward node `of` */
  TP_EXPLAIN_ZERO,        /* the running sum of `of` starts at zero */
  TP_EXPLAIN_SHARE,       /* adds the share from consumer `from` to `of` */
  TP_EXPLAIN_UNREACHED,   /* a parameter the loss does not depend on */
} TpExplainRole;

typedef struct
{
  uint8_t role;
  TpNode of;
  TpNode from;
  uint32_t share;  /* 1-based, for TP_EXPLAIN_SHARE; for TP_EXPLAIN_RULE
                      the node's place in the rule, 0-based */
} TpExplainOrigin;

/* Writes one line per node (line N is node N), each "N Op: sentence",
 * and sets *origins to the role of every node (tape length entries, from
 * the arena).  False when memory runs out. */
bool tp_explain_write (const TpExplainInput *in, TpArena *arena, TpBuf *out,
                       TpExplainOrigin **origins);

#endif /* TP_EXPLAIN_H */
