/* tp-values.h: the values reading and tensor display (docs/language.md,
 * values). */
#ifndef TP_VALUES_H
#define TP_VALUES_H

#if !defined (TP_ENGINE_COMPILATION) && !defined (TP_ENGINE_INTERNAL)
#error "tp-values.h is internal to the engine: outside it, include tp-engine.h"
#endif

#include <stdint.h>

#include "tp-buf.h"
#include "tp-parse.h"
#include "tp-texts.h"

/* At most this many elements are printed in full across one reading (or
 * one JSON document); a tensor that does not fit the remaining budget is
 * summarised, so output stays bounded however often a large tensor is
 * named. */
#ifndef TP_VALUES_BUDGET        /* the fuzz build (tests/fuzz) lowers both */
#define TP_VALUES_BUDGET (UINT64_C (1) << 20)
#endif
/* At most this many elements are shown in summaries across one reading;
 * beyond it a tensor that does not fit prints only its size. */
#ifndef TP_SUMMARY_BUDGET
#define TP_SUMMARY_BUDGET (UINT64_C (1) << 16)
#endif

/* What one reading may still print; start it at { TP_VALUES_BUDGET,
 * TP_SUMMARY_BUDGET }. */
typedef struct
{
  uint64_t full;
  uint64_t summary;
} TpValuesBudget;

/* Rust Display of a tensor: the bare element for rank 0, nested
 * "[a, b]" lists otherwise.  Consumes the budget; a tensor over the
 * remaining budget prints its first and last three entries along each
 * axis around "..." (from the summary budget), or only its size when
 * even that is large or the summary budget is spent. */
void tp_values_put_tensor (TpBuf *out, const float *data,
                           const TpShape *shape, TpValuesBudget *budget);
/* The same of node's values (data), its elements' text taken from texts
 * (tp-texts.h; NULL: formatted here), with the same bytes. */
void tp_values_put_node (TpBuf *out, TpTexts *texts, TpNode node,
                         const float *data, const TpShape *shape,
                         TpValuesBudget *budget);

/* One values line: format!("{:<12} {:<10} {}", name, shape, data as a
 * tensor of data_shape), mapped into map (NULL for none) as node's line
 * whose value token stands for value_node.  With texts (else NULL),
 * data is their key'th tensor and its text is taken from them. */
void tp_values_line (TpBuf *out, const char *name, const TpShape *shape,
                     const float *data, const TpShape *data_shape,
                     TpValuesBudget *budget, TpMap *map, TpNode node,
                     TpNode value_node, TpTexts *texts, uint32_t key);

/* tp_values_line's layout with every number in the short format
 * (tp_short_number), for numbers shown outside the readings; no map. */
void tp_values_line_short (TpBuf *out, const char *name, const TpShape *shape,
                           const float *data, TpValuesBudget *budget);

/* One line per statement: format!("{:<12} {:<10} {}", name, shape, value
 * of the name's last assignment), mapped into map (NULL for none): the
 * line stands for the statement's node, its value token for the node the
 * value is read from. */
void tp_values_statements (const TpProgram *prog, float *const *values,
                           TpTexts *texts, TpBuf *out,
                           TpValuesBudget *budget, TpMap *map);

#endif /* TP_VALUES_H */
