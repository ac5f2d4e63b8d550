/* tp-fusion.h: the plan's steps grouped into kernels, as a compiler's loop
 * fusion would run them (docs/language.md, fusion).
 *
 * The rule, after XLA's loop fusion: an element-wise op (a Leaf, a
 * broadcast, a reshape and a permute included) joins the kernel of its
 * readers when they are all in one kernel that takes producers: an
 * element-wise kernel, a reduction (Sum, SumAlong) or the softmax family
 * (LogSoftmax, LogSumExp), which end their kernel.  A MatMul is a kernel
 * of its own, and so is each parameter and input (an argument: nothing
 * to compute).  A kernel reads from memory what comes from outside it
 * and writes what leaves it (a value read outside, or a result). */
#ifndef TP_FUSION_H
#define TP_FUSION_H

#if !defined (TP_ENGINE_COMPILATION) && !defined (TP_ENGINE_INTERNAL)
#error "tp-fusion.h is internal to the engine: outside it, include tp-engine.h"
#endif

#include <stdbool.h>
#include <stdint.h>

#include "tp-alloc.h"
#include "tp-buf.h"
#include "tp-map.h"
#include "tp-plan.h"

/* The fusion reading lists the first this many kernels (the JSON has
 * them all). */
#define TP_FUSION_TEXT_KERNELS 8192u

typedef enum
{
  TP_KERNEL_ARGUMENT,    /* a parameter or an input */
  TP_KERNEL_CONSTANT,    /* a Leaf no single kernel takes in */
  TP_KERNEL_LOOP,        /* element-wise */
  TP_KERNEL_REDUCE,      /* ends with a Sum or SumAlong */
  TP_KERNEL_SOFTMAX,     /* ends with a LogSoftmax or LogSumExp */
  TP_KERNEL_MATMUL,
  TP_N_KERNEL_KINDS
} TpKernelKind;

typedef struct
{
  uint32_t first;        /* its steps: step_list[first, first + n) */
  uint32_t n;
  uint8_t kind;          /* TpKernelKind */
  uint64_t bytes_read;
  uint64_t bytes_written;
} TpKernel;

typedef struct
{
  const TpPlan *plan;
  uint32_t *kernel_of;   /* per step */
  uint32_t *step_list;   /* the steps, kernel by kernel, each in order */
  TpKernel *kernels;     /* in the order of their first step */
  uint32_t n_kernels;
  uint32_t n_computed;   /* kernels that compute: not arguments */
  uint32_t n_fused;      /* kernels of more than one step */
  uint64_t bytes_unfused;
  uint64_t bytes_fused;
} TpFusion;

/* False when memory runs out. */
bool tp_fusion_build    (TpFusion *f, const TpPlan *plan, TpArena *arena);
const char *tp_kernel_kind_name (TpKernelKind kind);
/* The sentence a front end shows: how many kernels and the traffic
 * saved. */
void tp_fusion_sentence (const TpFusion *f, TpBuf *out);
/* The fusion reading (mapped into map unless it is NULL). */
void tp_fusion_describe (const TpFusion *f, TpBuf *out, TpMap *map);
/* {"kernels": [...], "bytes_unfused": U, "bytes_fused": F, ...}; f NULL
 * writes the empty one. */
void tp_fusion_json     (const TpFusion *f, TpBuf *out);

#endif /* TP_FUSION_H */
