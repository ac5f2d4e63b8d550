/* tp-optimize.c: the exact rewrites (tp-optimize.h).
 *
 * One walk in tape order over the nodes the recorded plan evaluates: each
 * node's operands are first read through what they became, then the node
 * is folded, replaced by an identity's operand, or by an earlier node
 * that computes the same (a hash of op, attribute, shape and operands),
 * or kept as it is, with a refusal noted when a tempting rule is not
 * exact.  The results are read through the same replacements and the
 * optimised tape is planned again; what the recorded plan evaluated and
 * the new one does not, and was not itself replaced, is dead. */
#include "tp-optimize.h"

#include <string.h>

#include "tp-json.h"
#include "tp-run.h"

bool tp_optimize_wrong_zero_add = false;

static const struct
{
  const char *name;
  const char *why;
} rules[TP_N_RULES] = {
  [TP_RULE_TIMES_ONE] = { "x * 1", NULL },
  [TP_RULE_ONE_TIMES] = { "1 * x", NULL },
  [TP_RULE_OVER_ONE] = { "x / 1", NULL },
  [TP_RULE_MINUS_ZERO] = { "x - 0", NULL },
  [TP_RULE_NEG_ZERO_PLUS] = { "-0 + x", NULL },
  [TP_RULE_PLUS_NEG_ZERO] = { "x + -0", NULL },
  [TP_RULE_SAME_SHAPE] = { "same shape", NULL },
  [TP_RULE_IDENTITY_ORDER] = { "identity order", NULL },
  [TP_RULE_TRANSPOSES] = { "transpose of transpose", NULL },
  [TP_RULE_FOLD] = { "fold", NULL },
  [TP_RULE_COMMON] = { "common subexpression", NULL },
  [TP_RULE_DEAD] = { "dead", NULL },
  [TP_RULE_ZERO_PLUS] = { "0 + x",
    "x may be -0, and -0 + 0 is +0: only -0 adds nothing" },
  [TP_RULE_PLUS_ZERO] = { "x + 0",
    "x may be -0, and -0 + 0 is +0: only -0 adds nothing" },
  [TP_RULE_TIMES_ZERO] = { "x * 0",
    "x may be infinite or NaN (inf * 0 is NaN) or negative (-2 * 0 is -0)" },
  [TP_RULE_SELF_MINUS] = { "x - x",
    "x may be infinite or NaN, and inf - inf is NaN" },
  [TP_RULE_REASSOCIATE] = { "reassociate",
    "(x + a) + b rounds after each add: x + (a + b) can differ in the last bit" },
  [TP_RULE_FOLD_BIG] = { "fold",
    "the constant would have more than 4096 different elements to write out" },
};

const char *
tp_rule_name (TpRule rule)
{
  return (unsigned) rule < TP_N_RULES ? rules[rule].name : NULL;
}

const char *
tp_rule_why (TpRule rule)
{
  return (unsigned) rule < TP_N_RULES ? rules[rule].why : NULL;
}

#define F32_ONE 0x3F800000u
#define F32_NEG_ZERO 0x80000000u

/* Which Leafs hold one value repeated (a splat), found once per node:
 * state 0 not looked at yet, 1 a splat of bits, 2 not a splat. */
typedef struct
{
  uint8_t *state;
  uint32_t *bits;
} Splats;

static bool
splat_of (const Splats *sp, const TpTape *t, TpNode node, uint32_t *bits)
{
  if (t->op[node] != TP_OP_LEAF)
    return false;
  if (sp->state[node] == 0)
    {
      uint64_t volume = tp_shape_volume (&t->shape[node]);
      const float *p = t->payload[node];
      uint32_t first;
      bool same = true;
      memcpy (&first, &p[0], sizeof first);
      for (uint64_t k = 1; k < volume && same; k++)
        same = memcmp (&p[k], &first, sizeof first) == 0;
      sp->state[node] = same ? 1 : 2;
      sp->bits[node] = first;
    }
  *bits = sp->bits[node];
  return sp->state[node] == 1;
}

/* Whether node is a Leaf of the same shape as like whose every element
 * has the bits `bits`. */
static bool
leaf_of (const Splats *sp, const TpTape *t, TpNode node, uint32_t bits,
         TpNode like)
{
  uint32_t b;

  return splat_of (sp, t, node, &b) && b == bits
         && tp_shape_equal (&t->shape[node], &t->shape[like]);
}

/* A Leaf whose every element is a zero of one sign. */
static bool
leaf_zeros (const Splats *sp, const TpTape *t, TpNode node)
{
  uint32_t b;

  return splat_of (sp, t, node, &b) && (b == 0 || b == F32_NEG_ZERO);
}

/* {==== common subexpressions ====} */

static uint64_t
mix (uint64_t h, uint64_t v)
{
  h ^= v + UINT64_C (0x9E3779B97F4A7C15) + (h << 6) + (h >> 2);
  return h;
}

/* Node i's operands, in one order for Add and Mul (which give the same
 * bits either way round), so a + b and b + a are one subexpression. */
static void
operands (const TpTape *t, TpNode i, TpNode *a, TpNode *b)
{
  *a = t->arg[i][0];
  *b = t->arg[i][1];
  if ((t->op[i] == TP_OP_ADD || t->op[i] == TP_OP_MUL) && *a > *b)
    {
      TpNode swap = *a;
      *a = *b;
      *b = swap;
    }
}

/* The attribute as numbers: only the fields the op's kind has (the
 * others hold nothing defined). */
static uint32_t
attr_words (const TpTape *t, TpNode i, uint32_t words[TP_MAX_RANK])
{
  const TpAttr *a = &t->attr[i];

  switch ((TpAttrKind) tp_op_info[t->op[i]].attr)
    {
    case TP_ATTR_AXIS:
      words[0] = a->axis;
      return 1;
    case TP_ATTR_AXIS_EXTENT:
      words[0] = a->axis;
      words[1] = a->extent;
      return 2;
    case TP_ATTR_ORDER:
      for (uint32_t d = 0; d < t->shape[i].rank; d++)
        words[d] = a->order[d];
      return t->shape[i].rank;
    case TP_ATTR_NONE:
    case TP_ATTR_SHAPE:
      break;
    }
  return 0;
}

static uint64_t
node_hash (const Splats *sp, const TpTape *t, TpNode i)
{
  const TpShape *s = &t->shape[i];
  uint32_t words[TP_MAX_RANK], n = attr_words (t, i, words);
  uint64_t h = mix (t->op[i], s->rank);

  for (uint32_t d = 0; d < s->rank; d++)
    h = mix (h, s->dims[d]);
  for (uint32_t k = 0; k < n; k++)
    h = mix (h, words[k]);
  if (t->op[i] == TP_OP_LEAF)
    {
      /* A splat by its value; any other Leaf by its first elements (the
       * comparison reads them all). */
      uint64_t volume = tp_shape_volume (s);
      uint32_t b;
      if (splat_of (sp, t, i, &b))
        return mix (h, b);
      for (uint64_t k = 0; k < volume && k < 8; k++)
        {
          memcpy (&b, &t->payload[i][k], sizeof b);
          h = mix (h, b);
        }
      return h;
    }
  {
    TpNode a, b;
    operands (t, i, &a, &b);
    h = mix (h, a);
    return mix (h, b);
  }
}

static bool
node_same (const TpTape *t, TpNode i, TpNode j)
{
  uint32_t wi[TP_MAX_RANK], wj[TP_MAX_RANK], n;

  if (t->op[i] != t->op[j] || !tp_shape_equal (&t->shape[i], &t->shape[j]))
    return false;
  n = attr_words (t, i, wi);
  attr_words (t, j, wj);
  if (memcmp (wi, wj, n * sizeof *wi) != 0)
    return false;
  if (t->op[i] == TP_OP_LEAF)
    return memcmp (t->payload[i], t->payload[j],
                   (size_t) tp_shape_volume (&t->shape[i]) * sizeof (float))
           == 0;
  {
    TpNode ai, bi, aj, bj;
    operands (t, i, &ai, &bi);
    operands (t, j, &aj, &bj);
    return ai == aj && bi == bj;
  }
}

typedef struct
{
  TpNode *slots;
  uint64_t mask;
} Table;

/* The earlier node that computes what i computes, or i itself (then
 * remembered). */
static TpNode
common (Table *table, const Splats *sp, const TpTape *t, TpNode i)
{
  uint64_t at = node_hash (sp, t, i) & table->mask;

  for (;; at = (at + 1) & table->mask)
    {
      TpNode j = table->slots[at];
      if (j == TP_NO_NODE)
        {
          table->slots[at] = i;
          return i;
        }
      if (node_same (t, i, j))
        return j;
    }
}

/* {==== the walk ====} */

typedef struct
{
  TpOptimized *o;
  TpArena *arena;
  float **values;        /* the fold's operands, by node (made at the
                            first fold) */
  uint32_t cap_rewrites;
  uint32_t cap_kept;
  Splats splats;
  bool failed;
} Walk;

/* Appends a rewrite made (or, kept, one refused), growing the list. */
static void
note (Walk *w, bool kept, TpNode node, TpRule rule, TpNode becomes)
{
  TpRewrite **list = kept ? &w->o->kept : &w->o->rewrites;
  uint32_t *n = kept ? &w->o->n_kept : &w->o->n_rewrites;
  uint32_t *cap = kept ? &w->cap_kept : &w->cap_rewrites;

  if (*n == *cap)
    {
      uint32_t more = *cap ? 2 * *cap : 64;
      TpRewrite *grown = tp_arena_grow (w->arena, *list, *n, more,
                                        sizeof **list);
      if (grown == NULL)
        {
          w->failed = true;
          return;
        }
      *list = grown;
      *cap = more;
    }
  (*list)[*n].node = node;
  (*list)[*n].rule = (uint8_t) rule;
  (*list)[*n].becomes = becomes;
  (*n)++;
}

/* Folds node i, whose operands are all Leafs, into a Leaf: false (and
 * the node left alone) when its constant would be too big to write. */
static bool
fold (Walk *w, TpNode i)
{
  TpTape *t = &w->o->tape;
  uint64_t volume = tp_shape_volume (&t->shape[i]);
  float *data = tp_arena_alloc (w->arena, (size_t) volume * sizeof *data);
  bool splat = true;

  if (w->values == NULL)
    w->values = tp_arena_calloc (w->arena, t->len, sizeof *w->values);
  if (data == NULL || w->values == NULL)
    {
      w->failed = true;
      return true;
    }
  for (uint32_t k = 0; k < tp_op_info[t->op[i]].arity; k++)
    w->values[t->arg[i][k]] = t->payload[t->arg[i][k]];
  if (!tp_run_node (t, i, w->values, data))
    {
      w->failed = true;
      return true;
    }
  for (uint64_t k = 1; k < volume && splat; k++)
    splat = memcmp (&data[k], &data[0], sizeof *data) == 0;
  if (!splat && volume > TP_FOLD_ELEMENTS)
    return false;
  t->op[i] = TP_OP_LEAF;
  t->arg[i][0] = t->arg[i][1] = TP_NO_NODE;
  t->payload[i] = data;
  return true;
}

/* The identity rule node i meets, and the operand it becomes; else
 * TP_N_RULES. */
static TpRule
identity (const Splats *sp, const TpTape *t, TpNode i, TpNode *into)
{
  TpNode a = t->arg[i][0], b = t->arg[i][1];

  switch ((TpOp) t->op[i])
    {
    case TP_OP_MUL:
      if (leaf_of (sp, t, b, F32_ONE, i))
        return *into = a, TP_RULE_TIMES_ONE;
      if (leaf_of (sp, t, a, F32_ONE, i))
        return *into = b, TP_RULE_ONE_TIMES;
      break;
    case TP_OP_DIV:
      if (leaf_of (sp, t, b, F32_ONE, i))
        return *into = a, TP_RULE_OVER_ONE;
      break;
    case TP_OP_SUB:
      if (leaf_of (sp, t, b, 0, i))
        return *into = a, TP_RULE_MINUS_ZERO;
      break;
    case TP_OP_ADD:
      if (leaf_of (sp, t, a, F32_NEG_ZERO, i))
        return *into = b, TP_RULE_NEG_ZERO_PLUS;
      if (leaf_of (sp, t, b, F32_NEG_ZERO, i))
        return *into = a, TP_RULE_PLUS_NEG_ZERO;
      if (tp_optimize_wrong_zero_add && leaf_of (sp, t, a, 0, i))
        return *into = b, TP_RULE_ZERO_PLUS;
      break;
    case TP_OP_BROADCAST:
    case TP_OP_RESHAPE:
      if (tp_shape_equal (&t->shape[a], &t->shape[i]))
        return *into = a, TP_RULE_SAME_SHAPE;
      break;
    case TP_OP_PERMUTE:
      {
        uint32_t rank = t->shape[i].rank;
        bool plain = true, undone = t->op[a] == TP_OP_PERMUTE;
        for (uint32_t d = 0; d < rank; d++)
          {
            const uint8_t *inner = t->attr[a].order;
            uint8_t o = t->attr[i].order[d];
            plain = plain && o == d;
            undone = undone && inner[o] == d;
          }
        if (plain)
          return *into = a, TP_RULE_IDENTITY_ORDER;
        if (undone)
          return *into = t->arg[a][0], TP_RULE_TRANSPOSES;
      }
      break;
    case TP_OP_LEAF:
    case TP_OP_PARAMETER:
    case TP_OP_INPUT:
    case TP_OP_MAXIMUM:
    case TP_OP_STEP:
    case TP_OP_NEG:
    case TP_OP_EXP:
    case TP_OP_LN:
    case TP_OP_SQRT:
    case TP_OP_TANH:
    case TP_OP_SIN:
    case TP_OP_COS:
    case TP_OP_MATMUL:
    case TP_OP_SUM:
    case TP_OP_SUM_ALONG:
    case TP_OP_BROADCAST_ALONG:
    case TP_OP_LOG_SOFTMAX:
    case TP_OP_LOG_SUM_EXP:
      break;
    }
  return TP_N_RULES;
}

/* The tempting rule node i meets that would not be exact, or TP_N_RULES. */
static TpRule
refusal (const Splats *sp, const TpTape *t, TpNode i)
{
  TpNode a = t->arg[i][0], b = t->arg[i][1];

  switch ((TpOp) t->op[i])
    {
    case TP_OP_ADD:
      if (leaf_of (sp, t, a, 0, i))
        return TP_RULE_ZERO_PLUS;
      if (leaf_of (sp, t, b, 0, i))
        return TP_RULE_PLUS_ZERO;
      for (int side = 0; side < 2; side++)
        {
          TpNode inner = side == 0 ? a : b, other = side == 0 ? b : a;
          if (t->op[other] == TP_OP_LEAF && t->op[inner] == TP_OP_ADD
              && (t->op[t->arg[inner][0]] == TP_OP_LEAF)
                 != (t->op[t->arg[inner][1]] == TP_OP_LEAF))
            return TP_RULE_REASSOCIATE;
        }
      break;
    case TP_OP_MUL:
      if (leaf_zeros (sp, t, a) || leaf_zeros (sp, t, b))
        return TP_RULE_TIMES_ZERO;
      break;
    case TP_OP_SUB:
      if (a == b)
        return TP_RULE_SELF_MINUS;
      break;
    case TP_OP_LEAF:
    case TP_OP_PARAMETER:
    case TP_OP_INPUT:
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
    case TP_OP_MATMUL:
    case TP_OP_SUM:
    case TP_OP_SUM_ALONG:
    case TP_OP_BROADCAST:
    case TP_OP_BROADCAST_ALONG:
    case TP_OP_RESHAPE:
    case TP_OP_PERMUTE:
    case TP_OP_LOG_SOFTMAX:
    case TP_OP_LOG_SUM_EXP:
      break;
    }
  return TP_N_RULES;
}

/* Node i, its operands already read through what they became. */
static void
visit (Walk *w, Table *table, TpNode i)
{
  TpOptimized *o = w->o;
  TpTape *t = &o->tape;
  uint32_t arity = tp_op_info[t->op[i]].arity;
  bool leaves = arity > 0;
  TpNode into = i;
  TpRule rule;

  for (uint32_t k = 0; k < arity; k++)
    {
      t->arg[i][k] = o->becomes[t->arg[i][k]];
      leaves = leaves && t->op[t->arg[i][k]] == TP_OP_LEAF;
    }
  if (leaves)
    {
      if (fold (w, i))
        note (w, false, i, TP_RULE_FOLD, i);
      else
        note (w, true, i, TP_RULE_FOLD_BIG, TP_NO_NODE);
    }
  else if ((rule = identity (&w->splats, t, i, &into)) != TP_N_RULES)
    {
      o->becomes[i] = into;
      note (w, false, i, rule, into);
      return;
    }
  else if ((rule = refusal (&w->splats, t, i)) != TP_N_RULES)
    note (w, true, i, rule, TP_NO_NODE);
  if (t->op[i] == TP_OP_PARAMETER || t->op[i] == TP_OP_INPUT)
    return;
  into = common (table, &w->splats, t, i);
  if (into != i)
    {
      /* A fold noted just now is superseded by the earlier constant. */
      if (o->n_rewrites > 0 && o->rewrites[o->n_rewrites - 1].node == i)
        o->n_rewrites--;
      o->becomes[i] = into;
      note (w, false, i, TP_RULE_COMMON, into);
    }
}

/* What a plan of results evaluates: the results and their ancestors, in
 * one downward sweep; their count and estimated work. */
static uint8_t *
closure (const TpTape *t, TpArena *arena, const TpNode *results, uint32_t n,
         uint32_t *count, uint64_t *work)
{
  uint8_t *wanted = tp_arena_calloc (arena, t->len ? t->len : 1, 1);

  *count = 0;
  *work = 0;
  if (wanted == NULL)
    return NULL;
  for (uint32_t k = 0; k < n; k++)
    wanted[results[k]] = 1;
  for (TpNode i = t->len; i-- > 0;)
    if (wanted[i])
      {
        (*count)++;
        *work += tp_tape_node_work (t, i);
        for (uint32_t k = 0; k < tp_op_info[t->op[i]].arity; k++)
          wanted[t->arg[i][k]] = 1;
      }
  return wanted;
}

bool
tp_optimize (TpOptimized *o, const TpTape *tape, uint32_t spec_nodes,
             TpArena *arena, const TpNode *roots, uint32_t n_roots,
             const TpNode *observe, uint32_t n_observe, bool exact)
{
  uint32_t n = tape->len, n_results = n_roots + n_observe;
  size_t cells = n ? n : 1;
  Table table;
  Walk w;

  (void) exact;
  memset (o, 0, sizeof *o);
  o->spec_nodes = spec_nodes;
  o->n_roots = n_roots;
  o->n_observe = n_observe;
  o->results = tp_arena_alloc (arena, (n_results + 1) * sizeof *o->results);
  if (o->results == NULL)
    return false;
  for (uint32_t k = 0; k < n_results; k++)
    o->results[k] = k < n_roots ? roots[k] : observe[k - n_roots];
  o->before = closure (tape, arena, o->results, n_results, &o->nodes_before,
                       &o->work_before);
  if (o->before == NULL)
    return false;
  o->tape = *tape;
  o->tape.op = tp_arena_alloc (arena, cells);
  o->tape.arg = tp_arena_alloc (arena, cells * sizeof *o->tape.arg);
  o->tape.payload = tp_arena_alloc (arena, cells * sizeof *o->tape.payload);
  o->becomes = tp_arena_alloc (arena, cells * sizeof *o->becomes);
  for (table.mask = 1; table.mask < 2 * (uint64_t) cells; table.mask <<= 1)
    ;
  table.slots = tp_malloc ((size_t) table.mask * sizeof *table.slots);
  table.mask--;
  memset (&w, 0, sizeof w);
  w.o = o;
  w.arena = arena;
  w.splats.state = tp_arena_calloc (arena, cells, 1);
  w.splats.bits = tp_arena_alloc (arena, cells * sizeof *w.splats.bits);
  if (o->tape.op == NULL || o->tape.arg == NULL || o->tape.payload == NULL
      || o->becomes == NULL || table.slots == NULL || w.splats.state == NULL
      || w.splats.bits == NULL)
    {
      tp_free (table.slots);
      return false;
    }
  memcpy (o->tape.op, tape->op, n);
  memcpy (o->tape.arg, tape->arg, n * sizeof *tape->arg);
  memcpy (o->tape.payload, tape->payload, n * sizeof *tape->payload);
  memset (table.slots, 0xFF, ((size_t) table.mask + 1) * sizeof *table.slots);
  for (TpNode i = 0; i < n; i++)
    {
      o->becomes[i] = i;
      if (o->before[i] && !w.failed)
        visit (&w, &table, i);
    }
  tp_free (table.slots);
  if (w.failed)
    return false;

  for (uint32_t k = 0; k < n_results; k++)
    o->results[k] = o->becomes[o->results[k]];
  o->after = closure (&o->tape, arena, o->results, n_results,
                      &o->nodes_after, &o->work_after);
  if (o->after == NULL)
    return false;
  for (TpNode i = 0; i < n; i++)
    if (o->before[i] && !o->after[i] && o->becomes[i] == i
        && o->tape.op[i] == tape->op[i])
      note (&w, false, i, TP_RULE_DEAD, TP_NO_NODE);
  return !w.failed;
}

/* {==== the reading ====} */

/* "   7  x * 1" padded to the reason's column: a rewrite's or a
 * refusal's start. */
static void
put_rule (const TpRewrite *r, TpBuf *out, TpMap *map)
{
  size_t at, mark = out->len;
  uint64_t width = 1;

  for (uint64_t v = r->node; v >= 10; v /= 10)
    width++;
  if (width < 4)
    tp_buf_spaces (out, (size_t) (4 - width));
  at = out->len;
  tp_buf_u64 (out, r->node);
  tp_map_ref (map, out, at, TP_TOKEN_INDEX, r->node);
  tp_buf_append (out, "  ", 2);
  at = out->len;
  tp_buf_puts (out, tp_rule_name ((TpRule) r->rule));
  tp_map_ref (map, out, at, TP_TOKEN_DETAIL, TP_MAP_NO_NODE);
  tp_buf_pad_from (out, mark, 30);
  tp_buf_putc (out, ' ');
}

static void
put_count (TpBuf *out, uint64_t n, const char *one, const char *many)
{
  tp_buf_u64 (out, n);
  tp_buf_putc (out, ' ');
  tp_buf_puts (out, n == 1 ? one : many);
}

/* "... 12 more rewrites: the text lists the first 8192", a note. */
static void
put_more (TpBuf *out, TpMap *map, uint64_t more, const char *what)
{
  tp_map_line (map, out, TP_MAP_NO_NODE, TP_ROLE_NOTE);
  tp_buf_puts (out, "... ");
  tp_buf_u64 (out, more);
  tp_buf_puts (out, " more ");
  tp_buf_puts (out, what);
  tp_buf_puts (out, ": the text lists the first ");
  tp_buf_u64 (out, TP_OPTIMIZED_TEXT_LINES);
  tp_buf_putc (out, '\n');
}

void
tp_optimize_describe (const TpOptimized *o, TpBuf *out, TpMap *map)
{
  const TpTape *t = &o->tape;
  uint32_t appended = 0, listed = 0, skipped = 0;
  size_t at;

  for (TpNode i = o->spec_nodes; i < t->len; i++)
    appended += o->after[i];
  for (TpNode i = 0; i < t->len; i++)
    {
      if (i == o->spec_nodes && t->len > o->spec_nodes)
        {
          tp_map_line (map, out, TP_MAP_NO_NODE, TP_ROLE_DIVIDER);
          tp_buf_puts (out, "-- ");
          put_count (out, t->len - o->spec_nodes, "node", "nodes");
          tp_buf_puts (out, " appended by differentiate, ");
          tp_buf_u64 (out, appended);
          tp_buf_puts (out, " of them evaluated after the rewrites\n");
        }
      if (!o->after[i])
        continue;
      if (listed == TP_OPTIMIZED_TEXT_LINES)
        {
          skipped++;
          continue;
        }
      listed++;
      tp_map_line (map, out, i, i < o->spec_nodes ? TP_ROLE_NODE
                                                  : TP_ROLE_DERIVED);
      tp_tape_describe_line (t, i, out, map);
      tp_buf_putc (out, '\n');
    }
  if (skipped > 0)
    put_more (out, map, skipped, "nodes");
  tp_map_line (map, out, TP_MAP_NO_NODE, TP_ROLE_DIVIDER);
  tp_buf_puts (out, "rewrites: ");
  put_count (out, o->n_rewrites, "made", "made");
  tp_buf_puts (out, ", ");
  put_count (out, o->n_kept, "kept because it would not be exact",
             "kept because they would not be exact");
  tp_buf_putc (out, '\n');
  for (uint32_t k = 0; k < o->n_rewrites; k++)
    {
      const TpRewrite *r = &o->rewrites[k];
      if (k == TP_OPTIMIZED_TEXT_LINES)
        {
          put_more (out, map, o->n_rewrites - k, "rewrites");
          break;
        }
      tp_map_line (map, out, r->node, TP_ROLE_NODE);
      put_rule (r, out, map);
      if (r->rule == TP_RULE_DEAD)
        tp_buf_puts (out, "no result reads it any more");
      else if (r->rule == TP_RULE_FOLD)
        {
          tp_buf_puts (out, "becomes a Leaf");
          if (tp_shape_volume (&t->shape[r->node]) == 1)
            {
              tp_buf_puts (out, ", ");
              at = out->len;
              tp_buf_f32 (out, t->payload[r->node][0]);
              tp_map_ref (map, out, at, TP_TOKEN_NUMBER, r->node);
            }
        }
      else
        {
          tp_buf_puts (out, "becomes ");
          at = out->len;
          tp_buf_u64 (out, r->becomes);
          tp_map_ref (map, out, at, TP_TOKEN_OPERAND, r->becomes);
        }
      tp_buf_putc (out, '\n');
    }
  for (uint32_t k = 0; k < o->n_kept; k++)
    {
      const TpRewrite *r = &o->kept[k];
      if (k == TP_OPTIMIZED_TEXT_LINES)
        {
          put_more (out, map, o->n_kept - k, "kept");
          break;
        }
      tp_map_line (map, out, r->node, TP_ROLE_NOTE);
      put_rule (r, out, map);
      tp_buf_puts (out, "kept: ");
      tp_buf_puts (out, tp_rule_why ((TpRule) r->rule));
      tp_buf_putc (out, '\n');
    }
  tp_map_line (map, out, TP_MAP_NO_NODE, TP_ROLE_FOOTER);
  tp_buf_puts (out, "optimized: ");
  tp_buf_u64 (out, o->nodes_before);
  tp_buf_puts (out, " nodes evaluated before, ");
  tp_buf_u64 (out, o->nodes_after);
  tp_buf_puts (out, " after; work ");
  tp_buf_u64 (out, o->work_before);
  tp_buf_puts (out, " before, ");
  tp_buf_u64 (out, o->work_after);
  tp_buf_puts (out, " after\n");
}

void
tp_optimize_json (const TpOptimized *o, TpBuf *out)
{
  tp_buf_puts (out, "{\"nodes_before\":");
  tp_buf_u64 (out, o != NULL ? o->nodes_before : 0);
  tp_buf_puts (out, ",\"nodes_after\":");
  tp_buf_u64 (out, o != NULL ? o->nodes_after : 0);
  tp_buf_puts (out, ",\"work_before\":");
  tp_buf_u64 (out, o != NULL ? o->work_before : 0);
  tp_buf_puts (out, ",\"work_after\":");
  tp_buf_u64 (out, o != NULL ? o->work_after : 0);
  tp_buf_puts (out, ",\"rewrites\":[");
  for (uint32_t k = 0; o != NULL && k < o->n_rewrites; k++)
    {
      const TpRewrite *r = &o->rewrites[k];
      const char *name = tp_rule_name ((TpRule) r->rule);
      if (k > 0)
        tp_buf_putc (out, ',');
      tp_buf_puts (out, "{\"node\":");
      tp_buf_u64 (out, r->node);
      tp_buf_puts (out, ",\"rule\":");
      tp_json_string (out, name, strlen (name));
      tp_buf_puts (out, ",\"becomes\":");
      if (r->becomes == TP_NO_NODE)
        tp_buf_puts (out, "null");
      else
        tp_buf_u64 (out, r->becomes);
      tp_buf_putc (out, '}');
    }
  tp_buf_puts (out, "],\"kept\":[");
  for (uint32_t k = 0; o != NULL && k < o->n_kept; k++)
    {
      const TpRewrite *r = &o->kept[k];
      const char *name = tp_rule_name ((TpRule) r->rule);
      const char *why = tp_rule_why ((TpRule) r->rule);
      if (k > 0)
        tp_buf_putc (out, ',');
      tp_buf_puts (out, "{\"node\":");
      tp_buf_u64 (out, r->node);
      tp_buf_puts (out, ",\"rule\":");
      tp_json_string (out, name, strlen (name));
      tp_buf_puts (out, ",\"why\":");
      tp_json_string (out, why, strlen (why));
      tp_buf_putc (out, '}');
    }
  tp_buf_puts (out, "]}");
}
