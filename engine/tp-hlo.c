/* tp-hlo.c: the plan written as StableHLO text (docs/language.md, stablehlo).
 *
 * One pass over the plan's schedule writes each node's lines
 * straight into the output buffer.  Parameters and inputs are the
 * function's arguments; every other wanted node is %v{i}, with helper
 * values %v{i}_{suffix}.  A Sum of a rank-0 value writes no line and
 * carries its operand's name, so every later use and the return refer to
 * that name.  A node the schedule computes again is written again as
 * %r{i}, and the uses after it name that copy.
 *
 * Like every reading, the module prints at most TP_VALUES_BUDGET constant
 * elements in full (a splat counts one).  A constant beyond that is
 * written as MLIR itself writes an elided constant,
 * dense_resource<__elided__>: the module still parses and keeps every
 * type, but no longer runs.  Only a seeded `leaf` of more than 2^20
 * elements can get there; the zeros and ones differentiate records are
 * splats.
 *
 * With a map, the writer notes every line's node and role and every
 * token's class as it writes them (SSA names with the node they name, op
 * names, keywords, types, numbers).  Constant elements are noted one by
 * one up to TP_MAP_NUMBER_BUDGET per module; a constant past it is one
 * number token over its whole bracketed list. */
#include "tp-hlo.h"

#include <string.h>

#include "tp-alloc.h"
#include "tp-fmt.h"
#include "tp-values.h"

/* A node's name is either %v{node} or, with this bit, %arg{k}; with
 * AGAIN_BIT it is %r{node}, the copy a rematerialised node computes again
 * (its helpers are %r{node}_{suffix}). */
#define ARG_BIT 0x80000000u
#define AGAIN_BIT 0x40000000u

/* Constant elements noted one by one in a module's map. */
#define TP_MAP_NUMBER_BUDGET (UINT64_C (1) << 16)

typedef struct
{
  const TpTape *t;
  TpBuf *out;
  TpMap *map;
  uint32_t *name;       /* per node: a node index, or ARG_BIT | k */
  uint64_t budget;      /* constant elements still printed in full */
  uint64_t map_numbers; /* constant elements still noted one by one */
} Emit;

/* A value in the module: a node's own (possibly aliased) name when suffix
 * is NULL, else the helper %v{node}_{suffix}. */
typedef struct
{
  TpNode node;
  const char *suffix;
} Ref;

static Ref
node_ref (TpNode node)
{
  Ref r = { node, NULL };
  return r;
}

static Ref
helper_ref (TpNode node, const char *suffix)
{
  Ref r = { node, suffix };
  return r;
}

/* Writes the decimal digits of value at p; returns their count. */
static size_t
put_digits (char *p, uint64_t value)
{
  char tmp[20];
  size_t n = 0, k;

  do
    {
      tmp[n++] = (char) ('0' + value % 10);
      value /= 10;
    }
  while (value != 0);
  for (k = 0; k < n; k++)
    p[k] = tmp[n - 1 - k];
  return n;
}

/* Plain text, and text that is one token of the given class. */
static void
put_text (const Emit *e, const char *text)
{
  tp_buf_puts (e->out, text);
}

static void
put_token (const Emit *e, const char *text, TpTokenClass klass)
{
  size_t at = e->out->len;

  tp_buf_puts (e->out, text);
  tp_map_ref (e->map, e->out, at, klass, TP_MAP_NO_NODE);
}

/* "stablehlo.OP" as one op token. */
static void
put_op (const Emit *e, const char *op)
{
  size_t at = e->out->len;

  tp_buf_append (e->out, "stablehlo.", 10);
  tp_buf_puts (e->out, op);
  tp_map_ref (e->map, e->out, at, TP_TOKEN_OP, TP_MAP_NO_NODE);
}

/* An integer as a number token. */
static void
put_int (const Emit *e, uint64_t value)
{
  size_t at = e->out->len;

  tp_buf_u64 (e->out, value);
  tp_map_ref (e->map, e->out, at, TP_TOKEN_NUMBER, TP_MAP_NO_NODE);
}

/* The SSA name of r, a token naming r's node (an aliased Sum's uses name
 * the Sum, though they are written with its operand's name). */
static void
put_ref (const Emit *e, Ref r)
{
  uint32_t name = r.suffix == NULL ? e->name[r.node]
                  : r.node | (e->name[r.node] & AGAIN_BIT);
  char tmp[48];
  size_t n, at = e->out->len;

  if (name & ARG_BIT)
    {
      memcpy (tmp, "%arg", 4);
      n = 4 + put_digits (tmp + 4, name & ~ARG_BIT);
    }
  else
    {
      memcpy (tmp, (name & AGAIN_BIT) ? "%r" : "%v", 2);
      n = 2 + put_digits (tmp + 2, name & ~AGAIN_BIT);
    }
  tp_buf_append (e->out, tmp, n);
  if (r.suffix != NULL)
    {
      tp_buf_putc (e->out, '_');
      tp_buf_puts (e->out, r.suffix);
    }
  tp_map_ref (e->map, e->out, at, TP_TOKEN_SSA, r.node);
}

/* Starts a line that defines r: "    %v3_peak = ". */
static void
put_def (const Emit *e, Ref r)
{
  tp_map_line (e->map, e->out, r.node, TP_ROLE_NODE);
  tp_buf_append (e->out, "    ", 4);
  put_ref (e, r);
  tp_buf_append (e->out, " = ", 3);
}

/* "tensor<2x3xf32>", "tensor<f32>"; elem is "f32" or "i1". */
static void
put_type (const Emit *e, const TpShape *shape, const char *elem)
{
  char tmp[7 + TP_MAX_RANK * 11 + 8];
  size_t n = 7, len = strlen (elem), at = e->out->len;

  memcpy (tmp, "tensor<", 7);
  for (uint32_t d = 0; d < shape->rank; d++)
    {
      n += put_digits (tmp + n, shape->dims[d]);
      tmp[n++] = 'x';
    }
  memcpy (tmp + n, elem, len);
  n += len;
  tmp[n++] = '>';
  tp_buf_append (e->out, tmp, n);
  tp_map_ref (e->map, e->out, at, TP_TOKEN_TYPE, TP_MAP_NO_NODE);
}

static void
put_f32_type (const Emit *e, const TpShape *shape)
{
  put_type (e, shape, "f32");
}

static const TpShape scalar_shape = { 0, { 0 } };

/* "[0, 1]": every axis of [0, rank) except skip (UINT32_MAX for none). */
static void
put_axes_except (const Emit *e, uint32_t rank, uint32_t skip)
{
  bool first = true;

  tp_buf_putc (e->out, '[');
  for (uint32_t d = 0; d < rank; d++)
    {
      if (d == skip)
        continue;
      if (!first)
        tp_buf_append (e->out, ", ", 2);
      first = false;
      put_int (e, d);
    }
  tp_buf_putc (e->out, ']');
}

/* One element as a StableHLO float literal: Rust's Debug form with ".0"
 * put before an exponent whose mantissa has no dot ("1e-5" -> "1.0e-5");
 * non-finite values as the hex of their bits ("0xFF800000"). */
static void
put_f32 (TpBuf *out, float value)
{
  char tmp[TP_FMT_F32_MAX + 2];
  size_t n, e;
  uint32_t bits;

  if (value - value != 0.0f)
    {
      static const char hex[] = "0123456789ABCDEF";
      char h[10];
      memcpy (&bits, &value, sizeof bits);
      h[0] = '0';
      h[1] = 'x';
      for (int k = 0; k < 8; k++)
        h[2 + k] = hex[(bits >> (28 - 4 * k)) & 0xF];
      tp_buf_append (out, h, sizeof h);
      return;
    }
  n = tp_fmt_f32_debug (value, tmp);
  for (e = 0; e < n && tmp[e] != 'e'; e++)
    if (tmp[e] == '.')
      {
        e = n;
        break;
      }
  if (e < n)
    {
      memmove (tmp + e + 2, tmp + e, n - e);
      tmp[e] = '.';
      tmp[e + 1] = '0';
      n += 2;
    }
  tp_buf_append (out, tmp, n);
}

/* The nested-bracket form of data over dims[depth..rank), advancing *pos;
 * each element a number token of map (NULL for none). */
static void
put_nested (TpBuf *out, TpMap *map, const float *data, const TpShape *shape,
            uint32_t depth, uint64_t *pos)
{
  tp_buf_putc (out, '[');
  for (uint32_t k = 0; k < shape->dims[depth]; k++)
    {
      if (k > 0)
        tp_buf_append (out, ", ", 2);
      if (depth + 1 < shape->rank)
        put_nested (out, map, data, shape, depth + 1, pos);
      else
        {
          size_t at = out->len;
          put_f32 (out, data[(*pos)++]);
          tp_map_ref (map, out, at, TP_TOKEN_NUMBER, TP_MAP_NO_NODE);
        }
    }
  tp_buf_putc (out, ']');
}

/* "%r = stablehlo.constant dense<...> : T": the splat form when every
 * element has the same bits (rank 0 always), else nested brackets. */
static void
put_constant (Emit *e, Ref r, const float *data, const TpShape *shape)
{
  uint64_t volume = tp_shape_volume (shape);
  bool splat = true;
  uint32_t first;
  size_t at;

  memcpy (&first, &data[0], sizeof first);
  for (uint64_t k = 1; k < volume && splat; k++)
    {
      uint32_t bits;
      memcpy (&bits, &data[k], sizeof bits);
      splat = bits == first;
    }
  put_def (e, r);
  put_op (e, "constant");
  tp_buf_putc (e->out, ' ');
  if ((splat ? 1 : volume) > e->budget)
    {
      put_token (e, "dense_resource<__elided__>", TP_TOKEN_ATTRIBUTE);
      put_text (e, " : ");
      put_f32_type (e, shape);
      tp_buf_putc (e->out, '\n');
      return;
    }
  e->budget -= splat ? 1 : volume;
  put_token (e, "dense", TP_TOKEN_KEYWORD);
  tp_buf_putc (e->out, '<');
  at = e->out->len;
  if (splat)
    {
      put_f32 (e->out, data[0]);
      tp_map_ref (e->map, e->out, at, TP_TOKEN_NUMBER, TP_MAP_NO_NODE);
    }
  else
    {
      uint64_t pos = 0;
      bool each = e->map != NULL && volume <= e->map_numbers;
      if (each)
        e->map_numbers -= volume;
      put_nested (e->out, each ? e->map : NULL, data, shape, 0, &pos);
      if (!each)
        tp_map_ref (e->map, e->out, at, TP_TOKEN_NUMBER, TP_MAP_NO_NODE);
    }
  tp_buf_append (e->out, "> : ", 4);
  put_f32_type (e, shape);
  tp_buf_putc (e->out, '\n');
}

/* A splat f32 constant of the given value and shape. */
static void
put_splat (const Emit *e, Ref r, const char *literal, const TpShape *shape)
{
  put_def (e, r);
  put_op (e, "constant");
  tp_buf_putc (e->out, ' ');
  put_token (e, "dense", TP_TOKEN_KEYWORD);
  tp_buf_putc (e->out, '<');
  put_token (e, literal, TP_TOKEN_NUMBER);
  tp_buf_append (e->out, "> : ", 4);
  put_f32_type (e, shape);
  tp_buf_putc (e->out, '\n');
}

/* "%r = stablehlo.OP %a : T" */
static void
put_unary (const Emit *e, Ref r, const char *op, Ref a, const TpShape *shape)
{
  put_def (e, r);
  put_op (e, op);
  tp_buf_putc (e->out, ' ');
  put_ref (e, a);
  tp_buf_append (e->out, " : ", 3);
  put_f32_type (e, shape);
  tp_buf_putc (e->out, '\n');
}

/* "%r = stablehlo.OP %a, %b : T" */
static void
put_binary (const Emit *e, Ref r, const char *op, Ref a, Ref b,
            const TpShape *shape)
{
  put_def (e, r);
  put_op (e, op);
  tp_buf_putc (e->out, ' ');
  put_ref (e, a);
  tp_buf_append (e->out, ", ", 2);
  put_ref (e, b);
  tp_buf_append (e->out, " : ", 3);
  put_f32_type (e, shape);
  tp_buf_putc (e->out, '\n');
}

/* "%r = stablehlo.reduce(%a init: %seed) applies stablehlo.COMBINER across
 * dimensions = [...] : (Ta, tensor<f32>) -> Tr", reducing every axis (axis
 * UINT32_MAX) or just one. */
static void
put_reduce_line (const Emit *e, Ref r, Ref seed, const char *combiner, Ref a,
                 const TpShape *in, uint32_t axis, const TpShape *result)
{
  put_def (e, r);
  put_op (e, "reduce");
  tp_buf_putc (e->out, '(');
  put_ref (e, a);
  tp_buf_putc (e->out, ' ');
  put_token (e, "init", TP_TOKEN_KEYWORD);
  put_text (e, ": ");
  put_ref (e, seed);
  put_text (e, ") ");
  put_token (e, "applies", TP_TOKEN_KEYWORD);
  tp_buf_putc (e->out, ' ');
  put_op (e, combiner);
  tp_buf_putc (e->out, ' ');
  put_token (e, "across", TP_TOKEN_KEYWORD);
  tp_buf_putc (e->out, ' ');
  put_token (e, "dimensions", TP_TOKEN_KEYWORD);
  put_text (e, " = ");
  if (axis == UINT32_MAX)
    put_axes_except (e, in->rank, UINT32_MAX);
  else
    {
      tp_buf_putc (e->out, '[');
      put_int (e, axis);
      tp_buf_putc (e->out, ']');
    }
  tp_buf_append (e->out, " : (", 4);
  put_f32_type (e, in);
  tp_buf_append (e->out, ", ", 2);
  put_f32_type (e, &scalar_shape);
  tp_buf_append (e->out, ") -> ", 5);
  put_f32_type (e, result);
  tp_buf_putc (e->out, '\n');
}

/* The seed constant, then the reduce line. */
static void
put_reduce (const Emit *e, Ref r, Ref seed, const char *seed_literal,
            const char *combiner, Ref a, const TpShape *in, uint32_t axis,
            const TpShape *result)
{
  put_splat (e, seed, seed_literal, &scalar_shape);
  put_reduce_line (e, r, seed, combiner, a, in, axis, result);
}

/* "%r = stablehlo.broadcast_in_dim %a, dims = [...] : (Ta) -> T", where
 * the operand's axes map to every result axis except skip. */
static void
put_broadcast_in_dim (const Emit *e, Ref r, Ref a, const TpShape *in,
                      const TpShape *shape, uint32_t skip)
{
  put_def (e, r);
  put_op (e, "broadcast_in_dim");
  tp_buf_putc (e->out, ' ');
  put_ref (e, a);
  tp_buf_append (e->out, ", ", 2);
  put_token (e, "dims", TP_TOKEN_KEYWORD);
  put_text (e, " = ");
  if (skip == UINT32_MAX)
    tp_buf_append (e->out, "[]", 2);
  else
    put_axes_except (e, shape->rank, skip);
  tp_buf_append (e->out, " : (", 4);
  put_f32_type (e, in);
  tp_buf_append (e->out, ") -> ", 5);
  put_f32_type (e, shape);
  tp_buf_putc (e->out, '\n');
}

/* "%r = stablehlo.OP %a : (Ta) -> T" */
static void
put_typed_unary (const Emit *e, Ref r, const char *op, Ref a,
                 const TpShape *in, const TpShape *shape)
{
  put_def (e, r);
  put_op (e, op);
  tp_buf_putc (e->out, ' ');
  put_ref (e, a);
  tp_buf_append (e->out, " : (", 4);
  put_f32_type (e, in);
  tp_buf_append (e->out, ") -> ", 5);
  put_f32_type (e, shape);
  tp_buf_putc (e->out, '\n');
}

static void
put_matmul (Emit *e, TpNode i)
{
  const TpTape *t = e->t;
  TpNode a = t->arg[i][0], b = t->arg[i][1];
  uint32_t rank = t->shape[i].rank;

  put_def (e, node_ref (i));
  put_op (e, "dot_general");
  tp_buf_putc (e->out, ' ');
  put_ref (e, node_ref (a));
  tp_buf_append (e->out, ", ", 2);
  put_ref (e, node_ref (b));
  tp_buf_append (e->out, ", ", 2);
  if (rank > 2)
    {
      put_token (e, "batching_dims", TP_TOKEN_KEYWORD);
      put_text (e, " = ");
      put_axes_except (e, rank - 2, UINT32_MAX);
      tp_buf_append (e->out, " x ", 3);
      put_axes_except (e, rank - 2, UINT32_MAX);
      tp_buf_append (e->out, ", ", 2);
    }
  put_token (e, "contracting_dims", TP_TOKEN_KEYWORD);
  put_text (e, " = [");
  put_int (e, rank - 1);
  put_text (e, "] x [");
  put_int (e, rank - 2);
  put_text (e, "] : (");
  put_f32_type (e, &t->shape[a]);
  tp_buf_append (e->out, ", ", 2);
  put_f32_type (e, &t->shape[b]);
  tp_buf_append (e->out, ") -> ", 5);
  put_f32_type (e, &t->shape[i]);
  tp_buf_putc (e->out, '\n');
}

static void
put_permute (Emit *e, TpNode i)
{
  const TpTape *t = e->t;
  TpNode a = t->arg[i][0];

  put_def (e, node_ref (i));
  put_op (e, "transpose");
  tp_buf_putc (e->out, ' ');
  put_ref (e, node_ref (a));
  tp_buf_append (e->out, ", ", 2);
  put_token (e, "dims", TP_TOKEN_KEYWORD);
  put_text (e, " = [");
  for (uint32_t d = 0; d < t->shape[i].rank; d++)
    {
      if (d > 0)
        tp_buf_append (e->out, ", ", 2);
      put_int (e, t->attr[i].order[d]);
    }
  tp_buf_append (e->out, "] : (", 5);
  put_f32_type (e, &t->shape[a]);
  tp_buf_append (e->out, ") -> ", 5);
  put_f32_type (e, &t->shape[i]);
  tp_buf_putc (e->out, '\n');
}

/* Step(a, b) = a >= b ? 1 : 0, as compare, two constants and select. */
static void
put_step (Emit *e, TpNode i)
{
  const TpTape *t = e->t;
  const TpShape *shape = &t->shape[i];
  Ref mask = helper_ref (i, "mask");

  put_def (e, mask);
  put_op (e, "compare");
  tp_buf_putc (e->out, ' ');
  put_token (e, "GE", TP_TOKEN_ATTRIBUTE);
  tp_buf_append (e->out, ", ", 2);
  put_ref (e, node_ref (t->arg[i][0]));
  tp_buf_append (e->out, ", ", 2);
  put_ref (e, node_ref (t->arg[i][1]));
  tp_buf_append (e->out, ", ", 2);
  put_token (e, "FLOAT", TP_TOKEN_ATTRIBUTE);
  put_text (e, " : (");
  put_f32_type (e, shape);
  tp_buf_append (e->out, ", ", 2);
  put_f32_type (e, shape);
  tp_buf_append (e->out, ") -> ", 5);
  put_type (e, shape, "i1");
  tp_buf_putc (e->out, '\n');
  put_splat (e, helper_ref (i, "ones"), "1.0", shape);
  put_splat (e, helper_ref (i, "zeros"), "0.0", shape);
  put_def (e, node_ref (i));
  put_op (e, "select");
  tp_buf_putc (e->out, ' ');
  put_ref (e, mask);
  tp_buf_append (e->out, ", ", 2);
  put_ref (e, helper_ref (i, "ones"));
  tp_buf_append (e->out, ", ", 2);
  put_ref (e, helper_ref (i, "zeros"));
  tp_buf_append (e->out, " : ", 3);
  put_type (e, shape, "i1");
  tp_buf_append (e->out, ", ", 2);
  put_f32_type (e, shape);
  tp_buf_putc (e->out, '\n');
}

/* The stable decomposition shared by LogSoftmax and LogSumExp
 * (docs/language.md, stablehlo): shift by the peak along the axis,
 * exponentiate, sum, take the log.  LogSoftmax then broadcasts the
 * normalizer back and subtracts it from the centered values; LogSumExp
 * adds it to the peak. */
static void
put_log_ops (const Emit *e, TpNode i, bool softmax)
{
  const TpTape *t = e->t;
  TpNode a = t->arg[i][0];
  uint32_t k = t->attr[i].axis;
  const TpShape *in = &t->shape[a];
  TpShape reduced;

  tp_shape_drop_axis (in, k, &reduced);
  /* The peak's seed is -inf, so it is written here rather than through
   * put_reduce, whose seed is a splat of the add identity. */
  put_splat (e, helper_ref (i, "low"), "0xFF800000", &scalar_shape);
  put_reduce_line (e, helper_ref (i, "peak"), helper_ref (i, "low"),
                   "maximum", node_ref (a), in, k, &reduced);
  put_broadcast_in_dim (e, helper_ref (i, "spread_peak"),
                        helper_ref (i, "peak"), &reduced, in, k);
  put_binary (e, helper_ref (i, "centered"), "subtract", node_ref (a),
              helper_ref (i, "spread_peak"), in);
  put_unary (e, helper_ref (i, "exp"), "exponential",
             helper_ref (i, "centered"), in);
  put_reduce (e, helper_ref (i, "total"), helper_ref (i, "total_seed"),
              "0.0", "add", helper_ref (i, "exp"), in, k, &reduced);
  put_unary (e, helper_ref (i, "normalizer"), "log", helper_ref (i, "total"),
             &reduced);
  if (softmax)
    {
      put_broadcast_in_dim (e, helper_ref (i, "spread_normalizer"),
                            helper_ref (i, "normalizer"), &reduced, in, k);
      put_binary (e, node_ref (i), "subtract", helper_ref (i, "centered"),
                  helper_ref (i, "spread_normalizer"), in);
    }
  else
    put_binary (e, node_ref (i), "add", helper_ref (i, "peak"),
                helper_ref (i, "normalizer"), &reduced);
}

/* The writers the rows name (engine/tp-ops.def, HLO): PLAIN is the
 * one-line form with the row's spelling, OWN (x) is put_x. */

/* "%r = stablehlo.OP %a : T" or "%r = stablehlo.OP %a, %b : T" */
static void
put_plain (Emit *e, TpNode i)
{
  const TpTape *t = e->t;
  const TpOpInfo *info = &tp_op_info[t->op[i]];

  if (info->arity == 2)
    put_binary (e, node_ref (i), info->hlo, node_ref (t->arg[i][0]),
                node_ref (t->arg[i][1]), &t->shape[i]);
  else
    put_unary (e, node_ref (i), info->hlo, node_ref (t->arg[i][0]),
               &t->shape[i]);
}

static void
put_leaf (Emit *e, TpNode i)
{
  put_constant (e, node_ref (i), e->t->payload[i], &e->t->shape[i]);
}

/* Parameters and inputs are the function's arguments: no line. */
static void
put_argument (Emit *e, TpNode i)
{
  (void) e;
  (void) i;
}

/* A Sum of a rank-0 value writes no line and takes its operand's name. */
static void
put_sum (Emit *e, TpNode i)
{
  const TpTape *t = e->t;
  TpNode a = t->arg[i][0];

  if (t->shape[a].rank == 0)
    e->name[i] = e->name[a];
  else
    put_reduce (e, node_ref (i), helper_ref (i, "seed"), "0.0", "add",
                node_ref (a), &t->shape[a], UINT32_MAX, &t->shape[i]);
}

static void
put_sum_along (Emit *e, TpNode i)
{
  const TpTape *t = e->t;
  TpNode a = t->arg[i][0];

  put_reduce (e, node_ref (i), helper_ref (i, "seed"), "0.0", "add",
              node_ref (a), &t->shape[a], t->attr[i].axis, &t->shape[i]);
}

/* A rank-0 value reshaped to a scalar first when it is not one already
 * (a rank-0 tensor is), then broadcast to every axis. */
static void
put_broadcast (Emit *e, TpNode i)
{
  const TpTape *t = e->t;
  TpNode a = t->arg[i][0];
  Ref src = node_ref (a);

  if (t->shape[a].rank > 0)
    {
      src = helper_ref (i, "scalar");
      put_typed_unary (e, src, "reshape", node_ref (a), &t->shape[a],
                       &scalar_shape);
    }
  put_broadcast_in_dim (e, node_ref (i), src, &scalar_shape, &t->shape[i],
                        UINT32_MAX);
}

static void
put_broadcast_along (Emit *e, TpNode i)
{
  const TpTape *t = e->t;
  TpNode a = t->arg[i][0];

  put_broadcast_in_dim (e, node_ref (i), node_ref (a), &t->shape[a],
                        &t->shape[i], t->attr[i].axis);
}

static void
put_reshape (Emit *e, TpNode i)
{
  const TpTape *t = e->t;
  TpNode a = t->arg[i][0];

  put_typed_unary (e, node_ref (i), "reshape", node_ref (a), &t->shape[a],
                   &t->shape[i]);
}

static void
put_log_softmax (Emit *e, TpNode i)
{
  put_log_ops (e, i, true);
}

static void
put_log_sum_exp (Emit *e, TpNode i)
{
  put_log_ops (e, i, false);
}

/* Each op's writer, from its row, for the lines of a wanted node that is
 * not an argument: a row naming a writer that does not exist does not
 * compile. */
#define TP_HLO_PLAIN(spelling) put_plain
#define TP_HLO_OWN(writer) put_##writer
static void (*const writers[TP_N_OPS]) (Emit *e, TpNode i) = {
#define TP_OP_ROW(ID, NAME, ARITY, ATTR, HLO, ...) [TP_OP_##ID] = TP_HLO_##HLO,
#include "tp-ops.def"
};
#undef TP_HLO_PLAIN
#undef TP_HLO_OWN

uint32_t
tp_hlo_arguments (const TpPlan *plan, TpNode *args)
{
  const TpTape *t = plan->tape;
  uint32_t n = 0;

  for (TpOp kind = TP_OP_PARAMETER; kind <= TP_OP_INPUT; kind++)
    for (TpNode i = 0; i < t->len; i++)
      if (plan->wanted[i] && t->op[i] == kind)
        args[n++] = i;
  return n;
}

void
tp_hlo_write (const TpPlan *plan, TpBuf *out, TpMap *map)
{
  const TpTape *t = plan->tape;
  Emit e;
  TpNode *args;
  uint32_t n_args;

  e.t = t;
  e.out = out;
  e.map = map;
  e.budget = TP_VALUES_BUDGET;
  e.map_numbers = TP_MAP_NUMBER_BUDGET;
  e.name = tp_malloc (((size_t) t->len + 1) * sizeof *e.name);
  args = tp_malloc (((size_t) t->len + 1) * sizeof *args);
  if (e.name == NULL || args == NULL)
    {
      out->failed = true;
      tp_free (e.name);
      tp_free (args);
      return;
    }
  for (TpNode i = 0; i < t->len; i++)
    e.name[i] = i;
  n_args = tp_hlo_arguments (plan, args);
  for (uint32_t k = 0; k < n_args; k++)
    e.name[args[k]] = ARG_BIT | k;

  tp_map_line (map, out, TP_MAP_NO_NODE, TP_ROLE_FRAME);
  put_token (&e, "module", TP_TOKEN_KEYWORD);
  tp_buf_putc (out, ' ');
  put_token (&e, "@topos", TP_TOKEN_SYMBOL);
  put_text (&e, " {\n");
  tp_map_line (map, out, TP_MAP_NO_NODE, TP_ROLE_FRAME);
  put_text (&e, "  ");
  put_token (&e, "func.func", TP_TOKEN_OP);
  tp_buf_putc (out, ' ');
  put_token (&e, "@main", TP_TOKEN_SYMBOL);
  tp_buf_putc (out, '(');
  for (uint32_t k = 0; k < n_args; k++)
    {
      if (k > 0)
        tp_buf_append (out, ", ", 2);
      put_ref (&e, node_ref (args[k]));
      tp_buf_append (out, ": ", 2);
      put_f32_type (&e, &t->shape[args[k]]);
    }
  tp_buf_puts (out, ") -> (");
  for (uint32_t r = 0; r < plan->n_results; r++)
    {
      if (r > 0)
        tp_buf_append (out, ", ", 2);
      put_f32_type (&e, &t->shape[plan->results[r]]);
    }
  tp_buf_puts (out, ") {\n");

  for (uint32_t s = 0; s < plan->n_order; s++)
    {
      TpNode i = plan->order[s];
      if (e.name[i] & ARG_BIT)
        continue;
      if (plan->again[s])
        e.name[i] = AGAIN_BIT | i;
      writers[t->op[i]] (&e, i);
    }

  tp_map_line (map, out, TP_MAP_NO_NODE, TP_ROLE_RESULT);
  put_text (&e, "    ");
  put_token (&e, "return", TP_TOKEN_KEYWORD);
  tp_buf_putc (out, ' ');
  for (uint32_t r = 0; r < plan->n_results; r++)
    {
      if (r > 0)
        tp_buf_append (out, ", ", 2);
      put_ref (&e, node_ref (plan->results[r]));
    }
  tp_buf_append (out, " : ", 3);
  for (uint32_t r = 0; r < plan->n_results; r++)
    {
      if (r > 0)
        tp_buf_append (out, ", ", 2);
      put_f32_type (&e, &t->shape[plan->results[r]]);
    }
  tp_buf_putc (out, '\n');
  tp_map_line (map, out, TP_MAP_NO_NODE, TP_ROLE_FRAME);
  put_text (&e, "  }\n");
  tp_map_line (map, out, TP_MAP_NO_NODE, TP_ROLE_FRAME);
  put_text (&e, "}\n");
  tp_free (e.name);
  tp_free (args);
}

void
tp_hlo_emit (const TpPlan *plan, TpBuf *out)
{
  tp_hlo_write (plan, out, NULL);
}
