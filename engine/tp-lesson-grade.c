/* tp-lesson-grade.c: the goal table and grading (docs/lessons.md, Goals).
 *
 * One row per goal kind: how its line starts, what it takes, the
 * sentence the engine writes when the lesson gives none, and its grader.
 * A grader asks the session the front end compiled for what it needs and
 * nothing more: the names and the tape are the compile's, a value costs
 * the interpreter's run, the plan goals the plan, `finite` the search for
 * a non-finite value, the check goal the gradient check, `peak` the
 * memory buffers, and a training goal one training (once per grade,
 * whatever the number of training goals), the passes' goals the
 * rewrites, the fusion, the rematerialised plan or forward mode's
 * tangent tape.  The session keeps what it made, so grading again after
 * a keystroke costs only what is new.  The session must have been
 * compiled with the lesson's choices (tp-lesson-choices.c): when it was
 * not, the goals about the program are unmet and say so. */
#include "tp-session-private.h"
#include "tp-lesson.h"

#include <math.h>
#include <string.h>

#include "tp-json.h"
#include "tp-train.h"

struct _TpGrader
{
  TpSession *s;
  const int32_t *answers;
  size_t n_answers;
  uint32_t flags;
  bool interrupted;
  TpTrain *train;           /* the one training of this grade */
  bool trained;
};

struct _TpGrade
{
  const TpAllocator *allocator; /* the session's */
  TpGoalResult *results;
  size_t n;
  size_t met;
  bool interrupted;
  char *found;              /* every result's found text, one block */
};

/* {==== what the goals read ====} */

/* The last statement named name (the value a use of the name means after
 * the program); false, with found saying so, when there is none. */
static bool
named (TpGrader *g, const char *name, const TpName **out, TpBuf *found)
{
  size_t n;
  const TpName *names = tp_session_names (g->s, &n);

  for (size_t k = n; k-- > 0;)
    if (strcmp (names[k].name, name) == 0)
      {
        *out = &names[k];
        return true;
      }
  tp_buf_puts (found, "there is no statement named `");
  tp_buf_puts (found, name);
  tp_buf_puts (found, "`");
  return false;
}

static void
put_node (TpGrader *g, TpNode node, TpBuf *out)
{
  tp_buf_puts (out, "node ");
  tp_buf_u64 (out, node);
  tp_buf_putc (out, ' ');
  tp_buf_puts (out, tp_op_info[g->s->prog.tape.op[node]].name);
}

/* The statement whose line recorded node, or NULL (a node differentiate
 * appended). */
static const TpName *
statement_of (TpGrader *g, TpNode node)
{
  TpSourceSpan span;
  size_t n;
  const TpName *names = tp_session_names (g->s, &n);

  if (!tp_session_source (g->s, node, &span))
    return NULL;
  for (size_t k = 0; k < n; k++)
    if (names[k].line == span.line)
      return &names[k];
  return NULL;
}

static bool
count_met (const TpGoalArgs *a, uint64_t n)
{
  switch (a->relation)
    {
    case TP_COUNT_EXACTLY:
      return n == a->count;
    case TP_COUNT_AT_MOST:
      return n <= a->count;
    case TP_COUNT_AT_LEAST:
      return n >= a->count;
    }
  return false;
}

static bool
number_met (float value, float want, const TpGoalArgs *a)
{
  if (isnan (want))
    return isnan (value);
  if (!a->within || isinf (want))
    return value == want;
  return fabs ((double) value - (double) want) <= (double) a->tolerance;
}

/* The derivative's one line saying why there is none, without its
 * newline. */
static void
put_no_derivative (TpGrader *g, TpBuf *found)
{
  const char *text = tp_session_reading (g->s, TP_READING_DERIVATIVE);
  const char *nl = strchr (text, '\n');

  tp_buf_append (found, text, nl != NULL ? (size_t) (nl - text) : strlen (text));
}

/* {==== the graders ====} */

static TpGoalState
grade_reads (TpGrader *g, const TpLessonGoal *goal, const TpGoalArgs *a,
             TpBuf *found)
{
  size_t n;
  const TpDiag *d = tp_session_diags (g->s, &n);

  (void) goal, (void) a;
  if (tp_session_status (g->s) == TP_STATUS_OK)
    return TP_GOAL_MET;
  if (n > 0)
    {
      tp_buf_u64 (found, d->line);
      tp_buf_putc (found, ':');
      tp_buf_u64 (found, d->column);
      tp_buf_puts (found, ": ");
      tp_buf_puts (found, d->message);
    }
  return TP_GOAL_UNMET;
}

static TpGoalState
grade_value (TpGrader *g, const TpLessonGoal *goal, const TpGoalArgs *a,
             TpBuf *found)
{
  const TpName *nm;
  const float *data;
  const uint32_t *dims;
  uint32_t rank;
  uint64_t volume = 1;
  bool met = true;
  char *text;

  (void) goal;
  if (!named (g, a->name, &nm, found))
    return TP_GOAL_UNMET;
  data = tp_session_node_value (g->s, nm->node, &rank, &dims);
  if (data == NULL)
    return TP_GOAL_UNMET;
  for (uint32_t k = 0; k < rank; k++)
    volume *= dims[k];
  if (a->list)
    {
      met = rank == a->shape.rank && volume == a->n_values;
      for (uint32_t k = 0; met && k < rank; k++)
        met = dims[k] == a->shape.dims[k];
    }
  for (uint64_t i = 0; met && i < volume; i++)
    met = number_met (data[i], a->list ? a->values[i] : a->number, a);
  tp_buf_putc (found, '`');
  tp_buf_puts (found, a->name);
  tp_buf_puts (found, "` is ");
  text = tp_session_node_value_text (g->s, nm->node, 16);
  if (text != NULL)
    tp_buf_puts (found, text);
  tp_string_free (text);
  return met ? TP_GOAL_MET : TP_GOAL_UNMET;
}

static TpGoalState
grade_shape (TpGrader *g, const TpLessonGoal *goal, const TpGoalArgs *a,
             TpBuf *found)
{
  const TpName *nm;
  bool met;

  (void) goal;
  if (!named (g, a->name, &nm, found))
    return TP_GOAL_UNMET;
  met = nm->rank == a->shape.rank;
  for (uint32_t k = 0; met && k < nm->rank; k++)
    met = nm->dims[k] == a->shape.dims[k];
  tp_buf_putc (found, '`');
  tp_buf_puts (found, a->name);
  tp_buf_puts (found, "` has shape ");
  tp_buf_dims (found, nm->dims, nm->rank);
  return met ? TP_GOAL_MET : TP_GOAL_UNMET;
}

/* keeps, frees and skips: what the plan does with the name's node. */
static TpGoalState
grade_plan (TpGrader *g, const TpLessonGoal *goal, const TpGoalArgs *a,
            TpBuf *found)
{
  const TpName *nm;
  const TpPlan *p = &g->s->plan;
  TpGoalKind does;

  if (!named (g, a->name, &nm, found)
      || !tp_session_need (g->s, TP_STAGE_LOWER))
    return TP_GOAL_UNMET;
  tp_buf_puts (found, "the plan ");
  if (!p->wanted[nm->node])
    {
      does = TP_GOAL_SKIPS;
      tp_buf_puts (found, "does not evaluate `");
      tp_buf_puts (found, a->name);
      tp_buf_putc (found, '`');
    }
  else if (p->readable[nm->node])
    {
      does = TP_GOAL_KEEPS;
      tp_buf_puts (found, "keeps `");
      tp_buf_puts (found, a->name);
      tp_buf_putc (found, '`');
    }
  else
    {
      does = TP_GOAL_FREES;
      tp_buf_puts (found, "frees `");
      tp_buf_puts (found, a->name);
      tp_buf_puts (found, "` after node ");
      tp_buf_u64 (found, p->last[nm->node]);
    }
  return does == goal->kind ? TP_GOAL_MET : TP_GOAL_UNMET;
}

static TpGoalState
grade_appends (TpGrader *g, const TpLessonGoal *goal, const TpGoalArgs *a,
               TpBuf *found)
{
  uint64_t n = g->s->prog.tape.len - g->s->spec_nodes;

  (void) goal;
  if (!g->s->differentiated)
    {
      put_no_derivative (g, found);
      return TP_GOAL_UNMET;
    }
  tp_buf_puts (found, "differentiate appends ");
  tp_buf_u64 (found, n);
  tp_buf_puts (found, n == 1 ? " node" : " nodes");
  return count_met (a, n) ? TP_GOAL_MET : TP_GOAL_UNMET;
}

/* derivative uses and program uses: the first node of the op among the
 * appended nodes, or among the program's. */
static TpGoalState
grade_uses (TpGrader *g, const TpLessonGoal *goal, const TpGoalArgs *a,
            TpBuf *found)
{
  const TpTape *t = &g->s->prog.tape;
  bool appended = goal->kind == TP_GOAL_DERIVATIVE_USES;
  TpNode from = appended ? g->s->spec_nodes : 0;
  TpNode to = appended ? t->len : g->s->spec_nodes;

  if (appended && !g->s->differentiated)
    {
      put_no_derivative (g, found);
      return TP_GOAL_UNMET;
    }
  tp_buf_puts (found, appended ? "the derivative " : "the program ");
  for (TpNode i = from; i < to; i++)
    if (t->op[i] == a->op)
      {
        tp_buf_puts (found, "records `");
        tp_buf_puts (found, tp_op_info[a->op].name);
        tp_buf_puts (found, "` first at node ");
        tp_buf_u64 (found, i);
        return TP_GOAL_MET;
      }
  tp_buf_puts (found, "records no `");
  tp_buf_puts (found, tp_op_info[a->op].name);
  tp_buf_puts (found, "` node");
  return TP_GOAL_UNMET;
}

static TpGoalState
grade_records (TpGrader *g, const TpLessonGoal *goal, const TpGoalArgs *a,
               TpBuf *found)
{
  uint64_t n = g->s->spec_nodes;

  (void) goal;
  tp_buf_puts (found, "the program records ");
  tp_buf_u64 (found, n);
  tp_buf_puts (found, n == 1 ? " node" : " nodes");
  return count_met (a, n) ? TP_GOAL_MET : TP_GOAL_UNMET;
}

static TpGoalState
grade_agrees (TpGrader *g, const TpLessonGoal *goal, const TpGoalArgs *a,
              TpBuf *found)
{
  TpCheckSummary sum;

  (void) goal, (void) a;
  if (!tp_session_check_summary (g->s, &sum))
    {
      if (tp_session_interrupted (g->s))
        {
          g->interrupted = true;
          return TP_GOAL_UNGRADED;
        }
      return TP_GOAL_UNMET;
    }
  tp_buf_append (found, sum.verdict, sum.verdict_length);
  return sum.outcome == TP_OUTCOME_AGREE ? TP_GOAL_MET : TP_GOAL_UNMET;
}

/* finite and nonfinite at: where the first non-finite value is born. */
static TpGoalState
grade_finite (TpGrader *g, const TpLessonGoal *goal, const TpGoalArgs *a,
              TpBuf *found)
{
  const TpNonfinite *nf = &g->s->nonfinite;
  const TpName *in = NULL;

  if (!tp_session_need (g->s, TP_STAGE_NONFINITE))
    return TP_GOAL_UNMET;
  if (!nf->found)
    {
      tp_buf_puts (found, "every value is finite");
      return goal->kind == TP_GOAL_FINITE ? TP_GOAL_MET : TP_GOAL_UNMET;
    }
  put_node (g, nf->node, found);
  in = statement_of (g, nf->node);
  if (in != NULL)
    {
      tp_buf_puts (found, ", in the statement `");
      tp_buf_puts (found, in->name);
      tp_buf_puts (found, "`,");
    }
  else
    tp_buf_puts (found, ", in the derivative,");
  tp_buf_puts (found, " is the first value that is not finite: ");
  tp_buf_f32 (found, nf->value);
  if (goal->kind == TP_GOAL_FINITE)
    return TP_GOAL_UNMET;
  return in != NULL && strcmp (in->name, a->name) == 0 ? TP_GOAL_MET
                                                       : TP_GOAL_UNMET;
}

static TpGoalState
grade_trains (TpGrader *g, const TpLessonGoal *goal, const TpGoalArgs *a,
              TpBuf *found)
{
  TpTrainSettings set;
  const float *losses;
  size_t n;

  (void) goal;
  if (g->flags & TP_GRADE_NO_TRAINING)
    return TP_GOAL_UNGRADED;
  if (!g->trained)
    {
      g->trained = true;
      if (!tp_session_train_settings (g->s, &set))
        return TP_GOAL_UNMET;
      g->train = tp_session_train (g->s, set.steps, set.learning_rate,
                                   set.learning_rate_length);
    }
  if (g->train == NULL)
    return TP_GOAL_UNMET;
  if (!tp_train_ok (g->train))
    {
      tp_buf_puts (found, tp_train_error (g->train));
      return TP_GOAL_UNMET;
    }
  tp_buf_puts (found, tp_train_summary (g->train));
  losses = tp_train_losses (g->train, &n);
  if (n == 0 || tp_train_stopped (g->train, NULL, NULL))
    return TP_GOAL_UNMET;
  return losses[n - 1] < a->number ? TP_GOAL_MET : TP_GOAL_UNMET;
}

static TpGoalState
grade_peak (TpGrader *g, const TpLessonGoal *goal, const TpGoalArgs *a,
            TpBuf *found)
{
  uint64_t elements = 0;
  uint32_t node = 0;

  (void) goal;
  if (!tp_session_memory_peak (g->s, &elements, &node, NULL))
    {
      if (tp_session_status (g->s) != TP_STATUS_OK)
        return TP_GOAL_UNMET;
      tp_buf_puts (found, "the plan evaluates nothing");
      return count_met (a, 0) ? TP_GOAL_MET : TP_GOAL_UNMET;
    }
  tp_buf_puts (found, "the plan's peak live volume is ");
  tp_buf_grouped (found, elements);
  tp_buf_puts (found, elements == 1 ? " element, at " : " elements, at ");
  put_node (g, node, found);
  return count_met (a, elements) ? TP_GOAL_MET : TP_GOAL_UNMET;
}

static TpGoalState
grade_removes (TpGrader *g, const TpLessonGoal *goal, const TpGoalArgs *a,
               TpBuf *found)
{
  TpOptimizeSummary sum;
  uint64_t removed;

  (void) goal;
  if (!tp_session_optimize_summary (g->s, &sum))
    return TP_GOAL_UNMET;
  removed = sum.nodes_after < sum.nodes_before
            ? sum.nodes_before - sum.nodes_after : 0;
  tp_buf_puts (found, "the optimizer removes ");
  tp_buf_grouped (found, removed);
  tp_buf_puts (found, removed == 1 ? " node (" : " nodes (");
  tp_buf_grouped (found, sum.nodes_before);
  tp_buf_puts (found, " evaluated before the rewrites, ");
  tp_buf_grouped (found, sum.nodes_after);
  tp_buf_puts (found, " after)");
  return count_met (a, removed) ? TP_GOAL_MET : TP_GOAL_UNMET;
}

/* fusion kernels and fusion bytes: the kernels that compute (an
 * argument's kernel computes nothing), and the bytes they move. */
static TpGoalState
grade_fusion (TpGrader *g, const TpLessonGoal *goal, const TpGoalArgs *a,
              TpBuf *found)
{
  TpFusionSummary sum;

  if (!tp_session_fusion (g->s, &sum))
    return TP_GOAL_UNMET;
  if (goal->kind == TP_GOAL_KERNELS)
    {
      tp_buf_puts (found, "the fusion makes ");
      tp_buf_grouped (found, sum.n_computed);
      tp_buf_puts (found, sum.n_computed == 1 ? " kernel that computes ("
                                              : " kernels that compute (");
      tp_buf_grouped (found, sum.n_fused);
      tp_buf_puts (found, " of several nodes)");
      return count_met (a, sum.n_computed) ? TP_GOAL_MET : TP_GOAL_UNMET;
    }
  tp_buf_puts (found, "the kernels move ");
  tp_buf_grouped (found, sum.bytes_fused);
  tp_buf_puts (found, sum.bytes_fused == 1 ? " byte (" : " bytes (");
  tp_buf_grouped (found, sum.bytes_unfused);
  tp_buf_puts (found, " unfused)");
  return count_met (a, sum.bytes_fused) ? TP_GOAL_MET : TP_GOAL_UNMET;
}

/* forward agrees, forward cheaper and reverse cheaper: the forward
 * reading's verdict and cost.  Without a parameter the reading's one
 * line says why there is no tangent; without a rank-0 target its verdict
 * says there is no gradient to compare with. */
static TpGoalState
grade_forward (TpGrader *g, const TpLessonGoal *goal, const TpGoalArgs *a,
               TpBuf *found)
{
  TpForwardSummary sum;
  bool met;

  (void) a;
  if (!tp_session_forward (g->s, &sum))
    {
      const char *text = tp_session_reading (g->s, TP_READING_FORWARD);
      const char *nl = strchr (text, '\n');
      tp_buf_append (found, text, nl != NULL ? (size_t) (nl - text)
                                             : strlen (text));
      return TP_GOAL_UNMET;
    }
  if (!sum.compared || goal->kind == TP_GOAL_FORWARD)
    {
      tp_buf_append (found, sum.verdict, sum.verdict_length);
      return sum.compared && sum.agrees && goal->kind == TP_GOAL_FORWARD
             ? TP_GOAL_MET : TP_GOAL_UNMET;
    }
  tp_buf_append (found, sum.cost, sum.cost_length);
  met = goal->kind == TP_GOAL_FORWARD_CHEAPER
        ? sum.work_forward < sum.work_reverse
        : sum.work_reverse < sum.work_forward;
  return met ? TP_GOAL_MET : TP_GOAL_UNMET;
}

/* remat saves: how far the rematerialisation the lesson asks for lowers
 * the peak live volume, in the engine's sentence. */
static TpGoalState
grade_saves (TpGrader *g, const TpLessonGoal *goal, const TpGoalArgs *a,
             TpBuf *found)
{
  TpRematSummary sum;
  uint64_t saved;

  (void) goal;
  if (!tp_session_remat (g->s, &sum))
    return TP_GOAL_UNMET;
  tp_buf_append (found, sum.sentence, sum.sentence_length);
  if (!sum.on)
    return TP_GOAL_UNMET;
  saved = sum.peak_after < sum.peak_before ? sum.peak_before - sum.peak_after
                                           : 0;
  return count_met (a, saved) ? TP_GOAL_MET : TP_GOAL_UNMET;
}

static TpGoalState
grade_question (TpGrader *g, const TpLessonGoal *goal, const TpGoalArgs *a,
                TpBuf *found)
{
  int32_t answer = goal->question < g->n_answers ? g->answers[goal->question]
                                                 : -1;

  if (answer < 0 || (size_t) answer >= goal->n_choices)
    {
      tp_buf_puts (found, "not answered yet");
      return TP_GOAL_UNMET;
    }
  if ((uint32_t) answer == a->right)
    return TP_GOAL_MET;
  tp_buf_puts (found, "that is not the answer");
  return TP_GOAL_UNMET;
}

/* {==== the table ====} */

const TpGoalRow tp_goal_rows[TP_N_GOAL_KINDS] = {
  [TP_GOAL_READS] = { "reads", TP_ARGS_NONE, "the program reads",
                      grade_reads },
  [TP_GOAL_VALUE] = { "value", TP_ARGS_VALUE, "`%n` is %v", grade_value },
  [TP_GOAL_SHAPE] = { "shape", TP_ARGS_SHAPE, "`%n` has shape %v",
                      grade_shape },
  [TP_GOAL_KEEPS] = { "plan keeps", TP_ARGS_NAME,
                      "the plan keeps `%n` to the end", grade_plan },
  [TP_GOAL_FREES] = { "plan frees", TP_ARGS_NAME,
                      "the plan frees `%n` after its last reader",
                      grade_plan },
  [TP_GOAL_SKIPS] = { "plan skips", TP_ARGS_NAME,
                      "the plan does not evaluate `%n`", grade_plan },
  [TP_GOAL_APPENDS] = { "derivative appends", TP_ARGS_COUNT,
                        "differentiate appends %v nodes", grade_appends },
  [TP_GOAL_DERIVATIVE_USES] = { "derivative uses", TP_ARGS_OP,
                                "the derivative uses `%o`", grade_uses },
  [TP_GOAL_PROGRAM_USES] = { "program uses", TP_ARGS_OP,
                             "the program uses `%o`", grade_uses },
  [TP_GOAL_RECORDS] = { "program records", TP_ARGS_COUNT,
                        "the program records %v nodes", grade_records },
  [TP_GOAL_AGREES] = { "check agrees", TP_ARGS_NONE,
                       "the gradient check agrees with finite differences",
                       grade_agrees },
  [TP_GOAL_FINITE] = { "finite", TP_ARGS_NONE, "every value is finite",
                       grade_finite },
  [TP_GOAL_BORN] = { "nonfinite at", TP_ARGS_NAME,
                     "the first value that is not finite is born in `%n`",
                     grade_finite },
  [TP_GOAL_TRAINS] = { "trains below", TP_ARGS_NUMBER,
                       "training with the program's settings brings the "
                       "target below %v", grade_trains },
  [TP_GOAL_PEAK] = { "peak", TP_ARGS_COUNT,
                     "the plan's peak live volume is %v elements",
                     grade_peak },
  [TP_GOAL_QUESTION] = { "question:", TP_ARGS_QUESTION, NULL,
                         grade_question },
  [TP_GOAL_REMOVES] = { "optimized removes", TP_ARGS_COUNT,
                        "the optimizer removes %v nodes", grade_removes },
  [TP_GOAL_KERNELS] = { "fusion kernels", TP_ARGS_COUNT,
                        "the fusion makes %v kernels that compute",
                        grade_fusion },
  [TP_GOAL_FORWARD] = { "forward agrees", TP_ARGS_NONE,
                        "forward mode's tangent agrees with reverse mode's "
                        "gradients", grade_forward },
  [TP_GOAL_BYTES] = { "fusion bytes", TP_ARGS_COUNT,
                      "the fused kernels move %v bytes", grade_fusion },
  [TP_GOAL_FORWARD_CHEAPER] = { "forward cheaper", TP_ARGS_NONE,
                                "forward mode computes the whole gradient "
                                "with less work than reverse mode",
                                grade_forward },
  [TP_GOAL_REVERSE_CHEAPER] = { "reverse cheaper", TP_ARGS_NONE,
                                "reverse mode computes the whole gradient "
                                "with less work than forward mode",
                                grade_forward },
  [TP_GOAL_SAVES] = { "remat saves", TP_ARGS_COUNT,
                      "rematerialising lowers the peak live volume by %v "
                      "elements", grade_saves },
};

const char *
tp_goal_kind_name (TpGoalKind kind)
{
  if ((unsigned) kind >= TP_N_GOAL_KINDS)
    return NULL;
  return kind == TP_GOAL_QUESTION ? "question" : tp_goal_rows[kind].words;
}

/* {==== grading ====} */

static TpGrade *
grade (const TpLesson *l, TpSession *s, const int32_t *answers,
       size_t n_answers, uint32_t flags)
{
  TpGrader g = { s, answers, n_answers, flags, false, NULL, false };
  TpGrade *out = tp_malloc (sizeof *out);
  size_t *at;
  TpBuf found, other;
  bool reads = tp_session_status (s) == TP_STATUS_OK, failed = false;
  bool same = true;

  if (out == NULL)
    return NULL;
  memset (out, 0, sizeof *out);
  out->allocator = s->allocator;
  out->n = l->n_goals;
  out->results = tp_malloc ((l->n_goals + 1) * sizeof *out->results);
  at = tp_malloc ((l->n_goals + 1) * sizeof *at);
  tp_buf_init (&found);
  tp_buf_init (&other);
  if (out->results == NULL || at == NULL)
    failed = true;
  /* A program compiled with other passes than the lesson's is another
   * program to the goals about it. */
  if (reads && !failed)
    {
      same = tp_lesson_choices_match (l, s, &other);
      failed = other.failed;
    }
  for (size_t k = 0; k < l->n_goals && !failed; k++)
    {
      const TpLessonGoal *goal = &l->goals[k];
      TpGoalResult *r = &out->results[k];

      at[k] = found.len;
      if (goal->kind == TP_GOAL_READS || goal->kind == TP_GOAL_QUESTION
          || (reads && same))
        r->state = tp_goal_rows[goal->kind].grade (&g, goal, &l->args[k],
                                                   &found);
      else
        {
          r->state = TP_GOAL_UNMET;
          if (reads)
            tp_buf_append (&found, other.data, other.len);
          else
            tp_buf_puts (&found, "the program does not read");
        }
      /* A reading that ran out of memory says so in the session. */
      failed = found.failed || (reads && tp_session_status (s) != TP_STATUS_OK);
      tp_buf_putc (&found, '\0');
      r->sentence = &goal->sentence;
      r->hint = r->state == TP_GOAL_UNMET ? goal->hint : NULL;
      out->met += r->state == TP_GOAL_MET;
    }
  tp_train_free (g.train);
  tp_buf_clear (&other);
  if (!failed)
    {
      out->found = tp_buf_steal (&found);
      failed = out->found == NULL;
    }
  if (failed)
    {
      tp_buf_clear (&found);
      tp_free (at);
      tp_grade_free (out);
      return NULL;
    }
  for (size_t k = 0; k < l->n_goals; k++)
    {
      out->results[k].found = out->found + at[k];
      out->results[k].found_length = strlen (out->found + at[k]);
    }
  tp_free (at);
  out->interrupted = g.interrupted;
  return out;
}

TpGrade *
tp_lesson_grade (const TpLesson *lesson, const TpSession *cs,
                 const int32_t *answers, size_t n_answers, uint32_t flags)
{
  TpSession *s = (TpSession *) cs;
  TpGrade *out;

  if (tp_session_status (s) == TP_STATUS_NO_MEMORY)
    return NULL;
  if (answers == NULL)
    n_answers = 0;
  {
    TP_SESSION_ENTER (s);
    out = grade (lesson, s, answers, n_answers, flags);
    TP_SESSION_LEAVE ();
  }
  return out;
}

size_t
tp_grade_n_goals (const TpGrade *grade)
{
  return grade->n;
}

bool
tp_grade_goal (const TpGrade *grade, size_t k, TpGoalResult *out)
{
  if (k >= grade->n)
    return false;
  *out = grade->results[k];
  return true;
}

size_t
tp_grade_met (const TpGrade *grade)
{
  return grade->met;
}

bool
tp_grade_all_met (const TpGrade *grade)
{
  return grade->n > 0 && grade->met == grade->n;
}

bool
tp_grade_interrupted (const TpGrade *grade)
{
  return grade->interrupted;
}

char *
tp_grade_to_json (const TpGrade *grade)
{
  static const char *const states[] = { "met", "unmet", "ungraded" };
  const TpAllocator *saved = tp_alloc_enter (grade->allocator);
  TpBuf out;
  char *json;

  tp_buf_init (&out);
  tp_buf_puts (&out, "{\"all_met\":");
  tp_buf_puts (&out, tp_grade_all_met (grade) ? "true" : "false");
  tp_buf_puts (&out, ",\"met\":");
  tp_buf_u64 (&out, grade->met);
  tp_buf_puts (&out, ",\"interrupted\":");
  tp_buf_puts (&out, grade->interrupted ? "true" : "false");
  tp_buf_puts (&out, ",\"goals\":[");
  for (size_t k = 0; k < grade->n; k++)
    {
      const TpGoalResult *r = &grade->results[k];
      tp_buf_puts (&out, k > 0 ? ",{\"state\":\"" : "{\"state\":\"");
      tp_buf_puts (&out, states[r->state]);
      tp_buf_puts (&out, "\",\"found\":");
      tp_json_string (&out, r->found, r->found_length);
      tp_buf_putc (&out, '}');
    }
  tp_buf_puts (&out, "]}\n");
  json = tp_buf_steal (&out);
  tp_alloc_leave (saved);
  return json;
}

void
tp_grade_free (TpGrade *grade)
{
  if (grade == NULL)
    return;
  tp_free (grade->results);
  tp_free (grade->found);
  tp_free (grade);
}
