/* tp-tape.c: recording nodes, the op table and describe. */
#include "tp-tape.h"

#include <string.h>

/* One row per op: engine/tp-ops.def. */
#define TP_HLO_PLAIN(spelling) spelling
#define TP_HLO_OWN(writer) NULL
const TpOpInfo tp_op_info[TP_N_OPS] = {
#define TP_OP_ROW(ID, NAME, ARITY, ATTR, HLO, SIDES, WORK, AT, WRITTEN, \
                  FORM, FORMULA) \
  [TP_OP_##ID] = { NAME, ARITY, TP_ATTR_##ATTR, TP_HLO_##HLO, SIDES, \
                   TP_WORK_##WORK, TP_AT_##AT, WRITTEN, TP_FORM_##FORM, \
                   FORMULA },
#include "tp-ops.def"
};
#undef TP_HLO_PLAIN
#undef TP_HLO_OWN

const TpCompositeInfo tp_composite_info[TP_N_COMPOSITES] = {
#define TP_COMPOSITE_ROW(ID, WRITTEN, FORM, RECORDS) \
  [TP_COMPOSITE_COUNT_##ID] = { WRITTEN, TP_FORM_##FORM, TP_OP_##RECORDS },
#include "tp-ops.def"
};

void
tp_tape_init (TpTape *tape, TpArena *arena)
{
  memset (tape, 0, sizeof *tape);
  tape->arena = arena;
}

static bool
tape_grow (TpTape *tape)
{
  uint32_t cap = tape->cap < 64 ? 64 : tape->cap * 2;
  void *op, *arg, *shape, *attr, *payload;

  op = tp_arena_grow (tape->arena, tape->op, tape->len, cap, sizeof *tape->op);
  arg = tp_arena_grow (tape->arena, tape->arg, tape->len, cap, sizeof *tape->arg);
  shape = tp_arena_grow (tape->arena, tape->shape, tape->len, cap, sizeof *tape->shape);
  attr = tp_arena_grow (tape->arena, tape->attr, tape->len, cap, sizeof *tape->attr);
  payload = tp_arena_grow (tape->arena, tape->payload, tape->len, cap, sizeof *tape->payload);
  if (op == NULL || arg == NULL || shape == NULL || attr == NULL || payload == NULL)
    return false;
  tape->op = op;
  tape->arg = arg;
  tape->shape = shape;
  tape->attr = attr;
  tape->payload = payload;
  tape->cap = cap;
  return true;
}

/* The shape rule of every op; the operands are already known valid. */
static void
infer_shape (const TpTape *tape, TpOp op, TpNode a, TpNode b,
             const TpAttr *attr, const TpShape *target, TpShape *out)
{
  const TpShape *sa = a != TP_NO_NODE ? &tape->shape[a] : NULL;

  switch (op)
    {
    case TP_OP_LEAF:
    case TP_OP_PARAMETER:
    case TP_OP_INPUT:
    case TP_OP_BROADCAST:
    case TP_OP_RESHAPE:
      *out = *target;
      break;
    case TP_OP_MATMUL:
      *out = *sa;
      out->dims[sa->rank - 1] = tape->shape[b].dims[sa->rank - 1];
      break;
    case TP_OP_SUM:
      memset (out, 0, sizeof *out);
      break;
    case TP_OP_SUM_ALONG:
    case TP_OP_LOG_SUM_EXP:
      tp_shape_drop_axis (sa, attr->axis, out);
      break;
    case TP_OP_BROADCAST_ALONG:
      tp_shape_insert_axis (sa, attr->axis, attr->extent, out);
      break;
    case TP_OP_PERMUTE:
      out->rank = sa->rank;
      for (uint32_t i = 0; i < sa->rank; i++)
        out->dims[i] = sa->dims[attr->order[i]];
      break;
    case TP_OP_ADD:
    case TP_OP_SUB:
    case TP_OP_MUL:
    case TP_OP_DIV:
    case TP_OP_MAXIMUM:
    case TP_OP_STEP:
    case TP_OP_NEG:
    case TP_OP_EXP:
    case TP_OP_LN:
    case TP_OP_SQRT:
    case TP_OP_TANH:
    case TP_OP_SIN:
    case TP_OP_COS:
    case TP_OP_LOG_SOFTMAX:
      *out = *sa;
      break;
    }
}

/* Interpreter work of one node, in multiply-adds (an estimate that bounds
 * the time a run can take; MatMul dominates): the op's row says which. */
static uint64_t
node_work (const TpTape *tape, TpOp op, TpNode a, uint64_t volume)
{
  switch ((TpWork) tp_op_info[op].work)
    {
    case TP_WORK_MATMUL:
      {
        const TpShape *sa = &tape->shape[a];
        uint64_t k = sa->dims[sa->rank - 1];
        return volume > UINT64_MAX / k ? UINT64_MAX : volume * k;
      }
    case TP_WORK_OPERAND4:
      {
        uint64_t v = tp_shape_volume (&tape->shape[a]);
        return v > UINT64_MAX / 4 ? UINT64_MAX : v * 4;
      }
    case TP_WORK_ELEMENT:
      break;
    }
  return volume;
}

uint64_t
tp_tape_node_work (const TpTape *tape, TpNode i)
{
  return node_work (tape, (TpOp) tape->op[i], tape->arg[i][0],
                    tp_shape_volume (&tape->shape[i]));
}

TpNode
tp_tape_record (TpTape *tape, TpOp op, TpNode a, TpNode b,
                const TpAttr *attr, const TpShape *target, float *payload)
{
  TpShape shape;
  uint64_t volume, work;
  TpNode i;

  if (tape->len >= TP_LIMIT_NODES)
    {
      tape->error = TP_TAPE_TOO_MANY_NODES;
      return TP_NO_NODE;
    }
  infer_shape (tape, op, a, b, attr, target, &shape);
  volume = tp_shape_volume (&shape);
  if (volume > TP_LIMIT_TENSOR)
    {
      tape->error = TP_TAPE_TENSOR_TOO_BIG;
      tape->error_volume = volume;
      return TP_NO_NODE;
    }
  if (tape->elements + volume > TP_LIMIT_ELEMENTS)
    {
      tape->error = TP_TAPE_TOO_MANY_ELEMENTS;
      return TP_NO_NODE;
    }
  work = node_work (tape, op, a, volume);
  if (work > TP_LIMIT_WORK || tape->work + work > TP_LIMIT_WORK)
    {
      tape->error = TP_TAPE_TOO_MUCH_WORK;
      return TP_NO_NODE;
    }
  if (tape->len == tape->cap && !tape_grow (tape))
    {
      tape->error = TP_TAPE_NO_MEMORY;
      return TP_NO_NODE;
    }
  i = tape->len++;
  tape->op[i] = (uint8_t) op;
  tape->arg[i][0] = a;
  tape->arg[i][1] = b;
  tape->shape[i] = shape;
  if (attr != NULL)
    tape->attr[i] = *attr;
  else
    memset (&tape->attr[i], 0, sizeof tape->attr[i]);
  tape->payload[i] = payload;
  tape->elements += volume;
  tape->work += work;
  if (op == TP_OP_PARAMETER)
    tape->n_parameters++;
  else if (op == TP_OP_INPUT)
    tape->n_inputs++;
  return i;
}

float *
tp_tape_alloc_payload (TpTape *tape, const TpShape *shape)
{
  uint64_t volume = tp_shape_volume (shape);
  float *p;

  if (volume > TP_LIMIT_TENSOR)
    {
      tape->error = TP_TAPE_TENSOR_TOO_BIG;
      tape->error_volume = volume;
      return NULL;
    }
  if (tape->elements + volume > TP_LIMIT_ELEMENTS)
    {
      tape->error = TP_TAPE_TOO_MANY_ELEMENTS;
      return NULL;
    }
  p = tp_arena_alloc (tape->arena, (size_t) volume * sizeof (float));
  if (p == NULL)
    tape->error = TP_TAPE_NO_MEMORY;
  return p;
}

TpNode
tp_tape_fill (TpTape *tape, TpOp op, const TpShape *shape, float value)
{
  float *p = tp_tape_alloc_payload (tape, shape);
  uint64_t volume = tp_shape_volume (shape);

  if (p == NULL)
    return TP_NO_NODE;
  for (uint64_t k = 0; k < volume; k++)
    p[k] = value;
  return tp_tape_record (tape, op, TP_NO_NODE, TP_NO_NODE, NULL, shape, p);
}

TpNode
tp_tape_unary (TpTape *tape, TpOp op, TpNode a)
{
  return tp_tape_record (tape, op, a, TP_NO_NODE, NULL, NULL, NULL);
}

TpNode
tp_tape_binary (TpTape *tape, TpOp op, TpNode a, TpNode b)
{
  return tp_tape_record (tape, op, a, b, NULL, NULL, NULL);
}

TpNode
tp_tape_axis (TpTape *tape, TpOp op, TpNode a, uint32_t axis)
{
  TpAttr attr;

  memset (&attr, 0, sizeof attr);
  attr.axis = axis;
  return tp_tape_record (tape, op, a, TP_NO_NODE, &attr, NULL, NULL);
}

TpNode
tp_tape_broadcast_along (TpTape *tape, TpNode a, uint32_t axis,
                         uint32_t extent)
{
  TpAttr attr;

  memset (&attr, 0, sizeof attr);
  attr.axis = axis;
  attr.extent = extent;
  return tp_tape_record (tape, TP_OP_BROADCAST_ALONG, a, TP_NO_NODE, &attr,
                         NULL, NULL);
}

TpNode
tp_tape_shaped (TpTape *tape, TpOp op, TpNode a, const TpShape *shape)
{
  return tp_tape_record (tape, op, a, TP_NO_NODE, NULL, shape, NULL);
}

TpNode
tp_tape_permute (TpTape *tape, TpNode a, const uint8_t *order)
{
  TpAttr attr;

  memset (&attr, 0, sizeof attr);
  memcpy (attr.order, order, tape->shape[a].rank);
  return tp_tape_record (tape, TP_OP_PERMUTE, a, TP_NO_NODE, &attr, NULL,
                         NULL);
}

/* format!("{:4}  {:<14} {:<18} {}", index, name, detail, shape), where
 * detail is the operands joined by ", ", then (after two spaces when there
 * are operands) the parameter text.  With a map, each token is noted as it
 * is written (the caller opens the line). */
void
tp_tape_describe_line (const TpTape *tape, TpNode i, TpBuf *out, TpMap *map)
{
  const TpOpInfo *info = &tp_op_info[tape->op[i]];
  const TpAttr *attr = &tape->attr[i];
  size_t mark, at;
  uint64_t width = 1;

  for (uint64_t v = i; v >= 10; v /= 10)
    width++;
  if (width < 4)
    tp_buf_spaces (out, (size_t) (4 - width));
  at = out->len;
  tp_buf_u64 (out, i);
  tp_map_ref (map, out, at, TP_TOKEN_INDEX, i);
  tp_buf_append (out, "  ", 2);
  mark = out->len;
  tp_buf_puts (out, info->name);
  tp_map_ref (map, out, mark, info->arity == 0 ? TP_TOKEN_SOURCE : TP_TOKEN_OP,
              TP_MAP_NO_NODE);
  tp_buf_pad_from (out, mark, 14);
  tp_buf_putc (out, ' ');
  mark = out->len;
  for (uint32_t k = 0; k < info->arity; k++)
    {
      if (k > 0)
        tp_buf_append (out, ", ", 2);
      at = out->len;
      tp_buf_u64 (out, tape->arg[i][k]);
      tp_map_ref (map, out, at, TP_TOKEN_OPERAND, tape->arg[i][k]);
    }
  if (info->attr != TP_ATTR_NONE && info->arity > 0)
    tp_buf_append (out, "  ", 2);
  at = out->len;
  switch ((TpAttrKind) info->attr)
    {
    case TP_ATTR_AXIS:
      tp_buf_puts (out, "axis=");
      tp_buf_u64 (out, attr->axis);
      tp_map_ref (map, out, at, TP_TOKEN_DETAIL, TP_MAP_NO_NODE);
      break;
    case TP_ATTR_AXIS_EXTENT:
      tp_buf_puts (out, "axis=");
      tp_buf_u64 (out, attr->axis);
      tp_map_ref (map, out, at, TP_TOKEN_DETAIL, TP_MAP_NO_NODE);
      tp_buf_putc (out, ' ');
      at = out->len;
      tp_buf_puts (out, "extent=");
      tp_buf_u64 (out, attr->extent);
      tp_map_ref (map, out, at, TP_TOKEN_DETAIL, TP_MAP_NO_NODE);
      break;
    case TP_ATTR_SHAPE:
      tp_buf_puts (out, "shape=");
      tp_buf_shape (out, &tape->shape[i]);
      tp_map_ref (map, out, at, TP_TOKEN_DETAIL, TP_MAP_NO_NODE);
      break;
    case TP_ATTR_ORDER:
      {
        uint32_t dims[TP_MAX_RANK];
        uint32_t rank = tape->shape[i].rank;
        for (uint32_t k = 0; k < rank; k++)
          dims[k] = attr->order[k];
        tp_buf_puts (out, "order=");
        tp_buf_dims (out, dims, rank);
        tp_map_ref (map, out, at, TP_TOKEN_DETAIL, TP_MAP_NO_NODE);
      }
      break;
    case TP_ATTR_NONE:
    default:
      break;
    }
  tp_buf_pad_from (out, mark, 18);
  tp_buf_putc (out, ' ');
  at = out->len;
  tp_buf_shape (out, &tape->shape[i]);
  tp_map_ref (map, out, at, TP_TOKEN_SHAPE, TP_MAP_NO_NODE);
}

void
tp_tape_describe_range (const TpTape *tape, TpNode from, TpNode to,
                        TpBuf *out, TpMap *map, TpLineRole role)
{
  for (TpNode i = from; i < to; i++)
    {
      tp_map_line (map, out, i, role);
      tp_tape_describe_line (tape, i, out, map);
      tp_buf_putc (out, '\n');
    }
}

static void
count_noun (TpBuf *out, uint64_t n, const char *noun)
{
  tp_buf_u64 (out, n);
  tp_buf_putc (out, ' ');
  tp_buf_puts (out, noun);
  if (n != 1)
    tp_buf_putc (out, 's');
}

void
tp_tape_describe_total (const TpTape *tape, const char *prefix, TpBuf *out,
                        TpMap *map)
{
  tp_map_line (map, out, TP_MAP_NO_NODE, TP_ROLE_FOOTER);
  tp_buf_puts (out, prefix);
  tp_buf_puts (out, ": ");
  count_noun (out, tape->len, "node");
  tp_buf_append (out, ", ", 2);
  count_noun (out, tape->n_parameters, "parameter");
  tp_buf_append (out, ", ", 2);
  count_noun (out, tape->n_inputs, "input");
  tp_buf_putc (out, '\n');
}
