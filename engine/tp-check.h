/* tp-check.h: the check reading (docs/language.md, check).
 *
 * Two checks of what the engine computed:
 * - the gradient check: each parameter's gradient (the f32 interpreter's
 *   value of the node differentiate appended) against central finite
 *   differences of the forward program, evaluated by a second, separate
 *   interpreter in double precision (tp-check.c);
 * - the non-finite origin: the first node in tape order whose value holds
 *   a NaN or an infinity, the element, the operands there, and how many
 *   later nodes inherit it. */
#ifndef TP_CHECK_H
#define TP_CHECK_H

#if !defined (TP_ENGINE_COMPILATION) && !defined (TP_ENGINE_INTERNAL)
#error "tp-check.h is internal to the engine: outside it, include tp-engine.h"
#endif

#include <stdbool.h>
#include <stdint.h>

#include "tp-alloc.h"
#include "tp-buf.h"
#include "tp-tape.h"

/* The work budget of one gradient check, in the double interpreter's
 * estimated multiply-adds (the op table's WORK column, as the tape counts
 * it): four times the base run's, at least TP_CHECK_WORK and at most
 * TP_CHECK_WORK_MAX.  The base run, then element by element or along
 * random directions share it (tp-check.c).  The fuzz build lowers it. */
#ifndef TP_CHECK_WORK
#define TP_CHECK_WORK (UINT64_C (1) << 23)
#endif
#define TP_CHECK_WORK_MAX (8 * TP_CHECK_WORK)
/* The small budget: the element-by-element check is chosen when its
 * estimated cost fits it, or is no more than that of checking every
 * parameter along TP_CHECK_DIRECTIONS random directions. */
#define TP_CHECK_ELEMENT_WORK (TP_CHECK_WORK / 8)
/* The most random directions per parameter. */
#define TP_CHECK_DIRECTIONS 4u
/* The most elements the double interpreter holds (base and perturbed
 * values of the target's ancestors together); a bigger program is not
 * checked, and the reading says so. */
#ifndef TP_CHECK_ELEMENTS
#define TP_CHECK_ELEMENTS (UINT64_C (1) << 22)
#endif
/* Parameters with more elements are checked on this many, chosen as
 * element floor (k * volume / TP_CHECK_SAMPLE) for k = 0, 1, ... */
#define TP_CHECK_SAMPLE 1000u
/* The text lists this many parameters; the JSON lists every one. */
#define TP_CHECK_TEXT_LINES 4096u
/* The verdict tolerance on the relative error |a - n| / max(|a|, |n|, 1). */
#define TP_CHECK_TOLERANCE 1e-3

typedef enum
{
  TP_VERDICT_OK,
  TP_VERDICT_DIFFERS,
  TP_VERDICT_KINK,        /* every checked element sits at a kink */
  TP_VERDICT_NONFINITE,   /* the gradient or the loss is not finite */
  TP_VERDICT_UNCHECKED,   /* no element fitted the budget */
} TpVerdict;

typedef struct
{
  TpNode parameter;
  TpNode gradient;
  TpVerdict verdict;
  bool along;             /* checked along random directions */
  uint64_t element;       /* flat index of the worst element; along
                           * directions, the worst direction's index */
  float analytic;
  double numeric;
  double relative_error;
  uint64_t volume;        /* the parameter's elements */
  uint64_t sampled;       /* elements chosen (all, or TP_CHECK_SAMPLE) */
  uint64_t checked;       /* elements (directions) checked */
  uint64_t kinks;         /* checked elements (directions) at a kink */
} TpCheckGradient;

typedef struct
{
  bool found;
  TpNode node;
  uint64_t element;       /* flat index */
  uint32_t n_operands;    /* 0 when the op has no per-element operands */
  float operands[2];
  float value;
  uint32_t inherited_by;  /* later nodes, depending on it, non-finite too */
} TpNonfinite;

typedef enum
{
  TP_CHECK_DONE,
  TP_CHECK_NO_DERIVATIVE,
  TP_CHECK_TOO_BIG,       /* over TP_CHECK_ELEMENTS */
} TpCheckState;

typedef struct
{
  TpCheckState state;
  TpCheckGradient *grads;
  uint32_t n_grads;
  bool cut;               /* the budget checked fewer elements, or
                           * fewer parameters along directions */
  bool directions;        /* along random directions */
  uint64_t budget;        /* the work budget */
  uint64_t element_work;  /* the element-by-element check's estimate
                           * (a part of it, once over the limit) */
  uint64_t direction_work; /* TP_CHECK_DIRECTIONS directions' estimate */
  uint64_t work;          /* estimated work spent */
  uint64_t elements;      /* the double interpreter's elements */
  bool interrupted;       /* stopped by the caller: the result is partial */
  TpNonfinite nonfinite;
} TpCheck;

/* Finds the first non-finite value.  values[i] holds node i.  False when
 * memory runs out. */
bool tp_check_nonfinite (const TpTape *tape, float *const *values,
                         TpArena *arena, TpNonfinite *out);

/* Asked now and then while a check runs (at each element or direction
 * it is about to pay for): true stops it, with out->interrupted set. */
typedef struct
{
  bool (*interrupted) (void *data);
  void *data;
} TpInterrupt;

/* The gradient check of loss (rank 0) for wrt[k] against grads[k]; grads
 * NULL means there is no derivative.  Finds the non-finite origin too.
 * interrupt may be NULL.  False when memory runs out. */
bool tp_check_gradients (const TpTape *tape, uint32_t spec_nodes,
                         TpNode loss, const TpNode *wrt, const TpNode *grads,
                         uint32_t n_wrt, float *const *values,
                         TpArena *arena, const TpInterrupt *interrupt,
                         TpCheck *out);

/* How many gradient checks (base runs of the double interpreter) the
 * engine has run since it started, in any thread: for tests that prove a
 * path does not run the check. */
uint64_t tp_check_runs (void);

/* Where the reading's verdict sentence is (bytes of out, without the
 * newline) and what it says (tp-engine.h's TpCheckOutcome). */
typedef struct
{
  size_t at;
  size_t len;
  int outcome;
  uint32_t differing;
} TpCheckVerdict;

/* The check reading; names[k] is parameter k's display name, loss_name
 * the target's. */
void tp_check_describe (const TpCheck *check, const TpTape *tape,
                        const char *loss_name, const char *const *names,
                        float *const *values, TpBuf *out,
                        TpCheckVerdict *verdict);
/* The JSON object {"outcome", "verdict", "gradients": [...],
 * "nonfinite": ...}; verdict is the one tp_check_describe gave for text.
 * check NULL writes the empty one. */
void tp_check_json (const TpCheck *check, const TpTape *tape,
                    const char *const *names, const TpCheckVerdict *verdict,
                    const char *text, TpBuf *out);

#endif /* TP_CHECK_H */
