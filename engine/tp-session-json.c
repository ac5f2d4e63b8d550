/* tp-session-json.c: the JSON object (docs/language.md, The JSON object):
 * every member, or the ones a caller chooses (tp_session_to_json_members),
 * each with the same bytes either way.  A member is computed only when it
 * is written: choosing the spec and the values runs no check. */
#include "tp-session-json.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "tp-json.h"
#include "tp-train.h"
#include "tp-values.h"

static const char *const member_names[TP_N_JSON_MEMBERS] = {
  [TP_JSON_NAMES] = "names",
  [TP_JSON_SPEC] = "spec",
  [TP_JSON_DERIVATIVE] = "derivative",
  [TP_JSON_PLAN] = "plan",
  [TP_JSON_STABLEHLO] = "stablehlo",
  [TP_JSON_VALUES] = "values",
  [TP_JSON_DOT] = "dot",
  [TP_JSON_SUMMARY] = "summary",
  [TP_JSON_TARGET] = "target",
  [TP_JSON_OBSERVE] = "observe",
  [TP_JSON_TENSORS] = "tensors",
  [TP_JSON_GRADIENTS] = "gradients",
  [TP_JSON_ARGUMENTS] = "arguments",
  [TP_JSON_RESULTS] = "results",
  [TP_JSON_DIAGNOSTICS] = "diagnostics",
  [TP_JSON_CHECK] = "check",
  [TP_JSON_EXPLAIN] = "explain",
  [TP_JSON_ORIGINS] = "origins",
  [TP_JSON_MEMORY] = "memory",
  [TP_JSON_MEMORY_SVG] = "memory_svg",
  [TP_JSON_MAP] = "map",
  [TP_JSON_SPEC_NODES] = "spec_nodes",
  [TP_JSON_GRADIENT_NODES] = "gradient_nodes",
  [TP_JSON_SOURCES] = "sources",
  [TP_JSON_PICTURE] = "picture",
  [TP_JSON_NODES] = "nodes",
  [TP_JSON_STEPS] = "steps",
  [TP_JSON_TARGET_NODE] = "target_node",
  [TP_JSON_DISPLAY_NAMES] = "display_names",
  [TP_JSON_MEMORY_CHART] = "memory_chart",
  [TP_JSON_TRAIN_SETTINGS] = "train_settings",
  [TP_JSON_DEFAULTS] = "defaults",
  [TP_JSON_OPTIMIZED] = "optimized",
  [TP_JSON_FUSION] = "fusion",
  [TP_JSON_REMAT] = "remat",
  [TP_JSON_FORWARD] = "forward",
  [TP_JSON_JAX] = "jax",
  [TP_JSON_DOT_KERNELS] = "dot_kernels",
  [TP_JSON_DOT_TANGENT] = "dot_tangent",
  [TP_JSON_ANNOUNCEMENT] = "announcement",
};

const char *
tp_json_member_name (TpJsonMember member)
{
  return (unsigned) member < TP_N_JSON_MEMBERS ? member_names[member] : NULL;
}

bool
tp_json_member_from_name (const char *name, size_t length,
                          TpJsonMember *member)
{
  for (int m = 0; m < TP_N_JSON_MEMBERS; m++)
    if (strlen (member_names[m]) == length
        && memcmp (member_names[m], name, length) == 0)
      {
        *member = (TpJsonMember) m;
        return true;
      }
  return false;
}

/* Hands what is written to the sink once it is big enough; only between
 * a member's entries, never inside one (a writer may look back at what it
 * wrote within an entry). */
void
tp_json_drain (TpJsonWriter *w, bool all)
{
  TpBuf *out = w->out;

  if (w->sink == NULL || out->failed || out->len == 0
      || (!all && out->len < DRAIN_BYTES))
    return;
  if (!w->sink (out->data, out->len, w->sink_data))
    out->failed = true;
  out->len = 0;
  out->data[0] = '\0';
}

/* A text as a JSON string, handed to the sink a slice at a time (no one
 * looks back into a string), so that a reading of megabytes is never
 * held whole in the output. */
void
tp_json_write_string (TpJsonWriter *w, const char *text, size_t len)
{
  const size_t slice = (size_t) 1 << 16;

  tp_buf_putc (w->out, '"');
  for (size_t at = 0; at < len; at += slice)
    {
      tp_json_escaped (w->out, text + at, len - at < slice ? len - at : slice);
      tp_json_drain (w, false);
    }
  tp_buf_putc (w->out, '"');
}

/* "shape":[...],"data":[...] of node (or null, elided, past the budget),
 * its elements' text copied when the session keeps it (tp-texts.h). */
static void
put_node_tensor_fields (TpJsonWriter *w, TpNode node)
{
  TpSession *s = w->s;
  const TpShape *shape = &s->prog.tape.shape[node];
  const TpTensorText *text = NULL;

  if (tp_shape_volume (shape) <= w->budget)
    text = tp_texts_get (&s->texts, node, w->out);
  tp_json_tensor_fields_text (w->out, s->values[node], shape, &w->budget,
                              text);
}

static void
put_node_tensor (TpJsonWriter *w, TpNode node)
{
  tp_buf_putc (w->out, '{');
  put_node_tensor_fields (w, node);
  tp_buf_putc (w->out, '}');
}

/* The members that share the output budget, in the order they spend it. */
#define BUDGETED (TP_JSON_MEMBER (TP_JSON_TENSORS) \
                  | TP_JSON_MEMBER (TP_JSON_GRADIENTS) \
                  | TP_JSON_MEMBER (TP_JSON_ARGUMENTS) \
                  | TP_JSON_MEMBER (TP_JSON_RESULTS) \
                  | TP_JSON_MEMBER (TP_JSON_NODES))

/* Whether member m is written; if so, writes its key. */
static bool
member (TpJsonWriter *w, TpJsonMember m)
{
  if (!(w->members & TP_JSON_MEMBER (m)))
    return false;
  tp_json_drain (w, false);
  tp_json_key (w->out, member_names[m], !w->any);
  w->any = true;
  return true;
}

/* Spends the budget a tensor of shape spends when it is written. */
static void
spend (uint64_t *budget, const TpShape *shape)
{
  uint64_t volume = tp_shape_volume (shape);

  if (volume <= *budget)
    *budget -= volume;
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


static void
json_names (TpJsonWriter *w)
{
  TpSession *s = w->s;
  TpBuf *out = w->out;

  tp_buf_putc (out, '[');
  for (size_t k = 0; k < s->n_names; k++)
    {
      const TpName *nm = &s->names[k];
      if (k > 0)
        tp_buf_putc (out, ',');
      tp_buf_puts (out, "{\"name\":");
      tp_json_string (out, nm->name, strlen (nm->name));
      tp_buf_puts (out, ",\"node\":");
      tp_buf_u64 (out, nm->node);
      tp_buf_puts (out, ",\"shape\":");
      tp_json_dims (out, &s->prog.tape.shape[nm->node]);
      tp_buf_puts (out, nm->scalar ? ",\"scalar\":true" : ",\"scalar\":false");
      tp_buf_puts (out, nm->parameter ? ",\"parameter\":true}"
                                      : ",\"parameter\":false}");
    }
  tp_buf_putc (out, ']');
}

/* "tensors": per name, in order of first assignment, its last value. */
static void
json_tensors (TpJsonWriter *w, bool write)
{
  TpSession *s = w->s;
  uint8_t *first_use = NULL;
  bool first = true;

  if (!write && !w->spending)
    return;
  if (write)
    tp_buf_putc (w->out, '{');
  if (s->status == TP_STATUS_OK && tp_session_need (s, TP_STAGE_RUN)
      && (first_use = first_assignments (&s->prog)) == NULL)
    w->out->failed = true;
  for (uint32_t k = 0; first_use != NULL && k < s->prog.n_stmts; k++)
    {
      const char *name = s->prog.stmts[k].name;
      TpNode node = tp_program_lookup (&s->prog, name, strlen (name));
      if (!first_use[k])
        continue;
      if (!write)
        {
          spend (&w->budget, &s->prog.tape.shape[node]);
          continue;
        }
      tp_json_key (w->out, name, first);
      first = false;
      put_node_tensor (w, node);
    }
  if (write)
    tp_buf_putc (w->out, '}');
  tp_free (first_use);
}

/* "gradients": per parameter display name, its gradient (only when there
 * is a derivative: then the member is there at all). */
static void
json_gradients (TpJsonWriter *w)
{
  TpSession *s = w->s;
  bool write;

  if (s->status != TP_STATUS_OK || !s->differentiated
      || (!(w->members & TP_JSON_MEMBER (TP_JSON_GRADIENTS)) && !w->spending)
      || !tp_session_need (s, TP_STAGE_RUN))
    return;
  write = member (w, TP_JSON_GRADIENTS);
  if (write)
    tp_buf_putc (w->out, '{');
  for (uint32_t k = 0; k < s->n_wrt; k++)
    {
      TpNode g = s->grads[k];
      if (!write)
        {
          spend (&w->budget, &s->prog.tape.shape[g]);
          continue;
        }
      tp_json_key (w->out, s->gradients[k].name, k == 0);
      put_node_tensor (w, g);
    }
  if (write)
    tp_buf_putc (w->out, '}');
}

/* "arguments" or "results": nodes with the interpreter's values. */
static void
json_node_values (TpJsonWriter *w, TpJsonMember m, const TpNode *nodes,
                  uint32_t n)
{
  TpSession *s = w->s;
  bool write = member (w, m);

  if (!write && !w->spending)
    return;
  if (write)
    tp_buf_putc (w->out, '[');
  for (uint32_t k = 0; k < n; k++)
    if (write)
      {
        if (k > 0)
          tp_buf_putc (w->out, ',');
        tp_buf_puts (w->out, "{\"node\":");
        tp_buf_u64 (w->out, nodes[k]);
        tp_buf_puts (w->out, ",\"value\":");
        put_node_tensor (w, nodes[k]);
        tp_buf_putc (w->out, '}');
      }
    else
      spend (&w->budget, &s->prog.tape.shape[nodes[k]]);
  if (write)
    tp_buf_putc (w->out, ']');
}

static void
json_diagnostics (TpJsonWriter *w)
{
  TpSession *s = w->s;
  TpBuf *out = w->out;

  tp_buf_putc (out, '[');
  if (s->n_diags > 0)
    {
      tp_buf_puts (out, "{\"line\":");
      tp_buf_u64 (out, s->diag.line);
      tp_buf_puts (out, ",\"column\":");
      tp_buf_u64 (out, s->diag.column);
      tp_buf_puts (out, ",\"message\":");
      tp_json_string (out, s->diag.message, strlen (s->diag.message));
      tp_buf_putc (out, '}');
    }
  tp_buf_putc (out, ']');
}

/* The explain reading's lines, a string each. */
static void
json_explain (TpJsonWriter *w)
{
  const char *text = tp_session_reading (w->s, TP_READING_EXPLAIN);
  size_t from = 0;

  tp_buf_putc (w->out, '[');
  for (size_t k = 0; text[k] != '\0'; k++)
    if (text[k] == '\n')
      {
        if (from > 0)
          tp_buf_putc (w->out, ',');
        tp_json_string (w->out, text + from, k - from);
        tp_json_drain (w, false);
        from = k + 1;
      }
  tp_buf_putc (w->out, ']');
}



/* "nodes": every node's op and value, named or not, gradient included,
 * from what is left of the budget.  The op lets a front end name a node
 * ("node 10 Add") without reading any text. */
static void
json_nodes (TpJsonWriter *w)
{
  TpSession *s = w->s;
  TpBuf *out = w->out;
  bool ok = s->status == TP_STATUS_OK && tp_session_need (s, TP_STAGE_RUN);

  tp_buf_putc (out, '[');
  for (TpNode i = 0; ok && i < s->prog.tape.len; i++)
    {
      const char *op = tp_op_info[s->prog.tape.op[i]].name;
      tp_json_drain (w, false);
      if (i > 0)
        tp_buf_putc (out, ',');
      tp_buf_puts (out, "{\"node\":");
      tp_buf_u64 (out, i);
      tp_buf_puts (out, ",\"op\":");
      tp_json_string (out, op, strlen (op));
      tp_buf_putc (out, ',');
      put_node_tensor_fields (w, i);
      tp_buf_putc (out, '}');
    }
  tp_buf_putc (out, ']');
}





/* Makes every stage the chosen members stand on, so that writing them
 * finds each computed (a member of a refused program is written empty). */
static void
prepare (TpSession *s, uint64_t members)
{
  static const struct
  {
    TpJsonMember member;
    TpStage stage;
  } needs[] = {
    { TP_JSON_TENSORS, TP_STAGE_RUN }, { TP_JSON_GRADIENTS, TP_STAGE_RUN },
    { TP_JSON_ARGUMENTS, TP_STAGE_RUN }, { TP_JSON_ARGUMENTS, TP_STAGE_LOWER },
    { TP_JSON_RESULTS, TP_STAGE_RUN }, { TP_JSON_RESULTS, TP_STAGE_LOWER },
    { TP_JSON_NODES, TP_STAGE_RUN }, { TP_JSON_CHECK, TP_STAGE_CHECK },
    { TP_JSON_EXPLAIN, TP_STAGE_EXPLAIN }, { TP_JSON_ORIGINS, TP_STAGE_EXPLAIN },
    { TP_JSON_MEMORY, TP_STAGE_MEMORY }, { TP_JSON_MEMORY_SVG, TP_STAGE_MEMORY_SVG },
    { TP_JSON_MAP, TP_STAGE_SPEC }, { TP_JSON_MAP, TP_STAGE_DERIVATIVE },
    { TP_JSON_MAP, TP_STAGE_PLAN }, { TP_JSON_MAP, TP_STAGE_STABLEHLO },
    { TP_JSON_MAP, TP_STAGE_VALUES }, { TP_JSON_PICTURE, TP_STAGE_DOT },
    { TP_JSON_STEPS, TP_STAGE_STEPS }, { TP_JSON_MEMORY_CHART, TP_STAGE_MEMORY_CHART },
    { TP_JSON_OPTIMIZED, TP_STAGE_OPTIMIZE }, { TP_JSON_FUSION, TP_STAGE_FUSION },
    { TP_JSON_REMAT, TP_STAGE_REMAT },
  };
  uint64_t budgeted = BUDGETED;

  /* A budgeted member spends what the ones before it would have: the
   * shapes they stand on are needed even when they are not written. */
  for (int m = TP_JSON_NODES; m >= 0; m--)
    if ((members & TP_JSON_MEMBER (m)) && (budgeted & TP_JSON_MEMBER (m)))
      {
        members |= budgeted & (TP_JSON_MEMBER (m + 1) - 1);
        break;
      }
  for (size_t k = 0; k < sizeof needs / sizeof needs[0]; k++)
    if (members & TP_JSON_MEMBER (needs[k].member))
      tp_session_need (s, needs[k].stage);
  for (int r = 0; r < TP_N_READINGS; r++)
    if (r <= TP_READING_SUMMARY && (members & TP_JSON_MEMBER (TP_JSON_SPEC + r)))
      tp_session_reading (s, (TpReading) r);
}

/* The session's JSON: the chosen members, and the train object when
 * train is not NULL; handed to sink as it is written when sink is not
 * NULL (then the result is "" or NULL). */
static char *
session_json (TpSession *s, uint64_t members, const TpTrain *train,
              bool (*sink) (const char *data, size_t length, void *user),
              void *sink_data)
{
  TpBuf out;
  TpJsonWriter w = { s, &out, members, false, TP_VALUES_BUDGET,
                     (members & BUDGETED) != 0, sink, sink_data };
  TpStatus before = s->status;
  bool ok;

  prepare (s, members);
  ok = s->status == TP_STATUS_OK;
  tp_buf_init (&out);
  /* (a reservation that fails fails the JSON, as every allocation does) */
  if (sink == NULL && s->json_len_hint > 0
      && s->json_hint_members == members
      && s->json_len_hint <= ((size_t) 64 << 20))
    tp_buf_reserve (&out, s->json_len_hint + s->json_len_hint / 8);
  tp_buf_putc (&out, '{');
  if (member (&w, TP_JSON_NAMES))
    json_names (&w);
  for (int r = 0; r <= TP_READING_SUMMARY; r++)
    if (member (&w, (TpJsonMember) (TP_JSON_SPEC + r)))
      {
        const char *text = tp_session_reading (s, (TpReading) r);
        tp_json_write_string (&w, text,
                              tp_session_reading_length (s, (TpReading) r));
      }
  if (member (&w, TP_JSON_TARGET))
    {
      if (ok)
        tp_json_string (&out, s->target_name, strlen (s->target_name));
      else
        tp_buf_puts (&out, "null");
    }
  if (member (&w, TP_JSON_OBSERVE))
    {
      tp_buf_putc (&out, '[');
      for (uint32_t k = 0; ok && k < s->n_observe; k++)
        {
          if (k > 0)
            tp_buf_putc (&out, ',');
          tp_json_string (&out, s->observe_names[k],
                          strlen (s->observe_names[k]));
        }
      tp_buf_putc (&out, ']');
    }
  json_tensors (&w, member (&w, TP_JSON_TENSORS));
  json_gradients (&w);
  /* The StableHLO module's arguments and results with the interpreter's
   * values, so a compiler can be checked against them. */
  ok = ok && s->status == TP_STATUS_OK;
  json_node_values (&w, TP_JSON_ARGUMENTS, s->args, ok ? s->n_args : 0);
  json_node_values (&w, TP_JSON_RESULTS, s->plan.results,
                    ok ? s->plan.n_results : 0);
  if (member (&w, TP_JSON_DIAGNOSTICS))
    json_diagnostics (&w);
  if (member (&w, TP_JSON_CHECK))
    {
      bool checked = tp_session_need (s, TP_STAGE_CHECK);
      /* a check the caller stopped: no JSON rather than a wrong one */
      if (!checked && tp_session_interrupted (s))
        out.failed = true;
      tp_check_json (checked ? &s->check : NULL, &s->prog.tape,
                     (const char *const *) s->param_names, &s->verdict,
                     tp_session_reading (s, TP_READING_CHECK), &out);
    }
  if (member (&w, TP_JSON_EXPLAIN))
    json_explain (&w);
  if (member (&w, TP_JSON_ORIGINS))
    tp_json_write_origins (&w);
  if (member (&w, TP_JSON_MEMORY))
    tp_memory_json (tp_session_need (s, TP_STAGE_MEMORY) ? &s->memory : NULL,
                    &out);
  if (member (&w, TP_JSON_MEMORY_SVG))
    {
      const char *svg = tp_session_memory_svg (s);
      tp_json_write_string (&w, svg, *svg != '\0' ? s->memory_svg_len : 0);
    }
  if (member (&w, TP_JSON_MAP))
    tp_json_write_map (&w);
  if (member (&w, TP_JSON_SPEC_NODES))
    tp_buf_u64 (&out, tp_session_spec_nodes (s));
  if (member (&w, TP_JSON_GRADIENT_NODES))
    tp_json_write_gradient_nodes (&w);
  if (member (&w, TP_JSON_SOURCES))
    tp_json_write_sources (&w);
  if (member (&w, TP_JSON_PICTURE))
    tp_buf_puts (&out, tp_session_picture_reduced (s) ? "{\"reduced\":true}"
                                                      : "{\"reduced\":false}");
  if (member (&w, TP_JSON_NODES))
    json_nodes (&w);
  if (member (&w, TP_JSON_STEPS))
    tp_json_write_steps (&w);
  if (member (&w, TP_JSON_TARGET_NODE))
    {
      if (ok)
        tp_buf_u64 (&out, s->target);
      else
        tp_buf_puts (&out, "null");
    }
  if (member (&w, TP_JSON_DISPLAY_NAMES))
    tp_json_write_display_names (&w);
  if (member (&w, TP_JSON_MEMORY_CHART))
    {
      TpChart chart;
      if (tp_session_memory_chart (s, &chart))
        tp_chart_json (&chart, &out);
      else
        tp_buf_puts (&out, "null");
    }
  if (member (&w, TP_JSON_TRAIN_SETTINGS))
    tp_json_write_train_settings (&w);
  if (member (&w, TP_JSON_DEFAULTS))
    tp_json_write_defaults (&w);
  if (member (&w, TP_JSON_OPTIMIZED))
    tp_session_json_optimized (s, &out);
  if (member (&w, TP_JSON_FUSION))
    tp_session_json_fusion (s, &out);
  if (member (&w, TP_JSON_REMAT))
    tp_session_json_remat (s, &out);
  if (member (&w, TP_JSON_FORWARD))
    tp_session_json_forward (&w);
  if (member (&w, TP_JSON_JAX))
    {
      const char *text = tp_session_reading (s, TP_READING_JAX);
      tp_json_write_string (&w, text,
                            tp_session_reading_length (s, TP_READING_JAX));
    }
  if (member (&w, TP_JSON_DOT_KERNELS))
    {
      const char *text = tp_session_dot_kernels (s);
      tp_json_write_string (&w, text, *text != '\0' ? s->dot_kernels_len : 0);
    }
  if (member (&w, TP_JSON_DOT_TANGENT))
    {
      const char *text = tp_session_dot_tangent (s);
      if (*text == '\0')
        tp_buf_puts (&out, "null");
      else
        tp_json_write_string (&w, text, s->dot_tangent_len);
    }
  if (member (&w, TP_JSON_ANNOUNCEMENT))
    {
      const char *text = tp_session_announcement (s);
      /* its buffer failed: no JSON rather than one without the sentence */
      if (s->announcement == NULL)
        out.failed = true;
      tp_json_string (&out, text, strlen (text));
    }
  if (train != NULL)
    {
      char *object = tp_train_to_json (train);

      tp_json_key (&out, "train", !w.any);
      if (object == NULL)
        out.failed = true;
      else
        tp_buf_puts (&out, object);
      tp_free (object);
    }
  tp_buf_puts (&out, "}\n");
  tp_json_drain (&w, true);
  /* A stage that ran out of memory on the way leaves a JSON that would
   * lie: none is better. */
  if (out.failed || s->status != before)
    {
      tp_buf_clear (&out);
      return NULL;
    }
  if (sink == NULL)
    {
      s->json_len_hint = out.len;
      s->json_hint_members = members;
    }
  return tp_buf_steal (&out);
}

char *
tp_session_to_json_members (const TpSession *cs, uint64_t members)
{
  TpSession *s = (TpSession *) cs;
  char *json;
  TP_SESSION_ENTER (s);

  json = session_json (s, members & TP_JSON_ALL, NULL, NULL, NULL);
  TP_SESSION_LEAVE ();
  return json;
}

char *
tp_session_to_json (const TpSession *s)
{
  return tp_session_to_json_members (s, TP_JSON_ALL);
}

char *
tp_session_to_json_without_map (const TpSession *s)
{
  return tp_session_to_json_members (s, TP_JSON_ALL
                                        & ~TP_JSON_MEMBER (TP_JSON_MAP)
                                        & ~TP_JSON_MEMBER (TP_JSON_FORWARD)
                                        & ~TP_JSON_MEMBER (TP_JSON_JAX)
                                        & ~TP_JSON_MEMBER (TP_JSON_DOT_KERNELS)
                                        & ~TP_JSON_MEMBER (TP_JSON_DOT_TANGENT));
}

char *
tp_session_to_json_with_train (const TpSession *cs, const TpTrain *train)
{
  TpSession *s = (TpSession *) cs;
  char *json;
  TP_SESSION_ENTER (s);

  json = session_json (s, TP_JSON_ALL, train, NULL, NULL);
  TP_SESSION_LEAVE ();
  return json;
}

bool
tp_session_write_json (const TpSession *cs, uint64_t members,
                       bool (*write) (const char *data, size_t length,
                                      void *user),
                       void *user)
{
  TpSession *s = (TpSession *) cs;
  char *done;
  TP_SESSION_ENTER (s);

  done = session_json (s, members & TP_JSON_ALL, NULL, write, user);
  tp_free (done);
  TP_SESSION_LEAVE ();
  return done != NULL;
}
