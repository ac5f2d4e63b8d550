/* tp-forward.c: forward mode's direction and tangent tape (tp-forward.h).
 *
 * The tangent rules are the JVP of each op in the letters of the explain
 * reading: ta and tb the operands' tangents, a and b the operands, y the
 * node's value.  A zero tangent has no node, so a rule records only the
 * parts that are not zero (x * 2.0 records ta * b, never a * 0); a node
 * none of whose operands has a tangent gets none.  Each recorded node
 * keeps its phrase (TpProvenance), for the step-through. */
#include "tp-forward.h"

#include <string.h>

#include "tp-buf.h"
#include "tp-lex.h"
#include "tp-run.h"

#define NONE TP_NO_NODE

/* {==== the direction ====} */

/* Element e of the seeded direction of parameter node p. */
static void
seeded_fill (TpNode p, float *out, uint64_t n)
{
  uint64_t state = TP_FORWARD_SEED + p;

  for (uint64_t e = 0; e < n; e++)
    {
      uint64_t z;
      int k;

      state += UINT64_C (0x9E3779B97F4A7C15);
      z = state;
      z = (z ^ (z >> 30)) * UINT64_C (0xBF58476D1CE4E5B9);
      z = (z ^ (z >> 27)) * UINT64_C (0x94D049BB133111EB);
      z ^= z >> 31;
      k = (int) (z >> 61);
      out[e] = (float) (k < 4 ? k - 4 : k - 3) / 4.0f;
    }
}

static bool
is_blank (char c)
{
  return c == ' ' || c == '\t';
}

static void
while_blank (const char **p)
{
  while (is_blank (**p))
    (*p)++;
}

/* The asked text quoted as diagnostics quote source text (D13). */
static void
put_asked (TpBuf *out, const char *asked)
{
  tp_buf_putc (out, '`');
  tp_lex_put_text (out, asked, strlen (asked));
  tp_buf_putc (out, '`');
}

/* Reads "[i, j, ...]" at *p into index (at most TP_MAX_RANK + 1 of them,
 * so that one too many is seen); false when it is not that. */
static bool
read_index (const char **p, uint64_t *index, uint32_t *n)
{
  const char *at = *p;

  *n = 0;
  if (*at != '[')
    return false;
  at++;
  while (is_blank (*at))
    at++;
  if (*at == ']')
    {
      *p = at + 1;
      return true;
    }
  for (;;)
    {
      uint64_t v = 0;
      if (*at < '0' || *at > '9' || *n > TP_MAX_RANK)
        return false;
      while (*at >= '0' && *at <= '9')
        {
          if (v > UINT32_MAX)
            return false;
          v = v * 10 + (uint64_t) (*at++ - '0');
        }
      index[(*n)++] = v;
      while (is_blank (*at))
        at++;
      if (*at == ']')
        {
          *p = at + 1;
          return true;
        }
      if (*at++ != ',')
        return false;
      while (is_blank (*at))
        at++;
    }
}

/* Says why asked picks no element: into d->error, in the arena. */
static bool
direction_error (TpDirection *d, TpBuf *msg, TpArena *arena)
{
  if (msg->failed)
    return false;
  d->error = tp_arena_strndup (arena, msg->data != NULL ? msg->data : "",
                               msg->len);
  tp_buf_clear (msg);
  return d->error != NULL;
}

/* Which parameter and element asked names; false with msg saying why. */
static bool
pick_element (const TpTape *tape, const TpNode *wrt,
              const char *const *names, uint32_t n_wrt, const char *asked,
              uint32_t *param, uint64_t *element, TpBuf *msg)
{
  const char *start = asked, *end, *p;
  uint64_t index[TP_MAX_RANK + 1];
  uint32_t n_index = 0, k;
  const TpShape *shape;
  bool has_index;

  while (is_blank (*start))
    start++;
  end = start;
  while (*end != '\0' && *end != '[' && !is_blank (*end))
    end++;
  for (k = 0; k < n_wrt; k++)
    if (strlen (names[k]) == (size_t) (end - start)
        && memcmp (names[k], start, (size_t) (end - start)) == 0)
      break;
  if (k == n_wrt)
    {
      tp_buf_puts (msg, "`");
      tp_lex_put_text (msg, start, (size_t) (end - start));
      tp_buf_puts (msg, n_wrt == 0 ? "` is no parameter: the program has none"
                                   : "` is no parameter; the parameters are ");
      for (uint32_t j = 0; j < n_wrt && j < 8; j++)
        {
          tp_buf_puts (msg, j > 0 ? ", " : "");
          tp_buf_puts (msg, names[j]);
        }
      if (n_wrt > 8)
        tp_buf_puts (msg, ", ...");
      return false;
    }
  p = end;
  while (is_blank (*p))
    p++;
  has_index = *p == '[';
  if ((has_index && !read_index (&p, index, &n_index))
      || (while_blank (&p), *p != '\0'))
    {
      put_asked (msg, asked);
      tp_buf_puts (msg, " is not a parameter element: write NAME or "
                        "NAME[i, j]");
      return false;
    }
  shape = &tape->shape[wrt[k]];
  *param = k;
  *element = 0;
  if (!has_index)
    return true;                /* NAME: its first element */
  if (n_index != shape->rank)
    {
      tp_buf_puts (msg, names[k]);
      tp_buf_puts (msg, " has shape ");
      tp_buf_shape (msg, shape);
      tp_buf_puts (msg, ": an element of it takes ");
      tp_buf_u64 (msg, shape->rank);
      tp_buf_puts (msg, shape->rank == 1 ? " index, not " : " indices, not ");
      tp_buf_u64 (msg, n_index);
      return false;
    }
  for (uint32_t a = 0; a < n_index; a++)
    {
      if (index[a] >= shape->dims[a])
        {
          put_asked (msg, asked);
          tp_buf_puts (msg, " is outside ");
          tp_buf_puts (msg, names[k]);
          tp_buf_puts (msg, "'s shape ");
          tp_buf_shape (msg, shape);
          return false;
        }
      *element = *element * shape->dims[a] + index[a];
    }
  return true;
}

bool
tp_forward_direction (TpDirection *d, const TpTape *tape, const TpNode *wrt,
                      const char *const *names, uint32_t n_wrt,
                      const char *asked, TpArena *arena)
{
  uint32_t hot = 0;
  uint64_t element = 0;
  bool one_hot = false;

  memset (d, 0, sizeof *d);
  d->v = tp_arena_calloc (arena, (size_t) n_wrt + 1, sizeof *d->v);
  if (d->v == NULL)
    return false;
  if (asked != NULL && asked[0] != '\0')
    {
      TpBuf msg;
      tp_buf_init (&msg);
      one_hot = pick_element (tape, wrt, names, n_wrt, asked, &hot, &element,
                              &msg);
      if (!one_hot && !direction_error (d, &msg, arena))
        return false;
      tp_buf_clear (&msg);
    }
  for (uint32_t k = 0; k < n_wrt; k++)
    {
      uint64_t n = tp_shape_volume (&tape->shape[wrt[k]]);
      d->v[k] = tp_arena_alloc (arena, (size_t) n * sizeof (float));
      if (d->v[k] == NULL)
        return false;
      if (!one_hot)
        seeded_fill (wrt[k], d->v[k], n);
      else
        {
          for (uint64_t e = 0; e < n; e++)
            d->v[k][e] = 0.0f;
          if (k == hot)
            d->v[k][element] = 1.0f;
        }
    }
  d->one_hot = one_hot;
  d->hot = hot;
  d->hot_element = element;
  return true;
}

/* {==== the tangent tape ====} */

typedef struct
{
  TpForward *f;
  uint32_t cap;             /* room in f->why */
  TpNode of;                /* the program node whose rule records */
  uint32_t step;
} Fwd;

/* Stores why node n (the tangent tape's newest) was recorded. */
static TpNode
note (Fwd *w, TpNode n, const TpProvenance *why)
{
  TpForward *f = w->f;
  uint32_t k;

  if (n == NONE)
    return NONE;
  k = n - f->spec_nodes;
  if (k >= w->cap)
    {
      uint32_t cap = w->cap < 64 ? 64 : w->cap * 2;
      TpProvenance *grown = tp_arena_grow (f->tape.arena, f->why, w->cap, cap,
                                           sizeof *grown);
      if (grown == NULL)
        {
          f->tape.error = TP_TAPE_NO_MEMORY;
          return NONE;
        }
      f->why = grown;
      w->cap = cap;
    }
  f->why[k] = *why;
  return n;
}

/* Node n is the next step of w->of's tangent rule, which phrase says. */
static TpNode
rule (Fwd *w, TpNode n, const char *phrase)
{
  TpProvenance why = { .phrase = phrase, .of = w->of, .from = NONE,
                       .step = w->step++, .role = TP_PROVENANCE_RULE };

  return note (w, n, &why);
}

/* Records node i's tangent rule, with ta and tb its operands' tangents
 * (NONE for zero; not both), into *out.  False when a record fails. */
static bool
tangent_rule (Fwd *w, TpNode i, TpNode ta, TpNode tb, TpNode *out)
{
  TpTape *t = &w->f->tape;
  TpOp op = (TpOp) t->op[i];
  TpNode a = t->arg[i][0], b = t->arg[i][1], y = i;
  const TpAttr *attr = &t->attr[i];
  TpNode u, v, r = NONE;

  w->of = i;
  w->step = 0;
  switch (op)
    {
    case TP_OP_ADD:
      if (ta == NONE || tb == NONE)
        {
          /* the other operand's tangent passes through */
          *out = ta != NONE ? ta : tb;
          return true;
        }
      r = rule (w, tp_tape_binary (t, TP_OP_ADD, ta, tb),
                "ta + tb, the tangent of a sum");
      break;
    case TP_OP_SUB:
      if (tb == NONE)
        {
          *out = ta;
          return true;
        }
      r = ta == NONE
          ? rule (w, tp_tape_unary (t, TP_OP_NEG, tb),
                  "-tb, the tangent of a difference whose left side is fixed")
          : rule (w, tp_tape_binary (t, TP_OP_SUB, ta, tb),
                  "ta - tb, the tangent of a difference");
      break;
    case TP_OP_MUL:
      u = ta == NONE ? NONE
          : rule (w, tp_tape_binary (t, TP_OP_MUL, ta, b),
                  "ta * b, the left operand's part: its tangent times the "
                  "other operand");
      if (ta != NONE && u == NONE)
        return false;
      v = tb == NONE ? NONE
          : rule (w, tp_tape_binary (t, TP_OP_MUL, a, tb),
                  "a * tb, the right operand's part: the other operand times "
                  "its tangent");
      if (tb != NONE && v == NONE)
        return false;
      r = u == NONE || v == NONE ? (u == NONE ? v : u)
          : rule (w, tp_tape_binary (t, TP_OP_ADD, u, v),
                  "ta * b + a * tb, the product rule");
      break;
    case TP_OP_DIV:
      if (tb == NONE)
        {
          r = rule (w, tp_tape_binary (t, TP_OP_DIV, ta, b),
                    "ta / b, the tangent of a quotient by a fixed divisor");
          break;
        }
      if ((u = rule (w, tp_tape_binary (t, TP_OP_MUL, y, tb),
                     "y * tb")) == NONE)
        return false;
      if (ta == NONE)
        {
          if ((v = rule (w, tp_tape_binary (t, TP_OP_DIV, u, b),
                         "(y * tb) / b")) == NONE)
            return false;
          r = rule (w, tp_tape_unary (t, TP_OP_NEG, v),
                    "-(y * tb) / b, the tangent of a quotient of a fixed "
                    "numerator");
          break;
        }
      if ((v = rule (w, tp_tape_binary (t, TP_OP_SUB, ta, u),
                     "ta - y * tb")) == NONE)
        return false;
      r = rule (w, tp_tape_binary (t, TP_OP_DIV, v, b),
                "(ta - y * tb) / b, the quotient rule");
      break;
    case TP_OP_MAXIMUM:
      if ((u = rule (w, tp_tape_binary (t, TP_OP_STEP, a, b),
                     "step(a, b): 1 where a won (ties go to a)")) == NONE)
        return false;
      v = ta == NONE ? NONE
          : rule (w, tp_tape_binary (t, TP_OP_MUL, u, ta),
                  "step(a, b) * ta, the left operand's part");
      if (ta != NONE && v == NONE)
        return false;
      if (tb == NONE)
        {
          r = v;
          break;
        }
      {
        TpNode ones, lose, part;
        if ((ones = rule (w, tp_tape_fill (t, TP_OP_LEAF, &t->shape[y], 1.0f),
                          "ones")) == NONE
            || (lose = rule (w, tp_tape_binary (t, TP_OP_SUB, ones, u),
                             "1 - step(a, b): 1 where b won")) == NONE
            || (part = rule (w, tp_tape_binary (t, TP_OP_MUL, lose, tb),
                             "(1 - step(a, b)) * tb, the right operand's "
                             "part")) == NONE)
          return false;
        r = v == NONE ? part
            : rule (w, tp_tape_binary (t, TP_OP_ADD, v, part),
                    "the two parts: the tangent of the side that won");
      }
      break;
    case TP_OP_STEP:
      *out = NONE;            /* flat wherever it is defined */
      return true;
    case TP_OP_NEG:
      r = rule (w, tp_tape_unary (t, TP_OP_NEG, ta), "-ta, the tangent of "
                                                     "a negation");
      break;
    case TP_OP_EXP:
      r = rule (w, tp_tape_binary (t, TP_OP_MUL, ta, y),
                "ta * y: exp is its own derivative");
      break;
    case TP_OP_LN:
      r = rule (w, tp_tape_binary (t, TP_OP_DIV, ta, a), "ta / a");
      break;
    case TP_OP_SQRT:
      if ((u = rule (w, tp_tape_binary (t, TP_OP_ADD, y, y),
                     "y + y")) == NONE)
        return false;
      r = rule (w, tp_tape_binary (t, TP_OP_DIV, ta, u), "ta / (y + y)");
      break;
    case TP_OP_TANH:
      {
        TpNode ones, sq, slope;
        if ((ones = rule (w, tp_tape_fill (t, TP_OP_LEAF, &t->shape[y], 1.0f),
                          "ones")) == NONE
            || (sq = rule (w, tp_tape_binary (t, TP_OP_MUL, y, y),
                           "y * y")) == NONE
            || (slope = rule (w, tp_tape_binary (t, TP_OP_SUB, ones, sq),
                              "1 - y * y, tanh's derivative")) == NONE)
          return false;
        r = rule (w, tp_tape_binary (t, TP_OP_MUL, ta, slope),
                  "ta * (1 - y * y)");
      }
      break;
    case TP_OP_SIN:
      if ((u = rule (w, tp_tape_unary (t, TP_OP_COS, a),
                     "cos(a), sin's derivative")) == NONE)
        return false;
      r = rule (w, tp_tape_binary (t, TP_OP_MUL, ta, u), "ta * cos(a)");
      break;
    case TP_OP_COS:
      if ((u = rule (w, tp_tape_unary (t, TP_OP_SIN, a), "sin(a)")) == NONE
          || (v = rule (w, tp_tape_binary (t, TP_OP_MUL, ta, u),
                        "ta * sin(a)")) == NONE)
        return false;
      r = rule (w, tp_tape_unary (t, TP_OP_NEG, v),
                "-(ta * sin(a)), cos's derivative is -sin");
      break;
    case TP_OP_MATMUL:
      u = ta == NONE ? NONE
          : rule (w, tp_tape_binary (t, TP_OP_MATMUL, ta, b),
                  "ta @ b, the left operand's part");
      if (ta != NONE && u == NONE)
        return false;
      v = tb == NONE ? NONE
          : rule (w, tp_tape_binary (t, TP_OP_MATMUL, a, tb),
                  "a @ tb, the right operand's part");
      if (tb != NONE && v == NONE)
        return false;
      r = u == NONE || v == NONE ? (u == NONE ? v : u)
          : rule (w, tp_tape_binary (t, TP_OP_ADD, u, v),
                  "ta @ b + a @ tb, the product rule");
      break;
    case TP_OP_SUM:
      r = rule (w, tp_tape_unary (t, TP_OP_SUM, ta),
                "sum(ta): a sum's tangent is the sum of the tangents");
      break;
    case TP_OP_SUM_ALONG:
      r = rule (w, tp_tape_axis (t, TP_OP_SUM_ALONG, ta, attr->axis),
                "sum_along(ta) along the same axis");
      break;
    case TP_OP_BROADCAST:
      r = rule (w, tp_tape_shaped (t, TP_OP_BROADCAST, ta, &t->shape[y]),
                "ta broadcast to the same shape");
      break;
    case TP_OP_BROADCAST_ALONG:
      r = rule (w, tp_tape_broadcast_along (t, ta, attr->axis, attr->extent),
                "ta repeated along the same axis");
      break;
    case TP_OP_RESHAPE:
      r = rule (w, tp_tape_shaped (t, TP_OP_RESHAPE, ta, &t->shape[y]),
                "ta reshaped the same way");
      break;
    case TP_OP_PERMUTE:
      r = rule (w, tp_tape_permute (t, ta, attr->order),
                "ta permuted the same way");
      break;
    case TP_OP_LOG_SOFTMAX:
      {
        uint32_t n = t->shape[a].dims[attr->axis];
        TpNode soft, part, total, spread;
        if ((soft = rule (w, tp_tape_unary (t, TP_OP_EXP, y),
                          "exp(y), the softmax")) == NONE
            || (part = rule (w, tp_tape_binary (t, TP_OP_MUL, soft, ta),
                             "softmax * ta")) == NONE
            || (total = rule (w, tp_tape_axis (t, TP_OP_SUM_ALONG, part,
                                               attr->axis),
                              "sum_along(softmax * ta), the normalizer's "
                              "tangent")) == NONE
            || (spread = rule (w, tp_tape_broadcast_along (t, total,
                                                           attr->axis, n),
                               "that sum repeated along the axis")) == NONE)
          return false;
        r = rule (w, tp_tape_binary (t, TP_OP_SUB, ta, spread),
                  "ta - sum_along(softmax * ta)");
      }
      break;
    case TP_OP_LOG_SUM_EXP:
      {
        uint32_t n = t->shape[a].dims[attr->axis];
        TpNode spread, centred, soft, part;
        if ((spread = rule (w, tp_tape_broadcast_along (t, y, attr->axis, n),
                            "y repeated along the axis")) == NONE
            || (centred = rule (w, tp_tape_binary (t, TP_OP_SUB, a, spread),
                                "a - y")) == NONE
            || (soft = rule (w, tp_tape_unary (t, TP_OP_EXP, centred),
                             "exp(a - y), the softmax")) == NONE
            || (part = rule (w, tp_tape_binary (t, TP_OP_MUL, soft, ta),
                             "softmax * ta")) == NONE)
          return false;
        r = rule (w, tp_tape_axis (t, TP_OP_SUM_ALONG, part, attr->axis),
                  "sum_along(softmax * ta), the weighted tangent");
      }
      break;
    case TP_OP_LEAF:
    case TP_OP_PARAMETER:
    case TP_OP_INPUT:
      *out = NONE;
      return true;
    }
  *out = r;
  return r != NONE;
}

/* The elements and work of the program's first n nodes, as the tape
 * counts them. */
static void
count_prefix (TpTape *copy, uint32_t n)
{
  copy->elements = 0;
  copy->work = 0;
  for (TpNode i = 0; i < n; i++)
    {
      copy->elements += tp_shape_volume (&copy->shape[i]);
      copy->work += tp_tape_node_work (copy, i);
    }
}

/* The most nodes op's tangent rule records. */
static uint32_t
rule_nodes (TpOp op)
{
  switch (op)
    {
    case TP_OP_MAXIMUM:
      return 6;
    case TP_OP_LOG_SOFTMAX:
    case TP_OP_LOG_SUM_EXP:
      return 5;
    case TP_OP_TANH:
      return 4;
    case TP_OP_MUL:
    case TP_OP_DIV:
    case TP_OP_COS:
    case TP_OP_MATMUL:
      return 3;
    case TP_OP_SQRT:
    case TP_OP_SIN:
      return 2;
    case TP_OP_LEAF:
    case TP_OP_PARAMETER:
    case TP_OP_INPUT:
    case TP_OP_STEP:
      return 0;
    case TP_OP_ADD:
    case TP_OP_SUB:
    case TP_OP_NEG:
    case TP_OP_EXP:
    case TP_OP_LN:
    case TP_OP_SUM:
    case TP_OP_SUM_ALONG:
    case TP_OP_BROADCAST:
    case TP_OP_BROADCAST_ALONG:
    case TP_OP_RESHAPE:
    case TP_OP_PERMUTE:
      return 1;
    }
  return 6;
}

/* Gives the copy columns of its own with room for every tangent node it
 * can record (a bound from the rules of the nodes a parameter reaches),
 * so that recording never grows them: grown, the arena would keep every
 * smaller copy too. */
static bool
reserve (TpTape *t, const TpTape *tape, uint32_t spec_nodes, TpNode target,
         const uint8_t *anc, const TpNode *wrt, uint32_t n_wrt)
{
  uint8_t *dep = tp_arena_calloc (t->arena, (size_t) spec_nodes + 1, 1);
  uint64_t cap = (uint64_t) spec_nodes + n_wrt + 1;
  size_t n = spec_nodes;

  if (dep == NULL)
    return false;
  for (uint32_t k = 0; k < n_wrt; k++)
    dep[wrt[k]] = 1;
  for (TpNode i = 0; i <= target; i++)
    {
      uint32_t arity = tp_op_info[tape->op[i]].arity;
      if (arity > 0)
        dep[i] = dep[tape->arg[i][0]] || (arity > 1 && dep[tape->arg[i][1]]);
      if (dep[i] && anc[i])
        cap += rule_nodes ((TpOp) tape->op[i]);
    }
  if (cap > TP_LIMIT_NODES + 1)
    cap = TP_LIMIT_NODES + 1;
  t->op = tp_arena_grow (t->arena, tape->op, n, cap, sizeof *t->op);
  t->arg = tp_arena_grow (t->arena, tape->arg, n, cap, sizeof *t->arg);
  t->shape = tp_arena_grow (t->arena, tape->shape, n, cap, sizeof *t->shape);
  t->attr = tp_arena_grow (t->arena, tape->attr, n, cap, sizeof *t->attr);
  t->payload = tp_arena_grow (t->arena, tape->payload, n, cap,
                              sizeof *t->payload);
  t->cap = (uint32_t) cap;
  return t->op != NULL && t->arg != NULL && t->shape != NULL
         && t->attr != NULL && t->payload != NULL;
}

/* Runs the tangent nodes, reading the program's values. */
static bool
run_tangent (TpForward *f, float *const *values, TpArena *arena)
{
  TpTape *t = &f->tape;
  uint8_t *run = tp_arena_calloc (arena, (size_t) t->len + 1, 1);
  size_t scratch_n = tp_run_scratch_size (t);
  float *scratch = NULL;

  f->values = tp_arena_alloc (arena, ((size_t) t->len + 1) * sizeof *f->values);
  if (run == NULL || f->values == NULL)
    return false;
  if (scratch_n > 0
      && (scratch = tp_arena_alloc (arena, scratch_n * sizeof *scratch))
         == NULL)
    return false;
  for (TpNode i = 0; i < t->len; i++)
    {
      if (i < f->spec_nodes)
        f->values[i] = values[i];
      else if (tp_tape_is_source (t, i))
        f->values[i] = t->payload[i];
      else
        {
          f->values[i] = tp_arena_alloc (arena,
                                         (size_t) tp_shape_volume (&t->shape[i])
                                         * sizeof (float));
          if (f->values[i] == NULL)
            return false;
          run[i] = 1;
        }
    }
  tp_run_again (t, f->values, scratch, run);
  return true;
}

bool
tp_forward_build (TpForward *f, const TpTape *tape, uint32_t spec_nodes,
                  TpNode target, const TpNode *wrt, uint32_t n_wrt,
                  const TpDirection *direction, float *const *values,
                  TpArena *arena)
{
  Fwd w = { .f = f };
  TpTape *t = &f->tape;
  uint8_t *anc;

  memset (f, 0, sizeof *f);
  f->spec_nodes = spec_nodes;
  f->target = target;
  f->tangent = NONE;
  /* A copy of the program's columns: the first record grows them into
   * arrays of the copy's own (tp_arena_grow always copies), so the
   * session's tape, gradient included, is never written. */
  *t = *tape;
  t->len = spec_nodes;
  t->cap = spec_nodes;
  t->provenance = NULL;
  t->n_provenance = 0;
  t->derived = spec_nodes;
  t->error = TP_TAPE_OK;
  count_prefix (t, spec_nodes);
  f->tan = tp_arena_alloc (arena, ((size_t) spec_nodes + 1) * sizeof *f->tan);
  f->seeds = tp_arena_alloc (arena, ((size_t) n_wrt + 1) * sizeof *f->seeds);
  anc = tp_arena_calloc (arena, (size_t) spec_nodes + 1, 1);
  if (f->tan == NULL || f->seeds == NULL || anc == NULL)
    return false;
  for (TpNode i = 0; i < spec_nodes; i++)
    f->tan[i] = NONE;
  anc[target] = 1;
  for (TpNode i = target + 1; i-- > 0;)
    if (anc[i])
      for (uint32_t k = 0; k < tp_op_info[t->op[i]].arity; k++)
        anc[t->arg[i][k]] = 1;
  for (TpNode i = 0; i <= target; i++)
    if (anc[i])
      f->work_program += tp_tape_node_work (t, i);
  for (uint32_t k = 0; k < n_wrt; k++)
    f->n_elements += tp_shape_volume (&t->shape[wrt[k]]);

  if (!reserve (t, tape, spec_nodes, target, anc, wrt, n_wrt))
    return false;
  /* Each parameter's tangent: a Leaf holding its part of the direction. */
  for (uint32_t k = 0; k < n_wrt; k++)
    {
      TpNode p = wrt[k];
      TpProvenance why = { .of = p, .from = NONE,
                           .role = TP_PROVENANCE_SEED };
      float *payload;

      f->seeds[k] = NONE;
      if (!anc[p])
        continue;
      payload = tp_tape_alloc_payload (t, &t->shape[p]);
      if (payload != NULL)
        memcpy (payload, direction->v[k],
                (size_t) tp_shape_volume (&t->shape[p]) * sizeof *payload);
      f->seeds[k] = note (&w, payload == NULL ? NONE
                          : tp_tape_record (t, TP_OP_LEAF, NONE, NONE, NULL,
                                            &t->shape[p], payload), &why);
      if (f->seeds[k] == NONE)
        goto stopped;
      f->tan[p] = f->seeds[k];
    }
  /* Then every node, in tape order: the tangent rule of each the target
   * depends on whose operands have a tangent. */
  for (TpNode i = 0; i <= target; i++)
    {
      uint32_t arity = tp_op_info[t->op[i]].arity;
      TpNode ta = arity > 0 ? f->tan[t->arg[i][0]] : NONE;
      TpNode tb = arity > 1 ? f->tan[t->arg[i][1]] : NONE;

      if (!anc[i] || arity == 0 || (ta == NONE && tb == NONE))
        continue;
      if (!tangent_rule (&w, i, ta, tb, &f->tan[i]))
        goto stopped;
    }
  f->tangent = f->tan[target];
  if (f->tangent == NONE)
    {
      /* no parameter reaches the target: its tangent is zero */
      TpProvenance why = { .of = target, .from = NONE,
                           .role = TP_PROVENANCE_UNREACHED };
      f->tangent = note (&w, tp_tape_fill (t, TP_OP_LEAF, &t->shape[target],
                                           0.0f), &why);
      if (f->tangent == NONE)
        goto stopped;
    }
  for (TpNode i = spec_nodes; i < t->len; i++)
    f->work_tangent += tp_tape_node_work (t, i);
  return run_tangent (f, values, arena);

stopped:
  if (t->error == TP_TAPE_NO_MEMORY)
    return false;
  f->limited = true;
  f->limit = t->error;
  f->tangent = NONE;
  return true;
}
