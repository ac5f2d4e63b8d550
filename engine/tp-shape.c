/* tp-shape.c: shape arithmetic. */
#include "tp-shape.h"

uint64_t
tp_shape_volume (const TpShape *shape)
{
  uint64_t v = 1;

  for (uint32_t i = 0; i < shape->rank; i++)
    {
      uint64_t d = shape->dims[i];
      /* Below 2^32 times a 32-bit extent cannot overflow, so the division
       * (slow, and this runs for every node of every training step) is
       * only needed past it. */
      if (v > UINT32_MAX && d != 0 && v > UINT64_MAX / d)
        return UINT64_MAX;
      v *= d;
    }
  return v;
}

bool
tp_shape_equal (const TpShape *a, const TpShape *b)
{
  if (a->rank != b->rank)
    return false;
  for (uint32_t i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i])
      return false;
  return true;
}

void
tp_shape_drop_axis (const TpShape *shape, uint32_t axis, TpShape *out)
{
  TpShape r = { 0, { 0 } };

  for (uint32_t i = 0; i < shape->rank; i++)
    if (i != axis)
      r.dims[r.rank++] = shape->dims[i];
  *out = r;
}

void
tp_shape_insert_axis (const TpShape *shape, uint32_t axis, uint32_t extent,
                      TpShape *out)
{
  TpShape r = { 0, { 0 } };

  for (uint32_t i = 0; i <= shape->rank; i++)
    {
      if (i == axis)
        r.dims[r.rank++] = extent;
      if (i < shape->rank)
        r.dims[r.rank++] = shape->dims[i];
    }
  *out = r;
}
