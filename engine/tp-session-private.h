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
#include "tp-fusion.h"
#include "tp-forward.h"
#include "tp-map.h"
#include "tp-memory.h"
#include "tp-optimize.h"
#include "tp-parse.h"
#include "tp-plan.h"
#include "tp-remat.h"
#include "tp-texts.h"

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
  TP_STAGE_OPTIMIZE,      /* the exact rewrites (tp-session-passes.c) */
  TP_STAGE_OPTIMIZED,     /* their reading and map */
  TP_STAGE_FUSION,        /* the kernels and their sentence */
  TP_STAGE_FUSION_TEXT,   /* their reading and map */
  TP_STAGE_REMAT,         /* the rematerialisation's candidates (with
                             --remat, made with the plan) */
  TP_STAGE_DIRECTION,     /* forward mode's direction */
  TP_STAGE_FORWARD,       /* the tangent tape and the forward reading */
  TP_STAGE_JAX,           /* the JAX program */
  TP_STAGE_DOT_KERNELS,   /* the picture with the kernels as clusters */
  TP_STAGE_DOT_TANGENT,   /* the picture with forward mode's tangent band */
  TP_N_STAGES
} TpStage;

struct _TpSession
{
  const TpAllocator *allocator; /* kept across compiles; NULL: libc */
  TpInterrupt interrupt;        /* kept across compiles */
  bool interrupted;             /* the last stage asked for was stopped */
  bool stage_interrupted;       /* set by a stage's builder */
  bool map_off;                 /* kept across compiles */
  bool no_map;                  /* this compile's choice */
  uint64_t computed[TP_N_COMPUTATIONS];   /* kept across compiles */
  TpMap maps[TP_N_READINGS];    /* the mapped readings' (tp_reading_has_map);
                                   their storage is kept across compiles */

  TpArena arena;
  TpProgram prog;
  bool have_prog;
  TpStatus status;
  uint32_t done;                /* a bit per TpStage computed */
  char *readings[TP_N_READINGS];
  size_t reading_len[TP_N_READINGS];
  /* The length of the last JSON written whole, and its members: the next
   * one with the same members, of a program about as long, reserves that
   * much at once instead of growing (and copying) its buffer a dozen
   * times; one of a few members reserves nothing for a whole one. */
  size_t json_len_hint;
  uint64_t json_hint_members;
  TpDiag diag;
  char *diag_message;
  size_t n_diags;
  TpName *names;
  size_t n_names;
  const char *source;           /* the program's text, a copy; NULL when
                                   over TP_SOURCE_KEPT */
  size_t source_len;
  bool exact;
  bool optimize;                /* run the exact rewrites before the plan */
  bool remat_on;                /* --remat: names, or auto */
  bool remat_auto;

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
  TpNode *remat_nodes;          /* the statements --remat names, resolved */
  uint32_t n_remat_nodes;
  uint32_t n_remat_asked;

  /* the stages' results */
  float **values;               /* TP_STAGE_RUN */
  TpTexts texts;                /* the values' texts, as writers ask */
  TpTexts direction_texts;      /* forward mode's direction's */
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
  size_t memory_svg_len;
  char *dot_kernels;            /* TP_STAGE_DOT_KERNELS */
  size_t dot_kernels_len;
  char *dot_tangent;            /* TP_STAGE_DOT_TANGENT; NULL: no tangent */
  size_t dot_tangent_len;
  char *step_text;              /* TP_STAGE_STEPS: the first sentences ... */
  uint32_t *step_at;            /* ... step k's at [step_at[k], step_at[k + 1]) */
  uint32_t n_step_texts;        /* at most TP_STEP_TEXTS */
  char *late_step;              /* a later step's, made when asked for */
  TpChartData memory_chart;     /* TP_STAGE_MEMORY_CHART */
  TpOptimized opt;              /* TP_STAGE_OPTIMIZE */
  TpFusion fusion;              /* TP_STAGE_FUSION */
  char *fusion_sentence;
  char *announcement;           /* tp_session_announcement, when asked */
  TpRemat remat;                /* TP_STAGE_REMAT (or TP_STAGE_LOWER) */
  char *remat_sentence;
  TpForwardFacts fwd;           /* TP_STAGE_DIRECTION, TP_STAGE_FORWARD */
};

/* Whether reading r has a map (TP_MAP_READINGS and the passes'). */
static inline bool
tp_reading_has_map (TpReading r)
{
  return (int) r < TP_MAP_READINGS || r == TP_READING_OPTIMIZED
         || r == TP_READING_FUSION || r == TP_READING_FORWARD;
}

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

/* The map reading r is written into, or NULL (maps off, or none). */
TpMap      *tp_session_map_of        (TpSession *s, TpReading r);
/* Takes a finished buffer as reading r; false when it (or its map)
 * failed. */
bool        tp_session_take          (TpSession *s, TpReading r, TpBuf *buf);
/* The plan's results before any rewrite: the target, then each
 * parameter's gradient when differentiated (observe comes apart); in the
 * arena, NULL when memory runs out. */
TpNode     *tp_session_roots         (TpSession *s, uint32_t *n_roots);

/* The statements choices->remat names, resolved into s->remat_nodes
 * (tp-session-passes.c); false when memory runs out. */
bool        tp_session_resolve_remat (TpSession *s, const TpChoices *c);

/* The passes' stages (tp-session-passes.c): the exact rewrites, their
 * reading, the fusion, the rematerialisation's candidates; and the
 * plan's own part of them: the optimised tape's plan with --optimize and
 * the new schedule with --remat (from build_lower), its remat line (from
 * build_plan), and the scheduled run's results (from build_run). */
bool        tp_session_build_optimize (TpSession *s);
bool        tp_session_build_optimized (TpSession *s);
bool        tp_session_build_fusion  (TpSession *s);
bool        tp_session_build_fusion_text (TpSession *s);
bool        tp_session_build_remat   (TpSession *s);
bool        tp_session_plan_passes   (TpSession *s);
void        tp_session_put_remat_line (TpSession *s, TpBuf *out, TpMap *map);
bool        tp_session_run_schedule  (TpSession *s);
/* The tape the plan and the interpreter run: the optimised one with
 * --optimize, else the recorded one. */
const TpTape *tp_session_exec_tape   (TpSession *s);
/* The JSON's optimized, fusion and remat members. */
void        tp_session_json_optimized (TpSession *s, TpBuf *out);
void        tp_session_json_fusion   (TpSession *s, TpBuf *out);
void        tp_session_json_remat    (TpSession *s, TpBuf *out);

/* A name (a display name) that refers to node, as a token of map. */
void        tp_session_put_mapped_name (TpMap *map, TpBuf *out,
                                        const char *name, TpNode node);
void        tp_session_put_mapped_display_name (const TpSession *s,
                                                TpMap *map, TpBuf *out,
                                                TpNode node);

/* The stages' builders (tp-session-readings.c): true when made, false
 * when memory ran out (or the check was interrupted). */
bool        tp_session_build_spec (TpSession *s);
bool        tp_session_build_derivative (TpSession *s);
bool        tp_session_build_run (TpSession *s);
bool        tp_session_build_lower (TpSession *s);
bool        tp_session_build_plan (TpSession *s);
bool        tp_session_build_stablehlo (TpSession *s);
bool        tp_session_build_values (TpSession *s);
bool        tp_session_build_nonfinite (TpSession *s);
bool        tp_session_build_dot (TpSession *s);
bool        tp_session_build_summary (TpSession *s);
bool        tp_session_build_check (TpSession *s);
bool        tp_session_build_explain (TpSession *s);
bool        tp_session_build_memory (TpSession *s);
bool        tp_session_build_memory_svg (TpSession *s);
bool        tp_session_build_dot_kernels (TpSession *s);
bool        tp_session_build_dot_tangent (TpSession *s);

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
/* The buffer's text, reallocated to its size; NULL when it failed. */
char       *tp_session_steal_exact   (TpBuf *out);

extern const char *const tp_session_role_names[TP_N_ROLES];
extern const char *const tp_session_token_names[TP_N_TOKENS];

#endif /* TP_SESSION_PRIVATE_H */
