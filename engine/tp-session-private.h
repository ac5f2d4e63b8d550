/* tp-session-private.h: the inside of a session, shared by its three
 * files: tp-session.c (the compile, and each reading made the first time
 * it is asked for), tp-session-json.c (the JSON object) and
 * tp-session-teach.c (the teaching facts: the check's summary, the
 * step-through, the charts, the training). */
#ifndef TP_SESSION_PRIVATE_H
#define TP_SESSION_PRIVATE_H

#if !defined (TP_ENGINE_COMPILATION) && !defined (TP_ENGINE_INTERNAL)
#error "tp-session-private.h is internal to the engine: outside it, include tp-engine.h"
#endif

#include "tp-engine.h"
#include "tp-engine-testing.h"

#include "tp-alloc.h"
#include "tp-buf.h"
#include "tp-chart.h"
#include "tp-check.h"
#include "tp-explain.h"
#include "tp-forward.h"
#include "tp-map.h"
#include "tp-memory.h"
#include "tp-parse.h"
#include "tp-plan.h"

/* The longest program text a session keeps a copy of, for a training to
 * replay its steps and write the program again (tp_train_apply). */
#define TP_SOURCE_KEPT (UINT64_C (1) << 20)

/* The step-through's sentences made at once (and written in the JSON);
 * a later step's is made when it is asked for (tp_session_step_text), so
 * a program of 100,000 steps does not hold 100,000 sentences. */
#define TP_STEP_TEXTS 8192u

/* What a session computes on demand, each at most once a compile.  A
 * stage names the stages it stands on in tp_session_need's table. */
typedef enum
{
  TP_STAGE_SPEC,          /* the spec's text and map */
  TP_STAGE_DERIVATIVE,    /* the derivative's text and map */
  TP_STAGE_RUN,           /* the interpreter: every node's value */
  TP_STAGE_LOWER,         /* the plan, and the StableHLO arguments */
  TP_STAGE_PLAN,          /* the plan's text and map */
  TP_STAGE_STABLEHLO,     /* the StableHLO text and map */
  TP_STAGE_VALUES,        /* the values' text and map */
  TP_STAGE_NONFINITE,     /* where a non-finite value is born */
  TP_STAGE_DOT,           /* the picture */
  TP_STAGE_SUMMARY,
  TP_STAGE_CHECK,         /* the gradient check and its reading */
  TP_STAGE_EXPLAIN,       /* the explain reading and the origins */
  TP_STAGE_MEMORY,        /* the buffers and the memory reading */
  TP_STAGE_MEMORY_SVG,
  TP_STAGE_STEPS,         /* the step-through's sentences */
  TP_STAGE_MEMORY_CHART,  /* the memory chart's axes */
  TP_STAGE_DIRECTION,     /* forward mode's direction */
  TP_STAGE_FORWARD,       /* the tangent tape and the forward reading */
  TP_STAGE_JAX,           /* the JAX program */
  TP_N_STAGES
} TpStage;

struct _TpSession
{
  const TpAllocator *allocator; /* kept across compiles; NULL: libc */
  TpInterrupt interrupt;        /* kept across compiles */
  bool interrupted;             /* the last stage asked for was stopped */
  bool stage_interrupted;       /* set by a stage's builder */
  bool map_off;                 /* kept across compiles */
  uint64_t computed[TP_N_COMPUTATIONS];   /* kept across compiles */
  TpMap maps[TP_MAP_SLOTS];     /* their storage is kept across compiles */

  TpArena arena;
  TpProgram prog;
  bool have_prog;
  TpStatus status;
  uint32_t done;                /* a bit per TpStage computed */
  char *readings[TP_N_READINGS];
  TpDiag diag;
  char *diag_message;
  size_t n_diags;
  TpName *names;
  size_t n_names;
  const char *source;           /* the program's text, a copy; NULL when
                                   over TP_SOURCE_KEPT */
  size_t source_len;
  bool exact;

  /* what the compile resolved */
  const char *target_name;      /* borrowed from the program */
  TpNode target;
  const char **observe_names;
  TpNode *observe;
  uint32_t n_observe;
  uint32_t spec_nodes;
  TpNode *wrt;                  /* parameters in declaration order */
  TpNode *grads;                /* their gradients, when differentiated */
  uint32_t n_wrt;
  bool differentiated;
  TpNode *display;              /* per node: first statement naming it */
  TpGradient *gradients;        /* per parameter, when differentiated */
  const char **param_names;     /* per parameter, its display name */
  TpTrainSettings settings;

  /* the stages' results */
  float **values;               /* TP_STAGE_RUN */
  TpPlan plan;                  /* TP_STAGE_LOWER */
  TpNode *args;
  uint32_t n_args;
  TpNonfinite nonfinite;        /* TP_STAGE_NONFINITE */
  bool reduced;                 /* TP_STAGE_DOT */
  TpCheck check;                /* TP_STAGE_CHECK */
  TpCheckVerdict verdict;
  TpExplainOrigin *origins;     /* TP_STAGE_EXPLAIN: per node */
  uint32_t *explained;          /* per explained node, its line's offset */
  uint32_t n_explained;         /* and one more: the end */
  TpMemory memory;              /* TP_STAGE_MEMORY */
  char *memory_svg;             /* TP_STAGE_MEMORY_SVG */
  char *step_text;              /* TP_STAGE_STEPS: the first sentences ... */
  uint32_t *step_at;            /* ... step k's at [step_at[k], step_at[k + 1]) */
  uint32_t n_step_texts;        /* at most TP_STEP_TEXTS */
  char *late_step;              /* a later step's, made when asked for */
  TpChartData memory_chart;     /* TP_STAGE_MEMORY_CHART */
  TpForwardFacts fwd;           /* TP_STAGE_DIRECTION, TP_STAGE_FORWARD */
};

/* Computes stage (and what it stands on) unless it is computed already.
 * False when the program was refused or memory ran out; the session then
 * says TP_STATUS_NO_MEMORY until the next compile. */
bool        tp_session_need          (TpSession *s, TpStage stage);

/* Makes the session's allocator the current one for a block of code. */
#define TP_SESSION_ENTER(s) \
  const TpAllocator *tp_session_saved_allocator_ = tp_alloc_enter ((s)->allocator)
#define TP_SESSION_LEAVE() tp_alloc_leave (tp_session_saved_allocator_)

/* Node's display name, or "#INDEX" when no statement names it. */
void        tp_session_put_display_name (const TpSession *s, TpNode node,
                                         TpBuf *out);
/* Per node its display name, NULL where no statement names it; in the
 * arena, NULL when memory runs out. */
const char **tp_session_display_names (TpSession *s);

/* The teaching facts' stages (tp-session-teach.c). */
bool        tp_session_build_steps   (TpSession *s);
bool        tp_session_build_memory_chart (TpSession *s);
/* Reads the program's `# train it:` line into s->settings; false when
 * memory runs out. */
bool        tp_session_read_settings (TpSession *s, const char *text,
                                      size_t len);

/* Forward mode and the JAX program (tp-session-forward.c, tp-jax.c). */
bool        tp_session_build_direction (TpSession *s);
bool        tp_session_build_forward (TpSession *s);
bool        tp_session_build_jax     (TpSession *s);
void        tp_session_json_forward  (TpSession *s, TpBuf *out);
/* The buffer's text, reallocated to its size; NULL when it failed. */
char       *tp_session_steal_exact   (TpBuf *out);

extern const char *const tp_session_role_names[TP_N_ROLES];
extern const char *const tp_session_token_names[TP_N_TOKENS];

#endif /* TP_SESSION_PRIVATE_H */
