/* tp-shape.h: tensor shapes (row-major, every extent >= 1). */
#ifndef TP_SHAPE_H
#define TP_SHAPE_H

#if !defined (TP_ENGINE_COMPILATION) && !defined (TP_ENGINE_INTERNAL)
#error "tp-shape.h is internal to the engine: outside it, include tp-engine.h"
#endif

#include <stdbool.h>
#include <stdint.h>

#define TP_MAX_RANK 16

typedef struct
{
  uint32_t rank;
  uint32_t dims[TP_MAX_RANK];
} TpShape;

/* The number of elements, saturating at UINT64_MAX. */
uint64_t tp_shape_volume    (const TpShape *shape);
bool     tp_shape_equal     (const TpShape *a, const TpShape *b);
/* shape with axis removed (axis < rank). */
void     tp_shape_drop_axis (const TpShape *shape, uint32_t axis, TpShape *out);
/* shape with extent inserted at axis (axis <= rank < TP_MAX_RANK). */
void     tp_shape_insert_axis (const TpShape *shape, uint32_t axis,
                               uint32_t extent, TpShape *out);

#endif /* TP_SHAPE_H */
