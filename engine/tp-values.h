/* tp-values.h: the values reading and tensor display (reference 7.6). */
#ifndef TP_VALUES_H
#define TP_VALUES_H

#include <stdint.h>

#include "tp-buf.h"
#include "tp-parse.h"

/* At most this many elements are printed in full across one reading (or
 * one JSON document); a tensor that does not fit the remaining budget is
 * summarised, so output stays bounded however often a large tensor is
 * named. */
#define TP_VALUES_BUDGET (UINT64_C (1) << 20)

/* Rust Display of a tensor: the bare element for rank 0, nested
 * "[a, b]" lists otherwise.  Consumes the budget; a tensor over the
 * remaining budget prints its first and last three entries along each
 * axis around "...", or only its size when even that is large. */
void tp_values_put_tensor (TpBuf *out, const float *data,
                           const TpShape *shape, uint64_t *budget);

/* One line per statement: format!("{:<12} {:<10} {}", name, shape, value
 * of the name's last assignment). */
void tp_values_statements (const TpProgram *prog, float *const *values,
                           TpBuf *out, uint64_t *budget);

#endif /* TP_VALUES_H */
