/* tp-session.c: a session's compile, and each reading made the first time
 * it is asked for (docs/architecture.md, "Paid for when read").
 *
 * tp_session_compile reads the program, records its tape and
 * differentiates it: what every reading needs.  Everything else is a
 * stage (tp-session-private.h) that tp_session_need computes once,
 * after the stages it stands on, when something asks for it; a failed
 * allocation there makes the session say "out of memory" until the next
 * compile, never half a reading. */
#include "tp-session-private.h"

#include <stdlib.h>
#include <string.h>

#include "tp-diff.h"
#include "tp-dot.h"
#include "tp-hlo.h"
#include "tp-lex.h"
#include "tp-run.h"
#include "tp-values.h"

const char *const tp_session_role_names[TP_N_ROLES] = {
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

const char *const tp_session_token_names[TP_N_TOKENS] = {
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
  return (unsigned) role < TP_N_ROLES ? tp_session_role_names[role] : NULL;
}

const char *
tp_token_class_name (TpTokenClass klass)
{
  return (unsigned) klass < TP_N_TOKENS ? tp_session_token_names[klass]
                                        : NULL;
}

static const char *const reading_names[TP_N_READINGS] = {
  "spec", "derivative", "plan", "stablehlo", "values", "dot", "summary",
  "check", "explain", "memory", "optimized", "fusion", "forward", "jax",
};

/* The stage that makes each reading. */
static const TpStage reading_stage[TP_N_READINGS] = {
  [TP_READING_SPEC] = TP_STAGE_SPEC,
  [TP_READING_DERIVATIVE] = TP_STAGE_DERIVATIVE,
  [TP_READING_PLAN] = TP_STAGE_PLAN,
  [TP_READING_STABLEHLO] = TP_STAGE_STABLEHLO,
  [TP_READING_VALUES] = TP_STAGE_VALUES,
  [TP_READING_DOT] = TP_STAGE_DOT,
  [TP_READING_SUMMARY] = TP_STAGE_SUMMARY,
  [TP_READING_CHECK] = TP_STAGE_CHECK,
  [TP_READING_EXPLAIN] = TP_STAGE_EXPLAIN,
  [TP_READING_MEMORY] = TP_STAGE_MEMORY,
  [TP_READING_OPTIMIZED] = TP_STAGE_OPTIMIZED,
  [TP_READING_FUSION] = TP_STAGE_FUSION_TEXT,
  [TP_READING_FORWARD] = TP_STAGE_FORWARD,
  [TP_READING_JAX] = TP_STAGE_JAX,
};

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

/* {==== the session ====} */

TpSession *
tp_session_new_with_allocator (const TpAllocator *allocator)
{
  const TpAllocator *saved = tp_alloc_enter (allocator);
  TpSession *s = tp_malloc (sizeof *s);

  tp_alloc_leave (saved);
  if (s == NULL)
    return NULL;
  memset (s, 0, sizeof *s);
  s->allocator = allocator;
  tp_arena_init (&s->arena);
  for (int r = 0; r < TP_N_READINGS; r++)
    tp_map_init (&s->maps[r]);
  return s;
}

TpSession *
tp_session_new (void)
{
  return tp_session_new_with_allocator (NULL);
}

void
tp_session_set_map (TpSession *s, bool enabled)
{
  s->map_off = !enabled;
}

TpMap *
tp_session_map_of (TpSession *s, TpReading r)
{
  return s->map_off || s->no_map || !tp_reading_has_map (r) ? NULL
                                                          : &s->maps[r];
}


static void
empty_maps (TpSession *s)
{
  for (int r = 0; r < TP_N_READINGS; r++)
    tp_map_empty (&s->maps[r]);
}

/* Frees what the last compile made; keeps what outlives compiles. */
static void
session_reset (TpSession *s)
{
  const TpAllocator *allocator = s->allocator;
  TpInterrupt interrupt = s->interrupt;
  bool map_off = s->map_off;
  size_t json_len_hint = s->json_len_hint;
  uint64_t json_hint_members = s->json_hint_members;
  uint64_t works[TP_N_COMPUTATIONS];
  TpMap maps[TP_N_READINGS];
  TpArena arena;

  for (int r = 0; r < TP_N_READINGS; r++)
    tp_free (s->readings[r]);
  tp_free (s->diag_message);
  tp_free (s->memory_svg);
  tp_free (s->dot_kernels);
  tp_free (s->dot_tangent);
  tp_free (s->step_text);
  tp_free (s->late_step);
  tp_free (s->fusion_sentence);
  tp_free (s->announcement);
  tp_free (s->remat_sentence);
  tp_free (s->fwd.late_step);
  tp_texts_clear (&s->texts);
  tp_texts_clear (&s->direction_texts);
  empty_maps (s);
  if (s->have_prog)
    tp_program_clear (&s->prog);
  tp_arena_reset (&s->arena);
  arena = s->arena;
  memcpy (works, s->computed, sizeof works);
  memcpy (maps, s->maps, sizeof maps);
  memset (s, 0, sizeof *s);
  s->allocator = allocator;
  s->interrupt = interrupt;
  s->map_off = map_off;
  s->json_len_hint = json_len_hint;
  s->json_hint_members = json_hint_members;
  s->arena = arena;
  memcpy (s->computed, works, sizeof works);
  memcpy (s->maps, maps, sizeof maps);
}

void
tp_session_free (TpSession *s)
{
  if (s == NULL)
    return;
  {
    TP_SESSION_ENTER (s);
    session_reset (s);
    for (int r = 0; r < TP_N_READINGS; r++)
      tp_map_clear (&s->maps[r]);
    TP_SESSION_LEAVE ();
  }
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
  s->done = 0;
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

bool
tp_session_take (TpSession *s, TpReading r, TpBuf *buf)
{
  s->reading_len[r] = buf->len;
  s->readings[r] = tp_buf_steal (buf);
  if (tp_reading_has_map (r) && s->maps[r].failed)
    return false;
  return s->readings[r] != NULL;
}

#define take tp_session_take

/* {==== the compile: read, record, differentiate ====} */

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

void
tp_session_put_display_name (const TpSession *s, TpNode node, TpBuf *out)
{
  if (node < s->spec_nodes && s->display[node] != TP_NO_NODE)
    tp_buf_puts (out, s->prog.stmts[s->display[node]].name);
  else
    {
      tp_buf_putc (out, '#');
      tp_buf_u64 (out, node);
    }
}

const char **
tp_session_display_names (TpSession *s)
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

/* A name that refers to node, as a token of map. */
void
tp_session_put_mapped_name (TpMap *map, TpBuf *out, const char *name, TpNode node)
{
  size_t at = out->len;

  tp_buf_puts (out, name);
  tp_map_ref (map, out, at, TP_TOKEN_NAME, node);
}

void
tp_session_put_mapped_display_name (const TpSession *s, TpMap *map, TpBuf *out,
                         TpNode node)
{
  size_t at = out->len;

  tp_session_put_display_name (s, node, out);
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

/* Differentiates a rank-0 target with respect to every parameter; true
 * with nothing done when there is no derivative (the derivative reading
 * says why), false when a limit or memory stopped it. */
static bool
differentiate (TpSession *s)
{
  TpTape *t = &s->prog.tape;

  if (t->shape[s->target].rank != 0 || s->n_wrt == 0)
    return true;
  s->grads = tp_arena_alloc (&s->arena, s->n_wrt * sizeof *s->grads);
  if (s->grads == NULL)
    {
      t->error = TP_TAPE_NO_MEMORY;
      return false;
    }
  if (!tp_differentiate (t, s->target, s->wrt, s->n_wrt, s->grads))
    return false;
  s->differentiated = true;
  return true;
}

/* Each parameter's display name and gradient node, for the map. */
static bool
build_gradients (TpSession *s)
{
  if (!s->differentiated)
    return true;
  s->gradients = tp_arena_alloc (&s->arena, s->n_wrt * sizeof *s->gradients);
  s->param_names = tp_arena_alloc (&s->arena,
                                   s->n_wrt * sizeof *s->param_names);
  if (s->gradients == NULL || s->param_names == NULL)
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
          tp_session_put_display_name (s, w, &name);
          g->name = name.failed ? NULL
                    : tp_arena_strndup (&s->arena, name.data, name.len);
          tp_buf_clear (&name);
          if (g->name == NULL)
            return false;
        }
      s->param_names[k] = g->name;
    }
  return true;
}

static TpStatus
compile (TpSession *s, const char *source, size_t length,
         const TpChoices *choices)
{
  session_reset (s);
  tp_program_init (&s->prog, &s->arena);
  s->no_map = choices != NULL && choices->no_map;
  s->prog.want_spans = !s->map_off && !s->no_map;
  s->have_prog = true;
  s->exact = choices != NULL && choices->exact;
  s->optimize = choices != NULL && choices->optimize;
  s->remat_auto = choices != NULL && choices->remat_auto;
  s->remat_on = s->remat_auto || (choices != NULL && choices->n_remat > 0);
  if (choices != NULL && choices->direction != NULL
      && (s->fwd.asked = tp_arena_strndup (&s->arena, choices->direction,
                                           strlen (choices->direction)))
         == NULL)
    return out_of_memory (s);
  if (source == NULL)
    {
      source = "";
      length = 0;
    }
  /* A copy of the text, for a training to replay and rewrite the program
   * on its own; a text too long to be worth it is not kept. */
  if (length <= TP_SOURCE_KEPT)
    {
      s->source = tp_arena_strndup (&s->arena, source, length);
      s->source_len = length;
      if (s->source == NULL)
        return out_of_memory (s);
    }
  if (!tp_parse (&s->prog, source, length))
    {
      const TpBuf *m = &s->prog.message;
      if (s->prog.no_memory)
        return out_of_memory (s);
      return refuse (s, TP_STATUS_REFUSED, s->prog.line, s->prog.column,
                     m->data != NULL ? m->data : "", m->len);
    }
  s->spec_nodes = s->prog.tape.len;
  if (!collect_names (s))
    return out_of_memory (s);
  resolve_target (s, choices);
  if (!resolve_observe (s, choices) || !tp_session_resolve_remat (s, choices))
    return out_of_memory (s);
  if (!differentiate (s))
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
  if (!build_names (s) || !build_gradients (s)
      || !tp_session_read_settings (s, source, length))
    return out_of_memory (s);
  s->status = TP_STATUS_OK;
  return TP_STATUS_OK;
}

TpStatus
tp_session_compile (TpSession *s, const char *source, size_t length,
                    const TpChoices *choices)
{
  TpStatus status;
  TP_SESSION_ENTER (s);

  status = compile (s, source, length, choices);
  TP_SESSION_LEAVE ();
  return status;
}

/* {==== the stages ====} */

/* Each stage: what it stands on (at most three stages) and its builder. */
typedef struct
{
  int needs[3];
  bool (*build) (TpSession *s);
} TpStageRow;

#define NO_STAGE (-1)

static const TpStageRow stage_rows[TP_N_STAGES] = {
  [TP_STAGE_SPEC] = { { NO_STAGE, NO_STAGE, NO_STAGE }, tp_session_build_spec },
  [TP_STAGE_DERIVATIVE] = { { NO_STAGE, NO_STAGE, NO_STAGE },
                            tp_session_build_derivative },
  [TP_STAGE_RUN] = { { NO_STAGE, NO_STAGE, NO_STAGE }, tp_session_build_run },
  [TP_STAGE_LOWER] = { { NO_STAGE, NO_STAGE, NO_STAGE }, tp_session_build_lower },
  [TP_STAGE_PLAN] = { { TP_STAGE_LOWER, NO_STAGE, NO_STAGE }, tp_session_build_plan },
  [TP_STAGE_STABLEHLO] = { { TP_STAGE_LOWER, NO_STAGE, NO_STAGE },
                           tp_session_build_stablehlo },
  [TP_STAGE_VALUES] = { { TP_STAGE_RUN, NO_STAGE, NO_STAGE }, tp_session_build_values },
  [TP_STAGE_NONFINITE] = { { TP_STAGE_RUN, NO_STAGE, NO_STAGE },
                           tp_session_build_nonfinite },
  [TP_STAGE_DOT] = { { TP_STAGE_LOWER, TP_STAGE_NONFINITE, NO_STAGE },
                     tp_session_build_dot },
  [TP_STAGE_SUMMARY] = { { TP_STAGE_LOWER, NO_STAGE, NO_STAGE },
                         tp_session_build_summary },
  [TP_STAGE_CHECK] = { { TP_STAGE_RUN, NO_STAGE, NO_STAGE }, tp_session_build_check },
  [TP_STAGE_EXPLAIN] = { { TP_STAGE_LOWER, NO_STAGE, NO_STAGE },
                         tp_session_build_explain },
  [TP_STAGE_MEMORY] = { { TP_STAGE_LOWER, NO_STAGE, NO_STAGE },
                        tp_session_build_memory },
  [TP_STAGE_MEMORY_SVG] = { { TP_STAGE_MEMORY, NO_STAGE, NO_STAGE },
                            tp_session_build_memory_svg },
  [TP_STAGE_STEPS] = { { TP_STAGE_MEMORY, TP_STAGE_EXPLAIN, NO_STAGE },
                       tp_session_build_steps },
  [TP_STAGE_MEMORY_CHART] = { { TP_STAGE_MEMORY, NO_STAGE, NO_STAGE },
                              tp_session_build_memory_chart },
  [TP_STAGE_OPTIMIZE] = { { NO_STAGE, NO_STAGE, NO_STAGE },
                          tp_session_build_optimize },
  [TP_STAGE_OPTIMIZED] = { { TP_STAGE_OPTIMIZE, NO_STAGE, NO_STAGE },
                           tp_session_build_optimized },
  [TP_STAGE_FUSION] = { { TP_STAGE_LOWER, NO_STAGE, NO_STAGE },
                        tp_session_build_fusion },
  [TP_STAGE_FUSION_TEXT] = { { TP_STAGE_FUSION, NO_STAGE, NO_STAGE },
                             tp_session_build_fusion_text },
  [TP_STAGE_REMAT] = { { TP_STAGE_LOWER, NO_STAGE, NO_STAGE },
                       tp_session_build_remat },
  [TP_STAGE_DIRECTION] = { { NO_STAGE, NO_STAGE, NO_STAGE },
                           tp_session_build_direction },
  [TP_STAGE_FORWARD] = { { TP_STAGE_RUN, TP_STAGE_DIRECTION, NO_STAGE },
                         tp_session_build_forward },
  [TP_STAGE_DOT_KERNELS] = { { TP_STAGE_NONFINITE, TP_STAGE_FUSION,
                                TP_STAGE_MEMORY },
                              tp_session_build_dot_kernels },
  [TP_STAGE_DOT_TANGENT] = { { TP_STAGE_LOWER, TP_STAGE_NONFINITE,
                               TP_STAGE_FORWARD },
                             tp_session_build_dot_tangent },
  [TP_STAGE_JAX] = { { TP_STAGE_DIRECTION, NO_STAGE, NO_STAGE },
                     tp_session_build_jax },
};

/* Memory ran out in a stage: the session says so until the next compile.
 * Readings already handed out stay where they are (they are borrowed
 * until the next compile); nothing is freed here. */
static void
stage_out_of_memory (TpSession *s)
{
  s->status = TP_STATUS_NO_MEMORY;
  s->diag.message = "out of memory";
  s->diag.line = 1;
  s->diag.column = 1;
  s->n_diags = 1;
}

bool
tp_session_need (TpSession *s, TpStage stage)
{
  const TpStageRow *row = &stage_rows[stage];
  bool ok = true;

  if (s->status != TP_STATUS_OK)
    return false;
  if (s->done & (UINT32_C (1) << stage))
    return true;
  for (int k = 0; k < 3 && ok; k++)
    if (row->needs[k] != NO_STAGE)
      ok = tp_session_need (s, (TpStage) row->needs[k]);
  if (!ok)
    return false;
  {
    TP_SESSION_ENTER (s);
    ok = row->build (s);
    TP_SESSION_LEAVE ();
  }
  s->interrupted = s->stage_interrupted;
  s->stage_interrupted = false;
  if (!ok && !s->interrupted)
    stage_out_of_memory (s);
  if (!ok)
    return false;
  s->done |= UINT32_C (1) << stage;
  return true;
}

void
tp_session_set_interrupt (TpSession *s, bool (*interrupted) (void *data),
                          void *data)
{
  s->interrupt.interrupted = interrupted;
  s->interrupt.data = data;
}

bool
tp_session_interrupted (const TpSession *s)
{
  return s->interrupted;
}

/* {==== what the session gives ====} */

const char *
tp_session_reading (const TpSession *cs, TpReading which)
{
  TpSession *s = (TpSession *) cs;

  if ((unsigned) which >= TP_N_READINGS
      || !tp_session_need (s, reading_stage[which])
      || s->readings[which] == NULL)
    return "";
  return s->readings[which];
}

size_t
tp_session_reading_length (const TpSession *cs, TpReading which)
{
  TpSession *s = (TpSession *) cs;

  if ((unsigned) which >= TP_N_READINGS
      || !tp_session_need (s, reading_stage[which])
      || s->readings[which] == NULL)
    return 0;
  return s->reading_len[which];
}

const char *
tp_session_memory_svg (const TpSession *cs)
{
  TpSession *s = (TpSession *) cs;

  if (!tp_session_need (s, TP_STAGE_MEMORY_SVG) || s->memory_svg == NULL)
    return "";
  return s->memory_svg;
}

TpStatus
tp_session_status (const TpSession *s)
{
  return s->status;
}

const TpDiag *
tp_session_diags (const TpSession *s, size_t *n_diags)
{
  *n_diags = s->n_diags;
  return s->n_diags > 0 ? &s->diag : NULL;
}

const TpName *
tp_session_names (const TpSession *s, size_t *n_names)
{
  bool ok = s->status == TP_STATUS_OK;

  *n_names = ok ? s->n_names : 0;
  return ok ? s->names : NULL;
}

const uint32_t *
tp_session_arguments (const TpSession *cs, size_t *n_args)
{
  TpSession *s = (TpSession *) cs;

  if (!tp_session_need (s, TP_STAGE_LOWER))
    {
      *n_args = 0;
      return NULL;
    }
  *n_args = s->n_args;
  return s->args;
}

uint32_t
tp_session_target (const TpSession *s)
{
  return s->status == TP_STATUS_OK ? s->target : TP_MAP_NO_NODE;
}

const char *
tp_session_target_name (const TpSession *s)
{
  return s->status == TP_STATUS_OK ? s->target_name : NULL;
}

const char *
tp_session_display_name (const TpSession *s, uint32_t node)
{
  if (s->status != TP_STATUS_OK || node >= s->spec_nodes
      || s->display[node] == TP_NO_NODE)
    return NULL;
  return s->prog.stmts[s->display[node]].name;
}

void
tp_session_stats (const TpSession *s, TpStats *stats)
{
  stats->statements = s->prog.n_stmts;
  stats->nodes = s->prog.tape.len;
  stats->elements = s->prog.tape.elements;
  stats->work = s->prog.tape.work;
}

uint64_t
tp_session_computed (const TpSession *s, TpComputation work)
{
  return (unsigned) work < TP_N_COMPUTATIONS ? s->computed[work] : 0;
}

void
tp_testing_break_rule (int op)
{
  tp_diff_break_op = op;
}

void
tp_testing_fold_zero_add (bool enabled)
{
  tp_optimize_wrong_zero_add = enabled;
}

/* {==== the reading map ====} */

/* The map of reading which (made first), or NULL when it has none. */
static const TpMap *
map_get (const TpSession *cs, TpReading which)
{
  TpSession *s = (TpSession *) cs;

  if ((unsigned) which >= TP_N_READINGS || !tp_reading_has_map (which)
      || !tp_session_need (s, reading_stage[which]))
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
  const TpMap *m = map_get (s, which);
  TpMapLine ml;
  uint32_t lo, hi;

  if (m == NULL || !tp_session_map_line (s, which, line, &ml))
    return false;
  /* The line's refs are in order and disjoint: the last one starting at
   * or before `at` is the only candidate. */
  lo = ml.first_ref;
  hi = ml.first_ref + ml.n_refs;
  while (lo < hi)
    {
      uint32_t mid = lo + (hi - lo) / 2;
      if (m->refs[mid].start <= at)
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
tp_session_picture_reduced (const TpSession *cs)
{
  TpSession *s = (TpSession *) cs;

  return tp_session_need (s, TP_STAGE_DOT) && s->reduced;
}

/* {==== values ====} */

uint32_t
tp_session_n_nodes (const TpSession *s)
{
  return s->status == TP_STATUS_OK ? s->prog.tape.len : 0;
}

const float *
tp_session_node_value (const TpSession *cs, uint32_t node, uint32_t *rank,
                       const uint32_t **dims)
{
  TpSession *s = (TpSession *) cs;

  if (s->status != TP_STATUS_OK || node >= s->prog.tape.len
      || !tp_session_need (s, TP_STAGE_RUN))
    return NULL;
  if (rank != NULL)
    *rank = s->prog.tape.shape[node].rank;
  if (dims != NULL)
    *dims = s->prog.tape.shape[node].dims;
  return s->values[node];
}

char *
tp_session_node_value_text (const TpSession *cs, uint32_t node,
                            uint64_t max_elements)
{
  TpSession *s = (TpSession *) cs;
  TpValuesBudget budget = { max_elements, TP_SUMMARY_BUDGET };
  TpBuf out;
  char *text;

  if (s->status != TP_STATUS_OK || node >= s->prog.tape.len
      || !tp_session_need (s, TP_STAGE_RUN) || s->values[node] == NULL)
    return NULL;
  {
    TP_SESSION_ENTER (s);
    tp_buf_init (&out);
    tp_values_put_node (&out, &s->texts, node, s->values[node],
                        &s->prog.tape.shape[node], &budget);
    text = tp_buf_steal (&out);
    TP_SESSION_LEAVE ();
  }
  return text;
}

char *
tp_f32_text (float value)
{
  TpBuf out;

  tp_buf_init (&out);
  tp_buf_f32 (&out, value);
  return tp_buf_steal (&out);
}

void
tp_string_free (char *text)
{
  tp_free (text);
}
