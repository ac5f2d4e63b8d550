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
#include "tp-parse.h"

/* What one training runs on: the program, its rank-0 target and each
 * parameter with its gradient node and display name. */
typedef struct
{
  const TpProgram *prog;
  TpNode target;
  const char *target_name;
  const TpNode *wrt;
  const TpNode *grads;
  const char *const *wrt_names;
  uint32_t n_wrt;
} TpTrainInput;

/* Trains; NULL only when memory runs out.  steps and learning_rate were
 * checked by the caller (tp_train_refuse). */
TpTrain *tp_train_run    (const TpTrainInput *in, uint32_t steps,
                          float learning_rate);
/* A refused training: message says why.  NULL only when memory runs out. */
TpTrain *tp_train_refuse (const char *message);

#endif /* TP_TRAIN_H */
