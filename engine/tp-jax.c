/* tp-jax.c: the jax reading, the same program in JAX (docs/language.md,
 * jax).
 *
 * A self-contained Python program on jax and jax.numpy: the program's
 * statements as the body of a function of its parameters, one line each,
 * with their names; every source holding the engine's own f32 values
 * (written with the values reading's shortest formatter, so they read
 * back exactly); and a last line that prints one JSON object with every
 * named statement's value, the target's gradient for every parameter
 * (jax.grad) and the directional derivative along the forward reading's
 * direction (jax.jvp).  The statements are written from the tape: each
 * statement's nodes form an expression tree whose leaves are earlier
 * statements' names, and the language's composites are recognised by
 * the nodes they record (relu, softmax, mean_along, the broadcast of a
 * rank-0 operand). */
#include "tp-session-private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The most source elements the program writes out. */
#define TP_JAX_ELEMENTS (UINT64_C (1) << 20)

#define NONE TP_NO_NODE

/* How tightly a written expression binds, loosest first. */
enum { LEVEL_ADD, LEVEL_MUL, LEVEL_UNARY, LEVEL_ATOM };

typedef struct
{
  TpSession *s;
  const TpTape *t;
  TpBuf *out;
  uint32_t n_ids;
  uint32_t *id;             /* per statement: its name's id */
  const char **py;          /* per id: the Python name */
  TpNode *bound;            /* per id: the node it holds now */
  uint32_t *last_stmt;      /* per node: the last statement naming it */
  uint32_t *prev_stmt;      /* per statement: the one before naming its node */
  const char **arg;         /* per node: a parameter's argument name */
  uint8_t *uses;            /* per node: its readers within the statement */
  TpNode start;             /* the statement's nodes: [start, end) */
  TpNode end;
} Jax;

static const char *const reserved[] = {
  "False", "None", "True", "and", "as", "assert", "async", "await", "break",
  "class", "continue", "def", "del", "elif", "else", "except", "finally",
  "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal",
  "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
  "jax", "jnp", "np", "json", "relu", "maximum", "program", "loss_of",
  "listed", "values", "gradients", "jvp", "PARAMETERS", "DIRECTION",
};

static bool
is_reserved (const char *name)
{
  for (size_t k = 0; k < sizeof reserved / sizeof reserved[0]; k++)
    if (strcmp (reserved[k], name) == 0)
      return true;
  return false;
}

typedef struct
{
  const char *name;
  uint32_t stmt;
} Named;

static int
compare_named (const void *a, const void *b)
{
  const Named *x = a, *y = b;
  int c = strcmp (x->name, y->name);

  return c != 0 ? c : (x->stmt > y->stmt) - (x->stmt < y->stmt);
}

/* Whether name is some statement's name (sorted holds them all). */
static bool
taken (const Named *sorted, uint32_t n, const char *name)
{
  Named key = { name, 0 };
  uint32_t lo = 0, hi = n;

  while (lo < hi)
    {
      uint32_t mid = lo + (hi - lo) / 2;
      if (strcmp (sorted[mid].name, key.name) < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < n && strcmp (sorted[lo].name, name) == 0;
}

/* base, with "_" appended until it is neither reserved nor, unless it is
 * own, another statement's name; in the arena. */
static const char *
mangle (Jax *j, const Named *sorted, const char *base, const char *own)
{
  TpSession *s = j->s;
  size_t n = strlen (base);
  char *name = tp_arena_alloc (&s->arena, n + 72);

  if (name == NULL)
    return NULL;
  memcpy (name, base, n + 1);
  while (is_reserved (name)
         || ((own == NULL || strcmp (name, own) != 0)
             && taken (sorted, s->prog.n_stmts, name)))
    {
      if (n >= strlen (base) + 64)
        return NULL;
      name[n++] = '_';
      name[n] = '\0';
    }
  return name;
}

/* The names' ids, their Python names and the parameters' argument
 * names. */
static bool
name_everything (Jax *j)
{
  TpSession *s = j->s;
  const TpProgram *p = &s->prog;
  uint32_t n = p->n_stmts;
  Named *sorted = tp_malloc (((size_t) n + 1) * sizeof *sorted);
  bool ok = sorted != NULL;

  j->id = tp_arena_alloc (&s->arena, ((size_t) n + 1) * sizeof *j->id);
  j->py = tp_arena_alloc (&s->arena, ((size_t) n + 1) * sizeof *j->py);
  j->bound = tp_arena_alloc (&s->arena, ((size_t) n + 1) * sizeof *j->bound);
  j->prev_stmt = tp_arena_alloc (&s->arena,
                                 ((size_t) n + 1) * sizeof *j->prev_stmt);
  j->last_stmt = tp_arena_alloc (&s->arena, ((size_t) s->spec_nodes + 1)
                                            * sizeof *j->last_stmt);
  j->arg = tp_arena_calloc (&s->arena, (size_t) s->spec_nodes + 1,
                            sizeof *j->arg);
  j->uses = tp_arena_calloc (&s->arena, (size_t) s->spec_nodes + 1, 1);
  ok = ok && j->id != NULL && j->py != NULL && j->bound != NULL
       && j->prev_stmt != NULL && j->last_stmt != NULL && j->arg != NULL
       && j->uses != NULL;
  for (uint32_t k = 0; ok && k < n; k++)
    {
      sorted[k].name = p->stmts[k].name;
      sorted[k].stmt = k;
    }
  if (ok)
    qsort (sorted, n, sizeof *sorted, compare_named);
  for (uint32_t k = 0; ok && k < n; k++)
    {
      if (k == 0 || strcmp (sorted[k - 1].name, sorted[k].name) != 0)
        {
          j->py[j->n_ids] = mangle (j, sorted, sorted[k].name,
                                    sorted[k].name);
          j->bound[j->n_ids] = NONE;
          ok = j->py[j->n_ids++] != NULL;
        }
      j->id[sorted[k].stmt] = j->n_ids - 1;
    }
  for (TpNode i = 0; ok && i < s->spec_nodes; i++)
    j->last_stmt[i] = UINT32_MAX;
  /* A parameter's argument is its statement's name when that statement
   * is the name's first assignment (the line then only says so), else
   * param_N. */
  for (uint32_t k = 0; ok && k < s->n_wrt; k++)
    {
      TpNode w = s->wrt[k];
      uint32_t d = s->display[w];
      bool first = d != TP_NO_NODE && p->stmts[d].node == w;

      for (uint32_t e = 0; first && e < d; e++)
        first = j->id[e] != j->id[d];
      if (first)
        j->arg[w] = j->py[j->id[d]];
      else
        {
          char base[32];
          size_t at = 0;
          uint32_t v = w, digits = 1;
          memcpy (base, "param_", 6);
          at = 6;
          while (v / digits >= 10)
            digits *= 10;
          for (; digits > 0; digits /= 10)
            base[at++] = (char) ('0' + (w / digits) % 10);
          base[at] = '\0';
          j->arg[w] = mangle (j, sorted, base, NULL);
          ok = j->arg[w] != NULL;
        }
    }
  tp_free (sorted);
  return ok;
}

/* A Python name that holds node now (an earlier statement's). */
static const char *
holder (const Jax *j, TpNode node)
{
  for (uint32_t k = j->last_stmt[node]; k != UINT32_MAX; k = j->prev_stmt[k])
    if (j->bound[j->id[k]] == node)
      return j->py[j->id[k]];
  return j->arg[node] != NULL ? j->arg[node] : "None";
}

/* {==== numbers and data ====} */

static void
put_number (TpBuf *out, float v)
{
  size_t at = out->len;

  if (isnan (v))
    {
      tp_buf_puts (out, "jnp.nan");
      return;
    }
  if (isinf (v))
    {
      tp_buf_puts (out, v > 0 ? "jnp.inf" : "-jnp.inf");
      return;
    }
  tp_buf_f32 (out, v);
  /* a float literal, so that -0 keeps its sign */
  if (!out->failed && memchr (out->data + at, '.', out->len - at) == NULL)
    tp_buf_puts (out, ".0");
}

/* Element at of data, copied from text (finite, so none is special)
 * when there is one; *next walks text's elements in order. */
static void
put_element (TpBuf *out, const float *data, uint64_t at,
             const TpTensorText *text, const char **next)
{
  uint8_t width;

  if (text == NULL)
    {
      put_number (out, data[at]);
      return;
    }
  width = text->widths[at];
  tp_texts_copy (out, *next, width);
  if (memchr (*next, '.', width) == NULL)
    tp_buf_puts (out, ".0");
  *next += width + 1;
}

static void
put_nested (TpBuf *out, const float *data, const TpShape *shape,
            uint32_t axis, uint64_t *at, const TpTensorText *text,
            const char **next)
{
  if (axis == shape->rank)
    {
      put_element (out, data, (*at)++, text, next);
      return;
    }
  tp_buf_putc (out, '[');
  for (uint32_t k = 0; k < shape->dims[axis]; k++)
    {
      if (k > 0)
        tp_buf_puts (out, ", ");
      put_nested (out, data, shape, axis + 1, at, text, next);
    }
  tp_buf_putc (out, ']');
}

/* A tensor as a jax value: jnp.float32(x) or jnp.array([...]).  Its
 * elements are copied from the key'th text of texts (NULL: none) when
 * that tensor has data's bits and its text is finite. */
static void
put_data (Jax *j, const float *data, const TpShape *shape, TpTexts *texts,
          uint32_t key)
{
  TpBuf *out = j->out;
  const TpTensorText *text = NULL;
  const char *next = NULL;
  uint64_t at = 0, volume = tp_shape_volume (shape);

  /* (past TP_TEXTS_ELEMENTS no text is kept) */
  if (texts != NULL && key < texts->n && texts->values[key] != NULL
      && volume <= TP_TEXTS_ELEMENTS
      && memcmp (texts->values[key], data,
                 (size_t) volume * sizeof *data) == 0)
    {
      text = tp_texts_get (texts, key, out);
      if (text != NULL && !text->finite)
        text = NULL;
      next = text != NULL ? text->text : NULL;
    }
  if (shape->rank == 0)
    {
      tp_buf_puts (out, "jnp.float32(");
      put_element (out, data, 0, text, &next);
      tp_buf_putc (out, ')');
      return;
    }
  tp_buf_puts (out, "jnp.array(");
  put_nested (out, data, shape, 0, &at, text, &next);
  tp_buf_puts (out, ", jnp.float32)");
}

static void
put_tuple (TpBuf *out, const uint32_t *dims, uint32_t n)
{
  tp_buf_putc (out, '(');
  for (uint32_t a = 0; a < n; a++)
    {
      if (a > 0)
        tp_buf_puts (out, ", ");
      tp_buf_u64 (out, dims[a]);
    }
  tp_buf_puts (out, n == 1 ? ",)" : ")");
}

/* {==== expressions ====} */

/* Whether node i is written inline: a node of the statement that no
 * name holds (a parameter's argument, a shared node's temporary). */
static bool
in_statement (const Jax *j, TpNode i)
{
  return i >= j->start && i < j->end && j->arg[i] == NULL;
}

/* Whether node i, read once inside the statement, is a Leaf whose every
 * element is value (+0 for relu's zeros). */
static bool
filled_leaf (const Jax *j, TpNode i, float value)
{
  const TpTape *t = j->t;
  uint64_t n;

  if (!in_statement (j, i) || j->uses[i] != 1 || t->op[i] != TP_OP_LEAF)
    return false;
  n = tp_shape_volume (&t->shape[i]);
  for (uint64_t e = 0; e < n; e++)
    if (t->payload[i][e] != value
        || (value == 0.0f && 1.0f / t->payload[i][e] < 0.0f))
      return false;
  return true;
}

/* Which of the language's composites node i ends, if any. */
typedef enum { PLAIN, RELU, SOFTMAX, MEAN } Composite;

static Composite
composite (const Jax *j, TpNode i)
{
  const TpTape *t = j->t;
  TpNode a = t->arg[i][0], b = t->arg[i][1];

  if (t->op[i] == TP_OP_MAXIMUM)
    return filled_leaf (j, b, 0.0f) ? RELU : PLAIN;
  if (t->op[i] == TP_OP_EXP)
    return in_statement (j, a) && j->uses[a] == 1
           && t->op[a] == TP_OP_LOG_SOFTMAX ? SOFTMAX : PLAIN;
  if (t->op[i] == TP_OP_DIV)
    return in_statement (j, a) && j->uses[a] == 1
           && t->op[a] == TP_OP_SUM_ALONG
           && filled_leaf (j, b, (float) t->shape[t->arg[a][0]]
                                   .dims[t->attr[a].axis]) ? MEAN : PLAIN;
  return PLAIN;
}

/* Operand o as an element-wise binary op reads it: the broadcast of a
 * rank-0 value is jax's own broadcasting. */
static TpNode
through_broadcast (const Jax *j, TpNode o)
{
  const TpTape *t = j->t;

  if (in_statement (j, o) && j->uses[o] == 1 && t->op[o] == TP_OP_BROADCAST
      && t->shape[t->arg[o][0]].rank == 0)
    return t->arg[o][0];
  return o;
}

static int
level (const Jax *j, TpNode i)
{
  uint8_t op = j->t->op[i];

  if (!in_statement (j, i) || composite (j, i) != PLAIN)
    return LEVEL_ATOM;
  if (op == TP_OP_ADD || op == TP_OP_SUB)
    return LEVEL_ADD;
  if (op == TP_OP_MUL || op == TP_OP_DIV || op == TP_OP_MATMUL)
    return LEVEL_MUL;
  return op == TP_OP_NEG ? LEVEL_UNARY : LEVEL_ATOM;
}

static void put_expr (Jax *j, TpNode i, int at_least);

static void
put_call (Jax *j, const char *fn, TpNode a, const char *tail)
{
  tp_buf_puts (j->out, fn);
  tp_buf_putc (j->out, '(');
  put_expr (j, a, LEVEL_ADD);
  if (tail != NULL)
    tp_buf_puts (j->out, tail);
  tp_buf_putc (j->out, ')');
}

static void
put_axis_call (Jax *j, const char *fn, TpNode a, uint32_t axis)
{
  tp_buf_puts (j->out, fn);
  tp_buf_putc (j->out, '(');
  put_expr (j, a, LEVEL_ADD);
  tp_buf_puts (j->out, ", axis=");
  tp_buf_u64 (j->out, axis);
  tp_buf_putc (j->out, ')');
}

static void
put_binary (Jax *j, TpNode i, const char *symbol, int self)
{
  const TpTape *t = j->t;
  bool elementwise = t->op[i] != TP_OP_MATMUL;
  TpNode a = elementwise ? through_broadcast (j, t->arg[i][0]) : t->arg[i][0];
  TpNode b = elementwise ? through_broadcast (j, t->arg[i][1]) : t->arg[i][1];

  put_expr (j, a, self);
  tp_buf_puts (j->out, symbol);
  put_expr (j, b, self + 1);
}

/* The body of node i, a node of the statement being written. */
static void
put_body (Jax *j, TpNode i)
{
  const TpTape *t = j->t;
  TpBuf *out = j->out;
  TpNode a = t->arg[i][0], b = t->arg[i][1];
  const TpAttr *attr = &t->attr[i];

  switch (composite (j, i))
    {
    case RELU:
      put_call (j, "relu", a, NULL);
      return;
    case SOFTMAX:
      put_axis_call (j, "jax.nn.softmax", t->arg[a][0], t->attr[a].axis);
      return;
    case MEAN:
      put_axis_call (j, "jnp.mean", t->arg[a][0], t->attr[a].axis);
      return;
    case PLAIN:
      break;
    }
  switch ((TpOp) t->op[i])
    {
    case TP_OP_LEAF:
    case TP_OP_INPUT:
      put_data (j, t->payload[i], &t->shape[i], &j->s->texts, i);
      return;
    case TP_OP_PARAMETER:
      tp_buf_puts (out, j->arg[i]);
      return;
    case TP_OP_ADD:
      put_binary (j, i, " + ", LEVEL_ADD);
      return;
    case TP_OP_SUB:
      put_binary (j, i, " - ", LEVEL_ADD);
      return;
    case TP_OP_MUL:
      put_binary (j, i, " * ", LEVEL_MUL);
      return;
    case TP_OP_DIV:
      put_binary (j, i, " / ", LEVEL_MUL);
      return;
    case TP_OP_MATMUL:
      put_binary (j, i, " @ ", LEVEL_MUL);
      return;
    case TP_OP_NEG:
      tp_buf_putc (out, '-');
      put_expr (j, a, LEVEL_ATOM);
      return;
    case TP_OP_MAXIMUM:
      tp_buf_puts (out, "maximum(");
      put_expr (j, a, LEVEL_ADD);
      tp_buf_puts (out, ", ");
      put_expr (j, b, LEVEL_ADD);
      tp_buf_putc (out, ')');
      return;
    case TP_OP_STEP:
      tp_buf_puts (out, "jnp.where(");
      put_expr (j, a, LEVEL_ADD);
      tp_buf_puts (out, " >= ");
      put_expr (j, b, LEVEL_ADD);
      tp_buf_puts (out, ", 1.0, 0.0)");
      return;
    case TP_OP_EXP:
      put_call (j, "jnp.exp", a, NULL);
      return;
    case TP_OP_LN:
      put_call (j, "jnp.log", a, NULL);
      return;
    case TP_OP_SQRT:
      put_call (j, "jnp.sqrt", a, NULL);
      return;
    case TP_OP_TANH:
      put_call (j, "jnp.tanh", a, NULL);
      return;
    case TP_OP_SIN:
      put_call (j, "jnp.sin", a, NULL);
      return;
    case TP_OP_COS:
      put_call (j, "jnp.cos", a, NULL);
      return;
    case TP_OP_SUM:
      put_call (j, "jnp.sum", a, NULL);
      return;
    case TP_OP_SUM_ALONG:
      put_axis_call (j, "jnp.sum", a, attr->axis);
      return;
    case TP_OP_LOG_SOFTMAX:
      put_axis_call (j, "jax.nn.log_softmax", a, attr->axis);
      return;
    case TP_OP_LOG_SUM_EXP:
      put_axis_call (j, "jax.nn.logsumexp", a, attr->axis);
      return;
    case TP_OP_BROADCAST:
    case TP_OP_RESHAPE:
      tp_buf_puts (out, t->op[i] == TP_OP_BROADCAST ? "jnp.broadcast_to("
                                                    : "jnp.reshape(");
      put_expr (j, a, LEVEL_ADD);
      tp_buf_puts (out, ", ");
      put_tuple (out, t->shape[i].dims, t->shape[i].rank);
      tp_buf_putc (out, ')');
      return;
    case TP_OP_BROADCAST_ALONG:
      tp_buf_puts (out, "jnp.repeat(jnp.expand_dims(");
      put_expr (j, a, LEVEL_ADD);
      tp_buf_puts (out, ", ");
      tp_buf_u64 (out, attr->axis);
      tp_buf_puts (out, "), ");
      tp_buf_u64 (out, attr->extent);
      tp_buf_puts (out, ", axis=");
      tp_buf_u64 (out, attr->axis);
      tp_buf_putc (out, ')');
      return;
    case TP_OP_PERMUTE:
      if (t->shape[i].rank == 2 && attr->order[0] == 1)
        {
          put_call (j, "jnp.transpose", a, NULL);
          return;
        }
      {
        uint32_t order[TP_MAX_RANK];
        for (uint32_t k = 0; k < t->shape[i].rank; k++)
          order[k] = attr->order[k];
        tp_buf_puts (out, "jnp.transpose(");
        put_expr (j, a, LEVEL_ADD);
        tp_buf_puts (out, ", ");
        put_tuple (out, order, t->shape[i].rank);
        tp_buf_putc (out, ')');
      }
      return;
    }
}

static void
put_expr (Jax *j, TpNode i, int at_least)
{
  bool paren;

  if (!in_statement (j, i))
    {
      tp_buf_puts (j->out, holder (j, i));
      return;
    }
  paren = level (j, i) < at_least;
  if (paren)
    tp_buf_putc (j->out, '(');
  put_body (j, i);
  if (paren)
    tp_buf_putc (j->out, ')');
}

/* {==== the program ====} */

static void
put_line (TpBuf *out, const char *text)
{
  tp_buf_puts (out, text);
  tp_buf_putc (out, '\n');
}

/* Statement k's line(s) in the function's body. */
static bool
put_statement (Jax *j, uint32_t k, TpNode *next)
{
  TpSession *s = j->s;
  const TpTape *t = j->t;
  TpBuf *out = j->out;
  TpNode root = s->prog.stmts[k].node;
  const char *py = j->py[j->id[k]];

  j->start = *next;
  j->end = root >= *next ? root + 1 : *next;
  *next = j->end;
  for (TpNode m = j->start; m < j->end; m++)
    for (uint32_t a = 0; a < tp_op_info[t->op[m]].arity; a++)
      if (in_statement (j, t->arg[m][a]) && j->uses[t->arg[m][a]] < 2)
        j->uses[t->arg[m][a]]++;
  /* a node two others of the statement read gets a line of its own */
  for (TpNode m = j->start; m + 1 < j->end; m++)
    if (j->uses[m] > 1 && j->arg[m] == NULL)
      {
        TpBuf name;
        const char *tmp;
        tp_buf_init (&name);
        tp_buf_puts (&name, "shared_");
        tp_buf_u64 (&name, m);
        tmp = name.failed ? NULL
              : tp_arena_strndup (&s->arena, name.data, name.len);
        tp_buf_clear (&name);
        if (tmp == NULL)
          return false;
        tp_buf_puts (out, "    ");
        tp_buf_puts (out, tmp);
        tp_buf_puts (out, " = ");
        put_body (j, m);
        tp_buf_putc (out, '\n');
        j->arg[m] = tmp;
      }
  /* a parameter's own statement is the function's argument */
  if (!(t->op[root] == TP_OP_PARAMETER && root >= j->start
        && j->arg[root] == py && j->bound[j->id[k]] == NONE))
    {
      tp_buf_puts (out, "    ");
      tp_buf_puts (out, py);
      tp_buf_puts (out, " = ");
      put_expr (j, root, LEVEL_ADD);
      tp_buf_putc (out, '\n');
    }
  for (TpNode m = j->start; m < j->end; m++)
    j->uses[m] = 0;
  j->bound[j->id[k]] = root;
  j->prev_stmt[k] = j->last_stmt[root];
  j->last_stmt[root] = k;
  return true;
}

/* The elements the program writes out: every source's, and the
 * direction's. */
static uint64_t
written_elements (const TpSession *s)
{
  const TpTape *t = &s->prog.tape;
  uint64_t n = 0;

  for (TpNode i = 0; i < s->spec_nodes; i++)
    if (tp_tape_is_source (t, i))
      n += tp_shape_volume (&t->shape[i]) * (t->op[i] == TP_OP_PARAMETER ? 2
                                                                           : 1);
  return n;
}

/* what = (each parameter's data, ...); their elements copied from
 * texts (NULL: none), whose key for parameter k is keys[k] (or k when
 * keys is NULL). */
static void
put_parameters (Jax *j, const char *what, float *const *data,
                TpTexts *texts, const TpNode *keys)
{
  TpSession *s = j->s;
  TpBuf *out = j->out;

  tp_buf_puts (out, what);
  tp_buf_puts (out, " = (");
  for (uint32_t k = 0; k < s->n_wrt; k++)
    {
      if (k > 0)
        tp_buf_puts (out, ", ");
      put_data (j, data[k], &s->prog.tape.shape[s->wrt[k]], texts,
                keys != NULL ? keys[k] : k);
    }
  tp_buf_puts (out, s->n_wrt == 1 ? ",)\n" : ")\n");
}

/* Every parameter's position: (0,), (0, 1), ..., tuple(range(N)) past 8. */
static void
put_argnums (TpBuf *out, uint32_t n)
{
  if (n > 8)
    {
      tp_buf_puts (out, "tuple(range(");
      tp_buf_u64 (out, n);
      tp_buf_puts (out, "))");
      return;
    }
  tp_buf_putc (out, '(');
  for (uint32_t k = 0; k < n; k++)
    {
      tp_buf_puts (out, k > 0 ? ", " : "");
      tp_buf_u64 (out, k);
    }
  tp_buf_puts (out, n == 1 ? ",)" : ")");
}

/* The language's relu and maximum, for a program that has a Maximum. */
static void
put_helpers (TpBuf *out)
{
  put_line (out, "def relu(a):");
  put_line (out, "    # the language's relu, maximum(a, 0) keeping a on a "
                 "tie (docs/decisions.md");
  put_line (out, "    # D4): its gradient at 0 is 1, where jax.nn.relu's is "
                 "0");
  put_line (out, "    return jnp.where(a >= 0, a, 0.0)");
  put_line (out, "");
  put_line (out, "");
  put_line (out, "def maximum(a, b):");
  put_line (out, "    # the language's maximum: b where a is NaN or a < b, "
                 "else a (D4)");
  put_line (out, "    return jnp.where(jnp.isnan(a) | (a < b), b, a)");
  put_line (out, "");
  put_line (out, "");
}

static void
put_program (Jax *j)
{
  TpSession *s = j->s;
  const TpProgram *p = &s->prog;
  TpBuf *out = j->out;
  float **initial = tp_arena_alloc (&s->arena, ((size_t) s->n_wrt + 1)
                                               * sizeof *initial);
  TpNode next = 0;
  bool first, maxima = false;

  if (initial == NULL)
    {
      out->failed = true;
      return;
    }
  put_line (out, "# topos's program in JAX: run it with python3, with jax "
                 "installed.  Its last");
  put_line (out, "# line prints one JSON object: every named statement's "
                 "value, the gradient");
  put_line (out, "# of the target for every parameter (jax.grad) and the "
                 "derivative along the");
  put_line (out, "# forward reading's direction (jax.jvp).  Every source "
                 "holds the engine's own");
  put_line (out, "# f32 values, written so that they read back exactly.");
  put_line (out, "#");
  put_line (out, "# The StableHLO JAX makes of it, to set beside topos's "
                 "stablehlo reading:");
  if (s->differentiated)
    {
      tp_buf_puts (out, "#   print(jax.jit(jax.value_and_grad(loss_of, "
                        "argnums=");
      put_argnums (out, s->n_wrt);
      tp_buf_puts (out, ")).lower(*PARAMETERS).as_text())\n");
    }
  else
    put_line (out, "#   print(jax.jit(loss_of).lower(*PARAMETERS)"
                   ".as_text())");
  put_line (out, "import json");
  put_line (out, "");
  put_line (out, "import jax");
  put_line (out, "import jax.numpy as jnp");
  put_line (out, "import numpy as np");
  put_line (out, "");
  put_line (out, "");
  for (TpNode i = 0; i < s->spec_nodes && !maxima; i++)
    maxima = s->prog.tape.op[i] == TP_OP_MAXIMUM;
  if (maxima)
    put_helpers (out);
  tp_buf_puts (out, "def program(");
  for (uint32_t k = 0; k < s->n_wrt; k++)
    {
      tp_buf_puts (out, k > 0 ? ", " : "");
      tp_buf_puts (out, j->arg[s->wrt[k]]);
    }
  tp_buf_puts (out, "):\n");
  if (s->n_wrt > 0)
    put_line (out, "    # the parameters' statements are the function's "
                   "arguments");
  for (uint32_t k = 0; k < p->n_stmts && !out->failed; k++)
    if (!put_statement (j, k, &next))
      out->failed = true;
  /* the target's name holds its last assignment, the target, by now */
  tp_buf_puts (out, "    return ");
  for (uint32_t k = 0; k < p->n_stmts; k++)
    if (strcmp (p->stmts[k].name, s->target_name) == 0)
      {
        tp_buf_puts (out, j->py[j->id[k]]);
        break;
      }
  tp_buf_puts (out, ", {");
  first = true;
  for (uint32_t k = 0; k < p->n_stmts; k++)
    {
      bool seen = false;
      for (uint32_t e = 0; e < k && !seen; e++)
        seen = j->id[e] == j->id[k];
      if (seen)
        continue;
      tp_buf_puts (out, first ? "" : ", ");
      first = false;
      tp_buf_putc (out, '"');
      tp_buf_puts (out, p->stmts[k].name);
      tp_buf_puts (out, "\": ");
      tp_buf_puts (out, j->py[j->id[k]]);
    }
  tp_buf_puts (out, "}\n");
  put_line (out, "");
  put_line (out, "");
  put_line (out, "def loss_of(*parameters):");
  put_line (out, "    return program(*parameters)[0]");
  put_line (out, "");
  put_line (out, "");
  put_line (out, "def listed(value):");
  put_line (out, "    return np.asarray(value, dtype=np.float64).tolist()");
  put_line (out, "");
  put_line (out, "");
  for (uint32_t k = 0; k < s->n_wrt; k++)
    initial[k] = s->prog.tape.payload[s->wrt[k]];
  put_parameters (j, "PARAMETERS", initial, &s->texts, s->wrt);
  put_parameters (j, "DIRECTION", s->fwd.direction.v, &s->direction_texts,
                  NULL);
  put_line (out, "values = program(*PARAMETERS)[1]");
  tp_buf_puts (out, "result = {\"values\": {name: listed(v) for name, v in "
                    "values.items()}}\n");
  if (s->differentiated)
    {
      tp_buf_puts (out, "gradients = jax.grad(loss_of, argnums=");
      put_argnums (out, s->n_wrt);
      tp_buf_puts (out, ")(*PARAMETERS)\n");
      tp_buf_puts (out, "result[\"gradients\"] = {");
      for (uint32_t k = 0; k < s->n_wrt; k++)
        {
          tp_buf_puts (out, k > 0 ? ", \"" : "\"");
          tp_buf_puts (out, s->gradients[k].name);
          tp_buf_puts (out, "\": listed(gradients[");
          tp_buf_u64 (out, k);
          tp_buf_puts (out, "])");
        }
      tp_buf_puts (out, "}\n");
    }
  if (s->n_wrt > 0)
    {
      put_line (out, "_, jvp = jax.jvp(loss_of, PARAMETERS, DIRECTION)");
      put_line (out, "result[\"jvp\"] = listed(jvp)");
    }
  put_line (out, "print(json.dumps(result))");
}

bool
tp_session_build_jax (TpSession *s)
{
  Jax j = { .s = s, .t = &s->prog.tape };
  TpBuf out;
  uint64_t n = written_elements (s);

  s->computed[TP_COMPUTED_JAX]++;
  tp_buf_init (&out);
  j.out = &out;
  if (n > TP_JAX_ELEMENTS)
    {
      tp_buf_puts (&out, "# the program's sources and direction hold ");
      tp_buf_grouped (&out, n);
      tp_buf_puts (&out, " elements; the jax reading writes out at most ");
      tp_buf_grouped (&out, TP_JAX_ELEMENTS);
      tp_buf_puts (&out, " (2^20)\n");
    }
  else if (!name_everything (&j))
    out.failed = true;
  else
    put_program (&j);
  s->reading_len[TP_READING_JAX] = out.len;
  s->readings[TP_READING_JAX] = tp_session_steal_exact (&out);
  return s->readings[TP_READING_JAX] != NULL;
}
