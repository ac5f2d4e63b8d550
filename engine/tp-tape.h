/* tp-tape.h: the recorded tape.
 *
 * A tape is parallel columns indexed by node: op, operand links, inferred
 * shape, attributes and (for sources) the payload.  Operands always have
 * smaller indices, so tape order is a topological order.  Nodes are never
 * changed once recorded.  All memory lives in the compile's arena. */
#ifndef TP_TAPE_H
#define TP_TAPE_H

#if !defined (TP_ENGINE_COMPILATION) && !defined (TP_ENGINE_INTERNAL)
#error "tp-tape.h is internal to the engine: outside it, include tp-engine.h"
#endif

#include <stdbool.h>
#include <stdint.h>

#include "tp-alloc.h"
#include "tp-buf.h"
#include "tp-map.h"
#include "tp-shape.h"

typedef uint32_t TpNode;
#define TP_NO_NODE UINT32_MAX

/* Every op, in the order of engine/tp-ops.def (one row per op). */
typedef enum
{
#define TP_OP_ROW(ID, ...) TP_OP_##ID,
#include "tp-ops.def"
} TpOp;

/* The number of ops (not a TpOp, so switches need no case for it). */
enum
{
#define TP_OP_ROW(ID, ...) TP_OP_COUNT_##ID,
#include "tp-ops.def"
  TP_N_OPS
};

typedef enum
{
  TP_ATTR_NONE,
  TP_ATTR_AXIS,          /* axis=k */
  TP_ATTR_AXIS_EXTENT,   /* axis=k extent=n */
  TP_ATTR_SHAPE,         /* shape=[..] (the node's own shape) */
  TP_ATTR_ORDER,         /* order=[..] */
} TpAttrKind;

/* The interpreter's work estimate of a node (node_work in tp-tape.c). */
typedef enum
{
  TP_WORK_ELEMENT,       /* one per result element */
  TP_WORK_MATMUL,        /* one per result element and inner index */
  TP_WORK_OPERAND4,      /* four per operand element */
} TpWork;

/* Which element of each operand a result element is named after (the
 * check's non-finite origin shows them). */
typedef enum
{
  TP_AT_NONE,            /* no one element at a fixed index */
  TP_AT_SAME,            /* element e of each operand */
  TP_AT_FIRST,           /* element 0: the operand is one element */
} TpAt;

/* How the language writes an op or a composite. */
typedef enum
{
  TP_FORM_NONE,          /* not written: recorded by a rule or a composite */
  TP_FORM_SOURCE,        /* parameter [2, 3], leaf 1.5 */
  TP_FORM_UNARY,         /* tanh(x) */
  TP_FORM_AXIS,          /* sum_along(x, 1) */
  TP_FORM_SHAPED,        /* reshape(x, [6]) */
  TP_FORM_OPERATOR,      /* x + y, -x */
} TpForm;

typedef struct
{
  const char *name;      /* as describe prints it: "MatMul" */
  uint8_t arity;         /* 0 for sources */
  uint8_t attr;          /* TpAttrKind */
  const char *hlo;       /* StableHLO spelling of the plain lowering, or NULL
                            for an op with a writer of its own */
  bool sides;            /* the picture says which operand is which */
  uint8_t work;          /* TpWork */
  uint8_t at;            /* TpAt */
  const char *written;   /* keyword or operator in the language, or NULL */
  uint8_t form;          /* TpForm */
  const char *formula;   /* a sentence's form of it: "%a + %b", "exp(%a)";
                            NULL for a source (tp-ops.def says more) */
} TpOpInfo;

/* A function of the language that records other ops (relu, softmax). */
typedef struct
{
  const char *written;
  uint8_t form;          /* TpForm */
  uint8_t records;       /* TpOp: the op it is written for */
} TpCompositeInfo;

enum
{
#define TP_COMPOSITE_ROW(ID, ...) TP_COMPOSITE_COUNT_##ID,
#include "tp-ops.def"
  TP_N_COMPOSITES
};

extern const TpOpInfo tp_op_info[TP_N_OPS];
extern const TpCompositeInfo tp_composite_info[TP_N_COMPOSITES];

typedef struct
{
  uint32_t axis;
  uint32_t extent;
  uint8_t order[TP_MAX_RANK];
} TpAttr;

/* Limits on what a program may record, refused with a diagnostic.  The
 * fuzz build (tests/fuzz) lowers the element and work limits so every
 * input runs fast under the sanitizers; nothing else overrides them. */
#define TP_LIMIT_NODES          100000u
#define TP_LIMIT_TENSOR         (UINT64_C (1) << 22)
#ifndef TP_LIMIT_ELEMENTS
#define TP_LIMIT_ELEMENTS       (UINT64_C (1) << 24)
#endif
#ifndef TP_LIMIT_WORK
#define TP_LIMIT_WORK           (UINT64_C (1) << 30)
#endif
#define TP_LIMIT_DEPTH          256u

typedef enum
{
  TP_TAPE_OK,
  TP_TAPE_NO_MEMORY,
  TP_TAPE_TOO_MANY_NODES,
  TP_TAPE_TENSOR_TOO_BIG,
  TP_TAPE_TOO_MANY_ELEMENTS,
  TP_TAPE_TOO_MUCH_WORK,
} TpTapeError;

/* Why differentiate recorded a node it appended (tp-diff.c), for the
 * explain reading: one per appended node, in tape order. */
typedef enum
{
  TP_PROVENANCE_NONE,       /* no account: a node a rule forgot to note */
  TP_PROVENANCE_SEED,       /* d loss / d loss = 1; `of` is the loss */
  TP_PROVENANCE_RULE,       /* step `step` (0-based) of forward node `of`'s
                               backward rule, described by `phrase` */
  TP_PROVENANCE_ZERO,       /* the running sum of `of`'s gradient starts */
  TP_PROVENANCE_SHARE,      /* adds consumer `from`'s share to `of`'s sum,
                               the `step`th (1-based) share into it */
  TP_PROVENANCE_UNREACHED,  /* the zero gradient of `of`, which the loss
                               does not depend on */
} TpProvenanceRole;

typedef struct
{
  const char *phrase;  /* RULE: what the step computes, in the letters g
                          (the cotangent), a and b (the operands), y (the
                          forward value); else NULL */
  TpNode of;
  TpNode from;         /* SHARE: the consumer; else TP_NO_NODE */
  uint32_t step;
  uint8_t role;        /* TpProvenanceRole */
} TpProvenance;

typedef struct
{
  TpArena *arena;
  uint32_t len;
  uint32_t cap;
  uint8_t *op;
  TpNode (*arg)[2];
  TpShape *shape;
  TpAttr *attr;
  float **payload;          /* sources: volume elements; others NULL */
  uint32_t n_parameters;
  uint32_t n_inputs;
  uint64_t elements;        /* sum of every node's volume */
  uint64_t work;            /* interpreter multiply-adds, estimated */
  TpTapeError error;        /* why the last record failed */
  uint64_t error_volume;    /* the refused tensor's volume */
  /* Filled by tp_differentiate: provenance[k] is why it recorded node
   * derived + k, for k < n_provenance; NULL before it runs. */
  TpProvenance *provenance;
  TpNode derived;
  uint32_t n_provenance;
} TpTape;

void    tp_tape_init    (TpTape *tape, TpArena *arena);

/* Records one node and returns its index, or TP_NO_NODE with tape->error
 * set.  The result shape is inferred from the op and operands; `target`
 * gives it for Broadcast, Reshape and sources.  Callers check the
 * language's shape rules first: this only guards the limits. */
TpNode  tp_tape_record  (TpTape *tape, TpOp op, TpNode a, TpNode b,
                         const TpAttr *attr, const TpShape *target,
                         float *payload);

/* The interpreter's estimated work of recorded node i, as the tape counts
 * it against TP_LIMIT_WORK (the op's WORK column). */
uint64_t tp_tape_node_work (const TpTape *tape, TpNode i);

/* Room for a source's payload, after checking the element limits (so a
 * refused shape is never allocated).  NULL with tape->error set. */
float  *tp_tape_alloc_payload (TpTape *tape, const TpShape *shape);

/* The interpreter's estimated multiply-adds for node i (its op's row). */
uint64_t tp_tape_node_work (const TpTape *tape, TpNode i);

/* Conveniences over tp_tape_record. */
TpNode  tp_tape_fill    (TpTape *tape, TpOp op, const TpShape *shape,
                         float value);           /* a source filled with value */
TpNode  tp_tape_unary   (TpTape *tape, TpOp op, TpNode a);
TpNode  tp_tape_binary  (TpTape *tape, TpOp op, TpNode a, TpNode b);
TpNode  tp_tape_axis    (TpTape *tape, TpOp op, TpNode a, uint32_t axis);
TpNode  tp_tape_broadcast_along (TpTape *tape, TpNode a, uint32_t axis,
                                 uint32_t extent);
TpNode  tp_tape_shaped  (TpTape *tape, TpOp op, TpNode a,
                         const TpShape *shape); /* Broadcast, Reshape */
TpNode  tp_tape_permute (TpTape *tape, TpNode a, const uint8_t *order);

static inline bool
tp_tape_is_source (const TpTape *tape, TpNode i)
{
  return tp_op_info[tape->op[i]].arity == 0;
}

/* One describe line for node i, without the newline; its tokens go into
 * map (NULL for none), whose line the caller has opened. */
void    tp_tape_describe_line (const TpTape *tape, TpNode i, TpBuf *out,
                               TpMap *map);
/* The node lines [from, to), each with a newline, mapped with role. */
void    tp_tape_describe_range (const TpTape *tape, TpNode from, TpNode to,
                                TpBuf *out, TpMap *map, TpLineRole role);
/* "tape: N nodes, P parameters, I inputs" (with the given prefix), a
 * footer line of map. */
void    tp_tape_describe_total (const TpTape *tape, const char *prefix,
                                TpBuf *out, TpMap *map);

#endif /* TP_TAPE_H */
