/* tp-memory.h: the memory reading, the plan's buffers as a chart
 * (docs/language.md, memory): as text, as SVG and as JSON.  Every number
 * comes from the plan (tp-plan.h), so it agrees with the plan reading's
 * "freed after K", "kept" and "live volume" lines. */
#ifndef TP_MEMORY_H
#define TP_MEMORY_H

#if !defined (TP_ENGINE_COMPILATION) && !defined (TP_ENGINE_INTERNAL)
#error "tp-memory.h is internal to the engine: outside it, include tp-engine.h"
#endif

#include <stdbool.h>
#include <stdint.h>

#include "tp-alloc.h"
#include "tp-buf.h"
#include "tp-plan.h"

/* The most bars the SVG draws (the first ones in step order); the live
 * curve always covers every step, in at most this many points. */
#define TP_MEMORY_SVG_BARS 1000u
/* The text chart draws a bar per line up to this many steps. */
#define TP_MEMORY_TEXT_BARS 64u
/* The text lists this many buffers; one line says how many more. */
#define TP_MEMORY_TEXT_LINES 8192u

typedef struct
{
  const TpPlan *plan;
  uint32_t n_steps;
  TpNode *steps;          /* the plan's schedule: the evaluated nodes, in
                             tape order unless some are computed again */
  uint8_t *again;         /* per step: it computes its node again */
  uint32_t *from;         /* per step: the step that computes its buffer */
  uint32_t *to;           /* per step: the last step it is live */
  uint64_t *live;         /* per step: elements live at that step */
  uint32_t *step_of;      /* per node: its (first) step, or UINT32_MAX */
  uint32_t *again_of;     /* per node: the step that computes it again,
                             or UINT32_MAX */
  uint64_t peak;
  uint32_t peak_step;     /* UINT32_MAX when there is no step */
} TpMemory;

/* False when memory runs out. */
bool tp_memory_build    (TpMemory *m, const TpPlan *plan, TpArena *arena);
void tp_memory_describe (const TpMemory *m, TpBuf *out);
void tp_memory_svg      (const TpMemory *m, TpBuf *out);
/* {"steps": [...], "buffers": [...], "live": [...], "peak": {...},
 * "retain_all": R}; m NULL writes the empty one. */
void tp_memory_json     (const TpMemory *m, TpBuf *out);

#endif /* TP_MEMORY_H */
