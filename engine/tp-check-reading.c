/* tp-check-reading.c: the check reading's text and JSON (tp-check.h,
 * docs/language.md, check), from what tp-check.c found.  Apart from the
 * check itself only to keep each file under the house's 1,000 lines. */
#include "tp-check.h"

#include <float.h>
#include <stdint.h>
#include <string.h>

#include "tp-engine.h"
#include "tp-json.h"

static const char *const verdict_names[] = {
  [TP_VERDICT_OK] = "ok",
  [TP_VERDICT_DIFFERS] = "differs",
  [TP_VERDICT_KINK] = "kink",
  [TP_VERDICT_NONFINITE] = "nonfinite",
  [TP_VERDICT_UNCHECKED] = "unchecked",
};

/* "[0, 1]" for a flat index of shape; "[]" for rank 0. */
static void
put_element (TpBuf *out, const TpShape *s, uint64_t e)
{
  uint32_t idx[TP_MAX_RANK];

  for (uint32_t d = s->rank; d-- > 0;)
    {
      idx[d] = (uint32_t) (e % s->dims[d]);
      e /= s->dims[d];
    }
  tp_buf_putc (out, '[');
  for (uint32_t d = 0; d < s->rank; d++)
    {
      if (d > 0)
        tp_buf_puts (out, ", ");
      tp_buf_u64 (out, idx[d]);
    }
  tp_buf_putc (out, ']');
}

/* A relative error with two significant digits: "0", "6.0e-8", "1.2e0";
 * non-finite as "inf".  Digits come from integer arithmetic on a value
 * scaled by exact powers of ten (computed by repeated multiplication),
 * so no printf decides them. */
static void
put_error (TpBuf *out, double x)
{
  int exp10 = 0;
  uint64_t digits;

  if (!(x == x) || x > DBL_MAX)
    {
      tp_buf_puts (out, "inf");
      return;
    }
  if (x <= 0.0)
    {
      tp_buf_putc (out, '0');
      return;
    }
  while (x >= 10.0)
    {
      x /= 10.0;
      exp10++;
    }
  while (x < 1.0)
    {
      x *= 10.0;
      exp10--;
    }
  digits = (uint64_t) (x * 10.0 + 0.5);
  if (digits >= 100)
    {
      digits /= 10;
      exp10++;
    }
  tp_buf_putc (out, (char) ('0' + digits / 10));
  tp_buf_putc (out, '.');
  tp_buf_putc (out, (char) ('0' + digits % 10));
  tp_buf_putc (out, 'e');
  if (exp10 < 0)
    {
      tp_buf_putc (out, '-');
      exp10 = -exp10;
    }
  tp_buf_u64 (out, (uint64_t) exp10);
}

/* The numeric value as the f32 it rounds to, Rust Display. */
static void
put_numeric (TpBuf *out, double x)
{
  tp_buf_f32 (out, (float) x);
}

/* An operand written as the language writes the op (its row's WRITTEN
 * and FORM): "0 / 0", "-2", "ln(-0.5)", "reshape(0)". */
static void
put_written (TpBuf *out, TpOp op, const TpNonfinite *nf)
{
  const TpOpInfo *info = &tp_op_info[op];

  if (info->form == TP_FORM_OPERATOR && info->arity == 2)
    {
      tp_buf_f32 (out, nf->operands[0]);
      tp_buf_putc (out, ' ');
      tp_buf_puts (out, info->written);
      tp_buf_putc (out, ' ');
      tp_buf_f32 (out, nf->operands[1]);
    }
  else if (info->form == TP_FORM_OPERATOR)
    {
      tp_buf_puts (out, info->written);
      tp_buf_f32 (out, nf->operands[0]);
    }
  else
    {
      tp_buf_puts (out, info->written);
      tp_buf_putc (out, '(');
      tp_buf_f32 (out, nf->operands[0]);
      tp_buf_putc (out, ')');
    }
}

/* "ln(-0.5)", "0 / 0", "maximum(a, b)", or for an op without per-element
 * operands a phrase. */
static void
put_birth (TpBuf *out, const TpTape *t, const TpNonfinite *nf)
{
  TpOp op = (TpOp) t->op[nf->node];

  switch (op)
    {
    case TP_OP_LEAF:
    case TP_OP_PARAMETER:
    case TP_OP_INPUT:
      tp_buf_puts (out, "the written value");
      return;
    case TP_OP_MATMUL:
      tp_buf_puts (out, "the sum of products");
      return;
    case TP_OP_SUM:
    case TP_OP_SUM_ALONG:
      tp_buf_puts (out, "the running sum");
      return;
    case TP_OP_LOG_SUM_EXP:
      tp_buf_puts (out, "logsumexp of the row");
      return;
    case TP_OP_BROADCAST_ALONG:
    case TP_OP_PERMUTE:
      tp_buf_puts (out, "a copy");
      return;
    case TP_OP_MAXIMUM:
    case TP_OP_STEP:
      /* not written in the language: relu records Maximum, a rule Step */
      tp_buf_puts (out, op == TP_OP_MAXIMUM ? "maximum(" : "step(");
      tp_buf_f32 (out, nf->operands[0]);
      tp_buf_puts (out, ", ");
      tp_buf_f32 (out, nf->operands[1]);
      tp_buf_putc (out, ')');
      return;
    case TP_OP_LOG_SOFTMAX:
      tp_buf_puts (out, tp_op_info[op].written);
      tp_buf_puts (out, " at ");
      tp_buf_f32 (out, nf->operands[0]);
      return;
    case TP_OP_ADD:
    case TP_OP_SUB:
    case TP_OP_MUL:
    case TP_OP_DIV:
    case TP_OP_NEG:
    case TP_OP_EXP:
    case TP_OP_LN:
    case TP_OP_SQRT:
    case TP_OP_TANH:
    case TP_OP_SIN:
    case TP_OP_COS:
    case TP_OP_RESHAPE:
    case TP_OP_BROADCAST:
      put_written (out, op, nf);
      return;
    }
}

static void
put_nonfinite_sentence (TpBuf *out, const TpTape *t, const TpNonfinite *nf)
{
  tp_buf_puts (out, "node ");
  tp_buf_u64 (out, nf->node);
  tp_buf_putc (out, ' ');
  tp_buf_puts (out, tp_op_info[t->op[nf->node]].name);
  tp_buf_puts (out, ", element ");
  put_element (out, &t->shape[nf->node], nf->element);
  tp_buf_puts (out, ": ");
  put_birth (out, t, nf);
  tp_buf_puts (out, " = ");
  tp_buf_f32 (out, nf->value);
  tp_buf_puts (out, "; ");
  tp_buf_u64 (out, nf->inherited_by);
  tp_buf_puts (out, nf->inherited_by == 1 ? " later node inherits it"
                                          : " later nodes inherit it");
}

void
tp_check_describe (const TpCheck *c, const TpTape *t, const char *loss_name,
                   const char *const *names, float *const *values,
                   TpBuf *out, TpCheckVerdict *verdict)
{
  uint32_t differs = 0, kinks = 0, unchecked = 0, nonfinite = 0;
  size_t width = 0;

  (void) values;
  verdict->at = out->len + strlen ("gradient check: ");
  verdict->outcome = TP_OUTCOME_UNCHECKED;
  verdict->differing = 0;
  switch (c->state)
    {
    case TP_CHECK_NO_DERIVATIVE:
      tp_buf_puts (out, "gradient check: no derivative to check\n");
      break;
    case TP_CHECK_TOO_BIG:
      tp_buf_puts (out, "gradient check: not run: the target's ancestors "
                        "hold ");
      tp_buf_u64 (out, c->elements / 2);
      tp_buf_puts (out, " elements, over the double interpreter's ");
      tp_buf_u64 (out, TP_CHECK_ELEMENTS / 2);
      tp_buf_putc (out, '\n');
      break;
    case TP_CHECK_DONE:
      if (!c->directions)
        tp_buf_puts (out, "gradient check: central differences in double, "
                          "step cbrt(eps) * max(1, |p|), tolerance 1e-3\n");
      else
        {
          tp_buf_puts (out, "gradient check: central differences in double "
                            "along seeded random directions v, (f(p + h v) "
                            "- f(p - h v)) / 2h against g . v, step "
                            "cbrt(eps) * max(1, max |p|), tolerance 1e-3\n"
                            "element by element would cost more than ");
          tp_buf_u64 (out, TP_CHECK_ELEMENT_WORK);
          tp_buf_puts (out, " estimated multiply-adds and more than ");
          tp_buf_u64 (out, TP_CHECK_DIRECTIONS);
          tp_buf_puts (out, " directions a parameter (");
          tp_buf_u64 (out, c->direction_work);
          tp_buf_puts (out, ")\n");
        }
      for (uint32_t k = 0; k < c->n_grads && k < TP_CHECK_TEXT_LINES; k++)
        {
          size_t len = strlen (loss_name) + strlen (names[k]) + 7;
          if (len > width)
            width = len;
        }
      for (uint32_t k = 0; k < c->n_grads; k++)
        {
          const TpCheckGradient *g = &c->grads[k];
          const TpShape *s = &t->shape[g->parameter];
          size_t mark = out->len;
          differs += g->verdict == TP_VERDICT_DIFFERS;
          kinks += g->verdict == TP_VERDICT_KINK;
          unchecked += g->verdict == TP_VERDICT_UNCHECKED;
          nonfinite += g->verdict == TP_VERDICT_NONFINITE;
          if (k >= TP_CHECK_TEXT_LINES)
            continue;
          tp_buf_puts (out, "d ");
          tp_buf_puts (out, loss_name);
          tp_buf_puts (out, " / d ");
          tp_buf_puts (out, names[k]);
          tp_buf_pad_from (out, mark, width);
          tp_buf_putc (out, ' ');
          mark = out->len;
          tp_buf_puts (out, verdict_names[g->verdict]);
          tp_buf_pad_from (out, mark, 10);
          tp_buf_putc (out, ' ');
          if (g->verdict == TP_VERDICT_UNCHECKED)
            tp_buf_puts (out, g->along ? "no direction fits the work budget"
                                       : "no element fits the work budget");
          else
            {
              tp_buf_puts (out, g->verdict == TP_VERDICT_KINK ? "at "
                                                              : "worst ");
              if (g->along)
                {
                  tp_buf_puts (out, "direction ");
                  tp_buf_u64 (out, g->element);
                }
              else
                put_element (out, s, g->element);
              tp_buf_puts (out, ": analytic ");
              tp_buf_f32 (out, g->analytic);
              tp_buf_puts (out, ", numeric ");
              put_numeric (out, g->numeric);
              tp_buf_puts (out, ", relative error ");
              put_error (out, g->relative_error);
            }
          tp_buf_puts (out, " (");
          if (g->along)
            {
              tp_buf_puts (out, "along ");
              tp_buf_u64 (out, g->checked);
              tp_buf_puts (out, g->checked == 1 ? " random direction, "
                                                : " random directions, ");
            }
          else
            {
              tp_buf_u64 (out, g->checked);
              tp_buf_puts (out, " of ");
            }
          tp_buf_u64 (out, g->volume);
          tp_buf_puts (out, g->volume == 1 ? " element" : " elements");
          if (!g->along && g->sampled < g->volume)
            tp_buf_puts (out, ", sampled");
          if (g->kinks > 0)
            {
              tp_buf_puts (out, ", ");
              tp_buf_u64 (out, g->kinks);
              tp_buf_puts (out, g->kinks == 1 ? " kink" : " kinks");
            }
          tp_buf_puts (out, ")\n");
        }
      if (c->n_grads > TP_CHECK_TEXT_LINES)
        {
          tp_buf_puts (out, "... ");
          tp_buf_u64 (out, c->n_grads - TP_CHECK_TEXT_LINES);
          tp_buf_puts (out, " more parameters: the text lists the first ");
          tp_buf_u64 (out, TP_CHECK_TEXT_LINES);
          tp_buf_putc (out, '\n');
        }
      if (c->cut)
        {
          tp_buf_puts (out, "the work budget (");
          tp_buf_u64 (out, c->budget);
          tp_buf_puts (out, c->directions
                            ? ") checked fewer parameters\n"
                            : ") checked fewer elements\n");
        }
      verdict->at = out->len;
      verdict->differing = differs;
      verdict->outcome = differs > 0 ? TP_OUTCOME_DIFFER
                         : nonfinite > 0 ? TP_OUTCOME_NONFINITE
                         : unchecked == c->n_grads ? TP_OUTCOME_UNCHECKED
                         : TP_OUTCOME_AGREE;
      if (differs > 0)
        {
          tp_buf_u64 (out, differs);
          tp_buf_puts (out, differs == 1
                            ? " gradient differs from finite differences\n"
                            : " gradients differ from finite differences\n");
        }
      else if (nonfinite > 0)
        tp_buf_puts (out, "a gradient or the loss is not finite: see where "
                          "the non-finite value is born\n");
      else if (unchecked == c->n_grads)
        tp_buf_puts (out, "no gradient was checked\n");
      else if (kinks > 0)
        tp_buf_puts (out, "the checked gradients agree with finite "
                          "differences, away from kinks\n");
      else if (unchecked > 0 || c->cut)
        tp_buf_puts (out, c->directions
                          ? "the checked gradients agree with finite "
                            "differences along random directions\n"
                          : "the checked elements agree with finite "
                            "differences\n");
      else
        tp_buf_puts (out, c->directions
                          ? "all gradients agree with finite differences "
                            "along random directions\n"
                          : "all gradients agree with finite "
                            "differences\n");
      break;
    }
  {
    const char *nl = out->data != NULL && verdict->at < out->len
                     ? memchr (out->data + verdict->at, '\n',
                               out->len - verdict->at) : NULL;
    verdict->len = nl != NULL ? (size_t) (nl - out->data) - verdict->at : 0;
  }
  if (c->nonfinite.found)
    {
      tp_buf_puts (out, "non-finite: ");
      put_nonfinite_sentence (out, t, &c->nonfinite);
      tp_buf_putc (out, '\n');
    }
  else
    tp_buf_puts (out, "non-finite: none, every value is finite\n");
}

static void
json_element (TpBuf *out, const TpShape *s, uint64_t e)
{
  uint32_t idx[TP_MAX_RANK];

  for (uint32_t d = s->rank; d-- > 0;)
    {
      idx[d] = (uint32_t) (e % s->dims[d]);
      e /= s->dims[d];
    }
  tp_buf_putc (out, '[');
  for (uint32_t d = 0; d < s->rank; d++)
    {
      if (d > 0)
        tp_buf_putc (out, ',');
      tp_buf_u64 (out, idx[d]);
    }
  tp_buf_putc (out, ']');
}

/* A relative error in JSON: a number, or "inf". */
static void
json_error (TpBuf *out, double x)
{
  if (!(x == x) || x > DBL_MAX)
    tp_buf_puts (out, "\"inf\"");
  else
    put_error (out, x);
}

void
tp_check_json (const TpCheck *c, const TpTape *t, const char *const *names,
               const TpCheckVerdict *v, const char *text, TpBuf *out)
{
  static const char *const outcomes[] = {
    [TP_OUTCOME_AGREE] = "agree", [TP_OUTCOME_DIFFER] = "differ",
    [TP_OUTCOME_NONFINITE] = "nonfinite", [TP_OUTCOME_UNCHECKED] = "unchecked",
  };

  tp_buf_puts (out, "{\"outcome\":");
  if (c == NULL)
    tp_buf_puts (out, "null,\"verdict\":\"\"");
  else
    {
      tp_buf_putc (out, '"');
      tp_buf_puts (out, outcomes[v->outcome]);
      tp_buf_puts (out, "\",\"verdict\":");
      tp_json_string (out, text + v->at, v->len);
    }
  tp_buf_puts (out, ",\"gradients\":[");
  for (uint32_t k = 0; c != NULL && k < c->n_grads; k++)
    {
      const TpCheckGradient *g = &c->grads[k];
      bool none = g->verdict == TP_VERDICT_UNCHECKED;
      if (k > 0)
        tp_buf_putc (out, ',');
      tp_buf_puts (out, "{\"parameter\":");
      tp_json_string (out, names[k], strlen (names[k]));
      tp_buf_puts (out, ",\"element\":");
      if (none)
        tp_buf_puts (out, "[]");
      else if (g->along)
        tp_buf_puts (out, "[]");
      else
        json_element (out, &t->shape[g->parameter], g->element);
      tp_buf_puts (out, ",\"analytic\":");
      if (none)
        tp_buf_puts (out, "null");
      else
        tp_json_f32 (out, g->analytic);
      tp_buf_puts (out, ",\"numeric\":");
      if (none)
        tp_buf_puts (out, "null");
      else
        tp_json_f32 (out, (float) g->numeric);
      tp_buf_puts (out, ",\"relative_error\":");
      if (none)
        tp_buf_puts (out, "null");
      else
        json_error (out, g->relative_error);
      tp_buf_puts (out, ",\"verdict\":\"");
      tp_buf_puts (out, verdict_names[g->verdict]);
      tp_buf_putc (out, '"');
      if (g->along)
        {
          tp_buf_puts (out, ",\"directions\":");
          tp_buf_u64 (out, g->checked);
          tp_buf_puts (out, ",\"direction\":");
          if (none)
            tp_buf_puts (out, "null");
          else
            tp_buf_u64 (out, g->element);
        }
      tp_buf_putc (out, '}');
    }
  tp_buf_puts (out, "],\"nonfinite\":");
  if (c == NULL || !c->nonfinite.found)
    tp_buf_puts (out, "null");
  else
    {
      const TpNonfinite *nf = &c->nonfinite;
      tp_buf_puts (out, "{\"node\":");
      tp_buf_u64 (out, nf->node);
      tp_buf_puts (out, ",\"element\":");
      json_element (out, &t->shape[nf->node], nf->element);
      tp_buf_puts (out, ",\"op\":\"");
      tp_buf_puts (out, tp_op_info[t->op[nf->node]].name);
      tp_buf_puts (out, "\",\"operands\":[");
      for (uint32_t k = 0; k < nf->n_operands; k++)
        {
          if (k > 0)
            tp_buf_putc (out, ',');
          tp_json_f32 (out, nf->operands[k]);
        }
      tp_buf_puts (out, "],\"value\":\"");
      tp_buf_puts (out, nf->value != nf->value ? "NaN"
                        : nf->value > 0 ? "inf" : "-inf");
      tp_buf_puts (out, "\",\"inherited_by\":");
      tp_buf_u64 (out, nf->inherited_by);
      tp_buf_putc (out, '}');
    }
  tp_buf_putc (out, '}');
}
