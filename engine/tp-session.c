/* tp-session.c: one compile produces every reading (docs/language.md).
 *
 * The session owns one arena that holds the program, the tape and every
 * value; it is reset on each compile.  Readings are separate heap strings
 * so front ends can borrow them cheaply. */
#include "tp-engine.h"

#include <stdlib.h>
#include <string.h>

#include "tp-alloc.h"
#include "tp-buf.h"
#include "tp-check.h"
#include "tp-diff.h"
#include "tp-dot.h"
#include "tp-explain.h"
#include "tp-hlo.h"
#include "tp-json.h"
#include "tp-lex.h"
#include "tp-map.h"
#include "tp-memory.h"
#include "tp-parse.h"
#include "tp-plan.h"
#include "tp-run.h"
#include "tp-train.h"
#include "tp-values.h"

struct _TpSession
{
  TpArena arena;
  TpProgram prog;
  bool have_prog;
  TpStatus status;
  char *readings[TP_N_READINGS];
  TpDiag diag;
  char *diag_message;
  size_t n_diags;
  TpName *names;
  size_t n_names;

  /* what the readings were made from */
  float **values;
  const char *target_name;      /* borrowed from the program */
  TpNode target;
  const char **observe_names;
  TpNode *observe;
  uint32_t n_observe;
  uint32_t spec_nodes;
  TpNode *wrt;                  /* parameters in declaration order */
  TpNode *grads;                /* their gradients, when differentiated */
  uint32_t n_wrt;
  bool differentiated;
  TpNode *args;                 /* the StableHLO module's arguments */
  uint32_t n_args;
  TpNode *display;              /* per node: first statement naming it */
  TpPlan plan;

  /* the reading map (tp-engine.h) */
  bool map_off;                 /* kept across compiles */
  TpMap maps[TP_MAP_READINGS];
  TpGradient *gradients;        /* per parameter, when differentiated */
  bool reduced;                 /* the picture */

  /* our readings: check, explain, memory (docs/decisions.md) */
  TpCheck check;
  TpMemory memory;
  const char **param_names;     /* per parameter, its display name */
  char *memory_svg;
  TpCheckVerdict verdict;       /* within the check reading */
  TpExplainOrigin *origins;     /* per node, the explain reading's replay */
  uint32_t *explained;          /* per explained node, its line's offset */
  uint32_t n_explained;         /* and one more: the end */
};

static const char *const role_names[TP_N_ROLES] = {
  [TP_ROLE_BLANK] = "blank",
  [TP_ROLE_NODE] = "node",
  [TP_ROLE_DERIVED] = "derived",
  [TP_ROLE_DIVIDER] = "divider",
  [TP_ROLE_NOTE] = "note",
  [TP_ROLE_FOOTER] = "footer",
  [TP_ROLE_KEPT] = "kept",
  [TP_ROLE_FREED] = "freed",
  [TP_ROLE_RESULT] = "result",
  [TP_ROLE_GRADIENT] = "gradient",
  [TP_ROLE_FRAME] = "frame",
};

static const char *const token_names[TP_N_TOKENS] = {
  [TP_TOKEN_INDEX] = "index",
  [TP_TOKEN_OP] = "op",
  [TP_TOKEN_SOURCE] = "source",
  [TP_TOKEN_OPERAND] = "operand",
  [TP_TOKEN_DETAIL] = "detail",
  [TP_TOKEN_SHAPE] = "shape",
  [TP_TOKEN_LIVE] = "live",
  [TP_TOKEN_NUMBER] = "number",
  [TP_TOKEN_NAME] = "name",
  [TP_TOKEN_SSA] = "ssa",
  [TP_TOKEN_KEYWORD] = "keyword",
  [TP_TOKEN_TYPE] = "type",
  [TP_TOKEN_SYMBOL] = "symbol",
  [TP_TOKEN_ATTRIBUTE] = "attribute",
  [TP_TOKEN_COMMENT] = "comment",
};

const char *
tp_line_role_name (TpLineRole role)
{
  return (unsigned) role < TP_N_ROLES ? role_names[role] : NULL;
}

const char *
tp_token_class_name (TpTokenClass klass)
{
  return (unsigned) klass < TP_N_TOKENS ? token_names[klass] : NULL;
}

static const char *const reading_names[TP_N_READINGS] = {
  "spec", "derivative", "plan", "stablehlo", "values", "dot", "summary",
  "check", "explain", "memory",
};

/* The readings the JSON writes as text under their own names; check,
 * explain and memory follow as structures. */
#define TEXT_READINGS (TP_READING_SUMMARY + 1)

const char *
tp_reading_name (TpReading which)
{
  return (unsigned) which < TP_N_READINGS ? reading_names[which] : NULL;
}

bool
tp_reading_from_name (const char *name, TpReading *which)
{
  for (int r = 0; r < TP_N_READINGS; r++)
    if (strcmp (name, reading_names[r]) == 0)
      {
        *which = (TpReading) r;
        return true;
      }
  return false;
}

TpSession *
tp_session_new (void)
{
  TpSession *s = tp_malloc (sizeof *s);

  if (s == NULL)
    return NULL;
  memset (s, 0, sizeof *s);
  tp_arena_init (&s->arena);
  for (int r = 0; r < TP_MAP_READINGS; r++)
    tp_map_init (&s->maps[r]);
  return s;
}

void
tp_session_set_map (TpSession *s, bool enabled)
{
  s->map_off = !enabled;
}

/* The map reading r is written into, or NULL when maps are off. */
static TpMap *
map_of (TpSession *s, TpReading r)
{
  return s->map_off ? NULL : &s->maps[r];
}

static void
empty_maps (TpSession *s)
{
  for (int r = 0; r < TP_MAP_READINGS; r++)
    tp_map_empty (&s->maps[r]);
}

static void
session_reset (TpSession *s)
{
  for (int r = 0; r < TP_N_READINGS; r++)
    {
      tp_free (s->readings[r]);
      s->readings[r] = NULL;
    }
  tp_free (s->diag_message);
  s->diag_message = NULL;
  tp_free (s->memory_svg);
  s->memory_svg = NULL;
  empty_maps (s);
  if (s->have_prog)
    tp_program_clear (&s->prog);
  tp_arena_reset (&s->arena);
  {
    TpArena arena = s->arena;
    bool map_off = s->map_off;
    TpMap maps[TP_MAP_READINGS];
    memcpy (maps, s->maps, sizeof maps);
    memset (s, 0, sizeof *s);
    s->arena = arena;
    s->map_off = map_off;
    memcpy (s->maps, maps, sizeof maps);
  }
}

void
tp_session_free (TpSession *s)
{
  if (s == NULL)
    return;
  session_reset (s);
  for (int r = 0; r < TP_MAP_READINGS; r++)
    tp_map_clear (&s->maps[r]);
  tp_free (s);
}

/* Records a refusal (or an out-of-memory) at line:column. */
static TpStatus
refuse (TpSession *s, TpStatus status, uint32_t line, uint32_t column,
        const char *message, size_t len)
{
  for (int r = 0; r < TP_N_READINGS; r++)
    {
      tp_free (s->readings[r]);
      s->readings[r] = NULL;
    }
  s->names = NULL;
  s->n_names = 0;
  empty_maps (s);
  s->gradients = NULL;
  tp_free (s->memory_svg);
  s->memory_svg = NULL;
  s->reduced = false;
  tp_free (s->diag_message);
  s->diag_message = tp_malloc (len + 1);
  if (s->diag_message == NULL)
    {
      /* Even the message could not be stored: say so statically. */
      status = TP_STATUS_NO_MEMORY;
      s->diag.message = "out of memory";
    }
  else
    {
      memcpy (s->diag_message, message, len);
      s->diag_message[len] = '\0';
      s->diag.message = s->diag_message;
    }
  s->diag.line = line;
  s->diag.column = column;
  s->n_diags = 1;
  s->status = status;
  return status;
}

static TpStatus
out_of_memory (TpSession *s)
{
  return refuse (s, TP_STATUS_NO_MEMORY, 1, 1, "out of memory", 13);
}

/* Takes a finished buffer as reading r; false when it (or its map)
 * failed. */
static bool
take (TpSession *s, TpReading r, TpBuf *buf)
{
  s->readings[r] = tp_buf_steal (buf);
  if (r < TP_MAP_READINGS && s->maps[r].failed)
    return false;
  return s->readings[r] != NULL;
}

/* The target: the named statement, else the last rank-0 one, else
 * the last; a name resolves to its last assignment. */
static void
resolve_target (TpSession *s, const TpChoices *c)
{
  const TpProgram *p = &s->prog;
  const char *name = NULL;

  if (c != NULL && c->target != NULL && c->target[0] != '\0'
      && tp_program_lookup (p, c->target, strlen (c->target)) != TP_NO_NODE)
    {
      for (uint32_t k = 0; k < p->n_stmts; k++)
        if (strcmp (p->stmts[k].name, c->target) == 0)
          name = p->stmts[k].name;
    }
  for (uint32_t k = p->n_stmts; name == NULL && k-- > 0;)
    if (p->tape.shape[p->stmts[k].node].rank == 0)
      name = p->stmts[k].name;
  if (name == NULL)
    name = p->stmts[p->n_stmts - 1].name;
  s->target_name = name;
  s->target = tp_program_lookup (p, name, strlen (name));
}

/* The observed: each observed name that exists and is not the
 * target's name. */
static bool
resolve_observe (TpSession *s, const TpChoices *c)
{
  size_t n = c != NULL ? c->n_observe : 0;

  s->observe = tp_arena_alloc (&s->arena, (n + 1) * sizeof *s->observe);
  s->observe_names = tp_arena_alloc (&s->arena,
                                     (n + 1) * sizeof *s->observe_names);
  if (s->observe == NULL || s->observe_names == NULL)
    return false;
  for (size_t k = 0; k < n; k++)
    {
      const char *name = c->observe[k];
      TpNode node;
      bool dup = false;

      if (name == NULL || strcmp (name, s->target_name) == 0)
        continue;
      node = tp_program_lookup (&s->prog, name, strlen (name));
      if (node == TP_NO_NODE)
        continue;
      for (uint32_t j = 0; j < s->n_observe; j++)
        dup = dup || strcmp (s->observe_names[j], name) == 0;
      if (dup)
        continue;
      s->observe[s->n_observe] = node;
      /* the program's own copy of the name: the caller's choices need
       * not outlive the compile (a JSON written later names them) */
      s->observe_names[s->n_observe] = name;
      for (uint32_t j = 0; j < s->prog.n_stmts; j++)
        if (strcmp (s->prog.stmts[j].name, name) == 0)
          s->observe_names[s->n_observe] = s->prog.stmts[j].name;
      s->n_observe++;
    }
  return true;
}

/* The parameters in declaration order, and each node's display name: the
 * first statement bound to it (docs/decisions.md D9). */
static bool
collect_names (TpSession *s)
{
  const TpTape *t = &s->prog.tape;
  uint32_t n = t->len;

  s->display = tp_arena_alloc (&s->arena, (n ? n : 1) * sizeof *s->display);
  s->wrt = tp_arena_alloc (&s->arena, (t->n_parameters + 1) * sizeof *s->wrt);
  if (s->display == NULL || s->wrt == NULL)
    return false;
  for (uint32_t i = 0; i < n; i++)
    {
      s->display[i] = TP_NO_NODE;
      if (t->op[i] == TP_OP_PARAMETER)
        s->wrt[s->n_wrt++] = i;
    }
  for (uint32_t k = s->prog.n_stmts; k-- > 0;)
    s->display[s->prog.stmts[k].node] = k;
  return true;
}

static void
put_display_name (const TpSession *s, TpNode node, TpBuf *out)
{
  if (node < s->spec_nodes && s->display[node] != TP_NO_NODE)
    tp_buf_puts (out, s->prog.stmts[s->display[node]].name);
  else
    {
      tp_buf_putc (out, '#');
      tp_buf_u64 (out, node);
    }
}

/* A name that refers to node, as a token of map. */
static void
put_mapped_name (TpMap *map, TpBuf *out, const char *name, TpNode node)
{
  size_t at = out->len;

  tp_buf_puts (out, name);
  tp_map_ref (map, out, at, TP_TOKEN_NAME, node);
}

static void
put_mapped_display_name (const TpSession *s, TpMap *map, TpBuf *out,
                         TpNode node)
{
  size_t at = out->len;

  put_display_name (s, node, out);
  tp_map_ref (map, out, at, TP_TOKEN_NAME, node);
}

static bool
build_names (TpSession *s)
{
  const TpProgram *p = &s->prog;

  s->names = tp_arena_alloc (&s->arena, (p->n_stmts + 1) * sizeof *s->names);
  if (s->names == NULL)
    return false;
  for (uint32_t k = 0; k < p->n_stmts; k++)
    {
      TpName *nm = &s->names[k];
      const TpShape *shape = &p->tape.shape[p->stmts[k].node];
      nm->name = p->stmts[k].name;
      nm->node = p->stmts[k].node;
      nm->line = p->stmts[k].line;
      nm->rank = shape->rank;
      nm->dims = shape->dims;
      nm->scalar = shape->rank == 0;
      nm->parameter = p->tape.op[p->stmts[k].node] == TP_OP_PARAMETER;
    }
  s->n_names = p->n_stmts;
  return true;
}

static bool
build_stablehlo (TpSession *s)
{
  TpBuf out;

  s->args = tp_arena_alloc (&s->arena, (s->prog.tape.len + 1)
                                       * sizeof *s->args);
  if (s->args == NULL)
    return false;
  s->n_args = tp_hlo_arguments (&s->plan, s->args);
  tp_buf_init (&out);
  tp_hlo_write (&s->plan, &out, map_of (s, TP_READING_STABLEHLO));
  return take (s, TP_READING_STABLEHLO, &out);
}

/* Per node its display name (the first statement bound to it), NULL for
 * a node no statement names; NULL when memory runs out. */
static const char **
display_names (TpSession *s)
{
  const char **names = tp_arena_calloc (&s->arena, s->prog.tape.len + 1,
                                        sizeof *names);

  if (names == NULL)
    return NULL;
  for (TpNode i = 0; i < s->spec_nodes; i++)
    if (s->display[i] != TP_NO_NODE)
      names[i] = s->prog.stmts[s->display[i]].name;
  return names;
}

static bool
build_dot (TpSession *s)
{
  const char **names = display_names (s);
  TpDotInput in;
  TpBuf out;

  if (names == NULL)
    return false;
  in.plan = &s->plan;
  in.spec_nodes = s->spec_nodes;
  in.names = names;
  in.target = s->target;
  in.target_name = s->target_name;
  in.observe = s->observe;
  in.n_observe = s->n_observe;
  in.wrt = s->wrt;
  in.grads = s->differentiated ? s->grads : NULL;
  in.n_wrt = s->n_wrt;
  in.budget = 0;              /* TP_DOT_BUDGET */
  in.has_nonfinite = s->check.nonfinite.found;
  in.nonfinite = s->check.nonfinite.node;
  tp_buf_init (&out);
  s->reduced = tp_dot_write (&in, &out);
  return take (s, TP_READING_DOT, &out);
}

static bool
build_values (TpSession *s)
{
  TpBuf out;
  TpValuesBudget budget = { TP_VALUES_BUDGET, TP_SUMMARY_BUDGET };
  TpMap *map = map_of (s, TP_READING_VALUES);

  tp_buf_init (&out);
  tp_values_statements (&s->prog, s->values, &out, &budget, map);
  if (s->differentiated)
    {
      tp_map_line (map, &out, TP_MAP_NO_NODE, TP_ROLE_BLANK);
      tp_buf_putc (&out, '\n');
      for (uint32_t k = 0; k < s->n_wrt; k++)
        {
          size_t mark;
          TpNode g = s->grads[k];
          tp_map_line (map, &out, g, TP_ROLE_GRADIENT);
          tp_buf_puts (&out, "d ");
          put_mapped_name (map, &out, s->target_name, s->target);
          tp_buf_puts (&out, " / d ");
          mark = out.len;
          put_mapped_display_name (s, map, &out, s->wrt[k]);
          tp_buf_pad_from (&out, mark, 6);
          tp_buf_putc (&out, ' ');
          mark = out.len;
          tp_values_put_tensor (&out, s->values[g], &s->prog.tape.shape[g],
                                &budget);
          tp_map_ref (map, &out, mark, TP_TOKEN_NUMBER, g);
          tp_buf_putc (&out, '\n');
        }
    }
  return take (s, TP_READING_VALUES, &out);
}

static bool
build_summary (TpSession *s)
{
  TpBuf out;

  tp_buf_init (&out);
  tp_buf_u64 (&out, s->prog.tape.len);
  tp_buf_puts (&out, " nodes recorded, ");
  tp_buf_u64 (&out, s->plan.n_wanted);
  tp_buf_puts (&out, " scheduled, ");
  tp_buf_u64 (&out, s->plan.n_results);
  tp_buf_puts (&out, " readable; differentiating ");
  tp_buf_puts (&out, s->target_name);
  /* Each observed node once, by its display name (docs/decisions.md D9): two
   * names of one node are one value. */
  for (uint32_t k = 0, shown = 0; k < s->n_observe; k++)
    {
      bool seen = false;
      for (uint32_t j = 0; j < k; j++)
        seen = seen || s->observe[j] == s->observe[k];
      if (seen)
        continue;
      tp_buf_puts (&out, shown++ == 0 ? ", observing " : ", ");
      put_display_name (s, s->observe[k], &out);
    }
  tp_buf_putc (&out, '\n');
  return take (s, TP_READING_SUMMARY, &out);
}

static bool
build_spec (TpSession *s)
{
  TpBuf out;

  TpMap *map = map_of (s, TP_READING_SPEC);

  tp_buf_init (&out);
  tp_tape_describe_range (&s->prog.tape, 0, s->prog.tape.len, &out, map,
                          TP_ROLE_NODE);
  tp_tape_describe_total (&s->prog.tape, "tape", &out, map);
  return take (s, TP_READING_SPEC, &out);
}

/* The derivative: differentiate a rank-0 target with respect to every
 * parameter, or say why not. */
static bool
build_derivative (TpSession *s)
{
  TpTape *t = &s->prog.tape;
  const TpShape *shape = &t->shape[s->target];
  TpMap *map = map_of (s, TP_READING_DERIVATIVE);
  TpBuf out;
  size_t at;

  tp_buf_init (&out);
  if (shape->rank != 0)
    {
      tp_map_line (map, &out, TP_MAP_NO_NODE, TP_ROLE_NOTE);
      tp_buf_putc (&out, '`');
      put_mapped_name (map, &out, s->target_name, s->target);
      tp_buf_puts (&out, "` has shape ");
      at = out.len;
      tp_buf_shape (&out, shape);
      tp_map_ref (map, &out, at, TP_TOKEN_SHAPE, TP_MAP_NO_NODE);
      tp_buf_puts (&out, " and a gradient needs a rank-0 target: wrap it in "
                         "`sum(...)`, or pick another target.\n");
      return take (s, TP_READING_DERIVATIVE, &out);
    }
  if (s->n_wrt == 0)
    {
      tp_map_line (map, &out, TP_MAP_NO_NODE, TP_ROLE_NOTE);
      tp_buf_puts (&out, "there is no parameter to differentiate with respect "
                         "to: declare one with `w = parameter [2, 2]`.\n");
      return take (s, TP_READING_DERIVATIVE, &out);
    }
  s->grads = tp_arena_alloc (&s->arena, s->n_wrt * sizeof *s->grads);
  if (s->grads == NULL)
    {
      t->error = TP_TAPE_NO_MEMORY;
      return false;
    }
  if (!tp_differentiate (t, s->target, s->wrt, s->n_wrt, s->grads))
    return false;
  s->differentiated = true;

  tp_tape_describe_range (t, 0, s->spec_nodes, &out, map, TP_ROLE_NODE);
  tp_map_line (map, &out, TP_MAP_NO_NODE, TP_ROLE_DIVIDER);
  tp_buf_puts (&out, "-- ");
  at = out.len;
  tp_buf_u64 (&out, t->len - s->spec_nodes);
  tp_map_ref (map, &out, at, TP_TOKEN_NUMBER, TP_MAP_NO_NODE);
  tp_buf_puts (&out, " nodes appended by differentiate: ");
  for (uint32_t k = 0; k < s->n_wrt; k++)
    {
      if (k > 0)
        tp_buf_puts (&out, ", ");
      tp_buf_puts (&out, "d ");
      put_mapped_name (map, &out, s->target_name, s->target);
      tp_buf_puts (&out, " / d ");
      put_mapped_display_name (s, map, &out, s->wrt[k]);
      tp_buf_puts (&out, " is node ");
      at = out.len;
      tp_buf_u64 (&out, s->grads[k]);
      tp_map_ref (map, &out, at, TP_TOKEN_OPERAND, s->grads[k]);
    }
  tp_buf_putc (&out, '\n');
  tp_tape_describe_range (t, s->spec_nodes, t->len, &out, map,
                          TP_ROLE_DERIVED);
  tp_tape_describe_total (t, "tape", &out, map);
  if (!take (s, TP_READING_DERIVATIVE, &out))
    {
      t->error = TP_TAPE_NO_MEMORY;
      return false;
    }
  return true;
}

static bool
build_plan (TpSession *s, bool exact)
{
  TpBuf out;
  TpNode *roots = tp_arena_alloc (&s->arena, (s->n_wrt + 1) * sizeof *roots);
  uint32_t n_roots = 0;

  if (roots == NULL)
    return false;
  roots[n_roots++] = s->target;
  if (s->differentiated)
    for (uint32_t k = 0; k < s->n_wrt; k++)
      roots[n_roots++] = s->grads[k];
  if (!tp_plan_lower (&s->plan, &s->prog.tape, &s->arena, roots, n_roots,
                      s->observe, s->n_observe, exact))
    return false;
  tp_buf_init (&out);
  tp_plan_describe (&s->plan, &out, map_of (s, TP_READING_PLAN));
  return take (s, TP_READING_PLAN, &out);
}

/* Each parameter's display name and gradient node, for the map. */
static bool
build_gradients (TpSession *s)
{
  if (!s->differentiated)
    return true;
  s->gradients = tp_arena_alloc (&s->arena, s->n_wrt * sizeof *s->gradients);
  if (s->gradients == NULL)
    return false;
  for (uint32_t k = 0; k < s->n_wrt; k++)
    {
      TpNode w = s->wrt[k];
      TpGradient *g = &s->gradients[k];
      g->parameter = w;
      g->gradient = s->grads[k];
      if (s->display[w] != TP_NO_NODE)
        g->name = s->prog.stmts[s->display[w]].name;
      else
        {
          /* "#INDEX", as the divider writes it */
          TpBuf name;
          tp_buf_init (&name);
          put_display_name (s, w, &name);
          g->name = name.failed ? NULL
                    : tp_arena_strndup (&s->arena, name.data, name.len);
          tp_buf_clear (&name);
          if (g->name == NULL)
            return false;
        }
    }
  return true;
}

/* The gradient check and the non-finite origin, before the picture
 * (which marks the origin). */
static bool
run_check (TpSession *s)
{
  return tp_check_gradients (&s->prog.tape, s->spec_nodes, s->target,
                             s->wrt, s->differentiated ? s->grads : NULL,
                             s->n_wrt, s->values, &s->arena, &s->check);
}

static bool
build_check (TpSession *s)
{
  TpBuf out;

  if (s->differentiated)
    {
      s->param_names = tp_arena_alloc (&s->arena,
                                       s->n_wrt * sizeof *s->param_names);
      if (s->param_names == NULL)
        return false;
      for (uint32_t k = 0; k < s->n_wrt; k++)
        s->param_names[k] = s->gradients[k].name;
    }
  tp_buf_init (&out);
  tp_check_describe (&s->check, &s->prog.tape, s->target_name,
                     s->param_names, s->values, &out, &s->verdict);
  return take (s, TP_READING_CHECK, &out);
}

static bool
build_explain (TpSession *s)
{
  const char **names = display_names (s);
  TpExplainInput in;
  TpBuf out;

  if (names == NULL)
    return false;
  in.plan = &s->plan;
  in.spec_nodes = s->spec_nodes;
  in.names = names;
  in.target = s->target;
  in.target_name = s->target_name;
  in.wrt = s->wrt;
  in.grads = s->differentiated ? s->grads : NULL;
  in.n_wrt = s->n_wrt;
  tp_buf_init (&out);
  if (!tp_explain_write (&in, &s->arena, &out, &s->origins))
    {
      tp_buf_clear (&out);
      return false;
    }
  /* Where each node's line starts, for tp_session_explanation. */
  s->n_explained = s->prog.tape.len < TP_EXPLAIN_NODES
                   ? s->prog.tape.len : TP_EXPLAIN_NODES;
  s->explained = tp_arena_alloc (&s->arena, ((size_t) s->n_explained + 1)
                                            * sizeof *s->explained);
  if (s->explained == NULL || out.failed)
    {
      tp_buf_clear (&out);
      return false;
    }
  for (size_t at = 0, line = 0; line <= s->n_explained && at <= out.len;
       at++)
    if (at == 0 || out.data[at - 1] == '\n')
      s->explained[line++] = (uint32_t) at;
  return take (s, TP_READING_EXPLAIN, &out);
}

static bool
build_memory (TpSession *s)
{
  TpBuf out, svg;

  if (!tp_memory_build (&s->memory, &s->plan, &s->arena))
    return false;
  tp_buf_init (&out);
  tp_memory_describe (&s->memory, &out);
  if (!take (s, TP_READING_MEMORY, &out))
    return false;
  tp_buf_init (&svg);
  tp_memory_svg (&s->memory, &svg);
  s->memory_svg = tp_buf_steal (&svg);
  return s->memory_svg != NULL;
}

TpStatus
tp_session_compile (TpSession *s, const char *source, size_t length,
                    const TpChoices *choices)
{
  bool exact = choices != NULL && choices->exact;

  session_reset (s);
  tp_program_init (&s->prog, &s->arena);
  s->prog.want_spans = !s->map_off;
  s->have_prog = true;
  if (source == NULL)
    length = 0;
  if (!tp_parse (&s->prog, source != NULL ? source : "", length))
    {
      const TpBuf *m = &s->prog.message;
      if (s->prog.no_memory)
        return out_of_memory (s);
      return refuse (s, TP_STATUS_REFUSED, s->prog.line, s->prog.column,
                     m->data != NULL ? m->data : "", m->len);
    }
  s->spec_nodes = s->prog.tape.len;
  if (!build_spec (s) || !collect_names (s))
    return out_of_memory (s);
  resolve_target (s, choices);
  if (!resolve_observe (s, choices))
    return out_of_memory (s);
  if (!build_derivative (s))
    {
      /* A limit met while differentiating is reported on the target's
       * line. */
      uint32_t line = 1;
      for (uint32_t k = 0; k < s->prog.n_stmts; k++)
        if (strcmp (s->prog.stmts[k].name, s->target_name) == 0)
          line = s->prog.stmts[k].line;
      tp_buf_clear (&s->prog.message);
      tp_program_tape_error (&s->prog, line, 1);
      if (s->prog.no_memory || s->prog.message.failed)
        return out_of_memory (s);
      return refuse (s, TP_STATUS_REFUSED, line, 1, s->prog.message.data,
                     s->prog.message.len);
    }

  /* The values: the whole tape, default inputs. */
  s->values = tp_arena_alloc (&s->arena, (s->prog.tape.len + 1)
                                         * sizeof *s->values);
  if (s->values == NULL
      || !tp_run_forward (&s->prog.tape, &s->arena, s->values))
    return out_of_memory (s);

  if (!build_plan (s, exact) || !build_stablehlo (s) || !build_values (s)
      || !run_check (s)
      || !build_dot (s) || !build_summary (s) || !build_names (s)
      || !build_gradients (s) || !build_check (s) || !build_explain (s)
      || !build_memory (s))
    return out_of_memory (s);
  for (int r = 0; r < TP_N_READINGS; r++)
    if (s->readings[r] == NULL)
      {
        s->readings[r] = tp_malloc (1);
        if (s->readings[r] == NULL)
          return out_of_memory (s);
        s->readings[r][0] = '\0';
      }
  s->status = TP_STATUS_OK;
  return TP_STATUS_OK;
}

const char *
tp_session_reading (const TpSession *s, TpReading which)
{
  if ((unsigned) which >= TP_N_READINGS || s->readings[which] == NULL)
    return "";
  return s->readings[which];
}

const char *
tp_session_memory_svg (const TpSession *s)
{
  if (s->status != TP_STATUS_OK || s->memory_svg == NULL)
    return "";
  return s->memory_svg;
}

const TpDiag *
tp_session_diags (const TpSession *s, size_t *n_diags)
{
  if (n_diags != NULL)
    *n_diags = s->n_diags;
  return s->n_diags > 0 ? &s->diag : NULL;
}

const TpName *
tp_session_names (const TpSession *s, size_t *n_names)
{
  if (n_names != NULL)
    *n_names = s->n_names;
  return s->names;
}

const uint32_t *
tp_session_arguments (const TpSession *s, size_t *n_args)
{
  if (n_args != NULL)
    *n_args = s->status == TP_STATUS_OK ? s->n_args : 0;
  return s->status == TP_STATUS_OK ? s->args : NULL;
}

void
tp_session_stats (const TpSession *s, TpStats *stats)
{
  memset (stats, 0, sizeof *stats);
  stats->statements = s->prog.n_stmts;
  stats->nodes = s->prog.tape.len;
  stats->elements = s->prog.tape.elements;
  stats->work = s->prog.tape.work;
}

/* The map of reading which, or NULL when it has none. */
static const TpMap *
map_get (const TpSession *s, TpReading which)
{
  if ((unsigned) which >= TP_MAP_READINGS || s->status != TP_STATUS_OK)
    return NULL;
  return &s->maps[which];
}

size_t
tp_session_map_n_lines (const TpSession *s, TpReading which)
{
  const TpMap *m = map_get (s, which);

  return m != NULL ? m->n_lines : 0;
}

size_t
tp_session_map_n_refs (const TpSession *s, TpReading which)
{
  const TpMap *m = map_get (s, which);

  return m != NULL ? m->n_refs : 0;
}

bool
tp_session_map_line (const TpSession *s, TpReading which, size_t line,
                     TpMapLine *out)
{
  const TpMap *m = map_get (s, which);
  const TpMapLineRec *l;

  if (m == NULL || line >= m->n_lines)
    return false;
  l = &m->lines[line];
  out->node = l->node;
  out->role = (TpLineRole) l->role;
  out->first_ref = l->first_ref;
  out->n_refs = (line + 1 < m->n_lines ? m->lines[line + 1].first_ref
                                       : m->n_refs) - l->first_ref;
  return true;
}

bool
tp_session_map_ref (const TpSession *s, TpReading which, size_t index,
                    TpMapRef *out)
{
  const TpMap *m = map_get (s, which);
  const TpMapRefRec *r;

  if (m == NULL || index >= m->n_refs)
    return false;
  r = &m->refs[index];
  out->line = r->line;
  out->start = r->start;
  out->end = r->end;
  out->klass = (TpTokenClass) r->klass;
  out->node = r->node;
  return true;
}

bool
tp_session_map_ref_at (const TpSession *s, TpReading which, size_t line,
                       uint32_t at, TpMapRef *out)
{
  TpMapLine ml;
  uint32_t lo, hi;

  if (!tp_session_map_line (s, which, line, &ml))
    return false;
  /* The line's refs are in order and disjoint: the last one starting at
   * or before `at` is the only candidate. */
  lo = ml.first_ref;
  hi = ml.first_ref + ml.n_refs;
  while (lo < hi)
    {
      uint32_t mid = lo + (hi - lo) / 2;
      if (s->maps[which].refs[mid].start <= at)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == ml.first_ref)
    return false;
  return tp_session_map_ref (s, which, lo - 1, out) && at < out->end;
}

bool
tp_session_map_cut (const TpSession *s, TpReading which)
{
  const TpMap *m = map_get (s, which);

  return m != NULL && m->cut;
}

uint32_t
tp_session_spec_nodes (const TpSession *s)
{
  return s->status == TP_STATUS_OK ? s->spec_nodes : 0;
}

const TpGradient *
tp_session_gradients (const TpSession *s, size_t *n_gradients)
{
  bool any = s->status == TP_STATUS_OK && s->gradients != NULL;

  if (n_gradients != NULL)
    *n_gradients = any ? s->n_wrt : 0;
  return any ? s->gradients : NULL;
}

bool
tp_session_source (const TpSession *s, uint32_t node, TpSourceSpan *out)
{
  if (s->status != TP_STATUS_OK || node >= s->spec_nodes
      || node >= s->prog.n_spans)
    return false;
  *out = s->prog.spans[node];
  return true;
}

bool
tp_session_picture_reduced (const TpSession *s)
{
  return s->status == TP_STATUS_OK && s->reduced;
}

/* Writes the decimal digits of value at p; returns their count. */
bool
tp_session_check_summary (const TpSession *s, TpCheckSummary *out)
{
  if (s->status != TP_STATUS_OK)
    return false;
  out->outcome = (TpCheckOutcome) s->verdict.outcome;
  out->verdict = s->readings[TP_READING_CHECK] + s->verdict.at;
  out->verdict_length = s->verdict.len;
  out->differing = s->verdict.differing;
  out->nonfinite = s->check.nonfinite.found;
  out->nonfinite_node = s->check.nonfinite.found ? s->check.nonfinite.node
                                                 : TP_MAP_NO_NODE;
  return true;
}

size_t
tp_session_n_steps (const TpSession *s)
{
  return s->status == TP_STATUS_OK ? s->memory.n_steps : 0;
}

bool
tp_session_step (const TpSession *s, size_t k, TpStep *out)
{
  const TpMemory *m = &s->memory;
  TpNode i;

  if (k >= tp_session_n_steps (s))
    return false;
  i = m->steps[k];
  out->node = i;
  out->gradient = i >= s->spec_nodes;
  out->kept = s->plan.readable[i] != 0;
  out->last = m->to[k];
  out->elements = tp_shape_volume (&s->prog.tape.shape[i]);
  out->live = m->live[k];
  return true;
}

bool
tp_session_node_step (const TpSession *s, uint32_t node, size_t *k)
{
  if (tp_session_n_steps (s) == 0 || node >= s->prog.tape.len
      || s->memory.step_of[node] == UINT32_MAX)
    return false;
  *k = s->memory.step_of[node];
  return true;
}

TpNodeState
tp_session_node_state (const TpSession *s, size_t k, uint32_t node)
{
  size_t at;

  if (k >= tp_session_n_steps (s) || !tp_session_node_step (s, node, &at))
    return TP_NODE_UNEVALUATED;
  if (k < s->memory.from[at])
    return TP_NODE_PENDING;
  return k <= s->memory.to[at] ? TP_NODE_LIVE : TP_NODE_FREED;
}

bool
tp_session_origin (const TpSession *s, uint32_t node, TpOrigin *out)
{
  const TpTape *t = &s->prog.tape;
  const TpExplainOrigin *o;

  if (s->status != TP_STATUS_OK || node >= t->len || s->origins == NULL)
    return false;
  o = &s->origins[node];
  out->of = out->from = out->share = out->sum = TP_MAP_NO_NODE;
  out->count = 0;
  if (node < s->spec_nodes)
    {
      out->role = TP_ORIGIN_FORWARD;
      return true;
    }
  switch ((TpExplainRole) o->role)
    {
    case TP_EXPLAIN_SEED:
      out->role = TP_ORIGIN_SEED;
      out->of = s->target;
      break;
    case TP_EXPLAIN_RULE:
      out->role = TP_ORIGIN_RULE;
      out->of = o->of;
      break;
    case TP_EXPLAIN_ZERO:
      out->role = TP_ORIGIN_ZERO;
      out->of = o->of;
      break;
    case TP_EXPLAIN_SHARE:
      out->role = TP_ORIGIN_SHARE;
      out->of = o->of;
      out->from = o->from;
      out->sum = t->arg[node][0];
      out->share = t->arg[node][1];
      out->count = o->share;
      break;
    case TP_EXPLAIN_UNREACHED:
      out->role = TP_ORIGIN_UNREACHED;
      out->of = o->of;
      break;
    case TP_EXPLAIN_NONE:
      out->role = TP_ORIGIN_APPENDED;
      break;
    }
  return true;
}

const char *
tp_session_explanation (const TpSession *s, uint32_t node, size_t *length)
{
  const char *text = s->readings[TP_READING_EXPLAIN];

  if (s->status != TP_STATUS_OK || text == NULL || s->explained == NULL
      || node >= s->n_explained)
    return NULL;
  *length = s->explained[node + 1] - s->explained[node] - 1;
  return text + s->explained[node];
}

static size_t
put_u32 (char *p, uint32_t value)
{
  char tmp[10];
  size_t n = 0;

  do
    {
      tmp[n++] = (char) ('0' + value % 10);
      value /= 10;
    }
  while (value != 0);
  for (size_t k = 0; k < n; k++)
    p[k] = tmp[n - 1 - k];
  return n;
}

static size_t
put_node_or_null (char *p, uint32_t node)
{
  if (node != TP_MAP_NO_NODE)
    return put_u32 (p, node);
  memcpy (p, "null", 4);
  return 4;
}

static size_t
put_str (char *p, const char *text)
{
  size_t n = strlen (text);

  memcpy (p, text, n);
  return n;
}

/* The "map" member: per text reading its lines and refs. */
static void
json_map_member (const TpSession *s, TpBuf *out)
{
  tp_json_key (out, "map", false);
  tp_buf_putc (out, '{');
  for (int r = 0; r < TP_MAP_READINGS; r++)
    {
      const TpMap *m = map_get (s, (TpReading) r);
      uint32_t n_lines = m != NULL ? m->n_lines : 0;
      uint32_t n_refs = m != NULL ? m->n_refs : 0;

      tp_json_key (out, reading_names[r], r == 0);
      /* Each entry is formatted on the stack and appended once: a big
       * program's map has hundreds of thousands. */
      tp_buf_puts (out, "{\"lines\":[");
      for (uint32_t k = 0; k < n_lines; k++)
        {
          char tmp[64];
          size_t n = 0;
          if (k > 0)
            tmp[n++] = ',';
          n += put_str (tmp + n, "{\"node\":");
          n += put_node_or_null (tmp + n, m->lines[k].node);
          n += put_str (tmp + n, ",\"role\":\"");
          n += put_str (tmp + n, role_names[m->lines[k].role]);
          n += put_str (tmp + n, "\"}");
          tp_buf_append (out, tmp, n);
        }
      tp_buf_puts (out, "],\"refs\":[");
      for (uint32_t k = 0; k < n_refs; k++)
        {
          const TpMapRefRec *f = &m->refs[k];
          char tmp[80];
          size_t n = 0;
          if (k > 0)
            tmp[n++] = ',';
          tmp[n++] = '[';
          n += put_u32 (tmp + n, f->line);
          tmp[n++] = ',';
          n += put_u32 (tmp + n, f->start);
          tmp[n++] = ',';
          n += put_u32 (tmp + n, f->end);
          tmp[n++] = ',';
          tmp[n++] = '"';
          n += put_str (tmp + n, token_names[f->klass]);
          tmp[n++] = '"';
          tmp[n++] = ',';
          n += put_node_or_null (tmp + n, f->node);
          tmp[n++] = ']';
          tp_buf_append (out, tmp, n);
        }
      tp_buf_puts (out, "]}");
    }
  tp_buf_putc (out, '}');
}

/* "map": {"spec": {"lines": [...], "refs": [...]}, ...} (unless
 * !with_map), then the spec node count, the gradient nodes, the sources
 * and the picture. */
static void
json_map (const TpSession *s, TpBuf *out, bool with_map)
{
  size_t n_grads;
  const TpGradient *grads = tp_session_gradients (s, &n_grads);
  uint32_t n_sources = s->status == TP_STATUS_OK ? s->prog.tape.len : 0;

  if (with_map)
    json_map_member (s, out);
  tp_json_key (out, "spec_nodes", false);
  tp_buf_u64 (out, tp_session_spec_nodes (s));
  tp_json_key (out, "gradient_nodes", false);
  tp_buf_putc (out, '{');
  for (size_t k = 0; k < n_grads; k++)
    {
      tp_json_key (out, grads[k].name, k == 0);
      tp_buf_u64 (out, grads[k].gradient);
    }
  tp_buf_putc (out, '}');
  tp_json_key (out, "sources", false);
  tp_buf_putc (out, '[');
  for (uint32_t i = 0; i < n_sources; i++)
    {
      TpSourceSpan span;
      if (i > 0)
        tp_buf_putc (out, ',');
      if (!tp_session_source (s, i, &span))
        {
          tp_buf_puts (out, "null");
          continue;
        }
      tp_buf_putc (out, '[');
      tp_buf_u64 (out, span.line);
      tp_buf_putc (out, ',');
      tp_buf_u64 (out, span.first);
      tp_buf_putc (out, ',');
      tp_buf_u64 (out, span.last);
      tp_buf_putc (out, ']');
    }
  tp_buf_putc (out, ']');
  tp_json_key (out, "picture", false);
  tp_buf_puts (out, tp_session_picture_reduced (s) ? "{\"reduced\":true}"
                                                   : "{\"reduced\":false}");
}

static void
json_key_node (TpBuf *out, const char *key, uint32_t node)
{
  tp_json_key (out, key, false);
  if (node == TP_MAP_NO_NODE)
    tp_buf_puts (out, "null");
  else
    tp_buf_u64 (out, node);
}

/* "origins": per explained node, why it was recorded (tp_session_origin). */
static void
json_origins (const TpSession *s, TpBuf *out)
{
  static const char *const roles[] = {
    [TP_ORIGIN_FORWARD] = "forward", [TP_ORIGIN_SEED] = "seed",
    [TP_ORIGIN_RULE] = "rule", [TP_ORIGIN_ZERO] = "zero",
    [TP_ORIGIN_SHARE] = "share", [TP_ORIGIN_UNREACHED] = "unreached",
    [TP_ORIGIN_APPENDED] = "appended",
  };
  TpOrigin o;

  tp_json_key (out, "origins", false);
  tp_buf_putc (out, '[');
  for (uint32_t i = 0; i < s->n_explained && tp_session_origin (s, i, &o);
       i++)
    {
      if (i > 0)
        tp_buf_putc (out, ',');
      tp_buf_putc (out, '{');
      tp_json_key (out, "role", true);
      tp_json_string (out, roles[o.role], strlen (roles[o.role]));
      json_key_node (out, "of", o.of);
      json_key_node (out, "from", o.from);
      json_key_node (out, "share", o.share);
      json_key_node (out, "sum", o.sum);
      tp_json_key (out, "count", false);
      tp_buf_u64 (out, o.count);
      tp_buf_putc (out, '}');
    }
  tp_buf_putc (out, ']');
}

/* Our readings (docs/decisions.md): "check", "explain" (a string per
 * line), "memory" and "memory_svg", before the map. */
static void
json_ours (const TpSession *s, TpBuf *out)
{
  bool ok = s->status == TP_STATUS_OK;
  const char *text;
  size_t from = 0;

  tp_json_key (out, "check", false);
  tp_check_json (ok ? &s->check : NULL, &s->prog.tape,
                 (const char *const *) s->param_names, &s->verdict,
                 tp_session_reading (s, TP_READING_CHECK), out);
  tp_json_key (out, "explain", false);
  tp_buf_putc (out, '[');
  text = tp_session_reading (s, TP_READING_EXPLAIN);
  for (size_t k = 0; text[k] != '\0'; k++)
    if (text[k] == '\n')
      {
        if (from > 0)
          tp_buf_putc (out, ',');
        tp_json_string (out, text + from, k - from);
        from = k + 1;
      }
  tp_buf_putc (out, ']');
  json_origins (s, out);
  tp_json_key (out, "memory", false);
  tp_memory_json (ok ? &s->memory : NULL, out);
  text = tp_session_memory_svg (s);
  tp_json_key (out, "memory_svg", false);
  tp_json_string (out, text, strlen (text));
}

static void
json_node_value (const TpSession *s, TpNode node, bool first, TpBuf *out,
                 uint64_t *budget)
{
  if (!first)
    tp_buf_putc (out, ',');
  tp_buf_puts (out, "{\"node\":");
  tp_buf_u64 (out, node);
  tp_buf_puts (out, ",\"value\":");
  tp_json_tensor (out, s->values[node], &s->prog.tape.shape[node], budget);
  tp_buf_putc (out, '}');
}

typedef struct
{
  const char *name;
  uint32_t stmt;
} NamedStmt;

static int
compare_named (const void *a, const void *b)
{
  const NamedStmt *x = a, *y = b;
  int c = strcmp (x->name, y->name);

  if (c != 0)
    return c;
  return x->stmt < y->stmt ? -1 : x->stmt > y->stmt;
}

/* Per statement, 1 when it is the first to assign its name: statements
 * sorted by name, then by position, start each run with the first, so
 * this takes n log n where a scan of the earlier statements took n^2.
 * NULL when memory runs out; the caller frees it. */
static uint8_t *
first_assignments (const TpProgram *p)
{
  uint32_t n = p->n_stmts;
  NamedStmt *sorted = tp_malloc ((n + 1) * sizeof *sorted);
  uint8_t *first = tp_malloc (n + 1);

  if (sorted == NULL || first == NULL)
    {
      tp_free (sorted);
      tp_free (first);
      return NULL;
    }
  for (uint32_t k = 0; k < n; k++)
    {
      sorted[k].name = p->stmts[k].name;
      sorted[k].stmt = k;
    }
  qsort (sorted, n, sizeof *sorted, compare_named);
  for (uint32_t k = 0; k < n; k++)
    first[sorted[k].stmt] = k == 0
                            || strcmp (sorted[k - 1].name, sorted[k].name) != 0;
  tp_free (sorted);
  return first;
}

/* The session's JSON, with the train object when train is not NULL. */
static char *
session_json (const TpSession *s, const TpTrain *train, bool with_map)
{
  TpBuf out;
  uint64_t budget = TP_VALUES_BUDGET;
  bool ok = s->status == TP_STATUS_OK;
  bool first;
  uint8_t *first_use = NULL;

  tp_buf_init (&out);
  tp_buf_putc (&out, '{');
  tp_json_key (&out, "names", true);
  tp_buf_putc (&out, '[');
  for (size_t k = 0; k < s->n_names; k++)
    {
      const TpName *nm = &s->names[k];
      if (k > 0)
        tp_buf_putc (&out, ',');
      tp_buf_puts (&out, "{\"name\":");
      tp_json_string (&out, nm->name, strlen (nm->name));
      tp_buf_puts (&out, ",\"node\":");
      tp_buf_u64 (&out, nm->node);
      tp_buf_puts (&out, ",\"shape\":");
      tp_json_dims (&out, &s->prog.tape.shape[nm->node]);
      tp_buf_puts (&out, nm->scalar ? ",\"scalar\":true" : ",\"scalar\":false");
      tp_buf_puts (&out, nm->parameter ? ",\"parameter\":true}"
                                       : ",\"parameter\":false}");
    }
  tp_buf_putc (&out, ']');
  for (int r = 0; r < TEXT_READINGS; r++)
    {
      const char *text_r = tp_session_reading (s, (TpReading) r);
      tp_json_key (&out, reading_names[r], false);
      tp_json_string (&out, text_r, strlen (text_r));
    }
  tp_json_key (&out, "target", false);
  if (ok)
    tp_json_string (&out, s->target_name, strlen (s->target_name));
  else
    tp_buf_puts (&out, "null");
  tp_json_key (&out, "observe", false);
  tp_buf_putc (&out, '[');
  for (uint32_t k = 0; ok && k < s->n_observe; k++)
    {
      if (k > 0)
        tp_buf_putc (&out, ',');
      tp_json_string (&out, s->observe_names[k], strlen (s->observe_names[k]));
    }
  tp_buf_putc (&out, ']');

  tp_json_key (&out, "tensors", false);
  tp_buf_putc (&out, '{');
  first = true;
  if (ok && (first_use = first_assignments (&s->prog)) == NULL)
    out.failed = true;
  for (uint32_t k = 0; first_use != NULL && k < s->prog.n_stmts; k++)
    {
      const char *name = s->prog.stmts[k].name;
      TpNode node = tp_program_lookup (&s->prog, name, strlen (name));
      if (!first_use[k])
        continue;
      tp_json_key (&out, name, first);
      first = false;
      tp_json_tensor (&out, s->values[node], &s->prog.tape.shape[node],
                      &budget);
    }
  tp_buf_putc (&out, '}');
  tp_free (first_use);
  if (ok && s->differentiated)
    {
      tp_json_key (&out, "gradients", false);
      tp_buf_putc (&out, '{');
      for (uint32_t k = 0; k < s->n_wrt; k++)
        {
          TpBuf name;
          TpNode g = s->grads[k];
          tp_buf_init (&name);
          put_display_name (s, s->wrt[k], &name);
          if (name.failed)
            out.failed = true;
          else
            tp_json_key (&out, name.data, k == 0);
          tp_buf_clear (&name);
          tp_json_tensor (&out, s->values[g], &s->prog.tape.shape[g],
                          &budget);
        }
      tp_buf_putc (&out, '}');
    }
  /* The StableHLO module's arguments and results with the interpreter's
   * values, so a compiler can be checked against them. */
  tp_json_key (&out, "arguments", false);
  tp_buf_putc (&out, '[');
  for (uint32_t k = 0; ok && k < s->n_args; k++)
    json_node_value (s, s->args[k], k == 0, &out, &budget);
  tp_buf_putc (&out, ']');
  tp_json_key (&out, "results", false);
  tp_buf_putc (&out, '[');
  for (uint32_t k = 0; ok && k < s->plan.n_results; k++)
    json_node_value (s, s->plan.results[k], k == 0, &out, &budget);
  tp_buf_putc (&out, ']');
  tp_json_key (&out, "diagnostics", false);
  tp_buf_putc (&out, '[');
  if (s->n_diags > 0)
    {
      tp_buf_puts (&out, "{\"line\":");
      tp_buf_u64 (&out, s->diag.line);
      tp_buf_puts (&out, ",\"column\":");
      tp_buf_u64 (&out, s->diag.column);
      tp_buf_puts (&out, ",\"message\":");
      tp_json_string (&out, s->diag.message, strlen (s->diag.message));
      tp_buf_putc (&out, '}');
    }
  tp_buf_putc (&out, ']');
  json_ours (s, &out);
  json_map (s, &out, with_map);
  /* Every node's op and value, named or not, gradient included, last:
   * what is left of the budget after the fields above.  The op lets a
   * front end name a node ("node 10 Add") without reading any text. */
  tp_json_key (&out, "nodes", false);
  tp_buf_putc (&out, '[');
  for (TpNode i = 0; ok && i < s->prog.tape.len; i++)
    {
      if (i > 0)
        tp_buf_putc (&out, ',');
      tp_buf_puts (&out, "{\"node\":");
      tp_buf_u64 (&out, i);
      tp_buf_puts (&out, ",\"op\":");
      tp_json_string (&out, tp_op_info[s->prog.tape.op[i]].name,
                      strlen (tp_op_info[s->prog.tape.op[i]].name));
      tp_buf_putc (&out, ',');
      tp_json_tensor_fields (&out, s->values[i], &s->prog.tape.shape[i],
                             &budget);
      tp_buf_putc (&out, '}');
    }
  tp_buf_putc (&out, ']');
  if (train != NULL)
    {
      char *object = tp_train_to_json (train);

      tp_json_key (&out, "train", false);
      if (object == NULL)
        out.failed = true;
      else
        tp_buf_puts (&out, object);
      tp_free (object);
    }
  tp_buf_puts (&out, "}\n");
  if (out.failed)
    {
      tp_buf_clear (&out);
      return NULL;
    }
  return tp_buf_steal (&out);
}

char *
tp_session_to_json (const TpSession *s)
{
  return session_json (s, NULL, true);
}

char *
tp_session_to_json_without_map (const TpSession *s)
{
  return session_json (s, NULL, false);
}

char *
tp_session_to_json_with_train (const TpSession *s, const TpTrain *train)
{
  return session_json (s, train, true);
}

/* Reads the learning rate as the language reads a number, a leading minus
 * allowed; false with message set otherwise. */
static bool
read_rate (const char *text, size_t len, float *rate, TpBuf *message)
{
  TpLexer lex;
  TpToken tok;
  bool negative = false, ok = false;

  tp_lex_init (&lex, text, len);
  if (!tp_lex_next (&lex, &tok))
    {
      tp_buf_puts (message, "the learning rate is not a number: ");
      tp_buf_append (message, lex.err.data != NULL ? lex.err.data : "",
                     lex.err.len);
      tp_lex_clear (&lex);
      return false;
    }
  if (tok.kind == TP_TOK_SYMBOL && tok.symbol == '-')
    {
      negative = true;
      ok = tp_lex_next (&lex, &tok);
    }
  else
    ok = true;
  if (ok && tok.kind == TP_TOK_NUMBER)
    {
      TpToken end;
      *rate = negative ? -tok.number : tok.number;
      ok = tp_lex_next (&lex, &end)
           && (end.kind == TP_TOK_EOF
               || (end.kind == TP_TOK_NEWLINE && tp_lex_next (&lex, &end)
                   && end.kind == TP_TOK_EOF));
    }
  else
    ok = false;
  if (!ok)
    {
      tp_buf_puts (message, "the learning rate must be a number, such as 0.1");
      if (len > 0)
        {
          tp_buf_puts (message, "; found `");
          tp_lex_put_text (message, text, len);
          tp_buf_putc (message, '`');
        }
    }
  tp_lex_clear (&lex);
  return ok;
}

TpTrain *
tp_session_train (const TpSession *s, uint32_t steps, const char *rate_text,
                  size_t len)
{
  const TpTape *tape = &s->prog.tape;
  const char **names = NULL;
  TpTrainInput in;
  TpTrain *train;
  TpBuf message;
  float rate = 0.0f;
  uint64_t work;

  tp_buf_init (&message);
  if (s->status != TP_STATUS_OK)
    tp_buf_puts (&message, "the program is refused: training needs a program "
                           "that reads");
  else if (!s->differentiated)
    {
      /* The derivative reading says why there is no gradient. */
      const char *why = tp_session_reading (s, TP_READING_DERIVATIVE);
      tp_buf_puts (&message, "there is nothing to train: ");
      tp_buf_append (&message, why, strcspn (why, "\n"));
    }
  else if (steps > TP_TRAIN_MAX_STEPS)
    {
      tp_buf_puts (&message, "training takes at most ");
      tp_buf_u64 (&message, TP_TRAIN_MAX_STEPS);
      tp_buf_puts (&message, " steps, asked for ");
      tp_buf_u64 (&message, steps);
    }
  else if (!read_rate (rate_text != NULL ? rate_text : "", len, &rate,
                       &message))
    ;
  else
    {
      work = tape->work > 0 ? tape->work : 1;
      if (work * ((uint64_t) steps + 1) > TP_TRAIN_WORK)
        {
          tp_buf_u64 (&message, steps);
          tp_buf_puts (&message, " steps would take about ");
          tp_buf_u64 (&message, work * ((uint64_t) steps + 1));
          tp_buf_puts (&message, " multiply-adds, over the training budget of ");
          tp_buf_u64 (&message, TP_TRAIN_WORK);
          tp_buf_puts (&message, "; at most ");
          tp_buf_u64 (&message, TP_TRAIN_WORK / work - 1);
          tp_buf_puts (&message, " steps fit");
        }
    }
  if (message.failed)
    {
      tp_buf_clear (&message);
      return NULL;
    }
  if (message.len > 0)
    {
      train = tp_train_refuse (message.data);
      tp_buf_clear (&message);
      return train;
    }
  tp_buf_clear (&message);

  names = tp_malloc ((s->n_wrt + 1) * sizeof *names);
  if (names == NULL)
    return NULL;
  for (uint32_t k = 0; k < s->n_wrt; k++)
    names[k] = s->gradients[k].name;
  in.prog = &s->prog;
  in.target = s->target;
  in.target_name = s->target_name;
  in.wrt = s->wrt;
  in.grads = s->grads;
  in.wrt_names = names;
  in.n_wrt = s->n_wrt;
  train = tp_train_run (&in, steps, rate);
  tp_free (names);
  return train;
}

void
tp_string_free (char *text)
{
  tp_free (text);
}

uint32_t
tp_session_n_nodes (const TpSession *s)
{
  return s->status == TP_STATUS_OK ? s->prog.tape.len : 0;
}

const float *
tp_session_node_value (const TpSession *s, uint32_t node, uint32_t *rank,
                       const uint32_t **dims)
{
  if (s->status != TP_STATUS_OK || node >= s->prog.tape.len)
    return NULL;
  if (rank != NULL)
    *rank = s->prog.tape.shape[node].rank;
  if (dims != NULL)
    *dims = s->prog.tape.shape[node].dims;
  return s->values[node];
}

char *
tp_session_node_value_text (const TpSession *s, uint32_t node,
                            uint64_t max_elements)
{
  TpValuesBudget budget = { max_elements, TP_SUMMARY_BUDGET };
  TpBuf out;

  if (s->status != TP_STATUS_OK || node >= s->prog.tape.len
      || s->values == NULL || s->values[node] == NULL)
    return NULL;
  tp_buf_init (&out);
  tp_values_put_tensor (&out, s->values[node], &s->prog.tape.shape[node],
                        &budget);
  return tp_buf_steal (&out);
}

char *
tp_f32_text (float value)
{
  TpBuf out;

  tp_buf_init (&out);
  tp_buf_f32 (&out, value);
  return tp_buf_steal (&out);
}
