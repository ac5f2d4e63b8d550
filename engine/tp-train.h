/* tp-train.h: gradient descent on a program's parameters (the train
 * reading, docs/language.md).  tp-session.c hands it the compiled tape and
 * owns the TpTrain it returns (tp-engine.h). */
#ifndef TP_TRAIN_H
#define TP_TRAIN_H

#if !defined (TP_ENGINE_COMPILATION) && !defined (TP_ENGINE_INTERNAL)
#error "tp-train.h is internal to the engine: outside it, include tp-engine.h"
#endif

#include <stdbool.h>
#include <stdint.h>

#include "tp-engine.h"
#include "tp-engine-testing.h"
#include "tp-parse.h"

/* What one training runs on: the program, its rank-0 target and each
 * parameter with its gradient node and display name; and, so that the
 * training can replay steps and write the program again on its own
 * (tp_train_parameters_at, tp_train_apply), the program's text, the
 * choices it was read with and each parameter's source span (line 0
 * when unknown). */
typedef struct
{
  const TpProgram *prog;
  TpNode target;
  const char *target_name;
  const TpNode *wrt;
  const TpNode *grads;
  const char *const *wrt_names;
  uint32_t n_wrt;
  const char *source;
  size_t source_len;
  bool exact;
  const TpSourceSpan *spans;
  const TpAllocator *allocator;
} TpTrainInput;

/* The most parameter elements a training keeps for looking back at its
 * steps (a copy every step when they fit, else every K-th step, the
 * others replayed from the nearest one kept). */
#ifndef TP_TRAIN_KEPT
#define TP_TRAIN_KEPT (UINT64_C (1) << 22)
#endif

/* Trains; NULL only when memory runs out.  steps and learning_rate were
 * checked by the caller (tp_train_refuse). */
TpTrain *tp_train_run    (const TpTrainInput *in, uint32_t steps,
                          float learning_rate);
/* The TpTrainInput of a session that reads and has a derivative (its
 * names array, which also holds the spans, is the caller's to free with
 * tp_free); false otherwise or when memory runs out.  In
 * tp-session-teach.c. */
bool tp_session_train_input (TpSession *session, TpTrainInput *in,
                             const char ***names);

/* A refused training: message says why.  NULL only when memory runs out. */
TpTrain *tp_train_refuse (const char *message);

#endif /* TP_TRAIN_H */
