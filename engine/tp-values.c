/* tp-values.c: the values reading. */
#include "tp-values.h"

#include <string.h>

#include "tp-engine.h"

#define EDGE 3
#define SUMMARY_MAX 4096

/* One element: Rust Display, or the short format outside the readings. */
static void
put_number (TpBuf *out, float value, bool short_format)
{
  char text[TP_SHORT_NUMBER_MAX];

  if (!short_format)
    {
      tp_buf_f32 (out, value);
      return;
    }
  tp_buf_append (out, text, tp_short_number ((double) value, text));
}

/* Prints the tensor's nested lists; when summarise is set, an axis longer
 * than 2 * EDGE shows its first and last EDGE entries around "...".
 * With text (whole, so the elements come in order), each element's text
 * is copied from it. */
static void
put_nested (TpBuf *out, const float *data, const TpShape *shape,
            bool summarise, bool short_format, const TpTensorText *text)
{
  const char *next = text != NULL ? text->text : NULL;
  uint32_t rank = shape->rank;
  uint32_t idx[TP_MAX_RANK];
  size_t stride[TP_MAX_RANK];
  uint32_t depth = 0;

  stride[rank - 1] = 1;
  for (uint32_t d = rank - 1; d > 0; d--)
    stride[d - 1] = stride[d] * shape->dims[d];
  memset (idx, 0, sizeof idx);
  tp_buf_putc (out, '[');
  /* An explicit walk over the index tree: idx[depth] is the position on
   * the current axis. */
  for (;;)
    {
      uint32_t n = shape->dims[depth];
      if (idx[depth] >= n)
        {
          tp_buf_putc (out, ']');
          if (depth == 0)
            break;
          depth--;
          idx[depth]++;
          if (summarise && shape->dims[depth] > 2 * EDGE
              && idx[depth] == EDGE)
            {
              tp_buf_puts (out, ", ...");
              idx[depth] = shape->dims[depth] - EDGE;
            }
          continue;
        }
      if (idx[depth] > 0)
        tp_buf_append (out, ", ", 2);
      if (depth + 1 < rank)
        {
          depth++;
          idx[depth] = 0;
          tp_buf_putc (out, '[');
          continue;
        }
      {
        size_t at = 0;
        for (uint32_t d = 0; d < rank; d++)
          at += idx[d] * stride[d];
        if (next != NULL)
          {
            /* whole, so in order: the text's elements are each followed
             * by one comma */
            tp_texts_copy (out, next, text->widths[at]);
            next += text->widths[at] + 1;
          }
        else
          put_number (out, data[at], short_format);
      }
      idx[depth]++;
      if (summarise && n > 2 * EDGE && idx[depth] == EDGE)
        {
          tp_buf_puts (out, ", ...");
          idx[depth] = n - EDGE;
        }
    }
}

/* The tensor; when it is shown whole, its elements' text is taken from
 * texts, data being the key'th of them (texts NULL: formatted here). */
static void
put_tensor (TpBuf *out, const float *data, const TpShape *shape,
            TpValuesBudget *budget, bool short_format, TpTexts *texts,
            uint32_t key)
{
  uint64_t volume = tp_shape_volume (shape), shown = 1;

  if (shape->rank == 0)
    {
      put_number (out, data[0], short_format);
      return;
    }
  if (volume <= budget->full)
    {
      const TpTensorText *text = NULL;
      budget->full -= volume;
      if (texts != NULL && !short_format)
        text = tp_texts_get (texts, key, out);
      put_nested (out, data, shape, false, short_format, text);
      return;
    }
  for (uint32_t d = 0; d < shape->rank; d++)
    shown *= shape->dims[d] > 2 * EDGE ? 2 * EDGE : shape->dims[d];
  /* Summaries have a budget of their own, or naming a big tensor many
   * times would print its summary as many times. */
  if (shown <= SUMMARY_MAX && shown <= budget->summary)
    {
      budget->summary -= shown;
      put_nested (out, data, shape, true, short_format, NULL);
      return;
    }
  tp_buf_puts (out, "(");
  tp_buf_u64 (out, volume);
  tp_buf_puts (out, " elements, not shown: this reading shows at most ");
  tp_buf_u64 (out, TP_VALUES_BUDGET);
  tp_buf_puts (out, " in full)");
}

void
tp_values_put_tensor (TpBuf *out, const float *data, const TpShape *shape,
                      TpValuesBudget *budget)
{
  put_tensor (out, data, shape, budget, false, NULL, 0);
}

void
tp_values_put_node (TpBuf *out, TpTexts *texts, TpNode node,
                    const float *data, const TpShape *shape,
                    TpValuesBudget *budget)
{
  put_tensor (out, data, shape, budget, false, texts, node);
}

void
tp_values_line_short (TpBuf *out, const char *name, const TpShape *shape,
                      const float *data, TpValuesBudget *budget)
{
  size_t mark = out->len;

  tp_buf_puts (out, name);
  tp_buf_pad_from (out, mark, 12);
  tp_buf_putc (out, ' ');
  mark = out->len;
  tp_buf_shape (out, shape);
  tp_buf_pad_from (out, mark, 10);
  tp_buf_putc (out, ' ');
  put_tensor (out, data, shape, budget, true, NULL, 0);
  tp_buf_putc (out, '\n');
}

void
tp_values_line (TpBuf *out, const char *name, const TpShape *shape,
                const float *data, const TpShape *data_shape,
                TpValuesBudget *budget, TpMap *map, TpNode node,
                TpNode value_node, TpTexts *texts, uint32_t key)
{
  size_t mark = out->len;

  tp_map_line (map, out, node, TP_ROLE_NODE);
  tp_buf_puts (out, name);
  tp_map_ref (map, out, mark, TP_TOKEN_NAME, node);
  tp_buf_pad_from (out, mark, 12);
  tp_buf_putc (out, ' ');
  mark = out->len;
  tp_buf_shape (out, shape);
  tp_map_ref (map, out, mark, TP_TOKEN_SHAPE, TP_MAP_NO_NODE);
  tp_buf_pad_from (out, mark, 10);
  tp_buf_putc (out, ' ');
  mark = out->len;
  put_tensor (out, data, data_shape, budget, false, texts, key);
  tp_map_ref (map, out, mark, TP_TOKEN_NUMBER, value_node);
  tp_buf_putc (out, '\n');
}

void
tp_values_statements (const TpProgram *prog, float *const *values,
                      TpTexts *texts, TpBuf *out, TpValuesBudget *budget,
                      TpMap *map)
{
  for (uint32_t s = 0; s < prog->n_stmts; s++)
    {
      const TpStatement *st = &prog->stmts[s];
      TpNode last = tp_program_lookup (prog, st->name, strlen (st->name));

      /* The statement's own shape, beside the value of the name's last
       * assignment (the original prints them so). */
      tp_values_line (out, st->name, &prog->tape.shape[st->node],
                      values[last], &prog->tape.shape[last], budget, map,
                      st->node, last, texts, last);
    }
}
