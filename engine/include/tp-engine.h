/* tp-engine.h: the seam between the engine and every front end.
 *
 * One session compiles a program plus the reader's choices.  A compile
 * does what every reading needs: it reads the program, records its tape
 * and differentiates it.  Every reading and every teaching fact is
 * computed the first time it is asked for, and kept until the next
 * compile: asking for the spec costs the spec.  So a session is not
 * thread-safe even through `const` pointers: one thread at a time.
 *
 * Front ends (the command line, the GTK app, the wasm export) only
 * display what the session returns, the teaching model included: the
 * step-through's sentences, the charts' ticks and labels, the short number
 * format, the defaults.  Strings returned by tp_session_* are borrowed
 * from the session and stay valid until the next tp_session_compile or
 * tp_session_free, except where a function says the caller frees. */
#ifndef TP_ENGINE_H
#define TP_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The picture's layout cost budget (nodes + edges + ranks crossed by long
 * edges): a tape whose DOT would cost more is drawn reduced to its forward
 * band.  Front ends that lay the DOT out hand graphviz the same budget. */
#define TP_PICTURE_BUDGET 6000u

typedef enum
{
  TP_READING_SPEC,
  TP_READING_DERIVATIVE,
  TP_READING_PLAN,
  TP_READING_STABLEHLO,
  TP_READING_VALUES,
  TP_READING_DOT,
  TP_READING_SUMMARY,
  TP_READING_CHECK,     /* ours: the gradient check, the non-finite origin */
  TP_READING_EXPLAIN,   /* ours: one sentence per node */
  TP_READING_MEMORY,    /* ours: the plan's buffers */
  TP_READING_OPTIMIZED, /* ours: the exact rewrites, made and refused */
  TP_READING_FUSION,    /* ours: the plan's steps grouped into kernels */
  TP_READING_FORWARD,   /* ours: forward mode, the tangent tape */
  TP_READING_JAX,       /* ours: the same program in JAX */
  TP_N_READINGS
} TpReading;

typedef enum
{
  TP_STATUS_OK,         /* the program reads; every reading can be asked */
  TP_STATUS_REFUSED,    /* the program is refused; see the diagnostics */
  TP_STATUS_NO_MEMORY,  /* an allocation failed; a diagnostic says so */
} TpStatus;

typedef struct
{
  uint32_t line;        /* 1-based */
  uint32_t column;      /* 1-based, in characters */
  const char *message;  /* without any position prefix */
} TpDiag;

/* What the reader chose.  Every field may be zero: no target means "the
 * last scalar", no observe means "nothing extra".  optimize runs the exact
 * rewrites (the optimized reading) on the differentiated tape before the
 * plan; remat names statements to rematerialise, remat_auto picks them
 * (docs/language.md, plan).  Both change what is planned, run and shown
 * from the plan on, never a value. */
typedef struct
{
  const char *target;
  const char *const *observe;
  size_t n_observe;
  bool exact;
  bool optimize;
  const char *const *remat;
  size_t n_remat;
  bool remat_auto;
  /* forward mode's direction: NULL or "" for the seeded one, "NAME" for
   * 1 at the first element of that parameter, "NAME[i, j]" at that
   * element (docs/language.md, forward) */
  const char *direction;
  /* the reader needs neither the reading maps nor the nodes' source
   * spans (tp_session_source): a reader that only prints readings, as
   * the command line does unless its JSON holds the map or the sources.
   * No reading changes; the maps are empty, the JSON's "map" and
   * "sources" too. */
  bool no_map;
} TpChoices;

/* One entry per statement, in statement order, duplicates included. */
typedef struct
{
  const char *name;
  uint32_t node;
  uint32_t line;        /* the statement's line in the source, 1-based */
  uint32_t rank;
  const uint32_t *dims;
  bool scalar;
  bool parameter;
} TpName;

typedef struct _TpSession TpSession;

TpSession     *tp_session_new        (void);
void           tp_session_free       (TpSession *session);
TpStatus       tp_session_compile    (TpSession *session,
                                      const char *source,
                                      size_t length,
                                      const TpChoices *choices);
/* The text of one reading, "" when it does not apply. Borrowed. */
const char    *tp_session_reading    (const TpSession *session,
                                      TpReading which);
/* Its length in bytes (the reading is made when it is not yet). */
size_t         tp_session_reading_length (const TpSession *session,
                                          TpReading which);
/* The memory chart as SVG (docs/language.md, memory), "" when refused.
 * Deterministic bytes; each bar's group has the id `n<index>` of the
 * DOT.  Borrowed. */
const char    *tp_session_memory_svg (const TpSession *session);
const TpDiag  *tp_session_diags      (const TpSession *session,
                                      size_t *n_diags);
const TpName  *tp_session_names      (const TpSession *session,
                                      size_t *n_names);
/* The nodes the StableHLO module takes as %arg0, %arg1, ... in order
 * (borrowed; NULL with *n_args 0 when the program was refused). */
const uint32_t *tp_session_arguments (const TpSession *session,
                                      size_t *n_args);
/* The last compile's status, or TP_STATUS_NO_MEMORY once a reading or a
 * fact asked for later ran out of memory: that reading is then "" (what
 * was already handed out stays valid) and the diagnostics say "out of
 * memory" until the next compile. */
TpStatus       tp_session_status     (const TpSession *session);
/* A long teaching computation (the gradient check) asks interrupted
 * (data) now and then; when it answers true the computation stops, the
 * reading asked for is "" and nothing of it is kept, so the next ask
 * starts it again, and tp_session_interrupted says so until then.  A
 * front end that checks in the background sets it to its "the program
 * changed" flag.  interrupted NULL (the default) never stops.  The
 * function is called on the thread that asks. */
void           tp_session_set_interrupt (TpSession *session,
                                         bool (*interrupted) (void *data),
                                         void *data);
/* Whether the last reading or fact asked for was stopped so (a JSON with
 * the check member is then NULL). */
bool           tp_session_interrupted (const TpSession *session);

/* The node the derivative differentiates (the target choice resolved:
 * the named statement, else the last rank-0 one, else the last), and its
 * name; TP_MAP_NO_NODE and NULL when refused. */
uint32_t       tp_session_target     (const TpSession *session);
const char    *tp_session_target_name (const TpSession *session);
/* Node's display name (docs/decisions.md D9): the first statement bound
 * to it, or NULL when no statement names it (a node differentiate
 * appended, a value inside an expression).  Borrowed. */
const char    *tp_session_display_name (const TpSession *session,
                                        uint32_t node);

/* {==== the reading map ====}
 *
 * Beside the text of spec, derivative, plan, stablehlo and values, the
 * session gives their structure, produced by each writer as it writes:
 * per line the node it stands for and its role, per token its byte span
 * within the line, its class and the node it refers to.  A front end
 * colours, decorates and cross-highlights from these alone.
 *
 * Lines are 0-based and count every '\n'-ended line of the reading.
 * Spans are UTF-8 byte offsets within the line, end exclusive, in line
 * order and never overlapping.  Everything is borrowed from the session
 * and valid until the next compile; a refused program has empty maps. */

#define TP_MAP_NO_NODE UINT32_MAX
/* The most refs one reading's map holds: past it the reading's lines are
 * still all mapped (node and role) but their tokens are not, as a
 * 100,000-node listing is too long to colour anyway.  This bounds the map
 * and the JSON, like the values budget bounds the values. */
#define TP_MAP_REFS (UINT32_C (1) << 17)

typedef enum
{
  TP_ROLE_BLANK,        /* an empty line */
  TP_ROLE_NODE,         /* a node's line (spec, derivative before the
                           divider, a StableHLO node's lowering, a values
                           statement) */
  TP_ROLE_DERIVED,      /* a node appended by differentiate (derivative) */
  TP_ROLE_DIVIDER,      /* the derivative's "-- N nodes appended" line */
  TP_ROLE_NOTE,         /* why there is no derivative */
  TP_ROLE_FOOTER,       /* "tape: ...", "plan: ...", "live volume: ..." */
  TP_ROLE_KEPT,         /* a plan line whose value stays readable */
  TP_ROLE_FREED,        /* a plan line whose buffer is freed */
  TP_ROLE_RESULT,       /* the StableHLO return */
  TP_ROLE_GRADIENT,     /* a values line "d loss / d w ..." */
  TP_ROLE_FRAME,        /* StableHLO module and function lines, braces */
  TP_N_ROLES
} TpLineRole;

typedef enum
{
  TP_TOKEN_INDEX,       /* the line's own node index */
  TP_TOKEN_OP,          /* an op name: "MatMul", "stablehlo.add", "func.func" */
  TP_TOKEN_SOURCE,      /* a source's op name: "Leaf", "Parameter", "Input" */
  TP_TOKEN_OPERAND,     /* a node written by its index: operands, "freed
                           after 17", "is node 20", "at node 10" */
  TP_TOKEN_DETAIL,      /* an op's parameter: "axis=1", "shape=[2, 3]" */
  TP_TOKEN_SHAPE,       /* "[2, 3]" */
  TP_TOKEN_LIVE,        /* "kept", "freed after" */
  TP_TOKEN_NUMBER,      /* a number; in values the whole tensor (or its
                           summary); a StableHLO constant's elements one
                           by one up to 2^16 a module, a bigger constant's
                           bracketed list as one token */
  TP_TOKEN_NAME,        /* a statement's name, a parameter's display name */
  TP_TOKEN_SSA,         /* "%v3", "%v3_peak", "%arg0": the node whose value
                           it is (a Sum of a rank-0 value is written with
                           its operand's name; its uses still refer to the
                           Sum) */
  TP_TOKEN_KEYWORD,     /* "module", "return", "dense", "dims", ... */
  TP_TOKEN_TYPE,        /* "tensor<2x3xf32>" */
  TP_TOKEN_SYMBOL,      /* "@topos", "@main" */
  TP_TOKEN_ATTRIBUTE,   /* "GE", "FLOAT", "dense_resource<__elided__>" */
  TP_TOKEN_COMMENT,     /* reserved: no reading writes comments yet */
  TP_N_TOKENS
} TpTokenClass;

typedef struct
{
  uint32_t node;        /* TP_MAP_NO_NODE when the line stands for none */
  TpLineRole role;
  uint32_t first_ref;   /* the line's refs: [first_ref, first_ref + n_refs) */
  uint32_t n_refs;
} TpMapLine;

typedef struct
{
  uint32_t line;
  uint32_t start;       /* bytes within the line */
  uint32_t end;         /* exclusive */
  TpTokenClass klass;
  uint32_t node;        /* the node referred to, or TP_MAP_NO_NODE */
} TpMapRef;

/* The source characters of the expression that recorded a node. */
typedef struct
{
  uint32_t line;        /* 1-based, as in diagnostics */
  uint32_t first;       /* first column, 1-based, in characters */
  uint32_t last;        /* last column, inclusive */
} TpSourceSpan;

/* One parameter and its gradient, in declaration order. */
typedef struct
{
  const char *name;     /* its display name (docs/decisions.md D9) */
  uint32_t parameter;
  uint32_t gradient;
} TpGradient;

/* TP_READING_SPEC .. TP_READING_VALUES, TP_READING_OPTIMIZED,
 * TP_READING_FUSION and TP_READING_FORWARD have maps; the others (and a
 * session without a map) have 0 lines and 0 refs. */
size_t         tp_session_map_n_lines (const TpSession *session,
                                       TpReading which);
size_t         tp_session_map_n_refs  (const TpSession *session,
                                       TpReading which);
/* False when line or index is out of range. */
bool           tp_session_map_line    (const TpSession *session,
                                       TpReading which, size_t line,
                                       TpMapLine *out);
bool           tp_session_map_ref     (const TpSession *session,
                                       TpReading which, size_t index,
                                       TpMapRef *out);
/* The ref of line that covers byte offset `at` (start <= at < end), for
 * what is under a pointer or the cursor; false when none does. */
bool           tp_session_map_ref_at  (const TpSession *session,
                                       TpReading which, size_t line,
                                       uint32_t at, TpMapRef *out);
/* Whether reading which's refs stopped at TP_MAP_REFS. */
bool           tp_session_map_cut     (const TpSession *session,
                                       TpReading which);
/* Nodes recorded by the program itself; nodes at or after it were
 * appended by differentiate.  0 when refused. */
uint32_t       tp_session_spec_nodes  (const TpSession *session);
/* Per parameter its gradient node; NULL with *n 0 when nothing was
 * differentiated. */
const TpGradient *tp_session_gradients (const TpSession *session,
                                        size_t *n_gradients);
/* The source span of node's expression; false for a node no expression
 * recorded (differentiate's) or out of range. */
bool           tp_session_source      (const TpSession *session,
                                       uint32_t node, TpSourceSpan *out);
/* Whether the picture's DOT was reduced to fit its layout budget. */
bool           tp_session_picture_reduced (const TpSession *session);
const char    *tp_line_role_name      (TpLineRole role);
const char    *tp_token_class_name    (TpTokenClass klass);

/* Every node's value, not only the named statements' (the JSON's
 * "nodes"): the node count, and node's data (borrowed, row-major) with its
 * rank and extents; NULL when the program was refused or node is out of
 * range. */
uint32_t       tp_session_n_nodes    (const TpSession *session);
const float   *tp_session_node_value (const TpSession *session,
                                      uint32_t node, uint32_t *rank,
                                      const uint32_t **dims);

/* Node's value written as the values reading writes a tensor (the bare
 * element for rank 0, nested "[a, b]" lists otherwise), at most
 * max_elements in full: a bigger tensor is summarised as the values
 * reading summarises one.  NULL when the program was refused, node is out
 * of range or memory runs out; the caller frees it with tp_string_free. */
char          *tp_session_node_value_text (const TpSession *session,
                                           uint32_t node,
                                           uint64_t max_elements);

/* A number as the readings write an f32 (Rust Display: "0.6399999",
 * "NaN", "-inf"), or NULL when memory runs out; the caller frees it with
 * tp_string_free. */
char          *tp_f32_text           (float value);

/* What the check reading concludes (docs/language.md, check): its verdict
 * sentence, e.g. "all gradients agree with finite differences" (borrowed,
 * not NUL-terminated: `verdict_length` bytes), and where a non-finite
 * value is born. */
typedef enum
{
  TP_OUTCOME_AGREE,       /* every checked gradient agrees (kinks aside) */
  TP_OUTCOME_DIFFER,      /* at least one gradient differs */
  TP_OUTCOME_NONFINITE,   /* a gradient or the target is not finite */
  TP_OUTCOME_UNCHECKED,   /* no derivative, too big, or nothing checked */
} TpCheckOutcome;

typedef struct
{
  TpCheckOutcome outcome;
  const char *verdict;
  size_t verdict_length;
  uint32_t differing;     /* gradients that differ */
  bool nonfinite;         /* some value is NaN or infinite */
  uint32_t nonfinite_node;  /* the first such node, in tape order */
} TpCheckSummary;

/* False when the program was refused. */
bool           tp_session_check_summary (const TpSession *session,
                                         TpCheckSummary *out);

/* {==== the step-through ====}
 *
 * The plan's schedule, one step per evaluated node in tape order: the
 * forward program first, then the gradient differentiate appended.  The
 * numbers are the memory reading's (docs/language.md, memory), so they
 * agree with the plan's "freed after K" and "kept". */
typedef enum
{
  TP_NODE_UNEVALUATED,  /* the plan does not evaluate it */
  TP_NODE_PENDING,      /* not computed yet at this step */
  TP_NODE_LIVE,         /* computed, its buffer still held */
  TP_NODE_FREED,        /* computed, its buffer released */
} TpNodeState;

typedef struct
{
  uint32_t node;        /* the node this step computes */
  bool gradient;        /* appended by differentiate (node >= spec nodes) */
  bool kept;            /* a result: its buffer runs to the last step */
  uint32_t last;        /* the last step its buffer is live */
  uint64_t elements;    /* its buffer's elements */
  uint64_t live;        /* elements live at this step, its own included */
  bool again;           /* it computes a rematerialised node again */
} TpStep;

/* 0 when refused.  A node rematerialised (--remat) has two steps: the
 * forward one, and the one that computes it again for the gradient. */
size_t         tp_session_n_steps    (const TpSession *session);
/* False when k is out of range. */
bool           tp_session_step       (const TpSession *session, size_t k,
                                      TpStep *out);
/* The (first) step that computes node; false when the plan does not
 * evaluate it. */
bool           tp_session_node_step  (const TpSession *session,
                                      uint32_t node, size_t *k);
/* Node's state after step k has run; TP_NODE_UNEVALUATED also for a node
 * or k out of range. */
TpNodeState    tp_session_node_state (const TpSession *session, size_t k,
                                      uint32_t node);

/* Why differentiate recorded a node (the explain reading's replay of its
 * walk).  For a share (an Add), `of` is the forward node whose gradient
 * grows, `from` the consumer whose share it is, `share` the node holding
 * that share and `sum` the running sum it is added to. */
typedef enum
{
  TP_ORIGIN_FORWARD,    /* recorded by the program */
  TP_ORIGIN_SEED,       /* d target / d target = 1; `of` is the target */
  TP_ORIGIN_RULE,       /* a node of forward node `of`'s backward rule */
  TP_ORIGIN_ZERO,       /* the gradient of `of` starts at zero */
  TP_ORIGIN_SHARE,      /* adds one consumer's share to `of`'s gradient */
  TP_ORIGIN_UNREACHED,  /* `of` is a parameter the target does not use */
  TP_ORIGIN_APPENDED,   /* appended by differentiate, no finer account */
} TpOriginRole;

typedef struct
{
  TpOriginRole role;
  uint32_t of;          /* TP_MAP_NO_NODE when the role has none */
  uint32_t from;
  uint32_t share;
  uint32_t sum;
  uint32_t count;       /* a share: 1 for the first added to `of`, ... */
} TpOrigin;

/* False for a node out of range or a refused program. */
bool           tp_session_origin     (const TpSession *session,
                                      uint32_t node, TpOrigin *out);
/* Node's line of the explain reading ("N Op: sentence", without the
 * newline; borrowed, not NUL-terminated), or NULL past the nodes the
 * reading explains. */
const char    *tp_session_explanation (const TpSession *session,
                                       uint32_t node, size_t *length);

/* The sentence both front ends show for step k of the step-through: the
 * step counted from 1 ("step 12 of 17"), the node and its half, and for
 * a share the share sentence, e.g. "step 12 of 17: node 11 Add, gradient:
 * adds share 2 to d loss / d error, the one that flows back through node
 * 5 Mul".  Borrowed, not NUL-terminated; NULL when k is out of range. */
const char    *tp_session_step_text  (const TpSession *session, size_t k,
                                      size_t *length);
/* Every node's state after step k (a TpNodeState each) into
 * states[0 .. n), n at most tp_session_n_nodes; false when k is out of
 * range. */
bool           tp_session_node_states (const TpSession *session, size_t k,
                                       uint8_t *states, size_t n);
/* The plan's peak live volume: its elements, the node and the step where
 * it is reached; false when the plan evaluates nothing. */
bool           tp_session_memory_peak (const TpSession *session,
                                       uint64_t *elements, uint32_t *node,
                                       size_t *step);

/* {==== the compiler's passes ====}
 *
 * What the optimized and fusion readings and the --remat what-if find,
 * as data (docs/language.md, optimized, fusion, plan). */
typedef struct
{
  uint32_t nodes_before;    /* the plan's evaluated nodes, recorded tape */
  uint32_t nodes_after;     /* and after the rewrites */
  uint64_t work_before;     /* their estimated multiply-adds */
  uint64_t work_after;
  size_t n_rewrites;        /* rewrites made, dead nodes included */
  size_t n_kept;            /* tempting rewrites kept: not exact */
} TpOptimizeSummary;

/* What --optimize does (or would do); false when refused. */
bool           tp_session_optimize_summary (const TpSession *session,
                                            TpOptimizeSummary *out);

typedef struct
{
  size_t n_kernels;         /* every kernel, the arguments' included */
  size_t n_computed;        /* kernels that compute */
  size_t n_fused;           /* kernels of more than one node */
  uint64_t bytes_unfused;   /* every node reads its operands, writes itself */
  uint64_t bytes_fused;     /* each kernel reads what comes in, writes what
                               leaves */
  const char *sentence;     /* the saving in words; borrowed, not
                               NUL-terminated */
  size_t sentence_length;
} TpFusionSummary;

/* The fusion of the plan (as planned: optimised, rematerialised); false
 * when refused. */
bool           tp_session_fusion     (const TpSession *session,
                                      TpFusionSummary *out);
/* The picture's DOT with the fusion's kernels drawn as clusters (each
 * kernel of two nodes or more a dashed box "kernel K", in place of the
 * forward and gradient bands), for a front end's kernels toggle; "" when
 * refused.  Borrowed. */
const char    *tp_session_dot_kernels (const TpSession *session);
/* The picture's DOT with forward mode's tangent nodes as a third band
 * (cluster "tangent", ids t{index}, beside the forward and gradient
 * bands), for a front end's tangent-band toggle; "" without a parameter,
 * when the tangent tape was cut by a limit, or when refused.  Borrowed. */
const char    *tp_session_dot_tangent (const TpSession *session);
/* The one sentence a screen reader hears for the last compile (the
 * page's live region): "line L, column C: MESSAGE" for the first
 * diagnostic, with " (and N more)" when there are others, or "the
 * program reads: " and the summary's first line.  Borrowed. */
const char    *tp_session_announcement (const TpSession *session);
/* Node's kernel (its first step's, in the fusion reading's numbering),
 * or TP_MAP_NO_NODE when the plan does not evaluate it. */
uint32_t       tp_session_node_kernel (const TpSession *session,
                                       uint32_t node);

typedef struct
{
  bool on;                  /* --remat was given */
  bool automatic;           /* its set was picked by auto */
  uint32_t n_candidates;    /* nodes that can be rematerialised */
  uint32_t n_chosen;        /* nodes rematerialised */
  uint64_t peak_before;     /* the peak live elements without it */
  uint64_t peak_after;      /* with it (peak_before when off) */
  uint64_t work_extra;      /* the recomputations' multiply-adds */
  const char *sentence;     /* the outcome, or (off) what can be done;
                               borrowed, not NUL-terminated */
  size_t sentence_length;
} TpRematSummary;

/* False when refused. */
bool           tp_session_remat      (const TpSession *session,
                                      TpRematSummary *out);
/* Whether node can be rematerialised: the plan evaluates it, it is
 * computed (no source), no result, and read by a forward node and by a
 * gradient node.  Its statement's name is what --remat takes. */
bool           tp_session_remat_candidate (const TpSession *session,
                                           uint32_t node);
/* Whether node is rematerialised in this compile. */
bool           tp_session_rematerialised (const TpSession *session,
                                          uint32_t node);

/* {==== numbers and charts outside the readings ====}
 *
 * The readings keep the original's formats.  Every other number a front
 * end shows (a loss beside a slider, a chart's labels, a count in a
 * sentence) is written by one of these, so the desktop and the page say
 * the same. */

#define TP_SHORT_NUMBER_MAX 16

/* value in the short format: three significant digits, plain between
 * 0.001 and 99999 ("0.25", "16", "0.00123"; the digits before the point
 * all kept: "1235" for 1234.5), else two significant digits with an
 * exponent ("4.4e-13", "1.8e39"); "0", "-0", "NaN", "inf", "-inf".
 * Writes the text and a NUL into out and returns its length. */
size_t         tp_short_number       (double value,
                                      char out[TP_SHORT_NUMBER_MAX]);
/* A count with thousands grouped by commas: "2,442,657,804".  out has
 * room for 27 bytes; returns the length. */
size_t         tp_grouped_number     (uint64_t value, char out[27]);

/* One labelled tick: where it sits along its axis (0 at the low end, 1 at
 * the high end), the value it marks and its label (short format). */
typedef struct
{
  double at;
  double value;
  const char *label;
} TpTick;

/* A chart as data both front ends draw: the axes' titles, the range each
 * axis spans, the scale of the vertical one and the labelled ticks, at
 * most a handful per axis so labels never pile up.  Borrowed from what
 * gave it. */
typedef struct
{
  const char *title;
  const char *x_title;
  const char *y_title;
  double x_low, x_high;
  double y_low, y_high;       /* values, also on a log scale */
  bool y_log;                 /* the vertical axis is logarithmic */
  const TpTick *x_ticks;
  size_t n_x_ticks;
  const TpTick *y_ticks;
  size_t n_y_ticks;
} TpChart;

/* Where value sits along the chart's vertical axis: 0 at y_low, 1 at
 * y_high (on the log scale, of its logarithm); NaN for a value the chart
 * cannot plot (not finite, or not positive on a log scale). */
double         tp_chart_y            (const TpChart *chart, double value);

/* The memory chart's axes: steps along, live elements up. */
bool           tp_session_memory_chart (const TpSession *session,
                                        TpChart *out);

/* {==== defaults ====}
 *
 * One place and one value each for what both front ends would otherwise
 * choose on their own. */
typedef struct
{
  uint32_t debounce_ms;       /* typing pause before a program is read */
  uint32_t fold_limit;        /* a reading's line longer than this many
                                 bytes is folded ... */
  uint32_t fold_head;         /* ... to its first fold_head bytes, " … ", */
  uint32_t fold_tail;         /* its last fold_tail bytes and a count */
  uint32_t play_interval_ms;  /* the step-through's play: one step each */
  uint32_t readable_label_px; /* the picture opens at a zoom that makes a
                                 node's first label line this tall */
  uint32_t train_steps;       /* training, when the program asks nothing */
  const char *train_rate;
} TpDefaults;

const TpDefaults *tp_defaults        (void);

/* The training a program asks for with a `# train it:` comment line
 * (docs/language.md, train), else the defaults. */
typedef struct
{
  uint32_t steps;
  const char *learning_rate;  /* text, as tp_session_train takes it;
                                 borrowed */
  size_t learning_rate_length;
  bool from_program;          /* read from the program's own line */
  uint32_t line;              /* that line, 1-based; 0 when none */
} TpTrainSettings;

/* False when the program was refused. */
bool           tp_session_train_settings (const TpSession *session,
                                          TpTrainSettings *out);

/* {==== training ====}
 *
 * Gradient descent on the parameters of the last compile (docs/language.md,
 * train).  Each step runs the forward program and its gradient with the
 * current parameters and the seeded inputs, records the target's value,
 * and updates every parameter p to fl(p - fl(rate * g)) in f32; after the
 * last step one more run records the final value, so STEPS steps give
 * STEPS + 1 values.  Refused, never attempted: a program with no
 * derivative (for the derivative reading's reason), more than
 * TP_TRAIN_MAX_STEPS steps, or STEPS + 1 runs over TP_TRAIN_WORK
 * estimated multiply-adds.  A NaN or infinity stops it at the step and
 * node where it was born. */
#define TP_TRAIN_MAX_STEPS 10000u
#define TP_TRAIN_WORK (UINT64_C (1) << 31)

typedef struct _TpTrain TpTrain;

/* learning_rate is text, read as the language reads a number (a leading
 * minus allowed).  NULL only when memory runs out; else check
 * tp_train_ok.  The result does not depend on the session afterwards. */
TpTrain       *tp_session_train      (const TpSession *session,
                                      uint32_t steps,
                                      const char *learning_rate,
                                      size_t length);
/* False when the training was refused; tp_train_error says why. */
bool           tp_train_ok           (const TpTrain *train);
const char    *tp_train_error        (const TpTrain *train);
/* The train reading: "step K  loss L" per value, a blank line, the
 * parameters after the last update in the values reading's line format,
 * and the stop when a non-finite value stopped it.  "" when refused. */
const char    *tp_train_reading      (const TpTrain *train);
/* The reading's last part: the parameters after the last update, one
 * values line each ("" when refused).  Borrowed. */
const char    *tp_train_parameters   (const TpTrain *train);
/* The target's values, one per run (fewer when it stopped). */
const float   *tp_train_losses       (const TpTrain *train, size_t *n);
/* Whether a non-finite value stopped it: at which step (the run) and in
 * which node it was born. */
bool           tp_train_stopped      (const TpTrain *train, uint32_t *step,
                                      uint32_t *node);
/* The loss curve as SVG, deterministic bytes (log scale when the values
 * span more than two decades).  "" when refused. */
const char    *tp_train_svg          (const TpTrain *train);
/* The sentence that heads a training: "trained 100 steps: loss 16 to
 * 0.0010", or where a NaN or an infinity stopped it ("stopped at step
 * 37 of 100: node 9 Exp gives inf"), or why it was refused.  Borrowed. */
const char    *tp_train_summary      (const TpTrain *train);
/* How many steps ran: the steps asked for, or the step it stopped at. */
uint32_t       tp_train_steps_run    (const TpTrain *train);
/* The parameters after k steps (0 <= k <= tp_train_steps_run), in
 * tp_train_parameters' format: the same bits as a training of k steps,
 * replayed from the nearest step the training kept.  Borrowed until the
 * next call on this training; NULL when k is out of range or memory
 * runs out. */
const char    *tp_train_parameters_at (TpTrain *train, uint32_t k);
/* The same lines with every number in the short format (tp_short_number:
 * "0.182", "-2.5e19"), what a front end shows of the parameters outside
 * the readings; k may be the last step too.  Borrowed until the next
 * call of this function on this training; NULL as above. */
const char    *tp_train_parameters_short_at (TpTrain *train, uint32_t k);
/* The program's text with each parameter's initial value replaced by its
 * value after k steps, written as a literal (docs/language.md, train), so
 * that reading it again shows what the trained program computes.  The
 * caller frees it with tp_string_free; NULL when k is out of range,
 * memory runs out, or a value is not finite (*why then says so,
 * borrowed). */
char          *tp_train_apply        (TpTrain *train, uint32_t k,
                                      const char **why);
/* The loss curve's axes (steps along, the target's value up). */
bool           tp_train_chart        (const TpTrain *train, TpChart *out);
/* The "train" JSON object (docs/language.md); free with tp_string_free. */
char          *tp_train_to_json      (const TpTrain *train);
/* tp_session_to_json with the train object under "train". */
char          *tp_session_to_json_with_train (const TpSession *session,
                                              const TpTrain *train);
void           tp_train_free         (TpTrain *train);

/* {==== forward mode ====}
 *
 * The forward reading's facts (docs/language.md, forward): its tangent
 * tape is the program's nodes, numbered as everywhere, then the tangent
 * nodes [first, end), numbered after the spec's nodes as differentiate's
 * are (the same numbers, other nodes: they index the forward reading's
 * map, tp_session_forward_value and the tangent step-through). */
typedef struct
{
  uint32_t first;             /* the tangent nodes: [first, end) */
  uint32_t end;
  uint32_t tangent;           /* the target's tangent node, TP_MAP_NO_NODE
                                 when a limit stopped the recording */
  bool one_hot;               /* the direction is one element's */
  const char *direction_error;  /* why the direction asked for was not
                                   used, or NULL; borrowed */
  bool compared;              /* a reverse-mode gradient to compare with */
  double reverse;             /* the gradients' dot product with v */
  bool agrees;                /* within the documented tolerance */
  uint64_t work_forward;      /* the whole gradient by forward mode */
  uint64_t work_reverse;      /* and by reverse mode (0 when not compared) */
  const char *verdict;        /* the sentences, borrowed, not NUL-terminated */
  size_t verdict_length;
  const char *cost;
  size_t cost_length;
} TpForwardSummary;

/* False when refused, out of memory or there is no parameter. */
bool           tp_session_forward    (const TpSession *session,
                                      TpForwardSummary *out);
/* The tangent step-through: one step per tangent node, in order; step k's
 * sentence ("tangent step 3 of 5: node 8 Mul, the tangent rule of node 5
 * Mul (loss): ta * b, ...; gives 8"), borrowed, not NUL-terminated; NULL
 * when k is out of range.  Step k computes node first + k. */
size_t         tp_session_forward_n_steps (const TpSession *session);
const char    *tp_session_forward_step_text (const TpSession *session,
                                             size_t k, size_t *length);
/* A node's value on the tangent tape (a program node's, or a tangent
 * node's), as tp_session_node_value gives one; NULL out of range. */
const float   *tp_session_forward_value (const TpSession *session,
                                         uint32_t node, uint32_t *rank,
                                         const uint32_t **dims);

/* The JSON object with every reading, or NULL when memory runs out; the
 * caller frees it with tp_string_free. */
char          *tp_session_to_json    (const TpSession *session);
/* The same object without its "map" member (every other member's bytes
 * as there), for a front end that takes the maps through
 * tp_session_map_line and tp_session_map_ref: the map is most of a big
 * program's JSON.  Nor "forward", "jax", "dot_kernels" and "dot_tangent", which a front end asks for
 * with tp_session_to_json_members when it shows them. */
char          *tp_session_to_json_without_map (const TpSession *session);

/* {==== the JSON's members ====}
 *
 * The JSON object's members in the order it writes them (docs/language.md,
 * The JSON object); "train" comes last, and only with a training. */
typedef enum
{
  TP_JSON_NAMES,
  TP_JSON_SPEC,
  TP_JSON_DERIVATIVE,
  TP_JSON_PLAN,
  TP_JSON_STABLEHLO,
  TP_JSON_VALUES,
  TP_JSON_DOT,
  TP_JSON_SUMMARY,
  TP_JSON_TARGET,
  TP_JSON_OBSERVE,
  TP_JSON_TENSORS,
  TP_JSON_GRADIENTS,
  TP_JSON_ARGUMENTS,
  TP_JSON_RESULTS,
  TP_JSON_DIAGNOSTICS,
  TP_JSON_CHECK,
  TP_JSON_EXPLAIN,
  TP_JSON_ORIGINS,
  TP_JSON_MEMORY,
  TP_JSON_MEMORY_SVG,
  TP_JSON_MAP,
  TP_JSON_SPEC_NODES,
  TP_JSON_GRADIENT_NODES,
  TP_JSON_SOURCES,
  TP_JSON_PICTURE,
  TP_JSON_NODES,
  TP_JSON_STEPS,
  TP_JSON_TARGET_NODE,
  TP_JSON_DISPLAY_NAMES,
  TP_JSON_MEMORY_CHART,
  TP_JSON_TRAIN_SETTINGS,
  TP_JSON_DEFAULTS,
  TP_JSON_OPTIMIZED,
  TP_JSON_FUSION,
  TP_JSON_REMAT,
  TP_JSON_FORWARD,
  TP_JSON_JAX,
  TP_JSON_DOT_KERNELS,
  TP_JSON_DOT_TANGENT,
  TP_JSON_ANNOUNCEMENT,
  TP_N_JSON_MEMBERS
} TpJsonMember;

#define TP_JSON_MEMBER(m) (UINT64_C (1) << (m))
#define TP_JSON_ALL (TP_JSON_MEMBER (TP_N_JSON_MEMBERS) - 1)

const char    *tp_json_member_name   (TpJsonMember member);
/* False when name (length bytes) names no member. */
bool           tp_json_member_from_name (const char *name, size_t length,
                                         TpJsonMember *member);
/* The JSON object with only the members whose TP_JSON_MEMBER bit is set,
 * in the usual order; each member's bytes are the same as in the whole
 * object (the output budget is spent as it would be there), and only
 * what those members need is computed.  NULL when memory runs out or an
 * interrupt stopped the check (tp_session_set_interrupt). */
char          *tp_session_to_json_members (const TpSession *session,
                                           uint64_t members);
/* The same object, handed to write in pieces as it is written (a front
 * end that writes it to a file or a socket never holds it whole): write
 * returns false to stop.  False when memory ran out, an interrupt stopped
 * the check, or write failed; what was written before is then only part
 * of the object. */
bool           tp_session_write_json (const TpSession *session,
                                      uint64_t members,
                                      bool (*write) (const char *data,
                                                     size_t length,
                                                     void *user),
                                      void *user);
/* Frees a string the engine returned, with the allocator it came from. */
void           tp_string_free        (char *text);

const char    *tp_reading_name       (TpReading which);
bool           tp_reading_from_name  (const char *name,
                                      TpReading *which);

/* Lessons, the course a teacher writes and the engine grades. */
#include "tp-engine-lesson.h"

#ifdef __cplusplus
}
#endif

#endif /* TP_ENGINE_H */
