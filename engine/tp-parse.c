/* tp-parse.c: recursive-descent parser for the tape language.
 *
 *   program    := { NEWLINE | NAME '=' expression (NEWLINE|EOF) }
 *   expression := term { ('+'|'-') term }
 *   term       := unary { ('*'|'/'|'@') unary }
 *   unary      := '-' unary | primary
 *   primary    := NUMBER | '(' expression ')'
 *               | SOURCE (SHAPE|NUMBER|LITERAL)
 *               | FUNCTION '(' expression [',' arg] ')' | NAME
 *
 * Nodes are recorded as soon as their operands are known.  Every error
 * stops the parse with one diagnostic. */
#include "tp-parse.h"

#include <math.h>
#include <string.h>

#include "tp-hint.h"
#include "tp-lex.h"

/* The language's keywords, from engine/tp-ops.def: every op written as
 * a source or a function, then the composites.  KW_ENTRY_<FORM> keeps
 * the rows written as a keyword and drops operators and unwritten ops. */
#define KW_ENTRY_NONE(...)
#define KW_ENTRY_OPERATOR(...)
#define KW_ENTRY_SOURCE(...) __VA_ARGS__,
#define KW_ENTRY_UNARY(...) __VA_ARGS__,
#define KW_ENTRY_AXIS(...) __VA_ARGS__,
#define KW_ENTRY_SHAPED(...) __VA_ARGS__,

typedef enum
{
#define TP_OP_ROW(ID, NAME, ARITY, ATTR, HLO, SIDES, WORK, AT, WRITTEN, \
                  FORM, FORMULA) \
  KW_ENTRY_##FORM (FN_##ID)
#define TP_COMPOSITE_ROW(ID, WRITTEN, FORM, RECORDS) FN_##ID,
#include "tp-ops.def"
  FN_NONE
} Keyword;

static const struct
{
  const char *text;
  size_t len;          /* of text, known when compiled */
  TpForm form;
  TpOp op;             /* the op it records (a composite: its main op) */
} keywords[FN_NONE] = {
#define TP_OP_ROW(ID, NAME, ARITY, ATTR, HLO, SIDES, WORK, AT, WRITTEN, \
                  FORM, FORMULA) \
  KW_ENTRY_##FORM ([FN_##ID] = { WRITTEN, sizeof (WRITTEN) - 1, \
                                 TP_FORM_##FORM, TP_OP_##ID })
#define TP_COMPOSITE_ROW(ID, WRITTEN, FORM, RECORDS) \
  [FN_##ID] = { WRITTEN, sizeof (WRITTEN) - 1, TP_FORM_##FORM, \
                TP_OP_##RECORDS },
#include "tp-ops.def"
};

typedef struct
{
  TpProgram *prog;
  TpLexer lex;
  TpToken tok[2];      /* tok[0] is current, tok[1] the one after */
  uint32_t depth;
  uint64_t seed;
  uint32_t end_column;  /* last character of the last token consumed */
} Parser;

void
tp_program_init (TpProgram *prog, TpArena *arena)
{
  memset (prog, 0, sizeof *prog);
  prog->arena = arena;
  tp_tape_init (&prog->tape, arena);
  tp_buf_init (&prog->message);
}

void
tp_program_clear (TpProgram *prog)
{
  tp_buf_clear (&prog->message);
}

/* splitmix64 uniform in [-1, 1): f64 arithmetic, one rounding to f32. */
void
tp_uniform_fill (uint64_t seed, float *out, uint64_t n)
{
  uint64_t state = seed;

  for (uint64_t i = 0; i < n; i++)
    {
      uint64_t z;
      double u;

      state += UINT64_C (0x9E3779B97F4A7C15);
      z = state;
      z = (z ^ (z >> 30)) * UINT64_C (0xBF58476D1CE4E5B9);
      z = (z ^ (z >> 27)) * UINT64_C (0x94D049BB133111EB);
      z ^= z >> 31;
      u = (double) (z >> 11) / 9007199254740992.0;
      out[i] = (float) ((u * 2.0 - 1.0) * 1.0);
    }
}

/* ---- symbols ---------------------------------------------------------- */

static uint32_t
hash_name (const char *name, size_t len)
{
  uint32_t h = 2166136261u;

  for (size_t i = 0; i < len; i++)
    h = (h ^ (unsigned char) name[i]) * 16777619u;
  return h;
}

TpNode
tp_program_lookup (const TpProgram *prog, const char *name, size_t len)
{
  uint32_t mask, i;

  if (prog->cap_symbols == 0)
    return TP_NO_NODE;
  mask = prog->cap_symbols - 1;
  for (i = hash_name (name, len) & mask;; i = (i + 1) & mask)
    {
      const TpSymbol *s = &prog->symbols[i];
      if (s->name == NULL)
        return TP_NO_NODE;
      if (strncmp (s->name, name, len) == 0 && s->name[len] == '\0')
        return s->node;
    }
}

static bool
symbols_insert (TpProgram *prog, const char *name, TpNode node)
{
  size_t len = strlen (name);
  uint32_t mask, i;

  if ((prog->n_symbols + 1) * 2 > prog->cap_symbols)
    {
      uint32_t cap = prog->cap_symbols ? prog->cap_symbols * 2 : 64;
      TpSymbol *old = prog->symbols;
      uint32_t old_cap = prog->cap_symbols;
      TpSymbol *fresh = tp_arena_calloc (prog->arena, cap, sizeof *fresh);

      if (fresh == NULL)
        return false;
      prog->symbols = fresh;
      prog->cap_symbols = cap;
      prog->n_symbols = 0;
      for (uint32_t k = 0; k < old_cap; k++)
        if (old[k].name != NULL)
          symbols_insert (prog, old[k].name, old[k].node);
    }
  mask = prog->cap_symbols - 1;
  for (i = hash_name (name, len) & mask;; i = (i + 1) & mask)
    {
      TpSymbol *s = &prog->symbols[i];
      if (s->name == NULL)
        {
          s->name = name;
          s->node = node;
          prog->n_symbols++;
          return true;
        }
      if (strcmp (s->name, name) == 0)
        {
          s->node = node;
          return true;
        }
    }
}

/* ---- diagnostics ------------------------------------------------------ */

static bool
fail_at (Parser *p, uint32_t line, uint32_t column)
{
  p->prog->line = line;
  p->prog->column = column;
  return false;
}

/* "PREFIX found X", pointing at X. */
static bool
fail_found (Parser *p, const char *prefix, const TpToken *found)
{
  TpBuf *m = &p->prog->message;

  tp_buf_puts (m, prefix);
  tp_buf_puts (m, "found ");
  tp_lex_describe_token (found, m);
  return fail_at (p, found->line, found->column);
}

void
tp_program_tape_error (TpProgram *prog, uint32_t line, uint32_t column)
{
  TpBuf *m = &prog->message;

  prog->line = line;
  prog->column = column;
  switch (prog->tape.error)
    {
    case TP_TAPE_TOO_MANY_NODES:
      tp_buf_puts (m, "the program records more than ");
      tp_buf_grouped (m, TP_LIMIT_NODES);
      tp_buf_puts (m, " nodes");
      break;
    case TP_TAPE_TENSOR_TOO_BIG:
      tp_buf_puts (m, "this tensor would hold ");
      if (prog->tape.error_volume == UINT64_MAX)
        tp_buf_puts (m, "more than 18,446,744,073,709,551,615");
      else
        tp_buf_grouped (m, prog->tape.error_volume);
      tp_buf_puts (m, " elements; a tensor holds at most ");
      tp_buf_grouped (m, TP_LIMIT_TENSOR);
      tp_buf_puts (m, " (2^22)");
      break;
    case TP_TAPE_TOO_MANY_ELEMENTS:
      tp_buf_puts (m, "the program's tensors would hold more than ");
      tp_buf_grouped (m, TP_LIMIT_ELEMENTS);
      tp_buf_puts (m, " (2^24) elements in all");
      break;
    case TP_TAPE_TOO_MUCH_WORK:
      tp_buf_puts (m, "running the program would take more than ");
      tp_buf_grouped (m, TP_LIMIT_WORK);
      tp_buf_puts (m, " (2^30) multiply-adds");
      break;
    case TP_TAPE_NO_MEMORY:
    case TP_TAPE_OK:
    default:
      prog->no_memory = true;
      tp_buf_puts (m, "out of memory");
      break;
    }
}

static bool
tape_fail (Parser *p, const TpToken *at)
{
  tp_program_tape_error (p->prog, at->line, at->column);
  return false;
}

static bool
no_memory (Parser *p)
{
  p->prog->tape.error = TP_TAPE_NO_MEMORY;
  return tape_fail (p, &p->tok[0]);
}

/* Gives the nodes recorded since the last claim the source span from
 * line:column to the last token consumed: each construct claims once its
 * operands (which claimed theirs) and its own nodes are recorded, so a
 * node's span is the innermost expression whose construct recorded it. */
static bool
claim (Parser *p, uint32_t line, uint32_t column)
{
  TpProgram *prog = p->prog;
  uint32_t n = prog->tape.len;

  if (!prog->want_spans)
    return true;
  if (n > prog->cap_spans)
    {
      uint32_t cap = prog->cap_spans ? prog->cap_spans : 64;
      TpSourceSpan *spans;
      while (cap < n)
        cap *= 2;
      spans = tp_arena_grow (prog->arena, prog->spans, prog->n_spans, cap,
                             sizeof *spans);
      if (spans == NULL)
        return no_memory (p);
      prog->spans = spans;
      prog->cap_spans = cap;
    }
  for (uint32_t i = prog->n_spans; i < n; i++)
    {
      prog->spans[i].line = line;
      prog->spans[i].first = column;
      prog->spans[i].last = p->end_column;
    }
  prog->n_spans = n;
  return true;
}

/* ---- tokens ----------------------------------------------------------- */

static void
advance (Parser *p)
{
  /* Tokens are ASCII (anything else is a lexical error, comments aside),
   * so a token's bytes are its characters. */
  p->end_column = p->tok[0].column + (uint32_t) p->tok[0].len - 1;
  p->tok[0] = p->tok[1];
  if (p->tok[0].kind != TP_TOK_EOF)
    tp_lex_next (&p->lex, &p->tok[1]);
}

static bool
is_symbol (const TpToken *t, char c)
{
  return t->kind == TP_TOK_SYMBOL && t->symbol == c;
}

static Keyword
keyword_of (const TpToken *t)
{
  if (t->kind != TP_TOK_NAME)
    return FN_NONE;
  for (int k = 0; k < FN_NONE; k++)
    if (keywords[k].len == t->len
        && memcmp (keywords[k].text, t->text, t->len) == 0)
      return (Keyword) k;
  return FN_NONE;
}

static bool
expect (Parser *p, char c)
{
  char prefix[] = "expected `?`, ";

  if (is_symbol (&p->tok[0], c))
    {
      advance (p);
      return true;
    }
  prefix[10] = c;
  return fail_found (p, prefix, &p->tok[0]);
}

/* ---- recording with the language's shape checks ----------------------- */

static void
put_op_shapes (TpBuf *m, const TpShape *l, const char *op, const TpShape *r)
{
  tp_buf_shape (m, l);
  tp_buf_putc (m, ' ');
  tp_buf_puts (m, op);
  tp_buf_putc (m, ' ');
  tp_buf_shape (m, r);
}

/* The name of the last statement so far bound to node, or NULL. */
static const char *
statement_name (const TpProgram *prog, TpNode node)
{
  for (uint32_t k = prog->n_stmts; k-- > 0;)
    if (prog->stmts[k].node == node)
      return prog->stmts[k].name;
  return NULL;
}

/* a OP b for + - * /: equal shapes, or one side rank 0 broadcast
 * explicitly just before the op. */
static bool
record_arith (Parser *p, TpOp op, const TpToken *at, TpNode a, TpNode b,
              TpNode *out)
{
  TpTape *t = &p->prog->tape;
  const TpShape *sa = &t->shape[a], *sb = &t->shape[b];
  char sym[2] = { at->symbol, '\0' };

  if (!tp_shape_equal (sa, sb))
    {
      if (sa->rank == 0)
        {
          a = tp_tape_shaped (t, TP_OP_BROADCAST, a, sb);
          if (a == TP_NO_NODE)
            return tape_fail (p, at);
        }
      else if (sb->rank == 0)
        {
          b = tp_tape_shaped (t, TP_OP_BROADCAST, b, sa);
          if (b == TP_NO_NODE)
            return tape_fail (p, at);
        }
      else
        {
          TpBuf *m = &p->prog->message;
          tp_buf_putc (m, '`');
          tp_buf_puts (m, sym);
          tp_buf_puts (m, "` needs equal shapes, got ");
          put_op_shapes (m, sa, sym, sb);
          tp_buf_puts (m, "; nothing broadcasts by accident");
          tp_hint_row (m, sa, sb, statement_name (p->prog, a),
                       statement_name (p->prog, b));
          return fail_at (p, at->line, at->column);
        }
    }
  *out = tp_tape_binary (t, op, a, b);
  return *out != TP_NO_NODE || tape_fail (p, at);
}

static bool
record_matmul (Parser *p, const TpToken *at, TpNode a, TpNode b, TpNode *out)
{
  TpTape *t = &p->prog->tape;
  const TpShape *sa = &t->shape[a], *sb = &t->shape[b];
  TpBuf *m = &p->prog->message;

  if (sa->rank != 2 || sb->rank != 2)
    {
      tp_buf_puts (m, "`@` multiplies two matrices, got ");
      put_op_shapes (m, sa, "@", sb);
      return fail_at (p, at->line, at->column);
    }
  if (sa->dims[1] != sb->dims[0])
    {
      tp_buf_puts (m, "matmul cannot multiply ");
      tp_buf_shape (m, sa);
      tp_buf_puts (m, " by ");
      tp_buf_shape (m, sb);
      tp_buf_puts (m, ": the inner extents differ");
      return fail_at (p, at->line, at->column);
    }
  *out = tp_tape_binary (t, TP_OP_MATMUL, a, b);
  return *out != TP_NO_NODE || tape_fail (p, at);
}

/* A source: KIND NUMBER holds exactly that number; KIND [[...]] holds
 * the literal's elements and draws no seed (docs/decisions.md D21);
 * KIND [shape] draws the next seed (also for []), and rank 0 holds 0. */
static bool
record_source (Parser *p, Keyword kw, const TpToken *at, const TpToken *arg,
               TpNode *out)
{
  TpTape *t = &p->prog->tape;
  TpOp op = kw == FN_PARAMETER ? TP_OP_PARAMETER
            : kw == FN_INPUT ? TP_OP_INPUT : TP_OP_LEAF;
  TpShape shape;
  float *payload;

  if (arg->kind == TP_TOK_NUMBER)
    {
      memset (&shape, 0, sizeof shape);
      *out = tp_tape_fill (t, op, &shape, arg->number);
      return *out != TP_NO_NODE || tape_fail (p, at);
    }
  shape = arg->shape;
  if (arg->kind != TP_TOK_LITERAL)
    p->seed++;
  payload = tp_tape_alloc_payload (t, &shape);
  if (payload == NULL)
    return tape_fail (p, at);
  if (arg->kind == TP_TOK_LITERAL)
    tp_lex_literal_values (arg, payload);
  else if (shape.rank == 0)
    payload[0] = 0.0f;
  else
    tp_uniform_fill (p->seed, payload, tp_shape_volume (&shape));
  *out = tp_tape_record (t, op, TP_NO_NODE, TP_NO_NODE, NULL, &shape, payload);
  return *out != TP_NO_NODE || tape_fail (p, at);
}

static bool
fail_axis (Parser *p, const TpToken *fn, uint32_t axis, const TpShape *s)
{
  TpBuf *m = &p->prog->message;

  tp_buf_puts (m, "axis ");
  tp_buf_u64 (m, axis);
  tp_buf_puts (m, " is out of range for ");
  tp_buf_shape (m, s);
  tp_buf_puts (m, " (rank ");
  tp_buf_u64 (m, s->rank);
  tp_buf_putc (m, ')');
  return fail_at (p, fn->line, fn->column);
}

static bool
fail_fn_shape (Parser *p, const TpToken *fn, const char *what,
               const TpShape *s)
{
  TpBuf *m = &p->prog->message;

  tp_buf_putc (m, '`');
  tp_buf_append (m, fn->text, fn->len);
  tp_buf_puts (m, what);
  tp_buf_shape (m, s);
  return fail_at (p, fn->line, fn->column);
}

static bool
record_call (Parser *p, Keyword kw, const TpToken *fn, TpNode a,
             uint32_t axis, const TpShape *arg_shape, TpNode *out)
{
  TpTape *t = &p->prog->tape;
  TpShape sa = t->shape[a];
  TpNode n = TP_NO_NODE;

  switch (kw)
    {
    case FN_TANH:
    case FN_EXP:
    case FN_LN:
    case FN_SQRT:
    case FN_SIN:
    case FN_COS:
    case FN_SUM:
      /* a plain function of one value: the op of its row */
      n = tp_tape_unary (t, keywords[kw].op, a);
      break;
    case FN_RELU:
      n = tp_tape_fill (t, TP_OP_LEAF, &sa, 0.0f);
      if (n != TP_NO_NODE)
        n = tp_tape_binary (t, TP_OP_MAXIMUM, a, n);
      break;
    case FN_TRANSPOSE:
      {
        static const uint8_t swap[2] = { 1, 0 };
        if (sa.rank != 2)
          return fail_fn_shape (p, fn, "` takes a matrix, got ", &sa);
        n = tp_tape_permute (t, a, swap);
      }
      break;
    case FN_SUM_ALONG:
    case FN_LOG_SOFTMAX:
    case FN_LOG_SUM_EXP:
    case FN_SOFTMAX:
    case FN_MEAN_ALONG:
      if (axis >= sa.rank)
        return fail_axis (p, fn, axis, &sa);
      n = tp_tape_axis (t, keywords[kw].op, a, axis);
      if (n != TP_NO_NODE && kw == FN_SOFTMAX)
        n = tp_tape_unary (t, TP_OP_EXP, n);
      if (n != TP_NO_NODE && kw == FN_MEAN_ALONG)
        {
          TpShape reduced;
          TpNode divisor;
          tp_shape_drop_axis (&sa, axis, &reduced);
          divisor = tp_tape_fill (t, TP_OP_LEAF, &reduced,
                                  (float) sa.dims[axis]);
          n = divisor == TP_NO_NODE ? TP_NO_NODE
              : tp_tape_binary (t, TP_OP_DIV, n, divisor);
        }
      break;
    case FN_BROADCAST:
      if (sa.rank != 0)
        return fail_fn_shape (p, fn, "` spreads a rank-0 value, got ", &sa);
      n = tp_tape_shaped (t, TP_OP_BROADCAST, a, arg_shape);
      break;
    case FN_RESHAPE:
      if (tp_shape_volume (&sa) != tp_shape_volume (arg_shape))
        {
          TpBuf *m = &p->prog->message;
          tp_buf_puts (m, "`reshape` from ");
          tp_buf_shape (m, &sa);
          tp_buf_puts (m, " to ");
          tp_buf_shape (m, arg_shape);
          tp_buf_puts (m, " changes the number of elements");
          return fail_at (p, fn->line, fn->column);
        }
      n = tp_tape_shaped (t, TP_OP_RESHAPE, a, arg_shape);
      break;
    case FN_PARAMETER:
    case FN_INPUT:
    case FN_LEAF:
    case FN_NONE:
      break;
    }
  *out = n;
  return n != TP_NO_NODE || tape_fail (p, fn);
}

/* ---- grammar ---------------------------------------------------------- */

static bool parse_expression (Parser *p, TpNode *out);

/* "`F` takes an axis number second" or "... a shape second". */
static bool
fail_second (Parser *p, const TpToken *fn, const char *what)
{
  TpBuf *m = &p->prog->message;

  tp_buf_putc (m, '`');
  tp_buf_append (m, fn->text, fn->len);
  tp_buf_puts (m, what);
  return fail_found (p, "", &p->tok[0]);
}

static bool
parse_call (Parser *p, Keyword kw, TpNode *out)
{
  TpToken fn = p->tok[0];
  TpShape arg_shape;
  uint32_t axis = 0;
  TpNode a;

  memset (&arg_shape, 0, sizeof arg_shape);
  advance (p);                  /* the name */
  advance (p);                  /* '(' */
  if (!parse_expression (p, &a))
    return false;
  if (keywords[kw].form == TP_FORM_AXIS)
    {
      const TpToken *t = &p->tok[0];
      float v;

      if (!expect (p, ','))
        return false;
      v = t->number;
      /* A whole number: every float from 2^23 up is one, and below that
       * the conversion to uint32_t is exact and in range. */
      if (t->kind != TP_TOK_NUMBER || !isfinite (v) || v < 0.0f
          || (v < 8388608.0f && (float) (uint32_t) v != v))
        return fail_second (p, &fn, "` takes an axis number second, ");
      axis = v >= 4294967295.0f ? UINT32_MAX : (uint32_t) v;
      advance (p);
    }
  else if (keywords[kw].form == TP_FORM_SHAPED)
    {
      if (!expect (p, ','))
        return false;
      if (p->tok[0].kind != TP_TOK_SHAPE)
        return fail_second (p, &fn, "` takes a shape second, ");
      arg_shape = p->tok[0].shape;
      advance (p);
    }
  if (!expect (p, ')'))
    return false;
  return record_call (p, kw, &fn, a, axis, &arg_shape, out)
         && claim (p, fn.line, fn.column);
}

/* Whether a and b differ by exactly one edit: a character inserted,
 * deleted or replaced, or two neighbours swapped. */
static bool
one_edit_apart (const char *a, size_t la, const char *b, size_t lb)
{
  size_t i = 0;

  if (la > lb)
    return one_edit_apart (b, lb, a, la);
  if (lb - la > 1)
    return false;
  while (i < la && a[i] == b[i])
    i++;
  if (la == lb)
    {
      if (i == la)
        return false;           /* the same */
      if (memcmp (a + i + 1, b + i + 1, la - i - 1) == 0)
        return true;            /* one replaced */
      return i + 1 < la && a[i] == b[i + 1] && a[i + 1] == b[i]
             && memcmp (a + i + 2, b + i + 2, la - i - 2) == 0;
    }
  return memcmp (a + i, b + i + 1, la - i) == 0;    /* one inserted */
}

/* For an undefined name: a defined name, else a keyword, one edit away
 * from it (the first in byte order when there are several), or NULL. */
static const char *
suggest_name (const Parser *p, const char *text, size_t len)
{
  const TpProgram *prog = p->prog;
  const char *best = NULL;

  for (uint32_t i = 0; i < prog->cap_symbols; i++)
    {
      const char *name = prog->symbols[i].name;

      if (name != NULL && one_edit_apart (text, len, name, strlen (name))
          && (best == NULL || strcmp (name, best) < 0))
        best = name;
    }
  if (best != NULL)
    return best;
  for (int k = 0; k < FN_NONE; k++)
    if (one_edit_apart (text, len, keywords[k].text, keywords[k].len)
        && (best == NULL || strcmp (keywords[k].text, best) < 0))
      best = keywords[k].text;
  return best;
}

static bool
parse_name (Parser *p, TpNode *out)
{
  const TpToken *t = &p->tok[0];
  TpNode n = tp_program_lookup (p->prog, t->text, t->len);

  if (n == TP_NO_NODE)
    {
      TpBuf *m = &p->prog->message;
      const char *near = suggest_name (p, t->text, t->len);

      tp_buf_putc (m, '`');
      tp_lex_put_text (m, t->text, t->len);
      tp_buf_puts (m, "` is not defined yet");
      if (near != NULL)
        {
          tp_buf_puts (m, "; did you mean `");
          tp_buf_puts (m, near);
          tp_buf_puts (m, "`?");
        }
      else
        tp_hint_function (m, t->text, t->len);
      return fail_at (p, t->line, t->column);
    }
  *out = n;
  advance (p);
  return true;
}

static bool
parse_primary (Parser *p, TpNode *out)
{
  const TpToken *t = &p->tok[0];
  const TpToken *next = &p->tok[1];
  Keyword kw;

  if (t->kind == TP_TOK_NUMBER)
    {
      TpShape scalar;
      uint32_t line = t->line, column = t->column;
      memset (&scalar, 0, sizeof scalar);
      *out = tp_tape_fill (&p->prog->tape, TP_OP_LEAF, &scalar, t->number);
      if (*out == TP_NO_NODE)
        return tape_fail (p, t);
      advance (p);
      return claim (p, line, column);
    }
  if (is_symbol (t, '('))
    {
      advance (p);
      return parse_expression (p, out) && expect (p, ')');
    }
  if (t->kind != TP_TOK_NAME)
    return fail_found (p, "expected a value, ", t);

  kw = keyword_of (t);
  if (kw == FN_NONE)
    return parse_name (p, out);
  if (keywords[kw].form == TP_FORM_SOURCE)
    {
      if (next->kind == TP_TOK_SHAPE || next->kind == TP_TOK_NUMBER
          || next->kind == TP_TOK_LITERAL)
        {
          TpToken at = *t;
          TpToken arg = *next;
          advance (p);
          advance (p);
          return record_source (p, kw, &at, &arg, out)
                 && claim (p, at.line, at.column);
        }
      if (tp_program_lookup (p->prog, t->text, t->len) != TP_NO_NODE)
        return parse_name (p, out);
      {
        TpBuf *m = &p->prog->message;
        tp_buf_putc (m, '`');
        tp_buf_append (m, t->text, t->len);
        tp_buf_puts (m, "` takes a shape like `[2, 2]` or a number, ");
        return fail_found (p, "", next);
      }
    }
  if (is_symbol (next, '('))
    return parse_call (p, kw, out);
  if (tp_program_lookup (p->prog, t->text, t->len) != TP_NO_NODE)
    return parse_name (p, out);
  return fail_found (p, "expected `(`, ", next);
}

static bool
parse_unary (Parser *p, TpNode *out)
{
  bool ok;

  if (p->depth > TP_LIMIT_DEPTH)
    {
      TpBuf *m = &p->prog->message;
      tp_buf_puts (m, "expressions nest deeper than ");
      tp_buf_u64 (m, TP_LIMIT_DEPTH);
      tp_buf_puts (m, " levels");
      return fail_at (p, p->tok[0].line, p->tok[0].column);
    }
  p->depth++;
  if (is_symbol (&p->tok[0], '-'))
    {
      TpToken at = p->tok[0];
      TpNode a;
      advance (p);
      ok = parse_unary (p, &a);
      if (ok)
        {
          *out = tp_tape_unary (&p->prog->tape, TP_OP_NEG, a);
          ok = (*out != TP_NO_NODE || tape_fail (p, &at))
               && claim (p, at.line, at.column);
        }
    }
  else
    ok = parse_primary (p, out);
  p->depth--;
  return ok;
}

static bool
parse_term (Parser *p, TpNode *out)
{
  uint32_t line = p->tok[0].line, column = p->tok[0].column;
  TpNode a;

  if (!parse_unary (p, &a))
    return false;
  while (is_symbol (&p->tok[0], '*') || is_symbol (&p->tok[0], '/')
         || is_symbol (&p->tok[0], '@'))
    {
      TpToken op = p->tok[0];
      TpNode b;
      bool ok;

      advance (p);
      if (!parse_unary (p, &b))
        return false;
      if (op.symbol == '@')
        ok = record_matmul (p, &op, a, b, &a);
      else
        ok = record_arith (p, op.symbol == '*' ? TP_OP_MUL : TP_OP_DIV,
                           &op, a, b, &a);
      if (!ok || !claim (p, line, column))
        return false;
    }
  *out = a;
  return true;
}

static bool
parse_expression (Parser *p, TpNode *out)
{
  uint32_t line = p->tok[0].line, column = p->tok[0].column;
  TpNode a;

  if (!parse_term (p, &a))
    return false;
  while (is_symbol (&p->tok[0], '+') || is_symbol (&p->tok[0], '-'))
    {
      TpToken op = p->tok[0];
      TpNode b;

      advance (p);
      if (!parse_term (p, &b))
        return false;
      if (!record_arith (p, op.symbol == '+' ? TP_OP_ADD : TP_OP_SUB, &op,
                         a, b, &a)
          || !claim (p, line, column))
        return false;
    }
  *out = a;
  return true;
}

static bool
add_statement (Parser *p, const TpToken *name, TpNode node)
{
  TpProgram *prog = p->prog;
  char *text;

  if (prog->n_stmts >= TP_LIMIT_STATEMENTS)
    {
      tp_buf_puts (&prog->message, "the program has more than ");
      tp_buf_grouped (&prog->message, TP_LIMIT_STATEMENTS);
      tp_buf_puts (&prog->message, " statements");
      return fail_at (p, name->line, name->column);
    }
  if (prog->n_stmts == prog->cap_stmts)
    {
      uint32_t cap = prog->cap_stmts ? prog->cap_stmts * 2 : 32;
      TpStatement *s = tp_arena_grow (prog->arena, prog->stmts,
                                      prog->n_stmts, cap, sizeof *s);
      if (s == NULL)
        return no_memory (p);
      prog->stmts = s;
      prog->cap_stmts = cap;
    }
  text = tp_arena_strndup (prog->arena, name->text, name->len);
  if (text == NULL || !symbols_insert (prog, text, node))
    return no_memory (p);
  prog->stmts[prog->n_stmts].name = text;
  prog->stmts[prog->n_stmts].node = node;
  prog->stmts[prog->n_stmts].line = name->line;
  prog->n_stmts++;
  return true;
}

static bool
parse_statement (Parser *p)
{
  TpToken name = p->tok[0];
  TpNode node;

  if (name.kind != TP_TOK_NAME)
    return fail_found (p, "a line is `name = expression`, ", &name);
  if (!is_symbol (&p->tok[1], '='))
    return fail_found (p, "expected `=`, ", &p->tok[1]);
  advance (p);
  advance (p);
  if (!parse_expression (p, &node))
    return false;
  if (p->tok[0].kind != TP_TOK_NEWLINE && p->tok[0].kind != TP_TOK_EOF)
    {
      TpBuf *m = &p->prog->message;
      tp_buf_puts (m, "unexpected ");
      tp_lex_describe_token (&p->tok[0], m);
      tp_buf_puts (m, " after the expression");
      return fail_at (p, p->tok[0].line, p->tok[0].column);
    }
  return add_statement (p, &name, node);
}

bool
tp_parse (TpProgram *prog, const char *src, size_t len)
{
  Parser p;
  TpToken tok;
  bool ok = true;

  memset (&p, 0, sizeof p);
  p.prog = prog;
  p.seed = 1;

  /* Lex the whole program first: the first lexical error wins. */
  tp_lex_init (&p.lex, src, len);
  do
    {
      if (!tp_lex_next (&p.lex, &tok))
        {
          tp_buf_append (&prog->message, p.lex.err.data ? p.lex.err.data : "",
                         p.lex.err.len);
          prog->line = p.lex.err_line;
          prog->column = p.lex.err_column;
          if (p.lex.err.failed || prog->message.failed)
            prog->no_memory = true;
          tp_lex_clear (&p.lex);
          return false;
        }
    }
  while (tok.kind != TP_TOK_EOF);
  tp_lex_clear (&p.lex);

  tp_lex_init (&p.lex, src, len);
  tp_lex_next (&p.lex, &p.tok[0]);
  if (p.tok[0].kind != TP_TOK_EOF)
    tp_lex_next (&p.lex, &p.tok[1]);
  else
    p.tok[1] = p.tok[0];
  while (ok && p.tok[0].kind != TP_TOK_EOF)
    {
      if (p.tok[0].kind == TP_TOK_NEWLINE)
        advance (&p);
      else
        ok = parse_statement (&p);
    }
  tp_lex_clear (&p.lex);
  if (ok && prog->n_stmts == 0)
    {
      tp_buf_puts (&prog->message,
                   "write at least one line, such as `w = parameter 0.5`");
      prog->line = 1;
      prog->column = 1;
      ok = false;
    }
  if (prog->message.failed)
    prog->no_memory = true;
  return ok;
}
